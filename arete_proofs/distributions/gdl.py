r"""The generalized discrete Laplace law :math:`\mathrm{GDL}(\beta, a)` on the integers.

:math:`X = N_1 - N_2` with :math:`N_1, N_2` iid negative binomial
:math:`\mathrm{NB}(\beta, 1 - e^{-a})` (failures before the :math:`\beta`-th success, real
shape :math:`\beta > 0`; Harrison and Manurangsi, FORC 2025, Section 4, name from Lekshmi and
Sebastian 2014).  With :math:`q = e^{-a}`, the pmf is the hypergeometric closed form

.. math::

    p(x) = q^{|x|} (1-q)^{2\beta}\,
    \frac{\Gamma(\beta + |x|)}{\Gamma(\beta)\,\Gamma(1 + |x|)}\,
    {}_2F_1(\beta, \beta + |x|; 1 + |x|; q^2),

obtained by summing :math:`P(N_1 = |x| + j) P(N_2 = j)` over :math:`j` (the series of the
:math:`{}_2F_1`).  :math:`\beta = 1` is :math:`\mathrm{DLap}(a)`
(:mod:`arete_proofs.distributions.dlap`); :math:`\mathrm{GDL}(\beta_1, a) * \mathrm{GDL}(\beta_2, a)
= \mathrm{GDL}(\beta_1 + \beta_2, a)` (NB is closed under summation in its shape);
:math:`\operatorname{Var} X = 2\beta q/(1-q)^2 = \beta/(\cosh a - 1)`.

**Recurrence.**  The generating function :math:`G(z) = (1-q)^{2\beta}(1-qz)^{-\beta}(1-q/z)^{-\beta}`
satisfies :math:`z(1-qz)(z-q)G' = \beta q (z^2-1) G`; comparing coefficients,

.. math::

    q(n-\beta)\,p_n = (1+q^2)(n-1)\,p_{n-1} - q(n-2+\beta)\,p_{n-2}.

Its solutions grow like :math:`q^{-n}` or decay like :math:`q^n`; the pmf is the decaying one,
so the forward recurrence loses :math:`2an/\ln 10` digits over :math:`n` steps.  The sums here
(:func:`sf`, :func:`mean_abs`, :func:`pmf_range`) run it at a working precision raised by that
loss, and check the last term against the closed form (the precision is doubled if they
disagree).

**Tails.**  :math:`\mathrm{NB}(\beta)`'s ratio :math:`P(N=n+1)/P(N=n) = q(n+\beta)/(n+1)` is at
most :math:`r_k = q\max(1, (k+\beta)/(k+1))` for :math:`n \ge k`, and
:math:`p_{k+1} = \sum_j P(N_1 = k+1+j)P(N_2=j)`, so :math:`p_{k+1} \le r_k p_k` and
:math:`\sum_{j > k} p_j \le p_k r_k/(1 - r_k)` once :math:`r_k < 1`: the truncation bound
of the tail sums.

>>> from mpmath import mp
>>> # beta = 1 is DLap(a): p(x) = tanh(a/2) e^{-a|x|}
>>> mp.almosteq(pmf(3, 1, "0.5", digits=30), mp.tanh(mp.mpf("0.25")) * mp.exp(-mp.mpf("1.5")), 1e-14)
True
>>> mp.almosteq(cdf(-1, "0.3", 1, digits=20) + sf(0, "0.3", 1, digits=20), 2 * sf(0, "0.3", 1, digits=20))
True
"""

from __future__ import annotations

import math
from fractions import Fraction

from mpmath import mp

from .._validation import GUARD_DIGITS, exact_point, floor_point, parse_precision, positive, resolve_digits
from .._workload import check_work

__all__ = ["pmf", "logpmf", "cdf", "sf", "mean_abs", "var", "pmf_range", "logpmf_float"]


def _params(beta, a, d):
    with mp.workdps(parse_precision(d)):
        return positive(beta, "beta"), positive(a, "a")


def _integer(k, name="k"):
    """``k`` as a Python int, read exactly (``ValueError`` for a non-integer: the law lives on the integers)."""
    q = exact_point(k, name)
    if not isinstance(q, Fraction) or q.denominator != 1:
        raise ValueError(f"{name} must be an integer, got {k!r}")
    return int(q)


def _cdf_by_symmetry(x, sf):
    r""":math:`P(X \le x) = P(X > -\lfloor x\rfloor - 1)` for a law symmetric on the integers, from its
    ``sf(n)`` :math:`= P(X > n)` at an integer ``n`` (shared by the cdfs of GDL, DLap and the discrete staircase).

    >>> _cdf_by_symmetry(mp.inf, None), _cdf_by_symmetry(-mp.inf, None), _cdf_by_symmetry(2.5, lambda n: n)
    (mpf('1.0'), mpf('0.0'), -3)
    """
    n = floor_point(x, "x")
    if n == mp.inf:
        return mp.one
    if n == mp.ninf:
        return mp.zero
    return sf(-n - 1)


#: Above this many series terms the 2F1 is left to mpmath's transformations.
_DIRECT_TERMS = 20000
#: Below this n mpmath's hyp2f1 (fast fixed-point series) is tried first.
_MPMATH_BELOW = 64


def _f21(beta, n, a):
    r""":math:`F_n = {}_2F_1(\beta, \beta+n; 1+n; e^{-2a})` at the working precision.

    Every term :math:`t_j = \frac{(\beta)_j(\beta+n)_j}{(1+n)_j\,j!} z^j` is positive, so the series is
    summed directly (no cancellation) when it is short: the ratio
    :math:`t_{j+1}/t_j = \frac{(\beta+j)(\beta+n+j)}{(1+n+j)(1+j)}z` is monotone in :math:`j` (decreasing
    for :math:`\beta \ge 1`, increasing to :math:`z` for :math:`\beta < 1`), so the rest after
    :math:`t_J` is at most :math:`t_J r/(1-r)` with :math:`r` the current ratio (:math:`\beta\ge1`,
    once :math:`r < 1`) or :math:`z`.  mpmath's ``hyp2f1`` is used for small :math:`n` and for long
    series (it transforms the series near :math:`z = 1`); for large :math:`n` and :math:`\beta > 1` it
    is slow or does not converge, and the direct sum is the fallback.
    """
    z = mp.exp(-2 * a)
    fz = float(z)
    peak = max(0.0, (float(beta) * fz - 1) / (1 - fz)) if fz < 1 else float("inf")
    est = peak + (mp.prec * 0.6931 + 20) / max(2 * float(a), 1e-300)
    if est > _DIRECT_TERMS or n < _MPMATH_BELOW:
        try:
            return mp.hyp2f1(beta, beta + n, 1 + n, z)
        except mp.NoConvergence:
            pass
    eps = mp.eps * 2 ** -8
    t = mp.one
    total = mp.one
    j = 0
    b, bn, n1 = beta, beta + n, 1 + n
    r = b * bn / n1 * z
    while True:
        t = t * r
        total += t
        j += 1
        r = (b + j) * (bn + j) / ((n1 + j) * (1 + j)) * z          # the next ratio
        if j % 8 == 0:
            if beta >= 1:
                if r < 1 and t * r / (1 - r) <= eps * total:
                    return total
            elif t * z / (1 - z) <= eps * total:
                return total


def _log_closed(n, beta, a):
    """ln p_n for n >= 0 (closed form, at the working precision)."""
    return (-a * n + 2 * beta * mp.log(-mp.expm1(-a)) + mp.loggamma(beta + n) - mp.loggamma(beta)
            - mp.loggamma(1 + n) + mp.log(_f21(beta, n, a)))


def logpmf(k, beta, a, *, digits=None):
    r""":math:`\ln p(k)` from the closed form (``-inf`` off the integers is refused: ``k`` must be an integer).

    >>> from mpmath import mp
    >>> mp.almosteq(logpmf(-4, "0.5", 2), logpmf(4, "0.5", 2))     # symmetric
    True
    """
    d = resolve_digits(digits)
    beta, a = _params(beta, a, d)
    n = abs(_integer(k))
    with mp.workdps(d + GUARD_DIGITS + len(str(n))):
        return _log_closed(n, beta, a)


def pmf(k, beta, a, *, digits=None):
    r""":math:`p(k) = P(X = k)`, the :math:`{}_2F_1` closed form (module docstring).

    >>> from mpmath import mp
    >>> s = sum(pmf(k, "0.4", 1, digits=20) for k in range(-60, 61))
    >>> mp.almosteq(s, 1, 1e-18)                                      # sums to 1
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        return mp.exp(logpmf(k, beta, a, digits=d + GUARD_DIGITS))


def _ratio_bound(k, beta, q):
    return q * max(mp.one, (k + beta) / (k + 1))


#: The stopping test of the tail sums runs every this many steps (stopping later only adds terms).
_CHECK_EVERY = 16

#: Most steps of one tail sum (about 1.5e-5 s each: one hour; see :func:`_tail`).
MAX_RECURRENCE_STEPS = 2.4e8


def _run(n0, beta, a, wd, *, stop=None, count=None, weight=False):
    """Forward recurrence from p_{n0}, p_{n0+1} (closed form) at precision ``wd``.

    Stops after ``count`` terms, or (``stop`` digits) when the tail bound of the module
    docstring is below 10^-stop of the running sum (of p_n, or of n p_n with ``weight``).
    Returns (terms -- only with ``count`` --, sum, last n, ok) where ok says the last term
    agrees with the closed form to 10^-stop (the error of the recurrence grows with n, so
    the earlier terms are at least as accurate).
    """
    q = mp.exp(-a)
    c1 = 1 + q * q
    p_prev = mp.exp(_log_closed(n0, beta, a))
    p_cur = mp.exp(_log_closed(n0 + 1, beta, a))
    keep = count is not None
    terms = [p_prev, p_cur] if keep else None
    n = n0 + 1
    total = n0 * p_prev + n * p_cur if weight else p_prev + p_cur
    eps_stop = mp.mpf(10) ** (-stop) if stop is not None else None
    length = 2
    while True:
        if keep and length >= count:
            break
        if stop is not None and n % _CHECK_EVERY == 0:
            r = _ratio_bound(n, beta, q)
            if weight:
                r = r * (n + 1) / n
            if r < 1:
                term = n * p_cur if weight else p_cur
                if term * r / (1 - r) <= eps_stop * total:
                    break
        n += 1
        if abs(n - beta) < 0.5:
            p_new = mp.exp(_log_closed(n, beta, a))
        else:
            p_new = (c1 * (n - 1) * p_cur - q * (n - 2 + beta) * p_prev) / (q * (n - beta))
        p_prev, p_cur = p_cur, p_new
        length += 1
        if keep:
            terms.append(p_cur)
        total += n * p_cur if weight else p_cur
    exact = mp.exp(_log_closed(n, beta, a))
    tol = eps_stop if eps_stop is not None else mp.mpf(10) ** (-(wd // 3))
    return terms, total, n, exact == 0 or abs(p_cur - exact) <= abs(exact) * tol


def _extra(beta, a, d, steps=None):
    """Digits lost by the forward recurrence over ``steps`` steps (default: a tail sum to 10^-d).

    The tail sum stops once p_k r/(1 - r) < 10^-d of the sum, p_k ~ k^(beta - 1) q^k and
    1/(1 - r) ~ 1/a: about (d ln 10 + ln(1/a) + |beta - 1| ln k)/a steps; each step
    amplifies the growing solution by q^-2 relative to the pmf.
    """
    a = float(a)
    if steps is None:
        steps = _tail_steps(beta, a, d) + 32
    return int(2 * a * steps / 2.303) + 10


def _tail_steps(beta, a, d):
    """Steps of a tail sum to 10^-d: about (d ln 10 + ln(1/a) + |beta - 1| ln k)/a (:func:`_extra`)."""
    a = float(a)
    return (d * 2.303 + max(0.0, -math.log(a)) + 3 * abs(float(beta) - 1) * math.log(d / a + 10) + 10) / a


def _tail(n0, beta, a, d, weight=False):
    """sum_{k >= n0} p_k (or k p_k) to ``d`` digits (n0 >= 0)."""
    check_work("the GDL's tail sum", _tail_steps(beta, a, d + GUARD_DIGITS), MAX_RECURRENCE_STEPS,
               "recurrence steps", seconds_each=1.5e-5,
               grows_with="1/a (the tail's decay per step) and the digits")
    wd = d + GUARD_DIGITS + _extra(beta, a, d + GUARD_DIGITS)
    for _ in range(6):
        with mp.workdps(wd):
            _, total, _, ok = _run(n0, beta, a, wd, stop=d + GUARD_DIGITS, weight=weight)
        if ok:
            return total
        wd *= 2
    raise ArithmeticError("gdl: the forward recurrence did not reach the requested accuracy")


def sf(x, beta, a, *, digits=None):
    r"""Survival function :math:`P(X > x)` (any real ``x``: :math:`P(X > \lfloor x\rfloor)`).

    For :math:`n = \lfloor x \rfloor \ge 0` the tail sum :math:`\sum_{k>n} p_k` (recurrence and
    tail bound of the module docstring); for :math:`n < 0`, :math:`1 - P(X > -n-1)` by symmetry.

    >>> from mpmath import mp
    >>> mp.almosteq(sf(-1, "0.5", 1) + sf(0, "0.5", 1), 1)    # P(X >= 0) + P(X <= -1) = 1
    True
    """
    d = resolve_digits(digits)
    beta, a = _params(beta, a, d)
    n = floor_point(x, "x")
    with mp.workdps(d + GUARD_DIGITS):
        if n == mp.inf:
            return mp.zero
        if n == mp.ninf:
            return mp.one
        if n >= 0:
            return +_tail(n + 1, beta, a, d + 2)
        return 1 - _tail(-n, beta, a, d + 2)


def cdf(x, beta, a, *, digits=None):
    r"""Distribution function :math:`P(X \le x)` (:math:`= P(X > -\lfloor x\rfloor - 1)` by symmetry).

    >>> from mpmath import mp
    >>> mp.almosteq(cdf(2, "0.7", "0.5") - cdf(1, "0.7", "0.5"), pmf(2, "0.7", "0.5"))
    True
    """
    d = resolve_digits(digits)
    return _cdf_by_symmetry(x, lambda n: sf(n, beta, a, digits=d))


def mean_abs(beta, a, *, digits=None):
    r""":math:`E|X| = 2\sum_{k \ge 1} k\,p_k` (tail bound of the module docstring, ratio times :math:`(k+1)/k`).

    >>> from mpmath import mp
    >>> mp.almosteq(mean_abs(1, 1, digits=25), 1 / mp.sinh(1), 1e-14)   # DLap: E|X| = 1/sinh a
    True
    """
    d = resolve_digits(digits)
    beta, a = _params(beta, a, d)
    with mp.workdps(d + GUARD_DIGITS):
        return 2 * _tail(1, beta, a, d + 2, weight=True)


def var(beta, a, *, digits=None):
    r""":math:`\operatorname{Var} X = 2\beta e^{-a}/(1-e^{-a})^2 = \beta/(\cosh a - 1)`.

    >>> from mpmath import mp
    >>> mp.almosteq(var(3, "0.5"), 3 * var(1, "0.5"))        # closed under summation in beta
    True
    """
    d = resolve_digits(digits)
    beta, a = _params(beta, a, d)
    with mp.workdps(d + GUARD_DIGITS):
        return beta / (mp.cosh(a) - 1)


def pmf_range(K, beta, a, *, digits=None):
    r"""``[p_0, ..., p_K]`` at ``digits`` digits: :math:`q(n-\beta)p_n = (1+q^2)(n-1)p_{n-1} - q(n-2+\beta)p_{n-2}` forward at a raised precision, checked at :math:`p_K`.

    >>> from mpmath import mp
    >>> ps = pmf_range(40, "0.3", "0.8", digits=20)
    >>> mp.almosteq(ps[40], pmf(40, "0.3", "0.8", digits=20), 1e-18)
    True
    """
    d = resolve_digits(digits)
    beta, a = _params(beta, a, d)
    K = _integer(K, "K")
    if K < 0:
        raise ValueError(f"K must be >= 0, got {K}")
    if K == 0:
        return [pmf(0, beta, a, digits=d)]
    wd = d + GUARD_DIGITS + _extra(beta, a, d, steps=K)
    for _ in range(6):
        with mp.workdps(wd):
            terms, _, _, ok = _run(0, beta, a, wd, count=K + 1, stop=None)
            exact = mp.exp(_log_closed(K, beta, a))
            ok = abs(terms[K] - exact) <= abs(exact) * mp.mpf(10) ** (-d - GUARD_DIGITS)
        if ok:
            with mp.workdps(d + GUARD_DIGITS):
                return [+t for t in terms[:K + 1]]
        wd *= 2
    raise ArithmeticError("gdl: the forward recurrence did not reach the requested accuracy")


def logpmf_float(k, beta, a):
    r"""float64 :math:`\ln p(k)` (numpy; scipy's ``hyp2f1`` and ``gammaln``), for plots and tests.

    >>> import numpy as np
    >>> bool(abs(logpmf_float(np.array([5]), 0.5, 1.0)[0] - float(logpmf(5, "0.5", 1))) < 1e-12)
    True
    """
    import numpy as np
    from scipy import special

    n = np.abs(np.asarray(k, dtype=float))
    beta, a = float(beta), float(a)
    q2 = np.exp(-2 * a)
    return (-a * n + 2 * beta * np.log(-np.expm1(-a)) + special.gammaln(beta + n) - special.gammaln(beta)
            - special.gammaln(1 + n) + np.log(special.hyp2f1(beta, beta + n, 1 + n, q2)))
