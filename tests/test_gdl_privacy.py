"""Tight epsilon of GDL / DLap at integer sensitivity (issue 23, item 3): the closed form of
arete_proofs.privacy.tight_gdl against a brute force over every shift, the reduction's hypotheses
checked on the pmf, the tail limit, and the arb certificate."""

import pytest
from mpmath import mp


@pytest.fixture(autouse=True)
def _working_precision():
    """Comparisons of 20- to 40-digit values need a working precision above mpmath's default 15."""
    with mp.workdps(60):
        yield

from arete_proofs.distributions import gdl
from arete_proofs.noise import make
from arete_proofs.privacy import tight_gdl
from _gdl_reference import gdl_pmf_conv  # noqa: E402  (tests/_gdl_reference.py)

CASES = [("0.05", "0.3", 1), ("0.5", "0.7", 3), ("0.9", "2", 2), ("0.3", "0.05", 10), ("1", "1", 4),
         ("2", "1", 1), ("5", "0.4", 3)]


@pytest.mark.parametrize("beta,a,D", CASES)
def test_tight_epsilon_against_every_shift(beta, a, D):
    r = tight_gdl.tight_epsilon(beta, a, D, digits=20)
    m, k, s = tight_gdl.brute_force(beta, a, D, 4 * D + 20, digits=20)
    tol = mp.mpf(10) ** -18
    assert m <= r.epsilon * (1 + tol)            # no shift, no k exceeds the closed form
    if mp.mpf(beta) <= 1:
        assert abs(m - r.epsilon) <= tol * r.epsilon and abs(s) == D and r.attained
    else:                                        # the tail limit a Delta: approached from below, not attained
        assert m < r.epsilon and not r.attained and abs(r.epsilon - mp.mpf(a) * D) < 1e-25
        far = tight_gdl.loss(10 ** 4, D, beta, a, digits=20)
        assert m < far < r.epsilon and r.epsilon - far < 1e-2


def test_reduction_hypotheses_on_the_pmf():
    """Item 1 (monotone on k >= 0) and item 3 (log-convex for beta < 1, log-concave for beta > 1)."""
    for beta, a, sign in (("0.3", "0.5", 1), ("0.9", "1", 1), ("2", "0.5", -1), ("4", "1", -1)):
        lp = [gdl.logpmf(k, beta, a, digits=25) for k in range(60)]
        assert all(lp[k + 1] < lp[k] for k in range(59))
        second = [lp[k + 2] - 2 * lp[k + 1] + lp[k] for k in range(58)]
        assert all(sign * x > 0 for x in second), (beta, a)
        # and L_Delta is monotone accordingly
        L = [lp[k] - lp[k + 3] for k in range(57)]
        assert all(sign * (L[k] - L[k + 1]) > 0 for k in range(56))


def test_brute_force_catches_a_wrong_reduction():
    """The check can fail: a reduction that looks only at k >= 1 misses the maximiser k = 0 (beta < 1)."""
    r = tight_gdl.tight_epsilon("0.5", "0.7", 3, digits=15)
    only_k_ge_1 = max(tight_gdl.loss(k, 3, "0.5", "0.7") for k in range(1, 40))
    assert only_k_ge_1 < r.epsilon - 1e-3


def test_theorem13_value_is_ln_p0_over_pDelta():
    for beta, a, D in CASES:
        v = tight_gdl.theorem13_value(beta, a, D, digits=30)
        w = gdl.logpmf(0, beta, a, digits=30) - gdl.logpmf(D, beta, a, digits=30)
        assert abs(v - w) <= mp.mpf(10) ** -28 * abs(w)


def test_certificate_contains_the_value():
    import flint

    for beta, a, D in CASES:
        ball, case = tight_gdl.certify(beta, a, D)
        e = tight_gdl.tight_epsilon(beta, a, D, digits=40).epsilon
        assert ball.overlaps(flint.arb(mp.nstr(e, 45), "1e-42")), (beta, a, D, ball)
        assert ball.rad() < 1e-30
    # the certificate would catch a wrong value
    ball, _ = tight_gdl.certify("0.5", "0.7", 3)
    assert not ball.overlaps(flint.arb("3.2103952518"))


def test_noise_interface_and_dlap():
    z = make("dlap", a="0.25")
    r = z.tight_epsilon(Delta=8, digits=12)
    assert r.epsilon == 2 and r.attained and r.witness == (0, 8)
    g = make("gdl", beta=3, a="0.25").tight_epsilon(Delta=8)
    assert g.epsilon == 2 and not g.attained and g.t_star == mp.inf


@pytest.mark.parametrize("Delta,msg", [(0, "Delta must be an integer >= 1"), ("1.5", "Delta must be an integer"),
                                       (True, "Delta must be an integer")])
def test_bad_sensitivity(Delta, msg):
    with pytest.raises(ValueError, match=msg):
        tight_gdl.tight_epsilon("0.5", 1, Delta)


@pytest.mark.parametrize("beta,a,D", [("10", "0.1", 20), ("1.5", "1", 1), ("5", "1", 5), ("0.5", "0.7", 3)])
def test_tail_limit_from_the_asymptotics(beta, a, D):
    """Item 4, independently of the closed form's case split: p_k ~ C k^(beta-1) q^k, so
    L(k) + (beta - 1) ln((k + Delta)/k) -> a Delta with an O(1/k^2) error (checked at k = 1e4, 1e6)."""
    gaps = []
    for k in (10 ** 4, 10 ** 6):
        L = tight_gdl.loss(k, D, beta, a, digits=25)
        gaps.append(abs(L + (mp.mpf(beta) - 1) * mp.log(mp.mpf(k + D) / k) - mp.mpf(a) * D))
    assert gaps[1] < 1e-7 and gaps[1] < gaps[0] * 1e-3


def test_large_k_pmf_against_nb_convolution():
    """The direct positive series of the 2F1 where mpmath's hyp2f1 does not converge (beta > 1, large k)."""
    ref = gdl_pmf_conv([3000], "10", "0.1", 20)[3000]
    v = gdl.pmf(3000, "10", "0.1", digits=20)
    assert abs(v - ref) <= ref * mp.mpf(10) ** -19
