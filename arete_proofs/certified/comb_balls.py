r"""Ball-arithmetic pieces of the certified combs (:mod:`arete_proofs.certified.combs`): exact parameters, the comb's poles as balls, the certificate.

``_Comb`` holds the pole constants :math:`B_{c,r}`, the moduli :math:`\rho_c`, the tail profile
:math:`C_r` and the Chernoff constant :math:`E_0 = \tanh(a^*/2)\,E e^{(\lambda+\theta)Y}` as python-flint
balls; :class:`CombCertificate` is the result of
:func:`arete_proofs.certified.combs.certify_comb` and
:func:`arete_proofs.certified.combs_lattice.certify_lattice`.  Balls are written as exact
``"mid +/- rad"`` decimal text that contains them.

>>> from arete_proofs.certified.combs import certify_msdlap
>>> r = certify_msdlap("1.5", 1, 2, digits=10)          # DLap(a): eps* = a Delta exactly
>>> r.contains(3), r.method
(True, 'comb')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

# the comb in balls lives with the distributions (the long pmf windows use it too)
from ..distributions.comb_poles import CombPoles as _Comb  # noqa: F401
from ..distributions.comb_poles import _ball, _max, _precision  # noqa: F401

__all__ = ["CombCertificate"]


# -- exact parameters and ball helpers -----------------------------------------------------------------
def _exact(x, name):
    """``x`` as an exact positive Fraction (:func:`arete_proofs.certified.density.exact_parameter`:
    decimal strings, ints, Fractions, floats and mpf exactly), or a one-line ``ValueError`` naming ``name``."""
    from .density import exact_parameter

    return exact_parameter(x, name)


def _exact_real(x):
    if hasattr(x, "man_exp"):
        man, exp = x.man_exp
        return Fraction(int(man)) * Fraction(2) ** int(exp)
    return Fraction(x.strip() if isinstance(x, str) else x)


def _int(x, name):
    if isinstance(x, bool):
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}")
    try:
        q = Fraction(x.strip() if isinstance(x, str) else x)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}") from None
    if q.denominator != 1 or q < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}")
    return int(q)


def _txt(q):
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _frac(x):
    """The exact value of an exact arb (a dyadic) as a Fraction."""
    man, exp = x.man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _down(x, n):
    """A decimal string <= every point of the ball ``x`` (``n`` significant digits)."""
    return _dec(_frac(x.lower()), n, math.floor)


def _up(x, n):
    return _dec(_frac(x.upper()), n, math.ceil)


def _floor_log10(q) -> int:
    r""":math:`\lfloor\log_{10}|q|\rfloor` of a nonzero rational, exactly (no float: ``q`` may be below 1e-308).

    >>> [_floor_log10(Fraction(x)) for x in ("5", "0.5", "9.9", "10", "1/3", "1e-400")]
    [0, -1, 0, 1, -1, -400]
    """
    q = abs(Fraction(q))
    e = len(str(q.numerator)) - len(str(q.denominator))  # floor(log10 q) is e or e - 1
    return e if q >= Fraction(10) ** e else e - 1


def _dec(q, n, rnd):
    if q == 0:
        return "0"
    q = Fraction(q)
    size = len(str(abs(q.numerator))) - len(str(q.denominator))   # within 1 of log10 |q|, no float involved
    # float64's log10 where q is in its range (the recorded certificates' digits were printed so), exact outside it
    e = (math.floor(math.log10(abs(q))) if -300 < size < 300 else _floor_log10(q)) - n + 1
    scaled = q / Fraction(10) ** e if e >= 0 else q * Fraction(10) ** (-e)
    from decimal import Decimal

    return str(Decimal(rnd(scaled)).scaleb(e))


def _inside(lower, upper, d):
    """A short decimal in [lower_lo, upper_hi]: the midpoint with as many digits as that takes."""
    lo, hi = Fraction(_down(lower, d + 8)), Fraction(_up(upper, d + 8))
    for n in range(d, d + 40):
        x = _dec((lo + hi) / 2, n, round)
        if lo <= Fraction(x) <= hi:
            return x
    return _dec(lo, d + 8, math.ceil)


def _ballstr(x, n=None):
    """``"mid +/- rad"`` decimal text of a ball that contains ``x`` (re-read by ``_readball``)."""
    from flint import ctx

    mid, rad = _frac(x.mid()), _frac(x.rad())
    n = n or int(ctx.prec * 0.30103) + 3
    m = Fraction(_dec(mid, n, round)) if mid else Fraction(0)
    r = rad + abs(mid - m)
    return f"{_dec(m, n, round)} +/- {_dec(r, 3, math.ceil) if r else '0'}"


def _readball(s):
    from flint import arb

    mid, rad = (Fraction(x.strip()) for x in s.split("+/-"))
    R = _ball(rad)
    return _ball(mid) + (-R).union(R) if rad else _ball(mid) + arb(0)


def _default_theta(comb, cap=None):
    """An exact rational theta below the gap (and below ``cap``), chosen for the shortest window."""
    if comb.gap is None:
        return Fraction(0)
    best = None
    for frac in (Fraction(1, 4), Fraction(2, 5), Fraction(11, 20), Fraction(7, 10), Fraction(17, 20)):
        th = comb.gap * frac
        if cap is not None:
            th = min(th, cap)
        E = float(comb.E0(th).mid())
        size = (math.log(max(E, 1e-300)) + 60) / float(th)
        if best is None or size < best[0]:
            best = (size, th)
    return _simple(best[1])


def _simple(th):
    """A short rational <= th (keeps the certificate readable)."""
    for den in (10, 100, 1000, 10_000, 10 ** 6):
        s = Fraction(math.floor(th * den), den)
        if s > 0 and s >= th * Fraction(9, 10):
            return s
    return th


# -- the certificate ---------------------------------------------------------------------------------------
class _CertificateReport:
    """What the CLI reads of a certified enclosure, beside ``upper``, ``numeric``, ``target``,
    ``params`` and ``Delta`` (shared by :class:`CombCertificate` and the lattice_gauss cover's result)."""

    @property
    def gap(self):
        return None if self.numeric is None else self.upper - self.numeric

    @property
    def meets_target(self):
        return self.target is not None and self.upper <= self.target

    @property
    def exact_parameters(self):
        """The parameters as exact rationals and ``Delta`` (the CLI's ``exact_parameters``)."""
        return {**self.params, "Delta": self.Delta}


@dataclass
class CombCertificate(_CertificateReport):
    r"""A certified enclosure :math:`\varepsilon^* \in [\mathrm{lower}, \mathrm{upper}]` (module docstring).

    ``lower``/``upper`` are floats rounded outward (``lo``/``hi`` the decimal strings); ``kind``:
    ``"comb"`` or ``"lattice_laplace"``; ``params``: the exact parameters; ``window``: ``K'`` and ``K``
    (comb) or ``n0`` and ``T`` (lattice); ``tail``: :math:`\theta`, :math:`\eta`, the profile
    :math:`C_r`; ``tail_limit``/``window_max``: balls as text; ``candidates``: the best window pairs.
    The attributes ``t_star``, ``method``, ``argument``, ``numeric``, ``target`` follow
    :class:`arete_proofs.certified.epsilon.EpsilonCertificate`.

    >>> from arete_proofs.certified.combs import certify_msdlap
    >>> r = certify_msdlap("1.5", 1, 2, digits=10)          # DLap(a): eps* = a Delta exactly
    >>> r.contains(3), r.upper - r.lower < 1e-10
    (True, True)
    """

    kind: str
    params: dict
    Delta: str
    digits: int
    prec: int
    lo: str
    hi: str
    window: dict
    tail: dict
    tail_limit: str
    tail_pair: list
    window_max: str
    candidates: list
    epsilon: str = ""
    seconds: float = 0.0
    numeric: float | None = None
    target: float | None = None
    argument: str = ""
    history: list = field(default_factory=list)

    @property
    def lower(self):
        f = float(Fraction(self.lo))
        return f if Fraction(f) <= Fraction(self.lo) else math.nextafter(f, -math.inf)

    @property
    def upper(self):
        f = float(Fraction(self.hi))
        return f if Fraction(f) >= Fraction(self.hi) else math.nextafter(f, math.inf)

    @property
    def method(self):
        return self.kind

    @property
    def t_star(self):
        """The best window pair, or ``None`` when the tail limit is the supremum."""
        return None if not self.candidates or self.candidates[0][0] == "tail" else self.candidates[0][1]

    T = property(lambda self: self.window.get("T"))
    tail_bound = property(lambda self: self.tail.get("eta"))

    def contains(self, x):
        """Whether the exact value ``x`` (decimal string, int, Fraction or mpf) lies in ``[lo, hi]``."""
        q = _exact_real(x)
        return Fraction(self.lo) <= q <= Fraction(self.hi)

    def to_json(self):
        """A JSON-ready dict (a deep copy): everything :func:`arete_proofs.certified.combs.check` needs to recompute and compare."""
        import copy

        return copy.deepcopy({"kind": self.kind, "params": self.params, "Delta": self.Delta, "digits": self.digits,
                "prec": self.prec, "lower": self.lo, "upper": self.hi, "epsilon": self.epsilon,
                "window": self.window, "tail": self.tail, "tail_limit": self.tail_limit,
                "tail_pair": self.tail_pair, "window_max": self.window_max, "candidates": self.candidates,
                "argument": self.argument})

    def to_dict(self):
        """The :class:`~arete_proofs.certified.epsilon.EpsilonCertificate`-style dict (CLI)."""
        d = self.to_json()
        d.update(upper_float=self.upper, lower_float=self.lower, seconds=self.seconds, numeric=self.numeric,
                 target=self.target, gap=self.gap, method=self.method,
                 meets_target=self.meets_target if self.target is not None else None)
        return d



def _comb_parts(weights, rates):
    w = tuple(_int(x, "weight") for x in weights)
    a = tuple(_exact(x, "a") for x in rates)
    if len(w) != len(a) or not w:
        raise ValueError("weights and rates must be non-empty and of the same length")
    return w, a


def _digits(digits):
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 200:
        raise ValueError(f"digits must be an integer in 1..200, got {digits!r}")
    return digits
