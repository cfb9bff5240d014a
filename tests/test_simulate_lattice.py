"""``lattice_gauss`` in the distributed sum (issue 24, item 5): shares, dropouts, ``simulate`` and ``arete simulate``.

The shares' sums are tested against the exact :math:`E|N|` (mpmath law for :math:`k = 1`, the
float64 pmf table of :mod:`arete_proofs.privacy.lattice_dropout` for :math:`k \\ne 1`) and the closed-form
variance, with a tolerance of 4.5 standard errors of the sample (seeded); the same test rejects a share
whose lattice step is 30% too large (power).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from arete_proofs.cli import main
from arete_proofs.mechanisms.simulation import simulate
from arete_proofs.noise import make
from arete_proofs.noise.lattice_gauss import SUM_PRIVACY_CERTIFY_M
from arete_proofs.privacy import lattice_dropout

Z = {"a": "3", "m": 4, "sigma": "0.1", "h": "0.25"}
ROWS = 20_000


def _agrees(sums, mean_abs, var, z=4.5):
    """E|N| and Var N of the sample within z standard errors of the exact values."""
    n = sums.size
    a = np.abs(sums)
    se_ma = a.std(ddof=1) / math.sqrt(n)
    c = sums - sums.mean()
    se_v = math.sqrt(max(np.mean(c ** 4) - var * var, 0.0) / n)
    return abs(a.mean() - mean_abs) < z * se_ma and abs(sums.var(ddof=1) - var) < z * se_v


@pytest.mark.parametrize("parties", [10, 13, 7])          # k = 1, 1.3 (extra parties), 0.7 (dropouts)
def test_sum_of_shares_matches_the_exact_error(parties):
    z = make("lattice_gauss", **Z)
    s = z.shares(10)
    law = s.sum_law(parties)
    k = parties / 10
    assert law.var() == pytest.approx(lattice_dropout.variance(3.0, 4, 0.1, 0.25, k), rel=1e-12)
    if k == 1:
        assert law.mean_abs() == pytest.approx(float(z.mean_abs(digits=15)), rel=1e-14)
    else:
        assert law.mean_abs() == pytest.approx(lattice_dropout.mean_abs(3.0, 4, 0.1, 0.25, k), rel=0)
    sums = s.sample(ROWS, rng=parties, parties=parties, summed=True)
    assert _agrees(sums, law.mean_abs(), law.var())


def test_a_share_with_a_30_percent_wrong_scale_is_rejected():
    right = make("lattice_gauss", **Z).shares(10)
    wrong = make("lattice_gauss", **{**Z, "h": "0.325", "sigma": "0.13"}).shares(10)   # every part 1.3x
    law = right.sum_law(10)
    assert not _agrees(wrong.sample(ROWS, rng=10, summed=True), law.mean_abs(), law.var())


def test_simulate_reports_the_certified_guarantee_and_the_dropout_sums():
    z = make("lattice_gauss", **Z)
    r = simulate(10, 8, 3, 500, seed=1, noise=z, dropout=[0.1, 0.2, 0.3])
    p = r["params"]
    assert p["tight_epsilon_certified"] and p["tight_epsilon_lower"] <= p["tight_epsilon"]
    assert "certified enclosure" in p["tight_epsilon_note"]
    d = {x["fraction"]: x for x in r["dropout"]}
    assert [d[f]["contributors"] for f in (0.1, 0.2, 0.3)] == [9, 8, 7]
    assert d[0.2]["certified"] and d[0.2]["epsilon"] == p["tight_epsilon"]
    assert not d[0.1]["certified"] and "not certified" in d[0.1]["method"]
    assert d[0.3]["below_design"] and d[0.3]["epsilon"] > p["tight_epsilon"] >= d[0.1]["epsilon"] - 1e-9
    assert d[0.3]["epsilon"] == pytest.approx(
        lattice_dropout.estimate_epsilon(3.0, 4, 0.1, 1.0, 0.25, ratio=0.875), abs=1e-12)
    assert r["noise"]["k"] == 1.25 and r["noise"]["exact_mean_abs"] is not None


def test_large_m_is_a_labelled_estimate():
    m = SUM_PRIVACY_CERTIFY_M + 1
    z = make("lattice_gauss", a="3", m=m, sigma=repr(0.4 / m), h=repr(1 / m))
    sp = z.sum_privacy(1)
    assert not sp["certified"] and sp["lower"] is None and "estimate, not certified" in sp["method"]
    assert sp["epsilon"] >= 3.0 - 1e-9


def test_dropout_is_refused_for_another_family():
    with pytest.raises(ValueError, match="^dropout"):
        simulate(10, 8, 3, 100, seed=1, noise=make("laplace", lam="0.5"), dropout=[0.1], tight=False)


def test_cli_dropout(capsys):
    args = ["simulate", "--noise", "lattice_gauss", "--a", "3", "--m", "4", "--sigma", "0.1", "--h", "0.25",
            "--parties", "10", "--min-parties", "8", "--epsilon", "3", "--rounds", "200", "--seed", "2",
            "--dropout", "0.1,0.3", "--quiet"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "tight epsilon <= " in out and "certified enclosure" in out
    assert "dropout 0.3: 7 contributors" in out and "estimate, not certified" in out
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [d["contributors"] for d in doc["dropout"]] == [9, 7] and doc["params"]["tight_epsilon_certified"]


@pytest.mark.parametrize("extra, message", [
    (["--dropout", "1.2"], "--dropout"),
    (["--dropout", "x"], "--dropout"),
])
def test_cli_dropout_bad_values(extra, message, capsys):
    args = ["simulate", "--noise", "lattice_gauss", "--a", "3", "--m", "4", "--sigma", "0.1", "--h", "0.25",
            "--parties", "10", "--min-parties", "8", "--epsilon", "3", "--rounds", "20", *extra]
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_cli_dropout_refused_for_laplace(capsys):
    assert main(["simulate", "--noise", "laplace", "--lam", "0.5", "--parties", "10", "--min-parties", "8",
                 "--epsilon", "2", "--rounds", "20", "--dropout", "0.1"]) == 2
    assert "--dropout" in capsys.readouterr().err
