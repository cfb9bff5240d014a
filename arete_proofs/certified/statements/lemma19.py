r"""Lemma 19 (proof in Appendix C.4 of the paper), in ball arithmetic.

* :func:`lemma19_certificate` -- the final inequality
  :math:`48 e^{2\alpha}\Delta e^{3\varepsilon/4}\le e^{\varepsilon}` for
  :math:`\alpha = e^{-\varepsilon/4}`, :math:`\varepsilon\ge20+4\ln\Delta`, :math:`\Delta\ge2/e`;
* :func:`lemma19_algebra_certificate` -- the algebra from Lemma 18 to
  :math:`e^\varepsilon` (steps (7)-(10) and the hypotheses (9)) at the paper's
  parameters on the whole unbounded domain: sympy reduces the registry's
  ratios (:func:`_lemma19_reductions`), ball arithmetic certifies their logs
  (:func:`_l19_margins`) on a box and through tail bounds;
* ``lemma19_false_certificate``, ``lemma19_algebra_false_certificate`` --
  false variants that must be refuted.
"""

from __future__ import annotations

import time
from fractions import Fraction

from ..balls import _arb_of_fraction, _combine, certify_box
from ._common import _ball_certificate, _identity_failure, _rational_above
from .note2 import note2_certificate

__all__ = [
    "lemma19_certificate",
    "lemma19_false_certificate",
    "lemma19_algebra_certificate",
    "lemma19_algebra_false_certificate",
]


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

    from ...chain.registry import REGISTRY
    from ...chain.symbols import (CONSTANTS, D_Gamma, Delta, PAPER_PARAMETERS, alpha, c_DGam, eps, explicit,
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
