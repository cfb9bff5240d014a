r"""``transformed_gdl``: :math:`Z = h\,\mathrm{GDL}(\beta, a) + \mathrm{Laplace}(b)`, the continuous form of GDL.

Harrison and Manurangsi (FORC 2025) say only that "a transformed GDL works the same way [as
Theorem 21] with a GDL for sensitivity :math:`m`".  **This is our reading of it**: the GDL on the
lattice of step :math:`h` smoothed by Laplace noise of scale :math:`b`, with Theorem 21's defaults
:math:`h = \Delta/m`, :math:`b = \Delta/(2m)` (:meth:`TransformedGDLNoise.for_sensitivity`);
:math:`\beta, a, b, h` are free parameters (:math:`m` enters through :math:`h, b` only).  Exact
density: :mod:`arete_proofs.distributions.transformed_gdl`; tight epsilon over every real shift:
:func:`arete_proofs.privacy.tight_lattice.tight_epsilon_transformed_gdl` (exact for :math:`\beta \ge 1`,
where the supremum is the pure exponential tail limit, proved by post-processing against
``lattice_laplace(a, 1, b, h)``; for :math:`\beta < 1` the window maximum with an explicit bound past the
window, exact once the window is long enough).  Infinitely divisible: each of :math:`n` parties adds
:math:`h(\mathrm{NB}(\beta/n, p) - \mathrm{NB}(\beta/n, p)) + \Gamma(1/n, b) - \Gamma(1/n, b)`,
:math:`p = 1 - e^{-a}` (NB shapes add; Laplace(b) is the difference of two Gamma(1, b), and Gamma
shapes add).

>>> z = TransformedGDLNoise.for_sensitivity("2", "0.5", 4)          # GDL(2, 1/2) for m = 4, Delta = 1
>>> z
transformed_gdl(beta='2', a='0.5', b='0.125', h='0.25')
>>> r = z.tight_epsilon(Delta=1, digits=8)
>>> r.attained, r.epsilon == r.tail_limit      # beta >= 1: the tail limit, exact
(False, True)
"""

from __future__ import annotations

import functools
import math

import numpy as np
from mpmath import mp

from ._base import Parameter, RATE_BOUNDS, SCALE_BOUNDS
from ._shares import Shares
from .lattice_laplace import LatticeNoise, _txt
from .msdlap import LatticeSum, comb_tight_result

__all__ = ["TransformedGDLNoise"]

#: What the tight epsilon of a transformed GDL examines (arete_proofs.privacy.tight_lattice).
TRANSFORMED_GDL_SHIFTS = (
    "every real shift |s| <= Delta (not unimodal): Laplace smoothing reduces exactly to lattice-point candidates on "
    "the window; the tail limit is the pure exponential one (the GDL's polynomial factor's ratio tends to 1); "
    "beta >= 1: eps* <= eps*(lattice_laplace(a, 1, b, h)) by post-processing, which closes the bracket; "
    "beta < 1: eps* >= that value, the window maximum, and every pair past the window is below L + eta "
    "(the NB ratio bounds and Gautschi's inequality): exact once W >= L + eta (arete_proofs.privacy.tight_lattice)")


@functools.lru_cache(maxsize=32)
def _law(beta, a, b, h, digits):
    from ..distributions.transformed_gdl import transformed_gdl

    return transformed_gdl(beta, a, b, h, digits=digits)


@functools.lru_cache(maxsize=16)
def _float_table(beta, a, h):
    """``(log p_k, h k)`` over the float64 GDL pmf (entries above the float64 range)."""
    from ..distributions.gdl import logpmf_float

    N = min(int(760 / a + 50 * max(1.0, beta)) + 50, 200_000)
    k = np.arange(-N, N + 1)
    lp = logpmf_float(k, beta, a)
    keep = np.isfinite(lp) & (lp > -745)
    return lp[keep], h * k[keep]


def _gdl_draw(g, beta, a, n, shape):
    from .gdl import gdl_variates

    return gdl_variates(beta / n, a, shape, g).astype(float)


class TransformedGDLNoise(LatticeNoise):
    r""":math:`h\,\mathrm{GDL}(\beta, a) + \mathrm{Laplace}(b)` (module docstring: our reading of the paper's remark).

    >>> from mpmath import mp
    >>> z = TransformedGDLNoise(beta="0.5", a="0.5", b="0.125", h="0.25")
    >>> mp.almosteq(z.var(digits=20), mp.mpf("0.0625") * mp.mpf("0.5") / (mp.cosh("0.5") - 1) + 2 * mp.mpf("0.125") ** 2,
    ...             1e-15)                                     # h^2 beta/(cosh a - 1) + 2 b^2
    True
    """

    name = "transformed_gdl"
    title = "transformed GDL: h GDL(beta, a) + Laplace(b)"
    reference = ("Harrison & Manurangsi (FORC 2025), remark after Theorem 21 (our reading: h = Delta/m, "
                 "b = Delta/(2m) for a GDL designed for sensitivity m)")
    parameters = (
        Parameter("beta", "positive", "negative-binomial shape beta > 0 of the GDL (beta = 1: DLap(a))",
                  bounds=("1e-9", "500")),
        Parameter("a", "positive", "GDL rate a > 0 (per lattice step; a < h/b)", bounds=RATE_BOUNDS),
        Parameter("b", "positive", "Laplace scale b > 0 of the smoothing (default reading: Delta/(2m))",
                  bounds=SCALE_BOUNDS),
        Parameter("h", "positive", "lattice step h > 0 (default reading: Delta/m)", bounds=SCALE_BOUNDS),
    )
    kernel = "laplace"
    scale_name = "b"
    supports = frozenset({"exact", "float", "tight_epsilon", "sample", "shares"})
    deploy_with = "gdl"  # float64 samplers here (experiments); that integer family samples exactly
    size_parameter = None  # no number of scales: the GDL source's cost does not grow with a size parameter

    def _check(self, values):
        if not values["h"] / values["b"] > values["a"]:
            raise ValueError("b must be < h/a (h/b > a): otherwise the Laplace tail dominates the GDL's")

    @classmethod
    def for_sensitivity(cls, beta, a, m, Delta=1):
        """Theorem 21's reading for a GDL designed for integer sensitivity ``m``: :math:`h = \\Delta/m`, :math:`b = \\Delta/(2m)`."""
        from ..distributions.transformed_gdl import transformed_gdl_parameters

        b, h = transformed_gdl_parameters(m, Delta)
        return cls(beta=beta, a=a, b=b, h=h)

    def _key(self, digits):
        from .._validation import resolve_digits

        p = self._params
        return _txt(p["beta"]), _txt(p["a"]), _txt(p["b"]), _txt(p["h"]), resolve_digits(digits)

    def law(self, digits=None):
        """The :class:`arete_proofs.distributions.lattice.LatticeLaw` with the GDL source at ``digits`` (cached)."""
        return _law(*self._key(digits))

    def _floats(self):
        v = dict(zip([p.name for p in self.parameters], self.float_params()))
        return v["beta"], v["a"], v["b"], v["h"]

    def _float_mixture(self, t, cdf=False):
        from scipy import special

        beta, a, s, h = self._floats()
        lp, x = _float_table(beta, a, h)
        t = np.atleast_1d(np.asarray(t, dtype=float))
        out = np.empty(t.shape)
        for i in range(0, t.size, 256):
            u = t[i:i + 256, None] - x[None, :]
            if cdf:
                lk = np.where(u < 0, math.log(0.5) + np.minimum(u, 0) / s, np.log1p(-0.5 * np.exp(-np.abs(u) / s)))
            else:
                lk = -np.abs(u) / s - math.log(2 * s)
            out[i:i + 256] = special.logsumexp(lp[None, :] + lk, axis=1)
        return out

    def tight_epsilon(self, Delta=1, *, digits=12, **options):
        r"""Every real shift :math:`|s| \le \Delta` (:func:`arete_proofs.privacy.tight_lattice.tight_epsilon_transformed_gdl`)."""
        from ..privacy.tight_lattice import tight_epsilon_transformed_gdl

        p = self._params
        res = tight_epsilon_transformed_gdl(p["beta"], p["a"], p["b"], p["h"], Delta, digits=digits, **options)
        how = ("exact lattice-point reduction + tail limit, closed by post-processing (beta >= 1)" if res.certified
               else "exact lattice-point reduction on a window + proved lower bound; not certified past the window")
        return comb_tight_result(res, Delta, TRANSFORMED_GDL_SHIFTS, how)

    def scipy(self):
        raise self._unsupported("a scipy.stats object")

    def sample(self, size=None, rng=None):
        from ..mechanisms import sampling

        beta, a, s, h = self._floats()
        g = sampling.generator(rng)
        shape = () if size is None else ((size,) if isinstance(size, int) else tuple(size))
        x = h * _gdl_draw(g, beta, a, 1, shape) + self._smooth(g, s, 1, shape)
        return float(x) if size is None else x

    def shares(self, n):
        from ..mechanisms import sampling as _s

        n = _s._count(n, "n")
        beta, a, s, h = self._floats()
        v = float(self.var(digits=17))

        def draw(g, shape):
            return h * _gdl_draw(g, beta, a, n, shape) + self._smooth(g, s, n, shape)

        def sum_law(c):
            c = _s._count(c, "contributors")
            k = c / n
            exact = (lambda digits: float(self.mean_abs(digits=digits or 15))) if k == 1 else None
            return LatticeSum(k, f"{k:g} x ({self!r})", k * v, exact)

        return Shares(self, n, f"{h:g} (NB(beta/n, 1 - e^-{a:g}) - NB(beta/n, 1 - e^-{a:g})) + "
                      f"Gamma(1/n, {s:g}) - Gamma(1/n, {s:g})", draw, sum_law)
