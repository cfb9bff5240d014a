"""Exact distributions: the lowest layer (imports only ``arete_proofs._validation``).

One module per distribution of the paper, each with ``pdf``, ``logpdf``,
``cdf`` and ``sf`` to any requested number of digits (points first, then the
parameters, then ``digits=``):

* :mod:`~arete_proofs.distributions.gamma` -- Gamma(alpha, theta) (Definition 22)
* :mod:`~arete_proofs.distributions.laplace` -- Laplace(lam) (Definition 23)
* :mod:`~arete_proofs.distributions.gamma_gamma` -- X1 - X2 (Definition 7, Bessel-K form)
* :mod:`~arete_proofs.distributions.arete` -- Arete(alpha, theta, lam) (Definitions 1 and 9)
* :mod:`~arete_proofs.distributions.arete_gauss` -- X1 - X2 + Laplace(lam) + N(0, sigma^2) (beyond the paper)
* :mod:`~arete_proofs.distributions.fast_gauss` -- its float64 path
* :mod:`~arete_proofs.distributions.staircase` -- the Staircase distribution (Lemma 27)
* :mod:`~arete_proofs.distributions.fast` -- the float64 path (numpy arrays) for plots and grids
* :mod:`~arete_proofs.distributions.params` -- the paper's parameters (Lemma 3, Figure 4)

The private modules ``_tanhsinh`` (tanh-sinh quadrature with error control),
``_cut`` (the branch-cut integral of f_A and f_GG) and ``_direct`` (closed forms
and direct integrals) are the numerical engine behind them.
"""

from . import arete, arete_gauss, gamma, gamma_gamma, laplace, params, staircase

__all__ = ["arete", "arete_gauss", "fast", "fast_gauss", "gamma", "gamma_gamma", "laplace", "params",
           "staircase"]

#: The float64 paths need scipy.special: loaded on first use (PEP 562), so importing the
#: exact engines stays light.
_LAZY = ("fast", "fast_gauss")


def __getattr__(name):
    if name in _LAZY:
        from importlib import import_module

        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
