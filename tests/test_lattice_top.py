"""Lattice + Gaussian with a free top rate (issue 24's per-scale rates): Z = h (sum_{i<m} i X_i + m Y) + N(0, sigma^2),
X_i ~ DLap(a), Y ~ DLap(a_top), a_top <= a.

Independent references: the exact pmf and tail constants of distributions/comb.py (partial fractions over the
poles, mpmath) for the float64 partition series; the exact LatticeLaw (mpmath) for E|Z| and Var; a dense-grid
loss over every shift from a direct (non-FFT) convolution of the DLap pmfs, written here, for the certificate.
"""

import math

import numpy as np
import pytest
from scipy.ndimage import minimum_filter1d

from arete_proofs.distributions import comb
from arete_proofs.distributions.lattice import LatticeLaw
from arete_proofs.privacy import lattice_large as L
from arete_proofs.privacy import optimize_lattice as O


def _parts(a, m, a_top):
    return list(range(1, m + 1)), [repr(a)] * (m - 1) + [repr(a_top)]


@pytest.mark.parametrize("a,m,a_top", [(4.0, 7, 3.5), (7.9, 12, 7.6)])
def test_window_pmf_and_profile_match_the_pole_formula(a, m, a_top):
    w, r = _parts(a, m, a_top)
    K = 4 * m
    p = L.window_pmf(a, m, K, a_top=a_top)
    for k in (0, 1, m - 1, m, m + 1, 3 * m + 1, 4 * m):
        exact = float(comb.comb_pmf(k, w, r, digits=25))
        assert abs(p[K + k] / exact - 1) < 1e-12, (k, p[K + k], exact)
    C = np.array([float(c) for c in comb.tail_constants(w, r, digits=20)])
    assert np.max(np.abs(L.tail_profile(a, m, a_top) - C / C.max())) < 1e-11
    # the profile of the plain comb (a_top ignored) is far from it: the comparison sees the top rate
    assert np.max(np.abs(L.tail_profile(a, m) - C / C.max())) > 1e-3


def test_moments_match_the_exact_law():
    a, m, s, h, at = 3.0, 5, 0.07, 0.2, 2.6
    w, r = _parts(a, m, at)
    z = LatticeLaw(r, w, repr(h), kernel="gauss", scale=repr(s), digits=15)
    assert abs(O.mean_abs(a, m, s, h, at) / float(z.mean_abs()) - 1) < 1e-10
    assert abs(L.mean_abs(a, m, s, h, a_top=at) / float(z.mean_abs()) - 1) < 1e-12
    assert abs(O.variance(a, m, s, h, at) / float(z.var()) - 1) < 1e-13


def test_the_two_estimators_agree():
    a, m, s, at = 7.95, 34, 0.0123, 7.45
    big, ref = L.estimate(a, m, s, a_top=at), O.estimate(a, m, s, a_top=at)
    assert abs(big["tail"] - ref["tail"]) < 1e-10 and abs(big["epsilon"] - ref["epsilon"]) < 1e-9
    assert big["tail"] < L.estimate(a, m, s)["tail"] - 0.1       # the top rate lowers the tail limit


def _direct_loss(a, m, sigma, h, a_top, T=12.0, M=4000):
    """sup over a grid of t in [0, T-1] of ln f(t) - min_{|v-t| <= 1} ln f(v), f from a direct convolution."""
    K = int((T + 2) / h) + 10
    d = np.zeros(2 * K + 1)
    d[K] = 1.0
    for i in range(1, m + 1):
        rate = a_top if i == m else a
        X = K // i + 1
        x = np.arange(-X, X + 1)
        ker = np.zeros(2 * i * X + 1)
        ker[i * (x + X)] = math.tanh(rate / 2) * np.exp(-rate * np.abs(x))
        d = np.convolve(d, ker)[i * X:i * X + 2 * K + 1]      # positive sums: no FFT rounding
    t = np.arange(0, int((T + 1) * M) + 1) / M - 1.0
    ks = np.arange(-K, K + 1)
    e = -0.5 * ((t[:, None] - h * ks[None, :]) / sigma) ** 2 + np.log(np.maximum(d, 1e-300))[None, :]
    mx = e.max(1)
    lf = mx + np.log(np.exp(e - mx[:, None]).sum(1))
    mn = minimum_filter1d(lf, 2 * M + 1, mode="nearest")
    return float(np.max((lf - mn)[(t >= 0) & (t <= T - 1)]))


def test_certificate_with_a_top_against_a_dense_grid_and_edits():
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss, check

    r = certify_lattice_gauss("3", 2, "0.2", "0.5", 1, tol="1e-6", a_top="2.5")
    grid = _direct_loss(3.0, 2, 0.2, 0.5, 2.5)
    assert r.lower - 1e-6 <= grid <= r.upper          # a grid value is a lower value (grid step 2.5e-4)
    assert r.params["a_top"] == "5/2"
    assert abs(O.estimate_epsilon(3.0, 2, 0.2, a_top=2.5) - r.lower) < 1e-6
    # the plain comb (a_top = a) has a different tight epsilon (3.10745): the certificate sees the top rate
    assert _direct_loss(3.0, 2, 0.2, 0.5, 3.0) > r.upper + 0.2
    doc = r.to_json()
    assert check(doc).ok
    edited = dict(doc, params=dict(doc["params"], a_top="3"))      # the top rate edited back to a
    assert not check(edited).ok
    with pytest.raises(ValueError, match="a_top"):
        certify_lattice_gauss("3", 2, "0.2", "0.5", 1, a_top="3.5")


def test_search_with_a_free_top_rate_at_eps_4():
    p = O.LatticeGaussProblem(4, m=5, top=True, maxfev=3, scan_points=3)
    from arete_proofs.privacy import optimizer

    pt = optimizer.search(p)
    q = pt.params
    assert q["a_top"] < 4 < q["a"] and pt.epsilon <= 4      # the centre's rate above eps: the flat comb allows it
    assert pt.value == O.mean_abs(q["a"], 5, q["sigma"], q["h"], q["a_top"])


def test_bad_top_rate_names_the_parameter():
    with pytest.raises(ValueError, match="a_top"):
        L.estimate(3.0, 4, 0.1, a_top=4.0)
    with pytest.raises(ValueError, match="a_top"):
        O.mean_abs(3.0, 4, 0.1, 0.25, a_top=-1.0)


# -- the noise family lattice_gauss_top --------------------------------------------------------------------------
def test_noise_family_exact_values_and_engines():
    from arete_proofs.noise import make

    z = make("lattice_gauss_top", a="3", a_top="2.5", m=2, sigma="0.2", h="0.5")
    assert z.infinitely_divisible and not z.symmetric_unimodal
    r = z.tight_epsilon(Delta=1, digits=10)                 # the numerical engine (grid + golden section)
    c = z.certify(Delta=1, tol="1e-6", numeric=False)       # the cover, another method
    assert c.lower - 1e-9 <= float(r.epsilon) <= c.upper + 1e-9
    assert abs(float(z.mean_abs(digits=15)) - O.mean_abs(3.0, 2, 0.2, 0.5, 2.5)) < 1e-11
    assert abs(z.logpdf_float(0.3) - float(z.logpdf("0.3", digits=15))) < 1e-12
    with pytest.raises(ValueError, match="a_top"):
        make("lattice_gauss_top", a="3", a_top="3.5", m=2, sigma="0.2", h="0.5")


def test_noise_family_sampler_and_shares_ks_with_power():
    from scipy import stats

    from arete_proofs.noise import make

    z = make("lattice_gauss_top", a="2", a_top="1.5", m=3, sigma="0.1", h="0.25")
    x = z.sample(10_000, rng=5)
    assert stats.kstest(x, z.cdf_float).pvalue > 1e-6
    s = z.shares(6).sample(10_000, rng=6, summed=True)
    assert stats.kstest(s, z.cdf_float).pvalue > 1e-6
    plain = make("lattice_gauss", a="2", m=3, sigma="0.1", h="0.25").sample(10_000, rng=7)   # the top rate ignored
    assert stats.kstest(plain, z.cdf_float).pvalue < 1e-6


def test_problem_confirms_above_the_cover_cut_with_the_numerical_engine(monkeypatch):
    # above CERTIFY_M_MAX the confirmation is the family's numerical engine (rates a, ..., a, a_top), not certified
    from arete_proofs.noise import FAMILIES

    p = FAMILIES["lattice_gauss_top"].search_problem(4, m=3)
    monkeypatch.setattr(O, "CERTIFY_M_MAX", 2)
    params = {"a": 4.2, "a_top": 3.9, "m": 3, "sigma": 0.12, "h": 1 / 3}
    r = p.certify(params, 1, 8)
    assert r.certified is False and r.lower_bound <= r.epsilon <= r.upper_bound
    assert abs(float(r.epsilon) - O.estimate_epsilon(4.2, 3, 0.12, a_top=3.9)) < 1e-6
    mean, var = p.moments(params, 12)
    assert abs(float(mean) - O.mean_abs(4.2, 3, 0.12, 1 / 3, 3.9)) < 1e-10
    assert p.scaled(params, 2.0)["a_top"] == 3.9
