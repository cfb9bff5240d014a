"""The discrete frontier file (docs/data/frontier-discrete.json) and its table in docs/explanation/lattice-skellam.md.

The page's table is the file's (walkthrough.frontier_discrete.table_markdown); every lattice + Skellam
row is certified below its eps by a checkable certificate of its own parameters (re-checked in
tests/test_check_lattice_skellam.py); at Delta = 1 the optimum is DLap(eps), the discrete staircase itself
(the geometric mechanism).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from arete_proofs.walkthrough import frontier_discrete as fd

PAGE = Path(__file__).resolve().parents[1] / "docs" / "explanation" / "lattice-skellam.md"


@pytest.fixture(scope="module")
def data():
    if not fd.DATA.exists():
        pytest.skip("docs/data/frontier-discrete.json not generated")
    return fd.load()


def test_the_page_shows_the_file(data):
    # rendered from fd.table_markdown(fd.load()) at build time (docs/_ext/arete_site.py, "lattice-skellam")
    assert "```{arete-table} lattice-skellam" in PAGE.read_text()
    assert fd.table_markdown(data).startswith("| Δ | ε |")


def test_rows_are_certified_and_recorded(data):
    assert data["format"] == fd.FORMAT and data["commands"]
    for r in data["rows"]:
        for key, obj in (("lattice_skellam", "mean_abs"), ("lattice_skellam_var", "variance")):
            if key not in r:
                continue
            ls = r[key]
            assert ls["certified"] and Fraction(ls["upper"]) <= Fraction(r["eps"]), (r["Delta"], r["eps"], key)
            cert = ls["certificate"]
            assert cert["format"] == "arete-certificate/1" and cert["kind"] == "lattice_skellam"
            assert Fraction(cert["claim"]["upper"]) == Fraction(ls["upper"])
            assert Fraction(cert["claim"]["epsilon"]) == Fraction(r["eps"])
            assert cert["params"]["m"] == ls["m"] and cert["params"]["h"] == ls["h"]
            assert all(Fraction(cert["params"][k]) == Fraction(repr(ls[k])) for k in ("a", "mu"))
            assert ls["how"] and "seconds" in ls
            assert fd.ratio(r, key, obj) >= 1 - 1e-9          # the discrete staircase is the floor
        ls = r["lattice_skellam"]
        if r["Delta"] == 1:                                   # DLap(eps): ratio 1 (the geometric mechanism)
            assert ls["m"] == ls["h"] == 1 and fd.ratio(r, "lattice_skellam") < 1.0001
