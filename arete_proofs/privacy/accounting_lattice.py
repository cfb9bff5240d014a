r"""Approximate DP of the combs (``msdlap``): the exact hockey-stick :math:`\delta(\varepsilon)` over every shift, and a dominating dp_accounting PLD.

MSDLap(a, m) (Harrison and Manurangsi, FORC 2025, Theorem 16) is symmetric but **not unimodal**:
its privacy loss :math:`L_s(k) = \ln p(k) - \ln p(k+s)` is not monotone in :math:`k`, and the
reduction of every shift to :math:`s = \Delta` (:mod:`arete_proofs.privacy.accounting_discrete`)
fails.  So for an integer query of sensitivity :math:`\Delta`

.. math::

    \delta(\varepsilon) = \max_{1 \le s \le \Delta} \delta_s(\varepsilon),\qquad
    \delta_s(\varepsilon) = \sum_{k \in \mathbb Z} \big(p(k) - e^\varepsilon p(k+s)\big)_+,

with :math:`\delta_{-s} = \delta_s` (substitute :math:`k \to -k - s` and use :math:`p(-k) = p(k)`).
**Which shift.**  For a non-unimodal law the shift that is worst for :math:`\delta` at one
:math:`\varepsilon` need not be the one that is worst at another, nor the one that gives the tight
epsilon (``tests/test_accounting_comb.py`` exhibits lattice_laplace(2, 1, 1/4, 1) at :math:`\Delta = 1`:
:math:`\delta_1(2) = 0` while :math:`\delta_{3/4}(2) = 0.0355`; a partial search found no MSDLap parameters
where a shift other than :math:`\Delta` is worse, but no proof of that is known here).  We
report the maximum over **all** integer shifts :math:`1 \le s \le \Delta` at each :math:`\varepsilon`
(``shift``: the maximiser), which is the definition.

**Exact sum.**  :math:`p` from the partial fractions of :mod:`arete_proofs.distributions.comb` at
the working precision, summed over :math:`|k| \le K`; each omitted term is at most :math:`p(k)`, so
the omitted part is at most :math:`P(|X| > K) = 2\bar F(K)` (exact survival function), and ``K`` is
doubled until that bound is below :math:`10^{-(d+2)}\delta`.  :math:`\delta = 0` exactly for
:math:`\varepsilon \ge \varepsilon^*` (the family's tight epsilon over every shift); a window
without excess (beyond the rounding of :math:`p`) and a tail bound below :math:`10^{-(d+2)}` also
report 0 (then :math:`0 \le \delta \le 10^{-(d+2)}`).

**PLD.**  No single pair :math:`(X, X+s)` dominates every shift at every :math:`\varepsilon`, so
:func:`noise_pld` does not hand dp_accounting the loss of one shift.  It builds the curve
:math:`\hat\delta(\varepsilon) = \max_s \delta_s(\varepsilon)` on the grid :math:`\varepsilon_i = ih`,
:math:`-\varepsilon^* - h \le \varepsilon_i \le \varepsilon^* + h` (float64: the convolution table of
:func:`arete_proofs.distributions.comb.float_pmf_table`, losses sorted and the masses summed
cumulatively, plus an allowance ``ALLOW`` for the float64 error), and gives it to dp_accounting's
pessimistic connect-the-dots (``pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap``, Doroshenko
et al. 2022).  Each :math:`\delta_s` is convex in :math:`e^\varepsilon`, so their maximum is too and
the connect-the-dots curve (linear in :math:`e^\varepsilon` between grid points, equal at them) lies
above it: the PLD's pair dominates every shift's pair for every :math:`\varepsilon` (both directions:
each pair :math:`(X, X+s)` is its own reverse up to a reflection, ``symmetric=True``), hence also
under composition (Zhu, Dong and Wang 2022, Theorem 10).  ``shifts=[s]`` builds the PLD of one shift
only (the broken variant the tests catch).

>>> from arete_proofs.noise import make
>>> z = make("msdlap", a=2, m=3)
>>> r = hockey_stick_details(z, 3, 1, digits=12)
>>> 0 < r.delta < 1, r.shift in (1, 2, 3), hockey_stick(z, 3, 2, digits=12) == 0     # eps* = a = 2 (Theorem 16)
(True, True, True)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS, PrecisionError, parse_precision, real

__all__ = ["CombHockeyStick", "hockey_stick", "hockey_stick_details", "epsilon_for_delta", "delta_curve",
           "noise_pld", "ALLOW", "lattice_hockey_stick", "lattice_delta_curves", "lattice_pld", "msdlap_table",
           "float_mixture", "LatticeDelta", "lattice_account", "lattice_epsilon_for_delta",
           "LATTICE_ACCOUNT_METHOD"]

#: Added to every float64 delta of the PLD's curve (the cumulative sums' rounding is below 1e-15).
ALLOW = 1e-14


@dataclass(frozen=True)
class CombHockeyStick:
    r"""``delta`` :math:`= \max_s \delta_s`, ``shift`` (its maximiser), ``per_shift`` (``{s: delta_s}``),
    ``K`` (window), ``tail`` (bound of the omitted part, :math:`2\bar F(K)`), ``epsilon``, ``tight``, ``digits``.

    >>> from arete_proofs.noise import make
    >>> r = hockey_stick_details(make("msdlap", a=1, m=2), 2, "0.5", digits=10)
    >>> r.delta == max(r.per_shift.values()) and r.tail <= r.delta * 1e-11
    True
    """

    delta: object
    shift: int
    per_shift: dict
    K: int
    tail: object
    epsilon: object
    tight: object
    digits: int


def _components(noise):
    comp = getattr(noise, "_comp", None)
    if comp is None or not getattr(noise, "integer_valued", False):
        raise ValueError(f"accounting_lattice: noise {getattr(noise, 'name', noise)!r} is not an integer comb "
                         "(msdlap)")
    return comp()


def _check(noise, sensitivity, eps, digits):
    from .accounting_discrete import _arguments

    return _arguments(sensitivity, eps, digits)


class _Table:
    """Exact pmf values p(k) (cached) of a comb at ``dps`` digits."""

    def __init__(self, w, r, dps):
        self.w, self.r, self.dps = w, r, dps
        self._p = {}

    def p(self, k):
        from ..distributions.comb import comb_pmf

        k = abs(int(k))
        v = self._p.get(k)
        if v is None:
            v = self._p[k] = comb_pmf(k, self.w, self.r, digits=self.dps)
        return v

    def tail(self, K):
        from ..distributions.comb import comb_sf

        return 2 * comb_sf(K, self.w, self.r, digits=10)


def _window_sums(tab, D, e, K):
    with mp.workdps(tab.dps):
        ee = mp.exp(e)
        tol = mp.mpf(10) ** (5 - tab.dps)       # a difference below the rounding of p(k) is no excess
        out = {}
        for s in range(1, D + 1):
            tot = mp.zero
            for k in range(-K, K + 1):
                pk = tab.p(k)
                v = pk - ee * tab.p(k + s)
                if v > tol * pk:
                    tot += v
            out[s] = tot
    return out


def hockey_stick_details(noise, sensitivity=1, eps=0, *, digits=12, shifts=None) -> CombHockeyStick:
    r"""Exact :math:`\delta(\varepsilon) = \max_{1 \le s \le \Delta}\delta_s(\varepsilon)` of a comb (module docstring).

    ``shifts``: the shifts to maximise over (default all of :math:`1..\Delta`).

    >>> from mpmath import mp
    >>> from arete_proofs.noise import make
    >>> r = hockey_stick_details(make("msdlap", a=1, m=1), 1, "0.5", digits=15)      # m = 1: DLap(1)
    >>> mp.almosteq(r.delta, (1 - mp.exp(mp.mpf("0.5") - 1)) / (1 + mp.exp(-1)))     # P(X >= 0)(1 - e^{eps - a})
    True
    """
    w, r = _components(noise)
    d, D, e = _check(noise, sensitivity, eps, digits)
    ss = list(range(1, D + 1)) if shifts is None else sorted({abs(int(s)) for s in shifts})
    if not ss or ss[0] < 1 or ss[-1] > D:
        raise ValueError(f"shifts must be integers with 1 <= |s| <= Delta = {D}, got {shifts!r}")
    tight = noise.tight_epsilon(D, digits=d)
    if e >= tight.epsilon:
        return CombHockeyStick(mp.zero, D, {s: mp.zero for s in ss}, 0, mp.zero, e, tight, d)
    tab = _Table(w, r, d + GUARD_DIGITS + 5)
    K = 32 * max(w)
    while True:
        sums = _window_sums(tab, D, e, K)
        sums = {s: sums[s] for s in ss}
        best = max(ss, key=lambda s: sums[s])
        tail = tab.tail(K)
        if sums[best] == 0 and tail <= mp.mpf(10) ** (-d - 2):      # no excess on the window, none to speak of past it
            return CombHockeyStick(mp.zero, best, sums, K, tail, e, tight, d)
        if sums[best] > 0 and tail <= mp.mpf(10) ** (-d - 2) * sums[best]:
            with mp.workdps(d + GUARD_DIGITS):
                return CombHockeyStick(+sums[best], best, {s: +v for s, v in sums.items()}, K, tail, e, tight, d)
        if K > 200_000:
            raise PrecisionError("accounting_lattice: delta(eps) below the reach of a window of 2e5 points "
                                 "(eps too close to the tight epsilon)")
        K *= 2


def hockey_stick(noise, sensitivity=1, eps=0, *, digits=12, shifts=None):
    r""":math:`\max_{1\le s\le\Delta}\sum_k (p(k) - e^\varepsilon p(k+s))_+` of a comb (exactly 0 for :math:`\varepsilon \ge \varepsilon^*`).

    >>> from arete_proofs.noise import make
    >>> z = make("msdlap", a=1, m=3)
    >>> one, two = (hockey_stick(z, 2, "0.1", digits=8, shifts=[s]) for s in (1, 2))
    >>> hockey_stick(z, 2, "0.1", digits=8) == max(one, two), bool(one < two)      # the max over shifts (here s = 2)
    (True, True)
    """
    return hockey_stick_details(noise, sensitivity, eps, digits=digits, shifts=shifts).delta


def epsilon_for_delta(noise, sensitivity=1, delta=1e-6, *, digits=12):
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\delta(\varepsilon) \le \delta` (bisection on the exact curve, which decreases).

    >>> from mpmath import mp
    >>> from arete_proofs.noise import make
    >>> z = make("msdlap", a=1, m=2)
    >>> e = epsilon_for_delta(z, 2, "1e-3", digits=6)
    >>> mp.almosteq(hockey_stick(z, 2, e, digits=8), mp.mpf("1e-3"), 1e-4)
    True
    """
    d, D, _ = _check(noise, sensitivity, None, digits)
    with mp.workdps(parse_precision(d)):
        target = real(delta, "delta")
        if not 0 < target < 1:
            raise ValueError(f"delta must be in (0, 1), got {mp.nstr(target, 8)}")
    if hockey_stick(noise, D, 0, digits=d) <= target:
        return mp.zero
    with mp.workdps(d + GUARD_DIGITS):
        lo, hi = mp.zero, mp.mpf(noise.tight_epsilon(D, digits=d).upper_bound)
        tol = mp.mpf(10) ** -(d + 1)
        while hi - lo > tol * max(hi, 1):
            mid = (lo + hi) / 2
            if hockey_stick(noise, D, mid, digits=d) > target:
                lo = mid
            else:
                hi = mid
        return +hi


def delta_curve(noise, sensitivity, epsilons, *, shifts=None):
    r"""float64 :math:`\delta_s(\varepsilon_i)` for each shift: ``{s: array}`` (sorted losses, cumulative masses).

    :math:`\delta_s(\varepsilon) = P_s(\varepsilon) - e^\varepsilon Q_s(\varepsilon)` with
    :math:`P_s = \sum_{L_s(k) > \varepsilon} p(k)`, :math:`Q_s = \sum_{L_s(k) > \varepsilon} p(k+s)`.

    >>> from arete_proofs.noise import make
    >>> c = delta_curve(make("msdlap", a=1, m=1), 1, [0.0, 0.5, 1.0])        # DLap(1): (1 - e^{eps-1}) P(X >= 0)
    >>> bool(abs(c[1][1] - (1 - math.exp(-0.5)) / (1 + math.exp(-1))) < 1e-13 and abs(c[1][2]) < 1e-13)
    True
    """
    from ..distributions.comb import float_pmf_table

    w, r = _components(noise)
    D = int(sensitivity)
    eps = np.asarray(epsilons, dtype=float)
    amin = min(float(a) / wc for wc, a in zip(w, r))
    N = min(int(745 / amin + 10 * max(w)) + 50, 200_000)
    p = float_pmf_table(list(w), [float(a) for a in r], N)
    with np.errstate(divide="ignore"):
        lp = np.log(p)
    out = {}
    for s in (range(1, D + 1) if shifts is None else sorted({abs(int(x)) for x in shifts})):
        P, Q = p[:len(p) - s], p[s:]
        ok = (P > 0) & (Q > 0)
        L = lp[:len(p) - s][ok] - lp[s:][ok]
        order = np.argsort(-L)
        Ls, Pc, Qc = L[order], np.cumsum(P[ok][order]), np.cumsum(Q[ok][order])
        n = np.searchsorted(-Ls, -eps, side="left")     # number of losses > eps
        Pn = np.where(n > 0, Pc[np.maximum(n - 1, 0)], 0.0)
        Qn = np.where(n > 0, Qc[np.maximum(n - 1, 0)], 0.0)
        out[s] = np.maximum(Pn - np.exp(eps) * Qn, 0.0)
    return out


def noise_pld(noise, sensitivity=1, *, value_discretization_interval=1e-3, shifts=None):
    r"""A dp_accounting PLD dominating every shift :math:`1 \le |s| \le \Delta` (connect-the-dots on :math:`\max_s\delta_s`; module docstring).

    >>> from arete_proofs.noise import make
    >>> z = make("msdlap", a=1, m=3)
    >>> pld = noise_pld(z, 2, value_discretization_interval=1e-3)
    >>> exact = float(hockey_stick(z, 2, 1, digits=10))
    >>> bool(exact <= pld.get_delta_for_epsilon(1.0) <= exact + 1e-3)
    True
    """
    try:
        from dp_accounting.pld import pld_pmf
        from dp_accounting.pld import privacy_loss_distribution as lib
    except ImportError:
        raise ImportError("arete_proofs.privacy.accounting_lattice.noise_pld needs dp_accounting: "
                          "pip install 'arete-proofs[accounting]'") from None
    h = float(value_discretization_interval)
    if not (h > 0 and math.isfinite(h)):
        raise ValueError(f"value_discretization_interval must be positive, got {value_discretization_interval!r}")
    D = int(sensitivity)
    top = float(noise.tight_epsilon(D, digits=12).upper_bound) + 1e-9
    hi = int(math.ceil(top / h)) + 1
    lo = -hi
    grid = np.arange(lo, hi + 1) * h
    curves = delta_curve(noise, D, grid, shifts=shifts)
    dl = np.max(np.stack(list(curves.values())), axis=0) + ALLOW
    dl = np.minimum(np.maximum.accumulate(dl[::-1])[::-1], 1.0)      # a nonincreasing curve above it
    pmf = pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(h, lo, hi, dl)
    return lib.PrivacyLossDistribution(pmf)


# -- the continuous lattice laws (lattice_laplace, lattice_gauss) ------------------------------------------
@functools.lru_cache(maxsize=32)
def msdlap_table(a, m):
    r"""``(p, N)``: the float64 pmf of MSDLap(a, m) on :math:`-N..N` (``p[k + N]``) and its right partial sums.

    Returns ``(p, N, right)`` with ``right[j] = sum(p[j:])`` (so :math:`P(Z \ge k) =` ``right[k + N]``).

    >>> p, N, right = msdlap_table(1.0, 2)
    >>> bool(abs(right[0] - 1) < 1e-12 and abs(right[N] - (1 + p[N]) / 2) < 1e-12)    # symmetric about 0
    True
    """
    from ..distributions.comb import float_pmf_table

    a, m = float(a), int(m)
    N = min(int(m * (745 / a + 10)) + 50, 40_000)
    p = float_pmf_table(range(1, m + 1), [a] * m, N)
    p = (p + p[::-1]) / 2          # the law is symmetric: remove the FFT's last-bit asymmetry
    right = np.cumsum(p[::-1])[::-1]
    return p, N, right


def _table(a, m, h):
    """(ln p_k, h k) over the entries p_k > 0 of the float64 table."""
    p, N, _ = msdlap_table(a, int(m))
    keep = p > 0
    with np.errstate(divide="ignore"):
        return np.log(p[keep]), h * np.arange(-N, N + 1)[keep]


def float_mixture(t, a, m, s, h, kernel, what):
    r"""float64 :math:`\ln f(t)` (``what='pdf'``) or :math:`\ln F(t)` (``'cdf'``) of the mixture :math:`\sum_k p_k\, g(t - hk)`, in chunks of 256 points.

    >>> bool(abs(math.exp(float_mixture(0.0, 2.0, 1, 0.25, 1.0, "laplace", "cdf")) - 0.5) < 1e-15)
    True
    """
    from scipy import special

    lp, x = _table(a, m, h)
    t = np.asarray(t, dtype=float)
    flat = t.reshape(-1)
    out = np.empty(flat.shape)
    for i in range(0, flat.size, 256):
        u = flat[i:i + 256, None] - x[None, :]
        if kernel == "laplace":
            if what == "cdf":
                lk = np.where(u < 0, math.log(0.5) + np.minimum(u, 0) / s, np.log1p(-0.5 * np.exp(-np.abs(u) / s)))
            else:
                lk = -np.abs(u) / s - math.log(2 * s)
        else:
            lk = special.log_ndtr(u / s) if what == "cdf" else -0.5 * (u / s) ** 2 - math.log(s * math.sqrt(2 * math.pi))
        out[i:i + 256] = special.logsumexp(lp[None, :] + lk, axis=1)
    return out.reshape(t.shape)


def _lattice_parts(noise):
    kernel = getattr(noise, "kernel", None)
    if kernel not in ("laplace", "gauss") or getattr(noise, "name", None) not in ("lattice_laplace", "lattice_gauss"):
        raise ValueError(f"accounting_lattice: noise {getattr(noise, 'name', noise)!r} is not an MSDLap lattice law "
                         "(lattice_laplace, lattice_gauss)")
    a, m, s, h = noise._floats()
    return kernel, a, int(m), s, h


def lattice_hockey_stick(noise, sensitivity=1, eps=0, *, shifts=None, digits=8):
    r""":math:`\max_{s}\int (f(x) - e^\varepsilon f(x+s))_+\,dx` of a lattice law over the real ``shifts`` (mpmath quadrature).

    The integral is split at the lattice points :math:`hk` and :math:`hk - s` (the density's kinks) over
    :math:`|x| \le T` (mass beyond below :math:`10^{-(d+3)}`), each piece by tanh-sinh quadrature of the
    exact density (:mod:`arete_proofs.distributions.lattice`).  Default ``shifts``: :math:`\Delta` and
    :math:`\Delta/2`.  **Not the supremum over every real shift** unless ``shifts`` covers it: use
    :func:`lattice_pld` (a shift grid with a continuity bound) for a curve valid for every
    :math:`|s| \le \Delta`.  Returns ``(delta, shift)``.

    >>> from arete_proofs.noise import make
    >>> z = make("lattice_laplace", a=2, m=1, b="0.25", h=1)
    >>> d, s = lattice_hockey_stick(z, 1, 1, shifts=["0.5", 1], digits=6)
    >>> 0 < d < 1 and s in ("0.5", 1)
    True
    """
    kernel, a, m, sc, h = _lattice_parts(noise)
    d = int(digits)
    law = noise.law(d + 4)
    D = float(sensitivity)
    ss = [D, D / 2] if shifts is None else list(shifts)
    lam = a / m
    with mp.workdps(d + 8):
        e = mp.mpf(eps)
        ee = mp.exp(e)
        T = mp.mpf((d + 6) * math.log(10) / lam * h + 40 * sc + D)
        best = (mp.mpf(-1), None)
        for s in ss:
            sv = mp.mpf(s)
            kmax = int(mp.ceil(T / law.h)) + 1
            pts = sorted({float(law.h * k) for k in range(-kmax, kmax + 1)}
                         | {float(law.h * k - sv) for k in range(-kmax, kmax + 1)})
            pts = [mp.mpf(x) for x in pts if -T <= x <= T]

            def g(x, sv=sv):
                v = law.pdf(x) - ee * law.pdf(x + sv)
                return v if v > 0 else mp.zero

            tot = mp.zero
            for u, v in zip(pts[:-1], pts[1:]):
                gu, gv, gm = g(u), g(v), g((u + v) / 2)
                if gu == 0 and gv == 0 and gm == 0:
                    continue
                tot += mp.quad(g, [u, (u + v) / 2, v])
            if tot > best[0]:
                best = (tot, s)
    return +best[0], best[1]


def lattice_delta_curves(noise, sensitivity, epsilons, *, n_shifts=400, points_per_step=400):
    r"""float64 ``(shifts, curves)``: :math:`\delta_s(\varepsilon_i)` for the shifts :math:`s = j\,dx`, :math:`dx = \Delta/` ``n_shifts``.

    One density grid :math:`x_i = i\,dx'` with :math:`dx = q\,dx'` (``q`` integer) serves every shift:
    :math:`f(x_i + s) = f(x_{i + jq})`.  Each curve is the trapezoid sum of
    :math:`(f - e^\varepsilon f(\cdot + s))_+` (sorted losses, cumulative masses); numerical, not certified.

    >>> from arete_proofs.noise import make
    >>> s, c = lattice_delta_curves(make("lattice_laplace", a=2, m=1, b="0.25", h=1), 1, [0.0, 9.0], n_shifts=4)
    >>> len(s) == c.shape[0] == 4 and bool(c[:, 1].max() == 0)        # above the tight epsilon 3: delta = 0
    True
    """
    kernel, a, m, sc, h = _lattice_parts(noise)
    D = float(sensitivity)
    eps = np.asarray(epsilons, dtype=float)
    dx = D / n_shifts
    q = max(1, int(math.ceil(dx / min(h / points_per_step, sc / 40))))
    step = dx / q
    T = 45.0 / (a / m) * h + 40 * sc + D
    n = int(math.ceil(T / step))
    x = np.arange(-n, n + n_shifts * q + 1) * step
    lf = float_mixture(x, a, m, sc, h, kernel, "pdf")
    f = np.exp(lf)
    wts = np.full(x.size, step)
    shifts = np.arange(1, n_shifts + 1) * dx
    out = np.zeros((n_shifts, eps.size))
    base = np.arange(0, 2 * n + 1)
    for j in range(1, n_shifts + 1):
        P, Q = f[base] * wts[base], f[base + j * q] * wts[base]
        L = lf[base] - lf[base + j * q]
        order = np.argsort(-L)
        Ls, Pc, Qc = L[order], np.cumsum(P[order]), np.cumsum(Q[order])
        k = np.searchsorted(-Ls, -eps, side="left")
        Pn = np.where(k > 0, Pc[np.maximum(k - 1, 0)], 0.0)
        Qn = np.where(k > 0, Qc[np.maximum(k - 1, 0)], 0.0)
        out[j - 1] = np.maximum(Pn - np.exp(eps) * Qn, 0.0)
    return shifts, out


def lattice_pld(noise, sensitivity=1, *, value_discretization_interval=1e-3, n_shifts=400, shifts_only=None):
    r"""A dp_accounting PLD for every real shift :math:`|s| \le \Delta` of a lattice law (connect-the-dots; numerical).

    :math:`\hat\delta(\varepsilon) = \max_j \delta_{s_j}(\varepsilon - c) + c'` over the shift grid
    :math:`s_j = j\Delta/n` (:func:`lattice_delta_curves`), with the continuity allowance for the shifts
    between grid points (:math:`|s - s_j| \le \Delta/(2n)`): Laplace smoothing,
    :math:`f(x + s) \ge e^{-|s - s_j|/b} f(x + s_j)` (each component), so
    :math:`\delta_s(\varepsilon) \le \delta_{s_j}(\varepsilon - \Delta/(2nb))` (``c``); Gaussian smoothing,
    :math:`\delta_s \le \delta_{s_j} + e^\varepsilon\,\mathrm{TV}(\mathcal N(0,\sigma^2), \mathcal N(\Delta/(2n), \sigma^2))` (``c'``).
    The grid's quadrature error is not bounded (the curve is numerical).  ``shifts_only=[j, ...]``:
    those grid shifts alone, without the allowance (the broken variant of the tests).

    >>> from arete_proofs.noise import make
    >>> pld = lattice_pld(make("lattice_laplace", a=2, m=1, b="0.25", h=1), 1, value_discretization_interval=1e-2,
    ...                   n_shifts=50)
    >>> bool(0 < pld.get_delta_for_epsilon(1.0) < 1)
    True
    """
    from scipy.special import ndtr

    try:
        from dp_accounting.pld import pld_pmf
        from dp_accounting.pld import privacy_loss_distribution as lib
    except ImportError:
        raise ImportError("arete_proofs.privacy.accounting_lattice.lattice_pld needs dp_accounting: "
                          "pip install 'arete-proofs[accounting]'") from None
    hd = float(value_discretization_interval)
    kernel, a, m, sc, h = _lattice_parts(noise)
    D = float(sensitivity)
    top = float(noise.tight_epsilon(D, digits=8).upper_bound) + 1e-6
    half = D / (2 * n_shifts)
    c = half / sc if (kernel == "laplace" and shifts_only is None) else 0.0
    hi = int(math.ceil((top + c) / hd)) + 1
    lo = -hi
    grid = np.arange(lo, hi + 1) * hd
    _, curves = lattice_delta_curves(noise, D, grid - c, n_shifts=n_shifts)
    if shifts_only is not None:
        curves = curves[[int(j) - 1 for j in shifts_only]]
    dl = curves.max(axis=0) + ALLOW
    if kernel == "gauss" and shifts_only is None:
        dl = dl + np.exp(grid) * (2 * ndtr(half / (2 * sc)) - 1)
    dl = np.minimum(np.maximum.accumulate(dl[::-1])[::-1], 1.0)
    pmf = pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(hd, lo, hi, dl)
    return lib.PrivacyLossDistribution(pmf)


# -- one release of a lattice law: delta maximised over every real shift (numerical) -----------------------
#: What :func:`lattice_account` computes, said in ``arete account``'s output.
LATTICE_ACCOUNT_METHOD = (
    "max over every real shift |s| <= Delta: float64 curves delta_{s_j} on the grid s_j = j Delta/n (j = 0..n), "
    "the worst grid shift re-done by exact-density quadrature (delta), and the continuity allowance for the "
    "shifts between grid points (delta_upper); numerical, not certified")


@dataclass(frozen=True)
class LatticeDelta:
    r"""``delta``: quadrature :math:`\delta_{s^*}(\varepsilon)` at the worst grid shift ``shift`` (a value attained,
    so at most the supremum up to the quadrature error); ``delta_upper``: :math:`\max_j \delta_{s_j}(\varepsilon - c) + c'`
    over the grid of ``n_shifts`` shifts (the supremum's numerical upper bound, :func:`lattice_pld`'s allowance);
    ``grid_delta``: the float64 grid value at ``shift``; ``tight``: the tight epsilon used (delta = 0 at and above it).

    >>> from arete_proofs.noise import make
    >>> r = lattice_account(make("lattice_laplace", a=2, m=1, b="0.25", h=1), 1, 2, digits=6, n_shifts=40)
    >>> bool(0 < r.delta <= r.delta_upper), r.certified
    (True, False)
    """

    delta: object
    delta_upper: float
    shift: float
    grid_delta: float
    n_shifts: int
    allowance: float
    epsilon: object
    tight: object
    digits: int
    certified: bool = False
    method: str = LATTICE_ACCOUNT_METHOD


def _allowance(kernel, D, n, sc, eps_values):
    """``(c, c')``: the shift c in epsilon (Laplace) or the additive c' (Gaussian) of :func:`lattice_pld`."""
    from scipy.special import ndtr

    half = D / (2 * n)
    if kernel == "laplace":
        return half / sc, np.zeros_like(eps_values)
    return 0.0, np.exp(eps_values) * (2 * ndtr(half / (2 * sc)) - 1)


def _upper_curve(noise, D, eps_values, n_shifts):
    """float64 (curves at eps, upper curve with the allowance, shifts): every shift |s| <= Delta, grid j = 0..n."""
    kernel = _lattice_parts(noise)[0]
    sc = _lattice_parts(noise)[3]
    e = np.asarray(eps_values, dtype=float)
    c, add = _allowance(kernel, D, n_shifts, sc, e)
    shifts, both = lattice_delta_curves(noise, D, np.concatenate([e, e - c]), n_shifts=n_shifts)
    at, shifted = both[:, :e.size], both[:, e.size:]
    zero = np.maximum(0.0, -np.expm1(e - c))          # s_0 = 0: delta_0(eps') = (1 - e^{eps'})_+
    upper = np.maximum(shifted.max(axis=0), zero) + add + ALLOW
    return shifts, at, np.minimum(upper, 1.0), c if kernel == "laplace" else float(add.max(initial=0.0))


def lattice_account(noise, sensitivity=1, eps=0, *, digits=8, n_shifts=400):
    r"""One release of a lattice law: :math:`\delta(\varepsilon) = \sup_{|s| \le \Delta} \delta_s(\varepsilon)` (numerical).

    :math:`\delta_{-s} = \delta_s` (reflect: the law is symmetric), so :math:`0 \le s \le \Delta`.  The float64
    curves of :func:`lattice_delta_curves` on :math:`s_j = j\Delta/n` find the worst grid shift :math:`s^*`;
    ``delta`` is :func:`lattice_hockey_stick` there (quadrature of the exact density, ``digits``), and
    ``delta_upper`` adds the continuity allowance of :func:`lattice_pld` for the shifts between grid points
    (Laplace: :math:`\delta_s(\varepsilon) \le \delta_{s_j}(\varepsilon - \Delta/(2nb))`; Gaussian:
    :math:`+ e^\varepsilon \mathrm{TV}`).  Neither is certified: the float64 grid's quadrature error is not
    bounded.  :math:`\delta = 0` at and above the tight epsilon (its upper bound).

    >>> from arete_proofs.noise import make
    >>> z = make("lattice_laplace", a=2, m=1, b="0.25", h=1)
    >>> r = lattice_account(z, 1, 2, digits=6, n_shifts=40)        # the worst shift is not Delta (module docstring)
    >>> bool(r.shift < 1 and r.delta > lattice_hockey_stick(z, 1, 2, shifts=[1], digits=6)[0])
    True
    """
    kernel, a, m, sc, h = _lattice_parts(noise)
    D = float(sensitivity)
    if not (D > 0 and math.isfinite(D)):
        raise ValueError(f"sensitivity must be positive and finite, got {sensitivity!r}")
    n = int(n_shifts)
    if n < 1:
        raise ValueError(f"n_shifts must be an integer >= 1, got {n_shifts!r}")
    with mp.workdps(30):
        e = real(eps, "eps")
        if not (e >= 0) or mp.isinf(e):
            raise ValueError(f"eps must be finite and >= 0, got {mp.nstr(e, 8)}")
    tight = noise.tight_epsilon(sensitivity, digits=10)
    if e >= tight.upper_bound:
        return LatticeDelta(mp.zero, 0.0, D, 0.0, n, 0.0, e, tight, int(digits))
    shifts, at, upper, allow = _upper_curve(noise, D, [float(e)], n)
    j = int(np.argmax(at[:, 0]))
    s = float(shifts[j])
    delta, _ = lattice_hockey_stick(noise, sensitivity, e, shifts=[s], digits=digits)
    return LatticeDelta(delta, float(max(upper[0], float(delta))), s, float(at[j, 0]), n, allow, e, tight, int(digits))


def lattice_epsilon_for_delta(noise, sensitivity=1, delta=1e-6, *, n_shifts=400, points=2001):
    r"""Smallest :math:`\varepsilon` on a grid with ``delta_upper`` :math:`\le \delta` (:func:`lattice_account`'s upper curve; numerical).

    The upper curve on ``points`` values of :math:`[0, \varepsilon^*]`, then once more on the bracketing cell;
    the value returned is the grid point at or above the crossing (an upper estimate, not certified).

    >>> from arete_proofs.noise import make
    >>> z = make("lattice_laplace", a=2, m=1, b="0.25", h=1)
    >>> e = lattice_epsilon_for_delta(z, 1, "1e-2", n_shifts=40, points=201)
    >>> 0 < e < float(z.tight_epsilon(1, digits=8).epsilon)
    True
    """
    with mp.workdps(30):
        target = real(delta, "delta")
        if not 0 < target < 1:
            raise ValueError(f"delta must be in (0, 1), got {mp.nstr(target, 8)}")
    target = float(target)
    D = float(sensitivity)
    top = float(noise.tight_epsilon(sensitivity, digits=10).upper_bound)
    lo, hi = 0.0, top
    for _ in range(2):
        grid = np.linspace(lo, hi, int(points))
        _, _, upper, _ = _upper_curve(noise, D, grid, int(n_shifts))
        ok = np.nonzero(upper <= target)[0]
        if ok.size == 0:
            return top
        i = int(ok[0])
        if i == 0:
            return float(grid[0])
        lo, hi = float(grid[i - 1]), float(grid[i])
    return hi
