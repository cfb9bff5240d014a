r"""Symbolic checks of the 2025 paper's GDL algebra (``hm25-theorem-13/pmf-ratio``, ``hm25-theorem-15/algebra``).

Harrison and Manurangsi (FORC 2025, reconstructed).  The expressions are the registry's
(:mod:`arete_proofs.chain.hm25_records`): Theorem 13's :math:`L`, Corollary 14's bound and
Theorem 15's substitutions; only the pmf's closed form (from the notes) is written here.

* ``hm25-theorem-13/pmf-ratio`` -- :math:`L = \ln p(0) - \ln p(\Delta)` with
  :math:`p(x) = e^{-a|x|}(1-e^{-a})^{2\beta}\,{}_2F_1(\beta,\beta+|x|;1+|x|;e^{-2a})\,
  \Gamma(\beta+|x|)/(\Gamma(1+|x|)\Gamma(\beta))` (identity, every :math:`\beta`); at
  :math:`\beta = 1` the pmf is DLap's :math:`\tanh(a/2)e^{-a|x|}` and :math:`L = a\Delta`
  (``hyperexpand``): Theorem 13's two cases meet at :math:`\beta = 1`.
* ``hm25-theorem-15/algebra`` -- at :math:`\beta = \Delta e^{2-\varepsilon}`, :math:`a = 2/\Delta`:
  :math:`a\Delta + \ln(\Delta/\beta) = \varepsilon` (identity); with
  :math:`\varepsilon = 2 + \ln\Delta + u`, :math:`\ln\beta = -u` (so the hypothesis
  :math:`\varepsilon > 2 + \ln\Delta` is :math:`\beta < 1`, Corollary 14's); and
  :math:`\cosh x - 1 - x^2/2 = \sum_{j \ge 2} x^{2j}/(2j)! \ge 0`, so
  :math:`\operatorname{Var} = \beta/(\cosh a - 1) \le 2\beta/a^2 = (e^2/2)\Delta^3 e^{-\varepsilon}`.

>>> theorem_13_check().holds, theorem_15_check().holds
(True, True)
>>> theorem_15_check(constant=sp.Rational(1, 2)).holds     # without the e^2 the variance bound is not the algebra's
False
"""

from __future__ import annotations

import sympy as sp

from ..gdl_symbols import COR14, L13, a_GDL, beta
from ..registry import REGISTRY
from ..symbols import Delta, eps
from ._proof import Proof, _is_nonneg, _is_zero

__all__ = ["theorem_13_check", "theorem_15_check"]

_B, _A, _D, _E, _U = sp.symbols("beta a Delta eps u", positive=True)
_X = sp.Symbol("x", nonnegative=True)
_J = sp.Symbol("j", integer=True, nonnegative=True)


def _pos(expr):
    return sp.sympify(expr).xreplace({beta: _B, a_GDL: _A, Delta: _D, eps: _E})


def _pmf(x, b=_B):
    z = sp.exp(-2 * _A)
    return (sp.exp(-_A * x) * (1 - sp.exp(-_A)) ** (2 * b) * sp.hyper((b, b + x), (1 + x,), z)
            * sp.gamma(b + x) / (sp.gamma(1 + x) * sp.gamma(b)))


def theorem_13_check() -> Proof:
    r"""Theorem 13 (HM25): the closed form :math:`L` is :math:`\ln p(0)/p(\Delta)`; at :math:`\beta = 1`, DLap and :math:`L = a\Delta`.

    >>> print(theorem_13_check().detail.splitlines()[0])
    [identity] L = ln p(0) - ln p(Delta) for the GDL pmf's closed form (every beta > 0, Delta > 0)
    """
    proof = Proof()
    L = _pos(L13)
    diff = sp.expand_log(L - (sp.log(_pmf(0)) - sp.log(_pmf(_D))), force=True)
    proof.add("identity", "L = ln p(0) - ln p(Delta) for the GDL pmf's closed form (every beta > 0, Delta > 0)",
              _is_zero(diff))
    dl = sp.hyperexpand(_pmf(3, 1)) - sp.tanh(_A / 2) * sp.exp(-3 * _A)
    proof.add("identity", "beta = 1: p(3) = tanh(a/2) e^{-3a} (DLap; hyperexpand)",
              _is_zero(sp.simplify(dl.rewrite(sp.exp))))
    proof.add("identity", "beta = 1: L = a Delta (Theorem 13's two cases meet)",
              _is_zero(sp.hyperexpand(L.subs(_B, 1)) - _A * _D))
    return proof


def theorem_15_check(constant=None) -> Proof:
    r"""Theorem 15 (HM25): Corollary 14 gives exactly :math:`\varepsilon`, the hypothesis is :math:`\beta < 1`, and the variance bound.

    ``constant``: a replacement of the registry's :math:`e^2/2` (to show a wrong one fails).

    >>> print(theorem_15_check().detail.splitlines()[0])
    [identity] a Delta + ln(Delta/beta) = eps at beta = Delta e^{2-eps}, a = 2/Delta
    """
    proof = Proof()
    st = REGISTRY["hm25-theorem-15"]
    sub = {_pos(k_): _pos(v) for k_, v in st.substitutions.items()}
    cor = sp.expand_log(_pos(COR14).xreplace(sub), force=True)
    proof.add("identity", "a Delta + ln(Delta/beta) = eps at beta = Delta e^{2-eps}, a = 2/Delta",
              _is_zero(cor - _E))
    lb = sp.expand_log(sp.log(sub[_B]).subs(_E, 2 + sp.log(_D) + _U), force=True)
    proof.add("identity", "eps = 2 + ln Delta + u gives ln beta = -u: eps > 2 + ln Delta iff beta < 1",
              _is_zero(lb + _U))
    series = sp.Sum(_X ** (2 * _J) / sp.factorial(2 * _J), (_J, 2, sp.oo))
    proof.add("identity", "cosh x - 1 - x^2/2 = sum_{j >= 2} x^{2j}/(2j)!",
              _is_zero(sp.simplify(series.doit() - (sp.cosh(_X) - 1 - _X**2 / 2))))
    proof.add("proved", "every term x^{2j}/(2j)! >= 0 for x >= 0, so cosh a - 1 >= a^2/2",
              _is_nonneg(series.function))
    var = next(b for b in st.bounds if b.name == "variance")
    rhs = _pos(var.rhs) if constant is None else constant * _D**3 * sp.exp(-_E)
    proof.add("identity", "beta/(a^2/2) at Theorem 15's parameters = the registry's (e^2/2) Delta^3 e^-eps",
              _is_zero(sp.simplify((2 * _B / _A**2).xreplace(sub) - rhs)))
    return proof
