r"""``lattice_gauss_top``: lattice + Gaussian with the top scale's own rate (beyond both papers).

.. math::

   Z = h\Big(\sum_{i=1}^{m-1} i X_i + m Y\Big) + \mathcal N(0, \sigma^2), \qquad
   X_i \sim \mathrm{DLap}(a),\ Y \sim \mathrm{DLap}(a_{top}),\ 0 < a_{top} \le a .

``a_top = a`` is ``lattice_gauss``.  The tail of the comb is the top scale's, rate
:math:`\lambda = a_{top}/m` per lattice step, so its privacy loss tends to about :math:`a_{top}` (plus
the ripple), while the centre's loss is set by :math:`a`: lowering :math:`a_{top}` a little lets
:math:`a` approach :math:`\varepsilon`.  At :math:`\varepsilon = 8`, :math:`m = 34` the search moves
:math:`a` from 7.949 to 7.999 with :math:`a_{top} = 7.912` and :math:`E|Z|` falls by 2.1 %
(``docs/explanation/lattice-gaussian.md``).  The wider gap :math:`a/(m-1) - a_{top}/m` between the dominant poles also
shortens the certificate's window.  Every real shift :math:`|s| \le \Delta` counts (a comb); the
tight epsilon, the cover certificate (:func:`arete_proofs.certified.combs_gauss.certify_lattice_gauss`
with ``a_top``), samplers and shares are ``lattice_gauss``'s with the rates
:math:`(a, \dots, a, a_{top})`.  Not here: the ``scipy.stats`` object, accounting and the sum after
dropouts (they assume one rate).

>>> from arete_proofs.noise import make
>>> from mpmath import mp
>>> z = make("lattice_gauss_top", a="3", a_top="2.5", m=2, sigma="0.2", h="0.5")
>>> Vx = lambda a: 1 / (mp.cosh(a) - 1)               # Var DLap(a)
>>> mp.almosteq(z.var(digits=20), mp.mpf("0.25") * (Vx(3) + 4 * Vx(mp.mpf("2.5"))) + mp.mpf("0.04"), 1e-13)
True
"""

from __future__ import annotations

from ._base import Parameter, RATE_BOUNDS, SCALE_BOUNDS, SIZE_BOUNDS
from .lattice_gauss import LatticeGaussNoise

__all__ = ["LatticeGaussTopNoise"]


class LatticeGaussTopNoise(LatticeGaussNoise):
    r""":math:`h(\sum_{i<m} i\,\mathrm{DLap}(a) + m\,\mathrm{DLap}(a_{top})) + \mathcal N(0, \sigma^2)` (module docstring).

    >>> z = LatticeGaussTopNoise(a=3, a_top="2.5", m=2, sigma="0.2", h="0.5")
    >>> r = z.certify(Delta=1, tol="1e-6", numeric=False)
    >>> r.upper < LatticeGaussNoise(a=3, m=2, sigma="0.2", h="0.5").certify(Delta=1, tol="1e-6", numeric=False).lower
    True
    """

    name = "lattice_gauss_top"
    title = "lattice + Gaussian, top rate: h (sum_{i<m} i DLap(a) + m DLap(a_top)) + N(0, sigma^2)"
    reference = "beyond both papers: lattice_gauss with the top scale's own rate"
    parameters = (
        Parameter("a", "positive", "DLap rate a > 0 of the scales i < m", bounds=RATE_BOUNDS),
        Parameter("a_top", "positive", "DLap rate 0 < a_top <= a of the top scale m", flag="--a-top",
                  bounds=RATE_BOUNDS),
        Parameter("m", "integer", "number of scales m >= 2", bounds=SIZE_BOUNDS),
        Parameter("sigma", "positive", "Gaussian smoothing's standard deviation sigma > 0", bounds=SCALE_BOUNDS),
        Parameter("h", "positive", "lattice step h > 0 (Delta/m)", bounds=SCALE_BOUNDS),
    )
    supports = LatticeGaussNoise.supports - {"scipy", "account"}

    def _check(self, values):
        if not values["a_top"] <= values["a"]:
            raise ValueError(f"a_top must be <= a, got a_top={self._params['a_top']} > a={self._params['a']}")
        if values["m"] < 2:
            raise ValueError(f"m must be >= 2 (m = 1 has no scale below the top), got {self._params['m']}")

    @classmethod
    def search_problem(cls, eps, *, objective="mean_abs", **options):
        r"""The optimiser's problem with the free top rate (``LatticeGaussProblem(top=True)``): :math:`a`,
        :math:`a_{top} = a - e^w`, :math:`\sigma` by bisection and :math:`m` from a small set; confirmed by the
        cover for :math:`m \le` ``CERTIFY_M_MAX``, else the numerical engine (not certified)."""
        from ..privacy.optimize_lattice import LatticeGaussProblem

        problem = LatticeGaussProblem(eps, objective=objective, top=True, **options)
        problem.family = cls.name
        problem.noise_class = cls
        return problem
