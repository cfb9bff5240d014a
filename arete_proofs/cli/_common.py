"""Shared pieces of the ``arete`` command line: the parser class, options, the command registry.

Every subcommand module (:mod:`.density`, :mod:`.verify`, :mod:`.epsilon`,
:mod:`.certify`, :mod:`.optimize`, :mod:`.simulate`) imports this module and
registers each of its subcommands, a function ``run(args) -> int``, with
:func:`command`; the options a subcommand needs are added by small reusable
helpers (:func:`add_digits_option`, :func:`add_sensitivity_option`, ...; the noise options are
:mod:`arete_proofs.cli._noise`), so a new
subcommand is one decorated function plus, if needed, one helper.
:func:`arete_proofs.cli.parser.build_parser` imports the subcommand modules and
builds one subparser per registered command.  This module imports none of them.

Numbers given on the command line are handed to the library as the original
decimal strings, never through ``float``.  Usage errors (:class:`UsageError`) and
the library's :class:`ValueError` / :class:`~arete_proofs.PrecisionError` are
reported by :func:`arete_proofs.cli.parser.main` as one line ``arete: error: ...``
on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import re
from decimal import Context, Decimal
from fractions import Fraction
from collections.abc import Callable
from dataclasses import dataclass

import mpmath
from mpmath import mp

from .._validation import MAX_DIGITS, in_closed_range
from ..noise._base import EPS_BOUNDS, SENSITIVITY_BOUNDS

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


#: The one-line error for the old sensitivity flag: ``--delta`` is the delta of
#: (eps, delta)-DP now (``arete account``), the sensitivity is ``--sensitivity``.
RENAMED_DELTA = ("--delta is no longer the sensitivity: use --sensitivity S "
                 "(--delta now means the delta of (eps, delta)-DP, as in 'arete account')")


class _RenamedDelta(argparse.Action):
    """The old ``--delta`` (sensitivity) flag: hidden, and an error naming ``--sensitivity``."""

    def __init__(self, option_strings, dest, **kwargs):
        kwargs.update(nargs="?", help=argparse.SUPPRESS, default=None)
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        raise UsageError(RENAMED_DELTA)


def add_renamed_delta(parser: argparse.ArgumentParser) -> None:
    """Add the hidden ``--delta`` that fails with :data:`RENAMED_DELTA` (exit 2)."""
    parser.add_argument("--delta", dest="_renamed_delta", action=_RenamedDelta)


def add_sensitivity_option(parser, *, default=None, help=None) -> None:
    """Add ``--sensitivity S`` (the paper's Delta) and the hidden, renamed ``--delta``."""
    parser.add_argument("--sensitivity", metavar="S", default=default,
                        help=help or "sensitivity Delta > 0 of the query (default 1)")
    add_renamed_delta(parser)


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


def _exact(x) -> Fraction:
    """The exact rational value of a float or a finite ``mpf``."""
    if isinstance(x, mpmath.mpf):
        man, exp = x.man_exp  # |x| = man * 2**exp (man_exp drops the sign)
        value = Fraction(int(man)) * Fraction(2) ** int(exp)
        return -value if x < 0 else value
    return Fraction(x)


def format_bound(x, digits: int, *, upward: bool) -> str:
    """Format a bound ``x`` with ``digits`` significant digits, rounded so that it stays a bound.

    ``upward=True``: the printed decimal is >= ``x`` (an upper bound stays an upper
    bound); ``upward=False``: <= ``x``.  Round to nearest (:func:`format_value`) can
    move a certified bound past the value it bounds; this cannot.  A float is taken at
    its exact binary value.

    >>> third = mpmath.mpf(1) / 3
    >>> format_bound(third, 5, upward=True), format_bound(third, 5, upward=False)
    ('0.33334', '0.33333')
    >>> format_bound(-third, 5, upward=True), format_bound(0.5, 3, upward=False)  # exact values stay
    ('-0.33333', '0.500')
    >>> float(format_bound(0.1, 17, upward=False)) <= 0.1 <= float(format_bound(0.1, 17, upward=True))
    True
    """
    if not isinstance(x, mpmath.mpf):
        with mp.workprec(max(mp.prec, 64)):  # a float is exact in 53 bits
            x = mp.mpf(x)
    text = format_value(x, digits)
    if mp.isinf(x) or mp.isnan(x):
        return text
    printed, exact = Decimal(text), _exact(x)
    if (Fraction(printed) < exact) if upward else (Fraction(printed) > exact):
        ctx = Context(prec=digits)
        printed = ctx.next_plus(printed) if upward else ctx.next_minus(printed)
        with mp.workdps(digits + 20):
            text = format_value(mp.mpf(str(printed)), digits)
    return text


# --------------------------------------------------------------------------
# The command registry
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Command:
    name: str
    help: str
    description: str
    options: tuple[Callable[[argparse.ArgumentParser], None], ...]
    run: Callable[[argparse.Namespace], int]


#: Registered subcommands by name, in registration order (re-registering a name,
#: as a module reload does, replaces the entry in place).
COMMANDS: dict[str, _Command] = {}


def command(name: str, *, help: str, description: str = "", options=()):
    """Register ``run(args) -> int`` as subcommand ``name``.

    ``options`` are functions ``f(parser)`` that add the subcommand's arguments.
    """

    def register(run):
        COMMANDS[name] = _Command(name, help, description or help, tuple(options), run)
        return run

    return register


def need_flint(option: str) -> None:
    """Raise :class:`UsageError` naming ``option`` unless python-flint is installed."""
    try:
        import flint  # noqa: F401
    except ImportError:
        raise UsageError(f"{option} needs python-flint: pip install 'arete-proofs[certified]'") from None


# --------------------------------------------------------------------------
# Caps, output paths, progress (every command answers or refuses within seconds)
# --------------------------------------------------------------------------

#: Largest |t| of a point (``arete density``): beyond it the working precision would grow with
#: the exponent of ``t`` (``1e9999999999`` asked for 10^10 digits); see
#: :data:`arete_proofs._validation.MAX_EXPONENT_DIGITS`.
MAX_POINT_EXPONENT = 3000
#: Largest number of random draws one command makes (``sample``: size x parties; ``simulate``:
#: rounds x parties for each of its two distributed sums): about 10 s on one core.
MAX_DRAWS = 50_000_000
#: Largest number of entries of a composed privacy-loss PMF (``account --compose``: estimated from
#: dp_accounting's own truncation bounds before the FFT allocates it; 16 bytes each).
MAX_PLD_ENTRIES = 20_000_000


def check_points(points, option: str = "T") -> None:
    """Refuse a point ``|t| >= 10**MAX_POINT_EXPONENT`` (finite) with a one-line :class:`UsageError`.

    Only the decimal exponent is looked at (no number of that size is formed); ``inf``, ``-inf``
    and text that is not a number are left to the library's checks.

    >>> check_points(["0", "-1e300", "inf", "abc"])
    >>> check_points(["1e9999999999"])
    Traceback (most recent call last):
      ...
    arete_proofs.cli._common.UsageError: point T = '1e9999999999' is too large: |t| must be below 1e3000 (the working precision grows with the exponent of t)
    """
    for text in points:
        check_number_text(text, f"point {option}", exponent_cap=False)
        try:
            value = Decimal(str(text).strip())
        except ArithmeticError:
            continue
        if not value.is_finite() or value == 0:
            continue
        if value.adjusted() >= MAX_POINT_EXPONENT:
            raise UsageError(f"point {option} = {text!r} is too large: |t| must be below 1e{MAX_POINT_EXPONENT} "
                             "(the working precision grows with the exponent of t)")


#: Largest decimal exponent of a parameter given on the command line (``--paper-eps 1e9999999999`` made
#: ``exp(-eps/4)`` run without end; at 1e9999 a density at 29 digits still ran after 30 s, at 1e1000 it takes 0.5 s).
MAX_NUMBER_EXPONENT = 1000


def check_number_text(text, option: str, *, exponent_cap: bool = True) -> None:
    """Refuse a number text that mpmath's parser cannot even read without an exception other than
    ``ValueError`` (``"1/0"``: mpmath parses fractions and raises ``ZeroDivisionError``).

    >>> check_number_text("1/0", "--alpha")
    Traceback (most recent call last):
      ...
    arete_proofs.cli._common.UsageError: --alpha must be a number, got '1/0' (a zero denominator)
    """
    if text is None:
        return
    try:
        with mp.workdps(15):
            mp.mpf(str(text).strip())
    except ZeroDivisionError:
        raise UsageError(f"{option} must be a number, got {text!r} (a zero denominator)") from None
    except (ValueError, TypeError):
        pass  # left to the library's one-line ValueError naming the parameter
    try:
        value = Decimal(str(text).strip())
    except ArithmeticError:
        return
    if exponent_cap and value.is_finite() and value != 0 and abs(value.adjusted()) > MAX_NUMBER_EXPONENT:
        raise UsageError(f"{option} = {text!r} is out of range: a parameter's decimal exponent must be within "
                         f"+-{MAX_NUMBER_EXPONENT} (exp(-{text}) would take unbounded precision)")


def check_draws(count: int, what: str) -> None:
    """Refuse more than :data:`MAX_DRAWS` random draws, naming the options that ask for them."""
    if count > MAX_DRAWS:
        raise UsageError(f"{what} asks for {count:.3g} random draws; at most {MAX_DRAWS:.0e} "
                         "(about 10 s; split the run or use the library directly)")


def check_writable(path: str, option: str) -> None:
    """Check, BEFORE any work, that ``path`` can be written (``option`` names the flag); one-line :class:`UsageError`.

    An existing file is opened for update without truncating it; for a new file a temporary file
    is created (and removed) in its directory.  Nothing is left behind.

    >>> check_writable("/nonexistent-dir/x.json", "--out")
    Traceback (most recent call last):
      ...
    arete_proofs.cli._common.UsageError: --out: cannot write '/nonexistent-dir/x.json': directory '/nonexistent-dir' does not exist
    """
    import os
    import tempfile

    if path is None:
        return
    if path == "":
        raise UsageError(f"{option}: the file name is empty")
    if os.path.isdir(path):
        raise UsageError(f"{option}: cannot write {path!r}: it is a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"{option}: cannot write {path!r}: directory {parent!r} does not exist")
    try:
        if os.path.exists(path):
            with open(path, "r+b"):
                pass
        else:
            fd, tmp = tempfile.mkstemp(dir=parent, prefix=".arete-write-check-")
            os.close(fd)
            os.unlink(tmp)
    except OSError as exc:
        raise UsageError(f"{option}: cannot write {path!r}: {exc.strerror or exc}") from None


class progress:
    """Context manager: a line on stderr every ``every`` seconds while the body runs (none with ``quiet``).

    ``arete: account: still working (20 s) ...``; nothing is printed for a body that ends sooner, so
    a fast command stays silent.  A daemon thread, stopped on exit.  ``first``: a line printed at
    once; ``beat=False``: that line only.  :func:`arete_proofs.cli.parser.main` runs every command
    without its own progress inside one of these.
    """

    def __init__(self, what: str, *, quiet: bool = False, every: float = 10.0, first: str | None = None,
                 beat: bool = True):
        self.what, self.quiet, self.every, self.first, self.beat = what, quiet, every, first, beat

    def __enter__(self):
        import sys
        import threading
        import time

        self._stop = threading.Event()
        self._t0 = time.monotonic()
        if self.quiet:
            return self
        if self.first:
            print(f"{PROG}: {self.what}: {self.first}", file=sys.stderr, flush=True)
        if not self.beat:
            return self

        def beat():
            while not self._stop.wait(self.every):
                print(f"{PROG}: {self.what}: still working ({time.monotonic() - self._t0:.0f} s) ...",
                      file=sys.stderr, flush=True)

        self._thread = threading.Thread(target=beat, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        thread = getattr(self, "_thread", None)
        if thread is not None:
            thread.join()   # a line being printed ends before the command does (none after it)
        return False


class estimates:
    """Context manager: the library's work estimates (:mod:`arete_proofs._workload`, logger ``arete_proofs``, level
    ``INFO``) as ``arete: ...`` lines on stderr while the body runs; none with ``quiet``."""

    def __init__(self, *, quiet: bool = False):
        self.quiet = quiet

    def __enter__(self):
        import logging
        import sys

        from .._workload import LOG

        self._handler = None
        if not self.quiet:
            self._handler = logging.StreamHandler(sys.stderr)
            self._handler.setFormatter(logging.Formatter(f"{PROG}: %(message)s"))
            self._level = LOG.level
            LOG.addHandler(self._handler)
            LOG.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc):
        if self._handler is not None:
            from .._workload import LOG

            LOG.removeHandler(self._handler)
            LOG.setLevel(self._level)
        return False


#: The sensitivities the commands accept: a length scale, in the range of the noise families' scales.  The engines
#: are scale-covariant, but their float64 searches place cells at the noise's own scales.
SENSITIVITY_RANGE = SENSITIVITY_BOUNDS
#: The privacy levels eps the optimiser, Lemma 3's parameters (``--paper-eps``) and the simulation accept: those of
#: the Staircase families' ``--staircase-eps``.
EPSILON_RANGE = EPS_BOUNDS
#: Most worker processes a command starts (``--workers``): more than any machine it is meant for.
MAX_WORKERS = 256


def in_range_option(text, option: str, lo: str, hi: str):
    """``text`` as an ``mpf`` in the closed range ``[lo, hi]`` (decimal strings), else a one-line :class:`UsageError`.

    >>> in_range_option("1e30", "--sensitivity", *SENSITIVITY_RANGE)
    Traceback (most recent call last):
      ...
    arete_proofs.cli._common.UsageError: --sensitivity must be in [1e-12, 1e12], got '1e30'
    >>> float(in_range_option("17/2", "--sensitivity", *SENSITIVITY_RANGE))
    8.5
    """
    value = positive_option(text, option)
    if not in_closed_range(value, lo, hi):
        raise UsageError(f"{option} must be in [{lo}, {hi}], got {str(text)!r}")
    return value


def check_shared_options(args) -> None:
    """The options several commands share, checked before a command starts: every ``--sensitivity`` value in
    :data:`SENSITIVITY_RANGE`, ``--paper-eps`` in :data:`EPSILON_RANGE`, ``--workers`` in ``[1, MAX_WORKERS]`` and
    ``--seed`` non-negative (one line naming the option).

    >>> import argparse
    >>> check_shared_options(argparse.Namespace(sensitivity=["1", "2"], workers=10**30))
    Traceback (most recent call last):
      ...
    arete_proofs.cli._common.UsageError: --workers must be at least 1 and at most 256, got 1000000000000000000000000000000
    """
    sensitivity = getattr(args, "sensitivity", None)
    if sensitivity is not None and not isinstance(sensitivity, bool):
        for text in (sensitivity if isinstance(sensitivity, (list, tuple)) else [sensitivity]):
            in_range_option(text, "--sensitivity", *SENSITIVITY_RANGE)
    if getattr(args, "paper_eps", None) is not None:
        in_range_option(args.paper_eps, "--paper-eps", *EPSILON_RANGE)
    seed = getattr(args, "seed", None)
    if isinstance(seed, int) and not isinstance(seed, bool) and seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {seed}")
    workers = getattr(args, "workers", None)
    if isinstance(workers, int) and not 1 <= workers <= MAX_WORKERS:
        raise UsageError(f"--workers must be at least 1 and at most {MAX_WORKERS}, got {workers}")


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--quiet`` (no progress lines on stderr)."""
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def positive_option(text, option: str):
    """``text`` (a decimal string) as a positive finite ``mpf`` (30 digits), else a one-line :class:`UsageError`.

    >>> positive_option("nan", "--epsilon")
    Traceback (most recent call last):
      ...
    arete_proofs.cli._common.UsageError: --epsilon must be a positive finite number, got 'nan'
    """
    check_number_text(text, option)
    try:
        with mp.workdps(30):
            value = mp.mpf(str(text).strip())
    except (TypeError, ValueError, ZeroDivisionError):
        raise UsageError(f"{option} must be a positive finite number, got {text!r}") from None
    if mp.isnan(value) or mp.isinf(value) or value <= 0:
        raise UsageError(f"{option} must be a positive finite number, got {text!r}")
    return value
