r"""Optimised integer noises at integer sensitivity: the least :math:`E|Z|` (or variance) of MSDLap and GDL at exact tight epsilon.

Both searches keep only parameters whose **exact** tight epsilon (not a bound) is at most the target:

* **MSDLap(a, m)** :math:`= \sum_{i \le m} i\,\mathrm{DLap}(a)` (Theorem 16 takes :math:`m = \Delta`,
  :math:`a = \varepsilon`).  For :math:`m \mid \Delta` the tight epsilon is :math:`a\Delta/m` exactly (the
  coupling bound of :mod:`arete_proofs.privacy.tight_discrete` meets the tail limit of the shift
  :math:`\Delta`, no window), so :math:`a = \varepsilon m/\Delta`; every divisor :math:`m` of :math:`\Delta` is
  tried.  For :math:`\Delta \le` :data:`WINDOW_DELTA_MAX` every other :math:`m \le \Delta +`
  :data:`EXTRA_M` is tried too, with :math:`a` by bisection on the exact loss
  (:func:`arete_proofs.privacy.tight_discrete.tight_epsilon_msdlap`, nondecreasing in :math:`a`)
  between the bounds :math:`\varepsilon/\lceil\Delta/m\rceil \le a \le \varepsilon m/\Delta` (coupling bound
  :math:`\varepsilon^* \le a\lceil\Delta/m\rceil`, tail limit :math:`\varepsilon^* \ge a\Delta/m`); the window of
  the engine grows like :math:`m^2/a`, so larger :math:`\Delta` keep the divisors only.
* **GDL(beta, a)** (:mod:`arete_proofs.distributions.gdl`): for :math:`\beta \ge 1` the tight epsilon is
  :math:`a\Delta` (:mod:`arete_proofs.privacy.tight_gdl`), so :math:`\beta > 1` only adds noise and
  :math:`\beta = 1` is DLap; for :math:`\beta < 1` it is Theorem 13's closed form at :math:`k = 0`, at least
  :math:`a\Delta`.  The search is a grid of 25 points of :math:`\ln\beta \in [\ln 10^{-8}, 0]` refined by a golden
  section around the best, with
  :math:`a \le \varepsilon/\Delta` by bisection on the exact loss.

:math:`E|Z|` of MSDLap is :func:`msdlap_mean_abs` (the trapezoid rule on its characteristic
function, with an explicit aliasing bound) -- the partial fractions of
:func:`arete_proofs.distributions.comb.comb_mean_abs` take minutes at :math:`m = 100`; GDL's likewise is
:func:`gdl_mean_abs` (the search evaluates it dozens of times at small :math:`\beta` and :math:`a`, where the
2F1 tail sums of :func:`arete_proofs.distributions.gdl.mean_abs` are slow).

>>> o = optimize_msdlap(2, 100)
>>> o["m"], o["epsilon"] <= 2, o["mean_abs"] < msdlap_mean_abs(2, 100)    # DLap(eps/Delta) beats Theorem 16 at eps = 2
(1, True, True)
"""

from __future__ import annotations

import math
import time
from functools import lru_cache

from mpmath import mp

__all__ = ["WINDOW_DELTA_MAX", "EXTRA_M", "msdlap_mean_abs", "msdlap_var", "gdl_mean_abs", "theorem21_mean_abs", "optimize_msdlap", "optimize_gdl"]

#: MSDLap's non-divisor m (the window engine) are searched for Delta <= this
WINDOW_DELTA_MAX = 10
#: and m up to Delta + this
EXTRA_M = 3


def msdlap_var(a, m, *, digits=15):
    r""":math:`\operatorname{Var} \mathrm{MSDLap}(a, m) = S_2(m)/(\cosh a - 1)`, :math:`S_2(m) = m(m+1)(2m+1)/6` (Theorem 16).

    >>> mp.almosteq(msdlap_var(1, 1), 1 / (mp.cosh(1) - 1), 1e-14)          # DLap(a): 1/(cosh a - 1)
    True
    """
    with mp.workdps(digits + 10):
        m = int(m)
        return mp.mpf(m * (m + 1) * (2 * m + 1)) / 6 / (mp.cosh(mp.mpf(a)) - 1)


def _grid_sums(a, m, N, c=None, power=1.0):
    """(sum of g over t_j, j = 1..N-1; the same of phi times the Poisson kernel of c, j = 0..N-1), float64.

    phi(t) = prod_{i <= m} (1 + (1 - cos it)/(cosh a - 1))^(-power): MSDLap(a, m), or GDL(power, a) at m = 1."""
    import numpy as np

    ch1 = float(mp.cosh(mp.mpf(a)) - 1)
    i = np.arange(1, m + 1, dtype=float)
    total_g, total_p, chunk = 0.0, 0.0, max(1, 2_000_000 // m)
    if c is not None:
        q = math.exp(-c)
        total_p = (1 - q * q) / (1 - q) ** 2          # t = 0: phi = 1, P_c(0) = coth(c/2)
    for j0 in range(1, N // 2 + 1, chunk):     # the integrands are even: t_j and t_{N-j} are the same point
        j = np.arange(j0, min(j0 + chunk, N // 2 + 1), dtype=float)
        t = 2 * np.pi * j / N
        s = np.sin(np.outer(t, i) / 2)
        logphi = -power * np.log1p(2 * s * s / ch1).sum(axis=1)
        w = np.where((N % 2 == 0) & (j == N // 2), 1.0, 2.0)
        total_g += float((w * (-np.expm1(logphi)) / (2 * np.sin(t / 2) ** 2)).sum())
        if c is not None:
            total_p += float((w * np.exp(logphi) * (1 - q * q) / (1 + q * q - 2 * q * np.cos(t))).sum())
    return total_g, total_p


def _chernoff(A, m):
    """(theta, ln M) with theta = a/(2m), M = E e^{theta Z} (Z ~ MSDLap(a, m))."""
    theta = A / (2 * m)
    ch1 = mp.cosh(A) - 1
    return theta, mp.fsum(mp.log(ch1) - mp.log(mp.cosh(A) - mp.cosh(i * theta)) for i in range(1, m + 1))


def _args(a, m, digits):
    d = int(digits)
    if not 1 <= d <= 12:
        raise ValueError(f"digits must be in 1..12 (float64 sums), got {digits!r}")
    m = int(m)
    if m < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    A = mp.mpf(a)
    if not A > 0:
        raise ValueError(f"a must be > 0, got {a!r}")
    return A, m, d


def msdlap_mean_abs(a, m, *, digits=12):
    r""":math:`E|Z|` of MSDLap(a, m) from its characteristic function (float64 sums; ``digits`` at most 12, rounding about 1e-11 at small a).

    For integer :math:`Z`, :math:`|k| = \frac1{2\pi}\int_{-\pi}^{\pi} \frac{1-\cos kt}{1-\cos t}\,dt` (Fejér), so
    :math:`E|Z| = \frac1{2\pi}\int_{-\pi}^{\pi} g`, :math:`g(t) = \frac{1 - \varphi(t)}{1 - \cos t}`,
    :math:`\varphi(t) = \prod_{i \le m} \big(1 + \frac{1 - \cos it}{\cosh a - 1}\big)^{-1}`, :math:`g(0) = \operatorname{Var} Z`.
    The Fourier coefficients of :math:`g` are :math:`\hat g(n) = E(|Z| - |n|)_+`, so the :math:`N`-point
    trapezoid rule gives exactly :math:`E|Z| + 2\sum_{l \ge 1} E(|Z| - lN)_+`; with
    :math:`(x - c)_+ \le e^{\theta(x - c) - 1}/\theta` and :math:`\theta = a/(2m)`, the excess is at most
    :math:`4 M e^{-\theta N}/(e\theta(1 - e^{-\theta N}))`, :math:`M = E e^{\theta Z} = \prod_i \frac{\cosh a - 1}{\cosh a - \cosh i\theta}`;
    :math:`N` is chosen to make it below :math:`10^{-(d+3)}` of the lower bound
    :math:`E|Z| \ge P(Z \ne 0) \ge P(X_1 \ne 0) = 1 - \tanh(a/2)` (given the other terms, :math:`Z = 0` needs one value of :math:`X_1`).

    >>> from arete_proofs.distributions.comb import comb_mean_abs
    >>> abs(msdlap_mean_abs(2, 3) / comb_mean_abs((1, 2, 3), ("2",) * 3, digits=20) - 1) < 1e-12   # partial fractions
    True
    """
    with mp.workdps(30):
        A, m, d = _args(a, m, digits)
        theta, logM = _chernoff(A, m)
        target = mp.mpf(10) ** (-(d + 3)) * (1 - mp.tanh(A / 2))
        N = int(mp.ceil((logM + mp.log(4 / (mp.e * theta * target)) + 1) / theta)) + 1
        bound = 4 * mp.exp(logM - theta * N) / (mp.e * theta * (1 - mp.exp(-theta * N)))
        var = float(msdlap_var(A, m))
    value = (var + _grid_sums(A, m, N)[0]) / N
    if not bound <= 10.0 ** (-(d + 2)) * value:
        raise ArithmeticError("msdlap_mean_abs: the aliasing bound is not below the requested digits")
    with mp.workdps(d + 5):
        return mp.mpf(value)


def gdl_mean_abs(beta, a, *, digits=12):
    r""":math:`E|Z|` of GDL(beta, a) from its characteristic function :math:`\varphi(t) = (1 + \frac{1-\cos t}{\cosh a - 1})^{-\beta}` (float64 sums).

    As :func:`msdlap_mean_abs` (Fejér identity, :math:`N`-point trapezoid rule, excess
    :math:`\le 4Me^{-\theta N}/(e\theta(1-e^{-\theta N}))`), with :math:`\theta = a/2`,
    :math:`M = (\frac{\cosh a - 1}{\cosh a - \cosh\theta})^{\beta}`, :math:`g(0) = \beta/(\cosh a - 1)`, and the
    lower bound :math:`E|Z| \ge P(Z \ne 0) \ge 1 - P(N_1 = 0) = 1 - (1 - e^{-a})^{\beta}`.

    >>> from arete_proofs.distributions import gdl
    >>> abs(gdl_mean_abs("0.3", "0.5") / gdl.mean_abs("0.3", "0.5", digits=20) - 1) < 1e-12    # the 2F1 tail sums
    True
    """
    with mp.workdps(30):
        A, _, d = _args(a, 1, digits)
        Bt = mp.mpf(beta)
        if not Bt > 0:
            raise ValueError(f"beta must be > 0, got {beta!r}")
        theta = A / 2
        ch1 = mp.cosh(A) - 1
        logM = Bt * (mp.log(ch1) - mp.log(mp.cosh(A) - mp.cosh(theta)))
        low = -mp.expm1(Bt * mp.log1p(-mp.exp(-A)))
        target = mp.mpf(10) ** (-(d + 3)) * low
        N = int(mp.ceil((logM + mp.log(4 / (mp.e * theta * target)) + 1) / theta)) + 1
        bound = 4 * mp.exp(logM - theta * N) / (mp.e * theta * (1 - mp.exp(-theta * N)))
        var = float(Bt / ch1)
    value = (var + _grid_sums(A, 1, N, power=float(Bt))[0]) / N
    if not bound <= 10.0 ** (-(d + 2)) * value:
        raise ArithmeticError("gdl_mean_abs: the aliasing bound is not below the requested digits")
    with mp.workdps(d + 5):
        return mp.mpf(value)


def theorem21_mean_abs(a, m, b, h, *, digits=12):
    r""":math:`E|hK + S|`, :math:`K \sim` MSDLap(a, m), :math:`S \sim` Laplace(b) (Theorem 21's noise), float64 sums.

    :math:`E|x + S| = |x| + b e^{-|x|/b}`, so :math:`E|Z| = h\,E|K| + b\,E e^{-c|K|}`, :math:`c = h/b`, with
    :math:`E|K|` by :func:`msdlap_mean_abs` and :math:`E e^{-c|K|} = \frac1{2\pi}\int \varphi(t)\,
    \frac{\sinh c}{\cosh c - \cos t}\,dt` (the Poisson kernel's coefficients are :math:`e^{-c|n|}`) by the
    :math:`N`-point trapezoid rule, whose excess :math:`E\sum_{l \ne 0} e^{-c|K - lN|}` is at most
    :math:`2e^{-cN/2}/(1 - e^{-cN}) + (1 + 2/(1 - e^{-cN}))\,2Me^{-\theta N/2}` (split at :math:`|K| < N/2`).

    >>> from arete_proofs.distributions.lattice import lattice_laplace, theorem21_parameters
    >>> p = theorem21_parameters(4, 1)
    >>> abs(theorem21_mean_abs(*p) / lattice_laplace(*p, digits=15).mean_abs() - 1) < 1e-11   # pmf sum
    True
    """
    with mp.workdps(30):
        A, m, d = _args(a, m, digits)
        B, H = mp.mpf(b), mp.mpf(h)
        c = H / B
        theta, logM = _chernoff(A, m)
        EK = msdlap_mean_abs(A, m, digits=d)
        target = mp.mpf(10) ** (-(d + 3)) * H * EK / B
        N = 2 * int(mp.ceil(max((logM + mp.log(12 / target)) / theta, mp.log(4 / target) / c))) + 2
        cN = c * N
        bound = 2 * mp.exp(-cN / 2) / (1 - mp.exp(-cN)) + (1 + 2 / (1 - mp.exp(-cN))) * 2 * mp.exp(logM - theta * N / 2)
        E_exp = _grid_sums(A, m, N, float(c))[1] / N
        value = H * EK + B * mp.mpf(E_exp)
        if not B * bound <= mp.mpf(10) ** (-(d + 2)) * value:
            raise ArithmeticError("theorem21_mean_abs: the aliasing bound is not below the requested digits")
    with mp.workdps(d + 5):
        return +value


def _moments_msdlap(a, m, objective, digits):
    if objective == "variance":
        return msdlap_var(a, m)
    return msdlap_mean_abs(a, m, digits=min(12, digits + 3))


def _bisect(loss, lo, hi, eps, steps):
    """Largest x in [lo, hi] (to ``steps`` halvings) with loss(x) <= eps, loss nondecreasing; (x, loss(x))."""
    flo = loss(lo)
    if flo > eps:
        return None, flo
    fhi = loss(hi)
    if fhi <= eps:
        return hi, fhi
    for _ in range(steps):
        mid = (lo + hi) / 2
        fm = loss(mid)
        if fm <= eps:
            lo, flo = mid, fm
        else:
            hi = mid
    return lo, flo


def _objective(objective):
    if objective not in ("mean_abs", "variance"):
        raise ValueError(f"objective must be 'mean_abs' or 'variance', got {objective!r}")
    return objective


def _check(eps, Delta):
    D = int(Delta)
    if isinstance(Delta, bool) or D != Delta or D < 1:
        raise ValueError(f"Delta must be an integer >= 1, got {Delta!r}")
    e = mp.mpf(eps)
    if not e > 0:
        raise ValueError(f"eps must be > 0, got {eps!r}")
    return e, D


@lru_cache(maxsize=32)
def _feasible(eps, D, digits, steps):
    """{m: (a, exact eps*)}: the largest feasible a of each searched m (both objectives decrease in a)."""
    from .tight_discrete import tight_epsilon_msdlap

    E = mp.mpf(eps)
    ms = list(range(1, D + EXTRA_M + 1)) if D <= WINDOW_DELTA_MAX else [m for m in range(1, D + 1) if D % m == 0]
    out = {}
    with mp.workdps(30):
        for m in ms:
            if D % m == 0:
                a = E * m / D
                a_s = mp.nstr(a, 20)
                e_star = tight_epsilon_msdlap(a_s, m, D, digits=digits).epsilon
            else:
                def loss(x, m=m):
                    return tight_epsilon_msdlap(mp.nstr(x, 20), m, D, digits=digits).epsilon
                a, e_star = _bisect(loss, E / math.ceil(D / m), E * m / D, E, steps)
                if a is None:
                    continue
                a_s = mp.nstr(a, 20)
            if e_star <= E * (1 + mp.mpf(10) ** (-(digits + 2))):
                out[m] = (a_s, e_star)
    return out


def optimize_msdlap(eps, Delta, *, objective="mean_abs", digits=8, steps=24):
    r"""The least ``objective`` of MSDLap(a, m) with exact tight epsilon :math:`\le` ``eps`` at sensitivity ``Delta``.

    Searches the :math:`m` of the module docstring; a dict ``a``, ``m``, ``mean_abs``, ``variance``,
    ``epsilon`` (exact, of the returned parameters), ``tried`` (m -> objective), ``how``, ``seconds``.

    >>> o = optimize_msdlap(20, 100)
    >>> o["m"], o["a"], float(o["epsilon"])              # Theorem 16's m = Delta, a = eps
    (100, '20.0', 20.0)
    """
    t0 = time.perf_counter()
    objective = _objective(objective)
    E, D = _check(eps, Delta)
    best, tried = None, {}
    for m, (a_s, e_star) in _feasible(str(E), D, digits, steps).items():
        val = _moments_msdlap(a_s, m, objective, digits)
        tried[m] = float(val)
        if best is None or val < best[0]:
            best = (val, m, a_s, e_star)
    _, m, a_s, e_star = best
    return {"a": a_s, "m": m, "mean_abs": msdlap_mean_abs(a_s, m, digits=12), "variance": msdlap_var(a_s, m),
            "epsilon": e_star, "tried": tried, "objective": objective,
            "how": (f"privacy.optimize_discrete.optimize_msdlap: m over {'1..Delta+' + str(EXTRA_M) if D <= WINDOW_DELTA_MAX else 'the divisors of Delta'}"
                    ", a = eps m/Delta (m | Delta, exact) or by bisection on privacy.tight_discrete (exact)"),
            "seconds": round(time.perf_counter() - t0, 2)}


def optimize_gdl(eps, Delta, *, objective="mean_abs", digits=8, steps=40, grid_points=25, golden=16):
    r"""The least ``objective`` of GDL(beta, a) with exact tight epsilon :math:`\le` ``eps`` (module docstring).

    A dict ``beta``, ``a``, ``mean_abs``, ``variance``, ``epsilon`` (Theorem 13's closed form, exact),
    ``how``, ``seconds``; never worse than DLap(eps/Delta) (:math:`\beta = 1`, the search's end).

    >>> o = optimize_gdl(5, 1)
    >>> from arete_proofs.distributions import gdl
    >>> o["epsilon"] <= 5 and o["mean_abs"] <= gdl.mean_abs(1, 5, digits=12) * (1 + 1e-12)
    True
    """
    from ..distributions import gdl
    from .tight_gdl import tight_epsilon

    t0 = time.perf_counter()
    objective = _objective(objective)
    E, D = _check(eps, Delta)
    def moment(beta, a, digits):
        return gdl_mean_abs(beta, a, digits=min(12, digits)) if objective == "mean_abs" else gdl.var(beta, a, digits=digits)
    cache = {}

    def at(u):
        if u in cache:
            return cache[u]
        with mp.workdps(30):
            beta = mp.nstr(mp.exp(u), 20) if u < 0 else "1"

            def loss(x):
                return tight_epsilon(beta, mp.nstr(x, 20), D, digits=digits).epsilon
            hi = E / D
            a, e_star = _bisect(loss, hi * mp.mpf(10) ** -6, hi, E, steps)
            if a is None:
                cache[u] = (mp.inf, beta, None, e_star)
            else:
                a_s = mp.nstr(a, 20)
                cache[u] = (moment(beta, a_s, digits=digits + 4), beta, a_s, e_star)
        return cache[u]

    grid = [math.log(1e-8) * (1 - i / (grid_points - 1)) for i in range(grid_points)]
    i0 = min(range(grid_points), key=lambda i: at(grid[i])[0])
    lo, hi = grid[max(i0 - 1, 0)], grid[min(i0 + 1, grid_points - 1)]
    g = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(golden):
        if at(x1)[0] <= at(x2)[0]:
            hi, x2 = x2, x1
            x1 = hi - g * (hi - lo)
        else:
            lo, x1 = x1, x2
            x2 = lo + g * (hi - lo)
    cands = [at(x) for x in (grid[i0], x1, x2)]
    val, beta, a_s, e_star = min(cands, key=lambda c: c[0])
    return {"beta": beta, "a": a_s, "mean_abs": gdl_mean_abs(beta, a_s, digits=12), "variance": gdl.var(beta, a_s, digits=12),
            "epsilon": e_star, "objective": objective,
            "how": "privacy.optimize_discrete.optimize_gdl: grid + golden section on ln beta in [ln 1e-8, 0], a by bisection "
                   "on privacy.tight_gdl (exact)",
            "seconds": round(time.perf_counter() - t0, 2)}
