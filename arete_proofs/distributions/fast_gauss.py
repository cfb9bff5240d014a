r"""Float64 (numpy) density and survival function of :math:`X_1 - X_2 + Y + N`.

The fast companion of :mod:`arete_proofs.distributions.arete_gauss`, with the same
Laplace-mixture formula (see there):
:math:`f_Z(t) = \int_1^\infty p(s)\,k_{s/\theta}(t)\,ds`, evaluated in log space with a fixed
Gauss-Legendre rule: on :math:`[1, 1+4^{k_0}]` after :math:`s = 1 + L w^{1/(1-\alpha)}`
(which removes the :math:`(s-1)^{-\alpha}` endpoint), on the geometric pieces
:math:`[1+4^k, 1+4^{k+1}]`, and on the spike's tail :math:`[P,\infty)` after
:math:`s = P v^{-1/(2\alpha)}` (bounded integrand; rates beyond :math:`10^{100}` are clipped,
where the kernel equals its limit to far below float64 rounding).  The kernel uses
``scipy.special.erfcx`` and ``log_ndtr``.  For :math:`\alpha \ge 1` the exact engine's
Gaussian variance mixture :math:`f_Z(t) = \int_0^\infty f_\Gamma(w;\alpha,2\theta^2)\,
k_{\sqrt{w+\sigma^2}}(t)\,dw` is used instead, with the same Gauss-Legendre rule: on
:math:`[0, w_0]` after :math:`w = w_0 u^{1/\alpha}` (which removes :math:`w^{\alpha-1}`), then on
pieces cut geometrically over the scales of the integrand up to where the Gamma factor is below
:math:`e^{-60}` of its value at the integrand's peak.  Nothing here is a proof: the accuracy
(relative error below ``1e-9`` at the tested parameters, ``sigma > 0``) is measured in
``tests/test_arete_gauss.py`` (``alpha < 1``) and ``tests/test_gauss_alpha_ge_1.py``
(``alpha >= 1``) against the exact engine.

>>> import numpy as np
>>> from arete_proofs.distributions import arete_gauss
>>> a, th, lam, sg = 0.015, 0.854, 0.0, 0.027
>>> f = pdf(np.array([0.0, 0.0016, 1.0016]), a, th, lam, sg)
>>> bool(np.all(np.diff(f) < 0))                       # decreasing on t > 0
True
>>> exact = float(arete_gauss.pdf("1.0016", a, th, lam, sg, digits=17))
>>> bool(abs(f[2] / exact - 1) < 1e-9)                 # agrees with the exact engine
True
>>> # alpha = 1, lam = 0: Laplace(theta) + N(0, sigma^2), f_Z(0) = e^(s^2/2) erfc(s/sqrt 2) / (2 theta), s = sigma/theta
>>> from scipy.special import erfc
>>> bool(abs(pdf(0.0, 1.0, 2.0, 0.0, 0.6) / (np.exp(0.045) * erfc(0.3 / np.sqrt(2)) / 4) - 1) < 1e-12)
True
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special

__all__ = ["pdf", "logpdf", "sf", "cdf"]

_N = 48  # Gauss-Legendre nodes per piece
_PEAK = (-8, -4, -2, -1, 0, 1, 2, 4, 8)  # cut points around a narrow peak, in widths
_B_MAX = 1e100


def _check(alpha, theta, lam, sigma):
    for name, v, strict in (("alpha", alpha, True), ("theta", theta, True), ("lam", lam, False),
                            ("sigma", sigma, True)):
        v = float(v)
        if not math.isfinite(v) or v < 0 or (strict and v == 0):
            kind = "positive" if strict else "non-negative"
            raise ValueError(f"{name} must be {kind} (and finite), got {v!r}")
    return float(alpha), float(theta), float(lam), float(sigma)


@lru_cache(maxsize=4)
def _legendre(n):
    """The n-point Gauss-Legendre rule on [-1, 1] (computed once per n; read-only arrays)."""
    x, w = np.polynomial.legendre.leggauss(n)
    x.flags.writeable = w.flags.writeable = False
    return x, w


def _gl(a, b):
    x, w = _legendre(_N)
    return (a + b) / 2 + (b - a) / 2 * x, (b - a) / 2 * w


def _nodes(alpha, theta, lam, sigma, tmax):
    """(s, log weight) of the mixture rule; the weight includes p(s) and the Jacobians."""
    logK = math.log(2 * math.sin(math.pi * alpha) / math.pi)
    scales = [theta / sigma] + ([theta / lam] if lam else []) + ([theta / tmax] if tmax else [])
    top = 16 * max(max(scales), 1.0)
    k0 = math.floor(math.log(min(1 / 64, theta / (4 * tmax) if tmax else 1), 4))
    L = 4.0 ** k0
    ss, lw = [], []
    # [1, 1 + L]: s = 1 + L w^(1/(1-a)), (s-1)^(-a) ds = L^(1-a)/(1-a) dw
    w, gw = _gl(0.0, 1.0)
    x = L * w ** (1 / (1 - alpha))
    s = 1 + x
    ss.append(s)
    lw.append(np.log(gw) + (1 - alpha) * math.log(L) - math.log(1 - alpha) + logK
              - alpha * np.log(s + 1) - np.log(s))
    k = k0
    while 1 + 4.0 ** k < top:
        s, gw = _gl(1 + 4.0 ** k, 1 + 4.0 ** (k + 1))
        ss.append(s)
        lw.append(np.log(gw) + logK - alpha * np.log((s - 1) * (s + 1)) - np.log(s))
        k += 1
    P = 1 + 4.0 ** k
    v, gw = _gl(0.0, 1.0)
    with np.errstate(over="ignore"):
        s = np.minimum(P * np.exp(-np.log(v) / (2 * alpha)), _B_MAX * theta)
    ss.append(s)
    lw.append(np.log(gw) + logK - 2 * alpha * math.log(P) - math.log(2 * alpha)
              - alpha * np.log1p(-1 / (s * s)))
    return np.concatenate(ss), np.concatenate(lw)


def _log_A(b, t, sigma):
    w = (b * sigma - t / sigma) / math.sqrt(2)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        pos = -t * t / (2 * sigma * sigma) + np.log(special.erfcx(np.maximum(w, 0)))
        neg = b * sigma * b * sigma / 2 - b * t + np.log(special.erfc(np.minimum(w, 0)))
    return np.where(w >= 0, pos, neg)


def _log_one(kind, b, t, sigma):
    lp, lm = _log_A(b, t, sigma), _log_A(b, -t, sigma)
    if kind == "pdf":
        return np.log(b / 4) + np.logaddexp(lp, lm)
    # S_b(t) = Phibar(t/sigma) + (A(t) - A(-t))/4, t >= 0 (A(t) >= A(-t))
    with np.errstate(divide="ignore"):
        diff = lp - math.log(4) + np.log(-np.expm1(np.minimum(lm - lp, 0)))
    return np.logaddexp(special.log_ndtr(-t / sigma), diff)


def _log_kernel(kind, b, c, t, sigma):
    lb = _log_one(kind, b, t, sigma)
    if c is None:
        return lb
    lc = _log_one(kind, c, t, sigma)
    x = 2 * np.log(c) + lb
    y = 2 * np.log(b) + lc
    m = np.maximum(x, y)
    with np.errstate(divide="ignore"):
        num = m + np.log(-np.expm1(-np.abs(x - y)))
        den = np.log(np.abs(c - b)) + np.log(c + b)
    return num - den


def _vm_nodes(alpha, theta, lam, sigma, t):
    r"""(w, log weight), each of shape (nodes, len(t)), of the variance-mixture rule (alpha >= 1).

    The weight includes the Gamma density.  The cut points are shared by all ``t`` except the nine
    around each t's own peak of the integrand, at :math:`w + \sigma^2 = t\theta` with width
    :math:`\sqrt{t\theta^3}` (used where the peak is narrow; elsewhere they collapse to ``lo``).
    """
    k2 = 2 * theta * theta
    m, sd = alpha * k2, math.sqrt(alpha) * k2
    tmax = float(t.max()) if t.size else 0.0
    scales = [sigma * sigma, k2, m] + ([lam * lam] if lam else []) + ([tmax * tmax, tmax * theta] if tmax else [])
    lo = min(scales) / 64
    # beyond hi the Gamma factor is below e^-60 of its value at the integrand's peak
    hi = 4 * max(max(scales), m + 8 * sd) + 8 * tmax * theta + 60 * k2
    pts = {lo}
    x = lo
    while x < hi:
        x *= 4
        pts.add(x)
    if sd < m / 2:  # the bulk of W is narrow (large alpha)
        pts.update(m + j * sd for j in _PEAK if lo < m + j * sd < hi)
    glob = np.array(sorted(pts))
    c, h = t * theta - sigma * sigma, np.sqrt(t * theta**3)
    peak = np.clip(c[None, :] + np.array(_PEAK, dtype=float)[:, None] * h[None, :], lo, hi)
    peak = np.where((h < c / 2)[None, :], peak, lo)
    cuts = np.sort(np.concatenate([np.repeat(glob[:, None], t.size, axis=1), peak]), axis=0)
    a, b = cuts[:-1], cuts[1:]
    x, gw = _legendre(_N)
    half = ((b - a) / 2)[:, None, :]
    w = (((a + b) / 2)[:, None, :] + half * x[None, :, None]).reshape(-1, t.size)
    lg = math.lgamma(alpha) + alpha * math.log(k2)
    with np.errstate(divide="ignore"):  # collapsed pieces have weight 0
        lw = np.log(half * gw[None, :, None]).reshape(-1, t.size) + (alpha - 1) * np.log(w) - w / k2 - lg
    # [0, lo]: w = lo u^(1/alpha), w^(alpha-1) dw = lo^alpha / alpha du
    u, gu = _gl(0.0, 1.0)
    w0 = lo * u ** (1 / alpha)
    lw0 = np.log(gu) + alpha * math.log(lo) - math.log(alpha) - w0 / k2 - lg
    return (np.concatenate([np.repeat(w0[:, None], t.size, axis=1), w]),
            np.concatenate([np.repeat(lw0[:, None], t.size, axis=1), lw]))


def _log_vm_kernel(kind, c, t, s):
    """ln of the density (or survival function, t >= 0) of N(0, s^2) + Laplace(1/c) (c None: no Laplace)."""
    if c is not None:
        return _log_one(kind, c, t, s)
    if kind == "pdf":
        return -t * t / (2 * s * s) - np.log(s) - 0.5 * math.log(2 * math.pi)
    return special.log_ndtr(-t / s)


def _log_mixture(kind, t, alpha, theta, lam, sigma):
    t = np.abs(np.asarray(t, dtype=float))
    flat = t.ravel()
    tmax = float(flat.max()) if flat.size else 0.0
    if alpha >= 1:
        w, lw = _vm_nodes(alpha, theta, lam, sigma, flat)
        lk = _log_vm_kernel(kind, 1 / lam if lam else None, flat[None, :], np.sqrt(w + sigma * sigma))
        return special.logsumexp(lw + lk, axis=0).reshape(t.shape)
    s, lw = _nodes(alpha, theta, lam, sigma, tmax)
    c = 1 / lam if lam else None
    b = (s / theta)[:, None]
    lk = _log_kernel(kind, b, c, flat[None, :], sigma)
    out = special.logsumexp(lw[:, None] + lk, axis=0)
    return out.reshape(t.shape)


def logpdf(t, alpha, theta, lam, sigma):
    r""":math:`\ln f_Z(t)` for an array ``t`` (float64, ``sigma > 0``; any ``alpha > 0``).

    >>> import numpy as np
    >>> lf = logpdf(np.array([-0.3, 0.3]), 0.3, 1.0, 0.2, 0.1)
    >>> bool(lf[0] == lf[1])                              # symmetric
    True
    """
    alpha, theta, lam, sigma = _check(alpha, theta, lam, sigma)
    return _log_mixture("pdf", t, alpha, theta, lam, sigma)


def pdf(t, alpha, theta, lam, sigma):
    r"""Density :math:`f_Z(t)` (float64).

    >>> import numpy as np
    >>> t = np.linspace(-3, 3, 601)
    >>> bool(abs(np.trapezoid(pdf(t, 0.3, 1.0, 0.2, 0.1), t) - 1) < 0.02)   # most of the mass
    True
    """
    return np.exp(logpdf(t, alpha, theta, lam, sigma))


def sf(t, alpha, theta, lam, sigma):
    r""":math:`P(Z > t)` (float64; the small side computed directly).

    >>> float(sf(0.0, 0.3, 1.0, 0.2, 0.1))
    0.5
    """
    alpha, theta, lam, sigma = _check(alpha, theta, lam, sigma)
    t = np.asarray(t, dtype=float)
    small = np.exp(_log_mixture("sf", t, alpha, theta, lam, sigma))
    out = np.where(t >= 0, small, 1 - small)
    return np.where(t == 0, 0.5, out)


def cdf(t, alpha, theta, lam, sigma):
    r""":math:`P(Z \le t) = P(Z > -t)` (float64).

    >>> import numpy as np
    >>> bool(np.isclose(cdf(-0.4, 0.3, 1.0, 0.2, 0.1), sf(0.4, 0.3, 1.0, 0.2, 0.1), rtol=0, atol=0))
    True
    """
    return sf(-np.asarray(t, dtype=float), alpha, theta, lam, sigma)
