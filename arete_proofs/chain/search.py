r"""Counterexample search: maximise :math:`\ln(\mathrm{lhs}/\mathrm{rhs})` over a statement's hypothesis region.

A grid checks a bound at chosen points; between them nothing is looked at.  For
every bound ``lhs <= rhs`` of a statement (:mod:`arete_proofs.chain.registry`),
:func:`search_bound` maximises the **violation**

.. math::

    v(x) = \ln \mathrm{lhs}(x) - \ln \mathrm{rhs}(x) = -\text{slack}(x)

over every free symbol of the statement (after its substitutions, e.g. Lemma 19's
:math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`):

* coordinates: :math:`\ln x` for a positive symbol, :math:`\operatorname{asinh}(x/s)`
  (logarithmic far from 0, linear near it) for a signed one; the box spans the
  statement's grid (with the regime points) widened by a factor 4 on each side and
  always reaching the domain ends :math:`\varepsilon = 80`, :math:`\Delta = 10^4` (the lengths
  t, a, theta, ... grow with :math:`\Delta`), capped there;
* hypotheses are constraints (a point that violates one gets a penalty), met
  with a relative margin of :math:`10^{-9}`, so the boundary of the region (where a
  bound often binds) is reached up to that margin and the rounded point still
  satisfies the hypotheses exactly;
* global and local: the population of :func:`scipy.optimize.differential_evolution`
  starts from the grid's worst points (by the float64 violation) plus a seeded
  Latin hypercube; the best points are then refined by bounded Nelder-Mead;
* faces and ends: each face of the hypothesis region (one hypothesis held with equality,
  the point projected onto it along a coordinate it depends on, the others as constraints)
  and each domain end (:math:`\Delta = 10^4` with the lengths scaled, :math:`\varepsilon = 80`)
  is searched by Nelder-Mead from the best points (a third more evaluations), so a bound
  false only on the boundary or at the far end of a domain is reached;
* evaluation on the float64 path (:mod:`arete_proofs.distributions.fast` for
  :math:`f_A`, :math:`f_{\Gamma-\Gamma}`, :math:`E|Z|`; closed forms in mpmath at
  15 digits; the engine at 15 digits for the rest);
* every candidate (the best few distinct points) is rounded to an exact decimal
  and **confirmed** by the exact engine with :func:`arete_proofs.chain.verify.check_task`
  (re-evaluated at higher digits when within the numerical error).  Only a
  confirmed negative slack is a counterexample.

The search is deterministic for a given ``seed``.

>>> import sympy as sp
>>> from arete_proofs.chain.registry import REGISTRY
>>> from arete_proofs.chain.symbols import Delta, eps, lam
>>> import dataclasses
>>> st = REGISTRY["lemma-26"]   # Laplace mechanism: f_L(t)/f_L(t + a) <= e^eps, tight
>>> r = search_bound(st, st.bounds[0], budget=200, level="quick", progress=False)
>>> r.status in ("holds", "tight"), r.evaluations > 0
(True, True)
>>> bad = dataclasses.replace(st, substitutions={lam: 9 * Delta / (10 * eps)})
>>> search_bound(bad, bad.bounds[0], budget=200, level="quick", progress=False).status  # lam = 0.9 Delta/eps
'violated'
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import sympy as sp
from mpmath import mp

from .symbols import (
    CONSTANTS, D_Gamma, D_u, Delta, a, alpha, eps, gamma_sc, h, kappa, lam, n, t, theta, working_digits,
)
from .symbols import _NAMESPACE as _ENGINE_NAMESPACE
from .verify import DEFAULT_DIGITS, MAX_DIGITS, _record, check_task

__all__ = ["SearchResult", "search_bound", "search_statement", "float_violation"]

#: Symbols searched in log coordinates (positive by every statement's hypotheses).
_POSITIVE = {alpha, theta, lam, Delta, D_Gamma, D_u, eps, n, h}
#: Caps of the search box (ln of the largest value), from the paper's ranges.
_CAP_HI = {eps: math.log(80.0), Delta: math.log(1e4)}
#: Domain ends the box always reaches (a bound can be false only at large Delta or eps): the
#: largest Delta any statement is read at and the largest eps the chain is used at.
_DOMAIN_END = {eps: math.log(80.0), Delta: math.log(1e4)}
#: Lengths (they scale with Delta): at the end Delta = 1e4 they are scaled with it, so the search
#: there is in the same coordinates t/Delta, a/Delta, theta/Delta, ... as at the grid's Delta.
_LENGTHS = {theta, lam, D_Gamma, D_u, h, t, a, kappa}
_CAP_LO = {alpha: -21.0}
#: Relative margin by which the search meets a hypothesis.
MARGIN = 1e-9
_PENALTY = 1e3


@dataclass
class SearchResult:
    r"""The worst point the search found for one bound, confirmed by the exact engine.

    Fields: ``statement`` and ``bound`` (ids in :mod:`arete_proofs.chain.registry`),
    ``status`` (the exact engine's verdict at ``point``: ``holds``, ``tight`` or
    ``violated``), ``slack`` (the exact

    .. math::

        \text{slack} = \ln(\mathrm{rhs}/\mathrm{lhs}) = -v(x)

    at the worst point, negative for a counterexample), ``float_slack`` (the float64
    path's slack there), ``point`` (symbol name -> exact decimal), ``lhs``/``rhs``
    (both sides, as printed by the engine at ``digits`` digits), ``evaluations``
    (float64 evaluations), ``seconds`` and ``seed``.  ``refuted`` is
    ``status == "violated"``, i.e. a confirmed ``slack < 0``.

    >>> r = SearchResult("lemma-26", "privacy", status="violated", slack=-0.1)  # e^{0.9 eps} for Lemma 26's e^eps
    >>> r.refuted, r.slack < 0, SearchResult("lemma-26", "privacy").refuted    # default: holds, slack = +inf
    (True, True, False)
    """

    statement: str
    bound: str
    status: str = "holds"            # holds, tight or violated (the exact engine's verdict)
    slack: float = math.inf           # exact slack ln(rhs/lhs) at the worst point
    float_slack: float = math.inf     # the float64 path's slack there
    point: dict = field(default_factory=dict)   # symbol name -> exact decimal
    lhs: str = ""
    rhs: str = ""
    digits: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    seed: int = 0

    @property
    def refuted(self) -> bool:
        return self.status == "violated"


# ---------------------------------------------------------------------------
# the float64 path
# ---------------------------------------------------------------------------

def _fast():
    from ..distributions import fast

    return fast


def _f_A(x, al, th, la):
    try:
        return mp.exp(_fast().logpdf(float(abs(x)), float(al), float(th), float(la)))
    except (ValueError, ArithmeticError, OverflowError):
        return _engine("f_A")(x, al, th, la)


def _f_GG(x, al, th):
    try:
        return mp.exp(_fast().gg_logpdf(float(abs(x)), float(al), float(th)))
    except (ValueError, ArithmeticError, OverflowError):
        return _engine("f_GG")(x, al, th)


def _mean_abs(al, th, la):
    try:
        return mp.mpf(_fast().mean_abs(float(al), float(th), float(la)))
    except (ValueError, ArithmeticError, OverflowError):
        return _engine("mean_abs_A")(al, th, la)


def _engine(name):
    fn = _ENGINE_NAMESPACE[name]

    def call(*args):
        with working_digits(15):
            return fn(*args)

    return call


def _f_Gamma(x, al, th):
    if x <= 0:
        return mp.zero if al < 1 or x < 0 else (mp.inf if al < 1 else mp.one / th)
    return mp.exp((al - 1) * mp.log(x) - x / th - mp.loggamma(al) - al * mp.log(th))


_FLOAT_NAMESPACE = {
    "f_A": _f_A,
    "f_GG": _f_GG,
    "mean_abs_A": _mean_abs,
    "f_Gamma": _f_Gamma,
    "f_L": lambda x, la: mp.exp(-abs(x) / la) / (2 * la),
    "c_DGam": lambda d, al, th: mp.gammainc(al, 0, d / th, regularized=True),
    "c_Du": lambda d, al, th: 2 * mp.gammainc(al, 0, d / th, regularized=True),
}
for _name in ("f_SC", "near_mass", "shifted_conv", "var_A_cf", "tight_eps_A"):
    _FLOAT_NAMESPACE[_name] = _engine(_name)


def _float_fn(args, expr):
    expr = sp.sympify(expr).subs(CONSTANTS)
    # engine-backed functions without a float path (e.g. the 2025 paper's, registered later) run at 15 digits
    space = {**{k: _engine(k) for k in _ENGINE_NAMESPACE if k not in _FLOAT_NAMESPACE}, **_FLOAT_NAMESPACE}
    return sp.lambdify(list(args), expr, modules=[space, "mpmath"])


def _integer_symbols(rels):
    """The symbols a hypothesis ``Eq(x, floor(x))`` makes integers (the 2025 paper's Delta, m, r)."""
    out = set()
    for r in rels:
        if isinstance(r, sp.Eq) and r.lhs.is_Symbol and r.rhs == sp.floor(r.lhs):
            out.add(r.lhs)
    return out


def _violation(lhs, rhs, relation):
    """``-slack`` in mpmath (``+inf`` for a certain violation, ``nan`` when undefined)."""
    if mp.isnan(lhs) or mp.isnan(rhs):
        return mp.nan
    if relation == "==":
        if lhs == rhs:
            return mp.zero
        if lhs <= 0 or rhs <= 0:
            return mp.inf
        return abs(mp.log(rhs) - mp.log(lhs))
    if lhs <= 0:
        return mp.ninf if rhs >= lhs else mp.inf
    if mp.isinf(rhs):
        return mp.ninf
    if rhs <= 0 or mp.isinf(lhs):
        return mp.inf
    return mp.log(lhs) - mp.log(rhs)


def _margin_fn(rel):
    """A relational as (``b - a``, scale): it holds when the first is >= 0."""
    if isinstance(rel, (sp.Le, sp.Lt)):
        lo, hi = rel.lhs, rel.rhs
    elif isinstance(rel, (sp.Ge, sp.Gt)):
        lo, hi = rel.rhs, rel.lhs
    else:
        return None
    return hi - lo, sp.Abs(hi) + sp.Abs(lo)


class _Problem:
    """One bound of one statement as a function of the search coordinates."""

    def __init__(self, st, bound, starts):
        self.st, self.bound = st, bound
        sub = st.substitutions
        self.lhs = sp.sympify(bound.lhs).subs(sub).subs(CONSTANTS)
        self.rhs = sp.sympify(bound.rhs).subs(sub).subs(CONSTANTS)
        rels = [sp.sympify(hh).subs(sub) for hh in st.hypotheses] + [sp.sympify(w).subs(sub) for w in bound.where]
        syms = set(self.lhs.free_symbols | self.rhs.free_symbols)
        for r in rels:
            if r not in (sp.true, sp.false):
                syms |= r.free_symbols
        self.syms = sorted(syms, key=lambda s: s.name)
        integers = _integer_symbols(rels)
        #: per coordinate: rounded to the nearest integer (>= 1) by to_values (an integer hypothesis)
        self.integer = [s_ in integers for s_ in self.syms]
        self.f_lhs = _float_fn(self.syms, self.lhs)
        self.f_rhs = _float_fn(self.syms, self.rhs)
        self.margins = []
        #: per margin: the indices of the coordinates it depends on (a face is searched along them)
        self.margin_deps = []
        self.margin_rels = []
        for r in rels:
            m = _margin_fn(r) if r not in (sp.true, sp.false) else None
            if m is not None:
                self.margins.append((_float_fn(self.syms, m[0]), _float_fn(self.syms, m[1])))
                self.margin_deps.append([i for i, s_ in enumerate(self.syms) if s_ in m[0].free_symbols])
                self.margin_rels.append(r)
        self.evaluations = 0
        self._box(starts)

    # coordinates -------------------------------------------------------------
    def _box(self, starts):
        self.kind, self.scale, self.bounds = [], [], []
        grow = 1.0                     # how far the box of Delta reaches beyond the grid's largest Delta
        dvals = [float(sp.N(p[Delta], 17)) for p in starts if Delta in p] if Delta in self.syms else []
        if dvals and min(dvals) > 0 and Delta in _DOMAIN_END:
            grow = max(1.0, math.exp(min(_DOMAIN_END[Delta], _CAP_HI.get(Delta, 700.0))) / (4 * max(dvals)))
        for s in self.syms:
            vals = [float(sp.N(p[s], 17)) for p in starts if s in p]
            vals = [v for v in vals if math.isfinite(v)] or [1.0]
            if s in _POSITIVE and min(vals) > 0:
                lo, hi = math.log(min(vals)) - math.log(4), math.log(max(vals)) + math.log(4)
                lo = max(lo, _CAP_LO.get(s, -700.0))
                hi = min(max(hi, _DOMAIN_END.get(s, hi)), _CAP_HI.get(s, 700.0))
                self.kind.append("log")
                self.scale.append(1.0)
                self.bounds.append((lo, max(hi, lo + 1e-9)))
            elif s == gamma_sc:
                self.kind.append("lin")
                self.scale.append(1.0)
                self.bounds.append((0.0, 1.0))
            else:
                nz = [abs(v) for v in vals if v != 0]
                sc = min(nz) / 10 if nz else 1e-12
                lo, hi = min(vals + [0.0]), max(vals + [0.0])
                g = grow if s in _LENGTHS else 1.0
                lo = math.asinh(4 * g * lo / sc) if lo < 0 else 0.0
                hi = math.asinh(4 * g * hi / sc) if hi > 0 else 0.0
                self.kind.append("asinh")
                self.scale.append(sc)
                self.bounds.append((lo, max(hi, lo + 1e-9)))

    def to_values(self, x):
        out = []
        for k, sc, u, integer in zip(self.kind, self.scale, x, self.integer):
            v = math.exp(u) if k == "log" else (sc * math.sinh(u) if k == "asinh" else u)
            out.append(float(max(1, round(v))) if integer and math.isfinite(v) else v)
        return out

    def to_coords(self, point):
        x = []
        for s, k, sc, (lo, hi) in zip(self.syms, self.kind, self.scale, self.bounds):
            v = float(sp.N(point[s], 17))
            u = math.log(v) if k == "log" else (math.asinh(v / sc) if k == "asinh" else v)
            x.append(min(max(u, lo), hi))
        return np.array(x)

    # objective ---------------------------------------------------------------
    def infeasibility(self, vals):
        bad = 0.0
        for m, scale in self.margins:
            try:
                mv, sv = m(*vals), scale(*vals)
                need = MARGIN * float(sv)
                mv = float(mv)
            except (ValueError, ArithmeticError, TypeError, OverflowError):
                return 1.0
            if not mv >= need:
                bad += 1.0 if not math.isfinite(mv) else min(1.0, (need - mv) / (float(sv) + 1e-300))
        return bad

    def violation(self, vals):
        """The float64 path's ``ln lhs - ln rhs`` at ``vals`` (``nan`` on failure)."""
        self.evaluations += 1
        try:
            with mp.workdps(15):
                args = [mp.mpf(v) for v in vals]
                return float(_violation(mp.mpf(self.f_lhs(*args)), mp.mpf(self.f_rhs(*args)), self.bound.relation))
        except (ValueError, ArithmeticError, TypeError, OverflowError, ZeroDivisionError):
            return math.nan
        except Exception as exc:  # PrecisionError and friends: no information at this point
            if type(exc).__name__.endswith("Error"):
                return math.nan
            raise

    def objective(self, x):
        vals = self.to_values(x)
        if any(not math.isfinite(v) for v in vals):
            return 2 * _PENALTY
        bad = self.infeasibility(vals)
        if bad:
            return _PENALTY * (1 + bad)
        v = self.violation(vals)
        if math.isnan(v):
            return _PENALTY / 2
        v = max(min(v, 1e6), -1e6)
        self.record(x, v)
        return -v

    def record(self, x, v):
        self.best.append((v, tuple(x)))
        if len(self.best) > 400:
            self.best.sort(key=lambda r: -r[0])
            del self.best[50:]


def _project(prob, x, k, j, lo, hi):
    """``x`` moved along coordinate ``j`` onto face ``k`` (hypothesis ``k`` held with equality, up to
    the margin, on its feasible side); ``None`` when the face is not crossed on the segment."""
    m, scale = prob.margins[k]

    def g(u):
        y = list(x)
        y[j] = u
        vals = prob.to_values(y)
        try:
            return float(m(*vals)) - 2 * MARGIN * float(scale(*vals))
        except (ValueError, ArithmeticError, TypeError, OverflowError):
            return math.nan

    us = np.linspace(lo[j], hi[j], 33)
    gs = [g(u) for u in us]
    best = None
    for (u0, g0), (u1, g1) in zip(zip(us, gs), zip(us[1:], gs[1:])):
        if not (math.isfinite(g0) and math.isfinite(g1)) or (g0 >= 0) == (g1 >= 0):
            continue
        a_, b_, ga = (u0, u1, g0)           # bisect, keeping the feasible end (g >= 0)
        for _ in range(60):
            mid = (a_ + b_) / 2
            gm = g(mid)
            if not math.isfinite(gm):
                break
            if (gm >= 0) == (ga >= 0):
                a_, ga = mid, gm
            else:
                b_ = mid
        u = a_ if ga >= 0 else b_
        if best is None or abs(u - x[j]) < abs(best - x[j]):
            best = u
    if best is None:
        return None
    y = np.array(x, dtype=float)
    y[j] = best
    return y


def _to_end(prob, x, j, lo, hi):
    """``x`` with coordinate ``j`` at its domain end; at Delta's end the lengths scale with it."""
    vals = prob.to_values(x)
    y = np.array(x, dtype=float)
    y[j] = hi[j]
    if prob.syms[j] == Delta and vals[j] > 0:
        r = math.exp(hi[j]) / vals[j]
        for i, s_ in enumerate(prob.syms):
            if s_ in _LENGTHS and i != j:
                v = vals[i] * r
                u = math.log(v) if prob.kind[i] == "log" else math.asinh(v / prob.scale[i])
                y[i] = min(max(u, lo[i]), hi[i])
    return y


def _search_faces(prob, lo, hi, budget, stop):
    r"""Search each face of the hypothesis region: hypothesis ``k`` held with equality (the point is
    projected onto it along one coordinate it depends on), the others as constraints; and each
    domain end (:math:`\Delta = 10^4`, :math:`\varepsilon = 80` fixed).  Nelder-Mead over the
    remaining coordinates from the best points found so far."""
    from scipy.optimize import minimize

    faces = [(k, j) for k, deps in enumerate(prob.margin_deps) for j in deps[:2]]
    # the domain ends: a coordinate at the far end of its stated domain (Delta = 1e4, eps = 80)
    faces += [(None, j) for j, s_ in enumerate(prob.syms) if s_ in _DOMAIN_END and prob.kind[j] == "log"]
    if not faces or budget <= 0:
        return
    starts = []
    prob.best.sort(key=lambda r: -r[0])
    for _, x in prob.best:
        if all(np.any(np.abs(np.array(x) - np.array(y)) > 1e-6) for y in starts):
            starts.append(x)
        if len(starts) >= 2:
            break
    if not starts:
        starts = [tuple((lo + hi) / 2)]
    per = max(8, budget // (len(faces) * len(starts)))
    for k, j in faces:
        for x0 in starts:
            if stop():
                return
            x0 = np.array(x0, dtype=float)
            if k is None:
                x0 = _to_end(prob, x0, j, lo, hi)
            else:
                x0 = _project(prob, x0, k, j, lo, hi)
                if x0 is None:
                    continue
            free = [i for i in range(len(x0)) if i != j]

            def on_face(y, x0=x0, k=k, j=j, free=free):
                x = np.array(x0, dtype=float)
                x[free] = y
                xp = x if k is None else _project(prob, x, k, j, lo, hi)
                return 2 * _PENALTY if xp is None else prob.objective(xp)

            if not free:
                on_face(np.array([]))
                continue
            minimize(on_face, x0[free], method="Nelder-Mead", bounds=[(lo[i], hi[i]) for i in free],
                     options={"maxfev": per, "xatol": 1e-12, "fatol": 1e-14})


def _exact(problem, x):
    """The float point ``x`` as exact decimals (shortest repr of each float64)."""
    vals = problem.to_values(x)
    return {s: sp.Rational(repr(float(v))) for s, v in zip(problem.syms, vals)}


def _decimal(q) -> str:
    """An exact decimal string of a rational whose denominator divides a power of 10."""
    q = sp.Rational(q)
    k = 0
    while (q * 10**k).q != 1:
        k += 1
        if k > 400:
            return str(q)
    m = int(q * 10**k)
    sign, m = ("-" if m < 0 else ""), abs(m)
    if k == 0:
        return f"{sign}{m}"
    digits = str(m).rjust(k + 1, "0")
    return f"{sign}{digits[:-k]}.{digits[-k:]}"


def _confirm(st, bound, points, digits, max_digits):
    """Exact slack of ``bound`` at each point (that satisfies the hypotheses exactly)."""
    import dataclasses

    one = dataclasses.replace(st, bounds=(bound,))
    good = [p for p in points if not st.hypotheses_at(p)]
    if not good:
        return []
    res = check_task(one, good, digits, max_digits)
    return res["bounds"][bound.name]


def search_bound(statement, bound, *, seed=0, budget=1500, max_seconds=120.0, level="default",
                 starts=None, digits=DEFAULT_DIGITS, max_digits=MAX_DIGITS, candidates=6,
                 progress=True, faces=True) -> SearchResult:
    r"""Search the hypothesis region of ``statement`` (id or record) for a counterexample to ``bound``.

    ``budget`` is the number of float64 evaluations of the global stage (the
    local stage adds at most a third of it), ``max_seconds`` a wall-clock cap,
    ``starts`` exact points to start from (default: the statement's ``level``
    grid, which contains the regime points).  ``faces`` (default True): then also
    search each face of the hypothesis region (one hypothesis held with equality, the
    others as constraints; a third more evaluations), and the box always reaches the
    domain ends :math:`\Delta = 10^4`, :math:`\varepsilon = 80`.  Returns a :class:`SearchResult`
    whose ``status`` is the exact engine's verdict at the worst point found.

    The objective is the violation :math:`v(x) = \ln \mathrm{lhs}(x) - \ln \mathrm{rhs}(x)`
    (module docstring); a refutation needs the exact engine to confirm :math:`v > 0`
    at a point that meets the hypotheses.  Lemma 26 (the Laplace mechanism,
    :math:`f_L(t)/f_L(t+a) \le e^{\varepsilon}`) holds with equality at :math:`|a| = \Delta`,
    so the search finds slack near 0 but never below; its mutant with
    :math:`e^{0.9\varepsilon}` (:mod:`arete_proofs.chain.mutants`) is refuted, at a point
    where :math:`\ln(\mathrm{lhs}/\mathrm{rhs}) > 0`:

    >>> r = search_bound("lemma-26", "privacy", budget=100, level="quick", progress=False)
    >>> r.status != "violated", 0 <= r.slack < 0.05
    (True, True)
    >>> from arete_proofs.chain.mutants import variants
    >>> bad = variants(["26-eps-0.9"])[0].statement
    >>> r = search_bound(bad, bad.bounds[0], budget=100, level="quick", progress=False)
    >>> r.refuted, -r.slack > 0, abs(r.slack - r.float_slack) < 1e-9   # exact and float64 paths agree
    (True, True, True)
    """
    from scipy.optimize import differential_evolution, minimize

    st = _record(statement)
    if isinstance(bound, str):
        bound = next(b for b in st.bounds if b.name == bound)
    start_time = time.monotonic()
    starts = list(st.points(level)) if starts is None else list(starts)
    prob = _Problem(st, bound, starts)
    prob.best = []
    result = SearchResult(statement=st.id, bound=bound.name, seed=seed)
    if not prob.syms:
        result.evaluations = 0
        return result
    # the grid's worst points by the float path
    scored = []
    for p in starts:
        if all(s in p for s in prob.syms):
            x = prob.to_coords(p)
            scored.append((prob.objective(x), tuple(x)))
        if prob.evaluations >= budget // 2 or time.monotonic() - start_time > max_seconds / 3:
            break
    scored.sort(key=lambda r: r[0])
    dim = len(prob.syms)
    popsize = max(8, min(40, 6 * dim))
    rng = np.random.default_rng(seed)
    lo = np.array([b[0] for b in prob.bounds])
    hi = np.array([b[1] for b in prob.bounds])
    seen, init = set(), []
    for _, x in scored:
        if x not in seen and len(init) < popsize // 2:
            seen.add(x)
            init.append(np.array(x))
    # Latin hypercube fill
    m = popsize - len(init)
    cube = (rng.permuted(np.tile(np.arange(m), (dim, 1)), axis=1).T + rng.random((m, dim))) / m
    init += list(lo + cube * (hi - lo))
    init = np.array(init)
    maxiter = max(1, (budget - prob.evaluations) // popsize - 1)

    def stop(*_args, **_kw):
        return time.monotonic() - start_time > max_seconds

    if budget > prob.evaluations + popsize and not stop():
        differential_evolution(prob.objective, list(zip(lo, hi)), init=init, seed=seed, maxiter=maxiter,
                               polish=False, tol=0, atol=0, callback=stop, updating="immediate")
    # local refinement from the best distinct points
    prob.best.sort(key=lambda r: -r[0])
    local_budget = max(20, budget // 3)
    for v, x in list(prob.best[:3]):
        if stop():
            break
        minimize(prob.objective, np.array(x), method="Nelder-Mead", bounds=list(zip(lo, hi)),
                 options={"maxfev": local_budget // 3, "xatol": 1e-12, "fatol": 1e-14})
    if faces:
        _search_faces(prob, lo, hi, max(20, budget // 3), stop)
    prob.best.sort(key=lambda r: -r[0])
    picked, keys = [], set()
    for v, x in prob.best:
        key = tuple(round(u, 6) for u in x)
        if key in keys:
            continue
        keys.add(key)
        picked.append((v, x))
        if len(picked) >= candidates:
            break
    exact_points = [_exact(prob, x) for _, x in picked]
    rows = _confirm(st, bound, exact_points, digits, max_digits)
    result.evaluations = prob.evaluations
    if rows:
        order = {"violated": 0, "tight": 1, "holds": 2}
        worst = min(rows, key=lambda r: (order[r[4]], r[1] if not math.isnan(r[1]) else -math.inf))
        point, slack, lhs, rhs, status, d = worst
        result.status, result.slack = status, slack
        result.point = {k: _decimal(sp.Rational(v)) for k, v in point.items()}
        result.lhs, result.rhs, result.digits = lhs, rhs, d
        for (v, x), row in zip(picked, rows):
            if row is worst:
                result.float_slack = -v
        if result.float_slack == math.inf and picked:
            result.float_slack = -picked[0][0]
    result.seconds = round(time.monotonic() - start_time, 2)
    if progress:
        print(f"search {st.id} [{bound.name}]: {result.status}, slack {result.slack:.4g}, "
              f"{result.evaluations} evaluations, {result.seconds:.1f} s", file=sys.stderr, flush=True)
    return result


def search_statement(statement, **kw) -> list[SearchResult]:
    r""":func:`search_bound` for every bound of ``statement`` (seeds ``seed``, ``seed + 1``, ...).

    Note 2's two bounds, :math:`\Gamma(\alpha) \le 1/\alpha` and
    :math:`(1 + 1/n)^\alpha \le 1 + \alpha/n` on :math:`(0, 1]`, both hold: the worst
    points the search finds (near :math:`\alpha \to 0`, where both are tight) have
    slack :math:`\ln(\mathrm{rhs}/\mathrm{lhs}) \ge 0`.

    >>> from arete_proofs.chain.registry import REGISTRY
    >>> rs = search_statement("note-2", budget=100, level="quick", progress=False)
    >>> [r.bound for r in rs] == [b.name for b in REGISTRY["note-2"].bounds], [r.seed for r in rs]
    (True, [0, 1])
    >>> all(not r.refuted and r.slack >= 0 for r in rs)
    True
    """
    st = _record(statement)
    seed = kw.pop("seed", 0)
    return [search_bound(st, b, seed=seed + i, **kw) for i, b in enumerate(st.bounds)]


def float_violation(statement, bound, point) -> float:
    r"""The float64 path's violation :math:`\ln \mathrm{lhs} - \ln \mathrm{rhs}` of ``bound`` at an exact ``point``.

    For tests and reports: it is minus the slack.  Lemma 26 at :math:`\lambda = \Delta/\varepsilon`,
    :math:`t = 0`, :math:`a = \Delta` is tight (:math:`f_L(0)/f_L(\Delta) = e^{\varepsilon}`), so the
    violation is 0; the mutant with :math:`e^{0.9\varepsilon}` is violated by exactly
    :math:`0.1\,\varepsilon`:

    >>> import sympy as sp
    >>> from arete_proofs.chain.mutants import variants
    >>> from arete_proofs.chain.symbols import Delta, a, eps, t
    >>> point = {eps: sp.Integer(2), Delta: sp.Integer(1), t: sp.Integer(0), a: sp.Integer(1)}
    >>> abs(float_violation("lemma-26", "privacy", point)) < 1e-12
    True
    >>> bad = variants(["26-eps-0.9"])[0].statement
    >>> abs(float_violation(bad, "privacy", point) - 0.1 * 2) < 1e-12
    True
    """
    st = _record(statement)
    if isinstance(bound, str):
        bound = next(b for b in st.bounds if b.name == bound)
    prob = _Problem(st, bound, [point])
    return prob.violation([float(sp.N(point[s], 17)) for s in prob.syms])
