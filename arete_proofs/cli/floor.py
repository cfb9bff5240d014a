"""``arete floor``: how close infinitely divisible noise can come to the Staircase, certified.

The least E|Z| of any infinitely divisible (ID) eps-DP noise is at least
:func:`arete_proofs.privacy.id_bounds.id_lower_bound` (Theorem C); the least variance of any
*symmetric* ID eps-DP noise is at least :func:`arete_proofs.privacy.id_variance.variance_bound`
(Theorem E).  Both are printed against the Staircase's (the least of all eps-DP noise, Lemma 27),
for sensitivity 1 (the ratios do not depend on it).  Shared options: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

from ._common import UsageError, command, format_bound, need_flint, positive_option


def _floor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--eps", metavar="E", nargs="+", help="privacy parameters (> 0)")
    parser.add_argument("--from", dest="eps_from", metavar="E0", default=None,
                        help="instead: the variance ratio proved for every eps >= E0 at once (Theorem E; about 5 s)")
    parser.add_argument("--objective", choices=("mean_abs", "variance", "both"), default="both",
                        help="which floor: E|Z| (Theorem C), Var (Theorem E), or both (default)")
    parser.add_argument("--json", action="store_true", help="print one JSON document (numbers as strings)")


def _from(args) -> int:
    """``--from E0``: the least ratio of Theorem E over every eps >= E0 (grid cells of 0.25 up to 20, then 2)."""
    from ..privacy.id_variance import variance_gap_interval

    (e0,) = _eps_values([args.eps_from], "--from")
    v = float(e0)
    cells = []
    if v < 20:
        r, rows = variance_gap_interval(e0, 20, step="0.25")
        cells += rows
    r, rows = variance_gap_interval(max(v, 20), step="2")
    cells += rows
    ratio = min(c["ratio"] for c in cells)
    text = format_bound(ratio, 6, upward=False)
    if args.json:
        print(json.dumps({"sensitivity": 1, "from": e0, "variance_ratio": text, "theorem": "E",
                          "for": "every symmetric ID noise and every eps >= from", "cells": len(cells)}, indent=2))
    else:
        print(f"every symmetric ID noise, every eps >= {e0}: Var >= {text} x the Staircase's (Theorem E, "
              f"{len(cells)} cells)")
    return 0


def _eps_values(texts, option="--eps"):
    """The texts, each a positive number below 700 (beyond, e^-eps underflows float64), else a one-line error."""
    for t in texts:
        if not positive_option(t, option) < 700:
            raise UsageError(f"{option} must be in (0, 700), got {t!r}")
    return list(texts)


@command(
    "floor",
    help="certified floor of infinitely divisible noise: least E|Z| and Var against the Staircase "
    "(extra 'certified')",
    description="""\
For each --eps, the certified lower bounds of infinitely divisible (ID) eps-DP noise
(sensitivity 1; the ratios hold for every sensitivity), against the Staircase, the least of
all eps-DP noise (Lemma 27):

  mean_abs: every ID noise has E|Z| >= bound (Theorem C; above the Staircase from eps 7.1,
            1.036 times it as eps grows);
  variance: every symmetric ID noise has Var >= bound (Theorem E; above the Staircase from
            eps 10, 1.2012 times it for every eps >= 14, tending to (6/pi)^(1/3) = 1.2407).

Bounds are rounded down, the Staircase up.  A bound at eps holds for every smaller eps too.  Proofs: docs/beyond.md, "A lower bound for
the infinitely divisible class".  About 1 s per eps.  Examples:

    arete floor --eps 8 14 20
    arete floor --eps 20 --objective variance --json
    arete floor --from 14          # Var >= 1.20128 x the Staircase for every eps >= 14
""",
    options=(_floor_arguments,),
)
def floor_command(args: argparse.Namespace) -> int:
    """``arete floor``: Theorems C and E at each eps."""
    need_flint("arete floor")
    if (args.eps is None) == (args.eps_from is None):
        raise UsageError("give either --eps E [E ...] or --from E0")
    if args.eps_from is not None:
        return _from(args)
    eps_list = _eps_values(args.eps)
    rows = []
    for e in eps_list:
        row = {"eps": e}
        if args.objective in ("mean_abs", "both"):
            from ..privacy.id_bounds import id_lower_bound

            r = id_lower_bound(e, digits=12)
            row["mean_abs"] = {"id_bound": format_bound(r["bound"], 8, upward=False),
                               "staircase": format_bound(r["staircase"], 8, upward=True),
                               "ratio": format_bound(r["ratio"], 6, upward=False), "theorem": "C", "for": "every ID noise"}
        if args.objective in ("variance", "both"):
            from ..privacy.id_variance import variance_bound

            r = variance_bound(e)
            # the bound is an exact float value held as a Fraction (variance_bound), so float() loses nothing
            row["variance"] = {"id_bound": format_bound(float(r["bound"]), 8, upward=False),
                               "staircase": format_bound(r["staircase"], 8, upward=True),
                               "ratio": format_bound(r["ratio"], 6, upward=False), "theorem": "E", "for": "every symmetric ID noise",
                               "params": r["params"]}
        rows.append(row)
    if args.json:
        print(json.dumps({"sensitivity": 1, "rows": rows}, indent=2))
        return 0
    for row in rows:
        print(f"eps {row['eps']}")
        for key, what in (("mean_abs", "E|Z|"), ("variance", "Var")):
            if key in row:
                v = row[key]
                print(f"  {what:<5} bound {v['id_bound']:<14} Staircase {v['staircase']:<14} "
                      f"ratio {v['ratio']:<8} (Theorem {v['theorem']}: {v['for']})")
    return 0
