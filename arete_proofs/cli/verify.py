"""``arete verify``: check the paper's proof chain statement by statement over parameter grids.

Runs :func:`arete_proofs.chain.verify.verify` (and, on request, the sympy proofs,
the observations and the ball-arithmetic certificates of the registry) and prints
one table row per statement.  Shared options and the registry:
:mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time

import mpmath

from ._common import UsageError, check_writable, command, format_bound


def _verify_arguments(parser: argparse.ArgumentParser) -> None:
    from ..chain.grids import LEVELS
    from ..chain.registry import ALL_IDS
    from ..chain.verify import DEFAULT_DIGITS as VERIFY_DIGITS

    # ALL_IDS: the first paper's chain (the default set) and the 2025 paper's hm25-... records
    parser.add_argument("--statement", metavar="ID", action="append", choices=ALL_IDS,
                        help="check only this statement (repeatable); one of: " + ", ".join(ALL_IDS))
    parser.add_argument("--paper", choices=tuple(PAPER_KEYS),
                        help="check every record of one paper: 2022 (Pagh & Stausholm, the default set) or hm25 "
                        "(Harrison & Manurangsi, FORC 2025, reconstructed); with --symbolic and --observations, "
                        "only that paper's sympy proofs and observations")
    parser.add_argument("--grid", choices=LEVELS, default="default",
                        help="grid size: quick (seconds), default, fine (default: default)")
    parser.add_argument("--digits", metavar="D", type=int, default=VERIFY_DIGITS,
                        help=f"digits of the first evaluation of each point (default {VERIFY_DIGITS}); "
                        "points within the numerical error are re-evaluated at higher precision")
    parser.add_argument("--workers", metavar="N", type=int, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="send the grid points to the Dask scheduler at ADDRESS (extra 'dask')")
    parser.add_argument("--json", metavar="FILE", help="write the full report as JSON to FILE")
    parser.add_argument("--baseline", metavar="FILE",
                        help="compare with a saved report; fail on a violation or a changed minimum slack")
    parser.add_argument("--tolerance", metavar="T", type=_tolerance, default=1e-6,
                        help="relative tolerance of --baseline on the minimum slack (default 1e-6)")
    parser.add_argument("--symbolic", action="store_true",
                        help="also run the sympy proofs of the algebraic steps")
    parser.add_argument("--observations", action="store_true",
                        help="also check the paper's literal statements listed as observations (errata)")
    parser.add_argument("--certified", action="store_true",
                        help="also run the ball-arithmetic certificates of the closed-form statements "
                        "(extra 'certified': python-flint)")
    parser.add_argument("--search", action="store_true",
                        help="also search each bound's whole hypothesis region for a counterexample "
                        "(differential evolution on the float64 path, candidates confirmed exactly)")
    parser.add_argument("--variant", metavar="FILE",
                        help="check the variants of a TOML file ([[variant]] name, statement, bound, rhs, "
                        "lhs, hypotheses) on --grid and by the search; exit 1 when one is refuted")
    parser.add_argument("--seed", metavar="S", type=int, default=0, help="seed of the search (default 0)")
    parser.add_argument("--search-budget", metavar="N", type=int, default=1500,
                        help="float64 evaluations of the search per bound (default 1500)")
    parser.add_argument("--quiet", "--no-progress", dest="no_progress", action="store_true",
                        help="no progress lines on stderr (every phase: grid, symbolic, observations, "
                        "certificates, search)")


#: ``--paper`` key -> the registry's paper name (:data:`arete_proofs.chain.registry.PAPERS`).
PAPER_KEYS = {"2022": "Pagh & Stausholm (ALT 2022)", "hm25": "Harrison & Manurangsi (FORC 2025), reconstructed"}


def _selection(args):
    """``(statement ids or None, symbolic ids, observation ids)`` of ``--statement``/``--paper``.

    Without ``--paper`` the sympy proofs and observations are today's (every sympy proof, the first
    paper's observations); with it, those the paper's records reference and the paper's observations.
    """
    from ..chain import observations, symbolic
    from ..chain.registry import PAPERS, REGISTRY

    if not args.paper:
        return args.statement, list(symbolic.CHECKS), list(observations.OBSERVATION_IDS)
    if args.statement:
        raise UsageError("--paper and --statement select the statements two ways: give one of them")
    ids = list(PAPERS[PAPER_KEYS[args.paper]])
    wanted = {c for i in ids for c in REGISTRY[i].symbolic}
    sym = [c for c in symbolic.CHECKS if c in wanted]
    obs = list(observations.HM25_OBSERVATION_IDS if args.paper == "hm25" else observations.OBSERVATION_IDS)
    return ids, sym, obs


def _tolerance(text: str) -> float:
    """``--tolerance``: a finite number >= 0 (NaN compared false everywhere and turned the check off)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(x) or x < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text!r}")
    return x


#: The legend printed below the table (80 is :data:`arete_proofs.chain.verify.MAX_DIGITS`; a test checks it).
LEGEND = """\
kinds: N = numeric check on the grid, S = sympy proof of an algebraic step (--symbolic),
  C = ball-arithmetic certificate (--certified).
checks: one bound of the statement at one grid point (a statement with two bounds checks each point twice).
min slack: the smallest ln(rhs/lhs) over the checks (an equality: minus |ln(rhs/lhs)|).
tight: checks where lhs and rhs agree within the numerical error 10^(2-d) even at the highest
  precision d tried (re-evaluated at doubling digits up to 80): the bound holds with equality up to
  the working precision (the paper's bounds allow equality, e.g. the Laplace mechanism attains e^eps).
  They are not violations; their slack is within +-10^(2-d) of 0, so the min slack beside them may be
  a tiny negative number such as -8e-90."""


def _write_json(path, doc) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
    except OSError as exc:
        raise UsageError(f"--json {path}: cannot write ({exc.strerror or exc})") from None


def _short(value: str) -> str:
    import sympy as sp

    try:
        expr = sp.sympify(value)
    except (sp.SympifyError, TypeError):
        return value
    if expr.is_Integer or (expr.is_Rational and len(value) <= 8) or len(value) <= 8:
        return value
    return mpmath.nstr(mpmath.mpf(sp.N(expr, 20)), 4)


def _where(argmin: dict) -> str:
    if not argmin:
        return "-"
    skip = ("bound", "lhs", "rhs", "digits")
    point = ", ".join(f"{k}={_short(v)}" for k, v in argmin.items() if k not in skip)
    return f"{argmin.get('bound', '')}: {point}"


def _slack_text(x) -> str:
    if isinstance(x, str):
        return x
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return f"{x:.4g}"


def _margin_text(m) -> str:
    """A certified lower bound on a margin, with 4 digits rounded down (it stays a lower bound)."""
    return "-" if m is None else format_bound(m, 4, upward=False)


def _phase(what, items, run_one, progress, label=str):
    """Run ``run_one(item)`` (a list) for each item, a progress line per item on stderr; (results, seconds)."""
    start = time.monotonic()
    out = []
    for i, item in enumerate(items, 1):
        t0 = time.monotonic()
        out.extend(run_one(item))
        if progress:
            print(f"verify: {what} {i}/{len(items)} {label(item)} ({time.monotonic() - t0:.1f} s, "
                  f"{time.monotonic() - start:.0f} s in all)", file=sys.stderr, flush=True)
    return out, time.monotonic() - start


def _run_certificates(statement_ids, progress=False):
    """Run the registry's certificates (``arete verify --certified``)."""
    import importlib.util

    if importlib.util.find_spec("flint") is None:
        raise UsageError("--certified needs python-flint: pip install 'arete-proofs[certified]'")
    from ..certified import statements as certified
    from ..chain.registry import REGISTRY, STATEMENT_IDS

    def one(pair):
        sid, name = pair
        c = getattr(certified, name)()
        m = c.min_margin()
        return [{"id": sid, "function": name, "statement": c.statement, "inequality": c.inequality,
                 "holds": c.holds, "boxes": len(c.boxes),
                 "min_margin": None if m is None else float(m),
                 "undecided_or_refuted_box": None if c.undecided_or_refuted_box is None
                 else {k: [str(x) for x in v] for k, v in c.undecided_or_refuted_box.items()},
                 "seconds": round(c.seconds, 3), "argument": c.argument}]

    pairs = [(sid, name) for sid in statement_ids or STATEMENT_IDS for name in REGISTRY[sid].certificates]
    return _phase("certificate", pairs, one, progress, label=lambda p: p[1])


@command(
    "verify",
    help="check the paper's proof chain statement by statement over parameter grids",
    description="""\
Checks every bound of the paper's statements (Lemmas 2, 3, 14-19, 26-28, Claim 1,
Note 2) and of the statements proved here beyond it (Lemma 3 with the optimal rates:
lemma-3-mean-abs, lemma-3-variance; --statement lists every id) at every
point of a grid built from the statement's hypotheses, and prints
per statement: the kinds of check, checks (one bound at one grid point), violations,
tight checks, minimum slack ln(rhs/lhs) and where it occurs, then a legend of these
columns.  --observations adds the paper's literal wording where it differs from the
proofs (errata: reported, not counted).  Progress goes to stderr (--quiet: none).
Exit status 0 only when everything holds (and, with --baseline, no minimum slack
changed).  Examples:

    arete verify --grid quick
    arete verify --workers 2 --symbolic --observations --json report.json
    arete verify --statement lemma-18 --grid fine --digits 30
    arete verify --paper hm25 --symbolic --observations --json docs/data/verify-hm25.json
    arete verify --baseline tests/data/verify_quick_baseline.json --grid quick
""",
    options=(_verify_arguments,),
)
def verify_command(args: argparse.Namespace) -> int:
    """``arete verify``: run the grid checks, print the table, compare with a baseline."""
    from ..chain import verify as V

    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.search_budget < 1:
        raise UsageError(f"--search-budget must be at least 1, got {args.search_budget}")
    if args.json is not None:
        check_writable(args.json, "--json")   # before the work, which would be lost
    if args.variant:
        return _variant_command(args)
    baseline = None
    if args.baseline is not None:
        if args.baseline == "":
            raise UsageError("--baseline: the file name is empty")
        try:
            baseline = V.load_report(args.baseline)
        except ValueError as exc:
            raise UsageError(f"--baseline {exc}") from None
    progress = not args.no_progress
    statement_ids, symbolic_ids, observation_ids = _selection(args)
    start = time.monotonic()
    report = V.verify(statement_ids, level=args.grid, digits=args.digits, workers=args.workers,
                      dask_address=args.dask, progress=progress)
    phases = [("grid", report.wall_seconds)]
    if args.symbolic:
        from ..chain import symbolic

        results, sec = _phase("symbolic", symbolic_ids,
                              lambda cid: [dataclasses.asdict(r) for r in symbolic.run([cid])], progress)
        report.symbolic = results
        phases.append(("symbolic", sec))
    if args.observations:
        from ..chain import observations

        results, sec = _phase("observation", observation_ids,
                              lambda oid: [dataclasses.asdict(o) for o in observations.run([oid], digits=args.digits)],
                              progress)
        report.observations = results
        phases.append(("observations", sec))
    if args.certified:
        report.certified, sec = _run_certificates(statement_ids, progress)
        phases.append(("certificates", sec))
    t0 = time.monotonic()
    searched = _run_search(args, report) if args.search else []
    if args.search:
        phases.append(("search", time.monotonic() - t0))
    total = time.monotonic() - start
    from ..chain.registry import REGISTRY

    rows = [("id", "statement", "kinds", "checks", "violations", "tight", "min slack", "where")]
    for s in report.statements:
        rows.append((s.id, s.number, REGISTRY[s.id].check_kinds, str(s.points), str(s.violations),
                     str(s.tight), _slack_text(s.min_slack), _where(s.argmin)))
    widths = [max(len(r[i]) for r in rows) for i in range(7)]
    for r in rows:
        print("  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(r[:7], widths)))
              + "  " + r[7])
    print()
    print(LEGEND)
    for s in report.statements:
        for e in s.grid_errors[:3]:
            print(f"GRID ERROR {s.id}: {e['point']} violates {', '.join(e['hypotheses'])}")
        for b in s.bounds:
            for ex in b.examples[:3]:
                print(f"VIOLATION {s.id} [{b.name}] at {ex['point']}: lhs = {ex['lhs']}, rhs = {ex['rhs']}")
    if report.symbolic:
        print("\nsymbolic proofs of the algebraic steps (sympy; counted):")
        for r in report.symbolic:
            print(f"symbolic {r['id']:<28} {'holds' if r['holds'] else 'FAILS'}  {r['title']}")
    if report.certified:
        print("\nball-arithmetic certificates (python-flint; counted):")
        for c in report.certified:
            verdict = {True: "certified", False: "REFUTED", None: "UNDECIDED"}[c["holds"]]
            print(f"certificate {c['function']:<28} {verdict:<10} {c['statement']}: {c['inequality']} "
                  f"({c['boxes']} boxes, min margin {_margin_text(c['min_margin'])})")
    if report.observations:
        print("\nobservations: the paper's literal wording where it differs from what its proofs use "
              "(errata; NOT counted:\nthe statements above are checked as the proofs use them). "
              "Verdicts: typo, harmless, holds, differs, and\nfails = the literal wording is false "
              "(the proof's version above still holds).")
        for o in report.observations:
            print(f"observation {o['id']:<24} {o['verdict']:<9} {o['literal']}")
    if searched:
        print()
        for r in searched:
            where = ", ".join(f"{k}={_short(v)}" for k, v in r.point.items())
            print(f"search {r.statement:<12} [{r.bound}] {r.status:<8} slack {_slack_text(r.slack)} at {where} "
                  f"({r.evaluations} evaluations, {r.seconds:.1f} s)")
    counts = [f"{sum(s.points for s in report.statements)} grid checks on the {report.grid} grid"]
    if report.symbolic:
        counts.append(f"{len(report.symbolic)} symbolic")
    if report.certified:
        counts.append(f"{len(report.certified)} certificates")
    if searched:
        counts.append(f"{len(searched)} searches")
    if report.observations:
        counts.append(f"{len(report.observations)} observations (not counted)")
    print(f"\n{', '.join(counts)}; {total:.1f} s in all"
          + (f" ({', '.join(f'{name} {sec:.1f} s' for name, sec in phases)})" if len(phases) > 1 else "")
          + f" with {args.workers} worker(s)"
          + (f" on Dask at {args.dask}" if args.dask else ""))
    status = 0 if report.ok and not any(r.refuted for r in searched) else 1
    if args.json:
        doc = report.to_json()
        if args.search:
            doc["search"] = [_clean(dataclasses.asdict(r)) for r in searched]
        _write_json(args.json, doc)
    if baseline is not None:
        problems = V.compare_baseline(report, baseline, args.tolerance)
        for p in problems:
            print(f"BASELINE {p}")
        if problems:
            status = 1
        else:
            print(f"baseline {args.baseline}: no regression (tolerance {args.tolerance:g})")
    if status == 0:
        note = (f" (the {len(report.observations)} observations on the paper's literal wording are not "
                "statements of the chain)" if report.observations else "")
        print("all statements hold" + note, file=sys.stderr)
    else:
        print("FAILED")
    return status


def _clean(x):
    """JSON-safe: infinities and nan as strings."""
    if isinstance(x, float) and x != x:
        return "nan"
    if isinstance(x, float) and x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def _run_search(args, report):
    """``--search``: the counterexample search of every bound of the checked statements (in parallel)."""
    from concurrent.futures import ProcessPoolExecutor

    from ..chain.registry import REGISTRY
    from ..chain.search import search_bound

    jobs = [(s.id, b.name, args.seed + i) for s in report.statements for i, b in enumerate(REGISTRY[s.id].bounds)]
    kw = dict(budget=args.search_budget, level=args.grid, progress=not args.no_progress)
    if args.workers <= 1:
        return [search_bound(sid, name, seed=seed, **kw) for sid, name, seed in jobs]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(search_bound, sid, name, seed=seed, **kw) for sid, name, seed in jobs]
        return [f.result() for f in futures]


def _variant_command(args) -> int:
    """``--variant FILE``: grid plus search for each variant; 0 all hold, 1 one refuted, 2 malformed file."""
    from ..chain import variants as VV

    try:
        variants = VV.load(args.variant)
    except VV.VariantError as exc:
        raise UsageError(f"--variant {args.variant}: {exc}") from None
    results = []
    for v in variants:
        r = VV.check(v, level=args.grid, seed=args.seed, budget=args.search_budget, workers=args.workers,
                     progress=not args.no_progress)
        results.append(r)
        print(f"variant {r.name!r} ({r.statement} [{r.bound}]): {r.verdict}"
              f"  (grid: {r.grid_points} points, {r.grid_violations} violations; "
              f"search: {r.search.get('evaluations', 0)} evaluations; {r.seconds:.1f} s)")
        if r.verdict == "refuted":
            print(f"  counterexample (found by the {r.found_by}), slack ln(rhs/lhs) = {_slack_text(r.slack)}:")
            for k, val in r.point.items():
                print(f"    {k} = {val}")
            print(f"    lhs = {r.lhs}\n    rhs = {r.rhs}")
        else:
            print(f"  smallest slack {_slack_text(r.slack)} (found by the {r.found_by or 'grid'})")
    if args.json:
        doc = {"grid": args.grid, "seed": args.seed, "variants": [
            _clean({"name": r.name, "statement": r.statement, "bound": r.bound, "verdict": r.verdict,
                    "point": r.point, "slack": r.slack, "lhs": r.lhs, "rhs": r.rhs, "found_by": r.found_by,
                    "grid_points": r.grid_points, "grid_violations": r.grid_violations,
                    "grid_min_slack": r.grid_min_slack, "search": r.search, "seconds": r.seconds})
            for r in results]}
        _write_json(args.json, doc)
    refuted = [r.name for r in results if r.verdict == "refuted"]
    print(f"{len(refuted)} of {len(results)} variant(s) refuted" if refuted else "all variants hold",
          file=sys.stdout if refuted else sys.stderr)
    return 1 if refuted else 0
