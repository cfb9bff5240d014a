"""arete_proofs: an executable companion to Pagh & Stausholm (ALT 2022).

"Infinitely Divisible Noise in the Low Privacy Regime" defines the Arete
distribution ``Z = X1 - X2 + Y`` with ``X1, X2 ~ Gamma(alpha, theta)`` and
``Y ~ Laplace(lam)``.  This package evaluates its densities to any requested
number of digits, checks the paper's proof chain, computes the tight privacy
of given parameters and proves bounds in ball arithmetic.

The subpackages are the layers of the architecture; each imports only from the
layers before it in this list (``tests/test_layers.py`` enforces it):

* :mod:`arete_proofs.distributions` -- exact densities (Gamma, Laplace,
  Gamma-Gamma, Arete, Staircase), the float64 path, the paper's parameters
* :mod:`arete_proofs.reference` -- independent slow methods the tests compare
  the distributions against (shares no code with them)
* :mod:`arete_proofs.privacy` -- tight epsilon, privacy-loss curves, errors,
  the parameter optimizer
* :mod:`arete_proofs.mechanisms` -- samplers, n-party shares, mechanisms, the
  distributed-sum simulation
* :mod:`arete_proofs.chain` -- the proof chain as data (symbols, registry,
  grids) and its checks (numeric, symbolic, the paper's literal text)
* :mod:`arete_proofs.certified` -- ball arithmetic (python-flint): certified
  densities, certified epsilon, certificates of the statements
* :mod:`arete_proofs.noise` -- the noise families behind one interface
  (``noise.make("arete", alpha=..., theta=..., lam=...)``), used by every tool
* :mod:`arete_proofs.walkthrough` -- the figures and tables of the docs
* :mod:`arete_proofs.cli` -- the ``arete`` command

The root re-exports what a user starts with:

>>> from arete_proofs import arete, paper_parameters
>>> alpha, theta, lam = paper_parameters(20, 1, digits=20)   # Lemma 3
>>> arete.pdf(0, alpha, theta, lam, digits=20) > arete.pdf(1, alpha, theta, lam, digits=20)
True
"""

from . import noise
from ._validation import MAX_DIGITS, PrecisionError
from ._version import __version__
from .distributions import arete, gamma, gamma_gamma, laplace, params, staircase
from .distributions.params import FIGURE_4, paper_parameters

__all__ = [
    "MAX_DIGITS", "PrecisionError", "__version__",
    "arete", "fast", "gamma", "gamma_gamma", "laplace", "params", "staircase",
    "FIGURE_4", "paper_parameters", "tight_epsilon", "noise",
]

#: Names loaded on first use (PEP 562), so that ``import arete_proofs`` imports neither
#: scipy nor any optional package: ``fast`` needs scipy.special, ``tight_epsilon`` the
#: privacy layer.
_LAZY = {"fast": ("arete_proofs.distributions.fast", None),
         "tight_epsilon": ("arete_proofs.privacy.tight", "tight_epsilon")}


def __getattr__(name):
    if name in _LAZY:
        from importlib import import_module

        module, attr = _LAZY[name]
        value = import_module(module)
        return value if attr is None else getattr(value, attr)
    raise AttributeError(f"module 'arete_proofs' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
