r"""Numeric verification of the registry's statements over their grids.

For every point of a statement's grid (:mod:`arete_proofs.chain.grids`) and every
bound of the statement (:class:`arete_proofs.chain.registry.Bound`), the check

1. asserts the statement's hypotheses at the point with exact sympy arithmetic
   (a point that violates them is a :class:`GridError`, never a pass);
2. evaluates both sides at ``digits`` significant digits (the engine-backed
   densities deliver that many correct digits; the closed forms run with guard
   digits) and computes the **slack** :math:`\ln(\mathrm{rhs}/\mathrm{lhs})`
   (for an equality, :math:`-|\ln(\mathrm{rhs}/\mathrm{lhs})|`);
3. when :math:`|\text{slack}|` is within the numerical error
   (:math:`10^{2-\text{digits}}`), re-evaluates the point at twice the digits,
   up to ``max_digits``, instead of guessing.  A point still within the error
   at ``max_digits`` is **tight**: the two sides agree to that precision
   (equality is allowed by every bound of the paper).  A point with a negative
   slack beyond the error is a **violation**, reported with both sides.

Points that share their distribution parameters form a task; the density
engine evaluates all of a task's :math:`f_A` values in one batch.  Tasks run in
this process, in worker processes (``workers``) or on a Dask cluster
(``dask_address``).

>>> rep = verify(["lemma-28"], level="quick", progress=False)
>>> s = rep.statements[0]
>>> (s.id, s.violations, s.points > 0, s.min_slack >= 0 or s.tight > 0)
('lemma-28', 0, True, True)
"""

from __future__ import annotations

import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field

import sympy as sp
from mpmath import mp

from .._validation import resolve_digits
from .registry import REGISTRY, STATEMENT_IDS, get
from .symbols import CONSTANTS, a, h, n, numeric, prefetch, t, to_mpf, working_digits

__all__ = [
    "GridError", "BoundReport", "StatementReport", "Report", "verify", "check_task",
    "compare_baseline", "DEFAULT_DIGITS", "MAX_DIGITS",
]

#: Digits of the first evaluation of every point.
DEFAULT_DIGITS = 20
#: Largest precision a tight point is re-evaluated at.
MAX_DIGITS = 80

#: Symbols that vary inside a task; all other symbols of a point are its parameters.
_LOCAL = (t, a, h, n)
#: Functions evaluated by the (slow) density engine: their statements get small tasks.
_ENGINE = ("f_A", "f_GG", "near_mass", "shifted_conv", "mean_abs_A", "tight_eps_A")


class GridError(ValueError):
    """A grid point violates the hypotheses of its statement."""


@dataclass
class BoundReport:
    """Result of one bound over the grid."""

    name: str
    points: int = 0
    violations: int = 0
    tight: int = 0
    min_slack: float = math.inf
    argmin: dict = field(default_factory=dict)
    examples: list = field(default_factory=list)


@dataclass
class StatementReport:
    """Result of one statement: the sum over its bounds."""

    id: str
    number: str
    points: int = 0
    violations: int = 0
    tight: int = 0
    min_slack: float = math.inf
    argmin: dict = field(default_factory=dict)
    bounds: list = field(default_factory=list)
    grid_errors: list = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Report:
    """A whole verification run."""

    grid: str
    digits: int
    statements: list
    wall_seconds: float = 0.0
    workers: int = 1
    symbolic: list = field(default_factory=list)
    observations: list = field(default_factory=list)
    certified: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no bound is violated, no grid point is bad and every symbolic check and certificate holds."""
        return (
            all(s.violations == 0 and not s.grid_errors for s in self.statements)
            and all(r["holds"] for r in self.symbolic)
            and all(c["holds"] is True for c in self.certified)
        )

    def to_json(self) -> dict:
        def clean(x):
            if isinstance(x, float) and not math.isfinite(x):
                return "inf" if x > 0 else ("-inf" if x < 0 else "nan")
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, list):
                return [clean(v) for v in x]
            return x

        return clean(
            {
                "grid": self.grid,
                "digits": self.digits,
                "workers": self.workers,
                "wall_seconds": round(self.wall_seconds, 2),
                "statements": [asdict(s) for s in self.statements],
                "symbolic": self.symbolic,
                "observations": self.observations,
                "certified": self.certified,
            }
        )


# ---------------------------------------------------------------------------
# evaluation of one task (runs in a worker)
# ---------------------------------------------------------------------------

_COMPILED: dict = {}


def _record(statement):
    """The :class:`~arete_proofs.chain.registry.Statement` of an id, or the record itself (a variant)."""
    return REGISTRY[statement] if isinstance(statement, str) else statement


def _key(statement):
    if isinstance(statement, str):
        return statement
    st = statement
    return (st.id, tuple((b.name, str(b.lhs), str(b.rhs), b.relation) for b in st.bounds),
            str(sorted(st.substitutions.items(), key=lambda kv: str(kv[0]))))


def _compiled(statement):
    """Per-process cache of the lambdified bounds of a statement (an id or a record)."""
    key = _key(statement)
    if key in _COMPILED:
        return _COMPILED[key]
    st = _record(statement)
    out = []
    for b in st.bounds:
        lhs = sp.sympify(b.lhs).subs(st.substitutions).subs(CONSTANTS)
        rhs = sp.sympify(b.rhs).subs(st.substitutions).subs(CONSTANTS)
        syms = sorted(lhs.free_symbols | rhs.free_symbols, key=lambda s: s.name)
        where = tuple(sp.sympify(w).subs(st.substitutions) for w in b.where)
        out.append((b, syms, numeric(syms, lhs), numeric(syms, rhs), where))
    _COMPILED[key] = out
    return out


def _slack(lhs, rhs, relation):
    if mp.isnan(lhs) or mp.isnan(rhs):
        return mp.nan
    if relation == "==":
        if lhs == rhs:
            return mp.zero
        if lhs <= 0 or rhs <= 0:
            return mp.ninf
        return -abs(mp.log(rhs) - mp.log(lhs))
    if lhs <= 0:
        return mp.inf if rhs > 0 else (mp.zero if rhs == lhs else mp.ninf)
    if mp.isinf(rhs):
        return mp.inf if not mp.isinf(lhs) else mp.nan
    if rhs <= 0 or mp.isinf(lhs):
        return mp.ninf
    return mp.log(rhs) - mp.log(lhs)


def _evaluate(entry, point, d, cache):
    b, syms, lhs_fn, rhs_fn, _ = entry
    with working_digits(d, cache):
        args = [to_mpf(point[s]) for s in syms]
        lhs = lhs_fn(*args)
        rhs = rhs_fn(*args)
        return lhs, rhs, _slack(mp.mpf(lhs), mp.mpf(rhs), b.relation)


def _show(x, digits=12):
    return mp.nstr(x, digits) if isinstance(x, (mp.mpf, mp.mpc)) or hasattr(x, "_mpf_") else str(x)


def _point_dict(point):
    return {s.name: str(v) for s, v in sorted(point.items(), key=lambda kv: kv[0].name)}


def check_task(statement_id, points, digits=DEFAULT_DIGITS, max_digits=MAX_DIGITS):
    """Check every bound of ``statement_id`` (an id or a record) at ``points``; the unit of parallel work.

    Returns a dict with the grid errors and, per bound, one record per checked point:
    ``(point, slack, lhs, rhs, status, digits)`` with status ``holds``, ``tight`` or
    ``violated``.
    """
    start = time.process_time()
    st = _record(statement_id)
    grid_errors = []
    good = []
    for p in points:
        failed = st.hypotheses_at(p)
        if failed:
            grid_errors.append({"point": _point_dict(p), "hypotheses": [str(f) for f in failed]})
        else:
            good.append(p)
    entries = _compiled(st if not isinstance(statement_id, str) else statement_id)
    cache: dict = {}
    # every f_A value of the task in one engine batch per parameter set
    prefetch([(fn, syms, p) for _, syms, lhs_fn, rhs_fn, _ in entries for p in good
              for fn in (lhs_fn, rhs_fn)], digits, cache)
    results = {}
    for entry in entries:
        b, syms, _, _, where = entry
        seen = set()
        rows = []
        for p in good:
            if where and not all(bool(w.subs(p)) for w in where):
                continue
            key = tuple(p[s] for s in syms)
            if key in seen:
                continue
            seen.add(key)
            d = digits
            lhs, rhs, slack = _evaluate(entry, p, d, cache)
            # within the numerical error: re-evaluate at higher precision, never guess
            while not mp.isnan(slack) and abs(slack) <= mp.mpf(10) ** (2 - d) and d < max_digits:
                d = min(2 * d, max_digits)
                lhs, rhs, slack = _evaluate(entry, p, d, cache)
            if mp.isnan(slack):
                status = "violated"
            elif abs(slack) <= mp.mpf(10) ** (2 - d):
                status = "tight"
            elif slack < 0:
                status = "violated"
            else:
                status = "holds"
            rows.append((_point_dict({s: p[s] for s in syms}), float(slack) if not mp.isnan(slack) else math.nan,
                         _show(lhs), _show(rhs), status, d))
        results[b.name] = rows
    return {"statement": st.id, "grid_errors": grid_errors, "bounds": results,
            "seconds": time.process_time() - start}


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------

def _is_engine(statement_id):
    st = _record(statement_id)
    names = set()
    for b in st.bounds:
        names |= {type(f).__name__ for f in (sp.sympify(b.lhs).atoms(sp.Function) | sp.sympify(b.rhs).atoms(sp.Function))}
    return bool(names & set(_ENGINE))


def _tasks(statement_id, points):
    """Split a grid into tasks: runs of points with equal parameters, merged up to a size."""
    size = 40 if _is_engine(statement_id) else 400
    blocks = []
    for p in points:
        key = tuple((s, v) for s, v in p.items() if s not in _LOCAL)
        if blocks and blocks[-1][0] == key:
            blocks[-1][1].append(p)
        else:
            blocks.append((key, [p]))
    tasks, cur = [], []
    for _, pts in blocks:
        if cur and len(cur) + len(pts) > size:
            tasks.append(cur)
            cur = []
        cur = cur + pts
    if cur:
        tasks.append(cur)
    return tasks


class _Progress:
    def __init__(self, total, enabled):
        self.total, self.done, self.points, self.bad = total, 0, 0, 0
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = -1

    def update(self, result):
        self.done += 1
        for rows in result["bounds"].values():
            self.points += len(rows)
            self.bad += sum(1 for r in rows if r[4] == "violated")
        self.bad += len(result["grid_errors"])
        if not self.enabled:
            return
        msg = (f"verify: {self.done}/{self.total} tasks, {self.points} checks, "
               f"{self.bad} problems, {time.monotonic() - self.start:.0f} s ({result['statement']})")
        if self.tty:
            print("\r" + msg.ljust(100), end="", file=sys.stderr, flush=True)
        else:
            decile = 10 * self.done // self.total
            if decile != self.last:
                self.last = decile
                print(msg, file=sys.stderr, flush=True)

    def close(self):
        if self.tty:
            print(file=sys.stderr, flush=True)


def _run_tasks(jobs, digits, max_digits, workers, dask_address, progress):
    results = []
    if dask_address:
        try:
            from dask.distributed import Client, as_completed as dask_completed
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise RuntimeError("--dask needs the optional extra: pip install 'arete-proofs[dask]'") from exc
        client = dask_address if hasattr(dask_address, "submit") else Client(dask_address)
        futures = [client.submit(check_task, sid, pts, digits, max_digits, pure=False) for sid, pts in jobs]
        for fut in dask_completed(futures):
            r = fut.result()
            progress.update(r)
            results.append(r)
        if client is not dask_address:
            client.close()
    elif workers <= 1:
        for sid, pts in jobs:
            r = check_task(sid, pts, digits, max_digits)
            progress.update(r)
            results.append(r)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(check_task, sid, pts, digits, max_digits) for sid, pts in jobs]
            for fut in as_completed(futures):
                r = fut.result()
                progress.update(r)
                results.append(r)
    progress.close()
    return results


def _summarise(statement_id, results):
    st = _record(statement_id)
    rep = StatementReport(id=st.id, number=st.number, seconds=round(sum(r["seconds"] for r in results), 2))
    per_bound = {b.name: BoundReport(name=b.name) for b in st.bounds}
    seen = {b.name: set() for b in st.bounds}
    for r in results:
        rep.grid_errors += r["grid_errors"]
        for name, rows in r["bounds"].items():
            br = per_bound[name]
            for point, slack, lhs, rhs, status, d in rows:
                # distinct points only: two tasks may share a point of the bound's own symbols
                key = tuple(sorted(point.items()))
                if key in seen[name]:
                    continue
                seen[name].add(key)
                br.points += 1
                if status == "tight":
                    br.tight += 1
                if status == "violated":
                    br.violations += 1
                    if len(br.examples) < 5:
                        br.examples.append({"point": point, "lhs": lhs, "rhs": rhs, "slack": slack, "digits": d})
                if slack < br.min_slack or (math.isnan(slack)):
                    br.min_slack = slack
                    br.argmin = dict(point, bound=name, lhs=lhs, rhs=rhs, digits=d)
    rep.bounds = list(per_bound.values())
    relation = {b.name: b.relation for b in st.bounds}
    for br in rep.bounds:
        rep.points += br.points
        rep.violations += br.violations
        rep.tight += br.tight
        # an equality's "slack" is minus its deviation: it belongs to the bound's
        # own report, not to the statement's minimum slack
        if br.points and relation[br.name] == "<=" and (br.min_slack < rep.min_slack or math.isnan(br.min_slack)):
            rep.min_slack = br.min_slack
            rep.argmin = br.argmin
    return rep


def verify(statements=None, level="default", digits=DEFAULT_DIGITS, workers=1, *,
           dask_address=None, progress=True, max_digits=MAX_DIGITS):
    """Check ``statements`` (ids or :class:`~arete_proofs.chain.registry.Statement` records; all by default) on the grid ``level``.

    ``digits`` is the precision of the first evaluation of every point,
    ``workers`` the number of processes (1: this process), ``dask_address`` a
    Dask scheduler address (or a ``distributed.Client``).  Returns a
    :class:`Report`; ``report.ok`` is False on any violation or grid error.
    """
    digits = resolve_digits(digits)
    if digits < 10:
        raise ValueError(f"digits must be at least 10 for a meaningful slack, got {digits}")
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    # an id names a statement of the registry; a record (a user's variant) is checked as it is
    records = list(STATEMENT_IDS) if not statements else [
        get(s).id if isinstance(s, str) else s for s in statements]
    ids = [r if isinstance(r, str) else r.id for r in records]
    start = time.monotonic()
    jobs = []
    for rec in records:
        for pts in _tasks(rec, _record(rec).points(level)):
            jobs.append((rec, pts))
    # big tasks first keeps both workers busy until the end
    jobs.sort(key=lambda j: -len(j[1]) * (10 if _is_engine(j[0]) else 1))
    prog = _Progress(len(jobs), progress)
    results = _run_tasks(jobs, digits, max(max_digits, digits), workers, dask_address, prog)
    by_id = {sid: [] for sid in ids}
    for r in results:
        by_id[r["statement"]].append(r)
    wall = time.monotonic() - start
    reports = [_summarise(rec, by_id[sid]) for rec, sid in zip(records, ids)]
    return Report(grid=level, digits=digits, statements=reports, wall_seconds=wall, workers=workers)


# ---------------------------------------------------------------------------
# baseline
# ---------------------------------------------------------------------------

def compare_baseline(report: Report | dict, baseline: dict, tolerance: float = 1e-6) -> list[str]:
    """Problems of ``report`` against a saved ``baseline`` report (empty list: no regression).

    A problem is: a violation or grid error; a statement of the baseline that was
    not run; a different grid (level or number of points); a minimum slack that
    dropped (the bound got tighter or the density moved) or rose (the bound was
    weakened) by more than ``tolerance * max(1, |baseline slack|)``, for the
    statement and for **every bound** of it.
    """
    data = report.to_json() if isinstance(report, Report) else report
    problems = []
    current = {s["id"]: s for s in data["statements"]}
    if baseline.get("grid") != data.get("grid"):
        problems.append(f"baseline grid is {baseline.get('grid')!r}, this run used {data.get('grid')!r}")
        return problems
    for s in data["statements"]:
        if s["violations"] or s.get("grid_errors"):
            problems.append(f"{s['id']}: {s['violations']} violations, {len(s.get('grid_errors', []))} grid errors")
    for b in baseline.get("statements", []):
        s = current.get(b["id"])
        if s is None:
            continue
        if s["points"] != b["points"]:
            problems.append(f"{b['id']}: {s['points']} points checked, the baseline has {b['points']} (different grid)")
            continue
        # every bound's minimum slack, not only the statement's: a change in a bound
        # that is not the statement's tightest must be seen too
        pairs = [(b["id"], b["min_slack"], s["min_slack"])]
        now_bounds = {x["name"]: x for x in s.get("bounds", [])}
        for ob in b.get("bounds", []):
            nb = now_bounds.get(ob["name"])
            if nb is None:
                problems.append(f"{b['id']} [{ob['name']}]: bound of the baseline not checked")
                continue
            pairs.append((f"{b['id']} [{ob['name']}]", ob["min_slack"], nb["min_slack"]))
        for label, old, new in pairs:
            problem = _slack_change(label, float(old), float(new), tolerance)
            if problem:
                problems.append(problem)
    return problems


def _slack_change(label, old, new, tolerance):
    if math.isinf(old) and math.isinf(new) and old == new:
        return None
    scale = tolerance * max(1.0, abs(old)) if math.isfinite(old) else math.inf
    if new < old - scale:
        return f"{label}: minimum slack dropped from {old:.6g} to {new:.6g}"
    if new > old + scale:
        return f"{label}: minimum slack rose from {old:.6g} to {new:.6g} (bound weakened?)"
    return None


def load_report(path) -> dict:
    """Read a report written by ``arete verify --json``; a malformed file is a one-line ``ValueError``.

    >>> import json, tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
    ...     json.dump([1, 2], fh)
    >>> try:
    ...     load_report(fh.name)
    ... except ValueError as exc:
    ...     print(str(exc).split(": ", 1)[1])
    a verify report is a JSON object with "grid" and "statements", got a list
    >>> os.unlink(fh.name)
    """
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the report ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    problem = _report_problem(doc)
    if problem:
        raise ValueError(f"{path}: {problem}")
    return doc


def _is_slack(x) -> bool:
    return (isinstance(x, (int, float)) and not isinstance(x, bool)) or x in ("inf", "-inf", "nan")


def _report_problem(doc) -> str | None:
    """What makes ``doc`` unusable as a baseline (``None``: nothing)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("statements"), list):
        kind = type(doc).__name__ if not isinstance(doc, dict) else "an object without a statements list"
        kind = {"list": "a list", "str": "a string", "NoneType": "null", "int": "a number",
                "float": "a number"}.get(kind, kind)
        return f'a verify report is a JSON object with "grid" and "statements", got {kind}'
    if not isinstance(doc.get("grid"), str):
        return f'"grid" must be a string, got {doc.get("grid")!r}'
    for i, s in enumerate(doc["statements"]):
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            return f"statement {i} has no id (a string)"
        for key in ("points", "violations"):
            if not isinstance(s.get(key), int) or isinstance(s.get(key), bool) or s[key] < 0:
                return f"statement {s['id']}: {key!r} must be a count, got {s.get(key)!r}"
        if not _is_slack(s.get("min_slack")):
            return f"statement {s['id']}: min_slack must be a number or \"inf\"/\"-inf\"/\"nan\", got {s.get('min_slack')!r}"
        bounds = s.get("bounds", [])
        if not isinstance(bounds, list):
            return f"statement {s['id']}: bounds must be a list"
        for b in bounds:
            if not isinstance(b, dict) or not isinstance(b.get("name"), str) or not _is_slack(b.get("min_slack")):
                return f"statement {s['id']}: every bound needs a name and a min_slack, got {b!r}"[:200]
    return None
