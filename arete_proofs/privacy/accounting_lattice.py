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
epsilon (``tests/test_accounting_comb.py`` exhibits MSDLap(1, 3) at :math:`\Delta = 2`, where the
shift 1 has the larger :math:`\delta` at small :math:`\varepsilon` and the shift 2 near the tight epsilon).  We
report the maximum over **all** integer shifts :math:`1 \le s \le \Delta` at each :math:`\varepsilon`
(``shift``: the maximiser), which is the definition.

**Exact sum.**  :math:`p` from the partial fractions of :mod:`arete_proofs.distributions.comb` at
the working precision, summed over :math:`|k| \le K`; each omitted term is at most :math:`p(k)`, so
the omitted part is at most :math:`P(|X| > K) = 2\bar F(K)` (exact survival function), and ``K`` is
doubled until that bound is below :math:`10^{-(d+2)}\delta`.  :math:`\delta = 0` exactly for
:math:`\varepsilon \ge \varepsilon^*` (the family's tight epsilon over every shift).

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

import math
from dataclasses import dataclass

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS, PrecisionError, parse_precision, real

__all__ = ["CombHockeyStick", "hockey_stick", "hockey_stick_details", "epsilon_for_delta", "delta_curve",
           "noise_pld", "ALLOW"]

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
    from . import tight_gdl

    d = tight_gdl._digits(digits)
    D = tight_gdl._Delta(sensitivity)
    e = None
    if eps is not None:
        with mp.workdps(parse_precision(d)):
            e = real(eps, "eps")
            if not (e >= 0) or mp.isinf(e):
                raise ValueError(f"eps must be finite and >= 0, got {mp.nstr(e, 8)}")
    return d, D, e


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
        out = {}
        for s in range(1, D + 1):
            tot = mp.zero
            for k in range(-K, K + 1):
                v = tab.p(k) - ee * tab.p(k + s)
                if v > 0:
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
    if e >= tight.upper_bound:
        return CombHockeyStick(mp.zero, D, {s: mp.zero for s in ss}, 0, mp.zero, e, tight, d)
    tab = _Table(w, r, d + GUARD_DIGITS + 5)
    K = 32 * max(w)
    while True:
        sums = _window_sums(tab, D, e, K)
        sums = {s: sums[s] for s in ss}
        best = max(ss, key=lambda s: sums[s])
        tail = tab.tail(K)
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
    >>> bool(hockey_stick(z, 2, "0.1", digits=8) > hockey_stick(z, 2, "0.1", digits=8, shifts=[2]))  # shift 1 is worse here
    True
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
