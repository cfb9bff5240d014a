r"""``scipy.stats.rv_discrete`` object of :math:`\mathrm{MSDLap}(a, m) = \sum_{i=1}^m i X_i`, :math:`X_i` iid DLap(a) (float64).

Harrison and Manurangsi (FORC 2025), Theorem 16.  The pmf is the float64 convolution table of
:func:`arete_proofs.distributions.comb.float_pmf_table` on :math:`|k| \le N`,
:math:`N = \min(m(745/a + 10) + 50, 40000)` (beyond it the pmf is below the float64 range for
:math:`N` not capped); cdf and sf are its partial sums (``sf`` summed from the right, so small
tails keep their relative accuracy), ``ppf``/``isf`` a search in those sums, variates
:math:`\sum_i i (G_i - G_i')` with geometric :math:`G` (DLap :math:`= G - G'`).  Moments exact from
the cumulants :math:`\kappa_n = S_n(m)\,\kappa_n(\mathrm{DLap}(a))`, :math:`S_n(m) = \sum_{i \le m} i^n`:
:math:`\operatorname{Var} = S_2(m)/(\cosh a - 1)` (Theorem 16).  Exact values at any precision:
:mod:`arete_proofs.distributions.comb`.

>>> import math
>>> z = msdlap(1.5, 3)
>>> bool(abs(z.var() - 14 / (math.cosh(1.5) - 1)) < 1e-12), bool(z.pmf(4) == z.pmf(-4))
(True, True)
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..privacy.accounting_lattice import msdlap_table

__all__ = ["msdlap", "msdlap_gen", "dlap_cumulant"]


def dlap_cumulant(n, a):
    r""":math:`\kappa_n(\mathrm{DLap}(a))`, :math:`n \le 4`: 0 for odd ``n``, :math:`2q/p^2` (n = 2), :math:`2q(1 + 4q + q^2)/p^4` (n = 4), :math:`q = e^{-a}`, :math:`p = 1 - q`.

    DLap(a) is :math:`G - G'` with :math:`G` geometric (NB(1, p)), so its even cumulants are twice the geometric's.

    >>> bool(abs(dlap_cumulant(2, 1.0) - 1 / (math.cosh(1.0) - 1)) < 1e-15)
    True
    """
    q = np.exp(-np.asarray(a, dtype=float))
    p = -np.expm1(-np.asarray(a, dtype=float))
    if n % 2:
        return np.zeros_like(q)
    if n == 2:
        return 2 * q / p ** 2
    if n == 4:
        return 2 * q * (1 + 4 * q + q * q) / p ** 4
    raise ValueError(f"n must be at most 4, got {n!r}")


def _ok(a, m):
    a, m = np.asarray(a, dtype=float), np.asarray(m, dtype=float)
    return np.isfinite(a) & (a > 0) & np.isfinite(m) & (m >= 1) & (m == np.floor(m))


def _scalar(v):
    return float(np.asarray(v, dtype=float).reshape(-1)[0])


class msdlap_gen(stats.rv_discrete):
    r"""MSDLap(a, m) on the integers: :math:`Z = \sum_{i=1}^m i X_i`, :math:`X_i` iid with pmf :math:`\tanh(a/2)e^{-a|k|}`; shapes ``a, m``.

    >>> z = msdlap(2.0, 1)                     # m = 1: DLap(2)
    >>> bool(abs(z.pmf(3) - math.tanh(1.0) * math.exp(-6.0)) < 1e-16)
    True
    >>> bool(z.cdf(z.ppf(0.99)) >= 0.99 > z.cdf(z.ppf(0.99) - 1))
    True
    """

    def _argcheck(self, a, m):
        return _ok(a, m)

    def _get_support(self, a, m):
        return -np.inf * np.ones_like(a), np.inf * np.ones_like(a)

    def _each(self, fn, x, a, m):
        x, a, m = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(a, dtype=float),
                                      np.asarray(m, dtype=float))
        out = np.empty(x.shape)
        flat_a, flat_m, flat_x, flat_o = a.reshape(-1), m.reshape(-1), x.reshape(-1), out.reshape(-1)
        for key in set(zip(flat_a.tolist(), flat_m.tolist())):
            sel = (flat_a == key[0]) & (flat_m == key[1])
            flat_o[sel] = fn(flat_x[sel], *msdlap_table(key[0], int(key[1])))
        return out

    def _pmf(self, k, a, m):
        def f(k, p, N, right):
            k = np.round(k)
            ok = np.abs(k) <= N
            out = np.zeros(k.shape)
            out[ok] = p[(k[ok] + N).astype(np.int64)]
            return out

        return self._each(f, k, a, m)

    def _logpmf(self, k, a, m):
        with np.errstate(divide="ignore"):
            return np.log(self._pmf(k, a, m))

    def _sf(self, k, a, m):
        def f(k, p, N, right):              # P(Z > k) = P(Z >= floor(k) + 1)
            j = np.floor(k) + 1
            idx = np.clip(j + N, 0, 2 * N).astype(np.int64)
            return np.where(j > N, 0.0, np.where(j < -N, 1.0, right[idx]))

        return self._each(f, k, a, m)

    def _cdf(self, k, a, m):
        return self._sf(-np.floor(k) - 1, a, m)      # P(Z <= k) = P(Z >= -k) = P(Z > -floor(k) - 1)

    def _isf(self, q, a, m):
        def f(q, p, N, right):              # least k with P(Z > k) <= q: right is nonincreasing
            j = np.searchsorted(-right, -q, side="left")       # first index with right[j] <= q
            return (j - N - 1).astype(float)

        return self._each(f, q, a, m)

    def _ppf(self, q, a, m):
        def f(q, p, N, right):              # least k with P(Z <= k) >= q, P(Z <= k) = 1 - right[k + 1 + N]
            left = 1.0 - right
            j = np.searchsorted(left, q, side="left")   # first index with 1 - right[j] >= q
            return (j - N - 1).astype(float)

        return self._each(f, q, a, m)

    def _rvs(self, a, m, size=None, random_state=None):
        a, m = _scalar(a), int(_scalar(m))
        g = random_state
        p = -math.expm1(-a)
        out = np.zeros(size, dtype=np.int64)
        for i in range(1, m + 1):
            out += i * (g.geometric(p, size) - g.geometric(p, size))
        return out

    def _stats(self, a, m):
        m = np.asarray(m, dtype=float)
        s2 = m * (m + 1) * (2 * m + 1) / 6
        s4 = m * (m + 1) * (2 * m + 1) * (3 * m * m + 3 * m - 1) / 30
        k2 = s2 * dlap_cumulant(2, a)
        k4 = s4 * dlap_cumulant(4, a)
        zero = np.zeros_like(k2)
        return zero, k2, zero, k4 / k2 ** 2

    def _munp(self, n, a, m):
        from ._common import moments_from_cumulants

        m_ = int(_scalar(m))
        if n > 4:
            return super()._munp(n, a, m)

        def kappa(k):
            return sum(i ** k for i in range(1, m_ + 1)) * dlap_cumulant(k, a)

        return moments_from_cumulants(n, kappa)


#: The family (``msdlap(a, m)`` freezes it).
msdlap = msdlap_gen(name="msdlap", a=-np.inf, b=np.inf)
