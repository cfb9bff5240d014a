r"""``staircase``: the Staircase distribution :math:`SC(\gamma, \Delta)` at level :math:`\varepsilon` (Lemma 27).

Geng and Viswanath (2016): the least :math:`E|X|` (at :math:`\gamma^* = 1/(1+e^{\varepsilon/2})`)
and the least variance of *any* :math:`\varepsilon`-DP additive noise for sensitivity
:math:`\Delta` -- the floor every other family is measured against.  Symmetric and unimodal
(nonincreasing on :math:`t > 0`), so the shift :math:`+\Delta` is the worst
(:data:`~arete_proofs.noise._base.SYMMETRIC_UNIMODAL`); the density ratio across a shift by the
step width is exactly :math:`e^{\varepsilon}` for every :math:`t \ge 0`, so the tight epsilon for
sensitivity :math:`\Delta` is :math:`\varepsilon`, attained; for other
sensitivities it is :func:`arete_proofs.distributions.staircase.privacy_loss`.  **Not**
infinitely divisible: it has no shares.

Parameters: ``eps`` (the level), ``Delta`` (the step width, default 1) and ``gamma``
(default: the :math:`E|X|`-optimal :math:`\gamma^*`).  On the command line
``--staircase-eps``, ``--staircase-delta``, ``--gamma``.

>>> from arete_proofs.noise import make
>>> z = make("staircase", eps=6)
>>> r = z.tight_epsilon(Delta=1, digits=10)
>>> r.epsilon, r.attained                               # Lemma 27: exactly eps-DP
(mpf('6.0'), True)
>>> from mpmath import mp
>>> mp.almosteq(z.pdf(0, digits=20) / z.pdf(1, digits=20), mp.exp(6))
True
"""

from __future__ import annotations

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS
from ._base import (
    _exact, _positive_scale, scale_value, SYMMETRIC_UNIMODAL, Noise, Parameter, TightResult, each, EPS_BOUNDS,
    SCALE_BOUNDS,
)

__all__ = ["StaircaseNoise"]


def _gamma_star(values):
    from ..distributions import staircase

    return staircase.gamma_mean_abs(values["eps"], digits=30)


class StaircaseNoise(Noise):
    r"""The Staircase distribution :math:`SC(\gamma, \Delta)` at level :math:`\varepsilon` (Lemma 27).

    >>> from mpmath import mp
    >>> z = StaircaseNoise(eps=6)                       # gamma optimal for E|X|: 1/(1 + e^{eps/2})
    >>> mp.almosteq(z.value("gamma"), 1 / (1 + mp.exp(3)))
    True
    """

    name = "staircase"
    title = "Staircase SC(gamma, Delta) at level eps: a(gamma) exp(-eps N(|t|)), N(u) = floor(u/Delta + 1 - gamma)"
    reference = "Pagh & Stausholm (ALT 2022), Lemma 27; Geng & Viswanath (2016)"
    parameters = (
        Parameter("eps", "positive", "privacy level eps > 0 of the staircase", flag="--staircase-eps",
                  bounds=EPS_BOUNDS),
        Parameter("Delta", "positive", "step width Delta > 0 (default 1)", flag="--staircase-delta", default=1,
                  bounds=SCALE_BOUNDS),
        Parameter("gamma", "unit", "fraction gamma of the first step (default: optimal for E|X|)",
                  default=_gamma_star),
    )
    infinitely_divisible = False
    symmetric_unimodal = True
    supports = frozenset({"exact", "float", "tight_epsilon", "sample", "scipy"})
    deploy_with = "discrete_staircase"  # float64 samplers here (experiments); that integer family samples exactly

    def _args(self):
        p = self._params
        return p["gamma"], p["Delta"], p["eps"]

    def scaled(self, c):
        """The law of ``c X``: the step width scales, the level and gamma stay."""
        if not _positive_scale(c):
            raise ValueError(f"scale must be positive, got {c!r}")
        return self if _exact(c) == 1 else StaircaseNoise(eps=self.eps, Delta=scale_value(self.Delta, c),
                                                          gamma=self.gamma)

    # -- exact ---------------------------------------------------------------------------
    def pdf(self, t, *, digits=None):
        from ..distributions import staircase

        return each(lambda x: staircase.pdf(x, *self._args(), digits=digits), t)

    def logpdf(self, t, *, digits=None):
        from ..distributions import staircase

        return each(lambda x: staircase.logpdf(x, *self._args(), digits=digits), t)

    def cdf(self, t, *, digits=None):
        from ..distributions import staircase

        return each(lambda x: staircase.cdf(x, *self._args(), digits=digits), t)

    def sf(self, t, *, digits=None):
        from ..distributions import staircase

        return each(lambda x: staircase.sf(x, *self._args(), digits=digits), t)

    def mean_abs(self, *, digits=None):
        from ..distributions import staircase

        return staircase.mean_abs(*self._args(), digits=digits)

    def var(self, *, digits=None):
        from ..distributions import staircase

        return staircase.var(*self._args(), digits=digits)

    # -- float64 -------------------------------------------------------------------------
    def logpdf_float(self, t):
        from ..stats._staircase import _logpdf

        return _logpdf(np.asarray(t, dtype=float), *self.float_params_sc())

    def sf_float(self, t):
        from ..stats._staircase import _sf

        return _sf(np.asarray(t, dtype=float), *self.float_params_sc())

    def cdf_float(self, t):
        return self.sf_float(-np.asarray(t, dtype=float))

    def float_params_sc(self):
        """``(gamma, Delta, eps)`` as float64 (the order of :mod:`arete_proofs.distributions.staircase`)."""
        e, D, g = self.float_params()
        return g, D, e

    # -- privacy -------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        r""":math:`\varepsilon^* = l(\Delta)` of :func:`arete_proofs.distributions.staircase.privacy_loss` (exact)."""
        from ..distributions import staircase
        from ..privacy import tight

        d = tight._digits(digits)
        v = staircase.privacy_loss(Delta, *self._args(), digits=d)
        with mp.workdps(d + GUARD_DIGITS):
            v = +v
            # the witness: t just below the jump at gamma*Delta with t + s past it (s <= Delta),
            # kept only when the exact ratio there is the supremum
            g, D, _ = (mp.mpf(x) for x in self._args())
            w = max(mp.zero, g * D - mp.mpf(Delta) / 2)
            gap = self.logpdf(w, digits=d) - self.logpdf(w + mp.mpf(Delta), digits=d)
            witness = w if mp.almosteq(gap, v, mp.mpf(10) ** -d) else None
        return TightResult(epsilon=v, lower_bound=v, upper_bound=v, witness=witness, attained=True,
                           tail_limit=v, Delta=Delta, digits=d, reduction=SYMMETRIC_UNIMODAL,
                           method="closed form: the staircase's steps (Lemma 27)")

    # -- sampling, scipy -------------------------------------------------------------------
    def sample(self, size=None, rng=None):
        from ..mechanisms import sampling

        return sampling.staircase(*self.float_params_sc(), size, rng)

    def scipy(self):
        from ..stats import staircase

        return staircase(*self.float_params_sc())
