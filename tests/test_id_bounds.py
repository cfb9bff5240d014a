"""Tests of arete_proofs.privacy.id_bounds: the Staircase is not ID, and the ID lower bound.

Independent methods: the characteristic function is checked against ``mpmath.quad`` of the
library's Staircase density times cos(w t); the algebra at odd multiples with sympy; the
odd-multiple lemma with exact rationals against mpmath's sine; the root of Corollary D with
a log-form bisection; the perturbation step of Theorem C on explicit piecewise-constant
densities.  Each check has a broken variant that the same test rejects.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from mpmath import mp, mpf

from arete_proofs._validation import PrecisionError
from arete_proofs.distributions import staircase
from arete_proofs.privacy import id_bounds as ib

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------
# Theorem A: the characteristic function and its sign
# ---------------------------------------------------------------------------

def _cf_quad(w, g, eps, digits=20):
    """2 * int_0^inf f_SC(t) cos(w t) dt by mpmath.quad over the steps (Delta = 1), tail bounded."""
    with mp.workdps(digits + 5):
        w, g, eps = mpf(w), mpf(g), mpf(eps)
        q = mp.exp(-eps)
        K = int(mp.ceil((digits + 3) * mp.log(10) / eps)) + 2
        pieces = [0, g] + [g + k for k in range(1, K + 1)]
        total = 0
        for a, b in zip(pieces, pieces[1:]):
            total += mp.quad(lambda t: staircase.pdf(t, g, 1, eps, digits=digits) * mp.cos(w * t), [a, b])
        # tail beyond g + K: |2 int f cos| <= 2 * P(Z > g + K) / 2 = sum_{k > K} a q^k
        tail = (1 - q) * q ** (K + 1) / (1 - q) / (2 * (g + q * (1 - g)))
        return 2 * total, 2 * tail


def _cf_broken(w, g, eps):
    """The closed form with the sign of the Im term flipped (a deliberately wrong variant)."""
    w, g, q = mpf(w), mpf(g), mp.exp(-mpf(eps))
    a = (1 - q) / (2 * (g + q * (1 - g)))
    z = mp.expj(w * g) * q * (mp.expj(w) - 1) / (1 - q * mp.expj(w))
    return 2 * a / w * (mp.sin(w * g) - mp.im(z))


CF_CASES = [
    # the lead's points: E|Z|-optimal gamma at eps = 1, 2, 4 (phi < 0 at 7.5, 12.5, 27)
    ("7.5", None, 1), ("12.5", None, 2), ("27", None, 4),
    ("3", "0.3", "0.5"), ("10", "0.7", 3), ("0.5", "0.05", 6), ("40", "0.9", "1.5"),
]


@pytest.mark.parametrize("w, g, eps", CF_CASES)
def test_cf_closed_form_against_quadrature(w, g, eps):
    with mp.workdps(25):
        gg = ib._gamma_opt(mpf(eps)) if g is None else mpf(g)
        ref, tail = _cf_quad(w, gg, eps)
        got = ib.staircase_cf(w, gg, eps, digits=20)
        assert abs(got - ref) <= tail + mpf(10) ** -15
        # the broken sign is caught by the same comparison
        assert abs(_cf_broken(w, gg, eps) - ref) > 1e-6


def test_lead_points_negative():
    with mp.workdps(25):
        for w, eps in (("7.5", 1), ("12.5", 2), ("27", 4)):
            ref, tail = _cf_quad(w, ib._gamma_opt(mpf(eps)), eps)
            assert ref + tail < 0


def test_cf_scaling_and_small_w():
    # phi for Delta = 2 at w equals phi for Delta = 1 at 2 w; phi(0) = 1
    a = ib.staircase_cf("1.3", "0.4", 2, Delta=2, digits=20)
    b = ib.staircase_cf("2.6", "0.4", 2, digits=20)
    assert mp.almosteq(a, b, 1e-18)
    assert ib.staircase_cf(0, "0.4", 2, digits=20) == 1


def test_odd_multiple_algebra_sympy():
    """Im[e^{iwg} q (e^{iw} - 1)/(1 - q e^{iw})] at e^{iwg} = -1 is -q(1-q) sin w / (1 - 2q cos w + q^2)."""
    sp = pytest.importorskip("sympy")
    c, s, q = sp.symbols("c s q", real=True)
    E = c + sp.I * s                       # e^{iw}
    expr = -q * (E - 1) / (1 - q * E)      # e^{iwg} = -1
    num = sp.expand(-q * (E - 1) * sp.conjugate(1 - q * E))
    den = sp.expand((1 - q * E) * sp.conjugate(1 - q * E))
    claimed = -q * (1 - q) * s / (1 - 2 * q * c + q**2)
    on_circle = {s**2: 1 - c**2}
    assert sp.simplify(sp.im(num).subs(on_circle) - (-q * (1 - q) * s)) == 0
    assert sp.simplify(sp.expand(den).subs(on_circle) - (1 - 2 * q * c + q**2)) == 0
    # and numerically at a point (guards against a wrong manipulation above)
    w0, q0 = 1.234, 0.3
    val = complex(expr.subs({c: math.cos(w0), s: math.sin(w0), q: q0}).evalf()).imag
    assert abs(val - float(claimed.subs({c: math.cos(w0), s: math.sin(w0), q: q0}))) < 1e-12
    # the wrong sign of the claim is rejected by the same numeric check
    assert abs(val + float(claimed.subs({c: math.cos(w0), s: math.sin(w0), q: q0}))) > 1e-3


@pytest.mark.parametrize("g, eps, m", [("0.3", 2, 1), ("0.7", 1, 3), ("0.45", 5, None)])
def test_simplified_value_equals_closed_form(g, eps, m):
    m = ib.odd_multiple(g) if m is None else m
    with mp.workdps(40):
        w = m * mp.pi / mpf(g)
        assert mp.almosteq(ib.staircase_cf(w, g, eps, digits=25), ib.staircase_cf_odd(m, g, eps, digits=25), 1e-20)


def test_odd_multiple_lemma_on_rationals():
    seen_large = 0
    for r in range(1, 41):
        for p in range(1, r + 1):
            g = Fraction(p, r)
            if g.denominator != r:
                continue
            m = ib.odd_multiple(g)
            x = 1 / g
            if x.denominator == 1:
                assert m is None
                # phi vanishes there: sin(pi x) = 0 exactly, so the simplified value is 0
                continue
            assert m % 2 == 1
            with mp.workdps(30):
                assert mp.sin(m * mp.pi * x.numerator / x.denominator) > 0
                for m2 in range(1, m, 2):      # minimal
                    assert mp.sin(m2 * mp.pi * x.numerator / x.denominator) <= 1e-25
            seen_large += m > 1
    assert seen_large > 50      # the lemma's rotation argument is exercised, not just m = 1


def test_only_m_equal_one_would_be_wrong():
    # a variant that tries m = 1 only fails: at gamma = 0.7, sin(pi/0.7) < 0 and phi(pi/0.7) > 0
    with mp.workdps(25):
        assert mp.sin(mp.pi / mpf("0.7")) < 0
        assert ib.staircase_cf(mp.pi / mpf("0.7"), "0.7", 1, digits=20) > 0
    assert ib.odd_multiple("0.7") == 3


EPS_GRID = [0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40]


@pytest.mark.parametrize("eps", EPS_GRID)
def test_certified_sign_optimal_gamma(eps):
    c = ib.certify_staircase_not_id(eps, digits=20)
    assert not c["zero"] and c["phi_upper"] < 0
    # the ball agrees with the mpmath closed form at the same point
    with mp.workdps(30):
        g = mpf(c["gamma"].numerator) / c["gamma"].denominator
        w = c["m"] * mp.pi / g
        assert ib.staircase_cf(w, g, eps, digits=25) < 0


def test_certified_sign_gamma_grid():
    for eps in ("0.3", 1, 5):
        for j in range(1, 40):
            g = Fraction(j, 40)
            c = ib.certify_staircase_not_id(eps, g, digits=20)
            if (1 / g).denominator == 1:
                assert c["zero"] and abs(ib.staircase_cf_odd(1, f"{j * 25 / 1000}", eps, digits=20)) < 1e-20
            else:
                assert c["phi_upper"] < 0


def test_certificate_can_fail(monkeypatch):
    # a wrong odd multiple (where sin(w) < 0, so phi > 0) must not be certified
    monkeypatch.setattr(ib, "odd_multiple", lambda g: 1)
    with pytest.raises(PrecisionError):
        ib.certify_staircase_not_id(1, "0.7", digits=20)


# ---------------------------------------------------------------------------
# the ID inequality |phi(k w)| >= |phi(w)|^(k^2) and the perturbation step
# ---------------------------------------------------------------------------

def _laplace(w):
    return 1 / (1 + w * w)


def _gauss(w):
    return math.exp(-w * w / 2)


def _gamma_diff(w, alpha=0.3):
    return (1 + w * w) ** (-alpha)


def _sinc(w):
    return math.sin(w) / w if w else 1.0


def test_id_inequality_holds_for_id_laws_and_is_sharp():
    ws = [0.05 * i for i in range(1, 120)]
    for phi in (_laplace, _gauss, _gamma_diff, lambda w: _gauss(w) * _gamma_diff(w, 0.01)):
        for k in (2, 3, 4):
            for w in ws:
                assert abs(phi(k * w)) >= abs(phi(w)) ** (k * k) * (1 - 1e-12)
    # sharp for the Gaussian: equality, so a smaller exponent (k instead of k^2) is false
    assert all(abs(_gauss(3 * w) - _gauss(w) ** 9) < 1e-12 for w in ws)
    assert any(_gauss(3 * w) < _gauss(w) ** 3 - 1e-6 for w in ws)
    # the uniform law (not ID) violates it at w = pi/2: sinc(pi) = 0 < sinc(pi/2)^4
    assert abs(_sinc(math.pi)) < (_sinc(math.pi / 2)) ** 4


def _piecewise_laws():
    """Densities <= 1/2 (X-units of Theorem C): the uniform on [-1,1] with mass moved."""
    laws = []
    for cut in (0.05, 0.1, 0.2, 0.4):
        for shift in (0.05, 0.3, 1.0, 3.0):
            # remove height 1/2 on [1-cut, 1], put it on [1 + shift, 1 + shift + cut] (right side only)
            laws.append([(-1, 1 - cut, 0.5), (1 + shift, 1 + shift + cut, 0.5)])
            # symmetric version, half height removed
            laws.append([(-1 + cut, 1 - cut, 0.5), (-1, -1 + cut, 0.25), (1 - cut, 1, 0.25),
                         (-1 - shift - cut, -1 - shift, 0.25), (1 + shift, 1 + shift + cut, 0.25)])
    return laws


def _cf_pw(law, w):
    re_ = sum(h * (math.sin(w * b) - math.sin(w * a)) / w for a, b, h in law)
    im_ = sum(-h * (math.cos(w * b) - math.cos(w * a)) / w for a, b, h in law)
    return complex(re_, im_)


def _mean_abs_pw(law):
    def F(x):
        return x * abs(x) / 2
    return sum(h * (F(b) - F(a)) for a, b, h in law)


def test_perturbation_step_on_explicit_laws():
    """Theorem C (3) with q = 0: |phi_X(pi)| <= pi D and Re phi_X(w) >= sinc(w) - w D, D = E|X| - 1/2."""
    for law in _piecewise_laws():
        assert abs(sum(h * (b - a) for a, b, h in law) - 1) < 1e-12
        D = _mean_abs_pw(law) - 0.5
        assert D >= -1e-12
        assert abs(_cf_pw(law, math.pi)) <= math.pi * D + 1e-12
        for k in (2, 3, 4):
            w = math.pi / k
            assert _cf_pw(law, w).real >= _sinc(w) - w * D - 1e-12
    # a broken constant (pi/2 instead of pi) is violated by one of these laws
    assert any(abs(_cf_pw(law, math.pi)) > math.pi / 2 * (_mean_abs_pw(law) - 0.5) + 1e-9
               for law in _piecewise_laws())


def _floor_laws():
    """Densities <= 1/2 of Theorem C's form: a uniform core on [-c, c] with mass moved out,
    plus the DP floor q/2 on [x0 - y, x0 + y] minus [-1, 1] (c = 1 - floor mass)."""
    laws = []
    for q in (0.0, 0.01, 0.05):
        for y in (3.0, 8.0):
            for x0 in (0.0, 0.7):
                lo, hi = x0 - y, x0 + y
                floor = [(lo, -1.0, q / 2), (1.0, hi, q / 2)]
                pb = q / 2 * ((-1.0 - lo) + (hi - 1.0))
                c = 1 - pb
                for cut in (0.0, 0.05, 0.3):
                    for shift in (0.02, 0.5, 2.0):
                        hh = 0.5 - q / 2
                        L = cut * 0.5 / hh
                        core = [(-c, c - cut, 0.5), (c + shift, c + shift + L, hh)]
                        laws.append((core + floor, q, pb, c, floor))
    return laws


def _floor_margins(at_pi=False, plain_sinc=False):
    worst = 10.0
    for law, q, pb, c, floor in _floor_laws():
        assert abs(sum(h * (b - a) for a, b, h in law) - 1) < 1e-12
        Db = sum(h * ((b * abs(b) - a * abs(a)) / 2 - (b - a)) for a, b, h in floor)   # int h (|x| - 1)
        D = _mean_abs_pw(law) - 0.5 - pb**2 / 2 - Db
        assert D >= -1e-12
        w0 = math.pi if at_pi else math.pi / c
        worst = min(worst, math.pi / c * D + min(pb, 2 * q * c / math.pi) - abs(_cf_pw(law, w0)))
        for k in (2, 3, 4):
            w = math.pi / k
            s_k = math.sin(w) / w
            base = (s_k if plain_sinc else c * s_k) - w / c * D - min(pb, 2 * q * k * c / math.pi)
            worst = min(worst, _cf_pw(law, w / c).real - base)
    return worst


def test_step3_with_the_dp_floor():
    """Theorem C (2)-(3) on explicit laws with a floor (step (3) does not use ID)."""
    assert _floor_margins() > -1e-12
    # broken variants: the frequency pi instead of pi/c, or the core's mass c left out
    assert _floor_margins(at_pi=True) < -1e-6
    assert _floor_margins(plain_sinc=True) < -1e-6


def _log_root(k):
    """Least root of pi D = (s - w D)^(k^2) by bisection on the log form (independent of findroot)."""
    w = math.pi / k
    s = math.sin(w) / w
    lo, hi = 1e-12, s / w * 0.999
    f = lambda D: math.log(math.pi * D) - k * k * math.log(s - w * D)  # noqa: E731
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
    return lo


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_uniform_defect_root(k):
    d = ib.uniform_defect(k, digits=20)
    r = _log_root(k)
    assert d <= r * (1 + 1e-13) and abs(d - r) < 1e-12 * r
    # the bound is tight: just above the root the condition holds (floats)
    assert ib._cond_float(r * (1 + 1e-9), 0.0, 0.0, k) > 0 > ib._cond_float(r * (1 - 1e-9), 0.0, 0.0, k)


def test_c_id_against_id_examples():
    c = ib.c_id_lower(digits=20)
    assert 0.2686 < c < 0.2687
    # every ID law has E|X| * sup f >= c: Gaussian 1/pi, Laplace 1/2, Gamma(2)-difference 3/4 * 1/2 ...
    assert 1 / math.pi > c and 0.5 > c
    # the uniform law (not ID) has 1/4 < c, and a triangle (not ID) 1/3: the bound does not claim
    # anything for them, but the uniform shows that the bound is not the trivial 1/4
    assert 0.25 < c
    r = ib.asymptotic_ratio_lower(digits=20)
    assert mp.almosteq(r, mp.sqrt(1 + 2 * ib.uniform_defect(3, digits=20)), 1e-15)


# ---------------------------------------------------------------------------
# Theorem C: the certified bound at finite eps
# ---------------------------------------------------------------------------

def test_general_bound_below_staircase():
    """With D = 0 the bound holds for every DP noise, so it must stay below the Staircase."""
    for eps in (1, 3, 5, 8, 12, 20, 30):
        g = ib.id_lower_bound(eps, digits=10, ks=())
        assert g["bound"] <= g["staircase"]


def test_broken_tail_coefficient_is_caught(monkeypatch):
    # a wrong tail term q (y-1)^2 instead of q/2 (y-1)^2 would put the "every DP noise" bound
    # above the Staircase, which is DP: the test above would fail
    orig = ib._cell_value

    def broken(y1, y2, d, q, flint):
        return orig(y1, y2, d, 2 * q, flint)

    monkeypatch.setattr(ib, "_cell_value", broken)
    g = ib.id_lower_bound(8, digits=10, ks=())
    assert g["bound"] > g["staircase"]


def test_id_bound_values_and_monotone():
    rows = {str(e): ib.id_lower_bound(e, digits=12) for e in ("7", "7.1", 8, 10, 16, 30)}
    assert rows["7"]["ratio"] < 1 < rows["7.1"]["ratio"]
    ratios = [rows[k]["ratio"] for k in ("7", "7.1", "8", "10", "16", "30")]
    assert ratios == sorted(ratios)          # Corollary C': nondecreasing in eps
    assert ratios[-1] <= ib.asymptotic_ratio_lower(digits=12) * (1 + 1e-4)
    # staircase floor: sqrt(q)/(1-q), and the library's E|X| at its optimal gamma (Lemma 27)
    q = mp.exp(-8)
    assert mp.almosteq(rows["8"]["staircase"], mp.sqrt(q) / (1 - q), 1e-12)
    g8 = staircase.gamma_mean_abs(8, digits=20)
    assert mp.almosteq(rows["8"]["staircase"], staircase.mean_abs(g8, 1, 8, digits=20), 1e-12)


def test_id_bound_below_known_id_noise():
    # certified ID noises are above the bound: Laplace (Delta/eps) and the Gamma + Gaussian rows
    # of docs/data/beyond.json (E|Z| = 0.043955 at eps = 8, 0.0023802 at eps = 14, 0.00011938 at eps = 20)
    for eps, ez in ((8, 0.043955), (14, 0.0023802), (20, 0.00011938)):
        r = ib.id_lower_bound(eps, digits=10)
        assert r["bound"] < ez < 1 / eps


def test_id_bound_inf_matches_dense_grid():
    q = math.exp(-10)
    ys = [0.5 / math.sqrt(q) * (4 ** (i / 4000)) for i in range(4001)]
    dense = min((0.5 + max(ib._root_float(q * y, q, k) for k in ib._KS) + 0.5 * q * max(y - 1, 0) ** 2) / y
                for y in ys)
    r = ib.id_lower_bound(10, digits=12)
    assert r["bound"] <= dense <= r["bound"] * (1 + 2e-4)


def test_delta_scaling():
    a = ib.id_lower_bound(9, digits=10)
    b = ib.id_lower_bound(9, Delta=3, digits=10)
    assert mp.almosteq(b["bound"], 3 * a["bound"], 1e-9) and mp.almosteq(a["ratio"], b["ratio"], 1e-9)


# ---------------------------------------------------------------------------
# moments and kurtosis
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n, g, eps", [(1, "0.3", 2), (2, "0.2", 1), (4, "0.5", 3)])
def test_moment_against_quadrature(n, g, eps):
    with mp.workdps(25):
        K = 60
        pieces = [0, mpf(g)] + [mpf(g) + k for k in range(1, K)]
        ref = 2 * sum(mp.quad(lambda t: staircase.pdf(t, g, 1, eps, digits=20) * t**n, [a, b])
                      for a, b in zip(pieces, pieces[1:]))
        assert mp.almosteq(ib.staircase_moment(n, g, eps, digits=20), ref, 1e-15)
    if n == 1:
        assert mp.almosteq(ib.staircase_moment(1, g, eps, digits=20), staircase.mean_abs(g, 1, eps, digits=20), 1e-18)


def test_kurtosis_large():
    for eps in (0.5, 2, 8, 20):
        k = ib.staircase_kurtosis(eps, digits=15)
        assert k > 6
    # 9 / (5 sqrt q) asymptotics
    k = ib.staircase_kurtosis(30, digits=15)
    assert abs(k * mp.sqrt(mp.exp(-30)) * 5 / 9 - 1) < 1e-3


# ---------------------------------------------------------------------------
# the discrete staircase (Proposition A')
# ---------------------------------------------------------------------------

def _discrete_pmf_cf(w, D, r, eps, K=400):
    """Direct sum of p(i) cos(w i) over |i| <= K D (independent of the block closed form)."""
    q = mp.exp(-mpf(eps))

    def p(i):
        i = abs(i)
        k, j = divmod(i, D)
        return q**k * (1 if j < r else q)

    tot = sum(p(i) for i in range(-K * D, K * D + 1))
    return sum(p(i) * mp.cos(w * i) for i in range(-K * D, K * D + 1)) / tot


@pytest.mark.parametrize("D, r, eps, w", [(1, 1, 2, "0.7"), (3, 2, 1, "2.1"), (5, 1, 3, "0.4"), (4, 4, "0.5", "1.9")])
def test_discrete_cf_against_direct_sum(D, r, eps, w):
    with mp.workdps(25):
        K = int(40 / float(eps)) + 5
        ref = _discrete_pmf_cf(mpf(w), D, r, eps, K=K)
        assert mp.almosteq(ib.discrete_staircase_cf(w, D, r, eps, digits=20), ref, 1e-15)


def test_discrete_not_id_for_large_r():
    for D in range(2, 12):
        for r in range(1, D + 1):
            with mp.workdps(30):
                v = ib.discrete_staircase_cf(2 * mp.pi / D, D, r, 2, digits=25)
                q = mp.exp(-2)
                N = 2 * (r + q * (D - r)) / (1 - q) - 1
                assert mp.almosteq(v, mp.sin((2 * r - 1) * mp.pi / D) / (N * mp.sin(mp.pi / D)), 1e-20)
                if 2 * r - 1 > D:
                    assert v < 0
                elif 2 * r - 1 == D:
                    assert abs(v) < 1e-20


def test_discrete_levy_weights_evidence():
    q = math.exp(-2)
    c = ib.discrete_levy_weights(1, 1, 2)
    assert all(abs(x - q**k / k) < 1e-12 for k, x in enumerate(c, 1))   # discrete Laplace: ID
    assert min(ib.discrete_levy_weights(2, 1, 2)) > -1e-12              # looks ID
    for D in (3, 5, 10):
        c = ib.discrete_levy_weights(D, 1, 2)
        assert min(c) < -1e-4 and c.index(min(c)) + 1 == D + 1          # negative weight at D + 1
    assert ib.discrete_levy_weights(3, 2, 2) is None                    # phi <= 0 somewhere


# ---------------------------------------------------------------------------
# bad input and the docs section
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: ib.staircase_cf(1, "1.5", 2), "gamma"),
    (lambda: ib.staircase_cf(1, "0.5", -2), "eps"),
    (lambda: ib.staircase_cf_odd(2, "0.5", 2), "m"),
    (lambda: ib.odd_multiple("0"), "gamma"),
    (lambda: ib.uniform_defect(1), "k"),
    (lambda: ib.id_lower_bound(0), "eps"),
    (lambda: ib.id_lower_bound(8, rtol=2), "rtol"),
    (lambda: ib.staircase_moment(-1, "0.5", 2), "n"),
    (lambda: ib.discrete_staircase_cf(1, 3, 4, 2), "r"),
    (lambda: ib.discrete_levy_weights("2.5", 1, 2), "Delta"),
])
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


PAGE = ROOT / "docs" / "explanation" / "id-lower-bounds.md"


def test_docs_page_renders_the_code_table_and_numbers():
    # the page types none of these numbers: the table, the constants of Corollary D and the
    # kurtosis and characteristic-function examples are computed by this module at build time
    # (docs/_ext/arete_site.py: the table "id-gap", the values @id-*, and {arete-pycon} examples)
    text = PAGE.read_text(encoding="utf-8")
    assert "```{arete-table} id-gap" in text
    for name in ("@id-asymptotic-ratio", "@id-c-lower", "@id-uniform-defect"):
        assert f"{{num}}`{name}`" in text
    assert "id_bounds.staircase_kurtosis(eps" in text and "id_bounds.certify_staircase_not_id(eps" in text
    for eps in ("7.1", 8, 16):
        assert f"{{num}}`id-gap:{eps}:ID bound / Staircase`" in text
    with mp.workdps(20):
        for eps, m in ((1, 1), (2, 5), (4, 1)):
            assert ib.certify_staircase_not_id(eps, digits=15)["m"] == m
