r"""Outward-rounded float64 interval bounds on numpy arrays: the vectorised sweep of the covers.

IEEE-754 rounds :math:`+, -, \times, /` correctly (to nearest), so the computed result of one
operation is within half an ulp of the exact one, and one ``nextafter`` outward encloses it:

.. math::

   \mathrm{down}(a \ominus b) \le a - b \le \mathrm{up}(a \ominus b).

Every function below applies that after each operation (no transcendental functions are used:
libm's ``exp`` and ``log`` carry no such guarantee), so an upper bound computed here is an upper
bound of the exact expression, as one computed in ball arithmetic is.  It is looser than the ball
value by a few ulps of the operands; the cover of :mod:`arete_proofs.certified.combs_gauss` uses it
for the bulk of a cover's cells and recomputes the few cells near the maximum in balls.

>>> import numpy as np
>>> lo, hi = sub(np.array([0.1]), np.array([0.1]), np.array([0.3]), np.array([0.3]))
>>> bool(lo[0] <= 0.1 - 0.3 <= hi[0]) and bool(hi[0] - lo[0] < 1e-15)     # [0.1] - [0.3] encloses -0.2
True
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["down", "up", "from_balls", "sub", "qmax", "range_min"]


def down(x):
    r"""One ulp towards :math:`-\infty`: :math:`\mathrm{down}(x) < x` (nan, an unbounded result, becomes :math:`-\infty`).

    >>> float(down(np.array([1.0]))[0]) < 1.0
    True
    """
    x = np.nextafter(x, -np.inf)
    return np.where(np.isnan(x), -np.inf, x)


def up(x):
    r"""One ulp towards :math:`+\infty`: :math:`\mathrm{up}(x) > x` (nan becomes :math:`+\infty`).

    >>> float(up(np.array([np.nan]))[0])
    inf
    """
    x = np.nextafter(x, np.inf)
    return np.where(np.isnan(x), np.inf, x)


def from_balls(balls):
    r"""Float arrays ``(lo, hi)`` with :math:`\mathrm{lo}_i \le x \le \mathrm{hi}_i` for every :math:`x` in the ball
    ``balls[i]`` (python-flint ``arb``): its ends rounded to float64 and moved one ulp outward, the same
    numbers as ``combs_gauss._down``/``_up`` (an ``arb`` end that is nan gives an infinite end).

    >>> from flint import arb
    >>> lo, hi = from_balls([arb(1) / 3])
    >>> bool(lo[0] < 1 / 3 < hi[0])
    True
    """
    lo = np.array([float(b.lower()) for b in balls], dtype=float)
    hi = np.array([float(b.upper()) for b in balls], dtype=float)
    return down(lo), up(hi)


def sub(alo, ahi, blo, bhi):
    r"""Enclosure of :math:`[a] - [b]`: :math:`(\mathrm{down}(a_{lo} - b_{hi}), \mathrm{up}(a_{hi} - b_{lo}))`.

    >>> lo, hi = sub(np.array([1.0]), np.array([2.0]), np.array([0.5]), np.array([0.5]))
    >>> float(lo[0]) < 0.5 < 1.5 < float(hi[0])
    True
    """
    return down(alo - bhi), up(ahi - blo)


def qmax(v_hi, s_lo, s_hi, k_hi, d):
    r"""Upper bound of :math:`v + s x + K x^2/2` over :math:`|x| \le d` for :math:`v \le v_{hi}`,
    :math:`s \in [s_{lo}, s_{hi}]`, :math:`K \le K_{hi}` (arrays; ``d`` a python float or Fraction, rounded up).

    With :math:`S = \max(|s_{lo}|, |s_{hi}|)`: :math:`v + Sd + \max(K, 0) d^2/2`, and for :math:`K_{hi} < 0` also
    :math:`v + S^2/(2|K_{hi}|)` (the parabola's peak), the smaller of the two: the second-order cell
    bound of :mod:`arete_proofs.certified.combs_gauss` (its ``_qmax``).

    >>> float(qmax(np.array([0.0]), np.array([-1.0]), np.array([1.0]), np.array([-4.0]), 1.0)[0]) >= 1 / 8
    True
    """
    dd = float(d)
    if not isinstance(d, float) and dd < d:      # a Fraction: float() rounds to nearest
        dd = math.nextafter(dd, math.inf)
    S = np.maximum(np.abs(s_lo), np.abs(s_hi))
    inc = up(v_hi + up(S * dd))
    k_pos = np.maximum(k_hi, 0.0)
    gen = up(inc + up(up(k_pos * up(dd * dd)) / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        peak = up(v_hi + up(up(S * S) / (-2.0 * k_hi)))      # -2 K exact (a power of two times a float)
    return np.where(k_hi < 0, np.minimum(inc, peak), gen)


def range_min(values, i, j):
    r""":math:`\min_{i_k \le l < j_k} v_l` for each pair (``inf`` where the range is empty), by one ``minimum.reduceat``.

    >>> v = np.array([3.0, 1.0, 2.0])
    >>> range_min(v, np.array([0, 1, 2, 2]), np.array([3, 2, 2, 3])).tolist()
    [1.0, 1.0, inf, 2.0]
    """
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    n = len(values)
    if n == 0 or len(i) == 0:
        return np.full(len(i), np.inf)
    padded = np.append(np.asarray(values, dtype=float), np.inf)       # index n is valid for reduceat
    ii = np.clip(i, 0, n)
    jj = np.clip(j, 0, n)
    idx = np.empty(2 * len(ii), dtype=np.int64)
    idx[0::2], idx[1::2] = ii, jj
    # reduceat over (idx[2k], idx[2k+1]) is the min over values[i:j] when i < j (else values[i]: masked)
    out = np.minimum.reduceat(padded, idx)[0::2]
    return np.where(jj > ii, out, np.inf)
