r"""The Arete distribution (paper, Definitions 1 and 9; Lemma 2).

:math:`Z = X_1 - X_2 + Y` with :math:`X_1, X_2 \sim \Gamma(\alpha,\theta)` and
:math:`Y \sim \mathrm{Laplace}(\lambda)` independent; its density is the convolution

.. math::

    f_A(t) = \int_{-\infty}^{\infty} f_{\Gamma-\Gamma}(t-x)\, f_L(x)\, dx .

Every function takes the point(s) first, then ``alpha, theta, lam`` and a
keyword ``digits`` (significant decimal digits; default ``mpmath.mp.dps``).
``t`` may be a single number or a sequence; a sequence shares all work that
does not depend on ``t`` and returns a list.  Parameters may be given as
decimal strings, which are parsed exactly at the working precision.

**The digits contract.** The returned ``mpf`` agrees with the true value to a
relative error below ``10**-digits`` (it carries guard digits beyond that), or
:class:`arete_proofs.PrecisionError` is raised.  This is enforced by error
estimates of the quadrature (three orders of magnitude of margin) and by
measuring cancellation, and tested against independent formulas in
``tests/test_arete_accuracy.py``.

**Methods.** For :math:`0 < \alpha < 1` the density and survival function come
from the branch-cut integral of :mod:`arete_proofs.distributions._cut` (elementary integrand;
the hard :math:`|x|^{2\alpha-1}` singularity of :math:`f_{\Gamma-\Gamma}` never
appears).  For :math:`\alpha \ge 1` (where the cut integral diverges) a
partial-fraction split of the characteristic function reduces :math:`f_A` to
Gamma-Gamma densities of shape :math:`\beta + k` (Bessel-K closed form) and one
Arete density of shape :math:`\beta = \alpha - \lfloor\alpha\rfloor < 1`
(see ``_partial_fraction_values``).  For :math:`\lambda = \theta`
exactly, :math:`\mathrm{Laplace}(\theta) = \Gamma{-}\Gamma(1,\theta)` so
:math:`Z \sim \Gamma{-}\Gamma(\alpha+1,\theta)`. For extreme parameters (for example
the paper's at :math:`\varepsilon = 10^6`, :math:`\alpha = \lambda = e^{-250000}`) the
Laplace, Gamma-Gamma, pole or far-tail limit of :mod:`arete_proofs.distributions._limits`
is used at every point where its proved error bound is below :math:`10^{-(d+3)}`; the
quadrature refuses (``PrecisionError``) when :math:`\theta/\lambda` is too extreme for it or
the time budget :data:`arete_proofs._validation.TIME_BUDGET` runs out.  :func:`pdf_at_zero` and
:func:`mean_abs` are closed forms.

>>> from mpmath import mp
>>> a, th, lam = mp.exp(-5), "0.2", mp.exp(-5)      # the paper's eps = 20, Delta = 1
>>> f = pdf([0, "0.5"], a, th, lam, digits=20)
>>> mp.almosteq(f[0], pdf_at_zero(a, th, lam, digits=20), 1e-19)   # two formulas agree
True
>>> f[0] > f[1] > 0                                   # Lemma 2: decreasing on t > 0
True
>>> mp.almosteq(cdf("-0.5", a, th, lam) + cdf("0.5", a, th, lam), 1)   # symmetric
True
"""

from __future__ import annotations

from collections.abc import Iterable

from mpmath import mp

from . import _limits, gamma_gamma
from ._cut import cut_values
from .._validation import (
    GUARD_DIGITS,
    PrecisionError,
    check_deadline,
    deadline,
    exponent_digits,
    parse_precision,
    positive,
    real,
    resolve_digits,
)

__all__ = ["pdf", "logpdf", "cdf", "sf", "pdf_at_zero", "mean_abs", "var"]


def _is_sequence(t):
    if isinstance(t, (str, bytes)):
        return False
    if hasattr(t, "ndim"):
        return t.ndim > 0
    return isinstance(t, Iterable)


def _params(alpha, theta, lam, d):
    with mp.workdps(parse_precision(d)):
        return positive(alpha, "alpha"), positive(theta, "theta"), positive(lam, "lam")


def _points(t, d):
    with mp.workdps(parse_precision(d)):
        if _is_sequence(t):
            return [real(x, "t") for x in t], True
        return [real(t, "t")], False


def _partial_fraction_values(ts, alpha, theta, lam, kind, d):
    r"""alpha >= 1: reduce to Arete(beta) and Gamma-Gamma(beta + k), beta = alpha - floor(alpha).

    With :math:`x = 1 + \theta^2u^2`, :math:`m = \lfloor\alpha\rfloor`,
    :math:`c = \rho^2 - 1` the characteristic function splits by partial fractions:

    .. math::

        \frac{x^{-\alpha}}{1+\lambda^2u^2} = \rho^2\sum_{k=1}^{m}(-1)^{m-k}c^{-(m-k+1)}x^{-(\beta+k)}
          + (-1)^m c^{-m}\,\frac{x^{-\beta}}{1+\lambda^2u^2},

    so :math:`f_A` is a combination of :math:`m` Gamma-Gamma densities (Bessel
    K closed form) and one Arete density with shape :math:`\beta < 1` (the
    branch-cut route; for :math:`\beta = 0` the Laplace density).  The terms
    alternate in sign when :math:`\rho > 1`; their cancellation is measured
    and the terms recomputed with that many more digits.
    """
    from . import laplace

    m = int(mp.floor(alpha))
    with mp.workdps(parse_precision(d)):
        beta = alpha - m
        shapes = [beta + k for k in range(1, m + 1)]  # exact, not at the caller's precision

    def coefficients(wd):
        # at the precision of the terms: the cancellation multiplies their rounding errors too
        # (fixed at d + 40 digits, alpha = 1000, theta = 1, lam = 2 gave f_A(0.5) = 1e43)
        with mp.workdps(wd):
            rho = theta / lam
            c = rho * rho - 1
            cs = [rho * rho * (-1) ** (m - k) * c ** (-(m - k + 1)) for k in range(1, m + 1)]
            return cs + [(-1) ** m * c ** (-m)]
    gg = gamma_gamma._pdf_d if kind == "pdf" else gamma_gamma._sf_d

    stop = deadline()

    def term(t, shape, dd):
        check_deadline(stop, f"the partial-fraction terms (floor(alpha) = {m}) at {dd} digits")
        return gg(t, shape, theta, dd)

    def terms(dd):
        rows = [[term(t, shape, dd) for t in ts] for shape in shapes]
        if beta == 0:
            lf = laplace._pdf_d if kind == "pdf" else laplace._sf_d
            rows.append([lf(t, lam, dd) for t in ts])
        else:
            rows.append(_positive_part(ts, beta, theta, lam, kind, dd))
        return rows

    extra = 3
    for _attempt in range(3):
        rows = terms(d + extra)
        cs = coefficients(d + extra + GUARD_DIGITS + 10)
        with mp.workdps(d + extra + GUARD_DIGITS):
            out, worst = [], 0
            for j in range(len(ts)):
                parts = [cf * row[j] for cf, row in zip(cs, rows)]
                v = mp.fsum(parts)
                bound = 1 / (2 * lam) if kind == "pdf" else mp.one  # f_A <= 1/(2 lam), sf <= 1
                if not 0 < v <= bound:
                    # sign or size not resolved: the cancellation is at least sum|parts|/bound
                    worst = max(worst, d + extra + 5,
                                d + int(mp.ceil(mp.log10(mp.fsum(abs(q) for q in parts) / bound))))
                else:
                    worst = max(worst, int(mp.ceil(mp.log10(mp.fsum(abs(q) for q in parts) / v))))
                out.append(v)
        if worst + 2 <= extra:
            return out
        extra = worst + 3
    raise PrecisionError("partial-fraction terms cancel beyond the reachable precision (rho too close to 1?)")


def _positive_part(ts, alpha, theta, lam, kind, d):
    """pdf or sf at finite t >= 0 (sf at t > 0), dispatching on the method."""
    if not ts:
        return []
    # extreme parameters: a limit with a proved error bound (arete_proofs.distributions._limits)
    lim = _limits.Limits(alpha, theta, lam, kind, d)
    out = [lim.value(t) for t in ts]
    rest = [t for t, v in zip(ts, out) if v is None]
    if rest:
        if alpha > _limits.MAX_ENGINE_ALPHA:
            raise ValueError(
                f"alpha must be at most {_limits.MAX_ENGINE_ALPHA} for the arbitrary-precision engine "
                f"(its partial-fraction method needs floor(alpha) Gamma-Gamma terms), got {mp.nstr(alpha, 8)}")
        if theta == lam:
            # Laplace(theta) is Gamma-Gamma(1, theta): Z ~ Gamma-Gamma(alpha + 1, theta)
            fn = gamma_gamma._pdf_d if kind == "pdf" else gamma_gamma._sf_d
            with mp.workdps(parse_precision(d)):
                shape = alpha + 1  # not at the caller's precision
            vals = [fn(t, shape, theta, d) for t in rest]
        elif alpha < 1:
            vals = cut_values(rest, alpha, theta, lam, kind, d)
        else:
            vals = _partial_fraction_values(rest, alpha, theta, lam, kind, d)
        it = iter(vals)
        out = [v if v is not None else next(it) for v in out]
    return out


def _evaluate(kind, t, alpha, theta, lam, digits):
    return _evaluate_d(kind, t, alpha, theta, lam, resolve_digits(digits))


def _evaluate_d(kind, t, alpha, theta, lam, d):
    """As the public functions, with ``d`` already resolved (internal callers may exceed MAX_DIGITS)."""
    alpha, theta, lam = _params(alpha, theta, lam, d)
    ts, seq = _points(t, d)
    out = [None] * len(ts)
    need = {}  # |t| -> indices (pdf) ; for sf/cdf: t>0 -> indices
    with mp.workdps(parse_precision(d)):  # abs() rounds to the context precision
        abs_ts = [abs(x) for x in ts]
    for i, x in enumerate(ts):
        if mp.isinf(x):
            if kind == "pdf":
                out[i] = mp.zero
            elif kind == "sf":
                out[i] = mp.zero if x > 0 else mp.one
            else:
                out[i] = mp.one if x > 0 else mp.zero
        elif kind != "pdf" and x == 0:
            out[i] = mp.mpf(1) / 2
        else:
            need.setdefault(abs_ts[i], []).append(i)
    keys = sorted(need)
    vals = _positive_part(keys, alpha, theta, lam, "pdf" if kind == "pdf" else "sf", d)
    with mp.workdps(d + GUARD_DIGITS):
        for k, v in zip(keys, vals):
            for i in need[k]:
                if kind == "pdf":
                    out[i] = v
                else:
                    upper = ts[i] > 0  # v = P(Z > |t|)
                    if kind == "sf":
                        out[i] = v if upper else 1 - v
                    else:
                        out[i] = 1 - v if upper else v
    return out if seq else out[0]


def pdf(t, alpha, theta, lam, *, digits=None):
    r"""Density :math:`f_A(t)` (Definition 9) to ``digits`` significant digits.

    A ball that provably contains :math:`f_A(t)` is
    ``arete_proofs.certified.pdf`` (the certified layer; extra ``certified``).

    >>> from mpmath import mp
    >>> # alpha -> 0 gives Laplace(lam) (Section 1): f_A(0) -> 1/(2 lam)
    >>> mp.almosteq(pdf(0, "1e-12", 1, "0.5"), 1, 1e-10)
    True
    """
    return _evaluate("pdf", t, alpha, theta, lam, digits)


def logpdf(t, alpha, theta, lam, *, digits=None):
    r""":math:`\ln f_A(t)`, with its own ``digits`` significant digits.

    When :math:`|\ln f_A| < 1` the density is computed with
    :math:`\lceil -\log_{10}|\ln f_A| \rceil` extra digits so the logarithm, not
    only the density, has the requested relative accuracy.

    >>> from mpmath import mp
    >>> a, th, lam = "0.05", 1, "0.1"
    >>> # tail slope: ln f_A(t) - ln f_A(t + 1) -> 1/max(theta, lam) slowly from above
    >>> 1 < logpdf(40, a, th, lam) - logpdf(41, a, th, lam) < 1.03
    True
    """
    d = resolve_digits(digits)
    vals = _evaluate("pdf", t, alpha, theta, lam, d)
    seq = isinstance(vals, list)
    vals = vals if seq else [vals]
    out = []
    for i, v in enumerate(vals):
        with mp.workdps(d + GUARD_DIGITS):
            lv = mp.log(v) if v > 0 else mp.ninf
        if not mp.isinf(lv) and 0 < abs(lv) < 1:
            more = int(mp.ceil(-mp.log10(abs(lv)))) + 1
            if d + more > 2 * d + 40:
                raise PrecisionError("ln f_A(t) is too close to 0 to deliver the requested digits")
            tt = t[i] if seq else t
            v2 = _evaluate_d("pdf", tt, alpha, theta, lam, d + more)
            with mp.workdps(d + more + GUARD_DIGITS):
                lv = mp.log(v2)
        out.append(lv)
    return out if seq else out[0]


def sf(t, alpha, theta, lam, *, digits=None):
    r"""Survival function :math:`P(Z > t)`; accurate in the far tail (not ``1 - cdf``).

    >>> from mpmath import mp
    >>> # the tail of Z is dominated by the heavier of the two exponential rates
    >>> s1, s2 = sf([30, 31], "0.3", 1, "0.5")
    >>> 0.3 < s2 / s1 < mp.exp(-1) * 1.02
    True
    """
    return _evaluate("sf", t, alpha, theta, lam, digits)


def cdf(t, alpha, theta, lam, *, digits=None):
    r"""CDF :math:`P(Z \le t)`; for ``t < 0`` it is ``sf(-t)`` (no cancellation).

    >>> from mpmath import mp
    >>> mp.almosteq(cdf(0, "0.3", 1, 2), mp.mpf(1) / 2)
    True
    """
    return _evaluate("cdf", t, alpha, theta, lam, digits)


def pdf_at_zero(alpha, theta, lam, *, digits=None):
    r"""Closed form of :math:`f_A(0)`, accurate at every ratio :math:`\theta/\lambda`.

    The Fourier inversion integral at :math:`t = 0` is Euler's integral of :math:`{}_2F_1`
    (DLMF 15.6.1 with :math:`t = s/(1+s)`, :math:`s = u^2`):

    .. math::

        f_A(0) = \frac1\pi\int_0^\infty\frac{du}{(1+\theta^2u^2)^{\alpha}(1+\lambda^2u^2)}
        = \frac{\Gamma(\alpha+\frac12)}{2\sqrt\pi\,\Gamma(\alpha+1)\,\lambda}\;
          {}_2F_1\!\left(\alpha, \tfrac12; \alpha+1; 1-r^2\right),
        \qquad r = \theta/\lambda ,

    and for :math:`r < 1` its Pfaff transform
    :math:`{}_2F_1(\alpha,\frac12;\alpha+1;1-r^2) = r^{-2\alpha}\,{}_2F_1(\alpha,\alpha+\frac12;\alpha+1;1-r^{-2})`.

    **Numerical note.** The argument is never positive, and is formed as
    :math:`(\lambda-\theta)(\lambda+\theta)/\lambda^2` (or with :math:`\theta^2` below), so it
    carries the working precision's relative error for every ratio :math:`r`.  The older form
    :math:`(1+r)^{-2\alpha}\Gamma(2\alpha)/(\Gamma(\alpha)\Gamma(\alpha+1)\lambda)\;
    {}_2F_1(2\alpha,\alpha;\alpha+1;(r-1)/(r+1))` needs :math:`1 - z = 2/(r+1)` to
    ``digits`` digits: it was right to 3 digits at :math:`r = 10^{30}` and returned ``+inf``
    at :math:`r = 10^{40}` (``tests/test_extreme_parameters.py`` checks both forms agree where
    the old one is well conditioned, and the new one against quadrature at
    :math:`r = 10^{-40}\ldots10^{40}`).

    >>> from mpmath import mp
    >>> # alpha = 1: f_A(0) = 1/(2 (theta + lam)) (two Laplace densities)
    >>> mp.almosteq(pdf_at_zero(1, 2, 3), mp.mpf(1) / 10)
    True
    >>> # alpha = 1/2: arccosh(theta/lam)/(pi sqrt(theta^2 - lam^2)), even at theta/lam = 1e40
    >>> th = mp.mpf(10) ** 40
    >>> mp.almosteq(pdf_at_zero("0.5", th, 1, digits=20), mp.acosh(th) / (mp.pi * th), 1e-19)
    True
    """
    d = resolve_digits(digits)
    alpha, theta, lam = _params(alpha, theta, lam, d)
    return _pdf_at_zero_d(alpha, theta, lam, d)


#: :math:`\frac2\pi\int_0^\infty \ln^2(1+v^2)\,dv/(1+v^2) = 4\ln^2 2 + \pi^2/3` (rounded up).
_LOG2_MOMENT = 5.2117


def _pdf_at_zero_d(alpha, theta, lam, d):
    r""":func:`pdf_at_zero` at parsed parameters (any ratio :math:`\theta/\lambda`).

    For tiny :math:`\alpha` (where mpmath's ``hyp2f1`` may not terminate: at
    :math:`\alpha = e^{-250000}`, :math:`r = 10^{40}` it ran for minutes) the Fourier integral
    is expanded instead: with :math:`L = \ln(1+r^2v^2)`, :math:`1-\alpha L \le e^{-\alpha L}
    \le 1 - \alpha L + \alpha^2L^2/2`, :math:`\frac2\pi\int_0^\infty L\,dv/(1+v^2) = 2\ln(1+r)`
    and :math:`L \le \ln(1+r^2) + \ln(1+v^2)` give

    .. math::

        2\lambda f_A(0) = 1 - 2\alpha\ln(1+r) + E,\qquad
        0 \le E \le \alpha^2\big(\ln^2(1+r^2) + 4\ln^2 2 + \pi^2/3\big),

    used when that bound is below :math:`10^{-(d + 15)}`.
    """
    wd = d + GUARD_DIGITS + 5
    with mp.workdps(wd):
        r = theta / lam
        l1r2 = mp.log1p(r * r) if r < 1 else 2 * mp.log(r) + mp.log1p(1 / (r * r))
        if alpha < 1 and alpha * alpha * (l1r2 * l1r2 + _LOG2_MOMENT) < mp.mpf(10) ** -(d + 15):
            return (1 - 2 * alpha * mp.log1p(r)) / (2 * lam)
        # the power r^(-2 alpha) (and hyp2f1's own powers of 1 - r^2) amplify rounding by |2 alpha ln r|
        wd += exponent_digits(2 * alpha * l1r2)
    try:
        with mp.workdps(wd):
            half = mp.mpf(1) / 2
            pre = mp.exp(mp.loggamma(alpha + half) - mp.loggamma(alpha + 1)) / (2 * mp.sqrt(mp.pi) * lam)
            if theta >= lam:
                x = (lam - theta) * (lam + theta) / (lam * lam)  # 1 - r^2 <= 0
                f = mp.hyp2f1(alpha, half, alpha + 1, x)
            else:
                x = (theta - lam) * (theta + lam) / (theta * theta)  # 1 - 1/r^2 < 0
                f = mp.exp(2 * alpha * mp.log(lam / theta)) * mp.hyp2f1(alpha, alpha + half, alpha + 1, x)
            v = pre * f
    except (mp.NoConvergence, ZeroDivisionError, OverflowError) as exc:
        raise PrecisionError(f"f_A(0) at alpha = {mp.nstr(alpha, 8)}, theta/lam = {mp.nstr(theta / lam, 8)}: "
                             f"the hypergeometric series did not converge ({type(exc).__name__})") from None
    if not (mp.isfinite(v) and v > 0):
        raise PrecisionError(f"f_A(0) at alpha = {mp.nstr(alpha, 8)}, theta/lam = {mp.nstr(theta / lam, 8)}: "
                             f"got {v} (not a positive finite number)")
    return v


def mean_abs(alpha, theta, lam, *, digits=None):
    r"""Exact :math:`E|Z|` (the paper only bounds it by :math:`2\alpha\theta + \lambda`, Lemma 3).

    .. math::

        E|Z| = E|X_1 - X_2| + \lambda\, E e^{-|X_1 - X_2|/\lambda}
             = \frac{4\theta\,\Gamma(2\alpha)}{4^\alpha\Gamma(\alpha)^2} + 2\lambda^2 f_A(0),

    using :math:`E|x + Y| = |x| + \lambda e^{-|x|/\lambda}` for
    :math:`Y \sim \mathrm{Laplace}(\lambda)` and
    :math:`E e^{-|X|/\lambda} = 2\lambda f_A(0)`.

    >>> from mpmath import mp
    >>> a, th, lam = "0.05", "0.5", "0.05"
    >>> mean_abs(a, th, lam) <= 2 * mp.mpf(a) * mp.mpf(th) + mp.mpf(lam)   # Lemma 3's bound
    True
    """
    d = resolve_digits(digits)
    alpha, theta, lam = _params(alpha, theta, lam, d)
    with mp.workdps(d + GUARD_DIGITS):
        f0 = _pdf_at_zero_d(alpha, theta, lam, d + 5)
        return gamma_gamma.mean_abs(alpha, theta, digits=d + 5) + 2 * lam**2 * f0


def var(alpha, theta, lam, *, digits=None):
    r""":math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2` (Lemma 3).

    >>> from mpmath import mp
    >>> mp.almosteq(var("0.5", 2, 1), 6)
    True
    """
    d = resolve_digits(digits)
    alpha, theta, lam = _params(alpha, theta, lam, d)
    with mp.workdps(d + GUARD_DIGITS):
        return 2 * alpha * theta**2 + 2 * lam**2
