r"""``dlap``: the discrete Laplace noise :math:`\mathrm{DLap}(a)`, pmf :math:`\tanh(a/2) e^{-a|k|}` on the integers.

:math:`\mathrm{DLap}(a) = \mathrm{Geo}(1-e^{-a}) - \mathrm{Geo}(1-e^{-a}) = \mathrm{GDL}(1, a)`
(Harrison and Manurangsi, FORC 2025, notation; the discrete Laplace mechanism).  Its privacy loss
at integer sensitivity :math:`\Delta` is :math:`L_\Delta(k) = a(|k+\Delta| - |k|) \le a\Delta`, with
equality for every :math:`k \ge 0`: :math:`\varepsilon^* = a\Delta`, attained (every shift
:math:`|s| \le \Delta` is covered: :mod:`arete_proofs.privacy.tight_gdl`, items 1-3).  Exact values
in closed form: :mod:`arete_proofs.distributions.dlap`; infinitely divisible with shares
:math:`\mathrm{GDL}(1/n, a)`.

>>> from arete_proofs.noise import make
>>> z = make("dlap", a="0.5")
>>> z.tight_epsilon(Delta=4).epsilon                    # a Delta
mpf('2.0')
>>> from mpmath import mp
>>> mp.almosteq(z.logpmf(0) - z.logpmf(4), 2)          # attained at k = 0
True
"""

from __future__ import annotations

from mpmath import mp

from ._base import Parameter, each, on_integers, RATE_BOUNDS
from .gdl import GDLNoise

__all__ = ["DLapNoise"]


class DLapNoise(GDLNoise):
    r"""DLap(:math:`a`) noise: GDL(1, :math:`a`) with closed forms.

    >>> from mpmath import mp
    >>> z = DLapNoise(a=1)
    >>> mp.almosteq(z.mean_abs(digits=20), 1 / mp.sinh(1)), mp.almosteq(z.var(), 1 / (mp.cosh(1) - 1))
    (True, True)
    """

    name = "dlap"
    title = "discrete Laplace: tanh(a/2) exp(-a|k|) on the integers (= GDL(1, a))"
    reference = "Harrison & Manurangsi (FORC 2025), notation (DLap(a) = GDL(1, a)); Ghosh et al. (2009)"
    parameters = (Parameter("a", "positive", "decay a > 0: pmf tanh(a/2) exp(-a|k|)", bounds=RATE_BOUNDS),)

    def _beta_a(self):
        return 1, self.a

    def _float_ba(self):
        return 1.0, self.float_params()[0]

    def _beta_value(self):
        return mp.one

    def _dl(self):
        from ..distributions import dlap

        return dlap

    def pmf(self, k, *, digits=None):
        return each(lambda x: on_integers(lambda y: self._dl().pmf(y, self.a, digits=digits), x, mp.zero), k)

    def logpmf(self, k, *, digits=None):
        return each(lambda x: on_integers(lambda y: self._dl().logpmf(y, self.a, digits=digits), x, -mp.inf), k)

    def cdf(self, t, *, digits=None):
        return each(lambda x: self._dl().cdf(x, self.a, digits=digits), t)

    def sf(self, t, *, digits=None):
        return each(lambda x: self._dl().sf(x, self.a, digits=digits), t)

    def mean_abs(self, *, digits=None):
        return self._dl().mean_abs(self.a, digits=digits)

    def var(self, *, digits=None):
        return self._dl().var(self.a, digits=digits)
