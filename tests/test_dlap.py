"""The dlap and gdl families through noise.make and the CLI (flags generated from their Parameters)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mpmath import mp

from arete_proofs import noise

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "arete_proofs", *args], capture_output=True, text=True, cwd=ROOT)


def test_registered_and_described():
    assert {"dlap", "gdl"} <= set(noise.FAMILIES)
    z = noise.make("dlap", a="0.3")
    assert z.integer_valued and z.infinitely_divisible and z.symmetric_unimodal
    assert z.describe() == {"noise": "dlap", "a": "0.3"}
    assert mp.almosteq(noise.make("gdl", beta="1", a="0.3").pmf(2), z.pmf(2))       # GDL(1, a) = DLap(a)
    with pytest.raises(ValueError, match="beta must be positive"):
        noise.make("gdl", beta="-2", a=1)
    with pytest.raises(ValueError, match="parameter beta is required"):
        noise.make("gdl", a=1)


def test_cli_noises_lists_them():
    r = _cli("noises")
    assert r.returncode == 0 and "gdl:" in r.stdout and "--beta" in r.stdout and "integer valued" in r.stdout


def test_cli_epsilon_and_density():
    r = _cli("epsilon", "--noise", "gdl", "--beta", "0.5", "--a", "0.7", "--sensitivity", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert str(out["epsilon"]).startswith("3.2103952518")
    r = _cli("density", "--noise", "dlap", "--a", "1", "0", "1")
    assert r.returncode == 0 and r.stdout.split()[1].startswith("0.46211715726")     # tanh(1/2)


def test_cli_account():
    r = _cli("account", "--noise", "gdl", "--beta", "2", "--a", "1", "--sensitivity", "2", "--epsilon", "1.5")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("delta")


@pytest.mark.parametrize("args,msg", [
    (("epsilon", "--noise", "gdl", "--beta", "0.5", "--a", "-1"), "a must be positive"),
    (("epsilon", "--noise", "gdl", "--beta", "0.5", "--a", "1", "--sensitivity", "1.5"), "--sensitivity must be an integer"),
])
def test_cli_bad_input_exit_2(args, msg):
    r = _cli(*args)
    assert r.returncode == 2 and msg in r.stderr and "Traceback" not in r.stderr


def test_a_point_is_read_exactly_whatever_its_type():
    # an mpf point, a string and a Fraction name the same x: the cdf sees the same floor (a negative mpf once lost its
    # sign: mpmath's man_exp gives the mantissa without it)
    from fractions import Fraction

    from mpmath import mp

    from arete_proofs.distributions import dlap

    for x in ("-2.5", "-3", "0.5"):
        want = dlap.cdf(x, 1, digits=20)
        for same in (mp.mpf(x), Fraction(x), float(x)):
            assert dlap.cdf(same, 1, digits=20) == want, (x, same)
