"""arete_proofs: an executable companion to Pagh & Stausholm (ALT 2022).

"Infinitely Divisible Noise in the Low Privacy Regime" defines the Arete
distribution ``Z = X1 - X2 + Y`` with ``X1, X2 ~ Gamma(alpha, theta)`` and
``Y ~ Laplace(lam)``.  This package evaluates its densities to any requested
number of digits and (in later modules) checks the paper's proof chain.

Modules, one per mathematical object:

* :mod:`arete_proofs.gamma` -- Gamma(alpha, theta) (Definition 22)
* :mod:`arete_proofs.laplace` -- Laplace(lam) (Definition 23)
* :mod:`arete_proofs.gamma_gamma` -- X1 - X2 (Definition 7, Bessel-K form)
* :mod:`arete_proofs.arete` -- Arete(alpha, theta, lam) (Definitions 1 and 9)
* :mod:`arete_proofs.fast` -- vectorized float64 densities for plots and grids
* :mod:`arete_proofs.reference` -- slow independent methods used to test the above
* :mod:`arete_proofs.params` -- the paper's parameter choice (Lemma 3)
"""

from ._validation import MAX_DIGITS, PrecisionError

__version__ = "0.1.0"

__all__ = ["MAX_DIGITS", "PrecisionError", "__version__"]
