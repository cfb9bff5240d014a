r"""Direct convolution with the Bessel-K Gamma-Gamma density (alpha > 1/2).

For :math:`\alpha > 1/2` the Gamma-Gamma density is bounded (its only
irregularity is a :math:`|x|^{2\alpha-1}` cusp at 0), so Definition 9 can be
integrated as written:

.. math::

    f_A(t) = \int_{-\infty}^{\infty} f_{\Gamma-\Gamma}(x)\, f_L(t-x)\, dx, \qquad
    P(Z > t) = \int_{-\infty}^{\infty} f_{\Gamma-\Gamma}(x)\, P(Y > t-x)\, dx.

All integrands are positive, so the relative accuracy of the quadrature is the
relative accuracy of the result.  The real line is cut at 0 (cusp), at ``t``
(the Laplace kink) and at geometric multiples of :math:`\theta` and
:math:`\lambda` around both, so that every piece is smooth on its own scale.

This route evaluates a Bessel function per node (mpmath's ``besselk`` takes
1-90 ms for integer orders, i.e. half-integer :math:`\alpha`), so the engine
does not use it for :math:`f_A`: it serves as an independent second route in
the tests for :math:`1/2 < \alpha < 1`, where the branch cut applies too.
The module also holds the Bessel-K log-density used by
:mod:`arete_proofs.distributions.gamma_gamma` and the Gamma-Gamma survival function for
:math:`\alpha \ge 1`.
"""

from __future__ import annotations

from mpmath import mp

from ._tanhsinh import integrate

__all__ = ["gg_logpdf_besselk", "arete_direct", "gg_sf_direct"]


def gg_logpdf_besselk(x, alpha, theta):
    r""":math:`\ln f_{\Gamma-\Gamma}(x)` from the closed form, at the working precision.

    .. math::

        f_{\Gamma-\Gamma}(x) = \frac{|x|^{\alpha-1/2} K_{\alpha-1/2}(|x|/\theta)}
        {\sqrt{\pi}\,\Gamma(\alpha)\,\theta^{\alpha+1/2}\,2^{\alpha-1/2}}
    """
    x = abs(x)
    half = mp.mpf(1) / 2
    if x == 0:
        if alpha <= half:
            return mp.inf
        return mp.loggamma(alpha - half) - mp.log(2 * mp.sqrt(mp.pi) * theta) - mp.loggamma(alpha)
    nu = alpha - half
    k = mp.besselk(nu, x / theta)
    return (
        nu * mp.log(x)
        + mp.log(k)
        - half * mp.log(mp.pi)
        - mp.loggamma(alpha)
        - (alpha + half) * mp.log(theta)
        - nu * mp.log(2)
    )


def _breakpoints(t, theta, lam):
    pts = {mp.zero, t}
    for s in (theta, lam):
        for k in range(-2, 4):
            step = s * mp.mpf(4) ** k
            for c in (mp.zero, t):
                pts.add(c - step)
                pts.add(c + step)
    return sorted(pts)


def _pieces(t, theta, lam):
    pts = _breakpoints(t, theta, lam)
    scale = theta * lam / (theta + lam)
    pieces = [(mp.ninf, pts[0], scale)]
    pieces += [(a, b) for a, b in zip(pts, pts[1:])]
    pieces.append((pts[-1], mp.inf, scale))
    return pieces


def arete_direct(t, alpha, theta, lam, kind, tol):
    """pdf or sf of Arete at ``t >= 0`` by direct convolution (alpha > 1/2)."""
    lam2 = 2 * lam

    def gg(x):
        return mp.exp(gg_logpdf_besselk(x, alpha, theta))

    if kind == "pdf":
        def f(x, da, db):
            return gg(x) * mp.exp(-abs(t - x) / lam) / lam2
    else:
        def f(x, da, db):
            u = t - x
            tail = mp.exp(-abs(u) / lam) / 2
            return gg(x) * (tail if u >= 0 else 1 - tail)

    v, err, a = integrate(f, _pieces(t, theta, lam), tol, mp.prec)
    return v, a


def gg_sf_direct(t, alpha, theta, tol):
    r"""P(X1 - X2 > t) for ``t > 0`` and alpha >= 1, without Bessel functions.

    .. math::

        P(X_1 - X_2 > t) = \int_0^\infty f_\Gamma(x)\, P(X_1 > t + x)\, dx,

    with the Gamma survival function from :func:`mpmath.gammainc`.  For
    :math:`\alpha \ge 1` the integrand is bounded and positive.
    """
    lg = mp.loggamma(alpha) + alpha * mp.log(theta)

    def f(x, da, db):
        if x == 0:
            dens = mp.zero if alpha > 1 else 1 / theta
        else:
            dens = mp.exp((alpha - 1) * mp.log(x) - x / theta - lg)
        return dens * mp.gammainc(alpha, (t + x) / theta, mp.inf, regularized=True)

    mean = alpha * theta
    pts = sorted({mp.zero} | {mean * mp.mpf(4) ** k for k in range(-3, 3)})
    pieces = [(a, b) for a, b in zip(pts, pts[1:])] + [(pts[-1], mp.inf, theta)]
    v, err, a = integrate(f, pieces, tol, mp.prec)
    return v, a
