r"""The generic optimiser: a noise family's parameters of least error at a target epsilon.

Solves, for a family of :mod:`arete_proofs.noise`,

.. math::

    \min E|Z| \ (\text{or } \operatorname{Var} Z) \quad\text{subject to}\quad
    \varepsilon^*(Z) = \sup_{|s| \le \Delta}\sup_t \ln\frac{f(t)}{f(t+s)} \le \varepsilon ,

in three steps that are the same for every family; what differs is the family's
:class:`SearchProblem` (``noise_class.search_problem(eps, objective=...)``):

1. **Search** (float64, :func:`search`) at :math:`\Delta = 1` over the family's *free*
   parameters in log coordinates: the problem's objective :meth:`SearchProblem.F` solves one
   *calibrated* parameter so that the float64 estimate of :math:`\varepsilon^*` meets the
   target (a parameter in which :math:`\varepsilon^*` decreases: adding independent noise is
   post-processing), the problem's start points (:meth:`SearchProblem.starts`) are jittered by
   ``seed`` and each is refined by a Nelder-Mead pass (:attr:`SearchProblem.coarse`), then the
   best once more (``SearchProblem.fine``); :meth:`SearchProblem.finish` turns the best
   point into parameters.
2. **Scale** to :math:`\Delta` (every family here is closed under scaling:
   :math:`cZ` has :math:`\varepsilon^*` at :math:`c\Delta`, :meth:`SearchProblem.noise`).
3. **Confirm** with the family's exact or certified tight epsilon
   (:meth:`SearchProblem.certify`); while the bound (:meth:`SearchProblem.bound`) is above the
   target, the calibrated parameter is moved (:meth:`SearchProblem.recalibrate`) and the noise
   re-checked, at most :attr:`SearchProblem.max_confirmations` times.  The returned
   :class:`Optimum`'s ``epsilon_upper`` is a proved (or, for the exact engines, guaranteed to
   ``digits``) bound :math:`\le \varepsilon`; its errors are the exact ones of the returned noise.

The first two users are :class:`arete_proofs.privacy.optimize.AreteProblem` (the paper's
noise; :math:`\lambda` calibrated, :math:`(\ln\alpha,\ln\theta)` free, a coarse scan for the
starts) and :class:`arete_proofs.privacy.optimize_gauss.GaussProblem` (Gamma + Gaussian;
:math:`\sigma` calibrated).

>>> class Laplace(SearchProblem):          # a toy problem: Laplace(lam), eps* = 1/lam
...     coarse = Pass(step=None, xatol=1e-6, fatol=1e-12, maxfev=200)
...     def starts(self):
...         return [np.array([0.0])]
...     def F(self, x, guess=None):       # no free parameter that matters: the calibrated lam = 1/eps
...         return math.log(1 / self.eps) + abs(float(x[0]))
...     def finish(self, x):
...         return {"lam": 1 / self.eps}, self.eps, 1 / self.eps
>>> p = search(Laplace(4.0))
>>> p.params, p.epsilon, p.value
({'lam': 0.25}, 4.0, 0.25)
"""

from __future__ import annotations

import math  # noqa: F401 (the doctest uses it)
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Pass", "SearchProblem", "FloatPoint", "Optimum", "search", "optimize"]


@dataclass(frozen=True)
class Pass:
    r"""One Nelder-Mead pass: ``step`` of the initial simplex (``None``: scipy's default simplex),
    tolerances ``xatol`` (in the log coordinates) and ``fatol`` (in the log objective), ``maxfev``.

    The coarse pass of the Arete search (:math:`\ln\alpha, \ln\theta`, Lemma 3's parameters' family):

    >>> Pass(step=0.4, xatol=1e-2, fatol=1e-6, maxfev=400).step
    0.4
    """

    step: float | None
    xatol: float
    fatol: float
    maxfev: int


@dataclass(frozen=True)
class FloatPoint:
    r"""The float64 optimum at :math:`\Delta = 1`: ``params`` (floats by name), the estimated
    ``epsilon`` (at most the target), the objective ``value``, ``evaluations`` of the estimate,
    ``seconds``.

    >>> FloatPoint({"lam": 0.25}, 4.0, 0.25, 1, 0.0).value        # Laplace(1/eps): E|Z| = lam (Lemma 26)
    0.25
    """

    params: dict
    epsilon: float
    value: float
    evaluations: int
    seconds: float


class SearchProblem:
    r"""A family's optimisation problem (float64 at ``Delta = 1``), driven by :func:`search` and :func:`optimize`.

    Subclasses implement :meth:`starts`, :meth:`F`, :meth:`finish` (the search) and
    :meth:`scaled`, :meth:`certify`, :meth:`moments`, :meth:`bound`, :meth:`recalibrate` (the
    confirmation).  ``evaluations`` counts the float64 epsilon estimates.  ``noise_class``: the
    family's :class:`~arete_proofs.noise.Noise` class (set by ``family.search_problem``), used
    only to hand back a noise object (this layer never imports the families).  The module
    docstring's toy problem is Laplace(:math:`1/\varepsilon`) (Lemma 26):

    >>> issubclass(SearchProblem, object) and SearchProblem.max_confirmations
    6
    """

    #: the pass from every start, and the final pass from the best point (``None``: none)
    coarse: Pass = Pass(step=0.4, xatol=1e-2, fatol=1e-6, maxfev=400)
    fine: Pass | None = None
    #: confirmation rounds before giving up
    max_confirmations: int = 6
    family: str = ""
    noise_class = None

    def __init__(self, eps, *, objective="mean_abs"):
        self.eps = float(eps)
        #: the target as given (compared with the certified bound at the working precision)
        self.eps_text = eps
        self.objective = objective
        self.evaluations = 0
        self.digits = 12

    # -- the search ----------------------------------------------------------------------
    def starts(self) -> list:
        """Start points (free coordinates) of the Nelder-Mead passes (may evaluate :meth:`F`)."""
        raise NotImplementedError

    def F(self, x, guess=None) -> float:
        """The log objective at free coordinates ``x`` with the calibrated parameter solved."""
        raise NotImplementedError

    def begin_pass(self) -> None:
        """Called before every Nelder-Mead pass (e.g. to forget a warm start)."""

    def finish(self, x):
        """``(params, epsilon, value)`` at the best free coordinates ``x`` (floats, ``Delta = 1``)."""
        raise NotImplementedError

    # -- the confirmation --------------------------------------------------------------
    def scaled(self, params, D) -> dict:
        """The parameters (``Delta = 1``) of the noise scaled to sensitivity ``D`` (a float)."""
        raise NotImplementedError

    def certify(self, params, Delta, digits):
        """The tight-epsilon result (``epsilon``, ``upper_bound``, ``t_star``) of the scaled ``params``,
        or ``None`` to retry (the attempt is used up, the parameters are kept)."""
        raise NotImplementedError

    def moments(self, params, digits):
        """Exact ``(E|Z|, Var Z)`` of the scaled ``params``."""
        raise NotImplementedError

    def noise(self, params):
        """The family's noise object of the scaled ``params`` (``None`` without a ``noise_class``)."""
        return None if self.noise_class is None else self.noise_class(**params)

    def bound(self, result):
        """The number that must be at most the target (the certified upper bound by default)."""
        return result.upper_bound

    def recalibrate(self, params, result, eps_mp, attempt):
        """New ``params`` after ``result`` exceeded the target ``eps_mp`` (the ``attempt``-th time)."""
        raise NotImplementedError

    def failure(self, eps, params, result) -> str:
        """The message when no confirmation succeeds."""
        return f"could not confirm eps <= {eps!r} for {self.family} (last parameters {params})"


def _nelder_mead(problem, x0, p: Pass):
    from scipy import optimize as so

    x0 = np.asarray(x0, dtype=float)
    options = {"xatol": p.xatol, "fatol": p.fatol, "maxfev": p.maxfev}
    if p.step is not None:
        simplex = np.array([x0] + [x0 + p.step * e for e in np.eye(x0.size)])
        options["initial_simplex"] = simplex
    else:
        options["initial_simplex"] = None
    problem.begin_pass()
    return so.minimize(problem.F, x0, method="Nelder-Mead", options=options)


def search(problem: SearchProblem, *, seed=None) -> FloatPoint:
    r"""The float64 search of ``problem`` (module docstring, step 1): a :class:`FloatPoint`.

    ``seed`` (``None``: deterministic) jitters the start points by a normal perturbation of
    standard deviation 0.2 in the log coordinates.  The Arete search with a stand-in estimator
    (the tail limit :math:`1/\max(\theta,\lambda)`, exact for :math:`\alpha \ge 1`, Section 4.2):

    >>> from arete_proofs.privacy.optimize import AreteProblem
    >>> p = search(AreteProblem(1.0, estimator=lambda a, th, lam: 1 / max(th, lam), starts=[(1.0, 1.0)]))
    >>> p.epsilon <= 1.0 and set(p.params) == {"alpha", "theta", "lam"}
    True
    """
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed) if seed is not None else None
    best = None
    for x0 in problem.starts():
        if rng is not None:
            x0 = x0 + rng.normal(0.0, 0.2, size=np.size(x0))
        r = _nelder_mead(problem, x0, problem.coarse)
        if best is None or r.fun < best[1]:
            best = (r.x.copy(), r.fun)
    if problem.fine is not None:
        r = _nelder_mead(problem, best[0], problem.fine)
        if r.fun < best[1]:
            best = (r.x.copy(), r.fun)
    params, eps, value = problem.finish(best[0])
    return FloatPoint(params, float(eps), float(value), problem.evaluations, time.perf_counter() - t0)


@dataclass(frozen=True)
class Optimum:
    r"""Result of :func:`optimize`: the ``params`` (floats at ``Delta``) and the ``noise`` object (``None``
    when the problem has no ``noise_class``), its tight epsilon ``epsilon`` and the
    bound ``epsilon_upper`` :math:`\le` ``target`` that confirmed it, its exact ``mean_abs`` and
    ``variance``, the ``objective``, ``evaluations`` (float64 estimates), ``confirmations``
    (exact or certified tight epsilons), ``seconds``, the maximiser ``t_star`` and the float64
    ``point`` of the search.

    >>> o = Optimum({"lam": 0.25}, None, 4, 4, 0.25, 0.125, "variance", 4.0, 1.0, 0, 1, 0.0)
    >>> o.value() == 2 * 0.25 ** 2                 # Var of Laplace(lam) = 2 lam^2 (Definition 23)
    True
    """

    params: dict
    noise: Any
    epsilon: Any
    epsilon_upper: Any
    mean_abs: Any
    variance: Any
    objective: str
    target: float
    Delta: float
    evaluations: int
    confirmations: int
    seconds: float
    t_star: Any = None
    point: FloatPoint | None = field(default=None, repr=False)

    def value(self):
        """The minimised quantity (``mean_abs`` or ``variance``)."""
        return self.mean_abs if self.objective == "mean_abs" else self.variance


def optimize(problem: SearchProblem, Delta=1, *, digits=12, seed=None) -> Optimum:
    r"""Search, scale and confirm (module docstring): an :class:`Optimum` with ``epsilon_upper <= eps``.

    ``problem``: a family's :class:`SearchProblem` (``family.search_problem(eps, objective=...)``);
    raises ``ArithmeticError`` when no confirmation succeeds.  The Laplace mechanism (Lemma 26)
    as a toy problem: :math:`\lambda = \Delta/\varepsilon`, tight epsilon :math:`\Delta/\lambda`:

    >>> from types import SimpleNamespace
    >>> class Laplace(SearchProblem):
    ...     coarse = Pass(step=None, xatol=1e-6, fatol=1e-12, maxfev=50)
    ...     def starts(self): return [np.array([0.0])]
    ...     def F(self, x, guess=None): return abs(float(x[0]))
    ...     def finish(self, x): return {"lam": 1 / self.eps}, self.eps, 1 / self.eps
    ...     def scaled(self, params, D): return {"lam": params["lam"] * D}
    ...     def certify(self, params, Delta, digits):
    ...         e = float(Delta) / params["lam"]
    ...         return SimpleNamespace(epsilon=e, upper_bound=e, t_star=0.0)
    ...     def moments(self, params, digits): return params["lam"], 2 * params["lam"] ** 2
    >>> o = optimize(Laplace(4.0), 2)
    >>> o.params, o.epsilon_upper <= 4, o.mean_abs            # Delta = 2: lam = Delta/eps
    ({'lam': 0.5}, True, 0.5)
    """
    from mpmath import mp

    from .._validation import parse_precision, positive, resolve_digits

    t0 = time.perf_counter()
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(15)):
        D = float(positive(Delta, "Delta"))
    with mp.workdps(parse_precision(d)):
        eps_mp = positive(problem.eps_text, "eps")
    problem.digits = d
    point = search(problem, seed=seed)
    params = dict(point.params)
    confirmations = 0
    r = None
    for attempt in range(problem.max_confirmations):
        scaled = problem.scaled(params, D)
        r = problem.certify(scaled, Delta, problem.digits)
        if r is None:
            continue
        confirmations += 1
        if problem.bound(r) <= eps_mp:
            break
        params = problem.recalibrate(params, r, eps_mp, attempt)
    else:
        raise ArithmeticError(problem.failure(problem.eps, params, r))
    m, v = problem.moments(scaled, problem.digits)
    return Optimum(scaled, problem.noise(scaled), r.epsilon, problem.bound(r), m, v, problem.objective, problem.eps,
                   D, problem.evaluations, confirmations, time.perf_counter() - t0, r.t_star, point)
