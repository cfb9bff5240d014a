"""``privacy.lattice_dropout``: the lattice + Gaussian sum with a fraction of parties dropped (issue 24, item 5).

Independent references: the pmf of :math:`\\sum_i i(\\mathrm{NB}(r) - \\mathrm{NB}(r))` by a direct
mpmath convolution of negative-binomial pmfs; the loss by a brute-force float64 grid over pairs
:math:`(t, v)` from that pmf (no FFT table, no refinement); :math:`r = 1` against the designed
noise's float64 estimator (:func:`arete_proofs.privacy.optimize_lattice.estimate_epsilon`) and its
certified enclosure (:func:`arete_proofs.certified.combs_gauss.certify_lattice_gauss`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from mpmath import mp
from scipy import special

from arete_proofs.certified.combs_gauss import certify_lattice_gauss
from arete_proofs.privacy import lattice_dropout as ld
from arete_proofs.privacy import optimize_lattice


def _mp_pmf(a, m, r, K, dps=30):
    """p_k, |k| <= K, of sum_{i=1}^m i (Y_i - Y_i'), Y ~ NB(r, e^{-a}): direct mpmath convolutions."""
    with mp.workdps(dps):
        q = mp.exp(-mp.mpf(a))
        r = mp.mpf(r)
        J = 3 * K
        nb = [mp.binomial(j + r - 1, j) * (1 - q) ** r * q ** j for j in range(J + 1)]
        d = {k: mp.fsum(nb[j] * nb[j + abs(k)] for j in range(J + 1 - abs(k))) for k in range(-K, K + 1)}
        dist = {0: mp.one}
        for i in range(1, m + 1):
            new = {}
            for x, px in dist.items():
                for k, pk in d.items():
                    y = x + i * k
                    if abs(y) <= K:
                        new[y] = new.get(y, 0) + px * pk
            dist = new
        return [dist[k] for k in range(-K, K + 1)]


@pytest.mark.parametrize("a, m, r", [(1.5, 3, 0.4), (2.0, 2, 1.7), (1.5, 3, 1.0)])
def test_pmf_against_direct_mpmath_convolution(a, m, r):
    K = 30
    ref = _mp_pmf(a, m, r, 90)[60:-60]                    # |k| <= 30 of a table cut at 90 (mass beyond: e^{-a 90/m})
    q, k0 = ld.tilted_table(a, m, r, 200, K)
    k = np.arange(-K, K + 1)
    p = q[k0 - K:k0 + K + 1] * np.exp(-a / m * k)
    rel = max(abs(float(x / mp.mpf(y)) - 1) for x, y in zip(p, ref))
    assert rel < 1e-11, rel


def test_a_wrong_shape_is_caught_by_the_pmf_reference():
    # the check above can fail: NB(r) with r off by 1% is visible at 1e-3
    ref = _mp_pmf(1.5, 3, 0.4, 90)[60:-60]
    q, k0 = ld.tilted_table(1.5, 3, 0.404, 200, 30)
    p = q[k0 - 30:k0 + 31] * np.exp(-0.5 * np.arange(-30, 31))
    assert max(abs(float(x / mp.mpf(y)) - 1) for x, y in zip(p, ref)) > 1e-3


@pytest.mark.parametrize("r", [0.5, 1.6])
def test_tilted_table_tends_to_the_tail_profile_like_one_over_k(r):
    a, m, N = 2.5, 4, 40000
    q, k0 = ld.tilted_table(a, m, r, N)
    C = ld.tail_profile(a, m, r)
    errs = []
    for K in (2000, 8000, 32000):
        k = np.arange(K, K + m)
        g = q[k0 + k] / np.exp(special.gammaln(k + r) - special.gammaln(r) - special.gammaln(k + 1))
        g = g[np.argsort(k % m)]                     # residues 0..m-1
        errs.append(float(np.max(np.abs(g / g.max() - C))))
    assert errs[2] < 1e-3 and errs[1] / errs[2] > 3 and errs[0] / errs[1] > 3, errs    # O(1/k), limit C


def test_ratio_one_is_the_designed_noise():
    for a, m, s, h in [(3.0, 2, 0.2, 0.5), (3.9, 4, 0.1, 0.25)]:
        assert ld.estimate_epsilon(a, m, s, 1.0, h) == pytest.approx(
            optimize_lattice.estimate_epsilon(a, m, s, 1.0, h), abs=1e-9)
        assert ld.tail_profile(a, m, 1) == pytest.approx(
            __import__("arete_proofs.privacy.lattice_large", fromlist=["x"]).tail_profile(a, m), rel=1e-12)
    c = certify_lattice_gauss("3", 2, "0.2", "0.5", 1, tol="1e-8")
    e = ld.estimate_epsilon(3.0, 2, 0.2, 1.0, 0.5)
    assert c.lower - 1e-9 <= e <= c.upper + 1e-9, (c.lower, e, c.upper)


def test_ratio_one_at_the_eps8_optimum():
    # frontier optimum for eps = 8 (docs/data/frontier.json): certified in [7.9999984, 7.9999989] (combs_gauss, tol 1e-6)
    a, m, s = 7.949232299906413, 34, 0.012328021341238761
    assert ld.estimate_epsilon(a, m, s, ratio=1.0) == pytest.approx(optimize_lattice.estimate_epsilon(a, m, s),
                                                                     abs=1e-8)


def _brute_loss(a, m, sigma, h, r, T, K=120, dx=0.004):
    """max over a grid of t in [0, T], v in [t - 1, t + 1] of ln f(t) - ln f(v), from the mpmath pmf."""
    p = np.array([float(x) for x in _mp_pmf(a, m, r, K)])
    ks = np.arange(-K, K + 1)
    s = sigma * math.sqrt(r)
    xs = np.arange(-1.0, T + 1.0 + dx / 2, dx)
    u = xs[:, None] - h * ks[None, :]
    lf = special.logsumexp(np.log(p)[None, :] - 0.5 * (u / s) ** 2, axis=1)
    M = round(1.0 / dx)
    best = -math.inf
    for i in np.nonzero((xs >= -1e-12) & (xs <= T + 1e-12))[0]:
        best = max(best, lf[i] - lf[max(0, i - M):i + M + 1].min())
    return best


@pytest.mark.parametrize("r", [0.5, 0.875, 1.25])
def test_window_loss_against_a_brute_force_grid(r):
    a, m, sigma, h = 2.0, 2, 0.3, 0.5
    est = ld.estimate(a, m, sigma, 1.0, h, ratio=r, span=3.0)
    brute, wider = _brute_loss(a, m, sigma, h, r, 3.0), _brute_loss(a, m, sigma, h, r, 3.1)
    # the grid max is a lower bound; the refined estimate (whose grid may end dx/2 past T) exceeds it by at most
    # the grid's second-order error
    assert brute - 1e-9 <= est["window"] <= wider + 1e-4, (brute, est["window"], wider)


def test_privacy_loss_is_nonincreasing_in_the_ratio():
    # post-processing: Z_{r'} = Z_r + independent noise for r' > r
    a, m, s = 7.949232299906413, 34, 0.012328021341238761
    e = [ld.estimate_epsilon(a, m, s, ratio=r, span=100) for r in (0.5, 0.7, 0.875, 1.0, 1.125, 1.5)]
    assert all(x >= y - 1e-9 for x, y in itertools.pairwise(e)), e
    assert e[0] > e[2] > 8.0 + 1e-3 and e[4] < 8.0, e


def test_mean_abs_against_mpmath():
    a, m, sigma, h, r = 2.0, 2, 0.3, 0.5, 0.6
    K = 120
    with mp.workdps(30):
        p = _mp_pmf(a, m, r, K)
        s = mp.mpf(sigma) * mp.sqrt(r)
        ref = mp.fsum(pk * (x * mp.erf(x / (s * mp.sqrt(2))) + 2 * s * mp.npdf(x / s))
                      for pk, x in ((p[k + K], abs(mp.mpf(h) * k)) for k in range(-K, K + 1)))
    assert ld.mean_abs(a, m, sigma, h, r) == pytest.approx(float(ref), rel=1e-12)
    assert ld.variance(a, m, sigma, h, r) == pytest.approx(r * (h * h * 5 / (math.cosh(a) - 1) + sigma ** 2), rel=1e-15)


def test_dropout_contributors_and_ratio():
    assert [ld.contributors_after_dropout(100, f) for f in (0, 0.1, 0.2, 0.3, "0.29")] == [100, 90, 80, 70, 71]
    d = ld.dropout_epsilon(2.0, 2, 0.3, 1.0, 0.5, parties=100, min_parties=80, fraction=0.3, span=5)
    assert d["contributors"] == 70 and d["ratio"] == 0.875 and d["below_design"] and not d["certified"]
    assert d["epsilon"] == pytest.approx(ld.estimate_epsilon(2.0, 2, 0.3, 1.0, 0.5, ratio=0.875, span=5), abs=0)


@pytest.mark.parametrize("call, name", [
    (lambda: ld.contributors_after_dropout(100, 1.0), "fraction"),
    (lambda: ld.contributors_after_dropout(100, "x"), "fraction"),
    (lambda: ld.contributors_after_dropout(0, 0.1), "parties"),
    (lambda: ld.estimate(2.0, 2, 0.3, ratio=0), "ratio"),
    (lambda: ld.estimate(2.0, 0, 0.3), "m"),
    (lambda: ld.estimate(-1, 2, 0.3), "a"),
    (lambda: ld.estimate(2.0, 2, -0.3), "sigma"),
    (lambda: ld.estimate(2.0, 2, 0.3, span=1e9), "span"),
    (lambda: ld.dropout_epsilon(2.0, 2, 0.3, parties=10, min_parties=0, fraction=0.1), "min_parties"),
])
def test_bad_input_is_one_line_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"^{name}") as exc:
        call()
    assert "\n" not in str(exc.value)


def test_recorded_numbers_are_the_estimator_s():
    # the eps = 8 optimum with 100 parties and shares for 80: the epsilons of the sum that
    # `arete simulate --dropout 0.1,0.3` printed when recorded, to 1e-12 (the FFT's last bits differ
    # between numpy builds)
    a, m, s = 7.949232299906413, 34, 0.012328021341238761
    for r, recorded in ((1.125, 7.956799852345273), (0.875, 8.196737249868837)):
        assert abs(recorded - ld.estimate_epsilon(a, m, s, ratio=r)) < 1e-12, r
    assert f"{ld.estimate_epsilon(a, m, s, ratio=0.75):.4f}" == "8.4876"
