r"""``msdlap``: multi-scale discrete Laplace, :math:`Z = \sum_{i=1}^m i X_i`, :math:`X_i` iid DLap(a), on the integers.

Harrison and Manurangsi (FORC 2025), Theorem 16: with :math:`a = \varepsilon` and :math:`m = \Delta`
it is :math:`\varepsilon`-DP at integer sensitivity :math:`\Delta`.  A comb, **not** unimodal: the
tight epsilon is taken over every integer shift :math:`|s| \le \Delta`
(:mod:`arete_proofs.privacy.tight_discrete`: a window plus the exact tail limit from the
dominant poles).  Exact values: :mod:`arete_proofs.distributions.comb` (partial fractions,
checked against direct convolution).  Infinitely divisible: DLap(a) :math:`= \mathrm{NB}(1, p) -
\mathrm{NB}(1, p)`, :math:`p = 1 - e^{-a}`, so each of :math:`n` parties adds
:math:`\sum_i i\,(\mathrm{NB}(1/n, p) - \mathrm{NB}(1/n, p))`.

>>> from arete_proofs.noise import make
>>> z = make("msdlap", a=2, m=3)
>>> r = z.tight_epsilon(Delta=3, digits=10)
>>> abs(r.epsilon - 2) < 1e-10, r.attained          # Theorem 16: eps* = a at Delta = m, the tail limit
(True, False)
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from mpmath import mp

from ._base import Noise, Parameter, TightResult, floor_point, integer_point, RATE_BOUNDS, SIZE_BOUNDS
from ._shares import Shares

__all__ = ["COMB_SIZE_LIMITS", "IntegerTable", "MsdlapNoise", "comb_tight_result", "nb_lattice_draw", "LatticeSum"]


#: The cost models of the comb engines in the number of scales :math:`m` (``size_limits`` of every family built on
#: MSDLap(a, m): msdlap, lattice_laplace, lattice_gauss, lattice_gauss_top, lattice_skellam; fitted on a 2-core
#: machine).  Exact point values go through the partial fractions of
#: :mod:`arete_proofs.distributions.comb`: :math:`m^3/2` complex products at about :math:`m\log_{10} m` working
#: digits, measured 4 s at :math:`m = 30` and 38 s at :math:`m = 45` (15 digits): about
#: :math:`4\,\mathrm{s}\,(m/30)^5`, about half an hour at :math:`m = 100`.  The tight epsilon, E|Z|, Var Z and the
#: certificates need the pole constants in balls, :math:`1.1\cdot10^{-6}\,\mathrm{s}\cdot m^3/4`
#: (the fitted model of ``comb_table._poles_cheaper``), about 40 minutes at
#: :math:`m = 2000` (the shipped frontier rows go to :math:`m = 1085`).  A draw sums :math:`m` scaled
#: negative-binomial differences: :math:`m` sampler calls.  Beyond these sizes the computation is refused
#: (:meth:`arete_proofs.noise.Noise.check_size`) rather than run for hours or more.
COMB_SIZE_LIMITS = {
    "exact": (100, "about 4 s * (m/30)^5 at 15 digits: the pole constants cost m^3 products at m log10(m) "
                   "working digits"),
    "tight_epsilon": (2000, "the pole constants cost about 1.1e-6 s * m^3/4"),
    "certify": (2000, "the pole constants cost about 1.1e-6 s * m^3/4"),
    "sample": (100_000, "each draw sums m scaled negative-binomial differences"),
}


def comb_tight_result(r, Delta, reduction, method) -> TightResult:
    """A :class:`~arete_proofs.noise.TightResult` from a comb's or a lattice law's tight result.

    >>> from arete_proofs.privacy.tight_discrete import tight_epsilon_msdlap, EVERY_INTEGER_SHIFT
    >>> t = comb_tight_result(tight_epsilon_msdlap(1, 1, 1, digits=8), 1, EVERY_INTEGER_SHIFT, "x")
    >>> t.epsilon == 1 and t.reduction == EVERY_INTEGER_SHIFT        # DLap(1): eps* = a Delta (Theorem 16, m = 1)
    True
    """
    return TightResult(epsilon=r.epsilon, lower_bound=r.lower_bound, upper_bound=r.upper_bound, witness=r.witness,
                       attained=r.attained, tail_limit=r.tail_limit, Delta=Delta, digits=r.digits,
                       reduction=reduction, method=method, details=r)


def nb_lattice_draw(g, a, m, n, shape, a_top=None):
    r"""float64 array of :math:`\sum_{i=1}^m i\,(\mathrm{NB}(1/n, p) - \mathrm{NB}(1/n, p))`, :math:`p = 1 - e^{-a}`
    (``a_top``: the scale :math:`i = m` at :math:`p = 1 - e^{-a_{top}}`).

    ``n = 1`` is MSDLap(a, m) itself (NB(1, p) is the geometric law, so the difference is DLap(a)).

    >>> import numpy as np
    >>> x = nb_lattice_draw(np.random.default_rng(1), 1.0, 1, 1, (200_000,))
    >>> bool(abs(x.var() - 1 / (np.cosh(1) - 1)) < 0.05)       # Var DLap(a) = 1/(cosh a - 1)
    True
    """
    p = -math.expm1(-a)
    out = np.zeros(shape)
    for i in range(1, m + 1):
        if i == m and a_top is not None:
            p = -math.expm1(-a_top)
        out += i * (g.negative_binomial(1.0 / n, p, shape) - g.negative_binomial(1.0 / n, p, shape))
    return out


@dataclasses.dataclass(frozen=True)
class LatticeSum:
    r"""Law of ``k`` designed noises (the sum of ``k n`` shares): ``k``, ``description``, ``var()``, ``mean_abs``.

    :math:`\operatorname{Var}` is :math:`k` times the designed noise's (GDL(k, a) on each scale: Theorem 16's variance times k).

    >>> from arete_proofs.noise import make
    >>> z = make("msdlap", a=1, m=2)
    >>> s = z.shares(4).sum_law(8)
    >>> s.k, abs(s.var() - 2 * float(z.var(digits=16))) < 1e-12
    (2.0, True)
    """

    k: float
    description: str
    variance: float
    exact: object = None

    def mean_abs(self, digits=None):
        """Exact :math:`E|N|` where known (``k = 1``), else ``None``."""
        return None if self.exact is None else self.exact(digits)

    def var(self) -> float:
        return self.variance


class IntegerTable:
    r"""float64 ``logpdf_float`` and ``sf_float`` of an integer family from its pmf table ``self._table()`` =
    ``(p, N)``, :math:`p_k` for :math:`|k| \le N` (``-inf`` off the integers and past the table).

    >>> class T(IntegerTable):
    ...     def _table(self):
    ...         return np.array([0.25, 0.5, 0.25]), 1
    >>> float(T().sf_float(0.0)), float(np.exp(T().logpdf_float(np.array([1.0]))[0]))    # P(Z > 0), p_1
    (0.25, 0.25)
    """

    def logpdf_float(self, t):
        """float64 :math:`\\ln p_k` from a convolution table (``-inf`` off the integers and past the table)."""
        p, N = self._table()
        t = np.asarray(t, dtype=float)
        out = np.full(t.shape, -np.inf)
        ok = (t == np.round(t)) & (np.abs(t) <= N)
        with np.errstate(divide="ignore"):
            out[ok] = np.log(p[(np.round(t[ok]).astype(np.int64) + N)])
        return out

    def sf_float(self, t):
        """float64 :math:`P(Z > t)` from the table."""
        p, N = self._table()
        t = np.floor(np.asarray(t, dtype=float))
        c = np.cumsum(p[::-1])[::-1]  # c[j] = P(Z >= j - N)
        idx = np.clip(t + 1 + N, 0, 2 * N).astype(np.int64)
        return np.where(t + 1 > N, 0.0, np.where(t + 1 < -N, 1.0, c[idx]))


class MsdlapNoise(IntegerTable, Noise):
    r"""MSDLap(a, m) :math:`= \sum_{i=1}^m i\,\mathrm{DLap}(a)` on the integers (Theorem 16 of Harrison and Manurangsi 2025).

    >>> z = MsdlapNoise(a="1.5", m=2)
    >>> from mpmath import mp
    >>> mp.almosteq(z.var(digits=20), 5 / (mp.cosh(1.5) - 1), 1e-13)    # Theorem 16: S2(m)/(cosh a - 1)
    True
    """

    name = "msdlap"
    title = "MSDLap: sum_{i=1}^m i X_i, X_i iid DLap(a), on the integers"
    reference = "Harrison & Manurangsi (FORC 2025), Theorem 16 (a = eps, m = Delta)"
    parameters = (
        Parameter("a", "positive", "DLap rate a > 0 (pmf tanh(a/2) e^{-a|k|})", bounds=RATE_BOUNDS),
        Parameter("m", "integer", "number of scales m >= 1 (Theorem 16: m = Delta)", bounds=SIZE_BOUNDS),
    )
    infinitely_divisible = True
    symmetric_unimodal = False
    integer_valued = True
    supports = frozenset({"exact", "float", "tight_epsilon", "certify", "sample", "exact_sample", "shares", "scipy",
                          "account"})
    size_parameter = "m"
    size_limits = COMB_SIZE_LIMITS

    @classmethod
    def theorem16(cls, eps, Delta):
        r"""Theorem 16's noise MSDLap(:math:`\varepsilon`, :math:`\Delta`) for integer sensitivity ``Delta``.

        >>> MsdlapNoise.theorem16("1.5", 4)
        msdlap(a='1.5', m=4)
        """
        return cls(a=eps, m=Delta)

    def _comp(self):
        from ..distributions.comb import msdlap_components

        return msdlap_components(self.a, self.m)

    # -- exact --------------------------------------------------------------------------------
    def pmf(self, k, *, digits=None):
        self.check_size("exact")
        from ..distributions.comb import comb_pmf

        def one(x):
            k = integer_point(x)
            return mp.zero if k is None else comb_pmf(k, *self._comp(), digits=digits)

        return [one(x) for x in k] if isinstance(k, (list, tuple)) else one(k)

    def logpmf(self, k, *, digits=None):
        self.check_size("exact")
        from ..distributions.comb import comb_logpmf

        def one(x):
            k = integer_point(x)
            return -mp.inf if k is None else comb_logpmf(k, *self._comp(), digits=digits)

        return [one(x) for x in k] if isinstance(k, (list, tuple)) else one(k)

    pdf = pmf
    logpdf = logpmf

    def sf(self, t, *, digits=None):
        self.check_size("exact")
        from ..distributions.comb import comb_sf

        def one(x):  # the exact floor (a far point parsed at 15 digits moved by 10^(e - 15))
            k = floor_point(x)
            return (mp.zero if k > 0 else mp.one) if mp.isinf(k) else comb_sf(k, *self._comp(), digits=digits)

        return [one(x) for x in t] if isinstance(t, (list, tuple)) else one(t)

    def cdf(self, t, *, digits=None):
        self.check_size("exact")
        from ..distributions.comb import comb_sf

        def one(x):  # P(Z <= x) = P(Z >= -x) = P(Z > -floor(x) - 1)   (symmetry)
            k = floor_point(x)
            return (mp.one if k > 0 else mp.zero) if mp.isinf(k) else comb_sf(-k - 1, *self._comp(), digits=digits)

        return [one(x) for x in t] if isinstance(t, (list, tuple)) else one(t)

    def mean_abs(self, *, digits=None):
        self.check_size("tight_epsilon")
        from ..distributions.comb import comb_mean_abs

        return comb_mean_abs(*self._comp(), digits=digits)

    def var(self, *, digits=None):
        self.check_size("tight_epsilon")
        from ..distributions.comb import comb_var

        return comb_var(*self._comp(), digits=digits)

    # -- float64 ---------------------------------------------------------------------------
    def _table(self):
        from ..distributions.comb import float_pmf_table

        a, m = self.float_params()
        m = int(m)
        N = min(int(m * (745 / a + 10)) + 50, 40_000)
        return float_pmf_table(range(1, m + 1), [a] * m, N), N

    def mean_abs_float(self):
        return float(self.mean_abs(digits=17))

    def var_float(self):
        return float(self.var(digits=17))

    # -- privacy ---------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        r"""Every integer shift :math:`|s| \le \Delta` (:func:`arete_proofs.privacy.tight_discrete.tight_epsilon_comb`)."""
        self.check_size("tight_epsilon")
        from ..privacy.tight_discrete import EVERY_INTEGER_SHIFT, tight_epsilon_comb

        r = tight_epsilon_comb(*self._comp(), Delta, digits=digits)
        return comb_tight_result(r, Delta, EVERY_INTEGER_SHIFT, r.method)

    def certify(self, Delta=1, *, digits=12, target=None, tol=None, workers=1, numeric=True, max_seconds=1200,
                progress=False):
        r"""Certified enclosure of :math:`\varepsilon^*` over every integer shift (:func:`arete_proofs.certified.combs.certify_msdlap`).

        A :class:`~arete_proofs.certified.comb_balls.CombCertificate` with ``lower <= eps* <= upper``,
        ``upper - lower < 10^-digits`` (``tol``, ``workers``, ``max_seconds``, ``progress``: accepted
        for the interface, not needed); ``numeric``: the engine's value beside it.

        >>> from arete_proofs.noise import make
        >>> r = make("msdlap", a=2, m=3).certify(Delta=3, digits=12, numeric=False)
        >>> r.contains(2)                          # Theorem 16: eps* = a at Delta = m, certified
        True
        """
        self.check_size("certify")
        from ..certified.combs import certify_msdlap

        p = self._params
        r = certify_msdlap(p["a"], int(self.value("m")), Delta, digits=digits)
        if numeric:
            r.numeric = float(self.tight_epsilon(Delta, digits=min(digits, 15)).epsilon)
        r.target = None if target is None else float(target)
        return r

    # -- sampling, shares ------------------------------------------------------------------
    def sample(self, size=None, rng=None):
        """Exact draws (int64; one draw: an ``int``) from the bits of ``rng`` (:mod:`arete_proofs.mechanisms.exact`)."""
        self.check_size("sample")
        from ..mechanisms import exact

        return exact.msdlap_shares(self.a, int(self.value("m")), 1, size, rng)

    def sample_float(self, size=None, rng=None):
        """float64 draws with a numpy Generator (numpy's negative binomial): for experiments only."""
        self.check_size("sample")
        from ..mechanisms import sampling

        a, m = self.float_params()
        g = sampling.generator(rng)
        shape = () if size is None else ((size,) if isinstance(size, int) else tuple(size))
        x = nb_lattice_draw(g, a, int(m), 1, shape)
        return float(x) if size is None else x

    def shares(self, n):
        """Shares sum_i i (NB(1/n) - NB(1/n)): exact by ``.sample`` (fair bits), float64 by ``.sample_float``."""
        self.check_size("sample")
        from ..mechanisms import exact
        from ..mechanisms import sampling as _s

        n = _s._count(n, "n")
        a, m = self.float_params()
        m = int(m)
        v = float(self.var(digits=17))
        a_exact = self.a

        def exact_draw(count, src):
            return exact.msdlap_shares(a_exact, m, n, count, src)

        def draw(g, shape):
            return nb_lattice_draw(g, a, m, n, shape)

        def sum_law(c):
            c = _s._count(c, "contributors")
            k = c / n
            exact = (lambda digits: float(self.mean_abs(digits=digits or 15))) if k == 1 else None
            return LatticeSum(k, f"sum_i i GDL({k:g}, {a:g}), i = 1..{m}", k * v, exact)

        return Shares(self, n, f"sum_i i (NB(1/n, 1 - e^-{a:g}) - NB(1/n, 1 - e^-{a:g})), i = 1..{m}", draw,
                      sum_law, exact_draw=exact_draw)

    def scipy(self):
        """The frozen ``scipy.stats`` object ``arete_proofs.stats.msdlap`` (float64)."""
        from ..stats import msdlap

        a, m = self.float_params()
        return msdlap(a, int(m))
