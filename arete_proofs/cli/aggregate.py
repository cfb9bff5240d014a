"""``arete aggregate``: secure aggregation with exact integer shares, designed for a target epsilon under dropouts.

The library API is :mod:`arete_proofs.mechanisms.aggregate` (design, guarantee, simulation); this module
parses the options, prints the report and the JSON document.  Shared options: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

from ._common import UsageError, check_draws, check_number_text, command


def _int_option(name, lo=1):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= {lo}, got {text!r}") from None
        if value < lo:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= {lo}, got {value}")
        return value

    return parse


def _aggregate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--noise", choices=("gdl", "dlap"), default="gdl",
                        help="gdl: GDL(beta, a) of least E|N| at the target (default); dlap: DLap(eps/Delta)")
    parser.add_argument("--epsilon", metavar="E", required=True, help="target epsilon (> 0) of the released sum")
    parser.add_argument("--parties", metavar="N", type=_int_option("--parties"), required=True,
                        help="parties contributing a value and a share")
    parser.add_argument("--dropout", metavar="F", default="0",
                        help="fraction of the parties that may drop out, in [0, 1) (default 0): the shares are sized "
                             "for the floor(F N) fewest survivors")
    parser.add_argument("--modulus", metavar="Q", default="2**32",
                        help="modulus q of the secure aggregation (an integer, 2**K or 2^K; default 2**32)")
    parser.add_argument("--sensitivity", metavar="D", type=_int_option("--sensitivity"), default=1,
                        help="integer sensitivity Delta >= 1: each value is in [0, Delta] (default 1)")
    parser.add_argument("--rounds", metavar="R", type=_int_option("--rounds"), default=100,
                        help="rounds simulated with exact shares (default 100)")
    parser.add_argument("--seed", metavar="S", type=_int_option("--seed", 0), default=None,
                        help="seed a random.Random as the bit source (reproducible; for tests, not a release); "
                             "default: the operating system's CSPRNG (secrets.SystemRandom)")
    parser.add_argument("--digits", metavar="D", type=_int_option("--digits"), default=12,
                        help="significant digits of the printed epsilons and probabilities (default 12)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


@command(
    "aggregate",
    help="secure aggregation with exact integer shares: design for a target eps under dropouts, simulate, report",
    description="""\
Designs the noise shares of a secure aggregation modulo Q for a target epsilon and a
tolerated dropout fraction F, simulates R rounds with exact shares (drawn from fair bits,
no floating point on random values), and prints what is guaranteed:

  * the design: GDL(beta, a) of least E|N| whose exact tight epsilon at sensitivity
    Delta is at most the target (--noise dlap: DLap(eps/Delta)), split for the
    N - floor(F N) fewest survivors: each party adds GDL(beta/(N - floor(F N)), a);
  * epsilon guaranteed after floor(F N) dropouts: the exact tight epsilon of the
    survivors' noise, and of the released residue's wrapped law (exact for Q <= 20000,
    else an enclosure: post-processing above, a wrapped loss below); fewer dropouts
    only add noise;
  * the exact E|N| and the exact probability that decoding wraps around, the
    empirical error and wrap-arounds of the simulated rounds, and the share draws
    per second.

Ranges: 0 < E <= 100, 1 <= Delta <= 10000, E/Delta >= 0.001.  The gdl design runs the
optimiser (seconds; minutes at a small E/Delta, where --noise dlap is immediate); at
Delta = 1 it is DLap(E), the discrete staircase, least E|N| of all E-DP integer noise.

Each simulated round: every party holds a value uniform on {0..Delta}; floor(F N) of
them drop out; the others send (value + share) mod Q; the server adds the residues
mod Q and decodes in a window of width Q centred on the survivors' possible sums.
Examples:

    arete aggregate --noise gdl --epsilon 8 --parties 1000 --dropout 0.1 --modulus 2**32
    arete aggregate --epsilon 1 --parties 100 --dropout 0.2 --sensitivity 10 --rounds 1000 --json
""",
    options=(_aggregate_arguments,),
)
def aggregate_command(args: argparse.Namespace) -> int:
    """``arete aggregate``: design, guarantee, simulate."""
    from ..mechanisms import aggregate as agg

    check_number_text(args.epsilon, "--epsilon")
    check_number_text(args.dropout, "--dropout")
    check_draws(args.rounds * args.parties, f"--rounds {args.rounds} x --parties {args.parties}")
    try:
        agg.parse_modulus(args.modulus)
    except ValueError as exc:
        raise UsageError(f"--modulus: {exc}") from None
    if args.digits > 30:
        raise UsageError(f"--digits must be at most 30, got {args.digits}")
    rng = args.seed  # None: secrets.SystemRandom (mechanisms.exact.bits)
    # a run over 10 s gets main()'s heartbeat on stderr
    r = agg.aggregate(args.epsilon, args.parties, args.dropout, noise=args.noise, Delta=args.sensitivity,
                      modulus=args.modulus, rounds=args.rounds, rng=rng, digits=args.digits)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    d = r["design"]
    wrapped = (f"{r['epsilon_wrapped_upper']}" if r["epsilon_wrapped_exact"]
               else f"in [{r['epsilon_wrapped_lower']}, {r['epsilon_wrapped_upper']}]")
    lines = [
        f"noise {r['noise']}: GDL({d['beta']}, {d['a']}) for {r['min_survivors']} survivors; "
        f"each of {r['parties']} parties adds {d['share']}",
        f"  ({d['how']})",
        f"dropouts tolerated: {r['tolerated_dropouts']} of {r['parties']} (fraction {r['dropout']}); "
        f"modulus {r['modulus']}, sensitivity {r['sensitivity']}",
        f"epsilon target            {r['epsilon_target']:g}",
        f"epsilon guaranteed        {r['epsilon_guaranteed']}   (exact tight eps of {r['survivors_law']}, "
        f"the survivors' noise after {r['tolerated_dropouts']} dropouts)",
        f"  of the released residue {wrapped}   ({r['epsilon_wrapped_method']})",
        f"  with no dropout         {r['epsilon_no_dropout']}",
        f"error E|N|                {r['exact_mean_abs']} exact; {r['mean_abs_error']:.6g} over {r['rounds']} rounds",
        f"wrap-around probability   {r['wrap_probability']} exact (worst true sum); "
        f"{r['empirical_wraps']} in {r['rounds']} rounds",
        f"share draws per second    {r['draws_per_second']:.3g} (exact, {r['share_draws']} shares; "
        f"{'seeded random.Random' if rng is not None else 'secrets.SystemRandom'})",
    ]
    print("\n".join(lines))
    return 0
