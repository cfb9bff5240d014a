r"""Ball-arithmetic pieces of the certified combs (:mod:`arete_proofs.certified.combs`): exact parameters, the comb's poles as balls, the certificate.

``_Comb`` holds the pole constants :math:`B_{c,r}`, the moduli :math:`\rho_c`, the tail profile
:math:`C_r` and the Chernoff constant :math:`E_0 = \tanh(a^*/2)\,E e^{(\lambda+\theta)Y}` as python-flint
balls; :class:`CombCertificate` is the result of
:func:`arete_proofs.certified.combs.certify_comb` and
:func:`arete_proofs.certified.combs_lattice.certify_lattice`.  Balls are written as exact
``"mid +/- rad"`` decimal text that contains them.

>>> from arete_proofs.certified.combs import certify_msdlap
>>> r = certify_msdlap("1.5", 1, 2, digits=10)          # DLap(a): eps* = a Delta exactly
>>> r.contains(3), r.method
(True, 'comb')
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["CombCertificate"]


# -- exact parameters and ball helpers -----------------------------------------------------------------
def _exact(x, name):
    """``x`` as an exact positive Fraction (:func:`arete_proofs.certified.density.exact_parameter`:
    decimal strings, ints, Fractions, floats and mpf exactly), or a one-line ``ValueError`` naming ``name``."""
    from .density import exact_parameter

    return exact_parameter(x, name)


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
    """``"mid +/- rad"`` decimal text of a ball that contains ``x`` (re-read by ``_readball``)."""
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
        from flint import arb

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
        from flint import ctx

        base = ctx.prec
        for extra in (0, base, 3 * base):   # products of near-cancelling factors: more bits where a ball blew up
            with _precision(base + extra):
                B = self._pole_constants(weights, [(-_ball(a)).exp() for a in rates] if extra else q)
            if all(x.is_finite() for row in B for x in row):
                break
        else:
            raise ValueError(f"the comb's pole constants are not finite at {4 * base} bits: raise prec")
        self.B = [[+x for x in row] for row in B]     # back at the working precision
        self.C = self.B[self.cs]
        self.cmin = self.C[0]
        self.cmax = self.C[0]
        for x in self.C[1:]:
            self.cmin, self.cmax = self.cmin.min(x), self.cmax.max(x)
        self.rho_inv = [(-_ball(x)).exp() for x in self.lr]
        self._p = {}
        self.arb = arb

    def _pole_constants(self, weights, q):
        r""":math:`B_{c,r} = \frac1{w_c}\sum_j H_{c,j} e^{-2\pi i jr/w_c}`, :math:`H_{c,j}` the other factors at the pole
        :math:`z_j = \rho_c e^{2\pi i j/w_c}` (:math:`\rho_c = e^{a_c/w_c}`).

        With :math:`E = \rho_c^{w_2}` and :math:`\phi = 2\pi j w_2/w_c`,
        :math:`(1 - q_2 z_j^{w_2})(1 - q_2 z_j^{-w_2}) = 1 + q_2^2 - q_2(E + E^{-1})\cos\phi - i\,q_2(E - E^{-1})\sin\phi`:
        the :math:`j`-free parts are computed once per pair of components, :math:`H_{c,w_c-j} = \overline{H_{c,j}}`
        (the law is real), and the sum over :math:`j` is FLINT's ball DFT (``acb.dft``).  The cost is
        :math:`\sum_c w_c m/2` products of balls (:math:`m^3/4`), the exponentials :math:`O(m^2)`.
        """
        from flint import acb, arb, fmpq

        n = len(weights)
        out = []
        for c in range(n):
            wc = weights[c]
            cos, sin = [], []
            for k in range(wc):
                x = arb(fmpq(2 * k, wc))
                cos.append(x.cos_pi())
                sin.append(x.sin_pi())
            num = (1 - q[c]) ** 2 / (1 - q[c] * q[c])
            others = []
            for c2 in range(n):
                if c2 == c:
                    continue
                w2 = weights[c2]
                E = _ball(Fraction(w2) * self.lr[c]).exp()
                num *= (1 - q[c2]) ** 2
                others.append((w2 % wc, 1 + q[c2] * q[c2], q[c2] * (E + 1 / E), -q[c2] * (E - 1 / E)))
            half = wc // 2 + 1
            H = [None] * wc
            for j in range(half):
                den = acb(1)
                for w2, s2, A2, B2 in others:
                    k = j * w2 % wc
                    den *= acb(s2 - A2 * cos[k], B2 * sin[k])
                H[j] = num / den
            for j in range(half, wc):
                H[j] = H[wc - j].conjugate()
            out.append([x.real / wc for x in acb.dft(H)])
        return out

    def p(self, k):
        k = abs(int(k))
        v = self._p.get(k)
        if v is None:
            v = self.arb(0)
            for c in range(len(self.w)):
                v += self.rho_inv[c] ** k * self.B[c][k % self.w[c]]
            self._p[k] = v
        return v

    def q_table(self, K, prec_bits=None):
        r"""Balls :math:`\hat q_k \ni p_k e^{\lambda k}`, :math:`k = 0..K` (:math:`\lambda` the dominant modulus; order one).

        :math:`\hat q_k = \sum_c B_{c,k \bmod w_c} r_c^k`, :math:`r_c = e^{-(a_c/w_c - \lambda)} < 1` for
        :math:`c \ne c^*` (powers by running products).  A component is dropped from :math:`k \ge K_c` on,
        where :math:`\max_r|B_{c,r}|\,r_c^{K_c} = \tau_c` is below :math:`2^{-\text{bits}} C_{\min}`: its terms
        for :math:`k \ge K_c` are at most :math:`\tau_c` (:math:`r_c < 1`), so :math:`\pm\sum_{K_c \le k}\tau_c` is
        added instead.  The same values as ``p(k) * exp(lam * k)``, at about a sixth of the cost when
        :math:`m` is large (most components die out long before the window's end).

        >>> from fractions import Fraction as Q
        >>> with _precision(128):
        ...     c = _Comb((1, 2, 3), (Q(2), Q(2), Q(2)))
        ...     t = c.q_table(50)
        ...     all(t[k].overlaps(c.p(k) * (c.lam * k).exp()) for k in (0, 7, 50))
        True
        """
        from flint import ctx

        bits = ctx.prec if prec_bits is None else int(prec_bits)
        arb, n, cs = self.arb, len(self.w), self.cs
        floor_log = math.log(max(float(self.cmin.mid()), 1e-300)) - (bits + 8) * math.log(2)
        comps = []   # (K_c, c, r_c, tau_c)
        for c in range(n):
            if c == cs:
                continue
            gap = self.lr[c] - self.lam_q
            r = (-_ball(gap)).exp()
            bmax = _max(abs(x) for x in self.B[c]).upper()
            lb = math.log(max(float(bmax.mid()), 1e-300))
            Kc = max(0, math.ceil((lb - floor_log) / float(gap)))
            comps.append((Kc, c, r, bmax * (-_ball(gap * Kc)).exp()))
        comps.sort(key=lambda x: -x[0])
        live = [(c, r, [arb(1)]) for Kc, c, r, _ in comps]
        out, dropped = [], arb(0)
        C, wcs = self.B[cs], self.w[cs]
        cut = len(comps)
        for k in range(K + 1):
            while cut and comps[cut - 1][0] <= k:   # comps sorted by K_c descending: the last die first
                cut -= 1
                dropped += comps[cut][3]
            v = C[k % wcs] + 0
            for i in range(cut):
                c, r, P = live[i]
                v += self.B[c][k % self.w[c]] * P[0]
                P[0] *= r
            out.append(v + (-dropped).union(dropped) if cut < len(comps) else v)
        return out

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
class _CertificateReport:
    """What the CLI reads of a certified enclosure, beside ``upper``, ``numeric``, ``target``,
    ``params`` and ``Delta`` (shared by :class:`CombCertificate` and the lattice_gauss cover's result)."""

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


@dataclass
class CombCertificate(_CertificateReport):
    r"""A certified enclosure :math:`\varepsilon^* \in [\mathrm{lower}, \mathrm{upper}]` (module docstring).

    ``lower``/``upper`` are floats rounded outward (``lo``/``hi`` the decimal strings); ``kind``:
    ``"comb"`` or ``"lattice_laplace"``; ``params``: the exact parameters; ``window``: ``K'`` and ``K``
    (comb) or ``n0`` and ``T`` (lattice); ``tail``: :math:`\theta`, :math:`\eta`, the profile
    :math:`C_r`; ``tail_limit``/``window_max``: balls as text; ``candidates``: the best window pairs.
    The attributes ``t_star``, ``method``, ``argument``, ``numeric``, ``target`` follow
    :class:`arete_proofs.certified.epsilon.EpsilonCertificate`.

    >>> from arete_proofs.certified.combs import certify_msdlap
    >>> r = certify_msdlap("1.5", 1, 2, digits=10)          # DLap(a): eps* = a Delta exactly
    >>> r.contains(3), r.upper - r.lower < 1e-10
    (True, True)
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

    T = property(lambda self: self.window.get("T"))
    tail_bound = property(lambda self: self.tail.get("eta"))

    def contains(self, x):
        """Whether the exact value ``x`` (decimal string, int, Fraction or mpf) lies in ``[lo, hi]``."""
        q = _exact_real(x)
        return Fraction(self.lo) <= q <= Fraction(self.hi)

    def to_json(self):
        """A JSON-ready dict (a deep copy): everything :func:`arete_proofs.certified.combs.check` needs to recompute and compare."""
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
