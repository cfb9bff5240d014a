r"""Helpers shared by the certificates: exact float bounds of a ball, constant-ball certificates.

* :func:`_outer` -- exact floats ``lo <= every point of a ball <= hi``;
* :func:`_rational_above` -- an exact rational above a ball;
* :func:`_ball_certificate` -- the certificate of one closed-form ball ``value > 0``
  (no bisection), used for the checked constants of the arguments of Lemma 14 and
  Lemma 19;
* :func:`_identity_failure` -- an undecided certificate that records a failed
  (sympy or point) identity check.

Not a certificate itself; python-flint is imported inside the functions.
"""

from __future__ import annotations

from fractions import Fraction

from ..balls import Certificate

__all__ = [
    "_outer",
    "_rational_above",
    "_ball_certificate",
    "_identity_failure",
]


def _outer(x):
    """Exact floats lo <= every point of the ball x <= hi."""
    from flint import arb

    lo = float(x.lower())
    lo -= abs(lo) * 1e-12 + 1e-300
    hi = float(x.upper())
    hi += abs(hi) * 1e-12 + 1e-300
    if not (arb(lo) < x and arb(hi) > x):
        raise ArithmeticError("could not bound ball by floats")
    return lo, hi


def _rational_above(x):
    """An exact rational >= every point of the ball ``x``."""
    return Fraction(_outer(x)[1])


def _ball_certificate(label, value, statement="", inequality=""):
    """Certificate of one closed-form ball ``value > 0`` (no bisection: a constant).

    The reported "box" is the exact enclosure of the checked quantity, named ``label``.
    """
    lo, hi = _outer(value)
    box = {label: (Fraction(lo), Fraction(hi))}
    if value.lower() > 0:
        return Certificate(statement, inequality, True, [(box, float(value.lower()))], None)
    return Certificate(statement, inequality, False if value.upper() < 0 else None, [], box)


def _identity_failure(label):
    return Certificate("", "", None, [], {f"identity {label}": ("failed", "failed")})
