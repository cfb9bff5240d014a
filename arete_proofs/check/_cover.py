r"""The second-order cover of a lattice law smoothed by a Gaussian: every cell's bound, re-derived.

In lattice units (:math:`\beta = h^2/\sigma^2`, :math:`\lambda` the comb's tilt, :math:`q_k \ge 0` its tilted pmf)

.. math::

   \ln f(hu) = G(u) + \mathrm{const},\quad G(u) = \ln F(u) - \lambda u,\quad
   F(u) = \sum_k q_k\,\psi(u - k),\quad \psi(x) = e^{\lambda x - \beta x^2/2},

:math:`\psi' = y\psi`, :math:`\psi'' = (y^2 - \beta)\psi`, :math:`\psi''' = (y^3 - 3\beta y)\psi`,
:math:`y = \lambda - \beta x`.  A cell :math:`I = [c - d, c + d]` of a grid with :math:`N` (a power of two) cells
per lattice step has :math:`F, F', F''` at :math:`c` and :math:`M_3 \ge \sup_I |F'''|` from the :math:`2R` nearest
:math:`k` (four convolutions of :math:`q` with kernel samples computed in ``arb``; Fact 2 of :mod:`._iv` bounds
their rounding) plus the other terms, at most :math:`4 C_{\max}\,\mathrm{term}(R-1)`,
:math:`\mathrm{term}(x) = (\lambda + \beta x + \sqrt{3\beta} + 1)^3 e^{\lambda x - \beta x^2/2}` (each term beyond is at
most half the previous one when :math:`8 e^{\lambda - \beta(R-1)} \le 1/2`, :math:`R - 1 \ge \max(1, \lambda/\beta)`).
Then :math:`F''(I) \subset F''(c) + M_3[-d, d]`, :math:`F'(I) \subset F'(c) + F''(I)[-d,d]`,
:math:`F(I) \subset F(c) + F'(c)[-d,d] + F''(I)[0, d^2/2]`, :math:`M \ge \sup_I |G^{(3)}|` from
:math:`G^{(3)} = F^{(3)}/F - 3(F'/F)(F''/F) + 2(F'/F)^3` over :math:`I`, and by Taylor at the centre, for
:math:`|s| \le d`,

.. math::

   G(c+s) \le G(c) + |G'(c)|d + \max(\overline{G''(c)}, 0)\,d^2/2 + Md^3/6,\qquad\text{and}
   \le G(c) + G'(c)^2/(2|\overline{G''(c)}|) + Md^3/6 \text{ when } \overline{G''(c)} < 0

(``qmax``); the lower bound ``qmin`` is the mirror image.  The same for :math:`g_\pm(u) = G(u) - G(u \pm D)`.

**The loss of a cell** (:math:`D` the shift in lattice units, an integer).  For :math:`u \in I` the minimum of
:math:`G` on :math:`[u - D, u + D]` is at an end or at a local minimum :math:`v^*` (:math:`G'(v^*) = 0 \le G''(v^*)`),
which lies in a cell :math:`J` of the partition with :math:`0 \in G'(J)` and :math:`\overline{G''(J)} \ge 0` (a *dip*).
Hence

.. math::

   \sup_{u \in I,\ |v - u| \le D} G(u) - G(v) \le \max\Big(\overline{g_+(I)},\ \overline{g_-(I)},\
   \overline{G(I)} - \min_{J \text{ dip},\ J \cap [c - d - D,\ c + d + D] \ne \emptyset} \underline{G(J)}\Big).

The partition is a base grid of :math:`N_0` cells per step with *zones* ``[A, B, N]`` (recorded by the search) where
the cells are finer; a zone's cells at :math:`\pm D` are evaluated on the same finer grid.

>>> from fractions import Fraction as Q
>>> import numpy as np
>>> law = Law(lambda k: (np.full(len(k), 1.0), np.full(len(k), 1.0)), Q(0), Q(4), R=6, cmax=1.0)   # q_k = 1
>>> (G0, G1, G2, M), c = law.grid(16, 0, 2)
>>> bool(np.allclose(G0[1][:16], G0[1][16:], rtol=0, atol=1e-12))   # q_k = 1, lambda = 0: G is 1-periodic
True
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from . import _iv
from ._arb import ball, prec


class Law:
    """q_k enclosures (``qfun(ks) -> (lo, hi)``), lambda and beta (exact), truncation R, C_max (q_k <= C_max)."""

    def __init__(self, qfun, lam, beta, R, cmax, kernels=None, even=False):
        self.qfun, self.lam, self.beta, self.R, self.cmax = qfun, Fraction(lam), Fraction(beta), int(R), cmax
        self.even = even     # f even: G(-u) = G(u), so a cell at u < 0 is its mirror image (F is small there)
        self._kern = {} if kernels is None else kernels     # shared by laws with the same lambda, beta, R
        with prec(128):
            la, be = ball(self.lam), ball(self.beta)
            self.lam_f, self.beta_f = _iv.of_arb(la), _iv.of_arb(be)
            x = ball(R - 1)
            ok = (8 * (la - be * x).exp()).upper() <= 0.5 and R - 1 >= 1 and x >= la / be
            term = (la + be * x + (3 * be).sqrt() + 1) ** 3 * (x * (la - be * x / 2)).exp()
            self.trunc = float(_iv.up(np.float64(4 * cmax) * _iv.of_arb(term)[1])) if ok else math.inf

    def kernel(self, N):
        """(midpoints, radii) of psi, psi', psi'' at x = dd + (2r+1)/(2N) and of sup of ``|psi'''|`` over the cell x +- d,
        for r < N, dd in [-R, R): arrays [quantity, r, dd + R], in float intervals (``_iv.exp``)."""
        if N not in self._kern:
            R, d = self.R, 1.0 / (2 * N)
            x = np.arange(-R, R)[None, :] + (2 * np.arange(N)[:, None] + 1) / (2 * N)     # exact dyadics
            la, be = self.lam_f, self.beta_f
            X = (x, x)
            y = _iv.sub(la, _iv.mul(be, X))
            z = _iv.sub(_iv.mul(la, X), _iv.mul(be, (x * x / 2, x * x / 2)))                # x^2/2 exact
            p = _iv.exp(z)
            p1 = _iv.mul(y, p)
            p2 = _iv.mul(_iv.sub(_iv.sq(y), be), p)
            B = (x - d, x + d)                                                              # the cell, exact
            Y = _iv.sub(la, _iv.mul(be, B))
            zB = _iv.sub(_iv.mul(la, B), _iv.mul(be, _iv.mul(_iv.sq(B), (0.5, 0.5))))
            m3 = _iv.mag(_iv.mul(_iv.sub(_iv.mul(_iv.sq(Y), Y), _iv.mul((3.0, 3.0), _iv.mul(be, Y))), _iv.exp(zB)))
            mid = np.array([(q[0] + q[1]) / 2 for q in (p, p1, p2)] + [m3])
            rad = np.array([_iv.up(q[1] - q[0]) for q in (p, p1, p2)] + [np.zeros_like(m3)])
            if not (np.all(np.isfinite(mid)) and np.all(np.isfinite(rad))):
                raise ValueError("a kernel sample is not finite")
            self._kern[N] = (mid, rad)
        return self._kern[N]

    def grid(self, N, j0, j1=None):
        r"""Interval arrays for the cells of the lattice steps ``j0 <= j < j1`` (or of the integer array ``j0``), N per
        step, index i N + r: ``(G(c), G'(c), G''(c), M)`` -- the first three as pairs (lo, hi) at the centre, ``M`` an
        upper bound of :math:`|G^{(3)}|` on the cell -- and the centres (exact floats).

        Each of :math:`F, F', F'', M_3` is a matrix product (kernel samples by the :math:`2R` gathered :math:`q`), whose
        rounding Fact 2 of :mod:`._iv` bounds: :math:`|\hat F - F| \le \sum (|\hat q - q|(|\hat K| + r_K) + |\hat q|
        r_K) + \gamma \sum |\hat q||\hat K|` (:math:`r_K` the kernel intervals' half-widths)."""
        R, (K, Kr) = self.R, self.kernel(N)
        js = np.arange(j0, j1) if j1 is not None else np.asarray(j0, dtype=np.int64)
        if self.even and (js < 0).any():
            neg = js < 0
            (G0, G1, G2, M), _ = self.grid(N, np.where(neg, -js - 1, js))
            flip = lambda x: np.where(neg[:, None], x.reshape(-1, N)[:, ::-1], x.reshape(-1, N)).reshape(-1)
            G0, G2 = [tuple(flip(x) for x in X) for X in (G0, G2)]
            G1 = (np.where(np.repeat(neg, N), -flip(G1[1]), flip(G1[0])),
                  np.where(np.repeat(neg, N), -flip(G1[0]), flip(G1[1])))
            c = (js[:, None] + (2 * np.arange(N)[None, :] + 1) / (2 * N)).reshape(-1)
            return (G0, G1, G2, flip(M)), c
        dd = np.arange(-R, R)
        ks = js[None, :] - dd[:, None]                    # (2R, n): q_{j - dd}
        qlo, qhi = self.qfun(ks.reshape(-1))
        qm = ((qlo + qhi) / 2).reshape(ks.shape)
        qe = _iv.up(qhi - qlo).reshape(ks.shape)
        n = len(js)
        g = _iv.gamma(2 * R + 2)
        tr = self.trunc
        out = []
        aq = np.abs(qm)
        for w in range(4):
            k = K[w]                                      # (N, 2R)
            ka = np.abs(k)
            v = k @ qm
            a = v if w in (0, 3) else ka @ aq
            b = (ka + Kr[w]) @ qe + Kr[w] @ aq            # |q - qm| |K| + |qm| |K - Km|, both bounded
            err = _iv.up((b + g * a) * (1 + 4 * g) + 2 * R * _iv.TINY)
            hi = _iv.up(_iv.up(v + err) + tr).T.reshape(-1)
            lo = np.zeros(n * N) if w == 3 else _iv.dn(_iv.dn(v - err) - tr).T.reshape(-1)
            out.append((lo, hi))
        F, F1, F2, M3 = out
        d = 1.0 / (2 * N)                               # exact: N a power of two
        Dd = (np.float64(-d), np.float64(d))
        F2I = _iv.add(F2, _iv.mul(M3, Dd))
        F1I = _iv.add(F1, _iv.mul(F2I, Dd))
        FI = _iv.add(_iv.add(F, _iv.mul(F1, Dd)), _iv.mul(F2I, (np.float64(0.0), np.float64(d * d / 2))))
        c = (js[:, None] + (2 * np.arange(N)[None, :] + 1) / (2 * N)).reshape(-1)
        lc = _iv.mul((c, c), self.lam_f)
        G0 = _iv.sub(_iv.log(*F), lc)
        r1 = _iv.div(F1, F)
        G1 = _iv.sub(r1, (np.float64(self.lam_f[0]), np.float64(self.lam_f[1])))
        G2 = _iv.sub(_iv.div(F2, F), _iv.sq(r1))
        # |G^(3)| on the cell: G^(3) = F^(3)/F - 3 (F'/F)(F''/F) + 2 (F'/F)^3, F', F'', F^(3) over the cell
        r1, r2, r3 = _iv.div(F1I, FI), _iv.div(F2I, FI), _iv.div((-M3[1], M3[1]), FI)
        G3 = _iv.add(_iv.sub(r3, _iv.mul((3.0, 3.0), _iv.mul(r1, r2))), _iv.mul((2.0, 2.0), _iv.mul(_iv.sq(r1), r1)))
        return (G0, G1, G2, _iv.mag(G3)), c


def qmax(v, s, K, d):
    r"""Upper bound of :math:`v + s x + K x^2/2` over :math:`|x| \le d`, :math:`v, s, K` intervals (module docstring)."""
    S = _iv.mag(s)
    inc = _iv.up(v[1] + _iv.up(S * d))
    kh = K[1]
    gen = _iv.up(inc + _iv.up(np.maximum(kh, 0.0) * (d * d / 2)))
    with np.errstate(divide="ignore", invalid="ignore"):
        peak = _iv.up(v[1] + _iv.up(_iv.up(S * S) / _iv.dn(-2.0 * kh)))
    out = np.where(kh < 0, np.minimum(inc, peak), gen)
    return np.where(np.isnan(out), np.inf, out)


def qmin(v, s, K, d):
    r"""Lower bound of :math:`v + s x + K x^2/2` over :math:`|x| \le d`: the vertex value when it can lie inside."""
    S = _iv.mag(s)
    kl = K[0]
    end = _iv.dn(_iv.dn(kl * (d * d / 2)) - _iv.up(S * d))
    with np.errstate(divide="ignore", invalid="ignore"):
        vert = -_iv.up(_iv.up(S * S) / _iv.dn(2.0 * kl))
        inside = (kl > 0) & (S <= _iv.up(kl * d) * (1 + 1e-9))
    out = _iv.dn(v[0] + np.where(inside, vert, end))
    return np.where(np.isnan(out), -np.inf, out)


def _cube(M, d):
    """Upper bound of M d^3/6, the Taylor remainder on a cell where the third derivative is at most M."""
    return _iv.up(_iv.up(M * (d * d * d)) / 6)


def top(G, d):
    """Upper bound of G over each cell: second order at the centre plus M d^3/6."""
    return _iv.up(qmax(G[0], G[1], G[2], d) + _cube(G[3], d))


def dips(G, d):
    r"""Mask of the dip cells (:math:`0 \in G'(J) \subset G'(c) + G''(c)[-d, d] + M[-d^2/2, d^2/2]` and
    :math:`\sup G''(J) \le G''(c) + Md` not negative, or undefined) and their lower bounds (``qmin`` less
    :math:`Md^3/6`)."""
    G0, G1, G2, M = G
    w = _iv.up(_iv.up(M * (d * d)) / 2)
    G1I = _iv.add(_iv.add(G1, _iv.mul(G2, (np.float64(-d), np.float64(d)))), (-w, w))
    mask = ~((G1I[0] > 0) | (G1I[1] < 0) | (_iv.up(G2[1] + _iv.up(M * d)) < 0))     # not proved free of a minimum
    return mask, _iv.dn(qmin(G0, G1, G2, d) - _cube(M, d))


def shifted(G, H, d):
    """Upper bound of g(u) = G(u) - G(u + shift) on each cell (G and H: the cells and their shifted copies)."""
    v = _iv.sub(G[0], H[0])
    s = _iv.sub(G[1], H[1])
    K = _iv.sub(G[2], H[2])
    return _iv.up(qmax(v, s, K, d) + _cube(_iv.up(G[3] + H[3]), d))


def loss(law, D, U, N0, zones, progress=None, level=None):
    r"""Upper bound of :math:`\sup_{u \in [0, U],\ |v-u| \le D} G(u) - G(v)` over the partition (module docstring).

    ``D``, ``U``: integers (lattice steps); ``zones``: sorted disjoint ``(A, B, N)`` with integers
    :math:`-D - 1 \le A < B \le U + D + 1` and ``N`` a power of two.  Returns ``(bound, cells, over)``: ``over``,
    for the search only, the lattice steps of the t-cells whose bound exceeds ``level`` and of the dips that set it."""
    sub = lambda X, idx: tuple((a[idx], b[idx]) for a, b in X[:3]) + (X[3][idx],)
    j0, j1 = -D - 1, U + D + 1
    (G, c) = law.grid(N0, j0, j1)
    d0 = 1.0 / (2 * N0)
    inzone = np.zeros(len(c), dtype=bool)
    for A, B, _ in zones:
        inzone[(A - j0) * N0:(B - j0) * N0] = True
    # dips: base cells outside the zones, and the zones' cells
    dmask, dlow = dips(G, d0)
    keep = dmask & ~inzone
    starts, ends, lows = [c[keep] - d0], [c[keep] + d0], [dlow[keep]]
    zone_grids = {}                                       # N -> (steps, G, centres): each zone's own and shifted steps
    for N in sorted({z[2] for z in zones}):
        own = [np.arange(A, B) for A, B, n in zones if n == N]
        sh = [np.arange(max(A, 0), min(B, U)) + e for A, B, n in zones if n == N for e in (D, -D)]
        js = np.unique(np.concatenate(own + sh))
        Gz, cz = law.grid(N, js)
        zone_grids[N] = (js, Gz, cz)
        ownj = np.concatenate(own)
        idx = (np.searchsorted(js, ownj)[:, None] * N + np.arange(N)[None, :]).reshape(-1)
        dz = 1.0 / (2 * N)
        m, lw = dips(sub(Gz, idx), dz)
        starts.append(cz[idx][m] - dz)
        ends.append(cz[idx][m] + dz)
        lows.append(lw[m])
    starts, ends, lows = (np.concatenate(x) for x in (starts, ends, lows))
    order = np.argsort(starts, kind="stable")
    starts, ends, lows = starts[order], ends[order], lows[order]

    over = set()

    def bound(Gt, Gp, Gm, ct, d):
        up_ = shifted(Gt, Gp, d)
        um_ = shifted(Gt, Gm, d)
        tp = top(Gt, d)
        i = np.searchsorted(ends, ct - d - D, "left")
        j = np.searchsorted(starts, ct + d + D, "right")
        low = _iv.range_min(lows, i, j)
        dipb = np.where(np.isfinite(low), _iv.up(tp - low), np.where(low == np.inf, -np.inf, np.inf))
        b = np.maximum(np.maximum(up_, um_), dipb)
        b = np.where(np.isnan(b), np.inf, b)         # an undefined bound proves nothing
        if level is not None:
            bad = np.nonzero(b > level)[0]
            over.update(np.floor(ct[bad]).astype(int).tolist())
            for k in bad[dipb[bad] > level].tolist():     # the dips below top - level in this cell's window
                sel = np.nonzero(lows[i[k]:j[k]] < tp[k] - level)[0] + i[k]
                over.update(np.floor(starts[sel]).astype(int).tolist())
        return b

    # base t-cells: [0, U) outside the zones; shifts +-D are index shifts of D N0 on the base grid
    t = np.arange((0 - j0) * N0, (U - j0) * N0)
    t = t[~inzone[t]]
    best = -np.inf
    cells = len(t)
    for lo in range(0, len(t), 1 << 20):                 # in slices (memory)
        tt = t[lo:lo + (1 << 20)]
        b = bound(sub(G, tt), sub(G, tt + D * N0), sub(G, tt - D * N0), c[tt], d0)
        best = max(best, float(np.max(b)) if len(b) else -np.inf)
        if progress:
            progress(f"{min(lo + (1 << 20), len(t))} of {len(t)} cells")
    for N, (js, Gz, cz) in zone_grids.items():
        tj = np.concatenate([np.arange(max(A, 0), min(B, U)) for A, B, n in zones if n == N])
        if not len(tj):
            continue
        cell = lambda steps: (np.searchsorted(js, steps)[:, None] * N + np.arange(N)[None, :]).reshape(-1)
        it, ip, im = cell(tj), cell(tj + D), cell(tj - D)
        b = bound(sub(Gz, it), sub(Gz, ip), sub(Gz, im), cz[it], 1.0 / (2 * N))
        best = max(best, float(np.max(b)))
        cells += len(it)
    return best, cells, over
