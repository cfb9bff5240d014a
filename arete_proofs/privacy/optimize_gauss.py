r"""Least error at a given exact epsilon with a Gaussian part (beyond the paper).

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
from . import optimize as arete_optimize
from . import tight_gauss
from . import optimizer as _optimizer
from .optimizer import Pass, SearchProblem

__all__ = ["GaussProblem", "estimate_epsilon", "mean_abs_float", "search", "optimize", "GaussOptimum", "FAMILIES"]

FAMILIES = ("arete", "gauss", "both")
_MARGIN = 2e-9

#: an exploration's optimum at eps = 8 (alpha, theta), a start for the search
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


class GaussProblem(SearchProblem):
    r"""The Gamma + Gaussian family's problem for the generic optimiser (:mod:`arete_proofs.privacy.optimizer`).

    ``family`` ``"gauss"`` (:math:`\lambda = 0`; free coordinates :math:`(\ln\alpha,\ln\theta)`) or
    ``"both"`` (also :math:`\ln\lambda`); the calibrated parameter is :math:`\sigma`, the smallest
    with the float64 estimate at ``eps * (1 - 2e-9)`` (bisection, ``_solve_sigma``); one start (the
    the exploration's values at eps = 8, else a rule of thumb, or ``start``), one Nelder-Mead pass
    from scipy's default simplex with ``maxfev``.  Confirmation: the certified
    :func:`arete_proofs.privacy.tight_gauss.tight_epsilon` (``upper_bound``); a
    :class:`~arete_proofs.PrecisionError` at ``digits`` retries at 8 digits; while above the target,
    :math:`\sigma` grows by :math:`1 + 2^k(10^{-9} + \text{excess}/\varepsilon)`.

    >>> p = GaussProblem(8)
    >>> [round(float(v), 6) for v in p.starts()[0]] == [round(math.log(0.014727), 6), round(math.log(0.85419), 6)]
    True
    >>> p.scaled({"alpha": 0.1, "theta": 1.0, "lam": 0.0, "sigma": 0.02}, 3.0)["sigma"]   # sigma scales with Delta
    0.06
    """

    family = "arete_gauss"
    max_confirmations = 8

    def __init__(self, eps, *, objective="mean_abs", family="gauss", start=None, xatol=1e-3, alpha_max=0.999,
                 maxfev=120, workers=1):
        if not 0 < alpha_max < 1:
            raise ValueError(f"alpha_max must be in (0, 1), got {alpha_max!r}")
        if family not in ("gauss", "both"):
            raise ValueError(f"family must be 'gauss' or 'both' here, got {family!r}")
        with mp.workdps(parse_precision(15)):
            e = float(positive(eps, "eps"))
        super().__init__(e, objective=objective)
        self.eps_text = eps  # the target compared with the certified bound: the value as given
        self.kind = family
        self.target = self.eps * (1 - _MARGIN)
        self.alpha_max = alpha_max
        self.workers = workers
        if start is None:
            e = self.eps
            start = _START.get(int(round(e)) if abs(e - round(e)) < 1e-9 else None,
                               (0.015 * math.exp(-0.6 * (e - 8)), 0.85))
        self.start = start
        self.coarse = Pass(step=None, xatol=xatol, fatol=1e-7, maxfev=maxfev)
        self.sg_cache = {}

    def starts(self):
        a0, th0 = self.start
        return [np.array([math.log(a0), math.log(th0)] + ([math.log(0.1 / self.eps)] if self.kind == "both" else []))]

    def _point(self, x):
        a, th = math.exp(x[0]), math.exp(x[1])
        la = math.exp(x[2]) if self.kind == "both" else 0.0
        return a, th, la

    def F(self, x, guess=None):
        a, th, la = self._point(x)
        if not (1e-8 < a < self.alpha_max and la < th):
            return 1e9
        self.evaluations += 1
        try:
            sg = _solve_sigma(self.target, a, th, la, self.sg_cache.get("last"))
        except _SigmaZero:
            return math.log(_objective_value(self.objective, a, th, la, 0.0))
        except (ValueError, ArithmeticError):
            return 1e9
        self.sg_cache["last"] = sg
        self.sg_cache[tuple(x)] = sg
        return math.log(_objective_value(self.objective, a, th, la, sg))

    def finish(self, x):
        a, th, la = self._point(x)
        try:
            sg = _solve_sigma(self.target, a, th, la)
        except _SigmaZero:
            sg = 0.01 * th
        return ({"alpha": a, "theta": th, "lam": la, "sigma": sg}, float("nan"),
                _objective_value(self.objective, a, th, la, sg))

    # -- confirmation: the certified tight epsilon ---------------------------------------
    def scaled(self, params, D):
        return {"alpha": params["alpha"], "theta": params["theta"] * D, "lam": params["lam"] * D,
                "sigma": params["sigma"] * D}

    def certify(self, params, Delta, digits):
        a, th, la, sg = params["alpha"], params["theta"], params["lam"], params["sigma"]
        try:
            return tight_gauss.tight_epsilon(a, th, la, sg, Delta, digits=digits, workers=self.workers)
        except PrecisionError as err:  # a cover too fine at d digits: certify at fewer (still a bracket)
            if digits <= 8:
                raise PrecisionError(f"{err} (at alpha={a!r}, theta={th!r}, lam={la!r}, sigma={sg!r})") from err
            self.digits = 8
            return None

    def moments(self, params, digits):
        p = (params["alpha"], params["theta"], params["lam"], params["sigma"])
        return arete_gauss.mean_abs(*p, digits=digits), arete_gauss.var(*p, digits=digits)

    def recalibrate(self, params, result, eps_mp, attempt):
        sg = params["sigma"] * (1 + 2.0 ** attempt * (1e-9 + float(result.upper_bound - eps_mp) / self.eps))
        return {**params, "sigma": sg}

    def failure(self, eps, params, result):
        return f"could not confirm eps <= {self.eps_text!r} with the certified tight epsilon"


def search(eps, *, family="gauss", objective="mean_abs", start=None, xatol=1e-3, alpha_max=0.999, maxfev=120):
    r"""Float64 search: ``(alpha, theta, lam, sigma, value, evaluations)`` at :math:`\Delta = 1`.

    ``family`` ``"gauss"`` (:math:`\lambda = 0`) or ``"both"``; the constraint is the float64
    estimate at ``eps * (1 - 2e-9)``; :math:`\alpha <` ``alpha_max`` (:math:`< 1`: the exact engine).
    Where :math:`\sigma \to 0` already meets the target (:math:`\alpha > 1/2`: :math:`X_1 - X_2`
    alone has a finite loss) the value is that of :math:`\sigma = 0`, and the returned
    :math:`\sigma` is ``0.01 * theta`` (feasible too: adding noise is post-processing).
    :func:`arete_proofs.privacy.optimizer.search` on :class:`GaussProblem`.
    """
    problem = GaussProblem(eps, objective=objective, family=family, start=start, xatol=xatol, alpha_max=alpha_max,
                           maxfev=maxfev)
    p = _optimizer.search(problem)
    q = p.params
    return q["alpha"], q["theta"], q["lam"], q["sigma"], p.value, p.evaluations


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
    target = float(eps_mp)
    if not D_mp > 0:  # pragma: no cover - positive() has refused it
        raise ValueError("Delta must be positive")
    if family == "arete":
        r = arete_optimize.optimize(eps, Delta, objective=objective, digits=d)
        return GaussOptimum("arete", r.alpha, r.theta, r.lam, 0.0, r.epsilon, r.epsilon, r.mean_abs,
                            r.variance, objective, target, time.perf_counter() - t0, r.evaluations)
    problem = GaussProblem(eps, objective=objective, family=family, start=start, alpha_max=alpha_max,
                           maxfev=maxfev, workers=workers)
    o = _optimizer.optimize(problem, Delta, digits=d)
    z = o.params
    return GaussOptimum(family, z["alpha"], z["theta"], z["lam"], z["sigma"], o.epsilon, o.epsilon_upper, o.mean_abs,
                        o.variance, objective, target, time.perf_counter() - t0, o.evaluations, o.t_star)
