"""Tests for arete_proofs.certified.epsilon: a proved upper bound on the tight epsilon.

The certified bracket is compared with privacy.tight_epsilon (mpmath engine values and
its own branch-and-bound; shares no density evaluation with the arb code path).
"""

import pytest

flint = pytest.importorskip("flint")

from fractions import Fraction  # noqa: E402

from mpmath import mp  # noqa: E402

from arete_proofs.distributions import arete, params

from arete_proofs.certified import epsilon as CE

from arete_proofs.privacy import tight as privacy  # noqa: E402
from arete_proofs.certified.epsilon import certify_epsilon, tail_bound  # noqa: E402


@pytest.mark.parametrize("k", [6, 7, 8])
def test_figure4_sets_within_1e3_of_tight(k):
    # the target: certified bound within 1e-3 of the tight epsilon (here tol 1e-4)
    r = certify_epsilon(*params.FIGURE_4[k], 1)
    assert r.method == "cover" and r.numeric is not None
    assert r.lower <= r.numeric <= r.upper
    assert 0 <= r.gap < 1e-3 and r.upper - r.lower <= 1e-4
    assert r.upper < k  # Figure 4's parameters are k-DP, now proved


def test_paper_parameters_corollary5():
    a, th, la = params.paper_parameters(20, 1, digits=30)
    r = certify_epsilon(a, th, la, 1, target=20)
    assert r.meets_target and r.upper < 14.26  # tight epsilon 14.2498...


@pytest.mark.parametrize("p", [("0.3", "2", "0.5", 1)])
def test_interior_maximum(p):
    # alpha not small: the maximiser is at t > 0 and the curvature bound (item 2b) does the work
    r = certify_epsilon(*p, tol="1e-3")
    assert r.lower <= r.numeric <= r.upper <= r.lower + 1e-3
    assert r.t_star > 0.1


def test_target_not_met():
    r = certify_epsilon(*params.FIGURE_4[6], 1, target="5.9996", numeric=False, max_seconds=60)
    assert r.target == 5.9996 and not r.meets_target and r.upper > 5.9996


def test_closed_cases():
    r = certify_epsilon("0.3", 1, 2, 1, numeric=False)  # lam >= theta: Delta/lam
    assert r.method == "lipschitz" and r.upper == 0.5
    r = certify_epsilon("1.5", 1, "0.5", 2)  # alpha >= 1: Delta/max(theta, lam)
    assert r.method == "log-concave" and r.upper == 2.0
    with mp.workdps(20):
        assert abs(r.numeric - 2) < 1e-9


def test_workers_give_same_result():
    p = (*params.FIGURE_4[7], 1)
    r1 = certify_epsilon(*p, numeric=False)
    r2 = certify_epsilon(*p, numeric=False, workers=2)
    assert (r1.upper, r1.lower, r1.cells) == (r2.upper, r2.lower, r2.cells)


def test_tail_bound_is_an_upper_bound():
    p = ("0.3", "2", "0.5")
    T = 9
    tb = tail_bound(T, *p, 1)
    for t in (9, 12, 30, 80):
        with mp.workdps(30):
            L = arete.logpdf(t, *p, digits=20) - arete.logpdf(t + 1, *p, digits=20)
        assert L < float(tb.upper())
    # and it decreases towards the tail limit Delta/theta
    assert float(tail_bound(40, *p, 1).upper()) < float(tb.upper())
    assert float(tail_bound(400, *p, 1).lower()) > 0.5
    # below the validity threshold it returns +inf
    # (T + c < (1 - alpha)/(1/lam - 1/theta) = 89.1 here)
    assert not tail_bound(Fraction(1, 100), "0.1", "1", "0.99", "1e-3").is_finite()


def test_broken_cell_bound_is_caught(monkeypatch):
    # a "bound" that forgets monotonicity (values at the wrong ends of the cell) undercuts
    # a certified value of L somewhere: the self-check refuses to return it
    def wrong(a, b, la, ell, Delta, fgg=None):
        return (ell[b] - ell[Fraction(a) + Delta]).upper()

    monkeypatch.setattr(CE, "_cell_upper", wrong)
    with pytest.raises(ArithmeticError, match="inconsistent"):
        certify_epsilon("0.3", "2", "0.5", 1, numeric=False, max_seconds=30)


def test_broken_tail_is_caught(monkeypatch):
    # a tail bound that is too small (the tail limit Delta/theta itself) lets the cover stop at a T
    # where L is still above it: the certified values near T then exceed the claimed tail bound
    from flint import arb

    p = ("0.3", "2", "0.5")
    monkeypatch.setattr(CE, "tail_bound", lambda T, *a, **k: arb("0.5"))
    r = certify_epsilon(*p, 1, numeric=False, tol="1e-3")
    with mp.workdps(30):
        L_T = arete.logpdf(r.T, *p, digits=20) - arete.logpdf(r.T + 1, *p, digits=20)
    assert L_T > r.tail  # the broken claim is refuted by an engine value


@pytest.mark.parametrize("kw,name", [(dict(alpha="nan"), "alpha"), (dict(theta="-1"), "theta"),
                                     (dict(Delta="0"), "Delta"), (dict(tol="x"), "tol"),
                                     (dict(workers=0), "workers")])
def test_bad_input_named(kw, name):
    args = dict(alpha="0.3", theta="2", lam="0.5", Delta=1) | kw
    extra = {k: args.pop(k) for k in ("tol", "workers") if k in args}
    with pytest.raises(ValueError, match=name):
        certify_epsilon(args["alpha"], args["theta"], args["lam"], args["Delta"], numeric=False, **extra)


def test_agrees_with_privacy_bracket():
    p = (*params.FIGURE_4[6], 1)
    r = certify_epsilon(*p, numeric=False)
    t = privacy.tight_epsilon(*p, digits=12)
    with mp.workdps(30):
        assert r.lower <= t.upper_bound and t.lower_bound <= r.upper


def test_supremum_near_tail_limit_falls_back_to_lipschitz():
    # lam close to theta: the tail bound cannot drop below the maximum (the numeric search gives up
    # too); the result is still a proved bound, the Lipschitz bound Delta/lam, wider than tol
    r = certify_epsilon("0.3", "1", "0.99", 1)
    assert r.numeric is None and r.upper == pytest.approx(1 / 0.99, rel=1e-15)
    assert r.upper >= 1 / 0.99 and r.lower < r.upper and r.upper - r.lower > 1e-4


def test_higher_precision_same_bracket():
    p = (*params.FIGURE_4[8], 1)
    r64 = certify_epsilon(*p, numeric=False)
    r128 = certify_epsilon(*p, numeric=False, prec=128)
    assert r128.lower <= r64.upper and r64.lower <= r128.upper
    with pytest.raises(ValueError, match="prec"):
        certify_epsilon(*p, prec=8)


def test_ball_parameters_cover_the_exact_paper_values():
    # alpha = lam = e^-5 exactly (a ball containing it): the bracket contains the engine value, and
    # it agrees with a nearby exact rational parameter set
    from flint import arb, ctx

    old, ctx.prec = ctx.prec, 128
    try:
        a = arb(-5).exp()
    finally:
        ctx.prec = old
    r = certify_epsilon(a, Fraction(1, 5), a, 1)
    assert r.lower <= r.numeric <= r.upper < 14.25
    assert "+/-" in r.alpha
    # a ball that straddles lam = theta is refused, not guessed
    with pytest.raises(ValueError, match="whole balls"):
        certify_epsilon("0.3", arb("0.2", "0.01"), arb("0.2", "0.01"), 1, numeric=False)
