"""Tests of arete_proofs.privacy.id_general: the centre constant c_ID* of general ID laws (Propositions G1, G2).

Independent methods: the certified law's density and E|X - m| are recomputed by inverting its characteristic function
with an FFT; the lattice pmf against scipy's Poisson law and a direct convolution.  Broken variants: a peak read at the
median instead of the maximum, a certificate with a cell removed, with a multiplier changed, or with a target above
its multipliers' bound, are all refused.
"""

from __future__ import annotations

import copy
import json
import math
import random
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("flint")

from arete_proofs.privacy import id_general as g   # noqa: E402


def test_panjer_pmf_against_poisson_and_convolution():
    from scipy.stats import poisson

    p = g.law_pmf({1: 1.3}, 12)
    assert all(abs(float(x.mid()) - poisson.pmf(n, 1.3)) < 1e-15 for n, x in enumerate(p))
    # two jump sizes: N = P1 + 2 P2, P1 ~ Poisson(0.7), P2 ~ Poisson(0.4)
    p = g.law_pmf({1: 0.7, 2: 0.4}, 10)
    direct = [sum(poisson.pmf(n - 2 * k, 0.7) * poisson.pmf(k, 0.4) for k in range(n // 2 + 1)) for n in range(11)]
    assert max(abs(float(x.mid()) - y) for x, y in zip(p, direct)) < 1e-15


def _fft_law(nus, d, L=60.0, n=1 << 16):
    """Density of N(0,1) + d N on a grid, from its characteristic function exp(-t^2/2 + sum nu_j (e^{i j d t} - 1))."""
    dx = 2 * L / n
    x = -L / 2 + dx * np.arange(n)
    t = 2 * np.pi * np.fft.fftfreq(n, d=dx)
    cf = np.exp(-t * t / 2 + sum(float(v) * (np.exp(1j * int(j) * float(d) * t) - 1) for j, v in nus.items()))
    f = np.real(np.fft.fft(cf * np.exp(-1j * t * x[0]))) * (t[1] - t[0]) / (2 * np.pi)
    return x, f


def test_certified_law_against_the_inverted_density():
    r = g.certify_law()
    x, f = _fft_law(g.BEST_LAW["nus"], g.BEST_LAW["d"])
    dx = x[1] - x[0]
    assert f.max() <= r["sup_upper"] < f.max() * (1 + 1e-5)
    ea = float(np.sum(np.abs(x - r["m"]) * f) * dx)          # a Riemann sum: its error is about 1e-7 relative
    assert ea * (1 - 1e-6) <= r["mean_abs_upper"] < ea * (1 + 1e-6)
    # the median of the grid density is the certified centre (to the grid's step)
    F = np.cumsum(f) * dx
    assert abs(np.interp(0.5, F, x) - r["m"]) < 1e-3
    assert 0.3133 < r["c_upper"] < 1 / math.pi
    # broken: E|X - m| from the first 10 lattice points without the tail term is below the true value
    p = g.law_pmf(g.BEST_LAW["nus"], 9)
    from scipy.stats import norm

    trunc = sum(float(pn.mid()) * (lambda u: u * (2 * norm.cdf(u) - 1) + 2 * norm.pdf(u))(n * float(Fraction(g.BEST_LAW["d"])) - r["m"])
                for n, pn in enumerate(p))
    assert trunc < ea * (1 - 1e-3)


def test_one_jump_law_and_the_gaussian():
    # one jump size: about 0.3153 (a Gaussian plus a one-sided Poisson law); no jumps: the Gaussian's 1/pi
    r = g.certify_law({1: "0.9708"}, "2.0847")
    assert 0.3153 < r["c_upper"] < 0.3154
    r = g.certify_law({1: "1e-12"}, "1")
    assert 1 / math.pi <= r["c_upper"] < 1 / math.pi * (1 + 1e-6)


def test_dual_bound_is_the_bathtub_without_multipliers():
    # alpha = beta = gamma = 0: ell + 1/2 int min(|x| - ell, 0) = ell - ell^2/2, largest at ell = 1 (1/2: the uniform law)
    for ell in ("0.5", "1", "1.5"):
        e = float(ell)
        v = g.dual_bound({"ell": ell, "alpha": 0, "gamma": 0, "betas": {}}, (0, 0), (0, 0))
        assert e - e * e / 2 - 1e-6 < v <= e - e * e / 2     # nearly flat cells are floored at -1e-7 per unit


def _small_certificate():
    return g.lower_bound_certificate("0.52", rho_cells=4, theta_cells=2)


@pytest.fixture(scope="module")
def small():
    return _small_certificate()


def test_small_certificate_and_its_broken_variants(small):
    ok = g.check_lower_bound(small)
    assert ok["holds"] and ok["c_id_lower"] == 0.26 and ok["worst"] >= 0.52
    # a cell removed: the cover has a hole
    holed = copy.deepcopy(small)
    holed["cells"].pop(len(holed["cells"]) // 2)
    assert not g.check_lower_bound(holed)["holds"]
    # a multiplier changed: that cell's bound falls below the target
    bad = copy.deepcopy(small)
    worst = min(range(len(bad["cells"])), key=lambda i: g.dual_bound(bad["cells"][i]["duals"],
                                                                       bad["cells"][i]["rho"], bad["cells"][i]["theta"]))
    bad["cells"][worst]["duals"]["ell"] = str(Fraction(bad["cells"][worst]["duals"]["ell"]) / 2)
    assert not g.check_lower_bound(bad)["holds"]
    # a target above what the multipliers prove
    high = copy.deepcopy(small)
    high["target"] = "0.6"
    assert not g.check_lower_bound(high)["holds"]
    # a box that stops short of 2/pi
    short = copy.deepcopy(small)
    short["rho_max"] = "0.6"
    assert not g.check_lower_bound(short)["holds"]


def test_the_lower_bound_is_below_id_laws_and_above_the_old_one():
    cert = json.loads(g._certificate_path(g.LOWER_CERTIFICATE).read_text())
    T = float(Fraction(cert["target"]))
    # ID laws with density <= 1/2 (scaled): the Gaussian (E|X| sup f = 1/pi) and the certified law
    assert T <= 2 / math.pi and T <= 2 * g.certify_law()["c_upper"]
    from arete_proofs.privacy.id_bounds import c_id_lower

    assert T / 2 > float(c_id_lower(digits=15))


def test_shipped_certificate_sample_reproves():
    cert = json.loads(g._certificate_path(g.LOWER_CERTIFICATE).read_text())
    rng = random.Random(1)
    sample = rng.sample(cert["cells"], 12)
    T = float(Fraction(cert["target"]))
    for c in sample:
        assert g.dual_bound(c["duals"], c["rho"], c["theta"]) >= T
    area = sum((Fraction(c["rho"][1]) - Fraction(c["rho"][0])) * (Fraction(c["theta"][1]) - Fraction(c["theta"][0]))
               for c in cert["cells"])
    assert area == Fraction(cert["rho_max"]) * Fraction(cert["theta_max"]) and g._disjoint(cert["cells"])


@pytest.mark.slow
def test_shipped_certificate_reproves_in_full():
    r = g.check_lower_bound(g.LOWER_CERTIFICATE)
    assert r["holds"] and r["c_id_lower"] > 0.2686


def test_variance_constant_evidence():
    # the Gaussian's 1/(2 pi) is the least value seen over one-sided Gaussian + lattice laws (not a proof)
    vals = [g.variance_constant({1: lam}, d) for lam in (0.1, 0.5, 1.0, 3.0) for d in (0.5, 1.0, 2.0, 4.0)]
    assert min(vals) >= 1 / (2 * math.pi)
    # broken: the uniform law (not ID) has Var sup f^2 = 1/12 < 1/(2 pi)
    assert 1 / 12 < 1 / (2 * math.pi)


def test_bad_input_is_one_line():
    for call, name in ((lambda: g.certify_law({0: 1}, 1), "nus"), (lambda: g.certify_law({1: -1}, 1), "nus"),
                       (lambda: g.certify_law({1: 1}, 0), "d"), (lambda: g.law_pmf({}, 3), "nus")):
        with pytest.raises(ValueError, match=name) as ei:
            call()
        assert "\n" not in str(ei.value)
