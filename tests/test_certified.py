"""Tests for arete_proofs.certified.statements (python-flint ball arithmetic)."""

import pytest

flint = pytest.importorskip("flint")

from mpmath import mp  # noqa: E402

from arete_proofs.distributions import arete

from arete_proofs.certified import balls as B  # noqa: E402
from arete_proofs.certified import statements as C  # noqa: E402
from arete_proofs.certified.statements import lemma14 as L14  # noqa: E402
from arete_proofs.certified.statements import lemma19 as L19  # noqa: E402


def test_certify_box_generic():
    c = B.certify_box(lambda x, y: 3 - x * x - y * y, {"x": ("-1", "1"), "y": (0, 1)})
    assert c.holds is True and c.boxes and c.undecided_or_refuted_box is None
    bad = B.certify_box(lambda x: x - flint.arb("0.5"), {"x": (0, 1)})
    assert bad.holds is False and bad.undecided_or_refuted_box is not None
    # margin with a zero in the box: undecided (never certain)
    und = B.certify_box(lambda x: x * x, {"x": (-1, 1)}, max_depth=8)
    assert und.holds is None and und.undecided_or_refuted_box is not None


@pytest.mark.parametrize("f", [C.note2_certificate, C.lemma19_certificate, C.lemma28_certificate,
                               C.lemma14_upper_certificate, C.lemma14_lower_certificate,
                               C.lemma19_algebra_certificate])
def test_true_statements_certified(f):
    c = f()
    assert c.holds is True
    assert c.undecided_or_refuted_box is None
    assert c.min_margin() > 0


@pytest.mark.parametrize("f", [C.note2_false_certificate, C.lemma19_false_certificate,
                               C.lemma19_algebra_false_certificate, C.lemma14_upper_false_certificate,
                               C.lemma14_lower_false_certificate])
def test_false_statements_refuted(f):
    c = f()
    assert c.holds is False
    assert isinstance(c.undecided_or_refuted_box, dict) and c.undecided_or_refuted_box
    # the refuted box is a real box of the statement's variables, with exact endpoints lo <= hi
    for lo, hi in c.undecided_or_refuted_box.values():
        assert lo <= hi


def test_lemma19_algebra_scope():
    c = C.lemma19_algebra_certificate()
    # every step listed as a bound of lemma-19 (and Lemma 18's theta hypothesis) is covered
    for name in ("median", "eq-8", "eq-9", "eq-10", "hyp-theta", "hyp-lam", "hyp-alpha", "hyp-gamma",
                 "theta <= D_Gamma + Delta", "whole domain"):
        assert name in c.argument.replace("WHOLE", "whole")
    # box parts on (s, Delta), tail parts on compactified variables, Note 2 on alpha
    names = {frozenset(b) for b, _ in c.boxes}
    assert frozenset({"s", "Delta"}) in names and frozenset({"A"}) in names
    assert frozenset({"A", "w"}) in names and frozenset({"a"}) in names
    assert c.min_margin() > 0


def test_lemma19_algebra_false_refuted_in_eq10_box():
    c = C.lemma19_algebra_false_certificate()
    box = c.undecided_or_refuted_box
    assert c.holds is False and set(box) == {"s", "Delta"}
    # refuted near s = 0, where 3 + s/4 - ln 48 < 0
    assert box["s"][0] == 0


def test_lemma19_reductions_detect_a_wrong_margin(monkeypatch):
    """The sympy/point check ties the arb margins to the registry's expressions."""
    assert L19._lemma19_reductions() is None
    orig = L19._l19_margins

    def perturbed():
        m = orig()
        f = m["eq-10"]
        m["eq-10"] = lambda u, A, D: f(u, A, D) + flint.arb("0.001")
        return m

    monkeypatch.setattr(L19, "_l19_margins", perturbed)
    monkeypatch.setattr(L19, "_REDUCTIONS_CACHE", {})
    assert L19._lemma19_reductions() == "eq-10"
    c = C.lemma19_algebra_certificate()
    assert c.holds is None and "identity eq-10" in c.undecided_or_refuted_box


def test_lemma14_all_t_arguments():
    up = C.lemma14_upper_certificate()
    lo = C.lemma14_lower_certificate()
    assert "All t > 0" in up.argument and "K_{1/2}(t) = sqrt(pi/(2t)) e^{-t}" in up.argument
    assert "All t >= 0" in lo.argument and "non-increasing" in lo.argument
    assert L14._lemma14_upper_algebra_ok() and L14._lemma14_lower_derivative_ok()
    # the closed form of K_{1/2} at a point, in ball arithmetic
    T = flint.arb(3)
    assert T.bessel_k(flint.arb("0.5")).overlaps((flint.arb.pi() / (2 * T)).sqrt() * (-T).exp())
    # f_GG(t) <= 2^{-alpha} f_Gamma(t) at a large t outside the boxes (sanity of the argument)
    A, T = flint.arb("0.3"), flint.arb(500)
    gap = (A - 1) * T.log() - A * flint.arb(2).log() - L14._log_fgg_plus_t(A, T)
    assert gap.lower() > 0


def test_registry_lists_algebra_certificate():
    from arete_proofs.chain.registry import REGISTRY

    assert "lemma19_algebra_certificate" in REGISTRY["lemma-19"].certificates
    assert "lemma19_algebra_certificate" not in REGISTRY["lemma-18"].certificates


PARAMS = [("0.3", "2", "0.5"), ("1", "2", "3"), ("0.05", "0.5", "0.05"), ("0.007", "3.1", "0.2"), ("2.5", "0.3", "1.7")]


@pytest.mark.parametrize("p", PARAMS)
def test_pdf_at_zero_ball_contains_engine(p):
    b = B.pdf_at_zero_ball(*p, prec=64)
    with mp.workdps(40):
        e1 = arete.pdf_at_zero(*p, digits=30)
        e2 = arete.pdf(0, *p, digits=30)
    # engine values (30 digits) lie well inside the 64-bit ball
    assert b.overlaps(B._to_arb(e1)) and b.overlaps(B._to_arb(e2))
    assert abs(e1 - e2) < mp.mpf(10) ** -28 * abs(e1)
    hi = B.pdf_at_zero_ball(*p, prec=256)
    assert hi.rad() < b.rad() and b.contains(hi)
    with mp.workdps(40):
        assert abs(mp.mpf(hi.mid().str(35, radius=False)) - e1) < mp.mpf(10) ** -28 * abs(e1)


def test_gg_closed_form_matches_engine():
    from arete_proofs.distributions import gamma_gamma

    for a, t in [("0.3", "0.7"), ("0.8", "2.5"), ("0.05", "10")]:
        A, T = flint.arb(a), flint.arb(t)
        val = (L14._log_fgg_plus_t(A, T) - T - A.lgamma()).exp()
        e = gamma_gamma.pdf(t, a, 1, digits=25)
        assert val.contains(B._to_arb(e)) and val.rad() < 1e-4 * abs(float(e))


def test_corollary5_points_certified_and_false_variant_refuted():
    c = C.corollary5_certificate(points=((20, 1), (30, 10)))
    assert c.holds is True and len(c.boxes) == 2 and c.min_margin() > 5
    f = C.corollary5_false_certificate()
    assert f.holds is False and f.undecided_or_refuted_box == {"eps": (20, 20), "Delta": (1, 1)}


def test_certified_density_refuses_parameters_outside_its_plan():
    # issue 16: `arete certify --paper-eps 1e4` ended in an OverflowError traceback
    # (float(theta/lam) with theta/lam ~ 1e1082); now a PrecisionError names the parameter
    from fractions import Fraction

    from arete_proofs import PrecisionError
    from arete_proofs.certified import density as CD

    with pytest.raises(PrecisionError, match="theta/lam"):
        CD.pdf(0, Fraction(1, 2), 1, Fraction(1, 10**400), digits=10)
    with pytest.raises(PrecisionError, match="alpha"):
        CD.pdf(0, Fraction(1, 10**400), 1, 1, digits=10)


@pytest.mark.parametrize("r", ["1e-40", "1e-12", "0.3", "1", "3", "1e12", "1e40"])
def test_pdf_at_zero_ball_at_extreme_ratios(r):
    """The ball of f_A(0) stays narrow and contains the alpha = 1/2 closed form
    arccosh(r)/(pi sqrt(r^2 - 1)) (arccos for r < 1, 1/pi at r = 1; computed here with
    mpmath, an independent formula) at every ratio; the older (r-1)/(r+1) form gave a nan ball at 1e40."""
    from mpmath import mp

    from arete_proofs.certified.balls import pdf_at_zero_ball

    with mp.workdps(60):
        x = mp.mpf(r)
        if x > 1:
            ref = mp.acosh(x) / (mp.pi * mp.sqrt(x * x - 1))
        elif x < 1:
            ref = mp.acos(x) / (mp.pi * mp.sqrt(1 - x * x))
        else:
            ref = 1 / mp.pi
        b = pdf_at_zero_ball("0.5", r, 1)
        assert b.is_finite() and float(b.rad()) < 1e-30 * float(b.mid())
        from flint import arb, ctx

        old, ctx.prec = ctx.prec, 200
        try:
            assert (b - arb(mp.nstr(ref, 55))).contains(0)
            # a 1e-25 relative error would be seen
            assert not (b - arb(mp.nstr(ref * (1 + mp.mpf("1e-25")), 55))).contains(0)
        finally:
            ctx.prec = old
