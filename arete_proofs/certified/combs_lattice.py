r"""Certified tight epsilon of :math:`h\sum_c w_c\mathrm{DLap}(a_c) + \mathrm{Laplace}(b)` (Theorem 21's family) in ball arithmetic.

The argument is in :mod:`arete_proofs.certified.combs` (the section on Laplace smoothing):
lattice-point candidates (:mod:`arete_proofs.privacy.tight_lattice`), each loss a ball, the
cell sums with ball remainders, and the explicit tail ratio :math:`\rho(n_0)`.

>>> r = certify_lattice_laplace("5", 8, "0.0625", "0.125", 1, digits=10)    # Theorem 21 at eps = 6
>>> 5.32 < r.lower <= r.upper < 6                                            # private, with room
True
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

from .comb_balls import (CombCertificate, _ball, _comb_parts, _Comb, _default_theta, _digits, _down, _exact,
                         _inside, _int, _precision, _txt, _up, _ballstr)

__all__ = ["certify_lattice", "certify_lattice_laplace"]


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


