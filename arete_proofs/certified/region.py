r"""Where Lemma 3's parameters are :math:`\varepsilon`-DP: certified decisions on cells of :math:`(\varepsilon,\Delta)`.

Lemma 3 takes :math:`\alpha=\lambda=e^{-\varepsilon/4}`, :math:`\theta=4\Delta/\varepsilon` and claims
:math:`\varepsilon`-DP for sensitivity :math:`\Delta` when :math:`\varepsilon\ge20+4\ln\Delta`.  Write
:math:`\varepsilon^*(\alpha,\theta,\lambda)` for the tight epsilon at sensitivity 1 (Section 4.2,
Corollary 5).  By the scaling law (:math:`\mathrm{Arete}(\alpha,c\theta,c\lambda)` is :math:`c` times
:math:`\mathrm{Arete}(\alpha,\theta,\lambda)`), the mechanism at :math:`(\varepsilon,\Delta)` has tight
epsilon :math:`E(\varepsilon,\Delta)=\varepsilon^*(e^{-\varepsilon/4},\,4/\varepsilon,\,e^{-\varepsilon/4}/\Delta)`.

**Monotonicity** (the fact that turns a cell into two parameter sets).  :math:`\varepsilon^*` is
non-increasing in each of :math:`\alpha,\theta,\lambda`: for :math:`\alpha'\ge\alpha`,
:math:`\theta'\ge\theta`, :math:`\lambda'\ge\lambda`, :math:`\mathrm{Arete}(\alpha',\theta',\lambda')`
is :math:`\mathrm{Arete}(\alpha,\theta,\lambda)+V` with :math:`V` independent of it, because

* :math:`\mathrm{Gamma}(\alpha',\theta)=\mathrm{Gamma}(\alpha,\theta)+\mathrm{Gamma}(\alpha'-\alpha,\theta)`;
* :math:`\mathrm{Gamma}(\alpha,\theta')=\mathrm{Gamma}(\alpha,\theta)+W`, :math:`W` infinitely divisible
  with Levy density :math:`\alpha(e^{-x/\theta'}-e^{-x/\theta})/x\ge0` on :math:`x>0` (the Gamma
  law's Levy density is :math:`\alpha e^{-x/\theta}/x`);
* :math:`\mathrm{Laplace}(\lambda')=\mathrm{Laplace}(\lambda)+W`, :math:`W` the mixture
  :math:`(\lambda/\lambda')^2\delta_0+(1-(\lambda/\lambda')^2)\mathrm{Laplace}(\lambda')` (characteristic
  functions: :math:`\frac{1+\lambda^2w^2}{1+\lambda'^2w^2}\cdot\frac1{1+\lambda^2w^2}`);

and adding independent noise cannot increase the privacy loss
(:math:`f_{Z+V}(t)=E f_Z(t-V)\le e^{\varepsilon}E f_Z(t+\Delta-V)`).  All three parameters decrease
in :math:`\varepsilon` and :math:`\lambda/\Delta` decreases in :math:`\Delta`, so on a cell
:math:`[e_0,e_1]\times[d_0,d_1]` the parameter balls are
:math:`\alpha\in[e^{-e_1/4},e^{-e_0/4}]`, :math:`\theta/\Delta\in[4/e_1,4/e_0]`,
:math:`\lambda/\Delta\in[e^{-e_1/4}/d_1,e^{-e_0/4}/d_0]`, and for every parameter set in them

.. math::  \varepsilon^*(\text{lower corner}) \;\ge\; E \;\ge\; \varepsilon^*(\text{upper corner}).

(The corners are exact dyadic numbers rounded outward from the balls.)  Hence:

* the cell is **private** when a certified upper bound on :math:`\varepsilon^*(\text{lower corner})`
  (a cover of :math:`[0,T]` bounded as in :mod:`arete_proofs.certified.epsilon`, items 1-4, or the
  Lipschitz bound :math:`1/\lambda`) is at most :math:`e_0`;
* it is **not private** when a certified witness :math:`t` gives
  :math:`\ln f_A(t)-\ln f_A(t+1)>e_1` at the upper corner (then
  :math:`E\ge\varepsilon^*(\text{upper corner})>e_1\ge\varepsilon` on the whole cell).

Computing the corners' tight epsilons with ball parameters over the whole cell is possible
(:class:`~arete_proofs.certified.density.CertifiedDensity` takes balls) but the enclosures widen
about a hundredfold by the dependency problem; the corners are exact and give sharp bounds.

>>> c = decide_cell("8", "17/2", "1", "1")   # Delta = 1, eps in [8, 8.5]: E(8.5, 1) = 5.09 <= 8
>>> c["status"], c["bound"] <= 8
('private', True)
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

from .._validation import PrecisionError
from .density import CertifiedDensity, _arb, exact_parameter, gg_pdf_ball
from .epsilon import _Ell, _cell_upper, _down, _split, _up, tail_bound

__all__ = ["corners", "prove_private", "check_private", "find_witness", "check_witness", "decide_cell",
           "decide_strip", "check_cell", "PREC"]

#: working precision (bits) of every ball of the region certificates
PREC = 64
_ONE = Fraction(1)


def _q(x, name):
    return exact_parameter(x, name)


def corners(e0, e1, d0, d1):
    r"""The parameter balls of the cell :math:`[e_0,e_1]\times[d_0,d_1]` at sensitivity 1 and their corners.

    Returns ``{"alpha": [lo, hi], "theta": [lo, hi], "lam": [lo, hi]}`` with exact Fractions
    (``lo`` rounded down, ``hi`` up): every parameter set of Lemma 3 in the cell, scaled to
    :math:`\Delta=1`, lies in the box, and ``lo`` (``hi``) is the corner with the largest
    (smallest) tight epsilon (module docstring, monotonicity).

    >>> import math
    >>> b = corners(8, 9, 1, 2)
    >>> b["alpha"][0] <= math.exp(-9 / 4) <= b["alpha"][1] and b["lam"][0] <= math.exp(-9 / 4) / 2
    True
    """
    from flint import ctx

    e0, e1, d0, d1 = (_q(v, n) for v, n in ((e0, "eps"), (e1, "eps"), (d0, "sensitivity"), (d1, "sensitivity")))
    if not (e0 <= e1 and d0 <= d1):
        raise ValueError("a cell needs eps0 <= eps1 and sensitivity0 <= sensitivity1")
    old, ctx.prec = ctx.prec, 128
    try:
        a_lo, a_hi = (-_arb(e1) / 4).exp(), (-_arb(e0) / 4).exp()
        l_lo, l_hi = a_lo / _arb(d1), a_hi / _arb(d0)
        return {"alpha": [Fraction(_down(a_lo)), Fraction(_up(a_hi))],
                "theta": [4 / e1, 4 / e0],
                "lam": [Fraction(_down(l_lo)), Fraction(_up(l_hi))]}
    finally:
        ctx.prec = old


def _ell_eval(ell, pts):
    ell.need(pts + [Fraction(p) + _ONE for p in pts])


def _cover_upper(pts, T, a, th, la, ell, fgg, level=None):
    """Per-cell certified uppers of L on the cover pts of [0, T], the tail bound for t >= T."""
    from flint import arb

    _ell_eval(ell, pts)
    for p in pts:
        if not (ell[p].is_finite() and ell[Fraction(p) + _ONE].is_finite()):
            raise PrecisionError(f"certified ln f_A is not finite at t = {p!r}")
    ups = [_cell_upper(pts[i], pts[i + 1], _arb(la), ell, _ONE, fgg) for i in range(len(pts) - 1)]
    tb = tail_bound(Fraction(T), a, th, la, 1, prec=PREC)
    return ups, (tb.upper() if tb.is_finite() else arb("inf"))


def _fgg(a, th):
    cache = {}

    def fgg(x):
        if x not in cache:
            cache[x] = gg_pdf_ball(Fraction(x), a, th, prec=PREC)
        return cache[x]

    return fgg


def _initial_points(theta, T):
    """A coarse first cover of [0, T] (12-15 points; prove_private refines it where the bound is
    above the level): the region's proofs have a margin, unlike certify_epsilon's, and a coarse
    cover halves the cost of a proof and of its check."""
    pts = [0.0] + [theta * 10.0 ** -k for k in (300, 30, 8, 3, 1)]
    x = 0.3 * theta
    while x < T:
        pts.append(x)
        x *= 4
    pts.append(T)
    return sorted(set(p for p in pts if p <= T))


def _lipschitz(la, level):
    """The proof ``eps* <= 1/lam`` (|d/dt ln f_A| <= 1/lam), when 1/lam <= level (exact rationals)."""
    return 1 / la <= level


def prove_private(a, th, la, level, *, max_seconds=60, max_rounds=30):
    r"""Prove :math:`\varepsilon^*(\alpha,\theta,\lambda)\le` ``level`` (exact parameters, sensitivity 1).

    Returns ``{"method": "lipschitz"}`` (the bound :math:`1/\lambda`, valid for all parameters) or
    ``{"method": "cover", "T": T, "points": [...], "bound": B}`` with a cover of :math:`[0,T]` whose
    certified bound ``B`` (cells, tail, :mod:`arete_proofs.certified.epsilon` items 1-4) is at most
    ``level``; ``None`` when no proof was found (a certified value above ``level``, or out of time).

    >>> prove_private(Fraction(1, 2), 2, Fraction(1, 2), 3)   # 1/lam = 2 <= 3
    {'method': 'lipschitz', 'bound': 2.0}
    """
    from flint import arb, ctx

    a, th, la, level = (Fraction(x) for x in (a, th, la, level))
    if _lipschitz(la, level):
        return {"method": "lipschitz", "bound": _up(_arb(1 / la))}
    if la >= th or a >= 1:
        return None  # lam >= theta: eps* = 1/lam exactly (the Lipschitz bound), already above the level
    t0 = time.perf_counter()
    old, ctx.prec = ctx.prec, PREC
    ell = _Ell(a, th, la, 1, PREC)
    try:
        lev = _arb(level)
        thf, laf = float(th), float(la)
        T, Tmax = max(thf, laf, 4.0), 2000 * max(thf, laf) + 4.0
        while True:
            tb = tail_bound(Fraction(T), a, th, la, 1, prec=PREC)
            if tb.is_finite() and tb.upper() < lev:
                break
            if T * 1.5 > Tmax:
                return None
            T *= 1.5
        pts = _initial_points(thf, T)
        fgg = _fgg(a, th)
        for _ in range(max_rounds):
            ups, tail = _cover_upper(pts, T, a, th, la, ell, fgg)
            U = max(ups + [tail], key=float)
            if U <= lev:
                return {"method": "cover", "T": T, "points": pts, "bound": _up(arb(U))}
            # a certified value of L above the level: the corner is not private at this level
            if any(_down(ell[p] - ell[Fraction(p) + _ONE]) > float(level) for p in pts):
                return None
            if time.perf_counter() - t0 > max_seconds:
                return None
            new = [m for i, u in enumerate(ups) if u > lev and (m := _split(pts[i], pts[i + 1])) is not None]
            if not new:
                return None
            pts = sorted(set(pts) | set(new))
        return None
    except PrecisionError:
        return None
    finally:
        ell.close()
        ctx.prec = old


def check_private(a, th, la, level, proof):
    r"""Re-prove :math:`\varepsilon^*(\alpha,\theta,\lambda)\le` ``level`` from a stored ``proof``
    (:func:`prove_private`'s dict); trusts nothing in it but the cover's points, which it checks
    form a cover of :math:`[0,T]`.  Returns the recomputed bound (float) or ``None`` if it fails.

    >>> p = prove_private(Fraction(1, 2), 2, Fraction(1, 2), 3)
    >>> check_private(Fraction(1, 2), 2, Fraction(1, 2), 3, p), check_private(Fraction(1, 2), 2, Fraction(1, 2), "1.9", p)
    (2.0, None)
    """
    from flint import arb, ctx

    a, th, la, level = (Fraction(x) for x in (a, th, la, _q(level, "level")))
    if proof.get("method") == "lipschitz":
        return _up(_arb(1 / la)) if _lipschitz(la, level) else None
    if proof.get("method") != "cover" or la >= th or a >= 1:
        return None
    T = float(proof["T"])
    pts = [float(p) for p in proof["points"]]
    if not (pts and pts[0] == 0.0 and pts[-1] == T and all(x < y for x, y in zip(pts, pts[1:]))):
        return None
    old, ctx.prec = ctx.prec, PREC
    ell = _Ell(a, th, la, 1, PREC)
    try:
        ups, tail = _cover_upper(pts, T, a, th, la, ell, _fgg(a, th))
        U = max(ups + [tail], key=float)
        return _up(arb(U)) if U <= _arb(level) else None
    except PrecisionError:
        return None
    finally:
        ell.close()
        ctx.prec = old


def _loss_ball(a, th, la, t):
    """A ball containing L(t) = ln f_A(t) - ln f_A(t + 1) at exact parameters."""
    from flint import ctx

    old, ctx.prec = ctx.prec, PREC
    try:
        D = CertifiedDensity(a, th, la, prec=PREC)
        t = Fraction(t)
        return D.pdf(t).log() - D.pdf(t + 1).log()
    finally:
        ctx.prec = old


def check_witness(a, th, la, level, t):
    r"""A certified lower bound (float) on :math:`L(t)=\ln f_A(t)-\ln f_A(t+1)` if it exceeds ``level``,
    else ``None``: then :math:`\varepsilon^*(\alpha,\theta,\lambda)\ge L(t)>` ``level``.

    >>> from arete_proofs.privacy.optimize import estimate_epsilon
    >>> e = estimate_epsilon(0.5, 2.0, 0.25)         # 1.0618... at t = 0.127
    >>> check_witness("0.5", 2, "0.25", 1, e.t_star) > 1, check_witness("0.5", 2, "0.25", "1.07", e.t_star)
    (True, None)
    """
    a, th, la = (_q(x, n) for x, n in ((a, "alpha"), (th, "theta"), (la, "lam")))
    level = _q(level, "level")
    try:
        L = _loss_ball(a, th, la, _q(t, "t") if t != 0 else Fraction(0))
    except (PrecisionError, ValueError):
        return None
    if not L.is_finite():
        return None
    low = _down(L)
    return low if low > level else None


def find_witness(a, th, la, level):
    r"""A point :math:`t` with certified :math:`L(t)>` ``level`` (float search, certified check), or ``None``.

    >>> find_witness("0.5", 2, "0.25", 1)["lower"] > 1, find_witness("0.5", 2, "0.25", "1.07")
    (True, None)
    """
    import numpy as np

    from ..distributions import fast
    from ..privacy.optimize import estimate_epsilon

    af, tf, lf = float(a), float(th), float(la)
    try:
        e = estimate_epsilon(af, tf, lf)
    except (ValueError, FloatingPointError):
        return None
    if e.epsilon <= float(level):
        return None
    cands = []
    if math.isfinite(e.t_star):
        cands.append(e.t_star)
    else:  # the supremum is the tail limit, approached as t -> infinity: the first grid t above the level
        ts = np.geomspace(max(tf, lf), 400 * max(tf, lf), 60)
        v = fast.logpdf(np.concatenate([ts, ts + 1]), af, tf, lf)
        g = v[:60] - v[60:]
        cands += [float(t) for t, x in zip(ts, g) if x > float(level)][:2]
    for t in cands:
        low = check_witness(a, th, la, level, t)
        if low is not None:
            return {"t": t, "lower": low}
    return None


def _estimate(p):
    from ..privacy.optimize import estimate_epsilon

    try:
        return estimate_epsilon(*(float(x) for x in p)).epsilon
    except (ValueError, FloatingPointError):
        return math.nan


def _cell_params(e0, e1, d0, d1):
    b = corners(e0, e1, d0, d1)
    lo = (b["alpha"][0], b["theta"][0], b["lam"][0])
    hi = (b["alpha"][1], b["theta"][1], b["lam"][1])
    return b, lo, hi


def _cell_record(e0, e1, d0, d1):
    b, lo, hi = _cell_params(e0, e1, d0, d1)
    return {"eps": [str(e0), str(e1)], "sensitivity": [str(d0), str(d1)],
            "params": {k: [repr(float(v[0])), repr(float(v[1]))] for k, v in b.items()}}, lo, hi


def _try_private(e0, e1, d0, d1, max_seconds):
    """The cell [e0,e1] x [d0,d1] proved private (a record), or None."""
    out, lo, _ = _cell_record(e0, e1, d0, d1)
    p = prove_private(*lo, e0, max_seconds=max_seconds)
    if p is None:
        return None
    return dict(out, status="private", bound=p.pop("bound"), proof=p)


def _try_not_private(e0, e1, d0, d1):
    """The cell [e0,e1] x [d0,d1] proved not private (a record), or None."""
    out, _, hi = _cell_record(e0, e1, d0, d1)
    w = find_witness(*hi, e1)
    return None if w is None else dict(out, status="not private", witness=w)


def decide_cell(e0, e1, d0, d1, *, max_seconds=60):
    r"""Try to prove the cell :math:`[e_0,e_1]\times[d_0,d_1]` private or not private.

    Float estimates of the corners' tight epsilons (not part of any proof) choose which proof to
    attempt.  Returns a JSON-ready dict: ``eps``, ``sensitivity`` (exact strings), ``params`` (the
    balls), ``status`` (``"private"``, ``"not private"`` or ``"open"``), with ``bound`` and ``proof``
    (private) or ``witness`` (not private), and the estimates.

    >>> c = decide_cell("20", "41/2", "10000", "10000")   # E(20, 1e4) = 23.3 > 20.5
    >>> c["status"], c["witness"]["lower"] > 20.5
    ('not private', True)
    """
    e0q, e1q, d0q, d1q = (_q(v, n) for v, n in ((e0, "eps"), (e1, "eps"), (d0, "sensitivity"),
                                                 (d1, "sensitivity")))
    t0 = time.perf_counter()
    out, lo, hi = _cell_record(e0q, e1q, d0q, d1q)
    est = [_estimate(lo), _estimate(hi)]
    out.update(estimate=est, status="open")
    margin = 1e-6 * max(1.0, float(e1q))
    if est[0] <= float(e0q) - margin or _lipschitz(lo[2], e0q):
        out = dict(_try_private(e0q, e1q, d0q, d1q, max_seconds) or out, estimate=est)
    if out["status"] == "open" and est[1] >= float(e1q) + margin:
        out = dict(_try_not_private(e0q, e1q, d0q, d1q) or out, estimate=est)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _E(eps, lnD):
    """Float estimate of the tight epsilon at (eps, Delta = e^lnD) (a guide, not part of any proof)."""
    return _estimate((math.exp(-eps / 4), 4 / eps, math.exp(-eps / 4 - lnD)))


def _nan_up(v):
    return math.inf if v != v else v


def _bracket(f, a, b, fa, fb, tol):
    """For f nondecreasing in x (up to float noise) with f(a) = fa <= 0 < fb = f(b): points
    a' < b' with f(a') <= 0 < f(b') and b' - a' <= tol, by the Illinois variant of regula falsi
    (a smooth f needs a handful of evaluations), with a bisection step whenever the bracket
    fails to halve.  NaN values count as > 0."""
    side = 0
    while b - a > tol:
        width = b - a
        x = a - fa * (b - a) / (fb - fa) if math.isfinite(fb) else (a + b) / 2
        x = min(max(x, a + tol / 4), b - tol / 4)       # strictly inside, by at least tol/4
        fx = _nan_up(f(x))
        if fx <= 0:
            a, fa = x, fx
            if side == -1:
                fb /= 2
            side = -1
        else:
            b, fb = x, fx
            if side == 1:
                fa /= 2
            side = 1
        if b - a > width / 2:                            # the slow side: bisect once
            m = (a + b) / 2
            fm = _nan_up(f(m))
            a, fa, b, fb = (m, fm, b, fb) if fm <= 0 else (a, fa, m, fm)
    return a, b


def _last_at_most(f, lo, hi, tol):
    """For f nondecreasing: an x in [lo, hi] with f(x) <= 0, within ``tol`` below the last such x,
    or None when f(lo) > 0 (NaN counts as > 0)."""
    flo = _nan_up(f(lo))
    if not flo <= 0:
        return None
    fhi = _nan_up(f(hi))
    return hi if fhi <= 0 else _bracket(f, lo, hi, flo, fhi, tol)[0]


def _first_at_least(f, lo, hi, tol):
    """For f nondecreasing: an x in [lo, hi] with f(x) > 0, within ``tol`` above the first such x,
    or None when f(hi) <= 0 (NaN counts as > 0; the witness is certified anyway)."""
    fhi = _nan_up(f(hi))
    if not fhi > 0:
        return None
    flo = _nan_up(f(lo))
    return lo if flo > 0 else _bracket(f, lo, hi, flo, fhi, tol)[1]


def _snap(x, d0, d1):
    """An exact Delta near e^x (7 significant digits), clamped to [d0, d1]."""
    return max(d0, min(d1, Fraction(f"{math.exp(x):.7g}")))


def decide_strip(e0, e1, d0, d1, *, max_seconds=60, tol=2e-3):
    r"""Decide the strip :math:`[e_0,e_1]\times[d_0,d_1]`: private below some :math:`\Delta_p`,
    not private above some :math:`\Delta_n`.

    At a fixed :math:`\varepsilon` the tight epsilon :math:`E(\varepsilon,\Delta)` is non-decreasing
    in :math:`\Delta` (:math:`\lambda/\Delta` decreases; module docstring), so the private part of
    a strip is a lower set in :math:`\Delta` and one proof at its top decides a whole column: the
    cell :math:`[e_0,e_1]\times[d_0,\Delta_p]` is private when :math:`\varepsilon^*` at its lower
    corner, the parameters of :math:`(e_1,\Delta_p)`, is :math:`\le e_0`, and
    :math:`[e_0,e_1]\times[\Delta_n,d_1]` is not private when a witness shows
    :math:`\varepsilon^*>e_1` at the parameters of :math:`(e_0,\Delta_n)`.  Float estimates place
    :math:`\Delta_p` and :math:`\Delta_n` (bisection in :math:`\ln\Delta` to ``tol``, a margin of
    2% of the strip's width, a step back when a proof fails); the proofs are :func:`decide_cell`'s.
    On a box of one :math:`\Delta` (:math:`d_0=d_1`) the strip is one cell.

    Returns ``{"cells": [...], "open": [D_p, D_n] or None, "seconds": s}``: the decided cells
    (records as :func:`decide_cell`'s, at most two) and the sensitivity interval left open.

    >>> r = decide_strip("20", "81/4", "1", "10000")   # E(20, Delta) = 20 at Delta = 340
    >>> [c["status"] for c in r["cells"]], r["cells"][0]["bound"] <= 20
    (['private', 'not private'], True)
    >>> Dp, Dn = (float(Fraction(x)) for x in r["open"])
    >>> 250 < Dp < 340 < Dn < 450       # the strip is decided but for Delta in [Dp, Dn]
    True
    """
    e0, e1, d0, d1 = (_q(v, n) for v, n in ((e0, "eps"), (e1, "eps"), (d0, "sensitivity"), (d1, "sensitivity")))
    if not (e0 < e1 and d0 <= d1):
        raise ValueError("a strip needs eps0 < eps1 and sensitivity0 <= sensitivity1")
    t0 = time.perf_counter()
    flat = d0 == d1
    xlo, xhi = math.log(d0), math.log(d1)
    fe0, fe1 = float(e0), float(e1)
    mu = 0.02 * (fe1 - fe0) + 1e-6 * max(1.0, fe1)
    cells, dp, dn = [], d0, d1
    # private below: the largest Delta with E(e1, Delta) <= e0 - mu; when the proof fails, step down
    x = _last_at_most(lambda v: _E(fe1, v) - (fe0 - mu), xlo, xhi, tol)
    for step in (0.0, 0.02, 0.1):
        if x is None:
            break
        D = d1 if flat or x - step >= xhi else _snap(x - step, d0, d1)
        if D <= d0 and not flat:
            break
        c = _try_private(e0, e1, d0, D, max_seconds)
        if c is not None:
            cells.append(c)
            dp = D
            break
    if flat and cells:
        return {"cells": cells, "open": None, "seconds": round(time.perf_counter() - t0, 3)}
    # not private above: the smallest Delta with E(e0, Delta) >= e1 + mu; when the proof fails, step up
    y = _first_at_least(lambda v: _E(fe0, v) - (fe1 + mu), math.log(dp), xhi, tol)
    for step in (0.0, 0.02, 0.1):
        if y is None:
            break
        D = d0 if flat or y + step <= xlo else _snap(y + step, dp, d1)
        if D >= d1 and not flat:
            break
        c = _try_not_private(e0, e1, D, d1)
        if c is not None:
            cells.append(c)
            dn = D
            break
    opened = None if (flat and cells) or (not flat and dp >= dn) else [str(dp), str(dn)]
    return {"cells": cells, "open": opened, "seconds": round(time.perf_counter() - t0, 3)}


def check_cell(cell):
    r"""Re-prove a stored cell's claim about Lemma 3's parameters from its box alone.

    The corners are recomputed (:func:`corners`); only the cover points or the witness point are
    taken from the record.  ``"private"`` is re-proved as
    :math:`\varepsilon^*(\text{lower corner})\le e_0` (:func:`check_private`), ``"not private"`` as
    :math:`L(t)>e_1` at the upper corner (:func:`check_witness`).  Returns ``True`` when the
    claim is proved, ``True`` for an ``"undecided"`` cell (it claims nothing), else ``False``.

    >>> c = decide_cell("8", "17/2", "1", "1")
    >>> # the same proof moved to Delta = 100, where E(8.5, 100) = 8.9 > 8: the check fails
    >>> check_cell(c), check_cell(dict(c, sensitivity=["100", "100"]))
    (True, False)
    """
    try:
        e0, e1 = (_q(x, "eps") for x in cell["eps"])
        d0, d1 = (_q(x, "sensitivity") for x in cell["sensitivity"])
        _, lo, hi = _cell_params(e0, e1, d0, d1)
        if cell["status"] == "private":
            return check_private(*lo, e0, cell["proof"]) is not None
        if cell["status"] == "not private":
            return check_witness(*hi, e1, float(cell["witness"]["t"])) is not None
        return cell["status"] == "undecided"
    except (KeyError, TypeError, ValueError, PrecisionError):
        return False
