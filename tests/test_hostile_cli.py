"""The "hostile user" inputs of issue 25 for density, simulate, sample, account, compare and
certify-region (and the --baseline reader of verify), each an exact reproduction of the report.

Every case runs ``arete_proofs.cli.main`` in-process and must answer or refuse within seconds:
exit 0, or exit 2 with ONE line ``arete: error: ...`` on stderr and no traceback.  Before the fix:
a point ``1e9999999999`` grew the working precision without bound (8.5 GB in 60 s), ``--parties
1000000000`` ran for minutes, ``--size``/``--rounds``/``--compose`` huge ended in MemoryError
tracebacks, ``account --delta 1e-300`` took 100 s, an unwritable ``--out`` lost the work, a
malformed certificate was a KeyError/TypeError traceback, ``account --epsilon 0 --compose 1000``
printed ``delta <= 1.00001``, ``simulate --rounds 1`` printed ``nan +- nan`` and ``account
--compose`` without dp_accounting was a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import sys
import time

import pytest

from arete_proofs.cli import main
from arete_proofs.chain import verify as V
from arete_proofs.cli import _common

SECONDS = 30   # generous on a loaded 2-core machine; typical: well under 5 s


def run(argv, budget=SECONDS):
    out, err = io.StringIO(), io.StringIO()
    t0 = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    seconds = time.monotonic() - t0
    assert seconds < budget, f"{argv}: {seconds:.1f} s"
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


def refused(argv, *words, budget=SECONDS):
    code, out, err = run(argv, budget)
    lines = [ln for ln in err.splitlines() if not ln.startswith("arete: ") or ln.startswith("arete: error:")]
    assert code == 2, (argv, code, out, err)
    assert len(lines) == 1 and lines[0].startswith("arete: error: "), err
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# --------------------------------------------------------------------------- caps


@pytest.mark.parametrize("t", ["1e9999999999", "-1e9999999999", "1e3000"])
def test_point_with_a_huge_exponent_is_refused_fast(t):
    refused(["density", "--alpha", "0.5", "--theta", "1", "--lam", "0.5", t], "too large", budget=10)
    refused(["density", "--alpha", "0.5", "--theta", "1", "--lam", "0.5", "--cdf", t], "too large", budget=10)


def test_point_below_the_cap_still_answers():
    code, out, _ = run(["density", "--alpha", "0.5", "--theta", "1", "--lam", "0.5", "1e300"])
    assert code == 0 and "e-434294481903251827651128918916605" in out   # f ~ e^(-2t), t = 1e300


def test_exponent_digits_cap_in_the_library():
    from mpmath import mp

    from arete_proofs import _validation

    assert _validation.exponent_digits(mp.mpf("1e3000")) == 3000
    with pytest.raises(ValueError, match="too extreme"):
        _validation.exponent_digits(mp.mpf("1e3001"))


def test_a_billion_parties_is_refused():
    refused(["simulate", "--parties", "1000000000", "--min-parties", "10", "--epsilon", "10", "--rounds", "10",
             "--noise", "laplace", "--lam", "1"], "--parties", "random draws")
    refused(["sample", "--paper-eps", "20", "--size", "10", "--parties", "1000000000", "--seed", "1",
             "--out", "unused.npy"], "--parties", "random draws")


def test_huge_size_and_rounds_are_refused(tmp_path):
    refused(["sample", "--paper-eps", "20", "--size", "100000000000", "--seed", "1", "--out", tmp_path / "x.npy"],
            "--size")
    assert not (tmp_path / "x.npy").exists()
    refused(["simulate", "--parties", "10", "--min-parties", "10", "--epsilon", "10", "--rounds", "100000000000",
             "--noise", "laplace", "--lam", "1"], "--rounds")


def test_the_draw_cap_is_the_boundary():
    _common.check_draws(_common.MAX_DRAWS, "x")
    with pytest.raises(_common.UsageError):
        _common.check_draws(_common.MAX_DRAWS + 1, "x")


def test_huge_compose_is_refused():
    pytest.importorskip("dp_accounting")
    refused(["account", "--paper-eps", "20", "--epsilon", "1", "--compose", "100000000000"], "--compose")


def test_composed_pld_size_is_estimated_before_allocating():
    pytest.importorskip("dp_accounting")
    refused(["account", "--noise", "laplace", "--lam", "1", "--epsilon", "1", "--compose", "1000000",
             "--discretization", "1e-4", "--quiet"], "entries")


def test_tiny_delta_answers_fast_or_refuses():
    refused(["account", "--alpha", "0.3", "--theta", "1", "--lam", "0.5", "--delta", "1e-300"], "1e-30", budget=10)


@pytest.mark.parametrize("value", ["nan", "NaN", "-1", "0", "1", "inf"])
def test_delta_out_of_range_or_nan_is_refused(value):
    refused(["account", "--alpha", "0.3", "--theta", "1", "--lam", "0.5", "--delta", value], "--delta", budget=10)


# --------------------------------------------------------------------------- output paths


def test_unwritable_out_is_refused_before_the_work(tmp_path, monkeypatch):
    from arete_proofs.noise import _base

    calls = []
    monkeypatch.setattr(_base.Noise, "sample", lambda *a, **k: calls.append(1), raising=False)
    refused(["sample", "--paper-eps", "20", "--size", "10", "--seed", "1", "--out", "/nonexistent-dir/x.npy"],
            "--out", "does not exist")
    refused(["sample", "--paper-eps", "20", "--size", "10", "--seed", "1", "--out", str(tmp_path)],
            "--out", "directory")
    assert not calls


def test_certify_region_out_is_checked_first():
    pytest.importorskip("flint")
    refused(["certify-region", "--eps", "8", "9", "--sensitivity", "1", "2", "--out", "/nonexistent-dir/m.json"],
            "--out", budget=10)


def test_check_writable_leaves_nothing_behind(tmp_path):
    _common.check_writable(str(tmp_path / "new.json"), "--out")
    assert list(tmp_path.iterdir()) == []
    existing = tmp_path / "old.json"
    existing.write_text("keep")
    _common.check_writable(str(existing), "--out")
    assert existing.read_text() == "keep"


# --------------------------------------------------------------------------- malformed JSON


CERT = {"format": "arete-region-certificate/1", "box": {"eps": ["8", "17/2"], "sensitivity": ["1", "2"]},
        "cells": [{"eps": ["8", "17/2"], "sensitivity": ["1", "2"], "status": "private",
                   "proof": {"method": "cover"}}]}


def _broken(kind):
    doc = copy.deepcopy(CERT)
    if kind == "list at the top":
        return [doc]
    if kind == "null proof":
        doc["cells"][0]["proof"] = None
    elif kind == "1/0":
        doc["cells"][0]["eps"] = ["1/0", "2"]
    elif kind == "1e400":
        doc["box"]["sensitivity"] = ["1", "1e400"]
    elif kind == "cell without fields":
        doc["cells"][0] = {}
    elif kind == "no cells":
        del doc["cells"]
    elif kind == "bad status":
        doc["cells"][0]["status"] = "maybe"
    elif kind == "not private without witness":
        doc["cells"][0]["status"] = "not private"
    return doc


@pytest.mark.parametrize("kind", ["list at the top", "null proof", "1/0", "1e400", "cell without fields",
                                  "no cells", "bad status", "not private without witness"])
def test_malformed_certificate_is_one_line(kind, tmp_path):
    pytest.importorskip("flint")
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(_broken(kind)))
    refused(["certify-region", "--check", path, "--quiet"], "--check", budget=10)


@pytest.mark.parametrize("text", ["", "{", "[1, 2", '{"format": NaN}', "\x00\xff"])
def test_unparsable_certificate_is_one_line(text, tmp_path):
    pytest.importorskip("flint")
    path = tmp_path / "cert.json"
    path.write_text(text, encoding="latin-1")
    refused(["certify-region", "--check", path, "--quiet"], "--check", budget=10)


def test_the_certificate_validator_accepts_a_real_certificate():
    from arete_proofs.cli.region import validate_certificate

    assert validate_certificate(copy.deepcopy(CERT))["box"]["eps"] == ["8", "17/2"]


def _baseline_doc():
    return {"grid": "quick", "statements": [{"id": "lemma-2", "points": 51, "violations": 0, "min_slack": 0.5,
                                             "bounds": [{"name": "decreasing", "min_slack": 0.5}]}]}


@pytest.mark.parametrize("edit, words", [
    (lambda d: [d], "list"),
    (lambda d: {k: v for k, v in d.items() if k != "statements"}, "statements"),
    (lambda d: d["statements"][0].pop("id") and d, "no id"),
    (lambda d: d["statements"][0].update(min_slack="1/0") or d, "min_slack"),
    (lambda d: d["statements"][0].update(min_slack=None) or d, "min_slack"),
    (lambda d: d["statements"][0].update(min_slack="NaN") or d, "NaN"),
    (lambda d: d["statements"][0].update(points="51") or d, "points"),
    (lambda d: d["statements"][0]["bounds"].append({"min_slack": 1}) or d, "every bound needs a name"),
    (lambda d: d["statements"].append(None) or d, "statement 1"),
])
def test_malformed_baseline_is_one_line(edit, words, tmp_path, capsys):
    """``verify --baseline`` reads the file with :func:`arete_proofs.chain.verify.load_report` (one
    validator for the library, the CLI and the docs): each malformed form is a one-line exit 2."""
    path = tmp_path / "base.json"
    path.write_text(json.dumps(edit(_baseline_doc())))
    with pytest.raises(ValueError) as e:
        V.load_report(str(path))
    assert words in str(e.value) and "\n" not in str(e.value)
    code = main(["verify", "--grid", "quick", "--statement", "lemma-2", "--quiet", "--baseline", str(path)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and words in err and len(err.splitlines()) == 1


def test_the_repository_baseline_is_valid():
    from pathlib import Path

    doc = V.load_report(str(Path(__file__).parent / "data" / "verify_quick_baseline.json"))
    assert len(doc["statements"]) > 10


# --------------------------------------------------------------------------- no silently wrong number


def test_composed_delta_is_clamped_to_one_and_says_so():
    pytest.importorskip("dp_accounting")
    code, out, _ = run(["account", "--noise", "laplace", "--lam", "1", "--epsilon", "0", "--compose", "1000",
                        "--discretization", "1e-2", "--quiet"])
    assert code == 0 and out.startswith("delta <= 1.00000 ") and "clamped to 1" in out
    code, out, _ = run(["account", "--noise", "laplace", "--lam", "1", "--epsilon", "0", "--compose", "1000",
                        "--discretization", "1e-2", "--quiet", "--json"])
    doc = json.loads(out)
    assert doc["delta"] == "1.00000" and "exceeds 1" in doc["clamped"]


def test_clamp_helper():
    from arete_proofs.cli.account import _clamped

    doc = {}
    assert _clamped(1.00001, doc)[0] == 1.0 and "clamped" in doc
    assert _clamped(0.5, {}) == (0.5, "")
    assert _clamped(-1e-18, {})[0] == 0.0


def test_simulate_one_round_is_refused_not_nan():
    refused(["simulate", "--parties", "10", "--min-parties", "8", "--epsilon", "20", "--rounds", "1",
             "--noise", "laplace", "--lam", "1"], "--rounds")


def test_simulate_never_prints_nan():
    from arete_proofs.cli.simulate import _g

    assert _g(float("nan")) == "n/a" and _g(None) == "n/a"
    code, out, _ = run(["simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "20", "--rounds", "2",
                        "--noise", "laplace", "--lam", "0.05", "--seed", "1"])
    assert code == 0 and "nan" not in out


@pytest.mark.parametrize("flag, value", [("--epsilon", "nan"), ("--epsilon", "-1"), ("--sensitivity", "nan"),
                                         ("--sensitivity", "0")])
def test_simulate_bad_numbers(flag, value):
    argv = ["simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "20", "--rounds", "10",
            "--noise", "laplace", "--lam", "0.05"]
    if flag in argv:
        argv[argv.index(flag) + 1] = value
    else:
        argv += [flag, value]
    refused(argv, flag)


# --------------------------------------------------------------------------- missing extra, internal error


def test_compose_without_dp_accounting_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "dp_accounting", None)   # import dp_accounting -> ImportError
    refused(["account", "--paper-eps", "20", "--epsilon", "1", "--compose", "10"], "dp_accounting", budget=10)


def test_internal_error_is_one_line_and_exit_1(monkeypatch, capsys):
    from arete_proofs.cli import _common as c

    def boom(args):
        raise RuntimeError("deliberate")

    cmd = c.COMMANDS["noises"]
    monkeypatch.setitem(c.COMMANDS, "noises", c._Command(cmd.name, cmd.help, cmd.description, cmd.options, boom))
    monkeypatch.delenv("ARETE_DEBUG", raising=False)
    assert main(["noises"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: deliberate" in err and "Traceback" not in err
    monkeypatch.setenv("ARETE_DEBUG", "1")
    assert main(["noises"]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_memory_error_is_a_one_line_exit_2(monkeypatch, capsys):
    from arete_proofs.cli import _common as c

    def oom(args):
        raise MemoryError("Unable to allocate 745. GiB")

    cmd = c.COMMANDS["noises"]
    monkeypatch.setitem(c.COMMANDS, "noises", c._Command(cmd.name, cmd.help, cmd.description, cmd.options, oom))
    assert main(["noises"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arete: error: out of memory") and err.count("\n") == 1


# --------------------------------------------------------------------------- readable output


def test_compare_headers_format_and_note(monkeypatch):
    from arete_proofs.privacy import errors

    real = errors.comparison_table
    monkeypatch.setattr(errors, "comparison_table", lambda *a, **k: real(*a, **{**k, "optimized": False}))
    code, out, _ = run(["compare", "--epsilon", "8", "20"])
    assert code == 0
    assert out.splitlines()[0].split()[:5] == ["eps", "noise", "E|Z|", "Var", "Z"]
    assert "E|X|" not in out and "Var X" not in out
    assert "note: no arete-paper row at eps = 8.0" in out          # left out, and said why
    assert "arete-paper" in out                                     # present at eps = 20
    assert "e-05" not in out and "e-5" in out                       # one exponent style (mpmath's)


def test_simulate_says_which_parameters(monkeypatch):
    from arete_proofs.privacy import optimizer

    class Fake:   # the optimiser's answer at eps = 10 (arete optimize --epsilon 10, recorded)
        params = {"alpha": 0.006231684628814907, "theta": 0.9082867388877577, "lam": 0.010377602842934467}

    monkeypatch.setattr(optimizer, "optimize", lambda problem, delta: Fake())
    code, out, err = run(["simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "10", "--rounds", "50",
                          "--seed", "1"])
    assert code == 0 and "optimized: the optimiser's parameters, tight epsilon <= 10" in out
    assert "tight epsilon 10.000000" in out and "optimising" in err
    code, out, err = run(["simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "10", "--rounds", "50",
                          "--seed", "1", "--parameters", "paper", "--quiet"])
    assert code == 0 and "(paper: Lemma 3's parameters, outside its range" in out and "far from tight" in out
    assert err == ""
    assert "tight epsilon 6.3926503" in out     # arete epsilon --paper-eps 10 --digits 8


def test_progress_is_on_stderr_and_quiet_silences_it(capsys):
    with _common.progress("x", every=0.05, first="start"):
        time.sleep(0.2)
    err = capsys.readouterr().err
    assert "arete: x: start" in err and "still working" in err
    with _common.progress("x", every=0.05, quiet=True):
        time.sleep(0.2)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv", [
    ["density", "--alpha", "1/0", "--theta", "1", "--lam", "1", "0"],     # found by tests/test_cli_fuzz.py
    ["density", "--alpha", "1", "--theta", "1", "--lam", "1", "1/0"],
    ["compare", "--epsilon", "1/0", "--sensitivity", "nan"],              # was ZeroDivisionError, exit 1
    ["epsilon", "--paper-eps", "1/0"],
])
def test_zero_denominator_is_a_bad_input(argv):
    refused(argv, budget=10)


def test_compare_at_a_tiny_epsilon():
    """theta/lam = 4e300 in pdf_at_zero (ZeroDivisionError in hyp2f1, exit 1, found by the fuzz) until
    its Euler-integral form (issue 25.4)."""
    code, _, _ = run(["compare", "--epsilon", "1e-300"])
    assert code in (0, 2)


def test_a_long_command_shows_a_heartbeat_and_quiet_silences_it(monkeypatch, capsys):
    """`account --sigma` ran 72 s with no output; every command without its own progress now has one."""
    from arete_proofs.cli import parser
    from arete_proofs.privacy import accounting

    def slow(*a, **k):
        time.sleep(0.5)
        return 0.25

    monkeypatch.setattr(parser, "HEARTBEAT", 0.1)
    monkeypatch.setattr(accounting, "hockey_stick", slow)
    argv = ["account", "--noise", "laplace", "--lam", "1", "--epsilon", "0.5"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.startswith("delta 0.25") and "arete: account: still working" in err
    assert main(argv + ["--quiet"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("argv", [
    ["density", "--paper-eps", "1e9999999999", "0"],          # exp(-eps/4) without end (found by the fuzz)
    ["density", "--paper-eps", "1e9999", "--digits", "29", "0.0645", "1.0"],   # > 30 s
    ["epsilon", "--alpha", "1e-99999", "--theta", "1", "--lam", "1"],
])
def test_a_parameter_with_a_huge_exponent_is_refused(argv):
    refused(argv, "out of range", budget=10)


def test_a_real_certificate_still_checks(tmp_path):
    """The validator does not refuse what certify-region writes (a deliberately broken copy is refused above)."""
    pytest.importorskip("flint")
    out = tmp_path / "map.json"
    code, _, _ = run(["certify-region", "--eps", "8", "17/2", "--sensitivity", "1", "2", "--min-width", "1/2",
                      "--out", out, "--quiet"], budget=60)
    assert code in (0, 1) and out.exists()
    code, text, _ = run(["certify-region", "--check", out, "--quiet"], budget=60)
    assert code == 0 and "certificate holds" in text
