"""Certified region of Lemma 3's parameters (arete_proofs.certified.region, region_map, ``arete certify-region``).

Reference values: the tight epsilons quoted come from the mpmath engine
(``arete_proofs.privacy.tight.tight_epsilon``, an independent code path: its own
density engine and cover), e.g. E(8, 100) = 8.361 and E(8.5, 1) = 5.088 (issue 14's table).
"""

from __future__ import annotations

import copy
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint")

from arete_proofs.certified import region as R  # noqa: E402
from arete_proofs.certified import region_map as M  # noqa: E402
from arete_proofs.cli.parser import main  # noqa: E402
from arete_proofs.privacy.optimize import estimate_epsilon  # noqa: E402
from arete_proofs.privacy.tight import tight_epsilon  # noqa: E402


@pytest.fixture(scope="module")
def small_cert():
    # Delta = 1, eps in [6, 9]: E(9, 1) = 5.5 <= 6, so one private cell, plus a second column at
    # Delta = 100 with eps in [8, 8.25]: E(8, 100) = 8.36 > 8.25, not private
    a = M.certify_region(("6", "9"), ("1", "1"), min_width="4", progress=False)
    b = M.certify_region(("8", "33/4"), ("100", "100"), min_width="4", progress=False)
    return a, b


def test_corners_contain_the_cells_parameters():
    b = R.corners("8", "9", "1", "2")
    for eps in (8, 8.5, 9):
        for d in (1, 1.5, 2):
            assert b["alpha"][0] <= math.exp(-eps / 4) <= b["alpha"][1]
            assert b["theta"][0] <= Fraction(4) / Fraction(eps) <= b["theta"][1]
            assert b["lam"][0] <= math.exp(-eps / 4) / d <= b["lam"][1]


def test_monotonicity_fact_numerically():
    # the analytic fact the cells rest on: eps* is non-increasing in alpha, theta and lam
    base = (0.1, 0.5, 0.1)
    e = estimate_epsilon(*base).epsilon
    for i in range(3):
        p = list(base)
        p[i] *= 1.2
        assert estimate_epsilon(*p).epsilon < e


def test_private_cell_agrees_with_the_engine(small_cert):
    a, _ = small_cert
    (cell,) = a["cells"]
    assert cell["status"] == "private" and cell["bound"] <= 6
    lo = R.corners("6", "9", "1", "1")
    te = tight_epsilon(*(x[0] for x in lo.values()), 1, digits=8).epsilon
    assert float(te) <= cell["bound"] * (1 + 1e-7)     # the certified bound is above the engine's value


def test_not_private_cell_is_never_private(small_cert):
    _, b = small_cert
    (cell,) = b["cells"]
    assert cell["status"] == "not private" and cell["witness"]["lower"] > 8.25
    hi = R.corners("8", "33/4", "100", "100")
    te = tight_epsilon(*(x[1] for x in hi.values()), 1, digits=8).epsilon
    assert float(te) >= cell["witness"]["lower"] - 1e-7 * float(te)   # digits=8: relative error 1e-8
    # the private proof must fail at every level below the truth
    lo = [x[0] for x in R.corners("8", "33/4", "100", "100").values()]
    assert R.prove_private(*lo, Fraction(8), max_seconds=20) is None


def test_check_accepts_honest_certificates(small_cert):
    for doc in small_cert:
        rep = M.check_certificate(doc, progress=False)
        assert rep.ok and rep.tiling == "ok" and rep.code_matches


def test_check_rejects_edited_claims(small_cert):
    a, b = small_cert
    # 1. the not-private cell relabelled private with the other cell's proof
    bad = copy.deepcopy(b)
    bad["cells"][0].update(status="private", bound=1.0, proof=a["cells"][0]["proof"])
    assert not M.check_certificate(bad, progress=False).ok
    # 2. the private cell's box widened to smaller eps (claims more): the file's bound is not trusted
    bad = copy.deepcopy(a)
    bad["box"]["eps"][0] = bad["cells"][0]["eps"][0] = "4"
    bad["cells"][0]["bound"] = 0.0
    rep = M.check_certificate(bad, progress=False)
    assert not rep.ok and rep.failed == [0]
    # 3. a deliberately wrong proof: the cover cut short (no longer reaches T)
    if a["cells"][0]["proof"]["method"] == "cover":
        bad = copy.deepcopy(a)
        bad["cells"][0]["proof"]["points"] = bad["cells"][0]["proof"]["points"][:-1]
        assert not M.check_certificate(bad, progress=False).ok
    # 4. a witness moved to where the loss is small
    bad = copy.deepcopy(b)
    bad["cells"][0]["witness"]["t"] = 5.0
    assert not M.check_certificate(bad, progress=False).ok


def test_check_rejects_a_broken_tiling(small_cert):
    a, _ = small_cert
    bad = copy.deepcopy(a)
    bad["box"]["eps"][1] = "10"            # the box is larger than the cells cover
    assert M._tiling(bad) != "ok"
    bad = copy.deepcopy(a)
    bad["cells"].append(copy.deepcopy(bad["cells"][0]))   # a duplicate cell
    assert M._tiling(bad) != "ok"
    # a 2-D tiling: four quarters are fine, overlapping or missing quarters are not
    q = [{"eps": [e0, e1], "sensitivity": [d0, d1]} for e0, e1 in (("0", "1"), ("1", "2"))
         for d0, d1 in (("1", "2"), ("2", "3"))]
    doc = {"box": {"eps": ["0", "2"], "sensitivity": ["1", "3"]}, "cells": q}
    assert M._tiling(doc) == "ok"
    assert M._tiling(dict(doc, cells=q[:3])) != "ok"
    overlapping = [{"eps": ["0", "2"], "sensitivity": ["1", "2"]}, {"eps": ["0", "1"], "sensitivity": ["3/2", "5/2"]},
                   {"eps": ["1", "2"], "sensitivity": ["2", "3"]}]   # same total area 4, one overlap, one gap
    assert "overlap" in M._tiling(dict(doc, cells=overlapping))


def test_children_cut_open_strips_by_their_gap():
    F = Fraction
    # an open part 0.5 wide in ln Delta with max_gap 0.1: ceil(1.5 * 5) = 8 strips
    kids = M._children(F(0), F(1, 4), F(1), F(math.exp(0.5)), F(1, 64), F(1, 10))
    assert len(kids) == 8 and kids[0] == (0, F(1, 32), 1, F(math.exp(0.5))) and kids[-1][1] == F(1, 4)
    # narrow enough: final; but a wide strip is cut while its undecided area exceeds max_gap / 4
    assert M._children(F(0), F(1, 4), F(1), F(1.05), F(1, 64), F(1, 10)) is None
    assert len(M._children(F(0), F(4), F(1), F(1.05), F(1, 64), F(1, 10))) == 12
    # one Delta: halves, down to min_width
    assert M._children(F(0), F(1), F(3), F(3), F(1, 4), F(1, 10)) == [(0, F(1, 2), 3, 3), (F(1, 2), 1, 3, 3)]
    assert M._children(F(0), F(1, 4), F(3), F(3), F(1, 4), F(1, 10)) is None
    # never narrower than min_width: a wide gap with little width left gives fewer pieces
    kids = M._children(F(0), F(1, 10), F(1), F(100), F(1, 32), F(1, 10))
    assert len(kids) == 3 and all(k[1] - k[0] >= F(1, 32) for k in kids)


def test_strips_are_private_below_and_not_private_above():
    # E(eps, Delta) is non-decreasing in Delta: in every strip the private cell lies below the open
    # part, which lies below the not-private cell; the float guide agrees on either side
    r = M.certify_region(("19", "21"), ("100", "1000"), min_width="1/4", max_gap="0.2", progress=False)
    assert M._tiling(r) == "ok" and r["summary"]["counts"]["private"] >= 1
    for c in r["cells"]:
        e0, e1 = (float(Fraction(x)) for x in c["eps"])
        d0, d1 = (float(Fraction(x)) for x in c["sensitivity"])
        if c["status"] == "private":
            assert R._E(e1, math.log(d1)) < e0
        elif c["status"] == "not private":
            assert R._E(e0, math.log(d0)) > e1
        else:   # undecided: at most max_gap wide in ln Delta unless the strip reached min_width
            assert math.log(d1 / d0) <= 0.2 or e1 - e0 < 0.5
    assert M.check_certificate(r, progress=False).ok


def test_cli_exit_codes(tmp_path, capsys):
    out = tmp_path / "c.json"
    assert main(["certify-region", "--eps", "6", "9", "--sensitivity", "1", "1", "--min-width", "4",
                 "--out", str(out), "--quiet"]) == 0
    assert "private 100.000%" in capsys.readouterr().out
    assert main(["certify-region", "--check", str(out), "--quiet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    doc = json.loads(out.read_text())
    doc["cells"][0]["eps"][0] = doc["box"]["eps"][0] = "3"
    out.write_text(json.dumps(doc))
    assert main(["certify-region", "--check", str(out), "--quiet"]) == 1
    assert "does NOT hold" in capsys.readouterr().out
    for bad in (["--eps", "9", "6", "--sensitivity", "1", "1"], ["--eps", "6", "9", "--sensitivity", "-1", "1"],
                ["--eps", "nan", "9", "--sensitivity", "1", "1"], ["--eps", "6", "9"],
                ["--check", str(tmp_path / "missing.json")],
                ["--eps", "6", "9", "--sensitivity", "1", "1", "--workers", "0"]):
        assert main(["certify-region", *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("arete: error:") and len(err.strip().splitlines()) == 1


def test_cli_not_private_exits_1(capsys):
    assert main(["certify-region", "--eps", "8", "33/4", "--sensitivity", "100", "100", "--min-width", "4",
                 "--quiet", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["summary"]["counts"]["not private"] == 1


# ---------------------------------------------------------------- the shipped certificates (docs/data)
DATA = Path(__file__).resolve().parents[1] / "docs" / "data"


def _shipped(name):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{name} not shipped")
    return json.loads(path.read_text())


def test_shipped_map_tiles_and_agrees_with_the_paper():
    from arete_proofs.certified import region_certificate as RC

    doc = _shipped("region-map.json")
    doc = dict(doc, cells=RC.cells_of(doc))
    assert doc["format"] == RC.FILE_FORMAT and M._tiling(doc) == "ok"
    for c in doc["cells"]:
        if c["status"] == "not private":
            e1 = float(Fraction(c["eps"][1]))
            d0 = float(Fraction(c["sensitivity"][0]))
            assert e1 < 20 + 4 * math.log(d0), c       # never meets the paper's region
    # re-prove a sample of cells here with the library's prover (arete check re-checks them all)
    by = {s: [c for c in doc["cells"] if c["status"] == s] for s in ("private", "not private")}
    for c in by["private"][:1] + by["not private"][:1]:
        assert R.check_cell(c)


def test_docs_table_matches_the_shipped_certificates():
    from arete_proofs.walkthrough import region as W

    for D in W.TABLE_DELTAS:
        _shipped(f"region-delta-{D:g}.json")
    # docs/explanation/certification.md renders W.table(W.load_table()) at build time (docs/_ext/arete_site.py)
    text = (Path(__file__).resolve().parents[1] / "docs" / "explanation" / "certification.md").read_text()
    assert "```{arete-table} region-by-sensitivity" in text
    assert W.table(W.load_table()).startswith("| Δ | proved private (ε) |")


def test_a_broken_prover_is_caught_by_the_check(monkeypatch):
    # a deliberately wrong cell bound (every cell of [0, T] and the tail "bounded" by 0) makes the
    # prover claim a truly not-private cell private (E(8, 100) = 8.36 > 8.25); the honest check refutes it
    from flint import arb

    with monkeypatch.context() as m:
        m.setattr(R, "_cell_upper", lambda *a, **k: arb(0))
        m.setattr(R, "tail_bound", lambda *a, **k: arb(0))
        m.setattr(R, "_estimate", lambda p: 0.0)          # and the float guide fooled into trying
        bad = R.decide_cell("8", "33/4", "100", "100")
    assert bad["status"] == "private"
    assert not R.check_cell(bad)
