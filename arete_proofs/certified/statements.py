r"""Certified (ball-arithmetic) checks of closed-form statements of the paper.

Uses python-flint's ``arb`` (imported lazily, so the package imports without it).
A statement ``margin >= 0`` on a box is *certified* when the box is bisected into
sub-boxes on each of which the arb enclosure of the margin has a positive lower
end.  Every sub-box is evaluated with all coordinates as balls containing the
whole sub-box, so the enclosure bounds the margin at every point of it.

Statements (paper: Pagh & Stausholm, ALT 2022):

* :func:`note2_certificate` -- Note 2, :math:`\Gamma(\alpha)\le 1/\alpha` on (0, 1].
* :func:`lemma28_certificate` -- Lemma 28 (derivative sign of :math:`\ln g`).
* :func:`lemma19_certificate` -- the final inequality of the proof of Lemma 19
  (Appendix C.4), :math:`48 e^{2\alpha}\Delta e^{3\varepsilon/4}\le e^{\varepsilon}`.
* :func:`lemma19_algebra_certificate` -- the algebra of Appendix C.4 from Lemma 18 to
  :math:`e^\varepsilon` (steps (8)-(10) and the hypotheses (9)) at the paper's parameters, on the
  whole domain :math:`\varepsilon\ge20+4\ln\Delta`, :math:`\Delta\ge2/e`.
* :func:`lemma14_upper_certificate`, :func:`lemma14_lower_certificate` -- Lemma 14
  for :math:`\theta = 1`: compact boxes plus the checked pieces of the analytic argument
  for every :math:`t` (:math:`K_\nu\le K_{1/2}`; :math:`f_\Gamma` non-increasing).
* ``*_false_certificate`` -- deliberately false variants that must be refuted.
* :func:`corollary5_certificate` -- Corollary 5's privacy claim (tight epsilon at most
  :math:`\varepsilon`) at points :math:`(\varepsilon,\Delta)`, through
  :func:`arete_proofs.certified.epsilon.certify_epsilon`.

>>> c = lemma19_certificate()
>>> c.holds, len(c.boxes) > 0
(True, True)
"""

from __future__ import annotations

import time
from fractions import Fraction

from .balls import Certificate, _arb_of_fraction, _combine, certify_box

__all__ = [
    "Certificate",
    "certify_box",
    "note2_certificate",
    "note2_false_certificate",
    "lemma28_certificate",
    "lemma19_certificate",
    "lemma19_false_certificate",
    "lemma19_algebra_certificate",
    "lemma19_algebra_false_certificate",
    "lemma14_upper_certificate",
    "lemma14_upper_false_certificate",
    "lemma14_lower_certificate",
    "lemma14_lower_false_certificate",
    "corollary5_certificate",
    "corollary5_false_certificate",
]


# ---------------------------------------------------------------- Note 2

_NOTE2_ARG = (
    "psi(1+a) < 0 on [0, 23/50] and psi(1+a) > 0 on [47/100, 1] (certified), so "
    "ln Gamma(1+a) strictly decreases from ln Gamma(1) = 0 on [0, 23/50] and strictly "
    "increases to ln Gamma(2) = 0 on [47/100, 1]; on [23/50, 47/100] -ln Gamma(1+a) > 0 "
    "is certified directly.  Hence Gamma(1+a) <= 1 on [0, 1] (equality only at 0, 1), "
    "i.e. Gamma(a) = Gamma(1+a)/a <= 1/a on (0, 1]."
)


def note2_certificate(prec=64):
    r"""Note 2: :math:`\Gamma(\alpha)\le 1/\alpha` for :math:`0<\alpha\le 1`.

    Equivalent to :math:`\Gamma(1+\alpha)\le 1` on :math:`[0,1]` (equality at both
    ends, so it cannot be certified by a positive margin directly).  Certified:

    1. :math:`-\psi(1+\alpha) > 0` on :math:`[0, 23/50]`,
    2. :math:`-\ln\Gamma(1+\alpha) > 0` on :math:`[23/50, 47/100]`,
    3. :math:`\psi(1+\alpha) > 0` on :math:`[47/100, 1]`.

    Argument: by 1, :math:`\ln\Gamma(1+\alpha)` strictly decreases from
    :math:`\ln\Gamma(1)=0` on :math:`[0,23/50]`; by 3 it strictly increases to
    :math:`\ln\Gamma(2)=0` on :math:`[47/100,1]`; so it is :math:`\le 0` on all of
    :math:`[0,1]`.  There is no unbounded part.

    >>> c = note2_certificate()
    >>> c.holds
    True
    """
    from flint import arb

    parts = [
        certify_box(lambda a: -(1 + a).digamma(), {"a": (0, Fraction(23, 50))}, prec=prec),
        certify_box(lambda a: -(1 + a).lgamma(), {"a": (Fraction(23, 50), Fraction(47, 100))}, prec=prec),
        certify_box(lambda a: (1 + a).digamma(), {"a": (Fraction(47, 100), 1)}, prec=prec),
    ]
    # the endpoint values used by the argument: ln Gamma(1) = ln Gamma(2) = 0 exactly
    assert arb(1).lgamma() == 0 and arb(2).lgamma() == 0
    return _combine("Note 2", "Gamma(alpha) <= 1/alpha for 0 < alpha <= 1", parts, _NOTE2_ARG)


def note2_false_certificate(prec=64):
    r"""Deliberately false: :math:`\Gamma(\alpha)\le 0.9/\alpha` on :math:`[1/100, 1]`.

    Margin :math:`\ln(0.9) - \ln\Gamma(1+\alpha)`; must be refuted.

    >>> note2_false_certificate().holds
    False
    """
    from flint import arb

    c = certify_box(lambda a: arb(9).log() - arb(10).log() - (1 + a).lgamma(),
                    {"a": (Fraction(1, 100), 1)}, prec=prec)
    c.statement, c.inequality = "Note 2 (false variant)", "Gamma(alpha) <= 0.9/alpha"
    return c


# ---------------------------------------------------------------- Lemma 19

#: rational lower bound for 2/e (the margin increases in Delta, so starting lower is safe)
_TWO_OVER_E_LO = Fraction(7357, 10000)

_L19_ARG = (
    "Parametrize eps = 20 + 4 ln(Delta) + s, s >= 0.  Margin "
    "M(s, Delta) = eps/4 - ln 48 - 2 e^{-eps/4} - ln Delta = 5 + s/4 - ln 48 - 2 e^{-5-s/4}/Delta.  "
    "dM/ds = 1/4 + (1/2) e^{-eps/4} > 0 and dM/dDelta (s fixed) = 2 e^{-5-s/4}/Delta^2 > 0 "
    "(the first checked in ball arithmetic for e^{-eps/4} in [0, 1]), so M on "
    "[0, inf) x [2/e, inf) is at least its value on the certified box."
)


def _lemma19_margin(log_const):
    def margin(s, Delta):
        eps = 20 + 4 * Delta.log() + s
        return eps / 4 - log_const - 2 * (-eps / 4).exp() - Delta.log()

    return margin


def lemma19_certificate(s_max=180, delta_max=100, prec=64):
    r"""Lemma 19 (proof in Appendix C.4): the final inequality.

    With :math:`\alpha = e^{-\varepsilon/4}`, the proof needs
    :math:`48 e^{2\alpha}\Delta e^{3\varepsilon/4}\le e^{\varepsilon}`, i.e.

    .. math:: M = \varepsilon/4 - \ln 48 - 2e^{-\varepsilon/4} - \ln\Delta > 0

    for :math:`\varepsilon\ge 20+4\ln\Delta`, :math:`\Delta\ge 2/e`.  Write
    :math:`\varepsilon = 20 + 4\ln\Delta + s`.  Certified on
    :math:`(s,\Delta)\in[0, s_{max}]\times[0.7357, \Delta_{max}]` (0.7357 < 2/e).

    Unbounded part: :math:`\partial M/\partial s = 1/4 + e^{-\varepsilon/4}/2 > 0`,
    and at fixed :math:`s`, :math:`M = 5 + s/4 - \ln 48 - 2e^{-5-s/4}/\Delta` so
    :math:`\partial M/\partial\Delta = 2e^{-5-s/4}/\Delta^2 > 0`; the code checks
    :math:`\partial M/\partial s \ge 1/4` in ball arithmetic for
    :math:`e^{-\varepsilon/4}\in[0,1]` (the second is a product of positive factors).  Hence
    :math:`M\ge M(0, 2/e) > 1.1` everywhere.

    >>> c = lemma19_certificate()
    >>> c.holds, c.min_margin() > 0
    (True, True)
    """
    from flint import arb

    c = certify_box(_lemma19_margin(arb(48).log()),
                    {"s": (0, s_max), "Delta": (_TWO_OVER_E_LO, delta_max)}, prec=prec)
    # monotonicity checks for the unbounded part
    E = arb("0.5", "0.5")  # ball [0, 1]: contains e^{-eps/4} for every eps >= 0
    dMds = arb(1) / 4 + E / 2
    # dM/dDelta = 2 e^{-5} e^{-s/4} / Delta^2: a product of positive factors
    assert dMds.lower() > 0 and arb(-5).exp().lower() > 0
    c.statement = "Lemma 19 (Appendix C.4, final inequality)"
    c.inequality = "48 e^{2 alpha} Delta e^{3 eps/4} <= e^eps, alpha = e^{-eps/4}, eps >= 20 + 4 ln Delta, Delta >= 2/e"
    c.argument = _L19_ARG
    return c


def lemma19_false_certificate(prec=64):
    r"""Deliberately false variant of Lemma 19 with 48 replaced by :math:`48e^2`.

    >>> c = lemma19_false_certificate()
    >>> c.holds, c.undecided_or_refuted_box is not None
    (False, True)
    """
    from flint import arb

    c = certify_box(_lemma19_margin(arb(48).log() + 2),
                    {"s": (0, 180), "Delta": (_TWO_OVER_E_LO, 100)}, prec=prec)
    c.statement, c.inequality = "Lemma 19 (false variant)", "48 e^2 e^{2 alpha} Delta e^{3 eps/4} <= e^eps"
    return c


# ---------------------------------------------------------------- Lemma 19: the algebra (7)-(10)

def _rational_above(x):
    """An exact rational >= every point of the ball ``x``."""
    return Fraction(_outer(x)[1])


def _ball_certificate(label, value, statement="", inequality=""):
    """Certificate of one closed-form ball ``value > 0`` (no bisection: a constant).

    The reported "box" is the exact enclosure of the checked quantity, named ``label``.
    """
    lo, hi = _outer(value)
    box = {label: (Fraction(lo), Fraction(hi))}
    if value.lower() > 0:
        return Certificate(statement, inequality, True, [(box, float(value.lower()))], None)
    return Certificate(statement, inequality, False if value.upper() < 0 else None, [], box)


def _identity_failure(label):
    return Certificate("", "", None, [], {f"identity {label}": ("failed", "failed")})


#: (name, where the step is stated in the registry, text) of each certified step; the reduced
#: ratios rhs/lhs are in :func:`_lemma19_reductions`, their logs in :func:`_l19_margins`.
_L19_STEPS = (
    ("median", "lemma-19 'median'", "c_DGam(alpha theta) >= 1/2 (Chen & Rubin)"),
    ("eq-8", "lemma-19 'eq-8'", "RHS_18(D_Gamma = alpha theta) <= RHS_8 (c_DGam >= 1/2, c_L = 1/4)"),
    ("eq-9", "lemma-19 'eq-9'", "RHS_8 <= RHS_9 (2 alpha theta + Delta <= 3 Delta)"),
    ("eq-10", "lemma-19 'eq-10'", "RHS_9 <= e^eps"),
    ("hyp-theta", "lemma-19 'hyp-theta'", "(9): theta <= Delta/(1 - alpha)"),
    ("lemma18-theta", "lemma-18 hypothesis", "theta <= D_Gamma + Delta at D_Gamma = alpha theta"),
    ("hyp-lam-theta", "lemma-19 'hyp-lam' (first of Min)", "(9): lam <= theta/2"),
    ("hyp-lam-Delta", "lemma-19 'hyp-lam' (second of Min)", "(9): lam <= Delta/ln 2"),
    ("hyp-alpha", "lemma-19 'hyp-alpha'", "(9): alpha <= 1/2"),
)


def _l19_u(s, Delta, base):
    """u = eps/4 for eps = base + 4 ln(Delta) + s."""
    return _arb_of_fraction(Fraction(base, 4)) + Delta.log() + s / 4


def _l19_margins():
    r"""name -> log-margin ``ln(rhs/lhs)`` of each step as a function of ``(u, A, Delta)``,
    :math:`u=\varepsilon/4`, :math:`A=\alpha=\lambda=e^{-u}` (the reduced forms of
    :func:`_lemma19_reductions`)."""
    from flint import arb

    ln2, ln3, ln48 = arb(2).log(), arb(3).log(), arb(48).log()
    return {
        "median": lambda u, A, D: ln2 + A.gamma_lower(A, regularized=1).log(),
        "eq-8": lambda u, A, D: ln2 + A.gamma_lower(A, regularized=1).log(),
        "eq-9": lambda u, A, D: ln3 - (1 + 2 * A / u).log(),
        "eq-10": lambda u, A, D: u - 2 * A - ln48 - D.log(),
        "hyp-theta": lambda u, A, D: u.log() - (1 - A).log(),
        "lemma18-theta": lambda u, A, D: (u + A).log(),
        "hyp-lam-theta": lambda u, A, D: D.log() + u - ln2 - u.log(),
        "hyp-lam-Delta": lambda u, A, D: D.log() + u - ln2.log(),
        "hyp-alpha": lambda u, A, D: u - ln2,
    }


_REDUCTIONS_CACHE = {}


def _lemma19_reductions():
    r"""Check with sympy, from the registry's own expressions, that each step's ratio
    ``rhs/lhs`` at :math:`D_\Gamma=\alpha\theta`, :math:`c_L=1/4` and the paper's parameters
    equals the reduced form used in ball arithmetic, and that the arb margins of
    :func:`_l19_margins` agree with those reduced forms at a few exact points.

    Returns ``None`` when everything matches, else the name of the failing step.
    Cached (sympy takes about a second).
    """
    if "result" in _REDUCTIONS_CACHE:
        return _REDUCTIONS_CACHE["result"]
    import sympy as sp
    from flint import arb

    from ..chain.registry import REGISTRY
    from ..chain.symbols import (CONSTANTS, D_Gamma, Delta, PAPER_PARAMETERS, alpha, c_DGam, eps, explicit,
                          theta)

    u, A = eps / 4, sp.exp(-eps / 4)
    P = c_DGam(alpha * theta, alpha, theta)
    expected = {
        "median": 2 * P, "eq-8": 2 * P, "eq-9": 3 / (1 + 2 * A / u), "eq-10": sp.exp(u - 2 * A) / (48 * Delta),
        "hyp-theta": u / (1 - A), "lemma18-theta": u + A, "hyp-lam-theta": Delta * sp.exp(u) / (2 * u),
        "hyp-lam-Delta": Delta * sp.exp(u) / sp.log(2), "hyp-alpha": sp.exp(u) / 2,
    }
    b19 = {b.name: b for b in REGISTRY["lemma-19"].bounds}
    pairs = {name: (b19[name].lhs, b19[name].rhs)
             for name in ("median", "eq-8", "eq-9", "eq-10", "hyp-theta", "hyp-alpha")}
    lam_rhs = b19["hyp-lam"].rhs
    assert isinstance(lam_rhs, sp.Min)
    theta_half, delta_ln2 = sorted(lam_rhs.args, key=lambda e: e.has(theta), reverse=True)
    pairs["hyp-lam-theta"] = (b19["hyp-lam"].lhs, theta_half)
    pairs["hyp-lam-Delta"] = (b19["hyp-lam"].lhs, delta_ln2)
    (h18,) = [h for h in REGISTRY["lemma-18"].hypotheses
              if isinstance(h, sp.Le) and h.lhs == theta and h.rhs.has(D_Gamma)]
    pairs["lemma18-theta"] = (h18.lhs, h18.rhs)

    result = None
    for name, (lhs, rhs) in pairs.items():
        ratio = (rhs / lhs).subs(D_Gamma, alpha * theta).subs(CONSTANTS).subs(PAPER_PARAMETERS)
        if sp.simplify(ratio - expected[name].subs(PAPER_PARAMETERS)) != 0:
            result = name
            break
    # c_DGam(alpha theta) = P(alpha, alpha): the regularized lower incomplete gamma
    if result is None and sp.simplify(explicit(P) - sp.lowergamma(alpha, alpha) / sp.gamma(alpha)) != 0:
        result = "median"
    # the arb margins are the logs of the reduced forms (exact points, eps and Delta)
    if result is None:
        margins = _l19_margins()
        for e_, d_ in ((21, Fraction(3, 4)), (30, 5), (Fraction(101, 2), 40)):
            subs = {eps: sp.Rational(e_), Delta: sp.Rational(d_)}
            U = _arb_of_fraction(Fraction(e_)) / 4
            Aa, Da = (-U).exp(), _arb_of_fraction(Fraction(d_))
            for name, expr in expected.items():
                ref = sp.N(sp.log(explicit(expr.subs(PAPER_PARAMETERS)).subs(subs)), 30)
                val = margins[name](U, Aa, Da)
                if not (abs(val - arb(str(ref))) < arb("1e-12")):
                    result = name
                    break
            if result is not None:
                break
    _REDUCTIONS_CACHE["result"] = result
    return result


def _lemma19_algebra(base, s_max, delta_max, prec, with_note2=True):
    from flint import arb, ctx

    delta_lo = _TWO_OVER_E_LO
    margins = _l19_margins()
    texts = {name: text for name, _, text in _L19_STEPS}
    parts = []
    failed = _lemma19_reductions()
    if failed is not None:
        parts.append(_identity_failure(failed))
    # 1. compact box (s, Delta) in [0, s_max] x [delta_lo, delta_max]
    box = {"s": (0, s_max), "Delta": (delta_lo, delta_max)}
    for name, _, _ in _L19_STEPS:
        f = margins[name]

        def margin(s, Delta, f=f):
            u = _l19_u(s, Delta, base)
            return f(u, (-u).exp(), Delta)

        c = certify_box(margin, box, prec=prec, statement=f"Lemma 19 {name} (box)",
                        inequality=texts[name])
        parts.append(c)
    # 2. the whole domain s >= 0, Delta >= delta_lo: u >= u0, A <= a0, 1/u <= w0
    old = ctx.prec
    ctx.prec = prec
    try:
        ln2 = arb(2).log()
        u0 = _arb_of_fraction(Fraction(base, 4)) + _arb_of_fraction(delta_lo).log()
        a0 = _rational_above((-u0).exp())
        w0 = _rational_above(1 / u0) if u0.lower() > 0 else None
        dlo = _arb_of_fraction(delta_lo)
        a0b = _arb_of_fraction(a0)
        checks = [
            ("2/e - Delta_lo", 2 / arb(1).exp() - dlo),
            ("u0 = base/4 + ln Delta_lo", u0),
            ("1/e - a0", 1 / arb(1).exp() - a0b),
            ("hyp-lam-theta at corner: ln Delta_lo - ln 2 + u0 - ln u0", dlo.log() - ln2 + u0 - u0.log()),
            ("hyp-lam-Delta at corner: ln Delta_lo + u0 - ln ln 2", dlo.log() + u0 - ln2.log()),
            ("hyp-alpha at corner: u0 - ln 2", u0 - ln2),
        ]
    finally:
        ctx.prec = old
    for label, value in checks:
        parts.append(_ball_certificate(label, value, "Lemma 19 (tail bound)", label))
    if w0 is not None:
        a0_ln_a0 = _arb_of_fraction(a0) * _arb_of_fraction(a0).log()  # <= a ln a on (0, a0] (a0 <= 1/e)
        tail = [
            ("median/eq-8: ln 2 + a0 ln a0 - A - lnGamma(1+A) <= ln 2 + ln P(A, A)",
             lambda A: ln2 + a0_ln_a0 - A - (1 + A).lgamma(), {"A": (0, a0)}),
            ("eq-9: ln 3 - ln(1 + 2 A w), w = 1/u", lambda A, w: arb(3).log() - (1 + 2 * A * w).log(),
             {"A": (0, a0), "w": (0, w0)}),
            ("eq-10: base/4 - ln 48 - 2A <= u - 2A - ln 48 - ln Delta",
             lambda A: _arb_of_fraction(Fraction(base, 4)) - arb(48).log() - 2 * A, {"A": (0, a0)}),
            ("hyp-theta: -ln w0 - ln(1 - A) <= ln u - ln(1 - A)",
             lambda A: -_arb_of_fraction(w0).log() - (1 - A).log(), {"A": (0, a0)}),
            ("lemma18-theta: ln(1/w0 + A) <= ln(u + A)", lambda A: (1 / _arb_of_fraction(w0) + A).log(),
             {"A": (0, a0)}),
            ("hyp-lam-theta: d/du (u - ln u) = 1 - w > 0", lambda w: 1 - w, {"w": (0, w0)}),
        ]
        for label, f, b in tail:
            c = certify_box(f, b, prec=prec, statement="Lemma 19 (tail bound)", inequality=label)
            parts.append(c)
    if with_note2:
        parts.append(note2_certificate(prec=prec))  # hyp-gamma: Gamma(alpha) <= 1/alpha, alpha <= a0 <= 1
    return parts


_L19_ALG_ARG = (
    "Scope: every step of Appendix C.4 listed in lemma-19's record (median, eq-8, eq-9, eq-10, hyp-theta, "
    "hyp-lam (both sides of the Min), hyp-alpha, hyp-gamma) and Lemma 18's hypothesis theta <= D_Gamma + "
    "Delta at D_Gamma = alpha theta, for alpha = lam = e^{-eps/4}, theta = 4 Delta/eps, on the WHOLE domain "
    "eps = 20 + 4 ln Delta + s, s >= 0, Delta >= 2/e (unbounded in s and Delta).  "
    "(i) sympy (exact) reduces each ratio rhs/lhs of the registry's expressions to a function of "
    "u = eps/4, A = e^{-u} and Delta (e.g. RHS_8/RHS_18 = 2 c_DGam, c_DGam(alpha theta) = P(A, A); "
    "RHS_9/RHS_8 = 3/(1 + 2A/u); e^eps/RHS_9 = e^{u-2A}/(48 Delta)); the arb margins equal their logs at "
    "exact points.  (ii) Certified in ball arithmetic on (s, Delta) in [0, 180] x [0.7357, 100].  "
    "(iii) Whole domain: u >= u0 = 5 + ln 0.7357 > 0, A <= a0 = e^{-u0} < 1/e, 1/u <= w0 = 1/u0, "
    "Delta >= 0.7357, s >= 0 give lower bounds certified on compact boxes in A in [0, a0] and w = 1/u in "
    "[0, w0]: ln 2 + ln P(A, A) >= ln 2 + a0 ln a0 - A - ln Gamma(1+A) (from gamma(a, x) >= x^a e^{-x}/a, "
    "a ln a decreasing on (0, 1/e)); ln 3 - ln(1 + 2Aw); eq-10 >= 5 - ln 48 - 2A (s/4 >= 0); "
    "ln u - ln(1-A) >= -ln w0 - ln(1-A); ln(u + A) >= ln(1/w0 + A); u - ln u increases (1 - w > 0), "
    "so lam <= theta/2 margin >= ln Delta_lo - ln 2 + u0 - ln u0; lam <= Delta/ln 2 margin >= ln Delta_lo + "
    "u0 - ln ln 2; u - ln 2 >= u0 - ln 2 (ball checks).  hyp-gamma: Note 2 (note2_certificate) on (0, 1] "
    "contains alpha <= a0.  Not certified here: Lemma 18 itself (the ratio bound) and Chen & Rubin's "
    "median bound in general (only its instance c_DGam(alpha theta) >= 1/2 for alpha <= a0 is certified)."
)


def lemma19_algebra_certificate(s_max=180, delta_max=100, prec=64):
    r"""Lemma 19 (Appendix C.4): the algebra from Lemma 18 to :math:`e^\varepsilon`, steps (7)-(10).

    Paper's parameters :math:`\alpha=\lambda=e^{-\varepsilon/4}=A`,
    :math:`\theta=4\Delta/\varepsilon`, :math:`u=\varepsilon/4`,
    :math:`\varepsilon = 20+4\ln\Delta+s`, :math:`s\ge0`, :math:`\Delta\ge2/e`, and
    :math:`D_\Gamma=\alpha\theta`, :math:`c_L=1/4`.  Each step ``lhs <= rhs`` of the
    registry (``RHS_18``, ``RHS_8``, ``RHS_9`` of :mod:`arete_proofs.chain.registry`) is
    certified as the log-margin :math:`\ln(\mathrm{rhs}/\mathrm{lhs}) > 0`; sympy first
    reduces the ratios exactly:

    .. math::
        \frac{\mathrm{RHS}_8}{\mathrm{RHS}_{18}} = 2c_{D_\Gamma} = 2P(A, A),\quad
        \frac{\mathrm{RHS}_9}{\mathrm{RHS}_8} = \frac{3}{1+2A/u},\quad
        \frac{e^\varepsilon}{\mathrm{RHS}_9} = \frac{e^{u-2A}}{48\Delta},

    and the hypotheses (9) (with Lemma 18's :math:`\theta\le D_\Gamma+\Delta`):
    :math:`\frac{\Delta/(1-\alpha)}{\theta} = \frac{u}{1-A}`,
    :math:`\frac{D_\Gamma+\Delta}{\theta} = u + A`,
    :math:`\frac{\theta/2}{\lambda} = \frac{\Delta e^u}{2u}`,
    :math:`\frac{\Delta/\ln 2}{\lambda} = \frac{\Delta e^u}{\ln 2}`,
    :math:`\frac{1/2}{\alpha} = \frac{e^u}{2}`; :math:`\Gamma(\alpha)\le1/\alpha` is Note 2.

    Certified on the box :math:`(s,\Delta)\in[0,s_{max}]\times[0.7357,\Delta_{max}]`, and on
    the whole unbounded domain through lower bounds that hold for every :math:`u\ge u_0 =
    5+\ln 0.7357`, :math:`A\le a_0=e^{-u_0}`, certified on compact boxes in :math:`A\in[0,a_0]`
    and :math:`w=1/u\in[0,1/u_0]` (e.g. :math:`\ln 2P(A,A)\ge \ln 2 + a_0\ln a_0 - A -
    \ln\Gamma(1+A)`, from :math:`\gamma(a,x)\ge x^a e^{-x}/a`); see the returned ``argument``.
    Lemma 18 itself is not certified here.

    >>> c = lemma19_algebra_certificate()
    >>> c.holds, c.undecided_or_refuted_box is None, c.min_margin() > 0
    (True, True, True)
    """
    t0 = time.perf_counter()
    parts = _lemma19_algebra(20, s_max, delta_max, prec)
    c = _combine("Lemma 19 (Appendix C.4, steps (7)-(10))",
                    "RHS_18(D_Gamma = alpha theta) <= RHS_8 <= RHS_9 <= e^eps and (9), alpha = lam = e^{-eps/4}, "
                    "theta = 4 Delta/eps, eps >= 20 + 4 ln Delta, Delta >= 2/e",
                    parts, _L19_ALG_ARG)
    c.seconds = time.perf_counter() - t0  # including the (cached) sympy reductions
    return c


def lemma19_algebra_false_certificate(prec=64):
    r"""Deliberately false variant of :func:`lemma19_algebra_certificate`: the threshold of
    Lemma 19 lowered to :math:`\varepsilon\ge 12+4\ln\Delta`.

    Step (10) then fails: its margin :math:`3 + s/4 - \ln 48 - 2e^{-3-s/4}/\Delta` is
    negative near :math:`s=0` (:math:`\ln 48\approx3.87`), so the box certificate is refuted.

    >>> c = lemma19_algebra_false_certificate()
    >>> c.holds, sorted(c.undecided_or_refuted_box)
    (False, ['Delta', 's'])
    """
    parts = _lemma19_algebra(12, 180, 100, prec, with_note2=False)
    return _combine("Lemma 19 algebra (false variant: eps >= 12 + 4 ln Delta)",
                    "RHS_9 <= e^eps for eps >= 12 + 4 ln Delta", parts, "must be refuted")


# ---------------------------------------------------------------- Lemma 28

_L28_ARG = (
    "With D = D_Gamma + Delta, u = D + kappa and gap = 1/lam - 1/theta = 1/u + g (g >= 0 is the "
    "hypothesis), d/dt ln g(t) = (1-alpha)/(D+t) - gap <= (1-alpha)/u - gap for t >= kappa "
    "(D + t >= u > 0).  Certified: gap - (1-alpha)/u > 0 on the box; algebraically it equals "
    "g + alpha/u > 0 for all g >= 0, alpha > 0, u > 0, which covers the unbounded ranges.  "
    "Integrating the non-positive derivative over [kappa, t] gives g(t) <= g(kappa)."
)


def lemma28_certificate(box=None, prec=64):
    r"""Lemma 28: :math:`g(t) = (D+t)^{1-\alpha}e^{-t\,\mathrm{gap}}` is non-increasing on
    :math:`[\kappa,\infty)` when :math:`\mathrm{gap} = 1/\lambda-1/\theta \ge 1/(\kappa+D)`,
    :math:`D = D_\Gamma+\Delta`.

    Certified: :math:`\mathrm{gap} - (1-\alpha)/(D+\kappa) > 0` with
    :math:`\mathrm{gap} = 1/(D+\kappa) + g`, on the default box
    :math:`\alpha\in[1/20,1]`, :math:`D\in[1/2,4]`, :math:`g\in[0,4]`, :math:`\kappa\in[0,4]`.
    Since :math:`(1-\alpha)/(D+t)\le(1-\alpha)/(D+\kappa)` for :math:`t\ge\kappa`,
    :math:`\frac{d}{dt}\ln g(t) < 0` there.  Unbounded part: the margin equals
    :math:`g + \alpha/(D+\kappa)` identically (checked at the box corners in ball
    arithmetic), positive for every :math:`g\ge0`, :math:`\alpha>0`, :math:`D+\kappa>0`.

    >>> lemma28_certificate().holds
    True
    """
    from flint import arb

    if box is None:
        box = {"alpha": (Fraction(1, 20), 1), "D": (Fraction(1, 2), 4), "g": (0, 4), "kappa": (0, 4)}

    def margin(alpha, D, g, kappa):
        u = D + kappa
        gap = 1 / u + g
        return gap - (1 - alpha) / u

    c = certify_box(margin, box, prec=prec)
    # identity check margin == g + alpha/u at a few exact points
    for a, D, g, k in [(Fraction(1, 20), Fraction(1, 2), 0, 0), (1, 4, 4, 4), (Fraction(1, 3), 2, 1, 3)]:
        a_, D_, g_, k_ = (_arb_of_fraction(Fraction(x)) for x in (a, D, g, k))
        diff = margin(a_, D_, g_, k_) - (g_ + a_ / (D_ + k_))
        assert diff.contains(0) and abs(diff).upper() < arb("1e-15")
    c.statement = "Lemma 28"
    c.inequality = "(1-alpha)/(D_Gamma+Delta+kappa) - (1/lam - 1/theta) <= 0 under 1/lam-1/theta >= 1/(kappa+Delta+D_Gamma)"
    c.argument = _L28_ARG
    return c


# ---------------------------------------------------------------- Lemma 14 (theta = 1)

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


def _outer(x):
    """Exact floats lo <= every point of the ball x <= hi."""
    from flint import arb

    lo = float(x.lower())
    lo -= abs(lo) * 1e-12 + 1e-300
    hi = float(x.upper())
    hi += abs(hi) * 1e-12 + 1e-300
    if not (arb(lo) < x and arb(hi) > x):
        raise ArithmeticError("could not bound ball by floats")
    return lo, hi


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

        from ..chain.symbols import explicit, f_Gamma

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

        from ..chain.symbols import explicit, f_Gamma

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


# ---------------------------------------------------------------- Corollary 5 (points)

#: (eps, Delta) points of Lemma 3's domain (Delta >= 2/e, eps >= 20 + 4 ln Delta) certified by default
COROLLARY5_POINTS = ((20, 1), (30, 1), (40, 1), (60, 1), (30, 10), (40, 10), (60, 10))

_C5_ARG = (
    "At each point (eps, Delta): alpha = lam = e^{-eps/4} as an arb ball (128 bits) that contains the "
    "exact value, theta = 4 Delta/eps exactly; certified_epsilon.certify_epsilon proves, for every "
    "parameter value in the balls, "
    "sup_t ln f_A(t)/f_A(t + Delta) <= bound (ball-arithmetic densities on a cover of [0, T], a certified "
    "tail bound for t >= T, symmetry for t < 0), and the margin is eps - bound.  Points only: the "
    "continuum of (eps, Delta) between the points is not covered."
)


def _corollary5(points, claim, prec):
    from flint import arb, ctx

    from .epsilon import certify_epsilon

    t0 = time.perf_counter()
    parts = []
    for e, d in points:
        e, d = Fraction(e), Fraction(d)
        old, ctx.prec = ctx.prec, 128
        try:
            a = (-_arb_of_fraction(e) / 4).exp()  # a ball containing e^{-eps/4} itself
        finally:
            ctx.prec = old
        theta = 4 * d / e
        claimed = claim(e)
        r = certify_epsilon(a, theta, a, d, numeric=False, tol="1e-2", prec=prec)
        box = {"eps": (e, e), "Delta": (d, d)}
        c_lo = _arb_of_fraction(Fraction(claimed))
        if r.upper <= claimed:
            margin = float((c_lo - arb(r.upper)).lower())
            parts.append(Certificate("", "", True, [(box, margin)], None))
        elif r.lower is not None and r.lower > claimed:
            parts.append(Certificate("", "", False, [], box))
        else:
            parts.append(Certificate("", "", None, [], box))
    c = _combine("", "", parts, _C5_ARG)
    c.seconds = time.perf_counter() - t0
    return c


def corollary5_certificate(points=COROLLARY5_POINTS, prec=64):
    r"""Corollary 5 (with Lemma 3's parameters): the tight epsilon is at most :math:`\varepsilon`.

    For each :math:`(\varepsilon,\Delta)` in ``points``, with :math:`\alpha=\lambda=e^{-\varepsilon/4}`
    (an arb ball containing the exact value) and :math:`\theta=4\Delta/\varepsilon`, proves
    :math:`\sup_t\ln f_A(t)/f_A(t+\Delta)\le\varepsilon` in ball arithmetic
    (:func:`arete_proofs.certified.epsilon.certify_epsilon`); the margin is
    :math:`\varepsilon` minus the certified bound.  A "box" is a single point.

    >>> c = corollary5_certificate(points=((20, 1),))
    >>> c.holds, c.min_margin() > 5     # tight epsilon 14.2498... <= 20
    (True, True)
    """
    c = _corollary5(points, lambda e: e, prec)
    c.statement = "Corollary 5 (privacy, at points)"
    c.inequality = "sup_t ln f_A(t)/f_A(t + Delta) <= eps, alpha = lam = e^{-eps/4}, theta = 4 Delta/eps"
    return c


def corollary5_false_certificate(points=((20, 1),), prec=64):
    r"""Deliberately false: Corollary 5 with :math:`\varepsilon` replaced by :math:`0.7\varepsilon`.

    At :math:`(20, 1)` the tight epsilon is 14.2498... > 14: the certified *lower* bound
    refutes the claim.

    >>> corollary5_false_certificate().holds
    False
    """
    c = _corollary5(points, lambda e: Fraction(7, 10) * e, prec)
    c.statement = "Corollary 5 (false variant)"
    c.inequality = "sup_t ln f_A(t)/f_A(t + Delta) <= 0.7 eps"
    return c
