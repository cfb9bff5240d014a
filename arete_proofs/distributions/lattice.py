r"""Lattice laws: a comb on the lattice :math:`h\mathbb Z` smoothed by Laplace or Gaussian noise.

:math:`Z = h M + S` with :math:`M = \sum_c w_c \mathrm{DLap}(a_c)` (for the families,
:math:`M \sim \mathrm{MSDLap}(a, m)`; :mod:`arete_proofs.distributions.comb`) and

* ``lattice_laplace`` (a, m, b, h): :math:`S \sim \mathrm{Laplace}(b)` -- Theorem 21 of the
  follow-up paper (Harrison and Manurangsi 2025) with :math:`a = \varepsilon - 1`,
  :math:`m = \lceil e^{\varepsilon/3}\rceil`, :math:`h = \Delta/m`, :math:`b = \Delta/(2m)`;
* ``lattice_gauss`` (a, m, sigma, h): :math:`S \sim \mathcal N(0, \sigma^2)`.

The density is the mixture :math:`f(t) = \sum_k p_k\, g(t - hk)`.  Laplace: on each cell
:math:`hk \le t \le h(k+1)`,

.. math::

   f(t) = \frac{1}{2b}\Big[e^{-t/b} S^L_k + e^{t/b} S^R_k\Big],\qquad
   S^L_k = \sum_{j \le k} p_j e^{hj/b},\quad S^R_k = \sum_{j > k} p_j e^{-hj/b},

a positive combination of :math:`e^{\pm t/b}` (convex on the cell).  Gaussian:
:math:`g = \varphi_\sigma` summed over the lattice points within :math:`\sim 9\sigma` of
:math:`t` (more at more digits); the rest is bounded with :math:`p_k \le \min(1, C_{\max} e^{-\lambda|k|})`
(:func:`arete_proofs.distributions.comb.tail_error_bound`: :math:`p_k e^{\lambda k} \le C_{k \bmod w}`).
CDF: :meth:`LatticeLaw.sf`.  Tail: :math:`p_k \approx C_{k \bmod w} e^{-\lambda k}` gives the periodic limit law
:math:`f_\infty(t) = \sum_{k \in \mathbb Z} C_{k \bmod w} e^{-\lambda k} g(t - hk)`,
:math:`f_\infty(t + wh) = e^{-\lambda w} f_\infty(t)` (:class:`LatticeLaw` with ``limit=True``).

:math:`E|Z|` by the mixture: Laplace :math:`E|x + S| = |x| + b e^{-|x|/b}`; Gaussian
:math:`E|x + S| = x(1 - 2\Phi(-x/\sigma)) + 2\sigma\varphi(x/\sigma)`, summed with :math:`p_k`.
:math:`\operatorname{Var} Z = h^2 \operatorname{Var} M + \operatorname{Var} S`.

>>> from mpmath import mp
>>> z = LatticeLaw(["1.5"] * 3, [1, 2, 3], "1", kernel="laplace", scale="0.25", digits=20)
>>> mp.almosteq(z.pdf("0.3"), mp.fsum(z.p(k) * mp.exp(-abs(mp.mpf("0.3") - k) / mp.mpf("0.25")) / mp.mpf("0.5")
...             for k in range(-60, 61)), 1e-13)          # the cell formula = the direct mixture
True
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, positive, resolve_digits
from .._workload import MAX_KERNEL_TERMS, MAX_WINDOW_POINTS, check_work
from .comb import _check, comb_pmf, dominant, tail_constants, comb_var, msdlap_components

__all__ = ["LatticeLaw", "lattice_laplace", "lattice_gauss", "theorem21_parameters"]


def theorem21_parameters(eps, Delta=1):
    r"""Theorem 21's parameters: ``(a, m, b, h)`` = :math:`(\varepsilon - 1, \lceil e^{\varepsilon/3}\rceil, \Delta/(2m), \Delta/m)`.

    >>> theorem21_parameters(6)[:2]
    ('5', 8)
    """
    with mp.workdps(60):
        e = positive(eps, "eps")
        if e < 2:
            raise ValueError(f"eps must be >= 2 (Theorem 21's hypothesis), got {eps!r}")
        D = positive(Delta, "Delta")
        m = int(mp.ceil(mp.exp(e / 3)))
        a = str(eps - 1) if isinstance(eps, int) else mp.nstr(e - 1, 40, strip_zeros=True)
        h = mp.nstr(D / m, 40) if not isinstance(Delta, int) or Delta % m else str(Delta // m)
        b = mp.nstr(D / (2 * m), 40)
    return a, m, b, h


class LatticeLaw:
    r"""The law of :math:`h \sum_c w_c \mathrm{DLap}(a_c) + S` at ``digits`` (module docstring).

    ``kernel``: ``"laplace"`` (``scale`` = b) or ``"gauss"`` (``scale`` = sigma); ``limit=True``:
    the periodic tail law :math:`f_\infty` instead (not normalised).  pmf values are cached.
    ``source``: another symmetric integer law instead of the DLap comb (``rates``, ``weights`` are
    then ignored; the transformed GDL, :class:`arete_proofs.distributions.transformed_gdl.GDLSource`):
    an object with ``pmf(k, dps)``, ``table(K, dps)`` (``[p_0..p_K]``), ``sf(k, dps)`` (:math:`P(M > k)`),
    ``var(dps)``, ``bound(dps)`` = ``(C, lam)`` with :math:`p_k \le C e^{-\lambda|k|}` for every
    :math:`k`, ``rate`` (the exact decay rate of :math:`p_k` per lattice index) and
    ``limit_profile(dps)`` = ``(C_r list, period, rate)`` of the limit law.

    >>> z = LatticeLaw(["2"] * 2, [1, 2], "0.5", kernel="gauss", scale="0.2", digits=15)
    >>> abs(z.pdf(1) - z.pdf(-1)) < 1e-20          # symmetric
    True
    """

    def __init__(self, rates, weights, h, *, kernel, scale, digits=None, limit=False, source=None):
        self.src = source
        self.w, self.rt = _check(weights, rates) if source is None else (None, None)
        self.d = resolve_digits(digits)
        self.dps = self.d + GUARD_DIGITS + 5
        if kernel not in ("laplace", "gauss"):
            raise ValueError(f"kernel must be 'laplace' or 'gauss', got {kernel!r}")
        self.kernel, self.limit = kernel, limit
        with mp.workdps(self.dps + 20):
            self.h = positive(h, "h")
            self.s = positive(scale, "b" if kernel == "laplace" else "sigma")
        if source is None:
            self.C = tail_constants(self.w, self.rt, digits=self.dps)
            _, self.period, self.lam = dominant(self.w, self.rt, digits=self.dps)
            rate = self.lam
        elif limit:
            self.C, self.period, self.lam = source.limit_profile(self.dps)
            rate = self.lam
        else:  # p_k <= C e^{-lam |k|}: the bound the truncations use; the exact rate for the check
            c, self.lam = source.bound(self.dps)
            self.C, self.period, rate = [c], 1, source.rate
        with mp.workdps(self.dps):
            self.Cmax = max(self.C)
            if kernel == "laplace" and not (self.h / self.s > rate):
                raise ValueError("h/b must exceed the integer law's decay rate per lattice index (a comb: the least "
                                 "a_c/w_c; GDL: a): otherwise the Laplace tail dominates and the law is not a comb "
                                 "in its tail")
        self._p = {}
        self._cells = {}
        self._norm = {}  # k -> (A_k, B_k) = (S^L_k e^{-hk/b}, S^R_k e^{hk/b}) from fill_cells

    # -- the lattice pmf -------------------------------------------------------------------
    def p(self, k):
        """:math:`p_k` (or :math:`C_{k \\bmod w} e^{-\\lambda k}` for the limit law), cached."""
        k = int(k)
        v = self._p.get(k)
        if v is None:
            if self.limit:
                with mp.workdps(self.dps):
                    v = self.C[k % self.period] * mp.exp(-self.lam * k)
            elif self.src is not None:
                v = self.src.pmf(k, self.dps)
            else:
                v = comb_pmf(k, self.w, self.rt, digits=self.dps)
            self._p[k] = v
        return v

    def p_bound(self, k):
        r"""An upper bound of :math:`p_k`: :math:`\min(1, C_{\max} e^{-\lambda |k|})` (exact limit weight for ``limit``)."""
        if self.limit:
            return self.p(k)
        return min(mp.one, self.Cmax * mp.exp(-self.lam * abs(k)))

    def use_table(self, K):
        r"""Cache :math:`p_k`, :math:`|k| \le K`, from one power-series table
        (:func:`arete_proofs.distributions.comb_table.pmf_table`, :math:`O(K \log K)`) instead of point by point.

        >>> z = LatticeLaw(["2"] * 3, [1, 2, 3], "0.5", kernel="laplace", scale="0.2", digits=15)
        >>> p5 = z.p(5); z._p.clear(); z.use_table(10)
        >>> abs(z.p(5) / p5 - 1) < 1e-20
        True
        """
        if self.limit:
            return
        check_work("the lattice pmf's table", K, MAX_WINDOW_POINTS, "lattice points", seconds_each=1e-5,
                   grows_with="1/a (the integer law's slowest decay per lattice step) and the digits")
        if self.src is not None:
            tab = self.src.table(int(K), self.dps)
        else:
            from .comb_table import pmf_table

            tab = pmf_table(int(K), self.w, self.rt, digits=self.dps)
        for k, v in enumerate(tab):
            self._p[k] = self._p[-k] = v

    def margin(self):
        """Lattice points a directly summed Laplace cell reaches beyond its own (the geometric cut of :meth:`cell`)."""
        with mp.workdps(self.dps):
            return int(mp.ceil((self.dps + 5) * mp.log(10) / (self.h / self.s - self.lam))) + 5

    def fill_cells(self, k0, k1):
        r"""The Laplace cells :math:`k_0 \le k \le k_1` by recurrences (two direct cells, then :math:`O(1)` each).

        :math:`A_k = S^L_k e^{-hk/b} = A_{k-1} e^{-h/b} + p_k` and :math:`B_k = S^R_k e^{hk/b} = (B_{k+1} + p_{k+1}) e^{-h/b}`:
        both contract (factor :math:`e^{-h/b} < 1`), so rounding errors do not grow.

        >>> z = LatticeLaw(["2"] * 2, [1, 2], "0.5", kernel="laplace", scale="0.2", digits=15)
        >>> direct = z.cell(7); z._cells.clear(); z.fill_cells(0, 9)
        >>> all(abs(x / y - 1) < 1e-20 for x, y in zip(z.cell(7), direct))
        True
        """
        k0, k1 = int(k0), int(k1)
        if k1 <= k0 + 1:
            for k in range(k0, k1 + 1):
                self.cell(k)
            return
        from mpmath.libmp import mpf_add, mpf_div, mpf_mul

        with mp.workdps(self.dps):
            # the same operations, rounding (nearest) and precision as mpf arithmetic, on the raw values
            # (mpmath.libmp): the loop is most of the cost at a window of 10^5 points
            prec, rnd, new = mp.prec, "n", mp.make_mpf
            hb = self.h / self.s
            g = mp.exp(-hb)._mpf_
            SL0, _ = self.cell(k0)
            _, SR1 = self.cell(k1)
            n = k1 - k0 + 1
            ps = [self.p(k)._mpf_ for k in range(k0, k1 + 1)]
            A = [None] * n
            A[0] = (SL0 * mp.exp(-hb * k0))._mpf_
            for i in range(1, n):
                A[i] = mpf_add(mpf_mul(A[i - 1], g, prec, rnd), ps[i], prec, rnd)
            Bv = (SR1 * mp.exp(hb * k1))._mpf_
            E = mp.exp(hb * k1)._mpf_
            cells, norm = self._cells, self._norm
            for i in range(n - 1, -1, -1):
                k = k0 + i
                if k != k1:
                    Bv = mpf_mul(mpf_add(Bv, ps[i + 1], prec, rnd), g, prec, rnd)
                    E = mpf_mul(E, g, prec, rnd)
                a, bv = new(A[i]), new(Bv)
                if k not in cells:
                    cells[k] = (new(mpf_mul(A[i], E, prec, rnd)), new(mpf_div(Bv, E, prec, rnd)))
                norm[k] = (a, bv)
            self._eh = (mp.exp(-hb), mp.exp(hb))

    def pdf_at(self, k):
        r""":math:`f(hk) = (A_k + B_k)/(2b)` from the normalised cell of :meth:`fill_cells` (no exponential), else :meth:`pdf`.

        >>> z = LatticeLaw(["2"] * 2, [1, 2], "0.5", kernel="laplace", scale="0.2", digits=15)
        >>> z.fill_cells(0, 6)
        >>> abs(z.pdf_at(3) / z.pdf(z.h * 3) - 1) < 1e-20
        True
        """
        n = self._norm.get(k)
        if n is None:
            return self.pdf(self.h * k)
        with mp.workdps(self.dps):
            return (n[0] + n[1]) / (2 * self.s)

    # -- Laplace cells -------------------------------------------------------------------------
    def cell(self, k):
        r"""``(SL_k, SR_k)`` of the Laplace cell :math:`[hk, h(k+1)]` (module docstring), to the working precision."""
        got = self._cells.get(k)
        if got is not None:
            return got
        with mp.workdps(self.dps):
            hb = self.h / self.s
            tol = mp.mpf(10) ** (-self.dps)
            # SL: terms p_j e^{hj/b} for j <= k; every term left of j is at most Cmax e^{(h/b - lambda) j}
            # (p_j <= Cmax e^{-lambda |j|}, and exactly C e^{-lambda j} for the limit law), a geometric tail
            rl, rr = hb - self.lam, hb + self.lam
            SL, j = mp.zero, k
            while True:
                SL += self.p(j) * mp.exp(hb * j)
                j -= 1
                if j < k - 1 and self.Cmax * mp.exp(rl * j) / (1 - mp.exp(-rl)) <= tol * SL:
                    break
            # SR: terms p_j e^{-hj/b} for j > k; for j > 0 each is at most Cmax e^{-(h/b + lambda) j}
            SR, j = mp.zero, k + 1
            while True:
                SR += self.p(j) * mp.exp(-hb * j)
                j += 1
                if j > max(k + 2, 0) and self.Cmax * mp.exp(-rr * j) / (1 - mp.exp(-rr)) <= tol * SR:
                    break
        self._cells[k] = (SL, SR)
        return SL, SR

    # -- density -------------------------------------------------------------------------------
    def pdf(self, t):
        """:math:`f(t)` (or :math:`f_\\infty(t)`)."""
        with mp.workdps(self.dps):
            t = mp.mpf(t)
            if self.kernel == "laplace":
                k = int(mp.floor(t / self.h))
                SL, SR = self.cell(k)
                return (mp.exp(-t / self.s) * SL + mp.exp(t / self.s) * SR) / (2 * self.s)
            return self._gauss_pdf(t)

    def logpdf(self, t):
        with mp.workdps(self.dps):
            return mp.log(self.pdf(t))

    def gauss_terms(self) -> float:
        r"""Lattice terms one Gaussian density value sums (an estimate of :meth:`pdf`'s stopping rule, both
        directions): the kernel's reach :math:`\sigma(3 + \sqrt{2\,\mathrm{dps}\ln 10})` and the ratio rule's
        :math:`u > \sigma^2(\lambda + \ln 2)/h`, each in lattice steps :math:`h`.

        >>> LatticeLaw(["2"] * 2, [1, 2], "0.5", kernel="gauss", scale="0.3", digits=12).gauss_terms() < 40
        True
        """
        with mp.workdps(15):
            r = self.s / self.h
            reach = r * (3 + mp.sqrt(2 * self.dps * mp.log(10)))
            ratio = r * r * (self.lam + mp.log(2))
            return float(2 * max(reach, ratio) + 3)

    def _gauss_pdf(self, t):
        sg, h = self.s, self.h
        if not getattr(self, "_terms_checked", False):
            check_work("one density value of the lattice law", self.gauss_terms(), MAX_KERNEL_TERMS, "lattice terms",
                       seconds_each=1e-4, grows_with="sigma/h (the Gaussian part's width in lattice steps)")
            self._terms_checked = True
        k0 = int(mp.nint(t / h))
        tol = mp.mpf(10) ** (-self.dps)
        phi = lambda u: mp.exp(-(u / sg) ** 2 / 2) / (sg * mp.sqrt(2 * mp.pi))  # noqa: E731
        total = self.p(k0) * phi(t - h * k0)
        for direction in (1, -1):
            n = 1
            while True:
                k = k0 + direction * n
                total += self.p(k) * phi(t - h * k)
                n += 1
                # remaining terms: the weight bound grows at most by e^{lambda} per step (towards the origin,
                # or leftwards for the limit law) and phi(u + h)/phi(u) <= e^{-u h/sigma^2}: a geometric tail
                u = abs(t - h * (k0 + direction * n))
                nxt = self.p_bound(k0 + direction * n) * phi(u)
                ratio = mp.exp(self.lam - u * h / sg ** 2)
                if u > 3 * sg and ratio < 0.5 and nxt / (1 - ratio) <= tol * total:
                    break
        return total

    def mean_abs(self):
        r""":math:`E|Z| = \sum_k p_k E|hk + S|` (module docstring), summed until the terms are below the precision."""
        with mp.workdps(self.dps):
            b = self.s
            if self.kernel == "laplace":
                e = lambda x: abs(x) + b * mp.exp(-abs(x) / b)  # noqa: E731
            else:
                e = lambda x: x * mp.erf(x / (b * mp.sqrt(2))) + 2 * b * mp.npdf(x / b)  # noqa: E731
            # the pmf from one power-series table (use_table), doubled while the sum needs more points: point by
            # point the partial fractions cost O(m^3) pole constants (50 s at Theorem 21's m = 55)
            Kt = int(mp.ceil((self.dps + 5) * mp.log(10) / self.lam)) + 16
            self.use_table(Kt)
            total = self.p(0) * e(0)
            k = 1
            tol = mp.mpf(10) ** (-self.dps)
            while True:
                if k > Kt:
                    Kt *= 2
                    self.use_table(Kt)
                term = 2 * self.p(k) * e(self.h * k)
                total += term
                k += 1
                # p_k h k <= Cmax e^{-lambda k} (h k + b + ...): geometric bound on the rest
                rest = 2 * self.Cmax * mp.exp(-self.lam * k) * (self.h * k + 3 * b) / (1 - mp.exp(-self.lam)) ** 2
                if rest <= tol * total:
                    break
            return total

    def sf(self, t):
        r""":math:`P(Z > t)`: :math:`P(M > k) + \sum_j p_j [P(S > t - hj) - 1\{j > k\}]`, :math:`k = \lfloor t/h \rfloor`.

        Laplace: the bracket sums to :math:`\tfrac12 e^{-t/b} S^L_k - \tfrac12 e^{t/b} S^R_k`; Gaussian: summed
        over the lattice points near :math:`t` (Gaussian tails beyond).  Each term with :math:`j > k` is
        :math:`p_j P(S > t - hj) \ge p_j/2`: no cancellation.  :math:`t < 0` by symmetry.
        """
        from .comb import comb_sf

        with mp.workdps(self.dps):
            t = mp.mpf(t)
            if t < 0:
                return 1 - self.sf(-t)  # P(Z > t) = P(Z < -t) = 1 - P(Z >= -t), continuous law
            k = int(mp.floor(t / self.h))
            head = (self.src.sf(k, self.dps) if self.src is not None
                    else comb_sf(k, self.w, self.rt, digits=self.dps))
            if self.kernel == "laplace":
                SL, SR = self.cell(k)
                return head + (mp.exp(-t / self.s) * SL - mp.exp(t / self.s) * SR) / 2
            tol = mp.mpf(10) ** (-self.dps)
            corr = mp.zero
            for direction in (1, -1):
                n = 0 if direction < 0 else 1
                while True:
                    j = k + direction * n if direction > 0 else k - n
                    u = (t - self.h * j) / self.s
                    term = self.p(j) * (mp.ncdf(-u) - (1 if j > k else 0))
                    corr += term
                    n += 1
                    if abs(u) > 6 and abs(term) <= tol * head:
                        break
            return head + corr

    def var(self):
        r""":math:`h^2 \operatorname{Var} M + \operatorname{Var} S` (:math:`2b^2` or :math:`\sigma^2`)."""
        with mp.workdps(self.dps):
            vs = 2 * self.s ** 2 if self.kernel == "laplace" else self.s ** 2
            vm = self.src.var(self.dps) if self.src is not None else comb_var(self.w, self.rt, digits=self.dps)
            return self.h ** 2 * vm + vs


def _law(a, m, h, kernel, scale, digits):
    w, r = msdlap_components(a, m)
    return LatticeLaw(r, w, h, kernel=kernel, scale=scale, digits=digits)


def lattice_laplace(a, m, b, h, *, digits=None):
    r"""The law :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Laplace}(b)` (Theorem 21's family) as a :class:`LatticeLaw`.

    >>> from mpmath import mp
    >>> z = lattice_laplace("5", 8, "0.0625", "0.125", digits=20)     # Theorem 21 at eps = 6, Delta = 1
    >>> S2 = 8 * 9 * 17 / 6
    >>> mp.almosteq(z.var(), mp.mpf("0.125") ** 2 * (S2 / (mp.cosh(5) - 1) + mp.mpf(1) / 2), 1e-13)  # its Var
    True
    """
    return _law(a, m, h, "laplace", b, digits)


def lattice_gauss(a, m, sigma, h, *, digits=None):
    r"""The law :math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)` as a :class:`LatticeLaw`.

    >>> from mpmath import mp
    >>> z = lattice_gauss("2", 2, "0.3", "0.5", digits=15)
    >>> mp.almosteq(mp.quad(z.pdf, mp.linspace(-40, 40, 161)), 1, 1e-10)      # a density
    True
    """
    return _law(a, m, h, "gauss", sigma, digits)
