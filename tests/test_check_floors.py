"""The checker of the floors of infinitely divisible noise (``arete_proofs.check.floors``, docs/data/floors.json).

Three things are tested: the checker's numbers are the library's certified numbers (``privacy.id_bounds``,
``id_variance``, ``id_mean_abs``: other code, the same theorems), every tampered certificate is refused with the
reason that names what failed (each tamper edits the JSON and recomputes the digest here, with hashlib, so that the
refusal comes from the mathematics), and the docs' tables state no ratio above the certificates'.
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
from arete_proofs.check._arb import ball, prec  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data" / "floors.json"
FILE = json.loads(DATA.read_text())


def cert(section, eps=None):
    entry = FILE[section]
    if isinstance(entry, list):
        entry = next(r for r in entry if Fraction(r["eps"]) == Fraction(str(eps)))
    return copy.deepcopy(entry["certificate"])


def redigest(doc):
    body = {k: v for k, v in doc.items() if k != "digest"}
    doc["digest"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return doc


def refused(doc, edit, reason):
    """Apply ``edit`` to a copy, recompute the digest, and require a refusal whose reason contains ``reason``."""
    d = copy.deepcopy(doc)
    edit(d)
    r = check_document(redigest(d))
    assert r["verdict"] == "refused" and reason in r["reason"], r
    return r


def ok(doc):
    r = check_document(doc)
    assert r["verdict"] == "checked", r["reason"]
    return r


# ---------------------------------------------------------------------------
# the checker's numbers are the library's certified numbers
# ---------------------------------------------------------------------------

def test_file_records_its_command_and_every_kind():
    from arete_proofs.certified.floor_certificates import COMMAND

    assert FILE["command"] == COMMAND
    kinds = {cert(s, r["eps"])["kind"] for s in ("staircase_not_id", "mean_abs", "mean_abs_symmetric",
                                                 "variance_symmetric") for r in FILE[s]}
    kinds |= {cert("variance_symmetric_from")["kind"], cert("limits")["kind"]}
    assert kinds == {"staircase_not_id", "id_floor_general", "id_floor_mean_abs", "id_floor_variance",
                     "id_floor_variance_range", "id_floor_limits"}
    assert DATA.stat().st_size < 2 << 20


@pytest.mark.parametrize("eps", [1, 2, 4])
def test_theorem_a_is_the_librarys(eps):
    from mpmath import mp

    from arete_proofs.privacy.id_bounds import certify_staircase_not_id, staircase_cf_odd

    doc = cert("staircase_not_id", eps)
    lib = certify_staircase_not_id(eps, digits=30)
    r = ok(doc)
    assert doc["found"]["m"] == lib["m"]
    # the library's simplified odd-multiple form (mpmath, at a 30-digit gamma) lies in the checker's enclosure
    with mp.workdps(40):
        phi = float(staircase_cf_odd(lib["m"], lib["gamma"], eps, digits=30))
    assert r["lower"] <= phi * (1 - 1e-12) and phi * (1 + 1e-12) <= r["upper"] < 0


def test_theorem_c_is_the_librarys():
    from arete_proofs.privacy.id_bounds import id_lower_bound

    # the library's branch and bound stops within rtol = 1e-4 of the infimum, the writer's cover within 5e-5
    lib = id_lower_bound(10, digits=12)
    r = ok(cert("mean_abs", 10))
    assert abs(r["lower"] / float(lib["bound"]) - 1) < 1.5e-4
    assert r["objectives"]["ratio"][0] > 1.0278 > 1        # the docs' row: ID noise stays above the Staircase


@pytest.mark.parametrize("eps", [8, 14, 20, 40])
def test_theorem_e_is_the_librarys(eps):
    from arete_proofs.privacy.id_variance import floor_bound, staircase_variance_upper

    doc = cert("variance_symmetric", eps)
    f, V = doc["found"], Fraction(doc["claim"]["bound"])
    ok(doc)
    assert floor_bound(V, eps, *(Fraction(f[x]) for x in ("rho", "k", "u"))) > ball(V)   # L(V) > V there too
    ratio = V / Fraction(float(staircase_variance_upper(eps, Fraction(f["gamma"])).upper()))
    assert Fraction(doc["claim"]["ratio"]) <= ratio < Fraction(doc["claim"]["ratio"]) * (1 + Fraction(1, 10 ** 5))


@pytest.mark.parametrize("eps", [8, 14, 40])
def test_theorem_f_is_the_librarys(eps):
    from arete_proofs.privacy.id_mean_abs import floor_bound, small_jump_mean_abs_lower

    doc = cert("mean_abs_symmetric", eps)
    f, V = doc["found"], Fraction(doc["claim"]["bound"])
    ok(doc)
    holds, cells, _ = floor_bound(V, eps, *(Fraction(f[x]) for x in ("kr", "k", "u")))
    assert holds
    assert small_jump_mean_abs_lower(Fraction(f["W"]), Fraction(f["kr"]) * V) >= ball(V)


def test_limits_are_the_librarys():
    from arete_proofs.privacy.id_bounds import asymptotic_ratio_lower, c_id_lower, uniform_defect
    from arete_proofs.privacy.id_mean_abs import asymptotic_mean_abs_ratio, lemma_f1_certificate
    from arete_proofs.privacy.id_variance import asymptotic_variance_ratio

    doc = cert("limits")
    r = ok(doc)["objectives"]
    assert abs(float(doc["found"]["d"]) / float(uniform_defect(3, digits=15)) - 1) < 1e-7
    assert abs(r["c_id"][0] - float(c_id_lower(digits=15))) < 1e-8
    assert abs(r["mean_abs_general"][0] - float(asymptotic_ratio_lower(digits=15))) < 1e-7
    assert r["mean_abs_symmetric"][0] <= float(asymptotic_mean_abs_ratio().mid()) <= r["mean_abs_symmetric"][1]
    assert r["variance_symmetric"][0] <= float(asymptotic_variance_ratio().mid()) <= r["variance_symmetric"][1]
    assert lemma_f1_certificate(doc["found"]["R"], doc["found"]["split"])["holds"]


@pytest.mark.slow
def test_every_shipped_floor_checks_and_the_ranges_are_the_librarys():
    from arete_proofs.privacy.id_mean_abs import mean_abs_gap_from
    from arete_proofs.privacy.id_variance import variance_gap_interval

    from arete_proofs.check import _files

    out = _files.certificates(str(DATA))
    assert len(out) == 43
    for path, doc, parents in out:
        assert _files.context_reason(doc, parents) == "", path
        assert check_document(doc)["verdict"] == "checked", path
    r_var = min(variance_gap_interval(14, 20, step="0.25")[0], variance_gap_interval(20, step="2")[0])
    assert abs(float(cert("variance_symmetric_from")["claim"]["ratio"]) - r_var) < 1e-5
    assert abs(float(cert("mean_abs_symmetric", 14)["claim"]["ratio"]) - mean_abs_gap_from(14)[0]) < 1e-5


def test_the_writer_writes_what_the_checker_accepts():
    from arete_proofs.certified import floor_certificates as W

    assert ok(W.write_limits())["objectives"]["c_id"][0] > 0.2686
    assert ok(W.write_not_id("0.5"))["upper"] < 0


@pytest.mark.slow
def test_the_writer_range_and_mean_abs():
    from arete_proofs.certified import floor_certificates as W

    doc = W.write_variance_range(14, switch=15, step="1")
    assert [c[:2] for c in doc["cells"]] == [["14", "15"], ["15", None]] and ok(doc)["lower"] > 1.2012
    assert ok(W.write_mean_abs(40))["objectives"]["ratio"][0] > 1.128


def test_a_certificate_in_another_row_is_refused():
    from arete_proofs.check._files import context_reason

    doc = cert("mean_abs", 10)
    row12 = next(r for r in FILE["mean_abs"] if r["eps"] == "12")
    assert "eps" in context_reason(doc, [FILE, FILE["mean_abs"], row12])


@pytest.mark.slow
def test_docs_tables_state_no_ratio_above_the_certificates():
    """The docs' ratio tables (the library's tables the pages render at build time, rounded down to 4 decimals) are
    at most the certified ratios."""
    from arete_proofs.privacy import id_bounds, id_mean_abs, id_variance

    for text, section, col in ((id_bounds.gap_markdown(id_bounds.gap_table(digits=12)), "mean_abs", 4),
                               (id_variance.variance_gap_markdown(id_variance.variance_gap_table()),
                                "variance_symmetric", 3),
                               (id_mean_abs.mean_abs_gap_markdown(id_mean_abs.mean_abs_gap_table()),
                                "mean_abs_symmetric", 3)):
        rows = text.splitlines()[2:]
        assert rows
        for line in rows:
            cells = [c.strip() for c in line.strip("|").split("|")]
            claim = float(cert(section, cells[0])["claim"]["ratio"])
            assert float(cells[col]) <= claim < float(cells[col]) + 1e-3, (section, cells[0])
    assert float(cert("variance_symmetric_from")["claim"]["ratio"]) >= 1.2012
    assert float(cert("mean_abs_symmetric", 14)["claim"]["ratio"]) >= 1.1029


# ---------------------------------------------------------------------------
# tampered certificates are refused, each with its reason
# ---------------------------------------------------------------------------

def test_format_and_digest():
    doc = cert("mean_abs", 10)
    refused(doc, lambda d: d.update(format="arete-certificate/2"), "unknown format")
    stale = copy.deepcopy(doc)
    stale["claim"]["bound"] = "0.007"
    assert "digest does not match" in check_document(stale)["reason"]


def test_theorem_a_tampers():
    doc = cert("staircase_not_id", 2)          # m = 5: sin(m pi / gamma*) <= 0 for m = 1 and 3, so phi >= 0 there
    refused(doc, lambda d: d["found"].update(m=3), "not <= claim.phi_upper")
    refused(doc, lambda d: d["found"].update(m=4), "odd integer")
    refused(doc, lambda d: d["claim"].update(phi_upper="-0.005"), "not <= claim.phi_upper")
    refused(doc, lambda d: d["claim"].update(w=["58.41", "58.42"]), "claim.w")
    refused(doc, lambda d: d["claim"].update(phi_upper="0.001"), "claim.phi_upper")


def test_theorem_c_tampers():
    doc = cert("mean_abs", 10)
    B = Fraction(doc["claim"]["bound"])
    refused(doc, lambda d: d["claim"].update(bound=str(B * Fraction(1001, 1000))), "below claim.bound")
    refused(doc, lambda d: d["claim"].update(ratio="1.0290"), "claim.ratio is above")

    def drop_last(d):                           # the last cell deleted: the end piece y > y_n no longer reaches B
        for key in ("y", "d", "k"):
            d["cells"][key].pop()
    refused(doc, drop_last, "piece 1")

    def raise_d(d):                             # a defect above the root: the condition holds there
        i = max(range(len(d["cells"]["d"])), key=lambda j: Fraction(d["cells"]["d"][j]))
        d["cells"]["d"][i] = str(Fraction(d["cells"]["d"][i]) * Fraction(11, 10))
    refused(doc, raise_d, "is not certified")

    def other_eps(d):                           # the same cover at eps = 9: the Staircase is larger there
        d["params"]["eps"] = d["claim"]["epsilon"] = "9"
    refused(doc, other_eps, "cell")
    refused(doc, lambda d: d["claim"].update(epsilon="9"), "claim.epsilon must be params.eps")
    refused(doc, lambda d: d["cells"]["y"].reverse(), "y must increase")


def test_theorem_e_tampers_and_rho_at_least_one():
    doc = cert("variance_symmetric", 20)
    refused(doc, lambda d: d["claim"].update(bound=str(Fraction(d["claim"]["bound"]) * Fraction(101, 100))),
            "L(V) > V (Theorem E) fails")
    refused(doc, lambda d: d["claim"].update(ratio="1.2370"), "claim.ratio is above")
    refused(doc, lambda d: d["found"].update(k="-1"), "found.k")
    refused(doc, lambda d: d["found"].update(gamma="3/2"), "found.gamma")
    refused(doc, lambda d: d["params"].update(eps="21") or d["claim"].update(epsilon="21"), "L(V) > V")

    # rho >= 1 makes B = 2q(1 - rho^3)/3 negative and B^2 large: Theorem E's formula alone then "proves" Var >= 1.5 x
    # the Staircase at eps 20 (false: the top-rate rows of frontier-variance.json reach 1.2418); written out here
    from flint import arb

    V = Fraction(3, 2) * Fraction(doc["claim"]["bound"]) / Fraction(doc["claim"]["ratio"])
    with prec(128):
        rho, k, u, Vb, q = ball(Fraction(3, 2)), ball(3), ball(8), ball(V), (-ball(20)).exp()
        lam = Vb * (k / rho) ** 2
        A, B = (-3 * lam).exp() / (2 * arb.pi()), 2 * q * (1 - rho ** 3) / 3
        T = 2 * Vb * (-u * k).exp() * (u.cosh() + lam * u.sinh() ** 2) * (lam * (u.cosh() - 1)).exp()
        assert 3 * (A * B * B / 4) ** (arb(1) / 3) - T > Vb
    def rho_above_one(d):
        d["found"].update(rho="3/2", k="3", u="8")
        d["claim"].update(bound=str(V), ratio="1.5")
    r = refused(doc, rho_above_one, "found.rho")
    assert "must be in (0, 1)" in r["reason"]
    refused(doc, lambda d: d["found"].update(rho="1"), "found.rho")


def test_theorem_f_tampers():
    doc = cert("mean_abs_symmetric", 8)              # 8: the branch and bound over lambda needs many cells
    refused(doc, lambda d: d["claim"].update(bound=str(Fraction(d["claim"]["bound"]) * Fraction(101, 100))),
            "Lemma F2")
    refused(doc, lambda d: d["found"].update(W=str(Fraction(d["found"]["W"]) / 2)), "Lemma F2")
    refused(doc, lambda d: d["cells"].pop(), "the lambda cells must increase from 0 to at least")
    refused(doc, lambda d: d["found"].update(kr="3/2"), "kr^2 > 3")
    refused(doc, lambda d: d["claim"].update(ratio="0.9240"), "claim.ratio is above")

    def drop_finest(d):                             # merge the cells around the narrowest one into one cell
        ls = [Fraction(x) for x in d["cells"]]
        i = min(range(1, len(ls) - 1), key=lambda j: ls[j + 1] - ls[j - 1])
        del d["cells"][max(i - 2, 1):i + 3]
    refused(doc, drop_finest, "lambda cell")


def test_variance_range_tampers():
    doc = cert("variance_symmetric_from")
    refused(doc, lambda d: d["cells"].pop(5), "not contiguous")
    refused(doc, lambda d: d["cells"].pop(), "end open (null)")
    refused(doc, lambda d: d["claim"].update(ratio="1.2013"), "least ratio")
    refused(doc, lambda d: d["cells"][0].__setitem__(5, str(Fraction(d["cells"][0][5]) * Fraction(101, 100))),
            "cell 0: L(V) > V")
    refused(doc, lambda d: d["cells"][3].__setitem__(2, "1"), "found.rho")


def test_limits_tampers():
    doc = cert("limits")
    refused(doc, lambda d: d["found"].update(d="0.0373"), "Corollary D")
    refused(doc, lambda d: d["found"].update(R="5"), "K(R) > 1/(2 pi^2)")
    refused(doc, lambda d: d["found"].update(split="1/2"), "'many'")
    refused(doc, lambda d: d["claim"].update(c_id="0.2687"), "claim.c_id")
    refused(doc, lambda d: d["claim"].update(variance_symmetric="1.2408"), "claim.variance_symmetric")
