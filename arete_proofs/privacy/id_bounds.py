r"""Lower bounds for infinitely divisible (ID) :math:`\varepsilon`-DP noise.

The Staircase :math:`SC(\gamma, \Delta)` (paper, Lemma 27) has the least :math:`E|Z|` of all
additive :math:`\varepsilon`-DP noise (Geng and Viswanath 2016).  This module proves, with
ball-arithmetic certificates (python-flint ``arb``) where a number is involved:

**Theorem A (the Staircase is not ID).** For every :math:`\varepsilon > 0`,
:math:`\Delta > 0` and :math:`\gamma \in [0, 1]`, :math:`SC(\gamma, \Delta)` is not
infinitely divisible.

*Proof.* Scale to :math:`\Delta = 1`; write :math:`q = e^{-\varepsilon}`, :math:`g = \gamma`.
The density is :math:`a` on :math:`[0, g)` and :math:`a q^k` on :math:`[g+k-1, g+k)`,
:math:`k \ge 1`, mirrored, with :math:`a = (1-q)/(2(g + q(1-g)))`.  Summing the geometric
series of the pieces' integrals,

.. math::

    \varphi(w) = E\cos(wZ) = \frac{2a}{w}\Big[\sin(wg)
        + \operatorname{Im}\frac{e^{iwg}\,q\,(e^{iw} - 1)}{1 - q e^{iw}}\Big]
    \qquad (w \ne 0)

(:func:`staircase_cf`; the tests compare it with ``mpmath.quad`` of the density times
:math:`\cos wt`).  At :math:`w = m\pi/g` with :math:`m` odd, :math:`e^{iwg} = -1` and
(sympy, in the tests) :math:`\operatorname{Im}[(e^{iw}-1)/(1-qe^{iw})] = (1-q)\sin w/|1-qe^{iw}|^2`,
so

.. math::

    \varphi(m\pi/g) = -\frac{2a}{w}\,\frac{q(1-q)\sin w}{1 - 2q\cos w + q^2}.

*Lemma (odd multiples).* For every real :math:`x` that is not an integer there is an odd
:math:`m` with :math:`\sin(m\pi x) > 0`; for integer :math:`x`, :math:`\sin(m\pi x) = 0`.
Proof: let :math:`r = x \bmod 2`.  If :math:`r \in (0,1)` take :math:`m = 1`.  Else
:math:`r = 1 + y`, :math:`y \in (0, 1)`, and :math:`m x \equiv 1 + m y \pmod 2` for odd
:math:`m`, so we need :math:`my \bmod 2 \in (1, 2)`.  The points :math:`(2j+1)y` move by
:math:`s = 2y` per step.  If :math:`y \le 1/2` (:math:`s \le 1`) the first :math:`j` with
:math:`y + js \ge 1` has :math:`y + js < 1 + s \le 2`, and if it equals 1 then :math:`y < 1/2`
and the next point :math:`1 + s \in (1, 2)`.  If :math:`y > 1/2`, the step is
:math:`-(2 - 2y) \in (-1, 0)` modulo 2, and the first point below 0 lies in
:math:`(-1, 0) \equiv (1, 2)`. :math:`\square` (:func:`odd_multiple` follows this proof with
exact rationals.)

With :math:`x = 1/g`: if :math:`1/g` is not an integer, :math:`\varphi < 0` at
:math:`w = m\pi/g`; if it is (also :math:`g = 1`, and :math:`g = 0`, the same law as
:math:`g = 1`), :math:`\varphi(\pi/g) = 0`.  An ID characteristic function never vanishes
(Sato, *Lévy processes*, Lemma 7.5), and a real one that is 1 at 0, continuous and without
zeros is positive. :math:`\square`  :func:`certify_staircase_not_id` evaluates the *full*
closed form in ``arb`` at that point (an independent check of the simplification) and
certifies its sign.

**Proposition A' (the discrete staircase, partly).** The discrete staircase on
:math:`\mathbb Z` (integer :math:`\Delta`, :math:`r \in \{1, \dots, \Delta\}`: weight 1 on
:math:`0 \le i < r`, :math:`q` on :math:`r \le i < \Delta`, times :math:`q^k` on the
:math:`k`-th block, mirrored) has (:func:`discrete_staircase_cf`, normalised by
:math:`N = 2(r + q(\Delta - r))/(1-q) - 1`)
:math:`\varphi(2\pi/\Delta) = \sin((2r-1)\pi/\Delta)/(N\sin(\pi/\Delta))` for
:math:`\Delta \ge 2` (at :math:`w = 2\pi/\Delta` the block sum is :math:`S_r(1-q)` and
:math:`2\operatorname{Re}S_r - 1` is the Dirichlet kernel), so it is **not ID for**
:math:`r \ge (\Delta+1)/2`.  At :math:`\Delta = 1` it is the discrete Laplace law, which
*is* ID (a difference of two geometric laws).  Not proved, float64 only
(:func:`discrete_levy_weights`): :math:`\Delta = 2, r = 1` looks ID (all lattice Lévy
weights :math:`\ge 0`), :math:`\Delta \ge 3, r = 1` not (a negative weight at
:math:`\Delta + 1`), and for :math:`r \ge 2` the characteristic function has negative values.

**Proposition B (attainment).** Let :math:`\mathcal C` be the ID laws that are
:math:`\varepsilon`-DP (:math:`\mu(A) \le e^\varepsilon\mu(A+s)`, all Borel :math:`A`,
:math:`|s| \le \Delta`).  Then :math:`\inf_{\mathcal C} E|Z|` is attained. *Proof.*
(i) DP laws have a density :math:`\le e^\varepsilon/\Delta`: integrate
:math:`\mu(A) \le e^\varepsilon\mu(A+s)` over :math:`s \in [0, \Delta]`.  (ii) DP is closed
under weak limits: for open :math:`I` and its closure :math:`\bar I`,
:math:`\mu(I) \le \liminf\mu_n(I) \le e^\varepsilon\limsup\mu_n(\bar I + s) \le
e^\varepsilon\mu(\bar I + s)`; letting :math:`I` shrink to a point shows every atom
:math:`x` would give atoms of mass :math:`\ge e^{-\varepsilon}\mu\{x\}` at all of
:math:`x + [-\Delta, \Delta]`, so :math:`\mu` has none, :math:`\mu(\bar I + s) = \mu(I+s)`,
and the inequality extends from finite unions of intervals to Borel sets.  (iii) ID is closed
under weak limits (Sato, Lemma 7.8).  (iv) :math:`E|Z|` is lower semicontinuous and
:math:`P(|Z| > R) \le E|Z|/R` gives tightness (Prokhorov). :math:`\square`  So the ID class
reaches the Staircase's :math:`E|Z|` at some :math:`\varepsilon` iff some
:math:`E|Z|`-optimal DP law is ID.  Geng and Viswanath's theorem (as read from its
statement and abstract) is that the infimum over all DP noise is attained *within* the
staircase family; it does not claim that every optimal law is a staircase.  With that uniqueness, A + B would give a strict gap at every
:math:`\varepsilon`; without it, C' below gives one for :math:`\varepsilon \ge 7.1`.

**Theorem C (a certified gap).** Let :math:`Z` be ID and :math:`\varepsilon`-DP
(:math:`\Delta = 1`), with density :math:`f`, :math:`M = \operatorname{ess\,sup} f`,
:math:`y = 2M`.  Then :math:`E|Z| \ge \inf_{y>0} G(y)` with

.. math::

    G(y) = \frac{1/2 + D(y) + \tfrac q2 (y-1)_+^2}{y},

where :math:`D(y) = \max_k D_k(y)` (the code takes :math:`k = 2, \dots, 5`) and
:math:`D_k(y)` is the least :math:`D \ge 0` with, for :math:`P = qy < 1`, :math:`c = 1 - P`,
:math:`w = \pi/k` (:math:`D_k = 0` when :math:`P \ge 1`),

.. math::

    \frac{\pi}{c} D + \min(P, \tfrac{2q}{\pi}) \;\ge\;
    \Big(c\,\frac{\sin w}{w} - \frac{w}{c} D - \min(P, \tfrac{2qk}{\pi})\Big)_+^{k^2}.

*Proof.* (1) If :math:`f(x_0) > M - \delta` at a Lebesgue point, DP gives
:math:`\mu([t-h, t+h]) \ge q\mu([x_0-h, x_0+h])` for :math:`|t - x_0| \le 1`, so
:math:`f \ge q(M - \delta)` a.e. on :math:`J = [x_0-1, x_0+1]`.  (2) Let :math:`X = 2MZ`
(density :math:`\le 1/2`, ID).  On :math:`2MJ` (length :math:`2y`) :math:`f_X \ge \rho/2`,
:math:`\rho = q(1-\delta/M)`; let :math:`h_b = \frac\rho2 1_{2MJ\setminus[-1,1]}`, of mass
:math:`p_b \le \rho y \le P`, and :math:`c = 1 - p_b`.  Compare with the uniform part
:math:`u = \frac12 1_{[-c,c]}` (mass :math:`c`): :math:`f_X = u - h_1 + h_a + h_b` with
:math:`h_1 = u - f_X \ge 0` on :math:`[-c, c]`, :math:`h_a + h_b = f_X` outside, and
:math:`h_a, h_1` of equal mass.  Then :math:`E|X| = \frac{c^2}2 + D + \int|x|h_b =
\frac12 + \frac{p_b^2}2 + D + D_b`, with :math:`D = \int h_1(c-|x|) + \int h_a(|x|-c) \ge 0`
and :math:`D_b = \int h_b(|x|-1) \ge \frac\rho2 (y-1)_+^2` (the interval of length
:math:`2y` minimising it is centred).  (3) At :math:`w_0 = \pi/c` the uniform part vanishes;
writing :math:`e^{iw_0x} = e^{iw_0c\,\mathrm{sgn}\,x} + (\dots)` with
:math:`e^{\pm i\pi} = -1` and equal masses, :math:`|\int(h_a - h_1)e^{iw_0x}| \le w_0D`;
and :math:`|\int h_b e^{iw_0x}| \le \min(p_b, 2\rho/w_0)` (:math:`|\int_a^b e^{iwx}dx| \le
2/w`, two intervals).  So :math:`|\varphi_X(\pi/c)| \le \frac\pi c D + \min(p_b, 2\rho c/\pi)`.
Likewise, with :math:`\cos wx = \cos wc + (\cos w|x| - \cos wc)`,
:math:`\operatorname{Re}\varphi_X(\pi/(kc)) \ge c\frac{\sin w}{w} - \frac wc D -
\min(p_b, 2\rho kc/\pi)`, :math:`w = \pi/k`.  (4) For ID laws :math:`|\varphi(kw)| \ge |\varphi(w)|^{k^2}`: by
Lévy-Khintchine :math:`-\ln|\varphi(w)| = \sigma^2w^2/2 + \int(1 - \cos wx)\,\nu(dx)` and
:math:`1 - \cos k\theta \le k^2(1 - \cos\theta)` (:math:`|\sin k\alpha| \le k|\sin\alpha|`).
At the pair :math:`\pi/(kc), \pi/c` this is the displayed condition with :math:`p_b, \rho,
c` in place of :math:`P, q, 1 - P`; the left side grows and the right side shrinks as
:math:`p_b \uparrow P`, :math:`\rho \uparrow q` (so :math:`c \downarrow 1 - P`), and the left
minus the right side increases with :math:`D`, so :math:`D \ge D_k(y)` for every
:math:`k`.  (5) :math:`E|Z| = E|X|/y \ge (1/2 + D_k(y) + \frac\rho2(y-1)_+^2)/y`; let
:math:`\delta \to 0`.
:math:`\square`  Dropping :math:`D` (:math:`D = 0`) leaves a bound valid for *every* DP noise,
which the tests check stays below the Staircase.  :func:`id_lower_bound` certifies
:math:`\inf G` by branch and bound over :math:`y` in ``arb`` (:math:`D(y)` is nonincreasing
in :math:`y`, so a cell :math:`[y_1, y_2]` has :math:`G \ge (1/2 + D(y_2) +
\frac q2(y_1-1)_+^2)/y_2`).

**Corollary C' (a gap for every eps >= 7.1).** The ratio
:math:`R(\varepsilon) = \inf G / E|SC_{\gamma^*}|` is nondecreasing in
:math:`\varepsilon`, so for every :math:`\varepsilon \ge 7.1`, every :math:`\Delta > 0` and
every ID :math:`\varepsilon`-DP noise, :math:`E|Z| \ge 1.0017\,E|SC_{\gamma^*}|`
(:math:`\ge 1.0140` times it for :math:`\varepsilon \ge 8`, :math:`1.0278` for
:math:`\varepsilon \ge 10`, :math:`1.0360` for :math:`\varepsilon \ge 16`; :func:`gap_table`).
*Proof.* :math:`E|SC_{\gamma^*}| = \gamma_1 + q/(1-q) = \sqrt q/(1-q)` (with
:math:`\gamma_1 = \sqrt q/(1+\sqrt q)`).  Put :math:`y = m/\sqrt q`:
:math:`G = \sqrt q\,H(m; q)`, :math:`H = (1/2 + D(m\sqrt q, q))/m + (m - \sqrt q)_+^2/(2m)`.
:math:`D(P, q)` is nonincreasing in :math:`P` and in :math:`q` (the condition's left side
grows and its right side shrinks with both), and :math:`P = m\sqrt q` grows with :math:`q`;
so :math:`H(m; q)` and :math:`1 - q` are nonincreasing in :math:`q`, and
:math:`R = (1-q)\inf_m H(m; q)` is nondecreasing in :math:`\varepsilon`; a certified
lower bound of :math:`R(\varepsilon_0)` bounds :math:`R(\varepsilon)` for every
:math:`\varepsilon \ge \varepsilon_0`. :math:`\square`

**Corollary D (the gap does not close).** :math:`c_{ID} = \inf\{E|X|\,
\operatorname{ess\,sup} f_X : X \text{ ID}\} \ge \frac14 + \frac{D^*}2` with :math:`D^*`
the largest over :math:`k` of the least root of :math:`\pi D = (\frac{\sin w}{w} - wD)^{k^2}`
(the case :math:`q = 0` of C; :func:`uniform_defect`; :math:`k = 3` is best,
:math:`D^* > 0.0372`), and

.. math::

    \liminf_{\varepsilon\to\infty}
    \frac{\min_{\mathcal C} E|Z|}{E|SC_{\gamma^*}|} \ge 2\sqrt{c_{ID}} \ge \sqrt{1 + 2D^*} > 1.036.

*Proof.* :math:`c_{ID}`: C without the DP floor (:math:`q = 0`; only the density bound
:math:`M` is used).  The limit: :math:`E|SC_{\gamma^*}| = \sqrt q/(1-q)`.  In the variables
of C', :math:`\inf G/\sqrt q = \inf_m H(m; q)`.  For :math:`m \le K`, :math:`P \le K\sqrt q
\to 0`, and the least root is lower semicontinuous at :math:`(P, q) = (0, 0)` (the
condition is continuous and strictly monotone in :math:`D`), so :math:`D \ge D^* - \eta`
for small :math:`q`; for :math:`m > K`, :math:`H \ge (m-\sqrt q)^2/(2m) \ge K/3`.  Hence
:math:`\liminf \inf_m H \ge \min_m ((1/2 + D^*)/m + m/2) = \sqrt{1 + 2D^*}`: the number comes
from this inequality directly. :math:`\square`
The left inequality, :math:`\liminf \ge 2\sqrt{c_{ID}}`, is a *sketch* (not used for the number; the right
one, :math:`2\sqrt{c_{ID}} \ge \sqrt{1 + 2D^*}`, is :math:`c_{ID} \ge \frac14 + \frac{D^*}2`, proved above):
the optimal laws rescaled by :math:`\sqrt q` converge (tightness) to an ID law with density
:math:`\le m` while the floor contributes :math:`m`, so the ratio is
:math:`\ge c_{ID}/m + m \ge 2\sqrt{c_{ID}}`.  Corollary C' gives the non-asymptotic
:math:`R(\varepsilon) \ge 1.0364` for every :math:`\varepsilon \ge 30`.

**Tried, without a bound: kurtosis.** ID laws with a fourth moment have kurtosis
:math:`\ge 3` (the fourth cumulant is :math:`\int x^4\nu(dx) \ge 0`).  The hope was that the
optimal Staircase, nearly uniform on :math:`[-\gamma, \gamma]`, has kurtosis near 1.8; it
does not: its tail on :math:`\gamma \le |t| < 1` has mass :math:`\approx\sqrt q` and gives
:math:`EZ^4 \approx \sqrt q/5` against :math:`EZ^2 \approx \sqrt q/3`, so the kurtosis is
about :math:`9/(5\sqrt q) \to \infty` (:func:`staircase_kurtosis`: 6.26 at
:math:`\varepsilon = 1`, 94.0 at 8, 39642 at 20; above 6 at every :math:`\varepsilon`
tried).  Only the core is platykurtic, and no moment sees the core alone: DP does not bound
tails, and a mass :math:`p` at distance :math:`R` costs :math:`pR` in :math:`E|Z|` while
adding :math:`pR^4` to :math:`EZ^4`.  The characteristic-function rigidity (4), which sees
the shape of the core through :math:`\varphi(\pi)`, is what works instead.

>>> from mpmath import mp, mpf, pi
>>> # Theorem A at eps = 1, the E|Z|-optimal gamma: phi < 0 at w = m pi / gamma (m odd)
>>> c = certify_staircase_not_id(1, digits=20)
>>> c["m"] % 2 == 1 and c["phi_upper"] < 0
True
>>> # the closed form equals the simplified value at an odd multiple (eps = 2, gamma = 0.3, m = 1)
>>> w = pi / mpf("0.3")
>>> mp.almosteq(staircase_cf(w, "0.3", 2, digits=20), staircase_cf_odd(1, "0.3", 2, digits=20))
True
"""

from __future__ import annotations

import heapq
import math
from fractions import Fraction

from mpmath import mp

from .._validation import GUARD_DIGITS, PrecisionError, positive, real, resolve_digits

__all__ = [
    "staircase_cf",
    "staircase_cf_odd",
    "odd_multiple",
    "certify_staircase_not_id",
    "uniform_defect",
    "c_id_lower",
    "asymptotic_ratio_lower",
    "id_lower_bound",
    "gap_table",
    "gap_markdown",
    "staircase_moment",
    "discrete_staircase_cf",
    "discrete_levy_weights",
    "staircase_kurtosis",
]

_KS = (2, 3, 4, 5)


def _integer(value, name, lo, hi=None):
    """``value`` as an ``int`` in ``[lo, hi]``, else a ValueError naming ``name``."""
    try:
        v = Fraction(value) if not isinstance(value, float) or math.isfinite(value) else None
    except (ValueError, TypeError):
        v = None
    if v is None or isinstance(value, bool) or v.denominator != 1 or v < lo or (hi is not None and v > hi):
        rng = f"in [{lo}, {hi}]" if hi is not None else f">= {lo}"
        raise ValueError(f"{name} must be an integer {rng}, got {value!r}")
    return int(v)


def _gamma(gamma, name="gamma"):
    g = real(gamma, name)
    if not 0 <= g <= 1:
        raise ValueError(f"{name} must be in [0, 1], got {gamma!r}")
    return g


def _gamma_opt(eps):
    """The E|Z|-optimal gamma 1/(1 + e^(eps/2)) (Geng-Viswanath; ``staircase.gamma_mean_abs``)."""
    return 1 / (1 + mp.exp(eps / 2))


def _a(g, q):
    return (1 - q) / (2 * (g + q * (1 - g)))


def staircase_cf(w, gamma, eps, *, Delta=1, digits=None):
    r"""Characteristic function :math:`\varphi(w) = E\cos(wZ)` of :math:`SC(\gamma, \Delta)`.

    .. math::

        \varphi(w) = \frac{2a}{v}\Big[\sin(vg) + \operatorname{Im}
            \frac{e^{ivg} q (e^{iv} - 1)}{1 - q e^{iv}}\Big],\quad v = w\Delta,\
            q = e^{-\varepsilon},\ a = \frac{1-q}{2(g + q(1-g))}

    (Theorem A of the module docstring; :math:`\varphi(0) = 1`).

    >>> from mpmath import mp
    >>> # small w: phi(w) = 1 - w^2 Var/2 + O(w^4), with Var from staircase.var
    >>> from arete_proofs.distributions import staircase
    >>> v = staircase.var("0.3", 1, 2, digits=20)
    >>> abs(staircase_cf("1e-4", "0.3", 2, digits=20) - (1 - v * mp.mpf("1e-8") / 2)) < 1e-15
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        w = real(w, "w")
        g = _gamma(gamma)
        eps = positive(eps, "eps")
        D = positive(Delta, "Delta")
        v = w * D
        if v == 0:
            return mp.mpf(1)
        q = mp.exp(-eps)
        z = mp.expj(v * g) * q * (mp.expj(v) - 1) / (1 - q * mp.expj(v))
        return +(2 * _a(g, q) / v * (mp.sin(v * g) + mp.im(z)))


def staircase_cf_odd(m, gamma, eps, *, digits=None):
    r"""The simplified value :math:`\varphi(m\pi/g) = -\frac{2a}{w}\frac{q(1-q)\sin w}{1 - 2q\cos w + q^2}`.

    ``m`` odd, :math:`\Delta = 1`, :math:`w = m\pi/g` (Theorem A).

    >>> from mpmath import mp
    >>> # gamma = 1/2: 1/gamma = 2 is an integer and phi vanishes at 2 pi
    >>> abs(staircase_cf_odd(1, "0.5", 3, digits=20)) < 1e-25
    True
    """
    m = _integer(m, "m", 1)
    if m % 2 != 1:
        raise ValueError(f"m must be an odd positive integer, got {m!r}")
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        g = _gamma(gamma)
        if g == 0:
            raise ValueError("gamma must be > 0 here")
        q = mp.exp(-positive(eps, "eps"))
        w = m * mp.pi / g
        return +(-2 * _a(g, q) / w * q * (1 - q) * mp.sin(w) / (1 - 2 * q * mp.cos(w) + q * q))


def _fraction(value, name):
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        return Fraction(value)
    if isinstance(value, (int, float)):
        return Fraction(value)
    if isinstance(value, mp.mpf):
        man, exp = value.man_exp
        return Fraction(int(man)) * Fraction(2) ** int(exp)
    raise ValueError(f"{name} must be a number or a decimal string, got {value!r}")


def odd_multiple(gamma, *, max_steps=10**7):
    r"""Least odd :math:`m` with :math:`\sin(m\pi/\gamma) > 0`, or ``None`` if :math:`1/\gamma \in \mathbb Z`.

    Exact rational arithmetic (``gamma`` is read exactly: decimal string, ``Fraction``,
    binary float or ``mpf``), following the lemma of Theorem A; ``sin(m pi x) > 0`` iff
    :math:`mx \bmod 2 \in (0, 1)`.

    >>> odd_multiple("0.4"), odd_multiple("0.25"), odd_multiple("0.7")   # 1/0.7 = 10/7: 3 * 10/7 = 30/7 = 4 + 2/7
    (1, None, 3)
    """
    g = _fraction(gamma, "gamma")
    if not 0 < g <= 1:
        raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
    x = 1 / g
    if x.denominator == 1:
        return None
    for m in range(1, 2 * max_steps, 2):
        r = (m * x) % 2
        if 0 < r < 1:
            return m
    raise PrecisionError(f"no odd multiple found within {max_steps} steps for gamma = {gamma!r}")


def _flint():
    import flint

    return flint


def _arb_frac(fr, flint):
    return flint.arb(fr.numerator) / flint.arb(fr.denominator)


def _arb_lower_mpf(x):
    """Lower end of the ball ``x`` as an exact ``mpf``."""
    man, exp = x.lower().man_exp()
    return mp.mpf((int(man), int(exp)))


def _arb_upper_mpf(x):
    man, exp = x.upper().man_exp()
    return mp.mpf((int(man), int(exp)))


def certify_staircase_not_id(eps, gamma=None, *, digits=30):
    r"""Certify :math:`\varphi_{SC}(m\pi/\gamma) < 0` in ``arb`` (Theorem A), :math:`\Delta = 1`.

    ``gamma`` defaults to the :math:`E|Z|`-optimal :math:`1/(1+e^{\varepsilon/2})` at the
    working precision (its exact binary value is the one certified).  The full closed form
    of :func:`staircase_cf` is evaluated as a ball at :math:`w = m\pi/\gamma` with :math:`m`
    from :func:`odd_multiple`.  Returns ``{"gamma", "m", "w", "phi_upper", "zero"}``;
    ``zero`` is ``True`` (and ``m = 1``, ``phi_upper = 0``) when :math:`1/\gamma` is an
    integer, where :math:`\varphi(\pi/\gamma) = 0` exactly.

    >>> c = certify_staircase_not_id(4, digits=20)
    >>> c["phi_upper"] < 0, c["zero"]
    (True, False)
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        e = positive(eps, "eps")
        g = _fraction(_gamma_opt(e) if gamma is None else gamma, "gamma")
        if not 0 < g <= 1:
            raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
        m = odd_multiple(g)
        if m is None:
            return {"gamma": g, "m": 1, "w": mp.pi / mp.mpf(g.numerator) * g.denominator,
                    "phi_upper": mp.mpf(0), "zero": True}
        flint = _flint()
        old = flint.ctx.prec
        try:
            flint.ctx.prec = int((d + GUARD_DIGITS) * 3.33) + 20 + int(math.log2(m + 1))
            ga = _arb_frac(g, flint)
            ea = _arb_frac(_fraction(eps if isinstance(eps, (str, int, Fraction)) else e, "eps"), flint)
            q = (-ea).exp()
            w = flint.arb(m) * flint.arb.pi() / ga
            iw = flint.acb(0, 1) * w
            z = (iw * ga).exp() * q * (iw.exp() - 1) / (1 - q * iw.exp())
            a = (1 - q) / (2 * (ga + q * (1 - ga)))
            phi = 2 * a / w * ((w * ga).sin() + z.imag)
            if not phi < 0:
                raise PrecisionError(f"phi at m = {m} not certified negative: {phi}")
            return {"gamma": g, "m": m, "w": mp.mpf(w.mid().str(d + 5, radius=False)),
                    "phi_upper": _arb_upper_mpf(phi), "zero": False}
        finally:
            flint.ctx.prec = old


# ---------------------------------------------------------------------------
# Theorem C and Corollary D: the characteristic-function condition and its root
# ---------------------------------------------------------------------------

def _cond_float(D, P, q, k):
    """``lhs - rhs`` of Theorem C's condition in floats (increasing in ``D``); ``c = 1 - P``."""
    c = 1.0 - P
    if c <= 0:
        return 1.0
    w = math.pi / k
    lhs = math.pi / c * D + min(P, 2 * q / math.pi)
    base = c * math.sin(w) / w - w / c * D - min(P, 2 * q * k / math.pi)
    return lhs - max(base, 0.0) ** (k * k)


def _root_float(P, q, k):
    """Least ``D >= 0`` satisfying the condition (floats, bisection; 0 if ``D = 0`` does)."""
    if _cond_float(0.0, P, q, k) >= 0:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if _cond_float(mid, P, q, k) < 0:
            lo = mid
        else:
            hi = mid
    return lo


def _cond_arb(D, P, q, k, flint, pf, qf):
    """Ball enclosing an upper bound of ``lhs - rhs`` (valid: each ``min`` replaced by one argument)."""
    arb = flint.arb
    pi = arb.pi()
    w = pi / k
    c = 1 - P
    if not c > 0:
        return None
    m1 = P if pf <= 2 * qf / math.pi else 2 * q / pi
    m2 = P if pf <= 2 * qf * k / math.pi else 2 * q * k / pi
    lhs = pi / c * D + m1
    base = c * w.sin() / w - w / c * D - m2
    if not base > 0:
        return None
    return lhs - base ** (k * k)


def _certified_root(P, q, k, flint, pf, qf):
    """A certified lower bound (exact binary float) of the least admissible ``D``, or 0."""
    r = _root_float(pf, qf, k)
    for shrink in (1e-9, 1e-6, 1e-3):
        d = r * (1 - shrink)
        if d <= 0:
            return 0.0
        c = _cond_arb(flint.arb(d), P, q, k, flint, pf, qf)
        if c is not None and c < 0:
            return d
    return 0.0


def uniform_defect(k, *, digits=20):
    r"""Certified lower bound of the least root :math:`D_k` of :math:`\pi D = (\frac{\sin w}{w} - wD)^{k^2}`, :math:`w = \pi/k`.

    Every ID law whose density is at most :math:`M` has :math:`E|X| \ge (1/2 + D_k)/(2M)`
    (Corollary D; :math:`E|X| \ge 1/(4M)` holds for every law, with equality only for the
    uniform law).  The root is found with ``mpmath.findroot`` and the returned value ``d``
    is certified in ``arb``: the condition fails at ``d``, so :math:`D_k > d`.

    >>> d2, d3 = uniform_defect(2, digits=15), uniform_defect(3, digits=15)
    >>> 0.0360 < d2 < 0.0361 and 0.0372 < d3 < 0.0373    # k = 3 is the best k
    True
    """
    k = _integer(k, "k", 2)
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        w = mp.pi / k
        s = mp.sin(w) / w
        root = mp.findroot(lambda D: mp.pi * D - (s - w * D) ** (k * k), mp.mpf("0.03"))
        lower = root * (1 - mp.mpf(10) ** (-d))
        flint = _flint()
        old = flint.ctx.prec
        try:
            flint.ctx.prec = int((d + GUARD_DIGITS) * 3.33) + 20
            man, exp = lower.man_exp
            da = flint.arb(int(man)) * flint.arb(2) ** int(exp)
            c = _cond_arb(da, flint.arb(0), flint.arb(0), k, flint, 0.0, 0.0)
            if c is None or not c < 0:
                raise PrecisionError(f"the root for k = {k} could not be certified")
        finally:
            flint.ctx.prec = old
        return +lower


def c_id_lower(*, digits=20):
    r"""Certified :math:`\frac14 + \frac12\max_{k \in \{2,\dots,5\}} D_k \le c_{ID}` (Corollary D).

    :math:`c_{ID} = \inf E|X|\operatorname{ess\,sup} f_X` over ID laws; :math:`\frac14` is
    the infimum over all laws (the uniform law).

    >>> 0.2686 < c_id_lower(digits=15) < 0.2687
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        return +(mp.mpf(1) / 4 + max(uniform_defect(k, digits=d) for k in _KS) / 2)


def asymptotic_ratio_lower(*, digits=20):
    r""":math:`\sqrt{1 + 2D^*} = 2\sqrt{c}` for the :math:`c` of :func:`c_id_lower` (Corollary D).

    A lower bound of :math:`\liminf_{\varepsilon\to\infty}` of the least :math:`E|Z|` of ID
    :math:`\varepsilon`-DP noise over the Staircase's.  Rounded down.

    >>> 1.036 < asymptotic_ratio_lower(digits=15) < 1.037
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        c = c_id_lower(digits=d)
        return +(2 * mp.sqrt(c) * (1 - mp.mpf(10) ** (-d)))


def _staircase_floor_arb(ea, flint):
    """``gamma_1 + q/(1-q)``: the least E|Z| of eps-DP noise at Delta = 1 (Lemma 27)."""
    q = (-ea).exp()
    return 1 / (1 + (ea / 2).exp()) + q / (1 - q)


def _cell_value(y1, y2, d, q, flint):
    r"""Ball of :math:`(1/2 + d + \frac q2 (y_1 - 1)_+^2)/y_2`: the lower bound of :math:`G` on :math:`[y_1, y_2]`."""
    arb = flint.arb
    t = max(y1 - 1.0, 0.0)
    return (arb(0.5) + arb(d) + q / 2 * arb(t) ** 2) / arb(y2)


def id_lower_bound(eps, *, Delta=1, digits=15, rtol=1e-4, ks=_KS, max_cells=20000):
    r"""Certified lower bound of :math:`E|Z|` over ID :math:`\varepsilon`-DP noise (Theorem C).

    Branch and bound over :math:`y = 2\operatorname{ess\,sup} f` of
    :math:`G(y) = (1/2 + D(y) + \frac q2 (y-1)_+^2)/y` in ``arb``, stopped when the lowest
    cell bound is within ``rtol`` of the best value of :math:`G` seen.  ``ks=()`` drops the
    ID condition (:math:`D = 0`): the result is then a lower bound for *every* DP noise,
    below the Staircase.  Returns ``{"bound", "staircase", "ratio", "cells", "y_min"}``
    (``bound`` and ``ratio`` rounded down; ``staircase`` is
    :math:`\Delta(\gamma_1 + e^{-\varepsilon}/(1-e^{-\varepsilon}))`).

    >>> r = id_lower_bound(10, digits=10)
    >>> r["ratio"] > 1                      # ID noise cannot reach the Staircase at eps = 10
    True
    >>> id_lower_bound(10, digits=10, ks=())["ratio"] < 1     # without the ID condition: below it
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        e = positive(eps, "eps")
        Dl = positive(Delta, "Delta")
        if not 0 < rtol < 1:
            raise ValueError(f"rtol must be in (0, 1), got {rtol!r}")
        ks = tuple(_integer(k, "ks", 2) for k in ks)
        flint = _flint()
        old = flint.ctx.prec
        try:
            flint.ctx.prec = int((d + GUARD_DIGITS) * 3.33) + 20
            arb = flint.arb
            fe = _fraction(eps if isinstance(eps, (str, int, Fraction)) else e, "eps")
            ea = _arb_frac(fe, flint)
            q = (-ea).exp()
            qf = math.exp(-float(fe))
            sq = math.sqrt(qf)

            def dmax(y2):
                pf = qf * y2
                P = q * arb(y2)
                return max([_certified_root(P, q, int(k), flint, pf, qf) for k in ks], default=0.0)

            def dfloat(y):
                return max([_root_float(qf * y, qf, int(k)) for k in ks], default=0.0)

            def gfloat(y):
                return (0.5 + dfloat(y) + 0.5 * qf * max(y - 1, 0.0) ** 2) / y

            def cell_lb(y1, y2):
                return _arb_lower_mpf(_cell_value(y1, y2, dmax(y2), q, flint))

            y_lo, y_hi = 0.25 / sq, 8.0 / sq + 1.0
            lb_lo = _arb_lower_mpf(1 / (2 * arb(y_lo)))
            lb_hi = _arb_lower_mpf(q / 2 * (arb(y_hi) - 1) ** 2 / arb(y_hi))
            grid = [y_lo * (y_hi / y_lo) ** (i / 64) for i in range(65)]
            grid[-1] = y_hi
            heap = [(cell_lb(a, b), a, b) for a, b in zip(grid, grid[1:])]
            heapq.heapify(heap)
            best = min(gfloat(y) for y in grid)
            y_best = min(grid, key=gfloat)
            cells = len(heap)
            while True:
                lb, a, b = heap[0]
                floor = min(lb, lb_lo, lb_hi)
                if best - float(floor) <= rtol * best or floor < lb:
                    break
                heapq.heappop(heap)
                mid = math.sqrt(a * b)
                gm = gfloat(mid)
                if gm < best:
                    best, y_best = gm, mid
                heapq.heappush(heap, (cell_lb(a, mid), a, mid))
                heapq.heappush(heap, (cell_lb(mid, b), mid, b))
                cells += 1
                if cells > max_cells:
                    raise PrecisionError(f"id_lower_bound: more than {max_cells} cells at eps = {eps!r}")
            floor = min(heap[0][0], lb_lo, lb_hi)
            man, exp = floor.man_exp
            fa = arb(int(man)) * arb(2) ** int(exp)
            sc = _staircase_floor_arb(ea, flint)
            ratio = _arb_lower_mpf(fa / sc)
            Dm = mp.mpf(_fraction(Dl, "Delta").numerator) / _fraction(Dl, "Delta").denominator
            return {"bound": +(floor * Dm), "staircase": +(_arb_upper_mpf(sc) * Dm), "ratio": ratio,
                    "cells": cells, "y_min": mp.mpf(y_best)}
        finally:
            flint.ctx.prec = old


#: The epsilons of the docs table (docs/explanation/id-lower-bounds.md, Theorem C).
GAP_EPS = (4, 6, 7, "7.1", 8, 9, 10, 12, 14, 16, 20, 30)


def gap_table(eps_list=GAP_EPS, *, digits=12):
    r"""Rows ``(eps, ID bound, all-DP bound, Staircase, ratio)`` of Theorem C at :math:`\Delta = 1`.

    >>> rows = gap_table((8,), digits=10)
    >>> rows[0]["ratio"] > 1 > rows[0]["general"] / rows[0]["staircase"]
    True
    """
    rows = []
    for e in eps_list:
        r = id_lower_bound(e, digits=digits)
        g = id_lower_bound(e, digits=digits, ks=())
        rows.append({"eps": e, "bound": r["bound"], "general": g["bound"], "staircase": r["staircase"],
                     "ratio": r["ratio"], "cells": r["cells"]})
    return rows


def gap_markdown(rows):
    r"""The docs table of :func:`gap_table` rows (5 significant digits, ratios rounded down to 4 decimals).

    The last column is the certified :math:`\rho(\varepsilon)` of Corollary C', valid for every
    larger :math:`\varepsilon` too.

    >>> print(gap_markdown(gap_table((16,), digits=10)).splitlines()[-1].split("|")[-2].strip())
    1.0360
    """
    out = ["| ε | ID bound (Theorem C) | all-DP bound (D = 0) | Staircase | ID bound / Staircase |",
           "|---|---|---|---|---|"]
    for r in rows:
        ratio = math.floor(float(r["ratio"]) * 10**4) / 10**4
        out.append(f"| {r['eps']} | {mp.nstr(r['bound'], 5)} | {mp.nstr(r['general'], 5)} | "
                   f"{mp.nstr(r['staircase'], 5)} | {ratio:.4f} |")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# moments of the Staircase (the kurtosis that was tried)
# ---------------------------------------------------------------------------

def staircase_moment(n, gamma, eps, *, digits=None):
    r""":math:`E|Z|^n` of :math:`SC(\gamma, 1)`: :math:`\frac{2a}{n+1}\big[g^{n+1} +
    \sum_{k\ge1} q^k((g+k)^{n+1} - (g+k-1)^{n+1})\big]`.

    >>> from mpmath import mp
    >>> from arete_proofs.distributions import staircase
    >>> mp.almosteq(staircase_moment(2, "0.3", 2, digits=20), staircase.var("0.3", 1, 2, digits=20))
    True
    """
    n = _integer(n, "n", 0)
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        g = _gamma(gamma)
        q = mp.exp(-positive(eps, "eps"))
        s = mp.nsum(lambda k: q**k * ((g + k) ** (n + 1) - (g + k - 1) ** (n + 1)), [1, mp.inf])
        return +(2 * _a(g, q) * (g ** (n + 1) + s) / (n + 1))


def staircase_kurtosis(eps, gamma=None, *, digits=None):
    r"""Kurtosis :math:`E Z^4/(E Z^2)^2` of :math:`SC(\gamma, 1)` (default: the :math:`E|Z|`-optimal :math:`\gamma`).

    ID laws have kurtosis :math:`\ge 3`; the optimal Staircase's grows like
    :math:`9/(5\sqrt q)` (its far tail), so kurtosis does not separate it from ID laws.

    >>> from mpmath import mp
    >>> k = staircase_kurtosis(20, digits=15)
    >>> k > 3 and abs(k * mp.sqrt(mp.exp(-20)) / mp.mpf(9) * 5 - 1) < 0.01
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        e = positive(eps, "eps")
        g = _gamma_opt(e) if gamma is None else _gamma(gamma)
        return +(staircase_moment(4, g, e, digits=d) / staircase_moment(2, g, e, digits=d) ** 2)


# ---------------------------------------------------------------------------
# the discrete staircase (Proposition A')
# ---------------------------------------------------------------------------

def _discrete_args(Delta, r):
    D = _integer(Delta, "Delta", 1)
    return D, _integer(r, "r", 1, D)


def discrete_staircase_cf(w, Delta, r, eps, *, digits=None):
    r"""Characteristic function of the discrete staircase on :math:`\mathbb Z` (Proposition A').

    .. math::

        \varphi(w) = \frac{2\operatorname{Re}\big(B/(1 - qe^{iw\Delta})\big) - 1}{N},\quad
        B = S_r + q(S_\Delta - S_r),\ S_n = \sum_{j<n} e^{iwj},\
        N = \frac{2(r + q(\Delta - r))}{1-q} - 1.

    >>> from mpmath import mp
    >>> # phi(2 pi / Delta) = sin((2r - 1) pi / Delta) / (N sin(pi / Delta)): negative for r > (Delta + 1)/2
    >>> D, r, e = 5, 4, 2
    >>> q = mp.exp(-e); N = 2 * (r + q * (D - r)) / (1 - q) - 1
    >>> mp.almosteq(discrete_staircase_cf(2 * mp.pi / D, D, r, e), mp.sin(7 * mp.pi / 5) / (N * mp.sin(mp.pi / 5)))
    True
    """
    D, r = _discrete_args(Delta, r)
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        w = real(w, "w")
        q = mp.exp(-positive(eps, "eps"))

        def S(n):
            return mp.fsum(mp.expj(w * j) for j in range(n))

        B = S(r) + q * (S(D) - S(r))
        N = 2 * (r + q * (D - r)) / (1 - q) - 1
        return +((2 * mp.re(B / (1 - q * mp.expj(w * D))) - 1) / N)


def discrete_levy_weights(Delta, r, eps, *, n=64, grid=2**14):
    r"""Float64 lattice Lévy weights :math:`c_k = \frac{1}{2\pi}\int_0^{2\pi} \ln\varphi(w)\,e^{-iwk}\,dw`, :math:`k = 1..n`.

    A symmetric law on :math:`\mathbb Z` with :math:`\varphi > 0` is compound Poisson with
    jump weights :math:`c_k` when they are all :math:`\ge 0`.  An FFT on ``grid`` points,
    not certified (Proposition A' uses it only as evidence).  ``None`` if
    :math:`\varphi \le 0` somewhere on the grid.

    >>> c = discrete_levy_weights(1, 1, 2)      # discrete Laplace: c_k = q^k / k
    >>> all(abs(x - math.exp(-2 * k) / k) < 1e-12 for k, x in enumerate(c[:10], 1))
    True
    """
    import numpy as np

    D, r = _discrete_args(Delta, r)
    q = math.exp(-float(positive(eps, "eps")))
    w = 2 * np.pi * np.arange(grid) / grid
    j = np.arange(D)
    E = np.exp(1j * np.outer(w, j))
    B = E[:, :r].sum(axis=1) + q * E[:, r:].sum(axis=1)
    N = 2 * (r + q * (D - r)) / (1 - q) - 1
    phi = (2 * np.real(B / (1 - q * np.exp(1j * w * D))) - 1) / N
    if phi.min() <= 0:
        return None
    c = np.fft.fft(np.log(phi)).real / grid
    return [float(x) for x in c[1:n + 1]]
