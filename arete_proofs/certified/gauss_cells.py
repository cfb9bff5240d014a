r"""The cells of the ``lattice_gauss`` cover (:mod:`arete_proofs.certified.combs_gauss`): second-order bounds of
:math:`G` over a cell, and the dip cells, where the window minimum of :math:`G` can lie, with their lower bounds.

A dip cell :math:`J` has :math:`0 \in G'(J)` and :math:`\sup G''(J) \ge 0`.  Its Taylor lower bound
``_qmin`` (:math:`G(c) + G'(c)s + \underline{G''(J)}s^2/2` at the ends of :math:`G'(c)`'s ball, or at the
parabola's vertex) holds without refinement; a convex cell is refined at a Newton point
(:math:`G(v') - G'(v')^2/(2\underline{G''(J)})`), the others by bisection, every dip cell (``"all"``) or
only while nearby t-cells could need it (``"lazy"``: ``DipCells._dip_targets``).

>>> from fractions import Fraction
>>> from flint import arb
>>> _qmin(arb(0), arb(0), arb(2), Fraction(1, 2)) <= 0.0       # min of x^2 over |x| <= 1/2 is 0
True
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from fractions import Fraction

from .comb_balls import _ball

_BALLS = {}


def _bq(q):
    """``_ball(q)`` cached (the cell half-widths repeat)."""
    b = _BALLS.get(q)
    if b is None:
        if len(_BALLS) > 4096:
            _BALLS.clear()
        b = _BALLS[q] = _ball(q)
    return b


def _down(x):
    v = float(x.lower())
    return -math.inf if math.isnan(v) else math.nextafter(v, -math.inf)


def _up(x):
    v = float(x.upper())
    return math.inf if math.isnan(v) else math.nextafter(v, math.inf)


def _cell_G(lam, F, F1, F2, M3, c, d, S=None):
    """(G(c), G'(c), G''(I)) for the cell of centre c (exact Fraction or a ball containing it), half-width d (exact);
    ``S``: the balls ([-d, d], [0, d^2/2]) when the caller has them (a grid's cells share d)."""
    if S is None:
        D = _bq(d)
        S = (-D).union(D), (D - D).union(D * D / 2)
    S, S2 = S
    F2I = F2 + M3 * S
    F1I = F1 + F2I * S
    FI = F + F1 * S + F2I * S2
    r1 = F1I / FI
    c = c if not isinstance(c, Fraction) else _ball(c)
    return F.log() - lam * c, F1 / F - lam, F2I / FI - r1 * r1


def _qmax(v, s, K, d):
    """Upper bound of v + s x + K x^2/2 over |x| <= d (balls; the module docstring of ``combs_gauss``)."""
    Ku = K.upper()
    D = d if not isinstance(d, Fraction) else _bq(d)
    inc = abs(s) * D
    if Ku < 0:
        inc2 = s * s / (2 * (-Ku))
        return min(_up(v + inc), _up(v + inc2))
    return _up(v + inc + Ku * D * D / 2)


def _qmin(v, s, K, dl, dr=None):
    """Lower bound of v + s x + K x^2/2 over -dl <= x <= dr (balls): linear in s, so its two ends."""
    dr = dl if dr is None else dr
    Kl = K.lower()
    L, Rr = _bq(dl), _bq(dr)
    out = math.inf
    for se in (s.lower(), s.upper()):
        cands = [-se * L + Kl * L * L / 2, se * Rr + Kl * Rr * Rr / 2]
        if Kl > 0:
            xs = -se / Kl
            if not (xs < -L or xs > Rr):
                cands.append(-se * se / (2 * Kl))
        out = min(out, min(_down(v + c) for c in cands))
    return out


class DipCells:
    """The dip cells of a cover (a mixin of ``combs_gauss._Cover``: it uses the cover's grid, direct evaluation and
    Newton guide)."""

    # -- dips --------------------------------------------------------------------------------------------
    def _dips(self, lazy=False):
        """The dip cells of the grid and their lower bounds (``lows``) and upper values at points (``vup``).

        ``lazy=False``: every non-convex dip cell is bisected (to depth 12) and every convex one refined at a Newton
        point.  ``lazy=True`` (:meth:`_dip_targets`): a dip cell is refined only while its Taylor lower bound is below
        the level the t-cells within ``Du`` of it could need; every bound kept is valid either way."""
        N, d = self.N, Fraction(1, 2 * self.N)
        G = self._grid(Fraction(0))
        convex, other = [], []
        D = _bq(d)
        for i, (g0, g1, g2) in enumerate(G):
            if not (g1 + g2 * (-D).union(D)).contains(0) or g2.upper() < 0:
                continue
            j, r = divmod(i, N)
            x0 = self.ja + j + Fraction(r, N)
            (convex if g2.lower() > 0 else other).append((x0, x0 + 2 * d, g0, g1, g2))
        if lazy:
            return self._dips_lazy(convex + other)
        depth = 0
        while other:   # bisect non-convex dip cells
            depth += 1
            if self.progress and len(other) > 20000:
                self.progress(f"{self.label}: dip level {depth}: bisecting {len(other)} non-convex dip cells")
            nxt = []
            for x0, x1, g0, g1, g2 in other:
                if depth > 12:
                    convex.append((x0, x1, g0, g1, g2))
                    continue
                nxt.extend(self._halves(x0, x1))
            other = []
            for c in nxt:
                (convex if c[4].lower() > 0 else other).append(c)
        convex.sort(key=lambda c: c[0])
        # refine: a Newton point v' per convex cell, the lower bound G(v') - G'(v')^2 / (2 inf G'')
        mids = [float((c[0] + c[1]) / 2) for c in convex]
        vs = self._newton(mids, [float(c[0]) for c in convex], [float(c[1]) for c in convex]) if convex else []
        out = []
        for (x0, x1, g0, g1, g2), v in zip(convex, vs):
            low = _qmin(g0, g1, g2, (x1 - x0) / 2)
            cv, up = (x0 + x1) / 2, _up(g0)
            if g2.lower() > 0 and float(g0.mid()) - low > self.tol / 64:
                low, cv, up = self._newton_low(x0, x1, g2, v, low)
            out.append((x0, x1, low, cv, up))
        self._set_dips(out)

    def _halves(self, x0, x1):
        """The halves of [x0, x1] that are still dip cells (0 in G', sup G'' >= 0), with (G(c), G'(c), G''(I))."""
        m = (x0 + x1) / 2
        out = []
        for a, b in ((x0, m), (m, x1)):
            h0, h1, h2 = self._direct(a, b)
            D = _bq((b - a) / 2)
            if not (h1 + h2 * (-D).union(D)).contains(0) or h2.upper() < 0:   # (not ``>= 0``: a nan upper end,
                continue                                                       # an unbounded ball, keeps the cell)
            out.append((a, b, h0, h1, h2))
        return out

    def _newton_low(self, x0, x1, g2, v, low):
        """(low, point, G(point) upper) at the float Newton point v clipped to [x0, x1]: max(low, the Taylor lower
        bound of G over the cell from v', one-sided widths) (convex cells: inf G'' > 0)."""
        vq = min(max(Fraction(float(v)), x0), x1)
        h0, h1, _ = self._direct(vq, vq)
        return max(low, _qmin(h0, h1, g2, vq - x0, x1 - vq)), vq, _up(h0)

    def _set_dips(self, out):
        """Store the dip cells (x0, x1, low, point, G(point) upper), sorted by start (they are disjoint, so the ends
        are sorted too, as the searches of :meth:`_dip_low` need)."""
        out.sort(key=lambda c: c[0])
        self.starts = [c[0] for c in out]
        self.ends = [c[1] for c in out]
        self.lows = [c[2] for c in out]
        self.vpos = [c[3] for c in out]
        self.vup = [c[4] for c in out]
        self.starts_f = [float(x) for x in self.starts]
        self.ends_f = [float(x) for x in self.ends]
        self.vpos_f = [float(x) for x in self.vpos]

    def _dip_targets(self):
        """(need(x0, x1) -> level, estimate): a float estimate ``est`` <= eps* of the cover (grid centres, samples of
        G at real points, so it is a lower value up to rounding) and, for a dip cell, the level its lower bound must
        reach, max over the t-cells I within Du of it of sup_I G (float bound) - est - tol/4.  Only the amount of
        refinement depends on these: a dip lower bound is valid refined or not."""
        import numpy as np

        from .intervals import qmax, range_min

        N = self.N
        i_lo, i_hi, sp, sm = self._t_range()
        i = np.arange(i_lo, i_hi)
        (g0, g0h), (s0, s0h), (k0, k0h) = self._fgrid(Fraction(0))
        (gp, gph), _, _ = self._fgrid(self.op)
        (gm, gmh), _, _ = self._fgrid(self.om)
        with np.errstate(invalid="ignore"):      # an unbounded ball gives -inf + inf: nan, filtered below
            mid0 = (g0 + g0h) / 2
            midp, midm = (gp + gph) / 2, (gm + gmh) / 2
        # G at the centres within the window (|j|/N <= floor(Du)) and at t +- Du
        w = self.fl * N
        wmin = range_min(np.where(np.isfinite(mid0), mid0, np.inf), i - w, i + w + 1)
        est_t = mid0[i] - np.minimum(np.minimum(midp[i + sp], midm[i - sm]), wmin)
        est_t = est_t[np.isfinite(est_t)]
        est = float(np.max(est_t)) if len(est_t) else -math.inf
        gup = qmax(g0h[i], s0[i], s0h[i], k0h[i], Fraction(1, 2 * N))
        neg = np.where(np.isfinite(gup), -gup, -np.inf)
        ja, Duf, tol = self.ja, self.Duf, self.tol
        # the loss the cover may reach: its estimate plus a quarter tolerance, or its goal when that is higher
        afford = max(est + tol / 4, getattr(self, "goal", -math.inf))

        def need(cells):
            """Levels for a list of (x0, x1) (floats), one range query each."""
            if not cells:
                return np.zeros(0)
            x0 = np.array([c[0] for c in cells], dtype=float)
            x1 = np.array([c[1] for c in cells], dtype=float)
            a = np.floor((x0 - Duf - ja) * N).astype(np.int64) - 1 - i_lo
            b = np.ceil((x1 + Duf - ja) * N).astype(np.int64) + 2 - i_lo
            return -range_min(neg, a, b) - afford

        return need, est

    def _dips_lazy(self, cells):
        """Lazy refinement (:meth:`_dips`): per level, the cells whose lower bound is below their level get a Newton
        point (convex cells) or are bisected (the others; at most 12 levels, then kept as they are)."""
        need, self.est = self._dip_targets()
        # ``capped`` (dips="capped"): never ask more of a cell than its centre value less tol/8.  The level above uses
        # the t-cells' float *bound* sup_I G, which exceeds G by the cell's slope, |G'| d: where the loss is near its
        # top (the comb's centre) that excess is above tol/4, the level above min G(J), and every such cell was
        # bisected to depth 12 (doubling per level: 9600 cells at m = 1085 became a million by depth 7).  With the
        # cap the dip cells stop within tol/8 of their centre and the t-cells near the top are bisected instead.
        cap = getattr(self, "dip_cap", False)
        out, queue, depth = [], cells, 0
        self.dip_stats = {"cells": len(cells), "newton": 0, "bisected": 0}
        while queue:
            lows = [_qmin(g0, g1, g2, (x1 - x0) / 2) for x0, x1, g0, g1, g2 in queue]
            conv, bis = [], []   # the cells below their level: convex (a Newton point) or not (bisected)
            for c, low, level in zip(queue, lows, need([(float(c[0]), float(c[1])) for c in queue])):
                if cap:
                    level = min(level, float(c[2].mid()) - self.tol / 8)
                if not low < level:
                    out.append((c[0], c[1], low, (c[0] + c[1]) / 2, _up(c[2])))
                else:
                    (conv if c[4].lower() > 0 else bis).append((c, low))
            if self.progress and len(queue) > 20000:    # long levels say what they are doing
                self.progress(f"{self.label}: dip level {depth}: {len(queue)} cells, {len(conv) + len(bis)} below "
                              f"their level ({len(conv)} of them convex: a Newton point; the others bisected)")
            if conv:
                vs = self._newton([float((c[0] + c[1]) / 2) for c, _ in conv], [float(c[0]) for c, _ in conv],
                                  [float(c[1]) for c, _ in conv])
                self.dip_stats["newton"] += len(conv)
                for ((x0, x1, g0, g1, g2), low), v in zip(conv, vs):
                    out.append((x0, x1) + self._newton_low(x0, x1, g2, v, low))
            depth += 1
            queue = []
            for (x0, x1, g0, g1, g2), low in bis:
                if depth > 12:
                    out.append((x0, x1, low, (x0 + x1) / 2, _up(g0)))
                    continue
                self.dip_stats["bisected"] += 1
                queue.extend(self._halves(x0, x1))
        if self.progress:
            st = self.dip_stats
            self.progress(f"{self.label}: {st['cells']} dip cells, {st['newton']} refined at a Newton point, "
                          f"{st['bisected']} bisected (lazy; estimate {self.est:.10g})")
        self._set_dips(out)

    def _dip_low(self, a, b):
        """min of the dip lower bounds over dip cells meeting [a, b]; float search lists widened by a
        relative 1e-9 (more cells only lower the min, so the bound stays valid)."""
        af, bf = float(a), float(b)
        sl = 1e-9 * (1 + abs(af) + abs(bf))
        i, j = bisect_left(self.ends_f, af - sl), bisect_right(self.starts_f, bf + sl)
        return min(self.lows[i:j], default=math.inf)

    def _dip_up(self, a, b):
        """min of the upper values G(v') over dip points v' in [a, b] (the float range shrunk: fewer
        candidates only raise the min, so the lower value stays valid)."""
        af, bf = float(a), float(b)
        sl = 1e-9 * (1 + abs(af) + abs(bf))
        i, j = bisect_left(self.vpos_f, af + sl), bisect_right(self.vpos_f, bf - sl)
        return min(self.vup[i:j], default=math.inf)
