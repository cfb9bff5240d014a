"""Input validation and the digits contract shared by every numeric module.

Every public numeric function of :mod:`arete_proofs` takes its working precision
explicitly as ``digits=`` (significant decimal digits wanted in the result) or,
when ``digits`` is ``None``, from mpmath's global context (``mpmath.mp.dps``).
Parameters are converted *at the working precision*: a decimal string such as
``"0.1"`` is parsed exactly to that precision, never through a binary float.

Bad input raises :class:`ValueError` naming the parameter; a result whose
digits cannot be guaranteed raises :class:`PrecisionError`.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal, InvalidOperation
from fractions import Fraction

import mpmath
from mpmath import mp

__all__ = [
    "PrecisionError",
    "MAX_DIGITS",
    "GUARD_DIGITS",
    "TIME_BUDGET",
    "deadline",
    "check_deadline",
    "resolve_digits",
    "to_mpf",
    "positive",
    "in_closed_range",
    "finite_real",
    "real",
    "exact_point",
    "floor_point",
]

#: Largest number of significant digits a caller may ask for.  The quadratures take
#: about a minute per point at 1000 digits (:data:`TIME_BUDGET` bounds them); asking
#: for more is treated as a usage error rather than a silent hang.
MAX_DIGITS = 1000

#: Guard digits carried by internal computations beyond what the caller asked for.
GUARD_DIGITS = 10

#: Wall-clock seconds one quadrature call (a batch of points at one parameter set) may take
#: before it gives up with :class:`PrecisionError` instead of running on (the last resort
#: against extreme inputs such as ``digits=1000``, which take minutes per point).  ``None``
#: disables the budget.  Read at call time, so it can be changed at run time.
TIME_BUDGET = 60.0


class PrecisionError(ArithmeticError):
    """The requested number of correct digits could not be certified.

    Raised instead of returning a number whose digits have not been earned
    (for example when a quadrature does not converge within its budget).
    """


def deadline():
    """The ``time.monotonic()`` value at which a quadrature started now must stop (or ``None``)."""
    import time

    return None if TIME_BUDGET is None else time.monotonic() + TIME_BUDGET


def check_deadline(when, what: str) -> None:
    """Raise :class:`PrecisionError` when the deadline ``when`` (from :func:`deadline`) has passed."""
    import time

    if when is not None and time.monotonic() > when:
        raise PrecisionError(
            f"{what} did not finish within the time budget of {TIME_BUDGET:g} s "
            "(arete_proofs._validation.TIME_BUDGET); ask for fewer digits")


def resolve_digits(digits, name: str = "digits") -> int:
    """Return the number of significant digits to deliver.

    ``None`` means "the current mpmath context", i.e. ``mpmath.mp.dps``.

    >>> resolve_digits(30)
    30
    >>> resolve_digits(0)
    Traceback (most recent call last):
      ...
    ValueError: digits must be an integer between 1 and 1000, got 0
    """
    if digits is None:
        return int(mp.dps)
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral):
        raise ValueError(
            f"{name} must be an integer between 1 and {MAX_DIGITS}, got {digits!r}"
        )
    digits = int(digits)
    if not 1 <= digits <= MAX_DIGITS:
        raise ValueError(
            f"{name} must be an integer between 1 and {MAX_DIGITS}, got {digits}"
        )
    return digits


def to_mpf(value, name: str):
    """Convert ``value`` to an mpmath ``mpf`` at the *current* working precision.

    Accepts ``int``, ``float``, ``str`` (decimal or scientific notation, parsed
    exactly to the working precision), :class:`fractions.Fraction`,
    :class:`decimal.Decimal`, ``mpf`` and numpy scalars.  Strings such as
    ``"inf"`` or ``"nan"`` are converted and left to the caller's range checks.

    >>> from mpmath import mp
    >>> with mp.workdps(40):
    ...     x = to_mpf("0.1", "x")
    ...     x == mp.mpf(1) / 10
    True
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    try:
        if isinstance(value, mpmath.mpf):
            return +value  # round to the working precision
        if isinstance(value, Fraction):
            return mp.mpf(value.numerator) / value.denominator
        if isinstance(value, Decimal):
            return mp.mpf(str(value))
        if isinstance(value, str):
            text = value.strip()
            if not text:
                raise ValueError
            return mp.mpf(text)
        if isinstance(value, numbers.Integral):
            return mp.mpf(int(value))
        if isinstance(value, numbers.Real):
            return mp.mpf(float(value))
        if isinstance(value, (mpmath.mpc, complex, numbers.Complex)):
            raise ValueError
    except (ValueError, TypeError, ZeroDivisionError):
        pass
    raise ValueError(f"{name} must be a real number, got {value!r}")


def real(value, name: str):
    """Convert to ``mpf``; NaN is rejected, infinities are allowed."""
    x = to_mpf(value, name)
    if mp.isnan(x):
        raise ValueError(f"{name} must not be NaN")
    return x


def finite_real(value, name: str):
    """Convert to ``mpf``; NaN and infinities are rejected."""
    x = real(value, name)
    if mp.isinf(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x


def positive(value, name: str):
    """Convert to ``mpf`` and require ``0 < value < inf``.

    >>> positive("-1", "alpha")
    Traceback (most recent call last):
      ...
    ValueError: alpha must be positive, got '-1'
    """
    x = finite_real(value, name)
    if x <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    return x


def in_closed_range(x, lo: str, hi: str) -> bool:
    """Whether the ``mpf`` ``x`` lies in ``[lo, hi]`` (decimal strings), with a relative slack of 1e-15 so that the
    same value parsed at another precision stays inside.

    >>> in_closed_range(mp.mpf("1e-12") * (1 - mp.mpf("1e-20")), "1e-12", "1e12"), in_closed_range(mp.mpf(2), "0", "1")
    (True, False)
    """
    with mp.workdps(max(mp.dps, 30)):
        slack = mp.mpf("1e-15")
        return mp.mpf(lo) * (1 - slack) <= x <= mp.mpf(hi) * (1 + slack)


def exact_point(x, name: str = "t"):
    r"""A point ``x`` (int, float, decimal string, ``"p/q"``, Fraction, mpf) as an exact ``Fraction``, or ``+-inf``
    (an mpf); ``ValueError`` naming ``name`` when it is no real number.  Exact: ``"1e300"`` is :math:`10^{300}`
    (parsing it at a working precision would move a far integer point by :math:`10^{285}`).

    >>> exact_point("1e20") == 10 ** 20, exact_point("-1/2"), exact_point("-inf"), exact_point(mp.mpf(-2.5))
    (True, Fraction(-1, 2), mpf('-inf'), Fraction(-5, 2))
    """
    try:
        if isinstance(x, bool):
            raise ValueError
        if isinstance(x, str):
            text = x.strip()
            if "/" in text:
                return Fraction(text)
            try:
                d = Decimal(text)
            except InvalidOperation:
                raise ValueError from None
            if d.is_nan():
                raise ValueError
            return (mp.inf if d > 0 else -mp.inf) if d.is_infinite() else Fraction(d)
        if isinstance(x, (mp.mpf, float)) and not mp.isfinite(x):
            if mp.isnan(x):
                raise ValueError
            return mp.inf if x > 0 else -mp.inf
        if isinstance(x, mp.mpf):
            man, exp = x.man_exp            # |x| = man 2^exp (the mantissa carries no sign)
            q = Fraction(int(man)) * Fraction(2) ** int(exp)
            return -q if x < 0 else q
        if isinstance(x, (numbers.Rational, float)):
            return Fraction(x)
        raise ValueError
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{name} must be a real number, got {x!r}") from None


def floor_point(x, name: str = "t"):
    r""":math:`\lfloor x\rfloor` of a point read exactly (:func:`exact_point`; an ``int``), or ``+-inf`` (an mpf).

    >>> floor_point("2.5"), floor_point("-0.5"), floor_point("1e20") == 10 ** 20, floor_point("inf")
    (2, -1, True, mpf('+inf'))
    """
    v = exact_point(x, name)
    return math.floor(v) if isinstance(v, Fraction) else v


def integer_sensitivity(Delta, name: str = "Delta") -> int:
    """``Delta`` as an int at least 1 (a noise on the integers), else a one-line ``ValueError``.

    >>> integer_sensitivity("3"), integer_sensitivity(2.0)
    (3, 2)
    >>> integer_sensitivity(0.5)
    Traceback (most recent call last):
      ...
    ValueError: Delta must be an integer >= 1 for a noise on the integers, got 0.5
    """
    try:
        ok = not isinstance(Delta, bool) and mp.mpf(Delta) == int(mp.mpf(Delta)) and int(mp.mpf(Delta)) >= 1
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an integer >= 1 for a noise on the integers, got {Delta!r}")
    return int(mp.mpf(Delta))


def digits_to_prec(digits: int) -> int:
    """Binary precision (bits) that holds ``digits`` decimal digits."""
    return int(math.ceil(digits * math.log2(10))) + 4


#: Extra digits used when *parsing* parameters, so that a decimal string is
#: represented far more accurately than the result needs (the densities'
#: condition numbers grow like |t|/theta in the tails).
PARSE_DIGITS = 30


def parse_precision(d: int) -> int:
    """Decimal digits at which parameters are parsed for a ``d``-digit result."""
    return d + GUARD_DIGITS + PARSE_DIGITS


#: Largest number of extra working digits :func:`exponent_digits` grants: an exponent
#: ``|t/theta|`` above ``10**MAX_EXPONENT_DIGITS`` would make the working precision grow
#: with the exponent of ``t`` (a point ``1e9999999999`` asked for 10^10 digits and ran out of
#: memory); such an input is refused with a :class:`ValueError` instead.  At 3000 extra
#: digits a density still takes about a second.
MAX_EXPONENT_DIGITS = 3000


def exponent_digits(*scales) -> int:
    """Extra working digits needed when an exponent of size ``|s|`` is formed.

    ``exp(-x/theta)`` with ``x/theta = 1e6`` turns a relative error ``u`` of the
    exponent into a relative error ``1e6 u`` of the result; this returns
    ``ceil(log10(max |s|))`` (at least 0) to compensate.  More than
    :data:`MAX_EXPONENT_DIGITS` is refused (the point ``t`` or a parameter is too extreme).

    >>> exponent_digits(1, 0.5)
    0
    >>> exponent_digits(1e6)
    6
    >>> exponent_digits(mp.mpf("1e9999999999"))
    Traceback (most recent call last):
      ...
    ValueError: t (or a scale parameter) is too extreme: |t/scale| = 1.0e+9999999999 would need 9999999999 extra working digits (at most 3000: |t/scale| <= 1e3000)
    """
    m = 0
    for s in scales:
        s = abs(s)
        if s > 1 and not mp.isinf(s):
            m = max(m, int(mp.ceil(mp.log10(s))))
            if m > MAX_EXPONENT_DIGITS:
                raise ValueError(
                    f"t (or a scale parameter) is too extreme: |t/scale| = {mp.nstr(s, 3)} would need {m} "
                    f"extra working digits (at most {MAX_EXPONENT_DIGITS}: |t/scale| <= 1e{MAX_EXPONENT_DIGITS})")
    return m
