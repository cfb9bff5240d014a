r"""The 2025 paper's GDL statements as registry records (data; :mod:`arete_proofs.chain.registry` builds them).

Harrison and Manurangsi, "Infinitely Divisible Noise for Differential Privacy: Nearly Optimal
Error in the High epsilon Regime" (FORC 2025), **reconstructed** from its abstract (arXiv:2504.05202), the first
author's writing about it and a third party's reading, not from its full text: every statement
is a claim to check.  Each entry of
:data:`RECORDS` is the keyword arguments of a :class:`~arete_proofs.chain.registry.Statement`
(its ``bounds`` as keyword arguments of :class:`~arete_proofs.chain.registry.Bound`), written
over :mod:`arete_proofs.chain.gdl_symbols` and the registry's ``Delta``, ``eps``; this module
imports no registry code, so the registry can import it without a cycle.

The records follow what is true; the literal readings that are false (Theorem 13's
"eps <= L", its first-case formula used for :math:`\beta > 1`, Corollary 14 for
:math:`\beta > \Delta`) are observations with counterexamples
(:mod:`arete_proofs.chain.observations` (module ``hm25``)).

>>> [r["id"] for r in RECORDS]
['hm25-gdl-sum', 'hm25-theorem-13', 'hm25-corollary-14', 'hm25-theorem-15', 'hm25-theorem-16', 'hm25-theorem-18', 'hm25-theorem-21', 'hm25-variance-gdl', 'hm25-variance-msdlap', 'hm25-variance-theorem-21']
>>> all(r["paper"] == PAPER for r in RECORDS)
True
"""

from __future__ import annotations

import sympy as sp

from . import grids, hm25_grids
from .hm25_symbols import (
    M21, S2, T21_ARGS, VAR21, m, m2_GDL, m2_MS, r_18, tight_eps_LL, tight_eps_MS, tight_eps_T18, var_GDL, var_LL,
    var_MS, window_max_MS,
)
from .gdl_symbols import (
    COR14, K_FAR, L13, a_GDL, beta, beta_2, delta_GDL, f_GDL, f_NB, conv_GDL, k, loss_GDL, max_loss_GDL,
    tight_eps_GDL,
)
from .symbols import Delta, eps

__all__ = ["PAPER", "RECORDS", "IDS", "C21"]

#: The source of every record here (the registry's ``paper`` field).
PAPER = "Harrison & Manurangsi (FORC 2025), reconstructed"

_INTEGER_DELTA = (Delta >= 1, sp.Eq(Delta, sp.floor(Delta)))
_GDL = (beta > 0, a_GDL > 0)
_TIGHT = tight_eps_GDL(beta, a_GDL, Delta)
_LT1, _GE1, _GT1 = (beta < 1,), (beta >= 1,), (beta > 1,)


def _b(name, lhs, rhs, relation="<=", where=(), text=""):
    return dict(name=name, lhs=lhs, rhs=rhs, relation=relation, where=where, text=text)


#: The records' keyword arguments, in the paper's order (GDL sum, Theorem 13, Corollary 14, Theorem 15).
RECORDS = [
    dict(
        id="hm25-gdl-sum", number="GDL pmf and sum (HM25)", section="GDL (reconstructed)", paper=PAPER,
        title="GDL's pmf, DLap at beta = 1, and closure under summation in beta",
        statement="GDL(beta, a) = NB(beta, 1 - e^-a) - NB(beta, 1 - e^-a) has pmf p(x) = e^{-a|x|} (1 - e^-a)^{2 beta} "
                  "2F1(beta, beta + |x|; 1 + |x|; e^{-2a}) Gamma(beta + |x|)/(Gamma(1 + |x|) Gamma(beta)); "
                  "GDL(1, a) = DLap(a); GDL(beta_1, a) * GDL(beta_2, a) = GDL(beta_1 + beta_2, a).",
        hypotheses=_GDL + (beta_2 > 0, sp.Eq(k, sp.floor(k))),
        bounds=(
            _b("pmf", f_GDL(k, beta, a_GDL), f_NB(k, beta, a_GDL), "==",
               text="the closed form = the NB convolution sum_j P(N_1 = |k| + j) P(N_2 = j)"),
            _b("dlap", f_GDL(k, beta, a_GDL), sp.tanh(a_GDL / 2) * sp.exp(-a_GDL * sp.Abs(k)), "==",
               where=(sp.Eq(beta, 1),), text="beta = 1: p(k) = tanh(a/2) e^{-a|k|} (DLap)"),
            _b("sum", conv_GDL(k, beta, beta_2, a_GDL), f_GDL(k, beta + beta_2, a_GDL), "==",
               text="(p_beta * p_beta_2)(k) = p_{beta + beta_2}(k)"),
        ),
        notes="The convolution is summed over |j| <= J with both tails below 10^-(digits+8).  Closure is what "
              "makes GDL infinitely divisible and lets n parties add GDL(beta/n, a) shares "
              "(arete_proofs.mechanisms.modular).",
        grid=grids.hm25_gdl_sum,
    ),
    dict(
        id="hm25-theorem-13", number="Theorem 13 (HM25)", section="GDL (reconstructed)", paper=PAPER,
        title="GDL's exact privacy loss at integer sensitivity (and the direction of its inequality)",
        statement="For 0 < beta < 1 the worst-case privacy loss of GDL(beta, a) at integer sensitivity Delta is "
                  "L = a Delta + ln[2F1(beta, beta; 1; e^{-2a})/2F1(beta, beta + Delta; 1 + Delta; e^{-2a}) "
                  "Gamma(Delta + 1) Gamma(beta)/Gamma(beta + Delta)], for beta >= 1 it is a Delta; the mechanism "
                  "is eps-DP iff eps >= L (the printed 'eps <= L' is the wrong way round).",
        hypotheses=_GDL + _INTEGER_DELTA,
        bounds=(
            _b("closed-form", _TIGHT, L13, "==", where=_LT1,
               text="beta < 1: tight eps* (sup over every shift and k) = L"),
            _b("brute-force", max_loss_GDL(beta, a_GDL, Delta), L13, "==", where=_LT1,
               text="beta < 1: max of L_s(k) over every |s| <= Delta, |k| <= 3 Delta + 10 = L (attained at k = 0)"),
            _b("pmf-ratio", L13, sp.log(f_NB(0, beta, a_GDL) / f_NB(Delta, beta, a_GDL)), "==",
               text="L = ln p(0)/p(Delta), p by the NB convolution (every beta)"),
            _b("above-tail", a_GDL * Delta, L13, where=_LT1, text="beta < 1: a Delta <= L"),
            _b("direction", f_GDL(0, beta, a_GDL) * (1 - sp.exp(-L13 / 2)), delta_GDL(beta, a_GDL, Delta, L13 / 2),
               where=_LT1, text="beta < 1: delta(L/2) >= p(0)(1 - e^{-L/2}) > 0, so 'eps <= L' (eps = L/2) is not eps-DP"),
            _b("second-case", _TIGHT, a_GDL * Delta, "==", where=_GE1, text="beta >= 1: eps* = a Delta"),
            _b("window", max_loss_GDL(beta, a_GDL, Delta), a_GDL * Delta, where=_GE1,
               text="beta >= 1: no shift |s| <= Delta and |k| <= 3 Delta + 10 exceeds a Delta"),
            _b("tail-limit", a_GDL * Delta - 2 * beta * Delta / K_FAR, loss_GDL(K_FAR, Delta, beta, a_GDL), where=_GT1,
               text="beta > 1: L_Delta(10^6) >= a Delta - 2 beta Delta/10^6 (the supremum is the tail limit a Delta)"),
        ),
        uses=("hm25-gdl-sum",),
        symbolic=("hm25-theorem-13/pmf-ratio",),
        notes="eps* is arete_proofs.privacy.tight_gdl.tight_epsilon (its docstring proves the reduction of every "
              "shift to s = Delta, k >= 0, and the case split); the brute force and the NB-convolution pmf share "
              "no code with it.  For beta < 1 the closed form and the brute force agree at k = 0; for beta > 1 the "
              "supremum a Delta is a tail limit (not attained), and the first case's formula understates it "
              "(observation hm25-theorem-13-beta-gt-1); the literal 'eps <= L' is false "
              "(observation hm25-theorem-13-literal).",
        grid=grids.hm25_theorem_13,
    ),
    dict(
        id="hm25-corollary-14", number="Corollary 14 (HM25)", section="GDL (reconstructed)", paper=PAPER,
        title="L <= a Delta + ln(Delta/beta) for beta < 1",
        statement="For 0 < beta < 1 and integer Delta >= 1: GDL(beta, a)'s tight epsilon L <= a Delta + ln(Delta/beta).",
        hypotheses=_GDL + (beta < 1,) + _INTEGER_DELTA,
        bounds=(
            _b("bound", _TIGHT, COR14, text="eps* <= a Delta + ln(Delta/beta)"),
            _b("closed-form", L13, COR14, text="Theorem 13's L <= a Delta + ln(Delta/beta)"),
        ),
        uses=("hm25-theorem-13",),
        notes="Beyond its hypothesis it still holds for 1 <= beta <= Delta (ln(Delta/beta) >= 0 = eps* - a Delta) "
              "and fails for beta > Delta (observation hm25-corollary-14-beta-gt-Delta).",
        grid=grids.hm25_corollary_14,
    ),
    dict(
        id="hm25-theorem-15", number="Theorem 15 (HM25)", section="GDL (reconstructed)", paper=PAPER,
        title="beta = Delta e^{2-eps}, a = 2/Delta: eps-DP with MSE O(Delta^3 e^-eps)",
        statement="For integer Delta >= 1 and eps > 2 + ln Delta, GDL(Delta e^{2-eps}, 2/Delta) is eps-DP at "
                  "sensitivity Delta with Var = beta/(cosh a - 1) <= (e^2/2) Delta^3 e^-eps.",
        hypotheses=_INTEGER_DELTA + (eps > 2 + sp.log(Delta),),
        substitutions={beta: Delta * sp.exp(2 - eps), a_GDL: 2 / Delta},
        bounds=(
            _b("privacy", _TIGHT, eps, text="eps* <= eps"),
            _b("corollary-14", COR14, eps, "==", text="a Delta + ln(Delta/beta) = eps at these parameters"),
            _b("hyp-beta", beta, sp.Integer(1), text="beta <= 1 (Corollary 14's hypothesis; strict for eps > 2 + ln Delta)"),
            _b("variance", beta / (sp.cosh(a_GDL) - 1), sp.exp(2) / 2 * Delta**3 * sp.exp(-eps),
               text="Var = beta/(cosh a - 1) <= (e^2/2) Delta^3 e^-eps (cosh x - 1 >= x^2/2)"),
        ),
        uses=("hm25-corollary-14",),
        symbolic=("hm25-theorem-15/algebra",),
        notes="The hypothesis eps > 2 + ln Delta is exactly beta < 1.  Corollary 14 is loose for large Delta: at "
              "Delta = 1000, eps = 9.008 the exact eps* is 2.2297.",
        grid=grids.hm25_theorem_15,
    ),
]

_INT_M = (m >= 1, sp.Eq(m, sp.floor(m)))
_VAR_DLAP = 1 / (sp.cosh(a_GDL) - 1)
_T21_EPS = (eps <= 6,)
#: The constant of Theorem 21's variance order Var <= C21 Delta^2 e^{-2eps/3}, found here and not the paper's.
#: The ratio's sup over eps >= 2 is 9.916 just below eps = 3 ln 2 (where m jumps from 2 to 3), its limit
#: 2e/3 + 1/2 = 2.3122 (symbolic check hm25-theorem-21/variance).
C21 = 10

def _canonical(records):
    """Each side as the variant parser builds it from its ``str()`` (same value; so a printed bound parses back)."""
    from .expressions import parse_expression

    for r in records:
        r["bounds"] = tuple(dict(b, lhs=parse_expression(str(b["lhs"])), rhs=parse_expression(str(b["rhs"])))
                            for b in r["bounds"])
    return records


RECORDS += _canonical([
    dict(
        id="hm25-theorem-16", number="Theorem 16 (HM25)", section="MSDLap (reconstructed)", paper=PAPER,
        title="MSDLap(eps, Delta) is eps-DP at integer sensitivity Delta",
        statement="For every eps > 0 and integer Delta >= 1, MSDLap(eps, Delta) = sum_{i=1}^{Delta} i X_i, X_i iid "
                  "DLap(eps), is eps-DP at sensitivity Delta (over every integer shift |s| <= Delta).",
        hypotheses=(eps > 0,) + _INTEGER_DELTA,
        bounds=(
            _b("privacy", tight_eps_MS(eps, Delta, Delta), eps,
               text="tight eps* over every shift |s| <= Delta (window + exact tail limit) <= eps"),
            _b("exact", tight_eps_MS(eps, Delta, Delta), eps, "==",
               text="eps* = eps exactly: the shift s = Delta costs exactly eps in the tail profile"),
            _b("not-attained", window_max_MS(eps, Delta, Delta), eps, where=(Delta >= 2,),
               text="Delta >= 2: the loss maximum W on the finite window 0 <= k <= Delta + ceil(4 Delta (Delta - 1)/eps) "
                    "is strictly below eps (computed although the coupling bound proves eps* = eps without a "
                    "window): the supremum is the tail limit, approached (observation hm25-theorem-16-tail)"),
        ),
        notes="eps* is arete_proofs.privacy.tight_discrete.tight_epsilon_msdlap (its docstring proves the "
              "reduction to a window 0 <= k <= K and the exact tail limit from the dominant poles).  The theorem "
              "holds with equality, and the supremum eps is a tail limit, not attained for Delta >= 2 "
              "(the correction decays like e^{-eps k/Delta}).  The variance is record hm25-variance-msdlap.",
        grid=hm25_grids.theorem_16,
    ),
    dict(
        id="hm25-theorem-18", number="Theorem 18 (HM25)", section="MSDLap (reconstructed)", paper=PAPER,
        title="r MSDLap(eps - 1, floor(Delta/r)) + DLap(1/r) is eps-DP",
        statement="For eps > 2, integer Delta >= 1 and r in {1..Delta}: r MSDLap(eps - 1, floor(Delta/r)) + DLap(1/r) "
                  "is eps-DP at sensitivity Delta; r = ceil(Delta e^{-eps/3}) gives MSE O(Delta^2 e^{-2eps/3}).",
        hypotheses=(eps > 2, r_18 >= 1, r_18 <= Delta, sp.Eq(r_18, sp.floor(r_18))) + _INTEGER_DELTA,
        bounds=(
            _b("privacy", tight_eps_T18(eps, Delta, r_18), eps,
               text="tight eps* over every integer shift |s| <= Delta <= eps"),
        ),
        notes="eps* is arete_proofs.privacy.tight_discrete.tight_epsilon_theorem18.  The proof splits a shift into a "
              "multiple of r (hidden at eps - 1) and a remainder < r (at level 1): composition, so the bound "
              "holds with room (observation hm25-theorem-18-room).  The grid avoids integer eps: then eps - 1 "
              "equals a scale's rate ratio and the comb has a double pole (refused by the engine).",
        grid=hm25_grids.theorem_18,
    ),
    dict(
        id="hm25-theorem-21", number="Theorem 21 (HM25)", section="Continuous (reconstructed)", paper=PAPER,
        title="(Delta/m) MSDLap(eps - 1, m) + Laplace(Delta/(2m)), m = ceil(e^{eps/3}), is eps-DP",
        statement="For eps >= 2 and real Delta > 0, with m = ceil(e^{eps/3}): Z = (Delta/m) sum_{i=1}^m i DLap(eps - 1) "
                  "+ Laplace(Delta/(2m)) is eps-DP at sensitivity Delta, with Var Z = O(Delta^2 e^{-2eps/3}).",
        hypotheses=(eps >= 2, Delta > 0),
        bounds=(
            _b("privacy", tight_eps_LL(*T21_ARGS, Delta), eps, where=_T21_EPS,
               text="tight eps* over every real shift |s| <= Delta <= eps (checked for eps <= 6: m <= 8 scales)"),
            _b("variance-order", VAR21, C21 * Delta**2 * sp.exp(-2 * eps / 3),
               text="Var Z = (Delta/m)^2 [S2(m)/(cosh(eps - 1) - 1) + 1/2] <= 10 Delta^2 e^{-2eps/3} "
                    "(the constant 10 is ours; the limit is 2e/3 + 1/2)"),
        ),
        uses=("hm25-theorem-16",),
        symbolic=("hm25-theorem-21/variance",),
        notes="eps* is arete_proofs.privacy.tight_lattice.tight_epsilon_lattice_laplace (an exact reduction to "
              "lattice-point candidates plus the exact tail limit).  Proved by composition (eps - 1 for the lattice "
              "part, 1 for the half-step remainder), so its parameters leave budget unused: eps* = 5.3203 at "
              "eps = 6, 9.3304 at eps = 10 (observation hm25-theorem-21-budget).  The privacy proof does not use "
              "m = ceil(e^{eps/3}) (any m works); the choice of m is what gives the variance order.",
        grid=hm25_grids.theorem_21,
    ),
    dict(
        id="hm25-variance-gdl", number="GDL variance (HM25)", section="GDL (reconstructed)", paper=PAPER,
        title="Var GDL(beta, a) = beta/(cosh a - 1)",
        statement="Var GDL(beta, a) = 2 beta e^{-a}/(1 - e^{-a})^2 = beta/(cosh a - 1).",
        hypotheses=_GDL,
        bounds=(
            _b("engine", var_GDL(beta, a_GDL), beta * _VAR_DLAP, "==", text="the engine's variance = beta/(cosh a - 1)"),
            _b("second-moment", m2_GDL(beta, a_GDL), beta * _VAR_DLAP, "==",
               text="sum_k k^2 p(k) over the pmf = beta/(cosh a - 1)"),
            _b("nb-form", 2 * beta * sp.exp(-a_GDL) / (1 - sp.exp(-a_GDL)) ** 2, beta * _VAR_DLAP, "==",
               text="2 Var NB(beta, 1 - e^-a) = 2 beta e^-a/(1 - e^-a)^2 = beta/(cosh a - 1)"),
        ),
        uses=("hm25-gdl-sum",),
        symbolic=("hm25-variance-msdlap/algebra",),
        grid=hm25_grids.variance_gdl,
    ),
    dict(
        id="hm25-variance-msdlap", number="MSDLap variance (HM25)", section="MSDLap (reconstructed)", paper=PAPER,
        title="Var MSDLap(a, m) = m(m+1)(2m+1)/(6 (cosh a - 1))",
        statement="Var MSDLap(a, m) = S2(m)/(cosh a - 1), S2(m) = m(m+1)(2m+1)/6 (Theorem 16 at a = eps, m = Delta); "
                  "e^a Var decreases to 2 S2(m) = m(m+1)(2m+1)/3 as a -> infinity (the discrete staircase's constant).",
        hypotheses=(a_GDL > 0,) + _INT_M,
        bounds=(
            _b("engine", var_MS(a_GDL, m), S2(m) * _VAR_DLAP, "==", text="the engine's variance = S2(m)/(cosh a - 1)"),
            _b("second-moment", m2_MS(a_GDL, m), S2(m) * _VAR_DLAP, "==",
               text="sum_k k^2 p_k over the exact pmf = S2(m)/(cosh a - 1)"),
            _b("limit-from-above", 2 * S2(m), sp.exp(a_GDL) * S2(m) * _VAR_DLAP,
               text="m(m+1)(2m+1)/3 <= e^a Var (e^a/(cosh a - 1) = 2/(1 - e^-a)^2 > 2)"),
        ),
        symbolic=("hm25-variance-msdlap/algebra",),
        grid=hm25_grids.variance_msdlap,
    ),
    dict(
        id="hm25-variance-theorem-21", number="Theorem 21 variance (HM25)", section="Continuous (reconstructed)",
        paper=PAPER,
        title="Var Z = (Delta/m)^2 [S2(m)/(cosh(eps - 1) - 1) + 1/2]",
        statement="Theorem 21's Z has Var Z = (Delta/m)^2 [S2(m)/(cosh(eps - 1) - 1) + 1/2], m = ceil(e^{eps/3}), "
                  "which tends to about 2.31 Delta^2 e^{-2eps/3}.",
        hypotheses=(eps >= 2, Delta > 0),
        bounds=(
            _b("engine", var_LL(*T21_ARGS), VAR21, "==", text="the lattice law's variance (engine) = the formula"),
            _b("second-moment", (Delta / M21) ** 2 * m2_MS(eps - 1, M21) + 2 * (Delta / (2 * M21)) ** 2, VAR21, "==",
               text="h^2 sum_k k^2 p_k + 2 b^2 (independent parts; Laplace(b) has variance 2 b^2) = the formula"),
        ),
        uses=("hm25-variance-msdlap",),
        symbolic=("hm25-theorem-21/variance",),
        grid=hm25_grids.variance_theorem_21,
    ),
])

#: The record ids, in the paper's order.
IDS = tuple(r["id"] for r in RECORDS)
