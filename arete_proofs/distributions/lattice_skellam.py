r"""Lattice + Skellam on the integers: :math:`Z = h\,\mathrm{MSDLap}(a, m) + (P_1 - P_2)`, :math:`P_i` iid Poisson(:math:`\mu`).

The discrete analogue of ``lattice_gauss``: the comb :math:`hM`, :math:`M = \sum_{i\le m} i X_i`,
:math:`X_i` iid DLap(a) (:mod:`arete_proofs.distributions.comb`), smoothed by the Skellam law
:math:`s_\mu(j) = e^{-2\mu} I_j(2\mu)` (:math:`I_j` the modified Bessel function; :math:`h \ge 1` an integer).

.. math::

   f(n) = P(Z = n) = \sum_{k\in\mathbb Z} p_k\, s_\mu(n - hk),\qquad
   \operatorname{Var} Z = h^2 \frac{S_2(m)}{\cosh a - 1} + 2\mu .

**The tilted form** (no underflow, and the engine of the tight epsilon): with :math:`\lambda = a/m`
(the dominant pole modulus of :math:`M`) and :math:`\lambda' = \lambda/h`,

.. math::

   F_n = f(n)\, e^{\lambda' n} = \sum_k q_k\, \tilde s(n - hk),\qquad q_k = p_k e^{\lambda k},\quad
   \tilde s(j) = s_\mu(j)\, e^{\lambda' j},

:math:`q_k \to C_{k \bmod m}` (:func:`arete_proofs.distributions.comb.tail_constants`), and the periodic limit
:math:`F_\infty(t) = \sum_{k\in\mathbb Z} C_{k \bmod m}\,\tilde s(t - hk)` (period :math:`hm`; :func:`limit_profile`).
The kernel is cut at :math:`|j| \le R` with the Chernoff bound
:math:`\sum_{|j| > R} \tilde s(j) \le e^{-\varphi(R+1)}\,[\,\mathcal M(\lambda'+\varphi) + \mathcal M(\varphi-\lambda')\,]`,
:math:`\mathcal M(t) = E e^{tS} = e^{2\mu(\cosh t - 1)}` (:func:`kernel_tail_bound`).

>>> from mpmath import mp
>>> p = [lattice_skellam_pmf(n, "1", 2, "0.7", 3, digits=20) for n in range(-2, 3)]
>>> q = pmf_by_convolution(range(-2, 3), "1", 2, "0.7", 3, digits=20)
>>> all(mp.almosteq(x, y, 1e-15) for x, y in zip(p, q))        # = direct convolution of DLap and Poisson laws
True
>>> mp.almosteq(lattice_skellam_var("1", 2, "0.7", 3, digits=20), 9 * 5 / (mp.cosh(1) - 1) + mp.mpf("1.4"))
True
"""

from __future__ import annotations

import math

from mpmath import mp

from .._validation import GUARD_DIGITS, exponent_digits, positive, resolve_digits
from .._workload import MAX_KERNEL_TERMS, check_work
from .comb import (
    _int,
    comb_mean_abs,
    comb_pmf,
    comb_sf,
    msdlap_components,
    tail_constants,
)

__all__ = [
    "check_params",
    "chernoff_phi",
    "float_pmf_table",
    "kernel_radius",
    "kernel_tail_bound",
    "lattice_skellam_cdf",
    "lattice_skellam_logpmf",
    "lattice_skellam_mean_abs",
    "lattice_skellam_pmf",
    "lattice_skellam_sf",
    "lattice_skellam_var",
    "limit_profile",
    "pmf_by_convolution",
    "skellam_pmf",
    "tilted_kernel",
    "tilted_table",
]


def check_params(a, m, mu, h):
    r"""``(a, m, mu, h)`` checked: :math:`a, \mu > 0` (kept as given), :math:`m, h \ge 1` integers.

    >>> check_params("2", 3, "0.5", 4)
    ('2', 3, '0.5', 4)
    """
    with mp.workdps(40):
        positive(a, "a")
        positive(mu, "mu")
    return a, _int(m, "m"), mu, _int(h, "h")


def skellam_pmf(j, mu, *, digits=None):
    r""":math:`P(P_1 - P_2 = j) = e^{-2\mu} I_{|j|}(2\mu)`, :math:`P_i` iid Poisson(:math:`\mu`).

    >>> from mpmath import mp
    >>> mp.almosteq(skellam_pmf(0, 1, digits=20), mp.fsum(mp.exp(-2) / mp.factorial(i) ** 2 for i in range(40)))
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS + 5):
        x = 2 * positive(mu, "mu")
        v = mp.besseli(abs(int(j)), x) * mp.exp(-x)
    with mp.workdps(d + GUARD_DIGITS):
        return +v


def _mgf(t, mu):
    return mp.exp(2 * mu * (mp.cosh(t) - 1))


def chernoff_phi(N, mu, lam_t):
    r""":math:`\varphi = \max(\operatorname{asinh}(N/2\mu) - \lambda', 10^{-3})`: the minimiser of :math:`e^{-\varphi N}\mathcal M(\lambda' + \varphi)` (any :math:`\varphi > 0` gives a bound).

    >>> float(chernoff_phi(10, 1, 0)) == float(mp.asinh(5))
    True
    """
    return max(mp.asinh(mp.mpf(N) / (2 * mp.mpf(mu))) - mp.mpf(lam_t), mp.mpf("0.001"))


def kernel_tail_bound(R, mu, lam_t):
    r"""An upper bound of :math:`\sum_{|j| > R} s_\mu(j) e^{\lambda' j}` (Chernoff at :func:`chernoff_phi`; working precision).

    >>> from mpmath import mp
    >>> exact = mp.fsum(skellam_pmf(j, 2, digits=20) * mp.exp(mp.mpf("0.1") * j) for j in range(-80, 81) if abs(j) > 10)
    >>> exact <= kernel_tail_bound(10, 2, mp.mpf("0.1")) < 100 * exact     # a bound, not far off
    True
    """
    mu, lam_t = mp.mpf(mu), mp.mpf(lam_t)
    phi = chernoff_phi(R + 1, mu, lam_t)
    return mp.exp(-phi * (R + 1)) * (_mgf(lam_t + phi, mu) + _mgf(phi - lam_t, mu))


def kernel_radius(mu, lam_t, tol):
    r"""The least :math:`R` (doubling, then bisection) with :math:`\sum_{|j|>R}\tilde s(j)` bounded (:func:`kernel_tail_bound`) below ``tol``.

    >>> kernel_radius(2, 0.1, 1e-20) > 10
    True
    """
    lo, hi = 0, 8
    while kernel_tail_bound(hi, mu, lam_t) >= tol:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if kernel_tail_bound(mid, mu, lam_t) < tol else (mid, hi)
    return hi


def tilted_kernel(R, mu, lam_t):
    r""":math:`[\tilde s(j)]_{j=-R..R}`, :math:`\tilde s(j) = e^{-2\mu} I_{|j|}(2\mu) e^{\lambda' j}` (working precision; downward Bessel recurrence checked at both ends).

    >>> from mpmath import mp
    >>> k = tilted_kernel(3, 1, 0)
    >>> mp.almosteq(k[3 + 2], skellam_pmf(2, 1, digits=mp.dps))
    True
    """
    mu, lam_t = mp.mpf(mu), mp.mpf(lam_t)
    check_work("the tilted Skellam kernel", R + 1, MAX_KERNEL_TERMS, "Bessel values", seconds_each=1.5e-4,
               grows_with="the tilt a/(m h) per lattice step (its radius about e^(a/(m h))) and mu")
    x = 2 * mu
    e = mp.exp(-x)
    I = [mp.besseli(j, x) * e for j in range(R + 1)]
    return [I[abs(j)] * mp.exp(lam_t * j) for j in range(-R, R + 1)]


def _lam_t(a, m, h):
    return mp.mpf(a) / m / h


def lattice_skellam_pmf(n, a, m, mu, h, *, digits=None):
    r""":math:`f(n) = \sum_k p_k s_\mu(n - hk)` (module docstring), the kernel cut where its tail is below :math:`10^{-(d+15)}` of the value.

    >>> from mpmath import mp
    >>> mp.almosteq(mp.fsum(lattice_skellam_pmf(n, 2, 1, "0.5", 2, digits=20) for n in range(-60, 61)), 1, 1e-14)
    True
    """
    a, m, mu, h = check_params(a, m, mu, h)
    n = abs(int(n))
    d = resolve_digits(digits) + exponent_digits(n)   # e^{lam_t h k}, k ~ n/h: log10(n) more digits
    w, r = msdlap_components(a, m)
    with mp.workdps(d + GUARD_DIGITS + 10):
        lam_t = _lam_t(a, m, h)
        C = tail_constants(w, r, digits=d + 10)
        cmax = max(C)
        R = kernel_radius(mu, lam_t, mp.mpf(10) ** (-(d + 20)) * min(C) * mp.exp(-2 * lam_t * h))
        while True:
            ker = tilted_kernel(R, mu, lam_t)
            k0, k1 = -((R - n) // h), (n + R) // h
            F = mp.fsum(comb_pmf(k, w, r, digits=d + 10) * mp.exp(lam_t * h * k) * ker[n - h * k + R]
                        for k in range(k0, k1 + 1))
            if cmax * kernel_tail_bound(R, mu, lam_t) <= F * mp.mpf(10) ** (-(d + 15)):
                break
            R *= 2
        v = F * mp.exp(-lam_t * n)
    with mp.workdps(d + GUARD_DIGITS):
        return +v


def lattice_skellam_logpmf(n, a, m, mu, h, *, digits=None):
    r""":math:`\ln f(n)` (:func:`lattice_skellam_pmf`; symmetric, :math:`f(-n) = f(n)`).

    >>> lattice_skellam_logpmf(-3, 1, 2, 1, 2, digits=15) == lattice_skellam_logpmf(3, 1, 2, 1, 2, digits=15)
    True
    """
    d = resolve_digits(digits)
    p = lattice_skellam_pmf(n, a, m, mu, h, digits=d + 2)
    with mp.workdps(d + GUARD_DIGITS):
        return mp.log(p)


def _skellam_sf_table(R, mu):
    """``P(S > j)`` for ``j = -R-1..R`` (working precision) from the pmf: a dict."""
    ker = tilted_kernel(R + 1, mu, 0)
    out, acc = {}, mp.zero
    for j in range(R, -R - 2, -1):     # P(S > R + 1) is below the caller's 10^-(d+22): neglected
        acc += ker[j + 1 + R + 1]
        out[j] = acc
    return out


def lattice_skellam_sf(n, a, m, mu, h, *, digits=None):
    r""":math:`P(Z > n) = \sum_k p_k\,P(S > n - hk)`: the terms with :math:`|n - hk| \le R`, plus :math:`P(hM > n + R)` (comb sf).

    The neglected Skellam tails are below :math:`10^{-(d+20)}`.

    >>> from mpmath import mp
    >>> s = lattice_skellam_sf(-1, 1, 2, "0.5", 2, digits=15) - lattice_skellam_sf(0, 1, 2, "0.5", 2, digits=15)
    >>> mp.almosteq(s, lattice_skellam_pmf(0, 1, 2, "0.5", 2, digits=15), 1e-13)
    True
    """
    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    n = int(n)
    w, r = msdlap_components(a, m)
    with mp.workdps(d + GUARD_DIGITS + 10):
        R = kernel_radius(mu, 0, mp.mpf(10) ** (-(d + 22)))
        sf = _skellam_sf_table(R, mu)
        k_lo, k_hi = -((R - n) // h), (n + R) // h      # ceil((n - R)/h), floor((n + R)/h)
        # k > k_hi: n - hk < -R, P(S > n - hk) = 1 (up to the tail); k < k_lo: P(S > n - hk) = 0
        v = comb_sf(k_hi, w, r, digits=d + 10)
        for k in range(k_lo, k_hi + 1):
            j = n - h * k
            v += comb_pmf(k, w, r, digits=d + 10) * (sf[j] if j >= -R - 1 else 1)
    with mp.workdps(d + GUARD_DIGITS):
        return +v


def lattice_skellam_cdf(n, a, m, mu, h, *, digits=None):
    r""":math:`P(Z \le n) = P(Z > -n - 1)` (symmetry).

    >>> from mpmath import mp
    >>> mp.almosteq(lattice_skellam_cdf(0, 1, 2, 1, 2, digits=15) + lattice_skellam_sf(0, 1, 2, 1, 2, digits=15), 1)
    True
    """
    return lattice_skellam_sf(-int(n) - 1, a, m, mu, h, digits=digits)


def lattice_skellam_var(a, m, mu, h, *, digits=None):
    r""":math:`\operatorname{Var} Z = h^2 S_2(m)/(\cosh a - 1) + 2\mu`, :math:`S_2(m) = m(m+1)(2m+1)/6` (Theorem 16's variance).

    >>> from mpmath import mp
    >>> mp.almosteq(lattice_skellam_var(1, 1, 1, 1, digits=20), 1 / (mp.cosh(1) - 1) + 2)
    True
    """
    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS + 5):
        v = mp.mpf(h) ** 2 * m * (m + 1) * (2 * m + 1) / 6 / (mp.cosh(mp.mpf(a)) - 1) + 2 * mp.mpf(mu)
    with mp.workdps(d + GUARD_DIGITS):
        return +v


def lattice_skellam_mean_abs(a, m, mu, h, *, digits=None):
    r""":math:`E|Z| = h\,E|M| + \sum_k p_k\, g(hk)`, :math:`g(x) = E|x + S| - |x| = 2\sum_{j > |x|} (j - |x|)\, s_\mu(j)`.

    (:math:`S` symmetric: :math:`E|x+S| = |x| + 2E(S - |x|)_+`.)  :math:`g(hk)` is below
    :math:`10^{-(d+20)}` past :math:`h|k| > R`.

    >>> from mpmath import mp
    >>> v = mp.fsum(abs(n) * lattice_skellam_pmf(n, 2, 1, 1, 2, digits=20) for n in range(-80, 81))
    >>> mp.almosteq(lattice_skellam_mean_abs(2, 1, 1, 2, digits=20), v, 1e-14)       # sum |n| f(n)
    True
    """
    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    w, r = msdlap_components(a, m)
    with mp.workdps(d + GUARD_DIGITS + 10):
        R = kernel_radius(mu, 0, mp.mpf(10) ** (-(d + 25)))
        ker = tilted_kernel(R, mu, 0)

        def g(x):
            return 2 * mp.fsum((j - x) * ker[j + R] for j in range(x + 1, R + 1))

        v = h * comb_mean_abs(w, r, digits=d + 10)
        v += g(0) * comb_pmf(0, w, r, digits=d + 10)
        for k in range(1, R // h + 1):
            v += 2 * comb_pmf(k, w, r, digits=d + 10) * g(h * k)
    with mp.workdps(d + GUARD_DIGITS):
        return +v


# -- tables for the tight epsilon ---------------------------------------------------------
def tilted_table(n0, n1, a, m, mu, h, *, digits=None):
    r"""``(F, tau, R)``: :math:`F_n = f(n) e^{\lambda' n}` for :math:`n = n_0..n_1` (a list), the kernel cut at ``R``.

    :math:`q_k` from :func:`arete_proofs.distributions.comb_table.scaled_pmf_table` (positive power series;
    :math:`q_{-k} = q_k e^{-2\lambda k}`), the convolution with :math:`\tilde s` by one ball-arithmetic polynomial
    product (python-flint); ``tau``: a bound of the relative truncation error of every value
    (:math:`C_{\max}` times :func:`kernel_tail_bound` over the least value).

    >>> from mpmath import mp
    >>> F, tau, R = tilted_table(0, 5, "1", 2, "0.7", 3, digits=20)
    >>> mp.almosteq(F[4] * mp.exp(-mp.mpf(4) / 6), lattice_skellam_pmf(4, "1", 2, "0.7", 3, digits=20), 1e-15)
    True
    """
    from flint import arb, arb_poly, ctx

    from .comb_table import scaled_pmf_table

    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    n0, n1 = int(n0), int(n1)
    w, r = msdlap_components(a, m)
    dps = d + GUARD_DIGITS + 10
    with mp.workdps(dps):
        lam = mp.mpf(a) / m
        lam_t = lam / h
        C = tail_constants(w, r, digits=d + 10)
        floor = min(C) * mp.exp(-2 * lam_t * (max(0, -n0) + h)) * mp.mpf(10) ** (-(d + 25))
        R = kernel_radius(mu, lam_t, floor / max(C))
        ker = tilted_kernel(R, mu, lam_t)
        k_lo, k_hi = -((R - n0) // h), (n1 + R) // h
        Kq = max(k_hi, -k_lo, 0)
        qpos = scaled_pmf_table(Kq, w, r, digits=d + 10)
        q = [qpos[k] if k >= 0 else qpos[-k] * mp.exp(2 * lam * k) for k in range(k_lo, k_hi + 1)]
        old = ctx.prec
        try:
            ctx.prec = int(3.33 * dps) + 30
            qc = [arb(0)] * (h * (k_hi - k_lo) + 1)
            for i, v in enumerate(q):
                qc[h * i] = arb(mp.nstr(v, dps))
            prod = arb_poly(qc) * arb_poly([arb(mp.nstr(v, dps)) for v in ker])
            # coefficient i is n = h k_lo - R + i
            base = h * k_lo - R
            F = [mp.mpf(prod[n - base].mid().str(dps, radius=False)) for n in range(n0, n1 + 1)]
        finally:
            ctx.prec = old
        tau = max(C) * kernel_tail_bound(R, mu, lam_t) / min(F)
    return F, tau, R


def limit_profile(a, m, mu, h, *, digits=None):
    r"""``(Finf, tau)``: :math:`F_\infty(t) = \sum_{k \in \mathbb Z} C_{k \bmod m}\,\tilde s(t - hk)` for :math:`t = 0..hm-1` (period :math:`hm`).

    ``tau``: the relative truncation error bound, as in :func:`tilted_table`.  For ``m = 1`` the profile
    is constant in :math:`k`: :math:`F_\infty(t) = \tanh(a/2)\sum_k \tilde s(t - hk)`.

    >>> from mpmath import mp
    >>> P, tau = limit_profile("1", 1, "0.3", 1, digits=15)         # h = 1: tanh(1/2) E e^{S}
    >>> mp.almosteq(P[0], mp.tanh(0.5) * mp.exp(mp.mpf("0.6") * (mp.cosh(1) - 1)), 1e-13)
    True
    """
    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    w, r = msdlap_components(a, m)
    with mp.workdps(d + GUARD_DIGITS + 10):
        lam_t = _lam_t(a, m, h)
        C = tail_constants(w, r, digits=d + 10)
        R = kernel_radius(mu, lam_t, mp.mpf(10) ** (-(d + 25)) * min(C) / max(C) * mp.exp(-lam_t * h))
        ker = tilted_kernel(R, mu, lam_t)
        P = h * m
        out = []
        for t in range(P):
            k0, k1 = -((R - t) // h), (t + R) // h
            out.append(mp.fsum(C[k % m] * ker[t - h * k + R] for k in range(k0, k1 + 1)))
        tau = max(C) * kernel_tail_bound(R, mu, lam_t) / min(out)
    return out, tau


# -- independent methods ------------------------------------------------------------------
def pmf_by_convolution(ns, a, m, mu, h, *, digits=None):
    r""":math:`f(n)` by direct convolution of truncated DLap and Poisson laws (test reference; absolute accuracy about :math:`10^{-(d+12)}`).

    >>> from mpmath import mp
    >>> mp.almosteq(pmf_by_convolution([0], 1, 1, "1e-30", 1, digits=20)[0], mp.tanh(0.5))   # mu -> 0: DLap
    True
    """
    from .comb import pmf_by_convolution as comb_conv

    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    with mp.workdps(d + 20):
        mu = mp.mpf(mu)
        T = int(mp.ceil(4 * mu + 10 + (d + 15) * 2.3)) + 5          # Poisson(mu) cut at T: tail < 10^-(d+15)
        pois = [mp.exp(-mu) * mu ** i / mp.factorial(i) for i in range(T + 1)]
        S = {}
        for i, x in enumerate(pois):
            for j, y in enumerate(pois):
                S[i - j] = S.get(i - j, 0) + x * y
        kmax = max(abs(int(n)) for n in ns) // h + T // h + 2
        w, r = msdlap_components(a, m)
        pk = dict(zip(range(-kmax, kmax + 1), comb_conv(range(-kmax, kmax + 1), w, r, digits=d + 5)))
        out = [mp.fsum(pk[k] * S.get(int(n) - h * k, 0) for k in pk) for n in ns]
    with mp.workdps(d + GUARD_DIGITS):
        return [+x for x in out]


def float_pmf_table(a, m, mu, h, N):
    r"""float64 :math:`f(n)` on :math:`n = -N..N`: the MSDLap table (:func:`arete_proofs.distributions.comb.float_pmf_table`) on the lattice :math:`h\mathbb Z`, convolved with the Skellam kernel (scipy's ``ive``).

    >>> import numpy as np
    >>> p = float_pmf_table(1.0, 2, 0.7, 3, 200)
    >>> bool(abs(p.sum() - 1) < 1e-12), bool(abs(p[200 + 4] / float(lattice_skellam_pmf(4, 1, 2, "0.7", 3, digits=20)) - 1) < 1e-12)
    (True, True)
    """
    import numpy as np
    from scipy import special

    from .comb import float_pmf_table as comb_table

    a, mu, m, h, N = float(a), float(mu), int(m), int(h), int(N)
    R = math.ceil(2 * mu + 12 * math.sqrt(2 * mu) + 40)
    Kn = (N + R) // h + 1
    p = comb_table(range(1, m + 1), [a] * m, Kn)
    lat = np.zeros(2 * h * Kn + 1)
    lat[::h] = p
    j = np.arange(-R, R + 1)
    ker = special.ive(np.abs(j), 2 * mu)
    full = np.convolve(lat, ker)        # positive sums: no cancellation (an FFT would swamp the tails)
    c = h * Kn + R          # index of n = 0
    return np.clip(full[c - N: c + N + 1], 0, None)
