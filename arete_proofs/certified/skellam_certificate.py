r"""Write a checkable ``lattice_skellam`` certificate: the search that :mod:`arete_proofs.check.lattice_skellam` re-checks.

For :math:`Z = h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)` at an integer sensitivity :math:`\Delta` the search chooses
what the check would otherwise have to find and records it: the Chernoff rate :math:`\theta` of the comb's tail
profile (a fraction of the gap :math:`a/(m(m-1))`, the one with the shortest window), the kernel's radius :math:`R`
and the Chernoff parameter :math:`\varphi_k` of its neglected mass (until that mass is below :math:`10^{-16}` of the
least value of :math:`F_\infty`), and the window :math:`n_0` with its :math:`\varphi` (the least :math:`n_0` whose
tail bound :math:`\eta` is below ``tol``, by bisection).  Every bound is then evaluated by the checker's own code
(:func:`arete_proofs.check.lattice_skellam.derive`), the claims are rounded outward, and the checker is run on the
document before it is returned.

>>> doc = write_lattice_skellam("1", 2, "0.7", 3, 6)
>>> from arete_proofs.check import check_document
>>> r = check_document(doc)
>>> r["verdict"], r["upper"] - r["lower"] < 1e-9
('checked', True)
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

from ..check import FORMAT
from ..check import _comb
from ..check import lattice_skellam as _ls
from ..check._arb import ball, prec
from ._seal import sealed
from .gauss_certificate import _txt

__all__ = ["SkellamCertificate", "certify", "write_lattice_skellam"]


def _exact(x, name):
    """An exact parameter string: a string as given (it must be an exact rational), a float by its repr."""
    s = repr(x) if isinstance(x, float) else (x if isinstance(x, str) else _txt(Fraction(x)))
    try:
        if not Fraction(s) > 0:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{name} must be a positive exact rational, got {x!r}") from None
    return s


def _dec(x, up, digits=12):
    """A plain decimal string >= x (``up``) or <= x with ``digits`` significant digits, at least a tenth of the last
    digit away from ``x``: a re-derivation whose outward rounding differs in the last bits of a float (another numpy
    or python-flint) still lies inside the claim.

    >>> _dec(1.0, True), _dec(1.0, False), _dec(0.25, True, 2)
    ('1.00000000001', '0.99999999999', '0.26')
    """
    from decimal import Decimal

    if not x:
        return "0"
    e = math.floor(math.log10(abs(x))) - digits + 1
    q = Fraction(x) / Fraction(10) ** e
    pad = Fraction(1, 10)
    return format(Decimal(math.ceil(q + pad) if up else math.floor(q - pad)).scaleb(e), "f")


def _rat(x, den=10 ** 6):
    return Fraction(math.floor(x * den), den)


def _theta(a, m, h, mu):
    """The Chernoff rate with the shortest guide window (h (ln E0 + ln M(lambda' + theta/h) + 60) / theta)."""
    if m == 1:
        return Fraction(0)
    gap, lt, best = a / (m * (m - 1)), float(a / (m * h)), None
    for f in (Fraction(1, 4), Fraction(2, 5), Fraction(11, 20), Fraction(7, 10), Fraction(17, 20)):
        th = _rat(float(gap * f), 10 ** max(3, 2 - math.floor(math.log10(float(gap * f)))))
        E = float(_comb.chernoff(list(range(1, m + 1)), [a] * m, th).mid())
        lnM = 2 * float(mu) * (math.cosh(lt + float(th) / h) - 1)
        size = h * (math.log(max(E, 1e-300)) + lnM + 60) / float(th)
        if best is None or size < best[0]:
            best = (size, th)
    return best[1]


def _phi(n, mu, lt):
    """The Chernoff minimiser of e^{-phi n} M(lambda' + phi) (any phi > 0 is valid), as a simple rational."""
    return _rat(max(math.asinh(n / (2 * float(mu))) - lt, 1e-3))


def _guide_table(P, H):
    """A table long enough that its profile C is tight (for the window search only; the check builds its own)."""
    m, a, th = P["m"], P["a"], H["theta"]
    if m == 1:
        return _comb.table([1], [a], 2, theta=0)
    E = float(_comb.chernoff(list(range(1, m + 1)), [a] * m, th).mid())
    return _comb.table(list(range(1, m + 1)), [a] * m, math.ceil((math.log(max(E, 1.0)) + 45) / float(th)) + 2 * m,
                       theta=th)


def _kernel_radius(P, H, t):
    """(R, phi_k, G_min): the neglected kernel mass times C_max below 1e-16 C_min G_min."""
    mu, h, lt = P["mu"], P["h"], float(P["a"] / (P["m"] * P["h"]))
    R = max(math.ceil(2 * float(mu) * math.sinh(lt) + 14 * math.sqrt(2 * float(mu)) + 40), h)
    while True:
        H.update(R=R, phik=_phi(R + 1, mu, lt))
        klo, _, tail = _ls.kernel(P, H)
        gmin = min(sum(klo[(j + R) % h::h]) for j in range(h)) if h <= len(klo) else 0.0
        with prec(128):
            ok = gmin > 0 and (ball(Fraction(t.cmax)) * tail).upper() < 1e-16 * t.cmin * gmin
        if ok:
            return gmin
        R = int(R * 1.3) + 10


def _window(P, H, t, gmin, tol):
    """The least n0 (bisection) with eta(n0) < tol, phi chosen for each n0."""
    mu, h, lt = P["mu"], P["h"], float(P["a"] / (P["m"] * P["h"]))

    def eta(n):
        H.update(n0=n, phi=_phi(n + h, mu, lt))
        r = _ls.rho(P, H, t, gmin)
        if not r.upper() < 1:
            return math.inf
        with prec(128):
            return float((r.log1p() - (-r).log1p()).upper())

    lo, hi = 0, h
    while not eta(hi) < tol:
        lo, hi = hi, 2 * hi
        if hi > 10 ** 7:
            raise ValueError("the window would exceed 10^7 points")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if eta(mid) < tol else (mid, hi)
    eta(hi)


def write_lattice_skellam(a, m, mu, h, Delta, *, epsilon=None, tol="1e-12", theta=None, progress=None):
    r"""A certificate document (``format`` :data:`arete_proofs.check.FORMAT`, kind ``lattice_skellam``) for
    :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)` at the integer sensitivity ``Delta``: the claim
    :math:`\varepsilon^* \in [\mathrm{lower}, \mathrm{upper}]`, ``upper`` :math:`\le` ``epsilon`` (default: ``upper``),
    the tail bound :math:`\eta <` ``tol``, and the enclosures of :math:`E|Z|` and :math:`\mathrm{Var}\,Z`.  ``a`` and
    ``mu`` are exact (strings, Fractions; a float is read as its repr).  ``ValueError`` when a parameter is out of
    range or the bound is above ``epsilon``.
    """
    t0 = time.perf_counter()
    say = progress or (lambda s: None)
    doc = {"format": FORMAT, "kind": _ls.KIND,
           "params": {"a": _exact(a, "a"), "m": int(m), "mu": _exact(mu, "mu"), "h": int(h)},
           "Delta": _txt(Fraction(Delta)), "tail": {"n0": 1, "theta": "0", "phi": "1"}, "kernel": {"R": 1, "phi": "1"}}
    P, H = _ls.parse(doc)
    H["theta"] = Fraction(theta) if theta is not None else _theta(P["a"], P["m"], P["h"], P["mu"])
    t = _guide_table(P, H)
    gmin = _kernel_radius(P, H, t)
    _window(P, H, t, gmin, float(Fraction(tol)))
    say(f"theta={H['theta']}, R={H['R']}, n0={H['n0']} ({time.perf_counter() - t0:.1f} s)")
    lower, upper, _, (ma, va) = _ls.derive(P, H, say)
    upper = math.nextafter(upper + abs(upper) * 1e-15, math.inf)       # room for a re-check's last-bit differences
    if epsilon is not None and not Fraction(upper) <= Fraction(epsilon):
        raise ValueError(f"the certified upper bound {upper!r} is above epsilon = {epsilon}")
    doc["tail"] = {"n0": H["n0"], "theta": _txt(H["theta"]), "phi": _txt(H["phi"])}
    doc["kernel"] = {"R": H["R"], "phi": _txt(H["phik"])}
    up_s = _dec(upper, True)
    doc["claim"] = {"lower": _dec(lower - abs(lower) * 1e-15, False), "upper": up_s,
                    "epsilon": str(epsilon) if epsilon is not None else up_s}
    doc["objectives"] = {"mean_abs": [_dec(ma[0], False), _dec(ma[1], True)],
                         "variance": [_dec(va[0], False), _dec(va[1], True)]}
    doc["search_seconds"] = round(time.perf_counter() - t0, 1)
    return sealed(doc)


class SkellamCertificate:
    """A written certificate as the search (:func:`arete_proofs.privacy.optimize_skellam.optimize`) reads it:
    ``upper`` (a float), ``lo`` and ``hi`` (the claim's strings) and ``to_json()`` (the document)."""

    def __init__(self, doc):
        self.doc = doc
        self.lo, self.hi = doc["claim"]["lower"], doc["claim"]["upper"]
        self.upper = float(Fraction(self.hi))

    def to_json(self):
        return self.doc


def certify(a, m, mu, h, Delta, *, digits=None, epsilon=None):
    """:func:`write_lattice_skellam` for the search's ``certify`` hook (``digits`` is not used: the claims carry
    the checker's accuracy)."""
    return SkellamCertificate(write_lattice_skellam(a, m, mu, h, Delta, epsilon=epsilon))
