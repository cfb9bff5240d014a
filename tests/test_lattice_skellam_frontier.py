"""The discrete frontier file (docs/data/frontier-discrete.json) and its table in docs/beyond.md.

The page's table is the file's (walkthrough.frontier_discrete.table_markdown); every lattice + Skellam
row is certified below its eps; the two cheapest certificates are re-checked from scratch
(certified.combs_skellam.check) and an edited one is refused; at Delta = 1 the optimum is DLap(eps),
the discrete staircase itself (the geometric mechanism).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from arete_proofs.certified import combs_skellam as cs
from arete_proofs.walkthrough import frontier_discrete as fd

PAGE = Path(__file__).resolve().parents[1] / "docs" / "beyond.md"


@pytest.fixture(scope="module")
def data():
    if not fd.DATA.exists():
        pytest.skip("docs/data/frontier-discrete.json not generated")
    return fd.load()


def test_the_page_shows_the_file(data):
    text = PAGE.read_text()
    i = text.index("<!-- frontier-discrete-table -->") + len("<!-- frontier-discrete-table -->")
    j = text.index("<!-- /frontier-discrete-table -->")
    assert text[i:j].strip() == fd.table_markdown(data).strip()


def test_rows_are_certified_and_recorded(data):
    assert data["format"] == fd.FORMAT and data["commands"]
    for r in data["rows"]:
        for key, obj in (("lattice_skellam", "mean_abs"), ("lattice_skellam_var", "variance")):
            if key not in r:
                continue
            ls = r[key]
            assert ls["certified"] and Fraction(ls["upper"]) <= Fraction(r["eps"]), (r["Delta"], r["eps"], key)
            assert Fraction(ls["certificate"]["upper"]) == Fraction(ls["upper"])
            assert ls["certificate"]["params"]["m"] == ls["m"] and ls["certificate"]["params"]["h"] == ls["h"]
            assert ls["how"] and "seconds" in ls
            assert fd.ratio(r, key, obj) >= 1 - 1e-9          # the discrete staircase is the floor
        ls = r["lattice_skellam"]
        if r["Delta"] == 1:                                   # DLap(eps): ratio 1 (the geometric mechanism)
            assert ls["m"] == ls["h"] == 1 and fd.ratio(r, "lattice_skellam") < 1.0001


def test_the_two_cheapest_certificates_recheck(data):
    rows = sorted((r for r in data["rows"] if r["Delta"] > 1),            # Delta = 1 is DLap: take real combs
                  key=lambda r: r["lattice_skellam"]["certify_seconds"])[:2]
    for r in rows:
        doc = r["lattice_skellam"]["certificate"]
        assert cs.check(doc).ok, (r["Delta"], r["eps"])
        bad = dict(doc, upper=doc["lower"])
        assert not cs.check(bad).ok
