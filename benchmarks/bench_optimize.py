"""Benchmark: the Arete optimizer's time and result; the error table against Laplace and Staircase.

Three parts (all by default, or pick with ``--parts``):

* ``timing``  -- :func:`arete_proofs.privacy.optimize.optimize` (E|Z|, Delta = 1) for
  eps in ``--eps`` (default 6 7 8 12): parameters, exact tight epsilon, E|Z|,
  float64 epsilon estimates, exact confirmations, wall time;
* ``figure4`` -- :func:`arete_proofs.privacy.optimize.compare_figure_4` for eps = 6, 7, 8:
  the exact tight epsilon e4 of each Figure-4 parameter set, the optimizer's
  result at target e4, and both E|Z|;
* ``table``   -- :func:`arete_proofs.privacy.errors.comparison_table` for eps = 2..20
  (``--table-eps``): the objective (``--objective``) of Arete-optimized, Laplace,
  Staircase and the paper's parameters where Lemma 3 applies.

Usage::

    python benchmarks/bench_optimize.py [--parts timing figure4 table] [--eps 6 7 8 12]
        [--objective mean_abs|variance] [--jobs 1] [--json out.json]

Each optimization runs in its own process (``--jobs`` at once); timings are
wall-clock on whatever else the machine is doing.  Progress goes to stderr,
Markdown tables to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed


def _s(x, n=10):
    from mpmath import mp

    return mp.nstr(mp.mpf(x), n)


def run_timing(eps, objective, digits):
    from arete_proofs.privacy.optimize import optimize

    o = optimize(eps, 1, objective=objective, digits=digits)
    return {"part": "timing", "eps": eps, "objective": objective, "alpha": o.alpha, "theta": o.theta,
            "lam": o.lam, "epsilon_exact": _s(o.epsilon, 15), "mean_abs": _s(o.mean_abs, 12),
            "variance": _s(o.variance, 12), "evaluations": o.evaluations,
            "confirmations": o.confirmations, "seconds": round(o.seconds, 2)}


def run_figure4(eps, digits):
    from arete_proofs.privacy.optimize import FIGURE_4, compare_figure_4

    t0 = time.perf_counter()
    c = compare_figure_4(eps, digits=digits)
    o = c.optimum
    a, th, lam = FIGURE_4[eps]
    return {"part": "figure4", "eps": eps, "e4": _s(c.epsilon, 15),
            "figure": {"alpha": a, "theta": th, "lam": lam, "mean_abs": _s(c.figure_mean_abs, 12)},
            "optimum": {"alpha": o.alpha, "theta": o.theta, "lam": o.lam,
                        "epsilon_exact": _s(o.epsilon, 15), "mean_abs": _s(o.mean_abs, 12),
                        "seconds": round(o.seconds, 2)},
            "improvement": _s(c.improvement, 4), "seconds": round(time.perf_counter() - t0, 2)}


def run_table_row(eps, objective, digits):
    from arete_proofs.privacy.errors import comparison_table

    t0 = time.perf_counter()
    row = comparison_table([eps], 1, objective=objective, optimize_digits=digits)[0]
    out = row.as_dict(12)
    out["part"] = "table"
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def format_timing(rows):
    lines = ["| eps | alpha | theta | lam | exact eps | E abs Z | Var Z | estimates | exact calls | s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: r["eps"]):
        lines.append(f"| {r['eps']} | {r['alpha']:.6g} | {r['theta']:.6g} | {r['lam']:.6g} "
                     f"| {r['epsilon_exact']} | {r['mean_abs']} | {r['variance']} | {r['evaluations']} "
                     f"| {r['confirmations']} | {r['seconds']} |")
    return "\n".join(lines)


def format_figure4(rows):
    lines = ["| eps | exact e4 of Fig. 4 | Fig. 4 E abs Z | optimizer (alpha, theta, lam) | its exact eps "
             "| optimizer E abs Z | reduction | s |", "|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: r["eps"]):
        o = r["optimum"]
        lines.append(f"| {r['eps']} | {r['e4']} | {r['figure']['mean_abs']} "
                     f"| ({o['alpha']:.6g}, {o['theta']:.6g}, {o['lam']:.6g}) | {o['epsilon_exact']} "
                     f"| {o['mean_abs']} | {r['improvement']} | {o['seconds']} |")
    return "\n".join(lines)


def format_table(rows):
    obj = rows[0]["objective"] if rows else "mean_abs"
    name = "E abs X" if obj == "mean_abs" else "Var X"
    lines = [f"| eps | {name}: Arete-opt | Laplace | Staircase | paper (Lemma 3) | Arete-opt / Staircase "
             "| Arete (alpha, theta, lam) | s |", "|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: float(r["eps"])):
        p = r.get("arete_opt_params", {})
        ratio = float(r["arete_opt"]) / float(r["staircase"]) if r.get("arete_opt") else float("nan")
        lines.append(f"| {r['eps']} | {r.get('arete_opt', '-')} | {r['laplace']} | {r['staircase']} "
                     f"| {r.get('paper') or '-'} | {ratio:.3f} "
                     f"| ({float(p.get('alpha', 'nan')):.4g}, {float(p.get('theta', 'nan')):.4g}, "
                     f"{float(p.get('lam', 'nan')):.4g}) | {p.get('seconds', '-')} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--parts", nargs="+", default=["timing", "figure4", "table"],
                   choices=["timing", "figure4", "table"])
    p.add_argument("--eps", type=float, nargs="+", default=[6, 7, 8, 12])
    p.add_argument("--table-eps", type=float, nargs="+", default=[float(e) for e in range(2, 21)])
    p.add_argument("--objective", default="mean_abs", choices=["mean_abs", "variance"])
    p.add_argument("--digits", type=int, default=12, help="digits of the exact tight epsilon")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--json", help="also write the raw results to this file")
    args = p.parse_args(argv)

    tasks = []
    if "timing" in args.parts:
        tasks += [(run_timing, (e, args.objective, args.digits)) for e in args.eps]
    if "figure4" in args.parts:
        tasks += [(run_figure4, (e, args.digits)) for e in (6, 7, 8)]
    if "table" in args.parts:
        tasks += [(run_table_row, (e, args.objective, args.digits)) for e in args.table_eps]
    results = []
    t_start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futs = {pool.submit(fn, *a): (fn.__name__, a[0]) for fn, a in tasks}
        for i, fut in enumerate(as_completed(futs), 1):
            results.append(fut.result())
            name, e = futs[fut]
            print(f"[{i}/{len(tasks)}] {name} eps={e:g} done ({time.perf_counter() - t_start:.0f} s)",
                  file=sys.stderr, flush=True)
    for part, fmt in (("timing", format_timing), ("figure4", format_figure4), ("table", format_table)):
        rows = [r for r in results if r["part"] == part]
        if rows:
            print(f"\n### {part}\n")
            print(fmt(rows))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
