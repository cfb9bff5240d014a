"""Benchmark: re-check every certificate of the frontier tables (issue 24's "re-checks in under 60 s").

Re-proves each lattice row's certified tight epsilon in ``docs/data/frontier.json`` and
``docs/data/frontier-variance.json`` from the recorded parameters and choices with
:func:`arete_proofs.walkthrough.frontier.recheck_rows` (:func:`arete_proofs.certified.combs_gauss.check`, the same
call as the slow CI test ``tests/test_frontier.py::test_every_certificate_rechecks``), one certificate per process,
and prints
per row the recorded proof time (``certificate_seconds``: wall-clock when the row was made, usually on a
loaded machine), the re-check's wall-clock and CPU seconds and whether it passed; then how many
re-check in under ``--limit`` seconds (default 60).

Usage::

    python benchmarks/bench_frontier_recheck.py [--workers 2] [--limit 60] [--min-seconds 0]
                                                [--objective mean_abs|variance|both] [--json out.json]

``--min-seconds S`` re-checks only rows whose recorded proof took at least S seconds (the slow ones).
Needs the extra ``certified`` (python-flint).  Progress to stderr, the table to stdout.  With
``--workers 2`` on a 2-core machine each re-check has a core to itself; its wall-clock is the figure
compared with ``--limit``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--min-seconds", type=float, default=0.0)
    ap.add_argument("--objective", choices=("mean_abs", "variance", "both"), default="both")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    from arete_proofs.walkthrough import frontier

    files = {"mean_abs": frontier.DATA, "variance": frontier.VARIANCE}
    objs = ("mean_abs", "variance") if args.objective == "both" else (args.objective,)
    t0 = time.perf_counter()
    out = frontier.recheck_rows([files[o] for o in objs], min_seconds=args.min_seconds, workers=args.workers)
    print("| objective | eps | part | m | recorded proof s | re-check wall s | re-check CPU s | ok |")
    print("|---|---|---|---|---|---|---|---|")
    for d in out:
        print(f"| {d['objective']} | {d['eps']:g} | {d['part']} | {d['m']} | {d['recorded_seconds']:.0f} | "
              f"{d['wall']:.1f} | {d['cpu']:.1f} | {'yes' if d['ok'] else 'NO'} |")
    under = sum(d["wall"] < args.limit for d in out)
    print(f"\n{under} of {len(out)} re-check in under {args.limit:g} s; all passed: {all(d['ok'] for d in out)}; "
          f"slowest {max((d['wall'] for d in out), default=0):.1f} s; total {time.perf_counter() - t0:.0f} s "
          f"on {args.workers} worker(s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0 if all(d["ok"] for d in out) else 1


if __name__ == "__main__":
    sys.exit(main())
