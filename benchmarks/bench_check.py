"""Benchmark: re-check every shipped certificate with the independent checker (``arete check docs/data``).

Runs the checker on every certificate under ``docs/data`` (or the given paths), one certificate per process, and
prints a Markdown table per kind (how many, total and slowest seconds) and the slowest certificates, then the
summary: how many are checked, the total wall-clock and whether each is under ``--limit`` seconds (default 60).

Usage::

    python benchmarks/bench_check.py [PATH ...] [--workers 2] [--limit 60] [--json out.json]

Needs the extra ``certified`` (python-flint).  With ``--workers 2`` on a 2-core machine each certificate has a
core to itself; its wall-clock is the figure compared with ``--limit``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "docs" / "data"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(DATA)])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    from arete_proofs.check._files import jobs, run

    t0 = time.perf_counter()
    js, skipped = jobs(args.paths)
    out = run(js, workers=args.workers)
    wall = time.perf_counter() - t0
    kinds = defaultdict(list)
    for r in out:
        kinds[r["kind"]].append(r)
    print("| kind | certificates | checked | total s | slowest s |")
    print("|---|---|---|---|---|")
    for k, rs in sorted(kinds.items(), key=lambda kv: str(kv[0])):
        print(f"| {k} | {len(rs)} | {sum(r['verdict'] == 'checked' for r in rs)} | "
              f"{sum(r['seconds'] for r in rs):.1f} | {max(r['seconds'] for r in rs):.1f} |")
    print("\n| slowest certificates | kind | seconds |\n|---|---|---|")
    for r in sorted(out, key=lambda r: -r["seconds"])[:8]:
        print(f"| {r['id']} | {r['kind']} | {r['seconds']:.1f} |")
    ok = all(r["verdict"] == "checked" for r in out)
    under = sum(r["seconds"] < args.limit for r in out)
    print(f"\n{sum(r['verdict'] == 'checked' for r in out)} of {len(out)} certificates checked; {under} under "
          f"{args.limit:g} s; {wall:.0f} s wall-clock on {args.workers} worker(s); {len(skipped)} files skipped")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": out, "wall": wall}, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
