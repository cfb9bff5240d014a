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

================================  ================================================
``lemma-2/symmetry``              Cor. 13: the characteristic function is real and even
``lemma-3/moments``               Section 4.3: E|Z| and Var Z of Lemma 3
``lemma-28/maximiser``            Lemma 28: t*, concavity of ln g, kappa >= t*
``lemma-18/step``                 C.3: Lemmas 16 and 17 imply Lemma 18
``note-2/bernoulli``              Note 2: (1 + x)^alpha <= 1 + alpha x
``note-2/gamma``                  Note 2: Euler's product gives Gamma(alpha) <= 1/alpha
``lemma-19/algebra``              C.4: (8), (9) and the exponent with k_alpha, k_theta, k_lambda
``lemma-19/threshold``            C.4 (10): eps >= 20 + 4 ln Delta
``lemma-19/assumptions``          C.4 (9) for the paper's parameters
``lemma-27/normalisation``        Lemma 27: a(gamma) normalises the Staircase density
``lemma-3-mean-abs/algebra``      Lemma 3 with rates, E|Z|: (8) at theta = Delta
``lemma-3-variance/algebra``      Lemma 3 with rates, Var Z: (8) at theta = Delta
``hm25-theorem-13/pmf-ratio``     HM25 Theorem 13: L = ln p(0)/p(Delta); beta = 1 gives a Delta
``hm25-theorem-15/algebra``       HM25 Theorem 15: Corollary 14 gives eps; beta < 1; Var bound
``hm25-variance-msdlap/algebra``  HM25 variances: DLap, MSDLap S2(m), GDL; e^a Var's limit
``hm25-theorem-21/variance``      HM25 Theorem 21: the variance's parts and its limit 2e/3 + 1/2
================================  ================================================

The modules, by concern (everything listed in ``__all__`` is re-exported here):

* ``_proof`` -- :class:`Proof`, :class:`Step`,
  :class:`SymbolicCheck`, :class:`SymbolicResult` and the sympy helpers;
* ``distribution`` -- Lemma 2's symmetry and
  Lemma 3's moments;
* ``ratio_bound`` -- Lemma 28's maximiser and
  the step from Lemmas 16 and 17 to Lemma 18;
* ``note_2`` -- Note 2 (Bernoulli, Gamma);
* ``lemma_19`` -- Lemma 19's algebra,
  threshold and assumptions;
* ``staircase`` -- Lemma 27's normalisation;
* ``rates`` -- Lemma 3 with rates (the algebra replacing Lemma 19's (8)-(10), ball certificate);
* ``hm25`` -- the 2025 paper's GDL algebra (Theorems 13 and 15, Harrison & Manurangsi);
* ``hm25_variance`` -- its variance formulas (GDL, MSDLap, Theorem 21's limit);
* ``table`` -- ``CHECKS`` and :func:`run`.

>>> import sympy as sp
>>> from arete_proofs.chain import registry
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

from ._proof import Proof, Step, SymbolicCheck, SymbolicResult, log_derivative
from .distribution import arete_characteristic_function, moments_check, symmetry_check
from .lemma_19 import algebra_check, assumptions_check, threshold_check
from .note_2 import bernoulli_check, gamma_check
from .ratio_bound import lemma18_step_check, maximiser_check
from .rates import ball_certificate, exp_upper_rational, mean_abs_check, rule_check, variance_check
from .staircase import normalisation_check, staircase_a
from .table import CHECKS, run

__all__ = [
    "SymbolicResult", "SymbolicCheck", "Proof", "Step", "CHECKS", "run",
    "log_derivative", "arete_characteristic_function",
    "symmetry_check", "moments_check", "maximiser_check", "lemma18_step_check",
    "bernoulli_check", "gamma_check", "algebra_check", "threshold_check",
    "assumptions_check", "normalisation_check", "staircase_a",
    "rule_check", "mean_abs_check", "variance_check", "exp_upper_rational", "ball_certificate",
]
