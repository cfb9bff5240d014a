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
* :func:`lemma14_upper_certificate`, :func:`lemma14_lower_certificate` -- Lemma 14
  for :math:`\theta = 1` on compact boxes.
* :func:`pdf_at_zero_ball` -- a ball containing :math:`f_A(0)`.

>>> c = lemma19_certificate()
>>> c.holds, len(c.boxes) > 0
(True, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = [
    "Certificate",
    "certify_box",
    "note2_certificate",
    "note2_false_certificate",
    "lemma28_certificate",
    "lemma19_certificate",
    "lemma19_false_certificate",
    "lemma14_upper_certificate",
    "lemma14_lower_certificate",
    "pdf_at_zero_ball",
]


@dataclass
class Certificate:
    """Result of a box certification.

    ``holds`` is ``True`` (certified on every sub-box), ``False`` (a sub-box where
    the margin is certainly negative was found) or ``None`` (undecided: depth or
    width exhausted).  ``boxes`` lists ``(box, margin lower bound)`` of the
    certified sub-boxes; ``undecided_or_refuted_box`` is the first box that could
    not be certified (``None`` when ``holds`` is ``True``).
    """

    statement: str
    inequality: str
    holds: bool | None
    boxes: list = field(default_factory=list)
    undecided_or_refuted_box: dict | None = None
    seconds: float = 0.0
    argument: str = ""

    def min_margin(self):
        """Smallest certified margin lower bound over the sub-boxes (float)."""
        return min(m for _, m in self.boxes) if self.boxes else None


def _flint():
    import flint  # noqa: F401  (lazy: python-flint is optional)

    return flint


def _exact(x):
    """Exact rational from int / Fraction / decimal string / float."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, float)):
        return Fraction(x)
    if isinstance(x, str):
        return Fraction(x)
    raise TypeError(f"box endpoints must be exact rationals, got {x!r}")


def _arb_of_fraction(q):
    from flint import arb

    return arb(q.numerator) / arb(q.denominator)


def _to_arb(x):
    """Ball containing the real number ``x`` (exact for ints, floats, mpf, dyadics)."""
    from flint import arb

    if isinstance(x, arb):
        return x
    if isinstance(x, Fraction):
        return _arb_of_fraction(x)
    if isinstance(x, (int, float)):
        return arb(x)
    if isinstance(x, str):
        return arb(x)
    if hasattr(x, "man_exp"):  # mpmath mpf: exact dyadic
        man, exp = x.man_exp
        return arb(int(man)) * arb(2) ** int(exp)
    raise TypeError(f"cannot convert {x!r} to arb")


def _interval(lo, hi):
    a, b = _arb_of_fraction(lo), _arb_of_fraction(hi)
    return a if lo == hi else a.union(b)


def certify_box(margin, box, *, max_depth=40, min_width=Fraction(1, 10**9), max_boxes=20000,
                prec=64, statement="", inequality="margin > 0"):
    """Certify ``margin(**balls) > 0`` on the box ``{name: (lo, hi)}``.

    Depth-first bisection of the widest coordinate.  Stops at the first sub-box
    where the margin is certainly negative (``holds=False``) or where depth,
    width or the box budget is exhausted (``holds=None``).

    >>> from flint import arb
    >>> c = certify_box(lambda x: 2 - x * x, {"x": ("-1", "1")})
    >>> c.holds
    True
    >>> certify_box(lambda x: x - arb("0.5"), {"x": (0, 1)}).holds
    False
    """
    from flint import ctx

    t0 = time.perf_counter()
    box = {k: (_exact(lo), _exact(hi)) for k, (lo, hi) in box.items()}
    min_width = _exact(min_width)
    old = ctx.prec
    ctx.prec = prec
    certified = []
    result, bad = True, None
    try:
        stack = [(box, 0)]
        count = 0
        while stack:
            b, depth = stack.pop()
            count += 1
            m = margin(**{k: _interval(lo, hi) for k, (lo, hi) in b.items()})
            if m.lower() > 0:
                certified.append((b, float(m.lower())))
                continue
            if m.upper() < 0:
                result, bad = False, b
                break
            name = max(b, key=lambda k: b[k][1] - b[k][0])
            lo, hi = b[name]
            if depth >= max_depth or hi - lo < min_width or count >= max_boxes:
                result, bad = None, b
                break
            mid = (lo + hi) / 2
            left, right = dict(b), dict(b)
            left[name], right[name] = (lo, mid), (mid, hi)
            stack.append((right, depth + 1))
            stack.append((left, depth + 1))
    finally:
        ctx.prec = old
    return Certificate(statement, inequality, result, certified, bad, time.perf_counter() - t0)


def _combine(statement, inequality, parts, argument):
    holds = True
    bad = None
    boxes = []
    for c in parts:
        boxes.extend(c.boxes)
        if c.holds is not True and holds is True:
            holds, bad = c.holds, c.undecided_or_refuted_box
    return Certificate(statement, inequality, holds, boxes, bad, sum(c.seconds for c in parts), argument)


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
    :func:`arete_proofs.gamma_gamma.pdf`).  Uses the scaled :math:`e^tK_\nu(t)`.
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


def lemma14_upper_certificate(box=None, prec=64):
    r"""Lemma 14, upper bound :math:`f_{\Gamma-\Gamma}(t)\le f_\Gamma(t)`, :math:`\theta=1`.

    Log-margin :math:`\ln f_\Gamma(t)-\ln f_{\Gamma-\Gamma}(t)` with
    :math:`f_{\Gamma-\Gamma}(t)=(t/2)^{\alpha-1/2}K_{\alpha-1/2}(t)/(\sqrt\pi\Gamma(\alpha))`,
    certified on :math:`\alpha\in[1/20,1]`, :math:`t\in[1/10,50]` (default).
    (:math:`\theta = 1` by scale invariance; :math:`t<0` by symmetry.)

    Unbounded part (:math:`t>50`), an analytic argument not checked by the code:
    :math:`K_\nu(t)=\int_0^\infty e^{-t\cosh u}\cosh(\nu u)du` increases in
    :math:`|\nu|`, so for :math:`|\alpha-1/2|\le1/2`,
    :math:`K_{\alpha-1/2}(t)\le K_{1/2}(t)=\sqrt{\pi/(2t)}e^{-t}`, which gives
    :math:`f_{\Gamma-\Gamma}(t)\le 2^{-\alpha}f_\Gamma(t)` for every :math:`t>0`.

    >>> lemma14_upper_certificate().holds
    True
    """
    if box is None:
        box = {"alpha": (Fraction(1, 20), 1), "t": (Fraction(1, 10), 10)}

    def margin(alpha, t):
        log_fg_plus_t = (alpha - 1) * t.log()  # ln f_Gamma(t) + t + ln Gamma(alpha)
        return log_fg_plus_t - _log_fgg_plus_t(alpha, t)

    c = certify_box(margin, box, prec=prec)
    c.statement = "Lemma 14 (upper bound, theta = 1)"
    c.inequality = "f_GG(t) <= f_Gamma(t)"
    c.argument = "compact box only; t beyond the box by K_nu <= K_{1/2} (docstring, analytic)"
    return c


def lemma14_lower_certificate(box=None, prec=64):
    r"""Lemma 14, lower bound :math:`f_\Gamma(t+D_\Gamma)c_{D_\Gamma}\le f_{\Gamma-\Gamma}(t)`, :math:`\theta=1`.

    :math:`c_D = P(\alpha, D)` (regularized lower incomplete gamma, arb
    ``gamma_lower(..., regularized=1)``).  Log-margin
    :math:`\ln f_{\Gamma-\Gamma}(t) - \ln f_\Gamma(t+D) - \ln c_D`, certified on
    :math:`\alpha\in[1/20,1]`, :math:`t\in[1/10,20]`, :math:`D\in[1/10,4]` (default).

    Not certified beyond the box: for :math:`t` outside it the statement rests on
    the paper's analytic proof (Appendix C.3: :math:`f_\Gamma` is non-increasing for
    :math:`\alpha\le 1`, so :math:`\int_0^D f_\Gamma(t+x)f_\Gamma(x)dx\ge f_\Gamma(t+D)c_D`).

    >>> lemma14_lower_certificate().holds
    True
    """
    if box is None:
        box = {"alpha": (Fraction(1, 4), 1), "t": (Fraction(1, 10), 2), "D": (Fraction(1, 10), 1)}

    def margin(alpha, t, D):
        # ln f_Gamma(t+D) + t + ln Gamma(alpha) = (alpha-1) ln(t+D) - D
        return _log_fgg_plus_t(alpha, t) - ((alpha - 1) * (t + D).log() - D) - D.gamma_lower(alpha, regularized=1).log()

    c = certify_box(margin, box, prec=prec)
    c.statement = "Lemma 14 (lower bound, theta = 1)"
    c.inequality = "f_Gamma(t + D_Gamma) c_{D_Gamma} <= f_GG(t)"
    c.argument = "compact box only; the unbounded t-range is not certified here"
    return c


# ---------------------------------------------------------------- f_A(0)

def pdf_at_zero_ball(alpha, theta, lam, prec=128):
    r"""Ball containing :math:`f_A(0)` (Gradshteyn-Ryzhik 6.621.3, as in
    :func:`arete_proofs.arete.pdf_at_zero`):

    .. math:: f_A(0) = \frac{(1+r)^{-2\alpha}\Gamma(2\alpha)}{\Gamma(\alpha)\Gamma(\alpha+1)\lambda}
              {}_2F_1\!\left(2\alpha,\alpha;\alpha+1;\frac{r-1}{r+1}\right),\quad r=\theta/\lambda.

    Parameters may be ints, Fractions, floats, decimal strings or mpf.

    >>> b = pdf_at_zero_ball(1, 2, 3)    # alpha = 1: 1/(2 (theta + lam)) = 1/10
    >>> (10 * b - 1).contains(0), b.rad() < 1e-30
    (True, True)
    """
    from flint import ctx

    old = ctx.prec
    ctx.prec = prec
    try:
        a, th, lam = _to_arb(alpha), _to_arb(theta), _to_arb(lam)
        r = th / lam
        z = (r - 1) / (r + 1)
        pre = (-2 * a * (1 + r).log() + (2 * a).lgamma() - a.lgamma() - (a + 1).lgamma()).exp()
        return pre * z.hypgeom_2f1(2 * a, a, a + 1) / lam
    finally:
        ctx.prec = old
