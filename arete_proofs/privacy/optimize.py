r"""Arete parameters with the least error at a given privacy level.

The paper proves :math:`\varepsilon`-DP for one explicit parameter choice
(Lemma 3: :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`,
for :math:`\varepsilon \ge 20 + 4\ln\Delta`) and shows in Figure 4 densities for
parameters found empirically at :math:`\varepsilon = 6, 7, 8`.  This module solves

.. math::

    \min_{\alpha,\theta,\lambda > 0}\; E|Z| \ \ (\text{or } \operatorname{Var} Z)
    \quad\text{subject to}\quad
    \varepsilon_A(\alpha,\theta,\lambda) = \sup_t \ln\frac{f_A(t)}{f_A(t+\Delta)} \le \varepsilon ,

where :math:`\varepsilon_A` is the *tight* privacy loss of adding
:math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)` to a query of sensitivity
:math:`\Delta` (:func:`arete_proofs.privacy.tight.tight_epsilon`; by symmetry and
Lemma 2 the supremum over shifts :math:`|a| \le \Delta` is the one at :math:`a = \Delta`,
Section 4.2).

**Scale invariance.** :math:`\mathrm{Arete}(\alpha, c\theta, c\lambda) = c\,\mathrm{Arete}(\alpha,\theta,\lambda)`,
so :math:`\varepsilon_A(\alpha, c\theta, c\lambda; c\Delta) = \varepsilon_A(\alpha,\theta,\lambda;\Delta)`,
:math:`E|Z|` scales by :math:`c` and :math:`\operatorname{Var} Z` by :math:`c^2`.  The
search runs at :math:`\Delta = 1` and the result is scaled by :math:`\Delta`.

**Search** (float64, :func:`search`).

1. :func:`estimate_epsilon`: :math:`\max_t \ln f_A(t) - \ln f_A(t+1)` with the
   vectorized :func:`arete_proofs.distributions.fast.logpdf` over a grid of :math:`[-1/2, T]`
   (uniform, plus log-spaced points from :math:`10^{-12}` up, plus :math:`t = 0`),
   a zoom around the best grid point, and the tail limit
   :math:`\lim_{t\to\infty} = \Delta/\max(\theta,\lambda)`.  The tiny-:math:`t`
   points matter: for small :math:`\alpha`, :math:`f_A` has a sharp peak
   (:math:`f_{\Gamma-\Gamma}(t) \sim |t|^{2\alpha-1}` smoothed by the Laplace part)
   and the maximiser sits at :math:`t \approx 10^{-7}` (Figure 4, :math:`\varepsilon = 6`)
   down to far below :math:`10^{-12}`, where the curve is so flat that
   :math:`t = 0` gives the supremum to double precision.  On :math:`t < -\Delta/2`
   the ratio is below 1, and on :math:`[-\Delta/2, 0]` it increases.
2. For fixed :math:`(\alpha,\theta)` the smallest feasible :math:`\lambda`
   (:math:`\varepsilon_A` decreases in :math:`\lambda`) is found by a safeguarded
   secant / Brent iteration on :math:`\ln\lambda`.  :math:`\lambda = \Delta/\varepsilon`
   is always feasible: Laplace(:math:`\Delta/\varepsilon`) alone is
   :math:`\varepsilon`-DP (Lemma 26) and adding the independent
   :math:`X_1 - X_2` is post-processing.
3. The objective :math:`\ln E|Z|` (or :math:`\ln\operatorname{Var} Z`) of
   :math:`(\ln\alpha, \ln\theta)` is scanned on a coarse grid and minimised
   with Nelder-Mead from the best cell(s) (the landscape has two basins for
   :math:`\varepsilon \approx 4`: an Arete optimum and the Laplace limit
   :math:`\alpha \to 0`).

**Confirmation** (:func:`optimize`). The float64 optimum, scaled to
:math:`\Delta`, is checked with the exact :func:`arete_proofs.privacy.tight.tight_epsilon`
at ``digits``; if the exact value exceeds the target, :math:`\lambda` is re-solved
(float64) for the target lowered by the estimate's error at that point (exact minus
estimate, when positive) and a doubling margin, until it does not.  The search aims at
:math:`\varepsilon(1 - 10^{-9})` so that a ``digits``-digit comparison is decisive.

Findings (``benchmarks/bench_optimize.py``, :math:`\Delta = 1`, exact epsilon confirmed):
the optimal :math:`E|Z|` scales like :math:`\Delta e^{-\varepsilon/2}` (about 3.3 times the
Staircase's :math:`E|X|`, Lemma 27, for :math:`\varepsilon \ge 12`; unlike the
:math:`e^{-\varepsilon/4}` of Lemma 3's parameters), with :math:`\theta \to \Delta` and
:math:`\lambda \approx 2\alpha`; the optimal :math:`\operatorname{Var} Z` scales like
:math:`\Delta^2 e^{-2\varepsilon/3}` (about 5.7 times the Staircase's) with
:math:`\theta \to \Delta/2`.  For :math:`\varepsilon \le 3.7` (:math:`E|Z|`; at 4 Arete wins
by 2%) and :math:`\varepsilon \le 4` (variance; at 5 Arete wins) the search finds nothing
better than Laplace: the optimum is the Laplace limit :math:`\alpha \to 0`,
:math:`\lambda \to \Delta/\varepsilon`.  Figure 4's sets are within
0.03-0.12% of optimal :math:`E|Z|` at their exact epsilon.

>>> # the fast estimate is scale invariant: Arete(alpha, c theta, c lam) with sensitivity c
>>> a, th, lam = 0.0756, 0.63, 0.0545
>>> e1 = estimate_epsilon(a, th, lam).epsilon
>>> e3 = estimate_epsilon(a, 3 * th, 3 * lam, Delta=3).epsilon
>>> abs(e1 - e3) < 1e-9
True
>>> # post-processing: Laplace(Delta/eps) plus any X1 - X2 is still eps-DP (Lemma 26)
>>> estimate_epsilon(0.3, 0.5, 1 / 6).epsilon <= 6 + 1e-12
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from mpmath import mp

from ..distributions import arete, fast
from .._validation import parse_precision, positive
from ..distributions.params import FIGURE_4 as _FIGURE_4_TEXT
from . import optimizer as _optimizer
from .optimizer import Pass, SearchProblem

__all__ = [
    "AreteProblem",
    "Optimum",
    "EpsilonEstimate",
    "SearchResult",
    "Figure4Comparison",
    "FIGURE_4",
    "OBJECTIVES",
    "EPS_MAX",
    "estimate_epsilon",
    "search",
    "optimize",
    "exact_epsilon",
    "compare_figure_4",
]

#: Objectives :func:`optimize` can minimise.
OBJECTIVES = ("mean_abs", "variance")

#: The largest target epsilon supported; beyond it the optimal lam/theta falls
#: below about 1e-6, outside the range where :mod:`arete_proofs.distributions.fast` is validated.
EPS_MAX = 25.0

#: The parameters of Figure 4 (:data:`arete_proofs.distributions.params.FIGURE_4`) as floats, by target eps.
FIGURE_4 = {e: tuple(float(x) for x in p) for e, p in _FIGURE_4_TEXT.items()}

# search box at Delta = 1 (the box where fast.py's accuracy is measured)
_ALPHA_MIN, _ALPHA_MAX = 1e-7, 10.0
_THETA_MIN, _THETA_MAX = 1e-3, 1e3
_RHO_MAX = 1e6  # lam >= theta / _RHO_MAX
#: Relative margin of the float64 search below the target.
_MARGIN = 1e-9


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _float_positive(value, name):
    """Parse a positive finite number (via the package's parser) and return a float."""
    with mp.workdps(parse_precision(15)):
        x = positive(value, name)
    return float(x)


def _target(eps):
    e = _float_positive(eps, "eps")
    if e > EPS_MAX:
        raise ValueError(
            f"eps must be at most {EPS_MAX:g} (the optimum's lam/theta leaves the validated "
            f"range of the float64 densities beyond it), got {eps!r}"
        )
    return e


def _objective(objective):
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
    return objective


# ---------------------------------------------------------------------------
# fast estimate of the tight epsilon
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EpsilonEstimate:
    r"""Float64 estimate of :math:`\sup_t \ln f_A(t)/f_A(t+\Delta)`.

    ``t_star`` is the best point found (``inf`` when the tail limit
    :math:`\Delta/\max(\theta,\lambda)` is the supremum); ``grid_max`` is the
    maximum over the points evaluated.

    >>> e = estimate_epsilon(0.5, 2.0, 0.5)
    >>> e.tail == 1 / 2.0 and e.grid_max <= e.epsilon and e.tail <= e.epsilon
    True
    """

    epsilon: float
    t_star: float
    grid_max: float
    tail: float


def _log_ratio(t, alpha, theta, lam):
    r""":math:`\ln f_A(t) - \ln f_A(t+1)` at ``Delta = 1`` (one ``fast.logpdf`` call)."""
    t = np.asarray(t, dtype=float)
    v = fast.logpdf(np.concatenate([t, t + 1.0]), alpha, theta, lam)
    return v[: t.size] - v[t.size:]


def _grid(theta, lam, t_min, n_log, n_uniform):
    T = max(4.0, 1.0 + 25.0 * max(theta, lam))
    parts = [np.linspace(-0.5, 0.0, 11), np.linspace(0.0, T, n_uniform)]
    if n_log > 0:
        parts.append(np.geomspace(t_min, T, n_log))
    return np.unique(np.concatenate(parts))


def estimate_epsilon(alpha, theta, lam, Delta=1.0, *, t_min=1e-12, n_log=120, n_uniform=120,
                     refine=4, include_zero=True):
    r"""Float64 estimate of the tight epsilon :math:`\sup_t \ln f_A(t) - \ln f_A(t+\Delta)`.

    Works at :math:`\Delta = 1` (``theta/Delta``, ``lam/Delta``) by scale
    invariance.  Points: 11 uniform on :math:`[-1/2, 0]`, ``n_uniform`` uniform
    on :math:`[0, T]`, ``n_log`` log-spaced on :math:`[t_{\min}, T]`,
    :math:`T = \max(4, 1 + 25\max(\theta,\lambda))`; then ``refine`` zoom
    rounds of 25 points between the neighbours of the best point (log-spaced
    when the bracket spans more than a factor 4); the result is the larger of
    that maximum and the tail limit :math:`1/\max(\theta,\lambda)`, the limit of
    the ratio as :math:`t\to\infty` (the heavier exponential tail wins; for
    :math:`\lambda < \theta` and :math:`\alpha < 1` it is approached from above,
    since :math:`f_{\Gamma-\Gamma}(t) \sim t^{\alpha-1}e^{-t/\theta}`).

    Accuracy: :func:`arete_proofs.distributions.fast.logpdf` has absolute error below
    :math:`10^{-13}\max(1, |\ln f|)`; against the exact
    :func:`arete_proofs.privacy.tight.tight_epsilon` the estimate agrees to about
    :math:`10^{-10}` on the parameter sets of ``tests/test_optimize.py``.  The
    keyword arguments exist to build deliberately coarse variants for tests
    (``n_log=0, include_zero=False`` misses the peak at tiny :math:`t`).

    >>> # Laplace limit (alpha -> 0, lam < theta): the loss of Laplace(lam) is Delta/lam (Lemma 26)
    >>> abs(estimate_epsilon(1e-7, 1.0, 0.25).epsilon - 4) < 1e-5
    True
    """
    alpha = _float_positive(alpha, "alpha")
    D = _float_positive(Delta, "Delta")
    theta = _float_positive(theta, "theta") / D
    lam = _float_positive(lam, "lam") / D
    t = _grid(theta, lam, t_min, n_log, n_uniform)
    if not include_zero:
        t = t[t != 0.0]
    g = _log_ratio(t, alpha, theta, lam)
    i = int(np.argmax(g))
    best_t, best = float(t[i]), float(g[i])
    grid_max = best
    lo, hi = float(t[max(i - 1, 0)]), float(t[min(i + 1, t.size - 1)])
    for _ in range(refine):
        if lo >= 0.0 and hi > 0.0 and (lo == 0.0 or hi / lo > 4.0):
            l0 = max(lo, hi * 1e-8)
            tt = np.geomspace(l0, hi, 25)
            if lo == 0.0 and include_zero:
                tt = np.concatenate([[0.0], tt])
        else:
            tt = np.linspace(lo, hi, 25)
        gg = _log_ratio(tt, alpha, theta, lam)
        j = int(np.argmax(gg))
        if gg[j] > best:
            best, best_t = float(gg[j]), float(tt[j])
        lo, hi = float(tt[max(j - 1, 0)]), float(tt[min(j + 1, tt.size - 1)])
    tail = 1.0 / max(theta, lam)
    if tail >= best:
        return EpsilonEstimate(tail, math.inf, grid_max, tail)
    return EpsilonEstimate(best, best_t * D, grid_max, tail)


# ---------------------------------------------------------------------------
# float64 search at Delta = 1
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchResult:
    r"""Float64 optimum at ``Delta = 1``: parameters, estimated epsilon, objective value.

    ``value`` is the objective (:math:`E|Z|` or :math:`\operatorname{Var} Z`) at
    ``(alpha, theta, lam)``; ``epsilon`` (the estimator's) is at most the target.

    >>> from arete_proofs import fast
    >>> # a stand-in estimator: the tail limit 1/max(theta, lam) (exact for alpha >= 1)
    >>> r = search(2.0, estimator=lambda a, th, lam: 1 / max(th, lam), starts=[(1.0, 1.0)])
    >>> r.epsilon <= 2.0 and r.value == fast.mean_abs(r.alpha, r.theta, r.lam)
    True
    """

    alpha: float
    theta: float
    lam: float
    epsilon: float
    value: float
    evaluations: int
    seconds: float


def _objective_value(objective, alpha, theta, lam):
    if objective == "mean_abs":
        return fast.mean_abs(alpha, theta, lam)
    return fast.var(alpha, theta, lam)


class _Solver:
    """Smallest feasible lam for fixed (alpha, theta), with a counter of estimates."""

    def __init__(self, target, estimator):
        self.target = target
        self.estimator = estimator
        self.evaluations = 0
        self.u_hi = -math.log(target)  # lam = 1/target: Laplace alone meets the target
        self.slope = -1.0  # d eps / d ln lam, updated from the secant steps
        self.last = None

    def h(self, alpha, theta, u):
        self.evaluations += 1
        return self.estimator(alpha, theta, math.exp(u)) - self.target

    def lam(self, alpha, theta, guess=None):
        """Return ``u = ln lam``, the smallest lam with ``estimate <= target`` (``|h| <= 1e-12 target``).

        Safeguarded secant in ``u`` (the estimate is close to linear in ``ln lam``):
        secant steps from the remembered slope until the root is bracketed,
        then secant steps kept inside the bracket (bisection otherwise).  At the
        box ends: ``lam = 1/target`` (the Laplace endpoint) is returned when even
        it is estimated infeasible (float noise; it is feasible by Lemma 26),
        ``lam = theta/1e6`` when that is still feasible.
        """
        u_lo = math.log(theta / _RHO_MAX)
        u_hi = self.u_hi
        if u_lo >= u_hi:
            self.last = u_hi
            return u_hi
        if alpha >= 1.0:
            # closed case (arete_proofs.privacy.tight, item 7): f_A is log-concave (Prekopa), so the tight
            # epsilon is the tail limit 1/max(theta, lam), flat in lam below theta
            self.last = u_lo if 1.0 / theta <= self.target else u_hi
            return self.last
        tol = 1e-3 * _MARGIN * self.target
        if guess is None:
            guess = self.last if self.last is not None else u_hi - 1.0
        u = min(max(guess, u_lo), u_hi)
        h = self.h(alpha, theta, u)
        a = b = None  # a: infeasible (h > 0), b: feasible (h <= 0)
        slope = self.slope
        for _ in range(40):
            if h > 0:
                a = u
            else:
                b, hb = u, h
            if abs(h) <= tol:
                break
            if a is not None and b is not None and abs(b - a) <= 1e-10:
                u, h = b, hb  # flat h (e.g. alpha near 1): keep the feasible end
                break
            un = u - h / slope
            if a is not None and b is not None:
                lo, hi = min(a, b), max(a, b)
                if not lo < un < hi:
                    un = 0.5 * (a + b)
            else:
                du = min(max(abs(un - u), 1e-12), 4.0)
                un = min(max(u + math.copysign(du, 1.0 if h > 0 else -1.0), u_lo), u_hi)
                if un == u:  # at a bound of the box
                    self.last = u_hi if h > 0 else u_lo
                    return self.last
            hn = self.h(alpha, theta, un)
            if un != u and hn != h:
                s_new = (hn - h) / (un - u)
                if s_new < 0:
                    slope = s_new
            u, h = un, hn
        else:  # no convergence: the feasible end of the bracket, else the Laplace endpoint
            if h > 0:
                u = b if b is not None else u_hi
        if slope < 0:
            self.slope = slope
        self.last = u
        return u


def _default_estimator(alpha, theta, lam):
    return estimate_epsilon(alpha, theta, lam).epsilon


class AreteProblem(SearchProblem):
    r"""The Arete family's problem for the generic optimiser (:mod:`arete_proofs.privacy.optimizer`).

    Free coordinates :math:`(\ln\alpha, \ln\theta)` in the box of :func:`search`; the calibrated
    parameter is :math:`\lambda`, the smallest feasible for the float64 estimate
    (``_Solver``); the starts come from a coarse scan (or ``starts``); passes: step 0.4 from
    every start, then step 0.05 with ``xatol``, ``fatol`` from the best.  Confirmation: the
    exact :func:`arete_proofs.privacy.tight.tight_epsilon`; while above the target,
    :math:`\lambda` is re-solved for the target lowered by the estimate's error there and a
    doubling margin (:func:`optimize`).

    >>> p = AreteProblem(2.0, estimator=lambda a, th, lam: 1 / max(th, lam), starts=[(1.0, 1.0)])
    >>> x = p.starts()[0]                      # (ln alpha, ln theta) of the given start
    >>> p.finish(x)[1] <= 2.0                  # the calibrated lam meets the target (Lemma 26's endpoint)
    True
    """

    family = "arete"
    fine = None  # set per instance (xatol, fatol)

    def __init__(self, eps, *, objective="mean_abs", estimator=None, starts=None, xatol=3e-4, fatol=1e-9):
        target0 = _target(eps)
        super().__init__(target0, objective=_objective(objective))
        self.eps_text = eps  # the target compared with the exact epsilon: the value as given
        self.est = _default_estimator if estimator is None else estimator
        self.target = target0 * (1.0 - _MARGIN)
        self.solver = _Solver(self.target, self.est)
        self.given_starts = starts
        self.fine = Pass(step=0.05, xatol=xatol, fatol=fatol, maxfev=400)
        self.coarse = Pass(step=0.4, xatol=1e-2, fatol=1e-6, maxfev=400)
        self.lams = {}
        self.box = (math.log(_ALPHA_MIN), math.log(_ALPHA_MAX), math.log(_THETA_MIN), math.log(_THETA_MAX))
        self.margin = _MARGIN * target0

    @property
    def evaluations(self):
        return self.solver.evaluations

    @evaluations.setter
    def evaluations(self, value):
        if hasattr(self, "solver"):
            self.solver.evaluations = value

    def _clamp(self, x):
        la_lo, la_hi, lt_lo, lt_hi = self.box
        la, lt = float(x[0]), float(x[1])
        return min(max(la, la_lo), la_hi), min(max(lt, lt_lo), lt_hi), la, lt

    def F(self, x, guess=None):
        cla, clt, la, lt = self._clamp(x)
        pen = abs(la - cla) + abs(lt - clt)
        a, th = math.exp(cla), math.exp(clt)
        u = self.solver.lam(a, th, guess)
        self.lams[(cla, clt)] = u
        return math.log(_objective_value(self.objective, a, th, math.exp(u))) + 10.0 * pen

    def begin_pass(self):
        self.solver.last = None

    def starts(self):
        if self.given_starts is not None:
            return [np.array([math.log(_float_positive(a, "alpha")), math.log(_float_positive(th, "theta"))])
                    for a, th in self.given_starts]
        target = self.target
        alphas = np.geomspace(max(1e-6, math.exp(-target / 2) / 30), 1.0, 7)
        thetas = np.geomspace(0.2, 2.0, 5) * max(1.0, 2.0 / target)
        vals = np.empty((alphas.size, thetas.size))
        for i, a in enumerate(alphas):
            row_guess = None
            for j, th in enumerate(thetas):
                vals[i, j] = self.F((math.log(a), math.log(th)), row_guess)
                row_guess = self.solver.last
        order = np.dstack(np.unravel_index(np.argsort(vals, axis=None), vals.shape))[0]
        i0, j0 = order[0]
        picks = [(i0, j0)]
        for i, j in order[1:]:
            if max(abs(i - i0), abs(j - j0)) > 1:
                if vals[i, j] <= vals[i0, j0] + math.log(1.1):
                    picks.append((i, j))
                break
        return [np.array([math.log(alphas[i]), math.log(thetas[j])]) for i, j in picks]

    def finish(self, x):
        la, lt, _, _ = self._clamp(x)
        a, th = math.exp(la), math.exp(lt)
        u = self.solver.lam(a, th, self.lams.get((la, lt)))
        lam = math.exp(u)
        e = self.est(a, th, lam)
        self.solver.evaluations += 1
        return {"alpha": a, "theta": th, "lam": lam}, float(e), float(_objective_value(self.objective, a, th, lam))

    # -- confirmation: the exact tight epsilon -------------------------------------------
    def scaled(self, params, D):
        return {"alpha": params["alpha"], "theta": params["theta"] * D, "lam": params["lam"] * D}

    def certify(self, params, Delta, digits):
        from . import tight

        return tight.tight_epsilon(params["alpha"], params["theta"], params["lam"], Delta, digits=digits)

    def moments(self, params, digits):
        p = (params["alpha"], params["theta"], params["lam"])
        return arete.mean_abs(*p, digits=digits), arete.var(*p, digits=digits)

    def bound(self, result):
        return result.epsilon

    def recalibrate(self, params, result, eps_mp, attempt):
        # the float64 estimate's error at this point, and lam re-solved for a target lowered
        # by it (a search that ignored the constraint has no such error: lam is just re-solved)
        a, th1, lam1 = params["alpha"], params["theta"], params["lam"]
        offset = max(0.0, float(result.epsilon) - _default_estimator(a, th1, lam1))
        self.solver.evaluations += 1
        self.margin *= 2
        solver = _Solver(self.eps * (1.0 - _MARGIN) - offset - self.margin, _default_estimator)
        u = solver.lam(a, th1, math.log(lam1))
        self.solver.evaluations += solver.evaluations
        return {"alpha": a, "theta": th1, "lam": max(math.exp(u), lam1 * (1 + 1e-12))}

    def failure(self, eps, params, result):
        return (f"could not confirm eps <= {self.eps_text!r} with the exact tight epsilon "
                f"(last {mp.nstr(result.epsilon, 15)} at alpha={params['alpha']!r}, "
                f"theta={params['theta']!r}, lam={params['lam']!r})")


def search(eps, *, objective="mean_abs", seed=None, estimator=None, starts=None, xatol=3e-4,
           fatol=1e-9):
    r"""Float64 minimisation of the objective subject to ``estimator(alpha, theta, lam) <= eps`` at ``Delta = 1``.

    ``estimator(alpha, theta, lam) -> float`` defaults to the epsilon of
    :func:`estimate_epsilon`; tests pass a broken one (a coarse grid) to show
    that :func:`exact_epsilon` catches the result.  For :math:`\alpha \ge 1` the
    estimator is not called: :math:`f_A` is log-concave there (Gamma densities of
    shape :math:`\ge 1` and the Laplace density are, and so is their convolution,
    Prekopa), so the tight epsilon is the tail limit :math:`1/\max(\theta,\lambda)`
    and the smallest feasible :math:`\lambda` is the box's lower end when
    :math:`\theta \ge 1/\varepsilon`, else :math:`1/\varepsilon`.  The search target is
    ``eps * (1 - 1e-9)``.  Returns a :class:`SearchResult`; nothing here is exact.
    The search is :func:`arete_proofs.privacy.optimizer.search` on :class:`AreteProblem`.

    Steps: coarse scan over :math:`\alpha \in [\max(10^{-6}, e^{-\varepsilon/2}/30), 1]`
    (7 values) and :math:`\theta \in [0.2, 2]\max(1, 2/\varepsilon)` (5 values),
    each cell with its smallest feasible :math:`\lambda`; Nelder-Mead on
    :math:`(\ln\alpha, \ln\theta) \mapsto \ln(\text{objective})` from the best
    cell and from the best cell not adjacent to it (when within 10% of the best)
    -- or from ``starts`` (``(alpha, theta)`` pairs) if given -- with initial
    steps 0.4 and loose tolerances, then once more from the best result with
    step 0.05 and ``xatol`` (in :math:`\ln\alpha, \ln\theta`), ``fatol`` (in the
    log of the objective).  The box is :math:`\alpha \in [10^{-7}, 10]`,
    :math:`\theta \in [10^{-3}, 10^3]`, :math:`\lambda \in [10^{-6}\theta, 1/\varepsilon]`
    (a penalty outside).  ``seed`` (``None``: deterministic) jitters the starts by
    a normal perturbation of standard deviation 0.2 in log space.

    >>> # with the tail limit as estimator (exact for alpha >= 1) the result stays in the box
    >>> # and meets the constraint
    >>> r = search(1.0, estimator=lambda a, th, lam: 1 / max(th, lam), starts=[(1.0, 1.0)])
    >>> r.epsilon <= 1.0 and 1e-7 <= r.alpha <= 10 and r.lam <= 1 / 1.0
    True
    """
    problem = AreteProblem(eps, objective=objective, estimator=estimator, starts=starts, xatol=xatol, fatol=fatol)
    p = _optimizer.search(problem, seed=seed)
    return SearchResult(p.params["alpha"], p.params["theta"], p.params["lam"], p.epsilon, p.value,
                        p.evaluations, p.seconds)


# ---------------------------------------------------------------------------
# exact confirmation
# ---------------------------------------------------------------------------


def _privacy():
    try:
        from . import tight as privacy
    except ImportError as exc:  # pragma: no cover - depends on the checkout
        raise ImportError("arete_proofs.privacy.tight (tight_epsilon) is required for the exact check") from exc
    if not hasattr(privacy, "tight_epsilon"):  # pragma: no cover
        raise ImportError("arete_proofs.privacy.tight has no tight_epsilon")
    return privacy


def exact_epsilon(alpha, theta, lam, Delta=1, *, digits=12):
    r"""The exact tight epsilon :math:`\sup_t \ln f_A(t)/f_A(t+\Delta)` (an ``mpf``).

    A thin wrapper of :func:`arete_proofs.privacy.tight.tight_epsilon` (imported when
    first needed).

    >>> from mpmath import mp
    >>> # lam >= theta: the tail limit Delta/max(theta, lam) is the supremum
    >>> exact_epsilon("0.3", 1, 2, 3) == mp.mpf(3) / 2
    True
    """
    return _privacy().tight_epsilon(alpha, theta, lam, Delta, digits=digits).epsilon


@dataclass(frozen=True)
class Optimum:
    r"""Result of :func:`optimize`.

    ``alpha, theta, lam`` are floats (the parameters themselves, at the
    requested ``Delta``); ``epsilon`` is their exact tight epsilon
    (``privacy.tight_epsilon`` at ``digits``; :math:`\le` ``target``);
    ``mean_abs`` and ``variance`` are the exact :math:`E|Z|` and
    :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2` (Lemma 3) of
    these parameters; ``evaluations`` counts float64 epsilon estimates,
    ``confirmations`` exact tight-epsilon calls; ``seconds`` is the wall time.
    """

    alpha: float
    theta: float
    lam: float
    epsilon: object
    mean_abs: object
    variance: object
    objective: str
    evaluations: int
    seconds: float
    target: float = math.nan
    Delta: float = 1.0
    confirmations: int = 0

    def value(self):
        """The minimised quantity (``mean_abs`` or ``variance``)."""
        return self.mean_abs if self.objective == "mean_abs" else self.variance


def optimize(eps, Delta=1, *, objective="mean_abs", digits=12, seed=None):
    r"""Arete parameters minimising :math:`E|Z|` (or :math:`\operatorname{Var} Z`) subject to exact :math:`\varepsilon`-DP.

    Runs :func:`search` at :math:`\Delta = 1`, scales :math:`\theta, \lambda` by
    ``Delta`` (scale invariance, module docstring) and confirms with
    :func:`arete_proofs.privacy.tight.tight_epsilon` at ``digits``; while the exact
    value exceeds ``eps``, :math:`\lambda` is re-solved (float64) for the target
    lowered by the estimate's error at that point (exact minus float64 estimate,
    when positive) and a margin :math:`2^k 10^{-9}\varepsilon` (at most 6 exact calls;
    a search result that ignored the constraint is simply re-solved).
    Returns an :class:`Optimum` whose ``epsilon`` is the exact tight epsilon of
    the returned parameters, ``<= eps``.

    Raises ``ValueError`` naming the parameter for ``eps <= 0`` or
    ``eps > EPS_MAX``, ``Delta <= 0``, an unknown ``objective`` or bad
    ``digits``; ``ArithmeticError`` if the confirmation never succeeds.
    Typical time: 5-30 s (float64 search) plus a few exact evaluations.
    """
    D = _float_positive(Delta, "Delta")
    problem = AreteProblem(eps, objective=objective)
    o = _optimizer.optimize(problem, Delta, digits=digits, seed=seed)
    z = o.params
    return Optimum(z["alpha"], z["theta"], z["lam"], o.epsilon, o.mean_abs, o.variance, o.objective, o.evaluations,
                   o.seconds, problem.eps, D, o.confirmations)


# ---------------------------------------------------------------------------
# Figure 4
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure4Comparison:
    """Figure 4's parameters versus :func:`optimize` at the same exact epsilon.

    ``epsilon`` is the exact tight epsilon ``e4`` of Figure 4's set for the
    nominal ``eps``; ``figure_mean_abs`` its exact :math:`E|Z|`; ``optimum``
    the optimizer's result for target ``e4``.
    """

    eps: int
    epsilon: object
    figure_mean_abs: object
    optimum: Optimum

    @property
    def improvement(self):
        """Relative reduction of :math:`E|Z|`: ``1 - E|Z|_opt / E|Z|_fig`` (positive when the optimizer wins)."""
        return 1 - self.optimum.mean_abs / self.figure_mean_abs


def compare_figure_4(eps, *, digits=12, seed=None):
    r"""Optimize at the exact epsilon of Figure 4's parameter set for ``eps`` in {6, 7, 8}.

    Computes :math:`e_4 = \varepsilon_A(\alpha_4,\theta_4,\lambda_4)` exactly (:math:`\Delta = 1`),
    runs :func:`optimize` with target :math:`e_4` and returns both
    :math:`E|Z|` values (:class:`Figure4Comparison`).
    """
    if eps not in FIGURE_4:
        raise ValueError(f"eps must be one of {sorted(FIGURE_4)}, got {eps!r}")
    a, th, lam = FIGURE_4[eps]
    e4 = exact_epsilon(a, th, lam, 1, digits=digits)
    opt = optimize(e4, 1, objective="mean_abs", digits=digits, seed=seed)
    return Figure4Comparison(eps, e4, arete.mean_abs(a, th, lam, digits=digits), opt)
