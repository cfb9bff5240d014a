r"""``scipy.stats.rv_discrete`` objects of :math:`\mathrm{GDL}(\beta, a)` and :math:`\mathrm{DLap}(a)` (float64).

The pmf from the :math:`{}_2F_1` closed form in float64
(:func:`arete_proofs.distributions.gdl.logpmf_float`), the cdf from its partial sums,
variates by the Gamma-Poisson sampler of :mod:`arete_proofs.noise.gdl`'s kind
(:math:`N_1 - N_2`, :math:`N_i \sim \mathrm{NB}(\beta, 1-e^{-a})`); moments exact.
Exact values at any precision: :mod:`arete_proofs.distributions.gdl`.

>>> import math
>>> z = gdl(0.5, 1.0)
>>> bool(abs(z.var() - 0.5 / (math.cosh(1.0) - 1)) < 1e-12), bool(abs(z.pmf(3) - z.pmf(-3)) == 0)
(True, True)
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special, stats

__all__ = ["gdl", "gdl_gen"]


class gdl_gen(stats.rv_discrete):
    r"""GDL(beta, a) on the integers, :math:`p(k) = q^{|k|}(1-q)^{2\beta}\frac{\Gamma(\beta+|k|)}{\Gamma(\beta)|k|!}{}_2F_1(\beta,\beta+|k|;1+|k|;q^2)`: shapes ``beta, a``.

    >>> bool(abs(gdl(1.0, 0.5).pmf(2) - math.tanh(0.25) * math.exp(-1.0)) < 1e-15)     # beta = 1: DLap
    True
    """

    def _argcheck(self, beta, a):
        return (beta > 0) & (a > 0) & np.isfinite(beta) & np.isfinite(a)

    def _get_support(self, beta, a):
        return -np.inf * np.ones_like(beta), np.inf * np.ones_like(beta)

    def _logpmf(self, k, beta, a):
        n = np.abs(k)
        return (-a * n + 2 * beta * np.log(-np.expm1(-a)) + special.gammaln(beta + n) - special.gammaln(beta)
                - special.gammaln(1 + n) + np.log(special.hyp2f1(beta, beta + n, 1 + n, np.exp(-2 * a))))

    def _pmf(self, k, beta, a):
        return np.exp(self._logpmf(k, beta, a))

    def _cdf_single(self, k, beta, a):
        k = math.floor(k)
        if k < 0:
            return self._sf_single(-k - 1, beta, a)
        return 1.0 - self._sf_single(k, beta, a)

    def _sf_single(self, k, beta, a):
        k = math.floor(k)
        if k < 0:
            return 1.0 - self._sf_single(-k - 1, beta, a)
        K = int(math.ceil((95 + 5 * abs(math.log(beta)) + max(beta - 1, 0) * 5) / a)) + 10
        ks = np.arange(k + 1, k + 1 + K)
        return float(np.sum(self._pmf(ks, beta, a)))

    def _cdf(self, k, beta, a):
        return np.vectorize(self._cdf_single, otypes=[float])(k, beta, a)

    def _sf(self, k, beta, a):
        return np.vectorize(self._sf_single, otypes=[float])(k, beta, a)

    def _rvs(self, beta, a, size=None, random_state=None):
        p = -np.expm1(-a)
        g = random_state
        n1 = g.poisson(g.gamma(beta, (1 - p) / p, size))
        n2 = g.poisson(g.gamma(beta, (1 - p) / p, size))
        return n1 - n2

    def _stats(self, beta, a):
        var = beta / (np.cosh(a) - 1)
        # excess kurtosis of N1 - N2: 2 kappa_4(NB) / (2 kappa_2(NB))^2, kappa_4 = beta q (1 + 4q + q^2)/p^4
        q = np.exp(-a)
        p = 1 - q
        k2 = beta * q / p ** 2
        k4 = beta * q * (1 + 4 * q + q * q) / p ** 4
        return 0.0, var, 0.0, 2 * k4 / (2 * k2) ** 2


#: The family (``gdl(beta, a)`` freezes it).
gdl = gdl_gen(name="gdl", a=-np.inf, b=np.inf)
