r"""A certified upper bound on the tight epsilon of Arete noise, in ball arithmetic.

The tight epsilon (Section 4.2, Corollary 5) is

.. math::  \varepsilon^* = \sup_{t\in\mathbb{R}} L(t),\qquad L(t) = \ln f_A(t) - \ln f_A(t+\Delta).

:func:`certify_epsilon` proves :math:`\varepsilon^* \le B` for a number :math:`B` it
returns, using only rigorous enclosures (python-flint ``arb`` balls from
:mod:`arete_proofs.certified.density`) and the elementary facts below; no float or
mpmath value enters the bound.  It also returns a certified *lower* bound (the largest
lower end of :math:`L(t)` over the points evaluated), so :math:`\varepsilon^*` is
bracketed; the numerically computed tight epsilon
(:func:`arete_proofs.privacy.tight.tight_epsilon`) is reported beside it for comparison.

The argument (:math:`0<\alpha<1`, :math:`\lambda<\theta`; :math:`\ell = \ln f_A`):

1. *Only* :math:`t\ge0`: for :math:`t\le-\Delta/2`, :math:`L(t)\le0`; for
   :math:`t\in[-\Delta/2,0]`, :math:`L(t)\le L(|t|)` (Lemma 2: :math:`f_A` is symmetric
   and non-increasing in :math:`|t|`; see :mod:`arete_proofs.privacy.tight`, item 1).
2. *Cells* :math:`[a,b]\subset[0,T]`: by monotonicity, :math:`\ell(t)\le\ell(a)` and
   :math:`-\ell(t+\Delta)\le-\ell(b+\Delta)`; by the Lipschitz bound
   :math:`-1/\lambda\le\ell'\le0` (:math:`|f_L'| = f_L/\lambda`),
   :math:`\ell(t)\le\ell(b)+(b-t)/\lambda` and
   :math:`-\ell(t+\Delta)\le-\ell(a+\Delta)+(t-a)/\lambda`.  The supremum over the cell
   of the sum of the two minima (a concave piecewise-linear function) is attained at
   :math:`a`, :math:`b` or a breakpoint, where it is evaluated in ball arithmetic from
   the upper ends of the balls of :math:`\ell` at :math:`a, b, a+\Delta, b+\Delta`.

   2b. *Curvature* (second order, for cells with :math:`a>0`): :math:`f_L-\lambda^2f_L''=\delta`
   gives :math:`\ell''=(1-r)/\lambda^2-\ell'^2` with :math:`r=f_{\Gamma-\Gamma}/f_A`, so
   :math:`L''(t)=(r(t+\Delta)-r(t))/\lambda^2+\ell'(t+\Delta)^2-\ell'(t)^2\ge-M`,
   :math:`M = f_{\Gamma-\Gamma}(a)/(\lambda^2f_A(b)) + 1/\lambda^2` (both densities are
   non-increasing on the cell).  Hence :math:`L` lies below its chord plus
   :math:`M(t-a)(b-t)/2`, i.e. below :math:`\max(L(a),L(b)) + Mh^2/8`.  The cell's bound
   is the smaller of 2 and 2b.
3. *Tail* :math:`t\ge T` (:mod:`arete_proofs.privacy.tight`, item 6): :math:`f_{\Gamma-\Gamma}` is
   completely monotone on :math:`(0,\infty)`, hence log-convex, so
   :math:`R(y)=f_{\Gamma-\Gamma}(y)/f_{\Gamma-\Gamma}(y+\Delta)` is non-increasing and,
   splitting the convolution at :math:`y_0=\eta T`, :math:`\eta=(1-\lambda/\theta)/2`,

   .. math::  L(t) \le \ln\Big(R(\eta T) + \frac{(T+c)^{1-\alpha}}{2\lambda\kappa}
              e^{\eta T/\lambda + c/\theta - T(1/\lambda-1/\theta)}\Big),\quad c=\Delta+\lambda+\theta,

   with :math:`\kappa = P(\alpha,1)(1-e^{-1})/(2\Gamma(\alpha)\theta^\alpha)` (from
   :math:`f_A(s)\ge\frac{1-e^{-1}}2 f_{\Gamma-\Gamma}(s+\lambda)` and Lemma 14's lower
   bound with :math:`D_\Gamma=\theta`), valid once :math:`T+c\ge(1-\alpha)/(1/\lambda-1/\theta)`.
   :math:`R` is evaluated with arb's Bessel :math:`K` at exact points.
4. *Lipschitz*: :math:`|\ell'|\le1/\lambda` gives :math:`L\le\Delta/\lambda` everywhere; the
   result is never above it (it is the answer when the supremum is too close to the tail
   limit :math:`\Delta/\theta` for the tail bound to drop below it).
5. *Closed cases*: :math:`\lambda\ge\theta` gives :math:`\varepsilon^*=\Delta/\lambda` (the
   Lipschitz bound, approached as :math:`t\to\infty`); :math:`\alpha\ge1` gives
   :math:`\Delta/\max(\theta,\lambda)` (log-concavity, Prekopa).  These are returned as
   exact bounds with the argument named.

The cover of :math:`[0,T]` is refined (bisection; geometric near :math:`t=0`, where the
maximiser sits at a tiny :math:`t^*` for small :math:`\alpha`) until the certified upper
bound is within ``tol`` of the certified lower bound.

>>> from arete_proofs.distributions.params import FIGURE_4
>>> r = certify_epsilon(*FIGURE_4[8], 1, numeric=False)
>>> # the paper's Figure-4 parameters for eps = 8 are provably 8-DP, with a bracket of width <= 1e-4
>>> r.lower <= r.upper <= r.lower + 1e-4 and r.upper < 8
True
"""

from __future__ import annotations

import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction

from .._validation import PrecisionError
from .density import CertifiedDensity, _arb, _as_arb, exact_parameter, gg_pdf_ball, param_ball

__all__ = ["EpsilonCertificate", "certify_epsilon", "tail_bound"]

_PREC = 64


@dataclass
class EpsilonCertificate:
    r"""Result of :func:`certify_epsilon`.

    ``upper``: a float :math:`\ge` the certified bound (rounded up), so
    :math:`\varepsilon^*\le` ``upper`` is proved.  ``lower``: a float :math:`\le` a certified
    value :math:`L(t)` (rounded down), so ``lower`` :math:`\le\varepsilon^*`; ``t_star`` is
    that point.  ``numeric``: the engine's tight epsilon (not part of the proof), ``None``
    if not computed.  ``cells``: number of cells of the cover of :math:`[0, T]`;
    ``evaluations``: certified density evaluations; ``tail``: the certified tail bound
    for :math:`t\ge T`; ``method``: ``"cover"``, ``"lipschitz"`` or ``"log-concave"``;
    ``points``: the final cover of :math:`[0, T]` (floats), what an ``arete`` certificate records.

    >>> r = certify_epsilon("0.3", 1, 2, 1, numeric=False, target="0.5")
    >>> # lam >= theta: epsilon* = Delta/lam exactly (the Lipschitz bound of Lemma 26's kind)
    >>> r.upper, r.method, r.meets_target
    (0.5, 'lipschitz', True)
    """

    alpha: str
    theta: str
    lam: str
    Delta: str
    upper: float
    lower: float | None
    t_star: float | None
    method: str
    argument: str
    T: float | None = None
    tail: float | None = None
    cells: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    numeric: float | None = None
    target: float | None = None
    history: list = field(default_factory=list)
    points: list = field(default_factory=list)

    @property
    def meets_target(self):
        """True when a target was given and the certified bound is at most the target."""
        return self.target is not None and self.upper <= self.target

    @property
    def gap(self):
        """Certified bound minus the numerically computed tight epsilon (None if not computed)."""
        return None if self.numeric is None else self.upper - self.numeric

    def to_dict(self):
        """JSON-ready dict."""
        d = {k: getattr(self, k) for k in ("alpha", "theta", "lam", "Delta", "upper", "lower", "t_star",
                                           "method", "argument", "T", "tail", "cells", "evaluations",
                                           "seconds", "numeric", "target")}
        d["gap"] = self.gap
        d["meets_target"] = self.meets_target if self.target is not None else None
        return d




def _up(x):
    """A float >= every point of the arb ball x (outward rounding)."""
    from flint import arb

    f = float(x.upper())
    while arb(f) < x.upper():
        f = math.nextafter(f, math.inf)
    return f


def _down(x):
    """A float <= every point of the arb ball x."""
    from flint import arb

    f = float(x.lower())
    while arb(f) > x.lower():
        f = math.nextafter(f, -math.inf)
    return f


# --------------------------------------------------------------------- evaluation of ell
_WORKER = {}


def _ser(x):
    """A parameter (Fraction or arb ball) in a picklable exact form."""
    from flint import arb

    if isinstance(x, arb):
        (m, e), (rm, re_) = x.mid().man_exp(), x.rad().man_exp()
        return ("arb", int(m), int(e), int(rm), int(re_))
    return ("q", Fraction(x))


def _deser(s):
    """Inverse of :func:`_ser` (a ball containing the original ball)."""
    from flint import arb

    if s[0] == "q":
        return s[1]
    _, m, e, rm, re_ = s
    mid, rad = arb(m) * arb(2) ** e, arb(rm) * arb(2) ** re_
    return (mid - rad).union(mid + rad)


def _ell_batch(args):
    """ln f_A at the points ts (Fractions) as exact (lower, upper) endpoint pairs (man, exp)."""
    (alpha, theta, lam, prec), ts = args
    key = (alpha, theta, lam, prec)
    D = _WORKER.get(key)
    if D is None:
        _WORKER.clear()
        D = _WORKER[key] = CertifiedDensity(_deser(alpha), _deser(theta), _deser(lam), prec=prec)
    out = []
    for t in ts:
        v = D.pdf(t).log()
        lo, hi = v.lower().man_exp(), v.upper().man_exp()
        out.append(((int(lo[0]), int(lo[1])), (int(hi[0]), int(hi[1]))))
    return out


def _from_pair(p):
    from flint import arb

    (lm, le), (um, ue) = p
    lo = arb(lm) * arb(2) ** le
    hi = arb(um) * arb(2) ** ue
    return lo.union(hi)


class _Ell:
    """Certified ln f_A at float points, cached, optionally evaluated on a process pool."""

    def __init__(self, alpha, theta, lam, workers, prec=_PREC):
        self.key = (_ser(alpha), _ser(theta), _ser(lam), prec)
        self.cache = {}
        self.count = 0
        self.pool = ProcessPoolExecutor(workers) if workers and workers > 1 else None
        self.workers = workers or 1

    def need(self, ts):
        ts = sorted({Fraction(t) for t in ts} - set(self.cache))
        if not ts:
            return
        if self.pool is None:
            chunks = [ts]
            results = [_ell_batch((self.key, ts))]
        else:
            k = max(1, math.ceil(len(ts) / (4 * self.workers)))
            chunks = [ts[i:i + k] for i in range(0, len(ts), k)]
            results = list(self.pool.map(_ell_batch, [(self.key, c) for c in chunks]))
        for c, r in zip(chunks, results):
            for t, p in zip(c, r):
                self.cache[t] = _from_pair(p)
        self.count += len(ts)

    def __getitem__(self, t):
        return self.cache[Fraction(t)]

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()


# --------------------------------------------------------------------- tail bound
def tail_bound(T, alpha, theta, lam, Delta, *, prec=_PREC):
    r"""Certified ball bound: :math:`\sup_{t\ge T} L(t)\le` the upper end of the returned ball.

    Item 3 of the module docstring (:mod:`arete_proofs.privacy.tight`, item 6); needs
    :math:`0<\alpha<1`, :math:`\lambda<\theta` and :math:`T+c\ge(1-\alpha)/(1/\lambda-1/\theta)`,
    otherwise returns ``+inf``.

    >>> from flint import arb
    >>> # far out the bound approaches the tail limit Delta/theta (= 1/2 here) from above
    >>> b = tail_bound(200, "0.3", 2, "0.5", 1)
    >>> bool(arb("0.5") < b.upper() < arb("0.6"))
    True
    """
    from flint import arb, ctx

    (ab, a_q), (tb, th_q), (lb, la_q) = (param_ball(x, n) for x, n in
                                         ((alpha, "alpha"), (theta, "theta"), (lam, "lam")))
    d_q = exact_parameter(Delta, "Delta")
    T_q = exact_parameter(T, "T")
    old, ctx.prec = ctx.prec, prec
    try:
        a, th, la = (_as_arb(b if b is not None else q) for b, q in ((ab, a_q), (tb, th_q), (lb, la_q)))
        d, T = _arb(d_q), _arb(T_q)
        if not (a.upper() < 1 and la.upper() < th.lower()):
            raise ValueError("tail_bound needs 0 < alpha < 1 and lam < theta (certainly, for ball parameters)")
        b = 1 / la - 1 / th
        c = d + la + th
        if not (T + c > (1 - a) / b):
            return arb("inf")
        eta = (1 - la / th) / 2
        y0 = eta * T
        nu = a - arb(1) / 2
        # ln R(y0): the Gamma-Gamma normalising constants cancel
        lR = nu * (y0 / (y0 + d)).log() + (y0 / th).bessel_k(nu).log() - ((y0 + d) / th).bessel_k(nu).log()
        cD = arb(1).gamma_lower(a, regularized=1)  # P(X <= theta), X ~ Gamma(alpha, theta)
        log_kappa = cD.log() + (1 - arb(-1).exp()).log() - arb(2).log() - a.lgamma() - a * th.log()
        logK = y0 / la + c / th - (2 * la).log() - log_kappa + (1 - a) * (T + c).log() - b * T
        return (lR.exp() + logK.exp()).log()
    finally:
        ctx.prec = old


# --------------------------------------------------------------------- cells
def _cell_upper(a, b, la, ell, Delta, fgg=None):
    """Certified upper bound (arb upper end) of L on [a, b] (items 2 and 2b)."""
    from flint import arb

    A, B = ell[a].upper(), ell[b].upper()
    C, D = (-ell[Fraction(b) + Delta]).upper(), (-ell[Fraction(a) + Delta]).upper()
    a_, b_ = arb(a), arb(b)
    h = b_ - a_

    def f(t):
        x1, y1 = A, B + (b_ - t) / la
        x2, y2 = C, D + (t - a_) / la
        m1 = x1 if x1.upper() < y1.upper() else y1
        m2 = x2 if x2.upper() < y2.upper() else y2
        return (m1 + m2).upper()

    cands = [a_, b_]
    t1 = b_ - la * (A - B)
    t2 = a_ + la * (C - D)
    for tc in (t1, t2):
        if tc.upper() > a_ and tc.lower() < b_:
            cands.append(tc)
    best = max((f(t) for t in cands), key=lambda x: float(x))
    # the plain monotone bound A + C is never worse than Lipschitz at h = 0; keep the smaller
    mono = (A + C).upper()
    best = mono if mono < best else best
    if fgg is not None and a > 0:
        # item 2b: L'' >= -M on the cell, M = f_GG(a)/(lam^2 f_A(b)) + 1/lam^2, so L lies below
        # its chord plus M h^2/8
        M = fgg(a) / (la * la) * (-ell[b]).exp() + 1 / (la * la)
        La = (ell[a] - ell[Fraction(a) + Delta]).upper()
        Lb = (ell[b] - ell[Fraction(b) + Delta]).upper()
        quad = ((La if La > Lb else Lb) + M * h * h / 8).upper()
        if quad < best:
            best = quad
    return best


def _split(a, b):
    """A float strictly inside (a, b): geometric when b/a is large (near t = 0), else the midpoint."""
    if a > 0 and b / a > 4:
        m = math.sqrt(a) * math.sqrt(b)
    elif a == 0:
        m = b / 16
    else:
        m = a + (b - a) / 2
    if not a < m < b:
        return None
    return m


def _initial_points(theta, T):
    pts = [0.0] + [theta * 10.0 ** -k for k in (300, 200, 120, 80, 60, 45, 35, 28, 23, 19, 16)] + \
          [theta * 10.0 ** -k for k in range(14, 0, -1)]
    x = 0.15 * theta
    while x < T:
        pts.append(x)
        x *= 1.5
    pts.append(T)
    return sorted(set(p for p in pts if p <= T))


def _closed(a_q, th_q, la_q, d_q, t0, target, numeric):
    if la_q >= th_q:
        val = d_q / la_q
        method, arg = "lipschitz", ("lam >= theta: |d/dt ln f_A| <= 1/lam gives L(t) <= Delta/lam, "
                                    "the tail limit Delta/max(theta, lam) (privacy, items 3, 6, 7)")
    else:
        val = d_q / th_q
        method, arg = "log-concave", ("alpha >= 1: f_A is log-concave (Prekopa), L is non-decreasing and "
                                      "the supremum is the tail limit Delta/max(theta, lam) (privacy, item 7)")
    up = _up(_arb(val))
    return EpsilonCertificate(str(a_q), str(th_q), str(la_q), str(d_q), up, None, math.inf, method, arg,
                              seconds=time.perf_counter() - t0, numeric=numeric, target=target)


def certify_epsilon(alpha, theta, lam, Delta=1, *, tol="1e-4", target=None, workers=1, numeric=True,
                    max_seconds=1200, progress=False, prec=_PREC):
    r"""Prove an upper bound on the tight epsilon :math:`\sup_t\ln f_A(t)/f_A(t+\Delta)` (Section 4.2).

    Parameters are exact (ints, Fractions, decimal strings, floats) or arb balls (an
    uncertain parameter such as :math:`e^{-\varepsilon/4}`: the bound then holds for every
    parameter value in the balls; needs :math:`\alpha<1`, :math:`\lambda<\theta` on the
    whole balls).  Refines the
    cover until the certified upper bound is within ``tol`` of the certified lower
    bound, or ``max_seconds`` pass (then the bound is still certified, only wider).
    ``target``: stop early once the bound is at most the target.  ``workers > 1``
    evaluates densities on a process pool.  ``numeric``: also compute the engine's
    tight epsilon for the report (not part of the proof).  ``progress``: one line per
    round on stderr.  ``prec``: working precision of the balls in bits (64 gives values of
    :math:`\ln f_A` to about 15 digits, ample for bounds within ``tol``).  See the module docstring for the argument.

    >>> # alpha >= 1: the closed case, Delta/max(theta, lam)
    >>> certify_epsilon(2, 4, 1, 2, numeric=False).upper
    0.5
    """
    from flint import arb, ctx

    t0 = time.perf_counter()
    (ab, a_q), (tb_, th_q), (lb, la_q) = (param_ball(x, n) for x, n in
                                          ((alpha, "alpha"), (theta, "theta"), (lam, "lam")))
    # what is passed on: the exact value, or the ball of an uncertain parameter
    A_p, TH_p, LA_p = (b if b is not None else q for b, q in ((ab, a_q), (tb_, th_q), (lb, la_q)))
    balls = ab is not None or tb_ is not None or lb is not None
    d_q = exact_parameter(Delta, "Delta")
    tol_q = exact_parameter(tol, "tol")
    target_f = None if target is None else float(exact_parameter(target, "target"))
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if isinstance(prec, bool) or not isinstance(prec, int) or not 32 <= prec <= 4096:
        raise ValueError(f"prec must be an integer number of bits in 32..4096, got {prec!r}")

    num = None
    if numeric:
        from mpmath import mp

        from ..privacy.tight import tight_epsilon

        try:  # at the parameters' exact values (the midpoints of balls)
            r = tight_epsilon(a_q, th_q, la_q, d_q, digits=10)
            with mp.workdps(20):
                num = float(r.epsilon)
        except PrecisionError:  # the comparison value only; the certificate does not need it
            num = None
    if balls:
        old, ctx.prec = ctx.prec, prec
        try:
            A_b, TH_b, LA_b = (_as_arb(p) for p in (A_p, TH_p, LA_p))
            cover_case = bool(A_b.upper() < 1 and LA_b.upper() < TH_b.lower())
        finally:
            ctx.prec = old
        if not cover_case:
            raise ValueError("ball parameters are supported when 0 < alpha < 1 and lam < theta hold for the "
                             "whole balls")
    elif a_q >= 1 or la_q >= th_q:
        return _closed(a_q, th_q, la_q, d_q, t0, target_f, num)

    old, ctx.prec = ctx.prec, prec
    ell = _Ell(A_p, TH_p, LA_p, workers, prec)
    try:
        la = _as_arb(LA_p)
        fgg_cache = {}

        def fgg(x):  # certified f_GG at a float point x > 0
            if x not in fgg_cache:
                fgg_cache[x] = gg_pdf_ball(Fraction(x), A_p, TH_p, prec=prec)
            return fgg_cache[x]

        Delta_f = float(d_q)
        thf, laf = float(th_q), float(la_q)
        # the tail: the smallest T on a geometric ladder whose bound is below the best value found
        T = max(thf, laf, 4 * Delta_f)
        pts = _initial_points(thf, T)
        ell.need(pts + [Fraction(p) + d_q for p in pts])
        best, t_best = _best(pts, ell, d_q)
        Tmax = 2000 * max(thf, laf) + 4 * Delta_f
        while True:
            tb = tail_bound(Fraction(T), A_p, TH_p, LA_p, d_q, prec=prec)
            if tb.is_finite() and tb.upper() < arb(best) + _arb(tol_q) / 2:
                break
            if T * 1.5 > Tmax:
                if not tb.is_finite():
                    raise PrecisionError(f"no finite certified tail bound up to T = {T:.6g}")
                # the supremum is too close to the tail limit for the tail bound to drop below it:
                # keep the last T; the result is still a certified bound, only wider than tol
                break
            T *= 1.5
        pts = _initial_points(thf, T)
        ell.need(pts + [Fraction(p) + d_q for p in pts])
        best, t_best = _best(pts, ell, d_q)
        tail_up = tb.upper()
        lip = (_arb(d_q) / la).upper()  # item 3 of privacy: |(ln f_A)'| <= 1/lam gives L <= Delta/lam everywhere
        history = []
        rounds = 0
        while True:
            rounds += 1
            ups = [_cell_upper(pts[i], pts[i + 1], la, ell, d_q, fgg) for i in range(len(pts) - 1)]
            cellmax = max(ups, key=float)
            U = cellmax if cellmax > tail_up else tail_up
            if lip < U:
                U = lip
            gap = float(U) - best
            history.append((rounds, len(pts) - 1, ell.count, float(U), best))
            if progress:
                print(f"certify: round {rounds}: {len(pts) - 1} cells, {ell.count} evaluations, "
                      f"bound {float(U):.9f}, best {best:.9f}, gap {gap:.2e}, {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr, flush=True)
            if U <= arb(best) + _arb(tol_q) or (target_f is not None and U <= arb(target_f)):
                break
            if time.perf_counter() - t0 > max_seconds or not cellmax > tail_up or not tail_up < lip:
                break  # out of time, or the tail or Lipschitz bound dominates: refining cannot lower U
            level = arb(best) + _arb(tol_q) / 2
            if tail_up > level:
                level = tail_up
            new = []
            for i, u in enumerate(ups):
                if u > level:
                    m = _split(pts[i], pts[i + 1])
                    if m is not None:
                        new.append(m)
            if not new:
                break  # cells cannot be split further in floats: return what is certified
            ell.need(new + [Fraction(m) + d_q for m in new])
            pts = sorted(set(pts) | set(new))
            best, t_best = _best(pts, ell, d_q)
        # every exit of the loop above happens after U was computed for the final cover
        if U < arb(best):
            # an upper bound below a certified value of L: some bound of the argument is broken
            raise ArithmeticError(f"certified upper bound {float(U)!r} is below the certified value "
                                  f"{best!r} of L at t = {t_best!r}: the cover argument is inconsistent")
        arg = ("cover of [0, T] by cells bounded by monotonicity with the 1/lam Lipschitz bound and by the "
               "curvature bound L'' >= -M; tail t >= T by log-convexity of f_GG; t < 0 by symmetry and "
               "monotonicity; never above Delta/lam (certified_epsilon)")
        return EpsilonCertificate(str(A_p), str(TH_p), str(LA_p), str(d_q), _up(U), best, t_best, "cover", arg,
                                  T=T, tail=_up(tail_up), cells=len(pts) - 1, evaluations=ell.count,
                                  seconds=time.perf_counter() - t0, numeric=num, target=target_f, history=history,
                                  points=list(pts))
    finally:
        ell.close()
        ctx.prec = old


def _best(pts, ell, Delta):
    """Largest certified lower end of L(t) over the points, rounded down to a float, and its t."""
    best, tb = -math.inf, None
    for p in pts:
        v = _down(ell[p] - ell[Fraction(p) + Delta])
        if v > best:
            best, tb = v, p
    return best, tb
