"""Privacy analysis: tight epsilon, privacy-loss curves, errors, the parameter optimizer.

Builds on :mod:`arete_proofs.distributions` only.

* :mod:`~arete_proofs.privacy.tight` -- the tight epsilon
  :math:`\\sup_t \\ln f_A(t)/f_A(t+\\Delta)` of given parameters (certified search), the
  privacy loss :math:`l(d)`, the checks of the shift reduction and of a cover
* :mod:`~arete_proofs.privacy.curves` -- privacy-loss curves (Figure 3), the paper's
  table, the smallest private epsilon
* :mod:`~arete_proofs.privacy.errors` -- E|Z| and Var Z of the Laplace, Staircase
  and Arete mechanisms, and the comparison table
* :mod:`~arete_proofs.privacy.optimize` -- Arete parameters of least error at a
  given exact epsilon
* :mod:`~arete_proofs.privacy.accounting` -- (eps, delta)-DP of one release: the exact
  hockey stick delta(eps) and its inverse
* :mod:`~arete_proofs.privacy.pld` -- a pessimistic ``dp_accounting`` privacy-loss
  distribution of Arete noise and its composition (extra ``accounting``; the module
  imports without it, its functions then raise ImportError)

Private modules: ``_bounds`` (the certified cell and tail bounds of the privacy loss)
and ``_search`` (the branch-and-bound search that places the cells), both used by
:mod:`~arete_proofs.privacy.tight`.

The main entry points are re-exported here.
"""

from . import accounting, curves, errors, optimize, pld, tight
from .accounting import epsilon_for_delta, hockey_stick
from .curves import (
    SmallestPrivateEps,
    laplace_loss,
    loss_curve,
    loss_curves,
    paper_table,
    smallest_private_eps,
)
from .tight import (
    FIGURE_4,
    MAX_PRIVACY_DIGITS,
    CoverCheck,
    ShiftReduction,
    TightEpsilon,
    check_cover,
    check_shift_reduction,
    privacy_loss,
    tight_epsilon,
)

__all__ = [
    "accounting", "curves", "errors", "optimize", "pld", "tight", "hockey_stick", "epsilon_for_delta",
    "FIGURE_4", "MAX_PRIVACY_DIGITS",
    "TightEpsilon", "CoverCheck", "ShiftReduction", "SmallestPrivateEps",
    "tight_epsilon", "privacy_loss", "check_shift_reduction", "check_cover",
    "laplace_loss", "loss_curve", "loss_curves", "paper_table", "smallest_private_eps",
]
