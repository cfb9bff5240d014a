r"""Approximate DP of one release of Arete noise (optionally with a Gaussian part): the exact hockey stick :math:`\delta(\varepsilon)` and its inverse.

The Arete mechanism releases :math:`q(x) + Z`, :math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)`
(Definition 4).  For two inputs whose query values differ by :math:`s`,
:math:`0 < s \le \Delta` (the *sensitivity*), it is :math:`(\varepsilon, \delta)`-DP exactly when

.. math::

    \delta \ge \delta_s(\varepsilon) = \int_{\mathbb R} \big(f_A(t) - e^{\varepsilon} f_A(t+s)\big)_+\,dt
    = \int_A f_A(t)\,dt - e^{\varepsilon}\int_A f_A(t+s)\,dt,
    \qquad A = \{t : L_s(t) > \varepsilon\},

:math:`L_s(t) = \ln f_A(t) - \ln f_A(t+s)` the privacy loss (the other order of the pair
gives the same value: substitute :math:`t \to -t` and use the symmetry of :math:`f_A`).
:func:`hockey_stick` is :math:`\delta(\varepsilon) = \sup_{0<s\le\Delta}\delta_s(\varepsilon)`,
:func:`epsilon_for_delta` its inverse (the smallest :math:`\varepsilon \ge 0` with
:math:`\delta(\varepsilon) \le \delta`).  The :math:`k`-fold composition is
:mod:`arete_proofs.privacy.pld`.

**The supremum is at** :math:`s = \Delta` (proved here; only the symmetry and unimodality
of :math:`f_A`, the paper's Lemma 2, are used).  (a) For :math:`t \le -s/2`,
:math:`|t| \ge |t+s|`, so :math:`f_A(t) \le f_A(t+s)`, :math:`L_s(t) \le 0 \le \varepsilon`:
:math:`A_s \subset (-s/2, \infty)`.  (b) :math:`A_s` is open (:math:`f_A` is continuous:
:math:`f_{\Gamma-\Gamma} * f_L` with :math:`f_L` bounded), a disjoint union of intervals
:math:`(a_i, b_i)`, :math:`a_i \ge -s/2`.  (c) For :math:`s < s'`,

.. math::

    \int_{a_i}^{b_i} f_A(t+s')\,dt - \int_{a_i}^{b_i} f_A(t+s)\,dt
    = \int_s^{s'} \big(f_A(b_i+u) - f_A(a_i+u)\big)\,du \le 0,

because :math:`a_i + u \ge s/2 > 0` and :math:`f_A` is nonincreasing on :math:`[0,\infty)`.
Hence :math:`\delta_{s'}(\varepsilon) \ge \int_{A_s}(f_A(t) - e^\varepsilon f_A(t+s'))dt \ge
\delta_s(\varepsilon)`: :math:`\delta_s` is nondecreasing in :math:`s`, and
:math:`\delta(\varepsilon) = \delta_\Delta(\varepsilon)`.  ``tests/test_accounting.py``
also checks it numerically.  (d) :math:`\delta(\varepsilon) = 0` exactly for
:math:`\varepsilon \ge \varepsilon^*` (:func:`arete_proofs.privacy.tight.tight_epsilon`):
then :math:`A` is empty.

**The set** :math:`A`.  On :math:`(-\Delta/2, 0]`, :math:`L_\Delta` is increasing
(:math:`\ln f_A(t)` increases and :math:`\ln f_A(t+\Delta)` decreases), so :math:`A` meets
it in one interval :math:`(c, 0]` (found by bracketing).  On :math:`(0, \infty)`,
:math:`L_\Delta` need not be monotone (near 0 it is concave for :math:`\alpha < 1/2`, with
its maximum at a tiny :math:`t^*`, and it approaches its tail limit from above): its sign
changes against :math:`\varepsilon` are located on a geometric-then-uniform grid (float64
densities of :mod:`arete_proofs.distributions.fast`; cells subdivided while the
Lipschitz bound :math:`|L_\Delta'| \le 1/\lambda` allows a hidden pair of sign changes,
down to a relative width :math:`2^{-40}`; grid points where the float64 value is within
:math:`10^{-7}` of :math:`\varepsilon`, and the maximiser :math:`t^*`, are evaluated by the
exact engine), then refined by the exact engine (:mod:`arete_proofs.distributions.arete`).
Each interval of :math:`A` contributes
:math:`\bar F(a) - \bar F(b) - e^\varepsilon(\bar F(a+\Delta) - \bar F(b+\Delta))` with the
exact survival function :math:`\bar F`; the working precision grows with the cancellation
between the two masses.  Beyond the grid's end :math:`T` the neglected mass is at most
:math:`\bar F(T)`, kept below :math:`10^{-(\text{digits}+3)}\delta`.  Errors in the roots
enter only to second order (the integrand vanishes there).

**With a Gaussian part** (``sigma > 0``, beyond the paper: :math:`Z = X_1 - X_2 + Y + N`,
:math:`N \sim \mathcal N(0,\sigma^2)`, :mod:`arete_proofs.distributions.arete_gauss`; exact
values from that engine, float64 from :mod:`~arete_proofs.distributions.fast_gauss`, the tight
epsilon and its maximiser from :func:`arete_proofs.privacy.tight_gauss.tight_epsilon`).  The
proof (a)-(d) uses only that the density is continuous, symmetric and unimodal, and
:math:`Z` is (tight_gauss, item 1: a convolution of symmetric unimodal laws, Wintner), so
:math:`\delta(\varepsilon) = \delta_\Delta(\varepsilon)` and :math:`A \subset (-\Delta/2,\infty)` hold as
stated; :math:`L_\Delta` is again increasing on :math:`(-\Delta/2, 0]`.  What changes is the
shape of :math:`L_\Delta` on :math:`(0,\infty)`: the density is smooth at 0, so
:math:`L_\Delta` is flat there and its maximiser :math:`t^*` lies inside (tight_gauss, items 2-4:
:math:`\ell'' \ge -1/\sigma^2` from the Gaussian part, an upper curvature bound away from 0),
and the Lipschitz bound :math:`1/\lambda` is unavailable when :math:`\lambda = 0`.  A hidden pair
of sign changes in a grid cell :math:`[a,b] \subset [0,\infty)` is then ruled out by
monotonicity of :math:`\ell = \ln f` alone: :math:`\ell(b) - \ell(a+\Delta) \le L_\Delta(t)
\le \ell(a) - \ell(b+\Delta)` on the cell (the *monotone envelope*), so a cell whose upper
envelope is below :math:`\varepsilon` (or lower envelope above) holds no point of the other
sign; other cells are subdivided as before.  The grid's end :math:`T` adds
:math:`\sigma\sqrt{2\ln 10\,(\text{digits}+30)}` for the Gaussian tail (and the tail check
below still applies), and roots are first bracketed by the float64 root, confirmed by two
engine signs.

What is **numerically checked** rather than proved: that no pair of sign changes hides
inside a grid cell narrower than :math:`2^{-40}` of its position (the Lipschitz bound
rules them out in wider cells), and the float64 values away from :math:`\varepsilon`.

>>> from arete_proofs.noise import make
>>> z = make("arete", alpha="0.07559007048913552", theta="0.6295929433519876", lam="0.05453349704921005")  # Figure 4, eps = 6
>>> d4, d5 = hockey_stick(z, 1, 4, digits=8), hockey_stick(z, 1, 5, digits=8)
>>> 0 < d5 < d4 < 1                     # delta(eps) decreases in eps
True
>>> hockey_stick(z, 1, 6, digits=8) == 0     # at and above the tight epsilon 5.99966...
True

(:func:`epsilon_for_delta`, the inverse, is shown on a cheaper noise in its own docstring: at these
parameters one inversion takes about a minute.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from mpmath import mp
from scipy import optimize

from .._validation import GUARD_DIGITS, PrecisionError, parse_precision, real
from . import tight

__all__ = ["AccountingHints", "HockeyStick", "hockey_stick", "hockey_stick_details", "epsilon_for_delta",
           "loss_grid"]

#: float64 values of the privacy loss closer than this to eps are recomputed by the engine.
FLOAT_MARGIN = 1e-7
#: Levels of halving of a grid cell while the Lipschitz bound allows a hidden sign change pair.
MAX_LEVELS = 40


@dataclass(frozen=True)
class AccountingHints:
    r"""What a noise family tells the accounting beyond its densities (``noise.accounting_hints()``).

    ``lipschitz``: a length :math:`c` with :math:`|(\ln f)'| \le 1/c` on :math:`t > 0` (Arete:
    :math:`\lambda`, item 3 of :mod:`arete_proofs.privacy.tight`), used to rule out a hidden pair
    of sign changes in a grid cell; ``None``: use the monotone envelope instead (module docstring,
    *With a Gaussian part*).
    ``tail_scale``: the exponential scale of the tail (``P(Z > T)`` is negligible at
    ``T = tail_scale * 2.303 * (digits + 30)``); ``scales``: the length scales of the law (the
    scan grid's step is an eighth of the smallest, or of the sensitivity); ``gauss_sigma``: a
    Gaussian part's standard deviation (its tail extends the grid), 0 without one;
    ``float_error``: the float64 path's error allowance on the privacy loss; ``slow_engine``:
    the exact engine is slow, so roots are narrowed around the float64 root first.

    >>> from arete_proofs.noise import make
    >>> make("arete", alpha="0.1", theta=1, lam="0.25").accounting_hints().lipschitz   # |(ln f_A)'| <= 1/lam (Section 4.2)
    0.25
    """

    lipschitz: float | None
    tail_scale: float
    scales: tuple
    gauss_sigma: float = 0.0
    float_error: float = 1e-9
    slow_engine: bool = False


@dataclass(frozen=True)
class HockeyStick:
    r"""Result of :func:`hockey_stick_details`.

    ``delta``: :math:`\delta(\varepsilon)` (``digits`` significant digits plus guard digits);
    ``intervals``: the intervals :math:`(a, b)` of :math:`A = \{L_\Delta > \varepsilon\}`
    (``b`` may be ``+inf``); ``p_mass``, ``q_mass``: :math:`P(Z \in A)` and
    :math:`P(Z + \Delta \in A)`, so ``delta = p_mass - e^eps q_mass`` and
    :math:`d\delta/d\varepsilon = -e^\varepsilon` ``q_mass``; ``tight``: the tight epsilon.

    >>> from arete_proofs.noise import make
    >>> r = hockey_stick_details(make("arete", alpha="0.3", theta=1, lam="0.5"), 1, "0.5", digits=6)
    >>> from mpmath import mp
    >>> mp.almosteq(r.delta, r.p_mass - mp.exp(mp.mpf("0.5")) * r.q_mass, 1e-6)
    True
    """

    delta: object
    epsilon: object
    intervals: tuple
    p_mass: object
    q_mass: object
    tight: object
    digits: int


#: Most points of the hockey-stick grid (the smallest scale / 8 up to the tail end): beyond it the
#: grid does not fit in memory (theta = 1e-300 beside lam = 0.3 asked for 1e301 points).
MAX_GRID = 10_000_000


def _float_or_none(v):
    try:
        return float(v)
    except (TypeError, ValueError, OverflowError):
        return None


def _check_eps(eps, digits):
    with mp.workdps(parse_precision(digits)):
        e = real(eps, "eps")
        if not (e >= 0) or mp.isinf(e):
            raise ValueError(f"eps must be finite and >= 0, got {mp.nstr(e, 8)}")
    return e


def _check_sensitivity(sensitivity, digits):
    with mp.workdps(parse_precision(digits)):
        s = real(sensitivity, "sensitivity")
        if not (s > 0) or mp.isinf(s):
            raise ValueError(f"sensitivity must be positive and finite, got {mp.nstr(s, 8)}")
    return s


class _Loss:
    """The privacy loss L(t) = ln f(t) - ln f(t + s) of a noise: float64 grid and engine values (cached).

    ``noise``: any symmetric unimodal family of :mod:`arete_proofs.noise` that supports
    ``account`` (its exact and float64 densities, its tight epsilon and
    :class:`AccountingHints`); the proof in the module docstring needs only symmetry,
    unimodality and continuity.
    """

    def __init__(self, noise, sensitivity, digits):
        if not getattr(noise, "symmetric_unimodal", False):
            raise ValueError(f"accounting: noise {getattr(noise, 'name', noise)!r} is not symmetric unimodal; "
                             "its hockey-stick delta needs every shift (not supported here)")
        self.digits = tight._digits(digits)
        self.s = _check_sensitivity(sensitivity, self.digits)
        hints = noise.accounting_hints()
        # the parameters as the privacy layer parses them (the engines then see the same values)
        self.noise = noise.at_precision(self.digits)
        self.hints = hints
        self.gauss = hints.lipschitz is None
        self.sigma_f = float(hints.gauss_sigma)
        self.sf_ = float(self.s)
        self.dps = self.digits + GUARD_DIGITS
        self.tight = self.noise.tight_epsilon(self.s, digits=self.digits)
        #: allowance for the float64 error of the privacy loss (fast_gauss: relative 1e-9 per density)
        self.float_error = hints.float_error
        self._cache = {}
        self.grid = None

    # -- values -----------------------------------------------------------
    def logpdf_f(self, t):
        """Float64 ln f(t) (array)."""
        return self.noise.logpdf_float(t)

    def sf_f(self, t):
        """Float64 survival function (array)."""
        return self.noise.sf_float(t)

    def Lf(self, t):
        t = np.asarray(t, dtype=float)
        return self.logpdf_f(t) - self.logpdf_f(t + self.sf_)

    def envelope(self, a, b):
        r"""Bounds ``(lo, up)`` of :math:`L` on cells :math:`[a, b] \subset [0, \infty)` from
        monotonicity of :math:`\ell = \ln f` alone: :math:`\ell(b) - \ell(a+s) \le L \le \ell(a) - \ell(b+s)`
        (float64; module docstring, *hidden sign changes*)."""
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        la, lb = self.logpdf_f(a), self.logpdf_f(b)
        lA, lB = self.logpdf_f(a + self.sf_), self.logpdf_f(b + self.sf_)
        return lb - lA, la - lB

    def hidden_pair(self, a, b, ga, gb, eps):
        """Cells (a, b) with L - eps of one sign at both ends where a pair of sign changes is not ruled out."""
        same = np.sign(ga) == np.sign(gb)
        if self.gauss:
            lo, up = self.envelope(a, b)
            neg = ga < 0
            return same & np.where(neg, up - float(eps) > -FLOAT_MARGIN, lo - float(eps) < FLOAT_MARGIN)
        return same & (np.abs(ga) + np.abs(gb) <= (b - a) / self.hints.lipschitz)

    def L(self, t):
        """Engine value of L(t) at ``dps`` digits (t an mpf or float)."""
        key = (mp.mpf(t), self.dps)
        if key not in self._cache:
            with mp.workdps(self.dps + 5):
                t = mp.mpf(t)
                a, b = self.noise.logpdf([t, t + self.s], digits=self.dps)
                self._cache[key] = a - b
        return self._cache[key]

    def sf(self, ts, dps):
        return self.noise.sf(list(ts), digits=dps)

    # -- the grid -----------------------------------------------------------
    def _too_far_apart(self, smallest, points):
        """The refusal of a grid over :data:`MAX_GRID` points, led by the parameter of the smallest scale."""
        name = next((k for k, v in self.noise.params.items()
                     if not isinstance(v, bool) and _float_or_none(v) == smallest), "a scale")
        value = self.noise.params.get(name, smallest)
        return (f"{name} = {value} is too small next to the accounting range (the noise's tail scale "
                f"{self.hints.tail_scale:.3g} and the sensitivity {float(self.s):.3g}): the grid would have "
                f"{points:.3g} points (at most {MAX_GRID:.0e}); give scales, and the sensitivity, within about 1e6 "
                "of each other")

    def end(self, digits_more=0):
        """T with P(Z > T) negligible: e^(-T/tail_scale) ~ 10^-(digits + 30 + more), plus the
        Gaussian part's sqrt(2 ln 10 (digits + 30 + more)) sigma."""
        scale = self.hints.tail_scale
        k = self.digits + 30 + digits_more
        return scale * k * 2.303 + 4 * self.sf_ + self.sigma_f * (2 * 2.303 * k) ** 0.5

    def build_grid(self, T):
        smallest = min(x for x in (*self.hints.scales, self.sf_) if x > 0)
        step = smallest / 8
        if T / step > MAX_GRID:
            raise ValueError(self._too_far_apart(smallest, T / step))
        t_lo = min(1e-200, step / 10)
        ts = float(self.tight.t_star)
        if 0 < ts < np.inf:
            t_lo = min(t_lo, ts / 10)
        geo = np.geomspace(t_lo, step, int(10 * np.log10(step / t_lo)) + 2)
        uni = np.arange(step, T + step, step)
        pts = [geo, uni]
        if 0 < ts < T:
            pts.append([ts])
        g = np.unique(np.concatenate(pts))
        self.grid = (g, self.Lf(g), T)


def loss_grid(noise, sensitivity=1, *, digits=12):
    r"""The float64 scan grid of :math:`L_\Delta(t)` on :math:`(0, T]` used by :func:`hockey_stick`: ``(t, L, T)``.

    >>> from arete_proofs.noise import make
    >>> t, L, T = loss_grid(make("arete", alpha="0.3", theta=1, lam="0.5"), 1, digits=6)
    >>> bool(np.all(np.abs(L) <= 1 / 0.5 + 1e-12))   # |L| <= Delta/lam (Lipschitz bound)
    True
    """
    loss = _Loss(noise, sensitivity, digits)
    loss.build_grid(loss.end())
    return loss.grid


def _sign_changes(loss, eps):
    """Sorted points where L - eps changes sign on (0, T], and the sign at 0+ and at T."""
    t, Lv, T = loss.grid
    g = Lv - float(eps)
    # subdivide cells where the Lipschitz bound allows a hidden pair of sign changes
    extra_t, extra_g = [], []
    a, b, ga, gb = t[:-1], t[1:], g[:-1], g[1:]
    for _ in range(MAX_LEVELS):
        bad = loss.hidden_pair(a, b, ga, gb, eps) & (np.abs(ga) > FLOAT_MARGIN) \
            & (np.abs(gb) > FLOAT_MARGIN) & (b - a > 2.0 ** -MAX_LEVELS * b)
        if not bad.any():
            break
        a, b, ga, gb = a[bad], b[bad], ga[bad], gb[bad]
        m = (a + b) / 2
        gm = loss.Lf(m) - float(eps)
        extra_t.append(m)
        extra_g.append(gm)
        a, b, ga, gb = np.concatenate([a, m]), np.concatenate([m, b]), np.concatenate([ga, gm]), np.concatenate([gm, gb])
    if extra_t:
        t = np.concatenate([t, *extra_t])
        g = np.concatenate([g, *extra_g])
        order = np.argsort(t)
        t, g = t[order], g[order]
    signs = np.sign(g)
    # points near eps (float noise) and the maximiser: the engine decides
    near = np.nonzero(np.abs(g) <= FLOAT_MARGIN)[0]
    with mp.workdps(loss.dps):
        for i in near:
            signs[i] = 1 if loss.L(t[i]) > eps else -1
    signs[signs == 0] = -1
    return t, signs


def _narrow(loss, eps, a, b, ga, gb):
    """A sub-bracket of (a, b) around the float64 root of L - eps, kept only if the engine confirms it."""
    fa, fb = float(a), float(b)
    try:
        r = optimize.brentq(lambda x: float(loss.Lf([x])[0]) - float(eps), fa, fb, xtol=1e-15, rtol=1e-13)
    except ValueError:  # no float sign change in (a, b)
        return a, b, ga, gb
    for w in (1e-9, 1e-6, 1e-3):
        lo, hi = max(fa, r - w * max(abs(r), 1e-300)), min(fb, r + w * max(abs(r), 1e-300))
        if not fa <= lo < hi <= fb:
            continue
        glo, ghi = loss.L(lo) - eps, loss.L(hi) - eps
        if (glo > 0) == (ga > 0) and (ghi > 0) == (gb > 0):
            return mp.mpf(lo), mp.mpf(hi), glo, ghi
    return a, b, ga, gb


def _root(loss, eps, a, b):
    """The engine root of L - eps in (a, b) (a bracket with a sign change)."""
    with mp.workdps(loss.dps):
        a, b = mp.mpf(a), mp.mpf(b)
        ga, gb = loss.L(a) - eps, loss.L(b) - eps
        if ga == 0:
            return a
        if gb == 0:
            return b
        if (ga > 0) == (gb > 0):
            return None  # float and engine disagree: no sign change here
        if loss.hints.slow_engine:  # slow engine: narrow the bracket around the float64 root first
            a, b, ga, gb = _narrow(loss, eps, a, b, ga, gb)
        for _ in range(400):
            # Illinois regula falsi, with bisection in log scale for brackets spanning decades
            if a > 0 and b / a > 4:
                m = mp.sqrt(a * b)
            else:
                m = a - ga * (b - a) / (gb - ga)
                if not a < m < b:
                    m = (a + b) / 2
            gm = loss.L(m) - eps
            if gm == 0:
                return m
            if (gm > 0) == (ga > 0):
                a, ga = m, gm
                gb = gb / 2
            else:
                b, gb = m, gm
                ga = ga / 2
            if b - a <= abs(b) * mp.mpf(10) ** -(loss.dps - 2) or b - a < mp.mpf(10) ** -(loss.dps + 300):
                return (a + b) / 2
        raise PrecisionError("root of the privacy loss not resolved")


def _set_A(loss, eps):
    """The intervals (a, b) of A = {L > eps} in (-s/2, oo) (b = +inf for an unbounded tail)."""
    with mp.workdps(loss.dps):
        s = loss.s
        L0 = loss.L(mp.zero)
        intervals = []
        start = None
        if L0 > eps:
            if eps == 0:
                start = -s / 2
            else:
                start = _root(loss, eps, -s / 2 * (1 - mp.mpf(10) ** -(loss.dps + 5)), mp.zero)
        t, signs = _sign_changes(loss, eps)
        inside = L0 > eps
        prev_t = 0.0
        for ti, si in zip(t, signs):
            now = si > 0
            if now != inside:
                r = _root(loss, eps, prev_t, ti)
                if r is not None:
                    if now:
                        start = r
                    else:
                        intervals.append((start, r))
                    inside = now
            prev_t = ti
        if inside:
            intervals.append((start, mp.inf))
    return intervals


def _masses(loss, intervals, eps, dps):
    """(p_mass, q_mass, scale): P(Z in A), P(Z + s in A) and the sum of |terms| (for cancellation)."""
    pts = []
    for a, b in intervals:
        pts += [a, a + loss.s] + ([] if mp.isinf(b) else [b, b + loss.s])
    vals = iter(loss.sf(pts, dps) if pts else [])
    with mp.workdps(dps + GUARD_DIGITS):
        p = q = scale = mp.zero
        for a, b in intervals:
            sa, sas = next(vals), next(vals)
            sb, sbs = (mp.zero, mp.zero) if mp.isinf(b) else (next(vals), next(vals))
            p += sa - sb
            q += sas - sbs
            scale += sa + sb + mp.exp(eps) * (sas + sbs)
    return p, q, scale


def hockey_stick_details(noise, sensitivity=1, eps=0, *, digits=12, _loss=None):
    r""":math:`\delta(\varepsilon)` of one release with its set :math:`A` and masses (:class:`HockeyStick`).

    See :func:`hockey_stick` and the module docstring.

    >>> from arete_proofs.noise import make
    >>> r = hockey_stick_details(make("arete", alpha="0.3", theta=1, lam="0.5"), 1, 1, digits=6)
    >>> r.intervals[0][0] < 0 < r.delta < r.p_mass          # A starts in (-Delta/2, 0)
    True
    """
    if _loss is None and getattr(noise, "kernel", None) in ("laplace", "gauss"):  # lattice laws: every real shift
        from . import accounting_lattice

        return accounting_lattice.lattice_account(noise, sensitivity, eps, digits=digits)
    if _loss is None and getattr(noise, "integer_valued", False):  # dlap, gdl, msdlap: sums over the integers
        if not getattr(noise, "symmetric_unimodal", False):  # msdlap: every shift (accounting_lattice)
            from . import accounting_lattice

            return accounting_lattice.hockey_stick_details(noise, sensitivity, eps, digits=digits)
        from . import accounting_discrete

        return accounting_discrete.hockey_stick_details(noise, sensitivity, eps, digits=digits)
    loss = _loss or _Loss(noise, sensitivity, digits)
    e = _check_eps(eps, loss.digits)
    r = loss.tight
    if e >= r.epsilon:  # (d): A is empty at and above the tight epsilon
        return HockeyStick(mp.zero, e, (), mp.zero, mp.zero, r, loss.digits)
    T = loss.end()
    for _ in range(6):
        if loss.grid is None or loss.grid[2] < T:
            loss.build_grid(T)
        intervals = _set_A(loss, e)
        dps = loss.dps
        for _ in range(4):
            p, q, scale = _masses(loss, intervals, e, dps)
            with mp.workdps(dps + GUARD_DIGITS):
                delta = p - mp.exp(e) * q
            if delta <= 0:
                lost = dps  # all digits cancelled: more precision
            else:
                lost = int(mp.log10(scale / delta)) + 1
            if lost <= dps - loss.digits - 3:
                break
            dps = loss.digits + lost + GUARD_DIGITS
        else:
            raise PrecisionError("delta(eps) lost to cancellation; eps is too close to the tight epsilon")
        # the mass beyond the grid must not matter
        with mp.workdps(loss.dps):
            tail = loss.sf([mp.mpf(loss.grid[2])], loss.dps)[0]
        if tail <= delta * mp.mpf(10) ** -(loss.digits + 3):
            with mp.workdps(loss.digits + GUARD_DIGITS):
                return HockeyStick(+delta, e, tuple(intervals), +p, +q, r, loss.digits)
        T = loss.grid[2] * 2
    raise PrecisionError("delta(eps) is too small to resolve against the tail of Z")


def hockey_stick(noise, sensitivity=1, eps=0, *, digits=12):
    r"""Exact :math:`\delta(\varepsilon) = \sup_{0<s\le\Delta}\int (f(t) - e^\varepsilon f(t+s))_+ dt` of one release.

    The smallest :math:`\delta` for which ``noise`` (a symmetric unimodal family of
    :mod:`arete_proofs.noise` that supports ``account``: ``laplace``, ``arete``, ``arete_gauss``) on
    a query of sensitivity ``sensitivity`` (:math:`\Delta`) is :math:`(\varepsilon,\delta)`-DP,
    ``digits`` significant digits (plus guard digits); exactly 0 for
    :math:`\varepsilon \ge \varepsilon^*`, the tight epsilon (Section 4.2, Corollary 5).
    The supremum is at :math:`s = \Delta` (module docstring, proof (a)-(c)).  With a Gaussian part
    (``arete_gauss``, any :math:`\alpha > 0`, ``lam = 0`` allowed): module docstring, *With a
    Gaussian part*, with :math:`\varepsilon^*` of :func:`arete_proofs.privacy.tight_gauss.tight_epsilon`.

    >>> from mpmath import mp
    >>> from arete_proofs.noise import make
    >>> z = make("arete", alpha="0.3", theta=1, lam="0.5")
    >>> # eps = 0: delta is the total variation P(|Z| < Delta/2), a closed CDF difference
    >>> d = hockey_stick(z, 1, 0, digits=10)
    >>> mp.almosteq(d, z.cdf("0.5", digits=12) - z.cdf("-0.5", digits=12), 1e-10)
    True
    """
    return hockey_stick_details(noise, sensitivity, eps, digits=digits).delta


def epsilon_for_delta(noise, sensitivity=1, delta=1e-6, *, digits=12):
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\delta(\varepsilon) \le \delta` (:func:`hockey_stick`), ``0 < delta < 1``.

    Safeguarded Newton on :math:`\ln\delta(\varepsilon)` with the exact derivative
    :math:`\delta'(\varepsilon) = -e^\varepsilon P(Z+\Delta \in A)`, bracketed in
    :math:`[0, \varepsilon^*]`; relative accuracy :math:`10^{-\text{digits}}`.

    For Laplace noise of scale :math:`\lambda`, :math:`\delta(\varepsilon) = 1 - e^{(\varepsilon - \Delta/\lambda)/2}`
    for :math:`\varepsilon \le \Delta/\lambda`, so :math:`\varepsilon(\delta) = \Delta/\lambda + 2\ln(1-\delta)`:

    >>> from mpmath import mp
    >>> from arete_proofs.noise import make
    >>> e = epsilon_for_delta(make("laplace", lam=1), 1, "1e-3", digits=8)
    >>> mp.almosteq(e, 1 + 2 * mp.log(mp.mpf("0.999")), 1e-8)
    True
    """
    if getattr(noise, "kernel", None) in ("laplace", "gauss"):  # lattice laws: numerical, every real shift
        from . import accounting_lattice

        return mp.mpf(accounting_lattice.lattice_epsilon_for_delta(noise, sensitivity, delta))
    if getattr(noise, "integer_valued", False) and not getattr(noise, "symmetric_unimodal", False):  # msdlap
        from . import accounting_lattice

        return accounting_lattice.epsilon_for_delta(noise, sensitivity, delta, digits=digits)
    if getattr(noise, "integer_valued", False):  # dlap, gdl
        from . import accounting_discrete

        return accounting_discrete.epsilon_for_delta(noise, sensitivity, delta, digits=digits)
    loss = _Loss(noise, sensitivity, digits)
    with mp.workdps(parse_precision(loss.digits)):
        target = real(delta, "delta")
        if not 0 < target < 1:
            raise ValueError(f"delta must be in (0, 1), got {mp.nstr(target, 8)}")
    r0 = hockey_stick_details(None, eps=0, _loss=loss)
    if r0.delta <= target:
        return mp.zero
    x0 = None
    if loss.digits > 6:  # a 6-digit solve first: Newton then needs two or three full-precision steps
        x0 = epsilon_for_delta(noise, sensitivity, delta, digits=6)
    with mp.workdps(loss.dps):
        lo, hi = mp.zero, mp.mpf(loss.tight.upper_bound)
        x = hi / 2 if x0 is None or x0 == 0 else mp.mpf(x0)
        tol = mp.mpf(10) ** -(loss.digits + 2)
        for _ in range(200):
            r = hockey_stick_details(None, eps=x, _loss=loss)
            if r.delta > target:
                lo = x
            else:
                hi = x
            if r.delta > 0:
                # Newton on ln delta: phi = ln(delta/target), phi' = -e^eps q / delta
                step = mp.log(r.delta / target) * r.delta / (mp.exp(x) * r.q_mass)
                nx = x + step
            else:
                nx = (lo + hi) / 2
            if not lo < nx < hi:
                nx = (lo + hi) / 2
            if abs(nx - x) <= tol * max(abs(x), 1) or hi - lo <= tol * hi:
                with mp.workdps(loss.digits + GUARD_DIGITS):
                    return +nx
            x = nx
    raise PrecisionError("epsilon(delta) did not converge")
