r"""``lattice_laplace``: :math:`Z = h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)` (Theorem 21's family, free parameters).

Harrison and Manurangsi (FORC 2025), Theorem 21: :math:`a = \varepsilon - 1`,
:math:`m = \lceil e^{\varepsilon/3}\rceil`, :math:`h = \Delta/m`, :math:`b = \Delta/(2m)` is
:math:`\varepsilon`-DP (:meth:`LatticeLaplaceNoise.theorem21`).  A comb smoothed by Laplace
noise: **not** unimodal, so the tight epsilon takes every real shift :math:`|s| \le \Delta`
(:mod:`arete_proofs.privacy.tight_lattice`: an exact reduction to lattice-point candidates and
the exact periodic tail limit).  Exact density: :mod:`arete_proofs.distributions.lattice`.
Infinitely divisible: each of :math:`n` parties adds
:math:`h\sum_i i\,(\mathrm{NB}(1/n, p) - \mathrm{NB}(1/n, p)) + \Gamma(1/n, b) - \Gamma(1/n, b)`.

>>> z = LatticeLaplaceNoise.theorem21(6)
>>> z
lattice_laplace(a='5', m=8, b='0.0625', h='0.125')
>>> r = z.tight_epsilon(Delta=1, digits=8)
>>> 5.32 < r.epsilon < 5.33 and not r.attained          # Theorem 21 holds with room: the tail limit 5.3203...
True
"""

from __future__ import annotations

import functools

import numpy as np
from mpmath import mp

from ._base import Noise, Parameter, each, RATE_BOUNDS, SCALE_BOUNDS, SIZE_BOUNDS
from ._shares import Shares
from .msdlap import COMB_SIZE_LIMITS, LatticeSum, comb_tight_result, nb_lattice_draw

__all__ = ["LatticeLaplaceNoise", "LatticeNoise"]


def _components(a, m, a_top=None):
    """Weights and rates of MSDLap(a, m), the top scale's rate replaced by ``a_top`` when given."""
    from ..distributions.comb import msdlap_components

    w, r = msdlap_components(a, m)
    return w, (r if a_top is None else tuple(r[:-1]) + (a_top,))


@functools.lru_cache(maxsize=32)
def _law(a, m, h, kernel, scale, digits, a_top=None):
    from ..distributions.lattice import LatticeLaw

    w, r = _components(a, m, a_top)
    return LatticeLaw(r, w, h, kernel=kernel, scale=scale, digits=digits)


@functools.lru_cache(maxsize=16)
def _float_table(a, m, s, h, a_top=None):
    """``(log p_k, h k)`` over the float64 pmf table of MSDLap(a, m) (top rate ``a_top``; entries > 0)."""
    from ..distributions.comb import float_pmf_table

    lo = a if a_top is None else min(a, a_top)
    N = min(int(m * (745 / lo + 10)) + 50, 40_000)
    p = float_pmf_table(range(1, m + 1), [a] * (m - 1) + [a if a_top is None else a_top], N)
    k = np.arange(-N, N + 1)
    keep = p > 0
    return np.log(p[keep]), h * k[keep]


def _txt(v):
    return v if isinstance(v, str) else (str(v) if isinstance(v, int) else repr(v) if isinstance(v, float)
                                         else mp.nstr(v, 40))


class LatticeNoise(Noise):
    r"""Common part of the smoothed lattice families :math:`h\,\mathrm{MSDLap}(a, m) + S` (``kernel``, ``scale_name``).

    >>> LatticeLaplaceNoise(a=2, m=2, b="0.25", h="0.5").symmetric_unimodal     # a comb
    False
    """

    kernel = ""
    scale_name = ""
    infinitely_divisible = True
    symmetric_unimodal = False
    supports = frozenset({"exact", "float", "tight_epsilon", "sample", "shares", "scipy", "account"})
    deploy_with = "lattice_skellam"  # float64 samplers here (experiments); that integer family samples exactly
    size_parameter = "m"
    size_limits = COMB_SIZE_LIMITS

    def _key(self, digits):
        from .._validation import resolve_digits

        p = self._params
        top = self._top_text()
        return (_txt(p["a"]), int(self.value("m")), _txt(p["h"]), self.kernel, _txt(p[self.scale_name]),
                resolve_digits(digits)) + ((top,) if top is not None else ())

    def _top_text(self):
        """The top scale's rate ``a_top`` (exact text), or ``None`` for the plain comb (families without it)."""
        p = self._params
        return _txt(p["a_top"]) if "a_top" in p else None

    def _top(self):
        """``a_top`` as a float, or ``None``."""
        return None if "a_top" not in self._params else float(self.value("a_top"))

    def law(self, digits=None):
        """The :class:`arete_proofs.distributions.lattice.LatticeLaw` at ``digits`` (cached)."""
        return _law(*self._key(digits))

    # -- exact ----------------------------------------------------------------------------
    def law_at(self, t, digits=None):
        r"""``(law, d)``: the law at enough working digits for the point ``t``, and the digits ``d`` to deliver.

        At a far point :math:`t` the mixture needs :math:`t - hk` and :math:`e^{-\lambda k}` with
        :math:`k \approx t/h`: both lose :math:`\lceil\log_{10}|t/h|\rceil` digits, so the law is taken at
        ``d`` plus that many digits (a ``ValueError`` naming ``t`` beyond the largest precision).

        >>> z = LatticeLaplaceNoise(a=1, m=2, b="0.2", h="0.5")
        >>> z.law_at("1e6", 15)[0].d, z.law_at("0.3", 15)[0].d      # |t/h| = 2e6: 7 more digits; 0.6: none
        (22, 15)
        """
        from .._validation import MAX_DIGITS, exponent_digits, resolve_digits

        d = resolve_digits(digits)
        try:
            with mp.workdps(30):
                x = mp.mpf(t.strip() if isinstance(t, str) else t)
        except (TypeError, ValueError, ZeroDivisionError):
            raise ValueError(f"t must be a real number, got {t!r}") from None
        if not mp.isfinite(x):
            return self.law(d), d
        with mp.workdps(30):
            extra = exponent_digits(x / self.value("h"))
        if d + extra > MAX_DIGITS:
            raise ValueError(f"t = {t} is too far out for {d} digits: |t/h| must be below 1e{MAX_DIGITS - d} "
                             f"(the working precision grows with log10|t/h|, at most {MAX_DIGITS} digits)")
        return self.law(d + extra), d

    def _at(self, method, t, digits, negate=False):
        def one(x):
            L, d = self.law_at(x, digits)
            return _round(getattr(L, method)(_neg(x, L.dps) if negate else x), d)

        return each(one, t)

    def pdf(self, t, *, digits=None):
        self.check_size("exact")
        return self._at("pdf", t, digits)

    def logpdf(self, t, *, digits=None):
        self.check_size("exact")
        return self._at("logpdf", t, digits)

    def sf(self, t, *, digits=None):
        self.check_size("exact")
        return self._at("sf", t, digits)

    def cdf(self, t, *, digits=None):
        self.check_size("exact")
        return self._at("sf", t, digits, negate=True)   # symmetric: P(Z <= t) = P(Z > -t)

    def mean_abs(self, *, digits=None):
        self.check_size("tight_epsilon")
        L = self.law(digits)
        return _round(L.mean_abs(), L.d)

    def var(self, *, digits=None):
        self.check_size("tight_epsilon")
        L = self.law(digits)
        return _round(L.var(), L.d)

    # -- float64 (a pmf table and the mixture; for plots and searches) -------------------------
    def _float_mixture(self, t, cdf=False):
        """float64 log density (or log CDF) of the mixture: a pmf table and logsumexp, in chunks of points."""
        from scipy import special

        lp, x = _float_table(*self._floats(), self._top())
        s = self._floats()[2]
        t = np.atleast_1d(np.asarray(t, dtype=float))
        out = np.empty(t.shape)
        for i in range(0, t.size, 512):
            u = t[i:i + 512, None] - x[None, :]
            if self.kernel == "laplace":
                if cdf:
                    lk = np.where(u < 0, np.log(0.5) + np.minimum(u, 0) / s,
                                  np.log1p(-0.5 * np.exp(-np.abs(u) / s)))
                else:
                    lk = -np.abs(u) / s - np.log(2 * s)
            else:
                lk = special.log_ndtr(u / s) if cdf else -0.5 * (u / s) ** 2 - np.log(s * np.sqrt(2 * np.pi))
            out[i:i + 512] = special.logsumexp(lp[None, :] + lk, axis=1)
        return out

    def _floats(self):
        vals = dict(zip([p.name for p in self.parameters], self.float_params()))
        return vals["a"], int(vals["m"]), vals[self.scale_name], vals["h"]

    def logpdf_float(self, t):
        out = self._float_mixture(t)
        return out if np.ndim(t) else float(out[0])

    def sf_float(self, t):
        out = np.exp(self._float_mixture(-np.asarray(t, dtype=float)
                                         if np.ndim(t) else [-float(t)], cdf=True))
        return out if np.ndim(t) else float(out[0])

    def cdf_float(self, t):
        out = np.exp(self._float_mixture(t, cdf=True))
        return out if np.ndim(t) else float(out[0])

    def mean_abs_float(self):
        return float(self.mean_abs(digits=17))

    def var_float(self):
        return float(self.var(digits=17))

    # -- privacy ------------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12, **options):
        r"""Every real shift :math:`|s| \le \Delta` (:func:`arete_proofs.privacy.tight_lattice.tight_epsilon_lattice`)."""
        self.check_size("tight_epsilon")
        from ..privacy.tight_lattice import EVERY_REAL_SHIFT, tight_epsilon_lattice

        p = self._params
        w, r = _components(p["a"], int(self.value("m")), p.get("a_top"))
        res = tight_epsilon_lattice(r, w, p["h"], self.kernel, p[self.scale_name], Delta, digits=digits, **options)
        how = ("exact lattice-point reduction + exact tail limit" if res.certified
               else "numerical window maximisation (grid + golden section) + exact tail limit")
        return comb_tight_result(res, Delta, EVERY_REAL_SHIFT, how)

    def scipy(self):
        """The frozen ``scipy.stats`` object (``arete_proofs.stats.lattice_laplace`` or ``lattice_gauss``, float64)."""
        from .. import stats

        a, m, s, h = self._floats()
        return getattr(stats, self.name)(a, m, s, h)

    # -- sampling, shares -------------------------------------------------------------------
    def _smooth(self, g, s, n, shape):
        if self.kernel == "laplace":
            return g.gamma(1.0 / n, s, shape) - g.gamma(1.0 / n, s, shape)
        return g.normal(0.0, s / np.sqrt(n), shape)

    def sample(self, size=None, rng=None):
        self.check_size("sample")
        from ..mechanisms import sampling

        a, m, s, h = self._floats()
        g = sampling.generator(rng)
        shape = () if size is None else ((size,) if isinstance(size, int) else tuple(size))
        x = h * nb_lattice_draw(g, a, m, 1, shape, a_top=self._top()) + self._smooth(g, s, 1, shape)
        return float(x) if size is None else x

    def shares(self, n):
        self.check_size("sample")
        from ..mechanisms import sampling as _s

        n = _s._count(n, "n")
        a, m, s, h = self._floats()
        v = float(self.var(digits=17))
        smooth = (f"Gamma(1/n, {s:g}) - Gamma(1/n, {s:g})" if self.kernel == "laplace" else f"N(0, {s:g}^2/n)")

        def draw(g, shape):
            return h * nb_lattice_draw(g, a, m, n, shape, a_top=self._top()) + self._smooth(g, s, n, shape)

        def sum_law(c):
            c = _s._count(c, "contributors")
            k = c / n
            exact = (lambda digits: float(self.mean_abs(digits=digits or 15))) if k == 1 else None
            text = f"{k:g} x ({self!r})"
            if k != 1 and self.kernel == "gauss" and self._top() is None:   # NB(k) weights: E|N| from the pmf table
                from ..privacy.lattice_dropout import mean_abs as _ma

                exact = lambda digits, k=k: _ma(a, m, s, h, k)
                text = (f"{h:g} sum_i i (NB({k:g}, 1 - e^-{a:g}) - NB({k:g}, 1 - e^-{a:g})) + N(0, {k:g} x {s:g}^2)"
                        " (E|N| float64)")
            return LatticeSum(k, text, k * v, exact)

        top = "" if self._top() is None else f" (scale i = m: 1 - e^-{self._top():g})"
        return Shares(self, n, f"{h:g} sum_i i (NB(1/n, 1 - e^-{a:g}) - NB(1/n, 1 - e^-{a:g})){top} + " + smooth,
                      draw, sum_law)


def _neg(x, dps):
    """``-x`` parsed at the law's precision (not the ambient one: a decimal string stays exact)."""
    with mp.workdps(dps):
        return -mp.mpf(x)


def _round(x, d):
    from .._validation import GUARD_DIGITS

    with mp.workdps(d + GUARD_DIGITS):
        return +x


class LatticeLaplaceNoise(LatticeNoise):
    r""":math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)` (Theorem 21 of Harrison and Manurangsi 2025).

    >>> from mpmath import mp
    >>> z = LatticeLaplaceNoise(a=5, m=8, b="0.0625", h="0.125")
    >>> S2 = mp.mpf(8 * 9 * 17) / 6          # Theorem 21: Var = h^2 [S2(m)/(cosh(eps - 1) - 1) + 1/2]
    >>> mp.almosteq(z.var(digits=20), mp.mpf("0.125") ** 2 * (S2 / (mp.cosh(5) - 1) + mp.mpf(1) / 2), 1e-13)
    True
    """

    name = "lattice_laplace"
    title = "lattice + Laplace: h sum_{i=1}^m i DLap(a) + Laplace(b)"
    reference = "Harrison & Manurangsi (FORC 2025), Theorem 21 (a = eps - 1, m = ceil(e^{eps/3}), h = 2b = Delta/m)"
    parameters = (
        Parameter("a", "positive", "DLap rate a > 0 of the lattice part", bounds=RATE_BOUNDS),
        Parameter("m", "integer", "number of scales m >= 1", bounds=SIZE_BOUNDS),
        Parameter("b", "positive", "Laplace scale b > 0 of the smoothing", bounds=SCALE_BOUNDS),
        Parameter("h", "positive", "lattice step h > 0 (Theorem 21: Delta/m)", bounds=SCALE_BOUNDS),
    )
    kernel = "laplace"
    scale_name = "b"
    supports = LatticeNoise.supports | {"certify"}

    def certify(self, Delta=1, *, digits=12, target=None, tol=None, workers=1, numeric=True, max_seconds=1200,
                progress=False):
        r"""Certified enclosure of :math:`\varepsilon^*` over every real shift (:func:`arete_proofs.certified.combs_lattice.certify_lattice_laplace`).

        The exact lattice-point reduction in ball arithmetic; ``upper - lower < 10^-digits``
        (``tol``, ``workers``, ``max_seconds``, ``progress``: accepted for the interface).

        >>> r = LatticeLaplaceNoise(a=2, m=1, b="0.25", h=1).certify(Delta=1, digits=8, numeric=False)
        >>> r.upper <= 3                     # Theorem 21's proof: max_s min(s/b, a + (1-s)/b) = 3
        True
        """
        self.check_size("certify")
        from ..certified.combs_lattice import certify_lattice_laplace

        p = self._params
        r = certify_lattice_laplace(p["a"], int(self.value("m")), p["b"], p["h"], Delta, digits=digits)
        if numeric:
            r.numeric = float(self.tight_epsilon(Delta, digits=min(digits, 15)).epsilon)
        r.target = None if target is None else float(target)
        return r

    def _check(self, values):
        if not values["h"] / values["b"] > values["a"] / values["m"]:
            raise ValueError("b must be < h m / a (h/b > a/m): otherwise the Laplace tail dominates the comb's")

    @classmethod
    def theorem21(cls, eps, Delta=1):
        """Theorem 21's noise for target ``eps`` (>= 2) and sensitivity ``Delta``."""
        from ..distributions.lattice import theorem21_parameters

        a, m, b, h = theorem21_parameters(eps, Delta)
        return cls(a=a, m=m, b=b, h=h)
