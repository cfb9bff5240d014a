r"""Vectorized float64 densities of the Gamma-Gamma and Arete distributions.

This is the fast companion of the arbitrary-precision engine
(:mod:`arete_proofs.distributions.arete`, :mod:`arete_proofs.distributions.gamma_gamma`): numpy arrays in,
numpy arrays out, for plots, grids and statistical tests.  Nothing here is a
proof; every accuracy claim below is a *measured* bound that ``tests/test_fast.py``
checks against independent high-precision references.

Notation: ``tau = |t|/theta``, ``rho = theta/lam``, ``c0 = 1 + rho``,
``n = round(alpha)`` (integrations by parts), ``beta = n - alpha`` (in ``[-1/2, 1/2]``).

**Gamma-Gamma** (``X1 - X2``).
The density is the Bessel-K form

.. math::

    f_{GG}(t) = \frac{|t|^{\alpha-1/2} K_{\alpha-1/2}(|t|/\theta)}
                     {\sqrt\pi\,\Gamma(\alpha)\,\theta^{\alpha+1/2}\,2^{\alpha-1/2}},

evaluated in log space with the exponentially scaled ``scipy.special.kve``.  For
``tau < 1e-9`` (and where ``kve`` over/underflows) the two-term small-argument
expansion ``K_mu(z) = Gamma(mu)/2 (z/2)^-mu [1 + Gamma(-mu)/Gamma(mu) (z/2)^(2 mu)]``,
``mu = |alpha - 1/2|``, is used instead (relative error ``O(tau^2 ln tau)``); for
``alpha < 1/2`` it is ``f = |t|^(2a-1)/(2 cos(pi a) Gamma(2a) theta^(2a)) *
(1 + Gamma(a-1/2)/Gamma(1/2-a) (tau/2)^(1-2a))``, and for ``mu < 0.05`` (near the
logarithmic case ``alpha = 1/2``, ``K_0``) the equivalent ``cosh``/``sinh`` form
without cancellation is used.

The survival function uses the branch-cut representation (valid for all ``alpha``
after ``n`` integrations by parts (finite-part continuation in ``alpha``), which
turn the divergent ``(sigma-1)^{-alpha}`` into the integrable ``x^beta``; all integrands stay
non-negative, so nothing cancels):

.. math::

    \bar F_{GG}(t) = \frac{e^{-\tau}}{\Gamma(\alpha)\Gamma(1+\beta)}
      \int_0^\infty x^{\beta} (-\partial_x)^n\Big[e^{-x\tau}\frac{(x+2)^{-\alpha}}{1+x}\Big] dx .

(For ``alpha < 1`` this is ``sin(pi alpha)/pi * int_1^inf (s^2-1)^{-alpha} e^{-s tau}/s ds``.)

**Arete** (``X1 - X2 + Y``).
Writing ``rho^2/(rho^2 - s^2) = (rho/2)[1/(rho - s) + 1/(rho + s)]`` in the
branch-cut formula and removing the pole at ``s = rho`` analytically gives a
decomposition into three **non-negative** terms, valid for every ``rho`` (no
principal value, no special case at ``rho = 1``, no cancellation as
``rho -> 1``) and, by analytic continuation, for every ``alpha > 0``:

.. math::

    f_A(t) &= T_J + T_B + T_A, \\
    T_J &= \frac{c_0^{-\alpha}}{2\lambda\Gamma(\alpha)}
           \int_0^\tau u^{\alpha-1} e^{-u} e^{-\rho(\tau-u)} du, \\
    T_B &= \frac{c_0^{-2\alpha}}{2\lambda} e^{-\tau} S(\alpha, c_0\tau),
           \qquad S(a,z) = e^z\,\Gamma(a,z)/\Gamma(a), \\
    T_A &= \frac{e^{-\tau}}{\theta\,\Gamma(\alpha)\Gamma(1+\beta)}
           \int_0^\infty x^{\beta}(-\partial_x)^n\big[e^{-x\tau}E(x)\big]dx, \\
    E(x) &= \rho^2\,\frac{c_0^{-\alpha} - (x+2)^{-\alpha}}{(x+1-\rho)(x+c_0)} \;\ge 0 .

``T_J`` and ``T_B`` are closed forms (incomplete gamma functions, series,
continued fractions); ``T_A`` is a Gauss-Jacobi rule on ``[0, x0]`` plus
Gauss-Legendre rules on pieces of length 1.5 in ``ln x``.  The nodes and the
``t``-independent weights are built once per parameter set (and per range of
``tau``), after which a whole array of ``t`` costs one matrix product with
``exp(-x_k tau_j)``.  Everything is accumulated in log space, so ``logpdf`` is
accurate far below the float range.  The survival function is

.. math::

    \bar F_A(t) = \tfrac12 c_0^{-\alpha}\Big[Q(\alpha,\tau) + \tfrac{1}{\Gamma(\alpha)}\!\int_0^\tau\!\! u^{\alpha-1}e^{-u-\rho(\tau-u)}du\Big]
      + \frac{e^{-\tau}}{\Gamma(\alpha)\Gamma(1+\beta)}\int_0^\infty x^{\beta}(-\partial_x)^n
        \Big[e^{-x\tau}\frac{E(x) + \rho c_0^{-\alpha}/(2(x+c_0))}{1+x}\Big]dx .

Accuracy.  Over ``alpha in [1e-7, 10]``, ``theta, lam in [1e-3, 1e3]`` and
``0 <= |t| <= 1000 theta`` every log-value (``logpdf``, ``ln sf``, ``gg_logpdf``,
``ln gg_sf``) has absolute error below ``1e-13 * max(1, |value|)``; i.e. the values
themselves have relative error below ``1e-13 * max(1, |ln value|)``.  The factor
``|ln value|`` (about ``tau``) is intrinsic: ``f`` is that sensitive to the rounding of
``t``.  Measured worst case over a 270-point sweep of that box (``alpha`` from
``1e-7`` to ``10``, ``rho`` from ``1e-6`` to ``1e6`` including ``rho = 1`` and
``1 + 2e-9``, ``|t|/theta`` from ``1e-300`` to ``1000``) against 20-digit mpmath
references: ``2.2e-15 * max(1, |ln f|)`` (pdf), ``5.4e-15 * max(1, |ln sf|)`` (sf),
i.e. the stated bound has a safety factor of about 20.  The result can differ in the
last bits depending on which other ``t`` are in the same call (the quadrature nodes
are chosen per range of ``tau``).

Cost: one call builds ``O(16 log(X/x0)/1.5)`` nodes per decade-triple of ``tau``
(typically 100-400 nodes) and then does one ``(len(t) x nodes)`` exponential and
matrix product; ``10^5`` points take about 0.25-0.5 s (``pdf``), 0.4 s (``sf``),
0.06 s (``gg_pdf``).  ``alpha >= 1/2`` multiplies the product by ``round(alpha) + 1``
columns (negligible).  ``gg_sf`` with ``alpha < 0.25`` at ``tau`` down to ``1e-40``
needs nodes up to ``x ~ 45/tau``, so its cost grows like ``ln(1/tau)``.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special as sc

from .._validation import PrecisionError

__all__ = ["gg_pdf", "gg_logpdf", "gg_cdf", "gg_sf", "pdf", "logpdf", "cdf", "sf", "mean_abs", "var"]

# --- validation ---------------------------------------------------------------


def _param(value, name: str) -> float:
    """Convert a distribution parameter to float and require ``0 < value < inf``."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a positive real number, got {value!r}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive real number, got {value!r}") from None
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a scalar, got shape {arr.shape}")
    x = float(arr)
    if math.isnan(x):
        raise ValueError(f"{name} must not be NaN")
    if (math.isinf(x) or x == 0) and _finite_positive(value):  # e.g. alpha = e^(-eps/4) as an mpf
        raise ValueError(f"{name} = {value!r} is outside the float64 range of arete_proofs.distributions.fast "
                         "(it rounds to 0 or inf); use the arbitrary-precision arete_proofs.arete instead")
    if math.isinf(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if x <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    return x


def _finite_positive(value):
    try:
        return not isinstance(value, str) and 0 < value < float("inf")
    except TypeError:  # pragma: no cover - exotic types
        return False


def _t_array(t):
    """``t`` as a float64 array (``scalar`` flag); NaN is rejected, +-inf allowed."""
    if isinstance(t, bool):
        raise ValueError(f"t must be real, got {t!r}")
    try:
        arr = np.asarray(t, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"t must be real, got {t!r}") from None
    if np.isnan(arr).any():
        raise ValueError("t must not be NaN")
    return arr, arr.ndim == 0


def _out(arr, scalar):
    return float(arr) if scalar else arr


# ---------------------------------------------------------------------------
# quadrature rules
# ---------------------------------------------------------------------------

_NJ = 16  # Gauss-Jacobi nodes on [0, x0]
_NL = 16  # Gauss-Legendre nodes per piece in ln x
_HLOG = 1.5  # length of a piece in ln x
_TAU_CUT = 45.0  # exp(-45) ~ 3e-20: nodes beyond x = 45/tau_min are not needed
_CHUNK = 1 << 21  # elements of exp(-x tau) materialised at once
MAX_FAST_ALPHA = 50.0  # measured: 4e-13 at 50, 7e-8 at 100 (cost ~ round(alpha)^2: 1000 takes minutes)


@lru_cache(maxsize=None)
def _gl(n):
    s, w = np.polynomial.legendre.leggauss(n)
    return s, w


@lru_cache(maxsize=256)
def _gj(n, beta):
    s, w = sc.roots_jacobi(n, 0.0, beta)
    return s, w


def _nodes(beta, tau_lo, tau_hi, cap):
    """Nodes/weights for ``int_0^X x^beta g(x) dx`` adapted to ``tau in [tau_lo, tau_hi]``.

    Gauss-Jacobi (weight ``x^beta``) on ``[0, x0]`` with ``x0 = min(1/2, 1/tau_hi)``,
    then Gauss-Legendre pieces of length ``_HLOG`` in ``u = ln x`` up to
    ``X = min(cap, 45/tau_lo)``.  The returned weights include ``x^beta``.
    """
    x0 = 0.5 if tau_hi <= 2.0 else 1.0 / tau_hi
    X = cap if tau_lo <= 0 else min(cap, _TAU_CUT / tau_lo)
    s, w = _gj(_NJ, float(beta))
    xs = [x0 * (1.0 + s) / 2.0]
    ws = [w * (x0 / 2.0) ** (beta + 1.0)]
    if X > x0 * 1.0001:
        u0, u1 = math.log(x0), math.log(X)
        m = max(1, int(math.ceil((u1 - u0) / _HLOG)))
        edges = np.linspace(u0, u1, m + 1)
        sg, wg = _gl(_NL)
        h = np.diff(edges) / 2.0
        mid = (edges[:-1] + edges[1:]) / 2.0
        u = (mid[:, None] + h[:, None] * sg[None, :]).ravel()
        wu = (h[:, None] * wg[None, :]).ravel()
        x = np.exp(u)
        xs.append(x)
        ws.append(wu * np.exp((beta + 1.0) * u))
    return np.concatenate(xs), np.concatenate(ws)


# ---------------------------------------------------------------------------
# derivative tables: row k holds (-d/dx)^k of a completely monotone factor
# ---------------------------------------------------------------------------


def _pow_derivs(a, s, x, n):
    """Rows ``k = 0..n`` of ``(-d/dx)^k (x+s)^(-a)`` = ``(a)_k (x+s)^(-a-k)``."""
    xs = x + s
    out = np.empty((n + 1, x.size))
    out[0] = xs ** (-a)
    for k in range(1, n + 1):
        out[k] = out[k - 1] * (a + k - 1) / xs
    return out


def _leibniz(F, G):
    """``(-D)^k (f g) = sum_i C(k,i) (-D)^i f (-D)^(k-i) g`` for all rows."""
    n = F.shape[0] - 1
    out = np.zeros_like(F)
    for k in range(n + 1):
        for i in range(k + 1):
            out[k] += math.comb(k, i) * F[i] * G[k - i]
    return out


def _Mj(j, alpha, q, onepq):
    """``M_j(q) = int_0^1 s^j (1+s q)^(-(alpha+1+j)) ds`` for ``q > -1`` (``onepq = 1+q``)."""
    m = alpha + 1.0 + j
    out = np.empty_like(q)
    # (B) 0 <= q <= 1: Pfaff transform, positive series in r = q/(1+q) <= 1/2
    B = (q >= 0) & (q <= 1)
    if B.any():
        r = q[B] / onepq[B]
        term = np.ones_like(r)
        tot = np.ones_like(r)
        for l in range(1, 160):
            term = term * ((m + l - 1) / (j + 1 + l)) * r
            tot += term
        out[B] = onepq[B] ** (-m) / (j + 1) * tot
    # (C) q > 1: incomplete beta closed form
    C = q > 1
    if C.any():
        qc = q[C]
        r = qc / onepq[C]
        out[C] = qc ** (-(j + 1.0)) * sc.beta(j + 1.0, alpha) * sc.betainc(j + 1.0, alpha, r)
    # (D) -1/2 < q < 0: positive series in -q
    D = (q < 0) & (q > -0.5)
    if D.any():
        y = -q[D]
        term = np.ones_like(y)
        tot = np.full_like(y, 1.0 / (j + 1))
        for l in range(1, 260):
            term = term * ((m + l - 1) / l) * y
            tot += term / (j + 1 + l)
        out[D] = tot
    # (E) q <= -1/2: M_j = (1-y)^{-(a+j)}/y int_0^V ((1-(1-y)e^w)/y)^j e^{-(a+j)w} dw
    Ei = q <= -0.5
    if Ei.any():
        y = -q[Ei]
        omy = onepq[Ei]
        V = -np.log(omy)
        brk = np.array([0.0, 0.1, 0.3, 0.7, 1.5, 3.1, 6.3, 12.7, 25.5, 51.1])
        sg, wg = _gl(24)
        acc = np.zeros_like(y)
        for lo, hi in zip(brk[:-1], brk[1:]):
            a_ = np.minimum(lo, V)
            b_ = np.minimum(hi, V)
            h = (b_ - a_) / 2.0
            mid = (a_ + b_) / 2.0
            w = mid[:, None] + h[:, None] * sg[None, :]
            base = np.clip((1.0 - omy[:, None] * np.exp(w)) / y[:, None], 0.0, None)
            acc += h * np.sum(wg[None, :] * base**j * np.exp(-(alpha + j) * w), axis=1)
        out[Ei] = omy ** (-(alpha + j)) / y * acc
    return out


def _E_derivs(alpha, rho, x, n):
    """Rows ``k = 0..n`` of ``(-D)^k E(x)``, ``E = rho^2 (c0^-a - (x+2)^-a)/((x+1-rho)(x+c0))``."""
    c0 = 1.0 + rho
    d = (x + 1.0) - rho
    q = d / c0
    onepq = (x + 2.0) / c0
    L = np.where(np.abs(q) < 0.5, np.log1p(q), np.log(onepq))
    A = np.empty((n + 1, x.size))
    # j = 0 in closed form: a_0 = c0^(-a-1) * (1 - (1+q)^-a)/q
    with np.errstate(invalid="ignore", divide="ignore"):
        m0 = -np.expm1(-alpha * L) / q
    m0 = np.where(q == 0, alpha, m0)
    A[0] = c0 ** (-alpha - 1.0) * m0
    for j in range(1, n + 1):
        A[j] = sc.poch(alpha, j + 1) * c0 ** (-alpha - 1.0 - j) * _Mj(j, alpha, q, onepq)
    P = _pow_derivs(1.0, c0, x, n)
    return rho * rho * _leibniz(A, P)


# ---------------------------------------------------------------------------
# special functions in log space
# ---------------------------------------------------------------------------


def _log_S(a, z):
    """``ln S(a, z)`` with ``S = e^z Gamma(a, z)/Gamma(a)`` (regularized, scaled), ``z >= 0``."""
    z = np.asarray(z, dtype=float)
    out = np.zeros_like(z)
    small = z < max(30.0, 3.0 * a)
    if small.any():
        zs = z[small]
        with np.errstate(divide="ignore"):
            out[small] = zs + np.log(sc.gammaincc(a, zs))
    big = ~small
    if big.any():
        x = z[big]
        tiny = 1e-300
        b = x + 1.0 - a
        c = np.full_like(x, 1.0 / tiny)
        d = 1.0 / b
        h = d.copy()
        for i in range(1, 300):
            an = -i * (i - a)
            b = b + 2.0
            d = an * d + b
            d = np.where(np.abs(d) < tiny, tiny, d)
            c = b + an / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            d = 1.0 / d
            delta = d * c
            h = h * delta
            if i % 4 == 0 and np.max(np.abs(delta - 1.0)) < 1e-17:
                break
        out[big] = a * np.log(x) - sc.gammaln(a) + np.log(h)
    return out


def _log_Q(a, z):
    """``ln Q(a, z)``, regularized upper incomplete gamma, accurate where Q underflows."""
    return -np.asarray(z, dtype=float) + _log_S(a, z)


def _log_TJ_core(alpha, rho, rho_m1, tau):
    """``ln[ J(tau)/Gamma(alpha) ]``, ``J = int_0^tau u^(a-1) e^-u e^(-rho (tau-u)) du``.

    ``rho_m1`` is ``rho - 1`` computed without cancellation.
    """
    out = np.full_like(tau, -np.inf)
    pos = tau > 0
    if not pos.any():
        return out
    tp = tau[pos]
    res = np.empty_like(tp)
    lt = np.log(tp)
    g1 = sc.gammaln(1.0 + alpha)
    if rho_m1 <= 0:
        b = -rho_m1
        z = b * tp
        s1 = z <= 1.0
        if s1.any():
            zz = z[s1]
            term = np.ones_like(zz)
            tot = np.ones_like(zz)  # alpha * sum (-z)^k/(k!(alpha+k)), k=0 term is 1
            for k in range(1, 30):
                term = term * (-zz) / k
                tot += alpha * term / (alpha + k)
            res[s1] = -rho * tp[s1] + alpha * lt[s1] + np.log(tot) - g1
        s2 = ~s1
        if s2.any():
            res[s2] = -rho * tp[s2] - alpha * math.log(b) + np.log(sc.gammainc(alpha, z[s2]))
    else:
        y = rho_m1 * tp
        ysw = 60.0 + max(0.0, -math.log(alpha))
        s1 = y < ysw
        if s1.any():
            yy = y[s1]
            ymax = float(yy.max())
            term = np.ones_like(yy)
            tot = np.ones_like(yy)
            for k in range(1, 400):
                term = term * yy / k
                tot += alpha * term / (alpha + k)
                if k > ymax and k % 8 == 0 and np.max(term / tot) < 1e-18:
                    break
            res[s1] = -tp[s1] + alpha * lt[s1] - yy + np.log(tot) - g1
        s2 = ~s1
        if s2.any():
            yy = y[s2]
            term = 1.0 / yy
            tot = term.copy()
            for k in range(1, 40):
                term = term * (k - alpha) / yy
                tot += term
            res[s2] = -tp[s2] + alpha * lt[s2] + np.log(tot) - sc.gammaln(alpha)
    out[pos] = res
    return out


def _logsumexp2(a, b):
    with np.errstate(invalid="ignore"):
        return np.logaddexp(a, b)


# ---------------------------------------------------------------------------
# the cut integral, batched over tau
# ---------------------------------------------------------------------------


def _group_keys(tau):
    """Group ``tau`` values whose ranges can share one node set (factor <= 1e3 each)."""
    with np.errstate(divide="ignore"):
        key = np.floor(np.log10(tau) / 3.0)
    key[tau == 0] = -1e9
    return key


def _cut_log(tau, beta, n, cap, gderivs):
    """``ln sum_i C(n,i) tau^i int_0^inf x^beta e^(-x tau) G_(n-i)(x) dx`` for an array ``tau``.

    ``gderivs(x)`` returns the rows ``(-D)^k G(x)``, ``k = 0..n`` (all >= 0).
    """
    out = np.empty_like(tau)
    if tau.size == 0:
        return out
    keys = _group_keys(tau)
    binom = np.array([math.comb(n, i) for i in range(n + 1)], dtype=float)
    for key in np.unique(keys):
        sel = keys == key
        tg = tau[sel]
        x, w = _nodes(beta, float(tg.min()), float(tg.max()), cap)
        G = gderivs(x)
        W = (w[None, :] * G[::-1] * binom[:, None]).T  # column i uses G_(n-i)
        res = np.empty((tg.size, n + 1))
        step = max(1, _CHUNK // x.size)
        for s0 in range(0, tg.size, step):
            tt = tg[s0 : s0 + step]
            res[s0 : s0 + step] = np.exp(-np.outer(tt, x)) @ W
        with np.errstate(divide="ignore"):
            lr = np.log(res)
            if n > 0:
                lt = np.log(tg)
                powers = np.arange(n + 1)
                with np.errstate(invalid="ignore"):
                    lr = lr + np.where(powers[None, :] == 0, 0.0, powers[None, :] * lt[:, None])
                m = np.max(lr, axis=1)
                m = np.where(np.isfinite(m), m, 0.0)
                lr = m + np.log(np.sum(np.exp(lr - m[:, None]), axis=1))
            else:
                lr = lr[:, 0]
        out[sel] = lr
    return out


def _ibp_order(alpha):
    """Number ``n`` of integrations by parts and the exponent ``beta = n - alpha``.

    Any ``n > alpha - 1`` is valid; ``n = round(alpha)`` keeps ``beta`` in ``[-1/2, 1/2]``
    so the Gauss-Jacobi weight ``x^beta`` is never close to the non-integrable ``x^-1``
    (``alpha`` just below an integer would otherwise lose digits).
    """
    n = int(math.floor(alpha))
    if alpha - n >= 0.5:
        n += 1
    return n, n - alpha


def _cap(alpha, decay, scale):
    """Upper cut-off ``X`` for integrands decaying like ``x^-decay`` beyond ``scale``."""
    return min(1e300,  # ln(X) must stay finite for the node layout
                10.0 * scale * math.exp(min(600.0, math.log(1e18) / max(decay - 1.0, 1e-3))))


# ---------------------------------------------------------------------------
# Gamma-Gamma
# ---------------------------------------------------------------------------


def _gg_logpdf_tau(tau, alpha, theta):
    """``ln f_GG`` at ``tau = |t|/theta >= 0`` (finite)."""
    out = np.empty_like(tau)
    nu = alpha - 0.5
    zero = tau == 0
    if zero.any():
        if alpha <= 0.5:
            out[zero] = np.inf
        else:
            out[zero] = (sc.gammaln(alpha - 0.5) - math.log(2.0 * math.sqrt(math.pi))
                         - sc.gammaln(alpha) - math.log(theta))
    pos = ~zero
    if pos.any():
        tp = tau[pos]
        lnorm = math.log(theta) + 0.5 * math.log(math.pi) + sc.gammaln(alpha) + nu * math.log(2.0)
        with np.errstate(over="ignore", divide="ignore"):
            k = sc.kve(nu, tp)
            res = nu * np.log(tp) + np.log(k) - tp - lnorm
        # small argument: two-term expansion of tau^nu K_nu(tau) (relative error O(tau^2 ln tau)),
        # which avoids the cancellation between nu ln(tau) and ln K_nu(tau)
        sm = (tp < 1e-9) | ~np.isfinite(res)
        if sm.any():
            res[sm] = _log_znu_besselk_small(nu, tp[sm]) - lnorm
        out[pos] = res
    return out


def _log_znu_besselk_small(nu, z):
    """``ln(z^nu K_nu(z))`` for ``z < 1e-9`` (or subnormal ``z``), error O(z^2 ln z).

    ``K_mu(z) = Gamma(mu)/2 (z/2)^-mu [1 + Gamma(-mu)/Gamma(mu) (z/2)^(2 mu) + O(z^2)]`` with
    ``mu = |nu|``; for ``mu < 0.05`` the two leading terms nearly cancel and the
    ``cosh``/``sinh`` form is used, for ``mu >= 0.95`` the correction is below ``z^2 ln z``.
    """
    mu = abs(nu)
    lz = np.log(z)
    shift = (nu - mu) * lz  # 0 for nu >= 0, 2 nu ln z for nu < 0
    if mu < 0.05:
        L = math.log(2.0) - lz
        if mu < 1e-3:
            c1 = -np.euler_gamma - 0.9075 * mu * mu
        else:
            c1 = (sc.gamma(1 + mu) - sc.gamma(1 - mu)) / (2 * mu)
        c2 = 0.5 * (sc.gamma(1 + mu) + sc.gamma(1 - mu))
        sinhc = L if mu == 0 else np.sinh(mu * L) / mu
        # z^mu K_mu(z) = z^mu [c1 cosh(mu L) + c2 sinh(mu L)/mu]
        return nu * lz + np.log(c1 * np.cosh(mu * L) + c2 * sinhc)
    lead = sc.gammaln(mu) - math.log(2.0) + mu * math.log(2.0) + shift
    if mu < 0.95:
        ratio = sc.gamma(-mu) / sc.gamma(mu)
        return lead + np.log1p(ratio * np.exp(2 * mu * (lz - math.log(2.0))))
    return lead


def _gg_log_sf_tau(tau, alpha):
    """``ln P(X1 - X2 > theta tau)`` for ``tau > 0`` (finite)."""
    n, beta = _ibp_order(alpha)
    out = np.empty_like(tau)
    tiny = tau < 1e-40
    if tiny.any():
        if alpha < 0.25:
            e = (2 * alpha * np.log(tau[tiny]) - math.log(math.cos(math.pi * alpha))
                 - sc.gammaln(1 + 2 * alpha))
            out[tiny] = math.log(0.5) + np.log(-np.expm1(e))
        else:
            out[tiny] = math.log(0.5)
    rest = ~tiny
    if rest.any():
        tr = tau[rest]

        def gd(x):
            return _leibniz(_pow_derivs(alpha, 2.0, x, n), _pow_derivs(1.0, 1.0, x, n))

        cap = _cap(alpha, 1.0 + 2.0 * alpha, 2.0)
        lc = _cut_log(tr, beta, n, cap, gd)
        out[rest] = -tr + lc - sc.gammaln(alpha) - sc.gammaln(1.0 + beta)
    return out


def gg_logpdf(t, alpha, theta):
    r"""Log-density of Gamma-Gamma(alpha, theta) = X1 - X2, ``X_i ~ Gamma(alpha, theta)``.

    Returns ``+inf`` at ``t = 0`` when ``alpha <= 1/2`` and ``-inf`` at ``|t| = inf``.

    Accuracy: for ``alpha in [1e-7, 10]``, ``theta in [1e-3, 1e3]`` and
    ``1e-300 theta <= |t| <= 1000 theta`` the absolute error of ``gg_logpdf`` is
    below ``1e-13 * max(1, |ln f|)``, also where ``f`` underflows.
    """
    alpha = _param(alpha, "alpha")
    theta = _param(theta, "theta")
    arr, scalar = _t_array(t)
    tau = np.abs(arr).ravel() / theta
    out = np.full(tau.shape, -np.inf)
    fin = np.isfinite(tau)
    out[fin] = _gg_logpdf_tau(tau[fin], alpha, theta)
    return _out(out.reshape(arr.shape), scalar)


def gg_pdf(t, alpha, theta):
    r"""Density of Gamma-Gamma(alpha, theta) (Bessel-K form, see module docstring).

    ``+inf`` at ``t = 0`` for ``alpha <= 1/2``; ``Gamma(alpha-1/2)/(2 sqrt(pi) Gamma(alpha) theta)``
    there otherwise; underflows to 0 only where the true value is below ~1e-308.

    Accuracy: same as :func:`gg_logpdf`: relative error below ``1e-13 * max(1, |ln f|)``
    for ``alpha in [1e-7, 10]``, ``theta in [1e-3, 1e3]``, ``1e-300 theta <= |t| <= 1000 theta``.
    """
    lp = gg_logpdf(t, alpha, theta)
    return _out(np.exp(np.asarray(lp)), np.ndim(lp) == 0)


def _gg_sf_core(t, alpha, theta):
    alpha = _param(alpha, "alpha")
    theta = _param(theta, "theta")
    arr, scalar = _t_array(t)
    flat = arr.ravel()
    tau = np.abs(flat) / theta
    lsf = np.full(tau.shape, -np.inf)  # ln P(X > |t|)
    zero = tau == 0
    lsf[zero] = math.log(0.5)
    mid = ~zero & np.isfinite(tau)
    if mid.any():
        lsf[mid] = _gg_log_sf_tau(tau[mid], alpha)
    return flat, lsf, arr.shape, scalar


def gg_sf(t, alpha, theta):
    r"""Survival function ``P(X1 - X2 > t)`` of Gamma-Gamma(alpha, theta).

    Accuracy: for ``alpha in [1e-7, 10]``, ``theta in [1e-3, 1e3]`` and ``|t| <= 1000 theta``
    the relative error is below ``1e-13 * max(1, |ln gg_sf(t)|)`` for ``t >= 0`` (where the
    value is ``<= 1/2``) and the absolute error is below ``1e-13`` for ``t < 0``.
    For ``|t| < 1e-40 theta`` the small-``t`` expansion ``1/2 - |t/theta|^(2a)/(2 cos(pi a) Gamma(1+2a))``
    (``alpha < 1/4``) or ``1/2`` (``alpha >= 1/4``, exact to ~1e-20) is returned.
    """
    flat, lsf, shape, scalar = _gg_sf_core(t, alpha, theta)
    s = np.exp(lsf)
    out = np.where(flat >= 0, s, 1.0 - s)
    out[flat == 0] = 0.5
    return _out(out.reshape(shape), scalar)


def gg_cdf(t, alpha, theta):
    r"""Distribution function ``P(X1 - X2 <= t)`` of Gamma-Gamma(alpha, theta).

    ``gg_cdf(t) = gg_sf(-t)``; accuracy as in :func:`gg_sf` with ``t`` replaced by ``-t``
    (relative ``1e-13 * max(1, |ln gg_cdf(t)|)`` for ``t <= 0``, absolute ``1e-13`` for ``t > 0``).
    """
    flat, lsf, shape, scalar = _gg_sf_core(t, alpha, theta)
    s = np.exp(lsf)
    out = np.where(flat <= 0, s, 1.0 - s)
    out[flat == 0] = 0.5
    return _out(out.reshape(shape), scalar)


# ---------------------------------------------------------------------------
# Arete
# ---------------------------------------------------------------------------


class _Arete:
    """Per-parameter-set constants of Arete(alpha, theta, lam)."""

    def __init__(self, alpha, theta, lam):
        self.alpha = alpha = _param(alpha, "alpha")
        if alpha > MAX_FAST_ALPHA:
            raise ValueError(
                f"alpha must be at most {MAX_FAST_ALPHA:g} for the float64 path (its cost grows like "
                f"alpha^2), got {alpha!r}; use the arbitrary-precision arete_proofs.arete")
        self.theta = theta = _param(theta, "theta")
        self.lam = lam = _param(lam, "lam")
        self.rho = theta / lam
        self.rho_m1 = (theta - lam) / lam
        self.c0 = (theta + lam) / lam
        self.lc0 = math.log(self.c0)
        self.n, self.beta = _ibp_order(alpha)
        self.lgam = sc.gammaln(alpha) + sc.gammaln(1.0 + self.beta)
        self.cap = _cap(alpha, 2.0 + alpha, self.c0 + 1.0)

    # (-D)^k E and (-D)^k [ (E + rho c0^-a / (2 (x+c0))) / (1+x)^p ]
    def _E(self, x):
        return _E_derivs(self.alpha, self.rho, x, self.n)

    def _D0_over(self, p):
        a, rho, c0, n = self.alpha, self.rho, self.c0, self.n

        def g(x):
            D0 = self._E(x) + 0.5 * rho * c0 ** (-a) * _pow_derivs(1.0, c0, x, n)
            return _leibniz(D0, _pow_derivs(float(p), 1.0, x, n))

        return g

    def log_pdf_tau(self, tau):
        a, lam = self.alpha, self.lam
        lTJ = -a * self.lc0 - math.log(2 * lam) + _log_TJ_core(a, self.rho, self.rho_m1, tau)
        lTB = -2 * a * self.lc0 - math.log(2 * lam) - tau + _log_S(a, self.c0 * tau)
        lTA = -math.log(self.theta) - self.lgam - tau + _cut_log(tau, self.beta, self.n, self.cap, self._E)
        return _logsumexp2(_logsumexp2(lTJ, lTB), lTA)

    def log_sf_tau(self, tau):
        a = self.alpha
        l1 = _logsumexp2(_log_Q(a, tau), _log_TJ_core(a, self.rho, self.rho_m1, tau))
        lJ = math.log(0.5) - a * self.lc0 + l1
        lC = -self.lgam - tau + _cut_log(tau, self.beta, self.n, self.cap, self._D0_over(1))
        return _logsumexp2(lJ, lC)


def _no_nan(values, A, t):
    """PrecisionError, not NaN (formulas break down) or -inf (|t|/theta overflows at a finite t)."""
    if np.isnan(values).any() or (np.isfinite(t) & np.isinf(t / A.theta)).any():
        raise PrecisionError(f"the float64 path cannot evaluate Arete({A.alpha:g}, {A.theta:g}, {A.lam:g}) here "
                             "(validated: alpha in [1e-7, 10], theta/lam in [1e-6, 1e6], |t| <= 1000 theta); use arete")
    return values


def _arete_logpdf(t, alpha, theta, lam):
    A = _Arete(alpha, theta, lam)
    arr, scalar = _t_array(t)
    tau = np.abs(arr).ravel() / A.theta
    out = np.full(tau.shape, -np.inf)
    fin = np.isfinite(tau)
    with np.errstate(all="ignore"):
        out[fin] = _no_nan(A.log_pdf_tau(tau[fin]), A, arr.ravel()) if fin.any() else out[fin]
    return out.reshape(arr.shape), scalar


def logpdf(t, alpha, theta, lam):
    r"""Log-density of Arete(alpha, theta, lam) (decomposition ``T_J + T_B + T_A``, module docstring).

    Accuracy: for ``alpha in [1e-7, 10]``, ``theta, lam in [1e-3, 1e3]`` and
    ``|t| <= 1000 theta`` (including ``t = 0`` and ``|t|`` down to ``1e-300 theta``) the
    absolute error is below ``1e-13 * max(1, |logpdf(t)|)``, also far below the
    float range.  ``-inf`` at ``|t| = inf``.
    """
    out, scalar = _arete_logpdf(t, alpha, theta, lam)
    return _out(out, scalar)


def pdf(t, alpha, theta, lam):
    r"""Density of Arete(alpha, theta, lam), computed as ``exp(logpdf)``.

    Accuracy: relative error below ``1e-13 * max(1, |ln pdf(t)|)`` for
    ``alpha in [1e-7, 10]``, ``theta, lam in [1e-3, 1e3]``, ``|t| <= 1000 theta``;
    underflows to 0 only where the true density is below ~1e-308.
    """
    out, scalar = _arete_logpdf(t, alpha, theta, lam)
    return _out(np.exp(out), scalar)


def _arete_sf_core(t, alpha, theta, lam):
    A = _Arete(alpha, theta, lam)
    arr, scalar = _t_array(t)
    flat = arr.ravel()
    tau = np.abs(flat) / A.theta
    lsf = np.full(tau.shape, -np.inf)
    zero = tau == 0
    lsf[zero] = math.log(0.5)
    mid = ~zero & np.isfinite(tau)
    with np.errstate(all="ignore"):
        lsf[mid] = _no_nan(A.log_sf_tau(tau[mid]), A, flat) if mid.any() else lsf[mid]
    return flat, lsf, arr.shape, scalar


def sf(t, alpha, theta, lam):
    r"""Survival function ``P(Z > t)`` of Arete(alpha, theta, lam).

    Accuracy: for ``alpha in [1e-7, 10]``, ``theta, lam in [1e-3, 1e3]`` and
    ``|t| <= 1000 theta``: relative error below ``1e-13 * max(1, |ln sf(t)|)``
    for ``t >= 0`` and absolute error below ``1e-13`` for ``t < 0``.  ``sf(0) = 1/2``.
    """
    flat, lsf, shape, scalar = _arete_sf_core(t, alpha, theta, lam)
    s = np.exp(lsf)
    out = np.where(flat >= 0, s, 1.0 - s)
    out[flat == 0] = 0.5
    return _out(out.reshape(shape), scalar)


def cdf(t, alpha, theta, lam):
    r"""Distribution function ``P(Z <= t)`` of Arete(alpha, theta, lam); ``cdf(t) = sf(-t)``.

    Accuracy: relative error below ``1e-13 * max(1, |ln cdf(t)|)`` for ``t <= 0``
    and absolute error below ``1e-13`` for ``t > 0`` (same ranges as :func:`sf`).
    """
    flat, lsf, shape, scalar = _arete_sf_core(t, alpha, theta, lam)
    s = np.exp(lsf)
    out = np.where(flat <= 0, s, 1.0 - s)
    out[flat == 0] = 0.5
    return _out(out.reshape(shape), scalar)


def mean_abs(alpha, theta, lam):
    r"""``E|Z|`` for ``Z ~ Arete(alpha, theta, lam)``.

    ``E|Z| = 2 int_0^inf sf = c0^-a (alpha theta + lam) + 2 theta/(Gamma(a)Gamma(1+beta)) int_0^inf x^beta (-D)^n [D0(x)/(1+x)^2] dx``.

    Accuracy: relative error below ``1e-13`` for ``alpha in [1e-7, 10]``, ``theta, lam in [1e-3, 1e3]``,
    and at ``theta/lam`` in ``1e-40 .. 1e40`` (``tests/test_extreme_parameters.py``).  Where the integral
    fails (NaN at ``alpha = 10``, ``theta/lam >= 1e16``): ``G + lam/2`` with ``G = E|X1 - X2|`` when
    ``lam <= 1e-14 G`` (``G < E|Z| <= G + lam``), else :class:`~arete_proofs.PrecisionError`, never NaN.
    """
    A = _Arete(alpha, theta, lam)
    a = A.alpha
    with np.errstate(all="ignore"):
        lc = _cut_log(np.zeros(1), A.beta, A.n, A.cap, A._D0_over(2))[0]
        v = float(A.c0 ** (-a) * (a * A.theta + A.lam) + 2 * A.theta * math.exp(lc - A.lgam))
    g = 4.0 * A.theta * math.exp(sc.gammaln(2 * a) - 2 * sc.gammaln(a) - a * math.log(4.0))
    if not (math.isfinite(v) and v > 0) and math.isfinite(g) and A.lam <= 1e-14 * g:
        v = g + 0.5 * A.lam
    if not (math.isfinite(v) and v > 0):
        raise PrecisionError(f"fast.mean_abs cannot evaluate Arete({a:g}, {A.theta:g}, {A.lam:g}); use arete.mean_abs")
    return v


def var(alpha, theta, lam):
    r"""``Var Z = 2 alpha theta^2 + 2 lam^2`` (exact up to one rounding per operation)."""
    alpha = _param(alpha, "alpha")
    theta = _param(theta, "theta")
    lam = _param(lam, "lam")
    return 2.0 * alpha * theta * theta + 2.0 * lam * lam
