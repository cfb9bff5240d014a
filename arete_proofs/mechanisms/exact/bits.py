r"""Bit sources of the exact samplers: any object with ``getrandbits(k)``, checked once and on every call.

The exact samplers take their randomness as *bits*, never as floats: ``rng`` is an object with a
``getrandbits(k)`` method returning a uniform integer in :math:`[0, 2^k)`, as
``secrets.SystemRandom`` (the operating system's CSPRNG, the default) and ``random.Random``
(a seeded Mersenne Twister: reproducible, for tests and experiments, not for a release) have.  An int
``rng`` is a seed for ``random.Random``.  :class:`BitSource` wraps it and hands out

* :meth:`BitSource.uint64` -- an array of independent uniform 64-bit integers (one
  ``getrandbits(64 n)`` call, its bytes read as little-endian ``uint64``: integers throughout);
* :meth:`BitSource.bits` -- one uniform integer of ``k`` bits (the lazy refinements).

Every answer of ``getrandbits`` is checked: an integer in :math:`[0, 2^k)`, else a one-line
``ValueError`` naming ``rng``.

>>> import random
>>> src = BitSource(random.Random(1))
>>> u = src.uint64(4)
>>> u.dtype.name, u.shape, 0 <= src.bits(5) < 32
('uint64', (4,), True)
>>> BitSource(7).uint64(2).tolist() == BitSource(random.Random(7)).uint64(2).tolist()    # an int seeds random.Random
True
>>> BitSource(object())
Traceback (most recent call last):
...
ValueError: rng must have a getrandbits(k) method (secrets.SystemRandom(), random.Random(seed)) or be an int seed, got object
"""

from __future__ import annotations

import numbers
import random
import secrets

import numpy as np
from numpy.random import Generator as _NumpyGenerator

__all__ = ["BitSource", "bit_source"]

#: Largest number of 64-bit words asked of ``getrandbits`` at once (8 MB).
_WORDS = 1 << 20


def _name(obj) -> str:
    return type(obj).__name__


class BitSource:
    """A checked ``getrandbits`` source (module docstring); ``rng=None`` is ``secrets.SystemRandom``.

    >>> src = BitSource(5)
    >>> src.bits(3) < 8, src.drawn
    (True, 3)
    """

    __slots__ = ("rng", "drawn")

    def __init__(self, rng=None):
        if rng is None:
            rng = secrets.SystemRandom()
        elif isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
            if rng < 0:
                raise ValueError(f"rng must be a non-negative int seed or an object with getrandbits(k), got {rng!r}")
            rng = random.Random(int(rng))
        if isinstance(rng, _NumpyGenerator):
            raise ValueError("rng must have a getrandbits(k) method (secrets.SystemRandom(), random.Random(seed)) "
                             "or be an int seed, got a numpy Generator (numpy's generators serve sample_float)")
        if not callable(getattr(rng, "getrandbits", None)):
            raise ValueError("rng must have a getrandbits(k) method (secrets.SystemRandom(), random.Random(seed)) "
                             f"or be an int seed, got {_name(rng)}")
        self.rng = rng
        #: bits drawn so far (for the benchmarks and the tests of the lazy path)
        self.drawn = 0

    def bits(self, k: int) -> int:
        """A uniform integer in :math:`[0, 2^k)` (checked)."""
        try:
            x = self.rng.getrandbits(k)
        except Exception as exc:  # a broken source is a bad argument, reported in one line
            raise ValueError(f"rng.getrandbits({k}) failed: {' '.join(str(exc).split()) or _name(exc)}") from None
        if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < 0 or int(x).bit_length() > k:
            raise ValueError(f"rng.getrandbits({k}) must return an integer in [0, 2^{k}), got {_short(x)}")
        self.drawn += k
        return int(x)

    def uint64(self, n: int) -> np.ndarray:
        """``n`` independent uniform 64-bit integers (``uint64``), from ``getrandbits(64 n)`` in chunks."""
        out = np.empty(n, dtype=np.uint64)
        for i in range(0, n, _WORDS):
            m = min(_WORDS, n - i)
            out[i:i + m] = np.frombuffer(self.bits(64 * m).to_bytes(8 * m, "little"), dtype="<u8")
        return out


def _short(x) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def bit_source(rng=None) -> BitSource:
    """``rng`` as a :class:`BitSource` (a :class:`BitSource` is used as is).

    >>> src = bit_source(3)
    >>> bit_source(src) is src
    True
    """
    return rng if isinstance(rng, BitSource) else BitSource(rng)
