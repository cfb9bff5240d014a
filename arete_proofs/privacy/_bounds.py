r"""Certified upper bounds of the privacy loss :math:`L_d(t) = \ln f_A(t) - \ln f_A(t+d)` (items 4-6).

Private helpers of :func:`arete_proofs.privacy.tight.tight_epsilon`; the proofs are
in the module docstring of :mod:`arete_proofs.privacy.tight`.

* :class:`_Problem` -- the values of :math:`\ell = \ln f_A` and :math:`\ln f_{\Gamma-\Gamma}`
  at cell endpoints :math:`p` and :math:`p + d`: float64 (:mod:`arete_proofs.distributions.fast`,
  for the search only) or engine values (:mod:`arete_proofs.distributions.arete`,
  :mod:`arete_proofs.distributions.gamma_gamma`, for the certificate);
* :func:`_cell_bounds` -- upper bounds of :math:`L_d` on every cell :math:`[a, b]` of a
  cover (item 5), the smallest of (i) monotonicity + the Lipschitz bound
  :math:`|\ell'| \le 1/\lambda`, (ii) the chord plus :math:`\tfrac M2 (t-a)(b-t)` from the
  curvature bound :math:`L_d'' \ge -M`, with (item 4)

  .. math::

      L_d''(t) = \frac{r(t+d) - r(t)}{\lambda^2} + q(t+d)^2 - q(t)^2, \qquad
      r = f_{\Gamma-\Gamma}/f_A,\; q = \ell',

  and (iii) the extended chords of the neighbouring cells where :math:`L_d` is
  certified concave; generic over float64 arrays and object arrays of mpf (:class:`_Num`);
* :func:`_tail_bound` -- the bound of :math:`\sup_{t \ge T} L_d(t)` (item 6,
  :math:`0 < \alpha < 1`, :math:`\lambda < \theta`):

  .. math::

      L_d(t) \le \ln\big(R(\eta T) + K\,(T+c)^{1-\alpha} e^{-T((1-\eta)/\lambda - 1/\theta)}\big),
      \qquad R(y) = f_{\Gamma-\Gamma}(y)/f_{\Gamma-\Gamma}(y+d).
"""

from __future__ import annotations

import math

import numpy as np
from mpmath import mp

from ..distributions import arete, fast, gamma_gamma
from .._validation import PrecisionError

__all__ = ["_Problem", "_Num", "_obj", "_cell_bounds", "_tail_setup", "_tail_bound"]

_GG_DIGITS = 8  # precision of f_GG inside the curvature bounds
_ETA = mp.mpf("1e-6")  # relative safety margin on the r = f_GG/f_A bounds
_MAX_RHO = mp.mpf("1e300")  # largest theta/lam the float64 search accepts (see _Problem)


# ---------------------------------------------------------------------------
# the problem: values of l = ln f_A and ln f_GG at p and p + shift
# ---------------------------------------------------------------------------


class _Problem:
    def __init__(self, alpha, theta, lam, shift, digits):
        self.alpha, self.theta, self.lam, self.shift = alpha, theta, lam, shift
        self.digits = digits
        self.af, self.thf, self.lamf, self.shf = (float(x) for x in (alpha, theta, lam, shift))
        # the float64 search needs float images of the parameters and of the scales it works on
        with mp.workdps(30):
            rho = theta / lam
            bad = [(n, v) for n, v in (("alpha", alpha), ("theta", theta), ("lam", lam), ("Delta", shift),
                                       ("theta/lam", rho), ("Delta/lam", shift / lam))
                   if not mp.mpf("1e-300") <= v <= mp.mpf("1e300")]
            if rho > _MAX_RHO:
                bad.append(("theta/lam", rho))
        if bad:
            n, v = bad[0]
            raise PrecisionError(
                f"tight epsilon: {n} = {mp.nstr(v, 5)} is outside the range of the float64 search that "
                f"places the cells (every parameter and Delta/lam in [1e-300, 1e300], theta/lam <= "
                f"{mp.nstr(_MAX_RHO, 3)})")
        th, la = self.thf, self.lamf
        # fast.py is validated for theta, lam in [1e-3, 1e3]; Arete rescales (Z/s ~ Arete(alpha, theta/s, lam/s))
        self.s = 1.0 if (1e-3 <= th <= 1e3 and 1e-3 <= la <= 1e3) else math.exp((math.log(th) + math.log(la)) / 2)
        self.evaluations = 0
        self.gg_evaluations = 0
        self.float_evaluations = 0
        self._gg_cache = {}

    # -- float64 (search only) ------------------------------------------------
    def fvals(self, t):
        t = np.asarray(t, dtype=float)
        s = self.s
        x, y = t / s, (t + self.shf) / s
        ls = math.log(s)
        a, th, la = self.af, self.thf / s, self.lamf / s
        self.float_evaluations += 2 * t.size
        try:
            l = fast.logpdf(x, a, th, la) - ls
            m = fast.logpdf(y, a, th, la) - ls
        except PrecisionError as e:
            raise PrecisionError(f"tight epsilon: the float64 search that places the cells fails here ({e})") from None
        with np.errstate(all="ignore"):
            g = fast.gg_logpdf(x, a, th) - ls
            G = fast.gg_logpdf(y, a, th) - ls
        return l, m, g, G

    # -- engine (certificate) ---------------------------------------------------
    def lgg(self, x):
        """ln f_GG(x), x >= 0, with absolute error < 10^-_GG_DIGITS (cached).

        gamma_gamma.logpdf delivers *significant* digits of the logarithm, so digits are
        added for its magnitude (about x/theta + |ln x| + |ln theta| + ln Gamma(alpha))."""
        v = self._gg_cache.get(x)
        if v is None:
            self.gg_evaluations += 1
            with mp.workdps(30):
                size = (x / self.theta + abs(mp.log(x)) if x > 0 else 0) + abs(mp.log(self.theta)) \
                    + abs(mp.loggamma(self.alpha)) + 10
                extra = int(mp.ceil(mp.log10(size)))
            v = gamma_gamma.logpdf(x, self.alpha, self.theta, digits=_GG_DIGITS + extra)
            self._gg_cache[x] = v
        return v

    def evals(self, pts, dd):
        """(l, m, g, G) as object arrays of mpf at the points ``pts`` (mpf, exact)."""
        W = dd + 40
        with mp.workdps(W):
            sh = [p + self.shift for p in pts]
        vals = arete.pdf(list(pts) + sh, self.alpha, self.theta, self.lam, digits=dd)
        self.evaluations += len(vals)
        n = len(pts)
        with mp.workdps(dd + 20):
            logs = []
            for v in vals:
                if not v > 0:
                    raise PrecisionError("f_A underflowed to 0 inside the search interval")
                logs.append(mp.log(v))
        g = [self.lgg(p) for p in pts]
        G = [self.lgg(q) for q in sh]
        return _obj(logs[:n]), _obj(logs[n:]), _obj(g), _obj(G)

    def engine_L(self, t, dd):
        """L(t) = l(t) - l(t + shift) from one engine call at ``dd`` digits."""
        with mp.workdps(dd + 40):
            ts = [+t, t + self.shift]
        vals = arete.pdf(ts, self.alpha, self.theta, self.lam, digits=dd)
        self.evaluations += 2
        with mp.workdps(dd + 20):
            return mp.log(vals[0]) - mp.log(vals[1])


def _obj(seq):
    out = np.empty(len(seq), dtype=object)
    out[:] = list(seq)
    return out


# ---------------------------------------------------------------------------
# cell bounds (item 5 of the tight module docstring), generic over float64 / mpf arrays
# ---------------------------------------------------------------------------


class _Num:
    """Arithmetic namespace: float64 arrays (search) or object arrays of mpf (certificate)."""

    def __init__(self, mpmode):
        self.mp = mpmode
        self.inf = mp.inf if mpmode else np.inf
        self.exp = np.frompyfunc(mp.exp, 1, 1) if mpmode else np.exp

    def b(self, x):
        return np.asarray(x).astype(bool)

    def full(self, n, v):
        if self.mp:
            out = np.empty(n, dtype=object)
            out[:] = [v] * n
            return out
        return np.full(n, v, dtype=float)


def _clip(x, lo, hi):
    return np.minimum(np.maximum(x, lo), hi)


def _cell_bounds(p, l, m, g, G, lam, e, num):
    """Upper bounds of L = l(t) - l(t + shift) on every cell [p_i, p_{i+1}].

    ``e`` bounds the absolute error of every value in ``l`` and ``m``; ``g``, ``G``
    (ln f_GG) only enter the curvature bounds, with the relative margin ``_ETA``.
    Returns (U, L, concave flags).
    """
    inf = num.inf
    exp = num.exp
    eta = _ETA if num.mp else 1e-6
    L = l - m
    a, b = p[:-1], p[1:]
    h = b - a
    la, lb, lA, lB = l[:-1], l[1:], m[:-1], m[1:]
    La, Lb = L[:-1], L[1:]
    n = len(h)
    two_e = 2 * e

    # (i) monotonicity + Lipschitz
    def f1(t):
        return np.minimum(la, lb + (b - t) / lam) + np.minimum(-lB, -lA + (t - a) / lam)

    t1 = _clip(b - lam * (la - lb), a, b)
    t2 = _clip(a + lam * (lA - lB), a, b)
    U1 = np.maximum(np.maximum(f1(a), f1(b)), np.maximum(f1(t1), f1(t2))) + two_e

    # slopes: q = l' on the cell lies within K h of the mean slope (MVT), K >= |l''|
    r_hi = exp(g[:-1] - lb) * (1 + eta)  # >= r(t) = f_GG(t)/f_A(t), t in [a, b]
    r_lo = exp(g[1:] - la) * (1 - eta)  # <= r(t)
    R_hi = exp(G[:-1] - lB) * (1 + eta)  # >= r(t + d)
    R_lo = exp(G[1:] - lA) * (1 - eta)  # <= r(t + d)
    lam2 = lam * lam
    qcap = 1 / lam

    def qrange(lo_, hi_, rmax, rmin):
        mean = np.abs(hi_ - lo_) / h
        K = np.maximum(rmax, np.abs(1 - rmin)) / lam2
        fin = num.b(K < inf)
        spread = np.where(fin, K * h, 0 * h + qcap) + two_e / h
        qmax = np.minimum(mean + spread, 0 * h + qcap)
        qmin = np.maximum(mean - spread, 0 * h)
        return qmin, qmax

    qmin_t, qmax_t = qrange(la, lb, r_hi, r_lo)
    qmin_s, qmax_s = qrange(lA, lB, R_hi, R_lo)
    # (ii) L'' = (r(t+d) - r(t))/lam^2 + q(t+d)^2 - q(t)^2 >= -M  (l'' = (1 - r)/lam^2 - q^2 exactly)
    M = (r_hi - R_lo) / lam2 + qmax_t * qmax_t - qmin_s * qmin_s
    okM = num.b(M < inf)
    Ms = np.where(okM, M, 0 * h)
    pos = num.b(Ms > 0)
    Mp = np.where(pos, Ms, 0 * h + 1)
    s = (Lb - La) / h
    topt = _clip((a + b) / 2 + s / Mp, a, b)
    quad = La + s * (topt - a) + Mp / 2 * (topt - a) * (b - topt)
    U2 = np.where(pos, quad, np.maximum(La, Lb)) + two_e
    U2 = np.where(okM, U2, num.full(n, inf))

    # (iii) concavity certified by the upper curvature bound
    #       L'' <= (r(t+d)_max - r(t)_min)/lam^2 + q(t+d)_max^2 - q(t)_min^2 <= 0: extended chords of the neighbours
    Cup = (R_hi - r_lo) / lam2 + qmax_s * qmax_s - qmin_t * qmin_t
    C = num.b(Cup <= 0)
    U3 = num.full(n, inf)
    if n >= 2:
        leftok = np.zeros(n, dtype=bool)
        rightok = np.zeros(n, dtype=bool)
        leftok[1:] = C[1:] & C[:-1]
        rightok[:-1] = C[:-1] & C[1:]
        one = 0 * h + 1
        sL = np.concatenate([s[:1], s[:-1]])
        sR = np.concatenate([s[1:], s[-1:]])
        hL = np.concatenate([one[:1], h[:-1]])
        hR = np.concatenate([h[1:], one[-1:]])
        eL = two_e * (1 + 2 * h / hL)
        eR = two_e * (1 + 2 * h / hR)

        def lineL(t):
            return La + eL + sL * (t - a)

        def lineR(t):
            return Lb + eR + sR * (t - b)

        den = sL - sR
        nz = num.b(den != 0)
        dens = np.where(nz, den, one)
        tint = _clip((Lb + eR - sR * b - La - eL + sL * a) / dens, a, b)
        tint = np.where(nz, tint, a)

        def mn(t):
            return np.minimum(lineL(t), lineR(t))

        both = np.maximum(np.maximum(mn(a), mn(b)), mn(tint))
        onlyL = np.maximum(lineL(a), lineL(b))
        onlyR = np.maximum(lineR(a), lineR(b))
        U3 = np.where(leftok & rightok, both, U3)
        U3 = np.where(leftok & ~rightok, onlyL, U3)
        U3 = np.where(~leftok & rightok, onlyR, U3)
    U = np.minimum(np.minimum(U1, U2), U3)
    return U, L, C


# ---------------------------------------------------------------------------
# the tail bound (item 6)
# ---------------------------------------------------------------------------


def _tail_setup(P):
    a, th, la, d = P.alpha, P.theta, P.lam, P.shift
    with mp.workdps(30):
        eta = (1 - la / th) / 2
        c = d + la + th
        b = 1 / la - 1 / th
        cD = mp.gammainc(a, 0, 1, regularized=True)  # P(X <= theta), X ~ Gamma(alpha, theta)
        log_kappa = mp.log(cD) + mp.log(1 - mp.exp(-1)) - mp.log(2) - mp.loggamma(a) - a * mp.log(th)
        Tmin = max(mp.mpf(0), (1 - a) / b - c)
    return dict(eta=eta, c=c, b=b, log_kappa=log_kappa, Tmin=Tmin)


def _tail_bound(P, T, S=None):
    """Certified upper bound of sup_{t >= T} L(t) (0 < alpha < 1, lam < theta)."""
    S = S or _tail_setup(P)
    a, th, la, d = P.alpha, P.theta, P.lam, P.shift
    with mp.workdps(30):
        T = mp.mpf(T)
        if T < S["Tmin"]:
            return mp.inf
        y0 = S["eta"] * T
        lR = P.lgg(y0) - P.lgg(y0 + d)
        logR = lR + 10 * mp.mpf(10) ** -_GG_DIGITS  # both ln f_GG values carry absolute error < 1e-8
        logKG = (y0 / la + S["c"] / th - mp.log(2 * la) - S["log_kappa"]
                 + (1 - a) * mp.log(T + S["c"]) - S["b"] * T)
        return mp.log(mp.exp(logR) + mp.exp(logKG))
