r"""The paper's distributions as ``scipy.stats`` distributions (float64).

Four ``scipy.stats.rv_continuous`` instances, used exactly like
``scipy.stats.norm`` (``pdf``, ``logpdf``, ``cdf``, ``sf``, ``ppf``, ``isf``,
``rvs(random_state=...)``, ``stats(moments="mvsk")``, ``moment``, ``entropy``,
``interval``, ``median``, freezing, broadcasting, ``loc`` and ``scale``):

* ``arete`` -- :math:`\mathrm{Arete}(\alpha, \theta, \lambda)`, the law of
  :math:`X_1 - X_2 + Y` (Definitions 1 and 9), shapes ``alpha, theta, lam``;
* ``gamma_gamma`` -- :math:`X_1 - X_2`, :math:`X_i \sim \Gamma(\alpha, \theta)`
  (Definition 7), shapes ``alpha, theta``;
* ``staircase`` -- :math:`SC(\gamma, \Delta)` at privacy level :math:`\varepsilon`
  (Lemma 27), shapes ``gamma, Delta, eps``;
* ``arete_gauss`` -- :math:`X_1 - X_2 + Y + N`, Arete plus a Gaussian part
  :math:`N \sim \mathcal N(0, \sigma^2)` (beyond the paper), shapes
  ``alpha, theta, lam, sigma`` (``lam = 0`` or ``sigma = 0`` drops that part; its float64
  path for ``sigma > 0``, any ``alpha > 0``, is :mod:`arete_proofs.distributions.fast_gauss`,
  relative error below ``1e-9``).

The follow-up paper's laws (Harrison and Manurangsi, FORC 2025; float64 tables of
:mod:`arete_proofs.distributions.comb`): ``msdlap`` (``rv_discrete``, shapes ``a, m``:
:math:`\sum_{i \le m} i\,\mathrm{DLap}(a)`), ``lattice_laplace`` (shapes ``a, m, b, h``:
:math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)`) and ``lattice_gauss`` (shapes
``a, m, sigma, h``: Gaussian smoothing); ``gdl`` is ``arete_proofs.stats._gdl.gdl``, reached
through the noise family's ``scipy()``.

**Everything here is float64.**  The densities and distribution functions of
``arete`` and ``gamma_gamma`` come from
:mod:`arete_proofs.distributions.fast` (measured accuracy: log-values to
``1e-13 * max(1, |value|)`` over ``alpha in [1e-7, 10]``, ``theta, lam in [1e-3, 1e3]``),
the quantiles from a bracketing root-finder on them, the staircase from
elementwise closed forms; moments are exact formulas rounded to float64,
entropies quadratures (closed form for the staircase); random variates come
from :mod:`arete_proofs.mechanisms.sampling` (float64 samplers, for analysis,
not for production privacy).  **Exact values** (any number of correct digits,
``digits=``) are in :mod:`arete_proofs.distributions` (``arete``,
``gamma_gamma``, ``staircase``), not here.

``scale`` follows the scaling laws: ``arete(alpha, theta, lam, scale=c)`` is
``arete(alpha, c*theta, c*lam)``, ``gamma_gamma(alpha, theta, scale=c)`` is
``gamma_gamma(alpha, c*theta)``, ``arete_gauss(alpha, theta, lam, sigma, scale=c)`` is
``arete_gauss(alpha, c*theta, c*lam, c*sigma)`` and ``staircase(gamma, Delta, eps, scale=c)`` is
``staircase(gamma, c*Delta, eps)``.  Fitting (``.fit``) is scipy's generic
maximum likelihood and is not supported: with ``scale`` the parameters are
redundant (see ``docs/reference/scipy-stats.md``).

>>> import numpy as np
>>> Z = arete(0.1, 1.0, 0.3)                 # frozen, like scipy.stats.norm(0, 1)
>>> bool(Z.cdf(0) == 0.5)                    # symmetric about 0
True
>>> bool(np.isclose(Z.var(), 2 * 0.1 * 1.0**2 + 2 * 0.3**2, rtol=1e-15))    # Lemma 3
True
"""

from ._arete import arete, arete_gen
from ._comb import msdlap, msdlap_gen
from ._arete_gauss import arete_gauss, arete_gauss_gen
from ._gamma_gamma import gamma_gamma, gamma_gamma_gen
from ._lattice import lattice_gauss, lattice_gauss_gen, lattice_laplace, lattice_laplace_gen
from ._staircase import staircase, staircase_gen

__all__ = ["arete", "arete_gauss", "arete_gauss_gen", "arete_gen", "gamma_gamma", "gamma_gamma_gen", "lattice_gauss",
           "lattice_gauss_gen", "lattice_laplace", "lattice_laplace_gen", "msdlap", "msdlap_gen", "staircase",
           "staircase_gen"]
