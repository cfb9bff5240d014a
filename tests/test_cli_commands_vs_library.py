"""The values ``arete epsilon``, ``account``, ``certify``, ``sample`` and ``compare`` print for ``--noise NAME`` are
the library's.

For every family of ``noise.FAMILIES`` (one case each in :data:`CASES`; a family added without a case fails
:func:`test_every_family_is_covered`) the printed numbers, text and ``--json``, equal the library's values at
the printed digits.  The reference is the public library called on ``noise.make(name, **params)``:
``Noise.tight_epsilon``/``mean_abs``/``var`` (``epsilon``), ``privacy.accounting.hockey_stick`` or, for the
lattice laws, ``privacy.accounting_lattice.lattice_account`` (``account``), ``Noise.certify`` (``certify``),
``Noise.sample`` (``sample``) and ``privacy.optimizer.optimize`` of the family's search problem (``compare``).
A family that does not support a command is refused with exit 2 and one line naming ``--noise``.  The cases whose
computation takes seconds (the Gaussian parts, the lattice accounting; the account of lattice_gauss takes
minutes) are ``slow``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from mpmath import mp

from arete_proofs import noise
from arete_proofs.cli._common import format_bound, format_value
from tests._cli import FAMILY_CASES, run

#: one valid parameter set per family (lattice sizes m <= 3; arete_gauss at alpha >= 1: its closed form)
CASES = {**FAMILY_CASES,
         "arete_gauss": {"alpha": "1.5", "theta": "0.8", "lam": "0.3", "sigma": "0.2"},
         "msdlap": {"a": "0.5", "m": "3"}}
DIGITS = 10
#: (command, family) pairs that take seconds per run (the run is made three times: text, --json, reference)
SLOW = {("epsilon", "lattice_gauss"), ("epsilon", "lattice_gauss_top"),
        ("account", "arete"), ("account", "arete_gauss"), ("account", "lattice_laplace"),
        ("account", "lattice_gauss"), ("certify", "arete")}


def _flags(family):
    flags = {p.name: p.cli_flag for p in noise.family(family).parameters}   # the flags 'arete noises' lists
    return [x for name, v in CASES[family].items() for x in (flags[name], v)]


def _families(command, support):
    """``pytest.param(name)`` for every family; the slow ones marked; ``support``: the capability needed."""
    out = []
    for name in sorted(CASES):
        marks = [pytest.mark.slow] if (command, name) in SLOW and support in noise.family(name).supports else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out


def _text(out):
    """``{key: value}`` of the text lines ``key value ...``."""
    return {line.split()[0]: line.split()[1] for line in out.strip().splitlines()}


def _refused_naming_noise(capsys, family, *argv):
    code, out, err = run(capsys, *argv)
    lines = err.strip().splitlines()
    assert code == 2 and out == "", (family, code, out, err)
    assert len(lines) == 1 and lines[0].startswith("arete: error: ") and f"--noise {family}" in lines[0], err
    return lines[0]


def test_every_family_is_covered():
    assert set(noise.FAMILIES) <= set(CASES), f"add a case for {sorted(set(noise.FAMILIES) - set(CASES))}"


# --------------------------------------------------------------------------- epsilon


@pytest.mark.parametrize("family", _families("epsilon", "tight_epsilon"))
def test_epsilon_prints_the_librarys_values(capsys, family):
    z = noise.make(family, **CASES[family])
    argv = ["epsilon", "--noise", family, *_flags(family), "--digits", DIGITS, "--quiet"]
    if "tight_epsilon" not in z.supports:
        _refused_naming_noise(capsys, family, *argv)
        return
    r = z.tight_epsilon("1", digits=DIGITS)
    want = {"epsilon": format_value(r.epsilon, DIGITS),
            "t_star": "none" if r.t_star is None else format_value(r.t_star, DIGITS),
            "mean_abs": format_value(z.mean_abs(digits=DIGITS), DIGITS),
            "variance": format_value(z.var(digits=DIGITS), DIGITS)}
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert _text(out) == want
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert {k: doc[k] for k in want} == want and doc.get("noise", family) == family
    assert mp.mpf(doc["lower_bound"]) <= mp.mpf(want["epsilon"]) * (1 + mp.mpf(10) ** (1 - DIGITS))
    assert mp.mpf(doc["upper_bound"]) >= mp.mpf(want["epsilon"]) * (1 - mp.mpf(10) ** (1 - DIGITS))


# --------------------------------------------------------------------------- account (one release)


@pytest.mark.parametrize("family", _families("account", "account"))
def test_account_prints_the_librarys_delta(capsys, family):
    z = noise.make(family, **CASES[family])
    eps = "0.05" if family == "msdlap" else "0.5"   # below each tight epsilon: delta > 0
    argv = ["account", "--noise", family, *_flags(family), "--epsilon", eps, "--digits", DIGITS, "--quiet"]
    if "account" not in z.supports:
        _refused_naming_noise(capsys, family, *argv)
        return
    if getattr(z, "kernel", None) in ("laplace", "gauss"):
        from arete_proofs.privacy.accounting_lattice import lattice_account

        want = format_value(lattice_account(z, "1", eps, digits=DIGITS).delta, DIGITS)
    else:
        from arete_proofs.privacy.accounting import hockey_stick

        want = format_value(hockey_stick(z, "1", eps, digits=DIGITS), DIGITS)
    assert mp.mpf(want) > 0
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert out.split()[:2] == ["delta", want]
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["delta"] == want and doc["epsilon"] == eps and doc.get("noise", family) == family


@pytest.mark.parametrize("family", ["laplace", "dlap", "gdl"])
def test_account_delta_prints_the_librarys_epsilon(capsys, family):
    from arete_proofs.privacy.accounting import epsilon_for_delta

    want = format_value(epsilon_for_delta(noise.make(family, **CASES[family]), "1", "1e-3", digits=DIGITS), DIGITS)
    argv = ["account", "--noise", family, *_flags(family), "--delta", "1e-3", "--digits", DIGITS, "--quiet"]
    code, out, err = run(capsys, *argv)
    assert code == 0 and out.split() == ["epsilon", want], err
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0 and json.loads(out)["epsilon"] == want, err


# --------------------------------------------------------------------------- certify


@pytest.mark.parametrize("family", _families("certify", "certify"))
def test_certify_prints_the_librarys_bound(capsys, family):
    z = noise.make(family, **CASES[family])
    argv = ["certify", "--noise", family, *_flags(family), "--no-numeric", "--quiet", "--tol", "1e-3"]
    if "certify" not in z.supports:
        _refused_naming_noise(capsys, family, *argv)
        return
    pytest.importorskip("flint")
    r = z.certify("1", tol="1e-3", numeric=False, progress=False)
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    first = out.splitlines()[0].split()
    assert first[:3] == ["certified", "bound", "epsilon*"]
    assert first[-1] == format_bound(r.upper, 15, upward=True)
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert json.loads(out)["upper"] == r.to_dict()["upper"]


# --------------------------------------------------------------------------- sample


@pytest.mark.parametrize("family", _families("sample", "sample"))
def test_sample_writes_the_librarys_draws(capsys, family, tmp_path):
    z = noise.make(family, **CASES[family])
    out_file = tmp_path / "z.npy"
    argv = ["sample", "--noise", family, *_flags(family), "--size", "5", "--seed", "7", "--out", out_file]
    if "sample" not in z.supports:
        _refused_naming_noise(capsys, family, *argv)
        return
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert np.array_equal(np.load(out_file), np.asarray(z.sample(5, 7)))


# --------------------------------------------------------------------------- compare --noise (optimised rows)

#: the target eps of the compare rows (the optimiser's confirmation takes seconds to a minute per family)
COMPARE_EPS = "8"


def _compare_families():
    """Every family but Arete (``compare``'s own rows); those with an optimiser run it twice (``slow``)."""
    return [pytest.param(n, id=n, marks=[pytest.mark.slow] if "optimize" in noise.family(n).supports else [])
            for n in sorted(CASES) if n != "arete"]


@pytest.mark.parametrize("family", _compare_families())
def test_compare_noise_rows_are_the_optimisers(capsys, family):
    """``arete compare --noise NAME --json``: the row of NAME is ``optimizer.optimize`` of the family's search
    problem (E|Z|, Var Z and the certified epsilon bound, at the printed digits); a family without an optimiser
    is refused naming ``--noise``."""
    argv = ["compare", "--epsilon", COMPARE_EPS, "--noise", family, "--json", "--quiet"]
    cls = noise.family(family)
    if "optimize" not in cls.supports:
        _refused_naming_noise(capsys, family, *argv)
        return
    from arete_proofs.privacy import optimizer

    o = optimizer.optimize(cls.search_problem(COMPARE_EPS, objective="mean_abs"), "1")
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    doc = json.loads(out)
    rows = doc["gauss"] if family == "arete_gauss" else doc["noises"][family]
    assert len(rows) == 1 and rows[0]["eps"] == COMPARE_EPS
    assert rows[0]["mean_abs"] == format_value(o.mean_abs, 12)
    assert rows[0]["variance"] == format_value(o.variance, 12)
    assert rows[0]["epsilon_upper"] == format_bound(o.epsilon_upper, 15, upward=True)
    assert mp.mpf(rows[0]["epsilon_upper"]) <= mp.mpf(COMPARE_EPS)


# --------------------------------------------------------------------------- the checks can fail


def test_a_wrong_printed_value_is_caught(capsys, monkeypatch):
    """A CLI that printed another digit (here: epsilon of the next family member) fails the comparison."""
    cls = noise.FAMILIES["laplace"]
    real = cls.tight_epsilon

    def off(self, Delta=1, *, digits=12):
        return real(self.with_params(lam="0.71"), Delta, digits=digits)

    monkeypatch.setattr(cls, "tight_epsilon", off)
    code, out, _ = run(capsys, "epsilon", "--noise", "laplace", "--lam", "0.7", "--digits", DIGITS)
    monkeypatch.undo()
    assert code == 0
    assert _text(out)["epsilon"] != format_value(noise.make("laplace", lam="0.7").tight_epsilon(digits=DIGITS).epsilon,
                                                 DIGITS)


# --------------------------------------------------------------------------- pmf off the lattice


@pytest.mark.parametrize("family", sorted(n for n, c in noise.FAMILIES.items() if c.pmf is not noise.Noise.pmf))
def test_a_lattice_law_has_mass_0_off_its_lattice(family):
    """Every integer-valued family: pmf 0 and logpmf -inf at a point that is not an integer (dlap, gdl and the
    discrete staircase refused it, msdlap and lattice_skellam returned 0), and a point that is no number refused."""
    z = noise.make(family, **CASES[family])
    assert z.pmf("1/2") == 0 and z.pmf(0.5) == 0 and z.logpmf("2.5") == -mp.inf
    assert z.pmf(["1", "0.5"]) == [z.pmf(1), 0] and z.pmf(1) > 0
    with pytest.raises(ValueError, match="finite real number"):
        z.pmf("nan")
