r"""Theorem U3: explicit parameter rules for the noise of :mod:`~arete_proofs.privacy.id_upper`, and the exact constants.

With :math:`q = e^{-\varepsilon}`, :math:`\Delta = 1`, :math:`a = (\varepsilon + 1)/2` and
:math:`\lambda = \big(\sqrt{2\pi}\,\sigma\,c\,(e^\varepsilon - e^a)(1 - e^{-3/(2\sigma^2)})\,\Phi(B - \tfrac12)\big)^{-1}`
(:math:`c` the jump density's height at :math:`b = 1 + B\sigma`), the two rules are

* ``mean_abs``: :math:`\sigma = \sqrt{q/2}`, :math:`B = \sqrt\varepsilon`, for :math:`\varepsilon \ge 6`;
* ``variance``: :math:`\sigma = (q/(3\sqrt{2\pi}))^{1/3}`, :math:`B = \sqrt{\varepsilon/2}`, for :math:`\varepsilon \ge 12`.

**Theorem U3.**  (a) For every :math:`\varepsilon \ge \varepsilon_0` the rule's noise is :math:`\varepsilon`-DP.
(b) Its ratio to the Staircase's least error is at most a function :math:`\bar R(\varepsilon)` that is nonincreasing in
:math:`\varepsilon` and tends to :math:`2/\sqrt\pi` (``mean_abs``) and :math:`(6/\pi)^{1/3}` (``variance``):

.. math::

    \frac{E|Z|}{\sqrt q/(1-q)} \le \frac1{\sqrt\pi}\Big(1 + \frac{b^2 + (2b-1)S_0 + 2S_1 + \sigma^2}{D}\Big),\qquad
    \frac{\operatorname{Var} Z}{\min_{\text{DP}}\operatorname{Var}} \le \frac{(6/\pi)^{1/3}}{3}
    \Big(1 + \frac{2(b^3 + T)}{D}\Big)(1 + 2q^{2/3}),

:math:`D = (1 - e^{a - \varepsilon})(1 - e^{-3/(2\sigma^2)})\Phi(B - \frac12)`, :math:`r = e^{-a}`,
:math:`S_0, S_1, S_2` and :math:`T = 3(b^2S_0 + 2bS_1 + S_2) - 3(bS_0 + S_1) + S_0 = \sum_{k \ge 1} r^k(3(b+k)^2 - 3(b+k) + 1)`
as in Theorem U2.  (c) So :math:`\sup_{\varepsilon \ge \varepsilon_0}` of the ratio is at most
:math:`\bar R(\varepsilon_0)`, and with Theorems F and E of the floors,

.. math::

    \lim_{\varepsilon\to\infty}\frac{\min_{\text{symmetric ID}} E|Z|}{\min_{\text{DP}} E|Z|} = \frac{2}{\sqrt\pi},\qquad
    \lim_{\varepsilon\to\infty}\frac{\min_{\text{symmetric ID}} \operatorname{Var} Z}{\min_{\text{DP}}\operatorname{Var} Z}
    = \Big(\frac6\pi\Big)^{1/3}.

*Proof.*  (a) Theorem U1's hypotheses: :math:`a < \varepsilon` for :math:`\varepsilon > 1`; :math:`\sigma \le 1/2`;
:math:`2\sigma^2(2a + \ln\frac{21}{10})` is :math:`q(\varepsilon + 1 + \ln\frac{21}{10})` (``mean_abs``) or
:math:`2(3\sqrt{2\pi})^{-2/3}q^{2/3}(\varepsilon + 1 + \ln\frac{21}{10})` (``variance``), both decreasing for
:math:`\varepsilon \ge 1` and at most 1 at :math:`\varepsilon_0`; :math:`B \ge \frac{12}5` from :math:`\varepsilon_0` on,
so :math:`\kappa_B \ge \Phi(B - \frac12)` (:func:`~arete_proofs.privacy.id_upper.kappa_rule`) and :math:`\lambda` meets the
main inequality with equality in that bound.
(b) By Theorem U2, :math:`E|Z| \le \sigma\sqrt{2/\pi} + \lambda c(E|Y|/c + \sigma^2)` and :math:`\lambda c =
q/(\sqrt{2\pi}\sigma D)`.  At :math:`\sigma^2 = q/2` both :math:`\sigma\sqrt{2/\pi}` and :math:`q/(\sqrt{2\pi}\sigma)` are
:math:`\sqrt{q/\pi}`; multiply by :math:`(1 - q)/\sqrt q \le 1/\sqrt q`.  For the variance,
:math:`\operatorname{Var} Z = \sigma^2 + \lambda c\,EY^2/c` and :math:`\lambda c = 3\sigma^2/D` at
:math:`\sigma^3 = q/(3\sqrt{2\pi})`, so :math:`\operatorname{Var} Z = \sigma^2(1 + 2(b^3 + T)/D)` with
:math:`\sigma^2 = \frac{(6/\pi)^{1/3}}3 (q/2)^{2/3}`; and the Staircase's least variance is at least
:math:`(q/2)^{2/3}/(1 + 2q^{2/3})`: from its closed form (:func:`~arete_proofs.privacy.id_variance.staircase_variance_upper`)
:math:`\operatorname{Var} \ge (q + u^3)/(3(q + u))` with :math:`u = p\gamma`; for :math:`u \le q^{1/3}/2` this is at least
:math:`\frac23 q^{2/3}/(1 + 2q^{2/3})`, and for :math:`u \ge q^{1/3}/2`, :math:`q + u \le u(1 + 2q^{2/3})` and
:math:`\min_u (q/u + u^2) = 3(q/2)^{2/3}`.  Monotonicity: :math:`b - 1 = \sqrt{\varepsilon q/2}` resp.
:math:`\sqrt{\varepsilon/2}\,(3\sqrt{2\pi})^{-1/3}q^{1/3}` decreases for :math:`\varepsilon \ge 3/2`;
:math:`r`, :math:`\sigma` and :math:`q` decrease; :math:`S_0, S_1` and :math:`T` (a series of positive terms increasing in
:math:`b` and :math:`r`) decrease; every factor of :math:`D` increases.  The limits: :math:`b \to 1`,
:math:`S_i, T, \sigma, q \to 0`, :math:`D \to 1`.  (c) Theorems F and E give :math:`\liminf \ge` the same constants.
:math:`\square`

:func:`symbolic_checks` proves the algebra with sympy (the moments against symbolic sums and integrals, the two
centre identities, the Staircase bound's minimum, the monotone pieces' derivatives and the limits);
:func:`rule_bound` evaluates :math:`\bar R(\varepsilon)` in ``arb`` (so :math:`\bar R(\varepsilon_0)` is a certified bound
for *every* :math:`\varepsilon \ge \varepsilon_0`); :func:`rule_row` certifies the rule's own ratio at one
:math:`\varepsilon` (with the factors :math:`1 - q` and :math:`e^{-\lambda}` that :math:`\bar R` drops).

>>> R = rule_bound("mean_abs", 20)
>>> 2 / math.sqrt(math.pi) < R < 1.1290
True
"""

from __future__ import annotations

import math
from fractions import Fraction

from .id_bounds import _flint
from .id_upper import _PREC, _objective, errors, jump_moments, kappa_rule, staircase_mean_abs, staircase_variance_lower
from .id_variance import _arb, _positive

__all__ = ["EPS_0", "LIMITS", "rule_parameters", "rule_bound", "rule_row", "rule_hypotheses", "limit",
           "bound_table", "symbolic_checks", "BOUND_EPS"]

#: the least eps of each rule (B >= 12/5 there)
EPS_0 = {"mean_abs": 6, "variance": 12}
#: the limits of the ratios (sympy)
LIMITS = {"mean_abs": "2/sqrt(pi)", "variance": "(6/pi)^(1/3)"}
#: the epsilons of the docs table of R-bar
BOUND_EPS = {"mean_abs": (6, 8, 10, 12, 14, 16, 18, 20, 25, 30, 40),
             "variance": (12, 14, 16, 18, 20, 25, 30, 40, 60)}


def _eps(objective, eps):
    e = _positive(eps, "eps")
    if e < EPS_0[objective]:
        raise ValueError(f"eps must be at least {EPS_0[objective]} for the {objective} rule, got {eps!r}")
    return e


def _balls(objective, e):
    """(q, sigma, a, B, lam, c, b, D) of the rule as balls at the exact eps ``e``."""
    flint = _flint()
    ea = _arb(e)
    q = (-ea).exp()
    pi = flint.arb.pi()
    if objective == "mean_abs":
        sigma, B = (q / 2).sqrt(), ea.sqrt()
    else:
        sigma, B = (q / (3 * (2 * pi).sqrt())) ** (flint.arb(1) / 3), (ea / 2).sqrt()
    a = (ea + 1) / 2
    b = 1 + B * sigma
    c, m1, m2 = jump_moments(a, b)
    D = (1 - (a - ea).exp()) * (1 - (-3 / (2 * sigma * sigma)).exp()) * kappa_rule(B)
    lam = 1 / ((2 * pi).sqrt() * sigma * c * ea.exp() * D)
    return q, sigma, a, B, lam, c, b, D, m1, m2


def rule_parameters(objective, eps):
    r"""The rule's :math:`(\sigma, a, B, \lambda)` at :math:`\varepsilon` as ``arb`` balls (Theorem U3).

    >>> s, a, B, lam = rule_parameters("mean_abs", 20)
    >>> abs(float(s.mid()) - math.sqrt(math.exp(-20) / 2)) < 1e-18 and float(a.mid()) == 10.5
    True
    """
    objective = _objective(objective)
    e = _eps(objective, eps)
    with _flint().ctx.extraprec(_PREC):
        q, sigma, a, B, lam, *_ = _balls(objective, e)
        return sigma, a, B, lam


def rule_hypotheses(objective, eps):
    r"""Theorem U1's hypotheses for the rule at :math:`\varepsilon`, each proved in ``arb``: a dict of booleans.

    At :math:`\varepsilon_0` they give (a) of Theorem U3 for every larger :math:`\varepsilon` (the proof's monotonicity).

    >>> all(rule_hypotheses("variance", 12).values())
    True
    """
    objective = _objective(objective)
    e = _eps(objective, eps)
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        q, sigma, a, B, lam, c, b, D, *_ = _balls(objective, e)
        ea = _arb(e)
        ln = _arb(Fraction(21, 10)).log()
        return {"a < eps": bool(a.upper() < ea.lower()), "sigma <= 1/2": bool(sigma.upper() <= 0.5),
                "2 sigma^2 (2a + ln 2.1) <= 1": bool((2 * sigma * sigma * (2 * a + ln)).upper() <= 1),
                "B >= 12/5": bool(B.lower() >= _arb(Fraction(12, 5)).upper()),
                "lam > 0 finite": bool(lam.is_finite() and lam.lower() > 0)}


def rule_bound(objective, eps):
    r"""The upper end of :math:`\bar R(\varepsilon)` (a float, rounded up): the rule's ratio to the Staircase is at most
    this at :math:`\varepsilon` *and at every larger* :math:`\varepsilon` (Theorem U3 (b)).

    >>> a, b = rule_bound("variance", 14), rule_bound("variance", 20)
    >>> (6 / math.pi) ** (1 / 3) < b < a < 1.30
    True
    """
    objective = _objective(objective)
    e = _eps(objective, eps)
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        q, sigma, a, B, lam, c, b, D, m1, m2 = _balls(objective, e)
        pi = flint.arb.pi()
        r = (-a).exp()
        s0, s1, s2 = r / (1 - r), r / (1 - r) ** 2, r * (1 + r) / (1 - r) ** 3
        if objective == "mean_abs":
            R = (1 + (b * b + (2 * b - 1) * s0 + 2 * s1 + sigma * sigma) / D) / pi.sqrt()
        else:
            T = 3 * (b * b * s0 + 2 * b * s1 + s2) - 3 * (b * s0 + s1) + s0
            R = (6 / pi) ** (flint.arb(1) / 3) / 3 * (1 + 2 * (b ** 3 + T) / D) * (1 + 2 * q ** (flint.arb(2) / 3))
        return math.nextafter(float(R.upper()), math.inf)


def limit(objective):
    r"""The limit of :math:`\bar R` (a ball): :math:`2/\sqrt\pi` or :math:`(6/\pi)^{1/3}`, the floors' limits too.

    >>> round(float(limit("variance").mid()), 5)
    1.2407
    """
    objective = _objective(objective)
    flint = _flint()
    pi = flint.arb.pi()
    return 2 / pi.sqrt() if objective == "mean_abs" else (6 / pi) ** (flint.arb(1) / 3)


def rule_row(objective, eps):
    r"""The rule's certified ratio at one :math:`\varepsilon` (Theorem U2's bound at the rule's exact parameters, kept
    as balls, over the Staircase's least error; rounded up), with the hypotheses proved.

    >>> r = rule_row("mean_abs", 16)
    >>> r["holds"] and r["ratio"] <= rule_bound("mean_abs", 16)
    True
    """
    objective = _objective(objective)
    e = _eps(objective, eps)
    hyp = rule_hypotheses(objective, e)
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        q, sigma, a, B, lam, c, b, D, m1, m2 = _balls(objective, e)
        if objective == "mean_abs":
            el = (-lam).exp()
            val = el * sigma * (2 / flint.arb.pi()).sqrt() + lam * m1 + (1 - el) * c * sigma * sigma
            ratio = val / staircase_mean_abs(e)
        else:
            val = sigma * sigma + lam * m2
            ratio = val / _arb(staircase_variance_lower(e))
        return {"eps": float(e), "objective": objective, "holds": all(hyp.values()),
                "value": math.nextafter(float(val.upper()), math.inf),
                "ratio": math.nextafter(float(ratio.upper()), math.inf),
                "params": {"sigma": float(sigma.mid()), "a": float(a.mid()), "B": float(B.mid()),
                           "lam": float(lam.mid())}}


def bound_table(objective):
    r"""Rows ``(eps, rule's ratio at eps, R-bar(eps))`` for the docs (:data:`BOUND_EPS`).

    >>> bound_table("mean_abs")[0]["eps"]
    6.0
    """
    out = []
    for e in BOUND_EPS[_objective(objective)]:
        row = rule_row(objective, e)
        out.append({"eps": float(e), "ratio": row["ratio"], "bound": rule_bound(objective, e), "holds": row["holds"]})
    return out


def symbolic_checks():
    r"""The algebra of Theorems U2 and U3, proved with sympy: a list of ``(name, holds)``.

    >>> all(ok for _, ok in symbolic_checks())
    True
    """
    import sympy as sp

    y, r, u, qq, s = sp.symbols("y r u q sigma", positive=True)
    b = sp.symbols("b", positive=True)
    k = sp.symbols("k", integer=True, positive=True)
    S0, S1, S2 = r / (1 - r), r / (1 - r) ** 2, r * (1 + r) / (1 - r) ** 3
    out = []

    def series(expr):
        """sum_{k >= 1} expr r^k for 0 < r < 1 (sympy's Piecewise, its |r| < 1 branch)."""
        total = sp.summation(sp.expand(expr) * r ** k, (k, 1, sp.oo))
        return total.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[0][0])

    # the normalisation and the moments: int_0^b y^n dy + sum_k r^k int_{b+k-1}^{b+k} y^n dy, r = e^{-a}
    for n, closed in ((0, (b + S0)), (1, (b * b + (2 * b - 1) * S0 + 2 * S1) / 2),
                      (2, (b ** 3 + 3 * (b * b * S0 + 2 * b * S1 + S2) - 3 * (b * S0 + S1) + S0) / 3)):
        total = sp.integrate(y ** n, (y, 0, b)) + series(sp.integrate(y ** n, (y, b + k - 1, b + k)))
        out.append((f"int_0^oo y^{n} g(y) dy / (2c) in closed form", sp.simplify(total - closed) == 0))
    out.append(("T = sum_k r^k (3(b+k)^2 - 3(b+k) + 1)",
                sp.simplify(series(3 * (b + k) ** 2 - 3 * (b + k) + 1)
                            - (3 * (b * b * S0 + 2 * b * S1 + S2) - 3 * (b * S0 + S1) + S0)) == 0))
    # T as a series of positive terms: 3x^2 - 3x + 1 > 0 (discriminant -3)
    x = sp.symbols("x", real=True)
    out.append(("3x^2 - 3x + 1 has no real root", sp.discriminant(3 * x ** 2 - 3 * x + 1, x) < 0))
    # E|G + y| - |y| integrates to sigma^2 (the E|Z| bound's c sigma^2 uses the cruder E(|G| - |S|)_+ <= c E G^2)
    out.append(("int_0^|G| 2 c u du = c G^2", sp.simplify(sp.integrate(2 * u, (u, 0, s)) - s ** 2) == 0))
    # centre identities at the rules' sigma
    sm = sp.sqrt(qq / 2)
    out.append(("mean_abs: sigma sqrt(2/pi) = q/(sqrt(2 pi) sigma) = sqrt(q/pi)",
                sp.simplify(sm * sp.sqrt(2 / sp.pi) - sp.sqrt(qq / sp.pi)) == 0
                and sp.simplify(qq / (sp.sqrt(2 * sp.pi) * sm) - sp.sqrt(qq / sp.pi)) == 0))
    sv = (qq / (3 * sp.sqrt(2 * sp.pi))) ** sp.Rational(1, 3)
    out.append(("variance: q/(sqrt(2 pi) sigma) = 3 sigma^2", sp.simplify(qq / (sp.sqrt(2 * sp.pi) * sv) - 3 * sv ** 2) == 0))
    out.append(("variance: 3 sigma^2/(q/2)^(2/3) = (6/pi)^(1/3)",
                sp.simplify(sp.nsimplify(3 * sv ** 2 / (qq / 2) ** sp.Rational(2, 3)) - (6 / sp.pi) ** sp.Rational(1, 3)) == 0))
    # the Staircase bound: min_u q/u + u^2 = 3 (q/2)^(2/3) at u^3 = q/2, and 2/3 >= 2^(-2/3)
    f = qq / u + u ** 2
    crit = sp.solve(sp.diff(f, u), u)
    out.append(("min_u q/u + u^2 = 3 (q/2)^(2/3)",
                len(crit) == 1 and sp.simplify(f.subs(u, crit[0]) - 3 * (qq / 2) ** sp.Rational(2, 3)) == 0
                and sp.simplify(sp.diff(f, u, 2).subs(u, crit[0])) .is_positive))
    out.append(("2/3 >= 2^(-2/3)", bool(sp.Rational(2, 3) ** 3 >= sp.Rational(1, 4))))
    # monotone pieces: d/de (e q) < 0 for e > 1, d/de (e q^(2/3)) < 0 for e > 3/2, and the hypothesis terms
    e = sp.symbols("epsilon", positive=True)
    for name, expr, e_min in (("eps e^-eps", e * sp.exp(-e), 1), ("eps e^(-2 eps/3)", e * sp.exp(-2 * e / 3), sp.Rational(3, 2)),
                              ("(eps + 1 + ln 2.1) e^-eps", (e + 1 + sp.log(sp.Rational(21, 10))) * sp.exp(-e), 0),
                              ("(eps + 1 + ln 2.1) e^(-2eps/3)", (e + 1 + sp.log(sp.Rational(21, 10))) * sp.exp(-2 * e / 3), 1)):
        d = sp.simplify(sp.diff(expr, e) * sp.exp(e))
        sol = sp.solve(sp.Eq(d, 0), e)
        ok = all(sp.N(z) <= e_min for z in sol) and sp.N(d.subs(e, e_min + 1)) < 0
        out.append((f"{name} decreases for eps >= {e_min}", bool(ok)))
    # the limits of R-bar's pieces as eps -> oo: b - 1, r, sigma, q -> 0 and each factor of D -> 1
    lims = {"sqrt(eps q/2)": sp.sqrt(e * sp.exp(-e) / 2), "sqrt(eps/2) q^(1/3)": sp.sqrt(e / 2) * sp.exp(-e / 3),
            "r = e^(-(eps+1)/2)": sp.exp(-(e + 1) / 2), "e^(a - eps)": sp.exp((1 - e) / 2),
            "e^(-3/(2 sigma^2)), sigma^2 = q/2": sp.exp(-3 * sp.exp(e)),
            "1 - Phi(sqrt(eps/2) - 1/2)": 1 - (1 + sp.erf((sp.sqrt(e / 2) - sp.Rational(1, 2)) / sp.sqrt(2))) / 2}
    for name, expr in lims.items():
        out.append((f"{name} -> 0", sp.limit(expr, e, sp.oo) == 0))
    return out
