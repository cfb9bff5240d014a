"""scipy.stats objects of the combs: ``msdlap`` (rv_discrete) and the lattice laws (rv_continuous).

Checked against the exact engine (partial fractions, :mod:`arete_proofs.distributions.comb` and
:mod:`~arete_proofs.distributions.lattice`) and against independent computations: the direct
convolution of the truncated DLap laws (``pmf_by_convolution``) for the msdlap pmf and moments,
and numerical quadrature of the exact density for the lattice laws' cdf and variance.
"""

import math

import numpy as np
import pytest

from arete_proofs import stats
from arete_proofs.distributions.comb import comb_sf, msdlap_components, pmf_by_convolution
from arete_proofs.noise import make

MSD = [(1.5, 3), (0.7, 2), (3.0, 5)]


@pytest.mark.parametrize("a,m", MSD)
def test_msdlap_pmf_against_direct_convolution(a, m):
    w, r = msdlap_components(repr(a), m)
    ks = [0, 1, 2, 7, 15, -9]
    ref = pmf_by_convolution(ks, w, r, digits=20)          # independent: truncated direct convolution
    got = stats.msdlap(a, m).pmf(ks)
    for g, x in zip(got, ref):
        assert abs(g / float(x) - 1) < 1e-12


@pytest.mark.parametrize("a,m", MSD)
def test_msdlap_cdf_sf_against_exact_engine(a, m):
    z = stats.msdlap(a, m)
    w, r = msdlap_components(repr(a), m)
    for k in (-6, -1, 0, 3, 25):
        sf = float(comb_sf(k, w, r, digits=20))
        assert abs(z.sf(k) / sf - 1) < 1e-11
        assert abs(z.cdf(k) - (1 - sf)) < 1e-14
    assert z.cdf(2.7) == z.cdf(2) and z.sf(-0.5) == z.sf(-1)


def test_msdlap_far_tail_relative_accuracy():
    z = stats.msdlap(2.0, 3)
    w, r = msdlap_components("2.0", 3)
    k = 200                                                  # P(Z > 200) ~ 1e-58: summed from the right
    assert abs(z.sf(k) / float(comb_sf(k, w, r, digits=20)) - 1) < 1e-10


@pytest.mark.parametrize("a,m", MSD)
def test_msdlap_moments(a, m):
    z = stats.msdlap(a, m)
    noise = make("msdlap", a=repr(a), m=m)
    assert abs(z.var() / float(noise.var(digits=20)) - 1) < 1e-13
    # fourth moment against the direct sum over the float table (an independent route to E Z^4)
    from arete_proofs.stats._comb import msdlap_table

    p, N, _ = msdlap_table(a, m)
    k = np.arange(-N, N + 1, dtype=float)
    assert abs(z.moment(4) / float(np.sum(p * k ** 4)) - 1) < 1e-10
    assert z.mean() == 0 and z.stats(moments="s") == 0


@pytest.mark.parametrize("a,m", MSD)
def test_msdlap_ppf_isf_invert(a, m):
    z = stats.msdlap(a, m)
    for q in (1e-9, 0.01, 0.3, 0.5, 0.77, 0.999):
        k = z.ppf(q)
        assert z.cdf(k) >= q > z.cdf(k - 1)
        j = z.isf(q)
        assert z.sf(j) <= q < z.sf(j - 1)


def test_msdlap_rvs_chi2_and_power():
    from scipy.stats import chisquare

    z = stats.msdlap(1.0, 3)
    x = z.rvs(40_000, random_state=np.random.default_rng(5))
    bins = np.arange(-12, 13)

    def stat(dist):
        obs = np.array([np.sum(x == b) for b in bins] + [np.sum(np.abs(x) > 12)])
        exp = np.append(dist.pmf(bins), dist.sf(12) + dist.cdf(-13)) * len(x)
        return chisquare(obs, exp).pvalue

    assert stat(z) > 1e-3
    assert stat(stats.msdlap(1.3, 3)) < 1e-6          # a 30 % wrong rate is rejected


def test_msdlap_family_scipy_hook_and_bad_parameters():
    z = make("msdlap", a="1.5", m=3).scipy()
    assert z.pmf(2) == stats.msdlap(1.5, 3).pmf(2)
    assert np.isnan(stats.msdlap.pmf(0, 1.0, 2.5)) and np.isnan(stats.msdlap.pmf(0, -1.0, 2))


LAT = [("lattice_laplace", dict(a="2", m=2, b="0.25", h="0.5")),
       ("lattice_laplace", dict(a="5", m=8, b="0.0625", h="0.125")),
       ("lattice_gauss", dict(a="2", m=2, sigma="0.2", h="0.5"))]


@pytest.mark.parametrize("name,params", LAT)
def test_lattice_pdf_cdf_against_exact_engine(name, params):
    noise = make(name, **params)
    z = noise.scipy()
    for t in (0.0, 0.13, 0.5, 1.7, -2.2, 6.0):
        assert abs(z.pdf(t) / float(noise.pdf(t, digits=20)) - 1) < 1e-11
        assert abs(z.sf(t) / float(noise.sf(t, digits=20)) - 1) < 1e-10
        assert abs(z.cdf(t) / float(noise.cdf(t, digits=20)) - 1) < 1e-10


def _quad(fn, lo, hi, h):
    """scipy quad of fn over [lo, hi] split at the lattice points (the density's kinks or bumps)."""
    from scipy.integrate import quad

    pts = np.arange(math.ceil(lo / h), math.floor(hi / h) + 1) * h
    edges = np.unique(np.concatenate([[lo], pts, [hi]]))
    return sum(quad(fn, u, v, epsabs=1e-17, epsrel=1e-13, limit=200)[0] for u, v in zip(edges[:-1], edges[1:]))


@pytest.mark.slow
@pytest.mark.parametrize("name,params", LAT)
def test_lattice_cdf_and_var_against_quadrature(name, params):
    z = make(name, **params).scipy()
    h = float(params["h"])
    T = 60.0 * h * params["m"] / float(params["a"]) + 40 * h       # the mass beyond is below 1e-20
    for t in (-0.7, 0.3, 1.1):
        left = _quad(z.pdf, -T, t, h)                         # independent: the integral of the density
        assert abs(z.cdf(t) - left) < 1e-12
    var = _quad(lambda x: x * x * z.pdf(x), -T, T, h)
    assert abs(z.var() / var - 1) < 1e-10
    m4 = _quad(lambda x: x ** 4 * z.pdf(x), -T, T, h)
    assert abs(z.moment(4) / m4 - 1) < 1e-9
    assert math.isclose(z.stats(moments="k"), m4 / z.var() ** 2 - 3, rel_tol=1e-8)


@pytest.mark.slow
@pytest.mark.parametrize("name,params", LAT)
def test_lattice_ppf_inverts_and_rvs(name, params):
    z = make(name, **params).scipy()
    for q in (1e-8, 0.05, 0.5, 0.9, 0.99999):
        assert abs(z.cdf(z.ppf(q)) / q - 1) < 1e-10
    x = z.rvs(20_000, random_state=np.random.default_rng(3))
    assert abs(x.var() / z.var() - 1) < 0.05
    from scipy.stats import kstest

    assert kstest(x, z.cdf).pvalue > 1e-3


def test_lattice_quick_cdf_quadrature_and_ppf():
    """The fast version of the slow sweeps: one law, one point."""
    z = make("lattice_laplace", **LAT[0][1]).scipy()
    assert abs(z.cdf(0.3) - _quad(z.pdf, -40.0, 0.3, 0.5)) < 1e-12
    assert abs(z.cdf(z.ppf(0.05)) / 0.05 - 1) < 1e-10
