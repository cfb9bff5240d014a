r"""Secure aggregation end to end: shares designed for a target epsilon under dropouts, exact shares, the guarantee.

The protocol (:mod:`arete_proofs.mechanisms.modular`): each of :math:`n` parties holds an integer
:math:`x_i \in [0, \Delta]` and sends :math:`(x_i + Z_i) \bmod q`; the server adds what it receives in
:math:`\mathbb Z_q` and decodes the residue in a window :math:`[w, w + q)`.  This module

1. **designs** the shares (:func:`design`): the noise :math:`\mathrm{GDL}(\beta, a)` of least
   :math:`E|N|` whose exact tight epsilon at sensitivity :math:`\Delta` is at most the target
   (:func:`arete_proofs.privacy.optimize_discrete.optimize_gdl`; ``noise="dlap"``: :math:`\beta = 1`,
   :math:`a = \varepsilon/\Delta`), split for the *fewest* parties that may remain: with a tolerated
   dropout fraction :math:`f`, up to :math:`k = \lfloor f n\rfloor` parties may drop, so each party adds
   :math:`\mathrm{GDL}(\beta/(n-k), a)` (Harrison and Manurangsi 2025: negative binomial shapes add).
   With :math:`j \le k` dropouts the survivors' noise is :math:`\mathrm{GDL}((n-j)\beta/(n-k), a)`: the
   designed noise plus an independent GDL, so its tight epsilon is at most the designed one
   (post-processing);
2. **guarantees** (:func:`guarantee`): the exact tight epsilon of the survivors' law
   (:func:`arete_proofs.privacy.tight_gdl.tight_epsilon`), and of the released residue's law, the wrapped
   law :math:`p_q(r) = \sum_j p(r + jq)` -- exact by :func:`~arete_proofs.mechanisms.modular.modular_tight_epsilon`
   for :math:`q \le` :data:`~arete_proofs.mechanisms.modular.MAX_EXACT_Q`, else an enclosure
   (:func:`wrapped_epsilon_bounds`); :math:`E|N|`; the exact probability that decoding wraps around;
3. **simulates** rounds with exact shares (:func:`simulate_rounds`, :mod:`arete_proofs.mechanisms.exact`):
   the empirical error, the wrap-arounds, the share draws per second.

:func:`aggregate` does all three and returns one JSON-ready report (``arete aggregate``).

>>> d = design(8, 1000, "0.1", noise="dlap", modulus=2**32)
>>> d.tolerated, d.min_survivors, d.share                      # each party: GDL(1/900, 8)
(100, 900, 'GDL(1/900, 8)')
>>> g = guarantee(d, digits=10)
>>> float(g.epsilon), float(guarantee(d, dropped=0, digits=10).epsilon)   # beta >= 1: eps* = a Delta
(8.0, 8.0)
>>> r = simulate_rounds(d, 20, rng=1)
>>> r.draws, r.wraps, bool(r.mean_abs_error < 0.01)
(18000, 0, True)
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from mpmath import mp

from .._validation import GUARD_DIGITS, resolve_digits
from . import modular as _mod

__all__ = ["AggregationDesign", "Guarantee", "Rounds", "design", "guarantee", "simulate_rounds",
           "wrapped_epsilon_bounds", "wrap_probability", "aggregate", "parse_modulus", "MAX_MODULUS"]

#: The largest modulus (residues and their sums stay in int64).
MAX_MODULUS = 1 << 62
#: The largest target epsilon and sensitivity :func:`design` takes (the optimiser's and the tables' range).
MAX_EPSILON, MAX_SENSITIVITY = 100, 10_000
#: The least epsilon / sensitivity: a decay :math:`a` below it needs more than 2^20 table entries.
MIN_DECAY = Fraction(1, 1000)


class _Law:
    """GDL(beta, a) through the closed forms of DLap when beta = 1 (fast at small a), else the GDL engine."""

    def __init__(self, beta, a):
        from ..distributions import dlap, gdl

        self.one = beta == 1
        self.mod, self.args = (dlap, (a,)) if self.one else (gdl, (beta, a))

    def __getattr__(self, name):      # pmf, logpmf, cdf, sf (a point first), mean_abs, var
        fn = getattr(self.mod, name)
        if name in ("mean_abs", "var"):
            return lambda *, digits: fn(*self.args, digits=digits)
        return lambda k, *, digits: fn(k, *self.args, digits=digits)
NOISES = ("gdl", "dlap")


def parse_modulus(q) -> int:
    """The modulus from an int or a text ``"4294967296"``, ``"2**32"`` or ``"2^32"`` (2 <= q <= 2**62).

    >>> parse_modulus("2**32"), parse_modulus("2^16"), parse_modulus(97)
    (4294967296, 65536, 97)
    """
    import re

    if isinstance(q, str):
        m = re.fullmatch(r"\s*(\d+)\s*(?:(?:\*\*|\^)\s*(\d+))?\s*", q)
        if not m or (m.group(2) is not None and int(m.group(2)) > 62):
            raise ValueError(f"modulus must be an integer such as 4294967296 or 2**32 (at most 2**62), got {q!r}")
        q = int(m.group(1)) ** (int(m.group(2)) if m.group(2) is not None else 1)
    if isinstance(q, bool) or not isinstance(q, (numbers.Integral, np.integer)) or not 2 <= q <= MAX_MODULUS:
        raise ValueError(f"modulus must be an integer with 2 <= q <= 2**62, got {q!r}")
    return int(q)


def _fraction(v, name, *, lo=None, hi=None, strict_hi=False):
    try:
        x = Fraction(str(v).strip()) if not isinstance(v, (Fraction, numbers.Rational)) else Fraction(v)
    except (ValueError, ZeroDivisionError, TypeError):
        raise ValueError(f"{name} must be a number, got {v!r}") from None
    if (lo is not None and x < lo) or (hi is not None and (x >= hi if strict_hi else x > hi)):
        if hi is None:
            raise ValueError(f"{name} must be >= {lo}, got {v!r}")
        if lo is None:
            raise ValueError(f"{name} must be {'<' if strict_hi else '<='} {hi}, got {v!r}")
        raise ValueError(f"{name} must be in [{lo}, {hi}{')' if strict_hi else ']'}, got {v!r}")
    return x


def _text(x) -> str:
    """A Fraction as a decimal string when it is one, else 'p/q'."""
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 1000
        s = format(Decimal(x.numerator) / Decimal(x.denominator), "f")
    return s.rstrip("0").rstrip(".") if "." in s else s


@dataclass(frozen=True)
class AggregationDesign:
    r"""Shares for ``parties`` parties, ``tolerated`` of whom may drop: each adds :math:`\mathrm{GDL}(\beta/m, a)`, :math:`m` = ``min_survivors``.

    ``beta``, ``a``: the noise of :math:`m` shares, exact rationals; ``how``: where they come from.

    >>> d = design(2, 10, "0.3", noise="dlap")
    >>> d.min_survivors * d.share_beta == d.beta              # m shares GDL(beta/m, a) sum to GDL(beta, a)
    True
    """

    noise: str
    epsilon_target: Any
    parties: int
    dropout: Any
    tolerated: int
    min_survivors: int
    Delta: int
    modulus: int
    beta: Any
    a: Any
    how: str

    @property
    def share_beta(self):
        return self.beta / self.min_survivors

    @property
    def share(self) -> str:
        r"""The law :math:`\mathrm{GDL}(\beta/m, a)` of one party's share."""
        b = _text(self.beta)
        b = ("1" if b == "1" else b) + (f"/{self.min_survivors}" if self.min_survivors > 1 else "")
        return f"GDL({b}, {_text(self.a)})"

    def survivors_beta(self, dropped: int):
        r"""The shape of the survivors' noise when ``dropped`` parties drop: :math:`(n - j)\beta/m`."""
        return (self.parties - dropped) * self.beta / self.min_survivors

    @property
    def window(self) -> int:
        """The start of the decoding window, centred on the range :math:`[0, m\\Delta]` of the survivors' sum."""
        return (self.min_survivors * self.Delta) // 2 - self.modulus // 2


def design(epsilon, parties, dropout=0, *, noise="gdl", Delta=1, modulus=1 << 32) -> AggregationDesign:
    r"""The shares of ``noise`` (``gdl``: least :math:`E|N|` at the target; ``dlap``: :math:`a = \varepsilon/\Delta`) for a tolerated ``dropout`` fraction.

    >>> d = design(8, 10, "0.2", noise="dlap")
    >>> d.share, d.survivors_beta(0)                  # 8 survivors at worst; all 10: GDL(10/8, 8)
    ('GDL(1/8, 8)', Fraction(5, 4))
    """
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {', '.join(NOISES)} (the integer noises whose shares and "
                         f"wrapped law the library computes exactly), got {noise!r}")
    eps = _fraction(epsilon, "epsilon")
    if eps <= 0:
        raise ValueError(f"epsilon must be positive, got {epsilon!r}")
    if isinstance(parties, bool) or not isinstance(parties, numbers.Integral) or parties < 1:
        raise ValueError(f"parties must be an integer >= 1, got {parties!r}")
    if isinstance(Delta, bool) or not isinstance(Delta, numbers.Integral) or Delta < 1:
        raise ValueError(f"Delta (the sensitivity) must be an integer >= 1, got {Delta!r}")
    if eps > MAX_EPSILON:
        raise ValueError(f"epsilon must be at most {MAX_EPSILON}, got {epsilon!r}")
    if Delta > MAX_SENSITIVITY:
        raise ValueError(f"Delta (the sensitivity) must be at most {MAX_SENSITIVITY}, got {Delta!r}")
    if eps / Delta < MIN_DECAY:
        raise ValueError(f"epsilon / Delta must be at least {MIN_DECAY} (a smaller decay a needs more than 2^20 "
                         f"entries in the exact sampler's table), got {epsilon} / {Delta}")
    f = _fraction(dropout, "dropout", lo=0, hi=1, strict_hi=True)
    n, D = int(parties), int(Delta)
    k = math.floor(f * n)
    if k >= n:
        raise ValueError(f"dropout {dropout} of {n} parties leaves no survivor")
    q = parse_modulus(modulus)
    if noise == "dlap":
        beta, a = Fraction(1), eps / D
        how = "DLap(eps/Delta): eps* = a Delta exactly (arete_proofs.privacy.tight_gdl)"
    elif D == 1:
        beta, a = Fraction(1), eps
        how = ("Delta = 1: DLap(eps) = GDL(1, eps) is the discrete staircase, the least E|N| of any eps-DP "
               "integer noise (Geng and Viswanath 2016), so the least of GDL too")
    else:
        from ..privacy.optimize_discrete import optimize_gdl

        o = optimize_gdl(_text(eps) if "/" not in _text(eps) else mp.mpf(eps.numerator) / eps.denominator, D)
        beta, a = Fraction(o["beta"]), Fraction(o["a"])
        how = ("GDL(beta, a) of least E|N| with exact tight eps <= target "
               "(arete_proofs.privacy.optimize_discrete.optimize_gdl)")
    return AggregationDesign(noise, eps, n, f, k, n - k, D, q, beta, a, how)


def wrapped_epsilon_bounds(beta, a, q, Delta=1, *, digits=12):
    r"""``(lower, upper)`` of the tight epsilon of the wrapped law :math:`p_q` of :math:`\mathrm{GDL}(\beta, a)` modulo ``q``.

    ``upper``: the unwrapped tight :math:`\varepsilon^*` (the residue is a post-processing).  ``lower``: the
    largest of the wrapped loss bounds at the residues :math:`r \in \{0, \lfloor q/4\rfloor\}` and shift
    :math:`\Delta`, :math:`\ln p(r) - \ln(p(r+\Delta) + 2P(N > q - r - \Delta - 1))` (as :math:`p_q(r) \ge p(r)` and
    :math:`p_q(x) \le p(x) + 2P(N \ge q - x)` for :math:`0 \le x \le q/2`; each a value of the loss the
    maximum runs over, so a lower bound of it), to ``digits`` digits.  For :math:`\beta \le 1` the
    supremum is attained at :math:`r = 0` and the two agree to far more than ``digits`` digits for a large
    ``q``; for :math:`\beta > 1` the gap is about :math:`4(\beta - 1)\Delta/q`.

    >>> lo, hi = wrapped_epsilon_bounds("0.5", 1, 2**32, 1)
    >>> bool(lo <= hi) and mp.almosteq(lo, hi, 1e-12)
    True
    """
    from ..privacy import tight_gdl

    d = resolve_digits(digits)
    q = int(q)
    D = int(Delta)
    upper = tight_gdl.tight_epsilon(beta, a, D, digits=d).epsilon
    law = _Law(beta, a)
    best = mp.ninf
    with mp.workdps(d + GUARD_DIGITS):
        for r in sorted({0, q // 4}):
            if 2 * (r + D) > q:
                continue
            up = law.pmf(r + D, digits=d + 5) + 2 * law.sf(q - r - D - 1, digits=d + 5)
            best = max(best, law.logpmf(r, digits=d + 5) - mp.log(up))
    return min(best, upper), upper


def wrap_probability(beta, a, q, true_sum, window, *, digits=12):
    r""":math:`P(T + N \notin [w, w + q)) = P(N \le w - T - 1) + P(N > w + q - T - 1)`, :math:`N \sim \mathrm{GDL}(\beta, a)`.

    As :func:`arete_proofs.mechanisms.modular.wrap_probability`, through DLap's closed forms when :math:`\beta = 1`.

    >>> mp.almosteq(wrap_probability(1, 1, 11, 0, -5), _mod.wrap_probability(1, 1, 11, 0, -5, digits=15))
    True
    """
    d = resolve_digits(digits)
    law = _Law(beta, a)
    w, T = int(window), int(true_sum)
    with mp.workdps(d + GUARD_DIGITS):
        return law.cdf(w - T - 1, digits=d + 2) + law.sf(w + int(q) - T - 1, digits=d + 2)


@dataclass(frozen=True)
class Guarantee:
    r"""What holds after ``dropped`` dropouts: the survivors' noise :math:`\mathrm{GDL}(\beta_s, a)` and its exact numbers.

    ``epsilon``: exact tight epsilon of the survivors' law at :math:`\Delta`; ``epsilon_wrapped_lower`` /
    ``epsilon_wrapped_upper``: the wrapped law's (equal, and ``wrapped_exact``, when computed exactly);
    ``wrap_probability``: exact, the largest over the true sums :math:`0` and :math:`m\Delta`;
    ``mean_abs``, ``variance``: of the survivors' noise.

    >>> g = guarantee(design(2, 10, "0.3", noise="dlap", modulus=2**20), digits=10)
    >>> g.survivors, g.epsilon, bool(g.epsilon_wrapped_upper <= g.epsilon)     # DLap(2): eps* = a Delta
    (7, mpf('2.0'), True)
    """

    dropped: int
    survivors: int
    beta: Any
    epsilon: Any
    epsilon_wrapped_lower: Any
    epsilon_wrapped_upper: Any
    wrapped_exact: bool
    wrapped_method: str
    wrap_probability: Any
    mean_abs: Any
    variance: Any
    digits: int = 12
    tight: Any = field(default=None, repr=False)


def guarantee(d: AggregationDesign, dropped=None, *, digits=12, wrapped=True) -> Guarantee:
    r"""The guarantee after ``dropped`` dropouts (default: the tolerated number, the worst case): :class:`Guarantee`.

    The survivors' noise is :math:`\mathrm{GDL}((n - j)\beta/m, a)`; ``wrapped=False`` skips the wrapped law.

    >>> d = design(2, 10, "0.3", noise="dlap", modulus=2**20)
    >>> guarantee(d, dropped=0, wrapped=False).beta            # no dropout: GDL(10/7, 2)
    Fraction(10, 7)
    """
    from ..privacy import tight_gdl

    j = d.tolerated if dropped is None else dropped
    if isinstance(j, bool) or not isinstance(j, numbers.Integral) or not 0 <= j <= d.tolerated:
        raise ValueError(f"dropped must be an integer in [0, {d.tolerated}] (the tolerated dropouts), got {dropped!r}")
    dig = resolve_digits(digits)
    b = d.survivors_beta(int(j))
    tight = tight_gdl.tight_epsilon(b, d.a, d.Delta, digits=dig)
    eps = tight.epsilon
    if not wrapped:
        lo = hi = None
        exact_w, how = False, "not computed"
    elif d.modulus <= _mod.MAX_EXACT_Q:
        lo = hi = _mod.modular_tight_epsilon(b, d.a, d.modulus, d.Delta, digits=dig)
        exact_w, how = True, "exact over every residue and shift (mechanisms.modular.modular_tight_epsilon)"
    else:
        lo, hi = wrapped_epsilon_bounds(b, d.a, d.modulus, d.Delta, digits=dig)
        exact_w = bool(hi - lo <= mp.mpf(10) ** (-dig) * max(1, abs(hi)))
        how = ("enclosure: the unwrapped eps* above, a wrapped loss below (aggregate.wrapped_epsilon_bounds); "
               + ("equal to the digits shown" if exact_w else "not equal to the digits shown"))
    top = d.min_survivors * d.Delta
    wrap = max(wrap_probability(b, d.a, d.modulus, T, d.window, digits=dig) for T in {0, top})
    law = _Law(b, d.a)
    return Guarantee(int(j), d.parties - int(j), b, eps, lo, hi, exact_w, how, wrap,
                     law.mean_abs(digits=dig), law.var(digits=dig), dig, tight)


@dataclass(frozen=True)
class Rounds:
    r"""Simulated rounds: ``errors`` (decoded minus true sum, int64: the noise :math:`N` unless decoding wrapped by a
    multiple of :math:`q`), ``wraps``, ``draws`` (shares drawn), ``seconds`` drawing them, ``draws_per_second``.

    >>> r = simulate_rounds(design(2, 10, 0, noise="dlap", modulus=8), 500, rng=1)
    >>> bool(r.wraps > 0), bool(((r.errors % 8 == 0) | (abs(r.errors) < 8)).all())
    (True, True)
    """

    rounds: int
    dropped: int
    errors: Any
    wraps: int
    draws: int
    seconds: float

    @property
    def mean_abs_error(self) -> float:
        return float(np.abs(self.errors).mean()) if self.errors.size else float("nan")

    @property
    def draws_per_second(self) -> float:
        return self.draws / self.seconds if self.seconds > 0 else float("inf")


def _uniform_below(count, bound, src):
    """``count`` integers uniform on ``[0, bound)`` by rejection on 64-bit words (integers only)."""
    if bound == 1:
        return np.zeros(count, dtype=np.int64)
    limit = (1 << 64) // bound * bound
    out = np.empty(0, dtype=np.uint64)
    while out.size < count:
        w = src.uint64(count - out.size + 16)
        if limit < 1 << 64:
            w = w[w < np.uint64(limit)]
        out = np.concatenate([out, w])
    return (out[:count] % np.uint64(bound)).astype(np.int64)


def simulate_rounds(d: AggregationDesign, rounds, *, dropped=None, rng=None, progress=None) -> Rounds:
    r"""``rounds`` rounds of the protocol with exact shares, ``dropped`` dropouts each (default: the tolerated number).

    Values :math:`x_i` uniform on :math:`\{0, \dots, \Delta\}`; the survivors send :math:`(x_i + Z_i) \bmod q`; the
    server adds the residues modulo :math:`q` and decodes in the design's window.  ``rng``: the bit source
    of the shares and values (:mod:`arete_proofs.mechanisms.exact.bits`); ``progress(done, total)``: called
    after every chunk of rounds.

    >>> r = simulate_rounds(design(1, 20, "0.1", noise="dlap", modulus=2**16), 2000, rng=2)
    >>> bool(abs(r.mean_abs_error - 0.8509) < 0.1)         # E|N| of DLap(1): 1/sinh(1)
    True
    """
    from . import exact

    if isinstance(rounds, bool) or not isinstance(rounds, numbers.Integral) or rounds < 1:
        raise ValueError(f"rounds must be an integer >= 1, got {rounds!r}")
    j = d.tolerated if dropped is None else dropped
    if isinstance(j, bool) or not isinstance(j, numbers.Integral) or not 0 <= j <= d.tolerated:
        raise ValueError(f"dropped must be an integer in [0, {d.tolerated}], got {dropped!r}")
    src = exact.bit_source(rng)
    m, q, w = d.parties - int(j), d.modulus, d.window
    exact.sampler(exact.NegativeBinomial(d.share_beta, d.a))        # the table, before the clock starts
    errors = np.empty(int(rounds), dtype=np.int64)
    wraps, seconds = 0, 0.0
    step = max(1, (1 << 20) // m)
    small = m * q < (1 << 62)
    for r0 in range(0, int(rounds), step):
        r1 = min(int(rounds), r0 + step)
        t0 = time.perf_counter()
        z = exact.gdl_shares(d.beta, d.a, d.min_survivors, ((r1 - r0) * m,), src).reshape(r1 - r0, m)
        seconds += time.perf_counter() - t0
        x = _uniform_below((r1 - r0) * m, d.Delta + 1, src).reshape(r1 - r0, m)
        sent = (x + z) % q                                   # what each survivor sends, in [0, q)
        if small:
            released = sent.sum(axis=1) % q
        else:
            released = np.array([sum(map(int, row)) % q for row in sent], dtype=np.int64)
        decoded = (released - w) % q + w
        truth = x.sum(axis=1)
        errors[r0:r1] = decoded - truth
        wraps += int(np.count_nonzero(decoded != truth + z.sum(axis=1)))
        if progress is not None:
            progress(r1, int(rounds))
    return Rounds(int(rounds), int(j), errors, wraps, int(rounds) * m, seconds)


def _num(x, digits):
    """An mpf as a JSON number with ``digits`` significant digits (no unearned digits in its repr)."""
    return None if x is None else float(mp.nstr(x, digits))


def aggregate(epsilon, parties, dropout=0, *, noise="gdl", Delta=1, modulus=1 << 32, rounds=100, rng=None,
              digits=12, progress=None) -> dict:
    r"""Design, guarantee and simulate (module docstring): one JSON-ready report on the noise :math:`\mathrm{GDL}(\beta, a)`.

    Top-level keys include ``epsilon_target``, ``epsilon_guaranteed`` (exact tight epsilon of the survivors'
    law at the tolerated dropouts), ``mean_abs_error`` (empirical), ``wrap_probability`` (exact) and
    ``draws_per_second``.

    >>> r = aggregate(8, 50, "0.1", noise="dlap", modulus=2**16, rounds=10, rng=3, digits=8)
    >>> r["epsilon_target"], r["epsilon_guaranteed"], r["epsilon_wrapped_exact"], r["rounds"]
    (8.0, 8.0, True, 10)
    """
    from . import exact

    d = design(epsilon, parties, dropout, noise=noise, Delta=Delta, modulus=modulus)
    dig = resolve_digits(digits)
    t0 = time.perf_counter()
    exact.sampler(exact.NegativeBinomial(d.share_beta, d.a))        # a law out of the tables' range fails here
    from ..privacy import tight_gdl

    worst = guarantee(d, digits=dig)
    none = tight_gdl.tight_epsilon(d.survivors_beta(0), d.a, d.Delta, digits=dig).epsilon     # no dropout
    sim = simulate_rounds(d, rounds, rng=rng, progress=progress)
    return {
        "noise": d.noise,
        "epsilon_target": float(d.epsilon_target),
        "epsilon_guaranteed": _num(worst.epsilon, dig),
        "mean_abs_error": sim.mean_abs_error,
        "wrap_probability": _num(worst.wrap_probability, dig),
        "draws_per_second": round(sim.draws_per_second),
        "parties": d.parties,
        "dropout": _text(d.dropout),
        "tolerated_dropouts": d.tolerated,
        "min_survivors": d.min_survivors,
        "sensitivity": d.Delta,
        "modulus": d.modulus,
        "window": [d.window, d.window + d.modulus - 1],
        "design": {"beta": _text(d.beta), "a": _text(d.a), "share": d.share, "how": d.how},
        "survivors_law": f"GDL({_text(worst.beta)}, {_text(d.a)})",
        "epsilon_no_dropout": _num(none, dig),
        "epsilon_wrapped_lower": _num(worst.epsilon_wrapped_lower, dig),
        "epsilon_wrapped_upper": _num(worst.epsilon_wrapped_upper, dig),
        "epsilon_wrapped_exact": worst.wrapped_exact,
        "epsilon_wrapped_method": worst.wrapped_method,
        "exact_mean_abs": _num(worst.mean_abs, dig),
        "exact_variance": _num(worst.variance, dig),
        "rounds": sim.rounds,
        "dropped_per_round": sim.dropped,
        "empirical_wraps": sim.wraps,
        "share_draws": sim.draws,
        "digits": dig,
        "seconds": round(time.perf_counter() - t0, 3),
    }
