"""Benchmark: exact delta(eps) of one release at 12 digits; building the Arete PLD and composing it 1000-fold.

Run: python benchmarks/bench_accounting.py   (needs the extra 'accounting' for the PLD part)
"""

import sys
import time

from arete_proofs.noise import make
from arete_proofs.privacy import accounting
from arete_proofs.privacy.tight import FIGURE_4


def main():
    a, th, lam = FIGURE_4[6]
    z = make("arete", alpha=a, theta=th, lam=lam)
    for eps in (2, 5, 5.99):
        t0 = time.perf_counter()
        d = accounting.hockey_stick(z, 1, eps, digits=12)
        print(f"exact delta(eps={eps}) at 12 digits: {d} in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    from arete_proofs.privacy import pld

    for h in (1e-3, 1e-4):
        t0 = time.perf_counter()
        p = pld.noise_pld(z, 1, value_discretization_interval=h)
        t1 = time.perf_counter()
        c = pld.compose(p, 1000)
        t2 = time.perf_counter()
        print(f"PLD h={h:g}: build {t1 - t0:.2f} s, 1000-fold {t2 - t1:.2f} s, "
              f"eps(delta=1e-6) after 1000 = {c.get_epsilon_for_delta(1e-6):.6g}", file=sys.stderr)


if __name__ == "__main__":
    main()
