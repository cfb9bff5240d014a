"""Benchmark: throughput of the exact samplers (arete_proofs.mechanisms.exact) against OpenDP and numpy.

Side by side in one run, one core, best of ``--repeat`` timings each (draws per second):

* ``exact GDL shares``      -- ``exact.gdl_shares(beta, a, n, N)``: N shares GDL(beta/n, a), exact, bits from
  ``secrets.SystemRandom`` (and from a seeded ``random.Random``);
* ``numpy float NB``        -- the float64 path for the same share law:
  ``g.negative_binomial(beta/n, p, N) - g.negative_binomial(beta/n, p, N)`` (not exact; for comparison);
* ``exact DLap``            -- ``exact.gdl(1, a, N)``;
* ``OpenDP DLap (vector)``  -- OpenDP's exact discrete Laplace for the same law, called from Python on a
  vector of zeros (``make_laplace`` on ``vector_domain(atom_domain(T=int))``, scale 1/a; at most 200000): one call,
  the Rust sampler per coordinate; ``OpenDP DLap (scalar)`` -- one call per draw (``atom_domain``, 10000 calls), as a
  per-value release does (only when the ``opendp`` package is installed);
* ``arete aggregate``       -- the command for 1000 parties and 100 rounds, as a subprocess (start-up
  included): ``--noise gdl --epsilon 8 --parties 1000 --dropout 0.1 --modulus 2**32 --rounds 100``.

Goals: at least 10^6 exact GDL share draws per second; the exact DLap faster per draw than OpenDP's
from Python; ``arete aggregate`` for 1000 parties and 100 rounds in under 30 s.

Usage::

    python benchmarks/bench_exact_samplers.py [--size 2000000] [--repeat 3] [--json [out.json]]

Timings are wall-clock on whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import secrets
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np

from arete_proofs.mechanisms import exact

#: (label, beta, a, n): share laws GDL(beta/n, a)
SHARES = [
    ("eps 8, Delta 1: GDL(1/900, 8)", Fraction(1), Fraction(8), 900),
    ("eps 8, Delta 10: GDL(0.0097/900, 0.11)", Fraction("0.0096990456257659827029"),
     Fraction("0.11019035836441651991"), 900),
    ("DLap(0.5) in 1000 shares", Fraction(1), Fraction(1, 2), 1000),
]
DLAP = [Fraction(1, 2), Fraction(8)]


def _best(fn, repeat):
    fn()                                            # warm-up: tables, imports
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _opendp():
    try:
        import opendp.prelude as dp
    except ImportError:
        return None
    dp.enable_features("contrib")
    return dp


def run(size, repeat):
    rows = []
    g = np.random.default_rng(0)
    for label, beta, a, n in SHARES:
        for src_name, rng in (("SystemRandom", secrets.SystemRandom()), ("random.Random", random.Random(1))):
            t = _best(lambda: exact.gdl_shares(beta, a, n, size, rng), repeat)
            rows.append({"case": f"exact GDL shares, {label}", "bits": src_name, "draws_per_second": size / t})
        p = -math.expm1(-float(a))
        r = float(beta) / n
        t = _best(lambda: g.negative_binomial(r, p, size) - g.negative_binomial(r, p, size), repeat)
        rows.append({"case": f"numpy float NB, {label}", "bits": "numpy PCG64", "draws_per_second": size / t})
    dp = _opendp()
    for a in DLAP:
        t = _best(lambda: exact.gdl(1, a, size, secrets.SystemRandom()), repeat)
        rows.append({"case": f"exact DLap({a})", "bits": "SystemRandom", "draws_per_second": size / t})
        if dp is not None:
            scale = 1 / float(a)
            vec = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=scale)
            v = min(size, 200_000)                  # OpenDP draws a few 10^4 per second: keep the run short
            zeros = [0] * v
            t = _best(lambda: vec(zeros), repeat)
            rows.append({"case": f"OpenDP DLap({a}) (vector)", "bits": "OpenDP (OS)", "draws_per_second": v / t})
            one = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=scale)
            m = min(size, 10_000)
            t = _best(lambda: [one(0) for _ in range(m)], repeat)
            rows.append({"case": f"OpenDP DLap({a}) (scalar)", "bits": "OpenDP (OS)", "draws_per_second": m / t})
    cmd = [sys.executable, "-m", "arete_proofs", "aggregate", "--noise", "gdl", "--epsilon", "8", "--parties",
           "1000", "--dropout", "0.1", "--modulus", "2**32", "--rounds", "100", "--json"]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=os.environ.copy())
    wall = time.perf_counter() - t0
    doc = json.loads(out.stdout)
    agg = {"command": " ".join(["arete"] + cmd[3:-1]), "seconds": wall,
           "draws_per_second": doc["draws_per_second"], "epsilon_guaranteed": doc["epsilon_guaranteed"]}
    return {"size": size, "repeat": repeat, "rows": rows, "aggregate": agg, "opendp": dp is not None}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=2_000_000, help="draws per timing (default 2000000)")
    ap.add_argument("--repeat", type=int, default=3, help="timings per case, the best is kept (default 3)")
    ap.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                    help="write the results as JSON (to FILE, or stdout)")
    args = ap.parse_args(argv)
    res = run(args.size, args.repeat)
    if args.json == "-":
        print(json.dumps(res, indent=2))
        return 0
    print(f"| case | bits | draws per second |\n|---|---|---|")
    for r in res["rows"]:
        print(f"| {r['case']} | {r['bits']} | {r['draws_per_second']:.3g} |")
    a = res["aggregate"]
    print(f"\n`{a['command']}`: {a['seconds']:.2f} s wall (start-up included), "
          f"{a['draws_per_second']:.3g} exact share draws per second inside, eps guaranteed {a['epsilon_guaranteed']}")
    if not res["opendp"]:
        print("(opendp is not installed: no OpenDP rows)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(res, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
