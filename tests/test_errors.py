"""Errors of the Laplace, Staircase and Arete mechanisms (arete_proofs.privacy.errors).

The closed forms are checked against numerical quadrature of |t| f and t^2 f of
the densities at 30 digits (Laplace: Definition 23 / Lemma 26; Staircase: Lemma 27).
Arete's exact E|Z| is tested in tests/test_arete_accuracy.py; here only its
wiring (and agreement with the independent float64 implementation).
"""

import json
import math

import pytest
from mpmath import mp

from arete_proofs.distributions import arete, fast, laplace, params, staircase

from arete_proofs.privacy import errors

D30 = 30


def _moments_quad(pdf, breaks, dps=40):
    """2 int_0^inf t f and 2 int_0^inf t^2 f by mp.quad over the given break points."""
    with mp.workdps(dps):
        m1 = 2 * mp.quad(lambda t: t * pdf(t), breaks)
        m2 = 2 * mp.quad(lambda t: t * t * pdf(t), breaks)
    return m1, m2


@pytest.mark.parametrize("eps, Delta", [("0.5", 1), (3, "2.5"), (12, "0.1")])
def test_laplace_against_quadrature(eps, Delta):
    e = errors.laplace_errors(eps, Delta, digits=D30)
    with mp.workdps(50):
        lam = mp.mpf(Delta) / mp.mpf(eps)
        breaks = [0] + [lam * k for k in (1, 4, 16, 64)] + [mp.inf]
    m1, m2 = _moments_quad(lambda t: laplace.pdf(t, lam, digits=35), breaks)
    assert mp.almosteq(e.mean_abs, m1, mp.mpf(10) ** -29)
    assert mp.almosteq(e.variance, m2, mp.mpf(10) ** -29)
    assert mp.almosteq(e.parameters["lam"], lam, mp.mpf(10) ** -29)


def _staircase_moments_quad(gamma, Delta, eps, dps=40):
    """Piecewise quadrature: the density is constant on [k D, (k+g) D) and [(k+g) D, (k+1) D)."""
    with mp.workdps(dps):
        g, D, e = mp.mpf(gamma), mp.mpf(Delta), mp.mpf(eps)
        K = int(mp.ceil(90 / e)) + 2  # e^{-K eps} K^2 < 1e-36
        m1 = m2 = mp.zero
        for k in range(K):
            for lo, hi in ((k * D, (k + g) * D), ((k + g) * D, (k + 1) * D)):
                mid = (lo + hi) / 2
                f = staircase.pdf(mid, g, D, e, digits=35)
                m1 += 2 * mp.quad(lambda t: t * f, [lo, hi])
                m2 += 2 * mp.quad(lambda t: t * t * f, [lo, hi])
    return m1, m2


@pytest.mark.parametrize("eps, Delta", [(2, 1), (6, "2.5"), (12, 1)])
def test_staircase_against_quadrature(eps, Delta):
    e = errors.staircase_errors(eps, Delta, digits=D30)
    g1, g2 = e.parameters["gamma_mean_abs"], e.parameters["gamma_var"]
    m1, _ = _staircase_moments_quad(g1, Delta, eps)
    _, m2 = _staircase_moments_quad(g2, Delta, eps)
    assert mp.almosteq(e.mean_abs, m1, mp.mpf(10) ** -28)
    assert mp.almosteq(e.variance, m2, mp.mpf(10) ** -28)


def test_staircase_quadrature_checks_normalisation():
    """The quadrature helper is sound: the same pieces integrate f to 1."""
    g, D, e = "0.3", 1, 2
    with mp.workdps(40):
        K = int(mp.ceil(90 / mp.mpf(e))) + 2
        tot = mp.zero
        for k in range(K):
            for lo, hi in ((k, k + mp.mpf(g)), (k + mp.mpf(g), k + 1)):
                tot += 2 * (hi - lo) * staircase.pdf((lo + hi) / 2, g, D, e, digits=35)
    assert mp.almosteq(tot, 1, mp.mpf(10) ** -30)


@pytest.mark.parametrize("eps", [1, 6, 15])
def test_staircase_gammas_are_the_optimal_ones(eps):
    e = errors.staircase_errors(eps, 1, digits=20)
    g1, g2 = e.parameters["gamma_mean_abs"], e.parameters["gamma_var"]
    with mp.workdps(30):
        for g in (g1 * (1 - mp.mpf("1e-3")), g1 * (1 + mp.mpf("1e-3")), g2, mp.mpf(1) / 2):
            assert e.mean_abs <= staircase.mean_abs(g, 1, eps, digits=20)
        for g in (g2 * (1 - mp.mpf("1e-3")), g2 * (1 + mp.mpf("1e-3")), g1, mp.mpf(1) / 2):
            assert e.variance <= staircase.var(g, 1, eps, digits=20)
        assert mp.almosteq(g1, 1 / (1 + mp.exp(mp.mpf(eps) / 2)), mp.mpf(10) ** -18)


def test_staircase_beats_laplace_and_scales_with_delta():
    for eps in (1, 4, 10):
        lap, sc = errors.laplace_errors(eps, 1), errors.staircase_errors(eps, 1)
        assert sc.mean_abs < lap.mean_abs and sc.variance < lap.variance
        for c in ("0.25", 3):
            lc, sc_c = errors.laplace_errors(eps, c), errors.staircase_errors(eps, c)
            assert mp.almosteq(lc.mean_abs, mp.mpf(c) * lap.mean_abs, 1e-14)
            assert mp.almosteq(lc.variance, mp.mpf(c) ** 2 * lap.variance, 1e-14)
            assert mp.almosteq(sc_c.mean_abs, mp.mpf(c) * sc.mean_abs, 1e-14)
            assert mp.almosteq(sc_c.variance, mp.mpf(c) ** 2 * sc.variance, 1e-14)


@pytest.mark.parametrize("a, th, lam", [("0.0756", "0.63", "0.0545"), ("0.3", 1, 2), ("1.5", "0.4", "0.1")])
def test_arete_errors_wiring(a, th, lam):
    e = errors.arete_errors(a, th, lam, digits=20)
    assert mp.almosteq(e.mean_abs, arete.mean_abs(a, th, lam, digits=20), mp.mpf(10) ** -19)
    with mp.workdps(30):
        A, T, L = mp.mpf(a), mp.mpf(th), mp.mpf(lam)
        assert mp.almosteq(e.variance, 2 * A * T**2 + 2 * L**2, mp.mpf(10) ** -19)
    assert abs(float(e.mean_abs) / fast.mean_abs(float(a), float(th), float(lam)) - 1) < 1e-12
    assert e.mean_abs**2 <= e.variance  # Jensen


def test_paper_errors_and_lemma3_flag():
    e = errors.paper_errors(20, 1, digits=20)
    assert e.lemma3_applies is True
    a, th, lam = params.paper_parameters(20, 1, digits=20)
    assert mp.almosteq(e.parameters["alpha"], a) and mp.almosteq(e.parameters["theta"], th)
    assert e.mean_abs <= 2 * a * th + lam  # Lemma 3's bound
    assert mp.almosteq(e.variance, 2 * a * th**2 + 2 * lam**2, mp.mpf(10) ** -19)
    assert errors.paper_errors("19.99", 1).lemma3_applies is False
    assert errors.paper_errors(30, "0.5").lemma3_applies is False  # Delta < 2/e
    with mp.workdps(40):
        D = mp.e**2
    assert errors.paper_errors(28 + mp.mpf("1e-20"), D).lemma3_applies is True  # eps >= 20 + 4 ln Delta
    assert errors.paper_errors(27.99, D).lemma3_applies is False


def test_comparison_table_without_optimizer():
    rows = errors.comparison_table(range(2, 21), objective="mean_abs", optimized=False)
    assert [int(r.eps) for r in rows] == list(range(2, 21))
    assert [r.paper is not None for r in rows] == [e >= 20 for e in range(2, 21)]
    for r in rows:
        v = r.values()
        assert r.arete is None and "arete_opt" not in v
        assert v["staircase"] < v["laplace"]
        json.dumps(r.as_dict())
    last = rows[-1].values()
    # Lemma 3's E|Z| = O(e^{-eps/4}) against the Staircase's Theta(e^{-eps/2}) at eps = 20
    assert last["paper"] > last["staircase"]
    rv = errors.comparison_table([5], Delta=2, objective="variance", optimized=False)[0]
    assert rv.values()["laplace"] == rv.laplace.variance


def test_noise_errors_value():
    e = errors.laplace_errors(2, 1)
    assert e.value("mean_abs") == e.mean_abs and e.value("variance") == e.variance
    with pytest.raises(ValueError, match="objective"):
        e.value("median")


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: errors.laplace_errors(0, 1), "eps"),
        (lambda: errors.laplace_errors(-1, 1), "eps"),
        (lambda: errors.laplace_errors("nan", 1), "eps"),
        (lambda: errors.laplace_errors(1, 0), "Delta"),
        (lambda: errors.staircase_errors(math.inf, 1), "eps"),
        (lambda: errors.staircase_errors(1, -2), "Delta"),
        (lambda: errors.arete_errors(0, 1, 1), "alpha"),
        (lambda: errors.arete_errors(1, "x", 1), "theta"),
        (lambda: errors.arete_errors(1, 1, -1), "lam"),
        (lambda: errors.paper_errors(0, 1), "eps"),
        (lambda: errors.paper_errors(20, 0), "Delta"),
        (lambda: errors.laplace_errors(1, 1, digits=0), "digits"),
        (lambda: errors.comparison_table([], optimized=False), "eps_values"),
        (lambda: errors.comparison_table(5, optimized=False), "eps_values"),
        (lambda: errors.comparison_table([2, -1], optimized=False), "eps"),
        (lambda: errors.comparison_table([2], Delta=0, optimized=False), "Delta"),
        (lambda: errors.comparison_table([2], objective="median", optimized=False), "objective"),
    ],
)
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.slow
def test_comparison_table_with_optimizer():
    pytest.importorskip("arete_proofs.privacy.tight", reason="arete_proofs.privacy.tight (tight_epsilon) is not available")
    row = errors.comparison_table([12], objective="mean_abs")[0]
    v = row.values()
    assert row.arete.epsilon <= 12
    assert v["arete_opt"] < v["laplace"]
    assert v["staircase"] < v["arete_opt"]  # Lemma 27's e^{-eps/2} with a smaller constant
    d = row.as_dict()
    assert d["arete_opt_params"]["epsilon_exact"] and json.dumps(d)


# ---------------------------------------------------------------- Figure 4's sets (arete compare --figure-4)


def _grid_max_log_ratio(a, th, lam):
    """max_t ln f_A(t) - ln f_A(t + 1) over a dense grid, with the float64 implementation (fast.logpdf),
    independent of the mpmath engine and the certified search behind tight_epsilon."""
    import numpy as np

    t = np.unique(np.concatenate([np.geomspace(1e-13, 10, 6000), np.linspace(-0.5, 10, 4000), [0.0]]))
    v = fast.logpdf(np.concatenate([t, t + 1.0]), float(a), float(th), float(lam))
    return float(np.max(v[: t.size] - v[t.size:]))


@pytest.mark.parametrize("nominal", sorted(params.FIGURE_4))
def test_figure_4_errors_against_independent_methods(nominal):
    e = errors.figure_4_errors(nominal, digits=20, epsilon_digits=10)
    a, th, lam = params.FIGURE_4[nominal]
    # the tight epsilon is a supremum: the maximum over a dense grid reaching down to t = 1e-13
    # (the maximiser of these sets is near t = 1e-7) agrees with it to the 10 digits computed
    grid = _grid_max_log_ratio(a, th, lam)
    assert abs(float(e.eps) - grid) < 1e-9 * grid
    assert e.eps < nominal  # the sets are nominal-eps-DP (Figure 4)
    # E|Z| against the float64 implementation, Var Z against Lemma 3's closed form
    assert abs(float(e.mean_abs) / fast.mean_abs(float(a), float(th), float(lam)) - 1) < 1e-12
    with mp.workdps(40):
        A, T, L = mp.mpf(a), mp.mpf(th), mp.mpf(lam)
        assert mp.almosteq(e.variance, 2 * A * T**2 + 2 * L**2, mp.mpf(10) ** -19)
    assert e.mechanism == "figure-4" and e.Delta == 1


def test_comparison_table_figure_4_rows():
    rows = errors.comparison_table([20], optimized=False, figure_4=True, optimize_digits=8)
    assert len(rows) == 4 and rows[0].figure_4 is None
    for row, nominal in zip(rows[1:], sorted(params.FIGURE_4)):
        f = row.figure_4
        assert row.eps == f.eps and mp.almosteq(f.eps, nominal, 1e-3)   # the set's exact eps*, near nominal
        # the other mechanisms are at that exact eps (Lemma 26: Laplace lam = 1/eps*)
        assert mp.almosteq(row.laplace.mean_abs, 1 / f.eps, mp.mpf(10) ** -14)
        entries = row.entries()
        assert [x.noise for x in entries] == ["laplace", "staircase", "arete-figure-4"]
        assert entries[-1].epsilon == f.eps and row.values()["figure_4"] == f.mean_abs
        d = json.loads(json.dumps(row.as_dict(12)))
        assert d["entries"][-1]["epsilon_exact"] == mp.nstr(f.eps, 12)
        assert set(d["entries"][1]["parameters"]) == {"gamma_mean_abs", "gamma_var"}
    # with no eps values, only the Figure-4 rows
    assert len(errors.comparison_table([], optimized=False, figure_4=True, optimize_digits=6)) == 3


@pytest.mark.parametrize("call, name", [
    (lambda: errors.figure_4_errors(5), "eps"),
    (lambda: errors.figure_4_errors(True), "eps"),
    (lambda: errors.comparison_table([], Delta=2, optimized=False, figure_4=True), "Delta"),
    (lambda: errors.comparison_table([], optimized=False), "eps_values"),
])
def test_figure_4_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()
