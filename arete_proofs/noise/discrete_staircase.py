r"""``discrete_staircase``: the discrete staircase :math:`DSC(r, \Delta)` at level :math:`\varepsilon` on the integers.

Geng and Viswanath (2016, the discrete setting) and Geng, Kairouz, Oh and Viswanath (2015): the
least :math:`E|X|` and the least variance of *any* :math:`\varepsilon`-DP additive integer noise for
an integer query of sensitivity :math:`\Delta` (at the best :math:`r \in \{1,\dots,\Delta\}`) -- the
floor the integer families (``dlap``, ``gdl``, ``msdlap``) are measured against.  pmf
:math:`a(r) e^{-\varepsilon N(|i|)}`, :math:`N(n) = \lfloor n/\Delta\rfloor + [n \bmod \Delta \ge r]`
(:mod:`arete_proofs.distributions.discrete_staircase`).  Symmetric and unimodal; the loss of every
pair is :math:`\varepsilon` times an integer step count, so the tight epsilon at any integer
sensitivity is exact (:func:`~arete_proofs.distributions.discrete_staircase.privacy_loss`, a window
over every shift with a periodicity argument); at the design sensitivity :math:`\Delta` it is
:math:`\varepsilon` by construction, attained.  **Not** infinitely divisible (no shares).

Parameters ``eps``, ``Delta`` (an integer, default 1) and ``r`` (default: the :math:`E|X|`-optimal
:math:`r`); on the command line ``--staircase-eps``, ``--staircase-delta``, ``--staircase-r``.

>>> from arete_proofs.noise import make
>>> z = make("discrete_staircase", eps=3, Delta=10)
>>> z.r, z.tight_epsilon(Delta=10).epsilon                  # r = argmin E|X|; eps-DP, tight
(2, mpf('3.0'))
>>> z.mean_abs(digits=10) < make("dlap", a="0.3").mean_abs(digits=10)    # below DLap(eps/Delta)
True
"""

from __future__ import annotations

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS
from ._base import SYMMETRIC_UNIMODAL, Noise, Parameter, TightResult, each, on_integers, EPS_BOUNDS

__all__ = ["DiscreteStaircaseNoise"]

#: The shift reduction proved in :func:`arete_proofs.distributions.discrete_staircase.max_step_gain`.
REDUCTION = ("every integer shift |s| <= D: the loss of (i, i+s) is eps (N(|i+s|) - N(|i|)), an exact integer "
             "step count, maximised over a window that periodicity and symmetry make complete "
             "(arete_proofs.distributions.discrete_staircase.max_step_gain); " + SYMMETRIC_UNIMODAL.split(":")[0])


def _r_star(values):
    from ..distributions import discrete_staircase

    return discrete_staircase.r_mean_abs(values["eps"], int(values["Delta"]), digits=30)


class DiscreteStaircaseNoise(Noise):
    r"""The discrete staircase :math:`DSC(r, \Delta)` at level :math:`\varepsilon` (Geng and Viswanath 2016).

    >>> z = DiscreteStaircaseNoise(eps=2, Delta=1)          # Delta = 1: DLap(eps)
    >>> from mpmath import mp
    >>> mp.almosteq(z.var(digits=20), 1 / (mp.cosh(2) - 1))
    True
    """

    name = "discrete_staircase"
    title = "discrete staircase: a(r) exp(-eps N(|i|)), N(n) = floor(n/Delta) + [n mod Delta >= r], on the integers"
    reference = ("Geng & Viswanath (IEEE Trans. IT 2016), discrete setting; Geng, Kairouz, Oh & Viswanath "
                 "(IEEE JSTSP 2015)")
    parameters = (
        Parameter("eps", "positive", "privacy level eps > 0 of the staircase", flag="--staircase-eps",
                  bounds=EPS_BOUNDS),
        Parameter("Delta", "integer", "integer sensitivity Delta >= 1 (the period; default 1)",
                  flag="--staircase-delta", default=1, bounds=("1", "100000")),
        Parameter("r", "integer", "width r in [1, Delta] of the first step (default: optimal for E|X|)",
                  flag="--staircase-r", default=_r_star),
    )
    infinitely_divisible = False
    symmetric_unimodal = True
    integer_valued = True
    supports = frozenset({"exact", "float", "tight_epsilon", "sample", "exact_sample"})

    def _check(self, values):
        if values["r"] > values["Delta"]:
            raise ValueError(f"r must be in [1, Delta], got r = {self.r} > Delta = {self.Delta}")

    def _args(self):
        return self.eps, int(self.value("Delta")), int(self.value("r"))

    def _dist(self):
        from ..distributions import discrete_staircase

        return discrete_staircase

    @classmethod
    def optimal(cls, eps, Delta, *, objective="mean_abs"):
        """The member of least ``objective`` (``mean_abs`` or ``variance``) at level ``eps``, sensitivity ``Delta``.

        >>> DiscreteStaircaseNoise.optimal(20, 100, objective="variance").r
        1
        """
        from ..distributions import discrete_staircase as ds

        if objective not in ("mean_abs", "variance"):
            raise ValueError(f"objective must be mean_abs or variance, got {objective!r}")
        fn = ds.r_mean_abs if objective == "mean_abs" else ds.r_var
        return cls(eps=eps, Delta=Delta, r=fn(eps, Delta))

    # -- exact ---------------------------------------------------------------------------
    def pmf(self, k, *, digits=None):
        return each(lambda x: on_integers(lambda y: self._dist().pmf(y, *self._args(), digits=digits), x, mp.zero), k)

    def logpmf(self, k, *, digits=None):
        return each(lambda x: on_integers(lambda y: self._dist().logpmf(y, *self._args(), digits=digits), x, -mp.inf), k)

    def pdf(self, t, *, digits=None):
        """The pmf at integer ``t``, 0 elsewhere (an integer-valued law has no density)."""
        from .gdl import _is_int

        return each(lambda x: self.pmf(x, digits=digits) if _is_int(x) else mp.zero, t)

    def logpdf(self, t, *, digits=None):
        from .gdl import _is_int

        return each(lambda x: self.logpmf(x, digits=digits) if _is_int(x) else mp.ninf, t)

    def cdf(self, t, *, digits=None):
        return each(lambda x: self._dist().cdf(x, *self._args(), digits=digits), t)

    def sf(self, t, *, digits=None):
        return each(lambda x: self._dist().sf(x, *self._args(), digits=digits), t)

    def mean_abs(self, *, digits=None):
        return self._dist().mean_abs(*self._args(), digits=digits)

    def var(self, *, digits=None):
        return self._dist().var(*self._args(), digits=digits)

    # -- float64 -------------------------------------------------------------------------
    def _float_consts(self):
        e = float(self.value("eps"))
        _, D, r = self._args()
        b = np.exp(-e)
        a = -np.expm1(-e) / (2 * r + 2 * b * (D - r) + np.expm1(-e))
        return e, D, r, a, b

    def logpdf_float(self, t):
        """float64 :math:`\\ln P_r(t)` at integers, ``-inf`` elsewhere."""
        t = np.asarray(t, dtype=float)
        e, D, r, a, _ = self._float_consts()
        n = np.abs(np.where(np.isfinite(t), np.round(t), 0.0))
        q, j = np.divmod(n, D)
        out = np.log(a) - e * (q + (j >= r))
        return np.where(np.isfinite(t) & (t == np.round(t)), out, -np.inf)

    def sf_float(self, t):
        """float64 :math:`P(X > t)` (closed form, as :func:`arete_proofs.distributions.discrete_staircase.sf`)."""
        t = np.asarray(t, dtype=float)
        e, D, r, a, b = self._float_consts()
        S0 = r + b * (D - r)

        def upper(m):  # P(X >= m), m >= 0
            K, J = np.divmod(m, D)
            head = np.maximum(r - J, 0) + b * (D - np.maximum(J, r))
            return a * np.exp(-e * K) * (head + b * S0 / (1 - b))

        n = np.floor(np.where(np.isfinite(t), t, 0.0))
        pos = upper(np.maximum(n + 1, 0))
        neg = 1.0 - upper(np.maximum(-n, 0))
        out = np.where(n >= 0, pos, neg)
        return np.where(np.isposinf(t), 0.0, np.where(np.isneginf(t), 1.0, out))

    def cdf_float(self, t):
        t = np.asarray(t, dtype=float)
        return self.sf_float(-np.floor(t) - 1)

    # -- privacy -------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        r"""Exact :math:`\varepsilon^*` at integer sensitivity ``Delta`` (:func:`~arete_proofs.distributions.discrete_staircase.privacy_loss`).

        >>> r = DiscreteStaircaseNoise(eps=2, Delta=4, r=1).tight_epsilon(Delta=4)
        >>> r.epsilon, r.attained, r.witness
        (mpf('2.0'), True, (0, 1))
        """
        from ..privacy import tight

        d = tight._digits(digits)
        ds = self._dist()
        gain, witness = ds.max_step_gain(Delta, *self._args()[1:])
        with mp.workdps(d + GUARD_DIGITS):
            v = gain * mp.mpf(self.eps)
        return TightResult(epsilon=v, lower_bound=v, upper_bound=v, witness=witness, attained=True,
                           tail_limit=v, Delta=Delta, digits=d, reduction=REDUCTION,
                           method="exact: eps times the largest step count crossed by a shift")

    # -- sampling ------------------------------------------------------------------------
    def sample(self, size=None, rng=None):
        r"""Exact draws (int64; one draw: an ``int``) from the bits of ``rng``: a fair sign times :math:`|X|`,
        :math:`|X|` by exact inversion (:func:`arete_proofs.mechanisms.exact.discrete_staircase`).

        >>> import random
        >>> x = DiscreteStaircaseNoise(eps=1, Delta=3, r=2).sample(100_000, rng=random.Random(1))
        >>> bool(abs(abs(x).mean() - float(DiscreteStaircaseNoise(eps=1, Delta=3, r=2).mean_abs())) < 0.03)
        True
        """
        from ..mechanisms import exact

        return exact.discrete_staircase(self.eps, *self._args()[1:], size, rng)

    def sample_float(self, size=None, rng=None):
        r"""float64-parameter draws with a numpy Generator (int64), for experiments only: ``|X| = K\Delta + J`` with
        :math:`K \sim \mathrm{Geo}`, :math:`J` from the step weights, a random sign, and
        :math:`X = 0` kept with probability 1/2 (it would otherwise be counted twice).

        >>> x = DiscreteStaircaseNoise(eps=1, Delta=3, r=2).sample_float(100_000, rng=1)
        >>> import numpy as np
        >>> bool(abs(np.abs(x).mean() - float(DiscreteStaircaseNoise(eps=1, Delta=3, r=2).mean_abs())) < 0.03)
        True
        """
        from ..mechanisms import sampling as _s

        g = _s.generator(rng)
        e, D, r, _, b = self._float_consts()
        n = 1 if size is None else int(np.prod(size))
        p_first = r / (r + b * (D - r))
        out = np.empty(0, dtype=np.int64)
        while out.size < n:
            m = 2 * (n - out.size) + 16
            K = g.geometric(-np.expm1(-e), m) - 1
            first = g.random(m) < p_first
            J = np.where(first, g.integers(0, r, m), r + g.integers(0, max(D - r, 1), m))
            y = K * D + J
            keep = (y != 0) | (g.random(m) < 0.5)
            sign = np.where(g.random(m) < 0.5, -1, 1)
            out = np.concatenate([out, (sign * y)[keep]])
        out = out[:n]
        return int(out[0]) if size is None else out.reshape(size)
