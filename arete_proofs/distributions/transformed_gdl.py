r"""The transformed GDL: :math:`Z = h\,\mathrm{GDL}(\beta, a) + \mathrm{Laplace}(b)`, a GDL on the lattice :math:`h\mathbb Z` smoothed by Laplace noise.

Harrison and Manurangsi (FORC 2025) say only that "a transformed GDL works the same way [as
Theorem 21] with a GDL for sensitivity :math:`m`" (as the paper's reconstructed statements put it).  **Our
reading**: the GDL of :mod:`arete_proofs.distributions.gdl` (chosen for the integer sensitivity
:math:`m`) put on the lattice of step :math:`h` and smoothed by Laplace noise of scale :math:`b`,
with Theorem 21's defaults :math:`h = \Delta/m`, :math:`b = \Delta/(2m)`
(:func:`transformed_gdl_parameters`); :math:`\beta, a, b, h` are free parameters.  :math:`\beta = 1`
is ``lattice_laplace(a, 1, b, h)`` (GDL(1, a) = DLap(a)).

The density, CDF, :math:`E|Z|` and variance are those of :class:`arete_proofs.distributions.lattice.LatticeLaw`
with the GDL pmf as its integer law (:class:`GDLSource`): the Laplace cell formula
:math:`f(t) = \frac{1}{2b}[e^{-t/b}S^L_k + e^{t/b}S^R_k]`, :math:`\operatorname{Var} Z = h^2\beta/(\cosh a - 1) + 2b^2`.

**Bounds used by the truncations.**  :math:`p_{k+1} \le r_k p_k`, :math:`r_k = e^{-a}\max(1, (k+\beta)/(k+1))`
(:mod:`arete_proofs.distributions.gdl`, *Tails*).  :math:`\beta \le 1`: :math:`p_k \le p_0 e^{-a|k|}`.
:math:`\beta > 1`: with :math:`\lambda = a - \delta` (:math:`\delta = a/8`), :math:`p_k e^{\lambda k}` is
nonincreasing once :math:`(k+\beta)/(k+1) \le e^\delta`, i.e. :math:`k \ge K_1 = (\beta - e^\delta)/(e^\delta - 1)`,
so :math:`p_k \le C e^{-\lambda|k|}` with :math:`C = \max_{k \le K_1} p_k e^{\lambda k}` (computed).

**Tail profile.**  :math:`p_k = C k^{\beta-1} e^{-ak}(1 + O(1/k))` (the pole of order :math:`\beta` of the
generating function at :math:`z = e^{a}`): not a periodic-exponential profile when :math:`\beta \ne 1`, but
the polynomial factor's ratio :math:`(k+j)^{\beta-1}/k^{\beta-1} \to 1` for every fixed :math:`j`, so the
limit law (the law seen from far out, normalised) is the pure exponential one,
:math:`f_\infty(t) = \sum_{k\in\mathbb Z} e^{-ak} g(t - hk)` (``limit_profile``: ``([1], 1, a)``); the
privacy-loss consequences are in :mod:`arete_proofs.privacy.tight_lattice`.

>>> from mpmath import mp
>>> z = transformed_gdl("0.5", "0.5", "0.125", "0.25", digits=20)
>>> from arete_proofs.distributions import gdl
>>> direct = mp.fsum(gdl.pmf(k, "0.5", "0.5", digits=25) * mp.exp(-abs(mp.mpf("0.1") - k / mp.mpf(4)) * 8) * 4
...                  for k in range(-300, 301))                 # the direct mixture sum
>>> mp.almosteq(z.pdf("0.1"), direct, 1e-15)
True
"""

from __future__ import annotations

from mpmath import mp

from .._validation import positive
from . import gdl
from .lattice import LatticeLaw

__all__ = ["GDLSource", "transformed_gdl", "transformed_gdl_parameters"]


class GDLSource:
    r""":math:`\mathrm{GDL}(\beta, a)` (Harrison and Manurangsi 2025, Section 4) as the integer law of a
    :class:`arete_proofs.distributions.lattice.LatticeLaw`: pmf, table, survival function, variance, the bound
    :math:`p_k \le C e^{-\lambda|k|}` and the limit profile (module docstring).

    >>> s = GDLSource("2", "1")
    >>> C, lam = s.bound(20)
    >>> all(s.pmf(k, 20) <= C * mp.exp(-lam * k) for k in range(0, 60))       # the bound the truncations use
    True
    """

    def __init__(self, beta, a):
        with mp.workdps(60):
            self.beta_text, self.a_text = beta, a
            self.beta, self.rate = positive(beta, "beta"), positive(a, "a")

    def pmf(self, k, dps):
        return gdl.pmf(int(k), self.beta_text, self.a_text, digits=dps)

    def table(self, K, dps):
        return gdl.pmf_range(int(K), self.beta_text, self.a_text, digits=dps)

    def sf(self, k, dps):
        return gdl.sf(int(k), self.beta_text, self.a_text, digits=dps)

    def var(self, dps):
        return gdl.var(self.beta_text, self.a_text, digits=dps)

    def bound(self, dps):
        """``(C, lam)``: :math:`p_k \\le C e^{-\\lambda |k|}` for every integer :math:`k` (module docstring)."""
        with mp.workdps(dps):
            a, beta = +self.rate, +self.beta
            if beta <= 1:   # (the factor 1 + 10^(5-dps): rounding room; beta = 1 is an equality)
                return self.pmf(0, dps) * (1 + mp.mpf(10) ** (5 - dps)), a
            delta = a / 8
            lam = a - delta
            K1 = max(0, int(mp.ceil((beta - mp.exp(delta)) / mp.expm1(delta)))) + 1
            ps = self.table(K1, dps)
            C = max(p * mp.exp(lam * k) for k, p in enumerate(ps))
            return C * (1 + mp.mpf(10) ** (5 - dps)), lam

    def limit_profile(self, dps):
        """``([1], 1, a)``: the pure exponential limit law (module docstring)."""
        with mp.workdps(dps):
            return [mp.one], 1, +self.rate


def transformed_gdl(beta, a, b, h, *, digits=None):
    r"""The law :math:`h\,\mathrm{GDL}(\beta, a) + \mathrm{Laplace}(b)` as a :class:`arete_proofs.distributions.lattice.LatticeLaw`.

    >>> from mpmath import mp
    >>> z = transformed_gdl("2", "0.5", "0.125", "0.25", digits=20)
    >>> mp.almosteq(z.var(), mp.mpf("0.0625") * 2 / (mp.cosh("0.5") - 1) + 2 * mp.mpf("0.125") ** 2, 1e-15)
    True
    """
    return LatticeLaw(None, None, h, kernel="laplace", scale=b, digits=digits, source=GDLSource(beta, a))


def transformed_gdl_parameters(m, Delta=1):
    r"""Theorem 21's defaults for a GDL designed for integer sensitivity ``m``: ``(b, h)`` = :math:`(\Delta/(2m), \Delta/m)` (our reading).

    >>> transformed_gdl_parameters(4)
    ('0.125', '0.25')
    """
    m = int(m)
    if m < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    with mp.workdps(60):
        D = positive(Delta, "Delta")
        return mp.nstr(D / (2 * m), 40, strip_zeros=True), mp.nstr(D / m, 40, strip_zeros=True)
