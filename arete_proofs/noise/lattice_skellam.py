r"""``lattice_skellam``: :math:`Z = h\,\mathrm{MSDLap}(a, m) + (P_1 - P_2)`, :math:`P_i` iid Poisson(:math:`\mu`), on the integers.

The discrete analogue of ``lattice_gauss``: the comb of Theorem 16's MSDLap on the lattice
:math:`h\mathbb Z` (:math:`h` a positive integer) smoothed by a Skellam law instead of a Gaussian.
Integer-valued, symmetric, **not** unimodal: the tight epsilon takes every integer shift
:math:`|s| \le \Delta` (:mod:`arete_proofs.privacy.tight_skellam`: a window plus the exact periodic tail
limit, with an explicit bound between them); exact values in
:mod:`arete_proofs.distributions.lattice_skellam`; a ball-arithmetic certificate in
:mod:`arete_proofs.certified.combs_skellam`.  Infinitely divisible: each of :math:`n` parties adds
:math:`h\sum_i i\,(\mathrm{NB}(1/n, p) - \mathrm{NB}(1/n, p)) + \mathrm{Poisson}(\mu/n) - \mathrm{Poisson}(\mu/n)`,
:math:`p = 1 - e^{-a}`.

>>> from arete_proofs.noise import make
>>> from mpmath import mp
>>> z = make("lattice_skellam", a="2", m=2, mu="0.3", h=2)
>>> mp.almosteq(z.var(digits=20), 4 * 5 / (mp.cosh(2) - 1) + mp.mpf("0.6"), 1e-13)    # h^2 Var M + 2 mu
True
"""

from __future__ import annotations

import functools

import numpy as np
from mpmath import mp

from ._base import Noise, Parameter, each, floor_point, integer_point, RATE_BOUNDS, SIZE_BOUNDS
from ._shares import Shares
from .msdlap import COMB_SIZE_LIMITS, IntegerTable, LatticeSum, comb_tight_result, nb_lattice_draw

__all__ = ["LatticeSkellamNoise"]


@functools.lru_cache(maxsize=16)
def _float_table(a, m, mu, h):
    """``(p, N)``: float64 pmf on ``-N..N`` (N where f reaches float64's underflow, at most 400 000)."""
    from ..distributions.lattice_skellam import float_pmf_table

    lam_t = a / m / h
    N = int(min(760 / lam_t + 4 * mu + 100, 400_000))
    return float_pmf_table(a, m, mu, h, N), N


class LatticeSkellamNoise(IntegerTable, Noise):
    r""":math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Skellam}(\mu)` on the integers (the discrete lattice family).

    >>> z = LatticeSkellamNoise(a=1, m=1, mu="1e-9", h=1)     # mu -> 0: DLap(a)
    >>> abs(z.tight_epsilon(Delta=1, digits=10).epsilon - 1) < 1e-10
    True
    """

    name = "lattice_skellam"
    title = "lattice + Skellam: h sum_{i=1}^m i DLap(a) + Poisson(mu) - Poisson(mu), on the integers"
    reference = "beyond both papers: the discrete analogue of lattice + Gaussian"
    parameters = (
        Parameter("a", "positive", "DLap rate a > 0 of the lattice part", bounds=RATE_BOUNDS),
        Parameter("m", "integer", "number of scales m >= 1", bounds=SIZE_BOUNDS),
        Parameter("mu", "positive", "Poisson mean mu > 0 of each side of the Skellam smoothing",
                  bounds=("1e-12", "1e5")),
        Parameter("h", "integer", "lattice step h >= 1, an integer (about Delta/m)", bounds=("1", "1000000")),
    )
    infinitely_divisible = True
    symmetric_unimodal = False
    integer_valued = True
    supports = frozenset({"exact", "float", "tight_epsilon", "certify", "sample", "exact_sample", "shares"})
    size_parameter = "m"
    size_limits = COMB_SIZE_LIMITS

    def _args(self):
        p = self._params
        return p["a"], int(self.value("m")), p["mu"], int(self.value("h"))

    # -- exact ---------------------------------------------------------------------------------
    def pmf(self, k, *, digits=None):
        self.check_size("exact")
        from ..distributions.lattice_skellam import lattice_skellam_pmf

        def one(x):
            k = integer_point(x)
            return mp.zero if k is None else lattice_skellam_pmf(k, *self._args(), digits=digits)

        return each(one, k)

    def logpmf(self, k, *, digits=None):
        self.check_size("exact")
        from ..distributions.lattice_skellam import lattice_skellam_logpmf

        def one(x):
            k = integer_point(x)
            return -mp.inf if k is None else lattice_skellam_logpmf(k, *self._args(), digits=digits)

        return each(one, k)

    pdf = pmf
    logpdf = logpmf

    def sf(self, t, *, digits=None):
        self.check_size("exact")
        from ..distributions.lattice_skellam import lattice_skellam_sf

        def one(x):  # the exact floor (a far point parsed at 15 digits moved by 10^(e - 15))
            k = floor_point(x)
            return (mp.zero if k > 0 else mp.one) if mp.isinf(k) else lattice_skellam_sf(k, *self._args(),
                                                                                          digits=digits)

        return each(one, t)

    def cdf(self, t, *, digits=None):
        self.check_size("exact")
        from ..distributions.lattice_skellam import lattice_skellam_cdf

        def one(x):
            k = floor_point(x)
            return (mp.one if k > 0 else mp.zero) if mp.isinf(k) else lattice_skellam_cdf(k, *self._args(),
                                                                                         digits=digits)

        return each(one, t)

    def mean_abs(self, *, digits=None):
        self.check_size("tight_epsilon")
        from ..distributions.lattice_skellam import lattice_skellam_mean_abs

        return lattice_skellam_mean_abs(*self._args(), digits=digits)

    def var(self, *, digits=None):
        self.check_size("tight_epsilon")
        from ..distributions.lattice_skellam import lattice_skellam_var

        return lattice_skellam_var(*self._args(), digits=digits)

    # -- float64 -------------------------------------------------------------------------------
    def _table(self):
        a, m, mu, h = self.float_params()
        return _float_table(a, int(m), mu, int(h))

    def mean_abs_float(self):
        from ..privacy.optimize_skellam import mean_abs

        a, m, mu, h = self.float_params()
        return mean_abs(a, int(m), mu, int(h))

    def var_float(self):
        a, m, mu, h = self.float_params()
        from ..privacy.optimize_skellam import variance

        return variance(a, int(m), mu, int(h))

    # -- privacy -------------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        r"""Every integer shift :math:`|s| \le \Delta` (:func:`arete_proofs.privacy.tight_skellam.tight_epsilon_lattice_skellam`)."""
        self.check_size("tight_epsilon")
        from ..privacy.tight_skellam import (
            EVERY_INTEGER_SHIFT,
            tight_epsilon_lattice_skellam,
        )

        r = tight_epsilon_lattice_skellam(*self._args(), Delta, digits=digits)
        Delta = r.Delta
        return comb_tight_result(r, Delta, EVERY_INTEGER_SHIFT, r.method)

    def certify(self, Delta=1, *, digits=8, target=None, tol=None, workers=1, numeric=True, max_seconds=1200,
                progress=False):
        r"""Certified enclosure of :math:`\varepsilon^*` (:func:`arete_proofs.certified.combs_skellam.certify_lattice_skellam`).

        ``upper - lower < 10^-digits``; ``tol``, ``workers``, ``max_seconds``, ``progress``: accepted for
        the interface; ``numeric``: the exact engine's value beside it.

        >>> from arete_proofs.noise import make
        >>> r = make("lattice_skellam", a=2, m=1, mu="0.5", h=1).certify(Delta=1, digits=10, numeric=False)
        >>> r.contains(2)                       # DLap(2) + Skellam at Delta = 1: eps* = a, certified
        True
        """
        self.check_size("certify")
        from ..certified.combs_skellam import certify_lattice_skellam

        r = certify_lattice_skellam(*self._args(), Delta, digits=digits)
        if numeric:
            r.numeric = float(self.tight_epsilon(Delta, digits=min(digits + 2, 15)).epsilon)
        r.target = None if target is None else float(target)
        return r

    # -- sampling, shares ----------------------------------------------------------------------
    def _draw(self, g, n, shape):
        a, m, mu, h = self.float_params()
        return h * nb_lattice_draw(g, a, int(m), n, shape) + (g.poisson(mu / n, shape) - g.poisson(mu / n, shape))

    def sample(self, size=None, rng=None):
        """Exact draws (int64; one draw: an ``int``) from the bits of ``rng`` (:mod:`arete_proofs.mechanisms.exact`)."""
        self.check_size("sample")
        from ..mechanisms import exact

        a, m, mu, h = self._args()
        return exact.lattice_skellam_shares(a, m, mu, h, 1, size, rng)

    def sample_float(self, size=None, rng=None):
        """float64 draws with a numpy Generator: for experiments only."""
        self.check_size("sample")
        from ..mechanisms import sampling

        g = sampling.generator(rng)
        shape = () if size is None else ((size,) if isinstance(size, int) else tuple(size))
        x = self._draw(g, 1, shape)
        return float(x) if size is None else x

    def shares(self, n):
        """Shares (module docstring): exact by ``.sample`` (fair bits), float64 by ``.sample_float``."""
        self.check_size("sample")
        from ..mechanisms import exact
        from ..mechanisms import sampling as _s

        n = _s._count(n, "n")
        a, m, mu, h = self.float_params()
        v = float(self.var(digits=17))
        args = self._args()

        def exact_draw(count, src):
            return exact.lattice_skellam_shares(*args, n, count, src)

        def draw(g, shape):
            return self._draw(g, n, shape)

        def sum_law(c):
            c = _s._count(c, "contributors")
            k = c / n
            exact = (lambda digits: float(self.mean_abs(digits=digits or 15))) if k == 1 else None
            return LatticeSum(k, f"{h:g} sum_i i GDL({k:g}, {a:g}) + Skellam({k * mu:g}), i = 1..{int(m)}", k * v, exact)

        return Shares(self, n, f"{h:g} sum_i i (NB(1/n, 1 - e^-{a:g}) - NB(1/n, 1 - e^-{a:g})) + "
                               f"Poisson({mu:g}/n) - Poisson({mu:g}/n), i = 1..{int(m)}", draw, sum_law,
                      exact_draw=exact_draw)

    # -- optimisation --------------------------------------------------------------------------
    @classmethod
    def search_problem(cls, eps, *, objective="mean_abs", **options):
        """Not through the generic optimiser: :func:`arete_proofs.privacy.optimize_skellam.optimize` (integer Delta)."""
        from ._base import NotSupported

        raise NotSupported("lattice_skellam is optimised by arete_proofs.privacy.optimize_skellam.optimize "
                           "(integer Delta; python -m arete_proofs.walkthrough.frontier_discrete)")
