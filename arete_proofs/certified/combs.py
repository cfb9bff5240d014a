r"""Certified tight epsilon of the combs (MSDLap) and of the Laplace-smoothed lattice laws, in ball arithmetic.

The engines (:mod:`arete_proofs.privacy.tight_discrete`, :mod:`arete_proofs.privacy.tight_lattice`)
compute :math:`\varepsilon^*` over **every** shift :math:`|s| \le \Delta` as a window maximum plus an
exact tail limit, in mpmath.  Here the same arguments are evaluated in python-flint ``arb``/``acb``
balls from the parameters converted **exactly** (decimal strings as rationals), so the result is an
interval :math:`[\mathrm{lo}, \mathrm{hi}] \ni \varepsilon^*` narrower than :math:`10^{-d}`.

**Combs** :math:`Z = \sum_c w_c X_c`, :math:`X_c \sim \mathrm{DLap}(a_c)` (:func:`certify_comb`):

1. *Pole constants as balls*: :math:`B_{c,r} = \frac1{w_c}\sum_j H_c(\rho_c\omega^j)\omega^{-jr}`
   (:mod:`arete_proofs.distributions.comb`) in ``acb``; :math:`p_k = \sum_c \rho_c^{-k} B_{c,k \bmod w_c}`
   is a ball for every window point (the cancellation near :math:`k = 0` is tracked by the balls),
   and the periodic tail profile :math:`C_r = B_{c^*, r}`.
2. *Tail bound*: :math:`C_r - E_k \le p_k e^{\lambda k} \le C_r` with the Chernoff bound
   :math:`E_k = \tanh(a^*/2)\, e^{-\theta k}\, E e^{(\lambda+\theta) Y}` (the other components' mgf in
   closed form), :math:`\theta` an exact rational below the gap of the two least moduli; so for
   :math:`k, j \ge K'` the loss is at most :math:`\ell(r, s) + \eta`, :math:`\eta = -\ln(1 - E_{K'}/\min_r C_r)`.
3. *Tail limit* :math:`L = \max_{r,\ |s| \le \Delta} \ln C_r - \ln C_{(r+s) \bmod w^*} + \lambda s` (balls).
4. *Window* :math:`W = \max_{0 \le k \le K}[\ln p_k - \min_{|j-k| \le \Delta}\ln p_j]`, :math:`K = K' + \Delta`,
   with ``arb`` max/min (enclosures of the max/min of the enclosed values).

Then :math:`\max(W, L) \le \varepsilon^* \le \max(W, L + \eta)`: the interval is the lower end of
the left side and the upper end of the right side.

**Laplace-smoothed lattice** :math:`Z = hM + \mathrm{Laplace}(b)` (:func:`arete_proofs.certified.combs_lattice.certify_lattice_laplace`):
the exact reduction of :mod:`arete_proofs.privacy.tight_lattice` to lattice-point candidates
(cell convexity, monotone ratios), each candidate's loss a ball: the cell sums
:math:`S^L_k, S^R_k` are sums of positive balls over :math:`|j| \le J` plus a ball
:math:`[0, C_{\max} e^{-(h/b+\lambda)(J+1)}/(1 - e^{-(h/b+\lambda)})]` for the rest
(:math:`p_j \le C_{\max} e^{-\lambda |j|}`, item 2); the cell minimum at the clipped stationary point
:math:`u^* = \tfrac b2\ln(S^L/S^R)` is evaluated on a ball that contains the clipped point.  The limit
law :math:`f_\infty` (weights :math:`C_{k \bmod w} e^{-\lambda k}`) has its cell sums in closed form
(geometric series per residue).  Tail bound, for :math:`t` in a cell :math:`n \ge n_0` (:math:`\mu = h/b - \lambda`,
:math:`0 < \theta < \mu`, :math:`E_k \le E_0 e^{-\theta k}`):

.. math::

   \frac{|f - f_\infty|}{f_\infty}(t) \le \rho(n_0) =
   \frac{E_0}{C_{\min}} \frac{e^{-\theta n_0}}{1 - e^{-(\mu - \theta)}}
   + \frac{C_{\max}}{C_{\min}} e^{h/b} \frac{e^{-\mu}}{1 - e^{-\mu}} e^{-\mu n_0},

from :math:`f - f_\infty \ge -E_0\sum_{k \ge 0} e^{-(\lambda+\theta)k} g(t - hk) - \sum_{k<0} C_{\max}e^{\lambda|k|} g(t-hk)`,
:math:`f - f_\infty \le \sum_{k < 0} p_k g(t - hk)` and :math:`f_\infty \ge C_{\min}\sum_{k\ge0} e^{-\lambda k} g(t-hk)`
(the ratio of the two geometric mixtures is at most the larger of the ratios of their parts left and
right of :math:`t`).  With :math:`\eta = -\ln(1-\rho)`, :math:`T = h n_0 + \Delta`:
:math:`\max(W, L) \le \varepsilon^* \le \max(W, L + 2\eta)`.

**Certificates** (:meth:`arete_proofs.certified.comb_balls.CombCertificate.to_json`, :func:`check`): the parameters as exact
strings, the precision, :math:`\theta`, the window (:math:`K'` or :math:`n_0`), the tail constants
and :math:`\eta`, :math:`L`, :math:`W`, the best candidates and the interval.  :func:`check`
recomputes every ball from the parameters with the recorded choices and refuses a certificate whose
interval does not contain the recomputed one, whose constants do not overlap, or whose window is
shorter than the tail bound needs.

**Gaussian smoothing** (``lattice_gauss``): a cover, in :mod:`arete_proofs.certified.combs_gauss`
(proved bounds to a tolerance, no certificate file yet).

>>> r = certify_msdlap("2", 3, 3, digits=12)             # Theorem 16: eps* = a at Delta = m
>>> r.contains(2), r.upper - r.lower < 1e-12
(True, True)
>>> check(r.to_json()).ok
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

from .comb_balls import (CombCertificate, _ball, _comb_parts, _Comb, _default_theta, _digits, _down, _exact,
                         _inside, _int, _precision, _readball, _txt, _up, _ballstr)
from .combs_lattice import certify_lattice

__all__ = ["CheckReport", "certify_comb", "certify_msdlap", "check"]


# -- combs -------------------------------------------------------------------------------------------------------
def certify_comb(weights, rates, Delta, *, digits=12, prec=None, theta=None, K_prime=None, max_window=200_000):
    r"""Certified :math:`\varepsilon^*` of :math:`\sum_c w_c\mathrm{DLap}(a_c)` over every integer shift :math:`|s| \le \Delta` (items 1-4).

    ``theta``, ``K_prime``, ``prec``: the choices (defaults: the shortest window for the
    digits, :math:`\eta(K') < 10^{-(d+3)}`); :func:`check` passes a certificate's.

    >>> r = certify_comb([1, 2], ["1", "1"], 1, digits=12)
    >>> from arete_proofs.privacy.tight_discrete import tight_epsilon_comb
    >>> r.contains(tight_epsilon_comb([1, 2], ["1", "1"], 1, digits=20).epsilon)   # the mpmath engine's value
    True
    """
    t0 = time.perf_counter()
    w, a = _comb_parts(weights, rates)
    D = _int(Delta, "Delta")
    d = _digits(digits)
    p0 = prec or int(3.33 * (d + 15)) + 40 + 4 * sum(math.log2(1 + x) for x in w)
    for attempt in range(6):
        P = int(p0) << attempt
        with _precision(P):
            out = _comb_at(w, a, D, d, P, theta, K_prime, max_window)
        if out is None:
            raise ValueError("the certificate's window is too short for its tail bound (eta not < 1)")
        if Fraction(out.hi) - Fraction(out.lo) < Fraction(1, 10 ** d) or prec is not None:
            out.seconds = time.perf_counter() - t0
            return out
    raise ArithmeticError("certify_comb: the enclosure does not narrow below 10^-digits (raise prec)")


def _comb_at(w, a, D, d, P, theta, K_prime, max_window):
    comb = _Comb(w, a)
    th = _exact(theta, "theta") if theta not in (None, 0, "0") else (
        Fraction(0) if theta is not None else _default_theta(comb))
    E0 = comb.E0(th)
    target = comb.arb(10) ** (-(d + 3))

    def eta(k):
        if len(w) == 1:
            return comb.arb(0)
        x = E0 * (-_ball(th) * k).exp() / comb.cmin
        if not x < 1:
            return None
        return -(-x).log1p()

    if K_prime is None:
        lo, hi = 0, 1
        while not ((e := eta(hi)) is not None and e < target):
            lo, hi = hi, 2 * hi
            if hi > 4 * max_window:
                raise ValueError(f"the window would exceed max_window = {max_window} points")
        while hi - lo > 1:
            mid = (lo + hi) // 2
            e = eta(mid)
            lo, hi = (lo, mid) if e is not None and e < target else (mid, hi)
        Kp = hi
    else:
        Kp = _int(K_prime, "K_prime") if K_prime else 0
    e = eta(Kp)
    if e is None:
        return None
    K = Kp + D
    lnC = [c.log() for c in comb.C]
    ws = comb.w[comb.cs]
    L, Lpair = None, None
    for r in range(ws):
        for s in range(-D, D + 1):
            v = lnC[r] - lnC[(r + s) % ws] + comb.lam * s
            if L is None or v.mid() > L.mid():
                Lpair = [r, s]
            L = v if L is None else L.max(v)
    lp = {}
    for j in range(0, K + D + 1):
        p = comb.p(j)
        if not p > 0:
            raise ArithmeticError(f"p_{j} is not certified positive at {P} bits")
        lp[j] = p.log()
    W, cands = None, []
    for k in range(0, K + 1):
        mn, jm = None, None
        for j in range(k - D, k + D + 1):
            v = lp[abs(j)]
            if mn is None or v.mid() < mn.mid():
                jm = j
            mn = v if mn is None else mn.min(v)
        loss = lp[k] - mn
        cands.append((loss, k, jm))
        W = loss if W is None else W.max(loss)
    cands.sort(key=lambda c: -float(c[0].mid()))
    lower = W.max(L)
    upper = W.max(L + e)
    eps = Lpair if not W.mid() > (L + e).upper() else None
    best = [["tail", Lpair, _ballstr(L)]] if eps is not None else []
    best += [["window", [k, j], _ballstr(v)] for v, k, j in cands[:5]]
    return CombCertificate(
        kind="comb", params={"weights": list(w), "rates": [_txt(x) for x in a]}, Delta=str(D), digits=d, prec=P,
        lo=_down(lower, d + 8), hi=_up(upper, d + 8),
        window={"K_prime": Kp, "K": K},
        tail={"theta": _txt(th), "E0": _ballstr(E0), "eta": _up(e, 6) if e != 0 else "0",
              "lambda": _txt(comb.lam_q), "C": [_ballstr(c) for c in comb.C]},
        tail_limit=_ballstr(L), tail_pair=Lpair, window_max=_ballstr(W), candidates=best,
        epsilon=_inside(lower, upper, d),
        argument="window 0 <= k <= K' + Delta by symmetry (every shift |s| <= Delta), exact tail limit L "
                 "from the dominant poles, Chernoff bound eta past K' (certified.combs items 1-4)")


def certify_msdlap(a, m, Delta, *, digits=12, prec=None, theta=None, K_prime=None):
    r"""Certified :math:`\varepsilon^*` of MSDLap(a, m) :math:`= \sum_{i \le m} i\,\mathrm{DLap}(a)` (Theorem 16: :math:`a` at :math:`\Delta = m`).

    >>> r = certify_msdlap("1.5", 2, 2, digits=12)
    >>> r.contains("1.5")                                   # Theorem 16 holds with equality
    True
    """
    m = _int(m, "m")
    return certify_comb(range(1, m + 1), [a] * m, Delta, digits=digits, prec=prec, theta=theta, K_prime=K_prime)


# -- re-checking ----------------------------------------------------------------------------------------
@dataclass
class CheckReport:
    r"""Result of :func:`check`: ``ok`` (the recomputed enclosure of :math:`\varepsilon^*` lies in the stated one) and ``problems``.

    ``problems`` is empty when ``ok``; ``recomputed`` is the recomputed :class:`arete_proofs.certified.comb_balls.CombCertificate`.

    >>> r = certify_msdlap("2", 2, 1, digits=8)
    >>> doc = r.to_json(); doc["upper"] = doc["lower"]     # a claimed interval of width 0
    >>> check(doc).ok
    False
    """

    ok: bool
    problems: list
    recomputed: object = None


def check(doc):
    r"""Re-check a certificate (``to_json()`` dict): recompute every ball with its recorded choices and compare.

    Refused: a stated interval that does not contain the recomputed enclosure, an ``epsilon``
    outside the stated interval, a window shorter than the tail bound needs (``K < K' + Delta``,
    or :math:`\eta` not below the requested digits), a tail constant, :math:`\eta`, :math:`L` or
    :math:`W` that does not overlap its recomputed ball, an interval wider than :math:`10^{-d}`.

    >>> r = certify_msdlap("2", 3, 3, digits=10)
    >>> doc = r.to_json(); doc["tail"]["C"][0] = "1/3 +/- 0"           # a moved tail constant
    >>> check(doc).ok, check(r.to_json()).ok
    (False, True)
    """
    problems = []
    try:
        kind, pr = doc["kind"], doc["params"]
        prec, d = int(doc["prec"]), int(doc["digits"])
        th = doc["tail"]["theta"]
        if kind == "comb":
            Kp = int(doc["window"]["K_prime"])
            re = certify_comb(pr["weights"], pr["rates"], doc["Delta"], digits=d, prec=prec, theta=th, K_prime=Kp)
            if int(doc["window"]["K"]) < Kp + _int(doc["Delta"], "Delta"):
                problems.append(f"window K = {doc['window']['K']} < K' + Delta = {Kp + int(doc['Delta'])}")
        elif kind == "lattice_laplace":
            re = certify_lattice(pr["weights"], pr["rates"], pr["h"], pr["b"], doc["Delta"], digits=d, prec=prec,
                                 theta=th, n0=int(doc["window"]["n0"]))
            if Fraction(doc["window"]["T"]) < Fraction(re.window["T"]):
                problems.append(f"window T = {doc['window']['T']} shorter than h n0 + Delta = {re.window['T']}")
        else:
            return CheckReport(False, [f"unknown kind {kind!r}"])
    except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
        return CheckReport(False, [f"not recomputable: {exc}"])
    lo, hi = Fraction(doc["lower"]), Fraction(doc["upper"])
    if not (lo <= Fraction(re.lo) and Fraction(re.hi) <= hi):
        problems.append(f"the stated interval [{doc['lower']}, {doc['upper']}] does not contain the recomputed "
                        f"[{re.lo}, {re.hi}]")
    if hi - lo >= Fraction(1, 10 ** d):
        problems.append(f"the interval is not narrower than 10^-{d}")
    if doc.get("epsilon") and not lo <= Fraction(doc["epsilon"]) <= hi:
        problems.append(f"epsilon = {doc['epsilon']} is outside the stated interval")
    with _precision(prec):
        if Fraction(doc["tail"]["eta"]) < Fraction(re.tail["eta"]) or Fraction(doc["tail"]["eta"]) >= \
                Fraction(1, 10 ** (d + 2)):
            problems.append(f"tail bound eta = {doc['tail']['eta']} is not the recomputed {re.tail['eta']} "
                            f"or not below 10^-{d + 2}")
        if len(doc["tail"]["C"]) != len(re.tail["C"]):
            problems.append("the tail profile has the wrong period")
        for r, (s, t) in enumerate(zip(doc["tail"]["C"], re.tail["C"])):
            if not _readball(s).overlaps(_readball(t)):
                problems.append(f"tail constant C_{r} = {s} does not overlap the recomputed {t}")
        for name in ("tail_limit", "window_max"):
            if not _readball(doc[name]).overlaps(_readball(getattr(re, name))):
                problems.append(f"{name} = {doc[name]} does not overlap the recomputed {getattr(re, name)}")
    return CheckReport(not problems, problems, re)
