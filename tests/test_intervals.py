"""The float64 interval bounds of ``certified.intervals`` and the covers' vectorised first pass.

Independent method: exact rational arithmetic (``fractions.Fraction``) on the floats' exact values.
The broken variants (rounding to nearest instead of outward; the parabola's bound without its
K term) are built here and refuted by the same exact check.
"""

from fractions import Fraction

import numpy as np
import pytest

from arete_proofs.certified import intervals


def _exact_qmax(v, s, k, d):
    """max of v + s x + k x^2/2 over |x| <= d, exactly (the ends and the vertex)."""
    xs = [-d, d] + ([-s / k] if k < 0 and abs(s / k) <= d else [])
    return max(v + s * x + k * x * x / 2 for x in xs)


def _inputs(n, seed):
    rng = np.random.default_rng(seed)
    big = rng.choice([1.0, 1e3, 1e-3], n)            # magnitudes as in the covers: G ~ -lambda u is large
    v = rng.normal(size=n) * big
    s0 = rng.normal(size=n) * big
    s1 = s0 + np.abs(rng.normal(size=n)) * 1e-9
    k = rng.normal(size=n) * 10
    return v, s0, s1, k


def test_qmax_is_an_upper_bound_of_the_exact_maximum_and_close_to_it():
    v, s0, s1, k = _inputs(400, 1)
    d = Fraction(1, 32)
    got = intervals.qmax(v, s0, s1, k, d)
    for i in range(len(v)):
        V, K = Fraction(v[i]), Fraction(k[i])
        ex = max(_exact_qmax(V, Fraction(s), K, d) for s in (s0[i], s1[i]))
        S = max(abs(Fraction(s0[i])), abs(Fraction(s1[i])))
        formula = min(V + S * d, V + S * S / (2 * -K)) if K < 0 else V + S * d + K * d * d / 2   # combs_gauss._qmax
        assert ex <= formula <= Fraction(got[i])
        assert float(Fraction(got[i]) - formula) <= 1e-12 * (1 + abs(v[i]) + abs(s0[i]) + abs(s0[i]) ** 2 / abs(k[i]))


def test_a_qmax_without_its_curvature_term_or_rounded_to_nearest_is_refuted():
    v, s0, s1, k = _inputs(2000, 2)
    d = Fraction(1, 32)
    dd = float(d)
    S = np.maximum(np.abs(s0), np.abs(s1))
    no_k = v + S * dd                                          # drops max(K, 0) d^2 / 2
    nearest = np.where(k < 0, np.minimum(v + S * dd, v + S * S / (-2 * k)), v + S * dd + np.maximum(k, 0) * dd * dd / 2)
    exact = [max(_exact_qmax(Fraction(v[i]), Fraction(s), Fraction(k[i]), d) for s in (s0[i], s1[i]))
             for i in range(len(v))]
    assert any(Fraction(no_k[i]) < exact[i] for i in range(len(v)))
    assert any(Fraction(nearest[i]) < exact[i] for i in range(len(v)))   # rounding down happens: not a bound


def test_sub_and_from_balls_enclose_the_exact_values():
    from flint import arb

    rng = np.random.default_rng(3)
    a, b = rng.normal(size=300) * 1e3, rng.normal(size=300)
    lo, hi = intervals.sub(a, a, b, b)
    assert all(Fraction(lo[i]) <= Fraction(a[i]) - Fraction(b[i]) <= Fraction(hi[i]) for i in range(300))
    # rounded to nearest, about half the differences would lie on the wrong side of one of the ends
    assert any(Fraction(a[i] - b[i]) != Fraction(a[i]) - Fraction(b[i]) for i in range(300))
    balls = [arb(1) / (i + 3) for i in range(50)] + [arb(0, float("inf"))]
    lo, hi = intervals.from_balls(balls)
    assert all(lo[i] < 1 / (i + 3) < hi[i] for i in range(50))
    assert (lo[-1], hi[-1]) == (-np.inf, np.inf)


def test_range_min_against_a_loop():
    rng = np.random.default_rng(4)
    vals = rng.normal(size=200)
    i = rng.integers(0, 201, 500)
    j = rng.integers(0, 201, 500)
    got = intervals.range_min(vals, i, j)
    want = [min(vals[a:b], default=np.inf) for a, b in zip(i, j)]
    assert got.tolist() == want
    assert intervals.range_min(np.array([]), np.array([0]), np.array([1])).tolist() == [np.inf]


@pytest.mark.parametrize("a,m,sigma,h,a_top", [("3", 2, "0.2", "0.5", None), ("5.94515", 12, "0.03546", "1/12", None),
                                               ("6.31425", 16, "0.03379", "1/16", "5.93209")])
def test_the_vectorised_first_pass_gives_the_same_certificate_as_the_ball_one(monkeypatch, a, m, sigma, h, a_top):
    """Bit for bit: lower, upper, cells and the maximiser (so the shipped certificates re-check unchanged)."""
    from arete_proofs.certified import combs_gauss

    out = []
    for vectorised in (False, True):
        monkeypatch.setattr(combs_gauss, "_VECTORISED_SWEEP", vectorised)
        r = combs_gauss.certify_lattice_gauss(a, m, sigma, h, 1, tol="1e-6", a_top=a_top)
        out.append((r.lower, r.upper, r.window_upper, r.window_lower, r.tail_upper, r.cells, r.t_star))
    assert out[0] == out[1]
