r"""Symbolic checks on the distribution of Z = X1 - X2 + Y: symmetry (Lemma 2) and moments (Lemma 3).

* ``lemma-2/symmetry`` (Corollary 13, Lemma 2): the characteristic function
  built from sympy.stats is real and even, so :math:`f_A` is symmetric;
* ``lemma-3/moments`` (Lemma 3, proof in Section 4.3): :math:`E|Z| \le
  2\alpha\theta + \lambda` and :math:`\operatorname{Var} Z = 2\alpha\theta^2 +
  2\lambda^2`, and their values at the paper's parameters.
"""

from __future__ import annotations

import sympy as sp

from ..symbols import PAPER_PARAMETERS
from ._proof import Proof, A, T, L, D, E_, _pos, _is_zero, _is_nonneg, _bound

__all__ = ["arete_characteristic_function", "symmetry_check", "moments_check"]


# ---------------------------------------------------------------------------
# lemma-2/symmetry
# ---------------------------------------------------------------------------

_u_real = sp.Symbol("u", real=True)


def _principal_power(expr):
    """Rewrite ``z**p`` with Re z > 0 as ``exp(p (ln|z| + i atan(Im z / Re z)))`` (principal branch)."""

    def rewrite(base, exponent):
        re, im = base.as_real_imag()
        if im == 0:
            return base**exponent
        if not sp.simplify(re).is_positive:
            raise ValueError(f"principal branch of {base} not established (Re = {re})")
        return sp.exp(exponent * (sp.log(sp.sqrt(re**2 + im**2)) + sp.I * sp.atan(im / re)))

    return expr.replace(lambda e: e.is_Pow and not e.base.is_extended_real and e.base.has(sp.I),
                        lambda e: rewrite(e.base, e.exp))


def arete_characteristic_function(alpha2=None, mu=0, u=_u_real):
    r"""CF of :math:`X_1 - X_2 + Y` from sympy.stats: :math:`X_1 \sim \Gamma(\alpha,\theta)`,
    :math:`X_2 \sim \Gamma(\alpha_2, \theta)` (default :math:`\alpha_2 = \alpha`),
    :math:`Y \sim \mathrm{Laplace}(\mu, \lambda)` (default :math:`\mu = 0`).

    Returns the product of the three characteristic functions as sympy.stats
    gives them, :math:`(1 - i\theta u)^{-\alpha}(1 + i\theta u)^{-\alpha_2}
    e^{i\mu u}/(1 + \lambda^2 u^2)`.
    """
    from sympy.stats import Gamma, Laplace, characteristic_function

    a2 = A if alpha2 is None else _pos(alpha2)
    cf_x1 = characteristic_function(Gamma("X1", A, T))(u)
    cf_x2 = characteristic_function(Gamma("X2", a2, T))(-u)  # CF of -X2
    cf_y = characteristic_function(Laplace("Y", mu, L))(u)
    return cf_x1 * cf_x2 * cf_y


def symmetry_check(alpha2=None, mu=0) -> Proof:
    r"""Corollary 13 (Lemma 2): :math:`\varphi_Z(u) = (1+\theta^2u^2)^{-\alpha}/(1+\lambda^2u^2)`
    is real and even, so :math:`f_A` is symmetric.

    ``alpha2``/``mu`` break the construction (a different shape for
    :math:`X_2`, a shifted Laplace) for tests.
    """
    p = Proof()
    u = _u_real
    phi_raw = arete_characteristic_function(alpha2, mu, u)
    phi = sp.expand(sp.powsimp(sp.expand(_principal_power(phi_raw)), combine="exp"))
    target = (1 + T**2 * u**2) ** (-A) / (1 + L**2 * u**2)
    p.add("identity",
          f"phi(u) = CF_Gamma(u) CF_Gamma(-u) CF_Laplace(u) = {phi_raw} "
          "equals (1 + theta^2 u^2)^(-alpha)/(1 + lam^2 u^2) (principal branch, Re(1 -+ i theta u) = 1 > 0)",
          _is_zero(phi - target))
    im = sp.simplify(sp.im(phi))
    p.add("identity", "Im phi(u) = 0 for real u (phi is real)", im == 0, f"Im phi = {im}")
    p.add("identity", "phi(-u) = phi(u) (phi is even)", _is_zero(phi.subs(u, -u) - phi))
    # |phi(u)| <= 1/(1 + lam^2 u^2) is integrable, so f_A is the inverse transform; the
    # substitution u -> -u in f_A(-x) = (1/2pi) int e^{iux} phi(u) du gives f_A(x):
    x = sp.Symbol("x", real=True)
    integrand = sp.exp(-sp.I * u * x) * phi
    p.add("identity",
          "inverse transform: e^{-iu(-x)} phi(u) at u -> -u equals e^{-iux} phi(u), so f_A(-x) = f_A(x)",
          _is_zero(integrand.subs(x, -x).subs(u, -u) - integrand))
    return p


# ---------------------------------------------------------------------------
# lemma-3/moments
# ---------------------------------------------------------------------------

def moments_check(variance_rhs=None, mean_abs_rhs=None, paper_mean=None, paper_variance=None) -> Proof:
    r"""Lemma 3 (proof in Section 4.3): :math:`E|Z| \le 2\alpha\theta + \lambda` and
    :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2`.

    The right-hand sides default to the registry's Lemma 3 bounds; the paper's
    values at the parameters of Lemma 3 default to Section 4.3's
    :math:`8\Delta e^{-\varepsilon/4}/\varepsilon + e^{-\varepsilon/4}` and
    :math:`32\Delta^2 e^{-\varepsilon/4}/\varepsilon^2 + 2e^{-\varepsilon/2}`.
    """
    from sympy.stats import E, Gamma, Laplace, variance

    p = Proof()
    var_rhs = _pos(_bound("lemma-3", "variance").rhs if variance_rhs is None else variance_rhs)
    mean_rhs = _pos(_bound("lemma-3", "mean-abs").rhs if mean_abs_rhs is None else mean_abs_rhs)
    X = Gamma("X", A, T)
    Y = Laplace("Y", 0, L)
    ex, vx = E(X), variance(X)
    eay, vy = E(sp.Abs(Y)), variance(Y)
    p.add("identity", "Gamma(alpha, theta): E X = alpha theta", _is_zero(ex - A * T), f"sympy.stats: {ex}")
    p.add("identity", "Gamma(alpha, theta): Var X = alpha theta^2", _is_zero(vx - A * T**2), f"sympy.stats: {vx}")
    p.add("identity", "Laplace(lam): E|Y| = lam", _is_zero(eay - L), f"sympy.stats: {eay}")
    p.add("identity", "Laplace(lam): Var Y = 2 lam^2", _is_zero(vy - 2 * L**2), f"sympy.stats: {vy}")
    # Var Z by independence, and independently as -phi''(0) from the CF of lemma-2
    var_z = 2 * vx + vy
    p.add("identity", f"Var Z = Var X1 + Var X2 + Var Y = registry rhs {var_rhs}", _is_zero(var_z - var_rhs))
    u = _u_real
    phi = (1 + T**2 * u**2) ** (-A) / (1 + L**2 * u**2)
    var_cf = -sp.diff(phi, u, 2).subs(u, 0)
    p.add("identity", "Var Z = -phi''(0) (phi of lemma-2/symmetry; E Z = -i phi'(0) = 0)",
          _is_zero(var_cf - var_rhs) and sp.diff(phi, u).subs(u, 0) == 0, f"-phi''(0) = {sp.expand(var_cf)}")
    # E|Z| <= E X1 + E X2 + E|Y| from |x1 - x2 + y| <= x1 + x2 + |y| (x1, x2 >= 0)
    x1, x2, w = sp.symbols("x1 x2 w", nonnegative=True)
    cases_ok = True
    for sy in (1, -1):           # y = sy * w
        for sz in (1, -1):       # |x1 - x2 + y| = sz * (x1 - x2 + y) in the case of its sign
            cases_ok &= _is_nonneg(x1 + x2 + w - sz * (x1 - x2 + sy * w))
    p.add("proved", "|x1 - x2 + y| <= x1 + x2 + |y| for x1, x2 >= 0 (all four sign cases)", cases_ok)
    p.add("identity", f"2 E X1 + E|Y| = registry rhs {mean_rhs} (E X2 = E X1; monotonicity of E)",
          _is_zero(2 * ex + eay - mean_rhs))
    # the paper's parameters (Section 4.3)
    Dp, ep = D, E_
    pm = (8 * Dp * sp.exp(-ep / 4) / ep + sp.exp(-ep / 4)) if paper_mean is None else _pos(paper_mean)
    pv = (32 * Dp**2 * sp.exp(-ep / 4) / ep**2 + 2 * sp.exp(-ep / 2)) if paper_variance is None \
        else _pos(paper_variance)
    params = {_pos(k): _pos(v) for k, v in PAPER_PARAMETERS.items()}
    p.add("identity", "at alpha = lam = e^{-eps/4}, theta = 4 Delta/eps: 2 alpha theta + lam "
          "= 8 Delta e^{-eps/4}/eps + e^{-eps/4}", _is_zero(mean_rhs.subs(params) - pm))
    p.add("identity", "at the paper's parameters: 2 alpha theta^2 + 2 lam^2 "
          "= 32 Delta^2 e^{-eps/4}/eps^2 + 2 e^{-eps/2}", _is_zero(var_rhs.subs(params) - pv))
    return p
