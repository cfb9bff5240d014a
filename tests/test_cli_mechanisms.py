"""``arete simulate`` and ``arete sample``: output, reproducibility, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arete_proofs.mechanisms import sampling
from arete_proofs.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_text_and_json(capsys):
    args = ["simulate", "--parties", "10", "--min-parties", "8", "--epsilon", "10", "--rounds", "200", "--seed", "3"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    for label in ("arete (distributed)", "laplace (central)", "staircase (central)"):
        assert label in out
    code, out, _ = run(capsys, *args, "--json")
    doc = json.loads(out)
    assert doc["parties"] == 10 and doc["min_parties"] == 8 and doc["rounds"] == 200
    a = doc["arete"]
    # more participants than designed only add noise (k = 10/8)
    assert a["exact_var"] >= a["designed_var"] and a["exact_mean_abs"] >= a["designed_mean_abs"]
    # the empirical error is within 5 standard errors of the exact one
    assert abs(a["empirical_mean_abs"] - a["exact_mean_abs"]) < 5 * a["empirical_mean_abs_se"]


def test_simulate_given_parameters(capsys):
    code, out, err = run(capsys, "simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "6",
                         "--rounds", "50", "--seed", "1", "--alpha", "0.0756", "--theta", "0.63",
                         "--lam", "0.0545", "--json")
    assert code == 0, err
    assert json.loads(out)["params"]["source"] == "given"


@pytest.mark.parametrize("argv, message", [
    (["--parties", "5", "--min-parties", "8", "--epsilon", "1"], "--min-parties"),
    (["--parties", "0", "--min-parties", "1", "--epsilon", "1"], "--parties"),
    (["--parties", "5", "--min-parties", "2", "--epsilon", "-1"], "eps"),
    (["--parties", "5", "--min-parties", "2", "--epsilon", "1", "--alpha", "0.1"], "--theta"),
])
def test_simulate_bad_input(capsys, argv, message):
    code, out, err = run(capsys, "simulate", *argv)
    assert code == 2 and message in err and err.startswith("arete: error:")


def test_sample_writes_reproducible_npy(capsys, tmp_path):
    out1, out2 = tmp_path / "a.npy", tmp_path / "b.npy"
    base = ["sample", "--alpha", "0.1", "--theta", "1", "--lam", "0.1", "--size", "500", "--seed", "7"]
    assert run(capsys, *base, "--out", out1)[0] == 0
    assert run(capsys, *base, "--out", out2)[0] == 0
    z1, z2 = np.load(out1), np.load(out2)
    assert z1.dtype == np.float64 and z1.shape == (500,)
    assert np.array_equal(z1, z2)
    assert np.array_equal(z1, sampling.sample(0.1, 1.0, 0.1, 500, seed=7))


def test_sample_parties_and_paper_eps(capsys, tmp_path):
    out = tmp_path / "s.npy"
    code, text, err = run(capsys, "sample", "--paper-eps", "20", "--size", "300", "--parties", "50",
                          "--seed", "2", "--out", out)
    assert code == 0, err and "300 draws" in text
    assert np.load(out).shape == (300,)


def test_sample_bad_input(capsys, tmp_path):
    code, _, err = run(capsys, "sample", "--alpha", "-1", "--theta", "1", "--lam", "1", "--size", "5",
                       "--seed", "1", "--out", tmp_path / "x.npy")
    assert code == 2 and "alpha" in err
    code, _, err = run(capsys, "sample", "--alpha", "1", "--theta", "1", "--lam", "1", "--size", "0",
                       "--seed", "1", "--out", tmp_path / "x.npy")
    assert code == 2 and "--size" in err
