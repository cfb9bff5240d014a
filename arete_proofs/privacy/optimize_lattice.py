r"""Least error of lattice + Gaussian noise at a target epsilon (beyond both papers).

The family :math:`Z = h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)`, :math:`h = \Delta/m`
(:mod:`arete_proofs.distributions.lattice`).  Its law is a comb, not unimodal, so the loss is
taken over every shift :math:`|s| \le \Delta`:

.. math::

   \varepsilon^* = \sup_t \Big[\ln f(t) - \min_{|v - t| \le \Delta} \ln f(v)\Big],\qquad
   f(t) = \sum_k p_k\, \varphi_\sigma(t - hk).

**The float64 estimator** (:func:`estimate_epsilon`).  With :math:`\lambda = a/m` the least pole
modulus per lattice index, the *tilted* pmf :math:`q_k = p_k e^{\lambda k}` is bounded and tends to
the periodic profile :math:`C_{k \bmod m}` (:func:`tilted_pmf`: a truncated convolution of the
tilted DLap laws, by FFT; :math:`p_{-k} = p_k` gives the left side).  Then
:math:`\ln f(t) = \ln F(t) - (\lambda/h) t` with :math:`F(t) = \sum_k q_k\, \varphi_\sigma(t - hk)\,
e^{(\lambda/h)(t - hk)}`, which has no underflow.  The window maximum is taken on a grid of ``grid``
points per lattice step over :math:`0 \le t \le T` (:math:`T` where :math:`q` has reached its
profile to :math:`10^{-12}`), with a sliding minimum over :math:`|v - t| \le \Delta`, and the best
grid pairs are refined (Brent): an interior pair (:math:`t` a local maximum, :math:`v` a local
minimum) or an end pair :math:`|t - v| = \Delta` (a maximum of :math:`\ln f(t) - \ln f(t \pm \Delta)`).
The tail limit is the same maximisation on one period of the limit law
:math:`f_\infty(t) = \sum_{k\in\mathbb Z} C_{k \bmod m} e^{-\lambda k}\varphi_\sigma(t - hk)`; the
estimate is the larger of the two.  It is a float64 *estimate* (error measured against the exact
:func:`arete_proofs.privacy.tight_lattice.tight_epsilon_lattice_gauss`: below :math:`10^{-14}` at
(a, m, sigma) = (3, 2, 0.2), (3.9, 4, 0.1) (tail maxima), equal to the recorded 8 digits 8.0041235 at
(7.945, 28, 0.015) (an interior maximum), and to the 8 digits of the exact check at the frontier's
optima for eps = 4 and 8); about 0.1 s at m = 28 once the table (1-2 s per (a, m)) is cached.  The
optimiser's confirmation uses the exact value.

**The search** (:class:`LatticeGaussProblem`): for each :math:`m` of a small set, the free
coordinate is :math:`u = \ln(\varepsilon - a)` (``top=True``, the free top rate of
``lattice_gauss_top``: :math:`(v, w)` with :math:`a = \varepsilon + v` on either side of
:math:`\varepsilon` and :math:`a_{top} = \varepsilon - e^w`); :math:`\sigma` is the smallest with the estimate at
``eps * (1 - margin)`` (bisection: :math:`\varepsilon^*` decreases in :math:`\sigma`, adding
independent noise is post-processing); objective :math:`E|Z|` or :math:`\operatorname{Var} Z`.
The confirmation is the exact tight epsilon (its window is a numerical maximisation:
**not certified**).

>>> e = estimate_epsilon(7.945, 28, 0.015)     # the exact engine gives 8.0041235 (8 digits)
>>> abs(e - 8.0041235) < 1e-5
True
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ._lattice_loss import _kernel_radius, _logF, _max_loss
from .lattice_large import _top
from .optimizer import Pass, SearchProblem

__all__ = ["tilted_pmf", "estimate_epsilon", "estimate", "mean_abs", "variance", "solve_sigma",
           "LatticeGaussProblem", "optimize", "MARGIN", "M_CHOICES", "VARIANCE_M", "CERTIFY_M_MAX", "MAX_TABLE_ERROR", "LARGE_M",
           "TOP_START"]

#: the float64 estimate is solved at eps * (1 - MARGIN) so that the exact value lands below eps
MARGIN = 2e-7

#: the search keeps a <= eps (1 - A_GAP): the tail limit exceeds a by the comb's ripple, which the float64 grid
#: can miss when a is that close to eps (it did at eps = 2, by 2e-4): a = eps cannot be certified
A_GAP = 1e-3

#: the largest relative rounding error (FFT, ~1e-16 of the largest tilted value) accepted in :func:`tilted_pmf`
MAX_TABLE_ERROR = 1e-8

#: above this m (and h = Delta/m) the estimator is :func:`arete_proofs.privacy.lattice_large.estimate`
#: (positive sums, window 0 <= t <= 3 Delta plus the exact-profile tail limit) instead of the FFT table
LARGE_M = 60

#: default lattice sizes m searched at a target eps (rounded to an integer eps; else the nearest)
M_CHOICES = {4: (3, 4, 5, 6), 6: (12, 16, 20), 8: (28, 34, 40), 10: (70, 90, 110), 12: (50, 65, 80)}
#: the largest m whose optimum :meth:`LatticeGaussProblem.certify` proves with the cover of
#: :func:`arete_proofs.certified.combs_gauss.certify_lattice_gauss` (seconds at m = 34, 100 s at m = 90); above it the
#: exact engine (numerical window, not certified)
CERTIFY_M_MAX = 130

#: the search with a free top rate (``top=True``) starts at a_top = eps - TOP_START (the first searches, a <= eps:
#: a_top = eps - 0.088 at eps = 8, eps - 0.12 at 6; E|Z| 1.168 and 1.172 times the Staircase's).  The other
#: scales' a is free on both sides of eps: the loss of the centre against the flat comb is about
#: a - ln(sqrt(2 pi) sigma/h), below a (at eps = 8, m = 34: E|Z| 0.021396 at a = 7.9987, 0.021091 at a = 8.2)
TOP_START = 0.1

#: the variance objective (eps > 4.5) searches m = c e^{eps/3} for c in this tuple (a run with E|Z|'s
#: choices ended at the smallest m at every eps from 4 to 10, up to 1.7 times the Staircase's variance at eps = 10)
VARIANCE_M = (0.65, 0.9, 1.25)


@functools.lru_cache(maxsize=64)
def tilted_pmf(a, m, tol=1e-12, a_top=None):
    r"""``(q, k0)``: :math:`q_k = p_k e^{\lambda k}` of MSDLap(a, m), :math:`\lambda = a/m`, for :math:`k = -k_0 \dots N`.

    :math:`N` is where the tilted pmf has reached its periodic profile :math:`C_{k \bmod m}` to
    ``tol`` (rate :math:`\theta = a/(m-1) - a/m` per index), plus two periods; the last period is the
    profile.  The FFT's rounding is absolute: a ``ValueError`` when the values span more than
    :math:`10^{16}` :data:`MAX_TABLE_ERROR` (large :math:`m`, e.g. :math:`m = 100` at :math:`a = 11.6`).  Components :math:`i\,\mathrm{DLap}(a)` tilted by :math:`e^{\lambda i x}` are cut at
    :math:`x \ge -T_0` (:math:`e^{-aT_0} < e^{-40}`) and at :math:`i x \le N + S T_0`
    (:math:`S = m(m+1)/2`), which keeps every term with :math:`k \le N`.  :math:`q_{-k} = q_k e^{-2\lambda k}`.

    >>> q, k0 = tilted_pmf(2.0, 1)           # DLap(2): p_k e^{2k} = tanh(1) for k >= 0
    >>> bool(abs(q[k0 + 5] - math.tanh(1.0)) < 1e-12)
    True
    """
    from scipy import signal

    a, m = float(a), int(m)
    a_top = _top(a, a_top)
    at = a if a_top is None else a_top
    lam = at / m
    theta = a / (m - 1) - lam if m > 1 else a
    N = int(math.ceil(-math.log(tol) / theta)) + 2 * m + 2
    T0 = int(math.ceil(40 / at)) + 1
    S = m * (m + 1) // 2
    lo, hi = -S * T0, N + S * T0          # index range kept for every partial sum
    dist = np.zeros(hi - lo + 1)
    dist[-lo] = 1.0
    for i in range(1, m + 1):
        r = at if i == m else a           # the top scale's own rate (a_top)
        X = (N + S * T0) // i + 1
        x = np.arange(-T0, X + 1)
        ker = np.zeros(i * (X + T0) + 1)
        ker[i * (x + T0)] = math.tanh(r / 2) * np.exp(-r * np.abs(x) + lam * i * x)
        full = signal.fftconvolve(dist, ker)
        # full[j] is index lo + j - i*T0
        start = i * T0
        dist = full[start:start + (hi - lo + 1)]
    q_pos = dist[-lo:-lo + N + 1]                    # k = 0..N
    # the FFT's rounding is absolute (~1e-16 of the largest value): refuse a table whose small values it swamps
    spread = float(np.max(q_pos) / np.min(q_pos)) if np.min(q_pos) > 0 else math.inf
    if not spread * 1e-16 < MAX_TABLE_ERROR:
        raise ValueError(f"m = {m} is too large for the float64 tilted table at a = {a} (q_k spans {spread:.3g}: "
                         f"FFT rounding above {MAX_TABLE_ERROR:g} relative)")
    k0 = m + 2 * m                                   # left side down to -3m (enough for |v| <= Delta + 12 sigma)
    kk = np.arange(1, k0 + 1)
    left = (q_pos[kk] * np.exp(-2 * lam * kk))[::-1]
    return np.concatenate([left, q_pos]), k0


def estimate(a, m, sigma, Delta=1.0, h=None, *, grid=8, refine=6, a_top=None):
    r"""Float64 estimate of :math:`\varepsilon^*` of lattice + Gaussian (module docstring): a dict with
    ``epsilon`` (max of ``window`` and ``tail``), the pairs ``window_pair`` and ``tail_pair``, and ``T``.

    >>> r = estimate(3.0, 2, 0.2, 1.0, 0.5)
    >>> r["epsilon"] >= r["tail"] > 0
    True
    """
    a, m, sigma, Delta = float(a), int(m), float(sigma), float(Delta)
    h = Delta / m if h is None else float(h)
    if not (a > 0 and m >= 1 and sigma > 0 and Delta > 0 and h > 0):
        raise ValueError(f"need a > 0, m >= 1, sigma > 0, Delta > 0, h > 0; got a={a}, m={m}, sigma={sigma}, "
                         f"Delta={Delta}, h={h}")
    if m > LARGE_M and abs(h * m - Delta) <= 1e-12 * Delta:
        from . import lattice_large

        return lattice_large.estimate(a, m, sigma, Delta, grid=grid, refine=refine, a_top=a_top)
    a_top = _top(a, a_top)
    q, k0 = tilted_pmf(a, m, a_top=a_top)
    lam_h = (a if a_top is None else a_top) / m / h
    N = q.size - k0 - 1
    base = (N - m + 1) // m * m          # the last full period, from a multiple of m: profile[r] = C_r
    profile = q[k0 + base:k0 + base + m]
    R = _kernel_radius(sigma, h)
    T = h * (N - 2 * m - R) - Delta
    if T < 0:
        raise ValueError("the tilted pmf table is too short for this sigma (sigma/h too large)")
    dx = h / grid
    W, wp = _max_loss(lambda t: _logF(t, q, k0, h, sigma, lam_h) - lam_h * t, 0.0, T, Delta, dx, refine)
    L, lp = _max_loss(lambda t: _logF(t, None, 0, h, sigma, lam_h, profile=profile) - lam_h * t, 0.0, m * h,
                      Delta, dx, refine)
    return {"epsilon": max(W, L), "window": W, "tail": L, "window_pair": wp, "tail_pair": lp, "T": T}


def estimate_epsilon(a, m, sigma, Delta=1.0, h=None, *, grid=8, a_top=None):
    r"""The float64 estimate of :math:`\varepsilon^* = \sup_{|t-v| \le \Delta} \ln f(t)/f(v)` (:func:`estimate`'s ``epsilon``).

    >>> estimate_epsilon(3.0, 2, 0.25) < estimate_epsilon(3.0, 2, 0.2)      # more smoothing, less loss
    True
    """
    return estimate(a, m, sigma, Delta, h, grid=grid, a_top=a_top)["epsilon"]


def variance(a, m, sigma, h, a_top=None):
    r""":math:`\operatorname{Var} Z = h^2 S_2(m)/(\cosh a - 1) + \sigma^2`, :math:`S_2(m) = m(m+1)(2m+1)/6` (float;
    with ``a_top`` the top scale's :math:`m^2` term has :math:`\cosh a_{top}`).

    >>> abs(variance(2.0, 2, 0.2, 0.5) - (0.25 * 5 / (math.cosh(2) - 1) + 0.04)) < 1e-15
    True
    """
    at = a if a_top is None else float(a_top)
    s2 = m * (m + 1) * (2 * m + 1) / 6
    return h * h * ((s2 - m * m) / (math.cosh(a) - 1) + m * m / (math.cosh(at) - 1)) + sigma * sigma


def mean_abs(a, m, sigma, h, a_top=None):
    r""":math:`E|Z| = \sum_k p_k\, E|hk + N(0,\sigma^2)|`, :math:`E|x + N| = x\,\mathrm{erf}(x/\sigma\sqrt2) + 2\sigma\varphi(x/\sigma)` (float).

    >>> from arete_proofs.distributions.lattice import lattice_gauss
    >>> abs(mean_abs(3.0, 2, 0.2, 0.5) - float(lattice_gauss("3", 2, "0.2", "0.5", digits=15).mean_abs())) < 1e-12
    True
    """
    from scipy import special

    if int(m) > LARGE_M:
        from . import lattice_large

        return lattice_large.mean_abs(a, m, sigma, h, a_top=a_top)
    a_top = _top(a, a_top)
    q, k0 = tilted_pmf(float(a), int(m), a_top=a_top)
    k = np.arange(0, q.size - k0)
    p = q[k0:] * np.exp(-float(a if a_top is None else a_top) / m * k)
    x = h * k
    e = x * special.erf(x / (sigma * math.sqrt(2))) + 2 * sigma * np.exp(-0.5 * (x / sigma) ** 2) / math.sqrt(2 * math.pi)
    w = np.where(k == 0, 1.0, 2.0)
    return float(np.sum(w * p * e))


def solve_sigma(target, a, m, Delta=1.0, *, guess=None, grid=8, rtol=1e-10, a_top=None):
    r"""The smallest :math:`\sigma` with :func:`estimate_epsilon` :math:`\le` ``target`` (bisection on :math:`\ln\sigma`).

    The loss decreases in :math:`\sigma` (post-processing); ``None`` when even a wide smoothing
    (:math:`\sigma = 2h`) misses it (for :math:`a` above the target: the tail limit is at least :math:`a`).

    >>> s = solve_sigma(8.0, 7.945, 28)
    >>> abs(estimate_epsilon(7.945, 28, s) - 8.0) < 1e-6
    True
    """
    from scipy import optimize as so

    h = Delta / m
    if (a if a_top is None else a_top) >= target:     # the tail limit is at least a (a_top)
        return None

    def g(u):
        return estimate_epsilon(a, m, math.exp(u), Delta, grid=grid, a_top=a_top) - target

    hi = math.log(2 * h)
    if g(hi) > 0:
        return None
    lo = math.log(guess) - 0.05 if guess else math.log(0.3 * h)
    while g(lo) <= 0:
        hi = lo
        lo -= 0.3
        if lo < math.log(0.05 * h):
            return math.exp(hi)
    if guess and g(math.log(guess) + 0.05) <= 0:
        hi = min(hi, math.log(guess) + 0.05)
    return math.exp(so.brentq(g, lo, hi, xtol=rtol))


def _value(objective, a, m, sigma, h, a_top=None):
    return mean_abs(a, m, sigma, h, a_top) if objective == "mean_abs" else variance(a, m, sigma, h, a_top)


class LatticeGaussProblem(SearchProblem):
    r"""The lattice + Gaussian family's problem for the generic optimiser (:mod:`arete_proofs.privacy.optimizer`).

    At :math:`\Delta = 1`, :math:`h = 1/m`.  ``m``: one lattice size, or ``m_choices`` (default
    :data:`M_CHOICES` at the nearest tabulated eps); :meth:`starts` picks the best :math:`m` by a
    coarse bounded scan over :math:`u = \ln(\varepsilon - a)` and the Nelder-Mead pass refines
    :math:`u`.  Calibrated: :math:`\sigma` (:func:`solve_sigma` at ``eps * (1 - margin)``).
    Confirmation: the exact :func:`arete_proofs.privacy.tight_lattice.tight_epsilon_lattice_gauss`
    at ``confirm_digits`` (its ``upper_bound``; the window part is a numerical maximisation, **not
    certified**); while above the target, :math:`\sigma` grows.

    >>> p = LatticeGaussProblem(8, m=28)
    >>> p.m_choices, p.scaled({"a": 7.9, "m": 28, "sigma": 0.015, "h": 1 / 28}, 2.0)["sigma"]
    ((28,), 0.03)
    """

    family = "lattice_gauss"
    max_confirmations = 4

    def __init__(self, eps, *, objective="mean_abs", m=None, m_choices=None, margin=MARGIN, grid=8,
                 confirm_digits=8, scan_points=7, maxfev=20, top=False):
        from mpmath import mp

        from .._validation import parse_precision, positive

        if objective not in ("mean_abs", "variance"):
            raise ValueError(f"objective must be 'mean_abs' or 'variance', got {objective!r}")
        with mp.workdps(parse_precision(15)):
            e = float(positive(eps, "eps"))
        super().__init__(e, objective=objective)
        self.eps_text = eps
        if m is not None:
            if int(m) != m or int(m) < 2:
                raise ValueError(f"m must be an integer >= 2, got {m!r}")
            m_choices = (int(m),)
        elif m_choices is None:
            key = min(M_CHOICES, key=lambda k: abs(k - e))
            if e > 10.5:  # the optimal m grows like 0.6 e^{eps/2} (docs/explanation/lattice-gaussian.md): 250 at 12, 13 000 at 20
                m_choices = tuple(int(round(c * 0.6 * math.exp(e / 2))) for c in (0.8, 1.0))
            else:
                m_choices = tuple(max(2, int(round(c * math.exp((e - key) / 2.4)))) for c in M_CHOICES[key])
            if objective == "variance" and e > 4.5:
                # Var = sigma^2 + h^2 sum_i i^2 Var X_i ~ c/m^2 + m e^{-a}/3: the optimum m grows like e^{eps/3},
                # not like E|Z|'s e^{eps/2}
                m_choices = tuple(sorted({max(2, int(round(c * math.exp(e / 3)))) for c in VARIANCE_M}))
        self.m_choices = tuple(int(c) for c in m_choices)
        self.m = self.m_choices[0]
        self.target = e * (1 - margin)
        self.grid = grid
        self.confirm_digits = confirm_digits
        self.scan_points = scan_points
        self.coarse = Pass(step=0.3, xatol=2e-3, fatol=1e-7, maxfev=maxfev * (2 if top else 1))
        self.scan = []
        self._sigma = {}
        # top: coordinates (v, w), a = eps + v and a_top = eps - e^w (the top scale's own rate; TOP_START)
        self.top = bool(top)

    # -- the search ----------------------------------------------------------------------
    def _a(self, u):
        return self.eps + u if self.top else self.eps - math.exp(u)

    def _rates(self, x):
        """``(a, a_top)`` at the search point ``x`` (``a_top`` None without the top rate)."""
        a = self._a(float(x[0]))
        return a, (self.eps - math.exp(float(x[1])) if self.top else None)

    def _sigma_at(self, a, m, at=None):
        key = (round(a, 12), m, None if at is None else round(at, 12))
        if key not in self._sigma:
            self.evaluations += 1
            guess = next((s for (aa, mm, _), s in reversed(list(self._sigma.items())) if mm == m and s), None)
            self._sigma[key] = solve_sigma(self.target, a, m, guess=guess, grid=self.grid, a_top=at)
        return self._sigma[key]

    def _log_value(self, u, m, w=None):
        a, at = self._rates((u, w))
        # the tail limit is at least a (a_top with a top rate): keep it a relative A_GAP below eps, or no sigma
        # confirms (the variance objective pushes a towards eps)
        if not 0.2 < (a if at is None else at) <= self.eps * (1 - A_GAP):
            return 1e9
        if at is not None and not at <= a <= self.eps + 3:
            return 1e9
        try:
            s = self._sigma_at(a, m, at)
        except ValueError:  # the float64 table cannot represent this (a, m)
            return 1e9
        if s is None:
            return 1e9
        return math.log(_value(self.objective, a, m, s, 1.0 / m, at))

    def starts(self):
        from scipy import optimize as so

        best = None
        w0 = math.log(TOP_START) if self.top else None      # the scan over m: at the start's top rate
        bounds = (-TOP_START, 1.0) if self.top else (math.log(0.005), math.log(1.5))
        for m in self.m_choices:
            r = so.minimize_scalar(lambda u, m=m, w0=w0: self._log_value(u, m, w0), bounds=bounds,
                                   method="bounded", options={"xatol": 0.05 if not self.top else 0.01,
                                                              "maxiter": self.scan_points})
            self.scan.append((m, self._a(r.x), math.exp(r.fun) if r.fun < 1e8 else None))
            if best is None or r.fun < best[0]:
                best = (r.fun, m, r.x)
        self.m = best[1]
        if self.top:
            return [np.array([best[2], math.log(TOP_START)])]
        return [np.array([best[2]])]

    def F(self, x, guess=None):
        return self._log_value(float(x[0]), self.m, float(x[1]) if self.top else None)

    def finish(self, x):
        (a, at), m = self._rates(x), self.m
        if not (a > 0 and (at is None or at > 0)):
            # the search ended outside the family (a = eps - e^u <= 0): the target is below what it can reach
            raise ValueError(f"eps (--epsilon) = {self.eps_text} is too small for the lattice + Gaussian search: it "
                             f"ended at DLap rate a = {a:.4g} <= 0 (the search is calibrated for eps in "
                             f"[{min(M_CHOICES)}, {max(M_CHOICES)}], M_CHOICES)")
        s = self._sigma_at(a, m, at)
        params = {"a": a, "m": m, "sigma": s, "h": 1.0 / m}
        if self.top:
            params["a_top"] = at
        return (params, estimate_epsilon(a, m, s, grid=self.grid, a_top=at),
                _value(self.objective, a, m, s, 1.0 / m, at))

    # -- the confirmation: the certified enclosure (m <= CERTIFY_M_MAX, through the noise class), else the exact
    # -- tight epsilon (numerical window, not certified) ------------------------------------------------------
    def scaled(self, params, D):
        # ``epsilon_certified``: printed by ``arete optimize`` with the parameters (which branch of certify runs)
        top = {"a_top": params["a_top"]} if "a_top" in params else {}
        return {"a": params["a"], **top, "m": params["m"], "sigma": params["sigma"] * D, "h": params["h"] * D,
                "epsilon_certified": self._provable(params)}

    def _provable(self, params):
        # certify's branch: the cover (through the noise class) for m <= CERTIFY_M_MAX, else the exact engine
        return self.noise_class is not None and int(params["m"]) <= CERTIFY_M_MAX

    def noise(self, params):
        if self.noise_class is None:
            return None
        return self.noise_class(**{k: params[k] for k in ("a", "a_top", "m", "sigma", "h") if k in params})

    def certify(self, params, Delta, digits):
        from types import SimpleNamespace

        from mpmath import mpf

        from .tight_lattice import tight_epsilon_lattice_gauss

        if self._provable(params):
            # the noise layer's proved enclosure (certified.combs_gauss, reached through the noise class: this
            # layer does not import certified/), width 1e-7 eps: inside the search's MARGIN of 2e-7 eps
            c = self.noise(params).certify(Delta, tol=repr(1e-7 * self.eps), numeric=False)
            return SimpleNamespace(epsilon=mpf(c.upper), upper_bound=mpf(c.upper), lower_bound=mpf(c.lower),
                                   t_star=None, details=c, certified=True)
        d = min(int(digits), int(self.confirm_digits))
        if "a_top" in params:   # the family's own numerical engine (rates a, ..., a, a_top): not certified
            r = self.noise(params).tight_epsilon(Delta, digits=d, grid=16)
            return SimpleNamespace(epsilon=r.epsilon, upper_bound=r.upper_bound, lower_bound=r.lower_bound,
                                   t_star=None, details=r, certified=bool(getattr(r.details, "certified", False)))
        r = tight_epsilon_lattice_gauss(repr(params["a"]), params["m"], repr(params["sigma"]), repr(params["h"]),
                                        Delta, digits=d, grid=16)
        w = r.witness
        return SimpleNamespace(epsilon=r.epsilon, upper_bound=r.upper_bound, lower_bound=r.lower_bound,
                               t_star=w if not r.attained else w[0], details=r, certified=r.certified)

    def moments(self, params, digits):
        from ..distributions.lattice import lattice_gauss

        d = min(int(digits), 15)
        if "a_top" in params:
            z = self.noise(params)
            return z.mean_abs(digits=d), z.var(digits=d)
        z = lattice_gauss(repr(params["a"]), params["m"], repr(params["sigma"]), repr(params["h"]), digits=d)
        return z.mean_abs(), z.var()

    def recalibrate(self, params, result, eps_mp, attempt):
        excess = float(result.upper_bound - eps_mp)
        return {**params, "sigma": params["sigma"] * (1 + 2.0 ** attempt * (1e-7 + 4 * excess / self.eps))}

    def failure(self, eps, params, result):
        return (f"could not confirm eps <= {self.eps_text!r} for {self.family} with the exact tight epsilon "
                f"(last parameters {params})")


def optimize(eps, Delta=1, *, objective="mean_abs", digits=8, **options):
    r"""Search and confirm (:func:`arete_proofs.privacy.optimizer.optimize` on :class:`LatticeGaussProblem`).

    Returns the :class:`arete_proofs.privacy.optimizer.Optimum` (``epsilon_upper`` :math:`\le` ``eps``:
    the exact engine's bound, not certified).
    """
    from . import optimizer

    return optimizer.optimize(LatticeGaussProblem(eps, objective=objective, confirm_digits=digits, **options), Delta,
                              digits=digits)
