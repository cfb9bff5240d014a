r"""The :math:`n`-party decomposition of an infinitely divisible noise: :class:`Shares`.

A noise :math:`Z` is infinitely divisible when, for every :math:`n`, it is the sum of
:math:`n` independent copies of some share :math:`S_n`.  In a distributed sum each party
adds one share sized for :math:`n_{\min}` parties; with :math:`m \ge n_{\min}` contributors
the released noise is the :math:`m/n_{\min}`-th convolution power of :math:`Z`, at least
the designed noise (the sum of :math:`n_{\min}` shares plus independent noise:
post-processing).  :class:`Shares` carries the share's law, a sampler of it and the law of
the sum for any number of contributors.

>>> from arete_proofs.noise import make
>>> s = make("laplace", lam="0.5").shares(10)
>>> s.n, s.sum_law(20).k, s.sum_law(20).var() == 2 * (2 * 0.5**2)      # two designed noises
(10, 2.0, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Shares", "gamma_shares"]


@dataclass(frozen=True)
class Shares:
    r"""The shares of ``noise`` for ``n`` parties.

    ``description``: the law of one share; ``draw(g, shape)``: an array of independent shares
    (a numpy ``Generator`` ``g``: the float64 path); ``sum_law(m)``: the law of the sum of ``m`` shares
    (``k = m/n`` times the designed noise: ``k``, ``description``, ``mean_abs(digits)`` -- ``None`` where
    no exact value is available -- and ``var()``).  Lemma 10: the sum of ``n`` shares is the noise.
    ``exact_draw(count, src)`` (integer families): ``count`` independent shares drawn exactly from the
    bit source ``src`` (:mod:`arete_proofs.mechanisms.exact`); then :meth:`sample` is exact and
    :meth:`sample_float` keeps the float64 path.

    >>> import numpy as np
    >>> from arete_proofs.noise import make
    >>> s = make("arete", alpha="0.2", theta=1, lam="0.1").shares(20)
    >>> z = s.sample(50_000, rng=3, summed=True)          # sums of 20 shares
    >>> bool(abs(z.var() - 0.42) < 5 * np.sqrt((12 * 0.2 + 12e-4 + 2 * 0.42**2) / z.size))   # Var = 2 a th^2 + 2 lam^2
    True
    """

    noise: Any
    n: int
    description: str
    draw: Callable
    sum_law: Callable
    sampler: Callable | None = None
    exact_draw: Callable | None = None

    @property
    def exact(self) -> bool:
        """Whether :meth:`sample` draws exactly from fair bits (an integer family's shares)."""
        return self.exact_draw is not None

    def sample(self, size=None, rng=None, *, parties=None, summed=False):
        """Shares for ``parties`` (default ``n``) parties: shape ``(size, parties)``, or row sums with ``summed``.

        Exact (int64, ``rng``: an object with ``getrandbits(k)`` or an int seed) for an integer family's
        shares; otherwise float64 as :meth:`sample_float`.
        """
        if self.exact_draw is not None:
            return self._sample_exact(size, rng, parties, summed)
        return self.sample_float(size, rng, parties=parties, summed=summed)

    def _sample_exact(self, size, rng, parties, summed):
        from ..mechanisms import sampling as _s
        from ..mechanisms.exact import bit_source

        m = self.n if parties is None else _s._count(parties, "parties")
        sz = _s._size(size)
        if sz is not None and len(sz) != 1:
            raise ValueError(f"size must be None or an int (number of rows), got {size!r}")
        src = bit_source(rng)
        rows = 1 if sz is None else sz[0]
        if not summed:
            out = self.exact_draw(rows * m, src).reshape(rows, m)
            return out[0] if sz is None else out
        acc = np.zeros(rows, dtype=np.int64)
        step = max(1, _s._CHUNK // m)
        for r0 in range(0, rows, step):
            r1 = min(rows, r0 + step)
            for c0 in range(0, m, _s._CHUNK):
                c = min(_s._CHUNK, m - c0)
                acc[r0:r1] += self.exact_draw((r1 - r0) * c, src).reshape(r1 - r0, c).sum(axis=1)
        return int(acc[0]) if sz is None else acc

    def sample_float(self, size=None, rng=None, *, parties=None, summed=False):
        """float64-path shares (numpy ``Generator``, an int seed or ``None``): for experiments only.

        A family may route this through its own sampler (``sampler``, e.g.
        :func:`arete_proofs.mechanisms.sampling.shares` for Lemma 10's shares).
        """
        from ..mechanisms import sampling as _s

        if self.sampler is not None:
            return self.sampler(size, rng, parties=parties, summed=summed)

        m = self.n if parties is None else _s._count(parties, "parties")
        sz = _s._size(size)
        if sz is not None and len(sz) != 1:
            raise ValueError(f"size must be None or an int (number of rows), got {size!r}")
        g = _s.generator(rng)
        rows = 1 if sz is None else sz[0]
        if not summed:
            out = self.draw(g, (rows, m))
            return out[0] if sz is None else out
        acc = np.zeros(rows)
        cols = min(m, _s._CHUNK)
        step = max(1, _s._CHUNK // cols)
        for r0 in range(0, rows, step):
            r1 = min(rows, r0 + step)
            for c0 in range(0, m, cols):
                acc[r0:r1] += self.draw(g, (r1 - r0, min(cols, m - c0))).sum(axis=1)
        return float(acc[0]) if sz is None else acc


@dataclass(frozen=True)
class _GammaSum:
    """Law of a sum of Gamma differences (and a Gaussian part): ``k`` designed noises."""

    components: tuple
    sigma: float
    k: float
    description: str
    exact: Callable | None
    digits: int = 12

    def mean_abs(self, digits=None):
        """Exact :math:`E|N|` as a float at ``digits`` (default: the family's), or ``None``."""
        return None if self.exact is None else self.exact(self.digits if digits is None else digits)

    def var(self) -> float:
        return float(sum(2.0 * a * s * s for a, s in self.components) + self.sigma ** 2)


def gamma_shares(noise, n, components, description, *, sigma=0.0, exact_mean_abs=None, describe_sum=None,
                 digits=12):
    r"""Shares :math:`\sum_c (\Gamma(a_c/n, s_c) - \Gamma(a_c/n, s_c)) + \mathcal N(0, \sigma^2/n)`.

    ``components``: the designed noise's Gamma-difference parts :math:`(a_c, s_c)` (Laplace(lam) is
    :math:`(1, \lambda)`); ``exact_mean_abs(k, digits)``: :math:`E|N|` of ``k`` designed noises,
    or ``None`` (then the sum's ``mean_abs`` is the characteristic-function integral of
    :func:`arete_proofs.mechanisms.cf_mean_abs` without a Gaussian part, ``None`` with one);
    ``describe_sum(k)``: the text of the sum's law; ``digits``: the sum's default digits of
    :math:`E|N|`.
    The draws are those of :func:`arete_proofs.mechanisms.distributed_sum` (one Gamma pair per
    component in order, then the Gaussian part).  Lemma 10's Laplace shares:

    >>> from arete_proofs.noise import make
    >>> s = gamma_shares(make("laplace", lam=1), 4, [(1.0, 1.0)], "Gamma(1/n, 1) - Gamma(1/n, 1)")
    >>> s.sum_law(8).k, s.sum_law(8).var()              # 8 shares for 4 parties: twice Laplace(1)
    (2.0, 4.0)
    """
    from ..mechanisms import sampling as _s
    from ..mechanisms.shares import _draw_shares, cf_mean_abs

    n = _s._count(n, "n")
    comps = [(float(a), float(s)) for a, s in components]
    sd = float(sigma) / math.sqrt(n) if sigma else 0.0

    def draw(g, shape):
        out = _draw_shares(g, comps, n, shape)
        if sd > 0:
            out += g.normal(0.0, sd, shape)
        return out

    def sum_law(m):
        m = _s._count(m, "contributors")
        k = m / n
        kc = tuple((k * a, s) for a, s in comps)
        if exact_mean_abs is not None:
            def exact(digits, k=k):
                return exact_mean_abs(k, digits)
        elif not sigma:
            def exact(digits, kc=kc):
                return cf_mean_abs(kc, digits=digits)
        else:
            exact = None
        text = describe_sum(k) if describe_sum is not None else (
            f"{k:g} x ({noise!r}) = " + " + ".join(f"GammaGamma({a:g}, {s:g})" for a, s in kc)
            + (f" + N(0, {k * float(sigma) ** 2:g})" if sigma else ""))
        return _GammaSum(kc, math.sqrt(k) * float(sigma), k, text, exact, digits)

    share = description + (f" + N(0, {float(sigma):g}^2/n)" if sigma else "")
    return Shares(noise, n, share, draw, sum_law)
