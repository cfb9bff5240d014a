"""MSDLap and DLap combs (Harrison and Manurangsi 2025, Theorems 16 and 18): exact pmf, tail, tight epsilon, samplers.

Every exact value is checked against an independent computation: the partial-fraction pmf against
the direct convolution of the DLap laws; the tail constants from the dominant poles against the
tilted sum over the pmf of the other scales; E|Z| and Var against sums over the pmf.
"""

from __future__ import annotations

import numpy as np
import pytest
from mpmath import mp

from arete_proofs.distributions import comb
from arete_proofs.noise import make
from arete_proofs.privacy import tight_discrete as td

CASES = [("1.5", 3), ("0.7", 4), ("3", 5), ("2", 1)]


@pytest.mark.parametrize("a,m", CASES)
def test_pmf_partial_fractions_equal_convolution(a, m):
    w, r = comb.msdlap_components(a, m)
    ks = [0, 1, 2, 5, 11, 17]
    conv = comb.pmf_by_convolution(ks, w, r, digits=30)
    for k, c in zip(ks, conv):
        assert mp.almosteq(comb.comb_pmf(k, w, r, digits=25), c, 1e-24), (a, m, k)
        assert comb.comb_pmf(-k, w, r, digits=25) == comb.comb_pmf(k, w, r, digits=25)


def test_pmf_of_theorem18_comb_equals_convolution():
    w, r = comb.theorem18_components("4.5", 6, 2)          # 2 MSDLap(3.5, 3) + DLap(1/2)
    ks = [0, 1, 3, 8]
    for k, c in zip(ks, comb.pmf_by_convolution(ks, w, r, digits=30)):
        assert mp.almosteq(comb.comb_pmf(k, w, r, digits=25), c, 1e-24)


def test_a_wrong_comb_is_caught():
    """The comparison can fail: a 1% wrong rate or one scale fewer is far outside the tolerance."""
    w, r = comb.msdlap_components("1.5", 3)
    c = comb.pmf_by_convolution([4], w, r, digits=30)[0]
    assert not mp.almosteq(comb.msdlap_pmf(4, "1.515", 3, digits=25), c, 1e-6)
    assert not mp.almosteq(comb.msdlap_pmf(4, "1.5", 2, digits=25), c, 1e-6)


def test_double_poles_refused():
    with pytest.raises(ValueError, match="distinct"):
        comb.comb_pmf(0, [1, 2], ["1", "2"], digits=10)   # moduli 1/1 = 2/2


def test_tail_constants_against_tilted_sum():
    """C_r = tanh(a/2) sum_{y = r mod m} P(Y = y) e^{a y/m}, Y = sum_{i<m} i X_i (by convolution)."""
    a, m = "2", 3
    C = comb.tail_constants(*comb.msdlap_components(a, m), digits=20)
    with mp.workdps(40):
        # the cut at |x| <= T (T ~ 120 at 90 digits) leaves P(Y = y) exact for |y| <= 200, where the
        # terms e^{-y/3} of the sum are already below 1e-28
        ys = list(range(-200, 201))
        py = comb.pmf_by_convolution(ys, [1, 2], [a, a], digits=90)
        for res in range(m):
            s = mp.tanh(1) * mp.fsum(p * mp.exp(2 * mp.mpf(y) / 3) for y, p in zip(ys, py) if y % m == res)
            assert mp.almosteq(s, C[res], 1e-18)


@pytest.mark.parametrize("k", [0, 5, 40, 200])
def test_tail_error_bound_holds(k):
    w, r = comb.msdlap_components("1", 4)
    C = comb.tail_constants(w, r, digits=25)
    E, _ = comb.tail_error_bound(k, w, r)
    with mp.workdps(30):
        x = comb.comb_pmf(k, w, r, digits=30) * mp.exp(mp.mpf(k) / 4)
        assert C[k % 4] - E <= x <= C[k % 4] * (1 + mp.mpf(10) ** -25)


def test_mean_abs_var_sf_against_sums():
    w, r = comb.msdlap_components("1.2", 3)
    ks = list(range(-300, 301))
    with mp.workdps(30):
        p = comb.pmf_by_convolution(ks, w, r, digits=28)
        assert mp.almosteq(comb.comb_mean_abs(w, r, digits=20), mp.fsum(abs(k) * x for k, x in zip(ks, p)), 1e-18)
        assert mp.almosteq(comb.comb_var(w, r, digits=20), mp.fsum(k * k * x for k, x in zip(ks, p)), 1e-18)
        assert mp.almosteq(comb.comb_sf(4, w, r, digits=20), mp.fsum(x for k, x in zip(ks, p) if k > 4), 1e-18)
        assert mp.almosteq(comb.comb_sf(-3, w, r, digits=20), mp.fsum(x for k, x in zip(ks, p) if k > -3), 1e-18)


def test_float_table_against_exact():
    p = comb.float_pmf_table([1, 2, 3, 4], [0.8] * 4, 300)
    for k in (0, 7, 100, 299):
        assert abs(p[300 + k] / float(comb.msdlap_pmf(k, "0.8", 4, digits=20)) - 1) < 1e-11


# -- tight epsilon ------------------------------------------------------------------------------------
@pytest.mark.parametrize("a,m", [("1", 3), ("0.5", 4), ("3", 5), ("2", 6)])
def test_theorem16_eps_equals_a_as_tail_limit(a, m):
    """Theorem 16: MSDLap(eps, Delta) is eps-DP at Delta = m; tight, as the tail limit (s = m), not attained."""
    r = td.tight_epsilon_msdlap(a, m, m, digits=12)
    assert abs(r.epsilon - mp.mpf(a)) < 1e-12 and not r.attained
    assert r.upper_bound - r.lower_bound < 1e-16 and r.tail_shift[1] == m


def test_window_loss_independent_of_engine():
    """Brute force with the convolution pmf: every pair's loss is at most eps*, and the best nears it."""
    a, m, D = "1", 3, 2
    r = td.tight_epsilon_msdlap(a, m, D, digits=12)
    # the convolution cuts each DLap(1) at |x| <= 140 (digits 45): p_k is exact for |k| <= 150
    ks = list(range(-D, 150 + D))
    with mp.workdps(50):
        lp = dict(zip(ks, [mp.log(x) for x in comb.pmf_by_convolution(ks, *comb.msdlap_components(a, m), digits=45)]))
        best = max(lp[k] - lp[j] for k in range(0, 150) for j in range(k - D, k + D + 1))
    assert best <= r.epsilon + 1e-12 and best > r.epsilon - 1e-3


@pytest.mark.parametrize("eps,D,rr", [("4.5", 4, 2), ("5.5", 10, 3), ("3.5", 6, 2)])
def test_theorem18_holds(eps, D, rr):
    r = td.tight_epsilon_theorem18(eps, D, rr, digits=10)
    assert r.upper_bound <= mp.mpf(eps)


def test_bad_input():
    with pytest.raises(ValueError, match="Delta"):
        td.tight_epsilon_msdlap(1, 2, 1.5)
    with pytest.raises(ValueError, match="m must"):
        make("msdlap", a=1, m="2.5")
    with pytest.raises(ValueError, match="a must"):
        make("msdlap", a=-1, m=2)


# -- samplers and shares ----------------------------------------------------------------------------------
def _chi2_p(x, pmf, lo, hi):
    from scipy import stats

    ks = np.arange(lo, hi + 1)
    obs = np.array([np.sum(x <= lo)] + [np.sum(x == k) for k in ks[1:-1]] + [np.sum(x >= hi)], dtype=float)
    p = np.array([pmf(k) for k in ks])
    cdf_lo = sum(pmf(k) for k in range(lo - 400, lo + 1))
    p[0], p[-1] = cdf_lo, cdf_lo
    p = p / p.sum()
    return stats.chisquare(obs, p * len(x)).pvalue


def test_sampler_and_shares_chi_squared_with_power():
    z = make("msdlap", a="1.2", m=3)
    pm = {k: float(z.pmf(k, digits=16)) for k in range(-420, 421)}
    x = z.sample(100_000, rng=11)
    assert _chi2_p(x, pm.get, -12, 12) > 1e-6
    s = z.shares(7).sample(100_000, rng=12, summed=True)
    assert _chi2_p(s, pm.get, -12, 12) > 1e-6
    wrong = make("msdlap", a=str(1.2 * 0.7), m=3).sample(100_000, rng=13)   # a 30% wrong scale
    assert _chi2_p(wrong, pm.get, -12, 12) < 1e-6
    assert z.shares(7).sum_law(14).var() == pytest.approx(2 * float(z.var(digits=16)))


@pytest.mark.slow
def test_theorem16_larger_delta():
    r = td.tight_epsilon_msdlap("2", 30, 30, digits=12)
    assert abs(r.epsilon - 2) < 1e-12 and not r.attained
