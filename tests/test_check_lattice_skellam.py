"""The ``lattice_skellam`` certificate kind (arete_proofs.check.lattice_skellam) and its writer.

The checker's enclosures are compared with independent computations: the exact mpmath engine
(privacy.tight_skellam), the ball-arithmetic certificate of certified.combs_skellam, the mpmath E|Z| and Var of
distributions.lattice_skellam, and two closed forms (m = 1, h = Delta: eps* = a; m = h = 1: eps* = a Delta, at the two
ends of mu).  Every tamper is built here by editing the JSON and re-signing it with hashlib, so that the refusal
comes from the mathematics; one test leaves the digest stale.  The full re-check of the shipped file is slow.
"""

from __future__ import annotations

import copy
import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint")

from arete_proofs.certified.skellam_certificate import certify, write_lattice_skellam
from arete_proofs.check import check_document
from arete_proofs.check._files import context_reason

DATA = Path(__file__).resolve().parents[1] / "docs" / "data" / "frontier-discrete.json"


def sign(doc):
    """The document with its digest recomputed independently of the checker."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    doc["digest"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return doc


@pytest.fixture(scope="module")
def cert():
    return write_lattice_skellam("1", 2, "0.7", 3, 6, epsilon="1.3")


def tampered(doc, edit):
    d = copy.deepcopy(doc)
    edit(d)
    return check_document(sign(d))


# -- against independent computations ---------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("1", 2, "0.7", 3, 6), ("3", 3, "1e-12", 2, 4), ("5/2", 4, "0.000001", 3, 12),
                                  ("3", 2, "30", 20, 40)])
def test_enclosures_contain_the_exact_values(args):
    from arete_proofs.distributions.lattice_skellam import lattice_skellam_mean_abs, lattice_skellam_var
    from arete_proofs.privacy.tight_skellam import tight_epsilon_lattice_skellam

    r = check_document(write_lattice_skellam(*args))
    assert r["verdict"] == "checked" and r["upper"] - r["lower"] < 1e-9
    exact = tight_epsilon_lattice_skellam(*args, digits=15)            # the mpmath engine, 15 digits
    assert r["lower"] <= exact.epsilon <= r["upper"]
    (ma_lo, ma_hi), (va_lo, va_hi) = r["objectives"]["mean_abs"], r["objectives"]["variance"]
    assert ma_lo <= lattice_skellam_mean_abs(*args[:4], digits=20) <= ma_hi and ma_hi - ma_lo < 1e-9 * ma_hi
    assert va_lo <= lattice_skellam_var(*args[:4], digits=20) <= va_hi and va_hi - va_lo < 1e-12 * va_hi


def test_overlaps_the_ball_certificate():
    from arete_proofs.certified.combs_skellam import certify_lattice_skellam

    for args in [("1", 2, "0.7", 3, 6), ("3", 2, "30", 20, 40)]:
        r = check_document(write_lattice_skellam(*args))
        old = certify_lattice_skellam(*args, digits=10)
        assert Fraction(old.lo) <= Fraction(r["upper"]) and Fraction(r["lower"]) <= Fraction(old.hi)


@pytest.mark.parametrize("args, eps", [(("10", 1, "50000", 500, 500), 10),          # m = 1, h = Delta: eps* = a
                                       (("7/2", 1, "1/1000000000000", 1, 3), Fraction(21, 2))])   # h = m = 1: a Delta
def test_the_two_ends_of_mu(args, eps):
    """Post-processing gives eps* <= a Delta / h and the tail limit (shift h) reaches it: eps* = a Delta / h."""
    r = check_document(write_lattice_skellam(*args))
    assert r["verdict"] == "checked"
    assert r["lower"] <= eps <= r["upper"] and r["upper"] - r["lower"] < 1e-10


def test_the_search_hook_and_bad_input():
    c = certify("1", 2, "0.7", 3, 6, digits=8)
    assert c.upper == float(Fraction(c.hi)) and c.to_json()["claim"]["lower"] == c.lo
    with pytest.raises(ValueError, match="^a must be a positive exact rational"):
        write_lattice_skellam("-1", 2, "0.7", 3, 6)
    with pytest.raises(ValueError, match="above epsilon"):
        write_lattice_skellam("1", 2, "0.7", 3, 6, epsilon="1.29")


# -- tampers --------------------------------------------------------------------------------------------------------

def test_the_written_certificate_checks(cert):
    r = check_document(cert)
    assert r["verdict"] == "checked", r["reason"]
    assert Fraction(cert["claim"]["lower"]) <= Fraction(r["lower"]) and Fraction(r["upper"]) <= Fraction(
        cert["claim"]["upper"]) <= Fraction("1.3")


@pytest.mark.parametrize("edit, reason", [
    (lambda d: d["claim"].update(upper=d["claim"]["lower"]), "is above the claimed upper"),
    (lambda d: d["claim"].update(lower=d["claim"]["upper"]), "the claimed lower"),
    (lambda d: d["claim"].update(epsilon="1.2906"), "is above the certified epsilon"),
    (lambda d: d["objectives"].update(mean_abs=[d["objectives"]["mean_abs"][0]] * 2), "objectives.mean_abs"),
    (lambda d: d["objectives"].update(variance=["84.2", "84.26"]), "objectives.variance"),
    (lambda d: d["tail"].pop("n0"), "malformed certificate: missing or wrong field 'n0'"),
    (lambda d: d.pop("kernel"), "malformed certificate: missing or wrong field 'kernel'"),
    (lambda d: d["tail"].update(n0=3), "the tail ratio rho(n0)"),            # the window cut short
    (lambda d: d["tail"].update(n0=60), "is above the claimed upper"),       # a shorter window: eta above 1e-2
    (lambda d: d["kernel"].update(R=5), "is above the claimed upper"),       # the kernel cut short
    (lambda d: d["kernel"].update(phi="1/1000"), "is above the claimed upper"),
    (lambda d: d["tail"].update(theta="1/2"), "is not below the comb's Chernoff gap"),
    (lambda d: d["params"].update(mu="0.69"), "is above the claimed upper"),   # less smoothing
    (lambda d: d["params"].update(a="1.001"), "is above the claimed upper"),
    (lambda d: d["params"].update(h=2), "is above the claimed upper"),
    (lambda d: d.update(Delta="7"), "is above the claimed upper"),
    (lambda d: d["params"].update(m=0), "params.m must be an integer >= 1"),
    (lambda d: d.update(Delta="13/2"), "Delta must be a positive integer"),
    (lambda d: d["params"].update(mu=0.7), "params.mu must be an exact rational"),
    (lambda d: d.update(format="arete-certificate/2"), "unknown format"),
])
def test_tampers_are_refused(cert, edit, reason):
    r = tampered(cert, edit)
    assert r["verdict"] == "refused" and reason in r["reason"], r["reason"]


def test_a_stale_digest_is_refused(cert):
    d = copy.deepcopy(cert)
    d["claim"]["upper"] = "1.2906082517"
    r = check_document(d)
    assert r["verdict"] == "refused" and "digest does not match" in r["reason"]


def test_the_entry_must_state_the_same_parameters(cert):
    row = {"eps": "1.3", "entry": None}
    entry = {"a": 1.0, "m": 2, "h": 3, "mu": 0.7, "certificate": cert}
    assert context_reason(cert, [row, entry]) == ""
    assert "the entry's mu" in context_reason(cert, [row, dict(entry, mu=0.70000001)])
    assert "claim.epsilon" in context_reason(cert, [dict(row, eps="1.4"), entry])


# -- the shipped file ----------------------------------------------------------------------------------------------

def _shipped():
    data = json.loads(DATA.read_text())
    return [(r, key) for r in data["rows"] for key in ("lattice_skellam", "lattice_skellam_var") if key in r]


def _check_entry(row, key):
    ls = row[key]
    doc = ls["certificate"]
    assert context_reason(doc, [row, ls]) == ""
    r = check_document(doc)
    assert r["verdict"] == "checked", (row["Delta"], row["eps"], key, r["reason"])
    assert Fraction(ls["upper"]) == Fraction(doc["claim"]["upper"]) <= Fraction(row["eps"])
    return r


def test_the_shipped_objectives_enclose_the_searches_values():
    for row, key in _shipped():
        ls, obj = row[key], row[key]["certificate"]["objectives"]
        for name in ("mean_abs", "variance"):
            lo, hi = (float(Fraction(x)) for x in obj[name])
            assert lo * (1 - 1e-9) <= float(ls[name]) <= hi * (1 + 1e-9), (row["Delta"], row["eps"], key, name)


def test_the_cheapest_shipped_certificates_check():
    for row, key in _shipped():
        if row["Delta"] == 10 and float(row["eps"]) <= 4:
            _check_entry(row, key)


def test_recertify_keeps_the_entry(tmp_path):
    from arete_proofs.walkthrough import frontier_discrete as fd

    row = next(r for r, _ in _shipped() if r["Delta"] == 10 and float(r["eps"]) == 3)
    new = fd.recertify(copy.deepcopy(row), progress=None)
    for key in ("lattice_skellam", "lattice_skellam_var"):
        changed = {k for k in row[key] if row[key][k] != new[key][k]}
        assert changed <= {"certificate", "lower", "upper"}, changed
        assert check_document(new[key]["certificate"])["verdict"] == "checked"


@pytest.mark.slow
def test_every_shipped_certificate_checks():
    shipped = _shipped()
    assert len(shipped) == 72
    for row, key in shipped:
        _check_entry(row, key)
