"""Certified (ball-arithmetic) density and tight-epsilon bound with a Gaussian part (issue 17).

Independent checks: the balls of :mod:`arete_proofs.certified.gauss` against the mpmath engine
:func:`arete_proofs.distributions.arete_gauss.pdf` at 30 digits (tanh-sinh quadrature of the
mixture integral with the spike substituted away, not ball arithmetic); the certified bound against
the numeric tight epsilon of :mod:`arete_proofs.privacy.tight_gauss`; the Bessel curvature constant
against finite differences of :mod:`arete_proofs.distributions.gamma_gamma`.  Each check is shown to
fail on a deliberately broken variant.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from mpmath import mp

flint = pytest.importorskip("flint")

from flint import arb  # noqa: E402

from arete_proofs.certified import gauss  # noqa: E402
from _cli import run  # noqa: E402  (tests/_cli.py)
from arete_proofs.distributions import arete_gauss, gamma_gamma  # noqa: E402

#: issue 17's eps = 8 optimum of X1 - X2 + N(0, sigma^2) (lam = 0)
OPT8 = ("0.014727", "0.85419", 0, "0.027054")
#: its tight epsilon: tight_gauss.tight_epsilon(*OPT8, digits=10) gives epsilon 7.99994740210436
#: with the certified bracket [7.99994740210436, 7.99994740210444] (t* = 0.001621657995; 56 s)
OPT8_LOWER, OPT8_UPPER = 7.99994740210436, 7.99994740210444
#: a moderate set: tight_gauss.tight_epsilon("0.25", "0.5", 0, "0.1", digits=10) gives epsilon
#: 4.18515682333227 with the certified bracket [4.18515682333227, 4.1851568233383] (t* = 0.04225918855; 38 s)
MODERATE = ("0.25", "0.5", 0, "0.1")
MOD_LOWER, MOD_UPPER = 4.18515682333227, 4.1851568233383
#: the coarse cover of the broken-variant test: the maximiser t* = 0.00162 is 3.8e-4 from 0.002
COARSE = [0, "0.001", "0.002", "0.004", "0.008", "0.016", "0.05", "0.1"]


# ------------------------------------------------------------------------------------ the density
@pytest.mark.parametrize("t", ["0", "1e-6", "0.0016", "0.3", "1.0016"])
def test_ball_contains_engine_value_small_alpha(t):
    b = gauss.CertifiedGaussDensity(*OPT8).pdf(t)
    exact = arete_gauss.pdf(t, *OPT8, digits=30)
    assert b.contains(exact)
    assert b.rad() < 1e-12 * b.mid()


@pytest.mark.parametrize("params, t", [(("0.3", 1, "0.2", "0.1"), "0.5"), (("0.6", 2, "0.5", "0.3"), "0"),
                                       (MODERATE, "1.04")])
def test_ball_contains_engine_value(params, t):
    b = gauss.pdf_ball(t, *params, digits=10)
    assert b.contains(arete_gauss.pdf(t, *params, digits=30))


def test_ball_is_symmetric_and_rejects_bad_parameters():
    D = gauss.CertifiedGaussDensity(*OPT8)
    assert D.pdf("-0.3").overlaps(D.pdf("0.3"))
    with pytest.raises(ValueError, match="alpha"):
        gauss.CertifiedGaussDensity(1, 1, 0, "0.1")
    with pytest.raises(ValueError, match="sigma"):
        gauss.CertifiedGaussDensity("0.5", 1, 0, 0)
    with pytest.raises(ValueError, match="lam"):
        gauss.CertifiedGaussDensity("0.5", 1, "-1", "0.1")


def test_broken_density_is_caught(monkeypatch):
    # dropping the second-order term of the spike's expansion (v'' / b^2) gives a ball that misses
    # the engine's value at t = t*: the containment test above can fail
    exact = arete_gauss.pdf("0.0016", *OPT8, digits=30)
    good = gauss.CertifiedGaussDensity._v

    def v_without_curvature(self, t):
        v, _ = good(self, t)
        return v, 0 * v

    monkeypatch.setattr(gauss.CertifiedGaussDensity, "_v", v_without_curvature)
    b = gauss.CertifiedGaussDensity(*OPT8).pdf("0.0016")
    assert not b.contains(exact)


# ------------------------------------------------------------------------------------ the pieces of the bound
def test_bessel_curvature_against_finite_differences():
    # K = g''(x0)/g(x0) (tight_gauss item 3) from arb's bessel_k vs a central difference of the
    # engine's Gamma-difference density; a huge f(u2) switches the Gaussian-tail term off
    a, th, sg = OPT8[0], OPT8[1], OPT8[3]
    k = gauss.curvature_bound(1, arb(10) ** 6, a, th, 0, sg, prec=64)
    with mp.workdps(40):
        x, h = mp.mpf("0.5"), mp.mpf("1e-8")
        g = [gamma_gamma.pdf(y, a, th, digits=35) for y in (x - h, x, x + h)]
        K = (g[0] - 2 * g[1] + g[2]) / h**2 / g[1]
        expected = K / (1 - K * mp.mpf(sg) ** 2)
    assert abs(float(k.mid()) - float(expected)) < 1e-6 * float(expected)
    # item 3 needs u1/2 >= 2 sigma
    assert not gauss.curvature_bound("0.1", arb(0), a, th, 0, sg).is_finite()


def test_tail_bound_is_above_L():
    T = "0.4"
    tb = gauss.tail_bound(T, *OPT8)
    for t in ("0.4", "0.8", "3"):
        f = arete_gauss.pdf([t, mp.mpf(t) + 1], *OPT8, digits=15)
        assert mp.log(f[0] / f[1]) < float(tb.upper())
    assert not gauss.tail_bound("0.001", *OPT8).is_finite()   # B still increases this close to 0


# ------------------------------------------------------------------------------------ the certified bound
def test_certified_bound_brackets_tight_epsilon_small_alpha():
    r = gauss.certify_epsilon_gauss(*OPT8, tol="1e-4", numeric=False)
    assert r.method == "cover" and r.lower <= OPT8_LOWER and r.upper >= OPT8_UPPER
    assert r.upper - OPT8_UPPER < 1e-4 and r.cover[0] == 0 and r.T == r.cover[-1]


def test_certified_bound_moderate_set():
    r = gauss.certify_epsilon_gauss(*MODERATE, tol="5e-2", numeric=False)
    assert r.lower <= MOD_LOWER and MOD_UPPER <= r.upper <= MOD_UPPER + 5e-2


def test_given_cover_and_broken_curvature_is_caught(monkeypatch):
    # a coarse cover that misses the maximiser: the curvature term is what lifts the bound above
    # the maximum between the cover points
    r = gauss.certify_epsilon_gauss(*OPT8, tol=1, numeric=False, cover=COARSE)
    assert r.upper >= OPT8_UPPER
    good = gauss._cell_upper
    monkeypatch.setattr(gauss, "_cell_upper", lambda a, b, la, lb, lA, lB, M: good(a, b, la, lb, lA, lB, arb(0)))
    broken = gauss.certify_epsilon_gauss(*OPT8, tol=1, numeric=False, cover=COARSE)
    assert broken.upper < OPT8_LOWER - 1e-5          # a "bound" below the true tight epsilon: caught


def test_closed_case_and_bad_input():
    r = gauss.certify_epsilon_gauss("0.3", 1, "1.25", "0.1", 2, numeric=False, target=2)
    assert r.upper == 1.6 and r.method == "lipschitz" and r.meets_target
    for kw, name in (({"alpha": 0}, "alpha"), ({"sigma": "-0.1"}, "sigma"), ({"lam": -1}, "lam")):
        p = dict(alpha="0.3", theta=1, lam=0, sigma="0.1") | kw
        with pytest.raises(ValueError, match=name):
            gauss.certify_epsilon_gauss(**p, numeric=False)


# ------------------------------------------------------------------------------------ arete certify --sigma
CLI8 = ["--alpha", "0.014727", "--theta", "0.85419", "--lam", "0", "--sigma", "0.027054", "--quiet"]


def test_cli_target_met_and_not_met(capsys):
    code, out, err = run(capsys, "certify", *CLI8, "--no-numeric", "--target", "8")
    assert code == 0 and "target           8.0: met" in out, err
    bound = float(out.split("epsilon* <=")[1].split()[0])
    assert OPT8_UPPER <= bound <= 8
    # 7.9999 is below the tight epsilon: no certificate can meet it
    code, out, err = run(capsys, "certify", *CLI8, "--no-numeric", "--target", "7.9999", "--tol", "1e-2")
    assert code == 1 and "NOT met" in out


def test_cli_json_and_numeric_comparison(capsys, monkeypatch):
    from arete_proofs.cli import certify
    from arete_proofs.privacy import tight, tight_gauss

    def fake(*args, digits, **kw):   # the 56 s engine run replaced by its recorded value
        assert args[3] == Fraction(27054, 10**6) and digits == certify.GAUSS_NUMERIC_DIGITS
        v = mp.mpf("7.99994740210436")
        return tight.TightEpsilon(epsilon=v, t_star=mp.mpf("0.0016"), digits=digits, evaluations=0,
                                  tail_limit=v, lower_bound=v, upper_bound=v, attained=True, method="fake")

    monkeypatch.setattr(tight_gauss, "tight_epsilon", fake)
    code, out, err = run(capsys, "certify", *CLI8, "--json", "--tol", "1e-2")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["sigma"] == "0.027054" and doc["exact_parameters"]["sigma"] == "13527/500000"
    assert doc["numeric"] == OPT8_LOWER and doc["numeric_digits"] == 8
    assert doc["lower"] <= doc["numeric"] <= doc["upper"] and 0 <= doc["gap"] < 1e-2
    code, out, err = run(capsys, "certify", *CLI8, "--tol", "1e-2")
    assert "numeric tight    epsilon* =  7.9999474" in out


@pytest.mark.parametrize("argv, name", [
    (["--alpha", "0.5", "--theta", "1", "--lam", "0", "--sigma", "-1"], "--sigma"),
    (["--alpha", "-1", "--theta", "1", "--lam", "0", "--sigma", "0.1"], "alpha"),
    (["--alpha", "0.5", "--theta", "1", "--lam", "0", "--sigma", "0"], "--lam and --sigma"),
])
def test_cli_bad_input_exit_2(capsys, argv, name):
    code, out, err = run(capsys, "certify", *argv)
    assert code == 2 and out == "" and name in err and len(err.splitlines()) == 1


def test_alpha_at_least_1_is_the_closed_form(capsys):
    # tight_gauss item 7: f_Z is log-concave, eps* = Delta/max(theta, lam); a wrong closed form
    # (Delta/theta with lam > theta) would claim 2, above the true value 1
    code, out, _ = run(capsys, "certify", "--alpha", "1.5", "--theta", "0.5", "--lam", "1", "--sigma", "0.1",
                       "--json", "--no-numeric")
    doc = json.loads(out)
    assert code == 0 and doc["upper"] == 1.0 and doc["method"] == "log-concave"
    assert gauss.certify_epsilon_gauss("1.5", "0.5", 1, "0.1", numeric=False).upper != 2.0
