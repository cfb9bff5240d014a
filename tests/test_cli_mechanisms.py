"""``arete simulate`` and ``arete sample``: output, reproducibility, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from arete_proofs.mechanisms import sampling
from _cli import run  # tests/_cli.py


def test_simulate_text_and_json(capsys):
    args = ["simulate", "--parties", "10", "--min-parties", "8", "--epsilon", "10", "--rounds", "200", "--seed", "3",
            "--parameters", "paper"]
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


def _significant_digits(text):
    return len(text.split("e")[0].replace("-", "").replace(".", "").lstrip("0"))


@pytest.mark.parametrize("simulate_args, epsilon_args, digits", [
    # Lemma 3's parameters for eps = 10 (not eps-DP by the lemma; tight epsilon 6.39...), default 8 digits
    (["--epsilon", "10", "--parameters", "paper"], ["--paper-eps", "10"], None),
    # given parameters, sensitivity 2, 11 digits
    (["--epsilon", "6", "--sensitivity", "2", "--alpha", "0.0756", "--theta", "1.26", "--lam", "0.109"],
     ["--alpha", "0.0756", "--theta", "1.26", "--lam", "0.109", "--sensitivity", "2"], 11),
])
def test_simulate_tight_epsilon_has_the_digits_of_arete_epsilon(capsys, simulate_args, epsilon_args, digits):
    d = [] if digits is None else ["--digits", str(digits)]
    base = ["simulate", "--parties", "3", "--min-parties", "2", "--rounds", "20", "--seed", "1", *simulate_args, *d]
    code, out, err = run(capsys, *base)
    assert code == 0, err
    line = out.splitlines()[1]
    printed = line.rsplit("tight epsilon ", 1)[1].rstrip(")")
    code, out, err = run(capsys, "epsilon", *epsilon_args, "--digits", str(digits or 8))
    assert code == 0, err
    reference = out.splitlines()[0].split()[1]
    # every printed digit agrees, and there are exactly as many as computed (not a float's 16-17)
    assert printed == reference and _significant_digits(printed) == (digits or 8)
    code, out, err = run(capsys, *base, "--json")
    p = json.loads(out)["params"]
    assert p["tight_epsilon"] == reference and p["tight_epsilon_digits"] == (digits or 8)
    assert p["tight_epsilon_note"] is None


def test_simulate_tight_epsilon_check_can_fail():
    """The old output (a float's repr of the 8-digit value) is what the test above rejects."""
    assert _significant_digits(repr(6.392650258259624)) == 16
    assert _significant_digits("6.3926503") == 8 and _significant_digits("1.2300e-5") == 5


@pytest.mark.parametrize("argv, message", [
    (["--parties", "5", "--min-parties", "8", "--epsilon", "1"], "--min-parties"),
    (["--parties", "0", "--min-parties", "1", "--epsilon", "1"], "--parties"),
    (["--parties", "5", "--min-parties", "2", "--epsilon", "-1"], "eps"),
    (["--parties", "5", "--min-parties", "2", "--epsilon", "1", "--alpha", "0.1"], "--theta"),
    (["--parties", "5", "--min-parties", "2", "--epsilon", "1", "--digits", "0"], "--digits"),
    (["--parties", "5", "--min-parties", "2", "--epsilon", "1", "--digits", "41"], "--digits"),
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


def test_sample_refuses_parameters_that_underflow_float64(capsys, tmp_path):
    # at --paper-eps 1e6, alpha = e^(-250000) became 0.0 and the error said "alpha must be positive, got 0.0";
    # the CLI now refuses such an eps by its range, and the library says the value underflows float64
    code, _, err = run(capsys, "sample", "--paper-eps", "1e6", "--size", "3", "--seed", "1",
                       "--out", tmp_path / "x.npy")
    assert code == 2 and "--paper-eps must be in [1e-6, 1e3]" in err
    with pytest.raises(ValueError, match="lam = 1e-400 underflows"):
        sampling.arete(0.5, 1.0, "1e-400", 3, rng=1)
    with pytest.raises(ValueError, match="alpha must be positive"):
        sampling.arete(0.0, 1.0, 1.0, 3, rng=1)
