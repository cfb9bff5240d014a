"""f_A(0) and E|Z| at extreme ratios theta/lam = 1e-40 .. 1e40 (issue 25.4).

``arete.pdf_at_zero`` used ``2F1(2a, a; a+1; z)`` with ``z = (r-1)/(r+1)`` formed at about
``digits + 15`` digits: right to 3 digits at ``r = 1e30``, ``+inf`` at ``r = 1e40``, and
``mean_abs(1, 1e40, 1)`` raised ZeroDivisionError.  The references here are independent of the
closed form it uses now (``2F1(a, 1/2; a+1; 1-r^2)``):

* at ``alpha = 1/2``, ``f_A(0) = arccosh(theta/lam) / (pi sqrt(theta^2 - lam^2))`` (and
  ``arccos(theta/lam) / (pi sqrt(lam^2 - theta^2))`` for ``theta < lam``), from the Fourier
  integral ``(1/(pi lam)) int_0^inf dv / (sqrt(1 + r^2 v^2) (1 + v^2))``;
* ``mpmath.quad`` of the Fourier integral in ``s = ln u`` and of the convolution
  ``(1/lam) int_0^inf f_GG(x) e^{-x/lam} dx`` with the Bessel-K form of ``f_GG`` (scaled to O(1):
  mpmath's ``quad`` stops on an absolute error, which at ``f ~ 1e-39`` is no test at all);
* ``E|Z| = E|X1 - X2| + 2 lam^2 f_A(0)`` with the exact ``alpha = 1`` value
  ``theta + lam^2/(theta + lam)`` (X1 - X2 ~ Laplace(theta)).
"""

import math
import warnings

import pytest
from mpmath import mp

from arete_proofs.distributions import arete, fast

RATIOS = [-40, -30, -20, -10, -3, 0, 3, 10, 20, 30, 40]


def _rel(a, b):
    with mp.workdps(60):
        return abs(mp.mpf(a) / mp.mpf(b) - 1)


def arccosh_form(theta, lam, d=60):
    """f_A(0) at alpha = 1/2 (elementary; limit 1/(pi lam) at theta = lam)."""
    with mp.workdps(d):
        th, la = mp.mpf(theta), mp.mpf(lam)
        if th == la:
            return 1 / (mp.pi * la)
        if th > la:
            return mp.acosh(th / la) / (mp.pi * mp.sqrt((th - la) * (th + la)))
        return mp.acos(th / la) / (mp.pi * mp.sqrt((la - th) * (la + th)))


def _breaks_log(lo, hi, left, right):
    lo, hi = mp.log(lo), mp.log(hi)
    pts = [left, lo - 3, lo]
    while pts[-1] + 3 < hi:
        pts.append(pts[-1] + 3)
    return pts + [hi, hi + 3, right]


def quad_fourier(alpha, theta, lam, d=25):
    """(1/pi) int_0^inf (1 + theta^2 u^2)^-alpha / (1 + lam^2 u^2) du, in s = ln u."""
    with mp.workdps(d):
        a, th, la = mp.mpf(alpha), mp.mpf(theta), mp.mpf(lam)
        scale = max(th, la)

        def g(s):
            u = mp.exp(s)
            return scale * u * (1 + (th * u) ** 2) ** (-a) / (1 + (la * u) ** 2)

        return mp.quad(g, _breaks_log(1 / max(th, la), 1 / min(th, la), mp.ninf, mp.inf)) / (mp.pi * scale)


def quad_convolution(alpha, theta, lam, d=25):
    """(1/lam) int_0^inf f_GG(x) e^{-x/lam} dx, f_GG(x) = x^nu K_nu(x/theta) / (sqrt(pi) G(a) 2^nu theta^(a+1/2))."""
    with mp.workdps(d):
        a, th, la = mp.mpf(alpha), mp.mpf(theta), mp.mpf(lam)
        nu = a - mp.mpf(1) / 2
        c = 1 / (mp.sqrt(mp.pi) * mp.gamma(a) * 2**nu * th ** (a + mp.mpf(1) / 2))
        scale = max(th, la)

        def g(s):
            x = mp.exp(s)
            return scale * c * x ** (nu + 1) * mp.besselk(nu, x / th) * mp.exp(-x / la) / la

        m = min(th, la)
        left = mp.log(m) - (d + 5) * mp.log(10) / min(2 * a, 1)  # integrand ~ x^min(2a, 1) at 0
        right = mp.log(m * 3 * (d + 5))  # e^{-x (1/lam + 1/theta)} <= e^{-x/m}
        return mp.quad(g, _breaks_log(m, 10 * m, left, right)) / scale


@pytest.mark.parametrize("e", RATIOS)
def test_half_against_arccosh(e):
    theta = mp.mpf(10) ** e
    ref = arccosh_form(theta, 1)
    got = arete.pdf_at_zero("0.5", theta, 1, digits=30)
    assert _rel(got, ref) < mp.mpf("1e-30")
    # the same with the scale on lam (theta/lam = 10^e again)
    got = arete.pdf_at_zero("0.5", 1, 1 / theta, digits=30)
    assert _rel(got, arccosh_form(1, 1 / theta)) < mp.mpf("1e-30")


def test_arccosh_reference_catches_the_old_formula():
    """The old z = (r-1)/(r+1) form at its working precision fails this test's check (power)."""
    def old(alpha, theta, lam, wd):
        with mp.workdps(wd):
            a, th, la = mp.mpf(alpha), mp.mpf(theta), mp.mpf(lam)
            r = th / la
            z = (r - 1) / (r + 1)
            pre = mp.exp(-2 * a * mp.log1p(r) + mp.loggamma(2 * a) - mp.loggamma(a) - mp.loggamma(a + 1))
            return pre * mp.hyp2f1(2 * a, a, a + 1, z) / la

    theta = mp.mpf(10) ** 30
    assert _rel(old("0.5", theta, 1, 30 + 15), arccosh_form(theta, 1)) > mp.mpf("1e-20")  # 30 asked
    assert mp.isinf(old("0.5", 1e40, 1, 15 + 15))  # the default 15 digits: z rounds to 1
    # and where it is well conditioned (enough digits to hold 1 - z) it agrees with the new form
    for a in ("0.3", "2"):
        assert _rel(old(a, theta, 1, 120), arete.pdf_at_zero(a, theta, 1, digits=30)) < mp.mpf("1e-30")


@pytest.mark.parametrize("alpha", ["0.3", "0.5", "2"])
@pytest.mark.parametrize("e", [-40, -20, 0, 20, 40])
def test_against_fourier_quadrature(alpha, e):
    theta = mp.mpf(10) ** e
    ref = quad_fourier(alpha, theta, 1)
    assert _rel(arete.pdf_at_zero(alpha, theta, 1, digits=20), ref) < mp.mpf("1e-20")


@pytest.mark.parametrize("alpha", ["0.3", "0.5", "2"])
@pytest.mark.parametrize("e", [-40, 0, 40])
def test_against_convolution_quadrature(alpha, e):
    theta = mp.mpf(10) ** e
    ref = quad_convolution(alpha, theta, 1)
    assert _rel(arete.pdf_at_zero(alpha, theta, 1, digits=20), ref) < mp.mpf("1e-20")


def test_quadratures_can_fail():
    """A 1e-15 error in alpha is visible to both quadratures (they are not vacuous)."""
    theta = mp.mpf(10) ** 40
    with mp.workdps(40):
        bad = arete.pdf_at_zero(mp.mpf("0.3") * (1 + mp.mpf("1e-15")), theta, 1, digits=25)
    assert _rel(bad, quad_fourier("0.3", theta, 1)) > mp.mpf("1e-18")
    assert _rel(bad, quad_convolution("0.3", theta, 1)) > mp.mpf("1e-18")


@pytest.mark.parametrize("alpha", ["1e-25", "1e-12", "1e-7", "0.5", "10", "1000"])
@pytest.mark.parametrize("e", [-300000, -40, 40, 300000])
def test_neighbouring_precisions_agree(alpha, e):
    """30 and 45 digits agree to 30 digits, far beyond the quadratures' reach (and fast)."""
    theta = mp.mpf(10) ** e
    a = arete.pdf_at_zero(alpha, theta, 1, digits=30)
    b = arete.pdf_at_zero(alpha, theta, 1, digits=45)
    assert _rel(a, b) < mp.mpf("1e-30")


def test_tiny_alpha_expansion_matches_hypergeometric():
    """alpha = 1e-25, r = 1e40: the expansion (30 digits) and hyp2f1 (45 digits) agree."""
    theta = mp.mpf(10) ** 40
    a = arete.pdf_at_zero("1e-25", theta, 1, digits=30)   # bound 3.4e-46 < 1e-45: expansion
    b = arete.pdf_at_zero("1e-25", theta, 1, digits=45)   # bound > 1e-60: hyp2f1
    assert _rel(a, b) < mp.mpf("1e-31")
    assert a < mp.mpf(1) / 2                               # the first-order term is kept


def test_papers_extreme_alpha_is_fast():
    """alpha = e^-250000 (the paper's eps = 1e6): Laplace limit, no hang (hyp2f1 ran for minutes)."""
    a = mp.exp(-250000)
    for e in (-40, 40, 300000):
        assert arete.pdf_at_zero(a, mp.mpf(10) ** e, 1, digits=30) == mp.mpf(1) / 2 or \
            _rel(arete.pdf_at_zero(a, mp.mpf(10) ** e, 1, digits=30), mp.mpf(1) / 2) < mp.mpf("1e-30")


# -- mean_abs ---------------------------------------------------------------------------


@pytest.mark.parametrize("e", RATIOS)
def test_mean_abs_alpha_one_exact(e):
    theta = mp.mpf(10) ** e
    with mp.workdps(60):
        ref = theta + 1 / (theta + 1)       # E|L_theta + L_1|: theta + lam^2/(theta + lam)
    assert _rel(arete.mean_abs(1, theta, 1, digits=30), ref) < mp.mpf("1e-30")


@pytest.mark.parametrize("e", RATIOS)
def test_mean_abs_half(e):
    """alpha = 1/2: E|X1-X2| = 2 theta/pi, plus 2 lam^2 f_A(0) from the arccosh form."""
    lam = mp.mpf(10) ** -e
    with mp.workdps(60):
        ref = 2 / mp.pi + 2 * lam**2 * arccosh_form(1, lam)
    assert _rel(arete.mean_abs("0.5", 1, lam, digits=30), ref) < mp.mpf("1e-30")


def test_issue_reproductions():
    assert mp.isfinite(arete.pdf_at_zero(0.5, 1e40, 1))
    assert mp.isfinite(arete.mean_abs(0.5, 1, 1e-40))
    assert _rel(arete.mean_abs(1, 1e40, 1, digits=20), mp.mpf(1e40) + 1 / (mp.mpf(1e40) + 1)) < 1e-20
    assert _rel(arete.pdf_at_zero(0.5, 1e30, 1, digits=15), arccosh_form(1e30, 1)) < 1e-15


# -- the float64 path: right (within its 1e-13 contract) at these ratios, or refused ----------


def _fast_or_refused(fn, *args):
    """The float64 value, or None when fast refuses (PrecisionError / ValueError), never NaN/inf."""
    from arete_proofs import PrecisionError

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            v = fn(*args)
        except (PrecisionError, ValueError):
            return None
    assert math.isfinite(v), f"{fn.__name__}{args} returned {v}"
    return v


@pytest.mark.parametrize("alpha", [1e-7, 0.05, 0.5, 2.0, 10.0])
@pytest.mark.parametrize("e", RATIOS)
def test_fast_at_zero_and_mean_abs(alpha, e):
    theta = 10.0**e
    p0 = _fast_or_refused(fast.pdf, 0.0, alpha, theta, 1.0)
    if p0 is not None:
        assert _rel(p0, arete.pdf_at_zero(alpha, theta, 1, digits=20)) < 1e-13
    elif alpha < 10 or abs(e) < 20:
        pytest.fail(f"fast.pdf refused at alpha = {alpha}, theta/lam = 1e{e}")   # measured: only alpha = 10, r >= 1e20
    m = _fast_or_refused(fast.mean_abs, alpha, theta, 1.0)
    assert m is not None
    assert _rel(m, arete.mean_abs(alpha, theta, 1, digits=20)) < 1e-13


@pytest.mark.parametrize("alpha", [1e-7, 0.05, 2.0, 10.0])
@pytest.mark.parametrize("e", [-40, -20, 20, 40])
def test_fast_pdf_sf_against_engine(alpha, e):
    """From deep inside the narrow scale to the far tail of the wide one; refused only at alpha = 10, r >= 1e20."""
    theta = 10.0**e
    lo, hi = min(theta, 1.0), max(theta, 1.0)
    for t in (1e-3 * lo, lo, math.sqrt(lo * hi), hi, 10 * hi):
        for name in ("pdf", "sf"):
            v = _fast_or_refused(getattr(fast, name), t, alpha, theta, 1.0)
            if v is None:
                assert alpha == 10.0 and e >= 20, (name, t)
                continue
            ref = getattr(arete, name)(t, alpha, theta, 1, digits=15)
            assert _rel(v, ref) < 1e-13 * max(1, abs(float(mp.log(ref)))), (name, t)


def test_a_nan_from_the_float64_path_is_caught():
    """fast.mean_abs returned NaN at alpha = 10, theta/lam >= 1e16 before the fallback: caught here."""
    def old_mean_abs(*args):
        return float("nan")

    with pytest.raises(AssertionError, match="returned nan"):
        _fast_or_refused(old_mean_abs, 10.0, 1e40, 1.0)
    assert math.isfinite(fast.mean_abs(10.0, 1e40, 1.0))
