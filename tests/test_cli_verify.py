"""``arete verify``: table, JSON report, baseline comparison, exit status, Dask address."""

from __future__ import annotations

import json
import re

import pytest

from _cli import run  # tests/_cli.py
from arete_proofs.chain.registry import STATEMENT_IDS


def test_verify_table_and_json(capsys, tmp_path):
    report = tmp_path / "r.json"
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "lemma-28",
                         "--statement", "note-2", "--json", report, "--no-progress")
    assert code == 0, out + err
    header, *rows = [line for line in out.split("\n\n")[0].splitlines() if line.strip()]
    # "kinds" (N/S/C) and "checks" (a bound at a point: the footer's unit); the JSON keeps "points"
    assert header.split()[:6] == ["id", "statement", "kinds", "checks", "violations", "tight"]
    assert rows[0].startswith("lemma-28") and "Lemma 28" in rows[0]
    assert rows[1].startswith("note-2")
    doc = json.loads(report.read_text())
    ids = [s["id"] for s in doc["statements"]]
    assert ids == ["lemma-28", "note-2"]
    for s in doc["statements"]:
        assert s["violations"] == 0 and s["points"] > 0 and "argmin" in s and "min_slack" in s


def test_verify_baseline_pass_and_fail(capsys, tmp_path):
    report = tmp_path / "r.json"
    args = ["verify", "--grid", "quick", "--statement", "lemma-26", "--no-progress"]
    assert run(capsys, *args, "--json", report)[0] == 0
    code, out, _ = run(capsys, *args, "--baseline", report)
    assert code == 0 and "no regression" in out
    doc = json.loads(report.read_text())
    doc["statements"][0]["min_slack"] = 0.5           # pretend the bound used to have slack
    report.write_text(json.dumps(doc))
    code, out, _ = run(capsys, *args, "--baseline", report)
    assert code == 1 and "BASELINE lemma-26" in out


def test_verify_progress_on_stderr(capsys):
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "note-2")
    assert code == 0
    assert "verify: 1/1 tasks" in err and "verify:" not in out


@pytest.mark.parametrize("argv, message", [
    (["--statement", "lemma-99"], "invalid choice"),
    (["--grid", "huge"], "invalid choice"),
    (["--workers", "0"], "workers"),
    (["--digits", "5"], "digits"),
])
def test_verify_bad_arguments(capsys, argv, message):
    code, out, err = run(capsys, "verify", "--no-progress", *argv)
    assert code == 2
    assert err.startswith("arete: error:") and message in err
    assert len(err.strip().splitlines()) == 1


def test_verify_help_lists_statement_ids(capsys):
    code, out, _ = run(capsys, "verify", "--help")
    assert code == 0
    # argparse wraps long ids at a hyphen (lemma-3-mean-abs, issue 26): join those breaks first
    out = re.sub(r"-\n\s+", "-", out)
    for sid in STATEMENT_IDS:
        assert sid in out


def test_verify_dask_address(capsys):
    distributed = pytest.importorskip("dask.distributed", reason="optional extra 'dask' not installed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "lemma-28",
                             "--dask", cluster.scheduler_address, "--no-progress")
    assert code == 0, out + err
    assert f"on Dask at {cluster.scheduler_address}" in out


def test_verify_certified(capsys, tmp_path):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    report = tmp_path / "r.json"
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "note-2", "--statement", "lemma-19",
                         "--certified", "--json", report, "--no-progress")
    assert code == 0, out + err
    assert "certificate note2_certificate" in out and "certified" in out
    doc = json.loads(report.read_text())
    assert {c["function"] for c in doc["certified"]} == {"note2_certificate", "lemma19_certificate",
                                                         "lemma19_algebra_certificate"}
    assert all(c["holds"] is True and c["min_margin"] > 0 for c in doc["certified"])


def test_registry_certificates_exist():
    from arete_proofs.certified import statements as certified
    from arete_proofs.chain.registry import REGISTRY

    names = [n for s in REGISTRY.values() for n in s.certificates]
    assert names and all(n in certified.__all__ for n in names)
    assert REGISTRY["note-2"].check_kinds == "N+S+C" and REGISTRY["lemma-16"].check_kinds == "N"


# --------------------------------------------------------------------------
# --variant and --search
# --------------------------------------------------------------------------

VARIANTS = """
[[variant]]
name = "half-eps"                # false: Lemma 19's lower bound with e^{-eps/2}
statement = "lemma-19"
bound = "lower"
lhs = "exp(-eps/2)"

[[variant]]
name = "laplace-weaker"          # true: a weakening of a tight bound
statement = "lemma-26"
bound = "privacy"
rhs = "exp(eps)*10001/10000"
"""


def test_verify_variant_refuted_and_json(capsys, tmp_path):
    f = tmp_path / "v.toml"
    f.write_text(VARIANTS)
    report = tmp_path / "v.json"
    code, out, err = run(capsys, "verify", "--variant", f, "--grid", "quick", "--search-budget", "200",
                         "--json", report, "--no-progress")
    assert code == 1, out + err
    assert "variant 'half-eps' (lemma-19 [lower]): refuted" in out
    assert "variant 'laplace-weaker' (lemma-26 [privacy]): holds" in out
    assert "counterexample" in out and "eps = " in out and "lhs = " in out
    doc = json.loads(report.read_text())
    v = {x["name"]: x for x in doc["variants"]}
    assert v["half-eps"]["verdict"] == "refuted" and float(v["half-eps"]["slack"]) < 0
    assert set(v["half-eps"]["point"]) >= {"Delta", "eps", "t"}
    assert v["laplace-weaker"]["verdict"] == "holds"
    # every parameter an exact decimal (or an exact grid value), both sides to 20 digits
    assert all("e" not in x.lower() or "exp" in x or "E" in x for x in v["half-eps"]["point"].values())
    assert len(v["half-eps"]["lhs"].replace("-", "").split("e")[0].replace(".", "")) >= 19


def test_verify_variant_all_hold_exit_0(capsys, tmp_path):
    f = tmp_path / "v.toml"
    f.write_text(VARIANTS.split("[[variant]]")[0] + "[[variant]]" + VARIANTS.split("[[variant]]")[2])
    code, out, err = run(capsys, "verify", "--variant", f, "--grid", "quick", "--search-budget", "100",
                         "--no-progress")
    assert code == 0, out + err
    assert "all variants hold" in err


@pytest.mark.parametrize("text, message", [
    ("[[variant]]\nname = 'x'\nstatement = 'lemma-16'\nbound = 'ratio'\nrhs = 'foo +'\n",
     "variant 'x': key 'rhs'"),
    ("[[variant]]\nname = 'y'\nstatement = 'lemma-16'\nbound = 'ratio'\nrhz = '1'\n", "variant 'y': unknown key"),
    ("not toml [", "not valid TOML"),
])
def test_verify_variant_malformed_exit_2(capsys, tmp_path, text, message):
    f = tmp_path / "v.toml"
    f.write_text(text)
    code, out, err = run(capsys, "verify", "--variant", f, "--no-progress")
    assert code == 2
    assert err.startswith("arete: error:") and message in err
    assert len(err.strip().splitlines()) == 1


def test_verify_variant_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "verify", "--variant", tmp_path / "none.toml", "--no-progress")
    assert code == 2 and "cannot read" in err


def test_verify_search_reports_each_bound(capsys, tmp_path):
    report = tmp_path / "s.json"
    code, out, err = run(capsys, "verify", "--grid", "quick", "--statement", "lemma-26", "--search",
                         "--search-budget", "100", "--json", report, "--no-progress")
    assert code == 0, out + err
    assert "search lemma-26" in out and "evaluations" in out
    doc = json.loads(report.read_text())
    assert doc["search"][0]["bound"] == "privacy" and doc["search"][0]["status"] in ("holds", "tight")
    assert doc["search"][0]["evaluations"] > 0
