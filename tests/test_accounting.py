"""Exact (eps, delta)-DP of one release: arete_proofs.privacy.accounting, and `arete account` at K = 1.

The independent method is scipy's adaptive quadrature of (f_A(t) - e^eps f_A(t + Delta))_+
on the float64 densities of arete_proofs.distributions.fast (no root finding, no CDF).
"""

import json

import numpy as np
import pytest
from mpmath import mp
from scipy.integrate import quad

from _cli import run  # tests/_cli.py
from arete_proofs.distributions import fast
from arete_proofs.noise import make
from arete_proofs.privacy import accounting as acc
from arete_proofs.privacy.tight import FIGURE_4

P = ("0.3", 1, "0.5")
F6 = FIGURE_4[6]


def N(alpha, theta, lam):
    """The Arete noise of a parameter tuple (the accounting takes noise objects)."""
    return make("arete", alpha=alpha, theta=theta, lam=lam)


def _quad_delta(params, s, eps, breaks):
    fa = tuple(float(x) for x in params)
    f = lambda t: max(0.0, fast.pdf(t, *fa) - np.exp(eps) * fast.pdf(t + s, *fa))  # noqa: E731
    pts = sorted({-s / 2, *breaks, 200.0})
    return sum(quad(f, lo, hi, limit=400, epsabs=1e-16, epsrel=1e-11)[0] for lo, hi in zip(pts, pts[1:]))


@pytest.mark.parametrize("params, eps", [(P, 0.5), (P, 1.05), (F6, 2), (F6, 5.99)])
def test_hockey_stick_against_quadrature(params, eps):
    r = acc.hockey_stick_details(N(*params), 1, eps, digits=10)
    breaks = [float(x) for iv in r.intervals for x in iv if not mp.isinf(x)]
    ref = _quad_delta(params, 1.0, eps, breaks)
    assert r.delta > 0 and abs(float(r.delta) / ref - 1) < 1e-9
    # a broken variant (the part of A in (-Delta/2, 0) dropped) is caught by the same check
    broken = sum((mp.mpf(fast.sf(max(float(a), 0.0), *map(float, params)))
                  - (0 if mp.isinf(b) else fast.sf(float(b), *map(float, params))))
                 - mp.exp(eps) * (fast.sf(max(float(a), 0.0) + 1, *map(float, params))
                                  - (0 if mp.isinf(b) else fast.sf(float(b) + 1, *map(float, params))))
                 for a, b in r.intervals)
    assert abs(float(broken) / ref - 1) > 1e-6


def test_supremum_over_shifts_is_at_the_sensitivity():
    # proof (a)-(c) of the module docstring; delta_s(eps) nondecreasing in s
    vals = [acc.hockey_stick(N(*P), s, "0.1", digits=8) for s in ("0.25", "0.5", "0.75", "1")]
    assert all(a < b for a, b in zip(vals, vals[1:]))


def test_zero_at_and_above_the_tight_epsilon():
    r = acc.hockey_stick_details(N(*F6), 1, 5, digits=8)
    eps_star = r.tight.epsilon
    assert acc.hockey_stick(N(*F6), 1, eps_star, digits=8) == 0
    assert acc.hockey_stick(N(*F6), 1, eps_star + 1, digits=8) == 0
    assert acc.hockey_stick(N(*F6), 1, 5.9, digits=8) > 0


def test_eps_zero_is_total_variation():
    from arete_proofs.distributions import arete

    d = acc.hockey_stick(N(*P), 1, 0, digits=12)
    tv = arete.cdf("0.5", *P, digits=14) - arete.cdf("-0.5", *P, digits=14)
    assert mp.almosteq(d, tv, 1e-12)


def test_inverse():
    d = acc.hockey_stick(N(*P), 1, "0.8", digits=8)
    e = acc.epsilon_for_delta(N(*P), 1, d, digits=8)
    assert mp.almosteq(e, mp.mpf("0.8"), 1e-7)
    assert acc.epsilon_for_delta(N(*P), 1, "0.99", digits=8) == 0  # delta above the total variation


@pytest.mark.parametrize("call, name", [
    (lambda: acc.hockey_stick(N(*P), 1, -1), "eps"),
    (lambda: acc.hockey_stick(N(*P), 1, "nan"), "eps"),
    (lambda: acc.hockey_stick(N(*P), 0, 1), "sensitivity"),
    (lambda: acc.hockey_stick(N("-1", 1, 1), 1, 1), "alpha"),
    (lambda: acc.epsilon_for_delta(N(*P), 1, 0), "delta"),
    (lambda: acc.epsilon_for_delta(N(*P), 1, 1), "delta"),
])
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_cli_account_exact(capsys):
    code, out, err = run(capsys, "account", "--alpha", "0.3", "--theta", "1", "--lam", "0.5", "--epsilon", "0.9",
                         "--digits", "8")
    assert code == 0, err
    ref = acc.hockey_stick(N(*P), 1, "0.9", digits=8)
    assert out.split() == ["delta", mp.nstr(ref, 8, strip_zeros=False)]
    code, out, err = run(capsys, "account", "--alpha", "0.3", "--theta", "1", "--lam", "0.5", "--epsilon", "0.9",
                         "--digits", "8", "--json")
    doc = json.loads(out)
    assert doc["method"] == "exact" and doc["compose"] == 1 and doc["epsilon"] == "0.9"
    assert doc["delta"] == mp.nstr(ref, 8, strip_zeros=False) and doc["sensitivity"] == "1"


@pytest.mark.parametrize("argv, message", [
    (["--epsilon", "-1"], "eps"), (["--delta", "2"], "delta"), (["--delta", "0"], "delta"),
    (["--delta", "0.1", "--compose", "0"], "--compose"), (["--epsilon", "1", "--delta", "0.1"], "not allowed"),
    (["--epsilon", "1", "--sensitivity", "0"], "sensitivity"),
])
def test_cli_account_bad_input(capsys, argv, message):
    code, out, err = run(capsys, "account", "--alpha", "0.3", "--theta", "1", "--lam", "0.5", *argv)
    assert code == 2 and out == "" and err.startswith("arete: error:") and message in err
    assert len(err.splitlines()) == 1
