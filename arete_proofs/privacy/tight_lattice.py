r"""Tight epsilon of the smoothed lattice laws over every real shift :math:`|s| \le \Delta`.

:math:`Z = h M + S` (:mod:`arete_proofs.distributions.lattice`), :math:`M` a DLap comb
(MSDLap(a, m) for the families), :math:`S` Laplace(b) or :math:`\mathcal N(0,\sigma^2)`.  The law
is a comb, not unimodal, so every shift counts:

.. math::

   \varepsilon^* = \sup_{|t - v| \le \Delta} \ln f(t) - \ln f(v)
                 = \sup_t \Big[\ln f(t) - \min_{|v-t| \le \Delta} \ln f(v)\Big].

(With Laplace smoothing the single shift :math:`+\Delta` can cost less than :math:`a` while a
half-step shift costs about :math:`h/(2b)`.)  By symmetry only :math:`t \ge 0` is needed.

**Laplace smoothing: an exact reduction to lattice points.**  On a cell :math:`[hj, h(j+1)]`,
:math:`f = A e^{u/b} + B e^{-u/b}` with :math:`A, B > 0`: convex, and a ratio
:math:`f(v + \Delta)/f(v)` of two such functions (both points in fixed cells) is
:math:`(A'x + B')/(Ax + B)` in :math:`x = e^{2v/b}` -- monotone.  Hence for fixed :math:`v` the
maximum of :math:`f` over :math:`[v-\Delta, v+\Delta]` is at a lattice point or at an end
:math:`v \pm \Delta`, and on each piece the end ratio is maximal where :math:`v` or :math:`v\pm\Delta`
is a lattice point.  So the supremum is over the candidates

1. :math:`t = hk`, :math:`\ln f(hk) - \min_{|v - hk| \le \Delta} \ln f(v)` (the minimum per cell in
   closed form: :math:`u^* = \tfrac b2 \ln(S^L/S^R)` clipped to the cell; full cells by a sliding
   minimum);
2. :math:`v = hj`, :math:`t = hj \pm \Delta`: :math:`\ln f(hj \pm \Delta) - \ln f(hj)`.

**Tail** (both smoothings).  With :math:`\lambda` the dominant pole modulus per lattice index,
:math:`f_\infty(t) = \sum_{k\in\mathbb Z} C_{k \bmod w} e^{-\lambda k} g(t - hk)` satisfies
:math:`f_\infty(t + wh) = e^{-\lambda w} f_\infty(t)`, so its loss is periodic and its supremum
:math:`L` is taken over one period (the same candidates for Laplace).  Along :math:`t + n w h` the
loss of :math:`f` tends to that of :math:`f_\infty`, so :math:`\varepsilon^* \ge L`.  An explicit bound
:math:`|\ln f - \ln f_\infty| \le \eta(T')` for :math:`t \ge T'` (from the comb bound
:math:`C_r - E_k \le p_k e^{\lambda k} \le C_r`, :func:`arete_proofs.distributions.comb.tail_error_bound`,
and the kernel's tail; for Laplace :math:`\rho(t) \le [E_0 S(t) + N(t)]/F_{\min}` with the
monotone majorants written in ``_laplace_rho``) bounds every pair with :math:`t > T = T' + \Delta`
by :math:`L + 2\eta`.  Result: :math:`\max(W, L) \le \varepsilon^* \le \max(W, L + 2\eta)`,
:math:`W` the window maximum over the candidates with :math:`0 \le t \le T`, and :math:`T'` is
chosen so that :math:`2\eta < 10^{-(d+5)}`.

**Speed**: the window's pmf is one table in ball arithmetic
(:meth:`arete_proofs.distributions.lattice.LatticeLaw.use_table`: a power series, or the poles on long
windows), the cells are two contracting
recurrences (:meth:`arete_proofs.distributions.lattice.LatticeLaw.fill_cells`), and the Laplace
candidates compare ratios of the normalised cells (one logarithm at the end).  On a long range a
float64 guide (``arete_proofs.privacy._lattice_scan``) first computes every candidate's loss with an
explicit error bound :math:`E`; only the candidates within :math:`10^3 E` of the float maximum (and, per
window, the cells within :math:`10^3 E` of the float minimum) can be the maximiser, and only those are
evaluated exactly, in the same order -- the maximum and its pair are those of the full exact scan.
:math:`T'` is the doubling's value bisected down (any :math:`T'` with :math:`2\eta(T') < 10^{-(d+5)}` will do).

**Gaussian smoothing**: no cell convexity.  An optimal pair either has
:math:`|t - v| < \Delta` -- then :math:`t` is a local maximum and :math:`v` a local minimum of
:math:`f` -- or :math:`|t - v| = \Delta` -- a maximum of :math:`\ln f(v \pm \Delta) - \ln f(v)`.  Both are
found on a grid of ``grid`` points per lattice step, refined by golden-section search at the
best grid candidates.  This part is a numerical maximisation, *not* a cover argument: the
value is a lower bound found to the working precision and agrees with a finer grid
(tests), but it is not certified.  The tail bound for the Gaussian uses the ratio
:math:`R(t)` of the comb correction to :math:`f_\infty`, which satisfies
:math:`R(t + wh) = e^{-\theta w} R(t)`: its supremum past :math:`T'` is read on one period.

**The transformed GDL** (:func:`tight_epsilon_transformed_gdl`): :math:`M \sim \mathrm{GDL}(\beta, a)`
(:mod:`arete_proofs.distributions.transformed_gdl`), Laplace smoothing, so the window part is the same
exact lattice-point reduction.  Its tail is :math:`p_k = C k^{\beta-1}e^{-ak}(1+O(1/k))`, not a
periodic-exponential profile when :math:`\beta \ne 1`.  *Tail limit.*  For fixed :math:`J`,
:math:`p_{k+j}/p_k \to e^{-aj}` uniformly in :math:`|j| \le J` (the polynomial factor's ratio tends to 1),
and the Laplace kernel's weights decay geometrically away from :math:`t/h` on both sides
(:math:`h/b > a`), so :math:`f(t + u)/f(t) \to f_\infty(t+u)/f_\infty(t)` uniformly in :math:`|u| \le \Delta` along
:math:`t \to \infty` within a fixed phase, with :math:`f_\infty(t) = \sum_k e^{-ak}g(t - hk)`: the loss tends to
the loss :math:`L` of the pure exponential limit law (one period, the same candidates), and
:math:`\varepsilon^* \ge L`.  But the approach is only :math:`O(1/t)` (the polynomial factor), so no window
with an explicit remainder reaches 12 digits.  *The direction, proved by post-processing* (adding
independent noise never increases the privacy loss of any shift): write :math:`Y_\beta = h\,\mathrm{GDL}(\beta, a) + \mathrm{Laplace}(b)`.
GDL is closed under summation in :math:`\beta`, so

* :math:`\beta \ge 1`: :math:`Y_\beta = Y_1 + h\,\mathrm{GDL}(\beta - 1, a)` (independent), hence
  :math:`L \le \varepsilon^*(Y_\beta) \le \varepsilon^*(Y_1)`, and :math:`Y_1 = ` ``lattice_laplace(a, 1, b, h)``, whose tight
  epsilon is exact (above) with the *same* tail limit :math:`L` (DLap's profile is the pure exponential).  When
  :math:`\varepsilon^*(Y_1) = L` (its supremum is the tail limit, not attained) this gives
  :math:`\varepsilon^*(Y_\beta) = L` exactly: the loss approaches :math:`L` from below and never exceeds it.
  Otherwise the result is the bracket :math:`[\max(W, L), \varepsilon^*(Y_1)]` (``W`` the window maximum).
* :math:`\beta < 1`: :math:`Y_1 = Y_\beta + h\,\mathrm{GDL}(1 - \beta, a)`, hence :math:`\varepsilon^*(Y_\beta) \ge \varepsilon^*(Y_1) \ge L`:
  the supremum is at least the DLap one, approached from above.  The window gives
  :math:`\max(W, L, \varepsilon^*(Y_1))`; past it, an explicit bound (``_gdl_tail_eta``) proves every pair with
  :math:`t \ge T = hN_0` has loss at most :math:`L + \bar\eta(N_0)`, so
  :math:`\varepsilon^* \in [\max(W, L, \varepsilon^*(Y_1)),\ \max(W, L + \bar\eta)]`, exact (the window maximum,
  attained) once :math:`W \ge L + \bar\eta`; the window is lengthened (up to 40000 points) until it is.

  *The bound.*  :math:`N_1, N_2 \sim \mathrm{NB}(\beta, 1 - q)`, :math:`q = e^{-a}`: the ratio
  :math:`P(i+1)/P(i) = q(i+\beta)/(i+1)` increases to :math:`q`, so :math:`p_{k+1}/p_k \in [q\rho_k, q]`,
  :math:`\rho_k = (k+\beta)/(k+1)` (:math:`k \ge 0`; :math:`p_k = \sum_j P(j+k)P(j)`).  Hence
  :math:`p_k \le p_0 e^{-a|k|}` and :math:`p_n \ge p_0 q^n G_n`, :math:`G_n = \prod_{i<n}\rho_i = \Gamma(n+\beta)/(\Gamma(\beta)n!)
  > (n+1)^{\beta-1}/\Gamma(\beta)` (Gautschi's inequality).  For :math:`t \in [hn, h(n+1))`, :math:`|v - t| \le \Delta`,
  write :math:`f(x) = p_n e^{an} f_\infty(x) A(x)`, :math:`A(x) = \sum_k w_k(x)\sigma_k`, :math:`\sigma_k = p_k e^{a(k-n)}/p_n`,
  :math:`w_k(x) = e^{-ak}g(x - hk)/f_\infty(x)` (:math:`\sum_k w_k = 1`).  Then
  :math:`\ln f(t) - \ln f(v) \le L + \ln A(t) - \ln A(v)`.  With :math:`u = x/h - k` and :math:`f_\infty(x) \ge e^{-ax/h} e^{-h/b}/(2b)`,
  :math:`w_k(x) \le e^{h/b} e^{-\kappa_1 u}` (:math:`u \ge 0`, :math:`\kappa_1 = h/b - a > 0`) and
  :math:`\le e^{h/b} e^{-\kappa_2|u|}` (:math:`u < 0`, :math:`\kappa_2 = h/b + a`): the weights with :math:`|u| > J` have mass
  :math:`\le m_0 = e^{h/b}[e^{-\kappa_1 J}/(1-e^{-\kappa_1}) + e^{-\kappa_2 J}/(1-e^{-\kappa_2})]`.  On the near indices
  (:math:`|k - n| \le J' = J + F + 2`, :math:`F = \lfloor\Delta/h\rfloor`) :math:`\sigma_k \in [\rho_{n-J'}^{J'}, \rho_{n-J'}^{-J'}]`;
  right of them :math:`\sigma_k \le 1`; left of them :math:`\sigma_k \le 1/G_n` (from the two pmf bounds), with weight
  :math:`\le e^{h/b}e^{-\kappa_1 J}/(1 - e^{-\kappa_1})`.  So
  :math:`\ln A(t)/A(v) \le 2J'(1-\beta)/(n - J' + \beta) + \ln(1 + FL) - \ln(1 - m_0)`,
  :math:`FL = \Gamma(\beta)(n+1)^{1-\beta}e^{h/b}e^{-\kappa_1 J}/(1-e^{-\kappa_1})`.  Taking
  :math:`J(n) = J_0 + \lceil c\ln\frac{n+1}{N_0+1}\rceil`, :math:`c = (1-\beta)/\kappa_1`, keeps :math:`FL \le FL_0` (its value at
  :math:`N_0`) and makes the first term non-increasing in :math:`n` (when :math:`J_0 + F + 3 > c`), so its value at
  :math:`N_0` with :math:`J' = J_0 + F + 3` bounds every :math:`n \ge N_0`: that is :math:`\bar\eta(N_0)`.

>>> r = tight_epsilon_lattice_laplace("5", 8, "0.0625", "0.125", 1, digits=8)   # Theorem 21, eps = 6
>>> 5.3 < r.epsilon < 5.35 and r.epsilon < 6                                      # private with room
True
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from mpmath import mp

from .._validation import positive, resolve_digits
from .._workload import MAX_WINDOW_POINTS, check_work
from ..distributions.comb import msdlap_components, tail_error_bound
from ..distributions.lattice import LatticeLaw, theorem21_parameters

__all__ = ["LatticeTight", "tight_epsilon_lattice", "tight_epsilon_lattice_laplace",
           "tight_epsilon_lattice_gauss", "tight_epsilon_theorem21", "EVERY_REAL_SHIFT", "TransformedGDLTight",
           "tight_epsilon_transformed_gdl"]

#: The shift reduction of a smoothed lattice law (this module).
EVERY_REAL_SHIFT = (
    "every real shift |s| <= Delta (a comb, not unimodal): Laplace smoothing reduces exactly to lattice-point "
    "candidates (cell convexity and monotone ratios); the tail limit is exact from the periodic limit law "
    "f_inf with an explicit bound past the window (arete_proofs.privacy.tight_lattice)")


@dataclass(frozen=True)
class LatticeTight:
    r"""Tight epsilon of a smoothed lattice law: ``epsilon`` in ``[lower_bound, upper_bound]``.

    ``witness``: the pair ``(t, v)`` of the window maximum, or ``inf`` (the tail limit, not
    attained); ``tail_limit`` :math:`L` and its pair ``tail_pair`` on the limit law;
    ``window_max`` :math:`W`; ``T`` the window; ``certified``: whether the window part is an
    exact reduction (Laplace) or a numerical maximisation (Gaussian).

    >>> r = tight_epsilon_lattice_laplace("3", 2, "0.25", "0.5", 1, digits=6)
    >>> r.lower_bound <= r.epsilon <= r.upper_bound
    True
    """

    epsilon: object
    lower_bound: object
    upper_bound: object
    witness: object
    attained: bool
    tail_limit: object
    tail_pair: tuple
    window_max: object
    T: object
    Delta: object
    digits: int
    kernel: str
    certified: bool


# -- Laplace: the candidates -------------------------------------------------------------------
#: ranges of at least this many ``t = hk`` candidates go through the float64 guide (:mod:`._lattice_scan`)
_GUIDE_MIN = 64


def _cell_min(law, j, lo, hi):
    """min of f on [hj, h(j+1)] intersected with [lo, hi] (closed form: convex cell)."""
    h, b = law.h, law.s
    a0, a1 = max(h * j, lo), min(h * (j + 1), hi)
    SL, SR = law.cell(j)
    u = b / 2 * mp.log(SL / SR)
    u = min(max(u, a0), a1)
    return (mp.exp(-u / b) * SL + mp.exp(u / b) * SR) / (2 * b), u


def _cell_min_full(law, j):
    r"""min of f on the whole cell ``j``: from the normalised :math:`(A, B)` (:meth:`LatticeLaw.fill_cells`)
    :math:`f(hj + x) = (A e^{-x/b} + B e^{x/b})/(2b)`, least at :math:`x^* = \tfrac b2 \ln(A/B)` clipped to
    :math:`[0, h]`, with value :math:`\sqrt{AB}/b` inside (the point ``u`` is left ``None`` then, found only
    for the reported pair); otherwise :func:`_cell_min`."""
    n = law._norm.get(j)
    if n is None:
        return _cell_min(law, j, law.h * j, law.h * (j + 1))
    A, B = n
    em, ep = law._eh
    if A <= B:
        return (A + B) / (2 * law.s), law.h * j
    if A * em >= B * ep:
        return (A * em + B * ep) / (2 * law.s), law.h * (j + 1)
    return mp.sqrt(A * B) / law.s, None


def _laplace_candidates(law, Delta, k_range, j_range):
    """max over candidates 1 (t = hk, k in k_range) and 2 (v = hj, t = hj +- Delta, j in j_range)."""
    h = law.h
    D = Delta / h
    F = int(mp.floor(D))
    frac = D - F > mp.mpf(10) ** (-law.dps + 5)
    pair = None
    ks = list(k_range)
    # full cells j in [k - F, k + F - 1]: sliding minimum over the cell minima
    cellmin = {}

    def cm(j):
        v = cellmin.get(j)
        if v is None:
            fm, u = _cell_min_full(law, j)
            v = cellmin[j] = (fm, u, j)
        return v

    def pdf_k(k):  # f(hk)
        return law.pdf_at(k)

    # ratios f(t)/f(v) are compared (one logarithm at the end)
    best = mp.zero
    g = None
    if len(ks) >= _GUIDE_MIN:
        from ._lattice_scan import guide

        g = guide(law, Delta, ks, list(j_range), F, frac)
    if g is not None:  # float64 guide: only the candidates (and cells) that can be the maximum, exactly
        k_keep, cells, j_keep = g
        for k in k_keep:
            t = h * k
            cands = []
            if F >= 1:  # the window's minimum among its near-least cells (ties: the last, as the deque keeps it)
                c = [cm(j) for j in cells[k]]
                fm = min(x[0] for x in c)
                cands.append([x for x in c if x[0] == fm][-1])
            if frac:
                cands.append(_cell_min(law, k - F - 1, t - Delta, t + Delta) + (None,))
                cands.append(_cell_min(law, k + F, t - Delta, t + Delta) + (None,))
            fmin, v, jc = min(cands, key=lambda x: x[0])
            val = pdf_k(k) / fmin
            if val > best:
                best, pair = val, (t, v if v is not None else ("cell", jc))
        for j, sg in j_keep:
            v = h * j
            ft = pdf_k(j + sg * F) if not frac else law.pdf(v + sg * Delta)
            val = ft / pdf_k(j)
            if val > best:
                best, pair = val, (v + sg * Delta, v)
        ks, j_range = [], ()

    dq = deque()
    nxt = ks[0] - F if ks else 0
    for k in ks:
        while nxt <= k + F - 1:
            while dq and cm(dq[-1])[0] >= cm(nxt)[0]:
                dq.pop()
            dq.append(nxt)
            nxt += 1
        while dq and dq[0] < k - F:
            dq.popleft()
        cands = [cm(dq[0])] if dq else []
        t = h * k
        if frac:
            cands.append(_cell_min(law, k - F - 1, t - Delta, t + Delta) + (None,))
            cands.append(_cell_min(law, k + F, t - Delta, t + Delta) + (None,))
        if not cands:  # Delta < h: the cells k-1 and k, partially
            cands = [_cell_min(law, k - 1, t - Delta, t + Delta) + (None,),
                     _cell_min(law, k, t - Delta, t + Delta) + (None,)]
        fmin, v, jc = min(cands, key=lambda x: x[0])
        val = pdf_k(k) / fmin
        if val > best:
            best, pair = val, (t, v if v is not None else ("cell", jc))
    for j in j_range:
        v = h * j
        fv = pdf_k(j)
        for sg in (1, -1):
            ft = pdf_k(j + sg * F) if not frac else law.pdf(v + sg * Delta)
            val = ft / fv
            if val > best:
                best, pair = val, (v + sg * Delta, v)
    if pair is not None and isinstance(pair[1], tuple):  # the interior minimum of a cell: its point
        j = pair[1][1]
        pair = (pair[0], _cell_min(law, j, h * j, h * (j + 1))[1])
    return (mp.log(best) if best > 0 else -mp.inf), pair


def _laplace_rho(law, lim, Tp, theta, E0):
    r"""The bound :math:`\rho(t) \ge |f - f_\infty|/f_\infty` for every :math:`t \ge T'` (module docstring).

    :math:`\rho = [E_0 S + N]/F_{\min}`, :math:`S(t) \le \frac{1}{2b}[(t/h+1)e^{-\nu t} + e^{-\theta t/h}/(1-e^{-\theta})]`,
    :math:`N(t) \le \frac{C_{\max}}{b} e^{-\mu t} x/(1-x)`, :math:`\mu = 1/b - \lambda/h`,
    :math:`\nu = \min(\mu, \theta/h)`, :math:`x = e^{-(h/b - \lambda)}`; both majorants decrease for
    :math:`t \ge 1/\nu - h`, so :math:`T'` is raised to at least that.
    """
    h, b, lam = law.h, law.s, law.lam
    mu = 1 / b - lam / h
    nu = min(mu, theta / h) if theta > 0 else mu
    t = max(Tp, 1 / nu - h)
    S = ((t / h + 1) * mp.exp(-nu * t) + (mp.exp(-theta * t / h) / (1 - mp.exp(-theta)) if theta > 0 else 0)) / (2 * b)
    x = mp.exp(-(h / b - lam))
    N = law.Cmax / b * mp.exp(-mu * t) * x / (1 - x)
    # F_min: min over one period of F(t) = e^{lambda t/h} f_inf(t), per cell in closed form
    Fmin = mp.inf
    for j in range(law.period):
        SL, SR = lim.cell(j)
        c = mu / (1 / b + lam / h)
        u = b / 2 * mp.log(c * SL / SR)
        u = min(max(u, h * j), h * (j + 1))
        Fv = mp.exp(lam * u / h) * (mp.exp(-u / b) * SL + mp.exp(u / b) * SR) / (2 * b)
        Fmin = min(Fmin, Fv)
    return (E0 * S + N) / Fmin, t


# -- Gaussian: numerical maximisation ---------------------------------------------------------
def _golden(fn, a, c, steps):
    """Maximise a unimodal ``fn`` on [a, c] by golden-section search; (value, point)."""
    g = (mp.sqrt(5) - 1) / 2
    x1, x2 = c - g * (c - a), a + g * (c - a)
    f1, f2 = fn(x1), fn(x2)
    for _ in range(steps):
        if f1 < f2:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (c - a)
            f2 = fn(x2)
        else:
            c, x2, f2 = x2, x1, f1
            x1 = c - g * (c - a)
            f1 = fn(x1)
    return (f1, x1) if f1 > f2 else (f2, x2)


def _gauss_candidates(law, Delta, t0, t1, grid, refine, steps):
    """Numerical max over pairs with t in [t0, t1] (module docstring: local max/min pairs and |t - v| = Delta)."""
    h = law.h
    n = int(mp.ceil((t1 - t0 + 2 * Delta) / h * grid))
    xs = [t0 - Delta + (t1 - t0 + 2 * Delta) * i / n for i in range(n + 1)]
    lf = [mp.log(law.pdf(x)) for x in xs]
    dx = xs[1] - xs[0]
    lpdf = law.logpdf
    imax = [i for i in range(1, n) if lf[i] >= lf[i - 1] and lf[i] >= lf[i + 1] and t0 - dx <= xs[i] <= t1 + dx]
    imin = [i for i in range(1, n) if lf[i] <= lf[i - 1] and lf[i] <= lf[i + 1]]
    m = int(mp.nint(Delta / dx))

    def grid_loss(i):  # (A) on the grid: the local max i against the grid minima within Delta and the ends
        lo, hi = max(i - m, 0), min(i + m, n)
        cands = [j for j in imin if lo <= j <= hi] + [lo, hi]
        return lf[i] - min(lf[j] for j in cands), cands

    ranked = sorted(((grid_loss(i), i) for i in imax), key=lambda c: c[0][0], reverse=True)[:refine]
    best, pair = -mp.inf, None
    refined_min = {}
    for (gl, cands), i in ranked:  # refine the best local maxima and the minima they meet
        v, x = _golden(lpdf, xs[i - 1], xs[i + 1], steps)
        lo, hi = x - Delta, x + Delta
        vals = [(lo, lpdf(lo)), (hi, lpdf(hi))]
        floor = min(lf[j] for j in cands)
        for j in cands:
            if j in imin and lf[j] <= floor + 4 * abs(lf[min(j + 1, n)] - lf[j]) + mp.mpf(10) ** (-law.dps + 3):
                if j not in refined_min:
                    w, y = _golden(lambda u: -lpdf(u), xs[j - 1], xs[j + 1], steps)
                    refined_min[j] = (y, -w)
                y, w = refined_min[j]
                if lo <= y <= hi:
                    vals.append((y, w))
        y, w = min(vals, key=lambda c: c[1])
        if v - w > best:
            best, pair = v - w, (x, y)
    # (D) |t - v| = Delta: grid, then refine the best few
    shifted = []
    for sgn in (1, -1):
        for i in range(n + 1):
            j = i + sgn * m
            if 0 <= j <= n and t0 <= xs[j] <= t1:
                shifted.append((lf[j] - lf[i], i, sgn))
    shifted.sort(key=lambda c: c[0], reverse=True)
    for _, i, sgn in shifted[:refine]:
        a, c = xs[max(i - 1, 0)], xs[min(i + 1, n)]
        v, y = _golden(lambda u, s=sgn: lpdf(u + s * Delta) - lpdf(u), a, c, steps)
        if v > best:
            best, pair = v, (y + sgn * Delta, y)
    return best, pair


# -- the driver -------------------------------------------------------------------------------------
#: What a lattice law's window :math:`T/h` grows with (a :class:`~arete_proofs._workload.TooMuchWork` message).
_WINDOW_GROWS = ("the window T/h in lattice steps: 1/a (the comb's slowest decay per step), the smoothing scale "
                 "(b or sigma) against h, and the digits")
#: Most kernel terms the Gaussian scans may sum (about 1e-4 s each: one hour).
MAX_SCAN_TERMS = 3.6e7


def tight_epsilon_lattice(rates, weights, h, kernel, scale, Delta, *, digits=12, grid=24, refine=6,
                          max_T=None):
    r"""Tight epsilon of :math:`h \sum_c w_c\mathrm{DLap}(a_c) + S` over every real shift :math:`|s| \le \Delta` (module docstring).

    >>> r = tight_epsilon_lattice(["3", "3"], [1, 2], "0.5", "laplace", "0.25", 1, digits=6)
    >>> r.certified, r.epsilon >= r.tail_limit
    (True, True)
    """
    d = resolve_digits(digits)
    law = LatticeLaw(rates, weights, h, kernel=kernel, scale=scale, digits=d + 5)
    lim = LatticeLaw(rates, weights, h, kernel=kernel, scale=scale, digits=d + 5, limit=True)
    with mp.workdps(law.dps):
        D = positive(Delta, "Delta")
        hh = law.h
        target = mp.mpf(10) ** (-(d + 5)) / 2
        P = law.period * hh
        # the tail limit: candidates on one period of the limit law
        if kernel == "laplace":
            F = int(mp.floor(D / hh)) + 1
            lim.fill_cells(-2 * F - 2, law.period + 2 * F + 1)  # one period's cells by the recurrences
            L, Lpair = _laplace_candidates(lim, D, range(0, law.period), range(0, law.period))
        else:
            steps = int(2.2 * (d + 8)) + 10
            # both scans: grid points per lattice step over one period and over the window [0, T] (T' at least P)
            scan = (P + 2 * D) / hh * grid * law.gauss_terms()
            check_work("the tight epsilon's scan of one period", scan, MAX_SCAN_TERMS, "kernel terms",
                       seconds_each=1e-4, grows_with="sigma/h and the comb's period")
            L, Lpair = _gauss_candidates(lim, D, mp.zero, P, grid, refine, steps)
        # T': eta(T') < target
        E0, theta = (mp.zero, mp.zero) if len(law.w) == 1 else _e0(law)
        Tp = P
        while True:
            rho, Tp = (_laplace_rho(law, lim, Tp, theta, E0) if kernel == "laplace"
                       else _gauss_rho(law, lim, Tp, theta, E0))
            if rho < 1 and -mp.log(1 - rho) < target:
                break
            Tp = 2 * Tp
            if max_T is not None and Tp > max_T:
                raise ValueError(f"the window would exceed max_T = {max_T}")
        if kernel == "laplace" and Tp > P:
            # the doubling overshoots by up to 2x: bisect down to within 2% (any T' with eta(T') < target will do)
            lo = Tp / 2
            while Tp - lo > Tp / 50:
                mid = (lo + Tp) / 2
                r2, t2 = _laplace_rho(law, lim, mid, theta, E0)
                if r2 < 1 and -mp.log(1 - r2) < target:
                    rho, Tp = r2, t2
                    if t2 > mid:  # raised to the majorants' monotone range: no smaller T'
                        break
                else:
                    lo = mid
        eta = -mp.log(1 - rho)
        T = Tp + D
        K = int(mp.ceil(T / hh))
        if kernel != "laplace":
            check_work("the tight epsilon's scan of the window", (T + 2 * D) / hh * grid * law.gauss_terms(),
                       MAX_SCAN_TERMS, "kernel terms", seconds_each=1e-4, grows_with=_WINDOW_GROWS)
        if kernel == "laplace":
            n = K + 2 * F + law.margin() + 2
            check_work("the tight epsilon's window", n, MAX_WINDOW_POINTS, "lattice points", seconds_each=5e-5,
                       grows_with=_WINDOW_GROWS)
            law.use_table(n)  # the pmf on the window: one power series
            law.fill_cells(-2 * F - 2, K + 2 * F + 1)      # the cells (those of t = hj +- Delta too): recurrences
            W, pair = _laplace_candidates(law, D, range(0, K + 1), range(-F, K + F + 1))
        else:
            W, pair = _gauss_candidates(law, D, mp.zero, T, grid, refine, steps)
        lower, upper = max(W, L), max(W, L + 2 * eta)
        attained = W > L + 2 * eta + mp.mpf(10) ** (-(d + 3))
        eps = W if attained else L
    return LatticeTight(epsilon=eps, lower_bound=lower, upper_bound=upper, witness=pair if attained else mp.inf,
                        attained=attained, tail_limit=L, tail_pair=Lpair, window_max=W, T=T, Delta=Delta,
                        digits=d, kernel=kernel, certified=kernel == "laplace")


def _e0(law):
    r"""``(E0, theta)`` with :math:`E_k \le E_0 e^{-\theta k}` (comb bound), theta chosen for the smallest window.

    The window needed for ``d`` digits is about :math:`(\ln E_0 + 2.3(d+10))/\theta`: minimised over a grid
    of theta (fractions of the gap between the two least pole moduli).
    """
    best = None
    for frac in (0.25, 0.4, 0.55, 0.7, 0.85):
        E, th = tail_error_bound(0, law.w, law.rt, fraction=frac)
        size = (mp.log(E) + (law.d + 10) * mp.log(10)) / th
        if best is None or size < best[0]:
            best = (size, E, th)
    return best[1], best[2]


def _gauss_rho(law, lim, Tp, theta, E0):
    r"""Gaussian smoothing: :math:`\sup_{t \ge T'} |f - f_\infty|/f_\infty` read on one period (module docstring)."""
    h, sg, lam = law.h, law.s, law.lam
    Cmin = min(law.C)
    n = 8 * law.period

    def ratio(t):
        k0 = int(mp.nint(t / h))
        R = int(mp.ceil(12 * sg / h)) + 4
        num = mp.fsum(mp.exp(-(theta + lam) * k) * mp.npdf(t - h * k, 0, sg) for k in range(k0 - R, k0 + R + 1))
        den = mp.fsum(mp.exp(-lam * k) * mp.npdf(t - h * k, 0, sg) for k in range(k0 - R, k0 + R + 1))
        return E0 * num / (Cmin * den)

    P = law.period * h
    r1 = 2 * max(ratio(Tp + P * i / n) for i in range(n + 1))  # factor 2: grid safety (not certified)
    neg = 2 * law.Cmax * mp.fsum(mp.exp(lam * j) * mp.npdf(Tp + h * j, 0, sg) for j in range(1, 60))
    return r1 + neg / lim.pdf(Tp), Tp


def tight_epsilon_lattice_laplace(a, m, b, h, Delta=1, *, digits=12):
    r"""Tight epsilon of :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)` (Theorem 21's family), every real shift.

    >>> r = tight_epsilon_lattice_laplace("2", 1, "0.25", "1", 1, digits=8)
    >>> # DLap(2) on Z + Laplace(1/4): split s into a lattice part and a remainder (Theorem 21's proof):
    >>> # at most max_s min(s/b, a + (1-s)/b) = 3 over 0 <= s <= 1
    >>> r.epsilon <= 3 and r.certified
    True
    """
    w, r = msdlap_components(a, m)
    return tight_epsilon_lattice(r, w, h, "laplace", b, Delta, digits=digits)


def tight_epsilon_lattice_gauss(a, m, sigma, h, Delta=1, *, digits=12, grid=24, refine=6):
    r"""Tight epsilon of :math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)`, numerical window.

    >>> r = tight_epsilon_lattice_gauss("3", 2, "0.2", "0.5", 1, digits=6, grid=12)
    >>> r.certified, r.epsilon >= r.tail_limit
    (False, True)
    """
    w, r = msdlap_components(a, m)
    return tight_epsilon_lattice(r, w, h, "gauss", sigma, Delta, digits=digits, grid=grid, refine=refine)


def tight_epsilon_theorem21(eps, Delta=1, *, digits=12):
    r"""Tight epsilon of Theorem 21's noise at target ``eps`` (:func:`arete_proofs.distributions.lattice.theorem21_parameters`).

    >>> r = tight_epsilon_theorem21(6, digits=8)
    >>> r.epsilon < 6                                             # Theorem 21 holds, with room
    True
    """
    a, m, b, h = theorem21_parameters(eps, Delta)
    return tight_epsilon_lattice_laplace(a, m, b, h, Delta, digits=digits)


@dataclass(frozen=True)
class TransformedGDLTight(LatticeTight):
    r""":class:`LatticeTight` of a transformed GDL with the DLap comparison ``dlap`` (:math:`\varepsilon^*(Y_1)`), ``beta``, and
    ``tail_gap``: the largest candidate loss on the window's last ten lattice points minus :math:`L`
    (negative for :math:`\beta > 1`, positive and shrinking for :math:`\beta < 1`; module docstring).

    >>> r = tight_epsilon_transformed_gdl("2", "0.5", "0.125", "0.25", 1, digits=6)
    >>> r.certified, r.epsilon == r.tail_limit, r.tail_gap < 0       # beta > 1: the tail limit, from below
    (True, True, True)
    """

    dlap: object = None
    beta: object = None
    tail_gap: object = None


#: the longest window the beta < 1 branch of :func:`tight_epsilon_transformed_gdl` tries
_GDL_MAX_WINDOW = 40000
#: Largest :func:`_gdl_table_cost` a longer window may have (about 20-60 s): past it the bracket is returned open
#: (``certified`` False) rather than the window grown for minutes or hours.
_GDL_MAX_COST = 1e6


def _gdl_table_cost(K, a, d):
    """Cost units of the GDL's pmf table on ``K`` points: ``K * (wd/1000)^1.6``, ``wd`` the digits the forward
    recurrence needs (``d + 15 + 2 a K / ln 10``: each step amplifies the growing solution by ``e^{2a}``).  One unit
    is about 2e-5 to 5e-5 s (``gdl.pmf_range``: 6410 points at a = 1, 5618 digits, 1.7 s)."""
    wd = d + 15 + 2 * float(a) * K / 2.303
    return K * (wd / 1000) ** 1.6


def _gdl_tail_eta(beta, a, b, h, Delta, N0, d, parts=False):
    r""":math:`\bar\eta(N_0)`: every pair with :math:`t \ge hN_0` of :math:`h\,\mathrm{GDL}(\beta, a) + \mathrm{Laplace}(b)`,
    :math:`\beta < 1`, has loss at most :math:`L + \bar\eta` (module docstring, :math:`\beta < 1`); ``inf`` if
    :math:`N_0` is too short for the bound.  :math:`J_0` is the least integer with :math:`J_0 \ge F + 2`,
    :math:`J_0 + F + 3 > c` and :math:`FL_0, m_0 \le 10^{-(d+5)}`.  ``parts``: the pair (the :math:`\sigma` term,
    :math:`\ln(1 + FL_0) - \ln(1 - m_0)`) instead of their sum.

    >>> e1, e2 = (_gdl_tail_eta(mp.mpf("0.5"), mp.mpf("0.5"), mp.mpf("0.125"), mp.mpf("0.25"), 1, n, 10) for n in (400, 4000))
    >>> 0 < e2 < e1 < 1                                  # about 2 J' (1 - beta) / N0
    True
    """
    beta, a, b, h, Delta = (mp.mpf(x) for x in (beta, a, b, h, Delta))
    hb = h / b
    k1, k2 = hb - a, hb + a
    F = int(mp.floor(Delta / h))
    c = (1 - beta) / k1
    cut = mp.mpf(10) ** (-(d + 5))
    pre = mp.gamma(beta) * (N0 + 1) ** (1 - beta) * mp.exp(hb) / -mp.expm1(-k1)   # FL_0 = pre e^{-k1 J0}
    J0 = max(F + 2, int(mp.floor(c)) - F - 2, int(mp.ceil(mp.log(pre / cut) / k1)))
    while True:
        m0 = mp.exp(hb) * (mp.exp(-k1 * J0) / -mp.expm1(-k1) + mp.exp(-k2 * J0) / -mp.expm1(-k2))
        if m0 <= cut:
            break
        J0 += 1
    FL0 = pre * mp.exp(-k1 * J0)
    xi = J0 + F + 3
    if N0 <= xi:
        return (mp.inf, mp.inf) if parts else mp.inf
    sig, far = 2 * (1 - beta) * xi / (N0 - xi + beta), mp.log1p(FL0) - mp.log1p(-m0)
    return (sig, far) if parts else sig + far


def tight_epsilon_transformed_gdl(beta, a, b, h, Delta=1, *, digits=12, window=None):
    r"""Tight epsilon of :math:`h\,\mathrm{GDL}(\beta, a) + \mathrm{Laplace}(b)` over every real shift :math:`|s| \le \Delta` (module docstring).

    ``window``: lattice points :math:`K` of the window :math:`0 \le t \le Kh` (default
    :math:`\max(400, 40\lceil\Delta/h\rceil)`; for :math:`\beta < 1` lengthened up to 40000 points until the tail
    bound closes the bracket, unless ``window`` is given).  ``certified``: True when the bracket closes (then
    ``epsilon`` is exact), False otherwise.

    >>> r = tight_epsilon_transformed_gdl("0.5", "0.5", "0.125", "0.25", 1, digits=6)
    >>> # beta < 1: at least the DLap value (dlap and tail_limit: the same L by two routes, equal to ~1e-25), and
    >>> # exact: the window maximum is above L + eta, the bound past the window
    >>> r.epsilon >= r.dlap >= r.tail_limit - 1e-20 and r.certified and r.attained
    True
    """
    from ..distributions.transformed_gdl import GDLSource

    d = resolve_digits(digits)
    src = GDLSource(beta, a)
    law = LatticeLaw(None, None, h, kernel="laplace", scale=b, digits=d + 5, source=src)
    lim = LatticeLaw(None, None, h, kernel="laplace", scale=b, digits=d + 5, limit=True, source=src)
    y1 = tight_epsilon_lattice([a], [1], h, "laplace", b, Delta, digits=d)
    with mp.workdps(law.dps):
        D = positive(Delta, "Delta")
        hh = law.h
        L, Lpair = _laplace_candidates(lim, D, range(0, 1), range(0, 1))
        F = int(mp.floor(D / hh)) + 1
        K = int(window) if window is not None else max(400, 40 * int(mp.ceil(D / hh)))
        if K < 10:
            raise ValueError(f"window must be an integer >= 10, got {window!r}")

        def scan(K):   # the window's maximum and pair, and the largest loss on its last ten lattice points
            law.use_table(K + 2 * F + law.margin() + 2)
            law.fill_cells(-F - 2, K + F + 1)
            W, pair = _laplace_candidates(law, D, range(0, K + 1), range(-F, K + F + 1))
            end, _ = _laplace_candidates(law, D, range(K - 10, K + 1), range(K - 10, K + 1))
            return W, pair, end

        W, pair, end = scan(K)
        tol = mp.mpf(10) ** (-(d + 3))
        if src.beta >= 1:
            lower, upper = max(W, L), mp.mpf(y1.upper_bound)
            certified = upper - lower <= mp.mpf(10) ** (-(d + 2))
            eps = lower
        else:
            eta = _gdl_tail_eta(src.beta, src.rate, law.s, hh, D, K, d)
            while (W < L + eta and window is None and K < _GDL_MAX_WINDOW
                   and _gdl_table_cost(4 * K, src.rate, d) <= _GDL_MAX_COST):
                K = min(4 * K, _GDL_MAX_WINDOW)         # a longer window: a smaller eta and the same W or more
                W, pair, end = scan(K)
                eta = _gdl_tail_eta(src.beta, src.rate, law.s, hh, D, K, d)
            lower = max(W, L, mp.mpf(y1.lower_bound))
            upper = min(max(W, L + eta), D / law.s)
            certified = upper - lower <= mp.mpf(10) ** (-(d + 2))
            eps = lower
        attained = W > L + tol
    return TransformedGDLTight(epsilon=eps, lower_bound=lower, upper_bound=upper, witness=pair if attained else mp.inf,
                               attained=attained, tail_limit=L, tail_pair=Lpair, window_max=W, T=K * hh, Delta=Delta,
                               digits=d, kernel="laplace", certified=bool(certified), dlap=y1.epsilon, beta=src.beta,
                               tail_gap=end - L)
