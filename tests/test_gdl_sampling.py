"""Samplers, shares and the scipy object of GDL / DLap (issue 23, item 4): chi-squared tests against
the exact pmf at significance 1e-6, with a power check (a 30% wrong scale is rejected)."""

import math

import numpy as np
import pytest
from scipy import stats

from arete_proofs.noise import make
from arete_proofs.noise.gdl import gdl_variates, nb_variates

ALPHA = 1e-6


def _chi2_pvalue(x, noise, min_expected=20):
    """Chi-squared p-value of integer draws ``x`` against the exact pmf (cells with expected < min_expected merged into tails)."""
    n = x.size
    K = 0
    while float(noise.sf(K, digits=12)) * n > min_expected:
        K += 1
    ks = np.arange(-K, K + 1)
    p = np.array([float(noise.pmf(int(k), digits=12)) for k in ks])
    tail = float(noise.sf(K, digits=12))
    expected = np.concatenate([[tail], p, [tail]]) * n
    observed = np.concatenate([[np.sum(x < -K)], [np.sum(x == k) for k in ks], [np.sum(x > K)]])
    return stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue


@pytest.mark.parametrize("name,params", [("gdl", {"beta": "0.5", "a": "0.7"}), ("gdl", {"beta": "3", "a": "1.2"}),
                                         ("gdl", {"beta": "0.05", "a": "0.3"}), ("dlap", {"a": "0.4"})])
def test_sampler_matches_pmf_and_rejects_a_wrong_scale(name, params):
    z = make(name, **params)
    x = z.sample(100_000, rng=11)
    assert x.dtype.kind == "i"
    assert _chi2_pvalue(x, z) > ALPHA
    # power: a sampler with a 30% wrong scale (a / 1.3) is rejected
    wrong = z.with_params(a=str(float(params["a"]) / 1.3))
    y = wrong.sample(100_000, rng=12)
    assert _chi2_pvalue(y, z) < ALPHA


def test_nb_gamma_poisson_against_scipy_nbinom():
    x = nb_variates(0.7, 0.35, 100_000, rng=3)
    ks = np.arange(0, 25)
    obs = np.array([np.sum(x == k) for k in ks] + [np.sum(x >= 25)])
    p = np.append(stats.nbinom.pmf(ks, 0.7, 0.35), stats.nbinom.sf(24, 0.7, 0.35))
    assert stats.chisquare(obs, p * x.size).pvalue > ALPHA


def test_shares_sum_to_the_noise():
    z = make("gdl", beta="0.6", a="0.8")
    s = z.shares(10)
    sums = s.sample(60_000, rng=5, summed=True)
    assert _chi2_pvalue(np.rint(sums).astype(np.int64), z) > ALPHA
    # one share is GDL(0.06, 0.8); twenty shares are GDL(1.2, 0.8)
    assert _chi2_pvalue(gdl_variates(0.06, 0.8, 60_000, rng=6), make("gdl", beta="0.06", a="0.8")) > ALPHA
    law = s.sum_law(20)
    assert law.k == 2 and math.isclose(law.var(), 2 * float(z.var()), rel_tol=1e-12)
    assert math.isclose(law.mean_abs(), float(make("gdl", beta="1.2", a="0.8").mean_abs(digits=12)), rel_tol=1e-10)
    # the sum of shares with too few parties is not the noise (power)
    few = s.sample(60_000, rng=7, summed=True, parties=7)
    assert _chi2_pvalue(np.rint(few).astype(np.int64), z) < ALPHA


def test_dlap_shares_are_gdl():
    s = make("dlap", a="0.5").shares(4)
    assert "GDL(0.25, 0.5)" in s.description
    assert math.isclose(s.sum_law(4).var(), 1 / (math.cosh(0.5) - 1), rel_tol=1e-12)


def test_scipy_object():
    z = make("gdl", beta="0.5", a="0.7")
    rv = z.scipy()
    ks = np.arange(-10, 11)
    exact = np.array([float(z.pmf(int(k))) for k in ks])
    assert np.allclose(rv.pmf(ks), exact, rtol=1e-12, atol=0)
    assert np.allclose(rv.cdf([-3, 0, 4]), [float(z.cdf(k)) for k in (-3, 0, 4)], rtol=1e-12)
    assert np.allclose(rv.sf([-3, 0, 4]), [float(z.sf(k)) for k in (-3, 0, 4)], rtol=1e-12)
    assert math.isclose(rv.var(), float(z.var()), rel_tol=1e-12) and rv.mean() == 0
    assert rv.pmf(0.5) == 0
    q = rv.ppf([0.1, 0.5, 0.9])
    assert list(q) == [-1, 0, 1]
    x = rv.rvs(50_000, random_state=np.random.default_rng(8))
    assert _chi2_pvalue(x, z) > ALPHA
    assert math.isclose(make("dlap", a=1).scipy().var(), 1 / (math.cosh(1) - 1), rel_tol=1e-12)


def test_float_sf_cdf():
    z = make("gdl", beta="2", a="0.5")
    t = np.array([-5.5, -1, 0, 0.5, 3, 80])
    assert np.allclose(z.sf_float(t), [float(z.sf(x)) for x in t], rtol=1e-11, atol=1e-300)
    assert np.allclose(z.cdf_float(t), [float(z.cdf(x)) for x in t], rtol=1e-11, atol=1e-300)
    assert np.array_equal(np.isinf(z.logpdf_float([0.5, 1.0])), [True, False])
