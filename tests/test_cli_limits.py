"""Every lattice family through the commands that hang or leak an internal message on a hostile input:
a size beyond the cost model, a far point, an option below its range.  Each refusal is one line on
stderr naming the option given, exit status 2; a far point is answered exactly."""

from __future__ import annotations

import pytest
from mpmath import mp

from tests._cli import run

pytest.importorskip("flint")

LATTICE = {
    "msdlap": ["--a", "1"],
    "lattice_laplace": ["--a", "1", "--b", "0.16", "--h", "0.33"],
    "lattice_gauss": ["--a", "1", "--sigma", "0.3", "--h", "0.33"],
    "lattice_gauss_top": ["--a", "1", "--a-top", "1", "--sigma", "0.3", "--h", "0.33"],
    "lattice_skellam": ["--a", "1", "--mu", "1", "--h", "1"],
}


def _one_line(err, *words):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


@pytest.mark.parametrize("family", sorted(LATTICE))
@pytest.mark.parametrize("command,m", [("density", "1000000"), ("epsilon", "1000000000"),
                                       ("certify", "1000000000")])
def test_size_beyond_cost_model_refused(capsys, family, command, m):
    argv = [command, "--noise", family, *LATTICE[family], "--m", m]
    argv += ["0"] if command == "density" else (["--quiet", "--no-numeric"] if command == "certify" else [])
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    _one_line(err, f"--m {m}", "at most --m")


def test_library_refuses_size_naming_parameter():
    from arete_proofs.noise import TooCostly, make

    z = make("lattice_gauss", a=1, m=10**9, sigma="0.3", h="0.1")
    for call in (lambda: z.pdf(0), lambda: z.tight_epsilon(1), lambda: z.certify(1, numeric=False)):
        with pytest.raises(TooCostly, match=r"^m = 1000000000 is beyond .*at most m = \d+"):
            call()
    assert issubclass(TooCostly, ValueError)


@pytest.mark.parametrize("family", ["msdlap", "lattice_gauss",
                                    pytest.param("lattice_laplace", marks=pytest.mark.slow)])   # 10 s: its cells
def test_far_point_answered(capsys, family):
    code, out, err = run(capsys, "density", "--noise", family, *LATTICE[family], "--m", "3", "1e300")
    assert code == 0 and all("still working" in line for line in err.splitlines()), err   # a heartbeat at most
    assert out.split()[0] == "1e300" and "e-" in out.split()[1]


def test_far_point_exact_integer():
    """A far integer point is the integer it names: parsed at 15 digits it moved by 10^285 and the value was wrong."""
    from arete_proofs.noise import make

    z = make("msdlap", a=1, m=3)
    with mp.workdps(400):
        # the tail of MSDLap(1, 3): p_k = C_{k mod 3} e^{-k/3} with C from the dominant pole (next pole: e^{-k/2})
        ratio = z.pdf("1e300", digits=15) / z.pdf(str(10 ** 300 - 3), digits=15)
        assert abs(ratio - mp.exp(-1)) < mp.mpf("1e-12")


def test_far_point_beyond_precision_refused(capsys):
    code, out, err = run(capsys, "density", "--noise", "lattice_gauss", *LATTICE["lattice_gauss"], "--m", "3",
                         "1e2999")
    assert code == 2
    _one_line(err, "1e2999", "at most 1000 digits")


@pytest.mark.parametrize("option", ["--eps", "--from"])
def test_floor_tiny_eps_names_option(capsys, option):
    code, out, err = run(capsys, "floor", option, "1e-300")
    assert code == 2
    line = _one_line(err, option, "1e-300", "[1e-20, 700)")
    assert "man_exp" not in line


def test_optimize_lattice_gauss_tiny_epsilon_names_option(capsys):
    code, out, err = run(capsys, "optimize", "--noise", "lattice_gauss", "--epsilon", "0.001")
    assert code == 2
    line = _one_line(err, "--epsilon", "0.001")
    assert "sigma=" not in line


@pytest.mark.parametrize("point", ["1e300", "12345678901234567891"])
def test_far_integer_point_of_dlap_is_its_mass(capsys, point):
    # p(k) = tanh(a/2) e^{-a|k|} (the DLap pmf, in closed form at the exact integer k); the point read at a working
    # precision was no integer, and the CLI printed 0.0
    from fractions import Fraction

    from mpmath import mp

    code, out, err = run(capsys, "density", "--noise", "dlap", "--a", "1", "--digits", "12", point)
    assert code == 0, err
    k = int(Fraction(point)) if "e" not in point else 10 ** 300
    with mp.workdps(len(str(k)) + 40):      # e^{-k} to 40 digits needs log10(k) more
        ref = mp.tanh(mp.mpf(1) / 2) * mp.exp(-mp.mpf(k))
        v = mp.mpf(out.split()[-1])
        assert v > 0 and abs(v / ref - 1) < 1e-10, (v, ref)     # relative: the value is far below any abs tolerance
