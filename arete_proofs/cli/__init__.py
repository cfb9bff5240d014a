"""Command-line interface: ``arete SUBCOMMAND ...`` (also ``python -m arete_proofs``).

Each subcommand is one function ``run(args) -> int`` registered with
:func:`command`; the options it needs are added by small reusable helpers
(:func:`add_parameter_options`, :func:`add_digits_option`, ...), so a new
subcommand is one decorated function plus, if needed, one helper.

Numbers given on the command line are handed to the library as the original
decimal strings, never through ``float``.  Usage errors and the library's
:class:`ValueError` / :class:`~arete_proofs.PrecisionError` are reported as one
line ``arete: error: ...`` on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import mpmath
from mpmath import mp

from .._validation import MAX_DIGITS, PrecisionError
from .._version import __version__

__all__ = ["main", "build_parser", "format_value", "add_parameter_options", "resolve_parameters"]

PROG = "arete"
DEFAULT_DIGITS = 15
EXIT_USAGE = 2

DESCRIPTION = """\
Arbitrary-precision densities of the Arete distribution
(Pagh & Stausholm, "Infinitely Divisible Noise in the Low Privacy Regime", ALT 2022):

    Z = X1 - X2 + Y,   X1, X2 ~ Gamma(alpha, theta),   Y ~ Laplace(lam).

Every value is printed with --digits significant digits, all of which the
library guarantees (it raises an error rather than print unearned digits).
"""

#: Anything that starts like a negative number (``-0.25``, ``-.5``, ``-1e-8``,
#: ``-inf``) is a value, not an option.  argparse's own test (``-0.25`` yes,
#: ``-1e-8`` no) is widened to this; no option of this CLI looks like a number.
_NEGATIVE_NUMBER = re.compile(r"^-(?:\.?\d|inf(?:inity)?$|nan$)", re.IGNORECASE)


class UsageError(ValueError):
    """A bad combination of command-line options."""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser that reports errors in one line and takes negative numbers as values."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        # argparse consults this (private, long-stable) attribute to decide
        # whether "-1e-8" is an option or a value; tests/test_cli.py guards it.
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def error(self, message):  # noqa: D102 - argparse hook
        raise UsageError(f"{message} (see '{self.prog} --help')")


# --------------------------------------------------------------------------
# Reusable option helpers
# --------------------------------------------------------------------------


@dataclass
class Parameters:
    """Distribution parameters as handed to the library, plus how to report them."""

    alpha: object
    theta: object
    lam: object
    #: JSON description: the strings as given, or rounded values for --paper-eps.
    report: dict[str, str] = field(default_factory=dict)


def add_parameter_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--alpha/--theta/--lam`` or ``--paper-eps [--delta]`` to ``parser``.

    Read them back with :func:`resolve_parameters`.
    """
    group = parser.add_argument_group(
        "distribution parameters",
        "Give either all of --alpha, --theta, --lam, or --paper-eps (optionally with\n"
        "--delta).  Values are decimal strings, parsed exactly at the working precision.",
    )
    group.add_argument("--alpha", metavar="ALPHA", help="Gamma shape alpha > 0")
    group.add_argument("--theta", metavar="THETA", help="Gamma scale theta > 0")
    group.add_argument("--lam", metavar="LAM", help="Laplace scale lambda > 0")
    group.add_argument(
        "--paper-eps",
        metavar="EPS",
        help="use the paper's parameters for privacy parameter EPS (Lemma 3): "
        "alpha = lam = exp(-EPS/4), theta = 4*DELTA/EPS",
    )
    group.add_argument(
        "--delta", metavar="DELTA", help="sensitivity Delta for --paper-eps (default 1)"
    )


def resolve_parameters(args: argparse.Namespace, digits: int, *, delta_for_explicit: bool = False) -> Parameters:
    """Check the parameter options of ``args`` and return the values to use.

    ``delta_for_explicit``: ``--delta`` is also meaningful with ``--alpha/--theta/--lam``
    (a subcommand that takes the sensitivity, such as ``arete epsilon``).
    """
    explicit = {name: getattr(args, name) for name in ("alpha", "theta", "lam")}
    given = [f"--{name}" for name, value in explicit.items() if value is not None]
    if args.paper_eps is not None:
        if given:
            raise UsageError(f"--paper-eps cannot be combined with {', '.join(given)}")
        from ..distributions.params import paper_parameters

        delta = args.delta if args.delta is not None else "1"
        alpha, theta, lam = paper_parameters(args.paper_eps, delta, digits=digits)
        report = {
            "alpha": format_value(alpha, digits + 5),
            "theta": format_value(theta, digits + 5),
            "lam": format_value(lam, digits + 5),
            "paper_eps": args.paper_eps,
            "delta": delta,
        }
        return Parameters(alpha, theta, lam, report)
    if args.delta is not None and not delta_for_explicit:
        raise UsageError("--delta is only meaningful with --paper-eps")
    missing = [f"--{name}" for name, value in explicit.items() if value is None]
    if missing:
        raise UsageError(
            f"the following arguments are required: {', '.join(missing)} (or use --paper-eps)"
        )
    return Parameters(**explicit, report=dict(explicit))


def add_digits_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--digits D`` (significant digits of every printed value)."""
    parser.add_argument(
        "--digits",
        metavar="D",
        type=int,
        default=DEFAULT_DIGITS,
        help=f"significant digits of the output, 1..{MAX_DIGITS} (default {DEFAULT_DIGITS}); "
        "every printed digit is guaranteed",
    )


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--json`` (one JSON document instead of text lines)."""
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON document; numbers are strings so no digit is lost",
    )


def format_value(x, digits: int) -> str:
    """Format ``x`` with exactly ``digits`` significant digits; ``inf``/``-inf`` for infinities.

    >>> format_value(mpmath.mpf(1) / 3, 5), format_value(mpmath.mpf("2.5e-30"), 3)
    ('0.33333', '2.50e-30')
    >>> format_value(mpmath.inf, 15), format_value(mpmath.mpf(1), 4)
    ('inf', '1.000')
    >>> with mpmath.workdps(30):
    ...     third = mpmath.mpf(1) / 3
    >>> format_value(third, 25)  # all digits of x, whatever mpmath.mp.dps is now
    '0.3333333333333333333333333'

    """
    if not isinstance(x, mpmath.mpf):
        with mp.workdps(digits + 10):  # never round through the global precision
            x = mp.mpf(x)
    if mp.isinf(x):
        return "inf" if x > 0 else "-inf"
    if mp.isnan(x):
        return "nan"
    return mpmath.nstr(x, digits, strip_zeros=False)


# --------------------------------------------------------------------------
# Subcommands
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Command:
    name: str
    help: str
    description: str
    options: tuple[Callable[[argparse.ArgumentParser], None], ...]
    run: Callable[[argparse.Namespace], int]


_COMMANDS: list[_Command] = []


def command(name: str, *, help: str, description: str = "", options=()):
    """Register ``run(args) -> int`` as subcommand ``name``.

    ``options`` are functions ``f(parser)`` that add the subcommand's arguments.
    """

    def register(run):
        _COMMANDS.append(_Command(name, help, description or help, tuple(options), run))
        return run

    return register


def _density_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cdf", action="store_true", help="print the CDF P(Z <= t) instead of the density"
    )
    parser.add_argument(
        "--certified", action="store_true",
        help="print a ball [mid +/- rad] that provably contains f_A(t) (arb ball arithmetic, "
        "relative radius <= 10^-D; extra 'certified': python-flint; 0 < alpha < 1, finite t)",
    )
    parser.add_argument(
        "points",
        metavar="T",
        nargs="+",
        help="points t (decimal strings; negative values and inf/-inf are allowed)",
    )


@command(
    "density",
    help="density (or CDF) of Arete(alpha, theta, lam) at given points",
    description=DESCRIPTION
    + """
Prints one line per point: the point as given, then the value.  Examples:

    arete density --alpha 0.5 --theta 1 --lam 0.5 -0.25 0 0.5
    arete density --paper-eps 20 --digits 30 --cdf 0 1
    arete density --paper-eps 20 --json 0.5
    arete density --alpha 0.5 --theta 2 --lam 0.5 --certified 0 1
""",
    options=(add_parameter_options, add_digits_option, add_output_options, _density_arguments),
)
def density(args: argparse.Namespace) -> int:
    """``arete density``: print f_A(t) (or the CDF) at each point."""
    from ..distributions import arete

    digits = args.digits
    params = resolve_parameters(args, digits)
    if args.certified:
        return _certified_density(args, params, digits)
    quantity = "cdf" if args.cdf else "pdf"
    fn = arete.cdf if args.cdf else arete.pdf
    values = fn(list(args.points), params.alpha, params.theta, params.lam, digits=digits)
    texts = [format_value(v, digits) for v in values]
    if args.json:
        doc = {
            "distribution": "arete",
            **{k: params.report[k] for k in ("alpha", "theta", "lam")},
            **{k: v for k, v in params.report.items() if k not in ("alpha", "theta", "lam")},
            "digits": digits,
            "quantity": quantity,
            "points": [{"t": t, "value": v} for t, v in zip(args.points, texts)],
        }
        print(json.dumps(doc, indent=2))
    else:
        width = max(len(t) for t in args.points)
        for t, v in zip(args.points, texts):
            print(f"{t:<{width}}  {v}")
    return 0


def _need_flint(option: str):
    try:
        import flint  # noqa: F401
    except ImportError:
        raise UsageError(f"{option} needs python-flint: pip install 'arete-proofs[certified]'") from None


def _certified_density(args: argparse.Namespace, params: Parameters, digits: int) -> int:
    """``arete density --certified``: one arb ball per point."""
    _need_flint("--certified")
    if args.cdf:
        raise UsageError("--certified gives the density only (not with --cdf)")
    from ..certified.density import pdf_ball

    balls = [pdf_ball(t, params.alpha, params.theta, params.lam, digits=digits) for t in args.points]
    texts = [b.str(digits + 2, radius=True) for b in balls]
    if args.json:
        doc = {"distribution": "arete", **params.report, "digits": digits, "quantity": "pdf",
               "certified": True,
               "points": [{"t": t, "ball": x, "lower": b.lower().str(digits + 3, radius=False),
                           "upper": b.upper().str(digits + 3, radius=False)}
                          for t, x, b in zip(args.points, texts, balls)]}
        print(json.dumps(doc, indent=2))
    else:
        width = max(len(t) for t in args.points)
        for t, x in zip(args.points, texts):
            print(f"{t:<{width}}  {x}")
    return 0


def _verify_arguments(parser: argparse.ArgumentParser) -> None:
    from ..chain.grids import LEVELS
    from ..chain.registry import STATEMENT_IDS
    from ..chain.verify import DEFAULT_DIGITS as VERIFY_DIGITS

    parser.add_argument("--statement", metavar="ID", action="append", choices=STATEMENT_IDS,
                        help="check only this statement (repeatable); one of: " + ", ".join(STATEMENT_IDS))
    parser.add_argument("--grid", choices=LEVELS, default="default",
                        help="grid size: quick (seconds), default, fine (default: default)")
    parser.add_argument("--digits", metavar="D", type=int, default=VERIFY_DIGITS,
                        help=f"digits of the first evaluation of each point (default {VERIFY_DIGITS}); "
                        "points within the numerical error are re-evaluated at higher precision")
    parser.add_argument("--workers", metavar="N", type=int, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="send the grid points to the Dask scheduler at ADDRESS (extra 'dask')")
    parser.add_argument("--json", metavar="FILE", help="write the full report as JSON to FILE")
    parser.add_argument("--baseline", metavar="FILE",
                        help="compare with a saved report; fail on a violation or a changed minimum slack")
    parser.add_argument("--tolerance", metavar="T", type=float, default=1e-6,
                        help="relative tolerance of --baseline on the minimum slack (default 1e-6)")
    parser.add_argument("--symbolic", action="store_true",
                        help="also run the sympy proofs of the algebraic steps")
    parser.add_argument("--observations", action="store_true",
                        help="also check the paper's literal statements listed as observations (errata)")
    parser.add_argument("--certified", action="store_true",
                        help="also run the ball-arithmetic certificates of the closed-form statements "
                        "(extra 'certified': python-flint)")
    parser.add_argument("--no-progress", action="store_true", help="no progress lines on stderr")


def _short(value: str) -> str:
    import sympy as sp

    try:
        expr = sp.sympify(value)
    except (sp.SympifyError, TypeError):
        return value
    if expr.is_Integer or (expr.is_Rational and len(value) <= 8) or len(value) <= 8:
        return value
    return mpmath.nstr(mpmath.mpf(sp.N(expr, 20)), 4)


def _where(argmin: dict) -> str:
    if not argmin:
        return "-"
    skip = ("bound", "lhs", "rhs", "digits")
    point = ", ".join(f"{k}={_short(v)}" for k, v in argmin.items() if k not in skip)
    return f"{argmin.get('bound', '')}: {point}"


def _slack_text(x) -> str:
    if isinstance(x, str):
        return x
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return f"{x:.4g}"


def _run_certificates(statement_ids):
    """Run the registry's certificates (``arete verify --certified``)."""
    import importlib.util

    if importlib.util.find_spec("flint") is None:
        raise UsageError("--certified needs python-flint: pip install 'arete-proofs[certified]'")
    from ..certified import statements as certified
    from ..chain.registry import REGISTRY, STATEMENT_IDS

    out = []
    for sid in statement_ids or STATEMENT_IDS:
        for name in REGISTRY[sid].certificates:
            c = getattr(certified, name)()
            m = c.min_margin()
            out.append({"id": sid, "function": name, "statement": c.statement, "inequality": c.inequality,
                        "holds": c.holds, "boxes": len(c.boxes),
                        "min_margin": None if m is None else float(m),
                        "undecided_or_refuted_box": None if c.undecided_or_refuted_box is None
                        else {k: [str(x) for x in v] for k, v in c.undecided_or_refuted_box.items()},
                        "seconds": round(c.seconds, 3), "argument": c.argument})
    return out


@command(
    "verify",
    help="check the paper's proof chain statement by statement over parameter grids",
    description="""\
Checks every bound of the paper's statements (Lemmas 2, 3, 14-19, 26-28, Claim 1,
Note 2) at every point of a grid built from the statement's hypotheses, and prints
per statement: points checked, violations, minimum slack ln(rhs/lhs) and where it
occurs.  Exit status 0 only when everything holds (and, with --baseline, no
minimum slack changed).  Examples:

    arete verify --grid quick
    arete verify --workers 2 --symbolic --observations --json report.json
    arete verify --statement lemma-18 --grid fine --digits 30
    arete verify --baseline tests/data/verify_quick_baseline.json --grid quick
""",
    options=(_verify_arguments,),
)
def verify_command(args: argparse.Namespace) -> int:
    """``arete verify``: run the grid checks, print the table, compare with a baseline."""
    from ..chain import verify as V

    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    baseline = V.load_report(args.baseline) if args.baseline else None
    report = V.verify(args.statement, level=args.grid, digits=args.digits, workers=args.workers,
                      dask_address=args.dask, progress=not args.no_progress)
    if args.symbolic:
        from ..chain import symbolic

        report.symbolic = [dataclasses.asdict(r) for r in symbolic.run()]
    if args.observations:
        from ..chain import observations

        report.observations = [dataclasses.asdict(o) for o in observations.run(digits=args.digits)]
    if args.certified:
        report.certified = _run_certificates(args.statement)
    from ..chain.registry import REGISTRY

    rows = [("id", "statement", "checks", "points", "violations", "tight", "min slack", "where")]
    for s in report.statements:
        rows.append((s.id, s.number, REGISTRY[s.id].check_kinds, str(s.points), str(s.violations),
                     str(s.tight), _slack_text(s.min_slack), _where(s.argmin)))
    widths = [max(len(r[i]) for r in rows) for i in range(7)]
    for r in rows:
        print("  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(r[:7], widths)))
              + "  " + r[7])
    for s in report.statements:
        for e in s.grid_errors[:3]:
            print(f"GRID ERROR {s.id}: {e['point']} violates {', '.join(e['hypotheses'])}")
        for b in s.bounds:
            for ex in b.examples[:3]:
                print(f"VIOLATION {s.id} [{b.name}] at {ex['point']}: lhs = {ex['lhs']}, rhs = {ex['rhs']}")
    if report.symbolic:
        print()
        for r in report.symbolic:
            print(f"symbolic {r['id']:<28} {'holds' if r['holds'] else 'FAILS'}  {r['title']}")
    if report.certified:
        print()
        for c in report.certified:
            verdict = {True: "certified", False: "REFUTED", None: "UNDECIDED"}[c["holds"]]
            print(f"certificate {c['function']:<28} {verdict:<10} {c['statement']}: {c['inequality']} "
                  f"({c['boxes']} boxes, min margin {c['min_margin']})")
    if report.observations:
        print()
        for o in report.observations:
            print(f"observation {o['id']:<24} {o['verdict']:<9} {o['literal']}")
    print(f"\n{sum(s.points for s in report.statements)} checks on the {report.grid} grid in "
          f"{report.wall_seconds:.1f} s with {args.workers} worker(s)"
          + (f" on Dask at {args.dask}" if args.dask else ""))
    status = 0 if report.ok else 1
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report.to_json(), fh, indent=1)
    if baseline is not None:
        problems = V.compare_baseline(report, baseline, args.tolerance)
        for p in problems:
            print(f"BASELINE {p}")
        if problems:
            status = 1
        else:
            print(f"baseline {args.baseline}: no regression (tolerance {args.tolerance:g})")
    print("all statements hold" if status == 0 else "FAILED", file=sys.stderr if status == 0 else sys.stdout)
    return status


def _epsilon_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--digits", metavar="D", type=int, default=12,
                        help="significant digits of epsilon, 1..40 (default 12); every printed digit is certified")
    parser.add_argument("--json", action="store_true", help="print one JSON document (numbers as strings)")


@command(
    "epsilon",
    help="tight epsilon of Arete noise: sup over t of ln f_A(t)/f_A(t + Delta)",
    description="""\
Prints the tight privacy parameter of Arete(alpha, theta, lam) noise for queries of
sensitivity DELTA (default 1): epsilon = sup_t ln f_A(t)/f_A(t + DELTA) (Section 4.2,
Corollary 5), certified to --digits digits over the whole line, and the point t_star
where the supremum is attained (inf when it is only approached in the tail).  Examples:

    arete epsilon --alpha 0.07559007048913552 --theta 0.6295929433519876 --lam 0.05453349704921005
    arete epsilon --paper-eps 20 --delta 10 --digits 20 --json
""",
    options=(add_parameter_options, _epsilon_arguments),
)
def epsilon_command(args: argparse.Namespace) -> int:
    """``arete epsilon``: the tight epsilon and its maximiser."""
    from ..privacy import tight as privacy

    params = resolve_parameters(args, args.digits + 10, delta_for_explicit=True)
    delta = args.delta if args.delta is not None else "1"
    r = privacy.tight_epsilon(params.alpha, params.theta, params.lam, delta, digits=args.digits)
    eps_text = format_value(r.epsilon, args.digits)
    t_text = format_value(r.t_star, min(args.digits, 15))
    if args.json:
        doc = {**params.report, "delta": delta, "digits": args.digits, "epsilon": eps_text,
               "t_star": t_text, "attained": r.attained, "method": r.method,
               "lower_bound": format_value(r.lower_bound, args.digits + 3),
               "upper_bound": format_value(r.upper_bound, args.digits + 3),
               "tail_limit": format_value(r.tail_limit, args.digits)}
        print(json.dumps(doc, indent=2))
    else:
        print(f"epsilon {eps_text}")
        print(f"t_star {t_text}")
    return 0


def _certify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", metavar="EPS",
                        help="exit 0 only if the certified bound is at most EPS (stops refining once it is)")
    parser.add_argument("--tol", metavar="TOL", default="1e-4",
                        help="refine until the certified upper and lower bounds are within TOL (default 1e-4)")
    parser.add_argument("--workers", metavar="N", type=int, default=1,
                        help="processes evaluating the certified densities (default 1)")
    parser.add_argument("--max-seconds", metavar="S", type=float, default=1200,
                        help="stop refining after S seconds; the bound printed is still certified (default 1200)")
    parser.add_argument("--no-numeric", action="store_true",
                        help="do not compute the engine's tight epsilon for comparison")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


@command(
    "certify",
    help="prove an upper bound on the tight epsilon in ball arithmetic (extra 'certified')",
    description="""\
Proves epsilon* <= BOUND for Arete(alpha, theta, lam) noise and sensitivity DELTA
(default 1), where epsilon* = sup_t ln f_A(t)/f_A(t + DELTA) is the tight epsilon, using
arb ball enclosures of f_A on a cover of [0, T] and a certified tail bound for t >= T
(arete_proofs.certified.epsilon).  With --paper-eps the parameters are the exact
e^(-EPS/4) (as a ball) and 4*DELTA/EPS.  Prints the certified bound, a certified lower bound,
the engine's tight epsilon and the gap, the cover size and the time.  With --target,
the exit status is 0 only if the certified bound is at most the target (1 otherwise).
Examples:

    arete certify --alpha 0.07559007048913552 --theta 0.6295929433519876 --lam 0.05453349704921005 --target 6
    arete certify --paper-eps 20 --delta 10 --json
""",
    options=(add_parameter_options, _certify_arguments),
)
def certify_command(args: argparse.Namespace) -> int:
    """``arete certify``: certified upper bound on the tight epsilon."""
    _need_flint("arete certify")
    from ..certified.epsilon import certify_epsilon

    params = resolve_parameters(args, 30, delta_for_explicit=True)
    delta = args.delta if args.delta is not None else "1"
    alpha, theta, lam = params.alpha, params.theta, params.lam
    if args.paper_eps is not None:
        # the exact paper parameters: e^{-eps/4} as a 128-bit ball, theta = 4 Delta/eps as a fraction
        from flint import ctx

        from ..certified.density import _arb, exact_parameter

        e, d = exact_parameter(args.paper_eps, "--paper-eps"), exact_parameter(delta, "--delta")
        old, ctx.prec = ctx.prec, 128
        try:
            alpha = lam = (-_arb(e) / 4).exp()
        finally:
            ctx.prec = old
        theta = 4 * d / e
    r = certify_epsilon(alpha, theta, lam, delta, tol=args.tol, target=args.target,
                        workers=args.workers, numeric=not args.no_numeric, max_seconds=args.max_seconds,
                        progress=not args.quiet)
    ok = r.target is None or r.meets_target
    if args.json:
        doc = {**params.report, "delta": delta, **{k: v for k, v in r.to_dict().items()
                                                    if k not in ("alpha", "theta", "lam", "Delta")},
               "exact_parameters": {"alpha": r.alpha, "theta": r.theta, "lam": r.lam, "Delta": r.Delta}}
        print(json.dumps(doc, indent=2, default=str))
    else:
        print(f"certified bound  epsilon* <= {r.upper!r}")
        if r.lower is not None:
            print(f"certified lower  epsilon* >= {r.lower!r}  (at t = {r.t_star!r})")
        if r.numeric is not None:
            print(f"numeric tight    epsilon* =  {r.numeric!r}  (gap {r.gap:.3g})")
        print(f"method           {r.method}: {r.argument}")
        if r.method == "cover":
            print(f"cover            {r.cells} cells on [0, {r.T!r}], tail bound {r.tail!r} for t >= T, "
                  f"{r.evaluations} certified density evaluations")
        print(f"time             {r.seconds:.1f} s")
        if r.target is not None:
            print(f"target           {r.target!r}: {'met' if r.meets_target else 'NOT met'}")
    return 0 if ok else 1


def _target_arguments(parser: argparse.ArgumentParser, many: bool = False) -> None:
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--epsilon", metavar="E", nargs="+" if many else None,
                       help="target privacy parameter eps > 0" + (" (one or more)" if many else ""))
    group.add_argument("--paper-eps", metavar="E", nargs="+" if many else None,
                       help="as --epsilon, and also show the paper's parameters (Lemma 3) at that eps")
    parser.add_argument("--delta", metavar="DELTA", default="1", help="sensitivity Delta > 0 (default 1)")
    parser.add_argument("--objective", choices=("mean_abs", "variance"), default="mean_abs",
                        help="minimise E|Z| (default) or Var Z")
    parser.add_argument("--json", action="store_true", help="print one JSON document (numbers as strings)")


def _num(x, digits=12):
    return format_value(x, digits)


@command(
    "optimize",
    help="Arete parameters minimising E|Z| (or Var Z) subject to a tight epsilon <= target",
    description="""\
Finds (alpha, theta, lam) minimising E|Z| (--objective mean_abs) or Var Z
(--objective variance) subject to tight_epsilon(alpha, theta, lam, DELTA) <= E, the
exact (certified) tight epsilon of the noise.  Prints alpha, theta, lam, the exact
epsilon reached, E|Z| and Var Z.  Examples:

    arete optimize --epsilon 8
    arete optimize --epsilon 6 --delta 2 --objective variance --json
""",
    options=(_target_arguments,),
)
def optimize_command(args: argparse.Namespace) -> int:
    """``arete optimize``: the best Arete parameters for a target epsilon."""
    from ..privacy import errors, optimize

    target = args.epsilon if args.epsilon is not None else args.paper_eps
    o = optimize.optimize(target, args.delta, objective=args.objective)
    lines = {"alpha": repr(o.alpha), "theta": repr(o.theta), "lam": repr(o.lam),
             "epsilon": _num(o.epsilon), "mean_abs": _num(o.mean_abs), "variance": _num(o.variance)}
    extra = {}
    if args.paper_eps is not None:
        p = errors.paper_errors(target, args.delta)
        extra = {"paper_" + k: (_num(v) if not isinstance(v, str) else v) for k, v in p.parameters.items()}
        extra.update(paper_mean_abs=_num(p.mean_abs), paper_variance=_num(p.variance),
                     paper_lemma3_applies=str(p.lemma3_applies).lower())
    if args.json:
        print(json.dumps({"target": target, "delta": args.delta, "objective": args.objective, **lines,
                          **extra, "seconds": round(o.seconds, 2)}, indent=2))
    else:
        for k, v in {**lines, **extra}.items():
            print(f"{k} {v}")
    return 0


@command(
    "compare",
    help="error table: Arete-optimized, Laplace, Staircase and the paper's parameters at a given epsilon",
    description="""\
Prints, for each target epsilon, the exact E|X| and Var X of: Arete with optimized
parameters (tight epsilon <= E, minimising --objective), Laplace (lam = DELTA/E),
Staircase (gamma optimal for E|X| and, separately, for Var X) and Arete with the
paper's parameters where Lemma 3 applies (E >= 20 + 4 ln DELTA, DELTA >= 2/e).
Examples:

    arete compare --epsilon 8
    arete compare --epsilon 6 10 20 --json
""",
    options=(lambda p: _target_arguments(p, many=True),),
)
def compare_command(args: argparse.Namespace) -> int:
    """``arete compare``: the error comparison table."""
    from ..privacy import errors

    eps_values = args.epsilon if args.epsilon is not None else args.paper_eps
    rows = errors.comparison_table(eps_values, args.delta, objective=args.objective)
    if args.json:
        print(json.dumps({"delta": args.delta, "objective": args.objective,
                          "rows": [r.as_dict(12) for r in rows]}, indent=2))
        return 0
    table = [("eps", "noise", "E|X|", "Var X", "parameters")]
    for r in rows:
        e = mpmath.nstr(mpmath.mpf(r.eps), 6)
        if r.arete is not None:
            o = r.arete
            table.append((e, f"arete-optimized ({args.objective})", _num(o.mean_abs, 6), _num(o.variance, 6),
                          f"alpha={o.alpha:.6g} theta={o.theta:.6g} lam={o.lam:.6g} eps*={_num(o.epsilon, 8)}"))
        for label, n in (("laplace", r.laplace), ("staircase", r.staircase), ("arete-paper", r.paper)):
            if n is None:
                continue
            params = " ".join(f"{k}={mpmath.nstr(mpmath.mpf(v), 6) if not isinstance(v, (str, bool)) else v}"
                              for k, v in n.parameters.items())
            table.append((e, label, _num(n.mean_abs, 6), _num(n.variance, 6), params))
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for row in table:
        print("  ".join(c.ljust(w) if i in (0, 1) else c.rjust(w) for i, (c, w) in enumerate(zip(row[:4], widths)))
              + "  " + row[4])
    return 0


def _positive_int(name):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a positive integer, got {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{name} must be a positive integer, got {value}")
        return value

    return parse


def _simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--parties", metavar="N", type=_positive_int("--parties"), required=True,
                        help="parties contributing in every round")
    parser.add_argument("--min-parties", metavar="M", type=_positive_int("--min-parties"), required=True,
                        help="lower bound on the participants the shares are sized for (M <= N)")
    parser.add_argument("--epsilon", metavar="E", required=True, help="privacy parameter eps > 0")
    parser.add_argument("--rounds", metavar="R", type=_positive_int("--rounds"), default=1000,
                        help="simulated rounds (default 1000)")
    parser.add_argument("--seed", metavar="S", type=int, default=None, help="seed of numpy's generator")
    parser.add_argument("--delta", metavar="DELTA", default="1", help="sensitivity: values lie in [0, DELTA] (default 1)")
    parser.add_argument("--alpha", metavar="ALPHA", help="Arete alpha (with --theta and --lam; default: Lemma 3's parameters)")
    parser.add_argument("--theta", metavar="THETA", help="Arete theta")
    parser.add_argument("--lam", metavar="LAM", help="Arete lambda")
    parser.add_argument("--json", action="store_true", help="print the full result as one JSON document")


@command(
    "simulate",
    help="distributed sum: n parties add Arete shares sized for a minimum number of participants",
    description="""\
Simulates the secure-aggregation use of Arete noise (Lemma 10, Appendix A): N parties
with values in [0, DELTA] each add a share of Arete noise sized for M <= N
participants (dropouts down to M keep the designed privacy; more participants only
add noise); the noisy sum is released.  Reports the empirical mean absolute error and
variance over the rounds against the exact ones, and Laplace and Staircase at the
same epsilon.  Examples:

    arete simulate --parties 100 --min-parties 80 --epsilon 10 --rounds 2000 --seed 1
    arete simulate --parties 10 --min-parties 10 --epsilon 6 --alpha 0.0756 --theta 0.63 --lam 0.0545 --json
""",
    options=(_simulate_arguments,),
)
def simulate_command(args: argparse.Namespace) -> int:
    """``arete simulate``: the n-party distributed sum demo."""
    from .. import mechanisms

    if args.min_parties > args.parties:
        raise UsageError(f"--min-parties ({args.min_parties}) must not exceed --parties ({args.parties})")
    given = [x for x in (args.alpha, args.theta, args.lam) if x is not None]
    if given and len(given) != 3:
        raise UsageError("give all of --alpha, --theta, --lam or none (Lemma 3's parameters)")
    kw = dict(params="given", alpha=args.alpha, theta=args.theta, lam=args.lam) if given else {}
    result = mechanisms.simulate(args.parties, args.min_parties, args.epsilon, args.rounds,
                                 seed=args.seed, Delta=args.delta, **kw)
    if args.json:
        print(json.dumps(result, indent=2, default=str))
        return 0
    p = result["params"]
    print(f"parties {result['parties']}  min_parties {result['min_parties']}  eps {result['eps']}  "
          f"Delta {result['Delta']}  rounds {result['rounds']}  seed {result['seed']}")
    print(f"arete alpha {p['alpha']:.6g}  theta {p['theta']:.6g}  lam {p['lam']:.6g}  "
          f"({p['source']}; tight epsilon {p.get('tight_epsilon')})")
    rows = [("noise", "exact E|err|", "empirical E|err|", "exact Var", "empirical Var")]
    for key, label in (("arete", "arete (distributed)"), ("laplace_distributed", "laplace (distributed)"),
                       ("laplace", "laplace (central)"), ("staircase", "staircase (central)")):
        r = result.get(key)
        if r:
            rows.append((label, f"{r['exact_mean_abs']:.6g}",
                         f"{r['empirical_mean_abs']:.6g} +- {r['empirical_mean_abs_se']:.2g}",
                         f"{r['exact_var']:.6g}", f"{r['empirical_var']:.6g} +- {r['empirical_var_se']:.2g}"))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return 0


def _sample_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", metavar="M", type=_positive_int("--size"), required=True, help="number of draws")
    parser.add_argument("--parties", metavar="N", type=_positive_int("--parties"),
                        help="each draw is the sum of N shares (Lemma 10)")
    parser.add_argument("--seed", metavar="S", type=int, required=True, help="seed of numpy's generator")
    parser.add_argument("--out", metavar="FILE", required=True, help="output .npy file (float64 array)")


@command(
    "sample",
    help="draw Arete samples (optionally as sums of n-party shares) into a .npy file",
    description="""\
Writes M float64 draws of Arete(alpha, theta, lam) to FILE (numpy .npy); with
--parties N each draw is the sum of N shares Gamma(alpha/N, theta) - Gamma(alpha/N, theta)
+ Gamma(1/N, lam) - Gamma(1/N, lam).  Same seed, same file.  Continuous noise drawn
in floating point is open to precision attacks (Mironov 2012): use it for analysis,
not for a production release.  Examples:

    arete sample --alpha 0.1 --theta 1 --lam 0.1 --size 100000 --seed 1 --out z.npy
    arete sample --paper-eps 20 --size 10000 --parties 1000 --seed 2 --out shares.npy
""",
    options=(add_parameter_options, _sample_arguments),
)
def sample_command(args: argparse.Namespace) -> int:
    """``arete sample``: write draws to a .npy file."""
    from ..mechanisms import sampling

    params = resolve_parameters(args, DEFAULT_DIGITS)
    values = [float(mp.mpf(v)) if isinstance(v, mpmath.mpf) else v for v in (params.alpha, params.theta, params.lam)]
    z = sampling.sample(*values, args.size, seed=args.seed, parties=args.parties)
    path = sampling.save_samples(args.out, z)
    print(f"wrote {z.size} draws to {path}")
    return 0


# --------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``arete`` argument parser with every registered subcommand."""
    parser = _Parser(prog=PROG, description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for cmd in _COMMANDS:
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description)
        for add in cmd.options:
            add(p)
        p.set_defaults(run=cmd.run)
    return parser


def _error(message: str) -> int:
    message = " ".join(str(message).split()) or "unknown error"
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``) and return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.run(args)
    except SystemExit as exc:  # --help / --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except (ValueError, PrecisionError) as exc:
        return _error(exc)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
