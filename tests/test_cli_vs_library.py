"""The values ``arete density`` prints (density and ``--cdf``, text and ``--json``) are the library's, for every family.

A point and the parameters reach the library as the strings the user typed; the reference is the library called on
the noise object with the same parameters (``noise.make``), so a family that reads a string point differently from a
number is caught (``noise.msdlap`` once compared the string ``"0"`` with ``int(x)`` and printed 0.0 at every point).
A family added to ``noise.FAMILIES`` without a case here fails :func:`test_every_family_is_covered`.
"""

from __future__ import annotations

import json

import pytest
from mpmath import mp

from arete_proofs import noise
from arete_proofs.noise._base import integer_point
from tests._cli import FAMILY_CASES, run

#: one valid parameter set per family (small lattice sizes: the exact engines at m <= 3)
CASES = FAMILY_CASES
POINTS = ("0", "1", "-3")


def _argv(family, *extra):
    flags = {p.name: p.cli_flag for p in noise.family(family).parameters}      # the flags 'arete noises' lists
    return ["density", "--noise", family, *[x for name, v in CASES[family].items() for x in (flags[name], v)],
            "--digits", "15", *extra, "--", *POINTS]


def test_every_family_is_covered():
    assert set(noise.FAMILIES) <= set(CASES), f"add a case for {sorted(set(noise.FAMILIES) - set(CASES))}"


@pytest.mark.parametrize("cdf", [False, True], ids=["density", "cdf"])
@pytest.mark.parametrize("family", sorted(CASES))
def test_the_printed_values_are_the_librarys(capsys, family, cdf):
    z = noise.make(family, **CASES[family])
    want = [(z.cdf if cdf else z.pdf)(t, digits=15) for t in POINTS]
    assert all(w > 0 for w in want)
    code, out, err = run(capsys, *_argv(family, *(["--cdf"] if cdf else [])))
    assert code == 0, err
    printed = [mp.mpf(line.split()[-1]) for line in out.strip().splitlines()]
    code, out, err = run(capsys, *_argv(family, "--json", *(["--cdf"] if cdf else [])))
    assert code == 0, err
    doc = json.loads(out)
    assert doc["quantity"] == ("cdf" if cdf else "pdf") and [r["t"] for r in doc["points"]] == list(POINTS)
    as_json = [mp.mpf(r["value"]) for r in doc["points"]]
    for got in (printed, as_json):
        assert len(got) == len(want)
        for t, g, w in zip(POINTS, got, want):
            assert mp.almosteq(g, w, 1e-13), (family, cdf, t, g, w)


@pytest.mark.parametrize("family", sorted(n for n, c in noise.FAMILIES.items() if c.pmf is not noise.Noise.pmf))
def test_a_string_point_is_the_integer(family):
    n = noise.make(family, **CASES[family])
    assert n.pmf("1") == n.pmf(1) > 0 and n.pmf(["1", "2"]) == [n.pmf(1), n.pmf(2)]


def test_integer_point():
    assert [integer_point(x) for x in ("3", 3.0, "-2", "1/2", "4/2", 0.5)] == [3, 3, -2, None, 2, None]
    for bad in ("x", "inf", float("nan")):
        with pytest.raises(ValueError, match="^k must be a finite real number"):
            integer_point(bad)
