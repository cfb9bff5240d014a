"""Benchmark: Arete density engine against the naive and the 1F1-autocorrelation methods.

For each parameter set (the paper's Figure-4 sets and its eps = 20 set) and
each precision (15, 30, 50 digits) it times, over the points
t in {0, 1e-6, 0.01, 0.3, 1, 2.5, 10}:

* ``engine-batch``  -- ``arete.pdf(list_of_points, ..., digits=d)``: one call
  for all points (the common case: grids, plots, sup searches), per point;
* ``engine-single`` -- one ``arete.pdf`` call per point;
* ``(a) naive``     -- ``reference.naive_pdf``: ``mp.quad`` of Definition 9;
* ``(b) 1F1``       -- ``reference.autocorrelation_pdf``: careful quadrature of
  the Gamma+Exponential autocorrelation form (self-validated at two precisions).

and reports, per method, the mean time per point and the *fewest* correct
significant digits over the points, measured against the engine at d + 20
digits (which the test suite checks against the independent methods).  The
targets of the issue: at 30 digits, engine-batch at least 50x and
engine-single at least 5x cheaper per point than (b), with no fewer correct
digits.

Usage::

    python benchmarks/bench_density.py [--digits 15 30 50] [--jobs 2] [--json out.json]

Each (set, digits) cell runs in its own process (``--jobs`` of them at once);
timings are wall-clock on whatever else the machine is doing, so run it on an
idle machine.  Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

SETS = {
    # Figure 4 parameters from the paper's published code (statement map), Delta = 1
    "fig4 eps=6": ("0.07559007048913552", "0.6295929433519876", "0.05453349704921005"),
    "fig4 eps=7": ("0.03438865645893487", "0.7753538691868341", "0.03916449536622209"),
    "fig4 eps=8": ("0.01922231819807612", "0.8312962061581013", "0.02547890283133737"),
    "paper eps=20": ("exp(-5)", "0.2", "exp(-5)"),  # Lemma 3 with Delta = 1
}
POINTS = ["0", "1e-6", "0.01", "0.3", "1", "2.5", "10"]


def _param(text, d):
    from mpmath import mp

    with mp.workdps(d + 40):
        return mp.exp(-5) if text == "exp(-5)" else mp.mpf(text)


def _digits_correct(x, truth, cap):
    from mpmath import mp

    if x is None:
        return None
    if truth == 0:
        return cap
    with mp.workdps(80):
        err = abs(mp.mpf(x) - truth) / abs(truth)
    if err == 0:
        return cap
    return max(0.0, min(cap, -float(mp.log10(err))))


def run_cell(name, d):
    """Time all methods for one parameter set and precision (runs in a worker)."""
    from mpmath import mp

    from arete_proofs.distributions import arete

    from arete_proofs import reference

    a_s, th_s, lam_s = SETS[name]
    alpha, theta, lam = (_param(s, d) for s in (a_s, th_s, lam_s))
    truth = arete.pdf(POINTS, alpha, theta, lam, digits=d + 20)
    cap = d + 10
    out = {"set": name, "digits": d, "methods": {}}

    def record(method, seconds, values, errors=0):
        digs = [_digits_correct(v, t, cap) for v, t in zip(values, truth)]
        valid = [x for x in digs if x is not None]
        out["methods"][method] = {
            "sec_per_point": seconds / len(POINTS),
            "min_digits": min(valid) if valid else None,
            "digits": digs,
            "errors": errors,
        }

    t0 = time.perf_counter()
    vals = arete.pdf(POINTS, alpha, theta, lam, digits=d)
    record("engine-batch", time.perf_counter() - t0, vals)

    t0 = time.perf_counter()
    vals = [arete.pdf(t, alpha, theta, lam, digits=d) for t in POINTS]
    record("engine-single", time.perf_counter() - t0, vals)

    for method, fn in (("(a) naive", reference.naive_pdf), ("(b) 1F1", reference.autocorrelation_pdf)):
        vals, errors = [], 0
        t0 = time.perf_counter()
        for t in POINTS:
            try:
                vals.append(fn(t, alpha, theta, lam, digits=d))
            except Exception:  # a method that gives up counts as 0 correct digits
                vals.append(None)
                errors += 1
        record(method, time.perf_counter() - t0, vals, errors)
    del mp
    return out


def format_table(cells):
    lines = [
        "| set | digits | engine batch s/pt | engine single s/pt | (a) naive s/pt | (b) 1F1 s/pt "
        "| (b)/batch | (b)/single | min correct digits: batch / single / (a) / (b) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cells:
        m = c["methods"]
        b = m["(b) 1F1"]["sec_per_point"]

        def dg(k):
            v = m[k]["min_digits"]
            s = "-" if v is None else f"{v:.1f}"
            return s + (f" ({m[k]['errors']} failed)" if m[k]["errors"] else "")

        lines.append(
            f"| {c['set']} | {c['digits']} | {m['engine-batch']['sec_per_point']:.4f} "
            f"| {m['engine-single']['sec_per_point']:.4f} | {m['(a) naive']['sec_per_point']:.3f} "
            f"| {b:.3f} | {b / m['engine-batch']['sec_per_point']:.0f}x "
            f"| {b / m['engine-single']['sec_per_point']:.0f}x "
            f"| {dg('engine-batch')} / {dg('engine-single')} / {dg('(a) naive')} / {dg('(b) 1F1')} |"
        )
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--digits", type=int, nargs="+", default=[15, 30, 50])
    p.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS), metavar="SET")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--json", help="also write the raw results to this file")
    args = p.parse_args(argv)

    cells = [(s, d) for d in args.digits for s in args.sets]
    results = []
    t_start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futs = {pool.submit(run_cell, s, d): (s, d) for s, d in cells}
        for i, fut in enumerate(as_completed(futs), 1):
            s, d = futs[fut]
            results.append(fut.result())
            print(
                f"[{i}/{len(cells)}] {s}, {d} digits done ({time.perf_counter() - t_start:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    order = {c: i for i, c in enumerate(cells)}
    results.sort(key=lambda c: order[(c["set"], c["digits"])])
    print(format_table(results))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1, default=lambda x: None if isinstance(x, float) and math.isnan(x) else x)


if __name__ == "__main__":
    main()
