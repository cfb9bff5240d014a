r"""Symbolic checks of Note 2: Bernoulli's inequality and :math:`\Gamma(\alpha) \le 1/\alpha`.

* ``note-2/bernoulli``: :math:`(1 + x)^\alpha \le 1 + \alpha x` for :math:`x \ge 0`,
  :math:`0 < \alpha \le 1`;
* ``note-2/gamma``: Euler's product gives :math:`\Gamma(\alpha) \le 1/\alpha`
  (used by Lemmas 16-19).
"""

from __future__ import annotations

import sympy as sp
from mpmath import mp

from ..symbols import alpha, n
from ._proof import Proof, _v, _is_zero, _is_pos, _nondecreasing, _bound

__all__ = ["bernoulli_check", "gamma_check"]


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
