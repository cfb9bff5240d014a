"""Tests for arete_proofs.certified.density: arb balls that contain f_A(t).

Accuracy is checked against methods that share no code with the ball evaluation:
``reference.autocorrelation_pdf`` (the convolution of two Gamma+Exponential densities,
mpmath quadrature) and ``reference.pdf_lam_equals_theta`` (closed form), plus the
mpmath engine (same branch-cut formula, but tanh-sinh quadrature in mpmath instead of
arb's rigorous Gauss-Legendre).
"""

import pytest

flint = pytest.importorskip("flint")

from fractions import Fraction  # noqa: E402

from mpmath import mp  # noqa: E402

from arete_proofs import PrecisionError, certified, reference  # noqa: E402

from arete_proofs.distributions import arete, params  # noqa: E402
from arete_proofs.certified.density import CertifiedDensity, exact_parameter, logpdf_ball, pdf_ball  # noqa: E402

arb = flint.arb


def _ball_of(x, digits=40):
    """A ball around the decimal string of x; parsed at 256 bits (flint's default is 53)."""
    old, flint.ctx.prec = flint.ctx.prec, 256
    try:
        with mp.workdps(digits + 5):
            return arb(mp.nstr(x, digits))
    finally:
        flint.ctx.prec = old


SETS = [
    params.FIGURE_4[6],                 # rho ~ 11.5: principal value on the cut
    params.FIGURE_4[8],                 # alpha ~ 0.019
    ("0.3", "2", "0.5"),                # rho = 4
    ("0.9", "1", "2"),                  # rho = 1/2 < 1: no principal value, alpha near 1
    ("0.3", "1.001", "1"),              # rho just above 1
    ("0.3", "1", "1.001"),              # rho just below 1
]
POINTS = ["1e-30", "0.001", "0.37", "2", "25"]


@pytest.mark.parametrize("p", SETS)
@pytest.mark.parametrize("t", POINTS)
def test_ball_contains_engine_and_is_narrow(p, t):
    b = pdf_ball(t, *p, digits=15)
    assert b.rad() <= arb("1e-15") * b.mid()
    with mp.workdps(40):
        ref = arete.pdf(t, *p, digits=30)
    assert b.contains(_ball_of(ref))


@pytest.mark.parametrize("p,t", [(("0.3", "2", "0.5"), "0.37"), (("0.9", "1", "2"), "2"),
                                 (params.FIGURE_4[6], "0.5")])
def test_ball_contains_independent_reference(p, t):
    # reference.autocorrelation_pdf: Z = U1 - U2, U = Gamma + Exponential; a different formula
    ref = reference.autocorrelation_pdf(t, *p, digits=20)
    b = pdf_ball(t, *p, digits=18)
    assert b.overlaps(_ball_of(ref, 25))
    # and the ball is much narrower than the reference's 20 digits
    assert b.rad() < arb("1e-17") * b.mid()


def test_lam_equals_theta_closed_form():
    # rho = 1: Z ~ Gamma-Gamma(alpha + 1, theta); reference uses the Bessel-K closed form too but via mpmath
    for t in ("0.1", "1.5", "7"):
        b = pdf_ball(t, "0.4", "1.5", "1.5", digits=20)
        ref = reference.pdf_lam_equals_theta(t, "0.4", "1.5", digits=25)
        assert b.overlaps(_ball_of(ref, 30)) and b.rad() < arb("1e-20") * b.mid()


def test_zero_and_continuity_and_symmetry():
    p = ("0.3", "2", "0.5")
    b0 = pdf_ball(0, *p, digits=20)
    assert (b0 - pdf_ball("1e-40", *p, digits=20)).upper() < arb("1e-10")
    assert pdf_ball("-1.25", *p).overlaps(pdf_ball("1.25", *p))


def test_certified_pdf_entry_point():
    """arete_proofs.certified.pdf: the certified layer's entry point (lists give lists)."""
    balls = certified.pdf(["0", "1"], "0.3", 2, "0.5", digits=12)
    assert all(isinstance(b, arb) for b in balls)
    with mp.workdps(30):
        v = arete.pdf("1", "0.3", 2, "0.5", digits=25)
    assert balls[1].contains(_ball_of(v))


def test_logpdf_ball():
    lb = logpdf_ball(2, "0.3", 2, "0.5", digits=20)
    with mp.workdps(40):
        v = arete.logpdf(2, "0.3", 2, "0.5", digits=30)
    assert lb.contains(_ball_of(v))


def test_broken_constant_is_caught():
    # perturbing the pole term's constant C_P by 1e-12 (relative) moves the ball off the true value
    D = CertifiedDensity(*params.FIGURE_4[6], prec=96)
    good = D.pdf(Fraction(1, 2))
    with mp.workdps(40):
        ref = _ball_of(arete.pdf("0.5", *params.FIGURE_4[6], digits=30))
    assert good.contains(ref)
    D.CP = D.CP * (1 + arb("1e-12"))
    assert not D.pdf(Fraction(1, 2)).contains(ref)


@pytest.mark.parametrize("kw,name", [
    (dict(alpha="1"), "alpha"), (dict(alpha="1.5"), "alpha"), (dict(alpha="-0.3"), "alpha"),
    (dict(theta=float("nan")), "theta"), (dict(theta="0"), "theta"), (dict(lam="abc"), "lam"),
    (dict(lam=float("inf")), "lam"),
])
def test_bad_parameters_named(kw, name):
    args = dict(alpha="0.3", theta="2", lam="0.5") | kw
    with pytest.raises(ValueError, match=name):
        pdf_ball(1, args["alpha"], args["theta"], args["lam"])


def test_bad_digits_and_t():
    with pytest.raises(ValueError, match="digits"):
        pdf_ball(1, "0.3", 2, "0.5", digits=0)
    with pytest.raises(ValueError, match="t must"):
        pdf_ball("inf", "0.3", 2, "0.5")


def test_unreachable_precision_raises(monkeypatch):
    # a ball that never gets narrow enough must raise, not be returned
    monkeypatch.setattr(CertifiedDensity, "pdf", lambda self, t: arb(1, 1))
    with pytest.raises(PrecisionError):
        pdf_ball(1, "0.3", 2, "0.5")


def test_exact_parameter():
    assert exact_parameter("0.1", "x") == Fraction(1, 10)
    assert exact_parameter(0.5, "x") == Fraction(1, 2)
    assert exact_parameter(mp.mpf("0.25"), "x") == Fraction(1, 4)
    assert exact_parameter("-2", "t", allow_negative=True) == -2
