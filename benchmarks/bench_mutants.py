"""Mutation benchmark of ``arete verify``: how many false variants the grid and the search refute.

Runs every mutant of :mod:`arete_proofs.chain.mutants` (structural false variants
of the registry's bounds, and true weakenings) through the same path as
``arete verify --variant FILE``: the grid (``--grid``, default ``default``) and the
counterexample search.  Reports the fraction of false variants refuted by the grid
alone and by grid plus search, the false alarms (true weakenings refuted) and the
time.  Exit status 1 when a false variant survives or a true one is refuted.

    python benchmarks/bench_mutants.py                    # default grid, 2 workers
    python benchmarks/bench_mutants.py --grid quick --budget 600 --workers 1
    python benchmarks/bench_mutants.py --only 16-drop-exp 19-lower-half-eps
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def _run(name, grid, budget, seed):
    from arete_proofs.chain import mutants, variants

    v = mutants.variants([name])[0]
    r = variants.check(v, level=grid, budget=budget, seed=seed)
    return {"name": name, "verdict": r.verdict, "grid_refuted": r.grid_violations > 0,
            "slack": r.slack, "found_by": r.found_by, "seconds": r.seconds,
            "search_evaluations": r.search.get("evaluations", 0)}


def main(argv=None) -> int:
    from arete_proofs.chain import mutants

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--grid", default="default", choices=("quick", "default", "fine"))
    p.add_argument("--budget", type=int, default=1500, help="search evaluations per variant (default 1500)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--only", nargs="*", help="run only these mutants")
    p.add_argument("--json", help="write the results to this file")
    args = p.parse_args(argv)
    chosen = [m for m in mutants.ALL if not args.only or m["name"] in args.only]
    expect = {m["name"]: m["expect"] for m in chosen}
    start = time.monotonic()
    results = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(_run, m["name"], args.grid, args.budget, args.seed) for m in chosen]
        for f in futures:
            r = f.result()
            results.append(r)
            ok = "ok" if r["verdict"] == expect[r["name"]] else "WRONG"
            print(f"{r['name']:<32} expect {expect[r['name']]:<8} got {r['verdict']:<8} "
                  f"grid {'refuted' if r['grid_refuted'] else 'passed ':<8} slack {r['slack']:.4g} "
                  f"({r['found_by']}, {r['seconds']:.1f} s)  {ok}", file=sys.stderr, flush=True)
    wall = time.monotonic() - start
    false = [r for r in results if expect[r["name"]] == "refuted"]
    true = [r for r in results if expect[r["name"]] == "holds"]
    by_grid = sum(r["grid_refuted"] for r in false)
    by_both = sum(r["verdict"] == "refuted" for r in false)
    alarms = [r["name"] for r in true if r["verdict"] == "refuted"]
    summary = {
        "grid": args.grid, "budget": args.budget, "seed": args.seed, "workers": args.workers,
        "false_variants": len(false), "refuted_by_grid": by_grid, "refuted_by_grid_and_search": by_both,
        "true_variants": len(true), "false_alarms": alarms, "wall_seconds": round(wall, 1),
        "max_variant_seconds": max((r["seconds"] for r in results), default=0.0),
        "results": results,
    }
    print(f"grid {args.grid}: false variants refuted by the grid alone {by_grid}/{len(false)}, "
          f"by grid + search {by_both}/{len(false)}; false alarms {len(alarms)}/{len(true)} {alarms}; "
          f"{wall:.0f} s with {args.workers} workers (slowest variant {summary['max_variant_seconds']:.1f} s)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=1, default=str)
    return 0 if by_both == len(false) and not alarms else 1


if __name__ == "__main__":
    sys.exit(main())
