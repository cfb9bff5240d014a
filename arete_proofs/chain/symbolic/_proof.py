r"""The machinery of the symbolic checks: proof logs, results, and the sympy helpers they share.

:class:`Proof` is the step-by-step log a check returns (steps tagged
``proved``, ``identity``, ``solved``, ``numeric`` or ``premise``, see
:mod:`arete_proofs.chain.symbolic`), :class:`SymbolicCheck` a registered check
and :class:`SymbolicResult` its outcome.  The helpers translate the registry's
expressions to positive dummies (:func:`_pos`), decide signs and zeros only when
sympy *proves* them (:func:`_is_nonneg`, :func:`_is_zero`, ...), prove
monotonicity and chain steps, and look up the registry's bounds and
hypotheses, so that no bound is written twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import sympy as sp

from ..registry import REGISTRY
from ..symbols import D_Gamma, D_u, Delta, alpha, c_DGam, c_Du, eps, kappa, lam, theta

__all__ = ["SymbolicResult", "Step", "Proof", "SymbolicCheck", "log_derivative"]


# ---------------------------------------------------------------------------
# results and proof logs
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SymbolicResult:
    """Outcome of one symbolic check.

    ``id`` is the check id (``"lemma-18/step"``), ``statement`` the registry id
    it belongs to (``"lemma-18"``), ``holds`` whether every step was
    established, ``detail`` the step-by-step log.
    """

    id: str
    statement: str
    title: str
    holds: bool
    detail: str


@dataclass(frozen=True)
class Step:
    """One step of a :class:`Proof`: ``kind`` is proved/identity/solved/numeric/premise."""

    kind: str
    text: str
    ok: bool
    note: str = ""


@dataclass
class Proof:
    """A log of steps; it ``holds`` when it has steps and every non-premise step is ok."""

    steps: list = field(default_factory=list)

    def add(self, kind: str, text: str, ok, note: str = "") -> bool:
        ok = ok is True or ok is sp.true or (isinstance(ok, bool) and ok)
        self.steps.append(Step(kind, text, bool(ok), note))
        return bool(ok)

    def premise(self, text: str) -> None:
        self.steps.append(Step("premise", text, True))

    @property
    def holds(self) -> bool:
        checked = [s for s in self.steps if s.kind != "premise"]
        return bool(checked) and all(s.ok for s in checked)

    @property
    def detail(self) -> str:
        lines = []
        for s in self.steps:
            mark = s.kind if s.ok else f"{s.kind} FAILED"
            line = f"[{mark}] {s.text}"
            if s.note:
                line += f" -- {s.note}"
            lines.append(line)
        return "\n".join(lines)


@dataclass(frozen=True)
class SymbolicCheck:
    """A registered check: calling it runs ``function`` (returning a :class:`Proof`)."""

    id: str
    title: str
    function: Callable[[], Proof]

    @property
    def statement(self) -> str:
        return self.id.split("/", 1)[0]

    def __call__(self) -> SymbolicResult:
        try:
            proof = self.function()
            holds, detail = proof.holds, proof.detail
        except Exception as exc:  # a sympy failure is a failed check, not a crash
            holds, detail = False, f"check raised {type(exc).__name__}: {exc}"
        return SymbolicResult(self.id, self.statement, self.title, holds, detail)


# ---------------------------------------------------------------------------
# sympy helpers
# ---------------------------------------------------------------------------

#: positive dummies for the registry's real symbols
_POS = {s: sp.Symbol(s.name, positive=True)
        for s in (alpha, theta, lam, Delta, D_Gamma, D_u, eps, kappa)}
A, T, L, D, DG, DU, E_, K_ = (_POS[s] for s in (alpha, theta, lam, Delta, D_Gamma, D_u, eps, kappa))

#: placeholders for c_DGam, c_Du and Gamma(alpha) (positive numbers whose bounds are facts)
Cd = sp.Symbol("c_DGam", positive=True)
Cu = sp.Symbol("c_Du", positive=True)
G = sp.Symbol("Gamma_alpha", positive=True)

# nonnegative slack variables of the parametrisations
_s, _u, _v, _w, _g = sp.symbols("s u v w g", nonnegative=True)


def _pos(expr, placeholders: bool = True):
    """``expr`` over the positive dummies; c_DGam, c_Du, Gamma(alpha) -> placeholders."""
    expr = sp.sympify(expr).xreplace(_POS)
    if placeholders:
        expr = expr.replace(c_DGam, lambda *args: Cd).replace(c_Du, lambda *args: Cu)
        expr = expr.replace(sp.gamma, lambda arg: G if arg == A else sp.gamma(arg))
    return expr


def _is_zero(expr) -> bool:
    """Targeted simplification: expand, cancel, powsimp, then simplify."""
    expr = sp.sympify(expr)
    if expr == 0:
        return True
    for f in (sp.expand, lambda e: sp.cancel(sp.together(e)),
              lambda e: sp.expand(sp.powsimp(sp.expand_power_base(e, force=False))),
              sp.simplify):
        try:
            if f(expr) == 0:
                return True
        except Exception:  # pragma: no cover - a failing simplifier is just "not shown"
            pass
    return False


def _is_nonneg(expr) -> bool:
    """True only if sympy *proves* ``expr >= 0`` from the symbols' assumptions."""
    expr = sp.sympify(expr)
    if expr.is_nonnegative:
        return True
    try:
        num, den = sp.fraction(sp.together(expr))
        num, den = sp.expand(num), sp.expand(den)
        if (num.is_nonnegative and den.is_positive) or (num.is_nonpositive and den.is_negative):
            return True
        if sp.factor(num).is_nonnegative and sp.factor(den).is_positive:
            return True
    except Exception:  # pragma: no cover
        pass
    try:
        return sp.simplify(expr).is_nonnegative is True
    except Exception:  # pragma: no cover
        return False


def _is_pos(expr) -> bool:
    """True only if sympy proves ``expr > 0``."""
    expr = sp.sympify(expr)
    if expr.is_positive:
        return True
    num, den = sp.fraction(sp.together(expr))
    num, den = sp.expand(num), sp.expand(den)
    return bool((num.is_positive and den.is_positive) or (num.is_negative and den.is_negative)
                or (sp.factor(num).is_positive and sp.factor(den).is_positive))


def log_derivative(g, x):
    r""":math:`\frac{d}{dx}\ln g(x) = g'(x)/g(x)`, simplified (powers combined, then cancelled)."""
    return sp.simplify(sp.powsimp(sp.diff(g, x) / g, force=False))


def _nondecreasing(proof: Proof, f, x, a, b, text: str) -> bool:
    """Prove ``f(a) <= f(b)`` from ``a <= b`` and ``f'(x) >= 0`` (on x's assumed domain).

    The derivative's sign must be manifest for the dummy ``x`` (whose
    assumptions describe the interval containing a and b), and ``b - a >= 0``
    must be manifest.
    """
    deriv = sp.diff(f, x)
    ok = _is_nonneg(deriv) and _is_nonneg(b - a)
    return proof.add("proved", text, ok, f"d/d{x} = {deriv} >= 0 and {b} >= {a}")


def _chain_step(proof: Proof, lower, upper, slack, what: str) -> bool:
    """Prove ``lower <= upper`` as ``upper - lower = q * slack`` with ``q >= 0`` manifest."""
    diff = upper - lower
    q = sp.simplify(diff / slack)
    ok = _is_nonneg(q) and _is_zero(diff - q * slack)
    return proof.add("proved", what, ok, f"difference = ({q}) * ({slack})")


def _bound(statement_id: str, name: str):
    for b in REGISTRY[statement_id].bounds:
        if b.name == name:
            return b
    raise KeyError(f"{statement_id} has no bound {name!r}")


def _hypothesis(statement_id: str, symbol):
    """The registry hypothesis ``symbol >= value`` of a statement; returns value."""
    for h in REGISTRY[statement_id].hypotheses:
        if isinstance(h, sp.GreaterThan) and h.lhs == symbol:
            return h.rhs
        if isinstance(h, sp.LessThan) and h.rhs == symbol:
            return h.lhs
    raise KeyError(f"{statement_id} has no lower bound on {symbol}")


def _exp_lower_rational(x: sp.Rational, terms: int = 30) -> sp.Rational:
    """Exact lower bound of :math:`e^x` (x >= 0): the Taylor partial sum (all terms positive)."""
    x = sp.Rational(x)
    return sum(x**k / sp.factorial(k) for k in range(terms))
