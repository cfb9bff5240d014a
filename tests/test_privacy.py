"""Tight privacy loss of Arete noise (arete_proofs.privacy.tight, .curves) against independent computations.

References used here, none of which shares code with the certified search:
* brute force: the engine (arete.pdf) on a dense geometric + uniform grid of t in one batch,
  then zooming grids around the best point (plain loops in this file);
* Laplace noise: ln f_L(t)/f_L(t+Delta) = Delta/lam in closed form (laplace.logpdf);
* direct engine evaluations of L(t) = ln f_A(t) - ln f_A(t + Delta) at chosen points
  (cell bounds sampled inside the cells, the tail, the neighbourhood of t_star).
"""

import math

import pytest
from mpmath import mp

from arete_proofs import PrecisionError

from arete_proofs.distributions import arete, laplace

from arete_proofs.privacy import _bounds, _search, curves
from arete_proofs.privacy import tight as privacy
from arete_proofs.distributions.params import paper_parameters
from arete_proofs.privacy.tight import FIGURE_4

DIGITS = 12


@pytest.fixture(autouse=True)
def _default_precision():
    with mp.workdps(15):
        yield


@pytest.fixture(scope="module")
def fig4():
    """tight_epsilon of the three Figure-4 sets at 12 digits (computed once)."""
    with mp.workdps(15):
        return {e: privacy.tight_epsilon(*FIGURE_4[e], 1, digits=DIGITS) for e in (6, 7, 8)}


def L_engine(ts, params, Delta=1, digits=20):
    """ln f_A(t) - ln f_A(t + Delta) for a list of t, one engine batch, at digits + 10 working digits."""
    a, th, lam = params
    with mp.workdps(digits + 30):
        ts = [mp.mpf(t) for t in ts]
        sh = [t + Delta for t in ts]
    v = arete.pdf(ts + sh, a, th, lam, digits=digits)
    n = len(ts)
    with mp.workdps(digits + 10):
        return [mp.log(v[i]) - mp.log(v[n + i]) for i in range(n)]


def brute_force_sup(params, digits=16):
    """Max of L over 0, t = 10^(-k/2) (k = 1..60) and a uniform grid on [0, 3], then 5 zooms."""
    with mp.workdps(digits + 30):
        ts = [mp.zero] + [mp.mpf(10) ** (-mp.mpf(k) / 2) for k in range(1, 61)] + [mp.mpf(k) / 10 for k in range(1, 31)]
        ts = sorted(set(ts))
    Ls = L_engine(ts, params, digits=digits)
    i = max(range(len(ts)), key=lambda k: Ls[k])
    best_t, best = ts[i], Ls[i]
    lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)]
    for _ in range(5):
        with mp.workdps(digits + 30):
            zs = [lo + (hi - lo) * k / 10 for k in range(11)]
        Lz = L_engine(zs, params, digits=digits)
        j = max(range(11), key=lambda k: Lz[k])
        if Lz[j] > best:
            best_t, best = zs[j], Lz[j]
        lo, hi = zs[max(j - 1, 0)], zs[min(j + 1, 10)]
    return best, best_t


def rel(x, y):
    with mp.workdps(40):
        return abs(x - y) / abs(y)


# ---------------------------------------------------------------------------
# Figure 4 at 12 digits
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("target", [6, 7, 8])
def test_figure4_matches_brute_force(fig4, target):
    r = fig4[target]
    ref, ref_t = brute_force_sup(FIGURE_4[target])
    # brute force is a lower bound of the sup; the certified bracket contains the sup
    assert r.lower_bound <= r.epsilon <= r.upper_bound
    assert ref <= r.upper_bound + mp.mpf(10) ** -15
    assert rel(r.epsilon, ref) < mp.mpf(10) ** -DIGITS, (r.epsilon, ref)
    assert r.achieved_digits >= DIGITS
    # near the paper's target eps (the figure's parameters were fitted on a 0.001 grid), just below
    gap = target - r.epsilon
    assert 0 < gap < 2e-3, gap
    print(f"eps={target}: tight {mp.nstr(r.epsilon, 15)}, target - tight = {mp.nstr(gap, 3)}, "
          f"t_star {mp.nstr(r.t_star, 6)}, brute force {mp.nstr(ref, 15)} at {mp.nstr(ref_t, 6)}")


def test_figure4_values(fig4):
    """Regression values (12 digits) and where the maximisers are."""
    expect = {6: "5.99966478165244", 7: "6.99950120442290", 8: "7.99901420913488"}
    for e, s in expect.items():
        assert rel(fig4[e].epsilon, mp.mpf(s)) < 2e-14
    # eps = 6: interior maximiser at ~6.0035e-8 (orders of magnitude below 1e-6), not at t = 0
    assert 5.9e-8 < fig4[6].t_star < 6.1e-8
    L0 = L_engine([0], FIGURE_4[6])[0]
    assert fig4[6].epsilon - L0 > mp.mpf("1.9e-8")
    # eps = 7, 8: the maximiser is below 1e-15; L(0) equals the sup to far more than 12 digits
    for e in (7, 8):
        assert fig4[e].t_star < 1e-15
        assert rel(L_engine([0], FIGURE_4[e])[0], fig4[e].epsilon) < mp.mpf(10) ** -14


@pytest.mark.parametrize("target", [6, 7, 8])
def test_t_star_is_where_L_is_maximal(fig4, target):
    r = fig4[target]
    t = r.t_star
    tol = mp.mpf(10) ** -DIGITS * r.epsilon
    with mp.workdps(40):
        around = [t * (1 + mp.mpf(s)) for s in ("-0.1", "-1e-3", "1e-3", "0.1")] + [t + mp.mpf("1e-9"), t + mp.mpf("1e-7")]
    vals = L_engine([t] + around, FIGURE_4[target])
    assert all(v <= vals[0] + tol for v in vals[1:]), [mp.nstr(v - vals[0], 3) for v in vals[1:]]
    if target == 6:  # a genuine interior maximum: moving by 10% loses more than the tolerance
        assert vals[1] < vals[0] - tol and vals[4] < vals[0] - tol


def test_lipschitz_bound_and_tail_limit(fig4):
    for e, r in fig4.items():
        a, th, lam = FIGURE_4[e]
        assert mp.almosteq(r.tail_limit, 1 / mp.mpf(th))
        assert r.tail_limit < r.epsilon < 1 / mp.mpf(lam)  # Delta/theta < eps* < Delta/lam
        # the tail bound at the end of the search is below the maximum, and L(t) for t beyond
        # it decreases towards Delta/theta from above (alpha < 1)
        assert r.tail_bound < r.lower_bound
        T = r.search_end
        ts = [T, 2 * T, 8 * T, 40 * T]
        Ls = L_engine(ts, FIGURE_4[e], digits=15)
        assert all(x <= r.tail_bound for x in Ls)
        assert all(x > y > r.tail_limit for x, y in zip(Ls, Ls[1:]))


def test_cell_bounds_hold_inside_cells(fig4):
    """Every cell bound of the certified cover dominates L sampled inside the cell (engine)."""
    params = FIGURE_4[6]
    cover = list(fig4[6].cover)
    with mp.workdps(30):
        alpha, theta, lam = (mp.mpf(x) for x in params)
        P = _bounds._Problem(alpha, theta, lam, mp.one, DIGITS)
        vals = P.evals(cover, 16)
        e = mp.mpf(10) ** -16 * 2
        U, L, _ = _bounds._cell_bounds(_bounds._obj(cover), *vals, lam, e, _bounds._Num(True))
    samples, owner = [], []
    for i, (a, b) in enumerate(zip(cover, cover[1:])):
        with mp.workdps(40):
            if a > 0 and b / a > 10:
                pts = [a * (b / a) ** (mp.mpf(k) / 4) for k in (1, 2, 3)]
            else:
                pts = [a + (b - a) * k / 4 for k in (1, 2, 3)]
        samples += pts
        owner += [i] * 3
    Ls = L_engine(samples, params, digits=16)
    bad = [(owner[j], mp.nstr(Ls[j] - U[owner[j]], 3)) for j in range(len(samples)) if Ls[j] > U[owner[j]]]
    assert not bad
    # and the bounds are useful: the largest is within the certified width of the sup
    assert max(U) - fig4[6].epsilon < mp.mpf(10) ** -DIGITS * 6


# ---------------------------------------------------------------------------
# deliberately broken searches are caught
# ---------------------------------------------------------------------------


def test_broken_search_detected(fig4):
    params = FIGURE_4[6]
    r = fig4[6]
    tol = mp.mpf(10) ** -DIGITS * r.epsilon
    good = privacy.check_cover(r.cover, *params, 1, digits=DIGITS)
    assert good.certified and good.lower <= r.epsilon <= good.upper
    # (a) a grid that skips t < 1e-6 (no point in (0, 1e-6)): the naive maximum misses the
    #     true supremum by ~2e-8, far more than the tolerance, and the cover check refuses it
    skip = [x for x in r.cover if x == 0 or x >= 1e-6]
    naive = max(L_engine(skip, params, digits=16))
    assert r.epsilon - naive > 1000 * tol
    c = privacy.check_cover(skip, *params, 1, digits=DIGITS)
    assert not c.certified and c.worst_cell[0] == 0 and c.upper - c.lower > 1000 * tol
    # ... also when t = 0 itself is dropped: an uncovered gap
    c = privacy.check_cover([x for x in r.cover if x >= 1e-6], *params, 1, digits=DIGITS)
    assert not c.certified and c.gaps and c.gaps[0][0] == 0
    # (b) T too small: the tail bound beyond 0.3 is above the maximum
    c = privacy.check_cover([x for x in r.cover if x <= mp.mpf("0.3")], *params, 1, digits=DIGITS)
    assert not c.certified and c.tail_bound > r.upper_bound
    # (c) a forced search on the skipping grid is repaired by the certified refinement
    P = _bounds._Problem(*privacy._parse(*params, 6), mp.one, 6)
    fixed = _search._search(P, points=[float(x) for x in skip])  # the fields of a TightEpsilon
    assert abs(fixed["epsilon"] - r.epsilon) < mp.mpf(10) ** -6 * r.epsilon


def test_budget_exhaustion_raises(monkeypatch):
    monkeypatch.setattr(_search, "_MAX_ENGINE_POINTS", 10)
    with pytest.raises(PrecisionError):
        privacy.tight_epsilon(*FIGURE_4[6], 1, digits=DIGITS)


# ---------------------------------------------------------------------------
# the digits contract
# ---------------------------------------------------------------------------


def test_digits_contract_6_vs_12(fig4):
    for e in (6, 8):
        r6 = privacy.tight_epsilon(*FIGURE_4[e], 1, digits=6)
        # both certified brackets contain the supremum, so they overlap
        assert r6.lower_bound <= fig4[e].upper_bound and fig4[e].lower_bound <= r6.upper_bound
        assert r6.upper_bound - r6.lower_bound <= mp.mpf(10) ** -6 * r6.lower_bound
        assert rel(r6.epsilon, fig4[e].epsilon) < mp.mpf(10) ** -6


@pytest.mark.slow
def test_digits_contract_12_vs_20(fig4):
    r20 = privacy.tight_epsilon(*FIGURE_4[6], 1, digits=20)
    assert r20.lower_bound <= fig4[6].upper_bound and fig4[6].lower_bound <= r20.upper_bound
    assert rel(r20.epsilon, fig4[6].epsilon) < mp.mpf(10) ** -DIGITS
    assert mp.nstr(r20.epsilon, 20) == "5.9996647816524412012"
    assert r20.achieved_digits >= 20
    assert abs(r20.t_star - mp.mpf("6.0034916e-8")) < mp.mpf("1e-13")


# ---------------------------------------------------------------------------
# Laplace and the closed cases
# ---------------------------------------------------------------------------


def test_laplace_ratio_is_exactly_Delta_over_lam():
    lam, Delta = mp.mpf("0.3"), mp.mpf("1.7")
    with mp.workdps(40):
        vals = [laplace.logpdf(t, lam, digits=30) - laplace.logpdf(t + Delta, lam, digits=30)
                for t in map(mp.mpf, (0, "0.1", 1, 5, 40))]
        assert all(abs(v - Delta / lam) < mp.mpf(10) ** -28 for v in vals)
        below = [laplace.logpdf(t, lam, digits=30) - laplace.logpdf(t + Delta, lam, digits=30)
                 for t in map(mp.mpf, ("-0.2", "-0.85", "-3"))]
        assert all(v < Delta / lam for v in below)
    assert mp.almosteq(curves.laplace_loss(Delta, lam), Delta / lam, 1e-15)
    assert curves.laplace_loss(-Delta, lam) == curves.laplace_loss(Delta, lam)


def test_closed_cases():
    # lam >= theta: eps* = Delta/lam (the Lipschitz bound, approached in the tail)
    r = privacy.tight_epsilon("0.2", "0.5", 2, 3, digits=20)
    assert r.epsilon == mp.mpf(3) / 2 and r.t_star == mp.inf and not r.attained
    Ls = L_engine([0, 1, 5, 30], ("0.2", "0.5", 2), Delta=3, digits=25)
    with mp.workdps(40):
        assert all(x < y <= r.epsilon for x, y in zip(Ls, Ls[1:])) and Ls[-1] >= r.epsilon - mp.mpf("1e-20")
    # alpha >= 1, lam < theta: log-concave, L increases to Delta/theta
    r = privacy.tight_epsilon(2, 1, "0.3", 1, digits=20)
    assert r.epsilon == 1 and r.method.startswith("log-concave") and not r.attained
    Ls = L_engine([0, 1, 5, 50], (2, 1, "0.3"), digits=15)
    assert all(x < y < 1 for x, y in zip(Ls, Ls[1:]))
    assert privacy.privacy_loss(0, "0.3", 1, "0.1") == 0


# ---------------------------------------------------------------------------
# privacy loss as a function of the distance (Section 4.2, Figure 3)
# ---------------------------------------------------------------------------


def test_privacy_loss_nondecreasing_and_equals_tight_at_Delta(fig4):
    params = FIGURE_4[6]
    ds = [0, "0.25", "0.5", 1]
    ls = [v for _, v in curves.loss_curve(ds, *params, digits=6)]
    assert ls[0] == 0
    assert all(x < y for x, y in zip(ls, ls[1:]))
    assert rel(ls[-1], fig4[6].epsilon) < mp.mpf(10) ** -6
    assert privacy.privacy_loss("-0.5", *params, digits=6) == ls[2]
    # Lipschitz bound d/lam and the paper's Figure 3: the loss grows smoothly past d = Delta
    lam = mp.mpf(params[2])
    assert all(v <= mp.mpf(d) / lam for d, v in zip(ds, ls))
    l12 = privacy.privacy_loss("1.2", *params, digits=6)
    assert ls[-1] < l12 < 2 * ls[-1]


def test_shift_reduction(fig4):
    r = privacy.check_shift_reduction(*FIGURE_4[8], 1, ["-1", "-0.3", "0.3", "0.7", "1"], 6)
    assert r.holds
    got = dict((str(a), v) for a, v in r.per_shift)
    assert rel(got["1.0"], fig4[8].epsilon) < 1e-6 and got["-1.0"] == got["1.0"]
    assert got["-0.3"] == got["0.3"] < got["0.7"] < got["1.0"]
    with pytest.raises(ValueError, match="shifts"):
        privacy.check_shift_reduction(*FIGURE_4[8], 1, ["1.5"], 6)


def test_loss_curves_figure3():
    c = curves.loss_curves(6, 1, k=2, points=5, params=FIGURE_4[6], digits=5)
    assert [float(d) for d in c["d"]] == [0, 0.5, 1, 1.5, 2]
    assert [float(x) for x in c["staircase"]] == [0, 6, 6, 12, 12]
    assert [float(x) for x in c["laplace"]] == [0, 3, 6, 9, 12]
    ar = c["arete"]
    assert ar[0] == 0 and all(x < y for x, y in zip(ar, ar[1:]))
    assert ar[2] < 6 < ar[3] < 12  # eps-DP at d = Delta, smooth growth beyond (no doubling)


# ---------------------------------------------------------------------------
# the paper's parameters (Lemma 3, Corollary 5)
# ---------------------------------------------------------------------------


def test_paper_table_eps20():
    rows = curves.paper_table([20], [1, 10], digits=8)
    assert [r["lemma3"] for r in rows] == [True, False]  # 20 < 20 + 4 ln 10
    for r in rows:
        assert r["private"] and r["tail_limit"] < r["tight"] < r["eps"] < r["lipschitz"]
        assert mp.almosteq(r["tail_limit"], 5)
    assert mp.nstr(rows[0]["tight"], 8) == "14.249826"


def test_smallest_private_eps_delta1():
    r = curves.smallest_private_eps(1, digits=4, scan_points=5, eps_min=4)
    # for Delta = 1 the paper's parameters are eps-DP at every scanned eps of [4, 20] (the default
    # range starts at 0.1, with the same outcome; 4 keeps the test short): no crossing, the
    # returned eps is the bracket's lower end, far below Lemma 3's threshold 20 + 4 ln 1 = 20
    assert not r.crossing and r.epsilon == r.search_range[0] and not r.violations
    assert r.max_ratio < 0.75
    assert r.tight_at_epsilon <= r.epsilon  # certified there
    a, th, lam = paper_parameters(r.epsilon, 1, digits=30)
    assert privacy.tight_epsilon(a, th, lam, 1, digits=6).upper_bound <= r.epsilon
    assert all(L <= e for e, L in r.scan)


@pytest.mark.slow
def test_smallest_private_eps_crossing_delta100():
    r = curves.smallest_private_eps(100, digits=5)
    assert r.crossing
    lo, hi = r.bracket
    assert r.epsilon == hi and hi - lo <= mp.mpf(10) ** -5 * hi
    assert 13 < r.epsilon < 14.5 < 20 + 4 * math.log(100)  # far below Lemma 3's threshold
    for e, dp in ((hi, True), (lo, False)):
        t = privacy.tight_epsilon(*paper_parameters(e, 100, digits=30), 100, digits=8)
        assert (t.upper_bound <= e) if dp else (t.lower_bound > e)
    # the DP set is not an interval: the scan finds a violation band below the crossing
    assert r.violations and r.violations[-1][0] < 6


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, name", [
    (dict(Delta=0), "Delta"), (dict(Delta=-1), "Delta"), (dict(Delta="nan"), "Delta"),
    (dict(alpha=0), "alpha"), (dict(alpha="nan"), "alpha"), (dict(theta=-2), "theta"),
    (dict(lam="inf"), "lam"), (dict(digits=0), "digits"), (dict(digits=41), "digits"),
    (dict(digits=True), "digits"), (dict(digits="12"), "digits"), (dict(digits=2.0), "digits"),
])
def test_bad_input(kwargs, name):
    args = dict(alpha="0.1", theta=1, lam="0.05", Delta=1, digits=6)
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        privacy.tight_epsilon(args["alpha"], args["theta"], args["lam"], args["Delta"], digits=args["digits"])


def test_bad_input_other_functions():
    with pytest.raises(ValueError, match="d"):
        privacy.privacy_loss("nan", "0.1", 1, "0.05")
    with pytest.raises(ValueError, match="lam"):
        curves.laplace_loss(1, 0)
    with pytest.raises(ValueError, match="Delta"):
        curves.smallest_private_eps(0)
    with pytest.raises(ValueError, match="eps"):
        curves.paper_table([-1], [1])
    with pytest.raises(ValueError, match="points"):
        privacy.check_cover(["-1", 1], "0.1", 1, "0.05")
    with pytest.raises(ValueError, match="digits"):
        curves.loss_curve([1], "0.1", 1, "0.05", digits=0)
