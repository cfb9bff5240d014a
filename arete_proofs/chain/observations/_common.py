r"""What every observation check shares: the :class:`Observation` record, its verdicts, evaluation.

:class:`Observation` is the outcome of one check of the paper's literal text
(Pagh & Stausholm, ALT 2022; the checks are in the sibling modules, the table in
:mod:`~arete_proofs.chain.observations.table`), :data:`VERDICTS` the kinds of
discrepancy it may report (explained in :mod:`arete_proofs.chain.observations`).
:func:`evaluate` computes registry expressions at exact points, with the Arete
densities they need in one batched engine call per parameter set; the other
helpers format numbers and points for the evidence and decide the hypotheses of
a statement (or a literal variant of them) point by point.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import sympy as sp
from mpmath import mp

from ...distributions import arete
from ..symbols import numeric, prefetch, t, to_mpf, working_digits

__all__ = ["Observation", "VERDICTS", "evaluate"]

#: The allowed verdicts (see :mod:`arete_proofs.chain.observations`).
VERDICTS = ("typo", "harmless", "fails", "holds", "differs")

R = sp.Rational
LN2 = sp.log(2)


@dataclass(frozen=True)
class Observation:
    """The outcome of one check.

    ``literal`` is the paper's wording under test; ``holds_literal`` says whether
    that literal claim is true (``None`` for wording without a claim of its own);
    ``evidence`` holds the numbers (as strings), counterexamples with both sides.
    """

    id: str
    statement: str
    literal: str
    verdict: str
    holds_literal: bool | None
    detail: str
    evidence: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def _s(x, n: int = 15) -> str:
    """A number as a string (mpmath's ``nstr``)."""
    if isinstance(x, (sp.Basic, int)) and not isinstance(x, bool):
        x = sp.N(x, max(n, 15) + 5)
        return str(sp.Float(x, n)) if x.is_real else str(x)
    return mp.nstr(x, n)


def _point_str(point: dict) -> dict:
    """A point (symbol -> exact number) with readable keys and decimal values."""
    out = {}
    for k, v in point.items():
        v = sp.sympify(v)
        out[str(k)] = sp.sstr(v) if v.is_Rational else f"{sp.sstr(v)} = {_s(v, 12)}"
    return out


def evaluate(args, exprs, points, digits):
    """Values of ``exprs`` (sympy, over :mod:`arete_proofs.chain.symbols`) at ``points``.

    ``points`` are dicts from the symbols in ``args`` to exact numbers.  The
    expressions are compiled with :func:`arete_proofs.chain.symbols.numeric`; a dry run
    records which Arete densities they need, these are computed in one batched
    engine call per parameter set, and the real run finds them in the cache
    (the keys are the very ``mpf`` arguments the compiled expressions produce).
    Returns one list of values per point.

    >>> from arete_proofs.chain.symbols import alpha, f_A, lam, t, theta
    >>> pts = [{t: 0, alpha: 1, theta: 1, lam: 1}, {t: 1, alpha: 1, theta: 1, lam: 1}]
    >>> vals = evaluate([t, alpha, theta, lam], [f_A(t, alpha, theta, lam)], pts, 15)
    >>> # alpha = theta = lam = 1: X1 - X2 ~ Laplace(1), f_A(0) = int (e^{-|x|}/2)^2 dx = 1/4
    >>> mp.almosteq(vals[0][0], mp.mpf(1) / 4)
    True
    """
    fns = [numeric(args, e) for e in exprs]
    cache = {}
    prefetch([(f, args, p) for p in points for f in fns], digits, cache)
    out = []
    with working_digits(digits, cache=cache):
        for p in points:
            xs = [to_mpf(p[s]) for s in args]
            out.append([f(*xs) for f in fns])
    return out


def _violations_all(statement, hypotheses, points) -> list[list]:
    """For every point, the ``hypotheses`` (replacing ``statement``'s) that fail there.

    The ``t``-free hypotheses are decided once per parameter set.
    """
    hypotheses = tuple(hypotheses)
    fixed = dataclasses.replace(statement, hypotheses=tuple(h for h in hypotheses if not h.has(t)))
    moving = dataclasses.replace(statement, hypotheses=tuple(h for h in hypotheses if h.has(t)))
    memo, out = {}, []
    for p in points:
        key = tuple(sorted(((str(k), v) for k, v in p.items() if k != t), key=lambda kv: kv[0]))
        if key not in memo:
            memo[key] = fixed.hypotheses_at(p)
        out.append(memo[key] + moving.hypotheses_at(p))
    return out


def _replace_hypothesis(hypotheses, old, new) -> tuple:
    if old not in hypotheses:
        raise LookupError(f"{old} is not among the hypotheses")
    return tuple(new if h == old else h for h in hypotheses)


def _fA_values(ts, params, digits):
    """f_A at every t of ``ts`` (one batched engine call)."""
    return arete.pdf(list(ts), *params, digits=digits)
