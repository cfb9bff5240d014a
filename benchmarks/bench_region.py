"""Benchmark: the certified privacy region of Lemma 3's parameters (``arete certify-region``).

Runs :func:`arete_proofs.certified.region_map.certify_region` on one box with 1 worker, with 2
local worker processes and (``--dask``) on a 2-worker Dask LocalCluster, then
``check_certificate`` of the result; prints cells, wall-clock time and the area fractions
(in eps x ln Delta) private / not private / undecided.

Usage::

    python benchmarks/bench_region.py [--eps 4 12] [--sensitivity 10 100] [--min-width 1/64]
                                      [--max-gap 0.1] [--runs 1 2 dask] [--json out.json]

The issue's scale target is the full box: ``--eps 0.5 60 --sensitivity 0.1 10000``.

Needs the extra ``certified`` (python-flint); ``dask`` needs the extra ``dask``.
Progress to stderr, a table to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eps", nargs=2, default=["4", "12"])
    ap.add_argument("--sensitivity", nargs=2, default=["10", "100"])
    ap.add_argument("--min-width", default="1/64")
    ap.add_argument("--max-gap", default="0.1")
    ap.add_argument("--runs", nargs="+", default=["1", "2", "dask"], help="worker counts, or 'dask'")
    ap.add_argument("--no-check", action="store_true", help="skip check_certificate of each result")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)

    from arete_proofs.certified.region_map import certify_region, check_certificate

    rows = []
    for run in args.runs:
        print(f"bench_region: run {run} on eps {args.eps} x Delta {args.sensitivity}", file=sys.stderr)
        t0 = time.perf_counter()
        if run == "dask":
            from dask.distributed import Client, LocalCluster

            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, Client(cluster) as client:
                doc = certify_region(args.eps, args.sensitivity, min_width=args.min_width, max_gap=args.max_gap,
                                     dask=client,
                                     progress=True)
        else:
            doc = certify_region(args.eps, args.sensitivity, min_width=args.min_width, max_gap=args.max_gap,
                                 workers=int(run),
                                 progress=True)
        made = time.perf_counter() - t0
        t1 = time.perf_counter()
        rep = None if args.no_check else check_certificate(doc, workers=2, progress=True)
        s = doc["summary"]
        rows.append({"run": run, "cells": s["cells"], "seconds": round(made, 1), "fraction": s["fraction"],
                     "check_seconds_2_workers": None if rep is None else round(time.perf_counter() - t1, 1),
                     "check_ok": None if rep is None else rep.ok})
    print("| run | cells | time (s) | private | not private | undecided | --check, 2 workers (s) | check |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        f = r["fraction"]
        print(f"| {r['run']} | {r['cells']} | {r['seconds']} | {100 * f['private']:.2f}% | "
              f"{100 * f['not private']:.2f}% | {100 * f['undecided']:.2f}% | {r['check_seconds_2_workers'] or '-'} | "
              f"{'-' if r['check_ok'] is None else 'ok' if r['check_ok'] else 'FAILED'} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"box": {"eps": args.eps, "sensitivity": args.sensitivity, "min_width": args.min_width,
                               "max_gap": args.max_gap},
                       "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
