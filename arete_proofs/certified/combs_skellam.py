r"""Certified tight epsilon of lattice + Skellam, :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)`, in ball arithmetic.

The argument of :mod:`arete_proofs.privacy.tight_skellam` (items 1-5), evaluated in python-flint balls from
the parameters converted **exactly** (decimal strings as rationals):

1. :math:`q_k = p_k e^{\lambda k}` from the comb's pole constants as balls
   (``_Comb`` of :mod:`arete_proofs.certified.comb_balls`, partial fractions), the tail profile :math:`C_r`, and
   the Chernoff constant :math:`E_0` at an exact rational :math:`\theta` (:math:`0 \le C_r - q_k \le E_0 e^{-\theta k}`).
2. The tilted kernel :math:`\tilde s(j) = e^{-2\mu} I_j(2\mu) e^{\lambda' j}`, :math:`|j| \le R` (arb Bessel
   functions), and its neglected tail :math:`\le e^{-\varphi(R+1)}[\mathcal M(\lambda'+\varphi) + \mathcal M(\varphi - \lambda')]`,
   :math:`\mathcal M(t) = e^{2\mu(\cosh t - 1)}`, :math:`\varphi` an exact rational: every :math:`F_n` and
   :math:`F_\infty(t)` is a ball (the truncated sum plus :math:`[0, C_{\max}\cdot\text{tail}]`); the window's
   :math:`F_n` by one ball polynomial product.
3. :math:`G_{\min}` (a lower bound, truncated positive sums), :math:`\rho(N_0)` and
   :math:`\eta = \ln\frac{1+\rho}{1-\rho}` (item 3 of the engine, with exact rationals :math:`\theta`, :math:`\varphi_2`).
4. :math:`W` and :math:`L` from the balls' endpoints: a sliding minimum over :math:`|j| \le \Delta` of the lower
   ends, and of the upper ends, on float64 values rounded outward (one ulp), the final differences
   widened by :math:`10^{-12}` (more than the rounding :math:`|x - y|\,2^{-53}` of one float64 subtraction whose
   result is below :math:`10^3`, checked).

Then :math:`\max(W, L) \le \varepsilon^* \le \max(W, L + \eta)`.  The certificate
(:class:`arete_proofs.certified.comb_balls.CombCertificate`, kind ``"lattice_skellam"``) records the exact
parameters, the precision, :math:`\theta`, :math:`\varphi`, :math:`R`, :math:`K'`, the tail constants and
:math:`\eta`, :math:`L`, :math:`W`; :func:`check` recomputes them and refuses an edited one.

>>> r = certify_lattice_skellam("1", 2, "0.7", 3, 6, digits=10)
>>> from arete_proofs.privacy.tight_skellam import tight_epsilon_lattice_skellam
>>> r.contains(tight_epsilon_lattice_skellam("1", 2, "0.7", 3, 6, digits=20).epsilon), r.upper - r.lower < 1e-10
(True, True)
>>> check(r.to_json()).ok
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

from .._workload import check_work
from .comb_balls import (
    CombCertificate,
    _ball,
    _ballstr,
    _Comb,
    _comb_parts,
    _default_theta,
    _digits,
    _down,
    _exact,
    _inside,
    _int,
    _precision,
    _readball,
    _txt,
    _up,
)

__all__ = ["SkellamCheck", "certify_lattice_skellam", "check"]

#: float64 rounding allowance of the window's and the tail's final differences (results below 1e3)
_ROUND = Fraction(1, 10 ** 12)


def _rational(x, den=10 ** 6):
    return Fraction(math.floor(x * den), den) if x > 0 else Fraction(0)


def _phi(N, mu_f, lam_tq):
    """An exact rational near the Chernoff minimiser max(asinh(N / 2 mu) - lambda', 1e-3) (any phi > 0 is valid)."""
    return _rational(max(math.asinh(N / (2 * mu_f)) - float(lam_tq), 1e-3))


def _M(t, mu2):
    """E e^{tS} = exp(2 mu (cosh t - 1)), ``mu2`` = 2 mu as a ball."""
    return (mu2 * (t.cosh() - 1)).exp()


def _tail(R, phi, mu2, lam_t):
    p = _ball(phi)
    return (-p * (R + 1)).exp() * (_M(lam_t + p, mu2) + _M(p - lam_t, mu2))


def _down_f(x):
    return math.nextafter(float(x.lower()), -math.inf)


def _up_f(x):
    return math.nextafter(float(x.upper()), math.inf)


def _sliding(lo, hi, Delta, count, offset):
    """(max_t lo[t] - min hi[t +- Delta], max_t hi[t] - min lo[t +- Delta]) over t = offset..offset+count-1 and the argmax."""
    import numpy as np
    from scipy import ndimage

    lo, hi = np.asarray(lo), np.asarray(hi)
    mlo = ndimage.minimum_filter1d(lo, size=2 * Delta + 1, mode="nearest")
    mhi = ndimage.minimum_filter1d(hi, size=2 * Delta + 1, mode="nearest")
    sl = slice(offset, offset + count)
    a = lo[sl] - mhi[sl]
    b = hi[sl] - mlo[sl]
    i = int(np.argmax(b))
    return float(a.max()), float(b.max()), i


#: Most R^2 units of the kernel's work in :func:`_at` (about 6e-6 s each: one hour).
_MAX_KERNEL_WORK = 6e8


def certify_lattice_skellam(a, m, mu, h, Delta, *, digits=8, prec=None, theta=None, phi=None, R=None,
                            K_prime=None, _variant=None):
    r"""Certified :math:`\varepsilon^*` of :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)` over every integer shift :math:`|s| \le \Delta`.

    ``theta``, ``phi`` (exact rationals), ``R``, ``K_prime``, ``prec``: the choices (defaults: the
    shortest window with :math:`\eta < 10^{-(d+3)}`); :func:`check` passes a certificate's.
    ``_variant``: a deliberately broken argument for the tests (``"plus_only"``: only the shift
    :math:`+\Delta`; ``"no_tail"``: the window without the tail limit).

    >>> r = certify_lattice_skellam("2", 1, "0.5", 1, 1, digits=10)
    >>> r.contains(2), r.tail_pair                  # DLap(2) + Skellam at Delta = 1: eps* = a, the tail limit
    (True, [0, 1])
    """
    t0 = time.perf_counter()
    w, ar = _comb_parts(range(1, _int(m, "m") + 1), [a] * _int(m, "m"))
    m, h, D = len(w), _int(h, "h"), _int(Delta, "Delta")
    muq = _exact(mu, "mu")
    d = _digits(digits)
    P = int(prec) if prec else int(3.33 * (d + 20) + 60 + 4 * sum(math.log2(1 + x) for x in w))
    for attempt in range(5):
        with _precision(P):
            out = _at(w, ar[0], muq, h, D, d, P, theta, phi, R, K_prime, _variant)
        if out is None:
            raise ValueError("the certificate's window is too short for its tail bound (rho not < 1)")
        if Fraction(out.hi) - Fraction(out.lo) < Fraction(1, 10 ** d) or prec is not None:
            out.seconds = time.perf_counter() - t0
            return out
        P *= 2
    raise ArithmeticError("certify_lattice_skellam: the enclosure does not narrow below 10^-digits (raise prec)")


def _at(w, aq, muq, h, D, d, P, theta, phi, R, K_prime, variant):
    from flint import arb, arb_poly

    m = len(w)
    comb = _Comb(w, (aq,) * m)
    th = Fraction(theta) if theta is not None else _default_theta(comb)
    E0 = comb.E0(th)
    lam_tq = aq / (m * h)
    lam_t, lam = _ball(lam_tq), comb.lam
    mu2 = _ball(2 * muq)
    mu_f = float(muq)
    if R is None:
        R = math.ceil(2 * mu_f * math.sinh(float(lam_tq)) + 14 * math.sqrt(2 * mu_f) + 40)
        while True:      # the kernel's tail below 10^-(d+25) of cmin e^{-2 lam' h}
            ph = _phi(R + 1, mu_f, lam_tq)
            if float(_tail(R, ph, mu2, lam_t).mid()) < 10.0 ** (-(d + 25)) * float(comb.cmin.mid()) * \
                    math.exp(-2 * float(lam_tq) * h):
                break
            R = int(R * 1.3) + 10
    R = int(R)
    # the kernel's 2R + 1 Bessel balls and the window's sums over them: about R^2 products (mu = 1000, R = 2.5e3: 38 s)
    check_work("the certificate's Skellam kernel", float(R) ** 2, _MAX_KERNEL_WORK, "kernel-window products",
               seconds_each=6e-6, grows_with="mu (the kernel's radius about 2 mu sinh(a/(m h)) + 14 sqrt(2 mu))")
    ph_k = _phi(R + 1, mu_f, lam_tq)
    ktail = comb.cmax * _tail(R, ph_k, mu2, lam_t)
    e2 = (-mu2).exp()
    x2 = mu2
    ker = [x2.bessel_i(abs(j)) * e2 * (lam_t * j).exp() for j in range(-R, R + 1)]
    Gs = []
    for t in range(h):
        g = arb(0)
        for k in range(-((R - t) // h), (t + R) // h + 1):
            g += ker[t - h * k + R]
        Gs.append(g)
    Gmin = Gs[0]
    for g in Gs[1:]:
        Gmin = Gmin.min(g)
    Gmin_lo = arb(Gmin.lower())
    den = comb.cmin * Gmin_lo
    thb, hb = _ball(th), arb(h)

    def rho(n, ph2):
        first = E0 * (-thb * n / hb).exp() * _M(lam_t + thb / hb, mu2) if m > 1 else arb(0)
        p2 = _ball(ph2)
        second = comb.cmax * (-p2 * (n + h)).exp() * _M(lam_t + p2, mu2)
        return (first + second) / den

    def eta(n, ph2):
        r = rho(n, ph2)
        if not r < 1:
            return None
        return (r.log1p() - (-r).log1p())

    target = arb(10) ** (-(d + 3))
    if K_prime is None:
        lo, hi = 0, h
        while True:
            e = eta(hi, _phi(hi + h, mu_f, lam_tq))
            if e is not None and e < target:
                break
            lo, hi = hi, 2 * hi
            if hi > 10 ** 7:
                raise ValueError("the window would exceed 10^7 points")
        while hi - lo > 1:
            mid = (lo + hi) // 2
            e = eta(mid, _phi(mid + h, mu_f, lam_tq))
            lo, hi = (lo, mid) if e is not None and e < target else (mid, hi)
        Kp = hi
    else:
        Kp = int(K_prime)
    ph2 = Fraction(phi) if phi is not None else _phi(Kp + h, mu_f, lam_tq)
    e = eta(Kp, ph2)
    if e is None and variant == "no_tail":
        e = arb(0)
    if e is None:
        return None
    K = Kp + D
    # -- the window: F_n, n = 0..K + Delta, by one ball polynomial product
    k_lo, k_hi = -((R - 0) // h) - 1, (K + D + R) // h + 1
    qc = [arb(0)] * (h * (k_hi - k_lo) + 1)
    for i, k in enumerate(range(k_lo, k_hi + 1)):
        qc[h * i] = comb.p(k) * (lam * k).exp()
    prod = arb_poly(qc) * arb_poly(ker)
    base = h * k_lo - R
    add = arb(0).union(ktail)
    lo_w, hi_w = [], []
    for n in range(K + D + 1):
        F = prod[n - base] + add
        if not F > 0:
            raise ArithmeticError(f"F_{n} is not certified positive at {P} bits")
        v = F.log() - lam_t * n
        lo_w.append(_down_f(v))
        hi_w.append(_up_f(v))
    ext_lo = lo_w[1:D + 1][::-1] + lo_w           # n = -Delta..K+Delta (f(-n) = f(n))
    ext_hi = hi_w[1:D + 1][::-1] + hi_w
    if variant == "plus_only":                     # broken: only the shift +Delta
        Wl = max(lo_w[n] - hi_w[n + D] for n in range(K + 1))
        Wh = max(hi_w[n] - lo_w[n + D] for n in range(K + 1))
        iw = 0
    else:
        Wl, Wh, iw = _sliding(ext_lo, ext_hi, D, K + 1, D)
    # -- the tail limit on one period
    per = h * m
    lo_t, hi_t = [], []
    lnF = []
    for t in range(per):
        s = arb(0)
        for k in range(-((R - t) // h), (t + R) // h + 1):
            s += comb.C[k % m] * ker[t - h * k + R]
        lnF.append((s + add).log())
    for t in range(-D, per + D):
        v = lnF[t % per] - lam_t * t
        lo_t.append(_down_f(v))
        hi_t.append(_up_f(v))
    if variant == "plus_only":
        Ll = max(lo_t[t + D] - hi_t[t + 2 * D] for t in range(per))
        Lh = max(hi_t[t + D] - lo_t[t + 2 * D] for t in range(per))
        it, s_t = 0, D
    else:
        Ll, Lh, it = _sliding(lo_t, hi_t, D, per, D)
        import numpy as np
        row = np.asarray(lo_t[it:it + 2 * D + 1])
        s_t = int(np.argmin(row)) - D
    if not max(abs(Wl), abs(Wh), abs(Ll), abs(Lh)) < 1e3:
        raise ArithmeticError("the loss exceeds 1e3: the float64 rounding allowance does not cover it")
    rnd = _ball(_ROUND)
    W = _ball(Fraction(Wl)).union(_ball(Fraction(Wh))) + (-rnd).union(rnd)
    L = _ball(Fraction(Ll)).union(_ball(Fraction(Lh))) + (-rnd).union(rnd)
    if variant == "no_tail":                       # broken: the window alone
        lower, upper = W, W
    else:
        lower, upper = W.max(L), W.max(L + e)
    attained = W.lower() > (L + e).upper()
    best = [] if attained else [["tail", [it, s_t], _ballstr(L)]]
    best += [["window", [iw, None], _ballstr(W)]]
    return CombCertificate(
        kind="lattice_skellam", params={"a": _txt(aq), "m": m, "mu": _txt(muq), "h": h}, Delta=str(D), digits=d,
        prec=P, lo=_down(lower, d + 8), hi=_up(upper, d + 8),
        window={"K_prime": Kp, "K": K, "R": R},
        tail={"theta": _txt(th), "phi": _txt(ph2), "phi_kernel": _txt(ph_k), "E0": _ballstr(E0),
              "eta": _up(e, 6) if e != 0 else "0", "lambda": _txt(comb.lam_q), "Gmin": _ballstr(Gmin_lo),
              "C": [_ballstr(c) for c in comb.C]},
        tail_limit=_ballstr(L), tail_pair=[it, s_t], window_max=_ballstr(W), candidates=best,
        epsilon=_inside(lower, upper, d),
        argument="window 0 <= n <= K' + Delta by symmetry (every shift |s| <= Delta), exact periodic tail limit "
                 "L of the tilted law, bound eta = ln((1+rho)/(1-rho)) past K' (certified.combs_skellam items 1-4)"
                 + (f" [BROKEN VARIANT {variant}]" if variant else ""))


@dataclass
class SkellamCheck:
    r"""Result of :func:`check`: ``ok`` (the recomputed enclosure of :math:`\varepsilon^*` lies in the stated one) and ``problems``.

    >>> r = certify_lattice_skellam("2", 1, "0.5", 1, 1, digits=8)
    >>> doc = r.to_json(); doc["upper"] = doc["lower"]          # a claimed interval of width 0
    >>> check(doc).ok
    False
    """

    ok: bool
    problems: list
    recomputed: object = None


def check(doc):
    r"""Re-check a lattice + Skellam certificate (``to_json()`` dict): recompute with its recorded choices and compare.

    Refused: a stated interval that does not contain the recomputed one, an ``epsilon`` outside it, a window
    shorter than ``K' + Delta``, an :math:`\eta` below the recomputed or not below :math:`10^{-(d+2)}`, a tail
    constant, :math:`L` or :math:`W` that does not overlap its recomputed ball, an interval wider than :math:`10^{-d}`.

    >>> r = certify_lattice_skellam("1", 2, "0.7", 3, 6, digits=8)
    >>> doc = r.to_json(); doc["tail"]["C"][0] = "1/3 +/- 0"           # a moved tail constant
    >>> check(doc).ok, check(r.to_json()).ok
    (False, True)
    """
    problems = []
    try:
        if doc["kind"] != "lattice_skellam":
            return SkellamCheck(False, [f"unknown kind {doc['kind']!r}"])
        pr, wd, tl = doc["params"], doc["window"], doc["tail"]
        d, prec = int(doc["digits"]), int(doc["prec"])
        re = certify_lattice_skellam(pr["a"], pr["m"], pr["mu"], pr["h"], doc["Delta"], digits=d, prec=prec,
                                     theta=tl["theta"], phi=tl["phi"], R=int(wd["R"]), K_prime=int(wd["K_prime"]))
        if int(wd["K"]) < int(wd["K_prime"]) + _int(doc["Delta"], "Delta"):
            problems.append(f"window K = {wd['K']} < K' + Delta")
        lo, hi = Fraction(doc["lower"]), Fraction(doc["upper"])
    except (KeyError, TypeError, ValueError, ArithmeticError, ZeroDivisionError) as exc:
        return SkellamCheck(False, [f"not recomputable: {exc}"])
    if not (lo <= Fraction(re.lo) and Fraction(re.hi) <= hi):
        problems.append(f"the stated interval [{doc['lower']}, {doc['upper']}] does not contain the recomputed "
                        f"[{re.lo}, {re.hi}]")
    if hi - lo >= Fraction(1, 10 ** d):
        problems.append(f"the interval is not narrower than 10^-{d}")
    if doc.get("epsilon") and not lo <= Fraction(doc["epsilon"]) <= hi:
        problems.append(f"epsilon = {doc['epsilon']} is outside the stated interval")
    if "BROKEN" in doc.get("argument", ""):
        problems.append("the certificate says it was made by a broken variant")
    with _precision(prec):
        if Fraction(tl["eta"]) < Fraction(re.tail["eta"]) or Fraction(tl["eta"]) >= Fraction(1, 10 ** (d + 2)):
            problems.append(f"tail bound eta = {tl['eta']} is not the recomputed {re.tail['eta']} or not below "
                            f"10^-{d + 2}")
        if len(tl["C"]) != len(re.tail["C"]):
            problems.append("the tail profile has the wrong period")
        for r, (s, t) in enumerate(zip(tl["C"], re.tail["C"])):
            if not _readball(s).overlaps(_readball(t)):
                problems.append(f"tail constant C_{r} = {s} does not overlap the recomputed {t}")
        for name in ("tail_limit", "window_max"):
            if not _readball(doc[name]).overlaps(_readball(getattr(re, name))):
                problems.append(f"{name} = {doc[name]} does not overlap the recomputed {getattr(re, name)}")
    return SkellamCheck(not problems, problems, re)
