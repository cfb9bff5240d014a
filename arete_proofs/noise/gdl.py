r"""``gdl``: the generalized discrete Laplace noise :math:`\mathrm{GDL}(\beta, a) = \mathrm{NB}(\beta, 1-e^{-a}) - \mathrm{NB}(\beta, 1-e^{-a})` on the integers.

Harrison and Manurangsi (FORC 2025), Section 4 (Theorem 13 and Corollary 14; Theorem 15 chooses
:math:`\beta = \Delta e^{2-\varepsilon}`, :math:`a = 2/\Delta`).  Integer-valued, symmetric
unimodal for every :math:`\beta > 0`, infinitely divisible: :math:`n` parties add
:math:`\mathrm{GDL}(\beta/n, a)` each and the sum is :math:`\mathrm{GDL}(\beta, a)` (the shape of a
negative binomial adds).  Exact values: :mod:`arete_proofs.distributions.gdl`; tight epsilon at
integer sensitivity: :mod:`arete_proofs.privacy.tight_gdl` (every shift :math:`|s| \le \Delta`
is covered by its reduction, and for :math:`\beta > 1` the supremum is the tail limit
:math:`a\Delta`, computed exactly); accounting: :mod:`arete_proofs.privacy.accounting_discrete`.

**Samplers.**  :meth:`GDLNoise.sample` and the shares draw *exactly* from fair bits
(:mod:`arete_proofs.mechanisms.exact`: :math:`\mathrm{NB}(\beta/n, 1 - e^{-a})` by exact inversion on
certified CDF enclosures, two per share).  :meth:`GDLNoise.sample_float` keeps the float64 sampler for
experiments: :math:`\mathrm{NB}(\beta, p)` with a real shape as the Gamma-Poisson mixture
:math:`N \mid \Lambda \sim \mathrm{Poisson}(\Lambda)`, :math:`\Lambda \sim \Gamma(\beta, (1-p)/p)`
(exact in distribution: :math:`\int e^{-\lambda}\lambda^k/k!\,\lambda^{\beta-1}e^{-\lambda p/(1-p)}
\,d\lambda\,(p/(1-p))^\beta/\Gamma(\beta) = \Gamma(k+\beta)/(\Gamma(\beta)k!)\,p^\beta(1-p)^k`),
drawn with a numpy ``Generator`` (not a production sampler, Mironov 2012).

>>> from arete_proofs.noise import make
>>> z = make("gdl", beta="0.5", a="0.7")
>>> z.integer_valued, z.symmetric_unimodal, z.infinitely_divisible
(True, True, True)
>>> r = z.tight_epsilon(Delta=3, digits=8)
>>> r.witness, r.attained, r.epsilon > r.tail_limit      # (k, s): beta < 1, attained at k = 0, s = Delta; above a Delta
((0, 3), True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from mpmath import mp

from ._base import Noise, NotSupported, Parameter, TightResult, each, on_integers, RATE_BOUNDS

__all__ = ["GDLNoise", "nb_variates", "gdl_variates"]

#: The reduction proved in arete_proofs.privacy.tight_gdl (items 1-4).
REDUCTION = ("integer-valued, symmetric unimodal: every shift 1 <= |s| <= Delta reduces to s = +Delta, k >= 0; "
             "L_Delta is monotone on k >= 0 (log-convex pmf for beta < 1, log-concave for beta > 1), so the "
             "supremum is at k = 0 or the tail limit a Delta (arete_proofs.privacy.tight_gdl, items 1-4)")


def nb_variates(beta, p, size=None, rng=None):
    r"""Negative binomial :math:`\mathrm{NB}(\beta, p)` draws (failures before the :math:`\beta`-th success; real :math:`\beta > 0`).

    Gamma-Poisson: :math:`\Lambda \sim \Gamma(\beta, (1-p)/p)`, :math:`N \sim \mathrm{Poisson}(\Lambda)`
    (module docstring).  Returns int64.

    >>> x = nb_variates(0.5, 0.4, 200_000, rng=1)
    >>> bool(abs(x.mean() - 0.5 * 0.6 / 0.4) < 0.02)          # E N = beta (1-p)/p
    True
    """
    from ..mechanisms import sampling as _s

    beta, p = float(beta), float(p)
    if not (beta > 0 and math.isfinite(beta)):
        raise ValueError(f"beta must be positive and finite, got {beta!r}")
    if not 0 < p <= 1:
        raise ValueError(f"p must be in (0, 1], got {p!r}")
    g = _s.generator(rng)
    lam = g.gamma(beta, (1 - p) / p, size)
    return g.poisson(lam).astype(np.int64) if size is not None else int(g.poisson(lam))


def gdl_variates(beta, a, size=None, rng=None):
    r""":math:`\mathrm{GDL}(\beta, a) = N_1 - N_2` draws, :math:`N_i \sim \mathrm{NB}(\beta, 1-e^{-a})` iid (int64).

    >>> x = gdl_variates(2.0, 1.0, 200_000, rng=2)
    >>> import math
    >>> bool(abs(x.var() / (2.0 / (math.cosh(1.0) - 1)) - 1) < 0.02)     # Var = beta/(cosh a - 1)
    True
    """
    from ..mechanisms import sampling as _s

    g = _s.generator(rng)
    p = -math.expm1(-float(a))
    return nb_variates(beta, p, size, g) - nb_variates(beta, p, size, g)


@dataclass(frozen=True)
class _GDLSum:
    """The law of ``m`` shares for ``n`` parties: GDL(m beta / n, a) (``law``: that noise)."""

    law: Noise
    k: float
    description: str

    def mean_abs(self, digits=None):
        return float(self.law.mean_abs(digits=12 if digits is None else digits))

    def var(self) -> float:
        return float(self.law.var(digits=17))


class GDLNoise(Noise):
    r"""GDL(:math:`\beta`, :math:`a`) noise on the integers (Harrison and Manurangsi 2025, Theorem 13).

    >>> from mpmath import mp
    >>> z = GDLNoise(beta="0.5", a=1)
    >>> mp.almosteq(z.var(digits=20), mp.mpf("0.5") / (mp.cosh(1) - 1))
    True
    >>> z.pdf("0.5"), z.pmf(0) == z.pdf(0)                     # pdf is the pmf on the integers
    (mpf('0.0'), True)
    """

    name = "gdl"
    title = "generalized discrete Laplace: NB(beta, 1 - e^-a) - NB(beta, 1 - e^-a) on the integers"
    reference = "Harrison & Manurangsi (FORC 2025), Section 4, Theorem 13 (pmf: 2F1 closed form)"
    parameters = (Parameter("beta", "positive", "negative-binomial shape beta > 0 (beta = 1: DLap(a))",
                            bounds=("1e-9", "1e3")),
                  Parameter("a", "positive", "decay a > 0: the NB success probability is 1 - e^-a", bounds=RATE_BOUNDS))
    infinitely_divisible = True
    symmetric_unimodal = True
    integer_valued = True
    supports = frozenset({"exact", "float", "tight_epsilon", "account", "sample", "exact_sample", "shares", "scipy"})

    def _beta_a(self):
        """(beta, a) as given (the engines parse them)."""
        return self.beta, self.a

    def _float_ba(self):
        """(beta, a) as float64."""
        return self.float_params()

    def _beta_value(self):
        """beta as an mpf (30 digits)."""
        return self.value("beta")

    # -- exact ---------------------------------------------------------------------------
    def _dist(self):
        from ..distributions import gdl

        return gdl

    def pmf(self, k, *, digits=None):
        return each(lambda x: on_integers(lambda y: self._dist().pmf(y, *self._beta_a(), digits=digits), x, mp.zero), k)

    def logpmf(self, k, *, digits=None):
        return each(lambda x: on_integers(lambda y: self._dist().logpmf(y, *self._beta_a(), digits=digits), x, -mp.inf), k)

    def pdf(self, t, *, digits=None):
        """The pmf at integer ``t``, 0 elsewhere (an integer-valued law has no density)."""
        return each(lambda x: self.pmf(x, digits=digits) if _is_int(x) else mp.zero, t)

    def logpdf(self, t, *, digits=None):
        return each(lambda x: self.logpmf(x, digits=digits) if _is_int(x) else mp.ninf, t)

    def cdf(self, t, *, digits=None):
        return each(lambda x: self._dist().cdf(x, *self._beta_a(), digits=digits), t)

    def sf(self, t, *, digits=None):
        return each(lambda x: self._dist().sf(x, *self._beta_a(), digits=digits), t)

    def mean_abs(self, *, digits=None):
        return self._dist().mean_abs(*self._beta_a(), digits=digits)

    def var(self, *, digits=None):
        return self._dist().var(*self._beta_a(), digits=digits)

    # -- float64 -------------------------------------------------------------------------
    def logpmf_float(self, k):
        from ..distributions import gdl

        beta, a = self._float_ba()
        return gdl.logpmf_float(k, beta, a)

    def logpdf_float(self, t):
        t = np.asarray(t, dtype=float)
        out = self.logpmf_float(np.where(np.isfinite(t), np.round(t), 0.0))
        return np.where(t == np.round(t), out, -np.inf)

    def _float_table(self):
        """float64 ``(p_0..p_K, tail sums S_n = P(X > n) for n = 0..K)`` with P(X > K) < 1e-40."""
        beta, a = self._float_ba()
        K = int(min(2e6, math.ceil((95 + 5 * abs(math.log(beta)) + max(beta - 1, 0) * 5) / a)) + 10)
        p = np.exp(self.logpmf_float(np.arange(K + 1)))
        tail = np.cumsum(p[::-1])[::-1]          # tail[n] = sum_{k >= n} p_k
        S = np.append(tail[1:], 0.0)              # S[n] = P(X > n)
        return p, S

    def sf_float(self, t):
        t = np.asarray(t, dtype=float)
        _, S = self._float_table()
        n = np.floor(t)
        K = len(S) - 1
        pos = S[np.clip(n, 0, K).astype(np.int64)]
        neg = 1.0 - S[np.clip(-n - 1, 0, K).astype(np.int64)]
        out = np.where(n >= 0, np.where(n > K, 0.0, pos), np.where(-n - 1 > K, 1.0, neg))
        return out

    def cdf_float(self, t):
        t = np.asarray(t, dtype=float)
        return self.sf_float(-np.floor(t) - 1)

    def mean_abs_float(self):
        return float(self.mean_abs(digits=17))

    def var_float(self):
        return float(self.var(digits=17))

    # -- privacy -------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        r"""Exact :math:`\varepsilon^*` at integer sensitivity (:func:`arete_proofs.privacy.tight_gdl.tight_epsilon`)."""
        from ..privacy import tight_gdl

        r = tight_gdl.tight_epsilon(*self._beta_a(), Delta, digits=digits)
        return TightResult(epsilon=r.epsilon, lower_bound=r.epsilon, upper_bound=r.epsilon,
                           witness=(r.witness, r.Delta), attained=r.attained, tail_limit=r.tail_limit,
                           Delta=r.Delta, digits=r.digits, reduction=REDUCTION,
                           method=f"closed form ({r.case})", details=r)

    def discrete_loss_shape(self, Delta=1):
        r"""How :math:`L_\Delta(k) = \ln p(k) - \ln p(k+\Delta)` behaves on :math:`k \ge 0`: ``decreasing``, ``increasing`` or ``constant`` (tight_gdl, item 3)."""
        b = self._beta_value()
        return "decreasing" if b < 1 else ("constant" if b == 1 else "increasing")

    def accounting_hints(self):
        raise NotSupported(f"noise {self.name!r} is integer-valued: its accounting is "
                           "arete_proofs.privacy.accounting_discrete (no hints needed)")

    # -- sampling, shares, scipy -----------------------------------------------------------
    def sample(self, size=None, rng=None):
        r"""Exact draws (int64; one draw: an ``int``) from the bits of ``rng`` (:mod:`arete_proofs.mechanisms.exact`).

        >>> import random
        >>> GDLNoise(beta="0.5", a=1).sample(3, rng=random.Random(0)).dtype.name
        'int64'
        """
        from ..mechanisms import exact

        return exact.gdl(*self._beta_a(), size, rng)

    def sample_float(self, size=None, rng=None):
        """float64-path draws (Gamma-Poisson with a numpy Generator; int64): for experiments only."""
        beta, a = self._float_ba()
        return gdl_variates(beta, a, size, rng)

    def shares(self, n):
        """Shares GDL(beta/n, a): exact draws by ``.sample`` (fair bits), float64 ones by ``.sample_float``."""
        from ..mechanisms import exact
        from ..mechanisms import sampling as _s

        n = _s._count(n, "n")
        beta, a = self._float_ba()
        a_text = self.a
        b_exact, a_exact = self._beta_a()

        def exact_draw(count, src):
            return exact.gdl_shares(b_exact, a_exact, n, count, src)

        def draw(g, shape):
            return gdl_variates(beta / n, a, shape, g)

        def sum_law(m):
            m = _s._count(m, "contributors")
            with mp.workdps(40):
                b_sum = mp.mpf(self._beta_a()[0]) * m / n
            law = GDLNoise(beta=b_sum, a=a_text)
            return _GDLSum(law, m / n, f"GDL({mp.nstr(b_sum, 12)}, {a_text}): the sum of {m} shares")

        from ._shares import Shares

        return Shares(self, n, f"GDL(beta/n, a) = GDL({beta / n:g}, {a:g}) (NB shapes add)", draw, sum_law,
                      exact_draw=exact_draw)

    def scipy(self):
        from ..stats._gdl import gdl

        beta, a = self._float_ba()
        return gdl(beta, a)


def _is_int(x):
    """Whether the point ``x`` is a (finite) integer, read exactly (``"1e300"`` is one)."""
    from fractions import Fraction

    from ._base import exact_point

    v = exact_point(x, "t")
    return isinstance(v, Fraction) and v.denominator == 1
