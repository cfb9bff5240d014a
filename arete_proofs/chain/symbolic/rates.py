r"""Symbolic checks of Lemma 3 with rates (``lemma-3-mean-abs/algebra``, ``lemma-3-variance/algebra``).

The algebra that replaces Lemma 19's (8)-(10) at :math:`\theta = \Delta`
(:mod:`arete_proofs.chain.rates`): the registry's ``RHS_8`` at :math:`\theta = \Delta`
is :math:`16 e^{1+2\alpha}(1+2\alpha)\Delta/(\alpha\lambda)`; with the rule's
:math:`\alpha\lambda = 48\Delta e^{-\varepsilon}` it is :math:`e^\varepsilon\cdot 16e^{1+2\alpha}(1+2\alpha)/48`;
that factor increases in :math:`\alpha`, :math:`\alpha` decreases in :math:`\varepsilon`, and at
:math:`\varepsilon_0` exact rationals give :math:`\alpha \le 1/41` and :math:`16e^{43/41}\,43/41 \le 48`.
Lemma 18's hypotheses are proved the same way; the split of :math:`\alpha\lambda` is shown optimal
(sympy solves the stationarity condition), and a ball-arithmetic certificate (python-flint ``arb``)
checks the whole domain :math:`\varepsilon \ge \varepsilon_0` at once as a ball
:math:`u = e^{-\varepsilon/k} \in [0, e^{-\varepsilon_0/k}]`.

>>> rule_check("mean_abs").holds, rule_check("variance").holds
(True, True)
>>> rule_check("mean_abs", constant=43).holds      # C = 43 < 16 e: the chain does not close
False
>>> rule_check("mean_abs", eps_0=10).holds         # alpha(10) = 0.033 > 1/41
False
"""

from __future__ import annotations

import sympy as sp

from .. import rates, registry
from ..symbols import Delta, alpha, eps, lam
from ._proof import A, D, E_, L, T, Proof, _exp_lower_rational, _is_nonneg, _is_zero, _pos

__all__ = ["rule_check", "mean_abs_check", "variance_check", "exp_upper_rational", "ball_certificate"]


def exp_upper_rational(x, terms: int = 40) -> sp.Rational:
    r"""Exact upper bound of :math:`e^x` for rational :math:`0 \le x < N + 1`: the Taylor sum to
    :math:`N` plus the remainder :math:`\frac{x^{N+1}}{(N+1)!}\frac{1}{1 - x/(N+2)}`.

    >>> x = sp.Rational(43, 41)
    >>> gap = sp.N(exp_upper_rational(x) - sp.exp(x), 80)
    >>> bool(0 < gap < 1e-50)
    True
    """
    x = sp.Rational(x)
    N = terms
    s = sum(x**k / sp.factorial(k) for k in range(N + 1))
    return s + x ** (N + 1) / sp.factorial(N + 1) / (1 - x / (N + 2))


def _rational_cap(c):
    """(q, k) with c <= q exactly: c^k rational and c^k <= q^k, q = ceil(10 c)/10."""
    for k in range(1, 7):
        ck = sp.nsimplify(sp.expand(c**k))
        if ck.is_Rational:
            q = sp.Rational(sp.ceiling(10 * c), 10)
            return q, k, ck <= q**k
    return None, None, False


def _rate_parts(rule):
    """alpha = ca e^{-ra eps}, lam/Delta = cl e^{-rl eps} of a rule: (ca, ra, cl, rl)."""
    sub = rates.RULES[rule].substitutions
    out = []
    for expr in (sub[alpha], sub[lam] / Delta):
        expr = sp.simplify(expr)
        r = -sp.diff(sp.log(expr), eps)
        c = sp.simplify(expr * sp.exp(r * eps))
        out += [c, sp.nsimplify(r)]
    return tuple(out)


def ball_certificate(rule: str, constant=None, prec: int = 128, eps_0=None):
    r"""Ball arithmetic on the whole domain :math:`\varepsilon \ge \varepsilon_0`: with
    :math:`u = e^{-r\varepsilon} \in [0, e^{-r\varepsilon_0}]` as one ``arb`` ball, :math:`\alpha = c_\alpha u`
    and the chain factor :math:`16 e^{1+2\alpha}(1+2\alpha)` is below ``constant`` (48) and
    :math:`\lambda/\Delta \le 1/2`, :math:`\alpha \le 1/41` for every point of the ball.

    Returns ``(ok, text)``; python-flint is imported here.

    >>> ball_certificate("variance")[0], ball_certificate("mean_abs", constant=44)[0]
    (True, False)
    """
    import flint

    ctx = flint.ctx
    old = ctx.prec
    ctx.prec = prec
    try:
        e0 = rates.RULES[rule].eps_0 if eps_0 is None else sp.Integer(eps_0)
        C = rates.C_RATE if constant is None else sp.sympify(constant)
        ca, ra, cl, rl = _rate_parts(rule)

        def arb_of(x):
            return flint.arb(str(sp.N(x, 60))) if not x.is_Rational else flint.arb(int(x.p)) / int(x.q)

        def ball(c, r):
            top = arb_of(c) * (-arb_of(r) * int(e0)).exp()       # c e^{-r eps_0}, its ball radius included
            return flint.arb(0).union(top)                        # a ball containing [0, c e^{-r eps_0}]

        a_ball = ball(ca, ra)
        l_ball = ball(cl, rl)
        cf = 16 * (1 + 2 * a_ball).exp() * (1 + 2 * a_ball)
        cap = flint.arb(int(rates.ALPHA_CAP.p)) / int(rates.ALPHA_CAP.q)
        ok_cf = bool(cf < arb_of(C))
        ok_a = bool(a_ball < cap)
        ok_l = bool(l_ball < flint.arb(1) / 2)
        text = (f"alpha <= {a_ball.upper().str(6, radius=False)} < {rates.ALPHA_CAP}, chain factor <= "
                f"{cf.upper().str(8, radius=False)} < {C}, lam/Delta <= {l_ball.upper().str(6, radius=False)} < 1/2")
        return ok_cf and ok_a and ok_l, text
    finally:
        ctx.prec = old


def rule_check(rule: str, constant=None, eps_0=None) -> Proof:
    r"""The algebra of Lemma 3 with rates for ``rule``; ``constant`` (default 48) and ``eps_0`` (default the
    rule's) for tests: a smaller eps_0 or constant must fail.

    Proves :math:`\mathrm{RHS}_8|_{\theta=\Delta} = e^\varepsilon\, 16e^{1+2\alpha}(1+2\alpha)/48 \le e^\varepsilon`
    for :math:`\varepsilon \ge \varepsilon_0` (the step that replaces Lemma 19's (8)-(10)).

    >>> rule_check("variance", eps_0=9).holds     # alpha(9) = 0.041 > 1/41
    False
    """
    p = Proof()
    R = rates.RULES[rule]
    C = rates.C_RATE if constant is None else sp.sympify(constant)
    sub = {_pos(k): _pos(v) for k, v in R.substitutions.items()}
    e0 = R.eps_0 if eps_0 is None else sp.Integer(eps_0)
    r8 = _pos(registry.RHS_8)
    cf = _pos(rates.CHAIN_FACTOR)
    p.premise("Lemma 18 at D_Gamma = alpha theta, c_DGam >= 1/2 (Chen & Rubin), c_L = 1/4 is the registry's "
              "RHS_8 (lemma-19/algebra proves this identity)")
    p.add("identity", "(8) at theta = Delta: RHS_8 = 16 e^{1+2 alpha}(1 + 2 alpha) Delta/(alpha lam)",
          _is_zero(r8.subs(T, D) - cf * D / (A * L)))
    prod = sp.simplify(sub[A] * sub[L])
    p.add("identity", f"the rule's alpha lam = {C} Delta e^-eps", _is_zero(prod - C * D * sp.exp(-E_)),
          f"alpha lam = {prod}")
    p.add("identity", f"hence RHS_8 = e^eps * 16 e^{{1+2 alpha}}(1 + 2 alpha)/{C}",
          _is_zero(sp.expand(r8.subs(sub) - sp.exp(E_) * cf.subs(sub) / C)) or
          _is_zero(sp.simplify(r8.subs(sub) / (sp.exp(E_) * cf.subs(sub) / C)) - 1))
    p.add("proved", "the factor 16 e^{1+2 alpha}(1 + 2 alpha) is increasing in alpha > 0",
          _is_nonneg(sp.diff(cf, A)), f"d/dalpha = {sp.factor(sp.diff(cf, A))}")
    p.add("proved", "alpha and lam/Delta decrease in eps", _is_nonneg(-sp.diff(sub[A], E_))
          and _is_nonneg(-sp.diff(sub[L] / D, E_)))
    # the values at eps_0, by exact rationals
    ca, ra, cl, rl = _rate_parts(rule)
    cap = rates.ALPHA_CAP
    q, k, okq = _rational_cap(ca)
    x0 = sp.Rational(ra * e0)
    low = _exp_lower_rational(x0, 40)
    p.add("proved", f"alpha(eps_0 = {e0}) = {ca} e^(-{x0}) <= {cap}: ({ca})^{k} <= ({q})^{k} and "
          f"e^({x0}) >= {sp.N(low, 8)} >= 41 * {q} = {q / cap} (exact rationals)", okq and low >= q / cap)
    ub = exp_upper_rational(1 + 2 * cap)
    p.add("proved", f"16 e^(1 + 2/41)(1 + 2/41) <= {C}: e^(43/41) <= {sp.N(ub, 10)} (Taylor sum + remainder) and "
          f"16 * that * 43/41 = {sp.N(16 * ub * (1 + 2 * cap), 8)}", 16 * ub * (1 + 2 * cap) <= C)
    p.add("proved", f"so for eps >= {e0}: RHS_8 <= e^eps, i.e. f_A(t)/f_A(t + Delta) <= e^eps (Lemma 18)",
          all(s.ok for s in p.steps))
    # Lemma 18's hypotheses at the rule's parameters
    p.add("proved", "theta = Delta <= D_Gamma + Delta = alpha theta + Delta", _is_nonneg((A * T + D - T).subs(sub)))
    ql, kl, okl = _rational_cap(cl)
    y0 = sp.Rational(rl * e0)
    lowl = _exp_lower_rational(y0, 40)
    p.add("proved", f"lam/Delta <= {cl} e^(-{y0}) <= 1/2 = theta/(2 Delta) for eps >= {e0}: ({cl})^{kl} <= ({ql})^{kl}, "
          f"e^({y0}) >= {sp.N(lowl, 8)} >= {2 * ql}", okl and lowl >= 2 * ql)
    p.add("proved", "1/2 <= 1/ln 2 (e >= 2), so lam <= Delta/ln 2 too", _exp_lower_rational(1, 3) >= 2)
    p.add("identity", f"alpha <= {cap} <= 1 (Lemma 18's 0 < alpha <= 1)", cap <= 1)
    p.premise("Gamma(alpha) <= 1/alpha on (0, 1]: Note 2 (note-2/gamma)")
    # the error bound and its optimal split
    z = sp.Symbol("z", positive=True)
    if rule == "mean_abs":
        err = 2 * A * T + L
        f = 2 * z + C / z                              # alpha = z e^{-eps/2}, lam = (C/z) Delta e^{-eps/2}
        opt = sp.solve(sp.diff(f, z), z)
        p.add("solved", f"min over alpha lam = {C} Delta e^-eps of 2 alpha Delta + lam: 2 - {C}/z^2 = 0 at "
              f"z = {opt} = alpha e^(eps/2)", opt == [ca] or (constant is not None and len(opt) == 1))
    else:
        err = 2 * A * T**2 + 2 * L**2
        f = 2 * C / z + 2 * z**2                        # lam = z Delta e^{-eps/3}, alpha = (C/z) e^{-2eps/3}
        opt = sp.solve(sp.diff(f, z), z)
        p.add("solved", f"min over alpha lam = {C} Delta e^-eps of 2 alpha Delta^2 + 2 lam^2: 4z - 2 {C}/z^2 = 0 at "
              f"z = {opt} = lam e^(eps/3)/Delta", len(opt) == 1 and (constant is not None or _is_zero(opt[0] - cl)))
    bound = _pos(R.bound)
    p.add("identity", f"the error bound at the rule's parameters = {R.bound}", _is_zero(sp.simplify(err.subs(sub) - bound)))
    lim = sp.limit(cf, A, 0)
    p.add("solved", f"inf of the chain factor (alpha -> 0) = {lim} = 16 e, so no C below 16 e = {sp.N(16 * sp.E, 6)} "
          f"closes the chain; C = {C}", _is_zero(lim - 16 * sp.E) and C >= 16 * sp.E)
    p.premise("the Staircase is optimal among eps-DP additive noises for |x| and x^2 (Geng & Viswanath 2016a); "
              "its errors are >= Delta e^{-eps/2} and 2^{-2/3} Delta^2 e^{-2eps/3} (lemma-27, every eps > 0)")
    try:
        ok, text = ball_certificate(rule, constant, eps_0=e0)
        p.add("proved", f"ball arithmetic on all of eps >= {e0} (u = e^(-r eps) in [0, e^(-r eps_0)]): {text}", ok)
    except ImportError:  # pragma: no cover - python-flint is in the [test] extra
        p.premise("ball certificate skipped: python-flint is not installed")
    return p


def mean_abs_check() -> Proof:
    r"""``lemma-3-mean-abs/algebra``: Lemma 3 with rates for :math:`E|Z| \le 8\sqrt6\,\Delta e^{-\varepsilon/2}`.

    >>> mean_abs_check().holds
    True
    """
    return rule_check("mean_abs")


def variance_check() -> Proof:
    r"""``lemma-3-variance/algebra``: Lemma 3 with rates for :math:`\operatorname{Var} Z \le 24\cdot3^{2/3}\Delta^2 e^{-2\varepsilon/3}`.

    >>> variance_check().holds
    True
    """
    return rule_check("variance")
