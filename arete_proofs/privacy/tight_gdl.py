r"""Exact tight epsilon of :math:`\mathrm{GDL}(\beta, a)` (and :math:`\mathrm{DLap}(a) = \mathrm{GDL}(1, a)`) at integer sensitivity.

The mechanism releases :math:`q(x) + X`, :math:`X \sim \mathrm{GDL}(\beta, a)` on the integers
(:mod:`arete_proofs.distributions.gdl`), for an integer-valued query of sensitivity
:math:`\Delta \in \{1, 2, \dots\}`.  Its tight epsilon is

.. math::

    \varepsilon^* = \sup_{1 \le |s| \le \Delta}\ \sup_{k \in \mathbb Z}\ L_s(k), \qquad
    L_s(k) = \ln p(k) - \ln p(k+s).

**The argument** (every shift is covered; nothing is read off a finite window).

1. *GDL is symmetric and unimodal for every* :math:`\beta > 0`.  Symmetry: :math:`N_1 - N_2`
   with :math:`N_1, N_2` iid.  Monotone on :math:`k \ge 0`: for :math:`\beta \le 1`,
   :math:`P(N = n)` is nonincreasing (ratio :math:`q(n+\beta)/(n+1) \le 1`), so is
   :math:`p_k = \sum_j P(N_1 = k+j)P(N_2 = j)`; for :math:`\beta \ge 1`, :math:`P(N=n)` is
   log-concave, so is the convolution :math:`p` of it with its reflection, and a symmetric
   log-concave sequence is unimodal.
2. *Reduction to* :math:`s = \Delta`, :math:`k \ge 0`.  Write :math:`\ln p(k) = -\varphi(|k|)`,
   :math:`\varphi` nondecreasing (item 1).  By symmetry take :math:`s > 0`
   (:math:`L_{-s}(k) = L_s(-k)`).  If :math:`|k+s| \le |k|`, :math:`L_s(k) \le 0`.  Otherwise
   :math:`k > -s/2`; for :math:`k \ge 0`, :math:`L_s(k) = \varphi(k+s) - \varphi(k) \le
   \varphi(k+\Delta) - \varphi(k) = L_\Delta(k)`; for :math:`-s/2 < k < 0`, with :math:`j = -k`,
   :math:`L_s(k) = \varphi(j + (s-2j)) - \varphi(j) \le L_\Delta(j)` since
   :math:`0 < s - 2j \le \Delta`.  Hence :math:`\varepsilon^* = \sup_{k \ge 0} L_\Delta(k)`.
3. *Shape of* :math:`L_\Delta` *on* :math:`k \ge 0`:
   :math:`L_\Delta(k) = -\sum_{i<\Delta}\ln(p_{k+i+1}/p_{k+i})`.
   For :math:`\beta < 1`, each :math:`k \mapsto P(N_1 = k+j)` is log-convex on :math:`k \ge 0`
   (its ratio :math:`q(n+\beta)/(n+1)` increases in :math:`n`), and a sum of log-convex
   sequences is log-convex, so :math:`p_{k+1}/p_k` is nondecreasing and :math:`L_\Delta` is
   nonincreasing: **the supremum is attained at** :math:`k = 0`,
   :math:`\varepsilon^* = \ln p_0 - \ln p_\Delta`, which is Theorem 13's closed form
   :math:`a\Delta + \ln[{}_2F_1(\beta,\beta;1;q^2)/{}_2F_1(\beta,\beta+\Delta;1+\Delta;q^2)\cdot
   \Gamma(\Delta+1)\Gamma(\beta)/\Gamma(\beta+\Delta)]`.
   For :math:`\beta > 1`, :math:`p` is log-concave (item 1), so :math:`L_\Delta` is
   nondecreasing and the supremum is its **tail limit**, not attained.  For
   :math:`\beta = 1`, :math:`L_\Delta(k) = a\Delta` for every :math:`k \ge 0` (attained at 0).
4. *The tail limit is* :math:`a\Delta` *exactly*: :math:`p_{k+1}/p_k = q\,\frac{k+\beta}{k+1}
   \cdot\frac{F_{k+1}}{F_k}` with :math:`F_k = {}_2F_1(\beta,\beta+k;1+k;q^2)`; the series terms
   :math:`(\beta)_j(\beta+k)_j/((1+k)_j j!)q^{2j}` converge as :math:`k\to\infty` to
   :math:`(\beta)_j q^{2j}/j!`, dominated by :math:`(\beta)_j \max(1,\beta)^j q^{2j}/j!`
   (summable for :math:`q^2\max(1,\beta) < 1`; for larger :math:`\beta` the same holds for
   :math:`k \ge k_0` since :math:`(\beta+k)_j/(1+k)_j \le ((\beta+k)/(1+k))^j`), so
   :math:`F_k \to (1-q^2)^{-\beta}` and :math:`p_{k+1}/p_k \to q`, i.e.
   :math:`L_\Delta(k) \to a\Delta`.

So :math:`\varepsilon^* = L_\Delta(0)` for :math:`\beta < 1` (and :math:`> a\Delta`),
:math:`a\Delta` for :math:`\beta \ge 1` (attained only at :math:`\beta = 1`).  The value is a
closed form at any precision; :func:`certify` encloses it in ball arithmetic (python-flint's
``arb``, ``hypgeom_2f1``), and ``tests/test_gdl_privacy.py`` compares it with a brute force over
every shift :math:`|s| \le \Delta` and a window of :math:`k`, and checks items 1 and 3 on the pmf.

>>> r = tight_epsilon("0.5", "0.7", 3, digits=10)
>>> r.epsilon > r.tail_limit, r.witness                 # beta < 1: attained at k = 0, above a Delta = 2.1
(True, 0)
>>> tight_epsilon(2, 1, 1, digits=10).epsilon          # beta > 1: the tail limit a Delta
mpf('1.0')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mpmath import mp

from .._validation import GUARD_DIGITS, parse_precision, positive
from ..distributions import gdl

__all__ = ["TightGDL", "tight_epsilon", "theorem13_value", "loss", "brute_force", "certify"]


@dataclass(frozen=True)
class TightGDL:
    r"""``epsilon`` (the tight :math:`\varepsilon^*`), ``witness`` (``k = 0``, or ``inf`` for the tail limit),
    ``attained``, ``tail_limit`` (:math:`a\Delta`), ``case`` (which item of the module docstring).

    >>> tight_epsilon(1, 2, 3).case
    'beta = 1: L_Delta(k) = a Delta for every k >= 0'
    """

    epsilon: Any
    witness: Any
    attained: bool
    tail_limit: Any
    Delta: int
    digits: int
    case: str


def _Delta(Delta):
    if isinstance(Delta, bool):
        raise ValueError(f"Delta must be an integer >= 1, got {Delta!r}")
    try:
        D = gdl._integer(Delta, "Delta")
    except ValueError:
        raise ValueError(f"Delta must be an integer >= 1 (integer sensitivity), got {Delta!r}") from None
    if D < 1:
        raise ValueError(f"Delta must be an integer >= 1 (integer sensitivity), got {Delta!r}")
    return D


def _digits(digits):
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 1000:
        raise ValueError(f"digits must be an integer between 1 and 1000, got {digits!r}")
    return digits


def theorem13_value(beta, a, Delta, *, digits=15):
    r"""Theorem 13's closed form :math:`a\Delta + \ln[\frac{{}_2F_1(\beta,\beta;1;e^{-2a})}{{}_2F_1(\beta,\beta+\Delta;1+\Delta;e^{-2a})}\frac{\Gamma(\Delta+1)\Gamma(\beta)}{\Gamma(\beta+\Delta)}]`.

    It equals :math:`\ln p_0 - \ln p_\Delta` for every :math:`\beta` (the closed form of the pmf):

    >>> from mpmath import mp
    >>> from arete_proofs.distributions import gdl
    >>> mp.almosteq(theorem13_value(2, 1, 1), gdl.logpmf(0, 2, 1) - gdl.logpmf(1, 2, 1))
    True
    """
    d = _digits(digits)
    D = _Delta(Delta)
    with mp.workdps(parse_precision(d)):
        b, a_ = positive(beta, "beta"), positive(a, "a")
    with mp.workdps(d + GUARD_DIGITS + len(str(D))):
        z = mp.exp(-2 * a_)
        return (a_ * D + mp.log(mp.hyp2f1(b, b, 1, z)) - mp.log(mp.hyp2f1(b, b + D, 1 + D, z))
                + mp.loggamma(D + 1) + mp.loggamma(b) - mp.loggamma(b + D))


def tight_epsilon(beta, a, Delta=1, *, digits=12) -> TightGDL:
    r"""The tight :math:`\varepsilon^*` of :math:`\mathrm{GDL}(\beta, a)` at integer sensitivity ``Delta`` (module docstring).

    >>> from mpmath import mp
    >>> r = tight_epsilon("0.3", 1, 2, digits=20)
    >>> mp.almosteq(r.epsilon, loss(0, 2, "0.3", 1, digits=20))      # item 3: the loss at k = 0
    True
    """
    d = _digits(digits)
    D = _Delta(Delta)
    with mp.workdps(parse_precision(d)):
        b, a_ = positive(beta, "beta"), positive(a, "a")
    with mp.workdps(d + GUARD_DIGITS):
        tail = a_ * D
        if b < 1:
            return TightGDL(+theorem13_value(beta, a, D, digits=d + GUARD_DIGITS), 0, True, +tail, D, d,
                            "beta < 1: L_Delta nonincreasing on k >= 0, attained at k = 0")
        if b == 1:
            return TightGDL(+tail, 0, True, +tail, D, d, "beta = 1: L_Delta(k) = a Delta for every k >= 0")
        return TightGDL(+tail, mp.inf, False, +tail, D, d,
                        "beta > 1: L_Delta nondecreasing on k >= 0, tail limit a Delta not attained")


def loss(k, s, beta, a, *, digits=15):
    r"""The privacy loss :math:`L_s(k) = \ln p(k) - \ln p(k+s)` (exact, any integers ``k``, ``s``).

    >>> from mpmath import mp
    >>> mp.almosteq(loss(-2, 3, "0.5", 1), -loss(-1, 3, "0.5", 1))    # L_s(-k-s) = -L_s(k)
    True
    """
    return gdl.logpmf(k, beta, a, digits=digits) - gdl.logpmf(gdl._integer(k) + gdl._integer(s, "s"), beta, a,
                                                               digits=digits)


def brute_force(beta, a, Delta, K, *, digits=15):
    r"""``(max, k, s)`` of :math:`L_s(k)` over **every** shift :math:`1 \le |s| \le \Delta` and :math:`|k| \le K`.

    An independent check of the reduction (items 1-2): it uses no symmetry or monotonicity.
    The pmf on :math:`[-K-\Delta, K+\Delta]` comes from the closed form at each point.

    >>> from mpmath import mp
    >>> m, k, s = brute_force("0.5", "0.7", 3, 6, digits=15)
    >>> mp.almosteq(m, tight_epsilon("0.5", "0.7", 3).epsilon), abs(s)
    (True, 3)
    """
    D = _Delta(Delta)
    with mp.workdps(digits + GUARD_DIGITS):
        lp = {j: gdl.logpmf(j, beta, a, digits=digits + 5) for j in range(0, K + D + 1)}
        best = (mp.ninf, None, None)
        for s in [*range(1, D + 1), *range(-D, 0)]:
            for k in range(-K, K + 1):
                v = lp[abs(k)] - lp[abs(k + s)]
                if v > best[0]:
                    best = (v, k, s)
    return best


def certify(beta, a, Delta=1, *, prec=128):
    r"""A ball (python-flint ``arb``) that contains :math:`\varepsilon^*` (module docstring).

    :math:`\beta < 1`: Theorem 13's closed form in ball arithmetic (``arb.hypgeom_2f1``,
    ``lgamma``), from the parameters converted exactly (decimal strings as exact rationals);
    :math:`\beta \ge 1`: :math:`a\Delta`.  Returns ``(ball, case)``.

    >>> ball, case = certify("0.5", "0.7", 3)
    >>> import flint
    >>> from mpmath import mp
    >>> e = tight_epsilon("0.5", "0.7", 3, digits=40).epsilon              # the closed form in mpmath
    >>> ball.overlaps(flint.arb(mp.nstr(e, 45), "1e-44")), ball.rad() < 1e-30
    (True, True)
    """
    import flint

    D = _Delta(Delta)
    b, a_ = _exact(beta, "beta"), _exact(a, "a")
    old = flint.ctx.prec
    flint.ctx.prec = int(prec)
    try:
        B, A = flint.arb(flint.fmpq(b.numerator, b.denominator)), flint.arb(flint.fmpq(a_.numerator, a_.denominator))
        if b >= 1:
            return A * D, "beta >= 1: a Delta (items 3-4)"
        z = (-2 * A).exp()
        val = (A * D + z.hypgeom_2f1(B, B, 1).log() - z.hypgeom_2f1(B, B + D, 1 + D).log()
               + flint.arb(D + 1).lgamma() + B.lgamma() - (B + D).lgamma())
        if not val.is_finite():
            raise ArithmeticError("certify: the ball is not finite (raise prec)")
        return val, "beta < 1: ln p_0 - ln p_Delta (item 3)"
    finally:
        flint.ctx.prec = old


def _exact(x, name):
    """``x`` as an exact positive Fraction (decimal strings, ints, floats, Fractions, mpf)."""
    from fractions import Fraction

    if isinstance(x, bool):
        raise ValueError(f"{name} must be a positive real number, got {x!r}")
    try:
        if hasattr(x, "_mpf_"):
            man, exp = x.man_exp
            q = Fraction(int(man)) * Fraction(2) ** int(exp)
        else:
            q = Fraction(x.strip() if isinstance(x, str) else x)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{name} must be a positive real number, got {x!r}") from None
    if not q > 0:
        raise ValueError(f"{name} must be positive, got {x!r}")
    return q
