"""The shipped results of "Beyond the paper" (docs/data/beyond.json): internal consistency, and
that tampering is caught.  The file is written by ``python -m arete_proofs.walkthrough.beyond``;
the E|Z| values are recomputed here (``beyond.check``) with ``arete_gauss.mean_abs`` at 6 digits
and with ``optimize_gauss.mean_abs_float`` (the characteristic-function integral by scipy's
QUADPACK: a different formula from ``arete.mean_abs``'s closed form that wrote the Arete rows, a
different integrator from the mpmath tanh-sinh quadrature that wrote the Gamma + Gaussian rows)."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from arete_proofs.walkthrough import beyond

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def doc():
    return beyond.load()


def _row(doc, eps):
    return next(i for i, r in enumerate(doc["rows"]) if float(r["eps"]) == eps)


def test_shipped_file_is_consistent(doc):
    eps = sorted(float(r["eps"]) for r in doc["rows"])
    assert {4.0, 6.0, 8.0}.issubset(eps)
    # E|Z| recomputed for two rows (eps 6 and 8), the cheap checks for all
    assert beyond.check(doc, digits=6, rows={_row(doc, 6.0), _row(doc, 8.0)})


def test_eps8_meets_issue_17(doc):
    # issue 17's "done when": E|Z| <= 0.04396 with certified tight epsilon <= 8
    r = doc["rows"][_row(doc, 8.0)]
    assert float(r["gauss"]["mean_abs"]) <= 0.04396
    assert float(r["gauss"]["epsilon_upper"]) <= 8
    # Staircase (optimal among all 8-DP noise) is below both infinitely divisible noises
    assert float(r["staircase"]["mean_abs"]) < float(r["gauss"]["mean_abs"]) < float(r["arete"]["mean_abs"])


@pytest.mark.parametrize("field, value, message", [
    (("gauss", "mean_abs"), lambda v: repr(float(v) * 0.99), "mean_abs"),          # a better error than the parameters give
    (("arete", "mean_abs"), lambda v: repr(float(v) * 1.01), "mean_abs"),
    (("gauss", "epsilon_upper"), lambda v: "8.0001", "epsilon_upper"),              # not 8-DP
    (("gain_percent",), lambda v: v + 1, "gain_percent"),
    (("gauss_over_staircase",), lambda v: v * 1.01, "gauss_over_staircase"),
    (("gauss", "sigma"), lambda v: repr(float(v) * 0.98), "mean_abs"),             # less noise than certified
])
def test_tampered_row_is_caught(doc, field, value, message):
    bad = copy.deepcopy(doc)
    i = _row(bad, 8.0)
    target = bad["rows"][i]
    for k in field[:-1]:
        target = target[k]
    target[field[-1]] = value(target[field[-1]])
    with pytest.raises(ValueError, match=message):
        beyond.check(bad, digits=6, rows={i})


def test_docs_table_is_the_files_table(doc):
    # the page renders beyond.table_markdown of the shipped file at build time (docs/_ext/arete_site.py,
    # table "gamma-gauss-mean-abs"; tests/test_docs_site.py checks the table is this function's)
    page = (DOCS / "explanation" / "gamma-gaussian.md").read_text()
    assert "```{arete-table} gamma-gauss-mean-abs" in page
    # and a changed file would be noticed
    bad = copy.deepcopy(doc)
    bad["rows"][0]["gain_percent"] += 1
    assert beyond.table_markdown(doc).strip() != beyond.table_markdown(bad).strip()


def test_recheck_catches_a_stale_epsilon(doc):
    # one certified tight epsilon at 6 digits (~10 s): the stored parameters are 8-DP, but a file
    # whose recorded epsilon disagrees with them is stale
    bad = copy.deepcopy(doc)
    g = bad["rows"][_row(bad, 8.0)]["gauss"]
    g["epsilon"] = repr(float(g["epsilon"]) - 1e-3)
    with pytest.raises(ValueError, match="the file says"):
        beyond.recheck(bad, 8, digits=6)


def test_loss_curve_peaks_inside(doc):
    t, L, ts, e = beyond.loss_curve(doc, 8, n=201)
    k = int(L.argmax())
    assert 0 < k < len(t) - 1                      # interior maximiser, not t = 0 as for Arete
    assert abs(t[k] - ts) < 2 * (t[1] - t[0])      # the float64 curve peaks at the certified t*
    assert abs(L[k] - e) < 1e-6 * e


def test_a_wrong_engine_is_caught_by_the_float_integral(doc, monkeypatch):
    # if the engine that wrote the file were wrong (here: 1% too small), recomputing with the same
    # engine would agree with the file; the independent float64 integral does not
    from arete_proofs.distributions import arete_gauss

    bad = copy.deepcopy(doc)
    i = _row(bad, 8.0)
    g = bad["rows"][i]["gauss"]
    g["mean_abs"] = repr(float(g["mean_abs"]) * 0.99)
    bad["rows"][i]["gain_percent"] = round(beyond.gain_percent(bad["rows"][i]), 3)
    bad["rows"][i]["gauss_over_staircase"] = round(
        float(g["mean_abs"]) / float(bad["rows"][i]["staircase"]["mean_abs"]), 4)
    real = arete_gauss.mean_abs
    monkeypatch.setattr(arete_gauss, "mean_abs",   # wrong only with a Gaussian part (sigma = a[3] > 0)
                        lambda *a, **k: real(*a, **k) * (0.99 if float(a[3]) > 0 else 1))
    with pytest.raises(ValueError, match="float64 Fourier integral"):
        beyond.check(bad, digits=6, rows={i})
