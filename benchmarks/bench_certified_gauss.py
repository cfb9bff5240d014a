"""Benchmark: certified (ball-arithmetic) density and tight-epsilon bound with a Gaussian part (issue 17).

Part 1, densities: time per ``certified.gauss.CertifiedGaussDensity.pdf`` call (64 and 48 bits)
over t in {0, 1e-6, t* = 0.0016, 0.3, 1.0016} and the largest relative radius, beside the time per
engine call (``arete_gauss.pdf`` at 15 digits).

Part 2, epsilon: ``certified.gauss.certify_epsilon_gauss`` (tol 1e-4) at issue 17's eps = 8
optimum (alpha 0.014727, theta 0.85419, lam 0, sigma 0.027054; tight epsilon 7.99994740210436 by
``tight_gauss.tight_epsilon(..., digits=10)``, 56 s) and at two moderate sets: certified bound,
certified lower bound, cells, density evaluations and wall-clock time (without the numeric
comparison unless ``--numeric``).

Usage::

    python benchmarks/bench_certified_gauss.py [--tol 1e-4] [--numeric] [--skip-density] [--json out.json]

Needs the extra ``certified`` (python-flint).  Progress to stderr, tables to stdout; wall-clock on a
shared 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

POINTS = ["0", "1e-6", "0.0016", "0.3", "1.0016"]
SETS = {
    "issue 17 eps=8": ("0.014727", "0.85419", 0, "0.027054"),
    "(0.25, 0.5, 0, 0.1)": ("0.25", "0.5", 0, "0.1"),
    "(0.3, 1, 0.2, 0.1)": ("0.3", 1, "0.2", "0.1"),
}


def bench_density():
    from mpmath import mp

    from arete_proofs.certified.gauss import CertifiedGaussDensity
    from arete_proofs.distributions import arete_gauss

    rows = []
    for name, p in SETS.items():
        for prec in (64, 48):
            print(f"density {name} prec={prec}", file=sys.stderr, flush=True)
            D = CertifiedGaussDensity(*p, prec=prec)
            t0 = time.perf_counter()
            balls = [D.pdf(t) for t in POINTS]
            tb = (time.perf_counter() - t0) / len(POINTS)
            rel = max(float(b.rad() / b.mid()) for b in balls)
            t0 = time.perf_counter()
            with mp.workdps(25):
                for t in POINTS:
                    arete_gauss.pdf(t, *p, digits=15)
            te = (time.perf_counter() - t0) / len(POINTS)
            rows.append({"set": name, "prec": prec, "ball_s_per_pt": tb, "max_rel_radius": rel,
                         "engine_s_per_pt": te})
    return rows


def bench_epsilon(tol, numeric):
    from arete_proofs.certified.gauss import certify_epsilon_gauss

    rows = []
    for name, p in SETS.items():
        print(f"certify {name} tol={tol}", file=sys.stderr, flush=True)
        r = certify_epsilon_gauss(*p, tol=tol, numeric=numeric)
        rows.append({"set": name, "upper": r.upper, "lower": r.lower, "numeric": r.numeric, "cells": r.cells,
                     "evaluations": r.evaluations, "seconds": r.seconds})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tol", default="1e-4")
    ap.add_argument("--numeric", action="store_true", help="also run tight_gauss (minutes) for the gap")
    ap.add_argument("--skip-density", action="store_true")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    dens = [] if args.skip_density else bench_density()
    if dens:
        print("| set | bits | ball s/pt | max rel. radius | engine s/pt (15 digits) |")
        print("|---|---|---|---|---|")
        for r in dens:
            print(f"| {r['set']} | {r['prec']} | {r['ball_s_per_pt']:.3f} | {r['max_rel_radius']:.1e} | "
                  f"{r['engine_s_per_pt']:.3f} |")
        print()
    eps = bench_epsilon(args.tol, args.numeric)
    print("| set | certified bound | certified lower | numeric | cells | evaluations | s |")
    print("|---|---|---|---|---|---|---|")
    for r in eps:
        num = "-" if r["numeric"] is None else f"{r['numeric']:.12f}"
        print(f"| {r['set']} | {r['upper']:.12f} | {r['lower']:.12f} | {num} | {r['cells']} | "
              f"{r['evaluations']} | {r['seconds']:.1f} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"density": dens, "epsilon": eps}, fh, indent=2)


if __name__ == "__main__":
    main()
