r"""``arete``: the paper's noise :math:`Z = X_1 - X_2 + Y`, :math:`X_i \sim \Gamma(\alpha,\theta)`, :math:`Y \sim \mathrm{Laplace}(\lambda)`.

Definitions 1 and 9 of Pagh & Stausholm (ALT 2022).  Symmetric and unimodal (Lemma 2),
so the tight epsilon is the single shift :math:`+\Delta`
(:data:`~arete_proofs.noise._base.SYMMETRIC_UNIMODAL`); infinitely divisible: :math:`n` parties
add :math:`\Gamma(\alpha/n,\theta) - \Gamma(\alpha/n,\theta) + \Gamma(1/n,\lambda) -
\Gamma(1/n,\lambda)` each (Lemma 10).  This module holds no numerics of its own: it is the
family's entry in the noise interface, over

* the exact engine :mod:`arete_proofs.distributions.arete` and the float64 path
  :mod:`arete_proofs.distributions.fast`;
* the tight epsilon :func:`arete_proofs.privacy.tight.tight_epsilon` (its module docstring is
  the proof) and the certificate :func:`arete_proofs.certified.epsilon.certify_epsilon`;
* the samplers :mod:`arete_proofs.mechanisms.sampling`, the scipy object
  :class:`arete_proofs.stats.arete_gen`, the optimiser's problem
  (:class:`arete_proofs.privacy.optimize.AreteProblem`).

>>> from arete_proofs.noise import make
>>> z = make("arete", alpha="0.1", theta=2, lam="0.3")
>>> # Lemma 3: Var Z = 2 alpha theta^2 + 2 lam^2, exactly
>>> from mpmath import mp
>>> mp.almosteq(z.var(digits=20), 2 * z.value("alpha") * 4 + 2 * z.value("lam") ** 2, 1e-14)
True
>>> z.scaled(3) == make("arete", alpha="0.1", theta=6, lam="0.9")   # Arete(a, c th, c lam) = c Arete(a, th, lam)
True
"""

from __future__ import annotations


from ._base import _exact, _positive_scale, scale_value, SYMMETRIC_UNIMODAL, Noise, Parameter, TightResult, SCALE_BOUNDS
from ._shares import gamma_shares

__all__ = ["AreteNoise", "tight_result"]


def tight_result(r, Delta, reduction=SYMMETRIC_UNIMODAL) -> TightResult:
    """A :class:`~arete_proofs.noise.TightResult` from a :class:`arete_proofs.privacy.tight.TightEpsilon`.

    >>> from arete_proofs.privacy import tight
    >>> r = tight_result(tight.tight_epsilon("0.3", 1, 2, 1), 1)       # Section 4.2, lam >= theta
    >>> r.epsilon == r.details.epsilon and r.witness == r.details.t_star
    True
    """
    return TightResult(epsilon=r.epsilon, lower_bound=r.lower_bound, upper_bound=r.upper_bound,
                       witness=r.t_star, attained=r.attained, tail_limit=r.tail_limit, Delta=Delta,
                       digits=r.digits, reduction=reduction, method=r.method, details=r)


class AreteNoise(Noise):
    r"""Arete(:math:`\alpha,\theta,\lambda`) noise (Definitions 1 and 9).

    >>> z = AreteNoise(alpha="0.5", theta=1, lam="0.5")
    >>> z.tight_epsilon(1, digits=6).epsilon <= 1 / 0.5      # the Lipschitz bound Delta/lam (Section 4.2)
    True
    """

    name = "arete"
    title = "Arete: X1 - X2 + Y, X1, X2 ~ Gamma(alpha, theta), Y ~ Laplace(lam)"
    reference = "Pagh & Stausholm (ALT 2022), Definitions 1 and 9; Lemma 2, Lemma 3, Lemma 10"
    parameters = (
        Parameter("alpha", "positive", "Gamma shape alpha > 0", bounds=("1e-300", "100")),
        Parameter("theta", "positive", "Gamma scale theta > 0", bounds=SCALE_BOUNDS),
        Parameter("lam", "positive", "Laplace scale lambda > 0", bounds=SCALE_BOUNDS),
    )
    infinitely_divisible = True
    symmetric_unimodal = True
    supports = frozenset({"exact", "float", "tight_epsilon", "certify", "account", "optimize", "sample",
                          "shares", "scipy", "certified_density"})
    deploy_with = "gdl"  # float64 samplers here (experiments); that integer family samples exactly

    @classmethod
    def paper(cls, eps, Delta=1, *, digits=30):
        r"""Lemma 3's parameters :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`.

        The values are mpf at ``digits``; ``source`` records ``paper_eps`` and ``sensitivity``
        (``certify`` then proves the bound for the exact :math:`e^{-\varepsilon/4}`, as a ball).

        >>> z = AreteNoise.paper(20, 1, digits=20)
        >>> z.source["paper_eps"], z.alpha == z.lam
        (20, True)
        """
        from ..distributions.params import paper_parameters

        a, th, lam = paper_parameters(eps, Delta, digits=digits)
        return cls(alpha=a, theta=th, lam=lam, source={"paper_eps": eps, "sensitivity": Delta})

    def _args(self):
        p = self._params
        return p["alpha"], p["theta"], p["lam"]

    def scaled(self, c):
        """The law of ``c Z``: Arete(alpha, c theta, c lam) (exact for decimal parameters)."""
        if not _positive_scale(c):
            raise ValueError(f"scale must be positive, got {c!r}")
        a, th, lam = self._args()
        return self if _exact(c) == 1 else AreteNoise(alpha=a, theta=scale_value(th, c), lam=scale_value(lam, c))

    # -- exact engine ------------------------------------------------------------------
    def pdf(self, t, *, digits=None):
        from ..distributions import arete

        return arete.pdf(t, *self._args(), digits=digits)

    def logpdf(self, t, *, digits=None):
        from ..distributions import arete

        return arete.logpdf(t, *self._args(), digits=digits)

    def cdf(self, t, *, digits=None):
        from ..distributions import arete

        return arete.cdf(t, *self._args(), digits=digits)

    def sf(self, t, *, digits=None):
        from ..distributions import arete

        return arete.sf(t, *self._args(), digits=digits)

    def mean_abs(self, *, digits=None):
        from ..distributions import arete

        return arete.mean_abs(*self._args(), digits=digits)

    def var(self, *, digits=None):
        from ..distributions import arete

        return arete.var(*self._args(), digits=digits)

    # -- float64 -------------------------------------------------------------------------
    def logpdf_float(self, t):
        from ..distributions import fast

        return fast.logpdf(t, *self.float_params())

    def pdf_float(self, t):
        from ..distributions import fast

        return fast.pdf(t, *self.float_params())

    def sf_float(self, t):
        from ..distributions import fast

        return fast.sf(t, *self.float_params())

    def cdf_float(self, t):
        from ..distributions import fast

        return fast.cdf(t, *self.float_params())

    def mean_abs_float(self):
        from ..distributions import fast

        return float(fast.mean_abs(*self.float_params()))

    def var_float(self):
        from ..distributions import fast

        return float(fast.var(*self.float_params()))

    # -- privacy -------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        from ..privacy import tight

        return tight_result(tight.tight_epsilon(*self._args(), Delta, digits=digits), Delta)

    def certify(self, Delta=1, *, target=None, tol="1e-4", workers=1, numeric=True, max_seconds=1200,
                progress=False):
        r"""Proved upper bound on :math:`\varepsilon^*` (:func:`arete_proofs.certified.epsilon.certify_epsilon`).

        A noise from :meth:`paper` is certified for the exact parameters: :math:`e^{-\varepsilon/4}`
        as a 128-bit arb ball and :math:`\theta = 4\Delta/\varepsilon` as a fraction.
        """
        from ..certified.epsilon import certify_epsilon

        alpha, theta, lam = self._args()
        if "paper_eps" in self.source:
            from flint import ctx

            from ..certified.density import _arb, exact_parameter

            e = exact_parameter(self.source["paper_eps"], "--paper-eps")
            d = exact_parameter(self.source["sensitivity"], "--sensitivity")
            old, ctx.prec = ctx.prec, 128
            try:
                alpha = lam = (-_arb(e) / 4).exp()
            finally:
                ctx.prec = old
            theta = 4 * d / e
        return certify_epsilon(alpha, theta, lam, Delta, tol=tol, target=target, workers=workers,
                               numeric=numeric, max_seconds=max_seconds, progress=progress)

    def certified_pdf(self, t, *, digits=12):
        from ..certified.density import pdf_ball

        return pdf_ball(t, *self._args(), digits=digits)

    def accounting_hints(self):
        """What :mod:`arete_proofs.privacy.accounting` needs beyond the densities (``|(ln f)'| <= 1/lam``)."""
        from ..privacy.accounting import AccountingHints

        a, th, lam = self.float_params()
        return AccountingHints(lipschitz=lam, tail_scale=max(th, lam), scales=(lam, th),
                               gauss_sigma=0.0, float_error=1e-9, slow_engine=False)

    def at_precision(self, digits):
        """The same noise with its parameters parsed as the privacy layer parses them for ``digits``."""
        from ..privacy import tight

        a, th, lam = tight._parse(*self._args(), tight._digits(digits))
        return AreteNoise(alpha=a, theta=th, lam=lam, source=self.source)

    # -- sampling, shares, scipy -----------------------------------------------------------
    def sample(self, size=None, rng=None):
        from ..mechanisms import sampling

        return sampling.arete(*self.float_params(), size, rng)

    def shares(self, n):
        """Lemma 10's shares; the sum of ``m`` of them is :func:`arete_proofs.mechanisms.sum_noise`."""
        import dataclasses

        from ..mechanisms.shares import sum_noise

        a, th, lam = self.float_params()
        sh = gamma_shares(self, n, [(a, th), (1.0, lam)],
                          f"Gamma({a:g}/n, {th:g}) - Gamma({a:g}/n, {th:g}) + Gamma(1/n, {lam:g}) - Gamma(1/n, {lam:g})")
        def sampler(size, rng, *, parties=None, summed=False):
            from ..mechanisms import sampling

            return sampling.shares(a, th, lam, sh.n, size, rng, summed=summed, parties=parties)

        return dataclasses.replace(sh, sum_law=lambda m: sum_noise(m, sh.n, a, th, lam), sampler=sampler)

    def scipy(self):
        from ..stats import arete

        return arete(*self.float_params())

    # -- optimisation ------------------------------------------------------------------
    @classmethod
    def search_problem(cls, eps, *, objective="mean_abs", **options):
        from ..privacy.optimize import AreteProblem

        problem = AreteProblem(eps, objective=objective, **options)
        problem.noise_class = cls
        return problem
