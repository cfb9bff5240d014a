"""Every option of every ``arete`` command, given a hostile value, answers or refuses in one line naming it.

The commands and their options are read from the parser itself (:func:`arete_proofs.cli.build_parser`, each
subparser's actions), so an option added later is swept with no edit here.  Each case is a minimal valid command
line (:data:`BASE`; a noise parameter is swept on a family that owns it, with that family's parameters from
``tests/test_cli_vs_library.py``) with one option set to one of :data:`VALUES`.  It must end within
:data:`SECONDS` with exit 0 (and no ``nan`` printed) or exit 2 and exactly one line ``arete: error: ...`` that
names the option; never a traceback.

A noise parameter outside its family's declared bounds (``arete noises`` lists them) is refused before any
computation, so the hostile values never reach an engine.  A command's documented negative answer (``certify
--target`` not met: exit 1) is an answer, not a refusal (:data:`DOCUMENTED_NO`).

The fast tier runs one value per option (rotating through :data:`VALUES`, so each command meets every value; the
commands whose minimal run takes seconds meet only the values refused at once); ``slow`` runs the full cross
product, a noise flag on every family that owns it.  Options that are not swept, and why, are :data:`NOT_SWEPT`;
the path options have their own cases (:func:`test_path_options`).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import signal
import time
from pathlib import Path

import pytest

from arete_proofs import noise
from arete_proofs.cli import build_parser, main
from arete_proofs.cli._common import COMMANDS
from tests.test_cli_vs_library import CASES as FAMILY_CASES

VALUES = ("0", "-1", "1e-300", "1e300", "nan", "inf", "abc", str(10**30))
SECONDS = 30   # the hang budget: generous on a loaded 2-core machine; most cases take well under 1 s
CERTIFICATE = str(Path(__file__).parent.parent / "docs" / "data" / "region-delta-0.5.json")

#: a minimal valid command line per command (the swept option is replaced or appended)
BASE = {
    "density": ["density", "--noise", "laplace", "--lam", "1", "--", "0.5"],
    "epsilon": ["epsilon", "--noise", "laplace", "--lam", "1", "--quiet"],
    "account": ["account", "--noise", "laplace", "--lam", "1", "--epsilon", "1", "--quiet"],
    "certify": ["certify", "--noise", "laplace", "--lam", "1", "--quiet"],
    "sample": ["sample", "--noise", "laplace", "--lam", "1", "--size", "3", "--seed", "1", "--out", "{tmp}/z.npy"],
    "simulate": ["simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "20", "--rounds", "2",
                 "--noise", "laplace", "--lam", "0.05", "--seed", "1", "--quiet"],
    "aggregate": ["aggregate", "--epsilon", "5", "--parties", "4", "--rounds", "2", "--seed", "1"],
    "optimize": ["optimize", "--epsilon", "8", "--quiet"],
    "compare": ["compare", "--epsilon", "8", "--quiet"],
    "floor": ["floor", "--eps", "8"],
    "noises": ["noises"],
    "verify": ["verify", "--grid", "quick", "--statement", "lemma-2", "--quiet"],
    "certify-region": ["certify-region", "--eps", "8", "17/2", "--sensitivity", "1", "2", "--quiet"],
    "check": ["check", CERTIFICATE, "--quiet"],
}
#: commands whose minimal run takes seconds: the fast tier gives them only values refused at once
EXPENSIVE = {"optimize", "compare", "floor", "verify"}
FAST_VALUES_OF_EXPENSIVE = ("nan", "abc", "-1")

#: (command or "*", option) -> why it is not swept with VALUES
NOT_SWEPT = {
    ("*", "--json"): "a flag without a value (verify's --json is a path: see PATHS)",
    ("*", "--quiet"): "a flag without a value",
    ("*", "--dask"): "a scheduler address: connecting is a network operation, not a number",
    ("sample", "--out"): "a path: test_path_options",
    ("certify-region", "--out"): "a path: test_path_options",
    ("certify-region", "--check"): "a path: test_path_options",
    ("verify", "--json"): "a path: test_path_options",
    ("verify", "--baseline"): "a path: test_path_options (and tests/test_hostile_cli.py's malformed baselines)",
    ("check", "paths"): "paths: test_path_options",
}
#: (option, value, family) -> seconds: a value inside the family's range whose answer can take longer than SECONDS
#: on a loaded machine (arete_gauss with lam = 0, no Laplace part: the Gamma-difference-plus-Gaussian cover's
#: tight epsilon, about 30 s on one idle core and its account about twice that)
LONG_VALID = {("--lam", "0", "arete_gauss"): 150}
#: what a refusal of a positional argument names (an option names its flag)
POSITIONAL_NAME = {"points": "point", "names": "noise", "paths": "PATH"}


@functools.lru_cache(maxsize=None)
def _subparser(command):
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


def _options(command):
    """``(name, action)`` of every option and positional of ``command`` (no --help), as argparse has them."""
    out = []
    for a in _subparser(command)._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        name = max(a.option_strings, key=len) if a.option_strings else a.dest
        out.append((name, a))
    return out


def _skip_reason(command, name, action):
    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
        return "a flag without a value"
    return NOT_SWEPT.get((command, name)) or NOT_SWEPT.get(("*", name))


#: what a family must support for a command to run on it (a family without it is refused naming --noise)
SUPPORT = {"account": "account", "certify": "certify", "epsilon": "tight_epsilon", "simulate": "shares",
           "sample": "sample"}


def _owner_cases(flag, command):
    """Every family owning the noise flag ``flag`` with its parameters, those that support ``command`` first."""
    need = SUPPORT.get(command)
    order = sorted(FAMILY_CASES, key=lambda f: (need is not None and need not in noise.family(f).supports, f))
    out = []
    for fam in order:
        flags = {p.name: p.cli_flag for p in noise.family(fam).parameters}
        if flag in flags.values():
            out.append((fam, [x for n, v in FAMILY_CASES[fam].items() for x in (flags[n], v)]))
    return out


def _owner_case(flag, command, fam=None):
    """A family owning ``flag`` (``fam``, else the first of :func:`_owner_cases`) and its parameters."""
    cases = _owner_cases(flag, command)
    return next((c for c in cases if c[0] == fam), None) if fam else (cases[0] if cases else None)


NOISE_FLAGS = {p.cli_flag for f in noise.FAMILIES.values() for p in f.parameters}


def argv_for(command, name, action, value, tmp, fam=None):
    """The minimal command line of ``command`` with option ``name`` set to ``value`` (a noise flag on the
    family ``fam``, by default the first that owns it)."""
    base = [a.replace("{tmp}", str(tmp)) for a in BASE[command]]
    if name in NOISE_FLAGS and "--noise" in base:
        fam, params = _owner_case(name, command, fam)
        i = base.index("--noise")
        j = i + 2
        while j < len(base) and base[j].startswith("--") and base[j] in NOISE_FLAGS:
            j += 2
        base = base[:i] + ["--noise", fam, *params] + base[j:]
    if not action.option_strings:   # a positional: replace the base's positionals
        if command == "density":
            return base[:-1] + [value]
        if command == "noises":
            return [command, value]
        return [command, value, *base[2:]]
    nargs = action.nargs if isinstance(action.nargs, int) else 1
    new = [name, *([value] * nargs)]
    if name in base:
        i = base.index(name)
        j = i + 1
        while j < len(base) and not base[j].startswith("--"):
            j += 1
        return base[:i] + new + base[j:]
    # an option of a mutually exclusive group replaces the base's member of the group
    for group in _subparser(command)._mutually_exclusive_groups:
        if action in group._group_actions:
            for other in group._group_actions:
                for flag in other.option_strings:
                    if flag in base:
                        i = base.index(flag)
                        j = i + 1
                        while j < len(base) and not base[j].startswith("--"):
                            j += 1
                        base = base[:i] + base[j:]
    if command == "density":   # keep "-- POINT" last
        return base[:-2] + new + base[-2:]
    return base + new


def _cases(slow):
    """The fast tier: one value per option, on the first family owning a noise flag.  ``slow``: every value, and a
    noise flag on every family that owns it."""
    out = []
    for command in COMMANDS:
        for k, (name, action) in enumerate(_options(command)):
            if _skip_reason(command, name, action):
                continue
            if slow:
                values = VALUES
            elif command in EXPENSIVE:
                values = (FAST_VALUES_OF_EXPENSIVE[k % len(FAST_VALUES_OF_EXPENSIVE)],)
            else:
                values = (VALUES[k % len(VALUES)],)
            families = [None]
            if slow and name in NOISE_FLAGS and "--noise" in BASE[command]:
                families = [fam for fam, _ in _owner_cases(name, command)]
            for fam in families:
                for v in values:
                    label = f"{command} {name} {v}" + (f" {fam}" if slow and fam else "")
                    out.append(pytest.param(command, name, v, fam, id=label))
    return out


class Hang(BaseException):
    """Raised by the alarm when a case runs past the budget (a BaseException: main() does not catch it)."""


def _alarm(signum, frame):
    raise Hang()


def run(argv, seconds=SECONDS):
    out, err = io.StringIO(), io.StringIO()
    t0 = time.monotonic()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in argv])
    except Hang:
        pytest.fail(f"{argv}: still running after {seconds} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    took = time.monotonic() - t0
    assert took < seconds, f"{argv}: {took:.1f} s"
    return code, out.getvalue(), err.getvalue()


#: (command, option) -> what the output says when the command answers "no" with its documented exit status 1
DOCUMENTED_NO = {("certify", "--target"): "NOT met"}


def check(argv, name, *, no=None, seconds=SECONDS):
    """The sweep's requirement on one command line; ``name``: what a refusal must name (or a tuple: one of);
    ``no``: the words of a documented negative answer (exit 1), if the command has one; ``seconds``: the budget."""
    code, out, err = run(argv, seconds)
    assert "Traceback" not in err, err
    if no is not None and code == 1 and no in out and not err.strip():
        return code, out, []
    # progress lines ("arete: COMMAND: ...") are not errors
    lines = [ln for ln in err.splitlines() if ln.strip() and (not ln.startswith("arete: ") or
                                                             ln.startswith(("arete: error:", "arete: internal")))]
    assert code in (0, 2), (argv, code, err)
    if code == 0:
        assert not [ln for ln in lines if ln.startswith("arete: ")], (argv, err)
        assert "nan" not in out.lower().split(), (argv, out)
    else:
        assert len(lines) == 1 and lines[0].startswith("arete: error: "), (argv, err)
        assert any(n in lines[0] for n in ((name,) if isinstance(name, str) else name)), (argv, name, lines[0])
    return code, out, lines


def _check_case(command, name, value, tmp_path, fam=None):
    action = dict(_options(command))[name]
    if command == "certify-region" or (command == "certify" and name not in ("--lam", "--noise")):
        pytest.importorskip("flint")
    names = (POSITIONAL_NAME.get(name, name),)
    if name in NOISE_FLAGS and "--noise" in BASE[command]:
        owner, _ = _owner_case(name, command, fam)
        if SUPPORT.get(command, "sample") not in noise.family(owner).supports:
            names += ("--noise",)    # this family does not run the command: the refusal may name --noise
    check(argv_for(command, name, action, value, tmp_path, fam), names, no=DOCUMENTED_NO.get((command, name)),
          seconds=LONG_VALID.get((name, value, fam), SECONDS))
    assert [p.name for p in tmp_path.iterdir() if p.name != "z.npy"] == []


@pytest.mark.parametrize("command, name, value, fam", _cases(slow=False))
def test_sweep(command, name, value, fam, tmp_path):
    _check_case(command, name, value, tmp_path, fam)


@pytest.mark.slow
@pytest.mark.parametrize("command, name, value, fam", _cases(slow=True))
def test_sweep_every_value(command, name, value, fam, tmp_path):
    """The full product: every option, every value, every family owning a noise flag."""
    _check_case(command, name, value, tmp_path, fam)


def test_every_command_has_a_base():
    assert set(COMMANDS) <= set(BASE), f"add a minimal command line for {sorted(set(COMMANDS) - set(BASE))}"


def test_the_bases_are_valid(tmp_path):
    """Each minimal command line runs (exit 0), so a refusal in the sweep is the swept value's."""
    for command in sorted(set(BASE) - EXPENSIVE):
        if command in ("certify-region",):
            pytest.importorskip("flint")
        code, out, err = run([a.replace("{tmp}", str(tmp_path)) for a in BASE[command]])
        assert code == 0, (command, err)


def test_not_swept_names_real_options():
    """Every entry of NOT_SWEPT names an option a command has (a renamed option would silently leave the sweep)."""
    have = {(c, n) for c in COMMANDS for n, _ in _options(c)}
    for command, name in NOT_SWEPT:
        assert any(n == name and (command == "*" or c == command) for c, n in have), (command, name)


def test_the_sweep_reaches_every_option():
    swept = {(p.values[0], p.values[1]) for p in _cases(slow=False)}
    for command in COMMANDS:
        for name, action in _options(command):
            assert (command, name) in swept or _skip_reason(command, name, action), (command, name)


# --------------------------------------------------------------------------- the checks can fail


def test_a_traceback_or_an_unnamed_refusal_is_caught(monkeypatch):
    """check() rejects a refusal that does not name the option, a second line, and exit 1."""
    from arete_proofs.cli import _common

    cmd = _common.COMMANDS["noises"]

    def refuse(args):
        raise ValueError("man_exp requires an exact, finite value")

    def boom(args):
        raise RuntimeError("deliberate")

    for broken in (refuse, boom):
        monkeypatch.setitem(_common.COMMANDS, "noises", _common._Command(cmd.name, cmd.help, cmd.description,
                                                                           cmd.options, broken))
        with pytest.raises(AssertionError):
            check(["noises"], "names")


def test_a_printed_nan_is_caught(monkeypatch):
    from arete_proofs.cli import _common

    cmd = _common.COMMANDS["noises"]
    monkeypatch.setitem(_common.COMMANDS, "noises", _common._Command(cmd.name, cmd.help, cmd.description,
                                                                       cmd.options, lambda a: print("x nan") or 0))
    with pytest.raises(AssertionError):
        check(["noises"], "names")


# --------------------------------------------------------------------------- path options


def _paths(tmp_path):
    d = tmp_path / "dir"
    d.mkdir()
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    return {"missing": str(tmp_path / "missing" / "x.json"), "directory": str(d), "unwritable": str(ro / "x.json"),
            "empty name": ""}


WRITE = [("sample", "--out"), ("certify-region", "--out"), ("verify", "--json")]
READ = [("certify-region", "--check"), ("verify", "--baseline"), ("check", "paths")]


@pytest.mark.parametrize("kind", ["missing", "directory", "unwritable", "empty name"])
@pytest.mark.parametrize("command, name", WRITE + READ, ids=[f"{c} {n}" for c, n in WRITE + READ])
def test_path_options(command, name, kind, tmp_path):
    import os

    if command == "certify-region":
        pytest.importorskip("flint")
    if kind == "unwritable" and (os.geteuid() == 0 or (command, name) in READ):
        pytest.skip("root writes anywhere; a read needs no write permission")
    if command == "check" and kind == "directory":
        pytest.skip("a folder is a valid PATH of arete check (every certificate in it)")
    paths = _paths(tmp_path)
    action = dict(_options(command))[name]
    argv = argv_for(command, name, action, paths[kind], tmp_path)
    if command == "certify-region" and name == "--check":
        argv = ["certify-region", "--check", paths[kind], "--quiet"]
    try:
        code, out, lines = check(argv, POSITIONAL_NAME.get(name, name))
    finally:
        (tmp_path / "ro").chmod(0o700)
    assert code == 2, (argv, out)


# --------------------------------------------------------------------------- what the sweep found


@pytest.mark.parametrize("argv, says", [
    (["account", "--noise", "discrete_staircase", "--staircase-eps", "nan", "--epsilon", "1"],
     "--staircase-eps must be in [1e-6, 1e3]"),                 # was "eps must be ..."
    (["epsilon", "--noise", "arete", "--alpha", "-1", "--theta", "1", "--lam", "1"], "--alpha must be positive"),
    (["density", "--noise", "lattice_gauss", "--a", "2", "--m", "1e-300", "--sigma", "1", "--h", "1", "0"],
     "--m must be an integer >= 1"),
    (["epsilon", "--noise", "laplace", "--lam", "1", "--digits", str(10**30)], "--digits must be an integer"),
    (["aggregate", "--epsilon", "-1", "--parties", "4"], "--epsilon must be positive"),   # was "[0, None]"
    (["aggregate", "--epsilon", "1", "--parties", "4", "--dropout", "2"], "--dropout must be in [0, 1)"),
    (["optimize", "--epsilon", "nan"], "--epsilon must be a positive finite number"),   # was "eps must ..."
    (["optimize", "--paper-eps", "abc"], "--paper-eps must be a positive finite number"),
    (["compare", "--epsilon", "8", "--sensitivity", "nan"], "--sensitivity must be a positive finite"),  # "Delta"
    (["account", "--noise", "arete", "--alpha", "0.5", "--theta", "1e-300", "--lam", "0.3", "--epsilon", "1"],
     "--theta must be in [1e-12, 1e12]"),   # was numpy's "Number of samples, -1007, must be non-negative."
    (["account", "--noise", "arete", "--alpha", "0.5", "--theta", "1e-12", "--lam", "0.3", "--epsilon", "1"],
     "--theta = "),            # in range, but the accounting grid would be too fine
    (["check", "docs/data/region-delta-0.5.json", "--workers", "-1"], "--workers must be at least 1"),  # "arete check:"
    (["verify", "--variant", "no-such-file.toml"], "--variant no-such-file.toml: cannot read"),
    (["compare", "--epsilon", "8", "--families", "abc"], "--families: unknown family"),   # after the table (19 s)
    (["compare", "--epsilon", "8", "--noise", "abc"], "--noise: unknown noise"),          # after the table (14 s)
    (["epsilon", "--noise", "msdlap", "--a", "1e-6", "--m", "5"], "(at --noise msdlap --a 1e-6 --m 5)"),  # the engine's
    (["epsilon", "--noise", "dlap", "--a", "1e-300"], "--a must be in [1e-6, 1e3]"),   # was a ZeroDivisionError
    (["account", "--noise", "laplace", "--lam", "1", "--epsilon", "1", "--sensitivity", "1e30"],
     "--sensitivity must be in [1e-12, 1e12]"),               # was "--lam = 1 is too small next to ..."
    (["verify", "--statement", "lemma-2", "--workers", str(10**30)], "--workers must be at least 1 and at most"),
    (["sample", "--noise", "laplace", "--lam", "1", "--size", "3", "--seed", "-1", "--out", "never-written.npy"],
     "--seed must be a non-negative"),
    (["density", "--noise", "laplace", "--lam", "1", "--", "nan"], "point must be a real number"),   # was "x must"
    (["epsilon", "--noise", "lattice_skellam", "--a", "2", "--m", "2", "--mu", "1e5", "--h", "1"],
     "does not converge at these parameters"),                 # was mpmath's NoConvergence, exit 1
    (["epsilon", "--noise", "lattice_skellam", "--a", "2", "--m", "2", "--mu", "0.5", "--h", "1000000"],
     "(at --noise lattice_skellam"),                           # was a ZeroDivisionError, exit 1
    (["certify", "--noise", "lattice_gauss_top", "--a", "1e3", "--a-top", "1.5", "--m", "2", "--sigma", "0.3",
      "--h", "0.5", "--quiet"], "(at --noise lattice_gauss_top"),   # was a ZeroDivisionError, exit 1
])
def test_a_refusal_names_the_users_flag(argv, says):
    if argv[0] in ("check", "certify"):
        pytest.importorskip("flint")
    if argv[0] == "check":
        argv = [argv[0], str(Path(__file__).parent.parent / argv[1]), *argv[2:]]
    t0 = time.monotonic()
    code, _, lines = check(argv, says.split()[0])
    assert time.monotonic() - t0 < 10 or argv[0] != "compare", "the names are checked before the table"
    assert code == 2 and says in lines[0] and "None" not in lines[0], lines


def test_verify_refuses_an_empty_json_path():
    """``verify --json ''`` wrote nothing and said nothing (the empty name was taken as no --json)."""
    code, _, lines = check(["verify", "--grid", "quick", "--statement", "lemma-2", "--quiet", "--json", ""], "--json")
    assert code == 2 and "empty" in lines[0]


def test_the_accounting_grid_is_capped_in_the_library():
    from arete_proofs.privacy.accounting import hockey_stick

    with pytest.raises(ValueError, match="^theta = .* is too small next to"):
        hockey_stick(noise.make("arete", alpha="0.5", theta="1e-12", lam="0.3"), 1, 1, digits=8)


def test_no_numpy_warning_reaches_stderr(monkeypatch):
    """A RuntimeWarning of numpy (overflow of an extreme input) is not printed beside the answer."""
    import warnings

    from arete_proofs.cli import _common

    cmd = _common.COMMANDS["noises"]

    def warn(args):
        warnings.warn("overflow encountered in exp", RuntimeWarning)
        return 0

    monkeypatch.setitem(_common.COMMANDS, "noises", _common._Command(cmd.name, cmd.help, cmd.description,
                                                                       cmd.options, warn))
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        code, _, err = run(["noises"])
    assert code == 0 and err == ""


def test_the_option_name_is_only_put_for_a_leading_parameter_name():
    from arete_proofs.cli.parser import _with_option_name

    names = {"eps": "--staircase-eps", "a": "--a"}
    assert _with_option_name("eps=nan is bad", names) == "--staircase-eps=nan is bad"
    assert _with_option_name("a must be > 0", names) == "--a must be > 0"
    assert _with_option_name("the a must be > 0", names) == "the a must be > 0"
    assert _with_option_name("alpha must be > 0", names) == "alpha must be > 0"
