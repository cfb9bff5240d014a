"""Tests of :mod:`arete_proofs.reference`: different formulas for the same quantity agree.

Every closed form is checked against at least one quadrature method, the two
independent quadratures for f_A (autocorrelation, Fourier) are checked against
each other, and the known-bad naive convolution is checked to *be* bad.

Reference values written out below say which method and precision produced
them.  Tests slower than ~20 s are marked ``slow``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from mpmath import mp

from arete_proofs import reference as R
from arete_proofs.reference import _common, autocorrelation
from arete_proofs._validation import PrecisionError

with mp.workdps(80):
    E5 = mp.exp(-5)  # alpha = lam = e^{-eps/4} for the paper's eps = 20 (theta = 4/20 = 0.2)

#: f_A(0) for alpha = lam = e^-5, theta = 0.2 (eps = 20).  Source:
#: pdf_at_zero(E5, "0.2", E5, digits=60) (2F1 closed form) and
#: autocorrelation_pdf(0, E5, "0.2", E5, digits=50) (quadrature); they agree to
#: all 50 digits.
F0_EPS20 = "70.874890374513698079411728705978324849911665311962943286"


def rel(a, b):
    """Relative difference, computed at high precision."""
    with mp.workdps(120):
        return abs(mp.mpf(a) / mp.mpf(b) - 1)


def close(a, b, digits):
    """a and b agree to ``digits`` significant digits (with a factor-10 margin)."""
    return rel(a, b) <= mp.mpf(10) ** (1 - digits)


# ---------------------------------------------------------------------------
# the building block g (density of Gamma(alpha, theta) + Exp(lam))
# ---------------------------------------------------------------------------


def _relative_quad(f, pts):
    """mp.quad with the integrand divided by an estimate of the result (mp.quad's stopping rule is absolute)."""
    S = max(abs(f((p + q) / 2)) * (q - p) for p, q in zip(pts[:-1], pts[1:]))
    return mp.quad(lambda x: f(x) / S, pts) * S


def g_by_integral(y, alpha, theta, lam, digits):
    """g(y) = (e^{-y/lam}/lam) int_0^y f_Gamma(x) e^{x/lam} dx by quadrature (the definition).

    With c = 1/theta - 1/lam the integral is int_0^y x^(alpha-1) e^{-cx} dx / (Gamma(alpha) theta^alpha).
    On [0, x0], x0 = min(y, 1/|c|)/2, the substitution x = x0 u^(1/alpha) removes
    the x^(alpha-1) singularity (x^(alpha-1) dx = x0^alpha du / alpha); [x0, y] is
    integrated directly on a grid that is geometric away from 0 and, for c < 0,
    towards y (where e^{|c| x} concentrates the mass).
    """
    with mp.workdps(digits + 15):
        alpha, theta, lam, y = (mp.mpf(v) for v in (alpha, theta, lam, y))
        c = 1 / theta - 1 / lam
        x0 = min(y, 1 / abs(c)) / 2 if c != 0 else y / 2
        upts = [mp.zero] + [1 - mp.mpf(2) ** -k for k in range(1, 60)] + [mp.one]
        head = x0**alpha / alpha * mp.quad(lambda u: mp.exp(-c * x0 * u ** (1 / alpha)), upts)
        pts = {x0, y}
        x = x0
        while x < y:
            pts.add(x)
            x *= 2
        if c < 0:
            k = 0
            while y - mp.mpf(2) ** k / abs(c) > x0:
                pts.add(y - mp.mpf(2) ** k / abs(c))
                k += 1
        pts = sorted(p for p in pts if x0 <= p <= y)
        body = _relative_quad(lambda x: x ** (alpha - 1) * mp.exp(-c * x), pts) if len(pts) > 1 else 0
        return mp.exp(-y / lam) / lam * (head + body) / (mp.gamma(alpha) * theta**alpha)


def g_by_hyp1f1(y, alpha, theta, lam, digits):
    """The brief's formula verbatim, y^alpha e^{-y/theta} 1F1(1; alpha+1; (1/theta - 1/lam) y) / ..., at +40 digits."""
    with mp.workdps(digits + 40):
        alpha, theta, lam, y = (mp.mpf(v) for v in (alpha, theta, lam, y))
        return (
            y**alpha
            * mp.exp(-y / theta)
            * mp.hyp1f1(1, alpha + 1, (1 / theta - 1 / lam) * y)
            / (lam * mp.gamma(alpha + 1) * theta**alpha)
        )


@pytest.mark.parametrize(
    "alpha, theta, lam",
    [("1e-7", "0.2", E5), (E5, "0.2", E5), ("0.3", "0.5", "2"), ("2", "3", "0.01"), ("10", "0.01", "3")],
)
@pytest.mark.parametrize("y_over_scale", ["0.01", "1", "7"])
def test_g_closed_form_matches_its_integral_definition(alpha, theta, lam, y_over_scale):
    y = mp.mpf(y_over_scale) * max(mp.mpf(theta), mp.mpf(lam))
    v = R.gamma_exp_pdf(y, alpha, theta, lam, 25)
    assert close(v, g_by_integral(y, alpha, theta, lam, 25), 25)


@pytest.mark.parametrize("alpha", ["1e-7", E5, "0.3", "1", "3.7", "10"])
@pytest.mark.parametrize("theta, lam", [("1e-3", "1e3"), ("1e3", "1e-3"), ("0.2", E5), ("1", "1.5"), ("1.5", "1")])
def test_g_fast_paths_match_hyp1f1(alpha, theta, lam):
    """The asymptotic fast paths and the Kummer-transformed fallback agree with
    mpmath's hyp1f1 evaluated at +40 digits, for |c y| from 1e-3 to 1e7."""
    c = abs(1 / mp.mpf(theta) - 1 / mp.mpf(lam))
    for d in (20, 45):
        for z in ("1e-3", "0.7", "23", "85", "104", "150", "400", "3e3", "1e7"):
            y = mp.mpf(z) / c
            with mp.workdps(d + 10):
                v = autocorrelation._gamma_exp_pdf_factory(mp.mpf(alpha), mp.mpf(theta), mp.mpf(lam))(y)
            # the value's condition number w.r.t. y is ~ y/max(theta, lam): allow for it
            cond = 1 + y / max(mp.mpf(theta), mp.mpf(lam)) + 10 * abs(mp.log(y))
            assert rel(v, g_by_hyp1f1(y, alpha, theta, lam, d)) <= 10 * cond * mp.mpf(10) ** -(d + 10)


@pytest.mark.parametrize("alpha, theta, lam", [(E5, "0.2", E5), ("2", "0.5", "3"), ("0.3", "1", "1")])
def test_gamma_exp_sf_is_the_tail_integral_of_g(alpha, theta, lam):
    y = mp.mpf("0.4") * mp.mpf(theta)
    with mp.workdps(35):
        g = autocorrelation._gamma_exp_pdf_factory(mp.mpf(alpha), mp.mpf(theta), mp.mpf(lam))
        m = max(mp.mpf(theta), mp.mpf(lam))
        tail = mp.quad(g, [y, y + m, y + 5 * m, y + 20 * m, mp.inf])
    assert close(R.gamma_exp_sf(y, alpha, theta, lam, 25), tail, 25)
    assert R.gamma_exp_sf(0, alpha, theta, lam, 15) == 1


# ---------------------------------------------------------------------------
# Gamma-Gamma: definition vs Bessel-K closed form vs alpha = 1/2, 1
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", ["1e-7", E5, "0.3", "0.5", "0.9", "1", "1.5", "10"])
@pytest.mark.parametrize("t_over_theta", ["0", "1e-8", "0.3", "1", "20", "200"])
def test_gg_integral_definition_matches_besselk(alpha, t_over_theta):
    theta = mp.mpf("0.2")
    t = mp.mpf(t_over_theta) * theta
    a = R.gg_pdf_integral(t, alpha, theta, 30)
    b = R.gg_pdf_besselk(t, alpha, theta, 30)
    if t == 0 and mp.mpf(alpha) <= 0.5:
        assert mp.isinf(a) and mp.isinf(b)
    else:
        assert close(a, b, 30)


def test_gg_special_cases():
    # alpha = 1/2: K_0 form
    for t in ("1e-6", "0.3", "5"):
        assert close(R.gg_pdf_alpha_half(t, 2, 30), R.gg_pdf_besselk(t, "0.5", 2, 30), 30)
        assert close(R.gg_pdf_alpha_half(t, 2, 30), R.gg_pdf_integral(t, "0.5", 2, 30), 30)
    assert mp.isinf(R.gg_pdf_alpha_half(0, 2, 15))
    # alpha = 1: Laplace(theta) density e^{-|t|/theta}/(2 theta)
    with mp.workdps(40):
        assert close(R.gg_pdf_integral(3, 1, 2, 30), mp.exp(-mp.mpf(3) / 2) / 4, 30)
    # t = 0, alpha > 1/2: Gamma(alpha - 1/2) / (2 sqrt(pi) Gamma(alpha) theta)
    with mp.workdps(40):
        assert close(R.gg_pdf_integral(0, 3, 2, 30), mp.gamma(mp.mpf(5) / 2) / (2 * mp.sqrt(mp.pi) * mp.gamma(3) * 2), 30)
    # symmetry
    assert R.gg_pdf_integral(-1, "0.3", 1, 20) == R.gg_pdf_integral(1, "0.3", 1, 20)


# ---------------------------------------------------------------------------
# f_A: autocorrelation (method (b)) against closed forms and Fourier inversion
# ---------------------------------------------------------------------------

ALPHAS_AT_ZERO = ["1e-7", E5, "0.3", "0.5", "0.9", "2", "10"]


@pytest.mark.parametrize("alpha", ALPHAS_AT_ZERO)
@pytest.mark.parametrize("theta, lam", [("0.2", E5), (E5, "0.2")], ids=["theta>lam", "theta<lam"])
def test_autocorrelation_at_zero_matches_2f1_closed_form(alpha, theta, lam):
    a = R.autocorrelation_pdf(0, alpha, theta, lam, 15)
    b = R.pdf_at_zero(alpha, theta, lam, 15)
    assert close(a, b, 15)


@pytest.mark.parametrize("alpha", ["1e-7", "0.5", "10"])
@pytest.mark.parametrize("theta, lam", [("1e3", "1e-3"), ("1e-3", "1e3")], ids=["theta>>lam", "theta<<lam"])
def test_autocorrelation_at_zero_extreme_ratios(alpha, theta, lam):
    assert close(R.autocorrelation_pdf(0, alpha, theta, lam, 15), R.pdf_at_zero(alpha, theta, lam, 15), 15)


def test_paper_eps20_value_at_zero_two_methods():
    a = R.pdf_at_zero(E5, "0.2", E5, 50)
    assert close(a, F0_EPS20, 50)
    assert close(R.autocorrelation_pdf(0, E5, "0.2", E5, 50), F0_EPS20, 50)


FOURIER_CASES = [
    # (t, alpha, theta, lam)
    ("0", "0.3", "0.5", "2"),
    ("0.3", "0.3", "0.5", "2"),
    ("1.5", "0.7", "2", "0.5"),
    ("2", "0.05", "1", "0.1"),
    ("4", "3", "0.4", "0.9"),
]


@pytest.mark.parametrize("t, alpha, theta, lam", FOURIER_CASES)
@pytest.mark.parametrize("digits", [15, 30])
def test_autocorrelation_matches_fourier(t, alpha, theta, lam, digits):
    a = R.autocorrelation_pdf(t, alpha, theta, lam, digits)
    b = R.fourier_pdf(t, alpha, theta, lam, digits)
    assert close(a, b, digits)


@pytest.mark.parametrize("theta, lam", [("0.2", E5), ("1", "3"), ("0.5", "0.5"), ("1e3", "1e-3"), ("1e-3", "1e3")])
@pytest.mark.parametrize("t_over_theta", ["0", "1e-6", "0.3", "3", "200"])
def test_autocorrelation_alpha_one_matches_laplace_convolution(theta, lam, t_over_theta):
    t = mp.mpf(t_over_theta) * mp.mpf(theta)
    a = R.autocorrelation_pdf(t, 1, theta, lam, 15)
    assert close(a, R.pdf_alpha_one(t, theta, lam, 15), 15)


def test_autocorrelation_deep_tail_below_1e300():
    # alpha = 1, t = 1000 theta: f_A ~ e^{-1000} ~ 1e-435 (closed form)
    v = R.autocorrelation_pdf(1000, 1, 1, "0.3", 30)
    assert v < mp.mpf("1e-300")
    assert close(v, R.pdf_alpha_one(1000, 1, "0.3", 30), 30)
    # lam = theta: Gamma-Gamma(alpha + 1) closed form, f_A ~ 1e-340
    v = R.autocorrelation_pdf(800, "0.3", 1, 1, 15)
    assert v < mp.mpf("1e-300")
    assert close(v, R.pdf_lam_equals_theta(800, "0.3", 1, 15), 15)


@pytest.mark.parametrize("t", ["0", "1e-8", "0.7", "30"])
@pytest.mark.parametrize("alpha", ["1e-7", "0.3", "4"])
def test_autocorrelation_lam_equals_theta(t, alpha):
    assert close(R.autocorrelation_pdf(t, alpha, 2, 2, 15), R.pdf_lam_equals_theta(t, alpha, 2, 15), 15)


def test_autocorrelation_small_t_and_50_digits():
    # t = 1e-6 on the paper's set: the grid also resolves the scale |t|
    a = R.autocorrelation_pdf("1e-6", E5, "0.2", E5, 15)
    b = R.autocorrelation_pdf("1e-6", E5, "0.2", E5, 30)
    assert close(a, b, 15)
    # lam = theta at 50 digits against the closed form
    assert close(R.autocorrelation_pdf("0.3", E5, "0.2", "0.2", 50), R.pdf_lam_equals_theta("0.3", E5, "0.2", 50), 50)


def test_autocorrelation_symmetric():
    assert R.autocorrelation_pdf("-0.7", "0.3", 2, 2, 15) == R.autocorrelation_pdf("0.7", "0.3", 2, 2, 15)


# ---------------------------------------------------------------------------
# survival function
# ---------------------------------------------------------------------------


def sf_alpha_one(t, theta, lam):
    """P(Z > t), alpha = 1, t >= 0: int_t^inf of the Laplace convolution,
    (theta^2 e^{-t/theta} - lam^2 e^{-t/lam}) / (2 (theta^2 - lam^2))."""
    with mp.workdps(60):
        t, theta, lam = mp.mpf(t), mp.mpf(theta), mp.mpf(lam)
        return (theta**2 * mp.exp(-t / theta) - lam**2 * mp.exp(-t / lam)) / (2 * (theta**2 - lam**2))


def test_autocorrelation_sf():
    assert close(R.autocorrelation_sf(0, E5, "0.2", E5, 15), mp.mpf(1) / 2, 15)
    for t in ("0.1", "2", "40"):
        assert close(R.autocorrelation_sf(t, 1, 2, "0.5", 15), sf_alpha_one(t, 2, "0.5"), 15)
    assert close(R.autocorrelation_sf("-2", 1, 2, "0.5", 15), 1 - sf_alpha_one(2, 2, "0.5"), 15)


def test_autocorrelation_sf_derivative_is_minus_pdf():
    # central difference of the survival function (25 digits), h = 1e-9: the
    # difference cancels ~10 digits, the truncation error is ~(h/lam)^2/6 ~ 4e-15
    t, h = mp.mpf("0.05"), mp.mpf("1e-9")
    with mp.workdps(40):
        slope = (R.autocorrelation_sf(t - h, E5, "0.2", E5, 25) - R.autocorrelation_sf(t + h, E5, "0.2", E5, 25)) / (2 * h)
    assert rel(slope, R.autocorrelation_pdf(t, E5, "0.2", E5, 20)) < mp.mpf("1e-12")


# ---------------------------------------------------------------------------
# closed forms against each other / against direct formulas
# ---------------------------------------------------------------------------


def laplace_convolution_direct(t, theta, lam, digits=100):
    """(theta e^{-|t|/theta} - lam e^{-|t|/lam}) / (2 (theta^2 - lam^2)) at ``digits`` working digits."""
    with mp.workdps(digits):
        t, theta, lam = abs(mp.mpf(t)), mp.mpf(theta), mp.mpf(lam)
        return (theta * mp.exp(-t / theta) - lam * mp.exp(-t / lam)) / (2 * (theta**2 - lam**2))


@pytest.mark.parametrize(
    "theta, lam", [("2", "1"), ("1", "2"), ("1", "1.000000000000000000001"), ("0.2", E5), ("1e-3", "1e3")]
)
@pytest.mark.parametrize("t", ["0", "1e-9", "0.3", "-4", "150"])
def test_pdf_alpha_one_stable_form(theta, lam, t):
    # the direct difference loses ~21 digits for theta - lam = 1e-21: evaluate it at 100 digits
    assert close(R.pdf_alpha_one(t, theta, lam, 30), laplace_convolution_direct(t, theta, lam), 30)


def test_pdf_alpha_one_equal_scales():
    with mp.workdps(50):
        for t in ("0", "0.5", "-3"):
            ta = abs(mp.mpf(t))
            assert close(R.pdf_alpha_one(t, 2, 2, 30), (2 + ta) * mp.exp(-ta / 2) / 16, 30)
    # continuity across theta = lam
    assert close(R.pdf_alpha_one("0.5", 2, "2.0000000000000000000000001", 20), R.pdf_alpha_one("0.5", 2, 2, 20), 20)


def test_pdf_at_zero_special_cases():
    # alpha = 1: 1/(2 (theta + lam))
    with mp.workdps(50):
        assert close(R.pdf_at_zero(1, 2, 3, 30), mp.mpf(1) / 10, 30)
    # lam = theta: Gamma-Gamma(alpha+1) at 0
    assert close(R.pdf_at_zero("0.3", 2, 2, 30), R.pdf_lam_equals_theta(0, "0.3", 2, 30), 30)


def test_mean_abs_closed_form_special_case_and_gini_identity():
    # alpha = 1: E|X1 - X2| = theta, so E|Z| = theta + 2 lam^2 / (2 (theta + lam))
    with mp.workdps(50):
        assert close(R.mean_abs_closed_form(1, 2, 3, 30), 2 + mp.mpf(9) / 5, 30)
    # E|W1 - W2| = 2 int_0^inf G(y) (1 - G(y)) dy for W ~ Gamma + Exp with survival function G
    alpha, theta, lam = mp.mpf("0.4"), mp.mpf("1.5"), mp.mpf("0.6")
    with mp.workdps(40):
        G = autocorrelation._gamma_exp_sf_factory(alpha, theta, lam)
        gini = 2 * mp.quad(lambda y: G(y) * (1 - G(y)), [0, theta, 4 * theta, 15 * theta, 40 * theta, mp.inf])
    assert close(R.mean_abs_closed_form(alpha, theta, lam, 30), gini, 30)


def test_var_closed_form_via_g():
    # Var Z = Var(W1 - W2) = 2 Var W, moments of W by quadrature of g
    alpha, theta, lam = mp.mpf("0.4"), mp.mpf("1.5"), mp.mpf("0.6")
    with mp.workdps(40):
        g = autocorrelation._gamma_exp_pdf_factory(alpha, theta, lam)
        pts = [0, theta / 10, theta, 4 * theta, 15 * theta, 40 * theta, mp.inf]
        m1 = mp.quad(lambda y: y * g(y), pts)
        m2 = mp.quad(lambda y: y * y * g(y), pts)
        assert close(2 * (m2 - m1**2), R.var_closed_form(alpha, theta, lam), 30)
    assert R.var_closed_form(1, 2, 3) == 26


def test_moments_by_monte_carlo():
    alpha, theta, lam = 0.4, 1.5, 0.6
    rng = np.random.default_rng(20220101)
    n = 2_000_000
    z = rng.gamma(alpha, theta, n) - rng.gamma(alpha, theta, n) + rng.laplace(0.0, lam, n)
    m_abs = float(R.mean_abs_closed_form(alpha, theta, lam, 15))
    var = float(R.var_closed_form(alpha, theta, lam))
    se_abs = float(np.std(np.abs(z))) / math.sqrt(n)
    assert abs(float(np.mean(np.abs(z))) - m_abs) < 5 * se_abs
    se_var = float(np.std(z**2)) / math.sqrt(n)
    assert abs(float(np.var(z)) - var) < 5 * se_var


@pytest.mark.slow
def test_mean_abs_by_quadrature_of_autocorrelation_pdf():
    """E|Z| = 2 int_0^inf t f_A(t) dt with f_A from autocorrelation_pdf at 15 digits.

    10-point Gauss-Legendre on [0, 1.5, 5, 12, 25, 45, 80] (60 evaluations of
    the slow integrand); on the closed-form proxies alpha = 1 and lam = theta
    with the same scales this rule is accurate to ~5e-15, and the part beyond
    t = 80 is below 1e-20.  alpha = 2 keeps t f_A(t) smooth at t = 0 (its
    non-analytic part is ~|t|^(2 alpha + 2)).
    """
    alpha, theta, lam = "2", "1.5", "0.6"
    nodes, weights = np.polynomial.legendre.leggauss(10)
    total = mp.zero
    with mp.workdps(30):
        pts = [mp.mpf(p) for p in ("0", "1.5", "5", "12", "25", "45", "80")]
        for a, b in zip(pts[:-1], pts[1:]):
            for x, w in zip(nodes, weights):
                t = (b - a) / 2 * mp.mpf(float(x)) + (a + b) / 2
                total += mp.mpf(float(w)) * (b - a) / 2 * t * R.autocorrelation_pdf(t, alpha, theta, lam, 15)
        assert rel(2 * total, R.mean_abs_closed_form(alpha, theta, lam, 20)) < mp.mpf("1e-12")


# ---------------------------------------------------------------------------
# the naive convolution is wrong, and the oracles refuse bad input
# ---------------------------------------------------------------------------


def test_naive_convolution_is_wrong_at_the_documented_point():
    # alpha = lam = e^-5, theta = 0.2: truth f_A(0) = 70.8748903745... (F0_EPS20)
    v15 = R.naive_pdf(0, E5, "0.2", E5, 15)
    v22 = R.naive_pdf(0, E5, "0.2", E5, 22)  # 32 working digits: the "46.2" of the project notes
    assert 39 < v15 < 41  # 39.896... measured with mpmath 1.3
    assert 46 < v22 < 46.5  # 46.258... measured with mpmath 1.3
    assert rel(v15, F0_EPS20) > 0.4
    # ... and the self-validating oracle does not share the failure
    assert close(R.autocorrelation_pdf(0, E5, "0.2", E5, 15), F0_EPS20, 15)


def test_self_validation_raises_precision_error():
    with pytest.raises(PrecisionError):
        _common._validated(lambda variant: mp.mpf(1) + variant * mp.mpf("1e-14"), 15, "demo")
    _common._validated(lambda variant: mp.mpf(1) + variant * mp.mpf("1e-25"), 15, "demo")
    # a quadrature that cannot converge (x^-0.999 at the endpoint) is refused
    with pytest.raises(PrecisionError):
        with mp.workdps(25):
            _common._integrate([(lambda x: x ** mp.mpf("-0.999"), mp.zero, mp.one)], 15, "demo")


ORACLES = {
    # name: (callable taking the GOOD dict, parameters it takes)
    "gg_pdf_besselk": (lambda k: R.gg_pdf_besselk(k["t"], k["alpha"], k["theta"], k["digits"]), "t alpha theta"),
    "gg_pdf_integral": (lambda k: R.gg_pdf_integral(k["t"], k["alpha"], k["theta"], k["digits"]), "t alpha theta"),
    "gamma_exp_pdf": (lambda k: R.gamma_exp_pdf(k["t"], k["alpha"], k["theta"], k["lam"], k["digits"]), "t alpha theta lam"),
    "gamma_exp_sf": (lambda k: R.gamma_exp_sf(k["t"], k["alpha"], k["theta"], k["lam"], k["digits"]), "t alpha theta lam"),
    "autocorrelation_pdf": (
        lambda k: R.autocorrelation_pdf(k["t"], k["alpha"], k["theta"], k["lam"], k["digits"]),
        "t alpha theta lam",
    ),
    "autocorrelation_sf": (
        lambda k: R.autocorrelation_sf(k["t"], k["alpha"], k["theta"], k["lam"], k["digits"]),
        "t alpha theta lam",
    ),
    "fourier_pdf": (lambda k: R.fourier_pdf(k["t"], k["alpha"], k["theta"], k["lam"], k["digits"]), "t alpha theta lam"),
    "naive_pdf": (lambda k: R.naive_pdf(k["t"], k["alpha"], k["theta"], k["lam"], k["digits"]), "t alpha theta lam"),
    "pdf_at_zero": (lambda k: R.pdf_at_zero(k["alpha"], k["theta"], k["lam"], k["digits"]), "alpha theta lam"),
    "pdf_alpha_one": (lambda k: R.pdf_alpha_one(k["t"], k["theta"], k["lam"], k["digits"]), "t theta lam"),
    "gg_pdf_alpha_half": (lambda k: R.gg_pdf_alpha_half(k["t"], k["theta"], k["digits"]), "t theta"),
    "pdf_lam_equals_theta": (lambda k: R.pdf_lam_equals_theta(k["t"], k["alpha"], k["theta"], k["digits"]), "t alpha theta"),
    "mean_abs_closed_form": (lambda k: R.mean_abs_closed_form(k["alpha"], k["theta"], k["lam"], k["digits"]), "alpha theta lam"),
    "var_closed_form": (lambda k: R.var_closed_form(k["alpha"], k["theta"], k["lam"], k["digits"]), "alpha theta lam"),
}

GOOD = dict(t="0.5", alpha="0.5", theta="1", lam="0.5", digits=15)
BAD = [
    ("alpha", 0),
    ("alpha", "-1"),
    ("theta", 0),
    ("theta", "nan"),
    ("lam", "-0.5"),
    ("lam", float("inf")),
    ("t", "nan"),
    ("t", "inf"),
    ("t", "abc"),
    ("t", 1j),
    ("digits", 0),
    ("digits", 2.5),
    ("digits", 10**6),
]


@pytest.mark.parametrize("oracle", [n for n in ORACLES if n not in ("autocorrelation_sf", "naive_pdf")])
def test_oracles_accept_the_good_input(oracle):
    fn, _ = ORACLES[oracle]
    assert fn(GOOD) > 0


@pytest.mark.parametrize("oracle", list(ORACLES))
@pytest.mark.parametrize("name, value", BAD)
def test_oracles_reject_bad_input(oracle, name, value):
    fn, takes = ORACLES[oracle]
    if name != "digits" and name not in takes.split():
        pytest.skip(f"{oracle} does not take {name}")
    with pytest.raises(ValueError):
        fn(dict(GOOD, **{name: value}))


@pytest.mark.parametrize(
    "t, alpha, theta, lam",
    [("1", "0.001", "1", "1"), ("1", "6", "1", "1"), ("1", "1", "200", "1"), ("1", "1", "1", "0.001"),
     ("0.001", "1", "1", "1"), ("150", "1", "1", "1"), ("40", "1", "1", "0.5")],
)
def test_fourier_refuses_outside_its_range(t, alpha, theta, lam):
    with pytest.raises(ValueError):
        R.fourier_pdf(t, alpha, theta, lam, 15)


def test_fourier_refuses_too_many_digits():
    with pytest.raises(ValueError):
        R.fourier_pdf("0.5", "0.5", "1", "1", 45)


def test_no_engine_imports():
    """No module of the reference package shares code with the engine.

    Every import of every module of :mod:`arete_proofs.reference` (module level
    and inside functions, relative ones resolved) is checked: from ``arete_proofs``
    only :mod:`arete_proofs._validation` and the reference package itself may be
    imported, never :mod:`arete_proofs.distributions`.  (tests/test_layers.py checks
    the same on the import graph of the whole package.)
    """
    import ast
    import importlib
    import pkgutil
    from pathlib import Path

    names = [R.__name__] + [f"{R.__name__}.{m.name}" for m in pkgutil.iter_modules(R.__path__)]
    assert {"_common", "gamma_gamma", "autocorrelation", "fourier", "closed_forms"} <= {
        n.rsplit(".", 1)[-1] for n in names}
    for name in names:
        module = importlib.import_module(name)
        is_package = Path(module.__file__).name == "__init__.py"
        base = name.split(".") if is_package else name.split(".")[:-1]
        imported = []
        for node in ast.walk(ast.parse(Path(module.__file__).read_text())):
            if isinstance(node, ast.Import):
                imported += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    prefix = base[: len(base) - (node.level - 1)]
                    target = ".".join(prefix + ([node.module] if node.module else []))
                else:
                    target = node.module
                imported += [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                    "import_module", "__import__"):
                raise AssertionError(f"{name}: dynamic import")
        for target in imported:
            if target.split(".")[0] != "arete_proofs":
                continue
            assert target.startswith(("arete_proofs._validation", "arete_proofs.reference")), (name, target)
            assert "distributions" not in target, (name, target)
