r"""Tight epsilon of lattice + Skellam, :math:`Z = h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)`, over every integer shift.

:mod:`arete_proofs.distributions.lattice_skellam`: :math:`f(n) = \sum_k p_k s_\mu(n - hk)` is symmetric and
**not unimodal** (a smoothed comb), so for integer :math:`\Delta`

.. math::

   \varepsilon^* = \sup_{n \in \mathbb Z}\Big[\ln f(n) - \min_{|j| \le \Delta} \ln f(n + j)\Big].

**The argument** (as :mod:`arete_proofs.privacy.tight_discrete` for the comb itself).

1. *Symmetry*: :math:`f(-n) = f(n)`: only :math:`n \ge 0` (``n + j`` may be negative).
2. *Tilt*: :math:`\lambda = a/m`, :math:`\lambda' = \lambda/h`, :math:`F_n = f(n)e^{\lambda' n} = \sum_k q_k \tilde s(n - hk)`,
   :math:`q_k = p_k e^{\lambda k}`, :math:`\tilde s(j) = s_\mu(j) e^{\lambda' j}`; the limit
   :math:`F_\infty(n) = \sum_{k\in\mathbb Z} C_{k \bmod m}\tilde s(n - hk)` has period :math:`hm`.
3. *Tail bound*: for :math:`k \ge 0`, :math:`0 \le C_{k \bmod m} - q_k \le E_0 e^{-\theta k}`
   (:func:`arete_proofs.distributions.comb.tail_error_bound`, :math:`E_0` its value at :math:`k = 0` for a fixed
   :math:`\theta`); for :math:`k < 0`, :math:`|q_k - C_{k \bmod m}| \le C_{\max}`.  With
   :math:`e^{-\theta k} = e^{-\theta n/h} e^{\theta(n - hk)/h}` and :math:`\sum_{k<0}\tilde s(n-hk) \le \sum_{j \ge n+h}\tilde s(j)`,

   .. math::

      |F_n - F_\infty(n)| \le E_0 e^{-\theta n/h}\,\mathcal M(\lambda' + \theta/h) + C_{\max} e^{-\varphi(n+h)}\,\mathcal M(\lambda' + \varphi),

   :math:`\mathcal M(t) = e^{2\mu(\cosh t - 1)}` (any :math:`\varphi > 0`), and
   :math:`F_\infty(n) \ge C_{\min} G_{\min}`, :math:`G_{\min} = \min_{t} \sum_k \tilde s(t - hk)`.  So
   :math:`|F_n/F_\infty(n) - 1| \le \rho(n)` (the ratio of the two), decreasing in :math:`n`.
4. *Tail limit*: :math:`\ell(t, s) = \ln F_\infty(t) - \ln F_\infty(t+s) + \lambda' s` is the limit of the
   loss of :math:`(n, n+s)` along :math:`n \equiv t \pmod{hm}`; :math:`L = \max_{t < hm,\,|s| \le \Delta} \ell(t,s) \le \varepsilon^*`,
   and for :math:`n, n + s \ge N_0` the loss is at most :math:`L + \eta`, :math:`\eta = \ln\frac{1+\rho(N_0)}{1-\rho(N_0)}`.
5. *Window*: :math:`W = \max_{0 \le n \le K}[\ln f(n) - \min_{|j| \le \Delta}\ln f(n+j)]`, :math:`K = N_0 + \Delta`,
   from the exact table (:func:`arete_proofs.distributions.lattice_skellam.tilted_table`).  Hence
   :math:`\max(W, L) \le \varepsilon^* \le \max(W, L + \eta)` (widened by the kernel truncation
   :math:`2\tau`, below :math:`10^{-(d+15)}`); :math:`N_0` makes :math:`\eta < 10^{-(d+5)}`.

At :math:`h = m = 1` the tail profile is flat and :math:`L = a\Delta` (DLap's own); adding Skellam never
increases the loss (post-processing), so DLap(:math:`\varepsilon/\Delta`) is the limit :math:`\mu \to 0`.

>>> r = tight_epsilon_lattice_skellam("2", 1, "0.3", 1, 1, digits=12)
>>> abs(r.epsilon - 2) < 1e-12, r.attained                 # h = m = 1: eps* = a, the tail limit
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from mpmath import mp

from .._validation import GUARD_DIGITS, PrecisionError, integer_sensitivity, resolve_digits
from ..distributions.comb import msdlap_components, tail_constants, tail_error_bound
from ..distributions.lattice_skellam import (
    check_params,
    chernoff_phi,
    limit_profile,
    tilted_kernel,
    tilted_table,
)
from .tight_discrete import DiscreteTight, _window

__all__ = ["EVERY_INTEGER_SHIFT", "SkellamTight", "rho_bound", "tail_limit", "tight_epsilon_lattice_skellam"]

#: The shift reduction of lattice + Skellam (this module, items 1-5).
EVERY_INTEGER_SHIFT = (
    "every integer shift |s| <= Delta (the smoothed comb is not unimodal): a window 0 <= n <= K by symmetry, and "
    "the exact periodic tail limit with an explicit bound past K (arete_proofs.privacy.tight_skellam, items 1-5)")


@dataclass(frozen=True)
class SkellamTight(DiscreteTight):
    r"""The tight epsilon of lattice + Skellam: ``epsilon`` in ``[lower_bound, upper_bound]`` (module docstring).

    The fields of :class:`~arete_proofs.privacy.tight_discrete.DiscreteTight`, with ``witness`` the ``(n, j)`` of
    the window maximum or ``inf`` (tail limit), ``tail_shift`` the ``(t, s)`` of :math:`L`, and ``eta`` the bound
    of the tail's remainder past the window.

    >>> r = tight_epsilon_lattice_skellam(1, 1, "0.5", 1, 2, digits=8)
    >>> r.lower_bound == 2, r.upper_bound - 2 < 1e-12, r.witness       # DLap(1) + Sk: a Delta, the tail limit
    (True, True, mpf('+inf'))
    """

    method: str = "exact tilted table (ball-arithmetic product) on a window + exact periodic tail limit"
    eta: object = None


def tail_limit(a, m, mu, h, Delta, *, digits=12):
    r"""``(L, (t, s), tau)``: :math:`L = \max_{t < hm,\ |s| \le \Delta} \ln F_\infty(t) - \ln F_\infty(t+s) + \lambda' s` (item 4).

    >>> L, (t, s), tau = tail_limit(2, 2, "0.4", 3, 6, digits=10)
    >>> L >= 2 - 1e-10                                       # s = hm: l(t, hm) = a for every t
    True
    """
    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    P, tau = limit_profile(a, m, mu, h, digits=d + 5)
    with mp.workdps(d + GUARD_DIGITS + 5):
        lam_t = mp.mpf(a) / m / h
        per = h * m
        lnP = [mp.log(x) for x in P]

        vals = [lnP[n % per] - lam_t * n for n in range(-Delta, per + Delta)]   # ln f_inf(n), n = -Delta..
        best, pair = _sliding_max_loss(vals, Delta, per)
    return best, pair, tau


def _sliding_max_loss(vals, Delta, count):
    """``max_{0 <= t < count} vals[t + Delta] - min_{|s| <= Delta} vals[t + Delta + s]`` and its ``(t, s)`` (a sliding minimum)."""
    from collections import deque

    dq = deque()
    best, pair, nxt = -mp.inf, None, 0
    for t in range(count):
        while nxt <= t + 2 * Delta:
            while dq and vals[dq[-1]] >= vals[nxt]:
                dq.pop()
            dq.append(nxt)
            nxt += 1
        while dq[0] < t:
            dq.popleft()
        v = vals[t + Delta] - vals[dq[0]]
        if v > best:
            best, pair = v, (t, dq[0] - t - Delta)
    return best, pair


def _setup(a, m, mu, h, d, fraction=0.5):
    w, r = msdlap_components(a, m)
    with mp.workdps(d + GUARD_DIGITS + 5):
        C = tail_constants(w, r, digits=d + 5)
        if m == 1:
            E0, th = mp.zero, mp.zero
        else:
            E0, th = tail_error_bound(0, w, r, fraction=fraction)
        lam_t = mp.mpf(a) / m / h
        mu_ = mp.mpf(mu)
        from ..distributions.lattice_skellam import kernel_radius
        R = kernel_radius(mu_, lam_t, mp.mpf(10) ** (-(d + 25)))
        ker = tilted_kernel(R, mu_, lam_t)
        G = [mp.fsum(ker[t - h * k + R] for k in range(-((R - t) // h), (t + R) // h + 1)) for t in range(h)]
        return C, E0, th, lam_t, min(G)


def rho_bound(n, C, E0, th, lam_t, Gmin, mu, h):
    r""":math:`\rho(n)` of item 3 (an upper bound of :math:`|F_n/F_\infty(n) - 1|`), :math:`\varphi` of :func:`arete_proofs.distributions.lattice_skellam.chernoff_phi` at :math:`n + h`.

    >>> from mpmath import mp
    >>> rho_bound(10 ** 4, [mp.mpf(1)], mp.zero, mp.zero, mp.mpf("0.1"), mp.mpf(1), mp.mpf(1), 1) < 1e-100
    True
    """
    mu = mp.mpf(mu)
    M = lambda t: mp.exp(2 * mu * (mp.cosh(t) - 1))
    phi = chernoff_phi(n + h, mu, lam_t)
    first = E0 * mp.exp(-th * n / h) * M(lam_t + th / h) if E0 else mp.zero
    second = max(C) * mp.exp(-phi * (n + h)) * M(lam_t + phi)
    if not min(C) * Gmin > 0:
        raise PrecisionError(f"the tail bound of item 3 degenerates here (its denominator underflows at mu = "
                             f"{mp.nstr(mu, 6)}, h = {h}): a lattice step this long next to the Skellam part is out of "
                             "the engine's range")
    return (first + second) / (min(C) * Gmin)


def tight_epsilon_lattice_skellam(a, m, mu, h, Delta, *, digits=12, max_window=2_000_000):
    r"""Tight epsilon of :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)` at integer ``Delta`` (module docstring).

    >>> r = tight_epsilon_lattice_skellam("1", 2, "0.7", 3, 6, digits=10)
    >>> r.lower_bound <= r.epsilon <= r.upper_bound and r.upper_bound - r.lower_bound < 1e-10
    True
    """
    a, m, mu, h = check_params(a, m, mu, h)
    d = resolve_digits(digits)
    Delta = integer_sensitivity(Delta)
    C, E0, th, lam_t, Gmin = _setup(a, m, mu, h, d)
    with mp.workdps(d + GUARD_DIGITS + 5):
        target = mp.mpf(10) ** (-(d + 5))

        def eta(n):
            rho = rho_bound(n, C, E0, th, lam_t, Gmin, mu, h)
            return mp.inf if rho >= 1 else mp.log1p(rho) - mp.log1p(-rho)
        lo, hi = 0, h
        while eta(hi) >= target:
            lo, hi = hi, 2 * hi
            if hi > 4 * max_window:
                raise ValueError(f"the window would exceed max_window = {max_window} points")
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if eta(mid) < target else (mid, hi)
        N0, e = hi, eta(hi)
    K = N0 + Delta
    if K > max_window:
        raise ValueError(f"the window K = {K} exceeds max_window = {max_window}")
    L, ts, tau_L = tail_limit(a, m, mu, h, Delta, digits=d)
    F, tau, _ = tilted_table(0, K + Delta, a, m, mu, h, digits=d + 5)
    with mp.workdps(d + GUARD_DIGITS + 5):
        lnF = [mp.log(x) for x in F]
        W, pair = _window(K, Delta, lambda n: lnF[n] - lam_t * n)      # f(-n) = f(n): _window reads |n|
        slack = 2 * (tau + tau_L)
        lower = max(W, L) - slack
        upper = max(W, L + e) + slack
        attained = W > L + e + mp.mpf(10) ** (-(d + 3))
        eps = W if attained else max(W, L)    # W within eta of L: the same value to the digits
    return SkellamTight(epsilon=eps, lower_bound=lower, upper_bound=upper, witness=pair if attained else mp.inf,
                        attained=attained, tail_limit=L, window_max=W, K=K, tail_shift=ts, Delta=Delta, digits=d,
                        eta=e, profile=C)
