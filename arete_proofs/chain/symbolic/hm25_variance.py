r"""Symbolic checks of the 2025 paper's variance formulas (``hm25-variance-msdlap/algebra``, ``hm25-theorem-21/variance``).

Harrison and Manurangsi (FORC 2025, reconstructed).  The formulas are the registry's
(:mod:`arete_proofs.chain.hm25_records`, :mod:`arete_proofs.chain.hm25_symbols`):

* ``hm25-variance-msdlap/algebra`` -- DLap(a): :math:`\sum_{k\in\mathbb Z} k^2 \tanh(a/2) e^{-a|k|} =
  2\tanh(a/2)\,x(1+x)/(1-x)^3 = 1/(\cosh a - 1)`, :math:`x = e^{-a}` (the series from
  :math:`(x\,d/dx)^2 (1-x)^{-1}`); :math:`\sum_{i \le m} i^2 = S_2(m)` (MSDLap: the scales add
  :math:`i^2 \operatorname{Var} X_i`); GDL: twice NB's :math:`\beta q/(1-q)^2` is :math:`\beta/(\cosh a - 1)`;
  and :math:`e^a/(\cosh a - 1) = 2/(1-e^{-a})^2 > 2`, so :math:`e^a \operatorname{Var}\,\mathrm{MSDLap}`
  decreases to :math:`2 S_2(m)` (Theorem 16's constant).
* ``hm25-theorem-21/variance`` -- :math:`h^2 S_2(m)/(\cosh(\varepsilon-1)-1) + 2b^2` at
  :math:`h = \Delta/m`, :math:`b = \Delta/(2m)` is the registry's formula, and with
  :math:`m \in [e^{\varepsilon/3}, e^{\varepsilon/3} + 1]` (the ceiling) both ends give
  :math:`\operatorname{Var} e^{2\varepsilon/3}/\Delta^2 \to 2e/3 + 1/2 = 2.3122` (each of the two terms is
  monotone in :math:`m`, so the limit is squeezed).

>>> hm25_variances_check().holds, theorem_21_variance_check().holds
(True, True)
>>> theorem_21_variance_check(limit=sp.Rational(231, 100)).holds    # the notes' rounded 2.31 is not the limit
False
"""

from __future__ import annotations

import sympy as sp

from ..gdl_symbols import a_GDL, beta
from ..hm25_symbols import M21, S2, VAR21
from ..symbols import Delta, eps
from ._proof import Proof, _is_zero

__all__ = ["hm25_variances_check", "theorem_21_variance_check"]

_A, _B, _D, _E, _M = sp.symbols("a beta Delta eps m", positive=True)
_X = sp.Symbol("x", positive=True)
_I = sp.Symbol("i", integer=True, positive=True)


def hm25_variances_check() -> Proof:
    r"""DLap's, MSDLap's and GDL's variances, and :math:`e^a/(\cosh a - 1) = 2/(1-e^{-a})^2`.

    >>> print(hm25_variances_check().detail.splitlines()[0])
    [identity] (x d/dx)^2 1/(1 - x) = x (1 + x)/(1 - x)^3 (so sum_{k >= 1} k^2 x^k, |x| < 1)
    """
    proof = Proof()
    geo = 1 / (1 - _X)
    second = _X * sp.diff(_X * sp.diff(geo, _X), _X)
    proof.add("identity", "(x d/dx)^2 1/(1 - x) = x (1 + x)/(1 - x)^3 (so sum_{k >= 1} k^2 x^k, |x| < 1)",
              _is_zero(sp.simplify(second - _X * (1 + _X) / (1 - _X) ** 3)))
    x = sp.exp(-_A)
    dlap = 2 * sp.tanh(_A / 2) * x * (1 + x) / (1 - x) ** 3
    proof.add("identity", "DLap(a): 2 tanh(a/2) x (1 + x)/(1 - x)^3 = 1/(cosh a - 1), x = e^-a",
              _is_zero(sp.simplify((dlap - 1 / (sp.cosh(_A) - 1)).rewrite(sp.exp))))
    proof.add("identity", "sum_{i=1}^m i^2 = m (m + 1)(2m + 1)/6 = S2(m) (MSDLap: Var = sum_i i^2 Var X_i)",
              _is_zero(sp.simplify(sp.summation(_I**2, (_I, 1, _M)) - S2(_M))))
    gdl = 2 * _B * x / (1 - x) ** 2
    proof.add("identity", "GDL: 2 Var NB(beta, 1 - q) = 2 beta q/(1 - q)^2 = beta/(cosh a - 1), q = e^-a",
              _is_zero(sp.simplify((gdl - _B / (sp.cosh(_A) - 1)).rewrite(sp.exp))))
    lim = sp.exp(_A) / (sp.cosh(_A) - 1) - 2 / (1 - sp.exp(-_A)) ** 2
    proof.add("identity", "e^a/(cosh a - 1) = 2/(1 - e^-a)^2 (> 2 for a > 0: e^a Var MSDLap decreases to 2 S2(m))",
              _is_zero(sp.simplify(lim.rewrite(sp.exp))))
    from ..hm25_symbols import m as m_sym
    from ._proof import _bound

    rhs = _bound("hm25-variance-msdlap", "engine").rhs.xreplace({m_sym: _M, a_GDL: _A})
    proof.add("identity", "the registry's S2(m)/(cosh a - 1) = sum_{i <= m} i^2 Var DLap(a)",
              _is_zero(sp.simplify(rhs - sp.summation(_I**2, (_I, 1, _M)) / (sp.cosh(_A) - 1))))
    nb = _bound("hm25-variance-gdl", "nb-form")
    proof.add("identity", "the registry's GDL bound nb-form: both sides equal",
              _is_zero(sp.simplify((nb.lhs - nb.rhs).xreplace({beta: _B, a_GDL: _A}).rewrite(sp.exp))))
    return proof


def theorem_21_variance_check(limit=None) -> Proof:
    r"""Theorem 21's variance: the two parts add up to the registry's formula; its limit is :math:`2e/3 + 1/2`.

    ``limit``: a replacement of :math:`2e/3 + 1/2` (to show a wrong one fails).

    >>> print(theorem_21_variance_check().detail.splitlines()[0])
    [identity] (Delta/m)^2 S2(m)/(cosh(eps - 1) - 1) + 2 (Delta/(2m))^2 = (Delta/m)^2 [S2(m)/(cosh(eps - 1) - 1) + 1/2]
    """
    proof = Proof()
    h, b = _D / _M, _D / (2 * _M)
    parts = h**2 * S2(_M) / (sp.cosh(_E - 1) - 1) + 2 * b**2
    formula = VAR21.xreplace({M21: _M}).xreplace({Delta: _D, eps: _E})
    proof.add("identity", "(Delta/m)^2 S2(m)/(cosh(eps - 1) - 1) + 2 (Delta/(2m))^2 = (Delta/m)^2 [S2(m)/(cosh(eps - 1) - 1) "
              "+ 1/2]", _is_zero(sp.simplify(parts - formula)))
    target = 2 * sp.E / 3 + sp.Rational(1, 2) if limit is None else limit
    for c in (0, 1):
        mm = sp.exp(_E / 3) + c
        ratio = formula.xreplace({_M: mm}) * sp.exp(2 * _E / 3) / _D**2
        val = sp.limit(sp.simplify(ratio.rewrite(sp.exp)), _E, sp.oo)
        proof.add("identity", f"m = e^(eps/3) + {c}: Var e^(2eps/3)/Delta^2 -> 2e/3 + 1/2 = 2.3122 as eps -> oo",
                  _is_zero(sp.simplify(val - target)))
    proof.premise("e^(eps/3) <= ceil(e^(eps/3)) <= e^(eps/3) + 1, S2(m)/m^2 increasing and 1/m^2 decreasing in m: "
                  "the ceiling's ratio is squeezed between the two ends' (same limit)")
    return proof
