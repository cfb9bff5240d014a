r"""Slow, independent reference methods for the Gamma-Gamma and Arete densities.

This package is the *oracle* the test suite and the benchmark compare the fast
engine (:mod:`arete_proofs.distributions.arete`, :mod:`arete_proofs.distributions.gamma_gamma`, which use a
branch-cut Laplace-transform representation) against.  It deliberately shares
no code path with the engine: none of its modules imports them (a test checks this),
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

Submodules
----------
* ``reference._common`` -- argument parsing, the two-run agreement check, piecewise quadrature
* ``reference.gamma_gamma`` -- ``f_GG`` by Bessel K and by its integral (Definition 7); the naive convolution
* ``reference.autocorrelation`` -- the Gamma+Exp (Kummer 1F1) density; method (b): ``f_A``, ``P(Z > t)``
* ``reference.fourier`` -- Fourier inversion of ``f_A`` (and ``FOURIER_RANGE``)
* ``reference.closed_forms`` -- ``f_A(0)``, ``alpha = 1``, ``alpha = 1/2``, ``lam = theta``, ``E|Z|``, ``Var Z``
"""

from __future__ import annotations

from .autocorrelation import autocorrelation_pdf, autocorrelation_sf, gamma_exp_pdf, gamma_exp_sf
from .closed_forms import (
    gg_pdf_alpha_half,
    mean_abs_closed_form,
    pdf_alpha_one,
    pdf_at_zero,
    pdf_lam_equals_theta,
    var_closed_form,
)
from .fourier import FOURIER_RANGE as _FOURIER_RANGE
from .fourier import fourier_pdf
from .gamma_gamma import gg_pdf_besselk, gg_pdf_integral, naive_pdf

#: Parameter box in which :func:`fourier_pdf` is trusted (outside: ValueError).
#: (Defined in ``reference.fourier``; re-exported here with its doc comment.)
FOURIER_RANGE = _FOURIER_RANGE

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
