r"""Error of the Laplace, Staircase and Arete mechanisms at a given privacy level.

For a query of sensitivity :math:`\Delta` and privacy parameter :math:`\varepsilon`
the additive noise :math:`X` of each mechanism has (all exact, ``mpf``):

* **Laplace** (Lemma 26, :math:`\lambda = \Delta/\varepsilon`):
  :math:`E|X| = \Delta/\varepsilon`, :math:`\operatorname{Var} X = 2\Delta^2/\varepsilon^2`
  (:func:`laplace_errors`);
* **Staircase** (Lemma 27, Geng & Viswanath): :math:`E|X|` at the
  :math:`\gamma` minimising it, :math:`\gamma = 1/(1+e^{\varepsilon/2})`, and,
  separately, :math:`\operatorname{Var} X` at the :math:`\gamma` minimising the
  variance (:func:`staircase_errors`; closed forms in :mod:`arete_proofs.distributions.staircase`);
* **Arete** :math:`(\alpha, \theta, \lambda)`: exact :math:`E|Z|`
  (:func:`arete_proofs.distributions.arete.mean_abs`) and
  :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2` (Lemma 3)
  (:func:`arete_errors`); with Lemma 3's parameters
  :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`
  in :func:`paper_errors` (flagged whether the lemma's hypotheses
  :math:`\Delta \ge 2/e`, :math:`\varepsilon \ge 20 + 4\ln\Delta` hold), and
  with the numerically optimal parameters (:mod:`arete_proofs.privacy.optimize`) in
  :func:`comparison_table`; with the empirical parameter sets of the paper's
  Figure 4 (:data:`arete_proofs.distributions.params.FIGURE_4`, :math:`\Delta = 1`) and
  their exact tight :math:`\varepsilon^*` in :func:`figure_4_errors`.

:func:`comparison_table` returns one :class:`ComparisonRow` per :math:`\varepsilon`;
:meth:`ComparisonRow.entries` lists its lines (one :class:`ComparisonEntry` per
mechanism: errors, parameters and, where computed, the exact tight epsilon), the
single source of both the text and the JSON table of ``arete compare``.

Every function takes ``digits`` (default 15) and validates its input
(``ValueError`` naming the parameter).

>>> from mpmath import mp
>>> lap, sc = laplace_errors(8, 1), staircase_errors(8, 1)
>>> sc.mean_abs < lap.mean_abs and sc.variance < lap.variance   # Staircase beats Laplace (Lemma 27)
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from mpmath import mp

from ..distributions import arete, params, staircase
from .._validation import GUARD_DIGITS, parse_precision, positive, resolve_digits

__all__ = [
    "NoiseErrors",
    "ComparisonEntry",
    "ComparisonRow",
    "laplace_errors",
    "staircase_errors",
    "arete_errors",
    "paper_errors",
    "figure_4_errors",
    "comparison_table",
    "DEFAULT_DIGITS",
]

#: Default number of significant digits of every result.
DEFAULT_DIGITS = 15

_OBJECTIVES = ("mean_abs", "variance")


@dataclass(frozen=True)
class NoiseErrors:
    r"""Exact :math:`E|X|` and :math:`\operatorname{Var} X` of one mechanism's noise.

    ``parameters`` maps parameter names to values (for the Staircase,
    ``gamma_mean_abs`` and ``gamma_var``: the two errors use different
    :math:`\gamma`).  ``lemma3_applies`` is set by :func:`paper_errors` only.

    >>> from mpmath import mp
    >>> e = laplace_errors(2)                 # Lemma 26: lam = Delta/eps = 1/2
    >>> e.mechanism, mp.almosteq(e.variance, 2 * e.parameters["lam"] ** 2)
    ('laplace', True)
    """

    mechanism: str
    mean_abs: object
    variance: object
    parameters: dict = field(hash=False)
    eps: object = None
    Delta: object = None
    lemma3_applies: bool | None = None

    def value(self, objective):
        """``mean_abs`` or ``variance`` by name."""
        if objective not in _OBJECTIVES:
            raise ValueError(f"objective must be one of {_OBJECTIVES}, got {objective!r}")
        return self.mean_abs if objective == "mean_abs" else self.variance


def _eps_delta(eps, Delta, d):
    with mp.workdps(parse_precision(d)):
        return positive(eps, "eps"), positive(Delta, "Delta")


def laplace_errors(eps, Delta=1, *, digits=DEFAULT_DIGITS):
    r"""Laplace mechanism (Lemma 26): :math:`\lambda = \Delta/\varepsilon`, :math:`E|X| = \lambda`, :math:`\operatorname{Var} X = 2\lambda^2`.

    >>> from mpmath import mp
    >>> e = laplace_errors(3, 2)
    >>> mp.almosteq(e.variance, 2 * e.mean_abs**2)   # Var = 2 (E|X|)^2 for the Laplace law
    True
    """
    d = resolve_digits(digits)
    eps, Delta = _eps_delta(eps, Delta, d)
    with mp.workdps(d + GUARD_DIGITS):
        lam = Delta / eps
        return NoiseErrors("laplace", +lam, 2 * lam**2, {"lam": +lam}, eps, Delta)


def staircase_errors(eps, Delta=1, *, digits=DEFAULT_DIGITS):
    r"""Staircase mechanism (Lemma 27): :math:`E|X|` at :math:`\gamma_1 = 1/(1+e^{\varepsilon/2})`, :math:`\operatorname{Var} X` at :math:`\gamma_2 = (c_* - r)/(1 - r)`.

    With :math:`r = e^{-\varepsilon}`, :math:`q = 1 - r`, :math:`c = r + q\gamma`:
    :math:`E|X| = \Delta\big(\frac{r + q\gamma^2}{2c} + \frac{r}{q}\big)` (at
    :math:`\gamma_1`: :math:`\Delta(\gamma_1 + r/q) = \Theta(\Delta e^{-\varepsilon/2})`) and
    :math:`\operatorname{Var} X = \Delta^2\big(\frac{r(1+r)}{q^2} + \frac{r}{q}\frac{r + q\gamma^2}{c}
    + \frac{r + q\gamma^3}{3c}\big)` (at :math:`\gamma_2`, :math:`c_*^3 = r(1+r)/2`:
    :math:`\Theta(\Delta^2 e^{-2\varepsilon/3})`); see
    :func:`arete_proofs.distributions.staircase.mean_abs`, :func:`~arete_proofs.distributions.staircase.var`.

    >>> from arete_proofs import staircase
    >>> e = staircase_errors(6, 1)
    >>> e.mean_abs <= staircase.mean_abs("0.5", 1, 6)    # optimal gamma beats gamma = 1/2
    True
    >>> e.variance <= staircase.var(e.parameters["gamma_mean_abs"], 1, 6)   # and each gamma is optimal for its own error
    True
    """
    d = resolve_digits(digits)
    eps, Delta = _eps_delta(eps, Delta, d)
    g1 = staircase.gamma_mean_abs(eps, digits=d + 5)
    g2 = staircase.gamma_var(eps, digits=d + 5)
    m = staircase.mean_abs(g1, Delta, eps, digits=d)
    v = staircase.var(g2, Delta, eps, digits=d)
    return NoiseErrors("staircase", m, v, {"gamma_mean_abs": g1, "gamma_var": g2}, eps, Delta)


def arete_errors(alpha, theta, lam, *, digits=DEFAULT_DIGITS):
    r"""Arete noise :math:`Z = X_1 - X_2 + Y`: exact :math:`E|Z|` and :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2` (Lemma 3).

    :math:`E|Z| = \frac{4\theta\Gamma(2\alpha)}{4^\alpha\Gamma(\alpha)^2} + 2\lambda^2 f_A(0)`
    (:func:`arete_proofs.distributions.arete.mean_abs`).  No privacy level is implied.

    >>> from mpmath import mp
    >>> e = arete_errors("0.05", "0.5", "0.05")
    >>> e.mean_abs <= 2 * mp.mpf("0.05") * mp.mpf("0.5") + mp.mpf("0.05")   # Lemma 3's bound 2 alpha theta + lam
    True
    >>> e.mean_abs**2 <= e.variance                                         # Jensen
    True
    """
    d = resolve_digits(digits)
    m = arete.mean_abs(alpha, theta, lam, digits=d)
    v = arete.var(alpha, theta, lam, digits=d)
    with mp.workdps(parse_precision(d)):
        a, th, la = (positive(x, n) for x, n in ((alpha, "alpha"), (theta, "theta"), (lam, "lam")))
    return NoiseErrors("arete", m, v, {"alpha": a, "theta": th, "lam": la})


def paper_errors(eps, Delta=1, *, digits=DEFAULT_DIGITS):
    r"""Arete with Lemma 3's parameters :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`.

    ``lemma3_applies`` tells whether Lemma 3 proves :math:`\varepsilon`-DP for
    them (:math:`\Delta \ge 2/e` and :math:`\varepsilon \ge 20 + 4\ln\Delta`);
    the errors are computed either way.  Lemma 3 bounds
    :math:`E|Z| \le 2\alpha\theta + \lambda = O(\Delta e^{-\varepsilon/4})`.

    >>> from mpmath import mp
    >>> e = paper_errors(20, 1)
    >>> a, th = mp.exp(-5), mp.mpf(1) / 5
    >>> e.lemma3_applies and e.mean_abs <= 2 * a * th + a     # Lemma 3's bound
    True
    >>> mp.almosteq(e.variance, 2 * a * th**2 + 2 * a**2)     # Lemma 3's variance
    True
    """
    d = resolve_digits(digits)
    eps, Delta = _eps_delta(eps, Delta, d)
    a, th, la = params.paper_parameters(eps, Delta, digits=d + 5)
    e = arete_errors(a, th, la, digits=d)
    return NoiseErrors("paper", e.mean_abs, e.variance, e.parameters, eps, Delta,
                       params.lemma3_applies(eps, Delta))


def figure_4_errors(eps, *, digits=DEFAULT_DIGITS, epsilon_digits=12):
    r"""The paper's Figure-4 set for nominal ``eps`` in {6, 7, 8} (:math:`\Delta = 1`): exact errors and tight :math:`\varepsilon^*`.

    The sets (:data:`arete_proofs.distributions.params.FIGURE_4`) were found
    empirically to give :math:`\varepsilon = 6, 7, 8`.  The result's ``eps`` is
    their exact tight :math:`\varepsilon^* = \sup_t \ln f_A(t)/f_A(t+1)`
    (:func:`arete_proofs.privacy.tight.tight_epsilon` at ``epsilon_digits``; slightly
    below the nominal value), ``mean_abs`` and ``variance`` the exact :math:`E|Z|` and
    :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2` (:func:`arete_errors`),
    ``parameters`` the set's :math:`(\alpha, \theta, \lambda)`.

    >>> e = figure_4_errors(8, epsilon_digits=5)
    >>> a, th, lam = (e.parameters[k] for k in ("alpha", "theta", "lam"))
    >>> e.eps <= 8 and e.mean_abs <= 2 * a * th + lam   # 8-DP, and Lemma 3's bound on E|Z|
    True
    """
    try:
        known = not isinstance(eps, bool) and eps in params.FIGURE_4
    except TypeError:  # unhashable
        known = False
    if not known:
        raise ValueError(f"eps must be one of {sorted(params.FIGURE_4)} (the sets of Figure 4), got {eps!r}")
    from .tight import tight_epsilon

    d = resolve_digits(digits)
    a, th, lam = params.FIGURE_4[eps]
    e4 = tight_epsilon(a, th, lam, 1, digits=epsilon_digits).epsilon
    e = arete_errors(a, th, lam, digits=d)
    return NoiseErrors("figure-4", e.mean_abs, e.variance, e.parameters, e4, mp.mpf(1))


def _json_number(x, digits):
    """``x`` with ``digits`` significant digits (all of an ``mpf``'s digits, whatever ``mp.dps`` is)."""
    if x is None:
        return None
    if not isinstance(x, mp.mpf):
        with mp.workdps(digits + 10):
            x = mp.mpf(x)
    return mp.nstr(x, digits)


def _json_parameter(v, digits):
    """Floats (the optimizer's parameters, certified as they are) exactly; mpf to ``digits`` digits."""
    if isinstance(v, (bool, str)):
        return v
    if isinstance(v, float):
        return repr(v)
    return _json_number(v, digits)


@dataclass(frozen=True)
class ComparisonEntry:
    r"""One line of the comparison table: a mechanism's exact :math:`E|X|` and :math:`\operatorname{Var} X`.

    ``noise``: ``"arete-optimized"``, ``"laplace"`` (Lemma 26), ``"staircase"``
    (Lemma 27), ``"arete-paper"`` (Lemma 3's parameters) or ``"arete-figure-4"``
    (:func:`figure_4_errors`).  ``parameters``: name -> value (floats for the
    optimizer's parameters, which are exactly the ones whose epsilon was certified;
    ``mpf`` otherwise).  ``epsilon``: the exact tight epsilon of the parameters where
    it is computed (``arete-optimized``, ``arete-figure-4``), else ``None`` (Laplace and
    Staircase are exactly :math:`\varepsilon`-DP, the paper's parameters by Lemma 3).

    >>> lap, sc, paper = comparison_table([20], optimized=False)[0].entries()
    >>> lap.noise, lap.mean_abs == lap.parameters["lam"]   # Lemma 26: E|X| = lam = Delta/eps
    ('laplace', True)
    >>> sorted(sc.parameters), sc.mean_abs < paper.mean_abs
    (['gamma_mean_abs', 'gamma_var'], True)
    """

    noise: str
    mean_abs: object
    variance: object
    parameters: dict = field(hash=False)
    epsilon: object = None

    def as_dict(self, digits=15):
        """JSON-friendly dict: numbers as decimal strings with ``digits`` digits, the optimizer's floats exactly."""
        d = {"noise": self.noise, "mean_abs": _json_number(self.mean_abs, digits),
             "variance": _json_number(self.variance, digits),
             "parameters": {k: _json_parameter(v, digits) for k, v in self.parameters.items()}}
        if self.epsilon is not None:
            d["epsilon_exact"] = _json_number(self.epsilon, digits)
        return d


@dataclass(frozen=True)
class ComparisonRow:
    r"""One row of :func:`comparison_table`.

    ``arete`` is the :class:`arete_proofs.privacy.optimize.Optimum` (``None`` when
    ``optimized=False``); ``paper`` is ``None`` where Lemma 3 does not apply;
    ``figure_4`` is the :func:`figure_4_errors` of the Figure-4 set whose exact tight
    epsilon is ``eps`` (``None`` in the rows of the given ``eps_values``).

    >>> row = comparison_table([20], optimized=False)[0]
    >>> row.arete is None, row.paper is not None    # Lemma 3 applies at eps = 20, Delta = 1
    (True, True)
    >>> row.staircase.mean_abs <= row.laplace.mean_abs   # Lemma 27 vs Lemma 26
    True
    """

    eps: object
    Delta: object
    objective: str
    arete: object
    laplace: NoiseErrors
    staircase: NoiseErrors
    paper: NoiseErrors | None
    figure_4: NoiseErrors | None = None

    def values(self):
        """The objective per mechanism (``mpf``), only for the mechanisms present."""
        out = {}
        if self.arete is not None:
            out["arete_opt"] = self.arete.mean_abs if self.objective == "mean_abs" else self.arete.variance
        out["laplace"] = self.laplace.value(self.objective)
        out["staircase"] = self.staircase.value(self.objective)
        if self.paper is not None:
            out["paper"] = self.paper.value(self.objective)
        if self.figure_4 is not None:
            out["figure_4"] = self.figure_4.value(self.objective)
        return out

    def entries(self):
        """The table's lines at this ``eps``: a list of :class:`ComparisonEntry`, in the order
        arete-optimized, laplace, staircase, arete-paper, arete-figure-4 (those present)."""
        out = []
        if self.arete is not None:
            o = self.arete
            out.append(ComparisonEntry("arete-optimized", o.mean_abs, o.variance,
                                       {"alpha": o.alpha, "theta": o.theta, "lam": o.lam}, o.epsilon))
        out.append(ComparisonEntry("laplace", self.laplace.mean_abs, self.laplace.variance,
                                   dict(self.laplace.parameters)))
        out.append(ComparisonEntry("staircase", self.staircase.mean_abs, self.staircase.variance,
                                   dict(self.staircase.parameters)))
        if self.paper is not None:
            out.append(ComparisonEntry("arete-paper", self.paper.mean_abs, self.paper.variance,
                                       dict(self.paper.parameters)))
        if self.figure_4 is not None:
            f = self.figure_4
            out.append(ComparisonEntry("arete-figure-4", f.mean_abs, f.variance, dict(f.parameters), f.eps))
        return out

    def as_dict(self, digits=15):
        """JSON-friendly dict: every number as a decimal string with ``digits`` digits.

        ``entries`` holds every line of the table (:meth:`entries`, each
        :meth:`ComparisonEntry.as_dict`); the other keys are the objective per
        mechanism (:meth:`values`) and the optimizer's details.
        """
        s = functools.partial(_json_number, digits=digits)
        row = {"eps": s(self.eps), "Delta": s(self.Delta), "objective": self.objective}
        row.update({k: s(v) for k, v in self.values().items()})
        if self.arete is not None:
            o = self.arete
            row["arete_opt_params"] = {
                "alpha": repr(o.alpha), "theta": repr(o.theta), "lam": repr(o.lam),
                "epsilon_exact": s(o.epsilon), "mean_abs": s(o.mean_abs), "variance": s(o.variance),
                "seconds": round(o.seconds, 2), "evaluations": o.evaluations,
            }
        row["entries"] = [e.as_dict(digits) for e in self.entries()]
        return row


def _row(e, Delta, d, objective, optimized, optimize_digits, seed, figure_4=None):
    eps, D = _eps_delta(e, Delta, d)
    paper = paper_errors(e, Delta, digits=d)
    opt = None
    if optimized:
        from .optimize import optimize

        opt = optimize(e, Delta, objective=objective, digits=optimize_digits, seed=seed)
    return ComparisonRow(eps, D, objective, opt, laplace_errors(e, Delta, digits=d),
                         staircase_errors(e, Delta, digits=d),
                         paper if paper.lemma3_applies else None, figure_4)


def comparison_table(eps_values, Delta=1, *, objective="mean_abs", optimized=True,
                     digits=DEFAULT_DIGITS, optimize_digits=12, seed=None, figure_4=False):
    r"""Rows comparing Arete-optimized, Laplace, Staircase and (where Lemma 3 applies) the paper's parameters.

    For each :math:`\varepsilon` in ``eps_values``: :func:`laplace_errors`,
    :func:`staircase_errors`, :func:`paper_errors` when its ``lemma3_applies``,
    and, with ``optimized=True``, :func:`arete_proofs.privacy.optimize.optimize` for
    ``objective`` (``tight_epsilon`` at ``optimize_digits``; seconds per row).
    With ``figure_4=True`` (only for ``Delta = 1``), after them one row per set of
    the paper's Figure 4 (nominal 6, 7, 8) at the set's exact tight epsilon
    (:func:`figure_4_errors` at ``optimize_digits``), with the same mechanisms at that
    epsilon and the set itself as ``figure_4``; ``eps_values`` may then be empty.
    Returns a list of :class:`ComparisonRow`.

    >>> rows = comparison_table([4, 20], objective="variance", optimized=False)
    >>> [r.paper is not None for r in rows]              # Lemma 3 needs eps >= 20 for Delta = 1
    [False, True]
    >>> all(r.staircase.variance <= r.laplace.variance for r in rows)   # Lemma 27 vs Lemma 26
    True
    """
    if objective not in _OBJECTIVES:
        raise ValueError(f"objective must be one of {_OBJECTIVES}, got {objective!r}")
    d = resolve_digits(digits)
    if isinstance(eps_values, (str, bytes)) or not hasattr(eps_values, "__iter__"):
        raise ValueError(f"eps_values must be a sequence of positive numbers, got {eps_values!r}")
    eps_list = list(eps_values)
    if not eps_list and not figure_4:
        raise ValueError("eps_values must not be empty")
    for e in eps_list:
        _eps_delta(e, Delta, d)  # validate everything before any long computation
    if figure_4:
        _, D = _eps_delta(1, Delta, d)
        if D != 1:
            raise ValueError(f"Delta must be 1 with figure_4=True (Figure 4's sets are for Delta = 1), "
                             f"got {Delta!r}")
    rows = [_row(e, Delta, d, objective, optimized, optimize_digits, seed) for e in eps_list]
    if figure_4:
        for nominal in sorted(params.FIGURE_4):
            f = figure_4_errors(nominal, digits=d, epsilon_digits=optimize_digits)
            rows.append(_row(f.eps, Delta, d, objective, optimized, optimize_digits, seed, f))
    return rows
