"""Lemma 3 with rates (issue 26): the rate-optimal parameters, their registry records, the
algebra that replaces Lemma 19's (8)-(10), the API and the CLI option.

Independent methods: the parameters of ``paper_parameters`` (mpmath) against the registry's sympy
expressions (``chain.rates.RULES``) evaluated by sympy; privacy against the tight epsilon of the noise
(``privacy.tight``, a search over t, not the chain's bound); errors against the exact E|Z|
(closed form, ``distributions.arete.mean_abs``) and Var Z from the characteristic function."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp
from mpmath import mp

from arete_proofs import noise
from arete_proofs.chain import rates, registry, symbolic, verify as V
from arete_proofs.chain.registry import REGISTRY
from arete_proofs.chain.symbols import Delta, alpha, eps, lam, theta
from arete_proofs.cli import main
from arete_proofs.distributions.params import RATE_EPS_0, paper_parameters

RULES = ("mean_abs", "variance")


def _sympy_params(rule, e, D, digits=40):
    sub = rates.RULES[rule].substitutions
    return [sp.N(sub[s].subs({eps: e, Delta: D}), digits) for s in (alpha, theta, lam)]


# --------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------

@pytest.mark.parametrize("e, D", [(20, 1), ("24.5", "0.01"), (40, 7)])
def test_lemma_3_rule_is_the_default_and_unchanged(e, D):
    """rule="lemma-3" (the default) is Lemma 3's alpha = lam = e^{-eps/4}, theta = 4 Delta/eps, exactly as before."""
    with mp.workdps(40):
        ref = (mp.exp(-mp.mpf(e) / 4), 4 * mp.mpf(D) / mp.mpf(e), mp.exp(-mp.mpf(e) / 4))
    got = paper_parameters(e, D, digits=30)
    assert got == paper_parameters(e, D, rule="lemma-3", digits=30)
    assert all(mp.almosteq(g, r, 1e-32) for g, r in zip(got, ref))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("e, D", [(None, 1), (14, "0.01"), (40, 1000)])
def test_rate_parameters_match_the_registry(rule, e, D):
    e = RATE_EPS_0[rule] if e is None else e
    got = paper_parameters(e, D, rule=rule, digits=30)
    ref = _sympy_params(rule, sp.Rational(e), sp.Rational(D))
    with mp.workdps(40):
        for g, r in zip(got, ref):
            assert mp.almosteq(g, mp.mpf(str(r)), 1e-31)
        al, th, la = got
        assert mp.almosteq(th, mp.mpf(D), 1e-32)
        assert mp.almosteq(al * la, 48 * mp.mpf(D) * mp.exp(-mp.mpf(e)), 1e-30)


def test_rate_parameters_closed_forms():
    # 2 sqrt 6 = 4.898979485566356196394568149411782783931894961313340256865385134501920754914630053079718866209280469
    # (mpmath sqrt(6)*2 at 100 digits); 8 * 3^(2/3) = 16.64067058441523...(sympy N(8*3**(2/3), 25))
    al, th, la = paper_parameters(20, 1, rule="mean_abs", digits=30)
    with mp.workdps(40):
        assert mp.almosteq(al * mp.exp(10), mp.mpf("4.8989794855663561963945681494117827839"), 1e-30)
        assert mp.almosteq(la, 2 * al)
        al, th, la = paper_parameters(20, 1, rule="variance", digits=30)
        assert mp.almosteq(al * mp.exp(mp.mpf(40) / 3), mp.mpf("16.64067058441523291624045"), 1e-22)
        assert mp.almosteq(la**3 * mp.exp(20), 24, 1e-28)


@pytest.mark.parametrize("rule", RULES)
def test_below_eps_0_is_a_clear_error(rule):
    e0 = RATE_EPS_0[rule]
    with pytest.raises(ValueError, match=rf"^eps must be >= {e0} for rule '{rule}'"):
        paper_parameters(e0 - sp.Rational(1, 100), 1, rule=rule)
    paper_parameters(e0, 1, rule=rule)            # eps_0 itself is in the theorem


def test_bad_rule_and_bad_delta():
    with pytest.raises(ValueError, match="^rule must be one of"):
        paper_parameters(20, 1, rule="median")
    with pytest.raises(ValueError, match="Delta"):
        paper_parameters(20, -1, rule="mean_abs")


# --------------------------------------------------------------------------
# the theorem, by independent methods
# --------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("e", [None, 14, 20])
def test_tight_epsilon_is_below_eps(rule, e):
    """The exact privacy loss (tight epsilon, a search over t) is below eps: the chain loses about 3.6."""
    e = RATE_EPS_0[rule] if e is None else e
    al, th, la = paper_parameters(e, 1, rule=rule, digits=30)
    z = noise.make("arete", alpha=mp.nstr(al, 30), theta=mp.nstr(th, 30), lam=mp.nstr(la, 30))
    te = z.tight_epsilon(1, digits=12).epsilon
    assert e - 4 < te < e - 3               # 3.56 to 3.78 on eps_0..20 (measured)


@pytest.mark.parametrize("rule", RULES)
def test_scaling_law(rule):
    """theta/Delta and lam/Delta depend on eps only, so the tight epsilon does not depend on Delta."""
    out = []
    for D in ("1", "7"):
        al, th, la = paper_parameters(16, D, rule=rule, digits=30)
        z = noise.make("arete", alpha=mp.nstr(al, 30), theta=mp.nstr(th, 30), lam=mp.nstr(la, 30))
        out.append(z.tight_epsilon(D, digits=12).epsilon)
    assert mp.almosteq(out[0], out[1], 1e-10)


@pytest.mark.parametrize("e", [11, 20, 30])
def test_error_bounds_and_staircase_lower_bounds(e):
    with mp.workdps(30):
        s = mp.exp(-mp.mpf(e) / 2)
        al, th, la = paper_parameters(e, 1, rule="mean_abs", digits=30)
        m = noise.make("arete", alpha=mp.nstr(al, 30), theta=mp.nstr(th, 30), lam=mp.nstr(la, 30)).mean_abs(digits=20)
        assert s <= m <= 8 * mp.sqrt(6) * s
        assert m > 18 * s                        # K_1 = 8 sqrt 6 = 19.596 is nearly attained: 18.15 at eps = 11, 19.56 at 20
        al, th, la = paper_parameters(e, 1, rule="variance", digits=30)
        v = noise.make("arete", alpha=mp.nstr(al, 30), theta=mp.nstr(th, 30), lam=mp.nstr(la, 30)).var(digits=20)
        r = mp.exp(-2 * mp.mpf(e) / 3)
        assert 2 ** (-mp.mpf(2) / 3) * r <= v
        assert mp.almosteq(v, 24 * mp.cbrt(9) * r, 1e-15)   # Var Z = 2 alpha theta^2 + 2 lam^2 exactly


# --------------------------------------------------------------------------
# registry, grid check, symbolic check
# --------------------------------------------------------------------------

def test_records_use_the_chain():
    for rule in RULES:
        st = REGISTRY["lemma-3-" + rule.replace("_", "-")]
        assert set(st.uses) == {"lemma-18", "note-2", "lemma-2", "lemma-27"}
        assert st.substitutions[theta] == Delta
        assert st.check_kinds == "N+S"
        assert all(not st.hypotheses_at(p) for p in st.points("quick"))


def test_regime_points_of_the_rules_satisfy_lemma_18():
    pts = [p for p in registry.regime_points("lemma-18", "default") if p[theta] == p[Delta]]
    assert pts and all(not REGISTRY["lemma-18"].hypotheses_at(p) for p in pts)
    assert any(p[alpha] * p[lam] == 48 * p[Delta] * sp.exp(-10) for p in pts)     # variance rule at eps_0 = 10


@pytest.fixture(scope="module")
def quick():
    return V.verify(["lemma-3-mean-abs", "lemma-3-variance"], level="quick", progress=False)


def test_quick_grid_holds(quick):
    assert quick.ok, [(s.id, s.violations, s.grid_errors) for s in quick.statements]
    for s in quick.statements:
        assert s.points > 0 and {b.name for b in s.bounds} >= {"privacy", "tight-epsilon", "error", "chain"}


def _broken(monkeypatch, st):
    monkeypatch.setitem(REGISTRY, st.id, st)
    V._COMPILED.pop(st.id, None)
    return V.verify([st.id], level="quick", progress=False).statements[0]


def test_broken_constant_k1_is_caught(monkeypatch):
    """K_1 = 18 instead of 8 sqrt 6 = 19.596: E|Z| exceeds it (E|Z| = 18.15 Delta e^{-eps/2} at eps = 11)."""
    st = REGISTRY["lemma-3-mean-abs"]
    bounds = tuple(dataclasses.replace(b, rhs=18 * Delta * sp.exp(-eps / 2)) if b.name == "error" else b
                   for b in st.bounds)
    rep = _broken(monkeypatch, dataclasses.replace(st, id="broken-k1", bounds=bounds))
    assert next(b for b in rep.bounds if b.name == "error").violations >= 1


def test_broken_eps_0_is_caught(monkeypatch):
    """eps_0 = 8 for the mean_abs rule: alpha(8) = 0.09 > 1/41, the chain does not close (the exact loss does)."""
    st = REGISTRY["lemma-3-mean-abs"]

    def grid(level):
        return [{**p, eps: sp.Integer(8)} for p in st.grid(level)]

    rep = _broken(monkeypatch, dataclasses.replace(st, id="broken-eps0", hypotheses=(eps >= 8,) + st.hypotheses[1:],
                                                   grid=grid))
    failed = {b.name for b in rep.bounds if b.violations}
    assert {"chain-factor", "hyp-alpha"} <= failed and "privacy" not in failed


def test_broken_product_is_caught(monkeypatch):
    """lam / 4 (alpha lam = 12 Delta e^-eps < 16 e): the chain's bound exceeds e^eps."""
    st = REGISTRY["lemma-3-variance"]
    subs = dict(st.substitutions)
    subs[lam] = subs[lam] / 4
    rep = _broken(monkeypatch, dataclasses.replace(st, id="broken-prod", substitutions=subs))
    assert next(b for b in rep.bounds if b.name == "chain").violations >= 1


@pytest.mark.parametrize("rule", RULES)
def test_symbolic_check_holds_and_fails_when_broken(rule):
    (res,) = symbolic.run(["lemma-3-" + rule.replace("_", "-") + "/algebra"])
    assert res.holds, res.detail
    assert "ball arithmetic" in res.detail and "FAILED" not in res.detail
    assert not symbolic.rule_check(rule, constant=43).holds               # below 16 e
    assert not symbolic.rule_check(rule, eps_0=RATE_EPS_0[rule] - 2).holds  # alpha(eps_0) > 1/41
    assert not symbolic.ball_certificate(rule, eps_0=RATE_EPS_0[rule] - 2)[0]


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_paper_rule_shows_the_tight_eps(capsys):
    code, out, err = run(capsys, "epsilon", "--paper-eps", "20", "--paper-rule", "mean_abs")
    assert code == 0, err
    lines = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
    assert 16 < float(lines["epsilon"]) < 17         # 16.4323239426 (measured)
    code, out_default, _ = run(capsys, "epsilon", "--paper-eps", "20")
    code2, out_explicit, _ = run(capsys, "epsilon", "--paper-eps", "20", "--paper-rule", "lemma-3")
    assert code == code2 == 0 and out_default == out_explicit and "14.2498257839" in out_default


@pytest.mark.parametrize("argv, message", [
    (["--paper-eps", "9", "--paper-rule", "mean_abs"], "eps must be >= 11 for rule 'mean_abs'"),
    (["--paper-rule", "variance", "--alpha", "0.1", "--theta", "1", "--lam", "0.1"],
     "--paper-rule is only meaningful with --paper-eps"),
    (["--paper-eps", "20", "--paper-rule", "median"], "invalid choice"),
])
def test_cli_paper_rule_errors(capsys, argv, message):
    code, out, err = run(capsys, "epsilon", *argv)
    assert code == 2 and message in err
    if "median" not in argv:                        # argparse's own message has a usage line first
        assert len(err.strip().splitlines()) == 1


def test_docs_table_is_current():
    """docs/explanation/rates.md renders rates.table_markdown() at build time (docs/_ext/arete_site.py)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "explanation" / "rates.md").read_text(encoding="utf-8")
    assert "```{arete-table} rates" in text and rates.table_markdown().startswith("| eps |")
