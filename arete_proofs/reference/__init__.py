r"""Slow, independent reference methods for the Gamma-Gamma and Arete densities.

This module is the *oracle* the test suite and the benchmark compare the fast
engine (:mod:`arete_proofs.distributions.arete`, :mod:`arete_proofs.distributions.gamma_gamma`, which use a
branch-cut Laplace-transform representation) against.  It deliberately shares
no code path with the engine: it imports neither module (a test checks this),
and every method below rests on a different formula.  The point is that
*different formulas agree*.

Notation (paper, Definitions 7, 9, 22, 23): ``X1, X2 ~ Gamma(alpha, theta)``
(shape ``alpha``, scale ``theta``), ``Y ~ Laplace(lam)``,
``Z = X1 - X2 + Y ~ Arete(alpha, theta, lam)`` with density ``f_A``;
``f_GG`` is the density of ``X1 - X2``.  Throughout ``s = min(theta, lam)``
and ``m = max(theta, lam)``.

The digits contract
-------------------
Every function takes ``digits`` (significant decimal digits wanted; ``None``
means ``mpmath.mp.dps``), parses its parameters at
``arete_proofs._validation.parse_precision`` (decimal strings are exact to
that precision; no arithmetic on them happens at the caller's global
precision) and returns an ``mpf`` rounded to ``digits + GUARD_DIGITS``.
Apart from :func:`naive_pdf` (the known-bad baseline) and the exact
:func:`var_closed_form`, every function is a *self-validating oracle*: it
computes its result twice, at ``digits + 10`` and at ``digits + 25`` working
digits (plus the digits lost to large exponents such as ``e^{-t/m}``), the
quadratures also on two different grids, and raises
:class:`~arete_proofs._validation.PrecisionError` unless the two agree to
``digits + 2`` digits.  The quadratures also raise ``PrecisionError`` when
mpmath's own error estimate exceeds ``10**-(digits + 3)`` of the result.
Bad input raises ``ValueError``.

Quadrature and absolute errors
------------------------------
``mp.quad`` stops on an *absolute* error estimate (about ``10**-dps``).  All
quadratures here therefore go through one helper (``_integrate``) that
first estimates the size of the answer (the largest ``integrand(midpoint) *
width`` over the sub-intervals), divides the integrand by it, integrates, and
repeats once with the first result as the scale if the estimate was more than
a factor 1e6 too large.  The stopping rule thereby becomes relative, also for
results like ``1e-300`` or ``1e-100000`` (mpmath numbers have unbounded
exponents).  Sub-intervals are geometric between the smallest and the largest
length scale of the integrand, followed by ``[hi, inf)`` mapped as
``x = hi + m v`` so that the tail decays on the scale that mp.quad's
``[a, inf]`` transformation assumes (1).

The methods
-----------
:func:`naive_pdf` -- **the plain convolution the project warns about.**
    ``f_A(t) = mp.quad(f_GG(x) f_L(t - x), [-inf, 0, t, inf])`` with ``f_GG``
    from the Bessel-K form, at ``digits + 10`` working digits, no check.
    ``f_GG`` has an integrable singularity ``|x|^(2 alpha - 1)`` at 0;
    tanh-sinh cannot put nodes closer to an endpoint than about
    ``10**-(working digits)`` relative, so for small ``alpha`` the mass
    ``~ (10**-dps)^(2 alpha)`` next to 0 is lost, and mpmath's error estimate
    does not notice.  For ``alpha = lam = e^-5, theta = 0.2`` (the paper's
    ``eps = 20``) the true ``f_A(0)`` is ``70.87489037451369807941...``;
    ``naive_pdf(0, ...)`` returns (mpmath 1.3): ``28.68`` (digits=5), ``39.90``
    (digits=15), ``44.51`` (20), ``46.26`` (22, i.e. 32 working digits: the
    "46.2" of the project notes), ``51.55`` (30), ``60.54`` (50) -- it converges
    only logarithmically in the precision.  At ``t = 0.01`` it returns ``9.80``
    instead of ``16.61``; at ``t >= 0.3`` it happens to be right (the lost mass
    is weighted by ``e^{-t/lam}``).  Cost 1-5 s.  Kept for the benchmark.

:func:`gg_pdf_besselk` -- Gamma-Gamma density in closed form (Note 1; Mathai 1993)
    ``f_GG(t) = |t|^nu K_nu(|t|/theta) / (sqrt(pi) Gamma(alpha) theta^(alpha+1/2) 2^nu)``,
    ``nu = alpha - 1/2``; ``f_GG(0) = +inf`` for ``alpha <= 1/2`` and
    ``Gamma(alpha - 1/2) / (2 sqrt(pi) Gamma(alpha) theta)`` otherwise.
    Accurate everywhere (mpmath's ``besselk``); milliseconds.

:func:`gg_pdf_integral` -- Gamma-Gamma density from its definition (Definition 7)
    ``f_GG(t) = int_0^inf f_Gamma(|t| + x) f_Gamma(x) dx``.  The factor
    ``x^(alpha-1)`` is singular at 0 (for ``alpha < 1``), so on ``[0, x0]`` with
    ``x0 = min(|t|, theta)/2`` the substitution ``x = x0 u^(1/alpha)`` is used:
    ``x^(alpha-1) dx = x0^alpha du / alpha``, which turns the integrand into
    ``f_Gamma(|t| + x) e^{-x/theta} x0^alpha / (Gamma(alpha + 1) theta^alpha)``,
    bounded and smooth on ``u in [0, 1]`` (for tiny ``alpha`` it has a layer of
    width ~``alpha`` next to ``u = 1``, which tanh-sinh resolves because its
    nodes cluster double-exponentially at the endpoints).  ``x0 <= |t|/2``
    keeps the near-singularity of ``(|t| + x)^(alpha-1)`` at ``x = -|t|`` at a
    safe distance.  ``[x0, inf)`` is integrated in ``x`` on a geometric grid
    (ratio 4, or 3).  At ``t = 0`` the integrand is
    ``f_Gamma(x)^2 ~ x^(2 alpha - 2)``: the integral is ``+inf`` for
    ``alpha <= 1/2`` (returned as such), otherwise the substitution uses the
    exponent ``2 alpha - 1``.  The independent check of the Bessel-K form:
    they agree to ``digits + 11`` digits for ``alpha`` from ``1e-7`` to 10,
    ``theta`` from ``1e-3`` to ``1e3`` and ``|t|/theta`` from 0 to 200 at 15,
    30 and 50 digits.  Cost 0.1-1.5 s.

:func:`autocorrelation_pdf` -- **the main oracle ("method (b)")**
    Write ``Y = Y1 - Y2`` with ``Y1, Y2 ~ Exp(lam)``, so ``Z = W1 - W2`` with
    ``W = X + Y1 ~ Gamma(alpha, theta) + Exp(lam)`` i.i.d. and
    ``f_A(t) = int_0^inf g(x) g(x + |t|) dx``.  The density of ``W`` is
    ``g(y) = (e^{-y/lam}/lam) int_0^y f_Gamma(x) e^{x/lam} dx``; with
    ``c = 1/theta - 1/lam`` and
    ``int_0^y x^(alpha-1) e^{-cx} dx = (y^alpha/alpha) 1F1(alpha; alpha+1; -c y)``,

    ``g(y) = y^alpha e^{-y/lam} 1F1(alpha; alpha+1; -c y) / (lam Gamma(alpha+1) theta^alpha)``
    ``     = y^alpha e^{-y/theta} 1F1(1; alpha+1; c y) / (lam Gamma(alpha+1) theta^alpha)``

    (the second line, Kummer's transformation, is the brief's formula; both are
    checked against the integral definition in the tests).  The code evaluates
    the *line whose 1F1 argument is negative*, so that the exponential is
    ``e^{-y/m}`` and the 1F1 factor is algebraic (``~ alpha/(|c| y)`` when
    ``theta > lam``, ``Gamma(alpha+1) (c y)^-alpha`` when ``theta < lam``);
    ``c = 0`` gives ``y^alpha e^{-y/theta}/(lam Gamma(alpha+1) theta^alpha)``.
    The 1F1 is computed as follows (``z = |c| y``):

    * large ``z``: its asymptotic series, which is exact to the working
      precision there and 10-50x cheaper than ``mp.hyp1f1``:
      ``1F1(alpha; alpha+1; -z) = Gamma(alpha+1) z^-alpha (1 - Q(alpha, z))`` with
      ``Q`` summed asymptotically (``z >= prec ln2/2 + 10``), and
      ``1F1(1; alpha+1; -z) = (alpha/z) sum_k (1-alpha)_k z^-k`` when the
      neglected ``Gamma(alpha+1) z^-alpha e^-z`` is below the working precision
      (``z >= prec ln2 + 10`` and a test of that bound); if the series stops
      decreasing first, the next branch is used;
    * otherwise ``mp.hyp1f1(alpha, alpha+1, -z)`` (theta < lam), resp.
      ``e^-z mp.hyp1f1(alpha, alpha+1, z)`` (theta > lam).  **Caution:**
      ``mp.hyp1f1(1, 1+alpha, -z)`` itself loses about ``log10(1/alpha) - 1.5``
      digits for ``z >~ 20`` (5.3 digits at ``alpha = 1e-7``, 2.8 at ``1e-4``,
      1 at ``e^-5``; mpmath 1.3, any precision), whereas the Kummer-transformed
      ``e^-z 1F1(alpha; alpha+1; z)`` is accurate to < 1 ulp.

    The switch points depend on the working precision, so the two validation
    runs partly use different code paths.  Against ``mp.hyp1f1`` at +40 digits
    ``g`` is accurate to ~20 ulps times the condition number ``1 + y/m``.
    ``g`` is bounded (``g(0+) = 0`` with a ``y^alpha`` cusp: ``g(y)/y^alpha`` is
    entire) and decays like ``e^{-y/m}`` times a power, so the integrand
    ``g(x) g(x + |t|)`` is positive (no cancellation), bounded, with branch
    points only at ``x = 0`` and ``x = -|t|``.  The grid starts at
    ``max(min(s, |t|), s 10^-(digits+30))/2`` (0.37 instead of 1/2 in the
    second run) and is geometric with
    ratio 16 (10 in the second run) up to ``hi = m (alpha + 4)``, then
    ``[hi, inf)``.  Accurate for ``alpha in [1e-7, 10]``, ``theta, lam in
    [1e-3, 1e3]`` in either order, ``t`` from 0 to deep tails (``1e-300`` and
    far below), at 15-50 digits and beyond.  Cost (both runs; CPU time on
    this machine) for the paper's ``eps = 20`` set: 0.6-2.2 s at 15 digits,
    1.5-4 s at 30, 2-7 s at 50; ``t << s`` costs more (the grid then also
    resolves the scale ``|t|``).

:func:`autocorrelation_sf` -- ``P(Z > t)`` by the same representation
    ``P(Z > t) = int_0^inf g(x) G(x + t) dx`` for ``t >= 0``, where
    ``G(y) = P(W > y) = Q(alpha, y/theta) + lam g(y)`` (``Q`` the regularized
    upper incomplete gamma function; proof: ``P(W > y) = P(X > y) +
    int_0^y f_Gamma(x) e^{-(y-x)/lam} dx``, and the last integral is
    ``lam g(y)``; also ``G' = -g``).  For ``t < 0``, ``1 - P(Z > |t|)`` (no
    cancellation: ``P(Z > |t|) <= 1/2``).  Same grid and accuracy range; 2-4x
    the cost of the pdf (one ``mp.gammainc`` per node).

:func:`fourier_pdf` -- Fourier inversion along the real axis
    ``f_A(t) = (1/pi) int_0^inf cos(u t) (1 + theta^2 u^2)^-alpha / (1 + lam^2 u^2) du``.
    At ``t = 0`` a plain integral: geometric grid in ``u`` from ``1/(4m)`` to
    ``U = 4/s`` (6/s), then ``u = U/w`` on ``w in (0, 1]``, which turns the
    algebraic tail ``u^(-2-2 alpha)`` into a bounded endpoint branch point.
    For ``t != 0``: Gauss-Legendre over ``[0, z_K]``, ``z_k = (k + 1/2) pi/|t|``
    the zeros of the cosine, ``z_K >= U = 2/m`` (5/m in the second run), with
    breakpoints at every 8th (6th) zero and on a geometric grid; then the
    alternating tail ``sum_j int_{z_{K+j}}^{z_{K+j+1}}`` by the
    Cohen-Rodriguez Villegas-Zagier acceleration with ``n = 1.3 dps + 10``
    terms (error ``~5.8^-n``).  The integrand is ``O(1)`` while the answer is
    ``f_A(t)``, so ``0.4343 |t|/m + log10(1 + |t|/s) + log10(1 + 4m)`` extra
    digits are carried.  **Range** (``ValueError`` outside it): ``alpha in
    [0.01, 5]``, ``theta, lam in [0.01, 100]``, ``t = 0`` or
    ``|t| in [0.01, 100]``, ``|t| <= 30 max(theta, lam)`` (so that
    ``f_A(t)/f_A(0)`` is not tiny), ``digits <= 40``.  Cost 0.1-2 s.

Closed forms (exact tests)
--------------------------
:func:`pdf_at_zero`
    ``f_A(0) = (1/lam) int_0^inf f_GG(x) e^{-x/lam} dx`` (``f_L`` is
    ``e^{-|x|/lam}/(2 lam)`` and ``f_GG`` is symmetric), and Gradshteyn-Ryzhik
    6.621.3,
    ``int_0^inf x^(mu-1) e^{-a x} K_nu(b x) dx = sqrt(pi) (2b)^nu Gamma(mu+nu) Gamma(mu-nu) / ((a+b)^(mu+nu) Gamma(mu+1/2)) 2F1(mu+nu, nu+1/2; mu+1/2; (a-b)/(a+b))``
    with ``mu = alpha + 1/2``, ``nu = alpha - 1/2``, ``a = 1/lam``, ``b = 1/theta``
    (so ``mu + nu = 2 alpha``, ``mu - nu = 1``, ``mu + 1/2 = alpha + 1``, and
    the powers of ``theta`` collapse to ``(lam/(theta + lam))^(2 alpha)``),
    gives, with ``r = theta/lam``,
    ``f_A(0) = (1+r)^(-2 alpha) Gamma(2 alpha) 2F1(2 alpha, alpha; alpha+1; (r-1)/(r+1)) / (Gamma(alpha) Gamma(alpha+1) lam)``.
    Confirmed against :func:`autocorrelation_pdf` at ``t = 0`` for ``alpha`` from
    ``1e-7`` to 10 and ``theta/lam`` from ``1e-6`` to ``1e6``.
:func:`pdf_alpha_one`
    ``alpha = 1``: ``X1 - X2 ~ Laplace(theta)``, so ``f_A`` is the convolution of
    two Laplace densities,
    ``(theta e^{-|t|/theta} - lam e^{-|t|/lam}) / (2 (theta^2 - lam^2))``
    (``(lam + |t|) e^{-|t|/lam} / (4 lam^2)`` at ``theta = lam``).  Evaluated in
    the cancellation-free form
    ``e^{-|t|/m} (1 + (|t|/m) h(delta)) / (2 (m + s))``, ``delta = |t| (1/s - 1/m)``,
    ``h(delta) = -expm1(-delta)/delta`` (``h(0) = 1``), which covers both cases
    (algebra: ``m e^{-t/m} - s e^{-t/s} = e^{-t/m} ((m - s) - s expm1(-delta))``
    and ``-s expm1(-delta)/(m - s) = (t/m) h(delta)``).
:func:`gg_pdf_alpha_half`
    ``alpha = 1/2``: ``f_GG(t) = K_0(|t|/theta) / (pi theta)``.
:func:`pdf_lam_equals_theta`
    ``lam = theta``: ``Laplace(theta) = Gamma-Gamma(1, theta)``, so
    ``Arete(alpha, theta, theta) = Gamma-Gamma(alpha + 1, theta)`` (Bessel-K form).
:func:`mean_abs_closed_form`
    ``E|Z| = 4 theta Gamma(2 alpha) / (4^alpha Gamma(alpha)^2) + 2 lam^2 f_A(0)``:
    ``E|X1 - X2| = E(X1 + X2) E|2B - 1|`` with ``B ~ Beta(alpha, alpha)``
    independent of ``X1 + X2 ~ Gamma(2 alpha, theta)``
    (``= 2 theta Gamma(alpha + 1/2)/(sqrt(pi) Gamma(alpha))`` by the duplication
    formula); ``E|x + Y| = |x| + lam e^{-|x|/lam}``;
    ``E e^{-|X1 - X2|/lam} = 2 lam f_A(0)``.
:func:`var_closed_form`
    ``Var Z = 2 alpha theta^2 + 2 lam^2``.

Helpers exposed for tests: :func:`gamma_exp_pdf` (``g``) and
:func:`gamma_exp_sf` (``G``), both self-validated.
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

__all__ = [
    "naive_pdf",
    "gg_pdf_besselk",
    "gg_pdf_integral",
    "gamma_exp_pdf",
    "gamma_exp_sf",
    "autocorrelation_pdf",
    "autocorrelation_sf",
    "fourier_pdf",
    "pdf_at_zero",
    "pdf_alpha_one",
    "gg_pdf_alpha_half",
    "pdf_lam_equals_theta",
    "mean_abs_closed_form",
    "var_closed_form",
    "FOURIER_RANGE",
]

#: Extra working digits of the two validation runs (first, second).
_RUN_DIGITS = (GUARD_DIGITS, GUARD_DIGITS + 15)

#: The two runs agree to ``digits + _AGREE_MARGIN`` digits or PrecisionError.
_AGREE_MARGIN = 2


# ---------------------------------------------------------------------------
# shared plumbing
# ---------------------------------------------------------------------------


def _parse(digits, *, t=None, **positives):
    """Resolve ``digits`` and convert the parameters at the parse precision.

    ``t`` (if given) must be a finite real; every keyword in ``positives`` must
    be a positive finite real.  Returns ``(d, t, params_dict)``.
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        tt = None if t is None else finite_real(t, "t")
        out = {name: positive(value, name) for name, value in positives.items()}
    return d, tt, out


def _abs(x, d):
    """``|x|`` without rounding to the caller's (possibly low) global precision."""
    with mp.workdps(parse_precision(d)):
        return abs(x)


def _check_agree(v1, v2, d, what):
    """Raise PrecisionError unless ``v1`` and ``v2`` agree to ``d + margin`` digits."""
    if mp.isinf(v1) or mp.isinf(v2) or mp.isnan(v1) or mp.isnan(v2):
        if v1 == v2 and not mp.isnan(v1):
            return
        raise PrecisionError(f"{what}: runs returned {v1} and {v2}")
    tol = mp.mpf(10) ** (-(d + _AGREE_MARGIN))
    if v2 == 0:
        if v1 == 0:
            return
        raise PrecisionError(f"{what}: runs returned {v1} and 0")
    if abs(v1 - v2) > tol * abs(v2):
        with mp.workdps(d + 5):
            raise PrecisionError(
                f"{what}: the two validation runs disagree beyond {d} digits: "
                f"{mp.nstr(v1, d + 5)} vs {mp.nstr(v2, d + 5)}"
            )


def _validated(compute, d, what, extra=0):
    """Run ``compute(variant)`` inside ``workdps(d + _RUN_DIGITS[variant] + extra)``.

    Returns the second (more precise) result rounded to ``d + GUARD_DIGITS``
    digits after checking it against the first.
    """
    vals = []
    for variant, run_digits in enumerate(_RUN_DIGITS):
        with mp.workdps(d + run_digits + extra):
            vals.append(compute(variant))
    with mp.workdps(d + _RUN_DIGITS[1] + extra):
        _check_agree(vals[0], vals[1], d, what)
    with mp.workdps(d + GUARD_DIGITS):
        return +vals[1]


def _geometric(lo, hi, ratio):
    """``[lo, lo*ratio, lo*ratio^2, ...]`` strictly below ``hi``, then ``hi``."""
    pts = []
    x = lo
    while x < hi:
        pts.append(x)
        x *= ratio
    pts.append(hi)
    return pts


def _pieces_on(F, pts):
    return [(F, pts[i], pts[i + 1]) for i in range(len(pts) - 1) if pts[i] < pts[i + 1]]


def _tail_piece(F, hi, scale):
    """``int_hi^inf F(x) dx`` as ``int_0^inf F(hi + scale v) scale dv``."""
    return (lambda v: F(hi + scale * v) * scale, mp.zero, mp.inf)


def _integrate(pieces, d, what, method="tanh-sinh"):
    """Sum of ``int_a^b F`` over ``pieces = [(F, a, b), ...]`` with a relative stopping rule.

    ``b`` may be ``inf`` (then ``F`` should decay on a scale of about 1).  The
    integrand is divided by an estimate ``S`` of the answer so that mp.quad's
    absolute error criterion becomes a relative one; if the first result is
    below ``1e-6 S`` the integration is repeated with the result as the scale.
    Raises PrecisionError if mp.quad's error estimate exceeds ``10**-(d + 3)``
    relative.  Must be called inside the working precision.
    """
    S = mp.zero
    for F, a, b in pieces:
        if mp.isinf(b):
            xm, w = a + 1, mp.one
        else:
            xm, w = (a + b) / 2, b - a
        S = max(S, abs(F(xm)) * w)
    if S == 0 or mp.isnan(S) or mp.isinf(S):
        raise PrecisionError(f"{what}: could not estimate the size of the integral (got {S})")
    for attempt in range(2):
        total = mp.zero
        err = mp.zero
        for F, a, b in pieces:
            v, e = mp.quad(lambda x: F(x) / S, [a, b], error=True, method=method)
            total += v
            err += e
        if total <= 0 or mp.isnan(total):
            raise PrecisionError(f"{what}: quadrature returned {total * S}")
        if attempt == 0 and total < mp.mpf(10) ** -6:
            # the size estimate was far too large: the absolute stopping rule
            # would cost more than the guard digits.  Rescale and redo.
            S *= total
            continue
        break
    if err > mp.mpf(10) ** (-(d + 3)) * total:
        with mp.workdps(8):
            raise PrecisionError(
                f"{what}: quadrature error estimate {mp.nstr(err / total, 3)} (relative) "
                f"exceeds 1e-{d + 3}"
            )
    return total * S


# ---------------------------------------------------------------------------
# Gamma-Gamma density: closed form and definition
# ---------------------------------------------------------------------------


def _gg_besselk(t, alpha, theta):
    """Bessel-K closed form of f_GG at the current precision (t >= 0 or < 0)."""
    if t < 0:
        t = -t
    if t == 0:
        if alpha <= mp.mpf(1) / 2:
            return mp.inf
        return mp.gamma(alpha - mp.mpf(1) / 2) / (2 * mp.sqrt(mp.pi) * mp.gamma(alpha) * theta)
    nu = alpha - mp.mpf(1) / 2
    return (
        t**nu
        * mp.besselk(nu, t / theta)
        / (mp.sqrt(mp.pi) * mp.gamma(alpha) * theta ** (alpha + mp.mpf(1) / 2) * 2**nu)
    )


def gg_pdf_besselk(t, alpha, theta, digits=None):
    r"""``f_GG(t)`` from the Bessel-K closed form (Note 1; Mathai 1993), self-validated.

    ``|t|^nu K_nu(|t|/theta) / (sqrt(pi) Gamma(alpha) theta^(alpha+1/2) 2^nu)``,
    ``nu = alpha - 1/2``; at ``t = 0`` it is ``+inf`` for ``alpha <= 1/2``.

    >>> from mpmath import mp
    >>> # alpha = 1: X1 - X2 ~ Laplace(theta)
    >>> mp.almosteq(gg_pdf_besselk(3, 1, 2, 15), mp.exp(-mp.mpf(3)/2) / 4, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta)
    t = _abs(t, d)
    a, th = p["alpha"], p["theta"]
    extra = exponent_digits(t / th, a * mp.log(th))
    return _validated(lambda v: _gg_besselk(t, a, th), d, "gg_pdf_besselk", extra)


def _log_gamma_pdf_factory(alpha, theta):
    """``x -> log f_Gamma(x)`` at the current precision (x > 0)."""
    c0 = mp.loggamma(alpha) + alpha * mp.log(theta)
    return lambda x: (alpha - 1) * mp.log(x) - x / theta - c0


def _gg_integral_run(t, alpha, theta, d, variant):
    ratio, frac = ((4, mp.mpf(1) / 2), (3, mp.mpf("0.37")))[variant]
    logf = _log_gamma_pdf_factory(alpha, theta)
    pieces = []
    hi = theta * (alpha + 6)
    if t == 0:
        if alpha <= mp.mpf(1) / 2:
            return mp.inf
        x0 = theta * frac
        F = lambda x: mp.exp(2 * logf(x))
        if alpha < 1:
            # x = x0 u^(1/p), p = 2 alpha - 1:  x^(2 alpha - 2) dx = x0^p du / p
            p = 2 * alpha - 1
            const = x0**p / (p * mp.gamma(alpha) ** 2 * theta ** (2 * alpha))
            pieces.append((lambda u: const * mp.exp(-2 * x0 * u ** (1 / p) / theta), mp.zero, mp.one))
        else:
            pieces.append((F, mp.zero, x0))
    else:
        x0 = min(t, theta) * frac
        F = lambda x: mp.exp(logf(t + x) + logf(x))
        if alpha < 1:
            # x = x0 u^(1/alpha):  x^(alpha-1) dx = x0^alpha du / alpha
            const = x0**alpha / (mp.gamma(alpha + 1) * theta**alpha)

            def G(u):
                x = x0 * u ** (1 / alpha)
                return mp.exp(logf(t + x) - x / theta) * const

            pieces.append((G, mp.zero, mp.one))
        else:
            pieces.append((F, mp.zero, x0))
    pieces += _pieces_on(F, _geometric(x0, hi, ratio))
    pieces.append(_tail_piece(F, hi, theta))
    return _integrate(pieces, d, "gg_pdf_integral")


def gg_pdf_integral(t, alpha, theta, digits=None):
    r"""``f_GG(t) = int_0^inf f_Gamma(|t| + x) f_Gamma(x) dx`` (Definition 7) by quadrature.

    The ``x^(alpha-1)`` singularity is removed by ``x = x0 u^(1/alpha)`` on
    ``[0, x0]``, ``x0 = min(|t|, theta)/2``; self-validated.  Returns ``+inf``
    at ``t = 0`` for ``alpha <= 1/2`` (the integral diverges).

    >>> from mpmath import mp
    >>> mp.almosteq(gg_pdf_integral(3, 1, 2, 15), mp.exp(-mp.mpf(3)/2) / 4, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta)
    t = _abs(t, d)
    a, th = p["alpha"], p["theta"]
    extra = exponent_digits(t / th, a * mp.log(1 + t / th))
    return _validated(lambda v: _gg_integral_run(t, a, th, d, v), d, "gg_pdf_integral", extra)


def naive_pdf(t, alpha, theta, lam, digits=None):
    r"""**Known-bad baseline**: ``mp.quad(f_GG(x) f_L(t - x), [-inf, 0, t, inf])``.

    ``f_GG`` is the Bessel-K form at ``digits + 10`` working digits; no
    self-validation, no rescaling.  For small ``alpha`` the mass of the
    ``|x|^(2 alpha - 1)`` singularity at ``x = 0`` within ``~10**-dps`` of the
    endpoint is lost: for ``alpha = lam = e^-5, theta = 0.2`` it returns
    ``f_A(0) ~ 39.9`` (``digits=15``) or ``51.5`` (``digits=30``) instead of
    ``70.8748903745...``.  Only for the benchmark.
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    with mp.workdps(d + GUARD_DIGITS):
        f = lambda x: _gg_besselk(x, a, th) * mp.exp(-abs(t - x) / lam) / (2 * lam)
        pts = [mp.ninf, 0, t, mp.inf] if t != 0 else [mp.ninf, 0, mp.inf]
        if t < 0:
            pts = [mp.ninf, t, 0, mp.inf]
        return mp.quad(f, pts)


# ---------------------------------------------------------------------------
# autocorrelation representation (method (b))
# ---------------------------------------------------------------------------


def _kummer_a_large(alpha, x, eps, loggamma_a):
    r"""``1F1(alpha; alpha+1; -x) = Gamma(alpha+1) x^-alpha (1 - Q(alpha, x))`` for large ``x``.

    ``Q(alpha, x) = Gamma(alpha, x)/Gamma(alpha)`` is summed from its asymptotic
    series ``x^(alpha-1) e^-x / Gamma(alpha) sum_k (alpha-1)...(alpha-k) x^-k``
    until a term is below ``eps`` in absolute value (``1 - Q >= 1/2`` here, so
    that is a relative error ``eps`` of the result).  Returns ``None`` if the
    series stops decreasing first (caller falls back to ``mp.hyp1f1``).
    """
    logpref = (alpha - 1) * mp.log(x) - x - loggamma_a
    q = mp.zero
    if logpref > mp.log(eps) - 3:
        pref = mp.exp(logpref)
        term = mp.one
        s = mp.one
        k = 0
        while True:
            new = term * (alpha - 1 - k) / x
            k += 1
            if new == 0:
                break
            if abs(new) > abs(term):
                return None
            term = new
            s += term
            if abs(term) * pref < eps:
                break
        q = pref * s
    return mp.gamma(alpha + 1) * x ** (-alpha) * (1 - q)


def _kummer_1_large(alpha, z, eps, log_small):
    r"""``1F1(1; alpha+1; -z) ~ (alpha/z) sum_k (1-alpha)_k z^-k`` for large ``z``.

    The series is asymptotic; the neglected part is of size
    ``Gamma(alpha+1) z^-alpha e^-z``, and ``log_small(z)`` is the log of its ratio
    to ``alpha/z``.  Returns ``None`` unless that ratio is below ``eps`` and the
    terms fall below ``eps`` (relative) while still decreasing.
    """
    if log_small(z) > mp.log(eps):
        return None
    term = mp.one
    s = mp.one
    k = 0
    while True:
        new = term * (1 - alpha + k) / z
        k += 1
        if new == 0:
            break
        if abs(new) > abs(term) and k > 1:
            return None
        term = new
        s += term
        if abs(term) < eps * abs(s):
            break
    return alpha / z * s


def _gamma_exp_pdf_factory(alpha, theta, lam):
    """``y -> g(y)``, the density of Gamma(alpha, theta) + Exp(lam), at the current precision.

    Uses the form whose 1F1 argument is <= 0 (see the module docstring).  For
    large arguments the 1F1 is summed from its asymptotic expansion (cheap and
    exact to the working precision there, see :func:`_kummer_a_large`,
    :func:`_kummer_1_large`); otherwise ``mp.hyp1f1`` is called.  The switch
    points depend on the working precision, so the two validation runs use
    partly different code paths.
    """
    K = 1 / (lam * mp.gamma(alpha + 1) * theta**alpha)
    eps = mp.ldexp(1, -(mp.prec + 10))
    if theta < lam:
        c = (lam - theta) / (theta * lam)  # 1/theta - 1/lam > 0
        x_large = max(mp.prec * mp.ln2 / 2 + 10, 4 * alpha + 10)
        loggamma_a = mp.loggamma(alpha)

        def kummer(x):
            if x >= x_large:
                v = _kummer_a_large(alpha, x, eps, loggamma_a)
                if v is not None:
                    return v
            return mp.hyp1f1(alpha, alpha + 1, -x)

        def g(y):
            if y <= 0:
                return mp.zero
            return K * mp.exp(alpha * mp.log(y) - y / lam) * kummer(c * y)

    elif theta > lam:
        c = (theta - lam) / (theta * lam)  # 1/lam - 1/theta > 0
        const = mp.loggamma(alpha + 1) - mp.log(alpha)
        log_small = lambda z: -z + (1 - alpha) * mp.log(z) + const
        z_large = mp.prec * mp.ln2 + 10

        def kummer(z):
            if z >= z_large:
                v = _kummer_1_large(alpha, z, eps, log_small)
                if v is not None:
                    return v
            # Kummer: 1F1(1; alpha+1; -z) = e^-z 1F1(alpha; alpha+1; z).  mp.hyp1f1 at
            # the negative argument loses ~log10(1/alpha) - 1.5 digits for z >~ 20
            # (5 digits at alpha = 1e-7); the positive-argument form does not.
            return mp.exp(-z) * mp.hyp1f1(alpha, alpha + 1, z)

        def g(y):
            if y <= 0:
                return mp.zero
            return K * mp.exp(alpha * mp.log(y) - y / theta) * kummer(c * y)

    else:

        def g(y):
            if y <= 0:
                return mp.zero
            return K * mp.exp(alpha * mp.log(y) - y / theta)

    return g


def _gamma_exp_sf_factory(alpha, theta, lam):
    """``y -> G(y) = P(W > y) = Q(alpha, y/theta) + lam g(y)`` at the current precision."""
    g = _gamma_exp_pdf_factory(alpha, theta, lam)

    def G(y):
        if y <= 0:
            return mp.one
        return mp.gammainc(alpha, y / theta, mp.inf, regularized=True) + lam * g(y)

    return G


def gamma_exp_pdf(y, alpha, theta, lam, digits=None):
    r"""Density ``g(y)`` of ``Gamma(alpha, theta) + Exp(lam)`` (the building block of method (b)).

    ``g(y) = y^alpha e^{-y/theta} 1F1(1; alpha+1; (1/theta - 1/lam) y) / (lam Gamma(alpha+1) theta^alpha)``
    for ``y > 0``, 0 otherwise; evaluated in the non-cancelling form (module
    docstring) and self-validated at two precisions.

    >>> from mpmath import mp
    >>> # alpha = 1, theta = lam: Gamma(2, lam) density
    >>> mp.almosteq(gamma_exp_pdf(3, 1, 2, 2, 15), 3 * mp.exp(-mp.mpf(3)/2) / 4, 1e-14)
    True
    """
    d, y, p = _parse(digits, t=y, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    extra = exponent_digits(y / min(th, lam), a * mp.log(th))
    return _validated(lambda v: _gamma_exp_pdf_factory(a, th, lam)(y), d, "gamma_exp_pdf", extra)


def gamma_exp_sf(y, alpha, theta, lam, digits=None):
    r"""``P(W > y)`` for ``W ~ Gamma(alpha, theta) + Exp(lam)``: ``Q(alpha, y/theta) + lam g(y)``.

    >>> from mpmath import mp
    >>> # alpha = 1, theta = lam: P(Gamma(2, lam) > y) = (1 + y/lam) e^{-y/lam}
    >>> mp.almosteq(gamma_exp_sf(3, 1, 2, 2, 15), mp.mpf(5)/2 * mp.exp(-mp.mpf(3)/2), 1e-14)
    True
    """
    d, y, p = _parse(digits, t=y, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    extra = exponent_digits(y / min(th, lam), a * mp.log(th))
    return _validated(lambda v: _gamma_exp_sf_factory(a, th, lam)(y), d, "gamma_exp_sf", extra)


def _autocorr_pieces(F, t, alpha, theta, lam, d, variant):
    ratio, frac = ((16, mp.mpf(1) / 2), (10, mp.mpf("0.37")))[variant]
    s, m = min(theta, lam), max(theta, lam)
    # Resolve the scale |t| only down to s 10^-(d+30): below that the whole
    # sub-interval [0, lo] carries less than 10^-(d+30) of the integral.
    lo = max(min(s, t), s * mp.mpf(10) ** -(d + 30)) * frac
    hi = m * (alpha + 4)
    pieces = _pieces_on(F, [mp.zero] + _geometric(lo, hi, ratio))
    pieces.append(_tail_piece(F, hi, m))
    return pieces


def _autocorr_extra(t, alpha, theta, lam):
    m = max(theta, lam)
    return exponent_digits((t + m * (alpha + 4)) / m, alpha * mp.log(theta)) + 2


def _autocorr_pdf_run(t, alpha, theta, lam, d, variant):
    g = _gamma_exp_pdf_factory(alpha, theta, lam)
    if t == 0:
        F = lambda x: g(x) ** 2
    else:
        F = lambda x: g(x) * g(x + t)
    return _integrate(_autocorr_pieces(F, t, alpha, theta, lam, d, variant), d, "autocorrelation_pdf")


def autocorrelation_pdf(t, alpha, theta, lam, digits=None):
    r"""``f_A(t) = int_0^inf g(x) g(x + |t|) dx``, ``g`` the Gamma+Exp density (method (b)).

    The main reference: positive integrand, no singularity stronger than a
    bounded ``x^alpha`` cusp, relative stopping rule, two validation runs at
    different precisions *and* different breakpoints.  See the module docstring
    for the formula, range and cost.

    >>> from mpmath import mp
    >>> # alpha = 1: convolution of Laplace(2) and Laplace(1) at t = 0 is 1/(2 (2 + 1))
    >>> mp.almosteq(autocorrelation_pdf(0, 1, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    t = _abs(t, d)
    extra = _autocorr_extra(t, a, th, lam)
    return _validated(lambda v: _autocorr_pdf_run(t, a, th, lam, d, v), d, "autocorrelation_pdf", extra)


def _autocorr_sf_run(t, alpha, theta, lam, d, variant):
    g = _gamma_exp_pdf_factory(alpha, theta, lam)
    G = _gamma_exp_sf_factory(alpha, theta, lam)
    F = lambda x: g(x) * G(x + t)
    return _integrate(_autocorr_pieces(F, t, alpha, theta, lam, d, variant), d, "autocorrelation_sf")


def autocorrelation_sf(t, alpha, theta, lam, digits=None):
    r"""``P(Z > t) = int_0^inf g(x) G(x + t) dx`` (``t >= 0``), ``G(y) = Q(alpha, y/theta) + lam g(y)``.

    For ``t < 0`` returns ``1 - P(Z > |t|)``.  Self-validated like
    :func:`autocorrelation_pdf`.

    >>> from mpmath import mp
    >>> mp.almosteq(autocorrelation_sf(0, "0.3", 2, 1, 15), mp.mpf(1)/2, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    at = _abs(t, d)
    extra = _autocorr_extra(at, a, th, lam)
    v = _validated(lambda v: _autocorr_sf_run(at, a, th, lam, d, v), d, "autocorrelation_sf", extra)
    if t < 0:
        with mp.workdps(d + GUARD_DIGITS):
            return 1 - v
    return v


# ---------------------------------------------------------------------------
# Fourier inversion
# ---------------------------------------------------------------------------

#: Parameter box in which :func:`fourier_pdf` is trusted (outside: ValueError).
FOURIER_RANGE = {
    "alpha": ("0.01", "5"),
    "theta": ("0.01", "100"),
    "lam": ("0.01", "100"),
    "|t|": ("0.01", "100"),  # or t == 0
    "|t|/max(theta, lam)": (None, "30"),
    "digits": (1, 40),
}


def _cvz_alternating(terms):
    """Cohen-Rodriguez Villegas-Zagier: ``sum_k (-1)^k a_k`` from ``a_0..a_{n-1}``."""
    n = len(terms)
    dd = (3 + mp.sqrt(8)) ** n
    dd = (dd + 1 / dd) / 2
    b = mp.mpf(-1)
    c = -dd
    s = mp.zero
    for k in range(n):
        c = b - c
        s += c * terms[k]
        b = (k + n) * (k - n) * b / ((k + mp.mpf(1) / 2) * (k + 1))
    return s / dd


def _fourier_run(t, alpha, theta, lam, d, variant):
    s, m = min(theta, lam), max(theta, lam)
    ratio = (4, 3)[variant]

    def phi(u):
        return (1 + (theta * u) ** 2) ** (-alpha) / (1 + (lam * u) ** 2)

    if t == 0:
        U = (4, 6)[variant] / s
        pieces = _pieces_on(phi, [mp.zero] + _geometric(1 / (4 * m), U, ratio))
        pieces.append((lambda w: phi(U / w) * U / w**2, mp.zero, mp.one))
        return _integrate(pieces, d, "fourier_pdf") / mp.pi

    half = mp.pi / t

    def z(k):
        return (k + mp.mpf(1) / 2) * half

    F = lambda u: mp.cos(u * t) * phi(u)
    # Head [0, z_K]: Gauss-Legendre between breakpoints (every `chunk`-th zero of
    # the cosine, plus a geometric grid for the scales of phi).
    U = (2, 5)[variant] / m
    chunk = (8, 6)[variant]
    K = int(mp.ceil(U / half))
    pts = {mp.zero, z(K)}
    pts.update(z(k) for k in range(0, K, chunk))
    pts.update(_geometric(1 / (4 * m), z(K), ratio)[:-1])
    pts = sorted(pts)
    head, err = mp.quad(F, pts, error=True, method="gauss-legendre")
    # Tail: half-period integrals alternate in sign; Cohen-Villegas-Zagier with
    # n terms has error ~5.83^-n.
    n = int(mp.dps * 2.302585 / 1.7627) + 10
    terms = []
    for j in range(n):
        v, e = mp.quad(F, [z(K + j), z(K + j + 1)], error=True, method="gauss-legendre")
        terms.append(v if j % 2 == 0 else -v)
        err += e
    result = (head + _cvz_alternating(terms)) / mp.pi
    if result <= 0:
        raise PrecisionError(f"fourier_pdf: cancellation left {result}")
    if err / mp.pi > mp.mpf(10) ** (-(d + 3)) * result:
        with mp.workdps(8):
            raise PrecisionError(
                f"fourier_pdf: quadrature error estimate {mp.nstr(err / mp.pi / result, 3)} "
                f"(relative) exceeds 1e-{d + 3}"
            )
    return result


def fourier_pdf(t, alpha, theta, lam, digits=None):
    r"""``f_A(t) = (1/pi) int_0^inf cos(u t) (1 + theta^2 u^2)^-alpha / (1 + lam^2 u^2) du``.

    Real-axis Fourier inversion; only for moderate parameters (see
    ``FOURIER_RANGE`` and the module docstring), ``ValueError`` outside.

    >>> from mpmath import mp
    >>> mp.almosteq(fourier_pdf(0, 1, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    t = _abs(t, d)
    with mp.workdps(parse_precision(d)):
        # bounds with a relative slack of 1e-12, so that 0.01 given as a float,
        # a decimal string or a 53-bit mpf is accepted alike
        lo, hi = mp.mpf("0.01") * (1 - mp.mpf(10) ** -12), 100 * (1 + mp.mpf(10) ** -12)
        if not lo <= a <= 5 * (1 + mp.mpf(10) ** -12):
            raise ValueError(f"fourier_pdf: alpha must be in [0.01, 5], got {alpha!r}")
        for name, v, raw in (("theta", th, theta), ("lam", lam, lam)):
            if not lo <= v <= hi:
                raise ValueError(f"fourier_pdf: {name} must be in [0.01, 100], got {raw!r}")
        if t != 0 and not lo <= t <= hi:
            raise ValueError(f"fourier_pdf: |t| must be 0 or in [0.01, 100], got {t}")
        m, s = max(th, lam), min(th, lam)
        if t > 30 * m * (1 + mp.mpf(10) ** -12):
            raise ValueError(
                "fourier_pdf: |t| > 30 max(theta, lam): f_A(t) is too small relative to f_A(0) "
                "for Fourier inversion"
            )
    if d > 40:
        raise ValueError(f"fourier_pdf: digits must be <= 40, got {d}")
    # the integrand is O(1) while the answer is ~f_A(t) >= f_A(0) e^{-t/m}/poly, f_A(0) >~ 1/(4m)
    extra = int(mp.ceil(mp.log10(mp.e) * t / m + mp.log10(1 + t / s) + mp.log10(1 + 4 * m))) + 2
    return _validated(lambda v: _fourier_run(t, a, th, lam, d, v), d, "fourier_pdf", extra)


# ---------------------------------------------------------------------------
# closed forms
# ---------------------------------------------------------------------------


def _pdf_at_zero(alpha, theta, lam):
    r = theta / lam
    return (
        (1 + r) ** (-2 * alpha)
        * mp.gamma(2 * alpha)
        / (mp.gamma(alpha) * mp.gamma(alpha + 1))
        * mp.hyp2f1(2 * alpha, alpha, alpha + 1, (r - 1) / (r + 1))
        / lam
    )


def pdf_at_zero(alpha, theta, lam, digits=None):
    r"""``f_A(0)`` in closed form (Gradshteyn-Ryzhik 6.621.3; derivation in the module docstring).

    ``(1 + r)^(-2 alpha) Gamma(2 alpha) 2F1(2 alpha, alpha; alpha + 1; (r - 1)/(r + 1)) / (Gamma(alpha) Gamma(alpha + 1) lam)``,
    ``r = theta/lam``.

    >>> from mpmath import mp
    >>> mp.almosteq(pdf_at_zero(1, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, _, p = _parse(digits, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]
    extra = exponent_digits(a * mp.log(th / lam), mp.log(lam))
    return _validated(lambda v: _pdf_at_zero(a, th, lam), d, "pdf_at_zero", extra)


def _pdf_alpha_one(t, theta, lam):
    s, m = min(theta, lam), max(theta, lam)
    delta = t * (m - s) / (s * m)
    h = -mp.expm1(-delta) / delta if delta != 0 else mp.one
    return mp.exp(-t / m) * (1 + (t / m) * h) / (2 * (m + s))


def pdf_alpha_one(t, theta, lam, digits=None):
    r"""``f_A(t)`` for ``alpha = 1``: convolution of Laplace(theta) and Laplace(lam).

    ``(theta e^{-|t|/theta} - lam e^{-|t|/lam}) / (2 (theta^2 - lam^2))``, or
    ``(lam + |t|) e^{-|t|/lam} / (4 lam^2)`` at ``theta = lam``; computed in a
    cancellation-free form (module docstring), self-validated.

    >>> from mpmath import mp
    >>> mp.almosteq(pdf_alpha_one(0, 2, 1, 15), mp.mpf(1)/6, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, theta=theta, lam=lam)
    th, lam = p["theta"], p["lam"]
    t = _abs(t, d)
    extra = exponent_digits(t / min(th, lam))
    return _validated(lambda v: _pdf_alpha_one(t, th, lam), d, "pdf_alpha_one", extra)


def gg_pdf_alpha_half(t, theta, digits=None):
    r"""``f_GG(t)`` for ``alpha = 1/2``: ``K_0(|t|/theta) / (pi theta)`` (``+inf`` at 0).

    >>> from mpmath import mp
    >>> mp.almosteq(gg_pdf_alpha_half(1, 1, 15), mp.besselk(0, 1) / mp.pi, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, theta=theta)
    th = p["theta"]
    t = _abs(t, d)
    if t == 0:
        return mp.inf
    return _validated(
        lambda v: mp.besselk(0, t / th) / (mp.pi * th), d, "gg_pdf_alpha_half", exponent_digits(t / th)
    )


def pdf_lam_equals_theta(t, alpha, theta, digits=None):
    r"""``f_A(t)`` for ``lam = theta``: the Gamma-Gamma(alpha + 1, theta) density (Bessel-K form).

    >>> from mpmath import mp
    >>> # alpha = 1, lam = theta = 1: (1 + |t|) e^{-|t|} / 4
    >>> mp.almosteq(pdf_lam_equals_theta(2, 1, 1, 15), 3 * mp.exp(-2) / 4, 1e-14)
    True
    """
    d, t, p = _parse(digits, t=t, alpha=alpha, theta=theta)
    t = _abs(t, d)
    a, th = p["alpha"], p["theta"]
    extra = exponent_digits(t / th, (a + 1) * mp.log(th))
    return _validated(lambda v: _gg_besselk(t, a + 1, th), d, "pdf_lam_equals_theta", extra)


def mean_abs_closed_form(alpha, theta, lam, digits=None):
    r"""``E|Z| = 4 theta Gamma(2 alpha) / (4^alpha Gamma(alpha)^2) + 2 lam^2 f_A(0)``.

    ``f_A(0)`` from :func:`pdf_at_zero`'s formula.  Self-validated.

    >>> from mpmath import mp
    >>> # alpha = 1, theta = 2, lam = 1: E|Z| = 2 + 2/6
    >>> mp.almosteq(mean_abs_closed_form(1, 2, 1, 15), mp.mpf(7)/3, 1e-14)
    True
    """
    d, _, p = _parse(digits, alpha=alpha, theta=theta, lam=lam)
    a, th, lam = p["alpha"], p["theta"], p["lam"]

    def compute(v):
        gg = 4 * th * mp.gamma(2 * a) / (mp.mpf(4) ** a * mp.gamma(a) ** 2)
        return gg + 2 * lam**2 * _pdf_at_zero(a, th, lam)

    extra = exponent_digits(a * mp.log(th / lam), mp.log(lam), mp.log(th))
    return _validated(compute, d, "mean_abs_closed_form", extra)


def var_closed_form(alpha, theta, lam, digits=None):
    r"""``Var Z = 2 alpha theta^2 + 2 lam^2`` (exact at the parse precision).

    >>> var_closed_form(1, 2, 3) == 26
    True
    """
    d, _, p = _parse(digits, alpha=alpha, theta=theta, lam=lam)
    with mp.workdps(parse_precision(d)):
        return 2 * p["alpha"] * p["theta"] ** 2 + 2 * p["lam"] ** 2
