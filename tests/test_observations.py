"""The observations on the paper's literal text (:mod:`arete_proofs.chain.observations`).

Every observation id exists and returns the verdict established for it; each
``fails`` verdict's counterexample is re-verified here by an independent route
(direct mpmath quadrature, :func:`arete_proofs.reference.gg_pdf_integral`,
sympy's own evaluation of closed forms, or the float64 engine
:mod:`arete_proofs.distributions.fast`).  Every observation has a fast test (reduced grids
where the full check takes longer than a few seconds); the full checks run in
the ``slow`` test at the end.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from mpmath import mp

from arete_proofs.distributions import fast

from arete_proofs import reference
from arete_proofs.chain import observations as obs
from arete_proofs.chain.registry import REGISTRY, RHS_CLAIM_1
from arete_proofs.chain.symbols import D_Gamma, D_u, Delta, alpha, explicit, lam, t, theta

#: The verdict established for each observation (statement map, "Observations worth checking").
EXPECTED = {
    "lemma-3-beta": "typo",
    "lemma-18-theta": "harmless",
    "claim-1-t-plus-1": "fails",
    "lemma-15-strict": "harmless",
    "cor-5-shift": "typo",
    "lemma-19-ln48e": "harmless",
    "section-4.2-reduction": "holds",
    "figure-grid": "holds",
    "lemma-14-alpha": "fails",
    "section-4.3-order": "fails",
    "lemma-2-15-alpha": "harmless",
}

#: holds_literal for each observation (None: wording without a claim of its own).
EXPECTED_LITERAL = {
    "lemma-3-beta": None,
    "lemma-18-theta": True,
    "claim-1-t-plus-1": False,
    "lemma-15-strict": True,
    "cor-5-shift": None,
    "lemma-19-ln48e": True,
    "section-4.2-reduction": True,
    "figure-grid": True,
    "lemma-14-alpha": False,
    "section-4.3-order": False,
    "lemma-2-15-alpha": True,
}

SYMBOLS = {"t": t, "Delta": Delta, "alpha": alpha, "theta": theta, "lam": lam,
           "D_Gamma": D_Gamma, "D_u": D_u}


def _parse_point(shown: dict) -> dict:
    """Invert the evidence's point format ('3/85' or 'exp(-15) = 3.05e-7') to exact numbers."""
    return {SYMBOLS[k]: sp.sympify(v.split(" = ")[0]) for k, v in shown.items()}


def _check(o, oid):
    assert isinstance(o, obs.Observation)
    assert o.id == oid
    assert o.verdict == EXPECTED[oid], o.detail
    assert o.holds_literal is EXPECTED_LITERAL[oid]
    assert o.statement and o.literal and o.detail
    assert isinstance(o.evidence, dict) and o.evidence


# ---------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------

def test_every_observation_id_exists():
    assert obs.OBSERVATION_IDS == tuple(EXPECTED)
    assert set(obs.CHECKS) == set(EXPECTED)
    assert all(callable(c) for c in obs.CHECKS.values())


def test_observation_rejects_unknown_verdict():
    with pytest.raises(ValueError):
        obs.Observation("x", "s", "l", "maybe", None, "d", {})
    o = obs.Observation("x", "s", "l", "typo", None, "d", {})
    with pytest.raises(Exception):
        o.verdict = "fails"  # frozen


def test_run_rejects_unknown_id():
    with pytest.raises(ValueError, match="unknown observation"):
        obs.run(["lemma-99"])


def test_run_selected_ids():
    out = obs.run(["lemma-3-beta", "lemma-19-ln48e"], digits=20)
    assert [o.id for o in out] == ["lemma-3-beta", "lemma-19-ln48e"]
    assert [o.verdict for o in out] == ["typo", "harmless"]


# ---------------------------------------------------------------------------
# 1. Lemma 3: beta
# ---------------------------------------------------------------------------

def test_lemma_3_beta():
    o = obs.check_lemma_3_beta(20)
    _check(o, "lemma-3-beta")
    assert o.evidence["registry_substitutions"] == ["alpha", "lam", "theta"]
    assert o.evidence["beta_in_lemma_3"] is False
    p = o.evidence["parameters_at_eps_20_Delta_1"]
    assert mp.almosteq(mp.mpf(p["alpha"]), mp.exp(-5), 1e-18)
    assert mp.almosteq(mp.mpf(p["theta"]), mp.mpf("0.2"), 1e-18)


# ---------------------------------------------------------------------------
# 2. Lemma 18: theta <= D_Gamma + 1
# ---------------------------------------------------------------------------

def test_lemma_18_theta_quick():
    o = obs.check_lemma_18_theta(20, level="quick")
    _check(o, "lemma-18-theta")
    ev = o.evidence
    assert ev["points_failing"] == 0
    assert ev["points_where_lemma_17_gap_fails"] > 0   # the proof does not cover these points
    assert "theta <= D_Gamma + 1" in ev["literal_hypotheses"]
    assert "theta <= D_Gamma + Delta" not in ev["literal_hypotheses"]
    assert ev["proof_step_2"]["holds"] is False
    assert ev["ratio_le_exp(Delta/lam)_everywhere"] is True


def test_lemma_18_gap_failing_point_independently():
    """A point of the literal-only region where the gap fails: the ratio by the float64 engine."""
    o = obs.check_lemma_18_theta(20, level="quick")
    row = o.evidence["min_rhs_over_ratio_where_gap_fails"]
    p = _parse_point(row["point"])
    al, th, la, Dl, tt = (float(p[s]) for s in (alpha, theta, lam, Delta, t))
    assert th > float(p[D_Gamma]) + Dl                        # outside the proof's hypothesis
    assert 1 / la - 1 / th < 1 / (float(p[D_Gamma]) + Dl)     # Lemma 17 not applicable
    ln_ratio = float(fast.logpdf(np.array([tt]), al, th, la)[0] - fast.logpdf(np.array([tt + Dl]), al, th, la)[0])
    assert math.isclose(ln_ratio, float(mp.log(mp.mpf(row["ratio"]))), rel_tol=1e-10, abs_tol=1e-12)
    assert ln_ratio < float(mp.log(mp.mpf(row["rhs_18"])))
    assert ln_ratio <= Dl / la                                 # the e^{Delta/lam} argument


# ---------------------------------------------------------------------------
# 3. Claim 1: t + 1
# ---------------------------------------------------------------------------

def _fG(y, al, th):
    return y ** (al - 1) * mp.exp(-y / th) / (mp.gamma(al) * th**al)


def _fL(x, la):
    return mp.exp(-abs(x) / la) / (2 * la)


def _quad_near_mass(tt, du, al, th, la):
    """int_{t-D_u}^{t+D_u} f_Gamma(|t-x|) f_L(x) dx by tanh-sinh, split at t and 0."""
    pts = sorted({tt - du, tt, tt + du} | ({mp.zero} if tt - du < 0 < tt + du else set()))
    return mp.quad(lambda x: _fG(abs(tt - x), al, th) * _fL(x, la), pts)


def _quad_shifted(s, dg, al, th, la):
    """int f_Gamma(D_Gamma + |s - x|) f_L(x) dx by tanh-sinh over the real line."""
    inner = sorted({mp.zero, s} | {s + k * th for k in (-8, -2, 2, 8)} | {k * la for k in (-8, 8)})
    return mp.quad(lambda x: _fG(dg + abs(s - x), al, th) * _fL(x, la), [mp.ninf] + inner + [mp.inf])


def test_claim_1_literal_fails_and_counterexample_independently():
    o = obs.check_claim_1_t_plus_1(20, level="quick")
    _check(o, "claim-1-t-plus-1")
    ev = o.evidence
    assert "shifted_conv(t + 1" in ev["literal_lhs"]
    assert ev["holds_with_Delta_gt_1"].split(" of ")[0] == ev["holds_with_Delta_gt_1"].split(" of ")[1]
    cx = ev["counterexample"]
    p = _parse_point(cx["point"])
    assert p[Delta] == sp.Rational(1, 10) and p[alpha] == sp.Rational(1, 2)
    assert not REGISTRY["claim-1"].hypotheses_at(p)            # the claim's hypotheses hold
    with mp.workdps(30):
        tt, du, dg, al, th, la, Dl = (mp.mpf(sp.N(p[s], 40)) for s in (t, D_u, D_Gamma, alpha, theta, lam, Delta))
        num = _quad_near_mass(tt, du, al, th, la)
        den_literal = _quad_shifted(tt + 1, dg, al, th, la)
        den_proof = _quad_shifted(tt + Dl, dg, al, th, la)
        rhs = mp.mpf(sp.N(explicit(RHS_CLAIM_1).subs(p), 30))
        assert mp.almosteq(num / den_literal, mp.mpf(cx["literal_lhs (t + 1)"]), 1e-15)
        assert num / den_literal > 1000 * rhs                  # the literal claim fails by far
        assert num / den_proof < rhs                          # the t + Delta claim holds there


# ---------------------------------------------------------------------------
# 4. Lemma 15 at lam = Delta/ln 2
# ---------------------------------------------------------------------------

def test_lemma_15_strict():
    o = obs.check_lemma_15_strict(20)
    _check(o, "lemma-15-strict")
    assert o.evidence["laplace_mass_exact"].endswith("= 1/4")
    assert mp.mpf(o.evidence["lemma_15_min_rhs/lhs"]) > 1
    # independently: (1 - e^{-Delta/lam})/2 at lam = Delta/ln 2 is exactly 1/4
    D = sp.Symbol("D", positive=True)
    assert sp.simplify((1 - sp.exp(-D / (D / sp.log(2)))) / 2) == sp.Rational(1, 4)


# ---------------------------------------------------------------------------
# 5. Corollary 5
# ---------------------------------------------------------------------------

def test_cor_5_shift():
    o = obs.check_cor_5_shift(20)
    _check(o, "cor-5-shift")
    for key, row in o.evidence.items():
        assert row["ratio_le_e^eps"] and row["shift_Delta_dominates"], key
        lr = {k: float(v) for k, v in row["max_ln_ratio_by_shift"].items()}
        assert max(lr.values()) < float(row["eps"])
    assert o.evidence["Delta=10, eps=24"]["in_lemma_3_hypotheses"] is False
    assert o.evidence["Delta=10, eps=30"]["in_lemma_3_hypotheses"] is True


# ---------------------------------------------------------------------------
# 6. Lemma 19: ln(48 e)
# ---------------------------------------------------------------------------

def test_lemma_19_ln48e():
    o = obs.check_lemma_19_ln48e(20)
    _check(o, "lemma-19-ln48e")
    with mp.workdps(40):
        v = 1 + mp.log(48)
        assert v < mp.mpf("4.9") < 5
        assert mp.almosteq(mp.mpf(o.evidence["ln(48 e)"]), v, 1e-19)
    assert all(mp.mpf(r["rhs_9 / e^eps"]) < 1 for r in o.evidence["eq_10_at_threshold"].values())


# ---------------------------------------------------------------------------
# 7. Section 4.2
# ---------------------------------------------------------------------------

def test_section_4_2_reduction():
    o = obs.check_section_4_2_reduction(20)
    _check(o, "section-4.2-reduction")
    ev = o.evidence
    assert ev["pointwise_holds"] and ev["slip_confirmed"]
    assert all(c["sup_le_sup_at_Delta"] for c in ev["cases"].values())


def test_section_4_2_substitution_slip_independently():
    """t = 1, a = -3/2, paper parameters at eps = 20, Delta = 10, with the float64 engine."""
    al, th, la = math.exp(-5), 4 * 10 / 20, math.exp(-5)
    f = {x: float(fast.pdf(np.array([x]), al, th, la)[0]) for x in (0.5, 1.0, 2.5)}
    tt, a = 1.0, -1.5
    assert f[abs(tt)] < f[abs(tt + a)]                 # the case f(t) < f(t+a)
    t_paper = abs(tt) - a                              # 5/2
    assert f[t_paper] < f[abs(t_paper + a)]            # f(t') >= f(t'+a) fails
    t_right = -tt - a                                  # 1/2
    assert math.isclose(f[abs(t_right)] / f[abs(t_right + a)], f[0.5] / f[1.0], rel_tol=1e-14)
    o = obs.check_section_4_2_reduction(20, level="quick")
    slip = o.evidence["substitution_slip"]
    assert math.isclose(float(slip["paper f(t')/f(t'+a)"]), f[2.5] / f[1.0], rel_tol=1e-10)
    assert math.isclose(float(slip["right f(t')/f(t'+a)"]), f[0.5] / f[1.0], rel_tol=1e-10)


# ---------------------------------------------------------------------------
# 8. Figures
# ---------------------------------------------------------------------------

def test_figure_grid_quick():
    o = obs.check_figure_grid(20, sets=[6], half_width=20)
    _check(o, "figure-grid")
    row = o.evidence["eps=6"]
    assert row["grid_argmax_t"] == "0/1000"
    diff = mp.mpf(row["refined_minus_grid"])
    assert 0 < diff < mp.mpf("1e-6")                       # the maximiser sits at t ~ 6e-8
    tref = float(mp.mpf(row["refined_argmax_t"]))
    assert 1e-9 < tref < 1e-6
    # independently, with the float64 engine: the excess over t = 0 at the refined maximiser
    al, th, la = (float(x) for x in obs.FIGURE_4_PARAMETERS[6])
    ts = np.array([0.0, tref])
    g = fast.logpdf(ts, al, th, la) - fast.logpdf(ts + 1, al, th, la)
    assert math.isclose(g[1] - g[0], float(diff), rel_tol=1e-3, abs_tol=1e-11)


# ---------------------------------------------------------------------------
# 9. Lemma 14 for alpha > 1
# ---------------------------------------------------------------------------

def test_lemma_14_alpha_counterexample_independently():
    o = obs.check_lemma_14_alpha(20)
    _check(o, "lemma-14-alpha")
    cx = o.evidence["counterexample_upper"]
    al, th, tt = (sp.sympify(cx["point"][k]) for k in ("alpha", "theta", "t"))
    assert al > 1
    with mp.workdps(30):
        a_, th_, t_ = (mp.mpf(sp.N(v, 40)) for v in (al, th, tt))
        gg = reference.gg_pdf_integral(t_, a_, th_, digits=20)       # Definition 7 by quadrature
        fg = _fG(abs(t_), a_, th_)
        assert mp.almosteq(gg, mp.mpf(cx["f_GG(t)"]), 1e-18)
        assert mp.almosteq(fg, mp.mpf(cx["f_Gamma(|t|)"]), 1e-18)
        assert gg > 2 * fg                                             # upper bound fails
        # t = 0: f_GG(0) = Gamma(2a - 1)/(Gamma(a)^2 2^(2a - 1) theta) > 0 = f_Gamma(0)
        for k, row in o.evidence["at_t=0"].items():
            a0 = mp.mpf(sp.N(sp.sympify(k), 40))
            closed = mp.gamma(2 * a0 - 1) / (mp.gamma(a0) ** 2 * 2 ** (2 * a0 - 1))
            assert mp.almosteq(closed, mp.mpf(row["f_GG(0)"]), 1e-18)
            assert mp.mpf(row["f_Gamma(0)"]) == 0
    # the lower bound: no counterexample, and the alpha -> inf limit is below 1
    assert o.evidence["lower_bound_failures"] == 0
    assert float(o.evidence["lower_bound_float64_scan"]["min_ln(f_GG/lower)"]) > 0
    assert float(o.evidence["lower_bound_normal_limit"]["value"]) < 1


# ---------------------------------------------------------------------------
# 2b. Lemma 18 read literally excludes Lemma 19's own parameters (Delta > 6.94)
# ---------------------------------------------------------------------------

def test_lemma_18_literal_excludes_lemma_19_parameters():
    from arete_proofs.chain.observations.hypotheses import lemma_19_excluded

    e10 = 20 + 4 * sp.log(10)
    assert lemma_19_excluded(10, e10) == [theta <= D_Gamma + 1]
    # independently: theta = 4 Delta/eps against alpha theta + 1 with alpha = e^{-eps/4}, in mpmath
    with mp.workdps(30):
        e = 20 + 4 * mp.log(10)
        th = 40 / e
        assert th > mp.exp(-e / 4) * th + 1 and mp.almosteq(e, mp.mpf("29.2103403719761827"), 1e-15)
    # a deliberately wrong claim is caught: at Delta = 5 (below the crossover) nothing is excluded,
    # nor at Delta = 10 once eps >= 4 Delta (1 - e^{-eps/4}) (about 40)
    assert lemma_19_excluded(5, 20 + 4 * sp.log(5)) == []
    assert lemma_19_excluded(10, 40) == []
    o = obs.check_lemma_18_theta(20, level="quick")
    ex = o.evidence["excludes_lemma_19_parameters"]
    assert 6.9 < float(ex["Delta_above_which_excluded_at_eps=20+4lnDelta"]) < 7.0
    assert ex["Delta=10, eps=20+4ln10"]["proof_hypothesis_theta <= D_Gamma + Delta"] is True
    assert "excludes Lemma 19's own" in o.detail


# ---------------------------------------------------------------------------
# 10. Section 4.3: E|Z| = O((Delta/eps) e^{-eps/4})
# ---------------------------------------------------------------------------

def test_section_4_3_order_fails_and_ratios_independently():
    from arete_proofs.chain.observations.orders import FINAL_ORDER, order_ratios

    o = obs.check_section_4_3_order(20, level="quick")
    _check(o, "section-4.3-order")
    assert o.evidence["E|Z| >= lam everywhere"] is True
    rows = o.evidence["ratios"]["Delta=1"]
    # the ratio grows at least like eps/Delta (E|Z| >= lam)
    assert all(float(r["E|Z|/order"]) >= float(r["eps"]) for r in rows)
    # independently: E|Z| by quadrature of the density of the float64 engine at eps = 20
    from scipy.integrate import quad

    al, th = math.exp(-5), 4 / 20
    f = lambda x: 2 * x * math.exp(fast.logpdf(np.array([x]), al, th, al)[0])  # noqa: E731
    ez = quad(f, 0, 1e-6)[0] + quad(f, 1e-6, 0.1, limit=200)[0] + quad(f, 0.1, 50, limit=200)[0]
    assert abs(ez / float(rows[0]["E|Z|"]) - 1) < 1e-5
    # the final order holds (ratio below Corollary 5's constant 2) ...
    assert all(r[2] < 2 for r in order_ratios(FINAL_ORDER, 1, (20, 80, 320)))
    assert obs.check_section_4_3_order(20, level="quick", order=FINAL_ORDER).verdict == "holds"
    # ... and a deliberately wrong order is caught
    wrong = Delta * sp.exp(-sp.Symbol("eps", real=True) / 2)
    assert obs.check_section_4_3_order(20, level="quick", order=wrong).verdict == "fails"


# ---------------------------------------------------------------------------
# 11. Lemmas 2 and 15: f_Gamma decreasing needs alpha <= 1
# ---------------------------------------------------------------------------

def test_lemma_2_15_alpha():
    from arete_proofs.chain.observations.orders import gamma_increase

    o = obs.check_lemma_2_15_alpha(20, level="quick")
    _check(o, "lemma-2-15-alpha")
    ev = o.evidence
    rising = ev["f_Gamma_increases (x1, x2, f(x1), f(x2)), theta = 1"]
    assert rising["1/2"] is None and rising["1"] is None and rising["3/2"] is not None
    # independently (mpmath closed form of the Gamma density): the pair really increases
    x1, x2 = (mp.mpf(sp.Rational(v)) for v in rising["3/2"][:2])
    fg = lambda x, a: x ** (a - 1) * mp.exp(-x) / mp.gamma(a)  # noqa: E731
    assert fg(x1, 1.5) < fg(x2, 1.5)
    assert ev["lemma_15_step"]["step_holds"] is False
    assert mp.almosteq(mp.mpf(ev["lemma_15_step"]["f_Gamma(|t + Delta - x| + D_Gamma)"]), fg(mp.mpf("0.01"), 2.5),
                       1e-12)
    assert float(ev["lemma_15_conclusion_alpha>1"]["min_ln(f_A(t+Delta)/lower)"]) > 1
    # a deliberately wrong claim is caught: f_Gamma does not increase anywhere for alpha <= 1
    assert gamma_increase(sp.Rational(1, 100)) is None and gamma_increase(sp.Rational(99, 100)) is None


def test_lemma_2_15_alpha_catches_a_broken_lemma_15(monkeypatch):
    """With Lemma 15's constant c_L = 1/4 replaced by 4 the conclusion fails at alpha > 1: verdict fails."""
    import dataclasses

    from arete_proofs.chain.symbols import c_L

    s15 = REGISTRY["lemma-15"]
    b = s15.bounds[0]
    broken = dataclasses.replace(s15, bounds=(dataclasses.replace(b, lhs=b.lhs.subs(c_L, 4 * 4 * 4 * c_L)),))
    monkeypatch.setitem(REGISTRY, "lemma-15", broken)
    o = obs.check_lemma_2_15_alpha(20, level="quick")
    assert o.verdict == "fails" and o.holds_literal is False


# ---------------------------------------------------------------------------
# everything at the default grids
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_run_all_full_grids():
    out = obs.run(digits=20)
    assert [o.id for o in out] == list(EXPECTED)
    by_id = {o.id: o for o in out}
    for oid, o in by_id.items():
        _check(o, oid)
    l18 = by_id["lemma-18-theta"].evidence
    assert l18["points_failing"] == 0 and l18["points"] >= 800
    assert mp.mpf(l18["min_rhs_over_ratio"]["rhs/ratio"]) > 10
    assert mp.mpf(l18["float64_scan"]["engine_rhs/ratio"]) > 10
    c1 = by_id["claim-1-t-plus-1"].evidence
    assert int(c1["fails_with_Delta_lt_1"].split(" of ")[0]) > 0
    fig = by_id["figure-grid"].evidence
    for row in fig.values():
        assert abs(mp.mpf(row["refined_minus_grid"])) < mp.mpf("1e-6")
        assert row["grid_argmax_t"] == "0/1000"
