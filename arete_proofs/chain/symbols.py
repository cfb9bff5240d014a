r"""The paper's symbols and densities as sympy objects (the vocabulary of the registry).

Every statement in :mod:`arete_proofs.chain.registry` is written with the objects of
this module, so that one expression drives the numeric grid checks
(:func:`numeric`), the symbolic checks (:func:`explicit`) and the docs
(:func:`latex`).

Symbols carry the paper's names: ``alpha``, ``theta``, ``lam`` (:math:`\lambda`),
``Delta``, ``D_Gamma`` (:math:`D_\Gamma`), ``D_u`` (:math:`D_u`), ``eps``
(:math:`\varepsilon`), ``kappa``, the point ``t``, the shift ``a``, the step ``h``,
the Euler-product index ``n`` and the Staircase parameter ``gamma_sc``
(:math:`\gamma`).  They are declared real only: a hypothesis such as
``alpha > 0`` must stay a visible relational, not be simplified away by an
assumption.

Densities and constants are unevaluated sympy functions that print as in the
paper (:math:`f_\Gamma(x)`, :math:`c_{D_\Gamma}`, ...):

========================  =========================================================
function                  meaning (paper)
========================  =========================================================
``f_Gamma(x, a, th)``     :math:`f_\Gamma(x)`, Gamma density (Def. 22)
``f_L(x, lam)``           :math:`f_L(x)`, Laplace density (Def. 23)
``f_GG(x, a, th)``        :math:`f_{\Gamma-\Gamma}(x)` (Def. 7), Bessel-K engine
``f_A(x, a, th, lam)``    :math:`f_A(x)` (Def. 9), the density engine
``f_SC(x, g, D, eps)``    Staircase density (Lemma 27)
``c_DGam(D, a, th)``      :math:`c_{D_\Gamma} = P(X \le D_\Gamma)` (Lemma 14)
``c_Du(D, a, th)``        :math:`c_{D_u} = 2 P(X \le D_u)` (Lemma 16)
``near_mass(...)``        :math:`\int_{t-D_u}^{t+D_u} f_\Gamma(|t-x|) f_L(x)\,dx` (Claim 1)
``shifted_conv(...)``     :math:`\int f_\Gamma(D_\Gamma + |s-x|) f_L(x)\,dx` (Claim 1)
``mean_abs_A(...)``       exact :math:`E|Z|` (Lemma 3)
``var_A_cf(...)``         :math:`\operatorname{Var} Z` as :math:`-\varphi''(0)` (Lemma 3)
``tight_eps_A(...)``      tight :math:`\varepsilon^*` of the noise (Corollary 5)
========================  =========================================================

``c_L`` is the symbol of the paper's constant :math:`c_L = 1/4` (Lemma 15); it is
replaced by its value (:data:`CONSTANTS`) before any evaluation.

>>> import sympy as sp
>>> # Lemma 14's upper bound at t = 1 in the paper's notation, and explicitly
>>> latex(f_Gamma(sp.Abs(t), alpha, theta))
'f_{\\Gamma}\\left(\\left|{t}\\right|\\right)'
>>> sp.simplify(explicit(f_Gamma(1, 1, theta)) - sp.exp(-1/theta)/theta)
0
"""

from __future__ import annotations

import contextvars

import sympy as sp
from mpmath import mp

from ..distributions import arete, gamma, gamma_gamma, laplace, staircase
from . import proof_integrals

__all__ = [
    "alpha", "theta", "lam", "Delta", "D_Gamma", "D_u", "eps", "kappa",
    "t", "a", "h", "n", "gamma_sc", "c_L", "CONSTANTS", "PAPER_PARAMETERS",
    "f_Gamma", "f_L", "f_GG", "f_A", "f_SC", "c_DGam", "c_Du",
    "near_mass", "shifted_conv", "mean_abs_A", "var_A_cf", "tight_eps_A",
    "explicit", "latex", "numeric", "working_digits", "to_mpf", "prefetch",
]

alpha = sp.Symbol("alpha", real=True)
theta = sp.Symbol("theta", real=True)
lam = sp.Symbol("lam", real=True)
Delta = sp.Symbol("Delta", real=True)
D_Gamma = sp.Symbol("D_Gamma", real=True)
D_u = sp.Symbol("D_u", real=True)
eps = sp.Symbol("eps", real=True)
kappa = sp.Symbol("kappa", real=True)
t = sp.Symbol("t", real=True)
a = sp.Symbol("a", real=True)
h = sp.Symbol("h", real=True)
n = sp.Symbol("n", real=True)
gamma_sc = sp.Symbol("gamma_sc", real=True)
c_L = sp.Symbol("c_L", positive=True)

#: Values of the paper's named constants.
CONSTANTS = {c_L: sp.Rational(1, 4)}

#: The paper's parameters (Lemmas 3 and 19), alpha = lam = e^{-eps/4} and theta = 4 Delta / eps.
PAPER_PARAMETERS = {
    alpha: sp.exp(-eps / 4),
    theta: 4 * Delta / eps,
    lam: sp.exp(-eps / 4),
}

_SYMBOL_NAMES = {
    lam: r"\lambda",
    eps: r"\varepsilon",
    gamma_sc: r"\gamma",
    D_Gamma: r"D_{\Gamma}",
    D_u: r"D_{u}",
}


class _PaperFunction(sp.Function):
    """An unevaluated function printed as the paper writes it.

    ``_shown`` is how many leading arguments appear in the printed form
    (the distribution parameters are understood from context, as in the paper);
    ``_name`` is the LaTeX name.
    """

    _name = ""
    _shown = 1

    def _latex(self, printer, exp=None):
        args = ", ".join(printer._print(x) for x in self.args[: self._shown])
        body = rf"{self._name}\left({args}\right)" if self._shown else self._name
        if exp is not None:
            body = rf"{body}^{{{exp}}}"
        return body


class f_Gamma(_PaperFunction):
    r""":math:`f_\Gamma(x) = x^{\alpha-1}e^{-x/\theta}/(\Gamma(\alpha)\theta^\alpha)`, args ``(x, alpha, theta)``."""

    nargs = 3
    _name = r"f_{\Gamma}"


class f_L(_PaperFunction):
    r""":math:`f_L(x) = e^{-|x|/\lambda}/(2\lambda)`, args ``(x, lam)``."""

    nargs = 2
    _name = r"f_{L}"


class f_GG(_PaperFunction):
    r""":math:`f_{\Gamma-\Gamma}(x)` (Definition 7), args ``(x, alpha, theta)``."""

    nargs = 3
    _name = r"f_{\Gamma-\Gamma}"


class f_A(_PaperFunction):
    r""":math:`f_A(x)` (Definition 9), args ``(x, alpha, theta, lam)``."""

    nargs = 4
    _name = r"f_{A}"


class f_SC(_PaperFunction):
    r"""Staircase density (Lemma 27), args ``(x, gamma, Delta, eps)``."""

    nargs = 4
    _name = r"f_{SC}"


class c_DGam(_PaperFunction):
    r""":math:`c_{D_\Gamma} = P(X \le D_\Gamma)`, :math:`X\sim\Gamma(\alpha,\theta)` (Lemma 14), args ``(D_Gamma, alpha, theta)``."""

    nargs = 3
    _shown = 0
    _name = r"c_{D_{\Gamma}}"


class c_Du(_PaperFunction):
    r""":math:`c_{D_u} = 2P(X \le D_u)` (Lemma 16), args ``(D_u, alpha, theta)``."""

    nargs = 3
    _shown = 0
    _name = r"c_{D_{u}}"


class near_mass(_PaperFunction):
    r""":math:`\int_{t-D_u}^{t+D_u} f_\Gamma(|t-x|)f_L(x)\,dx` (Claim 1), args ``(t, D_u, alpha, theta, lam)``."""

    nargs = 5
    _shown = 0
    _name = r"\int_{t-D_u}^{t+D_u} f_{\Gamma}(|t-x|)f_{L}(x)\,dx"


class shifted_conv(_PaperFunction):
    r""":math:`\int f_\Gamma(D_\Gamma + |s-x|)f_L(x)\,dx` (Claim 1), args ``(s, D_Gamma, alpha, theta, lam)``."""

    nargs = 5
    _name = r"(f_{\Gamma}(D_{\Gamma}+|\cdot|) * f_{L})"


class mean_abs_A(_PaperFunction):
    r"""Exact :math:`E|Z|` for :math:`Z\sim\mathrm{Arete}(\alpha,\theta,\lambda)`, args ``(alpha, theta, lam)``."""

    nargs = 3
    _shown = 0
    _name = r"E|Z|"


class var_A_cf(_PaperFunction):
    r""":math:`\operatorname{Var}Z = -\varphi_Z''(0)` by numerical differentiation, args ``(alpha, theta, lam)``."""

    nargs = 3
    _shown = 0
    _name = r"\operatorname{Var} Z"


class tight_eps_A(_PaperFunction):
    r"""Tight :math:`\varepsilon^* = \sup_t \ln f_A(t)/f_A(t+\Delta)` (Corollary 5), args ``(alpha, theta, lam, Delta)``."""

    nargs = 4
    _shown = 0
    _name = r"\varepsilon^*"


def explicit(expr):
    r"""Replace the closed-form densities and constants by their formulas.

    ``f_Gamma``, ``f_L``, ``c_DGam``, ``c_Du`` and ``c_L`` become elementary and
    incomplete-gamma expressions; the engine-backed functions (``f_A``,
    ``f_GG``, ...) have no closed form and stay as they are.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", positive=True)
    >>> sp.simplify(explicit(c_DGam(x, 1, 1)) - (1 - sp.exp(-x)))  # Exp(1) cdf
    0
    """
    expr = sp.sympify(expr)
    expr = expr.replace(
        f_Gamma,
        lambda x, al, th: sp.exp(-x / th) * x ** (al - 1) / (sp.gamma(al) * th**al),
    )
    expr = expr.replace(f_L, lambda x, la: sp.exp(-sp.Abs(x) / la) / (2 * la))
    expr = expr.replace(c_DGam, lambda d, al, th: sp.lowergamma(al, d / th) / sp.gamma(al))
    expr = expr.replace(c_Du, lambda d, al, th: 2 * sp.lowergamma(al, d / th) / sp.gamma(al))
    return expr.subs(CONSTANTS)


def latex(expr) -> str:
    r"""LaTeX in the paper's notation (:math:`\lambda`, :math:`\varepsilon`, :math:`D_\Gamma`, ...).

    >>> latex(lam <= Delta / sp.log(2))
    '\\lambda \\leq \\frac{\\Delta}{\\log{\\left(2 \\right)}}'
    """
    return sp.latex(expr, symbol_names=_SYMBOL_NAMES)


# ---------------------------------------------------------------------------
# numeric evaluation
# ---------------------------------------------------------------------------

#: Significant digits the engine-backed functions deliver inside :func:`numeric`
#: expressions.  Set with :func:`working_digits`.
_DIGITS = contextvars.ContextVar("arete_digits", default=20)

#: Optional memo of engine values, filled in batches by :mod:`arete_proofs.chain.verify`.
_CACHE = contextvars.ContextVar("arete_cache", default=None)


class working_digits:
    """Context manager: evaluate :func:`numeric` expressions to ``digits`` digits.

    Sets ``mp.dps`` to ``digits`` plus guard digits for the closed-form parts
    and tells the engine-backed functions how many digits to deliver.
    ``cache`` (a dict) memoises engine values across expressions.
    """

    def __init__(self, digits: int, cache: dict | None = None, guard: int = 10):
        self.digits = int(digits)
        self.cache = cache
        self.guard = guard

    def __enter__(self):
        self._tokens = (_DIGITS.set(self.digits), _CACHE.set(self.cache))
        self._dps = mp.workdps(self.digits + self.guard)
        self._dps.__enter__()
        return self

    def __exit__(self, *exc):
        self._dps.__exit__(*exc)
        _DIGITS.reset(self._tokens[0])
        _CACHE.reset(self._tokens[1])
        return False


def _memo(name, compute):
    def wrapped(*args):
        cache = _CACHE.get()
        d = _DIGITS.get()
        if cache is None:
            return compute(*args, digits=d)
        key = (name, d) + tuple(args)
        if key not in cache:
            cache[key] = compute(*args, digits=d)
        return cache[key]

    wrapped.__name__ = name
    return wrapped


def _engine(module, function):
    """``module.function`` called with ``digits=`` (the engine behind a sympy function)."""
    fn = getattr(module, function)

    def call(*args, digits):
        return fn(*args, digits=digits)

    return call


def _c_Du(d, al, th, digits):
    with mp.workdps(digits + 10):
        return 2 * gamma.cdf(d, al, th, digits=digits)


def _tight_eps(al, th, la, D, digits):
    from ..privacy import tight as privacy

    # a certified search; more than 15 digits would only cost time: this bound's
    # slack is never within the numerical error (the escalation never asks for more)
    return privacy.tight_epsilon(al, th, la, D, digits=min(digits, 15)).epsilon


_NAMESPACE = {
    "f_Gamma": _memo("f_Gamma", _engine(gamma, "pdf")),
    "f_L": _memo("f_L", _engine(laplace, "pdf")),
    "f_GG": _memo("f_GG", _engine(gamma_gamma, "pdf")),
    "f_A": _memo("f_A", _engine(arete, "pdf")),
    "f_SC": _memo("f_SC", _engine(staircase, "pdf")),
    "c_DGam": _memo("c_DGam", _engine(gamma, "cdf")),
    "c_Du": _memo("c_Du", _c_Du),
    "near_mass": _memo("near_mass", _engine(proof_integrals, "near_mass")),
    "shifted_conv": _memo("shifted_conv", _engine(proof_integrals, "shifted_convolution")),
    "mean_abs_A": _memo("mean_abs_A", _engine(arete, "mean_abs")),
    "var_A_cf": _memo("var_A_cf", _engine(proof_integrals, "variance_from_cf")),
    "tight_eps_A": _memo("tight_eps_A", _tight_eps),
}


def to_mpf(value):
    """An exact sympy number as an ``mpf`` at the current working precision."""
    return mp.mpf(sp.N(sp.sympify(value), mp.dps + 10))


class _Recorder(dict):
    """A dry-run cache for :func:`numeric`: records every engine call, answers 1."""

    def __init__(self):
        super().__init__()
        self.keys = []

    def __contains__(self, key):
        self.keys.append(key)
        return True

    def __getitem__(self, key):
        return mp.one


def prefetch(calls, digits, cache):
    """Fill ``cache`` with the Arete densities that ``calls`` will need, in batches.

    ``calls`` are ``(fn, symbols, point)``: ``fn`` compiled by :func:`numeric` over
    ``symbols``, ``point`` a dict from those symbols to exact numbers.  A dry run
    (every engine-backed function answers 1) records the :math:`f_A` arguments the
    compiled code produces; they are computed in one engine call per parameter set
    and stored under the very keys the real run (``working_digits(digits, cache)``)
    looks up.  A call whose dry run fails is simply computed in the real run.
    """
    recorder = _Recorder()
    with working_digits(digits, cache=recorder):
        for fn, syms, point in calls:
            try:
                fn(*[to_mpf(point[x]) for x in syms])
            except (ArithmeticError, ValueError, TypeError):
                pass
    groups: dict = {}
    for key in recorder.keys:
        if key[0] == "f_A" and key not in cache:
            _, d, tt, *params = key
            groups.setdefault((d, *params), {})[tt] = key
    for (d, *params), by_t in groups.items():
        ts = list(by_t)
        for tt, v in zip(ts, arete.pdf(ts, *params, digits=d)):
            cache[by_t[tt]] = v


def numeric(args, expr):
    """Compile ``expr`` to an mpmath function of ``args`` (a sequence of symbols).

    Engine-backed functions deliver the digits set by :class:`working_digits`;
    closed-form parts run at ``mp.dps``.

    >>> from mpmath import mp
    >>> g = numeric([t], f_L(t, 1) / f_L(t + 1, 1))  # Laplace privacy loss, Lemma 26
    >>> with working_digits(30):
    ...     mp.almosteq(g(mp.mpf(2)), mp.e)
    True
    """
    expr = sp.sympify(expr).subs(CONSTANTS)
    return sp.lambdify(list(args), expr, modules=[_NAMESPACE, "mpmath"])
