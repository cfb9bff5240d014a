r"""Analytic limits of the Arete density (Definition 9) with proved error bounds, for extreme parameters.

For extreme parameters one of the three parts of :math:`Z = W + Y`
(:math:`W = X_1 - X_2 \sim \Gamma{-}\Gamma(\alpha,\theta)`, :math:`Y \sim
\mathrm{Laplace}(\lambda)`) is negligible, and the quadrature of
:mod:`arete_proofs.distributions._cut` is both unnecessary and slow (its pieces grow
like :math:`\log_4(\theta/\lambda)`: about 180 000 for the paper's parameters at
:math:`\varepsilon = 10^6`).  :func:`shortcut` returns the limit when a *proved* bound
on its relative error is below :math:`10^{-(d+3)}` (so the result keeps the digits
contract), and ``None`` otherwise.  All bounds are evaluated in log space.

**Laplace only** (:math:`\alpha \to 0`, the limit noted in the paper's Section 1, or :math:`\theta \to 0`).  :math:`\ln f_L`
and :math:`\ln \bar F_L` are :math:`1/\lambda`-Lipschitz, so splitting
:math:`f_A(t) = E f_L(t - W)` at :math:`|W| \le w_0`, with
:math:`p = P(|W| > w_0) \le 2 P(X_1 > w_0)`:

.. math::

    (1-p)\,e^{-w_0/\lambda} f_L(t) \le f_A(t) \le e^{w_0/\lambda} f_L(t) + \frac{p}{2\lambda},

so the relative error of :math:`f_L(t)` is at most :math:`(e^{w_0/\lambda}-1) + p\,e^{|t|/\lambda}`
(for the survival function :math:`2p\,e^{t/\lambda}`).  :math:`w_0 = \lambda 10^{-(d+4)}`;
:math:`P(X > \theta y) \le (\ln(1/y) + e^{-1})/\Gamma(\alpha)` (:math:`y < 1`) or
:math:`e^{-y}/\Gamma(\alpha)` (:math:`y \ge 1`) for :math:`\alpha \le 1`, and
:math:`2^\alpha e^{-y/2}` (Chernoff) for :math:`\alpha > 1`.

**Gamma-Gamma only** (:math:`\lambda \to 0`, :math:`t \ne 0`).  On :math:`x > 0`,
:math:`|(\ln f_{\Gamma-\Gamma})'(x)| \le 1/\theta + |\alpha-1|/x` (differentiate
:math:`\int_0^\infty f_\Gamma(x+u) f_\Gamma(u)\,du` under the integral), and the hazard
:math:`f_{\Gamma-\Gamma}/\bar F_{\Gamma-\Gamma}` obeys the same bound.  Splitting
:math:`f_A(t) = E f_{\Gamma-\Gamma}(t - Y)` at :math:`|Y| \le y_0 \le t/2`, with
:math:`\kappa = y_0 (1/\theta + 2|\alpha-1|/t)`:

.. math::

    (1-e^{-y_0/\lambda})\,e^{-\kappa} f_{\Gamma-\Gamma}(t) \le f_A(t)
      \le e^{\kappa} f_{\Gamma-\Gamma}(t) + \frac{e^{-y_0/\lambda}}{2\lambda},

(for :math:`\bar F_A` the last term is :math:`e^{-y_0/\lambda}`).

**Pole only** (:math:`0 < \alpha < 1`, :math:`\lambda > \theta`, large :math:`t`).  In the
branch-cut formula (module :mod:`~arete_proofs.distributions._cut`) the cut integral is
bounded by :math:`|\rho^2/((\rho^2-\sigma^2))| \le \rho^2/((1-\rho)(1+\rho))` and
:math:`(\sigma^2-1)^{-\alpha} \le (\sigma-1)^{-\alpha}`, so with :math:`\tau = t/\theta`

.. math::

    \Big|f_A(t) - \frac{(1-\rho^2)^{-\alpha}}{2\lambda} e^{-\rho\tau}\Big|
      \le \frac{\sin\pi\alpha}{\pi\theta}\,\frac{\rho^2\,\Gamma(1-\alpha)}{(1-\rho)(1+\rho)}\,
        \tau^{\alpha-1} e^{-\tau}

(the survival function: the same without :math:`1/\theta` and :math:`1/\lambda`).

>>> from mpmath import mp
>>> from arete_proofs.distributions import laplace
>>> # alpha = 1e-300: Z is Laplace(lam) to far more than 15 digits near 0 ...
>>> shortcut(mp.mpf("0.5"), mp.mpf("1e-300"), mp.mpf(1), mp.mpf(1), "pdf", 15) == laplace.pdf("0.5", 1, digits=16)
True
>>> # ... but not in the tail, where the Gamma-Gamma part dominates
>>> shortcut(mp.mpf(1000), mp.mpf("1e-300"), mp.mpf(2), mp.mpf(1), "pdf", 15) is None
True
"""

from __future__ import annotations

from mpmath import mp

from . import gamma_gamma, laplace
from .._validation import GUARD_DIGITS, exponent_digits

__all__ = ["shortcut", "Limits", "MAX_ENGINE_ALPHA"]

#: Largest alpha the engine's partial-fraction route accepts (it needs floor(alpha)
#: Gamma-Gamma terms; alpha = 1000 takes about 5 s per point at 15 digits).
MAX_ENGINE_ALPHA = 1000

_WD = 30  # working digits of the (log-space) bounds; comparisons keep a margin of e^1


def _log_gamma_sf_bound(alpha, ln_y):
    """Upper bound of ln P(X > theta y), X ~ Gamma(alpha, theta), given ln y."""
    if alpha <= 1:
        lg = mp.loggamma(alpha)  # >= 0 on (0, 1]
        if ln_y < 0:
            return min(mp.zero, mp.log(-ln_y + mp.exp(-1)) - lg)
        return min(mp.zero, -mp.exp(ln_y) - lg)
    return min(mp.zero, alpha * mp.log(2) - mp.exp(ln_y) / 2)


class Limits:
    r"""The four limits of the Arete density (Definition 9) at one parameter set.

    The t-independent parts (the thresholds of the module docstring's bounds, e.g. the
    Laplace-only limit :math:`f_A(t) \approx p\,e^{t/\lambda}/(2\lambda)` for very negative
    :math:`t`) are computed once; :meth:`value` then answers each ``t``.

    ``alpha, theta, lam`` are ``mpf``; ``kind`` is ``"pdf"`` or ``"sf"``; ``d`` digits.

    >>> from mpmath import mp
    >>> # lam > theta, t = 200 theta: the pole term (1 - rho^2)^-alpha e^(-t/lam)/(2 lam) alone
    >>> L = Limits(mp.mpf("0.3"), mp.mpf(1), mp.mpf(2), "pdf", 15)
    >>> mp.almosteq(L.value(mp.mpf(200)), mp.mpf("0.75") ** mp.mpf("-0.3") * mp.exp(-100) / 4, 1e-14)
    True
    """

    def __init__(self, alpha, theta, lam, kind, d):
        self.alpha, self.theta, self.lam, self.kind, self.d = alpha, theta, lam, kind, d
        a = alpha
        with mp.workdps(_WD):
            self.D = D = (d + 4) * mp.log(10)
            ln4 = mp.log(4)
            # Laplace only: p e^(t/lam) (2 p e^(t/lam) for sf) <= 10^-(d+4)/e
            ln_p = mp.log(2) + _log_gamma_sf_bound(a, mp.log(lam) - mp.log(theta) - D)
            if kind == "sf":
                ln_p += mp.log(2)
            self.lap_tmax = (-D - 1 - ln_p) * lam  # the limit holds for t <= lap_tmax
            # Gamma-Gamma only: y0 >= lam (D + ln 4)
            self.gg_ok = a <= MAX_ENGINE_ALPHA
            self.gg_y0min = lam * (D + ln4)
            self.gg_lim = mp.mpf(10) ** -(d + 4) / 2
            self.gg_screen = self.gg_ok and self.gg_y0min / theta <= self.gg_lim
            self.ln2lam = mp.log(2 * lam)
            self.pole = self.tail = False
            if a < 1 and theta != lam:
                rho = theta / lam
                lnK = mp.log(mp.sin(mp.pi * a)) - mp.log(mp.pi) - (mp.log(theta) if kind == "pdf" else 0)
                self.rho = rho
                if theta < lam:
                    # pole only: ln|cut| - ln(pole) = c_pole + (alpha - 1) ln tau - (1 - rho) tau
                    gp = (lam - theta) / lam  # lam, theta are exact: correctly rounded, no cancellation
                    ln_1mr2 = mp.log(gp) + mp.log1p(rho)
                    lnCP = -a * ln_1mr2 - mp.log(2) - (mp.log(lam) if kind == "pdf" else 0)
                    self.pole = True
                    self.gp = gp
                    self.c_pole = lnK + 2 * mp.log(rho) - ln_1mr2 + mp.loggamma(1 - a) - lnCP
                else:
                    # far tail (Watson): every error term carries 1/tau or e^(-g tau/2)
                    g = (theta - lam) / lam
                    self.tail = True
                    self.g = g
                    lnphi0 = -a * mp.log(2) + 2 * mp.log(rho) - mp.log(g) - mp.log1p(rho)
                    self.c_lead = lnK + lnphi0 + mp.loggamma(1 - a)  # + (alpha - 1) ln tau
                    lnL = (mp.log(a / 2 + 2 / g + 2) + (1 - a) * mp.log(2) + 2 * mp.log(rho)
                           - mp.log(g) - mp.log1p(rho))
                    self.c_A = lnK + lnL + mp.loggamma(2 - a)  # + (alpha - 2) ln tau
                    self.c_B = lnK + lnphi0 - a * mp.log(g / 2)  # - g tau/2 - ln tau
                    self.c_C = lnK - a * mp.log(g / 2) + 2 * mp.log(rho) - mp.log1p(rho)  # + ln(...) - g tau/2
                    self.c_P = -a * (mp.log(g) + mp.log1p(rho)) - mp.log(2) - (mp.log(lam) if kind == "pdf" else 0)

    # -- the four limits -------------------------------------------------------------
    def _laplace_only(self, t):
        if not t <= self.lap_tmax:
            return None
        return (laplace._pdf_d if self.kind == "pdf" else laplace._sf_d)(t, self.lam, self.d + 1)

    def _gamma_gamma_only(self, t):
        if t == 0 or not self.gg_screen:
            return None
        alpha, theta, lam, d = self.alpha, self.theta, self.lam, self.d
        with mp.workdps(_WD):
            slope = 1 / theta + 2 * abs(alpha - 1) / t

            def ok(y0):
                return y0 <= t / 2 and y0 * slope <= self.gg_lim

            if not ok(self.gg_y0min):
                return None
            if self.kind == "pdf":
                lv = gamma_gamma._logpdf_d(t, alpha, theta, 20)
                L = max(mp.zero, -self.ln2lam - lv + 1)
            else:
                lv = mp.log(gamma_gamma._sf_d(t, alpha, theta, 20))
                L = max(mp.zero, -lv + 1)
            if not ok(self.gg_y0min + lam * L):
                return None
        return (gamma_gamma._pdf_d if self.kind == "pdf" else gamma_gamma._sf_d)(t, alpha, theta, d + 1)

    def _pole_only(self, t):
        if not (self.pole and t > 0):
            return None
        alpha, theta, lam, d = self.alpha, self.theta, self.lam, self.d
        with mp.workdps(_WD):
            tau = t / theta
            if not self.c_pole + (alpha - 1) * mp.log(tau) - self.gp * tau <= -self.D - 1:
                return None
        with mp.workdps(d + GUARD_DIGITS + exponent_digits(t / lam, t / theta) + 5):
            one_minus_rho2 = (lam - theta) * (lam + theta) / (lam * lam)
            v = one_minus_rho2 ** (-alpha) * mp.exp(-t / lam) / 2
            return v / lam if self.kind == "pdf" else v

    def _far_tail(self, t):
        if not (self.tail and t > 0):
            return None
        alpha, theta, lam, d, g = self.alpha, self.theta, self.lam, self.d, self.g
        with mp.workdps(_WD):
            tau = t / theta
            if not tau * g > 4 * self.D + 40:  # cheap screen
                return None
            lt = mp.log(tau)
            ln_lead = self.c_lead + (alpha - 1) * lt
            terms = [
                self.c_A + (alpha - 2) * lt,  # A: |phi(delta) - phi(0)| <= L delta on [0, g/2]
                self.c_B - g * tau / 2 - lt,  # B: phi(0) int_{g/2}^inf delta^-alpha e^(-delta tau)
                # C: principal value over [g/2, inf) (pairing around the pole + the rest)
                self.c_C + mp.log(2 * alpha + (3 + tau) * g + 2 / (g * tau)) - g * tau / 2,
                self.c_P - g * tau,  # the pole term, |cos(pi alpha)| <= 1
            ]
            err = mp.log(mp.fsum(mp.exp(x - ln_lead) for x in terms))
            if not err <= -self.D - 1:
                return None
        with mp.workdps(d + GUARD_DIGITS + exponent_digits(t / theta) + 5):
            tau = t / theta
            rr = theta * theta / ((theta - lam) * (theta + lam))  # rho^2 / (rho^2 - 1)
            v = rr * tau ** (alpha - 1) * mp.exp(-tau - mp.loggamma(alpha) - alpha * mp.log(2))
            return v / theta if self.kind == "pdf" else v

    def value(self, t):
        """The limit at ``t >= 0`` (finite; positive for ``"sf"``) when proved accurate, else ``None``."""
        for fn in (self._laplace_only, self._gamma_gamma_only, self._pole_only, self._far_tail):
            v = fn(t)
            if v is not None:
                return v
        return None


def shortcut(t, alpha, theta, lam, kind, d):
    r"""The Laplace, Gamma-Gamma, pole or far-tail limit of the pdf (``kind="pdf"``) or sf at ``t >= 0``.

    Returns an ``mpf`` with relative error below :math:`10^{-d}` when one of the bounds of
    the module docstring proves the limit accurate to :math:`10^{-(d+3)}`, else ``None``.
    ``alpha, theta, lam`` are ``mpf``; ``t`` is finite (and positive for ``"sf"``).
    For many points at one parameter set use :class:`Limits`.

    >>> from mpmath import mp
    >>> from arete_proofs.distributions import gamma_gamma
    >>> a, th, lam = mp.mpf("0.3"), mp.mpf(1), mp.mpf("1e-30")   # lam -> 0: Gamma-Gamma (Definition 7)
    >>> shortcut(mp.mpf(1), a, th, lam, "pdf", 15) == gamma_gamma.pdf(1, a, th, digits=16)
    True
    """
    return Limits(alpha, theta, lam, kind, d).value(t)
