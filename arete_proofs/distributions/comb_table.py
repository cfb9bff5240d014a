r"""The scaled pmf :math:`p_k e^{\lambda k}` of a DLap comb on a long window, by ball-arithmetic power series.

The comb :math:`Z = \sum_c w_c X_c` (:mod:`arete_proofs.distributions.comb`) with dominant component
:math:`c^*` (least :math:`\lambda = a_{c^*}/w_{c^*}`, weight :math:`w^*`) is :math:`Z = w^* X^* + Y`.
The tilted law :math:`Q_y = P(Y = y)\, e^{\lambda y}` is a product of *positive* two-sided
geometric factors,

.. math::

   \sum_y Q_y z^y = \kappa\, R(z)\, L(1/z),\qquad
   R(z) = \prod_{c \ne c^*} \frac{1}{1 - r_c z^{w_c}},\quad L(u) = \prod_{c \ne c^*} \frac{1}{1 - l_c u^{w_c}},

:math:`r_c = e^{-a_c + \lambda w_c} < 1`, :math:`l_c = e^{-a_c - \lambda w_c}`,
:math:`\kappa = \prod_{c \ne c^*} \tanh(a_c/2)(1 - r_c l_c)`, and for :math:`k \ge 0`

.. math::

   p_k e^{\lambda k} = \tanh(a^*/2)\Big[\sum_{y \le k,\ y \equiv k} Q_y
      + \sum_{y > k,\ y \equiv k} Q_y\, e^{-2\lambda (y - k)}\Big]\quad (\text{congruences mod } w^*).

:math:`R` and :math:`L` are computed as :math:`\exp(\sum_c \sum_j r_c^j z^{j w_c}/j)` (one power-series
exponential, :math:`O(N \log N)`, python-flint's ``arb_series``), their product by one polynomial
multiplication, the two sums by recurrences along the residue classes.  Everything is a sum of
positive terms (no cancellation, unlike the partial fractions near :math:`k = 0`), the
arithmetic is ball arithmetic, and the neglected parts are bounded explicitly (Chernoff:
:math:`\sum_{t > T} L_t \le e^{-\lambda T} L(e^{\lambda})`, :math:`L(e^{\lambda}) = \prod 1/(1 - e^{-a_c})`;
the far terms of the second sum by :math:`e^{-2\lambda M}\,E e^{\lambda Y}`); the radius of every
value, those bounds included, is checked to be below :math:`10^{-(d+8)}` of it, else the
precision is raised.  Cost: :math:`O(N \log N)` for a window of :math:`N` points, against
:math:`O(N \cdot \#\text{components})` for the partial fractions point by point.

>>> from mpmath import mp
>>> t = scaled_pmf_table(40, [1, 2, 3], ["1.5"] * 3, digits=20)
>>> from arete_proofs.distributions.comb import comb_pmf
>>> all(mp.almosteq(t[k] * mp.exp(-mp.mpf("1.5") * k / 3), comb_pmf(k, [1, 2, 3], ["1.5"] * 3, digits=25), 1e-13)
...     for k in (0, 1, 7, 40))                                   # = the partial fractions
True
"""

from __future__ import annotations

import math
from functools import lru_cache

from mpmath import mp

from .._validation import GUARD_DIGITS, resolve_digits
from .comb import _check

__all__ = ["scaled_pmf_table", "pmf_table"]


def scaled_pmf_table(K, weights, rates, *, digits=None):
    r""":math:`[p_k e^{\lambda k}]_{k=0..K}` of the comb :math:`\sum_c w_c \mathrm{DLap}(a_c)` (module docstring), to ``digits``.

    >>> from mpmath import mp
    >>> t = scaled_pmf_table(5, [2], ["1"], digits=15)              # one DLap: p_k e^{k/2} = tanh(1/2) on even k
    >>> mp.almosteq(t[4], mp.tanh(0.5)) and t[3] == 0
    True
    """
    w, r = _check(weights, rates)
    d = resolve_digits(digits)
    K = int(K)
    if K < 0:
        raise ValueError(f"K must be >= 0, got {K}")
    with mp.workdps(d + GUARD_DIGITS):
        return list(_table(K, w, r, d))


def pmf_table(K, weights, rates, *, digits=None):
    r""":math:`[p_k]_{k=0..K}` (:func:`scaled_pmf_table` times :math:`e^{-\lambda k}`).

    >>> from mpmath import mp
    >>> mp.almosteq(mp.fsum(pmf_table(60, [1, 2], ["2", "2"], digits=20)) * 2 - pmf_table(0, [1, 2], ["2", "2"], digits=20)[0], 1, 1e-15)
    True
    """
    w, r = _check(weights, rates)
    d = resolve_digits(digits)
    t = scaled_pmf_table(K, w, r, digits=d)
    with mp.workdps(d + GUARD_DIGITS):
        lam = _lam(w, r, d + GUARD_DIGITS)
        x, out = mp.one, []
        step = mp.exp(-lam)
        for v in t:
            out.append(v * x)
            x *= step
        return out


def _lam(w, r, dps):
    with mp.workdps(dps + 10):
        return min(mp.mpf(a) / wc for a, wc in zip(r, w))


def _dominant_index(w, r):
    with mp.workdps(60):
        return min(range(len(w)), key=lambda c: mp.mpf(r[c]) / w[c])


@lru_cache(maxsize=8)
def _table(K, w, r, d):
    from flint import arb, arb_series, ctx

    cs = _dominant_index(w, r)
    ws, aS = w[cs], r[cs]
    others = [c for c in range(len(w)) if c != cs]
    old_prec, old_cap = ctx.prec, ctx.cap
    # the power-series exponential's balls lose about 20 log10(N) digits at length N (measured: 86 at 10^5)
    prec = int((d + 20 + 20 * math.log10(K + 1000)) * 3.33)
    # absolute target for the neglected parts, relative to a guess of the least value (p_1 e^lambda is about
    # prod tanh(a_c/2) e^{-a}); lowered to the least value seen if that guess was too high
    with mp.workdps(20):
        guess = mp.exp(-max(mp.mpf(x) for x in r)) * mp.fprod(mp.tanh(mp.mpf(x) / 2) for x in r)
    tau = float(max(guess, mp.mpf(10) ** -300)) * 10.0 ** (-(d + 14))
    try:
        for _ in range(12):
            ctx.prec = prec
            (out, worst), vmin = _attempt(K, w, r, cs, ws, aS, others, d, tau, arb, arb_series, ctx)
            if out is not None:
                return tuple(out)
            # not enough digits: lower the truncation target to the least value seen, raise the precision
            lo = max(min(vmin, 1.0), 1e-300)
            if tau > lo * 10.0 ** (-(d + 12)):
                tau = lo * 10.0 ** (-(d + 13))
            prec += int(3.33 * (math.log10(max(worst, 1e-300)) + d + 12)) + 32 if worst < math.inf else prec
        raise ArithmeticError("comb pmf table: the power series lost all digits")
    finally:
        ctx.prec, ctx.cap = old_prec, old_cap


def _attempt(K, w, r, cs, ws, aS, others, d, tau, arb, arb_series, ctx):
    a = {c: arb(r[c]) for c in range(len(w))}
    lam = a[cs] / ws
    tanh_s = (a[cs] / 2).tanh()
    if not others:  # one DLap: p_k e^{lambda k} = tanh(a/2) on multiples of w, else 0
        vals = [tanh_s if k % ws == 0 else arb(0) for k in range(K + 1)]
        return _to_mp(vals, d), 1.0
    rc = {c: (-a[c] + lam * w[c]).exp() for c in others}
    lc = {c: (-a[c] - lam * w[c]).exp() for c in others}
    kappa = arb(1)
    for c in others:
        kappa *= (a[c] / 2).tanh() * (1 - rc[c] * lc[c])
    lamf = float(lam.mid())
    # bounds: R(1) = prod 1/(1 - r_c), L(e^lam) = prod 1/(1 - e^{-a_c}), E e^{lam Y} = kappa R(1) L(1)
    R1 = arb(1)
    Lb = arb(1)
    for c in others:
        R1 /= 1 - rc[c]
        Lb /= 1 - (-a[c]).exp()
    scale = float(tanh_s.mid()) * float(kappa.upper()) * float(R1.upper())
    lb = float(Lb.upper())
    # L truncated at Lt terms: each Q_y loses <= kappa R(1) e^{-lam Lt} L(e^lam) / (1 - e^{-lam}) (also the y < -Lt)
    Lt = int(math.ceil((math.log(max(scale * lb, 1.0) / tau) + math.log(1 / (1 - math.exp(-lamf))) * 3
                        + math.log(K + 10)) / lamf)) + 2
    # the far part of the second sum beyond y > K + M: <= e^{-2 lam M} tanh E e^{lam Y}
    M = int(math.ceil((math.log(max(scale * lb, 1.0) / tau) + math.log(2)) / (2 * lamf))) + ws
    N = K + M + Lt + 1   # R needed up to degree N (Q_y for y <= K + M)
    trunc = scale * lb * math.exp(-lamf * Lt) / (1 - math.exp(-lamf)) ** 2 * ((K + Lt + M) / ws + 2)
    far = scale * lb * math.exp(-2 * lamf * (M - ws))
    ctx.cap = N + Lt + 2
    # the log series' terms below a cut are dropped (their mass delta bounded; R changes by <= R(1)(e^delta - 1))
    cls = (N / ws + 1) * scale * lb
    R, dR = _exp_series(others, rc, w, N, arb, arb_series, tau / (100 * cls))
    L, dL = _exp_series(others, lc, w, Lt, arb, arb_series, tau / (100 * cls * Lt))
    errR, errL = float(R1.upper()) * math.expm1(dR), lb * math.expm1(dL)
    dropped = float(tanh_s.mid()) * float(kappa.upper()) * (errR * lb + Lt * errL * (float(R1.upper()) + errR)) \
        * (N / ws + 1) * 1.01
    Lc = L.coeffs()
    Lc = Lc + [arb(0)] * (Lt - len(Lc))  # coeffs() drops trailing zeros
    Lrev = arb_series(list(reversed(Lc)), prec=N + Lt)
    P = (R * Lrev).coeffs()  # coefficient n: Q_{n - Lt + 1} / kappa (missing ones at the end: zero)
    off = Lt - 1
    top = K + M

    def Q(y):
        n = y + off
        return P[n] if 0 <= n < len(P) else arb(0)

    e2 = (-2 * lam * ws).exp()
    vals = [arb(0)] * (K + 1)
    for res in range(min(ws, K + 1)):
        # S1 along the class: y <= k, from y = res - ws*q >= -off
        s1 = arb(0)
        y = res
        while y - ws >= -off:
            y -= ws
        while y < res:
            s1 += Q(y)
            y += ws
        # S2 for the top k of the class, then backwards
        ks = list(range(res, K + 1, ws))
        kmax = ks[-1]
        # s2 = sum_{y > kmax, y = kmax mod ws, y <= top} Q_y e^{-2 lam (y - kmax)} (Horner), then backwards
        s2 = arb(0)
        y = top - ((top - kmax) % ws)
        while y > kmax:
            s2 = s2 * e2 + Q(y)
            y -= ws
        s2 = s2 * e2
        s1_list = []
        for k in ks:
            s1 += Q(k)
            s1_list.append(s1)
        for i in range(len(ks) - 1, -1, -1):
            k = ks[i]
            vals[k] = tanh_s * kappa * (s1_list[i] + s2)
            s2 = (s2 + Q(k)) * e2
    err = arb(0, trunc + far + dropped + tau / 100)
    g = math.gcd(*w)
    vals = [v + err if k % g == 0 else arb(0) for k, v in enumerate(vals)]
    vmin = min(float(v.mid()) for v in vals if not v.is_zero())
    return _to_mp(vals, d), vmin


def _exp_series(others, x, w, n, arb, arb_series, cut):
    """:math:`\\prod_c 1/(1 - x_c z^{w_c})` to length ``n`` as :math:`\\exp(\\sum_c \\sum_j x_c^j z^{j w_c}/j)`, and the
    mass :math:`\\delta` of the log-series terms left out: per component the tail
    :math:`\\sum_{j \\ge J} x^j/j \\le x^J/(J(1-x))` once it is below ``cut`` / (number of components)."""
    co = [arb(0)] * n
    delta = 0.0
    share = cut / max(len(others), 1)
    for c in others:
        wc, xc = w[c], x[c]
        xf = float(xc.upper())
        p, j = xc, 1
        while j * wc < n:
            pf = float(p.upper())
            if pf / (j * (1 - xf)) <= share:
                delta += pf / (j * (1 - xf))
                break
            co[j * wc] += p / j
            p *= xc
            j += 1
    return arb_series(co, prec=n).exp(), delta


def _to_mp(vals, d):
    """Midpoints as mpf (or ``None`` if some radius exceeds ``10^{-(d+8)}`` of its value), and the worst relative radius."""
    tol = mp.mpf(10) ** (-(d + 8))
    out, worst = [], 0.0
    for v in vals:
        if v.is_zero():
            out.append(mp.zero)
            continue
        man, ex = v.mid().man_exp()
        m = mp.mpf((int(man), int(ex)))
        rm, re = v.rad().mid().man_exp()
        rad = mp.mpf((int(rm), int(re)))
        if m <= 0:
            return None, math.inf
        worst = max(worst, float(rad / m))
        out.append(m)
    return (out if worst <= tol else None), worst
