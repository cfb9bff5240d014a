"""Every public entry of the ID floors (Theorems E and F) refuses parameters outside the range its proof needs.

The case that motivated the checks: :func:`arete_proofs.privacy.id_variance.floor_bound` with :math:`\\rho \\ge 1`
makes the floor's factor :math:`1 - \\rho^3` negative, its square in :math:`(AB^2/4)^{1/3}` positive, and the ball
"proves" :math:`\\operatorname{Var} Z \\ge 1.5` times the Staircase's least variance at :math:`\\varepsilon = 20`, which a
certified noise contradicts (the top-rate lattice + Gaussian row of ``docs/data/frontier-variance.json``, 1.2418 times
the Staircase).  The first test reproduces that claim's arithmetic without the check (so it fails on the old code)
and shows that the entry now refuses it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint")

from arete_proofs.privacy import id_mean_abs as im   # noqa: E402
from arete_proofs.privacy import id_variance as iv   # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _lattice_top_ratio(eps):
    """The certified top-rate row's variance over the Staircase's at ``eps`` (frontier-variance.json)."""
    rows = json.loads((ROOT / "docs" / "data" / "frontier-variance.json").read_text())["rows"]
    row = next(r for r in rows if float(r["eps"]) == eps)
    top = row["lattice_top"]
    assert top["certified"] is True
    return float(top["variance"]) / float(row["staircase"]["variance"])


def test_rho_at_least_one_is_refused_where_it_used_to_prove_a_false_floor():
    V = Fraction(3, 2) * Fraction(float(iv.staircase_variance_upper(20).upper()))
    args = (20, Fraction(3, 2), Fraction(12, 5), Fraction(39, 5))
    # the unchecked formula (B = 2 q (1 - rho^3)/3 < 0, squared): L(V) > V, i.e. "Var >= 1.5 x Staircase"
    flint = pytest.importorskip("flint")
    e, rho, k, u = (iv._arb(Fraction(x)) for x in args)
    Va = iv._arb(V)
    r = args[1] / args[2]
    A = (-3 * Va / iv._arb(r * r)).exp() / (2 * flint.arb.pi())
    B = 2 * (-e).exp() * (1 - rho ** 3) / 3
    assert B < 0
    unchecked = 3 * (A * B * B / 4) ** (flint.arb(1) / 3) - iv.small_jump_tail(V, r, args[1], args[3])
    assert unchecked.lower() > Va.upper()          # the false claim
    assert 1.24 < _lattice_top_ratio(20) < 1.5     # a certified symmetric ID noise below the claim
    with pytest.raises(ValueError, match=r"^rho must be in \(0, 1\)"):
        iv.floor_bound(V, *args)


@pytest.mark.parametrize("rho", [1, Fraction(3, 2), 0, -Fraction(1, 10), "nan", "abc", True])
def test_floor_bound_rho_outside_the_open_unit_interval(rho):
    with pytest.raises(ValueError, match="^rho must be"):
        iv.floor_bound(Fraction(1, 10 ** 6), 20, rho, Fraction(12, 5), Fraction(39, 5))


@pytest.mark.parametrize("name,pos", [("V", 0), ("eps", 1), ("k", 3), ("u", 4)])
@pytest.mark.parametrize("bad", [0, -1, "inf", "x"])
def test_floor_bound_names_each_parameter(name, pos, bad):
    args = [Fraction(1, 10 ** 6), 20, Fraction(1, 10), Fraction(12, 5), Fraction(39, 5)]
    args[pos] = bad
    with pytest.raises(ValueError, match=f"^{name} must be") as ei:
        iv.floor_bound(*args)
    assert "\n" not in str(ei.value)


def test_floor_bound_still_proves_the_documented_row():
    assert iv.floor_bound(1.26e-6, 20, Fraction(1, 10), Fraction(12, 5), Fraction(39, 5)).lower() > 1.26e-6


@pytest.mark.parametrize("call,name", [
    (lambda: iv.small_jump_tail(-1, 0.05, 0.3, 2), "V"),
    (lambda: iv.small_jump_tail(0.01, 0, 0.3, 2), "r"),
    (lambda: iv.small_jump_tail(0.01, 0.05, -0.3, 2), "rho"),
    (lambda: iv.small_jump_tail(0.01, 0.05, 0.3, "nan"), "u"),
    (lambda: iv.staircase_variance_upper(-2), "eps"),
    (lambda: iv.staircase_variance_upper(10, gamma=2), "gamma"),
    (lambda: iv.staircase_scaled_upper(-0.1, 0.5), "s_lo"),
    (lambda: iv.staircase_scaled_upper(0.0, 1.0), "s_hi"),
    (lambda: iv.staircase_scaled_upper(0.5, 0.1), "s_lo"),
    (lambda: im.small_jump_mean_abs_lower(0, 0.05), "v"),
    (lambda: im.small_jump_mean_abs_lower(0.01, -1), "r"),
    (lambda: im.small_jump_abs_tail(0.01, 0.05, 0, 2), "rho"),
    (lambda: im.small_jump_abs_tail(-0.01, 0.05, 0.3, 2), "W"),
    (lambda: im.small_jump_abs_tail(0.01, 0.05, 0.3, -2), "u"),
])
def test_public_entries_name_the_bad_parameter(call, name):
    with pytest.raises(ValueError, match=f"^{name} must") as ei:
        call()
    assert "\n" not in str(ei.value)
