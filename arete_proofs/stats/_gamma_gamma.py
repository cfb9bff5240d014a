r"""The Gamma-Gamma difference as a ``scipy.stats`` distribution: ``gamma_gamma`` (float64).

:math:`X_1 - X_2` with :math:`X_1, X_2 \sim \Gamma(\alpha, \theta)` independent
(Definition 7), shape parameters ``alpha, theta`` (:math:`> 0`), plus scipy's
``loc`` and ``scale`` (``scale=c`` is ``theta -> c*theta``).  Density (Bessel-K form)

.. math::

    f_{\Gamma-\Gamma}(t) = \frac{|t|^{\alpha-1/2} K_{\alpha-1/2}(|t|/\theta)}
                                {\sqrt\pi\,\Gamma(\alpha)\,\theta^{\alpha+1/2}\,2^{\alpha-1/2}},

infinite at 0 for :math:`\alpha \le 1/2`, where
:math:`f \approx |t|^{2\alpha-1}/(2\cos(\pi\alpha)\Gamma(2\alpha)\theta^{2\alpha})`.

Where the numbers come from (all float64): ``pdf``/``logpdf``/``cdf``/``sf`` from
:mod:`arete_proofs.distributions.fast` (``gg_pdf``, ``gg_logpdf``, ``gg_cdf``,
``gg_sf``); ``ppf``/``isf`` by a bracketing root-finder on :math:`\ln\bar F`;
``rvs`` from :func:`arete_proofs.mechanisms.sampling.gamma_gamma`; ``stats`` and
``moment`` from the exact cumulants :math:`\kappa_{2m} = 2(2m-1)!\,\alpha\theta^{2m}`
(odd ones 0): variance :math:`2\alpha\theta^2`, excess kurtosis :math:`3/\alpha`;
``entropy`` by Gauss-Legendre panels, with the analytic contribution of
:math:`[0, 10^{-30}\theta]` for :math:`\alpha < 0.4`.  Exact values:
:mod:`arete_proofs.distributions.gamma_gamma`.

For small ``alpha`` most of the mass sits at astronomically small ``|t|``
(:math:`P(|X_1 - X_2| < t) \approx (t/\theta)^{2\alpha}/(\cos(\pi\alpha)\Gamma(1+2\alpha))`),
so quantiles near the median are tiny (below the float range, hence 0, for
``q`` within ~1e-12 of 1/2 at ``alpha = 0.02``).

>>> import numpy as np
>>> X = gamma_gamma(0.3, 2.0)
>>> # Definition 7: Var = 2 alpha theta^2, excess kurtosis 3/alpha
>>> m, v, s, k = X.stats(moments="mvsk")
>>> bool(m == 0 and s == 0 and np.isclose(v, 2.4, rtol=1e-15) and np.isclose(k, 10.0, rtol=1e-15))
True
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special as sc
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

__all__ = ["gamma_gamma", "gamma_gamma_gen"]


def _isf_one(p, alpha, theta):
    with np.errstate(divide="ignore"):
        return isf_symmetric(lambda x: np.log(fast.gg_sf(x, alpha, theta)), p,
                             1e-30 * theta, (800.0 + 10.0 * alpha) * theta)


def _entropy_head(alpha, theta, x0):
    r""":math:`\int_0^{x_0} f\ln f` with :math:`f = C x^{b}`, :math:`b = 2\alpha - 1`, :math:`C = 1/(2\cos(\pi\alpha)\Gamma(2\alpha)\theta^{2\alpha})`."""
    if alpha >= 0.4:
        return 0.0  # below 1e-23 at x0 = 1e-30 theta
    lnC = -math.log(2.0 * math.cos(math.pi * alpha)) - sc.gammaln(2 * alpha) - 2 * alpha * math.log(theta)
    b = 2 * alpha - 1
    lx0 = math.log(x0)
    mass = math.exp(lnC + 2 * alpha * lx0) / (2 * alpha)  # int_0^x0 C x^b dx
    return mass * (lnC + b * (lx0 - 1.0 / (2 * alpha)))


class gamma_gamma_gen(rv_continuous):
    r"""The difference :math:`X_1 - X_2` of two independent :math:`\Gamma(\alpha, \theta)` variables (Definition 7), float64.

    Use the instance ``gamma_gamma`` like ``scipy.stats.norm``:
    ``gamma_gamma.cdf(x, alpha, theta)``, ``gamma_gamma(alpha, theta).rvs(...)``.
    Characteristic function :math:`(1 + \theta^2 s^2)^{-\alpha}`; invalid
    parameters (not finite and positive) give ``nan``.

    >>> import numpy as np
    >>> X = gamma_gamma(0.3, 2.0)
    >>> bool(X.cdf(0) == 0.5 and X.sf(1.5) == X.cdf(-1.5))      # symmetric about 0
    True
    >>> # the Gamma-Gamma(1, theta) difference is Laplace(theta): sf(t) = exp(-t/theta)/2
    >>> bool(np.isclose(gamma_gamma.sf(3.0, 1.0, 2.0), np.exp(-1.5) / 2, rtol=1e-13))
    True
    >>> bool(np.isclose(X.isf(1e-6), -X.ppf(1e-6), rtol=1e-15) and np.isclose(X.sf(X.isf(1e-6)), 1e-6, rtol=1e-12))
    True
    """

    def _argcheck(self, alpha, theta):
        a = np.asarray(alpha, dtype=float)
        th = np.asarray(theta, dtype=float)
        return np.isfinite(a) & (a > 0) & np.isfinite(th) & (th > 0)

    def _pdf(self, x, alpha, theta):
        return per_parameter_set(fast.gg_pdf, x, alpha, theta)

    def _logpdf(self, x, alpha, theta):
        return per_parameter_set(fast.gg_logpdf, x, alpha, theta)

    def _cdf(self, x, alpha, theta):
        return per_parameter_set(fast.gg_cdf, x, alpha, theta)

    def _sf(self, x, alpha, theta):
        return per_parameter_set(fast.gg_sf, x, alpha, theta)

    def _logcdf(self, x, alpha, theta):
        with np.errstate(divide="ignore"):
            return np.log(self._cdf(x, alpha, theta))

    def _logsf(self, x, alpha, theta):
        with np.errstate(divide="ignore"):
            return np.log(self._sf(x, alpha, theta))

    def _isf(self, p, alpha, theta):
        return per_parameter_set(_isf_one, p, alpha, theta)

    def _ppf(self, q, alpha, theta):
        return -self._isf(q, alpha, theta)

    def _rvs(self, alpha, theta, size=None, random_state=None):
        return rvs_per_parameter_set(sampling.gamma_gamma, (alpha, theta), size, random_state)

    def _stats(self, alpha, theta):
        a, th = np.asarray(alpha, dtype=float), np.asarray(theta, dtype=float)
        var = 2.0 * a * th * th
        zero = np.zeros_like(var)
        return zero, var, zero, 3.0 / a + zero

    def _munp(self, n, alpha, theta):
        a, th = np.asarray(alpha, dtype=float), np.asarray(theta, dtype=float)

        def kappa(k):
            if k % 2:
                return np.zeros(np.broadcast(a, th).shape)
            return 2.0 * math.factorial(k - 1) * a * th**k

        return moments_from_cumulants(n, kappa)

    def _entropy(self, alpha, theta):
        a, th = float(alpha), float(theta)
        if not self._argcheck(a, th):
            return np.nan  # scipy discards it: invalid size-1 parameters reach _entropy
        head = _entropy_head(a, th, 1e-30 * th)
        return entropy_by_quadrature(lambda x: fast.gg_logpdf(x, a, th), th, th, (80.0 + 4.0 * a) * th, head)


#: The Gamma-Gamma difference as a ``scipy.stats`` instance (``gamma_gamma.pdf(x, alpha, theta)``, ``gamma_gamma(alpha, theta).rvs(...)``).
gamma_gamma = gamma_gamma_gen(a=-np.inf, b=np.inf, name="gamma_gamma", shapes="alpha, theta")
