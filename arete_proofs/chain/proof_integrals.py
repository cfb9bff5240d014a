r"""Integrals that appear inside the paper's proofs, evaluated to any precision.

These are the quantities the proofs of Lemma 15, Lemma 16 (Claim 1) and
Lemma 3 bound, so that each bound can be checked against the exact value.
Throughout, :math:`f_\Gamma` is the :math:`\Gamma(\alpha, \theta)` density
(Definition 22) and :math:`f_L` the :math:`\mathrm{Laplace}(\lambda)` density
(Definition 23):

.. math::

    f_\Gamma(x) = \frac{x^{\alpha-1} e^{-x/\theta}}{\Gamma(\alpha)\,\theta^\alpha}\ (x > 0),
    \qquad f_L(x) = \frac{e^{-|x|/\lambda}}{2\lambda}.

:func:`near_mass`
    The "near part" of the numerator in the proof of Lemma 16 (Appendix C.1),
    the numerator of Claim 1 and the left side of eq. (6):

    .. math::

        N(t) = \int_{t-D_u}^{t+D_u} f_\Gamma(|t-x|) f_L(x)\,dx
             = \int_0^{D_u} f_\Gamma(y)\,[f_L(t-y) + f_L(t+y)]\,dy .

    Eq. (6) of the paper bounds it by :math:`f_L(|t|-D_u)\,c_{D_u}` for
    :math:`|t| \ge D_u`, where :math:`c_{D_u} = 2P(X \le D_u)`.

:func:`shifted_convolution`
    The denominator of Claim 1 and the integral bounded from below in the
    proof of Lemma 15 (with :math:`s = t + \Delta`):

    .. math::

        S(s) = \int_{-\infty}^{\infty} f_\Gamma(D_\Gamma + |s-x|) f_L(x)\,dx .

    Lemma 15's argument gives :math:`S(s) \ge f_\Gamma(|s| + D_\Gamma)/4` when
    :math:`\alpha \le 1` and :math:`|s| \ge \lambda\ln(2)/2`.

:func:`variance_from_cf`
    :math:`\operatorname{Var} Z = -\varphi''(0)` for the Arete characteristic
    function

    .. math::

        \varphi(u) = \frac{(1 + \theta^2 u^2)^{-\alpha}}{1 + \lambda^2 u^2},

    by numerical differentiation: an independent check of Lemma 3's
    :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2`.

Method for the first two
------------------------
Both integrals split, after :math:`y = |t - x|` (or :math:`z = D_\Gamma + |s - x|`)
and by the sign of the Laplace exponent, into pieces of

.. math::

    I_c(a, b) = \int_a^b y^{\alpha-1} e^{-c y}\,dy, \qquad
    c = \tfrac1\theta + \tfrac1\lambda \ \text{ or } \ c = \tfrac1\theta - \tfrac1\lambda ,

evaluated in closed form: for :math:`c > 0`,
:math:`I_c(a,b) = c^{-\alpha}\,(\Gamma(\alpha, ca) - \Gamma(\alpha, cb))` (or the
lower incomplete gamma functions :math:`\gamma(\alpha,\cdot)` when :math:`ca < \alpha`);
for :math:`c < 0` the positive series
:math:`\int_0^b y^{\alpha-1}e^{|c|y}dy = \tfrac{b^\alpha}{\alpha}\,{}_1F_1(\alpha;\alpha+1;|c|b)`
and differences of it; for :math:`c = 0`,
:math:`a^\alpha\operatorname{expm1}(\alpha\ln(b/a))/\alpha`.  No quadrature is
involved, so :math:`\alpha` may be as small as :math:`10^{-7}`, where
:math:`y^{\alpha-1}` is nearly :math:`1/y`.  Cancellation in a difference is
measured and paid for with extra working digits, and every result is computed
twice (at two working precisions) and returned only if both agree to the
requested digits; otherwise :class:`~arete_proofs.PrecisionError` is raised.

>>> from mpmath import mp
>>> from arete_proofs import gamma, laplace
>>> # Claim 1, eq. (6): the near part is at most f_L(|t| - D_u) c_Du for |t| >= D_u
>>> t, Du, a, th, lam = 3, 1, "0.1", 1, "0.2"
>>> c_Du = 2 * gamma.cdf(Du, a, th, digits=30)
>>> near_mass(t, Du, a, th, lam, digits=30) <= laplace.pdf(t - Du, lam, digits=30) * c_Du
True
"""

from __future__ import annotations

from mpmath import mp

from .._validation import (
    GUARD_DIGITS,
    PrecisionError,
    exponent_digits,
    finite_real,
    parse_precision,
    positive,
    resolve_digits,
)

__all__ = ["near_mass", "shifted_convolution", "variance_from_cf"]

#: Extra working digits of the second validation run (the first runs at the
#: base working precision ``d + GUARD_DIGITS + exponent digits``).
_SECOND_RUN_DIGITS = 15

#: The two runs must agree to ``digits + _AGREE_MARGIN`` digits.
_AGREE_MARGIN = 2

#: Digits added on top of the measured cancellation when a difference is redone.
_CANCEL_PAD = 5

#: Never raise the working precision by more than this many digits to pay for
#: cancellation; beyond it the result is refused (PrecisionError).
_MAX_CANCEL_DIGITS = 2000


# ---------------------------------------------------------------------------
# plumbing
# ---------------------------------------------------------------------------


def _bits_to_digits(bits) -> int:
    return int(bits * 0.30103) + 1


def _difference(compute):
    """``T1 - T2`` from ``compute() -> (T1, T2)`` with no more than guard-digit loss.

    Runs inside the caller's working precision.  The cancellation
    ``log10(max|T_i| / |T1 - T2|)`` is measured; if it exceeds a few digits the
    terms are recomputed with that many extra digits (repeatedly, if the first
    estimate was too optimistic) and the difference rounded back.
    """
    extra = 0
    while True:
        with mp.workdps(mp.dps + extra):
            t1, t2 = compute()
            r = t1 - t2
            big = max(abs(t1), abs(t2))
            if big == 0:
                return mp.zero
            if r != 0:
                loss = _bits_to_digits(mp.mag(big) - mp.mag(r))
                if loss <= 2 + extra:
                    break
                need = loss + _CANCEL_PAD
            else:
                need = 2 * extra + mp.dps + _CANCEL_PAD
        if need > _MAX_CANCEL_DIGITS:
            raise PrecisionError(
                f"cancellation of more than {_MAX_CANCEL_DIGITS} digits in an incomplete-gamma difference"
            )
        extra = max(need, extra + _CANCEL_PAD)
    return +r


def _lower_gamma(alpha, x):
    r""":math:`\gamma(\alpha, x) = \int_0^x u^{\alpha-1}e^{-u}du`, ``x`` finite, >= 0."""
    if x == 0:
        return mp.zero
    return mp.gammainc(alpha, 0, x)


def _upper_gamma(alpha, x):
    r""":math:`\Gamma(\alpha, x) = \int_x^\infty u^{\alpha-1}e^{-u}du`."""
    if mp.isinf(x):
        return mp.zero
    return mp.gammainc(alpha, x)


def _rising_series_primitive(alpha, z, x):
    r""":math:`\int_0^x y^{\alpha-1} e^{z y} dy = \frac{x^\alpha}{\alpha}\,{}_1F_1(\alpha;\alpha+1;zx)` for ``z >= 0``."""
    if x == 0:
        return mp.zero
    return mp.exp(alpha * mp.log(x)) / alpha * mp.hyp1f1(alpha, alpha + 1, z * x)


def _power_exp_integral(alpha, c, a, b):
    r""":math:`I_c(a, b) = \int_a^b y^{\alpha-1} e^{-c y}\,dy` for ``0 <= a < b <= inf``.

    ``b = inf`` requires ``c > 0``.  Evaluated in closed form at the current
    working precision (see the module docstring); differences go through
    :func:`_difference`.
    """
    if not a < b:
        return mp.zero
    if c > 0:
        x1, x2 = c * a, c * b
        scale = mp.exp(-alpha * mp.log(c))
        if x1 == 0:
            if mp.isinf(x2):
                return mp.gamma(alpha) * scale
            return _lower_gamma(alpha, x2) * scale
        if mp.isinf(x2):
            return _upper_gamma(alpha, x1) * scale
        if x1 >= alpha:  # past the bulk: upper functions are the small ones
            return _difference(lambda: (_upper_gamma(alpha, c * a), _upper_gamma(alpha, c * b))) * scale
        return _difference(lambda: (_lower_gamma(alpha, c * b), _lower_gamma(alpha, c * a))) * scale
    if mp.isinf(b):
        raise ValueError("internal: I_c(a, inf) diverges for c <= 0")
    if c == 0:
        if a == 0:
            return mp.exp(alpha * mp.log(b)) / alpha
        return mp.exp(alpha * mp.log(a)) * mp.expm1(alpha * mp.log(b / a)) / alpha
    z = -c
    if a == 0:
        return _rising_series_primitive(alpha, z, b)
    return _difference(lambda: (_rising_series_primitive(alpha, z, b), _rising_series_primitive(alpha, z, a)))


def _log_norm(alpha, theta, lam):
    r""":math:`\ln\bigl(1/(2\lambda\,\Gamma(\alpha)\,\theta^\alpha)\bigr)`."""
    return -mp.log(2 * lam) - mp.loggamma(alpha) - alpha * mp.log(theta)


def _two_runs(compute, d, wd, what):
    """``compute()`` at ``wd`` and ``wd + _SECOND_RUN_DIGITS`` digits; the second
    result rounded to ``d + GUARD_DIGITS`` if both agree to ``d + _AGREE_MARGIN``
    digits, else :class:`PrecisionError`."""
    vals = []
    for extra in (0, _SECOND_RUN_DIGITS):
        with mp.workdps(wd + extra):
            vals.append(compute())
    with mp.workdps(wd + _SECOND_RUN_DIGITS):
        v1, v2 = vals
        if not (mp.isfinite(v1) and mp.isfinite(v2)) or v2 <= 0:
            raise PrecisionError(f"{what}: runs returned {v1} and {v2}")
        if abs(v1 - v2) > abs(v2) * mp.mpf(10) ** (-(d + _AGREE_MARGIN)):
            with mp.workdps(d + 5):
                raise PrecisionError(
                    f"{what}: the two validation runs disagree beyond {d} digits: "
                    f"{mp.nstr(v1, d + 5)} vs {mp.nstr(v2, d + 5)}"
                )
    with mp.workdps(d + GUARD_DIGITS):
        return +vals[1]


def _parse_common(alpha, theta, lam):
    return positive(alpha, "alpha"), positive(theta, "theta"), positive(lam, "lam")


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------


def near_mass(t, D_u, alpha, theta, lam, *, digits=None):
    r"""Near part of the numerator in the proof of Lemma 16 (Claim 1, eq. (6)).

    .. math::

        N(t) = \int_{t-D_u}^{t+D_u} f_\Gamma(|t-x|)\, f_L(x)\,dx
             = \int_0^{D_u} f_\Gamma(y)\,[f_L(t-y) + f_L(t+y)]\,dy .

    With :math:`\tau = |t|`, :math:`m = \min(\tau, D_u)`,
    :math:`c_\pm = 1/\theta \pm 1/\lambda` and :math:`I_c` as in the module
    docstring,

    .. math::

        2\lambda\Gamma(\alpha)\theta^\alpha N(t)
          = e^{-\tau/\lambda} I_{c_-}(0, m)
          + e^{\tau/\lambda} I_{c_+}(\tau, D_u)\,[\tau < D_u]
          + e^{-\tau/\lambda} I_{c_+}(0, D_u) .

    :math:`N` is even in ``t``.  Any ``alpha > 0`` (also ``alpha > 1``) is
    accepted.

    >>> from mpmath import mp
    >>> from arete_proofs import gamma, laplace
    >>> # eq. (6): N(t) <= f_L(|t| - D_u) c_Du with c_Du = 2 P(X <= D_u), here alpha = 1e-7;
    >>> # likewise N(t) >= f_L(|t| + D_u) c_Du (f_L is smallest at the far end)
    >>> t, Du, a, th, lam = -5, 2, "1e-7", 1, "0.5"
    >>> c_Du = 2 * gamma.cdf(Du, a, th, digits=30)
    >>> n = near_mass(t, Du, a, th, lam, digits=30)
    >>> laplace.pdf(abs(t) + Du, lam, digits=30) * c_Du <= n <= laplace.pdf(abs(t) - Du, lam, digits=30) * c_Du
    True
    >>> # as D_u -> infinity N(t) integrates f_Gamma(|t - x|) against f_L; for alpha = 1
    >>> # that is the Laplace-Laplace convolution (th e^{-|t|/th} - lam e^{-|t|/lam})/(th^2 - lam^2)
    >>> with mp.workdps(30):
    ...     ref = (3 * mp.exp(-mp.mpf(2) / 3) - mp.exp(-2)) / 8
    >>> mp.almosteq(near_mass(2, 10**4, 1, 3, 1, digits=30), ref, 1e-28)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        t = finite_real(t, "t")
        D = positive(D_u, "D_u")
        alpha, theta, lam = _parse_common(alpha, theta, lam)
        tau = abs(t)
        extra = exponent_digits(
            tau / lam, D / lam, tau / theta, D / theta, alpha * mp.log(theta), mp.loggamma(alpha),
            alpha * mp.log(D), mp.log(lam),
        )

    def compute():
        cp = 1 / theta + 1 / lam
        cm = 1 / theta - 1 / lam
        m = min(tau, D)
        total = mp.exp(-tau / lam) * _power_exp_integral(alpha, cp, mp.zero, D)
        if m > 0:
            total += mp.exp(-tau / lam) * _power_exp_integral(alpha, cm, mp.zero, m)
        if tau < D:
            total += mp.exp(tau / lam) * _power_exp_integral(alpha, cp, tau, D)
        return total * mp.exp(_log_norm(alpha, theta, lam))

    return _two_runs(compute, d, d + GUARD_DIGITS + extra, "near_mass")


def shifted_convolution(s, D_Gamma, alpha, theta, lam, *, digits=None):
    r"""Denominator of Claim 1 / the integral of Lemma 15's proof.

    .. math::

        S(s) = \int_{-\infty}^{\infty} f_\Gamma(D_\Gamma + |s-x|)\, f_L(x)\,dx
             = \int_0^\infty f_\Gamma(D_\Gamma + y)\,[f_L(s-y) + f_L(s+y)]\,dy .

    With :math:`\sigma = |s|`, :math:`D = D_\Gamma`, :math:`c_\pm = 1/\theta \pm 1/\lambda`
    and :math:`z = D + y`,

    .. math::

        2\lambda\Gamma(\alpha)\theta^\alpha S(s)
          = e^{-(\sigma + D)/\lambda} I_{c_-}(D, D + \sigma)
          + e^{(\sigma + D)/\lambda} c_+^{-\alpha}\,\Gamma(\alpha, c_+(D + \sigma))
          + e^{-(\sigma - D)/\lambda} c_+^{-\alpha}\,\Gamma(\alpha, c_+ D) .

    ``D_Gamma > 0`` keeps the kernel bounded.  :math:`S` is even in ``s``.

    >>> from mpmath import mp
    >>> from arete_proofs import gamma
    >>> # Lemma 15: S(s) >= f_Gamma(|s| + D_Gamma) / 4 (alpha <= 1, |s| >= lam ln(2)/2)
    >>> s, DG, a, th, lam = 2, "0.5", "0.3", 1, "0.1"
    >>> shifted_convolution(s, DG, a, th, lam, digits=30) >= gamma.pdf(s + 0.5, a, th, digits=30) / 4
    True
    >>> # alpha = 1 (Laplace-Laplace convolution):
    >>> # S(s) = e^{-D/th} (th e^{-|s|/th} - lam e^{-|s|/lam}) / (th^2 - lam^2)
    >>> with mp.workdps(30):
    ...     ref = mp.exp(-mp.mpf(1) / 2) * (2 * mp.exp(-mp.mpf(3) / 2) - mp.exp(-3)) / 3
    >>> mp.almosteq(shifted_convolution(-3, 1, 1, 2, 1, digits=30), ref, 1e-28)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        s = finite_real(s, "s")
        D = positive(D_Gamma, "D_Gamma")
        alpha, theta, lam = _parse_common(alpha, theta, lam)
        sigma = abs(s)
        extra = exponent_digits(
            (sigma + D) / lam, (sigma + D) / theta, alpha * mp.log(theta), mp.loggamma(alpha),
            alpha * mp.log(sigma + D), alpha * mp.log(D), mp.log(lam),
        )

    def compute():
        cp = 1 / theta + 1 / lam
        cm = 1 / theta - 1 / lam
        total = mp.exp(-(sigma - D) / lam) * _power_exp_integral(alpha, cp, D, mp.inf)
        total += mp.exp((sigma + D) / lam) * _power_exp_integral(alpha, cp, D + sigma, mp.inf)
        if sigma > 0:
            total += mp.exp(-(sigma + D) / lam) * _power_exp_integral(alpha, cm, D, D + sigma)
        return total * mp.exp(_log_norm(alpha, theta, lam))

    return _two_runs(compute, d, d + GUARD_DIGITS + extra, "shifted_convolution")


def variance_from_cf(alpha, theta, lam, *, digits=None):
    r""":math:`\operatorname{Var} Z = -\varphi''(0)` from the Arete characteristic function.

    .. math::

        \varphi(u) = \frac{(1 + \theta^2 u^2)^{-\alpha}}{1 + \lambda^2 u^2}
        \quad\text{(Definition 9: } X_1 - X_2 + Y\text{)}.

    The second derivative is taken numerically (:func:`mpmath.diff`, central
    differences at raised precision) of :math:`\psi(v) = \varphi(v/S)`,
    :math:`S = \max(\theta, \lambda)`, so the step is on the scale of the
    function; :math:`\operatorname{Var} Z = -S^2\psi''(0)`.  The closed form of
    Lemma 3 is *not* used.  Since :math:`\psi(0) = 1`, a small
    :math:`|\psi''(0)|` costs :math:`\log_{10}(1/|\psi''(0)|)` digits; they are
    measured on a first pass and added.

    >>> from mpmath import mp
    >>> # Lemma 3: Var Z = 2 alpha theta^2 + 2 lam^2
    >>> with mp.workdps(30):
    ...     ref = 2 * mp.mpf("0.1") * 3**2 + 2 * mp.mpf("0.5")**2
    >>> mp.almosteq(variance_from_cf("0.1", 3, "0.5", digits=30), ref, 1e-29)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        alpha, theta, lam = _parse_common(alpha, theta, lam)
        S = max(theta, lam)
        a2 = (theta / S) ** 2
        b2 = (lam / S) ** 2
        extra = exponent_digits(alpha)

    def psi(v):
        v2 = v * v
        return mp.exp(-alpha * mp.log1p(a2 * v2)) / (1 + b2 * v2)

    def second_derivative():
        return mp.diff(psi, 0, 2)

    wd = d + GUARD_DIGITS + extra
    with mp.workdps(wd):
        first = second_derivative()
        if not first < 0:
            raise PrecisionError(f"variance_from_cf: psi''(0) = {first} is not negative")
        loss = max(0, _bits_to_digits(-mp.mag(first)))

    def compute():
        return -second_derivative() * S**2

    return _two_runs(compute, d, wd + loss, "variance_from_cf")
