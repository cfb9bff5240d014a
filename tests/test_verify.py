"""Grid verification of the proof chain: every statement holds on its quick grid,
every grid point satisfies its hypotheses, and every deliberately broken variant
(a right-hand side shrunk just below the smallest observed slack, a dropped
hypothesis, a perturbed constant) is reported as violated."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
import sympy as sp
from mpmath import mp

from arete_proofs.chain import grids, registry, verify as V
from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS
from arete_proofs.chain.symbols import Delta, alpha, eps, lam, t, theta

PAPER_IDS = ("lemma-2", "lemma-3", "corollary-5", "lemma-14", "lemma-15", "lemma-16", "claim-1", "lemma-17",
             "lemma-18", "note-2", "lemma-19", "lemma-26", "lemma-27", "lemma-28")


@pytest.fixture(scope="module")
def quick_report():
    """One in-process run of every statement on the quick grid."""
    return V.verify(level="quick", progress=False)


def _with_statement(monkeypatch, st):
    monkeypatch.setitem(REGISTRY, st.id, st)
    V._COMPILED.pop(st.id, None)
    return st


# --------------------------------------------------------------------------
# the registry
# --------------------------------------------------------------------------

def test_registry_has_exactly_the_paper_ids():
    assert set(STATEMENT_IDS) == set(PAPER_IDS)


def test_uses_refer_to_registered_statements_and_form_a_dag():
    graph = {sid: set(REGISTRY[sid].uses) for sid in STATEMENT_IDS}
    for sid, uses in graph.items():
        assert uses <= set(STATEMENT_IDS), sid
    done, visiting = set(), set()

    def visit(sid):
        assert sid not in visiting, f"cycle through {sid}"
        if sid in done:
            return
        visiting.add(sid)
        for u in graph[sid]:
            visit(u)
        visiting.discard(sid)
        done.add(sid)

    for sid in graph:
        visit(sid)


def test_no_bound_is_written_twice():
    # Lemma 18's record checks the step from Lemmas 16 and 17 with *their* right-hand sides
    rhs16 = REGISTRY["lemma-16"].bounds[0].rhs
    rhs17 = REGISTRY["lemma-17"].bounds[0].rhs
    from18 = {b.name: b for b in REGISTRY["lemma-18"].bounds}
    assert from18["from-16"].lhs == rhs16.subs(registry.D_u, alpha * theta)
    assert from18["from-17"].lhs == rhs17.subs(registry.D_u, alpha * theta)
    eq8 = next(b for b in REGISTRY["lemma-19"].bounds if b.name == "eq-8")
    assert eq8.lhs == from18["ratio"].rhs.subs(registry.D_Gamma, alpha * theta)


@pytest.mark.parametrize("level", ["quick", "default"])
@pytest.mark.parametrize("sid", PAPER_IDS)
def test_every_grid_point_satisfies_the_hypotheses(sid, level):
    st = REGISTRY[sid]
    points = st.points(level)
    assert points, f"{sid} has an empty {level} grid"
    needed = st.free_symbols() - set(st.substitutions) - {registry.c_L}
    for p in points:
        assert not st.hypotheses_at(p), (p, st.hypotheses_at(p))
        assert needed <= set(p), needed - set(p)
        assert all(not isinstance(v, sp.Float) for v in p.values()), f"inexact grid value in {p}"


def test_grids_span_the_papers_ranges():
    pts = REGISTRY["lemma-16"].points("default")
    alphas = {p[alpha] for p in pts}
    assert sp.exp(-15) in alphas and 1 in alphas
    ts = [p[t] for p in REGISTRY["lemma-18"].points("default")]
    assert any(0 < x < sp.Rational(1, 10**10) for x in ts)          # tiny t near 0
    assert any(x < 0 for x in ts)                                    # t down to -Delta/2
    lam_over_max = {p[lam] / sp.Min(p[theta] / 2, p[Delta] / sp.log(2))
                    for p in REGISTRY["lemma-18"].points("default")}
    assert 1 in lam_over_max                                         # the boundary itself


def test_bad_grid_level():
    with pytest.raises(ValueError, match="grid level"):
        grids.lemma_2("huge")


# --------------------------------------------------------------------------
# the check
# --------------------------------------------------------------------------

@pytest.mark.parametrize("sid", PAPER_IDS)
def test_statement_holds_on_quick_grid(quick_report, sid):
    s = next(s for s in quick_report.statements if s.id == sid)
    assert s.points > 0
    assert s.violations == 0, [b.examples for b in s.bounds]
    assert not s.grid_errors
    assert all(b.points > 0 for b in s.bounds), [b.name for b in s.bounds if not b.points]


def test_report_json_shape(quick_report):
    doc = quick_report.to_json()
    json.dumps(doc)
    s = doc["statements"][0]
    for key in ("id", "points", "violations", "min_slack", "argmin"):
        assert key in s
    assert quick_report.ok


@pytest.mark.parametrize("sid", PAPER_IDS)
def test_rhs_shrunk_below_min_slack_is_caught(quick_report, monkeypatch, sid):
    """Every inequality, with its rhs shrunk just below its smallest slack, is violated;
    every equality, perturbed by 1e-8, is violated."""
    s = next(s for s in quick_report.statements if s.id == sid)
    slack = {b.name: b.min_slack for b in s.bounds}
    st = REGISTRY[sid]
    broken = []
    for b in st.bounds:
        if b.relation == "==":
            broken.append(dataclasses.replace(b, rhs=b.rhs * (1 + sp.Rational(1, 10**8))))
        else:
            m = slack[b.name]
            assert math.isfinite(m)
            delta = 1e-6 * max(1.0, abs(m))
            cut = sp.Float(m + delta, 30) if m + delta > 0 else sp.Float(delta, 30)
            broken.append(dataclasses.replace(b, rhs=b.rhs * sp.exp(-cut)))
    _with_statement(monkeypatch, dataclasses.replace(st, id="broken", bounds=tuple(broken)))
    rep = V.verify(["broken"], level="quick", progress=False)
    r = rep.statements[0]
    assert not rep.ok
    for b in r.bounds:
        assert b.violations >= 1, f"{sid} [{b.name}] shrunk below its slack was not caught"
        ex = b.examples[0]
        assert ex["lhs"] and ex["rhs"] and ex["point"]


def test_dropped_hypothesis_lemma_14_alpha(monkeypatch):
    """Lemma 14 needs alpha <= 1 (f_Gamma decreasing): drop it and take alpha = 5/2."""
    st = REGISTRY["lemma-14"]
    hyps = tuple(h for h in st.hypotheses if h != (alpha <= 1))
    assert len(hyps) == len(st.hypotheses) - 1

    def grid(level):
        return [{**p, alpha: sp.Rational(5, 2)} for p in st.points("quick")]

    _with_statement(monkeypatch, dataclasses.replace(st, id="broken", hypotheses=hyps, grid=grid))
    rep = V.verify(["broken"], level="quick", progress=False)
    upper = next(b for b in rep.statements[0].bounds if b.name == "upper")
    assert upper.violations >= 1


def test_perturbed_constant_lemma_26(monkeypatch):
    """The Laplace mechanism with lam = 0.9 Delta/eps is not eps-DP."""
    st = REGISTRY["lemma-26"]
    _with_statement(monkeypatch, dataclasses.replace(
        st, id="broken", substitutions={lam: sp.Rational(9, 10) * Delta / eps}))
    rep = V.verify(["broken"], level="quick", progress=False)
    assert rep.statements[0].violations >= 1


def test_grid_point_violating_hypotheses_is_an_error(monkeypatch):
    st = REGISTRY["lemma-28"]

    def grid(level):
        p = dict(st.points("quick")[0])
        p[alpha] = sp.Integer(2)   # violates 0 < alpha < 1
        return [p]

    _with_statement(monkeypatch, dataclasses.replace(st, id="broken", grid=grid))
    rep = V.verify(["broken"], level="quick", progress=False)
    assert rep.statements[0].grid_errors and not rep.ok
    assert rep.statements[0].points == 0   # never counted as a pass


def test_tight_points_are_reevaluated_at_higher_precision(quick_report):
    s = next(s for s in quick_report.statements if s.id == "lemma-26")
    assert s.tight > 0                       # the Laplace mechanism attains e^eps
    assert s.argmin["digits"] == V.MAX_DIGITS
    assert abs(s.min_slack) < 1e-70


def test_violation_within_first_precision_is_found_by_escalation(monkeypatch):
    """rhs shrunk by e^-1e-30: invisible at 20 digits, a violation at 40."""
    st = REGISTRY["lemma-26"]
    b = st.bounds[0]
    _with_statement(monkeypatch, dataclasses.replace(
        st, id="broken", bounds=(dataclasses.replace(b, rhs=b.rhs * sp.exp(-sp.Rational(1, 10**30))),)))
    rep = V.verify(["broken"], level="quick", digits=20, progress=False)
    r = rep.statements[0]
    assert r.violations >= 1
    assert r.bounds[0].examples[0]["digits"] >= 40


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown statement"):
        V.verify(["lemma-99"], level="quick", progress=False)
    with pytest.raises(ValueError, match="workers"):
        V.verify(["note-2"], level="quick", workers=0, progress=False)
    with pytest.raises(ValueError, match="digits"):
        V.verify(["note-2"], level="quick", digits=5, progress=False)


def test_runs_at_default_mp_precision_without_leaking():
    before = mp.dps
    V.verify(["note-2"], level="quick", progress=False)
    assert mp.dps == before


# --------------------------------------------------------------------------
# baseline
# --------------------------------------------------------------------------

BASELINE = "tests/data/verify_quick_baseline.json"


def test_quick_grid_matches_committed_baseline(quick_report):
    """Regression: the committed report of the quick grid (regenerate with
    ``arete verify --grid quick --json tests/data/verify_quick_baseline.json``)."""
    baseline = V.load_report(BASELINE)
    assert V.compare_baseline(quick_report, baseline) == []


def test_baseline_detects_changes(quick_report):
    doc = quick_report.to_json()
    assert V.compare_baseline(doc, doc) == []
    changed = json.loads(json.dumps(doc))
    s = next(s for s in changed["statements"] if s["id"] == "lemma-16")
    s["min_slack"] = float(s["min_slack"]) * 1.01
    problems = V.compare_baseline(doc, changed)
    assert any("lemma-16" in p and "dropped" in p for p in problems)
    s["min_slack"] = float(s["min_slack"]) / 1.01 / 1.01
    assert any("weakened" in p for p in V.compare_baseline(doc, changed))
    s["points"] += 1
    assert any("different grid" in p for p in V.compare_baseline(doc, changed))
    other = dict(doc, grid="default")
    assert V.compare_baseline(doc, other)
    bad = json.loads(json.dumps(doc))
    bad["statements"][0]["violations"] = 1
    assert V.compare_baseline(bad, doc)


# --------------------------------------------------------------------------
# parallel and Dask
# --------------------------------------------------------------------------

def test_two_workers_give_the_same_report(quick_report):
    rep = V.verify(["lemma-17", "lemma-26"], level="quick", workers=2, progress=False)
    for s in rep.statements:
        ref = next(r for r in quick_report.statements if r.id == s.id)
        assert (s.points, s.violations, s.tight) == (ref.points, ref.violations, ref.tight)
        assert s.min_slack == ref.min_slack


def test_dask_local_cluster(quick_report):
    distributed = pytest.importorskip("dask.distributed", reason="optional extra 'dask' not installed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        rep = V.verify(["lemma-28", "lemma-17"], level="quick", dask_address=client, progress=False)
    for s in rep.statements:
        ref = next(r for r in quick_report.statements if r.id == s.id)
        assert (s.points, s.violations, s.min_slack) == (ref.points, ref.violations, ref.min_slack)
