"""The verify reports the docs quote, and the readable output of ``arete verify`` (issue 25.5).

``docs/explanation/verification.md`` renders ``docs/data/verify-default.json`` and
``tests/data/verify_quick_baseline.json`` through ``docs/_ext/arete_verify_table.py``
(tables are generated, never typed: a typed one said 9492 checks when a run gave 10489).
The quick baseline is compared with a fresh run in ``tests/test_verify.py``; the default
report here (the full default grid takes minutes: ``slow``).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from arete_proofs.chain import verify as V
from arete_proofs.chain.registry import REGISTRY
from arete_proofs.cli import main

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "docs" / "data" / "verify-default.json"


def _ext():
    spec = importlib.util.spec_from_file_location("arete_verify_table", ROOT / "docs" / "_ext" / "arete_verify_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_default_report_is_a_clean_default_grid_run():
    doc = json.loads(DEFAULT.read_text())
    assert doc["grid"] == "default" and doc["digits"] == V.DEFAULT_DIGITS
    for s in doc["statements"]:
        assert s["id"] in REGISTRY and s["points"] > 0
        assert s["violations"] == 0 and not s["grid_errors"]
    assert doc["symbolic"] and all(r["holds"] for r in doc["symbolic"])
    assert doc["observations"]
    # the format the baseline comparison reads
    assert V.compare_baseline(doc, doc) == []


def test_table_and_summary_follow_the_report():
    ext = _ext()
    doc = json.loads(DEFAULT.read_text())
    rows = ext.rows(doc)
    assert [r[0] for r in rows] == [s["id"] for s in doc["statements"]]
    assert [int(r[3]) for r in rows] == [s["points"] for s in doc["statements"]]
    total = sum(s["points"] for s in doc["statements"])
    text = ext.summary(doc)
    assert f"{total} grid checks" in text and "0 violations" in text and "not counted" in text
    # a changed report changes the table (it is read, not typed)
    doc["statements"][0]["points"] += 1
    assert ext.rows(doc)[0][3] == str(doc["statements"][0]["points"])
    assert f"{total + 1} grid checks" in ext.summary(doc)


def test_quick_baseline_renders():
    ext = _ext()
    doc = ext.load("tests/data/verify_quick_baseline.json")
    assert len(ext.rows(doc)) == len(doc["statements"])


def test_default_report_matches_a_fresh_run_of_the_cheap_statements():
    """About 2 s: three statements of the default report rerun in every test run."""
    doc = json.loads(DEFAULT.read_text())
    cheap = ["lemma-14", "note-2", "lemma-26"]
    report = V.verify(cheap, level="default", progress=False)
    sub = dict(doc, statements=[s for s in doc["statements"] if s["id"] in cheap])
    assert V.compare_baseline(report, sub) == []


@pytest.mark.slow
def test_default_report_matches_a_fresh_run():
    """The whole default grid (about 90-110 s on one core)."""
    """Regenerate with ``arete verify --symbolic --observations --json docs/data/verify-default.json``."""
    doc = json.loads(DEFAULT.read_text())
    report = V.verify([s["id"] for s in doc["statements"]], level="default", progress=False)
    assert V.compare_baseline(report, doc) == []


# -- the command line's output -------------------------------------------------------------


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1e-6", "abc"])
def test_bad_tolerance_is_refused(capsys, value):
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "note-2", "--tolerance", value)
    assert code == 2 and out == ""
    assert err.startswith("arete: error:") and "--tolerance" in err and len(err.strip().splitlines()) == 1


def test_nan_tolerance_used_to_disable_the_baseline(capsys, tmp_path):
    """Why NaN is refused: compare_baseline with NaN reports no change at all."""
    report = tmp_path / "r.json"
    assert run(capsys, "verify", "--grid", "quick", "--statement", "lemma-26", "--quiet", "--json", report)[0] == 0
    doc = json.loads(report.read_text())
    doc["statements"][0]["min_slack"] = 0.5
    assert V.compare_baseline(V.load_report(report), doc, float("nan")) == []   # blind
    assert V.compare_baseline(V.load_report(report), doc, 1e-6) != []


def test_legend_states_the_real_precision_cap():
    from arete_proofs.cli.verify import LEGEND

    assert f"up to {V.MAX_DIGITS}" in LEGEND


def test_legend_footer_and_phase_progress(capsys, monkeypatch):
    from arete_proofs.chain import observations, symbolic
    from arete_proofs.chain.observations import Observation

    # two quick stand-ins for the observation checks (the real ones take about a minute)
    fake = {"x-fails": "fails", "y-typo": "typo"}
    monkeypatch.setattr(observations, "OBSERVATION_IDS", tuple(fake))
    monkeypatch.setattr(observations, "run", lambda ids, digits=20: [
        Observation(id=i, statement="Lemma 0", literal=f"literal {i}", verdict=fake[i], holds_literal=False, detail="",
                    evidence={}) for i in ids])
    monkeypatch.setattr(symbolic, "CHECKS", {k: symbolic.CHECKS[k] for k in ["note-2/bernoulli"]})
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "note-2", "--symbolic",
                         "--observations")
    assert code == 0
    # progress for every phase on stderr, none on stdout
    assert "verify: symbolic 1/1 note-2/bernoulli" in err
    assert "verify: observation 1/2 x-fails" in err and "verify: observation 2/2 y-typo" in err
    assert "verify:" not in out
    # the legend explains the codes and tight
    assert "N = numeric" in out and "S = sympy" in out and "C = ball-arithmetic" in out
    assert "tight:" in out and "equality up to" in out
    # observations labelled, not counted, and the run says so
    assert "NOT counted" in out and "observation x-fails" in out
    assert "all statements hold" in err and "observations on the paper's literal wording are not" in err
    # one footer: every count with its own name, the whole run's time per phase
    footer = [line for line in out.splitlines() if "grid checks on the quick grid" in line]
    assert len(footer) == 1
    assert "1 symbolic" in footer[0] and "2 observations (not counted)" in footer[0]
    assert "s in all (grid" in footer[0] and "symbolic" in footer[0] and "observations" in footer[0]

    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "note-2", "--symbolic", "--quiet")
    assert code == 0 and "verify:" not in err


# -- bad baselines and output paths: one line, exit 2, before the work ---------------------


@pytest.mark.parametrize("text, message", [
    ("[1, 2]", "got a list"),
    ("null", "got null"),
    ('{"grid": "quick"}', "statements"),
    ('{"grid": "quick", "statements": [{"points": 3}]}', "has no id"),
    ('{"grid": "quick", "statements": [{"id": "note-2", "points": 3, "violations": 0, "min_slack": "1/0"}]}',
     "min_slack"),
    ('{"grid": "quick", "statements": [{"id": "note-2", "points": null, "violations": 0, "min_slack": 1}]}',
     "'points' must be a count"),
    ('{"grid": "quick", "statements": [{"id": "note-2", "points": 1, "violations": 0, "min_slack": 1, '
     '"bounds": [{"name": "gamma"}]}]}', "every bound needs"),
    ("{bad", "not JSON"),
])
def test_malformed_baseline_is_one_line_exit_2(capsys, tmp_path, text, message):
    f = tmp_path / "b.json"
    f.write_text(text)
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "note-2", "--quiet", "--baseline", f)
    assert code == 2 and out == ""
    assert err.startswith("arete: error:") and message in err and len(err.strip().splitlines()) == 1


def test_baseline_with_an_overflowing_slack_compares_without_a_traceback(capsys, tmp_path):
    report = tmp_path / "r.json"
    assert run(capsys, "verify", "--grid", "quick", "--statement", "note-2", "--quiet", "--json", report)[0] == 0
    import re

    text = re.sub(r'"min_slack": [^,}\n]+', '"min_slack": 1e400', report.read_text(), count=1)  # inf in JSON
    report.write_text(text)
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "note-2", "--quiet", "--baseline", report)
    assert code in (0, 1) and "Traceback" not in out + err


@pytest.mark.parametrize("where", ["missing-dir/r.json", "."])
def test_unwritable_json_path_is_refused_before_the_work(capsys, tmp_path, monkeypatch, where):
    from arete_proofs.chain import verify as chain_verify

    monkeypatch.setattr(chain_verify, "verify", lambda *a, **k: pytest.fail("the work started"))
    code, out, err = run(capsys, "verify", "--grid", "quick", "--json", tmp_path / where)
    assert code == 2 and err.startswith("arete: error: --json") and len(err.strip().splitlines()) == 1
