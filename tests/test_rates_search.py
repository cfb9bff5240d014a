"""The counterexample search reaches the faces of the hypothesis region and the domain ends
(issue 26, item 4): variants of Lemma 26 that are false only there, missed by the interior search
(``faces=False`` / the old box Delta <= 1e3) and refuted by the face and end stages."""

from __future__ import annotations

import dataclasses
import math

import sympy as sp

from arete_proofs.chain import search as S
from arete_proofs.chain.registry import REGISTRY
from arete_proofs.chain.symbols import Delta, a, eps, lam


def _face_variant():
    """f_L(t)/f_L(t + a) <= e^eps exp(-1e7 max(0, |a|/Delta - 1 + 1e-6)): false only within 1e-6 of |a| = Delta."""
    st = REGISTRY["lemma-26"]
    b = st.bounds[0]
    rhs = sp.exp(eps) * sp.exp(-10**7 * sp.Max(0, sp.Abs(a) / Delta - 1 + sp.Rational(1, 10**6)))
    return dataclasses.replace(st, id="face-variant", base="lemma-26", bounds=(dataclasses.replace(b, rhs=rhs),))


def _end_variant():
    """lam = (Delta/eps)(1 - max(0, Delta - 5000)/(2 Delta)): not eps-DP only for Delta > 5000."""
    st = REGISTRY["lemma-26"]
    sub = {lam: Delta / eps * (1 - sp.Max(0, Delta - 5000) / (2 * Delta))}
    return dataclasses.replace(st, id="end-variant", base="lemma-26", substitutions=sub)


def test_face_search_refutes_a_variant_false_only_on_a_face():
    st = _face_variant()
    interior = [{**p, a: p[a] / 2} for p in REGISTRY["lemma-26"].points("quick")]   # |a| <= Delta/2
    miss = S.search_bound(st, st.bounds[0], budget=300, starts=interior, progress=False, faces=False)
    hit = S.search_bound(st, st.bounds[0], budget=300, starts=interior, progress=False)
    assert not miss.refuted
    assert hit.refuted and hit.slack < -1
    D, aa = (sp.Rational(hit.point[k]) for k in ("Delta", "a"))
    assert 1 - 1e-6 < abs(aa) / D <= 1                     # on the face |a| = Delta (up to the margin)


def test_end_search_refutes_a_variant_false_only_at_large_delta(monkeypatch):
    st = _end_variant()
    hit = S.search_bound(st, st.bounds[0], budget=300, level="default", progress=False)
    assert hit.refuted and float(hit.point["Delta"]) > 5000
    # the box of before issue 26 (Delta <= 1e3, no domain ends, no face stage) misses it
    monkeypatch.setitem(S._CAP_HI, Delta, math.log(1e3))
    monkeypatch.delitem(S._DOMAIN_END, Delta)
    miss = S.search_bound(st, st.bounds[0], budget=300, level="default", progress=False, faces=False)
    assert not miss.refuted


def test_true_statement_survives_the_face_and_end_stages():
    r = S.search_bound("lemma-26", "privacy", budget=200, level="quick", progress=False)
    assert not r.refuted and r.slack >= 0
