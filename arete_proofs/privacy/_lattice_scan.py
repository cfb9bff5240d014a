r"""A float64 guide for the Laplace lattice-point candidates of :mod:`arete_proofs.privacy.tight_lattice`.

The candidates' losses are differences of logarithms of cell values
:math:`f(hj + x) = (A_j e^{-x/b} + B_j e^{x/b})/(2b)` (:meth:`arete_proofs.distributions.lattice.LatticeLaw.fill_cells`).
Here every loss is first computed in float64 from :math:`\ln A_j, \ln B_j`, with an absolute error at most
:math:`E = 16 u \Lambda` (:math:`u = 2^{-53}`, :math:`\Lambda` a bound of every logarithm involved: each float
value is a fixed number of correctly rounded operations on quantities of size at most :math:`\Lambda`; a cell
minimiser found in float64 lies in the cell, so it never undercuts the true minimum by more than the rounding).
With :math:`\hat M` the float maximum and :math:`\mu \ge 2E`, a candidate with float loss below :math:`\hat M - \mu`
has true loss below :math:`\hat M - \mu + E \le M - \mu + 2E \le M` (:math:`M` the true maximum): it cannot be the
maximiser.  Likewise a cell whose float minimum exceeds the window's float minimum by :math:`\mu` is not the
window's minimiser.  The remaining few candidates (and cells) are evaluated exactly by the mpmath formulas of
:mod:`~arete_proofs.privacy.tight_lattice`, in the same order, so the maximum and its pair are those of the full
exact scan.  (:math:`\mu = 10^3 E`; if :math:`\Lambda` is too large for float64 to separate anything, the caller
scans exactly.)

>>> _fln(mp.mpf(2) ** -5000) == -5000 * math.log(2)      # ln of an mpf far below the float range
True
"""

from __future__ import annotations

import math

import numpy as np
from mpmath import mp

__all__ = ["cell_logs", "guide"]

U = 2.0 ** -53


def _fln(x):
    """float64 :math:`\\ln x` of a positive mpf (outside the float range too): top 60 bits of the mantissa and the exponent."""
    sign, man, exp, bc = x._mpf_
    if sign or not man:
        raise ValueError("x must be a positive mpf")
    man = int(man)
    if bc > 60:
        man >>= bc - 60
        exp += bc - 60
    return math.log(man) + exp * math.log(2)


def cell_logs(law, lo, hi):
    """float64 :math:`(\\ln A_j, \\ln B_j)` for ``lo <= j <= hi`` (normalised cells; from :meth:`cell` where
    :meth:`fill_cells` did not reach).

    >>> from arete_proofs.distributions.lattice import LatticeLaw
    >>> z = LatticeLaw(["2"], [1], "0.5", kernel="laplace", scale="0.2", digits=15); z.fill_cells(0, 4)
    >>> la, lb = cell_logs(z, 0, 6)                       # cells 5, 6 from the direct sums
    >>> bool(abs(la[2] - float(mp.log(z._norm[2][0]))) < 1e-12) and bool(abs(lb[6] - float(mp.log(z.cell(6)[1]) + 6 * 2.5)) < 1e-9)
    True
    """
    n = hi - lo + 1
    la, lb = np.empty(n), np.empty(n)
    norm = law._norm
    with mp.workdps(law.dps):
        hb = law.h / law.s
        for i in range(n):
            j = lo + i
            v = norm.get(j)
            if v is None:
                SL, SR = law.cell(j)
                v = (SL * mp.exp(-hb * j), SR * mp.exp(hb * j))
            la[i], lb[i] = _fln(v[0]), _fln(v[1])
    return la, lb


def _lval(la, lb, x, ib, l2b):
    """float64 :math:`\\ln f(hj + x)` from the cell logs (``ib`` = 1/b, ``l2b`` = ln 2b)."""
    return np.logaddexp(la - x * ib, lb + x * ib) - l2b


def _lmin(la, lb, x0, x1, b, ib, l2b):
    """float64 least :math:`\\ln f` on ``[hj + x0, hj + x1]``: the convex cell's minimiser clipped to the interval."""
    x = np.clip(b / 2 * (la - lb), x0, x1)
    return _lval(la, lb, x, ib, l2b)


def guide(law, Delta, ks, js, F, frac):
    r"""Which candidates of :func:`arete_proofs.privacy.tight_lattice._laplace_candidates` can be the maximum.

    Returns ``(k_keep, cells, j_keep)`` -- the kept ``t = hk`` candidates, for each of them the full cells that can
    hold the window's minimum, and the kept ``(j, sign)`` candidates -- or ``None`` when float64 cannot separate
    (module docstring).  ``ks``, ``js``: ranges of consecutive integers; ``F`` = :math:`\lfloor\Delta/h\rfloor`.

    >>> from arete_proofs.distributions.lattice import LatticeLaw
    >>> z = LatticeLaw(["2"], [1], "0.5", kernel="laplace", scale="0.2", digits=15); z.fill_cells(-6, 12)
    >>> k_keep, cells, j_keep = guide(z, mp.mpf(1), range(0, 5), range(-2, 7), 2, False)
    >>> 0 < len(k_keep) + len(j_keep) < 5 + 2 * 9           # the float maximum is kept, most candidates are not
    True
    """
    h, b = float(law.h), float(law.s)
    ib, l2b = 1 / b, math.log(2 * b)
    r = float(Delta - F * law.h) if frac else 0.0
    k0, k1 = ks[0], ks[-1]
    j0, j1 = js[0], js[-1]
    lo = min(k0 - F - 1, j0 - F - 1)
    hi = max(k1 + F, j1 + F + 1)
    la, lb = cell_logs(law, lo, hi)
    lam_ = float(np.max(np.abs(np.concatenate([la, lb])))) + abs(l2b) + h * ib + 1
    E = 16 * U * lam_
    mu = 1e3 * E
    if mu > 1e-4:
        return None
    # f(hj) for every j: cell j at x = 0
    lpk = _lval(la, lb, 0.0, ib, l2b)
    K = np.arange(k0, k1 + 1)
    cands = []
    if F >= 1:  # full cells k - F .. k + F - 1: sliding minimum
        lcm = _lmin(la, lb, 0.0, h, b, ib, l2b)
        seg = lcm[k0 - F - lo: k1 + F - lo]
        win = np.lib.stride_tricks.sliding_window_view(seg, 2 * F).min(axis=1)
        cands.append(win)
    else:
        lcm = None
    if frac:
        il, ir = K - F - 1 - lo, K + F - lo
        cands.append(_lmin(la[il], lb[il], h - r, h, b, ib, l2b))
        cands.append(_lmin(la[ir], lb[ir], 0.0, r, b, ib, l2b))
    wmin = np.min(np.vstack(cands), axis=0)
    loss1 = lpk[K - lo] - wmin
    J = np.arange(j0, j1 + 1)
    lv = lpk[J - lo]
    if frac:
        ip, im = J + F - lo, J - F - 1 - lo
        lp = _lval(la[ip], lb[ip], r, ib, l2b) - lv
        lm = _lval(la[im], lb[im], h - r, ib, l2b) - lv
    else:
        lp, lm = lpk[J + F - lo] - lv, lpk[J - F - lo] - lv
    top = max(loss1.max(), lp.max(), lm.max())
    cut = top - mu
    k_keep = [int(k) for k in K[loss1 >= cut]]
    cells = {}
    if F >= 1:
        for k in k_keep:
            w = lcm[k - F - lo: k + F - lo]
            cells[k] = [int(j) + k - F for j in np.nonzero(w <= w.min() + mu)[0]]
    j_keep = sorted([(int(j), 1) for j in J[lp >= cut]] + [(int(j), -1) for j in J[lm >= cut]],
                    key=lambda c: (c[0], -c[1]))
    return k_keep, cells, j_keep
