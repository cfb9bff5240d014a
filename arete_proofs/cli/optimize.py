"""``arete optimize`` and ``arete compare``: optimized Arete parameters and the error table.

Both take a target epsilon (:func:`_target_arguments`) and use
:mod:`arete_proofs.privacy.optimize` / :mod:`arete_proofs.privacy.errors`.  The
lines of ``arete compare``, text and JSON alike, are the
:meth:`arete_proofs.privacy.errors.ComparisonRow.entries` of each row.  The
optimizer's ``alpha, theta, lam`` are printed exactly (shortest repr of the float64
values): they are the parameters whose epsilon was certified, and rounding them
would change it.  ``arete optimize --family gauss|both`` (beyond the paper) uses
:func:`arete_proofs.privacy.optimize_gauss.optimize`.  Shared options and the registry:
:mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

import mpmath

from ._common import (
    EPSILON_RANGE,
    UsageError,
    add_quiet_option,
    add_sensitivity_option,
    command,
    format_bound,
    format_value,
    in_range_option,
)
from ._noise import add_noise_name_option


def _target_arguments(parser: argparse.ArgumentParser, many: bool = False) -> None:
    # compare (many=True) may instead take --figure-4 alone: the check is in compare_command
    group = parser.add_mutually_exclusive_group(required=not many)
    group.add_argument("--epsilon", metavar="E", nargs="+" if many else None,
                       help="target privacy parameter eps > 0" + (" (one or more)" if many else ""))
    group.add_argument("--paper-eps", metavar="E", nargs="+" if many else None,
                       help="as --epsilon, and also show the paper's parameters (Lemma 3) at that eps")
    if many:
        parser.add_argument("--noise", metavar="NAME", nargs="+", default=None,
                            help="also the optimum of these families (one row per family and eps; "
                            "'arete noises' says which have an optimiser)")
        parser.add_argument("--gauss", action="store_true",
                            help="beyond the paper: also the Gamma + Gaussian optimum X1 - X2 + N(0, sigma^2) "
                            "(sigma free, certified tight eps <= E; minutes per eps) as one more row per eps")
        parser.add_argument("--families", metavar="NAME", nargs="+", default=None,
                            help="also rows of the follow-up paper's families at their papers' parameters, each "
                            "with its tight eps and whether it is certified: all, or some of lattice_laplace "
                            "(Theorem 21), lattice_gauss (optimised, minutes; certified for m <= 130), gdl (Theorem 15), "
                            "msdlap (Theorem 16), dlap, discrete_staircase (integer --sensitivity)")
        parser.add_argument("--figure-4", action="store_true",
                            help="also add the paper's three Figure-4 parameter sets (S = 1): one row each "
                            "at its exact tight eps, beside Laplace, Staircase and optimized Arete at that eps")
    add_sensitivity_option(parser, default="1")
    parser.add_argument("--objective", choices=("mean_abs", "variance"), default="mean_abs",
                        help="minimise E|Z| (default) or Var Z")
    parser.add_argument("--json", action="store_true", help="print one JSON document (numbers as strings)")
    add_quiet_option(parser)


def _family_argument(parser: argparse.ArgumentParser) -> None:
    add_noise_name_option(parser)
    parser.add_argument("--family", choices=("arete", "gauss", "both"), default=None,
                        help="the Arete families by their older names: arete = the paper's noise (default), "
                        "gauss = X1 - X2 + N(0, sigma^2) (--noise arete_gauss), "
                        "both = X1 - X2 + Laplace(lam) + N(0, sigma^2)")


def _problem_of(args, target):
    """The family's optimisation problem for ``--noise``/``--family``: ``(family class, head, problem)``.

    ``head``: what the output says of the family (``{}`` for the paper's noise, ``{"family": ...}`` for
    ``--family gauss|both`` as before, ``{"noise": name}`` for another family).
    """
    from ..noise import FAMILIES, family

    if args.noise is not None and args.family is not None:
        if not (args.noise == "arete_gauss" and args.family in ("gauss", "both")) and args.noise != args.family:
            raise UsageError(f"--family {args.family} and --noise {args.noise} name different families")
    if args.family in ("gauss", "both"):
        name, opts, head = "arete_gauss", {"family": args.family}, {"family": args.family}
    elif args.noise is not None:
        if args.noise not in FAMILIES:
            raise UsageError(f"--noise: unknown noise {args.noise!r}; the families are {', '.join(FAMILIES)}")
        name, opts = args.noise, {}
        head = {} if name == "arete" else ({"family": "gauss"} if name == "arete_gauss" else {"noise": name})
    else:
        name, opts, head = "arete", {}, {}
    fam = family(name)
    if "optimize" not in fam.supports:
        raise UsageError(f"noise {name!r} has no optimiser (see 'arete noises'; the families with one: "
                         + ", ".join(n for n, f in FAMILIES.items() if "optimize" in f.supports) + ")")
    return fam, head, fam.search_problem(target, objective=args.objective, **opts)


def _num(x, digits=12):
    return format_value(x, digits)


@command(
    "optimize",
    help="Arete parameters minimising E|Z| (or Var Z) subject to a tight epsilon <= target",
    description="""\
Finds (alpha, theta, lam) minimising E|Z| (--objective mean_abs) or Var Z
(--objective variance) subject to tight_epsilon(alpha, theta, lam, S) <= E, the
exact (certified) tight epsilon of the noise.  Prints alpha, theta, lam, the exact
epsilon reached, E|Z| and Var Z.  Examples:

    arete optimize --epsilon 8
    arete optimize --epsilon 6 --sensitivity 2 --objective variance --json
    arete optimize --epsilon 8 --family gauss
    arete optimize --epsilon 8 --noise arete_gauss

--noise NAME optimises another family through the generic optimiser
(arete_proofs.privacy.optimizer; 'arete noises' says which families have one): arete
(default, the paper's noise, lam free) or arete_gauss (X1 - X2 + N(0, sigma^2): sigma free,
lam = 0; --family both frees lam too).  Beyond the paper's noise the output also has
epsilon_upper, the certified upper bound of the tight epsilon (<= E); the Gaussian part takes
a few minutes.
""",
    options=(_target_arguments, _family_argument),
)
def optimize_command(args: argparse.Namespace) -> int:
    """``arete optimize``: the best Arete parameters for a target epsilon."""
    from ..privacy import errors, optimizer

    target = args.epsilon if args.epsilon is not None else args.paper_eps
    in_range_option(target, "--epsilon" if args.epsilon is not None else "--paper-eps", *EPSILON_RANGE)
    fam, head, problem = _problem_of(args, target)
    o = optimizer.optimize(problem, args.sensitivity)
    lines = {k: repr(v) for k, v in o.params.items()}
    lines["epsilon"] = _num(o.epsilon)
    if fam.name != "arete":  # a certified bound (the paper's noise: the exact value is the bound)
        lines["epsilon_upper"] = format_bound(o.epsilon_upper, 15, upward=True)
    lines.update(mean_abs=_num(o.mean_abs), variance=_num(o.variance))
    extra = {}
    if args.paper_eps is not None:
        p = errors.paper_errors(target, args.sensitivity)
        extra = {"paper_" + k: (_num(v) if not isinstance(v, str) else v) for k, v in p.parameters.items()}
        extra.update(paper_mean_abs=_num(p.mean_abs), paper_variance=_num(p.variance),
                     paper_lemma3_applies=str(p.lemma3_applies).lower())
    if args.json:
        print(json.dumps({"target": target, "sensitivity": args.sensitivity, "objective": args.objective, **head,
                          **lines, **extra, "seconds": round(o.seconds, 2)}, indent=2))
    else:
        for k, v in {**lines, **extra}.items():
            print(f"{k} {v}")
    return 0


def _fmt(x, digits=6, *, strip=False) -> str:
    """Every number of the ``compare`` table in one format: ``digits`` significant digits, mpmath's
    exponent style (``3.74808e-5``, never ``e-05``), whether ``x`` is a float, a decimal string or an
    ``mpf``; ``strip``: drop trailing zeros (the eps column).

    >>> _fmt(3.748082313446601e-05), _fmt("0.000149594656233"), _fmt(0.05), _fmt(mpmath.mpf(20), strip=True)
    ('3.74808e-5', '0.000149595', '0.0500000', '20.0')
    """
    with mpmath.workdps(30):
        x = mpmath.mpf(x) if isinstance(x, (str, float, int)) else x
        return mpmath.nstr(x, digits, strip_zeros=strip)


def _parameter_text(name, v):
    if isinstance(v, (str, bool)):
        return f"{name}={v}"
    return f"{name}={_fmt(v)}"


def _left_out_notes(rows, sensitivity) -> list[str]:
    """One line for each eps whose arete-paper row is left out (Lemma 3 does not apply there)."""
    missing = [_fmt(r.eps, strip=True) for r in rows if r.paper is None]
    if not missing:
        return []
    return [f"note: no arete-paper row at eps = {', '.join(missing)}: Lemma 3 proves its parameters eps-DP only "
            f"for eps >= 20 + 4 ln S and S >= 2/e (S = {sensitivity}); below that they are private but far from "
            "tight ('arete epsilon --paper-eps E' prints their tight epsilon)"]


_FAMILY_PARAMETERS = ("a", "m", "b", "h", "sigma", "beta", "r")
_FAMILY_SUFFIX = {"lattice_laplace": " (Theorem 21)", "lattice_gauss": " (optimized)", "gdl": " (Theorem 15)",
                  "msdlap": " (Theorem 16)", "dlap": " (a = eps/S)", "discrete_staircase": " (optimal r)"}


def _family_rows(args, eps_values):
    """The ``--families`` rows (:func:`arete_proofs.noise.comparison.family_entry`), or ``None`` without the flag."""
    if args.families is None:
        return None
    from ..noise.comparison import FAMILY_ROWS, family_entry

    names = list(FAMILY_ROWS) if "all" in args.families else list(dict.fromkeys(args.families))
    for n in names:
        if n not in FAMILY_ROWS:
            raise UsageError(f"--families: unknown family {n!r}; choose all or some of {', '.join(FAMILY_ROWS)}")
    if not eps_values:
        raise UsageError("--families needs --epsilon (or --paper-eps)")
    out = []
    for e in eps_values:
        for n in names:
            row = family_entry(n, e, args.sensitivity, objective=args.objective)
            row.pop("seconds", None)
            out.append(row)
    return out


@command(
    "compare",
    help="error table: Arete-optimized, Laplace, Staircase, the paper's parameters (and Figure 4's) at given epsilons",
    description="""\
Prints, for each target epsilon, the exact E|Z| and Var Z of the noise Z of: Arete with optimized
parameters (tight epsilon <= E, minimising --objective), Laplace (lam = S/E),
Staircase (gamma optimal for E|X| and, separately, for Var X) and Arete with the
paper's parameters where Lemma 3 applies (E >= 20 + 4 ln S, S >= 2/e; a note
under the table names the eps left out).  Numbers have 6 significant digits.
With --figure-4 (S = 1), after them one row group per parameter set of the
paper's Figure 4 (found empirically for eps = 6, 7, 8) at the set's exact tight
epsilon eps* (slightly below 6, 7, 8): the set itself (arete-figure-4: its E|Z|,
Var Z, parameters and eps*) beside the same mechanisms at eps*.  Each row takes
5-30 s for the optimization.  --json has every field of the table ("entries" of
each row), numbers as strings with 12 digits.  Examples:

    arete compare --epsilon 8
    arete compare --epsilon 6 10 20 --json
    arete compare --figure-4
    arete compare --epsilon 8 --gauss

--gauss (beyond the paper): one more row per eps, the Gamma + Gaussian noise
X1 - X2 + N(0, sigma^2) with (alpha, theta, sigma) minimising --objective at certified
tight eps <= E (arete_proofs.privacy.optimize_gauss, family gauss; a few minutes per eps).
--families all (or some names) adds, per eps, the follow-up paper's families at their papers'
parameters: lattice_laplace at Theorem 21 (certified tight eps; only computed for
m = ceil(e^{eps/3}) <= 15, else its variance alone), gdl at Theorem 15 (where
eps > 2 + ln S), msdlap at Theorem 16 (a = eps, m = S <= 10), dlap(eps/S) and the discrete
staircase at its optimal r (these four need an integer S), and lattice_gauss optimised
(minutes per eps; its tight eps is certified for m <= 130, i.e. eps <= 11).  Each row says "certified: yes|no".

There is no --sigma: compare ranks optimised noises at a target eps and has no user
parameter set to add a Gaussian part to; for a given (alpha, theta, lam, sigma) use
arete epsilon --sigma (tight eps) or arete account --sigma ((eps, delta)).
""",
    options=(lambda p: _target_arguments(p, many=True),),
)
def compare_command(args: argparse.Namespace) -> int:
    """``arete compare``: the error comparison table."""
    from ..privacy import errors

    eps_values = args.epsilon if args.epsilon is not None else args.paper_eps
    for e in eps_values or []:
        in_range_option(e, "--epsilon" if args.epsilon is not None else "--paper-eps", *EPSILON_RANGE)
    if eps_values is None and not args.figure_4:
        raise UsageError("one of the arguments --epsilon --paper-eps --figure-4 is required")
    from ..noise import FAMILIES

    # the names are checked before the table, whose optimisations take seconds per eps
    names = list(args.noise or [])
    for n in names:
        if n not in FAMILIES:
            raise UsageError(f"--noise: unknown noise {n!r}; the families are {', '.join(FAMILIES)}")
        if "optimize" not in FAMILIES[n].supports:
            raise UsageError(f"--noise {n}: this family has no optimiser (see 'arete noises')")
    if args.families is not None:
        from ..noise.comparison import FAMILY_ROWS

        for n in args.families:
            if n != "all" and n not in FAMILY_ROWS:
                raise UsageError(f"--families: unknown family {n!r}; choose all or some of {', '.join(FAMILY_ROWS)}")
    rows = errors.comparison_table(eps_values or [], args.sensitivity, objective=args.objective,
                                   figure_4=args.figure_4)
    if args.gauss and "arete_gauss" not in names:
        names.append("arete_gauss")
    names = [n for n in names if n != "arete"]  # the table's own rows are the optimised Arete
    extra = {n: [] for n in names}
    if names:
        from ..privacy import optimizer

        for e in eps_values or []:
            for n in names:
                o = optimizer.optimize(FAMILIES[n].search_problem(e, objective=args.objective), args.sensitivity)
                label = "gamma-gauss-optimized" if n == "arete_gauss" else f"{n}-optimized"
                params = {k: repr(v) for k, v in o.params.items() if not (n == "arete_gauss" and k == "lam")}
                extra[n].append({"eps": str(e), "noise": label, "mean_abs": _num(o.mean_abs),
                                 "variance": _num(o.variance), **params,
                                 "epsilon_upper": format_bound(o.epsilon_upper, 15, upward=True)})
    gauss = extra.pop("arete_gauss", [])
    fams = _family_rows(args, eps_values or [])
    if args.json:
        doc = {"sensitivity": args.sensitivity, "objective": args.objective, "figure_4": args.figure_4,
               "rows": [r.as_dict(12) for r in rows]}
        if gauss:
            doc["gauss"] = gauss
        if extra:
            doc["noises"] = {n: rows for n, rows in extra.items()}
        if fams is not None:
            doc["families"] = fams
        doc["notes"] = _left_out_notes(rows, args.sensitivity)
        print(json.dumps(doc, indent=2))
        return 0
    table = [("eps", "noise", "E|Z|", "Var Z", "parameters")]
    for r in rows:
        e = _fmt(r.eps, strip=True)
        for entry in r.entries():
            label = entry.noise + (f" ({args.objective})" if entry.noise == "arete-optimized" else "")
            params = [_parameter_text(k, v) for k, v in entry.parameters.items()]
            if entry.epsilon is not None:
                params.append(f"eps*={_num(entry.epsilon, 8)}")
            table.append((e, label, _fmt(entry.mean_abs), _fmt(entry.variance), " ".join(params)))
    for g in gauss + [r for rows in extra.values() for r in rows]:
        params = " ".join(f"{k}={_fmt(v)}" for k, v in g.items()
                          if k not in ("eps", "noise", "mean_abs", "variance", "epsilon_upper"))
        table.append((_fmt(g["eps"], strip=True), f"{g['noise']} ({args.objective})",
                      _fmt(g["mean_abs"]), _fmt(g["variance"]),
                      f"{params} eps*<={g['epsilon_upper'][:12]}"))
    for f in fams or []:
        if f.get("skipped"):
            table.append((_fmt(f["eps"], strip=True), f["noise"], "-", "-", f"skipped: {f['skipped']}"))
            continue
        params = " ".join(f"{k}={_fmt(v) if k != 'm' and k != 'r' else v}" for k, v in f.items()
                          if k in _FAMILY_PARAMETERS)
        eps_text = "eps* not computed" if f.get("epsilon") is None else f"eps*={_num(f['epsilon'], 8)}"
        table.append((_fmt(f["eps"], strip=True), f["noise"] + _FAMILY_SUFFIX.get(f["noise"], ""),
                      "-" if f.get("mean_abs") is None else _fmt(f["mean_abs"]), _fmt(f["variance"]),
                      f"{params} {eps_text} certified: {'yes' if f.get('certified') else 'no'}"))
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for row in table:
        print("  ".join(c.ljust(w) if i in (0, 1) else c.rjust(w) for i, (c, w) in enumerate(zip(row[:4], widths)))
              + "  " + row[4])
    for line in _left_out_notes(rows, args.sensitivity):
        print(line)
    return 0
