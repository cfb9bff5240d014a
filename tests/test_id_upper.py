"""Tests of arete_proofs.privacy.id_upper and id_upper_rules: the Gaussian + staircase-jump noise (Theorems U1-U3).

Independent methods: the noise's density is obtained by inverting its characteristic function with an FFT (no use of
the proof's lower bounds), and its privacy loss over every shift |s| <= 1 and its E|Z| and Var are read from that
density; the floors of Theorems E and F (other modules, other arguments) must stay below every certified row.  Each
check has a broken variant that it rejects: a rate too small, a flat part too short, a jump moment without its steps,
a kappa replaced by Phi(B), a closed form without a term.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("flint")

from arete_proofs.privacy import id_upper as iu            # noqa: E402
from arete_proofs.privacy import id_upper_rules as ur      # noqa: E402


def _cf(t, sigma, lam, a, b):
    """The characteristic function exp(-sigma^2 t^2/2 + lam (g^(t) - 1)), g^ the staircase jump law's."""
    r, c = math.exp(-a), 1 / (2 * (b + math.exp(-a) / (1 - math.exp(-a))))
    t = np.asarray(t, dtype=float)
    tt = np.where(t == 0, 1.0, t)
    z = np.exp(1j * b * tt) * r * (np.exp(1j * tt) - 1) / (1 - r * np.exp(1j * tt))
    gh = np.where(t == 0, 1.0, 2 * c / tt * (np.sin(b * tt) + z.imag))
    return np.exp(-sigma ** 2 * t ** 2 / 2 + lam * (gh - 1))


def _density(sigma, lam, a, b, L=8.0):
    """(x, f): the density on [-L, L) by an FFT of the characteristic function (grid step <= sigma/8)."""
    n = 1 << int(math.ceil(math.log2(2 * L / (sigma / 8))))
    dx = 2 * L / n
    x = -L + dx * np.arange(n)
    t = 2 * np.pi * np.fft.fftfreq(n, d=dx)
    f = np.real(np.fft.fft(_cf(t, sigma, lam, a, b) * np.exp(-1j * t * x[0]))) * (t[1] - t[0]) / (2 * np.pi)
    return x, f


def _loss(x, f, window=1.5):
    """max over |t| <= window and |s| <= 1 of ln f(t) - ln f(t + s), from the grid (FFT noise is far below f there)."""
    from scipy.ndimage import minimum_filter1d

    dx = x[1] - x[0]
    w = int(round(1 / dx))
    lf = np.log(np.maximum(f, 1e-300))
    mn = minimum_filter1d(lf, size=2 * w + 1, mode="nearest")
    sel = np.abs(x) <= window
    return float(np.max((lf - mn)[sel]))


def _params(row):
    p = {k: Fraction(v) for k, v in row["params"].items()}
    b = 1 + p["B"] * p["sigma"]
    return float(p["sigma"]), float(p["lam"]), float(p["a"]), float(b)


@pytest.fixture(scope="module")
def rows():
    return {(8, "mean_abs"): iu.certify_row(8, "mean_abs"), (14, "mean_abs"): iu.certify_row(14, "mean_abs"),
            (10, "variance"): iu.certify_row(10, "variance")}


# ---------------------------------------------------------------------------
# Theorem U1: privacy, against the inverted characteristic function
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("key", [(8, "mean_abs"), (14, "mean_abs"), (10, "variance")])
def test_theorem_u1_rows_are_private_by_the_inverted_density(rows, key):
    row = rows[key]
    assert row["holds"]
    sigma, lam, a, b = _params(row)
    x, f = _density(sigma, lam, a, b)
    loss = _loss(x, f)
    assert loss <= key[0] + 1e-9
    assert loss > key[0] - 0.05          # the sufficient condition wastes little


@pytest.mark.parametrize("key", [(8, "mean_abs"), (14, "mean_abs")])
def test_theorem_u1_broken_variants_are_not_private(rows, key):
    sigma, lam, a, b = _params(rows[key])
    # half the rate: the floor of the jump part is too low for the Gaussian centre
    x, f = _density(sigma, lam / 2, a, b)
    assert _loss(x, f) > key[0] + 0.5
    # the flat part ending at 1 (B = 0): the shift s = 1 from t = 0 lands on the edge of the flat part
    x, f = _density(sigma, lam, a, 1.0)
    assert _loss(x, f) > key[0] + 0.3
    # and Theorem U1 refuses both
    p = rows[key]["params"]
    assert not iu.privacy_condition(key[0], p["sigma"], p["a"], p["B"], Fraction(p["lam"]) / 2)["holds"]


def test_the_jump_law_has_ratio_e_to_the_a():
    # step 1 of the proof: g(y) <= e^a g(y') for |y - y'| <= 1, on the exact grid y = i/2000 (b = 6/5) across the
    # steps; the broken variant, shifts up to 1.2, finds a ratio e^{2a}
    n, b = 2000, 2400
    i = np.arange(-6 * n, 6 * n + 1)
    k = np.maximum(-((b - np.abs(i)) // n), 0)            # ceil((|i| - b)/n), exactly
    diffs = [int(np.max(np.abs(k[:-s] - k[s:]))) for s in range(1, n + 1)]
    assert max(diffs) == 1
    assert int(np.max(np.abs(k[:-(n + n // 5)] - k[n + n // 5:]))) == 2


# ---------------------------------------------------------------------------
# Theorem U2: the errors, against the inverted density
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("eps", [4, 8])
def test_theorem_u2_against_the_density(eps):
    row = iu.certify_row(eps, "mean_abs")
    sigma, lam, a, b = _params(row)
    x, f = _density(sigma, lam, a, b, L=30.0)
    dx = x[1] - x[0]
    mean_abs, var = float(np.sum(np.abs(x) * f) * dx), float(np.sum(x * x * f) * dx)
    p = {k: Fraction(v) for k, v in row["params"].items()}
    err = iu.errors(p["sigma"], p["a"], p["B"], p["lam"])
    assert mean_abs <= float(err["mean_abs_upper"].lower())
    # the bound's slack: E|G + S_1| >= E|Y| and E|G + S_n| >= 0 leave at most lam (1 - e^-lam) E|Y| + (1 - e^-lam) c s^2
    c, _, m1 = (float(x.mid()) for x in iu.jump_moments(p["a"], 1 + p["B"] * p["sigma"]))
    slack = (1 - math.exp(-lam)) * (lam * m1 + c * sigma ** 2)
    assert float(err["mean_abs_upper"].mid()) - mean_abs <= slack + 1e-9
    assert abs(var / float(err["variance"].mid()) - 1) < 1e-6
    # broken: E|Y| without the steps beyond b (c b^2 only) is below the true E|Z| at these rates
    c = float(err["c"].mid())
    broken = math.exp(-lam) * sigma * math.sqrt(2 / math.pi) + lam * c * b * b + (1 - math.exp(-lam)) * c * sigma ** 2
    assert broken < mean_abs


def test_jump_moments_against_quadrature():
    from scipy.integrate import quad

    a, b = 1.7, 1.3
    c, m1, m2 = iu.jump_moments(a, Fraction(13, 10))

    def g(y):
        return float(c.mid()) * math.exp(-a * max(math.ceil(abs(y) - b), 0))

    pts = [b + k for k in range(40)]
    mass = 2 * (quad(g, 0, b)[0] + sum(quad(g, p, p + 1)[0] for p in pts))
    e1 = 2 * (quad(lambda y: y * g(y), 0, b)[0] + sum(quad(lambda y: y * g(y), p, p + 1)[0] for p in pts))
    e2 = 2 * (quad(lambda y: y * y * g(y), 0, b)[0] + sum(quad(lambda y: y * y * g(y), p, p + 1)[0] for p in pts))
    assert abs(mass - 1) < 1e-12 and abs(e1 - float(m1.mid())) < 1e-12 and abs(e2 - float(m2.mid())) < 1e-11


# ---------------------------------------------------------------------------
# kappa_B and the Staircase's least variance
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("B", [Fraction(5, 4), 2, 3, Fraction(9, 2)])
def test_kappa_is_below_the_dense_infimum(B):
    from scipy.special import log_ndtr, ndtr

    k = iu.kappa_lower(B)
    v = np.linspace(0, float(B) + 10, 2_000_001)
    inf = float(np.exp(np.min(v * v / 2 + log_ndtr(float(B) - v))))
    assert float(k) <= inf < float(k) * (1 + 2e-6)
    # broken: Phi(B) (the value at v = 0) is not a lower bound: the function dips below it
    assert inf < ndtr(float(B))
    if B >= Fraction(12, 5):
        assert float(iu.kappa_rule(B).upper()) <= inf


def test_staircase_variance_lower_bound():
    from arete_proofs.privacy.id_variance import staircase_variance_upper

    for e in (2, 6, 12, 20):
        lo = iu.staircase_variance_lower(e)
        up = staircase_variance_upper(e)
        assert float(lo) <= float(up.lower()) and float(lo) > float(up.mid()) * (1 - 1e-7)
        q = math.exp(-e)
        assert (q / 2) ** (2 / 3) / (1 + 2 * q ** (2 / 3)) <= float(lo)     # Theorem U3's analytic bound


# ---------------------------------------------------------------------------
# rows against the floors, and the rules (Theorem U3)
# ---------------------------------------------------------------------------

def test_rows_are_above_the_floors_of_theorems_f_and_e():
    from arete_proofs.privacy.id_mean_abs import mean_abs_bound
    from arete_proofs.privacy.id_variance import variance_bound

    for e in (14, 20):
        m = iu.certify_row(e, "mean_abs")
        assert m["holds"] and m["ratio"] > mean_abs_bound(e)["ratio"]
        v = iu.certify_row(e, "variance")
        assert v["holds"] and v["ratio"] > variance_bound(e)["ratio"]
    assert iu.certify_row(20, "mean_abs")["ratio"] < 1.004 * mean_abs_bound(20)["ratio"]


@pytest.mark.parametrize("objective", ["mean_abs", "variance"])
def test_rules_hold_and_their_bound_falls_to_the_limit(objective):
    e0 = ur.EPS_0[objective]
    assert all(ur.rule_hypotheses(objective, e0).values())
    grid = [e0, e0 + 1, e0 + 3, e0 + 8, e0 + 20, 80]
    bounds = [ur.rule_bound(objective, e) for e in grid]
    assert all(x >= y for x, y in zip(bounds, bounds[1:]))
    lim = float(ur.limit(objective).mid())
    assert lim < bounds[-1] < lim * (1 + 1e-8)
    for e in grid[:3]:
        row = ur.rule_row(objective, e)
        assert row["holds"] and row["ratio"] <= ur.rule_bound(objective, e) * (1 + 1e-7)


def test_rule_is_private_by_the_inverted_density():
    s, a, B, lam = ur.rule_parameters("mean_abs", 12)
    sigma, a_, lam_ = float(s.mid()), float(a.mid()), float(lam.mid())
    b = 1 + float(B.mid()) * sigma
    x, f = _density(sigma, lam_, a_, b)
    assert _loss(x, f) <= 12 + 1e-9
    x, f = _density(sigma, lam_ * 0.6, a_, b)      # broken: a rate 40 % too small
    assert _loss(x, f) > 12


def test_symbolic_checks_and_a_broken_closed_form():
    import sympy as sp

    checks = ur.symbolic_checks()
    assert len(checks) >= 20 and all(ok for _, ok in checks), [n for n, ok in checks if not ok]
    # broken: E|Y|/(2c) without the 2 S_1 term differs from the symbolic sum
    r, b, y = sp.symbols("r b y", positive=True)
    k = sp.symbols("k", integer=True, positive=True)
    total = sp.integrate(y, (y, 0, b)) + sp.summation(sp.expand(sp.integrate(y, (y, b + k - 1, b + k))) * r ** k,
                                                      (k, 1, sp.oo))
    total = total.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[0][0])
    assert sp.simplify(total - (b * b + (2 * b - 1) * r / (1 - r)) / 2) != 0


def test_bad_input_is_one_line():
    for call, name in ((lambda: ur.rule_bound("mean_abs", 5), "eps"), (lambda: ur.rule_bound("median", 20), "objective"),
                       (lambda: iu.kappa_rule(2), "B"), (lambda: iu.least_rate(3, Fraction(1, 10), 4, 3), "no rate"),
                       (lambda: iu.jump_constant(1, Fraction(1, 2)), "b"), (lambda: iu.certify_row(-1), "eps"),
                       (lambda: iu.privacy_condition(10, 0, 5, 3, 1), "sigma")):
        with pytest.raises(ValueError, match=name) as ei:
            call()
        assert "\n" not in str(ei.value)
