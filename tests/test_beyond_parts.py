"""beyond.py's optional parts (both, variance) and the Laplace comparison below eps = 4 (issue 17).

Synthetic rows built from a shipped row: the checks are closed forms (variance 2 alpha theta^2 +
2 lam^2 + sigma^2, Laplace 2/eps^2, the Staircase floor), so every tampering below must be caught.
"""

from __future__ import annotations

import copy

import pytest

from arete_proofs.privacy import errors
from arete_proofs.walkthrough import beyond


def _doc_with_variance():
    doc = beyond.load()
    row = next(r for r in doc["rows"] if float(r["eps"]) == 8.0)
    sc = errors.staircase_errors(8, 1, digits=15)
    var = {}
    for fam in ("arete", "gauss"):
        p = dict(row[fam])
        var[fam] = p          # the E|Z| optima have some variance; it is what check recomputes
    doc["rows"] = [row]
    row["variance"] = {**var, "laplace": {"variance": repr(2 / 64)},
                       "staircase": {"variance": str(sc.variance), "gamma": "0"}}
    return doc


def test_variance_part_checks():
    doc = _doc_with_variance()
    assert beyond.check(doc, rows=set())
    assert "| 8 |" in beyond.table_markdown(doc, "variance")
    for path, value, message in [
        (("gauss", "variance"), lambda v: repr(float(v) * 0.99), "variance"),       # not what the parameters give
        (("gauss", "epsilon_upper"), lambda v: "8.0001", "epsilon_upper"),
        (("laplace", "variance"), lambda v: "0.04", "Laplace variance"),
        (("staircase", "variance"), lambda v: "1", "Staircase"),                    # a floor above the noise
    ]:
        bad = copy.deepcopy(doc)
        t = bad["rows"][0]["variance"]
        for k in path[:-1]:
            t = t[k]
        t[path[-1]] = value(t[path[-1]])
        with pytest.raises(ValueError, match=message):
            beyond.check(bad, rows=set())


def test_laplace_is_the_family_best_when_the_search_is_worse():
    doc = beyond.load()
    row = copy.deepcopy(next(r for r in doc["rows"] if float(r["eps"]) == 4.0))
    row["gauss"]["mean_abs"] = "0.3"                 # worse than Laplace's 1/4
    assert beyond.best(row, "gauss") == 0.25 < float(row["gauss"]["mean_abs"])
    assert beyond.gain_percent(row) == pytest.approx(100 * (1 - 0.25 / float(row["arete"]["mean_abs"])))
    doc["rows"] = [row]
    assert "Laplace limit" in beyond.table_markdown(doc)


def test_both_part_table_and_check():
    doc = beyond.load()
    row = next(r for r in doc["rows"] if float(r["eps"]) == 8.0)
    row["both"] = dict(row["gauss"])
    doc["rows"] = [row]
    assert beyond.check(doc, rows=set())
    assert len(beyond.table_markdown(doc, "both").splitlines()) == 3
    row["both"]["epsilon_upper"] = "8.5"
    with pytest.raises(ValueError, match="both epsilon_upper"):
        beyond.check(doc, rows=set())
    row.pop("both")
    assert beyond.table_markdown(doc, "both") == ""            # no such rows: no table


def test_unknown_part_or_kind():
    with pytest.raises(ValueError, match="parts"):
        beyond.compute([8], parts=("median",))
    with pytest.raises(ValueError, match="kind"):
        beyond.table_markdown(beyond.load(), "median")
    with pytest.raises(ValueError, match="part"):
        beyond.compute_part(8, "median", {})


def test_sigma_zero_is_detected_where_gamma_difference_alone_is_private():
    # alpha = 0.9 > 1/2: X1 - X2 alone has eps* = ln g(0)/g(1), which is 2 at theta = 0.5658 (mpmath
    # root of gamma_gamma.pdf, this exploration); above that theta sigma -> 0 meets eps = 2
    from arete_proofs.privacy import optimize_gauss as og

    with pytest.raises(og._SigmaZero):
        og._solve_sigma(2.0, 0.9, 0.6, 0.0)
    sg = og._solve_sigma(2.0, 0.9, 0.55, 0.0)     # below it a positive sigma is needed
    assert 0 < sg and og.estimate_epsilon(0.9, 0.55, 0.0, sg) <= 2.0 + 1e-9


def test_docs_variance_table_is_the_files_table():
    from pathlib import Path

    # the page renders beyond.table_markdown(doc, "variance") at build time (docs/_ext/arete_site.py)
    page = (Path(__file__).resolve().parents[1] / "docs" / "explanation" / "gamma-gaussian.md").read_text()
    assert "```{arete-table} gamma-gauss-variance" in page
    doc = beyond.load()
    assert beyond.table_markdown(doc, "variance").startswith("| ε |")
