"""The fast paths of the comb engine against the old (independent) ones (issue 23, speed).

* ``scaled_pmf_table`` (positive power series in ball arithmetic) against the partial fractions
  (``comb_pmf``) and the direct convolution (``pmf_by_convolution``) at 30 digits;
* the dominant-group tail constants (O(m^2)) against the full pole expansion (``_Poles``);
* the coupling bound (tight_discrete item 5) against the window computation, and a broken variant;
* ``LatticeLaw.use_table`` / ``fill_cells`` (recurrences) against the direct cells.
"""

import os

import pytest
from mpmath import mp

from arete_proofs.distributions import comb
from arete_proofs.distributions.comb_table import pmf_table, scaled_pmf_table
from arete_proofs.distributions.lattice import LatticeLaw
from arete_proofs.privacy import tight_discrete as td

COMBS = [comb.msdlap_components("1.5", 5), comb.msdlap_components("2", 8), ((2, 4, 1), ("3", "3", "0.5")),
         ((1, 3), ("0.7", "4")), comb.theorem18_components("4.5", 6, 2)]


@pytest.mark.parametrize("w,r", COMBS)
def test_table_against_partial_fractions(w, r):
    t = pmf_table(120, w, r, digits=30)
    with mp.workdps(40):
        for k in (0, 1, 2, 3, 7, 31, 64, 119, 120):
            assert abs(t[k] / comb.comb_pmf(k, w, r, digits=35) - 1) < mp.mpf(10) ** -29, k


@pytest.mark.parametrize("w,r", COMBS[:3])
def test_table_against_convolution(w, r):
    ks = list(range(0, 25))
    ref = comb.pmf_by_convolution(ks, w, r, digits=30)
    t = pmf_table(24, w, r, digits=30)
    with mp.workdps(40):
        assert max(abs(x - y) for x, y in zip(t, ref)) < mp.mpf(10) ** -30


def test_table_scaled_tends_to_tail_constants():
    w, r = comb.msdlap_components("2", 4)
    C = comb.tail_constants(w, r, digits=25)
    t = scaled_pmf_table(400, w, r, digits=25)
    with mp.workdps(30):
        for k in (396, 397, 398, 399):   # p_k e^{lambda k} -> C_{k mod 4}, from below
            assert 0 <= C[k % 4] - t[k] < mp.mpf(10) ** -20


@pytest.mark.parametrize("w,r", COMBS[:2] + [comb.msdlap_components("3", 12), ((3, 1), ("2", "3"))])
def test_dominant_constants_against_full_poles(w, r):
    C = comb.tail_constants(w, r, digits=30)
    P = comb._poles(w, r, 60)
    old = P.B[P.order[0]]
    with mp.workdps(40):
        assert max(abs(x / y - 1) for x, y in zip(C, old)) < mp.mpf(10) ** -30


def test_double_poles_still_refused_by_tail_constants():
    with pytest.raises(ValueError, match="distinct"):
        comb.tail_constants([1, 2], ["1", "2"], digits=10)


def test_coupling_bound_against_window():
    # MSDLap(2, 4) at Delta = 4: the shortcut (no window) and the window computation agree (= a, Theorem 16)
    short = td.tight_epsilon_msdlap("2", 4, 4, digits=15)
    assert short.K == 0 and abs(short.epsilon - 2) < 1e-15
    orig = td.coupling_bound
    try:
        td.coupling_bound = lambda *a, **k: None
        full = td.tight_epsilon_msdlap("2", 4, 4, digits=15)
    finally:
        td.coupling_bound = orig
    assert full.K > 0 and abs(full.epsilon - short.epsilon) < 1e-14


def test_coupling_bound_is_an_upper_bound_and_a_broken_one_is_caught():
    w, r = [2, 3], ["1", "2"]
    e = td.tight_epsilon_comb(w, r, 1, digits=12).epsilon   # 2.68764977893555, attained in the window
    U = td.coupling_bound(w, r, 1)
    assert U == 3 and e <= U
    # broken: one step of the costlier component for s = 1 (forgetting that 1 = 3 - 2 needs two steps)
    broken = max(mp.mpf(x) for x in r)
    assert e > broken                                         # the exact loss exceeds it: caught


def test_lattice_table_and_cells_against_direct():
    w, r = comb.msdlap_components("3", 4)
    z = LatticeLaw(r, w, "0.25", kernel="laplace", scale="0.125", digits=20)
    direct = {k: z.cell(k) for k in (-3, 0, 5, 40)}
    pk = {k: z.p(k) for k in (0, 3, 17, 60)}
    z2 = LatticeLaw(r, w, "0.25", kernel="laplace", scale="0.125", digits=20)
    z2.use_table(200)
    z2.fill_cells(-5, 100)
    with mp.workdps(30):
        for k, v in pk.items():
            assert abs(z2.p(k) / v - 1) < mp.mpf(10) ** -25
        for k, (SL, SR) in direct.items():
            SL2, SR2 = z2.cell(k)
            assert abs(SL2 / SL - 1) < mp.mpf(10) ** -25 and abs(SR2 / SR - 1) < mp.mpf(10) ** -25


# -- long combs: the truncation bounds are products of one factor per component (issue hm25fix) --------------
# MSDLap(2, 1000) has R(1) = prod 1/(1 - e^{-2 + 2c/1000}) ~ e^748, outside the float range: the float
# bookkeeping raised OverflowError at K = 30000.  The bounds are now logarithms and the error radius an arb.

def test_table_against_an_mpmath_convolution():
    """MSDLap(2, 6) and a two-rate comb against tests/_msdlap_reference.py (mpmath, shares no code)."""
    from _msdlap_reference import convolution_pmf  # tests/_msdlap_reference.py

    for w, r in (comb.msdlap_components("2", 6), ((1, 3, 4), ("0.9", "2.5", "3"))):
        ks = range(31)
        ref = convolution_pmf(w, r, ks, digits=25)
        t = pmf_table(30, w, r, digits=25)
        with mp.workdps(35):
            assert max(abs(t[k] / ref[k] - 1) for k in ks) < mp.mpf(10) ** -23, (w, r)


def test_bounds_beyond_the_float_range():
    """Nine DLaps at rates 1, 1 + 10^-90 i: R(1) ~ 10^720 (the old float bookkeeping overflowed) --
    the law is nine iid DLap(1) to 10^-88, so the mpmath convolution of DLap(1)^9 is the reference."""
    from _msdlap_reference import convolution_pmf  # tests/_msdlap_reference.py

    w = (1,) * 9
    r = ("1",) + tuple("1." + "0" * 89 + str(i) for i in range(1, 9))
    t = pmf_table(120, w, r, digits=15)
    ref = convolution_pmf(w, ["1"] * 9, range(0, 81, 10), digits=40)   # absolute error < 10^-49 << p_80 ~ 10^-27
    with mp.workdps(25):
        assert all(abs(t[k] / ref[k] - 1) < mp.mpf(10) ** -14 for k in ref)
        assert abs(2 * mp.fsum(t) - t[0] - 1) < mp.mpf(10) ** -14        # total mass 1 (the rest < 10^-30)


def test_log_bookkeeping_helpers():
    import math

    from arete_proofs.distributions import comb_table as ct

    assert ct._lse(-math.inf, -5.0) == -5.0 and abs(ct._lse(0.0, 0.0) - math.log(2)) < 1e-15
    assert abs(ct._lse(-2000.0, -2001.0) - (-2000.0 + math.log1p(math.exp(-1)))) < 1e-12   # no underflow
    assert ct._ln_expm1(-math.inf) == -math.inf
    assert ct._ln_expm1(-500.0) >= -500.0 and abs(ct._ln_expm1(0.0) - math.log(math.e - 1)) < 1e-15


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("ARETE_LONG_TABLES") != "1",
                    reason="minutes of CPU (a 750000-term ball series); run with ARETE_LONG_TABLES=1")
def test_msdlap_1000_scales_long_window():
    """MSDLap(2, 1000) on K = 30000 (raised OverflowError): finite, positive, normalised values.

    The overflow itself is covered cheaply by test_bounds_beyond_the_float_range; this is the reported case."""
    K = 30000
    w, r = comb.msdlap_components("2", 1000)
    t = pmf_table(K, w, r, digits=15)
    with mp.workdps(25):
        assert all(mp.isfinite(v) and v > 0 for v in t)
        # total mass: 2 sum_{k <= K} p_k - p_0 + the two tails; p_k e^{lam k} <= max C_r, so each tail
        # is below p_K e^{...} / (1 - e^{-lam}) -- bounded here by 2 t[K] / (1 - e^{-lam}) with margin
        lam = mp.mpf(2) / 1000
        mass = 2 * mp.fsum(t) - t[0]
        tail = 2 * max(t[K - 999:]) / (1 - mp.exp(-lam)) * 2
        assert 1 - tail - mp.mpf(10) ** -12 < mass <= 1 + mp.mpf(10) ** -12


# -- long windows from the poles (issue 23: Theorem 21 at m = 245 was 20 s of power series) --------------------
POLE_COMBS = [comb.msdlap_components("6", 40), ((1, 2, 3, 5), ("2", "2.5", "3", "4")),
              ((1, 2, 3, 4), ("3", "3", "3", "1.5"))]      # the last: a top scale with its own rate


@pytest.mark.parametrize("w,r", POLE_COMBS)
def test_pole_table_against_the_power_series(w, r):
    """Partial fractions in balls (comb_poles.CombPoles.q_table) against the positive power series: two formulas
    that share nothing but the parameters, at 25 digits on 0..2500 (k = 0 is where the poles cancel most)."""
    from arete_proofs.distributions import comb_table as ct

    w, r = comb._check(w, r)
    K, d = 2500, 25
    bits = ct._pole_bits(K, w, [float(x) for x in r], d)
    with mp.workdps(d + 10):
        poles = ct._pole_table(K, w, r, d, bits)
        series = ct._series_table(K, w, r, d)
        assert poles is not None
        assert max(abs(x / y - 1) for x, y in zip(poles, series) if y) < mp.mpf(10) ** -24
        assert all(x == 0 for x, y in zip(poles, series) if not y)


def test_a_broken_pole_constant_is_caught_by_the_series():
    """The comparison above can fail: one residue constant of one component negated (built here, not in the
    module) moves the table by more than its radius, which the power series shows."""
    from fractions import Fraction

    from arete_proofs.distributions import comb_table as ct
    from arete_proofs.distributions.comb_poles import CombPoles, _precision

    w, r = comb._check(*comb.msdlap_components("6", 40))
    with mp.workdps(35), _precision(200):
        c = CombPoles(w, tuple(Fraction(x) for x in r))
        c.B[30][7] = -c.B[30][7]
        bad = [mp.mpf(v.mid().str(40, radius=False)) for v in c.q_table(600)]
        good = ct._series_table(600, w, r, 25)
        assert max(abs(x / y - 1) for x, y in zip(bad, good)) > mp.mpf(10) ** -10


def test_the_method_choice():
    """The poles where they pay (Theorem 21 at m = 245 on its window), the series for MSDLap(2, 1000) (the
    constants are m^3/4 products), for short tables and for double poles (no partial fractions)."""
    from arete_proofs.distributions import comb_table as ct

    w, r = comb._check(*comb.msdlap_components("15.5", 245))
    assert ct._poles_cheaper(286000, w, r, 17) > 0
    w, r = comb._check(*comb.msdlap_components("2", 1000))
    assert ct._poles_cheaper(30000, w, r, 15) == 0
    assert ct._poles_cheaper(100, *comb._check((1, 2), ("2", "3")), 15) == 0
    w, r = comb._check((1, 2, 3), ("2", "4", "5"))                  # 2/1 = 4/2: a double pole
    assert ct._poles_cheaper(5000, w, r, 15) == 0
    with mp.workdps(30):
        assert ct._pole_table(5000, w, r, 15, 200) is None             # and the poles refuse it
