r"""User variants of the registry's statements (``arete verify --variant FILE``).

A variant starts from a statement of :mod:`arete_proofs.chain.registry` (its
hypotheses, substitutions and grids) and changes one bound, e.g. a sharper
constant in Lemma 16's right-hand side.  A TOML file (read with ``tomllib``)
holds one or more::

    [[variant]]
    name = "sharper-16"        # free text, echoed in the report
    statement = "lemma-16"     # start from this statement
    bound = "ratio"            # the bound to change
    rhs = "..."                # new right-hand side, sympy syntax over the registry's names
    # lhs = "..."              # optional new left-hand side
    # hypotheses = ["..."]     # optional: replaces the hypothesis list

The expressions use the names ``str()`` prints for the registry's bounds
(:data:`NAMES`: ``alpha``, ``theta``, ``lam``, ``Delta``, ``D_Gamma``, ``D_u``,
``eps``, ``t``, ``f_A(x, alpha, theta, lam)``, ``f_Gamma``, ``c_DGam``, ``c_L``,
...), so a printed bound is a valid starting point: :func:`parse` of
``str(expr)`` gives ``expr`` back.

A variant is checked on a grid (:func:`arete_proofs.chain.verify.verify`) **and**
searched (:func:`arete_proofs.chain.search.search_bound`); it is ``refuted`` when
either finds a point, confirmed by the exact engine, where the bound fails.

>>> from arete_proofs.chain.registry import REGISTRY
>>> b = REGISTRY["lemma-19"].bounds[1]           # e^{-eps} <= f_A(t)/f_A(t + Delta)
>>> parse(str(b.rhs)) == b.rhs and parse(str(b.lhs)) == b.lhs
True
>>> v = load_text('[[variant]]\nname = "half"\nstatement = "lemma-19"\nbound = "lower"\nlhs = "exp(-eps/2)"\n')
>>> v[0].name, str(v[0].statement.bounds[0].lhs)
('half', 'exp(-eps/2)')
"""

from __future__ import annotations

import dataclasses
import time
import tomllib
from dataclasses import dataclass, field

import sympy as sp
from tokenize import TokenError

from . import symbols as S
from .registry import REGISTRY, STATEMENT_IDS, Statement

__all__ = ["NAMES", "VariantError", "Variant", "VariantResult", "parse", "load", "load_text", "check"]

#: The names a variant's expressions may use (the paper's symbols and functions).
NAMES = {
    **{s.name: s for s in (S.alpha, S.theta, S.lam, S.Delta, S.D_Gamma, S.D_u, S.eps, S.kappa, S.t, S.a,
                           S.h, S.n, S.gamma_sc, S.c_L)},
    **{f.__name__: f for f in (S.f_Gamma, S.f_L, S.f_GG, S.f_A, S.f_SC, S.c_DGam, S.c_Du, S.near_mass,
                               S.shifted_conv, S.mean_abs_A, S.var_A_cf, S.tight_eps_A)},
    "gamma": sp.gamma, "E": sp.E, "pi": sp.pi,
}

_KEYS = {"name", "statement", "bound", "rhs", "lhs", "hypotheses"}


class VariantError(ValueError):
    r"""A malformed variant file (the message names the variant and the key).

    A ``ValueError``, so ``arete verify --variant`` reports it as ``arete: error: ...`` (exit 2).
    Lemma 19 has no bound ``middle``; the message lists the bounds it has (``upper``,
    ``lower`` for :math:`e^{-\varepsilon} \le f_A(t)/f_A(t+\Delta)`, ``median``, ``eq-8``, ...):

    >>> try:
    ...     load_text('[[variant]]\nstatement = "lemma-19"\nbound = "middle"\nrhs = "1"\n')
    ... except VariantError as exc:
    ...     isinstance(exc, ValueError), "key 'bound'" in str(exc) and "lower" in str(exc)
    (True, True)
    """


@dataclass
class Variant:
    r"""One variant: a registry statement with one bound changed, ready for :func:`check`.

    Fields: ``name`` (from the file), ``base`` (the registry id it starts from),
    ``bound`` (the name of the changed bound) and ``statement`` (a
    :class:`~arete_proofs.chain.registry.Statement` with id ``variant:<name>``, the base's
    hypotheses, substitutions and grids, and the one changed bound).  Here Lemma 19's lower
    bound :math:`e^{-\varepsilon} \le f_A(t)/f_A(t+\Delta)` with the sharper constant
    :math:`e^{-\varepsilon/2}`:

    >>> text = '[[variant]]\nname = "sharper-19"\nstatement = "lemma-19"\nbound = "lower"\nlhs = "exp(-eps/2)"\n'
    >>> v = load_text(text)[0]
    >>> v.name, v.base, v.bound, v.statement.id
    ('sharper-19', 'lemma-19', 'lower', 'variant:sharper-19')
    >>> from arete_proofs.chain.registry import REGISTRY
    >>> b, b0 = v.statement.bounds[0], REGISTRY["lemma-19"].bounds[1]
    >>> str(b.lhs), b.rhs == b0.rhs, v.statement.hypotheses == REGISTRY["lemma-19"].hypotheses
    ('exp(-eps/2)', True, True)
    """

    name: str
    base: str
    bound: str
    statement: Statement


@dataclass
class VariantResult:
    r"""The verdict on one variant: the grid's and the search's.

    ``verdict`` is ``"refuted"`` when the grid or the search finds a point, confirmed by the
    exact engine, with negative

    .. math::

        \text{slack} = \ln(\mathrm{rhs}/\mathrm{lhs}),

    else ``"holds"``.  ``slack``, ``point``, ``lhs``, ``rhs`` describe the worst point
    found and ``found_by`` says by which (``"grid"`` or ``"search"``); ``grid_points``,
    ``grid_violations``, ``grid_min_slack`` summarise the grid; ``search`` is the
    :class:`~arete_proofs.chain.search.SearchResult` as a dict (empty without search).

    >>> r = VariantResult("26-eps-0.9", "lemma-26", "privacy", "refuted", slack=-0.1, found_by="grid")
    >>> r.verdict == "refuted" and r.slack < 0, r.search    # Lemma 26 with e^{0.9 eps}: no search run
    (True, {})
    """

    name: str
    statement: str
    bound: str
    verdict: str                      # "holds" or "refuted"
    slack: float = float("inf")       # the smallest exact slack found (grid or search)
    point: dict = field(default_factory=dict)
    lhs: str = ""
    rhs: str = ""
    found_by: str = ""                # "grid" or "search"
    grid_points: int = 0
    grid_violations: int = 0
    grid_min_slack: float = float("inf")
    search: dict = field(default_factory=dict)
    seconds: float = 0.0


def parse(text: str, where: str = "expression"):
    r"""A sympy expression (or relational) over :data:`NAMES`; ``VariantError`` naming ``where``.

    The inverse of ``str()`` on the registry's bounds: for Lemma 16's ratio bound
    (:math:`f_A(t)/f_A(t+\Delta) \le \frac{e^{(D_\Gamma+\Delta)/\theta}}{c_{D_\Gamma}}(\dots)`)
    and every side of Lemma 19, ``parse(str(expr)) == expr``.

    >>> from arete_proofs.chain.registry import REGISTRY
    >>> b = REGISTRY["lemma-16"].bounds[0]
    >>> parse(str(b.lhs)) == b.lhs and parse(str(b.rhs)) == b.rhs
    True
    >>> all(parse(str(e)) == e for b in REGISTRY["lemma-19"].bounds for e in (b.lhs, b.rhs))
    True
    >>> parse("f_A(t, alpha, theta, lam) <= exp(eps)", "rhs").rhs == parse("exp(eps)")
    True
    """
    if not isinstance(text, str) or not text.strip():
        raise VariantError(f"{where}: expected a non-empty string, got {text!r}")
    from sympy.parsing.sympy_parser import parse_expr

    try:
        # unevaluated first, then rebuilt with flat products and sums: evaluating ``2*(x + y)``
        # alone would distribute the 2, unlike the registry's ``2*(x + y)*z``
        expr = _rebuild(parse_expr(text, local_dict=dict(NAMES), evaluate=False))
    except (sp.SympifyError, SyntaxError, TypeError, ValueError, TokenError) as exc:
        raise VariantError(f"{where}: cannot parse {text!r} ({exc})") from None
    unknown = {s.name for s in expr.free_symbols} - set(NAMES)
    if unknown:
        raise VariantError(f"{where}: unknown name(s) {', '.join(sorted(unknown))}; "
                           f"known: {', '.join(sorted(NAMES))}")
    return expr


def _flat(e, kind):
    out = []
    for x in e.args:
        out += _flat(x, kind) if isinstance(x, kind) else [x]
    return out


def _rebuild(e):
    """Evaluate an unevaluated expression bottom-up, each product and sum in one step."""
    if not getattr(e, "args", ()):
        return e
    if isinstance(e, (sp.Mul, sp.Add)):
        return type(e)(*[_rebuild(x) for x in _flat(e, type(e))])
    return e.func(*[_rebuild(x) for x in e.args])


def _variant(entry, index) -> Variant:
    label = f"variant {index + 1}"
    if not isinstance(entry, dict):
        raise VariantError(f"{label}: expected a table")
    name = entry.get("name", label)
    label = f"variant {name!r}"
    extra = set(entry) - _KEYS
    if extra:
        raise VariantError(f"{label}: unknown key(s) {', '.join(sorted(extra))}; known: {', '.join(sorted(_KEYS))}")
    for key in ("statement", "bound"):
        if key not in entry:
            raise VariantError(f"{label}: missing key {key!r}")
    sid = entry["statement"]
    if sid not in REGISTRY:
        raise VariantError(f"{label}: key 'statement': unknown statement {sid!r}; known: {', '.join(STATEMENT_IDS)}")
    base = REGISTRY[sid]
    bounds = {b.name: b for b in base.bounds}
    if entry["bound"] not in bounds:
        raise VariantError(f"{label}: key 'bound': {sid} has no bound {entry['bound']!r}; "
                           f"its bounds: {', '.join(bounds)}")
    if "rhs" not in entry and "lhs" not in entry and "hypotheses" not in entry:
        raise VariantError(f"{label}: nothing to change (give 'rhs', 'lhs' or 'hypotheses')")
    b = bounds[entry["bound"]]
    changes = {}
    for key in ("lhs", "rhs"):
        if key in entry:
            changes[key] = parse(entry[key], f"{label}: key {key!r}")
    bound = dataclasses.replace(b, **changes)
    hyps = base.hypotheses
    if "hypotheses" in entry:
        if not isinstance(entry["hypotheses"], list):
            raise VariantError(f"{label}: key 'hypotheses': expected a list of strings")
        hyps = tuple(parse(x, f"{label}: key 'hypotheses'") for x in entry["hypotheses"])
        for x in hyps:
            if not isinstance(x, sp.core.relational.Relational):
                raise VariantError(f"{label}: key 'hypotheses': {x} is not a relation")
    st = dataclasses.replace(base, id=f"variant:{name}", hypotheses=hyps, bounds=(bound,), base=sid)
    return Variant(name=str(name), base=sid, bound=b.name, statement=st)


def load_text(text: str) -> list[Variant]:
    r"""The variants of a TOML text (format: module docstring); ``VariantError`` if malformed.

    Lemma 16's ratio bound with its factor :math:`e^{(D_\Gamma+\Delta)/\theta}` dropped (a
    sharper, false, right-hand side) and Lemma 19's :math:`e^{-\varepsilon}` sharpened to
    :math:`e^{-\varepsilon/2}`, in one file:

    >>> from arete_proofs.chain.registry import REGISTRY
    >>> rhs = str(REGISTRY["lemma-16"].bounds[0].rhs).replace("exp((D_Gamma + Delta)/theta)", "1")
    >>> vs = load_text(f'''
    ... [[variant]]
    ... name = "16-no-exp"
    ... statement = "lemma-16"
    ... bound = "ratio"
    ... rhs = "{rhs}"
    ...
    ... [[variant]]
    ... name = "19-half"
    ... statement = "lemma-19"
    ... bound = "lower"
    ... lhs = "exp(-eps/2)"
    ... ''')
    >>> [(v.name, v.base, v.bound) for v in vs]
    [('16-no-exp', 'lemma-16', 'ratio'), ('19-half', 'lemma-19', 'lower')]
    >>> import sympy as sp
    >>> old = REGISTRY["lemma-16"].bounds[0].rhs
    >>> sp.simplify(old / vs[0].statement.bounds[0].rhs)    # the dropped factor
    exp((D_Gamma + Delta)/theta)
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"not valid TOML: {exc}") from None
    entries = doc.get("variant")
    extra = set(doc) - {"variant"}
    if extra:
        raise VariantError(f"unknown top-level key(s) {', '.join(sorted(extra))}; expected [[variant]] tables")
    if not isinstance(entries, list) or not entries:
        raise VariantError("no [[variant]] table in the file")
    out = [_variant(e, i) for i, e in enumerate(entries)]
    names = [v.name for v in out]
    dup = {x for x in names if names.count(x) > 1}
    if dup:
        raise VariantError(f"variant {sorted(dup)[0]!r}: key 'name': used twice")
    return out


def load(path) -> list[Variant]:
    r"""The variants of a TOML file: :func:`load_text` of its text (``VariantError`` if unreadable).

    Lemma 19's lower bound with :math:`e^{-\varepsilon/2}` for :math:`e^{-\varepsilon}`,
    written to a file and read back, gives the same variant as the text:

    >>> import os, tempfile
    >>> text = '[[variant]]\nname = "half"\nstatement = "lemma-19"\nbound = "lower"\nlhs = "exp(-eps/2)"\n'
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as fh:
    ...     _ = fh.write(text)
    >>> load(fh.name) == load_text(text)
    True
    >>> os.remove(fh.name)
    """
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise VariantError(f"cannot read {path}: {exc.strerror}") from None
    return load_text(text)


def check(variant: Variant, *, level="default", search=True, seed=0, budget=1500, max_seconds=45.0,
          workers=1, progress=False) -> VariantResult:
    r"""Check ``variant`` on the grid ``level`` and (``search``) by the counterexample search.

    The result's ``slack`` is the smallest exact :math:`\ln(\mathrm{rhs}/\mathrm{lhs})` found.
    Lemma 26 (:math:`f_L(t)/f_L(t+a) \le e^{\varepsilon}`, tight at :math:`a = \Delta`): with
    :math:`e^{0.9\varepsilon}` it is refuted, slack :math:`-0.1\,\varepsilon`; weakened to
    :math:`1.5\,e^{\varepsilon}` it holds with slack :math:`\ln 1.5` on the grid (where it is tight):

    >>> import math
    >>> from arete_proofs.chain.mutants import variants
    >>> bad, weak = variants(["26-eps-0.9", "26-privacy-weaker-1.5"])
    >>> r = check(bad, level="quick", budget=100)
    >>> r.verdict, r.slack < 0, r.search["status"]
    ('refuted', True, 'violated')
    >>> r = check(weak, level="quick", budget=100)
    >>> r.verdict, abs(r.grid_min_slack - math.log(1.5)) < 1e-9, r.slack >= 0
    ('holds', True, True)
    """
    from . import verify as V
    from .search import _decimal, search_bound

    start = time.monotonic()
    rep = V.verify([variant.statement], level=level, workers=workers, progress=progress)
    s = rep.statements[0]
    br = s.bounds[0]
    res = VariantResult(name=variant.name, statement=variant.base, bound=variant.bound, verdict="holds",
                        grid_points=br.points, grid_violations=br.violations + len(s.grid_errors),
                        grid_min_slack=br.min_slack)
    res.slack = br.min_slack
    if br.argmin:
        res.point = {k: v for k, v in br.argmin.items() if k not in ("bound", "lhs", "rhs", "digits")}
        res.lhs, res.rhs, res.found_by = br.argmin.get("lhs", ""), br.argmin.get("rhs", ""), "grid"
    if br.violations:
        ex = br.examples[0]
        res.verdict, res.point, res.lhs, res.rhs = "refuted", ex["point"], ex["lhs"], ex["rhs"]
        res.slack = ex["slack"]
    if s.grid_errors:
        res.verdict = "refuted"
    if search:
        sr = search_bound(variant.statement, variant.statement.bounds[0], seed=seed, budget=budget,
                          max_seconds=max_seconds, level=level, progress=progress)
        res.search = dataclasses.asdict(sr)
        if sr.refuted and (res.verdict != "refuted" or sr.slack < res.slack):
            res.verdict, res.slack, res.point = "refuted", sr.slack, sr.point
            res.lhs, res.rhs, res.found_by = sr.lhs, sr.rhs, "search"
        elif res.verdict == "holds" and sr.slack < res.slack:
            res.slack, res.point, res.lhs, res.rhs, res.found_by = sr.slack, sr.point, sr.lhs, sr.rhs, "search"
    if res.point:
        res.lhs, res.rhs = _sides(variant.statement, res.point, res.lhs, res.rhs)
    res.point = {k: _decimal(sp.Rational(v)) if _is_rational(v) else v for k, v in res.point.items()}
    res.seconds = round(time.monotonic() - start, 2)
    return res


def _sides(st, point, lhs, rhs, digits=20):
    """Both sides at ``point`` to ``digits`` digits (the exact engine)."""
    from mpmath import mp

    from . import verify as V

    try:
        exact = {NAMES[k]: sp.sympify(v, locals=dict(NAMES)) for k, v in point.items()}
        entry = V._compiled(st)[0]
        lo, hi, _ = V._evaluate(entry, exact, digits + 5, {})
        return mp.nstr(mp.mpf(lo), digits), mp.nstr(mp.mpf(hi), digits)
    except Exception:  # noqa: BLE001 - the 12-digit sides of the check stay
        return lhs, rhs


def _is_rational(text) -> bool:
    try:
        return sp.sympify(text).is_Rational
    except (sp.SympifyError, TypeError):
        return False
