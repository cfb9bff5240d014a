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
bounds); :func:`privacy_loss` is :math:`l(d)`.  The paper's Figure 3 and table of
:math:`\varepsilon^*` are in :mod:`arete_proofs.privacy.curves`.  The bounds of items
4-6 below are implemented in ``arete_proofs.privacy._bounds``, the search that places
the cells in ``arete_proofs.privacy._search``.

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
   (equality for Laplace noise, :func:`arete_proofs.privacy.curves.laplace_loss`).
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
>>> from arete_proofs.privacy.curves import laplace_loss
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

from dataclasses import dataclass, field

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS, parse_precision, positive, real, resolve_digits
from ..distributions.params import FIGURE_4
from ._bounds import _cell_bounds, _Num, _obj, _Problem, _tail_bound
from ._search import _search

__all__ = [
    "FIGURE_4",
    "MAX_PRIVACY_DIGITS",
    "TightEpsilon",
    "CoverCheck",
    "ShiftReduction",
    "tight_epsilon",
    "privacy_loss",
    "check_shift_reduction",
    "check_cover",
]

#: Largest ``digits`` accepted by the privacy-loss functions (the certified refinement
#: near the maximum costs one engine batch per halving of the cells; beyond ~40 digits
#: the engine's own cost per point dominates and a call takes minutes).
MAX_PRIVACY_DIGITS = 40


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TightEpsilon:
    r"""Result of :func:`~arete_proofs.privacy.tight.tight_epsilon` / the supremum behind :func:`~arete_proofs.privacy.tight.privacy_loss`.

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
# the supremum: closed cases (item 7) or the certified search
# ---------------------------------------------------------------------------


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
            value = +value  # rounded once: lower_bound <= epsilon <= upper_bound exactly (all equal)
            return TightEpsilon(epsilon=value, t_star=mp.inf if shift > 0 else mp.zero, digits=digits,
                                evaluations=0, tail_limit=+lim, lower_bound=value, upper_bound=value,
                                attained=shift == 0, method=method)
    P = _Problem(alpha, theta, lam, shift, digits)
    return TightEpsilon(**_search(P, **kw))


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
