"""Gamma (Definition 22) and Laplace (Definition 23) against independent computations.

References: scipy.stats (float64, an independent implementation) and mpmath
quadrature of our own densities with a substitution that removes the
x**(alpha - 1) endpoint singularity.
"""

import math

import pytest
import scipy.stats as st
from mpmath import mp

from arete_proofs.distributions import gamma, laplace

GAMMA_CASES = [  # (x, alpha, theta)
    ("0.5", "0.1", "2"),
    ("3", "2.5", "0.7"),
    ("1e-8", "1e-7", "1"),
    ("40", "0.3", "1"),
    ("0.01", "10", "0.001"),
]


@pytest.mark.parametrize("x,alpha,theta", GAMMA_CASES)
def test_gamma_against_scipy(x, alpha, theta):
    a, th, xf = float(alpha), float(theta), float(x)
    assert math.isclose(float(gamma.pdf(x, alpha, theta)), st.gamma.pdf(xf, a, scale=th), rel_tol=1e-11)
    assert math.isclose(float(gamma.logpdf(x, alpha, theta)), st.gamma.logpdf(xf, a, scale=th), rel_tol=1e-11)
    assert math.isclose(float(gamma.cdf(x, alpha, theta)), st.gamma.cdf(xf, a, scale=th), rel_tol=1e-10)
    assert math.isclose(float(gamma.sf(x, alpha, theta)), st.gamma.sf(xf, a, scale=th), rel_tol=1e-10)


@pytest.mark.parametrize("x,alpha,theta", GAMMA_CASES[:4])
def test_gamma_cdf_is_integral_of_pdf_30_digits(x, alpha, theta):
    # x = u**(1/alpha) turns x**(alpha-1) dx into du/alpha: a smooth integrand
    with mp.workdps(45):
        a = mp.mpf(alpha)
        X = mp.mpf(x)
        ref = mp.quad(lambda u: mp.exp(-u ** (1 / a) / mp.mpf(theta)), [0, X**a]) / (
            a * mp.gamma(a) * mp.mpf(theta) ** a
        )
    got = gamma.cdf(x, alpha, theta, digits=30)
    assert abs(got - ref) <= abs(ref) * mp.mpf(10) ** -30


def test_gamma_deep_tail_is_not_underflowed():
    # ln f at x = 1000 theta: (alpha-1) ln x - x/theta - lnGamma(alpha) - alpha ln theta, exact arithmetic
    v = gamma.pdf(1000, "0.5", "0.5", digits=30)
    with mp.workdps(50):
        ref = mp.exp(-mp.mpf(1) / 2 * mp.log(1000) - 2000 - mp.loggamma(mp.mpf(1) / 2) - mp.log(mp.mpf(1) / 2) / 2)
    assert v < mp.mpf(10) ** -800
    assert abs(v / ref - 1) < mp.mpf(10) ** -30


def test_gamma_support_and_zero():
    assert gamma.pdf(-1, 2, 1) == 0
    assert gamma.pdf(0, "0.5", 1) == mp.inf
    assert gamma.pdf(0, 1, 4) == mp.mpf(1) / 4
    assert gamma.pdf(0, 2, 1) == 0
    assert gamma.cdf(-3, 2, 1) == 0 and gamma.sf(-3, 2, 1) == 1


def test_laplace_closed_forms():
    with mp.workdps(40):
        assert mp.almosteq(laplace.cdf(0, 3), mp.mpf(1) / 2)
        lam = mp.mpf("0.37")
        ref = mp.quad(lambda x: mp.exp(-abs(x) / lam) / (2 * lam), [-mp.inf, 0, mp.mpf("0.2")])
        assert mp.almosteq(laplace.cdf("0.2", "0.37", digits=30), ref, mp.mpf(10) ** -30)
    assert laplace.sf(800, 1) > 0  # 1e-348: no underflow
    assert laplace.var(2) == 8 and laplace.mean_abs("0.5") == mp.mpf("0.5")


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda: gamma.pdf(1, -1, 1), "alpha"),
        (lambda: gamma.pdf(1, 1, 0), "theta"),
        (lambda: gamma.pdf("nan", 1, 1), "x"),
        (lambda: gamma.cdf(1, "inf", 1), "alpha"),
        (lambda: gamma.pdf(1, "abc", 1), "alpha"),
        (lambda: laplace.pdf(1, -2), "lam"),
        (lambda: laplace.pdf(1, 1, digits=0), "digits"),
        (lambda: gamma.pdf(1, 1, 1, digits=10**6), "digits"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
