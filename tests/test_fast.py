"""Tests of the float64 path :mod:`arete_proofs.distributions.fast`.

Every accuracy claim in a docstring of ``fast`` is checked here against an
*independent* high-precision reference computed in this file with mpmath:

* Gamma-Gamma density: the Bessel-K closed form (``mpmath.besselk``, 30 digits);
* Gamma-Gamma survival function: ``P(X1 - X2 > t) = E[Q(alpha, (t + X2)/theta)]``,
  a one-dimensional mixture integral over the Gamma law of ``X2``;
* Arete density / survival function: the direct convolution written as
  ``f_A(t) = E[g(t + X2)]`` where ``g`` is the closed-form density (incomplete gamma
  functions) of ``X1 + Y``; no branch cut, no Bessel function;
* ``f_A(0)`` in closed form: ``(1+r)^(-2a) Gamma(2a)/(Gamma(a)Gamma(a+1)) 2F1(2a, a; a+1; (r-1)/(r+1))/lam``;
* ``alpha = 1``: ``f(t) = (theta e^{-|t|/theta} - lam e^{-|t|/lam}) / (2 (theta^2 - lam^2))``;
* ``E|Z|`` from the characteristic function, ``(2/pi) int_0^inf (1 - phi(w))/w^2 dw``;

plus normalisation, symmetry and monotonicity.
"""

from __future__ import annotations

import math
import time

import mpmath as M
import numpy as np
import pytest
from mpmath import mp, mpf
from scipy import integrate

from arete_proofs.distributions import fast as F

# ---------------------------------------------------------------------------
# independent references (mpmath)
# ---------------------------------------------------------------------------


def _lowinc(a, b, u):
    """``int_0^u x^(a-1) e^(-b x) dx`` for any real ``b`` (Kummer function form)."""
    if u == 0:
        return mpf(0)
    return u**a / a * M.hyp1f1(a, a + 1, -b * u)


def _g_density(u, a, rho):
    """Density at ``u >= 0`` of ``X1 + Y``, ``X1 ~ Gamma(a, 1)``, ``Y ~ Laplace(1/rho)``."""
    c0 = 1 + rho
    first = M.exp(-rho * u) * _lowinc(a, 1 - rho, u)
    second = M.exp(rho * u) * c0 ** (-a) * M.gammainc(a, c0 * u)
    return rho / (2 * M.gamma(a)) * (first + second)


def _g_sf(u, a, rho):
    """``P(X1 + Y > u)`` for ``u >= 0`` (same variables as :func:`_g_density`)."""
    c0 = 1 + rho
    return (
        M.exp(-rho * u) * _lowinc(a, 1 - rho, u) / 2
        + M.gammainc(a, u)
        - M.exp(rho * u) * c0 ** (-a) * M.gammainc(a, c0 * u) / 2
    ) / M.gamma(a)


def _mix(h, tau, a, scales):
    """``E[h(tau + X2)]`` for ``X2 ~ Gamma(a, 1)`` and ``tau > 0``.

    Substituting ``w = e^s`` makes ``w^(a-1) dw = e^(a s) ds`` smooth even for
    ``a = 1e-7``; below ``w0`` (far below every scale of ``h``) ``h(tau + w) = h(tau)``
    to the working precision and that piece is ``h(tau) gamma(a, w0)``.  The
    integrand is scaled by ``h(tau)`` because ``mpmath.quad`` tests absolute error.
    """
    w0 = min([tau] + list(scales)) * mpf(10) ** (-(mp.dps + 2))
    h0 = h(tau)
    pts = [M.log(w0)]
    while pts[-1] < 4:
        pts.append(pts[-1] + 12)
    pts += [M.log(s) for s in list(scales) + [tau] if s > w0]
    pts = sorted(p for p in set(pts) if p < 4) + [mpf(4), M.log(mp.dps * M.log(10) + 60)]
    f = lambda s: M.exp(a * s - M.exp(s)) * (h(tau + M.exp(s)) / h0)
    body = M.quad(f, pts, method="gauss-legendre")
    return h0 * (M.gammainc(a, 0, w0) + body) / M.gamma(a)


def ref_arete_pdf(t, a, th, lam, dps=20):
    with mp.workdps(dps + 8):
        t, a, th, lam = (mpf(x) for x in (t, a, th, lam))
        tau, rho = abs(t) / th, th / lam
        if tau == 0:
            return ref_arete_pdf0(a, th, lam, dps)
        return _mix(lambda u: _g_density(u, a, rho), tau, a, [1 / rho, mpf(1)]) / th


def ref_arete_pdf0(a, th, lam, dps=30):
    with mp.workdps(dps + 8):
        a, th, lam = (mpf(x) for x in (a, th, lam))
        r = th / lam
        return ((1 + r) ** (-2 * a) * M.gamma(2 * a) / (M.gamma(a) * M.gamma(a + 1))
                * M.hyp2f1(2 * a, a, a + 1, (r - 1) / (r + 1)) / lam)


def ref_arete_sf(t, a, th, lam, dps=20):
    """``P(Z > |t|)``."""
    with mp.workdps(dps + 8):
        t, a, th, lam = (mpf(x) for x in (t, a, th, lam))
        tau, rho = abs(t) / th, th / lam
        if tau == 0:
            return mpf(1) / 2
        return _mix(lambda u: _g_sf(u, a, rho), tau, a, [1 / rho, mpf(1)])


def ref_alpha1_logpdf(t, th, lam, dps=30):
    with mp.workdps(dps + 8):
        t, th, lam = abs(mpf(t)), mpf(th), mpf(lam)
        if th == lam:  # Arete(1, theta, theta) = Gamma-Gamma(2, theta)
            return M.log((th + t) * M.exp(-t / th) / (4 * th**2))
        return M.log((th * M.exp(-t / th) - lam * M.exp(-t / lam)) / (2 * (th**2 - lam**2)))


def ref_gg_logpdf(t, a, th, dps=30):
    with mp.workdps(dps + 8):
        t, a, th = (mpf(x) for x in (t, a, th))
        x, nu = abs(t), a - mpf(1) / 2
        return M.log(x**nu * M.besselk(nu, x / th)
                     / (M.sqrt(M.pi) * M.gamma(a) * th ** (a + mpf(1) / 2) * 2**nu))


def ref_gg_sf(t, a, dps=20):
    """``P(X1 - X2 > |t|)`` for ``theta = 1``."""
    with mp.workdps(dps + 8):
        tau, a = abs(mpf(t)), mpf(a)
        return _mix(lambda u: M.gammainc(a, u, regularized=True), tau, a, [mpf(1)])


def ref_mean_abs(a, th, lam, dps=30):
    with mp.workdps(dps + 8):
        a, th, lam = (mpf(x) for x in (a, th, lam))
        one_minus_phi = lambda w: -M.expm1(-a * M.log1p((th * w) ** 2) - M.log1p((lam * w) ** 2))
        lo, hi = sorted([1 / th, 1 / lam])
        return 2 / M.pi * M.quad(lambda w: one_minus_phi(w) / w**2, [0, lo, hi, M.inf])


# parameter sets from the paper: Lemma 3 (alpha = lam = e^{-eps/4}, theta = 4/eps) and Figure 4
PAPER = [(math.exp(-eps / 4), 4 / eps, math.exp(-eps / 4)) for eps in (20, 40, 60)] + [
    (0.07559007048913552, 0.6295929433519876, 0.05453349704921005),
    (0.03438865645893487, 0.7753538691868341, 0.03916449536622209),
    (0.01922231819807612, 0.8312962061581013, 0.02547890283133737),
]

# theta/lam pairs covering rho = theta/lam from 1e-6 to 1e6, including rho ~ 1
PAIRS = [(1e-3, 1e3), (1e-3, 1.0), (1.0, 2.0), (1.0, 1.0), (1.0, 1.0 + 2e-9), (2.0, 1.0), (1e3, 1.0), (1e3, 1e-3)]


CLAIM = 1e-13  # the accuracy stated in the docstrings of arete_proofs.distributions.fast


def _tol(log_value):
    """Allowed absolute error of a log-value: ``1e-13 * max(1, |log_value|)``."""
    return CLAIM * max(1.0, abs(float(log_value)))


# ---------------------------------------------------------------------------
# validation and shapes
# ---------------------------------------------------------------------------

ARETE_FUNS = [F.pdf, F.logpdf, F.cdf, F.sf]
GG_FUNS = [F.gg_pdf, F.gg_logpdf, F.gg_cdf, F.gg_sf]


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), -float("inf"), "x", None, True])
@pytest.mark.parametrize("which", ["alpha", "theta", "lam"])
def test_arete_parameter_validation(bad, which):
    args = {"alpha": 0.3, "theta": 1.0, "lam": 0.5}
    args[which] = bad
    for fun in ARETE_FUNS:
        with pytest.raises(ValueError, match=which):
            fun(1.0, args["alpha"], args["theta"], args["lam"])
    for fun in (F.mean_abs, F.var):
        with pytest.raises(ValueError, match=which):
            fun(args["alpha"], args["theta"], args["lam"])


@pytest.mark.parametrize("bad", [0, -2.0, float("nan"), float("inf")])
@pytest.mark.parametrize("which", ["alpha", "theta"])
def test_gg_parameter_validation(bad, which):
    args = {"alpha": 0.3, "theta": 1.0}
    args[which] = bad
    for fun in GG_FUNS:
        with pytest.raises(ValueError, match=which):
            fun(1.0, args["alpha"], args["theta"])


def test_nan_t_rejected():
    for fun in ARETE_FUNS:
        with pytest.raises(ValueError, match="t must not be NaN"):
            fun([1.0, float("nan")], 0.3, 1.0, 0.5)
    for fun in GG_FUNS:
        with pytest.raises(ValueError, match="t must not be NaN"):
            fun(float("nan"), 0.3, 1.0)


def test_shapes_and_scalars():
    for fun in ARETE_FUNS:
        v = fun(0.7, 0.3, 1.0, 0.5)
        assert isinstance(v, float)
        a = fun(np.ones((3, 4)), 0.3, 1.0, 0.5)
        assert isinstance(a, np.ndarray) and a.shape == (3, 4) and a.dtype == np.float64
        assert fun([], 0.3, 1.0, 0.5).shape == (0,)
    for fun in GG_FUNS:
        assert isinstance(fun(0.7, 0.3, 1.0), float)
        assert fun([[0.1, 0.2]], 0.3, 1.0).shape == (1, 2)
    assert isinstance(F.mean_abs(0.3, 1.0, 0.5), float)
    assert F.var(0.3, 1.0, 0.5) == 2 * 0.3 + 2 * 0.25


def test_infinite_t():
    inf = float("inf")
    assert F.pdf(inf, 0.3, 1, 0.5) == 0 and F.logpdf(-inf, 0.3, 1, 0.5) == -inf
    assert F.sf(inf, 0.3, 1, 0.5) == 0 and F.cdf(inf, 0.3, 1, 0.5) == 1
    assert F.sf(-inf, 0.3, 1, 0.5) == 1 and F.cdf(-inf, 0.3, 1, 0.5) == 0
    assert F.gg_pdf(inf, 0.3, 1) == 0 and F.gg_sf(inf, 0.3, 1) == 0 and F.gg_cdf(-inf, 0.3, 1) == 0


# ---------------------------------------------------------------------------
# Gamma-Gamma
# ---------------------------------------------------------------------------

GG_ALPHAS = [1e-7, 3e-7, 1e-4, 0.0192, 0.2, 0.4499, 0.5 - 1e-9, 0.5, 0.5 + 1e-9, 0.7, 0.999, 1.0, 1.5, 3.7, 10.0]
GG_TAUS = [1e-300, 1e-100, 1e-20, 1e-9, 1e-3, 0.3, 3.0, 30.0, 1000.0]


@pytest.mark.parametrize("alpha", GG_ALPHAS)
def test_gg_logpdf_against_besselk(alpha):
    """Claim: |error of gg_logpdf| <= 1e-13 max(1, |ln f|)."""
    for theta in (1e-3, 1.0, 1e3):
        t = np.array(GG_TAUS) * theta
        got = F.gg_logpdf(t, alpha, theta)
        got_pdf = F.gg_pdf(t, alpha, theta)
        for ti, gi, pi in zip(t, got, got_pdf):
            ref = float(ref_gg_logpdf(ti, alpha, theta))
            assert abs(gi - ref) <= _tol(ref), (alpha, theta, ti, gi, ref)
            if abs(ref) < 700:
                assert abs(pi / math.exp(ref) - 1) <= _tol(ref)


def test_gg_pdf_at_zero():
    for alpha in (1e-7, 0.3, 0.5):
        assert F.gg_pdf(0.0, alpha, 2.0) == math.inf
    for alpha in (0.5 + 1e-6, 0.7, 1.0, 3.7, 10.0):
        ref = M.gamma(alpha - 0.5) / (2 * M.sqrt(M.pi) * M.gamma(alpha) * 2.0)
        assert abs(F.gg_pdf(0.0, alpha, 2.0) / float(ref) - 1) < 1e-13


@pytest.mark.parametrize("alpha", [1e-7, 0.0192, 0.5, 1.0, 3.7])
def test_gg_sf_against_mixture(alpha):
    """Claim: relative error of gg_sf(t) <= 1e-13 max(1, |ln gg_sf(t)|) for t >= 0."""
    taus = ([1e-40] if alpha < 0.25 else []) + [1e-9, 0.3, 30.0, 1000.0]
    for theta in (1e3,):
        got = F.gg_sf(np.array(taus) * theta, alpha, theta)
        gotc = F.gg_cdf(-np.array(taus) * theta, alpha, theta)
        for tau, g, c in zip(taus, got, gotc):
            ref = ref_gg_sf(tau, alpha)
            lref = M.log(ref)
            if ref < mpf("1e-300"):
                g = float(F._gg_log_sf_tau(np.array([tau]), alpha)[0])
                assert abs(g - float(lref)) <= _tol(lref)
            else:
                assert abs(g / float(ref) - 1) <= _tol(lref), (alpha, tau, g, ref)
                assert abs(F.gg_cdf(tau * theta, alpha, theta) - float(1 - ref)) <= CLAIM
                assert abs(F.gg_sf(-tau * theta, alpha, theta) - float(1 - ref)) <= CLAIM
                assert abs(c / g - 1) <= 1e-15


def test_gg_sf_cdf_identities():
    t = np.linspace(-5, 5, 101)
    for alpha in (1e-4, 0.3, 2.5):
        s, c = F.gg_sf(t, alpha, 1.0), F.gg_cdf(t, alpha, 1.0)
        assert np.all(np.abs(s + c - 1) < 1e-15)
        assert np.all(np.abs(s - F.gg_cdf(-t, alpha, 1.0)) < 1e-15)
        assert np.all(np.diff(s) <= 1e-16)
        assert F.gg_sf(0.0, alpha, 1.0) == 0.5


# ---------------------------------------------------------------------------
# Arete density
# ---------------------------------------------------------------------------

ALPHAS = [1e-7, math.exp(-15), 1e-4, 0.0192, 0.0756, 0.3, 0.5, 0.7, 0.999, 1.0, 1.5, 3.7, 10.0]


@pytest.mark.parametrize("alpha", ALPHAS)
def test_pdf_at_zero_closed_form(alpha):
    """Claim at t = 0: relative error <= 1e-13 max(1, |ln f(0)|) (2F1 closed form, 30 digits)."""
    for theta, lam in PAIRS:
        ref = float(ref_arete_pdf0(alpha, theta, lam))
        got = F.pdf(0.0, alpha, theta, lam)
        assert abs(got / ref - 1) <= _tol(math.log(ref)), (alpha, theta, lam, got, ref)
        assert abs(F.logpdf(-0.0, alpha, theta, lam) - math.log(ref)) <= _tol(math.log(ref))


@pytest.mark.parametrize("theta,lam", PAIRS + [(0.7, 0.7 * (1 - 1e-12)), (4.0, 0.25)])
def test_alpha1_closed_form(theta, lam):
    """Claim: |logpdf error| <= 1e-13 max(1, |logpdf|), deep tails included."""
    taus = np.array([0, 1e-300, 1e-8, 1e-3, 0.3, 3.0, 30.0, 300.0, 1000.0])
    t = taus * theta
    got = F.logpdf(t, 1.0, theta, lam)
    for ti, gi in zip(t, got):
        ref = float(ref_alpha1_logpdf(ti, theta, lam))
        assert abs(gi - ref) <= _tol(ref), (theta, lam, ti, gi, ref)


@pytest.mark.parametrize("alpha", [1e-7, 0.3, 0.999, 2.5])
def test_rho_one_is_gamma_gamma(alpha):
    """Arete(alpha, theta, theta) = Gamma-Gamma(alpha + 1, theta) (characteristic functions)."""
    t = np.array([0.0, 1e-8, 0.3, 3.0, 30.0, 1000.0]) * 0.7
    a, g = F.logpdf(t, alpha, 0.7, 0.7), F.gg_logpdf(t, alpha + 1, 0.7)
    assert np.all(np.abs(a - g) <= 2 * CLAIM * np.maximum(1, np.abs(g)))
    sa, sg = F.sf(t[:-1], alpha, 0.7, 0.7), F.gg_sf(t[:-1], alpha + 1, 0.7)
    assert np.all(np.abs(sa / sg - 1) <= 2 * CLAIM * np.maximum(1, np.abs(np.log(sg))))


def test_gamma_gamma_special_cases():
    """alpha = 1: Laplace(theta); alpha = 1/2: K_0(|t|/theta)/(pi theta)."""
    t = np.array([1e-300, 1e-8, 0.3, 3.0, 30.0, 700.0]) * 2.0
    lap = -np.abs(t) / 2.0 - math.log(4.0)
    assert np.all(np.abs(F.gg_logpdf(t, 1.0, 2.0) - lap) <= CLAIM * np.maximum(1, np.abs(lap)))
    assert np.all(np.abs(F.gg_sf(t, 1.0, 2.0) / (0.5 * np.exp(-t / 2.0)) - 1) <= CLAIM * np.maximum(1, t / 2))
    for ti in t:
        ref = M.log(M.besselk(0, mpf(ti) / 2) / (M.pi * 2))
        assert abs(F.gg_logpdf(ti, 0.5, 2.0) - float(ref)) <= _tol(ref)


# (alpha, theta, lam, t/theta) covering all branches of T_J, T_B, T_A
CONV_CASES = [
    (0.3, 1.0, 0.5, [0.3, 50.0]),
    (0.3, 1.0, 2.0, [30.0]),
    (1e-7, 1.0, 0.9, [1.0]),
    (0.999, 1e3, 1e-3, [0.3]),
    (3.7, 2.0, 0.1, [1000.0]),
    (2.5, 1e-3, 1e3, [30.0]),
    (0.5, 1.0, 1.0, [1e-8]),
]


@pytest.mark.parametrize("alpha,theta,lam,taus", CONV_CASES)
def test_pdf_sf_against_direct_convolution(alpha, theta, lam, taus):
    """Claims: |logpdf error| and relative sf error <= 1e-13 max(1, |ln value|)."""
    t = np.array(taus) * theta
    lp = F.logpdf(t, alpha, theta, lam)
    ls = F._Arete(alpha, theta, lam).log_sf_tau(np.abs(t) / theta)
    s = F.sf(t, alpha, theta, lam)
    for ti, lpi, lsi, si in zip(t, lp, ls, s):
        ref = ref_arete_pdf(ti, alpha, theta, lam)
        assert abs(lpi - float(M.log(ref))) <= _tol(M.log(ref)), (ti, lpi, ref)
        assert abs(math.exp(lpi) - F.pdf(ti, alpha, theta, lam)) <= 1e-15 * math.exp(lpi)
        refs = ref_arete_sf(ti, alpha, theta, lam)
        tol = _tol(M.log(refs))
        assert abs(lsi - float(M.log(refs))) <= tol, (ti, lsi, refs)
        # the complementary side (values >= 1/2) has absolute error <= CLAIM
        assert abs(F.cdf(ti, alpha, theta, lam) - float(1 - refs)) <= CLAIM
        assert abs(F.sf(-ti, alpha, theta, lam) - float(1 - refs)) <= CLAIM
        if refs > mpf("1e-300"):
            assert abs(si / float(refs) - 1) <= tol
            assert abs(F.cdf(-ti, alpha, theta, lam) / si - 1) <= tol


@pytest.mark.parametrize("alpha,theta,lam", PAPER)
def test_paper_parameters(alpha, theta, lam):
    t = np.array([0.0, 0.5]) * theta
    got = F.logpdf(t, alpha, theta, lam)
    for ti, gi in zip(t, got):
        ref = M.log(ref_arete_pdf(ti, alpha, theta, lam))
        assert abs(gi - float(ref)) <= _tol(ref)


# ---------------------------------------------------------------------------
# structural properties
# ---------------------------------------------------------------------------

PROPERTY_SETS = PAPER + [
    (1e-7, 1.0, 1.0),
    (0.3, 1.0, 0.5),
    (0.3, 1.0, 2.0),
    (0.7, 1e-3, 1e3),
    (0.999, 1e3, 1e-3),
    (1.0, 1.0, 1.0 + 1e-9),
    (2.5, 1.0, 0.3),
    (10.0, 0.5, 3.0),
]


@pytest.mark.parametrize("alpha,theta,lam", PROPERTY_SETS)
def test_symmetry_monotonicity_normalisation(alpha, theta, lam):
    scale = max(theta, lam)
    t = np.concatenate([[0.0], np.geomspace(1e-8, 60, 400)]) * scale
    p = F.pdf(t, alpha, theta, lam)
    assert np.array_equal(p, F.pdf(-t, alpha, theta, lam))  # symmetry (exact)
    slack = 2 * CLAIM * np.maximum(1, np.abs(np.log(p[1:]))) * p[1:]  # twice the claimed error
    assert np.all(np.diff(p) <= slack)  # decreasing on t > 0
    s = F.sf(t, alpha, theta, lam)
    assert s[0] == 0.5 and abs(F.sf(1e-300 * theta, alpha, theta, lam) - 0.5) <= CLAIM
    assert np.all(np.diff(s) <= 2 * CLAIM * np.maximum(1, np.abs(np.log(s[1:]))) * s[1:])
    assert np.all(np.abs(F.cdf(-t, alpha, theta, lam) - s) == 0)
    assert np.all(np.abs(F.cdf(t, alpha, theta, lam) + s - 1) <= 1e-15)
    # sf(a) - sf(b) = int_a^b pdf (ties the density to the distribution function)
    knots = sorted({0.0, lam / 2, lam, 2 * lam, theta / 2, theta, 2 * theta, 10 * scale})
    for a_, b_ in zip(knots[:-1], knots[1:]):
        val, _ = integrate.quad(lambda x: F.pdf(x, alpha, theta, lam), a_, b_, epsabs=0, epsrel=1e-12, limit=200)
        diff = F.sf(a_, alpha, theta, lam) - F.sf(b_, alpha, theta, lam)
        assert abs(val - diff) <= 1e-10 * val + 2 * CLAIM * F.sf(a_, alpha, theta, lam), (a_, b_, val, diff)


@pytest.mark.parametrize("alpha,theta,lam", PAPER[:4] + [(1e-7, 1.0, 0.5), (0.3, 1.0, 2.0), (1.0, 1.0, 0.5),
                                                         (0.999, 1e3, 1e-3), (3.7, 1e-3, 1.0), (10.0, 2.0, 2.0)])
def test_mean_abs(alpha, theta, lam):
    """Claim: relative error of mean_abs <= 1e-13."""
    ref = float(ref_mean_abs(alpha, theta, lam))
    assert abs(F.mean_abs(alpha, theta, lam) / ref - 1) <= CLAIM


def test_var():
    assert F.var(0.25, 2.0, 3.0) == 2 * 0.25 * 4 + 2 * 9


def test_batch_speed():
    """10^5 points in well under a second (generous bound for slow CI machines)."""
    t = np.linspace(-5.0, 5.0, 100_000)
    F.pdf(t[:10], 0.3, 1.0, 0.5)  # warm-up (scipy imports, caches)
    t0 = time.perf_counter()
    F.pdf(t, 0.3, 1.0, 0.5)
    assert time.perf_counter() - t0 < 3.0
