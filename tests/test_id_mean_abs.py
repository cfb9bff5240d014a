"""Tests of arete_proofs.privacy.id_mean_abs: the E|Z| floor of symmetric ID eps-DP noise (Lemma F1, Theorem F).

Independent methods: Lemma F1 (E|X| sup f >= 1/pi) is checked on laws whose E|X| and peak come from closed forms
(Laplace, Student t, logistic, hyperbolic secant: scipy) or from sums without the characteristic function (a
Gaussian-Skellam mixture and the lattice + Gaussian noise of the frontier, both summed term by term), and the proof's
reduction (step 3) by quadrature of the characteristic function; Lemmas F2 and F3 against a mixture's exact E|W| and
truncated first moment; Theorem F against E|Z| of the certified noises of the frontier file (computed by other code).
Each has a broken variant that the same check rejects.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("flint")

from arete_proofs.privacy import id_mean_abs as fm   # noqa: E402
from _cli import run as _cli  # noqa: E402  (tests/_cli.py)

ROOT = Path(__file__).resolve().parents[1]
INV_PI = 1 / math.pi


def _gauss_abs(mu, s):
    """E|N(mu, s^2)| in closed form."""
    from scipy.stats import norm

    z = mu / s
    return s * (2 * norm.pdf(z) + z * (2 * norm.cdf(z) - 1))


def _skellam_gauss(s, d, lam, kmax=80):
    """N(0, s^2) + d (P1 - P2), P1, P2 ~ Poisson(lam/2), a symmetric ID law: (E|X|, f(0), Var), summed term by term."""
    from scipy.stats import norm, skellam

    k = np.arange(-kmax, kmax + 1)
    w = skellam.pmf(k, lam / 2, lam / 2)
    mean_abs = float(np.sum(w * _gauss_abs(k * d, s)))
    f0 = float(np.sum(w * norm.pdf(k * d / s) / s))         # the peak: f(0) = max f for symmetric ID laws
    return mean_abs, f0, s * s + lam * d * d


# ---------------------------------------------------------------------------
# Lemma F1
# ---------------------------------------------------------------------------

def test_lemma_f1_certificate_and_its_broken_variants():
    c = fm.lemma_f1_certificate()
    assert c["holds"]
    assert float(c["few"].lower()) > 0.7 and float(c["many"].lower()) > 3.1
    # the split of the jumps must lie where K is still above its tail (R = 5: K(5) = 0.029 < 1/(2 pi^2)),
    # and the split of the rate where both cases hold (0.5: too few jumps for Khintchine; 2.5: too many for N <= 1)
    for R, split in ((5, Fraction(3, 2)), (7, Fraction(3, 2)), (Fraction(9, 2), Fraction(1, 2)), (Fraction(9, 2), Fraction(5, 2))):
        assert not fm.lemma_f1_certificate(R=R, split=split)["holds"], (R, split)


def test_lemma_f1_on_closed_forms():
    from scipy.stats import hypsecant, laplace, logistic, norm
    from scipy.stats import t as student

    # all symmetric ID (Student t: Grosswald 1976; logistic and hyperbolic secant: Steutel & van Harn, ch. VI)
    laws = [laplace(scale=0.7), logistic(scale=1.3), hypsecant(scale=0.4), student(3), student(5), student(30)]
    for law in laws:
        with np.errstate(over="ignore"):        # hypsecant's pdf overflows cosh far out (to 0: harmless)
            mean_abs = law.expect(abs, lb=-np.inf, ub=np.inf)
        assert mean_abs * law.pdf(0) > INV_PI * (1 + 1e-3), law.dist.name
    # the Gaussian attains it
    g = norm(scale=2.3)
    assert abs(g.expect(abs) * g.pdf(0) / INV_PI - 1) < 1e-9
    assert abs(float(fm.peak_lower(g.expect(abs)).mid()) / g.pdf(0) - 1) < 1e-9


@pytest.mark.parametrize("s,d,lam", [(1.0, 0.5, 3.0), (0.3, 1.0, 1.5), (0.45, 1.0, 0.3), (0.05, 1.0, 4.0), (1.0, 1.3, 0.7)])
def test_lemma_f1_on_gauss_skellam_mixtures(s, d, lam):
    mean_abs, f0, _ = _skellam_gauss(s, d, lam)
    assert f0 >= float(fm.peak_lower(mean_abs).upper())


def test_lemma_f1_on_the_frontier_lattice_noise():
    # the top-rate lattice + Gaussian row at eps = 4: Z = h(X_1 + ... + 4 X_4 + 5 Y) + N(0, sigma^2), its comb summed by
    # direct convolution of the DLap pmfs (not the library's partition series or poles)
    doc = json.loads((ROOT / "docs" / "data" / "frontier.json").read_text())
    row = next(r for r in doc["rows"] if float(r["eps"]) == 4)["lattice_top"]
    a, at, m, s, h = (float(Fraction(row[k])) for k in ("a", "a_top", "m", "sigma", "h"))   # h = "1/m" exactly
    m = int(m)
    pmf = np.array([1.0])
    for i in range(1, m + 1):
        rate = at if i == m else a
        j = np.arange(-60, 61)
        p = np.tanh(rate / 2) * np.exp(-rate * np.abs(j))              # DLap(rate)
        step = np.zeros(i * 120 + 1)
        step[::i] = p
        pmf = np.convolve(pmf, step)
    k = np.arange(pmf.size) - (pmf.size - 1) // 2
    mean_abs = float(np.sum(pmf * _gauss_abs(k * h, s)))
    from scipy.stats import norm

    f0 = float(np.sum(pmf * norm.pdf(k * h / s) / s))
    assert abs(mean_abs / float(row["mean_abs"]) - 1) < 1e-9           # the same noise as the file's
    assert mean_abs * f0 > INV_PI


def test_lemma_f1_fails_without_infinite_divisibility():
    from scipy.stats import norm

    # broken variants, symmetric but not ID: the uniform law on [-1, 1] and N(0, 1) + Rademacher.  (The Staircase is
    # not one: its flat centre and its tail each give E|X| about gamma/2, so E|X| sup f tends to 1/2.)
    assert 0.5 * 0.5 < INV_PI
    mean_abs = _gauss_abs(1.0, 1.0)                       # E|N + 1| = E|N(0,1) +- 1|
    peak = norm.pdf(1.0)                                  # its density 0.5 phi(x - 1) + 0.5 phi(x + 1) peaks at 0
    assert max(0.5 * (norm.pdf(x - 1) + norm.pdf(x + 1)) for x in np.linspace(-3, 3, 601)) <= peak + 1e-12
    assert mean_abs * peak < 0.283 < INV_PI
    assert float(fm.peak_lower(mean_abs).lower()) > peak


def _Phi(psi, t):
    """int_0^inf (1 - e^-psi)/t^2 + e^-psi dt by the trapezoid rule (plus the tail 1/T)."""
    phi = np.exp(-psi)
    y = (1 - phi) / t ** 2 + phi
    return float(np.sum((y[1:] + y[:-1]) / 2 * np.diff(t))) + 1 / t[-1]


def test_lemma_f1_reduction_step_by_quadrature():
    # step 3 of the proof: Phi(psi) >= Phi(c t^2 + psi_b) >= sqrt(2 pi), c = g_s(1), for laws with jumps on both sides
    # of R = 9/2 (t-scale 1); the quadrature of phi is independent of the sums above
    t = np.linspace(1e-6, 60, 600001)
    rng = np.random.default_rng(5)
    for _ in range(12):
        s2 = rng.uniform(0.05, 1.5)
        xs = rng.uniform(0.1, 12, 4)
        ws = rng.uniform(0, 1.2, 4) / np.maximum(1, xs) ** 0.5
        comp = [w * (1 - np.cos(t * x)) for w, x in zip(ws, xs)]
        small = s2 * t * t / 2 + sum(c for c, x in zip(comp, xs) if x <= 4.5)
        big = sum((c for c, x in zip(comp, xs) if x > 4.5), np.zeros_like(t))
        c = s2 / 2 + sum(w * (1 - math.cos(x)) for w, x in zip(ws, xs) if x <= 4.5)
        full, reduced = _Phi(small + big, t), _Phi(c * t * t + big, t)
        assert full >= reduced - 1e-6 and reduced >= math.sqrt(2 * math.pi) - 1e-6


# ---------------------------------------------------------------------------
# Lemmas F2 and F3
# ---------------------------------------------------------------------------

def test_lemma_f2_against_mixtures_and_a_broken_jump_bound():
    for s, d, lam in ((0.002, 0.05, 0.02), (0.02, 0.05, 0.4), (0.05, 0.05, 3.0), (0.01, 0.02, 0.05)):
        mean_abs, _, var = _skellam_gauss(s, d, lam)
        assert float(fm.small_jump_mean_abs_lower(var, d).upper()) <= mean_abs, (s, d, lam)
        # inverted: E|W| < V forces Var < W_r(V)
        V = Fraction(mean_abs) * Fraction(1001, 1000)
        assert var < float(fm.small_jump_variance_upper(V, Fraction(d)))
    # broken variant: claim jumps at most d/4 when they are d: rare jumps make the claimed bound exceed E|W|
    mean_abs, _, var = _skellam_gauss(1e-4, 0.05, 0.02)
    assert float(fm.small_jump_mean_abs_lower(var, 0.05 / 4).lower()) > mean_abs


def test_lemma_f3_against_a_mixture_tail():
    from scipy.stats import norm, skellam

    s, r, lam, rho = 0.02, 0.05, 0.4, 0.2
    k = np.arange(-80, 81)
    w = skellam.pmf(k, lam / 2, lam / 2)

    def tail(mu):   # E[|X|; |X| >= rho], X ~ N(mu, s^2), exactly: the right part plus the mirrored left part
        out = 0.0
        for m in (mu, -mu):
            z = (rho - m) / s
            out += m * norm.sf(z) + s * norm.pdf(z)
        return out

    exact = float(np.sum(w * np.array([tail(mu) for mu in k * r])))
    var = s * s + lam * r * r
    bound = min(float(fm.small_jump_abs_tail(var, r, rho, u).lower()) for u in (1, 2, 3, 4))
    assert 0 < exact <= bound < 1e3 * exact
    # broken variant: the Gaussian-only tail (as if the jumps were absent) misses the jumps' contribution
    sd = math.sqrt(var)
    assert 2 * sd * norm.pdf(rho / sd) < exact
    # near rho = 0 the left side is E|W| itself; the bound holds there too
    mean_abs, _, _ = _skellam_gauss(s, r, lam)
    assert mean_abs <= min(float(fm.small_jump_abs_tail(var, r, 1e-9, u).lower()) for u in (1e-6, 0.1, 1))
    # broken variant: 2 e^{-theta rho} K'(theta) e^{K(theta)} (E[W e^{theta W}] taken for E[|W| e^{theta W}]) tends to 0
    # with theta, below E|W|
    u = 1e-3
    wrong = 2 * var * math.sinh(u) / r * math.exp(var * (math.cosh(u) - 1) / r ** 2)
    assert wrong < mean_abs


# ---------------------------------------------------------------------------
# Theorem F against the certified noises
# ---------------------------------------------------------------------------

_SYMMETRIC = ("laplace", "arete", "arete_gauss", "theorem21", "lattice_gauss", "lattice_top")


def test_theorem_f_is_below_every_symmetric_id_noise_in_the_frontier():
    doc = json.loads((ROOT / "docs" / "data" / "frontier.json").read_text())
    n = 0
    for r in doc["rows"]:
        e = float(r["eps"])
        if e not in (8.0, 10.0, 12.0, 14.0, 16.0):
            continue
        b = fm.mean_abs_bound(e)
        for part in _SYMMETRIC:
            g = r.get(part)
            if g and "mean_abs" in g and g.get("certified", True):
                assert float(b["bound"]) <= float(g["mean_abs"]), (e, part)
                n += 1
        if e >= 12:      # the Staircase (not ID) lies below the floor
            assert float(b["bound"]) > float(r["staircase"]["mean_abs"])
        # broken: a centre constant 0.34 in place of 1/pi (its limit 2 sqrt(0.34) = 1.166) claims more than the
        # certified top-rate rows reach
        top = r.get("lattice_top")
        if top and e in (12.0, 14.0):
            assert 2 * math.sqrt(0.34) > float(top["mean_abs"]) / float(r["staircase"]["mean_abs"])
    assert n >= 20


def test_theorem_f_certificate_is_exact_and_tends_to_the_gaussian_centre():
    row = fm.mean_abs_bound(16)
    p = {k: Fraction(v) for k, v in row["params"].items()}
    V = row["bound"]
    assert fm.floor_bound(V, 16, p["kr"], p["k"], p["u"])[0]
    assert not fm.floor_bound(V * Fraction(101, 100), 16, p["kr"], p["k"], p["u"])[0]
    lim = float(fm.asymptotic_mean_abs_ratio().mid())
    assert lim * 0.9999 < fm.mean_abs_bound(40)["ratio"] < lim
    assert 0 < fm.mean_abs_bound(1)["ratio"] < 1        # small eps: a valid bound, below the Staircase (weak there)
    assert fm.mean_abs_bound(690)["ratio"] > 1.128      # the search runs at 60 and its parameters carry over


def test_the_interval_claim_is_below_the_pointwise_rows():
    R, row = fm.mean_abs_gap_from(14)
    assert 1.10 < R <= row["ratio"] * (1 + 1e-12)
    for e in (14.5, 16, 20, 30):       # Corollary F4: the scaled certificate at 14 holds further out
        assert R <= fm.mean_abs_bound(e)["ratio"]
        q = math.exp(-e)
        b = float(row["bound"]) / math.exp(-7)
        assert fm.floor_bound(Fraction(b * math.sqrt(q) * (1 - 1e-9)), e, *(Fraction(row["params"][k]) for k in ("kr", "k", "u")))[0]


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match="mean_abs"):
        fm.peak_lower(0)
    with pytest.raises(ValueError, match="eps"):
        fm.mean_abs_bound("x")
    with pytest.raises(ValueError, match="R must"):
        fm.lemma_f1_certificate(R=-1)


def test_docs_table_is_the_modules():
    # the page renders mean_abs_gap_markdown(mean_abs_gap_table()) at build time (docs/_ext/arete_site.py)
    text = (ROOT / "docs" / "explanation" / "id-lower-bounds.md").read_text()
    assert "```{arete-table} id-mean-abs" in text and "{num}`@mean-abs-floor-from-14`" in text


# ---------------------------------------------------------------------------
# `arete floor`
# ---------------------------------------------------------------------------

def test_cli_floor_json_has_theorem_f(capsys):
    code, out, _ = _cli(capsys, "floor", "--eps", "14", "20", "--objective", "mean_abs", "--json")
    assert code == 0
    doc = json.loads(out)
    for r in doc["rows"]:
        lib = fm.mean_abs_bound(r["eps"])
        v = r["mean_abs_symmetric"]
        assert v["theorem"] == "F" and "variance" not in r
        assert Fraction(v["id_bound"]) <= lib["bound"] < Fraction(v["id_bound"]) * (1 + Fraction(1, 10 ** 7))
        assert float(v["ratio"]) <= lib["ratio"]
    assert float(doc["rows"][0]["mean_abs_symmetric"]["ratio"]) > 1.10


def test_cli_floor_from_mean_abs(capsys):
    code, out, _ = _cli(capsys, "floor", "--from", "14", "--objective", "mean_abs", "--json")
    assert code == 0
    doc = json.loads(out)
    R, _ = fm.mean_abs_gap_from(14)
    assert float(doc["mean_abs_ratio"]) <= R < float(doc["mean_abs_ratio"]) + 1e-5
    assert "variance_ratio" not in doc
    code, out, _ = _cli(capsys, "floor", "--from", "14", "--objective", "mean_abs")
    assert code == 0 and "Theorem F" in out and "1.10" in out


def test_the_ratio_plot_draws_theorem_f(monkeypatch):
    pytest.importorskip("matplotlib")
    from arete_proofs.walkthrough import frontier

    monkeypatch.setattr(frontier, "FLOOR_EPS", (14, 20))
    fig = frontier.plot_ratios(floors=True)
    lines = {ln.get_label(): ln for ln in fig.axes[0].get_lines()}
    f = lines["symmetric ID floor (Theorem F)"]
    assert list(f.get_xdata()) == [14, 20] and min(f.get_ydata()) > 1.10
