"""``arete simulate`` and ``arete sample``: the n-party distributed sum and Arete draws to a file.

Both use :mod:`arete_proofs.mechanisms` and share :func:`_positive_int`.  Both take
``--sigma`` (a Gaussian part, beyond the paper; default 0 gives the same output as no flag).
Shared options and the registry: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json


from .._validation import PrecisionError
from ._common import (
    DEFAULT_DIGITS,
    EPSILON_RANGE,
    UsageError,
    add_quiet_option,
    add_sensitivity_option,
    check_draws,
    check_writable,
    command,
    format_value,
    in_range_option,
    progress,
)
from ._noise import add_noise_options, resolve_noise, tight_epsilon_of

#: Default significant digits of the tight epsilon ``arete simulate`` prints (as
#: ``arete_proofs.mechanisms.AreteMechanism`` computes it by default).
TIGHT_DIGITS = 8


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
    add_sensitivity_option(parser, default="1", help="sensitivity Delta: values lie in [0, Delta] (default 1)")
    add_noise_options(parser, renamed_delta=False, paper=False, sensitivity=False)
    parser.add_argument("--parameters", choices=("optimized", "paper"), default=None,
                        help="without --alpha/--theta/--lam: 'optimized' (default) the optimiser's Arete parameters "
                        "(tight epsilon <= E, least E|Z|; 10-30 s), 'paper' Lemma 3's (private at E but far from "
                        "tight below eps = 20; the default with --sigma)")
    add_quiet_option(parser)
    parser.add_argument("--digits", metavar="D", type=int, default=TIGHT_DIGITS,
                        help=f"significant digits of the tight epsilon, 1..40 (default {TIGHT_DIGITS}); "
                        "every printed digit is certified, the same as 'arete epsilon --digits D'")
    parser.add_argument("--json", action="store_true", help="print the full result as one JSON document")
    parser.add_argument("--dropout", metavar="F[,F...]", default=None,
                        help="fractions of --parties that drop out (e.g. 0.1,0.2,0.3): print the epsilon of the "
                        "sum of the remaining shares (--noise lattice_gauss)")


def _fractions(text):
    """``--dropout`` read: a list of fractions in [0, 1).

    >>> _fractions("0.1, 0.3")
    [0.1, 0.3]
    """
    out = []
    for part in text.split(","):
        try:
            f = float(part)
        except ValueError:
            raise UsageError(f"--dropout must be fractions in [0, 1) separated by commas, got {text!r}") from None
        if not 0 <= f < 1:
            raise UsageError(f"--dropout: each fraction must be in [0, 1), got {part.strip()!r}")
        out.append(f)
    return out


@command(
    "simulate",
    help="distributed sum: n parties add Arete shares sized for a minimum number of participants",
    description="""\
Simulates the secure-aggregation use of Arete noise (Lemma 10, Appendix A): N parties
with values in [0, S] each add a share of Arete noise sized for M <= N
participants (dropouts down to M keep the designed privacy; more participants only
add noise); the noisy sum is released.  Reports the empirical mean absolute error and
variance over the rounds against the exact ones, and Laplace and Staircase at the
same epsilon, and the tight epsilon of the designed Arete noise to --digits digits
(the same digits as 'arete epsilon' prints for these parameters).  Examples:

    arete simulate --parties 100 --min-parties 80 --epsilon 10 --rounds 2000 --seed 1
    arete simulate --parties 10 --min-parties 10 --epsilon 6 --alpha 0.0756 --theta 0.63 --lam 0.0545 --json
    arete simulate --parties 10 --min-parties 10 --epsilon 8 --alpha 0.014727 --theta 0.85419 --lam 0 --sigma 0.027054

--sigma S > 0 (beyond the paper) adds N(0, S^2/M) to each share, so the designed noise is
X1 - X2 + Y + N(0, S^2) (--lam 0 allowed then); --sigma 0 prints the same as no flag.
Without --alpha/--theta/--lam the noise is Arete with the optimiser's parameters for --epsilon
(tight epsilon <= E, least E|Z|, as 'arete optimize'; about 10-30 s, progress on stderr), or with
--parameters paper Lemma 3's (their tight epsilon is below E, far below for E < 20: Arete then
looks worse than Laplace); the output says which.  --rounds must be at least 2.
--noise NAME uses the shares of another infinitely divisible family (e.g. --noise laplace --lam L).
--noise lattice_gauss: the privacy printed is the certified enclosure's upper end (m <= 60, seconds) or
the float64 estimate, labelled "not certified" (m > 60); --dropout F[,F...] adds the epsilon of the sum
when a fraction F of --parties drops out (contributors c = N - floor(F N), shares sized for M: the noise
h sum_i i (NB(c/M) - NB(c/M)) + N(0, c sigma^2/M); a float64 estimate, certified only when c = M):

    arete simulate --noise lattice_gauss --a 7.949232299906413 --m 34 --sigma 0.012328021341238761
        --h 0.029411764705882353 --parties 100 --min-parties 80 --epsilon 8 --dropout 0.1,0.2,0.3
""",
    options=(_simulate_arguments,),
)
def simulate_command(args: argparse.Namespace) -> int:
    """``arete simulate``: the n-party distributed sum demo."""
    from .. import mechanisms

    if args.min_parties > args.parties:
        raise UsageError(f"--min-parties ({args.min_parties}) must not exceed --parties ({args.parties})")
    from ..privacy.tight import MAX_PRIVACY_DIGITS

    if not 1 <= args.digits <= MAX_PRIVACY_DIGITS:
        raise UsageError(f"--digits must be between 1 and {MAX_PRIVACY_DIGITS}, got {args.digits}")
    if args.rounds < 2:
        raise UsageError(f"--rounds must be at least 2 (an empirical variance needs two rounds), got {args.rounds}")
    # two distributed sums (the noise's shares and Laplace shares), parties x rounds draws each
    check_draws(2 * args.parties * args.rounds, f"--parties {args.parties} x --rounds {args.rounds} (x 2 sums)")
    in_range_option(args.epsilon, "--epsilon", *EPSILON_RANGE)
    given = [x for x in (args.alpha, args.theta, args.lam) if x is not None]
    arete_noise = args.noise in (None, "arete", "arete_gauss")
    default = arete_noise and not given
    if arete_noise and given and len(given) != 3:
        raise UsageError("give all of --alpha, --theta, --lam or none (default parameters: see --parameters)")
    if args.parameters is not None and not default:
        raise UsageError("--parameters chooses the default Arete parameters; it does not apply with "
                         "--alpha/--theta/--lam or another --noise")
    sigma = _sigma_positive(args)
    choice = args.parameters or ("paper" if sigma else "optimized")
    if sigma and choice == "optimized":
        raise UsageError("--parameters optimized has no Gaussian part: with --sigma give --parameters paper "
                         "or --alpha/--theta/--lam")
    # the noise exactly as 'arete epsilon' reads it
    same_as_epsilon_command = argparse.Namespace(**vars(args))
    same_as_epsilon_command.paper_eps = args.epsilon if default and choice == "paper" else None
    from ..noise import FAMILIES

    if default and choice == "paper":
        fam = FAMILIES["arete_gauss" if sigma else "arete"]
        noise = FAMILIES["arete"].paper(args.epsilon, args.sensitivity, digits=40)
        if fam.name == "arete_gauss":
            noise = fam(**noise.params, sigma=args.sigma, source=noise.source)
    elif default:  # the optimiser's parameters: tight epsilon <= --epsilon, least E|Z|
        from ..privacy import optimizer

        with progress("simulate", quiet=args.quiet, first="optimising Arete's parameters for --epsilon "
                      f"{args.epsilon} (about 10-30 s; --parameters paper skips it)", beat=False):
            o = optimizer.optimize(FAMILIES["arete"].search_problem(args.epsilon), args.sensitivity)
        noise = FAMILIES["arete"](**o.params, source={"optimized_eps": args.epsilon,
                                                      "sensitivity": args.sensitivity})
        for k in ("alpha", "theta", "lam"):
            setattr(same_as_epsilon_command, k, repr(o.params[k]))
    else:
        noise = resolve_noise(same_as_epsilon_command, 30, sensitivity_for_explicit=True).noise
    fractions = _fractions(args.dropout) if args.dropout is not None else []
    if fractions and not hasattr(noise, "dropout_privacy"):
        raise UsageError(f"--dropout: the epsilon of a sum with dropouts is available for --noise lattice_gauss, "
                         f"not {noise.name}")
    sum_privacy = hasattr(noise, "sum_privacy")
    with progress("simulate", quiet=args.quiet or not sum_privacy,
                  first="certifying the noise's epsilon and estimating the dropout sums (seconds)", beat=False):
        result = mechanisms.simulate(args.parties, args.min_parties, args.epsilon, args.rounds,
                                     seed=args.seed, Delta=float(args.sensitivity), noise=noise, tight=sum_privacy,
                                     dropout=fractions)
    p = result["params"]
    if sum_privacy:   # lattice_gauss: the certified enclosure (or the labelled float64 estimate)
        p.update(tight_epsilon_digits=None)
    else:
        try:
            tight = tight_epsilon_of(same_as_epsilon_command, args.digits)[2]
            p.update(tight_epsilon=format_value(tight.epsilon, args.digits), tight_epsilon_digits=args.digits,
                     tight_epsilon_note=None)
        except (PrecisionError, ArithmeticError) as exc:
            p.update(tight_epsilon=None, tight_epsilon_digits=args.digits,
                     tight_epsilon_note=f"tight epsilon not certified: {exc}")
    if args.json:
        print(json.dumps(result, indent=2, default=str))
        return 0
    print(f"parties {result['parties']}  min_parties {result['min_parties']}  eps {args.epsilon}  "
          f"sensitivity {args.sensitivity}  rounds {result['rounds']}  seed {result['seed']}")
    tight_text = p["tight_epsilon"] if p["tight_epsilon"] is not None else p["tight_epsilon_note"]
    if sum_privacy:
        tight_text = (f"<= {p['tight_epsilon']!r}, {p['tight_epsilon_note']}" if p["tight_epsilon_certified"]
                      else f"~ {p['tight_epsilon']!r} ({p['tight_epsilon_note']})")
    values = "  ".join(f"{k} {v:.6g}" for k, v in p.items()
                       if k not in ("source", "noise", "lemma3_applies") and not k.startswith("tight"))
    print(f"{p.get('noise', 'arete')} {values}  ({_source_text(p, args)}; tight epsilon {tight_text})")
    for d in result.get("dropout", []):
        how = "certified" if d["certified"] else "estimate, not certified"
        note = "  (fewer than --min-parties: less than the designed noise)" if d["below_design"] else ""
        print(f"dropout {d['fraction']:g}: {d['contributors']} contributors, {d['ratio']:g} designed noises: "
              f"epsilon of the sum {d['epsilon']!r} ({how}){note}")
    rows = [("noise", "exact E|err|", "empirical E|err|", "exact Var", "empirical Var")]
    for key, label in (("arete", "arete (distributed)"), ("noise", f"{p.get('noise')} (distributed)"),
                       ("laplace_distributed", "laplace (distributed)"),
                       ("laplace", "laplace (central)"), ("staircase", "staircase (central)")):
        r = result.get(key)
        if r:
            rows.append((label, _g(r["exact_mean_abs"]),
                         f"{_g(r['empirical_mean_abs'])} +- {_g(r['empirical_mean_abs_se'], 2)}",
                         _g(r["exact_var"]), f"{_g(r['empirical_var'])} +- {_g(r['empirical_var_se'], 2)}"))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return 0


def _g(x, digits=6) -> str:
    """``x`` with ``digits`` significant digits; ``n/a`` for a missing or NaN value (never ``nan``).

    >>> _g(0.123456789), _g(None), _g(float("nan")), _g(3.14159, 2)
    ('0.123457', 'n/a', 'n/a', '3.1')
    """
    if x is None or x != x:
        return "n/a"
    return f"{x:.{digits}g}"


def _source_text(p, args) -> str:
    """What the parameters are, for the text output: ``paper``, ``optimized`` or ``given``."""
    if p["source"] == "optimized":
        return (f"optimized: the optimiser's parameters, tight epsilon <= {args.epsilon}, least E|Z|; "
                "--parameters paper for Lemma 3's")
    if p["source"] == "paper":   # Lemma 3's parameters at eps (the text of version 0.2.0 where Lemma 3 applies)
        if not p.get("lemma3_applies"):
            return "paper: Lemma 3's parameters, outside its range eps >= 20 + 4 ln S: private, but far from tight"
        return "paper"
    return p["source"]


def _sigma_positive(args) -> bool:
    """Whether ``--sigma`` is given and positive (a Gaussian part; ``--sigma 0`` is the paper's Arete)."""
    from ._noise import _sigma_of

    return bool(_sigma_of(args, 15))


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
    arete sample --alpha 0.014727 --theta 0.85419 --lam 0 --sigma 0.027054 --size 10000 --seed 3 --out g.npy

--sigma S > 0 (beyond the paper) adds N(0, S^2) to each draw (N(0, S^2/N) to each share;
--lam 0 allowed then); --sigma 0 writes the same file as no flag.
""",
    options=(add_noise_options, _sample_arguments),
)
def sample_command(args: argparse.Namespace) -> int:
    """``arete sample``: write draws to a .npy file."""
    from ..mechanisms import sampling

    check_writable(args.out, "--out")
    check_draws(args.size * (args.parties or 1),
                f"--size {args.size}" + (f" x --parties {args.parties}" if args.parties else ""))
    noise = resolve_noise(args, DEFAULT_DIGITS).noise
    # the samplers convert to float64 themselves and refuse a parameter that underflows
    if args.parties is None:
        z = noise.sample(args.size, args.seed)
    else:
        z = noise.shares(args.parties).sample(args.size, args.seed, summed=True)
    path = sampling.save_samples(args.out, z)
    print(f"wrote {z.size} draws to {path}")
    return 0
