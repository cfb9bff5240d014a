"""Gamma-Gamma (Definition 7): the Bessel-K closed form against the defining integral.

References: ``reference.gg_pdf_integral`` (quadrature of
int_0^inf f_Gamma(|t| + x) f_Gamma(x) dx with the x**(alpha-1) singularity
substituted away; self-validated at two precisions), the K_0 form at
alpha = 1/2, the Laplace density at alpha = 1, and quadrature of the pdf for
the CDF.
"""

from __future__ import annotations

import pytest
from mpmath import mp

from arete_proofs.distributions import gamma, gamma_gamma

from arete_proofs import reference


def _rel(x, y):
    with mp.workdps(120):
        return abs(mp.mpf(x) - mp.mpf(y)) / abs(mp.mpf(y))


@pytest.mark.parametrize("digits", [15, 30, 50])
@pytest.mark.parametrize(
    "t,alpha,theta",
    [
        ("1e-8", "1e-7", "1"),
        ("0.3", "0.0067", "0.2"),
        ("2", "0.3", "1e-3"),
        ("0.001", "0.5", "1e3"),
        ("5", "0.9", "2"),
        ("7", "3.2", "1"),
        ("0.02", "10", "0.01"),
    ],
)
def test_bessel_form_against_definition_7(t, alpha, theta, digits):
    ref = reference.gg_pdf_integral(t, alpha, theta, digits=digits + 5)
    assert _rel(gamma_gamma.pdf(t, alpha, theta, digits=digits), ref) < mp.mpf(10) ** -digits


def test_far_tail_below_float_range():
    # f ~ 1e-500: log-space evaluation keeps all digits
    t, alpha, theta = "1200", "0.3", "1"
    ref = reference.gg_pdf_integral(t, alpha, theta, digits=35)
    got = gamma_gamma.pdf(t, alpha, theta, digits=30)
    assert got < mp.mpf("1e-500")
    assert _rel(got, ref) < mp.mpf("1e-30")


@pytest.mark.parametrize("t", ["1e-30", "0.5", "40"])
def test_alpha_half_is_k0(t):
    ref = reference.gg_pdf_alpha_half(t, "0.7", digits=35)
    assert _rel(gamma_gamma.pdf(t, "0.5", "0.7", digits=30), ref) < mp.mpf("1e-30")


def test_alpha_one_is_laplace():
    with mp.workdps(40):
        ref = mp.exp(-mp.mpf("2.5") / 3) / 6
    assert _rel(gamma_gamma.pdf("-2.5", 1, 3, digits=30), ref) < mp.mpf("1e-30")


def test_value_at_zero_and_singularity():
    assert gamma_gamma.pdf(0, "0.5", 1) == mp.inf
    assert gamma_gamma.pdf(0, "1e-7", 1) == mp.inf
    with mp.workdps(40):
        ref = mp.gamma(mp.mpf("0.25")) / (2 * mp.sqrt(mp.pi) * mp.gamma(mp.mpf("0.75")) * 2)
    assert _rel(gamma_gamma.pdf(0, "0.75", 2, digits=30), ref) < mp.mpf("1e-30")
    # near 0 for alpha < 1/2: f ~ |t|^(2a-1) / (2 cos(pi a) Gamma(2a) theta^(2a))
    a, th, t = mp.mpf("0.2"), mp.mpf(1), mp.mpf("1e-40")
    with mp.workdps(40):
        lead = t ** (2 * a - 1) / (2 * mp.cos(mp.pi * a) * mp.gamma(2 * a) * th ** (2 * a))
    assert _rel(gamma_gamma.pdf(t, a, th, digits=20), lead) < mp.mpf("1e-10")


@pytest.mark.parametrize("alpha", ["0.05", "0.3", "0.75", "2.5"])
def test_cdf_is_the_integral_of_the_pdf(alpha):
    with mp.workdps(30):
        pts = [mp.mpf("0.1"), mp.mpf("0.6"), mp.mpf(3)]
        area = mp.quad(lambda x: gamma_gamma.pdf(x, alpha, 1, digits=25), pts)
        diff = gamma_gamma.cdf(pts[-1], alpha, 1, digits=25) - gamma_gamma.cdf(pts[0], alpha, 1, digits=25)
    assert _rel(diff, area) < mp.mpf("1e-20")


def test_symmetry_cdf_sf_and_tails():
    a, th = "0.1", "0.5"
    assert gamma_gamma.sf(0, a, th) == mp.mpf(1) / 2
    assert gamma_gamma.cdf("-3", a, th, digits=20) == gamma_gamma.sf("3", a, th, digits=20)
    s = gamma_gamma.sf(400, a, th, digits=20)
    assert 0 < s < mp.mpf("1e-300")
    # tail of X1 - X2 is at most that of X1 (X2 >= 0)
    assert s <= gamma.sf(400, a, th)


def test_lemma_14_sandwich():
    a, th = mp.mpf("0.05"), mp.mpf("0.3")
    for t in ["1e-6", "0.01", "0.4", "3"]:
        for D in ["1e-3", "0.05", "1"]:
            f = gamma_gamma.pdf(t, a, th, digits=20)
            lo = gamma.pdf(mp.mpf(t) + mp.mpf(D), a, th, digits=20) * gamma.cdf(D, a, th, digits=20)
            assert lo <= f <= gamma.pdf(t, a, th, digits=20)


def test_moments():
    assert _rel(gamma_gamma.mean_abs(1, 3, digits=30), 3) < mp.mpf("1e-30")
    # E|X1 - X2| by quadrature of the density (alpha > 1/2: bounded integrand)
    with mp.workdps(30):
        ref = 2 * mp.quad(lambda x: x * gamma_gamma.pdf(x, "2.5", "0.5", digits=25), [0, 1, 4, mp.inf])
    assert _rel(gamma_gamma.mean_abs("2.5", "0.5", digits=25), ref) < mp.mpf("1e-20")
    assert gamma_gamma.var("0.5", 2) == 4


@pytest.mark.parametrize("fn", [gamma_gamma.pdf, gamma_gamma.logpdf, gamma_gamma.cdf, gamma_gamma.sf])
def test_bad_input(fn):
    with pytest.raises(ValueError, match="alpha"):
        fn(1, 0, 1)
    with pytest.raises(ValueError, match="theta"):
        fn(1, 1, "nan")
    with pytest.raises(ValueError, match="t"):
        fn("nan", 1, 1)
