"""Tests of :mod:`arete_proofs.stats` in the style of scipy's own distribution tests.

Modelled on ``scipy/stats/tests/test_continuous_basic.py`` and ``common_tests.py``:
a parameter list (:data:`DISTCONT`, like scipy's ``_distr_params.distcont``) drives
``check_*`` functions that raise ``AssertionError``; each check is run on every
parameter set, and the last section runs some of them on deliberately broken
distributions to show that they can fail.

Independent references:

* values: the arbitrary-precision engine :mod:`arete_proofs.distributions`
  (``arete``, ``gamma_gamma``, ``staircase`` at ``digits=20``); tolerances are the
  float64 path's stated accuracy with a margin of 10 (``1e-12 * max(1, |ln v|)``);
* integrals (normalisation, moments, entropy, pdf against cdf increments):
  Gauss-Legendre quadrature written here (16 nodes, panels of ratio 1.5 near 0,
  of width ``min(theta, lam)/2`` and ``max(theta, lam)/2`` further out), not the
  package's entropy rule; for the staircase, sums over its steps;
* samples: Kolmogorov-Smirnov and tail-count tests at significance 1e-6 with
  seeded generators, plus a power check (a 30% wrong scale must be rejected).

The tests of the float64 path itself are in ``tests/test_fast.py`` and
``tests/test_fast_vs_engine.py``; of the samplers in ``tests/test_sampling.py``.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from mpmath import mp
from scipy import stats as sps

from arete_proofs.distributions import arete as exact_arete
from arete_proofs.distributions import fast
from arete_proofs.distributions import gamma_gamma as exact_gg
from arete_proofs.distributions import staircase as exact_sc
from arete_proofs.stats import arete, arete_gen, gamma_gamma, staircase, staircase_gen

DISTS = {"arete": arete, "gamma_gamma": gamma_gamma, "staircase": staircase}

#: (name, shape parameters, why): the parameter list driving the tests (scipy's ``distcont``)
DISTCONT = [
    ("arete", (0.02, 1.0, 0.3), "small alpha, lam < theta"),
    ("arete", (0.02, 0.5, 2.0), "small alpha, lam > theta"),
    ("arete", (0.95, 1.0, 0.5), "alpha near 1, lam < theta"),
    ("arete", (0.95, 0.4, 1.5), "alpha near 1, lam > theta"),
    ("arete", (2.5, 1.0, 0.4), "alpha above 1, lam < theta"),
    ("arete", (2.5, 0.3, 1.2), "alpha above 1, lam > theta"),
    ("arete", (math.exp(-2.5), 0.4, math.exp(-2.5)), "Lemma 3 at eps = 10, Delta = 1"),
    ("gamma_gamma", (0.02, 1.0), "small alpha: infinite density at 0"),
    ("gamma_gamma", (0.3, 2.0), "alpha < 1/2"),
    ("gamma_gamma", (0.95, 1.0), "alpha near 1"),
    ("gamma_gamma", (2.5, 0.7), "alpha above 1"),
    ("staircase", (0.3, 1.0, 2.0), "generic"),
    ("staircase", (float(exact_sc.gamma_mean_abs(6)), 1.0, 6.0), "optimal gamma for E|X| at eps = 6"),
    ("staircase", (0.5, 2.0, 0.3), "small eps: many periods"),
    ("staircase", (0.0, 1.0, 3.0), "gamma = 0: empty first step"),
]
IDS = [f"{n}{args}" for n, args, _ in DISTCONT]
CASES = [(n, args) for n, args, _ in DISTCONT]

SIGNIFICANCE = 1e-6


# ---------------------------------------------------------------------------
# independent quadrature (Gauss-Legendre panels, or the staircase's steps)
# ---------------------------------------------------------------------------

_X16, _W16 = np.polynomial.legendre.leggauss(16)


def _scales(name, args):
    """``(small, big, x_max)``: the length scales of the density and where its tail is negligible."""
    if name == "arete":
        a, th, lam = args
        small, big = min(th, lam), max(th, lam)
    elif name == "gamma_gamma":
        a, th = args
        small = big = th
    else:
        D, e = args[1], args[2]
        return D, D, D * (1 + 80.0 / e)  # mass beyond is e^-80
    return small, big, (70.0 + 5.0 * a) * big


def _edges(name, args, x0):
    """Panel edges on ``[x0, x_max]`` (half line), independent of the package's entropy rule."""
    small, big, x_max = _scales(name, args)
    if name == "staircase":
        g, D, e = args
        k = np.arange(0, math.ceil(x_max / D) + 1)
        return np.unique(np.concatenate([k * D, (k + g) * D]))
    geo = x0 * 1.5 ** np.arange(0, math.ceil(math.log(x_max / x0) / math.log(1.5)) + 1)
    e = np.concatenate([geo, np.arange(0, 40 * small, small / 2), np.arange(0, x_max, big / 2)])
    return np.unique(np.concatenate([[x0], e[(e > x0) & (e < x_max)], [x_max]]))


def _nodes(edges):
    lo, hi = edges[:-1], edges[1:]
    half = (hi - lo) / 2
    x = ((lo + hi) / 2)[:, None] + half[:, None] * _X16[None, :]
    return x, half[:, None] * _W16[None, :]


def _gg_head_mass(alpha, theta, x0):
    """``int_0^x0 f`` for Gamma-Gamma: ``f ~ x^(2a-1) / (2 cos(pi a) Gamma(2a) theta^(2a))`` (``alpha < 1/2``)."""
    if alpha >= 0.5:
        return 0.0
    return (x0 / theta) ** (2 * alpha) / (2 * alpha * 2 * math.cos(math.pi * alpha) * math.gamma(2 * alpha))


def half_line_integral(name, args, fun, x0_rel=1e-40):
    """``int_0^inf fun(x, f(x)) dx`` by Gauss-Legendre panels; ``fun`` vectorised."""
    x0 = 0.0 if name == "staircase" else x0_rel * _scales(name, args)[0]
    x, w = _nodes(_edges(name, args, x0))
    return float(np.sum(w * fun(x, _pdf_at_nodes(name, args, x))))


def _pdf_at_nodes(name, args, x):
    """The density at the nodes ``x`` (one row per panel); for the staircase, constant per step."""
    dist = DISTS[name]
    if name == "staircase":
        # constant on each step: evaluate at the panel midpoints, away from the jumps
        return np.broadcast_to(dist.pdf((x[:, :1] + x[:, -1:]) / 2, *args), x.shape)
    return dist.pdf(x.reshape(-1), *args).reshape(x.shape)


# ---------------------------------------------------------------------------
# checks (raise AssertionError), as in scipy's common_tests.py
# ---------------------------------------------------------------------------


def check_normalization(name, args):
    dist = DISTS[name]
    small = _scales(name, args)[0]
    head = _gg_head_mass(args[0], args[1], 1e-40 * small) if name == "gamma_gamma" else 0.0
    total = 2 * (half_line_integral(name, args, lambda x, f: f) + head)
    assert abs(total - 1) < 1e-10, total
    assert dist.cdf(np.inf, *args) == 1 and dist.cdf(-np.inf, *args) == 0


def check_pdf_integrates_to_cdf(name, args):
    """``int_a^b pdf = cdf(b) - cdf(a)`` on the body and the tail (pdf and sf are separate formulas in ``fast``)."""
    dist = DISTS[name]
    sd = float(dist.std(*args))
    intervals = [(0.25 * sd, 2 * sd), (2 * sd, 8 * sd)]
    if name != "gamma_gamma":  # finite density at 0 (Gamma-Gamma's mass near 0 is tested by check_normalization)
        intervals.append((-0.5 * sd, 0.25 * sd))
    for a, b in intervals:
        if name == "staircase":
            steps = _edges(name, args, 0)
            extra = np.concatenate([steps, -steps])
        else:  # refined geometrically towards 0, where f_A has a |t|^(2 alpha) cusp
            geo = sd * 1.5 ** -np.arange(0, 230.0)
            extra = np.concatenate([np.linspace(a, b, 65), geo, -geo, [0.0]])
        edges = np.unique(np.concatenate([[a, b], extra[(extra > a) & (extra < b)]]))
        x, w = _nodes(edges)
        integral = float(np.sum(w * _pdf_at_nodes(name, args, x)))
        delta = dist.sf(a, *args) - dist.sf(b, *args)
        assert abs(integral - delta) <= 1e-11 * max(delta, 1e-3), (a, b, integral, delta)


def check_cdf_ppf(name, args, rtol=1e-11):
    dist = DISTS[name]
    q = np.array([1e-10, 1e-3, 0.2, 0.5, 0.7, 0.999, 1 - 1e-10])
    x = dist.ppf(q, *args)
    assert np.all(np.diff(x) > 0)
    err = np.abs(dist.cdf(x, *args) - q) / np.minimum(q, 1 - q)
    assert err.max() < rtol, err


def check_sf_isf(name, args, rtol=1e-11):
    dist = DISTS[name]
    p = np.array([1e-100, 1e-10, 0.1, 0.5, 0.9])
    x = dist.isf(p, *args)
    err = np.abs(dist.sf(x, *args) / p - 1)
    assert err.max() < rtol, err
    # scipy's check_ppf_isf
    np.testing.assert_allclose(dist.isf([0.1, 0.9], *args), dist.ppf([0.9, 0.1], *args), rtol=1e-13)


def check_moments(name, args, rtol=1e-10):
    """``stats('mvsk')`` and ``moment(6)`` against quadrature of ``x^n f``; ``Var`` also as ``4 int x sf``."""
    dist = DISTS[name]
    m, v, s, k = (float(t) for t in dist.stats(*args, moments="mvsk"))
    assert m == 0 and s == 0
    small = _scales(name, args)[0]
    m2 = 2 * half_line_integral(name, args, lambda x, f: x**2 * f)
    m4 = 2 * half_line_integral(name, args, lambda x, f: x**4 * f)
    m6 = 2 * half_line_integral(name, args, lambda x, f: x**6 * f)
    assert abs(v / m2 - 1) < rtol, (v, m2)
    assert abs((k + 3) * v**2 / m4 - 1) < rtol, (k, m4 / v**2 - 3)
    assert abs(float(dist.moment(6, *args)) / m6 - 1) < rtol
    if name != "staircase":
        # integration by parts: E Z^2 = 2 int_0^inf 2x sf(x) dx, with the sf path of ``fast``
        x, w = _nodes(_edges(name, args, 1e-40 * small))
        by_parts = 4 * float(np.sum(w * x * dist.sf(x.reshape(-1), *args).reshape(x.shape)))
        assert abs(v / by_parts - 1) < rtol, (v, by_parts)


def check_entropy(name, args, rtol=1e-10):
    dist = DISTS[name]
    h = float(dist.entropy(*args))
    if name == "staircase":
        # -sum over steps of mass * ln(density), both halves
        ref = -2 * half_line_integral(name, args, lambda x, f: f * np.log(f))
    else:
        # down to 1e-300 small: for gamma_gamma(0.02) the rest carries below 1e-9 (x^(2 alpha) |ln x| decay)
        ref = -2 * half_line_integral(name, args, lambda x, f: np.where(f > 0, f * np.log(np.where(f > 0, f, 1)), 0),
                                      x0_rel=1e-300)
    assert abs(h - ref) < rtol * max(1, abs(ref)) + (1e-9 if name == "gamma_gamma" else 0), (h, ref)


def _sample_pvalue(sample, name, args):
    """Kolmogorov-Smirnov p-value and a tail-count p-value (beyond the 0.5% quantiles), Bonferroni-combined."""
    dist = DISTS[name]
    ks = sps.kstest(sample, dist.cdf, args=args).pvalue
    xt = float(dist.isf(0.005, *args))
    tail = sps.binomtest(int(np.sum(np.abs(sample) > xt)), sample.size, 0.01).pvalue
    return min(1.0, 2 * min(ks, tail))


def check_rvs(name, args, n=20000, seed=2024):
    dist = DISTS[name]
    sample = dist.rvs(*args, size=n, random_state=np.random.default_rng(seed))
    p = _sample_pvalue(sample, name, args)
    assert p > SIGNIFICANCE, p
    # power: a sample with a 30% wrong scale must be rejected
    wrong = dist.rvs(*args, scale=1.3, size=n, random_state=np.random.default_rng(seed + 1))
    p_wrong = _sample_pvalue(wrong, name, args)
    assert p_wrong < SIGNIFICANCE, p_wrong


def _exact(name):
    return {"arete": exact_arete, "gamma_gamma": exact_gg, "staircase": exact_sc}[name]


def _points(name, args):
    s = _scales(name, args)[0] if name == "staircase" else args[1]
    return s * np.array([0.0, 0.37, -2.1, 7.5, 40.0]) if name == "arete" else s * np.array([0.13, 0.37, -2.1, 7.5, 40.0])


def check_against_engine(name, args):
    """pdf, logpdf, sf/cdf and ppf against the exact engine at ``digits=20``.

    Tolerance ``1e-12 * max(1, |ln v|)`` (relative): ``fast`` states ``1e-13 * max(1, |ln v|)``.
    The engine's cdf takes 2-3 s per point for ``alpha > 1`` (partial fractions),
    so there only the ppf of Gamma-Gamma is checked with it, at one point (for Arete
    the ppf round trip through the float64 cdf remains, and ``tests/test_fast_vs_engine.py``
    compares that cdf with the engine).
    """
    dist = DISTS[name]
    ex = _exact(name)
    pts = _points(name, args)
    slow = name != "staircase" and args[0] > 1
    if not slow or name == "gamma_gamma":
        for q in (0.3,) if slow else (1e-6, 0.3):  # first: a broken ppf fails fast
            x = float(dist.ppf(q, *args))
            assert abs(float(ex.cdf(x, *args, digits=20)) / q - 1) < 1e-11, (q, x)
    for t in pts:
        f = ex.pdf(float(t), *args, digits=20)
        lf = float(mp.log(f))
        tol = 1e-12 * max(1.0, abs(lf))
        assert abs(dist.logpdf(t, *args) - lf) < tol, (t, dist.logpdf(t, *args), lf)
        assert abs(dist.pdf(t, *args) / float(f) - 1) < tol
    for t in [] if slow else pts[1:4]:
        # the small one of sf and cdf, which carries the relative accuracy
        if t >= 0:
            v, got = ex.sf(float(t), *args, digits=20), dist.sf(t, *args)
        else:
            v, got = ex.cdf(float(t), *args, digits=20), dist.cdf(t, *args)
        assert abs(got / float(v) - 1) < 1e-12 * max(1.0, abs(float(mp.log(v)))), (t, got, v)


# ---------------------------------------------------------------------------
# the checks on every parameter set
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_normalization(name, args):
    check_normalization(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_pdf_integrates_to_cdf(name, args):
    check_pdf_integrates_to_cdf(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_cdf_ppf_roundtrip(name, args):
    check_cdf_ppf(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_sf_isf_roundtrip(name, args):
    check_sf_isf(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_moments_against_quadrature(name, args):
    check_moments(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_entropy_against_quadrature(name, args):
    check_entropy(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_rvs_kolmogorov_smirnov_and_power(name, args):
    check_rvs(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_values_against_exact_engine(name, args):
    check_against_engine(name, args)


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_logpdf_logsf_logcdf_are_logs(name, args):
    """scipy's check_pdf_logpdf / check_sf_logsf / check_cdf_logcdf at quantiles."""
    dist = DISTS[name]
    x = dist.ppf([0.001, 0.2, 0.3, 0.5, 0.7, 0.999], *args)
    np.testing.assert_allclose(dist.logpdf(x, *args), np.log(dist.pdf(x, *args)), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(dist.logsf(x, *args), np.log(dist.sf(x, *args)), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(dist.logcdf(x, *args), np.log(dist.cdf(x, *args)), rtol=1e-13, atol=1e-14)
    # where the density underflows, logpdf stays finite (the float64 path works in log space)
    far = 1500 * _scales(name, args)[1] if name != "staircase" else args[1] * (1 + 800 / args[2])
    assert dist.pdf(far, *args) == 0 and np.isfinite(dist.logpdf(far, *args)) and dist.logpdf(far, *args) < -700


@pytest.mark.parametrize("name,args", CASES, ids=IDS)
def test_symmetry_median_interval_support(name, args):
    dist = DISTS[name]
    frozen = dist(*args)
    assert frozen.cdf(0) == 0.5 and frozen.median() == 0 and frozen.mean() == 0
    x = np.array([0.1, 0.7, 3.0]) * float(frozen.std())
    np.testing.assert_allclose(frozen.sf(x), frozen.cdf(-x), rtol=1e-14)
    np.testing.assert_allclose(frozen.pdf(x), frozen.pdf(-x), rtol=1e-14)
    lo, hi = frozen.interval(0.95)
    assert abs(lo + hi) <= 1e-12 * hi and abs(frozen.cdf(hi) - frozen.cdf(lo) - 0.95) < 1e-12
    # scipy's check_edge_support
    assert frozen.support() == (-np.inf, np.inf)
    np.testing.assert_array_equal(frozen.cdf([-np.inf, np.inf]), [0, 1])
    np.testing.assert_array_equal(frozen.sf([-np.inf, np.inf]), [1, 0])
    np.testing.assert_array_equal(frozen.ppf([0, 1]), [-np.inf, np.inf])
    np.testing.assert_array_equal(frozen.isf([0, 1]), [np.inf, -np.inf])
    assert np.isnan(frozen.ppf([-1, 2, np.nan])).all() and np.isnan(frozen.pdf(np.nan))


# ---------------------------------------------------------------------------
# scipy conventions: loc/scale and the scaling law, freezing, broadcasting, argcheck
# ---------------------------------------------------------------------------


def _scaled(name, args, c):
    """The shape parameters of ``c X``: ``scale`` multiplies theta and lam (Arete), theta, Delta."""
    if name == "arete":
        return (args[0], c * args[1], c * args[2])
    if name == "gamma_gamma":
        return (args[0], c * args[1])
    return (args[0], c * args[1], args[2])


@pytest.mark.parametrize("name,args", [CASES[0], CASES[3], CASES[8], CASES[11]], ids=[IDS[0], IDS[3], IDS[8], IDS[11]])
def test_scaling_law_and_loc_scale_equivariance(name, args):
    dist = DISTS[name]
    c, loc = 2.5, -0.75
    sargs = _scaled(name, args, c)
    x = np.array([-3.0, -0.2, 0.05, 1.0, 6.0])
    # scale=c is the distribution with scaled parameters (the scaling law)
    np.testing.assert_allclose(dist.cdf(x, *args, scale=c), dist.cdf(x, *sargs), rtol=1e-12)
    np.testing.assert_allclose(dist.pdf(x, *args, scale=c), dist.pdf(x, *sargs), rtol=1e-12)
    q = np.array([1e-5, 0.3, 0.9])
    np.testing.assert_allclose(dist.ppf(q, *args, scale=c), dist.ppf(q, *sargs), rtol=1e-12)
    np.testing.assert_allclose(dist.stats(*args, scale=c, moments="mvk"), dist.stats(*sargs, moments="mvk"), rtol=1e-14)
    assert abs(dist.entropy(*sargs) - dist.entropy(*args) - math.log(c)) < 1e-11
    # loc shifts
    np.testing.assert_allclose(dist.cdf(x + loc, *args, loc=loc), dist.cdf(x, *args), rtol=1e-14)
    np.testing.assert_allclose(dist.ppf(q, *args, loc=loc, scale=c), loc + c * dist.ppf(q, *args), rtol=1e-13)
    # scipy's check_loc_scale: array loc and scale broadcast in stats
    m, v = dist.stats(*args, loc=np.array([10.0, 20.0]), scale=np.array([10.0, 20.0]))
    np.testing.assert_allclose(m, [10.0, 20.0])
    np.testing.assert_allclose(v, float(dist.var(*args)) * np.array([100.0, 400.0]), rtol=1e-14)


@pytest.mark.parametrize("name,args", [CASES[0], CASES[9], CASES[12]], ids=[IDS[0], IDS[9], IDS[12]])
def test_frozen_equals_unfrozen_and_pickles(name, args):
    dist = DISTS[name]
    frozen = dist(*args, loc=0.5, scale=2.0)
    x = np.array([-2.0, 0.1, 3.0])
    kw = {"loc": 0.5, "scale": 2.0}
    for meth in ("pdf", "logpdf", "cdf", "sf", "logsf"):
        np.testing.assert_array_equal(getattr(frozen, meth)(x), getattr(dist, meth)(x, *args, **kw))
    q = np.array([0.01, 0.5, 0.8])
    np.testing.assert_array_equal(frozen.ppf(q), dist.ppf(q, *args, **kw))
    np.testing.assert_array_equal(frozen.stats("mvsk"), dist.stats(*args, moments="mvsk", **kw))
    np.testing.assert_array_equal(frozen.rvs(7, random_state=3), dist.rvs(*args, size=7, random_state=3, **kw))
    # scipy's check_pickling: the distribution and a frozen one survive pickle, random state included
    again = pickle.loads(pickle.dumps(frozen))
    np.testing.assert_array_equal(again.cdf(x), frozen.cdf(x))
    assert pickle.loads(pickle.dumps(dist)).cdf(0.3, *args) == dist.cdf(0.3, *args)


def test_broadcasting_of_parameters_and_points():
    alphas = np.array([0.02, 0.95, 2.5])
    x = np.array([-1.0, 0.0, 0.3, 4.0])
    out = arete.pdf(x[:, None], alphas, 1.0, 0.4)
    assert out.shape == (4, 3)
    for j, a in enumerate(alphas):
        np.testing.assert_array_equal(out[:, j], arete.pdf(x, a, 1.0, 0.4))
    q = np.array([0.1, 0.5, 0.95])
    np.testing.assert_allclose(arete.ppf(q[:, None], alphas, [[1.0], [1.0], [2.0]], 0.4)[2],
                               [arete.ppf(0.95, a, 2.0, 0.4) for a in alphas], rtol=1e-15)
    # scipy's check_ppf_broadcast
    np.testing.assert_allclose(gamma_gamma.ppf(0.3, [0.3] * 5, [2.0] * 5), [gamma_gamma.ppf(0.3, 0.3, 2.0)] * 5, rtol=1e-15)
    assert staircase.cdf(x[:, None, None], [0.2, 0.7], 1.0, [[1.0], [2.0], [5.0]]).shape == (4, 3, 2)
    m, v, s, k = arete.stats(alphas[:, None], 1.0, [0.3, 3.0], moments="mvsk")
    assert m.shape == v.shape == s.shape == k.shape == (3, 2)
    np.testing.assert_allclose(v, 2 * alphas[:, None] + 2 * np.array([0.3, 3.0]) ** 2, rtol=1e-15)
    assert arete.entropy([0.5, 2.0], 1.0, 0.5).shape == (2,)


def test_rvs_with_array_parameters():
    """``rvs`` broadcasts the parameters against ``size``; every column follows its own law."""
    rng = np.random.default_rng(11)
    thetas = np.array([0.5, 4.0])
    draws = arete.rvs(0.3, thetas, 0.2, size=(8000, 2), random_state=rng)
    assert draws.shape == (8000, 2)
    for j, th in enumerate(thetas):
        assert sps.kstest(draws[:, j], arete.cdf, args=(0.3, th, 0.2)).pvalue > SIGNIFICANCE
    assert staircase.rvs([0.2, 0.8], 1.0, 3.0, size=(5, 2), random_state=rng).shape == (5, 2)
    assert np.ndim(gamma_gamma.rvs(0.5, 1.0, random_state=rng)) == 0
    with pytest.raises(ValueError, match="size does not match"):
        arete.rvs(0.3, thetas, 0.2, size=3, random_state=rng)


def test_random_state_handled_as_scipy_does():
    # an int seeds a RandomState: reproducible; a Generator is used as is
    assert np.array_equal(arete.rvs(0.1, 1, 0.3, size=5, random_state=42), arete.rvs(0.1, 1, 0.3, size=5, random_state=42))
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    assert np.array_equal(staircase.rvs(0.3, 1, 2, size=5, random_state=g1), staircase.rvs(0.3, 1, 2, size=5, random_state=g2))
    rs = np.random.RandomState(9)
    a, b = gamma_gamma.rvs(0.5, 1, size=3, random_state=rs), gamma_gamma.rvs(0.5, 1, size=3, random_state=rs)
    assert not np.array_equal(a, b)  # the RandomState advances
    # the default (numpy's global RandomState) follows np.random.seed
    np.random.seed(123)
    c = arete.rvs(0.1, 1, 0.3, size=4)
    np.random.seed(123)
    assert np.array_equal(c, arete.rvs(0.1, 1, 0.3, size=4))
    # the random_state attribute of a frozen distribution (scipy's check_random_state_property)
    frozen = arete(0.1, 1, 0.3)
    frozen.random_state = 77
    d = frozen.rvs(3)
    frozen.random_state = 77
    assert np.array_equal(d, frozen.rvs(3))


BAD = {
    "arete": [(-1, 1, 1), (0, 1, 1), (0.5, 0, 1), (0.5, 1, -2), (np.inf, 1, 1), (0.5, np.nan, 1), (0.5, 1, np.inf)],
    "gamma_gamma": [(-1, 1), (0, 1), (0.5, 0), (0.5, np.inf), (np.nan, 1)],
    "staircase": [(-0.1, 1, 1), (1.5, 1, 1), (0.5, 0, 1), (0.5, 1, 0), (0.5, 1, np.inf), (np.nan, 1, 1)],
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_argcheck_gives_nan_and_rvs_raises(name):
    dist = DISTS[name]
    for args in BAD[name]:
        for meth in (dist.pdf, dist.logpdf, dist.cdf, dist.sf, dist.ppf, dist.isf):
            assert np.isnan(meth(0.3, *args)), (meth.__name__, args)
        assert all(np.isnan(v) for v in dist.stats(*args, moments="mvsk")), args
        assert np.isnan(dist.entropy(*args)) and np.isnan(dist.moment(6, *args))
        with pytest.raises(ValueError, match="Domain error"):
            dist.rvs(*args, random_state=1)
    # a good and a bad parameter in one array: only the bad entry is nan
    good = {"arete": (0.5, 1, 1), "gamma_gamma": (0.5, 1), "staircase": (0.5, 1, 1)}[name]
    mixed = [np.array([good[0], BAD[name][0][0]])] + list(good[1:])
    out = dist.cdf(0.3, *mixed)
    assert out[0] == dist.cdf(0.3, *good) and np.isnan(out[1])


def test_fit_is_refused_where_it_does_not_work_and_works_for_gamma_gamma():
    with pytest.raises(NotImplementedError, match="not supported"):
        arete.fit(np.zeros(5))
    with pytest.raises(NotImplementedError, match="not supported"):
        staircase.fit(np.zeros(5))
    # gamma_gamma: scipy's generic maximum likelihood with loc and scale fixed finds the MLE
    data = gamma_gamma.rvs(0.5, 2.0, size=2000, random_state=np.random.default_rng(3))
    a, th, loc, scale = gamma_gamma.fit(data, floc=0, fscale=1)
    assert (loc, scale) == (0, 1)
    assert gamma_gamma.nnlf((a, th, 0, 1), data) <= gamma_gamma.nnlf((0.5, 2.0, 0, 1), data)
    assert abs(a / 0.5 - 1) < 0.15 and abs(th / 2.0 - 1) < 0.15  # about 3 standard errors at n = 2000


# ---------------------------------------------------------------------------
# the staircase: the numpy closed forms against the exact (mpmath) module
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", [(0.25, 2.0, 3.0), (0.0, 1.0, 3.0), (0.2, 0.1, 50.0), (0.5, 2.0, 0.3)])
def test_staircase_closed_forms_against_exact_module(args):
    D = args[1]
    pts = np.array([0.0, 0.03, 0.3, 0.49, 0.5, 1.0, 2.5, 2.6, 13.7, 40.0, 700.0]) * D
    pts = np.concatenate([pts, -pts[1:]])
    for t in pts:
        f = exact_sc.pdf(float(t), *args, digits=25)
        assert abs(staircase.logpdf(t, *args) - float(exact_sc.logpdf(float(t), *args, digits=25))) <= 1e-13 * max(1, abs(float(mp.log(f))))
        small = exact_sc.sf(float(t), *args, digits=25) if t >= 0 else exact_sc.cdf(float(t), *args, digits=25)
        got = staircase.logsf(t, *args) if t >= 0 else staircase.logcdf(t, *args)
        # log space: exact far beyond the float range (sf(700 Delta) = e^(-700 eps)/2)
        assert abs(got - float(mp.log(small))) <= 1e-13 * max(1, abs(float(mp.log(small)))), (t, got)
    # at the jumps |t| = (k + gamma) Delta the density takes the lower value (Lemma 27); 0.5 = (0 + 0.25) * 2
    if args == (0.25, 2.0, 3.0):
        assert staircase.pdf(0.5, *args) == pytest.approx(math.exp(-3) * staircase.pdf(0.49, *args), rel=1e-14)
    # moments against the closed forms of the exact module
    assert abs(staircase.var(*args) / float(exact_sc.var(*args, digits=20)) - 1) < 1e-14
    # E|X| = 2 int_0^inf sf, summed exactly over the steps (sf is linear on each)
    edges = _edges("staircase", args, 0)
    sfv = staircase.sf(edges, *args)
    mean_abs = 2 * float(np.sum((sfv[:-1] + sfv[1:]) / 2 * np.diff(edges)))
    assert abs(mean_abs / float(exact_sc.mean_abs(*args, digits=20)) - 1) < 1e-12


def test_staircase_gamma_zero_and_one_are_the_same_law():
    """Lemma 27 with gamma in {0, 1}: both give (1 - e^-eps)/(2 Delta) e^(-eps floor(|t|/Delta))."""
    x = np.linspace(-5.3, 5.3, 41)
    np.testing.assert_allclose(staircase.cdf(x, 0.0, 1.0, 2.0), staircase.cdf(x, 1.0, 1.0, 2.0), rtol=1e-14)
    np.testing.assert_allclose(staircase.stats(0.0, 1.0, 2.0, moments="vk"), staircase.stats(1.0, 1.0, 2.0, moments="vk"), rtol=1e-14)
    assert abs(staircase.entropy(0.0, 1.0, 2.0) - staircase.entropy(1.0, 1.0, 2.0)) < 1e-14


def test_staircase_quantiles_are_the_closed_form_inverse_in_x():
    """``ppf(cdf(x)) = x`` away from the jumps (the well-conditioned direction), deep tails included."""
    for args in [(0.3, 1.0, 2.0), (0.2, 0.1, 50.0), (0.6, 3.0, 0.05)]:
        D = args[1]
        x = D * np.array([0.1, 0.55, 1.2, 3.9, 4.05, 12.5])
        np.testing.assert_allclose(staircase.isf(staircase.sf(x, *args), *args), x, rtol=1e-12)
        np.testing.assert_allclose(staircase.ppf(staircase.cdf(-x, *args), *args), -x, rtol=1e-12)


def test_exact_moments_of_high_order():
    """``moment(n)`` from cumulants (Arete, Gamma-Gamma) and from the Eulerian sums (staircase)."""
    # Gamma-Gamma(1, theta) is Laplace(theta): E X^n = n! theta^n for even n
    for n in (2, 4, 6, 8):
        assert gamma_gamma.moment(n, 1.0, 1.5) == pytest.approx(math.factorial(n) * 1.5**n, rel=1e-13)
        assert arete.moment(n + 1, 0.3, 1.0, 0.4) == 0
    # Arete: kappa_4 = 12 (alpha theta^4 + lam^4), so E Z^4 = kappa_4 + 3 Var^2
    a, th, lam = 0.3, 1.0, 0.4
    var = 2 * a * th**2 + 2 * lam**2
    assert arete.moment(4, a, th, lam) == pytest.approx(12 * (a * th**4 + lam**4) + 3 * var**2, rel=1e-14)
    # staircase: E X^8 from the Eulerian sums against the sum over the steps
    args = (0.4, 1.0, 1.5)
    ref = 2 * half_line_integral("staircase", args, lambda x, f: x**8 * f)
    assert staircase.moment(8, *args) == pytest.approx(ref, rel=1e-12)


# ---------------------------------------------------------------------------
# the checks can fail: deliberately broken distributions
# ---------------------------------------------------------------------------


class _VarianceOff(arete_gen):
    """Variance and kurtosis from a wrong formula (``alpha theta^2`` not doubled)."""

    def _stats(self, alpha, theta, lam):
        m, v, s, k = super()._stats(alpha, theta, lam)
        return m, v - alpha * theta**2, s, k


class _QuantileOff(arete_gen):
    """Quantiles 1e-9 too far out (a root-finder stopping early)."""

    def _isf(self, p, alpha, theta, lam):
        return super()._isf(p, alpha, theta, lam) * (1 + 1e-9)


class _SamplerOff(arete_gen):
    """Draws with theta 1.3 times too large (the Laplace part right)."""

    def _rvs(self, alpha, theta, lam, size=None, random_state=None):
        return super()._rvs(alpha, 1.3 * theta, lam, size=size, random_state=random_state)


class _StepOff(staircase_gen):
    """Entropy 1e-8 (relative) off."""

    def _entropy(self, gamma, Delta, eps):
        return super()._entropy(gamma, Delta, eps) * (1 + 1e-8)


@pytest.fixture
def broken(monkeypatch):
    def install(name, cls, shapes):
        monkeypatch.setitem(DISTS, name, cls(a=-np.inf, b=np.inf, name=name, shapes=shapes))

    return install


def test_checks_catch_broken_distributions(broken):
    args = (0.95, 1.0, 0.5)
    broken("arete", _VarianceOff, "alpha, theta, lam")
    with pytest.raises(AssertionError):
        check_moments("arete", args)
    broken("arete", _QuantileOff, "alpha, theta, lam")
    with pytest.raises(AssertionError):
        check_against_engine("arete", args)
    with pytest.raises(AssertionError):
        check_cdf_ppf("arete", args)
    broken("arete", _SamplerOff, "alpha, theta, lam")
    with pytest.raises(AssertionError):
        check_rvs("arete", args, n=20000)
    broken("staircase", _StepOff, "gamma, Delta, eps")
    with pytest.raises(AssertionError):
        check_entropy("staircase", (0.3, 1.0, 2.0))


def test_fast_is_what_the_distributions_call():
    """The scipy objects are thin wrappers: the same float64 numbers as :mod:`arete_proofs.distributions.fast`."""
    x = np.array([-2.0, 0.0, 0.5, 3.0])
    np.testing.assert_array_equal(arete.pdf(x, 0.3, 1.0, 0.4), fast.pdf(x, 0.3, 1.0, 0.4))
    np.testing.assert_array_equal(gamma_gamma.sf(x, 0.3, 1.0), fast.gg_sf(x, 0.3, 1.0))
