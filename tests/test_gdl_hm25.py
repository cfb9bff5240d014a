"""The 2025 paper's GDL statements as checked records (arete_proofs.chain.hm25), the previous
session's findings reproduced, broken variants caught, and the docs page rendering the code's table."""

from pathlib import Path

import pytest
from mpmath import mp

from arete_proofs.chain import hm25
from arete_proofs.privacy import accounting_discrete as ad, tight_gdl

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _working_precision():
    with mp.workdps(40):
        yield


def test_theorem_13_value_exact_and_tight_and_its_direction():
    L = tight_gdl.theorem13_value("0.5", "0.7", 3, digits=20)
    assert mp.nstr(L, 5) == "3.2104"
    # tight: attained at k = 0 with s = Delta, and no shift/point does better (brute force over every shift)
    m, k, s = tight_gdl.brute_force("0.5", "0.7", 3, 40, digits=20)
    assert abs(m - L) < 1e-18 and k == 0 and abs(s) == 3
    # eps-DP iff eps >= L: delta(L) = 0, delta(L - 1e-9) > 0; the literal "eps <= L" gives eps = L/2: not DP
    law = ad.GDLLaw("0.5", "0.7")
    assert ad.hockey_stick(law, 3, L, digits=10) == 0
    assert ad.hockey_stick(law, 3, L - mp.mpf("1e-9"), digits=10) > 0
    assert ad.hockey_stick(law, 3, L / 2, digits=10) > 0.5


def test_theorem_13_first_case_formula_understates_for_beta_above_1():
    f = tight_gdl.theorem13_value(2, 1, 1, digits=15)
    assert mp.nstr(f, 4) == "0.4338"
    assert tight_gdl.tight_epsilon(2, 1, 1).epsilon == 1
    # a point where the loss exceeds the formula: the formula is not an upper bound there
    assert tight_gdl.loss(20, 1, 2, 1, digits=15) > f + 0.4


def test_corollary_14_regions():
    r = hm25.check_corollary_14()
    assert r.verdict == "holds" and r.points >= 60
    assert "1 <= beta <= Delta: " in r.notes and "beta > Delta: " in r.notes
    ok, total = r.notes.split("1 <= beta <= Delta: ")[1].split(" hold")[0].split("/")
    assert ok == total                                   # all hold for 1 <= beta <= Delta
    ex = r.counterexamples[0]
    assert (ex["beta"], ex["a"], ex["Delta"], ex["bound"], ex["exact"]) == ("10", "1", 5, "4.307", "5.0")


def test_theorem_15_and_its_hypothesis():
    r = hm25.check_theorem_15()
    assert r.verdict == "holds" and r.points == 19
    assert "Delta=1000, eps=9.008: eps* = 2.22971" in r.notes
    # outside the hypothesis (eps < 2): beta > 1, eps* = a Delta = 2 > eps: the conclusion fails there
    D, e = 10, mp.mpf("1.5")
    b = D * mp.exp(2 - e)
    assert b > 1 and tight_gdl.tight_epsilon(b, mp.mpf(2) / D, D).epsilon > e
    # points violating the hypothesis are refused, not counted
    assert hm25.check_theorem_15(grid=[(1000, "8")]).points == 0


def test_gdl_sum_and_broken_variants_are_caught():
    assert hm25.check_gdl_sum().verdict == "holds"
    bad = hm25.check_theorem_13(grid=hm25.GRID_13[:4], formula=lambda b, a, D, d: tight_gdl.theorem13_value(
        b, a, D, digits=d) * (1 - mp.mpf("1e-8")))
    assert bad.verdict == "fails" and bad.counterexamples
    assert hm25.check_corollary_14(grid=hm25.GRID_13, bound=lambda b, a, D: a * D + mp.log(1 / b)).verdict == "fails"


def test_docs_page_renders_the_code_table():
    # docs/explanation/hm25.md renders hm25.eps_table() at build time (arete_site's "hm25-gdl-epsilon")
    text = (ROOT / "docs" / "explanation" / "hm25.md").read_text()
    assert "```{arete-table} hm25-gdl-epsilon" in text
    assert hm25.eps_table().splitlines()[0].startswith("| beta | a | Delta | exact eps* |")
