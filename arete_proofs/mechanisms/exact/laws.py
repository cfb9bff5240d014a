r"""Certified pmf series of the one-sided laws the integer noises are built from (arb balls, python-flint).

Each law is a :class:`~.inversion.CertifiedLaw`: exact rational parameters in, arb enclosures of
:math:`p_0, p_1, \dots` out, by a recurrence whose only irrational inputs are exponentials and
logarithms of the exact rationals (arb encloses them at the working precision; nothing is rounded
to a float).

* :class:`NegativeBinomial` -- :math:`\mathrm{NB}(r, 1 - e^{-a})` (failures before the :math:`r`-th
  success, real :math:`r > 0`): :math:`p_0 = (1 - e^{-a})^r`,
  :math:`p_{k+1} = p_k\,\frac{k + r}{k + 1}\,e^{-a}`.  :math:`r = 1` is the geometric law;
  :math:`\mathrm{NB}(r) - \mathrm{NB}(r)` is :math:`\mathrm{GDL}(r, a)` (Harrison and Manurangsi 2025,
  Definition of GDL), and shapes add, so :math:`n` parties with :math:`\mathrm{NB}(r/n)` each sum to
  :math:`\mathrm{NB}(r)`.
* :class:`Poisson` -- :math:`p_0 = e^{-\mu}`, :math:`p_{k+1} = p_k\,\mu/(k+1)` (the Skellam part of
  ``lattice_skellam``: :math:`\mathrm{Poisson}(\mu/n)` per party).
* :class:`StaircaseMagnitude` -- :math:`|X|` for the discrete staircase :math:`X` of Geng and
  Viswanath (2016): :math:`P(|X| = 0) = A`, :math:`P(|X| = k) = 2A e^{-\varepsilon N(k)}` for
  :math:`k \ge 1`, :math:`N(k) = \lfloor k/\Delta\rfloor + [k \bmod \Delta \ge r]`,
  :math:`A = (1 - b)/(2r + 2b(\Delta - r) - (1 - b))`, :math:`b = e^{-\varepsilon}`.

>>> from fractions import Fraction
>>> from flint import arb
>>> p = NegativeBinomial(Fraction(1, 2), Fraction(1)).pmf_balls(3, 80)
>>> (p[1] / p[0]).overlaps(arb(1) / 2 * arb(-1).exp()), (p[0] - (1 - arb(-1).exp()).sqrt()).contains(0)
(True, True)
>>> s = sum(Poisson(Fraction(3, 2)).pmf_balls(60, 80)); s.contains(1)      # the balls sum to 1 (60 terms, tail < 1e-50)
True
"""

from __future__ import annotations

import numbers
from decimal import InvalidOperation
from fractions import Fraction

from .inversion import CertifiedLaw

__all__ = ["exact_rational", "NegativeBinomial", "Poisson", "StaircaseMagnitude"]


def exact_rational(v, name: str, *, positive: bool = True):
    r"""``v`` (int, Fraction, float, decimal string or mpf) as the exact rational it denotes; ``ValueError`` naming ``name``.

    >>> exact_rational("0.1", "a"), exact_rational(0.5, "a"), exact_rational("1e-3", "a"), exact_rational("11/20", "a")
    (Fraction(1, 10), Fraction(1, 2), Fraction(1, 1000), Fraction(11, 20))
    """
    if isinstance(v, bool) or v is None:
        raise ValueError(f"{name} must be a number, got {v!r}")
    try:
        if isinstance(v, Fraction):
            x = v
        elif isinstance(v, numbers.Rational):
            x = Fraction(int(v.numerator), int(v.denominator))
        elif isinstance(v, str):
            x = Fraction(v.strip())                 # '0.1', '1e-3', '11/20': the rational they denote
        elif hasattr(v, "man_exp"):                  # an mpmath mpf: its exact binary value
            if not (v == v) or abs(v) == float("inf"):
                raise ValueError
            m, e = v.man_exp
            x = Fraction(int(m)) * Fraction(2) ** int(e)
        else:
            x = Fraction(float(v)) if isinstance(v, numbers.Real) else Fraction(v)
    except (TypeError, ValueError, InvalidOperation, OverflowError, ZeroDivisionError):
        raise ValueError(f"{name} must be a finite real number, got {v!r}") from None
    if positive and not x > 0:
        raise ValueError(f"{name} must be positive, got {v!r}")
    return x


def _arb(x):
    from flint import arb, fmpq

    return arb(fmpq(x.numerator, x.denominator))


class NegativeBinomial(CertifiedLaw):
    r""":math:`\mathrm{NB}(r, 1 - e^{-a})` on :math:`\{0, 1, \dots\}` (module docstring), :math:`r, a` exact rationals > 0.

    >>> NegativeBinomial(Fraction(1, 4), Fraction(7, 10)).describe()
    'NB(1/4, 1 - e^-(7/10))'
    """

    def __init__(self, r, a):
        self.r = exact_rational(r, "r")
        self.a = exact_rational(a, "a")
        self.key = ("nb", self.r, self.a)

    def describe(self) -> str:
        return f"NB({self.r}, 1 - e^-({self.a}))"

    def pmf_balls(self, n, prec):
        from flint import arb, ctx, fmpq

        with ctx.workprec(prec):
            na = _arb(-self.a)
            q = na.exp()
            p = -na.expm1()
            t = (_arb(self.r) * p.log()).exp()
            out = [t]
            rn, rd = self.r.numerator, self.r.denominator
            for k in range(n - 1):
                t = t * arb(fmpq(k * rd + rn, (k + 1) * rd)) * q
                out.append(t)
        return out


class Poisson(CertifiedLaw):
    r""":math:`\mathrm{Poisson}(\mu)` on :math:`\{0, 1, \dots\}`, :math:`\mu` an exact rational > 0.

    >>> Poisson(Fraction(3, 10)).describe()
    'Poisson(3/10)'
    """

    def __init__(self, mu):
        self.mu = exact_rational(mu, "mu")
        self.key = ("poisson", self.mu)

    def describe(self) -> str:
        return f"Poisson({self.mu})"

    def pmf_balls(self, n, prec):
        from flint import arb, ctx, fmpq

        with ctx.workprec(prec):
            t = _arb(-self.mu).exp()
            out = [t]
            mn, md = self.mu.numerator, self.mu.denominator
            for k in range(n - 1):
                t = t * arb(fmpq(mn, (k + 1) * md))
                out.append(t)
        return out


class StaircaseMagnitude(CertifiedLaw):
    r""":math:`|X|`, :math:`X` the discrete staircase :math:`DSC(r, \Delta)` at level :math:`\varepsilon` (module docstring).

    >>> StaircaseMagnitude(Fraction(1), 3, 2).describe()
    '|DSC(r=2, Delta=3)| at eps = 1'
    """

    def __init__(self, eps, Delta: int, r: int):
        self.eps = exact_rational(eps, "eps")
        for v, nm in ((Delta, "Delta"), (r, "r")):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
                raise ValueError(f"{nm} must be an integer >= 1, got {v!r}")
        if r > Delta:
            raise ValueError(f"r must be in [1, Delta], got r = {r} > Delta = {Delta}")
        self.Delta, self.r = int(Delta), int(r)
        self.key = ("dsc", self.eps, self.Delta, self.r)

    def describe(self) -> str:
        return f"|DSC(r={self.r}, Delta={self.Delta})| at eps = {self.eps}"

    def pmf_balls(self, n, prec):
        from flint import ctx

        D, r = self.Delta, self.r
        with ctx.workprec(prec):
            b = _arb(-self.eps).exp()
            A = (1 - b) / (2 * r + 2 * b * (D - r) - (1 - b))
            out = [A] if n else []
            level = 2 * A                           # 2A b^K on period K = floor(k / Delta)
            for k in range(1, n):
                if k % D == 0:
                    level = level * b
                out.append(level if k % D < r else level * b)
        return out
