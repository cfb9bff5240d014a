r"""Ball arithmetic with a Gaussian part: certified :math:`f_Z` and a certified upper bound on the
tight epsilon of :math:`Z = X_1 - X_2 + Y + N` (python-flint ``arb``, extra ``certified``).

:math:`X_i \sim \Gamma(\alpha,\theta)`, :math:`Y \sim \mathrm{Laplace}(\lambda)`,
:math:`N \sim \mathcal N(0,\sigma^2)`, :math:`0<\alpha<1`, :math:`\lambda \ge 0`, :math:`\sigma > 0`.
The numeric companion is :mod:`arete_proofs.privacy.tight_gauss` (mpmath engine values with a
digits contract); here every number that enters the bound is an arb ball.

**The density** (:class:`CertifiedGaussDensity`, :func:`pdf_ball`).  The Laplace-mixture
representation of :mod:`arete_proofs.distributions.arete_gauss`,

.. math::

    f_Z(t) = \int_1^\infty p(s)\,k_{s/\theta}(t)\,ds,\qquad
    p(s) = \frac{2\sin\pi\alpha}{\pi}\frac{(s^2-1)^{-\alpha}}{s},

with :math:`k_b` the density of :math:`L_b + V`, :math:`L_b` Laplace of rate :math:`b`,
:math:`V = Y + N` of density :math:`v`:
:math:`k_b = D_b` (:math:`\lambda = 0`) or :math:`(c^2D_b - b^2D_c)/(c^2-b^2)`
(:math:`c = 1/\lambda`), :math:`D_b(t) = \frac b4[A_b(t) + A_b(-t)]`,
:math:`A_b(t) = e^{b^2\sigma^2/2-bt}\operatorname{erfc}(w) = e^{-t^2/(2\sigma^2)}\operatorname{erfcx}(w)`,
:math:`w = (b\sigma^2 - t)/(\sigma\sqrt2)`.  :math:`A_b(t) = 2\int_0^\infty e^{-bx}\varphi_\sigma(t-x)dx`
is entire in :math:`b`; on balls with :math:`\operatorname{Re} w > 2` it is evaluated as
:math:`e^{-t^2/(2\sigma^2)}\,U(\tfrac12,\tfrac12,w^2)/\sqrt\pi`
(:math:`\operatorname{erfc} z = e^{-z^2}U(\frac12,\frac12,z^2)/\sqrt\pi` for
:math:`\operatorname{Re} z > 0`, DLMF 13.6.7 / 7.11; the ball must have :math:`\operatorname{Re} w^2 > 0`,
where :math:`U` is analytic), elsewhere by the erfc form (no huge-times-tiny products on
wide balls).  The :math:`s`-integral is split into pieces, each enclosed rigorously:

* :math:`[1, 1+\delta]`: :math:`\int (s-1)^{-\alpha} ds = \delta^{1-\alpha}/(1-\alpha)` exactly,
  times the ball of the rest of the integrand over the whole piece;
* :math:`[1+\delta, P]`, cut at :math:`1 + 4^k`: ``acb.integral`` (Petras' algorithm, error
  bounds from the integrand on complex ellipses; the logarithms of :math:`s \mp 1` and
  :math:`U` check analyticity); for :math:`\lambda > 0` a piece
  :math:`|s - c\theta| \le \eta` around the removable singularity of the divided difference is
  enclosed by :math:`[0, 2\eta\,\sup p\cdot v(0)]` (:math:`0 \le k_b \le \sup v = v(0)`);
* :math:`[P, \infty)`, the spike (the mass of :math:`|X_1 - X_2|` near 0, large rates): by
  Taylor's theorem, :math:`E[L_b^2] = 2/b^2`, :math:`E[L_b^4] = 24/b^4`,
  :math:`k_b(t) = E\,v(t - L_b) \in v(t) + v''(t)/b^2 \pm M_4/b^4`, with
  :math:`M_4 = \sup|v''''| \le \sup|\varphi_\sigma''''| = 3\varphi_\sigma(0)/\sigma^4`
  (:math:`v'''' = E\varphi_\sigma''''(\cdot - Y)`; :math:`|\mathrm{He}_4(y)|e^{-y^2/2} \le 3`: its
  critical points are :math:`y^2 \in \{0, 5\pm\sqrt{10}\}`, values :math:`3, -1.86, 0.35`), and
  the moments of the mixing law in closed form,
  :math:`\int_P^\infty p(s)s^{-2k}ds = \frac{\sin\pi\alpha}{\pi}\,B(P^{-2};\alpha+k,1-\alpha)`
  (:math:`u = s^{-2}`) :math:`= \frac{\sin\pi\alpha}{\pi}\frac{x^{\alpha+k}}{\alpha+k}\,
  {}_2F_1(\alpha+k,\alpha;\alpha+k+1;x)`, :math:`x = P^{-2}`.  Here
  :math:`v = \varphi_\sigma`, :math:`v'' = \varphi_\sigma(t^2/\sigma^4 - 1/\sigma^2)`
  (:math:`\lambda = 0`), or :math:`v = D_c`, :math:`v'' = c^2(D_c - \varphi_\sigma)`
  (:math:`v - v''/c^2 = \varphi_\sigma`).

So the :math:`|x|^{2\alpha-1}` spike of :math:`X_1 - X_2` at 0 (small :math:`\alpha`) is carried
*exactly* by the closed-form moments, never sampled.  The ball is checked against the mpmath
engine (``tests/test_certified_gauss.py``, an independent quadrature of the same formula).

**The bound** (:func:`certify_epsilon_gauss`) follows :mod:`arete_proofs.privacy.tight_gauss`
item by item, every quantity a ball:

1. only :math:`t \ge 0` (tight_gauss item 1: symmetric unimodal, Wintner);
2. cells :math:`[a,b]` of a cover of :math:`[0,T]` (item 4): the smaller of
   :math:`\ell(a) - \ell(b+\Delta)` (monotonicity) and the chord bound with
   :math:`L'' \ge -M`, :math:`M = 1/\sigma^2 + \max(0, \sup_{[a+\Delta, b+\Delta]}\ell'')`
   (items 2-3: :math:`\ell'' \ge -1/\sigma^2`; the upper curvature bound
   :math:`K/(1-K\sigma^2) + 4\gamma(u_1/2)/(\sigma^4 f(u_2))`, with
   :math:`K = \theta^{-2}[K_{\nu+2}(z) - K_{\nu+1}(z)/z]/K_\nu(z)`, :math:`\nu = 1/2 - \alpha`,
   :math:`z = u_1/(2\theta)` by arb's ``bessel_k`` for :math:`\lambda = 0`, or
   :math:`K = 1/(4\lambda^2)`); the chord bound's maximum is taken in closed form from the
   upper ends of the balls of :math:`L(a), L(b)` (the bound is increasing in both);
3. the tail :math:`t \ge T` (item 5): :math:`\ln(R(\eta T) + B(T))` with
   :math:`R(y) = g(y)/g(y+\Delta)` from arb's ``bessel_k`` and :math:`B` from arb's ``erf``,
   ``gamma_lower``, ``lgamma``;
4. :math:`\lambda \ge \theta`: :math:`\varepsilon^* = \Delta/\lambda` (item 6), exact.

What is **proved** by the computation: given the analytic facts cited (tight_gauss items 1-6,
the Laplace-mixture representation of :mod:`~arete_proofs.distributions.arete_gauss`, the
identities above), :math:`\varepsilon^* \le` ``upper`` and ``lower`` :math:`\le \varepsilon^*`:
all rounding, quadrature and truncation errors are inside the balls.  What is **assumed**
(not machine-checked here): those analytic facts themselves, as written and argued in
:mod:`arete_proofs.privacy.tight_gauss` and :mod:`arete_proofs.distributions.arete_gauss`, and the
correctness of arb/python-flint.  The float64 path (:mod:`~arete_proofs.distributions.fast_gauss`)
only places the cells and sets quadrature tolerances; a wrong placement costs time, never
validity.

>>> from arete_proofs.distributions import arete_gauss
>>> opt8 = ("0.014727", "0.85419", 0, "0.027054")            # the Gamma + Gaussian optimum at eps = 8
>>> b = pdf_ball("1e-9", *opt8, digits=12)                  # inside the spike of X1 - X2
>>> bool(b.contains(arete_gauss.pdf("1e-9", *opt8, digits=30)))   # the engine's value is inside
True
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction

from .._validation import PrecisionError
from .density import _arb, exact_parameter
from .epsilon import EpsilonCertificate, _down, _up

__all__ = ["CertifiedGaussDensity", "pdf_ball", "curvature_bound", "tail_bound", "certify_epsilon_gauss",
           "GaussEpsilonCertificate"]

_PREC = 64
#: bits of the density balls in certify_epsilon_gauss (relative radius ~1e-12), lam = 0 and lam > 0 (measured fastest)
_CERT_PREC = {False: 48, True: 56}
_RATIO = 4  # pieces [1 + 2^(RATIO k), 1 + 2^(RATIO (k + 1))]
_U_SWITCH = 2  # Re w above this: erfcx through U(1/2, 1/2, w^2)


def _params(alpha, theta, lam, sigma, *, below_one=True):
    """Exact Fractions, checked (alpha > 0, below 1 unless ``below_one`` is False; theta > 0,
    lam >= 0, sigma > 0)."""
    a = exact_parameter(alpha, "alpha")
    th = exact_parameter(theta, "theta")
    la = exact_parameter(lam, "lam", allow_zero=True)
    sg = exact_parameter(sigma, "sigma")
    if below_one and not a < 1:
        raise ValueError(f"alpha must be below 1 with sigma > 0 (the Laplace-mixture representation), got {alpha!r}")
    return a, th, la, sg


class CertifiedGaussDensity:
    r"""Certified :math:`f_Z` for fixed exact :math:`(\alpha,\theta,\lambda,\sigma)` at ``prec`` bits
    (module docstring: the pieces).  :meth:`pdf` returns a ball that contains :math:`f_Z(t)`;
    its radius is rigorous but not controlled (:func:`pdf_ball` adds the digits contract).

    >>> D = CertifiedGaussDensity("0.3", 1, 0, "0.2")
    >>> bool(D.pdf(0) > D.pdf("0.5") > D.pdf(1))        # unimodal (tight_gauss, item 1)
    True
    """

    def __init__(self, alpha, theta, lam, sigma, *, prec=_PREC):
        from flint import arb, ctx

        self.q = _params(alpha, theta, lam, sigma)
        self.prec = int(prec)
        aq, thq, laq, sgq = self.q
        self.af, self.thf, self.laf, self.sgf = (float(x) for x in self.q)
        old, ctx.prec = ctx.prec, self.prec + 16
        try:
            self.a, self.th, self.la, self.sg = (_arb(x) for x in self.q)
            self.c = 1 / self.la if laq else None
            pi = arb.pi()
            self.K = 2 * (pi * self.a).sin() / pi
            self.sqrt2 = arb(2).sqrt()
            self.sqrtpi = pi.sqrt()
            self.phi0 = 1 / (self.sg * (2 * pi).sqrt())
        finally:
            ctx.prec = old

    # ---- the kernel, for an acb ball of rates b ----
    def _A(self, b, t, an):
        """A_b(t) for an acb ball b and a real arb t; non-finite where the chosen form is not analytic."""
        from flint import acb

        sg = self.sg
        w = (b * sg - t / sg) / self.sqrt2
        if w.real.lower() > _U_SWITCH:
            z = w * w
            if not z.real.lower() > 0:
                return acb("nan")
            return (-t * t / (2 * sg * sg)).exp() * z.hypgeom_u(0.5, 0.5) / self.sqrtpi
        return (b * b * sg * sg / 2 - b * t).exp() * w.erfc()

    def _D(self, b, t, an):
        return b / 4 * (self._A(b, t, an) + self._A(b, -t, an))

    def _kernel(self, b, t, Dc, an):
        Db = self._D(b, t, an)
        if self.c is None:
            return Db
        c2, b2 = self.c * self.c, b * b
        return (c2 * Db - b2 * Dc) / (c2 - b2)

    def _weight_rest(self, s, an):
        """K (s+1)^-a / s (the part of p(s) without (s-1)^-a)."""
        return self.K * (-self.a * (s + 1).log(analytic=an)).exp() / s

    def _v(self, t):
        """(v(t), v''(t)) as arb balls: V = N (lam = 0) or V = Y + N."""
        from flint import acb

        sg = self.sg
        phi = (-t * t / (2 * sg * sg)).exp() * self.phi0
        if self.c is None:
            return phi, phi * (t * t / sg ** 4 - 1 / (sg * sg))
        Dc = self._D(acb(self.c), t, False).real
        return Dc, self.c * self.c * (Dc - phi)

    def _mixing_moment(self, k, x):
        """int_P^inf p(s) s^(-2k) ds with x = P^-2 (closed form, incomplete beta)."""
        from flint import arb

        a = self.a
        return (arb.pi() * a).sin() / arb.pi() * x ** (a + k) / (a + k) * x.hypgeom_2f1(a + k, a, a + k + 1)

    def magnitudes(self, ts):
        """Float64 values of f_Z at the points ts (fast_gauss; they only set quadrature tolerances)."""
        import numpy as np

        from ..distributions import fast_gauss

        return [float(x) for x in fast_gauss.pdf(np.array([float(t) for t in ts]), self.af, self.thf, self.laf,
                                                  self.sgf)]

    def _plan(self, t, mag=None):
        """Cut points (exact Fractions) and a float magnitude of f_Z(t) (tolerances only)."""
        if mag is None:
            mag = self.magnitudes([t])[0]
        if not (mag > 0 and math.isfinite(mag)):
            mag = 1e-300
        bits = self.prec + 4
        # [P, inf): theta^4 m2 M4 <= 2^-bits mag, m2 ~ P^(-4 - 2a) sin(pi a)/(pi (a + 2))
        M4 = 3 * float(self.phi0) / self.sgf ** 4
        need = self.thf ** 4 * M4 * math.sin(math.pi * self.af) / (math.pi * 2) / (2.0 ** -bits * mag)
        P = max(need ** (1 / 4), 16 * self.thf / self.sgf, 64.0)
        if self.laf:
            P = max(P, 16 * self.thf / self.laf)
        r = _RATIO
        kP = math.ceil(math.log(P - 1, 2) / r)
        delta_exp = -math.ceil(bits / (2 - self.af)) - 2
        k0 = math.floor(delta_exp / r) + 1
        cuts = [1 + Fraction(2) ** delta_exp] + [1 + Fraction(2) ** (r * k) for k in range(k0, kP + 1)]
        return cuts, delta_exp, mag

    def pdf(self, t, *, mag=None):
        """Ball containing :math:`f_Z(t)` at this object's precision (``mag``: a float estimate of
        :math:`f_Z(t)`, used only for the quadrature's absolute tolerance)."""
        from flint import acb, arb, ctx

        tq = abs(exact_parameter(t, "t", allow_negative=True))
        # lam > 0: the divided difference loses up to prec + 8 bits next to the excised piece
        extra = 16 + (self.prec + 8 if self.c is not None else 0)
        old, ctx.prec = ctx.prec, self.prec + extra
        try:
            tb = _arb(tq)
            cuts, delta_exp, mag = self._plan(tq, mag)
            th, a = self.th, self.a
            Dc = self._D(acb(self.c), tb, False) if self.c is not None else None
            tol = arb(2) ** -(self.prec + 4)
            atol = tol * arb(mag)
            # (a) [1, 1 + delta]: int (s-1)^-a ds exactly, the rest as a ball over the piece
            delta = arb(2) ** delta_exp
            s0 = arb(1).union(1 + delta)
            rest = self._weight_rest(acb(s0), False) * self._kernel(acb(s0) / th, tb, Dc, False)
            total = (delta ** (1 - a) / (1 - a)) * rest.real

            def f(s, an):
                sm1 = s - 1
                w = self.K * (-a * (sm1.log(analytic=an) + (s + 1).log(analytic=an))).exp() / s
                return w * self._kernel(s / th, tb, Dc, an)

            pieces = list(zip(cuts, cuts[1:]))
            if self.c is not None:
                # excise (c theta - eta, c theta + eta) around the removable singularity b = c
                sc = self.q[1] / self.q[2]
                eta = sc / 2 ** (self.prec + 8)
                new = []
                for lo, hi in pieces:
                    if hi <= sc - eta or lo >= sc + eta:
                        new.append((lo, hi))
                        continue
                    if lo < sc - eta:
                        new.append((lo, sc - eta))
                    if hi > sc + eta:
                        new.append((sc + eta, hi))
                pieces = new
                ball = (_arb(sc - eta)).union(_arb(sc + eta))
                sup_p = self.K * ((ball - 1) * (ball + 1)) ** (-a) / ball
                v0 = self._D(acb(self.c), arb(0), False).real
                total += arb(0).union(2 * _arb(eta) * sup_p * v0)
            for lo, hi in pieces:
                total += acb.integral(f, _arb(lo), _arb(hi), rel_tol=tol, abs_tol=atol).real
            # (c) [P, inf): moments of the mixing law times the Taylor expansion of k_b
            P = _arb(Fraction(cuts[-1]))
            x = 1 / (P * P)
            v, v2 = self._v(tb)
            M4 = 3 * self.phi0 / self.sg ** 4
            m0, m1, m2 = (self._mixing_moment(k, x) for k in (0, 1, 2))
            total += m0 * v + th * th * m1 * v2 + arb(0, 1) * (th ** 4 * m2 * M4)
            return +total
        finally:
            ctx.prec = old


def pdf_ball(t, alpha, theta, lam, sigma, *, digits=12):
    r"""An arb ball that provably contains :math:`f_Z(t)`, relative radius :math:`\le 10^{-\text{digits}}`
    (precision doubled up to three times, else :class:`~arete_proofs.PrecisionError`).

    >>> from arete_proofs.distributions import arete_gauss
    >>> b = pdf_ball("0.5", "0.3", 1, 0, "0.2", digits=10)
    >>> bool(b.contains(arete_gauss.pdf("0.5", "0.3", 1, 0, "0.2", digits=25)))   # the engine's value is inside
    True
    """
    from flint import arb

    prec = max(int(digits * 3.33) + 12, 32)
    for _ in range(4):
        b = CertifiedGaussDensity(alpha, theta, lam, sigma, prec=prec).pdf(t)
        if b.is_finite() and b.lower() > 0 and b.rad() <= arb(10) ** (-digits) * b.lower():
            return b
        prec *= 2
    raise PrecisionError(f"could not certify {digits} digits of f_Z({t}) (last ball {b})")


# --------------------------------------------------------------------- the bounds of tight_gauss, in balls
def curvature_bound(u1, log_f_u2, alpha, theta, lam, sigma, *, prec=_PREC):
    r"""Ball upper bound of :math:`\ell''(u)` on :math:`[u_1, u_2]` (tight_gauss item 3), given a ball
    ``log_f_u2`` containing :math:`\ln f_Z(u_2)`; ``+inf`` when item 3 does not apply
    (:math:`u_1/2 < 2\sigma` or :math:`K\sigma^2 \ge 1`):
    :math:`K/(1-K\sigma^2) + 4\,x_0^2\varphi_\sigma(x_0)/(\sigma^4 f(u_2))`, :math:`x_0 = u_1/2`,
    :math:`K = \theta^{-2}[K_{\nu+2}(z) - K_{\nu+1}(z)/z]/K_\nu(z)` (:math:`\nu = 1/2-\alpha`,
    :math:`z = x_0/\theta`; :math:`= g''(x_0)/g(x_0)`) or :math:`1/(4\lambda^2)`.

    >>> from flint import arb
    >>> # the Gamma + Gaussian eps = 8 optimum on [1, 1.001]: O(10), far below 1/sigma^2 ~ 1366 (tight_gauss's doctest)
    >>> lf = CertifiedGaussDensity("0.014727", "0.85419", 0, "0.027054").pdf("1.001").log()
    >>> k = curvature_bound(1, lf, "0.014727", "0.85419", 0, "0.027054")
    >>> bool(0 < k.upper() < 20)
    True
    """
    from flint import arb, ctx

    aq, thq, laq, sgq = _params(alpha, theta, lam, sigma)
    u1q = exact_parameter(u1, "u1")
    old, ctx.prec = ctx.prec, prec
    try:
        a, th, la, sg = (_arb(x) for x in (aq, thq, laq, sgq))
        x0 = _arb(u1q) / 2
        if not u1q / 2 >= 2 * sgq:
            return arb("inf")
        if laq:
            K = 1 / (4 * la * la)
        else:
            nu, z = arb(1) / 2 - a, x0 / th
            K = (z.bessel_k(nu + 2) - z.bessel_k(nu + 1) / z) / z.bessel_k(nu) / (th * th)
        s2 = sg * sg
        if not (K * s2).upper() < 1:
            return arb("inf")
        log_gam = 2 * x0.log() - x0 * x0 / (2 * s2) - (sg * (2 * arb.pi()).sqrt()).log()
        return K / (1 - K * s2) + 4 * (log_gam - arb(log_f_u2.lower())).exp() / (s2 * s2)
    finally:
        ctx.prec = old


def tail_bound(T, alpha, theta, lam, sigma, Delta=1, *, prec=_PREC):
    r"""Ball whose upper end bounds :math:`\sup_{t \ge T} L(t)` (tight_gauss item 5), or ``+inf`` when
    :math:`B` is not yet decreasing at :math:`T`:
    :math:`\ln(R(\eta T) + B(T))`, :math:`R(y) = g(y)/g(y+\Delta)` (Bessel :math:`K`),
    :math:`B(T) = v(T - \eta T)/(\kappa f_\Gamma(T + \Delta + \lambda + \sigma + \theta))`.

    >>> from flint import arb
    >>> # above the tail limit Delta/theta = 1 and finite once T is large enough
    >>> b = tail_bound(4, "0.3", 1, 0, "0.2")
    >>> bool(1 < b.upper() < 1.3), tail_bound("0.1", "0.3", 1, 0, "0.2").is_finite()
    (True, False)
    """
    from flint import arb, ctx

    aq, thq, laq, sgq = _params(alpha, theta, lam, sigma)
    Tq, dq = exact_parameter(T, "T"), exact_parameter(Delta, "Delta")
    old, ctx.prec = ctx.prec, prec
    try:
        a, th, la, sg, T, d = (_arb(x) for x in (aq, thq, laq, sgq, Tq, dq))
        y0 = T * (1 - la / th) / 2 if laq else T / 2
        w = la + sg
        C = d + w + th
        pN = (1 / arb(2).sqrt()).erf() / 2  # P(N in [0, sigma])
        pV = pN * ((1 - arb(-1).exp()) / 2 if laq else 1)
        log_kappa = pV.log() + arb(1).gamma_lower(a, regularized=1).log()
        log_inv_fG = a.lgamma() + a * th.log() + (1 - a) * (T + C).log() + (T + C) / th
        x = T - y0
        s2 = sg * sg
        if laq:
            c = 1 / la
            log_v = c.log() - c * x + c * c * s2 / 2
            slope = -c + 1 / th + (1 - a) / (T + C)
        else:
            log_v = -x * x / (2 * s2) - (sg * (2 * arb.pi()).sqrt()).log()
            slope = -x / s2 + 1 / th + (1 - a) / (T + C)
        if not slope.upper() <= 0:
            return arb("inf")
        logB = log_v - log_kappa + log_inv_fG
        nu = a - arb(1) / 2
        logR = nu * (y0 / (y0 + d)).log() + (y0 / th).bessel_k(nu).log() - ((y0 + d) / th).bessel_k(nu).log()
        return (logR.exp() + logB.exp()).log()
    finally:
        ctx.prec = old


def _cell_upper(a, b, la, lb, lA, lB, M):
    """Upper bound (exact arb) of L on [a, b] (tight_gauss item 4) from the balls of ell at a, b, a+D, b+D."""
    from flint import arb

    U1 = arb((la - lB).upper())
    if M is None or not M.is_finite():
        return U1
    M = arb(M.upper())
    La, Lb = arb((la - lA).upper()), arb((lb - lB).upper())
    h = _arb(b - a)
    q = (Lb - La) / h + M * h / 2
    if q.upper() <= 0:
        U2 = La  # the chord-plus-parabola bound decreases on the cell
    elif (q - M * h).lower() >= 0:
        U2 = Lb  # ... increases on the cell
    else:
        U2 = La + q * q / (2 * M)  # its unconstrained maximum (always an upper bound)
    U2 = arb(U2.upper())
    return U2 if U2 < U1 else U1


# --------------------------------------------------------------------- the certificate
@dataclass
class GaussEpsilonCertificate(EpsilonCertificate):
    r"""Result of :func:`certify_epsilon_gauss`: the fields of
    :class:`~arete_proofs.certified.epsilon.EpsilonCertificate` plus ``sigma`` and ``cover``
    (the cell endpoints, exact floats).  ``upper`` is a float :math:`\ge` the certified bound.

    >>> r = certify_epsilon_gauss("0.3", 1, 2, "0.1", numeric=False)
    >>> # lam >= theta: epsilon* = Delta/lam (tight_gauss item 6)
    >>> r.upper, r.method, r.to_dict()["sigma"]
    (0.5, 'lipschitz', '1/10')
    >>> r = certify_epsilon_gauss(2, "1/2", 0, "0.1", numeric=False)
    >>> # alpha >= 1: log-concave, epsilon* = Delta/max(theta, lam) (tight_gauss item 7)
    >>> r.upper, r.method
    (2.0, 'log-concave')
    """

    sigma: str = "0"
    cover: tuple = field(default=(), repr=False)

    def to_dict(self):
        """JSON-ready dict (with ``sigma``; the cover is left out)."""
        d = super().to_dict()
        d["sigma"] = self.sigma
        return d


class _Ell:
    def __init__(self, D):
        self.D = D
        self.cache = {}

    def need(self, ts):
        ts = sorted({Fraction(t) for t in ts} - set(self.cache))
        if ts:
            for t, m in zip(ts, self.D.magnitudes(ts)):
                b = self.D.pdf(t, mag=m)
                if not (b.is_finite() and b.lower() > 0):
                    raise PrecisionError(f"certified epsilon (Gaussian part): no positive ball for f_Z({float(t)!r}): {b}")
                self.cache[t] = b.log()

    def __getitem__(self, t):
        return self.cache[Fraction(t)]


def _float_cover(P, tol, T):
    """Float64 placement (fast_gauss): the maximiser, its value, and cell endpoints on [0, T]."""
    import numpy as np

    from ..distributions import fast_gauss
    from ..privacy import tight_gauss

    af, thf, laf, sgf, df = P

    def fl(t):
        return fast_gauss.logpdf(np.asarray(t, dtype=float), af, thf, laf, sgf)

    def fL(t):
        t = np.asarray(t, dtype=float)
        return fl(t) - fl(t + df)

    grid = np.unique(np.concatenate([[0.0], np.geomspace(1e-9, 1, 300) * max(sgf, 1e-3) * 20,
                                     np.linspace(0, min(T, 2 * thf + 4 * df), 300)]))
    # zoom on the maximiser: one vectorised call per step (fast_gauss rebuilds its rule per call)
    for _ in range(8):
        Lg = fL(grid)
        i = int(np.argmax(Lg))
        lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
        if hi - lo <= 1e-12 * max(hi, 1e-300):
            break
        grid = np.linspace(lo, hi, 65)
    t0 = float(grid[int(np.argmax(fL(grid)))])
    L0 = float(fL([t0])[0])
    target = L0 + tol / 4
    steps = 2.0 ** np.arange(-10, 4)

    def passing(x, h, direction, stop):
        """The largest step h 2^j (j in -10..3) from x whose cell bound is below the target, or None."""
        ys = np.maximum(x - h * steps, stop) if direction < 0 else np.minimum(x + h * steps, stop)
        a, b = np.minimum(x, ys), np.maximum(x, ys)
        v = fl(np.concatenate([a, b, a + df, b + df]))
        n = len(ys)
        best = None
        for j in range(n):
            if not b[j] > a[j]:
                continue
            la, lb, lA, lB = v[j], v[n + j], v[2 * n + j], v[3 * n + j]
            k = tight_gauss.curvature_bound(a[j] + df, lB, af, thf, laf, sgf, exact=False)
            u = tight_gauss.cell_bound(a[j], b[j], la, lb, lA, lB, 0.0, 1 / sgf ** 2 + max(k, 0))
            if u <= target or b[j] - a[j] < 1e-15 * max(b[j], 1e-300):
                best = ys[j]
        return best

    pts = [t0]
    for direction, stop in ((1, T), (-1, 0.0)):
        x = t0
        h = math.sqrt(tol * sgf ** 2) / 2
        while (x < stop) if direction > 0 else (x > stop):
            y = passing(x, h, direction, stop)
            if y is None:
                h *= 2.0 ** -11
                if not h > 1e-300:
                    raise PrecisionError("certified epsilon (Gaussian part): the float placement found no cell")
                continue
            h = 2 * abs(y - x)
            x = float(y)
            pts.append(x)
            if len(pts) > 5000:
                raise PrecisionError("certified epsilon (Gaussian part): the float placement needs too many cells")
    return t0, L0, sorted(set(pts))


def _split(a, b):
    m = a + (b - a) / 2
    return m if a < m < b else None


def certify_epsilon_gauss(alpha, theta, lam, sigma, Delta=1, *, target=None, tol="1e-4", max_seconds=1200,
                          numeric=True, progress=False, prec=None, cover=None):
    r"""Prove an upper bound on :math:`\varepsilon^* = \sup_t \ln f_Z(t)/f_Z(t+\Delta)` for
    :math:`Z = X_1 - X_2 + Y + N` (module docstring: the argument, tight_gauss items 1-6).

    Exact parameters (ints, Fractions, decimal strings, floats), :math:`\alpha>0`,
    :math:`\lambda \ge 0`, :math:`\sigma > 0`; for :math:`\alpha \ge 1` the closed form
    :math:`\varepsilon^* = \Delta/\max(\theta,\lambda)` (tight_gauss, item 7: :math:`f_Z` is
    log-concave), rounded up.  Refines the cover until the certified upper
    bound is within ``tol`` of the certified lower bound, the bound is at most ``target``, or
    ``max_seconds`` pass (the bound is then still certified, only wider).  ``numeric``: also
    compute :func:`arete_proofs.privacy.tight_gauss.tight_epsilon` (8 digits) for comparison,
    not part of the proof.  ``progress``: one line per round on stderr.  ``prec``: bits of the
    density balls (default 48, or 56 when :math:`\lambda > 0`; radii about :math:`10^{-12}`
    relative).  ``cover``: start from
    these cell endpoints (0 and :math:`T` are added) instead of the float64 placement, e.g. to
    re-check a given cover; it is refined only where its cells are above the tolerance.

    >>> r = certify_epsilon_gauss("0.014727", "0.85419", 0, "0.027054", numeric=False)   # the Gamma + Gaussian eps = 8 optimum
    >>> # tight_gauss.tight_epsilon(..., digits=10) = 7.99994740210436 is bracketed, within tol = 1e-4
    >>> r.lower <= 7.99994740210436 <= r.upper <= r.lower + 1e-4 and r.upper < 8
    True
    """
    from flint import arb, ctx

    t_start = time.perf_counter()
    aq, thq, laq, sgq = _params(alpha, theta, lam, sigma, below_one=False)
    dq = exact_parameter(Delta, "Delta")
    tol_q = exact_parameter(tol, "tol")
    target_f = None if target is None else float(exact_parameter(target, "target", allow_negative=True))
    if prec is None:
        prec = _CERT_PREC[laq > 0]
    if isinstance(prec, bool) or not isinstance(prec, int) or not 32 <= prec <= 1024:
        raise ValueError(f"prec must be an integer number of bits in 32..1024, got {prec!r}")
    num = None
    if numeric:
        from mpmath import mp

        from ..privacy import tight_gauss

        if progress:
            print("certify (sigma): the numeric search for the maximum (tight_gauss, 8 digits) ...", file=sys.stderr,
                  flush=True)
        try:
            r = tight_gauss.tight_epsilon(aq, thq, laq, sgq, dq, digits=8)
            with mp.workdps(20):
                num = float(r.epsilon)
        except PrecisionError:
            num = None
    names = dict(alpha=str(aq), theta=str(thq), lam=str(laq), Delta=str(dq), sigma=str(sgq))
    if aq >= 1 or laq >= thq:      # the closed cases: eps* = Delta / max(theta, lam), not attained
        method, argument = (
            ("log-concave", "alpha >= 1: f_Z is log-concave (Prekopa), so L(t) is non-decreasing and eps* is "
                            "its limit Delta/max(theta, lam) (tight_gauss, item 7)") if aq >= 1 else
            ("lipschitz", "lam >= theta: |(ln f_Z)'| <= 1/lam and L -> Delta/lam as t -> oo (tight_gauss, item 6)"))
        return GaussEpsilonCertificate(
            **names, upper=_up(_arb(dq / max(thq, laq))), lower=None, t_star=math.inf, method=method,
            argument=argument, seconds=time.perf_counter() - t_start, numeric=num, target=target_f)

    old, ctx.prec = ctx.prec, prec
    try:
        D = CertifiedGaussDensity(aq, thq, laq, sgq, prec=prec)
        ell = _Ell(D)
        fP = (float(aq), float(thq), float(laq), float(sgq), float(dq))
        limit = float(dq / thq)
        # the tail: T on a geometric ladder until the tail bound is halfway down to the tail limit
        from ..distributions import fast_gauss

        t_guess = float(fast_gauss.logpdf(0.0, *fP[:4]) - fast_gauss.logpdf(fP[4], *fP[:4]))
        T = max(fP[1] / 8, 8 * fP[3], fP[2])
        while True:
            tb = tail_bound(Fraction(T), aq, thq, laq, sgq, dq, prec=prec)
            if tb.is_finite() and float(tb.upper()) < limit + (max(t_guess, limit) - limit) / 2:
                break
            T *= 1.25
            if T > 1e4 * (fP[1] + fP[4]):
                raise PrecisionError("certified epsilon (Gaussian part): the tail bound does not come down")
        if cover is not None:
            pts_f = sorted({float(Fraction(exact_parameter(x, "cover", allow_zero=True))) for x in cover} | {0.0})
            T = max(T, pts_f[-1])
            pts_f = [x for x in pts_f if x < T] + [T]
            tb = tail_bound(Fraction(T), aq, thq, laq, sgq, dq, prec=prec)
        else:
            t0, L0, pts_f = _float_cover(fP, float(tol_q), T)
        if cover is None and not float(tb.upper()) < L0:
            # the maximum sits further out than the first guess: push T until the tail is below it
            while not (tb.is_finite() and float(tb.upper()) < L0 - float(tol_q) / 2):
                T *= 1.25
                if T > 1e4 * (fP[1] + fP[4]):
                    raise PrecisionError("certified epsilon (Gaussian part): the tail bound stays above the maximum")
                tb = tail_bound(Fraction(T), aq, thq, laq, sgq, dq, prec=prec)
            t0, L0, pts_f = _float_cover(fP, float(tol_q), T)
        tail_up = arb(tb.upper())
        lip = arb((_arb(dq) / _arb(laq)).upper()) if laq else None
        pts = [Fraction(p) for p in pts_f]
        if pts[0] != 0:
            pts.insert(0, Fraction(0))
        rounds = 0
        history = []
        while True:
            rounds += 1
            if progress and rounds == 1:
                print(f"certify (sigma): round 1: {len(pts) - 1} cells on [0, {float(T):.4g}], "
                      f"{2 * len(pts)} certified density values ({time.perf_counter() - t_start:.0f} s)",
                      file=sys.stderr, flush=True)
            ell.need(pts + [p + dq for p in pts])
            Ls = [ell[p] - ell[p + dq] for p in pts]
            k_best = max(range(len(pts)), key=lambda i: float(Ls[i].lower()))
            best = _down(Ls[k_best])
            ups = []
            for i in range(len(pts) - 1):
                a, b = pts[i], pts[i + 1]
                lB = ell[b + dq]
                kap = curvature_bound(a + dq, lB, aq, thq, laq, sgq, prec=prec)
                kap = arb(kap.upper()) if kap.is_finite() else None
                M = None if kap is None else 1 / (_arb(sgq) ** 2) + (kap if kap > 0 else arb(0))
                ups.append(_cell_upper(a, b, ell[a], ell[b], ell[a + dq], lB, M))
            cellmax = max(ups, key=lambda x: float(x)) if ups else arb("-inf")
            U = cellmax if cellmax > tail_up else tail_up
            if lip is not None and lip < U:
                U = lip
            history.append((rounds, len(pts) - 1, len(ell.cache), float(U), best))
            if progress:
                print(f"certify (sigma): round {rounds}: {len(pts) - 1} cells, {len(ell.cache)} evaluations, "
                      f"bound {float(U):.9f}, best {best:.9f}, gap {float(U) - best:.2e}, "
                      f"{time.perf_counter() - t_start:.0f} s", file=sys.stderr, flush=True)
            if U <= arb(best) + _arb(tol_q) or (target_f is not None and U <= arb(target_f)):
                break
            if time.perf_counter() - t_start > max_seconds or not cellmax > tail_up:
                break
            level = arb(best) + _arb(tol_q) / 2
            if tail_up > level:
                level = tail_up
            new = []
            for i, u in enumerate(ups):
                if u > level:
                    m = _split(float(pts[i]), float(pts[i + 1]))
                    if m is not None:
                        new.append(Fraction(m))
            if not new:
                break
            pts = sorted(set(pts) | set(new))
        if not U.is_finite():
            raise PrecisionError("certified epsilon (Gaussian part): a density ball or the tail bound is not finite")
        if U < arb(best):
            raise ArithmeticError(f"certified upper bound {float(U)!r} is below the certified value {best!r} of L: "
                                  "the cover argument is inconsistent")
        arg = ("cover of [0, T] by cells bounded by monotonicity and by the curvature bound L'' >= -M "
               "(Gaussian part, tight_gauss items 2-4); tail t >= T by log-convexity of f_GG (item 5); "
               "t < 0 by symmetry and unimodality (item 1); every value an arb ball")
        return GaussEpsilonCertificate(
            **names, upper=_up(U), lower=best, t_star=float(pts[k_best]), method="cover", argument=arg,
            T=float(T), tail=_up(tail_up), cells=len(pts) - 1, evaluations=len(ell.cache),
            seconds=time.perf_counter() - t_start, numeric=num, target=target_f, history=history,
            cover=tuple(float(p) for p in pts))
    finally:
        ctx.prec = old
