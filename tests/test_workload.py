"""Work estimates before a long computation (arete_proofs._workload): what no machine can compute is refused at
once in one line naming what it grows with; what is long is announced with an estimate; the CLI shows both.

Each refused case below ran without end (past 30 s, most for hours) before the check: the comment says where.
"""

from __future__ import annotations

import logging
import time

import pytest

from arete_proofs import _workload
from arete_proofs._workload import TooMuchWork, check_work
from arete_proofs.noise import make

from _cli import run  # tests/_cli.py


def test_check_work_refuses_above_the_limit_and_is_silent_below(caplog):
    caplog.set_level(logging.INFO, logger="arete_proofs")
    check_work("a scan", 10, 100, "points", seconds_each=1e-3, grows_with="1/a")
    assert caplog.records == []
    with pytest.raises(TooMuchWork, match=r"^a scan needs 101 points, .*at most 100.*grows with 1/a$"):
        check_work("a scan", 101, 100, "points", seconds_each=1e-3, grows_with="1/a")
    with pytest.raises(TooMuchWork):
        check_work("a scan", float("inf"), 100, "points", seconds_each=1e-3, grows_with="1/a")
    assert issubclass(TooMuchWork, ValueError)


def test_a_long_computation_is_announced_with_its_estimate(caplog):
    caplog.set_level(logging.INFO, logger="arete_proofs")
    check_work("a scan", 50, 100, "points", seconds_each=1.0, grows_with="1/a")
    assert [r.getMessage() for r in caplog.records] == ["a scan: 50 points, about 50 s"]


# (family, parameters, what is computed, a word of the message): each ran past 30 s before the check
REFUSED = [
    # the window's pmf table: 1.4e8 lattice points (tight_lattice: use_table)
    ("lattice_laplace", {"a": "1e-6", "m": 2, "b": "0.3", "h": "0.5"}, "tight_epsilon", "lattice points"),
    # h far above b: 2e12 lattice points
    ("lattice_laplace", {"a": 2, "m": 2, "b": "0.3", "h": "1e12"}, "tight_epsilon", "lattice points"),
    # the Gaussian's width sigma/h = 2e12 lattice steps: every density value sums 1e25 terms
    ("lattice_gauss", {"a": 2, "m": 2, "sigma": "1e12", "h": "0.5"}, "pdf", "lattice terms"),
    ("lattice_gauss", {"a": 2, "m": 2, "sigma": "0.3", "h": "1e-12"}, "tight_epsilon", "kernel terms"),
    ("lattice_gauss", {"a": 2, "m": 2, "sigma": "1e12", "h": "0.5"}, "certify", "lattice terms"),
    # the top scale's rate a_top = 1e-6: E|Z| sums a table of 1.5e8 points
    ("lattice_gauss_top", {"a": 2, "a_top": "1e-6", "m": 2, "sigma": "0.3", "h": "0.5"}, "mean_abs",
     "lattice points"),
    # the tilt a/(m h) = 15: the Skellam kernel's radius is 4.4e6 Bessel values
    ("lattice_skellam", {"a": 30, "m": 2, "mu": "0.5", "h": 1}, "tight_epsilon", "Bessel values"),
    # mu = 1e5: the certificate's kernel is 2.4e5 balls wide, its window sums about R^2 products
    ("lattice_skellam", {"a": 2, "m": 2, "mu": "1e5", "h": 1}, "certify", "kernel-window products"),
]


def _compute(noise, what):
    if what == "pdf":
        return noise.pdf("0.5", digits=12)
    if what == "certify":
        return noise.certify(1, numeric=False)
    if what == "mean_abs":
        return noise.mean_abs(digits=12)
    return noise.tight_epsilon(1, digits=12)


@pytest.mark.parametrize("family, params, what, unit", REFUSED, ids=lambda v: v if isinstance(v, str) else None)
def test_beyond_the_machine_is_refused_at_once(family, params, what, unit):
    t0 = time.monotonic()
    with pytest.raises(TooMuchWork, match=unit):
        _compute(make(family, **params), what)
    assert time.monotonic() - t0 < 60  # a refusal, not a run (seconds in place of hours; CI's load allowed for)


def test_the_refusal_is_one_cli_line_naming_the_options(capsys):
    code, out, err = run(capsys, "epsilon", "--noise", "lattice_laplace", "--a", "1e-6", "--m", "2", "--b", "0.3",
                         "--h", "0.5", "--quiet")
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert "1.44e+08 lattice points" in lines[0] and "grows with" in lines[0]
    assert lines[0].endswith("(at --noise lattice_laplace --a 1e-6 --m 2 --b 0.3 --h 0.5)")


def test_the_cli_shows_the_estimate_unless_quiet(capsys, monkeypatch):
    monkeypatch.setattr(_workload, "LONG_SECONDS", 0.0)   # every estimate is "long": the base case's is shown
    argv = ("epsilon", "--noise", "lattice_laplace", "--a", "2", "--m", "2", "--b", "0.3", "--h", "0.5")
    code, _, err = run(capsys, *argv)
    assert code == 0 and "arete: the tight epsilon's window: " in err and "lattice points, about" in err
    code, _, err = run(capsys, *argv, "--quiet")
    assert code == 0 and "about" not in err
    assert logging.getLogger("arete_proofs").handlers == []   # the CLI's handler is removed after the command


def test_an_engine_short_of_accuracy_is_a_refusal_and_a_zero_division_a_bug(capsys, monkeypatch):
    dlap = type(make("dlap", a=1))

    def short(self, k, *, digits=None):
        raise ArithmeticError("the enclosure does not narrow below 10^-digits")

    monkeypatch.setattr(dlap, "pmf", short)
    code, _, err = run(capsys, "density", "--noise", "dlap", "--a", "1", "--", "0")
    assert code == 2 and "cannot reach its accuracy" in err and "(at --noise dlap --a 1)" in err, err

    def bug(self, k, *, digits=None):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(dlap, "pmf", bug)
    code, _, err = run(capsys, "density", "--noise", "dlap", "--a", "1", "--", "0")
    assert code not in (0, 2) and "internal error: ZeroDivisionError" in err, err


def test_a_rate_beyond_700_has_its_cancellation_estimate():
    # the comb's variance underflowed to 0 and math.log(0) leaked as "math domain error" (certify --a 1e3)
    from arete_proofs.distributions.comb_poles import cancellation_bits

    assert cancellation_bits([1, 2], [1000.0, 500.0]) > 0


def test_a_ball_below_float_range_prints():
    # certify --b 1e-12 formatted a ball of about 1e-400 through math.log10 ("math domain error")
    from fractions import Fraction

    from arete_proofs.certified.comb_balls import _dec

    assert _dec(Fraction(3, 10 ** 400), 3, round) == "3.00E-400"
    assert _dec(Fraction(3 * 10 ** 400), 3, round) == "3.00E+400"   # above float range: no OverflowError


def test_the_transformed_gdl_window_stops_growing_at_its_cost_limit():
    # h/b = 400: the window grew to 40000 points at 22000 working digits (hours); now it stops below the cost limit
    from arete_proofs.privacy.tight_lattice import _GDL_MAX_COST, _gdl_table_cost

    assert _gdl_table_cost(1600, 1, 12) < _gdl_table_cost(6400, 1, 12) <= _GDL_MAX_COST < _gdl_table_cost(25600, 1, 12)
