"""The independent checker's lattice_gauss kind: its arithmetic against independent methods, its certificates
against the library's own cover (certified.combs_gauss), and tampered certificates refused.

Tampers are built here, not with the checker's helpers: the digest is recomputed with hashlib, so that each refusal
comes from the mathematics (one test leaves the digest stale).
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from fractions import Fraction as Q

import numpy as np
import pytest

pytest.importorskip("flint")

from arete_proofs.check import _comb, _cover, _iv, check_document  # noqa: E402
from arete_proofs.check import lattice_gauss as LG  # noqa: E402


def _seal(doc):
    """The digest, computed independently of the checker."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    doc["digest"] = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return doc


@pytest.fixture(scope="module")
def small():
    """DLap(3) + 2 DLap(3) on the lattice h = 1/2, smoothed by N(0, 0.2^2): its certificate, written once."""
    from arete_proofs.certified.gauss_certificate import lattice_h, write_lattice_gauss

    return write_lattice_gauss("3", 2, "1/5", lattice_h(2), 1, tol="1e-6")


@pytest.fixture(scope="module")
def top():
    """A top-rate row: MSDLap(4.2, 5) with the top scale at rate 3.9, h = 1/5, sigma = 0.09."""
    from arete_proofs.certified.gauss_certificate import lattice_h, write_lattice_gauss

    return write_lattice_gauss("4.2", 5, "0.09", lattice_h(5), 1, a_top="3.9", tol="1e-6")


# -- arithmetic -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("x", [1e-300, 2.2250738585072014e-308, 0.5, 0.7071067811865476, 0.70710678118654746,
                               1.0, 1.0000000000000002, 1.4142135623730951, 3.0, 10.0, 1e300, 1.7976931348623157e308])
def test_log_encloses_the_exact_logarithm(x):
    from mpmath import mp, mpf

    lo, hi = _iv.log(np.array([x]), np.array([x]))
    with mp.workdps(60):
        exact = mp.log(mpf(x))
        assert mpf(float(lo[0])) <= exact <= mpf(float(hi[0]))
    assert hi[0] - lo[0] <= 4e-15 * max(1.0, abs(float(exact)))          # tight: a few ulps of ln 2 |e| + |ln m|


def test_a_shortened_log_series_is_caught(monkeypatch):
    """With too few series terms the enclosure misses ln x (so the test above can fail)."""
    monkeypatch.setattr(_iv, "_K", 1)
    lo, hi = _iv.log(np.array([1.4]), np.array([1.4]))
    assert not (lo[0] <= math.log(1.4) <= hi[0])


def test_interval_operations_enclose():
    a, b = (np.array([0.1]), np.array([0.1])), (np.array([-0.3]), np.array([0.7]))
    for op, f in ((_iv.add, lambda x, y: x + y), (_iv.sub, lambda x, y: x - y), (_iv.mul, lambda x, y: x * y)):
        lo, hi = op(a, b)
        for y in (Q(-3, 10), Q(7, 10), Q(0)):
            v = f(Q(1, 10), y)
            assert Q(float(lo[0])) <= v <= Q(float(hi[0]))


@pytest.mark.parametrize("w, a", [([1, 2], ["2", "2"]), ([1, 2, 3, 4, 5], ["3", "3", "3", "3", "2.5"]),
                                  ([1], ["1.5"])])
def test_comb_table_against_the_partial_fractions(w, a):
    """q_k = p_k e^{lambda k} from the positive recurrences against distributions.comb.comb_pmf (mpmath, 30 digits)."""
    from mpmath import mp

    from arete_proofs.distributions.comb import comb_pmf

    lam = min(Q(x) / c for x, c in zip(a, w))
    gap = min((Q(x) / c for x, c in zip(a, w) if Q(x) / c != lam), default=lam + 1) - lam
    t = _comb.table(w, [Q(x) for x in a], 120, theta=gap / 2 if len(w) > 1 else Q(0))
    for k in (0, 1, 5, 37, 120, -3):
        ref = comb_pmf(abs(k), w, a, digits=30) * mp.exp(mp.mpf(lam.numerator) / lam.denominator * k)
        lo, hi = t.q(k)
        assert lo <= ref <= hi and hi - lo <= 1e-9 * float(ref) + 1e-280
    if len(w) > 1:     # a wrong rate moves q_k out of the enclosure
        t2 = _comb.table(w, [Q(x) * Q(101, 100) for x in a], 120, theta=gap / 2)
        ref = comb_pmf(37, w, a, digits=30) * mp.exp(mp.mpf(lam.numerator) / lam.denominator * 37)
        lo, hi = t2.q(37)
        assert not lo <= ref <= hi


def test_grid_cells_contain_the_direct_ball_values(small):
    """Each cell's G(c) interval (matrix products in float intervals) contains G(c) evaluated directly in arb."""
    P, D, C = LG.parse(small)
    win, lim, t, U = LG.laws(P, D, C)
    (G0, G1, G2, _), c = win.grid(16, -3, 5)
    from arete_proofs.check._arb import prec

    qb = lambda k: LG._qball(*(float(z[0]) for z in win.qfun(np.array([k]))))
    with prec(128):
        for i in (0, 17, 40, 63, 100, 127):
            g = LG._G(win, qb, Q(float(c[i])))
            assert G0[0][i] <= float(g.lower()) and float(g.upper()) <= G0[1][i]
            assert G0[1][i] - G0[0][i] < 1e-9


def test_a_flipped_kernel_is_caught(small, monkeypatch):
    """The same comparison fails when the convolution runs the wrong way (a bug this test was written after)."""
    P, D, C = LG.parse(small)
    win, lim, t, U = LG.laws(P, D, C)
    K, Kr = win.kernel(16)
    win._kern[16] = (K[:, :, ::-1].copy(), Kr[:, :, ::-1].copy())
    (G0, _, _, _), c = win.grid(16, -3, 5)
    from arete_proofs.check._arb import prec

    qb = lambda k: LG._qball(*(float(z[0]) for z in win.qfun(np.array([k]))))
    with prec(128):
        g = LG._G(win, qb, Q(float(c[40])))
    assert not (G0[0][40] <= float(g.lower()) and float(g.upper()) <= G0[1][40])


# -- certificates ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", ["small", "top"])
def test_written_certificates_check_and_agree_with_the_library_cover(which, small, top):
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss

    doc = {"small": small, "top": top}[which]
    r = check_document(doc)
    assert r["verdict"] == "checked", r["reason"]
    p = doc["params"]
    old = certify_lattice_gauss(p["a"], p["m"], p["sigma"], p["h"], 1, tol="1e-7", a_top=p.get("a_top"))
    assert r["lower"] <= old.upper and old.lower <= r["upper"]          # the two enclosures of eps* overlap
    assert r["upper"] - r["lower"] < 2e-6


def test_objectives_agree_with_the_noise_family(top):
    from arete_proofs import noise

    p = top["params"]
    z = noise.make("lattice_gauss_top", a=p["a"], m=p["m"], sigma=p["sigma"], h=p["h"], a_top=p["a_top"])
    r = check_document(top)
    lo, hi = r["objectives"]["mean_abs"]
    assert lo <= float(z.mean_abs(digits=15)) <= hi and hi - lo < 1e-9
    lo, hi = r["objectives"]["variance"]
    assert lo <= float(z.var(digits=15)) <= hi


def _tampered(doc, edit):
    d = copy.deepcopy(doc)
    edit(d)
    return _seal(d)


TAMPERS = {
    "lower narrowed above the true value": (lambda d: d["claim"].update(lower=str(Q(d["claim"]["upper"]) + Q(1, 10 ** 9))),
                                            "claimed lower"),
    "claimed upper lowered": (lambda d: d["claim"].update(upper=str(Q(d["claim"]["lower"]) - Q(1, 10 ** 7))),
                              "above the claimed upper"),
    "a zone deleted": (lambda d: d["cover"]["zones"].pop(), "above the claimed upper"),
    "sigma changed": (lambda d: d["params"].update(sigma="19/100"), "claimed"),
    "epsilon below upper": (lambda d: d["claim"].update(epsilon=str(Q(d["claim"]["lower"]))), "certified epsilon"),
    "window shortened": (lambda d: d["cover"].update(n0=d["cover"]["J"]), "tail ratio"),
    "objective narrowed": (lambda d: d["objectives"].update(variance=[d["objectives"]["variance"][1]] * 2),
                           "objectives.variance"),
    "format version changed": (lambda d: d.update(format="arete-certificate/2"), "unknown format"),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_certificates_are_refused(name, small):
    edit, reason = TAMPERS[name]
    r = check_document(_tampered(small, edit))
    assert r["verdict"] == "refused" and reason in r["reason"], r


def test_an_edit_without_a_new_digest_is_refused(small):
    d = copy.deepcopy(small)
    d["claim"]["upper"] = "4"
    r = check_document(d)
    assert r["verdict"] == "refused" and "digest" in r["reason"]


def test_a_malformed_certificate_is_refused_with_the_field(small):
    d = _tampered(small, lambda d: d["params"].update(m=0))
    assert "params.m" in check_document(d)["reason"]
    d = _tampered(small, lambda d: d["cover"].update(N=12))
    assert "power of two" in check_document(d)["reason"]
    d = _tampered(small, lambda d: d["params"].pop("sigma"))
    assert "malformed" in check_document(d)["reason"]


def test_witness_values_are_even_in_the_window(small):
    """G(-x) = G(x) for the window law (f is even): the ball at -x is the one at x, narrow (F is tiny at x < 0, and
    the truncation's absolute bound would swamp it there)."""
    P, D, C = LG.parse(small)
    win, lim, t, U = LG.laws(P, D, C)
    from arete_proofs.check._arb import prec

    qb = lambda k: LG._qball(*(float(z[0]) for z in win.qfun(np.array([k]))))
    with prec(128):
        a, b = LG._G(win, qb, Q(-37, 4)), LG._G(win, qb, Q(37, 4))
    assert a.overlaps(b) and float(a.rad()) < 1e-9


def test_up_and_dn_move_at_least_one_gap():
    """Fact 1's cheap outward step: up(x) >= nextafter(x, inf) and dn(x) <= nextafter(x, -inf) for every kind of
    float (normal, subnormal, powers of two, both signs, the extremes)."""
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.standard_normal(20000) * 10.0 ** rng.integers(-320, 300, 20000),
                        2.0 ** np.arange(-1074, 1023), -(2.0 ** np.arange(-1074, 1023)),
                        [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308]])
    x = x[np.isfinite(x)]
    with np.errstate(over="ignore"):
        u, d = _iv.up(x), _iv.dn(x)
        x = x[np.isfinite(u) & np.isfinite(d)]
        u, d = _iv.up(x), _iv.dn(x)
    assert np.all(u >= np.nextafter(x, np.inf)) and np.all(d <= np.nextafter(x, -np.inf))
    far = x
    for _ in range(8):
        far = np.nextafter(far, np.inf)
    assert np.all(u <= far)                    # and not much more: at most eight gaps
