"""Benchmark: certified tight epsilon of ``lattice_gauss`` (issue 24), ``certified.combs_gauss``.

Times :func:`arete_proofs.certified.combs_gauss.certify_lattice_gauss` (tol 1e-6) at the optimum
``arete optimize --noise lattice_gauss --epsilon 8`` finds (a = 7.94923, m = 34, sigma = 0.012328,
h = 1/34, Delta = 1), then re-checks its certificate with
:func:`arete_proofs.certified.combs_gauss.check`, and (``--large``) a point with m = 80
(a = 7.97, sigma = 0.42 h, h = 1/80).  ``--top`` adds the eps = 8 optimum of ``lattice_gauss_top``
(the top scale at its own rate a_top, docs/data/frontier.json): its wider pole gap shortens the window;
``--top12`` the eps = 12 top-rate row (m = 242, about 1.5 minutes).  ``--sweep balls`` runs the covers' first
pass cell by cell in balls (the reference) instead of vectorised in float64 intervals, ``--sweep both`` runs
each set both ways (the certificates must be identical: the row says so).  ``--dips all`` refines every dip
cell (the mode before the lazy one, which is the default), ``--dips both`` runs each set both ways (the
enclosures should agree to well within ``tol``: the row gives the difference of the upper ends).
Reports the enclosure, its width, cells, wall-clock and CPU seconds.

Usage::

    python benchmarks/bench_certified_lattice_gauss.py [--tol 1e-6] [--large] [--top] [--top12]
                                                       [--sweep floats|balls|both] [--dips lazy|all|both]
                                                       [--json out.json]

Needs the extra ``certified`` (python-flint).  Progress to stderr, the table to stdout; wall-clock
on a shared 2-core machine (CPU seconds are the steadier figure).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

SETS = {
    "eps=8 optimum (m=34)": ("7.94923", 34, "0.012328", "1/34"),
}
LARGE = {
    "m=80 (a=7.97, sigma=0.42h)": ("7.97", 80, "0.00525", "1/80"),
}
#: (a, m, sigma, h, a_top): lattice_gauss_top's eps = 8 optimum (docs/data/frontier.json; sigma rounded up)
TOP = {
    "eps=8 top-rate optimum (m=40)": ("8.27219", 40, "0.013137", "1/40", "7.95412"),
}
#: the eps = 12 top-rate row of docs/data/frontier.json (its certificate's exact parameters)
TOP12 = {
    "eps=12 top-rate row (m=242)": ("1214484734313537/100000000000000", 242, "19519478329960217/10000000000000000000",
                                    "2066115702479339/500000000000000000", "11947346282091257/1000000000000000"),
}


def _run(name, p, tol, check_it, sweep="floats", dips="lazy"):
    from arete_proofs.certified import combs_gauss
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss, check

    combs_gauss._VECTORISED_SWEEP = sweep == "floats"
    name = f"{name}, {sweep}, dips {dips}"

    def say(s):
        print(f"  {name}: {s}", file=sys.stderr, flush=True)

    w0, c0 = time.perf_counter(), time.process_time()
    r = certify_lattice_gauss(*p[:4], 1, tol=tol, progress=say, a_top=p[4] if len(p) > 4 else None,
                              dips=dips)
    row = {"set": name, "lower": r.lower, "upper": r.upper, "width": r.upper - r.lower, "cells": r.cells,
           "n0": r.n0, "wall_s": time.perf_counter() - w0, "cpu_s": time.process_time() - c0}
    if check_it:
        w0, c0 = time.perf_counter(), time.process_time()
        ok = check(r.to_json()).ok
        row.update(check_ok=ok, check_wall_s=time.perf_counter() - w0, check_cpu_s=time.process_time() - c0)
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tol", default="1e-6")
    ap.add_argument("--large", action="store_true", help="also the m = 80 point (a few minutes)")
    ap.add_argument("--top", action="store_true", help="also the lattice_gauss_top point (seconds)")
    ap.add_argument("--top12", action="store_true", help="also the eps = 12 top-rate row (m = 242, minutes)")
    ap.add_argument("--sweep", choices=("floats", "balls", "both"), default="floats",
                    help="the covers' first pass: vectorised (default), in balls, or both (compared)")
    ap.add_argument("--dips", choices=("lazy", "all", "both"), default="lazy",
                    help="dip cells refined lazily (default), all of them, or both (compared)")
    ap.add_argument("--json", help="write the rows to this file")
    args = ap.parse_args(argv)
    sets = dict(SETS, **(LARGE if args.large else {}), **(TOP if args.top else {}), **(TOP12 if args.top12 else {}))
    sweeps = ("balls", "floats") if args.sweep == "both" else (args.sweep,)
    rows = []
    for name, p in sets.items():
        if args.dips == "both":
            runs = [_run(name, p, args.tol, name in SETS, sweeps[-1], dp) for dp in ("all", "lazy")]
            runs[1]["set"] += f" (upper ends differ by {runs[1]['upper'] - runs[0]['upper']:.1e})"
            rows += runs
            continue
        runs = [_run(name, p, args.tol, name in SETS, sw, args.dips) for sw in sweeps]
        if len(runs) == 2:
            same = all(runs[0][k] == runs[1][k] for k in ("lower", "upper", "cells"))
            runs[1]["set"] += " (same certificate)" if same else " (CERTIFICATES DIFFER)"
        rows += runs
    print("| set | certified [lower, upper] | width | cells | n0 | wall s | CPU s | check (wall / CPU s) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        chk = (f"{'ok' if r['check_ok'] else 'REFUSED'} ({r['check_wall_s']:.1f} / {r['check_cpu_s']:.1f})"
               if "check_ok" in r else "-")
        print(f"| {r['set']} | [{r['lower']:.12f}, {r['upper']:.12f}] | {r['width']:.2e} | {r['cells']} | "
              f"{r['n0']} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | {chk} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
