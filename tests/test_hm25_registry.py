"""The 2025 paper's GDL statements as registry records (hm25-...): present beside the first paper's chain,
grids inside their hypotheses, holding on the quick grid, broken variants caught, the false literal readings
refuted with counterexamples, and ``arete verify --statement hm25-...`` working."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp
from mpmath import mp

from arete_proofs.chain import hm25, observations, registry, verify as V
from arete_proofs.chain.gdl_symbols import COR14, L13, a_GDL, beta, beta_2, conv_GDL, f_GDL, k
from arete_proofs.chain.registry import ALL_IDS, HM25_IDS, PAPER_2022, PAPERS, REGISTRY, STATEMENT_IDS
from arete_proofs.chain.symbols import Delta, eps
from arete_proofs.cli import main

HM25 = ("hm25-gdl-sum", "hm25-theorem-13", "hm25-corollary-14", "hm25-theorem-15")
#: The MSDLap, continuous and variance records after them (tests/test_hm25_paper.py).
LATER = ("hm25-theorem-16", "hm25-theorem-18", "hm25-theorem-21", "hm25-variance-gdl", "hm25-variance-msdlap",
         "hm25-variance-theorem-21")
SOURCE = "Harrison & Manurangsi (FORC 2025), reconstructed"


def test_records_beside_the_first_paper():
    assert HM25_IDS == HM25 + LATER
    assert ALL_IDS == STATEMENT_IDS + HM25_IDS and not set(HM25_IDS) & set(STATEMENT_IDS)
    assert PAPERS == {PAPER_2022: STATEMENT_IDS, SOURCE: HM25_IDS}
    assert all(REGISTRY[i].paper == SOURCE for i in HM25_IDS)
    assert all(REGISTRY[i].paper == "Pagh & Stausholm (ALT 2022)" for i in STATEMENT_IDS)
    assert registry.get("hm25-theorem-13").number == "Theorem 13 (HM25)"
    assert registry.by_paper(["hm25-theorem-15", "lemma-2"]) == {PAPER_2022: ["lemma-2"], SOURCE: ["hm25-theorem-15"]}
    # uses stay inside the second paper and form a chain 15 -> 14 -> 13 -> sum
    assert REGISTRY["hm25-theorem-15"].uses == ("hm25-corollary-14",)
    assert all(set(REGISTRY[i].uses) <= set(HM25_IDS) for i in HM25_IDS)


def test_default_verify_set_is_the_first_papers(monkeypatch):
    # verify() without statements checks STATEMENT_IDS only (the 2022 chain, unchanged): no grid is run here
    monkeypatch.setattr(registry.Statement, "points", lambda self, level="default": [])
    rep = V.verify(level="quick", progress=False)
    assert [s.id for s in rep.statements] == list(STATEMENT_IDS)
    rep = V.verify(["hm25-corollary-14", "lemma-2"], level="quick", progress=False)
    assert [s.id for s in rep.statements] == ["hm25-corollary-14", "lemma-2"]


@pytest.mark.parametrize("level", ["quick", "default"])
@pytest.mark.parametrize("sid", HM25)
def test_every_grid_point_satisfies_the_hypotheses(sid, level):
    st = REGISTRY[sid]
    pts = st.points(level)
    assert pts
    assert all(not st.hypotheses_at(p) for p in pts)
    if sid == "hm25-theorem-15":
        # the threshold region: eps within 1e-3 of 2 + ln Delta (beta just below 1)
        assert any(sp.N(p[eps] - 2 - sp.log(p[Delta])) < 0.0011 for p in pts)
    if sid == "hm25-theorem-13":
        assert {True, False} <= {bool(p[beta] < 1) for p in pts}       # both cases


def test_hypotheses_refuse_bad_points():
    st = REGISTRY["hm25-theorem-15"]
    assert st.hypotheses_at({Delta: 10, eps: 2 + sp.log(10)})          # eps = 2 + ln Delta is not > it
    assert st.hypotheses_at({Delta: sp.Rational(5, 2), eps: 20})        # Delta not an integer
    assert REGISTRY["hm25-corollary-14"].hypotheses_at({beta: 1, a_GDL: 1, Delta: 2})


@pytest.fixture(scope="module")
def quick():
    return {s.id: s for s in V.verify(list(HM25), level="quick", progress=False).statements}


@pytest.mark.parametrize("sid", HM25)
def test_holds_on_the_quick_grid(quick, sid):
    s = quick[sid]
    assert s.points > 0 and s.violations == 0 and not s.grid_errors
    assert all(b.points > 0 for b in s.bounds), [b.name for b in s.bounds if not b.points]


def test_equalities_are_tight_to_80_digits(quick):
    # the equality bounds agree to the largest precision (closed form = brute force = NB convolution)
    t13 = {b.name: b for b in quick["hm25-theorem-13"].bounds}
    for name in ("closed-form", "brute-force", "pmf-ratio", "second-case"):
        assert t13[name].tight == t13[name].points > 0, name
        assert t13[name].argmin["digits"] == V.MAX_DIGITS


def _replace_bound(sid, name, **kw):
    st = REGISTRY[sid]
    bounds = tuple(dataclasses.replace(b, **kw) if b.name == name else b for b in st.bounds)
    return dataclasses.replace(st, bounds=bounds)


@pytest.mark.parametrize("sid, name, change", [
    ("hm25-theorem-13", "closed-form", {"rhs": L13 - sp.Rational(1, 1000)}),      # a value 1e-3 too small
    ("hm25-theorem-13", "brute-force", {"rhs": a_GDL * Delta}),                   # beta < 1: the tail value is too small
    ("hm25-corollary-14", "bound", {"rhs": COR14 - sp.log(Delta / beta)}),        # a Delta alone is not a bound
    ("hm25-theorem-15", "privacy", {"rhs": eps - sp.Rational(1, 10)}),            # eps* is close to eps at Delta = 1
    ("hm25-theorem-15", "variance", {"rhs": Delta**3 * sp.exp(-eps) / 2}),        # the e^2 is needed
    ("hm25-gdl-sum", "sum", {"rhs": f_GDL(k, beta + beta_2 + sp.Rational(1, 100), a_GDL)}),
])
def test_broken_variants_are_caught(sid, name, change):
    st = _replace_bound(sid, name, **change)
    rep = V.verify([st], level="quick", progress=False).statements[0]
    b = next(b for b in rep.bounds if b.name == name)
    assert b.violations > 0 and b.examples, (sid, name)


def test_sum_bound_reads_the_convolution():
    b = next(b for b in REGISTRY["hm25-gdl-sum"].bounds if b.name == "sum")
    assert b.lhs == conv_GDL(k, beta, beta_2, a_GDL)


def test_literal_readings_are_refuted_with_counterexamples():
    literal = ("hm25-theorem-13-literal", "hm25-theorem-13-beta-gt-1", "hm25-corollary-14-beta-gt-Delta")
    assert set(literal) < set(observations.HM25_OBSERVATION_IDS)      # beside the tightness ones (hm25_msdlap)
    obs = {o.id: o for o in observations.run(literal, digits=20)}
    for o in obs.values():
        assert o.verdict == "fails" and o.holds_literal is False
        assert o.evidence["violations"] > 0 and o.evidence["counterexample"]["point"]
    # eps = L/2 at (0.5, 0.7, 1): delta > 0, the literal claim says 0
    ex = obs["hm25-theorem-13-literal"].evidence["counterexample"]
    assert float(ex["lhs"]) > 0.1 and ex["rhs"] == "0"
    # beta = 2, a = 0.7, Delta = 1: the first-case formula is ln p(0)/p(1) < a Delta = 0.7
    ex = obs["hm25-theorem-13-beta-gt-1"].evidence["counterexample"]
    assert ex["point"] == {"Delta": "1", "a_GDL": "7/10", "beta": "2"} and ex["lhs"] == "0.7"
    assert float(ex["rhs"]) < 0.7


def test_corollary_14_beyond_beta_gt_delta_matches_the_earlier_check():
    # the earlier check (chain.hm25, the previous session) found (beta, a, Delta) = (10, 1, 5): eps* = 5 > 5 + ln(1/2)
    v = observations.literal_variants()["hm25-corollary-14-beta-gt-Delta"]
    st = dataclasses.replace(v, grid=lambda level: [{beta: 10, a_GDL: 1, Delta: 5}])
    rep = V.verify([st], level="quick", progress=False).statements[0]
    b = rep.bounds[0]
    assert b.violations == 1
    assert mp.almosteq(mp.mpf(b.examples[0]["lhs"]), 5) and b.examples[0]["rhs"].startswith("4.306852")
    old = hm25.check_corollary_14(grid=[("10", "1", 5)])
    assert old.counterexamples[0]["exact"] == "5.0"


def test_cli_verify_statement_hm25(capsys):
    code = main(["verify", "--grid", "quick", "--statement", "hm25-theorem-13", "--statement", "hm25-theorem-15",
                 "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    rows = [line for line in out.splitlines() if line.startswith("hm25-")]
    assert [r.split()[0] for r in rows] == ["hm25-theorem-13", "hm25-theorem-15"]
    assert "Theorem 13 (HM25)" in rows[0]


def test_symbolic_checks_of_the_algebra():
    from arete_proofs.chain import symbolic
    from arete_proofs.chain.symbolic import hm25 as S

    res = {r.id: r for r in symbolic.run(["hm25-theorem-13/pmf-ratio", "hm25-theorem-15/algebra"])}
    assert all(r.holds for r in res.values()), {k: r.detail for k, r in res.items()}
    assert REGISTRY["hm25-theorem-13"].check_kinds == "N+S" == REGISTRY["hm25-theorem-15"].check_kinds
    # a wrong constant in the variance bound is not the algebra's
    assert not S.theorem_15_check(constant=sp.Rational(1, 2)).holds
