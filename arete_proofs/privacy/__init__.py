"""Privacy analysis: tight epsilon, privacy-loss curves, errors, the parameter optimizer.

Builds on :mod:`arete_proofs.distributions` only.

* :mod:`~arete_proofs.privacy.tight` -- the tight epsilon
  :math:`\\sup_t \\ln f_A(t)/f_A(t+\\Delta)` of given parameters (certified search),
  privacy-loss curves, the paper's table, the smallest private epsilon
* :mod:`~arete_proofs.privacy.errors` -- E|Z| and Var Z of the Laplace, Staircase
  and Arete mechanisms, and the comparison table
* :mod:`~arete_proofs.privacy.optimize` -- Arete parameters of least error at a
  given exact epsilon

The main entry points are re-exported here.
"""

from . import errors, optimize, tight
from .tight import (
    TightEpsilon,
    laplace_loss,
    loss_curve,
    loss_curves,
    paper_table,
    privacy_loss,
    smallest_private_eps,
    tight_epsilon,
)

__all__ = [
    "errors", "optimize", "tight",
    "TightEpsilon", "tight_epsilon", "privacy_loss", "laplace_loss", "loss_curve", "loss_curves",
    "paper_table", "smallest_private_eps",
]
