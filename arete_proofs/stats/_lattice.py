r"""``scipy.stats.rv_continuous`` objects of the lattice laws :math:`hM + S`, :math:`M \sim \mathrm{MSDLap}(a, m)` (float64).

* ``lattice_laplace`` (shapes ``a, m, b, h``): :math:`S \sim \mathrm{Laplace}(b)`, Theorem 21's family
  (Harrison and Manurangsi, FORC 2025);
* ``lattice_gauss`` (shapes ``a, m, sigma, h``): :math:`S \sim \mathcal N(0, \sigma^2)`.

Density and distribution function are the mixtures :math:`f(t) = \sum_k p_k\, g(t - hk)`,
:math:`F(t) = \sum_k p_k\, G(t - hk)` over the float64 pmf table of
:func:`arete_proofs.privacy.accounting_lattice.msdlap_table`, summed in log space (``logsumexp``); ``sf(t) = cdf(-t)``
(symmetry) keeps small tails accurate; ``ppf``/``isf`` a bracketing root-finder on :math:`\ln\bar F`
(``arete_proofs.stats._common.isf_symmetric``); variates :math:`hM + S`.  Moments exact from
cumulants: :math:`\kappa_n = h^n S_n(m)\kappa_n(\mathrm{DLap}(a)) + \kappa_n(S)`,
:math:`\kappa_2(S) = 2b^2` or :math:`\sigma^2`, :math:`\kappa_4(S) = 12 b^4` or 0.  Exact values at any
precision: :mod:`arete_proofs.distributions.lattice`.

>>> import math
>>> z = lattice_laplace(5.0, 8, 0.0625, 0.125)         # Theorem 21 at eps = 6, Delta = 1
>>> v = 0.125 ** 2 * (8 * 9 * 17 / 6 / (math.cosh(5) - 1) + 0.5)
>>> bool(abs(z.var() / v - 1) < 1e-13), bool(abs(z.cdf(0) - 0.5) < 1e-15)
(True, True)
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..privacy.accounting_lattice import float_mixture as _mixture
from ._comb import dlap_cumulant

__all__ = ["lattice_laplace", "lattice_laplace_gen", "lattice_gauss", "lattice_gauss_gen"]


def _ok(a, m, s, h):
    a, m, s, h = (np.asarray(v, dtype=float) for v in (a, m, s, h))
    return (np.isfinite(a) & (a > 0) & np.isfinite(m) & (m >= 1) & (m == np.floor(m)) & np.isfinite(s) & (s > 0)
            & np.isfinite(h) & (h > 0))


class _LatticeGen(stats.rv_continuous):
    """Common part of the two lattice laws (``kernel``)."""

    kernel = ""

    def _argcheck(self, a, m, s, h):
        return _ok(a, m, s, h)

    def _each(self, fn, x, a, m, s, h):
        arrs = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (x, a, m, s, h)))
        flat = [v.reshape(-1) for v in arrs]
        out = np.empty(flat[0].shape)
        for key in set(zip(*(f.tolist() for f in flat[1:]))):
            sel = np.ones(flat[0].shape, dtype=bool)
            for f, k in zip(flat[1:], key):
                sel &= f == k
            out[sel] = fn(flat[0][sel], key[0], int(key[1]), key[2], key[3])
        return out.reshape(arrs[0].shape)

    def _logpdf(self, x, a, m, s, h):
        return self._each(lambda t, *p: _mixture(t, *p, self.kernel, "pdf"), x, a, m, s, h)

    def _pdf(self, x, a, m, s, h):
        return np.exp(self._logpdf(x, a, m, s, h))

    def _logcdf(self, x, a, m, s, h):
        return self._each(lambda t, *p: _mixture(t, *p, self.kernel, "cdf"), x, a, m, s, h)

    def _cdf(self, x, a, m, s, h):
        return np.exp(self._logcdf(x, a, m, s, h))

    def _logsf(self, x, a, m, s, h):
        return self._logcdf(-np.asarray(x, dtype=float), a, m, s, h)

    def _sf(self, x, a, m, s, h):
        return np.exp(self._logsf(x, a, m, s, h))

    def _isf(self, q, a, m, s, h):
        from ._common import isf_symmetric

        def one(qq, a, m, s, h):
            with np.errstate(divide="ignore"):
                return isf_symmetric(lambda t: _mixture(-t, a, m, s, h, self.kernel, "cdf"), qq,
                                     1e-30 * min(s, h), 10.0 * (m * h * (50 + 745 / a) + 50 * s))

        return self._each(one, q, a, m, s, h)

    def _ppf(self, q, a, m, s, h):
        return -self._isf(q, a, m, s, h)

    def _smooth_cumulant(self, n, s):
        raise NotImplementedError

    def _kappa(self, n, a, m, s, h):
        m = np.asarray(m, dtype=float)
        S = {2: m * (m + 1) * (2 * m + 1) / 6, 4: m * (m + 1) * (2 * m + 1) * (3 * m * m + 3 * m - 1) / 30}
        if n % 2:
            return np.zeros(np.broadcast(a, m, s, h).shape)
        return np.asarray(h, dtype=float) ** n * S[n] * dlap_cumulant(n, a) + self._smooth_cumulant(n, np.asarray(s, dtype=float))

    def _stats(self, a, m, s, h):
        k2, k4 = self._kappa(2, a, m, s, h), self._kappa(4, a, m, s, h)
        zero = np.zeros_like(k2)
        return zero, k2, zero, k4 / k2 ** 2

    def _munp(self, n, a, m, s, h):
        from ._common import moments_from_cumulants

        if n > 4:
            return super()._munp(n, a, m, s, h)
        return moments_from_cumulants(n, lambda k: self._kappa(k, a, m, s, h))

    def _rvs(self, a, m, s, h, size=None, random_state=None):
        a, m, s, h = (float(np.asarray(v, dtype=float).reshape(-1)[0]) for v in (a, m, s, h))
        g = random_state
        p = -math.expm1(-a)
        M = np.zeros(size)
        for i in range(1, int(m) + 1):
            M += i * (g.geometric(p, size) - g.geometric(p, size))
        S = g.laplace(0.0, s, size) if self.kernel == "laplace" else g.normal(0.0, s, size)
        return h * M + S


class lattice_laplace_gen(_LatticeGen):
    r""":math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)`, density :math:`\sum_k p_k e^{-|t - hk|/b}/(2b)`; shapes ``a, m, b, h``.

    >>> import numpy as np
    >>> z = lattice_laplace(2.0, 2, 0.25, 0.5)
    >>> bool(np.isclose(z.cdf(z.ppf(0.999)), 0.999, rtol=1e-12)), bool(np.isclose(z.sf(1.3), z.cdf(-1.3), rtol=0))
    (True, True)
    """

    kernel = "laplace"

    def _smooth_cumulant(self, n, s):
        return {2: 2 * s ** 2, 4: 12 * s ** 4}[n]


class lattice_gauss_gen(_LatticeGen):
    r""":math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)`, density :math:`\sum_k p_k \varphi((t - hk)/\sigma)/\sigma`; shapes ``a, m, sigma, h``.

    >>> z = lattice_gauss(2.0, 2, 0.2, 0.5)
    >>> bool(abs(z.var() - (0.25 * 5 / (math.cosh(2) - 1) + 0.04)) < 1e-14)     # h^2 Var M + sigma^2
    True
    """

    kernel = "gauss"

    def _smooth_cumulant(self, n, s):
        return {2: s ** 2, 4: 0.0 * s}[n]


#: ``lattice_laplace(a, m, b, h)`` freezes it (Theorem 21's family).
lattice_laplace = lattice_laplace_gen(name="lattice_laplace", a=-np.inf, b=np.inf, shapes="a, m, b, h")
#: ``lattice_gauss(a, m, sigma, h)`` freezes it.
lattice_gauss = lattice_gauss_gen(name="lattice_gauss", a=-np.inf, b=np.inf, shapes="a, m, sigma, h")
