r"""Least :math:`E|Z|` (or variance) of lattice + Skellam at a target epsilon, integer :math:`\Delta`.

The family :math:`Z = h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)` (:mod:`arete_proofs.distributions.lattice_skellam`),
:math:`h` a positive integer near :math:`\Delta/m`.  The loss is over every integer shift
:math:`|s| \le \Delta` (:mod:`arete_proofs.privacy.tight_skellam`):
:math:`\varepsilon^* = \sup_n [\ln f(n) - \min_{|j| \le \Delta} \ln f(n+j)]`.

**The float64 estimator** (:func:`estimate`): the tilted pmf :math:`q_k = p_k e^{\lambda k}` of MSDLap
(:func:`arete_proofs.privacy.optimize_lattice.tilted_pmf`, :math:`\lambda = a/m`) placed on :math:`h\mathbb Z` and
convolved with the tilted Skellam kernel :math:`\tilde s(j) = e^{-2\mu}I_j(2\mu)e^{\lambda' j}`, :math:`\lambda' = \lambda/h`,
gives (an FFT, kept when its values span less than :math:`10^6`, else a direct convolution of positive terms)
:math:`F_n = f(n)e^{\lambda' n}` on :math:`0 \le n \le T` (:math:`T` where :math:`q` has reached its periodic
profile to :math:`10^{-12}`); the window maximum is a sliding minimum over :math:`|j| \le \Delta` (exact on the
integers: no refinement), the tail limit the same on one period :math:`hm` of the limit law
:math:`F_\infty(t) = \sum_k C_{k \bmod m}\tilde s(t - hk)`; the estimate is the larger.

**The search** (:func:`optimize`): for each :math:`m` of a small set and :math:`h = \mathrm{round}(\Delta/m)`
(and :math:`\lceil \Delta/m \rceil` when :math:`hm < \Delta`; for :math:`\Delta \le 100` also :math:`m = \Delta`, :math:`h = 1`, where
:math:`\mu \to 0` is MSDLap with :math:`\varepsilon^* \le a` exactly, Theorem 16), the free coordinate is :math:`a < \varepsilon\,hm/\Delta`;
:math:`\mu` is the smallest with the estimate at :math:`\varepsilon(1 - \text{margin})` (bisection on :math:`\ln\mu`:
:math:`\varepsilon^*` is nonincreasing in :math:`\mu`, since :math:`\mathrm{Sk}(\mu') = \mathrm{Sk}(\mu) + \mathrm{Sk}(\mu'-\mu)` is post-processing).
Then the optimum is certified (the caller passes :func:`arete_proofs.certified.combs_skellam.certify_lattice_skellam`),
:math:`\mu` raised until the certificate's upper end is at most :math:`\varepsilon`.

>>> e = estimate_epsilon(2.0, 1, 0.3, 1, 1)        # h = m = 1: DLap(2) + Skellam, eps* = a
>>> abs(e - 2) < 1e-12
True
"""

from __future__ import annotations

import math
import time

import numpy as np

__all__ = ["MARGIN", "MU_FLOOR", "M_CHOICES", "UNRELIABLE", "VARIANCE_M", "estimate", "estimate_epsilon", "mean_abs", "optimize", "solve_mu", "variance"]

#: the estimate is solved at eps (1 - MARGIN) so that the certified value lands below eps
MARGIN = 2e-7

#: the estimate's value when a tilted value underflows (the teeth do not overlap), or, on the FFT path (long
#: tables), when they span more than 1e11 (below the FFT's rounding)
UNRELIABLE = 1e3

#: the variance objective tries m = c e^{eps/3} for c in this tuple (as privacy.optimize_lattice.VARIANCE_M)
VARIANCE_M = (0.65, 0.9, 1.25)

#: the least mu tried (E|S| = 2 mu e^{-2 mu}(I_0 + I_1)(2 mu) ~ 2 mu is negligible next to DLap(10)'s 9e-5)
MU_FLOOR = 1e-12

#: lattice sizes m tried at a target eps (nearest key; capped at Delta), from the continuous frontier's optima
M_CHOICES = {2: (1, 2, 3), 3: (2, 3, 4), 4: (3, 5, 7), 5: (5, 8, 11), 6: (8, 12, 16), 7: (12, 18, 24),
             8: (24, 32, 40), 9: (30, 40, 50, 64), 10: (30, 40, 50, 70, 90)}


def _kernel(mu, lam_t, extra=0):
    from scipy import special

    R = math.ceil(2 * mu * math.sinh(lam_t) + 14 * math.sqrt(2 * mu * math.cosh(lam_t)) + 40) + extra
    j = np.arange(-R, R + 1)
    iv = special.ive(np.abs(j), 2 * mu)
    with np.errstate(divide="ignore"):
        return R, np.where(iv > 0, np.exp(np.log(iv) + lam_t * j), 0.0)      # no inf * 0 at large lam' j


def _q(a, m):
    from .optimize_lattice import tilted_pmf

    q, k0 = tilted_pmf(float(a), int(m))
    qpos = q[k0:]
    N = qpos.size - 1
    base = (N - m + 1) // m * m
    return qpos, qpos[base:base + m].copy(), N


def estimate(a, m, mu, h, Delta):
    r"""float64 estimate of :math:`\varepsilon^*` (module docstring): a dict with ``epsilon``, ``window``, ``tail``, their pairs, ``T``.

    >>> r = estimate(1.0, 2, 0.7, 3, 6)
    >>> abs(r["epsilon"] - 1.2906082517426649) < 1e-9           # the exact engine (tight_skellam), 16 digits
    True
    """
    from scipy import ndimage, signal

    a, m, mu, h, Delta = float(a), int(m), float(mu), int(h), int(Delta)
    if not (a > 0 and m >= 1 and mu > 0 and h >= 1 and Delta >= 1):
        raise ValueError(f"need a > 0, m >= 1, mu > 0, h >= 1, Delta >= 1; got a={a}, m={m}, mu={mu}, h={h}, "
                         f"Delta={Delta}")
    lam = a / m
    lam_t = lam / h
    qpos, C, N = _q(a, m)
    R, ker = _kernel(mu, lam_t)
    T = max(h * (N - 2 * m), 4 * Delta + 2 * R + 2 * h * m) - R - Delta   # past N - 2m, q is its profile
    # F_n, n = 0..T + Delta: k from -(R // h + 1) to (T + Delta + R) // h + 1
    k_lo, k_hi = -(R // h + 1), (T + Delta + R) // h + 1
    ks = np.arange(k_lo, k_hi + 1)
    ka = np.abs(ks)
    qa = np.where(ka <= N, qpos[np.clip(ka, 0, N)], C[np.mod(ka, m)])
    qk = np.where(ks >= 0, qa, qa * np.exp(-2 * lam * ka))
    lat = np.zeros(h * (k_hi - k_lo) + 1)
    lat[::h] = qk
    # FFT first (absolute rounding ~1e-16 of the largest value): kept when the values it gives span less
    # than 1e6 (relative error below 1e-10); else the direct convolution (positive sums: relative accuracy)
    full = signal.fftconvolve(lat, ker)
    big = lat.size * ker.size > 4e8
    base = h * k_lo - R                          # full[i] is n = base + i
    n = np.arange(0, T + Delta + 1)
    Fn = full[n - base]
    if not Fn.min() > 1e-6 * Fn.max() and not big:
        full = np.convolve(lat, ker)
        Fn = full[n - base]
    if not Fn.min() > (1e-11 * Fn.max() if big else 0):     # gaps between the teeth (mu too small)
        return {"epsilon": UNRELIABLE, "window": UNRELIABLE, "tail": UNRELIABLE, "window_at": None, "tail_at": None,
                "T": T}
    lf = np.log(Fn) - lam_t * n
    ext = np.concatenate([lf[1:Delta + 1][::-1], lf])      # n = -Delta..T+Delta (f(-n) = f(n))
    mn = ndimage.minimum_filter1d(ext, size=2 * Delta + 1, mode="nearest")
    loss = ext[Delta:Delta + T + 1] - mn[Delta:Delta + T + 1]
    i = int(np.argmax(loss))
    W = float(loss[i])
    # the limit law on one period, extended by Delta each side
    per = h * m
    P = np.zeros(per)
    P[::h] = C
    wrapped = np.zeros(per)                      # the kernel folded onto one period: F_inf is a circular convolution
    np.add.at(wrapped, np.mod(np.arange(-R, R + 1), per), ker)
    Finf = np.real(np.fft.ifft(np.fft.fft(P) * np.fft.fft(wrapped)))
    if not Finf.min() > 1e-6 * Finf.max():
        reps = R // per + 2
        tiled = np.tile(P, 2 * reps + 1)             # t = -reps per .. (reps + 1) per - 1
        conv = np.convolve(tiled, ker, mode="same")  # odd kernel, centred: conv[i] = sum_j ker[j + R] tiled[i - j]
        Finf = conv[reps * per: reps * per + per]
    t = np.arange(-Delta, per + Delta)
    lfi = np.log(Finf[np.mod(t, per)]) - lam_t * t
    mni = ndimage.minimum_filter1d(lfi, size=2 * Delta + 1, mode="nearest")
    li = lfi[Delta:Delta + per] - mni[Delta:Delta + per]
    j = int(np.argmax(li))
    L = float(li[j])
    return {"epsilon": max(W, L), "window": W, "tail": L, "window_at": i, "tail_at": j, "T": T}


def estimate_epsilon(a, m, mu, h, Delta):
    r"""The float64 estimate of :math:`\varepsilon^*` (:func:`estimate`'s ``epsilon``).

    >>> estimate_epsilon(3.0, 2, 2.0, 3, 6) < estimate_epsilon(3.0, 2, 1.0, 3, 6)       # more smoothing, less loss
    True
    """
    return estimate(a, m, mu, h, Delta)["epsilon"]


def variance(a, m, mu, h):
    r""":math:`\operatorname{Var} Z = h^2 S_2(m)/(\cosh a - 1) + 2\mu` (float; :math:`S_2(m) = m(m+1)(2m+1)/6`).

    >>> variance(1.0, 1, 0.5, 1) == 1 / (math.cosh(1.0) - 1) + 1.0
    True
    """
    return h * h * m * (m + 1) * (2 * m + 1) / 6 / (math.cosh(a) - 1) + 2 * mu


def mean_abs(a, m, mu, h):
    r""":math:`E|Z|` from the characteristic function (float64; Fejér's identity as :func:`arete_proofs.privacy.optimize_discrete.msdlap_mean_abs`).

    :math:`\varphi(t) = \prod_{i\le m}\frac{\cosh a - 1}{\cosh a - \cos iht}\,e^{-2\mu(1 - \cos t)}`,
    :math:`E|Z| = \frac1N[\operatorname{Var}Z + \sum_{j=1}^{N-1}\frac{1 - \varphi(t_j)}{1 - \cos t_j}]` plus the aliasing
    excess :math:`\le 4Me^{-\theta N}/(e\theta(1 - e^{-\theta N}))`, :math:`\theta = \lambda'/2`,
    :math:`M = E e^{\theta Z}` (:math:`N` makes it below :math:`10^{-13}(1 - \tanh(a/2)) \le 10^{-13} E|Z|`).

    >>> from arete_proofs.distributions.lattice_skellam import lattice_skellam_mean_abs
    >>> abs(mean_abs(2.0, 2, 0.7, 3) / float(lattice_skellam_mean_abs(2, 2, "0.7", 3, digits=16)) - 1) < 1e-11
    True
    """
    a, m, mu, h = float(a), int(m), float(mu), int(h)
    ch1 = math.cosh(a) - 1
    th = a / m / h / 2
    logM = sum(math.log(ch1) - math.log(math.cosh(a) - math.cosh(i * h * th)) for i in range(1, m + 1)) \
        + 2 * mu * (math.cosh(th) - 1)
    target = 1e-13 * (1 - math.tanh(a / 2))
    N = math.ceil((logM + math.log(4 / (math.e * th * target)) + 1) / th) + 1
    i = np.arange(1, m + 1, dtype=float)
    total, chunk = 0.0, max(1, 2_000_000 // m)
    for j0 in range(1, N // 2 + 1, chunk):
        j = np.arange(j0, min(j0 + chunk, N // 2 + 1), dtype=float)
        t = 2 * np.pi * j / N
        s = np.sin(np.outer(t, i) * h / 2)
        logphi = -np.log1p(2 * s * s / ch1).sum(axis=1) - 4 * mu * np.sin(t / 2) ** 2
        w = np.where((N % 2 == 0) & (j == N // 2), 1.0, 2.0)
        total += float((w * (-np.expm1(logphi)) / (2 * np.sin(t / 2) ** 2)).sum())
    return (variance(a, m, mu, h) + total) / N


def solve_mu(target, a, m, h, Delta, *, rtol=1e-9):
    r"""The smallest :math:`\mu` with :func:`estimate_epsilon` :math:`\le` ``target`` (bisection on :math:`\ln\mu`), or ``None``.

    ``None`` when even :math:`\mu = 2h^2` misses it (:math:`a` too large: the tail limit is at least :math:`a` at
    :math:`hm \le \Delta`); :data:`MU_FLOOR` when that already meets it (no smoothing needed, e.g. DLap at :math:`h = 1`).

    >>> mu = solve_mu(1.3, 1.0, 2, 3, 6)
    >>> abs(estimate_epsilon(1.0, 2, mu, 3, 6) - 1.3) < 1e-7
    True
    """
    from scipy import optimize as so

    def g(u):
        return estimate_epsilon(a, m, math.exp(u), h, Delta) - target

    lo = math.log(MU_FLOOR)
    if g(lo) <= 0:
        return MU_FLOOR
    hi = math.log(2.0 * h * h + 1) if h > 1 else math.log(2.0)
    if g(hi) > 0:
        return None
    return math.exp(so.brentq(g, lo, hi, xtol=rtol))


def _value(objective, a, m, mu, h):
    return mean_abs(a, m, mu, h) if objective == "mean_abs" else variance(a, m, mu, h)


def _candidates(eps, Delta, m_choices=None, objective="mean_abs"):
    key = min(M_CHOICES, key=lambda e: abs(e - eps))
    if m_choices is None and objective == "variance":     # the continuous variance optima: m ~ c e^{eps/3}
        m_choices = sorted({max(1, round(c * math.exp(eps / 3))) for c in VARIANCE_M})
    ms = {min(x, Delta) for x in (m_choices or M_CHOICES[key])}
    if m_choices is None and Delta <= 100:
        ms.add(Delta)               # h = 1: MSDLap itself as mu -> 0 (Theorem 16 at a = eps)
    ms = sorted(ms)
    out = []
    for m in ms:
        hs = {max(1, round(Delta / m))}
        if max(1, round(Delta / m)) * m < Delta:
            hs.add(-(-Delta // m))
        out += [(m, h) for h in sorted(hs)]
    return out


def _best_a(eps, m, h, Delta, objective, margin, points, golden, log):
    """Minimise the objective over a in (0, a_max) at mu = solve_mu(a): a grid in u = ln(a_max - a), then golden section."""
    tgt = eps * (1 - margin)
    a_max = eps * h * m / Delta * (1 - 1e-6)       # the shift s = hm <= Delta alone gives eps* >= a
    cache = {}

    def at(u):
        if u not in cache:
            a = a_max - math.exp(u)
            try:
                mu = solve_mu(tgt, a, m, h, Delta) if a > 0 else None
            except ValueError:      # e.g. the tilted table's spread at large m and small a: this a only
                mu = None
            cache[u] = (math.inf, None) if mu is None else (_value(objective, a, m, mu, h), (a, mu))
            log(f"  m={m} h={h} a={a_max - math.exp(u):.6g}: {cache[u]}")
        return cache[u][0]

    us = np.linspace(math.log(a_max * 1e-7), math.log(a_max * 0.5), points)
    vals = [at(u) for u in us]
    i = int(np.argmin(vals))
    if not math.isfinite(vals[i]):
        return None
    lo, hi = us[max(i - 1, 0)], us[min(i + 1, len(us) - 1)]
    gr = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - gr * (hi - lo), lo + gr * (hi - lo)
    for _ in range(golden):
        if at(x1) < at(x2):
            hi, x2 = x2, x1
            x1 = hi - gr * (hi - lo)
        else:
            lo, x1 = x1, x2
            x2 = lo + gr * (hi - lo)
    best = min(cache.values(), key=lambda v: v[0])
    return best[0], best[1]


def optimize(eps, Delta, *, objective="mean_abs", m_choices=None, margin=MARGIN, points=6, golden=8,
             certify=None, digits=8, progress=None):
    r"""The least-``objective`` lattice + Skellam at integer ``Delta`` with (certified) :math:`\varepsilon^* \le \varepsilon`.

    A dict: ``a``, ``m``, ``h``, ``mu`` (floats; ``params`` the exact decimal strings), ``mean_abs``, ``variance``,
    ``estimate``, ``scan`` (the best of each (m, h)).  ``certify``: a certifier
    ``certify(a, m, mu, h, Delta, digits=...)`` returning a certificate with ``upper``, ``lo``, ``hi`` and ``to_json()``
    (:func:`arete_proofs.certified.combs_skellam.certify_lattice_skellam`, passed in by the caller: the
    certified layer is above this one); then also the certificate, ``certified``, ``lower``/``upper`` and
    ``mu_raised`` (:math:`\mu` raised by factors :math:`1 + 10^{-6+i}` until the upper end is at most
    :math:`\varepsilon`).  ``progress``: a callable for status lines.

    >>> o = optimize(2, 1, points=3, golden=2)         # Delta = 1: DLap(eps), mu -> 0
    >>> o["m"], o["h"], abs(o["a"] - 2) < 1e-3, o["mu"] <= 1e-6
    (1, 1, True, True)
    """
    if objective not in ("mean_abs", "variance"):
        raise ValueError(f"objective must be 'mean_abs' or 'variance', got {objective!r}")
    eps, Delta = float(eps), int(Delta)
    if not eps > 0 or Delta < 1:
        raise ValueError(f"need eps > 0 and an integer Delta >= 1, got eps={eps}, Delta={Delta}")
    log = progress or (lambda s: None)
    t0 = time.perf_counter()
    scan = []
    for m, h in _candidates(eps, Delta, m_choices, objective):
        try:
            r = _best_a(eps, m, h, Delta, objective, margin, points, golden, log)
        except ValueError as exc:       # e.g. the tilted table's spread at large m
            log(f"  m={m} h={h}: skipped ({exc})")
            continue
        if r is not None and r[1] is not None:
            scan.append((r[0], m, h, r[1][0], r[1][1]))
    if m_choices is None and Delta <= 100 and not any(s[1] == Delta and s[2] == 1 for s in scan):
        # MSDLap(a, Delta) + Sk(mu) at h = 1: eps* <= a exactly (Theorem 16's coupling, then post-processing), so
        # a = eps (1 - 1e-6), mu = MU_FLOOR is admissible without the float64 table (which m = Delta may overflow)
        a = eps * (1 - 1e-6)
        scan.append((_value(objective, a, Delta, MU_FLOOR, 1), Delta, 1, a, MU_FLOOR))
        log(f"  m={Delta} h=1: Theorem 16 point a = {a}, mu = {MU_FLOOR}")
    if not scan:
        raise ValueError(f"no admissible lattice + Skellam found at eps = {eps}, Delta = {Delta}")
    _val, m, h, a, mu = min(scan)
    try:
        est = estimate_epsilon(a, m, mu, h, Delta)
    except ValueError:              # the Theorem 16 point at large m: no float64 table, eps* <= a exactly
        est = a
    out = {"a": a, "m": m, "h": h, "mu": mu, "estimate": est,
           "scan": [[s[1], s[2], s[3], s[4], s[0]] for s in sorted(scan, key=lambda s: (s[1], s[2]))],
           "search_seconds": round(time.perf_counter() - t0, 1)}
    out["params"] = {"a": repr(a), "m": m, "mu": repr(mu), "h": h}
    if certify is not None:
        t1 = time.perf_counter()
        for attempt in range(8):
            c = certify(out["params"]["a"], m, out["params"]["mu"], h, Delta, digits=digits)
            log(f"  certificate [{c.lo}, {c.hi}] at mu = {out['params']['mu']}")
            if c.upper <= eps:
                break
            mu *= 1 + 10 ** (-6 + attempt)
            out["params"]["mu"] = repr(mu)
        out.update(mu=mu, certified=c.upper <= eps, lower=c.lo, upper=c.hi, certificate=c.to_json(),
                   mu_raised=attempt, certify_seconds=round(time.perf_counter() - t1, 1))
    out["mean_abs"] = mean_abs(a, m, mu, h)
    out["variance"] = variance(a, m, mu, h)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out
