"""privacy.optimize_discrete: MSDLap's and Theorem 21's E|Z| by the characteristic function, and the optimised
MSDLap and GDL at exact tight epsilon.

Independent checks: E|Z| against the partial fractions (distributions.comb.comb_mean_abs) and a direct
float convolution of the DLap pmfs; Theorem 21's against the lattice law's pmf sum
(distributions.lattice.lattice_laplace(...).mean_abs); every optimum's tight epsilon recomputed by the exact
engines, and a slightly larger rate shown to break the budget (the bisection is tight).
"""

from __future__ import annotations

import pytest
from _msdlap_reference import convolution_mean_abs  # tests/_msdlap_reference.py
from mpmath import mp

from arete_proofs.privacy import optimize_discrete as od


@pytest.mark.parametrize("a,m", [(2, 1), (2, 3), ("0.7", 5), (5, 10), (12, 4)])
def test_msdlap_mean_abs_against_partial_fractions(a, m):
    from arete_proofs.distributions.comb import comb_mean_abs

    ref = comb_mean_abs(tuple(range(1, m + 1)), (str(a),) * m, digits=20)
    assert abs(od.msdlap_mean_abs(a, m) / ref - 1) < 1e-12


def test_msdlap_mean_abs_against_a_convolution():
    for a, m in [(1.5, 3), (4.0, 6)]:
        assert abs(float(od.msdlap_mean_abs(a, m)) / convolution_mean_abs(a, m, K=400) - 1) < 1e-11
    assert float(od.msdlap_mean_abs(1, 1)) == pytest.approx(float(1 / mp.sinh(1)), rel=1e-13)  # DLap: 1/sinh a


def test_too_few_points_are_caught():
    # the N-point trapezoid rule is E|Z| + 2 sum_l E(|Z| - lN)_+: too small an N overestimates, visibly
    A, m = mp.mpf(1), 4
    true = od.msdlap_mean_abs(A, m)
    N = 8
    coarse = (float(od.msdlap_var(A, m)) + od._grid_sums(A, m, N)[0]) / N
    assert coarse > float(true) * (1 + 1e-3)


def test_theorem21_mean_abs_against_the_pmf_sum():
    from arete_proofs.distributions.lattice import lattice_laplace, theorem21_parameters

    for eps in (2, 4, 8):
        p = theorem21_parameters(eps, 1)
        ref = lattice_laplace(*p, digits=15).mean_abs()
        assert abs(od.theorem21_mean_abs(*p) / ref - 1) < 1e-11, eps


def test_optimize_msdlap_feasible_and_tight():
    from arete_proofs.privacy.tight_discrete import tight_epsilon_msdlap

    o = od.optimize_msdlap(5, 4)
    assert float(tight_epsilon_msdlap(o["a"], o["m"], 4, digits=12).epsilon) <= 5 * (1 + 1e-10)
    # a broken variant: 0.1 % more rate overspends (the bisection or a = eps m/Delta is at the edge)
    bigger = mp.nstr(mp.mpf(o["a"]) * mp.mpf("1.001"), 20)
    assert tight_epsilon_msdlap(bigger, o["m"], 4, digits=12).epsilon > 5
    # never worse than Theorem 16 (m = Delta, a = eps) nor DLap(eps/Delta) (m = 1)
    assert o["mean_abs"] <= od.msdlap_mean_abs(5, 4) * (1 + 1e-12)
    assert o["mean_abs"] <= 1 / mp.sinh(mp.mpf(5) / 4) * (1 + 1e-12)
    ov = od.optimize_msdlap(5, 4, objective="variance")
    assert ov["variance"] <= o["variance"] * (1 + 1e-12)


def test_optimize_gdl_feasible_and_better_than_theorem15():
    from arete_proofs.distributions import gdl
    from arete_proofs.privacy.tight_gdl import tight_epsilon

    o = od.optimize_gdl(10, 10)
    assert tight_epsilon(o["beta"], o["a"], 10, digits=15).epsilon <= 10
    bigger = mp.nstr(mp.mpf(o["a"]) * mp.mpf("1.001"), 20)
    assert tight_epsilon(o["beta"], bigger, 10, digits=15).epsilon > 10
    beta15, a15 = mp.nstr(10 * mp.exp(-8), 25), "0.2"          # Theorem 15's parameters
    assert o["mean_abs"] < gdl.mean_abs(beta15, a15, digits=12)
    assert o["mean_abs"] < 1 / mp.sinh(1)                       # DLap(eps/Delta)


def test_bad_input():
    with pytest.raises(ValueError, match="Delta"):
        od.optimize_msdlap(5, 2.5)
    with pytest.raises(ValueError, match="objective"):
        od.optimize_gdl(5, 2, objective="median")
    with pytest.raises(ValueError, match="digits"):
        od.msdlap_mean_abs(1, 3, digits=20)
    with pytest.raises(ValueError, match="m must"):
        od.msdlap_mean_abs(1, 0)
    with pytest.raises(ValueError, match="eps"):
        od.optimize_gdl(0, 2)
