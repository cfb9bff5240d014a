r"""The Gamma-Gamma density ``f_GG`` two independent ways, and the naive convolution for ``f_A``.

* :func:`gg_pdf_besselk` -- the Bessel-K closed form of ``f_GG`` (Note 1 of the
  paper; Mathai 1993), ``|t|^nu K_nu(|t|/theta) / (sqrt(pi) Gamma(alpha)
  theta^(alpha+1/2) 2^nu)``, ``nu = alpha - 1/2``;
* :func:`gg_pdf_integral` -- ``f_GG`` from its definition (Definition 7),
  ``int_0^inf f_Gamma(|t| + x) f_Gamma(x) dx`` by quadrature, with the
  ``x^(alpha-1)`` singularity removed by a substitution;
* :func:`naive_pdf` -- the plain ``mp.quad`` convolution of Definition 9 (the
  known-bad baseline of the benchmark, not self-validated).

Independent checks of :mod:`arete_proofs.distributions.gamma_gamma` (and, through
the Bessel-K form, of the ``lam = theta`` case of the Arete density); neither
imports the engine.  Formulas, accuracy and cost: :mod:`arete_proofs.reference`.
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, exponent_digits
from ._common import _abs, _geometric, _integrate, _parse, _pieces_on, _tail_piece, _validated

__all__ = [
    "gg_pdf_besselk",
    "gg_pdf_integral",
    "naive_pdf",
]


def _gg_besselk(t, alpha, theta):
    """Bessel-K closed form of f_GG at the current precision (t >= 0 or < 0)."""
    if t < 0:
        t = -t
    if t == 0:
        if alpha <= mp.mpf(1) / 2:
            return mp.inf
        return mp.gamma(alpha - mp.mpf(1) / 2) / (2 * mp.sqrt(mp.pi) * mp.gamma(alpha) * theta)
    nu = alpha - mp.mpf(1) / 2
    return (
        t**nu
        * mp.besselk(nu, t / theta)
        / (mp.sqrt(mp.pi) * mp.gamma(alpha) * theta ** (alpha + mp.mpf(1) / 2) * 2**nu)
    )


def gg_pdf_besselk(t, alpha, theta, digits=None):
    r"""``f_GG(t)`` from the Bessel-K closed form (Note 1; Mathai 1993), self-validated.

    ``|t|^nu K_nu(|t|/theta) / (sqrt(pi) Gamma(alpha) theta^(alpha+1/2) 2^nu)``,
    ``nu = alpha - 1/2``; at ``t = 0`` it is ``+inf`` for ``alpha <= 1/2``.

    >>> from mpmath import mp
    >>> # alpha = 1: X1 - X2 ~ Laplace(theta)
    >>> mp.almosteq(gg_pdf_besselk(3, 1, 2, 15), mp.exp(-mp.mpf(3)/2) / 4, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta)
    t = _abs(t, d)
    a, th = p["alpha"], p["theta"]
    extra = exponent_digits(t / th, a * mp.log(th))
    return _validated(lambda v: _gg_besselk(t, a, th), d, "gg_pdf_besselk", extra)


def _log_gamma_pdf_factory(alpha, theta):
    """``x -> log f_Gamma(x)`` at the current precision (x > 0)."""
    c0 = mp.loggamma(alpha) + alpha * mp.log(theta)
    return lambda x: (alpha - 1) * mp.log(x) - x / theta - c0


def _gg_integral_run(t, alpha, theta, d, variant):
    ratio, frac = ((4, mp.mpf(1) / 2), (3, mp.mpf("0.37")))[variant]
    logf = _log_gamma_pdf_factory(alpha, theta)
    pieces = []
    hi = theta * (alpha + 6)
    if t == 0:
        if alpha <= mp.mpf(1) / 2:
            return mp.inf
        x0 = theta * frac
        F = lambda x: mp.exp(2 * logf(x))
        if alpha < 1:
            # x = x0 u^(1/p), p = 2 alpha - 1:  x^(2 alpha - 2) dx = x0^p du / p
            p = 2 * alpha - 1
            const = x0**p / (p * mp.gamma(alpha) ** 2 * theta ** (2 * alpha))
            pieces.append((lambda u: const * mp.exp(-2 * x0 * u ** (1 / p) / theta), mp.zero, mp.one))
        else:
            pieces.append((F, mp.zero, x0))
    else:
        x0 = min(t, theta) * frac
        F = lambda x: mp.exp(logf(t + x) + logf(x))
        if alpha < 1:
            # x = x0 u^(1/alpha):  x^(alpha-1) dx = x0^alpha du / alpha
            const = x0**alpha / (mp.gamma(alpha + 1) * theta**alpha)

            def G(u):
                x = x0 * u ** (1 / alpha)
                return mp.exp(logf(t + x) - x / theta) * const

            pieces.append((G, mp.zero, mp.one))
        else:
            pieces.append((F, mp.zero, x0))
    pieces += _pieces_on(F, _geometric(x0, hi, ratio))
    pieces.append(_tail_piece(F, hi, theta))
    return _integrate(pieces, d, "gg_pdf_integral")


def gg_pdf_integral(t, alpha, theta, digits=None):
    r"""``f_GG(t) = int_0^inf f_Gamma(|t| + x) f_Gamma(x) dx`` (Definition 7) by quadrature.

    The ``x^(alpha-1)`` singularity is removed by ``x = x0 u^(1/alpha)`` on
    ``[0, x0]``, ``x0 = min(|t|, theta)/2``; self-validated.  Returns ``+inf``
    at ``t = 0`` for ``alpha <= 1/2`` (the integral diverges).

    >>> from mpmath import mp
    >>> mp.almosteq(gg_pdf_integral(3, 1, 2, 15), mp.exp(-mp.mpf(3)/2) / 4, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta)
    t = _abs(t, d)
    a, th = p["alpha"], p["theta"]
    extra = exponent_digits(t / th, a * mp.log(1 + t / th))
    return _validated(lambda v: _gg_integral_run(t, a, th, d, v), d, "gg_pdf_integral", extra)


def naive_pdf(t, alpha, theta, lam, digits=None):
    r"""**Known-bad baseline**: ``mp.quad(f_GG(x) f_L(t - x), [-inf, 0, t, inf])``.

    ``f_GG`` is the Bessel-K form at ``digits + 10`` working digits; no
    self-validation, no rescaling.  For small ``alpha`` the mass of the
    ``|x|^(2 alpha - 1)`` singularity at ``x = 0`` within ``~10**-dps`` of the
    endpoint is lost: for ``alpha = lam = e^-5, theta = 0.2`` it returns
    ``f_A(0) ~ 39.9`` (``digits=15``) or ``51.5`` (``digits=30``) instead of
    ``70.8748903745...``.  Only for the benchmark.
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    with mp.workdps(d + GUARD_DIGITS):
        f = lambda x: _gg_besselk(x, a, th) * mp.exp(-abs(t - x) / lam) / (2 * lam)
        pts = [mp.ninf, 0, t, mp.inf] if t != 0 else [mp.ninf, 0, mp.inf]
        if t < 0:
            pts = [mp.ninf, t, 0, mp.inf]
        return mp.quad(f, pts)
