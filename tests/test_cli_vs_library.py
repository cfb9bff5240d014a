"""The value ``arete density`` prints is the library's value, for every integer-valued family.

A point reaches the library as the string the user typed; an integer-valued family must read ``"0"`` as the integer 0
(``noise.msdlap`` once compared the string with ``int(x)`` and printed 0.0 at every point).  The reference is the
library called with Python integers, an independent path through the parameter parsing.
"""

from __future__ import annotations

import pytest
from mpmath import mp

from arete_proofs import noise
from arete_proofs.noise._base import integer_point
from tests._cli import run

# one valid parameter set per integer-valued family (the families' own docstring examples)
CASES = {
    "msdlap": {"a": "0.5", "m": "5"},
    "dlap": {"a": "1"},
    "gdl": {"beta": "0.5", "a": "1"},
    "discrete_staircase": {"eps": "2", "Delta": "1"},
    "lattice_skellam": {"a": "2", "m": "2", "mu": "0.5", "h": "1"},
}


def test_every_integer_family_is_covered():
    integer = {n for n, c in noise.FAMILIES.items() if getattr(c, "pmf", None) is not noise.Noise.pmf}
    assert integer <= set(CASES), f"add a case for {sorted(integer - set(CASES))}"


@pytest.mark.parametrize("family", sorted(CASES))
@pytest.mark.parametrize("k", [0, 1, -3])
def test_the_printed_density_is_the_librarys(capsys, family, k):
    params = CASES[family]
    flags = {p.name: p.cli_flag for p in noise.family(family).parameters}      # the flags 'arete noises' lists
    code, out, err = run(capsys, "density", "--noise", family,
                         *[x for name, v in params.items() for x in (flags[name], v)], "--digits", 15, "--", k)
    assert code == 0, err
    printed = mp.mpf(out.split()[-1])
    ref = noise.make(family, **params).pmf(k, digits=15)
    assert ref > 0 and mp.almosteq(printed, ref, 1e-13), (family, k, printed, ref)


@pytest.mark.parametrize("family", sorted(CASES))
def test_a_string_point_is_the_integer(family):
    n = noise.make(family, **CASES[family])
    assert n.pmf("1") == n.pmf(1) > 0 and n.pmf(["1", "2"]) == [n.pmf(1), n.pmf(2)]


def test_integer_point():
    assert [integer_point(x) for x in ("3", 3.0, "-2", "1/2", "4/2", 0.5)] == [3, 3, -2, None, 2, None]
    for bad in ("x", "inf", float("nan")):
        with pytest.raises(ValueError, match="^k must be a finite real number"):
            integer_point(bad)
