"""Certified tight epsilon of MSDLap combs and of lattice_laplace (arete_proofs.certified.combs).

Each certified interval is checked against the INDEPENDENT mpmath engines
(privacy.tight_discrete, privacy.tight_lattice: a different arithmetic and their own
window/bracket), against Theorem 16 (eps* = a for MSDLap(a, m) at Delta = m), and
deliberately broken variants are refuted: the single shift +Delta, a window without
the tail limit, an edited certificate.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from mpmath import mp

pytest.importorskip("flint")

from arete_proofs.certified.combs import certify_comb, certify_msdlap, check  # noqa: E402
from arete_proofs.certified.combs_lattice import certify_lattice_laplace  # noqa: E402
from arete_proofs.distributions.comb import comb_pmf, msdlap_components, tail_constants  # noqa: E402
from arete_proofs.noise import make  # noqa: E402
from arete_proofs.privacy.tight_discrete import tight_epsilon_comb, tight_epsilon_msdlap  # noqa: E402
from arete_proofs.privacy.tight_lattice import tight_epsilon_lattice_laplace  # noqa: E402

MSDLAP = [("2", 3, 3), ("2", 3, 1), ("2", 4, 2), ("1.5", 2, 2), ("1", 4, 2), ("3", 4, 3), ("0.7", 5, 5)]


@pytest.mark.parametrize("a,m,D", MSDLAP)
def test_msdlap_interval_contains_the_engine_value(a, m, D):
    r = certify_msdlap(a, m, D, digits=12)
    e = tight_epsilon_msdlap(a, m, D, digits=20)        # the mpmath engine (partial fractions + bracket)
    assert r.contains(e.epsilon)
    assert Fraction(r.hi) - Fraction(r.lo) < Fraction(1, 10 ** 12)
    assert check(r.to_json()).ok                         # every certificate re-checks (an attained window too)
    # the engine's own bracket and the certified interval overlap
    assert Fraction(r.lo) <= Fraction(mp.nstr(e.upper_bound, 25)) + Fraction(1, 10 ** 20)


@pytest.mark.parametrize("a,m", [("2", 3), ("1.5", 2), ("0.7", 5), ("5", 8), ("1", 1)])
def test_theorem16_eps_equals_a_is_in_the_interval(a, m):
    r = certify_msdlap(a, m, m, digits=14)
    assert r.contains(a)
    assert r.candidates[0][0] == "tail" or m == 1    # the supremum is the tail limit (Theorem 16 at equality)


def test_theorem16_strict_at_a_larger_a_is_refuted():
    """A broken Theorem 16 (eps* = a + 1e-10) is outside the certified interval."""
    r = certify_msdlap("2", 3, 3, digits=12)
    assert not r.contains(Fraction(2) + Fraction(1, 10 ** 10))
    assert not r.contains(Fraction(2) - Fraction(1, 10 ** 10))


def _single_shift(w, r, D, K=300):
    """The broken variant: sup_k ln p_k - ln p_{k+D} (only the shift +Delta), window and tail limit."""
    from arete_proofs.distributions.comb import dominant

    with mp.workdps(30):
        lp = {k: mp.log(comb_pmf(k, w, r, digits=25)) for k in range(-K - D, K + D + 1)}
        win = max(lp[k] - lp[k + D] for k in range(-K - D, K + 1))
        C = tail_constants(w, r, digits=25)
        _, ws, lam = dominant(w, r, digits=25)
        lnC = [mp.log(c) for c in C]
        tail = max(lnC[x] - lnC[(x + s) % ws] + lam * s for x in range(ws) for s in (D, -D))
        return max(win, tail)


def test_single_shift_is_refuted():
    """A comb on 4Z with a +-1 jitter: the shift 4 costs about 1, the shift 1 about 3 (every shift counts)."""
    w, rt = [1, 4], ["3", "1"]
    r = certify_comb(w, rt, 4, digits=12)
    assert r.contains(tight_epsilon_comb(w, rt, 4, digits=20).epsilon)
    broken = _single_shift(w, rt, 4)
    assert broken < r.lower - 1                           # the certified eps* is far above the +Delta shift
    assert not r.contains(mp.nstr(broken, 25))


def test_msdlap_single_shift_equals_the_certified_value():
    """For MSDLap the largest shift happens to be the worst (measured): consistent with the interval."""
    for a, m, D in [("2", 4, 2), ("2", 5, 3)]:
        r = certify_msdlap(a, m, D, digits=12)
        assert r.contains(mp.nstr(_single_shift(*msdlap_components(a, m), D, K=200), 25))


def test_window_without_tail_limit_is_refuted():
    """Dropping the tail limit: a window of 30 points alone misses eps* = a (Theorem 16)."""
    w, rt = msdlap_components("2", 3)
    with mp.workdps(30):
        lp = [mp.log(comb_pmf(k, w, rt, digits=25)) for k in range(0, 40)]
        W = max(lp[k] - min(lp[abs(j)] for j in range(k - 3, k + 4)) for k in range(0, 31))
    r = certify_msdlap("2", 3, 3, digits=12)
    assert W < r.lower and not r.contains(mp.nstr(W, 25))


def test_dropped_tail_term_eta_is_caught():
    """Certifying with a window K' too short for the digits (a dropped tail correction) is refused by check."""
    r = certify_msdlap("2", 3, 3, digits=12)
    short = certify_comb([1, 2, 3], ["2"] * 3, 3, digits=12, prec=r.prec, theta=r.tail["theta"], K_prime=20)
    assert Fraction(short.hi) - Fraction(short.lo) > Fraction(1, 10 ** 6)   # the honest interval is wide
    doc = short.to_json()
    doc["upper"], doc["tail"]["eta"] = r.hi, r.tail["eta"]                  # claim the long window's bound
    assert not check(doc).ok


def test_comb_matches_engine_with_a_free_comb():
    r = certify_comb([1, 2], ["1", "1"], 1, digits=12)
    assert r.contains(tight_epsilon_comb([1, 2], ["1", "1"], 1, digits=20).epsilon)


LATTICE = [("5", 8, "0.0625", "0.125", 1),      # Theorem 21 at eps = 6, Delta = 1
           ("3", 2, "0.25", "0.5", 1), ("2", 1, "0.25", "1", 1), ("3", 3, "0.2", "0.4", "0.9")]


@pytest.mark.parametrize("a,m,b,h,D", LATTICE)
def test_lattice_laplace_interval_contains_the_engine_value(a, m, b, h, D):
    r = certify_lattice_laplace(a, m, b, h, D, digits=10)
    e = tight_epsilon_lattice_laplace(a, m, b, h, D, digits=14)
    assert r.contains(e.epsilon)
    assert Fraction(r.hi) - Fraction(r.lo) < Fraction(1, 10 ** 10)
    assert check(r.to_json()).ok


def test_theorem21_private_with_room_certified():
    r = certify_lattice_laplace("5", 8, "0.0625", "0.125", 1, digits=12)
    assert r.upper < 6 and 5.32 < r.lower                 # Theorem 21 at eps = 6: exact loss 5.3203...
    assert not r.contains(6)


def test_lattice_single_shift_is_refuted():
    """Only the shift +Delta (the lattice point pairs t = v + Delta) underestimates Theorem 21's loss."""
    from arete_proofs.distributions.lattice import lattice_laplace

    z = lattice_laplace("5", 8, "0.0625", "0.125", digits=20)
    with mp.workdps(30):
        grid = [mp.mpf(i) / 64 for i in range(0, 64 * 40)]
        broken = max(z.logpdf(t) - z.logpdf(t + 1) for t in grid)
    r = certify_lattice_laplace("5", 8, "0.0625", "0.125", 1, digits=10)
    assert broken < r.lower - 1e-3


def test_msdlap_certificate_round_trip_and_edits_fail():
    r = certify_msdlap("2", 3, 3, digits=12)
    assert check(r.to_json()).ok
    edits = {
        "changed eps": lambda d: d.update(epsilon="2.001"),
        "narrowed upper": lambda d: d.update(upper=d["lower"]),
        "cut window K": lambda d: d["window"].update(K=d["window"]["K"] - 2),
        "cut window K'": lambda d: d["window"].update(K_prime=d["window"]["K_prime"] // 2),
        "moved tail constant": lambda d: d["tail"]["C"].__setitem__(1, "0.33 +/- 0"),
        "smaller eta": lambda d: d["tail"].update(eta="1e-30"),
        "other Delta": lambda d: d.update(Delta="2"),
    }
    for name, edit in edits.items():
        doc = r.to_json()
        edit(doc)
        rep = check(doc)
        assert not rep.ok, name
        assert rep.problems, name


def test_lattice_certificate_round_trip_and_edits_fail():
    r = certify_lattice_laplace("3", 2, "0.25", "0.5", 1, digits=10)
    assert check(r.to_json()).ok
    for name, edit in {
        "changed eps": lambda d: d.update(epsilon=str(Fraction(d["upper"]) + 1)),
        "cut window n0": lambda d: d["window"].update(n0=max(1, d["window"]["n0"] // 8)),
        "cut window T": lambda d: d["window"].update(T="1"),
        "moved tail constant": lambda d: d["tail"]["C"].__setitem__(0, "0.5 +/- 0"),
        "other b": lambda d: d["params"].update(b="0.26"),
    }.items():
        doc = r.to_json()
        edit(doc)
        assert not check(doc).ok, name


def test_noise_certify_methods():
    z = make("msdlap", a=2, m=3)
    assert "certify" in z.supports
    r = z.certify(Delta=3, digits=12)
    assert r.lower <= 2 <= r.upper and abs(r.numeric - 2) < 1e-12 and r.gap < 1e-11
    z = make("lattice_laplace", a=5, m=8, b="0.0625", h="0.125")
    r = z.certify(Delta=1, digits=10, target=6)
    assert r.meets_target and r.lower <= r.numeric <= r.upper


@pytest.mark.parametrize("call,match", [
    (lambda: certify_msdlap("-1", 2, 2), "a must be positive"),
    (lambda: certify_msdlap("2", 0, 2), "m must be an integer"),
    (lambda: certify_msdlap("2", 2, "1.5"), "Delta must be an integer"),
    (lambda: certify_msdlap("2", 2, 2, digits=0), "digits"),
    (lambda: certify_lattice_laplace("5", 8, "1", "0.125", 1), "h/b > lambda"),
    (lambda: certify_lattice_laplace("5", 8, "x", "0.125", 1), "b must be"),
])
def test_bad_input_is_a_one_line_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_check_refuses_garbage():
    assert not check({"kind": "comb"}).ok
    assert not check({"kind": "nope", "params": {}, "prec": 1, "digits": 1, "tail": {"theta": "0"}}).ok


#: Certificates at 12 digits, recorded from certify when they were first made (they are deterministic:
#: the same parameters give the same interval to the last digit, and where the supremum is).
RECORDED = [
    ("MSDLap(2, 3)", 3, "1.9999999999999999999", "2.0000000000000008093", "tail"),
    ("MSDLap(1, 12)", 12, "0.9999999999999999999", "1.0000000000000009960", "tail"),
    ("MSDLap(2, 4)", 2, "1.6166262753281410641", "1.6166262753281410642", "window"),
    ("DLap(3) + 4 DLap(1)", 4, "5.6867444566752548987", "5.6867444566752554167", "tail"),
    ("Theorem 21, eps = 6", 1, "5.3203031276697387379", "5.3203031276697397362", "tail"),
    ("Theorem 21, eps = 8", 1, "7.3237221427382025536", "7.3237221427382035505", "tail"),
    ("Theorem 21, eps = 10", 1, "9.3304070845729319860", "9.3304070845729329832", "tail"),
]


def test_recorded_certificates_reproduce():
    """Every recorded certificate is what certify computes now."""
    import re

    from arete_proofs.distributions.lattice import theorem21_parameters

    for name, D, lo, hi, sup in RECORDED:
        if m := re.match(r"MSDLap\((\S+), (\d+)\)", name):
            r = certify_msdlap(m[1], int(m[2]), D, digits=12)
        elif name.startswith("DLap(3)"):
            r = certify_comb([1, 4], ["3", "1"], D, digits=12)
        else:
            r = certify_lattice_laplace(*theorem21_parameters(int(name.split("= ")[1])), D, digits=12)
        assert (r.lo, r.hi, r.candidates[0][0]) == (lo, hi, sup), name


# -- lattice_gauss: the cover (certified.combs_gauss) ------------------------------------------------
@pytest.mark.parametrize("a,m,sigma,h", [("3", 2, "0.2", "0.5"), ("2", 1, "0.3", "1"),
                                         pytest.param("3.5", 3, "0.14", "1/3", marks=pytest.mark.slow)])
def test_lattice_gauss_cover_contains_the_engine_value(a, m, sigma, h):
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss
    from arete_proofs.privacy.tight_lattice import tight_epsilon_lattice_gauss

    r = certify_lattice_gauss(a, m, sigma, h, 1, tol="1e-6")
    e = float(tight_epsilon_lattice_gauss(a, m, sigma, h, 1, digits=12).epsilon)   # numerical (grid + golden)
    assert r.lower <= e <= r.upper and r.upper - r.lower < 1e-6


@pytest.mark.slow
def test_lattice_gauss_cover_against_a_dense_grid():
    """Independent: mpmath f on a grid of step 1/800 over t in [8, 9] (one period of the limit law, where f is
    within 1e-8 of it), min over the shifts on the grid: a lower value of eps*, within ~1e-5 of it."""
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss
    from arete_proofs.distributions.lattice import lattice_gauss

    z = lattice_gauss("3", 2, "0.2", "0.5", digits=20)
    r = certify_lattice_gauss("3", 2, "0.2", "0.5", 1, tol="1e-6")
    with mp.workdps(20):
        n = D = 800
        lf = [z.logpdf(8 + mp.mpf(i) / n) for i in range(-D, n + D + 1)]
        grid = max(lf[D + i] - min(lf[i: i + 2 * D + 1]) for i in range(0, n + 1))
    assert r.lower - 1e-4 < grid <= r.upper        # the grid value is a lower value of eps*, close to it


@pytest.mark.slow
@pytest.mark.parametrize("a,m,sigma,h", [("7.94923", 34, "0.012328", "1/34"),   # the eps = 8 optimum (tail sup)
                                         ("7.945", 28, "0.015", "1/28")])      # a window sup
def test_lattice_gauss_cover_at_issue24_points(a, m, sigma, h):
    """Against the float64 estimator (another summation: FFT pmf, Brent refinement), which agrees with
    the exact engine to 8 digits at both points (privacy.optimize_lattice docstring)."""
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss
    from arete_proofs.privacy.optimize_lattice import estimate_epsilon

    r = certify_lattice_gauss(a, m, sigma, h, 1, tol="1e-6")
    e = estimate_epsilon(float(a), m, float(sigma), 1.0, float(Fraction(h)))
    assert r.lower - 1e-9 <= e <= r.upper + 1e-9 and r.upper - r.lower < 1e-6
    assert r.upper < 8.0 if m == 34 else r.lower > 8.0      # private at eps = 8 / not private


def test_lattice_gauss_certificate_check_and_refutations():
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss, check

    r = certify_lattice_gauss("3", 2, "0.2", "0.5", 1, tol="1e-6")
    doc = json.loads(json.dumps(r.to_json()))
    assert check(doc).ok
    bad = dict(doc, upper=repr(r.lower + (r.upper - r.lower) / 4))        # upper edited down
    assert not check(bad).ok
    bad = dict(doc, lower=repr(r.upper))                                   # lower edited up
    assert not check(bad).ok
    assert not check(dict(doc, choices=dict(doc["choices"], R=1))).ok    # a truncation the bound does not cover
    assert not check({k: v for k, v in doc.items() if k != "choices"}).ok
    # an enclosure computed with sigma altered by 1%, passed off as the original parameters
    s = certify_lattice_gauss("3", 2, "0.202", "0.5", 1, tol="1e-6")
    forged = dict(s.to_json(), params=doc["params"])
    assert s.upper < r.lower or s.lower > r.upper       # the two enclosures are disjoint
    assert not check(forged).ok


def test_lattice_gauss_single_shift_is_refuted():
    """Only the shift +Delta (on a fine grid) stays at a = 3; the certified eps* is above 3.1."""
    from arete_proofs.certified.combs_gauss import certify_lattice_gauss
    from arete_proofs.distributions.lattice import lattice_gauss

    z = lattice_gauss("3", 2, "0.2", "0.5", digits=15)
    with mp.workdps(20):
        broken = max(z.logpdf(mp.mpf(i) / 100) - z.logpdf(mp.mpf(i) / 100 + 1) for i in range(0, 600))
    r = certify_lattice_gauss("3", 2, "0.2", "0.5", 1, tol="1e-3")
    assert broken < r.lower - 0.1


def test_lattice_gauss_lazy_dips_give_the_full_refinements_enclosure():
    """dips='lazy' (refine a dip cell only while the t-cells near it could need it) against dips='all' (every
    dip cell bisected / refined, the older certificates' mode): the same enclosure, less work; a document
    without 'dips' in its choices re-checks in the old mode."""
    from arete_proofs.certified import combs_gauss as cg

    for p in [("3", 2, "0.2", "0.5"), ("2", 1, "0.3", "1")]:
        lazy = cg.certify_lattice_gauss(*p, 1, tol="1e-6", dips="lazy")
        full = cg.certify_lattice_gauss(*p, 1, tol="1e-6", dips="all")
        assert lazy.lower == full.lower and abs(lazy.upper - full.upper) < 1e-7
        assert lazy.choices["dips"] == "lazy" and full.choices["dips"] == "all"
        assert lazy.upper - lazy.lower < 1e-6
    old = full.to_json()
    old["choices"] = {k: v for k, v in old["choices"].items() if k != "dips"}
    assert cg.check(old).ok and cg.check(old).recomputed.choices["dips"] == "all"
    with pytest.raises(ValueError, match="dips"):
        cg.certify_lattice_gauss(*p, 1, dips="some")


def test_lattice_gauss_lazy_dips_that_drop_weak_cells_are_refuted(monkeypatch):
    """A broken lazy refinement that drops the dip cells it should refine (instead of keeping or bisecting them)
    misses the window minima: its 'upper bound' falls below the engine's value (another method: grid + golden
    section in mpmath, privacy.tight_lattice), which the honest cover encloses."""
    from arete_proofs.certified import combs_gauss as cg
    from arete_proofs.certified import gauss_cells
    from arete_proofs.privacy.tight_lattice import tight_epsilon_lattice_gauss

    def dropping(self, cells):
        need, self.est = self._dip_targets()
        lows = [gauss_cells._qmin(g0, g1, g2, (x1 - x0) / 2) for x0, x1, g0, g1, g2 in cells]
        lv = need([(float(c[0]), float(c[1])) for c in cells])
        self._set_dips([(x0, x1, lo, (x0 + x1) / 2, gauss_cells._up(g0))
                        for (x0, x1, g0, g1, g2), lo, v in zip(cells, lows, lv) if lo >= v])

    p = ("3", 2, "0.2", "0.5")
    e = float(tight_epsilon_lattice_gauss(*p, 1, digits=12).epsilon)
    honest = cg.certify_lattice_gauss(*p, 1, tol="1e-6")
    monkeypatch.setattr(cg._Cover, "_dips_lazy", dropping)
    broken = cg.certify_lattice_gauss(*p, 1, tol="1e-6", max_cells=3000)
    assert honest.lower <= e <= honest.upper
    assert broken.upper < e - 1e-3


def test_lattice_gauss_noise_certify():
    z = make("lattice_gauss", a="3", m=2, sigma="0.2", h="0.5")
    assert "certify" in z.supports
    r = z.certify(Delta=1, tol="1e-3", target="3.2")
    assert r.meets_target and r.lower <= r.numeric <= r.upper


@pytest.mark.parametrize("weights, rates", [((1, 2, 3, 4, 5), ("2",) * 5),
                                            ((1, 2, 3, 4, 5, 6, 7), ("1.5",) * 6 + ("1.3",)),
                                            ((2, 3, 5), ("0.7", "1.1", "2.5"))])
def test_pole_constants_and_q_table_against_direct_convolution(weights, rates):
    """comb_balls' pole formula (ball DFT of the pole residues; q_table's running products and dropped
    components) against the truncated direct convolution of distributions.comb (a different formula)."""
    from fractions import Fraction

    from flint import arb
    from mpmath import mp, mpf

    from arete_proofs.certified.comb_balls import _Comb, _precision
    from arete_proofs.distributions.comb import pmf_by_convolution

    ks = [0, 1, 3, 8, 17, 40]
    ref = pmf_by_convolution(ks, list(weights), list(rates), digits=30)
    with _precision(128):
        c = _Comb(weights, tuple(Fraction(r) for r in rates))
        tab = c.q_table(max(ks), prec_bits=60)    # a low drop threshold: the dropped radius is exercised
        for k, p in zip(ks, ref):
            with mp.workdps(40):
                q = p * mp.exp(mpf(c.lam_q.numerator) / c.lam_q.denominator * k)
            for ball in (c.p(k) * (c.lam * k).exp(), tab[k]):
                lo, hi = float(ball.lower()), float(ball.upper())
                assert lo - 1e-25 <= float(q) <= hi + 1e-25, (k, ball, q)
                assert hi - lo < 1e-15
    # a broken pole constant (one residue's sign) is caught by the same comparison
    with _precision(128):
        bad = _Comb(weights, tuple(Fraction(r) for r in rates))
        cs = bad.cs
        other = next(i for i in range(len(weights)) if i != cs)
        bad.B[other] = [-x for x in bad.B[other]]
        bad._p.clear()
        misses = [k for k, p in zip(ks, ref) if not bad.p(k).overlaps(arb(mp.nstr(p, 30)) + arb(0, 1e-25))]
        assert misses


def test_pole_constants_at_more_bits_where_the_partial_fractions_cancel():
    """MSDLap(3, 60) cancels by about cancellation_bits ~ 57 bits near k = 0: at 48 working bits the table's balls
    are far wider than the values, with ``bits=`` they are not, and both contain the positive power series of
    comb_table (a different formula, no cancellation).  (At m = 658 this was the certificate's cost: every dip cell bisected to depth 12.)"""
    from fractions import Fraction

    from mpmath import mp

    from arete_proofs.certified.comb_balls import _Comb, _precision
    from arete_proofs.distributions import comb, comb_table
    from arete_proofs.distributions.comb_poles import cancellation_bits

    w, r = tuple(range(1, 61)), ("3",) * 60
    lost = cancellation_bits(w, [3.0] * 60)
    assert lost > 48
    ks = [0, 1, 2, 5, 30, 61]
    with mp.workdps(40):
        ref = comb_table._series_table(61, *comb._check(w, r), 25)          # q_k = p_k e^{lambda k}
    with _precision(48):
        plain = _Comb(w, tuple(Fraction(x) for x in r)).q_table(61)
        hi = _Comb(w, tuple(Fraction(x) for x in r), bits=48 + int(lost) + 16).q_table(61)
    rel = lambda b: float(b.rad()) / abs(float(b.mid()))   # noqa: E731
    assert max(rel(plain[k]) for k in ks) > 1e-3              # the plain table lost (nearly) every digit somewhere
    assert max(rel(hi[k]) for k in ks) < 1e-12                # the constants at their own bits: the 48 bits kept
    with mp.workdps(50):
        for k in ks:
            q = float(ref[k])
            assert float(hi[k].lower()) - 1e-30 <= q <= float(hi[k].upper()) + 1e-30, k
            assert float(plain[k].lower()) - 1e-30 <= q <= float(plain[k].upper()) + 1e-30, k


def test_lattice_gauss_goal_and_capped_dips():
    """dips='capped' (no dip cell asked for more than its centre value less tol/16) gives the lazy mode's
    enclosure; a ``goal`` above eps* lets the covers stop there: the upper end is at most the goal, still above the
    tight cover's lower end, the goal is recorded and :func:`check` re-proves it; an edited upper end is refused."""
    from arete_proofs.certified import combs_gauss as cg

    p = ("3", 2, "0.2", "0.5")
    lazy = cg.certify_lattice_gauss(*p, 1, tol="1e-6", dips="lazy")
    capped = cg.certify_lattice_gauss(*p, 1, tol="1e-6", dips="capped")
    assert capped.lower == lazy.lower and abs(capped.upper - lazy.upper) < 1e-7
    goal = repr(lazy.upper + 0.01)
    loose = cg.certify_lattice_gauss(*p, 1, tol="1e-6", dips="capped", goal=goal)
    assert lazy.lower <= loose.upper <= float(goal) and loose.lower <= lazy.upper
    assert loose.cells < lazy.cells and loose.choices["dips"] == "capped"
    assert Fraction(loose.choices["goal"]) == Fraction(goal)       # recorded exactly, like the other choices
    doc = loose.to_json()
    assert cg.check(doc).ok
    doc["upper"] = repr(lazy.lower - 1e-4)          # below eps*: the recomputation refutes it
    assert not cg.check(doc).ok
    with pytest.raises(ValueError, match="goal"):
        cg.certify_lattice_gauss(*p, 1, goal="x")


@pytest.mark.parametrize("Delta", ["1", "0.7"])     # Du = Delta/h integer (one grid), and not (offsets 0, op, om)
def test_lattice_gauss_mirrored_cells_agree_with_the_direct_ones(Delta):
    """The window law is even, so mirror=True takes the cells at u < 0 from -u: each mirrored ball must overlap the
    one the law's own convolution gives there (a wrong index or sign would make them disjoint), and the mirrored
    G' is the negated one.  The certificate is the same with and without the mirror, records it, and a document
    without it (the older certificates) re-checks without it."""
    from arete_proofs.certified import combs_gauss as cg

    r = cg.certify_lattice_gauss("3", 2, "0.2", "0.5", Delta, tol="1e-6")      # mirror=True, the default
    plain = cg.certify_lattice_gauss("3", 2, "0.2", "0.5", Delta, tol="1e-6", mirror=False)
    assert (r.lower, r.upper) == (plain.lower, plain.upper) and r.choices["mirror"] is True
    old = r.to_json()
    old["choices"] = {k: v for k, v in old["choices"].items() if k != "mirror"}
    rep = cg.check(old)
    assert rep.ok and "mirror" not in rep.recomputed.choices

    # the grids themselves: rebuild the window's cover, once mirrored and once not
    from arete_proofs.certified.comb_balls import _Comb, _comb_parts, _precision
    from arete_proofs.certified.comb_balls import _ball

    with _precision(128):
        w, ra = _comb_parts(range(1, 3), [Fraction(3)] * 2)
        comb = _Comb(w, ra, bits=128)
        lam, beta = comb.lam, _ball(Fraction(1, 2) ** 2 / Fraction(1, 5) ** 2)
        Du = Fraction(Delta) / Fraction(1, 2)
        R = 12
        ja, jb = math.floor(-Du) - 2 - R, math.ceil(40 + Du) + 2 + R
        qtab = comb.q_table(max(jb, -ja))
        law = cg._Law(lambda k: qtab[k] if k >= 0 else qtab[-k] * (2 * lam * k).exp(), ja, jb, lam, beta, R, comb.cmax)
        covers = []
        for even in (False, True):
            cov = cg._Cover(law, Fraction(40), Du, 8, 1e-7, 1000)
            cov.even = even
            covers.append(cov)
        offsets = {Fraction(0), covers[0].op, covers[0].om}
        assert len(offsets) == (1 if Delta == "1" else 3)
        n = 0
        for off in offsets:
            direct, mirrored = covers[0]._grid(off), covers[1]._grid(off)
            for i, (a, b) in enumerate(zip(direct, mirrored)):
                j, rr = divmod(i, 8)
                c = covers[0].ja + j + off + Fraction(2 * rr + 1, 16)
                if c >= 0:
                    assert a is b or all(x.mid() == y.mid() for x, y in zip(a, b))
                    continue
                for x, y in zip(a, b):
                    assert x.overlaps(y), (off, c)
                n += 1
        assert n >= 20
        # direct evaluation of a cell at u < 0, mirrored: G' changes sign with the cell
        g_plain = covers[0]._direct(Fraction(-7, 3), Fraction(-2))
        g_mirr = covers[1]._direct(Fraction(-7, 3), Fraction(-2))
        assert all(x.overlaps(y) for x, y in zip(g_plain, g_mirr))
        assert float(g_mirr[1].mid()) * float(covers[1]._direct(Fraction(2), Fraction(7, 3))[1].mid()) < 0
