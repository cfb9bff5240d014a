r"""Shared plumbing of the reference methods: argument parsing, the two-run check, quadrature.

Not a method itself.  It implements the *digits contract* and the relative
stopping rule described in :mod:`arete_proofs.reference`:

* :func:`_parse` -- resolve ``digits`` and convert the parameters at
  ``arete_proofs._validation.parse_precision`` (no arithmetic at the caller's
  global precision);
* :func:`_validated` / :func:`_check_agree` -- compute twice, at ``digits + 10``
  and ``digits + 25`` working digits, and raise
  :class:`~arete_proofs._validation.PrecisionError` unless the runs agree to
  ``digits + 2`` digits;
* :func:`_integrate` with the grid helpers :func:`_geometric`, :func:`_pieces_on`,
  :func:`_tail_piece` -- piecewise ``mp.quad`` whose absolute stopping rule is
  made relative by rescaling the integrand with an estimate of the answer.

Like every module of the reference package it imports nothing from
:mod:`arete_proofs.distributions` (only :mod:`arete_proofs._validation`).
"""

from __future__ import annotations

from mpmath import mp

from .._validation import (
    GUARD_DIGITS,
    PrecisionError,
    finite_real,
    parse_precision,
    positive,
    resolve_digits,
)

__all__ = [
    "_RUN_DIGITS",
    "_AGREE_MARGIN",
    "_parse",
    "_abs",
    "_check_agree",
    "_validated",
    "_geometric",
    "_pieces_on",
    "_tail_piece",
    "_integrate",
]


#: Extra working digits of the two validation runs (first, second).
_RUN_DIGITS = (GUARD_DIGITS, GUARD_DIGITS + 15)

#: The two runs agree to ``digits + _AGREE_MARGIN`` digits or PrecisionError.
_AGREE_MARGIN = 2


def _parse(digits, *, t=None, **positives):
    """Resolve ``digits`` and convert the parameters at the parse precision.

    ``t`` (if given) must be a finite real; every keyword in ``positives`` must
    be a positive finite real.  Returns ``(d, t, params_dict)``.
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        tt = None if t is None else finite_real(t, "t")
        out = {name: positive(value, name) for name, value in positives.items()}
    return d, tt, out


def _abs(x, d):
    """``|x|`` without rounding to the caller's (possibly low) global precision."""
    with mp.workdps(parse_precision(d)):
        return abs(x)


def _check_agree(v1, v2, d, what):
    """Raise PrecisionError unless ``v1`` and ``v2`` agree to ``d + margin`` digits."""
    if mp.isinf(v1) or mp.isinf(v2) or mp.isnan(v1) or mp.isnan(v2):
        if v1 == v2 and not mp.isnan(v1):
            return
        raise PrecisionError(f"{what}: runs returned {v1} and {v2}")
    tol = mp.mpf(10) ** (-(d + _AGREE_MARGIN))
    if v2 == 0:
        if v1 == 0:
            return
        raise PrecisionError(f"{what}: runs returned {v1} and 0")
    if abs(v1 - v2) > tol * abs(v2):
        with mp.workdps(d + 5):
            raise PrecisionError(
                f"{what}: the two validation runs disagree beyond {d} digits: "
                f"{mp.nstr(v1, d + 5)} vs {mp.nstr(v2, d + 5)}"
            )


def _validated(compute, d, what, extra=0):
    """Run ``compute(variant)`` inside ``workdps(d + _RUN_DIGITS[variant] + extra)``.

    Returns the second (more precise) result rounded to ``d + GUARD_DIGITS``
    digits after checking it against the first.
    """
    vals = []
    for variant, run_digits in enumerate(_RUN_DIGITS):
        with mp.workdps(d + run_digits + extra):
            vals.append(compute(variant))
    with mp.workdps(d + _RUN_DIGITS[1] + extra):
        _check_agree(vals[0], vals[1], d, what)
    with mp.workdps(d + GUARD_DIGITS):
        return +vals[1]


def _geometric(lo, hi, ratio):
    """``[lo, lo*ratio, lo*ratio^2, ...]`` strictly below ``hi``, then ``hi``."""
    pts = []
    x = lo
    while x < hi:
        pts.append(x)
        x *= ratio
    pts.append(hi)
    return pts


def _pieces_on(F, pts):
    return [(F, pts[i], pts[i + 1]) for i in range(len(pts) - 1) if pts[i] < pts[i + 1]]


def _tail_piece(F, hi, scale):
    """``int_hi^inf F(x) dx`` as ``int_0^inf F(hi + scale v) scale dv``."""
    return (lambda v: F(hi + scale * v) * scale, mp.zero, mp.inf)


def _integrate(pieces, d, what, method="tanh-sinh"):
    """Sum of ``int_a^b F`` over ``pieces = [(F, a, b), ...]`` with a relative stopping rule.

    ``b`` may be ``inf`` (then ``F`` should decay on a scale of about 1).  The
    integrand is divided by an estimate ``S`` of the answer so that mp.quad's
    absolute error criterion becomes a relative one; if the first result is
    below ``1e-6 S`` the integration is repeated with the result as the scale.
    Raises PrecisionError if mp.quad's error estimate exceeds ``10**-(d + 3)``
    relative.  Must be called inside the working precision.
    """
    S = mp.zero
    for F, a, b in pieces:
        if mp.isinf(b):
            xm, w = a + 1, mp.one
        else:
            xm, w = (a + b) / 2, b - a
        S = max(S, abs(F(xm)) * w)
    if S == 0 or mp.isnan(S) or mp.isinf(S):
        raise PrecisionError(f"{what}: could not estimate the size of the integral (got {S})")
    for attempt in range(2):
        total = mp.zero
        err = mp.zero
        for F, a, b in pieces:
            v, e = mp.quad(lambda x: F(x) / S, [a, b], error=True, method=method)
            total += v
            err += e
        if total <= 0 or mp.isnan(total):
            raise PrecisionError(f"{what}: quadrature returned {total * S}")
        if attempt == 0 and total < mp.mpf(10) ** -6:
            # the size estimate was far too large: the absolute stopping rule
            # would cost more than the guard digits.  Rescale and redo.
            S *= total
            continue
        break
    if err > mp.mpf(10) ** (-(d + 3)) * total:
        with mp.workdps(8):
            raise PrecisionError(
                f"{what}: quadrature error estimate {mp.nstr(err / total, 3)} (relative) "
                f"exceeds 1e-{d + 3}"
            )
    return total * S
