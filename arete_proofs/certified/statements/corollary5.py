r"""Corollary 5 of the paper (with Lemma 3's parameters) at points: the tight epsilon is at most :math:`\varepsilon`.

:func:`corollary5_certificate` proves
:math:`\sup_t\ln f_A(t)/f_A(t+\Delta)\le\varepsilon` at each point
:math:`(\varepsilon,\Delta)` of :data:`COROLLARY5_POINTS` through
:func:`arete_proofs.certified.epsilon.certify_epsilon`;
:func:`corollary5_false_certificate` (:math:`0.7\varepsilon`) must be refuted.
"""

from __future__ import annotations

import time
from fractions import Fraction

from ..balls import Certificate, _arb_of_fraction, _combine

__all__ = [
    "COROLLARY5_POINTS",
    "corollary5_certificate",
    "corollary5_false_certificate",
]


#: (eps, Delta) points of Lemma 3's domain (Delta >= 2/e, eps >= 20 + 4 ln Delta) certified by default
COROLLARY5_POINTS = ((20, 1), (30, 1), (40, 1), (60, 1), (30, 10), (40, 10), (60, 10))

_C5_ARG = (
    "At each point (eps, Delta): alpha = lam = e^{-eps/4} as an arb ball (128 bits) that contains the "
    "exact value, theta = 4 Delta/eps exactly; certified_epsilon.certify_epsilon proves, for every "
    "parameter value in the balls, "
    "sup_t ln f_A(t)/f_A(t + Delta) <= bound (ball-arithmetic densities on a cover of [0, T], a certified "
    "tail bound for t >= T, symmetry for t < 0), and the margin is eps - bound.  Points only: the "
    "continuum of (eps, Delta) between the points is not covered."
)


def _corollary5(points, claim, prec):
    from flint import arb, ctx

    from ..epsilon import certify_epsilon

    t0 = time.perf_counter()
    parts = []
    for e, d in points:
        e, d = Fraction(e), Fraction(d)
        old, ctx.prec = ctx.prec, 128
        try:
            a = (-_arb_of_fraction(e) / 4).exp()  # a ball containing e^{-eps/4} itself
        finally:
            ctx.prec = old
        theta = 4 * d / e
        claimed = claim(e)
        r = certify_epsilon(a, theta, a, d, numeric=False, tol="1e-2", prec=prec)
        box = {"eps": (e, e), "Delta": (d, d)}
        c_lo = _arb_of_fraction(Fraction(claimed))
        if r.upper <= claimed:
            margin = float((c_lo - arb(r.upper)).lower())
            parts.append(Certificate("", "", True, [(box, margin)], None))
        elif r.lower is not None and r.lower > claimed:
            parts.append(Certificate("", "", False, [], box))
        else:
            parts.append(Certificate("", "", None, [], box))
    c = _combine("", "", parts, _C5_ARG)
    c.seconds = time.perf_counter() - t0
    return c


def corollary5_certificate(points=COROLLARY5_POINTS, prec=64):
    r"""Corollary 5 (with Lemma 3's parameters): the tight epsilon is at most :math:`\varepsilon`.

    For each :math:`(\varepsilon,\Delta)` in ``points``, with :math:`\alpha=\lambda=e^{-\varepsilon/4}`
    (an arb ball containing the exact value) and :math:`\theta=4\Delta/\varepsilon`, proves
    :math:`\sup_t\ln f_A(t)/f_A(t+\Delta)\le\varepsilon` in ball arithmetic
    (:func:`arete_proofs.certified.epsilon.certify_epsilon`); the margin is
    :math:`\varepsilon` minus the certified bound.  A "box" is a single point.

    >>> c = corollary5_certificate(points=((20, 1),))
    >>> c.holds, c.min_margin() > 5     # tight epsilon 14.2498... <= 20
    (True, True)
    """
    c = _corollary5(points, lambda e: e, prec)
    c.statement = "Corollary 5 (privacy, at points)"
    c.inequality = "sup_t ln f_A(t)/f_A(t + Delta) <= eps, alpha = lam = e^{-eps/4}, theta = 4 Delta/eps"
    return c


def corollary5_false_certificate(points=((20, 1),), prec=64):
    r"""Deliberately false: Corollary 5 with :math:`\varepsilon` replaced by :math:`0.7\varepsilon`.

    At :math:`(20, 1)` the tight epsilon is 14.2498... > 14: the certified *lower* bound
    refutes the claim.

    >>> corollary5_false_certificate().holds
    False
    """
    c = _corollary5(points, lambda e: Fraction(7, 10) * e, prec)
    c.statement = "Corollary 5 (false variant)"
    c.inequality = "sup_t ln f_A(t)/f_A(t + Delta) <= 0.7 eps"
    return c
