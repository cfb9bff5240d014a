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
