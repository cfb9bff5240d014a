r"""Matching upper bounds for the floors of symmetric infinitely divisible (ID) :math:`\varepsilon`-DP noise.

Theorems F and E (:mod:`~arete_proofs.privacy.id_mean_abs`, :mod:`~arete_proofs.privacy.id_variance`) prove that every
symmetric ID :math:`\varepsilon`-DP noise has :math:`E|Z|` and :math:`\operatorname{Var} Z` at least about
:math:`2/\sqrt\pi` and :math:`(6/\pi)^{1/3}` times the Staircase's, as :math:`\varepsilon \to \infty`.  This module proves
that these constants are attained: a Gaussian plus a compound Poisson part whose jumps have a staircase density.
:math:`\Delta = 1` (scale :math:`Z` by :math:`\Delta` otherwise), :math:`q = e^{-\varepsilon}`,
:math:`\Phi` the standard normal distribution function, :math:`\varphi_\sigma` the :math:`N(0, \sigma^2)` density.

**The noise.**  For :math:`a > 0` and :math:`b \ge 1` the *staircase jump law* has the density

.. math::

    g(y) = c\,e^{-a k_b(y)},\qquad k_b(y) = \max(\lceil |y| - b\rceil, 0),\qquad
    c = \frac{1}{2(b + r/(1 - r))},\ r = e^{-a},

flat on :math:`[-b, b]` and falling by :math:`e^{-a}` per unit step beyond.  The noise is

.. math::

    Z = G + \sum_{i=1}^{N} Y_i,\qquad G \sim N(0, \sigma^2),\ N \sim \mathrm{Poisson}(\lambda),\ Y_i \sim g,

all independent, with :math:`b = 1 + B\sigma`.  It is ID (a Gaussian plus a compound Poisson law): each of :math:`n`
parties adds :math:`N(0, \sigma^2/n)` plus a compound Poisson sum of rate :math:`\lambda/n`.

**Theorem U1 (privacy).**  Let :math:`0 < a < \varepsilon`, :math:`0 < \sigma \le 1/2`, :math:`B > 0`,
:math:`2\sigma^2(2a + \ln\frac{21}{10}) \le 1`, :math:`\kappa_B = \inf_{v \ge 0} e^{v^2/2}\Phi(B - v)` and

.. math::

    \lambda c\,(e^\varepsilon - e^a)\,(1 - e^{-3/(2\sigma^2)})\,\kappa_B \;\ge\; \varphi_\sigma(0) = \frac{1}{\sqrt{2\pi}\sigma}.

Then :math:`f_Z(t) \le e^\varepsilon f_Z(t + s)` for all :math:`t` and :math:`|s| \le 1`: :math:`Z` is
:math:`\varepsilon`-DP.

*Proof.*  :math:`f_Z = e^{-\lambda}\varphi_\sigma + h`, :math:`h = e^{-\lambda}\sum_{n \ge 1}\frac{\lambda^n}{n!}
\varphi_\sigma * g^{*n}`.

1. *The jump part has ratio* :math:`e^a`.  For :math:`|y - y'| \le 1`, :math:`||y| - |y'|| \le 1`, so
   :math:`|k_b(y) - k_b(y')| \le 1` and :math:`g(y) \le e^a g(y')`.  Hence :math:`(g * \mu)(t) \le e^a (g * \mu)(t + s)`
   for every positive measure :math:`\mu`, and every term of :math:`h` is :math:`g *` (a positive measure):
   :math:`h(t) \le e^a h(t + s)`.
2. *It suffices that* :math:`\varphi_\sigma(t) \le K\,(\varphi_\sigma * g)(t + s)/c` *with*
   :math:`K = (e^\varepsilon - e^a)\lambda c`: then, as :math:`h \ge \lambda e^{-\lambda}\varphi_\sigma * g`,
   :math:`e^{-\lambda}\varphi_\sigma(t) \le (e^\varepsilon - e^a)h(t + s)` and
   :math:`f_Z(t) \le (e^\varepsilon - e^a)h(t+s) + e^a h(t+s) \le e^\varepsilon f_Z(t+s)`.
3. *Lower bounds of the jump density.*  :math:`g \ge c\,e^{-aj}1_{[-(b+j), b+j]}` for each integer :math:`j \ge 0`, so
   :math:`(\varphi_\sigma * g)(x)/c \ge e^{-aj}P(|x + G| \le b + j)`, a function of :math:`|x|` that falls as
   :math:`|x|` grows.  The worst shift is therefore :math:`x = |t| + 1`; take :math:`t \ge 0`, :math:`v = t/\sigma`.
4. :math:`0 \le t < 1` (:math:`j = 0`): :math:`P(|x + G| \le b) = \Phi(B - v) - \Phi(-(b + x)/\sigma)`, and
   :math:`\Phi(-(b+x)/\sigma) \le \Phi(-2/\sigma) \le e^{-3/(2\sigma^2)}\Phi(-1/\sigma) \le e^{-3/(2\sigma^2)}\Phi(B - v)`
   (Mills' bounds :math:`\frac{z}{1+z^2}\varphi_1(z) \le \Phi(-z) \le \varphi_1(z)/z`, :math:`\sigma \le 1`).  So
   :math:`K(\varphi_\sigma * g)(x)/c \ge K(1 - e^{-3/(2\sigma^2)})\Phi(B - v) \ge \varphi_\sigma(0)e^{-v^2/2}/\kappa_B\cdot
   \kappa_B = \varphi_\sigma(t)` by the hypothesis and the definition of :math:`\kappa_B`.
5. :math:`t \ge 1`: :math:`j = \max(\lceil t - B\sigma\rceil, 0)` has :math:`x \le b + j`, so
   :math:`P(|x + G| \le b + j) \ge \frac12 - \Phi(-1/\sigma) \ge \frac{10}{21}` (:math:`\sigma \le 1/2`), and
   :math:`K \ge \varphi_\sigma(0)` (as :math:`\kappa_B \le \Phi(B) < 1`).  It remains that
   :math:`e^{-t^2/(2\sigma^2)} \le \frac{10}{21}e^{-aj}`: with :math:`j \le t + 1 \le 2t` and :math:`t \ge 1` it follows from
   :math:`t \ge 2\sigma^2(2a + \ln\frac{21}{10})`, the hypothesis.  :math:`\square`

:func:`kappa_lower` certifies :math:`\kappa_B` in ``arb`` (branch and bound; on a cell :math:`[v_1, v_2]` the function is
at least :math:`e^{v_1^2/2}\Phi(B - v_2)`, and beyond :math:`v = B + 1` it exceeds 1).  Analytically
(:func:`kappa_rule`): :math:`\kappa_B \ge \Phi(B - \frac12)` for :math:`B \ge \frac{12}5`, splitting :math:`v` at
:math:`\frac12`, :math:`\sqrt{2\ln 2}`, :math:`B`, :math:`B + 1` (on :math:`[\frac12, \sqrt{2\ln2}]`,
:math:`e^{1/8}\Phi(B - \sqrt{2\ln 2}) \ge 1.007`; on :math:`[\sqrt{2\ln2}, B]`, :math:`2\cdot\frac12`; on
:math:`[B, B+1]`, :math:`e^{B^2/2}\Phi(-1) > 1`; beyond, with :math:`u = v - B \ge 1`, Mills' lower bound gives at least
:math:`e^{B^2/2 + Bu}/(2u\sqrt{2\pi}) > 1`).

**Theorem U2 (errors).**  With :math:`S_0 = \frac{r}{1-r}`, :math:`S_1 = \frac{r}{(1-r)^2}`, :math:`S_2 = \frac{r(1+r)}{(1-r)^3}`,

.. math::

    E|Y| = c\big(b^2 + (2b - 1)S_0 + 2S_1\big),\qquad
    E Y^2 = \tfrac{2c}{3}\big(b^3 + 3(b^2S_0 + 2bS_1 + S_2) - 3(bS_0 + S_1) + S_0\big),

    E|Z| \le e^{-\lambda}\sigma\sqrt{2/\pi} + \lambda E|Y| + (1 - e^{-\lambda})c\sigma^2,\qquad
    \operatorname{Var} Z = \sigma^2 + \lambda E Y^2.

*Proof.*  The moments sum the steps :math:`\int_{b+k-1}^{b+k} y^n\,dy`.  Given :math:`N = n \ge 1`,
:math:`S_n = Y_1 + \dots + Y_n` is symmetric with density at most :math:`c`, so
:math:`E|G + S_n| = E\max(|G|, |S_n|)` (:math:`\frac12(|w+y| + |w-y|) = \max(|w|, |y|)`) :math:`\le E|S_n| +
E(|G| - |S_n|)_+ \le nE|Y| + E\int_0^{|G|}2cu\,du = nE|Y| + c\sigma^2`.  The variance of a compound Poisson sum is
:math:`\lambda EY^2`.  :math:`\square`

**Theorem U3 (the rules and the limits)** is in :mod:`arete_proofs.privacy.id_upper_rules`.

>>> row = certify_row(20, "mean_abs")
>>> row["holds"] and 1.128 < row["ratio"] < 1.129          # 2/sqrt(pi) = 1.12838
True
"""

from __future__ import annotations

import math
from fractions import Fraction

from .id_bounds import _flint
from .id_variance import _arb, _open_unit, _positive

__all__ = [
    "OBJECTIVES",
    "jump_constant",
    "jump_moments",
    "kappa_lower",
    "kappa_rule",
    "privacy_condition",
    "least_rate",
    "errors",
    "staircase_mean_abs",
    "staircase_variance_lower",
    "certify_row",
    "row_table",
    "ROW_EPS",
]

OBJECTIVES = ("mean_abs", "variance")
#: the epsilons of the docs table
ROW_EPS = tuple(range(2, 21))

_PREC = 192          # bits of the balls: Phi(-1/sigma) and e^{-3/(2 sigma^2)} are far below 2^-53
_LN_21_10 = Fraction(21, 10)


def _ctx():
    flint = _flint()
    return flint, flint.ctx.extraprec(_PREC)


def _ncdf(x):
    """:math:`\\Phi(x)` as a ball (``x`` a ball)."""
    flint = _flint()
    return (-x / flint.arb(2).sqrt()).erfc() / 2


def _objective(objective):
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    return objective


def jump_constant(a, b):
    r"""The ball :math:`c = 1/(2(b + r/(1-r)))`, :math:`r = e^{-a}`: the height of the staircase jump density.

    ``a`` and ``b`` may be balls (for the rules) or exact numbers (checked: :math:`a > 0`, :math:`b \ge 1`).

    >>> c = jump_constant(3, 1)
    >>> bool(abs(float(c.mid()) - 1 / (2 * (1 + math.exp(-3) / (1 - math.exp(-3))))) < 1e-15)
    True
    """
    a, b = _ab(a, b)
    r = (-a).exp()
    return 1 / (2 * (b + r / (1 - r)))


def _ab(a, b):
    flint = _flint()
    if not isinstance(a, flint.arb):
        a = _arb(_positive(a, "a"))
    if not isinstance(b, flint.arb):
        bb = _positive(b, "b")
        if bb < 1:
            raise ValueError(f"b must be at least 1, got {b!r}")
        b = _arb(bb)
    return a, b


def jump_moments(a, b):
    r"""Balls ``(c, E|Y|, E Y^2)`` of the staircase jump law (Theorem U2).

    >>> c, m1, m2 = jump_moments(40, 1)        # r = e^-40: the uniform law on [-1, 1]
    >>> round(float(c.mid()), 12), round(float(m1.mid()), 12), round(float(m2.mid()), 12)
    (0.5, 0.5, 0.333333333333)
    """
    a, b = _ab(a, b)
    r = (-a).exp()
    c = 1 / (2 * (b + r / (1 - r)))
    s0, s1, s2 = r / (1 - r), r / (1 - r) ** 2, r * (1 + r) / (1 - r) ** 3
    m1 = c * (b * b + (2 * b - 1) * s0 + 2 * s1)
    m2 = 2 * c / 3 * (b ** 3 + 3 * (b * b * s0 + 2 * b * s1 + s2) - 3 * (b * s0 + s1) + s0)
    return c, m1, m2


def kappa_lower(B, *, rel=Fraction(1, 10 ** 6)):
    r"""A certified lower bound (an exact Fraction) of :math:`\kappa_B = \inf_{v \ge 0} e^{v^2/2}\Phi(B - v)`.

    The float64 infimum times :math:`1 - ` ``rel`` is proved by branch and bound in ``arb`` on :math:`[0, B + 1]`
    (beyond, the function exceeds 1: Theorem U1's analytic argument, valid for :math:`B \ge 2`; for smaller
    :math:`B` the cover is run to :math:`B + 8`, past which :math:`e^{v^2/2}\Phi(-8) > 1`).

    >>> k = kappa_lower(3)
    >>> 0.99 < float(k) < 0.99865                # a little below Phi(3) = 0.998650
    True
    """
    import numpy as np
    from scipy.special import log_ndtr

    Bf = _positive(B, "B")
    flint, prec = _ctx()
    b = float(Bf)
    end = b + (1 if b >= 2 else 8)
    vs = np.linspace(0.0, end, 20001)
    low = float(np.exp(np.min(vs * vs / 2 + log_ndtr(b - vs))))
    target = Fraction(f"{low * (1 - float(_positive(rel, 'rel'))):.9g}")
    with prec:
        Ba, t = _arb(Bf), _arb(target)
        stack = [(Fraction(0), Fraction(end))]
        cells = 0
        while stack:
            v1, v2 = stack.pop()
            cells += 1
            if cells > 200000:
                raise ValueError(f"B = {B!r}: kappa_B could not be certified")
            a1, a2 = _arb(v1), _arb(v2)
            if ((a1 * a1 / 2).exp() * _ncdf(Ba - a2)).lower() >= t.upper():
                continue
            mid = (v1 + v2) / 2
            stack += [(v1, mid), (mid, v2)]
    return target


def kappa_rule(B):
    r"""The ball :math:`\Phi(B - \frac12)`, a lower bound of :math:`\kappa_B` for :math:`B \ge 12/5` (Theorem U1's note).

    ``B`` may be a ball (the rules of :mod:`~arete_proofs.privacy.id_upper_rules`).

    >>> float(kappa_rule(3).upper()) < float(kappa_lower(3))
    True
    """
    flint = _flint()
    if not isinstance(B, flint.arb):
        Bf = _positive(B, "B")
        if Bf < Fraction(12, 5):
            raise ValueError(f"B must be at least 12/5 for the analytic bound, got {B!r}")
        B = _arb(Bf)
    elif not B.lower() >= _arb(Fraction(12, 5)).upper():
        raise ValueError(f"B must be at least 12/5 for the analytic bound, got {B!r}")
    with flint.ctx.extraprec(_PREC):
        return _ncdf(B - flint.arb(1) / 2)


def _condition_balls(eps, sigma, a, B, lam, kappa):
    """(hypotheses hold, margin ball) of Theorem U1 on balls; margin = lam c (e^eps - e^a)(1 - e^{-3/(2 s^2)}) kappa s sqrt(2 pi) - 1."""
    flint = _flint()
    pi = flint.arb.pi()
    b = 1 + B * sigma
    c = jump_constant(a, b)
    hyp = bool(a.upper() < eps.lower() and sigma.upper() <= 0.5 and B.lower() > 0 and lam.lower() > 0
               and (2 * sigma * sigma * (2 * a + _arb(_LN_21_10).log())).upper() <= 1)
    eta = 1 - (-3 / (2 * sigma * sigma)).exp()
    margin = lam * c * (eps.exp() - a.exp()) * eta * kappa * sigma * (2 * pi).sqrt() - 1
    return hyp, margin


def privacy_condition(eps, sigma, a, B, lam, *, kappa=None):
    r"""Theorem U1's hypotheses at exact parameters, checked in ``arb``: ``{"holds", "margin", "kappa"}``.

    ``holds`` is True when every hypothesis is proved (then the noise is :math:`\varepsilon`-DP); ``margin`` is the
    lower end of the main inequality's left side over its right side, minus 1.  ``kappa`` defaults to
    :func:`kappa_lower` of ``B``.

    >>> lam = least_rate(14, Fraction(1, 1000), 7, 3)
    >>> privacy_condition(14, Fraction(1, 1000), 7, 3, lam)["holds"]
    True
    >>> privacy_condition(14, Fraction(1, 1000), 7, 3, lam * Fraction(99, 100))["holds"]     # a rate too small
    False
    """
    e, s, aa, BB, la = (_positive(x, n) for x, n in ((eps, "eps"), (sigma, "sigma"), (a, "a"), (B, "B"),
                                                       (lam, "lam")))
    k = kappa_lower(BB) if kappa is None else _open_unit(kappa, "kappa")
    flint, prec = _ctx()
    with prec:
        hyp, margin = _condition_balls(_arb(e), _arb(s), _arb(aa), _arb(BB), _arb(la), _arb(k))
        ok = hyp and margin.lower() >= 0
        return {"holds": bool(ok), "hypotheses": hyp, "margin": float(margin.lower()), "kappa": k}


def least_rate(eps, sigma, a, B, *, kappa=None):
    r"""An exact rate :math:`\lambda` (a Fraction, 12 significant digits, rounded up) with Theorem U1's main
    inequality proved at :math:`(\varepsilon, \sigma, a, B)`.

    >>> lam = least_rate(20, Fraction(3, 100000), 10, 4)
    >>> 0 < lam < 1
    True
    """
    e, s, aa, BB = (_positive(x, n) for x, n in ((eps, "eps"), (sigma, "sigma"), (a, "a"), (B, "B")))
    k = kappa_lower(BB) if kappa is None else _open_unit(kappa, "kappa")
    flint, prec = _ctx()
    with prec:
        sa, aa_, Ba = _arb(s), _arb(aa), _arb(BB)
        c = jump_constant(aa_, 1 + Ba * sa)
        eta = 1 - (-3 / (2 * sa * sa)).exp()
        need = 1 / (c * (_arb(e).exp() - aa_.exp()) * eta * _arb(k) * sa * (2 * flint.arb.pi()).sqrt())
        if not need.is_finite() or not need > 0:
            raise ValueError(f"no rate satisfies Theorem U1 at eps = {eps!r}, a = {a!r} (need a < eps)")
        lam = Fraction(f"{float(need.upper()):.12g}")
        while not _arb(lam) >= need.upper():
            lam = Fraction(f"{float(lam) * (1 + 1e-11):.12g}")
        return lam


def errors(sigma, a, B, lam):
    r"""Balls of Theorem U2: ``{"mean_abs_upper", "variance", "c", "b"}`` at exact parameters.

    Without jumps (:math:`\lambda \to 0`) the noise is :math:`N(0, \sigma^2)`:

    >>> e = errors(Fraction(1, 10), 5, 3, Fraction(1, 10 ** 12))
    >>> abs(float(e["mean_abs_upper"].mid()) - 0.1 * math.sqrt(2 / math.pi)) < 1e-12, abs(float(e["variance"].mid()) - 0.01) < 1e-12
    (True, True)
    """
    s, aa, BB, la = (_positive(x, n) for x, n in ((sigma, "sigma"), (a, "a"), (B, "B"), (lam, "lam")))
    flint, prec = _ctx()
    with prec:
        sa, la_ = _arb(s), _arb(la)
        b = 1 + _arb(BB) * sa
        c, m1, m2 = jump_moments(_arb(aa), b)
        el = (-la_).exp()
        mean = el * sa * (2 / flint.arb.pi()).sqrt() + la_ * m1 + (1 - el) * c * sa * sa
        var = sa * sa + la_ * m2
        return {"mean_abs_upper": mean, "variance": var, "c": c, "b": b}


def staircase_mean_abs(eps):
    r"""The ball :math:`\sqrt q/(1 - q)`: the least :math:`E|Z|` of all :math:`\varepsilon`-DP noise (Lemma 27), :math:`\Delta = 1`.

    >>> round(float(staircase_mean_abs(8).mid()), 6)
    0.018322
    """
    e = _positive(eps, "eps")
    flint, prec = _ctx()
    with prec:
        q = (-_arb(e)).exp()
        return q.sqrt() / (1 - q)


def staircase_variance_lower(eps, *, rel=Fraction(1, 10 ** 8)):
    r"""A certified lower bound (a Fraction) of :math:`\min_\gamma \operatorname{Var} SC(\gamma, 1)`, the least variance
    of all :math:`\varepsilon`-DP noise.

    :math:`\operatorname{Var} = \frac{r(1+r)}{p^2} + \frac rp\frac{r + p\gamma^2}{c} + \frac{r + p\gamma^3}{3c}`,
    :math:`r = q`, :math:`p = 1 - q`, :math:`c = r + p\gamma`
    (:func:`arete_proofs.privacy.id_variance.staircase_variance_upper`): on a cell :math:`[\gamma_1, \gamma_2]` each
    term is at least its value with :math:`\gamma_1` in the numerator and :math:`\gamma_2` in :math:`c`; branch and bound
    proves the float minimum times :math:`1 -` ``rel``.

    >>> from arete_proofs.privacy.id_variance import staircase_variance_upper
    >>> lo = staircase_variance_lower(10)
    >>> up = staircase_variance_upper(10)
    >>> float(lo) <= float(up.lower()) and float(lo) > 0.99999 * float(up.mid())
    True
    """
    from ..distributions import staircase

    e = _positive(eps, "eps")
    g0 = float(staircase.gamma_var(float(e), digits=20))
    v0 = float(staircase.var(g0, 1, float(e), digits=20))
    target = Fraction(v0) * (1 - _positive(rel, "rel"))
    flint, prec = _ctx()
    with prec:
        r = (-_arb(e)).exp()
        p = 1 - r
        const = r * (1 + r) / (p * p)
        t = _arb(target)
        stack, cells = [(Fraction(0), Fraction(1))], 0
        while stack:
            g1, g2 = stack.pop()
            cells += 1
            if cells > 200000:
                raise ValueError(f"eps = {eps!r}: the Staircase's least variance could not be bounded")
            a1, a2 = _arb(g1), _arb(g2)
            c2 = r + p * a2
            low = const + r / p * (r + p * a1 * a1) / c2 + (r + p * a1 ** 3) / (3 * c2)
            if low.lower() >= t.upper():
                continue
            mid = (g1 + g2) / 2
            stack += [(g1, mid), (mid, g2)]
    return target


# ---------------------------------------------------------------------------
# certified rows: float64 search for (sigma, a, B), then the proof
# ---------------------------------------------------------------------------

def _kappa_float(B):
    """kappa_B in float64 (a grid near its minimiser, which lies in [0, phi(B)/Phi(B)])."""
    from scipy.special import log_ndtr

    import numpy as np

    vs = np.concatenate([np.linspace(0.0, 0.05, 201), np.linspace(0.05, B + 1, 400)])
    return float(np.exp(np.min(vs * vs / 2 + log_ndtr(B - vs))))


def _float_value(eps, sigma, a, B, objective):
    """The row's error bound in float64 (the search's objective); inf where a hypothesis fails."""
    if not (0 < a < eps and 0 < sigma <= 0.5 and B > 0 and 2 * sigma * sigma * (2 * a + math.log(2.1)) <= 1):
        return math.inf
    r = math.exp(-a)
    b = 1 + B * sigma
    c = 1 / (2 * (b + r / (1 - r)))
    kap = _kappa_float(B)
    lam = 1 / (math.sqrt(2 * math.pi) * sigma * c * (math.exp(eps) - math.exp(a)) * kap)
    s0, s1, s2 = r / (1 - r), r / (1 - r) ** 2, r * (1 + r) / (1 - r) ** 3
    if objective == "mean_abs":
        m1 = c * (b * b + (2 * b - 1) * s0 + 2 * s1)
        return math.exp(-lam) * sigma * math.sqrt(2 / math.pi) + lam * m1 + (1 - math.exp(-lam)) * c * sigma * sigma
    m2 = 2 * c / 3 * (b ** 3 + 3 * (b * b * s0 + 2 * b * s1 + s2) - 3 * (b * s0 + s1) + s0)
    return sigma * sigma + lam * m2


def _search(eps, objective):
    """Float64 (sigma, a, B) minimising the row's bound (they decide only how good the row is)."""
    from scipy.optimize import minimize

    q = math.exp(-eps)

    def unpack(p):
        return math.exp(p[0]), eps / (1 + math.exp(-p[1])), math.exp(p[2])

    # starts at the asymptotic optimum (sigma^2 = q/2, resp. sigma^3 = q/(3 sqrt(2 pi)); a ~ eps/2, B ~ 3)
    if objective == "mean_abs":
        s0, scale = math.log(math.sqrt(q / 2)), math.sqrt(q)
    else:
        s0, scale = math.log((q / (3 * math.sqrt(2 * math.pi))) ** (1 / 3)), q ** (2 / 3)
    best = None
    for a0 in (0.0, 0.5):
        res = minimize(lambda p: _float_value(eps, *unpack(p), objective) / scale, [s0, a0, 1.1], method="Nelder-Mead",
                       options=dict(xatol=1e-8, fatol=1e-11, maxiter=2000))
        if best is None or res.fun < best.fun:
            best = res
    return unpack(best.x)


def _rat(x, digits=7):
    return Fraction(f"{float(x):.{digits}g}")


def certify_row(eps, objective="mean_abs"):
    r"""A certified row: the best parameters a float64 search finds at :math:`\varepsilon`, rounded to exact rationals,
    the least rate of Theorem U1 (so the noise is :math:`\varepsilon`-DP, proved), and Theorem U2's error bound over the
    Staircase's least error (:math:`\Delta = 1`).

    Returns ``{"eps", "objective", "params" (sigma, a, B, lam, kappa as strings), "value" (upper end of the error
    bound), "staircase" (its exact value, or a proved lower bound for the variance), "ratio" (rounded up), "holds"}``.

    >>> row = certify_row(16, "variance")
    >>> row["holds"] and 1.24 < row["ratio"] < 1.26
    True
    """
    e = _positive(eps, "eps")
    objective = _objective(objective)
    sigma, a, B = (_rat(x) for x in _search(float(e), objective))
    kap = kappa_lower(B)
    for _ in range(8):        # the search can end on the hypothesis' boundary; rounding may cross it: shrink sigma
        lam = least_rate(e, sigma, a, B, kappa=kap)
        cond = privacy_condition(e, sigma, a, B, lam, kappa=kap)
        if cond["hypotheses"]:
            break
        sigma = _rat(sigma * (1 - Fraction(1, 10 ** 5)))
    err = errors(sigma, a, B, lam)
    flint, prec = _ctx()
    with prec:
        if objective == "mean_abs":
            value = err["mean_abs_upper"]
            sc = staircase_mean_abs(e)
            ratio = value / sc
            sc_val = float(sc.mid())
        else:
            value = err["variance"]
            lo = staircase_variance_lower(e)
            ratio = value / _arb(lo)
            sc_val = float(lo)
        up = math.nextafter(float(ratio.upper()), math.inf)
    return {"eps": float(e), "objective": objective, "holds": cond["holds"],
            "params": {"sigma": str(sigma), "a": str(a), "B": str(B), "lam": str(lam), "kappa": str(kap)},
            "value": math.nextafter(float(value.upper()), math.inf), "staircase": sc_val, "ratio": up,
            "margin": cond["margin"]}


def row_table(objective="mean_abs", eps_list=ROW_EPS):
    r"""Rows of :func:`certify_row` (the docs table of Theorem U1/U2 constructions).

    >>> [round(r["ratio"], 3) for r in row_table("mean_abs", (18,))]
    [1.129]
    """
    return [certify_row(e, objective) for e in eps_list]
