"""The shipped counterexample search of the docs (docs/data/search.json, docs/_ext/arete_docs_search.py)
and its section on the statement pages (docs/_ext/arete_docs_pages.py).

The data file must be fresh: every statement's fingerprint (a hash of its bounds,
hypotheses and substitutions) must match the registry and every bound must have a
search result; regenerate with ``python docs/_ext/arete_docs_search.py``.  A changed
bound and a missing result are detected (tested by changing the registry).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest
import sympy as sp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "_ext"))
pytest.importorskip("arete_docs")  # the extension (needs sphinx)
import arete_docs_pages as docs_pages  # noqa: E402
import arete_docs_search as docs_search  # noqa: E402

from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS  # noqa: E402


@pytest.fixture(scope="module")
def data():
    d = docs_search.load()
    assert d, f"{docs_search.DATA} is missing: run python docs/_ext/arete_docs_search.py"
    return d


def test_search_data_is_fresh(data):
    assert docs_search.stale(data) == {}, (
        "docs/data/search.json is stale: run python docs/_ext/arete_docs_search.py")
    rows = docs_search.by_bound(data)
    for sid in STATEMENT_IDS:
        for b in REGISTRY[sid].bounds:
            r = rows[(sid, b.name)]
            assert r["search"]["status"] in ("holds", "tight"), (sid, b.name, r["search"])
            assert r["search"]["evaluations"] > 0 or not r["search"]["point"]
            assert r["grid"].get("argmin"), (sid, b.name)


def test_changed_bound_makes_the_data_stale(data, monkeypatch):
    st = REGISTRY["lemma-27"]
    b = st.bounds[2]
    changed = dataclasses.replace(st, bounds=st.bounds[:2] + (dataclasses.replace(b, rhs=b.rhs * 2),)
                                  + st.bounds[3:])
    monkeypatch.setitem(REGISTRY, "lemma-27", changed)
    assert set(docs_search.stale(data)) == {"lemma-27"}
    text = "\n".join(docs_pages.search_section("lemma-27", (data, docs_search.by_bound(data),
                                                           docs_search.stale(data))))
    assert "```{warning}" in text and "stale" in text


def test_changed_hypothesis_and_missing_result_are_stale(data, monkeypatch):
    st = REGISTRY["lemma-26"]
    monkeypatch.setitem(REGISTRY, "lemma-26", dataclasses.replace(st, hypotheses=st.hypotheses[:-1]))
    assert "lemma-26" in docs_search.stale(data)
    monkeypatch.setitem(REGISTRY, "lemma-26", st)
    trimmed = dict(data, search=[r for r in data["search"] if r["statement"] != "lemma-28"])
    assert docs_search.stale(trimmed) == {"lemma-28": "no search result for monotone"}


def test_statement_page_shows_searched_and_grid_worst_points(data):
    rows = docs_search.by_bound(data)
    text = "\n".join(docs_pages.search_section("lemma-19", (data, rows, {})))
    assert "## Counterexample search" in text and "(lemma-19-search)=" in text
    row = rows[("lemma-19", "lower")]
    line = next(x for x in text.splitlines() if x.startswith("| `lower` |"))
    cells = [c.strip() for c in line.split(" | ")]
    # searched point, its slack, verdict, evaluations ... the grid's worst point and slack
    assert cells[1].startswith("`") and "eps=" in cells[1]
    assert cells[4] == str(row["search"]["evaluations"])
    assert docs_pages._short_point(row["grid"]["argmin"]) in cells[6]
    assert float(cells[2]) == pytest.approx(row["search"]["slack"], rel=1e-2)
    assert float(cells[7].rstrip(" |")) == pytest.approx(row["grid"]["min_slack"], rel=1e-2)


def test_short_numbers():
    assert docs_pages._short("0.48750260351578967") == "0.4875"
    assert docs_pages._short("1/3") == "1/3"
    assert docs_pages._short_point({"eps": "80", "Delta": "4.201745834823107", "bound": "x"}) == \
        "eps=80, Delta=4.202"
    assert sp.sympify("exp(-15)")  # grid points keep their exact form
    assert docs_pages._short("exp(-15)") == "exp(-15)"
