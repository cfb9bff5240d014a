"""``arete floor``: how close infinitely divisible noise can come to the Staircase, certified.

The least E|Z| of any infinitely divisible (ID) eps-DP noise is at least
:func:`arete_proofs.privacy.id_bounds.id_lower_bound` (Theorem C), and of any *symmetric* ID noise
at least :func:`arete_proofs.privacy.id_mean_abs.mean_abs_bound` (Theorem F); the least variance of any
symmetric ID eps-DP noise is at least :func:`arete_proofs.privacy.id_variance.variance_bound`
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
                        help="instead: the ratios proved for every eps >= E0 at once (Theorem F for E|Z|, "
                        "Theorem E for Var; about 10 s)")
    parser.add_argument("--objective", choices=("mean_abs", "variance", "both"), default="both",
                        help="which floor: E|Z| (Theorems C and F), Var (Theorem E), or both (default)")
    parser.add_argument("--json", action="store_true", help="print one JSON document (numbers as strings)")


def _from(args) -> int:
    """``--from E0``: the least ratios over every eps >= E0: Theorem F's (E|Z|, one certificate, Corollary F4) and
    Theorem E's (Var, grid cells of 0.25 up to 20, then 2)."""
    (e0,) = _eps_values([args.eps_from], "--from")
    doc = {"sensitivity": 1, "from": e0, "for": "every symmetric ID noise and every eps >= from"}
    lines = []
    if args.objective in ("mean_abs", "both"):
        from ..privacy.id_mean_abs import mean_abs_gap_from

        ratio, _ = mean_abs_gap_from(e0)
        text = format_bound(ratio, 6, upward=False)
        doc.update(mean_abs_ratio=text, mean_abs_theorem="F")
        lines.append(f"every symmetric ID noise, every eps >= {e0}: E|Z| >= {text} x the Staircase's (Theorem F)")
    if args.objective in ("variance", "both"):
        from ..privacy.id_variance import variance_gap_interval

        v = float(e0)
        cells = []
        if v < 20:
            cells += variance_gap_interval(e0, 20, step="0.25")[1]
        cells += variance_gap_interval(max(v, 20), step="2")[1]
        text = format_bound(min(c["ratio"] for c in cells), 6, upward=False)
        doc.update(variance_ratio=text, theorem="E", cells=len(cells))
        lines.append(f"every symmetric ID noise, every eps >= {e0}: Var >= {text} x the Staircase's (Theorem E, "
                     f"{len(cells)} cells)")
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print("\n".join(lines))
    return 0


#: The least eps of ``arete floor``: Theorem C's ball bound below about 1e-30 has no finite float endpoint
#: (the arb ball of the bound loses its midpoint), so the range is [1e-20, 700) with room.
MIN_FLOOR_EPS = "1e-20"


def _eps_values(texts, option="--eps"):
    """The texts, each a number in [1e-20, 700) (beyond 700, e^-eps underflows float64; below 1e-20 Theorem C's ball
    bound has no finite endpoint), else a one-line error naming ``option``."""
    from mpmath import mp

    for t in texts:
        v = positive_option(t, option)
        with mp.workdps(30):
            ok = mp.mpf(MIN_FLOOR_EPS) <= v < 700
        if not ok:
            raise UsageError(f"{option} must be in [{MIN_FLOOR_EPS}, 700), got {t!r}")
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
            1.036 times it as eps grows), and every symmetric ID noise E|Z| >= bound
            (Theorem F; 1.1009 times it for every eps >= 13.8, tending to 2/sqrt(pi) = 1.1284);
  variance: every symmetric ID noise has Var >= bound (Theorem E; above the Staircase from
            eps 10, 1.2012 times it for every eps >= 14, tending to (6/pi)^(1/3) = 1.2407).

Bounds are rounded down, the Staircase up.  A bound at eps holds for every smaller eps too.  Proofs:
docs/explanation/id-lower-bounds.md.  About 1 s per eps.  Examples:

    arete floor --eps 8 14 20
    arete floor --eps 20 --objective variance --json
    arete floor --from 14          # E|Z| >= 1.1028 and Var >= 1.20128 x the Staircase, every eps >= 14
""",
    options=(_floor_arguments,),
)
def floor_command(args: argparse.Namespace) -> int:
    """``arete floor``: Theorems C, F and E at each eps."""
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
            from ..privacy.id_mean_abs import mean_abs_bound

            r = mean_abs_bound(e)
            row["mean_abs_symmetric"] = {"id_bound": format_bound(float(r["bound"]), 8, upward=False),
                                         "staircase": format_bound(r["staircase"], 8, upward=True),
                                         "ratio": format_bound(r["ratio"], 6, upward=False), "theorem": "F",
                                         "for": "every symmetric ID noise", "params": r["params"]}
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
        for key, what in (("mean_abs", "E|Z|"), ("mean_abs_symmetric", "E|Z|"), ("variance", "Var")):
            if key in row:
                v = row[key]
                print(f"  {what:<5} bound {v['id_bound']:<14} Staircase {v['staircase']:<14} "
                      f"ratio {v['ratio']:<8} (Theorem {v['theorem']}: {v['for']})")
    return 0
