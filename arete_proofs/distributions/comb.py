r"""Combs of discrete Laplace laws: MSDLap and its r-parameterised form (Harrison and Manurangsi 2025).

A *comb* is :math:`Z = \sum_c w_c X_c` with independent :math:`X_c \sim \mathrm{DLap}(a_c)`
(integer weights :math:`w_c \ge 1`), where :math:`\mathrm{DLap}(a)` has pmf
:math:`\tanh(a/2)\, e^{-a|k|}` on the integers.  Families:

* ``msdlap(a, m)`` :math:`= \sum_{i=1}^m i X_i`, :math:`X_i` iid DLap(a) (Theorem 16 of the
  follow-up paper with :math:`a = \varepsilon`, :math:`m = \Delta`);
* Theorem 18's :math:`r\,\mathrm{MSDLap}(\varepsilon - 1, \lfloor\Delta/r\rfloor) + \mathrm{DLap}(1/r)`
  (:func:`theorem18_components`).

**Exact pmf by partial fractions** (the engine).  The generating function is
:math:`G(z) = \prod_c \phi_c(z)`, :math:`\phi_c(z) = (1-q_c)^2 / ((1 - q_c z^{w_c})(1 - q_c z^{-w_c}))`,
:math:`q_c = e^{-a_c}`.  Its poles outside the unit circle are :math:`z = \rho_c \omega^j`,
:math:`\rho_c = e^{a_c/w_c}`, :math:`\omega = e^{2\pi i / w_c}`, :math:`j = 0..w_c-1`; they are
simple when the moduli :math:`a_c/w_c` are distinct (checked: a ``ValueError`` otherwise).
:math:`G(z) = O(z^{-\sum w_c})` at infinity, so for :math:`k \ge 0` the coefficient
:math:`p_k = \frac{1}{2\pi i}\oint_{|z|=1} G(z) z^{-k-1}\,dz` is minus the sum of the outer
residues:

.. math::

   p_k = \sum_c \rho_c^{-k} B_{c,\,k \bmod w_c}, \qquad
   B_{c,r} = \frac{1}{w_c} \sum_{j=0}^{w_c-1} H_c(\rho_c\omega^j)\,\omega^{-jr},\qquad
   H_c(z) = \frac{(1-q_c)^2}{1 - q_c^2} \prod_{c' \ne c} \phi_{c'}(z),

and :math:`p_{-k} = p_k`.  The dominant modulus (least :math:`a_c/w_c`; for MSDLap the scale
:math:`i = m`) gives the periodic tail profile :math:`p_k e^{a k/m} \to C_{k \bmod m} = B_{m, k \bmod m}`
(:func:`tail_constants`).  The sum has cancellation near :math:`k = 0`: each value is computed
with the working precision raised by :math:`\log_{10}(\sum|\text{terms}| / p_k)` digits, and the
constants :math:`B` are checked at two precisions.

**Independent method** (:func:`pmf_by_convolution`): the direct convolution of the truncated
DLap laws, with the neglected mass bounded (each factor loses
:math:`2 q^{T+1}/(1+q)` beyond :math:`|x| \le T`).

>>> from mpmath import mp
>>> p = [msdlap_pmf(k, "1.5", 3, digits=25) for k in range(-2, 3)]
>>> q = pmf_by_convolution(range(-2, 3), [1, 2, 3], ["1.5"] * 3, digits=25)
>>> all(mp.almosteq(x, y, 1e-13) for x, y in zip(p, q))      # partial fractions = convolution
True
>>> mp.almosteq(msdlap_var("1.5", 3, digits=20), 14 / (mp.cosh(1.5) - 1), 1e-13)   # Theorem 16's variance
True
"""

from __future__ import annotations

import math
from functools import lru_cache

from mpmath import mp

from .._validation import GUARD_DIGITS, exponent_digits, parse_precision, positive, resolve_digits

__all__ = [
    "dlap_pmf",
    "msdlap_components",
    "theorem18_components",
    "comb_pmf",
    "comb_logpmf",
    "comb_sf",
    "comb_mean_abs",
    "comb_var",
    "tail_constants",
    "dominant",
    "tail_error_bound",
    "mgf",
    "msdlap_pmf",
    "msdlap_logpmf",
    "msdlap_mean_abs",
    "msdlap_var",
    "pmf_by_convolution",
    "float_pmf_table",
]


# -- parameters ---------------------------------------------------------------------------
def _int(v, name):
    if isinstance(v, bool):
        raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
    try:
        x = mp.mpf(v) if not isinstance(v, int) else v
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an integer >= 1, got {v!r}") from None
    if x != int(x) or int(x) < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
    return int(x)


def msdlap_components(a, m):
    r"""``(weights, rates)`` of MSDLap(a, m) :math:`= \sum_{i=1}^m i\,\mathrm{DLap}(a)` (Theorem 16).

    >>> msdlap_components("2", 3)
    ((1, 2, 3), ('2', '2', '2'))
    """
    m = _int(m, "m")
    return tuple(range(1, m + 1)), (_key(a, "a"),) * m


def theorem18_components(eps, Delta, r):
    r"""Theorem 18's :math:`r\,\mathrm{MSDLap}(\varepsilon - 1, \lfloor\Delta/r\rfloor) + \mathrm{DLap}(1/r)`.

    ``(weights, rates)``: weights :math:`r i` at rate :math:`\varepsilon - 1` for
    :math:`i \le \lfloor\Delta/r\rfloor`, and weight 1 at rate :math:`1/r` (needs :math:`\varepsilon > 1`;
    the theorem assumes :math:`\varepsilon > 2`).

    >>> theorem18_components(4, 5, 2)
    ((2, 4, 1), ('3', '3', '0.5'))
    """
    Delta, r = _int(Delta, "Delta"), _int(r, "r")
    if r > Delta:
        raise ValueError(f"r must be in 1..Delta = {Delta}, got {r}")
    with mp.workdps(60):
        e = positive(eps, "eps")
        if e <= 1:
            raise ValueError(f"eps must be > 1 (Theorem 18 assumes eps > 2), got {eps!r}")
        a = mp.nstr(e - 1, 50, strip_zeros=True) if not isinstance(eps, int) else str(eps - 1)
    n = Delta // r
    return tuple(r * i for i in range(1, n + 1)) + (1,), (a,) * n + (_ratio(1, r),)


def _ratio(p, q):
    from decimal import Decimal, getcontext

    getcontext().prec = 60
    return str(Decimal(p) / Decimal(q)) if q else str(p)


def _key(a, name):
    """A rate as a hashable exact text (decimal string kept as given)."""
    if isinstance(a, str):
        with mp.workdps(60):
            positive(a, name)
        return a.strip()
    with mp.workdps(60):
        x = positive(a, name)
    if isinstance(a, int):
        return str(a)
    return mp.nstr(x, 50) if not isinstance(a, float) else repr(a)


def _check(weights, rates):
    return _check_cached(tuple(weights), tuple(rates))


@lru_cache(maxsize=256)
def _check_cached(weights, rates):
    w = tuple(_int(x, "weight") for x in weights)
    r = tuple(_key(x, "a") for x in rates)
    if len(w) != len(r) or not w:
        raise ValueError("weights and rates must be non-empty and of the same length")
    return w, r


# -- the pole expansion -------------------------------------------------------------------
class _Poles:
    """The constants ``B[c][r]`` and moduli ``rho_c`` of a comb at ``dps`` working digits."""

    def __init__(self, weights, rates, dps):
        self.dps = dps
        with mp.workdps(dps):
            self.w = weights
            self.a = [mp.mpf(x) for x in rates]
            self.q = [mp.exp(-x) for x in self.a]
            self.log_rho = [a / w for a, w in zip(self.a, self.w)]
            order = sorted(range(len(weights)), key=lambda c: self.log_rho[c])
            for c0, c1 in zip(order, order[1:]):
                if abs(self.log_rho[c0] - self.log_rho[c1]) <= mp.mpf(10) ** (-dps // 2):
                    raise ValueError("the comb's pole moduli a_c/w_c must be distinct (double poles are not "
                                     f"supported): {rates[c0]}/{weights[c0]} = {rates[c1]}/{weights[c1]}")
            self.order = order
            self.B = [self._group(c) for c in range(len(weights))]

    def _group(self, c):
        w, q = self.w[c], self.q[c]
        rho = mp.exp(self.log_rho[c])
        H = []
        for j in range(w):
            z = rho * mp.expjpi(mp.mpf(2 * j) / w)
            h = (1 - q) ** 2 / (1 - q * q)
            for c2 in range(len(self.w)):
                if c2 == c:
                    continue
                w2, q2 = self.w[c2], self.q[c2]
                zw = z ** w2
                h *= (1 - q2) ** 2 / ((1 - q2 * zw) * (1 - q2 / zw))
            H.append(h)
        out = []
        for r in range(w):
            s = mp.fsum(H[j] * mp.expjpi(-mp.mpf(2 * j * r) / w) for j in range(w))
            out.append(mp.re(s) / w)
        return out


@lru_cache(maxsize=64)
def _poles(weights, rates, digits):
    """Pole constants good to about ``digits`` digits, checked at two working precisions."""
    extra = 10 + int(sum(math.log10(1 + w) for w in weights))
    while True:
        p1 = _Poles(weights, rates, digits + extra)
        p2 = _Poles(weights, rates, digits + extra + 15)
        with mp.workdps(digits + extra + 15):
            scale = max(abs(b) for g in p2.B for b in g)
            diff = max(abs(x - y) for g1, g2 in zip(p1.B, p2.B) for x, y in zip(g1, g2))
        if diff <= scale * mp.mpf(10) ** (-digits - 5):
            return p2
        extra += 20
        if extra > 2000:
            raise ArithmeticError("comb pole constants do not converge")


def _prep(weights, rates, digits):
    w, r = _check(weights, rates)
    d = resolve_digits(digits)
    return w, r, d


_EXTRA: dict = {}


def _terms(P, k):
    return [mp.exp(-k * P.log_rho[c]) * P.B[c][k % P.w[c]] for c in range(len(P.w))]


def comb_pmf(k, weights, rates, *, digits=None):
    r""":math:`P(Z = k)` of the comb :math:`\sum_c w_c \mathrm{DLap}(a_c)` (partial fractions; module docstring).

    >>> from mpmath import mp
    >>> mp.almosteq(comb_pmf(3, [1], ["0.5"], digits=20), mp.tanh(0.25) * mp.exp(-1.5), 1e-13)   # DLap itself
    True
    """
    w, r, d = _prep(weights, rates, digits)
    k = abs(int(k))
    # k log(rho_c) is formed: a far k needs log10(k) more working digits (capped: exponent_digits)
    base = d + GUARD_DIGITS + exponent_digits(k)
    extra = _EXTRA.get((w, r, d), 0)  # the cancellation seen so far for this comb (grows near k = 0 only)
    while True:
        P = _poles(w, r, base + extra)
        with mp.workdps(base + extra):
            t = _terms(P, k)
            val = mp.fsum(t)
            size = mp.fsum(abs(x) for x in t)
        if val > 0:
            need = int(mp.ceil(mp.log10(size / val))) + 2
            if need <= extra:
                _EXTRA[(w, r, d)] = extra
                with mp.workdps(d + GUARD_DIGITS):
                    return +val
            extra = need + 5
        else:
            extra = 2 * extra + 20
        if extra > 5000:
            raise ArithmeticError(f"comb pmf at k = {k} lost all digits")


def comb_logpmf(k, weights, rates, *, digits=None):
    r""":math:`\ln P(Z = k)` (see :func:`comb_pmf`; symmetric, :math:`p_{-k} = p_k`).

    >>> comb_logpmf(-4, [1, 2], ["1", "1"], digits=15) == comb_logpmf(4, [1, 2], ["1", "1"], digits=15)
    True
    """
    d = resolve_digits(digits)
    p = comb_pmf(k, weights, rates, digits=d + 2)
    with mp.workdps(d + GUARD_DIGITS):
        return mp.log(p)


def comb_sf(k, weights, rates, *, digits=None):
    r""":math:`P(Z > k)`: for :math:`k \ge 0` the geometric sums :math:`\sum_{j>k} \rho_c^{-j} B_{c, j \bmod w_c}`; by symmetry below.

    >>> from mpmath import mp
    >>> mp.almosteq(comb_sf(-1, [1, 2, 3], ["1"] * 3, digits=20), comb_sf(0, [1, 2, 3], ["1"] * 3, digits=20)
    ...             + comb_pmf(0, [1, 2, 3], ["1"] * 3, digits=20), 1e-13)          # P(Z > -1) = P(Z >= 0)
    True
    """
    w, r, d = _prep(weights, rates, digits)
    k = int(k)
    if abs(k) > 1 and k >= 0:  # j0 log(rho_c) is formed: log10(k) more working digits (capped: exponent_digits)
        d += exponent_digits(k)
    if k < 0:  # P(Z > k) = 1 - P(Z <= k) = 1 - P(Z >= -k) = 1 - P(Z > -k - 1)
        with mp.workdps(d + GUARD_DIGITS + 5):
            return 1 - comb_sf(-k - 1, w, r, digits=d + 5)

    def terms(P):
        t = []
        for c in range(len(P.w)):
            wc, lr = P.w[c], P.log_rho[c]
            for res in range(wc):
                j0 = k + 1 + ((res - k - 1) % wc)
                t.append(P.B[c][res] * mp.exp(-j0 * lr) / (1 - P.q[c]))
        return t

    return _pole_sum(w, r, d, terms, "comb sf")


def _pole_sum(w, r, d, terms, what):
    """The sum of the partial-fraction terms ``terms(P)`` (built at the working precision) to ``d``
    digits: the terms alternate in sign, so the working precision is raised until the cancellation
    (the sum of their absolute values over the sum) leaves ``d`` digits and the guard."""
    extra = 10
    while True:
        P = _poles(w, r, d + GUARD_DIGITS + extra)
        with mp.workdps(d + GUARD_DIGITS + extra):
            t = terms(P)
            val, size = mp.fsum(t), mp.fsum(abs(x) for x in t)
        if val > 0 and mp.log10(size / val) + 3 <= extra:
            with mp.workdps(d + GUARD_DIGITS):
                return +val
        extra = int(mp.log10(size / val)) + 10 if val > 0 else 2 * extra
        if extra > 5000:
            raise ArithmeticError(f"{what} lost all digits")


def comb_var(weights, rates, *, digits=None):
    r""":math:`\operatorname{Var} Z = \sum_c w_c^2 / (\cosh a_c - 1)` (DLap's variance is :math:`1/(\cosh a - 1)`).

    >>> from mpmath import mp
    >>> mp.almosteq(comb_var([2], ["1"], digits=20), 4 / (mp.cosh(1) - 1))
    True
    """
    w, r, d = _prep(weights, rates, digits)
    with mp.workdps(d + GUARD_DIGITS + 5):
        v = mp.fsum(wc ** 2 / (mp.cosh(mp.mpf(a)) - 1) for wc, a in zip(w, r))
    with mp.workdps(d + GUARD_DIGITS):
        return +v


def comb_mean_abs(weights, rates, *, digits=None):
    r""":math:`E|Z| = 2\sum_c \sum_r B_{c,r}\, x_c^r\,[r/(1-q_c) + w_c q_c/(1-q_c)^2]`, :math:`x_c = \rho_c^{-1}`.

    From :math:`\sum_{k \ge 1,\ k \equiv r} k x^k = x^r [r/(1-x^w) + w x^w/(1-x^w)^2]` and :math:`x_c^{w_c} = q_c`.

    >>> from mpmath import mp
    >>> q = mp.exp(-1)
    >>> mp.almosteq(comb_mean_abs([1], ["1"], digits=20), 2 * mp.tanh(0.5) * q / (1 - q) ** 2)   # DLap: sum |k| p_k
    True
    """
    w, r, d = _prep(weights, rates, digits)

    def terms(P):
        t = []
        for c in range(len(P.w)):
            wc, q = P.w[c], P.q[c]
            for res in range(wc):
                x = mp.exp(-res * P.log_rho[c])
                t.append(2 * P.B[c][res] * x * (res / (1 - q) + wc * q / (1 - q) ** 2))
        return t

    return _pole_sum(w, r, d, terms, "comb E|Z|")


def dominant(weights, rates, *, digits=None):
    r"""The dominant component: ``(c, w_c, a_c/w_c)`` with the least pole modulus :math:`a_c/w_c`.

    >>> dominant([1, 2, 3], ["1"] * 3, digits=10)[:2]
    (2, 3)
    """
    w, r, d = _prep(weights, rates, digits)
    with mp.workdps(d + GUARD_DIGITS):
        c = _order(w, r)[0]
        return c, w[c], mp.mpf(r[c]) / w[c]


def _order(w, r):
    """The components by increasing modulus a_c/w_c; ``ValueError`` for equal moduli (as :class:`_Poles`)."""
    with mp.workdps(max(mp.dps, 30) + 20):
        lr = [mp.mpf(a) / wc for a, wc in zip(r, w)]
        order = sorted(range(len(w)), key=lambda c: lr[c])
        tol = mp.mpf(10) ** (-(mp.dps - 20) // 2)
        for c0, c1 in zip(order, order[1:]):
            if abs(lr[c0] - lr[c1]) <= tol:
                raise ValueError("the comb's pole moduli a_c/w_c must be distinct (double poles are not "
                                 f"supported): {r[c0]}/{w[c0]} = {r[c1]}/{w[c1]}")
    return order


def _dominant_group(w, r, c, dps):
    r"""``(B_{c,r})_r`` of one component at ``dps`` digits, and the cancellation ratio
    :math:`\sum_j |H_c(\rho\omega^j)| / (w_c \min_r B_{c,r})`; cost :math:`O(w_c \cdot \#\text{components} + w_c^2)`.

    :math:`z^{w'} = \rho^{w'} \omega^{j w' \bmod w_c}` from tables of :math:`\cos, \sin(2\pi n/w_c)`,
    :math:`(1 - q\zeta)(1 - q/\zeta) = 1 + q^2 - q[(R + 1/R)\cos\varphi + i (R - 1/R)\sin\varphi]` for
    :math:`\zeta = R e^{i\varphi}`, and :math:`H(\rho\bar\omega^{j}) = \overline{H(\rho\omega^j)}` (half the work).
    """
    with mp.workdps(dps):
        wc = w[c]
        a = [mp.mpf(x) for x in r]
        q = [mp.exp(-x) for x in a]
        lrho = a[c] / wc
        cs = [mp.cospi(mp.mpf(2 * n) / wc) for n in range(wc)]
        sn = [mp.sinpi(mp.mpf(2 * n) / wc) for n in range(wc)]
        fac = []
        for c2 in range(len(w)):
            if c2 == c:
                continue
            R = mp.exp(lrho * w[c2])
            q2 = q[c2]
            fac.append((w[c2], (1 - q2) ** 2, 1 + q2 * q2, q2 * (R + 1 / R), q2 * (R - 1 / R)))
        H = []
        for j in range(wc // 2 + 1):
            h = mp.mpc((1 - q[c]) ** 2 / (1 - q[c] ** 2))
            for w2, num, one, cp, sp in fac:
                n = (j * w2) % wc
                h *= num / mp.mpc(one - cp * cs[n], -sp * sn[n])
            H.append(h)
        out = []
        for res in range(wc):
            t = [mp.re(H[0])]
            for j in range(1, (wc - 1) // 2 + 1):
                n = (j * res) % wc
                t.append(2 * (mp.re(H[j]) * cs[n] + mp.im(H[j]) * sn[n]))
            if wc % 2 == 0:
                t.append(mp.re(H[wc // 2]) * (-1) ** res)
            out.append(mp.fsum(t) / wc)
        size = (abs(H[0]) + 2 * mp.fsum(abs(x) for x in H[1:])) / wc
        low = min(out)
        return out, (size / low if low > 0 else mp.inf)


@lru_cache(maxsize=64)
def _dominant_constants(w, r, digits):
    """The dominant group's ``B`` to ``digits`` digits: the working precision raised by the cancellation
    seen, and the values checked at a second precision 15 digits higher (as :func:`_poles` does)."""
    c = _order(w, r)[0]
    extra = 20
    while True:
        B1, ratio = _dominant_group(w, r, c, digits + extra)
        need = int(mp.log10(ratio)) + 10 if ratio != mp.inf else 2 * extra
        if need > extra:
            extra = need + 5
            if extra > 5000:
                raise ArithmeticError("comb tail constants do not converge")
            continue
        B2, _ = _dominant_group(w, r, c, digits + extra + 15)
        with mp.workdps(digits + extra + 15):
            if max(abs(x - y) for x, y in zip(B1, B2)) <= max(B2) * mp.mpf(10) ** (-digits - 5):
                return c, tuple(B2)
        extra += 20


def tail_constants(weights, rates, *, digits=None):
    r"""The periodic tail profile :math:`C_r = \lim_{k\to\infty,\,k \equiv r} p_k\, e^{\lambda k}`, :math:`\lambda` the least :math:`a_c/w_c`.

    :math:`C_r = B_{c^*, r}` for the dominant component (module docstring); independently,
    for MSDLap :math:`Z = m X_m + Y`: :math:`C_r = \tanh(a/2) \sum_{y \equiv r} P(Y = y) e^{a y/m}`.

    >>> from mpmath import mp
    >>> C = tail_constants([1, 2], ["1", "1"], digits=20)
    >>> mp.almosteq(C[1], comb_pmf(201, [1, 2], ["1", "1"], digits=30) * mp.exp(mp.mpf(201) / 2), 1e-13)
    True
    """
    w, r, d = _prep(weights, rates, digits)
    _, B = _dominant_constants(w, r, d + GUARD_DIGITS + 5)
    with mp.workdps(d + GUARD_DIGITS):
        return [+b for b in B]


def mgf(t, weights, rates, *, skip=None):
    r""":math:`E e^{tZ} = \prod_c (1-q_c)^2/((1 - q_c e^{t w_c})(1 - q_c e^{-t w_c}))` (at the working precision).

    ``skip``: a component left out.  ``inf`` when :math:`|t| w_c \ge a_c` for some component.

    >>> from mpmath import mp
    >>> mp.almosteq(mgf(0, [1, 2], ["1", "2"]), 1)
    True
    """
    out = mp.one
    for c, (wc, a) in enumerate(zip(weights, rates)):
        if c == skip:
            continue
        a = mp.mpf(a)
        if abs(t) * wc >= a:
            return mp.inf
        q = mp.exp(-a)
        out *= (1 - q) ** 2 / ((1 - q * mp.exp(t * wc)) * (1 - q * mp.exp(-t * wc)))
    return out


def tail_error_bound(k, weights, rates, *, fraction=None):
    r"""An explicit :math:`E_k` with :math:`C_r - E_k \le p_k e^{\lambda k} \le C_r` for every :math:`k` (:math:`r = k \bmod w^*`).

    Write :math:`Z = w^* X^* + Y` (:math:`X^*` the dominant DLap, rate :math:`a^*`, :math:`\lambda = a^*/w^*`).
    Then :math:`p_k e^{\lambda k} = \tanh(a^*/2) \sum_{y \equiv k} P(Y=y) e^{-\lambda|k-y| + \lambda k}`
    equals :math:`C_r` minus :math:`\tanh(a^*/2)\sum_{y > k,\, y \equiv k} P(Y=y)(e^{\lambda y} - e^{\lambda(2k - y)}) \ge 0`,
    and by Chernoff :math:`\sum_{y > k} P(Y = y) e^{\lambda y} \le e^{-\theta k} E e^{(\lambda+\theta) Y}` for
    :math:`0 < \theta`, :math:`(\lambda + \theta) w_c < a_c` (all other components).  Returns
    :math:`\min_\theta \tanh(a^*/2) e^{-\theta k} E e^{(\lambda+\theta)Y}` over a grid of :math:`\theta`, and
    the :math:`\theta` used (``fraction``: :math:`\theta` as a fraction of the gap between the two least
    moduli, instead of the grid; ``0`` and ``0`` for a single DLap, where :math:`p_k e^{\lambda |k|} = C` exactly).

    >>> from mpmath import mp
    >>> E, th = tail_error_bound(100, [1, 2], ["1", "1"])
    >>> C = tail_constants([1, 2], ["1", "1"], digits=20)
    >>> with mp.workdps(30):
    ...     0 <= C[0] - comb_pmf(100, [1, 2], ["1", "1"], digits=30) * mp.exp(50) <= E      # the bound holds
    True
    """
    w, r = _check(weights, rates)
    if len(w) == 1:
        return mp.zero, mp.zero
    a = [mp.mpf(x) for x in r]
    lr = [x / y for x, y in zip(a, w)]
    c = min(range(len(w)), key=lambda i: lr[i])
    lam = lr[c]
    gap = min(lr[i] for i in range(len(w)) if i != c) - lam
    best = (mp.inf, mp.zero)
    for frac in (fraction,) if fraction is not None else (0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 0.95):
        th = gap * frac
        val = mp.tanh(a[c] / 2) * mp.exp(-th * k) * mgf(lam + th, w, r, skip=c)
        if val < best[0]:
            best = (val, th)
    return best


# -- MSDLap --------------------------------------------------------------------------------
def msdlap_pmf(k, a, m, *, digits=None):
    r""":math:`P(Z = k)`, :math:`Z = \sum_{i=1}^m i X_i`, :math:`X_i` iid DLap(a) (Theorem 16's noise with :math:`a = \varepsilon`, :math:`m = \Delta`).

    >>> from mpmath import mp
    >>> mp.almosteq(mp.fsum(msdlap_pmf(k, 2, 3, digits=20) for k in range(-80, 81)), 1, 1e-13)   # sums to 1
    True
    """
    return comb_pmf(k, *msdlap_components(a, m), digits=digits)


def msdlap_logpmf(k, a, m, *, digits=None):
    r""":math:`\ln P(Z = k)` of MSDLap(a, m) (:func:`msdlap_pmf`; Theorem 16).

    >>> from mpmath import mp
    >>> mp.almosteq(msdlap_logpmf(2, 1, 1, digits=20), mp.log(mp.tanh(0.5)) - 2)
    True
    """
    return comb_logpmf(k, *msdlap_components(a, m), digits=digits)


def msdlap_var(a, m, *, digits=None):
    r""":math:`\operatorname{Var} Z = S_2(m)/(\cosh a - 1)`, :math:`S_2(m) = m(m+1)(2m+1)/6` (Theorem 16).

    >>> from mpmath import mp
    >>> mp.almosteq(msdlap_var(1, 2, digits=20), 5 / (mp.cosh(1) - 1))
    True
    """
    return comb_var(*msdlap_components(a, m), digits=digits)


def msdlap_mean_abs(a, m, *, digits=None):
    r""":math:`E|Z|` of MSDLap(a, m) (:func:`comb_mean_abs`; Theorem 16's noise).

    >>> from mpmath import mp
    >>> mp.almosteq(msdlap_mean_abs(2, 3, digits=20), mp.fsum(abs(k) * msdlap_pmf(k, 2, 3, digits=25)
    ...             for k in range(-90, 91)), 1e-13)                        # sum |k| p_k
    True
    """
    return comb_mean_abs(*msdlap_components(a, m), digits=digits)


def dlap_pmf(k, a, *, digits=None):
    r"""DLap(a): :math:`\tanh(a/2) e^{-a|k|} = \frac{1-e^{-a}}{1+e^{-a}} e^{-a|k|}` (the follow-up paper's notation).

    >>> from mpmath import mp
    >>> mp.almosteq(mp.fsum(dlap_pmf(k, 1, digits=20) for k in range(-60, 61)), 1, 1e-13)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        x = positive(a, "a")
        v = mp.tanh(x / 2) * mp.exp(-x * abs(int(k)))
    with mp.workdps(d + GUARD_DIGITS):
        return +v


# -- the independent method: direct convolution ---------------------------------------
def pmf_by_convolution(ks, weights, rates, *, digits=None):
    r""":math:`P(Z = k)` for ``k in ks`` by direct convolution of the truncated DLap laws (test reference).

    Each :math:`X_c` is cut at :math:`|x| \le T_c` with :math:`2 q_c^{T_c+1}/(1+q_c) \le 10^{-(d+15)}`; the
    neglected mass of the product is at most the sum of those.  Absolute accuracy
    :math:`\sim 10^{-(d+14)}`: use it where :math:`p_k` is not tiny.

    >>> from mpmath import mp
    >>> mp.almosteq(pmf_by_convolution([0], [1], ["1"], digits=20)[0], mp.tanh(0.5))
    True
    """
    w, r = _check(weights, rates)
    d = resolve_digits(digits)
    with mp.workdps(d + 20):
        dist = {0: mp.one}
        for wc, a in zip(w, r):
            a = mp.mpf(a)
            q = mp.exp(-a)
            T = int(mp.ceil(((d + 15) * mp.log(10) + mp.log(2)) / a))
            ker = {wc * x: mp.tanh(a / 2) * q ** abs(x) for x in range(-T, T + 1)}
            new = {}
            for y, py in dist.items():
                for x, px in ker.items():
                    new[y + x] = new.get(y + x, 0) + py * px
            dist = new
        out = [dist.get(int(k), mp.zero) for k in ks]
    with mp.workdps(d + GUARD_DIGITS):
        return [+x for x in out]


def float_pmf_table(weights, rates, N):
    r"""float64 pmf on :math:`-N..N` by numpy convolution of DLap laws (the float64 path).

    Every partial sum is kept on :math:`|k| \le N' = N + w_{\max} T_0`, :math:`T_0 = \lceil 40/a_{\min}\rceil`,
    and each DLap is cut at :math:`|x| \le N'/w_c + T_0`: a path that leaves the window and comes
    back needs a factor :math:`|x| > T_0`, so all values (the far tail included) have relative error
    :math:`\lesssim e^{-40}` plus rounding.  Positive sums only: no cancellation.

    >>> import numpy as np
    >>> p = float_pmf_table([1, 2, 3], [1.0] * 3, 200)
    >>> bool(abs(p.sum() - 1) < 1e-12)
    True
    >>> bool(abs(p[200 + 150] / comb_pmf(150, [1, 2, 3], ["1"] * 3, digits=20) - 1) < 1e-12)   # far tail
    True
    """
    import numpy as np

    rates = [float(a) for a in rates]
    T0 = int(math.ceil(40 / min(rates))) + 1
    Np = int(N) + max(weights) * T0
    dist = np.zeros(2 * Np + 1)
    dist[Np] = 1.0
    for wc, a in zip(weights, rates):
        T = Np // wc + T0
        ker = np.zeros(2 * wc * T + 1)
        x = np.arange(-T, T + 1)
        ker[wc * (x + T)] = math.tanh(a / 2) * np.exp(-a * np.abs(x))
        full = np.convolve(dist, ker)
        c = len(full) // 2
        dist = full[c - Np: c + Np + 1]
    return dist[Np - N: Np + N + 1]
