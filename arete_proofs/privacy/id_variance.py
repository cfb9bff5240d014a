r"""The variance of symmetric infinitely divisible (ID) :math:`\varepsilon`-DP noise: a certified floor.

:mod:`arete_proofs.privacy.id_bounds` bounds :math:`E|Z|`; this module does the same for
:math:`\operatorname{Var} Z` and *symmetric* ID noise, and there the bound is nearly tight: it tends to
:math:`(6/\pi)^{1/3} = 1.2407` times the Staircase's variance, and the top-rate lattice + Gaussian
noise (docs/explanation/lattice-gaussian.md) is at 1.242.  :math:`\Delta = 1` (the ratios do not depend on :math:`\Delta`),
:math:`q = e^{-\varepsilon}`.

**Lemma E1 (the Gaussian has the least peak at a given variance).**  A symmetric ID law with
variance :math:`v` has :math:`\operatorname{ess\,sup} f \ge 1/\sqrt{2\pi v}`, with equality for the Gaussian.

*Proof.*  By Lévy-Khintchine (symmetric, finite variance: the Lévy measure :math:`\nu` is symmetric, no
drift) :math:`\varphi(t) = e^{-\psi(t)}`, :math:`\psi(t) = s^2t^2/2 + \int (1 - \cos tx)\,\nu(dx)` and
:math:`v = s^2 + \int x^2\nu(dx)`.  Since :math:`1 - \cos y \le y^2/2`, :math:`0 \le \psi(t) \le vt^2/2`,
so :math:`\varphi(t) \ge e^{-vt^2/2}` for every :math:`t`.  For :math:`\delta > 0` the law convolved with
:math:`N(0, \delta^2)` has the continuous density :math:`g_\delta \le \operatorname{ess\,sup} f` and, by
Fourier inversion, :math:`g_\delta(0) = \frac1{2\pi}\int\varphi(t)e^{-\delta^2t^2/2}dt \ge
1/\sqrt{2\pi(v + \delta^2)}`; let :math:`\delta \to 0`.  :math:`\square`
(The uniform law, :math:`v = 1/3`, :math:`\sup f = 1/2 < 1/\sqrt{2\pi/3}`, is not ID: its
characteristic function has zeros.)

**Lemma E1' (the lattice version: the Skellam law has the least peak).**  A symmetric ID law on
:math:`\mathbb Z` with variance :math:`v` has :math:`P(X = 0) \ge e^{-v}I_0(v)`, the Skellam law
:math:`\mathrm{Sk}(v/2, v/2)`'s, with equality for it.  *Proof.*  An ID law carried by :math:`\mathbb Z` has no
Gaussian part and its Lévy measure :math:`(\nu_k)` lives on :math:`\mathbb Z \setminus \{0\}` (Sato, *Lévy processes
and infinitely divisible distributions*, Section 24), so :math:`\psi(t) = \sum_k \nu_k(1 - \cos kt) \le
v(1 - \cos t)` by :math:`1 - \cos kt \le k^2(1 - \cos t)` (the inequality of step (4) of
Theorem C's proof in :mod:`arete_proofs.privacy.id_bounds`), and :math:`P(X = 0) = \frac1{2\pi}\int_{-\pi}^{\pi}\varphi \ge
\frac1{2\pi}\int_{-\pi}^{\pi} e^{-v(1-\cos t)}dt = e^{-v}I_0(v)`.  :math:`\square`  (It is why a Skellam smoothing
is the natural one for the discrete analogue of the lattice noise (docs/explanation/lattice-skellam.md); the discrete uniform law on
:math:`\{-1, 0, 1\}`, :math:`v = 2/3`, :math:`P(0) = 1/3 < 0.572`, is not ID.)

**Theorem E (a floor for the variance).**  Let :math:`Z` be symmetric, ID and :math:`\varepsilon`-DP
(:math:`\Delta = 1`).  For :math:`r > 0`, :math:`0 < \rho < 1` and :math:`u > 0` put :math:`k = \rho/r`,
:math:`\Lambda = V/r^2`,

.. math::

    T(V) = 2V e^{-uk}\Big(\cosh u + \frac{V}{r^2}\sinh^2 u\Big)\exp\Big(\frac V{r^2}(\cosh u - 1)\Big),
    \qquad
    L(V) = 3\Big(\frac{AB^2}{4}\Big)^{1/3} - T(V),\quad A = \frac{e^{-3\Lambda}}{2\pi},\
    B = \frac23 q (1 - \rho^3).

If :math:`L(V) > V` then :math:`\operatorname{Var} Z \ge V`.

*Proof.*  Let :math:`M = \operatorname{ess\,sup} f` (finite: DP noise has a density at most
:math:`e^\varepsilon`) and suppose :math:`v = \operatorname{Var} Z < V`.  Split the Lévy measure at
:math:`r`: :math:`Z = Z_s + Z_b`, independent, :math:`Z_s` symmetric ID with the jumps
:math:`|x| \le r` and the Gaussian part (variance :math:`v_s`), :math:`Z_b` compound Poisson with the
jumps :math:`|x| > r` (rate :math:`\lambda_b`, :math:`N` jumps, variance :math:`v_b \ge r^2\lambda_b`),
:math:`v = v_s + v_b`.  So :math:`v_s < V` and :math:`\lambda_b < \Lambda`.

1. *Centre.* The law of :math:`Z` is at least :math:`e^{-\lambda_b}` times that of :math:`Z_s` (the
   event :math:`N = 0`), so :math:`\operatorname{ess\,sup} f_{Z_s} \le e^{\lambda_b} M` and Lemma E1
   gives :math:`v_s \ge e^{-2\lambda_b}/(2\pi M^2)`.
2. *Floor.* DP puts :math:`f \ge qM(1-\delta)` a.e. on an interval :math:`I = [x_0 - 1, x_0 + 1]`
   (any :math:`\delta > 0`; a Lebesgue point :math:`x_0` near the supremum, as in Theorem C), and by
   symmetry on :math:`-I`; so :math:`E[Z^2; |Z| \ge \rho] \ge qM(1-\delta)\big(\int_I x^2 dx -
   \int_{-\rho}^{\rho} x^2 dx\big) \ge \frac23 qM(1-\delta)(1 - \rho^3)`.
3. *Where the floor's mass comes from.*  :math:`E[Z^2; |Z| \ge \rho] \le E[Z^2; N \ge 1]
   + E[Z_s^2; |Z_s| \ge \rho]` and :math:`E[Z^2; N \ge 1] = v_s(1 - e^{-\lambda_b}) + v_b`
   (independence, :math:`EZ_s = 0`, :math:`Z_b = 0` on :math:`N = 0`).
4. *The small jumps' tail* (Lemma E2, :func:`small_jump_tail`): :math:`E[Z_s^2; |Z_s| \ge \rho] \le T(V)`.

Adding 1-4: :math:`v = v_s + v_b \ge e^{-3\lambda_b}/(2\pi M^2) + \frac23 qM(1-\delta)(1-\rho^3) - T(V)
\ge \min_{M > 0}(A/M^2 + BM) - T(V) - O(\delta) = L(V) - O(\delta)`, and :math:`L(V) > V > v` is a
contradiction for :math:`\delta` small.  :math:`\square`

**Lemma E2.**  A symmetric ID :math:`W` with Gaussian part and Lévy measure on :math:`|x| \le r` and
variance :math:`w \le V` has :math:`E[W^2; |W| \ge \rho] \le T(V)`.
*Proof.*  :math:`1_{|z| \ge \rho} \le e^{\theta(|z| - \rho)} \le e^{-\theta\rho}(e^{\theta z} + e^{-\theta z})`,
so by symmetry :math:`E[W^2; |W| \ge \rho] \le 2e^{-\theta\rho}E[W^2e^{\theta W}] = 2e^{-\theta\rho}(K'' + K'^2)e^K`
with the cumulant :math:`K(\theta) = s^2\theta^2/2 + \int(\cosh\theta x - 1)\nu(dx)`.  On :math:`|x| \le r`,
:math:`(\cosh\theta x - 1)/x^2`, :math:`\sinh(\theta|x|)/|x|` and :math:`\cosh\theta x` are at most their values
at :math:`r`, so :math:`K \le w(\cosh u - 1)/r^2`, :math:`K' \le w\sinh u/r`, :math:`K'' \le w\cosh u`
(:math:`u = \theta r`; the Gaussian part obeys the same bounds).  Increasing in :math:`w`.  :math:`\square`

**Corollary E3.**  :math:`\liminf_{\varepsilon\to\infty} \min_{\text{symmetric ID}} \operatorname{Var} Z /
q^{2/3} \ge (3/(2\pi))^{1/3}` (take :math:`\rho = 1/\varepsilon`, :math:`k = \varepsilon`, :math:`u = 1`:
:math:`\Lambda, \rho, T/V \to 0`), and the Staircase's least variance is :math:`\approx (q/2)^{2/3}`
(:func:`arete_proofs.distributions.staircase.gamma_var`), so the ratio tends to at least
:math:`(6/\pi)^{1/3} = 1.24070`: the Gaussian centre's cost in the heuristic model of docs/explanation/lattice-gaussian.md, here
proved.  A noise within 20 % of the Staircase's variance is therefore impossible for symmetric ID noise once
:math:`\varepsilon` is large; :func:`variance_gap_interval` certifies from where.

Every bound here is evaluated as a python-flint ``arb`` ball with exact rational parameters; the
parameters :math:`(\rho, k, u)` come from a float64 search (they only decide how good the bound is).

>>> row = variance_bound(20)
>>> 1.236 < float(row["ratio"]) < (6 / math.pi) ** (1 / 3)
True
"""

from __future__ import annotations

import math
from fractions import Fraction

from .id_bounds import _arb_frac, _flint, _fraction

__all__ = [
    "sup_density_lower",
    "lattice_peak_lower",
    "small_jump_tail",
    "floor_bound",
    "staircase_variance_upper",
    "variance_bound",
    "staircase_scaled_upper",
    "variance_gap_interval",
    "asymptotic_variance_ratio",
    "variance_gap_table",
    "variance_gap_markdown",
    "VARIANCE_GAP_EPS",
]

#: The epsilons of the docs table (docs/explanation/id-lower-bounds.md, Theorem E).
VARIANCE_GAP_EPS = (8, 10, 12, 13, 14, 15, 16, 18, 20, 25, 30, 40)


def _positive(value, name):
    """An exact positive finite Fraction (``id_bounds._fraction``: Fraction, int, float, decimal string or mpf), else a
    one-line error naming ``name``."""
    try:
        if isinstance(value, bool):
            raise TypeError
        x = _fraction(value, name)
    except (TypeError, ValueError, OverflowError):   # 'abc', nan, inf, True
        raise ValueError(f"{name} must be a positive finite number, got {value!r}") from None
    if not x > 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    return x


def _open_unit(value, name):
    """An exact Fraction in the open interval (0, 1), else a one-line error naming ``name``."""
    x = _positive(value, name)
    if not x < 1:
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return x


def _gamma_unit(value, name="gamma"):
    """An exact Fraction in [0, 1], else a one-line error naming ``name``."""
    try:
        x = _fraction(value, name)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a finite number in [0, 1], got {value!r}") from None
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return x


def _arb(x):
    """An exact ``arb`` from an int, a Fraction or a float (floats are dyadic: exact)."""
    return _arb_frac(x, _flint()) if isinstance(x, Fraction) else _flint().arb(x)


def sup_density_lower(variance):
    r"""Lemma E1: :math:`1/\sqrt{2\pi v} \le \operatorname{ess\,sup} f` for every symmetric ID law of variance :math:`v` (a ball).

    Equality for the Gaussian; the Laplace law (:math:`v = 2b^2`, :math:`\sup f = 1/(2b)`) is above it:

    >>> b = 0.7
    >>> bool(sup_density_lower(2 * b * b).upper() < 1 / (2 * b))
    True
    """
    v = _arb(_positive(variance, "variance"))
    return 1 / (2 * _flint().arb.pi() * v).sqrt()


def lattice_peak_lower(variance):
    r"""Lemma E1': :math:`e^{-v}I_0(v) \le P(X = 0)` for every symmetric ID law on :math:`\mathbb Z` of variance :math:`v` (a ball).

    Equality for the Skellam law :math:`\mathrm{Sk}(v/2, v/2)`; the discrete Laplace law DLap(a) (ID, variance
    :math:`2e^{-a}/(1-e^{-a})^2`, :math:`P(0) = \tanh(a/2)`) is above it:

    >>> a = 1.3
    >>> v = 2 * math.exp(-a) / (1 - math.exp(-a)) ** 2
    >>> bool(lattice_peak_lower(v).upper() < math.tanh(a / 2))
    True
    """
    v = _arb(_positive(variance, "variance"))
    return (-v).exp() * v.bessel_i(0)


def small_jump_tail(V, r, rho, u):
    r"""Lemma E2: the ball :math:`T = 2Ve^{-u\rho/r}(\cosh u + \frac V{r^2}\sinh^2u)\exp(\frac V{r^2}(\cosh u - 1))`,
    an upper bound of :math:`E[W^2; |W| \ge \rho]` for symmetric ID :math:`W` with jumps :math:`|x| \le r` and
    variance at most :math:`V`.

    A Gaussian (no jumps at all) of variance :math:`V` obeys it, by far:

    >>> from scipy.stats import norm
    >>> exact = 2 * 0.01 * (0.3 / 0.1 * norm.pdf(3.0) + norm.sf(3.0))     # E[W^2; |W| >= 0.3], W ~ N(0, 0.01)
    >>> bool(exact < small_jump_tail(0.01, 0.05, 0.3, 2).lower())
    True
    """
    return _tail(*(_arb(_positive(x, n)) for x, n in ((V, "V"), (r, "r"), (rho, "rho"), (u, "u"))))


def _tail(V, r, rho, u):
    """Lemma E2's :math:`T` on ``arb`` balls (the checked entry is :func:`small_jump_tail`)."""
    x = V / (r * r)
    return 2 * V * (-u * rho / r).exp() * (u.cosh() + x * u.sinh() ** 2) * (x * (u.cosh() - 1)).exp()


def floor_bound(V, eps, rho, k, u):
    r"""The ball :math:`L(V)` of Theorem E (parameters exact: ``rho``, ``k`` = :math:`\rho/r`, ``u``); :math:`L(V) > V`
    proves :math:`\operatorname{Var} Z \ge V` for symmetric ID :math:`\varepsilon`-DP noise, :math:`\Delta = 1`.

    Every parameter is checked: :math:`V, \varepsilon, k, u > 0` and :math:`0 < \rho < 1` (at :math:`\rho \ge 1` the
    floor's factor :math:`1 - \rho^3` is not positive and the formula proves nothing).

    >>> V = 1.26e-6
    >>> bool(floor_bound(V, 20, Fraction(1, 10), Fraction(12, 5), Fraction(39, 5)).lower() > V)
    True
    >>> floor_bound(V, 20, Fraction(3, 2), Fraction(12, 5), Fraction(39, 5))
    Traceback (most recent call last):
      ...
    ValueError: rho must be in (0, 1), got Fraction(3, 2)
    """
    flint = _flint()
    V, k, u = (_arb(_positive(x, n)) for x, n in ((V, "V"), (k, "k"), (u, "u")))
    rho = _arb(_open_unit(rho, "rho"))
    e = _arb(_positive(eps, "eps"))
    r = rho / k
    lam = V / (r * r)
    A = (-3 * lam).exp() / (2 * flint.arb.pi())
    B = 2 * (-e).exp() * (1 - rho ** 3) / 3
    centre = 3 * (A * B * B / 4) ** (flint.arb(1) / 3)
    return centre - _tail(V, r, rho, u)


def staircase_variance_upper(eps, gamma=None):
    r"""A ball whose upper end bounds the least variance of all :math:`\varepsilon`-DP noise (:math:`\Delta = 1`).

    The Staircase's :math:`\operatorname{Var} = \frac{r(1+r)}{p^2} + \frac rp\frac{r + p\gamma^2}{c} + \frac{r + p\gamma^3}{3c}`
    (:func:`arete_proofs.distributions.staircase.var`; :math:`r = e^{-\varepsilon}`, :math:`p = 1 - r`,
    :math:`c = r + p\gamma`) at a rational :math:`\gamma` near the optimum (float64
    :func:`~arete_proofs.distributions.staircase.gamma_var`): any :math:`\gamma` is a valid noise, so its variance
    is at least the minimum.

    >>> from arete_proofs.distributions import staircase
    >>> ball = staircase_variance_upper(10)
    >>> ref = staircase.var(staircase.gamma_var(10), 1, 10, digits=30)     # the mpmath closed form
    >>> abs(float(ball.mid()) / float(ref) - 1) < 1e-12
    True
    """
    eps = _positive(eps, "eps")
    if gamma is None:
        from ..distributions import staircase

        gamma = Fraction(float(staircase.gamma_var(float(eps), digits=20)))
    g = _arb(_gamma_unit(gamma))
    r = (-_arb(eps)).exp()
    p = 1 - r
    c = r + p * g
    return r * (1 + r) / p ** 2 + r / p * (r + p * g * g) / c + (r + p * g ** 3) / (3 * c)


def _excess_float(beta, q23, rho, k, u):
    """L(V)/q^{2/3} - beta at V = beta q^{2/3} (float64; the search's objective, scaled to order one at every eps)."""
    x = beta * q23 * (k / rho) ** 2          # Lambda = V / r^2
    if x * (math.cosh(u) - 1) > 600 or u > 600:
        return -math.inf
    A = math.exp(-3 * x) / (2 * math.pi)
    B0 = 2 * (1 - rho ** 3) / 3
    TV = 2 * math.exp(-u * k) * (math.cosh(u) + x * math.sinh(u) ** 2) * math.exp(x * (math.cosh(u) - 1))
    return 3 * (A * B0 * B0 / 4) ** (1 / 3) - beta * TV - beta


def _root_float(q23, rho, k, u):
    """The largest beta with L(beta q^{2/3}) >= beta q^{2/3} (bisection; the excess falls with beta)."""
    if not (0 < rho < 1 and k > 0 and u > 0):
        return 0.0
    lo, hi = 0.0, 2.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _excess_float(mid, q23, rho, k, u) >= 0 else (lo, mid)
    return lo


def _search(eps):
    """Float64 parameters (rho, k, u) maximising beta (they only decide how good the bound is)."""
    from scipy.optimize import minimize

    q23 = math.exp(-2 * eps / 3)
    best, bp = 0.0, None
    # starts near the optimum's observed scaling (rho ~ e^{-eps/7.5}, k ~ 2.4, u ~ 0.39 eps) and a few fixed ones
    for rho0 in (min(0.5, 1.3 * math.exp(-eps / 7.5)), 0.5, 0.1, 0.01):
        for k0 in (2.5, 4.0):
            x0 = [rho0, k0, max(1.0, 0.39 * eps)]
            res = minimize(lambda p: -_root_float(q23, *p), x0, method="Nelder-Mead",
                           options=dict(maxiter=600, xatol=1e-9, fatol=1e-12))
            if -res.fun > best:
                best, bp = -res.fun, res.x
    return best, bp


def _rat(x):
    """A short exact rational near ``x`` (7 significant digits)."""
    return Fraction(f"{float(x):.7g}")


def variance_bound(eps):
    r"""Theorem E at :math:`\varepsilon` (:math:`\Delta = 1`): a certified :math:`V` with :math:`\operatorname{Var} Z \ge V`
    for every symmetric ID :math:`\varepsilon`-DP noise :math:`Z`, the Staircase's least variance and the ratio.

    Returns a dict: ``bound`` (a Fraction :math:`V` with :math:`L(V) > V` proved in ``arb``), ``staircase`` (the upper
    end of :func:`staircase_variance_upper`, a float rounded up), ``ratio`` (``bound/staircase`` rounded down, a
    float), ``params`` (the exact :math:`\rho, k, u`, as strings; ``None`` with ``bound`` 0 where the argument gives
    no positive bound, small :math:`\varepsilon`).  The bound holds for every smaller
    :math:`\varepsilon` too (an :math:`\varepsilon`-DP noise is :math:`\varepsilon'`-DP for :math:`\varepsilon' \ge \varepsilon`).

    >>> row = variance_bound(14)
    >>> 1.20 < row["ratio"] < 1.21
    True
    """
    eps = _positive(eps, "eps")
    beta, p = _search(float(eps))
    if beta <= 0:   # the floor argument gives nothing here (small eps): the trivial bound
        sc = math.nextafter(float(staircase_variance_upper(eps).upper()), math.inf)
        return {"eps": float(eps), "bound": Fraction(0), "staircase": sc, "ratio": 0.0, "params": None}
    rho, k, u = (_rat(x) for x in p)
    rho = min(rho, Fraction(999999, 10 ** 6))
    q23 = (-2 * _arb(eps) / 3).exp()
    V = None
    for shrink in (1e-9, 1e-6, 1e-4, 1e-2):   # rounding the parameters moved the root a little
        b = _root_float(math.exp(-2 * float(eps) / 3), float(rho), float(k), float(u)) * (1 - shrink)
        if not b > 0:
            break
        cand = Fraction(float((_arb(Fraction(b)) * q23).lower()))       # an exact float below beta q^{2/3}
        if cand > 0 and floor_bound(cand, eps, rho, k, u).lower() > _arb(cand):
            V = cand
            break
    if V is None:
        raise ValueError(f"eps = {float(eps)}: could not certify the floor bound")
    sc = staircase_variance_upper(eps)
    sc_up = math.nextafter(float(sc.upper()), math.inf)
    ratio = math.nextafter(float(V) / sc_up, 0.0)
    return {"eps": float(eps), "bound": V, "staircase": sc_up, "ratio": ratio,
            "params": {"rho": str(rho), "k": str(k), "u": str(u)}}


def staircase_scaled_upper(s_lo, s_hi):
    r"""An upper bound of :math:`\min_{\text{DP}}\operatorname{Var}/q^{2/3}` for every :math:`q^{1/3} = s \in [s_{lo}, s_{hi}]`
    (a float; :math:`s_{lo} = 0` allowed, i.e. :math:`\varepsilon \to \infty`).

    The Staircase at :math:`\gamma = (q/2)^{1/3}` (within :math:`10^{-8}` of the optimum for :math:`\varepsilon \ge 14`)
    has, divided by :math:`q^{2/3}` and written in :math:`s` (:math:`r = s^3`, :math:`p = 1 - s^3`, :math:`g = 2^{-1/3}`),

    .. math::

        \frac{s(1+s^3)}{p^2} + \frac{s^2}{p}\,\frac{s + p g^2}{s^2 + p g}
        + \frac{1 + p/2}{3(s^2 + p g)},

    a rational function with no pole on :math:`0 \le s < 1`, tending to :math:`2^{-2/3}` as :math:`s \to 0`.  It is
    evaluated on the ball :math:`[s_{lo}, s_{hi}]` in ``arb`` (every term is a valid enclosure of its range).

    >>> bool(2 ** (-2 / 3) < staircase_scaled_upper(0, 1e-3) < 2 ** (-2 / 3) * 1.004)
    True
    >>> s = math.exp(-14 / 3)                  # a point ball: the optimum's variance (distributions.staircase) is below
    >>> from arete_proofs.distributions import staircase
    >>> opt = float(staircase.var(staircase.gamma_var(14), 1, 14)) / s ** 2
    >>> bool(opt <= staircase_scaled_upper(s, s) < opt * (1 + 1e-7))
    True
    """
    flint = _flint()
    lo_f, hi_f = _gamma_unit(s_lo, "s_lo"), _gamma_unit(s_hi, "s_hi")
    if not hi_f < 1:
        raise ValueError(f"s_hi must be below 1, got {s_hi!r}")
    if not lo_f <= hi_f:
        raise ValueError(f"s_lo must be at most s_hi, got s_lo = {s_lo!r}, s_hi = {s_hi!r}")
    lo, hi = _arb(lo_f), _arb(hi_f)
    x = flint.arb((lo + hi) / 2, (hi - lo) / 2 * (1 + flint.arb(2) ** -40))   # the ball [s_lo, s_hi]
    g = flint.arb(2) ** (-flint.arb(1) / 3)
    p = 1 - x ** 3
    val = x * (1 + x ** 3) / p ** 2 + x ** 2 / p * (x + p * g * g) / (x * x + p * g) + (1 + p / 2) / (3 * (x * x + p * g))
    return math.nextafter(float(val.upper()), math.inf)


def _beta(eps):
    """(beta, row): Var >= beta q^{2/3} for every eps' >= eps (variance_bound's V rounded into beta)."""
    row = variance_bound(eps)
    b = _arb(row["bound"]) * (2 * _arb(Fraction(eps)) / 3).exp()
    return Fraction(float(b.lower())) * (1 - Fraction(1, 10 ** 12)), row


def variance_gap_interval(eps_lo, eps_hi=None, *, step="0.25", pieces=64):
    r"""A certified ratio :math:`R` with :math:`\operatorname{Var} Z \ge R\cdot\min_{\text{DP}}\operatorname{Var}` for every
    symmetric ID :math:`\varepsilon`-DP noise :math:`Z` and *every* :math:`\varepsilon \in [\varepsilon_{lo}, \varepsilon_{hi}]`
    (``eps_hi=None``: every :math:`\varepsilon \ge \varepsilon_{lo}`).

    *Why one certificate covers all larger* :math:`\varepsilon`: with :math:`V = \beta q^{2/3}`, :math:`L(V) > V` of
    Theorem E reads :math:`3(A(V)B_0^2/4)^{1/3} - \beta\,T(V)/V > \beta` (:math:`B = B_0 q`); :math:`A` decreases and
    :math:`T(V)/V` increases in :math:`V`, so with the parameters fixed the left side only grows as :math:`q` falls.
    So :func:`variance_bound` at a grid point :math:`\varepsilon_i` gives :math:`\operatorname{Var} Z \ge \beta_i q^{2/3}`
    for all :math:`\varepsilon \ge \varepsilon_i`, and on :math:`[\varepsilon_i, \varepsilon_{i+1}]` the ratio is at least
    :math:`\beta_i` over :func:`staircase_scaled_upper` of the cell (split into ``pieces`` balls).  Returns
    ``(R, rows)``, ``R`` the least cell ratio (rounded down).

    >>> R, rows = variance_gap_interval(20, step="2")
    >>> 1.235 < R < 1.2364 and rows[-1]["eps_hi"] == math.inf
    True
    """
    lo = _positive(eps_lo, "eps_lo")
    st = _positive(step, "step")
    hi = None if eps_hi is None else _positive(eps_hi, "eps_hi")
    if hi is not None and not hi > lo:
        raise ValueError(f"eps_hi must be > eps_lo, got {eps_hi!r}")
    grid = [lo]
    while hi is not None and grid[-1] < hi:
        grid.append(min(grid[-1] + st, hi))
    ends = grid[1:] + ([None] if hi is None else [])
    rows, worst = [], math.inf
    for a, b in zip(grid, ends):
        beta, row = _beta(a)
        s_hi = math.nextafter(math.exp(-float(a) / 3), 1.0)            # s = q^{1/3} falls as eps grows
        s_lo = 0.0 if b is None else math.nextafter(math.exp(-float(b) / 3), 0.0)
        cuts = [s_lo + (s_hi - s_lo) * i / pieces for i in range(pieces + 1)]
        cuts[0], cuts[-1] = s_lo, s_hi
        sc = max(staircase_scaled_upper(x, y) for x, y in zip(cuts, cuts[1:]))
        ratio = math.nextafter(float(beta) / sc, 0.0)
        rows.append({"eps_lo": float(a), "eps_hi": math.inf if b is None else float(b), "beta": float(beta),
                     "staircase_scaled": sc, "ratio": ratio, "params": row["params"]})
        worst = min(worst, ratio)
    return worst, rows


def asymptotic_variance_ratio():
    r"""Corollary E3's limit :math:`(6/\pi)^{1/3}`: the least variance of symmetric ID noise over the Staircase's as
    :math:`\varepsilon \to \infty` is at least this (a ball).

    >>> 1.2406 < float(asymptotic_variance_ratio().mid()) < 1.2408
    True
    """
    flint = _flint()
    return (6 / flint.arb.pi()) ** (flint.arb(1) / 3)


def variance_gap_table(eps_list=VARIANCE_GAP_EPS):
    r"""Rows of :func:`variance_bound` for the docs table (docs/explanation/id-lower-bounds.md, Theorem E).

    >>> [round(r["ratio"], 3) for r in variance_gap_table((20,))]
    [1.236]
    """
    return [variance_bound(e) for e in eps_list]


def variance_gap_markdown(rows):
    r"""The docs table of :func:`variance_gap_table` rows (bounds to 5 digits, ratios rounded down to 4 decimals).

    >>> print(variance_gap_markdown(variance_gap_table((16,))).splitlines()[-1].split("|")[-3].strip())
    1.2218
    """
    out = ["| ε | symmetric ID bound (Theorem E) | Staircase | ID bound / Staircase | ρ, k = ρ/r, u |",
           "|---|---|---|---|---|"]
    for r in rows:
        ratio = math.floor(r["ratio"] * 10 ** 4) / 10 ** 4
        p = r["params"]
        par = ", ".join(f"{float(Fraction(p[x])):.4g}" for x in ("rho", "k", "u"))
        out.append(f"| {r['eps']:g} | {float(r['bound']):.5g} | {r['staircase']:.5g} | {ratio:.4f} | {par} |")
    return "\n".join(out)
