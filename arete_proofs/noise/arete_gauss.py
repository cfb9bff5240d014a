r"""``arete_gauss``: Arete with a Gaussian part, :math:`Z = X_1 - X_2 + Y + N`, :math:`N \sim \mathcal N(0, \sigma^2)`.

Beyond the paper: the Gaussian part smooths the Gamma difference's spike at 0
so that :math:`\lambda` can be 0.  A convolution of symmetric unimodal laws, so symmetric
unimodal (Wintner): the tight epsilon is the single shift :math:`+\Delta`
(:data:`~arete_proofs.noise._base.SYMMETRIC_UNIMODAL`; :mod:`arete_proofs.privacy.tight_gauss`,
item 1).  Infinitely divisible: each of :math:`n` parties adds Lemma 10's share plus
:math:`\mathcal N(0, \sigma^2/n)`.  The family's entry in the noise interface over

* :mod:`arete_proofs.distributions.arete_gauss` (exact) and
  :mod:`arete_proofs.distributions.fast_gauss` (float64);
* :func:`arete_proofs.privacy.tight_gauss.tight_epsilon` (the proof is its module docstring),
  :func:`arete_proofs.certified.gauss.certify_epsilon_gauss`;
* ``arete_proofs.stats.arete_gauss``, :mod:`arete_proofs.mechanisms.sampling`, and the
  optimiser's problem :class:`arete_proofs.privacy.optimize_gauss.GaussProblem`.

``lam = 0`` is allowed (``sigma > 0`` then), ``sigma`` must be positive: ``sigma = 0`` is the
family ``arete``.

>>> from arete_proofs.noise import make
>>> z = make("arete_gauss", alpha="0.014727", theta="0.85419", lam=0, sigma="0.027054")
>>> # Var Z = 2 alpha theta^2 + 2 lam^2 + sigma^2
>>> from mpmath import mp
>>> mp.almosteq(z.var(digits=20), 2 * mp.mpf("0.014727") * mp.mpf("0.85419") ** 2 + mp.mpf("0.027054") ** 2, 1e-14)
True
"""

from __future__ import annotations

from .._validation import in_closed_range
from ._base import _exact, _positive_scale, scale_value, Noise, Parameter, SCALE_BOUNDS
from ._shares import gamma_shares
from .arete import tight_result

__all__ = ["AreteGaussNoise"]


class AreteGaussNoise(Noise):
    r"""Arete plus a Gaussian part, :math:`X_1 - X_2 + Y + \mathcal N(0, \sigma^2)`.

    >>> z = AreteGaussNoise(alpha=2, theta="0.5", lam="0.2", sigma="0.1")
    >>> z.tight_epsilon(3).epsilon == 3 / 0.5     # alpha >= 1: log-concave, eps* = Delta/max(theta, lam) (Section 4.2)
    True
    """

    name = "arete_gauss"
    title = "Arete + Gaussian: X1 - X2 + Y + N, N ~ N(0, sigma^2)"
    reference = "beyond the paper: Gaussian smoothing of the Gamma difference"
    parameters = (
        Parameter("alpha", "positive", "Gamma shape alpha > 0", bounds=("1e-7", "100")),
        # theta up to 1e10: beyond it the Gaussian cover's float placement runs without end (1e10: refused in seconds)
        Parameter("theta", "positive", "Gamma scale theta > 0", bounds=(SCALE_BOUNDS[0], "1e10")),
        Parameter("lam", "nonnegative", "Laplace scale lambda >= 0 (0: no Laplace part)",
                  bounds=("0", SCALE_BOUNDS[1])),
        Parameter("sigma", "positive", "Gaussian part's standard deviation sigma > 0", bounds=SCALE_BOUNDS),
    )
    infinitely_divisible = True
    symmetric_unimodal = True
    supports = frozenset({"exact", "float", "tight_epsilon", "certify", "account", "optimize", "sample",
                          "shares", "scipy"})
    deploy_with = "gdl"  # float64 samplers here (experiments); that integer family samples exactly

    def _check(self, values):
        """``lam`` is 0 (no Laplace part) or a scale in :data:`~arete_proofs.noise._base.SCALE_BOUNDS`."""
        if values["lam"] != 0 and not in_closed_range(values["lam"], *SCALE_BOUNDS):
            lo, hi = SCALE_BOUNDS
            raise ValueError(f"lam must be 0 (no Laplace part) or in [{lo}, {hi}], got {self._params['lam']!r}")

    def _args(self):
        p = self._params
        return p["alpha"], p["theta"], p["lam"], p["sigma"]

    def scaled(self, c):
        """The law of ``c Z``: (alpha, c theta, c lam, c sigma) (exact for decimal parameters)."""
        if not _positive_scale(c):
            raise ValueError(f"scale must be positive, got {c!r}")
        a, th, lam, sg = self._args()
        return self if _exact(c) == 1 else AreteGaussNoise(alpha=a, theta=scale_value(th, c), lam=scale_value(lam, c),
                                                           sigma=scale_value(sg, c))

    # -- exact engine ------------------------------------------------------------------
    def pdf(self, t, *, digits=None):
        from ..distributions import arete_gauss

        return arete_gauss.pdf(t, *self._args(), digits=digits)

    def logpdf(self, t, *, digits=None):
        from ..distributions import arete_gauss

        return arete_gauss.logpdf(t, *self._args(), digits=digits)

    def cdf(self, t, *, digits=None):
        from ..distributions import arete_gauss

        return arete_gauss.cdf(t, *self._args(), digits=digits)

    def sf(self, t, *, digits=None):
        from ..distributions import arete_gauss

        return arete_gauss.sf(t, *self._args(), digits=digits)

    def mean_abs(self, *, digits=None):
        from ..distributions import arete_gauss

        return arete_gauss.mean_abs(*self._args(), digits=digits)

    def var(self, *, digits=None):
        from ..distributions import arete_gauss

        return arete_gauss.var(*self._args(), digits=digits)

    # -- float64 -------------------------------------------------------------------------
    def logpdf_float(self, t):
        from ..distributions import fast_gauss

        return fast_gauss.logpdf(t, *self.float_params())

    def pdf_float(self, t):
        from ..distributions import fast_gauss

        return fast_gauss.pdf(t, *self.float_params())

    def sf_float(self, t):
        from ..distributions import fast_gauss

        return fast_gauss.sf(t, *self.float_params())

    def cdf_float(self, t):
        from ..distributions import fast_gauss

        return fast_gauss.cdf(t, *self.float_params())

    def mean_abs_float(self):
        from ..privacy.optimize_gauss import mean_abs_float

        return mean_abs_float(*self.float_params())

    def var_float(self):
        a, th, la, sg = self.float_params()
        return 2 * a * th * th + 2 * la * la + sg * sg

    # -- privacy -------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12, workers=1):
        from ..privacy import tight_gauss

        return tight_result(tight_gauss.tight_epsilon(*self._args(), Delta, digits=digits, workers=workers), Delta)

    def certify(self, Delta=1, *, target=None, tol="1e-4", workers=1, numeric=True, max_seconds=1200,
                progress=False):
        """Proved upper bound (:func:`arete_proofs.certified.gauss.certify_epsilon_gauss`; one process)."""
        from ..certified.gauss import certify_epsilon_gauss

        return certify_epsilon_gauss(*self._args(), Delta, tol=tol, target=target, numeric=numeric,
                                     max_seconds=max_seconds, progress=progress)

    def accounting_hints(self):
        """No Lipschitz bound (lam may be 0): hidden sign changes are ruled out by the monotone envelope."""
        from ..privacy.accounting import AccountingHints

        a, th, lam, sg = self.float_params()
        return AccountingHints(lipschitz=None, tail_scale=max(th, lam), scales=(lam, th, sg),
                               gauss_sigma=sg, float_error=1e-7, slow_engine=True)

    def at_precision(self, digits):
        """The same noise with its parameters parsed as the privacy layer parses them for ``digits``."""
        from ..privacy import tight_gauss

        a, th, lam, sg, _, _ = tight_gauss._parse(*self._args(), 1, digits)
        return AreteGaussNoise(alpha=a, theta=th, lam=lam, sigma=sg, source=self.source)

    # -- sampling, shares, scipy -----------------------------------------------------------
    def sample(self, size=None, rng=None):
        from ..mechanisms import sampling

        a, th, lam, sg = self.float_params()
        return sampling.arete(a, th, lam, size, rng, sigma=sg)

    def shares(self, n):
        a, th, lam, sg = self.float_params()

        def exact(k, digits):
            from ..distributions import arete_gauss

            if k == 1:
                return float(arete_gauss.mean_abs(a, th, lam, sg, digits=digits))
            if lam == 0:  # GammaGamma(k alpha, theta) + N(0, k sigma^2)
                return float(arete_gauss.mean_abs(k * a, th, 0, k ** 0.5 * sg, digits=digits))
            return None  # GammaGamma(k, lam) is not Laplace for k != 1: no closed form here

        def describe(k):
            return (f"GammaGamma({k:g} alpha, theta)" + (f" + GammaGamma({k:g}, lam)" if lam > 0 else "")
                    + f" + N(0, {k:g} sigma^2)")

        comps = [(a, th)] + ([(1.0, lam)] if lam > 0 else [])
        desc = f"Gamma({a:g}/n, {th:g}) - Gamma({a:g}/n, {th:g})" + (
            f" + Gamma(1/n, {lam:g}) - Gamma(1/n, {lam:g})" if lam > 0 else "")
        sh = gamma_shares(self, n, comps, desc, sigma=sg, exact_mean_abs=exact, describe_sum=describe, digits=15)

        def sampler(size, rng, *, parties=None, summed=False):
            from ..mechanisms import sampling

            return sampling.shares(a, th, lam, sh.n, size, rng, summed=summed, parties=parties, sigma=sg)

        import dataclasses

        return dataclasses.replace(sh, sampler=sampler)

    def scipy(self):
        from ..stats import arete_gauss

        return arete_gauss(*self.float_params())

    # -- optimisation ------------------------------------------------------------------
    @classmethod
    def search_problem(cls, eps, *, objective="mean_abs", **options):
        from ..privacy.optimize_gauss import GaussProblem

        problem = GaussProblem(eps, objective=objective, **options)
        problem.noise_class = cls
        return problem
