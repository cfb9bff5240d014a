r"""Method (b), the main oracle: ``f_A`` and ``P(Z > t)`` as autocorrelations of a Gamma+Exp density.

With ``Y = Y1 - Y2`` (``Y1, Y2 ~ Exp(lam)``), ``Z = W1 - W2`` for i.i.d.
``W = X + Y1 ~ Gamma(alpha, theta) + Exp(lam)``, so

* :func:`autocorrelation_pdf` -- ``f_A(t) = int_0^inf g(x) g(x + |t|) dx``,
* :func:`autocorrelation_sf` -- ``P(Z > t) = int_0^inf g(x) G(x + t) dx``,

where :func:`gamma_exp_pdf` ``g`` (a Kummer 1F1 form, evaluated on the side whose
argument is negative, with asymptotic series for large arguments) and
:func:`gamma_exp_sf` ``G = Q(alpha, y/theta) + lam g`` are the density and
survival function of ``W``.  An independent check of the Arete density
(Definition 9 of the paper; :mod:`arete_proofs.distributions.arete`) that
shares no formula with the engine's branch-cut representation.  Derivation,
accuracy and cost: :mod:`arete_proofs.reference`.
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, exponent_digits
from ._common import _abs, _geometric, _integrate, _parse, _pieces_on, _tail_piece, _validated

__all__ = [
    "gamma_exp_pdf",
    "gamma_exp_sf",
    "autocorrelation_pdf",
    "autocorrelation_sf",
]


def _kummer_a_large(alpha, x, eps, loggamma_a):
    r"""``1F1(alpha; alpha+1; -x) = Gamma(alpha+1) x^-alpha (1 - Q(alpha, x))`` for large ``x``.

    ``Q(alpha, x) = Gamma(alpha, x)/Gamma(alpha)`` is summed from its asymptotic
    series ``x^(alpha-1) e^-x / Gamma(alpha) sum_k (alpha-1)...(alpha-k) x^-k``
    until a term is below ``eps`` in absolute value (``1 - Q >= 1/2`` here, so
    that is a relative error ``eps`` of the result).  Returns ``None`` if the
    series stops decreasing first (caller falls back to ``mp.hyp1f1``).
    """
    logpref = (alpha - 1) * mp.log(x) - x - loggamma_a
    q = mp.zero
    if logpref > mp.log(eps) - 3:
        pref = mp.exp(logpref)
        term = mp.one
        s = mp.one
        k = 0
        while True:
            new = term * (alpha - 1 - k) / x
            k += 1
            if new == 0:
                break
            if abs(new) > abs(term):
                return None
            term = new
            s += term
            if abs(term) * pref < eps:
                break
        q = pref * s
    return mp.gamma(alpha + 1) * x ** (-alpha) * (1 - q)


def _kummer_1_large(alpha, z, eps, log_small):
    r"""``1F1(1; alpha+1; -z) ~ (alpha/z) sum_k (1-alpha)_k z^-k`` for large ``z``.

    The series is asymptotic; the neglected part is of size
    ``Gamma(alpha+1) z^-alpha e^-z``, and ``log_small(z)`` is the log of its ratio
    to ``alpha/z``.  Returns ``None`` unless that ratio is below ``eps`` and the
    terms fall below ``eps`` (relative) while still decreasing.
    """
    if log_small(z) > mp.log(eps):
        return None
    term = mp.one
    s = mp.one
    k = 0
    while True:
        new = term * (1 - alpha + k) / z
        k += 1
        if new == 0:
            break
        if abs(new) > abs(term) and k > 1:
            return None
        term = new
        s += term
        if abs(term) < eps * abs(s):
            break
    return alpha / z * s


def _gamma_exp_pdf_factory(alpha, theta, lam):
    """``y -> g(y)``, the density of Gamma(alpha, theta) + Exp(lam), at the current precision.

    Uses the form whose 1F1 argument is <= 0 (see :mod:`arete_proofs.reference`).  For
    large arguments the 1F1 is summed from its asymptotic expansion (cheap and
    exact to the working precision there, see :func:`_kummer_a_large`,
    :func:`_kummer_1_large`); otherwise ``mp.hyp1f1`` is called.  The switch
    points depend on the working precision, so the two validation runs use
    partly different code paths.
    """
    K = 1 / (lam * mp.gamma(alpha + 1) * theta**alpha)
    eps = mp.ldexp(1, -(mp.prec + 10))
    if theta < lam:
        c = (lam - theta) / (theta * lam)  # 1/theta - 1/lam > 0
        x_large = max(mp.prec * mp.ln2 / 2 + 10, 4 * alpha + 10)
        loggamma_a = mp.loggamma(alpha)

        def kummer(x):
            if x >= x_large:
                v = _kummer_a_large(alpha, x, eps, loggamma_a)
                if v is not None:
                    return v
            return mp.hyp1f1(alpha, alpha + 1, -x)

        def g(y):
            if y <= 0:
                return mp.zero
            return K * mp.exp(alpha * mp.log(y) - y / lam) * kummer(c * y)

    elif theta > lam:
        c = (theta - lam) / (theta * lam)  # 1/lam - 1/theta > 0
        const = mp.loggamma(alpha + 1) - mp.log(alpha)
        log_small = lambda z: -z + (1 - alpha) * mp.log(z) + const
        z_large = mp.prec * mp.ln2 + 10

        def kummer(z):
            if z >= z_large:
                v = _kummer_1_large(alpha, z, eps, log_small)
                if v is not None:
                    return v
            # Kummer: 1F1(1; alpha+1; -z) = e^-z 1F1(alpha; alpha+1; z).  mp.hyp1f1 at
            # the negative argument loses ~log10(1/alpha) - 1.5 digits for z >~ 20
            # (5 digits at alpha = 1e-7); the positive-argument form does not.
            return mp.exp(-z) * mp.hyp1f1(alpha, alpha + 1, z)

        def g(y):
            if y <= 0:
                return mp.zero
            return K * mp.exp(alpha * mp.log(y) - y / theta) * kummer(c * y)

    else:

        def g(y):
            if y <= 0:
                return mp.zero
            return K * mp.exp(alpha * mp.log(y) - y / theta)

    return g


def _gamma_exp_sf_factory(alpha, theta, lam):
    """``y -> G(y) = P(W > y) = Q(alpha, y/theta) + lam g(y)`` at the current precision."""
    g = _gamma_exp_pdf_factory(alpha, theta, lam)

    def G(y):
        if y <= 0:
            return mp.one
        return mp.gammainc(alpha, y / theta, mp.inf, regularized=True) + lam * g(y)

    return G


def gamma_exp_pdf(y, alpha, theta, lam, digits=None):
    r"""Density ``g(y)`` of ``Gamma(alpha, theta) + Exp(lam)`` (the building block of method (b)).

    ``g(y) = y^alpha e^{-y/theta} 1F1(1; alpha+1; (1/theta - 1/lam) y) / (lam Gamma(alpha+1) theta^alpha)``
    for ``y > 0``, 0 otherwise; evaluated in the non-cancelling form (module
    docstring) and self-validated at two precisions.

    >>> from mpmath import mp
    >>> # alpha = 1, theta = lam: Gamma(2, lam) density
    >>> mp.almosteq(gamma_exp_pdf(3, 1, 2, 2, 15), 3 * mp.exp(-mp.mpf(3)/2) / 4, 1e-14)
    True
    """
    d, y, p = _parse(digits, t=y, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    extra = exponent_digits(y / min(th, lam), a * mp.log(th))
    return _validated(lambda v: _gamma_exp_pdf_factory(a, th, lam)(y), d, "gamma_exp_pdf", extra)


def gamma_exp_sf(y, alpha, theta, lam, digits=None):
    r"""``P(W > y)`` for ``W ~ Gamma(alpha, theta) + Exp(lam)``: ``Q(alpha, y/theta) + lam g(y)``.

    >>> from mpmath import mp
    >>> # alpha = 1, theta = lam: P(Gamma(2, lam) > y) = (1 + y/lam) e^{-y/lam}
    >>> mp.almosteq(gamma_exp_sf(3, 1, 2, 2, 15), mp.mpf(5)/2 * mp.exp(-mp.mpf(3)/2), 1e-14)
    True
    """
    d, y, p = _parse(digits, t=y, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    extra = exponent_digits(y / min(th, lam), a * mp.log(th))
    return _validated(lambda v: _gamma_exp_sf_factory(a, th, lam)(y), d, "gamma_exp_sf", extra)


def _autocorr_pieces(F, t, alpha, theta, lam, d, variant):
    ratio, frac = ((16, mp.mpf(1) / 2), (10, mp.mpf("0.37")))[variant]
    s, m = min(theta, lam), max(theta, lam)
    # Resolve the scale |t| only down to s 10^-(d+30): below that the whole
    # sub-interval [0, lo] carries less than 10^-(d+30) of the integral.
    lo = max(min(s, t), s * mp.mpf(10) ** -(d + 30)) * frac
    hi = m * (alpha + 4)
    pieces = _pieces_on(F, [mp.zero] + _geometric(lo, hi, ratio))
    pieces.append(_tail_piece(F, hi, m))
    return pieces


def _autocorr_extra(t, alpha, theta, lam):
    m = max(theta, lam)
    return exponent_digits((t + m * (alpha + 4)) / m, alpha * mp.log(theta)) + 2


def _autocorr_pdf_run(t, alpha, theta, lam, d, variant):
    g = _gamma_exp_pdf_factory(alpha, theta, lam)
    if t == 0:
        F = lambda x: g(x) ** 2
    else:
        F = lambda x: g(x) * g(x + t)
    return _integrate(_autocorr_pieces(F, t, alpha, theta, lam, d, variant), d, "autocorrelation_pdf")


def autocorrelation_pdf(t, alpha, theta, lam, digits=None):
    r"""``f_A(t) = int_0^inf g(x) g(x + |t|) dx``, ``g`` the Gamma+Exp density (method (b)).

    The main reference: positive integrand, no singularity stronger than a
    bounded ``x^alpha`` cusp, relative stopping rule, two validation runs at
    different precisions *and* different breakpoints.  See :mod:`arete_proofs.reference`
    for the formula, range and cost.

    >>> from mpmath import mp
    >>> # alpha = 1: convolution of Laplace(2) and Laplace(1) at t = 0 is 1/(2 (2 + 1))
    >>> mp.almosteq(autocorrelation_pdf(0, 1, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    t = _abs(t, d)
    extra = _autocorr_extra(t, a, th, lam)
    return _validated(lambda v: _autocorr_pdf_run(t, a, th, lam, d, v), d, "autocorrelation_pdf", extra)


def _autocorr_sf_run(t, alpha, theta, lam, d, variant):
    g = _gamma_exp_pdf_factory(alpha, theta, lam)
    G = _gamma_exp_sf_factory(alpha, theta, lam)
    F = lambda x: g(x) * G(x + t)
    return _integrate(_autocorr_pieces(F, t, alpha, theta, lam, d, variant), d, "autocorrelation_sf")


def autocorrelation_sf(t, alpha, theta, lam, digits=None):
    r"""``P(Z > t) = int_0^inf g(x) G(x + t) dx`` (``t >= 0``), ``G(y) = Q(alpha, y/theta) + lam g(y)``.

    For ``t < 0`` returns ``1 - P(Z > |t|)``.  Self-validated like
    :func:`autocorrelation_pdf`.  At ``alpha = 1`` the noise is a sum of two Laplace laws of scales
    ``theta`` and ``lam``, with :math:`P(Z > t) = (\theta^2 e^{-t/\theta} - \lambda^2 e^{-t/\lambda}) / (2(\theta^2 - \lambda^2))`:

    >>> from mpmath import mp
    >>> th, lam = mp.mpf("0.5"), mp.mpf(1)
    >>> exact = (th**2 * mp.exp(-1 / th) - lam**2 * mp.exp(-1 / lam)) / (2 * (th**2 - lam**2))
    >>> mp.almosteq(autocorrelation_sf(1, 1, th, lam, 15), exact, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    at = _abs(t, d)
    extra = _autocorr_extra(at, a, th, lam)
    v = _validated(lambda v: _autocorr_sf_run(at, a, th, lam, d, v), d, "autocorrelation_sf", extra)
    if t < 0:
        with mp.workdps(d + GUARD_DIGITS):
            return 1 - v
    return v
