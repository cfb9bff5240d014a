r"""``laplace``: the Laplace mechanism's noise, :math:`Z \sim \mathrm{Laplace}(\lambda)`, density :math:`e^{-|t|/\lambda}/(2\lambda)`.

Definition 23 and Lemma 26 of the paper: :math:`\ln f(t) - \ln f(t+s) = (|t+s| - |t|)/\lambda
\le |s|/\lambda`, with equality for every :math:`t \ge 0` when :math:`s > 0`, so the tight epsilon
is :math:`\Delta/\lambda`, attained (witness :math:`t = 0`).  Symmetric unimodal and infinitely
divisible: :math:`n` parties add :math:`\Gamma(1/n,\lambda) - \Gamma(1/n,\lambda)` each
(Goryczka and Xiong 2017).  Exact values: :mod:`arete_proofs.distributions.laplace`.

>>> from arete_proofs.noise import make
>>> z = make("laplace", lam="0.25")
>>> r = z.tight_epsilon(Delta=1)
>>> r.epsilon, r.witness, r.attained                    # Lemma 26: eps* = Delta/lam, attained at t = 0
(mpf('4.0'), mpf('0.0'), True)
>>> from mpmath import mp
>>> mp.almosteq(z.logpdf(0, digits=20) - z.logpdf(1, digits=20), r.epsilon)
True
"""

from __future__ import annotations

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS, parse_precision, positive, real
from ._base import (
    _exact, _positive_scale, scale_value, SYMMETRIC_UNIMODAL, Noise, Parameter, TightResult, each, SCALE_BOUNDS,
)
from ._shares import gamma_shares

__all__ = ["LaplaceNoise"]


class LaplaceNoise(Noise):
    r"""Laplace(:math:`\lambda`) noise (Definition 23; the Laplace mechanism, Lemma 26).

    >>> LaplaceNoise.for_epsilon(4, 2).tight_epsilon(2).epsilon        # lam = Delta/eps is eps-DP, tightly
    mpf('4.0')
    """

    name = "laplace"
    title = "Laplace: density exp(-|t|/lam) / (2 lam)"
    reference = "Pagh & Stausholm (ALT 2022), Definition 23 and Lemma 26 (the Laplace mechanism)"
    parameters = (Parameter("lam", "positive", "Laplace scale lambda > 0", bounds=SCALE_BOUNDS),)
    infinitely_divisible = True
    symmetric_unimodal = True
    supports = frozenset({"exact", "float", "tight_epsilon", "certify", "account", "sample", "shares", "scipy"})
    deploy_with = "dlap"  # float64 samplers here (experiments); that integer family samples exactly

    @classmethod
    def for_epsilon(cls, eps, Delta=1):
        r"""The Laplace mechanism for :math:`\varepsilon`: :math:`\lambda = \Delta/\varepsilon` (Lemma 26)."""
        with mp.workdps(40):
            return cls(lam=positive(Delta, "Delta") / positive(eps, "eps"))

    def scaled(self, c):
        if not _positive_scale(c):
            raise ValueError(f"scale must be positive, got {c!r}")
        return self if _exact(c) == 1 else LaplaceNoise(lam=scale_value(self.lam, c))

    # -- exact ---------------------------------------------------------------------------
    def pdf(self, t, *, digits=None):
        from ..distributions import laplace

        return each(lambda x: laplace.pdf(x, self.lam, digits=digits), t)

    def logpdf(self, t, *, digits=None):
        from ..distributions import laplace

        return each(lambda x: laplace.logpdf(x, self.lam, digits=digits), t)

    def cdf(self, t, *, digits=None):
        from ..distributions import laplace

        return each(lambda x: laplace.cdf(x, self.lam, digits=digits), t)

    def sf(self, t, *, digits=None):
        from ..distributions import laplace

        return each(lambda x: laplace.sf(x, self.lam, digits=digits), t)

    def mean_abs(self, *, digits=None):
        from ..distributions import laplace

        return laplace.mean_abs(self.lam, digits=digits)

    def var(self, *, digits=None):
        from ..distributions import laplace

        return laplace.var(self.lam, digits=digits)

    # -- float64 -------------------------------------------------------------------------
    def logpdf_float(self, t):
        lam = self.float_params()[0]
        return -np.abs(np.asarray(t, dtype=float)) / lam - np.log(2 * lam)

    def sf_float(self, t):
        lam = self.float_params()[0]
        t = np.asarray(t, dtype=float)
        half = 0.5 * np.exp(-np.abs(t) / lam)
        return np.where(t < 0, 1 - half, half)

    def cdf_float(self, t):
        return self.sf_float(-np.asarray(t, dtype=float))

    def mean_abs_float(self):
        return self.float_params()[0]

    def var_float(self):
        return 2 * self.float_params()[0] ** 2

    # -- privacy -------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        r"""Closed form :math:`\varepsilon^* = \Delta/\lambda`, attained at every :math:`t \ge 0` (Lemma 26)."""
        from ..privacy import tight

        d = tight._digits(digits)
        with mp.workdps(parse_precision(d + 20)):
            lam = positive(self.lam, "lam")
            D = real(Delta, "Delta")
            if not (D > 0) or mp.isinf(D):
                raise ValueError(f"Delta must be positive and finite, got {mp.nstr(D, 8)}")
        with mp.workdps(d + GUARD_DIGITS):
            v = D / lam
        return TightResult(epsilon=v, lower_bound=v, upper_bound=v, witness=mp.zero, attained=True, tail_limit=v,
                           Delta=Delta, digits=d, reduction=SYMMETRIC_UNIMODAL,
                           method="closed form Delta/lam (Lemma 26)")

    def certify(self, Delta=1, *, target=None, tol="1e-4", workers=1, numeric=True, max_seconds=1200,
                progress=False):
        r"""The closed form :math:`\Delta/\lambda` as a certificate (exact rationals, rounded up to a float)."""
        import math
        import time
        from fractions import Fraction

        from ..certified.density import exact_parameter
        from ..certified.epsilon import EpsilonCertificate

        t0 = time.perf_counter()
        lam, D = exact_parameter(self.lam, "lam"), exact_parameter(Delta, "Delta")
        val = Fraction(D) / Fraction(lam)
        up = float(val)
        if Fraction(up) < val:
            up = math.nextafter(up, math.inf)
        lo = float(val)
        if Fraction(lo) > val:
            lo = math.nextafter(lo, -math.inf)
        tgt = None if target is None else float(exact_parameter(target, "target"))
        return EpsilonCertificate("0", "0", str(lam), str(D), up, lo, 0.0, "closed form",
                                  "Laplace: ln f(t)/f(t + Delta) = Delta/lam for every t >= 0 (Lemma 26)",
                                  seconds=time.perf_counter() - t0, numeric=float(val) if numeric else None,
                                  target=tgt)

    def accounting_hints(self):
        from ..privacy.accounting import AccountingHints

        lam = self.float_params()[0]
        return AccountingHints(lipschitz=lam, tail_scale=lam, scales=(lam,), gauss_sigma=0.0,
                               float_error=1e-12, slow_engine=False)

    # -- sampling, shares, scipy -----------------------------------------------------------
    def sample(self, size=None, rng=None):
        from ..mechanisms import sampling

        return sampling.laplace(self.float_params()[0], size, rng)

    def shares(self, n):
        lam = self.float_params()[0]
        return gamma_shares(self, n, [(1.0, lam)], f"Gamma(1/n, {lam:g}) - Gamma(1/n, {lam:g})",
                            exact_mean_abs=None)

    def scipy(self):
        from scipy import stats

        return stats.laplace(scale=self.float_params()[0])
