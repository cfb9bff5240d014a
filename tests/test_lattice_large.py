"""The large-m float64 lattice + Gaussian estimator (privacy/lattice_large.py) against independent methods.

References: the exact mpmath engine of MSDLap (distributions/comb.py: partial fractions over the
poles, a different formula from the partition-series correlation), its exact tail constants, and
the FFT-table estimator of privacy/optimize_lattice.py where both run.
"""

import math

import numpy as np
import pytest

from arete_proofs.distributions import comb
from arete_proofs.privacy import lattice_large as L
from arete_proofs.privacy import optimize_lattice as O


@pytest.mark.parametrize("a,m", [(1.5, 3), (4.0, 7), (7.9, 12)])
def test_window_pmf_matches_the_pole_formula(a, m):
    K = 5 * m
    p = L.window_pmf(a, m, K)
    for k in (0, 1, m - 1, m, m + 1, 2 * m + 1, 4 * m, 5 * m):
        exact = float(comb.msdlap_pmf(k, repr(a), m, digits=25))
        assert p[K + k] == p[K - k]
        assert abs(p[K + k] / exact - 1) < 1e-12, (k, p[K + k], exact)


@pytest.mark.parametrize("a,m", [(3.0, 4), (7.9, 12), (5.0, 25)])
def test_tail_profile_matches_the_exact_tail_constants(a, m):
    w, r = comb.msdlap_components(repr(a), m)
    C = np.array([float(c) for c in comb.tail_constants(w, r, digits=20)])
    assert np.max(np.abs(L.tail_profile(a, m) - C / C.max())) < 1e-11


def test_a_reversed_profile_is_caught():
    # the DFT's sign convention reverses the profile: the comparison above must see it
    a, m = 7.9, 12
    w, r = comb.msdlap_components(repr(a), m)
    C = np.array([float(c) for c in comb.tail_constants(w, r, digits=20)])
    broken = np.roll(L.tail_profile(a, m)[::-1], 1)
    assert np.max(np.abs(broken - C / C.max())) > 1e-3


@pytest.mark.parametrize("a,m,sigma", [(7.945, 28, 0.015), (7.94923, 34, 0.012328)])
def test_estimate_agrees_with_the_fft_table(a, m, sigma):
    big = L.estimate(a, m, sigma)
    ref = O.estimate(a, m, sigma)
    assert abs(big["tail"] - ref["tail"]) < 1e-10
    # the window here stops at 3 Delta, the table's runs on: the window can only be lower
    assert big["window"] <= ref["window"] + 1e-10
    assert abs(big["epsilon"] - ref["epsilon"]) < 1e-9


def test_mean_abs_matches_the_exact_engine():
    from arete_proofs.distributions.lattice import lattice_gauss

    exact = float(lattice_gauss("3", 5, "0.07", "0.2", digits=15).mean_abs())
    assert abs(L.mean_abs(3.0, 5, 0.07, 0.2) / exact - 1) < 1e-12


def test_estimator_switches_above_large_m():
    # above LARGE_M the optimiser's estimate is the large-m one (same value where both run: above)
    m = O.LARGE_M + 1
    e = O.estimate(9.0, m, 0.42 / m)
    assert e == L.estimate(9.0, m, 0.42 / m)
    assert math.isfinite(e["epsilon"]) and e["tail"] > 0


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="sigma"):
        L.estimate(3.0, 4, -1.0)
