"""``--sigma`` on ``arete account`` and ``--gauss`` on ``arete compare`` (issue 17, beyond the paper)."""

from __future__ import annotations

import json

import pytest
from mpmath import mp

from _cli import run  # tests/_cli.py


# lam >= theta: the tight epsilon is Delta/lam = 0.5 in closed form (tight_gauss item 6), so delta(eps >= 0.5) = 0
GAUSS = ["--alpha", "0.3", "--theta", "1", "--lam", "2", "--sigma", "1"]


def test_account_sigma_json_and_zero_delta_above_tight_eps(capsys):
    code, out, _ = run(capsys, "account", *GAUSS, "--epsilon", "0.5", "--digits", "4", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["sigma"] == "1" and doc["method"] == "exact"
    assert mp.mpf(doc["delta"]) == 0


def test_account_sigma_is_passed_to_the_library(capsys, monkeypatch):
    from arete_proofs.privacy import accounting

    seen = {}

    def fake(noise, sensitivity=1, eps=0, *, digits=12):
        seen["noise"] = noise
        return mp.mpf("0.125")

    monkeypatch.setattr(accounting, "hockey_stick", fake)
    code, out, _ = run(capsys, "account", *GAUSS, "--epsilon", "0.2", "--digits", "4")
    assert code == 0 and seen["noise"].name == "arete_gauss" and seen["noise"].sigma == "1"
    assert out.strip() == "delta 0.1250"
    # without --sigma the noise is the paper's Arete, unchanged
    seen.clear()
    code, out, _ = run(capsys, "account", "--alpha", "0.3", "--theta", "1", "--lam", "2", "--epsilon", "0.2",
                       "--digits", "4")
    assert code == 0 and seen["noise"].name == "arete"


@pytest.mark.parametrize("argv, message", [
    (["--alpha", "0.3", "--theta", "1", "--lam", "0", "--sigma", "-1"], "--sigma"),
    (["--alpha", "0.3", "--theta", "1", "--lam", "0"], "--lam and --sigma are both 0"),
])
def test_account_sigma_bad_input(capsys, argv, message):
    code, _, err = run(capsys, "account", *argv, "--epsilon", "1")
    assert code == 2 and message in err


def test_compare_gauss_row(capsys, monkeypatch):
    from arete_proofs.privacy import errors, optimizer

    calls = []

    def fake(problem, Delta=1, **kw):
        calls.append((problem.eps_text, problem.kind, problem.objective))
        return optimizer.Optimum({"alpha": 0.0147, "theta": 0.854, "lam": 0.0, "sigma": 0.027}, None,
                                 mp.mpf("7.99999998"), mp.mpf("7.99999999"), mp.mpf("0.043955"), mp.mpf("0.0011"),
                                 problem.objective, 8.0, 1.0, 1, 1, 1.0, mp.mpf("0.0016"))

    monkeypatch.setattr(optimizer, "optimize", fake)
    monkeypatch.setattr(errors, "comparison_table", lambda *a, **k: [])
    code, out, _ = run(capsys, "compare", "--epsilon", "8", "--gauss", "--json")
    doc = json.loads(out)
    assert code == 0 and calls == [("8", "gauss", "mean_abs")]
    g = doc["gauss"][0]
    assert g["noise"] == "gamma-gauss-optimized" and mp.mpf(g["epsilon_upper"]) <= 8
    code, out, _ = run(capsys, "compare", "--epsilon", "8", "--gauss")
    assert "gamma-gauss-optimized (mean_abs)" in out and "sigma=0.027" in out


def test_account_sigma_alpha_at_least_1(capsys):
    # alpha >= 1: log-concave, eps* = Delta/max(theta, lam) = 1 (tight_gauss item 7), so delta(1) = 0
    code, out, _ = run(capsys, "account", "--alpha", "1.5", "--theta", "1", "--lam", "0", "--sigma", "0.1",
                       "--epsilon", "1", "--digits", "4", "--json")
    assert code == 0 and float(json.loads(out)["delta"]) == 0
