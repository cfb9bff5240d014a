"""Benchmark: the ``scipy.stats`` distributions of :mod:`arete_proofs.stats` on 10^4 points.

For each distribution and parameter set, the best of ``--repeat`` wall-clock
timings of one call on ``--size`` points (default 10^4):

* ``pdf``, ``cdf`` -- at a sample of the distribution itself;
* ``ppf``          -- at uniform ``q`` in (0, 1) (a root-finder on the float64
  cdf for Arete and Gamma-Gamma, a closed form for the staircase);
* ``rvs``          -- ``size`` draws with a numpy Generator.

``scipy.stats.laplace`` (closed forms) is timed the same way as a yardstick.
Parameter sets: the paper's Lemma 3 at eps = 10 and 20 (Delta = 1), a generic
Arete with alpha > 1 and with small alpha, Gamma-Gamma with alpha < 1/2, and
the staircase at eps = 6 with the gamma that minimises E|X|.

Usage::

    python benchmarks/bench_stats.py [--size 10000] [--repeat 3] [--seed 0] [--json [out.json]]

Timings are wall-clock on whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
import scipy
from scipy import stats as sps

from arete_proofs.distributions import staircase as exact_staircase
from arete_proofs.stats import arete, gamma_gamma, staircase

CASES = [  # (label, distribution, shape parameters)
    ("arete paper eps=10", arete, (math.exp(-2.5), 0.4, math.exp(-2.5))),
    ("arete paper eps=20", arete, (math.exp(-5.0), 0.2, math.exp(-5.0))),
    ("arete (0.02, 1, 0.3)", arete, (0.02, 1.0, 0.3)),
    ("arete (2.5, 1, 0.4)", arete, (2.5, 1.0, 0.4)),
    ("gamma_gamma (0.3, 2)", gamma_gamma, (0.3, 2.0)),
    ("staircase eps=6", staircase, (float(exact_staircase.gamma_mean_abs(6)), 1.0, 6.0)),
    ("scipy laplace", sps.laplace, ()),
]
METHODS = ("pdf", "cdf", "ppf", "rvs")


def _best(f, repeat):
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def _calls(dist, args, x, q, size, rng):
    """The four timed calls of one case."""
    return {
        "pdf": lambda: dist.pdf(x, *args),
        "cdf": lambda: dist.cdf(x, *args),
        "ppf": lambda: dist.ppf(q, *args),
        "rvs": lambda: dist.rvs(*args, size=size, random_state=rng),
    }


def run(size, repeat, seed):
    rows = []
    for label, dist, args in CASES:
        rng = np.random.default_rng(seed)
        x = dist.rvs(*args, size=size, random_state=rng)
        q = rng.random(size)
        calls = _calls(dist, args, x, q, size, rng)
        row = {"case": label, "params": list(args)}
        for name in METHODS:
            row[f"{name}_s"] = _best(calls[name], repeat)
        rows.append(row)
        print(f"  {label:22s} done", file=sys.stderr)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=10_000, help="points per timed call")
    ap.add_argument("--repeat", type=int, default=3, help="timings per method (best is kept)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", nargs="?", const="-", default=None, metavar="PATH",
                    help="write the results as JSON to PATH (stdout if no PATH)")
    args = ap.parse_args(argv)
    rows = run(args.size, args.repeat, args.seed)
    result = {"size": args.size, "repeat": args.repeat, "numpy": np.__version__, "scipy": scipy.__version__,
              "rows": rows}
    if args.json is not None:
        text = json.dumps(result, indent=2)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w") as fh:
                fh.write(text + "\n")
        return 0
    print(f"seconds per call on {args.size} points (best of {args.repeat})")
    print(f"{'case':22s} " + " ".join(f"{m:>8s}" for m in METHODS))
    for r in rows:
        print(f"{r['case']:22s} " + " ".join(f"{r[f'{m}_s']:8.4f}" for m in METHODS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
