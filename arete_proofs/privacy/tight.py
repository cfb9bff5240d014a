r"""Tight privacy loss of the Arete mechanism (Section 4.2, Lemma 3, Corollary 5, Figure 3).

The Arete mechanism releases :math:`q(x) + Z`, :math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)`
(Definition 4).  Its worst-case privacy loss for two inputs whose query values differ by
:math:`d \ge 0` is

.. math::

    l(d) = \sup_{t\in\mathbb{R}} L_d(t), \qquad L_d(t) = \ln f_A(t) - \ln f_A(t+d),

and the *tight epsilon* for sensitivity :math:`\Delta` is :math:`\varepsilon^* = l(\Delta)`:
the mechanism is :math:`\varepsilon`-DP exactly when :math:`\varepsilon \ge \varepsilon^*`
(Corollary 5 with the paper's parameters claims :math:`\varepsilon^* \le \varepsilon`).
:func:`tight_epsilon` computes :math:`\varepsilon^*` to a requested number of significant
digits, with a certificate (a cover of :math:`[0, \infty)` by cells with rigorous upper
bounds); :func:`privacy_loss` is :math:`l(d)`, :func:`loss_curve` the paper's Figure 3.

What is **proved** (every step below is elementary; "Lemma 2" is the paper's symmetry
and monotonicity of :math:`f_A`; :math:`\ell = \ln f_A`, nonincreasing on :math:`[0,\infty)`):

1. *Only* :math:`t \ge 0` *matters* (Section 4.2's remark, sharpened).  For
   :math:`t \le -d/2`, :math:`|t| \ge |t+d|` so :math:`L_d(t) \le 0`; for
   :math:`t = -s \in [-d/2, 0)`, :math:`L_d(-s) = \ell(s) - \ell(d-s) \le \ell(s) - \ell(s+d) = L_d(s)`.
   The lower DP inequality :math:`e^{-\varepsilon} \le f_A(t)/f_A(t+d)` is the upper one
   at :math:`t' = -t-d`.  Hence :math:`l(d) = \sup_{t\ge0} L_d(t)`.
2. *Shift reduction* (Section 4.2): for :math:`t \ge 0` and :math:`0 \le a \le d`,
   :math:`L_a(t) \le L_d(t)`, so :math:`l` is nondecreasing and the sup over
   :math:`|a| \le \Delta` is :math:`l(\Delta)` (:math:`a < 0` is :math:`|a|` by symmetry).
   :func:`check_shift_reduction` confirms it numerically.
3. *Lipschitz bound.*  :math:`f_A = f_{\Gamma-\Gamma} * f_L` and
   :math:`|f_L'| = f_L/\lambda`, so :math:`-1/\lambda \le \ell' \le 0` on :math:`t > 0`,
   :math:`|L_d'| \le 1/\lambda` there and :math:`l(d) \le d/\lambda`
   (equality for Laplace noise, :func:`laplace_loss`).
4. *Curvature.*  :math:`f_L - \lambda^2 f_L'' = \delta` gives
   :math:`f_A'' = (f_A - f_{\Gamma-\Gamma})/\lambda^2` for :math:`t \ne 0`, hence, with
   :math:`r = f_{\Gamma-\Gamma}/f_A` and :math:`q = \ell'`, exactly
   :math:`\ell'' = (1-r)/\lambda^2 - q^2` (:math:`= (4p(1-p) - r)/\lambda^2`,
   :math:`p = P(Y > 0 \mid Z = t)` for the Laplace part :math:`Y`) and

   .. math::

       L_d''(t) = \frac{r(t+d) - r(t)}{\lambda^2} + q(t+d)^2 - q(t)^2 .

   On a cell :math:`[a,b]` monotonicity of :math:`f_{\Gamma-\Gamma}` and :math:`f_A`
   brackets :math:`r` by endpoint values
   (:math:`f_{\Gamma-\Gamma}(b)/f_A(a) \le r(t) \le f_{\Gamma-\Gamma}(a)/f_A(b)`), and
   :math:`|q|` lies within :math:`h\sup|\ell''|` of the mean slope
   :math:`|\ell(b)-\ell(a)|/h` (mean value theorem; :math:`|\ell''| \le \max(r, |1-r|)/\lambda^2`,
   :math:`|q| \le 1/\lambda`).  This gives a lower bound :math:`-M` and an upper bound of
   :math:`L_d''` on the cell; both are :math:`O(h + d)` where :math:`L_d` is flat.
   Near :math:`t = 0` with :math:`\alpha < 1/2`, :math:`r \to \infty` and :math:`L_d` is
   *provably concave*: that is why the maximiser can sit at a tiny positive :math:`t^*`
   (of the order of :math:`(\lambda/\theta)^{1/(2\alpha)}`: :math:`6.0\cdot10^{-8}` for
   Figure 4's :math:`\varepsilon = 6` set, far below :math:`10^{-15}` for 7 and 8),
   and also why it can be certified cheaply there.
5. *Cell bounds* on :math:`[a,b] \subset [0,\infty)` from the values of :math:`\ell` at
   :math:`a, b, a+d, b+d`: (i) monotonicity + Lipschitz,
   :math:`L_d(t) \le \min(\ell(a), \ell(b) + \tfrac{b-t}{\lambda}) + \min(-\ell(b+d), -\ell(a+d) + \tfrac{t-a}{\lambda})`;
   (ii) the lower curvature bound :math:`L_d'' \ge -M`: :math:`L_d \le` chord
   :math:`+ \tfrac M2 (t-a)(b-t)`; (iii) where the upper curvature bound is :math:`\le 0`
   on this and the neighbouring cell, concavity: :math:`L_d` lies below the extended
   chords of the neighbouring cells.  The cell's bound is the smallest of these.
6. *Tail* (:math:`0 < \alpha < 1`, :math:`\lambda < \theta`).  On :math:`(0,\infty)`,
   :math:`f_{\Gamma-\Gamma}(y) = \int_0^\infty f_\Gamma(y+x) f_\Gamma(x)dx` is completely
   monotone (:math:`(y+x)^{\alpha-1}e^{-(y+x)/\theta}` is, for :math:`\alpha \le 1`), hence
   log-convex, so :math:`R(y) = f_{\Gamma-\Gamma}(y)/f_{\Gamma-\Gamma}(y+d)` is nonincreasing.
   Splitting the Gamma-Gamma variable of the convolution at :math:`y_0 \le t`:

   .. math::

       f_A(t) \le R(y_0) f_A(t+d) + f_L(t-y_0), \qquad
       f_A(s) \ge \tfrac{1-e^{-1}}{2} f_{\Gamma-\Gamma}(s+\lambda)
              \ge \tfrac{1-e^{-1}}{2} P(X\le\theta) f_\Gamma(s+\lambda+\theta)

   (the second from :math:`Y \in [-\lambda, 0]` and Lemma 14's lower bound with
   :math:`D_\Gamma = \theta`).  With :math:`y_0 = \eta T`,
   :math:`\eta = (1-\lambda/\theta)/2`, this gives for all :math:`t \ge T`

   .. math::

       L_d(t) \le \ln\big(R(\eta T) + K\,(T+c)^{1-\alpha} e^{-T((1-\eta)/\lambda - 1/\theta)}\big),
       \qquad c = d+\lambda+\theta,

   with an explicit :math:`K`, once :math:`T + c \ge (1-\alpha)/(1/\lambda - 1/\theta)`
   (beyond that point :math:`(t+c)^{1-\alpha}e^{-t(1/\lambda-1/\theta)}` decreases, as in
   Lemma 28).  The right side tends to :math:`d/\theta`; :math:`T` is increased until it
   is below the maximum found.  The tail *limit* is :math:`d/\max(\theta,\lambda)`:
   :math:`f_A(t) \sim C t^{\alpha-1}e^{-t/\theta}` for :math:`\lambda < \theta`, so
   :math:`L_d(t) = d/\theta + (1-\alpha)\ln(1+d/t) + o(1)` approaches it *from above*
   when :math:`\alpha < 1`; :math:`e^{t/\lambda} f_A(t) \to E[e^{X/\lambda}]/(2\lambda)`
   (monotone convergence) for :math:`\lambda > \theta`; and :math:`Z \sim \Gamma{-}\Gamma(\alpha+1,\theta)`
   for :math:`\lambda = \theta`.
7. *Closed cases.*  :math:`\lambda \ge \theta`: by 3 and 6, :math:`\varepsilon^* = d/\lambda`,
   approached as :math:`t \to \infty` and not attained.  :math:`\alpha \ge 1`: Gamma
   densities of shape :math:`\ge 1` and the Laplace density are log-concave, so is their
   convolution :math:`f_A` (Prekopa), :math:`L_d` is nondecreasing and
   :math:`\varepsilon^* = d/\max(\theta,\lambda)`, the tail limit.  In both cases
   ``t_star`` is ``+inf`` and ``attained`` is False.

What is **numerically checked**: the values of :math:`f_A` (the engine
:mod:`arete_proofs.distributions.arete`, relative error :math:`< 10^{-\text{digits}}` by its digits
contract), of :math:`\ln f_{\Gamma-\Gamma}` (:mod:`arete_proofs.distributions.gamma_gamma`, absolute
error :math:`< 10^{-8}`, used only inside the curvature and tail bounds, with a
:math:`10^{-6}` relative safety margin on :math:`r` and :math:`10^{-7}` on :math:`\ln R`) and of
the closed forms in 6 enter the bounds of 5 and 6 with their error allowances.  The
search itself (where to put the cells) uses the float64 densities of
:mod:`arete_proofs.distributions.fast`; nothing from float64 enters the certificate.  Every cell of
the cover of :math:`[0, T]` is checked with engine values at 10 digits; cells whose bound
is within :math:`5\cdot 10^{-9}` of the maximum are re-checked and refined at
``digits + 4`` (more when :math:`\varepsilon^*` is small).  The result is the engine
value :math:`L_d(t^*)` at the best point found, recomputed at 10 more digits (the two
must agree), and the certified bracket ``[lower_bound, upper_bound]`` has relative
width :math:`\le 10^{-\text{digits}}`, otherwise :class:`~arete_proofs.PrecisionError`.

>>> from mpmath import mp
>>> from arete_proofs import laplace
>>> # Laplace noise: ln f_L(t)/f_L(t+Delta) = Delta/lam for every t >= 0 (Lemma 26), the Lipschitz bound
>>> all(mp.almosteq(laplace.logpdf(t, "0.5") - laplace.logpdf(t + 2, "0.5"), laplace_loss(2, "0.5")) for t in (0, 1, 7))
True
>>> # lam >= theta: the Lipschitz bound Delta/lam is the tail limit, hence the supremum
>>> r = tight_epsilon("0.3", 1, 2, 1)
>>> r.epsilon == mp.mpf(1) / 2 and r.t_star == mp.inf and not r.attained
True
>>> # Figure 4, eps = 6 set: tail limit Delta/theta < tight epsilon < Lipschitz bound Delta/lam
>>> a, th, lam = FIGURE_4[6]
>>> r = tight_epsilon(a, th, lam, 1, digits=6)
>>> r.tail_limit < r.epsilon < 1 / mp.mpf(lam) and mp.nstr(r.epsilon, 6)
'5.99966'
>>> 1e-8 < r.t_star < 1e-7                         # the maximiser sits at a tiny positive t
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from mpmath import mp

from ..distributions import arete, fast, gamma_gamma, staircase
from .._validation import GUARD_DIGITS, PrecisionError, parse_precision, positive, real, resolve_digits
from ..distributions.params import FIGURE_4, lemma3_applies, paper_parameters

__all__ = [
    "FIGURE_4",
    "MAX_PRIVACY_DIGITS",
    "TightEpsilon",
    "CoverCheck",
    "ShiftReduction",
    "SmallestPrivateEps",
    "tight_epsilon",
    "privacy_loss",
    "check_shift_reduction",
    "check_cover",
    "loss_curve",
    "laplace_loss",
    "loss_curves",
    "paper_table",
    "smallest_private_eps",
]

#: Largest ``digits`` accepted by the privacy-loss functions (the certified refinement
#: near the maximum costs one engine batch per halving of the cells; beyond ~40 digits
#: the engine's own cost per point dominates and a call takes minutes).
MAX_PRIVACY_DIGITS = 40

_COARSE_DIGITS = 10  # precision of the engine check of the whole cover
_GG_DIGITS = 8  # precision of f_GG inside the curvature bounds
_ETA = mp.mpf("1e-6")  # relative safety margin on the r = f_GG/f_A bounds
_DEFER = 50  # cells within _DEFER error allowances of the maximum go to the next tier
_MAX_ENGINE_POINTS = 6000
_MAX_ROUNDS = 400


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TightEpsilon:
    r"""Result of :func:`tight_epsilon` / the supremum behind :func:`privacy_loss`.

    ``epsilon``: :math:`\sup_t \ln f_A(t)/f_A(t+\Delta)` with ``digits`` significant digits
    (relative error :math:`< 10^{-\text{digits}}`, certified by ``[lower_bound, upper_bound]``;
    the three carry guard digits beyond ``digits`` and satisfy
    ``lower_bound <= epsilon <= upper_bound`` exactly).
    ``t_star``: the best point found (the maximiser up to the flatness of the maximum;
    ``+inf`` when the supremum is the tail limit and not attained).  ``evaluations``:
    number of engine evaluations of :math:`f_A` (points; the float64 search is not
    counted).  ``tail_limit``: :math:`\Delta/\max(\theta,\lambda)`.  ``search_end``:
    the :math:`T` beyond which the tail bound holds (``tail_bound`` is the bound there);
    ``cells``: cells of the certified cover, ``cover``: its points (for :func:`check_cover`);
    ``achieved_digits``: :math:`-\log_{10}` of the certified relative width;
    ``attained``: False when the supremum is only approached as :math:`t \to \infty`
    (``method`` says which closed case applied).

    >>> from mpmath import mp
    >>> # lam >= theta: the supremum is the tail limit Delta/max(theta, lam), not attained
    >>> r = tight_epsilon("0.3", 1, 2, 1)
    >>> r.lower_bound <= r.epsilon <= r.upper_bound and r.epsilon == r.tail_limit == mp.mpf(1) / 2
    True
    >>> r.attained
    False
    """

    epsilon: object
    t_star: object
    digits: int
    evaluations: int
    tail_limit: object
    lower_bound: object = None
    upper_bound: object = None
    attained: bool = True
    method: str = "search"
    search_end: object = None
    tail_bound: object = None
    cells: int = 0
    achieved_digits: float = float("inf")
    cover: tuple = field(default=(), repr=False)


@dataclass(frozen=True)
class CoverCheck:
    r"""Result of :func:`check_cover`: certified bounds from a *given* set of points.

    ``certified`` is True when the points cover ``[0, T]`` (``gaps`` empty), the tail bound
    at ``T`` is below the best value found, and ``upper - lower <= 10**-digits * lower``.
    The bounds enclose the tight epsilon :math:`\sup_t \ln f_A(t)/f_A(t+\Delta)`.

    >>> c = check_cover([0, "0.5", 1, 2, 4, 8], "0.5", 2, 1, digits=3)
    >>> c.lower <= c.upper, c.gaps          # a coarse cover: valid bounds, not yet certified
    (True, ())
    """

    lower: object
    upper: object
    certified: bool
    gaps: tuple
    tail_bound: object
    worst_cell: tuple
    best_t: object


@dataclass(frozen=True)
class ShiftReduction:
    r"""Result of :func:`check_shift_reduction`: ``per_shift`` holds ``(a, l(|a|))``.

    ``holds``: no shift :math:`|a| \le \Delta` has a larger loss than :math:`l(\Delta)`
    (Section 4.2's reduction to the single shift :math:`\Delta`).

    >>> # lam >= theta: the loss is the closed form 1/lam = 1/2 for both shifts
    >>> r = check_shift_reduction("0.3", 1, 2, 1, ["-1", "1"], digits=4)
    >>> r.holds and all(loss <= r.epsilon for _, loss in r.per_shift)
    True
    """

    Delta: object
    epsilon: object
    per_shift: tuple
    holds: bool


@dataclass(frozen=True)
class SmallestPrivateEps:
    """Result of :func:`smallest_private_eps`.

    ``epsilon``: the smallest nominal eps in ``search_range`` such that the paper's parameters
    (Lemma 3's, for the sensitivity ``Delta``) are eps-DP at every scanned eps above it (``crossing`` True: a certified crossing, the
    parameters are DP at ``epsilon`` = ``bracket[1]`` and not at ``bracket[0]``;
    ``crossing`` False: no violation was found in the whole range, ``epsilon`` is its lower
    end).  ``violations``: eps intervals of the float64 scan where the parameters are *not*
    DP (may be non-empty below ``epsilon``: the DP set need not be an interval).
    ``max_ratio``: the largest scanned ``tight/eps``.
    """

    Delta: object
    epsilon: object
    crossing: bool
    bracket: tuple
    tight_at_epsilon: object
    search_range: tuple
    max_ratio: float
    violations: tuple
    scan: tuple
    digits: int


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _digits(digits):
    if isinstance(digits, bool) or not isinstance(digits, int):
        raise ValueError(f"digits must be an integer between 1 and {MAX_PRIVACY_DIGITS}, got {digits!r}")
    if not 1 <= digits <= MAX_PRIVACY_DIGITS:
        raise ValueError(f"digits must be an integer between 1 and {MAX_PRIVACY_DIGITS}, got {digits}")
    return resolve_digits(digits)


def _parse(alpha, theta, lam, digits):
    with mp.workdps(parse_precision(digits + 20)):
        return positive(alpha, "alpha"), positive(theta, "theta"), positive(lam, "lam")


# ---------------------------------------------------------------------------
# the problem: values of l = ln f_A and ln f_GG at p and p + shift
# ---------------------------------------------------------------------------


class _Problem:
    def __init__(self, alpha, theta, lam, shift, digits):
        self.alpha, self.theta, self.lam, self.shift = alpha, theta, lam, shift
        self.digits = digits
        self.af, self.thf, self.lamf, self.shf = (float(x) for x in (alpha, theta, lam, shift))
        th, la = self.thf, self.lamf
        # fast.py is validated for theta, lam in [1e-3, 1e3]; Arete rescales (Z/s ~ Arete(alpha, theta/s, lam/s))
        self.s = 1.0 if (1e-3 <= th <= 1e3 and 1e-3 <= la <= 1e3) else math.sqrt(th * la)
        self.evaluations = 0
        self.gg_evaluations = 0
        self.float_evaluations = 0
        self._gg_cache = {}

    # -- float64 (search only) ------------------------------------------------
    def fvals(self, t):
        t = np.asarray(t, dtype=float)
        s = self.s
        x, y = t / s, (t + self.shf) / s
        ls = math.log(s)
        a, th, la = self.af, self.thf / s, self.lamf / s
        self.float_evaluations += 2 * t.size
        l = fast.logpdf(x, a, th, la) - ls
        m = fast.logpdf(y, a, th, la) - ls
        with np.errstate(all="ignore"):
            g = fast.gg_logpdf(x, a, th) - ls
            G = fast.gg_logpdf(y, a, th) - ls
        return l, m, g, G

    # -- engine (certificate) ---------------------------------------------------
    def lgg(self, x):
        """ln f_GG(x), x >= 0, with absolute error < 10^-_GG_DIGITS (cached).

        gamma_gamma.logpdf delivers *significant* digits of the logarithm, so digits are
        added for its magnitude (about x/theta + |ln x| + |ln theta| + ln Gamma(alpha))."""
        v = self._gg_cache.get(x)
        if v is None:
            self.gg_evaluations += 1
            with mp.workdps(30):
                size = (x / self.theta + abs(mp.log(x)) if x > 0 else 0) + abs(mp.log(self.theta)) \
                    + abs(mp.loggamma(self.alpha)) + 10
                extra = int(mp.ceil(mp.log10(size)))
            v = gamma_gamma.logpdf(x, self.alpha, self.theta, digits=_GG_DIGITS + extra)
            self._gg_cache[x] = v
        return v

    def evals(self, pts, dd):
        """(l, m, g, G) as object arrays of mpf at the points ``pts`` (mpf, exact)."""
        W = dd + 40
        with mp.workdps(W):
            sh = [p + self.shift for p in pts]
        vals = arete.pdf(list(pts) + sh, self.alpha, self.theta, self.lam, digits=dd)
        self.evaluations += len(vals)
        n = len(pts)
        with mp.workdps(dd + 20):
            logs = []
            for v in vals:
                if not v > 0:
                    raise PrecisionError("f_A underflowed to 0 inside the search interval")
                logs.append(mp.log(v))
        g = [self.lgg(p) for p in pts]
        G = [self.lgg(q) for q in sh]
        return _obj(logs[:n]), _obj(logs[n:]), _obj(g), _obj(G)

    def engine_L(self, t, dd):
        """L(t) = l(t) - l(t + shift) from one engine call at ``dd`` digits."""
        with mp.workdps(dd + 40):
            ts = [+t, t + self.shift]
        vals = arete.pdf(ts, self.alpha, self.theta, self.lam, digits=dd)
        self.evaluations += 2
        with mp.workdps(dd + 20):
            return mp.log(vals[0]) - mp.log(vals[1])


def _obj(seq):
    out = np.empty(len(seq), dtype=object)
    out[:] = list(seq)
    return out


# ---------------------------------------------------------------------------
# cell bounds (item 5 of the module docstring), generic over float64 / mpf arrays
# ---------------------------------------------------------------------------


class _Num:
    """Arithmetic namespace: float64 arrays (search) or object arrays of mpf (certificate)."""

    def __init__(self, mpmode):
        self.mp = mpmode
        self.inf = mp.inf if mpmode else np.inf
        self.exp = np.frompyfunc(mp.exp, 1, 1) if mpmode else np.exp

    def b(self, x):
        return np.asarray(x).astype(bool)

    def full(self, n, v):
        if self.mp:
            out = np.empty(n, dtype=object)
            out[:] = [v] * n
            return out
        return np.full(n, v, dtype=float)


def _clip(x, lo, hi):
    return np.minimum(np.maximum(x, lo), hi)


def _cell_bounds(p, l, m, g, G, lam, e, num):
    """Upper bounds of L = l(t) - l(t + shift) on every cell [p_i, p_{i+1}].

    ``e`` bounds the absolute error of every value in ``l`` and ``m``; ``g``, ``G``
    (ln f_GG) only enter the curvature bounds, with the relative margin ``_ETA``.
    Returns (U, L, concave flags).
    """
    inf = num.inf
    exp = num.exp
    eta = _ETA if num.mp else 1e-6
    L = l - m
    a, b = p[:-1], p[1:]
    h = b - a
    la, lb, lA, lB = l[:-1], l[1:], m[:-1], m[1:]
    La, Lb = L[:-1], L[1:]
    n = len(h)
    two_e = 2 * e

    # (i) monotonicity + Lipschitz
    def f1(t):
        return np.minimum(la, lb + (b - t) / lam) + np.minimum(-lB, -lA + (t - a) / lam)

    t1 = _clip(b - lam * (la - lb), a, b)
    t2 = _clip(a + lam * (lA - lB), a, b)
    U1 = np.maximum(np.maximum(f1(a), f1(b)), np.maximum(f1(t1), f1(t2))) + two_e

    # slopes: q = l' on the cell lies within K h of the mean slope (MVT), K >= |l''|
    r_hi = exp(g[:-1] - lb) * (1 + eta)  # >= r(t) = f_GG(t)/f_A(t), t in [a, b]
    r_lo = exp(g[1:] - la) * (1 - eta)  # <= r(t)
    R_hi = exp(G[:-1] - lB) * (1 + eta)  # >= r(t + d)
    R_lo = exp(G[1:] - lA) * (1 - eta)  # <= r(t + d)
    lam2 = lam * lam
    qcap = 1 / lam

    def qrange(lo_, hi_, rmax, rmin):
        mean = np.abs(hi_ - lo_) / h
        K = np.maximum(rmax, np.abs(1 - rmin)) / lam2
        fin = num.b(K < inf)
        spread = np.where(fin, K * h, 0 * h + qcap) + two_e / h
        qmax = np.minimum(mean + spread, 0 * h + qcap)
        qmin = np.maximum(mean - spread, 0 * h)
        return qmin, qmax

    qmin_t, qmax_t = qrange(la, lb, r_hi, r_lo)
    qmin_s, qmax_s = qrange(lA, lB, R_hi, R_lo)
    # (ii) L'' = (r(t+d) - r(t))/lam^2 + q(t+d)^2 - q(t)^2 >= -M  (l'' = (1 - r)/lam^2 - q^2 exactly)
    M = (r_hi - R_lo) / lam2 + qmax_t * qmax_t - qmin_s * qmin_s
    okM = num.b(M < inf)
    Ms = np.where(okM, M, 0 * h)
    pos = num.b(Ms > 0)
    Mp = np.where(pos, Ms, 0 * h + 1)
    s = (Lb - La) / h
    topt = _clip((a + b) / 2 + s / Mp, a, b)
    quad = La + s * (topt - a) + Mp / 2 * (topt - a) * (b - topt)
    U2 = np.where(pos, quad, np.maximum(La, Lb)) + two_e
    U2 = np.where(okM, U2, num.full(n, inf))

    # (iii) concavity certified by the upper curvature bound
    #       L'' <= (r(t+d)_max - r(t)_min)/lam^2 + q(t+d)_max^2 - q(t)_min^2 <= 0: extended chords of the neighbours
    Cup = (R_hi - r_lo) / lam2 + qmax_s * qmax_s - qmin_t * qmin_t
    C = num.b(Cup <= 0)
    U3 = num.full(n, inf)
    if n >= 2:
        leftok = np.zeros(n, dtype=bool)
        rightok = np.zeros(n, dtype=bool)
        leftok[1:] = C[1:] & C[:-1]
        rightok[:-1] = C[:-1] & C[1:]
        one = 0 * h + 1
        sL = np.concatenate([s[:1], s[:-1]])
        sR = np.concatenate([s[1:], s[-1:]])
        hL = np.concatenate([one[:1], h[:-1]])
        hR = np.concatenate([h[1:], one[-1:]])
        eL = two_e * (1 + 2 * h / hL)
        eR = two_e * (1 + 2 * h / hR)

        def lineL(t):
            return La + eL + sL * (t - a)

        def lineR(t):
            return Lb + eR + sR * (t - b)

        den = sL - sR
        nz = num.b(den != 0)
        dens = np.where(nz, den, one)
        tint = _clip((Lb + eR - sR * b - La - eL + sL * a) / dens, a, b)
        tint = np.where(nz, tint, a)

        def mn(t):
            return np.minimum(lineL(t), lineR(t))

        both = np.maximum(np.maximum(mn(a), mn(b)), mn(tint))
        onlyL = np.maximum(lineL(a), lineL(b))
        onlyR = np.maximum(lineR(a), lineR(b))
        U3 = np.where(leftok & rightok, both, U3)
        U3 = np.where(leftok & ~rightok, onlyL, U3)
        U3 = np.where(~leftok & rightok, onlyR, U3)
    U = np.minimum(np.minimum(U1, U2), U3)
    return U, L, C


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
# the tail bound (item 6)
# ---------------------------------------------------------------------------


def _tail_setup(P):
    a, th, la, d = P.alpha, P.theta, P.lam, P.shift
    with mp.workdps(30):
        eta = (1 - la / th) / 2
        c = d + la + th
        b = 1 / la - 1 / th
        cD = mp.gammainc(a, 0, 1, regularized=True)  # P(X <= theta), X ~ Gamma(alpha, theta)
        log_kappa = mp.log(cD) + mp.log(1 - mp.exp(-1)) - mp.log(2) - mp.loggamma(a) - a * mp.log(th)
        Tmin = max(mp.mpf(0), (1 - a) / b - c)
    return dict(eta=eta, c=c, b=b, log_kappa=log_kappa, Tmin=Tmin)


def _tail_bound(P, T, S=None):
    """Certified upper bound of sup_{t >= T} L(t) (0 < alpha < 1, lam < theta)."""
    S = S or _tail_setup(P)
    a, th, la, d = P.alpha, P.theta, P.lam, P.shift
    with mp.workdps(30):
        T = mp.mpf(T)
        if T < S["Tmin"]:
            return mp.inf
        y0 = S["eta"] * T
        lR = P.lgg(y0) - P.lgg(y0 + d)
        logR = lR + 10 * mp.mpf(10) ** -_GG_DIGITS  # both ln f_GG values carry absolute error < 1e-8
        logKG = (y0 / la + S["c"] / th - mp.log(2 * la) - S["log_kappa"]
                 + (1 - a) * mp.log(T + S["c"]) - S["b"] * T)
        return mp.log(mp.exp(logR) + mp.exp(logKG))


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
    """Certified supremum of L on [0, inf) for 0 < alpha < 1, lam < theta (items 5, 6)."""
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
        return TightEpsilon(
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


def _closed_case(alpha, theta, lam, shift, digits):
    with mp.workdps(digits + GUARD_DIGITS + 10):
        limit = shift / max(theta, lam)
    if shift == 0:
        return mp.zero, "zero shift"
    if lam >= theta:
        return limit, "lipschitz = tail limit (lam >= theta)"
    if alpha >= 1:
        return limit, "log-concave (alpha >= 1): tail limit"
    return None, None


def _sup(alpha, theta, lam, shift, digits, *, name="Delta", **kw):
    """The supremum of ln f_A(t)/f_A(t + shift) as a TightEpsilon (``shift`` raw input, >= 0)."""
    digits = _digits(digits)
    alpha, theta, lam = _parse(alpha, theta, lam, digits)
    with mp.workdps(parse_precision(digits + 20)):
        shift = real(shift, name)
        if name == "Delta" and not (shift > 0 and not mp.isinf(shift)):
            raise ValueError(f"Delta must be positive and finite, got {mp.nstr(shift, 8)}")
        if shift < 0 or mp.isinf(shift):
            raise ValueError(f"{name} must be finite and >= 0")
    value, method = _closed_case(alpha, theta, lam, shift, digits)
    if method is not None:
        with mp.workdps(digits + GUARD_DIGITS):
            lim = shift / max(theta, lam)
            return TightEpsilon(epsilon=+value, t_star=mp.inf if shift > 0 else mp.zero, digits=digits,
                                evaluations=0, tail_limit=+lim, lower_bound=value, upper_bound=value,
                                attained=shift == 0, method=method)
    P = _Problem(alpha, theta, lam, shift, digits)
    return _search(P, **kw)


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------


def tight_epsilon(alpha, theta, lam, Delta=1, *, digits=12):
    r"""Tight :math:`\varepsilon^* = \sup_t \ln f_A(t)/f_A(t+\Delta)` of Arete(alpha, theta, lam) noise.

    The smallest :math:`\varepsilon` for which the Arete mechanism with these parameters is
    :math:`\varepsilon`-DP for queries of sensitivity ``Delta`` (Section 4.2, Corollary 5).
    See the module docstring for the method and what is proved.  Returns
    :class:`TightEpsilon`; ``epsilon`` has ``digits`` significant digits (at most
    :data:`MAX_PRIVACY_DIGITS`), certified by ``lower_bound <= sup <= upper_bound``.

    >>> from mpmath import mp
    >>> a, th, lam = FIGURE_4[8]
    >>> r = tight_epsilon(a, th, lam, digits=5)
    >>> mp.nstr(r.epsilon, 5), r.lower_bound <= r.epsilon <= r.upper_bound
    ('7.999', True)
    """
    return _sup(alpha, theta, lam, Delta, digits)


def privacy_loss(d, alpha, theta, lam, *, digits=12):
    r"""Worst-case privacy loss :math:`l(d) = \sup_t \ln f_A(t)/f_A(t+d)` (Figure 3, right).

    ``d < 0`` gives :math:`l(|d|)` (symmetry), ``d = 0`` gives 0; :math:`l` is
    nondecreasing (Section 4.2) and :math:`l(\Delta)` is :func:`tight_epsilon`.

    >>> a, th, lam = FIGURE_4[6]
    >>> privacy_loss(0, a, th, lam) == 0 and privacy_loss(1, a, th, lam, digits=4) > privacy_loss("0.5", a, th, lam, digits=4)
    True
    """
    digits = _digits(digits)
    with mp.workdps(parse_precision(digits + 20)):
        d = real(d, "d")
        if mp.isinf(d):
            return mp.inf
        d = abs(d)
    return _sup(alpha, theta, lam, d, digits, name="d").epsilon


def check_shift_reduction(alpha, theta, lam, Delta, shifts, digits=8):
    r"""Confirm Section 4.2's reduction: :math:`\sup_{|a|\le\Delta}\sup_t \ln f_A(t)/f_A(t+a)` is at :math:`a = \Delta`.

    Computes :math:`l(|a|)` for every ``a`` in ``shifts`` (each :math:`|a| \le \Delta`) and
    :math:`l(\Delta)`; ``holds`` is True when no per-shift supremum exceeds
    :math:`l(\Delta)` (beyond the certified uncertainty) and they are nondecreasing in
    :math:`|a|`.

    >>> a, th, lam = FIGURE_4[7]
    >>> r = check_shift_reduction(a, th, lam, 1, ["-0.5", "0.5", "1"], digits=4)
    >>> r.holds, [float(x) < float(r.epsilon) + 1e-3 for _, x in r.per_shift]
    (True, [True, True, True])
    """
    digits = _digits(digits)
    with mp.workdps(parse_precision(digits + 20)):
        Delta = positive(Delta, "Delta")
        try:
            items = list(shifts)
        except TypeError:
            raise ValueError(f"shifts must be a sequence of real numbers, got {shifts!r}") from None
        sh = [real(x, "shifts") for x in items]
        for x in sh:
            if abs(x) > Delta:
                raise ValueError(f"shifts must satisfy |a| <= Delta, got {mp.nstr(x, 8)}")
    top = _sup(alpha, theta, lam, Delta, digits)
    res, seen = [], {Delta: top}
    for a in sh:
        if abs(a) not in seen:
            seen[abs(a)] = _sup(alpha, theta, lam, abs(a), digits, name="d")
        res.append((a, seen[abs(a)]))
    ok = all(r.lower_bound <= top.upper_bound for _, r in res)
    order = sorted(res, key=lambda x: abs(x[0]))
    for (a1, r1), (a2, r2) in zip(order, order[1:]):
        if r1.lower_bound > r2.upper_bound:
            ok = False
    return ShiftReduction(Delta=Delta, epsilon=top.epsilon, per_shift=tuple((a, r.epsilon) for a, r in res),
                          holds=ok)


def check_cover(points, alpha, theta, lam, Delta=1, *, T=None, digits=12):
    r"""Certified bounds of :math:`\sup_{t\ge0} L(t)` from a *given* point set (no refinement).

    For auditing a search: the cells between consecutive points (engine values at
    ``digits + 4``) get the bounds of item 5 of the module docstring, ``[max(points), inf)``
    the tail bound of item 6 (``T`` defaults to the largest point).  ``gaps`` lists
    uncovered intervals (points must start at 0).  A grid that skips the region of the
    maximiser, or ends before the tail bound drops below the maximum, is not ``certified``.

    >>> a, th, lam = FIGURE_4[8]
    >>> c = check_cover([0, "0.5", 1, 2, 4, 8], a, th, lam, digits=6)
    >>> c.certified, c.upper > c.lower
    (False, True)
    """
    digits = _digits(digits)
    alpha, theta, lam = _parse(alpha, theta, lam, digits)
    with mp.workdps(parse_precision(digits + 20)):
        Delta = positive(Delta, "Delta")
        pts = sorted({real(x, "points") for x in points})
        if any(x < 0 or mp.isinf(x) for x in pts):
            raise ValueError("points must be finite and >= 0")
        if len(pts) < 2:
            raise ValueError("points must contain at least two distinct values")
        T = pts[-1] if T is None else positive(T, "T")
    if not (0 < alpha < 1 and lam < theta):
        raise ValueError("check_cover applies to 0 < alpha < 1 and lam < theta (the other cases are closed forms)")
    P = _Problem(alpha, theta, lam, Delta, digits)
    dd = digits + 4
    num = _Num(True)
    gaps = []
    if pts[0] > 0:
        gaps.append((mp.zero, pts[0]))
    if T > pts[-1]:
        gaps.append((pts[-1], T))
    with mp.workdps(dd + 20):
        e = mp.mpf(10) ** -dd * mp.mpf("1.001") + mp.mpf(10) ** -(dd + 38) * (T + Delta) / lam
        vals = P.evals(pts, dd)
        U, L, _ = _cell_bounds(_obj(pts), *vals, lam, e, num)
        k = int(np.argmax(L))
        lower = L[k] - 2 * e
        tb = _tail_bound(P, T)
        i = int(np.argmax(U))
        upper = max(max(U), tb, lower)
        if gaps:
            upper = mp.inf
        certified = (not gaps) and tb < lower and upper - lower <= mp.mpf(10) ** -digits * lower
        return CoverCheck(lower=+lower, upper=+upper, certified=bool(certified), gaps=tuple(gaps), tail_bound=+tb,
                          worst_cell=(pts[i], pts[i + 1], +U[i]), best_t=pts[k])


def laplace_loss(d, lam):
    r"""Privacy loss of Laplace(lam) noise at distance ``d``: exactly :math:`|d|/\lambda` (Lemma 26).

    >>> laplace_loss(3, "0.5")
    mpf('6.0')
    """
    with mp.workdps(parse_precision(20)):
        d = real(d, "d")
        lam = positive(lam, "lam")
    with mp.workdps(mp.dps + GUARD_DIGITS):
        return abs(d) / lam


def loss_curve(ds, alpha, theta, lam, *, digits=8):
    r"""The Arete privacy-loss curve :math:`[(d, l(d))]` (Figure 3, right panel).

    >>> a, th, lam = FIGURE_4[6]
    >>> [mp.nstr(v, 6) for _, v in loss_curve([0, "0.5", 1], a, th, lam, digits=6)]
    ['0.0', '4.53731', '5.99966']
    """
    digits = _digits(digits)
    out = []
    for d in ds:
        out.append((d, privacy_loss(d, alpha, theta, lam, digits=digits)))
    return out


def loss_curves(eps, Delta=1, *, k=3, points=31, params=None, digits=8):
    r"""Figure 3: worst-case privacy loss of Staircase, Laplace and Arete noise on :math:`d \in [0, k\Delta]`.

    Each mechanism is calibrated to ``eps`` for sensitivity ``Delta``: Laplace with
    :math:`\lambda = \Delta/\varepsilon` (loss :math:`\varepsilon d/\Delta`), Staircase
    (loss :math:`\varepsilon\lceil d/\Delta\rceil`, :func:`arete_proofs.distributions.staircase.privacy_loss`, any
    :math:`\gamma`; :math:`\gamma^*` of :func:`arete_proofs.distributions.staircase.gamma_mean_abs` is used) and Arete
    with ``params`` (default: the paper's Lemma 3 parameters for ``eps``; Figure 3 uses
    ``FIGURE_4[6]`` with eps = 6).  Returns a dict of lists ``d``, ``staircase``,
    ``laplace``, ``arete`` and the ``params`` used.

    >>> c = loss_curves(6, k=2, points=3, params=FIGURE_4[6], digits=3)
    >>> [mp.nstr(x, 3) for x in c["staircase"]], [mp.nstr(x, 3) for x in c["laplace"]]
    (['0.0', '6.0', '12.0'], ['0.0', '6.0', '12.0'])
    """
    digits = _digits(digits)
    with mp.workdps(parse_precision(digits + 20)):
        eps = positive(eps, "eps")
        Delta = positive(Delta, "Delta")
        if isinstance(k, bool) or not isinstance(k, (int, float)) or not k > 0:
            raise ValueError(f"k must be a positive number, got {k!r}")
        if isinstance(points, bool) or not isinstance(points, int) or points < 2:
            raise ValueError(f"points must be an integer >= 2, got {points!r}")
        ds = [Delta * mp.mpf(k) * i / (points - 1) for i in range(points)]
    if params is None:
        params = paper_parameters(eps, Delta, digits=digits + 20)
    alpha, theta, lam = params
    g = staircase.gamma_mean_abs(eps, digits=digits + 5)
    with mp.workdps(digits + GUARD_DIGITS):
        lap = [+(eps * d / Delta) for d in ds]
    sc = [staircase.privacy_loss(d, g, Delta, eps, digits=digits) for d in ds]
    ar = [v for _, v in loss_curve(ds, alpha, theta, lam, digits=digits)]
    return {"d": ds, "staircase": sc, "laplace": lap, "arete": ar, "params": tuple(params)}


def paper_table(eps_values, Deltas, *, digits=8):
    r"""Tight epsilon of the paper's parameters (Lemma 3: :math:`\alpha=\lambda=e^{-\varepsilon/4}`, :math:`\theta=4\Delta/\varepsilon`).

    One row (dict) per ``(eps, Delta)``: the parameters, ``tight`` (:func:`tight_epsilon`),
    ``ratio = tight/eps``, ``private`` (``tight <= eps``), ``lemma3`` (whether Lemma 3's
    hypotheses hold), ``tail_limit`` (:math:`\Delta/\theta = \varepsilon/4`) and
    ``lipschitz`` (:math:`\Delta/\lambda = \Delta e^{\varepsilon/4}`).

    >>> row = paper_table([20], [1], digits=4)[0]
    >>> row["private"], row["lemma3"], row["tail_limit"] < row["tight"] < row["eps"]
    (True, True, True)
    """
    digits = _digits(digits)
    rows = []
    for eps in eps_values:
        for Delta in Deltas:
            alpha, theta, lam = paper_parameters(eps, Delta, digits=digits + 20)
            r = tight_epsilon(alpha, theta, lam, Delta, digits=digits)
            with mp.workdps(parse_precision(digits)):
                e = positive(eps, "eps")
                D = positive(Delta, "Delta")
            with mp.workdps(digits + GUARD_DIGITS):
                rows.append({
                    "eps": +e, "Delta": +D, "alpha": alpha, "theta": theta, "lam": lam,
                    "tight": r.epsilon, "ratio": r.epsilon / e, "private": bool(r.upper_bound <= e),
                    "lemma3": lemma3_applies(e, D), "tail_limit": r.tail_limit,
                    "lipschitz": D / lam, "t_star": r.t_star, "result": r,
                })
    return rows


def _float_tight(eps, Delta):
    """float64 estimate of tight epsilon of the paper's parameters (scan only; not certified)."""
    a = math.exp(-eps / 4)
    th = 4 * Delta / eps
    P = _Problem(mp.mpf(a), mp.mpf(th), mp.mpf(a), mp.mpf(Delta), 6)
    grid = np.unique(np.concatenate([[0.0], th * np.geomspace(1e-300, 1e-2, 200), th * np.linspace(1e-2, 20, 1500)]))
    l, m, _, _ = P.fvals(grid)
    L = l - m
    i = int(np.argmax(L))
    # local zoom around the best grid point
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    best = L[i]
    for _ in range(3):
        z = np.linspace(lo, hi, 41)
        l, m, _, _ = P.fvals(z)
        Lz = l - m
        j = int(np.argmax(Lz))
        best = max(best, Lz[j])
        lo, hi = z[max(j - 1, 0)], z[min(j + 1, 40)]
    return float(best)


def smallest_private_eps(Delta, *, digits=6, eps_min="0.1", eps_max=None, scan_points=60):
    r"""Smallest nominal eps at which the paper's parameters are in fact eps-DP.

    :math:`g(\varepsilon) = \varepsilon^*(\text{params}(\varepsilon, \Delta)) - \varepsilon`
    (:func:`tight_epsilon` of Lemma 3's parameters minus the nominal eps).  Bracket:
    ``[eps_min, eps_max]`` with ``eps_max`` defaulting to Lemma 3's threshold
    :math:`20 + 4\ln\Delta` (for :math:`\Delta \ge 2/e`; else 20), where :math:`g \le 0`
    is checked (certified).  A float64 scan on ``scan_points`` geometric eps values finds
    the largest scanned eps with :math:`g > 0`; if there is one, the crossing between it
    and the next scanned eps is located by a bracketing root finder (bisection with
    Illinois steps; both ends' signs certified with :func:`tight_epsilon` at ``digits + 3``
    digits) to relative width :math:`10^{-\text{digits}}`.  Without such a point
    ``crossing`` is False: the parameters are DP at every scanned eps of the range
    (the scan is numerical; a violation narrower than the scan spacing could be missed),
    and the worst scanned point is certified.  Returns :class:`SmallestPrivateEps`.

    Findings (default range, 6 digits): for :math:`\Delta \in \{2/e, 1, 10\}` there is no
    crossing at all: the parameters are eps-DP for every scanned eps in
    :math:`[0.1, 20 + 4\ln\Delta]` (largest ``tight/eps``: 0.693, 0.713, 0.847), so the
    lemma's threshold is an artefact of the proof (as :math:`\varepsilon \to 0`,
    ``tight/eps`` tends to about 1/4).  For :math:`\Delta = 100` the parameters fail
    eps-DP on a band of eps (about 5.1 to 13.8) and the crossing is
    :math:`\varepsilon = 13.8213` (Lemma 3's threshold: 38.42): the DP set is not an
    interval, which is why ``epsilon`` is defined from above.

    >>> r = smallest_private_eps(1, digits=3, eps_min=4, scan_points=4)
    >>> r.crossing, r.epsilon == 4, r.max_ratio < 0.75
    (False, True, True)
    """
    digits = _digits(digits)
    with mp.workdps(parse_precision(digits + 20)):
        Delta = positive(Delta, "Delta")
        eps_min = positive(eps_min, "eps_min")
        if eps_max is None:
            eps_max = 20 + 4 * mp.log(Delta) if Delta >= 2 / mp.e else mp.mpf(20)
        eps_max = positive(eps_max, "eps_max")
        if not eps_min < eps_max:
            raise ValueError("eps_min must be smaller than eps_max")
        if isinstance(scan_points, bool) or not isinstance(scan_points, int) or scan_points < 3:
            raise ValueError(f"scan_points must be an integer >= 3, got {scan_points!r}")
    dg = digits + 3

    def g_cert(e):
        alpha, theta, lam = paper_parameters(e, Delta, digits=dg + 20)
        r = tight_epsilon(alpha, theta, lam, Delta, digits=dg)
        return r

    top = g_cert(eps_max)
    if not top.upper_bound <= eps_max:
        raise PrecisionError(f"the paper's parameters are not eps-DP at the bracket's upper end eps_max = "
                             f"{mp.nstr(eps_max, 8)}; widen the bracket")
    Df = float(Delta)
    grid = list(np.geomspace(float(eps_min), float(eps_max), scan_points))
    scan = [(float(e), _float_tight(float(e), Df)) for e in grid]
    viol = [i for i, (e, L) in enumerate(scan) if L > e]
    intervals = []
    for i, j in _runs([L > e for e, L in scan]):
        lo = scan[i - 1][0] if i > 0 else scan[i][0]
        hi = scan[j + 1][0] if j + 1 < len(scan) else scan[j][0]
        intervals.append((lo, hi))
    max_ratio = max(L / e for e, L in scan)
    if not viol:
        worst = max(scan, key=lambda x: x[1] / x[0])
        rw = top if worst is scan[-1] else g_cert(mp.mpf(worst[0]))
        if not rw.upper_bound <= mp.mpf(worst[0]):
            raise PrecisionError("certified check contradicts the float64 scan at its worst point")
        r0 = g_cert(eps_min)
        if not r0.upper_bound <= eps_min:
            raise PrecisionError("certified check contradicts the float64 scan at eps_min")
        with mp.workdps(digits + GUARD_DIGITS):
            return SmallestPrivateEps(Delta=Delta, epsilon=+eps_min, crossing=False, bracket=(), tight_at_epsilon=r0.epsilon,
                                      search_range=(+eps_min, +eps_max), max_ratio=max_ratio, violations=(),
                                      scan=tuple(scan), digits=digits)
    i = max(viol)
    with mp.workdps(dg + 20):
        lo = mp.mpf(scan[i][0])
        hi = mp.mpf(scan[i + 1][0]) if i + 1 < len(scan) else eps_max
        rlo, rhi = g_cert(lo), g_cert(hi)
        glo, ghi = rlo.epsilon - lo, rhi.epsilon - hi
        if not (rlo.lower_bound > lo and rhi.upper_bound <= hi):
            raise PrecisionError("the certified values do not confirm the sign change of the float64 scan")
        side = 0
        while hi - lo > mp.mpf(10) ** -digits * hi / 2:
            # Illinois step (regula falsi with halving), falling back to bisection
            x = hi - ghi * (hi - lo) / (ghi - glo)
            if not lo < x < hi or (x - lo) < (hi - lo) / 64 or (hi - x) < (hi - lo) / 64:
                x = (lo + hi) / 2
            rx = g_cert(x)
            gx = rx.epsilon - x
            if rx.upper_bound <= x:  # DP at x: crossing below
                hi, ghi, rhi = x, gx, rx
                if side == -1:
                    glo /= 2
                side = -1
            elif rx.lower_bound > x:
                lo, glo, rlo = x, gx, rx
                if side == 1:
                    ghi /= 2
                side = 1
            else:
                raise PrecisionError("tight epsilon equals eps within its certified accuracy; increase digits")
    with mp.workdps(digits + GUARD_DIGITS):
        return SmallestPrivateEps(Delta=Delta, epsilon=+hi, crossing=True, bracket=(+lo, +hi), tight_at_epsilon=rhi.epsilon,
                                  search_range=(+eps_min, +eps_max), max_ratio=max_ratio, violations=tuple(intervals),
                                  scan=tuple(scan), digits=digits)
