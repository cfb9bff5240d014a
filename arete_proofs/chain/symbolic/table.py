r"""The table of symbolic checks: :data:`CHECKS` (id -> :class:`SymbolicCheck`) and :func:`run`.

The ids are those of the registry's ``symbolic`` fields, in proof-chain order;
the checks themselves are in :mod:`~arete_proofs.chain.symbolic.distribution`,
:mod:`~arete_proofs.chain.symbolic.ratio_bound`,
:mod:`~arete_proofs.chain.symbolic.note_2`,
:mod:`~arete_proofs.chain.symbolic.lemma_19`,
:mod:`~arete_proofs.chain.symbolic.staircase`,
:mod:`~arete_proofs.chain.symbolic.rates`, ``hm25`` and ``hm25_variance`` (the 2025 paper).
"""

from __future__ import annotations

from ._proof import SymbolicCheck, SymbolicResult
from .distribution import moments_check, symmetry_check
from .hm25 import theorem_13_check, theorem_15_check
from .hm25_variance import hm25_variances_check, theorem_21_variance_check
from .lemma_19 import algebra_check, assumptions_check, threshold_check
from .note_2 import bernoulli_check, gamma_check
from .ratio_bound import lemma18_step_check, maximiser_check
from .rates import mean_abs_check, variance_check
from .staircase import normalisation_check

__all__ = ["CHECKS", "run"]


_CHECK_LIST = [
    SymbolicCheck("lemma-2/symmetry", "Cor. 13: the Arete characteristic function is real and even",
                  symmetry_check),
    SymbolicCheck("lemma-3/moments", "Section 4.3: E|Z| <= 2 alpha theta + lam, Var Z = 2 alpha theta^2 + 2 lam^2",
                  moments_check),
    SymbolicCheck("lemma-28/maximiser", "Lemma 28: maximiser t* of g and kappa >= t*", maximiser_check),
    SymbolicCheck("lemma-18/step", "C.3: Lemmas 16 and 17 at D_u = alpha theta give Lemma 18's bound",
                  lemma18_step_check),
    SymbolicCheck("note-2/bernoulli", "Note 2: (1 + x)^alpha <= 1 + alpha x", bernoulli_check),
    SymbolicCheck("note-2/gamma", "Note 2: Euler's product gives Gamma(alpha) <= 1/alpha", gamma_check),
    SymbolicCheck("lemma-19/algebra", "C.4: (8), (9) and the exponent of (10)", algebra_check),
    SymbolicCheck("lemma-19/threshold", "C.4 (10): eps >= 20 + 4 ln Delta", threshold_check),
    SymbolicCheck("lemma-19/assumptions", "C.4 (9) for alpha = lam = e^{-eps/4}, theta = 4 Delta/eps",
                  assumptions_check),
    SymbolicCheck("lemma-27/normalisation", "Lemma 27: a(gamma) normalises the Staircase density",
                  normalisation_check),
    SymbolicCheck("lemma-3-mean-abs/algebra", "Lemma 3 with rates (E|Z|): (8) at theta = Delta, alpha lam = 48 Delta "
                  "e^-eps, eps >= 11; hypotheses; optimal split; ball certificate", mean_abs_check),
    SymbolicCheck("lemma-3-variance/algebra", "Lemma 3 with rates (Var Z): (8) at theta = Delta, alpha lam = 48 Delta "
                  "e^-eps, eps >= 10; hypotheses; optimal split; ball certificate", variance_check),
    # the 2025 paper (Harrison & Manurangsi, FORC 2025, reconstructed)
    SymbolicCheck("hm25-theorem-13/pmf-ratio", "HM25 Theorem 13: L = ln p(0)/p(Delta); at beta = 1 DLap and L = a Delta",
                  theorem_13_check),
    SymbolicCheck("hm25-theorem-15/algebra", "HM25 Theorem 15: Corollary 14 gives eps; eps > 2 + ln Delta iff beta < 1; "
                  "Var <= (e^2/2) Delta^3 e^-eps", theorem_15_check),
    SymbolicCheck("hm25-variance-msdlap/algebra", "HM25 variances: DLap 1/(cosh a - 1), MSDLap S2(m)/(cosh a - 1), GDL "
                  "beta/(cosh a - 1); e^a/(cosh a - 1) = 2/(1 - e^-a)^2", hm25_variances_check),
    SymbolicCheck("hm25-theorem-21/variance", "HM25 Theorem 21: h^2 Var M + 2 b^2 is the formula; its limit is "
                  "2e/3 + 1/2", theorem_21_variance_check),
]

#: check id -> :class:`SymbolicCheck` (call it for a :class:`SymbolicResult`).
CHECKS = {c.id: c for c in _CHECK_LIST}


def run(ids=None) -> list[SymbolicResult]:
    """Run the checks ``ids`` (default: all, in proof-chain order); a failed check never raises.

    An unknown id is a usage error (``ValueError``).
    """
    if ids is None:
        ids = list(CHECKS)
    elif isinstance(ids, str):
        ids = [ids]
    unknown = [i for i in ids if i not in CHECKS]
    if unknown:
        raise ValueError(f"unknown symbolic check(s) {unknown}; known: {', '.join(CHECKS)}")
    return [CHECKS[i]() for i in ids]
