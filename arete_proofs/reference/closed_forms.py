r"""Closed forms for exact tests of the Arete and Gamma-Gamma densities and moments.

* :func:`pdf_at_zero` -- ``f_A(0)`` by Gradshteyn-Ryzhik 6.621.3 (a 2F1);
* :func:`pdf_alpha_one` -- ``alpha = 1``: the convolution of two Laplace densities;
* :func:`gg_pdf_alpha_half` -- ``alpha = 1/2``: ``f_GG(t) = K_0(|t|/theta)/(pi theta)``;
* :func:`pdf_lam_equals_theta` -- ``lam = theta``: ``Arete(alpha, theta, theta) =
  Gamma-Gamma(alpha + 1, theta)`` (Bessel-K form, Note 1);
* :func:`mean_abs_closed_form` -- ``E|Z|``; :func:`var_closed_form` -- ``Var Z``.

Special cases of Definitions 7 and 9 of the paper, independent of the engine
(:mod:`arete_proofs.distributions`); derivations in :mod:`arete_proofs.reference`.
"""

from __future__ import annotations

from mpmath import mp

from .._validation import PrecisionError, exponent_digits, parse_precision
from ._common import _abs, _parse, _validated
from .gamma_gamma import _gg_besselk

__all__ = [
    "pdf_at_zero",
    "pdf_alpha_one",
    "gg_pdf_alpha_half",
    "pdf_lam_equals_theta",
    "mean_abs_closed_form",
    "var_closed_form",
]


def _pdf_at_zero(alpha, theta, lam):
    r = theta / lam
    return (
        (1 + r) ** (-2 * alpha)
        * mp.gamma(2 * alpha)
        / (mp.gamma(alpha) * mp.gamma(alpha + 1))
        * mp.hyp2f1(2 * alpha, alpha, alpha + 1, (r - 1) / (r + 1))
        / lam
    )


def pdf_at_zero(alpha, theta, lam, digits=None):
    r"""``f_A(0)`` in closed form (Gradshteyn-Ryzhik 6.621.3; derivation in :mod:`arete_proofs.reference`).

    ``(1 + r)^(-2 alpha) Gamma(2 alpha) 2F1(2 alpha, alpha; alpha + 1; (r - 1)/(r + 1)) / (Gamma(alpha) Gamma(alpha + 1) lam)``,
    ``r = theta/lam``.

    >>> from mpmath import mp
    >>> mp.almosteq(pdf_at_zero(1, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, _, p = _parse(digits, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    extra = exponent_digits(a * mp.log(th / lam), mp.log(lam))
    f0 = _validated(lambda v: _pdf_at_zero(a, th, lam), d, "pdf_at_zero", extra)
    if not mp.isfinite(f0):   # 2F1 at z -> 1 with c - a - b = 1 - alpha <= 0 (theta/lam huge): mpmath overflows
        raise PrecisionError(f"pdf_at_zero: the 2F1 closed form overflowed (theta/lam = {mp.nstr(th / lam, 3)})")
    return f0


def _pdf_alpha_one(t, theta, lam):
    s, m = min(theta, lam), max(theta, lam)
    delta = t * (m - s) / (s * m)
    h = -mp.expm1(-delta) / delta if delta != 0 else mp.one
    return mp.exp(-t / m) * (1 + (t / m) * h) / (2 * (m + s))


def pdf_alpha_one(t, theta, lam, digits=None):
    r"""``f_A(t)`` for ``alpha = 1``: convolution of Laplace(theta) and Laplace(lam).

    ``(theta e^{-|t|/theta} - lam e^{-|t|/lam}) / (2 (theta^2 - lam^2))``, or
    ``(lam + |t|) e^{-|t|/lam} / (4 lam^2)`` at ``theta = lam``; computed in a
    cancellation-free form (:mod:`arete_proofs.reference`), self-validated.

    >>> from mpmath import mp
    >>> mp.almosteq(pdf_alpha_one(0, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, theta=theta, lam=lam)
    th, lam = p["theta"], p["lam"]
    t = _abs(t, d)
    extra = exponent_digits(t / min(th, lam))
    return _validated(lambda v: _pdf_alpha_one(t, th, lam), d, "pdf_alpha_one", extra)


def gg_pdf_alpha_half(t, theta, digits=None):
    r"""``f_GG(t)`` for ``alpha = 1/2``: ``K_0(|t|/theta) / (pi theta)`` (``+inf`` at 0).

    >>> from mpmath import mp
    >>> mp.almosteq(gg_pdf_alpha_half(1, 1, 15), mp.besselk(0, 1) / mp.pi, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, theta=theta)
    th = p["theta"]
    t = _abs(t, d)
    if t == 0:
        return mp.inf
    return _validated(
        lambda v: mp.besselk(0, t / th) / (mp.pi * th), d, "gg_pdf_alpha_half", exponent_digits(t / th)
    )


def pdf_lam_equals_theta(t, alpha, theta, digits=None):
    r"""``f_A(t)`` for ``lam = theta``: the Gamma-Gamma(alpha + 1, theta) density (Bessel-K form).

    >>> from mpmath import mp
    >>> # alpha = 1, lam = theta = 1: (1 + |t|) e^{-|t|} / 4
    >>> mp.almosteq(pdf_lam_equals_theta(2, 1, 1, 15), 3 * mp.exp(-2) / 4, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta)
    t = _abs(t, d)
    a, th = p["alpha"], p["theta"]
    extra = exponent_digits(t / th, (a + 1) * mp.log(th))
    return _validated(lambda v: _gg_besselk(t, a + 1, th), d, "pdf_lam_equals_theta", extra)


def mean_abs_closed_form(alpha, theta, lam, digits=None):
    r"""``E|Z| = 4 theta Gamma(2 alpha) / (4^alpha Gamma(alpha)^2) + 2 lam^2 f_A(0)``.

    ``f_A(0)`` from :func:`pdf_at_zero`'s formula.  Self-validated.

    >>> from mpmath import mp
    >>> # alpha = 1, theta = 2, lam = 1: E|Z| = 2 + 2/6
    >>> mp.almosteq(mean_abs_closed_form(1, 2, 1, 15), mp.mpf(7)/3, 1e-14)
    True
    """
    d, _, p = _parse(digits, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]

    def compute(v):
        gg = 4 * th * mp.gamma(2 * a) / (mp.mpf(4) ** a * mp.gamma(a) ** 2)
        return gg + 2 * lam**2 * _pdf_at_zero(a, th, lam)

    extra = exponent_digits(a * mp.log(th / lam), mp.log(lam), mp.log(th))
    return _validated(compute, d, "mean_abs_closed_form", extra)


def var_closed_form(alpha, theta, lam, digits=None):
    r"""``Var Z = 2 alpha theta^2 + 2 lam^2`` (exact at the parse precision).

    >>> var_closed_form(1, 2, 3) == 26
    True
    """
    d, _, p = _parse(digits, alpha=alpha, theta=theta, lam=lam)
    with mp.workdps(parse_precision(d)):
        return 2 * p["alpha"] * p["theta"] ** 2 + 2 * p["lam"] ** 2
