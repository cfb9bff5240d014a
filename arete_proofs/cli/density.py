"""``arete density``: the density (or CDF) of Arete(alpha, theta, lam) at given points.

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

from ._common import (
    DESCRIPTION,
    Parameters,
    UsageError,
    add_digits_option,
    add_output_options,
    add_parameter_options,
    add_sigma_option,
    command,
    format_bound,
    format_value,
    need_flint,
    resolve_parameters,
)


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
    arete density --alpha 0.014727 --theta 0.85419 --lam 0 --sigma 0.027054 0 0.5

--sigma S adds a Gaussian part N(0, S^2) (beyond the paper, any alpha > 0;
--lam 0 is allowed then); not with --certified yet.
""",
    options=(add_parameter_options, add_sigma_option, add_digits_option, add_output_options,
             _density_arguments),
)
def density(args: argparse.Namespace) -> int:
    """``arete density``: print f_A(t) (or the CDF) at each point."""
    from ..distributions import arete, arete_gauss

    digits = args.digits
    params = resolve_parameters(args, digits)
    if args.certified:
        if params.sigma != 0:
            raise UsageError("--certified densities do not take --sigma yet (give --sigma 0 or drop --certified)")
        return _certified_density(args, params, digits)
    quantity = "cdf" if args.cdf else "pdf"
    if params.sigma != 0:
        fn = arete_gauss.cdf if args.cdf else arete_gauss.pdf
        values = fn(list(args.points), params.alpha, params.theta, params.lam, params.sigma, digits=digits)
    else:
        fn = arete.cdf if args.cdf else arete.pdf
        values = fn(list(args.points), params.alpha, params.theta, params.lam, digits=digits)
    texts = [format_value(v, digits) for v in values]
    if args.json:
        doc = {
            "distribution": "arete",
            **{k: params.report[k] for k in ("alpha", "theta", "lam", "sigma") if k in params.report},
            **{k: v for k, v in params.report.items() if k not in ("alpha", "theta", "lam", "sigma")},
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


def _certified_density(args: argparse.Namespace, params: Parameters, digits: int) -> int:
    """``arete density --certified``: one arb ball per point."""
    need_flint("--certified")
    if args.cdf:
        raise UsageError("--certified gives the density only (not with --cdf)")
    from ..certified.density import pdf_ball

    balls = [pdf_ball(t, params.alpha, params.theta, params.lam, digits=digits) for t in args.points]
    texts = [b.str(digits + 2, radius=True) for b in balls]
    if args.json:
        doc = {"distribution": "arete", **params.report, "digits": digits, "quantity": "pdf",
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
