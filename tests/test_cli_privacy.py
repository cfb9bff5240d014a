"""``arete epsilon`` (and, when present, ``arete optimize`` / ``arete compare``)."""

from __future__ import annotations

import json

import pytest
from mpmath import mp

from arete_proofs.privacy import tight as privacy
from arete_proofs.cli import main
from arete_proofs.distributions.params import FIGURE_4


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


# ---------------------------------------------------------------- arete certify / density --certified

FIG6 = ["--alpha", "0.07559007048913552", "--theta", "0.6295929433519876", "--lam", "0.05453349704921005"]


def test_certify_target_met_and_not_met(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    from arete_proofs.cli import main

    assert main(["certify", *FIG6, "--target", "6", "--no-numeric", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "certified bound" in out and "target           6.0: met" in out
    # a target below the tight epsilon 5.99966478... cannot be certified: exit 1
    assert main(["certify", *FIG6, "--target", "5.9996", "--no-numeric", "--quiet", "--max-seconds", "30"]) == 1
    assert "NOT met" in capsys.readouterr().out


def test_certify_json(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    import json

    from arete_proofs.cli import main

    assert main(["certify", "--paper-eps", "20", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "cover" and doc["lower"] <= doc["numeric"] <= doc["upper"] < 20
    assert doc["meets_target"] is None and doc["gap"] < 1e-3


def test_density_certified(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    from arete_proofs.cli import main

    assert main(["density", "--alpha", "0.5", "--theta", "2", "--lam", "0.5", "--certified", "--digits", "12",
                 "0", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("+/-" in line for line in lines)
    assert lines[1].split()[1] == "[0.17499448472967"  # the engine's 0.174994484729674...
    # --certified is for the density only; alpha >= 1 is refused with the parameter named
    assert main(["density", "--alpha", "0.5", "--theta", "2", "--lam", "0.5", "--certified", "--cdf", "1"]) == 2
    assert main(["density", "--alpha", "1.5", "--theta", "2", "--lam", "0.5", "--certified", "1"]) == 2
    assert "alpha" in capsys.readouterr().err


def test_certify_paper_eps_uses_exact_parameters(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    import json

    from arete_proofs.cli import main

    assert main(["certify", "--paper-eps", "30", "--delta", "10", "--target", "30", "--json", "--quiet",
                 "--no-numeric"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "+/-" in doc["exact_parameters"]["alpha"] and doc["exact_parameters"]["theta"] == "4/3"
    assert doc["meets_target"] is True
