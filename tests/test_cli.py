"""Tests of the ``arete`` command line (arete_proofs.cli).

Numeric values are only checked for self-consistency with the library API
(``arete_proofs.distributions.arete``), never against hard-coded numbers: the CLI's job is
parsing, dispatch and formatting.  The exact limits at t = +-inf are part of
the CLI's contract and are checked.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
from mpmath import mp

import arete_proofs
from arete_proofs.distributions import arete
from arete_proofs.cli import add_noise_options, build_parser, format_value, resolve_noise
from arete_proofs.distributions.params import paper_parameters
from _cli import run  # tests/_cli.py

REPO = Path(__file__).resolve().parents[1]
PARAMS = ["--alpha", "0.5", "--theta", "1", "--lam", "0.5"]
API_PARAMS = ("0.5", "1", "0.5")


def significant_digits(token: str) -> int:
    """Number of significant digits of a decimal/scientific token (trailing zeros count)."""
    mantissa = token.lstrip("+-").lower().split("e")[0]
    return len(mantissa.replace(".", "").lstrip("0"))


def last_tokens(out: str) -> list[str]:
    return [line.split()[-1] for line in out.splitlines()]


# --------------------------------------------------------------------------
# Output format and agreement with the API
# --------------------------------------------------------------------------


@pytest.mark.parametrize("digits, points", [(12, ["0.5", "-0.25"]), (20, ["0.75"])])
def test_lines_have_point_and_value_with_requested_digits(capsys, digits, points):
    # 20 digits is beyond double precision: no value may pass through float or mp.dps = 15
    code, out, err = run(capsys, "density", *PARAMS, "--digits", digits, *points)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == len(points)
    expected = arete.pdf(points, *API_PARAMS, digits=digits)
    for line, t, value in zip(lines, points, expected):
        tokens = line.split()
        assert tokens[0] == t
        token = tokens[-1]
        assert significant_digits(token) == digits, token
        assert token == mpmath.nstr(value, digits, strip_zeros=False)
        with mp.workdps(digits + 10):
            assert mp.almosteq(mp.mpf(token), value, rel_eps=mp.mpf(10) ** (1 - digits))


def test_default_is_15_digits(capsys):
    code, out, _ = run(capsys, "density", *PARAMS, "1")
    assert code == 0
    assert significant_digits(last_tokens(out)[0]) == 15


def test_cdf(capsys):
    code, out, err = run(capsys, "density", *PARAMS, "--digits", 6, "--cdf", "0.5")
    assert code == 0 and err == ""
    (token,) = last_tokens(out)
    assert significant_digits(token) == 6
    assert token == format_value(arete.cdf(["0.5"], *API_PARAMS, digits=6)[0], 6)


def test_infinite_points(capsys):
    code, out, _ = run(capsys, "density", *PARAMS, "--digits", 5, "inf", "-inf")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == ["inf", "-inf"]
    assert [mpmath.mpf(v) for v in last_tokens(out)] == [0, 0]
    code, out, _ = run(capsys, "density", *PARAMS, "--digits", 5, "--cdf", "inf", "-inf")
    assert code == 0
    assert [mpmath.mpf(v) for v in last_tokens(out)] == [1, 0]


def test_json(capsys):
    code, out, err = run(capsys, "density", *PARAMS, "--digits", 10, "--json", "0.5", "-1")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["distribution"] == "arete"
    assert (doc["alpha"], doc["theta"], doc["lam"]) == API_PARAMS
    assert doc["digits"] == 10 and doc["quantity"] == "pdf"
    assert "paper_eps" not in doc and "sensitivity" not in doc
    assert [p["t"] for p in doc["points"]] == ["0.5", "-1"]
    expected = arete.pdf(["0.5", "-1"], *API_PARAMS, digits=10)
    for p, value in zip(doc["points"], expected):
        assert isinstance(p["value"], str) and significant_digits(p["value"]) == 10
        assert p["value"] == format_value(value, 10)
    # the text form prints the same strings
    code, text, _ = run(capsys, "density", *PARAMS, "--digits", 10, "0.5", "-1")
    assert last_tokens(text) == [p["value"] for p in doc["points"]]


def test_json_cdf_quantity(capsys):
    code, out, _ = run(capsys, "density", *PARAMS, "--digits", 4, "--cdf", "--json", "inf")
    assert code == 0
    doc = json.loads(out)
    assert doc["quantity"] == "cdf" and mpmath.mpf(doc["points"][0]["value"]) == 1


# --------------------------------------------------------------------------
# --paper-eps
# --------------------------------------------------------------------------


def test_paper_eps_uses_lemma3_parameters(capsys):
    digits = 12
    code, out, err = run(capsys, "density", "--paper-eps", "4", "--digits", digits, "--json", "0.5")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["paper_eps"] == "4" and doc["sensitivity"] == "1"
    params = paper_parameters("4", "1", digits=digits)
    # exactly the API applied to paper_parameters(...)
    (value,) = arete.pdf(["0.5"], *params, digits=digits)
    assert doc["points"][0]["value"] == format_value(value, digits)
    # the reported parameters carry digits + 5 significant digits
    for name, p in zip(("alpha", "theta", "lam"), params):
        assert significant_digits(doc[name]) == digits + 5
        with mp.workdps(40):
            assert mp.almosteq(mp.mpf(doc[name]), p, rel_eps=mp.mpf(10) ** -(digits + 4))
    # ... and explicit parameters with those strings give the same density
    code, out, _ = run(
        capsys, "density", "--alpha", doc["alpha"], "--theta", doc["theta"], "--lam", doc["lam"],
        "--digits", digits, "0.5",
    )
    assert code == 0
    with mp.workdps(30):
        assert mp.almosteq(mp.mpf(last_tokens(out)[0]), value, rel_eps=mp.mpf(10) ** -(digits - 2))


def test_paper_eps_sensitivity(capsys):
    code, out, _ = run(capsys, "density", "--paper-eps", "4", "--sensitivity", "2", "--digits", 8, "--json", "0.5")
    assert code == 0
    doc = json.loads(out)
    assert doc["sensitivity"] == "2"
    alpha, theta, lam = paper_parameters("4", "2", digits=8)
    with mp.workdps(30):
        assert mp.almosteq(mp.mpf(doc["theta"]), 2, rel_eps=mp.mpf(10) ** -12)  # 4*Delta/eps
    assert doc["points"][0]["value"] == format_value(arete.pdf(["0.5"], alpha, theta, lam, digits=8)[0], 8)


# --------------------------------------------------------------------------
# Negative points (argparse would take them for options)
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [*PARAMS, "--digits", "8", "-0.25", "0.5", "-1e-8", "-.5", "-inf"],
        [*PARAMS, "--digits", "8", "--", "-0.25", "0.5", "-1e-8", "-.5", "-inf"],
        ["--digits", "8", "-0.25", "0.5", "-1e-8", "-.5", "-inf", *PARAMS],
    ],
    ids=["after-options", "after-double-dash", "before-options"],
)
def test_negative_points(capsys, argv):
    code, out, err = run(capsys, "density", *argv)
    assert code == 0, err
    points = ["-0.25", "0.5", "-1e-8", "-.5", "-inf"]
    assert [line.split()[0] for line in out.splitlines()] == points
    expected = [format_value(v, 8) for v in arete.pdf(points, *API_PARAMS, digits=8)]
    assert last_tokens(out) == expected


def test_negative_option_value_reaches_validation(capsys):
    # "--theta -1e-3" is the value -1e-3 (rejected by the library), not an unknown option
    code, _, err = run(capsys, "density", "--alpha", "0.5", "--theta", "-1e-3", "--lam", "0.5", "1")
    assert code == 2 and "theta" in err and "positive" in err


# --------------------------------------------------------------------------
# Bad input: one line on stderr, exit status 2, no traceback
# --------------------------------------------------------------------------

BAD = {
    "alpha-non-numeric": ["density", "--alpha", "abc", "--theta", "1", "--lam", "0.5", "1"],
    "alpha-nan": ["density", "--alpha", "nan", "--theta", "1", "--lam", "0.5", "1"],
    "alpha-inf": ["density", "--alpha", "inf", "--theta", "1", "--lam", "0.5", "1"],
    "alpha-negative": ["density", "--alpha", "-0.5", "--theta", "1", "--lam", "0.5", "1"],
    "alpha-zero": ["density", "--alpha", "0", "--theta", "1", "--lam", "0.5", "1"],
    "theta-negative": ["density", "--alpha", "0.5", "--theta", "-1", "--lam", "0.5", "1"],
    "theta-zero": ["density", "--alpha", "0.5", "--theta", "0", "--lam", "0.5", "1"],
    "theta-inf": ["density", "--alpha", "0.5", "--theta", "inf", "--lam", "0.5", "1"],
    "lam-negative": ["density", "--alpha", "0.5", "--theta", "1", "--lam", "-0.5", "1"],
    "lam-zero": ["density", "--alpha", "0.5", "--theta", "1", "--lam", "0", "1"],
    "lam-nan": ["density", "--alpha", "0.5", "--theta", "1", "--lam", "NaN", "1"],
    "lam-empty": ["density", "--alpha", "0.5", "--theta", "1", "--lam", "", "1"],
    "point-non-numeric": ["density", *PARAMS, "x1"],
    "point-nan": ["density", *PARAMS, "nan"],
    "digits-zero": ["density", *PARAMS, "--digits", "0", "1"],
    "digits-negative": ["density", *PARAMS, "--digits", "-3", "1"],
    "digits-too-many": ["density", *PARAMS, "--digits", str(arete_proofs.MAX_DIGITS + 1), "1"],
    "digits-non-integer": ["density", *PARAMS, "--digits", "2.5", "1"],
    "paper-digits-too-many": ["density", "--paper-eps", "20", "--digits", "1001", "1"],
    "missing-lam": ["density", "--alpha", "0.5", "--theta", "1", "1"],
    "missing-all-parameters": ["density", "1"],
    "missing-points": ["density", *PARAMS],
    "paper-eps-with-alpha": ["density", "--paper-eps", "20", "--alpha", "0.5", "1"],
    "sensitivity-without-paper-eps": ["density", *PARAMS, "--sensitivity", "1", "1"],
    "paper-eps-negative": ["density", "--paper-eps", "-20", "1"],
    "paper-eps-non-numeric": ["density", "--paper-eps", "big", "1"],
    "sensitivity-zero": ["density", "--paper-eps", "20", "--sensitivity", "0", "1"],
    "old-delta-flag": ["density", "--paper-eps", "20", "--delta", "2", "1"],
    "unknown-option": ["density", *PARAMS, "--bogus", "1"],
    "no-subcommand": [],
    "unknown-subcommand": ["bogus"],
}


@pytest.mark.parametrize("argv", BAD.values(), ids=BAD.keys())
def test_bad_input_is_one_line_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("arete: error: ")


def test_error_names_the_parameter(capsys):
    for name in ("alpha", "theta", "lam"):
        argv = {"alpha": "0.5", "theta": "1", "lam": "0.5", name: "-2"}
        code, _, err = run(capsys, "density", *[x for k, v in argv.items() for x in (f"--{k}", v)], "1")
        assert code == 2 and name in err


# --------------------------------------------------------------------------
# Help, version, structure
# --------------------------------------------------------------------------


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"arete {arete_proofs.__version__}"


def test_help_is_informative(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "Z = X1 - X2 + Y" in out and "density" in out
    code, out, _ = run(capsys, "density", "--help")
    assert code == 0
    for text in ("Z = X1 - X2 + Y", "--digits", "significant digits", "--paper-eps", "--cdf", "--json"):
        assert text in out


def test_parameter_options_are_reusable():
    # a later subcommand adds the same options (the noise flags) to its own parser
    parser = argparse.ArgumentParser()
    add_noise_options(parser)
    choice = resolve_noise(parser.parse_args(["--alpha", "0.1", "--theta", "2", "--lam", "0.3"]), 15)
    assert choice.name == "arete" and choice.report == {"alpha": "0.1", "theta": "2", "lam": "0.3"}
    choice = resolve_noise(parser.parse_args(["--paper-eps", "20"]), 15)
    assert choice.report["paper_eps"] == "20"
    assert mp.almosteq(mp.mpf(choice.report["alpha"]), mp.exp(-5))
    assert "density" in build_parser().format_help()


@pytest.mark.parametrize(
    "value",
    ["0.5", "1", "123456.789", "1e-30", "-2.5e40", "9.99999999999999999", "0.000123", "1/3", "7e-1000"],
)
@pytest.mark.parametrize("digits", [1, 3, 15, 20])
def test_format_value_round_trips_with_exact_digits(value, digits):
    with mp.workdps(60):
        x = mp.mpf(1) / 3 if value == "1/3" else mp.mpf(value)
    token = format_value(x, digits)
    assert significant_digits(token) == digits, token
    with mp.workdps(digits + 10):
        assert mp.almosteq(mp.mpf(token), x, rel_eps=mp.mpf(10) ** (1 - digits))


def test_format_value_special():
    assert format_value(mp.inf, 10) == "inf"
    assert format_value(mp.ninf, 10) == "-inf"
    assert mpmath.mpf(format_value(0, 10)) == 0


@pytest.mark.parametrize(
    "value",
    ["0.5", "1/3", "-1/3", "2/3", "123456.789", "-9.99999999999999999", "1e-30", "0.000123", "7e-1000", "0.1f"],
)
@pytest.mark.parametrize("digits", [1, 4, 15, 18])
def test_format_bound_rounds_outward(value, digits):
    """Against decimal's directed rounding of the exact rational value (an independent method)."""
    import decimal
    from fractions import Fraction

    from arete_proofs.cli._common import format_bound

    if value == "0.1f":
        x, exact = 0.1, Fraction(0.1)  # a float, at its exact binary value
    else:
        with mp.workdps(60):
            num, _, den = value.partition("/")
            x = mp.mpf(num) / int(den or 1)
        man, exp = x.man_exp
        exact = (-1 if x < 0 else 1) * Fraction(int(man)) * Fraction(2) ** int(exp)
    for upward, rounding in ((True, decimal.ROUND_CEILING), (False, decimal.ROUND_FLOOR)):
        token = format_bound(x, digits, upward=upward)
        ctx = decimal.Context(prec=digits, rounding=rounding, Emin=-10**6, Emax=10**6)
        expected = ctx.divide(decimal.Decimal(exact.numerator), decimal.Decimal(exact.denominator))
        assert decimal.Decimal(token) == expected, (token, expected)
        assert significant_digits(token) == digits
        assert (Fraction(decimal.Decimal(token)) >= exact) if upward else (Fraction(decimal.Decimal(token)) <= exact)


def test_format_bound_differs_from_round_to_nearest():
    """The check above can fail: round to nearest (format_value) gives 1/3 an "upper bound" 0.33333
    below it and 2/3 a "lower bound" 0.66667 above it."""
    from arete_proofs.cli._common import format_bound

    third, two_thirds = mp.mpf(1) / 3, mp.mpf(2) / 3
    assert format_value(two_thirds, 5) == "0.66667" != format_bound(two_thirds, 5, upward=False) == "0.66666"
    assert format_value(third, 5) == "0.33333" != format_bound(third, 5, upward=True) == "0.33334"
    assert format_bound(mp.inf, 5, upward=False) == "inf"


# --------------------------------------------------------------------------
# The module entry point, in a real subprocess
# --------------------------------------------------------------------------


def _python_m(*argv):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [sys.executable, "-m", "arete_proofs", *argv],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=300,
    )


def test_python_m_entry_point(capsys):
    argv = ["density", *PARAMS, "--digits", "10", "-0.25", "0.5"]
    proc = _python_m(*argv)
    assert proc.returncode == 0, proc.stderr
    code, out, _ = run(capsys, *argv)
    assert code == 0 and proc.stdout == out

    proc = _python_m("density", "--alpha", "-1", "--theta", "1", "--lam", "1", "0")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("arete: error: ")
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------
# --delta (the old sensitivity flag) is now an error naming --sensitivity
# --------------------------------------------------------------------------

RENAMED = {
    "density": ["density", "--paper-eps", "20", "--delta", "2", "1"],
    "epsilon": ["epsilon", *PARAMS, "--delta", "2"],
    "certify": ["certify", *PARAMS, "--delta", "2"],
    "optimize": ["optimize", "--epsilon", "8", "--delta", "2"],
    "compare": ["compare", "--epsilon", "8", "--delta", "2"],
    "simulate": ["simulate", "--parties", "3", "--min-parties", "2", "--epsilon", "10", "--delta", "2"],
    "sample": ["sample", *PARAMS, "--size", "3", "--seed", "1", "--out", "x.npy", "--delta", "2"],
}


@pytest.mark.parametrize("argv", RENAMED.values(), ids=RENAMED.keys())
def test_old_delta_flag_names_sensitivity(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("arete: error: --delta") and "--sensitivity" in err and len(err.splitlines()) == 1
    # the same command with --sensitivity is accepted by the parser (no error about the flag)
    fixed = ["--sensitivity" if a == "--delta" else a for a in argv]
    from arete_proofs.cli.parser import build_parser

    assert build_parser().parse_args(fixed).sensitivity == "2"


def test_old_delta_flag_is_hidden_from_help(capsys):
    for name in ("density", "epsilon", "optimize", "simulate"):
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "--sensitivity" in out and "--delta" not in out
