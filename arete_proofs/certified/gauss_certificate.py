r"""Write a checkable ``lattice_gauss`` certificate: the search that :mod:`arete_proofs.check.lattice_gauss` re-checks.

The search chooses what is costly to find and records it: the tail's Chernoff rate :math:`\theta`, split :math:`J` and
window :math:`n_0`, the truncation :math:`R`, the *zones* where the cover's cells must be finer (found by evaluating
the whole cover, refining the lattice steps whose cells exceed the target, and repeating), and the witness pairs of
the lower end.  It evaluates the cover with the checker's own arithmetic (:mod:`arete_proofs.check._cover`), so the
bound it records is the one the checker re-derives; it then runs the checker on the document before returning it.

:math:`h` must make :math:`\Delta/h` an integer (:func:`lattice_h` gives :math:`h = \Delta/m`, the frontier's rule).

>>> doc = write_lattice_gauss("3", 2, "1/5", lattice_h(2), 1, tol="1e-6")
>>> from arete_proofs.check import check_document
>>> r = check_document(doc)
>>> r["verdict"], r["upper"] - r["lower"] < 1e-5
('checked', True)
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

from ..check import FORMAT
from ..check import _comb, _cover
from ..check import lattice_gauss as _lg
from ..check._arb import ball, prec
from ._seal import sealed
from .comb_balls import _simple

__all__ = ["write_lattice_gauss", "lattice_h"]

#: the finest zone the search asks for (cells per lattice step)
MAX_N = 4096


def lattice_h(m, Delta=1):
    """The lattice step :math:`h = \\Delta/m` as an exact rational string (so that :math:`\\Delta/h = m`)."""
    q = Fraction(Delta) / int(m)
    return f"{q.numerator}/{q.denominator}" if q.denominator != 1 else str(q.numerator)


def _txt(q):
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _dec(x, up, digits=12):
    """A decimal string >= x (``up``) or <= x with ``digits`` significant digits."""
    if x == 0 or not math.isfinite(x):
        return repr(x)
    e = math.floor(math.log10(abs(x))) - digits + 1
    q = Fraction(x) / Fraction(10) ** e
    n = math.ceil(q) if up else math.floor(q)
    out = Fraction(n) * Fraction(10) ** e
    return f"{n}e{e}" if e else str(n)


def _choose(a, at, m, sigma, h, D, tol, R=None, theta=None):
    """(R, theta, J, n0): the truncation and the tail's parameters for the target ``tol`` (floats guide, the check decides)."""
    lam, beta = float(at / m), float(h * h / (sigma * sigma))
    if R is None:
        R = 3
        while not (8 * math.exp(lam - beta * (R - 1)) <= 0.4 and R - 1 >= max(1, lam / beta)
                   and 3 * math.log(lam + beta * (R - 1) + math.sqrt(3 * beta) + 1) + lam * (R - 1)
                   - beta * (R - 1) ** 2 / 2 < -40 * math.log(2) - lam - beta / 8):
            R += 1
    gap = Fraction(a) / (m - 1) - Fraction(at) / m if m > 1 else None
    if theta is None:
        if gap is None:
            theta = Fraction(0)
        else:
            best = None
            for f in (Fraction(1, 4), Fraction(2, 5), Fraction(11, 20), Fraction(7, 10), Fraction(17, 20)):
                th = _simple(gap * f)
                E = float(_comb.chernoff(list(range(1, m + 1)), [a] * (m - 1) + [at], th).mid())
                size = (math.log(max(E, 1e-300)) + 60) / float(th)
                if best is None or size < best[0]:
                    best = (size, th)
            theta = best[1]
    X0 = max(math.ceil((lam + 0.7) / beta), math.ceil(lam / beta), 1)
    return R, Fraction(theta), X0


def _n0(P, D, C, tol):
    """J and the least window n0 (float guide) with eta below tol/10, confirmed by the checker's own tail bound."""
    lam, beta, th = float(P["a_top"] / P["m"]), float(P["h"] ** 2 / P["sigma"] ** 2), float(C["theta"])
    ltau = lambda X: math.log(2) + lam * X - beta * X * X / 2
    m, a, at = P["m"], P["a"], P["a_top"]
    with prec(128):      # the profile's mean C = t* E e^{lambda Y} / m: a guide to C_min before any table
        cbar = (ball(at) / 2).tanh() / m
        for c in range(1, m):
            q, e = (-ball(a)).exp(), (ball(at / m) * c).exp()
            cbar *= (1 - q) ** 2 / ((1 - q * e) * (1 - q / e))
    cmin_guess = float(cbar.mid()) / 2
    n0 = C["J"] + 2
    t = None
    for _ in range(60):
        C["n0"] = n0
        if t is None or len(t.mid) < n0:
            win, lim, t, U = _lg.laws(P, D, C)
        E0 = float(t.E0.upper())
        pre = math.exp(lam / 2 + beta / 8) / (t.cmin if len(t.mid) > n0 // 2 and n0 > 4 * m else cmin_guess)
        J = C["J"]
        while E0 > 0 and pre * E0 * math.exp(ltau(J)) > tol / 1000:
            J += 1
        C["J"] = J
        X0 = max(math.ceil((lam + 0.7) / beta), math.ceil(lam / beta), 1)
        smax = 2 * (sum(math.exp(lam * (i + 1) - beta * i * i / 2) for i in range(X0)) + math.exp(ltau(X0)))
        need = J + 1 if E0 == 0 else J + math.ceil(math.log(pre * E0 * smax / (tol / 100)) / th) + 1
        while pre * t.cmax * math.exp(ltau(need + 1)) > tol / 1000:
            need += 1
        if need > n0:
            n0 = need
            continue
        try:
            if len(t.mid) != n0 + 2 * D + C["R"] + 3:       # the checker's own table for this n0
                win, lim, t, U = _lg.laws(P, D, C)
            eta = _lg._tail(P, C, t, win.lam, win.beta)
            if eta < tol / 10:
                return win, lim, t, U, eta
        except ValueError:
            pass
        n0 = int(n0 * 1.25) + 1
    raise ValueError("no window found for the tail bound")


def _memo(law):
    """The law with its base grid (contiguous ranges) kept: the search evaluates it many times."""
    if getattr(law, "_memo", None) is None:
        grid, law._memo = law.grid, {}

        def cached(N, j0, j1=None):
            if j1 is None:
                return grid(N, j0)
            key = (N, j0, j1)
            if key not in law._memo:
                if len(law._memo) > 4:
                    law._memo.clear()
                law._memo[key] = grid(N, j0, j1)
            return law._memo[key]

        law.grid = cached
    return law


def _refine(law, D, U, N0, level, say, label):
    """Zones until the cover's bound is at most ``level`` (or MAX_N is reached): (bound, cells, zones)."""
    zones = []
    for _ in range(12):
        b, cells, over = _cover.loss(law, D, U, N0, zones, level=level)
        say(f"{label}: bound {b:.12g} over {cells} cells, {len(zones)} zones, {len(over)} steps above {level:.12g}")
        if b <= level or not over:
            return b, cells, zones
        Nof = {}
        for A, B, N in zones:
            for j in range(A, B):
                Nof[j] = N
        steps = {}
        for j in over:
            for k in (j - 1, j, j + 1):
                if -D - 1 <= k < U + D + 1:
                    steps[k] = min(MAX_N, max(steps.get(k, 0), 4 * Nof.get(k, N0)))
        for j, N in Nof.items():
            steps[j] = max(steps.get(j, 0), N)
        if all(Nof.get(j) == MAX_N for j in over):
            return b, cells, zones
        zones = []
        for j in sorted(steps):
            if zones and zones[-1][1] == j and zones[-1][2] == steps[j]:
                zones[-1][1] = j + 1
            else:
                zones.append([j, j + 1, steps[j]])
    return b, cells, zones


def _best_pair(law, D, U, zones, N0):
    """A witness pair (u, v) of exact dyadics near the largest loss, from the cover's cells (float midpoints):
    v at u +- D or at the lowest local minimum of G within D of u."""
    from ..check import _iv

    best = None
    for A, B, N in [(0, U, N0)] + [tuple(z) for z in zones]:
        a, b = max(A, 0), min(B, U)
        if a >= b:
            continue
        (G, c) = law.grid(N, a - D - 1, b + D + 1)
        g = (G[0][0] + G[0][1]) / 2
        lm = np.full(len(g), np.inf)
        inner = (g[1:-1] <= g[:-2]) & (g[1:-1] <= g[2:])
        lm[1:-1][inner] = g[1:-1][inner]
        i = np.arange((D + 1) * N, (D + 1 + b - a) * N)
        s = D * N
        e = np.maximum(g[i] - g[i + s], g[i] - g[i - s])
        e = np.maximum(e, g[i] - _iv.range_min(lm, i - s, i + s + 1))
        e = np.where(np.isfinite(e), e, -np.inf)
        for k in np.argsort(e)[-24:].tolist():          # the best cells (sampling at centres can miss the peak)
            ii = int(i[k])
            w = np.concatenate([[g[ii - s], g[ii + s]], lm[ii - s:ii + s + 1]])
            pos = np.concatenate([[ii - s, ii + s], np.arange(ii - s, ii + s + 1)])
            j = int(pos[int(np.argmin(w))])
            u, v = _polish(law, D, c[ii], c[j], 1.0 / N, j in (ii - s, ii + s))
            val = _float_loss(law, u, v)
            if best is None or val > best[0]:
                best = (val, u, v)
    return [_txt(best[1]), _txt(best[2])]


def _float_G(law):
    R, lam, beta = law.R, float(law.lam), float(law.beta)

    def G(x):
        ks = np.arange(math.ceil(x - R), math.floor(x + R) + 1)
        lo, hi = law.qfun(ks)
        y = x - ks
        return math.log(float(np.sum((lo + hi) / 2 * np.exp(lam * y - beta * y * y / 2)))) - lam * x
    return G


def _float_loss(law, u, v):
    G = _float_G(law)
    return G(float(u)) - G(float(v))


def _polish(law, D, u, v, w, endpoint):
    """Maximise the float64 loss G(u) - G(v) near the pair (the search's guide; the check evaluates in arb)."""
    from scipy.optimize import minimize_scalar

    G = _float_G(law)

    def vbest(x):
        if endpoint:
            return v + (x - u)
        r = minimize_scalar(G, bounds=(v - w, v + w), method="bounded", options={"xatol": 1e-12})
        return r.x

    r = minimize_scalar(lambda x: -(G(x) - G(vbest(x))), bounds=(u - w, u + w), method="bounded",
                        options={"xatol": 1e-12})
    u2 = Fraction(r.x)
    v2 = u2 + (Fraction(v) - Fraction(u)) if endpoint else Fraction(vbest(r.x))     # endpoint: exactly +-D away
    if not abs(u2 - v2) <= D:
        return Fraction(u), Fraction(v)
    return (u2, v2) if G(float(u2)) - G(float(v2)) >= G(u) - G(v) else (Fraction(u), Fraction(v))


def write_lattice_gauss(a, m, sigma, h, Delta=1, *, a_top=None, epsilon=None, tol="1e-6", R=None, theta=None,
                        N=16, progress=None):
    r"""A certificate document (``format`` :data:`arete_proofs.check.FORMAT`, kind ``lattice_gauss``) for
    :math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)` (top scale at rate ``a_top``) at sensitivity ``Delta``:
    the claim :math:`\varepsilon^* \in [\mathrm{lower}, \mathrm{upper}]`, ``upper`` :math:`\le` ``epsilon`` (default:
    ``upper``), with the cover refined until ``upper`` is within about ``tol`` of the witnesses' value (or of
    ``epsilon``), and the enclosures of :math:`E|Z|` and :math:`\mathrm{Var}\,Z`.  ``ValueError`` when the
    parameters are out of range or the bound stays above ``epsilon``.
    """
    t0 = time.perf_counter()
    say = progress or (lambda s: None)
    doc = {"format": FORMAT, "kind": "lattice_gauss",
           "params": {"a": _txt(Fraction(a)), "m": int(m), "sigma": _txt(Fraction(sigma)), "h": _txt(Fraction(h))},
           "Delta": _txt(Fraction(Delta))}
    if a_top is not None and Fraction(a_top) != Fraction(a):
        doc["params"]["a_top"] = _txt(Fraction(a_top))
    tolf = float(Fraction(tol))
    doc["cover"] = {"N": int(N), "R": 1, "n0": 1, "J": 1, "theta": "0", "zones": [], "limit_zones": []}
    doc["claim"] = {"lower": "0", "upper": "0", "epsilon": "0"}
    P, D, C = _lg.parse(doc)
    R, th, X0 = _choose(P["a"], P["a_top"], P["m"], P["sigma"], P["h"], D, tolf, R, theta)
    C.update(R=R, theta=th, J=X0)
    win, lim, t, U, eta = _n0(P, D, C, tolf)
    lamf, betaf = float(win.lam), float(win.beta)
    while win.trunc > 1e-13 * float(np.min(t.mid)) * math.exp(-lamf / 2 - betaf / 8):   # F >= min q e^{..} on u >= 0
        C["R"] = R = R + 1
        win, lim, t, U = _lg.laws(P, D, C)
    win, lim = _memo(win), _memo(lim)
    say(f"R={R}, theta={th}, J={C['J']}, n0={C['n0']}, eta={eta:.3g} ({time.perf_counter() - t0:.1f} s)")
    # witnesses on the base grids set the level both covers must reach: the best lower value plus tol
    pl, pw = _best_pair(lim, D, P["m"], [], N), _best_pair(win, D, U, [], N)
    lows = [float(_lg._witness(lim, lim.qfun, pl, D)), float(_lg._witness(win, win.qfun, pw, D))]
    target = float(Fraction(epsilon)) if epsilon is not None else math.inf
    level = min(target, max(lows) + tolf)
    Lb, _, lz = _refine(lim, D, P["m"], N, level - 2 * eta, say, "limit law")
    Wb, _, wz = _refine(win, D, U, N, level, say, "window")
    for i, (law, UU, zones) in enumerate(((lim, P["m"], lz), (win, U, wz))):
        if zones:                              # a better pair on the finer cells (kept only if it is better)
            pair = _best_pair(law, D, UU, zones, N)
            v = float(_lg._witness(law, law.qfun, pair, D))
            if v > lows[i]:
                lows[i] = v
                pl, pw = (pair, pw) if i == 0 else (pl, pair)
    upper = max(Wb, math.nextafter(Lb + 2 * eta, math.inf))
    lower = max(lows)
    if epsilon is not None and not upper <= target:
        raise ValueError(f"the cover's bound {upper!r} stays above epsilon = {epsilon} (finest zones: {MAX_N} cells)")
    (ma, va) = _lg.objectives(P, t)
    doc["cover"] = {"N": int(N), "R": R, "n0": C["n0"], "J": C["J"], "theta": _txt(th), "zones": wz, "limit_zones": lz}
    doc["witness"] = {"window": pw, "limit": pl}
    # the claims keep a margin of 1e-10 (relative) from the re-derived values: a BLAS that sums in another order
    # moves the checker's bounds in their last bits
    up_s = _dec(upper + 1e-10 * abs(upper), True)
    doc["claim"] = {"lower": _dec(lower - 1e-10 * abs(lower), False), "upper": up_s,
                    "epsilon": _txt(Fraction(epsilon)) if epsilon is not None else up_s}
    doc["objectives"] = {"mean_abs": [_dec(ma[0], False), _dec(ma[1], True)],
                         "variance": [_dec(va[0], False), _dec(va[1], True)]}
    doc["search_seconds"] = round(time.perf_counter() - t0, 1)
    return sealed(doc)
