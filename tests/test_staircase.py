"""The Staircase distribution SC(gamma, Delta) (paper, Lemma 27) against independent computations.

References: the paper's recursive definition evaluated with exact rational
step selection (fractions.Fraction), mpmath quadrature over the steps summed
period by period, plain step sums, a golden-section search and findroot on a
numerical derivative.  Every test runs with the global mpmath context at the
default 15 digits and asks the module for more explicitly, so a computation
that leaks to the caller's precision fails the 1e-25..1e-28 comparisons.
"""

import math
from fractions import Fraction as F

import pytest
from mpmath import mp

from arete_proofs.distributions import staircase as sc

TOL30 = mp.mpf(10) ** -28  # 30 digits requested; 2 digits for the reference's own rounding


def rerr(got, ref):
    """Relative error, computed at 80 digits (mpf arithmetic rounds to the context)."""
    with mp.workdps(80):
        return abs(got - ref) / abs(ref)


def aerr(got, ref):
    """Absolute error, computed at 80 digits."""
    with mp.workdps(80):
        return abs(got - ref)


@pytest.fixture(autouse=True)
def _default_precision():
    with mp.workdps(15):
        yield


def M(x):
    """Fraction -> mpf at the current working precision."""
    x = F(x)
    return mp.mpf(x.numerator) / x.denominator


def ref_pdf(t, g, D, e):
    """The paper's definition, literally: step chosen in exact rational arithmetic."""
    t, g, D = F(t), F(g), F(D)
    if t < 0:
        return ref_pdf(-t, g, D, e)
    E = M(e)
    a = (1 - mp.exp(-E)) / (2 * M(D) * (M(g) + mp.exp(-E) * (1 - M(g))))
    k = math.floor(t / D)
    if k >= 1:
        return mp.exp(-k * E) * ref_pdf(t - k * D, g, D, e)
    return a if t < g * D else mp.exp(-E) * a


CASES = [  # (gamma, Delta, eps), exact rationals
    (F(3, 10), F(1, 3), F(2)),
    (F(0), F(2), F(3)),
    (F(1), F(1, 2), F(1)),
    (F(1, 2), F(5), F(1, 2)),
    (F(1, 7), F(7, 10), F(6)),
]


def _grid(g, D, periods=4, n=10):
    pts = set()
    for k in range(periods):
        for b in (k, k + g):  # every period start and every jump point
            pts.add(b * D)
        for j in range(n):
            pts.add((k + F(j, n) + F(1, 3 * n)) * D)
    return sorted(pts | {-p for p in pts})


@pytest.mark.parametrize("g,D,e", CASES)
def test_pdf_is_the_papers_definition(g, D, e):
    for t in _grid(g, D):
        got = sc.pdf(t, g, D, e, digits=30)
        with mp.workdps(40):
            ref = ref_pdf(t, g, D, e)
        assert rerr(got, ref) <= TOL30, t
        lg = sc.logpdf(t, g, D, e, digits=30)
        with mp.workdps(40):
            assert aerr(lg, mp.log(ref)) <= TOL30 * max(1, abs(lg)), t


def test_step_points_given_as_decimal_strings():
    # 0.42/0.1 - 0.2 = 4 is not exact in binary: the jump convention must still hold
    lo = sc.pdf("0.42", "0.2", "0.1", 1, digits=30)
    assert lo == sc.pdf("0.43", "0.2", "0.1", 1, digits=30)
    with mp.workdps(30):
        assert rerr(sc.pdf("0.41", "0.2", "0.1", 1, digits=30) / lo, mp.e) <= TOL30
    assert sc.pdf("-1.3", "0.3", 1, 2) == sc.pdf("1.3", "0.3", 1, 2) == sc.pdf("2", "0.3", 1, 2)


def test_gamma_zero_and_one_are_the_same_distribution():
    # gamma = 0: empty first step, f(0) = e^-eps a(0) = (1 - e^-eps)/(2 Delta) = a(1)
    for t in _grid(F(0), F(1)):
        assert rerr(sc.pdf(t, 0, 1, 2, digits=30), sc.pdf(t, 1, 1, 2, digits=30)) <= TOL30
    assert rerr(sc.cdf("0.7", 0, 1, 2, digits=30), sc.cdf("0.7", 1, 1, 2, digits=30)) <= TOL30


def test_infinities():
    assert sc.pdf(mp.inf, "0.3", 1, 2) == 0 and sc.pdf("-inf", "0.3", 1, 2) == 0
    assert sc.logpdf(mp.ninf, "0.3", 1, 2) == mp.ninf
    assert sc.cdf(mp.inf, "0.3", 1, 2) == 1 and sc.cdf(mp.ninf, "0.3", 1, 2) == 0
    assert sc.sf(mp.inf, "0.3", 1, 2) == 0 and sc.sf(mp.ninf, "0.3", 1, 2) == 1
    assert sc.cdf(0, "0.3", 1, 2) == sc.sf(0, "0.3", 1, 2) == mp.mpf(1) / 2


# --- normalisation, moments: quadrature over the steps, period by period ----------------------


def _moments_by_quadrature(f, g, D, e, digits=30):
    """(mass, E|X|, E X^2) of a symmetric density f by mp.quad on each step, enough periods.

    Gauss-Legendre: on a step the integrands are polynomials of degree <= 2 times f.
    """
    with mp.workdps(digits + 5):
        g, D, E = M(g), M(D), M(e)
        K = int(((digits + 5) * math.log(10) + 8) / float(E)) + 2  # r^K K^2 below 10^-(digits+5)
        s0 = s1 = s2 = mp.zero
        for k in range(K):
            for lo, hi in ((k, k + g), (k + g, k + 1)):
                if hi > lo:
                    iv = [lo * D, hi * D]
                    s0 += mp.quad(f, iv, method="gauss-legendre")
                    s1 += mp.quad(lambda t: t * f(t), iv, method="gauss-legendre")
                    s2 += mp.quad(lambda t: t * t * f(t), iv, method="gauss-legendre")
        return 2 * s0, 2 * s1, 2 * s2


QUAD_CASES = [(F(3, 10), F(1, 3), F(5)), (F(0), F(2), F(6)), (F(5, 8), F(3, 2), F(4))]


@pytest.mark.parametrize("g,D,e", QUAD_CASES)
def test_normalisation_and_moments_by_quadrature(g, D, e):
    mass, m1, m2 = _moments_by_quadrature(lambda t: sc.pdf(t, g, D, e, digits=30), g, D, e)
    # closed forms called outside any workdps block: a precision leak would show at 1e-15
    ma, v = sc.mean_abs(g, D, e, digits=30), sc.var(g, D, e, digits=30)
    assert aerr(mass, 1) <= TOL30
    assert rerr(ma, m1) <= TOL30
    assert rerr(v, m2) <= TOL30


def test_moments_small_eps_by_step_sums():
    # eps = 1/5 needs ~500 periods: sum the exact integrals of t^m over each step times the
    # density at the step's midpoint (the density is constant on each step)
    g, D, e = F(1, 3), F(3, 2), F(1, 5)
    with mp.workdps(35):
        s0 = s1 = s2 = mp.zero
        for k in range(560):
            for lo, hi in ((k + 0, k + g), (k + g, k + 1)):
                a, b = M(lo * D), M(hi * D)
                fv = sc.pdf(M((lo + hi) * D / 2), g, D, e, digits=35)
                s0 += fv * (b - a)
                s1 += fv * (b**2 - a**2) / 2
                s2 += fv * (b**3 - a**3) / 3
        s0, s1, s2 = 2 * s0, 2 * s1, 2 * s2
    assert aerr(s0, 1) <= TOL30
    assert rerr(sc.mean_abs(g, D, e, digits=30), s1) <= TOL30
    assert rerr(sc.var(g, D, e, digits=30), s2) <= TOL30


def test_moments_gamma_one_is_a_mixture_of_uniforms():
    # gamma = 1: |X| is uniform on [k Delta, (k+1) Delta) with probability (1-r) r^k
    with mp.workdps(40):
        D, E = mp.mpf(2), mp.mpf(3)
        r = mp.exp(-E)
        p = lambda k: (1 - r) * r**k
        m1 = mp.nsum(lambda k: p(k) * D * (k + mp.mpf(1) / 2), [0, mp.inf])
        m2 = mp.nsum(lambda k: p(k) * D**2 * (k**2 + k + mp.mpf(1) / 3), [0, mp.inf])
    assert rerr(sc.mean_abs(1, 2, 3, digits=30), m1) <= TOL30
    assert rerr(sc.var(1, 2, 3, digits=30), m2) <= TOL30


# --- cdf / sf ---------------------------------------------------------------------------------


@pytest.mark.parametrize("g,D,e", CASES[:3])
@pytest.mark.parametrize("x", [F(1, 10), F(7, 10), F(23, 10), -F(7, 10), -F(23, 10)])
def test_cdf_is_integral_of_pdf(g, D, e, x):
    t = x * D + F(1, 97)  # off the step points
    got = sc.cdf(t, g, D, e, digits=30)
    with mp.workdps(35):
        # 0, |t| and the step points in between, mirrored for t < 0
        brk = sorted({F(0), abs(t)} | {(k + b) * D for k in range(5) for b in (0, g) if (k + b) * D < abs(t)})
        integral = mp.quad(lambda s: sc.pdf(s, g, D, e, digits=35), [M(b) for b in brk])
        ref = mp.mpf(1) / 2 + (integral if t > 0 else -integral)  # f is symmetric
    assert rerr(got, ref) <= TOL30
    assert sc.cdf(-t, g, D, e, digits=30) == sc.sf(t, g, D, e, digits=30)
    with mp.workdps(80):
        assert abs(sc.cdf(t, g, D, e, digits=30) + sc.sf(t, g, D, e, digits=30) - 1) <= TOL30


def test_sf_tail_has_no_cancellation():
    g, D, e = F(3, 10), F(1), F(2)
    t = F(201, 5)  # about 1e-35 of mass beyond t: 1 - cdf would be 0 at 30 digits
    got = sc.sf(t, g, D, e, digits=30)
    with mp.workdps(35):
        brk = [M(t), M(40 + g)] + [M(k + b) for k in range(41, 80) for b in (0, g)]
        # the mass beyond 80 is < 1e-34 of the total
        ref = mp.quad(lambda s: sc.pdf(s, g, D, e, digits=35), brk, method="gauss-legendre")
    assert got < mp.mpf(10) ** -34
    assert rerr(got, ref) <= TOL30
    # far beyond the float range: the period recursion P(X > t + Delta) = e^-eps P(X > t)
    a, b = sc.sf("20000.45", g, D, e, digits=30), sc.sf("20001.45", g, D, e, digits=30)
    with mp.workdps(40):
        assert rerr(b / a, mp.exp(-2)) <= TOL30
        assert rerr(sc.sf(20000, g, D, e, digits=30), mp.exp(-40000) / 2) <= TOL30


# --- epsilon-DP (Lemma 27) and the privacy loss (Figure 3) ---------------------------------------

LATTICE = 120  # Delta/120: every jump (k + gamma) Delta of the cases below is a lattice point


def _lattice_logpdf(f, D, periods=4):
    """log f at t = j Delta/LATTICE, |j| <= periods*LATTICE, as floats (differences ~ eps)."""
    J = periods * LATTICE
    return J, [float(mp.log(f(F(j, LATTICE) * D))) for j in range(-J, J + 1)]


def _max_log_ratio(lp, J, m):
    """max over lattice t of ln f(t) - ln f(t + m Delta/LATTICE)."""
    return max(lp[i] - lp[i + m] for i in range(max(0, -m), min(2 * J + 1, 2 * J + 1 - m)))


def _dp_loss(f, D):
    """max over lattice t and shifts |a| <= Delta of ln f(t)/f(t + a)."""
    J, lp = _lattice_logpdf(f, D)
    return max(_max_log_ratio(lp, J, m) for m in range(-LATTICE, LATTICE + 1))


DP_CASES = [(F(3, 10), F(1, 3), F(2)), (F(0), F(2), F(3)), (F(1), F(1), F(1, 2)), (F(1, 3), F(5), F(6))]


@pytest.mark.parametrize("g,D,e", DP_CASES)
def test_dp_ratio_bound_attained(g, D, e):
    # the lattice contains every step boundary; between lattice points the density is constant
    loss = _dp_loss(lambda t: sc.pdf(t, g, D, e), D)
    assert abs(loss - float(e)) < 1e-9
    # equality in exact arithmetic: t = 0 against t + Delta, and across the first jump
    with mp.workdps(30):
        E = mp.exp(M(e))
        h = D / LATTICE
        pairs = [(0, D)]  # t = 0 against t + Delta
        if g > 0:  # just below the first jump against the jump point
            pairs.append((g * D - h, h))
        if 0 < g < 1 - F(1, LATTICE):  # across 0 onto the jump point
            pairs.append((-h, g * D + h))
        for t, a in pairs:
            assert abs(a) <= D
            ratio = sc.pdf(t, g, D, e, digits=30) / sc.pdf(t + a, g, D, e, digits=30)
            assert rerr(ratio, E) <= TOL30, (t, a)


@pytest.mark.parametrize("g,D,e", DP_CASES)
def test_privacy_loss_is_the_brute_force_supremum(g, D, e):
    J, lp = _lattice_logpdf(lambda t: sc.pdf(t, g, D, e), D)
    for m in list(range(0, 3 * LATTICE + 1, 7)) + [LATTICE, LATTICE + 1, 2 * LATTICE, 3 * LATTICE]:
        d = F(m, LATTICE) * D
        brute = _max_log_ratio(lp, J, m)
        pl = sc.privacy_loss(d, g, D, e)
        assert abs(float(pl) - brute) < 1e-9, m
        assert sc.privacy_loss(-d, g, D, e) == pl  # symmetric in the shift
        assert pl == M(e) * math.ceil(F(m, LATTICE))


def test_privacy_loss_doubles_past_delta():
    # the paper's remark before Figure 3; decimal inputs whose ratio is an integer
    assert sc.privacy_loss(0, "0.3", "0.1", 6) == 0
    assert sc.privacy_loss("1e-20", "0.3", "0.1", 6) == 6
    assert sc.privacy_loss("0.1", "0.3", "0.1", 6) == 6
    assert sc.privacy_loss("0.3", "0.3", "0.1", 6) == 18
    assert sc.privacy_loss("0.1000001", "0.3", "0.1", 6) == 12
    assert sc.privacy_loss("0.9", "0.3", "0.3", 6) == 18  # 0.9/0.3 rounds above 3 in binary
    assert sc.privacy_loss(mp.inf, "0.3", "0.1", 6) == mp.inf


# --- the checks above detect broken variants -----------------------------------------------------


def _broken_a(g, D, e):  # a(gamma) perturbed by 1 %
    return lambda t: sc.pdf(t, g, D, e) * mp.mpf("1.01")


def _broken_second_step(g, D, e):  # second step e^{-eps/2} a instead of e^{-eps} a
    def f(t):  # t: an mpf from mp.quad
        k = mp.floor(abs(t) / M(D))
        s = abs(t) / M(D) - k
        a = (1 - mp.exp(-M(e))) / (2 * M(D) * (M(g) + mp.exp(-M(e)) * (1 - M(g))))
        return a * mp.exp(-k * M(e)) * (1 if s < M(g) else mp.exp(-M(e) / 2))

    return f


def _broken_decay(g, D, e):  # normalised, but periods decay like e^{-1.5 eps}
    return lambda t: sc.pdf(t, g, D, F(3, 2) * e)


def test_broken_variants_are_detected():
    g, D, e = F(3, 10), F(1, 3), F(5)
    with mp.workdps(20):
        for broken in (_broken_a, _broken_second_step):
            mass, _, _ = _moments_by_quadrature(broken(g, D, e), g, D, e, digits=15)
            assert abs(mass - 1) > mp.mpf("1e-3"), broken.__name__
        mass, _, _ = _moments_by_quadrature(_broken_decay(g, D, e), g, D, e, digits=15)
        assert abs(mass - 1) < mp.mpf("1e-14")
    assert _dp_loss(_broken_decay(g, D, e), D) > float(e) + 1  # normalised but not eps-DP
    # and the real density violates the bound for shifts beyond Delta (ratio e^{2 eps})
    J, lp = _lattice_logpdf(lambda t: sc.pdf(t, g, D, e), D)
    assert _max_log_ratio(lp, J, LATTICE + 1) > 2 * float(e) - 1e-9


# --- optimal gamma ------------------------------------------------------------------------------


def _golden_section(h, lo, hi, tol):
    invphi = (mp.sqrt(5) - 1) / 2
    a, b = mp.mpf(lo), mp.mpf(hi)
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    hc, hd = h(c), h(d)
    while b - a > tol:
        if hc < hd:
            b, d, hd = d, c, hc
            c = b - invphi * (b - a)
            hc = h(c)
        else:
            a, c, hc = c, d, hd
            d = a + invphi * (b - a)
            hd = h(d)
    return (a + b) / 2


@pytest.mark.parametrize("e", ["0.05", "1", "3", "12"])
def test_gamma_mean_abs_is_the_minimiser(e):
    g = sc.gamma_mean_abs(e, digits=30)
    with mp.workdps(30):
        assert rerr(g, 1 / (1 + mp.exp(mp.mpf(e) / 2))) <= TOL30
        h = lambda x: sc.mean_abs(x, "1.7", e, digits=30)
        best = h(g)
        for x in (0, 1, g - mp.mpf("1e-6"), g + mp.mpf("1e-6"), g / 2, (1 + g) / 2):
            assert best < h(x)
        # E|X| is smooth in gamma: golden section locates the minimum to ~sqrt(1e-30)
        assert abs(_golden_section(h, 0, 1, mp.mpf("1e-13")) - g) < mp.mpf("1e-11")
        # stationary point (the derivative is Delta (c^2 - r)/(2 c^2)); digits follow diff's context
        assert abs(mp.diff(lambda x: sc.mean_abs(x, "1.7", e), g)) < mp.mpf("1e-25")


@pytest.mark.parametrize("e", ["0.05", "1", "3", "12", "40"])
def test_gamma_var_is_the_minimiser(e):
    g = sc.gamma_var(e, digits=30)
    with mp.workdps(30):
        h = lambda x: sc.var(x, "0.6", e, digits=30)
        best = h(g)
        for x in (0, 1, g * (1 - mp.mpf("1e-6")), g * (1 + mp.mpf("1e-6")), g / 2, (1 + g) / 2):
            assert best < h(x)
        assert abs(_golden_section(h, 0, 1, g * mp.mpf("1e-14")) / g - 1) < mp.mpf("1e-11")
    with mp.workdps(40):
        # an independent root of d Var / d gamma (numerical derivative), bracketed in (0, 1)
        dh = lambda x: mp.diff(lambda y: sc.var(y, "0.6", e), x)  # digits follow diff's context
        root = mp.findroot(dh, (g / 2, (1 + g) / 2), solver="anderson")
        assert abs(root / g - 1) < mp.mpf("1e-25")
        # Geng & Viswanath's closed form, b = e^-eps
        b = mp.exp(-mp.mpf(e))
        gv = -b / (1 - b) + mp.cbrt(b - 2 * b**2 + 2 * b**4 - b**5) / (mp.cbrt(2) * (1 - b) ** 2)
        # (their form cancels as eps -> 0, about log10(1/eps) digits; 40 digits absorb that)
        assert abs(gv / g - 1) < mp.mpf("1e-25")


def test_the_two_optimal_gammas_differ():
    # Lemma 27's remark; for eps -> 0 both tend to 1/2
    for e in ("0.5", "3", "10"):
        assert sc.gamma_var(e) > sc.gamma_mean_abs(e) * (1 + mp.mpf("1e-3"))
    assert abs(sc.gamma_var("1e-40", digits=30) - mp.mpf(1) / 2) < mp.mpf("1e-30")
    assert abs(sc.gamma_mean_abs("1e-40", digits=30) - mp.mpf(1) / 2) < mp.mpf("1e-30")


def test_asymptotics_of_lemma_27():
    mean_ratios, var_ratios = [], []
    for e in range(5, 41, 5):
        with mp.workdps(30):
            ga, gv = sc.gamma_mean_abs(e, digits=30), sc.gamma_var(e, digits=30)
            mean_ratios.append(sc.mean_abs(ga, 3, e, digits=30) / (3 * mp.exp(-mp.mpf(e) / 2)))
            var_ratios.append(sc.var(gv, 3, e, digits=30) / (9 * mp.exp(-2 * mp.mpf(e) / 3)))
            # beats the Laplace mechanism's Delta/eps and (Delta/eps)^2 * 2
            assert sc.mean_abs(ga, 3, e, digits=30) < mp.mpf(3) / e
            assert sc.var(gv, 3, e, digits=30) < 2 * (mp.mpf(3) / e) ** 2
    # E|X| ~ Delta e^{-eps/2} (limit 1) and Var ~ Delta^2 (e^{-eps}/2)^{2/3} (limit 2^{-2/3})
    assert all(mp.mpf("0.95") < x < mp.mpf("1.05") for x in mean_ratios)
    assert all(mp.mpf("0.6") < x < mp.mpf("0.85") for x in var_ratios)
    assert all(x > y for x, y in zip(mean_ratios, mean_ratios[1:]))
    assert all(x > y for x, y in zip(var_ratios, var_ratios[1:]))
    assert abs(mean_ratios[-1] - 1) < mp.mpf("1e-8")
    assert abs(var_ratios[-1] - mp.mpf(2) ** (-mp.mpf(2) / 3)) < mp.mpf("1e-5")
    # a fixed gamma does not give exponentially small error
    assert sc.mean_abs("0.5", 3, 40) > mp.mpf("0.7")


# --- digits contract and bad input --------------------------------------------------------------


def test_digits_none_follows_the_context():
    with mp.workdps(50):
        a = sc.var("0.3", 2, 7)
        b = sc.cdf("1.234", "0.3", 2, 7)
    assert rerr(a, sc.var("0.3", 2, 7, digits=50)) <= mp.mpf(10) ** -48
    assert rerr(b, sc.cdf("1.234", "0.3", 2, 7, digits=50)) <= mp.mpf(10) ** -48
    assert rerr(sc.var("0.3", 2, 7), a) > mp.mpf(10) ** -30  # and 15 digits outside the block


BAD = [
    (lambda: sc.pdf(0, "-0.1", 1, 1), "gamma"),
    (lambda: sc.pdf(0, "1.0001", 1, 1), "gamma"),
    (lambda: sc.cdf(0, "nan", 1, 1), "gamma"),
    (lambda: sc.sf(0, mp.inf, 1, 1), "gamma"),
    (lambda: sc.mean_abs(2, 1, 1), "gamma"),
    (lambda: sc.pdf(0, "0.5", 0, 1), "Delta"),
    (lambda: sc.logpdf(0, "0.5", -1, 1), "Delta"),
    (lambda: sc.var("0.5", "nan", 1), "Delta"),
    (lambda: sc.cdf(0, "0.5", "inf", 1), "Delta"),
    (lambda: sc.pdf(0, "0.5", 1, 0), "eps"),
    (lambda: sc.sf(0, "0.5", 1, -2), "eps"),
    (lambda: sc.gamma_mean_abs("nan"), "eps"),
    (lambda: sc.gamma_var(0), "eps"),
    (lambda: sc.privacy_loss(1, "0.5", 1, "-1"), "eps"),
    (lambda: sc.pdf("nan", "0.5", 1, 1), "t"),
    (lambda: sc.cdf("x", "0.5", 1, 1), "t"),
    (lambda: sc.privacy_loss("nan", "0.5", 1, 1), "d"),
    (lambda: sc.mean_abs("0.5", 1, 1, digits=0), "digits"),
]


@pytest.mark.parametrize("call,name", BAD)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        call()
