r"""Certified values of the Arete density: arb balls that provably contain :math:`f_A(t)`.

Uses python-flint (``arb``, ``acb.integral``; optional extra ``certified``).  Every
returned ball is a rigorous enclosure: all rounding, truncation and quadrature
errors are inside its radius, and the radius is at most :math:`10^{-\text{digits}}`
times the value (otherwise :class:`~arete_proofs.PrecisionError`).

Method (Definition 9, :math:`0<\alpha<1`; the same branch-cut representation as the
mpmath engine :mod:`arete_proofs.distributions._cut`, evaluated here in ball arithmetic):

.. math::

    f_A(t) = \frac{\sin\pi\alpha}{\pi\theta}\,
      \mathrm{PV}\!\!\int_1^\infty (\sigma-1)^{-\alpha}(\sigma+1)^{-\alpha}
      \frac{\rho^2}{\rho^2-\sigma^2}\, e^{-\sigma\tau}\, d\sigma + C_P\, e^{-\rho\tau},
    \qquad \rho = \theta/\lambda,\ \tau = |t|/\theta,

with :math:`C_P = (1-\rho^2)^{-\alpha}/(2\lambda)` for :math:`\rho<1` and
:math:`\cos(\pi\alpha)(\rho^2-1)^{-\alpha}/(2\lambda)` for :math:`\rho>1`.  The
integral is split so that every piece is either a rigorous ``acb.integral``
(Petras' algorithm with error bounds from the integrand on complex ellipses) of
an integrand analytic on the piece, or enclosed by an elementary bound:

* :math:`[1, 1+\delta]`: :math:`(\sigma-1)^{-\alpha}` is integrated exactly,
  :math:`\delta^{1-\alpha}/(1-\alpha)`, times the ball of the smooth rest over the
  whole interval (its radius is :math:`O(\delta)` relative);
* the principal value at :math:`\sigma=\rho`: :math:`\int_0^c (G(\rho-v)-G(\rho+v))/v\,dv`
  with :math:`G` the integrand without :math:`1/(\rho-\sigma)`; on :math:`[0,\eta]` the
  mean value theorem puts the integrand in :math:`-2G'([\rho-\eta,\rho+\eta])`, with
  :math:`G'/G = -\alpha/(\sigma-1)-\alpha/(\sigma+1)-1/(\rho+\sigma)-\tau`;
* :math:`[S,\infty)`: the integrand is negative there and above
  :math:`-(S-1)^{-2\alpha}e^{-S\tau}\rho^2/(\sigma^2-\rho^2)`, whose integral is
  :math:`(\rho/2)\ln((S+\rho)/(S-\rho))`.

Special cases: :math:`t=0` uses the closed form
:func:`arete_proofs.certified.balls.pdf_at_zero_ball` (Gradshteyn-Ryzhik 6.621.3);
:math:`\rho=1` (:math:`\lambda=\theta`) is the Gamma-Gamma density of shape
:math:`\alpha+1` (the Laplace law is Gamma-Gamma of shape 1), in closed form with
:math:`K_{\alpha+1/2}`.  :math:`\alpha\ge1` is not supported (the cut integral
diverges); it raises :class:`ValueError`.

The accuracy claim is tested against the independent mpmath engine
(``tests/test_certified_density.py``) and, at :math:`t=0`, against the
hypergeometric closed form.

>>> from flint import arb
>>> # symmetry (Lemma 2) and the limit t -> 0 meeting the closed form at 0
>>> b0 = pdf_ball(0, "0.3", 2, "0.5"); b1 = pdf_ball("1e-30", "0.3", 2, "0.5")
>>> pdf_ball(-1, "0.3", 2, "0.5").overlaps(pdf_ball(1, "0.3", 2, "0.5")), (b0 - b1).upper() < 1e-6
(True, True)
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from .._validation import PrecisionError
from .balls import _arb_of_fraction as _arb

__all__ = ["pdf", "logpdf", "pdf_ball", "logpdf_ball", "gg_pdf_ball", "CertifiedDensity", "exact_parameter", "param_ball"]

#: digits delivered by default (relative radius of the ball at most 10**-digits)
DEFAULT_DIGITS = 15
_MAX_DIGITS = 300


def exact_parameter(x, name, *, allow_zero=False, allow_negative=False):
    """``x`` as an exact ``fractions.Fraction`` (ints, Fractions, decimal strings,
    floats and mpmath numbers are exact), or :class:`ValueError` naming ``name``.

    >>> exact_parameter("0.1", "theta") == Fraction(1, 10)
    True
    """
    bad = ValueError(f"{name} must be a finite real number (int, Fraction, decimal string, float), got {x!r}")
    if isinstance(x, Fraction):
        q = x
    elif isinstance(x, bool):
        raise bad
    elif isinstance(x, (int, str, float)):
        if isinstance(x, float) and not math.isfinite(x):
            raise bad
        try:
            q = Fraction(x.strip() if isinstance(x, str) else x)
        except (ValueError, ZeroDivisionError):
            raise bad from None
    elif hasattr(x, "_mpf_"):
        import mpmath

        if not mpmath.isfinite(x):
            raise bad
        man, exp = x.man_exp
        q = Fraction(int(man)) * Fraction(2) ** int(exp)
    else:
        raise bad
    if q < 0 and not allow_negative:
        raise ValueError(f"{name} must be positive, got {x!r}")
    if q == 0 and not (allow_zero or allow_negative):
        raise ValueError(f"{name} must be positive, got {x!r}")
    return q


def param_ball(x, name):
    """``(ball, q)`` for a distribution parameter: ``ball`` is ``x`` itself when it is an arb ball
    (an uncertain parameter, e.g. :math:`e^{-\\varepsilon/4}`; it must be finite and positive),
    else ``None``; ``q`` is the exact value (:func:`exact_parameter`) or the ball's midpoint.

    >>> from flint import arb
    >>> param_ball("0.5", "lam") == (None, Fraction(1, 2))
    True
    >>> b, q = param_ball(arb(-5).exp(), "alpha")   # e^-5 (Lemma 3's alpha at eps = 20) as a ball
    >>> bool(b.contains(_arb(q))), b.rad() > 0
    (True, True)
    """
    try:
        from flint import arb
    except ImportError:  # pragma: no cover - exact parameters need no flint here
        arb = None
    if arb is not None and isinstance(x, arb):
        if not x.is_finite() or not x.lower() > 0:
            raise ValueError(f"{name} must be a finite positive ball, got {x}")
        man, exp = x.mid().man_exp()
        return x, Fraction(int(man)) * Fraction(2) ** int(exp)
    return None, exact_parameter(x, name)


def _as_arb(p):
    """An arb ball for a parameter as :func:`param_ball` leaves it: a Fraction, or already a ball."""
    return _arb(p) if isinstance(p, Fraction) else p


def _digits(digits):
    d = DEFAULT_DIGITS if digits is None else digits
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= _MAX_DIGITS:
        raise ValueError(f"digits must be an integer in 1..{_MAX_DIGITS}, got {digits!r}")
    return d


class CertifiedDensity:
    r"""Certified :math:`f_A` for fixed :math:`(\alpha,\theta,\lambda)`, reusing constants across ``t``.

    ``prec`` is the working precision in bits; :meth:`pdf` returns the ball at that
    precision without an accuracy guarantee beyond its (always rigorous) radius.
    :func:`pdf_ball` adds the digits contract and precision escalation.

    >>> D = CertifiedDensity("0.3", 2, "0.5", prec=64)
    >>> # f_A is non-increasing on t >= 0 (Lemma 2), certified at two points
    >>> bool(D.pdf(1) > D.pdf(2))
    True
    """

    def __init__(self, alpha, theta, lam, *, prec=64):
        from flint import arb, ctx

        balls = [param_ball(x, n) for x, n in ((alpha, "alpha"), (theta, "theta"), (lam, "lam"))]
        (ab, self.alpha_q), (tb, self.theta_q), (lb, self.lam_q) = balls
        self.prec = int(prec)
        self.rho_q = self.theta_q / self.lam_q  # exact, or the midpoints' ratio (heuristics only)
        # the quadrature's step sizes are planned in float64 from alpha and rho = theta/lam
        for q, n in ((self.alpha_q, "alpha"), (self.rho_q, "theta/lam")):
            if q != 0 and not Fraction(1, 10**300) <= abs(q) <= 10**300:
                raise PrecisionError(
                    f"certified density: {n} = {mpmath.nstr(mpmath.mpf(q.numerator) / q.denominator, 5)} is outside "
                    f"[1e-300, 1e300], the range its quadrature plan handles (float64)")
        old, ctx.prec = ctx.prec, self.prec
        try:
            a, th, la = (_as_arb(b if b is not None else q) for b, q in balls)
            self.a, self.th, self.la = a, th, la
            self.rho = th / la
            if ab is None and tb is None and lb is None:  # exact parameters
                if self.alpha_q >= 1:
                    raise ValueError(f"alpha must be < 1 for the certified density (branch-cut integral), got {alpha!r}")
                self.case = "pv" if self.rho_q > 1 else ("below" if self.rho_q < 1 else "one")
                self.r1 = _arb(self.rho_q - 1)  # rho - 1, the pole in x = sigma - 1
            else:
                # uncertain parameters: every decision must hold for the whole ball
                if not a.upper() < 1:
                    raise ValueError(f"alpha must be certainly < 1 for the certified density, got {a}")
                if self.rho.lower() > 1:
                    self.case = "pv"
                elif self.rho.upper() < 1:
                    self.case = "below"
                else:
                    raise PrecisionError("theta/lam is too close to 1 to decide the case with ball parameters")
                self.r1 = self.rho - 1
            pi = arb.pi()
            self.pref = (pi * a).sin() / (pi * th)
            rho2m1 = self.rho * self.rho - 1
            if self.case == "pv":
                self.CP = (pi * a).cos() * rho2m1 ** (-a) / (2 * la)
            elif self.case == "below":
                self.CP = (-rho2m1) ** (-a) / (2 * la)
            else:
                self.CP = None
            r = float(self.rho_q)
            # distance from the branch point 1 to the pole rho: the scale of the small pieces
            self.c = self.r1 / 2 if self.case == "pv" else None
            cf = min(1.0, abs(r - 1) / 2) if self.case != "one" else 1.0
            bits = self.prec + 8
            # [1, 1+delta] is enclosed with relative radius ~ delta^(2-alpha)/cf: keep it below 2^-bits
            e_delta = math.floor((math.log2(max(cf, 1e-300)) - bits) / (2 - float(self.alpha_q))) - 2
            self.delta = arb(2) ** e_delta
            # the mean-value piece [0, eta] of the principal value has relative radius ~ (eta/c)^2
            self.eta = arb(2) ** (math.floor(math.log2(max(cf, 1e-300)) - bits / 2) - 3)
        finally:
            ctx.prec = old
        self.zero = None

    # --- integrand pieces, in x = sigma - 1 (so that x near 0 is exact, no cancellation) ---
    def _rest(self, x, tau):
        """(x+2)^-a rho^2/(rho+1+x) e^{-x tau}: everything but x^-a and 1/(rho-1-x)."""
        return (x + 2) ** (-self.a) * (self.rho * self.rho) / (self.rho + 1 + x) * (-x * tau).exp()

    def _G(self, x, tau, an):
        lg = x.log(analytic=an) if an else x.log()  # arb.log has no analytic flag
        return (lg * (-self.a)).exp() * self._rest(x, tau)

    def pdf(self, t):
        """Ball containing :math:`f_A(t)` at this object's precision (no accuracy guarantee)."""
        from flint import acb, arb, ctx

        tq = abs(exact_parameter(t, "t", allow_negative=True))
        old, ctx.prec = ctx.prec, self.prec
        try:
            if tq == 0:
                if self.zero is None:
                    from .balls import pdf_at_zero_ball

                    self.zero = pdf_at_zero_ball(self.a, self.th, self.la, prec=self.prec)
                return self.zero
            tau = _arb(tq) / self.th
            if self.case == "one":
                # lam = theta: Laplace(theta) is Gamma-Gamma of shape 1, so Z ~ Gamma-Gamma(alpha + 1, theta)
                return gg_pdf_ball(tq, self.a + 1, self.th, prec=self.prec)
            a, rho, r1 = self.a, self.rho, self.r1
            af, rf, taumid = float(self.alpha_q), float(self.rho_q), float(tq / self.theta_q)
            bits = self.prec + 8
            zero = arb(0)
            # (a) x in [0, delta]: int x^-a dx = delta^(1-a)/(1-a), times the rest on the whole ball
            d = self.delta
            x0 = zero.union(d)
            I = d ** (1 - a) / (1 - a) * self._rest(x0, tau) / (r1 - x0)
            # rough magnitude of the whole integral: only sets tolerances, the result is rigorous regardless
            mag = abs(float(self._rest(zero, tau).mid() / r1.mid()))
            mag *= min(1.0, math.gamma(1 - af) * taumid ** (af - 1))
            mag = max(mag, 1e-300)
            tol = arb(2) ** (-bits)
            atol = tol * arb(mag)

            def full(x, an):
                return self._G(x, tau, an) / (r1 - x)

            if self.case == "pv":
                c = self.c
                I += acb.integral(full, d, r1 - c, rel_tol=tol, abs_tol=atol).real
                # principal value around x = r1: int_0^c (G(r1 - v) - G(r1 + v))/v dv; on [0, eta] the
                # integrand is -2 G'(xi) for some xi in [r1 - eta, r1 + eta] (mean value theorem)
                eta = self.eta
                xi = (r1 - eta).union(r1 + eta)
                Gp = self._G(xi, tau, False) * (-a / xi - a / (xi + 2) - 1 / (rho + 1 + xi) - tau)
                I += -2 * eta * Gp
                I += acb.integral(lambda v, an: (self._G(r1 - v, tau, an) - self._G(r1 + v, tau, an)) / v,
                                  eta, c, rel_tol=tol, abs_tol=atol).real
                start, startf = r1 + c, 1.5 * (rf - 1)
            else:
                start, startf = d, 0.0
            # truncation point X (x = sigma - 1): the tail bound below must be under 2^-bits * mag
            need = bits * math.log(2) + math.log(max(rf * rf, 1.0) / mag) + 5
            X_exp = startf + 1 + need / taumid if taumid > 0 else math.inf
            X_pow = 2 * max(rf, 1.0) + 2 + max(rf * rf, 1.0) * 2.0 ** (bits + 4) / mag
            X = arb(max(min(X_exp, X_pow), 2 * max(rf, 1.0) + 2, startf + 1))  # a float: exact in arb
            I += acb.integral(full, start, X, rel_tol=tol, abs_tol=atol).real
            # [X, inf) with sigma = 1 + x > max(rho, 1): rho^2/(rho^2 - sigma^2) < 0, so the integrand lies in
            # [-X^{-2a} e^{-X tau} rho^2/(sigma^2 - rho^2), 0] ((x(x+2))^-a <= X^-2a; e^{-tau} is factored out),
            # and int_{1+X}^inf rho^2/(sigma^2 - rho^2) d sigma = (rho/2) ln((1+X+rho)/(1+X-rho))
            B = X ** (-2 * a) * (-X * tau).exp() * (rho / 2) * ((1 + X + rho) / (1 + X - rho)).log()
            I += zero.union(-B)
            val = self.pref * I * (-tau).exp()
            if self.CP is not None:
                val += self.CP * (-rho * tau).exp()
            return val
        finally:
            ctx.prec = old


def pdf_ball(t, alpha, theta, lam, *, digits=None):
    r"""An arb ball that provably contains :math:`f_A(t)` (Definition 9), relative radius :math:`\le 10^{-\text{digits}}`.

    Parameters are exact: ints, Fractions, decimal strings (``"0.1"`` is exactly
    1/10), floats (their exact binary value) or mpmath numbers; or arb balls (the ball then
    contains :math:`f_A(t)` for every parameter value in them).  ``digits``
    defaults to 15; the working precision starts at ``3.33 digits + 24`` bits and
    is doubled (at most three times) until the ball is that narrow, otherwise
    :class:`~arete_proofs.PrecisionError`.  :math:`0<\alpha<1` only.

    >>> # alpha -> 0 is Laplace(lam) (Section 1): f_A(t) -> e^{-|t|/lam}/(2 lam)
    >>> from flint import arb
    >>> b = pdf_ball(1, "1e-9", 1, "0.5", digits=20)
    >>> bool(abs(b - arb(-2).exp()) < 1e-8), bool(b.rad() < 1e-20 * b.mid())
    (True, True)
    """
    from flint import arb

    d = _digits(digits)
    prec = int(d * 3.33) + 24
    for _ in range(4):
        b = CertifiedDensity(alpha, theta, lam, prec=prec).pdf(t)
        if b.is_finite() and b.lower() > 0 and b.rad() <= arb(10) ** (-d) * b.lower():
            return b
        prec *= 2
    raise PrecisionError(f"could not certify {d} digits of f_A({t}) (last ball {b})")


def logpdf_ball(t, alpha, theta, lam, *, digits=None):
    r"""A ball containing :math:`\ln f_A(t)`, absolute radius :math:`\le 10^{-\text{digits}}\cdot\max(1, |\ln f_A(t)|)`.

    >>> # Lipschitz bound of the proof of Lemma 16/privacy: |ln f_A(t) - ln f_A(t + 1)| <= 1/lam
    >>> L = logpdf_ball(2, "0.3", 2, "0.5") - logpdf_ball(3, "0.3", 2, "0.5")
    >>> bool(0 < L.lower()) and bool(L.upper() <= 2)
    True
    """
    d = _digits(digits)
    return pdf_ball(t, alpha, theta, lam, digits=d + 1).log()


def pdf(t, alpha, theta, lam, *, digits=None):
    r"""Certified :math:`f_A(t)`: :func:`pdf_ball` at one point or at each point of a list.

    The entry point of the certified layer for a density value (it replaces the
    former ``arete.pdf(..., certified=True)``, which made the distributions
    layer import this one).

    >>> from arete_proofs.distributions import arete
    >>> b = pdf("0.5", "0.3", 2, "0.5", digits=20)
    >>> bool(b.contains(arete.pdf("0.5", "0.3", 2, "0.5", digits=30)))   # the engine's value is inside
    True
    """
    if isinstance(t, (list, tuple)):
        return [pdf_ball(x, alpha, theta, lam, digits=digits) for x in t]
    return pdf_ball(t, alpha, theta, lam, digits=digits)


def logpdf(t, alpha, theta, lam, *, digits=None):
    r"""Certified :math:`\ln f_A(t)`: :func:`logpdf_ball` at one point or at each point of a list.

    >>> # symmetry (Lemma 2): ln f_A(-t) = ln f_A(t); the two balls overlap
    >>> lo, hi = logpdf(["-0.7", "0.7"], "0.3", 2, "0.5", digits=12)
    >>> bool(lo.overlaps(hi))
    True
    """
    if isinstance(t, (list, tuple)):
        return [logpdf_ball(x, alpha, theta, lam, digits=digits) for x in t]
    return logpdf_ball(t, alpha, theta, lam, digits=digits)


def gg_pdf_ball(t, alpha, theta, *, prec=64):
    r"""A ball containing the Gamma-Gamma density (Definition 7) at :math:`t\ne0`, at ``prec`` bits.

    Closed form :math:`f_{\Gamma-\Gamma}(t) = (|t|/(2\theta))^{\alpha-1/2}K_{\alpha-1/2}(|t|/\theta)
    /(\theta\sqrt\pi\,\Gamma(\alpha))` (Bessel K at an exact point; the radius is rigorous
    but not controlled).

    >>> from flint import arb
    >>> # alpha = 1: X1 - X2 is Laplace(theta), density e^{-|t|/theta}/(2 theta)
    >>> b = gg_pdf_ball(3, 1, 2)
    >>> bool(abs(b - arb(-1.5).exp() / 4) < 1e-15)
    True
    """
    from flint import arb, ctx

    tq = abs(exact_parameter(t, "t", allow_negative=True))
    if tq == 0:
        raise ValueError("t must be nonzero (f_GG is infinite at 0 for alpha <= 1/2)")
    (ab, a_q), (tb, th_q) = param_ball(alpha, "alpha"), param_ball(theta, "theta")
    old, ctx.prec = ctx.prec, prec
    try:
        a, th = _as_arb(ab if ab is not None else a_q), _as_arb(tb if tb is not None else th_q)
        x = _arb(tq) / th
        nu = a - arb(1) / 2
        return (x / 2) ** nu * x.bessel_k(nu) / (th * arb.pi().sqrt() * a.gamma())
    finally:
        ctx.prec = old
