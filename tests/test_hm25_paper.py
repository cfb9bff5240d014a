"""The 2025 paper's Theorems 16, 18, 21 and variance formulas as registry records (issue 23.5).

Reference values: the exact tight epsilons of Theorem 21 (eps = 2: 1.2779609635, eps = 6:
5.3203031277) are those of the recorded comb certificates of tests/test_certify_combs.py (ball arithmetic); Theorem 16's
eps* = eps is the tail profile's shift s = Delta (arete_proofs.privacy.tight_discrete).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mpmath import mp

from arete_proofs.chain import verify as V
from arete_proofs.chain.registry import HM25_IDS, PAPERS, REGISTRY, STATEMENT_IDS
from arete_proofs.cli import main

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "docs" / "data" / "verify-hm25.json"
NEW = ["hm25-theorem-16", "hm25-theorem-18", "hm25-theorem-21", "hm25-variance-gdl", "hm25-variance-msdlap",
       "hm25-variance-theorem-21"]


def test_new_records_are_the_second_papers():
    assert set(NEW) <= set(HM25_IDS) and not set(NEW) & set(STATEMENT_IDS)
    assert all(REGISTRY[i].paper == REGISTRY["hm25-theorem-13"].paper for i in NEW)


def test_quick_grid_holds():
    rep = V.verify(NEW, level="quick", progress=False)
    for s in rep.statements:
        assert s.points > 0 and s.violations == 0 and not s.grid_errors, s.id


def test_theorem_16_is_tight_and_theorem_21_has_room():
    rep = V.verify(["hm25-theorem-16", "hm25-theorem-21"], level="quick", progress=False)
    t16, t21 = rep.statements
    # eps* = eps exactly at every point (the coupling-bound shortcut of tight_discrete, no window); the
    # finite window's maximum W is computed anyway and is strictly below eps, by a gap far above the
    # working precision (a real slack, not the inf of a window never computed)
    for b in t16.bounds:
        assert b.violations == 0
        if b.name in ("privacy", "exact"):
            assert b.tight == b.points > 0, b.name
    na = next(b for b in t16.bounds if b.name == "not-attained")
    assert na.points == 2 and na.tight == 0 and 1e-6 < na.min_slack < 1e-2
    privacy = next(b for b in t21.bounds if b.name == "privacy")
    assert privacy.min_slack > 0.4                       # ln(2/1.278) = 0.448 at eps = 2


def test_mutants_are_refuted_on_the_quick_grid():
    from arete_proofs.chain.mutants import HM25, variants

    for v in variants(HM25):
        s = V.verify([v.statement], level="quick", progress=False).statements[0]
        assert s.violations > 0, v.name


def test_theorem_16_not_attained_catches_a_broken_window(monkeypatch):
    """A scaled pmf table with a wrong rate (lambda + 10^-3) pushes the window's loss above eps: caught."""
    from arete_proofs.privacy import tight_discrete as td

    good = td.scaled_pmf_table

    def broken(K, w, r, *, digits):
        return [v * mp.exp(-mp.mpf("1e-3") * k) for k, v in enumerate(good(K, w, r, digits=digits))]

    monkeypatch.setattr(td, "scaled_pmf_table", broken)
    s = V.verify(["hm25-theorem-16"], level="quick", progress=False).statements[0]
    na = next(b for b in s.bounds if b.name == "not-attained")
    assert na.violations == na.points == 2
    assert all(b.violations == 0 for b in s.bounds if b.name != "not-attained")   # eps* never used the table


def test_a_wrong_variance_is_caught():
    import dataclasses

    import sympy as sp

    st = REGISTRY["hm25-variance-msdlap"]
    b = st.bounds[1]                                      # second moment = S2(m)/(cosh a - 1)
    bad = dataclasses.replace(st, bounds=(dataclasses.replace(b, rhs=b.rhs * sp.Rational(101, 100)),))
    assert V.verify([bad], level="quick", progress=False).statements[0].violations > 0


def test_variant_text_with_the_second_papers_names():
    from arete_proofs.chain.variants import load_text

    text = ('[[variant]]\nname = "fewer-scales"\nstatement = "hm25-theorem-21"\nbound = "variance-order"\n'
            'lhs = "Delta**2*(1/2 + (ceiling(exp(eps/4)) + 1)*(2*ceiling(exp(eps/4)) + 1)*ceiling(exp(eps/4))'
            '/(6*(cosh(eps - 1) - 1)))/ceiling(exp(eps/4))**2"\n')
    v = load_text(text)[0]
    assert V.verify([v.statement], level="quick", progress=False).statements[0].violations == 1


def test_every_hm25_bound_prints_and_parses_back():
    from arete_proofs.chain.expressions import parse_expression

    for i in HM25_IDS:
        for b in REGISTRY[i].bounds:
            assert parse_expression(str(b.lhs)) == b.lhs and parse_expression(str(b.rhs)) == b.rhs, (i, b.name)


def test_search_rounds_integer_delta_and_refutes_the_variance_mutant():
    from arete_proofs.chain.mutants import variants
    from arete_proofs.chain.search import search_bound

    v = variants(["hm25-21-m-e4"])[0].statement
    r = search_bound(v, v.bounds[0], budget=120, level="quick", progress=False)
    assert r.refuted
    r = search_bound("hm25-theorem-15", "variance", budget=80, level="quick", progress=False)
    assert r.status in ("holds", "tight") and r.point and float(r.point["Delta"]).is_integer()


def test_symbolic_checks():
    from arete_proofs.chain.symbolic.hm25_variance import hm25_variances_check, theorem_21_variance_check

    assert hm25_variances_check().holds and theorem_21_variance_check().holds


def test_observations_theorem_16_and_21():
    from arete_proofs.chain.observations.hm25_msdlap import check_hm25_theorem_16_tail, check_hm25_theorem_21_budget

    o = check_hm25_theorem_16_tail(12)
    assert o.verdict == "holds" and not any(p["attained"] for p in o.evidence["points"])
    o = check_hm25_theorem_21_budget(10, eps_values=(2,))
    assert mp.almosteq(mp.mpf(o.evidence["points"][0]["eps*"]), mp.mpf("1.2779609635"), 1e-9)


def test_paper_selection(capsys, tmp_path):
    report = tmp_path / "r.json"
    code = main(["verify", "--paper", "hm25", "--grid", "quick", "--quiet", "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 0 and "hm25-theorem-21" in out and "lemma-19" not in out
    assert [s["id"] for s in json.loads(report.read_text())["statements"]] == list(HM25_IDS)
    code = main(["verify", "--paper", "hm25", "--statement", "lemma-2", "--grid", "quick"])
    err = capsys.readouterr().err
    assert code == 2 and "--paper" in err and len(err.strip().splitlines()) == 1


def test_paper_keys_follow_the_registry():
    from arete_proofs.cli.verify import PAPER_KEYS

    assert set(PAPER_KEYS.values()) == set(PAPERS)


def test_committed_report_matches_a_fresh_run_of_the_cheap_statements():
    """About 5 s: the cheap statements of ``docs/data/verify-hm25.json`` rerun on the default grid.

    Regenerate with ``arete verify --paper hm25 --symbolic --observations --json docs/data/verify-hm25.json``.
    """
    doc = json.loads(REPORT.read_text())
    assert [s["id"] for s in doc["statements"]] == list(HM25_IDS) and doc["grid"] == "default"
    assert all(s["violations"] == 0 for s in doc["statements"]) and all(r["holds"] for r in doc["symbolic"])
    cheap = ["hm25-theorem-18", "hm25-variance-msdlap", "hm25-variance-theorem-21"]
    report = V.verify(cheap, level="default", progress=False)
    sub = dict(doc, statements=[s for s in doc["statements"] if s["id"] in cheap])
    assert V.compare_baseline(report, sub) == []


@pytest.mark.slow
def test_committed_report_matches_a_fresh_run():
    doc = json.loads(REPORT.read_text())
    report = V.verify(list(HM25_IDS), level="default", progress=False)
    assert V.compare_baseline(report, doc) == []
