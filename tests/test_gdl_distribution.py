"""GDL(beta, a) and DLap(a): exact values against an independent computation (issue 23, item 1).

Reference: tests/_gdl_reference.py (the negative-binomial convolution summed term by term; it shares
no code with arete_proofs.distributions.gdl, which uses the 2F1 closed form and a recurrence).
"""

import numpy as np
import pytest
from mpmath import mp

from arete_proofs.distributions import dlap, gdl

from _gdl_reference import gdl_pmf_conv  # noqa: E402  (tests/_gdl_reference.py)

PARAMS = [("0.05", "0.3"), ("0.5", "0.7"), ("0.9", "2"), ("1", "1"), ("2.5", "0.4"), ("7", "1.5")]


@pytest.mark.parametrize("beta,a", PARAMS)
@pytest.mark.parametrize("digits", [15, 40])
def test_pmf_closed_form_matches_nb_convolution(beta, a, digits):
    ks = [0, 1, -1, 2, 5, -13, 40]
    ref = gdl_pmf_conv(ks, beta, a, digits)
    for k in ks:
        v = gdl.pmf(k, beta, a, digits=digits)
        assert abs(v - ref[k]) <= abs(ref[k]) * mp.mpf(10) ** (-digits), (k, v, ref[k])


def test_a_wrong_pmf_is_caught():
    """The comparison can fail: the closed form with beta + 1e-10 differs from the convolution at 40 digits."""
    ref = gdl_pmf_conv([3], "0.5", "0.7", 40)[3]
    wrong = gdl.pmf(3, "0.5000000001", "0.7", digits=40)
    assert abs(wrong - ref) > ref * mp.mpf(10) ** -40


@pytest.mark.parametrize("beta,a", PARAMS)
def test_sf_cdf_mean_abs_var_against_direct_sums(beta, a):
    d = 25
    ks = list(range(0, 400))
    ref = gdl_pmf_conv(ks, beta, a, d) if float(a) >= 0.3 else None
    if ref is None:
        pytest.skip("slowly decaying")
    with mp.workdps(d + 10):
        tail = {n: mp.fsum(ref[k] for k in range(n + 1, 400)) for n in (0, 3, 10)}
        ma = 2 * mp.fsum(k * ref[k] for k in range(1, 400))
        v2 = 2 * mp.fsum(k * k * ref[k] for k in range(1, 400))
    tol = mp.mpf(10) ** (-d + 2)
    for n, t in tail.items():
        assert abs(gdl.sf(n, beta, a, digits=d) - t) <= tol * t
        assert abs(gdl.cdf(-n - 1, beta, a, digits=d) - t) <= tol * t          # symmetry
        assert abs(gdl.sf(n + 0.5, beta, a, digits=d) - t) <= tol * t          # floor
    assert abs(gdl.cdf(0, beta, a, digits=d) + gdl.sf(0, beta, a, digits=d) - 1) <= tol
    assert abs(gdl.mean_abs(beta, a, digits=d) - ma) <= tol * ma
    assert abs(gdl.var(beta, a, digits=d) - v2) <= tol * v2


def test_neighbouring_precisions_agree():
    """mpmath-style torture: 20 and 60 digits agree to 20 digits (pmf far out, sf, mean_abs)."""
    for f in (lambda d: gdl.pmf(250, "0.3", "0.2", digits=d), lambda d: gdl.sf(17, "2.5", "0.4", digits=d),
              lambda d: gdl.mean_abs("0.05", "0.3", digits=d)):
        lo, hi = f(20), f(60)
        assert abs(lo - hi) <= abs(hi) * mp.mpf(10) ** -20


def test_pmf_range_and_small_a():
    ps = gdl.pmf_range(300, "0.002", "0.002", digits=20)
    for k in (0, 1, 150, 300):
        v = gdl.pmf(k, "0.002", "0.002", digits=20)
        assert abs(ps[k] - v) <= v * mp.mpf(10) ** -19
    # integer beta: the recurrence's 1/(n - beta) is avoided at n = beta
    ps = gdl.pmf_range(10, 3, 1, digits=20)
    assert all(abs(ps[k] - gdl.pmf(k, 3, 1, digits=20)) <= ps[k] * mp.mpf(10) ** -19 for k in range(11))


def test_dlap_closed_forms():
    for a in ("0.1", "1", "3"):
        for k in (0, 2, -7):
            assert mp.almosteq(dlap.pmf(k, a, digits=30), gdl.pmf(k, 1, a, digits=30), 1e-28)
        for n in (-3, 0, 4):
            assert mp.almosteq(dlap.sf(n, a, digits=30), gdl.sf(n, 1, a, digits=30), 1e-27)
            assert mp.almosteq(dlap.cdf(n, a, digits=30), gdl.cdf(n, 1, a, digits=30), 1e-27)
        assert mp.almosteq(dlap.mean_abs(a, digits=30), gdl.mean_abs(1, a, digits=30), 1e-27)
        assert mp.almosteq(dlap.var(a, digits=30), gdl.var(1, a, digits=30), 1e-27)


def test_float_path():
    for beta, a in PARAMS + [("0.002", "0.002")]:
        ks = np.array([0, 1, 5, 40, 200])
        f = gdl.logpmf_float(ks, float(beta), float(a))
        ex = np.array([float(gdl.logpmf(int(k), beta, a, digits=20)) for k in ks])
        assert np.all(np.abs(f - ex) <= 1e-11 * np.maximum(1, np.abs(ex))), (beta, a, f - ex)


@pytest.mark.parametrize("call,msg", [
    (lambda: gdl.pmf(1, "-1", 1), "beta must be positive"),
    (lambda: gdl.pmf(1, 1, "0"), "a must be positive"),
    (lambda: gdl.pmf("0.5", 1, 1), "k must be an integer"),
    (lambda: dlap.pmf(1, "nan"), "a must not be NaN"),
    (lambda: gdl.pmf_range(-1, 1, 1), "K must be >= 0"),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()
