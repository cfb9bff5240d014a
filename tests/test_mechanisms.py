"""Tests of :mod:`arete_proofs.mechanisms` (Definition 4, Lemmas 26 and 27, Lemma 10 and Appendix A).

Reference values and their sources:

* Lemma 3's parameters: :func:`arete_proofs.distributions.params.paper_parameters`, and the formulas
  ``alpha = lam = e^(-eps/4)``, ``theta = 4 Delta/eps`` written out here;
* ``E|Z|`` of Arete: :func:`arete_proofs.distributions.fast.mean_abs` (an independent float64 formula,
  relative error < 1e-13 by its docstring) against the mechanism's closed form from
  :func:`arete_proofs.distributions.arete.mean_abs`; Lemma 3's bound ``E|Z| <= 2 alpha theta + lam``;
* ``Var Z = 2 alpha theta^2 + 2 lam^2`` (Lemma 3); Laplace ``E|Y| = lam``, ``Var = 2 lam^2``
  (Definition 23); Staircase moments from :mod:`arete_proofs.distributions.staircase` (Lemma 27);
* tight epsilon: Corollary 5 (``<= eps`` under Lemma 3's hypotheses) and the closed case
  ``lam >= theta`` => ``Delta/lam`` (privacy module docstring, point 7);
* ``E|N|`` of a distributed sum by the characteristic-function integral
  :func:`arete_proofs.mechanisms.cf_mean_abs`, checked against ``arete.mean_abs`` (k = 1),
  ``gamma_gamma.mean_abs`` (no Laplace part), ``3 lam/2`` for the sum of two Laplace(lam)
  (density ``(1 + |s|/lam) e^(-|s|/lam) / (4 lam)``) and ``lam`` for one Laplace;
* the law of the sum with k = 2 (``2 n_min`` contributors) is the sum of two independent
  Arete draws (two-sample KS against :func:`arete_proofs.mechanisms.sampling.arete`).

Statistical checks use seeded generators and fail at ``p < 1e-6`` or beyond 5 standard errors.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from scipy import stats

from arete_proofs.distributions import arete as engine
from arete_proofs.distributions import fast
from arete_proofs.distributions import gamma_gamma as gg_engine
from arete_proofs import mechanisms as Mc
from arete_proofs.mechanisms import sampling as S
from arete_proofs.distributions import staircase as sc_engine
from arete_proofs.distributions.params import paper_parameters

P_FAIL = 1e-6
PAPER10 = (math.exp(-2.5), 0.4, math.exp(-2.5))  # Lemma 3 at eps = 10, Delta = 1
FIG4_8 = ("0.01922231819807612", "0.8312962061581013", "0.02547890283133737")  # Figure 4, eps = 8 (paper's code)


def mc_ok(x, mean_abs, var, k=5.0):
    """Sample E|X| within k standard errors of ``mean_abs`` (SE from the exact Var and E|X|)."""
    se = math.sqrt((var - mean_abs**2) / x.size)
    return abs(np.abs(x).mean() - mean_abs) < k * se


# ---------------------------------------------------------------------------
# mechanisms
# ---------------------------------------------------------------------------


def test_arete_paper_parameters():
    m = Mc.AreteMechanism(20, 2)
    a, th, lam = paper_parameters(20, 2, digits=30)
    assert (m.alpha, m.theta, m.lam) == (float(a), float(th), float(lam))
    assert m.alpha == math.exp(-5) and m.theta == 0.4 and m.lam == m.alpha  # e^(-eps/4), 4 Delta/eps
    assert m.params_source == "paper" and m.target_eps == 20.0 and m.Delta == 2.0
    # Lemma 3's hypotheses: Delta >= 2/e and eps >= 20 + 4 ln Delta
    assert m.lemma3_applies is False  # 20 < 20 + 4 ln 2
    assert Mc.AreteMechanism(20, 1).lemma3_applies is True
    assert Mc.AreteMechanism(10, 1).lemma3_applies is False


def test_arete_given_parameters():
    m = Mc.AreteMechanism(alpha=0.1, theta=1, lam=0.05, Delta=1)
    assert (m.alpha, m.theta, m.lam, m.params_source, m.lemma3_applies) == (0.1, 1.0, 0.05, "given", None)
    assert m.target_eps is None and Mc.AreteMechanism(7, alpha=0.1, theta=1, lam=0.05).target_eps == 7.0


@pytest.mark.parametrize("p", [PAPER10, (0.05, 1.0, 0.1), (1.5, 1.0, 0.5)])
def test_arete_exact_errors(p):
    m = Mc.AreteMechanism(alpha=p[0], theta=p[1], lam=p[2])
    assert abs(m.expected_abs_error / fast.mean_abs(*p) - 1) < 1e-12
    assert abs(m.variance / (2 * p[0] * p[1] ** 2 + 2 * p[2] ** 2) - 1) < 1e-14
    if p[0] < 1:
        assert m.expected_abs_error <= 2 * p[0] * p[1] + p[2]  # Lemma 3's bound
    assert mc_ok(m.noise(100_000, 1), m.expected_abs_error, m.variance)


def test_arete_tight_epsilon():
    # Corollary 5: with Lemma 3's parameters and its hypotheses, eps-DP, i.e. tight epsilon <= eps
    m = Mc.AreteMechanism(20, 1)
    assert m.epsilon is not None and m.epsilon <= 20
    assert m.tight_epsilon().lower_bound <= m.tight_epsilon().epsilon <= m.tight_epsilon().upper_bound
    # lam >= theta: the tight epsilon is Delta/lam exactly (closed case)
    assert Mc.AreteMechanism(alpha=0.3, theta=1, lam=2, Delta=1).epsilon == 0.5
    # Figure 4's eps = 8 set (paper's code): tight epsilon 7.999 to 4 digits (privacy.tight_epsilon docstring)
    m8 = Mc.AreteMechanism(alpha=FIG4_8[0], theta=FIG4_8[1], lam=FIG4_8[2], tight_digits=5)
    assert abs(m8.epsilon - 7.999) < 1e-3


def test_arete_epsilon_without_privacy_module(monkeypatch):
    """arete_proofs.privacy.tight missing: epsilon degrades to None with a note, everything else works.

    ``AreteMechanism.tight_epsilon`` (in :mod:`arete_proofs.mechanisms.noise`) imports
    ``tight_epsilon`` lazily from :mod:`arete_proofs.privacy.tight`; a ``None`` entry in
    ``sys.modules`` makes that import raise ImportError even when the module is loaded.
    """
    monkeypatch.setitem(sys.modules, "arete_proofs.privacy.tight", None)  # makes the import raise ImportError
    m = Mc.AreteMechanism(20, 1)
    assert m.epsilon is None and "unavailable" in m.epsilon_note
    assert "arete_proofs.privacy.tight halted" in m.epsilon_note  # the ImportError of the blocked module
    assert m.expected_abs_error > 0


def test_laplace_mechanism():
    m = Mc.LaplaceMechanism(4, 2)  # Lemma 26: lam = Delta/eps
    assert (m.lam, m.expected_abs_error, m.variance, m.epsilon) == (0.5, 0.5, 0.5, 4.0)
    assert mc_ok(m.noise(100_000, 2), 0.5, 0.5)


@pytest.mark.parametrize("eps", [2, 10])
def test_staircase_mechanism(eps):
    m, v = Mc.StaircaseMechanism(eps), Mc.StaircaseMechanism(eps, gamma="variance")
    assert m.gamma == float(sc_engine.gamma_mean_abs(eps)) and v.gamma == float(sc_engine.gamma_var(eps))
    assert m.expected_abs_error == float(sc_engine.mean_abs(m.gamma, 1, eps, digits=20))
    assert v.variance == float(sc_engine.var(v.gamma, 1, eps, digits=20))
    assert m.expected_abs_error < v.expected_abs_error and v.variance < m.variance
    g = Mc.StaircaseMechanism(eps, 3, gamma=0.25)
    assert (g.gamma, g.Delta, g.gamma_choice, g.epsilon) == (0.25, 3.0, "given", float(eps))
    assert mc_ok(m.noise(100_000, 3), m.expected_abs_error, m.variance)


def test_low_privacy_ordering():
    """At eps = 30, Delta = 1 (Lemma 3 applies): Staircase < Arete < Laplace in E|X| (Section 1)."""
    a, l, s = Mc.AreteMechanism(30), Mc.LaplaceMechanism(30), Mc.StaircaseMechanism(30)
    assert a.lemma3_applies
    assert s.expected_abs_error < a.expected_abs_error < l.expected_abs_error


def test_release_shapes_and_independence():
    for m in (Mc.AreteMechanism(20), Mc.LaplaceMechanism(3), Mc.StaircaseMechanism(5)):
        r = m.release(2.5, rng=1)
        assert isinstance(r, float) and r == m.release(2.5, rng=1)
        x = np.arange(12.0).reshape(3, 4)
        out = m.release(x, rng=2)
        assert out.shape == (3, 4) and out.dtype == np.float64
        noise = out - x
        assert len(np.unique(noise)) == 12  # independent noise per coordinate (l_inf sensitivity)
        assert m.release([1, 2], rng=3).shape == (2,)
    # per-coordinate independence: correlation of two coordinates over many releases
    m = Mc.AreteMechanism(alpha=0.1, theta=1, lam=0.3)
    z = m.release(np.zeros((50_000, 2)), rng=4)
    assert abs(np.corrcoef(z[:, 0], z[:, 1])[0, 1]) < 5 / math.sqrt(50_000)


def test_release_distribution():
    m = Mc.AreteMechanism(alpha=PAPER10[0], theta=PAPER10[1], lam=PAPER10[2])
    z = m.release(np.full(20_000, 7.0), rng=5) - 7.0
    assert stats.kstest(z, lambda t: fast.cdf(t, *PAPER10)).pvalue > P_FAIL


@pytest.mark.parametrize("call,name", [
    (lambda: Mc.AreteMechanism(), "eps"),
    (lambda: Mc.AreteMechanism(0), "eps"),
    (lambda: Mc.AreteMechanism(10, -1), "Delta"),
    (lambda: Mc.AreteMechanism(alpha=0.1, theta=1), "lam"),
    (lambda: Mc.AreteMechanism(alpha=-0.1, theta=1, lam=1), "alpha"),
    (lambda: Mc.AreteMechanism(10, tight_digits=0), "tight_digits"),
    (lambda: Mc.LaplaceMechanism(float("nan")), "eps"),
    (lambda: Mc.StaircaseMechanism(3, gamma="median"), "gamma"),
    (lambda: Mc.StaircaseMechanism(3, gamma=1.5), "gamma"),
    (lambda: Mc.LaplaceMechanism(1).release(float("nan")), "value"),
    (lambda: Mc.LaplaceMechanism(1).release("abc"), "value"),
])
def test_mechanism_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_precision_caveat_documented():
    doc = " ".join(Mc.__doc__.split())
    for word in ("Mironov", "snapping", "discrete Laplace", "secure aggregation", "integer"):
        assert word in doc


# ---------------------------------------------------------------------------
# the noise of a distributed sum
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("p", [PAPER10, (0.3, 2.0, 0.1), (1.5, 1.0, 0.5), (1e-4, 1.0, 1e-3)])
def test_cf_mean_abs_against_closed_forms(p):
    ref = engine.mean_abs(*p, digits=20)
    assert abs(Mc.cf_mean_abs([(p[0], p[1]), (1, p[2])]) / float(ref) - 1) < 1e-12
    assert abs(Mc.cf_mean_abs([(p[0], p[1])]) / float(gg_engine.mean_abs(p[0], p[1], digits=20)) - 1) < 1e-12


def test_cf_mean_abs_laplace_sums():
    assert abs(Mc.cf_mean_abs([(1, 0.7)]) - 0.7) < 1e-13  # E|Laplace(lam)| = lam
    assert abs(Mc.cf_mean_abs([(2, 0.7)]) - 1.05) < 1e-13  # two Laplace: 3 lam / 2
    with pytest.raises(ValueError, match="digits"):
        Mc.cf_mean_abs([(1, 1)], digits=0)
    with pytest.raises(ValueError, match="components"):
        Mc.cf_mean_abs([])


def test_sum_noise_law():
    n = Mc.sum_noise(100, 80, *PAPER10)
    assert n.k == 1.25 and n.components == ((1.25 * PAPER10[0], 0.4), (1.25, PAPER10[2]))
    designed = Mc.AreteMechanism(alpha=PAPER10[0], theta=PAPER10[1], lam=PAPER10[2])
    assert abs(n.var() / (1.25 * designed.variance) - 1) < 1e-14  # Var N = k Var Z
    assert n.mean_abs() > designed.expected_abs_error  # Jensen: E|Z + W| >= E|Z|
    one = Mc.sum_noise(80, 80, *PAPER10)
    assert abs(one.mean_abs() / designed.expected_abs_error - 1) < 1e-12  # k = 1: Arete itself


@pytest.mark.parametrize("m,n_min", [(100, 80), (13, 10)])
def test_shares_of_dropout_design_match_sum_noise(m, n_min):
    """m shares sized for n_min, summed: E|N| and Var N within 5 SE of sum_noise's exact values;
    two-sample KS against sum_noise's direct sampler (Gamma shapes add)."""
    law = Mc.sum_noise(m, n_min, *PAPER10)
    z = S.shares(*PAPER10, n_min, 40_000, 6, summed=True, parties=m)
    assert mc_ok(z, law.mean_abs(), law.var())
    k4 = sum(12 * a * s**4 for a, s in law.components)  # fourth cumulant of N
    assert abs(np.mean(z * z) - law.var()) < 5 * math.sqrt((k4 + 2 * law.var() ** 2) / z.size)
    assert stats.ks_2samp(z, law.sample(40_000, 7)).pvalue > P_FAIL


def test_double_participation_is_two_aretes():
    """k = 2 (2 n_min contributors): N is the sum of two independent Arete(alpha, theta, lam) draws."""
    z = S.shares(*PAPER10, 10, 30_000, 8, summed=True, parties=20)
    ref = S.arete(*PAPER10, 30_000, 9) + S.arete(*PAPER10, 30_000, 10)
    assert stats.ks_2samp(z, ref).pvalue > P_FAIL


# ---------------------------------------------------------------------------
# distributed_sum
# ---------------------------------------------------------------------------


def _errors(values, n_min, reps, seed, **kw):
    g = np.random.default_rng(seed)
    truth = np.nansum(values)
    return np.array([Mc.distributed_sum(values, 1, 10, n_min, g, **kw) - truth for _ in range(reps)])


def test_distributed_sum_exact_participation_is_arete():
    """m = n_min: the noise in the released sum is Arete (Lemma 10); KS against fast.cdf."""
    x = np.random.default_rng(0).random(50)
    err = _errors(x, 50, 3000, 11)
    assert stats.kstest(err, lambda t: fast.cdf(t, *PAPER10)).pvalue > P_FAIL


def test_distributed_sum_dropouts_at_least_designed_noise():
    """100 parties, shares sized for n_min = 80, 15 drop out (m = 85, k = 17/16):
    Var and E|N| match sum_noise within 5 SE, both exceed the designed values, and
    P(|N| > t) >= P(|Z| > t) (Anderson's inequality) holds empirically at the designed quartiles."""
    x = np.random.default_rng(1).random(100)
    x[np.random.default_rng(2).choice(100, 15, replace=False)] = np.nan
    err = _errors(x, 80, 4000, 12)
    law = Mc.sum_noise(85, 80, *PAPER10)
    designed = Mc.AreteMechanism(10, 1)
    assert law.k == 85 / 80
    assert mc_ok(err, law.mean_abs(), law.var())
    assert law.mean_abs() > designed.expected_abs_error and law.var() > designed.variance
    for t in (0.02, 0.08, 0.3):  # P(|Z| > t) for the designed Arete
        p = 2 * fast.sf(t, *PAPER10)
        frac = (np.abs(err) > t).mean()
        assert frac > p - 5 * math.sqrt(p * (1 - p) / err.size)


def test_distributed_sum_laplace_and_params():
    x = np.full(20, 0.5)
    err = _errors(x, 20, 3000, 13, mechanism="laplace")  # Goryczka-Xiong shares: Laplace(Delta/eps)
    assert stats.kstest(err, "laplace", args=(0, 0.1)).pvalue > P_FAIL
    g = np.random.default_rng(3)
    assert isinstance(Mc.distributed_sum(x, 1, 10, 20, g, params=(0.1, 1, 0.2)), float)
    assert isinstance(Mc.distributed_sum(x, 1, 10, 20, g, params={"alpha": 0.1, "theta": 1, "lam": 0.2}), float)


@pytest.mark.parametrize("call,name", [
    (lambda: Mc.distributed_sum([0.5, np.nan, 0.2], 1, 10, 3), "n_min"),
    (lambda: Mc.distributed_sum([0.5, 1.2], 1, 10, 1), "values"),
    (lambda: Mc.distributed_sum([-0.1, 0.2], 1, 10, 1), "values"),
    (lambda: Mc.distributed_sum([[0.1, 0.2]], 1, 10, 1), "values"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 1, 10, 0), "n_min"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 0, 10, 1), "Delta"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 1, -1, 1), "eps"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 1, 10, 1, mechanism="staircase"), "mechanism"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 1, 10, 1, mechanism="gauss"), "mechanism"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 1, 10, 1, mechanism="laplace", params=(1, 1, 1)), "params"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 1, 10, 1, params=(1, 1)), "params"),
    (lambda: Mc.distributed_sum([0.1, 0.2], 1, 10, 1, params=(1, 0, 1)), "theta"),
])
def test_distributed_sum_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ---------------------------------------------------------------------------
# simulate and figure_2_data
# ---------------------------------------------------------------------------


def _paper(eps, Delta=1):
    from arete_proofs.noise import FAMILIES

    return FAMILIES["arete"].paper(eps, Delta, digits=40)   # Lemma 3's parameters, as the CLI builds them


def test_simulate_report():
    r = Mc.simulate(100, 80, 10, 2000, seed=0, noise=_paper(10), tight=False)
    assert r["params"]["source"] == "paper" and r["params"]["lemma3_applies"] is False
    assert r["params"]["alpha"] == math.exp(-2.5) and r["params"]["theta"] == 0.4
    a = r["arete"]
    law = Mc.sum_noise(100, 80, *PAPER10)
    assert a["k"] == 1.25 and a["exact_var"] == law.var() and a["exact_mean_abs"] == law.mean_abs()
    assert a["exact_mean_abs"] > a["designed_mean_abs"]
    for key in ("arete", "laplace_distributed", "laplace", "staircase"):
        d = r[key]
        assert abs(d["empirical_mean_abs"] - d["exact_mean_abs"]) < 5 * d["empirical_mean_abs_se"], key
        assert abs(d["empirical_var"] - d["exact_var"]) < 5 * d["empirical_var_se"], key
    assert r["laplace"]["exact_mean_abs"] == 0.1 and r["laplace_distributed"]["exact_var"] == 1.25 * 0.02
    assert r["staircase"]["gamma"] == float(sc_engine.gamma_mean_abs(10))
    assert r == Mc.simulate(100, 80, 10, 2000, seed=0, noise=_paper(10), tight=False)  # reproducible
    import json

    json.dumps(r)  # serialisable for the CLI


def test_simulate_given_and_tight():
    from arete_proofs.noise import make

    r = Mc.simulate(5, 5, 8, 500, seed=1, noise=make("arete", alpha=0.3, theta=1, lam=2))
    assert r["params"]["source"] == "given" and r["params"]["tight_epsilon"] == 0.5  # lam >= theta: Delta/lam
    assert r["arete"]["k"] == 1.0 and abs(r["arete"]["exact_mean_abs"] / r["arete"]["designed_mean_abs"] - 1) < 1e-12


@pytest.mark.parametrize("kw,name", [
    (dict(parties=0), "parties"),
    (dict(min_parties=0), "min_parties"),
    (dict(min_parties=11), "min_parties"),
    (dict(rounds=0), "rounds"),
    (dict(eps=0), "eps"),
    (dict(Delta=-1), "Delta"),
    (dict(seed=-3), "seed"),
    (dict(noise=None), "noise"),
    (dict(noise="arete"), "noise"),
    (dict(noise=("staircase", dict(eps=3))), "infinitely divisible"),
])
def test_simulate_bad_input(kw, name):
    from arete_proofs.noise import make

    if isinstance(kw.get("noise"), tuple):
        kw = {"noise": make(kw["noise"][0], **kw["noise"][1])}
    args = dict(parties=10, min_parties=5, eps=10, rounds=10, seed=0, tight=False, noise=_paper(10))
    args.update(kw)
    with pytest.raises(ValueError, match=name):
        Mc.simulate(**args)


def test_figure_2_data():
    d = Mc.figure_2_data((5, 10, 15), size=5000, seed=2)
    assert sorted(d) == [5, 10, 15]
    for eps, row in d.items():
        assert row["arete"]["params"]["lemma3_applies"] is False  # eps < 20: illustration only (Figure 2)
        assert row["laplace"]["params"]["lam"] == 1 / eps
        for name in ("arete", "laplace", "staircase"):
            x, F = row[name]["x"], row[name]["cdf"]
            assert x.shape == F.shape == (5000,) and np.all(np.diff(x) >= 0) and F[-1] == 1.0
        p = paper_parameters(eps, 1, digits=20)
        pp = tuple(float(v) for v in p)
        assert stats.kstest(row["arete"]["x"], lambda t: fast.cdf(t, *pp)).pvalue > P_FAIL
        assert stats.kstest(row["laplace"]["x"], "laplace", args=(0, 1 / eps)).pvalue > P_FAIL
