"""Statistical tests of :mod:`arete_proofs.mechanisms.sampling` (after the OpenDP / Tumult sampler tests).

Every test uses a seeded generator, so it is deterministic; a test fails when a
p-value falls below ``P_FAIL = 1e-6`` (a correct sampler fails one such test in
a million seeds).  Reference values and their sources:

* Arete CDF: :func:`arete_proofs.distributions.fast.cdf` (float64; its docstring and
  ``tests/test_fast.py`` give absolute error < 1e-13, far below the KS resolution
  ``1/sqrt(N)``), cross-checked on a sorted subsample against the arbitrary-precision
  engine :func:`arete_proofs.distributions.arete.cdf`;
* Gamma-Gamma CDF: :func:`arete_proofs.distributions.fast.gg_cdf` (same accuracy statement);
* Laplace CDF: the closed form of Definition 23, ``e^(x/lam)/2`` for ``x < 0``;
* Staircase CDF: the engine :func:`arete_proofs.distributions.staircase.cdf` (Lemma 27) on a sorted
  subsample, and for large samples the closed form of ``staircase.sf``'s docstring
  vectorized here (checked against the engine in ``test_staircase_vector_cdf``);
* Gamma CDF (tiny shapes): ``scipy.special.gammainc``/``gammaincc`` (regularized incomplete
  gamma; checked against ``mpmath.gammainc`` in ``test_scipy_gammainc_reference``), and
  ``P(X <= x) = x^a e^(O(x)) / Gamma(1+a)`` below ``x = e^-30``;
* moments: ``E|Z|`` from :func:`arete_proofs.distributions.arete.mean_abs` (closed form),
  ``Var Z = 2 alpha theta^2 + 2 lam^2`` (Lemma 3); standard errors from the exact fourth
  moment, ``mu4 = kappa4 + 3 Var^2`` with ``kappa4 = 12 alpha theta^4 + 12 lam^4`` (the
  Gamma(a, s) cumulants ``kappa_n = a s^n (n-1)!``, doubled for a difference);
  Staircase ``E|X|``, ``Var X`` from :mod:`arete_proofs.distributions.staircase`, ``E X^4`` summed period by period here.

Parameter sets: Lemma 3 at eps = 10 and eps = 20 (Delta = 1); Figure 4's eps = 6 set
(the paper's published code, as in :data:`arete_proofs.privacy.tight.FIGURE_4`); an
``alpha >= 1`` set and a ``lam > theta`` set.
"""

from __future__ import annotations

import math

import mpmath as M
import numpy as np
import pytest
from mpmath import mp
from scipy import special as sc
from scipy import stats

from arete_proofs.distributions import arete as engine
from arete_proofs.distributions import fast
from arete_proofs.distributions import gamma_gamma as gg_engine
from arete_proofs.mechanisms import sampling as S
from arete_proofs.distributions import staircase as sc_engine

P_FAIL = 1e-6  # a p-value below this fails
N = 20_000  # default KS sample size

PAPER10 = (math.exp(-2.5), 0.4, math.exp(-2.5))  # Lemma 3: alpha = lam = e^(-eps/4), theta = 4 Delta/eps
PAPER20 = (math.exp(-5.0), 0.2, math.exp(-5.0))
FIG4_6 = (0.07559007048913552, 0.6295929433519876, 0.05453349704921005)  # paper's code, Figure 4, eps = 6
ALPHA_BIG = (1.5, 1.0, 0.5)  # alpha >= 1: Marsaglia-Tsang path of numpy's gamma
LAM_BIG = (0.3, 0.5, 2.0)  # lam > theta
ARETE_SETS = {"paper eps=10": PAPER10, "paper eps=20": PAPER20, "fig4 eps=6": FIG4_6,
              "alpha=1.5": ALPHA_BIG, "lam>theta": LAM_BIG}


def ks(x, cdf):
    """Kolmogorov-Smirnov p-value of the sample ``x`` against the callable ``cdf``."""
    return stats.kstest(np.asarray(x), cdf).pvalue


def arete_cdf(params):
    return lambda t: fast.cdf(t, *params)


def laplace_cdf(lam):
    """Definition 23: e^(x/lam)/2 for x < 0, 1 - e^(-x/lam)/2 otherwise."""
    def F(x):
        x = np.asarray(x, dtype=float)
        return np.where(x < 0, 0.5 * np.exp(np.minimum(x, 0) / lam), 1 - 0.5 * np.exp(-np.maximum(x, 0) / lam))
    return F


def staircase_cdf_vec(gamma, Delta, eps):
    """Closed form of ``staircase.sf`` (docstring): with |t|/Delta = k + s,
    P(X > |t|) = r^k (r + q(gamma - s))/(2c) for s < gamma, r^(k+1) (c + q(1-s))/(2c) otherwise."""
    r = math.exp(-eps)
    q = -math.expm1(-eps)
    c = r + q * gamma

    def F(t):
        t = np.asarray(t, dtype=float)
        x = np.abs(t) / Delta
        k = np.floor(x)
        s = x - k
        sf = np.where(s < gamma, r**k * (r + q * (gamma - s)) / (2 * c), r ** (k + 1) * (c + q * (1 - s)) / (2 * c))
        return np.where(t < 0, sf, 1 - sf)

    return F


def staircase_cdf_engine(gamma, Delta, eps):
    def F(t):
        return np.array([float(sc_engine.cdf(float(x), gamma, Delta, eps, digits=15)) for x in np.atleast_1d(t)])
    return F


def arete_moments(alpha, theta, lam):
    """(E|Z|, Var Z, E Z^4) from the closed forms (module docstring)."""
    m = float(engine.mean_abs(alpha, theta, lam, digits=17))
    v = 2 * alpha * theta**2 + 2 * lam**2
    k4 = 12 * alpha * theta**4 + 12 * lam**4
    return m, v, k4 + 3 * v * v


def within_clt(x, mean_abs, var, mu4, k=5.0):
    """|sample E|X| - mean_abs| and |sample var - var| both within k standard errors (exact SEs)."""
    n = x.size
    se_m = math.sqrt((var - mean_abs**2) / n)
    se_v = math.sqrt((mu4 - var**2) / n)
    dm = abs(np.abs(x).mean() - mean_abs) / se_m
    dv = abs(np.mean(x * x) - var) / se_v  # the mean is 0 exactly: E X^2 is the variance
    return dm, dv


# ---------------------------------------------------------------------------
# references
# ---------------------------------------------------------------------------


def test_scipy_gammainc_reference():
    """The regularized incomplete gamma of scipy agrees with mpmath at tiny shapes (it is a reference below)."""
    for a in (1e-7, 1e-4):
        for x in (1e-300, 1e-30, 1e-5, 0.3, 5.0, 40.0):
            ref = M.gammainc(a, x, M.inf, regularized=True)
            assert abs(sc.gammaincc(a, x) / float(ref) - 1) < 1e-12
            assert abs(sc.gammainc(a, x) - float(1 - ref)) < 1e-14


def test_staircase_vector_cdf():
    """The vectorized staircase CDF used for large KS samples equals the engine (Lemma 27) off and on the jumps."""
    for g, D, e in [(0.3, 1.0, 4.0), (0.0, 2.5, 1.0), (1.0, 0.7, 2.0), (float(sc_engine.gamma_var(3)), 1.0, 3.0)]:
        ts = np.concatenate([np.linspace(-7.3 * D, 7.3 * D, 41), [0.0, g * D, -g * D, D + g * D, 3 * D]])
        F = staircase_cdf_vec(g, D, e)(ts)
        ref = staircase_cdf_engine(g, D, e)(ts)
        assert np.max(np.abs(F - ref)) < 1e-14


def test_fast_cdf_matches_engine_on_a_sample():
    """fast.cdf at sampled points agrees with the arbitrary-precision engine (a sorted subsample of 20 points)."""
    z = np.sort(S.arete(*PAPER10, 20, 11))
    ref = engine.cdf(z.tolist(), *PAPER10, digits=15)
    assert np.max(np.abs(fast.cdf(z, *PAPER10) - np.array([float(v) for v in ref]))) < 1e-13


# ---------------------------------------------------------------------------
# Kolmogorov-Smirnov: each sampler against its exact CDF
# ---------------------------------------------------------------------------


def tail_point(p, mass=0.01):
    """t0 with P(|Z| > t0) = 2 sf(t0) = mass (bisection in log t on fast.sf)."""
    lo, hi = 1e-8, 1e4
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if 2 * fast.sf(mid, *p) > mass else (lo, mid)
    return hi


def arete_pvalues(z, p, *, plain=True):
    """p-values of three tests of Arete(p): KS on all draws; the count of |Z| > t0 (binomial,
    p = 2 sf(t0) = 1%); KS of the tail values against sf(t)/sf(t0).

    The tail tests are there because for small alpha the Gamma-Gamma part carries a mass of
    order 2 alpha E1(t/theta) only, to which the plain KS is nearly blind (test_power_theta_only).
    """
    t0 = tail_point(p)
    s0 = fast.sf(t0, *p)
    tail = np.abs(z[np.abs(z) > t0])
    out = {"tail_count": binom_p(tail.size, z.size, 2 * s0), "tail_ks": ks(tail, lambda t: 1 - fast.sf(t, *p) / s0)}
    if plain:
        out["ks"] = ks(z, arete_cdf(p))
    return out


@pytest.mark.parametrize("name", list(ARETE_SETS))
def test_arete_ks(name):
    p = ARETE_SETS[name]
    pv = arete_pvalues(S.arete(*p, N, 100), p)
    assert min(pv.values()) > P_FAIL, pv


@pytest.mark.parametrize("alpha,theta", [(0.3, 2.0), (math.exp(-2.5), 0.4), (2.5, 1.0)])
def test_gamma_gamma_ks(alpha, theta):
    assert ks(S.gamma_gamma(alpha, theta, N, 101), lambda t: fast.gg_cdf(t, alpha, theta)) > P_FAIL


def ks_with_zero_atom(x, cdf, p0, seed):
    """KS after the randomized probability integral transform: an exact 0 maps to U(1/2 - p0/2, 1/2 + p0/2).

    For a symmetric law whose float64 draws have an atom of mass ``p0`` at 0 (and are
    continuous elsewhere) the transformed values are exactly uniform under the null.
    """
    x = np.asarray(x)
    u = np.empty(x.shape)
    zero = x == 0
    u[~zero] = cdf(x[~zero])
    u[zero] = 0.5 - p0 / 2 + p0 * np.random.default_rng(seed).random(int(zero.sum()))
    return stats.kstest(u, "uniform").pvalue


def test_gamma_gamma_ks_small_shape_atom():
    """alpha = 1e-3: each Gamma draw is below 2^-1075 (so exactly 0) with probability
    q = 2^(-1075 a)/Gamma(1+a) = 0.475, and X1 - X2 is exactly 0 with probability q^2 = 0.226.

    The atom is the float64 image of |X1 - X2| < ~1e-323 (true mass
    t^(2a)/(cos(pi a) Gamma(1+2a)), equal to q^2 up to O(a), far below the KS resolution).
    With the atom accounted for, the law matches; without, the plain KS sees the atom.
    """
    a, th = 1e-3, 1.0
    q = math.exp(-1075 * math.log(2) * a - sc.gammaln(1 + a))
    x = S.gamma_gamma(a, th, N, 101)
    assert binom_p((x == 0).sum(), N, q * q) > P_FAIL
    cdf = lambda t: fast.gg_cdf(t, a, th)
    assert ks_with_zero_atom(x, cdf, q * q, 1) > P_FAIL
    assert ks(x, cdf) < P_FAIL


@pytest.mark.parametrize("lam", [1e-3, 0.5, 7.0])
def test_laplace_ks(lam):
    # the closed form against the engine at two points (Definition 23)
    for x in (-1.3 * lam, 0.4 * lam):
        assert abs(laplace_cdf(lam)(x) - float(engine_laplace_cdf(x, lam))) < 1e-15
    assert ks(S.laplace(lam, N, 102 + int(1000 * lam)), laplace_cdf(lam)) > P_FAIL


def engine_laplace_cdf(x, lam):
    from arete_proofs.distributions import laplace

    return laplace.cdf(x, lam, digits=20)


STAIR = [(float(sc_engine.gamma_mean_abs(4)), 1.0, 4.0), (float(sc_engine.gamma_var(4)), 1.0, 4.0),
         (0.0, 2.5, 1.0), (1.0, 0.5, 2.0), (0.37, 1.0, 0.2), (float(sc_engine.gamma_mean_abs(10)), 1.0, 10.0)]


@pytest.mark.parametrize("case", STAIR, ids=lambda c: f"g={c[0]:.3g},D={c[1]},eps={c[2]}")
def test_staircase_ks_vectorized(case):
    assert ks(S.staircase(*case, 50_000, 103), staircase_cdf_vec(*case)) > P_FAIL


@pytest.mark.parametrize("case", STAIR[:3], ids=lambda c: f"g={c[0]:.3g},D={c[1]},eps={c[2]}")
def test_staircase_ks_engine(case):
    """KS against staircase.cdf itself (Lemma 27's engine) on 1500 draws."""
    assert ks(S.staircase(*case, 1500, 104), staircase_cdf_engine(*case)) > P_FAIL


@pytest.mark.parametrize("n,size", [(1, N), (2, N), (10, N), (1000, 4000)])
def test_share_sums_ks(n, size):
    """Lemma 10: the sum of n shares is Arete(alpha, theta, lam) (Lemma 3's parameters at eps = 10)."""
    z = S.shares(*PAPER10, n, size, 105 + n, summed=True)
    assert z.shape == (size,)
    assert ks(z, arete_cdf(PAPER10)) > P_FAIL


def test_share_matrix_sums_ks():
    """The unsummed (size, n) matrix summed by the caller is Arete too (fig. 4 eps = 6 set)."""
    s = S.shares(*FIG4_6, 7, N, 106)
    assert s.shape == (N, 7)
    assert ks(s.sum(axis=1), arete_cdf(FIG4_6)) > P_FAIL


def test_summed_chunking(monkeypatch):
    """Both chunk loops of the summed path (rows and columns) give Arete sums."""
    monkeypatch.setattr(S, "_CHUNK", 4)
    z = S.shares(*PAPER10, 10, 5000, 107, summed=True)
    assert ks(z, arete_cdf(PAPER10)) > P_FAIL


def test_sample_with_parties_ks():
    z = S.sample(*FIG4_6, 10_000, seed=108, parties=25)
    assert z.dtype == np.float64
    assert ks(z, arete_cdf(FIG4_6)) > P_FAIL


# ---------------------------------------------------------------------------
# power: the same tests reject a sampler whose scale is off by 30%
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("factor", [1.3, 0.7])
def test_power_scale(factor):
    f = factor
    assert ks(f * S.arete(*PAPER10, N, 100), arete_cdf(PAPER10)) < P_FAIL
    assert ks(S.arete(PAPER10[0], f * PAPER10[1], f * PAPER10[2], N, 100), arete_cdf(PAPER10)) < P_FAIL
    assert ks(f * S.gamma_gamma(0.3, 2.0, N, 101), lambda t: fast.gg_cdf(t, 0.3, 2.0)) < P_FAIL
    assert ks(f * S.laplace(0.5, N, 102), laplace_cdf(0.5)) < P_FAIL
    g, D, e = STAIR[0]
    assert ks(S.staircase(g, f * D, e, 50_000, 103), staircase_cdf_vec(g, D, e)) < P_FAIL
    assert ks(S.staircase(g, f * D, e, 1500, 104), staircase_cdf_engine(g, D, e)) < P_FAIL
    z = S.shares(PAPER10[0], f * PAPER10[1], f * PAPER10[2], 10, N, 115, summed=True)
    assert ks(z, arete_cdf(PAPER10)) < P_FAIL


@pytest.mark.parametrize("name", ["paper eps=10", "paper eps=20", "fig4 eps=6"])
def test_power_theta_only(name):
    """Only the Gamma-Gamma scale off by 30% (lam right): the plain KS is nearly blind at eps = 20
    (p = 0.44 and 0.10 for theta x1.3 and x0.7 with 100000 draws); the tail tests of arete_pvalues
    reject (tail count p = 1.4e-15 and 6.1e-22 there)."""
    a, th, lam = p = ARETE_SETS[name]
    for f in (1.3, 0.7):
        pv = arete_pvalues(S.arete(a, f * th, lam, 100_000, 100), p, plain=False)
        assert min(pv.values()) < P_FAIL, (f, pv)


# ---------------------------------------------------------------------------
# Monte Carlo moments within 5 standard errors (exact SEs)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["paper eps=10", "fig4 eps=6", "alpha=1.5", "lam>theta"])
def test_arete_moments(name):
    p = ARETE_SETS[name]
    dm, dv = within_clt(S.arete(*p, 200_000, 120), *arete_moments(*p))
    assert dm < 5 and dv < 5


def test_share_sum_moments():
    z = S.shares(*PAPER10, 10, 100_000, 121, summed=True)
    dm, dv = within_clt(z, *arete_moments(*PAPER10))
    assert dm < 5 and dv < 5


def test_gamma_gamma_moments():
    a, th = 0.3, 2.0
    m = float(gg_engine.mean_abs(a, th, digits=17))  # 4 theta Gamma(2a) / (4^a Gamma(a)^2)
    v = 2 * a * th**2
    dm, dv = within_clt(S.gamma_gamma(a, th, 200_000, 122), m, v, 12 * a * th**4 + 3 * v * v)
    assert dm < 5 and dv < 5


def test_laplace_moments():
    lam = 0.7  # E|Y| = lam, Var Y = 2 lam^2, E Y^4 = 24 lam^4
    dm, dv = within_clt(S.laplace(lam, 200_000, 123), lam, 2 * lam**2, 24 * lam**4)
    assert dm < 5 and dv < 5


def staircase_m4(g, D, e):
    """E X^4 = 2 a D^5/5 sum_k r^k [((k+g)^5 - k^5) + r ((k+1)^5 - (k+g)^5)] (Lemma 27's density, period by period)."""
    with mp.workdps(30):
        g, D, e = mp.mpf(g), mp.mpf(D), mp.mpf(e)
        r = mp.exp(-e)
        a = (1 - r) / (2 * D * (g + r * (1 - g)))
        K = int(80 / float(e)) + 60
        tot = mp.fsum(r**k * (((k + g) ** 5 - k**5) + r * ((k + 1) ** 5 - (k + g) ** 5)) for k in range(K))
        tot2 = mp.fsum(r**k * (((k + g) ** 3 - k**3) + r * ((k + 1) ** 3 - (k + g) ** 3)) for k in range(K))
        # the same sum with t^2 reproduces staircase.var (checks the summation)
        assert mp.almosteq(2 * a * D**3 / 3 * tot2, sc_engine.var(g, D, e, digits=25), 1e-20)
        return float(2 * a * D**5 / 5 * tot)


@pytest.mark.parametrize("case", [STAIR[0], STAIR[1], STAIR[2], STAIR[4]], ids=str)
def test_staircase_moments(case):
    m = float(sc_engine.mean_abs(*case, digits=17))
    v = float(sc_engine.var(*case, digits=17))
    dm, dv = within_clt(S.staircase(*case, 200_000, 124), m, v, staircase_m4(*case))
    assert dm < 5 and dv < 5


def test_staircase_extreme_eps():
    """eps = 800: b = e^-eps underflows; gamma = 0 puts all mass on [0, Delta) uniformly, gamma > 0 on [0, gamma Delta)."""
    x = S.staircase(0.0, 2.0, 800.0, 10_000, 1)
    assert np.all(np.abs(x) < 2.0) and stats.kstest(np.abs(x), "uniform", args=(0, 2.0)).pvalue > P_FAIL
    assert np.all(np.abs(S.staircase(0.25, 2.0, 800.0, 10_000, 2)) < 0.5)


def test_staircase_step_structure():
    """Lemma 27: P(|X| < gamma Delta) = gamma (1 - b)/(gamma + b (1 - gamma)); P(|X| >= k Delta) = b^k (b = e^-eps)."""
    g, D, e = 0.3, 2.0, 1.5
    x = np.abs(S.staircase(g, D, e, 200_000, 125))
    b = math.exp(-e)
    for frac, p in [((x < g * D).mean(), g * (1 - b) / (g + b * (1 - g))), ((x >= D).mean(), b),
                    ((x >= 3 * D).mean(), b**3)]:
        assert abs(frac - p) < 5 * math.sqrt(p * (1 - p) / x.size)


# ---------------------------------------------------------------------------
# tiny shapes
# ---------------------------------------------------------------------------


def log_gamma_cdf(a, theta):
    """P(ln X <= y) for X ~ Gamma(a, theta): gammainc(a, e^y/theta); below e^-30: (x^a/Gamma(1+a)) (1 + O(x))."""
    def F(y):
        u = np.asarray(y, dtype=float) - math.log(theta)
        out = np.exp(a * np.minimum(u, 0) - sc.gammaln(1 + a))
        big = u > -30
        out[big] = sc.gammainc(a, np.exp(u[big]))
        return out
    return F


@pytest.mark.parametrize("a", [1e-7, 1e-9, 1e-4])
def test_log_gamma_ks(a):
    """The log-space representation ln X = ln theta + ln Y + ln(U)/a has the exact law of ln Gamma(a, theta)."""
    assert ks(S.log_gamma_variates(a, 2.0, N, 130 + int(-math.log10(a))), log_gamma_cdf(a, 2.0)) > P_FAIL


def test_log_gamma_power():
    a = 1e-7
    assert ks(S.log_gamma_variates(1.3 * a, 2.0, N, 130), log_gamma_cdf(a, 2.0)) < P_FAIL


def binom_p(k, n, p):
    """Two-sided exact binomial test p-value."""
    return stats.binomtest(int(k), int(n), p).pvalue


@pytest.mark.parametrize("sampler", ["sampling", "numpy"])
def test_tiny_shape_zeros_and_upper_tail(sampler):
    """Gamma(1e-7): draws that are exactly 0 are the values below 2^-1075 (rounded to 0); the rest follow the law.

    P(X > 2^-1075) = Q(a, 2^-1075) ~ 7.45e-5; the conditional law of ln X given X > 1e-300 is
    1 - Q(a, e^y)/Q(a, 1e-300).  Both the log-space path and numpy's own sampler pass.
    """
    a, n = 1e-7, 4_000_000
    g = np.random.default_rng(131)
    x = S.gamma_variates(a, 1.0, n, g) if sampler == "sampling" else g.gamma(a, 1.0, n)
    # 2^-1075 (half the smallest subnormal) is not a float: P(X <= x) = x^a/Gamma(1+a) (1 + O(x))
    p_pos = -math.expm1(-1075 * math.log(2) * a - sc.gammaln(1 + a))
    assert binom_p((x > 0).sum(), n, p_pos) > P_FAIL
    x0 = 1e-300
    q0 = sc.gammaincc(a, x0)
    big = x[x > x0]
    assert binom_p(big.size, n, q0) > P_FAIL
    assert big.size > 150
    assert ks(np.log(big), lambda y: 1 - sc.gammaincc(a, np.exp(y)) / q0) > P_FAIL


def test_tiny_shape_gamma_sums():
    """Lemma 8 at shape 1e-7 per share: the sum of n = 1000 shares is Gamma(1e-4, theta).

    Tested where the mass is visible in float64: the count of sums above 1e-300 theta
    (binomial, p = Q(1e-4, 1e-300)) and the conditional law of ln S above it (KS).
    """
    a, n, rows, th = 1e-4, 1000, 20_000, 3.0
    s = S.gamma_variates(a / n, th, (rows, n), 132).sum(axis=1)
    x0 = 1e-300
    q0 = sc.gammaincc(a, x0)
    big = s[s > x0 * th]
    assert binom_p(big.size, rows, q0) > P_FAIL and big.size > 1000
    assert ks(np.log(big / th), lambda y: 1 - sc.gammaincc(a, np.exp(y)) / q0) > P_FAIL


def test_tiny_shape_share_sums_are_arete():
    """Shares with alpha/n = 1e-7 (alpha = 1e-4, n = 1000): sums are Arete(1e-4, 1000, 1e-3).

    KS on all sums, plus the tail |Z| > 0.05 (where the Laplace part contributes e^-50):
    the count is binomial with p = 2 sf(0.05) and the tail values follow sf(t)/sf(0.05).
    """
    p = (1e-4, 1000.0, 1e-3)
    z = S.shares(*p, 1000, 10_000, 133, summed=True)
    # a Gamma(1e-7) share is exactly 0 with probability 1 - Q(1e-7, 2^-1075) = 0.99993
    assert (S.gamma_variates(1e-7, 1000.0, 10_000, 1) == 0).mean() > 0.999
    assert ks(z, arete_cdf(p)) > P_FAIL
    t0 = 0.05
    s0 = fast.sf(t0, *p)
    tail = np.abs(z[np.abs(z) > t0])
    assert binom_p(tail.size, z.size, 2 * s0) > P_FAIL and tail.size > 5
    assert ks(tail, lambda t: 1 - fast.sf(t, *p) / s0) > P_FAIL
    # power of the tail count: without the Gamma-Gamma part (alpha -> 0) it is ~0, far from 2 sf(0.05) N ~ 19
    assert binom_p(0, z.size, 2 * s0) < P_FAIL


@pytest.mark.slow
def test_tiny_shape_share_sums_paper_eps20():
    """Lemma 3's eps = 20 parameters split over n = 20000 parties (alpha/n = 3.4e-7, 1/n = 5e-5): still Arete."""
    z = S.shares(*PAPER20, 20_000, 2000, 134, summed=True)
    assert ks(z, arete_cdf(PAPER20)) > P_FAIL
    t0 = 0.1  # 15 lam: the Laplace part's tail e^-15 is ~1e-7
    s0 = fast.sf(t0, *PAPER20)
    tail = np.abs(z[np.abs(z) > t0])
    assert binom_p(tail.size, z.size, 2 * s0) > P_FAIL


def test_tiny_shape_upper_values_match_numpy_path():
    """Log-space (a < SHAPE_LOG_SPACE) and numpy's sampler agree in law at a = 1e-6 (two-sample KS on ln X > 1e-300)."""
    a, n = 1e-6, 2_000_000
    x1 = S.log_gamma_variates(a, 1.0, n, 135)
    x2 = np.random.default_rng(136).gamma(a, 1.0, n)
    big1 = x1[x1 > math.log(1e-300)]
    big2 = np.log(x2[x2 > 1e-300])
    assert stats.ks_2samp(big1, big2).pvalue > P_FAIL


# ---------------------------------------------------------------------------
# API: seeds, shapes, dtypes, bad input
# ---------------------------------------------------------------------------


def test_seeding_and_generators():
    a = S.arete(*PAPER10, 10, 5)
    assert np.array_equal(a, S.arete(*PAPER10, 10, 5))
    assert np.array_equal(a, S.arete(*PAPER10, 10, np.random.default_rng(5)))
    assert not np.array_equal(a, S.arete(*PAPER10, 10, 6))
    g = np.random.default_rng(1)
    assert not np.array_equal(S.laplace(1, 5, g), S.laplace(1, 5, g))  # a Generator is advanced, not reseeded
    assert S.arete(*PAPER10, 3).shape == (3,)  # rng=None: fresh entropy


def test_shapes_and_dtypes():
    assert isinstance(S.arete(*PAPER10, None, 1), float)
    assert isinstance(S.staircase(0.5, 1, 2, None, 1), float)
    for f in (lambda s: S.arete(*PAPER10, s, 1), lambda s: S.gamma_gamma(0.2, 1, s, 1),
              lambda s: S.laplace(1, s, 1), lambda s: S.staircase(0.5, 1, 2, s, 1),
              lambda s: S.gamma_variates(1e-8, 1, s, 1)):
        x = f((2, 3))
        assert x.shape == (2, 3) and x.dtype == np.float64
        assert f(0).shape == (0,)
    assert S.shares(*PAPER10, 5, None, 1).shape == (5,)
    assert isinstance(S.shares(*PAPER10, 5, None, 1, summed=True), float)
    assert S.shares(*PAPER10, 5, 4, 1, parties=7).shape == (4, 7)
    assert S.sample(*PAPER10, 0, 1).shape == (0,)


def test_save_samples(tmp_path):
    z = S.sample(*PAPER10, 100, seed=3, parties=4)
    p = S.save_samples(tmp_path / "z.npy", z)
    assert p == tmp_path / "z.npy" and np.array_equal(np.load(p), z)
    p2 = S.save_samples(str(tmp_path / "w"), [1, 2])
    assert p2.name == "w.npy" and np.load(p2).dtype == np.float64


@pytest.mark.parametrize("call,name", [
    (lambda: S.arete(0, 1, 1, 3, 1), "alpha"),
    (lambda: S.arete(0.1, -1, 1, 3, 1), "theta"),
    (lambda: S.arete(0.1, 1, float("inf"), 3, 1), "lam"),
    (lambda: S.arete(0.1, 1, float("nan"), 3, 1), "lam"),
    (lambda: S.gamma_gamma(True, 1, 3, 1), "alpha"),
    (lambda: S.laplace("x", 3, 1), "lam"),
    (lambda: S.staircase(1.5, 1, 1, 3, 1), "gamma"),
    (lambda: S.staircase(0.5, 0, 1, 3, 1), "Delta"),
    (lambda: S.staircase(0.5, 1, -2, 3, 1), "eps"),
    (lambda: S.shares(0.1, 1, 1, 0, 3, 1), "n"),
    (lambda: S.shares(0.1, 1, 1, 2.5, 3, 1), "n"),
    (lambda: S.shares(0.1, 1, 1, 2, (3, 2), 1), "size"),
    (lambda: S.shares(0.1, 1, 1, 2, 3, 1, parties=0), "parties"),
    (lambda: S.arete(0.1, 1, 1, -1, 1), "size"),
    (lambda: S.arete(0.1, 1, 1, 2.5, 1), "size"),
    (lambda: S.arete(0.1, 1, 1, 3, "seed"), "rng"),
    (lambda: S.arete(0.1, 1, 1, 3, -4), "rng"),
    (lambda: S.gamma_variates(0, 1, 3, 1), "shape"),
    (lambda: S.log_gamma_variates(1, 0, 3, 1), "scale"),
    (lambda: S.sample(0.1, 1, 1, 3.5, 1), "size"),
])
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()
