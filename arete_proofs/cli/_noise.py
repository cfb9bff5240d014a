"""The noise options of the ``arete`` command: ``--noise NAME`` and each family's parameter flags.

The flags are generated from the families' declared parameters
(:data:`arete_proofs.noise.FAMILIES`, :class:`arete_proofs.noise.Parameter`): a new family's
parameters appear on every command that takes a noise, with no edit here.  A flag shared by
several families (``--lam``) is added once.  :func:`resolve_noise` reads them back into a
noise object and the JSON description of today's output.

The paper's command lines are unchanged: without ``--noise`` the noise is ``arete``
(``--alpha/--theta/--lam`` or ``--paper-eps [--sensitivity]``), and ``--sigma S > 0`` on it is
the family ``arete_gauss`` (beyond the paper); ``--sigma 0`` is the paper's Arete.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from mpmath import mp

from ._common import UsageError, add_renamed_delta, check_number_text, format_value

__all__ = ["NoiseChoice", "add_noise_options", "add_noise_name_option", "resolve_noise", "flag_dest",
           "tight_epsilon_of"]

#: The paper's parameter flags, in the order the help has always listed them (the rest follow
#: in registration order of the families).
_FIRST = ("--alpha", "--theta", "--lam")
#: Families whose parameters ``--paper-eps`` (Lemma 3) can give.
_PAPER = ("arete", "arete_gauss")


def flag_dest(flag: str) -> str:
    """The argparse destination of a flag: ``--staircase-eps`` -> ``staircase_eps``."""
    return flag.lstrip("-").replace("-", "_")


def _families():
    from ..noise import FAMILIES

    return FAMILIES


def _flags():
    """``{flag: [(family name, Parameter), ...]}`` over all families, paper's flags first."""
    out: dict[str, list] = {f: [] for f in _FIRST}
    for name, fam in _families().items():
        for p in fam.parameters:
            out.setdefault(p.cli_flag, []).append((name, p))
    return {f: v for f, v in out.items() if v}


def add_noise_name_option(parser: argparse.ArgumentParser, *, default_help="arete") -> None:
    """Add ``--noise NAME`` (the family; ``arete noises`` lists them)."""
    names = ", ".join(_families())
    parser.add_argument("--noise", metavar="NAME", default=None,
                        help=f"noise family: {names} (default {default_help}; 'arete noises' lists them "
                        "with their parameters and what each supports)")


def add_noise_options(parser: argparse.ArgumentParser, *, renamed_delta: bool = True, paper: bool = True,
                      sensitivity: bool = True) -> None:
    """Add ``--noise`` and every family's parameter flags (and ``--paper-eps``, ``--sensitivity``).

    Read them back with :func:`resolve_noise`.  ``renamed_delta``: also add the hidden
    ``--delta`` that fails naming ``--sensitivity`` (``arete account``, whose ``--delta`` is the
    delta of (eps, delta)-DP, passes False).
    """
    group = parser.add_argument_group(
        "noise and its parameters",
        "--noise NAME picks the family (default arete: give all of --alpha, --theta, --lam, or\n"
        "--paper-eps, optionally with --sensitivity; --sigma S > 0 adds a Gaussian part, the family\n"
        "arete_gauss).  Each family takes its own flags below.  Values are decimal strings, parsed\n"
        "exactly at the working precision.",
    )
    names = ", ".join(_families())
    group.add_argument("--noise", metavar="NAME", default=None,
                       help=f"noise family: {names} (default arete; 'arete noises' lists them)")
    for flag, owners in _flags().items():
        p = owners[0][1]
        fams = ", ".join(n for n, _ in owners)
        doc = p.doc if len(owners) == 1 else p.doc.split(" (")[0]
        group.add_argument(flag, dest=flag_dest(flag), metavar=flag_dest(flag).upper(),
                           help=f"{doc} [{fams}]")
    if paper:
        group.add_argument(
            "--paper-eps", metavar="EPS",
            help="use the paper's parameters for privacy parameter EPS (Lemma 3): "
            "alpha = lam = exp(-EPS/4), theta = 4*DELTA/EPS [arete]")
        group.add_argument(
            "--paper-rule", choices=("lemma-3", "mean_abs", "variance"), default=None,
            help="with --paper-eps: lemma-3 (default) or the rate-optimal parameters of 'Lemma 3 with "
            "rates', theta = DELTA and alpha*lam = 48*DELTA*exp(-EPS), for E|Z| (mean_abs, EPS >= 11) "
            "or Var Z (variance, EPS >= 10) [arete]")
    if sensitivity:
        group.add_argument("--sensitivity", metavar="S",
                           help="sensitivity Delta (default 1); with --paper-eps it sets theta")
    if renamed_delta:
        add_renamed_delta(parser)


@dataclass
class NoiseChoice:
    """A noise read from the command line.

    ``noise``: the :class:`arete_proofs.noise.Noise`; ``report``: its JSON description as the
    commands print it (the paper's keys ``alpha, theta, lam[, sigma]`` -- with ``paper_eps`` and
    ``sensitivity`` for ``--paper-eps`` -- for ``arete``; ``noise`` first, then the parameters,
    for the other families); ``sigma``: the Gaussian part (0 for the paper's noise).
    """

    noise: object
    report: dict = field(default_factory=dict)
    sigma: object = 0

    @property
    def name(self) -> str:
        return self.noise.name


def _given(args, flag):
    return getattr(args, flag_dest(flag), None)


def resolve_noise(args: argparse.Namespace, digits: int, *, sensitivity_for_explicit: bool = False) -> NoiseChoice:
    """The noise of the options in ``args`` (added by :func:`add_noise_options`) as a :class:`NoiseChoice`.

    Bad combinations are :class:`~arete_proofs.cli._common.UsageError`; a bad value is the
    family's ``ValueError`` naming the parameter, which :func:`~arete_proofs.cli.parser.main` says with its flag
    (both one line, exit status 2).
    """
    from ..noise import FAMILIES, family

    for flag in [*_flags(), "--paper-eps", "--sensitivity"]:
        check_number_text(_given(args, flag), flag)
    name = getattr(args, "noise", None)
    if name is not None and name not in FAMILIES:
        raise UsageError(f"--noise: unknown noise {name!r}; the families are {', '.join(FAMILIES)} "
                         "(see 'arete noises')")
    chosen = name or "arete"
    sigma_given = getattr(args, "sigma", None)
    if chosen == "arete_gauss" and sigma_given is None:
        raise UsageError("--noise arete_gauss needs --sigma S > 0 (the Gaussian part)")
    # flags of other families are refused, naming the family's own flags
    own = {p.cli_flag for p in family(chosen).parameters}
    if chosen in _PAPER:
        own |= {p.cli_flag for p in family("arete_gauss").parameters}
    stray = [f for f in _flags() if f not in own and _given(args, f) is not None]
    if stray:
        fam = family(chosen)
        flags = ", ".join(p.cli_flag for p in fam.parameters)
        raise UsageError(f"{stray[0]} is not a parameter of noise {chosen!r} (its parameters: {flags}; "
                         "see 'arete noises')")
    if chosen in _PAPER:
        return _arete(args, digits, sensitivity_for_explicit, chosen)
    if getattr(args, "paper_eps", None) is not None:
        raise UsageError(f"--paper-eps gives Lemma 3's Arete parameters; it does not apply to noise {chosen!r}")
    if getattr(args, "paper_rule", None) is not None:
        raise UsageError(f"--paper-rule only applies with --paper-eps (Arete); not to noise {chosen!r}")
    if getattr(args, "sensitivity", None) is not None and not sensitivity_for_explicit:
        raise UsageError("--sensitivity is only meaningful with --paper-eps")
    fam = family(chosen)
    values = {p.name: _given(args, p.cli_flag) for p in fam.parameters}
    missing = [p.cli_flag for p in fam.parameters if values[p.name] is None and p.default is None]
    if missing:
        raise UsageError(f"noise {chosen!r} needs {', '.join(missing)}")
    noise = fam(**{k: v for k, v in values.items() if v is not None})
    return NoiseChoice(noise, noise.describe())


def _arete(args, digits, sensitivity_for_explicit, chosen) -> NoiseChoice:
    """The paper's path: ``arete`` (or ``arete_gauss`` with ``--sigma S > 0``), exactly as before."""
    from ..noise import FAMILIES

    params = _with_sigma(_resolve_parameters(args, digits, sensitivity_for_explicit), args, digits)
    source = {}
    if getattr(args, "paper_eps", None) is not None:
        source = {"paper_eps": args.paper_eps,
                  "sensitivity": args.sensitivity if args.sensitivity is not None else "1"}
    if params.sigma != 0:
        noise = FAMILIES["arete_gauss"](alpha=params.alpha, theta=params.theta, lam=params.lam,
                                        sigma=params.sigma, source=source)
    else:
        if chosen == "arete_gauss":
            raise UsageError("--noise arete_gauss needs --sigma S > 0 (the Gaussian part; --sigma 0 is arete)")
        noise = FAMILIES["arete"](alpha=params.alpha, theta=params.theta, lam=params.lam, source=source)
    return NoiseChoice(noise, params.report, params.sigma)


def tight_epsilon_of(args: argparse.Namespace, digits: int):
    """The tight epsilon of the noise in ``args`` at ``digits`` digits: ``(NoiseChoice, sensitivity, TightResult)``.

    ``sensitivity`` is the string given (``"1"`` by default).  ``arete epsilon`` and ``arete simulate``
    both call this, so they print the same digits for the same noise.
    """
    choice = resolve_noise(args, digits + 10, sensitivity_for_explicit=True)
    sensitivity = args.sensitivity if getattr(args, "sensitivity", None) is not None else "1"
    return choice, sensitivity, choice.noise.tight_epsilon(sensitivity, digits=digits)


# --------------------------------------------------------------------------
# The paper's noise: --alpha/--theta/--lam or --paper-eps, and --sigma
# --------------------------------------------------------------------------


@dataclass
class Parameters:
    """The paper's parameters as handed to the library, plus how to report them (``--paper-eps``: rounded values)."""

    alpha: object
    theta: object
    lam: object
    #: JSON description: the strings as given, or rounded values for --paper-eps.
    report: dict[str, str] = field(default_factory=dict)
    #: The Gaussian part's sigma (``--sigma``, the string as given); 0 for the paper's Arete.
    sigma: object = 0


def _sigma_of(args: argparse.Namespace, digits: int):
    """``--sigma`` checked (finite, >= 0): the string as given, or 0 when absent or zero."""
    text = getattr(args, "sigma", None)
    if text is None:
        return 0
    try:
        with mp.workdps(digits + 10):
            value = mp.mpf(text.strip())
    except (TypeError, ValueError, ZeroDivisionError):
        raise UsageError(f"--sigma must be a number >= 0, got {text!r}") from None
    if mp.isnan(value) or mp.isinf(value) or value < 0:
        raise UsageError(f"--sigma must be finite and >= 0, got {text!r}")
    return text if value > 0 else 0


def _is_zero(text) -> bool:
    """Whether a parameter (a decimal string or a number) is exactly 0; False if it does not parse."""
    try:
        return mp.mpf(text.strip() if isinstance(text, str) else text) == 0
    except (TypeError, ValueError, ZeroDivisionError):
        return False


def _with_sigma(params: Parameters, args: argparse.Namespace, digits: int) -> Parameters:
    """Attach ``--sigma`` (commands that take it) to ``params``; the report gains "sigma" when S > 0."""
    if not hasattr(args, "sigma"):
        return params
    sigma = _sigma_of(args, digits)
    if sigma == 0 and _is_zero(params.lam):
        raise UsageError("--lam and --sigma are both 0: X1 - X2 alone has an infinite density at 0 "
                         "when alpha <= 1/2; give --lam > 0 or --sigma > 0")
    if sigma != 0:
        params.sigma = sigma
        report = {}
        for k, v in params.report.items():
            report[k] = v
            if k == "lam":
                report["sigma"] = sigma
        params.report = report
    return params


def _resolve_parameters(args: argparse.Namespace, digits: int, sensitivity_for_explicit: bool) -> Parameters:
    explicit = {name: getattr(args, name) for name in ("alpha", "theta", "lam")}
    given = [f"--{name}" for name, value in explicit.items() if value is not None]
    if args.paper_eps is not None:
        if given:
            raise UsageError(f"--paper-eps cannot be combined with {', '.join(given)}")
        from ..distributions.params import paper_parameters

        sensitivity = args.sensitivity if args.sensitivity is not None else "1"
        rule = getattr(args, "paper_rule", None)
        alpha, theta, lam = paper_parameters(args.paper_eps, sensitivity, rule=rule or "lemma-3", digits=digits)
        report = {
            "alpha": format_value(alpha, digits + 5),
            "theta": format_value(theta, digits + 5),
            "lam": format_value(lam, digits + 5),
            "paper_eps": args.paper_eps,
            "sensitivity": sensitivity,
        }
        if rule is not None:
            report["paper_rule"] = rule
        return Parameters(alpha, theta, lam, report)
    if getattr(args, "paper_rule", None) is not None:
        raise UsageError("--paper-rule is only meaningful with --paper-eps")
    if args.sensitivity is not None and not sensitivity_for_explicit:
        raise UsageError("--sensitivity is only meaningful with --paper-eps")
    missing = [f"--{name}" for name, value in explicit.items() if value is None]
    if missing:
        raise UsageError(
            f"the following arguments are required: {', '.join(missing)} (or use --paper-eps)"
        )
    return Parameters(**explicit, report=dict(explicit))
