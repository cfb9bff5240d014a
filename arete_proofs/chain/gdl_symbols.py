r"""The vocabulary of the 2025 paper's GDL records: symbols and engine-backed functions.

Harrison and Manurangsi (FORC 2025) write :math:`\mathrm{GDL}(\beta, a)` for
:math:`N_1 - N_2`, :math:`N_i` iid :math:`\mathrm{NB}(\beta, 1 - e^{-a})`, on the integers
(:mod:`arete_proofs.distributions.gdl`).  Their statements become records of
:mod:`arete_proofs.chain.registry` (ids ``hm25-...``) written with the objects here, next to
the 2022 paper's vocabulary (:mod:`arete_proofs.chain.symbols`):

* symbols ``beta``, ``beta_2`` (a second shape), ``a_GDL`` (the paper's :math:`a`; the
  registry's ``a`` is already the shift of the 2022 paper) and the integer point ``k``;
  ``Delta`` and ``eps`` are the registry's;
* unevaluated functions, evaluated by the library at the digits of
  :class:`~arete_proofs.chain.symbols.working_digits`:

==============================  ===============================================================
function                        meaning
==============================  ===============================================================
``f_GDL(k, beta, a)``           the pmf :math:`p(k)`, hypergeometric closed form (``gdl.pmf``)
``f_NB(k, beta, a)``            the pmf as the NB convolution :math:`\sum_j P(N_1=|k|+j)P(N_2=j)`
                                (the definition; no code shared with the closed form)
``conv_GDL(k, b1, b2, a)``      :math:`\sum_j p_{\beta_1}(j)\,p_{\beta_2}(k-j)` (closure under summation)
``tight_eps_GDL(beta, a, D)``   tight :math:`\varepsilon^*` (:func:`arete_proofs.privacy.tight_gdl.tight_epsilon`)
``max_loss_GDL(beta, a, D)``    :math:`\max L_s(k)` over **every** shift :math:`1 \le |s| \le \Delta`
                                and :math:`|k| \le 3\Delta + 10` (brute force, no reduction used)
``loss_GDL(k, s, beta, a)``     :math:`L_s(k) = \ln p(k) - \ln p(k+s)`
``delta_GDL(beta, a, D, eps)``  the exact hockey-stick :math:`\delta(\varepsilon)`
                                (:func:`arete_proofs.privacy.accounting_discrete.hockey_stick`)
==============================  ===============================================================

Theorem 13's closed form needs no engine: :data:`L13` is a sympy expression with
``sympy.hyper`` (mpmath's ``hyper`` evaluates it).  Importing this module registers the
functions in the namespace of :func:`arete_proofs.chain.symbols.numeric`.

>>> from mpmath import mp
>>> from arete_proofs.chain.symbols import numeric, working_digits
>>> g = numeric([beta, a_GDL, Delta], L13 - sp.log(f_GDL(0, beta, a_GDL) / f_GDL(Delta, beta, a_GDL)))
>>> with working_digits(30):
...     abs(g(mp.mpf("0.5"), mp.mpf("0.7"), mp.mpf(3))) < mp.mpf(10) ** -28   # L13 = ln p(0)/p(Delta)
True
"""

from __future__ import annotations

import sympy as sp
from mpmath import mp

from . import symbols as _S
from .symbols import Delta, _memo, _PaperFunction, numeric, working_digits  # noqa: F401 (doctests)

__all__ = ["beta", "beta_2", "a_GDL", "k", "f_GDL", "f_NB", "conv_GDL", "tight_eps_GDL", "max_loss_GDL",
           "loss_GDL", "delta_GDL", "L13", "COR14", "K_FAR", "NAMES"]

beta = sp.Symbol("beta", real=True)
beta_2 = sp.Symbol("beta_2", real=True)
a_GDL = sp.Symbol("a_GDL", real=True)
k = sp.Symbol("k", real=True)

_S._SYMBOL_NAMES.update({beta: r"\beta", beta_2: r"\beta_2", a_GDL: "a"})

#: The far point of Theorem 13's tail check for beta > 1, where L_Delta(K_FAR) is within 2 beta Delta / K_FAR of a Delta.
K_FAR = 10**6


class f_GDL(_PaperFunction):
    r"""The GDL pmf :math:`p(k)`, args ``(k, beta, a)`` (Harrison & Manurangsi 2025, Section 4).

    >>> from mpmath import mp
    >>> g = numeric([a_GDL], f_GDL(2, 1, a_GDL) - sp.tanh(a_GDL / 2) * sp.exp(-2 * a_GDL))   # beta = 1: DLap
    >>> with working_digits(30):
    ...     abs(g(mp.mpf("0.7"))) < mp.mpf(10) ** -29
    True
    """

    nargs = 3
    _name = r"p_{\mathrm{GDL}}"


class f_NB(_PaperFunction):
    r"""The GDL pmf as the NB convolution :math:`\sum_j P(N_1 = |k|+j) P(N_2 = j)` (its definition), args ``(k, beta, a)``.

    >>> from mpmath import mp
    >>> g = numeric([beta], f_NB(3, beta, 1) / f_GDL(3, beta, 1))       # the definition = the 2F1 closed form
    >>> with working_digits(30):
    ...     mp.almosteq(g(mp.mpf("0.3")), 1, 1e-28)
    True
    """

    nargs = 3
    _name = r"p_{\mathrm{NB}-\mathrm{NB}}"


class conv_GDL(_PaperFunction):
    r""":math:`(p_{\beta_1} * p_{\beta_2})(k)`, args ``(k, beta_1, beta_2, a)``.

    >>> from mpmath import mp
    >>> g = numeric([k], conv_GDL(k, sp.Rational(1, 2), sp.Rational(1, 2), 1) / f_GDL(k, 1, 1))  # GDL(1/2)^{*2} = DLap
    >>> with working_digits(25):
    ...     mp.almosteq(g(mp.mpf(2)), 1, 1e-23)
    True
    """

    nargs = 4
    _name = r"(p_{\beta_1} * p_{\beta_2})"


class tight_eps_GDL(_PaperFunction):
    r"""Tight :math:`\varepsilon^*` of GDL at integer sensitivity, args ``(beta, a, Delta)`` (Theorem 13).

    >>> from mpmath import mp
    >>> g = numeric([beta], tight_eps_GDL(beta, 1, 3))
    >>> with working_digits(20):
    ...     g(mp.mpf(2)) == 3, g(mp.mpf("0.5")) > 3          # beta >= 1: a Delta; beta < 1: above it
    (True, True)
    """

    nargs = 3
    _shown = 0
    _name = r"\varepsilon^*_{\mathrm{GDL}}"


class max_loss_GDL(_PaperFunction):
    r""":math:`\max_{1\le|s|\le\Delta,\ |k|\le 3\Delta+10} L_s(k)`, args ``(beta, a, Delta)`` (Theorem 13, brute force).

    >>> from mpmath import mp
    >>> g = numeric([beta], max_loss_GDL(beta, 1, 2) - tight_eps_GDL(beta, 1, 2))
    >>> with working_digits(20):
    ...     abs(g(mp.mpf("0.4"))) < mp.mpf(10) ** -19, g(mp.mpf(3)) < 0   # attained for beta < 1; tail limit for beta > 1
    (True, True)
    """

    nargs = 3
    _shown = 0
    _name = r"\max_{|s| \le \Delta, |k| \le 3\Delta+10} L_s(k)"


class loss_GDL(_PaperFunction):
    r""":math:`L_s(k) = \ln p(k) - \ln p(k+s)`, args ``(k, s, beta, a)`` (Theorem 13).

    >>> from mpmath import mp
    >>> g = numeric([k], loss_GDL(k, 1, 1, sp.Rational(7, 10)))       # DLap: L_1(k) = a for k >= 0
    >>> with working_digits(20):
    ...     mp.almosteq(g(mp.mpf(5)), mp.mpf("0.7"))
    True
    """

    nargs = 4
    _shown = 2
    _name = r"L"


class delta_GDL(_PaperFunction):
    r"""Exact :math:`\delta(\varepsilon)` of GDL at integer sensitivity, args ``(beta, a, Delta, eps)`` (Theorem 13's direction).

    >>> from mpmath import mp
    >>> g = numeric([_S.eps], delta_GDL(1, 1, 1, _S.eps))        # DLap(1): delta(eps) = P(X >= 0)(1 - e^{eps - 1})
    >>> with working_digits(20):
    ...     mp.almosteq(g(mp.mpf("0.5")), (1 - mp.exp(mp.mpf("-0.5"))) / (1 + mp.exp(-1))), g(mp.mpf(1)) == 0
    (True, True)
    """

    nargs = 4
    _shown = 0
    _name = r"\delta_{\mathrm{GDL}}"


def _int(x, name):
    v = int(mp.nint(x))
    if v != x:
        raise ValueError(f"{name} must be an integer, got {x}")
    return v


def _pmf(kk, b, a, digits):
    from ..distributions import gdl

    return gdl.pmf(_int(kk, "k"), b, a, digits=digits)


def _nb_pmf(kk, b, a, digits):
    """sum_j nb(|k| + j) nb(j), nb by its ratio recurrence, until the terms are below 10^-(digits+15) of the sum."""
    n = abs(_int(kk, "k"))
    with mp.workdps(digits + 20):
        b, a = mp.mpf(b), mp.mpf(a)
        q = mp.exp(-a)
        nb = (1 - q) ** b
        for i in range(n):
            nb *= q * (i + b) / (i + 1)
        nb0, total, j = (1 - q) ** b, mp.zero, 0
        tol = mp.mpf(10) ** (-digits - 15)
        while True:
            term = nb * nb0
            total += term
            # the ratio of consecutive terms is q^2 (n+j+b)(j+b)/((n+j+1)(j+1)), below 1 from some j on
            r = q * q * (n + j + b) * (j + b) / ((n + j + 1) * (j + 1))
            if r < 1 and term * r / (1 - r) <= tol * total:
                return total
            nb *= q * (n + j + b) / (n + j + 1)
            nb0 *= q * (j + b) / (j + 1)
            j += 1


def _conv(kk, b1, b2, a, digits):
    """sum_{|j| <= J} p_{b1}(j) p_{b2}(k - j) with J where both tails are below 10^-(digits+8)."""
    from ..distributions import gdl

    kk = _int(kk, "k")
    with mp.workdps(digits + 15):
        J = 8
        while gdl.sf(J, b1, a, digits=6) + gdl.sf(J, b2, a, digits=6) > mp.mpf(10) ** (-digits - 8):
            J *= 2
        p1 = gdl.pmf_range(J + abs(kk), b1, a, digits=digits + 10)
        p2 = gdl.pmf_range(J + abs(kk) + J, b2, a, digits=digits + 10)
        return mp.fsum(p1[abs(j)] * p2[abs(kk - j)] for j in range(-J, J + 1))


def _tight(b, a, D, digits):
    from ..privacy import tight_gdl

    return tight_gdl.tight_epsilon(b, a, _int(D, "Delta"), digits=digits).epsilon


def _max_loss(b, a, D, digits):
    from ..privacy import tight_gdl

    D = _int(D, "Delta")
    return tight_gdl.brute_force(b, a, D, 3 * D + 10, digits=digits)[0]


def _loss(kk, s, b, a, digits):
    from ..privacy import tight_gdl

    return tight_gdl.loss(_int(kk, "k"), _int(s, "s"), b, a, digits=digits)


def _delta(b, a, D, e, digits):
    from ..privacy import accounting_discrete

    # full digits: where only k = 0 has a loss above eps, delta equals the record's lower bound exactly
    return accounting_discrete.hockey_stick(accounting_discrete.GDLLaw(b, a), _int(D, "Delta"), e, digits=digits)


_S._NAMESPACE.update({
    "f_GDL": _memo("f_GDL", _pmf),
    "f_NB": _memo("f_NB", _nb_pmf),
    "conv_GDL": _memo("conv_GDL", _conv),
    "tight_eps_GDL": _memo("tight_eps_GDL", _tight),
    "max_loss_GDL": _memo("max_loss_GDL", _max_loss),
    "loss_GDL": _memo("loss_GDL", _loss),
    "delta_GDL": _memo("delta_GDL", _delta),
})

_Q2 = sp.exp(-2 * a_GDL)
#: Theorem 13's closed form a Delta + ln[2F1(b,b;1;q^2)/2F1(b,b+Delta;1+Delta;q^2) Gamma(Delta+1)Gamma(b)/Gamma(b+Delta)].
L13 = a_GDL * Delta + sp.log(sp.hyper((beta, beta), (1,), _Q2) / sp.hyper((beta, beta + Delta), (1 + Delta,), _Q2)
                             * sp.gamma(Delta + 1) * sp.gamma(beta) / sp.gamma(beta + Delta))
#: Corollary 14's bound a Delta + ln(Delta/beta).
COR14 = a_GDL * Delta + sp.log(Delta / beta)

#: name -> object, for the records and the docs.
NAMES = {x.__name__ if isinstance(x, type) else x.name: x for x in
         (beta, beta_2, a_GDL, k, f_GDL, f_NB, conv_GDL, tight_eps_GDL, max_loss_GDL, loss_GDL, delta_GDL)}
