r"""A certified enclosure of the tight epsilon of ``lattice_gauss`` :math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0,\sigma^2)`.

No cell convexity here, so the window is a **cover**.  In lattice units :math:`u = t/h`, with
:math:`\beta = h^2/\sigma^2`, :math:`\lambda = a/m` and :math:`q_k = p_k e^{\lambda k}` (order one:
:math:`0 \le q_k \le C_{\max}`),

.. math::

   \ln f(hu) = G(u) + \mathrm{const}, \quad G(u) = \ln F(u) - \lambda u, \quad
   F(u) = \sum_k q_k\,\psi(u - k), \quad \psi(x) = e^{\lambda x - \beta x^2/2},

and the limit law is the same with :math:`q_k = C_{k \bmod w}` for every :math:`k` (periodic, so
one period of :math:`t` suffices).  :math:`\psi' = y\psi`, :math:`\psi'' = (y^2-\beta)\psi`,
:math:`\psi''' = (y^3 - 3\beta y)\psi`, :math:`y = \lambda - \beta x`.

**Cells.**  On a grid of :math:`N` cells per lattice step, :math:`F, F', F''` at every cell centre
:math:`c` and :math:`M_3 \ge \sup_I |F'''|` are four convolutions of :math:`(q_k)` with kernel samples
(``arb_poly`` products; :math:`M_3`'s kernel is :math:`|\psi'''|` enclosed on the ball
:math:`x \pm \delta`), the terms :math:`|u - k| > R` bounded by :math:`4C_{\max}\,\mathrm{term}(R-1)`,
:math:`\mathrm{term}(x) = (\lambda + \beta x + \sqrt{3\beta} + 1)^3 e^{\lambda x - \beta x^2/2}`
(each further term is at most half the previous one).  Then :math:`F''(I) \subset F''(c) + M_3[-\delta,\delta]`,
:math:`F'(I)`, :math:`F(I)` by Taylor, :math:`G''(I) \subset F''(I)/F(I) - (F'(I)/F(I))^2`, and for
:math:`s \in [-\delta, \delta]`

.. math::

   G(c + s) \le G(c) + G'(c)s + \overline{G''(I)}\,s^2/2 \le G(c) +
   \begin{cases} \min(|G'(c)|\delta,\ G'(c)^2/(2|\overline{G''}|)) & \overline{G''} < 0 \\
   |G'(c)|\delta + \overline{G''}\delta^2/2 & \text{else}\end{cases}

(second order: cells can be wide; the lower bound is the mirror image).  The same for
:math:`g_\pm(u) = G(u) - G(u \pm \Delta/h)`.  For :math:`t \in I` the minimum of :math:`G` over
:math:`[t - \Delta, t + \Delta]` is at an end or at a zero of :math:`G'` with :math:`G'' \ge 0`, which lies
in a *dip* cell :math:`J` (:math:`0 \in G'(J)`, :math:`\overline{G''(J)} \ge 0`).  Hence

.. math::

   \sup_{t \in I,\ |v - t| \le \Delta} \ln f(t) - \ln f(v) \le
   \max\Big(\overline{g_+(I)},\ \overline{g_-(I)},\ \overline{G(I)} - \min_{J \text{ dip},\ J \cap (I \pm \Delta) \ne \emptyset} \underline{G(J)}\Big).

A convex dip cell (:math:`\underline{G''(J)} > 0`) is bounded below by
:math:`G(v') - G'(v')^2/(2\underline{G''(J)})` at a point :math:`v' \in J` near the zero (a float64
Newton guide chooses :math:`v'`; the bound holds for any :math:`v'`).  Other dip cells are
bisected.  **Lazily** (``dips="lazy"``, the default): every dip cell's Taylor lower bound
(:math:`G(c) + G'(c)s + \underline{G''(J)}s^2/2` at the ends of :math:`G'(c)`'s ball, no bisection) is already
valid, so a cell is refined (Newton point, else bisection) only while that bound is below the level the t-cells
within :math:`\Delta` of it could need, :math:`\max_I \overline{G(I)} - \hat\varepsilon - \mathrm{tol}/4`
(:math:`\hat\varepsilon \le \varepsilon^*`: a float64 estimate at the grid's centres).  The levels only decide how
much is refined, never whether a bound holds; ``dips="all"`` refines every dip cell (the certificates written
before the lazy mode record no ``dips`` choice and re-check so).  The same enclosure at the test points, in 2.2
instead of 3.7 CPU seconds at :math:`m = 34` and 29.8 instead of 46.6 at :math:`m = 242` (docs/benchmarks.md).  Cells of :math:`t` whose bound exceeds the best certified lower value (pairs evaluated
in balls at float-guided peaks) by more than ``tol/2`` are bisected and evaluated directly.

**The first pass** over the grid cells (every cell's bound and lower value) runs vectorised in
outward-rounded float64 intervals (:mod:`arete_proofs.certified.intervals`: only :math:`+, -, \times, /`
on the balls' rounded ends, each result moved one ulp outward), and the cells whose float bound is
within :math:`10^{-9}(1 + \max|G|)` of the top get their ball bound: the certificate is the same, bit
for bit, as the cell-by-cell pass in balls (``_VECTORISED_SWEEP = False``), about 1.7 times faster at
:math:`m = 242` (148 s to 89 s wall on a loaded machine).

**Tail.**  For :math:`k \ge 0`, :math:`0 \le C_{k \bmod w} - q_k \le E_0 e^{-\theta k}` (the comb's
Chernoff bound); for :math:`k < 0`, :math:`|q_k - C| \le C_{\max}`; and
:math:`F_\infty(u) \ge C_{\min}\max(\psi(u-n), \psi(u-n-1)) \ge C_{\min}e^{-\lambda-\beta/8}`
(:math:`n = \lfloor u \rfloor`).  Splitting :math:`\sum_{k \ge 0}` at :math:`k = n - J`:

.. math::

   \Big|\frac{F}{F_\infty} - 1\Big|(u) \le \rho(n) = \frac{e^{\lambda + \beta/8}}{C_{\min}}
   \Big[E_0\big(e^{-\theta(n-J)} S_{\max} + \tau(J+1)\big) + C_{\max}\,\tau(n+1)\Big],
   \qquad u \ge n \ge J,

:math:`\tau(X) = 2e^{\lambda X - \beta X^2/2} \ge \sum_{i \ge 0}\psi(X + i)` (for :math:`e^{\lambda-\beta X} \le 1/2`,
:math:`X \ge \lambda/\beta`), :math:`S_{\max} \ge \sup_u \sum_k \psi(u-k)`.  With
:math:`\eta = -\ln(1 - \rho(n_0))`: :math:`\max(W_{\rm lo}, L_{\rm lo}) \le \varepsilon^* \le \max(W_{\rm hi}, L_{\rm hi} + 2\eta)`,
:math:`W` the cover of :math:`u \in [0, n_0 + \Delta/h]` (symmetry: :math:`f` is even) and :math:`L`
of one period of the limit law.  The interval's width is set by ``tol``.

**Certificate.**  :meth:`GaussCombCertificate.to_json` records the exact parameters and every
choice (:math:`N, R, J, n_0, \theta`, precision, ``tol``); :func:`check` recomputes the enclosure
from them and refuses a document whose interval does not contain the recomputed one.

>>> r = certify_lattice_gauss("3", 2, "0.2", "0.5", 1, tol="1e-6")
>>> r.lower <= r.upper < r.lower + 1e-6
True
>>> check(r.to_json()).ok
True
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass
from fractions import Fraction

from .._workload import MAX_KERNEL_TERMS, check_work
from .comb_balls import _ball, _CertificateReport, _Comb, _comb_parts, _default_theta, _exact, _int, _precision, _txt
from .gauss_cells import DipCells, _bq, _cell_G, _down, _qmax, _up

__all__ = ["GaussCombCertificate", "GaussCheckReport", "certify_lattice_gauss", "check"]

#: the covers' first pass over the grid cells in float64 intervals (``_Cover._sweep_floats``, the same
#: certificate, 1.7 times faster at m = 242) or cell by cell in balls (``False``: ``_Cover._sweep_balls``, the reference)
_VECTORISED_SWEEP = True


@dataclass
class GaussCombCertificate(_CertificateReport):
    r"""Result of :func:`certify_lattice_gauss`: :math:`\mathrm{lower} \le \varepsilon^* \le \mathrm{upper}` (floats, outward).

    ``window_upper``/``window_lower`` and ``tail_upper``/``tail_lower``: the two covers' bounds
    (the tail's before :math:`2\eta`); ``choices``: :math:`N, R, J, n_0, \theta`, precision, ``tol``
    (what :func:`check` needs); ``t_star``: the best window pair's :math:`t`, or ``None`` when the
    tail limit is the larger.

    >>> r = certify_lattice_gauss("2", 1, "0.3", "1", 1, tol="1e-6")
    >>> r.lower <= r.upper and r.method
    'cover'
    """

    params: dict
    Delta: str
    lower: float
    upper: float
    window_upper: float
    window_lower: float
    tail_upper: float
    tail_lower: float
    eta: float
    n0: int
    T: str
    theta: str
    cells: int
    choices: dict
    t_star: object = None
    seconds: float = 0.0
    numeric: float | None = None
    target: float | None = None
    method: str = "cover"
    argument: str = ("second-order cover of [0, T] and of one period of the limit law (cells with G, G', "
                     "G''(I) in balls), dip cells of G', every shift |s| <= Delta; rigorous tail ratio past "
                     "n0 (certified.combs_gauss)")

    tail = property(lambda self: self.eta)
    evaluations = property(lambda self: self.cells)

    def to_json(self):
        """A JSON-ready dict: what :func:`check` needs to recompute the enclosure and compare."""
        return {"kind": "lattice_gauss", "params": dict(self.params), "Delta": self.Delta,
                "lower": repr(self.lower), "upper": repr(self.upper), "choices": dict(self.choices),
                "window": [repr(self.window_lower), repr(self.window_upper)],
                "tail": [repr(self.tail_lower), repr(self.tail_upper), repr(self.eta)],
                "argument": self.argument}

    def to_dict(self):
        """JSON-ready dict (CLI)."""
        d = {k: getattr(self, k) for k in ("params", "Delta", "lower", "upper", "window_upper", "window_lower",
                                           "tail_upper", "tail_lower", "eta", "n0", "T", "theta", "cells",
                                           "choices", "seconds", "numeric", "target", "method", "argument")}
        d["t_star"] = None if self.t_star is None else str(self.t_star)
        d.update(gap=self.gap, meets_target=self.meets_target if self.target is not None else None)
        return d


# -- the law in lattice units -----------------------------------------------------------------------
class _Law:
    """q_k (balls and floats) on [kmin, kmax], the kernel, the truncation ball; direct and grid evaluation."""

    def __init__(self, qfun, kmin, kmax, lam, beta, R, cmax):
        import numpy as np
        from flint import arb

        self.arb = arb
        self.kmin, self.kmax, self.R = kmin, kmax, R
        self.q = [qfun(k) for k in range(kmin, kmax + 1)]
        self.qf = np.array([float(x.mid()) for x in self.q])
        self.lam, self.beta = lam, beta
        self.lamf, self.betaf = float(lam.mid()), float(beta.mid())
        x = _ball(Fraction(R - 1))
        term = (lam + beta * x + (3 * beta).sqrt() + 1) ** 3 * (x * (lam - beta * x / 2)).exp()
        rem = 4 * cmax * term
        self.rem = (-rem).union(rem)
        self.rem_abs = rem
        self._poly = None

    def qk(self, k):
        if not self.kmin <= k <= self.kmax:
            raise ValueError("internal: lattice index outside the computed range")
        return self.q[k - self.kmin]

    def _kernel(self, x, X):
        """(psi, psi', psi'', sup |psi'''| on the ball X) at the exact point x."""
        lam, beta = self.lam, self.beta
        y = lam - beta * x
        p = (x * (lam - beta * x / 2)).exp()
        Y = lam - beta * X
        m3 = abs((Y * Y * Y - 3 * beta * Y) * (X * (lam - beta * X / 2)).exp()).upper()
        return p, y * p, (y * y - beta) * p, m3

    def direct(self, x0, x1):
        """(F(c), F'(c), F''(c), M3) for the cell [x0, x1] (exact rationals), c the centre."""
        arb = self.arb
        c = (x0 + x1) / 2
        d = (x1 - x0) / 2
        D = _bq(d)
        Dx = (-D).union(D)
        cb = _ball(c)
        F, F1, F2, M3 = arb(0), arb(0), arb(0), arb(0)
        for k in range(math.ceil(c - self.R), math.floor(c + self.R) + 1):
            x = cb - k
            p, p1, p2, m3 = self._kernel(x, x + Dx)
            qk = self.qk(k)
            F += qk * p
            F1 += qk * p1
            F2 += qk * p2
            M3 += qk * m3
        return F + self.rem, F1 + self.rem, F2 + self.rem, M3 + self.rem_abs

    def grid(self, off, N, ja, jb):
        """Lists (F, F', F'', M3) at centres j + off + (r + 1/2)/N, j in [ja, jb], index (j - ja) N + r."""
        from flint import arb_poly

        R = self.R
        if ja - R < self.kmin or jb + R > self.kmax:
            raise ValueError("internal: grid outside the computed range")
        if self._poly is None:
            self._poly = arb_poly(self.q)
        n = jb - ja + 1
        out = [[None] * (n * N) for _ in range(4)]
        D = _ball(Fraction(1, 2 * N))
        Dx = (-D).union(D)
        for r in range(N):
            ker = [[], [], [], []]
            for dd in range(-R, R + 1):
                x = _ball(dd + off + Fraction(2 * r + 1, 2 * N))
                for lst, v in zip(ker, self._kernel(x, x + Dx)):
                    lst.append(v)
            for which in range(4):
                co = (self._poly * arb_poly(ker[which])).coeffs()
                rem = self.rem_abs if which == 3 else self.rem
                base = ja - self.kmin + R
                o = out[which]
                for i in range(n):
                    o[i * N + r] = co[base + i] + rem
        return out


class _Cover(DipCells):
    """The cover of sup_{t in [0, U], |v - t| <= Du} G(t) - G(v) for one law (module docstring).

    ``even``: the law's G is even (the window law: p_k = p_-k), so a cell at u < 0 is taken from its mirror image at
    -u (G(-c) = G(c), G'(-c) = -G'(c), G''(-I) = G''(I)), where F is of order one; at u < 0 the tilted F is small
    (about e^{lambda u}) and the balls of its ball-polynomial product can be wider than its values."""

    even = False

    def __init__(self, law, U, Du, N, tol, max_cells, progress=None, label=""):
        self.law, self.U, self.Du, self.N, self.tol = law, U, Du, N, tol
        self.max_cells, self.progress, self.label = max_cells, progress, label
        self.lam = law.lam
        self.fl, self.ce = math.floor(Du), math.ceil(Du)
        self.op, self.om = Du - self.fl, self.ce - Du
        self.ja, self.jb = math.floor(-Du) - 1, math.ceil(U + Du) + 1
        self._grids = {}

    def _raw_grid(self, off):
        """(G(c), G'(c), G''(I)) of every grid cell at offset ``off`` from the law's convolutions (no mirroring)."""
        raw = self._grids.get(("raw", off))
        if raw is None:
            N = self.N
            F, F1, F2, M3 = self.law.grid(off, N, self.ja, self.jb)
            d = Fraction(1, 2 * N)
            cr = [_ball(self.ja + off + Fraction(2 * r + 1, 2 * N)) for r in range(N)]
            D = _bq(d)
            S = (-D).union(D), (D - D).union(D * D / 2)
            raw = []
            for i in range(len(F)):
                j, r = divmod(i, N)
                raw.append(_cell_G(self.lam, F[i], F1[i], F2[i], M3[i], cr[r] + j, d, S))
            self._grids[("raw", off)] = raw
        return raw

    def _grid(self, off):
        g = self._grids.get(off)
        if g is None:
            g = self._raw_grid(off)
            if self.even:   # cells centred at c < 0 from their mirrors at -c (grid offset -off mod 1)
                N, ja = self.N, self.ja
                off2 = (-off) % 1
                src = self._raw_grid(off2)
                g = list(g)
                for i in range(len(g)):
                    j, r = divmod(i, N)
                    if ja + j + off + Fraction(2 * r + 1, 2 * N) >= 0:
                        break   # centres increase with i
                    i2 = (-2 * ja - j - 1 - (0 if off == 0 else 1)) * N + (N - 1 - r)
                    if 0 <= i2 < len(src):
                        g0, g1, g2 = src[i2]
                        g[i] = (g0, -g1, g2)
            g = self._grids[off] = g
        return g

    def _direct(self, x0, x1):
        if self.even and x1 <= 0:   # the mirror image (see the class docstring)
            F, F1, F2, M3 = self.law.direct(-x1, -x0)
            g0, g1, g2 = _cell_G(self.lam, F, F1, F2, M3, -(x0 + x1) / 2, (x1 - x0) / 2)
            return g0, -g1, g2
        F, F1, F2, M3 = self.law.direct(x0, x1)
        return _cell_G(self.lam, F, F1, F2, M3, (x0 + x1) / 2, (x1 - x0) / 2)

    # -- the float64 guide ---------------------------------------------------------------------------
    def _newton(self, u, lo, hi, steps=6):
        """Float64 Newton on G' (a guide only), clipped to [lo, hi]."""
        import numpy as np

        law = self.law
        u = np.asarray(u, dtype=float)
        lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
        dd = np.arange(-law.R, law.R + 1)
        for _ in range(steps):
            ks = np.floor(u)[:, None] - dd[None, :]
            x = u[:, None] - ks
            q = law.qf[(ks - law.kmin).astype(int)]
            p = q * np.exp(x * (law.lamf - law.betaf * x / 2))
            y = law.lamf - law.betaf * x
            F, F1, F2 = p.sum(1), (y * p).sum(1), ((y * y - law.betaf) * p).sum(1)
            g1 = F1 / F - law.lamf
            g2 = F2 / F - (F1 / F) ** 2
            step = np.where(np.abs(g2) > 1e-300, g1 / np.where(g2 == 0, 1, g2), 0)
            u = np.clip(u - step, lo, hi)
        return u

    def _point(self, x):
        """G at the exact point x (a ball)."""
        return self._direct(x, x)[0]

    def _t_range(self):
        """(i_lo, i_hi, shift_p, shift_m): the grid indices of the t-cells of [0, U] and the index shifts of t +- Du."""
        N = self.N
        return (0 - self.ja) * N, math.ceil((self.U - self.ja) * N), self.fl * N, self.ce * N

    # -- t cells -----------------------------------------------------------------------------------
    def _bound(self, x0, x1, d, c0, cp, cm):
        """Upper bound over t in the cell [x0, x1] (floats, for the dip search; d the exact half-width)
        from (G, G', G'') of the cell and of its +Du and -Du shifts."""
        d = _bq(d)
        up = max(_qmax(c0[0] - cp[0], c0[1] - cp[1], c0[2] - cp[2], d),
                 _qmax(c0[0] - cm[0], c0[1] - cm[1], c0[2] - cm[2], d))
        low = self._dip_low(x0 - self.Duf, x1 + self.Duf)
        if low < math.inf:
            up = max(up, math.nextafter(_qmax(c0[0], c0[1], c0[2], d) - low, math.inf))
        return up

    def _lower_at(self, t, g=None, gp=None, gm=None):
        """A certified lower value of sup_v G(t) - G(v) (balls), t exact (or a float when the balls are given)."""
        g = self._point(t) if g is None else g
        gp = self._point(t + self.Du) if gp is None else gp
        gm = self._point(t - self.Du) if gm is None else gm
        tf = float(t)
        vmin = min(_up(gp), _up(gm), self._dip_up(tf - self.Duf, tf + self.Duf))
        return math.nextafter(_down(g) - vmin, -math.inf)

    def _fgrid(self, off):
        """Float enclosures (lo, hi) of G, G', G'' of the grid at ``off`` (``intervals.from_balls``), cached."""
        key = ("f", off)
        g = self._grids.get(key)
        if g is None:
            from .intervals import from_balls

            G = self._grid(off)
            g = self._grids[key] = [from_balls([c[w] for c in G]) for w in range(3)]
        return g

    def _sweep_balls(self, i_lo, i_hi, shift_p, shift_m):
        """The first pass in balls, cell by cell: (upper bounds, lower values), one per grid cell."""
        N, d = self.N, Fraction(1, 2 * self.N)
        G0, Gp, Gm = self._grid(Fraction(0)), self._grid(self.op), self._grid(self.om)
        ubs, los = [], []
        for i in range(i_lo, i_hi):   # x0 a float, as in _sweep_floats
            x0 = self.ja + i / N
            c0, cp, cm = G0[i], Gp[i + shift_p], Gm[i - shift_m]
            ubs.append(self._bound(x0, x0 + 1 / N, d, c0, cp, cm))
            los.append(self._lower_at(x0 + 0.5 / N, c0[0], cp[0], cm[0]))
        return ubs, los

    def _sweep_floats(self, i_lo, i_hi, shift_p, shift_m):
        r"""The first pass vectorised (:mod:`~arete_proofs.certified.intervals`): the same lower values, bit for bit
        (they are float operations on the balls' rounded ends in both), and upper bounds that are proved too but a few
        ulps looser.  The cells whose float bound is near the top (within ``slack`` of the best lower value or of the
        64th largest bound, the cells the bisection and the peak search look at) get their ball bound, so that the
        cover then runs exactly as :meth:`_sweep_balls` would; the others keep the float bound, which no later step
        reads except through the final maximum (where it is below the top by more than ``slack``).
        """
        import numpy as np

        from .intervals import down, qmax, range_min, sub, up

        N, d = self.N, Fraction(1, 2 * self.N)
        i = np.arange(i_lo, i_hi)
        ip, im = i + shift_p, i - shift_m
        (g0, g0h), (s0, s0h), (k0, k0h) = self._fgrid(Fraction(0))
        (gp, gph), (sp, sph), (kp, kph) = self._fgrid(self.op)
        (gm, gmh), (sm, smh), (km, kmh) = self._fgrid(self.om)
        a0, a0h, b0, b0h, c0, c0h = g0[i], g0h[i], s0[i], s0h[i], k0[i], k0h[i]
        q_p = qmax(sub(a0, a0h, gp[ip], gph[ip])[1], *sub(b0, b0h, sp[ip], sph[ip]), sub(c0, c0h, kp[ip], kph[ip])[1], d)
        q_m = qmax(sub(a0, a0h, gm[im], gmh[im])[1], *sub(b0, b0h, sm[im], smh[im]), sub(c0, c0h, km[im], kmh[im])[1], d)
        ub = np.maximum(q_p, q_m)
        # the dip terms: the same float windows as _dip_low / _dip_up
        x0 = self.ja + i / N
        af, bf = x0 - self.Duf, (x0 + 1 / N) + self.Duf
        sl = 1e-9 * (1 + np.abs(af) + np.abs(bf))
        ends, starts = np.array(self.ends_f, dtype=float), np.array(self.starts_f, dtype=float)
        low = range_min(np.array(self.lows, dtype=float), np.searchsorted(ends, af - sl, "left"),
                        np.searchsorted(starts, bf + sl, "right"))
        fin = low < np.inf
        q_0 = qmax(a0h, b0, b0h, c0h, d)
        ub = np.where(fin, np.maximum(ub, up(q_0 - np.where(fin, low, 0.0))), ub)
        tf = x0 + 0.5 / N
        af, bf = tf - self.Duf, tf + self.Duf
        sl = 1e-9 * (1 + np.abs(af) + np.abs(bf))
        vpos = np.array(self.vpos_f, dtype=float)
        vmin = np.minimum(np.minimum(gph[ip], gmh[im]),
                          range_min(np.array(self.vup, dtype=float), np.searchsorted(vpos, af + sl, "left"),
                                    np.searchsorted(vpos, bf - sl, "right")))
        lo = down(a0 - vmin)
        # cells near the top: their ball bounds (a few ulps of |G| apart from the float ones; slack >> that)
        mag = float(np.max(np.abs(np.concatenate([a0[np.isfinite(a0)], a0h[np.isfinite(a0h)], [1.0]]))))
        slack = 1e-9 * (1 + mag)
        top = np.partition(ub, len(ub) - 64)[len(ub) - 64] if len(ub) > 64 else -np.inf
        redo = np.nonzero(ub >= min(float(np.max(lo)), float(top)) - slack)[0]
        rest = np.delete(ub, redo)
        rest = float(np.max(rest)) if len(rest) else -math.inf
        G0, Gp, Gm = self._grid(Fraction(0)), self._grid(self.op), self._grid(self.om)
        items = []
        for k in redo.tolist():
            j = i_lo + k
            xj = self.ja + j / N
            items.append((-self._bound(xj, xj + 1 / N, d, G0[j], Gp[j + shift_p], Gm[j - shift_m]), j, None, None))
        return items, rest, lo.tolist()

    def run(self, vectorised=None, lazy=False):
        N, Du = self.N, self.Du
        vectorised = _VECTORISED_SWEEP if vectorised is None else vectorised
        self.Duf = float(Du)
        self._dips(lazy=lazy)
        d = Fraction(1, 2 * N)
        i_lo, i_hi, shift_p, shift_m = self._t_range()
        if vectorised:   # `rest`: the largest float bound of the cells left out of the heap (below its top)
            heap, rest, los = self._sweep_floats(i_lo, i_hi, shift_p, shift_m)
        else:
            ubs, los = self._sweep_balls(i_lo, i_hi, shift_p, shift_m)
            heap, rest = [(-ub, i_lo + k, None, None) for k, ub in enumerate(ubs)], -math.inf
        best, pair = -math.inf, None
        for k, lo in enumerate(los):
            if lo > best:
                best, pair = lo, i_lo + k
        heapq.heapify(heap)
        if pair is not None:
            pair = self.ja + Fraction(2 * pair + 1, 2 * N)

        def cell(item):
            if item[2] is None:
                a = self.ja + Fraction(item[1], N)
                return a, a + 2 * d
            return item[2], item[3]

        for item in heapq.nsmallest(64, heap):   # float-guided peaks of the best cells
            t = self._peak(*cell(item))
            lo = self._lower_at(t)
            if lo > best:
                best, pair = lo, t
        cells, stuck, seq, splits = len(los), -math.inf, len(los) + i_hi, 0
        goal = getattr(self, "goal", -math.inf)   # a bound at most ``goal`` suffices (certify_lattice_gauss)
        while heap and -heap[0][0] > max(best + self.tol, goal) and splits < self.max_cells:
            item = heapq.heappop(heap)
            a, b = cell(item)
            if b - a < Fraction(1, 2 ** 40):   # no progress by bisection: keep the bound as it is
                stuck = max(stuck, -item[0])
                continue
            m = (a + b) / 2
            t = self._peak(a, b)
            lo = self._lower_at(t)
            if lo > best:
                best, pair = lo, t
            for x, y in ((a, m), (m, b)):
                c0, cp, cm = self._direct(x, y), self._direct(x + Du, y + Du), self._direct(x - Du, y - Du)
                seq += 1
                ub = min(-item[0], self._bound(float(x), float(y), (y - x) / 2, c0, cp, cm))   # both valid
                heapq.heappush(heap, (-ub, seq, x, y))
            cells += 1
            splits += 1
            if self.progress and splits % 2000 == 0:
                self.progress(f"{self.label}: {cells} cells, bound {-heap[0][0]:.10g}, lower {best:.10g}")
        return max(-heap[0][0] if heap else -math.inf, stuck, rest), best, pair, cells

    def _peak(self, a, b):
        v = self._newton([float((a + b) / 2)], [float(a)], [float(b)])[0]
        return min(max(Fraction(float(v)), a), b)


# -- the tail ----------------------------------------------------------------------------------------
def _tail_constants(lam, beta, lamf, betaf):
    """(tau, S_max): tau(X) = 2 e^{lambda X - beta X^2/2} (needs e^{lambda - beta X} <= 1/2, X >= lambda/beta)."""
    X0 = max(math.ceil((lamf + math.log(2)) / betaf) + 1, math.ceil(lamf / betaf) + 1)

    def tau(X):
        if X < X0:
            raise ValueError("internal: tail bound used below its range")
        x = _ball(Fraction(X))
        return 2 * (x * (lam - beta * x / 2)).exp()

    s = sum(((_ball(Fraction(i)) * (lam - beta * _ball(Fraction(i)) / 2)).exp() for i in range(X0)), _ball(Fraction(0)))
    smax = (1 + lam.exp()) * (s + tau(X0))
    return tau, smax, X0


def certify_lattice_gauss(a, m, sigma, h, Delta=1, *, tol="1e-6", prec=128, theta=None, n0=None, N=16, R=None,
                          J=None, max_cells=400_000, progress=None, cells_per_step=None, a_top=None, comb_prec=None,
                          dips="lazy", goal=None, mirror=True):
    r"""Certified :math:`[\mathrm{lower}, \mathrm{upper}] \ni \varepsilon^*` of :math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)` (module docstring).

    A :class:`GaussCombCertificate`; ``upper`` is proved, its distance to ``lower`` is about
    ``tol`` unless ``max_cells`` bisections (per cover) ran out (then ``upper`` is still a proved bound).  ``N``: cells
    per lattice step (``cells_per_step``: an alias); ``R``, ``J``, ``n0``, ``theta``: the
    truncation, tail split, window and Chernoff rate (chosen when ``None``); ``progress``: a
    callable taking a status line.  ``a_top``: the rate of the top scale (the weight-:math:`m`
    component :math:`m X_m`, :math:`X_m \sim` DLap(``a_top``)), :math:`0 < a_{top} \le a` (default
    ``a``): the generalised family of :mod:`arete_proofs.privacy.optimize_lattice`, whose tail rate is
    :math:`\lambda = a_{top}/m` and whose Chernoff gap :math:`a/(m-1) - a_{top}/m` is wider.  ``comb_prec``: the bits
    of the pole constants and of the window's table :math:`q_k` (the partial fractions cancel near :math:`k = 0` by
    about :func:`arete_proofs.distributions.comb_poles.cancellation_bits`; default ``prec`` plus that estimate when it
    exceeds ``prec / 2``, else ``prec``; recorded in ``choices``).  At :math:`m = 658` the cancellation is about 190
    bits: at 128 the table's balls were wider than the values, and the cover bisected every dip cell to depth 12.
    ``dips``: ``"lazy"`` (refine a dip cell only while nearby t-cells could need it) or ``"all"`` (module docstring;
    recorded in ``choices``; ``"capped"``: lazy, and no dip cell asked for more than its centre value less ``tol``/16,
    which the flat combs of the large-:math:`m` rows need, see ``gauss_cells.DipCells._dips_lazy``).  ``goal``: an
    upper bound at most this suffices: the covers stop refining there (the limit law's at ``goal`` less
    :math:`2\eta`), so ``upper`` can be further than ``tol`` from ``lower`` but is still proved; with a row's margin
    (``goal`` = :math:`\varepsilon`, the loss about :math:`\varepsilon(1 - \text{margin})`) the cover resolves only
    that margin, not ``tol`` (recorded in ``choices``).  ``mirror``: the window's cells at :math:`u < 0` from their
    mirror images (:math:`G` is even; the tilted values there are small and their balls can be wider than they are;
    recorded in ``choices``, older certificates re-check without it).

    >>> r = certify_lattice_gauss("2", 1, "0.3", "1", 1, tol="1e-6")     # DLap(2) on Z + N(0, 0.09)
    >>> r.upper <= 2 + 1 / (2 * 0.09) + 1e-9       # below a Delta + the Gaussian's Delta^2/(2 sigma^2) (composition)
    True
    """
    t_start = time.perf_counter()
    if dips not in ("lazy", "all", "capped"):
        raise ValueError(f"dips must be 'lazy', 'capped' or 'all', got {dips!r}")
    goalq = None if goal is None else _exact(goal, "goal")
    mm = _int(m, "m")
    N = _int(cells_per_step if cells_per_step is not None else N, "N")
    w, ra = _comb_parts(range(1, mm + 1), [a] * (mm - 1) + [a if a_top is None else a_top])
    if not ra[-1] <= ra[0]:
        raise ValueError(f"a_top must be at most a, got a_top={a_top} > a={a}")
    hq, sq, Dq = _exact(h, "h"), _exact(sigma, "sigma"), _exact(Delta, "Delta")
    tolq = _exact(tol, "tol")
    tolf = float(tolq)
    say = progress or (lambda s: None)
    if comb_prec is None:
        from ..distributions.comb_poles import cancellation_bits

        lost = cancellation_bits(w, [float(x) for x in ra]) if mm > 1 else 0.0
        comb_prec = int(prec) + int(lost) + 16 if lost > prec / 2 else int(prec)
    comb_prec = _int(comb_prec, "comb_prec")
    with _precision(prec):
        comb = _Comb(w, ra, bits=comb_prec)
        for _ in range(2):   # the estimate is not a bound: probe the table where it cancels most (small k)
            # a midpoint below float64's range counts as 0 (its relative error is then unknown: inf)
            worst = max((float(b.rad()) / abs(float(b.mid())) if float(b.mid()) != 0 else math.inf)
                        for b in comb.q_table(min(2 * mm + 2, 4000)))
            if worst <= 2.0 ** (-prec / 2):
                break
            comb_prec += (int(math.log2(worst)) + prec // 2 + 16) if worst < math.inf else comb_prec
            say(f"pole constants: the table's balls were {worst:.2g} wide relative; again at {comb_prec} bits")
            comb = _Comb(w, ra, bits=comb_prec)
        lam = comb.lam
        lamf = float(comb.lam_q)
        betaq = hq * hq / (sq * sq)
        beta, betaf = _ball(betaq), float(betaq)
        th = _exact(theta, "theta") if theta is not None else (
            _default_theta(comb) if comb.gap is not None else Fraction(1))
        E0 = comb.E0(th) if comb.gap is not None else _ball(Fraction(0))
        if R is None:   # truncation: 4 Cmax term(R-1) below 2^-prec relative to F >= Cmin e^{-lambda-beta/8}
            # the loop below ends near x = (lambda + sqrt(lambda^2 + 2 beta prec ln 2)) / beta: refuse a width
            # sigma/h (beta = h^2/sigma^2) whose sums no machine can do, before counting up to it
            reach = (lamf + math.sqrt(lamf * lamf + 2 * betaf * (prec * math.log(2) + 50))) / betaf
            check_work("the certificate's Gaussian sums", 2 * reach, MAX_KERNEL_TERMS, "lattice terms per value",
                       seconds_each=1e-4, grows_with="sigma/h (the Gaussian part's width in lattice steps)")
            R = 3
            lim_log = -(prec * math.log(2)) - lamf - betaf / 8 + math.log(float(comb.cmin.mid()) / 
                                                                          float(comb.cmax.mid()) / 4)
            while True:
                x = R - 1
                lt = 3 * math.log(lamf + betaf * x + math.sqrt(3 * betaf) + 1) + lamf * x - betaf * x * x / 2
                if lt < lim_log and 8 * math.exp(lamf - betaf * x) <= 0.5 and x >= lamf / betaf:
                    break
                R += 1
        R = _int(R, "R")
        if not (8 * math.exp(lamf - betaf * (R - 1)) <= 0.5 and R - 1 >= lamf / betaf):
            raise ValueError("R too small for the truncation bound")
        tau, smax, X0 = _tail_constants(lam, beta, lamf, betaf)
        pre = (lam + beta / 8).exp() / comb.cmin
        target = tolf / 10
        if J is None:
            J = X0
            while not (pre * E0 * tau(J + 1) < target / 100 or E0 == 0):
                J += 1
        J = max(_int(J, "J"), X0)

        def rho(n):
            return pre * (E0 * ((-_ball(th) * (n - J)).exp() * smax + tau(J + 1)) + comb.cmax * tau(n + 1))

        if n0 is None:
            n0 = J + 1
            if E0 > 0:
                val = float((pre * E0 * smax).mid())
                n0 = max(n0, J + math.ceil(math.log(val / (target / 2)) / float(th)) + 1)
            while not rho(n0) < target:
                n0 += max(1, n0 // 8)
            if n0 > 10 ** 6:
                raise ValueError("the window would exceed 10^6 lattice points")
        n0 = max(_int(n0, "n0"), J + 1)
        r = rho(n0)
        if not r < 1:
            raise ValueError("rho(n0) is not below 1: a longer window is needed")
        eta = _up(-(-r).log1p())
        Du = Dq / hq
        wper = comb.w[comb.cs]
        U_win = Fraction(n0) + Du
        say(f"lattice_gauss a={a} m={mm}{'' if a_top is None else f' a_top={a_top}'}: R={R}, J={J}, n0={n0}, theta={th}, eta={eta:.3g}, N={N}")
        # the limit law: q_k = C_{k mod w}; one period of t
        C = comb.C
        ja = math.floor(-Du) - 2 - R
        jb = math.ceil(wper + Du) + 2 + R
        lim = _Law(lambda k: C[k % wper], ja, jb, lam, beta, R, comb.cmax)
        cov = _Cover(lim, Fraction(wper), Du, N, tolf / 2, max_cells, say, "limit law")
        if goalq is not None:   # the tail's bound is Lu + 2 eta: its cover may stop at goal - 2 eta (float, below)
            cov.goal = math.nextafter(float(goalq) - 2 * float(eta), -math.inf) - 4 * math.ulp(float(goalq))
        cov.dip_cap = dips == "capped"
        Lu, Ll, Lt, c1 = cov.run(lazy=dips != "all")
        say(f"limit law: [{Ll:.12g}, {Lu:.12g}] ({c1} cells, {time.perf_counter() - t_start:.1f} s)")
        ja = math.floor(-Du) - 2 - R
        jb = math.ceil(U_win + Du) + 2 + R

        qtab = comb.q_table(max(jb, -ja))   # q_k = p_k e^{lambda k}, running products (comb_balls)

        def qwin(k):
            return qtab[k] if k >= 0 else qtab[-k] * (2 * lam * k).exp()

        law = _Law(qwin, ja, jb, lam, beta, R, comb.cmax)
        say(f"window: {jb - ja + 1} lattice points in balls ({time.perf_counter() - t_start:.1f} s)")
        cov = _Cover(law, U_win, Du, N, tolf / 2, max_cells, say, "window")
        cov.even = bool(mirror)
        if goalq is not None:
            cov.goal = float(goalq)
        cov.dip_cap = dips == "capped"
        Wu, Wl, Wt, c2 = cov.run(lazy=dips != "all")
        say(f"window: [{Wl:.12g}, {Wu:.12g}] ({c2} cells, {time.perf_counter() - t_start:.1f} s)")
    upper = max(Wu, math.nextafter(Lu + 2 * eta, math.inf))
    choices = {"N": N, "R": R, "J": J, "n0": n0, "theta": _txt(th), "prec": int(prec), "tol": _txt(tolq),
               "comb_prec": comb_prec, "dips": dips, **({"goal": _txt(goalq)} if goalq is not None else {}),
               **({"mirror": True} if mirror else {})}
    return GaussCombCertificate(
        params=dict({"a": _txt(ra[0]), "m": mm, "sigma": _txt(sq), "h": _txt(hq)},
                    **({"a_top": _txt(ra[-1])} if ra[-1] != ra[0] else {})), Delta=_txt(Dq), lower=max(Wl, Ll),
        upper=upper, window_upper=Wu, window_lower=Wl, tail_upper=Lu, tail_lower=Ll, eta=eta, n0=n0,
        T=repr(float(hq * U_win)), theta=_txt(th), cells=c1 + c2, choices=choices,
        t_star=None if Wt is None or Wl < Ll else hq * Wt, seconds=time.perf_counter() - t_start)


@dataclass(frozen=True)
class GaussCheckReport:
    r"""Outcome of :func:`check`: ``ok`` (the recomputed enclosure of :math:`\varepsilon^*` lies in the stated one), the ``reasons`` for a refusal, the ``recomputed`` certificate.

    >>> r = certify_lattice_gauss("2", 1, "0.3", "1", 1, tol="1e-5")
    >>> rep = check(dict(r.to_json(), lower=repr(r.upper)))     # lower edited up to the upper end
    >>> rep.ok, len(rep.reasons)
    (False, 1)
    """

    ok: bool
    reasons: tuple
    recomputed: object = None


def check(doc, progress=None):
    r"""Recompute a :meth:`GaussCombCertificate.to_json` document from its parameters and choices.

    Refused when the recomputed enclosure :math:`[\mathrm{lower}', \mathrm{upper}'] \ni \varepsilon^*`
    (module docstring) is not inside the document's ``[lower, upper]``.  ``progress``: a callable taking the
    covers' status lines (a large row's re-check takes minutes; ``benchmarks/bench_frontier_recheck.py``).

    >>> r = certify_lattice_gauss("2", 1, "0.3", "1", 1, tol="1e-5")
    >>> doc = r.to_json(); doc["upper"] = repr(r.lower - 1e-3)
    >>> check(doc).ok
    False
    """
    reasons = []
    if not isinstance(doc, dict) or doc.get("kind") != "lattice_gauss":
        return GaussCheckReport(False, ("not a lattice_gauss certificate",))
    try:
        p, ch = doc["params"], doc["choices"]
        lo, hi = float(doc["lower"]), float(doc["upper"])
        r = certify_lattice_gauss(p["a"], p["m"], p["sigma"], p["h"], doc["Delta"], tol=ch["tol"],
                                  prec=ch["prec"], theta=ch["theta"], n0=ch["n0"], N=ch["N"], R=ch["R"], J=ch["J"],
                                  comb_prec=ch.get("comb_prec", ch["prec"]),   # older files: the working precision
                                  a_top=p.get("a_top"), dips=ch.get("dips", "all"),   # older files: every dip refined
                                  goal=ch.get("goal"), mirror=ch.get("mirror", False),   # older files: no mirror
                                  progress=progress)
    except (KeyError, TypeError, ValueError) as e:
        return GaussCheckReport(False, (f"malformed or inadmissible certificate: {e}",))
    if not lo <= r.lower:
        reasons.append(f"lower {lo!r} is above the recomputed lower bound {r.lower!r}")
    if not r.upper <= hi:
        reasons.append(f"upper {hi!r} is below the recomputed upper bound {r.upper!r}")
    return GaussCheckReport(not reasons, tuple(reasons), r)
