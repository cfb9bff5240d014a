r"""Symbolic checks on the bound of f_A(t)/f_A(t + Delta): Lemma 28 and the step to Lemma 18.

* ``lemma-28/maximiser`` (Lemma 28, applied in the proofs of Lemmas 16 and 17
  with :math:`\kappa = D_u` and :math:`\kappa = 0`): the maximiser :math:`t^*` of
  :math:`g`, the concavity of :math:`\ln g` and :math:`\kappa \ge t^*`;
* ``lemma-18/step`` (proof of Lemma 18, Appendix C.3): Lemmas 16 and 17 at
  :math:`D_u = \alpha\theta` give Lemma 18's bound.
"""

from __future__ import annotations

import sympy as sp

from .. import registry
from ..symbols import CONSTANTS, alpha, c_Du, c_L, explicit, t, theta
from ._proof import (
    Proof, A, T, L, D, DG, DU, K_, Cd, Cu, G, _POS, _s, _u, _w, _g, _pos, _is_zero, _is_nonneg, _is_pos,
    log_derivative, _nondecreasing, _chain_step, _bound,
)

__all__ = ["maximiser_check", "lemma18_step_check"]


# ---------------------------------------------------------------------------
# lemma-28/maximiser
# ---------------------------------------------------------------------------

def maximiser_check(t_star=None) -> Proof:
    r"""Lemma 28: :math:`g(t) = (D_\Gamma+\Delta+t)^{1-\alpha}e^{-t(1/\lambda-1/\theta)}`
    is maximised at :math:`t^* = (1-\alpha)/(1/\lambda-1/\theta) - (D_\Gamma+\Delta)`,
    decreases on :math:`[t^*, \infty)`, and the hypothesis
    :math:`1/\lambda-1/\theta \ge 1/(\kappa+\Delta+D_\Gamma)` gives
    :math:`\kappa \ge t^*`, hence :math:`g(t) \le g(\kappa)` for :math:`t \ge \kappa`.

    ``t_star`` (an expression in the registry's symbols) replaces the
    paper's :math:`t^*` for tests.
    """
    p = Proof()
    tt = sp.Symbol("t", nonnegative=True)
    gap = _pos(registry.GAP)
    S = DG + D
    g = _pos(registry.g_lemma28(tt))
    dlog = log_derivative(g, tt)
    p.add("identity", "d/dt ln g(t) = (1 - alpha)/(D_Gamma + Delta + t) - (1/lam - 1/theta)",
          _is_zero(dlog - ((1 - A) / (S + tt) - gap)), f"sympy: {dlog}")
    paper_t = (1 - A - gap * S) / gap
    p.add("identity", "the paper's two forms of t* agree: (1 - alpha - GAP (D_Gamma + Delta))/GAP "
          "= (1 - alpha)/GAP - (D_Gamma + Delta)", _is_zero(paper_t - ((1 - A) / gap - S)))
    claimed = paper_t if t_star is None else _pos(t_star)
    tr = sp.Symbol("t", real=True)
    sols = sp.solve(sp.Eq(dlog.subs(tt, tr), 0), tr)
    p.add("solved", "d/dt ln g = 0 has the single solution t*", len(sols) == 1 and _is_zero(sols[0] - claimed),
          f"sympy.solve: {sols}")
    # concavity of ln g (0 < alpha < 1: alpha = 1 - b, 0 < b < 1)
    b = sp.Symbol("b", positive=True)
    second = sp.diff(dlog, tt)
    p.add("proved", "d^2/dt^2 ln g = -(1 - alpha)/(D_Gamma + Delta + t)^2 < 0 for alpha < 1",
          _is_pos(-second.subs(A, 1 - b)), f"{sp.simplify(second)}")
    # sign of d ln g/dt right of t*: write GAP = Gp > 0 (lam = 1/(Gp + 1/theta)), t = t* + s, s > 0;
    # GAP > 0 follows from the hypothesis GAP >= 1/(kappa + Delta + D_Gamma) > 0
    Gp, sp_ = sp.symbols("G_p s_p", positive=True)
    lam_of_gap = {L: 1 / (Gp + 1 / T)}
    tstar_g = claimed.subs(lam_of_gap)
    after = sp.simplify((dlog.subs(tt, tstar_g + sp_)).subs(lam_of_gap))
    # d ln g/dt at t* + s; the lemma needs it negative (1 - alpha = b > 0)
    p.add("proved", "d/dt ln g(t* + s) < 0 for s > 0 (1/lam - 1/theta > 0 by the hypothesis), so "
          "g' = g d ln g/dt < 0 and g decreases on [t*, oo)",
          _is_pos(-after.subs(A, 1 - b)), f"d ln g/dt (t* + s) = {sp.factor(after)}")
    # hypothesis GAP >= 1/(kappa + Delta + D_Gamma): GAP = 1/(kappa + S) + w, w >= 0
    hyp_gap = 1 / (K_ + S) + _w
    kap_bound = 1 / gap - S
    p.add("proved", "1/lam - 1/theta >= 1/(kappa + Delta + D_Gamma) implies "
          "kappa >= 1/(1/lam - 1/theta) - (Delta + D_Gamma)",
          _is_nonneg((K_ - kap_bound).subs(lam_of_gap).subs(Gp, hyp_gap)))
    p.add("proved", "1/(1/lam - 1/theta) - (Delta + D_Gamma) - t* = alpha/(1/lam - 1/theta) >= 0",
          _is_zero(kap_bound - claimed - A / gap) and _is_nonneg((A / gap).subs(lam_of_gap)))
    mono = _bound("lemma-28", "monotone")
    p.add("identity", "so for t >= kappa >= t*: g(t) <= g(kappa), the registry's bound g(t) <= g(kappa)",
          _is_zero(_pos(mono.lhs).subs(t, tt) - g)
          and _is_zero(_pos(mono.rhs) - g.subs(tt, K_)))
    return p


# ---------------------------------------------------------------------------
# lemma-18/step
# ---------------------------------------------------------------------------

def lemma18_step_check(lam_factor=sp.Rational(1, 2), rhs18=None) -> Proof:
    r"""Proof of Lemma 18 (Appendix C.3): Lemmas 16 and 17 at :math:`D_u = \alpha\theta`
    give Lemma 18's bound, reduced to the elementary facts

    (i)   :math:`1/\lambda-1/\theta \ge 1/(D_\Gamma+\Delta) \iff \lambda \le \theta/(\theta/(D_\Gamma+\Delta)+1)`,
          and :math:`\lambda \le \theta/2` suffices when :math:`\theta \le D_\Gamma+\Delta`;
    (ii)  :math:`\alpha c_L \lambda \le \alpha\theta/8 < D_u` (:math:`c_L = 1/4`, :math:`\lambda \le \theta/2`);
    (iii) :math:`\theta^\alpha X^{1-\alpha} \le X` for :math:`X \ge \theta`, :math:`0 < \alpha \le 1`;
    (iv)  :math:`1/\alpha + \Gamma(\alpha)e^\alpha \le 2e^\alpha/\alpha` given :math:`\Gamma(\alpha) \le 1/\alpha`;

    plus :math:`c_{D_u} \le 2` and :math:`e^\alpha \ge 1`.  ``lam_factor`` is
    the hypothesis :math:`\lambda \le` ``lam_factor`` :math:`\theta`; ``rhs18``
    replaces the registry's Lemma 18 bound (both for tests).
    """
    p = Proof()
    f = sp.sympify(lam_factor)
    S = DG + D
    W = A * T + S
    cl = c_L
    # parametrisations of the hypotheses
    theta_h = {T: S / (1 + _s)}                 # theta <= D_Gamma + Delta
    lam_h = {L: f * T / (1 + _u)}                # lam <= lam_factor * theta
    # (alpha <= 1 is not needed for these algebraic steps; it enters through Lemmas 16/17 and Note 2)

    # (i)
    gap = _pos(registry.GAP)
    crit = T / (T / S + 1)
    num = T * S - L * S - L * T
    p.add("identity", "(i) (1/lam - 1/theta - 1/(D_Gamma+Delta)) lam theta (D_Gamma+Delta) = "
          "(theta/(theta/(D_Gamma+Delta)+1) - lam)(theta + D_Gamma + Delta): same sign, so "
          "1/lam - 1/theta >= 1/(D_Gamma+Delta) <=> lam <= theta/(theta/(D_Gamma+Delta)+1)",
          _is_zero((gap - 1 / S) * L * T * S - num) and _is_zero((crit - L) * (T + S) - num))
    p.add("proved", f"(i) theta <= D_Gamma + Delta and lam <= {f} theta imply lam <= theta/(theta/(D_Gamma+Delta)+1)",
          _is_nonneg((crit - L).subs(lam_h).subs(theta_h)))
    p.add("proved", "(i) 1/(D_Gamma + Delta) >= 1/(D_u + D_Gamma + Delta): the hypotheses of Lemmas 16 "
          "and 17 both hold", _is_nonneg(1 / S - 1 / (DU + S)))

    # (ii)  D_u = alpha theta, c_L = 1/4
    cl_v = CONSTANTS[c_L]
    p.add("proved", f"(ii) alpha c_L lam <= alpha theta/8 (c_L = 1/4, lam <= {f} theta)",
          _is_nonneg((A * T / 8 - A * cl_v * L).subs(lam_h)))
    p.add("proved", "(ii) alpha theta/8 < alpha theta = D_u", _is_pos(A * T - A * T / 8))
    slack_ii = 1 / (A * cl * L) - 1 / (A * T)
    fact_ii = p.add("proved", "(ii) hence 1/D_u <= 1/(alpha c_L lam)",
                    _is_nonneg(slack_ii.subs(cl, cl_v).subs(lam_h)))

    # c_Du <= 2: 2 - c_Du = 2 Gamma(alpha, alpha)/Gamma(alpha), Gamma(a, x) = int_x^oo y^{a-1} e^{-y} dy > 0
    y = sp.Symbol("y", positive=True)
    cdu = explicit(c_Du(alpha * theta, alpha, theta)).xreplace(_POS)
    rest = 2 * sp.uppergamma(A, A) / sp.gamma(A)
    fact_cu = p.add("proved", "c_Du <= 2: 2 - c_Du = 2 Gamma(alpha, D_u/theta)/Gamma(alpha), "
                    "an integral of y^(alpha-1) e^(-y) > 0",
                    _is_zero((2 - cdu - rest).rewrite(sp.uppergamma))
                    and (y ** (A - 1) * sp.exp(-y)).is_positive)
    slack_cu = 2 - Cu

    # e^alpha >= 1
    x = sp.Symbol("x", nonnegative=True)
    fact_exp = _nondecreasing(p, sp.exp(x), x, 0, A, "e^alpha >= e^0 = 1 (exp increasing)")
    slack_exp = sp.exp(A) - 1

    # (iii) theta^alpha X^(1-alpha) <= X for X >= theta: X - theta^a X^(1-a) = X^(1-a) (X^a - theta^a)
    yy = sp.Symbol("y", positive=True)

    def fact_iii(X, X_minus_theta, label):
        ok = _is_zero(X - T**A * X ** (1 - A) - X ** (1 - A) * (X**A - T**A))
        ok &= _is_nonneg(sp.diff(yy**A, yy))   # y -> y^alpha increasing
        ok &= _is_nonneg(X_minus_theta)
        return p.add("proved", f"(iii) theta^alpha {label}^(1-alpha) <= {label}: the difference is "
                     f"{label}^(1-alpha) ({label}^alpha - theta^alpha), y^alpha increasing (any alpha > 0), "
                     f"{label} >= theta", ok)

    fact_iiiS = fact_iii(S, (S - T).subs(theta_h), "(D_Gamma+Delta)")
    fact_iiiW = fact_iii(W, (W - T).subs(theta_h), "(alpha theta+D_Gamma+Delta)")
    slack_iiiS = S - T**A * S ** (1 - A)
    slack_iiiW = W - T**A * W ** (1 - A)
    fact_SW = p.add("proved", "D_Gamma + Delta <= alpha theta + D_Gamma + Delta", _is_nonneg(W - S))
    slack_SW = W - S

    # (iv)
    slack_iv = 2 * sp.exp(A) / A - (1 / A + G * sp.exp(A))
    fact_iv = p.add("proved", "(iv) 2 e^alpha/alpha - (1/alpha + Gamma(alpha) e^alpha) = (e^alpha - 1)/alpha "
                    "+ e^alpha (1/alpha - Gamma(alpha)) >= 0 given Gamma(alpha) <= 1/alpha (Note 2)",
                    fact_exp and _is_zero(slack_iv - (slack_exp / A + sp.exp(A) * (1 / A - G)))
                    and _is_nonneg((1 / A - G).subs(G, 1 / A - _g)))
    p.premise("Gamma(alpha) <= 1/alpha for 0 < alpha <= 1 (Note 2, checked by note-2/gamma)")

    # (v) term by term; endpoints from the registry
    b16, b17 = _bound("lemma-18", "from-16"), _bound("lemma-18", "from-17")
    r18 = _pos(b16.rhs if rhs18 is None else rhs18)
    if rhs18 is None and not _is_zero(_pos(b17.rhs) - r18):
        p.add("identity", "registry: both steps end at Lemma 18's bound", False)
    Kx = sp.exp(S / T)

    # Lemma 16 at D_u = alpha theta
    r16 = _pos(b16.lhs)
    t1 = Kx / Cd * W / (A * T)
    t2 = Kx / Cd * Cu * G * T**A * sp.exp(A) * W ** (1 - A) / (2 * L * cl)
    e1 = Kx * W / (Cd * A * cl * L) + t2
    e2 = Kx * W / (Cd * A * cl * L) + Kx * G * T**A * sp.exp(A) * W ** (1 - A) / (Cd * L * cl)
    e3 = Kx * W / (Cd * cl * L) * (1 / A + G * sp.exp(A))
    p.add("identity", "(v) Lemma 16 at D_u = alpha theta = e^{(D_Gamma+Delta)/theta}/c_DGam [W/(alpha theta) "
          "+ c_Du Gamma(alpha) theta^alpha e^alpha W^(1-alpha)/(2 lam c_L)], W = alpha theta + D_Gamma + Delta",
          _is_zero(r16 - (t1 + t2)))
    ok16 = _chain_step(p, r16, e1, slack_ii, "(v) Lemma 16, first term: factor 1/D_u <= 1/(alpha c_L lam) by (ii)")
    ok16 &= _chain_step(p, e1, e2, slack_cu, "(v) Lemma 16, second term: factor c_Du/2 <= 1")
    ok16 &= _chain_step(p, e2, e3, slack_iiiW,
                        "(v) Lemma 16, second term: factor theta^alpha W^(1-alpha) <= W by (iii)")
    ok16 &= _chain_step(p, e3, r18, slack_iv, "(v) Lemma 16: factor 1/alpha + Gamma(alpha) e^alpha <= 2 e^alpha/alpha by (iv)")
    p.add("proved", "Lemma 16's bound at D_u = alpha theta <= Lemma 18's bound (registry 'from-16')",
          ok16 and fact_ii and fact_cu and fact_iiiW and fact_iv)

    # Lemma 17 at D_u = alpha theta
    r17 = _pos(b17.lhs)
    pre = Kx / (cl * Cd * L)
    f1 = pre * (W / A + G * S)
    f2 = pre * (W / A + G * W)
    f3 = pre * W * (1 / A + G * sp.exp(A))
    ok17 = _chain_step(p, r17, f1, slack_iiiS,
                       "(v) Lemma 17: factor theta^alpha (D_Gamma+Delta)^(1-alpha) <= D_Gamma+Delta by (iii)")
    ok17 &= _chain_step(p, f1, f2, slack_SW, "(v) Lemma 17: factor D_Gamma + Delta <= W")
    ok17 &= _chain_step(p, f2, f3, slack_exp, "(v) Lemma 17: factor Gamma(alpha) <= Gamma(alpha) e^alpha")
    ok17 &= _chain_step(p, f3, r18, slack_iv, "(v) Lemma 17: factor 1/alpha + Gamma(alpha) e^alpha <= 2 e^alpha/alpha by (iv)")
    p.add("proved", "Lemma 17's bound at D_u = alpha theta <= Lemma 18's bound (registry 'from-17')",
          ok17 and fact_iiiS and fact_SW and fact_exp and fact_iv)
    return p
