"""The checker's Arete kinds (arete_proofs.check.arete, arete_region): numbers against independent computations,
tampered certificates refused with their reason.

References: the mpmath engine (``arete_proofs.distributions.arete``, the branch-cut integral in mpmath at 30
digits) for the density; ``certified.epsilon.certify_epsilon``, ``certified.region`` and ``privacy.tight`` (the
library's search side and numerical engine) for the bounds.  Every tamper edits the JSON and recomputes the digest
here with hashlib, so the refusal comes from the mathematics; one test leaves the digest stale.
"""

from __future__ import annotations

import copy
import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("flint")

from arete_proofs.check import check_document  # noqa: E402
from arete_proofs.check import arete as A  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "docs" / "data"


def _sign(doc):
    body = {k: v for k, v in doc.items() if k != "digest"}
    doc["digest"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return doc


def _refused(doc, words):
    r = check_document(_sign(doc))
    assert r["verdict"] == "refused" and words in r["reason"], r["reason"]


# ------------------------------------------------------------------------------------------------ the density
@pytest.mark.parametrize("params", [("0.03764699362345838", "0.7201382934561097", "0.038788893822244964"),
                                    ("0.88", "8", "0.5"), ("0.3", "1", "0.999"), ("1/2", "1", "3/10"),
                                    ("0.0067", "0.2", "0.00000067")])
def test_density_contains_the_engines_value(params):
    from mpmath import mp

    from arete_proofs.distributions import arete

    D = A.Arete(*(Fraction(x) for x in params))
    for t in ("0", "1e-200", "1e-6", "0.05", "0.7", "3", "40"):
        ball = D.ell(Fraction(t))
        with mp.workdps(30):
            ref = mp.log(arete.pdf(t, *(str(float(Fraction(x))) if "/" in x else x for x in params), digits=25))
        assert float(ball.rad()) < 1e-12 * max(1.0, abs(float(ref)))
        assert abs(float(ball.mid()) - float(ref)) <= float(ball.rad()) + 1e-15 * abs(float(ref)), (params, t)


def test_density_refuses_the_parameters_it_does_not_cover():
    with pytest.raises(ValueError, match="alpha < 1"):
        A.Arete(Fraction(1), Fraction(2), Fraction(1, 2))
    with pytest.raises(ValueError, match="lam < theta"):
        A.Arete(Fraction(1, 2), Fraction(1), Fraction(2))


# ------------------------------------------------------------------------------------------------ kind arete
@pytest.fixture(scope="module")
def search():
    from arete_proofs.certified.epsilon import certify_epsilon

    return certify_epsilon("0.3", 2, "0.5", 1, tol="1e-2", numeric=False)       # the library's search


@pytest.fixture(scope="module")
def cert(search):
    from arete_proofs.certified.arete_certificate import certificate

    return certificate("0.3", "2", "0.5", epsilon="1.5", tol="1e-2", result=search)


def test_arete_bracket_contains_the_engine_and_the_search(cert, search):
    from mpmath import mp

    from arete_proofs.privacy.tight import tight_epsilon

    r = check_document(cert)
    assert r["verdict"] == "checked", r["reason"]
    e = tight_epsilon("0.3", 2, "0.5", 1, digits=8)                 # the mpmath engine: 1.0873...
    with mp.workdps(20):
        assert r["lower"] <= float(e.epsilon) <= r["upper"] and r["upper"] - r["lower"] < 1e-2
    # the search's own ball bounds on the same cover (certified.epsilon, density.py) agree to the last digits
    assert abs(r["upper"] - search.upper) < 1e-12 and search.lower <= r["lower"] + 1e-12
    assert Fraction(cert["claim"]["lower"]) <= Fraction(r["lower"]) and Fraction(r["upper"]) <= Fraction(cert["claim"]["upper"])


def test_arete_lipschitz_case_is_exact():
    from arete_proofs.certified.arete_certificate import certificate

    doc = certificate("0.3", "1", "2", epsilon="1")        # lam >= theta: eps* = Delta/lam
    r = check_document(doc)
    assert r["verdict"] == "checked" and r["lower"] == r["upper"] == 0.5


def _near_witness(doc):
    pts = doc["cover"]["points"]
    w = Fraction(doc["witness"])
    return min(range(1, len(pts) - 1), key=lambda i: abs(Fraction(pts[i]) - w))


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["claim"].update(upper=d["claim"]["lower"]), "above the claimed upper"),           # narrowed
    (lambda d: d["claim"].update(upper=str(Fraction(d["claim"]["upper"]) - Fraction(1, 10 ** 9))),
     "above the claimed upper"),                                                                   # lowered
    (lambda d: d["claim"].update(lower=str(Fraction(d["claim"]["upper"]) + Fraction(1, 10 ** 6))),
     "above the witness's value"),
    (lambda d: d["claim"].update(epsilon="0.6"), "above the certified epsilon"),
    (lambda d: d["cover"]["points"].pop(_near_witness(d)), "above the claimed upper"),              # a cell deleted
    (lambda d: d["cover"]["points"].pop(0), "increase from 0 to T"),
    (lambda d: d["cover"].update(T="1"), "increase from 0 to T"),
    (lambda d: d["params"].update(lam="0.49"), "above the claimed upper"),                        # a parameter changed
    (lambda d: d["params"].update(lam="0.51"), "above the witness's value"),
    (lambda d: d.update(method="lipschitz"), "above the claimed upper"),
    (lambda d: d.update(format="arete-certificate/2"), "unknown format"),
])
def test_arete_tampers_are_refused(cert, edit, words):
    doc = copy.deepcopy(cert)
    edit(doc)
    _refused(doc, words)


def test_arete_stale_digest_is_refused(cert):
    doc = copy.deepcopy(cert)
    doc["claim"]["upper"] = "0.9"
    r = check_document(doc)
    assert r["verdict"] == "refused" and "digest" in r["reason"]


# ------------------------------------------------------------------------------------------------ kind arete_region
def _corner(e0, e1, d0, d1, side):
    from arete_proofs.certified.region import corners

    b = corners(e0, e1, d0, d1)
    return {k: str(b[k][side]) for k in ("alpha", "theta", "lam")}


def _region(box_eps, box_d, cells):
    counts = {s: sum(c["status"] == s for c in cells) for s in ("private", "not private", "undecided")}
    return _sign({"format": "arete-certificate/1", "kind": "arete_region", "prec": 64, "claim": counts,
                  "box": {"eps": box_eps, "sensitivity": box_d}, "cells": cells})


@pytest.fixture(scope="module")
def regions():
    """Three small certificates built with the library's search (region.prove_private / find_witness)."""
    from arete_proofs.certified import region as R

    lip = _region(["1/2", "1"], ["1/10", "1"], [
        {"eps": ["1/2", "1"], "sensitivity": ["1/10", "1/5"], "status": "private",       # 1/lam = 0.26 <= 1/2
         "params": _corner(Fraction(1, 2), 1, Fraction(1, 10), Fraction(1, 5), 0), "proof": {"method": "lipschitz"},
         "bound": "0.26"},
        {"eps": ["1/2", "1"], "sensitivity": ["1/5", "1"], "status": "undecided"}])
    lo = [Fraction(x) for x in _corner(8, Fraction(17, 2), 1, 1, 0).values()]
    p = R.prove_private(*lo, 8)                                          # E(8.5, 1) = 5.09 <= 8
    cover = _region(["8", "17/2"], ["1", "1"], [
        {"eps": ["8", "17/2"], "sensitivity": ["1", "1"], "status": "private", "params": _corner(8, Fraction(17, 2), 1, 1, 0),
         "proof": {"method": "cover", "T": repr(p["T"]), "points": [repr(x) for x in p["points"]]}, "bound": "8"}])
    hi = [Fraction(x) for x in _corner(20, Fraction(41, 2), 10000, 10000, 1).values()]
    w = R.find_witness(*hi, Fraction(41, 2))                             # E(20, 1e4) = 23.3 > 20.5
    wit = _region(["20", "41/2"], ["10000", "10000"], [
        {"eps": ["20", "41/2"], "sensitivity": ["10000", "10000"], "status": "not private",
         "params": _corner(20, Fraction(41, 2), 10000, 10000, 1), "witness": {"t": repr(w["t"]), "lower": "21"}}])
    return {"lip": lip, "cover": cover, "wit": wit, "w": w, "p": p}


def test_region_certificates_check_and_agree_with_the_library(regions):
    from arete_proofs.certified import region as R

    for k in ("lip", "cover", "wit"):
        r = check_document(regions[k])
        assert r["verdict"] == "checked", (k, r["reason"])
    c = regions["cover"]["cells"][0]
    assert R.check_cell(dict(c, proof=regions["p"]))                     # the library's own re-proof agrees
    P = [Fraction(x) for x in regions["wit"]["cells"][0]["params"].values()]
    L = A.witness(A.Arete(*P), 1, Fraction(regions["wit"]["cells"][0]["witness"]["t"]))
    assert abs(float(L) - regions["w"]["lower"]) < 1e-9 and L > 21


@pytest.mark.parametrize("which, edit, words", [
    ("lip", lambda d: d["cells"].pop(1), "do not add up"),                                     # a cell deleted
    ("lip", lambda d: d["cells"][1].update(sensitivity=["3/20", "19/20"]), "overlap"),
    ("lip", lambda d: d["cells"][0]["params"].update(lam="4"), "not below the cell's lower corner"),
    ("lip", lambda d: d["cells"][0].update(bound="0.25"), "not below the claimed"),              # bound lowered
    ("lip", lambda d: d["claim"].update(private=2), "counts"),
    ("cover", lambda d: d["cells"][0].update(bound="5"), "not below the claimed"),
    ("cover", lambda d: d["cells"][0].update(eps=["5", "17/2"]) or d["box"].update(eps=["5", "17/2"]),
     "not below the claimed"),                                                                # claims more than true
    ("cover", lambda d: d["cells"][0]["params"].update(theta="1"), "not below the cell's lower corner"),
    ("wit", lambda d: d["cells"][0]["witness"].update(lower="30"), "does not show"),
    ("wit", lambda d: d["cells"][0].update(eps=["20", "24"]) or d["box"].update(eps=["20", "24"]), "does not show"),
    ("wit", lambda d: d["cells"][0]["params"].update(lam="1/10000000000"), "not above the cell's upper corner"),
])
def test_region_tampers_are_refused(regions, which, edit, words):
    doc = copy.deepcopy(regions[which])
    edit(doc)
    _refused(doc, words)


# ------------------------------------------------------------------------------------------------ kind arete_rates
@pytest.fixture(scope="module")
def rates():
    from arete_proofs.certified.rates_region import rule_parameters_down

    P = rule_parameters_down("mean_abs", 3)                 # lam = 4 sqrt6 e^-3/2 = 2.19 >= theta: eps* = 1/lam
    cell = {"e1": "1", "e2": "3", "params": {k: str(v) for k, v in zip(("alpha", "theta", "lam"), P)},
            "proof": {"method": "lipschitz"}, "bound": "0.46"}
    return _sign({"format": "arete-certificate/1", "kind": "arete_rates", "rule": "mean_abs", "prec": 64,
                  "claim": {"eps_lo": "1", "eps_0": "3"}, "cells": [cell]})


@pytest.mark.parametrize("edit, words", [
    (lambda d: None, ""),
    (lambda d: d["cells"][0].update(e1="2"), "stop at"),
    (lambda d: d["cells"][0].update(e2="4"), "does not continue"),
    (lambda d: d["cells"][0]["params"].update(lam="2.2"), "not below the rule's"),
    (lambda d: d["cells"][0].update(bound="0.45"), "not below the claimed"),
    (lambda d: d["cells"][0].update(e1="1/3") or d["claim"].update(eps_lo="1/3"), "not below the claimed"),
    (lambda d: d.update(rule="median"), "malformed"),
])
def test_rates_tampers_are_refused(rates, edit, words):
    doc = copy.deepcopy(rates)
    edit(doc)
    r = check_document(_sign(doc))
    if not words:
        assert r["verdict"] == "checked", r["reason"]
    else:
        assert r["verdict"] == "refused" and words in r["reason"], r["reason"]


def test_a_shipped_rates_cover_with_a_lowered_bound_is_refused():
    path = DATA / "rates-region-mean_abs.json"
    if not path.exists():
        pytest.skip("rates files not shipped")
    doc = json.loads(path.read_text())
    assert doc["cells"][0]["proof"]["method"] == "cover"
    doc["cells"][0]["bound"] = str(Fraction(doc["cells"][0]["bound"]) - Fraction(1, 10 ** 6))
    _refused(doc, "not below the claimed")


# ------------------------------------------------------------------------------------------------ shipped files
@pytest.mark.slow
def test_every_shipped_arete_certificate_checks():
    from arete_proofs.check import _files

    names = ["comparison.json", "beyond.json", "rates-region-mean_abs.json", "rates-region-variance.json"] + \
        sorted(p.name for p in DATA.glob("region-*.json"))
    jobs, _ = _files.jobs([str(DATA / n) for n in names if (DATA / n).exists()])
    jobs = [j for j in jobs if j[2].get("kind") in ("arete", "arete_region", "arete_rates")]
    assert jobs
    for r in _files.run(jobs, workers=2):
        assert r["verdict"] == "checked", (r["id"], r["reason"])


def test_a_region_file_of_certificates_must_tile_its_box():
    """certified.region_certificate.check_file: every certificate checked, and their boxes tile the file's box."""
    from arete_proofs.certified import region_certificate as RC

    def strip(e0, e1):
        return _region([e0, e1], ["1/10", "1/5"], [
            {"eps": [e0, e1], "sensitivity": ["1/10", "1/5"], "status": "private", "bound": "0.5",
             "params": _corner(Fraction(e0), Fraction(e1), Fraction(1, 10), Fraction(1, 5), 0),
             "proof": {"method": "lipschitz"}}])         # 1/lam <= 0.26 <= e0

    doc = {"format": RC.FILE_FORMAT, "box": {"eps": ["1/2", "1"], "sensitivity": ["1/10", "1/5"]},
           "certificates": [strip("1/2", "3/4"), strip("3/4", "1")]}
    assert RC.check_file(doc).ok and len(RC.cells_of(doc)) == 2
    short = dict(doc, certificates=doc["certificates"][:1])
    rep = RC.check_file(short)
    assert not rep.ok and "end at eps = 3/4" in rep.tiling
    bad = copy.deepcopy(doc)
    bad["certificates"][1]["cells"][0]["bound"] = "0.2"   # below 1/lam: refused by the checker (digest kept stale)
    rep = RC.check_file(bad)
    assert not rep.ok and rep.failed == [1]
