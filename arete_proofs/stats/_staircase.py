r"""The Staircase distribution as a ``scipy.stats`` distribution: ``staircase`` (float64, closed forms).

:math:`SC(\gamma, \Delta)` at privacy level :math:`\varepsilon` (paper, Lemma 27;
Geng and Viswanath 2016), shape parameters ``gamma`` in :math:`[0, 1]`,
``Delta > 0``, ``eps > 0``, plus scipy's ``loc`` and ``scale`` (``scale=c`` is
``Delta -> c*Delta``).  With :math:`r = e^{-\varepsilon}`, :math:`q = 1 - r`,
:math:`c = \gamma + r(1-\gamma)`, :math:`a = q/(2\Delta c)` and, for
:math:`|t|/\Delta = k + s` (:math:`k` an integer, :math:`0 \le s < 1`),

.. math::

    f_{SC}(t) = a\,e^{-\varepsilon N}, \quad N = k + [s \ge \gamma], \qquad
    P(X > |t|) = \begin{cases}
        r^k\,(r + q(\gamma - s)) / (2c), & s < \gamma, \\
        r^{k+1}\,(c + q(1 - s)) / (2c), & s \ge \gamma.
    \end{cases}

Everything is a closed form, evaluated elementwise in numpy (no root-finder):

* ``ppf``/``isf``: for :math:`p \le 1/2`, :math:`k = \lfloor -\ln(2p)/\varepsilon \rfloor`,
  :math:`v = 2cp\,e^{k\varepsilon} \in (rc, c]`, then :math:`s = \gamma - (v - r)/q` if
  :math:`v > r`, else :math:`s = 1 - (v/r - c)/q`, and :math:`x = \Delta(k + s)`.
* ``logsf`` is computed in log space: exact far beyond the float range of ``sf``.
* ``stats``/``moment``: :math:`E X^{n} = \frac{\Delta^{n}}{n+1}\sum_{j=0}^{n}\binom{n+1}{j}\,
  qS_j\,\frac{r + q\gamma^{n+1-j}}{c}` for even ``n`` (0 for odd ``n``), with
  :math:`S_j = \sum_{k\ge0} k^j r^k = r A_j(r)/q^{j+1}` (:math:`A_j` the Eulerian
  polynomial, :math:`S_0 = 1/q`): sum the integrals of :math:`t^{n}` over the two
  steps of each period.  ``n = 2`` is :func:`arete_proofs.distributions.staircase.var`.
* ``entropy``: :math:`h = -E\ln f(X) = \ln(2\Delta c/q) + \varepsilon E N` with
  :math:`E N = \sum_{n\ge1} n\,2\Delta a r^n = r/(qc)`.
* ``rvs``: :func:`arete_proofs.mechanisms.sampling.staircase` (exact sampler).

Exact values at any precision: :mod:`arete_proofs.distributions.staircase`.
Within a few ulps of a jump :math:`|t| = (k+\gamma)\Delta` the float64 step
index may fall on either side.

>>> import numpy as np
>>> X = staircase(0.3, 1.0, 2.0)
>>> # Lemma 27: a shift by Delta changes the density by a factor e^eps at most (equality here)
>>> t = np.linspace(-3, 3, 601)
>>> bool(np.all(X.logpdf(t) - X.logpdf(t + 1.0) <= 2.0 + 1e-12))
True
>>> bool(np.isclose(X.sf(4.0), np.exp(-8.0) / 2, rtol=1e-14))       # P(X > k Delta) = e^{-k eps}/2
True
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import rv_continuous

from ..mechanisms import sampling
from ._common import rvs_per_parameter_set

__all__ = ["staircase", "staircase_gen"]

_LN2 = math.log(2.0)


def _constants(gamma, eps):
    """``ln q`` and ``ln c``, ``q = 1 - e^-eps``, ``c = e^-eps + q gamma`` (no underflow of ``c`` for ``gamma = 0``)."""
    gamma = np.asarray(gamma, dtype=float)
    eps = np.asarray(eps, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):  # invalid parameters give nan (scipy discards them)
        lnq = np.log(-np.expm1(-eps))
        lng = np.log(gamma)
        return lnq, np.logaddexp(-eps, lnq + lng)


def _split(u, Delta):
    """``u/Delta = k + s`` with ``k`` an integer and ``0 <= s < 1``."""
    y = u / Delta
    k = np.floor(y)
    return k, y - k


def _logpdf(x, gamma, Delta, eps):
    lnq, lnc = _constants(gamma, eps)
    k, s = _split(np.abs(x), Delta)
    n = k + (s >= gamma)
    return lnq - np.log(2.0 * Delta) - lnc - eps * n


def _log_sf_abs(u, gamma, Delta, eps):
    r""":math:`\ln P(X > u)` for :math:`u \ge 0` (sums of non-negative terms only)."""
    lnq, lnc = _constants(gamma, eps)
    k, s = _split(u, Delta)
    q = np.exp(lnq)
    first = s < gamma
    with np.errstate(divide="ignore", invalid="ignore"):
        v1 = np.log(np.exp(-eps) + q * (gamma - s))
        v2 = -eps + np.log(np.exp(lnc) + q * (1.0 - s))
    return np.where(u == 0, -_LN2, -eps * k + np.where(first, v1, v2) - _LN2 - lnc)  # sf(0) = 1/2 exactly


def _logsf(x, gamma, Delta, eps):
    lsa = _log_sf_abs(np.abs(x), gamma, Delta, eps)
    with np.errstate(divide="ignore"):
        return np.where(x >= 0, lsa, np.log1p(-np.exp(lsa)))


def _sf(x, gamma, Delta, eps):
    lsa = _log_sf_abs(np.abs(x), gamma, Delta, eps)
    return np.where(x >= 0, np.exp(lsa), -np.expm1(lsa))


def _isf(p, gamma, Delta, eps):
    """Closed-form inverse of :func:`_sf` (module docstring); ``p`` in ``(0, 1)``."""
    p, gamma, Delta, eps = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (p, gamma, Delta, eps)))
    lnq, lnc = _constants(gamma, eps)
    tail = np.where(p <= 0.5, p, 1.0 - p)  # exact for p >= 1/2
    lp2 = np.log(2.0 * tail)  # <= 0
    k = np.floor(-lp2 / eps)
    w = lp2 + k * eps  # in (-eps, 0] up to rounding
    hi = w > 0
    k, w = np.where(hi, k - 1, k), np.where(hi, w - eps, w)
    lo = w <= -eps
    k, w = np.where(lo, k + 1, k), np.where(lo, w + eps, w)
    q = np.exp(lnq)
    c = np.exp(lnc)
    first = lnc + w > -eps  # v = c e^w > r: the upper step [k, k + gamma)
    with np.errstate(over="ignore", invalid="ignore"):
        s1 = gamma - (c * np.exp(w) - np.exp(-eps)) / q
        s2 = 1.0 - (np.exp(np.minimum(lnc + w + eps, 0.0)) - c) / q
    s = np.clip(np.where(first, s1, s2), 0.0, 1.0)
    x = np.where(tail == 0.5, 0.0, Delta * (k + s))  # the median, free of the rounding of s
    return np.where(p <= 0.5, x, -x)


def _eulerian(j):
    """Coefficients (highest power first) of the Eulerian polynomial :math:`A_j(r) = \\sum_i E(j, i) r^i`."""
    # E(j, i) = sum_m (-1)^m C(j+1, m) (i+1-m)^j, exact in integers
    coef = [sum((-1) ** m * math.comb(j + 1, m) * (i + 1 - m) ** j for m in range(i + 1)) for i in range(j)]
    return np.array(coef[::-1], dtype=float)


def _even_moment(n, gamma, Delta, eps):
    r""":math:`E X^{n}` for even ``n`` (module docstring); ``qS_j = r A_j(r) / q^j``."""
    gamma, Delta, eps = (np.asarray(v, dtype=float) for v in (gamma, Delta, eps))
    lnq, lnc = _constants(gamma, eps)
    with np.errstate(all="ignore"):  # invalid parameters give nan (scipy discards them)
        r = np.exp(-eps)
        q = np.exp(lnq)
        rc = np.exp(-eps - lnc)  # r/c
        qc = np.exp(lnq - lnc)  # q/c
        total = rc + qc * gamma ** (n + 1)  # j = 0: q S_0 = 1
        for j in range(1, n + 1):
            qS = r * np.polyval(_eulerian(j), r) / q**j
            total = total + math.comb(n + 1, j) * qS * (rc + qc * gamma ** (n + 1 - j))
        return Delta**n * total / (n + 1)


class staircase_gen(rv_continuous):
    r"""The Staircase distribution :math:`SC(\gamma, \Delta)` at privacy level :math:`\varepsilon` (Lemma 27), float64.

    Density :math:`f_{SC}(t) = a(\gamma)\,e^{-\varepsilon N(|t|)}`,
    :math:`N(u) = \lfloor u/\Delta + 1 - \gamma \rfloor`,
    :math:`a(\gamma) = (1 - e^{-\varepsilon})/(2\Delta(\gamma + e^{-\varepsilon}(1-\gamma)))`.
    Use the instance ``staircase`` like ``scipy.stats.norm``:
    ``staircase.pdf(x, gamma, Delta, eps)``, ``staircase(gamma, Delta, eps).ppf(q)``.
    Invalid parameters (``gamma`` outside ``[0, 1]``, ``Delta`` or ``eps`` not
    finite and positive) give ``nan``.

    >>> import numpy as np
    >>> X = staircase(0.3, 1.0, 2.0)
    >>> # the density jumps by the factor e^eps at t = gamma Delta (Lemma 27)
    >>> bool(np.isclose(X.pdf(0.29) / X.pdf(0.3), np.exp(2.0), rtol=1e-14))
    True
    >>> # the central step carries mass 2 gamma Delta a(gamma); ppf is the closed-form inverse
    >>> a = (1 - np.exp(-2.0)) / (2 * (0.3 + np.exp(-2.0) * 0.7))
    >>> bool(np.isclose(X.cdf(0.3) - X.cdf(-0.3), 0.6 * a, rtol=1e-14) and np.isclose(X.ppf(X.cdf(0.3)), 0.3, rtol=1e-14))
    True
    """

    def _argcheck(self, gamma, Delta, eps):
        g, D, e = (np.asarray(v, dtype=float) for v in (gamma, Delta, eps))
        return (g >= 0) & (g <= 1) & np.isfinite(D) & (D > 0) & np.isfinite(e) & (e > 0)

    def _pdf(self, x, gamma, Delta, eps):
        return np.exp(_logpdf(x, gamma, Delta, eps))

    def _logpdf(self, x, gamma, Delta, eps):
        return _logpdf(x, gamma, Delta, eps)

    def _cdf(self, x, gamma, Delta, eps):
        return _sf(-np.asarray(x), gamma, Delta, eps)

    def _sf(self, x, gamma, Delta, eps):
        return _sf(np.asarray(x), gamma, Delta, eps)

    def _logcdf(self, x, gamma, Delta, eps):
        return _logsf(-np.asarray(x), gamma, Delta, eps)

    def _logsf(self, x, gamma, Delta, eps):
        return _logsf(np.asarray(x), gamma, Delta, eps)

    def _isf(self, p, gamma, Delta, eps):
        return _isf(p, gamma, Delta, eps)

    def _ppf(self, q, gamma, Delta, eps):
        return -_isf(q, gamma, Delta, eps)

    def _rvs(self, gamma, Delta, eps, size=None, random_state=None):
        return rvs_per_parameter_set(sampling.staircase, (gamma, Delta, eps), size, random_state)

    def _stats(self, gamma, Delta, eps):
        var = _even_moment(2, gamma, Delta, eps)
        kurt = _even_moment(4, gamma, Delta, eps) / var**2 - 3.0
        zero = np.zeros_like(var)
        return zero, var, zero, kurt

    def _munp(self, n, gamma, Delta, eps):
        if n % 2:
            return np.zeros(np.broadcast(gamma, Delta, eps).shape)
        return _even_moment(int(n), gamma, Delta, eps)

    def fit(self, data, *args, **kwds):
        r"""Not supported: raises ``NotImplementedError``.

        The likelihood of a step density is piecewise constant and discontinuous
        in ``gamma`` and ``Delta`` (:math:`N(|t|) = \lfloor |t|/\Delta + 1 - \gamma \rfloor`
        jumps), so scipy's generic optimizer has no gradient to follow.

        >>> import numpy as np
        >>> try:
        ...     staircase.fit(np.zeros(3))
        ... except NotImplementedError as exc:
        ...     print("not supported" in str(exc))
        True
        """
        raise NotImplementedError("staircase.fit is not supported: the likelihood is piecewise constant "
                                  "in gamma and Delta")

    def _entropy(self, gamma, Delta, eps):
        lnq, lnc = _constants(gamma, eps)
        with np.errstate(all="ignore"):  # invalid parameters give nan (scipy discards them)
            return np.log(2.0 * Delta) + lnc - lnq + eps * np.exp(-eps - lnq - lnc)


#: The Staircase distribution as a ``scipy.stats`` instance (``staircase.pdf(x, gamma, Delta, eps)``, ``staircase(gamma, Delta, eps).rvs(...)``).
staircase = staircase_gen(a=-np.inf, b=np.inf, name="staircase", shapes="gamma, Delta, eps")
