r"""The table of observation checks: :data:`CHECKS`, :data:`OBSERVATION_IDS` and :func:`run`.

One entry per observation of the statement map ("Observations worth checking"),
in its order; the checks themselves are in
:mod:`~arete_proofs.chain.observations.slips`,
:mod:`~arete_proofs.chain.observations.hypotheses`,
:mod:`~arete_proofs.chain.observations.privacy_loss`,
:mod:`~arete_proofs.chain.observations.lemma_14` and
:mod:`~arete_proofs.chain.observations.orders`.
"""

from __future__ import annotations

from typing import Callable

from ._common import Observation
from .hm25 import HM25_CHECKS
from .hypotheses import check_claim_1_t_plus_1, check_lemma_15_strict, check_lemma_18_theta
from .lemma_14 import check_lemma_14_alpha
from .orders import check_lemma_2_15_alpha, check_section_4_3_order
from .privacy_loss import check_figure_grid, check_section_4_2_reduction
from .slips import check_cor_5_shift, check_lemma_19_ln48e, check_lemma_3_beta

__all__ = ["CHECKS", "OBSERVATION_IDS", "run"]


#: id -> check(digits) -> Observation, in the order of the statement map.
CHECKS: dict[str, Callable[[int], Observation]] = {
    "lemma-3-beta": check_lemma_3_beta,
    "lemma-18-theta": check_lemma_18_theta,
    "claim-1-t-plus-1": check_claim_1_t_plus_1,
    "lemma-15-strict": check_lemma_15_strict,
    "cor-5-shift": check_cor_5_shift,
    "lemma-19-ln48e": check_lemma_19_ln48e,
    "section-4.2-reduction": check_section_4_2_reduction,
    "figure-grid": check_figure_grid,
    "lemma-14-alpha": check_lemma_14_alpha,
    "section-4.3-order": check_section_4_3_order,
    "lemma-2-15-alpha": check_lemma_2_15_alpha,
}

#: The observation ids.
OBSERVATION_IDS = tuple(CHECKS)


def run(ids=None, digits: int = 20) -> list[Observation]:
    """Run the checks ``ids`` (the first paper's by default; the 2025 paper's ``hm25-...`` ids of
    ``HM25_CHECKS`` on request) at ``digits``."""
    ids = OBSERVATION_IDS if ids is None else tuple(ids)
    known = {**CHECKS, **HM25_CHECKS}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"unknown observation(s) {unknown}; known: {', '.join(known)}")
    return [known[i](digits) for i in ids]
