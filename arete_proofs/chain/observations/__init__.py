r"""The paper's literal text where it differs from what its proofs use.

The statement map (``statement-map.md``, "Observations worth checking") lists
places where the wording of Pagh & Stausholm (ALT 2022) and the mathematics of
its proofs part ways.  The registry (:mod:`arete_proofs.chain.registry`) follows the
proofs; this package checks the *literal* text, one check per observation, and
says which kind of discrepancy each one is:

``typo``
    a wording error without mathematical consequence;
``harmless``
    a real discrepancy that does not break the result;
``fails``
    the literal statement is false (the evidence holds a counterexample);
``holds``
    the literal claim is correct;
``differs``
    numbers differ.

Every literal variant is *built from the registry's expressions* (no bound is
written twice): Claim 1's literal denominator is the registry's left-hand side
with ``shifted_conv(t + 1, ...)`` substituted for ``shifted_conv(t + Delta, ...)``,
Lemma 18's literal hypotheses are the registry's with ``theta <= D_Gamma + 1``
in place of ``theta <= D_Gamma + Delta``, and so on.  Bounds are evaluated with
:func:`arete_proofs.chain.symbols.numeric` inside :class:`~arete_proofs.chain.symbols.working_digits`;
the Arete densities those expressions need are computed in one batched call of
the engine (:func:`arete_proofs.distributions.arete.pdf`) per parameter set (see
:func:`evaluate`).

===========================  ===========  =====================================================
id                           verdict      in short
===========================  ===========  =====================================================
``lemma-3-beta``             typo         "alpha, beta, lambda" means alpha, theta, lambda
``lemma-18-theta``           harmless     theta <= D_Gamma + 1 still gives the bound; excludes Lemma 19 for Delta > 6.94
``claim-1-t-plus-1``         fails        the literal denominator (t + 1) fails for Delta < 1
``lemma-15-strict``          harmless     lam = Delta/ln 2 gives exactly 1/4, bound holds
``cor-5-shift``              typo         only ``|q(x) - q(x')| <= Delta`` is used
``lemma-19-ln48e``           harmless     ln(48 e) = 4.871... < 4.9 < 5
``section-4.2-reduction``    holds        reduction to a = Delta is right; t' should be -t-a
``figure-grid``              holds        0.001-grid maxima agree with refined maxima
``lemma-14-alpha``           fails        alpha > 1: ``f_GG(t) <= f_Gamma(|t|)`` fails near 0
``section-4.3-order``        fails        E|Z| = O((Delta/eps) e^{-eps/4}) is false for fixed Delta
``lemma-2-15-alpha``         harmless     the proofs need f_Gamma decreasing (alpha <= 1)
===========================  ===========  =====================================================

The observation on Lemma 19 is an exact inequality (sympy decides it):

>>> import sympy as sp
>>> sp.log(48 * sp.E) < sp.Rational(49, 10) < 5
True
>>> sp.N(sp.log(48 * sp.E), 6)
4.87120

Run all checks with :func:`run` (about a minute at ``digits=20``).

The modules, by concern (everything listed in ``__all__`` is re-exported here):

* ``_common`` -- :class:`Observation`,
  ``VERDICTS``, :func:`evaluate` and the helpers the checks share;
* ``slips`` -- wording slips: Lemma 3's
  beta, Corollary 5's ``|x - x'| <= 1``, Lemma 19's ``ln(48 e) < 4.9``;
* ``hypotheses`` -- hypotheses stated
  differently from the proofs: Lemma 18's ``theta <= D_Gamma + 1``, Claim 1's
  ``t + 1``, Lemma 15's strict inequality;
* ``privacy_loss`` -- Section 4.2's reduction
  to ``a = Delta`` and the 0.001 grid of Figures 3 and 4;
* ``lemma_14`` -- Lemma 14 for ``alpha > 1``;
* ``orders`` -- proof steps that do not hold as written: Section 4.3's
  intermediate order of ``E|Z|``, a decreasing ``f_Gamma`` in the proofs of
  Lemmas 2 and 15;
* ``hm25`` -- the 2025 paper's (Harrison & Manurangsi, FORC 2025, reconstructed) literal
  readings that are false, as variants of its registry records refuted with a counterexample:
  ``HM25_CHECKS`` (run them with ``run(HM25_OBSERVATION_IDS)``);
* ``hm25_msdlap`` -- how tight the 2025 paper's Theorems 16, 18 and 21 are (the tail limit, the unused
  budget), also in ``HM25_CHECKS``;
* ``table`` -- ``CHECKS``,
  ``OBSERVATION_IDS`` and :func:`run`.
"""

from ._common import VERDICTS, Observation, evaluate
from .hm25 import (
    HM25_CHECKS, HM25_OBSERVATION_IDS, check_hm25_corollary_14_beta_gt_delta, check_hm25_theorem_13_beta_gt_1,
    check_hm25_theorem_13_literal, literal_variants,
)
from .hypotheses import check_claim_1_t_plus_1, check_lemma_15_strict, check_lemma_18_theta
from .lemma_14 import check_lemma_14_alpha
from .orders import check_lemma_2_15_alpha, check_section_4_3_order
from .privacy_loss import FIGURE_4_PARAMETERS, check_figure_grid, check_section_4_2_reduction
from .slips import check_cor_5_shift, check_lemma_19_ln48e, check_lemma_3_beta
from .table import CHECKS, OBSERVATION_IDS, run

__all__ = [
    "Observation", "VERDICTS", "OBSERVATION_IDS", "CHECKS", "run", "evaluate",
    "check_lemma_3_beta", "check_lemma_18_theta", "check_claim_1_t_plus_1",
    "check_lemma_15_strict", "check_cor_5_shift", "check_lemma_19_ln48e",
    "check_section_4_2_reduction", "check_figure_grid", "check_lemma_14_alpha",
    "check_section_4_3_order", "check_lemma_2_15_alpha",
    "FIGURE_4_PARAMETERS",
    "HM25_CHECKS", "HM25_OBSERVATION_IDS", "literal_variants", "check_hm25_theorem_13_literal",
    "check_hm25_theorem_13_beta_gt_1", "check_hm25_corollary_14_beta_gt_delta",
]
