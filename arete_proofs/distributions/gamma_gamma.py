r"""The Gamma-Gamma distribution :math:`X_1 - X_2` (paper, Definition 7 and Note 1).

For independent :math:`X_1, X_2 \sim \Gamma(\alpha, \theta)` the density of
:math:`X_1 - X_2` is (Mathai 1993; a variance-gamma density)

.. math::

    f_{\Gamma-\Gamma}(t) = \int_0^\infty f_\Gamma(|t|+x) f_\Gamma(x)\,dx
    = \frac{|t|^{\alpha-1/2} K_{\alpha-1/2}(|t|/\theta)}
           {\sqrt{\pi}\,\Gamma(\alpha)\,\theta^{\alpha+1/2}\,2^{\alpha-1/2}}.

At :math:`t = 0` it is :math:`\Gamma(\alpha-\tfrac12)/(2\sqrt{\pi}\,\Gamma(\alpha)\,\theta)`
for :math:`\alpha > 1/2` and :math:`+\infty` for :math:`\alpha \le 1/2`: near 0,
:math:`f_{\Gamma-\Gamma}(t) \sim |t|^{2\alpha-1}/(2\cos(\pi\alpha)\Gamma(2\alpha)\theta^{2\alpha})`
for :math:`\alpha < 1/2` (Lemma 14 bounds it above by :math:`f_\Gamma(|t|)`).

The density is evaluated in log space (:func:`logpdf`), so values such as
:math:`10^{-500}` are correct to the requested digits.  The CDF uses the
branch-cut representation of :mod:`arete_proofs.distributions._cut` for :math:`\alpha < 1`
and quadrature of the closed form otherwise.

>>> from mpmath import mp
>>> # alpha = 1: X1 - X2 is Laplace(theta)
>>> mp.almosteq(pdf("0.7", 1, 2), mp.exp(-mp.mpf("0.7") / 2) / 4)
True
>>> # Lemma 14: f_Gamma(|t| + D) P(X <= D) <= f_GG(t) <= f_Gamma(|t|)
>>> from arete_proofs import gamma
>>> t, a, th, D = "0.3", "0.1", 2, 1
>>> gamma.pdf(mp.mpf(t) + D, a, th) * gamma.cdf(D, a, th) <= pdf(t, a, th) <= gamma.pdf(t, a, th)
True
"""

from __future__ import annotations

from mpmath import mp

from ._cut import cut_values
from ._direct import gg_logpdf_besselk, gg_sf_direct
from .._validation import (
    GUARD_DIGITS,
    PrecisionError,
    exponent_digits,
    parse_precision,
    positive,
    real,
    resolve_digits,
)

__all__ = ["pdf", "logpdf", "cdf", "sf", "mean_abs", "var"]


def _params(alpha, theta, d):
    with mp.workdps(parse_precision(d)):
        return positive(alpha, "alpha"), positive(theta, "theta")


def _point(t, d):
    with mp.workdps(parse_precision(d)):
        return real(t, "t")


def logpdf(t, alpha, theta, *, digits=None):
    r""":math:`\ln f_{\Gamma-\Gamma}(t)` from the Bessel-K closed form (Definition 7).

    ``+inf`` at ``t = 0`` when ``alpha <= 1/2``; ``-inf`` at ``t = +-inf``.

    >>> from mpmath import mp
    >>> # far tail: f ~ |t|^(alpha-1) e^(-|t|/theta) / (2^alpha Gamma(alpha) theta^alpha)
    >>> t, a, th = 2000, mp.mpf("0.3"), 1
    >>> lead = (a - 1) * mp.log(t) - t / th - a * mp.log(2) - mp.loggamma(a) - a * mp.log(th)
    >>> abs(logpdf(t, a, th) - lead) < 1e-3
    True
    """
    return _logpdf_d(t, alpha, theta, resolve_digits(digits))


def _logpdf_d(t, alpha, theta, d):
    """:func:`logpdf` with ``d`` already resolved (internal callers may exceed MAX_DIGITS)."""
    alpha, theta = _params(alpha, theta, d)
    t = _point(t, d)
    if mp.isinf(t):
        return mp.ninf
    extra = exponent_digits(t / theta, mp.log(abs(t)) * alpha if t else 0, mp.log(theta) * alpha)
    with mp.workdps(d + GUARD_DIGITS + extra):
        return gg_logpdf_besselk(t, alpha, theta)


def pdf(t, alpha, theta, *, digits=None):
    r"""Density :math:`f_{\Gamma-\Gamma}(t)` (Definition 7; Bessel-K form of Note 1).

    >>> from mpmath import mp
    >>> # symmetric (Lemma 12)
    >>> pdf("-1.5", "0.2", 1) == pdf("1.5", "0.2", 1)
    True
    """
    return _pdf_d(t, alpha, theta, resolve_digits(digits))


def _pdf_d(t, alpha, theta, d):
    """:func:`pdf` with ``d`` already resolved."""
    lp = _logpdf_d(t, alpha, theta, d)
    with mp.workdps(d + GUARD_DIGITS):
        if mp.isinf(lp):
            return mp.inf if lp > 0 else mp.zero
        return mp.exp(lp)


def _sf_nonneg(t, alpha, theta, d):
    """P(X1 - X2 > t) for finite t > 0."""
    if alpha < 1:
        far = _sf_far_tail(t, alpha, theta, d)
        if far is not None:
            return far
        return cut_values([t], alpha, theta, None, "sf", d)[0]
    tol_digits = d + 3
    extra = exponent_digits(t / theta)
    with mp.workdps(d + GUARD_DIGITS + extra):
        v, a = gg_sf_direct(+t, +alpha, +theta, mp.mpf(10) ** -tol_digits)
        if v <= 0 or a / v > mp.mpf(10) ** (GUARD_DIGITS - 3):
            raise PrecisionError("Gamma-Gamma survival function lost too many digits")
        return v


def _sf_far_tail(t, alpha, theta, d):
    r"""Watson's lemma for :math:`\tau = t/\theta \gg 1` (0 < alpha < 1), or ``None``.

    :math:`P(X_1-X_2 > t) = \frac{\sin\pi\alpha}{\pi} e^{-\tau}\int_0^\infty \delta^{-\alpha}
    \varphi(\delta) e^{-\delta\tau} d\delta` with :math:`\varphi = (\delta+2)^{-\alpha}/(1+\delta)`
    (the cut integral of :mod:`~arete_proofs.distributions._cut`), and
    :math:`|\varphi(\delta) - \varphi(0)| \le (1+\alpha/2)\varphi(0)\,\delta`, so the leading term
    :math:`\tau^{\alpha-1}e^{-\tau}/(2^\alpha\Gamma(\alpha))` has relative error at most
    :math:`(1+\alpha/2)(1-\alpha)/\tau`; it is used when that is below :math:`10^{-(d+4)}`.
    """
    with mp.workdps(30):
        if not (1 + alpha / 2) * (1 - alpha) * theta / t <= mp.mpf(10) ** -(d + 4):
            return None
    with mp.workdps(d + GUARD_DIGITS + exponent_digits(t / theta) + 5):
        tau = t / theta
        return tau ** (alpha - 1) * mp.exp(-tau - mp.loggamma(alpha) - alpha * mp.log(2))


def _tail(t, alpha, theta, d, upper):
    """P(X1 - X2 > t) if ``upper`` else P(X1 - X2 <= t), always from the small side (``d`` resolved)."""
    alpha, theta = _params(alpha, theta, d)
    t = _point(t, d)
    if t == 0:
        return mp.mpf(1) / 2
    if mp.isinf(t):
        return mp.one if (t > 0) != upper else mp.zero
    with mp.workdps(parse_precision(d)):  # negation rounds to the context precision
        small_side = (t > 0) == upper  # the asked probability is below 1/2
        s = _sf_nonneg(abs(t), alpha, theta, d)
    if small_side:
        return s
    with mp.workdps(d + GUARD_DIGITS):
        return 1 - s


def sf(t, alpha, theta, *, digits=None):
    r"""Survival function :math:`P(X_1 - X_2 > t)`, accurate in the far tail (no ``1 - cdf``).

    >>> from mpmath import mp
    >>> mp.almosteq(sf(0, "0.3", 1), mp.mpf(1) / 2)
    True
    >>> # alpha = 1: Laplace(theta) tail e^(-t/theta)/2
    >>> mp.almosteq(sf(50, 1, 1, digits=20), mp.exp(-50) / 2, 1e-18)
    True
    """
    return _tail(t, alpha, theta, resolve_digits(digits), upper=True)


def _sf_d(t, alpha, theta, d):
    """:func:`sf` with ``d`` already resolved."""
    return _tail(t, alpha, theta, d, upper=True)


def cdf(t, alpha, theta, *, digits=None):
    r"""CDF :math:`P(X_1 - X_2 \le t)`; for ``t < 0`` computed as ``sf(-t)`` (no cancellation).

    >>> from mpmath import mp
    >>> mp.almosteq(cdf("-0.4", "0.05", 1) + cdf("0.4", "0.05", 1), 1)
    True
    """
    return _tail(t, alpha, theta, resolve_digits(digits), upper=False)


def mean_abs(alpha, theta, *, digits=None):
    r""":math:`E|X_1 - X_2| = 4\theta\,\Gamma(2\alpha) / (4^\alpha\,\Gamma(\alpha)^2)`.

    Derivation: :math:`X_1 - X_2 = S(2B-1)` with :math:`S \sim \Gamma(2\alpha,\theta)`
    independent of :math:`B \sim \mathrm{Beta}(\alpha,\alpha)`, and
    :math:`E|2B-1| = 2\cdot4^{-\alpha}\Gamma(2\alpha)/(\alpha\Gamma(\alpha)^2)`.

    >>> from mpmath import mp
    >>> mp.almosteq(mean_abs(1, 3), 3)  # Laplace(theta): E|X| = theta
    True
    """
    d = resolve_digits(digits)
    alpha, theta = _params(alpha, theta, d)
    with mp.workdps(d + GUARD_DIGITS):
        return 4 * theta * mp.exp(mp.loggamma(2 * alpha) - 2 * mp.loggamma(alpha) - alpha * mp.log(4))


def var(alpha, theta, *, digits=None):
    r""":math:`\operatorname{Var}(X_1 - X_2) = 2\alpha\theta^2`.

    >>> from mpmath import mp
    >>> mp.almosteq(var(1, 3), 18)
    True
    """
    d = resolve_digits(digits)
    alpha, theta = _params(alpha, theta, d)
    with mp.workdps(d + GUARD_DIGITS):
        return 2 * alpha * theta**2
