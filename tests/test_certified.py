"""Tests for arete_proofs.certified (python-flint ball arithmetic)."""

import pytest

flint = pytest.importorskip("flint")

from mpmath import mp  # noqa: E402

from arete_proofs import arete, certified as C  # noqa: E402


def test_certify_box_generic():
    c = C.certify_box(lambda x, y: 3 - x * x - y * y, {"x": ("-1", "1"), "y": (0, 1)})
    assert c.holds is True and c.boxes and c.undecided_or_refuted_box is None
    bad = C.certify_box(lambda x: x - flint.arb("0.5"), {"x": (0, 1)})
    assert bad.holds is False and bad.undecided_or_refuted_box is not None
    # margin with a zero in the box: undecided (never certain)
    und = C.certify_box(lambda x: x * x, {"x": (-1, 1)}, max_depth=8)
    assert und.holds is None and und.undecided_or_refuted_box is not None


@pytest.mark.parametrize("f", [C.note2_certificate, C.lemma19_certificate, C.lemma28_certificate,
                               C.lemma14_upper_certificate])
def test_true_statements_certified(f):
    c = f()
    assert c.holds is True
    assert c.undecided_or_refuted_box is None
    assert c.min_margin() > 0


@pytest.mark.parametrize("f", [C.note2_false_certificate, C.lemma19_false_certificate])
def test_false_statements_refuted(f):
    c = f()
    assert c.holds is False
    assert isinstance(c.undecided_or_refuted_box, dict)


PARAMS = [("0.3", "2", "0.5"), ("1", "2", "3"), ("0.05", "0.5", "0.05"), ("0.007", "3.1", "0.2"), ("2.5", "0.3", "1.7")]


@pytest.mark.parametrize("p", PARAMS)
def test_pdf_at_zero_ball_contains_engine(p):
    b = C.pdf_at_zero_ball(*p, prec=64)
    with mp.workdps(40):
        e1 = arete.pdf_at_zero(*p, digits=30)
        e2 = arete.pdf(0, *p, digits=30)
    # engine values (30 digits) lie well inside the 64-bit ball
    assert b.overlaps(C._to_arb(e1)) and b.overlaps(C._to_arb(e2))
    assert abs(e1 - e2) < mp.mpf(10) ** -28 * abs(e1)
    hi = C.pdf_at_zero_ball(*p, prec=256)
    assert hi.rad() < b.rad() and b.contains(hi)
    with mp.workdps(40):
        assert abs(mp.mpf(hi.mid().str(35, radius=False)) - e1) < mp.mpf(10) ** -28 * abs(e1)


def test_gg_closed_form_matches_engine():
    from arete_proofs import gamma_gamma

    for a, t in [("0.3", "0.7"), ("0.8", "2.5"), ("0.05", "10")]:
        A, T = flint.arb(a), flint.arb(t)
        val = (C._log_fgg_plus_t(A, T) - T - A.lgamma()).exp()
        e = gamma_gamma.pdf(t, a, 1, digits=25)
        assert val.contains(C._to_arb(e)) and val.rad() < 1e-4 * abs(float(e))
