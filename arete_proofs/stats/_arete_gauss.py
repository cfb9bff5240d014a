r"""Arete with a Gaussian part as a ``scipy.stats`` distribution: ``arete_gauss`` (float64).

:math:`Z = X_1 - X_2 + Y + N` with :math:`X_1, X_2 \sim \Gamma(\alpha, \theta)`,
:math:`Y \sim \mathrm{Laplace}(\lambda)` and :math:`N \sim \mathcal N(0, \sigma^2)`
independent (Definitions 1 and 9 plus a Gaussian part, beyond the paper), shape
parameters ``alpha, theta, lam, sigma`` plus scipy's ``loc`` and ``scale``.
``lam = 0`` or ``sigma = 0`` drops that part.  Valid parameters (``_argcheck``;
anything else gives ``nan``, as in scipy): all finite, ``alpha, theta > 0``,
``lam, sigma >= 0``; ``lam`` and ``sigma`` not both 0 when ``alpha <= 1/2`` (the density
is infinite at 0 there).  Scaling law: :math:`cZ` has parameters :math:`(\alpha, c\theta, c\lambda, c\sigma)`,
so ``scale=c`` multiplies ``theta``, ``lam`` and ``sigma`` by ``c``.

Where the numbers come from (all float64):

* ``pdf``, ``logpdf``, ``cdf``, ``sf``: for ``sigma > 0``
  :mod:`arete_proofs.distributions.fast_gauss` (Laplace-mixture quadrature for ``alpha < 1``,
  Gaussian variance mixture for ``alpha >= 1``; relative error below ``1e-9`` at the parameters
  tested there); for ``sigma = 0`` the Arete
  path :mod:`arete_proofs.distributions.fast` (``fast.pdf`` etc., or ``fast.gg_pdf``
  etc. when also ``lam = 0``), so ``arete_gauss(alpha, theta, lam, 0)`` *is* ``arete(alpha, theta, lam)``.
  One call per distinct parameter set.
* ``ppf``, ``isf``: the bracketing root-finder of ``arete`` (Chandrupatla on :math:`\ln\bar F`,
  ``arete_proofs.stats._common.isf_symmetric``), ``ppf(q) = -isf(q)``.
* ``rvs``: :func:`arete_proofs.mechanisms.sampling.arete` with ``sigma=``
  (:func:`~arete_proofs.mechanisms.sampling.gamma_gamma` when ``lam = sigma = 0``).
* ``stats``, ``moment``: exact cumulants, which add over the independent parts:
  :math:`\kappa_{2m}(Z) = 2(2m-1)!\,(\alpha\theta^{2m} + \lambda^{2m}) + \sigma^2[m = 1]`,
  odd cumulants 0; so mean and skewness 0,
  :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2 + \sigma^2` (Lemma 3 plus :math:`\sigma^2`),
  excess kurtosis :math:`\kappa_4/\kappa_2^2 = 12(\alpha\theta^4 + \lambda^4)/(2\alpha\theta^2 + 2\lambda^2 + \sigma^2)^2`.
* ``entropy``: :math:`-2\int_0^\infty f\ln f` by Gauss-Legendre panels
  (``arete_proofs.stats._common.entropy_by_quadrature``).

Exact values (any number of digits) are in :mod:`arete_proofs.distributions.arete_gauss`.

>>> import numpy as np
>>> Z = arete_gauss(0.05, 0.7, 0.0, 0.06)            # Gamma difference + Gaussian, no Laplace part
>>> bool(Z.cdf(0) == 0.5 and Z.median() == 0.0)      # symmetric about 0
True
>>> bool(np.isclose(Z.var(), 2 * 0.05 * 0.7**2 + 0.06**2, rtol=1e-15))
True
>>> # alpha >= 1 too: alpha = 1, lam = 0 is Laplace(theta) + N, f(0) = e^(s^2/2) erfc(s/sqrt 2)/(2 theta), s = sigma/theta
>>> from scipy.special import erfc
>>> bool(np.isclose(arete_gauss.pdf(0.0, 1.0, 2.0, 0.0, 0.6), np.exp(0.045) * erfc(0.3 / np.sqrt(2)) / 4, rtol=1e-12))
True
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.stats import rv_continuous

from ..distributions import fast, fast_gauss
from ..mechanisms import sampling
from ._common import (
    entropy_by_quadrature,
    isf_symmetric,
    moments_from_cumulants,
    per_parameter_set,
    rvs_per_parameter_set,
)

__all__ = ["arete_gauss", "arete_gauss_gen"]

# (sigma > 0, lam > 0, lam = sigma = 0) -> the float64 function of each kind
_GAUSS = {"pdf": fast_gauss.pdf, "logpdf": fast_gauss.logpdf, "sf": fast_gauss.sf, "cdf": fast_gauss.cdf}
_ARETE = {"pdf": fast.pdf, "logpdf": fast.logpdf, "sf": fast.sf, "cdf": fast.cdf}
_GG = {"pdf": fast.gg_pdf, "logpdf": fast.gg_logpdf, "sf": fast.gg_sf, "cdf": fast.gg_cdf}


def _valid(alpha, theta, lam, sigma):
    """The parameter condition of ``_argcheck`` (elementwise on arrays)."""
    a, th, lm, sg = (np.asarray(v, dtype=float) for v in (alpha, theta, lam, sigma))
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(a) & np.isfinite(th) & np.isfinite(lm) & np.isfinite(sg)
        ok = ok & (a > 0) & (th > 0) & (lm >= 0) & (sg >= 0)
        ok = ok & ((lm > 0) | (sg > 0) | (a > 0.5))
    return ok


def _scalar(kind, x, alpha, theta, lam, sigma):
    """One parameter set (valid): dispatch to the Gaussian, Arete or Gamma-Gamma float64 path."""
    if sigma > 0:
        return _GAUSS[kind](x, alpha, theta, lam, sigma)
    if lam > 0:
        return _ARETE[kind](x, alpha, theta, lam)
    return _GG[kind](x, alpha, theta)


def _per_set(kind, x, *params):
    """``_scalar(kind, ...)`` once per distinct parameter set (``lam = 0`` and ``sigma = 0`` are valid here)."""
    return per_parameter_set(functools.partial(_scalar, kind), x, *params, valid=_valid_set)


def _valid_set(params):
    return bool(_valid(*params))


def _lengths(theta, lam, sigma):
    """(smallest, largest) of the positive length scales theta, lam, sigma."""
    pos = [v for v in (theta, lam, sigma) if v > 0]
    return min(pos), max(pos)


def _isf_one(p, alpha, theta, lam, sigma):
    small, big = _lengths(theta, lam, sigma)
    with np.errstate(divide="ignore"):
        return isf_symmetric(lambda x: np.log(_scalar("sf", x, alpha, theta, lam, sigma)), p,
                             1e-30 * small, (800.0 + 10.0 * alpha) * big)


def _draw(alpha, theta, lam, sigma, n, rng):
    if lam == 0 and sigma == 0:
        return sampling.gamma_gamma(alpha, theta, n, rng)
    return sampling.arete(alpha, theta, lam, n, rng, sigma=sigma)


class arete_gauss_gen(rv_continuous):
    r"""Arete plus a Gaussian part, :math:`X_1 - X_2 + Y + N` (Definitions 1 and 9, beyond the paper), float64.

    Density: the Arete density (Definition 9) convolved with :math:`\mathcal N(0, \sigma^2)`,

    .. math::

        f_Z(t) = \int_{-\infty}^{\infty} f_A(t - u)\,\frac{e^{-u^2/(2\sigma^2)}}{\sqrt{2\pi}\,\sigma}\,du,
        \qquad \operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2 + \sigma^2,

    :math:`X_i \sim \Gamma(\alpha,\theta)`, :math:`Y \sim \mathrm{Laplace}(\lambda)`,
    :math:`N \sim \mathcal N(0,\sigma^2)`.  Use the instance ``arete_gauss`` like
    ``scipy.stats.norm``: ``arete_gauss.pdf(x, alpha, theta, lam, sigma, loc=0, scale=1)``;
    ``arete_gauss(alpha, theta, lam, sigma)`` freezes.  ``scale=c`` multiplies
    ``theta``, ``lam`` and ``sigma`` by ``c``.  Invalid parameters give ``nan`` (as in
    scipy; ``rvs`` raises ``ValueError``): see the module docstring for the conditions.

    >>> import numpy as np
    >>> Z = arete_gauss(0.3, 1.0, 0.2, 0.1)
    >>> m, v, s, k = Z.stats(moments="mvsk")       # cumulants add over the parts
    >>> bool(m == 0 and s == 0 and np.isclose(v, 2 * 0.3 + 2 * 0.2**2 + 0.1**2, rtol=1e-15))
    True
    >>> # scaling law: scale=c is (alpha, c theta, c lam, c sigma)
    >>> bool(np.isclose(arete_gauss.cdf(0.7, 0.3, 1.0, 0.2, 0.1, scale=2.0),
    ...                 arete_gauss.cdf(0.7, 0.3, 2.0, 0.4, 0.2), rtol=1e-12))
    True
    >>> bool(np.isclose(Z.cdf(Z.ppf(0.999)), 0.999, rtol=1e-10))     # ppf inverts cdf
    True
    >>> bool(np.isnan(arete_gauss.pdf(0.1, 0.3, 1.0, 0.0, 0.0)))     # lam = sigma = 0, alpha <= 1/2
    True
    """

    def _argcheck(self, alpha, theta, lam, sigma):
        return _valid(alpha, theta, lam, sigma)

    def _pdf(self, x, alpha, theta, lam, sigma):
        return _per_set("pdf", x, alpha, theta, lam, sigma)

    def _logpdf(self, x, alpha, theta, lam, sigma):
        return _per_set("logpdf", x, alpha, theta, lam, sigma)

    def _cdf(self, x, alpha, theta, lam, sigma):
        return _per_set("cdf", x, alpha, theta, lam, sigma)

    def _sf(self, x, alpha, theta, lam, sigma):
        return _per_set("sf", x, alpha, theta, lam, sigma)

    def _logcdf(self, x, alpha, theta, lam, sigma):
        with np.errstate(divide="ignore"):
            return np.log(self._cdf(x, alpha, theta, lam, sigma))

    def _logsf(self, x, alpha, theta, lam, sigma):
        with np.errstate(divide="ignore"):
            return np.log(self._sf(x, alpha, theta, lam, sigma))

    def _isf(self, p, alpha, theta, lam, sigma):
        return per_parameter_set(_isf_one, p, alpha, theta, lam, sigma, valid=_valid_set)

    def _ppf(self, q, alpha, theta, lam, sigma):
        return -self._isf(q, alpha, theta, lam, sigma)

    def _rvs(self, alpha, theta, lam, sigma, size=None, random_state=None):
        return rvs_per_parameter_set(_draw, (alpha, theta, lam, sigma), size, random_state)

    def _stats(self, alpha, theta, lam, sigma):
        a, th, lm, sg = (np.asarray(v, dtype=float) for v in (alpha, theta, lam, sigma))
        var = 2.0 * (a * th * th + lm * lm) + sg * sg
        kurt = 12.0 * (a * th**4 + lm**4) / var**2
        zero = np.zeros_like(var)
        return zero, var, zero, kurt

    def _munp(self, n, alpha, theta, lam, sigma):
        a, th, lm, sg = (np.asarray(v, dtype=float) for v in (alpha, theta, lam, sigma))

        def kappa(k):
            if k % 2:
                return np.zeros(np.broadcast(a, th, lm, sg).shape)
            return 2.0 * math.factorial(k - 1) * (a * th**k + lm**k) + (sg * sg if k == 2 else 0.0)

        return moments_from_cumulants(n, kappa)

    def fit(self, data, *args, **kwds):
        r"""Not supported: raises ``NotImplementedError`` (as for ``arete``).

        With ``scale`` the parameters are redundant (:math:`cZ` has parameters
        :math:`(\alpha, c\theta, c\lambda, c\sigma)`), and scipy's generic maximum likelihood
        does not converge for ``arete`` already (see ``arete_proofs.stats.arete_gen.fit``).

        >>> import numpy as np
        >>> try:
        ...     arete_gauss.fit(np.zeros(3))
        ... except NotImplementedError as exc:
        ...     print("not supported" in str(exc))
        True
        """
        raise NotImplementedError("arete_gauss.fit is not supported: the parameters are redundant with scale "
                                  "and scipy's generic maximum likelihood does not converge (see arete_gen.fit)")

    def _entropy(self, alpha, theta, lam, sigma):
        a, th, lm, sg = float(alpha), float(theta), float(lam), float(sigma)
        if not _valid(a, th, lm, sg):
            return np.nan  # scipy discards it: invalid size-1 parameters reach _entropy
        small, big = _lengths(th, lm, sg)
        return entropy_by_quadrature(lambda x: _scalar("logpdf", x, a, th, lm, sg), small, big,
                                     (80.0 + 4.0 * a) * big)


#: Arete plus a Gaussian part as a ``scipy.stats`` instance (``arete_gauss.pdf(x, alpha, theta, lam, sigma)``).
arete_gauss = arete_gauss_gen(a=-np.inf, b=np.inf, name="arete_gauss", shapes="alpha, theta, lam, sigma")
