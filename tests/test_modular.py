"""Secure aggregation modulo q with GDL/DLap shares (arete_proofs.mechanisms.modular): the sum of residues is the
residue of the sum, dropouts leave GDL((n-k) beta/n, a) whose exact tight epsilon is reported, the wrap-around
probability is exact (checked against a direct pmf sum and a simulation), the survivors' noise has the right law
(chi-squared, with a power check), and the exact modular epsilon agrees with an independent brute force."""

from __future__ import annotations

import numpy as np
import pytest
from mpmath import mp

from arete_proofs.distributions import gdl
from arete_proofs.mechanisms import modular as M
from arete_proofs.privacy import tight_gdl

from _gdl_reference import gdl_pmf_conv


@pytest.fixture(autouse=True)
def _working_precision():
    # the references below are computed and compared at 40 digits (the library works at its digits= anyway)
    with mp.workdps(40):
        yield


@pytest.mark.parametrize("q, n, dropped", [(2, 3, 0), (16, 5, 2), (97, 10, 0), (1 << 20, 7, 6)])
def test_sum_of_residues_is_residue_of_sum(q, n, dropped):
    rng = np.random.default_rng(q + n)
    values = rng.integers(0, 50, size=(500, n))
    out = M.modular_sum(values, q, beta="1.5", a="0.3", dropped=dropped, rng=rng)
    assert out.values.shape == out.shares.shape == (500, n - dropped)
    assert ((out.values == values[:, : n - dropped]).all())
    # each party sends (x_i + z_i) mod q; the aggregator's sum mod q = (sum x_i + sum z_i) mod q
    assert np.array_equal(out.released, (out.values.sum(-1) + out.shares.sum(-1)) % q)
    assert ((0 <= out.released) & (out.released < q)).all()
    assert np.array_equal(out.noise, out.shares.sum(-1)) and np.array_equal(out.true_sum, out.values.sum(-1))
    # decoding: congruent to the release, inside the window; wrong exactly when it wrapped
    assert ((out.decoded - out.released) % q == 0).all()
    assert ((out.window <= out.decoded) & (out.decoded < out.window + q)).all()
    assert np.array_equal(out.wrapped, out.decoded != out.true_sum + out.noise)
    assert ((out.decoded - out.true_sum - out.noise) % q == 0).all()


def test_a_broken_aggregator_is_caught():
    # the test of the homomorphism can fail: summing without the modular reduction of each share differs
    out = M.modular_sum(np.full((200, 4), 7), 8, beta=1, a="0.2", rng=1)
    assert not np.array_equal(out.values.sum(-1) + out.shares.sum(-1), out.released)


@pytest.mark.parametrize("n, k, beta, a, Delta", [(10, 0, 1, "0.5", 1), (10, 3, 1, "0.5", 1), (8, 3, "0.5", 1, 2),
                                                   (4, 1, 4, "0.2", 3), (3, 2, "2.5", "0.7", 1)])
def test_dropout_privacy_is_tight_gdl_at_the_surviving_beta(n, k, beta, a, Delta):
    r = M.surviving_privacy(n, k, beta, a, Delta=Delta, digits=20)
    with mp.workdps(40):
        b = mp.mpf(beta) * (n - k) / n
        ref = tight_gdl.tight_epsilon(b, a, Delta, digits=20)
    assert mp.almosteq(r.beta, b, 1e-30)
    assert mp.almosteq(r.epsilon, ref.epsilon, 1e-19) and r.tight.attained == ref.attained
    # fewer survivors, less noise, weaker privacy
    if k:
        assert r.epsilon >= M.surviving_privacy(n, 0, beta, a, Delta=Delta, digits=20).epsilon
    # Var N = beta_surv/(cosh a - 1), E|N| from the exact pmf
    assert mp.almosteq(r.var, b / (mp.cosh(mp.mpf(a)) - 1), 1e-18)
    ps = gdl_pmf_conv(range(0, 400), b, a, 20)
    assert mp.almosteq(r.mean_abs, 2 * mp.fsum(j * ps[j] for j in range(1, 400)), 1e-10)


def test_dlap_split_among_parties_is_not_dlap_after_a_dropout():
    # DLap(a) = GDL(1, a): with every party present the loss is a Delta; one dropout gives beta < 1: more
    full = M.surviving_privacy(5, 0, 1, 1, Delta=2)
    one = M.surviving_privacy(5, 1, 1, 1, Delta=2)
    assert mp.almosteq(full.epsilon, 2) and one.epsilon > 2 and one.tight.witness == 0


def test_survivors_noise_law_chi_squared_with_power():
    from scipy import stats

    n, k, beta, a = 6, 2, 1.5, 0.6
    out = M.modular_sum(np.zeros((200_000, n), dtype=np.int64), 1 << 30, beta=beta, a=a, dropped=k, rng=11)
    z = out.noise
    b = beta * (n - k) / n

    def pvalue(bb, aa):
        K = 12
        probs = [float(gdl.pmf(j, bb, aa, digits=15)) for j in range(-K, K + 1)]
        tails = float(gdl.sf(K, bb, aa, digits=15))
        exp = np.array([tails] + probs + [tails]) * len(z)
        obs = np.array([(z < -K).sum()] + [(z == j).sum() for j in range(-K, K + 1)] + [(z > K).sum()])
        return stats.chisquare(obs, exp).pvalue

    assert pvalue(b, a) > 1e-6
    assert pvalue(b, a * 1.3) < 1e-6          # power: a 30% wrong scale is rejected
    assert pvalue(b * 1.3, a) < 1e-6          # and a 30% wrong shape


@pytest.mark.parametrize("beta, a, q, T, w", [(1, 1, 11, 0, None), ("0.4", "0.3", 50, 10, -20), (3, "0.5", 40, -5, -25)])
def test_wrap_probability_exact_against_a_direct_sum(beta, a, q, T, w):
    p = M.wrap_probability(beta, a, q, T, w, digits=20)
    lo = -(q // 2) if w is None else w
    ps = gdl_pmf_conv(range(-q - 50, q + 50), beta, a, 25)
    inside = mp.fsum(ps[x - T] for x in range(lo, lo + q))          # P(T + N in [w, w + q))
    assert mp.almosteq(p, 1 - inside, 1e-18)


def test_wrap_probability_matches_simulation():
    q, n, beta, a = 24, 4, 2, "0.35"
    out = M.modular_sum(np.ones((100_000, n), dtype=np.int64), q, beta=beta, a=a, rng=5)
    p = float(M.wrap_probability(beta, a, q, n, out.window, digits=15))
    freq = out.wrapped.mean()
    assert 0.01 < p < 0.2
    assert abs(freq - p) < 5 * np.sqrt(p * (1 - p) / len(out.wrapped))
    r = M.surviving_privacy(n, 0, beta, a, q=q, sum_range=(0, n), window=out.window)
    assert r.wrap_probability >= p


def _modular_brute(beta, a, q, Delta):
    """Independent: wrapped pmf from the NB convolution, every residue, every shift |s| <= Delta."""
    K = 12 * q + int(80 / float(a))                     # P(|N| > K) < 1e-30: below the compared digits
    ps = gdl_pmf_conv(range(0, K + 1), beta, a, 20)
    with mp.workdps(40):
        w = [mp.fsum(ps[abs(x)] for x in range(-K, K + 1) if x % q == r) for r in range(q)]
        return max(mp.log(w[r]) - mp.log(w[(r + s) % q]) for r in range(q) for s in range(-Delta, Delta + 1) if s)


@pytest.mark.parametrize("beta, a, q, Delta", [("0.5", "0.7", 8, 3), (2, 1, 6, 1), (1, "0.4", 5, 2)])
def test_modular_epsilon_against_brute_force(beta, a, q, Delta):
    e = M.modular_tight_epsilon(beta, a, q, Delta, digits=15)
    assert mp.almosteq(e, _modular_brute(beta, a, q, Delta), 1e-13)
    assert e <= tight_gdl.tight_epsilon(beta, a, Delta, digits=15).epsilon


def test_modular_epsilon_tends_to_tight_epsilon_when_attained():
    # beta < 1: eps* is attained at k = 0, so a large modulus loses nothing
    t = tight_gdl.tight_epsilon("0.5", "0.7", 3, digits=15).epsilon
    e = M.modular_tight_epsilon("0.5", "0.7", 400, 3, digits=15)
    assert mp.almosteq(e, t, 1e-12)
    assert M.modular_tight_epsilon("0.5", "0.7", 6, 3, digits=15) < t - mp.mpf("0.1")


@pytest.mark.parametrize("call, message", [
    (lambda: M.modular_sum([1, 2], 1, 1, 1), "q must be an integer >= 2"),
    (lambda: M.modular_sum([1, 2], 8, 1, 1, dropped=2), "dropped must be"),
    (lambda: M.modular_sum([1.5, 2], 8, 1, 1), "values must be integers"),
    (lambda: M.surviving_privacy(4, 0, -1, 1), "beta"),
    (lambda: M.surviving_privacy(4, 0, 1, 1, Delta="1.5"), "Delta"),
    (lambda: M.modular_tight_epsilon(1, 1, 10**6), "q must be at most"),
])
def test_bad_input_is_a_one_line_value_error(call, message):
    with pytest.raises(ValueError, match=message) as exc:
        call()
    assert "\n" not in str(exc.value)
