"""The digits contract of the Arete engine, tested against independent methods.

Contract (docs/explanation/densities.md): ``arete.pdf(t, ..., digits=d)`` has relative
error below ``10**-d``.  The references never share code with the engine:

* ``tests/data/arete_reference.json``: the 1F1 autocorrelation form at 60
  digits (``arete_proofs.reference.autocorrelation_pdf``; regenerate with
  ``tests/data/make_reference.py``);
* closed forms: ``f_A(0)`` (2F1), alpha = 1 (two Laplace densities),
  lam = theta (Gamma-Gamma(alpha + 1), Bessel K), alpha -> 0 (Laplace);
* live calls of the autocorrelation and Fourier methods on a few points;
* the direct Bessel-K convolution (a second engine route) for 1/2 < alpha < 1.

The tests run at mpmath's default global precision (15 digits) on purpose: an
internal operation done at the caller's precision shows up as an error near
1e-16 (this caught ``abs(t)`` rounding once).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mpmath import mp

from arete_proofs import PrecisionError, reference

from arete_proofs.distributions import arete

DATA = json.loads((Path(__file__).parent / "data" / "arete_reference.json").read_text())


def _value(text):
    with mp.workdps(120):
        if text.startswith("exp("):
            return mp.exp(mp.mpf(text[4:-1]))
        return mp.mpf(text)


def _rel(x, y):
    with mp.workdps(120):
        return abs(mp.mpf(x) - mp.mpf(y)) / abs(mp.mpf(y))


def _assert_digits(got, ref, d, what=""):
    err = _rel(got, ref)
    assert err < mp.mpf(10) ** -d, f"{what}: relative error {mp.nstr(err, 3)} exceeds 1e-{d}"


CASES = [pytest.param(c, id=c["label"].replace(" ", "_")) for c in DATA["cases"]]


@pytest.mark.parametrize("digits", [15, 30, 50])
@pytest.mark.parametrize("case", CASES)
def test_digits_contract_against_autocorrelation(case, digits):
    """Every grid point, batch and single calls, at 15/30/50 digits."""
    alpha, theta, lam = (_value(case[k]) for k in ("alpha", "theta", "lam"))
    pts = [p["t"] for p in case["points"]]
    refs = [p["pdf"] for p in case["points"]]
    got = arete.pdf(pts, alpha, theta, lam, digits=digits)
    for t, g, r in zip(pts, got, refs):
        _assert_digits(g, r, digits, f"{case['label']} t={t}")
    # a single-point call takes the same route and meets the same contract
    _assert_digits(arete.pdf(pts[2], alpha, theta, lam, digits=digits), refs[2], digits, "single")


def test_reference_grid_spans_the_required_ranges():
    alphas = [_value(c["alpha"]) for c in DATA["cases"]]
    assert min(alphas) <= mp.mpf("1.000001e-7") and max(alphas) >= 10
    ratios = [_value(c["theta"]) / _value(c["lam"]) for c in DATA["cases"]]
    assert min(ratios) <= mp.mpf("1.000001e-6") and max(ratios) >= mp.mpf("0.999999e6")
    ts = [mp.mpf(p["t"]) for c in DATA["cases"] for p in c["points"]]
    assert 0 in ts and min(t for t in ts if t > 0) <= mp.mpf("1.000001e-8")
    vals = [mp.mpf(p["pdf"]) for c in DATA["cases"] for p in c["points"]]
    assert min(vals) < mp.mpf("1e-300")
    assert DATA["digits"] >= 55


# -- a deliberately broken method must fail the same comparison ---------------------


def test_naive_quadrature_fails_the_contract():
    """The harness can fail: mp.quad of Definition 9 misses the singular mass at 0."""
    case = next(c for c in DATA["cases"] if c["label"] == "paper eps=20")
    alpha, theta, lam = (_value(case[k]) for k in ("alpha", "theta", "lam"))
    ref = case["points"][0]["pdf"]  # t = 0, f_A(0) = 70.87...
    bad = reference.naive_pdf(0, alpha, theta, lam, digits=15)
    assert _rel(bad, ref) > mp.mpf("0.1")  # about 46.2 instead of 70.87


def test_perturbed_parameter_is_detected():
    """A 1e-20 relative change of alpha is visible at 30 digits (the check is sharp)."""
    case = next(c for c in DATA["cases"] if c["label"] == "fig4 eps=6")
    alpha, theta, lam = (_value(case[k]) for k in ("alpha", "theta", "lam"))
    p = case["points"][3]
    with mp.workdps(60):
        alpha_bad = alpha * (1 + mp.mpf("1e-20"))
    got = arete.pdf(p["t"], alpha_bad, theta, lam, digits=30)
    assert _rel(got, p["pdf"]) > mp.mpf(10) ** -30


# -- closed forms ------------------------------------------------------------------


@pytest.mark.parametrize("alpha", ["1e-7", "0.0067", "0.3", "0.5", "0.9", "2", "10"])
@pytest.mark.parametrize("theta,lam", [("1", "1e-3"), ("1e-3", "1"), ("1", "0.999"), ("1e3", "1e-3"), ("0.2", "1.001")])
def test_t_zero_against_hypergeometric_closed_form(alpha, theta, lam):
    ref = reference.pdf_at_zero(alpha, theta, lam, digits=40)
    _assert_digits(arete.pdf(0, alpha, theta, lam, digits=30), ref, 30)


@pytest.mark.parametrize("theta,lam", [("1", "0.3"), ("0.01", "5"), ("2", "2.000001")])
@pytest.mark.parametrize("t", ["0", "1e-8", "0.5", "3", "40"])
def test_alpha_one_is_a_sum_of_two_laplace(theta, lam, t):
    ref = reference.pdf_alpha_one(t, theta, lam, digits=40)
    _assert_digits(arete.pdf(t, 1, theta, lam, digits=30), ref, 30)


@pytest.mark.parametrize("alpha", ["1e-7", "0.3", "0.5", "1", "3.5"])
@pytest.mark.parametrize("t", ["0", "1e-8", "0.7", "30"])
def test_lam_equal_theta_is_gamma_gamma_alpha_plus_one(alpha, t):
    ref = reference.pdf_lam_equals_theta(t, alpha, "0.7", digits=40)
    _assert_digits(arete.pdf(t, alpha, "0.7", "0.7", digits=30), ref, 30)
    # and rho = 1 +- 1e-12 (cancellation between principal value and pole) is continuous
    near = arete.pdf(t, alpha, "0.7", "0.7000000000007", digits=20)
    assert _rel(near, ref) < mp.mpf("1e-10")


def test_alpha_to_zero_is_laplace():
    lam = mp.mpf("0.3")
    for t in ["0", "0.1", "2"]:
        with mp.workdps(40):
            lap = mp.exp(-abs(mp.mpf(t)) / lam) / (2 * lam)
        # f_A - f_L = O(alpha) as alpha -> 0
        assert _rel(arete.pdf(t, "1e-30", 1, lam, digits=20), lap) < mp.mpf("1e-28")


@pytest.mark.parametrize("alpha,theta,lam", [("0.6", "1", "0.3"), ("0.9", "0.3", "1"), ("0.99", "1", "0.999")])
@pytest.mark.parametrize("t", ["0", "1e-8", "0.4", "5", "80"])
def test_branch_cut_against_direct_convolution(alpha, theta, lam, t):
    """For 1/2 < alpha < 1 both engine routes apply; they share no integrand.  22 digits (the reference at 36
    digits, quadrature tolerance 1e-28): the direct convolution costs 2.5 to 4 times more at 30 digits, which
    one point keeps (below)."""
    _against_direct(alpha, theta, lam, t, digits=22, dps=36, quad_tol=28)


def test_branch_cut_against_direct_convolution_at_30_digits():
    _against_direct("0.6", "1", "0.3", "0.4", digits=30, dps=50, quad_tol=40)


def _against_direct(alpha, theta, lam, t, *, digits, dps, quad_tol):
    from arete_proofs.distributions._direct import arete_direct

    with mp.workdps(dps):
        ref, _ = arete_direct(mp.mpf(t), mp.mpf(alpha), mp.mpf(theta), mp.mpf(lam), "pdf", mp.mpf(10) ** -quad_tol)
    _assert_digits(arete.pdf(t, alpha, theta, lam, digits=digits), ref, digits)


# -- live independent methods --------------------------------------------------------


@pytest.mark.parametrize("t", ["0.25", "1.5"])
def test_against_fourier_inversion(t):
    a, th, lam = "0.2", "1", "0.4"
    ref = reference.fourier_pdf(t, a, th, lam, digits=20)
    _assert_digits(arete.pdf(t, a, th, lam, digits=18), ref, 18)


def test_against_live_autocorrelation():
    a, th, lam = "0.05", "0.5", "0.08"
    for t in ["0", "0.01", "2"]:
        ref = reference.autocorrelation_pdf(t, a, th, lam, digits=20)
        _assert_digits(arete.pdf(t, a, th, lam, digits=18), ref, 18)


# -- structure: symmetry, monotonicity, normalisation, CDF --------------------------


def _gl_integral(batch_fn, pts, degree=5):
    """Gauss-Legendre over consecutive pieces of ``pts`` (mpmath's nodes), one batch call.

    ``batch_fn`` maps a list of points to a list of values; evaluating all
    nodes in one engine call keeps these integration tests cheap.
    """
    from mpmath.calculus.quadrature import GaussLegendre

    std = GaussLegendre(mp).calc_nodes(degree, mp.prec)
    xs, ws = [], []
    for a, b in zip(pts, pts[1:]):
        half, mid = (b - a) / 2, (b + a) / 2
        for x, w in std:
            xs.append(mid + half * x)
            ws.append(half * w)
    return mp.fsum(w * v for w, v in zip(ws, batch_fn(xs)))



PAPER20 = (mp.exp(-5), "0.2", mp.exp(-5))


def test_symmetry_and_monotonicity_lemma_2():
    ts = ["0", "1e-9", "1e-6", "0.001", "0.05", "0.3", "1", "4"]
    f = arete.pdf(ts, *PAPER20, digits=20)
    g = arete.pdf(["-" + t for t in ts], *PAPER20, digits=20)
    assert f == g
    assert all(x > y for x, y in zip(f, f[1:]))


def test_cdf_is_the_integral_of_the_pdf():
    # the sf uses a different integrand (extra 1/sigma); integrate the pdf between points
    a, th, lam = "0.3", "1", "0.5"
    with mp.workdps(30):
        pts = [mp.mpf(x) for x in ("0.5", "1", "2", "4")]
        area = _gl_integral(lambda xs: arete.pdf(xs, a, th, lam, digits=25), pts)
        diff = arete.cdf(pts[-1], a, th, lam, digits=25) - arete.cdf(pts[0], a, th, lam, digits=25)
    assert _rel(diff, area) < mp.mpf("1e-22")


def test_density_integrates_to_one():
    # 2 * int_0^inf f_A = 1 by quadrature of the pdf: the pdf has zero slope but
    # unbounded curvature at 0 (alpha < 1/2), so pieces shrink geometrically there
    a, th, lam = "0.3", "1", "0.5"
    with mp.workdps(25):
        pts = [mp.zero] + [mp.mpf(4) ** k for k in range(-12, 5)] + [mp.mpf(120)]
        total = 2 * _gl_integral(lambda xs: arete.pdf(xs, a, th, lam, digits=20), pts)
    assert abs(total - 1) < mp.mpf("1e-15")


def test_cdf_sf_tails_and_symmetry():
    a, th, lam = "0.05", "0.5", "0.05"
    assert arete.cdf(0, a, th, lam) == mp.mpf(1) / 2
    s = arete.sf("300", a, th, lam, digits=20)
    c = arete.cdf("-300", a, th, lam, digits=20)
    assert s == c and 0 < s < mp.mpf("1e-250")
    assert _rel(arete.cdf("0.3", a, th, lam, digits=20) + arete.cdf("-0.3", a, th, lam, digits=20), 1) < mp.mpf("1e-20")


def test_sf_against_autocorrelation_sf():
    a, th, lam = "0.1", "1", "0.3"
    for t in ["0.2", "3"]:
        ref = reference.autocorrelation_sf(t, a, th, lam, digits=20)
        _assert_digits(arete.sf(t, a, th, lam, digits=18), ref, 18)


def test_self_consistency_across_precisions():
    """mpmath-style torture: neighbouring precisions agree to the lower one."""
    a, th, lam = "0.01922231819807612", "0.8312962061581013", "0.02547890283133737"
    ts = ["0", "1e-7", "0.02", "0.9", "6"]
    prev = None
    for d in (10, 20, 35, 60):
        cur = arete.pdf(ts, a, th, lam, digits=d)
        if prev is not None:
            for x, y in zip(prev[1], cur):
                assert _rel(x, y) < mp.mpf(10) ** -prev[0]
        prev = (d, cur)


# -- moments -------------------------------------------------------------------------


# alpha >= 1 is covered against fast.mean_abs (an independent quadrature) in
# test_fast_vs_engine.py; the sf for alpha >= 1 is too slow for 1500 nodes here.
@pytest.mark.parametrize("alpha,theta,lam", [("0.05", "0.5", "0.08"), ("0.7", "1", "0.3"), ("1e-7", "0.1", "0.001")])
def test_mean_abs_closed_form_is_twice_the_integral_of_sf(alpha, theta, lam):
    with mp.workdps(25):
        scale = max(mp.mpf(theta), mp.mpf(lam))
        pts = [mp.zero] + [scale * mp.mpf(2) ** k for k in range(-24, 8)]  # sf(128 scale) < 1e-40
        ref = 2 * _gl_integral(lambda xs: arete.sf(xs, alpha, theta, lam, digits=20), pts)
    assert _rel(arete.mean_abs(alpha, theta, lam, digits=20), ref) < mp.mpf("1e-15")


def test_mean_abs_below_the_papers_bound():
    for eps in (20, 30, 60):
        with mp.workdps(40):
            a = mp.exp(-mp.mpf(eps) / 4)
            th = mp.mpf(4) / eps
        assert arete.mean_abs(a, th, a) <= 2 * a * th + a


def test_variance():
    assert arete.var("0.5", 2, 1) == 6


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,name",
    [
        (dict(alpha="-1"), "alpha"),
        (dict(alpha="nan"), "alpha"),
        (dict(theta="0"), "theta"),
        (dict(theta="inf"), "theta"),
        (dict(lam="x"), "lam"),
        (dict(t="nan"), "t"),
        (dict(digits=0), "digits"),
        (dict(digits=10**6), "digits"),
        (dict(digits=2.5), "digits"),
    ],
)
def test_bad_input(kwargs, name):
    args = dict(t="0.5", alpha="0.1", theta="1", lam="0.1", digits=15)
    args.update(kwargs)
    for fn in (arete.pdf, arete.cdf, arete.logpdf):
        with pytest.raises(ValueError, match=name):
            fn(args["t"], args["alpha"], args["theta"], args["lam"], digits=args["digits"])


def test_unreachable_precision_raises_instead_of_guessing(monkeypatch):
    import arete_proofs.distributions._cut as cut

    monkeypatch.setattr(cut, "_MAX_LEVEL", 2)  # a quadrature budget too small for 30 digits
    with pytest.raises(PrecisionError):
        arete.pdf("0.5", "0.1", "1", "0.1", digits=30)
