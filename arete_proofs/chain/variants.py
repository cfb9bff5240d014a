r"""User variants of the registry's statements (``arete verify --variant FILE``).

A variant starts from a statement of :mod:`arete_proofs.chain.registry` (its
hypotheses, substitutions and grids) and changes one bound, e.g. a sharper
constant in Lemma 16's right-hand side.  A TOML file (read with ``tomllib``)
holds one or more::

    [[variant]]
    name = "sharper-16"        # free text, echoed in the report
    statement = "lemma-16"     # start from this statement
    bound = "ratio"            # the bound to change
    rhs = "..."                # new right-hand side, over the registry's names
    # lhs = "..."              # optional new left-hand side
    # hypotheses = ["..."]     # optional: replaces the hypothesis list

A variant file is text from someone else, so its expressions are **parsed, never
evaluated**: :func:`parse` uses the whitelist parser of
:mod:`arete_proofs.chain.expressions` (Python's ``ast``, then the sympy expression
built node by node; sympy's ``parse_expr``/``sympify`` would ``eval`` the text).
Allowed are decimal numbers (exact: ``0.5`` is 1/2), the names ``str()`` prints
for the registry's bounds (:data:`~arete_proofs.chain.expressions.NAMES`:
``alpha``, ``theta``, ``lam``, ``Delta``, ``D_Gamma``, ``D_u``, ``eps``,
``kappa``, ``t``, ``a``, ``h``, ``n``, ``gamma_sc``, ``c_L``, ``E``, ``pi``),
calls of the paper's functions (``f_A(x, alpha, theta, lam)``, ``f_Gamma``,
``c_DGam``, ...) and of ``exp``, ``log``, ``sqrt``, ``gamma``, ``Abs``, ``Min``,
``Max``, ``besselk``, the hyperbolic functions, ``erf``, ``erfc`` with positional
arguments, ``+ - * / **`` and, in a hypothesis, one comparison.  Anything else (attributes, strings,
keywords, other names, ...) and oversized input (over 2000 characters, huge
literals or powers such as ``9**9**9``) is refused with a one-line
:class:`VariantError` naming the variant and the key; so is a malformed file
(not TOML, ``variant`` not an array of tables, a key of the wrong type, an unknown
key or statement).  A printed bound is a valid starting point: :func:`parse` of
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

from .expressions import NAMES, ExpressionError, parse_expression
from .registry import REGISTRY, STATEMENT_IDS, Statement

__all__ = ["NAMES", "VariantError", "Variant", "VariantResult", "parse", "load", "load_text", "check",
           "MAX_FILE_CHARS", "MAX_VARIANTS", "MAX_HYPOTHESES"]

_KEYS = {"name", "statement", "bound", "rhs", "lhs", "hypotheses"}

#: Largest variant file (characters).
MAX_FILE_CHARS = 1_000_000
#: Most ``[[variant]]`` tables in one file (each is a grid check plus a search of seconds to minutes).
MAX_VARIANTS = 100
#: Most hypotheses of one variant (the registry's statements have at most 13).
MAX_HYPOTHESES = 50


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


def parse(text: str, where: str = "expression", *, kind: str = "any", exact: bool = False):
    r"""A sympy expression (or relation) over the allowed names; ``VariantError`` naming ``where``.

    The text is parsed by the whitelist parser
    :func:`arete_proofs.chain.expressions.parse_expression` (``ast`` plus a fixed grammar; the text
    is never evaluated as Python); ``kind`` and ``exact`` are its (``"expression"`` for a side,
    ``"relation"`` with ``exact=True`` for a hypothesis).  The inverse of ``str()`` on the
    registry's bounds: for Lemma 16's ratio bound
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
    >>> try:
    ...     parse("open('/etc/passwd')", "variant 'x': key 'rhs'")
    ... except VariantError as exc:
    ...     print(str(exc)[:56])
    variant 'x': key 'rhs': unknown name 'open' at column 1;
    """
    try:
        return parse_expression(text, where, kind=kind, exact=exact)
    except ExpressionError as exc:
        raise VariantError(str(exc)) from None


def _variant(entry, index) -> Variant:
    label = f"variant {index + 1}"
    if not isinstance(entry, dict):
        raise VariantError(f"{label}: expected a table ([[variant]]), got {_type(entry)}")
    name = entry.get("name", label)
    if not isinstance(name, str) or not name.strip():
        raise VariantError(f"{label}: key 'name': expected a non-empty string, got {_type(name)}")
    label = f"variant {_short(name)!r}"
    extra = set(entry) - _KEYS
    if extra:
        raise VariantError(f"{label}: unknown key(s) {_short(', '.join(sorted(extra)), 120)}; "
                           f"known: {', '.join(sorted(_KEYS))}")
    for key in ("statement", "bound"):
        if key not in entry:
            raise VariantError(f"{label}: missing key {key!r}")
        if not isinstance(entry[key], str):
            raise VariantError(f"{label}: key {key!r}: expected a string, got {_type(entry[key])}")
    sid = entry["statement"]
    if sid not in REGISTRY:
        raise VariantError(f"{label}: key 'statement': unknown statement {_short(sid)!r}; "
                           f"known: {', '.join(STATEMENT_IDS)}")
    base = REGISTRY[sid]
    bounds = {b.name: b for b in base.bounds}
    if entry["bound"] not in bounds:
        raise VariantError(f"{label}: key 'bound': {sid} has no bound {_short(entry['bound'])!r}; "
                           f"its bounds: {', '.join(bounds)}")
    if "rhs" not in entry and "lhs" not in entry and "hypotheses" not in entry:
        raise VariantError(f"{label}: nothing to change (give 'rhs', 'lhs' or 'hypotheses')")
    b = bounds[entry["bound"]]
    changes = {}
    for key in ("lhs", "rhs"):
        if key in entry:
            changes[key] = parse(entry[key], f"{label}: key {key!r}", kind="expression")
    bound = dataclasses.replace(b, **changes)
    hyps = base.hypotheses
    if "hypotheses" in entry:
        given = entry["hypotheses"]
        if not isinstance(given, list):
            raise VariantError(f"{label}: key 'hypotheses': expected a list of strings, got {_type(given)}")
        if len(given) > MAX_HYPOTHESES:
            raise VariantError(f"{label}: key 'hypotheses': {len(given)} hypotheses, more than {MAX_HYPOTHESES}")
        # decided exactly at every grid point (Statement.hypotheses_at): the parser's stricter rules
        hyps = tuple(parse(x, f"{label}: key 'hypotheses'", kind="relation", exact=True) for x in given)
        for x in hyps:
            if not isinstance(x, sp.core.relational.Relational):       # e.g. "1 < 2" or "c_L > 0"
                always = {sp.true: " (it is always true)", sp.false: " (it is always false)"}.get(x, "")
                raise VariantError(f"{label}: key 'hypotheses': {_short(x)} is not a relation{always}")
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    st = _VariantStatement(**{**fields, "id": f"variant:{name}", "hypotheses": hyps, "bounds": (bound,), "base": sid})
    return Variant(name=str(name), base=sid, bound=b.name, statement=st)


@dataclass(frozen=True)
class _VariantStatement(Statement):
    """A variant's record: a hypothesis undefined at a point does not hold there.

    A user's hypothesis may have no value at a grid point of the base statement (``gamma(t) > 0``
    at t = -1 compares ``zoo``); that point is outside the variant's region, not a crash.
    """

    def hypotheses_at(self, point: dict) -> list:
        try:
            return super().hypotheses_at(point)
        except (TypeError, ValueError, ArithmeticError):
            failed = []
            for hyp in self.hypotheses:                      # decide each alone
                try:
                    if Statement.hypotheses_at(dataclasses.replace(self, hypotheses=(hyp,)), point):
                        failed.append(hyp)
                except (TypeError, ValueError, ArithmeticError):
                    failed.append(hyp)
            return failed


def _short(text, n=60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _type(value) -> str:
    """How TOML calls ``value``'s type (for the messages)."""
    names = {str: "a string", bool: "a boolean", int: "an integer", float: "a float", list: "an array",
             dict: "a table"}
    return names.get(type(value), f"a {type(value).__name__} value")


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
    if not isinstance(text, str):
        raise VariantError(f"expected the text of a TOML file, got {_type(text)}")
    if len(text) > MAX_FILE_CHARS:
        raise VariantError(f"{len(text)} characters, more than {MAX_FILE_CHARS} (a variant file is small)")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"not valid TOML: {exc}") from None
    except RecursionError:
        raise VariantError("not valid TOML: arrays or tables nested too deeply") from None
    extra = set(doc) - {"variant"}
    if extra:
        raise VariantError(f"unknown top-level key(s) {_short(', '.join(sorted(extra)), 120)}; "
                           "expected [[variant]] tables")
    entries = doc.get("variant")
    if entries is None or entries == []:
        raise VariantError("no [[variant]] table in the file")
    if isinstance(entries, dict):
        raise VariantError("key 'variant': a single table [variant]; write [[variant]] (an array of tables)")
    if not isinstance(entries, list):
        raise VariantError(f"key 'variant': expected [[variant]] tables, got {_type(entries)}")
    if len(entries) > MAX_VARIANTS:
        raise VariantError(f"{len(entries)} variants, more than {MAX_VARIANTS} in one file")
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
            text = fh.read(MAX_FILE_CHARS + 1)
    except OSError as exc:
        raise VariantError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise VariantError(f"cannot read {path}: not UTF-8 text (byte {exc.start})") from None
    if len(text) > MAX_FILE_CHARS:
        raise VariantError(f"more than {MAX_FILE_CHARS} characters (a variant file is small)")
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
        # the point's values are the grid's and the search's own numbers as sympy printed them
        # (exact decimals of up to 400 digits, 2*exp(-1), ...), never text from the variant file
        exact = {NAMES[k]: sp.sympify(v, locals=dict(NAMES)) for k, v in point.items()}
        entry = V._compiled(st)[0]
        lo, hi, _ = V._evaluate(entry, exact, digits + 5, {})
        return mp.nstr(mp.mpf(lo), digits), mp.nstr(mp.mpf(hi), digits)
    except Exception:  # noqa: BLE001 - the 12-digit sides of the check stay
        return lhs, rhs


def _is_rational(text) -> bool:
    # ``text`` is a value of the grid or the search as sympy printed it (see _sides), not the file's
    try:
        return sp.sympify(text).is_Rational
    except (sp.SympifyError, TypeError):
        return False
