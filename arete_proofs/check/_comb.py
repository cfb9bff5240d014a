r"""The DLap comb :math:`K = \sum_c w_c X_c`, :math:`X_c \sim \mathrm{DLap}(a_c)`: its tilted pmf on a window, computed
by positive recurrences only (no partial fractions, so nothing cancels).

With :math:`\lambda = \min_c a_c/w_c` (one component :math:`c^*`, weight :math:`w^*`, attains it),
:math:`q_k = p_k e^{\lambda k}`, :math:`Y = \sum_{c \ne c^*} w_c X_c` and :math:`Q(y) = P(Y = y) e^{\lambda y}`:

.. math::

   \sum_y Q(y) z^y = \underbrace{\prod_{c \ne c^*} \frac{\kappa_c}{1 - r_c z^{w_c}}}_{Q_R}\;
                     \underbrace{\prod_{c \ne c^*} \frac{1}{1 - l_c z^{-w_c}}}_{Q_L},\qquad
   r_c = e^{-a_c + \lambda w_c},\ l_c = e^{-a_c - \lambda w_c},\ \kappa_c = \tanh(a_c/2)(1 - r_c l_c),

and, summing over the dominant component (:math:`t^* = \tanh(a^*/2)`, congruences mod :math:`w^*`),

.. math::

   q_k = t^*\Big[\sum_{y \le k - w^*,\ y \equiv k} Q(y) + V_k\Big],\qquad
   V_k = \sum_{i \ge 0} Q(k + i w^*)\, e^{-2 a^* i}.

:math:`Q_R` (on :math:`y \ge 0`) and :math:`Q_L` (on :math:`y \le 0`) are exact on any prefix by forward
recurrences :math:`y_k = x_k + r\,y_{k-w}` (one per component), :math:`Q = Q_R * Q_L` is one direct
convolution, the sums along residue classes a cumulative sum and a recurrence: every operation adds or
multiplies non-negative numbers, so Fact 2 of :mod:`._iv` bounds the rounding by :math:`\gamma_E` with
:math:`E` counted below.  The neglected parts are bounded in ``arb``:

* :math:`Q_L` beyond :math:`M` terms: :math:`\sum_{n \ge M} Q_L(-n) \le e^{-\lambda M}\prod_c (1 - e^{-a_c})^{-1}`
  (Chernoff at :math:`s = \lambda`), times :math:`\sup_{y \ge 0} Q_R(y) \le E_0/t^*`;
* :math:`y < -M` in the first sum: :math:`Q(y) \le e^{\lambda y}`, so at most :math:`e^{-\lambda M}/(1 - e^{-\lambda})`;
* :math:`y` beyond the table in :math:`V_k`: :math:`Q(y) \le e^{-\theta y} E_0/t^* \le E_0/t^*`.

Chernoff (the tail profile): :math:`0 \le C_{k \bmod w^*} - q_k \le E_0 e^{-\theta k}` for :math:`k \ge 0`,
:math:`E_0 = t^*\,E\,e^{(\lambda+\theta)Y}`, where :math:`C_r = \lim q_{r + i w^*}`; so the table's last period
encloses :math:`C`.  For :math:`k < 0`, :math:`q_k = q_{-k} e^{2\lambda k}` (the comb is symmetric).

>>> from fractions import Fraction as Q
>>> t = table([1, 2], [Q(2), Q(2)], 40, theta=Q(1, 2))
>>> lo, hi = t.q(3)        # X_1 + 2 X_2, X_c ~ DLap(2): lambda = 1, q_3 = p_3 e^3
>>> p3 = 0.013506165544782315   # tanh(1)^2 sum_j exp(-2|3 - 2j| - 2|j|) (mpmath, 30 digits, |j| < 60)
>>> bool(lo <= p3 * math.exp(3) <= hi) and hi - lo < 1e-12
True
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from . import _iv
from ._arb import ball, prec


def _forward(buf, n, r, rinv, j, bmax):
    """``buf[k] += r buf[k - j]`` for k < n in order (the recurrence y_k = x_k + r y_{k-j}), exactly on a prefix.

    Rows of length j, blocks of B rows: y_{i0+i} = r^i (r y_{i0-1} + sum_{l <= i} r^-l x_{i0+l}) with the powers
    by repeated multiplication.  A path from an input to an output passes at most 12 rows + 2 roundings, rows =
    ceil(n / j) (module docstring).  ``bmax``: powers r^-B kept below the float range."""
    rows = -(-n // j)
    X = buf[:rows * j].reshape(rows, j)
    B = max(1, min(rows, bmax))
    P = np.cumprod(np.full(B, rinv))
    P = np.concatenate([[1.0], P[:-1]])[:, None]     # r^-l, l < B
    p = np.cumprod(np.full(B, r))
    p = np.concatenate([[1.0], p[:-1]])[:, None]     # r^l
    prev = None
    for i0 in range(0, rows, B):
        blk = X[i0:i0 + B]
        k = len(blk)
        np.multiply(blk, P[:k], out=blk)
        if prev is not None:
            blk[0] += r * prev
        np.cumsum(blk, axis=0, out=blk)
        np.multiply(blk, p[:k], out=blk)
        prev = blk[-1]
    return 12 * rows + 2


def chernoff(weights, rates, theta):
    r""":math:`E_0 = t^*\,E\,e^{(\lambda+\theta)Y}` as an ``arb`` ball (0 for a single DLap); ``ValueError`` when
    :math:`\theta` is not below the Chernoff gap."""
    n = len(weights)
    lr = [Fraction(a) / w for a, w in zip(rates, weights)]
    cs = min(range(n), key=lambda c: lr[c])
    lam, theta = lr[cs], Fraction(theta)
    with prec(128):
        E0 = (ball(Fraction(rates[cs])) / 2).tanh() if n > 1 else ball(0)
        for c in range(n):
            if c == cs:
                continue
            if not (theta >= 0 and (lam + theta) * weights[c] < rates[c]):
                raise ValueError(f"theta={theta} is not below the comb's Chernoff gap")
            q = (-ball(Fraction(rates[c]))).exp()
            e = ((ball(lam) + ball(theta)) * weights[c]).exp()
            E0 *= (1 - q) ** 2 / ((1 - q * e) * (1 - q / e))
        return E0


class Table:
    """The enclosure of q_k (k in [-kneg, K]) and of the tail profile C (``table``)."""

    def __init__(self, mid, rel, absolute, lam, w, C, E0, theta, cmin, cmax):
        self.mid, self.rel, self.abs = mid, rel, absolute
        self.lam, self.w, self.C, self.E0, self.theta, self.cmin, self.cmax = lam, w, C, E0, theta, cmin, cmax

    def bounds(self, ks):
        """(lo, hi) float arrays enclosing q_k for the integers ``ks`` (0 <= k <= K; negative k: the mirror)."""
        ks = np.asarray(ks)
        m = self.mid[np.abs(ks)]
        flo, fhi = math.nextafter(1 - self.rel, 0), math.nextafter(1 + 2 * self.rel, 2)
        lo = _iv.dn(_iv.dn(m * flo) - self.abs)
        hi = _iv.up(_iv.up(m * fhi) + 2 * self.abs)
        neg = ks < 0
        if neg.any():
            f = self._mirror(np.abs(ks[neg]))
            lo[neg], hi[neg] = _iv.dn(lo[neg] * f[0]), _iv.up(hi[neg] * f[1])
        return np.maximum(lo, 0.0), hi

    def _mirror(self, n):
        """Float intervals of e^{-2 lambda n} (positive products of arb powers: Fact 1)."""
        n = np.asarray(n, dtype=np.int64)
        with prec(128):
            lam = ball(self.lam)
            base = [_iv.of_arb((-2 * lam * (64 * i)).exp()) for i in range(int(n.max()) // 64 + 1)]
            fine = [_iv.of_arb((-2 * lam * i).exp()) for i in range(64)]
        b = np.array(base)[n // 64]
        f = np.array(fine)[n % 64]
        return _iv.dn(b[:, 0] * f[:, 0]), _iv.up(b[:, 1] * f[:, 1])

    def q(self, k):
        lo, hi = self.bounds(np.array([k]))
        return float(lo[0]), float(hi[0])


def table(weights, rates, K, *, theta):
    r"""The enclosure :class:`Table` of :math:`q_k`, :math:`0 \le k \le K`, and of the profile :math:`C` (module docstring).

    ``weights``: positive integers; ``rates``: exact positive Fractions; ``theta``: the Chernoff rate
    (:math:`0 \le \theta`, :math:`(\lambda + \theta) w_c < a_c` for :math:`c \ne c^*`).  ``ValueError`` names what fails.
    """
    n = len(weights)
    lr = [Fraction(a) / w for a, w in zip(rates, weights)]
    cs = min(range(n), key=lambda c: lr[c])
    if sum(x == lr[cs] for x in lr) != 1:
        raise ValueError("the comb's least modulus a_c/w_c is attained twice (not supported)")
    lam, ws, astar = lr[cs], weights[cs], Fraction(rates[cs])
    others = [c for c in range(n) if c != cs]
    theta = Fraction(theta)
    if theta < 0 or any(not (lam + theta) * weights[c] < rates[c] for c in others):
        raise ValueError(f"theta={theta} is not below the comb's Chernoff gap")
    with prec(128):
        L_ = ball(lam)
        tstar = (ball(astar) / 2).tanh()
        E0 = tstar if others else ball(0)          # a single DLap: q_k = t* for k >= 0, C - q_k = 0
        rs, ls, kap, mass, massL = [], [], ball(1), ball(1), ball(1)
        for c in others:
            a, w = ball(Fraction(rates[c])), weights[c]
            q = (-a).exp()
            e = ((L_ + ball(theta)) * w).exp()
            E0 *= (1 - q) ** 2 / ((1 - q * e) * (1 - q / e))
            r, l = (-(a - L_ * w)).exp(), (-(a + L_ * w)).exp()
            rs.append((r, 1 / r, w))
            ls.append((l, 1 / l, w))
            kap *= (a / 2).tanh() * (1 - r * l)
            mass /= 1 - r
            massL /= 1 - q
        lmass = float(mass.upper().log().upper())
        if not lmass < 600:
            raise ValueError("the comb's tilted mass exceeds the float range (m too large for this checker)")
        # s: the Chernoff rate of Q_L's truncation (l_c e^{s w_c} < 1); Pi_s = prod (1 - l_c e^{s w_c})^-1
        lamf = float(lam)
        smin = min((Fraction(rates[c]) / weights[c] for c in others), default=Fraction(1))
        s_ = lam + min(smin, lam) * Fraction(9, 10)        # s w* <= 1.9 a* < 2 a*, and l_c e^{s w_c} < 1
        Pis = ball(1)
        for c in others:
            Pis /= 1 - (-(ball(Fraction(rates[c])) + (L_ - ball(s_)) * weights[c])).exp()
        BR = E0 / tstar if others else ball(0)           # sup_{y >= 0} Q_R(y) <= sup Q(y) <= E0/t* (Q = delta_0: 0)
        lBR = max(0.0, float(BR.upper().log().upper())) if others else 0.0
        lPi = float(Pis.upper().log().upper())
        Mleft = int(math.ceil(60 / lamf)) + 2 * ws                      # y >= -Mleft kept (e^{-lam Mleft})
        extra = int(math.ceil((60 + lBR + lPi) / float(s_))) + 4 * ws if others else 2 * ws
        bmax = lambda g: int(max(1.0, (690.0 - lmass) / g))
        n_tot = Mleft + K + extra                        # index i <-> y = i - Mleft
        buf = np.zeros(n_tot + ws + 2)
        buf[Mleft] = 1.0
        E = 2
        for r, ri, w in rs:                              # Q_R: exact on the whole array
            E += _forward(buf, n_tot, float(r.mid()), float(ri.mid()), w, bmax(-math.log(float(r.mid()))))
        buf = buf[:n_tot] * float(kap.mid())
        rev = np.concatenate([buf[::-1], np.zeros(ws + 2)])
        for l, li, w in ls:                              # Q_L: backward, missing only what lies beyond the end
            E += _forward(rev, n_tot, float(l.mid()), float(li.mid()), w, bmax(-math.log(float(l.mid()))))
        Qy = rev[:n_tot][::-1]
        ystart = -Mleft - (Mleft % ws) - ws if (Mleft % ws) else -Mleft - ws   # a multiple of ws, <= -Mleft - ws
        lead = -Mleft - ystart
        rows = -(-(lead + n_tot) // ws)
        A = np.zeros(rows * ws)
        A[lead:lead + n_tot] = Qy
        S = np.cumsum(A.reshape(rows, ws), axis=0).reshape(-1)       # S[i] = sum_{y <= ystart + i, same residue}
        rho2 = (-2 * ball(astar)).exp()                  # V_k = Q(k) + rho2 V_{k+w*}: reversed, forward
        Vr = A[::-1].copy()
        EV = _forward(Vr, len(Vr), float(rho2.mid()), float((1 / rho2).mid()), ws, bmax(2 * float(astar)))
        V = Vr[::-1]
        i0 = -ystart                                     # the index of y = 0
        k = np.arange(K + 1)
        qmid = (S[i0 + k - ws] + V[i0 + k]) * float(tstar.mid())
        E += max(rows, EV) + 4
        rel = _iv.gamma(E)
        # the neglected parts (absolute), in arb: Q_L beyond the end (A_K at y <= K + w*), V beyond the end,
        # y < -Mleft, and underflow (each of E roundings, at most 2^-1074, times the mass of the later factors)
        ymax = n_tot - 1 - Mleft
        AK = BR * (-ball(s_) * (ymax - K - ws + 1)).exp() * Pis if others else ball(0)
        geo = 1 / (1 - (ball(s_) * ws - 2 * ball(astar)).exp())
        vend = BR * rho2 ** ((ymax - K) // ws) / (1 - rho2)
        left = (-L_ * Mleft).exp() / (1 - (-L_).exp())
        absq = tstar * (AK * (rows + geo) + vend + left + E * mass * ball(Fraction(2) ** -1074))
        absf = float(absq.upper()) * (1 + 1e-12) + _iv.TINY
        if not (np.all(np.isfinite(qmid)) and math.isfinite(rel) and rel < 1e-6 and math.isfinite(absf)):
            raise ValueError("the comb's table is not finite in float64 (parameters out of this checker's range)")
        # the tail profile C_r from the last period: C_{k mod w*} in [q_k, q_k + E0 e^{-theta k}]
        last = np.arange(K - ws + 1, K + 1)
        ch = E0 * (-ball(theta) * (K - ws + 1)).exp()
        ch_f = _iv.of_arb(ch)[1]
        t = Table(qmid, rel, absf, lam, ws, None, E0, theta, None, None)
        lo, hi = t.bounds(last)
        hi = _iv.up(hi + ch_f)
        order = np.argsort(last % ws)
        t.C = (lo[order], hi[order])
        t.cmin, t.cmax = float(np.min(lo)), float(np.max(hi))
        if not t.cmin > 0:
            raise ValueError("the comb's tail profile is not bounded away from 0 on this table (a longer one?)")
        return t
