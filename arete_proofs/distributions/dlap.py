r"""The discrete Laplace law :math:`\mathrm{DLap}(a)` on the integers (closed forms).

With :math:`q = e^{-a}`, :math:`a > 0`:

.. math::

    p(k) = \tanh(a/2)\, e^{-a|k|} = \frac{1-q}{1+q} q^{|k|}, \qquad
    P(X > n) = \frac{q^{n+1}}{1+q}\ (n \ge 0), \qquad
    E|X| = \frac{1}{\sinh a}, \qquad \operatorname{Var} X = \frac{1}{\cosh a - 1}.

:math:`\mathrm{DLap}(a) = \mathrm{Geo}(1-q) - \mathrm{Geo}(1-q) = \mathrm{GDL}(1, a)`
(:mod:`arete_proofs.distributions.gdl`; Harrison and Manurangsi, FORC 2025, notation; the
discrete Laplace mechanism of Ghosh, Roughgarden and Sundararajan 2009).

>>> from mpmath import mp
>>> from arete_proofs.distributions import gdl
>>> mp.almosteq(pmf(2, "0.7", digits=30), gdl.pmf(2, 1, "0.7", digits=30), 1e-28)   # GDL(1, a) = DLap(a)
True
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, floor_point, parse_precision, positive, resolve_digits
from .gdl import _cdf_by_symmetry, _integer

__all__ = ["pmf", "logpmf", "cdf", "sf", "mean_abs", "var"]


def _a(a, d):
    with mp.workdps(parse_precision(d)):
        return positive(a, "a")


def logpmf(k, a, *, digits=None):
    r""":math:`\ln p(k) = \ln\tanh(a/2) - a|k|`.

    >>> from mpmath import mp
    >>> mp.almosteq(logpmf(0, 2) - logpmf(3, 2), 6)       # the loss of a shift by 3 is 3a
    True
    """
    d = resolve_digits(digits)
    a = _a(a, d)
    n = abs(_integer(k))
    with mp.workdps(d + GUARD_DIGITS + len(str(n))):
        return mp.log(mp.tanh(a / 2)) - a * n


def pmf(k, a, *, digits=None):
    r""":math:`p(k) = \tanh(a/2) e^{-a|k|}`.

    >>> from mpmath import mp
    >>> mp.almosteq(sum(pmf(k, 1) for k in range(-80, 81)), 1)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        return mp.exp(logpmf(k, a, digits=d + GUARD_DIGITS))


def sf(x, a, *, digits=None):
    r""":math:`P(X > x) = q^{n+1}/(1+q)` for :math:`n = \lfloor x\rfloor \ge 0`, :math:`1 - q^{-n}/(1+q)` for :math:`n < 0`.

    >>> from mpmath import mp
    >>> mp.almosteq(sf(0, 1) - sf(1, 1), pmf(1, 1))
    True
    """
    d = resolve_digits(digits)
    a = _a(a, d)
    n = floor_point(x, "x")
    with mp.workdps(d + GUARD_DIGITS + len(str(abs(n)))):
        if n == mp.inf:
            return mp.zero
        if n == mp.ninf:
            return mp.one
        q = mp.exp(-a)
        if n >= 0:
            return mp.exp(-a * (n + 1)) / (1 + q)
        return 1 - mp.exp(a * n) / (1 + q)


def cdf(x, a, *, digits=None):
    r""":math:`P(X \le x) = P(X > -\lfloor x\rfloor - 1)` (symmetry).

    >>> from mpmath import mp
    >>> mp.almosteq(cdf(0, 1) + sf(0, 1), 1)
    True
    """
    return _cdf_by_symmetry(x, lambda n: sf(n, a, digits=digits))


def mean_abs(a, *, digits=None):
    r""":math:`E|X| = 2\tanh(a/2)\, q/(1-q)^2 = 1/\sinh a`.

    >>> from mpmath import mp
    >>> mp.almosteq(mean_abs(1), 2 * sum(k * pmf(k, 1) for k in range(1, 200)))
    True
    """
    d = resolve_digits(digits)
    a = _a(a, d)
    with mp.workdps(d + GUARD_DIGITS):
        return 1 / mp.sinh(a)


def var(a, *, digits=None):
    r""":math:`\operatorname{Var} X = 2q/(1-q)^2 = 1/(\cosh a - 1)`.

    >>> from mpmath import mp
    >>> mp.almosteq(var(1), 2 * sum(k * k * pmf(k, 1) for k in range(1, 300)))
    True
    """
    d = resolve_digits(digits)
    a = _a(a, d)
    with mp.workdps(d + GUARD_DIGITS):
        return 1 / (mp.cosh(a) - 1)
