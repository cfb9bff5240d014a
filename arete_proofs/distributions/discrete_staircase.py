r"""The discrete staircase law :math:`DSC(r, \Delta)` at level :math:`\varepsilon` on the integers.

The optimal :math:`\varepsilon`-DP additive noise for an integer-valued query of integer
sensitivity :math:`\Delta` (Geng and Viswanath, "The optimal noise-adding mechanism in
differential privacy", IEEE Trans. IT 62(2), 2016, the discrete setting; Geng, Kairouz, Oh and
Viswanath, "The staircase mechanism in differential privacy", IEEE JSTSP 9(7), 2015): for a
cost that is symmetric and nondecreasing in :math:`|x|` (:math:`|x|`, :math:`x^2`), some member of
the family below, with an integer :math:`r \in \{1, \dots, \Delta\}`, is optimal.  (The formula is
the discrete-setting theorem of those papers as restated by C. Harrison, "Analytical variance of
the discrete staircase mechanism", 2024; its theorem number was not checked against the
papers here.)  With :math:`b = e^{-\varepsilon}`:

.. math::

    P_r(i) = \begin{cases}
        a(r), & 0 \le i < r \\
        b\, a(r), & r \le i < \Delta \\
        b^k P_r(i - k\Delta), & k\Delta \le i < (k+1)\Delta,\ k \in \mathbb N \\
        P_r(-i), & i < 0
    \end{cases}
    \qquad
    a(r) = \frac{1 - b}{2r + 2b(\Delta - r) - (1 - b)}.

Equivalently :math:`P_r(i) = a(r)\, b^{N(|i|)}` with the *step count*
:math:`N(n) = \lfloor n/\Delta\rfloor + [\,n \bmod \Delta \ge r\,]` (:func:`steps`).

**Moments** (closed forms, summing the geometric periods): with :math:`w_j = 1` for
:math:`j < r`, :math:`w_j = b` for :math:`r \le j < \Delta`, :math:`S_p = \sum_{j=0}^{\Delta-1} j^p w_j`
and :math:`G_p = \sum_{k \ge 0} k^p b^k` (:math:`G_0 = 1/(1-b)`, :math:`G_1 = b/(1-b)^2`,
:math:`G_2 = b(1+b)/(1-b)^3`),

.. math::

    E|X| = 2a(r)\,[\Delta S_0 G_1 + S_1 G_0], \qquad
    \operatorname{Var} X = E X^2 = 2a(r)\,[\Delta^2 S_0 G_2 + 2\Delta S_1 G_1 + S_2 G_0].

The optimal :math:`r` for :math:`E|X|` and for the variance (:func:`r_mean_abs`, :func:`r_var`)
are found exactly, by evaluating the closed form at every :math:`r \in \{1,\dots,\Delta\}`
(the papers' own choice is this minimiser); for :math:`\Delta \to \infty` with
:math:`r \approx \gamma\Delta` the law of :math:`X/\Delta` tends to the continuous staircase
:math:`SC(\gamma, 1)` (:mod:`arete_proofs.distributions.staircase`, Lemma 27).

**Privacy** (:func:`privacy_loss`): :math:`\ln P_r(i) - \ln P_r(i+s) = \varepsilon\,(N(|i+s|) - N(|i|))`
is :math:`\varepsilon` times an integer, so the tight epsilon at integer sensitivity :math:`D` is
:math:`\varepsilon \max_{i,\ |s| \le D} (N(|i+s|) - N(|i|))`, computed exactly in integers over a
finite window (the argument is in :func:`privacy_loss`); at :math:`D = \Delta` it is exactly
:math:`\varepsilon`, attained at every :math:`i \ge 0`.

>>> from mpmath import mp
>>> e, D, r = 3, 5, 2
>>> mp.almosteq(sum(pmf(i, e, D, r) for i in range(-200, 201)), 1)          # normalised
True
>>> mp.almosteq(pmf(0, e, D, r) / pmf(D, e, D, r), mp.exp(e))                # a shift by Delta costs e^eps
True
>>> privacy_loss(D, e, D, r)                                                 # eps-DP, tight
mpf('3.0')
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, floor_point, parse_precision, positive, resolve_digits
from .gdl import _cdf_by_symmetry, _integer

__all__ = ["pmf", "logpmf", "cdf", "sf", "mean_abs", "var", "steps", "r_mean_abs", "r_var",
           "privacy_loss", "max_step_gain"]


def _Delta_r(Delta, r):
    D = _integer(Delta, "Delta")
    if D < 1:
        raise ValueError(f"Delta must be an integer >= 1, got {Delta!r}")
    if r is None:
        return D, None
    rr = _integer(r, "r")
    if not 1 <= rr <= D:
        raise ValueError(f"r must be an integer in [1, Delta] = [1, {D}], got {r!r}")
    return D, rr


def _eps(eps, d):
    with mp.workdps(parse_precision(d)):
        return positive(eps, "eps")


def steps(n, Delta, r) -> int:
    r"""The step count :math:`N(|n|) = \lfloor |n|/\Delta\rfloor + [\,|n| \bmod \Delta \ge r\,]`: :math:`P_r(n) = a(r) e^{-\varepsilon N}`.

    >>> [steps(i, 5, 2) for i in range(0, 11)]
    [0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2]
    """
    D, rr = _Delta_r(Delta, r)
    q, j = divmod(abs(_integer(n, "n")), D)
    return q + (1 if j >= rr else 0)


def _a(e, D, r):
    b = mp.exp(-e)
    return -mp.expm1(-e) / (2 * r + 2 * b * (D - r) + mp.expm1(-e))


def logpmf(k, eps, Delta, r, *, digits=None):
    r""":math:`\ln P_r(k) = \ln a(r) - \varepsilon N(|k|)`.

    >>> from mpmath import mp
    >>> mp.almosteq(logpmf(0, 2, 4, 1) - logpmf(9, 2, 4, 1), 2 * steps(9, 4, 1))
    True
    """
    d = resolve_digits(digits)
    e = _eps(eps, d)
    D, rr = _Delta_r(Delta, r)
    n = steps(k, D, rr)
    with mp.workdps(d + GUARD_DIGITS + len(str(n))):
        return mp.log(_a(e, D, rr)) - e * n


def pmf(k, eps, Delta, r, *, digits=None):
    r""":math:`P_r(k) = a(r)\, e^{-\varepsilon N(|k|)}` (module docstring).

    ``Delta = r = 1`` is the discrete Laplace law DLap(eps):

    >>> from mpmath import mp
    >>> from arete_proofs.distributions import dlap
    >>> mp.almosteq(pmf(3, "0.7", 1, 1, digits=30), dlap.pmf(3, "0.7", digits=30), 1e-28)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        return mp.exp(logpmf(k, eps, Delta, r, digits=d + GUARD_DIGITS))


def _sums(e, D, r):
    """``(a, b, S0, S1, S2)`` at the working precision."""
    b = mp.exp(-e)
    s = [mp.mpf(r), mp.mpf(r * (r - 1)) / 2, mp.mpf((r - 1) * r * (2 * r - 1)) / 6]
    full = [mp.mpf(D), mp.mpf(D * (D - 1)) / 2, mp.mpf((D - 1) * D * (2 * D - 1)) / 6]
    S = [s[p] + b * (full[p] - s[p]) for p in range(3)]
    return (_a(e, D, r), b, *S)


def sf(x, eps, Delta, r, *, digits=None):
    r""":math:`P(X > x)`: for :math:`n = \lfloor x\rfloor \ge 0`, :math:`n + 1 = K\Delta + J`,
    :math:`a\,b^K[\max(r - J, 0) + b(\Delta - \max(J, r)) + b S_0 G_0]`; by symmetry for :math:`n < 0`.

    >>> from mpmath import mp
    >>> mp.almosteq(sf(4, 3, 5, 2) - sf(5, 3, 5, 2), pmf(5, 3, 5, 2))
    True
    >>> mp.almosteq(sf(-1, 3, 5, 2), 1 - sf(0, 3, 5, 2))                # P(X > -1) = 1 - P(X < 0)
    True
    """
    d = resolve_digits(digits)
    e = _eps(eps, d)
    D, rr = _Delta_r(Delta, r)
    n = floor_point(x, "x")
    if n == mp.inf:
        return mp.zero
    if n == mp.ninf:
        return mp.one
    with mp.workdps(d + GUARD_DIGITS + len(str(abs(n)))):
        a, b, S0, _, _ = _sums(e, D, rr)

        def upper(m):  # P(X >= m), m >= 0
            K, J = divmod(m, D)
            head = max(rr - J, 0) + b * (D - max(J, rr))
            return a * mp.exp(-e * K) * (head + b * S0 / (1 - b))

        if n >= 0:
            return upper(n + 1)
        return 1 - upper(-n)   # P(X > n) = 1 - P(X <= n) = 1 - P(X >= -n)


def cdf(x, eps, Delta, r, *, digits=None):
    r""":math:`P(X \le x) = P(X > -\lfloor x\rfloor - 1)` (symmetry).

    >>> from mpmath import mp
    >>> mp.almosteq(cdf(2, 3, 5, 2) + sf(2, 3, 5, 2), 1)
    True
    """
    return _cdf_by_symmetry(x, lambda n: sf(n, eps, Delta, r, digits=digits))


def _moments(e, D, r):
    a, b, S0, S1, S2 = _sums(e, D, r)
    G0 = 1 / (1 - b)
    G1 = b / (1 - b) ** 2
    G2 = b * (1 + b) / (1 - b) ** 3
    m1 = 2 * a * (D * S0 * G1 + S1 * G0)
    m2 = 2 * a * (D * D * S0 * G2 + 2 * D * S1 * G1 + S2 * G0)
    return m1, m2


def mean_abs(eps, Delta, r, *, digits=None):
    r""":math:`E|X| = 2a(r)[\Delta S_0 G_1 + S_1 G_0]` (module docstring).

    >>> from mpmath import mp
    >>> mp.almosteq(mean_abs(2, 3, 1), 2 * sum(i * pmf(i, 2, 3, 1) for i in range(1, 200)))
    True
    """
    d = resolve_digits(digits)
    e = _eps(eps, d)
    D, rr = _Delta_r(Delta, r)
    with mp.workdps(d + GUARD_DIGITS + len(str(D))):
        return _moments(e, D, rr)[0]


def var(eps, Delta, r, *, digits=None):
    r""":math:`\operatorname{Var} X = 2a(r)[\Delta^2 S_0 G_2 + 2\Delta S_1 G_1 + S_2 G_0]` (module docstring).

    >>> from mpmath import mp
    >>> mp.almosteq(var(2, 3, 1), 2 * sum(i * i * pmf(i, 2, 3, 1) for i in range(1, 300)))
    True
    """
    d = resolve_digits(digits)
    e = _eps(eps, d)
    D, rr = _Delta_r(Delta, r)
    with mp.workdps(d + 2 * GUARD_DIGITS + 2 * len(str(D))):
        return _moments(e, D, rr)[1]


def _best_r(eps, Delta, which, digits):
    d = resolve_digits(digits)
    e = _eps(eps, d)
    D, _ = _Delta_r(Delta, None)
    with mp.workdps(d + 2 * GUARD_DIGITS + 2 * len(str(D))):
        best, arg = None, None
        for r in range(1, D + 1):
            v = _moments(e, D, r)[which]
            if best is None or v < best * (1 - mp.mpf(10) ** -(d + GUARD_DIGITS)):
                best, arg = v, r
    return arg


def r_mean_abs(eps, Delta, *, digits=30) -> int:
    r"""The :math:`r \in \{1,\dots,\Delta\}` of least :math:`E|X|` (the smallest one on a tie).

    Near :math:`\gamma^*\Delta`, :math:`\gamma^* = 1/(1 + e^{\varepsilon/2})` the continuous optimum
    (:func:`arete_proofs.distributions.staircase.gamma_mean_abs`):

    >>> r_mean_abs(2, 1000), round(1000 / (1 + 2.718281828459045))
    (269, 269)
    """
    return _best_r(eps, Delta, 0, digits)


def r_var(eps, Delta, *, digits=30) -> int:
    r"""The :math:`r \in \{1,\dots,\Delta\}` of least variance (the smallest one on a tie).

    At large :math:`\varepsilon` it is :math:`r = 1` (the variance-optimal continuous
    :math:`\gamma^*` tends to 0):

    >>> r_var(20, 100), r_var(2, 100) > 1
    (1, True)
    """
    return _best_r(eps, Delta, 1, digits)


def max_step_gain(D, Delta, r) -> tuple[int, tuple[int, int]]:
    r""":math:`\max_{i \in \mathbb Z,\ |s| \le D} N(|i+s|) - N(|i|)` and a maximising ``(i, s)`` (exact integers).

    The argument: by symmetry (:math:`N(|{-n}|) = N(|n|)`) the pair :math:`(i, s)` and
    :math:`(-i, -s)` agree, so :math:`s \ge 0` suffices.  For :math:`i \ge 0`,
    :math:`N(n + \Delta) = N(n) + 1` makes the gain periodic in :math:`i` with period
    :math:`\Delta`; for :math:`i < 0 \le i + s` the gain is at most :math:`N(i+s) \le N(s)`, the
    gain of :math:`(0, s)`; for :math:`i + s < 0` it is :math:`\le 0` (:math:`N` is nondecreasing).
    So the window :math:`-D \le i < \Delta`, :math:`0 \le s \le D` holds the maximum; it is
    evaluated over the wider window :math:`-2\Delta - D \le i \le 2\Delta + D` and every
    :math:`|s| \le D` as a check.

    >>> max_step_gain(5, 5, 2)[0], max_step_gain(10, 5, 2)[0], max_step_gain(1, 5, 2)[0]
    (1, 2, 1)
    """
    Dq = _integer(D, "sensitivity")
    if Dq < 1:
        raise ValueError(f"sensitivity must be an integer >= 1, got {D!r}")
    Dl, rr = _Delta_r(Delta, r)
    import numpy as np

    W = 2 * Dl + Dq
    i = np.concatenate([np.arange(0, W + 1), -np.arange(1, W + 1)])   # argmax: the least i >= 0 first

    def N(n):
        q, j = np.divmod(np.abs(n), Dl)
        return q + (j >= rr)

    Ni = N(i)
    best, arg = 0, (0, 0)
    for s in [*range(1, Dq + 1), *range(-1, -Dq - 1, -1)]:
        g = N(i + s) - Ni
        k = int(np.argmax(g))
        if g[k] > best:
            best, arg = int(g[k]), (int(i[k]), s)
    return best, arg


def privacy_loss(D, eps, Delta, r, *, digits=None):
    r"""Tight epsilon at integer sensitivity ``D``: :math:`\varepsilon \cdot` :func:`max_step_gain` (exact).

    >>> privacy_loss(3, 2, 3, 1), privacy_loss(7, 2, 3, 1)       # D = Delta: eps; D = 7 crosses 3 steps
    (mpf('2.0'), mpf('6.0'))
    """
    d = resolve_digits(digits)
    e = _eps(eps, d)
    g, _ = max_step_gain(D, Delta, r)
    with mp.workdps(d + GUARD_DIGITS):
        return g * e
