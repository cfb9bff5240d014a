"""Benchmark: the certified floors of infinitely divisible noise (docs/explanation/id-lower-bounds.md, Theorems C, E and F).

Times :func:`arete_proofs.privacy.id_variance.variance_bound` (Theorem E: float64 search of its three parameters,
then the ``arb`` check), :func:`arete_proofs.privacy.id_bounds.id_lower_bound` (Theorem C: branch and bound) and
:func:`arete_proofs.privacy.id_mean_abs.mean_abs_bound` (Theorem F: float64 search, then branch and bound over the
big jumps' rate in ``arb``) at a few eps, and the range claims quoted in the docs: ``variance_gap_interval(14, 20)``
+ ``variance_gap_interval(20)`` (Var, every eps >= 14) and ``mean_abs_gap_from(14)`` (E|Z|, every eps >= 14).

Usage::

    python benchmarks/bench_id_floors.py [--eps 8 14 20 40] [--interval]
"""

from __future__ import annotations

import argparse
import time


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--eps", type=float, nargs="+", default=[8, 14, 20, 40])
    ap.add_argument("--interval", action="store_true", help="also time the range claim for every eps >= 14")
    args = ap.parse_args(argv)
    from arete_proofs.privacy import id_bounds, id_mean_abs, id_variance

    print(f"{'eps':>6} {'Var ratio':>10} {'E s':>6} {'E|Z| ratio':>11} {'C s':>6} {'sym E|Z|':>9} {'F s':>6}")
    for e in args.eps:
        t0 = time.perf_counter()
        v = id_variance.variance_bound(e)
        t1 = time.perf_counter()
        c = id_bounds.id_lower_bound(e, digits=12)
        t2 = time.perf_counter()
        f = id_mean_abs.mean_abs_bound(e)
        t3 = time.perf_counter()
        print(f"{e:6g} {v['ratio']:10.5f} {t1 - t0:6.2f} {float(c['ratio']):11.5f} {t2 - t1:6.2f} "
              f"{f['ratio']:9.5f} {t3 - t2:6.2f}")
    if args.interval:
        t0 = time.perf_counter()
        r1, _ = id_variance.variance_gap_interval(14, 20, step="0.25")
        r2, _ = id_variance.variance_gap_interval(20, step="2")
        print(f"every eps >= 14: Var ratio >= {min(r1, r2):.5f}  ({time.perf_counter() - t0:.1f} s)")
        t0 = time.perf_counter()
        r3, _ = id_mean_abs.mean_abs_gap_from(14)
        print(f"every eps >= 14: symmetric E|Z| ratio >= {r3:.5f}  ({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
