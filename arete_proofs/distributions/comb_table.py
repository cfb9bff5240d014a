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
the far terms of the second sum by :math:`e^{-2\lambda M}\,E e^{\lambda Y}`; these are products of one
factor per component -- :math:`R(1) \approx e^{748}` for MSDLap(2, 1000) -- so they are kept as logarithms
and the error radius is an arb, never a float); the radius of every
value, those bounds included, is checked to be below :math:`10^{-(d+8)}` of it, else the
precision is raised.  Cost: :math:`O(N \log N)` for a window of :math:`N` points, against
:math:`O(N \cdot \#\text{components})` for the partial fractions point by point.

**From the poles, on long windows.**  When a cost model says it is cheaper (``_poles_cheaper``: few
scales, a long window -- Theorem 21 at :math:`m = 245` has :math:`N = 2.9 \cdot 10^5` points), the table is
:math:`q_k = C_{k \bmod w^*} + \sum_{c \ne c^*} B_{c, k \bmod w_c} r_c^k` in balls
(:class:`arete_proofs.distributions.comb_poles.CombPoles`: :math:`O(m^3/4)` constants, then running products,
each component dropped once it is below the target).  These partial fractions cancel near :math:`k = 0`, so
the bits are raised by the cancellation estimated in float64 first
(:func:`arete_proofs.distributions.comb_poles.cancellation_bits`), and the same radius check applies; if it
fails twice, or the comb has a double pole, the power series is used.

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

__all__ = ["pmf_table", "scaled_pmf_table"]


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
    bits = _poles_cheaper(K, w, r, d)
    if bits:
        out = _pole_table(K, w, r, d, bits)
        if out is not None:
            return tuple(out)
    return _series_table(K, w, r, d)


def _poles_cheaper(K, w, r, d):
    r"""Whether the partial fractions in balls (:func:`_pole_table`) should cost less than the power series.

    Rough cost models in seconds, fitted on a 2-core machine (MSDLap(15.5, 245), :math:`K = 2.9\cdot 10^5`,
    17 digits: series 20 s at 486 bits; poles 4 s for the constants and 0.9 s for the table at 128 bits):
    series :math:`8\cdot10^{-9} N \log_2 N \cdot \text{bits}`, whose bits grow with :math:`\log R(1)`
    (the module docstring); poles :math:`1.1\cdot10^{-6}\,(\text{bits}/128) \sum_c w_c n/2` for the
    constants (:math:`m^3/4` for MSDLap) plus :math:`3\cdot10^{-6}\sum_c \min(K, K_c)` for the table, where
    component :math:`c` lives :math:`K_c \approx \text{bits}\ln 2/(a_c/w_c - \lambda)` points.  The poles' bits
    are :func:`_pole_bits`.  Returns the bits to use, or 0 for the series."""
    n = len(w)
    if n < 2 or K < 2000:
        return 0
    a = [float(x) for x in r]
    lr = [x / wc for x, wc in zip(a, w)]
    lam = min(lr)
    srt = sorted(lr)
    if any(y - x <= 1e-9 * x for x, y in zip(srt, srt[1:])):
        return 0              # a double (or nearly double) pole: only the power series
    cs = lr.index(lam)
    lg_r1 = sum(-math.log1p(-math.exp(-(a[c] - lam * w[c]))) for c in range(n) if c != cs)
    lg_lb = sum(-math.log1p(-math.exp(-a[c])) for c in range(n) if c != cs)
    N = K + 1000
    s_bits = max((d + 20 + 20 * math.log10(N)) * 3.33, (d + 20 + 10 * math.log10(N)) * 3.33 + (lg_r1 + lg_lb) / math.log(2))
    series = 8e-9 * N * math.log2(N) * s_bits

    def poles(bits):
        consts = 1.1e-6 * (bits / 128) * sum(w) * n / 2
        return consts + 3e-6 * sum(min(K, bits * math.log(2) / (lr[c] - lam)) for c in range(n) if c != cs)

    base = _pole_base(K, d)
    if poles(base) >= series:          # decided before the O(m^3) float estimate of the cancellation
        return 0
    bits = _pole_bits(K, w, a, d)
    return bits if poles(bits) < series else 0


def _pole_base(K, d):
    return int(3.33 * (d + 8)) + 32 + int(math.log2(K + 2))


def _pole_bits(K, w, a, d):
    r"""Bits for :func:`_pole_table`: the target plus the cancellation of the partial fractions near :math:`k = 0`
    (:func:`arete_proofs.distributions.comb_poles.cancellation_bits`)."""
    from .comb_poles import cancellation_bits

    return _pole_base(K, d) + int(cancellation_bits(w, a)) + 16


def _pole_table(K, w, r, d, bits):
    r"""The same table from the poles (:meth:`arete_proofs.distributions.comb_poles.CombPoles.q_table`) at ``bits``,
    or ``None``.

    The partial fractions cancel near :math:`k = 0` (the pole constants and the profile are far larger than the
    least :math:`q_k`); ``bits`` comes from :func:`_pole_bits`.  Every value's radius is checked as for the series
    (:func:`_to_mp`); one retry with the bits the radii show were missing, else ``None`` (the caller falls back to
    the power series).  Values off the lattice :math:`\gcd(w)\mathbb Z` are exactly zero.
    """
    from fractions import Fraction

    from flint import arb

    from .comb_poles import CombPoles, _precision

    rates = tuple(Fraction(x) for x in r)     # the rates' exact decimal text
    g = math.gcd(*w)
    for _ in range(2):
        with _precision(bits):
            try:
                comb = CombPoles(w, rates)
            except ValueError:              # not finite even at 4x the bits
                return None
            tab = comb.q_table(K)   # components dropped below 2^-bits C_min: also below the least q_k's target
            out, worst = _to_mp([v if k % g == 0 else arb(0) for k, v in enumerate(tab)], d)
        if out is not None:
            return out
        if not worst < math.inf:
            return None
        bits += int(3.33 * (math.log10(worst) + d + 8)) + 32
    return None


def _series_table(K, w, r, d):
    from flint import arb, arb_series, ctx

    cs = _dominant_index(w, r)
    ws, aS = w[cs], r[cs]
    others = [c for c in range(len(w)) if c != cs]
    old_prec, old_cap = ctx.prec, ctx.cap
    # the power-series exponential's balls lose about 20 log10(N) digits at length N (measured: 86 at 10^5)
    prec = int((d + 20 + 20 * math.log10(K + 1000)) * 3.33)
    # absolute target for the neglected parts, relative to a guess of the least value (p_1 e^lambda is about
    # prod tanh(a_c/2) e^{-a}); lowered to the least value seen if that guess was too high.  All these
    # magnitudes are kept as natural logarithms: for MSDLap(2, 1000), R(1) is about e^822 and the least
    # value about e^-274, outside the float range
    with mp.workdps(20):
        lg_guess = float(-max(mp.mpf(x) for x in r) + mp.fsum(mp.log(mp.tanh(mp.mpf(x) / 2)) for x in r))
    lg_tau = lg_guess - (d + 14) * _LN10
    try:
        for _ in range(12):
            ctx.prec = prec
            (out, worst), lg_vmin = _attempt(K, w, r, cs, ws, aS, others, d, lg_tau, arb, arb_series, ctx)
            if out is not None:
                return tuple(out)
            # not enough digits: lower the truncation target to the least value seen, raise the precision
            lo = min(lg_vmin, 0.0)
            if lg_tau > lo - (d + 12) * _LN10:
                lg_tau = lo - (d + 13) * _LN10
            prec = ctx.prec   # _attempt may have raised it (the series' magnitude)
            prec += int(3.33 * (math.log10(max(worst, 1e-300)) + d + 12)) + 32 if worst < math.inf else prec
        raise ArithmeticError("comb pmf table: the power series lost all digits")
    finally:
        ctx.prec, ctx.cap = old_prec, old_cap


def _attempt(K, w, r, cs, ws, aS, others, d, lg_tau, arb, arb_series, ctx):
    """One try at precision ``ctx.prec``; ``lg_tau`` is the log of the absolute target for the neglected parts.

    Returns ``(_to_mp(...), log of the least nonzero value)``.  The bounds below are products of up to
    ``len(w)`` factors, so they are handled as logarithms (:func:`_ln`, :func:`_lse`)."""
    a = {c: arb(r[c]) for c in range(len(w))}
    lam = a[cs] / ws
    tanh_s = (a[cs] / 2).tanh()
    if not others:  # one DLap: p_k e^{lambda k} = tanh(a/2) on multiples of w, else 0
        vals = [tanh_s if k % ws == 0 else arb(0) for k in range(K + 1)]
        return _to_mp(vals, d), 0.0
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
    lg_R1, lg_lb = _ln(R1), _ln(Lb)
    lg_tk = _ln(tanh_s) + _ln(kappa)            # tanh(a*/2) kappa
    lg_sl = lg_tk + lg_R1 + lg_lb               # scale * lb, scale = tanh(a*/2) kappa R(1)
    lg_1mq = math.log(-math.expm1(-lamf))       # log(1 - e^{-lam})
    lg_need = max(lg_sl, 0.0) - lg_tau          # log(max(scale lb, 1) / tau)
    # L truncated at Lt terms: each Q_y loses <= kappa R(1) e^{-lam Lt} L(e^lam) / (1 - e^{-lam}) (also the y < -Lt)
    Lt = math.ceil((lg_need - 3 * lg_1mq + math.log(K + 10)) / lamf) + 2
    # the far part of the second sum beyond y > K + M: <= e^{-2 lam M} tanh E e^{lam Y}
    M = math.ceil((lg_need + math.log(2)) / (2 * lamf)) + ws
    N = K + M + Lt + 1   # R needed up to degree N (Q_y for y <= K + M)
    # the series' balls are absolute at the scale of R(1) and L(1) (up to e^748 for MSDLap(2, 1000)) while the
    # values needed can be far smaller: start with that many more bits (else every attempt but the last fails)
    # (measured at MSDLap(2, 500): 385 bits lose every digit, 770 keep 65, a loss of about log R(1) + 10 log10 N digits)
    need = int((d + 20 + 10 * math.log10(N + 1000)) * 3.33 + (max(lg_R1, 0.0) + max(lg_lb, 0.0)) / math.log(2))
    if ctx.prec < need:
        ctx.prec = need
        return _attempt(K, w, r, cs, ws, aS, others, d, lg_tau, arb, arb_series, ctx)
    lg_trunc = lg_sl - lamf * Lt - 2 * lg_1mq + math.log((K + Lt + M) / ws + 2)
    lg_far = lg_sl - 2 * lamf * (M - ws)
    ctx.cap = N + Lt + 2
    # the log series' terms below a cut are dropped (their mass delta bounded; R changes by <= R(1)(e^delta - 1))
    lg_cls = math.log(N / ws + 1) + lg_sl
    R, lg_dR = _exp_series(others, rc, w, N, arb, arb_series, lg_tau - math.log(100) - lg_cls)
    L, lg_dL = _exp_series(others, lc, w, Lt, arb, arb_series, lg_tau - math.log(100) - lg_cls - math.log(Lt))
    lg_errR, lg_errL = lg_R1 + _ln_expm1(lg_dR), lg_lb + _ln_expm1(lg_dL)
    # dropped = tanh kappa (errR lb + Lt errL (R(1) + errR)) (N/ws + 1) 1.01
    lg_dropped = lg_tk + _lse(lg_errR + lg_lb, math.log(Lt) + lg_errL + _lse(lg_R1, lg_errR)) \
        + math.log(N / ws + 1) + math.log(1.01)
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
    lg_err = _lse(_lse(lg_trunc, lg_far), _lse(lg_dropped, lg_tau - math.log(100)))
    err = arb(0, (arb(lg_err) + 1e-9).exp().upper())   # ball [-E, E]; arb's exponent range is unbounded
    g = math.gcd(*w)
    vals = [v + err if k % g == 0 else arb(0) for k, v in enumerate(vals)]
    return _to_mp(vals, d), min(_ln_mid(v) for v in vals if not v.is_zero())


def _exp_series(others, x, w, n, arb, arb_series, lg_cut):
    """:math:`\\prod_c 1/(1 - x_c z^{w_c})` to length ``n`` as :math:`\\exp(\\sum_c \\sum_j x_c^j z^{j w_c}/j)`, and the
    log of the mass :math:`\\delta` of the log-series terms left out: per component the tail
    :math:`\\sum_{j \\ge J} x^j/j \\le x^J/(J(1-x))` once it is below ``exp(lg_cut)`` / (number of components).
    All in logarithms (the cut can be below the float range)."""
    co = [arb(0)] * n
    lg_delta = -math.inf
    lg_share = lg_cut - math.log(max(len(others), 1))
    for c in others:
        wc, xc = w[c], x[c]
        lx = _ln(xc)                              # >= log x_c, < 0
        lg_1mx = math.log(-math.expm1(lx))        # <= log(1 - x_c)
        p, j = xc, 1
        while j * wc < n:
            lg_t = j * lx - math.log(j) - lg_1mx   # >= log(x^j / (j (1 - x)))
            if lg_t <= lg_share:
                lg_delta = _lse(lg_delta, lg_t)
                break
            co[j * wc] += p / j
            p *= xc
            j += 1
    return arb_series(co, prec=n).exp(), lg_delta


_LN10 = math.log(10)


def _ln(x):
    """A float upper bound of :math:`\\log x` for an arb :math:`x > 0` (no overflow for huge or tiny :math:`x`)."""
    return math.nextafter(float(x.log().upper()), math.inf)   # one ulp up: float() rounds to nearest


def _ln_mid(v):
    """:math:`\\log` of the midpoint of an arb (``-inf`` if it is not positive), from its mantissa and exponent."""
    man, ex = v.mid().man_exp()
    man = int(man)
    return math.log(man) + int(ex) * math.log(2) if man > 0 else -math.inf


def _lse(x, y):
    """:math:`\\log(e^x + e^y)` of two logs (either may be ``-inf``)."""
    hi, lo = max(x, y), min(x, y)
    return hi if lo == -math.inf else hi + math.log1p(math.exp(lo - hi))


def _ln_expm1(lg):
    """An upper bound of :math:`\\log(e^{\\delta} - 1)` given :math:`\\log \\delta` (``-inf`` for :math:`\\delta = 0`)."""
    if lg == -math.inf:
        return -math.inf
    if lg < -20:                                  # e^delta - 1 <= delta e^delta
        return lg + math.exp(lg)
    return math.log(math.expm1(math.exp(lg)))


def _to_mp(vals, d):
    """Midpoints as mpf (or ``None`` if some radius exceeds ``10^{-(d+8)}`` of its value), and the worst relative radius."""
    tol = mp.mpf(10) ** (-(d + 8))
    out, worst = [], 0.0
    for v in vals:
        if v.is_zero():
            out.append(mp.zero)
            continue
        man, ex = v.mid().man_exp()
        man, ex = int(man), int(ex)
        if man <= 0:
            return None, math.inf
        rm, re = v.rad().mid().man_exp()
        # rad/mid in floats (no mpf division): mantissas below 2^1000 here, else through the mpf quotient
        rm, re = int(rm), int(re)
        if man.bit_length() < 1000 and rm.bit_length() < 1000 and abs(re - ex) < 900:
            rel = math.ldexp(float(rm) / float(man), re - ex)
        else:
            rel = float(mp.mpf((rm, re)) / mp.mpf((man, ex)))
        worst = max(worst, rel)
        out.append(mp.mpf((man, ex)))
    return (out if worst <= tol else None), worst
