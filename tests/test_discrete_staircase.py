"""The discrete staircase (Geng and Viswanath 2016, discrete setting): closed forms against brute-force sums.

Independent methods: the moments, tail sums and normalisation are compared with direct sums of the
pmf over a window holding all but ~1e-40 of the mass (the closed forms sum geometric periods
instead); the pmf itself is compared with a literal transcription of the paper's case-by-case
definition; the tight epsilon with a sliding-minimum window over every shift of the mp logpmf
(arete_proofs.privacy.tight_discrete's window, no step counts); the continuous limit with
arete_proofs.distributions.staircase (Lemma 27).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from mpmath import mp

from arete_proofs import noise
from arete_proofs.distributions import discrete_staircase as ds
from arete_proofs.distributions import dlap, staircase
from arete_proofs.privacy.tight_discrete import _window

SETS = [(3, 5, 2), ("0.7", 1, 1), (2, 4, 4), (1, 3, 1), ("5.5", 7, 3), (10, 10, 1)]


def _paper_pmf(i, eps, Delta, r):
    """The case-by-case definition, transcribed literally (recursion on the period)."""
    b = mp.exp(-mp.mpf(eps))
    a = (1 - b) / (2 * r + 2 * b * (Delta - r) - (1 - b))
    i = abs(i)
    if i < r:
        return a
    if i < Delta:
        return b * a
    k = i // Delta
    return b ** k * _paper_pmf(i - k * Delta, eps, Delta, r)


def _window_size(eps, Delta):
    return int(Delta * (100 / float(eps) + 3))


@pytest.mark.parametrize("eps,Delta,r", SETS)
def test_pmf_is_the_papers_definition_and_sums_to_one(eps, Delta, r):
    with mp.workdps(50):
        for i in [0, 1, r - 1, r, Delta - 1, Delta, Delta + r, 3 * Delta + 1, -2, -Delta]:
            assert mp.almosteq(ds.pmf(i, eps, Delta, r, digits=40), _paper_pmf(i, eps, Delta, r), 1e-38)
        K = _window_size(eps, Delta)
        total = sum(_paper_pmf(i, eps, Delta, r) for i in range(-K, K + 1))
        assert abs(total - 1) < 1e-38


@pytest.mark.parametrize("eps,Delta,r", SETS)
def test_moments_and_tails_match_brute_force_sums(eps, Delta, r):
    with mp.workdps(50):
        K = _window_size(eps, Delta)
        p = [_paper_pmf(i, eps, Delta, r) for i in range(K + 1)]
        m1 = 2 * sum(i * p[i] for i in range(1, K + 1))
        m2 = 2 * sum(i * i * p[i] for i in range(1, K + 1))
        assert mp.almosteq(ds.mean_abs(eps, Delta, r, digits=35), m1, 1e-33)
        assert mp.almosteq(ds.var(eps, Delta, r, digits=35), m2, 1e-33)
        for n in [0, 1, r, Delta, 2 * Delta + 1]:
            assert mp.almosteq(ds.sf(n, eps, Delta, r, digits=35), sum(p[n + 1:]), 1e-33)
            # P(X > -n - 1) = 1 - P(X <= -n - 1) = 1 - P(X >= n + 1) (symmetry)
            assert mp.almosteq(ds.sf(-n - 1, eps, Delta, r, digits=35), 1 - sum(p[n + 1:]), 1e-33)
            assert mp.almosteq(ds.cdf(n, eps, Delta, r, digits=35) + ds.sf(n, eps, Delta, r, digits=35), 1, 1e-33)


def test_a_wrong_normalisation_is_caught():
    """Deliberately broken: a(r) without the -(1-b) term (the origin counted twice) fails the sum."""
    eps, Delta, r = 3, 5, 2
    with mp.workdps(40):
        b = mp.exp(-3)
        bad_a = (1 - b) / (2 * r + 2 * b * (Delta - r))
        total = sum(bad_a * b ** ds.steps(i, Delta, r) for i in range(-400, 401))
        assert abs(total - 1) > 1e-3


def test_delta_one_is_the_discrete_laplace_law():
    for e in ["0.3", 2, 9]:
        assert mp.almosteq(ds.mean_abs(e, 1, 1, digits=30), dlap.mean_abs(e, digits=30), 1e-28)
        assert mp.almosteq(ds.var(e, 1, 1, digits=30), dlap.var(e, digits=30), 1e-28)


@pytest.mark.parametrize("eps,Delta", [(2, 6), (5, 8), ("0.5", 5), (12, 9)])
def test_optimal_r_is_the_brute_force_minimiser(eps, Delta):
    with mp.workdps(40):
        K = _window_size(eps, Delta)

        def moments(r):
            p = [_paper_pmf(i, eps, Delta, r) for i in range(K + 1)]
            return (2 * sum(i * p[i] for i in range(1, K + 1)), 2 * sum(i * i * p[i] for i in range(1, K + 1)))

        table = {r: moments(r) for r in range(1, Delta + 1)}
    assert ds.r_mean_abs(eps, Delta) == min(table, key=lambda r: table[r][0])
    assert ds.r_var(eps, Delta) == min(table, key=lambda r: table[r][1])


@pytest.mark.parametrize("eps", [2, 6])
def test_large_delta_tends_to_the_continuous_staircase(eps):
    """X/Delta -> SC(gamma, 1) with gamma = r/Delta (Lemma 27's law): moments agree to O(1/Delta)."""
    Delta = 2000
    r = ds.r_mean_abs(eps, Delta)
    g = mp.mpf(r) / Delta
    assert abs(g - staircase.gamma_mean_abs(eps, digits=20)) < 2e-3
    cont = staircase.mean_abs(g, 1, eps, digits=20)
    assert abs(ds.mean_abs(eps, Delta, r, digits=20) / Delta / cont - 1) < 5e-3
    cv = staircase.var(g, 1, eps, digits=20)
    assert abs(ds.var(eps, Delta, r, digits=20) / Delta ** 2 / cv - 1) < 5e-3


@pytest.mark.parametrize("eps,Delta,r", SETS)
@pytest.mark.parametrize("D", [1, 2, 5, 11])
def test_tight_epsilon_matches_a_window_over_every_shift(eps, Delta, r, D):
    """privacy_loss (integer step counts) against tight_discrete's sliding-minimum window of the mp logpmf."""
    with mp.workdps(30):
        K = 4 * Delta + 2 * D
        W, _ = _window(K, D, lambda k: ds.logpmf(k, eps, Delta, r, digits=25))
        v = ds.privacy_loss(D, eps, Delta, r, digits=20)
        assert mp.almosteq(v, W, 1e-18)
        if D == Delta:
            assert mp.almosteq(v, mp.mpf(eps))      # eps-DP by construction, tight


def test_a_staircase_with_a_double_step_is_caught():
    """Deliberately broken: steps twice as high (pmf ~ e^{-2 eps N}) is 2 eps, not eps-DP at Delta."""
    eps, Delta, r = 3, 5, 2
    W, _ = _window(30, Delta, lambda k: -2 * eps * ds.steps(k, Delta, r))
    assert W > eps + 1


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="^r must"):
        ds.pmf(0, 1, 3, 4)
    with pytest.raises(ValueError, match="Delta"):
        ds.pmf(0, 1, "2.5", 1)
    with pytest.raises(ValueError, match="eps"):
        ds.mean_abs(-1, 3, 1)
    with pytest.raises(ValueError, match="^r must"):
        noise.make("discrete_staircase", eps=2, Delta=3, r=5)


# -- the noise family ----------------------------------------------------------------------------
def test_the_family_is_registered_and_listed():
    assert "discrete_staircase" in noise.FAMILIES
    from arete_proofs.cli import main
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["noises", "discrete_staircase"]) == 0
    assert "--staircase-r" in out.getvalue()


@pytest.mark.parametrize("Delta", [1, 10, 100, 1000])
def test_tight_epsilon_is_eps_at_the_design_sensitivity(Delta):
    z = noise.make("discrete_staircase", eps="2.5", Delta=Delta)
    r = z.tight_epsilon(Delta=Delta, digits=12)
    assert r.epsilon == mp.mpf("2.5") and r.attained
    i, s = r.witness
    assert mp.almosteq(z.logpmf(i, digits=20) - z.logpmf(i + s, digits=20), mp.mpf("2.5"))


def test_float_path_matches_the_exact_values():
    z = noise.make("discrete_staircase", eps=3, Delta=7, r=3)
    t = np.array([-15.0, -7, -1, 0, 2, 3, 6, 7, 20, 0.5, np.inf, -np.inf])
    exact_log = [float(z.logpdf(float(x), digits=20)) if math.isfinite(x) else -math.inf for x in t]
    assert np.allclose(z.logpdf_float(t), exact_log, rtol=1e-13, atol=0)
    fin = t[np.isfinite(t)]
    assert np.allclose(z.sf_float(fin), [float(z.sf(float(x), digits=20)) for x in fin], rtol=1e-12, atol=1e-300)
    assert np.allclose(z.cdf_float(fin), [float(z.cdf(float(x), digits=20)) for x in fin], rtol=1e-12, atol=1e-300)
    assert z.sf_float(np.inf) == 0 and z.sf_float(-np.inf) == 1


def test_sampler_matches_the_pmf():
    """Chi-squared against the exact pmf; a 30% wrong eps is rejected (power check)."""
    from scipy import stats

    z = noise.make("discrete_staircase", eps="1.5", Delta=4, r=2)
    x = z.sample(200_000, rng=7)
    bins = np.arange(-12, 13)

    def chi2(law):
        p = np.array([float(law.pmf(int(k), digits=15)) for k in bins])
        obs = np.array([(x == k).sum() for k in bins] + [(np.abs(x) > 12).sum()])
        exp = np.append(p, 1 - p.sum()) * x.size
        return stats.chisquare(obs, exp).pvalue

    assert chi2(z) > 1e-4
    assert chi2(z.with_params(eps="1.95")) < 1e-10


def test_optimal_members():
    z = noise.FAMILIES["discrete_staircase"].optimal(5, 100, objective="variance")
    assert z.r == ds.r_var(5, 100)
    assert z.var(digits=15) <= noise.make("discrete_staircase", eps=5, Delta=100).var(digits=15)
