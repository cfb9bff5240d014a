"""The ``arete`` parser and entry point: :func:`build_parser` and :func:`main`.

Importing the subcommand modules registers their commands with
:func:`arete_proofs.cli._common.command`; :func:`build_parser` adds one
subparser per registered command, in the order of :data:`SUBCOMMAND_MODULES`
(and, within a module, in the order the module registers them), whatever order
the modules happened to be imported in.
"""

from __future__ import annotations

import argparse
import sys
import traceback
import warnings
from collections.abc import Sequence

from mpmath.libmp import NoConvergence

from .._validation import PrecisionError
from .._version import __version__
from . import account, aggregate, certify, check, density, epsilon, floor, noises, optimize, region, simulate, verify
from ._common import (COMMANDS, DESCRIPTION, EXIT_USAGE, PROG, _Command, _Parser, check_shared_options, estimates,
                      progress)

#: Commands that print their own progress lines (the others get :func:`main`'s heartbeat).
OWN_PROGRESS = ("verify", "certify", "certify-region", "check")
#: Seconds between two heartbeat lines ``arete: COMMAND: still working (N s) ...`` on stderr.
HEARTBEAT = 10.0

#: The subcommand modules, in the order ``arete --help`` lists their commands.
SUBCOMMAND_MODULES = (density, verify, epsilon, certify, region, check, optimize, simulate, aggregate, account,
                      noises, floor)


def _ordered_commands() -> list[_Command]:
    """The registered commands, grouped by :data:`SUBCOMMAND_MODULES` (others last)."""
    rank = {module.__name__: i for i, module in enumerate(SUBCOMMAND_MODULES)}
    return sorted(COMMANDS.values(), key=lambda cmd: rank.get(cmd.run.__module__, len(rank)))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``arete`` argument parser with every registered subcommand.

    ``only``: add the options of that subcommand alone (the others are listed, with their
    help line, but without options): :func:`main` passes the command being run, so that one
    command does not pay for the option set-up of the others (``arete verify``'s imports sympy).
    """
    parser = _Parser(prog=PROG, description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for cmd in _ordered_commands():
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description)
        if only is None or cmd.name == only:
            for add in cmd.options:
                add(p)
        p.set_defaults(run=cmd.run)
    return parser


def _error(message: str) -> int:
    message = " ".join(str(message).split()) or "unknown error"
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


#: Exit status of an internal error (a bug, not a bad input): one short line, the traceback with
#: ``ARETE_DEBUG=1`` in the environment.
EXIT_INTERNAL = 1


def _debug() -> bool:
    import os

    return os.environ.get("ARETE_DEBUG", "") not in ("", "0")


def _describe(exc: BaseException) -> str:
    """``exc`` as one line: its message, or its type when the message is empty."""
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _option_names(parser: argparse.ArgumentParser, args) -> dict[str, str]:
    """``{name the library uses: the user's flag}`` for the command being run.

    The noise family's parameters first (``eps`` of the staircase is ``--staircase-eps``), then the
    destinations of the command's options (``digits`` is ``--digits``).
    """
    names: dict[str, str] = {}
    from ..noise import FAMILIES

    if hasattr(args, "noise") and isinstance(getattr(args, "noise"), (str, type(None))) and \
            "alpha" in vars(args):
        chosen = args.noise or ("arete_gauss" if getattr(args, "sigma", None) not in (None, "0") else "arete")
        if chosen in FAMILIES:
            names.update({p.name: p.cli_flag for p in FAMILIES[chosen].parameters})
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and args.command in action.choices:
            for a in action.choices[args.command]._actions:
                if a.option_strings and a.dest not in names and not a.dest.startswith("_"):
                    names[a.dest] = max(a.option_strings, key=len)
    # the library's names of the target epsilon and the sensitivity
    if "eps" not in names:
        given = [f for d, f in (("epsilon", "--epsilon"), ("paper_eps", "--paper-eps"))
                 if getattr(args, d, None) is not None and d in names]
        if given:
            names["eps"] = given[0]
    if "sensitivity" in names:
        names.setdefault("Delta", names["sensitivity"])
    return names


def _at_the_users_options(message: str, argv: Sequence[str], names: dict[str, str]) -> str:
    """``message`` (an engine's refusal that names no option) followed by the options the user gave for the
    noise and the sensitivity, so that the line says which input it refuses.

    >>> _at_the_users_options("the cover needs too many cells", ["epsilon", "--noise", "arete_gauss", "--alpha",
    ...                       "0.5", "--sigma", "1e-12", "--quiet"], {"alpha": "--alpha", "sigma": "--sigma"})
    'the cover needs too many cells (at --noise arete_gauss --alpha 0.5 --sigma 1e-12)'
    >>> _at_the_users_options("--m 9 is beyond ...", ["epsilon", "--m", "9"], {"m": "--m"})
    '--m 9 is beyond ...'
    """
    if "--" in message:
        return message
    from ..noise import FAMILIES

    noise_flags = {p.cli_flag for fam in FAMILIES.values() for p in fam.parameters}
    flags = {"--noise", "--sensitivity", "--paper-eps", "--epsilon", "--delta"} | (noise_flags & set(names.values()))
    given = [f"{a} {argv[i + 1]}" for i, a in enumerate(argv[:-1]) if a in flags and not argv[i + 1].startswith("--")]
    return f"{message} (at {' '.join(given)})" if given else message


def _with_option_name(message: str, names: dict[str, str]) -> str:
    """``message`` with its leading parameter name (``alpha must be ...``) said as the user's flag.

    >>> _with_option_name("eps must be positive and finite, got 'nan'", {"eps": "--staircase-eps"})
    "--staircase-eps must be positive and finite, got 'nan'"
    >>> _with_option_name("--lam must be ...", {"lam": "--lam"})
    '--lam must be ...'
    """
    head = message.split(" ", 1)[0]
    for sep in ("=", ":"):
        head = head.split(sep, 1)[0]
    if head in names:
        return names[head] + message[len(head):]
    return message


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI on ``argv`` (default ``sys.argv[1:]``) and return the exit status.

    0: success; 2: bad input, one line ``arete: error: ...`` on stderr (usage errors, the library's
    ``ValueError``/``PrecisionError``, an input too large for memory or float range, a missing extra);
    1: an internal error, one line naming it (``ARETE_DEBUG=1`` prints the traceback); a command may
    also return 1 for a negative answer (``certify --target`` not met).  A ``ValueError`` that begins with
    a parameter's name (``eps must be ...``) is said with the user's flag (``--staircase-eps must be ...``);
    numpy's ``RuntimeWarning`` lines are not printed.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    # the subcommand is the first argument (the top-level parser has only --help/--version)
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else "")
    args = None
    try:
        args = parser.parse_args(argv)
        check_shared_options(args)
        # a heartbeat on stderr for a command running over 10 s (none for those with their own progress)
        quiet = getattr(args, "quiet", False)
        with progress(args.command, every=HEARTBEAT, quiet=quiet or args.command in OWN_PROGRESS), \
                estimates(quiet=quiet), warnings.catch_warnings():
            # numpy's overflow/underflow warnings of an extreme input are not the user's error line
            warnings.simplefilter("ignore", RuntimeWarning)
            return args.run(args)
    except SystemExit as exc:  # --help / --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except (ValueError, PrecisionError, NoConvergence, ArithmeticError) as exc:
        # NoConvergence: mpmath's series or root finder beyond its range at this input; a plain ArithmeticError:
        # an engine that could not reach its accuracy there (its subclasses ZeroDivisionError, OverflowError,
        # FloatingPointError are not refusals: below)
        if _debug():
            traceback.print_exc()
        if isinstance(exc, OverflowError):
            return _error(f"a number is out of range ({_describe(exc)}): use smaller or larger parameters")
        if isinstance(exc, (ZeroDivisionError, FloatingPointError)):
            return _internal(exc)
        # a refusal that names a parameter says it with the command-line flag (noise.TooCostly; a family's
        # or the library's ValueError that begins with the parameter's name)
        if callable(getattr(exc, "cli_message", None)):
            return _error(exc.cli_message())
        message = " ".join(str(exc).split())
        if isinstance(exc, NoConvergence):
            message = f"the computation does not converge at these parameters (mpmath: {message})"
        elif type(exc) is ArithmeticError:
            message = f"the computation cannot reach its accuracy at these parameters ({message})"
        if args is not None:
            try:
                names = _option_names(parser, args)
                message = _at_the_users_options(_with_option_name(message, names), argv, names)
            except Exception:  # noqa: BLE001 - the message as it is
                pass
        return _error(message)
    except MemoryError as exc:
        if _debug():
            traceback.print_exc()
        return _error(f"out of memory ({_describe(exc)}): the input asks for too much; use smaller sizes")
    except ImportError as exc:  # an optional extra that is not installed
        if _debug():
            traceback.print_exc()
        return _error(_describe(exc))
    except Exception as exc:  # noqa: BLE001 - the last resort: never a traceback without ARETE_DEBUG
        if _debug():
            traceback.print_exc()
        return _internal(exc)


def _internal(exc) -> int:
    """An exception that is a bug: one line saying so (``ARETE_DEBUG=1`` shows the traceback), exit :data:`EXIT_INTERNAL`."""
    message = " ".join(f"{type(exc).__name__}: {_describe(exc)}".split())[:300]
    print(f"{PROG}: internal error: {message} (a bug; run with ARETE_DEBUG=1 for the traceback and "
          "please report it)", file=sys.stderr)
    return EXIT_INTERNAL
