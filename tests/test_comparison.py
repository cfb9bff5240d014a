"""The comparison page (issue 23, part 6): docs/data/comparison.json, its consistency, the page's tables,
and ``arete compare --families``.

Independent checks: the Laplace and Staircase entries are recomputed from Lemma 26 / Lemma 27's
closed forms; the discrete staircase's from brute-force pmf sums (no closed form); DLap's from
1/sinh a; MSDLap's E|Z| (Delta <= 10) from a direct convolution of the DLap pmfs; the optimised rows'
tight epsilons recomputed by the exact engines at the recorded parameters; the floors (the
Staircase, the discrete staircase) are checked to be below every entry whose tight epsilon is
within the target.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from pathlib import Path

import pytest
from _msdlap_reference import convolution_mean_abs  # tests/_msdlap_reference.py
from mpmath import mp

from arete_proofs.noise import comparison as ncomp
from arete_proofs.walkthrough import comparison

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _check(doc):
    from arete_proofs.distributions import discrete_staircase as ds
    from arete_proofs.distributions import staircase

    for r in doc["continuous"]["rows"]:
        e = float(r["eps"])
        assert abs(float(r["laplace"]["mean_abs"]) - 1 / e) < 1e-14
        assert abs(float(r["laplace"]["variance"]) - 2 / e ** 2) < 1e-14
        g = staircase.gamma_mean_abs(e)
        assert abs(float(r["staircase"]["mean_abs"]) / float(staircase.mean_abs(g, 1, e)) - 1) < 1e-12
        gv = staircase.gamma_var(e)
        assert abs(float(r["staircase_var"]["variance"]) / float(staircase.var(gv, 1, e)) - 1) < 1e-12
        for part in comparison.CONTINUOUS:
            x = r.get(part)
            if not x or x.get("epsilon") is None:
                continue
            assert float(x["epsilon"]) <= e * (1 + 1e-9), (e, part)
            if x.get("mean_abs") is not None:
                assert float(x["mean_abs"]) >= float(r["staircase"]["mean_abs"]) * (1 - 1e-9), (e, part)
            assert float(x["variance"]) >= float(r["staircase_var"]["variance"]) * (1 - 1e-9), (e, part)
            assert "how" in x and "seconds" in x
        for part, path, key in (("lattice_gauss", comparison.FRONTIER, "lattice_gauss"),
                                ("lattice_gauss_var", comparison.FRONTIER_VAR, "lattice_gauss"),
                                ("lattice_top", comparison.FRONTIER, "lattice_top"),
                                ("lattice_top_var", comparison.FRONTIER_VAR, "lattice_top")):
            if part in r:    # certified exactly where the frontier file's row carries a certificate
                from arete_proofs.walkthrough import frontier

                g = next(x for x in frontier.load(path)["rows"] if float(x["eps"]) == float(r["eps"]))[key]
                assert r[part]["certified"] is bool(g.get("certificate") and g["certified"]), (r["eps"], part)
                assert r[part]["variance"] == g["variance"] and r[part]["m"] == g["m"]
        if "lattice_gauss_var" in r and "lattice_gauss" in r:    # the Var-optimum is not worse in variance
            assert float(r["lattice_gauss_var"]["variance"]) <= float(r["lattice_gauss"]["variance"]) * (1 + 1e-9)
        for part in ("arete", "arete_paper", "arete_var"):   # proved: the value inside the ball bracket
            x = r[part]
            c = x["certificate"]["claim"]      # an arete certificate (arete check re-checks it)
            assert x["certified"] is True and "certify_epsilon" in x["how"], (r["eps"], part)
            assert float(c["lower"]) - 1e-6 <= float(x["epsilon"]) <= float(c["upper"]) + 1e-6, (r["eps"], part)
            assert float(c["upper"]) <= e * (1 + 1e-9), (r["eps"], part)
    for r in doc["discrete"]["rows"]:
        e, D = float(r["eps"]), int(r["Delta"])
        assert abs(float(r["dlap"]["mean_abs"]) - 1 / float(mp.sinh(mp.mpf(e) / D))) < 1e-12 * float(
            r["dlap"]["mean_abs"])
        floor_m, floor_v = float(r["dstaircase"]["mean_abs"]), float(r["dstaircase_var"]["variance"])
        for part in comparison.DISCRETE:
            x = r.get(part)
            if not x or x.get("skipped") or x.get("epsilon") is None:
                continue
            assert x["certified"] is True and float(x["epsilon"]) <= e * (1 + 1e-9), (e, D, part)
            assert float(x["mean_abs"]) >= floor_m * (1 - 1e-9), (e, D, part)
            assert float(x["variance"]) >= floor_v * (1 - 1e-9), (e, D, part)
        assert r["msdlap"]["mean_abs"] is not None and r["msdlap"]["certified"] is True
        for part in ("msdlap_opt", "msdlap_opt_var", "gdl_opt", "gdl_opt_var"):
            assert float(r[part]["epsilon"]) <= e * (1 + 1e-9), (e, D, part)
            assert float(r[part]["mean_abs"]) <= float(r["dlap"]["mean_abs"]) * (1 + 1e-9)   # DLap is a candidate
        assert float(r["msdlap_opt"]["mean_abs"]) <= float(r["msdlap"]["mean_abs"]) * (1 + 1e-9)  # so is Thm 16
        assert float(r["msdlap_opt_var"]["variance"]) <= float(r["msdlap"]["variance"]) * (1 + 1e-9)
        if D <= 10:   # the discrete staircase's E|Z| by a brute-force sum of its pmf
            rr = int(r["dstaircase"]["r"])
            with mp.workdps(30):
                K = int(D * (80 / e + 3))
                m1 = 2 * sum(k * ds.pmf(k, e, D, rr, digits=25) for k in range(1, K))
            assert abs(float(m1) / floor_m - 1) < 1e-10


def test_msdlap_mean_abs_by_convolution():
    for r in comparison.load()["discrete"]["rows"]:
        e, D = float(r["eps"]), int(r["Delta"])
        if D <= 10 and e <= 15:
            # Theorem 16: a = eps >= 2, so DLap(a) truncated at |x| <= 60 leaves out mass 2e^{-61a}/(1 + e^{-a}) < 1e-52
            assert abs(float(r["msdlap"]["mean_abs"]) / convolution_mean_abs(e, D, K=60) - 1) < 1e-10, (e, D)


def test_optimised_rows_recomputed_tight_epsilon():
    from arete_proofs.privacy.tight_discrete import tight_epsilon_msdlap
    from arete_proofs.privacy.tight_gdl import tight_epsilon

    ratios = []
    for r in comparison.load()["discrete"]["rows"]:
        e, D = float(r["eps"]), int(r["Delta"])
        for part in ("gdl_opt", "gdl_opt_var"):
            x = r[part]
            assert float(tight_epsilon(x["beta"], x["a"], D, digits=12).epsilon) <= e * (1 + 1e-10), (e, D, part)
        for part in ("msdlap_opt", "msdlap_opt_var"):
            x = r[part]
            assert float(tight_epsilon_msdlap(x["a"], x["m"], D, digits=10).epsilon) <= e * (1 + 1e-10), (e, D, part)
        ratios += [float(r[p]["mean_abs"]) / float(r["dstaircase"]["mean_abs"]) for p in ("gdl_opt", "msdlap_opt")]
        ratios += [float(r[p]["variance"]) / float(r["dstaircase_var"]["variance"])
                   for p in ("gdl_opt_var", "msdlap_opt_var")]
    assert min(ratios) >= 1 - 1e-9                    # the discrete staircase is the floor


def test_theorem21_rows_up_to_the_cut():
    from arete_proofs.distributions.lattice import theorem21_parameters

    for r in comparison.load()["continuous"]["rows"]:
        e = float(r["eps"])
        m = theorem21_parameters(int(e), 1)[1]
        x = r["theorem21"]
        if m <= comparison.THEOREM21_M_MAX_DOCS:    # the docs' cut (every eps <= 20), not the CLI's
            assert x["certified"] is True and "tight_lattice" in x["how"] and x["mean_abs"] is not None, e
        else:
            assert x.get("epsilon") is None or "frontier" in x["how"], e


def test_the_shipped_file_is_consistent():
    doc = comparison.load()
    assert doc["command"] and doc["seconds"] > 0
    assert [float(r["eps"]) for r in doc["continuous"]["rows"]] == [float(e) for e in comparison.EPS]
    assert len(doc["discrete"]["rows"]) == len(comparison.DISCRETE_EPS) * len(comparison.DISCRETE_DELTAS)
    _check(doc)


def test_a_tampered_entry_is_caught():
    doc = copy.deepcopy(comparison.load())
    row = next(r for r in doc["discrete"]["rows"] if r["Delta"] == 10)
    row["dstaircase"]["mean_abs"] = repr(float(row["dstaircase"]["mean_abs"]) * 1.01)
    with pytest.raises(AssertionError):
        _check(doc)
    doc = copy.deepcopy(comparison.load())
    doc["continuous"]["rows"][3]["theorem21"]["mean_abs"] = "1e-9"      # below the Staircase's floor
    with pytest.raises(AssertionError):
        _check(doc)
    doc = copy.deepcopy(comparison.load())
    row = next(r for r in doc["discrete"]["rows"] if r["Delta"] == 1000 and float(r["eps"]) == 10)
    row["msdlap_opt"]["mean_abs"] = repr(float(row["dstaircase"]["mean_abs"]) * 0.99)   # below the floor
    with pytest.raises(AssertionError):
        _check(doc)


def test_the_page_shows_the_file():
    # docs/results/comparison.md renders comparison.table_markdown of the shipped file at build time
    # (docs/_ext/arete_site.py): every table, shown or as a download
    page = (DOCS / "results" / "comparison.md").read_text()
    doc = comparison.load()
    for w in ("continuous", "discrete"):
        for q in ("mean_abs", "variance", "epsilon"):
            tag = f"comparison-{w}-{q.replace('_', '-')}"
            assert f"```{{arete-table}} {tag}" in page, f"docs/results/comparison.md has no {tag} table"
            assert comparison.table_markdown(doc, w, q).startswith("|")
    changed = copy.deepcopy(doc)
    changed["continuous"]["rows"][0]["laplace"]["mean_abs"] = "1"
    assert comparison.table_markdown(changed) != comparison.table_markdown(doc)


def test_bad_part():
    with pytest.raises(ValueError, match="part"):
        comparison.continuous_part(8, "gamma")
    with pytest.raises(ValueError, match="part"):
        ncomp.discrete_part(8, 1, "gamma")
    with pytest.raises(ValueError, match="name"):
        ncomp.family_entry("arete", 8)


def test_an_arete_certificate_rechecked_and_a_wrong_one_refused():
    """The shipped eps = 8 Arete optimum re-proved from its parameters as written; the same entry with lam
    raised by 2 % (built here: a different noise whose epsilon is not the stored one) is not certified."""
    pytest.importorskip("flint")
    row = next(r for r in comparison.load()["continuous"]["rows"] if float(r["eps"]) == 8)
    stored = row["arete"]
    e = {k: stored[k] for k in ("alpha", "theta", "lam", "epsilon")} | {"how": "test"}
    comparison._certify_arete(e, target=8.0, eps="8.0")          # as continuous_part does it
    assert e["certified"] is True and e["certificate"]["cover"] == stored["certificate"]["cover"]
    assert abs(float(e["certificate"]["claim"]["upper"]) - float(stored["certificate"]["claim"]["upper"])) < 1e-12
    bad = dict(e, lam=repr(float(stored["lam"]) * 1.02), how="test")
    comparison._certify_arete(bad)
    assert bad["certified"] is False and float(bad["certificate"]["claim"]["upper"]) < float(stored["epsilon"]) - 1e-3


@pytest.mark.slow
def test_a_few_entries_recomputed():
    doc = comparison.load()
    for eps, part in [(20, "arete_paper"), (4, "theorem21")]:
        row = next(r for r in doc["continuous"]["rows"] if float(r["eps"]) == eps)
        new = comparison.continuous_part(eps, part, digits=8)
        assert new["epsilon"] == row[part]["epsilon"] and new["mean_abs"] == row[part]["mean_abs"]
    for eps, D, part in [(5, 10, "msdlap"), (10, 1000, "gdl"), (15, 100, "dstaircase_var")]:
        row = next(r for r in doc["discrete"]["rows"] if float(r["eps"]) == eps and r["Delta"] == D)
        new = ncomp.discrete_part(eps, D, part, digits=8)
        assert new["epsilon"] == row[part]["epsilon"] and new["variance"] == row[part]["variance"]


# -- arete compare --families -----------------------------------------------------------------------
def _cli(argv, monkeypatch):
    from arete_proofs.cli import main
    from arete_proofs.privacy import errors

    monkeypatch.setattr(errors, "comparison_table", lambda *a, **k: [])   # skip the Arete optimiser here
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def test_compare_families_rows(monkeypatch):
    code, out, _ = _cli(["compare", "--epsilon", "5", "--sensitivity", "10", "--families", "dlap",
                         "discrete_staircase", "gdl", "msdlap", "--quiet"], monkeypatch)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["eps", "noise"]
    ds_line = next(x for x in lines if x.split()[1] == "discrete_staircase")
    from arete_proofs.distributions.discrete_staircase import r_mean_abs

    assert f"r={r_mean_abs(5, 10)} " in ds_line and "eps*=5.0000000" in ds_line and "certified: yes" in ds_line
    # Theorem 15's hypothesis eps > 2 + ln Delta holds at 5 > 4.30: the row is computed
    assert "certified: yes" in next(x for x in lines if x.split()[1] == "gdl")
    code, out, _ = _cli(["compare", "--epsilon", "3", "--sensitivity", "10", "--families", "gdl", "--quiet"],
                        monkeypatch)
    assert "skipped: Theorem 15's hypothesis" in out


def test_compare_families_json_and_errors(monkeypatch):
    code, out, _ = _cli(["compare", "--epsilon", "6", "--families", "dlap", "--json", "--quiet"], monkeypatch)
    doc = json.loads(out)
    assert code == 0 and doc["families"][0]["noise"] == "dlap" and doc["families"][0]["certified"] is True
    code, out, _ = _cli(["compare", "--epsilon", "6", "--json", "--quiet"], monkeypatch)
    assert "families" not in json.loads(out)                       # the flag's absence: unchanged document
    code, _, err = _cli(["compare", "--epsilon", "6", "--families", "arete"], monkeypatch)
    assert code == 2 and "--families" in err and "Traceback" not in err
    code, out, _ = _cli(["compare", "--epsilon", "6", "--sensitivity", "2.5", "--families", "dlap"], monkeypatch)
    assert code == 0 and "skipped: an integer noise needs an integer sensitivity" in out
