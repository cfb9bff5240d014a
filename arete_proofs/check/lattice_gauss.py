r"""Check a ``lattice_gauss`` certificate: :math:`\varepsilon^* \in [\mathrm{lower}, \mathrm{upper}]` and
:math:`\mathrm{upper} \le \varepsilon` for :math:`Z = h\,K + \mathcal N(0, \sigma^2)`,
:math:`K = \sum_{j=1}^m j X_j`, :math:`X_j \sim \mathrm{DLap}(a)` (:math:`j < m`), :math:`X_m \sim \mathrm{DLap}(a_{top})`,
over every shift :math:`|s| \le \Delta`; and the enclosures of :math:`E|Z|` and :math:`\mathrm{Var}\,Z`.

**The argument.**  In lattice units (:mod:`._cover`, :math:`D = \Delta/h` an integer), :math:`f` is even, so
:math:`u \ge 0`, and a cell at :math:`u < 0` is evaluated as its mirror image (there :math:`F \approx e^{\lambda u}` is
small against the truncation's absolute bound).  The comb's tilted pmf :math:`q_k = p_k e^{\lambda k}` (:math:`\lambda = a_{top}/m`) tends to the
periodic profile :math:`C_{k \bmod m}` with :math:`0 \le C_{k \bmod m} - q_k \le E_0 e^{-\theta k}` (:mod:`~arete_proofs.check._comb`).  With
:math:`F_\infty = \sum_k C_{k \bmod m}\psi(\cdot - k)` and :math:`u \ge n \ge J \ge X_0`,

.. math::

   \Big|\frac{F}{F_\infty} - 1\Big|(u) \le \rho(n) = \frac{e^{\lambda/2 + \beta/8}}{C_{\min}}
   \Big[C_{\max}\tau(n+1) + E_0\big(\tau(J) + e^{-\theta(n-J)} S_{\max}\big)\Big],

:math:`\tau(X) = 2e^{\lambda X - \beta X^2/2} \ge \sum_{i \ge 0}\psi(X + i)` for :math:`X \ge X_0`
(:math:`e^{\lambda - \beta X_0} \le 1/2`, :math:`X_0 \ge \lambda/\beta`), :math:`S_{\max} = 2(\sum_{i < X_0}
e^{\lambda(i+1) - \beta i^2/2} + \tau(X_0)) \ge \sup_u \sum_k \psi(u - k)`, :math:`F_\infty \ge C_{\min}e^{-\lambda/2-\beta/8}`
(the terms :math:`k < 0`, :math:`0 \le k \le u - J` and :math:`k > u - J` are bounded by :math:`C_{\max}\tau(u+1)`,
:math:`E_0\tau(J)` and :math:`E_0 e^{-\theta(u-J)}S_{\max}`).  Hence with :math:`\eta = -\ln(1 - \rho(n_0))`

.. math::

   \varepsilon^* \le \max\big(W,\ L + 2\eta\big),

:math:`W` the cover of :math:`u \in [0, n_0 + D]` (the window), :math:`L` that of one period :math:`u \in [0, m]` of
the limit law (its loss is :math:`m`-periodic in :math:`u`): pairs with :math:`u > n_0 + D` have :math:`u, v \ge n_0`.
The lower end is :math:`G(u) - G(v)` at the recorded witness pairs, in ``arb`` (the limit law's pairs are limits of the
law's pairs shifted by multiples of :math:`m`).

**Objectives.**  :math:`\mathrm{Var}\,Z = h^2\sum_j j^2\,2e^{-a_j}/(1-e^{-a_j})^2 + \sigma^2`;
:math:`E|Z| = \sum_k p_k\,g(hk)`, :math:`g(\mu) = E|\mu + \sigma N| = \mu + 2\sigma(\phi(z) - z\Phi(-z))` for
:math:`\mu \ge 0`, :math:`z = \mu/\sigma`, with :math:`0 \le \phi(z) - z\Phi(-z) \le \phi(z)/z^2`: a positive sum over
the table, its tail :math:`p_k \le C_{\max}e^{-\lambda k}` in closed form, the correction in ``arb`` where
:math:`z < 40`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from . import _comb, _cover, _iv
from ._arb import ball, prec, rational
from ._refused import Refused, check_objectives

KIND = "lattice_gauss"


def parse(doc):
    """The exact parameters and the recorded choices, validated (``ValueError`` naming the field)."""
    p, cov = doc["params"], doc["cover"]
    m = p["m"]
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise ValueError(f"params.m must be an integer >= 1, got {m!r}")
    P = {k: rational(p[k], f"params.{k}") for k in ("a", "sigma", "h")}
    P["a_top"] = rational(p.get("a_top", p["a"]), "params.a_top")
    P["m"] = m
    P["Delta"] = rational(doc["Delta"], "Delta")
    for k in ("a", "sigma", "h", "a_top", "Delta"):
        if not P[k] > 0:
            raise ValueError(f"{k} must be positive, got {P[k]}")
    if not P["a_top"] <= P["a"]:
        raise ValueError("params.a_top must be at most params.a")
    D = P["Delta"] / P["h"]
    if D.denominator != 1:
        raise ValueError(f"Delta/h must be an integer for this certificate kind, got {D}")
    C = {k: cov[k] for k in ("N", "R", "n0", "J")}
    for k, v in C.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"cover.{k} must be a positive integer, got {v!r}")
    C["theta"] = rational(cov["theta"], "cover.theta")
    for name in ("zones", "limit_zones"):
        z = cov.get(name, [])
        last = None
        for A, B, N in z:
            if not (all(isinstance(x, int) and not isinstance(x, bool) for x in (A, B, N)) and A < B and N >= 1
                    and N & (N - 1) == 0 and (last is None or A >= last)):
                raise ValueError(f"cover.{name}: zones must be sorted, disjoint [A, B, N] with N a power of two")
            last = B
        C[name] = [tuple(x) for x in z]
    if C["N"] & (C["N"] - 1):
        raise ValueError("cover.N must be a power of two")
    return P, int(D), C


def _tail(P, C, t, lam, beta):
    """eta = -ln(1 - rho(n0)) (module docstring), as a float rounded up; ValueError when a hypothesis fails."""
    with prec(128):
        la, be, th = ball(lam), ball(beta), ball(C["theta"])
        X0 = max(math.ceil((float(lam) + 0.7) / float(beta)), math.ceil(float(lam / beta)), 1)
        if not ((la - be * X0).exp().upper() <= 0.5 and X0 >= lam / beta):
            raise ValueError("internal: the tail's X0")
        if not C["J"] >= X0:
            raise ValueError(f"cover.J={C['J']} is below X0={X0}, where the tail bound tau starts to hold")
        if not C["n0"] >= C["J"]:
            raise ValueError("cover.n0 must be at least cover.J")
        tau = lambda X: 2 * (ball(X) * (la - be * ball(X) / 2)).exp()
        smax = 2 * (sum(((la * (i + 1) - be * i * i / 2).exp() for i in range(X0)), ball(0)) + tau(X0))
        cmin, cmax = ball(Fraction(t.cmin)), ball(Fraction(t.cmax))
        n, J = C["n0"], C["J"]
        rho = (la / 2 + be / 8).exp() / cmin * (cmax * tau(n + 1) + t.E0 * (tau(J) + (-th * (n - J)).exp() * smax))
        if not rho.upper() < 1:
            raise ValueError(f"the tail ratio rho(n0) = {float(rho.upper()):.3g} is not below 1 (a longer window)")
        return _iv.of_arb(-(-rho).log1p())[1]


def _G(law, qball, x):
    """G(x) = ln F(x) - lambda x in arb at the exact rational x (the witness), with the truncation ball (at |x| for
    the even window law: G is even, and F is small at x < 0)."""
    x = abs(x) if law.even else x
    R = law.R
    la, be = ball(law.lam), ball(law.beta)
    F = ball(0)
    for k in range(math.ceil(x - R), math.floor(x + R) + 1):
        y = ball(x - k)
        F += qball(k) * (y * (la - be * y / 2)).exp()
    tr = ball(Fraction(law.trunc)) if math.isfinite(law.trunc) else None
    if tr is None:
        raise ValueError("the truncation bound does not hold at this R")
    F += (-tr).union(tr)
    return F.log() - la * ball(x)


def _qball(lo, hi):
    from flint import arb

    return arb(lo).union(arb(hi))


def _witness(law, qf, pair, D):
    u, v = (rational(x, "witness") for x in pair)
    if not abs(u - v) <= D:
        raise ValueError(f"witness pair ({u}, {v}) is more than Delta/h apart")
    qb = lambda k: _qball(*(float(z[0]) for z in qf(np.array([k]))))
    with prec(128):
        return (_G(law, qb, u) - _G(law, qb, v)).lower()


def laws(P, D, C):
    """(window law, limit law, table, U) for the parsed parameters: the shared set-up of the check and the search."""
    m, a, at = P["m"], P["a"], P["a_top"]
    lam = at / m
    beta = P["h"] ** 2 / P["sigma"] ** 2
    U = C["n0"] + D
    K = U + D + C["R"] + 2
    t = _comb.table(list(range(1, m + 1)), [a] * (m - 1) + [at], K, theta=C["theta"])
    win = _cover.Law(t.bounds, lam, beta, C["R"], t.cmax, even=True)
    Clo, Chi = t.C
    per = lambda ks: (Clo[np.asarray(ks) % m], Chi[np.asarray(ks) % m])
    lim = _cover.Law(per, lam, beta, C["R"], t.cmax, kernels=win._kern)
    return win, lim, t, U


def objectives(P, t):
    """Float enclosures (lo, hi) of E|Z| and Var Z (module docstring)."""
    m, a, at, h, s = P["m"], P["a"], P["a_top"], P["h"], P["sigma"]
    with prec(128):
        var = ball(0)
        for j in range(1, m + 1):
            q = (-ball(at if j == m else a)).exp()
            var += j * j * 2 * q / (1 - q) ** 2
        var = ball(h) ** 2 * var + ball(s) ** 2
        K = len(t.mid) - 1
        ks = np.arange(1, K + 1)
        lam = t.lam
        blocks = [_iv.of_arb((-ball(lam) * (256 * i)).exp()) for i in range(K // 256 + 1)]
        fine = [_iv.of_arb((-ball(lam) * i).exp()) for i in range(256)]
        e = (np.array(blocks)[ks // 256], np.array(fine)[ks % 256])
        elo, ehi = _iv.dn(e[0][:, 0] * e[1][:, 0]), _iv.up(e[0][:, 1] * e[1][:, 1])
        qlo, qhi = t.bounds(ks)
        kf = ks.astype(float)
        slo = float(np.sum(qlo * elo * kf)) * (1 - _iv.gamma(3 * K + 8))
        shi = float(np.sum(qhi * ehi * kf)) * (1 + _iv.gamma(3 * K + 8))
        cmax, lb = ball(Fraction(t.cmax)), ball(lam)
        x = (-lb).exp()
        tail = cmax * x ** (K + 1) * ((K + 1) - K * x) / (1 - x) ** 2      # sum_{k > K} k C_max e^{-lam k}
        S = ball(Fraction(slo)).union(ball(Fraction(shi)) + tail)        # sum_{k >= 1} p_k k
        q0 = ball(Fraction(float(t.bounds(np.array([0]))[0][0]))).union(ball(Fraction(float(t.bounds(np.array([0]))[1][0]))))
        sg, hb = ball(s), ball(h)
        from flint import arb

        c2p = (2 / arb.pi()).sqrt()
        corr = q0 * sg * c2p                                           # p_0 g(0) = p_0 sigma sqrt(2/pi)
        k = 1
        while True:
            z = hb * k / sg
            if z.lower() >= 40:
                break
            phi = (-z * z / 2).exp() / (2 * arb.pi()).sqrt()
            c = phi - z * (z / arb(2).sqrt()).erfc() / 2
            pk = _qball(*(float(v[0]) for v in t.bounds(np.array([k])))) * (-lb * k).exp()
            corr += 4 * sg * pk * c
            k += 1
        zk = hb * k / sg
        mass = cmax * (-lb * k).exp() / (1 - x)                         # sum_{k' >= k} p_k'
        rest = 4 * sg * mass * (-zk * zk / 2).exp() / (2 * arb.pi()).sqrt() / (zk * zk)
        mean_abs = 2 * hb * S + corr + ball(0).union(rest)
        return _iv.of_arb(mean_abs), _iv.of_arb(var)


def check(doc, progress=None):
    """Re-derive the certificate; returns ``(lower, upper, objectives)`` (floats) or raises ``Refused``."""
    try:
        P, D, C = parse(doc)
    except (KeyError, TypeError) as e:
        raise Refused(f"malformed certificate: missing or wrong field {e}") from None
    except ValueError as e:
        raise Refused(str(e)) from None
    say = progress or (lambda s: None)
    claim = doc["claim"]
    c_lo, c_hi, c_eps = (rational(claim[k], f"claim.{k}") for k in ("lower", "upper", "epsilon"))
    try:
        win, lim, t, U = laws(P, D, C)
        eta = _tail(P, C, t, win.lam, win.beta)
    except ValueError as e:
        raise Refused(str(e)) from None
    if not math.isfinite(win.trunc):
        raise Refused(f"cover.R={C['R']}: the truncation bound's hypotheses fail (8 e^(lambda - beta (R-1)) <= 1/2)")
    say("limit law")
    Lb, _, _ = _cover.loss(lim, D, P["m"], C["N"], C["limit_zones"])
    say("window")
    Wb, cells, _ = _cover.loss(win, D, U, C["N"], C["zones"], progress=say)
    upper = max(Wb, math.nextafter(Lb + 2 * eta, math.inf))
    w = doc.get("witness", {})
    lows = []
    try:
        if w.get("window"):
            lows.append(float(_witness(win, win.qfun, w["window"], D)))
        if w.get("limit"):
            lows.append(float(_witness(lim, lim.qfun, w["limit"], D)))
    except ValueError as e:
        raise Refused(str(e)) from None
    lower = max(lows) if lows else -math.inf
    if not Fraction(upper) <= c_hi:
        raise Refused(f"the re-derived upper bound {upper!r} is above the claimed upper {float(c_hi)!r} "
                      f"(window {Wb!r}, limit law {Lb!r} + 2 eta {eta:.3g})")
    if not c_hi <= c_eps:
        raise Refused(f"the claimed upper {float(c_hi)!r} is above the certified epsilon {float(c_eps)!r}")
    if not (lows and c_lo <= Fraction(lower)):
        raise Refused(f"the claimed lower {float(c_lo)!r} is above the witnesses' value {lower!r}")
    obj = objectives(P, t)
    check_objectives(doc, obj)
    return float(lower), upper, {"mean_abs": obj[0], "variance": obj[1], "cells": cells}
