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

from importlib import import_module

#: ``name: module`` of the re-exported entry points; the modules load on first use (PEP 562),
#: so ``from arete_proofs.privacy import tight`` does not import scipy's optimiser or
#: dp_accounting.
_NAMES = {
    "hockey_stick": "accounting", "epsilon_for_delta": "accounting",
    "SmallestPrivateEps": "curves", "laplace_loss": "curves", "loss_curve": "curves", "loss_curves": "curves",
    "paper_table": "curves", "smallest_private_eps": "curves",
    "FIGURE_4": "tight", "MAX_PRIVACY_DIGITS": "tight", "CoverCheck": "tight", "ShiftReduction": "tight",
    "TightEpsilon": "tight", "check_cover": "tight", "check_shift_reduction": "tight",
    "privacy_loss": "tight", "tight_epsilon": "tight",
}
_MODULES = ("accounting", "curves", "errors", "optimize", "pld", "tight")

__all__ = [
    "accounting", "curves", "errors", "optimize", "pld", "tight", "hockey_stick", "epsilon_for_delta",
    "FIGURE_4", "MAX_PRIVACY_DIGITS",
    "TightEpsilon", "CoverCheck", "ShiftReduction", "SmallestPrivateEps",
    "tight_epsilon", "privacy_loss", "check_shift_reduction", "check_cover",
    "laplace_loss", "loss_curve", "loss_curves", "paper_table", "smallest_private_eps",
]


def __getattr__(name):
    if name in _MODULES:
        return import_module(f"{__name__}.{name}")
    if name in _NAMES:
        return getattr(import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_NAMES) | set(_MODULES))
