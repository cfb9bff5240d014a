"""The exact samplers of the integer families and their shares (arete_proofs.mechanisms.exact).

* **Law**: G-tests of exact draws against the exact pmf (the mpmath engine of each family: an
  independent computation, not the arb series the sampler inverts), for every integer family and for
  the sum of ``n`` shares; fast tier 2 * 10^5 draws, slow tier 10^6.
* **Power**: the same test rejects a deliberately wrong variant of each case -- the scale 10% off
  (``a`` or ``eps`` times 1.1) and the true law with its tail beyond a quantile cut off (mass
  10^-3 in the fast tier, 10^-4 in the slow one) -- and, for shares, a sum over 10% fewer parties.
* **Tables**: the 64-bit CDF bounds contain the negative binomial CDF computed independently (mpmath's
  regularized incomplete beta at 60 digits); the lazy path (a 4-bit table, a table cut short) draws the
  same law.
* **No float on random values**: every sampler runs with numpy's float generators, mpmath's and
  Python's float random functions patched to raise, with a bit source whose float methods raise.
* **Bad input**: parameters and bit sources get one-line ``ValueError`` naming them.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

pytest.importorskip("flint", reason="the exact samplers need python-flint (extra 'exact')")

from arete_proofs.mechanisms import exact  # noqa: E402
from arete_proofs.mechanisms.exact.inversion import InversionSampler  # noqa: E402
from arete_proofs.noise import make  # noqa: E402

ALPHA = 1e-6

#: (family, parameters, the parameter scaled by 1.1 in the wrong variant)
FAMILIES = [
    ("dlap", {"a": "0.5"}, "a"),
    ("gdl", {"beta": "0.5", "a": "0.7"}, "a"),
    ("gdl", {"beta": "3", "a": "1.2"}, "a"),
    ("msdlap", {"a": "1.2", "m": 3}, "a"),
    ("discrete_staircase", {"eps": "1", "Delta": 3, "r": 2}, "eps"),
    ("lattice_skellam", {"a": "1.2", "m": 2, "mu": "0.7", "h": 3}, "a"),
]
#: (family, parameters, scaled parameter, parties)
SHARES = [
    ("dlap", {"a": "0.5"}, "a", 4),
    ("gdl", {"beta": "0.6", "a": "0.8"}, "a", 10),
    ("msdlap", {"a": "1.2", "m": 3}, "a", 5),
    ("lattice_skellam", {"a": "1.2", "m": 2, "mu": "0.7", "h": 3}, "a", 5),
]


class _Law:
    """Bins of an integer law for the G-test: every integer with expected count >= 10, the two tails pooled."""

    def __init__(self, noise, N):
        self.noise = noise
        pm = {}
        K = 0
        while True:
            for k in {K, -K}:
                pm[k] = float(noise.pmf(k, digits=15))
            if float(noise.sf(K, digits=15)) * N < 10 and K > 0:
                break
            K += 1
        ks = np.arange(-K, K + 1)
        p = np.array([pm[int(k)] for k in ks])
        keep = p * N >= 10
        self.lo, self.hi = int(ks[keep][0]), int(ks[keep][-1])
        self.ks = np.arange(self.lo, self.hi + 1)
        body = np.array([pm[int(k)] for k in self.ks])
        left = float(self.noise.cdf(self.lo - 1, digits=15))
        right = float(self.noise.sf(self.hi, digits=15))
        self.p = np.concatenate([[left], body, [right]])

    def g_test(self, x) -> float:
        """p-value of the G-test of the draws ``x`` against the law."""
        x = np.asarray(x).reshape(-1)
        assert x.dtype.kind == "i"
        counts = np.bincount(np.clip(x, self.lo - 1, self.hi + 1) - (self.lo - 1), minlength=self.ks.size + 2)
        expected = self.p / self.p.sum() * x.size
        obs = counts.astype(float)
        nz = obs > 0
        G = 2 * float(np.sum(obs[nz] * np.log(obs[nz] / expected[nz])))
        return float(stats.chi2.sf(G, counts.size - 1))

    def cut(self, tail):
        """The smallest K >= 0 with P(|X| > K) <= ``tail``."""
        K = 0
        while float(self.noise.sf(K, digits=15)) + float(self.noise.cdf(-K - 1, digits=15)) > tail:
            K += 1
        return K


def _truncated(draw, N, K):
    """N draws of the law conditioned on |X| <= K (the wrong variant 'tail cut off')."""
    x = draw(int(N * 1.2) + 100)
    x = x[np.abs(x) <= K]
    assert x.size >= N
    return x[:N]


def _scaled(params, name):
    return {**params, name: str(Fraction(str(params[name])) * Fraction(11, 10))}


def _check_family(name, params, scaled, N, tail, seed):
    z = make(name, **params)
    law = _Law(z, N)
    assert law.g_test(z.sample(N, rng=random.Random(seed))) > ALPHA
    wrong = make(name, **_scaled(params, scaled))
    p_scale = law.g_test(wrong.sample(N, rng=random.Random(seed + 1)))
    K = law.cut(tail)
    rng = random.Random(seed + 2)
    p_tail = law.g_test(_truncated(lambda n: z.sample(n, rng=rng), N, K))
    assert p_scale < ALPHA, (name, "scale 10% off not rejected", p_scale)
    assert p_tail < ALPHA, (name, f"tail beyond {K} cut off not rejected", p_tail)


def _check_shares(name, params, scaled, n, N, tail, seed):
    z = make(name, **params)
    law = _Law(z, N)
    s = z.shares(n)
    assert s.exact
    sums = s.sample(N, rng=random.Random(seed), summed=True)
    assert sums.dtype == np.int64
    assert law.g_test(sums) > ALPHA
    wrong = make(name, **_scaled(params, scaled)).shares(n).sample(N, rng=random.Random(seed + 1), summed=True)
    assert law.g_test(wrong) < ALPHA, (name, "shares of a 10% wrong scale not rejected")
    few = s.sample(N, rng=random.Random(seed + 2), summed=True, parties=n - max(1, n // 10))
    assert law.g_test(few) < ALPHA, (name, "sum over 10% fewer parties not rejected")
    rng = random.Random(seed + 3)
    cut = _truncated(lambda r: s.sample(r, rng=rng, summed=True), N, law.cut(tail))
    assert law.g_test(cut) < ALPHA, (name, "sums with the tail cut off not rejected")


@pytest.mark.parametrize("name,params,scaled", FAMILIES, ids=[f"{f[0]}-{i}" for i, f in enumerate(FAMILIES)])
def test_family_draws_follow_the_exact_pmf_and_wrong_variants_are_rejected(name, params, scaled):
    _check_family(name, params, scaled, 200_000, 1e-3, seed=10)


@pytest.mark.parametrize("name,params,scaled,n", SHARES, ids=[f"{s[0]}-n{s[3]}" for s in SHARES])
def test_sum_of_shares_follows_the_noise_and_wrong_variants_are_rejected(name, params, scaled, n):
    _check_shares(name, params, scaled, n, 200_000, 1e-3, seed=20)


@pytest.mark.slow
@pytest.mark.parametrize("name,params,scaled", FAMILIES, ids=[f"{f[0]}-{i}" for i, f in enumerate(FAMILIES)])
def test_family_million_draws(name, params, scaled):
    _check_family(name, params, scaled, 1_000_000, 1e-4, seed=30)


@pytest.mark.slow
@pytest.mark.parametrize("name,params,scaled,n", SHARES, ids=[f"{s[0]}-n{s[3]}" for s in SHARES])
def test_sum_of_shares_million_draws(name, params, scaled, n):
    _check_shares(name, params, scaled, n, 1_000_000, 1e-4, seed=40)


# ---------------------------------------------------------------------------
# the tables and the lazy path
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("r,a", [(Fraction(1, 1000), Fraction(8)), (Fraction(1, 2), Fraction(7, 10)),
                                 (Fraction(3), Fraction(1, 10)), (Fraction(1), Fraction(1, 3))])
def test_table_bounds_contain_the_nb_cdf_computed_independently(r, a):
    from mpmath import mp

    s = InversionSampler(exact.NegativeBinomial(r, a))
    with mp.workdps(60):
        p = -mp.expm1(-mp.mpf(a.numerator) / a.denominator)
        rr = mp.mpf(r.numerator) / r.denominator
        for i in sorted({0, 1, 2, s.T // 2, s.T - 1}):
            F = mp.betainc(rr, i + 1, 0, p, regularized=True)        # P(NB(r, p) <= i)
            assert int(s.C_lo[i]) <= F * 2**64 <= int(s.C_hi[i])
            assert int(s.C_hi[i]) - int(s.C_lo[i]) <= 2
            # the check can fail: a table off by 3 units (either way) does not contain F
            assert not int(s.C_lo[i]) + 3 <= F * 2**64 and not F * 2**64 <= int(s.C_hi[i]) - 3
        assert 1 - mp.betainc(rr, s.T, 0, p, regularized=True) <= mp.mpf(2) ** -40   # the table's tail


def _nb_law(r, a, N):
    """Binned law of NB(r, 1 - e^-a) (scipy's nbinom, an independent pmf) for a G-test."""
    p = -math.expm1(-a)
    K = int(stats.nbinom.isf(10 / N, r, p))
    probs = np.append(stats.nbinom.pmf(np.arange(K + 1), r, p), stats.nbinom.sf(K, r, p))
    return K, probs


def _nb_g(x, K, probs):
    counts = np.bincount(np.minimum(x, K + 1), minlength=K + 2).astype(float)
    e = probs / probs.sum() * x.size
    nz = counts > 0
    return float(stats.chi2.sf(2 * np.sum(counts[nz] * np.log(counts[nz] / e[nz])), K + 1))


@pytest.mark.parametrize("fast_bits,tail_bits", [(4, 40), (64, 3), (6, 2)])
def test_lazy_path_draws_the_same_law(fast_bits, tail_bits):
    law = exact.NegativeBinomial(Fraction(7, 10), Fraction(1, 2))
    s = InversionSampler(law, fast_bits=fast_bits, tail_bits=tail_bits)
    x = s.sample(200_000, random.Random(5))
    assert s.slow_draws > 1000                      # the lazy path is exercised
    K, probs = _nb_law(0.7, 0.5, x.size)
    assert _nb_g(x, K, probs) > ALPHA
    # power: the same test rejects draws of a 10% wrong rate through the same lazy path
    w = InversionSampler(exact.NegativeBinomial(Fraction(7, 10), Fraction(11, 20)), fast_bits=fast_bits,
                         tail_bits=tail_bits).sample(200_000, random.Random(6))
    assert _nb_g(w, K, probs) < ALPHA


def test_same_bits_same_draws_and_bits_are_counted():
    z = make("gdl", beta="0.5", a="0.7")
    assert np.array_equal(z.sample(1000, rng=random.Random(3)), z.sample(1000, rng=3))
    src = exact.BitSource(random.Random(1))
    exact.gdl_shares("0.5", "0.7", 10, 100, src)
    assert src.drawn == 2 * 100 * 64                # one 64-bit word per negative binomial: no lazy draw here


def test_default_bit_source_is_the_system_csprng():
    import secrets

    assert isinstance(exact.BitSource().rng, secrets.SystemRandom)
    x = make("dlap", a=1).sample(10)
    assert x.dtype == np.int64 and isinstance(make("dlap", a=1).sample(), int)


# ---------------------------------------------------------------------------
# no float on random values
# ---------------------------------------------------------------------------

class _IntegerBitsOnly(random.Random):
    """A seeded bit source whose float methods raise."""

    def random(self):
        raise AssertionError("random.Random.random (a float) was called")

    def uniform(self, *a):
        raise AssertionError("random.Random.uniform was called")

    def gauss(self, *a):
        raise AssertionError("random.Random.gauss was called")


def _forbid_float_generators(monkeypatch):
    import mpmath

    from arete_proofs.mechanisms import sampling

    def boom(*a, **k):
        raise AssertionError("a float random generator was used")

    for mod, names in ((np.random, ("default_rng", "random", "rand", "uniform", "negative_binomial", "gamma",
                                    "poisson", "geometric", "RandomState", "Generator")),
                       (random, ("random", "uniform", "gauss", "expovariate")),
                       (mpmath, ("rand",)),
                       (sampling, ("generator",))):
        for name in names:
            monkeypatch.setattr(mod, name, boom, raising=False)


@pytest.mark.parametrize("name,params,scaled", FAMILIES, ids=[f"{f[0]}-{i}" for i, f in enumerate(FAMILIES)])
def test_samplers_run_with_float_generators_disabled(monkeypatch, name, params, scaled):
    z = make(name, **params)
    _forbid_float_generators(monkeypatch)
    x = z.sample(5000, rng=_IntegerBitsOnly(1))
    assert x.dtype == np.int64
    if z.infinitely_divisible:
        assert z.shares(7).sample(300, rng=_IntegerBitsOnly(2), summed=True).dtype == np.int64
    # the lazy path too
    s = InversionSampler(exact.NegativeBinomial(1, 1), fast_bits=3, tail_bits=2)
    s.sample(2000, _IntegerBitsOnly(3))
    assert s.slow_draws > 0
    # and the check can fail: the float64 sampler is caught
    with pytest.raises(AssertionError, match="float random generator"):
        z.sample_float(10, rng=1)


# ---------------------------------------------------------------------------
# bad input: one line, naming the parameter
# ---------------------------------------------------------------------------

class _Returns:
    def __init__(self, value):
        self.value = value

    def getrandbits(self, k):
        return self.value


class _Raises:
    def getrandbits(self, k):
        raise OSError("entropy source\nunavailable")


@pytest.mark.parametrize("rng,match", [
    (object(), "rng must have a getrandbits"),
    (-1, "rng must be a non-negative int seed"),
    (np.random.default_rng(0), "got a numpy Generator"),
    (_Returns(-1), r"getrandbits\(128\) must return an integer in \[0, 2\^128\), got -1"),
    (_Returns(2**130), r"must return an integer in \[0, 2\^128\)"),
    (_Returns(0.5), "must return an integer"),
    (_Raises(), "rng.getrandbits.* failed: entropy source unavailable"),
])
def test_bad_bit_sources(rng, match):
    with pytest.raises(ValueError, match=match) as info:
        make("gdl", beta="0.5", a="0.7").sample(1, rng=rng)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("call,match", [
    (lambda: exact.gdl("-1", 1, 3, 1), "beta must be positive"),
    (lambda: exact.gdl(1, "x", 3, 1), "a must be a finite real number"),
    (lambda: exact.gdl(1, float("nan"), 3, 1), "a must be"),
    (lambda: exact.gdl_shares(1, 1, 0, 3, 1), "n must be an integer >= 1"),
    (lambda: exact.gdl(1, 1, -3, 1), "size must be"),
    (lambda: exact.gdl(1, 1, (2.5,), 1), "size must be"),
    (lambda: exact.msdlap_shares(1, 0, 1, 3, 1), "m must be an integer >= 1"),
    (lambda: exact.lattice_skellam_shares(1, 1, "0", 1, 1, 3, 1), "mu must be positive"),
    (lambda: exact.lattice_skellam_shares(1, 1, 1, 0, 1, 3, 1), "h must be an integer >= 1"),
    (lambda: exact.discrete_staircase(1, 2, 3, 3, 1), r"r must be in \[1, Delta\]"),
    (lambda: InversionSampler(exact.NegativeBinomial(1, 1), fast_bits=65), "fast_bits must be"),
    (lambda: InversionSampler(exact.NegativeBinomial(1, Fraction(1, 1000)), max_table=1000), "cannot cover this law"),
    (lambda: make("gdl", beta="0.5", a="0.7").shares(3).sample(2, rng=1, parties=0), "parties"),
])
def test_bad_parameters(call, match):
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_missing_flint_is_one_line(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_flint(name, *a, **k):
        if name == "flint" or name.startswith("flint."):
            raise ImportError("No module named 'flint'")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_flint)
    with pytest.raises(ImportError, match=r"pip install 'arete-proofs\[exact\]'"):
        InversionSampler(exact.NegativeBinomial(2, 1))
