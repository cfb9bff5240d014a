r"""Structural mutants of the registry's bounds: false variants that a check must refute, true ones it must not.

Each mutant is built from a bound of :mod:`arete_proofs.chain.registry` by a
structural change of its sympy expression: drop a factor (Lemma 16 without
:math:`e^{(D_\Gamma+\Delta)/\theta}`), change a constant or an exponent (Lemma 19's
:math:`e^{-\varepsilon}` to :math:`e^{-\varepsilon/2}`), flip a shift (Lemma 2's
:math:`f_A(t+h)` to :math:`f_A(t-h)`) or swap the two sides.  The true
**weakenings** (the right-hand side times 1.0001 or 1.5, the left-hand side divided
by them) must hold.  :func:`variants` turns them into
:class:`arete_proofs.chain.variants.Variant` objects through the same path as a
user's TOML file (``str()`` of the expression, parsed back).

``benchmarks/bench_mutants.py`` measures how many are refuted by the grid alone
and by grid plus search, and the false alarms; ``tests/test_verify.py`` checks
four of them named in :data:`NAMED`.

>>> len(FALSE) >= 20 and all(m["expect"] == "refuted" for m in FALSE)
True
>>> v = variants(["16-drop-exp"])[0]
>>> sp.exp((D_Gamma + Delta) / theta) in v.statement.bounds[0].rhs.atoms(sp.exp)   # the factor is gone
False
"""

from __future__ import annotations

import sympy as sp

from .registry import REGISTRY, cD
from .symbols import D_Gamma, D_u, Delta, a, c_L, eps, f_A, h, t, theta

__all__ = ["FALSE", "TRUE", "ALL", "NAMED", "HM25", "variants"]


def _b(sid, name):
    return next(b for b in REGISTRY[sid].bounds if b.name == name)


def _m(name, sid, bound, expect, how, **sides):
    return {"name": name, "statement": sid, "bound": bound, "expect": expect, "how": how,
            **{k: str(v) for k, v in sides.items()}}


_E16 = sp.exp((D_Gamma + Delta) / theta)
_R16, _R17, _R18 = _b("lemma-16", "ratio").rhs, _b("lemma-17", "ratio").rhs, _b("lemma-18", "ratio").rhs
_RC1 = _b("claim-1", "near-part").rhs

#: False variants; every one must be refuted.
FALSE = [
    _m("16-drop-exp", "lemma-16", "ratio", "refuted", "drop the factor e^{(D_Gamma+Delta)/theta}",
       rhs=_R16.subs(_E16, 1)),
    _m("19-lower-half-eps", "lemma-19", "lower", "refuted", "e^{-eps} -> e^{-eps/2}", lhs=sp.exp(-eps / 2)),
    _m("14-lower-drop-c", "lemma-14", "lower", "refuted", "drop c_{D_Gamma}",
       lhs=_b("lemma-14", "lower").lhs.subs(cD, 1)),
    _m("3-lower-half-eps", "lemma-3", "privacy-lower", "refuted", "e^{-eps} -> e^{-eps/2}", lhs=sp.exp(-eps / 2)),
    _m("3-upper-half-eps", "lemma-3", "privacy", "refuted", "e^{eps} -> e^{eps/2}", rhs=sp.exp(eps / 2)),
    _m("19-upper-half-eps", "lemma-19", "upper", "refuted", "e^{eps} -> e^{eps/2}", rhs=sp.exp(eps / 2)),
    _m("3-mean-abs-drop-2", "lemma-3", "mean-abs", "refuted", "2 alpha theta + lam -> alpha theta + lam",
       rhs=_b("lemma-3", "mean-abs").rhs - sp.Symbol("alpha", real=True) * theta),
    _m("3-variance-lam", "lemma-3", "variance", "refuted", "2 lam^2 -> lam^2",
       rhs=_b("lemma-3", "variance").rhs - sp.Symbol("lam", real=True) ** 2),
    _m("5-error-half-eps", "corollary-5", "error", "refuted", "e^{-eps/4} -> e^{-eps/2}",
       rhs=2 * Delta * sp.exp(-eps / 2)),
    _m("5-tight-half", "corollary-5", "tight-epsilon", "refuted", "eps -> eps/2", rhs=eps / 2),
    _m("15-cL-2", "lemma-15", "lower", "refuted", "c_L = 1/4 -> 2",
       lhs=_b("lemma-15", "lower").lhs.subs(c_L, 2)),
    _m("17-drop-exp", "lemma-17", "ratio", "refuted", "drop the factor e^{(D_Gamma+Delta)/theta}",
       rhs=_R17.subs(_E16, 1)),
    _m("18-drop-exp", "lemma-18", "ratio", "refuted", "drop the factor e^{(D_Gamma+Delta)/theta}",
       rhs=_R18.subs(_E16, 1)),
    _m("c1-drop-exp", "claim-1", "near-part", "refuted", "drop the factor e^{(D_Gamma+D_u+Delta)/theta}",
       rhs=_RC1.subs(sp.exp((D_Gamma + D_u + Delta) / theta), 1)),
    _m("14-upper-double-t", "lemma-14", "upper", "refuted", "f_Gamma(|t|) -> f_Gamma(2|t|)",
       rhs=_b("lemma-14", "upper").rhs.subs(sp.Abs(t), 2 * sp.Abs(t))),
    _m("2-flip-shift", "lemma-2", "decreasing", "refuted", "f_A(t + h) -> f_A(t - h)",
       lhs=_b("lemma-2", "decreasing").lhs.subs(h, -h)),
    _m("26-eps-0.9", "lemma-26", "privacy", "refuted", "e^{eps} -> e^{0.9 eps}",
       rhs=sp.exp(sp.Rational(9, 10) * eps)),
    _m("27-half-eps", "lemma-27", "privacy", "refuted", "e^{eps} -> e^{eps/2}", rhs=sp.exp(eps / 2)),
    _m("28-swap", "lemma-28", "monotone", "refuted", "g(t) <= g(kappa) -> g(kappa) <= g(t)",
       lhs=_b("lemma-28", "monotone").rhs, rhs=_b("lemma-28", "monotone").lhs),
    _m("n2-gamma-half", "note-2", "gamma", "refuted", "1/alpha -> 1/(2 alpha)",
       rhs=_b("note-2", "gamma").rhs / 2),
    _m("n2-bernoulli-half", "note-2", "bernoulli", "refuted", "1 + alpha/n -> 1 + alpha/(2n)",
       rhs=1 + sp.Symbol("alpha", real=True) / (2 * sp.Symbol("n", real=True))),
    _m("19-eq10-480", "lemma-19", "eq-10", "refuted", "48 -> 480", lhs=_b("lemma-19", "eq-10").lhs * 10),
    _m("15-flip-shift", "lemma-15", "lower", "refuted", "f_A(t + Delta) -> f_A(t - Delta)",
       rhs=f_A(t - Delta, *_b("lemma-15", "lower").rhs.args[1:])),
    # false only on a face of the hypothesis region or at a domain end: the
    # interior search misses them, the face stage and the domain end Delta = 1e4 refute them
    _m("26-face", "lemma-26", "privacy", "refuted", "e^{eps} -> e^{eps} e^{-1e7 max(0, |a|/Delta - 1 + 1e-6)}",
       rhs=sp.exp(eps) * sp.exp(-10**7 * sp.Max(0, sp.Abs(a) / Delta - 1 + sp.Rational(1, 10**6)))),
    _m("26-large-Delta", "lemma-26", "privacy", "refuted", "e^{eps} -> e^{eps (1 - max(0, Delta - 5000)/(2 Delta))}",
       rhs=sp.exp(eps * (1 - sp.Max(0, Delta - 5000) / (2 * Delta)))),
    # the 2025 paper (Harrison & Manurangsi, FORC 2025, reconstructed)
    _m("hm25-13-flip", "hm25-theorem-13", "above-tail", "refuted", "a Delta <= L -> L <= a Delta (beta < 1)",
       lhs=_b("hm25-theorem-13", "above-tail").rhs, rhs=_b("hm25-theorem-13", "above-tail").lhs),
    _m("hm25-21-m-e4", "hm25-theorem-21", "variance-order", "refuted",
       "m = ceil(e^{eps/3}) -> ceil(e^{eps/4}) in Var <= 10 Delta^2 e^{-2eps/3}",
       lhs=_b("hm25-theorem-21", "variance-order").lhs.subs(sp.exp(eps / 3), sp.exp(eps / 4))),
    _m("hm25-16-shift", "hm25-theorem-16", "privacy", "refuted", "sensitivity Delta -> Delta + 1",
       lhs=_b("hm25-theorem-16", "privacy").lhs.func(*_b("hm25-theorem-16", "privacy").lhs.args[:2], Delta + 1)),
    # refutable only because the window maximum is computed (a value -inf, as when the coupling shortcut
    # skipped the window, would make every right-hand side > 0 hold)
    _m("hm25-16-window-gap", "hm25-theorem-16", "not-attained", "refuted",
       "W <= eps -> W <= eps (1 - 1/1000): the finite window stays 0.1% below the tail limit",
       rhs=eps * (1 - sp.Rational(1, 1000))),
]


def _weaken(sid, name, factor):
    b = _b(sid, name)
    k = sp.Rational(factor)
    label = f"{sid.split('-', 1)[1] if sid.startswith('lemma') else sid}-{name}-weaker-{factor}"
    if name in ("lower", "privacy-lower") and sid in ("lemma-19", "lemma-3"):
        return _m(label, sid, name, "holds", f"lhs / {factor}", lhs=b.lhs / k)
    return _m(label, sid, name, "holds", f"rhs * {factor}", rhs=b.rhs * k)


#: True weakenings; every one must hold (a refutation is a false alarm).
TRUE = [_weaken(sid, name, f) for sid, name in (
    ("lemma-16", "ratio"), ("lemma-19", "lower"), ("lemma-14", "lower"), ("lemma-3", "privacy-lower"),
    ("lemma-26", "privacy"), ("lemma-28", "monotone"), ("note-2", "gamma"), ("lemma-18", "ratio"),
) for f in ("1.0001", "1.5")]

ALL = FALSE + TRUE

#: The 2025 paper's false variants.
HM25 = ("hm25-13-flip", "hm25-21-m-e4", "hm25-16-shift", "hm25-16-window-gap")

#: Four false variants that the grid alone used to miss (refuted by --variant on the default grid plus search).
NAMED = ("16-drop-exp", "19-lower-half-eps", "14-lower-drop-c", "3-lower-half-eps")


def variants(names=None):
    r"""The mutants (all, or those named) as :class:`~arete_proofs.chain.variants.Variant` objects.

    Built through the path of a user's TOML file: each side is ``str()``-ed and parsed back
    with :func:`arete_proofs.chain.variants.parse`, so a variant's bound is the mutant's
    expression.  The four of :data:`NAMED` start from Lemma 16 (without
    :math:`e^{(D_\Gamma+\Delta)/\theta}`), Lemma 19 (:math:`e^{-\varepsilon/2}`), Lemma 14 (without
    :math:`c_{D_\Gamma}`) and Lemma 3 (:math:`e^{-\varepsilon/2}`):

    >>> vs = variants(NAMED)
    >>> [v.base for v in vs]
    ['lemma-16', 'lemma-19', 'lemma-14', 'lemma-3']
    >>> from arete_proofs.chain.variants import parse
    >>> all(parse(m[k]) == getattr(v.statement.bounds[0], k)
    ...     for m, v in zip([m for m in ALL if m["name"] in NAMED], vs) for k in ("lhs", "rhs") if k in m)
    True
    >>> len(variants()) == len(FALSE) + len(TRUE)
    True
    """
    from .variants import _variant

    chosen = ALL if names is None else [m for m in ALL if m["name"] in names]
    keys = ("name", "statement", "bound", "lhs", "rhs")
    return [_variant({k: m[k] for k in keys if k in m}, i) for i, m in enumerate(chosen)]
