"""Benchmark: throughput of :mod:`arete_proofs.mechanisms.sampling` against the raw numpy expressions.

Side by side in one run, on one Generator, interleaved (ours, raw, ours, raw, ...),
best of ``--repeat`` timings each:

* ``arete``          -- ``sampling.arete(a, th, l, N, rng)`` against
  ``rng.gamma(a, th, N) - rng.gamma(a, th, N) + rng.exponential(l, N) - rng.exponential(l, N)``;
* ``shares n=...``   -- ``sampling.shares(a, th, l, n, N // n, rng)`` (a ``(N/n, n)`` matrix) against
  ``rng.gamma(a/n, th, s) - rng.gamma(a/n, th, s) + rng.gamma(1/n, l, s) - rng.gamma(1/n, l, s)``;
* ``summed n=...``   -- the same with ``summed=True`` against the raw matrix's ``.sum(axis=1)``.

Throughput counts noise variates produced (one per Arete draw, one per share).
Parameters: Lemma 3 at eps = 10 and eps = 20 (Delta = 1); ``n = 100000`` at eps = 20
gives the tiny shape alpha/n = 6.7e-8, where ``sampling`` uses its log-space path.
Target: ``sampling`` at least half the raw throughput (ratio >= 0.5).

Usage::

    python benchmarks/bench_sampling.py [--size 2000000] [--repeat 5] [--seed 0] [--json [out.json]]

Timings are wall-clock on whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

from arete_proofs.mechanisms import sampling as S

SETS = {
    "paper eps=10": (math.exp(-2.5), 0.4, math.exp(-2.5)),  # Lemma 3, Delta = 1
    "paper eps=20": (math.exp(-5.0), 0.2, math.exp(-5.0)),
}
CASES = [  # (set, kind, n)
    ("paper eps=10", "arete", 1),
    ("paper eps=20", "arete", 1),
    ("paper eps=10", "shares", 10),
    ("paper eps=10", "shares", 1000),
    ("paper eps=10", "summed", 1000),
    ("paper eps=20", "shares", 100_000),
    ("paper eps=20", "summed", 100_000),
]


def _pair(kind, p, n, N, rng):
    a, th, lam = p
    if kind == "arete":
        def ours():
            return S.arete(a, th, lam, N, rng)

        def raw():
            return rng.gamma(a, th, N) - rng.gamma(a, th, N) + rng.exponential(lam, N) - rng.exponential(lam, N)

        return ours, raw, N
    rows = max(1, N // n)
    shape = (rows, n)
    summed = kind == "summed"

    def ours():
        return S.shares(a, th, lam, n, rows, rng, summed=summed)

    def raw():
        x = (rng.gamma(a / n, th, shape) - rng.gamma(a / n, th, shape)
             + rng.gamma(1 / n, lam, shape) - rng.gamma(1 / n, lam, shape))
        return x.sum(axis=1) if summed else x

    return ours, raw, rows * n


def run(size, repeat, seed):
    rng = np.random.default_rng(seed)
    out = []
    for name, kind, n in CASES:
        ours, raw, count = _pair(kind, SETS[name], n, size, rng)
        ours(), raw()  # warm up
        best = {"sampling": math.inf, "raw numpy": math.inf}
        for _ in range(repeat):
            for label, f in (("sampling", ours), ("raw numpy", raw)):
                t = time.perf_counter()
                f()
                best[label] = min(best[label], time.perf_counter() - t)
        row = {"set": name, "kind": kind, "n": n, "variates": count,
               "sampling_per_s": count / best["sampling"], "raw_per_s": count / best["raw numpy"]}
        row["ratio"] = row["sampling_per_s"] / row["raw_per_s"]
        out.append(row)
        print(f"  {name:13s} {kind:7s} n={n:<7d} done", file=sys.stderr)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=2_000_000, help="variates per timed call")
    ap.add_argument("--repeat", type=int, default=5, help="timings per method (best is kept)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", nargs="?", const="-", default=None, metavar="PATH",
                    help="write the results as JSON to PATH (stdout if no PATH)")
    args = ap.parse_args(argv)
    rows = run(args.size, args.repeat, args.seed)
    result = {"size": args.size, "repeat": args.repeat, "numpy": np.__version__, "target_ratio": 0.5,
              "rows": rows, "all_meet_target": all(r["ratio"] >= 0.5 for r in rows)}
    if args.json is not None:
        text = json.dumps(result, indent=2)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w") as fh:
                fh.write(text + "\n")
        return 0
    print(f"{'set':13s} {'kind':7s} {'n':>7s} {'sampling M/s':>13s} {'raw M/s':>9s} {'ratio':>6s}")
    for r in rows:
        print(f"{r['set']:13s} {r['kind']:7s} {r['n']:7d} {r['sampling_per_s'] / 1e6:13.1f} "
              f"{r['raw_per_s'] / 1e6:9.1f} {r['ratio']:6.2f}")
    print(f"target: ratio >= 0.5 everywhere: {'met' if result['all_meet_target'] else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
