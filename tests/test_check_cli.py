"""``arete check`` and ``python -m arete_proofs.check``: files and folders, verdicts, exit codes, JSON, the
context rules (a certificate's parameters against its entry's, claim.epsilon against the row's eps)."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

pytest.importorskip("flint")

from _cli import run  # noqa: E402


def _seal(doc):
    body = {k: v for k, v in doc.items() if k != "digest"}
    doc["digest"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return doc


@pytest.fixture(scope="module")
def cert():
    from arete_proofs.certified.gauss_certificate import lattice_h, write_lattice_gauss

    return write_lattice_gauss("3", 2, "1/5", lattice_h(2), 1, tol="1e-5")


@pytest.fixture
def folder(tmp_path, cert):
    (tmp_path / "one.json").write_text(json.dumps(cert))
    row = {"eps": str(cert["claim"]["upper"]), "entry": dict(a="3", m=2, sigma="0.2", h="1/2", certificate=cert)}
    row["entry"]["certificate"] = _seal(dict(copy.deepcopy(cert), claim=dict(cert["claim"], epsilon=row["eps"])))
    (tmp_path / "rows.json").write_text(json.dumps({"rows": [row]}))
    (tmp_path / "plain.json").write_text(json.dumps({"nothing": [1, 2]}))
    (tmp_path / "notes.txt").write_text("not JSON")
    return tmp_path


def test_a_folder_is_checked_and_other_files_are_listed(folder, capsys):
    code, out, err = run(capsys, "check", str(folder), "--quiet")
    assert code == 0, out + err
    lines = out.splitlines()
    assert sum(line.startswith("CHECKED") for line in lines) == 2
    assert any("skipped" in line and "plain.json" in line for line in lines)
    assert any("skipped" in line and "notes.txt" in line for line in lines)
    assert lines[-1].startswith("2 of 2 certificates checked, 0 refused")


def test_json_output(folder, capsys):
    code, out, _ = run(capsys, "check", str(folder / "rows.json"), "--json", "--quiet")
    doc = json.loads(out)
    (c,) = doc["certificates"]
    assert code == 0 and c["verdict"] == "checked" and c["id"] == "rows.json#/rows/0/entry/certificate"
    assert set(c) == {"file", "id", "kind", "verdict", "lower", "upper", "seconds", "reason"}
    assert doc["summary"]["refused"] == 0 and c["lower"] <= c["upper"]


def _rows(folder, edit):
    doc = json.loads((folder / "rows.json").read_text())
    edit(doc["rows"][0])
    (folder / "rows.json").write_text(json.dumps(doc))


@pytest.mark.parametrize("edit, why", [
    (lambda r: r["entry"].update(sigma="0.21"), "entry's sigma"),          # the row is for another noise
    (lambda r: r.update(eps="100"), "row's eps"),                          # the row claims another epsilon
    (lambda r: r["entry"]["certificate"].pop("format"), "without a format"),   # an unversioned (old) certificate
])
def test_a_certificate_that_does_not_fit_its_row_is_refused(folder, capsys, edit, why):
    def apply(r):
        edit(r)
        c = r["entry"]["certificate"]
        if "format" not in c:
            c["choices"] = {}          # how the old certificates looked
    _rows(folder, apply)
    code, out, _ = run(capsys, "check", str(folder / "rows.json"), "--quiet")
    assert code == 1 and why in out and out.splitlines()[-1].startswith("0 of 1 certificates checked, 1 refused")


@pytest.mark.parametrize("content, word", [("{not json", "not a JSON file"), (None, "no such file")])
def test_unreadable_files_exit_2_with_one_line(tmp_path, capsys, content, word):
    p = tmp_path / "bad.json"
    if content is not None:
        p.write_text(content)
    code, out, err = run(capsys, "check", str(p))
    assert code == 2 and word in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_options(capsys, folder):
    code, _, err = run(capsys, "check", str(folder), "--workers", "0")
    assert code == 2 and "--workers" in err


def test_two_workers_and_the_module_entry_point(folder):
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "arete_proofs.check", str(folder), "--workers", "2", "--quiet"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "2 of 2 certificates checked" in p.stdout


def test_the_checkers_own_entry_refuses_bad_options_and_missing_paths(capsys, folder, tmp_path):
    """``python -m arete_proofs.check`` does not go through the arete CLI's checks: its own refusals, one line each."""
    from arete_proofs.check import _files

    assert _files.main([str(folder), "--workers", "0"]) == 2
    assert _files.main([str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "--workers" in err[0] and "no such file or folder" in err[1]
