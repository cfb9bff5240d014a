"""Parameter boxes of the ball-arithmetic certificates, as exact JSON and as text.

A certificate of :mod:`arete_proofs.certified.statements` lists its certified
sub-boxes ``{name: (lo, hi)}`` with exact (``Fraction``) endpoints. The docs jobs
(:mod:`arete_docs_jobs`) group them by coordinates and store each group's hull and
coverage as JSON (:func:`box_groups`, :func:`box_json`); the pages
(:mod:`arete_docs_pages`) print them (:func:`box_text`, :func:`fraction_text`).
Pure functions, no Sphinx.
"""

from __future__ import annotations


def fraction_text(q, sig=12) -> str:
    """An exact rational as text: a terminating decimal when it is short, else ``p/q``
    (also short), else ``≈`` and ``sig`` significant digits.

    >>> from fractions import Fraction
    >>> fraction_text(Fraction(7357, 10000)), fraction_text(Fraction(1, 3)), fraction_text(Fraction(180))
    ('0.7357', '1/3', '180')
    """
    from decimal import Decimal, localcontext
    from fractions import Fraction

    q = Fraction(q)
    if q.denominator == 1:
        return str(q.numerator)
    d, k2, k5 = q.denominator, 0, 0
    while d % 2 == 0:
        d, k2 = d // 2, k2 + 1
    while d % 5 == 0:
        d, k5 = d // 5, k5 + 1
    if d == 1:  # terminating decimal, exact with max(k2, k5) fractional digits
        with localcontext() as ctx:
            ctx.prec = 200
            text = format(Decimal(q.numerator) / Decimal(q.denominator), "f")
        if len(text.lstrip("-0.").replace(".", "")) <= sig:
            return text
    text = f"{q.numerator}/{q.denominator}"
    if len(text) <= 15:
        return text
    return "≈ " + format(float(q), f".{sig}g")


def box_hull(boxes):
    """Per coordinate, the smallest interval containing every sub-box: ``{name: (lo, hi)}``.

    ``boxes`` are the ``(box, margin)`` pairs of a :class:`arete_proofs.certified.balls.Certificate`
    (``box`` maps a name to exact ``(lo, hi)``). Names missing from some sub-boxes are
    still included.
    """
    hull = {}
    for box, _ in boxes:
        for k, (lo, hi) in box.items():
            if k in hull:
                hull[k] = (min(hull[k][0], lo), max(hull[k][1], hi))
            else:
                hull[k] = (lo, hi)
    return hull


def hull_coverage(boxes, hull):
    """How the sub-boxes fill their hull, compared by (exact) volume.

    ``"covers"`` when the volumes add up to the hull's (the leaves of a bisection do not
    overlap, and closed boxes filling a closed box up to measure zero fill all of it),
    ``"gaps"`` when they add up to less (part of the hull is not certified),
    ``"overlaps"`` when more, ``None`` when not comparable (no sub-box, sub-boxes
    over different coordinates, or a hull of volume zero). Coordinates on which the
    hull is a single point are left out of the volumes.
    """
    from fractions import Fraction

    if not boxes or any(set(box) != set(hull) for box, _ in boxes):
        return None
    axes = [k for k, (lo, hi) in hull.items() if hi > lo]
    if not axes:
        return None

    def vol(box):
        v = Fraction(1)
        for k in axes:
            v *= Fraction(box[k][1]) - Fraction(box[k][0])
        return v

    total, whole = sum(vol(box) for box, _ in boxes), vol(hull)
    return "covers" if total == whole else ("gaps" if total < whole else "overlaps")


def box_groups(boxes):
    """The sub-boxes grouped by their set of coordinates, largest group first.

    A certificate combining several checks (a main box and one-point side checks, or
    boxes over different variables) lists sub-boxes over different coordinates; one hull
    over all of them would mix unrelated ranges. Returns ``[(hull, n_boxes, coverage)]``
    per group (:func:`box_hull`, :func:`hull_coverage`), in order of first appearance
    among groups of equal size.
    """
    groups = {}
    for item in boxes:
        groups.setdefault(tuple(item[0]), []).append(item)
    out = []
    for items in sorted(groups.values(), key=len, reverse=True):
        hull = box_hull(items)
        out.append((hull, len(items), hull_coverage(items, hull)))
    return out


def box_json(box):
    """A box ``{name: (Fraction, Fraction)}`` as JSON: exact ``"p/q"`` strings."""
    if box is None:
        return None
    return {str(k): [str(lo), str(hi)] for k, (lo, hi) in box.items()}


def box_text(box) -> str:
    """A box of :func:`box_json` as ``name ∈ [lo, hi], ...`` (see :func:`fraction_text`)."""
    from fractions import Fraction

    parts = []
    for k, (lo, hi) in box.items():
        lo, hi = Fraction(lo), Fraction(hi)
        if lo == hi:
            parts.append(f"{k} = {fraction_text(lo)}")
        else:
            parts.append(f"{k} ∈ [{fraction_text(lo)}, {fraction_text(hi)}]")
    return ", ".join(parts)
