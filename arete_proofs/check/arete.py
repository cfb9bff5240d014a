r"""Check an ``arete`` certificate: the tight epsilon of Gamma - Gamma + Laplace lies in [lower, upper] <= epsilon.

For the Arete law :math:`Z = \mathrm{Gamma}(\alpha,\theta) - \mathrm{Gamma}(\alpha,\theta) + \mathrm{Laplace}(\lambda)`
at sensitivity :math:`\Delta`, :math:`\varepsilon^* = \sup_t L(t)`, :math:`L(t) = \ell(t) - \ell(t+\Delta)`,
:math:`\ell = \ln f_A` (Pagh & Stausholm, Section 4.2, Corollary 5).

**The density** (:math:`0<\alpha<1`, :math:`\rho = \theta/\lambda > 1`, :math:`\tau = |t|/\theta`; Definition 9 by the
branch cut of the characteristic function :math:`(1+\theta^2w^2)^{-\alpha}(1+\lambda^2w^2)^{-1}`):

.. math::

   f_A(t) = \frac{\sin\pi\alpha}{\pi\theta}e^{-\tau}\,\mathrm{PV}\!\int_0^\infty F(x)\,dx
   + \frac{\cos(\pi\alpha)}{2\lambda(\rho^2-1)^{\alpha}}e^{-\rho\tau},\qquad
   F(x) = \frac{(x(x+2))^{-\alpha}\rho^2e^{-x\tau}}{(\rho+1+x)(\rho-1-x)}.

:math:`F` is analytic off :math:`(-\infty, 0]` but for the pole :math:`x = \rho - 1`, whose residue is real, so the
principal value is the real part of the integral along a path above the pole.  Pieces, all in ``arb``:

* :math:`[0, c]`: :math:`x^{-\alpha}` times the Taylor series of the rest :math:`r` (order :math:`K`), the remainder
  at most :math:`\frac43 4^{-K}M` by Cauchy's estimate on the circle :math:`|x| = R = 4c \le \min(1, (\rho-1)/2)`,
  where :math:`|r| \le M = e^{R\tau}/((\rho+1-R)(\rho-1-R))` (:math:`|x+2| \ge 1`);
* :math:`[c, (\rho-1)/2]` in :math:`s = \ln x`, then :math:`(\rho-1)/2 \to \rho-1+i(\rho-1)/2 \to X_0 = 4/R_h`:
  ``acb.integral`` (rigorous Gauss-Legendre with error bounds);
* :math:`[X_0,\infty)`: :math:`F = -\rho^2x^{-2-2\alpha}e^{-x\tau}h(1/x)`, :math:`h(u) = (1+2u)^{-\alpha}/
  ((1+u)^2-\rho^2u^2)`, the series of :math:`h` (same remainder; on :math:`|u| \le R_h`, a power of two
  :math:`\le 1/(2\rho+2)`, :math:`|h| \le (1-2|u|)^{-\alpha}/((1-(\rho-1)|u|)(1-(\rho+1)|u|))`) against
  :math:`E_j = \int_{X_0}^\infty x^{-2-2\alpha-j}e^{-x\tau}dx` (from :math:`\Gamma(-1-2\alpha, X_0\tau)` by
  :math:`(1+2\alpha+j)E_j = X_0^{-1-2\alpha-j}e^{-X_0\tau} - \tau E_{j-1}`) when :math:`X_0\tau \le 1`, else
  ``acb.integral`` to :math:`X_1` and :math:`F \in [-X_1^{-2\alpha}e^{-X_1\tau}\rho^2/((x+1)^2-\rho^2), 0]` beyond;
* when :math:`\tau` is large, the path from :math:`X_c < (\rho-1)/2` instead of :math:`(\rho-1)/2` (the segment
  :math:`X_c \to \rho-1+i(\rho-1)/2`, at distance :math:`\ge (\rho-1)/3` from the pole, and on) contributes at most
  :math:`3X_c^{-2\alpha}e^{-X_c\tau}(2(\rho-1) + X_0 + 1/\tau)\rho^2/((\rho+1)(\rho-1))` (:math:`\mathrm{Re}\,x
  \ge X_c` on it).

**The bound** (as :mod:`arete_proofs.certified.epsilon`, items 1-4).  :math:`f_A` is symmetric and non-increasing in
:math:`|t|` (Lemma 2) and :math:`|\ell'| \le 1/\lambda` (:math:`|f_L'| = f_L/\lambda`), so only :math:`t \ge 0`
counts and, on a cell :math:`[a,b]` of the recorded cover of :math:`[0,T]`,

.. math::

   L(t) \le \min(\ell(a), \ell(b) + \tfrac{b-t}{\lambda}) - \max(\ell(b+\Delta), \ell(a+\Delta) - \tfrac{t-a}{\lambda}),
   \qquad L(t) \le \max(L(a), L(b)) + M(b-a)^2/8 \ (a > 0),

the first maximised exactly (concave, piecewise linear), the second from :math:`L'' \ge -M`,
:math:`M = f_{\Gamma-\Gamma}(a)/(\lambda^2 f_A(b)) + 1/\lambda^2` (:math:`f_L - \lambda^2 f_L'' = \delta`).  For
:math:`t \ge T` (log-convexity of :math:`f_{\Gamma-\Gamma}`, Lemma 14's lower bound),
:math:`L \le \ln(R(\eta T) + \frac{(T+c)^{1-\alpha}}{2\lambda\kappa}e^{\eta T/\lambda + c/\theta - T(1/\lambda -
1/\theta)})`, :math:`R(y) = f_{\Gamma-\Gamma}(y)/f_{\Gamma-\Gamma}(y+\Delta)`, :math:`\eta = (1-\lambda/\theta)/2`,
:math:`c = \Delta+\lambda+\theta`, :math:`\kappa = P(\alpha,1)(1-e^{-1})/(2\Gamma(\alpha)\theta^\alpha)`, valid for
:math:`T + c \ge (1-\alpha)/(1/\lambda - 1/\theta)`.  Everywhere :math:`L \le \Delta/\lambda`; for
:math:`\lambda \ge \theta` that is the value (the tail limit :math:`\Delta/\max(\theta,\lambda)`, method
``lipschitz``).  The lower end is :math:`L` at the recorded witness.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ._arb import ball, prec, rational
from ._refused import Refused

KIND = "arete"


def up(x):
    """The upper end of the ball ``x`` as an exact Fraction (``inf`` when it is not finite)."""
    if not x.is_finite():
        return math.inf
    m, e = x.upper().mid().man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def _series(f, K):
    """Taylor coefficients of f at 0 (j < K)."""
    from flint import arb, arb_series, ctx

    ctx.cap = K
    return (list(f(arb_series([0, 1])).coeffs()) + [arb(0)] * K)[:K]


class Arete:
    """``ell(t)``, ``fgg(y)``: balls of :math:`\\ln f_A(t)` and :math:`f_{\\Gamma-\\Gamma}(y)` (module docstring).

    >>> A = Arete(Fraction(3, 10), 2, Fraction(1, 2))
    >>> d = A.ell(1) - A.ell(2)                  # 0 < ell(1) - ell(2) <= 1/lam = 2 (monotone, Lipschitz)
    >>> bool(0 < d.lower() and d.upper() <= 2), float(d.rad()) < 1e-13
    (True, True)
    """

    def __init__(self, alpha, theta, lam, bits=64):
        from flint import arb

        self.q = tuple(Fraction(x) for x in (alpha, theta, lam))
        if not (0 < self.q[0] < 1 and 0 < self.q[2] < self.q[1]):
            raise ValueError("the density needs 0 < alpha < 1 and 0 < lam < theta")
        self.bits, self.K, self.cache = bits, (bits - 14) // 2 + 3, {}
        with prec(bits):
            self.a, self.th, self.la = (ball(x) for x in self.q)
            self.rho = self.th / self.la
            self.r1, self.rp1, pi = self.rho - 1, self.rho + 1, arb.pi()
            self.na, self.c0 = -self.a, self.rho ** 2 - 1
            self.pref = (pi * self.a).sin() / (pi * self.th) * self.rho ** 2
            self.CP = (pi * self.a).cos() * (self.rho ** 2 - 1) ** (-self.a) / (2 * self.la)
            Rh = arb(2) ** -(math.ceil(math.log2(2 * float(self.rp1.upper()))) + 1)   # exact, <= 1/(2 rho + 2)
            self.X0 = 4 / Rh
            self.h = _series(lambda u: (1 + 2 * u) ** (-self.a) / ((1 + u) ** 2 - self.rho ** 2 * u ** 2), self.K)
            self.hM = (1 - 2 * Rh) ** (-self.a) / ((1 - self.r1 * Rh) * (1 - self.rp1 * Rh))

    def _F(self, x, an, tau):
        w = x * (x + 2)                               # (rho + 1 + x)(rho - 1 - x) = rho^2 - 1 - w
        return (self.na * (w.log(analytic=an) if an else w.log()) - x * tau).exp() / (self.c0 - w)

    def pdf(self, t):
        from flint import acb, arb

        a, K, tol = self.a, self.K, arb(2) ** (14 - self.bits)
        tau = ball(t) / self.th
        tf, q4 = float(tau.upper()), arb(4) / 3 / arb(4) ** K
        R = arb(min(float(self.r1.lower()) / 2, 1.0, 2 / tf if tf > 0 else 1.0))
        c = R / 4
        co = _series(lambda x: (x + 2) ** (-a) * (-x * tau).exp() / ((self.rp1 + x) * (self.r1 - x)), K)
        M = (R * tau).exp() / ((self.rp1 - R) * (self.r1 - R))      # |r| on |x| <= R
        I = sum((co[j] * c ** (j + 1 - a) / (j + 1 - a) for j in range(K)), arb(0)) + arb(0, 1) * M * q4 * c ** (1 - a) / (1 - a)
        F = lambda x, an: self._F(x, an, tau)
        Q = lambda f, x, y: acb.integral(f, x, y, rel_tol=tol, abs_tol=tol / max(tf, 1) / self.rho ** 2).real
        mid, X0 = acb(self.r1, self.r1 / 2), self.X0
        Xc = (0.7 * self.bits + 10 + 2 * math.log(float(self.rho.upper()) + 2)) / tf if tf > 0 else math.inf
        short = Xc < float(self.r1.lower()) / 2
        end = arb(Xc) if short else self.r1 / 2
        m = arb(2 / tf) if tf > 0 and arb(2 / tf) < end else end     # ln x where x^-a matters, x beyond
        I += Q(lambda s, an: (lambda x: F(x, an) * x)(s.exp()), c.log(), m.log()) + (Q(F, m, end) if m is not end else 0)
        if short:                       # past Xc along the path: |F| <= 3 Xc^(-2a) e^(-Xc tau) / ((rho + 1)(rho - 1))
            return self.pref * (I + arb(0, 1) * 3 * end ** (-2 * a) * (-end * tau).exp() * (2 * self.r1 + X0 + 1 / tau)
                                / (self.rp1 * self.r1)) * (-tau).exp() + self.CP * (-self.rho * tau).exp()
        I += Q(F, self.r1 / 2, mid) + Q(F, mid, X0)
        if tf * float(X0.upper()) <= 1:
            b = 1 + 2 * a
            E = X0 ** (-b) / b if tf == 0 else tau ** b * (X0 * tau).gamma_upper(-b)
            E0, ex, S = E, (-X0 * tau).exp(), arb(0)
            for j in range(K):
                E = E if j == 0 else (X0 ** (-(b + j)) * ex - tau * E) / (b + j)
                S += self.h[j] * E
            I -= S + arb(0, 1) * self.hM * q4 * E0
        else:
            X1 = X0 + math.ceil((self.bits * 0.7 + 10) / tf)
            I += Q(F, X0, X1)
            I += arb(0).union(-X1 ** (-2 * a) * (-X1 * tau).exp() / (2 * self.rho) * ((1 + X1 + self.rho) / (1 + X1 - self.rho)).log())
        return self.pref * I * (-tau).exp() + self.CP * (-self.rho * tau).exp()

    def ell(self, t):
        t = abs(Fraction(t))
        if t not in self.cache:
            with prec(self.bits):
                v = self.pdf(t)
                if not (v.is_finite() and v > 0):
                    raise Refused(f"the density at t = {float(t)!r} could not be enclosed at {self.bits} bits")
                self.cache[t] = v.log()
        return self.cache[t]

    def fgg(self, y):
        from flint import arb

        with prec(self.bits):
            x, nu = ball(y) / self.th, self.a - arb(0.5)
            return (x / 2) ** nu * x.bessel_k(nu) / (self.th * arb.pi().sqrt() * self.a.gamma())


def tail(A, T, D):
    """Upper bound (Fraction) of L on [T, inf) (module docstring; inf when the hypothesis fails)."""
    from flint import arb

    with prec(A.bits):
        a, th, la, d, Tb = A.a, A.th, A.la, ball(D), ball(T)
        b, c = 1 / la - 1 / th, d + la + th
        if not (Tb + c) * b >= 1 - a:
            return math.inf
        y0 = (1 - la / th) / 2 * Tb
        nu = a - arb(0.5)
        lR = nu * (y0 / (y0 + d)).log() + (y0 / th).bessel_k(nu).log() - ((y0 + d) / th).bessel_k(nu).log()
        lk = arb(1).gamma_lower(a, regularized=1).log() + (1 - arb(-1).exp()).log() - arb(2).log() - a.lgamma() - a * th.log()
        lK = y0 / la + c / th - (2 * la).log() - lk + (1 - a) * (Tb + c).log() - b * Tb
        return up((lR.exp() + lK.exp()).log())


def cell_bound(A, D, a, b):
    """Upper bound (Fraction) of L on the cell [a, b] (module docstring)."""
    la, ell = A.q[2], A.ell
    Aa, Bb, Cc, Dd = up(ell(a)), up(ell(b)), up(-ell(b + D)), up(-ell(a + D))
    f = lambda t: min(Aa, Bb + (b - t) / la) + min(Cc, Dd + (t - a) / la)
    u = min(Aa + Cc, max(f(t) for t in (a, b, b - la * (Aa - Bb), a + la * (Cc - Dd)) if a <= t <= b))
    if a > 0:
        with prec(A.bits):
            M = A.fgg(a) / ball(la) ** 2 * (-ell(b)).exp() + 1 / ball(la) ** 2
            u = min(u, max(up(ell(a) - ell(a + D)), up(ell(b) - ell(b + D))) + up(M) * (b - a) ** 2 / 8)
    return u


def cover_bound(A, D, T, pts):
    """Upper bound (Fraction) of sup_t L(t) from the cover ``pts`` of [0, T] (module docstring), never above D/lam."""
    pts = [Fraction(p) for p in pts]
    if not (len(pts) > 1 and pts[0] == 0 and pts[-1] == T and all(x < y for x, y in zip(pts, pts[1:]))):
        raise Refused("the cover's points must increase from 0 to T")
    return min(max([tail(A, T, D)] + [cell_bound(A, D, a, b) for a, b in zip(pts, pts[1:])]), D / A.q[2])


def witness(A, D, t):
    """A lower bound (Fraction) of L(t) = ell(t) - ell(t + D)."""
    with prec(A.bits):
        return -up(A.ell(t + D) - A.ell(t))


def params(p, names=("alpha", "theta", "lam")):
    out = tuple(rational(p[k], f"params.{k}") for k in names)
    if not all(x > 0 for x in out):
        raise ValueError("params must be positive")
    return out


def check(doc, progress=None):
    """Re-derive the certificate; returns ``(lower, upper, None)`` or raises ``Refused``."""
    try:
        al, th, la = params(doc["params"])
        D = rational(doc["Delta"], "Delta")
        c_lo, c_hi, c_eps = (rational(doc["claim"][k], f"claim.{k}") for k in ("lower", "upper", "epsilon"))
        bits, method = doc.get("prec", 64), doc["method"]
        if not (D > 0 and isinstance(bits, int) and 32 <= bits <= 1024):
            raise ValueError("Delta must be positive and prec an integer in 32..1024")
        if la >= th:                               # the Lipschitz bound is the tail limit: eps* = D/lam exactly
            if method != "lipschitz":
                raise ValueError("lam >= theta: the method is 'lipschitz'")
            lower = upper = D / la
        else:
            A = Arete(al, th, la, bits)
            if method == "lipschitz":
                upper = D / la
            elif method == "cover":
                T = rational(doc["cover"]["T"], "cover.T")
                upper = cover_bound(A, D, T, [rational(p, "cover.points") for p in doc["cover"]["points"]])
            else:
                raise ValueError(f"unknown method {method!r}")
            lower = witness(A, D, rational(doc["witness"], "witness"))
    except (KeyError, TypeError) as e:
        raise Refused(f"malformed certificate: missing or wrong field {e}") from None
    except ValueError as e:
        raise Refused(str(e)) from None
    if not upper <= c_hi:
        raise Refused(f"the re-derived upper bound {float(upper)!r} is above the claimed upper {float(c_hi)!r}")
    if not c_hi <= c_eps:
        raise Refused(f"the claimed upper {float(c_hi)!r} is above the certified epsilon {float(c_eps)!r}")
    if not c_lo <= lower:
        raise Refused(f"the claimed lower {float(c_lo)!r} is above the witness's value {float(lower)!r}")
    return float(lower), float(upper), None
