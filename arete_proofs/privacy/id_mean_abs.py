r"""The mean absolute error of symmetric infinitely divisible (ID) :math:`\varepsilon`-DP noise: a certified floor.

Theorem C of :mod:`arete_proofs.privacy.id_bounds` bounds :math:`E|Z|` of every ID noise through
:math:`c_{ID} = \inf E|X|\operatorname{ess\,sup} f \ge 0.2686`.  For *symmetric* ID laws this module proves the exact
constant, :math:`1/\pi` (the Gaussian's, Lemma F1), and from it, as :mod:`arete_proofs.privacy.id_variance` does for the
variance, a floor for :math:`E|Z|` that tends to :math:`2/\sqrt\pi = 1.1284` times the Staircase's (Theorem F).  It is
above 1.10 times the Staircase for every :math:`\varepsilon \ge 14` (:func:`mean_abs_gap_from`), so no symmetric ID
noise comes within 1.10 times the Staircase's :math:`E|Z|` there.  :math:`\Delta = 1` (the ratios do not depend on
:math:`\Delta`), :math:`q = e^{-\varepsilon}`.

**Lemma F1 (the Gaussian has the least peak at a given mean absolute value).**  A symmetric ID law has
:math:`E|X|\cdot\operatorname{ess\,sup} f \ge 1/\pi`, with equality for the Gaussian.

*Proof.*  :math:`\varphi = e^{-\psi}`, :math:`\psi(t) = s^2t^2/2 + \int(1 - \cos tx)\,\nu(dx) \ge 0` (symmetric
Lévy-Khintchine).  Put :math:`A = \int_0^\infty (1 - \varphi)/t^2\,dt = \frac\pi2 E|X|` and
:math:`B = \int_0^\infty\varphi\,dt = \pi f(0)`; as :math:`\varphi \ge 0`, :math:`f(0) = \max f` (and
:math:`B = \infty` exactly when :math:`\operatorname{ess\,sup} f = \infty`, by a Gaussian smoothing as in Lemma E1).
Rescaling :math:`X` multiplies :math:`A` by :math:`s` and :math:`B` by :math:`1/s`, so it suffices to show
:math:`\Phi(\psi) := A + B \ge \sqrt{2\pi}` for every :math:`\psi`: then :math:`2\sqrt{AB} = \min_s(sA + B/s) \ge
\sqrt{2\pi}` and :math:`E|X|f(0) = 2AB/\pi^2 \ge 1/\pi`.  For :math:`\psi = ct^2`, :math:`\Phi = \sqrt{\pi c} +
\sqrt\pi/(2\sqrt c) \ge \sqrt{2\pi}` (equality at :math:`c = 1/2`).

1. *The integrand is monotone in* :math:`\psi`:  :math:`\Phi = \int_0^\infty h_t(\psi(t))\,dt`,
   :math:`h_t(y) = (1 - e^{-y})/t^2 + e^{-y}`, :math:`\partial_y h_t = e^{-y}(t^{-2} - 1)`: increasing in :math:`y` for
   :math:`t < 1`, decreasing for :math:`t > 1`.
2. *Small jumps are "at most quadratic".*  :math:`K(y) = (1 - \cos y)/y^2` decreases on :math:`(0, 2\pi)`
   (its derivative is :math:`4\sin(y/2)((y/2)\cos(y/2) - \sin(y/2))/y^3 < 0`) and :math:`K(y) \le 2/y^2 \le 1/(2\pi^2)`
   for :math:`y \ge 2\pi`.  With :math:`R = 9/2`, :math:`K(R) = 0.0598 > 1/(2\pi^2) = 0.0507`, so for
   :math:`|x| \le R`: :math:`K(tx) \ge K(x)` for :math:`t \le 1` and :math:`K(tx) \le K(x)` for :math:`t \ge 1`.  Split
   :math:`\psi = \psi_s + \psi_b` at :math:`|x| = R`; :math:`g_s(t) = \psi_s(t)/t^2 = s^2/2 + \int_{|x|\le R} x^2K(tx)\,\nu(dx)`
   is then at least :math:`c := g_s(1)` for :math:`t \le 1` and at most :math:`c` for :math:`t \ge 1`.
3. By 1 and 2, :math:`\Phi(\psi) \ge \Phi(ct^2 + \psi_b)`: on :math:`t \le 1`, :math:`\psi \ge ct^2 + \psi_b` where
   :math:`h_t` increases; on :math:`t \ge 1`, :math:`\psi \le ct^2 + \psi_b` where it decreases.
4. :math:`ct^2 + \psi_b` is the exponent of :math:`G + J`, :math:`G \sim N(0, 2c)`, :math:`J` compound Poisson with
   the jumps :math:`|x| > R` (rate :math:`\lambda = \nu(|x| > R) < \infty`, :math:`N` jumps), independent.  So
   :math:`\Phi(ct^2 + \psi_b) = E\,H(J)`, :math:`H(j) = \frac\pi2 E|G + j| + \pi f_G(j) \ge \frac\pi2|j|` (:math:`f_G` the
   density of :math:`G`, :math:`E|G + j| \ge |j|` by Jensen) and
   :math:`H(0) = \Phi(ct^2) \ge \sqrt{2\pi}`.
5. *Few big jumps* (:math:`\lambda \le 3/2`): :math:`N = 0` gives :math:`J = 0`, :math:`N = 1` gives :math:`|J| > R`, so
   :math:`E H(J) \ge e^{-\lambda}(\sqrt{2\pi} + \lambda\pi R/2) \ge \sqrt{2\pi}`, since
   :math:`1 + \lambda R\sqrt{\pi/8} - e^\lambda` is concave, 0 at :math:`\lambda = 0` and positive at :math:`3/2`.
   *Many* (:math:`\lambda \ge 3/2`): :math:`E H(J) \ge \frac\pi2 E|J| \ge \frac\pi2\frac R{\sqrt3}(1 - e^{-\lambda})
   \ge 3.17 > \sqrt{2\pi}`, by Khintchine's inequality with the elementary constant :math:`1/\sqrt3` (Hölder and
   :math:`ES^4 \le 3(ES^2)^2` for a Rademacher sum :math:`S = \sum\pm x_i`, so :math:`E|S| \ge
   (\sum x_i^2)^{1/2}/\sqrt3 \ge R\sqrt N/\sqrt3`).  :math:`\square`

The three numerical facts of the proof (:math:`K(R)`, the two cases at :math:`\lambda = 3/2`) are certified by
:func:`lemma_f1_certificate`.  The uniform law (:math:`1/4`) and :math:`N(0, 1) \pm 1` (:math:`0.2824`) break the
inequality: neither is ID.  (The Staircase does not: its flat centre and its tail each carry about :math:`\gamma/2` of
:math:`E|Z|`, so its product tends to :math:`1/2`.)  If :math:`c = 0` in step 2 there is no Gaussian part left, the law
:math:`J` has an atom and :math:`B = \infty`.  A float64 search over symmetric
ID laws with a Gaussian part and 80 jump sizes (``benchmarks/explore_id_smoothing.py --many``) finds only the
Gaussian.

**Lemma F2 (the small jumps' variance).**  A symmetric ID :math:`W` with jumps :math:`|x| \le r` and variance
:math:`v` has :math:`E|W| \ge m_r(v) := \frac2\pi\int_0^{\sqrt6/r}\frac{1 - e^{-vt^2/4}}{t^2}dt =
\frac2\pi\big(\sqrt{\pi v}/2\,\operatorname{erf}(x) - (1 - e^{-x^2})r/\sqrt6\big)`, :math:`x = \sqrt{6v}/(2r)`,
increasing in :math:`v`.  *Proof.*  :math:`1 - \cos y \ge \frac{y^2}2(1 - \frac{y^2}{12})`, so
:math:`\psi(t) \ge \frac{vt^2}2(1 - \frac{t^2r^2}{12}) \ge vt^2/4` for :math:`t \le \sqrt6/r`; then
:math:`E|W| = \frac2\pi\int_0^\infty(1 - e^{-\psi})/t^2`.  :math:`\square`  So :math:`E|W| < V` gives
:math:`v < W_r(V)`, the root of :math:`m_r(W) = V` (:func:`small_jump_variance_upper`).

**Lemma F3 (the small jumps' tail).**  With :math:`v \le W`, :math:`u = \theta r > 0`,
:math:`S = W\cosh u + (W\sinh u/r)^2`:
:math:`E[|W|; |W| \ge \rho] \le T = 2e^{-u\rho/r}\exp\big(\frac W{r^2}(\cosh u - 1)\big)\min(\sqrt S, S/\rho)`.
*Proof.*  :math:`1_{|w| \ge \rho} \le e^{\theta(|w| - \rho)} \le e^{-\theta\rho}(e^{\theta w} + e^{-\theta w})`, so by symmetry
:math:`E[|W|; |W| \ge \rho] \le 2e^{-\theta\rho}E[|W|e^{\theta W}]`, and :math:`E[|W|e^{\theta W}]` is at most
:math:`(E[W^2e^{\theta W}]E[e^{\theta W}])^{1/2}` (Cauchy-Schwarz) and at most :math:`E[W^2e^{\theta W}]/\rho` (on the
event, :math:`|W| \le W^2/\rho`; this form bounds :math:`E[W^2/\rho; |W| \ge \rho]` directly).  With the cumulant
:math:`K`, :math:`E[e^{\theta W}] = e^K` and :math:`E[W^2e^{\theta W}] = (K'' + K'^2)e^K`, and on :math:`|x| \le r`,
:math:`K \le v(\cosh u - 1)/r^2`, :math:`K' \le v\sinh u/r`, :math:`K'' \le v\cosh u` (as in Lemma E2).  :math:`\square`
(Not :math:`2e^{-\theta\rho}K'e^K`: :math:`E[We^{\theta W}]` is not :math:`E[|W|e^{\theta W}]`, and it tends to 0 with
:math:`\theta` while the left side at :math:`\rho \to 0` is :math:`E|W|`; the tests catch that variant.)

**Theorem F (a floor for the mean absolute error).**  Let :math:`Z` be symmetric, ID and :math:`\varepsilon`-DP
(:math:`\Delta = 1`), :math:`V > 0`, :math:`r > \sqrt3 V`, :math:`0 < \rho < 1`, :math:`u > 0`, :math:`W = W_r(V)`,
:math:`T` as in F3, :math:`\beta = q(1 - \rho^2)`, :math:`h(\lambda) = \max((1 - e^{-\lambda})/\sqrt3, \lambda e^{-\lambda})`
and

.. math::

    L(V) = \inf_{\lambda \ge 0,\ r h(\lambda) < V}\ \inf_{M > 0}\ \Big(\frac{e^{-2\lambda}}{\pi M}
    + \max\big(\beta M - T,\ r h(\lambda)\big)\Big).

If :math:`L(V) > V` then :math:`E|Z| \ge V`.

*Proof.*  Suppose :math:`E|Z| < V`; :math:`M = \operatorname{ess\,sup} f < \infty`.  Split the Lévy measure at
:math:`r`: :math:`Z = Z_s + Z_b` as in Theorem E (:math:`N` big jumps, rate :math:`\lambda`).

1. *Big jumps.*  :math:`E|Z| \ge E|Z_b|` (:math:`Z_s` is symmetric and independent) :math:`\ge r h(\lambda)`:
   the event :math:`N = 1` gives :math:`\lambda e^{-\lambda}r`, Khintchine (F1, step 5) gives :math:`(1 - e^{-\lambda})r/\sqrt3`.
   So :math:`r h(\lambda) < V`.
2. *Centre.*  The law of :math:`Z` is at least :math:`e^{-\lambda}` times that of :math:`Z_s`, so
   :math:`\operatorname{ess\,sup} f_{Z_s} \le e^\lambda M` and Lemma F1 gives :math:`E|Z_s| \ge e^{-\lambda}/(\pi M)`.
3. *Floor.*  DP puts :math:`f \ge qM(1 - \delta)` a.e. on an interval :math:`I` of length 2 (Theorem C), and
   :math:`\int_I|x|1_{|x| \ge \rho} \ge 1 - \rho^2`: :math:`E[|Z|; |Z| \ge \rho] \ge qM(1-\delta)(1 - \rho^2)`.
4. *Split by* :math:`N`: :math:`E|Z| = e^{-\lambda}E|Z_s| + E[|Z|; N \ge 1]`, and :math:`E[|Z|; N \ge 1]` is at least
   :math:`E|Z_b|` (conditional Jensen) and at least :math:`E[|Z|; |Z| \ge \rho] - e^{-\lambda}E[|Z_s|; |Z_s| \ge \rho]`
   (on :math:`N = 0`, :math:`Z = Z_s`).  By F2, :math:`E|Z_s| \le E|Z| < V` gives :math:`\operatorname{Var}Z_s < W`, and
   F3 bounds the last term by :math:`T`.

So :math:`E|Z| \ge e^{-2\lambda}/(\pi M) + \max(qM(1-\delta)(1 - \rho^2) - T, r h(\lambda)) \ge L(V) - O(\delta)`,
and :math:`L(V) > V > E|Z|` is a contradiction for small :math:`\delta`.  :math:`\square`
The inner infimum is :math:`f(\hat M)`, :math:`f(M) = a/M + \beta M - T`, :math:`\hat M = \max(\sqrt{a/\beta},
(\gamma + T)/\beta)` (:math:`a = e^{-2\lambda}/\pi`, :math:`\gamma = r h`); it increases in :math:`a`, :math:`\gamma`
and :math:`\beta`, so a cell :math:`[\lambda_0, \lambda_1]` is bounded below with :math:`a(\lambda_1)` and the least
:math:`h` on the cell (:func:`floor_bound`: branch and bound over :math:`\lambda` in ``arb``).

**Corollary F4.**  With :math:`r = k_r V`, :math:`\rho = kr` and :math:`V = b\sqrt q`, every term of :math:`L(V)/V`
is independent of :math:`q` except :math:`1 - \rho^2`, which grows as :math:`q` falls (:math:`W = wV^2` with
:math:`w` fixed: :math:`m_r(wV^2)/V` depends on :math:`w, k_r` only).  So a certificate :math:`E|Z| \ge b\sqrt{q_0}` at
:math:`\varepsilon_0` gives :math:`E|Z| \ge b\sqrt q` for every :math:`\varepsilon \ge \varepsilon_0`, and with the
Staircase's :math:`E|SC_{\gamma^*}| = \sqrt q/(1 - q)` a ratio :math:`\ge b(1 - q_0)` for all of them
(:func:`mean_abs_gap_from`).  As :math:`\varepsilon \to \infty` (:math:`k_r \to \infty`, then :math:`\rho \to 0`) the
ratio tends to at least :math:`2/\sqrt\pi = 1.12838`: the Gaussian centre's cost in the heuristic model of
docs/explanation/lattice-gaussian.md, here proved for symmetric noise (:func:`asymptotic_mean_abs_ratio`).

Every bound is an ``arb`` ball from exact rational parameters; the parameters :math:`(k_r, k, u)` come from a
float64 search and decide only how good the bound is.

>>> row = mean_abs_bound(20)
>>> 1.12 < row["ratio"] < 2 / math.sqrt(math.pi)
True
"""

from __future__ import annotations

import math
from fractions import Fraction

from .id_bounds import _flint
from .id_variance import _arb, _positive, _rat    # the exact-argument helpers Theorem E uses

__all__ = [
    "F1_R",
    "F1_SPLIT",
    "peak_lower",
    "lemma_f1_certificate",
    "small_jump_mean_abs_lower",
    "small_jump_variance_upper",
    "small_jump_abs_tail",
    "floor_bound",
    "mean_abs_bound",
    "mean_abs_gap_from",
    "asymptotic_mean_abs_ratio",
    "mean_abs_gap_table",
    "mean_abs_gap_markdown",
    "MEAN_ABS_GAP_EPS",
]

#: Lemma F1's split of the jumps (:math:`|x| \le R` small) and of their rate (:math:`\lambda \le 3/2` few).
F1_R = Fraction(9, 2)
F1_SPLIT = Fraction(3, 2)

#: The epsilons of the docs table (docs/explanation/id-lower-bounds.md, Theorem F).
MEAN_ABS_GAP_EPS = (8, 10, 12, 13, 14, 15, 16, 18, 20, 25, 30, 40)

_LAM_GRID = [(i / 400) ** 2 for i in range(401)]   # the float search's lambda grid on [0, 1], scaled
_PREC = 128      # bits of the balls (the erf form of m_r cancels when its x is small)
_MAX_CELLS = 20000


def peak_lower(mean_abs):
    r"""Lemma F1: :math:`1/(\pi E|X|) \le \operatorname{ess\,sup} f` for every symmetric ID law (a ball).

    Equality for the Gaussian; the Laplace law (:math:`E|X| = b`, :math:`\sup f = 1/(2b)`) is above it, the uniform
    law on :math:`[-1, 1]` (:math:`E|X| = 1/2`, :math:`\sup f = 1/2`; not ID) below:

    >>> b = 0.7
    >>> bool(peak_lower(b).upper() < 1 / (2 * b)), bool(peak_lower(0.5).lower() > 0.5)
    (True, True)
    """
    m = _arb(_positive(mean_abs, "mean_abs"))
    return 1 / (_flint().arb.pi() * m)


def lemma_f1_certificate(R=F1_R, split=F1_SPLIT):
    r"""The numerical steps of Lemma F1's proof, certified in ``arb`` for the jump split ``R`` and rate split ``split``.

    Returns a dict of balls and verdicts: ``K(R)`` against :math:`1/(2\pi^2)` (step 2: needs :math:`R < 2\pi` and
    :math:`K(R) > 1/(2\pi^2)`), ``few`` :math:`= 1 + \lambda R\sqrt{\pi/8} - e^\lambda` at :math:`\lambda =` ``split``
    (step 5: must be :math:`> 0`; the function is concave and 0 at 0), ``many`` :math:`= \frac\pi2\frac R{\sqrt3}(1 -
    e^{-\lambda})` against :math:`\sqrt{2\pi}` (step 5), and ``holds``.  Another choice can fail (the tests show
    that a too large ``R`` or a misplaced ``split`` is refused).

    >>> c = lemma_f1_certificate()
    >>> c["holds"], 0.0597 < float(c["K_R"].mid()) < 0.0599
    (True, True)
    >>> lemma_f1_certificate(R=5)["holds"]          # K(5) = 0.0287 is below 1/(2 pi^2): the split fails
    False
    """
    flint = _flint()
    R = _positive(R, "R")
    lam = _positive(split, "split")
    with flint.ctx.extraprec(_PREC):
        pi = flint.arb.pi()
        r, l = _arb(R), _arb(lam)
        K = (1 - r.cos()) / (r * r)
        tail = 1 / (2 * pi * pi)
        few = 1 + l * r * (pi / 8).sqrt() - l.exp()
        many = pi / 2 * r / flint.arb(3).sqrt() * (1 - (-l).exp())
        target = (2 * pi).sqrt()
        ok = bool(r.upper() < (2 * pi).lower() and K.lower() > tail.upper()
                  and few.lower() > 0 and many.lower() > target.upper())
    return {"R": str(R), "split": str(lam), "K_R": K, "tail_max": tail, "few": few, "many": many,
            "sqrt_2pi": target, "holds": ok}


def small_jump_mean_abs_lower(v, r):
    r"""Lemma F2: the ball :math:`m_r(v)`, a lower bound of :math:`E|W|` for symmetric ID :math:`W` with jumps
    :math:`|x| \le r` and variance :math:`v`.

    A Gaussian of variance :math:`v` (no jumps: any :math:`r`) has :math:`E|W| = \sqrt{2v/\pi}`, above it:

    >>> bool(small_jump_mean_abs_lower(0.01, 0.05).upper() < math.sqrt(2 * 0.01 / math.pi))
    True
    """
    flint = _flint()
    v, r = _positive(v, "v"), _positive(r, "r")
    with flint.ctx.extraprec(_PREC):
        v, r = _arb(v), _arb(r)
        x = (6 * v).sqrt() / (2 * r)
        pi = flint.arb.pi()
        return 2 / pi * ((pi * v).sqrt() / 2 * x.erf() - (1 - (-x * x).exp()) * r / flint.arb(6).sqrt())


def _m_float(v, r):
    """m_r(v) in float64 (series where x is small: the erf form cancels)."""
    x = math.sqrt(6 * v) / (2 * r)
    if x < 1e-3:   # (2/pi) (v/4) t1 (1 - x^2/6 + x^4/30 ...),  t1 = sqrt(6)/r
        return 2 / math.pi * (v / 4) * (math.sqrt(6) / r) * (1 - x * x / 6 + x ** 4 / 30)
    return 2 / math.pi * (math.sqrt(math.pi * v) / 2 * math.erf(x) - (1 - math.exp(-x * x)) * r / math.sqrt(6))


def _w_float(kr):
    """w with m_r(w V^2) = V at r = kr V (independent of V: Corollary F4), by bisection in float64."""
    lo, hi = 0.0, 1.0
    while _m_float(hi, kr) < 1:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _m_float(mid, kr) < 1 else (lo, mid)
    return hi


def small_jump_variance_upper(V, r):
    r"""Lemma F2 inverted: an exact :math:`W` (a Fraction) with :math:`m_r(W) \ge V` proved, so a symmetric ID
    :math:`W'` with jumps :math:`|x| \le r` and :math:`E|W'| < V` has variance below :math:`W`.

    >>> W = small_jump_variance_upper(Fraction(1, 1000), Fraction(1, 100))
    >>> bool(small_jump_mean_abs_lower(W, Fraction(1, 100)).lower() >= 1 / _arb(Fraction(1000)))
    True
    """
    V, r = _positive(V, "V"), _positive(r, "r")
    w = _w_float(float(r / V))
    for bump in (1e-12, 1e-9, 1e-6, 1e-3):
        W = Fraction(w * (1 + bump)) * V * V
        if small_jump_mean_abs_lower(W, r).lower() >= _arb(V):
            return W
    raise ValueError(f"could not certify the small jumps' variance at V = {float(V)!r}, r = {float(r)!r}")


def small_jump_abs_tail(W, r, rho, u):
    r"""Lemma F3: the ball :math:`T = 2e^{-u\rho/r}\exp(\frac W{r^2}(\cosh u - 1))\min(\sqrt S, S/\rho)`,
    :math:`S = W\cosh u + (W\sinh u/r)^2`, an upper bound of :math:`E[|W'|; |W'| \ge \rho]` for symmetric ID
    :math:`W'` with jumps :math:`|x| \le r` and variance at most :math:`W`.

    A Gaussian (no jumps at all) of variance :math:`W` obeys it, far out and near 0 (where the left side is
    :math:`E|W'|`):

    >>> from scipy.stats import norm
    >>> exact = 2 * 0.1 * norm.pdf(3.0)          # E[|W|; |W| >= 0.3] = 2 s phi(rho/s), W ~ N(0, 0.01)
    >>> bool(exact < small_jump_abs_tail(0.01, 0.05, 0.3, 2).lower())
    True
    >>> bool(2 * 0.1 * norm.pdf(0.0) < small_jump_abs_tail(0.01, 0.05, 1e-9, 1e-9).lower())
    True
    """
    flint = _flint()
    W, r, rho, u = (_positive(x, n) for x, n in ((W, "W"), (r, "r"), (rho, "rho"), (u, "u")))
    with flint.ctx.extraprec(_PREC):
        W, r, rho, u = (_arb(x) for x in (W, r, rho, u))
        S = W * u.cosh() + (W * u.sinh() / r) ** 2
        return 2 * (-u * rho / r).exp() * (W / (r * r) * (u.cosh() - 1)).exp() * S.sqrt().min(S / rho)


def _h_low(l0, l1):
    """A lower bound of h = max((1 - e^-l)/sqrt3, l e^-l) on [l0, l1] (arb balls; l e^-l is unimodal)."""
    flint = _flint()
    k = (1 - (-l0).exp()) / flint.arb(3).sqrt()
    return k.max((l0 * (-l0).exp()).min(l1 * (-l1).exp()))


def _inner(a, beta, gamma, T):
    r"""A lower bound of :math:`\inf_M a/M + \max(\beta M - T, \gamma)` (balls): :math:`2\sqrt{a\beta} - T` always, and
    :math:`a/M_c + \gamma` where :math:`M_c = (\gamma + T)/\beta` is certainly past :math:`\sqrt{a/\beta}`."""
    low = 2 * (a * beta).sqrt() - T
    Mc = (gamma + T) / beta
    if Mc.lower() > (a / beta).sqrt().upper():
        low = low.max(a / Mc + gamma)
    return low


def floor_bound(V, eps, kr, k, u, *, max_cells=_MAX_CELLS):
    r"""Theorem F's test at :math:`V`: ``(holds, cells, worst)`` with ``holds`` True when :math:`L(V) > V` is proved in
    ``arb`` (so :math:`E|Z| \ge V` for symmetric ID :math:`\varepsilon`-DP noise, :math:`\Delta = 1`).

    Parameters are exact: :math:`r = k_r V` (``kr``), :math:`\rho = kr` (``k``), :math:`u = \theta r`.  Branch and bound
    over :math:`\lambda \in [0, -\ln(1 - \sqrt3/k_r)]` (beyond, :math:`r h(\lambda) \ge V`), a cell proved when its lower
    bound exceeds :math:`V`; ``worst`` is the least cell bound over :math:`V` (a float), ``cells`` the number used.

    >>> floor_bound(Fraction(11, 10) * Fraction(math.exp(-10)), 20, 290, 3, 6)[0]      # 1.1 sqrt(q) at eps 20
    True
    >>> floor_bound(Fraction(12, 10) * Fraction(math.exp(-10)), 20, 290, 3, 6)[0]      # 1.2 sqrt(q): not proved
    False
    """
    flint = _flint()
    V, kr, k, u = (_positive(x, n) for x, n in ((V, "V"), (kr, "kr"), (k, "k"), (u, "u")))
    eps = _positive(eps, "eps")
    r = kr * V
    rho = k * r
    if not (kr * kr > 3 and rho < 1):
        return False, 0, -math.inf
    W = small_jump_variance_upper(V, r)
    with flint.ctx.extraprec(_PREC):
        Va, ra = _arb(V), _arb(r)
        T = small_jump_abs_tail(W, r, rho, u)
        beta = (-_arb(eps)).exp() * (1 - _arb(rho) ** 2)
        pi = flint.arb.pi()
        lam_max = -(1 - flint.arb(3).sqrt() / _arb(kr)).log()
        stack = [(flint.arb(0), flint.arb(lam_max.upper()))]
        cells, worst = 0, math.inf
        while stack:
            l0, l1 = stack.pop()
            cells += 1
            if cells > max_cells:
                return False, cells, worst
            a = (-2 * l1).exp() / pi
            gamma = ra * _h_low(l0, l1)
            if gamma.lower() >= Va.upper():        # r h >= V on the whole cell: excluded by step 1
                continue
            low = _inner(a, beta, gamma, T)
            if low.lower() > Va.upper():
                worst = min(worst, float(low.lower() / Va.upper()))
                continue
            if float((l1 - l0).upper()) < 1e-12:    # cannot split further: not proved
                return False, cells, float(low.lower() / Va.upper())
            mid = flint.arb(((l0 + l1) / 2).mid())
            stack += [(l0, mid), (mid, l1)]
    return True, cells, worst


def _excess_float(b, q, kr, k, u, w):
    """L(V)/V - 1 at V = b sqrt(q) (float64, scaled: see Corollary F4; the search's objective)."""
    import numpy as np

    if not (kr * kr > 3 and k > 0 and u > 0) or w * (math.cosh(u) - 1) / kr ** 2 > 600 or u > 600:
        return -math.inf
    rho = k * kr * b * math.sqrt(q)
    if rho >= 1:
        return -math.inf
    # T / V of Lemma F3 in the scaled variables: W = w V^2, r = kr V, rho = k r
    S = w * math.cosh(u) + (w * math.sinh(u) / kr) ** 2            # S / V^2
    tau = 2 * math.exp(-u * k) * math.exp(w * (math.cosh(u) - 1) / kr ** 2) * min(math.sqrt(S), S / (k * kr))
    one = 1 - rho * rho       # beta / q
    t = tau * b               # T / sqrt(q)
    lam = -math.log(1 - math.sqrt(3) / kr) * np.asarray(_LAM_GRID)     # denser near 0, where the minimum sits
    a = np.exp(-2 * lam) / math.pi
    g = kr * b * np.maximum((1 - np.exp(-lam)) / math.sqrt(3), lam * np.exp(-lam))
    M = np.maximum(np.sqrt(a / one), (g + t) / one)
    val = np.where(g < b, a / M + one * M - t, np.inf)
    return float(val.min()) / b - 1


def _root_float(q, kr, k, u):
    """The largest b with L(b sqrt q) >= b sqrt q (the excess falls with b; 0 if none)."""
    from scipy.optimize import brentq

    if not (kr * kr > 3 and k > 0 and u > 0):
        return 0.0
    try:
        w = _w_float(kr)
        f = lambda b: _excess_float(b, q, kr, k, u, w)    # noqa: E731
        if not f(1e-9) > 0:
            return 0.0
        hi = 2.0
        while f(hi) > 0:
            hi *= 2
        return brentq(f, 1e-9, hi, xtol=1e-12)
    except OverflowError:     # parameters far out (the search wanders): no bound from them
        return 0.0


def _search(eps):
    """Float64 parameters (kr, k, u) maximising b (they only decide how good the bound is)."""
    from scipy.optimize import minimize

    q = math.exp(-eps)
    best, bp = 0.0, None
    # starts near the optimum's observed scaling (kr ~ 0.1 e^{eps/3}, k ~ 3.3, u ~ 0.3 eps) and a few fixed ones
    for kr0 in (max(3.0, 0.1 * math.exp(eps / 3)), 10.0):
        for u0 in (max(1.0, 0.3 * eps),):
            x0 = [math.log(kr0), math.log(3.3), math.log(u0)]
            res = minimize(lambda p: -_root_float(q, *(math.exp(min(max(x, -40), 40)) for x in p)), x0, method="Nelder-Mead",
                           options=dict(maxiter=400, xatol=1e-7, fatol=1e-10))
            if -res.fun > best:
                best, bp = -res.fun, [math.exp(min(max(x, -40), 40)) for x in res.x]
    return best, bp


def _staircase_mean_abs_upper(eps):
    r"""The upper end of :math:`\sqrt q/(1 - q)`, the Staircase's least :math:`E|Z|` (Lemma 27, :math:`\Delta = 1`), a float."""
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        q = (-_arb(eps)).exp()
        sc = q.sqrt() / (1 - q)
    return math.nextafter(float(sc.upper()), math.inf)


def mean_abs_bound(eps):
    r"""Theorem F at :math:`\varepsilon` (:math:`\Delta = 1`): a certified :math:`V` with :math:`E|Z| \ge V` for every
    symmetric ID :math:`\varepsilon`-DP noise :math:`Z`, the Staircase's least :math:`E|Z|` and the ratio.

    Returns a dict: ``bound`` (a Fraction :math:`V`, :math:`L(V) > V` proved), ``staircase`` (:math:`\sqrt q/(1-q)`
    rounded up), ``ratio`` (rounded down), ``params`` (exact :math:`k_r, k, u` as strings; ``None`` with ``bound`` 0
    where the argument gives no positive bound), ``cells`` (of the branch and bound).  The bound holds for every
    smaller :math:`\varepsilon` too, and (Corollary F4) :math:`E|Z| \ge (V/\sqrt{q})\sqrt{q'}` at every larger one.

    >>> row = mean_abs_bound(14)
    >>> 1.10 < row["ratio"] < 1.11
    True
    """
    eps = _positive(eps, "eps")
    sc_up = _staircase_mean_abs_upper(eps)
    # past eps 60 the search runs at 60: its scaled parameters carry over to every larger eps (Corollary F4), and
    # the certificate below is still made at eps itself
    e_s = min(float(eps), 60.0)
    b, p = _search(e_s)
    empty = {"eps": float(eps), "bound": Fraction(0), "staircase": sc_up, "ratio": 0.0, "params": None, "cells": 0}
    if b <= 0 or p is None:   # the argument gives nothing here (small eps): the trivial bound
        return empty
    kr, k, u = (_rat(x) for x in p)
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        sq = (-_arb(eps) / 2).exp()
    for shrink in (1e-6, 1e-5, 1e-4, 1e-3, 1e-2):   # rounding the parameters moved the root a little
        bb = _root_float(math.exp(-e_s), float(kr), float(k), float(u)) * (1 - shrink)
        if not bb > 0:
            break
        V = Fraction(float((_arb(Fraction(bb)) * sq).lower()))    # an exact float below b sqrt(q)
        ok, cells, _ = floor_bound(V, eps, kr, k, u)
        if ok:
            ratio = math.nextafter(float(V) / sc_up, 0.0)
            return {"eps": float(eps), "bound": V, "staircase": sc_up, "ratio": ratio,
                    "params": {"kr": str(kr), "k": str(k), "u": str(u)}, "cells": cells}
    raise ValueError(f"eps = {float(eps)}: could not certify the floor bound")


def mean_abs_gap_from(eps0):
    r"""Corollary F4: a ratio :math:`R` with :math:`E|Z| \ge R\cdot\min_{\text{DP}}E|Z|` for every symmetric ID
    :math:`\varepsilon`-DP noise :math:`Z` and *every* :math:`\varepsilon \ge \varepsilon_0`.

    :func:`mean_abs_bound` at :math:`\varepsilon_0` proves :math:`E|Z| \ge b\sqrt{q_0}` with scaled parameters, which
    (Corollary F4) gives :math:`E|Z| \ge b\sqrt q` at every larger :math:`\varepsilon`; the Staircase's is
    :math:`\sqrt q/(1 - q)`, so :math:`R = b(1 - q_0)` (rounded down).  Returns ``(R, row)``.

    >>> R, row = mean_abs_gap_from(14)
    >>> 1.10 < R < 1.11
    True
    """
    row = mean_abs_bound(eps0)
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        e = _arb(_positive(eps0, "eps0"))
        ratio = _arb(row["bound"]) * (e / 2).exp() * (1 - (-e).exp())
    return math.nextafter(float(ratio.lower()), 0.0), row


def asymptotic_mean_abs_ratio():
    r"""Corollary F4's limit :math:`2/\sqrt\pi`: the least :math:`E|Z|` of symmetric ID noise over the Staircase's as
    :math:`\varepsilon \to \infty` is at least this (a ball).

    >>> 1.1283 < float(asymptotic_mean_abs_ratio().mid()) < 1.1284
    True
    """
    flint = _flint()
    return 2 / flint.arb.pi().sqrt()


def mean_abs_gap_table(eps_list=MEAN_ABS_GAP_EPS):
    r"""Rows of :func:`mean_abs_bound` for the docs table (docs/explanation/id-lower-bounds.md, Theorem F).

    >>> [round(r["ratio"], 2) for r in mean_abs_gap_table((20,))]
    [1.13]
    """
    return [mean_abs_bound(e) for e in eps_list]


def mean_abs_gap_markdown(rows):
    r"""The docs table of :func:`mean_abs_gap_table` rows (bounds to 5 digits, ratios rounded down to 4 decimals).

    >>> print(mean_abs_gap_markdown(mean_abs_gap_table((16,))).splitlines()[-1].split("|")[4].strip())
    1.1157
    """
    out = ["| ε | symmetric ID bound (Theorem F) | Staircase | ID bound / Staircase | k_r = r/V, k = ρ/r, u |",
           "|---|---|---|---|---|"]
    for r in rows:
        ratio = math.floor(r["ratio"] * 10 ** 4) / 10 ** 4
        p = r["params"]
        par = "—" if p is None else ", ".join(f"{float(Fraction(p[x])):.4g}" for x in ("kr", "k", "u"))
        out.append(f"| {r['eps']:g} | {float(r['bound']):.5g} | {r['staircase']:.5g} | {ratio:.4f} | {par} |")
    return "\n".join(out)
