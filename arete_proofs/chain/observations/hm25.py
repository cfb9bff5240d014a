r"""The 2025 paper's literal readings that are false: variants of its registry records, refuted with a counterexample.

Harrison and Manurangsi (FORC 2025; arXiv:2504.05202; statements reconstructed, not from the full text).  The
registry's records (``hm25-...``, :mod:`arete_proofs.chain.hm25_records`) state what is true;
each literal reading here is a **variant** of one of them (:func:`literal_variants`, a
:class:`~arete_proofs.chain.registry.Statement` with ``base`` set, built from the record's own
expressions), checked by :func:`arete_proofs.chain.verify.verify` on its grid; the observation
reports the variant's worst point (the counterexample, both sides):

==================================  =======  ===========================================================
id                                  verdict  in short
==================================  =======  ===========================================================
``hm25-theorem-13-literal``         fails    "eps <= L" gives eps-DP: at eps = L/2, delta > 0
``hm25-theorem-13-beta-gt-1``       fails    the first case's formula for beta > 1 understates a Delta
``hm25-corollary-14-beta-gt-Delta`` fails    a Delta + ln(Delta/beta) without beta < 1: false for beta > Delta
==================================  =======  ===========================================================

:data:`HM25_CHECKS` also holds the observations of ``hm25_msdlap`` on how tight Theorems 16, 18
and 21 are (``hm25-theorem-16-tail``, ``hm25-theorem-18-room``, ``hm25-theorem-21-budget``).

>>> v = literal_variants()["hm25-corollary-14-beta-gt-Delta"]
>>> v.base, [str(h) for h in v.hypotheses if "beta" in str(h)]
('hm25-corollary-14', ['beta > 0', 'beta > Delta'])
"""

from __future__ import annotations

import dataclasses

import sympy as sp

from .. import grids
from ..gdl_symbols import L13, a_GDL, beta, delta_GDL
from ..registry import REGISTRY
from ..symbols import Delta
from ._common import Observation
from .hm25_msdlap import MSDLAP_CHECKS

__all__ = ["literal_variants", "HM25_CHECKS", "HM25_OBSERVATION_IDS", "check_hm25_theorem_13_literal",
           "check_hm25_theorem_13_beta_gt_1", "check_hm25_corollary_14_beta_gt_delta"]


def _bound(sid, name):
    return next(b for b in REGISTRY[sid].bounds if b.name == name)


def literal_variants() -> dict:
    r"""``{observation id: variant record}``: each literal reading of Theorem 13 and Corollary 14 (HM25) as a record.

    >>> v = literal_variants()["hm25-theorem-13-beta-gt-1"]
    >>> v.bounds[0].rhs == REGISTRY["hm25-theorem-13"].bounds[0].rhs     # the registry's own L, no formula rewritten
    True
    """
    t13, c14 = REGISTRY["hm25-theorem-13"], REGISTRY["hm25-corollary-14"]
    closed = _bound("hm25-theorem-13", "closed-form")
    literal = dataclasses.replace(
        t13, id="hm25-theorem-13-literal", base=t13.id, number="Theorem 13 (HM25), literal",
        hypotheses=t13.hypotheses + (beta < 1,),
        bounds=(dataclasses.replace(_bound("hm25-theorem-13", "direction"), name="literal",
                                    lhs=delta_GDL(beta, a_GDL, Delta, L13 / 2), rhs=sp.Integer(0), where=(),
                                    text="literal 'eps <= L': eps-DP (delta = 0) at eps = L/2"),))
    beyond = dataclasses.replace(
        t13, id="hm25-theorem-13-beta-gt-1", base=t13.id, number="Theorem 13 (HM25), first case for beta > 1",
        hypotheses=t13.hypotheses + (beta > 1,),
        bounds=(dataclasses.replace(closed, name="first-case-formula", where=(),
                                    text="beta > 1: eps* = L (the first case's formula)"),))
    c14_beyond = dataclasses.replace(
        c14, id="hm25-corollary-14-beta-gt-Delta", base=c14.id, number="Corollary 14 (HM25) for beta > Delta",
        hypotheses=tuple(h for h in c14.hypotheses if h != (beta < 1)) + (beta > Delta,),
        bounds=(_bound("hm25-corollary-14", "bound"),), grid=grids.hm25_theorem_13)
    return {"hm25-theorem-13-literal": literal, "hm25-theorem-13-beta-gt-1": beyond,
            "hm25-corollary-14-beta-gt-Delta": c14_beyond}


def _refute(oid, statement, literal, digits, detail):
    from .. import verify as V

    rep = V.verify([literal_variants()[oid]], level="quick", digits=max(digits, 10), progress=False).statements[0]
    b = rep.bounds[0]
    ex = b.examples[0] if b.examples else {}
    evidence = {"points": b.points, "violations": b.violations, "counterexample": ex,
                "worst": dict(b.argmin, slack=b.min_slack)}
    holds = b.violations == 0 and not rep.grid_errors
    return Observation(oid, statement, literal, "holds" if holds else "fails", holds, detail, evidence)


def check_hm25_theorem_13_literal(digits: int = 20) -> Observation:
    r"""Theorem 13 as printed, "eps <= L": read as "eps-DP for eps <= L", false (at :math:`\varepsilon = L/2`, :math:`\delta > 0`).

    >>> o = check_hm25_theorem_13_literal()
    >>> o.verdict, o.evidence["counterexample"]["rhs"]          # claimed delta = 0; the exact delta is the lhs
    ('fails', '0')
    """
    return _refute("hm25-theorem-13-literal", "Theorem 13 (HM25)", "eps <= L (eps-DP for every eps up to L)", digits,
                   "the mechanism is eps-DP iff eps >= L: at eps = L/2 < L the hockey-stick delta is positive "
                   "(at least p(0)(1 - e^{-L/2}), the k = 0 term); the registry records 'iff eps >= L'")


def check_hm25_theorem_13_beta_gt_1(digits: int = 20) -> Observation:
    r"""Theorem 13's first-case formula used for :math:`\beta > 1`: it is :math:`L_\Delta(0) < a\Delta = \varepsilon^*`.

    >>> o = check_hm25_theorem_13_beta_gt_1()
    >>> o.verdict, o.evidence["counterexample"]["lhs"], o.evidence["counterexample"]["rhs"]   # eps* vs the formula
    ('fails', '0.7', '0.227270229359')
    """
    return _refute("hm25-theorem-13-beta-gt-1", "Theorem 13 (HM25)",
                   "the loss a Delta + ln[2F1(...)/2F1(...) G(D+1)G(b)/G(b+D)] for beta > 1", digits,
                   "for beta > 1 the loss L_Delta(k) increases in k and the supremum is the tail limit a Delta; "
                   "the formula is L_Delta(0), below it (the theorem's second case is right)")


def check_hm25_corollary_14_beta_gt_delta(digits: int = 20) -> Observation:
    r"""Corollary 14's bound :math:`a\Delta + \ln(\Delta/\beta)` without :math:`\beta < 1`: false for :math:`\beta > \Delta`.

    >>> o = check_hm25_corollary_14_beta_gt_delta()
    >>> o.verdict, o.evidence["counterexample"]["point"]                 # eps* = 0.7 > 0.7 + ln(1/2)
    ('fails', {'Delta': '1', 'a_GDL': '7/10', 'beta': '2'})
    """
    return _refute("hm25-corollary-14-beta-gt-Delta", "Corollary 14 (HM25)", "eps* <= a Delta + ln(Delta/beta) "
                   "(beyond beta < 1)", digits,
                   "for beta >= 1, eps* = a Delta, so the bound holds iff ln(Delta/beta) >= 0: for 1 <= beta <= Delta "
                   "(not stated), false for beta > Delta")


#: id -> check(digits) -> Observation (the 2025 paper; :func:`arete_proofs.chain.observations.run` takes these ids too).
HM25_CHECKS = {
    "hm25-theorem-13-literal": check_hm25_theorem_13_literal,
    "hm25-theorem-13-beta-gt-1": check_hm25_theorem_13_beta_gt_1,
    "hm25-corollary-14-beta-gt-Delta": check_hm25_corollary_14_beta_gt_delta,
    **MSDLAP_CHECKS,   # Theorems 16, 18, 21: how tight (module hm25_msdlap)
}

#: The 2025 paper's observation ids.
HM25_OBSERVATION_IDS = tuple(HM25_CHECKS)
