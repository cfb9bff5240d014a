"""``arete density``: the density (or CDF) of Arete(alpha, theta, lam), or of any noise family, at given points.

With ``--sigma S > 0`` the density (or CDF) of Z = X1 - X2 + Y + N, N ~ N(0, S^2)
(:mod:`arete_proofs.distributions.arete_gauss`, beyond the paper); ``--sigma 0`` is the
paper's Arete, the same output as without the flag.
With ``--certified``, arb balls that provably contain the density
(:mod:`arete_proofs.certified.density`).  Shared options and the registry:
:mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

from .._validation import exact_point
from ._common import (
    DESCRIPTION,
    UsageError,
    add_digits_option,
    add_output_options,
    add_quiet_option,
    check_points,
    command,
    format_bound,
    format_value,
    need_flint,
)
from ._noise import NoiseChoice, add_noise_options, resolve_noise


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
    help="density (or CDF) of Arete(alpha, theta, lam), or of any noise (--noise), at given points",
    description=DESCRIPTION
    + """
Prints one line per point: the point as given, then the value.  Examples:

    arete density --alpha 0.5 --theta 1 --lam 0.5 -0.25 0 0.5
    arete density --paper-eps 20 --digits 30 --cdf 0 1
    arete density --paper-eps 20 --json 0.5
    arete density --alpha 0.5 --theta 2 --lam 0.5 --certified 0 1
    arete density --alpha 0.014727 --theta 0.85419 --lam 0 --sigma 0.027054 0 0.5
    arete density --noise laplace --lam 0.5 0 1
    arete density --noise staircase --staircase-eps 6 0 0.5

--sigma S adds a Gaussian part N(0, S^2) (beyond the paper, any alpha > 0;
--lam 0 is allowed then); not with --certified yet.  --noise NAME evaluates another
family ('arete noises' lists them and their flags).
""",
    options=(add_noise_options, add_digits_option, add_output_options, add_quiet_option, _density_arguments),
)
def density(args: argparse.Namespace) -> int:
    """``arete density``: print the density (or the CDF) at each point."""
    digits = args.digits
    check_points(args.points)
    for t in args.points:   # a point that is no real number (NaN, a word) is refused before the noise is built
        exact_point(t, "point")
    choice = resolve_noise(args, digits)
    noise = choice.noise
    if args.certified:
        if choice.sigma != 0:
            raise UsageError("--certified densities do not take --sigma yet (give --sigma 0 or drop --certified)")
        return _certified_density(args, choice, digits)
    quantity = "cdf" if args.cdf else "pdf"
    fn = noise.cdf if args.cdf else noise.pdf
    values = fn(list(args.points), digits=digits)
    texts = [format_value(v, digits) for v in values]
    if args.json:
        report = choice.report
        params = [k for k in report if k not in ("noise", "paper_eps", "sensitivity")]
        doc = {
            "distribution": noise.name if noise.name not in ("arete", "arete_gauss") else "arete",
            **{k: report[k] for k in params},
            **{k: v for k, v in report.items() if k not in params and k != "noise"},
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


def _endpoint(x, digits: int, *, upward: bool) -> str:
    """An exact arb endpoint (``ball.lower()`` / ``ball.upper()``) rounded outward to ``digits`` digits."""
    import mpmath

    man, exp = x.man_exp()
    with mpmath.workprec(max(64, int(man).bit_length() + 8)):
        value = mpmath.ldexp(mpmath.mpf(int(man)), int(exp))
    return format_bound(value, digits, upward=upward)


def _certified_density(args: argparse.Namespace, choice: NoiseChoice, digits: int) -> int:
    """``arete density --certified``: one arb ball per point."""
    need_flint("--certified")
    if args.cdf:
        raise UsageError("--certified gives the density only (not with --cdf)")
    noise = choice.noise
    if "certified_density" not in noise.supports:
        raise UsageError(f"--certified: noise {noise.name!r} has no certified densities (see 'arete noises')")
    balls = [noise.certified_pdf(t, digits=digits) for t in args.points]
    texts = [b.str(digits + 2, radius=True) for b in balls]
    if args.json:
        doc = {"distribution": noise.name, **choice.report, "digits": digits, "quantity": "pdf",
               "certified": True,
               "points": [{"t": t, "ball": x, "lower": _endpoint(b.lower(), digits + 3, upward=False),
                           "upper": _endpoint(b.upper(), digits + 3, upward=True)}
                          for t, x, b in zip(args.points, texts, balls)]}
        print(json.dumps(doc, indent=2))
    else:
        width = max(len(t) for t in args.points)
        for t, x in zip(args.points, texts):
            print(f"{t:<{width}}  {x}")
    return 0
