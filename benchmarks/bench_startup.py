"""Benchmark: start-up and per-point cost of ``arete density`` (CPU seconds of the whole process).

Issue 22 asks that ``arete density`` at one point cost at most 4 times the CPU of a bare
``python -c "import mpmath, numpy"``; issue 25 that it, and the marginal cost per point of a
101-point batch at 30 digits, be no slower than version 0.1.0.  Each figure is the median over
``--runs`` runs, the commands alternating (A, B, A, B, ...) so that a change of machine load
hits both alike; CPU time is user + system of the child process (``os.wait4``), which a loaded
machine inflates far less than wall time.

Run (from the repository root):

    python benchmarks/bench_startup.py                       # this checkout against bare imports
    git worktree add /tmp/v010 21640b0^                       # version 0.1.0 (the last flat layout)
    python benchmarks/bench_startup.py --baseline /tmp/v010   # ... and against version 0.1.0

``--json`` prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POINT = ["density", "--alpha", "0.5", "--theta", "1", "--lam", "0.5", "0.3"]
BATCH = ["density", "--alpha", "0.5", "--theta", "1", "--lam", "0.5", "--digits", "30"]
POINTS = [f"{k / 50:.2f}" for k in range(101)]   # 0, 0.02, ..., 2: 101 points


def cpu(argv, cwd) -> float:
    """User + system CPU seconds of one run of ``argv`` in ``cwd`` (stdout discarded)."""
    env = dict(os.environ, PYTHONPATH=str(cwd))
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise SystemExit(f"{' '.join(map(str, argv))} failed: {p.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime


def medians(commands, runs):
    """``{name: median CPU}`` over ``runs`` alternating rounds of ``commands`` (``{name: (argv, cwd)}``)."""
    times = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, cwd) in commands.items():
            times[name].append(cpu(argv, cwd))
    return {name: statistics.median(v) for name, v in times.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--baseline", metavar="CHECKOUT", help="a checkout of an older version to time beside this one")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    py = sys.executable
    here = {"bare imports": ([py, "-c", "import mpmath, numpy"], ROOT),
            "density, 1 point": ([py, "-m", "arete_proofs", *POINT], ROOT),
            "density, 101 points at 30 digits": ([py, "-m", "arete_proofs", *BATCH, *POINTS], ROOT),
            "density, 1 point at 30 digits": ([py, "-m", "arete_proofs", *BATCH, "0.3"], ROOT)}
    if args.baseline:
        base = Path(args.baseline).resolve()
        here.update({"baseline density, 1 point": ([py, "-m", "arete_proofs", *POINT], base),
                     "baseline density, 101 points at 30 digits": ([py, "-m", "arete_proofs", *BATCH, *POINTS], base),
                     "baseline density, 1 point at 30 digits": ([py, "-m", "arete_proofs", *BATCH, "0.3"], base)})
    t0 = time.perf_counter()
    m = medians(here, args.runs)
    out = {"runs": args.runs, "median_cpu_seconds": m, "load_average": os.getloadavg(),
           "ratio_density_to_bare_imports": m["density, 1 point"] / m["bare imports"],
           "marginal_per_point_30_digits": (m["density, 101 points at 30 digits"]
                                            - m["density, 1 point at 30 digits"]) / 100,
           "wall_seconds": time.perf_counter() - t0}
    if args.baseline:
        out["baseline_marginal_per_point_30_digits"] = (m["baseline density, 101 points at 30 digits"]
                                                        - m["baseline density, 1 point at 30 digits"]) / 100
        out["ratio_density_to_baseline"] = m["density, 1 point"] / m["baseline density, 1 point"]
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for name, v in m.items():
        print(f"{name:45s} {v:7.3f} s CPU (median of {args.runs})")
    print(f"{'density, 1 point / bare imports':45s} {out['ratio_density_to_bare_imports']:7.2f}x (issue 22: at most 4)")
    print(f"{'marginal CPU per point (101 points, 30 digits)':45s} {out['marginal_per_point_30_digits'] * 1e3:7.2f} ms")
    if args.baseline:
        print(f"{'baseline marginal CPU per point':45s} {out['baseline_marginal_per_point_30_digits'] * 1e3:7.2f} ms")
        print(f"{'density, 1 point / baseline':45s} {out['ratio_density_to_baseline']:7.2f}x")
    print(f"load average {out['load_average'][0]:.1f}; {out['wall_seconds']:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
