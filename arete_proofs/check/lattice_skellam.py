r"""Check a ``lattice_skellam`` certificate: :math:`\varepsilon^* \in [\mathrm{lower}, \mathrm{upper}]` and
:math:`\mathrm{upper} \le \varepsilon` for the integer noise :math:`Z = h\,K + S`, :math:`K = \sum_{j=1}^m j X_j`,
:math:`X_j \sim \mathrm{DLap}(a)`, :math:`S \sim \mathrm{Sk}(\mu)` (Poisson(:math:`\mu`) minus Poisson(:math:`\mu`)),
over every integer shift :math:`|s| \le \Delta`; and the enclosures of :math:`E|Z|` and :math:`\mathrm{Var}\,Z`.

**The argument.**  :math:`f(n) = P(Z = n) = \sum_k p_k\,s(n - hk)` is even, so
:math:`\varepsilon^* = \sup_{n \ge 0,\,|s| \le \Delta} g_n - g_{n+s}`, :math:`g_n = \ln f(n)`.  With :math:`\lambda = a/m`,
:math:`\lambda' = \lambda/h`, the tilted pmf :math:`q_k = p_k e^{\lambda k}` (:mod:`~arete_proofs.check._comb`: :math:`0 \le C_{k \bmod m} - q_k
\le E_0 e^{-\theta k}` for :math:`k \ge 0`, :math:`0 \le q_k \le C_{\max}` for all :math:`k`) and the tilted kernel
:math:`\tilde s(j) = s(j)e^{\lambda' j}`, :math:`s(j) = e^{-2\mu}I_{|j|}(2\mu)`,

.. math::

   F_n = f(n)e^{\lambda' n} = \sum_k q_k\,\tilde s(n - hk),\qquad F_\infty(n) = \sum_k C_{k \bmod m}\,\tilde s(n - hk)
   \quad(\text{period } hm).

The kernel: :math:`s(R)`, :math:`s(R+1)` by arb's ``bessel_i`` (scaled), then the positive recurrence
:math:`s(j-1) = s(j+1) + (j/\mu)\,s(j)` down to :math:`j = 0` in balls (sound for any :math:`\mu > 0`); its neglected mass
:math:`\sum_{|j| > R}\tilde s(j) \le e^{-\varphi_k(R+1)}[\mathcal M(\lambda' + \varphi_k) + \mathcal M(\varphi_k - \lambda')]`,
:math:`\mathcal M(t) = E e^{tS} = e^{2\mu(\cosh t - 1)}`, times :math:`C_{\max}` is added to every upper end.  Both sums are
positive dot products (Fact 2 of :mod:`._iv`).  For :math:`n \ge 0` (the terms :math:`k \ge 0` by the Chernoff profile,
:math:`k < 0` through :math:`\sum_{j \ge n+h}\tilde s(j) \le e^{-\varphi(n+h)}\mathcal M(\lambda' + \varphi)`),

.. math::

   \Big|\frac{F_n}{F_\infty(n)} - 1\Big| \le \rho(n) = \frac{E_0 e^{-\theta n/h}\mathcal M(\lambda' + \theta/h)
   + C_{\max}e^{-\varphi(n+h)}\mathcal M(\lambda' + \varphi)}{C_{\min}\,G_{\min}},\qquad
   G_{\min} = \min_{t} \sum_k \tilde s(t - hk),

decreasing in :math:`n`.  So the pairs with :math:`n, n + s \ge n_0` lose at most :math:`L + \eta`,
:math:`\eta = \ln\frac{1 + \rho(n_0)}{1 - \rho(n_0)}`, :math:`L` the loss of :math:`F_\infty` over one period
:math:`0 \le t < hm` (every :math:`|s| \le \Delta`); the others have :math:`0 \le n < n_0 + \Delta`: the window :math:`W`,
computed exactly from :math:`F_n`, :math:`-\Delta \le n < n_0 + 2\Delta`.  Hence
:math:`\max(W, L) \le \varepsilon^* \le \max(W, L + \eta)` (:math:`L` is a limit of pairs' losses).

**Objectives.**  :math:`\mathrm{Var}\,Z = h^2\,\frac{m(m+1)(2m+1)}{6}\,\frac{2e^{-a}}{(1-e^{-a})^2} + 2\mu`;
:math:`E|Z| = 2\sum_{n \ge 1} n F_n e^{-\lambda' n}`, the table up to :math:`N` (:math:`\lambda' N \ge 60`) and the rest
:math:`\le C_{\max}\mathcal M(\lambda')\sum_{n > N} n e^{-\lambda' n}` (as :math:`F_n \le C_{\max}\sum_j \tilde s(j)`).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from . import _comb, _iv
from ._arb import ball, prec, rational
from ._refused import Refused, check_objectives

KIND = "lattice_skellam"


def _int(x, name):
    if isinstance(x, bool) or not isinstance(x, int) or x < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}")
    return x


def parse(doc):
    """The exact parameters and the recorded hints, validated (``ValueError`` naming the field)."""
    p, t, k = doc["params"], doc["tail"], doc["kernel"]
    P = {"m": _int(p["m"], "params.m"), "h": _int(p["h"], "params.h")}
    for key in ("a", "mu"):
        P[key] = rational(p[key], f"params.{key}")
        if not P[key] > 0:
            raise ValueError(f"params.{key} must be positive, got {P[key]}")
    D = rational(doc["Delta"], "Delta")
    if not (D >= 1 and D.denominator == 1):
        raise ValueError(f"Delta must be a positive integer, got {D}")
    P["Delta"] = int(D)
    H = {"n0": _int(t["n0"], "tail.n0"), "R": _int(k["R"], "kernel.R"), "theta": rational(t["theta"], "tail.theta"),
         "phi": rational(t["phi"], "tail.phi"), "phik": rational(k["phi"], "kernel.phi")}
    if not (H["theta"] >= 0 and H["phi"] > 0 and H["phik"] > 0):
        raise ValueError("tail.theta must be >= 0, tail.phi and kernel.phi positive")
    return P, H


def _M(t, mu):
    return (2 * ball(mu) * (t.cosh() - 1)).exp()


def kernel(P, H):
    """(lo, hi) float arrays of the tilted kernel on :math:`|j| \\le R`, and the ball of its neglected mass."""
    mu, R = P["mu"], H["R"]
    with prec(128):
        lt, x, ph = ball(P["a"] / (P["m"] * P["h"])), 2 * ball(mu), ball(H["phik"])
        s = [None] * R + [x.bessel_i(R, scaled=True), x.bessel_i(R + 1, scaled=True)]
        for j in range(R, 0, -1):
            s[j - 1] = s[j + 1] + ball(Fraction(j) / mu) * s[j]
        iv = np.array([_iv.of_arb(s[abs(j)] * (lt * j).exp()) for j in range(-R, R + 1)])
        tail = (-ph * (R + 1)).exp() * (_M(lt + ph, mu) + _M(ph - lt, mu))
    return np.maximum(iv[:, 0], 0.0), iv[:, 1], tail


def _conv(q, k0, h, ker, add, n_lo, n_hi):
    """(lo, hi) of :math:`\\sum_k q_k \\tilde s(n - hk)`, :math:`n_{lo} \\le n \\le n_{hi}` (q for k = k0, k0 + 1, ...):
    for each residue :math:`n = hi + r`, the convolution of q with :math:`l \\mapsto \\tilde s(r + hl)`."""
    R = (len(ker[0]) - 1) // 2
    out = [np.zeros(n_hi - n_lo + 1), np.zeros(n_hi - n_lo + 1)]
    for r in range(h):
        lmin = -((R + r) // h)
        js = np.arange(r + h * lmin, R + 1, h) + R
        for o, v, kv in zip(out, q, ker):
            y = np.convolve(v, kv[js])
            ns = h * (np.arange(len(y)) + k0 + lmin) + r
            sel = (ns >= n_lo) & (ns <= n_hi)
            o[ns[sel] - n_lo] = y[sel]
    g = _iv.gamma(len(ker[0]) + 2)
    lo = np.maximum(_iv.dn(_iv.dn(out[0] * math.nextafter(1 - g, 0)) - _iv.TINY), 0.0)
    return lo, _iv.up(_iv.up(out[1] * math.nextafter(1 + 2 * g, 2)) + _iv.up(add + 2 * _iv.TINY))


def _g(F, lt, n0, n1):
    """(lo, hi) of :math:`\\ln F_n - \\lambda' n`, n = n0..n1."""
    n = np.arange(n0, n1 + 1, dtype=float)
    return _iv.sub(_iv.log(*F), _iv.mul((n, n), lt))


def _loss(G, D, count):
    """(lo, hi) of :math:`\\max_{0 \\le i < count} G_{i+D} - \\min_{|s| \\le D} G_{i+D+s}` (G indexed from 0)."""
    i = np.arange(count)
    mlo, mhi = (_iv.range_min(G[x], i, i + 2 * D + 1) for x in (0, 1))
    return float(np.max(_iv.dn(G[0][D:D + count] - mhi))), float(np.max(_iv.up(G[1][D:D + count] - mlo)))


def rho(P, H, t, gmin):
    """:math:`\\rho(n_0)` (module docstring) as an ``arb`` ball."""
    mu, h, n0 = P["mu"], P["h"], H["n0"]
    with prec(128):
        lt, th, ph = ball(P["a"] / (P["m"] * h)), ball(H["theta"]), ball(H["phi"])
        first = t.E0 * (-th * n0 / h).exp() * _M(lt + th / h, mu)
        second = ball(Fraction(t.cmax)) * (-ph * (n0 + h)).exp() * _M(lt + ph, mu)
        return (first + second) / (ball(Fraction(t.cmin)) * ball(Fraction(gmin)))


def derive(P, H, progress=None):
    """``(lower, upper, parts, (mean_abs, variance))`` re-derived from the parameters and the hints (floats;
    ``parts``: the upper ends of the window and of the tail limit, and eta)."""
    say = progress or (lambda s: None)
    m, h, D, a, mu, n0 = P["m"], P["h"], P["Delta"], P["a"], P["mu"], H["n0"]
    lamt = a / (m * h)
    N = max(n0 + 2 * D, math.ceil(60 / lamt))
    klo, khi, ktail = kernel(P, H)
    R = H["R"]
    say("comb table")
    t = _comb.table(list(range(1, m + 1)), [a] * m, max((N + R) // h + 2, m + 1), theta=H["theta"])
    with prec(128):
        add, lt = _iv.of_arb(ball(Fraction(t.cmax)) * ktail)[1], _iv.of_arb(ball(lamt))
    gsum = np.bincount(np.arange(-R, R + 1) % h, weights=klo, minlength=h)
    gmin = float(_iv.dn(_iv.dn(np.min(gsum) * math.nextafter(1 - _iv.gamma(2 * R + 2), 0)) - _iv.TINY))
    r = rho(P, H, t, gmin)
    if not (gmin > 0 and r.upper() < 1):
        raise ValueError(f"the tail ratio rho(n0) = {float(r.upper()):.3g} is not below 1 (tail.n0 too short?)")
    with prec(128):
        eta = _iv.of_arb(r.log1p() - (-r).log1p())[1]
    say("window")
    k0 = (-D - R) // h
    F = _conv(t.bounds(np.arange(k0, (N + R) // h + 2)), k0, h, (klo, khi), add, -D, N)
    W = _loss(_g(F, lt, -D, N), D, n0 + D)
    say("limit law")
    ks = np.arange(k0, (h * m + D + R) // h + 2)
    Finf = _conv((t.C[0][ks % m], t.C[1][ks % m]), k0, h, (klo, khi), add, -D, h * m + D - 1)
    L = _loss(_g(Finf, lt, -D, h * m + D - 1), D, h * m)
    upper = max(W[1], math.nextafter(L[1] + eta, math.inf))
    parts = {"window": W[1], "limit": L[1], "eta": eta}
    return max(W[0], L[0]), upper, parts, objectives(P, F, N, t, lamt)


def objectives(P, F, N, t, lamt):
    """Float enclosures (lo, hi) of :math:`E|Z|` and :math:`\\mathrm{Var}\\,Z` (module docstring)."""
    m, h, D, a, mu = P["m"], P["h"], P["Delta"], P["a"], P["mu"]
    with prec(128):
        q = (-ball(a)).exp()
        var = ball(h) ** 2 * (m * (m + 1) * (2 * m + 1) // 6) * 2 * q / (1 - q) ** 2 + 2 * ball(mu)
        lb = ball(lamt)
        n = np.arange(1, N + 1)
        blk = np.array([_iv.of_arb((-lb * (256 * i)).exp()) for i in range(N // 256 + 1)])[n // 256]
        fin = np.array([_iv.of_arb((-lb * i).exp()) for i in range(256)])[n % 256]
        e = _iv.dn(blk[:, 0] * fin[:, 0]), _iv.up(blk[:, 1] * fin[:, 1])
        g = ball(Fraction(_iv.gamma(3 * N + 8)))
        tiny = ball(Fraction(_iv.TINY))
        slo = ball(Fraction(float(np.sum(F[0][D + 1:] * e[0] * n)))) * (1 - g) - tiny
        shi = ball(Fraction(float(np.sum(F[1][D + 1:] * e[1] * n)))) * (1 + 2 * g) + tiny
        x = (-lb).exp()
        tail = ball(Fraction(t.cmax)) * _M(lb, mu) * x ** (N + 1) * ((N + 1) - N * x) / (1 - x) ** 2
        mean_abs = 2 * slo.union(shi + tail)
        return _iv.of_arb(mean_abs), _iv.of_arb(var)


def check(doc, progress=None):
    """Re-derive the certificate; returns ``(lower, upper, objectives)`` (floats) or raises ``Refused``."""
    try:
        P, H = parse(doc)
        c_lo, c_hi, c_eps = (rational(doc["claim"][k], f"claim.{k}") for k in ("lower", "upper", "epsilon"))
        lower, upper, parts, obj = derive(P, H, progress)
    except (KeyError, TypeError) as e:
        raise Refused(f"malformed certificate: missing or wrong field {e}") from None
    except ValueError as e:
        raise Refused(str(e)) from None
    if not Fraction(upper) <= c_hi:
        raise Refused(f"the re-derived upper bound {upper!r} is above the claimed upper {float(c_hi)!r} (window "
                      f"{parts['window']!r}, tail limit {parts['limit']!r} + eta {parts['eta']:.3g})")
    if not c_hi <= c_eps:
        raise Refused(f"the claimed upper {float(c_hi)!r} is above the certified epsilon {float(c_eps)!r}")
    if not c_lo <= Fraction(lower):
        raise Refused(f"the claimed lower {float(c_lo)!r} is above the re-derived lower bound {lower!r}")
    check_objectives(doc, obj)
    return float(lower), upper, dict(parts, mean_abs=obj[0], variance=obj[1])
