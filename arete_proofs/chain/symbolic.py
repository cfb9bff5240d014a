r"""Symbolic checks (sympy) of the algebraic steps of the paper's proof chain.

The numeric checks evaluate the registry's bounds on grids; the checks here
prove, for *all* admissible parameters, the steps of the proofs that are pure
algebra or elementary calculus.  Every bound that the registry states is taken
from :mod:`arete_proofs.chain.registry` (``RHS_16``, ``RHS_17``, ``RHS_18``,
``RHS_8``, ``RHS_9``, ``g_lemma28``, ``GAP``, the records' ``bounds`` and
``hypotheses``); only the intermediate expressions of the paper's displays are
written here.

What a check establishes is recorded step by step in its ``detail``, each step
tagged with its kind:

``proved``
    An inequality between symbolic expressions, valid for all parameters
    satisfying the hypotheses.  Hypotheses become *parametrisations* by
    positive / nonnegative dummies (e.g. :math:`\alpha \le 1` as
    :math:`\alpha = 1/(1+v)`, :math:`v \ge 0`; :math:`\theta \le D_\Gamma +
    \Delta` as :math:`\theta = (D_\Gamma + \Delta)/(1+s)`), and the difference
    of the two sides is shown to be a product or sum of factors that sympy's
    assumption system recognises as nonnegative (after ``together``: a
    numerator polynomial with nonnegative coefficients over a positive
    denominator).  A chain step ``E_k <= E_{k+1}`` is proved by exhibiting
    ``E_{k+1} - E_k = q * s`` with ``q >= 0`` manifest and ``s >= 0`` one of
    the elementary facts.  The only calculus used is "a function with
    nonnegative derivative on an interval is nondecreasing there", applied
    to a derivative sympy computes and signs (e.g. :math:`e^x`,
    :math:`x^\alpha`, :math:`b^x`).
``identity``
    A symbolic equality (difference simplifies to 0), e.g. the value of
    Lemma 18's bound at the paper's choices, or a characteristic function.
``solved``
    A solution set computed by sympy (``solve`` / ``solveset``) compared with
    the registry.
``numeric``
    A numerical confirmation (mpmath), e.g. the convergence of Euler's product
    or :math:`\Gamma(\alpha+1) \le 1` on a grid.  It never replaces a proof.
``premise``
    A fact taken from the literature or from another statement (e.g.
    :math:`c_{D_\Gamma} \ge 1/2` from Chen & Rubin); listed, not checked.

A check ``holds`` when every non-premise step succeeded.  sympy failing to
decide a sign counts as *not holding* (the step says so), never as a pass.

Checks (ids as in the registry's ``symbolic`` fields):

===========================  ================================================
``lemma-2/symmetry``         Cor. 13: the characteristic function is real and even
``lemma-3/moments``          Section 4.3: E|Z| and Var Z of Lemma 3
``lemma-28/maximiser``       Lemma 28: t*, concavity of ln g, kappa >= t*
``lemma-18/step``            C.3: Lemmas 16 and 17 imply Lemma 18
``note-2/bernoulli``         Note 2: (1 + x)^alpha <= 1 + alpha x
``note-2/gamma``             Note 2: Euler's product gives Gamma(alpha) <= 1/alpha
``lemma-19/algebra``         C.4: (8), (9) and the exponent with k_alpha, k_theta, k_lambda
``lemma-19/threshold``       C.4 (10): eps >= 20 + 4 ln Delta
``lemma-19/assumptions``     C.4 (9) for the paper's parameters
``lemma-27/normalisation``   Lemma 27: a(gamma) normalises the Staircase density
===========================  ================================================

>>> import sympy as sp
>>> from arete_proofs import registry
>>> from arete_proofs.chain.symbols import alpha, D_Gamma, Delta
>>> tt = sp.Symbol("t", positive=True)
>>> # Lemma 28: d/dt ln g(t) = (1 - alpha)/(D_Gamma + Delta + t) - (1/lam - 1/theta)
>>> dlog = log_derivative(registry.g_lemma28(tt), tt)
>>> sp.simplify(dlog - ((1 - alpha) / (D_Gamma + Delta + tt) - registry.GAP))
0
>>> [r.holds for r in run(["lemma-28/maximiser", "lemma-19/threshold"])]
[True, True]
>>> threshold_check(constant=sp.Rational(24, 5)).holds   # (10) with 4.8 instead of 5
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import sympy as sp
from mpmath import mp

from . import registry
from .registry import REGISTRY
from .symbols import (
    CONSTANTS, D_Gamma, D_u, Delta, PAPER_PARAMETERS, alpha, c_DGam, c_Du, c_L, eps,
    explicit, kappa, lam, n, t, theta,
)

__all__ = [
    "SymbolicResult", "SymbolicCheck", "Proof", "Step", "CHECKS", "run",
    "log_derivative", "arete_characteristic_function",
    "symmetry_check", "moments_check", "maximiser_check", "lemma18_step_check",
    "bernoulli_check", "gamma_check", "algebra_check", "threshold_check",
    "assumptions_check", "normalisation_check", "staircase_a",
]


# ---------------------------------------------------------------------------
# results and proof logs
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SymbolicResult:
    """Outcome of one symbolic check.

    ``id`` is the check id (``"lemma-18/step"``), ``statement`` the registry id
    it belongs to (``"lemma-18"``), ``holds`` whether every step was
    established, ``detail`` the step-by-step log.
    """

    id: str
    statement: str
    title: str
    holds: bool
    detail: str


@dataclass(frozen=True)
class Step:
    """One step of a :class:`Proof`: ``kind`` is proved/identity/solved/numeric/premise."""

    kind: str
    text: str
    ok: bool
    note: str = ""


@dataclass
class Proof:
    """A log of steps; it ``holds`` when it has steps and every non-premise step is ok."""

    steps: list = field(default_factory=list)

    def add(self, kind: str, text: str, ok, note: str = "") -> bool:
        ok = ok is True or ok is sp.true or (isinstance(ok, bool) and ok)
        self.steps.append(Step(kind, text, bool(ok), note))
        return bool(ok)

    def premise(self, text: str) -> None:
        self.steps.append(Step("premise", text, True))

    @property
    def holds(self) -> bool:
        checked = [s for s in self.steps if s.kind != "premise"]
        return bool(checked) and all(s.ok for s in checked)

    @property
    def detail(self) -> str:
        lines = []
        for s in self.steps:
            mark = s.kind if s.ok else f"{s.kind} FAILED"
            line = f"[{mark}] {s.text}"
            if s.note:
                line += f" -- {s.note}"
            lines.append(line)
        return "\n".join(lines)


@dataclass(frozen=True)
class SymbolicCheck:
    """A registered check: calling it runs ``function`` (returning a :class:`Proof`)."""

    id: str
    title: str
    function: Callable[[], Proof]

    @property
    def statement(self) -> str:
        return self.id.split("/", 1)[0]

    def __call__(self) -> SymbolicResult:
        try:
            proof = self.function()
            holds, detail = proof.holds, proof.detail
        except Exception as exc:  # a sympy failure is a failed check, not a crash
            holds, detail = False, f"check raised {type(exc).__name__}: {exc}"
        return SymbolicResult(self.id, self.statement, self.title, holds, detail)


# ---------------------------------------------------------------------------
# sympy helpers
# ---------------------------------------------------------------------------

#: positive dummies for the registry's real symbols
_POS = {s: sp.Symbol(s.name, positive=True)
        for s in (alpha, theta, lam, Delta, D_Gamma, D_u, eps, kappa)}
A, T, L, D, DG, DU, E_, K_ = (_POS[s] for s in (alpha, theta, lam, Delta, D_Gamma, D_u, eps, kappa))

#: placeholders for c_DGam, c_Du and Gamma(alpha) (positive numbers whose bounds are facts)
Cd = sp.Symbol("c_DGam", positive=True)
Cu = sp.Symbol("c_Du", positive=True)
G = sp.Symbol("Gamma_alpha", positive=True)

# nonnegative slack variables of the parametrisations
_s, _u, _v, _w, _g = sp.symbols("s u v w g", nonnegative=True)


def _pos(expr, placeholders: bool = True):
    """``expr`` over the positive dummies; c_DGam, c_Du, Gamma(alpha) -> placeholders."""
    expr = sp.sympify(expr).xreplace(_POS)
    if placeholders:
        expr = expr.replace(c_DGam, lambda *args: Cd).replace(c_Du, lambda *args: Cu)
        expr = expr.replace(sp.gamma, lambda arg: G if arg == A else sp.gamma(arg))
    return expr


def _is_zero(expr) -> bool:
    """Targeted simplification: expand, cancel, powsimp, then simplify."""
    expr = sp.sympify(expr)
    if expr == 0:
        return True
    for f in (sp.expand, lambda e: sp.cancel(sp.together(e)),
              lambda e: sp.expand(sp.powsimp(sp.expand_power_base(e, force=False))),
              sp.simplify):
        try:
            if f(expr) == 0:
                return True
        except Exception:  # pragma: no cover - a failing simplifier is just "not shown"
            pass
    return False


def _is_nonneg(expr) -> bool:
    """True only if sympy *proves* ``expr >= 0`` from the symbols' assumptions."""
    expr = sp.sympify(expr)
    if expr.is_nonnegative:
        return True
    try:
        num, den = sp.fraction(sp.together(expr))
        num, den = sp.expand(num), sp.expand(den)
        if (num.is_nonnegative and den.is_positive) or (num.is_nonpositive and den.is_negative):
            return True
        if sp.factor(num).is_nonnegative and sp.factor(den).is_positive:
            return True
    except Exception:  # pragma: no cover
        pass
    try:
        return sp.simplify(expr).is_nonnegative is True
    except Exception:  # pragma: no cover
        return False


def _is_pos(expr) -> bool:
    """True only if sympy proves ``expr > 0``."""
    expr = sp.sympify(expr)
    if expr.is_positive:
        return True
    num, den = sp.fraction(sp.together(expr))
    num, den = sp.expand(num), sp.expand(den)
    return bool((num.is_positive and den.is_positive) or (num.is_negative and den.is_negative)
                or (sp.factor(num).is_positive and sp.factor(den).is_positive))


def log_derivative(g, x):
    r""":math:`\frac{d}{dx}\ln g(x) = g'(x)/g(x)`, simplified (powers combined, then cancelled)."""
    return sp.simplify(sp.powsimp(sp.diff(g, x) / g, force=False))


def _nondecreasing(proof: Proof, f, x, a, b, text: str) -> bool:
    """Prove ``f(a) <= f(b)`` from ``a <= b`` and ``f'(x) >= 0`` (on x's assumed domain).

    The derivative's sign must be manifest for the dummy ``x`` (whose
    assumptions describe the interval containing a and b), and ``b - a >= 0``
    must be manifest.
    """
    deriv = sp.diff(f, x)
    ok = _is_nonneg(deriv) and _is_nonneg(b - a)
    return proof.add("proved", text, ok, f"d/d{x} = {deriv} >= 0 and {b} >= {a}")


def _chain_step(proof: Proof, lower, upper, slack, what: str) -> bool:
    """Prove ``lower <= upper`` as ``upper - lower = q * slack`` with ``q >= 0`` manifest."""
    diff = upper - lower
    q = sp.simplify(diff / slack)
    ok = _is_nonneg(q) and _is_zero(diff - q * slack)
    return proof.add("proved", what, ok, f"difference = ({q}) * ({slack})")


def _bound(statement_id: str, name: str):
    for b in REGISTRY[statement_id].bounds:
        if b.name == name:
            return b
    raise KeyError(f"{statement_id} has no bound {name!r}")


def _hypothesis(statement_id: str, symbol):
    """The registry hypothesis ``symbol >= value`` of a statement; returns value."""
    for h in REGISTRY[statement_id].hypotheses:
        if isinstance(h, sp.GreaterThan) and h.lhs == symbol:
            return h.rhs
        if isinstance(h, sp.LessThan) and h.rhs == symbol:
            return h.lhs
    raise KeyError(f"{statement_id} has no lower bound on {symbol}")


def _exp_lower_rational(x: sp.Rational, terms: int = 30) -> sp.Rational:
    """Exact lower bound of :math:`e^x` (x >= 0): the Taylor partial sum (all terms positive)."""
    x = sp.Rational(x)
    return sum(x**k / sp.factorial(k) for k in range(terms))


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


# ---------------------------------------------------------------------------
# note-2
# ---------------------------------------------------------------------------

def _bernoulli(p: Proof, a, x) -> bool:
    """Prove ``(1 + x)^a <= 1 + a x`` for the nonnegative dummy ``x``; ``a`` symbolic or numeric."""
    h = 1 + a * x - (1 + x) ** a
    hp = sp.diff(h, x)
    ok = p.add("identity", "h(0) = 0 and h'(x) = alpha (1 - (1+x)^(alpha-1)) for h(x) = 1 + alpha x - (1+x)^alpha",
               h.subs(x, 0) == 0 and _is_zero(hp - a * (1 - (1 + x) ** (a - 1))))
    # (1+x)^(alpha-1) <= (1+x)^0 = 1: e -> (1+x)^e is nondecreasing (derivative (1+x)^e ln(1+x) >= 0)
    ee = sp.Symbol("e", real=True)
    ok &= _nondecreasing(p, (1 + x) ** ee, ee, a - 1, 0,
                         "(1+x)^(alpha-1) <= (1+x)^0 = 1 since alpha - 1 <= 0 and e -> (1+x)^e is nondecreasing")
    ok &= p.add("proved", "h'(x) >= 0 for x >= 0 (alpha > 0), so h(x) >= h(0) = 0", _is_pos(a) and ok)
    return ok


def bernoulli_check(alpha_value=None) -> Proof:
    r"""Note 2: :math:`(1+x)^\alpha \le 1 + \alpha x` for :math:`x \ge 0`, :math:`0 < \alpha \le 1`.

    :math:`h(x) = 1 + \alpha x - (1+x)^\alpha` has :math:`h(0) = 0` and
    :math:`h'(x) = \alpha(1 - (1+x)^{\alpha-1}) \ge 0`.  ``alpha_value``
    fixes :math:`\alpha` (e.g. 2, where the inequality fails).
    """
    p = Proof()
    x = sp.Symbol("x", nonnegative=True)
    a = 1 / (1 + _v) if alpha_value is None else sp.sympify(alpha_value)   # alpha in (0, 1]
    ok = _bernoulli(p, a, x)
    bern = _bound("note-2", "bernoulli")
    npos = sp.Symbol("n", positive=True)
    lhs, rhs = bern.lhs.subs(n, npos).subs(alpha, a), bern.rhs.subs(n, npos).subs(alpha, a)
    h_at = (1 + a * x - (1 + x) ** a).subs(x, 1 / npos)
    same = p.add("identity", "at x = 1/n, h(1/n) = registry rhs - lhs", _is_zero(h_at - (rhs - lhs)))
    p.add("proved", "hence the registry's (1 + 1/n)^alpha <= 1 + alpha/n for n > 0", ok and same)
    # numeric sanity (never a substitute for the proof above)
    samples = [sp.Rational(1, 3), 1] if alpha_value is None else [sp.sympify(alpha_value)]
    pts = [sp.Rational(1, 2), 1, 10]
    num_ok = all(float(1 + av * xv - (1 + xv) ** av) >= -1e-15 for av in samples for xv in pts)
    p.add("numeric", f"h(x) >= 0 at alpha in {samples}, x in {pts}", num_ok)
    return p


def gamma_check(alpha_value=None, numeric_alpha=sp.Rational(1, 3), terms=(10, 100, 1000, 10000)) -> Proof:
    r"""Note 2: :math:`\Gamma(\alpha) = \frac1\alpha\prod_{n\ge1}(1+1/n)^\alpha/(1+\alpha/n) \le 1/\alpha`.

    Symbolically: the partial product is
    :math:`(N+1)^\alpha\,\Gamma(\alpha+1)\,N!/\Gamma(N+\alpha+1) \to \Gamma(\alpha+1)`
    (sympy ``product`` and ``limit``); each factor is in :math:`(0, 1]` by the
    Bernoulli inequality, so :math:`\Gamma(\alpha+1) = \alpha\Gamma(\alpha) \le 1`.
    Numerically: partial products at ``numeric_alpha`` converge to
    :math:`\Gamma`, and :math:`\Gamma(\alpha+1) \le 1` on a grid of (0, 1].
    ``alpha_value`` fixes :math:`\alpha` (e.g. 2) for tests.
    """
    p = Proof()
    a = 1 / (1 + _v) if alpha_value is None else sp.sympify(alpha_value)
    ap = sp.Symbol("alpha", positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    N = sp.Symbol("N", integer=True, positive=True)
    bern = _bound("note-2", "bernoulli")
    factor = (bern.lhs / bern.rhs).subs(alpha, ap)                # (1 + 1/n)^alpha / (1 + alpha/n)
    partial = sp.product(factor.subs(n, k), (k, 1, N))
    closed = (N + 1) ** ap * sp.gamma(ap + 1) * sp.factorial(N) / sp.gamma(N + ap + 1)
    p.add("identity", "prod_{n<=N} (1+1/n)^alpha/(1+alpha/n) = (N+1)^alpha Gamma(alpha+1) N!/Gamma(N+alpha+1)",
          _is_zero(sp.gammasimp(partial.rewrite(sp.gamma) - closed)), f"sympy.product: {partial}")
    # ln of partial product / Gamma(alpha+1) -> 0 (the log form keeps sympy's gruntz fast)
    log_ratio = ap * sp.log(N + 1) + sp.loggamma(N + 1) - sp.loggamma(N + ap + 1)
    lim = sp.limit(log_ratio, N, sp.oo)
    p.add("identity", "ln[(N+1)^alpha N!/Gamma(N+alpha+1)] -> 0, so the partial products tend to "
          "Gamma(alpha+1) = alpha Gamma(alpha) (Euler's product: Gamma(alpha) = (1/alpha) prod ...)",
          lim == 0 and _is_zero(sp.expand_func(sp.gamma(ap + 1)) - ap * sp.gamma(ap)), f"limit of the log = {lim}")
    x = sp.Symbol("x", nonnegative=True)
    sub = Proof()
    fac_ok = _bernoulli(sub, a, x)
    p.add("proved", "each factor (1+1/n)^alpha/(1+alpha/n) is in (0, 1] (Bernoulli, note-2/bernoulli, x = 1/n)",
          fac_ok and _is_pos(factor.subs(ap, a).subs(n, sp.Symbol("m", positive=True))),
          "; ".join(s.text for s in sub.steps if not s.ok) or "")
    p.add("proved", "so every partial product is <= 1 and Gamma(alpha+1) = lim <= 1", fac_ok)
    gb = _bound("note-2", "gamma")
    p.add("identity", "Gamma(alpha+1) <= 1 <=> Gamma(alpha) <= 1/alpha (registry bound, times alpha > 0)",
          _is_zero(ap * (gb.rhs - gb.lhs).subs(alpha, ap) - (1 - sp.expand_func(sp.gamma(ap + 1)))))
    # numerics
    av = numeric_alpha if alpha_value is None else sp.sympify(alpha_value)
    with mp.workdps(30):
        am = mp.mpf(sp.Rational(av).p) / sp.Rational(av).q
        target = mp.gamma(am)
        prod, errs, n_done = mp.mpf(1), [], 0
        for N_ in terms:
            for j in range(n_done + 1, N_ + 1):
                prod *= (1 + mp.mpf(1) / j) ** am / (1 + am / j)
            n_done = N_
            errs.append(abs(prod / am - target) / target)
        conv = all(e2 < e1 for e1, e2 in zip(errs, errs[1:])) and errs[-1] < 10 / terms[-1]
        p.add("numeric", f"Euler's partial products at alpha = {av} converge to Gamma(alpha)",
              conv, "relative errors " + ", ".join(mp.nstr(e, 3) for e in errs))
        grid = [mp.mpf(j) / 64 for j in range(1, 65)] if alpha_value is None else [am]
        p.add("numeric", "Gamma(alpha + 1) <= 1 " + ("on alpha = j/64, j = 1..64" if alpha_value is None
                                                       else f"at alpha = {av}"),
              all(mp.gamma(g + 1) <= 1 for g in grid))
    return p


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


# ---------------------------------------------------------------------------
# lemma-27/normalisation
# ---------------------------------------------------------------------------

def staircase_a(gamma, Delta_, eps_):
    r"""Lemma 27's normalisation factor :math:`a(\gamma) = \frac{1-e^{-\varepsilon}}{2\Delta(\gamma+e^{-\varepsilon}(1-\gamma))}`."""
    return (1 - sp.exp(-eps_)) / (2 * Delta_ * (gamma + sp.exp(-eps_) * (1 - gamma)))


def normalisation_check(a_gamma=None) -> Proof:
    r"""Lemma 27: the Staircase density integrates to 1 with :math:`a(\gamma)`.

    On :math:`[k\Delta, (k+\gamma)\Delta)` it is :math:`a e^{-k\varepsilon}`, on
    :math:`[(k+\gamma)\Delta, (k+1)\Delta)` it is :math:`a e^{-(k+1)\varepsilon}`,
    and it is symmetric; sympy integrates each step and sums the geometric
    series.  ``a_gamma`` (an expression in ``gamma``, ``Delta``, ``eps``)
    replaces :math:`a(\gamma)` for tests.
    """
    p = Proof()
    gm = sp.Symbol("gamma", nonnegative=True)   # gamma in [0, 1]: gamma = gm, 1 - gamma = 1 - gm >= 0
    k = sp.Symbol("k", integer=True, nonnegative=True)
    tt = sp.Symbol("t", real=True)
    a_sym = sp.Symbol("a", positive=True)
    r = sp.Symbol("r", positive=True)          # r = e^{-eps}
    period = (sp.integrate(a_sym * r**k, (tt, k * D, (k + gm) * D))
              + sp.integrate(a_sym * r ** (k + 1), (tt, (k + gm) * D, (k + 1) * D)))
    p.add("identity", "int over [k Delta, (k+1) Delta) = a Delta r^k (gamma + r (1 - gamma)), r = e^(-eps)",
          _is_zero(period - a_sym * D * r**k * (gm + r * (1 - gm))))
    xx = sp.Symbol("x", nonnegative=True)
    r_lt_1 = p.add("proved", "0 < r = e^(-eps) < 1 for eps > 0: exp is strictly increasing (derivative e^x > 0)",
                   sp.diff(sp.exp(xx), xx).is_positive and E_.is_positive and sp.exp(-E_).is_positive)
    total = sp.summation(period, (k, 0, sp.oo))
    total = sp.refine(total, sp.Q.lt(r, 1))
    p.add("identity", "sum_k (geometric series, 0 < r < 1) = a Delta (gamma + r (1 - gamma))/(1 - r)",
          r_lt_1 and not total.has(sp.Sum) and _is_zero(total - a_sym * D * (gm + r * (1 - gm)) / (1 - r)),
          f"sympy.summation: {total}")
    a_expr = staircase_a(gm, D, E_) if a_gamma is None else _pos(a_gamma).subs(
        {sp.Symbol("gamma", real=True): gm, sp.Symbol("gamma_sc", real=True): gm})
    whole = 2 * total.subs(a_sym, a_expr).subs(r, sp.exp(-E_))
    p.add("identity", "2 (both halves) x the sum with a = a(gamma) equals 1", _is_zero(whole - 1),
          f"integral = {sp.simplify(whole)}")
    return p


# ---------------------------------------------------------------------------
# registry of checks
# ---------------------------------------------------------------------------

_CHECK_LIST = [
    SymbolicCheck("lemma-2/symmetry", "Cor. 13: the Arete characteristic function is real and even",
                  symmetry_check),
    SymbolicCheck("lemma-3/moments", "Section 4.3: E|Z| <= 2 alpha theta + lam, Var Z = 2 alpha theta^2 + 2 lam^2",
                  moments_check),
    SymbolicCheck("lemma-28/maximiser", "Lemma 28: maximiser t* of g and kappa >= t*", maximiser_check),
    SymbolicCheck("lemma-18/step", "C.3: Lemmas 16 and 17 at D_u = alpha theta give Lemma 18's bound",
                  lemma18_step_check),
    SymbolicCheck("note-2/bernoulli", "Note 2: (1 + x)^alpha <= 1 + alpha x", bernoulli_check),
    SymbolicCheck("note-2/gamma", "Note 2: Euler's product gives Gamma(alpha) <= 1/alpha", gamma_check),
    SymbolicCheck("lemma-19/algebra", "C.4: (8), (9) and the exponent of (10)", algebra_check),
    SymbolicCheck("lemma-19/threshold", "C.4 (10): eps >= 20 + 4 ln Delta", threshold_check),
    SymbolicCheck("lemma-19/assumptions", "C.4 (9) for alpha = lam = e^{-eps/4}, theta = 4 Delta/eps",
                  assumptions_check),
    SymbolicCheck("lemma-27/normalisation", "Lemma 27: a(gamma) normalises the Staircase density",
                  normalisation_check),
]

#: check id -> :class:`SymbolicCheck` (call it for a :class:`SymbolicResult`).
CHECKS = {c.id: c for c in _CHECK_LIST}


def run(ids=None) -> list[SymbolicResult]:
    """Run the checks ``ids`` (default: all, in proof-chain order); a failed check never raises.

    An unknown id is a usage error (``ValueError``).
    """
    if ids is None:
        ids = list(CHECKS)
    elif isinstance(ids, str):
        ids = [ids]
    unknown = [i for i in ids if i not in CHECKS]
    if unknown:
        raise ValueError(f"unknown symbolic check(s) {unknown}; known: {', '.join(CHECKS)}")
    return [CHECKS[i]() for i in ids]
