r"""Lemma 14 of the paper (:math:`\theta = 1`): :math:`f_\Gamma(t+D_\Gamma)c_{D_\Gamma}\le f_{\Gamma-\Gamma}(t)\le f_\Gamma(t)`.

* :func:`lemma14_upper_certificate` -- the upper bound: the log-margin with
  the exact Bessel K on a box, plus the checked pieces of the argument for every
  :math:`t` (:math:`K_\nu\le K_{1/2}`, sympy identity, :math:`\alpha\ln2>0`);
* :func:`lemma14_lower_certificate` -- the lower bound: the closed-form
  inequality on a box, plus :math:`f_\Gamma` non-increasing (sympy derivative,
  certified sign);
* ``lemma14_upper_false_certificate``, ``lemma14_lower_false_certificate`` --
  false variants that must be refuted.

:func:`_log_fgg_plus_t` is the ball enclosure of :math:`\ln f_{\Gamma-\Gamma}(t) + t + \ln\Gamma(\alpha)`
(Note 1's Bessel-K form, through :func:`_bessel_k_scaled`).
"""

from __future__ import annotations

from fractions import Fraction

from ..balls import _arb_of_fraction, _combine, certify_box
from ._common import _ball_certificate, _identity_failure, _outer

__all__ = [
    "lemma14_upper_certificate",
    "lemma14_upper_false_certificate",
    "lemma14_lower_certificate",
    "lemma14_lower_false_certificate",
]


def _log_fgg_plus_t(alpha, t):
    r""":math:`\ln f_{\Gamma-\Gamma}(t) + t + \ln\Gamma(\alpha)` for :math:`\theta=1`, :math:`t>0`.

    :math:`f_{\Gamma-\Gamma}(t) = (t/2)^{\alpha-1/2}K_{\alpha-1/2}(t)/(\sqrt\pi\,\Gamma(\alpha))`
    (the brief's version had an extra factor 2; this one matches
    :func:`arete_proofs.distributions.gamma_gamma.pdf`).  Uses the scaled :math:`e^tK_\nu(t)`.
    """
    from flint import arb

    half = arb(1) / 2
    return (alpha - half) * (t / 2).log() + _bessel_k_scaled(t, alpha - half).log() - half * arb.pi().log()


def _bessel_k_scaled(t, nu):
    r"""Enclosure of :math:`e^tK_\nu(t)` for balls ``t`` and ``nu``.

    arb's :math:`K_\nu` blows up for an order ball containing an integer; instead use
    that :math:`K_\nu(t)=\int_0^\infty e^{-t\cosh u}\cosh(\nu u)du` is even in
    :math:`\nu` and increasing in :math:`|\nu|`, and :math:`e^tK_\nu(t)` decreases in
    :math:`t>0`, so it lies between the values at exact extreme orders/arguments.
    """
    from flint import arb

    lo, hi = _outer(nu)
    tlo, thi = _outer(t)
    if tlo <= 0:
        return t.bessel_k(nu, scaled=True)
    m = 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
    M = max(abs(lo), abs(hi))
    # e^t K_nu(t) = int_0^inf e^{-t(cosh u - 1)} cosh(nu u) du decreases in t > 0
    return arb(thi).bessel_k(arb(m), scaled=True).union(arb(tlo).bessel_k(arb(M), scaled=True))


def _sympy_positive(*names):
    import sympy as sp

    return sp.symbols(" ".join(names), positive=True)


_L14_CACHE = {}


def _lemma14_upper_algebra_ok():
    r"""sympy: with :math:`K_{1/2}(t)=\sqrt{\pi/(2t)}e^{-t}` in the closed form of
    :math:`f_{\Gamma-\Gamma}` (:math:`\theta=1`), :math:`\ln(\text{bound}) - \ln f_\Gamma(t) = -\alpha\ln 2`
    identically (``f_Gamma`` from :func:`arete_proofs.chain.symbols.explicit`).  Cached."""
    if "upper" not in _L14_CACHE:
        import sympy as sp

        from ...chain.symbols import explicit, f_Gamma

        a, t = _sympy_positive("a", "t")
        k_half = sp.sqrt(sp.pi / (2 * t)) * sp.exp(-t)
        bound = (t / 2) ** (a - sp.Rational(1, 2)) * k_half / (sp.sqrt(sp.pi) * sp.gamma(a))
        diff = sp.expand_log(sp.log(bound) - sp.log(explicit(f_Gamma(t, a, 1))), force=True)
        _L14_CACHE["upper"] = sp.simplify(diff + a * sp.log(2)) == 0
    return _L14_CACHE["upper"]


def _lemma14_lower_derivative_ok():
    r"""sympy: :math:`\frac{d}{dx}\ln f_\Gamma(x) = (\alpha-1)/x - 1/\theta` (Definition 22). Cached."""
    if "lower" not in _L14_CACHE:
        import sympy as sp

        from ...chain.symbols import explicit, f_Gamma

        a, th, x = _sympy_positive("a", "th", "x")
        d = sp.diff(sp.expand_log(sp.log(explicit(f_Gamma(x, a, th))), force=True), x)
        _L14_CACHE["lower"] = sp.simplify(d - ((a - 1) / x - 1 / th)) == 0
    return _L14_CACHE["lower"]


#: sample points (t) for the closed form of K_{1/2} and (nu, t) for K_nu <= K_{1/2}
_K_HALF_T = (Fraction(1, 100), Fraction(1, 10), 1, Fraction(7, 2), 10, 100, 1000)
_K_NU_POINTS = ((0, Fraction(1, 10)), (Fraction(-9, 20), 1), (Fraction(1, 4), 5), (Fraction(49, 100), 50),
                (Fraction(-1, 5), 200))


def _lemma14_upper_all_t_parts(prec):
    """The checks of the analytic argument K_nu <= K_{1/2} => f_GG <= 2^{-alpha} f_Gamma (all t > 0)."""
    from flint import arb, ctx

    parts = []
    if not _lemma14_upper_algebra_ok():
        parts.append(_identity_failure("lemma14 upper: ln(bound) - ln f_Gamma = -alpha ln 2"))
    old = ctx.prec
    ctx.prec = prec
    try:
        half = arb(1) / 2
        # K_{1/2}(t) = sqrt(pi/(2t)) e^{-t}: arb's Bessel K and the closed form overlap, tightly
        for q in _K_HALF_T:
            T = _arb_of_fraction(Fraction(q))
            k = T.bessel_k(half, scaled=True)          # e^t K_{1/2}(t)
            closed = (arb.pi() / (2 * T)).sqrt()
            if not (k.overlaps(closed) and (k - closed).abs_upper() < arb(2) ** (24 - prec) * closed):
                parts.append(_identity_failure(f"K_1/2({q}) closed form"))
        # sanity of the monotonicity in |nu| at points: ln K_{1/2}(t) - ln K_nu(t) > 0 for |nu| < 1/2
        checks = []
        for nu, q in _K_NU_POINTS:
            T, N = _arb_of_fraction(Fraction(q)), _arb_of_fraction(Fraction(nu))
            checks.append((f"ln K_1/2({q}) - ln K_{nu}({q})",
                           T.bessel_k(half, scaled=True).log() - T.bessel_k(N, scaled=True).log()))
        checks.append(("ln 2", arb(2).log()))
    finally:
        ctx.prec = old
    for label, value in checks:
        parts.append(_ball_certificate(label, value, "Lemma 14 upper (all t)", label))
    # 2^{-alpha} <= 1: the margin alpha ln 2 > 0 (box [1/1000, 1]; below it: alpha > 0 and ln 2 > 0)
    parts.append(certify_box(lambda alpha: alpha * arb(2).log(), {"alpha": (Fraction(1, 1000), 1)}, prec=prec,
                             statement="Lemma 14 upper (all t)", inequality="alpha ln 2 > 0"))
    return parts


_L14_UPPER_ARG = (
    "All t > 0 and 0 < alpha <= 1 (theta = 1; general theta by scale invariance f(t; theta) = "
    "f(t/theta; 1)/theta of both densities, t < 0 by symmetry of f_GG).  Analytic step: "
    "K_nu(t) = int_0^inf e^{-t cosh u} cosh(nu u) du and cosh(nu u) <= cosh(u/2) for |nu| <= 1/2, so "
    "K_{alpha-1/2}(t) <= K_{1/2}(t).  Checked: K_{1/2}(t) = sqrt(pi/(2t)) e^{-t} (arb Bessel K vs the "
    "closed form at t = 0.01 ... 1000); sympy: substituting it into f_GG(t) = (t/2)^{alpha-1/2} "
    "K_{alpha-1/2}(t)/(sqrt(pi) Gamma(alpha)) gives exactly 2^{-alpha} f_Gamma(t); alpha ln 2 > 0 "
    "(certified on [1/1000, 1], and ln 2 > 0 below), hence f_GG(t) <= 2^{-alpha} f_Gamma(t) <= f_Gamma(t); "
    "K_nu(t) < K_{1/2}(t) at sample points (sanity, not part of the proof).  Independently, "
    "ln f_Gamma - ln f_GG > 0 is certified with the exact Bessel K on the box."
)


def lemma14_upper_certificate(box=None, prec=64):
    r"""Lemma 14, upper bound :math:`f_{\Gamma-\Gamma}(t)\le f_\Gamma(t)` for all :math:`t>0`,
    :math:`0<\alpha\le1`, :math:`\theta=1`.

    Two independent parts:

    1. Box: log-margin :math:`\ln f_\Gamma(t)-\ln f_{\Gamma-\Gamma}(t)` with
       :math:`f_{\Gamma-\Gamma}(t)=(t/2)^{\alpha-1/2}K_{\alpha-1/2}(t)/(\sqrt\pi\Gamma(\alpha))`
       certified on :math:`\alpha\in[1/20,1]`, :math:`t\in[1/10,10]` (default).
    2. All :math:`t>0`, :math:`\alpha\in(0,1]`: :math:`K_\nu(t)=\int_0^\infty e^{-t\cosh u}\cosh(\nu u)du`
       increases in :math:`|\nu|` (analytic: :math:`\cosh(\nu u)\le\cosh(u/2)`), so
       :math:`K_{\alpha-1/2}(t)\le K_{1/2}(t)=\sqrt{\pi/(2t)}e^{-t}`, and then

       .. math:: f_{\Gamma-\Gamma}(t)\le \frac{(t/2)^{\alpha-1/2}\sqrt{\pi/(2t)}e^{-t}}{\sqrt\pi\Gamma(\alpha)}
                 = 2^{-\alpha}f_\Gamma(t)\le f_\Gamma(t).

       Checked by the code: the closed form of :math:`K_{1/2}` against arb's Bessel K at points,
       the equality (sympy, exact), and :math:`\alpha\ln2>0` (certified on
       :math:`[1/1000,1]`, sign argument below).  Only the monotonicity of :math:`K_\nu` in
       :math:`|\nu|` is analytic (spot-checked at points).

    General :math:`\theta` by scale invariance, :math:`t<0` by symmetry.

    >>> c = lemma14_upper_certificate()
    >>> c.holds, c.undecided_or_refuted_box is None
    (True, True)
    """
    if box is None:
        box = {"alpha": (Fraction(1, 20), 1), "t": (Fraction(1, 10), 10)}

    def margin(alpha, t):
        log_fg_plus_t = (alpha - 1) * t.log()  # ln f_Gamma(t) + t + ln Gamma(alpha)
        return log_fg_plus_t - _log_fgg_plus_t(alpha, t)

    c = certify_box(margin, box, prec=prec)
    return _combine("Lemma 14 (upper bound, theta = 1)",
                    "f_GG(t) <= f_Gamma(t), t > 0 (via f_GG <= 2^{-alpha} f_Gamma)",
                    [c] + _lemma14_upper_all_t_parts(prec), _L14_UPPER_ARG)


def lemma14_upper_false_certificate(prec=64):
    r"""Deliberately false variant of Lemma 14's upper bound: :math:`f_{\Gamma-\Gamma}(t)\le f_\Gamma(t)/2`.

    Margin :math:`\ln f_\Gamma(t) - \ln 2 - \ln f_{\Gamma-\Gamma}(t)` on :math:`\alpha\in[1/20,1]`,
    :math:`t\in[1/10,10]`; false for small :math:`\alpha`, where
    :math:`f_{\Gamma-\Gamma}/f_\Gamma` is close to :math:`2^{-\alpha}\approx1`.

    >>> c = lemma14_upper_false_certificate()
    >>> c.holds, sorted(c.undecided_or_refuted_box)
    (False, ['alpha', 't'])
    """
    from flint import arb

    def margin(alpha, t):
        return (alpha - 1) * t.log() - arb(2).log() - _log_fgg_plus_t(alpha, t)

    c = certify_box(margin, {"alpha": (Fraction(1, 20), 1), "t": (Fraction(1, 10), 10)}, prec=prec)
    c.statement, c.inequality = "Lemma 14 upper (false variant)", "f_GG(t) <= f_Gamma(t)/2"
    return c


_L14_LOWER_ARG = (
    "All t >= 0, D_Gamma > 0, 0 < alpha <= 1 (theta = 1; general theta by scale invariance, t < 0 by "
    "symmetry).  Analytic (Definition 7 and Appendix C.3 of the paper): f_GG(t) = int_0^inf f_Gamma(t+x) "
    "f_Gamma(x) dx >= int_0^D f_Gamma(t+x) f_Gamma(x) dx >= f_Gamma(t+D) int_0^D f_Gamma(x) dx = "
    "f_Gamma(t+D) c_D, using that f_Gamma is non-increasing on (0, inf).  Checked: sympy gives "
    "d/dx ln f_Gamma(x) = (alpha-1)/x - 1/theta exactly; -(d/dx ln f_Gamma) = 1 + (1-alpha) w, w = 1/x, is "
    "certified > 0 on alpha in [0, 1], w in [0, 100] (x >= 1/100) and is >= 1 for every x > 0 since "
    "(1-alpha) w >= 0.  The convolution formula (Definition 7) and c_D = P(alpha, D) (the definition) are "
    "not re-derived.  Independently, the closed-form inequality (Bessel K, regularized lower gamma) is "
    "certified on the box."
)


def lemma14_lower_certificate(box=None, prec=64):
    r"""Lemma 14, lower bound :math:`f_\Gamma(t+D_\Gamma)c_{D_\Gamma}\le f_{\Gamma-\Gamma}(t)`, :math:`\theta=1`.

    Two parts:

    1. Box: :math:`c_D = P(\alpha, D)` (regularized lower incomplete gamma, arb
       ``gamma_lower(..., regularized=1)``).  Log-margin
       :math:`\ln f_{\Gamma-\Gamma}(t) - \ln f_\Gamma(t+D) - \ln c_D`, certified on
       :math:`\alpha\in[1/4,1]`, :math:`t\in[1/10,2]`, :math:`D\in[1/10,1]` (default).
    2. All :math:`t\ge0`, :math:`D>0`, :math:`\alpha\in(0,1]` (the paper's proof, Appendix C.3):

       .. math:: f_{\Gamma-\Gamma}(t)=\int_0^\infty f_\Gamma(t+x)f_\Gamma(x)dx
                 \ge\int_0^D f_\Gamma(t+x)f_\Gamma(x)dx\ge f_\Gamma(t+D)\,c_D,

       since :math:`f_\Gamma` is non-increasing: :math:`\frac{d}{dx}\ln f_\Gamma(x) = (\alpha-1)/x - 1/\theta<0`.
       Checked: the derivative (sympy, exact) and its sign
       :math:`1+(1-\alpha)/x>0` (certified for :math:`x\ge1/100`, and :math:`\ge1` for all
       :math:`x>0` as :math:`(1-\alpha)/x\ge0`).  The two integral inequalities are analytic.

    General :math:`\theta` by scale invariance, :math:`t<0` by symmetry.

    >>> c = lemma14_lower_certificate()
    >>> c.holds, c.undecided_or_refuted_box is None
    (True, True)
    """
    if box is None:
        box = {"alpha": (Fraction(1, 4), 1), "t": (Fraction(1, 10), 2), "D": (Fraction(1, 10), 1)}

    def margin(alpha, t, D):
        # ln f_Gamma(t+D) + t + ln Gamma(alpha) = (alpha-1) ln(t+D) - D
        return _log_fgg_plus_t(alpha, t) - ((alpha - 1) * (t + D).log() - D) - D.gamma_lower(alpha, regularized=1).log()

    parts = [certify_box(margin, box, prec=prec)]
    if not _lemma14_lower_derivative_ok():
        parts.append(_identity_failure("d/dx ln f_Gamma = (alpha-1)/x - 1/theta"))
    parts.append(certify_box(lambda alpha, w: 1 + (1 - alpha) * w, {"alpha": (0, 1), "w": (0, 100)}, prec=prec,
                             statement="Lemma 14 lower (all t)",
                             inequality="-(d/dx) ln f_Gamma = 1 + (1-alpha)/x > 0, w = 1/x"))
    return _combine("Lemma 14 (lower bound, theta = 1)", "f_Gamma(t + D_Gamma) c_{D_Gamma} <= f_GG(t), t >= 0",
                    parts, _L14_LOWER_ARG)


def lemma14_lower_false_certificate(prec=64):
    r"""Deliberately false variant of Lemma 14's lower bound without the shift:
    :math:`f_\Gamma(t)c_{D}\le f_{\Gamma-\Gamma}(t)`.

    Margin :math:`\ln f_{\Gamma-\Gamma}(t)-\ln f_\Gamma(t)-\ln c_D` on :math:`\alpha\in[3/4,1]`,
    :math:`t\in[1/10,2]`, :math:`D\in[2,4]`; false e.g. at :math:`\alpha=1`
    (:math:`f_{\Gamma-\Gamma}=f_\Gamma/2` for :math:`t>0`) as :math:`c_D=1-e^{-D}>1/2`.

    >>> c = lemma14_lower_false_certificate()
    >>> c.holds, sorted(c.undecided_or_refuted_box)
    (False, ['D', 'alpha', 't'])
    """
    def margin(alpha, t, D):
        return _log_fgg_plus_t(alpha, t) - (alpha - 1) * t.log() - D.gamma_lower(alpha, regularized=1).log()

    c = certify_box(margin, {"alpha": (Fraction(3, 4), 1), "t": (Fraction(1, 10), 2), "D": (2, 4)},
                    prec=prec)
    c.statement, c.inequality = "Lemma 14 lower (false variant)", "f_Gamma(t) c_D <= f_GG(t)"
    return c
