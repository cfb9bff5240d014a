"""Secure aggregation end to end (arete_proofs.mechanisms.aggregate, ``arete aggregate``).

* the design: shares GDL(beta/m, a) for the m = N - floor(F N) fewest survivors, beta and a from the
  optimiser (exact tight eps <= target) or DLap(eps/Delta);
* the guarantee: the survivors' eps is the tight eps of GDL((N - j) beta / m, a) (recomputed
  independently), nonincreasing as fewer parties drop; the wrapped law's eps exact for small q and
  enclosed for large q (checked against the exact computation where both run);
* the simulation: the decoded errors follow the survivors' law (G-test; a simulation with the wrong
  number of dropouts is rejected), the empirical wrap-arounds match the exact probability;
* the command: text, JSON keys, one-line errors.
"""

from __future__ import annotations

import json
import math
import random
import re
from fractions import Fraction

import numpy as np
import pytest
from mpmath import mp
from scipy import stats

pytest.importorskip("flint", reason="the exact samplers need python-flint (extra 'exact')")

from arete_proofs.mechanisms import aggregate as agg  # noqa: E402
from arete_proofs.mechanisms import modular  # noqa: E402
from arete_proofs.noise import make  # noqa: E402
from arete_proofs.privacy import tight_gdl  # noqa: E402
from _cli import run  # noqa: E402  (tests/_cli.py)

ALPHA = 1e-6


def test_design_sizes_the_shares_for_the_fewest_survivors():
    d = agg.design("1.5", 40, "0.25", noise="dlap", Delta=2, modulus=97)
    assert (d.tolerated, d.min_survivors, d.beta, d.a) == (10, 30, 1, Fraction(3, 4))
    assert d.share == "GDL(1/30, 0.75)" and d.share_beta == Fraction(1, 30)
    assert d.survivors_beta(10) == 1 and d.survivors_beta(0) == Fraction(4, 3)
    # Delta = 1: DLap(eps), the discrete staircase (least E|N| of all eps-DP integer noise); the optimiser agrees
    one = agg.design(3, 10, "0.1", Delta=1)
    assert (one.beta, one.a) == (1, 3) and "staircase" in one.how
    from arete_proofs.privacy.optimize_discrete import optimize_gdl

    assert optimize_gdl(3, 1)["beta"] == "1"
    g = agg.design(8, 1000, "0.1", Delta=10)                   # the optimiser: beta < 1 at Delta = 10
    assert g.beta < 1 and tight_gdl.tight_epsilon(g.beta, g.a, 10, digits=12).epsilon <= 8


def test_guarantee_is_the_exact_eps_of_the_survivors_law():
    d = agg.design(8, 1000, "0.1", Delta=10)
    worst, none = agg.guarantee(d, digits=12), agg.guarantee(d, dropped=0, digits=12, wrapped=False)
    for g, j in ((worst, 100), (none, 0)):
        beta = mp.mpf(d.beta.numerator) / d.beta.denominator * (1000 - j) / 900
        assert mp.almosteq(g.epsilon, tight_gdl.tight_epsilon(beta, d.a, 10, digits=12).epsilon, 1e-11)
    assert worst.epsilon <= 8 and none.epsilon < worst.epsilon        # fewer dropouts: more noise, less eps
    # the check can fail: the eps of the designed noise split over all 1000 parties (no dropout tolerance)
    fragile = tight_gdl.tight_epsilon(mp.mpf(d.beta.numerator) / d.beta.denominator * 900 / 1000, d.a, 10)
    assert fragile.epsilon > 8


@pytest.mark.parametrize("beta,a,q", [("0.5", "0.7", 4096), ("2", "1", 4096), ("0.3", "0.2", 2048)])
def test_wrapped_bounds_contain_the_exact_wrapped_eps(beta, a, q):
    exact_w = modular.modular_tight_epsilon(beta, a, q, 2, digits=12)
    lo, hi = agg.wrapped_epsilon_bounds(beta, a, q, 2, digits=12)
    assert lo - mp.mpf(10) ** -11 <= exact_w <= hi + mp.mpf(10) ** -11
    if float(beta) <= 1:                        # attained at residue 0: the enclosure is tight
        assert hi - lo < 1e-11
    # a small modulus makes the wrapped law's loss smaller than the unwrapped eps*: the upper end alone would
    # not be exact there, and the lower end follows it
    e_small = modular.modular_tight_epsilon(beta, a, 8, 2, digits=12)
    assert e_small < hi - 1e-3


def test_guarantee_wrapped_exact_for_small_q_and_enclosed_for_large_q():
    d_small = agg.design(1, 20, "0.1", noise="dlap", modulus=8)     # a modulus within the noise: the residue hides more
    g = agg.guarantee(d_small, digits=10)
    assert g.wrapped_exact and g.epsilon_wrapped_lower == g.epsilon_wrapped_upper < g.epsilon - 1e-3
    assert g.epsilon_wrapped_upper == modular.modular_tight_epsilon(1, 1, 8, 1, digits=10)
    d_large = agg.design(1, 20, "0.1", noise="dlap", modulus=2**32)
    g = agg.guarantee(d_large, digits=10)
    # survivors' beta = 1: eps* = a Delta exactly; the wrapped law agrees to the digits shown
    assert g.wrapped_exact and mp.almosteq(g.epsilon_wrapped_lower, 1, 1e-10) and g.epsilon == 1


def _g_test(errors, noise):
    K = 0
    while float(noise.sf(K, digits=12)) * errors.size > 10:
        K += 1
    ks = np.arange(-K, K + 1)
    p = np.array([float(noise.pmf(int(k), digits=12)) for k in ks])
    tail = float(noise.sf(K, digits=12))
    p = np.concatenate([[tail], p, [tail]])
    obs = np.bincount(np.clip(errors, -K - 1, K + 1) + K + 1, minlength=ks.size + 2).astype(float)
    e = p / p.sum() * errors.size
    nz = obs > 0
    return float(stats.chi2.sf(2 * np.sum(obs[nz] * np.log(obs[nz] / e[nz])), obs.size - 1))


def test_simulated_errors_follow_the_survivors_law_with_power():
    d = agg.design("0.7", 20, "0.25", noise="dlap", modulus=2**20)        # 5 dropouts tolerated, 15 survivors
    r = agg.simulate_rounds(d, 40_000, rng=random.Random(1))
    assert r.wraps == 0 and r.draws == 40_000 * 15 and r.draws_per_second > 0
    assert _g_test(r.errors, make("gdl", beta=1, a="0.7")) > ALPHA
    # power: rounds in which nobody dropped out carry GDL(20/15, 0.7): rejected against GDL(1, 0.7)
    r0 = agg.simulate_rounds(d, 40_000, dropped=0, rng=random.Random(2))
    assert _g_test(r0.errors, make("gdl", beta=1, a="0.7")) < ALPHA
    assert _g_test(r0.errors, make("gdl", beta=Fraction(4, 3), a="0.7")) > ALPHA


def test_simulated_wraps_match_the_exact_probability():
    d = agg.design("0.3", 6, "0", noise="dlap", modulus=16)            # DLap(0.3) against a window of 16
    g = agg.guarantee(d, digits=10, wrapped=False)
    r = agg.simulate_rounds(d, 50_000, rng=random.Random(3))
    # the exact probability is the worst over the true sums; the average over the simulated ones is below it
    p = float(g.wrap_probability)
    frac = r.wraps / r.rounds
    assert 0 < frac <= p + 5 * math.sqrt(p * (1 - p) / r.rounds)
    true_sum = 3                                                      # values uniform on {0, 1}: sums near 3
    mid = float(modular.wrap_probability(1, "0.3", 16, true_sum, d.window, digits=10))
    assert abs(frac - mid) < 0.05                                     # of the right size
    assert np.all((r.errors % 16 == 0) | (np.abs(r.errors) < 16))


def test_aggregate_report_keys():
    r = agg.aggregate(2, 30, "0.1", noise="dlap", modulus=2**16, rounds=50, rng=4, digits=8)
    for key in ("epsilon_target", "epsilon_guaranteed", "mean_abs_error", "wrap_probability", "draws_per_second"):
        assert key in r
    assert r["epsilon_guaranteed"] == 2.0 and r["epsilon_target"] == 2.0 and r["tolerated_dropouts"] == 3
    json.dumps(r)


@pytest.mark.parametrize("kw,match", [
    ({"noise": "laplace"}, "noise must be one of gdl, dlap"),
    ({"epsilon": "-1"}, "epsilon must be"),
    ({"epsilon": "x"}, "epsilon must be a number"),
    ({"dropout": "1"}, r"dropout must be in \[0, 1\)"),
    ({"parties": 0}, "parties must be an integer >= 1"),
    ({"modulus": "2**70"}, "modulus must be"),
    ({"modulus": 1}, "modulus must be"),
    ({"Delta": 0}, "Delta"),
    ({"epsilon": "101"}, "epsilon must be at most 100"),
    ({"Delta": 10_001}, "must be at most 10000"),
    ({"epsilon": "0.5", "Delta": 1000}, "epsilon / Delta must be at least 1/1000"),
])
def test_design_bad_input(kw, match):
    args = {"epsilon": 1, "parties": 10, "dropout": "0.1", "noise": "dlap", **kw}
    with pytest.raises(ValueError, match=match) as info:
        agg.design(args.pop("epsilon"), args.pop("parties"), args.pop("dropout"), **args)
    assert "\n" not in str(info.value)


def test_cli_text_and_json(capsys):
    argv = ["aggregate", "--noise", "gdl", "--epsilon", "8", "--parties", "1000", "--dropout", "0.1",
            "--modulus", "2**32", "--rounds", "100", "--seed", "1"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    for label in ("epsilon guaranteed", "of the released residue", "wrap-around probability", "share draws per second"):
        assert label in out
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["epsilon_target"] == 8 and doc["epsilon_guaranteed"] <= 8 and doc["min_survivors"] == 900
    assert doc["wrap_probability"] == 0.0 and doc["draws_per_second"] > 0 and doc["share_draws"] == 90_000
    # reproducible with a seed
    assert json.loads(run(capsys, *argv, "--json")[1])["mean_abs_error"] == doc["mean_abs_error"]


@pytest.mark.parametrize("argv,message", [
    (["--epsilon", "0"], "epsilon must be positive"),
    (["--epsilon", "1", "--dropout", "1.5"], r"dropout must be in \[0, 1\)"),
    (["--epsilon", "1", "--modulus", "2**99"], "--modulus"),
    (["--epsilon", "1", "--parties", "0"], "--parties must be an integer >= 1"),
    (["--epsilon", "1", "--noise", "laplace"], "invalid choice"),
    (["--epsilon", "1", "--rounds", "100000000"], "random draws"),
])
def test_cli_bad_input(capsys, argv, message):
    base = {"--parties": "10"}
    args = ["aggregate", *argv] + [x for k, v in base.items() if k not in argv for x in (k, v)]
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and re.search(message, err), err
