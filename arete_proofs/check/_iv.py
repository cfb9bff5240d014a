r"""Outward-rounded float64 intervals on numpy arrays, and the two facts about rounding the checker uses.

**Fact 1 (one operation).**  IEEE 754 arithmetic rounds :math:`+,-,\times,/` to nearest, so the exact
result of one operation on two floats lies within half a gap of the computed one :math:`\hat y` (the gap to
the next float on that side, at most :math:`2^{-52}|\hat y| + 2^{-1074}`).  :func:`up` adds
:math:`\delta = 2^{-51}|\hat y| + 2^{-1073}` (computed, then rounded to nearest: the result is still at least
:math:`\hat y` plus a whole gap) and :func:`dn` subtracts it, so every interval operation below, which applies them
after each operation, encloses the exact result; no ``libm`` function (``exp``, ``log``, ``pow``) is called on a
value that enters a bound.  (Moving by ``nextafter`` is as sound and about five times slower.)

**Fact 2 (positive dot products and recurrences).**  If every operand is :math:`\ge 0` and every path
from an input to an output passes through at most :math:`E` roundings of :math:`+` and :math:`\times`
(an input read with relative error :math:`\le u` counts as one), the computed output
:math:`\hat y` of the exact :math:`y` satisfies :math:`|\hat y - y| \le \gamma_E\, y + E\,2^{-1074}`,
:math:`\gamma_E = Eu/(1 - Eu)`, :math:`u = 2^{-53}` (Higham, *Accuracy and Stability of Numerical
Algorithms*, 2nd ed., Lemma 3.1 and Section 3.1; the absolute term covers underflow).  For a dot
product :math:`\sum_{i \le n} a_i b_i` with signs, in any order (BLAS, FMA), the error is at most
:math:`\gamma_n \sum |a_i b_i|` plus :math:`n 2^{-1074}`.

:func:`log` encloses :math:`\ln x` with the series :math:`\ln m = 2\,\mathrm{atanh}\,s`,
:math:`s = (m-1)/(m+1)`, :math:`x = m2^e`, evaluated in floats with an a priori bound of its rounding and its
remainder bounded.

>>> lo, hi = log(np.array([2.0]), np.array([2.0]))
>>> bool(lo[0] < 0.6931471805599453 < hi[0]) and bool(hi[0] - lo[0] < 4e-15)   # a few ulps wide
True
"""

from __future__ import annotations

import math

import numpy as np

U = 2.0 ** -53          # the unit roundoff of float64
TINY = 2.0 ** -1000     # an absolute error far above any underflow the checker can meet


def dn(x):
    """At most ``x`` less a whole gap (Fact 1); nan, an undefined result, becomes -inf."""
    with np.errstate(invalid="ignore", over="ignore"):      # inf - inf: nan, then -inf
        t = np.abs(x) * -2.0 ** -51
        t -= 2.0 ** -1073
        t += x
    return _nan(t, -np.inf)


def up(x):
    """At least ``x`` plus a whole gap (Fact 1); nan becomes +inf."""
    with np.errstate(invalid="ignore", over="ignore"):
        t = np.abs(x) * 2.0 ** -51
        t += 2.0 ** -1073
        t += x
    return _nan(t, np.inf)


def _nan(t, v):
    if np.ndim(t) == 0:
        return np.float64(v) if np.isnan(t) else t
    bad = np.isnan(t)
    if bad.any():
        t[bad] = v
    return t


def gamma(E):
    r""":math:`\gamma_E = Eu/(1 - Eu)` rounded up (Fact 2); ``inf`` when :math:`Eu \ge 1/2`."""
    return math.inf if E * U >= 0.5 else math.nextafter(E * U / (1 - E * U) * (1 + 4 * U), math.inf)


def of_arb(x):
    """The float interval (lo, hi) of a python-flint ``arb`` ball (both ends moved one ulp outward)."""
    lo, hi = float(x.lower()), float(x.upper())
    return (math.nextafter(lo, -math.inf) if not math.isnan(lo) else -math.inf,
            math.nextafter(hi, math.inf) if not math.isnan(hi) else math.inf)


def add(a, b):
    return dn(a[0] + b[0]), up(a[1] + b[1])


def sub(a, b):
    return dn(a[0] - b[1]), up(a[1] - b[0])


def mul(a, b):
    """Interval product (every sign)."""
    p = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    with np.errstate(invalid="ignore"):
        lo = np.minimum(np.minimum(p[0], p[1]), np.minimum(p[2], p[3]))
        hi = np.maximum(np.maximum(p[0], p[1]), np.maximum(p[2], p[3]))
    return dn(lo), up(hi)


def div(a, b):
    """Interval quotient; the whole line where the divisor's interval is not positive."""
    ok = b[0] > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        bb = np.where(ok, b[0], 1.0), np.where(ok, b[1], 1.0)
        p = (a[0] / bb[0], a[0] / bb[1], a[1] / bb[0], a[1] / bb[1])
        lo = np.minimum(np.minimum(p[0], p[1]), np.minimum(p[2], p[3]))
        hi = np.maximum(np.maximum(p[0], p[1]), np.maximum(p[2], p[3]))
    return np.where(ok, dn(lo), -np.inf), np.where(ok, up(hi), np.inf)


def sq(a):
    """Interval square."""
    lo2, hi2 = a[0] * a[0], a[1] * a[1]
    inside = (a[0] <= 0) & (a[1] >= 0)
    return np.where(inside, 0.0, dn(np.minimum(lo2, hi2))), up(np.maximum(lo2, hi2))


def mag(a):
    r"""Upper bound of :math:`|x|` over the interval."""
    return np.maximum(np.abs(a[0]), np.abs(a[1]))


def scale(a, c):
    """Interval times a float interval constant ``c = (clo, chi)`` (scalars)."""
    return mul(a, (np.float64(c[0]), np.float64(c[1])))


# -- ln x ------------------------------------------------------------------------------------------
_K = 12   # series terms: with |s| <= 0.1716, the remainder is below 1e-21 |s| (see _log_point)


def _log_point(x, which):
    r"""A lower (``which=0``) or upper (1) bound of ln x, x > 0 finite floats.

    :math:`x = m 2^e` (``frexp``, exact; :math:`m \in [2^{-1/2}, 2^{1/2})` after one exact doubling),
    :math:`m - 1` exact, :math:`s` within :math:`2.01u` and :math:`z = s^2` within :math:`5.1u` (relative); the
    Horner sum of the positive series :math:`P(z) = \sum_{i \le K} z^i/(2i+1)` within :math:`\gamma_{2K+2}` (Fact 2;
    :math:`zP'/P < 0.02`, so :math:`z`'s error moves it by less than :math:`0.2u`); :math:`2sP` within :math:`31u`;
    :math:`e \ln 2` within :math:`2.01u`; the sum within :math:`u`: in all at most
    :math:`1.01u(2.02|e|\ln 2 + 32|2sP| + |v|)`; the series' remainder is below :math:`10^{-21}|s|`."""
    m, e = np.frexp(x)                          # x = m 2^e exactly, 1/2 <= m < 1
    low = m < 0.7071067811865476                 # then m in [1/sqrt2, sqrt2): |s| <= 3 - 2 sqrt2 < 0.1716
    m = np.where(low, 2 * m, m)
    e = np.where(low, e - 1, e).astype(float)
    s = (m - 1) / (m + 1)
    z = s * s
    P = np.full_like(x, 1.0 / (2 * _K + 1))
    for i in range(_K - 1, -1, -1):
        P = P * z + 1.0 / (2 * i + 1)
    lm = 2 * s * P
    v = e * 0.6931471805599453 + lm
    err = 1.01 * U * (2.02 * 0.6931471805599453 * np.abs(e) + 32 * np.abs(lm) + np.abs(v)) + 1e-21 * np.abs(s) + 1e-300
    return dn(v - err) if which == 0 else up(v + err)


def log(lo, hi):
    r"""Enclosure of :math:`\ln x` for :math:`x \in [\mathrm{lo}, \mathrm{hi}]` (arrays): :math:`-\infty` where
    ``lo <= 0``, and ``(-inf, inf)`` where an end is not finite.

    >>> lo, hi = log(np.array([1e-300, 0.0]), np.array([1e300, 1.0]))
    >>> bool(lo[0] < -690.77 and hi[0] > 690.77), float(lo[1])
    (True, -inf)
    """
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    okl = (lo > 0) & np.isfinite(lo)
    okh = (hi > 0) & np.isfinite(hi)
    a = _log_point(np.where(okl, lo, 1.0), 0)
    b = _log_point(np.where(okh, hi, 1.0), 1)
    return np.where(okl, a, -np.inf), np.where(okh, b, np.inf)


# -- e^x ------------------------------------------------------------------------------------------
_E = 18   # Taylor terms of e^r, |r| <= 0.35: the remainder is below 1e-22 e^|r|


def exp(a):
    r"""Enclosure of :math:`e^x` for :math:`x \in [a_0, a_1]` (arrays): :math:`e^x = 2^k e^r`, :math:`k` the nearest
    integer to :math:`x/\ln 2`, :math:`r = x - k\ln 2` in intervals, :math:`e^r` by its Taylor series with the
    remainder :math:`|r|^{E+1} e^{|r|}/(E+1)!`; :math:`2^k` is exact.  Monotone, so the ends are evaluated apart.

    >>> lo, hi = exp((np.array([1.0, -745.2]), np.array([1.0, -745.2])))
    >>> bool(lo[0] < 2.718281828459045 < hi[0]), float(lo[1]), float(hi[1]) > 0
    (True, 0.0, True)
    """
    def one(x, which):
        x = np.clip(np.asarray(x, dtype=float), -1e4, 1e4)
        k = np.rint(x / 0.6931471805599453)
        r = sub((x, x), mul((k, k), (np.float64(_LN2[0]), np.float64(_LN2[1]))))
        P = (np.ones_like(x), np.ones_like(x))
        for i in range(_E, 0, -1):                  # Horner: 1 + r/1 (1 + r/2 (1 + ...))
            P = add((np.float64(1.0), np.float64(1.0)), div(mul(r, P), (np.float64(i), np.float64(i))))
        rem = 1e-22 * 2.0                           # 0.35^19/19! e^0.35 < 1e-22
        v = (dn(P[0] - rem), up(P[1] + rem))[which]
        with np.errstate(over="ignore", under="ignore"):
            out = np.ldexp(v, k.astype(np.int64))   # exact unless it under/overflows
        return np.where(which == 0, dn(out) if which == 0 else out, up(out) if which else out)
    with np.errstate(invalid="ignore"):
        lo, hi = one(np.where(np.isnan(a[0]), -2e4, a[0]), 0), one(np.where(np.isnan(a[1]), 2e4, a[1]), 1)
    return np.where(a[0] < -1e4, 0.0, np.maximum(lo, 0.0)), np.where(a[1] > 1e4, np.inf, hi)


def _ln2():
    from flint import arb, ctx

    old, ctx.prec = ctx.prec, 128
    try:
        return of_arb(arb(2).log())
    finally:
        ctx.prec = old


_LN2 = _ln2()


def range_min(values, i, j):
    r""":math:`\min_{i_k \le l < j_k} v_l` for each pair (``inf`` where empty): one ``minimum.reduceat``.

    >>> range_min(np.array([3.0, 1.0, 2.0]), np.array([0, 1, 2, 2]), np.array([3, 2, 2, 3])).tolist()
    [1.0, 1.0, inf, 2.0]
    """
    i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
    n = len(values)
    if n == 0 or len(i) == 0:
        return np.full(len(i), np.inf)
    padded = np.append(np.asarray(values, dtype=float), np.inf)
    ii, jj = np.clip(i, 0, n), np.clip(j, 0, n)
    idx = np.empty(2 * len(ii), dtype=np.int64)
    idx[0::2], idx[1::2] = ii, jj
    out = np.minimum.reduceat(padded, idx)[0::2]
    return np.where(jj > ii, out, np.inf)
