r"""Write ``arete`` certificates: the certified tight epsilon of the Arete law with the cover that proves it.

:func:`arete_proofs.certified.epsilon.certify_epsilon` searches a cover of :math:`[0, T]` whose cells, bounded by
monotonicity with the Lipschitz bound and by the curvature bound, and the tail bound past :math:`T` put
:math:`\varepsilon^* = \sup_t \ln f_A(t)/f_A(t+\Delta)` within ``tol`` of a certified value (items 1-4 of its
docstring).  :func:`certificate` records what that search found -- :math:`T`, the cover's points, the witness point
-- with the exact parameters and the claim :math:`\mathrm{lower} \le \varepsilon^* \le \mathrm{upper} \le
\varepsilon`, and runs the independent checker ``arete_proofs.check.arete`` on it, which re-derives every cell's
bound and the tail bound with its own certified density.  The claims are the checker's bounds moved outward by a
relative :math:`10^{-12}` (so that a python-flint whose balls differ in the last bits still accepts them).

``python -m arete_proofs.certified.arete_certificate FILE...`` writes the ``certificate`` of every Arete entry of
``docs/data/comparison.json`` (``arete``, ``arete_var``, ``arete_paper``) and ``docs/data/beyond.json`` (``arete``
and ``variance.arete``), at the entry's parameters as written, and nothing else of the files.

>>> from arete_proofs.check import check_document
>>> doc = certificate("0.3", 1, 2, epsilon="1")          # lam >= theta: eps* = Delta/lam = 1/2 exactly
>>> doc["method"], 0 <= Fraction(doc["claim"]["upper"]) - Fraction(1, 2) < 1e-12, check_document(doc)["verdict"]
('lipschitz', True, 'checked')
"""

from __future__ import annotations

import json
import sys
import time
from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, Context
from fractions import Fraction

from ..check import FORMAT
from ..check import arete as C
from ._seal import sealed
from .density import exact_parameter
from .epsilon import certify_epsilon

__all__ = ["certificate", "decimal_out", "outward", "thin", "rewrite"]

#: the relative slack between the checker's bounds and the claims
SLACK = Fraction(1, 10 ** 12)


def decimal_out(q, up, digits=17):
    """A decimal string of at most ``digits`` significant digits, at least (``up``) or at most the rational ``q``.

    >>> decimal_out(Fraction(1, 3), True), decimal_out(Fraction(-1, 3), True)
    ('0.33333333333333334', '-0.33333333333333333')
    """
    from decimal import Decimal

    ctx = Context(prec=digits, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    return str(ctx.divide(Decimal(q.numerator), Decimal(q.denominator)))


def outward(lower, upper):
    """The claims (decimal strings) for the checker's ``lower`` and ``upper`` (Fractions), moved out by SLACK."""
    return (decimal_out(lower - abs(lower) * SLACK, False), decimal_out(upper + abs(upper) * SLACK, True))


def thin(A, T, pts, level, D=1, rounds=30):
    """A cover of [0, T] (Fractions) whose bound (``arete_proofs.check.arete.cover_bound`` with the density ``A``)
    is at most ``level`` and that has few points: cells above the level are split (geometrically near 0) for at
    most ``rounds`` rounds, then a point is left out while the cell that replaces its two is still below the level
    (no new density evaluations).  Returns the points and the bound."""
    pts = sorted(set(pts) | {T, Fraction(0)})
    for _ in range(rounds):
        bad = [i for i, (a, b) in enumerate(zip(pts, pts[1:])) if C.cell_bound(A, D, a, b) > level]
        if not bad:
            break
        pts = sorted(set(pts) | {(pts[i] + pts[i + 1]) / 2 if pts[i] == 0 or pts[i + 1] < 4 * pts[i]
                                 else Fraction(repr(float(pts[i]) ** 0.5 * float(pts[i + 1]) ** 0.5)) for i in bad})
    i = 1
    while i < len(pts) - 1:
        if C.cell_bound(A, D, pts[i - 1], pts[i + 1]) <= level:
            del pts[i]
        else:
            i += 1
    return pts, C.cover_bound(A, D, T, pts)


def certificate(alpha, theta, lam, Delta=1, *, epsilon=None, tol="1e-9", target=None, max_seconds=600, prec=64,
                result=None):
    r"""An ``arete`` certificate (a dict, checked) that :math:`\varepsilon^*(\alpha,\theta,\lambda)` at sensitivity
    ``Delta`` lies in its ``claim``'s ``[lower, upper]`` and ``upper <= epsilon`` (the row's epsilon; ``None``:
    the claimed upper end itself); parameters as exact numbers
    (decimal strings are recorded as written).  ``tol``, ``target``, ``max_seconds``: the search's
    (:func:`~arete_proofs.certified.epsilon.certify_epsilon`); ``result``: that search's result at these parameters
    when it was already run.  ``ArithmeticError`` when the claim cannot be made."""
    P = [exact_parameter(x, n) for x, n in ((alpha, "alpha"), (theta, "theta"), (lam, "lam"))]
    D = exact_parameter(Delta, "Delta")
    r = result or certify_epsilon(alpha, theta, lam, Delta, tol=tol, target=target, numeric=False,
                                  max_seconds=max_seconds, prec=prec)
    doc = {"format": FORMAT, "kind": C.KIND, "params": {k: str(v) for k, v in zip(("alpha", "theta", "lam"),
                                                                                  (alpha, theta, lam))},
           "Delta": str(Delta), "prec": prec, "method": r.method}
    if r.method == "cover":
        A = C.Arete(*P, bits=prec)
        doc["cover"] = {"T": repr(r.T), "points": [repr(float(p)) for p in r.points]}
        doc["witness"] = repr(float(r.t_star))
        upper = C.cover_bound(A, D, Fraction(doc["cover"]["T"]), [Fraction(p) for p in doc["cover"]["points"]])
        lower = C.witness(A, D, Fraction(doc["witness"]))
    elif r.method == "lipschitz" and P[2] >= P[1]:
        lower = upper = D / P[2]
    else:
        raise ArithmeticError(f"no arete certificate for method {r.method!r} (alpha >= 1)")
    lo, hi = outward(lower, upper)
    epsilon = hi if epsilon is None else str(epsilon)
    if not Fraction(hi) <= exact_parameter(epsilon, "epsilon"):
        raise ArithmeticError(f"the certified upper bound {hi} is above epsilon = {epsilon}")
    doc["claim"] = {"lower": lo, "upper": hi, "epsilon": epsilon}
    doc["search"] = {"tol": str(tol), "target": None if target is None else str(target), "cells": r.cells,
                     "seconds": round(r.seconds, 1)}
    return sealed(doc, error=ArithmeticError, what="the certificate")


def _entries(doc):
    """(row eps, entry, target) of every Arete entry of a comparison or beyond file."""
    if "continuous" in doc:
        rows = [(r, ("arete", "arete_var", "arete_paper"), r) for r in doc["continuous"]["rows"]]
    else:
        rows = [(r, ("arete",), r) for r in doc["rows"]] + [(r, ("arete",), r["variance"]) for r in doc["rows"]
                                                             if isinstance(r.get("variance"), dict)]
    for row, keys, holder in rows:
        for k in keys:
            if isinstance(holder.get(k), dict) and "alpha" in holder[k]:
                yield row["eps"], holder[k], (None if k == "arete_paper" else row["eps"])


def _one(job):
    eps, P, target = job
    return job, certificate(*P, epsilon=eps, target=target)


def rewrite(paths, *, workers=1, progress=True, command=None):
    """Write the ``certificate`` of every Arete entry of the files (module docstring) and record ``command`` in
    each file (``merges`` or ``commands``, as the file does); returns the count and the seconds."""
    docs = {p: json.loads(open(p, encoding="utf-8").read()) for p in paths}
    jobs = {(e, (x["alpha"], x["theta"], x["lam"]), t): None for d in docs.values() for e, x, t in _entries(d)}
    t0 = time.perf_counter()
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_one, list(jobs)))
    else:
        done = [_one(j) for j in jobs]
    for j, c in done:
        jobs[j] = c
        if progress:
            print(f"arete certificate: eps {j[0]}: [{c['claim']['lower']}, {c['claim']['upper']}]", file=sys.stderr)
    seconds = time.perf_counter() - t0
    for p, d in docs.items():
        for e, x, t in _entries(d):
            x["certificate"] = jobs[(e, (x["alpha"], x["theta"], x["lam"]), t)]
        if command and "merges" in d:
            d["merges"].append({"command": command, "generated": date.today().isoformat(), "seconds": round(seconds, 1)})
        elif command and "commands" in d:
            d["commands"].append(command)
        with open(p, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(d, indent=1) + "\n")
    return len(jobs), seconds


if __name__ == "__main__":  # pragma: no cover - the command that wrote the Arete entries' certificates
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args()
    cmd = " ".join(["python -m arete_proofs.certified.arete_certificate"] + a.paths + [f"--workers {a.workers}"])
    n, s = rewrite(a.paths, workers=a.workers, command=cmd)
    print(f"{n} certificates in {s:.0f} s", file=sys.stderr)
