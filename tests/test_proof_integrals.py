"""The proof integrals of :mod:`arete_proofs.chain.proof_integrals` against independent methods.

References (none of them uses the incomplete-gamma / 1F1 closed forms of the module):

* ``near_mass``: mpmath tanh-sinh quadrature (``mp.quad``) of the defining
  integral ``int_0^{D_u} f_Gamma(y) [f_L(t-y) + f_L(t+y)] dy`` with the *signed*
  ``t``.  For ``alpha < 1`` the substitution ``y = D_u v^(1/alpha)``, written in
  ``w = 1 - v`` (``y = D_u exp(log1p(-w)/alpha)``, ``y^(alpha-1) dy = D_u^alpha/alpha dv``),
  removes the ``y^(alpha-1)`` singularity; for ``alpha >= 1`` the integral is
  taken in ``y``.  Breakpoints at the kink ``y = |t|``, at ``|t| +- lam 8^j``,
  ``theta 8^j`` and ``D_u - lam 8^j``.
* ``shifted_convolution``: mp.quad of ``f_Gamma(D_Gamma + |s-x|) f_L(x)`` over
  the whole real line in ``x`` with breakpoints at ``0``, ``s``,
  ``+-k``, ``s +- k`` for ``k = lam 8^j``, ``theta 8^j``, ``D_Gamma 8^j``.
* ``variance_from_cf``: Lemma 3's closed form ``2 alpha theta^2 + 2 lam^2``.
* Closed forms for ``alpha = 1`` (Laplace-Laplace convolution) and the paper's
  inequalities (eq. (6), Lemma 15, Claim 1).

Every quadrature reference is run at ``digits + 15`` working digits with the
integrand divided by its largest breakpoint value (so mp.quad's absolute
stopping rule is a relative one) and must report an error estimate below
``1e-31`` relative before it is used for a 30-digit comparison.
"""

import math

import pytest
from mpmath import mp

from arete_proofs import PrecisionError

from arete_proofs.distributions import gamma, laplace
from arete_proofs.chain import proof_integrals as pi
from arete_proofs.chain.proof_integrals import near_mass, shifted_convolution, variance_from_cf

# ---------------------------------------------------------------------------
# independent references
# ---------------------------------------------------------------------------

REF_DIGITS = 30
REF_TOL = mp.mpf(10) ** -31  # a reference must certify itself to this (relative)


def _geo(lo, hi, r=8):
    out = []
    x = lo
    while x < hi:
        out.append(x)
        x *= r
    return out


def _quad_scaled(F, pts):
    """mp.quad of F over the breakpoints, with F divided by its largest breakpoint value."""
    S = max(F(p) for p in pts if not mp.isinf(p))
    v, e = mp.quad(lambda x: F(x) / S, pts, error=True)
    return v * S, e * S


def ref_near_mass(t, D, a, th, lam, dps=REF_DIGITS):
    """Quadrature of int_0^D f_Gamma(y) [f_L(t-y) + f_L(t+y)] dy (see module docstring)."""
    with mp.workdps(dps + 15):
        t, D, a, th, lam = (mp.mpf(v) for v in (t, D, a, th, lam))
        tau = abs(t)

        def g(y):  # signed t: evenness is checked, not assumed
            return mp.exp(-y / th) * (mp.exp(-abs(t - y) / lam) + mp.exp(-abs(t + y) / lam))

        ys = {tau}
        for k in _geo(lam / 64, 4 * D):
            ys.update({tau + k, tau - k, D - k, k})
        for k in _geo(th / 64, 4 * D):
            ys.update({tau + k, tau - k, k})
        norm = 1 / (2 * lam * mp.gamma(a) * th**a)
        if a < 1:
            ws = sorted({mp.zero, mp.one} | {-mp.expm1(a * mp.log(y / D)) for y in ys if 0 < y < D})
            v, e = _quad_scaled(lambda w: g(D * mp.exp(mp.log1p(-w) / a)), ws)
            norm *= D**a / a
        else:
            ys = sorted({mp.zero, D} | {y for y in ys if 0 < y < D})
            v, e = _quad_scaled(lambda y: y ** (a - 1) * g(y), ys)
        assert e <= REF_TOL * v, f"reference quadrature not converged: {e / v}"
        return v * norm


def ref_shifted_convolution(s, D, a, th, lam, dps=REF_DIGITS):
    """Quadrature of int_R f_Gamma(D + |s-x|) f_L(x) dx in x (see module docstring)."""
    with mp.workdps(dps + 15):
        s, D, a, th, lam = (mp.mpf(v) for v in (s, D, a, th, lam))

        def F(x):
            z = D + abs(s - x)
            return z ** (a - 1) * mp.exp(-z / th - abs(x) / lam)

        R = abs(s) + 100 * (th + lam + D)
        xs = {mp.zero, s}
        for sc in (lam, th, D):
            for k in _geo(sc / 64, R):
                xs.update({k, -k, s + k, s - k})
        pts = [mp.ninf] + sorted(xs) + [mp.inf]
        v, e = _quad_scaled(F, pts)
        assert e <= REF_TOL * v, f"reference quadrature not converged: {e / v}"
        return v / (2 * lam * mp.gamma(a) * th**a)


def assert_rel(got, ref, digits, what=""):
    with mp.workdps(digits + 30):
        err = abs(got - ref) / abs(ref)
        assert err < mp.mpf(10) ** -digits, f"{what}: relative error {mp.nstr(err, 3)} >= 1e-{digits}"


# the grid of the brief: alpha down to e^-15, theta/lam from 1e-3 to 1e6
with mp.workdps(40):
    ALPHA_E15 = mp.nstr(mp.exp(-15), 40)
ALPHAS = [ALPHA_E15, "1e-3", "0.1", "0.5", "0.99", "1", "2.5"]
RATIOS = ["1e-3", "1", "1e3", "1e6"]  # theta / lam with theta = 1


def _id(v):
    return "e^-15" if v == ALPHA_E15 else str(v)


def _lam(ratio):
    return str(mp.mpf(1) / mp.mpf(ratio)) if ratio != "1e6" else "1e-6"


# ---------------------------------------------------------------------------
# near_mass
# ---------------------------------------------------------------------------

D_U = "1"


@pytest.mark.parametrize("ratio", RATIOS)
@pytest.mark.parametrize("alpha", ALPHAS, ids=_id)
def test_near_mass_kink_inside_all_alpha_ratios(alpha, ratio):
    # t = D_u/2: |t - y| changes sign inside [0, D_u], the hardest split
    t = "0.5"
    lam = _lam(ratio)
    assert_rel(near_mass(t, D_U, alpha, 1, lam, digits=30), ref_near_mass(t, D_U, alpha, 1, lam), 30, (alpha, ratio))


T_SWEEP = ["0", "1e-3", "0.5", "1", "3", "50", "-1e-3", "-1", "-50"]  # in units theta = D_u = 1


@pytest.mark.parametrize("t", T_SWEEP)
@pytest.mark.parametrize("alpha,ratio", [(ALPHA_E15, "1e6"), ("0.5", "1e-3"), ("2.5", "1e3")], ids=_id)
def test_near_mass_t_sweep(t, alpha, ratio):
    lam = _lam(ratio)
    assert_rel(near_mass(t, D_U, alpha, 1, lam, digits=30), ref_near_mass(t, D_U, alpha, 1, lam), 30, (t, alpha, ratio))


def test_near_mass_theta_equals_lam_and_scales():
    # c_- = 1/theta - 1/lam = 0 exactly, and a wide D_u / theta mismatch
    for args in [("0.3", "1", "0.3", "2", "2"), ("7", "2e3", "0.01", "1e3", "1e-2"), ("1e-30", "1e-6", "1e-7", "1", "1e-7")]:
        assert_rel(near_mass(*args, digits=30), ref_near_mass(*args), 30, args)


def test_near_mass_alpha_one_closed_form():
    # alpha = 1, D_u -> infinity: int f_Gamma(|t-x|) f_L(x) dx is the Laplace(theta) * Laplace(lam)
    # convolution times 2 theta: theta (theta e^{-|t|/theta} - lam e^{-|t|/lam}) / (theta^2 - lam^2)
    with mp.workdps(50):
        th, lam, t = mp.mpf(3), mp.mpf("0.25"), mp.mpf("1.5")
        ref = (th * mp.exp(-t / th) - lam * mp.exp(-t / lam)) / (th**2 - lam**2)
    # D_u = 10^4: the truncated mass is e^{-3333} relative
    assert_rel(near_mass("1.5", "1e4", 1, 3, "0.25", digits=40), ref, 40)


@pytest.mark.parametrize("alpha", [ALPHA_E15, "0.1", "0.99", "1"], ids=_id)
@pytest.mark.parametrize("ratio", ["1e-3", "1", "1e6"])
def test_near_mass_eq6_bound(alpha, ratio):
    # eq. (6): for |t| >= D_u, N(t) <= f_L(|t| - D_u) c_Du with c_Du = 2 P(X <= D_u);
    # and trivially N(t) >= f_L(|t| + D_u) c_Du
    lam = _lam(ratio)
    c_Du = 2 * gamma.cdf(D_U, alpha, 1, digits=30)
    for t in ["1", "3", "50", "-3", "-1"]:
        n = near_mass(t, D_U, alpha, 1, lam, digits=30)
        with mp.workdps(40):
            at = abs(mp.mpf(t))
            up = laplace.pdf(at - 1, lam, digits=30) * c_Du
            lo = laplace.pdf(at + 1, lam, digits=30) * c_Du
            assert lo <= n <= up, (t, alpha, ratio)


def test_near_mass_even():
    for t in ["1e-3", "0.5", "1", "3", "50"]:
        for alpha, lam in [("0.1", "1e-6"), ("2.5", "1e3")]:
            a = near_mass(t, D_U, alpha, 1, lam, digits=25)
            b = near_mass("-" + t, D_U, alpha, 1, lam, digits=25)
            assert a == b


# ---------------------------------------------------------------------------
# shifted_convolution
# ---------------------------------------------------------------------------

D_G = "0.5"


@pytest.mark.parametrize("ratio", RATIOS)
@pytest.mark.parametrize("alpha", ALPHAS, ids=_id)
def test_shifted_convolution_all_alpha_ratios(alpha, ratio):
    s = "3"
    lam = _lam(ratio)
    assert_rel(
        shifted_convolution(s, D_G, alpha, 1, lam, digits=30),
        ref_shifted_convolution(s, D_G, alpha, 1, lam),
        30,
        (alpha, ratio),
    )


@pytest.mark.parametrize(
    "s,alpha,lam",
    [
        ("0", "0.1", "1e-3"),
        ("1e-3", ALPHA_E15, "1e-6"),
        ("-0.5", "0.5", "1e3"),
        ("1e3", "0.1", "1e-7"),  # lam << theta, large s (the brief's stress case)
        ("-1e3", "0.99", "1e-7"),
        ("50", "2.5", "1"),
    ],
    ids=_id,
)
def test_shifted_convolution_s_sweep(s, alpha, lam):
    assert_rel(
        shifted_convolution(s, D_G, alpha, 1, lam, digits=30),
        ref_shifted_convolution(s, D_G, alpha, 1, lam),
        30,
        (s, alpha, lam),
    )


def test_shifted_convolution_small_D_and_theta_equals_lam():
    for args in [("0.5", "1e-8", "1e-7", "1", "0.1"), ("0.5", "1e-8", "0.5", "1", "1"), ("2", "3", "0.3", "2", "2")]:
        assert_rel(shifted_convolution(*args, digits=30), ref_shifted_convolution(*args), 30, args)


def test_shifted_convolution_alpha_one_closed_form():
    # alpha = 1: S(s) = e^{-D/theta} (theta e^{-|s|/theta} - lam e^{-|s|/lam}) / (theta^2 - lam^2)
    with mp.workdps(60):
        D, th, lam, s = mp.mpf("0.7"), mp.mpf(2), mp.mpf("0.01"), mp.mpf(5)
        ref = mp.exp(-D / th) * (th * mp.exp(-s / th) - lam * mp.exp(-s / lam)) / (th**2 - lam**2)
    assert_rel(shifted_convolution("-5", "0.7", 1, 2, "0.01", digits=40), ref, 40)


@pytest.mark.parametrize("alpha", [ALPHA_E15, "0.1", "0.5", "1"], ids=_id)
@pytest.mark.parametrize("lam", ["1e-6", "0.1", "1", "100"])
def test_shifted_convolution_lemma15_lower_bound(alpha, lam):
    # Lemma 15's proof: for alpha <= 1, S(s) >= f_Gamma(|s| + D) int_0^{2|s|} f_L
    #   = f_Gamma(|s| + D) (1 - e^{-2|s|/lam})/2, which is >= f_Gamma(|s| + D)/4 when |s| >= lam ln(2)/2
    for s in ["1e-3", "0.5", "3", "-40"]:
        S = shifted_convolution(s, D_G, alpha, 1, lam, digits=30)
        with mp.workdps(45):
            sa = abs(mp.mpf(s))
            f = gamma.pdf(sa + mp.mpf(D_G), alpha, 1, digits=30)
            assert S >= f * (1 - mp.exp(-2 * sa / mp.mpf(lam))) / 2, (s, alpha, lam)
            if sa >= mp.mpf(lam) * mp.log(2) / 2:
                assert S >= f / 4


def test_shifted_convolution_even():
    for s in ["1e-3", "3", "1e3"]:
        assert shifted_convolution(s, D_G, "0.3", 1, "1e-7", digits=25) == shifted_convolution(
            "-" + s, D_G, "0.3", 1, "1e-7", digits=25
        )


def test_claim1_bound():
    # Claim 1 (Appendix C.1): for 0 < alpha <= 1, |t| >= D_u, |t| <= |t + Delta|, lam <= Delta/ln 2 and
    # 1/lam - 1/theta >= 1/(D_G + Delta + D_u):
    #   N(t) / S(t + Delta) <= c_Du Gamma(alpha) theta^alpha / (2 lam c_L) e^{(D_G+D_u+Delta)/theta} (D_G+Delta+D_u)^{1-alpha}
    with mp.workdps(40):
        Delta, DG, Du, th = mp.mpf(1), mp.mpf("0.5"), mp.mpf("0.4"), mp.mpf(1)
    checked = 0
    for alpha in [ALPHA_E15, "0.01", "0.5", "1"]:
        for lam in ["1e-3", "0.1", "0.4"]:  # 1/lam - 1/theta >= 1.5 > 1/1.9
            with mp.workdps(40):
                a, L = mp.mpf(alpha), mp.mpf(lam)
                assert L <= Delta / mp.log(2) and 1 / L - 1 / th >= 1 / (DG + Delta + Du)
                c_Du = 2 * gamma.cdf(Du, alpha, th, digits=30)
                rhs = c_Du * mp.gamma(a) * th**a / (2 * L / 4) * mp.exp((DG + Du + Delta) / th) * (DG + Delta + Du) ** (1 - a)
            for t in ["-0.45", "-0.6", "0.2", "0.4", "2", "10"]:  # -0.6 and 0.2 violate the assumptions
                with mp.workdps(40):
                    if abs(mp.mpf(t)) < Du or abs(mp.mpf(t)) > abs(mp.mpf(t) + Delta):
                        continue
                    num = near_mass(t, Du, alpha, th, lam, digits=30)
                    den = shifted_convolution(mp.mpf(t) + Delta, DG, alpha, th, lam, digits=30)
                    assert num / den <= rhs, (alpha, lam, t)
                    checked += 1
    assert checked == 48


# ---------------------------------------------------------------------------
# variance_from_cf
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("ratio", RATIOS)
@pytest.mark.parametrize("alpha", ALPHAS, ids=_id)
def test_variance_from_cf_matches_lemma3(alpha, ratio):
    # Lemma 3: Var Z = 2 alpha theta^2 + 2 lam^2 (closed form, exact arithmetic at 60 digits)
    lam = _lam(ratio)
    for th in ["1", "1e-3", "1e4"]:
        with mp.workdps(60):
            L = mp.mpf(lam) * mp.mpf(th)
            ref = 2 * mp.mpf(alpha) * mp.mpf(th) ** 2 + 2 * L**2
        assert_rel(variance_from_cf(alpha, th, L, digits=30), ref, 30, (alpha, ratio, th))


# ---------------------------------------------------------------------------
# digits contract
# ---------------------------------------------------------------------------

CONTRACT_CASES = [
    (near_mass, ("0.5", "1", ALPHA_E15, "1", "1e-6")),
    (near_mass, ("3", "1", "0.1", "1", "0.2")),
    (near_mass, ("0.999999999999999999999", "1", "0.5", "1", "0.3")),  # cancellation in I_{c+}(tau, D_u)
    (shifted_convolution, ("1e3", "1", "0.5", "1", "1e-7")),
    (shifted_convolution, ("0.3", "1e-8", "1e-7", "1", "1")),
    (variance_from_cf, (ALPHA_E15, "1", "1e-6")),
    (variance_from_cf, ("2.5", "1e-3", "1e3")),
]


@pytest.mark.parametrize("f,args", CONTRACT_CASES, ids=lambda v: v.__name__ if callable(v) else "-".join(map(_id, v)))
def test_digits_contract(f, args):
    assert mp.dps == 15  # the tests run at mpmath's default precision on purpose
    v60 = f(*args, digits=60)
    for d in (15, 40):
        assert_rel(f(*args, digits=d), v60, d, (f.__name__, d))
    # digits=None means mp.dps
    assert_rel(f(*args), v60, 15, (f.__name__, None))
    with mp.workdps(25):
        v = f(*args)
    assert_rel(v, v60, 25, (f.__name__, 25))
    assert mp.dps == 15


def test_mixed_input_types():
    from fractions import Fraction

    a = near_mass(Fraction(1, 2), 1, 0.5, 1, "0.25", digits=30)
    b = near_mass("0.5", "1", "0.5", mp.mpf(1), Fraction(1, 4), digits=30)
    assert_rel(a, b, 30)


def test_precision_error_when_runs_disagree(monkeypatch):
    # a component whose error does not shrink with the working precision must be refused
    real = pi._power_exp_integral

    def noisy(alpha, c, a, b):
        return real(alpha, c, a, b) * (1 + mp.mpf(10) ** -20 * (mp.dps % 7 + 1))

    monkeypatch.setattr(pi, "_power_exp_integral", noisy)
    with pytest.raises(PrecisionError):
        near_mass("0.5", "1", "0.5", "1", "0.3", digits=30)
    with pytest.raises(PrecisionError):
        shifted_convolution("0.5", "1", "0.5", "1", "0.3", digits=30)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda: near_mass("nan", 1, 1, 1, 1), "t"),
        (lambda: near_mass("inf", 1, 1, 1, 1), "t"),
        (lambda: near_mass(1, 0, 1, 1, 1), "D_u"),
        (lambda: near_mass(1, -1, 1, 1, 1), "D_u"),
        (lambda: near_mass(1, 1, -1, 1, 1), "alpha"),
        (lambda: near_mass(1, 1, 0, 1, 1), "alpha"),
        (lambda: near_mass(1, 1, 1, "nan", 1), "theta"),
        (lambda: near_mass(1, 1, 1, 1, 0), "lam"),
        (lambda: near_mass(1, 1, 1, 1, 1, digits=0), "digits"),
        (lambda: shifted_convolution("nan", 1, 1, 1, 1), "s"),
        (lambda: shifted_convolution(1, 0, 1, 1, 1), "D_Gamma"),
        (lambda: shifted_convolution(1, "-inf", 1, 1, 1), "D_Gamma"),
        (lambda: shifted_convolution(1, 1, "nan", 1, 1), "alpha"),
        (lambda: shifted_convolution(1, 1, 1, -2, 1), "theta"),
        (lambda: shifted_convolution(1, 1, 1, 1, "inf"), "lam"),
        (lambda: variance_from_cf(0, 1, 1), "alpha"),
        (lambda: variance_from_cf(1, "-1", 1), "theta"),
        (lambda: variance_from_cf(1, 1, "nan"), "lam"),
        (lambda: variance_from_cf(1, 1, 1, digits=1.5), "digits"),
        (lambda: near_mass(True, 1, 1, 1, 1), "t"),
    ],
)
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


def test_results_are_positive_and_finite_in_extremes():
    # far tails must not underflow to 0 (mpmath has no exponent limit)
    v = near_mass("1e6", "1", "0.5", "1", "1e-3", digits=20)
    assert 0 < v < mp.mpf(10) ** -10**8
    w = shifted_convolution("1e6", "1", "0.5", "1", "1e-7", digits=20)
    assert 0 < w < mp.mpf(10) ** -10**5
    assert math.isfinite(float(variance_from_cf("1e-7", "1e6", "1e-6", digits=20)))
