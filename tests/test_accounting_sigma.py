"""Approximate DP with a Gaussian part (issue 17): accounting.hockey_stick / epsilon_for_delta / pld with sigma > 0.

Parameters: alpha = 0.3, theta = 1, lam = 2, sigma = 1 (lam >= theta, so the tight epsilon is
Delta/lam = 0.5 in closed form, tight_gauss item 6, and the tests need no certified search).
The independent check integrates (f(t) - e^eps f(t+1))_+ by scipy quadrature of the float64
density of fast_gauss, a different path from the engine's survival-function differences.
"""

import math

import numpy as np
import pytest
from mpmath import mp
from scipy import integrate

from arete_proofs.distributions import fast_gauss
from arete_proofs.noise import make
from arete_proofs.privacy import accounting

P = ("0.3", 1, 2)
SIGMA = 1
TIGHT = 0.5   # Delta / lam (tight_gauss item 6)
Z = make("arete_gauss", alpha="0.3", theta=1, lam=2, sigma=SIGMA)


@pytest.fixture(scope="module")
def loss():
    return accounting._Loss(Z, 1, 4)


@pytest.fixture(scope="module")
def deltas(loss):
    """delta(eps) at eps = 0.2 and 0.45 (one engine run each, shared by the tests)."""
    return {e: accounting.hockey_stick_details(None, eps=e, _loss=loss).delta for e in (0.2, 0.45)}


def _quad_delta(eps, shift=1.0):
    """(f(t) - e^eps f(t + shift))_+ integrated over the line (float64 density, QUADPACK)."""
    a, th, lam = (float(x) for x in P)

    def g(t):
        f0, f1 = fast_gauss.pdf(np.array([t, t + shift]), a, th, lam, SIGMA)
        return max(f0 - math.exp(eps) * f1, 0.0)

    pts = [-shift / 2, 0.0, 1.0, 5.0, 20.0, 60.0]
    return sum(integrate.quad(g, x, y, limit=200, epsabs=1e-13, epsrel=1e-10)[0] for x, y in zip(pts, pts[1:])) \
        + integrate.quad(g, pts[-1], np.inf, limit=200, epsabs=1e-15)[0]


def test_tight_epsilon_is_the_closed_form(loss):
    assert loss.gauss and loss.tight.epsilon == mp.mpf(TIGHT)


@pytest.mark.slow  # the exact deltas with a Gaussian part: about 35 s
def test_delta_decreases_to_zero_at_the_tight_epsilon(loss, deltas):
    assert 0 < deltas[0.45] < deltas[0.2] < 1
    assert deltas[0.45] < 1e-2          # ~0 close to the tight epsilon
    r = accounting.hockey_stick_details(None, eps=TIGHT, _loss=loss)
    assert r.delta == 0 and r.intervals == ()


@pytest.mark.slow  # the exact deltas with a Gaussian part: about 35 s
def test_delta_against_quadrature(deltas):
    q = _quad_delta(0.2)
    assert abs(float(deltas[0.2]) / q - 1) < 1e-6
    # a deliberately broken value (delta at another eps) is caught
    assert abs(float(deltas[0.45]) / q - 1) > 1e-2


def test_bad_sigma_rejected_and_alpha_ge_1_closed_form():
    with pytest.raises(ValueError, match="sigma"):
        make("arete_gauss", alpha="0.3", theta=1, lam="0.5", sigma=-1)
    with pytest.raises(ValueError, match="sigma"):
        make("arete_gauss", alpha="0.3", theta=1, lam="0.5", sigma=0)   # sigma = 0 is the family arete
    with pytest.raises(ValueError, match="alpha"):
        make("arete_gauss", alpha="-1", theta=1, lam="0.5", sigma="0.1")
    # alpha >= 1: eps* = Delta/max(theta, lam) = 1 (tight_gauss item 7), so delta(eps*) = 0
    z = make("arete_gauss", alpha="1.5", theta=1, lam="0.5", sigma="0.1")
    assert accounting.hockey_stick(z, 1, 1, digits=6) == 0


@pytest.mark.slow  # the exact deltas with a Gaussian part: about 35 s
def test_pld_with_sigma_is_pessimistic(deltas):
    pytest.importorskip("dp_accounting", reason="the PLD needs the extra 'accounting' (dp-accounting)")
    from arete_proofs.privacy import pld

    pmf, h = pld.loss_pmf(Z, 1, value_discretization_interval=1e-2, digits=4)
    assert abs(sum(pmf.values()) - 1) < 1e-12
    assert max(pmf) * h <= TIGHT + 2 * h            # no loss above the tight epsilon (rounded up)
    p = pld.noise_pld(Z, 1, value_discretization_interval=1e-2, digits=4)
    for e in (0.2, 0.45):
        got = p.get_delta_for_epsilon(e)
        assert float(deltas[e]) <= got <= float(deltas[e]) + 0.02     # pessimistic, within O(h)
