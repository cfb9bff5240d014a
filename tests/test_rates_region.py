"""Lemma 3 with rates below eps_0: the shipped covers re-prove, edited ones fail (issue 26.2).

``docs/data/rates-region-{mean_abs,variance}.json`` (``arete_rates`` certificates) were written by
``python -m arete_proofs.certified.rates_region RULE --out FILE`` (about 15 s each).  An edited file gets its
digest recomputed here (hashlib), so that the checker's mathematics refuses it.
"""

from __future__ import annotations

import copy
import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint")

from arete_proofs.certified import rates_region as RR  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "docs" / "data"


def _doc(rule):
    return json.loads((DATA / f"rates-region-{rule}.json").read_text())


def _sign(doc):
    body = {k: v for k, v in doc.items() if k != "digest"}
    doc["digest"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return doc


@pytest.mark.parametrize("rule", ["mean_abs", "variance"])
def test_shipped_cover_reproves_from_the_file(rule):
    doc = _doc(rule)
    assert doc["claim"]["eps_lo"] == "1" and RR.check(doc) == []


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["cells"][0].update(e1="7") or d["cells"][1].update(e2="7"), "not below the claimed"),  # too wide
    (lambda d: d["cells"].pop(), "stop at"),                                   # the cover cut short
    (lambda d: d["cells"][1].update(e2="7"), "does not continue"),            # a gap between cells
    (lambda d: d["claim"].update(eps_0="10"), "not the rule's"),              # a wrong eps_0
    (lambda d: d.update(rule="lemma-3"), "malformed"),                        # an unknown rule
])
def test_an_edited_cover_fails(edit, words):
    doc = copy.deepcopy(_doc("mean_abs"))
    edit(doc)
    problems = RR.check(_sign(doc))
    assert problems and any(words in p for p in problems), problems


def test_an_edited_file_with_its_old_digest_fails():
    doc = copy.deepcopy(_doc("mean_abs"))
    doc["cells"][0]["e1"] = "7"
    assert any("digest" in p for p in RR.check(doc))


def test_parameters_are_rounded_down():
    # independent: the closed forms evaluated in mpmath at 50 digits (not through sympy)
    from mpmath import mp

    a, th, la = RR.rule_parameters_down("mean_abs", Fraction(15, 2))
    with mp.workdps(50):
        A = 2 * mp.sqrt(6) * mp.exp(mp.mpf(-15) / 4)
        L = 4 * mp.sqrt(6) * mp.exp(mp.mpf(-15) / 4)
        assert th == 1
        for q, v in ((a, A), (la, L)):
            x = mp.mpf(q.numerator) / q.denominator
            assert x < v and (v - x) / v < mp.mpf("1e-18")


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="rule"):
        RR.rule_parameters_down("median", 5)
    with pytest.raises(ValueError, match="eps_lo"):
        RR.certify_below("mean_abs", 12)


def test_docs_table_follows_the_files():
    """docs/explanation/rates.md renders the shipped covers (bounds rounded up to 4 decimals) at build time."""
    import math
    import re
    import sys

    assert "```{arete-table} rates-region" in (DATA.parent / "explanation" / "rates.md").read_text()
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(DATA.parent / "_ext"))
    import arete_site

    text = arete_site.Site().table("rates-region")
    for rule in ("mean_abs", "variance"):
        for c in _doc(rule)["cells"]:
            e1, e2 = (float(Fraction(c[k])) for k in ("e1", "e2"))
            row = re.search(rf"\| `{rule}` \| \[{e1:g}, {e2:g}\] \| \$\\le ([0-9.]+)\$", text)
            assert row, (rule, e1, e2)
            assert float(row.group(1)) == math.ceil(float(c["bound"]) * 1e4) / 1e4
