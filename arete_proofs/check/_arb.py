"""python-flint balls from exact rationals, and the working precision (the checker's only ``arb`` helpers).

>>> from fractions import Fraction
>>> with prec(64):
...     b = ball(Fraction(1, 3))
...     encloses = (3 * b).contains(1)      # the ball holds 1/3 exactly
>>> encloses and float(b.rad()) < 1e-18
True
"""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction


def ball(q):
    """The ``arb`` ball of the exact rational ``q`` (a Fraction, int or exact decimal string)."""
    from flint import arb, fmpq

    q = Fraction(q)
    return arb(fmpq(q.numerator, q.denominator))


@contextmanager
def prec(bits):
    """Run with python-flint's working precision at ``bits``."""
    from flint import ctx

    old = ctx.prec
    ctx.prec = int(bits)
    try:
        yield
    finally:
        ctx.prec = old


def rational(x, name):
    """``x`` (an int, or a string "p/q" or a decimal) as an exact Fraction, or ValueError naming ``name``."""
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise ValueError(f"{name} must be an exact rational (an int or a string), got {x!r}")
    try:
        return Fraction(x)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{name} must be an exact rational, got {x!r}") from None
