"""An independent reference for the noise with a Gaussian part, shared by the tests.

Fourier inversion of the characteristic function of Z = X1 - X2 + Y + N,
cf(u) = (1 + theta^2 u^2)^(-alpha) (1 + lam^2 u^2)^(-1) exp(-sigma^2 u^2 / 2), by mpmath
quadrature: a different formula from the engine's Laplace- or variance-mixture integrals
(arete_proofs.distributions.arete_gauss), so agreement is evidence, not a tautology.
"""

from __future__ import annotations

from mpmath import mp


def cf(u, a, th, lam, sg):
    """The characteristic function of X1 - X2 + Y + N at u (real, even in u)."""
    return (1 + th**2 * u**2) ** (-a) * (1 + lam**2 * u**2) ** (-1) * mp.exp(-sg**2 * u**2 / 2)


def fourier(kind, t, a, th, lam, sg, dps=15):
    """pdf = (1/pi) int_0^inf cos(ut) cf du;  sf = 1/2 - (1/pi) int_0^inf sin(ut)/u cf du."""
    with mp.workdps(dps + 10):
        t, a, th, lam, sg = (mp.mpf(x) for x in (t, a, th, lam, sg))
        U = mp.sqrt(2 * mp.log(10) * (dps + 8)) / sg  # cf < 10^-(dps+8) beyond U
        if kind == "pdf":
            g = lambda u: cf(u, a, th, lam, sg) * mp.cos(u * t)  # noqa: E731
        else:
            g = lambda u: cf(u, a, th, lam, sg) * (mp.sin(u * t) / u if u else t)  # noqa: E731
        scales = [1 / th] + ([1 / lam] if lam else [])
        n = int(U * abs(t)) + 16  # several subintervals per period of the oscillation
        pts = {mp.zero} | {s * mp.mpf(2) ** k for s in scales for k in range(-8, 30) if s * 2**k < U}
        pts |= {U * mp.mpf(k) / n for k in range(1, n + 1)}
        v = mp.quad(g, sorted(pts)) / mp.pi
        return v if kind == "pdf" else mp.mpf(1) / 2 - v
