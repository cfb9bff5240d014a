r"""Lemma 28 of the paper: :math:`g(t) = (D+t)^{1-\alpha}e^{-t\,\mathrm{gap}}` is non-increasing.

:func:`lemma28_certificate` certifies the sign of :math:`\frac{d}{dt}\ln g` on a
box of :math:`(\alpha, D, g, \kappa)` and checks the identity that covers the
unbounded ranges.
"""

from __future__ import annotations

from fractions import Fraction

from ..balls import _arb_of_fraction, certify_box

__all__ = [
    "lemma28_certificate",
]


_L28_ARG = (
    "With D = D_Gamma + Delta, u = D + kappa and gap = 1/lam - 1/theta = 1/u + g (g >= 0 is the "
    "hypothesis), d/dt ln g(t) = (1-alpha)/(D+t) - gap <= (1-alpha)/u - gap for t >= kappa "
    "(D + t >= u > 0).  Certified: gap - (1-alpha)/u > 0 on the box; algebraically it equals "
    "g + alpha/u > 0 for all g >= 0, alpha > 0, u > 0, which covers the unbounded ranges.  "
    "Integrating the non-positive derivative over [kappa, t] gives g(t) <= g(kappa)."
)


def lemma28_certificate(box=None, prec=64):
    r"""Lemma 28: :math:`g(t) = (D+t)^{1-\alpha}e^{-t\,\mathrm{gap}}` is non-increasing on
    :math:`[\kappa,\infty)` when :math:`\mathrm{gap} = 1/\lambda-1/\theta \ge 1/(\kappa+D)`,
    :math:`D = D_\Gamma+\Delta`.

    Certified: :math:`\mathrm{gap} - (1-\alpha)/(D+\kappa) > 0` with
    :math:`\mathrm{gap} = 1/(D+\kappa) + g`, on the default box
    :math:`\alpha\in[1/20,1]`, :math:`D\in[1/2,4]`, :math:`g\in[0,4]`, :math:`\kappa\in[0,4]`.
    Since :math:`(1-\alpha)/(D+t)\le(1-\alpha)/(D+\kappa)` for :math:`t\ge\kappa`,
    :math:`\frac{d}{dt}\ln g(t) < 0` there.  Unbounded part: the margin equals
    :math:`g + \alpha/(D+\kappa)` identically (checked at the box corners in ball
    arithmetic), positive for every :math:`g\ge0`, :math:`\alpha>0`, :math:`D+\kappa>0`.

    >>> lemma28_certificate().holds
    True
    """
    from flint import arb

    if box is None:
        box = {"alpha": (Fraction(1, 20), 1), "D": (Fraction(1, 2), 4), "g": (0, 4), "kappa": (0, 4)}

    def margin(alpha, D, g, kappa):
        u = D + kappa
        gap = 1 / u + g
        return gap - (1 - alpha) / u

    c = certify_box(margin, box, prec=prec)
    # identity check margin == g + alpha/u at a few exact points
    for a, D, g, k in [(Fraction(1, 20), Fraction(1, 2), 0, 0), (1, 4, 4, 4), (Fraction(1, 3), 2, 1, 3)]:
        a_, D_, g_, k_ = (_arb_of_fraction(Fraction(x)) for x in (a, D, g, k))
        diff = margin(a_, D_, g_, k_) - (g_ + a_ / (D_ + k_))
        assert diff.contains(0) and abs(diff).upper() < arb("1e-15")
    c.statement = "Lemma 28"
    c.inequality = "(1-alpha)/(D_Gamma+Delta+kappa) - (1/lam - 1/theta) <= 0 under 1/lam-1/theta >= 1/(kappa+Delta+D_Gamma)"
    c.argument = _L28_ARG
    return c
