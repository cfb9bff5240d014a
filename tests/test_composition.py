"""Composition at equal error (arete_proofs.privacy.composition): the Gaussian row against the exact
Gaussian formula, the Laplace row against its closed form and dp_accounting's connect-the-dots PLD,
the Staircase row against an exact lattice convolution of its three-point privacy loss, equal errors,
monotonicity in k, and broken variants caught."""

import math

import numpy as np
import pytest
from mpmath import mp

dp_accounting = pytest.importorskip("dp_accounting")

from arete_proofs.distributions import staircase  # noqa: E402
from arete_proofs.noise import make  # noqa: E402
from arete_proofs.privacy import composition as comp, errors  # noqa: E402
from arete_proofs.walkthrough.composition import composition_table  # noqa: E402
from arete_proofs.walkthrough.figures import STORED_OPTIMA  # noqa: E402

P = dp_accounting.pld.privacy_loss_distribution
ARETE6 = STORED_OPTIMA[6.0]  # optimiser run recorded in walkthrough/figures.py (eps = 6, Delta = 1)
Z6 = make("arete", alpha=ARETE6[0], theta=ARETE6[1], lam=ARETE6[2])
KS = (1, 10, 100, 1000)


@pytest.fixture(scope="module")
def c6():
    return comp.compare(Z6, k_values=KS)


def _gauss_ok(row, h):
    sigma = dict(row.parameters)["sigma"]
    for k, e in zip(row.k, row.epsilon):
        exact = float(comp.gaussian_epsilon(sigma, 1, 1e-6, k, digits=15))
        assert exact <= e <= exact + k * h, (k, e, exact)


def test_gaussian_row_against_exact_formula(c6):
    row = c6.row("gaussian")
    _gauss_ok(row, c6.h)
    # a Gaussian scaled wrong (sigma = E|X| instead of E|X| sqrt(pi/2)) is caught
    wrong = P.from_gaussian_mechanism(c6.mean_abs, 1, value_discretization_interval=c6.h, use_connect_dots=False)
    bad = comp.MechanismRow("gaussian", (("sigma", c6.mean_abs * math.sqrt(math.pi / 2)),), c6.mean_abs, KS,
                            tuple(comp.pld_epsilon(wrong.self_compose(k) if k > 1 else wrong, 1e-6) for k in KS),
                            c6.h)
    with pytest.raises(AssertionError):
        _gauss_ok(bad, c6.h)


def test_gaussian_formula_against_quadrature():
    # delta(eps) = E_P (1 - e^{eps - L})_+ with L ~ N(mu^2/2, mu^2), mu = Delta/s: independent quadrature
    eps = 2
    with mp.workdps(30):
        s = mp.mpf("0.7")  # the same exact value for both (a float 0.7 differs from "0.7" at 1e-17)
        mu = 1 / s
        q = mp.quad(lambda x: (1 - mp.exp(eps - x)) * mp.npdf(x, mu ** 2 / 2, mu), [eps, eps + 5, mp.inf])
        assert mp.almosteq(comp.gaussian_delta("0.7", 1, eps, digits=25), q, 1e-20)


def test_laplace_row(c6):
    row, h = c6.row("laplace"), c6.h
    b = dict(row.parameters)["b"]
    # k = 1: delta(eps) = 1 - e^{(eps - Delta/b)/2}, so eps(delta) = Delta/b + 2 ln(1 - delta)
    exact1 = 1 / b + 2 * math.log1p(-1e-6)
    assert exact1 <= row.epsilon[0] <= exact1 + h
    # k > 1: dp_accounting's connect-the-dots Laplace PLD (a different discretisation) within k h
    cd = P.from_laplace_mechanism(b, 1, value_discretization_interval=h, use_connect_dots=True)
    for k, e in zip(row.k, row.epsilon):
        other = comp.pld_epsilon(cd.self_compose(k) if k > 1 else cd, 1e-6)
        assert abs(e - other) <= k * h, (k, e, other)
    # a wrong scale (b 5% too large) is caught by the closed form
    wrong = P.from_laplace_mechanism(1.05 * b, 1, value_discretization_interval=h, use_connect_dots=False)
    assert not comp.pld_epsilon(wrong, 1e-6) >= exact1


def _staircase_exact(eps0, gamma, k):
    """delta(eps) of k Staircase releases: L_k = eps0 * j, j = #plus - #minus, by exact lattice convolution."""
    p = comp.staircase_loss_pmf(eps0, gamma)
    base = np.array([p[-eps0], p[0.0], p[eps0]])
    dist = np.array([1.0])
    for _ in range(k):
        dist = np.convolve(dist, base)
    L = eps0 * np.arange(-k, k + 1)

    def d(e):
        m = L > e
        return float(np.sum(dist[m] * -np.expm1(e - L[m])))

    return d


def _invert(d, delta, hi):
    lo = 0.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if d(mid) > delta else (lo, mid)
    return hi


def _sc_ok(p, d_exact, k, h, eps_grid):
    # pessimistic and within one bin per release: d_exact(e) <= d_pld(e) <= d_exact(e - k h)
    for e in eps_grid:
        assert d_exact(e) * (1 - 1e-9) <= p.get_delta_for_epsilon(e) <= d_exact(e - k * h) * (1 + 1e-9) + 1e-15, e


def test_staircase_row_against_exact_convolution(c6):
    row, h = c6.row("staircase"), c6.h
    e0, g = dict(row.parameters)["eps0"], dict(row.parameters)["gamma"]
    for k, e in zip(row.k[:3], row.epsilon[:3]):
        exact = _invert(_staircase_exact(e0, g, k), 1e-6, k * e0)
        assert exact - 1e-9 <= e <= exact + k * h, (k, e, exact)
    p10 = comp.staircase_pld(e0, g, value_discretization_interval=h).self_compose(10)
    grid = np.linspace(0.5, 40, 25)
    _sc_ok(p10, _staircase_exact(e0, g, 10), 10, h, grid)
    # a broken loss law (the middle mass moved to +eps0) is caught
    p = comp.staircase_loss_pmf(e0, g)
    bad = P.PrivacyLossDistribution.create_from_rounded_probability(
        {math.ceil(e0 / h): p[e0] + p[0.0], math.ceil(-e0 / h): p[-e0]}, 0.0, h)
    with pytest.raises(AssertionError):
        _sc_ok(bad.self_compose(10), _staircase_exact(e0, g, 10), 10, h, grid)


def test_equal_errors(c6):
    m = float(errors.arete_errors(*ARETE6, digits=12).mean_abs)
    assert abs(c6.mean_abs - m) < 1e-12
    assert dict(c6.row("laplace").parameters)["b"] == pytest.approx(m, rel=1e-14)
    assert dict(c6.row("gaussian").parameters)["sigma"] * math.sqrt(2 / math.pi) == pytest.approx(m, rel=1e-14)
    sc = dict(c6.row("staircase").parameters)
    # the general E|X| formula of the Staircase (any gamma), not the closed form used by the solver
    assert float(staircase.mean_abs(sc["gamma"], 1, sc["eps0"], digits=20)) == pytest.approx(m, rel=1e-12)
    assert sc["gamma"] == pytest.approx(float(staircase.gamma_mean_abs(sc["eps0"], digits=20)), rel=1e-14)
    for r in c6.rows:
        assert r.mean_abs == pytest.approx(m, rel=1e-12), r.mechanism


def test_monotone_in_k_and_ordering(c6):
    for r in c6.rows:
        assert all(a < b for a, b in zip(r.epsilon, r.epsilon[1:])), r.mechanism
        assert r.epsilon[-1] <= KS[-1] * r.epsilon[0] + KS[-1] * c6.h, r.mechanism  # at most k times one release
    # at the error of Arete optimised at eps = 6: Staircase < Arete < Laplace < Gaussian for every k
    for i in range(len(KS)):
        e = [c6.row(n).epsilon[i] for n in ("staircase", "arete", "laplace", "gaussian")]
        assert e == sorted(e), KS[i]


def test_arete_row_single_release(c6):
    # k = 1: the PLD's epsilon is at least the tight pure epsilon minus nothing it can know of: it must not
    # exceed the pure epsilon (+ one bin), and the stored optimum is eps-DP at 6 (optimiser run, figures.py)
    from arete_proofs.privacy.tight import tight_epsilon

    tight = float(tight_epsilon(*ARETE6, digits=8).epsilon)
    assert 6 - 1e-3 < tight <= 6
    e1 = c6.row("arete").epsilon[0]
    assert e1 <= tight + c6.h + 1e-9
    assert e1 >= tight - 0.05  # delta = 1e-6 buys little at one release (exact: epsilon_for_delta)


def test_pld_epsilon_beats_underflow():
    # dp_accounting's get_epsilon_for_delta weighs losses by e^{-L}, which underflows past L = 745
    m = 0.02103908423919312  # E|Z| of STORED_OPTIMA[10] (errors.arete_errors, 10 digits)
    sigma, h = m * math.sqrt(math.pi / 2), 1e-3 / m
    g = P.from_gaussian_mechanism(sigma, 1, value_discretization_interval=h, use_connect_dots=False)
    exact = float(comp.gaussian_epsilon(sigma, 1, 1e-6, digits=15))
    assert exact <= comp.pld_epsilon(g, 1e-6) <= exact + h
    assert g.get_epsilon_for_delta(1e-6) > exact + 10 * h  # the library's own inverse is off (0.98 measured)


def test_table_rows(c6):
    d = {"targets": [dict(c6.as_dict(), target=6.0)]}
    rows = composition_table(d)
    assert [r[2] for r in rows] == ["Arete (optimised)", "Laplace", "Gaussian", "Staircase"]
    assert float(rows[1][3]) == pytest.approx(c6.row("laplace").epsilon[0], rel=1e-3)


@pytest.mark.parametrize("kw, word", [
    ({"delta": 0}, "delta"), ({"delta": 1.5}, "delta"), ({"k_values": (0,)}, "k_values"),
    ({"k_values": ()}, "k_values"), ({"relative_interval": -1}, "relative_interval"),
    ({"mechanisms": ("cauchy",)}, "mechanisms"), ({"sensitivity": float("nan")}, "sensitivity"),
])
def test_bad_input(kw, word):
    with pytest.raises(ValueError, match=word):
        comp.compare(Z6, **kw)


def test_bad_input_helpers():
    with pytest.raises(ValueError, match="mean_abs"):
        comp.staircase_for_mean_abs(-1)
    with pytest.raises(ValueError, match="gamma"):
        comp.staircase_loss_pmf(1, 1.5)
    with pytest.raises(ValueError, match="eps"):
        comp.gaussian_delta(1, 1, -1)
    with pytest.raises(ValueError, match="k"):
        comp.gaussian_epsilon(1, 1, 1e-6, 0)


def test_docs_table_is_rendered_from_the_library(c6):
    # docs/howto/account.md renders the table at build time from composition_data (arete_site's
    # "composition" table): the page types no number; the rows are composition_table's
    from pathlib import Path

    from arete_proofs.walkthrough import composition

    text = (Path(__file__).resolve().parents[1] / "docs" / "howto" / "account.md").read_text()
    assert "```{arete-table} composition" in text
    d = dict(c6.as_dict(), target=6.0)
    rows = composition.composition_table({"targets": [d]})
    names = ("arete", "laplace", "gaussian", "staircase")
    for name, row in zip(names, rows):
        assert row[2] == composition.LABELS[name]
        for doc, lib in zip(row[3:], c6.row(name).epsilon):
            assert float(doc) == pytest.approx(lib, rel=1e-3), (name, doc, lib)
