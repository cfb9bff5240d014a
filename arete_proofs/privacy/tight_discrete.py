r"""Tight epsilon of a comb of discrete Laplace laws (MSDLap, Theorem 18's noise) over every integer shift.

The noise :math:`Z = \sum_c w_c X_c`, :math:`X_c \sim \mathrm{DLap}(a_c)`
(:mod:`arete_proofs.distributions.comb`) is symmetric but **not unimodal** (a comb), so the
loss is taken over every shift :math:`|s| \le \Delta` (integer :math:`\Delta`):

.. math::

   \varepsilon^* = \sup_{k \in \mathbb Z}\ \Big[\ln p_k - \min_{|j - k| \le \Delta} \ln p_j\Big].

**The argument** (why a finite window plus an exact tail limit is the supremum).

1. *Symmetry*: :math:`p_{-k} = p_k`, so the pair :math:`(k, j)` and :math:`(-k, -j)` have the
   same loss: only :math:`k \ge 0` is needed (``j`` may be negative).
2. *Tail profile* (the dominant poles): with :math:`\lambda` the least :math:`a_c/w_c` and
   :math:`w^*` its weight, :math:`C_r - E_k \le p_k e^{\lambda k} \le C_r` for every :math:`k \ge 0`,
   :math:`r = k \bmod w^*`, with the explicit Chernoff bound :math:`E_k` of
   :func:`arete_proofs.distributions.comb.tail_error_bound` (decreasing in :math:`k`).  Hence
   for :math:`k, j \ge K'` the loss :math:`\ln p_k - \ln p_j` is
   :math:`\ell(r, s) + \delta_j - \delta_k`, :math:`s = j - k`,
   :math:`\ell(r, s) = \ln C_r - \ln C_{(r+s) \bmod w^*} + \lambda s`, with
   :math:`0 \le \delta \le \eta(K') = -\ln(1 - E_{K'}/\min_r C_r)`.
3. *Tail limit*: :math:`L = \max_{r < w^*,\ |s| \le \Delta} \ell(r, s)` is the limit of the loss along
   :math:`k \equiv r`, :math:`k \to \infty` (so :math:`\varepsilon^* \ge L`), and every pair with
   :math:`k > K`, :math:`K = K' + \Delta`, has loss at most :math:`L + \eta(K')`.
4. *Window*: :math:`W = \max_{0 \le k \le K} [\ln p_k - \min_{|j-k| \le \Delta} \ln p_j]` from the exact
   pmf (a sliding minimum).  So :math:`\max(W, L) \le \varepsilon^* \le \max(W, L + \eta(K'))`;
   :math:`K'` is chosen so that :math:`\eta(K') < 10^{-(d+5)}` -- the bracket is below the
   requested digits.  When :math:`W < L` the supremum is the tail limit and is reported as not
   attained (witness ``inf``): the loss of the pair :math:`(k, k+s)` tends to it from below or
   within :math:`\eta`.  (``attained`` means :math:`W > L + \eta + 10^{-(d+3)}`; a window maximum
   equal to :math:`L` within the precision is reported as the tail limit -- the value is the same.)

5. *Coupling bound* (a shortcut, no window): shifting the components,
   :math:`x_c \mapsto x_c + n_c` with :math:`\sum_c w_c n_c = s`, maps the solutions of
   :math:`\sum w_c x_c = k` onto those of :math:`= k + s` and changes the product of the DLap
   masses by at most :math:`e^{\sum_c a_c |n_c|}`, so every pair at shift :math:`s` has loss at most
   :math:`U(s) = \min_n \sum_c a_c |n_c|` and :math:`\varepsilon^* \le U^* = \max_{0 < s \le \Delta} U(s)`
   (:func:`coupling_bound`).  When :math:`L \ge U^*` the supremum is the tail limit and no window is
   needed (``K = 0``).  No pole constant is needed either when :math:`a^* n \ge U^*`,
   :math:`n = \lfloor \Delta/w^* \rfloor`: the shift :math:`s = n w^*` has :math:`\ell(r, s) = \lambda s = a^* n`
   for every :math:`r`, so :math:`a^* n \le L \le \varepsilon^* \le U^* \le a^* n` (MSDLap at :math:`\Delta = m`).

The window's pmf is :func:`arete_proofs.distributions.comb_table.scaled_pmf_table` (positive power
series in ball arithmetic, :math:`O(K \log K)`), not the partial fractions point by point.

For MSDLap(a, m) with :math:`\Delta = m` (Theorem 16), :math:`s = m` gives
:math:`\ell(r, m) = a` for every :math:`r`, so :math:`\varepsilon^* \ge a`; the theorem says
:math:`\varepsilon^* \le a`, and the computation finds equality, as the tail limit.

>>> r = tight_epsilon_comb(*msdlap_components(2, 3), 3, digits=12)
>>> abs(r.epsilon - 2) < 1e-12, r.attained                 # Theorem 16: eps* = a, the tail limit
(True, False)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from mpmath import mp

from .._validation import GUARD_DIGITS, integer_sensitivity, resolve_digits
from ..distributions.comb import (msdlap_components, tail_constants, tail_error_bound, dominant,
                                  theorem18_components, _check)
from ..distributions.comb_table import scaled_pmf_table

__all__ = ["DiscreteTight", "tight_epsilon_comb", "tight_epsilon_msdlap", "tight_epsilon_theorem18",
           "tail_limit", "coupling_bound", "window_maximum", "EVERY_INTEGER_SHIFT"]

#: The shift reduction of a comb on the integers (this module, items 1-4).
EVERY_INTEGER_SHIFT = (
    "every integer shift |s| <= Delta (the comb is not unimodal): a window 0 <= k <= K by symmetry, and "
    "the exact tail limit from the dominant poles' periodic profile with an explicit bound past K "
    "(arete_proofs.privacy.tight_discrete, items 1-4)")


@dataclass(frozen=True)
class DiscreteTight:
    r"""The tight epsilon of a comb: ``epsilon`` in ``[lower_bound, upper_bound]``.

    ``witness``: ``(k, j)`` attaining the window maximum, or ``inf`` (tail limit, not attained);
    ``tail_limit`` :math:`L`, ``window_max`` :math:`W`, ``K`` the window, ``tail_shift`` the
    ``(r, s)`` of :math:`L`.

    >>> tight_epsilon_comb([1], ["1.5"], 2, digits=10).epsilon        # DLap(a): eps* = a Delta
    mpf('3.0')
    """

    epsilon: object
    lower_bound: object
    upper_bound: object
    witness: object
    attained: bool
    tail_limit: object
    window_max: object
    K: int
    tail_shift: tuple
    Delta: int
    digits: int
    method: str = "exact pmf (positive power series, ball arithmetic) on a window + exact tail limit from the dominant poles"
    profile: list = field(default=None, repr=False)


def tail_limit(weights, rates, Delta, *, digits=12):
    r""":math:`L = \max_{r,\ |s| \le \Delta} \ln C_r - \ln C_{(r+s) \bmod w^*} + \lambda s` and its ``(r, s)`` (item 3).

    >>> L, (r, s) = tail_limit(*msdlap_components(1, 4), 4, digits=10)
    >>> abs(L - 1) < 1e-10                                     # s = m gives exactly a (Theorem 16)
    True
    """
    d = resolve_digits(digits)
    C = tail_constants(weights, rates, digits=d + 5)
    _, wst, lam = dominant(weights, rates, digits=d + 5)
    with mp.workdps(d + GUARD_DIGITS):
        lnC = [mp.log(c) for c in C]
        best = (-mp.inf, None)
        for r in range(wst):
            for s in range(-Delta, Delta + 1):
                v = lnC[r] - lnC[(r + s) % wst] + lam * s
                if v > best[0] + mp.mpf(10) ** (-d - 5):
                    best = (v, (r, s))
    return best


def _window(K, Delta, logp):
    """``max_{0<=k<=K} [logp(k) - min_{|j-k|<=Delta} logp(j)]`` by a sliding minimum, and its pair."""
    vals = {j: logp(abs(j)) for j in range(-Delta, K + Delta + 1)}
    dq = deque()
    best, pair = -mp.inf, None
    j_next = -Delta
    for k in range(0, K + 1):
        while j_next <= k + Delta:
            while dq and vals[dq[-1]] >= vals[j_next]:
                dq.pop()
            dq.append(j_next)
            j_next += 1
        while dq[0] < k - Delta:
            dq.popleft()
        v = vals[k] - vals[dq[0]]
        if v > best:
            best, pair = v, (k, dq[0])
    return best, pair


def window_maximum(weights, rates, Delta, K, *, digits=12):
    r""":math:`W_K = \max_{0 \le k \le K} [\ln p_k - \min_{|j - k| \le \Delta} \ln p_j]` and its pair ``(k, j)`` (item 4).

    The loss over the finite window :math:`0 \le k \le K` from the exact pmf
    (:func:`~arete_proofs.distributions.comb_table.scaled_pmf_table` on :math:`0..K+\Delta`, ``digits + 5``
    digits).  For MSDLap(a, m) at :math:`\Delta = m` (Theorem 16) the supremum :math:`a` is the tail
    limit, and every finite window stays strictly below it (the pair :math:`(k, k + m)` tends to
    :math:`a` from below):

    >>> W, pair = window_maximum(*msdlap_components("1", 3), 3, 27, digits=15)
    >>> pair, 0 < 1 - W < 0.01                                  # below a = 1, at the window's end
    ((26, 29), True)
    """
    w, rt = _check(weights, rates)
    d = resolve_digits(digits)
    Delta, K = int(Delta), int(K)
    if Delta < 1:
        raise ValueError(f"Delta must be an integer >= 1, got {Delta}")
    if K < 0:
        raise ValueError(f"K must be >= 0, got {K}")
    with mp.workdps(d + GUARD_DIGITS):
        tab = scaled_pmf_table(K + Delta, w, rt, digits=d + 5)
        lam = dominant(w, rt, digits=d + 5)[2]
        return _window(K, Delta, lambda j: mp.log(tab[j]) - lam * j)


def coupling_bound(weights, rates, Delta):
    r""":math:`U^* = \max_{0 < s \le \Delta} \min\{\sum_c a_c |n_c| : \sum_c w_c n_c = s\}` (item 5), exact, or ``None``.

    Minimum-cost representations by a shortest-path relaxation over :math:`|s| \le \Delta + \max w_c` (a
    restriction of the representations, so still an upper bound of the loss); exact in integers
    when all rates are equal (cost :math:`a` times the number of steps), in fractions of the decimal
    rates otherwise (``None`` if that is too large to do quickly).

    >>> coupling_bound(*msdlap_components("2", 5), 5)        # every shift s <= m is one step of X_s
    mpf('2.0')
    >>> coupling_bound([2, 3], ["1", "1"], 1)               # 1 = 3 - 2: two steps
    mpf('2.0')
    """
    from fractions import Fraction

    import numpy as np

    w, r = _check(weights, rates)
    Delta = int(Delta)
    B = Delta + max(w)
    if len(set(r)) == 1:
        INF = np.iinfo(np.int64).max // 4
        cost = np.full(2 * B + 1, INF, dtype=np.int64)
        cost[B] = 0
        frontier = np.zeros(2 * B + 1, dtype=bool)
        frontier[B] = True
        steps = 0
        while frontier.any():
            steps += 1
            nxt = np.zeros_like(frontier)
            for wc in set(w):
                nxt[wc:] |= frontier[:-wc]
                nxt[:-wc] |= frontier[wc:]
            nxt &= cost == INF
            cost[nxt] = steps
            frontier = nxt
        top = cost[B + 1: B + Delta + 1].max()
        if top >= INF:
            return None
        with mp.workdps(mp.dps + 10):
            return +(int(top) * mp.mpf(r[0]))
    if (2 * B + 1) * len(w) > 200_000:
        return None
    try:
        a = [Fraction(x) for x in r]
    except ValueError:
        return None
    cost = {0: Fraction(0)}
    changed = True
    while changed:
        changed = False
        for s in list(cost):
            for wc, ac in zip(w, a):
                for t in (s + wc, s - wc):
                    if abs(t) <= B and (t not in cost or cost[s] + ac < cost[t]):
                        cost[t] = cost[s] + ac
                        changed = True
    if any(s not in cost for s in range(1, Delta + 1)):
        return None
    top = max(cost[s] for s in range(1, Delta + 1))
    return mp.mpf(top.numerator) / top.denominator


def tight_epsilon_comb(weights, rates, Delta, *, digits=12, max_window=200_000):
    r"""Tight epsilon of :math:`\sum_c w_c \mathrm{DLap}(a_c)` at integer sensitivity ``Delta`` (module docstring).

    >>> r = tight_epsilon_comb([1, 2], ["1", "1"], 1, digits=12)
    >>> r.lower_bound <= r.epsilon <= r.upper_bound and r.upper_bound - r.lower_bound < 1e-15
    True
    """
    w, rt = _check(weights, rates)
    d = resolve_digits(digits)
    Delta = integer_sensitivity(Delta)
    c0, wst, _ = dominant(w, rt, digits=d)
    n = Delta // wst
    with mp.workdps(d + GUARD_DIGITS):
        U = coupling_bound(w, rt, Delta)
        if U is not None and n >= 1 and n * mp.mpf(rt[c0]) >= U - mp.mpf(10) ** (-(d + 5)):
            # item 5 with s = n w*: l(r, n w*) = a* n for every r, so a* n <= L <= eps* <= U <= a* n
            v = n * mp.mpf(rt[c0])
            return DiscreteTight(epsilon=v, lower_bound=v, upper_bound=v, witness=mp.inf, attained=False,
                                 tail_limit=v, window_max=-mp.inf, K=0, tail_shift=(0, n * wst), Delta=Delta,
                                 digits=d, method="coupling bound = the tail limit of the shift n w* (no window)")
    L, rs = tail_limit(w, rt, Delta, digits=d)
    C = tail_constants(w, rt, digits=d + 5)
    with mp.workdps(d + GUARD_DIGITS):
        if U is not None and L >= U - mp.mpf(10) ** (-(d + 5)):  # item 5: eps* in [L, U], no window
            return DiscreteTight(epsilon=L, lower_bound=L, upper_bound=max(L, U), witness=mp.inf, attained=False,
                                 tail_limit=L, window_max=-mp.inf, K=0, tail_shift=rs, Delta=Delta, digits=d,
                                 profile=C)
    with mp.workdps(d + GUARD_DIGITS):
        cmin = min(C)
        target = mp.mpf(10) ** (-(d + 5))
        # smallest K' with eta(K') < target (E_k decreasing): doubling then bisection
        def eta(k):
            E, _ = tail_error_bound(k, w, rt)
            return mp.inf if E >= cmin else -mp.log(1 - E / cmin)
        lo, hi = 0, 1
        while eta(hi) >= target:
            lo, hi = hi, 2 * hi
            if hi > 4 * max_window:
                raise ValueError(f"the window would exceed max_window = {max_window} points (the comb's tail "
                                 "correction decays too slowly at these parameters)")
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if eta(mid) < target else (mid, hi)
        Kp = hi
        eta_K = eta(Kp)
    K = Kp + Delta
    if K > max_window:
        raise ValueError(f"the window K = {K} exceeds max_window = {max_window}")
    W, pair = window_maximum(w, rt, Delta, K, digits=d)
    with mp.workdps(d + GUARD_DIGITS):
        lower = max(W, L)
        upper = max(W, L + eta_K)
        # attained: the window beats the tail limit by more than the working precision
        attained = W > L + eta_K + mp.mpf(10) ** (-(d + 3))
        eps = W if attained else L
    return DiscreteTight(epsilon=eps, lower_bound=lower, upper_bound=upper,
                         witness=pair if attained else mp.inf, attained=attained, tail_limit=L, window_max=W,
                         K=K, tail_shift=rs, Delta=Delta, digits=d, profile=C)


def tight_epsilon_msdlap(a, m, Delta, *, digits=12, max_window=200_000):
    r"""Tight epsilon of MSDLap(a, m) :math:`= \sum_{i \le m} i\,\mathrm{DLap}(a)` (Theorem 16: :math:`a` at :math:`\Delta = m`).

    >>> r = tight_epsilon_msdlap("1.5", 2, 2, digits=12)
    >>> abs(r.epsilon - mp.mpf("1.5")) < 1e-12                 # Theorem 16 holds with equality
    True
    """
    return tight_epsilon_comb(*msdlap_components(a, m), Delta, digits=digits, max_window=max_window)


def tight_epsilon_theorem18(eps, Delta, r, *, digits=12, max_window=200_000):
    r"""Tight epsilon of Theorem 18's :math:`r\,\mathrm{MSDLap}(\varepsilon-1, \lfloor\Delta/r\rfloor) + \mathrm{DLap}(1/r)`.

    >>> res = tight_epsilon_theorem18(4, 4, 2, digits=10)
    >>> res.epsilon <= 4                                       # Theorem 18: eps-DP
    True
    """
    return tight_epsilon_comb(*theorem18_components(eps, Delta, r), Delta, digits=digits, max_window=max_window)
