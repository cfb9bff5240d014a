r"""Exact draws of the integer noise families and of their :math:`n`-party shares, from the laws' structure.

Each family is a signed, scaled sum of independent one-sided laws, each drawn by exact inversion
(:class:`~.inversion.InversionSampler`, one table per law, cached):

=======================  =========================================================================
family                   one draw (``n`` parties: the share; ``n = 1``: the noise itself)
=======================  =========================================================================
``gdl`` (``dlap``)       :math:`N_1 - N_2`, :math:`N_i \sim \mathrm{NB}(\beta/n, 1 - e^{-a})`
``msdlap``               :math:`\sum_{i=1}^m i\,(N_{i,1} - N_{i,2})`, :math:`N_{i,j} \sim \mathrm{NB}(1/n, 1 - e^{-a})`
``lattice_skellam``      :math:`h \cdot` (the ``msdlap`` share) :math:`+ P_1 - P_2`, :math:`P_j \sim \mathrm{Poisson}(\mu/n)`
``discrete_staircase``   :math:`S\,|X|`, :math:`|X|` by inversion of its law, :math:`S = \pm 1` one fair bit
=======================  =========================================================================

These are the definitions of the laws (GDL and MSDLap: Harrison and Manurangsi 2025, Section 4
and Theorem 16; NB shapes and Poisson means add, so the :math:`n` shares sum to the noise), so the
draws are exact whenever each part is; the sign of the staircase is exact because its law is
symmetric (:math:`P(X = k) = P(|X| = |k|)/2` for :math:`k \ne 0`).  Integer arithmetic only: the
parts are ``int64`` and combined with integer additions and multiplications.

``size``: ``None`` (one draw, an ``int``), an int or a shape; ``rng``: a bit source (:mod:`.bits`).

>>> import random
>>> x = gdl(1, "0.5", 100_000, random.Random(1))                  # DLap(0.5): Var = 1/(cosh a - 1)
>>> bool(abs(x.var() * (1.1276259652063807 - 1) - 1) < 0.03)
True
>>> s = gdl_shares(2, 1, 10, (50_000, 10), random.Random(2)).sum(axis=1)   # 10 shares: GDL(2, 1)
>>> bool(abs(s.var() * (1.5430806348152437 - 1) / 2 - 1) < 0.03)
True
"""

from __future__ import annotations

import math
import numbers
from collections import OrderedDict
from fractions import Fraction

import numpy as np

from .bits import bit_source
from .inversion import InversionSampler
from .laws import NegativeBinomial, Poisson, StaircaseMagnitude, exact_rational

__all__ = ["sampler", "gdl", "gdl_shares", "msdlap_shares", "lattice_skellam_shares", "discrete_staircase",
           "shape_of"]

_CACHE: OrderedDict = OrderedDict()
#: Tables kept (least recently used dropped first).
CACHE_SIZE = 64


def sampler(law, *, fast_bits: int = 64) -> InversionSampler:
    """The (cached) :class:`~.inversion.InversionSampler` of ``law``.

    >>> from fractions import Fraction
    >>> sampler(NegativeBinomial(1, 1)) is sampler(NegativeBinomial(Fraction(1), Fraction(1)))
    True
    """
    key = (law.key, fast_bits)
    s = _CACHE.get(key)
    if s is None:
        s = InversionSampler(law, fast_bits=fast_bits)
        _CACHE[key] = s
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return s


def shape_of(size) -> tuple:
    """``size`` (``None``, an int >= 0 or a tuple of them) as a shape (``()`` for one draw).

    >>> shape_of(None), shape_of(3), shape_of((2, 5))
    ((), (3,), (2, 5))
    """
    if size is None:
        return ()
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        size = (size,)
    if not isinstance(size, tuple) or not all(isinstance(d, numbers.Integral) and not isinstance(d, bool)
                                              and d >= 0 for d in size):
        raise ValueError(f"size must be None, an int >= 0 or a tuple of them, got {size!r}")
    return tuple(int(d) for d in size)


def _parties(n) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be an integer >= 1 (the number of parties), got {n!r}")
    return int(n)


def _finish(x, shape):
    return int(x.reshape(-1)[0]) if shape == () else x.reshape(shape)


#: Words drawn at once (32 MB of uint64): bounds the memory of a large request.
_WORDS = 1 << 22


def _differences(s: InversionSampler, count: int, k: int, src) -> np.ndarray:
    """``(k, count)`` int64 array of differences of two independent draws of ``s``."""
    out = np.empty((k, count), dtype=np.int64)
    step = max(1, _WORDS // (2 * k))
    for c0 in range(0, count, step):
        c = min(step, count - c0)
        w = s.from_words(s._words(2 * k * c, src), src).reshape(2 * k, c)
        out[:, c0:c0 + c] = w[:k] - w[k:]
    return out


def gdl_shares(beta, a, n, size=None, rng=None):
    r"""Shares :math:`\mathrm{GDL}(\beta/n, a) = \mathrm{NB}(\beta/n) - \mathrm{NB}(\beta/n)` (``n = 1``: GDL itself), int64.

    >>> import random
    >>> z = gdl_shares(1, 1, 3, (60_000, 3), random.Random(4)).sum(axis=1)     # 3 shares: DLap(1)
    >>> bool(abs(z.var() * (1.5430806348152437 - 1) - 1) < 0.04)             # Var = 1/(cosh a - 1)
    True
    """
    n = _parties(n)
    b = exact_rational(beta, "beta")
    s = sampler(NegativeBinomial(b / n, a))
    shape = shape_of(size)
    src = bit_source(rng)
    count = math.prod(shape)
    return _finish(_differences(s, count, 1, src)[0], shape)


def gdl(beta, a, size=None, rng=None):
    r""":math:`\mathrm{GDL}(\beta, a)` draws (int64; one draw: an ``int``).

    >>> import random
    >>> isinstance(gdl("0.5", "0.7", None, random.Random(1)), int)
    True
    """
    return gdl_shares(beta, a, 1, size, rng)


def msdlap_shares(a, m, n, size=None, rng=None, *, a_top=None):
    r"""Shares :math:`\sum_{i=1}^m i\,(\mathrm{NB}(1/n) - \mathrm{NB}(1/n))` at :math:`1 - e^{-a}` (``n = 1``: MSDLap(a, m)).

    >>> import random
    >>> x = msdlap_shares(1, 2, 1, 100_000, random.Random(5))            # Theorem 16: Var = 5/(cosh a - 1)
    >>> bool(abs(x.var() * (1.5430806348152437 - 1) / 5 - 1) < 0.03)
    True
    """
    n = _parties(n)
    if isinstance(m, bool) or not isinstance(m, numbers.Integral) or m < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    m = int(m)
    shape = shape_of(size)
    src = bit_source(rng)
    count = math.prod(shape)
    s = sampler(NegativeBinomial(Fraction(1, n), a))
    weights = np.arange(1, m + 1, dtype=np.int64)
    out = np.zeros(count, dtype=np.int64)
    for i0 in range(0, m, 64):                      # 64 scales at a time bounds the memory
        k = min(64, m - i0)
        out += weights[i0:i0 + k] @ _differences(s, count, k, src)
    return _finish(out, shape)


def lattice_skellam_shares(a, m, mu, h, n, size=None, rng=None):
    r"""Shares :math:`h\sum_i i\,(\mathrm{NB}(1/n) - \mathrm{NB}(1/n)) + \mathrm{Poisson}(\mu/n) - \mathrm{Poisson}(\mu/n)`.

    >>> import random
    >>> x = lattice_skellam_shares(2, 1, "0.5", 3, 1, 100_000, random.Random(6))   # Var = h^2/(cosh a - 1) + 2 mu
    >>> bool(abs(x.var() / (9 / (3.7621956910836314 - 1) + 1) - 1) < 0.03)
    True
    """
    n = _parties(n)
    if isinstance(h, bool) or not isinstance(h, numbers.Integral) or h < 1:
        raise ValueError(f"h must be an integer >= 1, got {h!r}")
    shape = shape_of(size)
    src = bit_source(rng)
    count = math.prod(shape)
    lattice = np.asarray(msdlap_shares(a, m, n, (count,), src), dtype=np.int64)
    p = sampler(Poisson(exact_rational(mu, "mu") / n))
    return _finish(int(h) * lattice + _differences(p, count, 1, src)[0], shape)


def discrete_staircase(eps, Delta, r, size=None, rng=None):
    r"""The discrete staircase :math:`DSC(r, \Delta)` at level :math:`\varepsilon`: a fair sign times :math:`|X|`.

    >>> import random
    >>> x = discrete_staircase(1, 1, 1, 100_000, random.Random(7))        # Delta = 1: DLap(eps)
    >>> bool(abs(x.var() * (1.5430806348152437 - 1) - 1) < 0.03), int(x.min()) < 0 < int(x.max())
    (True, True)
    """
    shape = shape_of(size)
    src = bit_source(rng)
    count = math.prod(shape)
    s = sampler(StaircaseMagnitude(eps, Delta, r))
    mag = np.concatenate([s.from_words(s._words(min(_WORDS, count - c0), src), src)
                          for c0 in range(0, count, _WORDS)] or [np.zeros(0, dtype=np.int64)])
    nbytes = (count + 7) // 8
    sign = np.unpackbits(np.frombuffer(src.bits(8 * nbytes).to_bytes(nbytes, "little"), dtype=np.uint8))[:count]
    return _finish(np.where(sign.astype(bool), mag, -mag), shape)
