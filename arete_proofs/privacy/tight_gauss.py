r"""Tight privacy loss of :math:`Z = X_1 - X_2 + Y + N` (Arete with a Gaussian part).

:math:`X_i \sim \Gamma(\alpha,\theta)`, :math:`Y \sim \mathrm{Laplace}(\lambda)`,
:math:`N \sim \mathcal N(0,\sigma^2)` (density :mod:`arete_proofs.distributions.arete_gauss`).
:func:`tight_epsilon` returns :math:`\varepsilon^* = \sup_t L(t)`,
:math:`L(t) = \ell(t) - \ell(t+\Delta)`, :math:`\ell = \ln f_Z`, with a certificate: a
cover of :math:`[0,T]` by cells with rigorous upper bounds and a bound for :math:`t \ge T`,
in the style of :mod:`arete_proofs.privacy.tight` (the paper's Section 4.2 for
:math:`\sigma = 0`, to which :func:`tight_epsilon` delegates).  Write :math:`G = X_1 - X_2`
(density :math:`g`), :math:`W = G + Y` (density :math:`h`), :math:`V = Y + N` (density
:math:`v`), so :math:`Z = W + N = G + V`.

What is **proved** (items 1-5: :math:`0<\alpha<1`, :math:`\sigma > 0`, :math:`\lambda < \theta`;
items 6 and 7 the closed cases):

1. *Symmetric unimodal.*  :math:`g` is a mixture of centred Laplace densities
   (:mod:`~arete_proofs.distributions.arete_gauss`), :math:`Y` and :math:`N` are symmetric
   unimodal, and convolutions of symmetric unimodal densities are symmetric unimodal
   (Wintner), so :math:`\ell` is even and nonincreasing on :math:`[0,\infty)`.  As in
   :mod:`~arete_proofs.privacy.tight` (item 1): for :math:`t \le -\Delta/2`,
   :math:`|t| \ge |t+\Delta|` and :math:`L(t) \le 0`; for :math:`t = -s \in [-\Delta/2,0)`,
   :math:`L(-s) = \ell(s) - \ell(\Delta-s) \le \ell(s) - \ell(s+\Delta) = L(s)`.  Hence
   :math:`\varepsilon^* = \sup_{t \ge 0} L(t)`.
2. *Curvature from the Gaussian part.*  With :math:`f = h * \varphi_\sigma`,
   :math:`\ell' = -E[N \mid Z=t]/\sigma^2` and
   :math:`\ell''(t) = -1/\sigma^2 + \operatorname{Var}(N \mid Z = t)/\sigma^4 \ge -1/\sigma^2`.
3. *An upper curvature bound away from 0.*  Let :math:`u \ge u_1 > 0`,
   :math:`x_0 = u_1/2`, :math:`c = u - x_0 \ge u_1/2`.  The posterior of :math:`N` given
   :math:`Z = u` has density :math:`\propto \varphi_\sigma(n)\,h(u-n)`.  On
   :math:`R = \{n \le c\}` (i.e. :math:`u - n \ge x_0`) it is
   :math:`(1/\sigma^2 - K)`-strongly log-concave, where
   :math:`K \ge \sup_{w \ge x_0} (\ln h)''(w)`, so (Brascamp-Lieb, also on the convex set
   :math:`R`) its variance is :math:`\le \sigma^2/(1-K\sigma^2)` when :math:`K\sigma^2 < 1`.
   Its mean :math:`m_R` lies in :math:`[-\sigma, c]` (the tilt :math:`h(u-n)` increases in
   :math:`n` on :math:`R`: likelihood-ratio order), so for :math:`c \ge 2\sigma`,
   :math:`(n - m_R)^2 \le 4n^2` on :math:`n > c`, and :math:`\int h = 1` gives
   :math:`\operatorname{Var}(N\mid u) \le E[(N-m_R)^2 \mid u] \le \sigma^2/(1-K\sigma^2) + 4\,\gamma(c)/f(u)`,
   :math:`\gamma(c) = \sup_{n \ge c} n^2\varphi_\sigma(n)` (:math:`= c^2\varphi_\sigma(c)` for
   :math:`c \ge \sqrt2\sigma`).  Hence
   :math:`\ell''(u) \le K/(1-K\sigma^2) + 4\gamma(u_1/2)/(\sigma^4 f(u))`.
   :math:`K`: for :math:`\lambda = 0`, :math:`h = g` is a mixture of exponentials
   :math:`e^{-bw}` on :math:`w > 0`, so :math:`(\ln g)'' \le g''/g = E_{\text{post}}[b^2]`, which
   is nonincreasing in :math:`w` (its derivative is :math:`-\operatorname{Cov}(b, b^2) \le 0`);
   from the Bessel form :math:`g(w) \propto w^{\alpha-1/2}K_{1/2-\alpha}(w/\theta)`,
   :math:`g''/g = \theta^{-2}\,[K_{\nu+2}(z) - K_{\nu+1}(z)/z]/K_\nu(z)`, :math:`\nu = 1/2-\alpha`,
   :math:`z = w/\theta`, so :math:`K = g''(x_0)/g(x_0)`.  For :math:`\lambda > 0`,
   :math:`h = \int p(s)\,k_{s/\theta}\,ds` with log-concave kernels
   :math:`k_b = \mathrm{Lap}_b * \mathrm{Lap}_{1/\lambda}` whose log-slope lies in
   :math:`[-1/\lambda, 0]` on :math:`w>0`; the log of a mixture has
   :math:`(\ln h)'' = E[(\ln k)''] + \operatorname{Var}[(\ln k)'] \le 1/(4\lambda^2) = K`.
4. *Cell bounds* on :math:`[a,b] \subset [0,T]` from :math:`\ell` at :math:`a, b, a+\Delta, b+\Delta`
   (each with an absolute error allowance): (i) monotonicity,
   :math:`L(t) \le \ell(a) - \ell(b+\Delta)`; (ii) by 2 and 3 (with
   :math:`u_1 = a+\Delta`, :math:`f(u) \ge f(b+\Delta)`),
   :math:`L'' \ge -M`, :math:`M = 1/\sigma^2 + \max(0, \sup_{[a+\Delta,b+\Delta]}\ell'')`, so
   :math:`L \le` chord :math:`+\tfrac M2 (t-a)(b-t)`.  The cell's bound is the smaller.
5. *Tail.*  :math:`g` is log-convex on :math:`(0,\infty)` (completely monotone), so
   :math:`R(y) = g(y)/g(y+\Delta)` is nonincreasing.  Splitting :math:`f(t) = \int g(t-x)v(x)dx`
   at :math:`x = t - y_0` (:math:`y_0 = \eta T \le t`, :math:`\eta = (1-\lambda/\theta)/2`):
   :math:`f(t) \le R(y_0)\,f(t+\Delta) + v(t-y_0)`, with
   :math:`v(x) \le \varphi_\sigma(x)` (:math:`\lambda = 0`) or
   :math:`v(x) \le c\,e^{-cx + c^2\sigma^2/2}` (:math:`c = 1/\lambda`,
   :math:`e^{-c|y|} \le e^{-cx}e^{c|x-y|}`), and
   :math:`f(s) \ge P(V \in [0, w])\,g(s + w) \ge P(V\in[0,w])\,P(X \le \theta)\,f_\Gamma(s+w+\theta)`
   (:math:`w = \lambda + \sigma`, :math:`P(V \in [0,w]) \ge P(Y\in[0,\lambda])P(N\in[0,\sigma])`; Lemma 14's
   lower bound of :math:`g`).  So :math:`L(t) \le \ln(R(\eta T) + B(t))` with an explicit
   :math:`B`, and :math:`B` is nonincreasing on :math:`[T,\infty)` once its log-derivative at
   :math:`T` is :math:`\le 0` (checked); then :math:`\sup_{t\ge T} L \le \ln(R(\eta T) + B(T))`.
6. *Closed case* :math:`\lambda \ge \theta`: :math:`|v'| \le v/\lambda` gives
   :math:`|\ell'| \le 1/\lambda` and :math:`L \le \Delta/\lambda`, and
   :math:`e^{t/\lambda}f(t) \to E[e^{(G+N)/\lambda}]/(2\lambda)` (monotone convergence;
   :math:`\lambda = \theta`: :math:`G + Y` is Gamma-difference of shape :math:`\alpha+1`, tail
   rate :math:`1/\theta`) gives :math:`L \to \Delta/\lambda`: :math:`\varepsilon^* = \Delta/\lambda`,
   not attained.
7. *Closed case* :math:`\alpha \ge 1` (any :math:`\lambda \ge 0`, :math:`\sigma > 0`):
   :math:`\varepsilon^* = \Delta/\max(\theta,\lambda)`, not attained.  *Log-concavity:* the
   :math:`\Gamma(\alpha,\theta)` density has :math:`\ln f_\Gamma = (\alpha-1)\ln x - x/\theta +`
   const on :math:`x > 0` (and :math:`-\infty` on :math:`x \le 0`), concave for :math:`\alpha \ge 1`;
   so are those of :math:`-X_2`, :math:`Y` (:math:`-|y|/\lambda`) and :math:`N`, and a convolution
   of log-concave densities is log-concave (Prekopa), so :math:`\ell = \ln f_Z` is concave.
   *Monotone loss:* :math:`\ell` is concave and finite, so :math:`\ell'` exists a.e. and is
   nonincreasing, and :math:`L(t) = \int_t^{t+\Delta}(-\ell'(u))\,du` is nondecreasing in
   :math:`t`: :math:`\sup_t L = \lim_{t\to\infty} L(t) = \Delta\,r` with
   :math:`r = \lim_{u\to\infty}(-\ell'(u))` (monotone convergence).  *The rate:* :math:`r` is the
   abscissa of convergence of :math:`E\,e^{sZ}`: for :math:`s < r`, :math:`\ell(t) \le
   \ell(t_0) - (r-\delta)(t-t_0)` eventually (any :math:`\delta > 0`), so :math:`E\,e^{sZ} < \infty`;
   for :math:`s \ge r`, :math:`-\ell' \le r` gives :math:`\ell(t) \ge \ell(0) - rt` on
   :math:`t \ge 0` and :math:`E\,e^{sZ} = \infty`.  :math:`E\,e^{sZ} =
   (1-\theta^2s^2)^{-\alpha}(1-\lambda^2s^2)^{-1}e^{\sigma^2s^2/2}` is finite exactly for
   :math:`s < \min(1/\theta, 1/\lambda)` (:math:`1/\theta` when :math:`\lambda = 0`), so
   :math:`r = 1/\max(\theta,\lambda)`.  *Not attained:* :math:`L(t_0) = \Delta r` would force
   :math:`-\ell' = r` a.e. on :math:`[t_0,\infty)`, i.e. :math:`f_Z = Ce^{-rt}` there; :math:`f_Z`
   is real-analytic (a Gaussian convolution), so :math:`f_Z = Ce^{-rt}` on all of
   :math:`\mathbb R`, which is not integrable.  Checked in ``tests/test_gauss_alpha_ge_1.py``:
   :math:`L` from the exact density is nondecreasing on a grid and approaches :math:`\Delta r`
   from below.  Consequence: at :math:`\alpha = 1`, :math:`\sigma \to 0` this is the
   Laplace(:math:`\theta`) mechanism (Laplace * Laplace for :math:`\lambda > 0`), and for
   :math:`\alpha \ge 1` the noise is never better than Laplace at the same
   :math:`\varepsilon` (``docs/explanation/gamma-gaussian.md``).

What is **numerically checked**: the values of :math:`f_Z` (the exact engine, relative error
:math:`< 10^{-\text{dd}}` by its digits contract, ``dd`` chosen per point from the float64 slack of
its two cells), :math:`\ln g` (:mod:`~arete_proofs.distributions.gamma_gamma`, absolute error
:math:`< 10^{-8}`, tail only) and the Bessel ratio (mpmath at 30 digits, with a
:math:`10^{-6}` relative margin).  The float64 path
(:mod:`~arete_proofs.distributions.fast_gauss`) only places the cells: from its maximiser
outwards, each cell as long as its float64 bound allows (cell lengths grow geometrically); cells
whose certified bound is too high are bisected with engine values (plus a parabolic step
towards the maximum), so a misplaced float64 maximiser costs time, never validity.  The
bracket ``[lower_bound, upper_bound]`` has relative width :math:`\le 10^{-\text{digits}}` or
:class:`~arete_proofs.PrecisionError` is raised.

>>> from mpmath import mp
>>> r = tight_epsilon("0.014727", "0.85419", 0, "0.027054", digits=6)   # the Gamma + Gaussian optimum at eps = 8
>>> r.lower_bound <= r.epsilon <= r.upper_bound and mp.nstr(r.epsilon, 6)
'7.99995'
>>> 1e-3 < r.t_star < 3e-3 and r.tail_bound < r.lower_bound          # interior maximiser, tail below
True
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from mpmath import mp
from scipy import special

from .._validation import GUARD_DIGITS, PrecisionError, parse_precision, positive, real
from ..distributions import arete_gauss, fast_gauss, gamma_gamma
from . import tight
from .tight import TightEpsilon

__all__ = ["tight_epsilon", "curvature_bound", "tail_bound", "cell_bound", "check_cover"]

_GG_DIGITS = 8
_ETA = mp.mpf("1e-6")
_MIN_DIGITS = 6
_MAX_ENGINE_POINTS = 400
_CHECK_DIGITS = 4  # the loss at the best point is evaluated again with this many more digits


# ---------------------------------------------------------------------------
# the bounds (items 3-5), scalar, for floats (placement) or mpf (certificate)
# ---------------------------------------------------------------------------


def _bessel_ratio(alpha, theta, x, exact):
    """g''(x)/g(x) of the Gamma difference, x > 0 (item 3)."""
    nu = 0.5 - alpha
    if exact:
        with mp.workdps(30):
            z = mp.mpf(x) / theta
            k0, k1, k2 = (mp.besselk(nu + j, z) for j in (0, 1, 2))
            return (k2 - k1 / z) / k0 / theta**2 * (1 + _ETA)
    z = float(x) / float(theta)
    k0, k1, k2 = (special.kve(float(nu) + j, z) for j in (0, 1, 2))
    return (k2 - k1 / z) / k0 / float(theta) ** 2


def curvature_bound(u1, log_f_u2, alpha, theta, lam, sigma, exact=True):
    r"""Upper bound of :math:`\ell''(u)` on :math:`[u_1, u_2]`, :math:`u_1 > 0` (item 3),
    given a lower bound ``log_f_u2`` of :math:`\ln f(u_2)`; ``inf`` when item 3 does not apply.

    >>> from mpmath import mp
    >>> # that set at u in [1, 1.001]: the bound is O(10), far below 1/sigma^2
    >>> k = curvature_bound(1, mp.log(arete_gauss.pdf("1.001", "0.014727", "0.85419", 0, "0.027054", digits=8)) - 1e-6,
    ...                     mp.mpf("0.014727"), mp.mpf("0.85419"), 0, mp.mpf("0.027054"))
    >>> 0 < k < 20 < 1 / mp.mpf("0.027054") ** 2
    True
    """
    M = mp if exact else math
    s2 = sigma * sigma
    x0 = u1 / 2
    if x0 < 2 * sigma:
        return M.inf
    K = 1 / (4 * lam * lam) if lam else _bessel_ratio(alpha, theta, x0, exact)
    if not K * s2 < 1:
        return M.inf
    c = max(x0, math.sqrt(2) * sigma)
    log_gam = 2 * M.log(c) - c * c / (2 * s2) - M.log(sigma * M.sqrt(2 * M.pi))
    return K / (1 - K * s2) + 4 * M.exp(log_gam - log_f_u2) / (s2 * s2)


def cell_bound(a, b, la, lb, lA, lB, e, M):
    r"""Upper bound of :math:`L = \ell(t) - \ell(t+\Delta)` on :math:`[a, b]` (item 4), from
    :math:`\ell` at :math:`a, b, a+\Delta, b+\Delta` (each within ``e``) and :math:`L'' \ge -M`.

    >>> # a linear L (M = 0): the bound is the larger endpoint value plus the error allowance
    >>> cell_bound(0.0, 1.0, 0.0, -1.0, -2.0, -3.5, 0.0, 0.0)
    2.5
    """
    U1 = la - lB
    La, Lb = la - lA, lb - lB
    h = b - a
    if M < float("inf") and M > 0:
        s = (Lb - La) / h
        t = min(max((a + b) / 2 + s / M, a), b)
        U2 = La + s * (t - a) + M / 2 * (t - a) * (b - t)
    elif M == 0:
        U2 = max(La, Lb)
    else:
        U2 = U1
    return min(U1, U2) + 2 * e


class _Problem:
    def __init__(self, alpha, theta, lam, sigma, shift, digits, workers):
        self.alpha, self.theta, self.lam, self.sigma, self.shift = alpha, theta, lam, sigma, shift
        self.digits = digits
        self.af, self.thf, self.lamf, self.sgf, self.shf = (float(x) for x in (alpha, theta, lam, sigma, shift))
        self.workers = workers
        self.cache = {}  # t -> (dd, log f)
        self.evaluations = 0
        self._gg = {}

    def fl(self, t):
        return fast_gauss.logpdf(np.asarray(t, dtype=float), self.af, self.thf, self.lamf, self.sgf)

    def fL(self, t):
        t = np.asarray(t, dtype=float)
        return self.fl(t) - self.fl(t + self.shf)

    def M(self, a, b, lB, exact):
        sg = self.sigma if exact else self.sgf
        if exact:
            k = curvature_bound(a + self.shift, lB, self.alpha, self.theta, self.lam, self.sigma, True)
        else:
            k = curvature_bound(a + self.shf, lB, self.af, self.thf, self.lamf, self.sgf, False)
        return 1 / (sg * sg) + max(k, 0)

    def ell(self, ts, dds):
        """Engine ln f at the points ``ts`` (mpf) with per-point digits; cached."""
        need = [(t, d) for t, d in zip(ts, dds) if t not in self.cache or self.cache[t][0] < d]
        if need:
            args = [(t, d, self.alpha, self.theta, self.lam, self.sigma) for t, d in need]
            if self.workers > 1 and len(args) > 1:
                with ProcessPoolExecutor(self.workers) as ex:
                    vals = list(ex.map(_engine_log, args, chunksize=max(1, len(args) // (4 * self.workers))))
            else:
                vals = [_engine_log(x) for x in args]
            self.evaluations += len(need)
            for (t, d), v in zip(need, vals):
                self.cache[t] = (d, v)
        return [self.cache[t][1] for t in ts]

    def err(self, t):
        d = self.cache[t][0]
        return mp.mpf(10) ** -d * mp.mpf("1.001")

    def lgg(self, x):
        v = self._gg.get(x)
        if v is None:
            with mp.workdps(30):
                size = x / self.theta + abs(mp.log(x)) + abs(mp.log(self.theta)) + abs(mp.loggamma(self.alpha)) + 10
                extra = int(mp.ceil(mp.log10(size)))
            v = self._gg[x] = gamma_gamma.logpdf(x, self.alpha, self.theta, digits=_GG_DIGITS + extra)
        return v


def _engine_log(args):
    t, d, alpha, theta, lam, sigma = args
    v = arete_gauss.pdf(t, alpha, theta, lam, sigma, digits=d)
    if not v > 0:
        raise PrecisionError("f underflowed to 0 inside the search interval")
    with mp.workdps(d + 20):
        return mp.log(v)


def tail_bound(P, T):
    r"""Certified upper bound of :math:`\sup_{t \ge T} L(t)` (item 5); ``inf`` if :math:`B` is not yet decreasing.

    :math:`\ln(R(\eta T) + B(T))` for the problem ``P`` (the internal ``_Problem`` that
    :func:`tight_epsilon` and :func:`check_cover` build from the parameters).

    >>> from mpmath import mp
    >>> P = _Problem(*_parse("0.3", 1, 0, "0.2", 1, 6)[:5], 6, 1)     # alpha, theta, lam, sigma, Delta
    >>> def L(t):
    ...     f = [arete_gauss.pdf(x, "0.3", 1, 0, "0.2", digits=8) for x in (t, t + 1)]
    ...     return mp.log(f[0] / f[1])
    >>> tb = tail_bound(P, 4)
    >>> L(8) < L(4) < tb < 1.3 and 1 < tb       # above L on [4, oo) and above its limit Delta/theta = 1
    True
    >>> tail_bound(P, "0.1") == mp.inf            # too close to 0: B still increases
    True
    """
    a, th, lam, sg, d = P.alpha, P.theta, P.lam, P.sigma, P.shift
    with mp.workdps(30):
        T = mp.mpf(T)
        y0 = T * ((1 - lam / th) / 2 if lam else mp.mpf(1) / 2)
        w = lam + sg
        C = d + w + th
        pN = mp.ncdf(1) - mp.mpf(1) / 2
        pV = pN * ((1 - mp.exp(-1)) / 2 if lam else 1)
        log_kappa = mp.log(pV) + mp.log(mp.gammainc(a, 0, 1, regularized=True))
        log_inv_fG = mp.loggamma(a) + a * mp.log(th) + (1 - a) * mp.log(T + C) + (T + C) / th
        x = T - y0
        if lam:
            c = 1 / lam
            log_v = mp.log(c) - c * x + c * c * sg * sg / 2
            slope = -c + 1 / th + (1 - a) / (T + C)
        else:
            log_v = -x * x / (2 * sg * sg) - mp.log(sg * mp.sqrt(2 * mp.pi))
            slope = -x / (sg * sg) + 1 / th + (1 - a) / (T + C)
        if slope > 0:
            return mp.inf
        logB = log_v - log_kappa + log_inv_fG
        logR = P.lgg(y0) - P.lgg(y0 + d) + 10 * mp.mpf(10) ** -_GG_DIGITS
        return mp.log(mp.exp(logR) + mp.exp(logB))


# ---------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------


def _choose_T(P, L_est, limit):
    target = limit + (L_est - limit) / 2
    T = max(P.thf / 8, 8 * P.sgf, P.lamf)
    while T < 1e4 * (P.thf + P.shf):
        if tail_bound(P, T) < target:
            return T
        T *= 1.25
    raise PrecisionError("the tail bound does not fall below the maximum found")


def _locate(P, t_f, dd):
    """The float64 maximiser ``t_f`` with its engine value of L and the float64 curvature: (t0, L0, kappa).

    No engine search: ``t0`` is only where the cover starts (its finest cells sit around it);
    if the true maximiser lies elsewhere, the cells there fail their bound and are refined
    (bisection plus a parabolic step on engine values, :func:`_refine`).
    """
    fl = lambda t: float(P.fL(np.array([t]))[0])  # noqa: E731
    hq = max(1e-4 * max(t_f, P.sgf), 1e-12)
    kap = max(-(fl(t_f + hq) - 2 * fl(t_f) + fl(max(t_f - hq, 0))) / hq**2, 1e-6)
    c = mp.mpf(t_f)
    with mp.workdps(dd + 40):
        v = P.ell([c, c + P.shift], [dd, dd])
    return c, v[0] - v[1], kap


#: step factors tried from each cover point (2^(k/4), 1/64 .. 16 times the last step)
_STEPS = 2.0 ** (np.arange(-24, 17) / 4)


def _place(P, t0, L0, kap, tol, T):
    """Float64 placement of the cover points of [0, T] (a quadratic model near t0).

    From each point the longest step (among ``_STEPS`` times the last one) whose float64 cell
    bound is at most ``L0 + tol/2``.  Returns the points and, per cell, that float64 bound.
    """
    sh = P.shf
    offset = L0 - float(P.fL(np.array([t0]))[0])

    def model(t):
        t = np.asarray(t, dtype=float)
        q = L0 - kap * (t - t0) ** 2 / 2
        near = kap * (t - t0) ** 2 / 2 < 1e-7 * max(1.0, abs(L0))
        return np.where(near, q, P.fL(t) + offset), P.fl(t + sh)

    def U(a, b):
        n = len(a)
        L, lS = model(np.concatenate([a, b]))
        out = np.empty(n)
        for j in range(n):
            la, lb = L[j] + lS[j], L[n + j] + lS[n + j]
            out[j] = cell_bound(a[j], b[j], la, lb, lS[j], lS[n + j], 0.0, P.M(a[j], b[j], lS[n + j], False))
        return out

    target = L0 + tol / 2
    pts, bounds = [t0], {}
    for direction, stop in ((1, T), (-1, 0.0)):
        x = t0
        h = math.sqrt(tol) * P.sgf  # chord + (1/sigma^2)/8 h^2 <= L0 + tol/8 around t0
        while (x < stop) if direction > 0 else (x > stop):
            ys = np.unique(np.minimum(x + h * _STEPS, stop) if direction > 0 else np.maximum(x - h * _STEPS, stop))
            ys = ys[ys != x]
            a, b = np.minimum(x, ys), np.maximum(x, ys)
            u = U(a, b)
            ok = (u <= target) | (b - a < 1e-15 * np.maximum(b, 1e-300))
            if not ok.any():
                h *= 2.0 ** -6
                if not h > 1e-300:
                    raise PrecisionError("tight epsilon (Gaussian part): the float placement found no cell")
                continue
            j = int(np.flatnonzero(ok).max()) if direction > 0 else int(np.flatnonzero(ok).min())
            y = float(ys[j])
            bounds[(min(x, y), max(x, y))] = float(u[j])
            h, x = abs(y - x), y
            pts.append(y)
            if len(pts) > _MAX_ENGINE_POINTS:
                raise PrecisionError("tight epsilon (Gaussian part): the cover needs too many cells")
    pts = sorted(set(pts))
    return pts, [bounds.get((a, b), target) for a, b in zip(pts, pts[1:])]


def _point_digits(pts_f, cell_u, L0, tol, dd_max):
    """Engine digits per cover point from the float64 slack of its cells.

    A point's value enters the bounds of its two cells; an error ``e`` in each of the four
    values of ``ln f`` moves a cell bound by at most ``4e`` (``2e`` in the values, ``2e`` the
    allowance), so ``e <= slack/8`` keeps half the slack ``L0 + tol - U`` for float64 model error.
    """
    n = len(pts_f)
    slack = [math.inf] * n
    for k, u in enumerate(cell_u):
        s = max(L0 + tol - u, tol / 2)
        slack[k], slack[k + 1] = min(slack[k], s), min(slack[k + 1], s)
    return [int(min(dd_max, max(_MIN_DIGITS, math.ceil(-math.log10(s / 8))))) if s < math.inf else dd_max
            for s in slack]


def _refine(pts, dds, Us, Ls, level, dd_f):
    """New points for the cells whose bound is above ``level``: midpoints, plus the vertex of the
    parabola through the best point and its neighbours when it falls in such a cell."""
    new = {}
    bad = [k for k, u in enumerate(Us) if u > level]
    for k in bad:
        new[(pts[k] + pts[k + 1]) / 2] = min(dd_f, max(dds[k], dds[k + 1]) + 2)
    i = max(range(len(Ls)), key=lambda j: Ls[j])
    if 0 < i < len(pts) - 1:
        (x0, x1, x2), (y0, y1, y2) = pts[i - 1:i + 2], Ls[i - 1:i + 2]
        den = (x1 - x0) * (y1 - y2) - (x1 - x2) * (y1 - y0)
        if den:
            xv = x1 - ((x1 - x0) ** 2 * (y1 - y2) - (x1 - x2) ** 2 * (y1 - y0)) / (2 * den)
            for k in bad:
                if pts[k] < xv < pts[k + 1]:
                    new[xv] = dd_f
    return new


def _search(P):
    digits = P.digits
    limit = P.shift / P.theta
    grid = np.unique(np.concatenate([[0.0], np.geomspace(1e-9, 1, 400) * max(P.sgf, 1e-3) * 20,
                                     np.linspace(0, 2 * P.thf + 4 * P.shf, 400)]))
    Lg = P.fL(grid)
    i = int(np.argmax(Lg))
    L_est = float(Lg[i])
    if not L_est > float(limit):
        raise PrecisionError("the float64 estimate of the privacy loss is not above the tail limit")
    # float golden-section refinement
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
        if P.fL(np.array([c]))[0] > P.fL(np.array([d]))[0]:
            hi = d
        else:
            lo = c
    t_f = (lo + hi) / 2
    extra = max(0, math.ceil(-math.log10(L_est)))
    # engine digits at the maximiser: errors of 10^-dd_f move the bracket by ~4 10^-dd_f << 10^-digits L
    dd_f = digits + 2 + extra
    tol = mp.mpf(10) ** -digits * mp.mpf(L_est) * mp.mpf("0.45")
    T = _choose_T(P, L_est, float(limit))
    t0, L0, kap = _locate(P, t_f, dd_f)
    pts_f, cell_u = _place(P, float(t0), float(L0), kap, float(tol), T)
    dd_pts = _point_digits(pts_f, cell_u, float(L0), float(tol), dd_f)
    allp = {mp.mpf(x): d for x, d in zip(pts_f, dd_pts)}
    allp[t0] = dd_f
    pts = sorted(allp)
    dds = [allp[x] for x in pts]
    cells = {}
    with mp.workdps(dd_f + 40):
        def certify(pts, dds):
            vals = P.ell(pts + [t + P.shift for t in pts], dds + dds)
            n = len(pts)
            lv, m = vals[:n], vals[n:]
            errs = [max(P.err(t), P.err(t + P.shift)) for t in pts]
            Ls = [lv[k] - m[k] - 2 * errs[k] for k in range(n)]
            Us = []
            for k in range(n - 1):
                key = (pts[k], pts[k + 1], dds[k], dds[k + 1])  # a cell's bound is kept across rounds
                if key not in cells:
                    e = max(errs[k], errs[k + 1])
                    Mk = P.M(pts[k], pts[k + 1], m[k + 1] - e, True)
                    cells[key] = cell_bound(pts[k], pts[k + 1], lv[k], lv[k + 1], m[k], m[k + 1], e, Mk)
                Us.append(cells[key])
            return Us, Ls

        for _round in range(60):
            Us, Ls = certify(pts, dds)
            L_lo = max(Ls)
            if not any(u > L_lo + tol for u in Us):
                break
            if P.evaluations > _MAX_ENGINE_POINTS:
                bad = sum(u > L_lo + tol for u in Us)
                raise PrecisionError(f"tight epsilon (Gaussian part): {bad} cells above the tolerance")
            allp = dict(zip(pts, dds))
            allp.update(_refine(pts, dds, Us, Ls, L_lo + tol, dd_f))
            pts = sorted(allp)
            dds = [allp[x] for x in pts]
        else:
            raise PrecisionError("tight epsilon (Gaussian part): the cover did not converge")
        tb = tail_bound(P, pts[-1])
        if not tb < L_lo:
            raise PrecisionError("the tail bound is not below the maximum found")
        k = max(range(len(Ls)), key=lambda i: Ls[i])
        best_t = pts[k]
        v1 = P.ell([best_t, best_t + P.shift], [dd_f, dd_f])
        e1 = 2 * max(P.err(best_t), P.err(best_t + P.shift))
        # the value at the best point again at _CHECK_DIGITS more digits (a check of the digits contract)
        dd2 = dd_f + _CHECK_DIGITS
        v2 = [_engine_log((x, dd2, P.alpha, P.theta, P.lam, P.sigma)) for x in (best_t, best_t + P.shift)]
        P.evaluations += 2
        L1, L2 = v1[0] - v1[1], v2[0] - v2[1]
        e2 = 2 * mp.mpf(10) ** -dd2 * mp.mpf("1.001")
        if abs(L1 - L2) > e1 + e2:
            raise PrecisionError("the privacy loss at the maximiser disagrees between two precisions")
        lower = max(L_lo, L2 - e2)
        upper = max(max(Us), tb, lower)
        width = upper - lower
        if width > mp.mpf(10) ** -digits * lower:
            raise PrecisionError(f"certified bracket too wide: [{mp.nstr(lower, digits + 3)}, {mp.nstr(upper, digits + 3)}]")
        achieved = float(-mp.log10(width / lower)) if width > 0 else float("inf")
        eps = min(max(L2, lower), upper)
    with mp.workdps(digits + GUARD_DIGITS):
        return TightEpsilon(epsilon=eps, t_star=best_t, digits=digits, evaluations=P.evaluations,
                            tail_limit=+limit, lower_bound=lower, upper_bound=upper, attained=True,
                            method="search (Gaussian part)", search_end=pts[-1], tail_bound=+tb,
                            cells=len(pts) - 1, achieved_digits=achieved, cover=tuple(pts))


def _parse(alpha, theta, lam, sigma, Delta, digits):
    digits = tight._digits(digits)
    with mp.workdps(parse_precision(digits + 20)):
        alpha, theta = positive(alpha, "alpha"), positive(theta, "theta")
        lam, sigma = real(lam, "lam"), real(sigma, "sigma")
        for name, v in (("lam", lam), ("sigma", sigma)):
            if v < 0 or mp.isinf(v):
                raise ValueError(f"{name} must be finite and non-negative, got {mp.nstr(v, 8)}")
        Delta = positive(Delta, "Delta")
        if mp.isinf(Delta):
            raise ValueError("Delta must be finite")
    if lam == 0 and sigma == 0:
        raise ValueError("lam and sigma are both 0: the density of X1 - X2 alone is infinite at 0 for "
                         "alpha <= 1/2 and the privacy loss is unbounded; give lam > 0 or sigma > 0")
    return alpha, theta, lam, sigma, Delta, digits


def tight_epsilon(alpha, theta, lam, sigma, Delta=1, *, digits=12, workers=1):
    r"""Tight :math:`\varepsilon^* = \sup_t \ln f_Z(t)/f_Z(t+\Delta)` of :math:`X_1 - X_2 + Y + N`.

    Returns :class:`~arete_proofs.privacy.tight.TightEpsilon` (certified bracket
    ``lower_bound <= sup <= upper_bound`` of relative width :math:`\le 10^{-\text{digits}}`;
    ``cover``: the cell endpoints; ``tail_bound``: the bound of item 5 at ``search_end``).
    ``sigma = 0`` is Arete (:func:`arete_proofs.privacy.tight.tight_epsilon`); ``workers``
    engine processes evaluate the cover in parallel.

    >>> from mpmath import mp
    >>> from arete_proofs.privacy import tight
    >>> # sigma = 0 is Arete's tight epsilon (Figure 4's eps = 7 set)
    >>> a, th, lam = tight.FIGURE_4[7]
    >>> tight_epsilon(a, th, lam, 0, digits=5).epsilon == tight.tight_epsilon(a, th, lam, digits=5).epsilon
    True
    >>> # lam >= theta: the Lipschitz bound Delta/lam is the tail limit (item 6)
    >>> tight_epsilon("0.3", 1, 2, "0.1").epsilon == mp.mpf(1) / 2
    True
    >>> # alpha >= 1: f_Z is log-concave, eps* = Delta / max(theta, lam), approached as t -> oo (item 7)
    >>> r = tight_epsilon(2, "0.5", "0.2", "0.1", 3)
    >>> r.epsilon == 6 and not r.attained
    True
    """
    alpha, theta, lam, sigma, Delta, digits = _parse(alpha, theta, lam, sigma, Delta, digits)
    if sigma == 0:
        return tight.tight_epsilon(alpha, theta, lam, Delta, digits=digits)
    if lam >= theta:
        with mp.workdps(digits + GUARD_DIGITS):
            v = Delta / lam
            return TightEpsilon(epsilon=v, t_star=mp.inf, digits=digits, evaluations=0, tail_limit=v,
                                lower_bound=v, upper_bound=v, attained=False,
                                method="lipschitz = tail limit (lam >= theta)")
    if alpha >= 1:
        with mp.workdps(digits + GUARD_DIGITS):
            v = Delta / max(theta, lam)
            return TightEpsilon(epsilon=v, t_star=mp.inf, digits=digits, evaluations=0, tail_limit=v,
                                lower_bound=v, upper_bound=v, attained=False,
                                method="log-concave: tail limit (alpha >= 1)")
    P = _Problem(alpha, theta, lam, sigma, Delta, digits, int(workers))
    return _search(P)


def check_cover(points, alpha, theta, lam, sigma, Delta=1, *, digits=10):
    r"""Certified upper bound of :math:`\sup_{t \ge 0} L(t)` from a *given* cover (no refinement).

    ``points`` must start at 0; the cells between consecutive points get the bounds of
    item 4 (engine values at ``digits``), :math:`t \ge \max(\text{points})` the tail bound of
    item 5.  Returns ``(lower, upper)``: a cover that misses the maximiser's cell, or ends where
    the tail bound is still above the maximum, gives an ``upper`` above the true supremum
    (never below it) -- the audit used by the tests on deliberately broken covers.

    >>> lo, up = check_cover([0, "0.5", 1, 2], "0.3", 1, 0, "0.2", digits=6)
    >>> lo <= up
    True
    """
    alpha, theta, lam, sigma, Delta, digits = _parse(alpha, theta, lam, sigma, Delta, digits)
    if sigma == 0 or lam >= theta:
        raise ValueError("check_cover applies to sigma > 0 and lam < theta")
    if alpha >= 1:
        raise ValueError("check_cover applies to alpha < 1 (items 3 and 5); for alpha >= 1 "
                         "tight_epsilon's closed form Delta / max(theta, lam) holds (item 7)")
    P = _Problem(alpha, theta, lam, sigma, Delta, digits, 1)
    with mp.workdps(parse_precision(digits + 20)):
        pts = sorted({real(x, "points") for x in points})
    upper = mp.inf if pts[0] > 0 else mp.ninf
    with mp.workdps(digits + 40):
        lv = P.ell(pts, [digits] * len(pts))
        m = P.ell([t + P.shift for t in pts], [digits] * len(pts))
        e = mp.mpf(10) ** -digits * mp.mpf("1.001")
        lower = max(a - b for a, b in zip(lv, m)) - 2 * e
        for k in range(len(pts) - 1):
            Mk = P.M(pts[k], pts[k + 1], m[k + 1] - e, True)
            upper = max(upper, cell_bound(pts[k], pts[k + 1], lv[k], lv[k + 1], m[k], m[k + 1], e, Mk))
        upper = max(upper, tail_bound(P, pts[-1]))
    return lower, upper
