"""The transformed GDL h GDL(beta, a) + Laplace(b) (distributions.transformed_gdl, noise.transformed_gdl,
privacy.tight_lattice.tight_epsilon_transformed_gdl).

Independent references: the direct mixture sum of the GDL pmf (the 2F1 closed form of
distributions.gdl) with the Laplace kernel, and with the Laplace CDF; quadrature of the density for
E|Z| and the variance; for the tight epsilon, the dense-grid privacy loss of the float64 density
(scipy's hyp2f1 table and logsumexp, not the mpmath cell formula) over 400 shifts in (0, Delta].
Broken variant: the +Delta-only loss understates the tight epsilon.
"""

import functools

import numpy as np
import pytest
from mpmath import mp

from arete_proofs.distributions import gdl
from arete_proofs.distributions.transformed_gdl import GDLSource, transformed_gdl, transformed_gdl_parameters
from arete_proofs.noise import make
from arete_proofs.noise.transformed_gdl import TransformedGDLNoise
from arete_proofs.privacy.tight_lattice import tight_epsilon_lattice_laplace, tight_epsilon_transformed_gdl

P = dict(a="0.5", b="0.125", h="0.25")       # a GDL for m = 4 at Delta = 1 (h = 1/m, b = 1/(2m))


def _close(x, y, rel):
    """|x - y| <= rel |y|, evaluated at 50 digits (mp.almosteq at the default 15 would round the difference)."""
    with mp.workdps(50):
        return abs(mp.mpf(x) - mp.mpf(y)) <= rel * abs(mp.mpf(y))


@functools.lru_cache(maxsize=8)
def _pmf(beta, K):
    return [gdl.pmf(k, beta, P["a"], digits=35) for k in range(K + 1)]


def _direct(t, beta, what="pdf", K=240):
    """sum_k p_k g(t - hk) (or p_k G(t - hk)), the GDL pmf from its closed form (p_240 ~ e^-120)."""
    ps = _pmf(beta, K)
    with mp.workdps(40):
        t, h, b = mp.mpf(t), mp.mpf(P["h"]), mp.mpf(P["b"])
        tot = mp.zero
        for k in range(-K, K + 1):
            u = t - h * k
            if what == "pdf":
                g = mp.exp(-abs(u) / b) / (2 * b)
            else:
                g = mp.exp(u / b) / 2 if u < 0 else 1 - mp.exp(-u / b) / 2
            tot += ps[abs(k)] * g
        return tot


@pytest.mark.parametrize("beta", ["0.3", "1", "2.5"])
def test_pdf_and_cdf_against_the_direct_mixture(beta):
    z = make("transformed_gdl", beta=beta, **P)
    for t in ("0", "0.1", "-0.37", "1.3", "4.06"):
        assert _close(z.pdf(t, digits=25), _direct(t, beta), 1e-24)
        assert _close(z.cdf(t, digits=25), _direct(t, beta, "cdf"), 1e-24)
    assert abs(z.logpdf_float(0.7) - float(mp.log(_direct("0.7", beta)))) < 1e-11
    assert abs(z.cdf_float(0.7) - float(_direct("0.7", beta, "cdf"))) < 1e-12


def test_mean_abs_and_var_against_quadrature():
    z = make("transformed_gdl", beta="0.7", **P)
    L = z.law(20)
    pts = [mp.mpf(k) / 4 for k in range(0, 241)]
    with mp.workdps(25):
        ea = 2 * mp.quad(lambda t: t * L.pdf(t), pts)
        v = 2 * mp.quad(lambda t: t * t * L.pdf(t), pts)
    assert mp.almosteq(z.mean_abs(digits=20), ea, 1e-14)
    assert mp.almosteq(z.var(digits=20), v, 1e-14)
    with mp.workdps(30):
        closed = mp.mpf("0.0625") * mp.mpf("0.7") / (mp.cosh("0.5") - 1) + 2 * mp.mpf("0.125") ** 2
    assert mp.almosteq(z.var(digits=20), closed, 1e-18)


def test_bound_used_by_the_truncations():
    for beta in ("0.4", "1", "3", "12"):
        s = GDLSource(beta, "0.5")
        C, lam = s.bound(20)
        ps = s.table(400, 20)
        with mp.workdps(25):
            assert all(p <= C * mp.exp(-lam * k) for k, p in enumerate(ps))
    broken = GDLSource("3", "0.5")
    assert any(p > broken.pmf(0, 20) * mp.exp(-mp.mpf("0.5") * k) for k, p in enumerate(broken.table(50, 20)))  # p_0 e^{-ak}: no bound for beta > 1


def _dense_loss(z, lo, hi, dx=0.0025, D=1.0):
    """max over t in [lo, hi] and shifts j dx in (0, D] of ln f(t) - ln f(t + s), both signs (float64 density)."""
    n = int(round(D / dx))
    x = np.arange(int(round((lo - D) / dx)), int(round((hi + D) / dx)) + 1) * dx
    lf = z.logpdf_float(x)
    inner = (x >= lo) & (x <= hi)
    best, arg = -np.inf, None
    for j in range(1, n + 1):
        for sg in (1, -1):
            sh = np.roll(lf, -sg * j)
            ok = inner.copy()
            ok[:n] = ok[-n:] = False
            v = np.max((lf - sh)[ok])
            if v > best:
                best, arg = v, sg * j * dx
    return best, arg


def test_tight_epsilon_beta_below_one_attained_against_dense_grid():
    z = make("transformed_gdl", beta="0.5", **P)
    r = z.tight_epsilon(1, digits=10)
    dense, s = _dense_loss(z, -4, 4)
    assert r.attained and r.details.certified and r.upper_bound == r.lower_bound   # the tail bound closes it
    assert abs(dense - float(r.epsilon)) < 1e-4 and abs(abs(s) - 0.93) < 0.01
    assert r.epsilon >= r.details.dlap >= r.tail_limit          # post-processing: at least the DLap value
    far, _ = _dense_loss(z, 20, 30)
    assert float(r.tail_limit) < far < float(r.epsilon)          # from above, below the window's maximum
    # the broken variant: the shift +Delta alone understates
    x = np.arange(-1600, 2001) * 0.0025
    lf = z.logpdf_float(x)
    plus = np.max(lf[:-400] - lf[400:])
    assert plus < float(r.epsilon) - 0.1


def test_tight_epsilon_beta_above_one_is_the_tail_limit():
    z = make("transformed_gdl", beta="2", **P)
    r = z.tight_epsilon(1, digits=10)
    y1 = tight_epsilon_lattice_laplace(P["a"], 1, P["b"], P["h"], 1, digits=10)
    assert r.details.certified and not r.attained and r.epsilon == r.tail_limit
    assert mp.almosteq(r.epsilon, y1.epsilon, 1e-10)            # the sandwich L <= eps* <= eps*(Y_1) = L
    near, _ = _dense_loss(z, 0, 8)
    far, _ = _dense_loss(z, 30, 38)
    assert near < far < float(r.epsilon) + 1e-9                 # from below, slowly (O(1/t))
    assert r.details.tail_gap < 0


def test_beta_one_is_lattice_laplace_m1():
    z = make("transformed_gdl", beta=1, **P)
    y = make("lattice_laplace", a=P["a"], m=1, b=P["b"], h=P["h"])
    assert mp.almosteq(z.pdf("0.3", digits=20), y.pdf("0.3", digits=20), 1e-19)
    assert mp.almosteq(z.tight_epsilon(1, digits=10).epsilon, y.tight_epsilon(1, digits=10).epsilon, 1e-10)


def test_sample_and_shares_against_the_cdf():
    from scipy import stats

    z = make("transformed_gdl", beta="0.5", **P)
    x = z.sample(6000, rng=3)
    assert stats.kstest(x, z.cdf_float).pvalue > 1e-3
    wrong = make("transformed_gdl", beta="0.5", a="0.5", b="0.125", h="0.325")    # a 30% wrong step
    assert stats.kstest(x, wrong.cdf_float).pvalue < 1e-6
    sh = z.shares(5)                              # five parties: NB(beta/5) differences and Gamma(1/5, b) differences
    tot = sh.sample(6000, rng=4, summed=True)
    assert stats.kstest(np.asarray(tot), z.cdf_float).pvalue > 1e-3
    assert abs(sh.sum_law(5).var() - float(z.var(digits=15))) < 1e-12


def test_parameters_and_bad_input():
    assert transformed_gdl_parameters(4) == ("0.125", "0.25")
    z = TransformedGDLNoise.for_sensitivity("0.5", "0.5", 4)
    assert z.value("h") == mp.mpf("0.25") and z.value("b") == mp.mpf("0.125")
    with pytest.raises(ValueError, match="h/b > a"):
        make("transformed_gdl", beta=1, a=3, b="0.125", h="0.25")
    with pytest.raises(ValueError, match="beta"):
        make("transformed_gdl", beta=-1, **P)
    with pytest.raises(ValueError, match="m must"):
        transformed_gdl_parameters(0)
    with pytest.raises(ValueError, match="window"):
        tight_epsilon_transformed_gdl("2", **P, window=3)
    with pytest.raises(ValueError):
        transformed_gdl("1", "3", "0.125", "0.25")
    with pytest.raises(ValueError, match="scipy"):
        z.scipy()


def test_cli():
    import subprocess
    import sys

    base = [sys.executable, "-m", "arete_proofs"]
    out = subprocess.run([*base, "epsilon", "--noise", "transformed_gdl", "--beta", "2", "--a", "0.5", "--b", "0.125",
                          "--h", "0.25", "--digits", "8"], capture_output=True, text=True)
    assert out.returncode == 0 and "epsilon 2.2074338" in out.stdout
    bad = subprocess.run([*base, "epsilon", "--noise", "transformed_gdl", "--beta", "2", "--a", "5", "--b", "0.125",
                          "--h", "0.25"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


# -- beta < 1: the tail bound past the window (privacy.tight_lattice._gdl_tail_eta) ------------------------
def test_gdl_ratio_facts_the_tail_bound_uses():
    """p_{k+1}/p_k in [q rho_k, q], rho_k = (k + beta)/(k + 1), from the 2F1 closed form (distributions.gdl, a
    different formula from the NB-sum argument); a sharper claimed lower end, rho_k^(1/2), is refuted."""
    beta, a = "0.3", P["a"]
    ps = [gdl.pmf(k, beta, a, digits=30) for k in range(0, 202)]
    with mp.workdps(30):
        q, B = mp.exp(-mp.mpf(a)), mp.mpf(beta)
        ratios = [ps[k + 1] / ps[k] for k in range(201)]
        rho = [(k + B) / (k + 1) for k in range(201)]
        assert all(q * r_ <= x <= q for x, r_ in zip(ratios, rho))
        assert any(x < q * mp.sqrt(r_) for x, r_ in zip(ratios, rho))
        # Gautschi: 1/G_n < Gamma(beta) (n + 1)^(1 - beta), G_n = prod_{i<n} rho_i
        G = mp.one
        for n in range(1, 201):
            G *= rho[n - 1]
            assert 1 / G < mp.gamma(B) * (n + 1) ** (1 - B)


@pytest.mark.parametrize("beta", ["0.5", "0.2"])
def test_gdl_tail_bound_holds_past_the_window_and_a_broken_one_fails(beta):
    """The loss of the exact density at pairs past N0 (t = h n, shifts of the whole window [-Delta, Delta] on
    a 1/16-step grid, the direct mixture sum) stays below L + eta(N0), and exceeds L + (eta without its
    sigma term): the term that carries the polynomial factor k^(beta - 1) is needed."""
    from arete_proofs.privacy.tight_lattice import _gdl_tail_eta

    r = tight_epsilon_transformed_gdl(beta, **P, Delta=1, digits=10)
    N0 = 60
    eta = _gdl_tail_eta(mp.mpf(beta), mp.mpf(P["a"]), mp.mpf(P["b"]), mp.mpf(P["h"]), 1, N0, 10)
    h = mp.mpf(P["h"])
    with mp.workdps(30):
        worst = -mp.inf
        for n in (N0, N0 + 1, N0 + 3):
            for i in range(4):                          # t = h (n + i/4)
                t = h * (n + mp.mpf(i) / 4)
                ft = _direct(t, beta, K=400)
                for j in range(-16, 17):
                    worst = max(worst, mp.log(ft / _direct(t + mp.mpf(j) / 16, beta, K=400)))
        excess = worst - r.tail_limit
        sigma_term, far = _gdl_tail_eta(mp.mpf(beta), mp.mpf(P["a"]), mp.mpf(P["b"]), mp.mpf(P["h"]), 1, N0, 10,
                                        parts=True)
        assert 0 < excess <= eta and abs(eta - sigma_term - far) < 1e-12
        assert excess > far          # the broken bound (no sigma term) is violated by the exact density
