"""lattice_skellam (issue 24, item 4): h MSDLap(a, m) + Skellam(mu) on the integers.

Distribution against independent methods (direct convolution of DLap and Poisson laws in mpmath; the
characteristic function inverted by FFT in float64), the exact tight epsilon against a brute-force
float64 maximisation over every shift and against the float64 estimator, the certificate (contains
the exact value, refuses edits, catches two deliberately broken arguments), the noise interface,
the CLI, the sampler (chi-squared with a power check) and the optimiser's Delta = 1 collapse to DLap.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from mpmath import mp

from arete_proofs.certified import combs_skellam as cs
from arete_proofs.distributions import lattice_skellam as ls
from arete_proofs.noise import FAMILIES, make
from arete_proofs.privacy import optimize_skellam as osk
from arete_proofs.privacy import tight_skellam as ts

P = ("1", 2, "0.7", 3)          # a, m, mu, h: a small comb whose worst shift at Delta = 6 is 5, not 6


# -- distribution ---------------------------------------------------------------------------------------
def _pmf_by_fft(a, m, mu, h, N):
    """f(n), |n| <= N, from the characteristic function on an FFT grid of 2^16 points (independent of the convolution)."""
    M = 1 << 16
    t = 2 * np.pi * np.arange(M) / M
    ch1 = math.cosh(a) - 1
    phi = np.exp(-2 * mu * (1 - np.cos(t)))
    for i in range(1, m + 1):
        phi = phi * ch1 / (math.cosh(a) - np.cos(i * h * t))
    f = np.real(np.fft.ifft(phi))
    return np.concatenate([f[-N:], f[:N + 1]])


def test_pmf_against_direct_convolution_and_sums_to_one():
    ns = [-7, -1, 0, 1, 2, 5, 13, 30]
    got = [ls.lattice_skellam_pmf(n, *P, digits=25) for n in ns]
    ref = ls.pmf_by_convolution(ns, *P, digits=25)
    for g, r in zip(got, ref):
        assert mp.almosteq(g, r, 1e-20)
    with mp.workdps(30):
        assert mp.almosteq(mp.fsum(ls.lattice_skellam_pmf(n, "2", 1, "0.5", 2, digits=20) for n in range(-70, 71)),
                           1, 1e-15)


def test_float_table_against_characteristic_function():
    a, m, mu, h = 1.3, 3, 1.7, 2
    p = ls.float_pmf_table(a, m, mu, h, 60)
    q = _pmf_by_fft(a, m, mu, h, 60)
    assert np.max(np.abs(p - q)) < 1e-14
    assert abs(ls.float_pmf_table(a, m, mu, h, 2000).sum() - 1) < 1e-13


def test_sf_cdf_mean_abs_var():
    s = ls.lattice_skellam_sf(3, *P, digits=20)
    ref = mp.fsum(ls.lattice_skellam_pmf(n, *P, digits=25) for n in range(4, 260))     # tail past 260: < 1e-18
    assert mp.almosteq(s, ref, 1e-15)
    assert mp.almosteq(ls.lattice_skellam_cdf(3, *P, digits=20) + s, 1, 1e-18)
    p = ls.float_pmf_table(1.0, 2, 0.7, 3, 3000)
    n = np.arange(-3000, 3001)
    ma = float(ls.lattice_skellam_mean_abs(*P, digits=16))
    assert abs(ma - float(np.sum(np.abs(n) * p))) < 1e-11
    assert abs(osk.mean_abs(1.0, 2, 0.7, 3) / ma - 1) < 1e-11
    assert abs(float(ls.lattice_skellam_var(*P, digits=16)) - float(np.sum(n * n * p))) < 1e-9
    assert osk.variance(1.0, 2, 0.7, 3) == pytest.approx(float(ls.lattice_skellam_var(*P, digits=16)), rel=1e-14)


# -- exact tight epsilon --------------------------------------------------------------------------------
def _brute(a, m, mu, h, Delta, N):
    """max over |n| <= N, |j| <= Delta of ln f(n) - ln f(n + j), float64 table (no tail argument)."""
    p = ls.float_pmf_table(a, m, mu, h, N + Delta)
    lp = np.log(p)
    best = -np.inf
    for j in range(-Delta, Delta + 1):
        best = max(best, float(np.max(lp[Delta:Delta + 2 * N + 1] - lp[Delta + j:Delta + j + 2 * N + 1])))
    return best


def test_tight_epsilon_against_brute_force_and_estimator():
    r = ts.tight_epsilon_lattice_skellam(*P, 6, digits=12)
    assert r.upper_bound - r.lower_bound < 1e-12
    assert r.tail_shift[1] == 5                      # the worst shift is not +Delta: every shift is needed
    b = _brute(1.0, 2, 0.7, 3, 6, 600)
    assert b <= float(r.upper_bound) + 1e-12 and b > float(r.epsilon) - 1e-6   # the tail limit, approached
    assert abs(osk.estimate_epsilon(1.0, 2, 0.7, 3, 6) - float(r.epsilon)) < 1e-9
    # an attained (window) maximum
    r2 = ts.tight_epsilon_lattice_skellam("3", 2, "0.4", 2, 3, digits=10)
    assert abs(_brute(3.0, 2, 0.4, 2, 3, 300) - float(r2.epsilon)) < 1e-9
    assert abs(osk.estimate_epsilon(3.0, 2, 0.4, 2, 3) - float(r2.epsilon)) < 1e-9


def test_delta_one_is_dlap_and_monotone_in_mu():
    for mu in ("1e-6", "0.5", "3"):
        r = ts.tight_epsilon_lattice_skellam("1.5", 1, mu, 1, 1, digits=12)
        assert abs(r.epsilon - mp.mpf("1.5")) < 1e-12 and not r.attained     # DLap(a) + Skellam: a Delta
    e = [float(ts.tight_epsilon_lattice_skellam("2", 2, mu, 2, 4, digits=8).epsilon) for mu in ("0.2", "0.5", "1")]
    assert e[0] > e[1] > e[2]                        # more smoothing is post-processing


def test_bad_input():
    with pytest.raises(ValueError, match="Delta"):
        ts.tight_epsilon_lattice_skellam(*P, 1.5)
    with pytest.raises(ValueError, match="h must"):
        make("lattice_skellam", a=1, m=2, mu=1, h="2.5")
    with pytest.raises(ValueError, match="mu must"):
        make("lattice_skellam", a=1, m=2, mu=-1, h=2)


# -- certificate ----------------------------------------------------------------------------------------
def test_certificate_contains_exact_and_refuses_edits():
    c = cs.certify_lattice_skellam(*P, 6, digits=10)
    exact = ts.tight_epsilon_lattice_skellam(*P, 6, digits=20).epsilon
    assert c.contains(exact) and c.upper - c.lower < 1e-10
    doc = c.to_json()
    assert cs.check(doc).ok
    for edit in (lambda d: d.update(upper=d["lower"]),
                 lambda d: d.update(lower=str(float(d["lower"]) + 1e-9)),
                 lambda d: d["tail"].update(eta="0"),
                 lambda d: d["window"].update(K=d["window"]["K_prime"]),
                 lambda d: d.update(tail_limit="1 +/- 0.01"),
                 lambda d: d["params"].update(mu="0.69")):
        bad = c.to_json()
        edit(bad)
        assert not cs.check(bad).ok


def test_broken_variants_are_caught():
    exact = ts.tight_epsilon_lattice_skellam(*P, 6, digits=20).epsilon
    plus = cs.certify_lattice_skellam(*P, 6, digits=10, _variant="plus_only")     # only the shift +Delta
    assert plus.upper < float(exact) - 1e-3 and not plus.contains(exact)
    assert not cs.check(plus.to_json()).ok
    good = cs.certify_lattice_skellam(*P, 6, digits=10)
    notail = cs.certify_lattice_skellam(*P, 6, digits=10, _variant="no_tail")    # the window without the tail
    assert notail.hi < good.hi                     # it misses the tail's eta, and the limit itself:
    short = cs.certify_lattice_skellam(*P, 6, digits=10, K_prime=3, _variant="no_tail")
    assert short.upper < float(exact) - 1e-4 and not short.contains(exact)
    for broken in (notail, short):
        doc = broken.to_json()
        doc["argument"] = good.argument            # even with the label removed
        assert not cs.check(doc).ok


# -- the noise interface, CLI, sampler --------------------------------------------------------------------
def test_noise_interface_and_cli(capsys):
    from arete_proofs.cli import main

    assert "lattice_skellam" in FAMILIES
    z = make("lattice_skellam", a="1", m=2, mu="0.7", h=3)
    assert z.integer_valued and z.infinitely_divisible and not z.symmetric_unimodal
    t = z.tight_epsilon(Delta=6, digits=10)
    assert abs(t.tail_limit - t.epsilon) < 1e-12 and not t.attained
    assert z.pmf(2.5) == 0 and mp.almosteq(z.pmf(4, digits=20), ls.lattice_skellam_pmf(4, *P, digits=20))
    x = np.array([-3.0, 0.0, 2.0, 7.0])
    assert np.allclose(z.pdf_float(x), [float(z.pmf(int(v), digits=16)) for v in x], rtol=1e-12)
    assert np.allclose(z.cdf_float(x), [float(z.cdf(int(v), digits=16)) for v in x], rtol=1e-12)
    assert main(["epsilon", "--noise", "lattice_skellam", "--a", "1", "--m", "2", "--mu", "0.7", "--h", "3",
                 "--sensitivity", "6"]) == 0
    assert "1.2906082517" in capsys.readouterr().out
    assert main(["certify", "--noise", "lattice_skellam", "--a", "1", "--m", "2", "--mu", "0.7", "--h", "3",
                 "--sensitivity", "6"]) == 0
    assert "certified bound" in capsys.readouterr().out
    assert main(["density", "--noise", "lattice_skellam", "--a", "1", "--m", "2", "--mu", "0.7", "--h", "3",
                 "0", "4"]) == 0


def _chi2_p(x, pmf, lo, hi):
    from scipy import stats

    ks = np.arange(lo, hi + 1)
    obs = np.array([np.sum(x <= lo)] + [np.sum(x == k) for k in ks[1:-1]] + [np.sum(x >= hi)], dtype=float)
    p = np.array([pmf(k) for k in ks])
    p[0] = p[-1] = sum(pmf(k) for k in range(lo - 600, lo + 1))
    return stats.chisquare(obs, p / p.sum() * len(x)).pvalue


def test_sampler_and_shares_chi_squared_with_power():
    a, m, mu, h = 1.2, 2, 1.5, 3
    p = ls.float_pmf_table(a, m, mu, h, 700)
    pm = lambda k: p[k + 700]
    z = make("lattice_skellam", a="1.2", m=2, mu="1.5", h=3)
    assert _chi2_p(z.sample(100_000, rng=21), pm, -15, 15) > 1e-6
    assert _chi2_p(z.shares(5).sample(100_000, rng=22, summed=True), pm, -15, 15) > 1e-6
    wrong = make("lattice_skellam", a="1.2", m=2, mu=str(1.5 * 0.7), h=3).sample(100_000, rng=23)  # mu 30% off
    assert _chi2_p(wrong, pm, -15, 15) < 1e-6
    assert z.shares(5).sum_law(10).var() == pytest.approx(2 * float(z.var(digits=16)))


def test_optimiser_collapses_to_dlap_at_delta_one():
    o = osk.optimize(3, 1, certify=cs.certify_lattice_skellam, points=3, golden=2, digits=8)
    assert (o["m"], o["h"]) == (1, 1) and o["mu"] <= 1e-12 and o["certified"]
    # DLap(3): E|Z| = 2 e^-3/(1 - e^-6) ... = the discrete staircase at Delta = 1 (the geometric mechanism)
    q = math.exp(-3)
    assert o["mean_abs"] == pytest.approx(2 * q / (1 - q * q), rel=1e-5)
