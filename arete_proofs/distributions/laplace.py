r"""The Laplace distribution :math:`\mathrm{Laplace}(\lambda)` (paper, Definition 23).

Scale ``lam`` > 0, location 0:

.. math::

    f_L(x) = \frac{1}{2\lambda} e^{-|x|/\lambda}.

On :math:`x > 0` it is half the :math:`\mathrm{Exp}(\lambda)` density, which the
paper's Lemma 15 uses (its median is :math:`\lambda\ln 2`).

>>> from mpmath import mp
>>> # Lemma 15: P(0 < Y < Delta) >= 1/4 when lam <= Delta/ln 2 (equality at the boundary)
>>> mp.almosteq(cdf(mp.log(2), 1) - cdf(0, 1), mp.mpf(1)/4)
True
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, exponent_digits, parse_precision, positive, real, resolve_digits

__all__ = ["pdf", "logpdf", "cdf", "sf", "mean_abs", "var"]


def _args(x, lam, digits):
    return _args_d(x, lam, resolve_digits(digits))


def _args_d(x, lam, d):
    with mp.workdps(parse_precision(d)):
        x = real(x, "x")
        lam = positive(lam, "lam")
    return x, lam, d + GUARD_DIGITS + exponent_digits(x / lam, mp.log(lam))


def logpdf(x, lam, *, digits=None):
    r"""Log-density :math:`-|x|/\lambda - \ln(2\lambda)`.

    >>> from mpmath import mp
    >>> mp.almosteq(logpdf(-3, 2), logpdf(3, 2))  # symmetric
    True
    """
    x, lam, wd = _args(x, lam, digits)
    with mp.workdps(wd):
        if mp.isinf(x):
            return mp.ninf
        return -abs(x) / lam - mp.log(2 * lam)


def pdf(x, lam, *, digits=None):
    r"""Density :math:`f_L(x) = e^{-|x|/\lambda}/(2\lambda)` (Definition 23).

    >>> from mpmath import mp
    >>> # the privacy-loss identity of the Laplace mechanism (Lemma 26)
    >>> mp.almosteq(pdf(0, 1) / pdf(1, 1), mp.e)
    True
    """
    x, lam, wd = _args(x, lam, digits)
    with mp.workdps(wd):
        if mp.isinf(x):
            return mp.zero
        return mp.exp(-abs(x) / lam) / (2 * lam)


def _pdf_d(x, lam, d):
    """:func:`pdf` with ``d`` already resolved (internal callers may exceed MAX_DIGITS)."""
    x, lam, wd = _args_d(x, lam, d)
    with mp.workdps(wd):
        return mp.zero if mp.isinf(x) else mp.exp(-abs(x) / lam) / (2 * lam)


def _sf_d(x, lam, d):
    """:func:`sf` with ``d`` already resolved."""
    x, lam, wd = _args_d(x, lam, d)
    with mp.workdps(wd):
        return 1 - mp.exp(x / lam) / 2 if x < 0 else mp.exp(-x / lam) / 2


def cdf(x, lam, *, digits=None):
    r"""CDF: :math:`e^{x/\lambda}/2` for :math:`x < 0`, :math:`1 - e^{-x/\lambda}/2` otherwise.

    >>> from mpmath import mp
    >>> mp.almosteq(cdf(-2, 3), sf(2, 3))
    True
    """
    x, lam, wd = _args(x, lam, digits)
    with mp.workdps(wd):
        if x < 0:
            return mp.exp(x / lam) / 2
        return 1 - mp.exp(-x / lam) / 2


def sf(x, lam, *, digits=None):
    r"""Survival function :math:`P(Y > x)`, computed without cancellation in the tail.

    >>> from mpmath import mp
    >>> mp.almosteq(sf(100, 1), mp.exp(-100) / 2)
    True
    """
    x, lam, wd = _args(x, lam, digits)
    with mp.workdps(wd):
        if x < 0:
            return 1 - mp.exp(x / lam) / 2
        return mp.exp(-x / lam) / 2


def mean_abs(lam, *, digits=None):
    r""":math:`E|Y| = \lambda`.

    >>> from mpmath import mp, quad, inf
    >>> # E|Y| = 2 int_0^inf y f(y) dy for the symmetric density
    >>> mp.almosteq(mean_abs("0.7"), 2 * quad(lambda y: y * pdf(y, "0.7"), [0, inf]), 1e-12)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        return positive(lam, "lam")


def var(lam, *, digits=None):
    r""":math:`\operatorname{Var} Y = 2\lambda^2`.

    >>> from mpmath import mp
    >>> # Var Y = 2 (E|Y|)^2 for the Laplace law
    >>> mp.almosteq(var("0.7"), 2 * mean_abs("0.7") ** 2)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        return 2 * positive(lam, "lam") ** 2
