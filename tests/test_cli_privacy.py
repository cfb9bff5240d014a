"""``arete epsilon`` (and, when present, ``arete optimize`` / ``arete compare``)."""

from __future__ import annotations

import json

import pytest
from mpmath import mp

from arete_proofs import privacy
from arete_proofs.cli import main
from arete_proofs.params import FIGURE_4


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_epsilon_lines_match_library(capsys):
    a, th, lam = FIGURE_4[8]
    code, out, err = run(capsys, "epsilon", "--alpha", a, "--theta", th, "--lam", lam, "--digits", "8")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("epsilon ") and lines[1].startswith("t_star ")
    ref = privacy.tight_epsilon(a, th, lam, 1, digits=8).epsilon
    assert lines[0].split()[1] == mp.nstr(ref, 8, strip_zeros=False)


def test_epsilon_json_paper_eps_and_delta(capsys):
    code, out, err = run(capsys, "epsilon", "--paper-eps", "20", "--delta", "2", "--digits", "6", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["paper_eps"] == "20" and doc["delta"] == "2"
    # epsilon is rounded to 6 digits, the bounds carry 3 more
    assert abs(float(doc["lower_bound"]) - float(doc["epsilon"])) <= 1e-5 * float(doc["epsilon"])
    assert float(doc["epsilon"]) < 20          # the paper's parameters are eps-DP (Lemma 3)


@pytest.mark.parametrize("argv, message", [
    (["--alpha", "1", "--theta", "1", "--lam", "1", "--delta", "0"], "Delta"),
    (["--alpha", "-1", "--theta", "1", "--lam", "1"], "alpha"),
    (["--alpha", "1", "--theta", "1"], "--lam"),
])
def test_epsilon_bad_input(capsys, argv, message):
    code, _, err = run(capsys, "epsilon", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_optimize_lines_and_json(capsys):
    code, out, err = run(capsys, "optimize", "--paper-eps", "8", "--json")
    assert code == 0, err
    doc = json.loads(out)
    for key in ("alpha", "theta", "lam", "epsilon", "mean_abs", "variance"):
        assert key in doc
    assert float(doc["epsilon"]) <= 8
    # better than Laplace (Delta/eps) at the same epsilon, worse than the paper's parameters' privacy
    assert float(doc["mean_abs"]) < 1 / 8
    assert doc["paper_lemma3_applies"] == "false"


def test_compare_table(capsys):
    code, out, err = run(capsys, "compare", "--epsilon", "20")
    assert code == 0, err
    labels = [line.split()[1] for line in out.splitlines()[1:]]
    assert labels == ["arete-optimized", "laplace", "staircase", "arete-paper"]


@pytest.mark.parametrize("argv", [["optimize", "--epsilon", "0"], ["optimize", "--epsilon", "8", "--delta", "-1"],
                                  ["compare", "--epsilon", "-2"], ["optimize"]])
def test_optimize_compare_bad_input(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("arete: error:")
