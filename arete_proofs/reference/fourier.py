r"""Fourier inversion of the Arete characteristic function along the real axis.

:func:`fourier_pdf` -- ``f_A(t) = (1/pi) int_0^inf cos(u t) (1 + theta^2 u^2)^-alpha
/ (1 + lam^2 u^2) du``: the characteristic functions of the Gamma-Gamma and
Laplace parts (Definitions 7, 9 and 22, 23 of the paper) multiplied and
inverted; Gauss-Legendre between the zeros of the cosine and a
Cohen-Rodriguez Villegas-Zagier accelerated alternating tail.  The second
independent quadrature for the Arete density (besides
:mod:`~arete_proofs.reference.autocorrelation`), trusted only in
:data:`FOURIER_RANGE`.  Details: :mod:`arete_proofs.reference`.
"""

from __future__ import annotations

from mpmath import mp

from .._validation import PrecisionError, parse_precision
from ._common import _abs, _geometric, _integrate, _parse, _pieces_on, _validated

__all__ = [
    "fourier_pdf",
    "FOURIER_RANGE",
]


#: Parameter box in which :func:`fourier_pdf` is trusted (outside: ValueError).
FOURIER_RANGE = {
    "alpha": ("0.01", "5"),
    "theta": ("0.01", "100"),
    "lam": ("0.01", "100"),
    "|t|": ("0.01", "100"),  # or t == 0
    "|t|/max(theta, lam)": (None, "30"),
    "digits": (1, 40),
}


def _cvz_alternating(terms):
    """Cohen-Rodriguez Villegas-Zagier: ``sum_k (-1)^k a_k`` from ``a_0..a_{n-1}``."""
    n = len(terms)
    dd = (3 + mp.sqrt(8)) ** n
    dd = (dd + 1 / dd) / 2
    b = mp.mpf(-1)
    c = -dd
    s = mp.zero
    for k in range(n):
        c = b - c
        s += c * terms[k]
        b = (k + n) * (k - n) * b / ((k + mp.mpf(1) / 2) * (k + 1))
    return s / dd


def _fourier_run(t, alpha, theta, lam, d, variant):
    s, m = min(theta, lam), max(theta, lam)
    ratio = (4, 3)[variant]

    def phi(u):
        return (1 + (theta * u) ** 2) ** (-alpha) / (1 + (lam * u) ** 2)

    if t == 0:
        U = (4, 6)[variant] / s
        pieces = _pieces_on(phi, [mp.zero] + _geometric(1 / (4 * m), U, ratio))
        pieces.append((lambda w: phi(U / w) * U / w**2, mp.zero, mp.one))
        return _integrate(pieces, d, "fourier_pdf") / mp.pi

    half = mp.pi / t

    def z(k):
        return (k + mp.mpf(1) / 2) * half

    F = lambda u: mp.cos(u * t) * phi(u)
    # Head [0, z_K]: Gauss-Legendre between breakpoints (every `chunk`-th zero of
    # the cosine, plus a geometric grid for the scales of phi).
    U = (2, 5)[variant] / m
    chunk = (8, 6)[variant]
    K = int(mp.ceil(U / half))
    pts = {mp.zero, z(K)}
    pts.update(z(k) for k in range(0, K, chunk))
    pts.update(_geometric(1 / (4 * m), z(K), ratio)[:-1])
    pts = sorted(pts)
    head, err = mp.quad(F, pts, error=True, method="gauss-legendre")
    # Tail: half-period integrals alternate in sign; Cohen-Villegas-Zagier with
    # n terms has error ~5.83^-n.
    n = int(mp.dps * 2.302585 / 1.7627) + 10
    terms = []
    for j in range(n):
        v, e = mp.quad(F, [z(K + j), z(K + j + 1)], error=True, method="gauss-legendre")
        terms.append(v if j % 2 == 0 else -v)
        err += e
    result = (head + _cvz_alternating(terms)) / mp.pi
    if result <= 0:
        raise PrecisionError(f"fourier_pdf: cancellation left {result}")
    if err / mp.pi > mp.mpf(10) ** (-(d + 3)) * result:
        with mp.workdps(8):
            raise PrecisionError(
                f"fourier_pdf: quadrature error estimate {mp.nstr(err / mp.pi / result, 3)} "
                f"(relative) exceeds 1e-{d + 3}"
            )
    return result


def fourier_pdf(t, alpha, theta, lam, digits=None):
    r"""``f_A(t) = (1/pi) int_0^inf cos(u t) (1 + theta^2 u^2)^-alpha / (1 + lam^2 u^2) du``.

    Real-axis Fourier inversion; only for moderate parameters (see
    ``FOURIER_RANGE`` and :mod:`arete_proofs.reference`), ``ValueError`` outside.

    >>> from mpmath import mp
    >>> mp.almosteq(fourier_pdf(0, 1, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    t = _abs(t, d)
    with mp.workdps(parse_precision(d)):
        # bounds with a relative slack of 1e-12, so that 0.01 given as a float,
        # a decimal string or a 53-bit mpf is accepted alike
        lo, hi = mp.mpf("0.01") * (1 - mp.mpf(10) ** -12), 100 * (1 + mp.mpf(10) ** -12)
        if not lo <= a <= 5 * (1 + mp.mpf(10) ** -12):
            raise ValueError(f"fourier_pdf: alpha must be in [0.01, 5], got {alpha!r}")
        for name, v, raw in (("theta", th, theta), ("lam", lam, lam)):
            if not lo <= v <= hi:
                raise ValueError(f"fourier_pdf: {name} must be in [0.01, 100], got {raw!r}")
        if t != 0 and not lo <= t <= hi:
            raise ValueError(f"fourier_pdf: |t| must be 0 or in [0.01, 100], got {t}")
        m, s = max(th, lam), min(th, lam)
        if t > 30 * m * (1 + mp.mpf(10) ** -12):
            raise ValueError(
                "fourier_pdf: |t| > 30 max(theta, lam): f_A(t) is too small relative to f_A(0) "
                "for Fourier inversion"
            )
    if d > 40:
        raise ValueError(f"fourier_pdf: digits must be <= 40, got {d}")
    # the integrand is O(1) while the answer is ~f_A(t) >= f_A(0) e^{-t/m}/poly, f_A(0) >~ 1/(4m)
    extra = int(mp.ceil(mp.log10(mp.e) * t / m + mp.log10(1 + t / s) + mp.log10(1 + 4 * m))) + 2
    return _validated(lambda v: _fourier_run(t, a, th, lam, d, v), d, "fourier_pdf", extra)
