r"""Lemma 3 with rates below :math:`\varepsilon_0`: a certificate from the exact loss.

The proof chain (:mod:`arete_proofs.chain.rates`) proves the rate-optimal rules
``mean_abs`` (:math:`\varepsilon \ge 11`) and ``variance`` (:math:`\varepsilon \ge 10`)
:math:`\varepsilon`-DP; below :math:`\varepsilon_0` its constants do not reach, but the
exact loss does.  This module proves, in ball arithmetic, that each rule is
:math:`\varepsilon`-DP for **every** :math:`\varepsilon \in [\varepsilon_{lo}, \varepsilon_0]`,
by a finite cover of that interval by cells :math:`[e_1, e_2]`.

**Argument.**  Both rules set :math:`\theta = \Delta` and :math:`\alpha, \lambda` decreasing
in :math:`\varepsilon` (:math:`\alpha = 2\sqrt6 e^{-\varepsilon/2}`,
:math:`\lambda = 4\sqrt6\Delta e^{-\varepsilon/2}`; :math:`\alpha = 8\cdot 3^{2/3}e^{-2\varepsilon/3}`,
:math:`\lambda = 2\cdot 3^{1/3}\Delta e^{-\varepsilon/3}`), and the tight epsilon is
nonincreasing in :math:`\alpha` and in :math:`\lambda`: a larger parameter is the smaller one
plus independent noise (:math:`\Gamma(\alpha_2,\theta) = \Gamma(\alpha_1,\theta) *
\Gamma(\alpha_2-\alpha_1,\theta)`; :math:`\mathrm{Laplace}(\lambda_2) = \mathrm{Laplace}(\lambda_1) * \mu`
with :math:`\hat\mu = (\lambda_1/\lambda_2)^2 + (1-(\lambda_1/\lambda_2)^2)/(1+\lambda_2^2w^2)`,
a mixture of a point mass and a Laplace law), and post-processing cannot raise the loss
(the facts of ``docs/explanation/certification.md``).  So for :math:`\varepsilon \in [e_1, e_2]`

.. math::

    \varepsilon^*(\text{rule}(\varepsilon)) \le \varepsilon^*(\underline{\text{rule}}(e_2))
    \le U(e_2) \le e_1 \le \varepsilon ,

where :math:`\underline{\text{rule}}(e_2)` are the rule's parameters at :math:`e_2` rounded
**down** to exact rationals and :math:`U(e_2)` is the certified upper bound of
:func:`arete_proofs.certified.epsilon.certify_epsilon`.  The scaling law (:math:`\theta` and
:math:`\lambda` proportional to :math:`\Delta`, :math:`\alpha` free of it) makes
:math:`\Delta = 1` enough.  :func:`certify_below` builds the cells greedily from
:math:`e_2 = \varepsilon_0` down (:math:`e_1 = U(e_2)` rounded up to ``step``), so a few
cells cover the interval.  The file (:meth:`RatesRegion.to_json`) is an ``arete_rates`` certificate
(format ``arete-certificate/1``): each cell records its parameters, the search's cover of :math:`[0, T]` or the Lipschitz
method, and its ``bound`` (the checker's, rounded up by a relative :math:`10^{-12}`);
:func:`check` runs the independent checker ``arete_proofs.check.arete_region`` on it and compares
:math:`\varepsilon_0` with the proof chain's.

>>> from mpmath import mp
>>> a, th, la = rule_parameters_down("mean_abs", 4)          # alpha = 2 sqrt(6) e^-2, rounded down
>>> with mp.workdps(40):
...     exact = 2 * mp.sqrt(6) * mp.exp(-2)
...     bool(th == 1 and 0 < exact - mp.mpf(a.numerator) / a.denominator < 1e-18)
True
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["RateCell", "RatesRegion", "rule_parameters_down", "certify_below", "check", "FORMAT"]

#: ``format`` of the JSON file (an ``arete_rates`` certificate of ``arete_proofs.check``).
FORMAT = "arete-certificate/1"


@dataclass(frozen=True)
class RateCell:
    r"""One cell of Lemma 3 with rates below :math:`\varepsilon_0`: the rule is
    :math:`\varepsilon`-DP for every :math:`\varepsilon \in [e_1, e_2]` because the certified
    upper bound ``upper`` :math:`\ge \varepsilon^*` at the rule's (rounded-down) parameters
    ``params`` at :math:`e_2` is at most :math:`e_1`.  ``method``: how it is proved (``proof``:
    the cover of :math:`[0, T]` the checker re-evaluates, or the Lipschitz bound).

    >>> c = RateCell("1", "13/4", 0.5183139725469764, "lipschitz")
    >>> c.upper <= Fraction(c.e1) < Fraction(c.e2)          # the cell's condition
    True
    """

    e1: str
    e2: str
    upper: float
    method: str
    seconds: float = 0.0
    params: dict = field(default_factory=dict)
    proof: dict = field(default_factory=dict)
    bound: str = ""


@dataclass
class RatesRegion:
    r"""The cover of :math:`[\varepsilon_{lo}, \varepsilon_0]` for one rule of Lemma 3 with
    rates, in order of decreasing :math:`e_2`; :meth:`RatesRegion.to_json` is the file :func:`check` reads.

    >>> reg = RatesRegion("mean_abs", "1", "11", [RateCell("1", "13/4", 0.5183, "lipschitz")])
    >>> json.loads(reg.to_json())["cells"][0]["e2"]
    '13/4'
    """

    rule: str
    eps_lo: str
    eps_0: str
    cells: list = field(default_factory=list)
    seconds: float = 0.0
    command: str = ""

    def to_json(self) -> str:
        """The ``arete_rates`` certificate as JSON text, what :func:`check` reads."""
        from ..check import digest

        doc = {"format": FORMAT, "kind": "arete_rates", "rule": self.rule, "prec": 64,
               "claim": {"eps_lo": self.eps_lo, "eps_0": self.eps_0}, "command": self.command,
               "seconds": round(self.seconds, 1),
               "cells": [{"e1": c.e1, "e2": c.e2, "params": c.params, "proof": c.proof, "bound": c.bound,
                          "seconds": c.seconds} for c in self.cells]}
        doc["digest"] = digest(doc)
        return json.dumps(doc, indent=1) + "\n"


def _rule(rule):
    from ..chain.rates import RULES

    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    return RULES[rule]


def rule_parameters_down(rule, eps, *, digits=20):
    r"""The rule's :math:`(\alpha, \theta, \lambda)` at ``eps`` and :math:`\Delta = 1` as exact
    ``Fraction`` s, :math:`\alpha` and :math:`\lambda` rounded **down** (to ``digits``
    significant digits, one unit below the floor, so below the true values whatever the last
    digit of the mpmath evaluation at ``digits + 20`` digits).

    >>> from mpmath import mp
    >>> a, th, la = rule_parameters_down("variance", 10)
    >>> with mp.workdps(40):
    ...     bool(mp.mpf(a.numerator) / a.denominator < 8 * mp.cbrt(9) * mp.exp(mp.mpf(-20) / 3))
    True
    """
    import sympy as sp
    from mpmath import mp

    from ..chain.symbols import Delta, alpha, eps as eps_sym, lam

    r = _rule(rule)
    e = Fraction(str(eps)) if not isinstance(eps, Fraction) else eps
    if not e > 0:
        raise ValueError(f"eps must be positive, got {eps!r}")
    out = []
    with mp.workdps(digits + 20):
        for sym in (alpha, lam):
            expr = r.substitutions[sym].subs({Delta: 1, eps_sym: sp.Rational(e.numerator, e.denominator)})
            v = mp.mpf(sp.N(expr, digits + 20))
            k = digits - 1 - int(mp.floor(mp.log10(v)))
            scaled = int(mp.floor(v * mp.mpf(10) ** k)) - 1
            out.append(Fraction(scaled, 10**k) if k >= 0 else Fraction(scaled * 10 ** (-k)))
    return out[0], Fraction(1), out[1]


def _ceil_to(x: float, step: Fraction) -> Fraction:
    q = Fraction(x).limit_denominator(10**12)
    if q < Fraction(x):
        q = Fraction(x)
    n = math.ceil(q / step)
    return n * step


def _prove(rule, e2, tol, max_seconds):
    from .epsilon import certify_epsilon

    a, th, la = rule_parameters_down(rule, e2)
    t0 = time.perf_counter()
    c = certify_epsilon(a, th, la, 1, tol=tol, numeric=False, max_seconds=max_seconds)
    return c, time.perf_counter() - t0, (a, th, la)


def _record(c, P):
    """The cell's record for the certificate: its parameters, the proof (the search's cover, or the Lipschitz
    bound) and the checker's bound rounded up (the docs quote it)."""
    from ..check import arete as C
    from .arete_certificate import outward

    rec = {"params": {k: str(v) for k, v in zip(("alpha", "theta", "lam"), P)}}
    if c.method == "cover":
        rec["proof"] = {"method": "cover", "T": repr(c.T), "points": [repr(float(p)) for p in c.points]}
        U = C.cover_bound(C.Arete(*P), 1, Fraction(rec["proof"]["T"]), [Fraction(p) for p in rec["proof"]["points"]])
    else:
        rec["proof"], U = {"method": "lipschitz"}, 1 / P[2]
    rec["bound"] = outward(U, U)[1]
    return rec


def certify_below(rule, eps_lo=1, *, eps_hi=None, step="1/4", tol="1e-3", max_seconds=600,
                  progress=False) -> RatesRegion:
    r"""Cover :math:`[\varepsilon_{lo}, \varepsilon_{hi}]` (default :math:`\varepsilon_{hi} =
    \varepsilon_0`, the file :func:`check` accepts) by cells on which ``rule`` is proved
    :math:`\varepsilon`-DP (module docstring); ``ArithmeticError`` if a cell cannot shrink
    (the bound at :math:`e_2` is not below :math:`e_2`).  ``progress``: a line per cell on stderr.
    About 15 s per rule from :math:`\varepsilon_{lo} = 1` to :math:`\varepsilon_0` (three cells).

    >>> reg = certify_below("mean_abs", 1, eps_hi=3)   # lam >= theta: eps* <= Delta/lam at once
    >>> [(c.e1, c.e2, c.method) for c in reg.cells], reg.cells[0].upper < 1
    ([('1', '3', 'lipschitz')], True)
    """
    r = _rule(rule)
    lo = Fraction(str(eps_lo))
    st = Fraction(str(step))
    eps_0 = Fraction(int(r.eps_0))
    hi = eps_0 if eps_hi is None else Fraction(str(eps_hi))
    if not (0 < hi <= eps_0):
        raise ValueError(f"eps_hi must be in (0, {eps_0}], got {eps_hi!r}")
    if not (0 < lo < hi):
        raise ValueError(f"eps_lo must be in (0, {hi}), got {eps_lo!r}")
    if not st > 0:
        raise ValueError(f"step must be positive, got {step!r}")
    t0 = time.perf_counter()
    region = RatesRegion(rule, str(lo), str(eps_0))
    e2 = hi
    while e2 > lo:
        c, sec, P = _prove(rule, e2, tol, max_seconds)
        e1 = max(lo, _ceil_to(c.upper, st))
        if e1 >= e2:
            raise ArithmeticError(f"rule {rule!r}: the certified bound {c.upper:.6g} at eps = {e2} is not "
                                  f"below {e2} (step {st})")
        rec = _record(c, P)
        if not Fraction(rec["bound"]) <= e1:
            raise ArithmeticError(f"rule {rule!r}: the checker's bound {rec['bound']} at eps = {e2} is above {e1}")
        region.cells.append(RateCell(str(e1), str(e2), c.upper, c.method, round(sec, 2), **rec))
        if progress:
            print(f"rates-region {rule}: eps in [{e1}, {e2}] proved (tight eps <= {c.upper:.6g} at {e2}, "
                  f"{c.method}, {sec:.1f} s)", file=sys.stderr, flush=True)
        e2 = e1
    region.seconds = time.perf_counter() - t0
    return region


def check(doc) -> list[str]:
    r"""Re-prove a stored cover (a ``dict`` from :meth:`RatesRegion.to_json`) from the file alone with the
    independent checker (``arete_proofs.check``: the cells must run from :math:`\varepsilon_0` down to
    :math:`\varepsilon_{lo}`, each cell's parameters below the rule's at ``e2`` and its bound at most ``e1``), and
    compare the claimed :math:`\varepsilon_0` with the proof chain's.  Returns the problems (empty: the
    certificate holds).

    >>> check({"format": FORMAT, "kind": "arete_rates", "rule": "mean_abs", "claim": {"eps_lo": "1", "eps_0": "11"},
    ...        "cells": []})
    ['the digest does not match: the document was edited after it was written']
    """
    from ..check import check_document

    problems = []
    r = check_document(doc)
    if r["verdict"] != "checked":
        problems.append(r["reason"])
    try:
        if Fraction(str(doc["claim"]["eps_0"])) != int(_rule(doc.get("rule")).eps_0):
            problems.append(f"eps_0 = {doc['claim']['eps_0']} is not the rule's {_rule(doc['rule']).eps_0}")
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        problems.append(f"malformed certificate: {exc}")
    return problems


if __name__ == "__main__":  # pragma: no cover - the command that wrote docs/data/rates-region-*.json
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("rule")
    p.add_argument("--eps-lo", default="1")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    reg = certify_below(a.rule, a.eps_lo, progress=True)
    reg.command = f"python -m arete_proofs.certified.rates_region {a.rule} --eps-lo {a.eps_lo} --out {a.out}"
    with open(a.out, "w", encoding="utf-8") as fh:
        fh.write(reg.to_json())
