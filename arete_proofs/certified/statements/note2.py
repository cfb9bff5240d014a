r"""Note 2 of the paper: :math:`\Gamma(\alpha)\le 1/\alpha` for :math:`0<\alpha\le 1`, in ball arithmetic.

:func:`note2_certificate` certifies the sign of the digamma function on two end
intervals and :math:`-\ln\Gamma(1+\alpha) > 0` in between;
:func:`note2_false_certificate` (:math:`\Gamma(\alpha)\le 0.9/\alpha`) must be
refuted.  Also used by Lemma 19's algebra (hypothesis ``hyp-gamma``).
"""

from __future__ import annotations

from fractions import Fraction

from ..balls import _combine, certify_box

__all__ = [
    "note2_certificate",
    "note2_false_certificate",
]


_NOTE2_ARG = (
    "psi(1+a) < 0 on [0, 23/50] and psi(1+a) > 0 on [47/100, 1] (certified), so "
    "ln Gamma(1+a) strictly decreases from ln Gamma(1) = 0 on [0, 23/50] and strictly "
    "increases to ln Gamma(2) = 0 on [47/100, 1]; on [23/50, 47/100] -ln Gamma(1+a) > 0 "
    "is certified directly.  Hence Gamma(1+a) <= 1 on [0, 1] (equality only at 0, 1), "
    "i.e. Gamma(a) = Gamma(1+a)/a <= 1/a on (0, 1]."
)


def note2_certificate(prec=64):
    r"""Note 2: :math:`\Gamma(\alpha)\le 1/\alpha` for :math:`0<\alpha\le 1`.

    Equivalent to :math:`\Gamma(1+\alpha)\le 1` on :math:`[0,1]` (equality at both
    ends, so it cannot be certified by a positive margin directly).  Certified:

    1. :math:`-\psi(1+\alpha) > 0` on :math:`[0, 23/50]`,
    2. :math:`-\ln\Gamma(1+\alpha) > 0` on :math:`[23/50, 47/100]`,
    3. :math:`\psi(1+\alpha) > 0` on :math:`[47/100, 1]`.

    Argument: by 1, :math:`\ln\Gamma(1+\alpha)` strictly decreases from
    :math:`\ln\Gamma(1)=0` on :math:`[0,23/50]`; by 3 it strictly increases to
    :math:`\ln\Gamma(2)=0` on :math:`[47/100,1]`; so it is :math:`\le 0` on all of
    :math:`[0,1]`.  There is no unbounded part.

    >>> c = note2_certificate()
    >>> c.holds
    True
    """
    from flint import arb

    parts = [
        certify_box(lambda a: -(1 + a).digamma(), {"a": (0, Fraction(23, 50))}, prec=prec),
        certify_box(lambda a: -(1 + a).lgamma(), {"a": (Fraction(23, 50), Fraction(47, 100))}, prec=prec),
        certify_box(lambda a: (1 + a).digamma(), {"a": (Fraction(47, 100), 1)}, prec=prec),
    ]
    # the endpoint values used by the argument: ln Gamma(1) = ln Gamma(2) = 0 exactly
    assert arb(1).lgamma() == 0 and arb(2).lgamma() == 0
    return _combine("Note 2", "Gamma(alpha) <= 1/alpha for 0 < alpha <= 1", parts, _NOTE2_ARG)


def note2_false_certificate(prec=64):
    r"""Deliberately false: :math:`\Gamma(\alpha)\le 0.9/\alpha` on :math:`[1/100, 1]`.

    Margin :math:`\ln(0.9) - \ln\Gamma(1+\alpha)`; must be refuted.

    >>> note2_false_certificate().holds
    False
    """
    from flint import arb

    c = certify_box(lambda a: arb(9).log() - arb(10).log() - (1 + a).lgamma(),
                    {"a": (Fraction(1, 100), 1)}, prec=prec)
    c.statement, c.inequality = "Note 2 (false variant)", "Gamma(alpha) <= 0.9/alpha"
    return c
