"""``arete epsilon``: the tight epsilon of Arete noise, the point where it is attained, and the errors.

Computed by :func:`arete_proofs.privacy.tight.tight_epsilon` (through
:func:`arete_proofs.cli._common.tight_epsilon_of`, shared with ``arete simulate``);
E|Z| and Var Z are the closed forms :func:`arete_proofs.distributions.arete.mean_abs`
and :func:`~arete_proofs.distributions.arete.var`.  The ball-arithmetic
proof of an upper bound is ``arete certify`` (:mod:`arete_proofs.cli.certify`).
With ``--sigma S > 0`` (beyond the paper: Z = X1 - X2 + Y + N, N ~ N(0, S^2)) the tight
epsilon is :func:`arete_proofs.privacy.tight_gauss.tight_epsilon` (certified cover, interior
maximiser) and E|Z|, Var Z are :func:`arete_proofs.distributions.arete_gauss.mean_abs` and
:func:`~arete_proofs.distributions.arete_gauss.var`.
Shared options and the registry: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

from ._common import add_quiet_option, command, format_bound, format_value
from ._noise import add_noise_options, tight_epsilon_of


def _epsilon_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--digits", metavar="D", type=int, default=12,
                        help="significant digits of epsilon, 1..40 (default 12); every printed digit is certified")
    parser.add_argument("--json", action="store_true", help="print one JSON document (numbers as strings)")
    add_quiet_option(parser)


@command(
    "epsilon",
    help="tight epsilon of Arete noise (sup over t of ln f_A(t)/f_A(t + Delta)), E|Z| and Var Z "
    "(--sigma: with a Gaussian part)",
    description="""\
Prints the tight privacy parameter of Arete(alpha, theta, lam) noise for queries of
sensitivity S (--sensitivity, default 1): epsilon = sup_t ln f_A(t)/f_A(t + S) (Section 4.2,
Corollary 5), certified to --digits digits over the whole line, the point t_star
where the supremum is attained (inf when it is only approached in the tail), and the
errors of the noise: mean_abs = E|Z| (exact closed form) and variance = Var Z =
2 alpha theta^2 + 2 lam^2 (Lemma 3), both to --digits digits.  Examples:

    arete epsilon --alpha 0.07559007048913552 --theta 0.6295929433519876 --lam 0.05453349704921005
    arete epsilon --paper-eps 20 --sensitivity 10 --digits 20 --json
    arete epsilon --alpha 0.014727 --theta 0.85419 --lam 0 --sigma 0.027054
    arete epsilon --noise laplace --lam 0.25
    arete epsilon --noise staircase --staircase-eps 6 --sensitivity 0.5

--noise NAME: the tight epsilon of another family (its own reduction to the shifts it must
examine; 'arete noises' lists the families).
--sigma S > 0 adds a Gaussian part N(0, S^2) (beyond the paper; --lam 0 allowed): for
alpha < 1 the supremum is then attained at an interior t_star, found and covered by certified
cells (about 40 s at 12 digits; lam > 0 with lam < 2 S often ends in a precision error); for
alpha >= 1 the noise is log-concave and epsilon = sensitivity / max(theta, lam) exactly
(approached as t -> inf: t_star inf); variance = 2 alpha theta^2 + 2 lam^2 + S^2.
""",
    options=(add_noise_options, _epsilon_arguments),
)
def epsilon_command(args: argparse.Namespace) -> int:
    """``arete epsilon``: the tight epsilon and its maximiser."""
    choice, sensitivity, r = tight_epsilon_of(args, args.digits)
    noise = choice.noise
    eps_text = format_value(r.epsilon, args.digits)
    t_text = "none" if r.t_star is None else format_value(r.t_star, min(args.digits, 15))
    mean_abs = format_value(noise.mean_abs(digits=args.digits), args.digits)
    variance = format_value(noise.var(digits=args.digits), args.digits)
    if args.json:
        doc = {**choice.report, "sensitivity": sensitivity, "digits": args.digits, "epsilon": eps_text,
               "t_star": t_text, "attained": r.attained, "method": r.method,
               # certified bounds, rounded outward so that they stay bounds
               "lower_bound": format_bound(r.lower_bound, args.digits + 3, upward=False),
               "upper_bound": format_bound(r.upper_bound, args.digits + 3, upward=True),
               "tail_limit": format_value(r.tail_limit, args.digits),
               "mean_abs": mean_abs, "variance": variance}
        print(json.dumps(doc, indent=2))
    else:
        print(f"epsilon {eps_text}")
        print(f"t_star {t_text}")
        print(f"mean_abs {mean_abs}")
        print(f"variance {variance}")
    return 0
