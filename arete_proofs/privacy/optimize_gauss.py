r"""Least error at a given exact epsilon with a Gaussian part (issue 17, beyond the paper).

Solves, for :math:`Z = X_1 - X_2 + Y + N` (:mod:`arete_proofs.distributions.arete_gauss`),

.. math::

    \min E|Z| \ (\text{or } \operatorname{Var} Z) \quad\text{subject to}\quad
    \varepsilon^*(\alpha,\theta,\lambda,\sigma) = \sup_t \ln\frac{f_Z(t)}{f_Z(t+\Delta)} \le \varepsilon

over a *family*: ``"arete"`` (:math:`\lambda` free, :math:`\sigma = 0`: the paper's noise,
delegated to :func:`arete_proofs.privacy.optimize.optimize`), ``"gauss"`` (:math:`\sigma`
free, :math:`\lambda = 0`) or ``"both"`` (both free).  As in
:mod:`~arete_proofs.privacy.optimize`: a float64 search (:func:`estimate_epsilon` on
:mod:`~arete_proofs.distributions.fast_gauss`; for fixed :math:`(\alpha,\theta[,\lambda])` the
smallest feasible :math:`\sigma` by bisection on :math:`\ln\sigma` -- :math:`\varepsilon^*`
decreases in :math:`\sigma` because adding independent noise is post-processing; Nelder-Mead on
the logs of the other parameters), then an exact confirmation with
:func:`arete_proofs.privacy.tight_gauss.tight_epsilon`: the certified ``upper_bound`` of the
returned parameters is :math:`\le \varepsilon` (else :math:`\sigma` grows and it is re-checked).
Scale invariance (:math:`cZ` has :math:`\varepsilon^*` at :math:`c\Delta`) lets the search
run at :math:`\Delta = 1`.

>>> # post-processing: more Gaussian noise never increases the estimated loss
>>> estimate_epsilon(0.015, 0.854, 0.0, 0.03) < estimate_epsilon(0.015, 0.854, 0.0, 0.027)
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from mpmath import mp
from scipy import integrate, optimize as sopt

from .._validation import PrecisionError, parse_precision, positive, resolve_digits
from ..distributions import arete_gauss, fast_gauss
from . import optimize as arete_optimize, tight_gauss

__all__ = ["estimate_epsilon", "mean_abs_float", "search", "optimize", "GaussOptimum", "FAMILIES"]

FAMILIES = ("arete", "gauss", "both")
_MARGIN = 2e-9

#: issue 17's exploration optimum at eps = 8 (alpha, theta), a start for the search
_START = {8: (0.014727, 0.85419)}


def estimate_epsilon(alpha, theta, lam, sigma, Delta=1.0):
    r"""Float64 estimate of :math:`\sup_t \ln f_Z(t)/f_Z(t+\Delta)` (grid plus golden section).

    >>> # more Laplace noise, smaller loss (post-processing)
    >>> estimate_epsilon(0.1, 1.0, 0.2, 0.05) < estimate_epsilon(0.1, 1.0, 0.1, 0.05)
    True
    """
    a, th, la, sg, D = (float(x) for x in (alpha, theta, lam, sigma, Delta))

    def L(t):
        t = np.asarray(t, dtype=float)
        return fast_gauss.logpdf(t, a, th, la, sg) - fast_gauss.logpdf(t + D, a, th, la, sg)

    sc = max(sg, la, 1e-9)
    grid = np.unique(np.concatenate([[0.0], sc * np.geomspace(1e-4, 30, 120), np.linspace(0, 3 * th + 2 * D, 120)]))
    v = L(grid)
    i = int(np.argmax(v))
    best = float(v[i])
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    for _ in range(4):  # zoom: 41-point grids around the best point
        z = np.linspace(lo, hi, 41)
        w = L(z)
        j = int(np.argmax(w))
        best = max(best, float(w[j]))
        lo, hi = z[max(j - 1, 0)], z[min(j + 1, 40)]
    return max(best, D / max(th, la))


def mean_abs_float(alpha, theta, lam, sigma):
    r"""Float64 :math:`E|Z| = \frac2\pi\int_0^\infty (1-\varphi_Z(u))u^{-2}du` (scipy quad).

    >>> # Gaussian alone: E|N| = sigma sqrt(2/pi)
    >>> abs(mean_abs_float(1e-12, 1.0, 0.0, 2.0) - 2 * math.sqrt(2 / math.pi)) < 1e-8
    True
    """
    a, th, la, sg = (float(x) for x in (alpha, theta, lam, sigma))

    def g(u):
        if u == 0:
            return (2 * a * th * th + 2 * la * la + sg * sg) / 2
        x = a * math.log1p(th * th * u * u) + math.log1p(la * la * u * u) + sg * sg * u * u / 2
        return -math.expm1(-x) / (u * u)

    brk = sorted({1 / th, 1 / sg if sg else 1 / th, 1 / la if la else 1 / th})
    pts = [0.0] + [b * k for b in brk for k in (0.1, 1, 10)]
    pts = sorted(set(pts))
    total = 0.0
    for x, y in zip(pts, pts[1:]):
        total += integrate.quad(g, x, y, limit=200, epsabs=0, epsrel=1e-12)[0]
    total += integrate.quad(g, pts[-1], np.inf, limit=200, epsabs=0, epsrel=1e-12)[0]
    return 2 * total / math.pi


def _objective_value(objective, a, th, la, sg):
    if objective == "mean_abs":
        return mean_abs_float(a, th, la, sg)
    return 2 * a * th * th + 2 * la * la + sg * sg


class _SigmaZero(ValueError):
    """sigma -> 0 already meets the target (the float64 estimate): no smallest sigma > 0."""


#: below this sigma / theta the bisection stops and reports that sigma -> 0 is feasible
_SIGMA_FLOOR = 1e-4


def _solve_sigma(target, a, th, la, guess=None):
    """Smallest sigma with estimate_epsilon <= target (bisection on ln sigma); raises
    ``_SigmaZero`` when sigma = _SIGMA_FLOOR * theta already meets it (possible for alpha > 1/2,
    where X1 - X2 alone has a bounded density and a finite loss)."""
    def h(u):
        return estimate_epsilon(a, th, la, math.exp(u)) - target
    u0 = math.log(guess) if guess else math.log(1 / target)
    lo, hi = u0 - 0.05, u0 + 0.05  # eps decreases in sigma: h(lo) > 0 >= h(hi)
    floor = math.log(_SIGMA_FLOOR * th)
    for _ in range(60):
        if h(lo) > 0:
            break
        if lo <= floor:
            raise _SigmaZero(f"sigma -> 0 meets eps <= {target} at alpha={a}, theta={th}, lam={la}")
        lo = max(lo - 0.5, floor)
    for _ in range(60):
        if h(hi) <= 0:
            break
        hi += 0.5
    return math.exp(sopt.brentq(h, lo, hi, xtol=1e-10))


@dataclass(frozen=True)
class GaussOptimum:
    r"""Result of :func:`optimize`: the parameters (at ``Delta``), their certified tight
    epsilon bracket (``epsilon_upper <= target``), exact :math:`E|Z|` and :math:`\operatorname{Var} Z`,
    and the certified maximiser ``t_star`` of the loss (``None`` for ``family="arete"``).
    """

    family: str
    alpha: float
    theta: float
    lam: float
    sigma: float
    epsilon: object
    epsilon_upper: object
    mean_abs: object
    variance: object
    objective: str
    target: float
    seconds: float
    evaluations: int = 0
    t_star: object = None


def search(eps, *, family="gauss", objective="mean_abs", start=None, xatol=1e-3, alpha_max=0.999, maxfev=120):
    r"""Float64 search: ``(alpha, theta, lam, sigma, value, evaluations)`` at :math:`\Delta = 1`.

    ``family`` ``"gauss"`` (:math:`\lambda = 0`) or ``"both"``; the constraint is the float64
    estimate at ``eps * (1 - 2e-9)``; :math:`\alpha <` ``alpha_max`` (:math:`< 1`: the exact engine).
    Where :math:`\sigma \to 0` already meets the target (:math:`\alpha > 1/2`: :math:`X_1 - X_2`
    alone has a finite loss) the value is that of :math:`\sigma = 0`, and the returned
    :math:`\sigma` is ``0.01 * theta`` (feasible too: adding noise is post-processing).
    """
    if not 0 < alpha_max < 1:
        raise ValueError(f"alpha_max must be in (0, 1), got {alpha_max!r}")
    target = eps * (1 - _MARGIN)
    count = [0]
    if start is None:
        start = _START.get(int(round(eps)) if abs(eps - round(eps)) < 1e-9 else None,
                           (0.015 * math.exp(-0.6 * (eps - 8)), 0.85))
    a0, th0 = start
    sg_cache = {}

    def F(x):
        a, th = math.exp(x[0]), math.exp(x[1])
        la = math.exp(x[2]) if family == "both" else 0.0
        if not (1e-8 < a < alpha_max and la < th):
            return 1e9
        count[0] += 1
        try:
            sg = _solve_sigma(target, a, th, la, sg_cache.get("last"))
        except _SigmaZero:
            return math.log(_objective_value(objective, a, th, la, 0.0))
        except (ValueError, ArithmeticError):
            return 1e9
        sg_cache["last"] = sg
        sg_cache[tuple(x)] = sg
        return math.log(_objective_value(objective, a, th, la, sg))

    x0 = [math.log(a0), math.log(th0)] + ([math.log(0.1 / eps)] if family == "both" else [])
    res = sopt.minimize(F, x0, method="Nelder-Mead",
                        options=dict(xatol=xatol, fatol=1e-7, initial_simplex=None, maxfev=maxfev))
    x = res.x
    a, th = math.exp(x[0]), math.exp(x[1])
    la = math.exp(x[2]) if family == "both" else 0.0
    try:
        sg = _solve_sigma(target, a, th, la)
    except _SigmaZero:
        sg = 0.01 * th
    return a, th, la, sg, _objective_value(objective, a, th, la, sg), count[0]


def optimize(eps, Delta=1, *, family="gauss", objective="mean_abs", digits=12, workers=1, start=None,
             alpha_max=0.999, maxfev=120):
    r"""Parameters of least :math:`E|Z|` (or variance) with certified tight epsilon :math:`\le` ``eps``.

    See the module docstring.  ``family="arete"`` delegates to
    :func:`arete_proofs.privacy.optimize.optimize`.  ``alpha_max``, ``maxfev``: see :func:`search`
    (within :math:`\alpha \ge 1` the noise is log-concave, :math:`\varepsilon^* = \Delta/\max(\theta,\lambda)`,
    and the least :math:`E|Z|` is Laplace's :math:`\Delta/\varepsilon`: compare with it).
    Returns :class:`GaussOptimum`.
    """
    t0 = time.perf_counter()
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
    if objective not in ("mean_abs", "variance"):
        raise ValueError(f"objective must be 'mean_abs' or 'variance', got {objective!r}")
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        eps_mp = positive(eps, "eps")
        D_mp = positive(Delta, "Delta")
    target, D = float(eps_mp), float(D_mp)
    if family == "arete":
        r = arete_optimize.optimize(eps, Delta, objective=objective, digits=d)
        return GaussOptimum("arete", r.alpha, r.theta, r.lam, 0.0, r.epsilon, r.epsilon, r.mean_abs,
                            r.variance, objective, target, time.perf_counter() - t0, r.evaluations)
    a, th, la, sg, _v, n = search(target, family=family, objective=objective, start=start, alpha_max=alpha_max,
                                  maxfev=maxfev)
    for attempt in range(8):
        try:
            r = tight_gauss.tight_epsilon(a, th * D, la * D, sg * D, Delta, digits=d, workers=workers)
        except PrecisionError as err:  # a cover too fine at d digits: certify at fewer (still a bracket)
            if d <= 8:
                raise PrecisionError(f"{err} (at alpha={a!r}, theta={th!r}, lam={la!r}, sigma={sg!r})") from err
            d = 8
            continue
        if r.upper_bound <= eps_mp:
            break
        sg *= 1 + 2.0 ** attempt * (1e-9 + float(r.upper_bound - eps_mp) / target)
    else:
        raise ArithmeticError(f"could not confirm eps <= {eps!r} with the certified tight epsilon")
    m = arete_gauss.mean_abs(a, th * D, la * D, sg * D, digits=d)
    v = arete_gauss.var(a, th * D, la * D, sg * D, digits=d)
    return GaussOptimum(family, a, th * D, la * D, sg * D, r.epsilon, r.upper_bound, m, v, objective,
                        target, time.perf_counter() - t0, n, r.t_star)
