"""The certificate helpers of the docs extension (docs/_ext/arete_docs_boxes.py, the
certificates job of arete_docs_jobs.py and the statement page of arete_docs_pages.py).

The formatting helpers are pure; the job test runs the registry's certificates
and is skipped when python-flint (extra ``certified``) is missing.
"""

from __future__ import annotations

import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "_ext"))
pytest.importorskip("arete_docs")  # the extension (needs sphinx); imports the helpers below
import arete_docs_boxes as docs_boxes  # noqa: E402
import arete_docs_jobs as docs_jobs  # noqa: E402
import arete_docs_pages as docs_pages  # noqa: E402


def test_fraction_text():
    ft = docs_boxes.fraction_text
    assert ft(F(180)) == "180"
    assert ft(F(-3)) == "-3"
    assert ft(F(7357, 10000)) == "0.7357"
    assert ft(F(1123, 10240)) == "0.10966796875"
    assert ft(F(-1, 8)) == "-0.125"
    assert ft(F(1, 3)) == "1/3"
    assert ft(F(1, 2**60)).startswith("≈ 8.67361737988")
    assert ft(F(10**20 + 1, 3**40)).startswith("≈ ")


def test_box_hull_and_coverage():
    boxes = [({"a": (F(0), F(1, 2)), "b": (F(1), F(2))}, 0.1),
             ({"a": (F(1, 2), F(1)), "b": (F(1), F(3, 2))}, 0.2),
             ({"a": (F(1, 2), F(1)), "b": (F(3, 2), F(2))}, 0.3)]
    hull = docs_boxes.box_hull(boxes)
    assert hull == {"a": (F(0), F(1)), "b": (F(1), F(2))}
    assert docs_boxes.hull_coverage(boxes, hull) == "covers"
    assert docs_boxes.hull_coverage(boxes[:2], docs_boxes.box_hull(boxes[:2])) == "gaps"
    assert docs_boxes.hull_coverage(boxes + boxes[:1], hull) == "overlaps"
    assert docs_boxes.hull_coverage([], {}) is None
    # a coordinate fixed at one value does not make the volume zero
    fixed = [({"a": (F(0), F(1)), "theta": (F(1), F(1))}, 0.1)]
    assert docs_boxes.hull_coverage(fixed, docs_boxes.box_hull(fixed)) == "covers"
    # sub-boxes over different coordinates are not compared
    mixed = [({"a": (F(0), F(1))}, 0.1), ({"b": (F(0), F(1))}, 0.1)]
    assert docs_boxes.hull_coverage(mixed, docs_boxes.box_hull(mixed)) is None


def test_box_groups():
    boxes = [({"a": (F(0), F(1, 2))}, 0.1), ({"ln 2": (F(69, 100), F(7, 10))}, 0.2),
             ({"a": (F(1, 2), F(1))}, 0.3)]
    groups = docs_boxes.box_groups(boxes)
    assert groups == [({"a": (F(0), F(1))}, 2, "covers"), ({"ln 2": (F(69, 100), F(7, 10))}, 1, "covers")]


def test_box_text_roundtrip():
    box = {"s": (F(0), F(180)), "Delta": (F(7357, 10000), F(100)), "theta": (F(1), F(1))}
    text = docs_boxes.box_text(docs_boxes.box_json(box))
    assert text == "s ∈ [0, 180], Delta ∈ [0.7357, 100], theta = 1"


def test_job_certificates():
    pytest.importorskip("flint")
    from arete_proofs.chain.registry import REGISTRY

    sids = [s for s in REGISTRY if REGISTRY[s].certificates]
    assert sids
    for sid in sids:
        recs = docs_jobs.job_certificates(sid)
        assert [r["name"] for r in recs] == list(REGISTRY[sid].certificates)
        for r in recs:
            assert "error" not in r and "missing" not in r, r
            assert r["holds"] in (True, False, None)
            assert sum(g["n_boxes"] for g in r["groups"]) == r["n_boxes"]
            page = docs_pages.statement_page(sid, {"verify": {}, "plots": {}, "symbolic": [],
                                                    "certificates": {sid: recs}})
            assert "## Certified in ball arithmetic" in page
            assert f"arete_proofs.certified.statements.{r['name']}" in page
