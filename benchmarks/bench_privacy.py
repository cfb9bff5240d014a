"""Benchmark: time per certified ``privacy.tight_epsilon`` call.

Parameter sets: the three Figure-4 sets (Delta = 1, from the paper's published code) and
the paper's Lemma 3 parameters (alpha = lam = e^(-eps/4), theta = 4 Delta/eps, Delta = 1)
at eps = 20, 40, 60.  For each set and precision (default 12 digits) it runs
``tight_epsilon`` ``--repeat`` times and reports the best and mean wall-clock time per
call, the result, the maximiser ``t_star``, the number of engine evaluations of f_A, the
cells of the certified cover, the certified digits and the search end ``T``.

Usage::

    python benchmarks/bench_privacy.py [--digits 12] [--repeat 2] [--sets fig4-6 paper-20 ...] [--json out.json]

Sets run one after another in this process (the machine may be shared: timings are
wall-clock).  Progress goes to stderr, the table to stdout; ``--json`` also writes the rows
(``-`` for stdout instead of the table).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

SETS = {
    "fig4-6": ("fig4", 6),
    "fig4-7": ("fig4", 7),
    "fig4-8": ("fig4", 8),
    "paper-20": ("paper", 20),
    "paper-40": ("paper", 40),
    "paper-60": ("paper", 60),
}


def params(name, digits):
    from arete_proofs.distributions.params import paper_parameters
    from arete_proofs.privacy.tight import FIGURE_4

    kind, e = SETS[name]
    if kind == "fig4":
        return FIGURE_4[e]
    return paper_parameters(e, 1, digits=digits + 20)


def run(name, digits, repeat):
    from mpmath import mp

    from arete_proofs.privacy import tight as privacy

    a, th, lam = params(name, digits)
    times, r = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = privacy.tight_epsilon(a, th, lam, 1, digits=digits)
        times.append(time.perf_counter() - t0)
    return {
        "set": name,
        "digits": digits,
        "epsilon": mp.nstr(r.epsilon, digits),
        "t_star": mp.nstr(r.t_star, 6),
        "evaluations": r.evaluations,
        "cells": r.cells,
        "certified_digits": round(r.achieved_digits, 1),
        "T": mp.nstr(r.search_end, 4) if r.search_end is not None else None,
        "best_s": min(times),
        "mean_s": sum(times) / len(times),
    }


def table(rows):
    head = ("set", "digits", "tight epsilon", "t_star", "evals", "cells", "cert.digits", "T", "best s", "mean s")
    out = [head]
    for r in rows:
        out.append((r["set"], str(r["digits"]), r["epsilon"], r["t_star"], str(r["evaluations"]), str(r["cells"]),
                    str(r["certified_digits"]), str(r["T"]), f"{r['best_s']:.2f}", f"{r['mean_s']:.2f}"))
    w = [max(len(row[i]) for row in out) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w[i]) for i, c in enumerate(row)) for row in out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--digits", type=int, nargs="+", default=[12])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    ap.add_argument("--json", metavar="FILE", help="write the rows as JSON (- for stdout)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    rows = []
    for d in args.digits:
        for name in args.sets:
            print(f"{name} at {d} digits ...", file=sys.stderr, flush=True)
            rows.append(run(name, d, args.repeat))
    if args.json == "-":
        json.dump(rows, sys.stdout, indent=2)
        print()
        return 0
    print(table(rows))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
