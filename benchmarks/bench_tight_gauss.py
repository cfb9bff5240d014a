"""Benchmark: certified tight epsilon with a Gaussian part (issue 17) and the eps = 8 optimisation.

Usage::

    python benchmarks/bench_tight_gauss.py [--digits 12] [--workers 2] [--no-optimize]

Times ``tight_gauss.tight_epsilon`` at issue 17's eps = 8 set (alpha 0.014727, theta 0.85419,
lam 0, sigma 0.027054, Delta = 1) and ``optimize_gauss.optimize(8, family="gauss")``.
Progress on stderr, results on stdout; wall-clock on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--digits", type=int, default=12)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--no-optimize", action="store_true")
    args = ap.parse_args(argv)
    from mpmath import mp

    from arete_proofs.privacy import optimize_gauss, tight_gauss

    print("tight epsilon at issue 17's eps = 8 set ...", file=sys.stderr)
    t0 = time.perf_counter()
    r = tight_gauss.tight_epsilon("0.014727", "0.85419", 0, "0.027054", digits=args.digits, workers=args.workers)
    print(f"tight eps digits={args.digits} workers={args.workers}: {time.perf_counter() - t0:.1f} s  "
          f"eps = {mp.nstr(r.epsilon, args.digits + 2)} in [{mp.nstr(r.lower_bound, args.digits + 2)}, "
          f"{mp.nstr(r.upper_bound, args.digits + 2)}] t* = {mp.nstr(r.t_star, 8)} cells {r.cells} "
          f"engine points {r.evaluations} T = {mp.nstr(r.search_end, 6)} tail bound {mp.nstr(r.tail_bound, 6)}")
    if not args.no_optimize:
        print("optimize eps = 8, family gauss ...", file=sys.stderr)
        t0 = time.perf_counter()
        o = optimize_gauss.optimize(8, family="gauss", digits=args.digits, workers=args.workers)
        print(f"optimize eps=8 gauss: {time.perf_counter() - t0:.1f} s  alpha {o.alpha:.6g} theta {o.theta:.6g} "
              f"sigma {o.sigma:.6g}  E|Z| = {mp.nstr(o.mean_abs, 12)}  tight eps = {mp.nstr(o.epsilon, 14)} "
              f"(certified <= {mp.nstr(o.epsilon_upper, 14)})")


if __name__ == "__main__":
    main()
