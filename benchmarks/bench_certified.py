"""Benchmark: certified (ball-arithmetic) densities and the certified epsilon.

Part 1, densities: for each parameter set and number of digits (default 15 and 30), the
time per ``certified_density.pdf_ball`` call over t in {1e-8, 0.001, 0.1, 1, 5, 30}, the
largest relative radius of the balls, and the time per engine call (``arete.pdf``, one
point per call) at the same digits for comparison.

Part 2, epsilon: ``certified_epsilon.certify_epsilon`` (tol 1e-4) for the three Figure-4
sets and the paper's eps = 20 set: certified bound, gap to the numeric tight epsilon,
cells, density evaluations and wall-clock time (including the numeric tight epsilon).

Usage::

    python benchmarks/bench_certified.py [--digits 15 30] [--workers 1] [--skip-epsilon] [--json out.json]

Needs the extra ``certified`` (python-flint).  Progress to stderr, tables to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

POINTS = ["1e-8", "0.001", "0.1", "1", "5", "30"]


def sets():
    from arete_proofs.distributions.params import FIGURE_4, paper_parameters

    out = {f"fig4 eps={k}": FIGURE_4[k] for k in sorted(FIGURE_4)}
    a, th, la = paper_parameters(20, 1, digits=40)
    out["paper eps=20"] = (a, th, la)
    return out


def bench_density(digits_list):
    from mpmath import mp

    from arete_proofs.distributions import arete
    from arete_proofs.certified.density import pdf_ball

    rows = []
    for name, p in sets().items():
        for d in digits_list:
            print(f"density {name} digits={d}", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            balls = [pdf_ball(t, *p, digits=d) for t in POINTS]
            tb = (time.perf_counter() - t0) / len(POINTS)
            rel = max(float(b.rad() / b.mid()) for b in balls)
            t0 = time.perf_counter()
            with mp.workdps(d + 10):
                for t in POINTS:
                    arete.pdf(t, *p, digits=d)
            te = (time.perf_counter() - t0) / len(POINTS)
            rows.append({"set": name, "digits": d, "ball_s_per_pt": tb, "max_rel_radius": rel,
                         "engine_s_per_pt": te})
    return rows


def bench_epsilon(workers):
    from arete_proofs.certified.epsilon import certify_epsilon

    rows = []
    for name, p in sets().items():
        print(f"certify {name}", file=sys.stderr, flush=True)
        r = certify_epsilon(*p, 1, workers=workers)
        rows.append({"set": name, "upper": r.upper, "numeric": r.numeric, "gap": r.gap, "cells": r.cells,
                     "evaluations": r.evaluations, "seconds": r.seconds})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--digits", type=int, nargs="+", default=[15, 30])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--skip-epsilon", action="store_true")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    dens = bench_density(args.digits)
    print("| set | digits | ball s/pt | max rel. radius | engine s/pt |")
    print("|---|---|---|---|---|")
    for r in dens:
        print(f"| {r['set']} | {r['digits']} | {r['ball_s_per_pt']:.4f} | {r['max_rel_radius']:.1e} | "
              f"{r['engine_s_per_pt']:.4f} |")
    eps = [] if args.skip_epsilon else bench_epsilon(args.workers)
    if eps:
        print()
        print("| set | certified bound | numeric tight eps | gap | cells | evaluations | s |")
        print("|---|---|---|---|---|---|---|")
        for r in eps:
            print(f"| {r['set']} | {r['upper']:.12f} | {r['numeric']:.12f} | {r['gap']:.2e} | {r['cells']} | "
                  f"{r['evaluations']} | {r['seconds']:.1f} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"density": dens, "epsilon": eps}, fh, indent=2)


if __name__ == "__main__":
    main()
