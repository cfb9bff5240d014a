"""Hockey-stick delta and PLDs of integer-valued noise (issue 23, item 4):
arete_proofs.privacy.accounting_discrete against the plain sum over a window for every shift,
the inverse, the dispatch of accounting.py / pld.py, and dp_accounting's own discrete Laplace PLD."""

import math

import pytest
from mpmath import mp

from arete_proofs.noise import make
from arete_proofs.privacy import accounting, accounting_discrete as ad, pld


@pytest.fixture(autouse=True)
def _working_precision():
    with mp.workdps(40):
        yield


# (noise params, Delta, eps): beta < 1 with a finite A and with all of k >= 0; beta = 1; beta > 1 (infinite tail)
CASES = [({"beta": "0.5", "a": "0.7"}, 3, "2.5"), ({"beta": "0.5", "a": "0.7"}, 3, "1"),
         ({"beta": "0.3", "a": "1"}, 2, "2.05"), ({"beta": "1", "a": "0.6"}, 2, "0.5"),
         ({"beta": "2", "a": "1"}, 2, "1.5"), ({"beta": "4", "a": "1.5"}, 1, "0.2"), ({"beta": "2", "a": "1"}, 1, "0")]


@pytest.mark.parametrize("params,D,eps", CASES)
def test_exact_delta_against_window_sum_over_every_shift(params, D, eps):
    z = make("gdl", **params)
    r = ad.hockey_stick_details(z, D, eps, digits=14)
    K = 120
    w, s = ad.hockey_stick_window(z, D, eps, K, digits=14)
    missed = 2 * z.sf(K - D, digits=10)          # the window misses at most the mass beyond K - Delta
    assert abs(s) == D                           # the worst shift is +-Delta (module docstring)
    assert w - 1e-13 <= r.delta <= w + missed + 1e-13
    assert r.delta > 0 and 0 < r.q_mass < r.p_mass


def test_infinite_tail_is_exact_and_matters():
    """beta > 1: A = {k1, k1+1, ...}; its tail mass is a survival function, not a window."""
    z = make("gdl", beta=2, a="0.2")
    r = ad.hockey_stick_details(z, 1, "0.19", digits=12)
    assert r.segments[-1][1] == mp.inf
    w, _ = ad.hockey_stick_window(z, 1, "0.19", 40, digits=12)
    assert r.delta > w * (1 + 1e-3)              # a window of 40 misses a visible part of delta


def test_zero_at_and_above_tight_epsilon_and_positive_below():
    z = make("gdl", beta="0.5", a="0.7")
    e = z.tight_epsilon(3, digits=20).epsilon
    assert ad.hockey_stick(z, 3, e, digits=10) == 0
    below = ad.hockey_stick(z, 3, e - mp.mpf("1e-6"), digits=10)
    assert 0 < below < 1e-6


def test_inverse():
    z = make("gdl", beta="2", a="1")
    for target in ("1e-2", "1e-5"):
        e = ad.epsilon_for_delta(z, 2, target, digits=10)
        assert mp.almosteq(ad.hockey_stick(z, 2, e, digits=10), mp.mpf(target), 1e-8)


def test_dispatch_through_accounting_and_pld():
    z = make("gdl", beta="0.5", a="0.7")
    assert accounting.hockey_stick(z, 3, 2, digits=10) == ad.hockey_stick(z, 3, 2, digits=10)
    assert accounting.epsilon_for_delta(z, 3, "1e-3", digits=8) == ad.epsilon_for_delta(z, 3, "1e-3", digits=8)
    p = pld.noise_pld(z, 3, value_discretization_interval=1e-3)
    assert p.get_delta_for_epsilon(2.0) >= float(ad.hockey_stick(z, 3, 2, digits=10))


@pytest.mark.parametrize("params,D", [({"beta": "0.5", "a": "0.7"}, 3), ({"beta": "3", "a": "0.5"}, 2),
                                      ({"beta": "0.05", "a": "0.3"}, 1)])
def test_pld_is_pessimistic_and_close(params, D):
    z = make("gdl", **params)
    h = 1e-3
    p = ad.noise_pld(z, D, value_discretization_interval=h)
    top = float(z.tight_epsilon(D).epsilon)
    for eps in (0.0, 0.3 * top, 0.7 * top, 0.95 * top):
        exact = float(ad.hockey_stick(z, D, eps, digits=10))
        got = p.get_delta_for_epsilon(eps)
        assert exact - 1e-12 <= got <= exact + 2 * h, (eps, exact, got)


def test_pld_wrong_direction_is_caught():
    """The test can fail: an optimistic PLD (losses rounded down) reports delta below the exact one."""
    from dp_accounting.pld import privacy_loss_distribution as lib

    z = make("gdl", beta="0.5", a="0.7")
    pmf, h = ad.loss_pmf(z, 3, value_discretization_interval=0.05)
    down = {k - 1: m for k, m in pmf.items()}
    p = lib.PrivacyLossDistribution.create_from_rounded_probability(down, 0.0, h, pessimistic_estimate=True)
    assert p.get_delta_for_epsilon(2.0) < float(ad.hockey_stick(z, 3, 2, digits=10))


def test_dlap_pld_matches_dp_accounting():
    """dp_accounting's own discrete Laplace mechanism (an independent implementation)."""
    from dp_accounting.pld import privacy_loss_distribution as lib

    for a, D in ((0.5, 1), (1.0, 3)):
        ours = ad.noise_pld(make("dlap", a=a), D, value_discretization_interval=1e-4)
        theirs = lib.from_discrete_laplace_mechanism(a, sensitivity=D, value_discretization_interval=1e-4)
        for eps in (0.0, 0.2, 0.5 * a * D):
            exact = float(ad.hockey_stick(make("dlap", a=a), D, eps, digits=12))
            assert math.isclose(ours.get_delta_for_epsilon(eps), theirs.get_delta_for_epsilon(eps), abs_tol=2e-4)
            assert exact - 1e-12 <= ours.get_delta_for_epsilon(eps) <= exact + 2e-4
        k1, k2 = ours.self_compose(5), theirs.self_compose(5)
        assert math.isclose(k1.get_delta_for_epsilon(1.0), k2.get_delta_for_epsilon(1.0), abs_tol=1e-3)


@pytest.mark.parametrize("call,msg", [
    (lambda: ad.hockey_stick(make("gdl", beta=1, a=1), 0, 1), "Delta must be an integer >= 1"),
    (lambda: ad.hockey_stick(make("gdl", beta=1, a=1), 1, -1), "eps must be finite and >= 0"),
    (lambda: ad.epsilon_for_delta(make("gdl", beta=1, a=1), 1, 2), "delta must be in"),
    (lambda: ad.hockey_stick(make("laplace", lam=1), 1, 1), "not an integer-valued"),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()
