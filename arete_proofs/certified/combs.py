r"""Certified tight epsilon of the combs (MSDLap) and of the Laplace-smoothed lattice laws, in ball arithmetic.

The engines (:mod:`arete_proofs.privacy.tight_discrete`, :mod:`arete_proofs.privacy.tight_lattice`)
compute :math:`\varepsilon^*` over **every** shift :math:`|s| \le \Delta` as a window maximum plus an
exact tail limit, in mpmath.  Here the same arguments are evaluated in python-flint ``arb``/``acb``
balls from the parameters converted **exactly** (decimal strings as rationals), so the result is an
interval :math:`[\mathrm{lo}, \mathrm{hi}] \ni \varepsilon^*` narrower than :math:`10^{-d}`.

**Combs** :math:`Z = \sum_c w_c X_c`, :math:`X_c \sim \mathrm{DLap}(a_c)` (:func:`certify_comb`):

1. *Pole constants as balls*: :math:`B_{c,r} = \frac1{w_c}\sum_j H_c(\rho_c\omega^j)\omega^{-jr}`
   (:mod:`arete_proofs.distributions.comb`) in ``acb``; :math:`p_k = \sum_c \rho_c^{-k} B_{c,k \bmod w_c}`
   is a ball for every window point (the cancellation near :math:`k = 0` is tracked by the balls),
   and the periodic tail profile :math:`C_r = B_{c^*, r}`.
2. *Tail bound*: :math:`C_r - E_k \le p_k e^{\lambda k} \le C_r` with the Chernoff bound
   :math:`E_k = \tanh(a^*/2)\, e^{-\theta k}\, E e^{(\lambda+\theta) Y}` (the other components' mgf in
   closed form), :math:`\theta` an exact rational below the gap of the two least moduli; so for
   :math:`k, j \ge K'` the loss is at most :math:`\ell(r, s) + \eta`, :math:`\eta = -\ln(1 - E_{K'}/\min_r C_r)`.
3. *Tail limit* :math:`L = \max_{r,\ |s| \le \Delta} \ln C_r - \ln C_{(r+s) \bmod w^*} + \lambda s` (balls).
4. *Window* :math:`W = \max_{0 \le k \le K}[\ln p_k - \min_{|j-k| \le \Delta}\ln p_j]`, :math:`K = K' + \Delta`,
   with ``arb`` max/min (enclosures of the max/min of the enclosed values).

Then :math:`\max(W, L) \le \varepsilon^* \le \max(W, L + \eta)`: the interval is the lower end of
the left side and the upper end of the right side.

**Laplace-smoothed lattice** :math:`Z = hM + \mathrm{Laplace}(b)` (:func:`certify_lattice_laplace`):
the exact reduction of :mod:`arete_proofs.privacy.tight_lattice` to lattice-point candidates
(cell convexity, monotone ratios), each candidate's loss a ball: the cell sums
:math:`S^L_k, S^R_k` are sums of positive balls over :math:`|j| \le J` plus a ball
:math:`[0, C_{\max} e^{-(h/b+\lambda)(J+1)}/(1 - e^{-(h/b+\lambda)})]` for the rest
(:math:`p_j \le C_{\max} e^{-\lambda |j|}`, item 2); the cell minimum at the clipped stationary point
:math:`u^* = \tfrac b2\ln(S^L/S^R)` is evaluated on a ball that contains the clipped point.  The limit
law :math:`f_\infty` (weights :math:`C_{k \bmod w} e^{-\lambda k}`) has its cell sums in closed form
(geometric series per residue).  Tail bound, for :math:`t` in a cell :math:`n \ge n_0` (:math:`\mu = h/b - \lambda`,
:math:`0 < \theta < \mu`, :math:`E_k \le E_0 e^{-\theta k}`):

.. math::

   \frac{|f - f_\infty|}{f_\infty}(t) \le \rho(n_0) =
   \frac{E_0}{C_{\min}} \frac{e^{-\theta n_0}}{1 - e^{-(\mu - \theta)}}
   + \frac{C_{\max}}{C_{\min}} e^{h/b} \frac{e^{-\mu}}{1 - e^{-\mu}} e^{-\mu n_0},

from :math:`f - f_\infty \ge -E_0\sum_{k \ge 0} e^{-(\lambda+\theta)k} g(t - hk) - \sum_{k<0} C_{\max}e^{\lambda|k|} g(t-hk)`,
:math:`f - f_\infty \le \sum_{k < 0} p_k g(t - hk)` and :math:`f_\infty \ge C_{\min}\sum_{k\ge0} e^{-\lambda k} g(t-hk)`
(the ratio of the two geometric mixtures is at most the larger of the ratios of their parts left and
right of :math:`t`).  With :math:`\eta = -\ln(1-\rho)`, :math:`T = h n_0 + \Delta`:
:math:`\max(W, L) \le \varepsilon^* \le \max(W, L + 2\eta)`.

**Certificates** (:meth:`CombCertificate.to_json`, :func:`check`): the parameters as exact
strings, the precision, :math:`\theta`, the window (:math:`K'` or :math:`n_0`), the tail constants
and :math:`\eta`, :math:`L`, :math:`W`, the best candidates and the interval.  :func:`check`
recomputes every ball from the parameters with the recorded choices and refuses a certificate whose
interval does not contain the recomputed one, whose constants do not overlap, or whose window is
shorter than the tail bound needs.

**Gaussian smoothing** (``lattice_gauss``) is not certified here: what remains is a cover of the
window :math:`[0, T]` by cells on which :math:`(\ln f)'` is enclosed (the mixture's derivative
:math:`f'/f` as balls over a cell, :math:`f` summed with a rigorous Gaussian remainder), refined where
:math:`\sup_{\text{cell}} \ln f(t) - \min_{|v - t| \le \Delta} \ln f(v)` is loose, and a rigorous form of
``tight_lattice._gauss_rho`` (the sup of :math:`R(t)` over one period is read on a grid there,
with a factor 2 as safety, which is not a proof).

>>> r = certify_msdlap("2", 3, 3, digits=12)             # Theorem 16: eps* = a at Delta = m
>>> r.contains(2), r.upper - r.lower < 1e-12
(True, True)
>>> check(r.to_json()).ok
True
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["CombCertificate", "CheckReport", "certify_comb", "certify_msdlap", "certify_lattice",
           "certify_lattice_laplace", "check"]


# -- exact parameters and ball helpers -----------------------------------------------------------------
def _exact(x, name):
    """``x`` as an exact positive Fraction (decimal strings, ints, Fractions; floats exactly)."""
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a positive real number, got {x!r}")
    try:
        if hasattr(x, "man_exp"):
            man, exp = x.man_exp
            q = Fraction(int(man)) * Fraction(2) ** int(exp)
        else:
            q = Fraction(x.strip() if isinstance(x, str) else x)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{name} must be a positive real number, got {x!r}") from None
    if not q > 0:
        raise ValueError(f"{name} must be positive, got {x!r}")
    return q


def _exact_real(x):
    if hasattr(x, "man_exp"):
        man, exp = x.man_exp
        return Fraction(int(man)) * Fraction(2) ** int(exp)
    return Fraction(x.strip() if isinstance(x, str) else x)


def _int(x, name):
    if isinstance(x, bool):
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}")
    try:
        q = Fraction(x.strip() if isinstance(x, str) else x)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}") from None
    if q.denominator != 1 or q < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {x!r}")
    return int(q)


def _ball(q):
    from flint import arb, fmpq

    return arb(fmpq(q.numerator, q.denominator))


def _txt(q):
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


@contextmanager
def _precision(prec):
    from flint import ctx

    old = ctx.prec
    ctx.prec = int(prec)
    try:
        yield
    finally:
        ctx.prec = old


def _frac(x):
    """The exact value of an exact arb (a dyadic) as a Fraction."""
    man, exp = x.man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _down(x, n):
    """A decimal string <= every point of the ball ``x`` (``n`` significant digits)."""
    return _dec(_frac(x.lower()), n, math.floor)


def _up(x, n):
    return _dec(_frac(x.upper()), n, math.ceil)


def _dec(q, n, rnd):
    if q == 0:
        return "0"
    e = math.floor(math.log10(abs(q))) - n + 1
    scaled = q / Fraction(10) ** e if e >= 0 else q * Fraction(10) ** (-e)
    from decimal import Decimal

    return str(Decimal(rnd(scaled)).scaleb(e))


def _inside(lower, upper, d):
    """A short decimal in [lower_lo, upper_hi]: the midpoint with as many digits as that takes."""
    lo, hi = Fraction(_down(lower, d + 8)), Fraction(_up(upper, d + 8))
    for n in range(d, d + 40):
        x = _dec((lo + hi) / 2, n, round)
        if lo <= Fraction(x) <= hi:
            return x
    return _dec(lo, d + 8, math.ceil)


def _ballstr(x, n=None):
    """``"mid +/- rad"`` decimal text of a ball that contains ``x`` (re-read by :func:`_readball`)."""
    from flint import ctx

    mid, rad = _frac(x.mid()), _frac(x.rad())
    n = n or int(ctx.prec * 0.30103) + 3
    m = Fraction(_dec(mid, n, round)) if mid else Fraction(0)
    r = rad + abs(mid - m)
    return f"{_dec(m, n, round)} +/- {_dec(r, 3, math.ceil) if r else '0'}"


def _readball(s):
    from flint import arb

    mid, rad = (Fraction(x.strip()) for x in s.split("+/-"))
    R = _ball(rad)
    return _ball(mid) + (-R).union(R) if rad else _ball(mid) + arb(0)


# -- the comb in balls ---------------------------------------------------------------------------------
class _Comb:
    r"""Pole constants :math:`B_{c,r}`, :math:`\rho_c`, the dominant component and the Chernoff bound, as balls."""

    def __init__(self, weights, rates):
        from flint import acb, arb, fmpq

        self.w, self.a = weights, rates
        n = len(weights)
        self.lr = [a / w for a, w in zip(rates, weights)]  # exact moduli a_c / w_c
        if len(set(self.lr)) != n:
            raise ValueError("the comb's pole moduli a_c/w_c must be distinct (double poles are not supported)")
        self.cs = min(range(n), key=lambda c: self.lr[c])
        self.lam_q = self.lr[self.cs]
        self.lam = _ball(self.lam_q)
        self.gap = min((self.lr[c] for c in range(n) if c != self.cs), default=None)
        self.gap = None if self.gap is None else self.gap - self.lam_q
        A = [_ball(a) for a in rates]
        q = [(-x).exp() for x in A]
        self.A, self.q = A, q
        self.B = []
        for c in range(n):
            wc = weights[c]
            H = []
            for j in range(wc):
                h = acb((1 - q[c]) ** 2 / (1 - q[c] * q[c]))
                for c2 in range(n):
                    if c2 == c:
                        continue
                    w2 = weights[c2]
                    # z^{w2} = e^{w2 a_c / w_c} e^{2 pi i j w2 / w_c}
                    zw = _ball(Fraction(w2) * self.lr[c]).exp() * acb(fmpq(2 * j * w2 % (2 * wc), wc)).exp_pi_i()
                    h *= (1 - q[c2]) ** 2 / ((1 - q[c2] * zw) * (1 - q[c2] / zw))
                H.append(h)
            row = []
            for r in range(wc):
                s = acb(0)
                for j in range(wc):
                    s += H[j] * acb(fmpq(-2 * j * r % (2 * wc), wc)).exp_pi_i()
                row.append(s.real / wc)
            self.B.append(row)
        self.C = self.B[self.cs]
        self.cmin = self.C[0]
        self.cmax = self.C[0]
        for x in self.C[1:]:
            self.cmin, self.cmax = self.cmin.min(x), self.cmax.max(x)
        self.rho_inv = [(-_ball(x)).exp() for x in self.lr]
        self._p = {}
        self.arb = arb

    def p(self, k):
        k = abs(int(k))
        v = self._p.get(k)
        if v is None:
            v = self.arb(0)
            for c in range(len(self.w)):
                v += self.rho_inv[c] ** k * self.B[c][k % self.w[c]]
            self._p[k] = v
        return v

    def E0(self, theta):
        r""":math:`E_0 = \tanh(a^*/2) E e^{(\lambda+\theta) Y}` (``E_k <= E_0 e^{-theta k}``); 0 for a single DLap."""
        if len(self.w) == 1:
            return self.arb(0)
        t = self.lam + _ball(theta)
        out = (self.A[self.cs] / 2).tanh()
        for c in range(len(self.w)):
            if c == self.cs:
                continue
            if not (self.lam_q + theta) * self.w[c] < self.a[c]:
                raise ValueError("theta too large: the mgf of the other components diverges")
            e = (t * self.w[c]).exp()
            out *= (1 - self.q[c]) ** 2 / ((1 - self.q[c] * e) * (1 - self.q[c] / e))
        return out


def _default_theta(comb, cap=None):
    """An exact rational theta below the gap (and below ``cap``), chosen for the shortest window."""
    if comb.gap is None:
        return Fraction(0)
    best = None
    for frac in (Fraction(1, 4), Fraction(2, 5), Fraction(11, 20), Fraction(7, 10), Fraction(17, 20)):
        th = comb.gap * frac
        if cap is not None:
            th = min(th, cap)
        E = float(comb.E0(th).mid())
        size = (math.log(max(E, 1e-300)) + 60) / float(th)
        if best is None or size < best[0]:
            best = (size, th)
    return _simple(best[1])


def _simple(th):
    """A short rational <= th (keeps the certificate readable)."""
    for den in (10, 100, 1000, 10_000, 10 ** 6):
        s = Fraction(math.floor(th * den), den)
        if s > 0 and s >= th * Fraction(9, 10):
            return s
    return th


def _max(vals):
    out = None
    for v in vals:
        out = v if out is None else out.max(v)
    return out


# -- the certificate ---------------------------------------------------------------------------------------
@dataclass
class CombCertificate:
    r"""A certified enclosure :math:`\varepsilon^* \in [\mathrm{lower}, \mathrm{upper}]` (module docstring).

    ``lower``/``upper`` are floats rounded outward (``lo``/``hi`` the decimal strings); ``kind``:
    ``"comb"`` or ``"lattice_laplace"``; ``params``: the exact parameters; ``window``: ``K'`` and ``K``
    (comb) or ``n0`` and ``T`` (lattice); ``tail``: :math:`\theta`, :math:`\eta`, the profile
    :math:`C_r`; ``tail_limit``/``window_max``: balls as text; ``candidates``: the best window pairs.
    The attributes ``t_star``, ``method``, ``argument``, ``numeric``, ``target`` follow
    :class:`arete_proofs.certified.epsilon.EpsilonCertificate`.

    >>> r = certify_msdlap("1.5", 1, 2, digits=10)          # DLap(a): eps* = a Delta exactly
    >>> r.contains(3), r.method
    (True, 'comb')
    """

    kind: str
    params: dict
    Delta: str
    digits: int
    prec: int
    lo: str
    hi: str
    window: dict
    tail: dict
    tail_limit: str
    tail_pair: list
    window_max: str
    candidates: list
    epsilon: str = ""
    seconds: float = 0.0
    numeric: float | None = None
    target: float | None = None
    argument: str = ""
    history: list = field(default_factory=list)

    @property
    def lower(self):
        f = float(Fraction(self.lo))
        return f if Fraction(f) <= Fraction(self.lo) else math.nextafter(f, -math.inf)

    @property
    def upper(self):
        f = float(Fraction(self.hi))
        return f if Fraction(f) >= Fraction(self.hi) else math.nextafter(f, math.inf)

    @property
    def method(self):
        return self.kind

    @property
    def t_star(self):
        """The best window pair, or ``None`` when the tail limit is the supremum."""
        return None if not self.candidates or self.candidates[0][0] == "tail" else self.candidates[0][1]

    @property
    def gap(self):
        return None if self.numeric is None else self.upper - self.numeric

    @property
    def meets_target(self):
        return self.target is not None and self.upper <= self.target

    @property
    def exact_parameters(self):
        """The parameters as exact rationals and ``Delta`` (the CLI's ``exact_parameters``)."""
        return {**self.params, "Delta": self.Delta}

    T = property(lambda self: self.window.get("T"))
    tail_bound = property(lambda self: self.tail.get("eta"))

    def contains(self, x):
        """Whether the exact value ``x`` (decimal string, int, Fraction or mpf) lies in ``[lo, hi]``."""
        q = _exact_real(x)
        return Fraction(self.lo) <= q <= Fraction(self.hi)

    def to_json(self):
        """A JSON-ready dict (a deep copy): everything :func:`check` needs to recompute and compare."""
        import copy

        return copy.deepcopy({"kind": self.kind, "params": self.params, "Delta": self.Delta, "digits": self.digits,
                "prec": self.prec, "lower": self.lo, "upper": self.hi, "epsilon": self.epsilon,
                "window": self.window, "tail": self.tail, "tail_limit": self.tail_limit,
                "tail_pair": self.tail_pair, "window_max": self.window_max, "candidates": self.candidates,
                "argument": self.argument})

    def to_dict(self):
        """The :class:`~arete_proofs.certified.epsilon.EpsilonCertificate`-style dict (CLI)."""
        d = self.to_json()
        d.update(upper_float=self.upper, lower_float=self.lower, seconds=self.seconds, numeric=self.numeric,
                 target=self.target, gap=self.gap, method=self.method,
                 meets_target=self.meets_target if self.target is not None else None)
        return d


# -- combs -------------------------------------------------------------------------------------------------------
def _comb_parts(weights, rates):
    w = tuple(_int(x, "weight") for x in weights)
    a = tuple(_exact(x, "a") for x in rates)
    if len(w) != len(a) or not w:
        raise ValueError("weights and rates must be non-empty and of the same length")
    return w, a


def _digits(digits):
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 200:
        raise ValueError(f"digits must be an integer in 1..200, got {digits!r}")
    return digits


def certify_comb(weights, rates, Delta, *, digits=12, prec=None, theta=None, K_prime=None, max_window=200_000):
    r"""Certified :math:`\varepsilon^*` of :math:`\sum_c w_c\mathrm{DLap}(a_c)` over every integer shift :math:`|s| \le \Delta` (items 1-4).

    ``theta``, ``K_prime``, ``prec``: the choices (defaults: the shortest window for the
    digits, :math:`\eta(K') < 10^{-(d+3)}`); :func:`check` passes a certificate's.

    >>> r = certify_comb([1, 2], ["1", "1"], 1, digits=12)
    >>> from arete_proofs.privacy.tight_discrete import tight_epsilon_comb
    >>> r.contains(tight_epsilon_comb([1, 2], ["1", "1"], 1, digits=20).epsilon)   # the mpmath engine's value
    True
    """
    t0 = time.perf_counter()
    w, a = _comb_parts(weights, rates)
    D = _int(Delta, "Delta")
    d = _digits(digits)
    p0 = prec or int(3.33 * (d + 15)) + 40 + 4 * sum(math.log2(1 + x) for x in w)
    for attempt in range(6):
        P = int(p0) << attempt
        with _precision(P):
            out = _comb_at(w, a, D, d, P, theta, K_prime, max_window)
        if out is None:
            raise ValueError("the certificate's window is too short for its tail bound (eta not < 1)")
        if Fraction(out.hi) - Fraction(out.lo) < Fraction(1, 10 ** d) or prec is not None:
            out.seconds = time.perf_counter() - t0
            return out
    raise ArithmeticError("certify_comb: the enclosure does not narrow below 10^-digits (raise prec)")


def _comb_at(w, a, D, d, P, theta, K_prime, max_window):
    comb = _Comb(w, a)
    th = _exact(theta, "theta") if theta not in (None, 0, "0") else (
        Fraction(0) if theta is not None else _default_theta(comb))
    E0 = comb.E0(th)
    target = comb.arb(10) ** (-(d + 3))

    def eta(k):
        if len(w) == 1:
            return comb.arb(0)
        x = E0 * (-_ball(th) * k).exp() / comb.cmin
        if not x < 1:
            return None
        return -(-x).log1p()

    if K_prime is None:
        lo, hi = 0, 1
        while not ((e := eta(hi)) is not None and e < target):
            lo, hi = hi, 2 * hi
            if hi > 4 * max_window:
                raise ValueError(f"the window would exceed max_window = {max_window} points")
        while hi - lo > 1:
            mid = (lo + hi) // 2
            e = eta(mid)
            lo, hi = (lo, mid) if e is not None and e < target else (mid, hi)
        Kp = hi
    else:
        Kp = _int(K_prime, "K_prime") if K_prime else 0
    e = eta(Kp)
    if e is None:
        return None
    K = Kp + D
    lnC = [c.log() for c in comb.C]
    ws = comb.w[comb.cs]
    L, Lpair = None, None
    for r in range(ws):
        for s in range(-D, D + 1):
            v = lnC[r] - lnC[(r + s) % ws] + comb.lam * s
            if L is None or v.mid() > L.mid():
                Lpair = [r, s]
            L = v if L is None else L.max(v)
    lp = {}
    for j in range(0, K + D + 1):
        p = comb.p(j)
        if not p > 0:
            raise ArithmeticError(f"p_{j} is not certified positive at {P} bits")
        lp[j] = p.log()
    W, cands = None, []
    for k in range(0, K + 1):
        mn, jm = None, None
        for j in range(k - D, k + D + 1):
            v = lp[abs(j)]
            if mn is None or v.mid() < mn.mid():
                jm = j
            mn = v if mn is None else mn.min(v)
        loss = lp[k] - mn
        cands.append((loss, k, jm))
        W = loss if W is None else W.max(loss)
    cands.sort(key=lambda c: -float(c[0].mid()))
    lower = W.max(L)
    upper = W.max(L + e)
    eps = Lpair if not W.mid() > (L + e).upper() else None
    best = [["tail", Lpair, _ballstr(L)]] if eps is not None else []
    best += [["window", [k, j], _ballstr(v)] for v, k, j in cands[:5]]
    return CombCertificate(
        kind="comb", params={"weights": list(w), "rates": [_txt(x) for x in a]}, Delta=str(D), digits=d, prec=P,
        lo=_down(lower, d + 8), hi=_up(upper, d + 8),
        window={"K_prime": Kp, "K": K},
        tail={"theta": _txt(th), "E0": _ballstr(E0), "eta": _up(e, 6) if e != 0 else "0",
              "lambda": _txt(comb.lam_q), "C": [_ballstr(c) for c in comb.C]},
        tail_limit=_ballstr(L), tail_pair=Lpair, window_max=_ballstr(W), candidates=best,
        epsilon=_inside(lower, upper, d),
        argument="window 0 <= k <= K' + Delta by symmetry (every shift |s| <= Delta), exact tail limit L "
                 "from the dominant poles, Chernoff bound eta past K' (certified.combs items 1-4)")


def certify_msdlap(a, m, Delta, *, digits=12, prec=None, theta=None, K_prime=None):
    r"""Certified :math:`\varepsilon^*` of MSDLap(a, m) :math:`= \sum_{i \le m} i\,\mathrm{DLap}(a)` (Theorem 16: :math:`a` at :math:`\Delta = m`).

    >>> r = certify_msdlap("1.5", 2, 2, digits=12)
    >>> r.contains("1.5")                                   # Theorem 16 holds with equality
    True
    """
    m = _int(m, "m")
    return certify_comb(range(1, m + 1), [a] * m, Delta, digits=digits, prec=prec, theta=theta, K_prime=K_prime)


# -- Laplace-smoothed lattice ------------------------------------------------------------------------------
class _Cells:
    r"""Cell sums :math:`(S^L_k, S^R_k)` of :math:`f` (pmf balls, ``|j| <= J``, tails as balls) or of :math:`f_\infty`."""

    def __init__(self, comb, h, b, J=None, limit=False):
        from flint import arb

        self.comb, self.h, self.b, self.limit = comb, h, b, limit
        self.hb = _ball(h / b)
        self.hq, self.bq = _ball(h), _ball(b)
        lam = comb.lam
        self.w = comb.w[comb.cs]
        if limit:
            mu, nu = self.hb - lam, self.hb + lam
            self.gl = [comb.C[r] for r in range(self.w)]
            self.mu, self.nu = mu, nu
            self.dl = 1 / (1 - (-mu * self.w).exp())
            self.dr = 1 / (1 - (-nu * self.w).exp())
            return
        self.J = J
        rr = self.hb + lam
        tail = comb.cmax * (-rr * (J + 1)).exp() / (1 - (-rr).exp())
        t = arb(0).union(tail)
        # SL_k = sum_{j <= k} p_j e^{hj/b}; SR_k = sum_{j > k} p_j e^{-hj/b}
        self.SL, self.SR = {}, {}
        acc = t
        for j in range(-J, J + 1):
            acc = acc + comb.p(j) * (self.hb * j).exp()
            self.SL[j] = acc
        acc = t
        for j in range(J, -J - 1, -1):
            self.SR[j] = acc
            acc = acc + comb.p(j) * (-self.hb * j).exp()

    def cell(self, k):
        if self.limit:
            C, w = self.comb.C, self.w
            SL = sum(((C[(k - i) % w] * (self.mu * (k - i)).exp()) for i in range(w)), self.comb.arb(0)) * self.dl
            SR = sum(((C[(k + i) % w] * (-self.nu * (k + i)).exp()) for i in range(1, w + 1)),
                     self.comb.arb(0)) * self.dr
            return SL, SR
        if not -self.J <= k < self.J:
            raise ArithmeticError(f"cell {k} outside the summed range |j| <= {self.J}")
        return self.SL[k], self.SR[k]

    def f_cell(self, k, u):
        SL, SR = self.cell(k)
        return ((-u / self.bq).exp() * SL + (u / self.bq).exp() * SR) / (2 * self.bq)

    def f(self, t):
        """f at the exact rational ``t`` (its cell from the exact floor)."""
        k = math.floor(t / self.h)
        return self.f_cell(k, _ball(t))

    def cell_min(self, j, lo, hi):
        """A ball containing min f over [hj, h(j+1)] intersected with [lo, hi] (exact rationals)."""
        a0, a1 = max(self.h * j, lo), min(self.h * (j + 1), hi)
        SL, SR = self.cell(j)
        u = self.bq / 2 * (SL / SR).log()
        A0, A1 = _ball(a0), _ball(a1)
        if u < A0:
            x = A0
        elif u > A1:
            x = A1
        else:  # the clipped point lies in [max(a0, u_lo), min(a1, u_hi)]
            ul, uh = u.lower(), u.upper()
            lo_ = A0 if ul < A0 else ul
            hi_ = A1 if uh > A1 else uh
            x = lo_.union(hi_)
        return self.f_cell(j, x)


def _lattice_candidates(cells, h, D, k_range, j_range):
    """Max over the candidates (1) t = hk and (2) v = hj, t = hj +- Delta; the ball and the best pairs."""
    F = math.floor(D / h)
    frac = D / h - F
    cache = {}

    def cm(j):
        if j not in cache:
            cache[j] = cells.cell_min(j, h * j, h * (j + 1))
        return cache[j]

    best, top = None, []
    for k in k_range:
        t = h * k
        cands = [cm(j) for j in range(k - F, k + F)]
        if frac:
            cands.append(cells.cell_min(k - F - 1, t - D, t + D))
            cands.append(cells.cell_min(k + F, t - D, t + D))
        if not cands:
            cands = [cells.cell_min(k - 1, t - D, t + D), cells.cell_min(k, t - D, t + D)]
        mn = cands[0]
        for c in cands[1:]:
            mn = mn.min(c)
        loss = cells.f(t).log() - mn.log()
        top.append((loss, ["t=hk", str(t)]))
        best = loss if best is None else best.max(loss)
    for j in j_range:
        v = h * j
        lv = cells.f(v).log()
        for t in (v + D, v - D):
            loss = cells.f(t).log() - lv
            top.append((loss, ["v=hj", str(t), str(v)]))
            best = best.max(loss)
    top.sort(key=lambda c: -float(c[0].mid()))
    return best, [[*p, _ballstr(v)] for v, p in top[:5]]


def certify_lattice(weights, rates, h, b, Delta, *, digits=12, prec=None, theta=None, n0=None):
    r"""Certified :math:`\varepsilon^*` of :math:`h\sum_c w_c\mathrm{DLap}(a_c) + \mathrm{Laplace}(b)` over every real shift :math:`|s| \le \Delta`.

    >>> r = certify_lattice([1, 2], ["3", "3"], "0.5", "0.25", 1, digits=8)
    >>> from arete_proofs.privacy.tight_lattice import tight_epsilon_lattice
    >>> r.contains(tight_epsilon_lattice(["3", "3"], [1, 2], "0.5", "laplace", "0.25", 1, digits=14).epsilon)
    True
    """
    t0 = time.perf_counter()
    w, a = _comb_parts(weights, rates)
    hq, bq, Dq = _exact(h, "h"), _exact(b, "b"), _exact(Delta, "Delta")
    d = _digits(digits)
    p0 = prec or int(3.33 * (d + 15)) + 60 + 4 * sum(math.log2(1 + x) for x in w)
    for attempt in range(5):
        P = int(p0) << attempt
        with _precision(P):
            out = _lattice_at(w, a, hq, bq, Dq, d, P, theta, n0)
        if out is None:
            raise ValueError("the certificate's window is too short for its tail bound (rho not < 1)")
        if Fraction(out.hi) - Fraction(out.lo) < Fraction(1, 10 ** d) or prec is not None:
            out.seconds = time.perf_counter() - t0
            return out
    raise ArithmeticError("certify_lattice: the enclosure does not narrow below 10^-digits (raise prec)")


def _lattice_at(w, a, h, b, D, d, P, theta, n0):
    comb = _Comb(w, a)
    if not h / b > comb.lam_q:
        raise ValueError("lattice_laplace needs h/b > lambda (the least a_c/w_c)")
    mu_q = h / b - comb.lam_q
    if theta is None:
        th = _default_theta(comb, cap=mu_q / 2) if comb.gap is not None else mu_q / 2
    else:
        th = _exact(theta, "theta")
    if not th < mu_q:
        raise ValueError("theta must be below h/b - lambda")
    thc = th if comb.gap is None or th < comb.gap else None
    if thc is None:
        raise ValueError("theta must be below the gap of the two least pole moduli")
    E0 = comb.E0(th)
    mu, T_ = _ball(mu_q), _ball(th)
    c1 = E0 / comb.cmin / (1 - (-(mu - T_)).exp())
    c2 = comb.cmax / comb.cmin * _ball(h / b).exp() * (-mu).exp() / (1 - (-mu).exp())
    target = comb.arb(10) ** (-(d + 3)) / 2

    def eta(n):
        rho = c1 * (-T_ * n).exp() + c2 * (-mu * n).exp()
        return -(-rho).log1p() if rho < 1 else None

    if n0 is None:
        n = 1
        while not ((e := eta(n)) is not None and e < target):
            n *= 2
            if n > 10 ** 6:
                raise ValueError("the window would exceed 10^6 lattice points")
        lo = n // 2
        while n - lo > 1:
            mid = (lo + n) // 2
            e = eta(mid)
            lo, n = (lo, mid) if e is not None and e < target else (mid, n)
        n0 = n
    else:
        n0 = _int(n0, "n0")
    e = eta(n0)
    if e is None:
        return None
    T = h * n0 + D
    K = math.ceil(T / h)
    F = math.floor(D / h) + 1
    ws = comb.w[comb.cs]
    lim = _Cells(comb, h, b, limit=True)
    L, Lc = _lattice_candidates(lim, h, D, range(0, ws), range(0, ws))
    J = K + 2 * F + 4 + math.ceil((d + 20) * math.log(10) / float((h / b + comb.lam_q)))
    cells = _Cells(comb, h, b, J=J)
    W, Wc = _lattice_candidates(cells, h, D, range(0, K + 2), range(-F - 1, K + F + 2))
    lower = W.max(L)
    upper = W.max(L + 2 * e)
    tail_wins = not W.mid() > (L + 2 * e).upper()
    best = ([["tail", *Lc[0]]] if tail_wins else []) + [["window", *c] for c in Wc]
    return CombCertificate(
        kind="lattice_laplace",
        params={"weights": list(w), "rates": [_txt(x) for x in a], "h": _txt(h), "b": _txt(b)},
        Delta=_txt(D), digits=d, prec=P, lo=_down(lower, d + 8), hi=_up(upper, d + 8),
        window={"n0": n0, "T": _txt(T), "K": K, "J": J},
        tail={"theta": _txt(th), "E0": _ballstr(E0), "eta": _up(e, 6), "lambda": _txt(comb.lam_q),
              "C": [_ballstr(c) for c in comb.C]},
        tail_limit=_ballstr(L), tail_pair=Lc[0][:-1], window_max=_ballstr(W), candidates=best,
        epsilon=_inside(lower, upper, d),
        argument="exact reduction to lattice-point candidates (cell convexity, monotone ratios) on [0, T], "
                 "T = h n0 + Delta; exact periodic tail limit L of f_inf; |ln f - ln f_inf| <= eta past h n0 "
                 "(certified.combs)")


def certify_lattice_laplace(a, m, b, h, Delta=1, *, digits=12, prec=None, theta=None, n0=None):
    r"""Certified :math:`\varepsilon^*` of :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)` (Theorem 21's family).

    >>> r = certify_lattice_laplace("2", 1, "0.25", "1", 1, digits=8)
    >>> float(r.hi) <= 3                   # Theorem 21's proof: at most max_s min(s/b, a + (1-s)/b) = 3
    True
    """
    m = _int(m, "m")
    return certify_lattice(range(1, m + 1), [a] * m, h, b, Delta, digits=digits, prec=prec, theta=theta, n0=n0)


# -- re-checking ----------------------------------------------------------------------------------------
@dataclass
class CheckReport:
    r"""Result of :func:`check`: ``ok`` (the recomputed enclosure of :math:`\varepsilon^*` lies in the stated one) and ``problems``.

    ``problems`` is empty when ``ok``; ``recomputed`` is the recomputed :class:`CombCertificate`.

    >>> r = certify_msdlap("2", 2, 1, digits=8)
    >>> doc = r.to_json(); doc["upper"] = doc["lower"]     # a claimed interval of width 0
    >>> check(doc).ok
    False
    """

    ok: bool
    problems: list
    recomputed: object = None


def check(doc):
    r"""Re-check a certificate (``to_json()`` dict): recompute every ball with its recorded choices and compare.

    Refused: a stated interval that does not contain the recomputed enclosure, an ``epsilon``
    outside the stated interval, a window shorter than the tail bound needs (``K < K' + Delta``,
    or :math:`\eta` not below the requested digits), a tail constant, :math:`\eta`, :math:`L` or
    :math:`W` that does not overlap its recomputed ball, an interval wider than :math:`10^{-d}`.

    >>> r = certify_msdlap("2", 3, 3, digits=10)
    >>> doc = r.to_json(); doc["tail"]["C"][0] = "1/3 +/- 0"           # a moved tail constant
    >>> check(doc).ok, check(r.to_json()).ok
    (False, True)
    """
    problems = []
    try:
        kind, pr = doc["kind"], doc["params"]
        prec, d = int(doc["prec"]), int(doc["digits"])
        th = doc["tail"]["theta"]
        if kind == "comb":
            Kp = int(doc["window"]["K_prime"])
            re = certify_comb(pr["weights"], pr["rates"], doc["Delta"], digits=d, prec=prec, theta=th, K_prime=Kp)
            if int(doc["window"]["K"]) < Kp + _int(doc["Delta"], "Delta"):
                problems.append(f"window K = {doc['window']['K']} < K' + Delta = {Kp + int(doc['Delta'])}")
        elif kind == "lattice_laplace":
            re = certify_lattice(pr["weights"], pr["rates"], pr["h"], pr["b"], doc["Delta"], digits=d, prec=prec,
                                 theta=th, n0=int(doc["window"]["n0"]))
            if Fraction(doc["window"]["T"]) < Fraction(re.window["T"]):
                problems.append(f"window T = {doc['window']['T']} shorter than h n0 + Delta = {re.window['T']}")
        else:
            return CheckReport(False, [f"unknown kind {kind!r}"])
    except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
        return CheckReport(False, [f"not recomputable: {exc}"])
    lo, hi = Fraction(doc["lower"]), Fraction(doc["upper"])
    if not (lo <= Fraction(re.lo) and Fraction(re.hi) <= hi):
        problems.append(f"the stated interval [{doc['lower']}, {doc['upper']}] does not contain the recomputed "
                        f"[{re.lo}, {re.hi}]")
    if hi - lo >= Fraction(1, 10 ** d):
        problems.append(f"the interval is not narrower than 10^-{d}")
    if doc.get("epsilon") and not lo <= Fraction(doc["epsilon"]) <= hi:
        problems.append(f"epsilon = {doc['epsilon']} is outside the stated interval")
    with _precision(prec):
        if Fraction(doc["tail"]["eta"]) < Fraction(re.tail["eta"]) or Fraction(doc["tail"]["eta"]) >= \
                Fraction(1, 10 ** (d + 2)):
            problems.append(f"tail bound eta = {doc['tail']['eta']} is not the recomputed {re.tail['eta']} "
                            f"or not below 10^-{d + 2}")
        if len(doc["tail"]["C"]) != len(re.tail["C"]):
            problems.append("the tail profile has the wrong period")
        for r, (s, t) in enumerate(zip(doc["tail"]["C"], re.tail["C"])):
            if not _readball(s).overlaps(_readball(t)):
                problems.append(f"tail constant C_{r} = {s} does not overlap the recomputed {t}")
        for name in ("tail_limit", "window_max"):
            if not _readball(doc[name]).overlaps(_readball(getattr(re, name))):
                problems.append(f"{name} = {doc[name]} does not overlap the recomputed {getattr(re, name)}")
    return CheckReport(not problems, problems, re)
