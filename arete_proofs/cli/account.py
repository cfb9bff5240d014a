"""``arete account``: (eps, delta)-DP of Arete noise, one release (exact) or K-fold composed (PLD).

K = 1: :func:`arete_proofs.privacy.accounting.hockey_stick` (``--epsilon``) or
:func:`~arete_proofs.privacy.accounting.epsilon_for_delta` (``--delta``), exact to
``--digits``.  K > 1: the pessimistic ``dp_accounting`` PLD of
:mod:`arete_proofs.privacy.pld` (extra ``accounting``), an upper bound.  Here ``--delta``
is the delta of (eps, delta)-DP; the sensitivity is ``--sensitivity``.  ``--sigma S``
(beyond the paper) adds a Gaussian part N(0, S^2): the same functions with ``sigma=S``.
The lattice laws (``--noise lattice_laplace|lattice_gauss``) at K = 1:
:func:`arete_proofs.privacy.accounting_lattice.lattice_account` (every real shift, numerical).
Shared options and the registry: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

from ._common import (
    MAX_PLD_ENTRIES,
    UsageError,
    add_quiet_option,
    check_number_text,
    command,
    format_bound,
    format_value,
)
from ._noise import add_noise_options, resolve_noise


def _account_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--epsilon", metavar="E", help="epsilon >= 0: print the smallest delta")
    group.add_argument("--delta", metavar="D", help="delta in (0, 1) of (eps, delta)-DP: print the smallest epsilon")
    parser.add_argument("--compose", metavar="K", type=int, default=1,
                        help="number of releases composed (default 1: exact; K > 1: PLD upper bound)")
    parser.add_argument("--discretization", metavar="H", type=float, default=1e-4,
                        help="PLD loss discretization interval for K > 1 (default 1e-4)")
    parser.add_argument("--digits", metavar="N", type=int, default=12,
                        help="significant digits of the exact value (K = 1), 1..40 (default 12)")
    parser.add_argument("--json", action="store_true", help="print one JSON document (numbers as strings)")
    add_quiet_option(parser)


#: Largest ``--compose`` (the composed PLD's size is estimated too, before it is allocated).
MAX_COMPOSE = 1_000_000

#: Smallest ``--delta`` solved exactly for one release: below it the solve takes minutes (1e-300: 100 s)
#: and epsilon(delta) is within a hair of the tight epsilon ('arete epsilon'), an upper bound for every delta.
MIN_DELTA = "1e-30"


def _check_delta_text(text):
    """``--delta`` parsed (30 digits) and checked: in (0, 1), not NaN; a one-line :class:`UsageError`."""
    from mpmath import mp

    try:
        with mp.workdps(30):
            d = mp.mpf(text.strip())
    except (TypeError, ValueError, ZeroDivisionError):
        raise UsageError(f"--delta must be a number in (0, 1), got {text!r}") from None
    if mp.isnan(d) or not 0 < d < 1:
        raise UsageError(f"--delta must be in (0, 1), got {text!r}")
    return d


def _composed_size(p, k):
    """Entries of the ``k``-fold composition of the PLD ``p`` before dp_accounting allocates them.

    dp_accounting's own truncation bounds (``common.compute_self_convolve_bounds``, which
    ``self_compose`` calls) on the REMOVE pmf; ``None`` when its internals are not as expected.
    """
    try:
        from dp_accounting.pld import common

        pmf = p._pmf_remove
        probs = getattr(pmf, "_probs", None)
        if probs is None:  # a sparse pmf: its support's range
            keys = list(pmf._loss_probs)
            return (max(keys) - min(keys)) * k + 1 if keys else 1
        lo, hi = common.compute_self_convolve_bounds(probs, k, 1e-15)
        return hi - lo + 1
    except Exception:  # noqa: BLE001 - an estimate only
        return None


def _clamped(value, doc):
    """A probability bound clamped to [0, 1]: ``(value, note)``; the note is said in the output."""
    if value > 1:
        doc["clamped"] = f"the PLD bound {value!r} exceeds 1; a probability is at most 1"
        return 1.0, f"; clamped to 1 from {value!r}: a probability is at most 1"
    if value < 0:
        doc["clamped"] = f"the PLD value {value:.3g} is below 0 (rounding); a probability is at least 0"
        return 0.0, f"; clamped from {value:.3g}: a probability is at least 0"
    return value, ""


@command(
    "account",
    help="(eps, delta)-DP of Arete noise: exact for one release, dp_accounting PLD for K compositions",
    description="""\
For Arete(alpha, theta, lam) noise on a query of sensitivity S (--sensitivity,
default 1): with --epsilon E the smallest delta, with --delta D the smallest epsilon
such that the release is (epsilon, delta)-DP.  K = 1 (default): the exact hockey
stick delta(eps) = integral of (f_A(t) - e^eps f_A(t + S))_+ dt, to --digits digits
(exactly 0 at and above the tight epsilon).  K > 1 (--compose K): the K-fold
composition through a pessimistic dp_accounting privacy-loss distribution
(extra 'accounting'), an upper bound; the discretization is printed.  --sigma S
(beyond the paper) accounts Z = X1 - X2 + Y + N(0, S^2) instead (--lam 0 allowed),
with the certified tight epsilon of that noise.  Examples:

    arete account --paper-eps 20 --epsilon 10
    arete account --alpha 0.0756 --theta 0.63 --lam 0.0545 --delta 1e-6
    arete account --alpha 0.0756 --theta 0.63 --lam 0.0545 --delta 1e-6 --compose 100 --json
    arete account --alpha 0.3 --theta 1 --lam 2 --sigma 0.1 --epsilon 0.3 --digits 6
    arete account --noise laplace --lam 0.5 --epsilon 1

--noise NAME accounts another family ('arete noises' says which support it).  The lattice laws
(lattice_laplace, lattice_gauss) at one release: delta maximised over every real shift |s| <= S
on a grid of 401 shifts (float64 curves), the worst re-done by exact-density quadrature, and an
upper value with the continuity allowance for the shifts between grid points; numerical, not
certified (the output says so):

    arete account --noise lattice_laplace --a 3 --m 4 --b 0.125 --h 0.25 --epsilon 3

Limits (refused in one line, exit 2): --delta below 1e-30 for one release (minutes; the tight
epsilon bounds every delta), --compose above 1e6 or a composed PLD above 2e7 entries (estimated
before it is allocated).  A PLD delta above 1 is printed as 1, with the clamp said.  Progress
lines on stderr after 10 s (--quiet: none).
""",
    options=(lambda p: add_noise_options(p, renamed_delta=False), _account_arguments),
)
def account_command(args: argparse.Namespace) -> int:
    """``arete account``: delta for epsilon or epsilon for delta, one release or K composed."""
    from ..privacy import accounting

    if args.compose < 1:
        raise UsageError(f"--compose must be an integer >= 1, got {args.compose}")
    check_number_text(args.epsilon, "--epsilon")
    if args.compose > 1:
        try:
            import dp_accounting  # noqa: F401
        except ImportError:
            raise UsageError("--compose K > 1 needs dp_accounting: pip install 'arete-proofs[accounting]' "
                             "(K = 1 is exact without it)") from None
        h = args.discretization
        if not (h > 0 and h < float("inf")):
            raise UsageError(f"--discretization must be positive and finite, got {h}")
        if args.delta is not None:
            _check_delta_text(args.delta)
        if args.compose > MAX_COMPOSE:
            raise UsageError(f"--compose must be at most {MAX_COMPOSE:.0e}, got {args.compose} (the composed "
                             "privacy-loss distribution grows with K)")
    elif args.delta is not None:
        from mpmath import mp

        if _check_delta_text(args.delta) < mp.mpf(MIN_DELTA):
            raise UsageError(f"--delta {args.delta} is below {MIN_DELTA}, the smallest delta solved exactly "
                             "(it would take minutes); epsilon(delta) is then at most the tight epsilon, "
                             "which 'arete epsilon' prints (an upper bound for every delta)")
    choice = resolve_noise(args, args.digits + 10, sensitivity_for_explicit=True)
    noise = choice.noise
    from ..noise import FAMILIES

    if "account" not in noise.supports:
        raise UsageError(f"--noise {noise.name}: this family does not support accounting; the families that do: "
                         + ", ".join(n for n, f in FAMILIES.items() if "account" in f.supports)
                         + " (see 'arete noises')")
    sensitivity = args.sensitivity if args.sensitivity is not None else "1"
    doc = {**choice.report, "sensitivity": sensitivity, "compose": args.compose}
    if choice.sigma != 0 and not args.quiet:   # the Gaussian part's tight epsilon alone takes about a minute
        import sys

        print("arete: account: a Gaussian part: its certified tight epsilon and the hockey stick take about a "
              "minute (--quiet: no progress lines)", file=sys.stderr, flush=True)
    lines = _account(args, noise, sensitivity, doc, accounting)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print("\n".join(lines))
    return 0


def _account(args, noise, sensitivity, doc, accounting):
    """The computation of ``arete account``: fills ``doc``, returns the text lines."""
    if args.compose == 1 and getattr(noise, "kernel", None) in ("laplace", "gauss"):
        return _account_lattice(args, noise, sensitivity, doc)
    if args.compose == 1:
        if args.epsilon is not None:
            value = accounting.hockey_stick(noise, sensitivity, args.epsilon, digits=args.digits)
            doc.update(epsilon=args.epsilon, delta=format_value(value, args.digits))
        else:
            value = accounting.epsilon_for_delta(noise, sensitivity, args.delta, digits=args.digits)
            doc.update(epsilon=format_value(value, args.digits), delta=args.delta)
        doc.update(method="exact", digits=args.digits)
        lines = [f"delta {doc['delta']}" if args.epsilon is not None else f"epsilon {doc['epsilon']}"]
    else:
        from ..privacy import composition, pld

        h = args.discretization
        if args.epsilon is not None:
            e = accounting._check_eps(args.epsilon, 15)
        else:
            d = float(args.delta)
            if not 0 < d < 1:
                raise ValueError(f"delta must be in (0, 1), got {args.delta}")
        one = pld.noise_pld(noise, sensitivity, value_discretization_interval=h)
        size = _composed_size(one, args.compose)
        if size is not None and size > MAX_PLD_ENTRIES:
            raise UsageError(f"--compose {args.compose}: the composed privacy-loss distribution would have "
                             f"{size:.3g} entries (at most {MAX_PLD_ENTRIES:.0e}, {16 * MAX_PLD_ENTRIES / 1e9:.2g} GB); "
                             "use fewer compositions or a coarser --discretization")
        composed = pld.compose(one, args.compose)
        if args.epsilon is not None:
            value, note = _clamped(float(composed.get_delta_for_epsilon(float(e))), doc)
            doc.update(epsilon=args.epsilon, delta=format_bound(value, 6, upward=True))
            lines = [f"delta <= {doc['delta']}  (upper bound: pessimistic PLD, discretization {h:g}, "
                     f"{args.compose}-fold composition{note})"]
        else:
            # not composed.get_epsilon_for_delta: it underflows above eps ~ 745 (see pld_epsilon)
            try:
                value = composition.pld_epsilon(composed, d)
            except ArithmeticError:
                raise UsageError(f"--delta {args.delta}: the composed PLD's delta stays above it up to eps = 1e12 "
                                 "(below its resolution: the mass the PLD puts at its top loss); "
                                 "give a larger --delta") from None
            doc.update(epsilon=format_bound(value, 6, upward=True), delta=args.delta)
            lines = [f"epsilon <= {doc['epsilon']}  (upper bound: pessimistic PLD, discretization {h:g}, "
                     f"{args.compose}-fold composition)"]
        doc.update(method="pld", discretization=h)
        if getattr(noise, "kernel", None) in ("laplace", "gauss"):
            note = ("lattice law: the PLD's curve is the max over a grid of real shifts with the continuity "
                    "allowance, from float64 quadrature (numerical, not certified)")
            doc.update(certified=False, note=note)
            lines.append(note)
    return lines


def _account_lattice(args, noise, sensitivity, doc):
    """One release of a lattice law (``lattice_laplace``, ``lattice_gauss``): every real shift, numerical."""
    from ..privacy import accounting_lattice as al

    if args.epsilon is not None:
        r = al.lattice_account(noise, sensitivity, args.epsilon, digits=args.digits)
        doc.update(epsilon=args.epsilon, delta=format_value(r.delta, args.digits),
                   delta_upper=format_bound(r.delta_upper, 6, upward=True), worst_shift=repr(r.shift),
                   n_shifts=r.n_shifts, allowance=repr(r.allowance), tight_epsilon=format_value(r.tight.epsilon, 10))
        if r.delta == 0:
            how = "exact lattice-point reduction" if r.tight.details.certified else "numerical, not certified"
            lines = [f"delta 0  (eps >= the tight epsilon {doc['tight_epsilon']} over every real shift: {how})"]
        else:
            lines = [f"delta {doc['delta']}  (worst shift s = {r.shift:.6g} of a grid of {r.n_shifts + 1} shifts "
                     f"in [0, {sensitivity}], exact-density quadrature there)",
                     f"delta <= {doc['delta_upper']}  (every real shift |s| <= {sensitivity}: the grid plus the "
                     f"continuity allowance {r.allowance:.3g} "
                     f"{'in epsilon' if noise.kernel == 'laplace' else 'added to delta'}; numerical, not certified)"]
    else:
        value = al.lattice_epsilon_for_delta(noise, sensitivity, args.delta)
        doc.update(epsilon=format_bound(value, 6, upward=True), delta=args.delta)
        lines = [f"epsilon <= {doc['epsilon']}  (every real shift: grid of shifts plus the continuity allowance; "
                 "numerical, not certified)"]
    doc.update(method="lattice: " + al.LATTICE_ACCOUNT_METHOD, certified=False, digits=args.digits)
    return lines
