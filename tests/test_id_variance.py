"""Tests of arete_proofs.privacy.id_variance: the variance floor of symmetric ID eps-DP noise (Theorem E).

Independent methods: Lemma E1 (peak >= 1/sqrt(2 pi Var)) is checked against densities computed without the
characteristic function (closed forms: Laplace, Student t via scipy, the Gamma difference's Bessel form via
mpmath, a Gaussian-Skellam mixture summed term by term); Lemma E2's tail bound against the same mixture's exact
truncated second moment; Theorem E against the variances of the certified noises of the frontier file (computed
by other code: lattice sums, closed forms).  Each has a broken variant that the same check rejects.
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

from arete_proofs.privacy import id_variance as iv   # noqa: E402
from _cli import run as _cli  # noqa: E402  (tests/_cli.py)

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------
# Lemma E1
# ---------------------------------------------------------------------------

def _skellam_gauss(s, d, lam, x, kmax=60):
    """Density of N(0, s^2) + d (P1 - P2), P1, P2 ~ Poisson(lam/2) (psi = s^2 t^2/2 + lam (1 - cos d t)): a mixture."""
    from scipy.stats import norm, skellam

    k = np.arange(-kmax, kmax + 1)
    w = skellam.pmf(k, lam / 2, lam / 2)
    return (w[None, :] * norm.pdf((x[:, None] - k[None, :] * d) / s) / s).sum(axis=1), k, w


@pytest.mark.parametrize("s,d,lam", [(1.0, 0.5, 3.0), (0.2, 1.0, 1.5), (0.3, 1.0, 0.2), (0.05, 1.0, 4.0)])
def test_lemma_e1_on_gauss_skellam_mixtures(s, d, lam):
    x = np.linspace(-8, 8, 40001)
    f, _, _ = _skellam_gauss(s, d, lam, x)
    var = s * s + lam * d * d
    assert f.max() >= float(iv.sup_density_lower(var).upper())


def test_lemma_e1_on_closed_forms():
    from mpmath import besselk, gamma, mp, mpf, sqrt, pi
    from scipy.stats import t as student

    # Student t (ID: Grosswald 1976), nu = 5: Var = 5/3, peak = pdf(0)
    assert student.pdf(0, 5) > float(iv.sup_density_lower(Fraction(5, 3)).upper())
    # the Gamma difference X1 - X2, X_i ~ Gamma(alpha, 1) (ID; the Arete's Gamma part), Var = 2 alpha; its
    # density is |x|^(alpha-1/2) K_(alpha-1/2)(|x|) / (sqrt(pi) Gamma(alpha) 2^(alpha-1/2)), peak at 0 for alpha > 1/2
    with mp.workdps(30):
        for alpha in (mpf(1), mpf(2), mpf(7)):
            nu = alpha - mpf(1) / 2
            x = mpf("1e-12")
            f0 = x ** nu * besselk(nu, x) / (sqrt(pi) * gamma(alpha) * 2 ** nu)
            assert float(f0) > float(iv.sup_density_lower(float(2 * alpha)).upper())
    # the Gaussian attains it (to rounding)
    v = 0.37
    assert abs(1 / math.sqrt(2 * math.pi * v) / float(iv.sup_density_lower(v).mid()) - 1) < 1e-15


def test_lemma_e1_fails_without_infinite_divisibility():
    # the broken variant: drop "ID". The uniform law on [-1, 1] (Var 1/3, peak 1/2) violates the inequality
    assert 0.5 < float(iv.sup_density_lower(Fraction(1, 3)).lower())


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match="variance"):
        iv.sup_density_lower(-1)
    with pytest.raises(ValueError, match="eps"):
        iv.variance_bound("x")
    with pytest.raises(ValueError, match="eps_hi"):
        iv.variance_gap_interval(14, 13)


# ---------------------------------------------------------------------------
# Lemma E2
# ---------------------------------------------------------------------------

def test_lemma_e2_against_a_mixture_tail():
    from scipy.stats import norm

    s, r, lam, rho = 0.02, 0.05, 0.4, 0.2       # jumps of size r only: |x| <= r
    _, k, w = _skellam_gauss(s, r, lam, np.array([0.0]))
    mu = k * r

    def tail2(m):   # E[X^2; |X| >= rho], X ~ N(m, s^2), exactly
        out = 0.0
        for a, sign in ((rho, 1), (-rho, -1)):
            z = (a - m) / s
            # int_{a}^{inf} x^2 phi: (m^2 + s^2) sf(z) + s (a + m) pdf(z); mirrored for the left tail
            if sign == 1:
                out += (m * m + s * s) * norm.sf(z) + s * (a + m) * norm.pdf(z)
            else:
                out += (m * m + s * s) * norm.cdf(z) - s * (a + m) * norm.pdf(z)
        return out

    exact = float(sum(wi * tail2(mi) for wi, mi in zip(w, mu)))
    V = s * s + lam * r * r
    bound = min(float(iv.small_jump_tail(V, r, rho, u).lower()) for u in (1, 2, 3, 4))
    assert 0 < exact <= bound < 1e3 * exact           # valid, and not vacuous
    # broken variant: the Gaussian-only tail (as if the jumps were absent) misses the jumps' contribution
    gauss_only = 2 * V * ((rho / math.sqrt(V)) * norm.pdf(rho / math.sqrt(V)) + norm.sf(rho / math.sqrt(V)))
    assert gauss_only < exact


# ---------------------------------------------------------------------------
# Theorem E against the certified noises
# ---------------------------------------------------------------------------

_SYMMETRIC = ("laplace", "arete", "arete_gauss", "theorem21", "lattice_gauss", "lattice_top")


def _rows():
    doc = json.loads((ROOT / "docs" / "data" / "frontier-variance.json").read_text())
    return [r for r in doc["rows"] if float(r["eps"]) in (8.0, 12.0, 16.0, 19.0)]


def _broken_ratio(eps, centre_const):
    """The asymptotic form of the bound with another centre constant (the E|Z| one, 1/pi): a broken variant."""
    q = math.exp(-eps)
    return 3 * (centre_const * (2 * q / 3) ** 2 / 4) ** (1 / 3) / float(iv.staircase_variance_upper(eps).mid())


def test_theorem_e_is_below_every_symmetric_id_noise_in_the_frontier():
    n = 0
    for r in _rows():
        e = float(r["eps"])
        b = iv.variance_bound(e)
        for part in _SYMMETRIC:
            if r.get(part) and "variance" in r[part]:
                assert float(b["bound"]) <= float(r[part]["variance"]), (r["eps"], part)
                n += 1
        # the staircase itself is not ID, and at eps >= 10 the bound is above it
        if e >= 10:
            assert float(b["bound"]) > float(r["staircase"]["variance"])
        # broken: the E|Z| centre constant 1/pi in place of 1/(2 pi) claims more than the lattice rows reach
        top = r.get("lattice_top")
        if top and e >= 12:
            assert _broken_ratio(e, 1 / math.pi) > float(top["variance"]) / float(r["staircase"]["variance"])
    assert n >= 16


def test_theorem_e_tends_to_the_gaussian_centre():
    lim = float(iv.asymptotic_variance_ratio().mid())
    r30 = iv.variance_bound(30)["ratio"]
    assert lim * 0.9999 < r30 < lim
    # the certificate is exact arithmetic: L(V) > V at the returned V, and not at 1.01 V
    row = iv.variance_bound(16)
    p = {k: Fraction(v) for k, v in row["params"].items()}
    V = row["bound"]
    assert iv.floor_bound(V, 16, p["rho"], p["k"], p["u"]).lower() > iv._arb(V)
    assert not iv.floor_bound(V * Fraction(101, 100), 16, p["rho"], p["k"], p["u"]).lower() > iv._arb(V * Fraction(101, 100))


def test_the_interval_claim_holds_at_its_grid_points():
    R, rows = iv.variance_gap_interval(14, 14.5, step="0.25")
    assert 1.20 < R and len(rows) == 2
    for row in rows:      # each cell's ratio is at most the pointwise ratio at its left end
        assert row["ratio"] <= iv.variance_bound(row["eps_lo"])["ratio"] * (1 + 1e-12)


def test_docs_table_is_the_modules():
    # the page renders variance_gap_markdown(variance_gap_table()) at build time (docs/_ext/arete_site.py)
    text = (ROOT / "docs" / "explanation" / "id-lower-bounds.md").read_text()
    assert "```{arete-table} id-variance" in text and "{num}`@variance-floor-from-14`" in text


# ---------------------------------------------------------------------------
# `arete floor`
# ---------------------------------------------------------------------------


def test_cli_floor_json_matches_the_library(capsys):
    code, out, _ = _cli(capsys, "floor", "--eps", "14", "20", "--json")
    assert code == 0
    doc = json.loads(out)
    assert [r["eps"] for r in doc["rows"]] == ["14", "20"]
    for r in doc["rows"]:
        lib = iv.variance_bound(r["eps"])
        v = r["variance"]
        assert Fraction(v["id_bound"]) <= lib["bound"] < Fraction(v["id_bound"]) * (1 + Fraction(1, 10 ** 7))
        assert float(v["ratio"]) <= lib["ratio"]                  # rounded down: still a bound
        assert float(r["mean_abs"]["ratio"]) > 1.03               # Theorem C above the Staircase there
    assert float(doc["rows"][0]["variance"]["ratio"]) >= 1.2012


def test_cli_floor_text_and_bad_input(capsys):
    code, out, _ = _cli(capsys, "floor", "--eps", "8", "--objective", "variance")
    assert code == 0 and "Theorem E" in out and "E|Z|" not in out
    for bad in ("-1", "abc", "1e400", "nan"):
        code, _, err = _cli(capsys, "floor", "--eps", bad)
        assert code == 2 and "--eps" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_lemma_e1_lattice_on_integer_laws():
    from scipy.stats import nbinom, skellam

    # DLap(a) and the negative-binomial difference NB(r, p) - NB(r, p) (both symmetric ID on Z), pmf summed directly
    for r, p in ((1.0, 0.4), (0.3, 0.7), (2.5, 0.2)):
        j = np.arange(0, 4001)
        w = nbinom.pmf(j, r, p)
        p0 = float(np.sum(w * w))                        # P(N1 - N2 = 0)
        var = 2 * r * (1 - p) / p ** 2
        assert p0 > float(iv.lattice_peak_lower(var).upper()), (r, p)
    # Skellam attains it (scipy's pmf, an independent formula)
    for v in (0.3, 2.0, 9.0):
        assert abs(skellam.pmf(0, v / 2, v / 2) / float(iv.lattice_peak_lower(v).mid()) - 1) < 1e-12
    # broken variant: the discrete uniform on {-1, 0, 1} (not ID) has P(0) = 1/3 below the bound at v = 2/3
    assert 1 / 3 < float(iv.lattice_peak_lower(Fraction(2, 3)).lower())


def test_the_ratio_plot_draws_both_floors(monkeypatch):
    pytest.importorskip("matplotlib")
    from arete_proofs.walkthrough import frontier

    monkeypatch.setattr(frontier, "FLOOR_EPS", (14, 20))
    fig = frontier.plot_ratios(floors=True)
    labels = [ln.get_label() for ax in fig.axes for ln in ax.get_lines()]
    assert "ID floor (Theorem C)" in labels and "symmetric ID floor (Theorem E)" in labels
    var_floor = next(ln for ln in fig.axes[1].get_lines() if ln.get_label().startswith("symmetric"))
    assert list(var_floor.get_xdata()) == [14, 20] and min(var_floor.get_ydata()) > 1.2


def test_cli_floor_from_is_the_interval_claim(capsys):
    code, out, _ = _cli(capsys, "floor", "--from", "20", "--json")
    assert code == 0
    doc = json.loads(out)
    R, _ = iv.variance_gap_interval(20, step="2")
    assert float(doc["variance_ratio"]) <= R < float(doc["variance_ratio"]) + 1e-5
    for argv in (("floor",), ("floor", "--eps", "8", "--from", "14"), ("floor", "--from", "x")):
        code, _, err = _cli(capsys, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--from" in err
