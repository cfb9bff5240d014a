r"""The Gamma distribution :math:`\Gamma(\alpha, \theta)` (paper, Definition 22).

Shape ``alpha`` > 0, scale ``theta`` > 0:

.. math::

    f_\Gamma(x) = \frac{x^{\alpha-1} e^{-x/\theta}}{\Gamma(\alpha)\,\theta^\alpha},
    \qquad x > 0,

and :math:`f_\Gamma(x) = 0` for :math:`x < 0`.  The paper writes
:math:`c_{D_\Gamma} = P(X \le D_\Gamma)` for the CDF (Lemma 14).

All functions work at ``digits`` significant decimal digits (default: the
current ``mpmath.mp.dps``) and return an ``mpf`` carrying guard digits.

>>> from mpmath import mp
>>> # the CDF is the integral of the density (an identity, not a bare value);
>>> # x = v**2 removes the x**(-1/2) singularity that plain quadrature mishandles
>>> with mp.workdps(30):
...     mp.almosteq(cdf(2, "0.5", 3), mp.quad(lambda v: 2 * v * pdf(v**2, "0.5", 3), [0, mp.sqrt(2)]), 1e-25)
True
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, exponent_digits, parse_precision, positive, real, resolve_digits

__all__ = ["pdf", "logpdf", "cdf", "sf", "mean", "var"]


def _args(x, alpha, theta, digits):
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        x = real(x, "x")
        alpha = positive(alpha, "alpha")
        theta = positive(theta, "theta")
    extra = exponent_digits(x / theta, alpha, mp.log(theta) * alpha)
    if x > 0:
        extra = max(extra, exponent_digits((alpha - 1) * mp.log(x)))
    return x, alpha, theta, d + GUARD_DIGITS + extra, d


def logpdf(x, alpha, theta, *, digits=None):
    r"""Log-density :math:`\ln f_\Gamma(x) = (\alpha-1)\ln x - x/\theta - \ln\Gamma(\alpha) - \alpha\ln\theta`.

    Returns ``-inf`` where the density is 0 and ``+inf`` at ``x = 0`` when
    ``alpha < 1``.

    >>> from mpmath import mp
    >>> # alpha = 1 is the exponential distribution: ln f = -x/theta - ln theta
    >>> mp.almosteq(logpdf(5, 1, 2), -mp.mpf(5)/2 - mp.log(2))
    True
    """
    x, alpha, theta, wd, d = _args(x, alpha, theta, digits)
    with mp.workdps(wd):
        if x < 0 or mp.isinf(x):
            r = mp.ninf
        elif x == 0:
            r = mp.inf if alpha < 1 else (-mp.log(theta) if alpha == 1 else mp.ninf)
        else:
            r = (alpha - 1) * mp.log(x) - x / theta - mp.loggamma(alpha) - alpha * mp.log(theta)
    return r


def pdf(x, alpha, theta, *, digits=None):
    r"""Density :math:`f_\Gamma(x) = x^{\alpha-1}e^{-x/\theta}/(\Gamma(\alpha)\theta^\alpha)` (Definition 22).

    Computed as ``exp(logpdf)``, so values far below the float range
    (``1e-500``) are still correct to the requested digits.

    >>> from mpmath import mp
    >>> # Lemma 14 uses that f_Gamma is decreasing for alpha <= 1
    >>> pdf(1, "0.1", 2) > pdf(2, "0.1", 2)
    True
    """
    lp = logpdf(x, alpha, theta, digits=digits)
    with mp.workdps(resolve_digits(digits) + GUARD_DIGITS):
        return mp.exp(lp) if not mp.isinf(lp) else (mp.inf if lp > 0 else mp.zero)


def cdf(x, alpha, theta, *, digits=None):
    r"""CDF :math:`P(X \le x) = \gamma(\alpha, x/\theta)/\Gamma(\alpha)` (the paper's :math:`c_{D_\Gamma}` at :math:`x = D_\Gamma`).

    >>> from mpmath import mp
    >>> mp.almosteq(cdf(3, 2, 1) + sf(3, 2, 1), 1)
    True
    """
    x, alpha, theta, wd, d = _args(x, alpha, theta, digits)
    with mp.workdps(wd):
        if x <= 0:
            return mp.zero
        if mp.isinf(x):
            return mp.one
        return mp.gammainc(alpha, 0, x / theta, regularized=True)


def sf(x, alpha, theta, *, digits=None):
    r"""Survival function :math:`P(X > x) = \Gamma(\alpha, x/\theta)/\Gamma(\alpha)`, computed directly (no ``1 - cdf``).

    >>> from mpmath import mp
    >>> # alpha = 1: P(X > x) = exp(-x/theta), also deep in the tail
    >>> mp.almosteq(sf(1000, 1, 1), mp.exp(-1000))
    True
    """
    x, alpha, theta, wd, d = _args(x, alpha, theta, digits)
    with mp.workdps(wd):
        if x <= 0:
            return mp.one
        if mp.isinf(x):
            return mp.zero
        return mp.gammainc(alpha, x / theta, mp.inf, regularized=True)


def mean(alpha, theta, *, digits=None):
    r"""Mean :math:`E X = \alpha\theta`.

    >>> from mpmath import mp, quad, inf
    >>> # E X = int_0^inf x f(x) dx, the first moment of the density
    >>> mp.almosteq(mean("2.5", "0.5"), quad(lambda x: x * pdf(x, "2.5", "0.5"), [0, inf]), 1e-12)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        return positive(alpha, "alpha") * positive(theta, "theta")


def var(alpha, theta, *, digits=None):
    r"""Variance :math:`\operatorname{Var} X = \alpha\theta^2`.

    >>> from mpmath import mp
    >>> # Var X = theta * E X: the ratio is the scale
    >>> mp.almosteq(var("2.5", "0.5"), mean("2.5", "0.5") * mp.mpf("0.5"))
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        return positive(alpha, "alpha") * positive(theta, "theta") ** 2
