r"""The certified search for :math:`\sup_{t\ge0} L_d(t)` behind :func:`arete_proofs.privacy.tight.tight_epsilon`.

Private helpers; the method and what it proves are in the module docstring of
:mod:`arete_proofs.privacy.tight` ("what is numerically checked").

* :func:`_search` -- the supremum for :math:`0 < \alpha < 1`, :math:`\lambda < \theta`:
  a float64 estimate sizes the tolerance :math:`0.45\cdot10^{-\text{digits}}\,\varepsilon^*`
  and the end :math:`T` of the cover (:func:`_choose_T`, where the tail bound of item 6
  falls below the maximum); a float64 branch and bound (:func:`_float_phase`) places the
  cells; the engine then certifies every cell of the cover of :math:`[0, T]` at
  ``_COARSE_DIGITS`` and refines the cells near the maximum at ``digits + 4``;
  :func:`_polish` moves the best point by parabolic steps;
* :func:`_bnb` -- branch and bound over windows of cells (:class:`_Window`): split every
  cell whose bound (:func:`arete_proofs.privacy._bounds._cell_bounds`) is above the
  best value found plus the tolerance;
* :func:`_runs` -- maximal runs of True in a boolean array (also used by
  :func:`arete_proofs.privacy.curves.smallest_private_eps`).
"""

from __future__ import annotations

import math

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS, PrecisionError
from ._bounds import _Num, _cell_bounds, _obj, _tail_bound, _tail_setup

__all__ = ["_search", "_bnb", "_Window", "_runs"]

_COARSE_DIGITS = 10  # precision of the engine check of the whole cover
_DEFER = 50  # cells within _DEFER error allowances of the maximum go to the next tier
_MAX_ENGINE_POINTS = 6000
_MAX_ROUNDS = 400


# ---------------------------------------------------------------------------
# branch and bound over windows of cells
# ---------------------------------------------------------------------------


class _Window:
    def __init__(self, p, vals, req_first=True, req_last=True):
        self.p = p
        self.l, self.m, self.g, self.G = vals
        self.req_first = req_first
        self.req_last = req_last
        self.U = self.L = None

    def req(self):
        r = np.ones(len(self.p) - 1, dtype=bool)
        if not self.req_first:
            r[0] = False
        if not self.req_last:
            r[-1] = False
        return r

    def insert(self, newp, vals):
        p = np.concatenate([self.p, newp])
        order = np.argsort(p, kind="stable")
        self.p = p[order]
        self.l = np.concatenate([self.l, vals[0]])[order]
        self.m = np.concatenate([self.m, vals[1]])[order]
        self.g = np.concatenate([self.g, vals[2]])[order]
        self.G = np.concatenate([self.G, vals[3]])[order]


def _split_points(a, b, num):
    out = []
    for x, y in zip(a, b):
        if x == 0:
            out.append(y / 10**6 if not num.mp else y / mp.mpf(10) ** 6)
        elif y > 8 * x:
            out.append(math.sqrt(x) * math.sqrt(y) if not num.mp else mp.sqrt(x) * mp.sqrt(y))
        else:
            out.append((x + y) / 2)
    return out


def _bnb(windows, evaluate, *, e, lam, tol, defer, L_ext, num, strict, max_rounds, budget,
         count, precision_digits=None):
    """Refine the cells of ``windows`` until each required cell's bound is within ``tol`` of
    the best value found (``done``) or within ``defer`` of it (left for a finer tier).

    Returns ``L_lo`` (a lower bound of the supremum up to ``e``).  Raises PrecisionError when
    ``strict`` and the budget is exhausted or a cell cannot be split further.
    """
    rounds = 0
    while True:
        L_lo = L_ext
        for w in windows:
            w.U, w.L, w.C = _cell_bounds(w.p, w.l, w.m, w.g, w.G, lam, e, num)
            mx = np.max(w.L) - 2 * e
            L_lo = mx if L_lo is None or mx > L_lo else L_lo
        splits = []
        for w in windows:
            act = w.req() & num.b(w.U > L_lo + tol) & num.b(w.U > L_lo + defer)
            idx = np.nonzero(act)[0]
            splits.append(idx)
        nact = sum(len(i) for i in splits)
        if nact == 0:
            return L_lo
        rounds += 1
        if rounds > max_rounds or count() > budget:
            if strict:
                raise PrecisionError(
                    f"privacy-loss search: {nact} cells still above the tolerance after {rounds - 1} "
                    f"rounds ({count()} evaluations)")
            return L_lo
        newpts, owners = [], []
        for wi, (w, idx) in enumerate(zip(windows, splits)):
            a, b = w.p[idx], w.p[idx + 1]
            if num.mp:
                tiny = mp.mpf(10) ** (-(precision_digits + 20))
                for x, y in zip(a, b):
                    if y - x <= tiny * y:
                        raise PrecisionError("privacy-loss search: a cell cannot be split further at this precision")
            else:
                keep = (b - a) > 1e-13 * b
                idx = idx[keep]
                a, b = a[keep], b[keep]
            pts = _split_points(a, b, num)
            newpts.extend(pts)
            owners.extend([wi] * len(pts))
        if not newpts:
            return L_lo
        vals = evaluate(newpts)
        owners = np.asarray(owners)
        for wi, w in enumerate(windows):
            sel = np.nonzero(owners == wi)[0]
            if len(sel):
                arr = _obj([newpts[i] for i in sel]) if num.mp else np.asarray([newpts[i] for i in sel], dtype=float)
                w.insert(arr, tuple(v[sel] for v in vals))


# ---------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------


def _initial_grid(P, T):
    th = P.thf
    small = [10.0 ** -k for k in (300, 200, 120, 80, 60, 45, 35, 28, 23, 19, 16)] + \
            [10.0 ** -k for k in range(14, 0, -1)]
    pts = [0.0] + [th * x for x in small]
    x = 0.15 * th
    while x < T:
        pts.append(x)
        x *= 1.5
    pts.append(T)
    return np.unique(np.asarray(pts, dtype=float))


def _float_phase(P, T, tol):
    num = _Num(False)
    p = _initial_grid(P, T)
    vals = P.fvals(p)
    scale = max(1.0, abs(float(vals[0][0])), abs(float(vals[1][0])))
    e = 1e-12 * scale
    w = _Window(p, vals)
    _bnb([w], P.fvals, e=e, lam=P.lamf, tol=max(tol, _DEFER * e), defer=_DEFER * e, L_ext=None, num=num,
         strict=False, max_rounds=80, budget=10**7, count=lambda: P.float_evaluations)
    return w.p


def _choose_T(P, L_est, limit):
    """Smallest T on a geometric ladder where the tail bound is below the midpoint of limit and L_est."""
    S = _tail_setup(P)
    target = limit + (L_est - limit) / 2
    T = max(float(S["Tmin"]) * 1.01, P.thf, P.lamf, 4 * P.shf)
    Tmax = 2000 * max(P.thf, P.lamf) + 4 * P.shf
    while T <= Tmax:
        tb = _tail_bound(P, mp.mpf(T), S)
        if tb < target:
            return T
        T *= 1.5
    raise PrecisionError(
        "the tail bound does not fall below the maximum found (the supremum is too close to the "
        f"tail limit {mp.nstr(limit, 8)})")


def _runs(mask):
    """Maximal runs [i, j] of True in a boolean array."""
    out, i, n = [], 0, len(mask)
    while i < n:
        if mask[i]:
            j = i
            while j + 1 < n and mask[j + 1]:
                j += 1
            out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


def _search(P, *, T=None, points=None, refine=True):
    """Certified supremum of L on [0, inf) for 0 < alpha < 1, lam < theta (items 5, 6).

    Returns the fields of a :class:`arete_proofs.privacy.tight.TightEpsilon` as a dict.
    """
    digits = P.digits
    limit = P.shift / P.theta
    # --- float64 estimate of the maximum (dense grid) to size the tolerance and T
    th = P.thf
    grid = np.unique(np.concatenate([[0.0], th * np.geomspace(1e-300, 1e-2, 120),
                                     th * np.linspace(1e-2, 8, 400)]))
    l, m, _, _ = P.fvals(grid)
    L_est = float(np.max(l - m))
    if not L_est > 0:
        raise PrecisionError("the float64 estimate of the privacy loss is not positive")
    extra = max(0, math.ceil(-math.log10(L_est)))
    dd_f = digits + 4 + extra
    tol = mp.mpf(10) ** -digits * mp.mpf(L_est) * mp.mpf("0.45")
    if T is None:
        T = _choose_T(P, L_est, float(limit))
    T = float(T)
    # --- float64 branch and bound: where to put the cells
    if points is None:
        pts_f = _float_phase(P, T, float(tol))
    else:
        pts_f = np.unique(np.asarray([float(x) for x in points], dtype=float))
    if len(pts_f) > _MAX_ENGINE_POINTS:
        raise PrecisionError(
            f"privacy-loss search: the float64 phase placed {len(pts_f)} cells (limit {_MAX_ENGINE_POINTS}); "
            f"the loss curve is too steep on the scale of theta = {mp.nstr(P.theta, 5)} "
            f"(Delta/theta = {mp.nstr(P.shift / P.theta, 5)}, Delta/lam = {mp.nstr(P.shift / P.lam, 5)})")
    pts = [mp.mpf(float(x)) for x in pts_f]
    # --- engine tier 1: the whole cover at _COARSE_DIGITS (or the final precision)
    dd_c = min(_COARSE_DIGITS, dd_f)
    num = _Num(True)
    S = _tail_setup(P)
    def allowance(dd, T):
        """|error of a stored l value|: the engine's 10^-dd relative error, plus the rounding of
        p + shift to the engine's parse precision dd + 40 (l is 1/lam-Lipschitz)."""
        with mp.workdps(dd + 20):
            return mp.mpf(10) ** -dd * mp.mpf("1.001") + mp.mpf(10) ** -(dd + 38) * (mp.mpf(T) + P.shift) / P.lam

    e_c = allowance(dd_c, T * 1.5**24)  # the tail loop below may extend the cover up to 1.5^24 T
    final_is_coarse = dd_c == dd_f
    with mp.workdps(dd_c + 20):
        w = _Window(_obj(pts), P.evals(pts, dd_c))
        count = lambda: P.evaluations  # noqa: E731
        tb = None
        for _attempt in range(12):
            L_lo = np.max(w.L if w.L is not None else (w.l - w.m)) - 2 * e_c
            tb = _tail_bound(P, w.p[-1], S)
            if tb < L_lo:
                break
            # extend the cover: the tail bound is not yet below the best value
            newT = [w.p[-1] * mp.mpf(1.5) ** k for k in (1, 2)]
            w.insert(_obj(newT), P.evals(newT, dd_c))
        else:
            raise PrecisionError("the tail bound does not fall below the maximum found")
        defer = 0 if final_is_coarse else _DEFER * e_c
        L_lo_c = _bnb([w], lambda q: P.evals(q, dd_c), e=e_c, lam=P.lam, tol=tol, defer=defer, L_ext=None,
                      num=num, strict=True, max_rounds=_MAX_ROUNDS, budget=_MAX_ENGINE_POINTS, count=count,
                      precision_digits=dd_c)
        U_c, req = w.U, w.req()
        done_c = req & num.b(U_c <= L_lo_c + tol)
        upper = max(U_c[done_c]) if done_c.any() else mp.ninf
        best_i = int(np.argmax(w.L))
        best_t, best_L = w.p[best_i], w.L[best_i]
        if final_is_coarse and refine:
            best_t, best_L = _polish(P, w, best_i, dd_c, e_c)
        cells = int(done_c.sum())
        deferred = req & ~done_c
    e_f = e_c
    windows = []
    if not final_is_coarse and deferred.any():
        e_f = allowance(dd_f, w.p[-1])
        n = len(w.p)
        with mp.workdps(dd_f + 20):
            for i, j in _runs(deferred):
                lo, hi = max(i - 1, 0), min(j + 2, n - 1)
                q = [w.p[k] for k in range(lo, hi + 1)]
                windows.append(_Window(_obj(q), P.evals(q, dd_f), req_first=(lo == i), req_last=(hi == j + 1)))
            _bnb(windows, lambda q: P.evals(q, dd_f), e=e_f, lam=P.lam, tol=tol, defer=0, L_ext=L_lo_c,
                          num=num, strict=True, max_rounds=_MAX_ROUNDS, budget=_MAX_ENGINE_POINTS, count=count,
                          precision_digits=dd_f)
            for win in windows:
                r = win.req()
                upper = max(upper, max(win.U[r]))
                cells += int(r.sum())
            wbest = max(windows, key=lambda x: np.max(x.L))
            k = int(np.argmax(wbest.L))
            tf, Lf = wbest.p[k], wbest.L[k]
            if refine:
                tf, Lf = _polish(P, wbest, k, dd_f, e_f)
            if tf != best_t:  # the coarse best point may lie in a cell finished at coarse precision
                Lc = P.engine_L(best_t, dd_f)
                if Lf >= Lc:
                    best_t = tf
    # --- the value at the best point, at two precisions
    with mp.workdps(dd_f + 30):
        v1 = P.engine_L(best_t, dd_f)
        v2 = P.engine_L(best_t, dd_f + 10)
        e2 = mp.mpf(10) ** -(dd_f + 10) * mp.mpf("1.001")
        if abs(v1 - v2) > 2 * e_f + 2 * e2:
            raise PrecisionError("the privacy loss at the maximiser disagrees between two precisions")
        lower = v2 - 2 * e2
        upper = max(upper, lower)
        width = upper - lower
        if width > mp.mpf(10) ** -digits * lower:
            raise PrecisionError(
                f"certified bracket too wide: [{mp.nstr(lower, digits + 3)}, {mp.nstr(upper, digits + 3)}]")
        achieved = float(-mp.log10(width / lower)) if width > 0 else float("inf")
    # returned unrounded (working precision dd_f + 30): lower_bound <= epsilon <= upper_bound exactly
    with mp.workdps(digits + GUARD_DIGITS):
        return dict(
            epsilon=v2, t_star=best_t, digits=digits, evaluations=P.evaluations, tail_limit=+limit,
            lower_bound=lower, upper_bound=upper, attained=True, method="search", search_end=+w.p[-1],
            tail_bound=+tb, cells=cells, achieved_digits=achieved,
            cover=tuple(sorted(set(w.p) | {x for win in windows for x in win.p})))


def _polish(P, win, k, dd, e):
    """A few parabolic steps around the best point (improves t_star; the cover stays valid)."""
    best_t, best_L = win.p[k], win.L[k]
    pts = list(win.p)
    Ls = list(win.L)
    for _ in range(4):
        if k == 0 or k == len(pts) - 1:
            break
        x0, x1, x2 = pts[k - 1], pts[k], pts[k + 1]
        y0, y1, y2 = Ls[k - 1], Ls[k], Ls[k + 1]
        den = (x1 - x0) * (y1 - y2) - (x1 - x2) * (y1 - y0)
        if den == 0:
            break
        xv = x1 - ((x1 - x0) ** 2 * (y1 - y2) - (x1 - x2) ** 2 * (y1 - y0)) / (2 * den)
        if not (x0 < xv < x2) or abs(xv - x1) <= mp.mpf(10) ** -(dd + 5) * abs(x1):
            break
        yv = P.engine_L(xv, dd)
        j = k + 1 if xv > x1 else k
        pts.insert(j, xv)
        Ls.insert(j, yv)
        k = int(np.argmax(np.asarray(Ls, dtype=object)))
        if Ls[k] - best_L <= e:
            best_t, best_L = pts[k], Ls[k]
            break
        best_t, best_L = pts[k], Ls[k]
    return best_t, best_L
