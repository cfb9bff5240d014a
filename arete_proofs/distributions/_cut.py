r"""Branch-cut representation of the Arete and Gamma-Gamma densities (0 < alpha < 1).

The characteristic function of :math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)` is
:math:`\varphi(u) = (1+\theta^2u^2)^{-\alpha}(1+\lambda^2u^2)^{-1}`.  For
:math:`t > 0` deform the Fourier inversion integral into the upper half plane:
it collapses onto the branch cut :math:`[i/\theta, i\infty)` of the first factor
(on which the two sides differ by :math:`e^{\mp i\pi\alpha}`) and picks up the
pole at :math:`i/\lambda`.  With :math:`\rho = \theta/\lambda`,
:math:`\tau = |t|/\theta` and :math:`\sigma = \theta s`:

.. math::

    f_A(t) = \frac{\sin\pi\alpha}{\pi\theta}
      \int_1^\infty (\sigma-1)^{-\alpha}(\sigma+1)^{-\alpha}
      \frac{\rho^2}{\rho^2-\sigma^2}\, e^{-\sigma\tau}\, d\sigma + C_P\, e^{-\rho\tau},

    C_P = \begin{cases}
      (1-\rho^2)^{-\alpha}/(2\lambda) & \rho < 1 \text{ (pole below the cut: residue)},\\
      \cos(\pi\alpha)\,(\rho^2-1)^{-\alpha}/(2\lambda) & \rho > 1 \text{ (pole on the cut:
      principal value plus half residues from both sides)}.
    \end{cases}

Integrating :math:`e^{-\sigma\tau}` over :math:`t` gives the survival function:
the same integral with an extra factor :math:`1/\sigma` and prefactor
:math:`\sin(\pi\alpha)/\pi`, plus :math:`\lambda C_P e^{-\rho\tau}`.  Without the
Laplace part (Gamma-Gamma) drop :math:`\rho^2/(\rho^2-\sigma^2)` and the pole.
(The same contour argument as for :math:`K_\nu`'s integral representation; it
needs :math:`\alpha < 1` for the cut integral to converge at :math:`\sigma = 1`.)

Why this route: the integrand is elementary, every factor except
:math:`e^{-\sigma\tau}` is independent of :math:`t` (so a batch of points
shares all nodes and weights), and small :math:`\alpha` is the *easy* case
(:math:`(\sigma-1)^{-\alpha}` is nearly 1, while the Gamma-Gamma density itself
has the hard :math:`|x|^{2\alpha-1}` singularity).

Numerics:

* the endpoint singularity :math:`(\sigma-1)^{-\alpha}` is integrated with
  exact offsets (:mod:`arete_proofs.distributions._tanhsinh`);
* the principal value at :math:`\sigma = \rho` is taken symmetrically,
  :math:`\mathrm{PV}\!\int_{\rho-c}^{\rho+c} \frac{h(\sigma)}{\rho-\sigma}d\sigma
  = \int_0^c \frac{h(\rho-v)-h(\rho+v)}{v}dv`, with :math:`c = (\rho-1)/2`;
* :math:`[1,\infty)` is split geometrically (factor 4) in :math:`\delta = \sigma - 1`
  from the scale of :math:`|\rho - 1|` up, and the last piece
  :math:`[S,\infty)` is mapped by :math:`\sigma = S/y`;
* :math:`e^{-\tau}` is factored out so deep tails cost nothing extra, and
  pieces whose whole contribution is below the tolerance are skipped per point;
* when :math:`\rho \approx 1` the principal value and the pole term are both
  large and cancel; the cancellation is measured and the precision raised.
"""

from __future__ import annotations

from functools import lru_cache

import gmpy2
from mpmath import mp

from ._tanhsinh import level_error, t_max
from .._validation import PrecisionError, check_deadline

__all__ = ["CutEngine"]

_MAX_LEVEL = 12

#: Most pieces a cut integral may have.  Their number grows like log_4(theta/lam) +
#: log_4(1/|theta/lam - 1|); beyond this the quadrature would take minutes (the paper's
#: parameters at eps = 1e6 need about 180 000), so it refuses instead of hanging.
_MAX_PIECES = 2500


# The inner loop sum_k W_k exp(-d_k tau) is the hot path of every batch: it runs
# in gmpy2's MPFR at the same binary precision (about 5x faster than mpf
# arithmetic), with the exponent range widened so that e^(-d tau) never
# underflows.  Results are converted back exactly.
def _gmpy_context(prec):
    return gmpy2.context(precision=prec, emax=gmpy2.get_emax_max(), emin=gmpy2.get_emin_min())


def _to_mpfr(x, prec):
    sign, man, exp, _bc = x._mpf_
    if not man:
        return gmpy2.mpfr(0)
    with _gmpy_context(prec):
        r = gmpy2.mul_2exp(gmpy2.mpfr(man), exp)
        return -r if sign else r


def _to_mpf(r):
    if not r:
        return mp.zero
    man, exp = r.as_mantissa_exp()
    return mp.mpf((int(man), int(exp)))


def _node_sums(nodes, neg_tau, prec):
    """(sum W e^{-d tau}, sum |W e^{-d tau}|) over ``nodes`` at ``prec`` bits, as mpf."""
    with _gmpy_context(prec):
        s = gmpy2.mpfr(0)
        sa = gmpy2.mpfr(0)
        if not neg_tau:
            for _d, W in nodes:
                s += W
                sa += abs(W)
        else:
            exp = gmpy2.exp
            for d, W in nodes:
                term = W * exp(d * neg_tau)
                s += term
                sa += abs(term)
    return _to_mpf(s), _to_mpf(sa)


def _checked(nodes, stop, prec):
    """Iterate over ``nodes``, checking the time budget every 64 nodes (node setup is the hot spot
    at high precision)."""
    for i, node in enumerate(nodes):
        if not i % 64:
            check_deadline(stop, f"branch-cut quadrature nodes at {prec} bits")
        yield node


#: MPFR (as built for gmpy2) flushes exponents beyond about 2^31 bits to 0 or inf; nodes with
#: e^(-pi sinh t) below e^(-_SAFE_EXP) (endpoint distances like 10^(-10^9)) stay in mpmath.
_SAFE_EXP = 4e7


@lru_cache(maxsize=512)
def _mpfr_nodes(level, prec, tmax):
    """:func:`~arete_proofs.distributions._tanhsinh.standard_nodes` as ``(safe, extreme)``: the
    nodes as gmpy2 MPFR at ``prec + 30`` bits, and those too close to the endpoint for MPFR's
    exponent range as mpmath ``mpf``."""
    safe, extreme = [], []
    with _gmpy_context(prec + 30):
        h = gmpy2.mul_2exp(gmpy2.mpfr(1), -level)
        pi = gmpy2.const_pi()
        k, step = (0, 1) if level == 1 else (1, 2)
        while True:
            t = k * h
            if t > tmax:
                break
            ps = pi * gmpy2.sinh(t)
            if ps < _SAFE_EXP:
                e = gmpy2.exp(-ps)
                safe.append((e / (1 + e), pi * gmpy2.cosh(t) * e / (1 + e) ** 2))
            else:
                with mp.workprec(prec + 30):
                    tt = mp.ldexp(k, -level)
                    e = mp.exp(-mp.pi * mp.sinh(tt))
                    extreme.append((e / (1 + e), mp.pi * mp.cosh(tt) * e / (1 + e) ** 2))
            k += step
    return tuple(safe), tuple(extreme)


class _Piece:
    """One interval of the cut integral with its nodes per level."""

    __slots__ = ("kind", "a", "b", "c", "S", "dmin", "levels", "abs_bound")

    def __init__(self, kind, **kw):
        self.kind = kind  # "seg": delta in [a, b]; "pv": v in [0, c]; "inf": sigma = S/y
        self.a = kw.get("a")
        self.b = kw.get("b")
        self.c = kw.get("c")
        self.S = kw.get("S")
        self.dmin = kw["dmin"]  # smallest delta = sigma - 1 in the piece
        self.levels = []  # levels[m-1] = list of (delta, W) new at level m, W without h
        self.abs_bound = None


class CutEngine:
    """Evaluate ``K * INT + C_P e^{-rho tau}`` for many ``tau`` at one parameter set.

    Must be constructed and used inside the same ``mp.workprec`` context.
    ``lam=None`` gives Gamma-Gamma; ``kind`` is ``"pdf"`` or ``"sf"``.
    """

    def __init__(self, alpha, theta, lam, kind):
        if not 0 < alpha < 1:
            raise ValueError("the branch-cut representation needs 0 < alpha < 1")
        self.alpha = alpha
        self.theta = theta
        self.lam = lam
        self.kind = kind
        self.prec = mp.prec
        # endpoint singularities: (sigma-1)^-alpha at sigma = 1; for the
        # Gamma-Gamma survival function the mapped tail behaves like y^(2 alpha - 1)
        beta = float(max(alpha, 1 - 2 * alpha)) if lam is None else float(alpha)
        self.tmax = t_max(self.prec, min(beta, 0.999999999))
        pi = mp.pi
        if kind == "pdf":
            self.K = mp.sin(pi * alpha) / (pi * theta)
        elif kind == "sf":
            self.K = mp.sin(pi * alpha) / pi
        else:
            raise ValueError(kind)
        if lam is None:
            self.rho = None
            self.g = None
            self.CP = mp.zero
            self.pole_shift = mp.zero
        else:
            rho = theta / lam
            if rho == 1:
                raise ValueError("rho == 1 has no cut representation (use Gamma-Gamma(alpha+1))")
            self.rho = rho
            self.g = rho - 1
            if rho < 1:
                cp = (1 - rho * rho) ** (-alpha) / (2 * lam)
            else:
                cp = mp.cos(pi * alpha) * (rho * rho - 1) ** (-alpha) / (2 * lam)
            self.CP = cp * lam if kind == "sf" else cp
            self.pole_shift = self.g  # e^{-rho tau} = e^{-tau} e^{-(rho-1) tau}
        self.pieces = self._make_pieces()

    # -- geometry -------------------------------------------------------
    def _make_pieces(self):
        if self.rho is not None:
            r = self.rho
            est = abs(mp.log(max(r, 1 / r), 4)) + abs(mp.log(abs(r - 1), 4)) if r != 1 else 0
            if est > _MAX_PIECES:
                raise PrecisionError(
                    f"theta/lam = {mp.nstr(r, 5)} is too extreme for the branch-cut quadrature (about "
                    f"{int(est)} pieces, limit {_MAX_PIECES}) and no analytic limit (Laplace, Gamma-Gamma, "
                    "pole or far tail) is accurate to the requested digits at this t")
        pieces = []
        four = mp.mpf(4)
        if self.rho is None:
            start = mp.zero
            nxt = mp.one
        elif self.rho > 1:
            g = self.g
            c = g / 2
            # [0, g/2] in delta, split geometrically if long
            lo = mp.zero
            hi = mp.one if c > 1 else c
            while True:
                pieces.append(_Piece("seg", a=lo, b=hi, dmin=lo))
                if hi >= c:
                    break
                lo, hi = hi, min(hi * four, c)
            pieces.append(_Piece("pv", c=c, dmin=g - c))
            start = g + c
            nxt = start * four
        else:
            gp = 1 - self.rho  # pole at delta = -gp
            start = mp.zero
            nxt = min(gp, mp.one)
        # geometric pieces up to S, then the mapped tail
        top = max(mp.mpf(16), 4 * (self.rho or 1) + 16)
        lo, hi = start, nxt
        while lo < top:
            pieces.append(_Piece("seg", a=lo, b=hi, dmin=lo))
            lo, hi = hi, hi * four
        pieces.append(_Piece("inf", S=1 + lo, dmin=lo))
        return pieces

    # -- integrand (gmpy2 MPFR at self.prec: node setup is the hot spot at high precision) --
    def _consts(self, mpfr):
        """(-alpha, rho, g) as mpfr at ``self.prec`` (exact: they are mpf at that precision) or mpf."""
        if not mpfr:
            return -self.alpha, self.rho, self.g
        if not hasattr(self, "_gc"):
            cv = lambda x: None if x is None else _to_mpfr(x, self.prec)  # noqa: E731
            self._gc = (cv(-self.alpha), cv(self.rho), cv(self.g))
        return self._gc

    def _W(self, delta, sigma, C):
        """t-independent part of the integrand at sigma = 1 + delta (delta exact)."""
        nalpha, rho, g = C
        w = (delta * (sigma + 1)) ** nalpha  # one power: (sigma-1)^-a (sigma+1)^-a
        if rho is not None:
            # rho^2 - sigma^2 = (g - delta)(rho + sigma), exact near the pole
            w = w * rho * rho / ((g - delta) * (rho + sigma))
        if self.kind == "sf":
            w = w / sigma
        return w

    def _h(self, delta, sigma, C):
        """For the principal value: integrand times (rho - sigma)."""
        nalpha, rho, _g = C
        w = (delta * (sigma + 1)) ** nalpha * rho * rho / (rho + sigma)
        if self.kind == "sf":
            w = w / sigma
        return w

    def _nodes_of(self, piece, nodes, C, cv, one):
        """(delta, W) at the standard ``nodes``; ``C`` constants, ``cv`` converts mpf, ``one`` = 1."""
        out = []
        if piece.kind == "seg":
            a, b = cv(piece.a), cv(piece.b)
            L = b - a
            for y, w in nodes:
                d = L * y
                da = a + d
                out.append((da, w * L * self._W(da, 1 + da, C)))
                if y * 2 != one:
                    db = b - d
                    out.append((db, w * L * self._W(db, 1 + db, C)))
        elif piece.kind == "pv":
            c, rho, g = cv(piece.c), C[1], C[2]
            for y, w in nodes:
                d = c * y
                vs = (d,) if y * 2 == one else (d, c - d)
                for v in vs:
                    wv = w * c / v
                    out.append((g - v, wv * self._h(g - v, rho - v, C)))
                    out.append((g + v, -wv * self._h(g + v, rho + v, C)))
        else:  # sigma = S / y on y in (0, 1]
            S = cv(piece.S)
            for y, w in nodes:
                ys = (y,) if y * 2 == one else (y, 1 - y)
                for yy in ys:
                    sigma = S / yy
                    delta = sigma - 1
                    out.append((delta, w * S / (yy * yy) * self._W(delta, sigma, C)))
        return out

    def _level_nodes(self, piece, level):
        """The (delta, W) nodes new at ``level`` as gmpy2 ``mpfr`` pairs at ``self.prec`` (cached).

        Computed in MPFR (node setup is the hot spot at high precision), except at the nodes
        beyond MPFR's exponent range, which are computed in mpmath and then converted."""
        prec = self.prec
        while len(piece.levels) < level:
            m = len(piece.levels) + 1
            safe, extreme = _mpfr_nodes(m, prec, self.tmax)
            stop = getattr(self, "_stop", None)
            with _gmpy_context(prec):
                out = self._nodes_of(piece, _checked(safe, stop, prec), self._consts(True),
                                     lambda x: _to_mpfr(x, prec), gmpy2.mpfr(1))
            if extreme:
                with mp.workprec(prec):
                    ext = self._nodes_of(piece, _checked(extreme, stop, prec), self._consts(False),
                                         lambda x: x, mp.one)
                out += [(_to_mpfr(d, prec), _to_mpfr(W, prec)) for d, W in ext]
            piece.levels.append(out)
        return piece.levels[level - 1]

    _gmpy_level_nodes = _level_nodes

    # -- evaluation -----------------------------------------------------
    def evaluate(self, taus, tol, deadline=None):
        r"""Return ``(values, abs_values, errors)`` of the bracket ``K*INT + C_P e^{-g tau}``.

        The densities are ``exp(-tau) * value``.  ``tol`` is relative.
        ``abs_values`` bounds the sum of absolute contributions (for the
        cancellation check); ``errors`` are the quadrature error estimates.
        """
        self._stop = deadline
        n = len(taus)
        P = len(self.pieces)
        K = self.K
        pole = [self.CP * mp.exp(-self.pole_shift * tau) for tau in taus]
        gtaus = [_to_mpfr(-tau, self.prec) for tau in taus]
        hist = [[[] for _ in range(n)] for _ in range(P)]
        absum = [[mp.zero] * n for _ in range(P)]
        active = [[True] * n for _ in range(P)]
        done = [[False] * n for _ in range(P)]
        err = [[mp.inf] * n for _ in range(P)]
        skipped_bound = [mp.zero] * n
        totals = list(pole)
        for level in range(1, _MAX_LEVEL + 1):
            h = mp.ldexp(1, -level)
            for p, piece in enumerate(self.pieces):
                todo = [j for j in range(n) if active[p][j] and not done[p][j]]
                if not todo:
                    continue
                check_deadline(deadline, f"branch-cut quadrature at {self.prec} bits (level {level})")
                nodes = self._gmpy_level_nodes(piece, level)
                for j in todo:
                    s, sa = _node_sums(nodes, gtaus[j], self.prec)
                    hj = hist[p][j]
                    prev = hj[-1] if hj else mp.zero
                    hj.append(prev / 2 + h * s)
                    absum[p][j] = absum[p][j] / 2 + h * sa
            # totals and error budget
            allok = True
            for j in range(n):
                tot = pole[j] + K * mp.fsum(hist[p][j][-1] for p in range(P) if hist[p][j])
                totals[j] = tot
                budget = tol * abs(tot)
                if level == 1:
                    # skip pieces whose entire contribution is negligible for this point
                    for p, piece in enumerate(self.pieces):
                        if p == 0:
                            continue
                        bound = 4 * abs(K) * absum[p][j]
                        if bound < budget * mp.mpf(10) ** -3 / P:
                            active[p][j] = False
                            skipped_bound[j] += bound
                    continue
                esum = skipped_bound[j]
                for p in range(P):
                    if not active[p][j]:
                        continue
                    if not done[p][j]:
                        err[p][j] = abs(K) * level_error(hist[p][j], absum[p][j])
                        if err[p][j] <= budget / P:
                            done[p][j] = True
                    esum += err[p][j]
                if esum > budget or not all(done[p][j] or not active[p][j] for p in range(P)):
                    allok = False
            if level > 1 and allok:
                abs_totals = [
                    abs(pole[j]) + abs(K) * mp.fsum(absum[p][j] for p in range(P) if active[p][j])
                    for j in range(n)
                ]
                errors = [
                    skipped_bound[j] + mp.fsum(err[p][j] for p in range(P) if active[p][j])
                    for j in range(n)
                ]
                return totals, abs_totals, errors
        raise PrecisionError(
            "branch-cut quadrature did not converge within "
            f"{_MAX_LEVEL} levels at {self.prec} bits"
        )


def cut_values(ts, alpha, theta, lam, kind, digits):
    r"""pdf or sf at the points ``|t|`` (``t`` finite, nonzero for Gamma-Gamma pdf).

    Works at ``digits + GUARD_DIGITS`` plus the digits lost to the exponent
    scale :math:`\tau` and to cancellation (measured as the ratio of the
    absolute sum of contributions to the result); when the cancellation is
    larger than the guard digits allow, the computation is repeated at higher
    precision.  Returns a list of ``mpf`` whose relative error is below
    ``10**-(digits+2)`` according to the error estimates.
    """
    from .._validation import GUARD_DIGITS, deadline, exponent_digits, parse_precision

    with mp.workdps(parse_precision(digits)):  # never at the caller's precision
        taus_hi = [abs(t) / theta for t in ts]
    extra = exponent_digits(*taus_hi, *(tau * theta / lam for tau in taus_hi)) if lam is not None else exponent_digits(*taus_hi)
    stop = deadline()
    wd = digits + GUARD_DIGITS + extra
    tol_digits = digits + 3
    for _attempt in range(4):
        with mp.workdps(wd):
            eng = CutEngine(+alpha, +theta, None if lam is None else +lam, kind)
            taus = [+tau for tau in taus_hi]
            vals, absv, _errs = eng.evaluate(taus, mp.mpf(10) ** (-tol_digits), stop)
            worst = 0
            for v, a in zip(vals, absv):
                if v <= 0:
                    worst = max(worst, wd)  # sign not resolved: cancellation beyond wd
                else:
                    worst = max(worst, int(mp.ceil(mp.log10(a / v))))
            if worst + tol_digits + 2 <= wd:
                return [mp.exp(-tau) * v for tau, v in zip(taus, vals)]
            wd = worst + tol_digits + 5
    raise PrecisionError(
        f"cancellation in the branch-cut integral too large for {digits} digits "
        f"(alpha={mp.nstr(alpha, 8)}, theta={mp.nstr(theta, 8)}, lam={mp.nstr(lam, 8) if lam is not None else None})"
    )
