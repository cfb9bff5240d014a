r"""The vocabulary of the 2025 paper's MSDLap, Theorem 18, Theorem 21 and variance records.

Harrison and Manurangsi (FORC 2025; arXiv:2504.05202; statements reconstructed, not from the full text) write
:math:`\mathrm{MSDLap}(a, m) = \sum_{i=1}^m i X_i`, :math:`X_i` iid :math:`\mathrm{DLap}(a)`
(:mod:`arete_proofs.distributions.comb`), Theorem 18's
:math:`r\,\mathrm{MSDLap}(\varepsilon-1, \lfloor\Delta/r\rfloor) + \mathrm{DLap}(1/r)` and Theorem
21's :math:`(\Delta/m)\,\mathrm{MSDLap}(\varepsilon-1, m) + \mathrm{Laplace}(\Delta/(2m))`,
:math:`m = \lceil e^{\varepsilon/3}\rceil` (:mod:`arete_proofs.distributions.lattice`).  Beside
:mod:`arete_proofs.chain.gdl_symbols` (``beta``, ``a_GDL``, the GDL functions) this module holds
the symbols ``m`` (the number of scales) and ``r_18`` (Theorem 18's :math:`r`), the Theorem 21
expressions :data:`M21` and :data:`VAR21`, and these unevaluated functions, evaluated by the
exact engines at the digits of :class:`~arete_proofs.chain.symbols.working_digits`:

==================================  ==============================================================
function                            meaning (engine)
==================================  ==============================================================
``tight_eps_MS(a, m, D)``           tight :math:`\varepsilon^*` of MSDLap(a, m) at integer :math:`\Delta`
                                    over every shift (:func:`~arete_proofs.privacy.tight_discrete.tight_epsilon_msdlap`)
``window_max_MS(a, m, D)``          its loss maximum :math:`W` on a finite window :math:`0 \le k \le K_0`
                                    (:func:`~arete_proofs.privacy.tight_discrete.window_maximum`; below the tail limit)
``tight_eps_T18(eps, D, r)``        tight :math:`\varepsilon^*` of Theorem 18's noise
                                    (:func:`~arete_proofs.privacy.tight_discrete.tight_epsilon_theorem18`)
``tight_eps_LL(a, m, b, h, D)``     tight :math:`\varepsilon^*` of :math:`h\,\mathrm{MSDLap}(a,m) + \mathrm{Laplace}(b)`
                                    over every real shift (:func:`~arete_proofs.privacy.tight_lattice.tight_epsilon_lattice_laplace`)
``var_MS(a, m)``                    :math:`\operatorname{Var}` by the engine (``comb.msdlap_var``)
``m2_MS(a, m)``                     :math:`\sum_k k^2 p_k` over the exact pmf (``comb.comb_pmf``; no variance formula)
``var_GDL(beta, a)``                GDL's variance by the engine (``gdl.var``)
``m2_GDL(beta, a)``                 :math:`\sum_k k^2 p_k` over GDL's pmf (``gdl.pmf_range``)
``var_LL(a, m, b, h)``              the lattice law's variance (``lattice.lattice_laplace(...).var()``)
==================================  ==============================================================

The engines are refused (``ValueError``, so a grid point or a search evaluation fails
cleanly) beyond :data:`MAX_SCALES` scales (:data:`MAX_LATTICE_SCALES` for Theorem 21's lattice) and
a window of :data:`MAX_WINDOW` points: the combs' cost grows with both.

>>> from mpmath import mp
>>> from arete_proofs.chain.symbols import numeric, working_digits
>>> g = numeric([a_GDL], m2_MS(a_GDL, 3) - 14 / (sp.cosh(a_GDL) - 1))     # S2(3) = 14
>>> with working_digits(20):
...     abs(g(mp.mpf(2))) < mp.mpf(10) ** -18
True
"""

from __future__ import annotations

import sympy as sp
from mpmath import mp

from . import symbols as _S
from .gdl_symbols import a_GDL, beta
from .symbols import Delta, _memo, _PaperFunction, eps

__all__ = ["m", "r_18", "tight_eps_MS", "window_max_MS", "tight_eps_T18", "tight_eps_LL", "var_MS", "m2_MS",
           "var_GDL", "m2_GDL", "var_LL", "S2", "M21", "VAR21", "T21_ARGS", "MAX_SCALES", "MAX_LATTICE_SCALES",
           "MAX_WINDOW", "MAX_DELTA_18", "NAMES"]

m = sp.Symbol("m", real=True)
r_18 = sp.Symbol("r_18", real=True)
_S._SYMBOL_NAMES.update({m: "m", r_18: "r"})

#: The largest number of scales (comb components) the engines are called with here.
MAX_SCALES = 60
#: The largest number of lattice scales of Theorem 21's noise evaluated here (m = 29 at eps = 10 takes a minute).
MAX_LATTICE_SCALES = 30
#: The largest window of the discrete engines here; a slowly decaying tail needs more and is refused, not waited for.
MAX_WINDOW = 10_000
#: The largest Delta of Theorem 18's noise evaluated here (its poles number about Delta floor(Delta/r)/2).
MAX_DELTA_18 = 100


class tight_eps_MS(_PaperFunction):
    r"""Tight :math:`\varepsilon^*` of MSDLap(a, m) at integer sensitivity, args ``(a, m, Delta)`` (Theorem 16).

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([a_GDL], tight_eps_MS(a_GDL, 3, 3))
    >>> with working_digits(15):
    ...     abs(g(mp.mpf(2)) - 2) < 1e-14                   # Theorem 16: eps* = a at Delta = m
    True
    """

    nargs = 3
    _shown = 0
    _name = r"\varepsilon^*_{\mathrm{MSDLap}}"


class window_max_MS(_PaperFunction):
    r"""The loss maximum :math:`W` of MSDLap(a, m) on the finite window :math:`0 \le k \le K_0`, args ``(a, m, Delta)``.

    :math:`W = \max_{0 \le k \le K_0} [\ln p_k - \min_{|j-k| \le \Delta} \ln p_j]`
    (:func:`~arete_proofs.privacy.tight_discrete.window_maximum`), :math:`K_0 = \Delta + \lceil 4m(m-1)/a \rceil`
    (``_window_ms_K``).  It is computed even where the coupling-bound shortcut proves
    :math:`\varepsilon^*` without a window.  Theorem 16 (:math:`\Delta = m \ge 2`): :math:`W < a`, the tail
    limit, with a gap far above the working precision (the supremum is not attained on the window).

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([a_GDL], window_max_MS(a_GDL, 3, 3))
    >>> with working_digits(15):
    ...     0 < 2 - g(mp.mpf(2)) < 0.01                     # strictly below the tail limit a = 2
    True
    """

    nargs = 3
    _shown = 0
    _name = r"W_{\mathrm{MSDLap}}"


class tight_eps_T18(_PaperFunction):
    r"""Tight :math:`\varepsilon^*` of Theorem 18's noise, args ``(eps, Delta, r)``.

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([eps], tight_eps_T18(eps, 4, 2))
    >>> with working_digits(15):
    ...     g(mp.mpf("4.5")) <= mp.mpf("4.5")               # Theorem 18: eps-DP
    True
    """

    nargs = 3
    _shown = 0
    _name = r"\varepsilon^*_{18}"


class tight_eps_LL(_PaperFunction):
    r"""Tight :math:`\varepsilon^*` of :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)`, args ``(a, m, b, h, Delta)`` (Theorem 21).

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([eps], tight_eps_LL(eps - 1, 2, sp.Rational(1, 4), sp.Rational(1, 2), 1))
    >>> with working_digits(12):
    ...     g(mp.mpf(2)) < 2                                # Theorem 21 at eps = 2: private with room
    True
    """

    nargs = 5
    _shown = 0
    _name = r"\varepsilon^*_{21}"


class var_MS(_PaperFunction):
    r""":math:`\operatorname{Var}\,\mathrm{MSDLap}(a, m)` by the engine, args ``(a, m)``.

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([a_GDL], var_MS(a_GDL, 1) - 1 / (sp.cosh(a_GDL) - 1))   # m = 1: DLap
    >>> with working_digits(20):
    ...     abs(g(mp.mpf(1))) < 1e-18
    True
    """

    nargs = 2
    _shown = 0
    _name = r"\operatorname{Var}_{\mathrm{MSDLap}}"


class m2_MS(_PaperFunction):
    r""":math:`\sum_k k^2 p_k` of MSDLap(a, m) over the exact pmf (no variance formula used), args ``(a, m)``.

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([a_GDL], m2_MS(a_GDL, 2) / var_MS(a_GDL, 2))
    >>> with working_digits(20):
    ...     mp.almosteq(g(mp.mpf("1.5")), 1, 1e-18)
    True
    """

    nargs = 2
    _shown = 0
    _name = r"\textstyle\sum_k k^2 p_k"


class var_GDL(_PaperFunction):
    r"""GDL's variance :math:`\beta/(\cosh a - 1)` by the engine, args ``(beta, a)``.

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([beta], var_GDL(beta, 1) * (sp.cosh(1) - 1))
    >>> with working_digits(20):
    ...     mp.almosteq(g(mp.mpf("0.3")), mp.mpf("0.3"))
    True
    """

    nargs = 2
    _shown = 0
    _name = r"\operatorname{Var}_{\mathrm{GDL}}"


class m2_GDL(_PaperFunction):
    r""":math:`\sum_k k^2 p_k` of GDL(beta, a) over its pmf (no variance formula used), args ``(beta, a)``.

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([beta], m2_GDL(beta, 1) / var_GDL(beta, 1))
    >>> with working_digits(20):
    ...     mp.almosteq(g(mp.mpf("0.5")), 1, 1e-17)
    True
    """

    nargs = 2
    _shown = 0
    _name = r"\textstyle\sum_k k^2 p_k^{\mathrm{GDL}}"


class var_LL(_PaperFunction):
    r"""Variance of :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)` by the engine, args ``(a, m, b, h)``.

    >>> from mpmath import mp
    >>> from arete_proofs.chain.symbols import numeric, working_digits
    >>> g = numeric([a_GDL], var_LL(a_GDL, 1, sp.Rational(1, 4), 1) - 1 / (sp.cosh(a_GDL) - 1) - sp.Rational(1, 8))
    >>> with working_digits(20):
    ...     abs(g(mp.mpf(2))) < 1e-18
    True
    """

    nargs = 4
    _shown = 0
    _name = r"\operatorname{Var}_{21}"


def _int(x, name, lo=1, hi=None):
    v = int(mp.nint(x))
    if v != x or v < lo:
        raise ValueError(f"{name} must be an integer >= {lo}, got {x}")
    if hi is not None and v > hi:
        raise ValueError(f"{name} = {v} exceeds {hi} (the cost of the comb grows with it)")
    return v


def _str(x):
    """An exact-enough decimal string of an mpf argument (the comb engines key their caches on strings)."""
    x = mp.mpf(x)
    if x == int(x):
        return str(int(x))
    return mp.nstr(x, mp.dps + 5, strip_zeros=True)


def _tight_ms(a, mm, D, digits):
    from ..privacy import tight_discrete

    return tight_discrete.tight_epsilon_msdlap(_str(a), _int(mm, "m", hi=MAX_SCALES), _int(D, "Delta"),
                                               digits=digits, max_window=MAX_WINDOW).epsilon


def _window_ms_K(a, m, D):
    r"""The finite window :math:`K_0 = D + \lceil 4 m (m - 1)/a \rceil` of :class:`window_max_MS`.

    MSDLap(a, m)'s scaled pmf approaches its periodic tail profile like the subdominant poles,
    :math:`e^{-a k/(m(m-1))}` (scale :math:`m - 1` against :math:`m`), so on :math:`k \le K_0` that
    correction has fallen by about :math:`e^{-4}`: the window is long enough to reach the tail and short
    enough that the gap :math:`a - W` stays far above the working precision.

    >>> _window_ms_K(1, 3, 3), _window_ms_K(2, 1, 1)
    (27, 1)
    """
    a, m, D = mp.mpf(a), int(m), int(D)
    return D + (int(mp.ceil(4 * m * (m - 1) / a)) if m > 1 else 0)


def _window_ms(a, mm, D, digits):
    from ..distributions.comb import msdlap_components
    from ..privacy import tight_discrete

    mm, D = _int(mm, "m", hi=MAX_SCALES), _int(D, "Delta")
    K = _window_ms_K(a, mm, D)
    if K > MAX_WINDOW:
        raise ValueError(f"the window K = {K} exceeds {MAX_WINDOW} (the cost of the comb grows with it)")
    # computed even where the coupling-bound shortcut gives eps* without any window (Theorem 16)
    return tight_discrete.window_maximum(*msdlap_components(_str(a), mm), D, K, digits=digits)[0]


def _tight_18(e, D, r, digits):
    from ..privacy import tight_discrete

    D = _int(D, "Delta", hi=MAX_DELTA_18)
    r = _int(r, "r", hi=D)
    if D // r > MAX_SCALES:
        raise ValueError(f"floor(Delta/r) = {D // r} exceeds {MAX_SCALES}")
    return tight_discrete.tight_epsilon_theorem18(_str(e), D, r, digits=digits, max_window=MAX_WINDOW).epsilon


def _tight_ll(a, mm, b, h, D, digits):
    from ..privacy import tight_lattice

    return tight_lattice.tight_epsilon_lattice_laplace(_str(a), _int(mm, "m", hi=MAX_LATTICE_SCALES), _str(b), _str(h),
                                                       _str(D), digits=digits).epsilon


def _var_ms(a, mm, digits):
    from ..distributions import comb

    return comb.msdlap_var(_str(a), _int(mm, "m", hi=10**4), digits=digits)


def _m2_ms(a, mm, digits):
    r""":math:`2\sum_{k \ge 1} k^2 p_k`, stopped where :math:`C_{\max} k^2 e^{-\lambda k}/(1 - e^{-\lambda})^3` (a bound on the rest) is below :math:`10^{-(d+10)}` of the sum."""
    from ..distributions import comb

    w, r = comb.msdlap_components(_str(a), _int(mm, "m", hi=MAX_SCALES))
    C = comb.tail_constants(w, r, digits=digits + 5)
    _, _, lam = comb.dominant(w, r, digits=digits + 5)
    with mp.workdps(digits + 15):
        cmax, x = max(C), mp.exp(-lam)
        tol = mp.mpf(10) ** (-digits - 10)
        total, k = mp.zero, 1
        while True:
            total += 2 * k * k * comb.comb_pmf(k, w, r, digits=digits + 10)
            k += 1
            if k > MAX_WINDOW:
                raise ValueError(f"the second moment needs more than {MAX_WINDOW} terms at these parameters")
            if k > 10 and 2 * cmax * (k * k + 2 * k + 2) * x ** k / (1 - x) ** 3 < tol * total:
                return total


def _var_gdl(b, a, digits):
    from ..distributions import gdl

    return gdl.var(b, a, digits=digits)


def _m2_gdl(b, a, digits):
    r""":math:`2\sum_{k\ge1} k^2 p_k` by ``gdl.pmf_range``, doubling the range until the last block adds below :math:`10^{-(d+10)}` of the sum."""
    from ..distributions import gdl

    with mp.workdps(digits + 15):
        K, prev = 64, None
        while True:
            p = gdl.pmf_range(K, b, a, digits=digits + 10)
            total = 2 * mp.fsum(k * k * p[k] for k in range(1, K + 1))
            if prev is not None and abs(total - prev) < mp.mpf(10) ** (-digits - 10) * total:
                return total
            prev, K = total, 2 * K
            if K > MAX_WINDOW:
                raise ValueError(f"GDL's second moment needs more than {MAX_WINDOW} terms at these parameters")


def _var_ll(a, mm, b, h, digits):
    from ..distributions import lattice

    return lattice.lattice_laplace(_str(a), _int(mm, "m", hi=10**4), _str(b), _str(h), digits=digits).var()


_S._NAMESPACE.update({
    "tight_eps_MS": _memo("tight_eps_MS", _tight_ms),
    "window_max_MS": _memo("window_max_MS", _window_ms),
    "tight_eps_T18": _memo("tight_eps_T18", _tight_18),
    "tight_eps_LL": _memo("tight_eps_LL", _tight_ll),
    "var_MS": _memo("var_MS", _var_ms),
    "m2_MS": _memo("m2_MS", _m2_ms),
    "var_GDL": _memo("var_GDL", _var_gdl),
    "m2_GDL": _memo("m2_GDL", _m2_gdl),
    "var_LL": _memo("var_LL", _var_ll),
})


def S2(x):
    r""":math:`S_2(x) = x(x+1)(2x+1)/6 = \sum_{i \le x} i^2` (the variance's sum of squared scales, Theorem 16).

    >>> S2(sp.Integer(3))
    14
    """
    return x * (x + 1) * (2 * x + 1) / 6


#: Theorem 21's number of scales m = ceil(e^{eps/3}).
M21 = sp.ceiling(sp.exp(eps / 3))
#: Theorem 21's noise as the arguments a, m, b, h of tight_eps_LL and var_LL, namely eps - 1, m, Delta/(2m), Delta/m.
T21_ARGS = (eps - 1, M21, Delta / (2 * M21), Delta / M21)
#: Theorem 21's variance formula (Delta/m)^2 [S2(m)/(cosh(eps - 1) - 1) + 1/2].
VAR21 = (Delta / M21) ** 2 * (S2(M21) / (sp.cosh(eps - 1) - 1) + sp.Rational(1, 2))

#: name -> object, for the records, the variant parser and the docs.
NAMES = {x.__name__ if isinstance(x, type) else x.name: x for x in
         (m, r_18, tight_eps_MS, window_max_MS, tight_eps_T18, tight_eps_LL, var_MS, m2_MS, var_GDL, m2_GDL,
          var_LL)}
