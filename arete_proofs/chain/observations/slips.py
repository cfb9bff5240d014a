r"""Wording slips without mathematical consequence: Lemma 3, Corollary 5 and Lemma 19.

* ``lemma-3-beta`` (Lemma 3): the parameters are named "alpha, beta, lambda";
  they are alpha, theta, lambda (a typo);
* ``cor-5-shift`` (proof of Corollary 5, Section 3.2): "|x - x'| <= 1" where
  only ``|q(x) - q(x')| <= Delta`` is used (a typo);
* ``lemma-19-ln48e`` (proof of Lemma 19, Appendix C.4): ln(48 e) < 4.9, then 5
  in (10) (a harmless rounding).
"""

from __future__ import annotations

from pathlib import Path

import sympy as sp
from mpmath import mp

from ..registry import REGISTRY, RHS_9
from ..symbols import Delta, PAPER_PARAMETERS, a, alpha, eps, lam, numeric, t, theta, to_mpf, working_digits
from ._common import R, Observation, _s, evaluate

__all__ = ["check_lemma_3_beta", "check_cor_5_shift", "check_lemma_19_ln48e"]

_PAPER = Path("/work/shared/paper/arete-paper.txt")


# ---------------------------------------------------------------------------
# 1. Lemma 3: "alpha, beta, lambda"
# ---------------------------------------------------------------------------

def check_lemma_3_beta(digits: int = 20) -> Observation:
    """Lemma 3 names the parameters "alpha, beta, lambda"; they are alpha, theta, lambda.

    The statement's bullets, its last line ("alpha = e^{-eps/4}, theta = 4 Delta/eps,
    lambda = e^{-eps/4} suffice"), Lemma 19 and Definition 1 all use theta; beta
    occurs nowhere else.  The registry's Lemma 3 substitutes exactly alpha, theta
    and lam.
    """
    s = REGISTRY["lemma-3"]
    subs_keys = sorted(str(k) for k in s.substitutions)
    names = sorted({str(x) for b in s.bounds for x in (b.lhs.free_symbols | b.rhs.free_symbols)}
                   | {str(x) for h in s.hypotheses for x in h.free_symbols})
    # the parameters at eps = 20, Delta = 1, evaluated through the registry's substitutions
    f = numeric([eps, Delta], sp.Tuple(*[s.substitutions[k] for k in (alpha, theta, lam)]))
    with working_digits(digits):
        values = f(mp.mpf(20), mp.mpf(1))
        at_20 = {"alpha": _s(values[0], digits), "theta": _s(values[1], digits),
                 "lam": _s(values[2], digits)}
    evidence = {
        "registry_substitutions": subs_keys,
        "symbols_of_lemma_3": names,
        "beta_in_lemma_3": "beta" in names,
        "parameters_at_eps_20_Delta_1": at_20,
    }
    if _PAPER.exists():
        text = _PAPER.read_text()
        evidence["paper_occurrences"] = {
            r"\alpha,\beta,\lambda": text.count(r"\alpha,\beta,\lambda"),
            r"\alpha,\theta,\lambda": text.count(r"\alpha,\theta,\lambda"),
        }
    ok = set(subs_keys) == {"alpha", "theta", "lam"} and "beta" not in names
    return Observation(
        id="lemma-3-beta",
        statement="Lemma 3",
        literal='"there exist parameters alpha, beta, lambda > 0 such that ..."',
        verdict="typo" if ok else "differs",
        holds_literal=None,
        detail=("The existence claim names its parameters alpha, beta, lambda, but every bullet "
                "(Arete(alpha, theta, lambda)) and the closing line 'alpha = e^{-eps/4}, theta = 4 Delta/eps "
                "and lambda = e^{-eps/4} suffice' use theta, as do Definition 1 and Lemma 19.  beta is "
                "theta; nothing mathematical depends on the letter.  The registry's Lemma 3 substitutes "
                f"{', '.join(subs_keys)} and contains no beta."),
        evidence=evidence,
    )


# ---------------------------------------------------------------------------
# 5. Corollary 5: |x - x'| <= 1
# ---------------------------------------------------------------------------

def check_cor_5_shift(digits: int = 20, *, level: str = "default") -> Observation:
    r"""Corollary 5's proof starts from :math:`|x - x'| \le 1`; it only uses :math:`|q(x) - q(x')| \le \Delta`.

    The final inequality of the proof compares :math:`f_A(|z| + \Delta)` with
    :math:`f_A(|z| + |q(x') - q(x)|)`, i.e. needs exactly the sensitivity bound;
    checked numerically with the paper's parameters (Lemma 3's ``privacy`` bound of
    the registry) for shifts :math:`a = \pm\Delta` and smaller.
    """
    s = REGISTRY["lemma-3"]
    bound = next(b for b in s.bounds if b.name == "privacy")
    lhs = bound.lhs.subs(s.substitutions)
    rhs = bound.rhs.subs(s.substitutions)
    cases = [(1, 20, True), (10, 30, True), (10, 24, False)]
    if level == "quick":
        cases = [(1, 20, True)]
    rows = {}
    all_ok = True
    for Dl, e, in_hyp in cases:
        Dl, e = sp.sympify(Dl), sp.sympify(e)
        shifts = [Dl, -Dl, Dl / 2, 1] if Dl != 1 else [Dl, -Dl, Dl / 2]
        ts = [0, R(1, 10**12), R(1, 10**6), Dl / 100, Dl / 2, Dl, 3 * Dl, -Dl / 2, -Dl]
        if level == "quick":
            ts = [0, R(1, 10**6), Dl / 2]
        pts = [{Delta: Dl, eps: e, a: aa, t: tt} for aa in shifts for tt in ts]
        bad = s.hypotheses_at({Delta: Dl, eps: e, a: Dl})
        assert (not bad) == in_hyp, (Dl, e, bad)
        vals = evaluate([t, a, Delta, eps], [lhs, rhs], pts, digits)
        with mp.workdps(digits + 10):
            sup = {}
            for p, (ratio, bnd) in zip(pts, vals):
                key = str(p[a])
                sup[key] = max(sup.get(key, mp.zero), ratio)
            bnd = vals[0][1]
            ok = all(v <= bnd for v in sup.values())
            # a = Delta dominates the smaller shifts (the only fact the final inequality needs)
            dominated = all(sup[str(aa)] <= sup[str(Dl)] for aa in shifts if aa > 0)
        if in_hyp:
            all_ok &= ok and dominated
        rows[f"Delta={Dl}, eps={e}"] = {
            "in_lemma_3_hypotheses": in_hyp,
            "max_ln_ratio_by_shift": {k: _s(mp.log(v), 10) for k, v in sup.items()},
            "eps": str(e),
            "ratio_le_e^eps": bool(ok),
            "shift_Delta_dominates": bool(dominated),
        }
    return Observation(
        id="cor-5-shift",
        statement="Corollary 5 (proof, Section 3.2)",
        literal="let x, x' in R with |x - x'| <= 1",
        verdict="typo" if all_ok else "fails",
        holds_literal=None,
        detail=("The proof fixes 'x, x' in R with |x - x'| <= 1' and later says 'By assumption |q(x) - q(x')| "
                "<= Delta'.  The inputs are data sets in X^d and what is meant is neighbouring inputs, for "
                "which the sensitivity gives |q(x) - q(x')| <= Delta; the distance |x - x'| never enters.  The "
                "final inequality int e^eps f_A(|z| + Delta) / int f_A(|z| + |q(x') - q(x)|) <= e^eps uses only "
                "f_A(|z| + Delta) <= f_A(|z| + |q(x') - q(x)|), i.e. |q(x) - q(x')| <= Delta and Lemma 2.  "
                "Numerically (paper parameters): sup_t f_A(t)/f_A(t + a) <= e^eps for a = +-Delta and smaller "
                "shifts, with a = Delta the largest; eps = 24 with Delta = 10 lies below Lemma 3's threshold "
                "20 + 4 ln 10 = 29.21 and is shown for information only.  A typo."),
        evidence=rows,
    )


# ---------------------------------------------------------------------------
# 6. Lemma 19: ln(48 e) < 4.9, then 5
# ---------------------------------------------------------------------------

def check_lemma_19_ln48e(digits: int = 20) -> Observation:
    r"""Lemma 19's proof: :math:`\ln(48e) < 4.9`, then 5 in (10).

    :math:`\ln(48e) = 1 + \ln 48 = 4.8712\ldots < 4.9 < 5` exactly (sympy decides the
    inequalities); replacing 4.9 by 5 makes (10) a stronger requirement, so the
    threshold :math:`\varepsilon \ge 20 + 4\ln\Delta` is sufficient (the exact
    constant would give :math:`4\ln(48e) = 19.48\ldots`).
    """
    ln48e = sp.log(48 * sp.E)
    lt49 = bool(ln48e < R(49, 10))
    lt5 = bool(R(49, 10) < 5)
    # eq. (10) via the registry: RHS_9 <= e^eps at the paper's threshold eps = 20 + 4 ln Delta
    expr = (RHS_9 / sp.exp(eps)).subs(PAPER_PARAMETERS)
    f = numeric([Delta, eps], expr)
    at = {}
    with working_digits(digits):
        for Dl in (2 / sp.E, 1, 10):
            e = 20 + 4 * sp.log(Dl)
            v = f(to_mpf(Dl), to_mpf(e))
            at[sp.sstr(Dl)] = {"eps": _s(e, 10), "rhs_9 / e^eps": _s(v, 10)}
        ok10 = all(mp.mpf(v["rhs_9 / e^eps"]) <= 1 for v in at.values())
    evidence = {
        "ln(48 e)": _s(ln48e, digits),
        "4.9 - ln(48 e)": _s(R(49, 10) - ln48e, 10),
        "ln(48 e) < 4.9 (sympy)": lt49,
        "4.9 < 5": lt5,
        "threshold with 5": "20 + 4 ln(Delta)",
        "threshold with 4.9": "19.6 + 4 ln(Delta)",
        "threshold with ln(48 e)": f"{_s(4 * ln48e, 10)} + 4 ln(Delta)",
        "eq_10_at_threshold": at,
    }
    ok = lt49 and lt5 and ok10
    return Observation(
        id="lemma-19-ln48e",
        statement="Lemma 19 (proof, Appendix C.4)",
        literal="Observing 2 alpha <= 1 and ln(48e) < 4.9 ... (10): eps (1/k_theta + 1/k_alpha + 1/k_lambda) "
                "+ 5 + ln(Delta) <= eps",
        verdict="harmless" if ok else "fails",
        holds_literal=ok,
        detail=("ln(48 e) = 1 + ln 48 = 4.87120... < 4.9 (margin 0.029) is correct, and (10) then uses 5 > 4.9. "
                "Demanding eps/4 >= 5 + ln(Delta) instead of 4.9 + ln(Delta) is stronger, so the conclusion "
                "is still valid; the exact constant would allow eps >= 19.485 + 4 ln(Delta).  At the paper's "
                "threshold eps = 20 + 4 ln(Delta) the registry's eq. (9) bound 48 Delta e^{Delta/theta} "
                "e^{2 alpha}/(alpha lam) is below e^eps (evidence).  Harmless rounding."),
        evidence=evidence,
    )
