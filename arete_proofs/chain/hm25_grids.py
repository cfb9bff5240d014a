r"""Grids of the 2025 paper's MSDLap, Theorem 18, Theorem 21 and variance records (``hm25-...``).

Small on purpose: every point of the privacy records runs an exact tight-epsilon engine (a comb's
window plus its exact tail limit), and an equality is re-evaluated up to 80 digits.  Integer
:math:`\Delta`, :math:`m` and :math:`r` where the statement needs them; Theorem 18's
:math:`\varepsilon` is never an integer (then :math:`\varepsilon - 1 = i` for some scale and the comb
has a double pole, which the engine refuses), and its :math:`r` includes the theorem's rate choice
:math:`\lceil\Delta e^{-\varepsilon/3}\rceil`.  Theorem 21's grid reaches :math:`\varepsilon = 40` for its
closed-form variance order; its privacy bound is restricted to :math:`\varepsilon \le 6`
(``where``; the lattice has :math:`m = \lceil e^{\varepsilon/3}\rceil` scales).

>>> from arete_proofs.chain.symbols import Delta, eps
>>> pts = theorem_18("quick")
>>> all(p[eps] != int(p[eps]) for p in pts), len(pts) > 0
(True, True)
"""

from __future__ import annotations

import sympy as sp

from .grids import _level, _unique
from .symbols import Delta, eps

__all__ = ["theorem_16", "theorem_18", "theorem_21", "variance_gdl", "variance_msdlap", "variance_theorem_21"]

R = sp.Rational


def theorem_16(level):
    """Theorem 16: MSDLap(eps, Delta) at integer Delta from 1 to 5 (fine: 8), eps from 1/2 to 4.

    >>> sorted({int(p[Delta]) for p in theorem_16("default")})
    [1, 2, 3, 5]
    """
    Ds = _level(level, [2, 3], [1, 2, 3, 5], [1, 2, 3, 4, 5, 8])
    Es = _level(level, [2], [R(1, 2), 1, 3], [R(1, 2), 1, 2, 3, 4])
    return [{eps: e, Delta: D} for D in Ds for e in Es]


def theorem_18(level):
    """Theorem 18: eps in {5/2, 7/2, 11/2} (not integers), integer Delta to 10, r in {1, 2, ceil(Delta e^{-eps/3}), Delta}.

    >>> len(theorem_18("default"))
    29
    """
    from .hm25_symbols import r_18

    Es = _level(level, [R(7, 2)], [R(5, 2), R(7, 2), R(11, 2)], [R(21, 10), R(5, 2), R(7, 2), R(11, 2), R(15, 2)])
    Ds = _level(level, [4], [1, 2, 4, 10], [1, 2, 3, 4, 7, 10, 20])
    pts = []
    for e in Es:
        for D in Ds:
            rs = _unique([1, 2, sp.ceiling(D * sp.exp(-e / 3)), D])
            pts += [{eps: e, Delta: D, r_18: sp.Integer(r)} for r in rs if 1 <= r <= D]
    return pts


def theorem_21(level):
    """Theorem 21: eps from 2 to 6 (privacy; the lattice has ceil(e^{eps/3}) <= 8 scales) and to 40 (variance order), Delta in {1, 7/3}.

    >>> max(p[eps] for p in theorem_21("default"))
    40
    """
    Es = _level(level, [2, 20], [2, R(5, 2), 3, 4, 10, 20, 40], [2, R(21, 10), R(5, 2), 3, 4, 5, 6, 10, 20, 40])
    pts = [{eps: e, Delta: 1} for e in Es]
    return pts + [{eps: e, Delta: R(7, 3)} for e in _level(level, [], [2, 20], [2, 3, 20])]


def variance_gdl(level):
    """GDL's variance (Section GDL of the notes): beta from 3/10 to 5/2, a from 1/2 to 2.

    >>> len(variance_gdl("default"))
    6
    """
    from .gdl_symbols import a_GDL, beta

    Bs = _level(level, [R(1, 2)], [R(3, 10), 1, R(5, 2)], [R(1, 20), R(3, 10), 1, R(5, 2), 10])
    As = _level(level, [1], [R(1, 2), 2], [R(1, 2), 1, 2])
    return [{beta: b, a_GDL: aa} for b in Bs for aa in As]


def variance_msdlap(level):
    """MSDLap's variance (Theorem 16): a in {1, 3}, integer m in {1, 2, 4} (fine: to 6).

    >>> len(variance_msdlap("default"))
    6
    """
    from .gdl_symbols import a_GDL
    from .hm25_symbols import m

    As = _level(level, [2], [1, 3], [1, 2, 3])
    Ms = _level(level, [2], [1, 2, 4], [1, 2, 3, 4, 6])
    return [{a_GDL: aa, m: mm} for aa in As for mm in Ms]


def variance_theorem_21(level):
    """Theorem 21's variance: eps in {2, 3, 5} (fine: 7), Delta in {1, 1/3}.

    >>> len(variance_theorem_21("default"))
    6
    """
    Es = _level(level, [3], [2, 3, 5], [2, 3, 5, 7])
    Ds = _level(level, [1], [1, R(1, 3)], [1, R(1, 3), 10])
    return [{eps: e, Delta: D} for e in Es for D in Ds]
