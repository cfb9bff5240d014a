r"""Ball-arithmetic primitives of the certified layer (python-flint ``arb``).

Exact rationals to balls (``_arb_of_fraction``, ``_to_arb``), the box
prover :func:`certify_box` with its result :class:`Certificate`, and the closed
form of :math:`f_A(0)` as a ball (:func:`pdf_at_zero_ball`).  python-flint is
imported inside the functions, so the package imports without it.

A statement ``margin >= 0`` on a box is *certified* when the box is bisected
into sub-boxes on each of which the arb enclosure of the margin has a positive
lower end; every sub-box is evaluated with all coordinates as balls containing
the whole sub-box, so the enclosure bounds the margin at every point of it.

>>> c = certify_box(lambda x: 2 - x * x, {"x": ("-1", "1")})   # 2 - x^2 >= 1 on [-1, 1]
>>> c.holds, 0 < c.min_margin() <= 1    # a certified lower bound of the true minimum 1
(True, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Certificate", "certify_box", "pdf_at_zero_ball"]


@dataclass
class Certificate:
    r"""Result of a box certification: is :math:`m(x) > 0` for every :math:`x` in the box?

    ``holds`` is ``True`` (certified on every sub-box), ``False`` (a sub-box where
    the margin is certainly negative was found) or ``None`` (undecided: depth or
    width exhausted).  ``boxes`` lists ``(box, margin lower bound)`` of the
    certified sub-boxes; ``undecided_or_refuted_box`` is the first box that could
    not be certified (``None`` when ``holds`` is ``True``).

    >>> c = certify_box(lambda x: 1 + x, {"x": (0, 1)})   # 1 + x > 0 on [0, 1]
    >>> c.holds, c.min_margin() > 0.99
    (True, True)
    """

    statement: str
    inequality: str
    holds: bool | None
    boxes: list = field(default_factory=list)
    undecided_or_refuted_box: dict | None = None
    seconds: float = 0.0
    argument: str = ""

    def min_margin(self):
        """Smallest certified margin lower bound over the sub-boxes (float)."""
        return min(m for _, m in self.boxes) if self.boxes else None


def _flint():
    import flint  # noqa: F401  (lazy: python-flint is optional)

    return flint


def _exact(x):
    """Exact rational from int / Fraction / decimal string / float."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, float)):
        return Fraction(x)
    if isinstance(x, str):
        return Fraction(x)
    raise TypeError(f"box endpoints must be exact rationals, got {x!r}")


def _arb_of_fraction(q):
    from flint import arb

    return arb(q.numerator) / arb(q.denominator)


def _to_arb(x):
    """Ball containing the real number ``x`` (exact for ints, floats, mpf, dyadics)."""
    from flint import arb

    if isinstance(x, arb):
        return x
    if isinstance(x, Fraction):
        return _arb_of_fraction(x)
    if isinstance(x, (int, float)):
        return arb(x)
    if isinstance(x, str):
        return arb(x)
    if hasattr(x, "man_exp"):  # mpmath mpf: exact dyadic
        man, exp = x.man_exp
        return arb(int(man)) * arb(2) ** int(exp)
    raise TypeError(f"cannot convert {x!r} to arb")


def _interval(lo, hi):
    a, b = _arb_of_fraction(lo), _arb_of_fraction(hi)
    return a if lo == hi else a.union(b)


def certify_box(margin, box, *, max_depth=40, min_width=Fraction(1, 10**9), max_boxes=20000,
                prec=64, statement="", inequality="margin > 0"):
    r"""Certify ``margin(**balls) > 0`` on the box ``{name: (lo, hi)}``, i.e. :math:`\inf_{x\in B} m(x) > 0`.

    Depth-first bisection of the widest coordinate.  Stops at the first sub-box
    where the margin is certainly negative (``holds=False``) or where depth,
    width or the box budget is exhausted (``holds=None``).

    >>> from flint import arb
    >>> c = certify_box(lambda x: 2 - x * x, {"x": ("-1", "1")})
    >>> c.holds
    True
    >>> certify_box(lambda x: x - arb("0.5"), {"x": (0, 1)}).holds
    False
    """
    from flint import ctx

    t0 = time.perf_counter()
    box = {k: (_exact(lo), _exact(hi)) for k, (lo, hi) in box.items()}
    min_width = _exact(min_width)
    old = ctx.prec
    ctx.prec = prec
    certified = []
    result, bad = True, None
    try:
        stack = [(box, 0)]
        count = 0
        while stack:
            b, depth = stack.pop()
            count += 1
            m = margin(**{k: _interval(lo, hi) for k, (lo, hi) in b.items()})
            if m.lower() > 0:
                certified.append((b, float(m.lower())))
                continue
            if m.upper() < 0:
                result, bad = False, b
                break
            name = max(b, key=lambda k: b[k][1] - b[k][0])
            lo, hi = b[name]
            if depth >= max_depth or hi - lo < min_width or count >= max_boxes:
                result, bad = None, b
                break
            mid = (lo + hi) / 2
            left, right = dict(b), dict(b)
            left[name], right[name] = (lo, mid), (mid, hi)
            stack.append((right, depth + 1))
            stack.append((left, depth + 1))
    finally:
        ctx.prec = old
    return Certificate(statement, inequality, result, certified, bad, time.perf_counter() - t0)


def _combine(statement, inequality, parts, argument):
    holds = True
    bad = None
    boxes = []
    for c in parts:
        boxes.extend(c.boxes)
        if c.holds is not True and holds is True:
            holds, bad = c.holds, c.undecided_or_refuted_box
    return Certificate(statement, inequality, holds, boxes, bad, sum(c.seconds for c in parts), argument)


def pdf_at_zero_ball(alpha, theta, lam, prec=128):
    r"""Ball containing :math:`f_A(0)` (Euler's integral, as in
    :func:`arete_proofs.distributions.arete.pdf_at_zero`):

    .. math:: f_A(0) = \frac{\Gamma(\alpha+\frac12)}{2\sqrt\pi\,\Gamma(\alpha+1)\,\lambda}\;
              {}_2F_1\!\left(\alpha,\tfrac12;\alpha+1;1-r^2\right),\quad r=\theta/\lambda,

    and for :math:`r < 1` its Pfaff transform
    :math:`r^{-2\alpha}\,{}_2F_1(\alpha,\alpha+\frac12;\alpha+1;1-r^{-2})`.  The argument is
    never positive and is formed as :math:`(\lambda-\theta)(\lambda+\theta)/\lambda^2` (or with
    :math:`\theta^2`), so the ball stays narrow at every ratio; the older form in
    :math:`z = (r-1)/(r+1)` gave a ``nan`` ball at :math:`r = 10^{40}`.

    Parameters may be ints, Fractions, floats, decimal strings or mpf.

    >>> b = pdf_at_zero_ball(1, 2, 3)    # alpha = 1: 1/(2 (theta + lam)) = 1/10
    >>> (10 * b - 1).contains(0), b.rad() < 1e-30
    (True, True)
    >>> b = pdf_at_zero_ball("0.5", 10**40, 1)   # alpha = 1/2: arccosh(r)/(pi sqrt(r^2 - 1))
    >>> b.is_finite() and b.rad() < 1e-30 * b.mid()
    True
    """
    from flint import arb, ctx

    old = ctx.prec
    ctx.prec = prec
    try:
        a, th, lam = _to_arb(alpha), _to_arb(theta), _to_arb(lam)
        half = arb(1) / 2
        pre = ((a + half).lgamma() - (a + 1).lgamma()).exp() / (2 * arb.pi().sqrt() * lam)
        if th >= lam:
            x = (lam - th) * (lam + th) / (lam * lam)
            return pre * x.hypgeom_2f1(a, half, a + 1)
        x = (th - lam) * (th + lam) / (th * th)
        return pre * (2 * a * (lam / th).log()).exp() * x.hypgeom_2f1(a, a + half, a + 1)
    finally:
        ctx.prec = old
