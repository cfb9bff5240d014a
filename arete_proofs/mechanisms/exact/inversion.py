r"""Exact inversion of a law on :math:`\{0, 1, 2, \dots\}` from fair bits and certified CDF enclosures.

**The method.**  Let :math:`F_i = P(X \le i)` and let :math:`V \in [0, 1)` be uniform, given by its
binary expansion: fair bits :math:`b_1 b_2 \dots` from the caller's ``rng``.  Then
:math:`X = \min\{i : V < F_i\}` has the law of :math:`X` (inversion).  Only finitely many bits of
:math:`V` are ever read: after :math:`L` bits, :math:`V \in [A 2^{-L}, (A+1) 2^{-L})`, and

* :math:`F_i \le A 2^{-L}` proves :math:`V \ge F_i` (so :math:`X > i`);
* :math:`F_i \ge (A+1) 2^{-L}` proves :math:`V < F_i` (so :math:`X \le i`);

where the comparisons use *certified* enclosures :math:`\underline F_i \le F_i \le \overline F_i`
(arb balls of python-flint: the pmf of each law is an arb series, :mod:`.laws`).  When neither
holds, the next 32 bits of :math:`V` are drawn and :math:`F_i` is recomputed 32 bits more precisely;
since :math:`V \ne F_i` almost surely, this ends with probability one, and every decision is a
proof, so the output has *exactly* the law of :math:`X` -- no rounding of the parameters (an
:math:`e^{-a}` is an arb ball, refined on demand) and no float touching a random value.

**The fast path** (:class:`InversionSampler`).  A table built once holds
:math:`C^-_i = \lfloor 2^{K}\underline F_i\rfloor` and :math:`C^+_i = \lceil 2^{K}\overline F_i\rceil`
(:math:`K = 64`) for :math:`i < T`, where :math:`T` is the first index with
:math:`1 - \underline F_{T-1} \le 2^{-40}`.  A draw reads one 64-bit word :math:`U` (the first 64 bits
of :math:`V`) and does one integer ``searchsorted``: with :math:`i = \#\{j : C^-_j \le U\}`, the draw
is decided as :math:`X = i` when :math:`i < T` and :math:`C^+_{i-1} \le U` (then
:math:`F_{i-1} \le U 2^{-K} \le V` and :math:`V < (U+1) 2^{-K} \le F_i`).  The other words -- a
boundary of the table (probability about :math:`T \cdot 2^{-63}`) or the tail beyond :math:`T`
(probability :math:`\le 2^{-40}`) -- continue on the lazy path above, from the same :math:`U`.
All of it is numpy integer arithmetic on ``uint64``.

>>> import random
>>> from fractions import Fraction
>>> from .laws import NegativeBinomial
>>> s = InversionSampler(NegativeBinomial(Fraction(1), Fraction(1)))     # Geo(1 - e^-1) on {0, 1, ...}
>>> x = s.sample(100_000, random.Random(1))
>>> x.dtype.name, bool(abs(x.mean() - 1 / (2.718281828 - 1)) < 0.02)   # E X = e^-a / (1 - e^-a)
('int64', True)
>>> small = InversionSampler(NegativeBinomial(Fraction(1), Fraction(1)), fast_bits=6)   # a 6-bit table: many lazy draws
>>> y = small.sample(20_000, random.Random(2))
>>> small.slow_draws > 0, bool(abs(y.mean() - 0.582) < 0.03)
(True, True)
"""

from __future__ import annotations

import numpy as np

from .bits import bit_source

__all__ = ["CertifiedLaw", "InversionSampler", "dyadic_bounds", "require_flint"]

#: The table stops where the certified tail mass falls below 2^-TAIL_BITS.
TAIL_BITS = 40
#: Largest table (entries); a law with a longer body takes the lazy path beyond it.
MAX_TABLE = 1 << 20
#: A law whose table of MAX_TABLE entries leaves more than 2^-COVER_BITS of the mass uncovered is refused
#: (its draws would mostly take the slow lazy path): a one-line ValueError instead of a run without end.
COVER_BITS = 20
#: Bits of V beyond which the lazy path gives up (a broken bit source or a bug, never a fair source: the
#: probability of needing L more bits is about 2^-L per boundary).
MAX_BITS = 1 << 14


def require_flint():
    """python-flint's module, or an ``ImportError`` in one line naming the extra.

    >>> require_flint().__name__
    'flint'
    """
    try:
        import flint
    except ImportError:
        raise ImportError("exact sampling needs python-flint (certified CDF enclosures): "
                          "pip install 'arete-proofs[exact]' (float64 draws for experiments: sample_float)") from None
    return flint


class CertifiedLaw:
    r"""A law on :math:`\{0, 1, \dots\}` given by arb enclosures of its pmf (subclasses: :mod:`.laws`).

    ``pmf_balls(n, prec)``: the balls of :math:`p_0, \dots, p_{n-1}` computed at ``prec`` bits; ``key``:
    hashable, equal for equal laws (the sampler cache); ``describe()``: one line.

    >>> from .laws import Poisson
    >>> p = Poisson(1).pmf_balls(3, 64)                     # e^-1 (1, 1, 1/2)
    >>> (p[2] * 2 - p[0]).contains(0)
    True
    """

    key: tuple = ()

    def pmf_balls(self, n: int, prec: int) -> list:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


def dyadic_bounds(ball) -> tuple[int, int, int, int]:
    r"""``(m_lo, e_lo, m_hi, e_hi)`` with :math:`m_{lo} 2^{e_{lo}} \le x \le m_{hi} 2^{e_{hi}}` for every ``x`` in the arb ``ball``.

    >>> from flint import arb
    >>> m, e, M, E = dyadic_bounds(arb(1) / 3)
    >>> m * 2.0**e <= 1 / 3 <= M * 2.0**E
    True
    """
    if not ball.is_finite():
        raise ArithmeticError(f"an enclosure is not finite: {ball}")
    m1, e1 = (int(v) for v in ball.mid().man_exp())       # the exact midpoint and radius (no rounding)
    m2, e2 = (int(v) for v in ball.rad().man_exp())
    if m1 == 0:
        e1 = e2
    if m2 == 0:
        e2 = e1
    e = min(e1, e2)
    c, r = m1 << (e1 - e), m2 << (e2 - e)
    return c - r, e, c + r, e


def _scaled_floor(m, e, K):
    """floor(m 2^e 2^K) (an exact integer)."""
    s = e + K
    return m << s if s >= 0 else m >> -s        # >> floors, also for negative m


def _scaled_ceil(m, e, K):
    s = e + K
    return m << s if s >= 0 else -((-m) >> -s)


def _le(m, e, n, L) -> bool:
    r""":math:`m 2^e \le n 2^{-L}` exactly."""
    s = e + L
    return (m << s) <= n if s >= 0 else m <= (n << -s)


class InversionSampler:
    r"""Exact sampler of a :class:`~arete_proofs.mechanisms.exact.inversion.CertifiedLaw` (module docstring): a table of 64-bit CDF bounds, then lazy bits.

    ``fast_bits``: the bits :math:`K \le 64` of the table's words (fewer only in tests, to exercise the
    lazy path); ``tail_bits``: where the table stops; ``slow_draws``: how many draws took the lazy path.

    >>> from .laws import NegativeBinomial
    >>> s = InversionSampler(NegativeBinomial(1, 2))        # Geo(1 - e^-2): F_0 = 1 - e^-2
    >>> from mpmath import mp
    >>> with mp.workdps(40):                                # 2^64 F_0 at 40 digits lies between the bounds
    ...     bool(int(s.C_lo[0]) <= (1 - mp.exp(-2)) * 2**64 <= int(s.C_hi[0]))
    True
    """

    def __init__(self, law: CertifiedLaw, *, fast_bits: int = 64, tail_bits: int = TAIL_BITS,
                 max_table: int = MAX_TABLE):
        if isinstance(fast_bits, bool) or not isinstance(fast_bits, int) or not 1 <= fast_bits <= 64:
            raise ValueError(f"fast_bits must be an integer in [1, 64], got {fast_bits!r}")
        require_flint()
        self.law = law
        self.K = fast_bits
        self.slow_draws = 0
        self._balls: dict[int, list] = {}      # prec -> CDF balls F_0, F_1, ... (the lazy path)
        lo, hi = self._table(tail_bits, max_table)
        self._balls.clear()                     # the lazy path recomputes what it needs (rarely): keep memory small
        self.T = len(lo)
        self.C_lo = np.array(lo, dtype=np.uint64)
        self.C_hi = np.array(hi, dtype=np.uint64)
        # hi_prev[i] = C_hi[i-1] (0 for i = 0): the test "F_{i-1} <= U 2^-K" of a draw with index i
        self.hi_prev = np.concatenate([np.zeros(1, np.uint64), self.C_hi])
        self.lo0 = int(lo[0]) if lo else 0

    # -- the table ---------------------------------------------------------------------------
    def _table(self, tail_bits, max_table):
        K = self.K
        prec = K + 64
        n = 64
        while True:
            F = self._cdf_balls(prec, n)
            lo, hi, stop = [], [], None
            for i, ball in enumerate(F):
                m, e, M, E = dyadic_bounds(ball)
                c_lo = max(0, _scaled_floor(m, e, K))
                c_hi = _scaled_ceil(M, E, K)
                if c_hi >= 1 << 64:                 # an upper bound >= 1 with 64-bit words: stop the table here
                    stop = i
                    break
                lo.append(c_lo)
                hi.append(max(c_hi, 0))
                if not _le(m, e, (1 << tail_bits) - 1, tail_bits) or len(lo) >= max_table:
                    stop = i + 1                    # F_i >= 1 - 2^-tail_bits (certified), or the cap
                    break
            if stop is not None or n >= max_table:
                break
            n *= 4
        if lo and len(lo) >= max_table and _le(m, e, (1 << COVER_BITS) - 1, COVER_BITS):
            raise ValueError(f"{self.law.describe()}: the first {max_table} values carry less than 1 - 2^-{COVER_BITS} "
                             "of the mass; the exact sampler's table cannot cover this law (a decay a or a rate "
                             "this small is out of its range)")
        for i in range(len(lo) - 2, -1, -1):       # monotone bounds (both still valid: F is nondecreasing)
            lo[i] = min(lo[i], lo[i + 1])
        for i in range(1, len(hi)):
            hi[i] = max(hi[i], hi[i - 1])
        return lo, hi

    def _cdf_balls(self, prec, n):
        """The CDF balls F_0..F_{n-1} at ``prec`` bits (cached; recomputed when more are needed)."""
        have = self._balls.get(prec)
        if have is None or len(have) < n:
            from flint import ctx

            with ctx.workprec(prec):
                terms = self.law.pmf_balls(n, prec)
                out, acc = [], None
                for t in terms:
                    acc = t if acc is None else acc + t
                    out.append(acc)
            self._balls[prec] = have = out
        return have

    # -- drawing -----------------------------------------------------------------------------
    def _words(self, n, src):
        u = src.uint64(n)
        return u if self.K == 64 else u >> np.uint64(64 - self.K)

    def from_words(self, U: np.ndarray, src) -> np.ndarray:
        """The draws whose first :math:`K` bits of :math:`V` are the words ``U`` (lazy bits from ``src``), int64."""
        if self.T and self.lo0 >= 1 << (self.K - 1):
            # P(X = 0) >= 1/2 (the shares of a large n): U < C_lo[0] decides X = 0, search the others only
            out = np.zeros(U.shape, dtype=np.int64)
            sel = np.flatnonzero(U >= np.uint64(self.lo0))
            if sel.size:
                out[sel] = self._search(U[sel], src)
            return out
        return self._search(U, src)

    def _search(self, u, src):
        i = np.searchsorted(self.C_lo, u, side="right")
        ok = self.hi_prev[np.minimum(i, self.T)] <= u
        ok &= i < self.T
        bad = np.flatnonzero(~ok)
        if bad.size:
            start = np.searchsorted(self.C_hi, u[bad], side="right")   # every j < start has F_j <= V
            for j, i0 in zip(bad.tolist(), start.tolist()):
                i[j] = self._lazy(int(u[j]), int(i0), src)
        return i.astype(np.int64, copy=False)

    def sample(self, n: int, rng=None) -> np.ndarray:
        """``n`` independent exact draws (int64) with bits from ``rng`` (module docstring of :mod:`.bits`)."""
        src = bit_source(rng)
        return self.from_words(self._words(n, src), src)

    def _lazy(self, A: int, i: int, src) -> int:
        """The draw with :math:`V \\in [A 2^{-L}, (A+1) 2^{-L})`, :math:`L = K`, knowing :math:`F_j \\le V` for :math:`j < i`."""
        self.slow_draws += 1
        L = self.K
        while True:
            prec = L + 64
            F = self._cdf_balls(prec, max(64, 2 * (i + 1)))
            while i < len(F):
                m, e, M, E = dyadic_bounds(F[i])
                if _le(M, E, A, L):                 # F_i <= A 2^-L <= V
                    i += 1
                elif _ge(m, e, A + 1, L):
                    return i                        # V < (A+1) 2^-L <= F_i
                else:
                    break                           # undecided: more bits of V, more precision
            else:
                continue                            # past the balls computed: compute more
            if L >= MAX_BITS:
                raise RuntimeError(f"exact inversion of {self.law.describe()} read {L} bits of one uniform "
                                   "without a decision: the bit source is not uniform")
            A = (A << 32) | src.bits(32)
            L += 32


def _ge(m, e, n, L) -> bool:
    r""":math:`m 2^e \ge n 2^{-L}` exactly."""
    s = e + L
    return (m << s) >= n if s >= 0 else m >= (n << -s)
