r"""The poles of a DLap comb as python-flint balls: the constants :math:`B_{c,r}`, the moduli, and the scaled pmf on a window.

The comb :math:`Z = \sum_c w_c X_c`, :math:`X_c \sim \mathrm{DLap}(a_c)` (:mod:`arete_proofs.distributions.comb`,
whose module docstring derives the partial fractions) has, for :math:`k \ge 0`,

.. math::

   p_k = \sum_c \rho_c^{-k} B_{c,\,k \bmod w_c},\qquad \rho_c = e^{a_c/w_c},

and with :math:`\lambda = \min_c a_c/w_c` (the dominant component :math:`c^*`) the scaled values
:math:`q_k = p_k e^{\lambda k} = C_{k \bmod w^*} + \sum_{c \ne c^*} B_{c, k \bmod w_c} r_c^k`,
:math:`r_c = e^{-(a_c/w_c - \lambda)} < 1`, tend to the periodic tail profile :math:`C_r = B_{c^*, r}`.
:class:`CombPoles` holds these as balls (exact rational parameters in, rigorous enclosures out); it is the
engine of the certified combs (:mod:`arete_proofs.certified.combs`, ``combs_lattice``, ``combs_gauss``) and of
the long windows of :func:`arete_proofs.distributions.comb_table.scaled_pmf_table` (most components die out
long before a window's end, so the table costs far less than the power series there).

>>> from fractions import Fraction as Q
>>> from arete_proofs.distributions.comb import pmf_by_convolution
>>> with _precision(128):
...     c = CombPoles((1, 2), (Q(2), Q(2)))              # DLap(2) + 2 DLap(2)
...     ball = c.p(3)
>>> direct = pmf_by_convolution([3], [1, 2], ["2", "2"], digits=30)[0]   # the truncated convolution
>>> abs(float(ball.mid()) / float(direct) - 1) < 1e-15 and float(ball.rad()) < 1e-30
True
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from fractions import Fraction

__all__ = ["CombPoles", "cancellation_bits", "pole_magnitudes"]


def _ball(q):
    from flint import arb, fmpq

    return arb(fmpq(q.numerator, q.denominator))



@contextmanager
def _precision(prec):
    from flint import ctx

    old = ctx.prec
    ctx.prec = int(prec)
    try:
        yield
    finally:
        ctx.prec = old


def _max(vals):
    out = None
    for v in vals:
        out = v if out is None else out.max(v)
    return out



class CombPoles:
    r"""Pole constants :math:`B_{c,r}`, :math:`\rho_c`, the dominant component and the Chernoff bound, as balls."""

    def __init__(self, weights, rates, bits=None):
        """``bits``: compute (and keep, for :meth:`q_table`) the pole constants at at least this many bits, when
        the partial fractions cancel by more than the working precision can hold (:func:`cancellation_bits`);
        every other value is at the working precision.  ``None``: at the working precision."""
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
        hi = max(base, int(bits or 0))
        for extra in (0, hi, 3 * hi):   # products of near-cancelling factors: more bits where a ball blew up
            with _precision(hi + extra):
                B = self._pole_constants(weights, [(-_ball(a)).exp() for a in rates] if extra or hi > base else q)
            if all(x.is_finite() for row in B for x in row):
                break
        else:
            raise ValueError(f"the comb's pole constants are not finite at {4 * hi} bits: raise prec")
        # q_table's constants: as computed when more bits were asked for, else rounded (the same as before)
        self.bits_hi = hi + extra if bits is not None and hi > base else base
        self.B_hi = B if self.bits_hi > base else None
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
        ...     c = CombPoles((1, 2, 3), (Q(2), Q(2), Q(2)))
        ...     t = c.q_table(50)
        ...     all(t[k].overlaps(c.p(k) * (c.lam * k).exp()) for k in (0, 7, 50))
        True
        """
        from flint import ctx

        if self.B_hi is not None and ctx.prec < self.bits_hi:   # the constants' own bits, rounded at the end
            with _precision(self.bits_hi):   # (and the drop threshold there: the least q_k is far below C_min)
                out = self.q_table(K, prec_bits=prec_bits)
            return [+v for v in out]
        bits = ctx.prec if prec_bits is None else int(prec_bits)
        B = self.B if self.B_hi is None else self.B_hi
        arb, n, cs = self.arb, len(self.w), self.cs
        floor_log = math.log(max(float(self.cmin.mid()), 1e-300)) - (bits + 8) * math.log(2)
        comps = []   # (K_c, c, r_c, tau_c)
        for c in range(n):
            if c == cs:
                continue
            gap = self.lr[c] - self.lam_q
            r = (-_ball(gap)).exp()
            bmax = _max(abs(x) for x in B[c]).upper()
            lb = math.log(max(float(bmax.mid()), 1e-300))
            Kc = max(0, math.ceil((lb - floor_log) / float(gap)))
            comps.append((Kc, c, r, bmax * (-_ball(gap * Kc)).exp()))
        comps.sort(key=lambda x: -x[0])
        live = [(c, r, [arb(1)]) for Kc, c, r, _ in comps]
        out, dropped = [], arb(0)
        C, wcs = B[cs], self.w[cs]
        cut = len(comps)
        for k in range(K + 1):
            while cut and comps[cut - 1][0] <= k:   # comps sorted by K_c descending: the last die first
                cut -= 1
                dropped += comps[cut][3]
            v = C[k % wcs] + 0
            for i in range(cut):
                c, r, P = live[i]
                v += B[c][k % self.w[c]] * P[0]
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


def pole_magnitudes(weights, rates):
    r"""float64 estimates :math:`(\log_2\max_{c,j}|H_{c,j}|,\ \log_2 \bar C)` to size the precision (not bounds).

    :math:`B_{c,r}` is a DFT of the values :math:`H_{c,j}` at the poles (``CombPoles._pole_constants``), which
    can be far larger than the constants they sum to (a pole of one component close to a zero of another's
    denominator); :math:`\bar C = H_{c^*,0}/w^*` is the mean of the tail profile, and the scaled pmf
    :math:`q_k = C_{k \bmod w^*} + \dots` cancels down from it near :math:`k = 0`.  All in logarithms:
    :math:`\ln|1 - x e^{i\phi}| = \max(\ln x, 0) + \tfrac12\ln(1 - 2y\cos\phi + y^2)`,
    :math:`y = e^{-|\ln x|}`; :math:`O(\sum_c w_c n/2)` float operations.

    >>> hmax, cbar = pole_magnitudes((1, 2, 3), (2.0, 2.0, 2.0))
    >>> bool(hmax >= cbar)                  # the mean of the DFT's inputs' real parts is at most their maximum
    True
    """
    import numpy as np

    w = [int(x) for x in weights]
    a = np.array([float(x) for x in rates])
    n = len(w)
    lr = a / np.array(w, dtype=float)
    cs = int(np.argmin(lr))
    lq = np.log1p(-np.exp(-a))                  # ln(1 - q_c)
    worst = -np.inf
    lh0 = None

    def lfac(lx, phi):                          # ln|1 - e^{lx} e^{i phi}|
        y = np.exp(-np.abs(lx))
        return np.maximum(lx, 0.0) + 0.5 * np.log(np.maximum(1 - 2 * y * np.cos(phi) + y * y, 1e-300))

    for c in range(n):
        wc = w[c]
        j = np.arange(wc // 2 + 1, dtype=float)[:, None]
        o = np.array([c2 for c2 in range(n) if c2 != c], dtype=int)
        w2 = np.array([w[c2] for c2 in o], dtype=float)[None, :]
        phi = 2 * np.pi * ((j * w2) % wc) / wc
        lnum = 2 * lq[c] - np.log1p(-np.exp(-2 * a[c])) + 2 * lq[o].sum()
        l1 = -a[o][None, :] + w2 * lr[c]
        l2 = -a[o][None, :] - w2 * lr[c]
        lh = lnum - (lfac(l1, phi) + lfac(l2, -phi)).sum(axis=1)
        worst = max(worst, float(lh.max()))
        if c == cs:
            lh0 = float(lh[0]) - math.log(wc)
    return worst / math.log(2), lh0 / math.log(2)


def cancellation_bits(weights, rates):
    r"""float64 estimate of the bits the partial fractions lose near :math:`k = 0`:
    :math:`\log_2(\max(|H|_{\max}, \bar C)/q_{\min})` (:func:`pole_magnitudes`), with :math:`q_{\min}` estimated by
    :math:`\min(1, (2\pi\,\mathrm{Var})^{-1/2})\,e^{-\max_c a_c}` (the centre's mass, and a near-empty residue
    next to it).  Not a bound: the radii are checked where the values are used.

    >>> b = cancellation_bits(range(1, 41), [6.0] * 40)
    >>> 8 < b < 40
    True
    """
    w = [int(x) for x in weights]
    a = [float(x) for x in rates]
    hmax, cbar = pole_magnitudes(w, a)
    var = sum(wc * wc * 2 * math.exp(-x) / (-math.expm1(-x)) ** 2 for wc, x in zip(w, a))
    # a variance that underflows (every rate beyond ~700) is below 1/(2 pi): that term is 0
    lg_qmin = (min(0.0, -0.5 * math.log(2 * math.pi * var)) if var > 0 else 0.0) - max(a)
    lg_qmin /= math.log(2)
    return max(hmax, cbar, 0.0) - lg_qmin
