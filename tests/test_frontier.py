"""The frontier table (issue 24): docs/data/frontier.json, its consistency and the page's table.

The lattice + Gaussian E|Z| of each row is recomputed from its stored parameters with the float64
tilted-pmf sum (:func:`arete_proofs.privacy.optimize_lattice.mean_abs`, a different summation
from the mpmath ``LatticeLaw.mean_abs`` that wrote the file); the Staircase's E|Z| with Lemma 27's
closed form; the Theorem 21 parameters with :func:`theorem21_parameters`.
"""

from __future__ import annotations

import copy
import re
from fractions import Fraction
from pathlib import Path

import pytest

from arete_proofs.walkthrough import frontier

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _check(doc):
    from arete_proofs.distributions import staircase
    from arete_proofs.distributions.lattice import theorem21_parameters
    from arete_proofs.privacy import optimize_lattice as ol

    key = doc.get("objective", "mean_abs")
    for r in doc["rows"]:
        e = float(r["eps"])
        if key == "mean_abs":
            st = float(staircase.mean_abs(staircase.gamma_mean_abs(e), 1, e))
        else:
            st = float(staircase.var(staircase.gamma_var(e), 1, e))
        assert abs(float(r["staircase"][key]) / st - 1) < 1e-12
        if "laplace" in r:
            assert abs(float(r["laplace"]["mean_abs"]) - 1 / e) < 1e-14
        for part in frontier.PARTS:
            q = frontier.ratio(r, part, key) if r.get(part) and key in r[part] else None
            if q is not None:
                assert q > 1, (e, part)                       # the Staircase is the floor
        t = r.get("theorem21")
        if t:
            assert (t["a"], t["m"]) == theorem21_parameters(int(e))[:2]
            assert float(t["epsilon_upper"]) <= e and t["certified"]
        for g in (r.get(part) for part in frontier.LATTICE):
            if not g:
                continue
            a, m, s, h = float(g["a"]), int(g["m"]), float(g["sigma"]), float(Fraction(g["h"]))
            at = float(g["a_top"]) if "a_top" in g else None
            assert at is None or at <= a
            assert abs(ol.mean_abs(a, m, s, h, at) / float(g["mean_abs"]) - 1) < 1e-9
            assert abs(ol.variance(a, m, s, h, at) / float(g["variance"]) - 1) < 1e-9
            c = g.get("certificate")
            if c:   # a checker certificate for these parameters, on the lattice h = 1/m, claiming eps* <= eps
                assert c["format"] == frontier.CERT_FORMAT and Fraction(g["h"]) == Fraction(1, m)
                assert g["certified"] is True and Fraction(c["claim"]["upper"]) <= Fraction(c["claim"]["epsilon"]) == e
                assert frontier.same_params(c["params"], g)          # exact rationals of the row's decimals
            else:
                assert g["certified"] is False
            assert float(g["estimate"]) <= e and g["epsilon"] is None      # the float64 search's value
            if "m_max" in g:   # a capped search says so, and kept to its cap
                assert m <= int(g["m_max"]) and "m capped" in g["how"]
            u = g.get("uncapped")
            if u:   # the uncapped float64 optimum kept beside a capped row: larger m, and its values recompute
                assert int(u["m"]) > int(g["m_max"]) and float(u["estimate"]) <= e
                ua = float(u["a_top"]) if "a_top" in u else None
                assert abs(ol.mean_abs(float(u["a"]), int(u["m"]), float(u["sigma"]), float(u["h"]), ua)
                           / float(u["mean_abs"]) - 1) < 1e-9
        for part in frontier.LATTICE + ("theorem21",):   # how each entry was made
            if part in r:
                assert {"how", "seconds"} <= set(r[part])


def _files():
    return [frontier.load()] + ([frontier.load(frontier.VARIANCE)] if frontier.VARIANCE.exists() else [])


def test_the_shipped_files_are_consistent():
    docs = _files()
    for doc in docs:
        assert doc["commands"] and {float(r["eps"]) for r in doc["rows"]} >= {4.0, 8.0, 12.0}
        _check(doc)


def test_the_smallest_certificates_check():
    """Two shipped certificates through the independent checker (all of them: ``arete check docs/data`` in CI)."""
    from arete_proofs.check import check_document

    certs = sorted(((doc["objective"], float(r["eps"]), r[p]["certificate"]) for doc in _files() for r in doc["rows"]
                    for p in frontier.LATTICE if r.get(p, {}).get("certificate")),
                   key=lambda c: int(c[2]["params"]["m"]))[:2]
    for objective, e, c in certs:
        r = check_document(c)
        assert r["verdict"] == "checked", (objective, e, r["reason"])


def test_a_tampered_row_is_caught():
    doc = copy.deepcopy(frontier.load())
    row = next(r for r in doc["rows"] if "lattice_gauss" in r)
    row["lattice_gauss"]["mean_abs"] = repr(float(row["lattice_gauss"]["mean_abs"]) * 0.9)
    with pytest.raises(AssertionError):
        _check(doc)
    doc = copy.deepcopy(frontier.load())
    row = next((r for r in doc["rows"] if r.get("lattice_gauss", {}).get("certificate")), None)
    if row is not None:                       # a certificate for other parameters is caught
        row["lattice_gauss"]["certificate"]["params"]["sigma"] = str(Fraction(row["lattice_gauss"]["sigma"]) * Fraction(99, 100))
        with pytest.raises(AssertionError):
            _check(doc)
    doc = copy.deepcopy(frontier.load())
    row = next((r for r in doc["rows"] if r.get("lattice_top", {}).get("certificate")), None)
    if row is not None:                       # a certificate for the plain comb (top rate dropped) is caught
        del row["lattice_top"]["certificate"]["params"]["a_top"]
        with pytest.raises(AssertionError):
            _check(doc)


def test_the_page_shows_the_file():
    # docs/results/comparison.md renders frontier.table_markdown of both shipped files at build time
    # (docs/_ext/arete_site.py; tests/test_docs_site.py checks the rendered tables are these)
    page = (DOCS / "results" / "comparison.md").read_text()
    assert "```{arete-table} frontier-mean-abs" in page and "```{arete-table} frontier-variance" in page
    doc = copy.deepcopy(frontier.load())
    doc["rows"][0]["laplace"]["mean_abs"] = "1"
    assert frontier.table_markdown(frontier.load()) != frontier.table_markdown(doc)   # a changed number changes the table


def test_bad_part():
    with pytest.raises(ValueError, match="part"):
        frontier.compute_part(8, "gamma")


def test_m_max_caps_the_search_and_the_table_marks_it():
    from arete_proofs.privacy.optimize_lattice import LatticeGaussProblem

    p, capped = frontier.lattice_problem(14, "lattice_gauss", m_max=200)
    assert capped and max(p.m_choices) <= 200 < max(LatticeGaussProblem(14.0).m_choices)
    p, capped = frontier.lattice_problem(8, "lattice_top", m_max=10 ** 6)
    assert not capped and p.m_choices == LatticeGaussProblem(8.0, top=True).m_choices
    with pytest.raises(ValueError, match="part"):
        frontier.lattice_problem(8, "arete")
    doc = copy.deepcopy(frontier.load())
    row = next(r for r in doc["rows"] if r.get("lattice_gauss") and r["lattice_gauss"].get("m_max"))
    assert "†" in frontier.table_markdown(doc) and "(m capped)" in frontier.table_markdown(doc)
    del row["lattice_gauss"]["m_max"]   # a capped entry that no longer says so loses its marks
    assert frontier.table_markdown(doc).count("†") == frontier.table_markdown().count("†") - 1



def test_a_capped_run_keeps_the_uncapped_estimate_it_replaces(tmp_path, monkeypatch):
    import json

    doc = copy.deepcopy(frontier.load())
    e15 = next(r for r in doc["rows"] if float(r["eps"]) == 15.0)
    old = {k: v for k, v in e15["lattice_top"].items() if k not in ("certificate", "uncapped", "m_max")}
    old["certified"] = False                                          # an uncapped, uncertified optimum
    e15["lattice_top"] = old
    out = tmp_path / "f.json"
    out.write_text(json.dumps(doc))
    # what a capped search returns (m <= 500, a worse E|Z|; no uncapped entry of its own)
    capped = dict(old, m=500, m_max=500, mean_abs=repr(1.2 * float(old["mean_abs"])))
    monkeypatch.setattr(frontier, "compute_part", lambda *a, **k: copy.deepcopy(capped))
    new = frontier.compute([15], parts=("lattice_top",), out=str(out), m_max=500)
    g = next(r for r in new["rows"] if float(r["eps"]) == 15.0)["lattice_top"]
    assert g["m_max"] == 500 and g["uncapped"]["m"] == old["m"] and g["uncapped"]["mean_abs"] == old["mean_abs"]


@pytest.mark.parametrize("argv, word", [(["--eps", "15", "--margin", "0"], "--margin"),
                                        (["--eps", "15", "--margin", "0.5"], "--margin"),
                                        (["--certify", "--out", "x.json", "--tol", "abc"], "--tol"),
                                        (["--certify", "--out", "x.json", "--tol", "2"], "--tol")])
def test_frontier_cli_refuses_a_bad_margin_or_tol(argv, word, capsys):
    """--margin (the search's target eps (1 - margin)) and --tol (the certificate's width): one line, exit 2."""
    from arete_proofs.walkthrough.frontier import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert word in err.splitlines()[-1] and "Traceback" not in err


def _copy_rows(tmp_path, eps_list, edit=None):
    """The shipped file's rows at ``eps_list``, ``edit(row)`` applied to each, in a file of its own."""
    import json

    doc = copy.deepcopy(frontier.load())
    doc["rows"] = [r for r in doc["rows"] if float(r["eps"]) in eps_list]
    for r in doc["rows"]:
        if edit:
            edit(r)
    out = tmp_path / "f.json"
    out.write_text(json.dumps(doc))
    return out


def _uncertified_copy(tmp_path, eps_list=(3.0, 4.0)):
    """The shipped file's small top-rate rows at ``eps_list``, their certificates dropped, in a file of their own."""
    def drop(r):
        r.pop("lattice_gauss", None)
        g = r["lattice_top"]
        g.pop("certificate")
        g["certified"] = False

    return _copy_rows(tmp_path, eps_list, drop)


def test_certify_rows_in_two_processes(tmp_path):
    """--certify --workers 2: one certificate per process; the same certificates as the shipped ones, and checked."""
    from arete_proofs.check import check_document

    out = _uncertified_copy(tmp_path)
    assert frontier.certify_rows(str(out), max_m=10, workers=2) == 2
    doc = frontier.load(out)
    shipped = {float(r["eps"]): r.get("lattice_top") for r in frontier.load()["rows"]}
    for r in doc["rows"]:
        g = r["lattice_top"]
        assert g["certified"] and check_document(g["certificate"])["verdict"] == "checked"
        # the shipped entry's parameters and claimed epsilon, proved again (the enclosure's width may differ:
        # the cover is searched afresh)
        mine, theirs = g["certificate"], shipped[float(r["eps"])]["certificate"]
        assert mine["params"] == theirs["params"] and mine["claim"]["epsilon"] == theirs["claim"]["epsilon"]
        assert float(mine["claim"]["upper"]) <= float(r["eps"])
    assert doc["commands"][-1].endswith("(2 certified)")


def test_certify_rows_on_dask(tmp_path):
    distributed = pytest.importorskip("dask.distributed", reason="optional extra 'dask' not installed")
    out = _uncertified_copy(tmp_path, (3.0,))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        assert frontier.certify_rows(str(out), max_m=10, dask=client) == 1
    assert frontier.load(out)["rows"][0]["lattice_top"]["certified"]


def test_frontier_cli_dask_without_the_extra(capsys, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name.startswith("dask"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    with pytest.raises(SystemExit) as e:
        frontier.main(["--eps", "8", "--dask", "tcp://127.0.0.1:8786"])
    assert e.value.code == 2 and "pip install 'arete-proofs[dask]'" in capsys.readouterr().err
