"""``simulate(..., noise=arete_gauss)`` and ``arete simulate --sigma`` (issue 17: a Gaussian part in the shares).

Independent references: the protocol's errors are tested against the float64
distribution :data:`arete_proofs.stats.arete_gauss` (Kolmogorov-Smirnov, significance
1e-6, seeded) and its closed-form variance; ``sigma = 0`` is pinned to numbers printed
by ``main`` at commit 9285919 (before this change) for the same seed.
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from arete_proofs.cli import main
from arete_proofs.cli import simulate as cli_simulate
from arete_proofs.distributions import arete_gauss as exact
from arete_proofs.mechanisms import simulation
from arete_proofs.mechanisms.simulation import simulate
from arete_proofs.noise import FAMILIES, make
from arete_proofs.stats import arete_gauss

SIGNIFICANCE = 1e-6


def _paper(eps, Delta=1, sigma=None):
    """Lemma 3's parameters as the CLI builds them (40 digits), with a Gaussian part when ``sigma``."""
    z = FAMILIES["arete"].paper(eps, Delta, digits=40)
    return z if sigma is None else make("arete_gauss", **z.params, sigma=sigma, source=z.source)


def _gauss(**kw):
    return make("arete_gauss", **kw)


def test_sigma_zero_is_the_paper_protocol_unchanged(capsys):
    r0 = simulate(7, 5, 6, 500, seed=3, tight=False, noise=_paper(6))
    # printed by main at 9285919: arete simulate --parties 7 --min-parties 5 --epsilon 6 --rounds 500 --seed 3 --json
    assert r0["arete"]["empirical_mean_abs"] == 0.4618901320195211
    assert r0["arete"]["empirical_var"] == 0.4192411825780424
    assert r0["staircase"]["empirical_mean_abs"] == 0.045964771611165106
    assert "sigma" not in r0["params"]


def _ks_pvalue(err, args):
    return sps.kstest(err, arete_gauss.cdf, args=args).pvalue


def test_errors_follow_arete_gauss_when_k_is_one():
    args = (0.3, 1.0, 0.2, 0.5)
    r = simulate(4, 4, 2, 4000, seed=5, noise=_gauss(alpha=0.3, theta=1.0, lam=0.2, sigma=0.5), tight=False)
    a = r["arete"]
    var = 2 * 0.3 + 2 * 0.2**2 + 0.5**2
    assert a["k"] == 1 and a["exact_var"] == var == a["designed_var"] and r["params"]["sigma"] == 0.5
    assert a["exact_mean_abs"] == pytest.approx(float(exact.mean_abs(*args, digits=15)), rel=1e-15)
    assert abs(a["empirical_mean_abs"] - a["exact_mean_abs"]) < 5 * a["empirical_mean_abs_se"]
    # the errors themselves, with the protocol's own generator stream
    g = np.random.default_rng(5)
    draw = _gauss(alpha=0.3, theta=1.0, lam=0.2, sigma=0.5).shares(4).draw
    err = simulation._protocol_errors(g, draw, 4, 4000, 1.0)
    assert _ks_pvalue(err, args) > SIGNIFICANCE
    # the check can fail: shares with N(0, sigma^2) each instead of N(0, sigma^2 / M)
    g = np.random.default_rng(5)
    wrong_draw = _gauss(alpha=0.3, theta=1.0, lam=0.2, sigma=0.5 * math.sqrt(4)).shares(4).draw
    wrong = simulation._protocol_errors(g, wrong_draw, 4, 4000, 1.0)
    assert _ks_pvalue(wrong, args) < SIGNIFICANCE


def test_more_parties_than_designed():
    """k = 2: Var = k Var Z; with lam = 0 the sum is arete_gauss(k alpha, theta, 0, sqrt(k) sigma)."""
    a = simulate(8, 4, 4, 3000, seed=9, noise=_gauss(alpha=0.2, theta=1.0, lam=0, sigma=0.3), tight=False)["arete"]
    assert a["k"] == 2 and a["exact_var"] == pytest.approx(2 * (2 * 0.2 + 0.09), rel=1e-15)
    assert a["exact_mean_abs"] == pytest.approx(float(exact.mean_abs(0.4, 1.0, 0, 0.3 * math.sqrt(2), digits=15)))
    assert abs(a["empirical_mean_abs"] - a["exact_mean_abs"]) < 5 * a["empirical_mean_abs_se"]
    assert abs(a["empirical_var"] - a["exact_var"]) < 5 * a["empirical_var_se"]
    # with a Laplace part and k != 1 the sum has GammaGamma(k, lam), no closed form here
    b = simulate(8, 4, 4, 100, seed=9, noise=_gauss(alpha=0.2, theta=1.0, lam=0.1, sigma=0.3), tight=False)
    assert b["arete"]["exact_mean_abs"] is None and "N(0, 2 sigma^2)" in b["arete"]["sum_distribution"]


def test_paper_parameters_with_sigma():
    r = simulate(4, 4, 10, 200, seed=1, noise=_paper(10, sigma=0.01), tight=False)
    p, p0 = r["params"], simulate(4, 4, 10, 10, seed=1, noise=_paper(10), tight=False)["params"]
    assert p["sigma"] == 0.01 and all(p[key] == p0[key] for key in ("source", "alpha", "theta", "lam", "lemma3_applies"))
    assert r["arete"]["designed_var"] == pytest.approx(2 * p["alpha"] * p["theta"] ** 2 + 2 * p["lam"] ** 2 + 1e-4,
                                                       rel=1e-15)


@pytest.mark.parametrize("kw,match", [
    (dict(alpha=0.3, theta=1.0, lam=0.1, sigma=-0.1), "sigma"),
    (dict(alpha=0.3, theta=1.0, lam=0.1, sigma=float("nan")), "sigma"),
    (dict(alpha=0.3, theta=1.0, lam=-0.1, sigma=0.1), "lam"),
    (dict(alpha=0.3, theta=1.0, sigma=0.1), "lam"),
    (dict(alpha=0.3, theta=1.0, lam=0, sigma=0), "sigma"),  # lam = 0 needs sigma > 0; sigma = 0 is arete
])
def test_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        simulate(4, 4, 2, 10, seed=1, tight=False, noise=_gauss(**kw))


def test_cli_passes_sigma_through(monkeypatch, capsys):
    """``--sigma`` reaches the simulation and the tight epsilon (stubbed here: tight_gauss takes 10-30 s)."""
    seen = []

    def fake_tight(ns, digits):
        seen.append(ns)
        return None, "1", argparse.Namespace(epsilon=7.5)

    monkeypatch.setattr(cli_simulate, "tight_epsilon_of", fake_tight)
    argv = ["simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "8", "--alpha", "0.014727",
            "--theta", "0.85419", "--lam", "0", "--rounds", "300", "--seed", "1"]
    assert main(argv + ["--sigma", "0.027054", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["params"]["sigma"] == 0.027054 and seen[-1].sigma == "0.027054"
    assert out["arete"]["exact_var"] == pytest.approx(2 * 0.014727 * 0.85419**2 + 0.027054**2, rel=1e-15)
    assert main(argv + ["--sigma", "0.027054"]) == 0
    assert "sigma 0.027054" in capsys.readouterr().out
    # --sigma 0 prints what no flag prints
    base = ["simulate", "--parties", "5", "--min-parties", "4", "--epsilon", "6", "--rounds", "200", "--seed", "2",
            "--parameters", "paper"]
    main(base)
    plain = capsys.readouterr().out
    main(base + ["--sigma", "0"])
    assert capsys.readouterr().out == plain


@pytest.mark.parametrize("extra,match", [(["--sigma", "-1"], "--sigma"), (["--sigma", "abc"], "--sigma"),
                                         (["--alpha", "0.3", "--theta", "1", "--lam", "0"], "lam")])
def test_cli_bad_sigma_exits_2(extra, match, capsys):
    assert main(["simulate", "--parties", "4", "--min-parties", "4", "--epsilon", "2", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("arete: error:") and match in err[-1]
