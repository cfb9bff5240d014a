"""Benchmark: exact tight epsilon (closed form and arb certificate), hockey-stick delta and PLD of GDL.

Parameter sets: Theorem 15's (beta = Delta e^(2 - eps), a = 2/Delta) at Delta in {1, 10, 100, 1000}
and eps = 2 + ln Delta + 1, and (beta, a, Delta) = (0.5, 0.7, 3), (2, 1, 10).  Issue 23's target:
a discrete set (Delta <= 1000) in under 10 s.

Usage::

    python benchmarks/bench_gdl.py [--digits 12] [--accounting]
"""

from __future__ import annotations

import argparse
import math
import time


def sets():
    out = []
    for D in (1, 10, 100, 1000):
        eps = 2 + math.log(D) + 1
        out.append((f"thm15-D{D}", repr(D * math.exp(2 - eps)), repr(2 / D), D, eps))
    out += [("b0.5-a0.7-D3", "0.5", "0.7", 3, 2.0), ("b2-a1-D10", "2", "1", 10, 5.0)]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--digits", type=int, default=12)
    ap.add_argument("--accounting", action="store_true", help="also time delta(eps/2) and a PLD (h = 1e-3)")
    args = ap.parse_args(argv)
    from mpmath import mp

    from arete_proofs.noise import make
    from arete_proofs.privacy import accounting_discrete as ad, tight_gdl

    print(f"{'set':16} {'eps*':>20} {'tight s':>8} {'certify s':>9} {'delta s':>8} {'pld s':>7}")
    for name, b, a, D, eps in sets():
        t0 = time.perf_counter()
        r = tight_gdl.tight_epsilon(b, a, D, digits=args.digits)
        t1 = time.perf_counter()
        tight_gdl.certify(b, a, D)
        t2 = time.perf_counter()
        dt = pt = float("nan")
        if args.accounting:
            z = make("gdl", beta=b, a=a)
            ad.hockey_stick(z, D, float(r.epsilon) / 2, digits=args.digits)
            t3 = time.perf_counter()
            ad.noise_pld(z, D, value_discretization_interval=1e-3)
            dt, pt = t3 - t2, time.perf_counter() - t3
        print(f"{name:16} {mp.nstr(r.epsilon, args.digits):>20} {t1 - t0:8.3f} {t2 - t1:9.3f} {dt:8.2f} {pt:7.2f}")


if __name__ == "__main__":
    main()
