"""Symbolic checks (arete_proofs.chain.symbolic): every check the registry names exists and holds,
and a deliberately broken variant of each is reported as not holding."""

import time

import pytest
import sympy as sp

from arete_proofs.chain import registry, symbolic
from arete_proofs.chain.registry import REGISTRY
from arete_proofs.chain.symbols import D_Gamma, Delta, alpha, eps, gamma_sc, lam, theta

REFERENCED = sorted({cid for s in REGISTRY.values() for cid in s.symbolic})


@pytest.fixture(scope="module")
def results():
    t0 = time.perf_counter()
    out = {r.id: r for r in symbolic.run()}
    return out, time.perf_counter() - t0


def test_registry_ids_exist():
    missing = [cid for cid in REFERENCED if cid not in symbolic.CHECKS]
    assert not missing
    # and no check is orphaned: each belongs to a record that lists it
    for cid, check in symbolic.CHECKS.items():
        assert cid in REGISTRY[check.statement].symbolic


@pytest.mark.parametrize("cid", REFERENCED)
def test_check_holds(results, cid):
    res = results[0][cid]
    assert isinstance(res, symbolic.SymbolicResult)
    assert res.holds, res.detail
    assert res.id == cid
    assert res.statement == cid.split("/")[0]
    assert res.statement in REGISTRY
    assert res.title and res.detail
    assert "FAILED" not in res.detail


def test_run_all_is_fast(results):
    assert len(results[0]) == len(symbolic.CHECKS)
    assert results[1] < 60  # ~15 s on the dev machine


def test_run_subset_and_unknown():
    (res,) = symbolic.run(["lemma-19/threshold"])
    assert res.holds and res.statement == "lemma-19"
    with pytest.raises(ValueError, match="unknown symbolic check"):
        symbolic.run(["lemma-99/nothing"])


def test_failure_is_reported_not_raised():
    def boom():
        raise RuntimeError("sympy could not decide")

    check = symbolic.SymbolicCheck("lemma-18/step", "broken", boom)
    res = check()
    assert not res.holds and "could not decide" in res.detail and res.statement == "lemma-18"


def test_proof_without_steps_does_not_hold():
    assert not symbolic.Proof().holds
    p = symbolic.Proof()
    p.premise("cited fact")
    assert not p.holds  # premises alone establish nothing


# --- broken variants: each must be reported as not holding ----------------------------------

def _fails(proof):
    assert not proof.holds, proof.detail
    assert "FAILED" in proof.detail


def test_symmetry_broken():
    assert symbolic.symmetry_check().holds
    _fails(symbolic.symmetry_check(alpha2=2 * alpha))  # X2 with a different shape: CF not real
    _fails(symbolic.symmetry_check(mu=1))              # shifted Laplace: CF not even


def test_moments_broken():
    _fails(symbolic.moments_check(variance_rhs=alpha * theta**2 + 2 * lam**2))
    _fails(symbolic.moments_check(mean_abs_rhs=alpha * theta + lam))
    _fails(symbolic.moments_check(paper_variance=16 * Delta**2 * sp.exp(-eps / 4) / eps**2 + 2 * sp.exp(-eps / 2)))


def test_maximiser_broken():
    _fails(symbolic.maximiser_check(t_star=(1 - alpha) / registry.GAP - (D_Gamma + Delta) + 1))
    _fails(symbolic.maximiser_check(t_star=1 / registry.GAP - (D_Gamma + Delta)))


def test_lemma18_broken():
    _fails(symbolic.lemma18_step_check(lam_factor=1))          # lam <= theta: (i) fails
    _fails(symbolic.lemma18_step_check(lam_factor=5))          # lam <= 5 theta: (ii) fails too
    _fails(symbolic.lemma18_step_check(rhs18=registry.RHS_18 / 2))
    detail = symbolic.lemma18_step_check(rhs18=registry.RHS_18 / 2).detail
    failed = [line for line in detail.splitlines() if "FAILED" in line]
    assert any("(iv)" in line for line in failed)  # the last step of both chains


def test_bernoulli_broken():
    assert symbolic.bernoulli_check(alpha_value=1).holds
    assert symbolic.bernoulli_check(alpha_value=sp.Rational(1, 3)).holds
    _fails(symbolic.bernoulli_check(alpha_value=2))


def test_gamma_broken():
    _fails(symbolic.gamma_check(alpha_value=2))  # Gamma(3) = 2 > 1/2


def test_algebra_broken():
    _fails(symbolic.algebra_check(log_bound=sp.Rational(24, 5)))  # ln(48 e) = 4.87... > 4.8
    _fails(symbolic.algebra_check(c_median=sp.Rational(1, 3)))    # (8) no longer equals RHS_8
    _fails(symbolic.algebra_check(rhs9=40 * registry.RHS_9 / 48))


def test_threshold_broken():
    _fails(symbolic.threshold_check(constant=sp.Rational(24, 5)))  # 19.2 + 4 ln Delta != 20 + 4 ln Delta
    _fails(symbolic.threshold_check(k=5))


def test_assumptions_broken():
    _fails(symbolic.assumptions_check(delta_min=sp.Rational(1, 2)))  # 1/2 < 2/e
    _fails(symbolic.assumptions_check(k_theta_value=8))               # 8(1 - e^{-x/4}) > x near 0
    _fails(symbolic.assumptions_check(alpha_cap=sp.Rational(1, 4)))


def test_normalisation_broken():
    a = symbolic.staircase_a(gamma_sc, Delta, eps)
    assert symbolic.normalisation_check(a_gamma=a).holds
    _fails(symbolic.normalisation_check(a_gamma=a / 2))
    _fails(symbolic.normalisation_check(
        a_gamma=(1 - sp.exp(-eps)) / (2 * Delta * (gamma_sc + sp.exp(-eps)))))  # (1 - gamma) dropped
