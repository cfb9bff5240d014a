r"""Symbolic check of Lemma 27 (the Staircase mechanism): :math:`a(\gamma)` normalises its density.

* ``lemma-27/normalisation``: the Staircase density with :math:`a(\gamma)`
  integrates to 1 (sympy integrates each step and sums the geometric series).
"""

from __future__ import annotations

import sympy as sp

from ._proof import Proof, D, E_, _pos, _is_zero

__all__ = ["staircase_a", "normalisation_check"]


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
