"""Tests of ``arete_proofs.stats.arete_gauss`` (Arete plus a Gaussian part, issue 17), in the style of ``test_stats.py``.

A parameter list (:data:`CASES`) drives ``check_*`` functions that raise
``AssertionError``; the last section runs them on deliberately broken
distributions to show that they can fail.

Independent references:

* values: the arbitrary-precision engine :mod:`arete_proofs.distributions.arete_gauss`
  at ``digits=20`` (a different code path: mpmath quadrature of the same mixture with
  its own nodes and error control); tolerance ``1e-9`` relative, the accuracy stated by
  :mod:`arete_proofs.distributions.fast_gauss` (measured here: below ``3e-12``);
* integrals (normalisation, moments, entropy): Gauss-Legendre panels written here
  (16 nodes; geometric panels of ratio 1.5 from ``1e-40`` times the smallest length
  scale, panels of half that scale up to 40 of it and of half the largest further out);
* the limit ``sigma -> 0``: :data:`arete_proofs.stats.arete` (the Arete float64 path);
* samples: Kolmogorov-Smirnov and tail-count tests at significance 1e-6 with seeded
  generators, plus a power check (a 30% wrong scale must be rejected).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from mpmath import mp
from scipy import stats as sps

from arete_proofs.distributions import arete_gauss as exact
from arete_proofs.stats import arete, arete_gauss, arete_gauss_gen

DISTS = {"arete_gauss": arete_gauss}

#: (shape parameters, why)
PARAMS = [
    ((0.014727, 0.85419, 0.0, 0.027054), "issue 17's eps = 8 optimum: no Laplace part, tiny alpha"),
    ((0.3, 1.0, 0.2, 0.1), "all three parts"),
    ((0.8, 0.5, 0.3, 0.4), "alpha > 1/2, large sigma"),
]
CASES = [p for p, _ in PARAMS]
IDS = [f"{p}" for p in CASES]

SIGNIFICANCE = 1e-6
TOL = 1e-9  # fast_gauss's stated relative accuracy

_X16, _W16 = np.polynomial.legendre.leggauss(16)


def _scales(args):
    """``(small, big, x_max)``: the length scales and where the tail is negligible (mass below e^-60)."""
    a, th, lam, sg = args
    pos = [v for v in (th, lam, sg) if v > 0]
    small, big = min(pos), max(pos)
    return small, big, (70.0 + 5.0 * a) * big


def _nodes(args, x0_rel=1e-40):
    small, big, x_max = _scales(args)
    x0 = x0_rel * small
    geo = x0 * 1.5 ** np.arange(0, math.ceil(math.log(x_max / x0) / math.log(1.5)) + 1)
    e = np.concatenate([geo, np.arange(0, 40 * small, small / 2), np.arange(0, x_max, big / 2)])
    edges = np.unique(np.concatenate([[x0], e[(e > x0) & (e < x_max)], [x_max]]))
    lo, hi = edges[:-1], edges[1:]
    half = (hi - lo) / 2
    x = ((lo + hi) / 2)[:, None] + half[:, None] * _X16[None, :]
    return x, half[:, None] * _W16[None, :]


def half_line_integral(args, fun, x0_rel=1e-40):
    """``int_0^inf fun(x, f(x)) dx`` by Gauss-Legendre panels (the density is finite at 0 here)."""
    x, w = _nodes(args, x0_rel)
    f = DISTS["arete_gauss"].pdf(x.reshape(-1), *args).reshape(x.shape)
    return float(np.sum(w * fun(x, f)))


# ---------------------------------------------------------------------------
# checks (raise AssertionError)
# ---------------------------------------------------------------------------


def check_normalization(args):
    dist = DISTS["arete_gauss"]
    total = 2 * half_line_integral(args, lambda x, f: f)
    assert abs(total - 1) < TOL, total
    assert dist.cdf(np.inf, *args) == 1 and dist.cdf(-np.inf, *args) == 0


def check_cdf_ppf(args, rtol=1e-10):
    dist = DISTS["arete_gauss"]
    q = np.array([1e-10, 1e-3, 0.2, 0.5, 0.7, 0.999, 1 - 1e-10])
    x = dist.ppf(q, *args)
    assert np.all(np.diff(x) > 0)
    err = np.abs(dist.cdf(x, *args) - q) / np.minimum(q, 1 - q)
    assert err.max() < rtol, err


def check_sf_isf(args, rtol=1e-10):
    dist = DISTS["arete_gauss"]
    p = np.array([1e-100, 1e-10, 0.1, 0.5, 0.9])
    x = dist.isf(p, *args)
    err = np.abs(dist.sf(x, *args) / p - 1)
    assert err.max() < rtol, err
    np.testing.assert_allclose(dist.isf([0.1, 0.9], *args), dist.ppf([0.9, 0.1], *args), rtol=1e-13)


def check_moments(args, rtol=1e-8):
    """``stats('mvsk')`` and ``moment(6)`` against quadrature of ``x^n f``; ``Var`` also as ``4 int x sf``."""
    dist = DISTS["arete_gauss"]
    m, v, s, k = (float(t) for t in dist.stats(*args, moments="mvsk"))
    assert m == 0 and s == 0
    m2 = 2 * half_line_integral(args, lambda x, f: x**2 * f)
    m4 = 2 * half_line_integral(args, lambda x, f: x**4 * f)
    m6 = 2 * half_line_integral(args, lambda x, f: x**6 * f)
    assert abs(v / m2 - 1) < rtol, (v, m2)
    assert abs((k + 3) * v**2 / m4 - 1) < rtol, (k, m4 / v**2 - 3)
    assert abs(float(dist.moment(6, *args)) / m6 - 1) < rtol
    # integration by parts with the sf path: E Z^2 = 4 int_0^inf x sf(x) dx
    x, w = _nodes(args)
    by_parts = 4 * float(np.sum(w * x * dist.sf(x.reshape(-1), *args).reshape(x.shape)))
    assert abs(v / by_parts - 1) < rtol, (v, by_parts)


def check_entropy(args, rtol=1e-8):
    dist = DISTS["arete_gauss"]
    h = float(dist.entropy(*args))
    ref = -2 * half_line_integral(args, lambda x, f: np.where(f > 0, f * np.log(np.where(f > 0, f, 1)), 0))
    assert abs(h - ref) < rtol * max(1, abs(ref)), (h, ref)


def _sample_pvalue(sample, args):
    dist = DISTS["arete_gauss"]
    ks = sps.kstest(sample, dist.cdf, args=args).pvalue
    xt = float(dist.isf(0.005, *args))
    tail = sps.binomtest(int(np.sum(np.abs(sample) > xt)), sample.size, 0.01).pvalue
    return min(1.0, 2 * min(ks, tail))


def check_rvs(args, n=10000, seed=2024):
    dist = DISTS["arete_gauss"]
    sample = dist.rvs(*args, size=n, random_state=np.random.default_rng(seed))
    p = _sample_pvalue(sample, args)
    assert p > SIGNIFICANCE, p
    wrong = arete_gauss.rvs(*args, scale=1.3, size=n, random_state=np.random.default_rng(seed + 1))
    assert _sample_pvalue(wrong, args) < SIGNIFICANCE


def check_against_engine(args, points=(0.0, 0.0016, -0.37, 2.1)):
    """pdf and logpdf against the exact engine (``digits=20``) at ``t = point * theta``."""
    dist = DISTS["arete_gauss"]
    for t in np.array(points) * args[1]:
        f = exact.pdf(float(t), *args, digits=20)
        lf = float(mp.log(f))
        assert abs(dist.pdf(t, *args) / float(f) - 1) < TOL, (t, dist.pdf(t, *args), f)
        assert abs(dist.logpdf(t, *args) - lf) < TOL * max(1.0, abs(lf)), (t, dist.logpdf(t, *args), lf)


# ---------------------------------------------------------------------------
# the checks on every parameter set
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", CASES, ids=IDS)
def test_normalization(args):
    check_normalization(args)


@pytest.mark.parametrize("args", CASES, ids=IDS)
def test_cdf_ppf_and_sf_isf_roundtrips(args):
    check_cdf_ppf(args)
    check_sf_isf(args)


@pytest.mark.parametrize("args", CASES, ids=IDS)
def test_moments_and_entropy_against_quadrature(args):
    check_moments(args)
    check_entropy(args)


@pytest.mark.parametrize("args", CASES, ids=IDS)
def test_rvs_kolmogorov_smirnov_and_power(args):
    check_rvs(args)


@pytest.mark.parametrize("args", CASES, ids=IDS)
def test_values_against_exact_engine(args):
    check_against_engine(args)


def test_sf_against_exact_engine():
    """The small tail (sf for t > 0, cdf for t < 0) against the engine, one parameter set."""
    args = CASES[1]
    for t in (0.4, -2.5):
        v = exact.sf(t, *args, digits=20) if t > 0 else exact.cdf(t, *args, digits=20)
        got = arete_gauss.sf(t, *args) if t > 0 else arete_gauss.cdf(t, *args)
        assert abs(got / float(v) - 1) < TOL, (t, got, v)


@pytest.mark.parametrize("args", CASES, ids=IDS)
def test_logpdf_logsf_logcdf_are_logs_and_symmetry(args):
    Z = arete_gauss(*args)
    x = Z.ppf([0.001, 0.2, 0.3, 0.5, 0.7, 0.999])
    np.testing.assert_allclose(Z.logpdf(x), np.log(Z.pdf(x)), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(Z.logsf(x), np.log(Z.sf(x)), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(Z.logcdf(x), np.log(Z.cdf(x)), rtol=1e-13, atol=1e-14)
    assert Z.cdf(0) == 0.5 and Z.median() == 0 and Z.mean() == 0
    y = np.array([0.1, 0.7, 3.0]) * float(Z.std())
    np.testing.assert_allclose(Z.sf(y), Z.cdf(-y), rtol=1e-14)
    np.testing.assert_allclose(Z.pdf(y), Z.pdf(-y), rtol=1e-14)
    assert Z.support() == (-np.inf, np.inf)
    np.testing.assert_array_equal(Z.ppf([0, 1]), [-np.inf, np.inf])


# ---------------------------------------------------------------------------
# loc/scale, the sigma -> 0 limit, argcheck, broadcasting
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", CASES[:2], ids=IDS[:2])
def test_scaling_law_and_loc_scale_equivariance(args):
    c, loc = 2.5, -0.75
    a, th, lam, sg = args
    sargs = (a, c * th, c * lam, c * sg)
    x = np.array([-3.0, -0.2, 0.05, 1.0, 6.0])
    np.testing.assert_allclose(arete_gauss.cdf(x, *args, scale=c), arete_gauss.cdf(x, *sargs), rtol=TOL)
    np.testing.assert_allclose(arete_gauss.pdf(x, *args, scale=c), arete_gauss.pdf(x, *sargs), rtol=TOL)
    q = np.array([1e-5, 0.3, 0.9])
    np.testing.assert_allclose(arete_gauss.ppf(q, *args, scale=c), arete_gauss.ppf(q, *sargs), rtol=TOL)
    np.testing.assert_allclose(arete_gauss.stats(*args, scale=c, moments="mvk"),
                               arete_gauss.stats(*sargs, moments="mvk"), rtol=1e-14)
    np.testing.assert_allclose(arete_gauss.cdf(x + loc, *args, loc=loc), arete_gauss.cdf(x, *args), rtol=1e-14)
    np.testing.assert_allclose(arete_gauss.ppf(q, *args, loc=loc, scale=c), loc + c * arete_gauss.ppf(q, *args),
                               rtol=1e-13)


def test_sigma_to_zero_is_arete():
    """sigma = 0 is exactly ``stats.arete``; a tiny sigma (a different path, fast_gauss) is close to it."""
    a, th, lam = 0.3, 1.0, 0.4
    x = np.array([-2.1, -0.37, 0.37, 7.5])
    q = np.array([1e-6, 0.3, 0.9])
    for meth in ("pdf", "logpdf", "cdf", "sf"):
        np.testing.assert_array_equal(getattr(arete_gauss, meth)(x, a, th, lam, 0.0), getattr(arete, meth)(x, a, th, lam))
    np.testing.assert_array_equal(arete_gauss.ppf(q, a, th, lam, 0.0), arete.ppf(q, a, th, lam))
    np.testing.assert_array_equal(arete_gauss.stats(a, th, lam, 0.0, moments="mvsk"), arete.stats(a, th, lam, moments="mvsk"))
    # sigma = 1e-6: f changes by O(sigma^2 f'') = O(1e-12) away from 0; fast_gauss is good to 1e-9
    sg = 1e-6
    np.testing.assert_allclose(arete_gauss.pdf(x, a, th, lam, sg), arete.pdf(x, a, th, lam), rtol=TOL)
    np.testing.assert_allclose(arete_gauss.sf(x, a, th, lam, sg), arete.sf(x, a, th, lam), rtol=TOL)
    np.testing.assert_allclose(arete_gauss.ppf(q, a, th, lam, sg), arete.ppf(q, a, th, lam), rtol=TOL)
    # a visible sigma moves the density: the comparison can fail
    assert abs(arete_gauss.pdf(0.37, a, th, lam, 0.1) / arete.pdf(0.37, a, th, lam) - 1) > 1e-3
    # lam = sigma = 0 with alpha > 1/2 is Gamma-Gamma (finite density at 0)
    v = arete_gauss.var(0.8, 1.0, 0.0, 0.0)
    assert v == pytest.approx(1.6, rel=1e-15) and np.isfinite(arete_gauss.pdf(0.0, 0.8, 1.0, 0.0, 0.0))


BAD = [(-1, 1, 1, 1), (0, 1, 1, 1), (0.5, 0, 1, 1), (0.5, 1, -2, 1), (0.5, 1, 1, -0.1), (np.inf, 1, 1, 1),
       (0.5, np.nan, 1, 1), (0.5, 1, 1, np.inf),
       (0.3, 1, 0, 0)]      # lam = sigma = 0 with alpha <= 1/2: infinite density at 0


def test_argcheck_gives_nan_and_rvs_raises():
    for args in BAD:
        for meth in (arete_gauss.pdf, arete_gauss.logpdf, arete_gauss.cdf, arete_gauss.sf, arete_gauss.ppf,
                     arete_gauss.isf):
            assert np.isnan(meth(0.3, *args)), (meth.__name__, args)
        assert all(np.isnan(v) for v in arete_gauss.stats(*args, moments="mvsk")), args
        assert np.isnan(arete_gauss.entropy(*args)) and np.isnan(arete_gauss.moment(6, *args))
        with pytest.raises(ValueError, match="Domain error"):
            arete_gauss.rvs(*args, random_state=1)
    # valid corners: alpha near 1 with sigma; alpha > 1 without sigma
    assert np.isfinite(arete_gauss.pdf(0.3, 0.999, 1, 0, 0.1)) and np.isfinite(arete_gauss.pdf(0.3, 2.5, 1, 0.2, 0))
    out = arete_gauss.cdf(0.3, np.array([0.3, 0.0]), 1.0, 0.2, 0.1)
    assert out[0] == arete_gauss.cdf(0.3, 0.3, 1.0, 0.2, 0.1) and np.isnan(out[1])


def test_broadcasting_and_frozen():
    sigmas = np.array([0.0, 0.05, 0.5])
    x = np.array([-1.0, 0.0, 0.3, 4.0])
    out = arete_gauss.pdf(x[:, None], 0.3, 1.0, 0.2, sigmas)
    assert out.shape == (4, 3)
    for j, s in enumerate(sigmas):
        np.testing.assert_allclose(out[:, j], arete_gauss.pdf(x, 0.3, 1.0, 0.2, s), rtol=1e-12)
    draws = arete_gauss.rvs(0.3, 1.0, 0.2, sigmas, size=(4000, 3), random_state=np.random.default_rng(3))
    assert draws.shape == (4000, 3)
    assert sps.kstest(draws[:, 2], arete_gauss.cdf, args=(0.3, 1.0, 0.2, 0.5)).pvalue > SIGNIFICANCE
    frozen = arete_gauss(0.3, 1.0, 0.2, 0.1, loc=0.5, scale=2.0)
    np.testing.assert_array_equal(frozen.cdf(x), arete_gauss.cdf(x, 0.3, 1.0, 0.2, 0.1, loc=0.5, scale=2.0))
    np.testing.assert_array_equal(frozen.rvs(7, random_state=3),
                                  arete_gauss.rvs(0.3, 1.0, 0.2, 0.1, loc=0.5, scale=2.0, size=7, random_state=3))
    with pytest.raises(NotImplementedError, match="not supported"):
        arete_gauss.fit(np.zeros(5))


def test_kurtosis_from_cumulants():
    """kappa_4 = 12 (alpha theta^4 + lam^4) (the Gaussian adds none): E Z^4 = kappa_4 + 3 Var^2."""
    a, th, lam, sg = 0.3, 1.0, 0.4, 0.7
    var = 2 * a * th**2 + 2 * lam**2 + sg**2
    assert arete_gauss.moment(4, a, th, lam, sg) == pytest.approx(12 * (a * th**4 + lam**4) + 3 * var**2, rel=1e-14)
    assert arete_gauss.moment(5, a, th, lam, sg) == 0
    assert float(arete_gauss.stats(a, th, lam, sg, moments="k")) == pytest.approx(12 * (a + lam**4) / var**2, rel=1e-14)


# ---------------------------------------------------------------------------
# the checks can fail: deliberately broken distributions
# ---------------------------------------------------------------------------


class _VarianceOff(arete_gauss_gen):
    """Variance without the Gaussian part (sigma^2 forgotten)."""

    def _stats(self, alpha, theta, lam, sigma):
        m, v, s, k = super()._stats(alpha, theta, lam, sigma)
        return m, v - sigma**2, s, k


class _QuantileOff(arete_gauss_gen):
    """Quantiles 1e-8 too far out (a root-finder stopping early)."""

    def _isf(self, p, alpha, theta, lam, sigma):
        return super()._isf(p, alpha, theta, lam, sigma) * (1 + 1e-8)


class _SamplerOff(arete_gauss_gen):
    """Draws without the Gaussian part."""

    def _rvs(self, alpha, theta, lam, sigma, size=None, random_state=None):
        return super()._rvs(alpha, theta, lam + 0 * sigma, 0 * sigma, size=size, random_state=random_state)


class _DensityOff(arete_gauss_gen):
    """The density of sigma 1 percent too small (a scale slip in the Gaussian kernel)."""

    def _pdf(self, x, alpha, theta, lam, sigma):
        return super()._pdf(x, alpha, theta, lam, 0.99 * sigma)

    def _logpdf(self, x, alpha, theta, lam, sigma):
        return super()._logpdf(x, alpha, theta, lam, 0.99 * sigma)


@pytest.fixture
def broken(monkeypatch):
    def install(cls):
        monkeypatch.setitem(DISTS, "arete_gauss", cls(a=-np.inf, b=np.inf, name="arete_gauss",
                                                        shapes="alpha, theta, lam, sigma"))

    return install


def test_checks_catch_broken_distributions(broken):
    args = CASES[2]
    broken(_VarianceOff)
    with pytest.raises(AssertionError):
        check_moments(args)
    broken(_QuantileOff)
    with pytest.raises(AssertionError):
        check_cdf_ppf(args)
    with pytest.raises(AssertionError):
        check_sf_isf(args)
    broken(_SamplerOff)
    with pytest.raises(AssertionError):
        check_rvs(args)
    broken(_DensityOff)
    with pytest.raises(AssertionError):
        check_against_engine(args, points=(0.0,))
    with pytest.raises(AssertionError):
        check_moments(args)
