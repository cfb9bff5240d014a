r"""Arete with a Gaussian part: :math:`Z = X_1 - X_2 + Y + N` (beyond the paper).

:math:`X_1, X_2 \sim \Gamma(\alpha,\theta)`, :math:`Y \sim \mathrm{Laplace}(\lambda)`,
:math:`N \sim \mathcal N(0,\sigma^2)`, independent; :math:`\lambda \ge 0`, :math:`\sigma \ge 0`
(a zero drops that part).  Characteristic function
:math:`(1+\theta^2u^2)^{-\alpha}(1+\lambda^2u^2)^{-1}e^{-\sigma^2u^2/2}`.  For
:math:`\sigma = 0` the functions delegate to :mod:`~arete_proofs.distributions.arete`
(:math:`\lambda > 0`) or :mod:`~arete_proofs.distributions.gamma_gamma` (:math:`\lambda = 0`).

**The spike, treated exactly.**  For :math:`0<\alpha<1` the branch-cut integral of
:mod:`~arete_proofs.distributions._cut` (without the Laplace factor) says that
:math:`X_1 - X_2` is a *scale mixture of Laplace distributions*:

.. math::

    f_{\Gamma-\Gamma}(x) = \int_1^\infty p(s)\,\frac{s}{2\theta}e^{-s|x|/\theta}\,ds,
    \qquad p(s) = \frac{2\sin\pi\alpha}{\pi}\,\frac{(s^2-1)^{-\alpha}}{s},

(:math:`\int_1^\infty p = \frac{\sin\pi\alpha}{\pi}B(1-\alpha,\alpha) = 1`).  The
:math:`|x|^{2\alpha-1}` spike at 0 is the slowly decaying tail :math:`p(s)\sim s^{-1-2\alpha}`
(the mass of :math:`|X_1-X_2| < 10^{-40}` sits at :math:`s > 10^{40}`).  Hence, with
:math:`b = s/\theta`, :math:`c = 1/\lambda` and :math:`k_b` the density (or survival
function) of :math:`L_b + Y + N`, :math:`L_b` Laplace with rate :math:`b`,

.. math::

    f_Z(t) = \int_1^\infty p(s)\,k_{s/\theta}(t)\,ds, \qquad
    k_b = \frac{c^2 D_b - b^2 D_c}{c^2 - b^2}\ (\lambda>0), \quad k_b = D_b\ (\lambda = 0),

    D_b(t) = \tfrac b4\,[A_b(t) + A_b(-t)], \qquad
    S_b(t) = \bar\Phi(t/\sigma) + \tfrac14[A_b(t) - A_b(-t)]\ (t \ge 0),

    A_b(t) = 2\int_0^\infty e^{-bx}\varphi_\sigma(t-x)\,dx
           = e^{b^2\sigma^2/2 - bt}\operatorname{erfc}\frac{b\sigma^2 - t}{\sigma\sqrt2}
           = e^{-t^2/(2\sigma^2)}\operatorname{erfcx}\frac{b\sigma^2 - t}{\sigma\sqrt2},

(:math:`D_b` the density and :math:`S_b` the survival function of :math:`L_b + N`; the
divided difference is the partial fraction
:math:`\frac{b^2c^2}{(b^2+u^2)(c^2+u^2)} = \frac{c^2}{c^2-b^2}\frac{b^2}{b^2+u^2} -
\frac{b^2}{c^2-b^2}\frac{c^2}{c^2+u^2}`, at :math:`b = c` its limit
:math:`D_c - \tfrac c2 D_c'`).  Every integrand is **positive**, so the quadrature's relative
error is the result's.  The spike is integrated exactly by the substitution
:math:`s = P v^{-1/(2\alpha)}` on :math:`[P,\infty)`:

.. math::

    \int_P^\infty p(s)\,k_{s/\theta}\,ds = \frac{2\sin\pi\alpha}{\pi}\frac{P^{-2\alpha}}{2\alpha}
    \int_0^1 (1-s^{-2})^{-\alpha}\,k_{s/\theta}\,dv ,

a bounded integrand on :math:`v \in (0,1]` (it tends to :math:`D_c(t)`, or
:math:`\varphi_\sigma(t)`, as :math:`v \to 0`), so nodes at :math:`v = 10^{-3}`, i.e.
:math:`s = P\cdot10^{100}` for :math:`\alpha = 0.015`, carry the mass below
:math:`|x| = 10^{-100}` with their exact weight.  :math:`[1, P]` is cut geometrically
(:math:`1 + 4^k`) and integrated by the exact-offset tanh-sinh rule of
:mod:`~arete_proofs.distributions._tanhsinh` (the :math:`(s-1)^{-\alpha}` endpoint).
:math:`\operatorname{erfcx}(z)` is :math:`e^{z^2}\operatorname{erfc}(z)` below
:math:`z^2 = 0.7\,\mathrm{prec}` and its enveloping asymptotic series above.  Cancellation
(the divided difference near :math:`b = c`, :math:`S_b` for small :math:`t`) is measured at
every node and the node recomputed with that many more bits.

**alpha >= 1: a Gaussian variance mixture.**  :math:`X_1 - X_2 \overset{d}{=} \sqrt W\,N'`
with :math:`W \sim \Gamma(\alpha, 2\theta^2)` independent of :math:`N' \sim \mathcal N(0,1)`
(the variance-gamma law: :math:`E\,e^{-Wu^2/2} = (1+\theta^2u^2)^{-\alpha}`), so given
:math:`W = w`, :math:`Z` is :math:`\mathcal N(0, w+\sigma^2) + Y` and

.. math::

    f_Z(t) = \int_0^\infty f_\Gamma(w;\alpha,2\theta^2)\,k_{\sqrt{w+\sigma^2}}(t)\,dw,
    \qquad k_s = \varphi_s\ (\lambda = 0), \quad k_s = D_{1/\lambda}\ \text{with}\ \sigma\to s\ (\lambda>0),

and :math:`P(Z>t)` the same with :math:`\bar\Phi(t/s)` or :math:`S_{1/\lambda}`.  The integrand
is positive and, for :math:`\alpha \ge 1`, bounded (:math:`w^{\alpha-1}`); it is integrated
by the tanh-sinh rule of :mod:`~arete_proofs.distributions._tanhsinh` on pieces cut
geometrically (:math:`\times 4`) over the scales :math:`\sigma^2, 2\theta^2, 2\alpha\theta^2,
\lambda^2, t^2, t\theta` of the integrand (plus the bulk of :math:`W` when it is narrow, large
:math:`\alpha`, and the peak near :math:`w = t\theta` for large :math:`t`) and a half-line of
scale :math:`2\theta^2`.  The representation holds for every :math:`\alpha > 0`; below 1 the
Laplace mixture above is used, which resolves the spike.  Tested against Fourier inversion of
the characteristic function and, at :math:`\alpha = 1` (:math:`X_1 - X_2 \sim
\mathrm{Laplace}(\theta)`), the erfc closed form, in ``tests/test_gauss_alpha_ge_1.py``.

**The digits contract** is that of :mod:`~arete_proofs.distributions.arete`: the result agrees
with the true value to a relative error below ``10**-digits`` or
:class:`arete_proofs.PrecisionError` is raised (the tanh-sinh error estimate below
:math:`10^{-(\text{digits}+3)}` of the positive integral, at ``digits`` plus guard digits plus
the digits the exponents' sizes cost).  :math:`\lambda = \sigma = 0` with
:math:`\alpha \le 1/2` has :math:`f(0) = \infty` (returned as ``inf``, as
:func:`~arete_proofs.distributions.gamma_gamma.pdf` does).

:func:`var` is :math:`2\alpha\theta^2 + 2\lambda^2 + \sigma^2`; :func:`mean_abs` integrates
:math:`E|Z| = \frac2\pi\int_0^\infty \frac{1-\varphi_Z(u)}{u^2}du` with
:math:`1-\varphi_Z = -\operatorname{expm1}(-\alpha\ln(1+\theta^2u^2) - \ln(1+\lambda^2u^2)
- \sigma^2u^2/2)` (positive, no cancellation).

>>> from mpmath import mp
>>> a, th, lam, sg = "0.015", "0.854", 0, "0.027"     # the Gamma + Gaussian optimum at eps = 8
>>> f0, f1 = pdf([0, "0.5"], a, th, lam, sg, digits=15)
>>> f0 > f1 > 0                                        # symmetric unimodal: decreasing on t > 0
True
>>> mp.almosteq(cdf("-0.3", a, th, lam, sg, digits=15) + cdf("0.3", a, th, lam, sg, digits=15), 1, 1e-14)
True
>>> # alpha = 1, lam = 0: X1 - X2 is Laplace(theta), f_Z(0) = e^(b^2 s^2/2) erfc(b s/sqrt 2) b/2, b = 1/theta
>>> b, s = 1 / mp.mpf(2), mp.mpf("0.3")
>>> mp.almosteq(pdf(0, 1, 2, 0, s, digits=20), mp.exp(b * b * s * s / 2) * mp.erfc(b * s / mp.sqrt(2)) * b / 2, 1e-14)
True
"""

from __future__ import annotations

from collections.abc import Iterable

from mpmath import mp

from . import arete, gamma_gamma
from ._tanhsinh import integrate
from .._validation import (
    GUARD_DIGITS,
    PrecisionError,
    exponent_digits,
    finite_real,
    parse_precision,
    positive,
    real,
    resolve_digits,
)

__all__ = ["pdf", "logpdf", "cdf", "sf", "mean_abs", "var"]

_CANCEL_BITS = 10  # cancellation (in bits) a node may lose before it is recomputed


def _nonneg(value, name):
    x = finite_real(value, name)
    if x < 0:
        raise ValueError(f"{name} must be non-negative, got {value!r}")
    return x


def _params(alpha, theta, lam, sigma, d):
    with mp.workdps(parse_precision(d)):
        return (positive(alpha, "alpha"), positive(theta, "theta"),
                _nonneg(lam, "lam"), _nonneg(sigma, "sigma"))


def _is_sequence(t):
    if isinstance(t, (str, bytes)):
        return False
    if hasattr(t, "ndim"):
        return t.ndim > 0
    return isinstance(t, Iterable)


# -- kernels (at the context precision; each returns (value, sum of |parts|)) --------------------

def _erfcx(z):
    """e^(z^2) erfc(z) for z >= 0 at the context precision."""
    z2 = z * z
    if z2 > 0.7 * mp.prec + 20:
        # enveloping series: the error is below the first omitted term (real z > 0)
        s = term = mp.one
        eps = mp.ldexp(1, -mp.prec - 10)
        inv = 1 / (2 * z2)
        n = 0
        while True:
            n += 1
            term = -term * (2 * n - 1) * inv
            if abs(term) < eps:
                break
            s += term
        return s / (z * mp.sqrt(mp.pi))
    with mp.extraprec(int(mp.log(z2 + 2, 2)) + 10):
        return mp.erfc(z) * mp.exp(z2)


def _A(b, t, sigma):
    r""":math:`A_b(t) = 2\int_0^\infty e^{-bx}\varphi_\sigma(t-x)dx` (both terms positive)."""
    w = (b * sigma - t / sigma) / mp.sqrt(2)
    if w >= 0:
        return mp.exp(-t * t / (2 * sigma * sigma)) * _erfcx(w)
    return mp.exp(b * sigma * b * sigma / 2 - b * t) * mp.erfc(w)


def _one(kind, b, t, sigma):
    """(value, abs) of D_b(t) (pdf) or S_b(t) (sf, t >= 0) and its b-derivative."""
    ap, am = _A(b, t, sigma), _A(b, -t, sigma)
    if kind == "pdf":
        return b * (ap + am) / 4, b * (ap + am) / 4
    ph = mp.erfc(t / (sigma * mp.sqrt(2))) / 2
    return ph + (ap - am) / 4, ph + (ap + am) / 4


def _one_deriv(kind, b, t, sigma):
    """(d/db of D_b or S_b, abs of its parts), from dA/db = (b s^2 - t) A - 2 s^2 phi_s(t)."""
    ap, am = _A(b, t, sigma), _A(b, -t, sigma)
    s2 = sigma * sigma
    if kind == "pdf":
        phi2 = 2 * s2 * mp.npdf(t, 0, sigma)
        parts = [(ap + am) / 4, b * (b * s2 - t) * ap / 4, b * (b * s2 + t) * am / 4, -b * phi2 / 2]
    else:
        parts = [(b * s2 - t) * ap / 4, -(b * s2 + t) * am / 4]
    return mp.fsum(parts), mp.fsum(abs(q) for q in parts)


def _kernel_at(kind, b, c, t, sigma):
    """(k_b(t), measure of cancellation >= 1) at the context precision."""
    vb, ab = _one(kind, b, t, sigma)
    if c is None:
        return vb, ab / vb
    vc, ac = _one(kind, c, t, sigma)
    if abs(b - c) <= c * mp.ldexp(1, -mp.prec):
        # the limit b -> c: D_c - (c/2) D'_c (relative error O(|b - c|/c) <= 2^-prec)
        dv, da = _one_deriv(kind, c, t, sigma)
        v = vc - c * dv / 2
        return v, (ac + c * da / 2) / abs(v) if v else mp.inf
    num = c * c * vb - b * b * vc
    v = num / ((c - b) * (c + b))
    if not v > 0:
        return v, mp.inf
    cancel = max((c * c * ab + b * b * ac) / abs(num), (b + c) / abs(c - b))
    return v, cancel


def _kernel(kind, b, c, t, sigma):
    """k_b(t) with the node recomputed at higher precision when it cancelled."""
    v, cancel = _kernel_at(kind, b, c, t, sigma)
    if cancel <= 2 ** _CANCEL_BITS:
        return v
    prec = mp.prec
    extra = 2 * prec if mp.isinf(cancel) else int(mp.log(cancel, 2)) + _CANCEL_BITS
    for _ in range(3):
        with mp.workprec(prec + extra):
            bb, cc, tt, ss = +b, +c, +t, +sigma
            v, cancel = _kernel_at(kind, bb, cc, tt, ss)
        if cancel <= 2 ** (extra + _CANCEL_BITS // 2):
            return +v
        extra = 2 * extra if mp.isinf(cancel) else int(mp.log(cancel, 2)) + _CANCEL_BITS
    raise PrecisionError("the Laplace-Laplace-Gauss kernel cancels beyond the reachable precision")


# -- the mixture integral ---------------------------------------------------------------------

def _mixture(kind, t, alpha, theta, lam, sigma, d):
    """pdf (any t) or sf (t > 0) by the Laplace-mixture integral (0 < alpha < 1, sigma > 0)."""
    with mp.workdps(parse_precision(d)):  # abs() rounds to the context precision
        t = abs(t)
    extra = exponent_digits(t * t / (2 * sigma * sigma), t / theta, t / lam if lam else 0)
    wd = d + GUARD_DIGITS + extra
    with mp.workdps(wd):
        alpha, theta, sigma, t = +alpha, +theta, +sigma, +t
        c = 1 / lam if lam else None
        K = 2 * mp.sin(mp.pi * alpha) / mp.pi
        # cuts: 1 + 4^k from below every scale of the kernel up to P beyond all of them
        scales = [theta / sigma] + ([theta * c] if c else []) + ([theta / t] if t else [])
        top = 16 * max(max(scales), 1)
        low = min(mp.mpf(1) / 64, 1 / (4 * t / theta) if t else 1)
        k = int(mp.floor(mp.log(low, 4)))
        pts = [mp.one]
        while pts[-1] < top:
            pts.append(1 + mp.mpf(4) ** k)
            k += 1
        P = pts[-1]
        first_end = pts[1]

        def f_body(s, da, db):
            sm1 = da if s < first_end else s - 1
            w = K * (sm1 * (s + 1)) ** (-alpha) / s
            return w * _kernel(kind, s / theta, c, t, sigma)

        two_a = 2 * alpha
        pre = K * P ** (-two_a) / two_a

        def f_tail(v, dv, _db):
            s = P * v ** (-1 / two_a)  # on the piece [0, 1] the node v is its exact offset
            return pre * (1 - s ** -2) ** (-alpha) * _kernel(kind, s / theta, c, t, sigma)

        tol = mp.mpf(10) ** -(d + 3)
        beta = float(min(alpha, mp.mpf("0.999")))
        body, _e1, ab1 = integrate(f_body, list(zip(pts, pts[1:])), tol, mp.prec, beta=beta, extrapolate=True)
        tail, _e2, ab2 = integrate(f_tail, [(mp.zero, mp.one)], tol, mp.prec, extrapolate=True)
        v = body + tail
        if not v > 0 or (ab1 + ab2) / v > 10 ** (GUARD_DIGITS - 3):
            raise PrecisionError("the Laplace-mixture integral lost too many digits")
        return v


# -- alpha >= 1: the Gaussian variance mixture --------------------------------------------------

def _vm_cuts(t, alpha, theta, lam, sigma):
    """Cut points of [0, oo) for the variance-mixture integral (w-scales of the integrand)."""
    k2 = 2 * theta * theta
    m, sd = alpha * k2, mp.sqrt(alpha) * k2  # mean and standard deviation of W
    scales = [sigma * sigma, k2, m] + ([lam * lam] if lam else []) + ([t * t, t * theta] if t else [])
    lo, hi = min(scales) / 64, 4 * max(max(scales), m + 8 * sd)
    pts = {lo}
    x = lo
    while x < hi:
        x *= 4
        pts.add(x)
    # narrow bumps: W's bulk (large alpha) and, for large t, the integrand's peak at
    # w + sigma^2 = t theta (the maximum of -w/(2 theta^2) - t^2/(2 (w + sigma^2)), width sqrt(t theta^3))
    peaks = [(m, sd)] + ([(t * theta - sigma * sigma, mp.sqrt(t * theta**3))] if t else [])
    for c, h in peaks:
        if h < c / 2:
            pts.update(c + j * h for j in (-8, -4, -2, -1, 0, 1, 2, 4, 8) if lo < c + j * h < hi)
    return [mp.zero] + sorted(pts)


def _variance_mixture(kind, t, alpha, theta, lam, sigma, d):
    """pdf (any t) or sf (t > 0) by the Gaussian variance mixture (sigma > 0; used for alpha >= 1)."""
    with mp.workdps(parse_precision(d)):  # abs() rounds to the context precision
        t = abs(t)
    with mp.workdps(20):
        size = alpha * (1 + abs(mp.log(2 * alpha * theta * theta))) + abs(mp.loggamma(alpha))
    extra = exponent_digits(t * t / (2 * sigma * sigma), t / theta, t / lam if lam else 0, size)
    with mp.workdps(d + GUARD_DIGITS + extra):
        alpha, theta, sigma, t = +alpha, +theta, +sigma, +t
        b = 1 / lam if lam else None
        k2 = 2 * theta * theta
        lg = mp.loggamma(alpha) + alpha * mp.log(k2)
        s2 = sigma * sigma
        r2pi = mp.sqrt(2 * mp.pi)

        def f(w, da, _db):
            if w == 0:
                dens = mp.zero if alpha > 1 else 1 / k2
            else:
                dens = mp.exp((alpha - 1) * mp.log(w) - w / k2 - lg)
            s = mp.sqrt(w + s2)
            if b is not None:
                ker = _kernel(kind, b, None, t, s)
            elif kind == "pdf":
                ker = mp.exp(-t * t / (2 * (w + s2))) / (s * r2pi)
            else:
                ker = mp.erfc(t / (s * mp.sqrt(2))) / 2
            return dens * ker

        pts = _vm_cuts(t, alpha, theta, lam, sigma)
        pieces = list(zip(pts, pts[1:])) + [(pts[-1], mp.inf, k2)]
        v, _err, ab = integrate(f, pieces, mp.mpf(10) ** -(d + 3), mp.prec)
        if not v > 0 or ab / v > 10 ** (GUARD_DIGITS - 3):
            raise PrecisionError("the variance-mixture integral lost too many digits")
        return v


def _value(kind, t, alpha, theta, lam, sigma, d):
    """pdf or sf at one finite t (sf: any sign) with all parameters parsed."""
    if sigma == 0:
        if lam > 0:
            return arete._evaluate_d(kind, t, alpha, theta, lam, d)
        return gamma_gamma._pdf_d(t, alpha, theta, d) if kind == "pdf" else gamma_gamma._sf_d(t, alpha, theta, d)
    route = _mixture if alpha < 1 else _variance_mixture
    if kind == "pdf":
        return route("pdf", t, alpha, theta, lam, sigma, d)
    if t == 0:
        return mp.mpf(1) / 2
    s = route("sf", t, alpha, theta, lam, sigma, d)
    if t > 0:
        return s
    with mp.workdps(d + GUARD_DIGITS):
        return 1 - s


def _evaluate(kind, t, alpha, theta, lam, sigma, d):
    alpha, theta, lam, sigma = _params(alpha, theta, lam, sigma, d)
    seq = _is_sequence(t)
    out = []
    for x in (t if seq else [t]):
        with mp.workdps(parse_precision(d)):
            x = real(x, "t")
        if mp.isinf(x):
            v = mp.zero if kind == "pdf" else (mp.zero if (x > 0) == (kind == "sf") else mp.one)
        elif kind == "cdf":
            with mp.workdps(parse_precision(d)):
                v = _value("sf", -x, alpha, theta, lam, sigma, d)
        else:
            v = _value(kind, x, alpha, theta, lam, sigma, d)
        out.append(v)
    return out if seq else out[0]


def pdf(t, alpha, theta, lam, sigma, *, digits=None):
    r"""Density :math:`f_Z(t)` to ``digits`` significant digits (module docstring: the formula).

    >>> from mpmath import mp
    >>> # lam = 0, alpha -> 0: Z -> N(0, sigma^2), f(0) -> 1/(sigma sqrt(2 pi))
    >>> mp.almosteq(pdf(0, "1e-9", 1, 0, 2, digits=15), 1 / (2 * mp.sqrt(2 * mp.pi)), 1e-7)
    True
    """
    return _evaluate("pdf", t, alpha, theta, lam, sigma, resolve_digits(digits))


def logpdf(t, alpha, theta, lam, sigma, *, digits=None):
    r""":math:`\ln f_Z(t)` with ``digits`` significant digits of the logarithm.

    >>> a, th, lam, sg = "0.3", 1, "0.2", "0.1"
    >>> # Var Z = 2 alpha theta^2 + 2 lam^2 + sigma^2 bounds nothing here; the log is finite and decreasing
    >>> logpdf(0, a, th, lam, sg, digits=12) > logpdf(1, a, th, lam, sg, digits=12)
    True
    """
    d = resolve_digits(digits)
    seq = _is_sequence(t)
    ts = list(t) if seq else [t]
    vals = _evaluate("pdf", ts, alpha, theta, lam, sigma, d)
    out = []
    for x, v in zip(ts, vals):
        with mp.workdps(d + GUARD_DIGITS):
            lv = mp.log(v) if v > 0 else mp.ninf
        if not mp.isinf(lv) and 0 < abs(lv) < 1:
            more = int(mp.ceil(-mp.log10(abs(lv)))) + 1
            if more > d + 40:
                raise PrecisionError("ln f(t) is too close to 0 to deliver the requested digits")
            v2 = _evaluate("pdf", x, alpha, theta, lam, sigma, d + more)
            with mp.workdps(d + more + GUARD_DIGITS):
                lv = mp.log(v2)
        out.append(lv)
    return out if seq else out[0]


def sf(t, alpha, theta, lam, sigma, *, digits=None):
    r"""Survival function :math:`P(Z > t)` (tails computed directly, not as ``1 - cdf``).

    >>> from mpmath import mp
    >>> mp.almosteq(sf(0, "0.2", 1, 0, "0.1"), mp.mpf(1) / 2)
    True
    """
    return _evaluate("sf", t, alpha, theta, lam, sigma, resolve_digits(digits))


def cdf(t, alpha, theta, lam, sigma, *, digits=None):
    r"""CDF :math:`P(Z \le t) = P(Z > -t)` (symmetry; no cancellation for ``t < 0``).

    >>> from mpmath import mp
    >>> s = sf("0.4", "0.2", 1, "0.1", "0.1", digits=12)
    >>> mp.almosteq(cdf("-0.4", "0.2", 1, "0.1", "0.1", digits=12), s, 1e-11)
    True
    """
    return _evaluate("cdf", t, alpha, theta, lam, sigma, resolve_digits(digits))


def mean_abs(alpha, theta, lam, sigma, *, digits=None):
    r""":math:`E|Z| = \frac2\pi\int_0^\infty (1-\varphi_Z(u))\,u^{-2}\,du` (certified by the
    tanh-sinh error estimate; closed forms for :math:`\sigma = 0`).

    >>> from mpmath import mp
    >>> a, th, lam, sg = "0.015", "0.854", 0, "0.027"
    >>> m = mean_abs(a, th, lam, sg, digits=15)
    >>> # E|Z| <= sqrt(Var Z) (Jensen) and E|Z| >= E|N| = sigma sqrt(2/pi) (Z = N + independent symmetric)
    >>> mp.mpf(sg) * mp.sqrt(2 / mp.pi) < m < mp.sqrt(var(a, th, lam, sg))
    True
    """
    d = resolve_digits(digits)
    alpha, theta, lam, sigma = _params(alpha, theta, lam, sigma, d)
    if sigma == 0:
        if lam > 0:
            return arete.mean_abs(alpha, theta, lam, digits=d)
        return gamma_gamma.mean_abs(alpha, theta, digits=d)
    with mp.workdps(d + GUARD_DIGITS):
        alpha, theta, lam, sigma = +alpha, +theta, +lam, +sigma

        def g(u, da, db):
            if u == 0:
                return var(alpha, theta, lam, sigma, digits=d) / 2
            u2 = u * u
            x = alpha * mp.log1p(theta * theta * u2) + sigma * sigma * u2 / 2
            if lam:
                x += mp.log1p(lam * lam * u2)
            return -mp.expm1(-x) / u2

        scales = [1 / theta, 1 / sigma] + ([1 / lam] if lam else [])
        lo, hi = min(scales) / 64, max(scales) * 64
        pts = [mp.zero, lo]
        while pts[-1] < hi:
            pts.append(pts[-1] * 4)
        pieces = list(zip(pts, pts[1:])) + [(pts[-1], mp.inf, pts[-1])]
        v, _err, _ab = integrate(g, pieces, mp.mpf(10) ** -(d + 3), mp.prec)
        return 2 * v / mp.pi


def var(alpha, theta, lam, sigma, *, digits=None):
    r""":math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2 + \sigma^2` (Lemma 3 plus the Gaussian).

    >>> from mpmath import mp
    >>> mp.almosteq(var("0.5", 2, 1, 3), 15)
    True
    """
    d = resolve_digits(digits)
    alpha, theta, lam, sigma = _params(alpha, theta, lam, sigma, d)
    with mp.workdps(d + GUARD_DIGITS):
        return 2 * alpha * theta**2 + 2 * lam**2 + sigma**2
