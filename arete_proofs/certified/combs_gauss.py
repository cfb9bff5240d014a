r"""A certified enclosure of the tight epsilon of ``lattice_gauss`` :math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0,\sigma^2)` (issue 24).

No cell convexity here, so the window is a **cover**.  For :math:`F(t) = \sum_k c_k\,\varphi_\sigma(t - hk)`
(:math:`c_k = p_k`, or :math:`C_{k \bmod w}e^{-\lambda k}` for the limit law) and a cell :math:`I`:
:math:`F(I)` and :math:`F'(I)` are enclosed by summing the lattice points within :math:`R` of the
cell (:math:`\varphi` over a cell from its monotone pieces) plus a ball for the rest
(:math:`c_k \le C_{\max}e^{-\lambda|k|}`, or :math:`C_{\max}e^{-\lambda k}` for the limit law; away from the
cell consecutive bounds shrink by :math:`e^{\lambda - hR/\sigma^2} \le 1/2`),
and :math:`\ln F(I) \subset \ln F(c) + (F'/F)(I)\,(I - c)` (centered form).  For :math:`t \in I` the
minimum of :math:`\ln F` over :math:`[t - \Delta, t + \Delta]` is at an end or at a zero of :math:`F'`, which
lies in a *critical* cell :math:`J` (one whose enclosure :math:`F'(J)` contains 0).  Hence

.. math::

   \sup_{t \in I,\ |v - t| \le \Delta} \ln F(t) - \ln F(v) \le
   \max\Big(\overline{g_+(I)},\ \overline{g_-(I)},\ \overline{\ln F(I)} - \min_{J \text{ critical},\ J \cap (I \pm \Delta) \ne \emptyset} \underline{\ln F(J)}\Big),

:math:`g_\pm(t) = \ln F(t) - \ln F(t \mp \Delta)` (centered form too).  Cells whose bound exceeds the
best certified lower value (a pair evaluated in balls) by more than ``tol`` are bisected.

**Tail.** With :math:`n = \lfloor t/h \rfloor`, :math:`E_k \le E_0 e^{-\theta k}` (the comb's Chernoff bound),
splitting :math:`\sum_{k \ge 0}` at :math:`k = n - \lfloor n/2 \rfloor` and using
:math:`f_\infty \ge C_{\min} e^{-\lambda n}\varphi(h)`:

.. math::

   \frac{|f - f_\infty|}{f_\infty} \le \frac{E_0}{C_{\min}}\Big[e^{-\theta n/2}
   + \frac{e^{\lambda n}\varphi(h(n+1)/2)}{\varphi(h)(1 - e^{-h^2(n+1)/(2\sigma^2)})}\Big]
   + \frac{C_{\max}}{C_{\min}} \frac{e^{\lambda(n+1)}\varphi(h(n+1))}{\varphi(h)(1 - e^{\lambda - h^2(n+1)/\sigma^2})},

each term decreasing for :math:`n \ge n_{\rm mono} = \lceil 4\sigma^2\lambda/h^2 \rceil + 1`; so for
:math:`n_0 \ge n_{\rm mono}`, :math:`|\ln f - \ln f_\infty| \le \eta = -\ln(1 - \rho(n_0))` past :math:`h n_0`, and
:math:`\max(W_{\rm lo}, L_{\rm lo}) \le \varepsilon^* \le \max(W_{\rm hi}, L_{\rm hi} + 2\eta)`, with :math:`W` the cover of
:math:`t \in [0, h n_0 + \Delta]` and :math:`L` the cover of the periodic limit law over one period.
The interval's width is set by ``tol`` (the cover's refinement), not by ``digits``.

>>> r = certify_lattice_gauss("3", 2, "0.2", "0.5", 1, tol="1e-3")
>>> r.lower <= r.upper < r.lower + 2e-3
True
"""

from __future__ import annotations

import heapq
import math
import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from fractions import Fraction

from .comb_balls import _ball, _CertificateReport, _Comb, _comb_parts, _default_theta, _exact, _int, _precision

__all__ = ["GaussCombCertificate", "certify_lattice_gauss"]


@dataclass
class GaussCombCertificate(_CertificateReport):
    r"""Result of :func:`certify_lattice_gauss`: :math:`\mathrm{lower} \le \varepsilon^* \le \mathrm{upper}` (floats, outward).

    ``window_upper``/``tail_upper``: the two covers' bounds (the tail's before :math:`2\eta`);
    ``t_star``: the best certified lower pair's :math:`t`; the attributes of
    :class:`arete_proofs.certified.epsilon.EpsilonCertificate` the CLI reads.

    >>> r = certify_lattice_gauss("2", 1, "0.3", "1", 1, tol="1e-3")
    >>> r.lower <= r.upper and r.method
    'cover'
    """

    params: dict
    Delta: str
    lower: float
    upper: float
    window_upper: float
    window_lower: float
    tail_upper: float
    tail_lower: float
    eta: float
    n0: int
    T: str
    theta: str
    cells: int
    t_star: object = None
    seconds: float = 0.0
    numeric: float | None = None
    target: float | None = None
    method: str = "cover"
    argument: str = ("cover of [0, T] and of one period of the limit law by cells with ln f enclosed (centered "
                     "form), critical cells of f', every shift |s| <= Delta; rigorous tail ratio past h n0 "
                     "(certified.combs_gauss)")

    tail = property(lambda self: self.eta)
    evaluations = property(lambda self: self.cells)

    def to_dict(self):
        """JSON-ready dict."""
        d = {k: getattr(self, k) for k in ("params", "Delta", "lower", "upper", "window_upper", "window_lower",
                                           "tail_upper", "tail_lower", "eta", "n0", "T", "theta", "cells",
                                           "seconds", "numeric", "target", "method", "argument")}
        d["t_star"] = None if self.t_star is None else str(self.t_star)
        d.update(gap=self.gap, meets_target=self.meets_target if self.target is not None else None)
        return d


class _Mixture:
    """Enclosures of F and F' over exact rational cells [x0, x1] (module docstring)."""

    def __init__(self, comb, h, s, limit):
        from flint import arb

        self.comb, self.h, self.s, self.limit = comb, h, s, limit
        self.arb = arb
        self.S = _ball(s)
        self.norm = 1 / (self.S * (2 * arb.pi()).sqrt())
        self.lam = comb.lam
        lamf = float(comb.lam_q)
        R = 12 * s + Fraction(s * s) * Fraction(math.ceil((lamf + 2) * 1000), 1000) / h
        self.R = max(R, s, 2 * h)
        self.rem = self._phi_pt(self.R)
        self.cmax = comb.cmax
        self._c = {}

    def _phi_pt(self, u):
        u = _ball(u) if isinstance(u, Fraction) else u
        return self.norm * (-(u * u) / (2 * self.S * self.S)).exp()

    def c(self, k):
        v = self._c.get(k)
        if v is None:
            if self.limit:
                v = self.comb.C[k % self.comb.w[self.comb.cs]] * (-self.lam * k).exp()
            else:
                v = self.comb.p(k)
            self._c[k] = v
        return v

    def FF(self, x0, x1):
        """(F(X), F'(X)) balls for X = [x0, x1] (exact rationals)."""
        arb = self.arb
        h, R = self.h, self.R
        klo, khi = math.floor((x0 - R) / h), math.ceil((x1 + R) / h)
        F, D = arb(0), arb(0)
        X = _ball(x0).union(_ball(x1))
        s2 = self.S * self.S
        for k in range(klo, khi + 1):
            ul, uh = x0 - h * k, x1 - h * k
            if ul <= 0 <= uh:
                amin, amax = Fraction(0), max(-ul, uh)
            else:
                amin, amax = min(abs(ul), abs(uh)), max(abs(ul), abs(uh))
            ph = self._phi_pt(amax).union(self._phi_pt(amin))
            ck = self.c(k)
            F += ck * ph
            D -= ck * (X - _ball(h * k)) / s2 * ph
        # the rest, each side: c_k <= Cmax e^{-lambda |k|} (f) or Cmax e^{-lambda k} (f_inf); moving away from
        # the cell the bound grows at most by e^lambda per step and phi shrinks by e^{-hR/sigma^2}: ratio <= 1/2
        if self.limit:
            e = (-self.lam * (khi + 1)).exp() + (-self.lam * (klo - 1)).exp()
        else:
            e = (-self.lam * abs(khi + 1)).exp() + (-self.lam * abs(klo - 1)).exp()
        rf = 2 * self.cmax * e * self.rem
        rd = rf * _ball(R) / s2
        F += (-rf).union(rf)
        D += (-rd).union(rd)
        return F, D

    def logF(self, x0, x1):
        """Ball containing ln F over [x0, x1] (centered form)."""
        c = (x0 + x1) / 2
        Fc, _ = self.FF(c, c)
        if x0 == x1:
            return Fc.log()
        F, D = self.FF(x0, x1)
        half = _ball((x1 - x0) / 2)
        return Fc.log() + (D / F) * (-half).union(half)

    def g(self, x0, x1, shift):
        """Ball containing ln F(t) - ln F(t - shift) over t in [x0, x1] (centered form)."""
        c = (x0 + x1) / 2
        val = self.FF(c, c)[0].log() - self.FF(c - shift, c - shift)[0].log()
        if x0 == x1:
            return val
        F1, D1 = self.FF(x0, x1)
        F2, D2 = self.FF(x0 - shift, x1 - shift)
        half = _ball((x1 - x0) / 2)
        return val + (D1 / F1 - D2 / F2) * (-half).union(half)


def _down(x):
    v = float(x.lower())
    return -math.inf if math.isnan(v) else math.nextafter(v, -math.inf)


def _up(x):
    v = float(x.upper())
    return math.inf if math.isnan(v) else math.nextafter(v, math.inf)


def _cover(M, t0, t1, D, step, tol, max_cells):
    """(upper bound, certified lower value, its pair, cells) of sup_{t in [t0, t1], |v-t| <= D} ln F(t) - ln F(v)."""
    # critical v-cells on [t0 - D, t1 + D]
    crit = []
    n = math.ceil((t1 - t0 + 2 * D) / step)
    stack = [(t0 - D + step * i, t0 - D + step * (i + 1), 0) for i in range(n)]
    while stack:
        a, b, depth = stack.pop()
        _, d = M.FF(a, b)
        if d.contains(0):
            if depth < 5:
                m = (a + b) / 2
                stack += [(a, m, depth + 1), (m, b, depth + 1)]
            else:
                crit.append((a, b, _down(M.logF(a, b))))
    crit.sort()
    starts = [c[0] for c in crit]
    ends = [c[1] for c in crit]
    lows = [c[2] for c in crit]

    def crit_min(lo, hi):  # min lo over critical cells meeting [lo, hi]
        i, j = bisect_left(ends, lo), bisect_right(starts, hi)
        return min(lows[i:j], default=math.inf)

    best_lo, pair = -math.inf, None

    def lower_at(t):
        nonlocal best_lo, pair
        lt = M.logF(t, t)
        cand = [M.logF(t - D, t - D), M.logF(t + D, t + D)]
        for a, b, _ in crit[bisect_left(ends, t - D): bisect_right(starts, t + D)]:
            m = (a + b) / 2
            if t - D <= m <= t + D:
                cand.append(M.logF(m, m))
        v = math.nextafter(_down(lt) - min(_up(x) for x in cand), -math.inf)
        if v > best_lo:
            best_lo, pair = v, t

    def bound(a, b):
        up = max(_up(M.g(a, b, D)), _up(M.g(a, b, -D)))
        cm = crit_min(a - D, b + D)
        if cm < math.inf:
            up = max(up, math.nextafter(_up(M.logF(a, b)) - cm, math.inf))
        return up

    m = math.ceil((t1 - t0) / step)
    heap = []
    for i in range(m):
        a, b = t0 + step * i, min(t0 + step * (i + 1), t1)
        heapq.heappush(heap, (-bound(a, b), a, b))
    for _, a, b in heapq.nsmallest(8, heap):
        lower_at((a + b) / 2)
    cells = len(heap)
    while heap and -heap[0][0] > best_lo + tol and cells < max_cells:
        ub, a, b = heapq.heappop(heap)
        mid = (a + b) / 2
        lower_at(mid)
        for x, y in ((a, mid), (mid, b)):
            heapq.heappush(heap, (-bound(x, y), x, y))
        cells += 1
    return (-heap[0][0] if heap else -math.inf), best_lo, pair, cells


def certify_lattice_gauss(a, m, sigma, h, Delta=1, *, tol="1e-4", prec=128, theta=None, n0=None,
                          max_cells=200_000, cells_per_step=8):
    r"""Certified :math:`[\mathrm{lower}, \mathrm{upper}] \ni \varepsilon^*` of :math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)` (module docstring).

    A :class:`GaussCombCertificate`; ``upper`` is proved, its distance to ``lower`` is about
    ``tol`` unless ``max_cells`` ran out (then ``upper`` is still a proved bound).

    >>> r = certify_lattice_gauss("2", 1, "0.3", "1", 1, tol="1e-3")     # DLap(2) on Z + N(0, 0.09)
    >>> r.upper <= 2 + 1 / (2 * 0.09) + 1e-9       # below a Delta + the Gaussian's Delta^2/(2 sigma^2) (composition)
    True
    """
    t_start = time.perf_counter()
    mm = _int(m, "m")
    w, ra = _comb_parts(range(1, mm + 1), [a] * mm)
    hq, sq, Dq = _exact(h, "h"), _exact(sigma, "sigma"), _exact(Delta, "Delta")
    tolf = float(_exact(tol, "tol"))
    with _precision(prec):
        comb = _Comb(w, ra)
        lam = comb.lam_q
        th = _exact(theta, "theta") if theta is not None else (
            _default_theta(comb) if comb.gap is not None else Fraction(1))
        E0 = comb.E0(th) if comb.gap is not None else _ball(Fraction(0))
        H, S, L_, T_ = _ball(hq), _ball(sq), comb.lam, _ball(th)

        def phi(u):
            return (-(u * u) / (2 * S * S)).exp()

        def rho(n):
            n1 = _ball(Fraction(n + 1))
            d1 = 1 - (-(H * H) * n1 / (2 * S * S)).exp()
            d2 = 1 - (L_ - H * H * n1 / (S * S)).exp()
            if not (d1 > 0 and d2 > 0):
                return None
            t1 = E0 / comb.cmin * ((-T_ * n / 2).exp() + (L_ * n).exp() * phi(H * n1 / 2) / (phi(H) * d1))
            t2 = comb.cmax / comb.cmin * (L_ * n1).exp() * phi(H * n1) / (phi(H) * d2)
            r = t1 + t2
            return r if r < 1 else None

        nmono = math.ceil(4 * sq * sq * lam / (hq * hq)) + 1
        target = tolf / 10
        if n0 is None:
            n0 = nmono
            while (r := rho(n0)) is None or not -(-r).log1p() < target:
                n0 *= 2
                if n0 > 10 ** 6:
                    raise ValueError("the window would exceed 10^6 lattice points")
        n0 = max(_int(n0, "n0"), nmono)
        r = rho(n0)
        if r is None:
            raise ValueError("rho(n0) is not below 1: a longer window is needed")
        eta = _up(-(-r).log1p())
        step = hq / cells_per_step
        lim = _Mixture(comb, hq, sq, True)
        P = hq * comb.w[comb.cs]
        Lu, Ll, Lt, c1 = _cover(lim, Fraction(0), P, Dq, step, tolf / 2, max_cells)
        f = _Mixture(comb, hq, sq, False)
        T = hq * n0 + Dq
        Wu, Wl, Wt, c2 = _cover(f, Fraction(0), T, Dq, step, tolf / 2, max_cells)
    upper = max(Wu, math.nextafter(Lu + 2 * eta, math.inf))
    return GaussCombCertificate(
        params={"a": str(ra[0]), "m": mm, "sigma": str(sq), "h": str(hq)}, Delta=str(Dq), lower=max(Wl, Ll),
        upper=upper, window_upper=Wu, window_lower=Wl, tail_upper=Lu, tail_lower=Ll, eta=eta, n0=n0, T=str(T),
        theta=str(th), cells=c1 + c2, t_star=Wt if Wl >= Ll else None, seconds=time.perf_counter() - t_start)
