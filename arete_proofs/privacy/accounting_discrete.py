r"""Approximate DP of integer-valued noise (``dlap``, ``gdl``): the exact hockey-stick :math:`\delta(\varepsilon)`, its inverse, and a dp_accounting PLD built from the loss distribution.

The mechanism releases :math:`q(x) + X` with :math:`X` on the integers (pmf :math:`p`) for an
integer query of sensitivity :math:`\Delta`.  For a shift :math:`s`,

.. math::

    \delta_s(\varepsilon) = \sum_{k \in \mathbb Z} \big(p(k) - e^{\varepsilon} p(k+s)\big)_+
    = P(X \in A_s) - e^{\varepsilon} P(X + s \in A_s),\qquad A_s = \{k : L_s(k) > \varepsilon\},

and :math:`\delta(\varepsilon) = \max_{1 \le |s| \le \Delta}\delta_s(\varepsilon)`.

**Every shift reduces to** :math:`s = \Delta` for a symmetric unimodal :math:`p`
(:mod:`arete_proofs.privacy.tight_gdl`, item 1, for GDL): :math:`\delta_{-s} = \delta_s` (substitute
:math:`k \to -k` and use the symmetry of :math:`p`); for
:math:`0 < s < s'` and :math:`k \in A_s` (:math:`\varepsilon \ge 0`) we have :math:`p(k) > p(k+s)`, so
:math:`|k| < |k+s|`, :math:`k > -s/2`, :math:`k + s > s/2 > 0`, and :math:`p(k+s') \le p(k+s)`
(:math:`p` nonincreasing on :math:`k \ge 0`); hence
:math:`\delta_{s'} \ge \sum_{A_s}(p(k) - e^\varepsilon p(k+s')) \ge \delta_s`.

**The set** :math:`A = A_\Delta`, :math:`\varepsilon \ge 0`.  :math:`L_\Delta(k) \le 0` for
:math:`k \le -\Delta/2`.  On :math:`-\Delta/2 < k < 0`, :math:`L_\Delta(k) = \varphi(k+\Delta) -
\varphi(-k)` increases with :math:`k` (:math:`\ln p = -\varphi(|\cdot|)`, :math:`\varphi`
nondecreasing): :math:`A` meets it in a final segment :math:`\{k_0, \dots, -1\}`.  On
:math:`k \ge 0` the family declares the shape of :math:`L_\Delta` (``discrete_loss_shape``;
GDL: nonincreasing for :math:`\beta < 1`, nondecreasing for :math:`\beta > 1`, constant for
:math:`\beta = 1`, with limit :math:`a\Delta`, tight_gdl items 3-4), so :math:`A \cap [0, \infty)` is an
initial segment :math:`\{0..k_1\}`, a final segment :math:`\{k_1, \dots\}` (infinite: its mass is a
survival function, the **exact tail**), all of :math:`[0,\infty)` or empty; the ends are found by
exponential search and bisection on the exact loss.  Then
:math:`\delta = \sum_{\text{segments }[m,n]} \big(P(m \le X \le n) - e^\varepsilon P(m+\Delta \le X \le n+\Delta)\big)`
from the exact survival functions, at a precision raised by the cancelled digits.
``tests/test_gdl_accounting.py`` checks it against the plain sum over a window, for every shift.

**PLD.**  :func:`noise_pld` hands dp_accounting the law of :math:`L_\Delta(X)` itself
(``PrivacyLossDistribution.create_from_rounded_probability``): every integer
:math:`|k| \le K` carries mass :math:`p(k)` at loss :math:`\lceil (L_\Delta(k) + \eta)/h\rceil h`
(rounded up: pessimistic), the tails :math:`|k| > K` (mass below :math:`10^{-30}`) go to the bin of
:math:`\varepsilon^*`.  The integer family needs no discretisation of the support, and nothing
assumes a loss monotone in the output.

>>> from arete_proofs.noise import make
>>> z = make("gdl", beta="0.5", a="0.7")
>>> d = hockey_stick(z, 3, 2, digits=10)
>>> 0 < d < 1, hockey_stick(z, 3, z.tight_epsilon(3).epsilon + 1e-9, digits=10) == 0
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mpmath import mp

from .._validation import GUARD_DIGITS, PrecisionError, parse_precision, real

__all__ = ["GDLLaw", "DiscreteHockeyStick", "hockey_stick", "hockey_stick_details", "hockey_stick_window",
           "epsilon_for_delta", "loss_pmf", "noise_pld"]

#: Every loss is rounded up from L + ETA in the PLD (the engine's loss is exact to far better).
ETA = 1e-12


@dataclass(frozen=True)
class DiscreteHockeyStick:
    r"""``delta``, ``epsilon``, ``segments`` (``(m, n)`` integer ranges of :math:`A`, ``n`` may be ``inf``),
    ``p_mass`` :math:`= P(X\in A)`, ``q_mass`` :math:`= P(X + \Delta \in A)`, ``tight`` (the family's
    :class:`~arete_proofs.noise.TightResult`), ``digits``; ``delta = p_mass - e^eps q_mass``.

    >>> from mpmath import mp
    >>> r = hockey_stick_details(GDLLaw("0.5", "0.7"), 3, 2, digits=12)
    >>> mp.almosteq(r.delta, r.p_mass - mp.exp(2) * r.q_mass)
    True
    """

    delta: object
    epsilon: object
    segments: tuple
    p_mass: object
    q_mass: object
    tight: object
    digits: int


class GDLLaw:
    r"""GDL(:math:`\beta`, :math:`a`) as the accounting here sees it (the interface of an integer-valued noise), for layers below :mod:`arete_proofs.noise`.

    >>> from mpmath import mp
    >>> from arete_proofs.noise import make
    >>> mp.almosteq(hockey_stick(GDLLaw("0.5", 1), 2, 1), hockey_stick(make("gdl", beta="0.5", a=1), 2, 1))
    True
    """

    integer_valued = True
    symmetric_unimodal = True
    name = "gdl"

    def __init__(self, beta, a):
        self.beta, self.a = beta, a

    def _beta_a(self):
        return self.beta, self.a

    def pmf(self, k, *, digits=None):
        from ..distributions import gdl

        return gdl.pmf(k, self.beta, self.a, digits=digits)

    def logpmf(self, k, *, digits=None):
        from ..distributions import gdl

        return gdl.logpmf(k, self.beta, self.a, digits=digits)

    def sf(self, x, *, digits=None):
        from ..distributions import gdl

        return gdl.sf(x, self.beta, self.a, digits=digits)

    def tight_epsilon(self, Delta=1, *, digits=12):
        from . import tight_gdl

        return tight_gdl.tight_epsilon(self.beta, self.a, Delta, digits=digits)

    def discrete_loss_shape(self, Delta=1):
        with mp.workdps(40):
            b = mp.mpf(self.beta)
        return "decreasing" if b < 1 else ("constant" if b == 1 else "increasing")


def _check(noise, sensitivity, eps, digits):
    if not getattr(noise, "integer_valued", False) or not getattr(noise, "symmetric_unimodal", False):
        raise ValueError(f"accounting_discrete: noise {getattr(noise, 'name', noise)!r} is not an integer-valued "
                         "symmetric unimodal family")
    return _arguments(sensitivity, eps, digits)


def _arguments(sensitivity, eps, digits):
    """``(digits, Delta, eps)`` checked: an integer sensitivity, a finite eps >= 0 (or ``None``)."""
    from . import tight_gdl

    d = tight_gdl._digits(digits)
    D = tight_gdl._Delta(sensitivity)
    e = None
    if eps is not None:
        with mp.workdps(parse_precision(d)):
            e = real(eps, "eps")
            if not (e >= 0) or mp.isinf(e):
                raise ValueError(f"eps must be finite and >= 0, got {mp.nstr(e, 8)}")
    return d, D, e


class _Loss:
    def __init__(self, noise, D, d):
        self.noise, self.D, self.d = noise, D, d
        self.dps = d + GUARD_DIGITS + 5
        self._lp = {}

    def lp(self, k):
        k = abs(int(k))
        if k not in self._lp:
            self._lp[k] = self.noise.logpmf(k, digits=self.dps)
        return self._lp[k]

    def L(self, k):
        with mp.workdps(self.dps):
            return self.lp(k) - self.lp(k + self.D)


def _first_true(pred, lo, hi):
    """Least integer k in [lo, hi] with pred(k) (pred monotone False..True), or None; hi may be None (search up)."""
    if hi is None:
        step = 1
        hi = lo
        while not pred(hi):
            lo = hi + 1
            hi = hi + step
            step *= 2
            if hi > 10 ** 15:
                raise PrecisionError("accounting_discrete: the boundary of A lies beyond 1e15")
    elif not pred(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _segments(loss, eps, shape):
    D = loss.D
    segs = []
    # negative part: -D/2 < k < 0, L increasing
    k_min = -((D - 1) // 2)        # the least integer k > -D/2
    if k_min <= -1:
        k0 = _first_true(lambda k: loss.L(k) > eps, k_min, -1)
        if k0 is not None:
            segs.append((k0, -1))
    above = loss.L(0) > eps
    if shape == "constant":
        if above:
            segs.append((0, mp.inf))
    elif shape == "decreasing":
        if above:
            lim = loss.noise.tight_epsilon(D, digits=loss.d).tail_limit
            if eps <= lim:                 # L(k) > a Delta >= eps for every k >= 0
                segs.append((0, mp.inf))
            else:
                k1 = _first_true(lambda k: not loss.L(k) > eps, 1, None)
                segs.append((0, k1 - 1))
    elif shape == "increasing":
        if above:
            segs.append((0, mp.inf))
        else:
            lim = loss.noise.tight_epsilon(D, digits=loss.d).tail_limit
            if eps < lim:
                k1 = _first_true(lambda k: loss.L(k) > eps, 1, None)
                segs.append((k1, mp.inf))
    else:
        raise ValueError(f"unknown loss shape {shape!r}")
    # merge [k0, -1] with [0, ...]
    if len(segs) == 2 and segs[0][1] == -1 and segs[1][0] == 0:
        segs = [(segs[0][0], segs[1][1])]
    return segs


def _mass(noise, m, n, dps):
    """P(m <= X <= n) (n may be inf) from the exact survival function."""
    up = mp.zero if n == mp.inf else noise.sf(n, digits=dps)
    return noise.sf(m - 1, digits=dps) - up


def hockey_stick_details(noise, sensitivity=1, eps=0, *, digits=12) -> DiscreteHockeyStick:
    r"""Exact :math:`\delta(\varepsilon)` of an integer-valued symmetric unimodal noise with its set :math:`A` (module docstring).

    >>> from mpmath import mp
    >>> from arete_proofs.noise import make
    >>> z = make("dlap", a=1)
    >>> r = hockey_stick_details(z, 1, "0.5", digits=15)
    >>> r.segments                                       # L_1(k) = a > eps for every k >= 0
    ((0, mpf('+inf')),)
    >>> mp.almosteq(r.delta, (1 - mp.exp(mp.mpf("0.5") - 1)) / (1 + mp.exp(-1)))   # P(X >= 0)(1 - e^{eps - a})
    True
    """
    d, D, e = _check(noise, sensitivity, eps, digits)
    tight = noise.tight_epsilon(D, digits=d)
    if e >= tight.epsilon:
        return DiscreteHockeyStick(mp.zero, e, (), mp.zero, mp.zero, tight, d)
    loss = _Loss(noise, D, d)
    shape = noise.discrete_loss_shape(D)
    segs = _segments(loss, e, shape)
    dps = d + GUARD_DIGITS
    for _ in range(6):
        with mp.workdps(dps + 5):
            P = sum((_mass(noise, m, n, dps) for m, n in segs), mp.zero)
            Q = sum((_mass(noise, m + D, n + D, dps) for m, n in segs), mp.zero)
            delta = P - mp.exp(e) * Q
        if delta > 0 and P <= delta * mp.mpf(10) ** (dps - d - GUARD_DIGITS // 2):
            with mp.workdps(d + GUARD_DIGITS):
                return DiscreteHockeyStick(+delta, e, tuple(segs), +P, +Q, tight, d)
        lost = 0 if delta <= 0 else int(mp.log10(P / delta)) + 1
        dps = max(2 * dps, d + GUARD_DIGITS + lost + 5)
    raise PrecisionError("delta(eps) lost to cancellation; eps is too close to the tight epsilon")


def hockey_stick(noise, sensitivity=1, eps=0, *, digits=12):
    r""":math:`\delta(\varepsilon) = \max_{1\le|s|\le\Delta}\sum_k (p(k) - e^\varepsilon p(k+s))_+` (exactly 0 for :math:`\varepsilon \ge \varepsilon^*`).

    >>> from arete_proofs.noise import make
    >>> z = make("gdl", beta=2, a=1)
    >>> d = hockey_stick(z, 2, "1.5", digits=12)               # beta > 1: A is the infinite tail {k1, ...}
    >>> w = hockey_stick_window(z, 2, "1.5", 60, digits=12)    # plain sum over a window, every shift
    >>> from mpmath import mp
    >>> mp.almosteq(d, w[0], 1e-11), w[1]
    (True, 2)
    """
    return hockey_stick_details(noise, sensitivity, eps, digits=digits).delta


def hockey_stick_window(noise, sensitivity, eps, K, *, digits=12):
    r"""``(max_s delta_s, s)``: the plain sum :math:`\sum_{|k|\le K}(p(k) - e^\varepsilon p(k+s))_+` for **every** shift
    :math:`1 \le |s| \le \Delta` (an independent check; it misses the mass beyond :math:`K`).

    >>> d, s = hockey_stick_window(GDLLaw("0.5", "0.7"), 3, 2, 60, digits=12)
    >>> from mpmath import mp
    >>> abs(s), mp.almosteq(d, hockey_stick(GDLLaw("0.5", "0.7"), 3, 2, digits=12), 1e-10)   # the worst shift is +-Delta
    (3, True)
    """
    d, D, e = _check(noise, sensitivity, eps, digits)
    with mp.workdps(d + GUARD_DIGITS + 10):
        p = {k: noise.pmf(k, digits=d + GUARD_DIGITS + 10) for k in range(0, K + D + 1)}
        ee = mp.exp(e)
        best = (mp.mpf(-1), None)
        for s in [*range(1, D + 1), *range(-D, 0)]:
            tot = mp.zero
            for k in range(-K, K + 1):
                v = p[abs(k)] - ee * p[abs(k + s)]
                if v > 0:
                    tot += v
            if tot > best[0]:
                best = (tot, s)
    return best


def epsilon_for_delta(noise, sensitivity=1, delta=1e-6, *, digits=12):
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\delta(\varepsilon) \le \delta`, ``0 < delta < 1`` (safeguarded Newton, :math:`\delta' = -e^\varepsilon Q`).

    >>> from mpmath import mp
    >>> from arete_proofs.noise import make
    >>> z = make("gdl", beta="0.5", a="0.7")
    >>> e = epsilon_for_delta(z, 3, "1e-3", digits=8)
    >>> mp.almosteq(hockey_stick(z, 3, e, digits=8), mp.mpf("1e-3"), 1e-6)
    True
    """
    d, D, _ = _check(noise, sensitivity, None, digits)
    with mp.workdps(parse_precision(d)):
        target = real(delta, "delta")
        if not 0 < target < 1:
            raise ValueError(f"delta must be in (0, 1), got {mp.nstr(target, 8)}")
    r0 = hockey_stick_details(noise, D, 0, digits=d)
    if r0.delta <= target:
        return mp.zero
    with mp.workdps(d + GUARD_DIGITS):
        lo, hi = mp.zero, mp.mpf(r0.tight.epsilon)
        x = hi / 2
        tol = mp.mpf(10) ** -(d + 2)
        for _ in range(300):
            r = hockey_stick_details(noise, D, x, digits=d)
            if r.delta > target:
                lo = x
            else:
                hi = x
            if r.delta > 0 and r.q_mass > 0:
                nx = x + mp.log(r.delta / target) * r.delta / (mp.exp(x) * r.q_mass)
            else:
                nx = (lo + hi) / 2
            if not lo < nx < hi:
                nx = (lo + hi) / 2
            if abs(nx - x) <= tol * max(abs(x), 1) or hi - lo <= tol * max(hi, 1):
                return +nx
            x = nx
    raise PrecisionError("epsilon(delta) did not converge")


def loss_pmf(noise, sensitivity=1, *, value_discretization_interval=1e-3, digits=20, tail=1e-30):
    r"""``({k: mass}, h)``: the law of :math:`L_\Delta(X)`, each loss rounded up to :math:`h\mathbb Z` (module docstring).

    >>> from arete_proofs.noise import make
    >>> pmf, h = loss_pmf(make("gdl", beta="0.5", a=1), 2, value_discretization_interval=1e-2)
    >>> abs(sum(pmf.values()) - 1) < 1e-12
    True
    """
    h = float(value_discretization_interval)
    if not (h > 0 and math.isfinite(h)):
        raise ValueError(f"value_discretization_interval must be positive, got {value_discretization_interval!r}")
    d, D, _ = _check(noise, sensitivity, None, digits)
    top = float(noise.tight_epsilon(D, digits=d).epsilon)
    K = _tail_cut(noise, tail)
    ps = _pmf_table(noise, K + D, d)
    with mp.workdps(d + GUARD_DIGITS):
        lps = [mp.log(x) for x in ps]
    pmf = {}
    mass = 0.0
    for k in range(-K, K + 1):
        Lk = float(lps[abs(k)] - lps[abs(k + D)])
        b = int(math.ceil((Lk + ETA) / h))
        m = float(ps[abs(k)])
        pmf[b] = pmf.get(b, 0.0) + m
        mass += m
    ktop = int(math.ceil((top + ETA) / h))
    pmf[ktop] = pmf.get(ktop, 0.0) + max(0.0, 1.0 - mass)
    return pmf, h


def _tail_cut(noise, tail):
    r"""A ``K`` with :math:`P(|X| > K) \le` ``tail``: the tail bound :math:`P(X > K) \le p_K r_K/(1-r_K)` of
    :mod:`arete_proofs.distributions.gdl` (``r_K = q max(1, (K+beta)/(K+1))``), by doubling ``K``."""
    beta, a = noise._beta_a()
    with mp.workdps(30):
        b, q = mp.mpf(beta), mp.exp(-mp.mpf(a))
        K = 16
        while True:
            r = q * max(mp.one, (K + b) / (K + 1))
            if r < 1 and 2 * noise.pmf(K, digits=8) * r / (1 - r) <= tail:
                return K
            K *= 2


def _pmf_table(noise, K, d):
    """[p_0..p_K] (GDL's checked recurrence when available, else the pmf pointwise)."""
    from ..distributions import gdl

    beta, a = noise._beta_a()
    return gdl.pmf_range(K, beta, a, digits=d)


def noise_pld(noise, sensitivity=1, *, value_discretization_interval=1e-3, digits=20):
    r"""A pessimistic ``dp_accounting`` PLD of one release of an integer-valued noise (from :func:`loss_pmf`).

    Its ``get_delta_for_epsilon`` is at least the exact :func:`hockey_stick` and exceeds it by
    :math:`O(h)`; it composes with dp_accounting's PLDs of the same ``h``.

    >>> from arete_proofs.noise import make
    >>> z = make("gdl", beta="0.5", a=1)
    >>> pld = noise_pld(z, 2, value_discretization_interval=1e-3)
    >>> exact = float(hockey_stick(z, 2, 1, digits=10))
    >>> bool(exact <= pld.get_delta_for_epsilon(1.0) <= exact + 2e-3)
    True
    """
    try:
        from dp_accounting.pld import privacy_loss_distribution as lib
    except ImportError:
        raise ImportError("arete_proofs.privacy.accounting_discrete.noise_pld needs dp_accounting: "
                          "pip install 'arete-proofs[accounting]'") from None
    pmf, h = loss_pmf(noise, sensitivity, value_discretization_interval=value_discretization_interval,
                      digits=digits)
    return lib.PrivacyLossDistribution.create_from_rounded_probability(pmf, 0.0, h, pessimistic_estimate=True)
