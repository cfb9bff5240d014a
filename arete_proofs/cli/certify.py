"""``arete certify``: a certified upper bound on the tight epsilon (extra ``certified``).

Runs :func:`arete_proofs.certified.epsilon.certify_epsilon`, or with ``--sigma S > 0``
(a Gaussian part, beyond the paper)
:func:`arete_proofs.certified.gauss.certify_epsilon_gauss`; the numeric tight
epsilon alone is ``arete epsilon`` (:mod:`arete_proofs.cli.epsilon`).  Shared
options and the registry: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

from ._common import UsageError, command, format_bound, format_value, need_flint, positive_option
from ._noise import add_noise_options, resolve_noise

#: Digits of the engine's tight epsilon ``certify_epsilon`` reports as ``numeric``
#: (it calls ``tight_epsilon(..., digits=10)``); printed with exactly these digits.
NUMERIC_DIGITS = 10
#: Digits of the Gaussian-part tight epsilon ``certify_epsilon_gauss`` reports as ``numeric``
#: (``tight_gauss.tight_epsilon(..., digits=8)``).
GAUSS_NUMERIC_DIGITS = 8
#: Digits of the certified bounds in the text output, rounded outward (a bound stays a bound).
BOUND_DIGITS = 15


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


def _gap_text(gap, numeric, digits=NUMERIC_DIGITS) -> str:
    """The gap bound - numeric with 2 digits, or, when it is not 10 times the numeric value's
    error bound (relative 10^-NUMERIC_DIGITS), only that bound: its digits would be noise.

    >>> _gap_text(2.5e-4, 6.0), _gap_text(1e-14, 14.25)
    ('gap 0.00025', 'gap below 1.5e-8, the accuracy of the numeric value')
    """
    accuracy = abs(numeric) * 10.0 ** -digits
    if abs(gap) <= 10 * accuracy:
        return f"gap below {format_bound(10 * accuracy, 2, upward=True)}, the accuracy of the numeric value"
    return f"gap {gap:.2g}"


@command(
    "certify",
    help="prove an upper bound on the tight epsilon in ball arithmetic (extra 'certified')",
    description="""\
Proves epsilon* <= BOUND for Arete(alpha, theta, lam) noise and sensitivity S
S (--sensitivity, default 1), where epsilon* = sup_t ln f_A(t)/f_A(t + S) is the tight epsilon, using
arb ball enclosures of f_A on a cover of [0, T] and a certified tail bound for t >= T
(arete_proofs.certified.epsilon).  With --paper-eps the parameters are the exact
e^(-EPS/4) (as a ball) and 4*S/EPS.  Prints the certified bound, a certified lower bound,
the engine's tight epsilon and the gap, the cover size and the time.  With --target,
the exit status is 0 only if the certified bound is at most the target (1 otherwise).
Examples:

    arete certify --alpha 0.07559007048913552 --theta 0.6295929433519876 --lam 0.05453349704921005 --target 6
    arete certify --paper-eps 20 --sensitivity 10 --json
    arete certify --alpha 0.014727 --theta 0.85419 --lam 0 --sigma 0.027054 --target 8

--sigma S > 0 adds a Gaussian part N(0, S^2) (beyond the paper; --lam 0 allowed; alpha >= 1
gives the closed form Delta/max(theta, lam) of the log-concave case):
the bound is proved for Z = X1 - X2 + Y + N with ball enclosures of its density
(arete_proofs.certified.gauss), and the numeric value beside it is
arete_proofs.privacy.tight_gauss's (8 digits).  With --sigma, --paper-eps parameters are
their 30-digit values taken as exact rationals (not balls around e^(-EPS/4)).
""",
    options=(add_noise_options, _certify_arguments),
)
def certify_command(args: argparse.Namespace) -> int:
    """``arete certify``: certified upper bound on the tight epsilon."""
    import math

    if not (math.isfinite(args.max_seconds) and args.max_seconds > 0):
        raise UsageError(f"--max-seconds must be a positive finite number, got {args.max_seconds}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    positive_option(args.tol, "--tol")
    if args.target is not None:
        positive_option(args.target, "--target")
    choice = resolve_noise(args, 30, sensitivity_for_explicit=True)   # bad input first, then the extra
    noise = choice.noise
    if "certify" not in noise.supports:
        from ..noise import FAMILIES

        raise UsageError(f"--noise {noise.name}: this family has no certificate of its tight epsilon; the families "
                         "with one: " + ", ".join(n for n, f in FAMILIES.items() if "certify" in f.supports)
                         + " (see 'arete noises')")
    if noise.name != "laplace":  # the Laplace certificate is exact rational arithmetic
        need_flint("arete certify")
    sensitivity = args.sensitivity if args.sensitivity is not None else "1"
    # a noise from --paper-eps is certified for the exact parameters: e^{-eps/4} as a 128-bit ball and
    # theta = 4 Delta/eps as a fraction (arete); with --sigma its 30-digit values, taken exactly
    r = noise.certify(sensitivity, tol=args.tol, target=args.target, workers=args.workers,
                      numeric=not args.no_numeric, max_seconds=args.max_seconds, progress=not args.quiet)
    digits = GAUSS_NUMERIC_DIGITS if noise.name == "arete_gauss" else NUMERIC_DIGITS
    return _report(args, choice, sensitivity, r, numeric_digits=digits)


def _report(args, params, sensitivity, r, *, numeric_digits) -> int:
    """Print the certificate ``r`` (text or ``--json``); the exit status (1: --target not met)."""
    ok = r.target is None or r.meets_target
    numeric = None if r.numeric is None else format_value(r.numeric, numeric_digits)
    if args.json:
        # the certified floats (upper, lower, tail) are exact JSON numbers; "numeric" is the
        # library's float of the engine's value, good to numeric_digits digits
        exact = getattr(r, "exact_parameters", None) or {"alpha": r.alpha, "theta": r.theta, "lam": r.lam,
                                                          "Delta": r.Delta}
        if getattr(r, "sigma", None) is not None:
            exact["sigma"] = r.sigma
        doc = {**params.report, "sensitivity": sensitivity, **{k: v for k, v in r.to_dict().items()
                                                    if k not in ("alpha", "theta", "lam", "Delta", "sigma")},
               "exact_parameters": exact}
        if numeric is not None:
            doc["numeric_digits"] = numeric_digits
        print(json.dumps(doc, indent=2, default=str))
    else:
        print(f"certified bound  epsilon* <= {format_bound(r.upper, BOUND_DIGITS, upward=True)}")
        if r.lower is not None:
            print(f"certified lower  epsilon* >= {format_bound(r.lower, BOUND_DIGITS, upward=False)}"
                  f"  (at t = {r.t_star!r})")
        if numeric is not None:
            print(f"numeric tight    epsilon* =  {numeric}  ({_gap_text(r.gap, r.numeric, numeric_digits)})")
        print(f"method           {r.method}: {r.argument}")
        if r.method == "cover":
            print(f"cover            {r.cells} cells on [0, {r.T!r}], tail bound "
                  f"{None if r.tail is None else format_bound(r.tail, BOUND_DIGITS, upward=True)} for t >= T, "
                  f"{r.evaluations} certified density evaluations")
        print(f"time             {r.seconds:.1f} s")
        if r.target is not None:
            print(f"target           {r.target!r}: {'met' if r.meets_target else 'NOT met'}")
    return 0 if ok else 1
