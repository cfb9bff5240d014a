r"""Check ``arete_region`` and ``arete_rates`` certificates: where Lemma 3's parameters are (not) private, cell by cell.

The region of :math:`(\varepsilon, \Delta)` where Lemma 3's parameters are :math:`\varepsilon`-DP, and the
rate-optimal rules below :math:`\varepsilon_0` (Pagh & Stausholm, Lemma 3).

**Monotonicity.**  The tight epsilon :math:`\varepsilon^*(\alpha,\theta,\lambda)` (sensitivity 1) is non-increasing in
each parameter: a larger parameter set is the smaller one plus independent noise (Gamma shape additivity; the Gamma
and Laplace Levy measures grow with the scale), and adding independent noise cannot raise the privacy loss.

**Region** (``arete_region``).  By the scaling law, Lemma 3 at :math:`(\varepsilon, \Delta)` has tight epsilon
:math:`E = \varepsilon^*(e^{-\varepsilon/4}, 4/\varepsilon, e^{-\varepsilon/4}/\Delta)`.  On a cell
:math:`[e_0,e_1]\times[d_0,d_1]` every parameter lies between the corners, so a cell is

* *private* when its recorded parameters are at most :math:`(e^{-e_1/4}, 4/e_1, e^{-e_1/4}/d_1)` (checked in
  ``arb``) and :math:`\varepsilon^*` there is at most the cell's ``bound`` :math:`\le e_0`: by the Lipschitz bound
  :math:`1/\lambda`, or by the recorded cover (:func:`.arete.cover_bound`);
* *not private* when its parameters are at least :math:`(e^{-e_0/4}, 4/e_0, e^{-e_0/4}/d_0)` and the witness has
  :math:`L(t) \ge` ``lower`` :math:`> e_1` (then :math:`E \ge L(t) > e_1 \ge \varepsilon`);
* *undecided*: no claim.

The cells must tile the certificate's box exactly (rational ends; a side of zero width counts as one point), and
the counts in ``claim`` must be the cells'.

**Rates** (``arete_rates``).  The rule ``mean_abs`` sets :math:`\theta = \Delta`, :math:`\alpha =
2\sqrt6e^{-\varepsilon/2}`, :math:`\lambda = 4\sqrt6\Delta e^{-\varepsilon/2}`; ``variance`` sets :math:`\alpha =
8\cdot3^{2/3}e^{-2\varepsilon/3}`, :math:`\lambda = 2\cdot3^{1/3}\Delta e^{-\varepsilon/3}`: all decrease in
:math:`\varepsilon`.  A cell :math:`[e_1, e_2]` whose parameters are at most the rule's at :math:`e_2` (and
:math:`\theta \le 1`) with :math:`\varepsilon^* \le` ``bound`` :math:`\le e_1` proves the rule
:math:`\varepsilon`-DP for every :math:`\varepsilon \in [e_1, e_2]`; the cells must run from ``claim.eps_0`` down to
``claim.eps_lo``.
"""

from __future__ import annotations

from fractions import Fraction

from . import arete as _A
from ._arb import ball, prec, rational
from ._refused import Refused

KINDS = ("arete_region", "arete_rates")


def _bound(P, proof, bits):
    """A proved upper bound (Fraction) of eps*(P) at sensitivity 1: the Lipschitz bound or the recorded cover."""
    if proof["method"] == "lipschitz":
        return 1 / P[2]
    if proof["method"] != "cover":
        raise ValueError(f"unknown method {proof['method']!r}")
    return _A.cover_bound(_A.Arete(*P, bits), 1, rational(proof["T"], "T"), [rational(p, "points") for p in proof["points"]])


def _private(P, proof, bound, e0, bits):
    b = rational(bound, "bound")
    U = _bound(P, proof, bits)
    if not (U <= b <= e0):
        raise ValueError(f"the re-derived bound {float(U)!r} is not below the claimed {float(b)!r} <= {float(e0)!r}")


def _corner(P, e, d, side):
    """Whether the parameters P are below (side < 0) or above (side > 0) Lemma 3's at (e, d), certainly."""
    with prec(128):
        x = (-ball(e) / 4).exp()
        ok = [(ball(p) <= r) if side < 0 else (ball(p) >= r) for p, r in ((P[0], x), (P[2], x / ball(d)))]
    return all(ok) and (P[1] <= 4 / e if side < 0 else P[1] >= 4 / e)


def _tiling(box, rects):
    """Nothing when the rectangles (a, b, p, q) tile the box ((E0, E1), (D0, D1)) exactly, else ValueError saying why.

    >>> Q = Fraction
    >>> box = ((Q(0), Q(2)), (Q(1), Q(3)))
    >>> _tiling(box, [(Q(0), Q(1), Q(1), Q(3)), (Q(1), Q(2), Q(1), Q(3))])      # two halves tile it
    >>> _tiling(box, [(Q(0), Q(1), Q(1), Q(3))])
    Traceback (most recent call last):
      ...
    ValueError: the cells' areas do not add up to the box's area
    """
    (E0, E1), (D0, D1) = box
    flat = D0 == D1
    size = lambda a, b, p, q: (b - a) * (1 if flat else q - p)
    if not E0 < E1 or any(not (E0 <= a <= b <= E1 and D0 <= p <= q <= D1) for a, b, p, q in rects):
        raise ValueError("a cell lies outside the box")
    if sum(size(*r) for r in rects) != size(E0, E1, D0, D1):
        raise ValueError("the cells' areas do not add up to the box's area")
    rs = sorted(rects)
    for k, (a, b, p, q) in enumerate(rs):
        for a2, _, p2, q2 in rs[k + 1:]:
            if a2 >= b:
                break
            if flat or (p2 < q and p < q2):
                raise ValueError(f"cells at eps {float(a)!r} and {float(a2)!r} overlap")


def region(doc, say):
    bits = doc.get("prec", 64)
    box = [tuple(rational(x, "box") for x in doc["box"][k]) for k in ("eps", "sensitivity")]
    counts, rects = {"private": 0, "not private": 0, "undecided": 0}, []
    for i, c in enumerate(doc["cells"]):
        (e0, e1), (d0, d1) = ([rational(x, f"cells[{i}]") for x in c[k]] for k in ("eps", "sensitivity"))
        rects.append((e0, e1, d0, d1))
        s = c["status"]
        counts[s] += 1
        try:
            if s == "private":
                P = _A.params(c["params"])
                if not _corner(P, e1, d1, -1):
                    raise ValueError("the parameters are not below the cell's lower corner")
                _private(P, c["proof"], c["bound"], e0, bits)
            elif s == "not private":
                P = _A.params(c["params"])
                if not _corner(P, e0, d0, 1):
                    raise ValueError("the parameters are not above the cell's upper corner")
                lo = rational(c["witness"]["lower"], "witness.lower")
                if not (e1 < lo <= _A.witness(_A.Arete(*P, bits), 1, rational(c["witness"]["t"], "witness.t"))):
                    raise ValueError(f"the witness does not show L > {float(e1)!r} (claimed {float(lo)!r})")
        except (ValueError, Refused) as e:
            raise Refused(f"cell {i} (eps {c['eps']}, sensitivity {c['sensitivity']}, {s}): {e}") from None
        if i % 50 == 49:
            say(f"{i + 1} of {len(doc['cells'])} cells")
    _tiling(box, rects)
    if counts != {k: doc["claim"][k] for k in counts}:
        raise Refused(f"the claim's counts are not the cells' {counts}")
    return counts


_RULES = {"mean_abs": lambda e: (2 * ball(6).sqrt() * (-e / 2).exp(), 4 * ball(6).sqrt() * (-e / 2).exp()),
          "variance": lambda e: (8 * ball(3) ** (ball(2) / 3) * (-2 * e / 3).exp(), 2 * ball(3) ** (ball(1) / 3) * (-e / 3).exp())}


def rates(doc, say):
    bits, rule = doc.get("prec", 64), _RULES[doc["rule"]]
    lo, edge = (rational(doc["claim"][k], f"claim.{k}") for k in ("eps_lo", "eps_0"))
    for i, c in enumerate(doc["cells"]):
        e1, e2 = rational(c["e1"], "e1"), rational(c["e2"], "e2")
        if not (e2 == edge and lo <= e1 < e2):
            raise Refused(f"cell {i} [{c['e1']}, {c['e2']}] does not continue the cover at {edge}")
        P = _A.params(c["params"])
        with prec(128):
            a, la = rule(ball(e2))
            ok = ball(P[0]) <= a and P[1] <= 1 and ball(P[2]) <= la
        try:
            if not ok:
                raise ValueError("the parameters are not below the rule's")
            _private(P, c["proof"], c["bound"], e1, bits)
        except (ValueError, Refused) as e:
            raise Refused(f"cell {i} [{c['e1']}, {c['e2']}]: {e}") from None
        edge = e1
        say(f"cell {i + 1} of {len(doc['cells'])}")
    if edge != lo:
        raise Refused(f"the cells stop at {edge}, not at eps_lo = {lo}")
    return {"cells": len(doc["cells"])}


def check(doc, progress=None):
    """Re-derive every cell; returns ``(None, None, counts)`` or raises ``Refused``."""
    say = progress or (lambda s: None)
    try:
        return None, None, (region if doc["kind"] == "arete_region" else rates)(doc, say)
    except (KeyError, TypeError) as e:
        raise Refused(f"malformed certificate: missing or wrong field {e}") from None
    except ValueError as e:
        raise Refused(str(e)) from None
