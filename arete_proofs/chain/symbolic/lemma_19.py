r"""Symbolic checks of Lemma 19's proof (Appendix C.4): from (8) to the threshold of (10).

* ``lemma-19/algebra``: (8), (9) and the exponent of (10) with
  :math:`k_\alpha, k_\theta, k_\lambda`, including :math:`\ln(48e) < 4.9 < 5`;
* ``lemma-19/threshold``: (10) solved to :math:`\varepsilon \ge 20 + 4\ln\Delta`;
* ``lemma-19/assumptions``: the assumptions (9) for :math:`\alpha = \lambda =
  e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`.
"""

from __future__ import annotations

import sympy as sp

from .. import registry
from ..registry import REGISTRY
from ..symbols import CONSTANTS, Delta, eps
from ._proof import (
    Proof, A, T, L, D, E_, Cd, _s, _v, _pos, _is_zero, _is_nonneg, _is_pos, _nondecreasing, _chain_step,
    _bound, _hypothesis, _exp_lower_rational,
)

__all__ = ["algebra_check", "threshold_check", "assumptions_check"]


# ---------------------------------------------------------------------------
# lemma-19
# ---------------------------------------------------------------------------

k_alpha, k_theta, k_lambda = sp.symbols("k_alpha k_theta k_lambda", positive=True)


def algebra_check(c_median=sp.Rational(1, 2), rhs8=None, rhs9=None, log_bound=sp.Rational(49, 10),
                  constant=5) -> Proof:
    r"""Lemma 19 (Appendix C.4), from (8) to the exponent of (10).

    Lemma 18's bound at :math:`D_\Gamma = \alpha\theta`, :math:`c_{D_\Gamma} \ge`
    ``c_median`` :math:`= 1/2`, :math:`c_L = 1/4` equals the registry's ``RHS_8``;
    under (9) it is :math:`\le` ``RHS_9``; with :math:`\alpha = e^{-\varepsilon/k_\alpha}`,
    :math:`\theta = k_\theta\Delta/\varepsilon`, :math:`\lambda = e^{-\varepsilon/k_\lambda}`
    it is :math:`48 e^{2\alpha}\Delta e^{\varepsilon(1/k_\theta+1/k_\alpha+1/k_\lambda)}
    < e^{\varepsilon(\dots) + 4.9 + \ln\Delta}` since :math:`\ln(48e) < 4.9 < 5`.
    """
    p = Proof()
    r8 = _pos(registry.RHS_8 if rhs8 is None else rhs8)
    r9 = _pos(registry.RHS_9 if rhs9 is None else rhs9)
    eq8 = _bound("lemma-19", "eq-8")
    at = _pos(eq8.lhs)                                           # RHS_18 at D_Gamma = alpha theta
    p.premise("c_DGam >= 1/2 at D_Gamma = alpha theta: the mean bounds the median of Gamma "
              "(Chen & Rubin 1986; registry lemma-19 'median', checked numerically)")
    p.add("proved", "Lemma 18's bound is decreasing in c_DGam, so c_DGam >= 1/2 may be replaced by 1/2",
          _is_pos(-sp.diff(at, Cd)))
    val = at.subs(Cd, c_median).subs(CONSTANTS)
    p.add("identity", "(8): Lemma 18's bound at D_Gamma = alpha theta, c_DGam = 1/2, c_L = 1/4 = registry RHS_8 "
          "= 16 (2 alpha theta + Delta) e^{Delta/theta} e^{2 alpha}/(alpha lam)", _is_zero(val - r8))
    # (9) => alpha theta <= Delta: alpha = 1/(2(1+v)) (alpha <= 1/2), theta = Delta/((1-alpha)(1+s))
    h9 = {T: D / ((1 - A) * (1 + _s))}
    ha = {A: 1 / (2 * (1 + _v))}
    p.add("proved", "(9) theta <= Delta/(1 - alpha) and alpha <= 1/2 give theta <= Delta/alpha, i.e. alpha theta <= Delta",
          _is_nonneg((D - A * T).subs(h9).subs(ha)))
    _chain_step(p, r8, r9, D - A * T, "2 alpha theta + Delta <= 3 Delta: registry RHS_8 <= RHS_9 (factor 2 alpha theta + Delta)")
    # general exponents
    gen = {A: sp.exp(-E_ / k_alpha), T: k_theta * D / E_, L: sp.exp(-E_ / k_lambda)}
    K = 1 / k_theta + 1 / k_alpha + 1 / k_lambda
    target = 48 * sp.exp(2 * gen[A]) * D * sp.exp(E_ * K)
    r9g = r9.subs(gen)
    p.add("identity", "RHS_9 at alpha = e^{-eps/k_alpha}, theta = k_theta Delta/eps, lam = e^{-eps/k_lambda} "
          "= 48 e^{2 alpha} Delta e^{eps (1/k_theta + 1/k_alpha + 1/k_lambda)}",
          _is_zero(sp.expand_log(sp.log(r9g / target), force=False)) or _is_zero(r9g - target))
    # 48 e^{2 alpha} <= 48 e for 2 alpha <= 1 (alpha <= 1/2), and ln(48 e) < log_bound exactly
    z = sp.Symbol("z", positive=True)
    _nondecreasing(p, 48 * sp.exp(z), z, 2 * A.subs(ha), 1, "48 e^{2 alpha} <= 48 e as 2 alpha <= 1")
    lb = sp.Rational(log_bound) - 1
    lower = _exp_lower_rational(lb)
    p.add("proved", f"ln(48 e) < {log_bound}: e^{lb} >= sum_(k<30) ({lb})^k/k! = {sp.N(lower, 8)} > 48 (exact rationals)",
          lower > 48)
    p.add("identity", f"{log_bound} < {constant} (the constant used in (10))", sp.Rational(log_bound) < sp.sympify(constant))
    p.add("proved", "hence RHS_9 < exp(eps (1/k_theta + 1/k_alpha + 1/k_lambda) + 5 + ln Delta)",
          all(s.ok for s in p.steps))
    return p


def threshold_check(constant=5, k=4) -> Proof:
    r"""Lemma 19, (10): :math:`\varepsilon K + 5 + \ln\Delta \le \varepsilon \iff
    K \le 1 - (5 + \ln\Delta)/\varepsilon` (:math:`K = 1/k_\theta+1/k_\alpha+1/k_\lambda`,
    :math:`\varepsilon > 0`); with :math:`k_\alpha = k_\theta = k_\lambda = 4` sympy
    solves it to :math:`\varepsilon \ge 20 + 4\ln\Delta`, the registry's hypothesis.

    ``constant`` (5) and ``k`` (4) are parameters for tests.
    """
    p = Proof()
    c = sp.sympify(constant)
    K = 1 / k_theta + 1 / k_alpha + 1 / k_lambda
    lnD = sp.log(D)
    lhs_form = E_ - (E_ * K + c + lnD)                      # >= 0 <=> (10) left
    rhs_form = 1 - (c + lnD) / E_ - K                        # >= 0 <=> (10) right
    p.add("identity", f"eps - (eps K + {c} + ln Delta) = eps (1 - ({c} + ln Delta)/eps - K), eps > 0: the two forms "
          "of (10) are equivalent", _is_zero(lhs_form - E_ * rhs_form) and E_.is_positive)
    kk = sp.sympify(k)
    Kk = K.subs({k_alpha: kk, k_theta: kk, k_lambda: kk})
    ln_sym = sp.Symbol("ln_Delta", real=True)
    er = sp.Symbol("eps", real=True)
    sol = sp.solve(er * Kk + c + ln_sym <= er, er)
    thr = None
    for rel in (sol.args if isinstance(sol, sp.And) else (sol,)):
        if isinstance(rel, sp.GreaterThan) and rel.lhs == er:
            thr = rel.rhs
        elif isinstance(rel, sp.LessThan) and rel.rhs == er:
            thr = rel.lhs
    registry_thr = _pos(_hypothesis("lemma-19", eps))
    ok = thr is not None and _is_zero(thr.subs(ln_sym, lnD) - registry_thr)
    p.add("solved", f"k = {k}: eps K + {c} + ln Delta <= eps <=> eps >= {thr} (sympy.solve); "
          f"registry: eps >= {registry_thr}", ok, f"sympy: {sol}")
    p.add("identity", f"K = 3/4 at k = {k}: 3/4 <= 1 - (5 + ln Delta)/eps", Kk == sp.Rational(3, 4))
    return p


def assumptions_check(delta_min=None, k_theta_value=4, alpha_cap=sp.Rational(1, 2)) -> Proof:
    r"""Lemma 19, assumptions (9) for :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`.

    :math:`\alpha \le 1/2 \iff \varepsilon \ge 4\ln 2`;
    :math:`\theta \le \Delta/(1-\alpha)` for all :math:`\varepsilon > 0` (:math:`1 - e^{-x} \le x`);
    :math:`\lambda \le \theta/2 \iff \Delta \ge \varepsilon e^{-\varepsilon/4}/2`, whose maximum over
    :math:`\varepsilon > 0` is :math:`2/e` (at :math:`\varepsilon = 4`), so the registry's
    :math:`\Delta \ge 2/e` suffices; :math:`\lambda \le \Delta/\ln 2` follows.
    ``delta_min`` (default: the registry's) and ``k_theta_value`` (4) for tests.
    """
    p = Proof()
    st = REGISTRY["lemma-19"]
    params = {_pos(kk): _pos(v) for kk, v in st.substitutions.items()}
    a_e, th_e, l_e = params[A], params[T], params[L]
    th_e = th_e * sp.sympify(k_theta_value) / 4            # theta = k Delta/eps (paper: k = 4)
    dmin = _pos(_hypothesis("lemma-19", Delta) if delta_min is None else delta_min)
    thr = _pos(_hypothesis("lemma-19", eps))
    # alpha <= 1/2 <=> eps >= 4 ln 2
    sol = sp.solveset(_pos(_bound("lemma-19", "hyp-alpha").lhs).subs(params) <= alpha_cap,
                      E_, sp.Interval.open(0, sp.oo))
    p.add("solved", f"alpha = e^(-eps/4) <= {alpha_cap} <=> eps >= 4 ln 2", sol == sp.Interval(4 * sp.log(2), sp.oo),
          f"solveset: {sol}")
    # registry hypotheses give eps >= 4 ln 2: eps >= 20 + 4 ln Delta >= 20 + 4 ln(2/e)
    p.add("proved", "Delta >= 2/e and eps >= 20 + 4 ln Delta give eps >= 16 + 4 ln 2 > 4 ln 2 (ln increasing)",
          _is_zero(thr.subs(D, dmin) - (16 + 4 * sp.log(2))) if delta_min is None else
          bool(sp.N(thr.subs(D, dmin) - 4 * sp.log(2)) > 0))
    # theta <= Delta/(1 - alpha): Delta/(1-alpha) - theta = Delta (eps - k(1-alpha))/(eps (1-alpha))
    kt = sp.sympify(k_theta_value)
    hyp_th = _bound("lemma-19", "hyp-theta")
    gap_th = _pos(hyp_th.rhs - hyp_th.lhs).subs(T, th_e).subs({A: a_e})
    p.add("identity", f"Delta/(1-alpha) - theta = Delta (eps - {kt}(1 - e^(-eps/4)))/(eps (1 - e^(-eps/4)))",
          _is_zero(gap_th - D * (E_ - kt * (1 - a_e)) / (E_ * (1 - a_e))))
    xx = sp.Symbol("x", nonnegative=True)
    ok = _nondecreasing(p, sp.exp(xx), xx, 0, E_ / 4, "e^(eps/4) >= 1, so 1 - alpha > 0")
    # 1 - e^{-x} <= x: h(x) = x - 1 + e^{-x}, h(0) = 0, h'(x) = 1 - e^{-x} >= 0 (e^{-x} <= 1)
    hx = xx - 1 + sp.exp(-xx)
    ok &= _nondecreasing(p, -sp.exp(-xx), xx, 0, xx, "e^(-x) <= e^0 = 1 for x >= 0, so h'(x) = 1 - e^(-x) >= 0, "
                         "h(x) = x - 1 + e^(-x) >= h(0) = 0")
    ok &= hx.subs(xx, 0) == 0 and _is_zero(sp.diff(hx, xx) - (1 - sp.exp(-xx)))
    # eps - k(1 - e^{-eps/4}) = k h(eps/4) + (4 - k) eps/4 with both terms >= 0
    ok &= _is_zero((E_ - kt * (1 - a_e)) - (kt * hx.subs(xx, E_ / 4) + (4 - kt) * E_ / 4))
    ok &= _is_nonneg(4 - kt)
    p.add("proved", f"theta = {kt} Delta/eps <= Delta/(1 - alpha) for all eps > 0: "
          f"eps - {kt}(1 - e^(-eps/4)) = {kt} h(eps/4) + ({4 - kt}) eps/4 >= 0", ok)
    # lam <= theta/2 <=> Delta >= m(eps) = 2 eps e^{-eps/4}/k
    m = 2 * E_ * sp.exp(-E_ / 4) / kt
    p.add("identity", f"theta/2 - lam = ({kt}/(2 eps))(Delta - m(eps)), m(eps) = 2 eps e^(-eps/4)/{kt}: "
          "lam <= theta/2 <=> Delta >= m(eps)", _is_zero((th_e / 2 - l_e) - kt / (2 * E_) * (D - m)))
    er = sp.Symbol("eps", positive=True)
    mp_ = sp.diff(m.subs(E_, er), er)
    crit = sp.solve(mp_, er)
    p.add("solved", "m'(eps) = 2 e^(-eps/4)(4 - eps)/(4k) vanishes only at eps = 4",
          crit == [4] and _is_zero(mp_ - sp.exp(-er / 4) * (4 - er) * 2 / (4 * kt)), f"critical points {crit}")
    # increasing on (0, 4], decreasing on [4, oo): the maximum over eps > 0 is m(4) = 8/(e k)
    q = sp.Symbol("q", nonnegative=True)
    inc = _is_nonneg(mp_.subs(er, 4 / (1 + q)))        # eps in (0, 4]
    dec = _is_nonneg(-mp_.subs(er, 4 + q))             # eps in [4, oo)
    mmax = m.subs(E_, 4)
    p.add("proved", f"m is increasing on (0, 4] and decreasing on [4, oo): max over eps > 0 is m(4) = {mmax}",
          inc and dec)
    p.add("proved", f"Delta >= {dmin} (hypothesis) >= {mmax} = max m, so lam <= theta/2 for every eps > 0",
          _is_zero(dmin - mmax) or _is_nonneg(dmin - mmax))
    # lam <= Delta/ln 2: lam <= theta/2 = k Delta/(2 eps) <= Delta/ln 2 for eps >= 4 ln 2 (eps = 4 ln 2 + q)
    p.add("proved", f"lam <= theta/2 = {kt} Delta/(2 eps) <= Delta/ln 2 for eps >= 4 ln 2",
          _is_nonneg((D / sp.log(2) - kt * D / (2 * E_)).subs(E_, 4 * sp.log(2) + q)))
    p.premise("Gamma(alpha) <= 1/alpha: 0 < alpha <= 1/2 <= 1 and Note 2 (note-2/gamma)")
    return p
