r"""The Arete distribution as a ``scipy.stats`` distribution: ``arete`` (float64).

:math:`Z = X_1 - X_2 + Y` with :math:`X_1, X_2 \sim \Gamma(\alpha, \theta)` and
:math:`Y \sim \mathrm{Laplace}(\lambda)` independent (Definitions 1 and 9),
shape parameters ``alpha, theta, lam`` (all :math:`> 0`), plus scipy's ``loc``
and ``scale``.  Scaling law: :math:`c\,Z \sim \mathrm{Arete}(\alpha, c\theta, c\lambda)`,
so ``arete(alpha, theta, lam, scale=c)`` is ``arete(alpha, c*theta, c*lam)``.

Where the numbers come from (all float64):

* ``pdf``, ``logpdf``, ``cdf``, ``sf``: :mod:`arete_proofs.distributions.fast`
  (log-values to ``1e-13 * max(1, |value|)`` for ``alpha in [1e-7, 10]``,
  ``theta, lam in [1e-3, 1e3]``, ``|x| <= 1000 theta``); ``logsf``/``logcdf`` are
  the logarithms of ``sf``/``cdf`` (``-inf`` where those underflow).
* ``ppf``, ``isf``: a bracketing root-finder (Chandrupatla) on :math:`\ln\bar F`
  (``arete_proofs.stats._common.isf_symmetric``); ``ppf(q) = -isf(q)`` by symmetry.
* ``rvs``: :func:`arete_proofs.mechanisms.sampling.arete` on a numpy ``Generator``.
* ``stats``, ``moment``: exact cumulants.  :math:`\kappa_n(\Gamma(\alpha,\theta)) = \alpha(n-1)!\,\theta^n`
  and :math:`\kappa_n(\mathrm{Laplace}(\lambda)) = 2(n-1)!\,\lambda^n` for even ``n``
  (0 for odd ``n``), so the odd cumulants of ``Z`` vanish and
  :math:`\kappa_{2m}(Z) = 2(2m-1)!\,(\alpha\theta^{2m} + \lambda^{2m})`: mean and skewness 0,
  :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2` (Lemma 3),
  excess kurtosis :math:`\kappa_4/\kappa_2^2 = 3(\alpha\theta^4 + \lambda^4)/(\alpha\theta^2 + \lambda^2)^2`.
* ``entropy``: :math:`-2\int_0^\infty f_A\ln f_A` by Gauss-Legendre panels
  (``arete_proofs.stats._common.entropy_by_quadrature``).

Exact values (any number of digits) are in :mod:`arete_proofs.distributions.arete`.

>>> import numpy as np
>>> Z = arete(0.1, 1.0, 0.3)
>>> bool(Z.cdf(0) == 0.5 and Z.median() == 0.0)     # symmetric about 0
True
>>> lo, hi = Z.interval(0.95)
>>> bool(np.isclose(lo, -hi, rtol=1e-12) and np.isclose(Z.cdf(hi) - Z.cdf(lo), 0.95, rtol=1e-12))
True
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import rv_continuous

from ..distributions import fast
from ..mechanisms import sampling
from ._common import (
    entropy_by_quadrature,
    isf_symmetric,
    moments_from_cumulants,
    per_parameter_set,
    rvs_per_parameter_set,
)

__all__ = ["arete", "arete_gen"]


def _positive_finite(*params):
    cond = True
    for p in params:
        p = np.asarray(p, dtype=float)
        cond = cond & np.isfinite(p) & (p > 0)
    return cond


def _isf_one(p, alpha, theta, lam):
    small, big = min(theta, lam), max(theta, lam)
    with np.errstate(divide="ignore"):
        return isf_symmetric(lambda x: np.log(fast.sf(x, alpha, theta, lam)), p,
                             1e-30 * small, (800.0 + 10.0 * alpha) * big)


class arete_gen(rv_continuous):
    r"""The Arete distribution :math:`\mathrm{Arete}(\alpha, \theta, \lambda)` (Definitions 1 and 9), float64.

    Density (Definition 9)

    .. math::

        f_A(t) = \int_{-\infty}^{\infty} f_{\Gamma-\Gamma}(t - y)\,\frac{e^{-|y|/\lambda}}{2\lambda}\,dy,
        \qquad \alpha, \theta, \lambda > 0,

    the law of :math:`X_1 - X_2 + Y`, :math:`X_i \sim \Gamma(\alpha, \theta)`,
    :math:`Y \sim \mathrm{Laplace}(\lambda)`.  Use the instance ``arete`` like
    ``scipy.stats.norm``: ``arete.pdf(x, alpha, theta, lam, loc=0, scale=1)``,
    ``arete(alpha, theta, lam)`` freezes.  ``scale=c`` multiplies ``theta`` and ``lam``
    by ``c`` (scaling law).  Invalid parameters (not finite and positive) give
    ``nan``, as in scipy; ``rvs`` raises ``ValueError`` for them.

    >>> import numpy as np
    >>> Z = arete(0.1, 1.0, 0.3)
    >>> # Lemma 3: Var Z = 2 alpha theta^2 + 2 lam^2; mean and skewness vanish by symmetry
    >>> m, v, s, k = Z.stats(moments="mvsk")
    >>> bool(m == 0 and s == 0 and np.isclose(v, 2 * 0.1 + 2 * 0.3**2, rtol=1e-15))
    True
    >>> # scaling law: scale=c is Arete(alpha, c theta, c lam)
    >>> bool(np.isclose(arete.cdf(0.7, 0.1, 1.0, 0.3, scale=2.0), arete.cdf(0.7, 0.1, 2.0, 0.6), rtol=1e-13))
    True
    >>> # ppf inverts cdf; a seeded Generator makes rvs reproducible
    >>> bool(np.isclose(Z.cdf(Z.ppf(0.999)), 0.999, rtol=1e-13))
    True
    >>> bool(np.all(Z.rvs(5, random_state=np.random.default_rng(1)) == Z.rvs(5, random_state=np.random.default_rng(1))))
    True
    """

    def _argcheck(self, alpha, theta, lam):
        return _positive_finite(alpha, theta, lam)

    def _pdf(self, x, alpha, theta, lam):
        return per_parameter_set(fast.pdf, x, alpha, theta, lam)

    def _logpdf(self, x, alpha, theta, lam):
        return per_parameter_set(fast.logpdf, x, alpha, theta, lam)

    def _cdf(self, x, alpha, theta, lam):
        return per_parameter_set(fast.cdf, x, alpha, theta, lam)

    def _sf(self, x, alpha, theta, lam):
        return per_parameter_set(fast.sf, x, alpha, theta, lam)

    def _logcdf(self, x, alpha, theta, lam):
        with np.errstate(divide="ignore"):
            return np.log(self._cdf(x, alpha, theta, lam))

    def _logsf(self, x, alpha, theta, lam):
        with np.errstate(divide="ignore"):
            return np.log(self._sf(x, alpha, theta, lam))

    def _isf(self, p, alpha, theta, lam):
        return per_parameter_set(_isf_one, p, alpha, theta, lam)

    def _ppf(self, q, alpha, theta, lam):
        return -self._isf(q, alpha, theta, lam)

    def _rvs(self, alpha, theta, lam, size=None, random_state=None):
        return rvs_per_parameter_set(sampling.arete, (alpha, theta, lam), size, random_state)

    def _stats(self, alpha, theta, lam):
        a, th, lm = (np.asarray(v, dtype=float) for v in (alpha, theta, lam))
        half_var = a * th * th + lm * lm
        var = 2.0 * half_var
        kurt = 3.0 * (a * th**4 + lm**4) / half_var**2
        zero = np.zeros_like(var)
        return zero, var, zero, kurt

    def _munp(self, n, alpha, theta, lam):
        a, th, lm = (np.asarray(v, dtype=float) for v in (alpha, theta, lam))

        def kappa(k):
            if k % 2:
                return np.zeros(np.broadcast(a, th, lm).shape)
            return 2.0 * math.factorial(k - 1) * (a * th**k + lm**k)

        return moments_from_cumulants(n, kappa)

    def fit(self, data, *args, **kwds):
        r"""Not supported: raises ``NotImplementedError`` (scipy's generic maximum likelihood fails here).

        With ``scale`` the parameters are redundant (:math:`c\,\mathrm{Arete}(\alpha, \theta, \lambda) =
        \mathrm{Arete}(\alpha, c\theta, c\lambda)`), and even with ``floc=0, fscale=1`` the
        generic Nelder-Mead search ran for about a minute on 2000 draws of
        Arete(0.3, 1, 0.5) and returned alpha = 92, theta = 0.014 (outside the
        accuracy range of the float64 path).

        >>> import numpy as np
        >>> try:
        ...     arete.fit(np.zeros(3))
        ... except NotImplementedError as exc:
        ...     print("not supported" in str(exc))
        True
        """
        raise NotImplementedError("arete.fit is not supported: scipy's generic maximum likelihood does not "
                                  "converge for Arete(alpha, theta, lam) (see arete_proofs.stats.arete_gen.fit)")

    def _entropy(self, alpha, theta, lam):
        a, th, lm = float(alpha), float(theta), float(lam)
        if not self._argcheck(a, th, lm):
            return np.nan  # scipy discards it: invalid size-1 parameters reach _entropy
        big = max(th, lm)
        return entropy_by_quadrature(lambda x: fast.logpdf(x, a, th, lm), min(th, lm), big,
                                     (80.0 + 4.0 * a) * big)


#: The Arete distribution as a ``scipy.stats`` instance (``arete.pdf(x, alpha, theta, lam)``, ``arete(alpha, theta, lam).rvs(...)``).
arete = arete_gen(a=-np.inf, b=np.inf, name="arete", shapes="alpha, theta, lam")
