"""The lattice + Gaussian optimiser (issue 24): the float64 estimator against the exact engine, the search.

Reference values: the exact tight epsilon of a = 7.945, m = 28,
sigma = 0.015, h = 1/28 (``tight_epsilon_lattice_gauss`` at 8 digits, grid 16: 8.0041235, attained
at the interior pair (0.99685, 1.98257), tail limit 7.9979760); the small points are checked here
against :func:`arete_proofs.privacy.tight_lattice.tight_epsilon_lattice_gauss` (mpmath, golden-section
refinement: an independent implementation of the same supremum).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from arete_proofs.privacy import optimize_lattice as ol
from arete_proofs.privacy import optimizer
from arete_proofs.privacy.tight_lattice import tight_epsilon_lattice_gauss


def test_estimator_reproduces_the_recorded_interior_maximum():
    r = ol.estimate(7.945, 28, 0.015)
    assert abs(r["epsilon"] - 8.0041235) < 1e-6          # the exact engine (8 digits)
    assert abs(r["tail"] - 7.9979760) < 1e-6
    t, v = r["window_pair"]
    assert abs(t - 0.99685) < 1e-4 and abs(v - 1.98257) < 1e-4
    assert r["window"] > r["tail"]                        # attained in the window, not in the tail


@pytest.mark.parametrize("a, m, sigma", [(3.0, 2, 0.2), (3.9, 4, 0.1)])
def test_estimator_against_the_exact_engine(a, m, sigma):
    exact = tight_epsilon_lattice_gauss(repr(a), m, repr(sigma), repr(1 / m), 1, digits=6, grid=12)
    e = ol.estimate_epsilon(a, m, sigma)
    assert abs(e - float(exact.epsilon)) < 1e-6 * float(exact.epsilon)   # measured: < 1e-14


def test_tilted_pmf_against_the_exact_pmf():
    from arete_proofs.distributions.comb import msdlap_pmf

    q, k0 = ol.tilted_pmf(3.0, 4)
    for k in (-5, 0, 3, 17, 60):
        p = float(msdlap_pmf(k, "3", 4, digits=20))
        assert abs(q[k0 + k] * math.exp(-0.75 * k) / p - 1) < 1e-10


def test_moments_against_the_exact_law():
    from arete_proofs.distributions.lattice import lattice_gauss

    z = lattice_gauss("3.5", 3, "0.1", repr(1 / 3), digits=15)
    assert abs(ol.mean_abs(3.5, 3, 0.1, 1 / 3) / float(z.mean_abs()) - 1) < 1e-10
    assert abs(ol.variance(3.5, 3, 0.1, 1 / 3) / float(z.var()) - 1) < 1e-12


def test_loss_decreases_in_sigma_and_bisection_meets_the_target():
    s = ol.solve_sigma(4.0, 3.9, 4)
    assert abs(ol.estimate_epsilon(3.9, 4, s) - 4.0) < 1e-8
    assert ol.estimate_epsilon(3.9, 4, 0.9 * s) > 4.0 > ol.estimate_epsilon(3.9, 4, 1.1 * s)
    assert ol.solve_sigma(4.0, 4.1, 4) is None           # a above the target: the tail limit is >= a


def _single_shift(a, m, sigma, Delta=1.0, h=None, *, grid=8, a_top=None):
    """A broken estimator: only the shift +Delta (as for a unimodal law), on the same grid."""
    h = Delta / m if h is None else h
    q, k0 = ol.tilted_pmf(a, m)
    lam_h = a / m / h
    t = np.arange(0.0, 40.0, h / grid)
    lf = lambda x: ol._logF(x, q, k0, h, sigma, lam_h) - lam_h * x  # noqa: E731
    return float(np.max(lf(t) - lf(t + Delta)))


def test_a_single_shift_estimator_is_caught_by_the_exact_check(monkeypatch):
    """The bisection on the broken estimator gives a sigma whose exact tight epsilon exceeds the target."""
    target, a, m = 4.0, 3.9, 3
    good = ol.solve_sigma(target, a, m)
    monkeypatch.setattr(ol, "estimate_epsilon", _single_shift)
    bad = ol.solve_sigma(target, a, m)
    assert bad < 0.9 * good
    p = ol.LatticeGaussProblem(target, m=m)
    r = p.certify(p.scaled({"a": a, "m": m, "sigma": bad, "h": 1 / m}, 1.0), 1, 5)
    assert r.upper_bound > target + 1e-3 and not r.certified     # caught by the exact engine
    from arete_proofs.noise import family

    p = family("lattice_gauss").search_problem(target, m=m)      # with the noise class: the proved enclosure
    r = p.certify(p.scaled({"a": a, "m": m, "sigma": bad, "h": 1 / m}, 1.0), 1, 5)
    assert r.certified and r.lower_bound > target + 1e-3          # caught, and proved above the target


def test_optimize_small_m_confirms_with_one_certificate():
    from arete_proofs.noise import family

    p = family("lattice_gauss").search_problem(4, m=3, confirm_digits=5, scan_points=4, maxfev=6)
    o = optimizer.optimize(p, 1, digits=5)
    assert o.confirmations == 1 and o.epsilon_upper <= 4
    assert o.params["m"] == 3 and o.params["epsilon_certified"] is True       # the cover's enclosure
    from arete_proofs.distributions import staircase

    st = float(staircase.mean_abs(staircase.gamma_mean_abs(4), 1, 4))
    assert 1.0 < float(o.mean_abs) / st < 1.4                     # the Staircase is the floor
    assert o.noise.name == "lattice_gauss"


def test_search_problem_hook_and_bad_input():
    from arete_proofs.noise import family

    fam = family("lattice_gauss")
    assert "optimize" in fam.supports
    p = fam.search_problem(8, objective="variance", m=28)
    assert isinstance(p, ol.LatticeGaussProblem) and p.noise_class is fam
    with pytest.raises(ValueError, match="objective"):
        ol.LatticeGaussProblem(8, objective="median")
    with pytest.raises(ValueError, match="eps"):
        ol.LatticeGaussProblem("-1")
    with pytest.raises(ValueError, match="m must"):
        ol.LatticeGaussProblem(8, m=1)
    with pytest.raises(ValueError, match="sigma"):
        ol.estimate(3.0, 2, -0.1)


def test_a_table_beyond_float64_is_refused():
    """m = 100 at a = 11.6: the tilted pmf spans ~2e8, FFT rounding would exceed 1e-8 relative."""
    with pytest.raises(ValueError, match="too large"):
        ol.tilted_pmf(11.6, 100)
    # the optimiser does not use that table above LARGE_M: privacy.lattice_large (positive sums) instead
    assert 100 > ol.LARGE_M
    p = ol.LatticeGaussProblem(12, m=100)
    assert math.log(1e-4) < p.F(np.array([math.log(0.4)])) < math.log(0.01)   # log E|Z|: a value, not the 1e9 refusal
