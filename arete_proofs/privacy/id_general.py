r"""The centre constant of general (not necessarily symmetric) infinitely divisible laws, from both sides.

.. math::

    c_{ID}^* = \inf\{E|X - \operatorname{med} X|\cdot\operatorname{ess\,sup} f_X : X \text{ ID}\},

the constant of Theorem C of :mod:`~arete_proofs.privacy.id_bounds` (which proves :math:`c_{ID}^* \ge 0.2686`, Corollary D).
For symmetric ID laws it is :math:`1/\pi` (Lemma F1 of :mod:`~arete_proofs.privacy.id_mean_abs`); every law has at least
:math:`1/4` (the uniform law).  This module proves

**Proposition G1 (upper bounds: certified laws).**  For the law :math:`X = G + d\,N` with :math:`G \sim N(0, 1)` and
:math:`N` compound Poisson on :math:`\{1, 2, \dots\}` (jump :math:`j` at rate :math:`\nu_j`), independent, which is ID,
:func:`certify_law` encloses :math:`E|X - m|` (any centre :math:`m`; :math:`E|X - \operatorname{med}X| \le E|X - m|`) and
:math:`\sup f_X` in ``arb``, so :math:`c_{ID}^* \le E|X - m|\sup f_X`.  The pmf of :math:`N` is Panjer's recursion
:math:`p_0 = e^{-\sum\nu_j}`, :math:`p_n = \frac1n\sum_j j\nu_j p_{n-j}` (exact in balls); the terms past :math:`n_{max}`
are bounded by their mass :math:`1 - \sum_{n \le n_{max}} p_n` and their first moment
:math:`\sum_j j\nu_j - \sum_{n \le n_{max}} np_n`:

.. math::

    E|X - m| \le \sum_{n \le n_{max}} p_n\,E|G + nd - m| + |d|\Big(\sum_j j\nu_j - \sum_{n\le n_{max}} np_n\Big)
    + \Big(|m| + \sqrt{2/\pi}\Big)\Big(1 - \sum_{n\le n_{max}} p_n\Big),

with :math:`E|G + u| = u(2\Phi(u) - 1) + 2\varphi(u)`, and :math:`f_X(x) = \sum_n p_n\varphi(x - nd)` is bounded on a
cell :math:`[x_1, x_2]` by :math:`\sum_{n \le n_{max}} p_n\varphi(\operatorname{dist}(nd, [x_1, x_2])) + (1 - \sum p_n)\varphi(0)`
(branch and bound over the cells).  :data:`BEST_LAW` is the least value a float64 search found.

**Proposition G2 (a lower bound).**  Scale :math:`X` so that :math:`f_X \le \frac12` and centre it anywhere; let
:math:`\rho = |\varphi_X(\pi)|`, :math:`\theta = \arg\varphi_X(\pi)`.  Then

1. :math:`0 < \rho \le 2/\pi` (an ID characteristic function has no zeros; :math:`\operatorname{Re}(e^{-i\theta}\varphi(\pi))
   = \int\cos(\pi x - \theta)f \le \frac12\int_S\cos(\pi x - \theta)` over the set :math:`S` of measure 2 where the cosine
   is largest, which is :math:`2/\pi`), and reflecting :math:`X` takes :math:`\theta` to :math:`-\theta`, so
   :math:`\theta \in [0, \pi]` may be assumed;
2. :math:`|\varphi(\pi/k)| \le \rho^{1/k^2}` for :math:`k \ge 2` (Theorem C, step 4: :math:`1 - \cos k u \le k^2(1 - \cos u)`);
3. for every :math:`\ell`, :math:`\alpha, \beta_k \ge 0` and real :math:`\gamma, \chi_k`, with
   :math:`\Lambda(x) = |x| - \alpha\cos(\pi x - \theta) - \gamma\sin(\pi x - \theta) + \sum_k\beta_k\cos(\pi x/k - \chi_k)`,

   .. math::

       E|X| = \int\Lambda f + \alpha\rho + \gamma\cdot 0 - \sum_k\beta_k\operatorname{Re}(e^{-i\chi_k}\varphi(\pi/k))
       \ \ge\ \ell + \tfrac12\int\min(\Lambda - \ell, 0)\,dx + \alpha\rho - \sum_k\beta_k\rho^{1/k^2},

   since :math:`\int\Lambda f = \ell + \int(\Lambda - \ell)f \ge \ell + \frac12\int\min(\Lambda - \ell, 0)` for
   :math:`0 \le f \le \frac12`, :math:`\int f = 1`.

So a cover of :math:`(\rho, \theta) \in [0, 2/\pi]\times[0, \pi]` by cells, each with multipliers whose bound (evaluated
with :math:`\rho` and :math:`\theta` as balls over the cell) is at least :math:`L`, proves :math:`E|X - m| \ge L` for every
ID law with density at most :math:`\frac12`, i.e. :math:`c_{ID}^* \ge L/2`.  The multipliers come from a linear program
(the law discretised on a grid, :math:`|\varphi(\pi/k)| \le \rho^{1/k^2}` as half-planes, ``scipy.optimize.linprog``), and
decide only how good the bound is; the integral :math:`\int\min(\Lambda - \ell, 0)` is certified by adaptive cells in
``arb`` (a cell where :math:`\Lambda - \ell` is certainly negative contributes the exact integral of its antiderivative,
a certainly positive one nothing, and the thin cells around the roots their width times their least value).
:func:`lower_bound_certificate` builds the cover; :func:`check_lower_bound` re-proves a stored one from its multipliers
alone.

>>> c = check_lower_bound(LOWER_CERTIFICATE)
>>> c["holds"] and c["c_id_lower"] > 0.2686
True
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

from .id_bounds import _flint
from .id_variance import _arb, _positive

__all__ = ["BEST_LAW", "law_pmf", "mixture_upper", "certify_law", "search_law", "LOWER_KS", "lower_bound_certificate",
           "check_lower_bound", "LOWER_CERTIFICATE", "dual_bound", "variance_constant"]

_PREC = 128
_FLAT = 1e-7

#: The least law found by a float64 Nelder-Mead search over one-sided lattice jumps j = 1..8 with sigma = 1, as the jump
#: rates nu_j and the step d.  One jump size gives 0.3153, two 0.3141, four 0.3136 (see :func:`search_law`).
BEST_LAW = {"nus": {1: "0.000705", 2: "0.953424", 3: "0.000581", 4: "0.507573", 5: "0.002139", 6: "0.322644",
                    7: "0.000888", 8: "0.281069"}, "d": "0.865652"}

#: The k of the constraints on the modulus of phi(pi/k), at most rho^(1/k^2), that the lower bound uses.
LOWER_KS = (2, 3, 4, 5)

#: the shipped certificate of Proposition G2 (multipliers per cell; a path relative to the checkout), re-proved by
#: :func:`check_lower_bound`
LOWER_CERTIFICATE = "docs/data/c-id-lower.json"

_ROOT = Path(__file__).resolve().parents[2]


def _certificate_path(path):
    p = Path(path)
    return p if p.is_absolute() or p.exists() else _ROOT / p


# ---------------------------------------------------------------------------
# Proposition G1: certified laws
# ---------------------------------------------------------------------------

def _nus(nus):
    out = {}
    for j, v in dict(nus).items():
        jj = int(j)
        if jj < 1 or jj != float(j):
            raise ValueError(f"nus: jump sizes must be positive integers, got {j!r}")
        out[jj] = _positive(v, "nus")
    if not out:
        raise ValueError("nus must name at least one jump size")
    return out


def law_pmf(nus, n_max):
    r"""Balls :math:`p_0, \dots, p_{n_{max}}` of the compound Poisson law on :math:`\{0, 1, \dots\}` (Panjer's recursion).

    >>> p = law_pmf({1: 2}, 3)           # Poisson(2)
    >>> [round(float(x.mid()), 10) for x in p] == [round(math.exp(-2) * 2 ** n / math.factorial(n), 10) for n in range(4)]
    True
    """
    nus = _nus(nus)
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        rates = {j: _arb(v) for j, v in nus.items()}
        p = [(-sum(rates.values())).exp()]
        for n in range(1, int(n_max) + 1):
            p.append(sum((j * r * p[n - j] for j, r in rates.items() if j <= n), flint.arb(0)) / n)
        return p


def mixture_upper(p, mu, tail, a1, a2):
    r"""A ball whose upper end bounds :math:`\sum_n p_n\varphi(x - \mu_n) + \tau\varphi(0)` on :math:`[a_1, a_2]`
    (balls): the smaller of the componentwise bound :math:`\sum_n p_n\varphi(\operatorname{dist}(\mu_n, [a_1, a_2]))`
    and the second-order one :math:`f(x_m) + |f'(x_m)|w/2 + \varphi(0)w^2/8` (:math:`|\varphi''| \le \varphi(0)`),
    which is sharp on a flat top.

    >>> import flint
    >>> b = mixture_upper([flint.arb(1)], [flint.arb(0)], flint.arb(0), flint.arb(-0.001), flint.arb(0.001))
    >>> 0 < float(b.upper()) - 1 / math.sqrt(2 * math.pi) < 1e-6
    True
    """
    flint = _flint()
    zero = flint.arb(0)
    phi0 = 1 / (2 * flint.arb.pi()).sqrt()
    xm, w = (a1 + a2) / 2, a2 - a1
    comp, f, df = tail * phi0, tail * phi0, zero
    for x, c in zip(p, mu):
        dist = (a1 - c).max(c - a2).max(zero)
        comp += x * _npdf(dist)
        z = xm - c
        v = x * _npdf(z)
        f += v
        df -= z * v
    second = f + df.abs_upper() * w / 2 + (1 - tail + tail) * phi0 * w * w / 8
    return comp.min(second)


def _ncdf(x):
    return (-x / _flint().arb(2).sqrt()).erfc() / 2


def _npdf(x):
    flint = _flint()
    return (-x * x / 2).exp() / (2 * flint.arb.pi()).sqrt()


def certify_law(nus=None, d=None, *, m=None, n_max=None, rel=Fraction(1, 10 ** 7)):
    r"""Proposition G1: a certified upper bound of :math:`c_{ID}^*` from the law :math:`G + dN` (:math:`\sigma = 1`).

    ``nus`` maps jump sizes :math:`j \ge 1` to rates, ``d`` is the lattice step (default :data:`BEST_LAW`); ``m`` the
    centre (default: the float64 median).  Returns ``{"c_upper", "mean_abs_upper", "sup_upper", "m", "cells"}``, floats
    rounded up.

    >>> r = certify_law()
    >>> 0.3133 < r["c_upper"] < 0.3135 < 1 / math.pi
    True
    """
    import numpy as np
    from scipy.optimize import brentq
    from scipy.special import ndtr

    if nus is None:
        nus, d = BEST_LAW["nus"], BEST_LAW["d"]
    nus = _nus(nus)
    dd = _positive(d, "d")
    lam = float(sum(nus.values()))
    if n_max is None:
        n_max = int(lam * max(nus) + 12 * math.sqrt(lam * max(nus) ** 2 + 1) + 40)
    p = law_pmf(nus, n_max)
    flint = _flint()
    pf = np.array([float(x.mid()) for x in p])
    pos = np.arange(len(pf)) * float(dd)
    if m is None:
        m = Fraction(brentq(lambda x: float(np.sum(pf * ndtr(x - pos))) - 0.5, -10, float(pos[-1]) + 10, xtol=1e-13))
    m = Fraction(m)
    with flint.ctx.extraprec(_PREC):
        da, ma = _arb(dd), _arb(m)
        mass = sum(p, flint.arb(0))
        first = sum((n * x for n, x in enumerate(p)), flint.arb(0))
        mean_n = sum((j * _arb(v) for j, v in nus.items()), flint.arb(0))
        tail, tail1 = 1 - mass, mean_n - first
        ea = flint.arb(0)
        for n, x in enumerate(p):
            u = n * da - ma
            ea += x * (u * (2 * _ncdf(u) - 1) + 2 * _npdf(u))
        ea += da * tail1 + (ma.abs_upper() + (2 / flint.arb.pi()).sqrt()) * tail
        # sup f: branch and bound over x (f is at most its cell bound; outside [-9, n_max d + 9] it is tiny)
        fx = lambda x: float(np.sum(pf * np.exp(-(x - pos) ** 2 / 2)) / math.sqrt(2 * math.pi))   # noqa: E731
        from scipy.optimize import minimize_scalar

        grid = np.linspace(-6, float(pos[min(len(pos) - 1, 40)]) + 6, 4001)
        vals = [fx(x) for x in grid]
        peak = max(vals)
        # a flat top can have several local maxima within rounding of each other: refine every one near the top
        for i in range(1, len(grid) - 1):
            if vals[i] >= vals[i - 1] and vals[i] >= vals[i + 1] and vals[i] > peak * (1 - 1e-3):
                ref = minimize_scalar(lambda x: -fx(x), bounds=(grid[i - 1], grid[i + 1]), method="bounded",
                                      options=dict(xatol=1e-12))
                peak = max(peak, -float(ref.fun))
        target = _arb(Fraction(peak) * (1 + _positive(rel, "rel")))
        pos_a = [n * da for n in range(len(p))]
        phi0 = 1 / (2 * flint.arb.pi()).sqrt()
        lo, hi = Fraction(-9), Fraction(n_max) * dd + 9
        stack, cells = [(lo, hi)], 0
        while stack:
            x1, x2 = stack.pop()
            cells += 1
            if cells > 100000:
                raise ValueError("certify_law: the peak could not be bounded (increase rel)")
            bound = mixture_upper(p, pos_a, tail, _arb(x1), _arb(x2))
            if bound.upper() <= target.lower():
                continue
            mid = (x1 + x2) / 2
            stack += [(x1, mid), (mid, x2)]
        # outside [lo, hi]: every centre is at distance >= 9, so f <= phi(9) + tail phi(0) < the peak
        outside = _npdf(flint.arb(9)) + tail * phi0
        if not outside.upper() <= target.lower():
            raise ValueError("certify_law: the tails are not below the peak")
        c = ea * target
        return {"c_upper": math.nextafter(float(c.upper()), 1.0), "mean_abs_upper": float(ea.upper()),
                "sup_upper": float(target.upper()), "m": float(m), "cells": cells}


def search_law(J=2, *, starts=4, seed=0):
    r"""Float64 Nelder-Mead over one-sided lattice laws :math:`G + dN` with jump sizes :math:`1..J` (evidence only: the
    values it returns are not certified; :func:`certify_law` certifies a law).  Returns ``(value, nus, d)``.

    >>> v, nus, d = search_law(1, starts=1)
    >>> 0.3152 < v < 0.3154                       # one jump size: the Gaussian + Poisson law
    True
    """
    import numpy as np
    from scipy.optimize import minimize

    rng = np.random.default_rng(seed)
    base = [math.log(0.908), math.log(0.553)] + [math.log(0.1)] * max(J - 2, 0)
    base = base[:J] + [math.log(1.887 if J > 1 else 2.085)]
    if J == 1:
        base[0] = math.log(0.971)

    def unpack(x):
        return {j + 1: math.exp(min(x[j], 3.0)) for j in range(J)}, math.exp(x[-1])

    best = (math.inf, None)
    for s in range(starts):
        x0 = np.array(base) + (rng.normal(0, 0.5, J + 1) if s else 0)
        res = minimize(lambda x: _float_c(*unpack(x)), x0, method="Nelder-Mead",
                       options=dict(maxiter=3000, xatol=1e-9, fatol=1e-12))
        if res.fun < best[0]:
            best = (float(res.fun), res.x)
    nus, d = unpack(best[1])
    return best[0], nus, d


def _float_c(nus, d):
    """E|X - med| sup f in float64 for G + d N (the search's objective)."""
    import numpy as np
    from scipy.optimize import brentq
    from scipy.special import ndtr

    lam = sum(nus.values())
    n = int(lam * max(nus) + 12 * math.sqrt(lam * max(nus) ** 2 + 1) + 40)
    p = np.zeros(n + 1)
    p[0] = math.exp(-lam)
    for k in range(1, n + 1):
        p[k] = sum(j * v * p[k - j] for j, v in nus.items() if j <= k) / k
    pos = np.arange(n + 1) * d
    try:
        med = brentq(lambda x: float(np.sum(p * ndtr(x - pos))) - 0.5, -10, pos[-1] + 10, xtol=1e-12)
    except ValueError:
        return 1.0
    u = pos - med
    ea = float(np.sum(p * (u * (2 * ndtr(u) - 1) + 2 * np.exp(-u * u / 2) / math.sqrt(2 * math.pi))))
    xs = np.linspace(-5, min(pos[-1], 40 * d) + 5, 3001)
    f = (p[None, :] * np.exp(-(xs[:, None] - pos[None, :]) ** 2 / 2)).sum(axis=1) / math.sqrt(2 * math.pi)
    i = int(np.argmax(f))
    a, b = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
    g = (math.sqrt(5) - 1) / 2
    fx = lambda x: float(np.sum(p * np.exp(-(x - pos) ** 2 / 2)) / math.sqrt(2 * math.pi))   # noqa: E731
    for _ in range(50):
        c1, c2 = b - g * (b - a), a + g * (b - a)
        a, b = (a, c2) if fx(c1) >= fx(c2) else (c1, b)
    return ea * fx((a + b) / 2)


def variance_constant(nus, d, *, sigma=1.0):
    r""":math:`\operatorname{Var} X\cdot\sup f_X^2` of :math:`X = N(0, \sigma^2) + dN` in float64 (evidence for the open
    question whether every ID law has at least the Gaussian's :math:`1/(2\pi)`; not certified).

    >>> abs(variance_constant({1: 1e-12}, 1.0) - 1 / (2 * math.pi)) < 1e-9
    True
    """
    import numpy as np

    nus = {int(j): float(v) for j, v in nus.items()}
    lam = sum(nus.values())
    n = int(lam * max(nus) + 12 * math.sqrt(lam * max(nus) ** 2 + 1) + 40)
    p = np.zeros(n + 1)
    p[0] = math.exp(-lam)
    for k in range(1, n + 1):
        p[k] = sum(j * v * p[k - j] for j, v in nus.items() if j <= k) / k
    pos = np.arange(n + 1) * float(d)
    var = sigma ** 2 + float(d) ** 2 * sum(j * j * v for j, v in nus.items())
    xs = np.linspace(-6 * sigma, min(pos[-1], 60 * float(d)) + 6 * sigma, 20001)
    f = (p[None, :] * np.exp(-(xs[:, None] - pos[None, :]) ** 2 / (2 * sigma ** 2))).sum(axis=1)
    return var * (float(f.max()) / (math.sqrt(2 * math.pi) * sigma)) ** 2


# ---------------------------------------------------------------------------
# Proposition G2: the lower bound
# ---------------------------------------------------------------------------

#: the largest |phi(pi)| of a law with density at most 1/2 (Proposition G2, 1)
RHO_MAX = "2/pi"


def _lam_ball(x, duals, theta):
    """Lambda(x) - ell as a ball (x, theta balls)."""
    flint = _flint()
    pi = flint.arb.pi()
    v = abs(x) - duals["ell"] - duals["alpha"] * (pi * x - theta).cos() - duals["gamma"] * (pi * x - theta).sin()
    for k, (b, chi) in duals["betas"].items():
        v += b * (pi * x / k - chi).cos()
    return v


def _lam_cell(a1, a2, duals, theta):
    """Lambda - ell on the cell [a1, a2] (one sign of x): the naive ball intersected with the mean-value form
    Lambda(x_m) - ell + Lambda'([a1, a2]) [-w/2, w/2], which is sharp where Lambda is flat (the naive ball adds every
    term's own variation)."""
    flint = _flint()
    pi = flint.arb.pi()
    xm, w = (a1 + a2) / 2, a2 - a1
    xb = flint.arb(xm, w / 2)
    naive = _lam_ball(xb, duals, theta)
    s = 1 if a1.lower() >= 0 else -1
    der = s + duals["alpha"] * pi * (pi * xb - theta).sin() - duals["gamma"] * pi * (pi * xb - theta).cos()
    for k, (b, chi) in duals["betas"].items():
        der -= b * pi / k * (pi * xb / k - chi).sin()
    mv = _lam_ball(xm, duals, theta) + der * flint.arb(0, w / 2)
    return naive.intersection(mv)


def _cell_integral(a1, a2, duals, theta):
    """The exact integral of Lambda - ell over [a1, a2] (a1 and a2 of one sign), each trigonometric term in product
    form so that theta's interval enters once: int cos(pi x - t) = (2/pi) cos(pi c - t) sin(pi w/2), c the centre,
    w the width."""
    flint = _flint()
    pi = flint.arb.pi()
    c, w = (a1 + a2) / 2, a2 - a1
    s = 1 if a1.lower() >= 0 else -1
    v = s * (a2 * a2 - a1 * a1) / 2 - duals["ell"] * w
    h = 2 / pi * (pi * w / 2).sin()
    v -= h * (duals["alpha"] * (pi * c - theta).cos() + duals["gamma"] * (pi * c - theta).sin())
    for k, (b, chi) in duals["betas"].items():
        v += b * 2 * k / pi * (pi * w / (2 * k)).sin() * (pi * c / k - chi).cos()
    return v


def _neg_integral(duals, theta, *, tol=Fraction(1, 2 ** 22), max_cells=20000):
    """A certified lower bound (ball) of int min(Lambda - ell, 0) dx over the line."""
    flint = _flint()
    R = duals["ell"] + duals["alpha"] + abs(duals["gamma"]) + sum((b for b, _ in duals["betas"].values()), flint.arb(0))
    Rf = Fraction(math.ceil(float(R.upper())) + 1)
    total = flint.arb(0)
    stack = [(-Rf, Fraction(0)), (Fraction(0), Rf)]
    cells = 0
    while stack:
        x1, x2 = stack.pop()
        cells += 1
        if cells > max_cells:      # not resolved: no bound from these multipliers (the caller splits the cell)
            return None, cells
        a1, a2 = _arb(x1), _arb(x2)
        v = _lam_cell(a1, a2, duals, theta)
        if v.lower() >= 0:
            continue
        if v.upper() <= 0:
            total += _cell_integral(a1, a2, duals, theta)
            continue
        # thin enough, nearly flat (Lambda - ell >= -1e-7 on the cell: at most 1e-7 per unit length is lost), or the
        # ball is as wide at the midpoint alone (theta's interval dominates): take the cell's floor
        if x2 - x1 <= tol or v.lower() >= -_FLAT or _lam_ball((a1 + a2) / 2, duals, theta).rad() >= v.rad() / 4:
            total += (a2 - a1) * v.lower().min(flint.arb(0))
            continue
        mid = (x1 + x2) / 2
        stack += [(x1, mid), (mid, x2)]
    return total, cells


def dual_bound(duals, rho, theta):
    r"""Proposition G2, 3: the lower end (float) of :math:`\ell + \frac12\int\min(\Lambda - \ell, 0) + \alpha\rho -
    \sum_k\beta_k\rho^{1/k^2}` with :math:`\rho` and :math:`\theta` as intervals ``(lo, hi)`` of exact numbers.

    ``duals``: ``{"ell", "alpha", "gamma", "betas": {k: (beta_k, chi_k)}}`` (exact numbers or decimal strings).  With
    :math:`\alpha = \gamma = \beta_k = 0` it is the bathtub bound :math:`E|X| \ge \ell + \frac12\int\min(|x| - \ell, 0)`,
    whose best :math:`\ell = 1` gives :math:`1/2` (the uniform law on :math:`[-1, 1]`):

    >>> round(dual_bound({"ell": 1, "alpha": 0, "gamma": 0, "betas": {}}, (0, 0), (0, 0)), 6)
    0.5
    """
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        d = _duals(duals)
        r1, r2 = (_arb(Fraction(x)) for x in rho)
        t1, t2 = (_arb(Fraction(x)) for x in theta)
        th = flint.arb((t1 + t2) / 2, (t2 - t1) / 2)
        integ, _ = _neg_integral(d, th)
        if integ is None:
            return -math.inf
        return float((d["ell"] + integ / 2 + _rho_part(d, r1, r2)).lower())


def _rho_part(d, r1, r2):
    """A lower bound of h(rho) = alpha rho - sum_k beta_k rho^(1/k^2) on [r1, r2]: h is convex, so it lies above its
    tangent at the centre (and above alpha r1 - sum beta_k r2^(1/k^2), the bound without the cancellation)."""
    flint = _flint()

    def h(r):
        v = d["alpha"] * r
        for k, (b, _chi) in d["betas"].items():
            v -= b * (r.log() / (k * k)).exp() if r > 0 else flint.arb(0)
        return v

    crude = d["alpha"] * r1 - sum(((b * (r2.log() / (k * k)).exp()) if r2 > 0 else flint.arb(0)
                                   for k, (b, _c) in d["betas"].items()), flint.arb(0))
    rc = (r1 + r2) / 2
    if not rc > 0:
        return crude
    slope = d["alpha"] - sum((b * ((r2 * 0 + rc).log() * (flint.arb(1) / (k * k) - 1)).exp() / (k * k)
                              for k, (b, _c) in d["betas"].items()), flint.arb(0))
    tangent = h(rc) - slope.abs_upper() * (r2 - r1) / 2
    return tangent.max(crude)


def _duals(duals):
    flint = _flint()
    out = {"ell": _arb(Fraction(duals["ell"])), "alpha": _arb(Fraction(duals["alpha"])),
           "gamma": _arb(Fraction(duals["gamma"])), "betas": {}}
    if out["alpha"] < 0:
        raise ValueError("alpha must be >= 0")
    for k, (b, chi) in dict(duals["betas"]).items():
        bb = _arb(Fraction(b))
        if bb < 0:
            raise ValueError("every beta_k must be >= 0")
        out["betas"][int(k)] = (bb, _arb(Fraction(chi)))
    del flint
    return out


def _lp_duals(rho, theta, ks=LOWER_KS, *, X=5.0, n=1000, phases=8):
    """Multipliers from the discretised linear program at (rho, theta) (float64; they only decide the bound's quality)."""
    import numpy as np
    from scipy.optimize import linprog

    x = np.linspace(-X, X, n + 1)
    x = (x[:-1] + x[1:]) / 2
    dx = x[1] - x[0]
    A, b = [-np.cos(np.pi * x - theta) * dx], [-rho]
    chis = []
    for k in ks:
        for j in range(phases):
            chi = 2 * np.pi * j / phases
            A.append(np.cos(np.pi * x / k - chi) * dx)
            b.append(rho ** (1 / k ** 2) if rho > 0 else 0.0)
            chis.append((k, chi))
    Aeq = [np.ones(n) * dx, np.sin(np.pi * x - theta) * dx]
    res = linprog(np.abs(x) * dx, A_ub=np.array(A), b_ub=np.array(b), A_eq=np.array(Aeq), b_eq=[1.0, 0.0],
                  bounds=(0, 0.5), method="highs")
    if res.status != 0:                      # infeasible (rho near 2/pi): alpha alone, the level from the bathtub
        return {"ell": 0.0, "alpha": 4.0, "gamma": 0.0, "betas": {}}, math.inf
    z = -np.asarray(res.ineqlin.marginals)
    alpha = max(float(z[0]), 0.0)
    acc = {}
    for (k, chi), zz in zip(chis, z[1:]):
        acc[k] = acc.get(k, 0) + max(float(zz), 0.0) * complex(math.cos(chi), math.sin(chi))
    betas = {k: (abs(v), math.atan2(v.imag, v.real)) for k, v in acc.items() if abs(v) > 1e-12}
    ell, gamma = (float(v) for v in res.eqlin.marginals)
    return {"ell": ell, "alpha": alpha, "gamma": gamma, "betas": betas}, float(res.fun)


def _best_ell(duals, theta):
    """The bathtub level for the multipliers: Lambda's sublevel set of measure 2 (float64, on a grid)."""
    import numpy as np

    R = duals["ell"] + duals["alpha"] + abs(duals["gamma"]) + sum(b for b, _ in duals["betas"].values()) + 2
    x = np.linspace(-R, R, 200001)
    lam = np.abs(x) - duals["alpha"] * np.cos(np.pi * x - theta) - duals["gamma"] * np.sin(np.pi * x - theta)
    for k, (b, chi) in duals["betas"].items():
        lam = lam + b * np.cos(np.pi * x / k - chi)
    return float(np.sort(lam)[int(2 / (x[1] - x[0]))])


def _mid(iv):
    return (Fraction(iv[0]) + Fraction(iv[1])) / 2


def _rat(x, digits=10):
    return str(Fraction(f"{float(x):.{digits}g}"))


def lower_bound_certificate(target="0.5413", *, ks=LOWER_KS, rho_cells=16, theta_cells=8, max_depth=24,
                            progress=None):
    r"""Build Proposition G2's cover proving :math:`E|X - m| \ge` ``target`` for every ID law with density at most
    :math:`\frac12` (so :math:`c_{ID}^* \ge` ``target``/2).  Returns the certificate (a JSON-able dict) that
    :func:`check_lower_bound` re-proves.  Minutes of CPU at the shipped target (one linear program per cell tried);
    a low target takes seconds:

    >>> cert = lower_bound_certificate("0.45", rho_cells=2, theta_cells=1)      # E|X - m| >= 0.45: c_ID* >= 0.225
    >>> check_lower_bound(cert)["holds"] and len(cert["cells"]) >= 2
    True
    """
    import time

    T = Fraction(target)
    t0 = time.time()
    rho_max = Fraction(6367, 10000)            # > 2/pi = 0.63662
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        if not _arb(rho_max) > 2 / flint.arb.pi():
            raise AssertionError("rho_max must exceed 2/pi")
    cells, todo = [], []
    for i in range(rho_cells):
        for j in range(theta_cells):
            todo.append(((rho_max * i / rho_cells, rho_max * (i + 1) / rho_cells),
                         (Fraction(j, theta_cells), Fraction(j + 1, theta_cells)), 0, None))
    pi_hi = Fraction(355, 113) + Fraction(1, 10 ** 6)       # theta in [0, pi] is covered by [0, 1] * pi_hi
    while todo:
        rho, th, depth, parent = todo.pop()
        thr = (th[0] * pi_hi, th[1] * pi_hi)
        tries = [parent] if parent is not None else []
        rc, tc = float(sum(rho) / 2), float(sum(thr) / 2)
        duals = None
        for cand in tries + ["lp"]:
            if cand == "lp":
                cand, _ = _lp_duals(rc, tc, ks)
                cand["ell"] = _best_ell(cand, tc)
            exact = {"ell": _rat(cand["ell"]), "alpha": _rat(cand["alpha"]), "gamma": _rat(cand["gamma"]),
                     "betas": {k: (_rat(b), _rat(c)) for k, (b, c) in cand["betas"].items()}}
            val = dual_bound(exact, rho, thr)
            if val >= float(T):
                duals = exact
                break
        if duals is None and progress:
            progress(len(cells), len(todo), f"depth {depth}: rho {float(rho[0]):.5f}..{float(rho[1]):.5f}, theta "
                                            f"{float(thr[0]):.4f}..{float(thr[1]):.4f}: {val:.5f} < {float(T)}")
        if duals is not None:
            cells.append({"rho": [str(rho[0]), str(rho[1])], "theta": [str(thr[0]), str(thr[1])], "duals": duals})
            if progress:
                progress(len(cells), len(todo), None)
            continue
        if depth >= max_depth:
            raise ValueError(f"cell rho {[float(x) for x in rho]}, theta {[float(x) for x in thr]}: no bound "
                             f">= {target} at depth {max_depth}")
        # split where the bound loses most: theta's interval (the bound at theta's centre is higher) or rho's
        tcm, rcm = _mid(thr), _mid(rho)
        at_theta = dual_bound(exact, rho, (tcm, tcm))
        at_rho = dual_bound(exact, (rcm, rcm), thr)
        last = {k: (float(Fraction(b)), float(Fraction(c))) for k, (b, c) in exact["betas"].items()}
        par = {"ell": float(Fraction(exact["ell"])), "alpha": float(Fraction(exact["alpha"])),
               "gamma": float(Fraction(exact["gamma"])), "betas": last}
        if at_theta >= at_rho:
            tm = sum(th) / 2
            halves = [(rho, (th[0], tm)), (rho, (tm, th[1]))]
        else:
            rm = sum(rho) / 2
            halves = [((rho[0], rm), th), ((rm, rho[1]), th)]
        for rr, tt in halves:
            todo.append((rr, tt, depth + 1, par))
    return {"format": "arete-c-id-lower/1", "target": str(T), "ks": list(ks), "rho_max": str(rho_max),
            "theta_max": str(pi_hi), "cells": cells, "seconds": round(time.time() - t0, 1)}


def check_lower_bound(cert):
    r"""Re-prove a Proposition G2 certificate (a dict or a JSON file path) from its multipliers alone.

    Checks that the cells cover :math:`[0, \rho_{max}]\times[0, \theta_{max}]` with :math:`\rho_{max} > 2/\pi` and
    :math:`\theta_{max} \ge \pi` (exact rationals: the cells are a union of dyadic boxes) and that every cell's bound is
    at least the target.  Returns ``{"holds", "target", "c_id_lower", "cells", "worst"}``.

    >>> r = check_lower_bound(LOWER_CERTIFICATE)           # Proposition G2 with the shipped multipliers
    >>> r["holds"] and r["worst"] >= r["target"] and r["c_id_lower"] == r["target"] / 2
    True
    """
    if not isinstance(cert, dict):
        cert = json.loads(_certificate_path(cert).read_text())
    T = Fraction(cert["target"])
    rho_max, th_max = Fraction(cert["rho_max"]), Fraction(cert["theta_max"])
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        ok = bool(_arb(rho_max) > 2 / flint.arb.pi() and _arb(th_max) >= flint.arb.pi())
    area = Fraction(0)
    worst = math.inf
    for c in cert["cells"]:
        r0, r1 = (Fraction(x) for x in c["rho"])
        t0, t1 = (Fraction(x) for x in c["theta"])
        if not (0 <= r0 < r1 <= rho_max and 0 <= t0 < t1 <= th_max):
            ok = False
        area += (r1 - r0) * (t1 - t0)
        v = dual_bound(c["duals"], (r0, r1), (t0, t1))
        worst = min(worst, v)
        if not v >= float(T):
            ok = False
    # cells lie inside the box and do not overlap (dyadic subdivision of a grid), so full area means a cover
    ok = ok and area == rho_max * th_max and _disjoint(cert["cells"])
    return {"holds": ok, "target": float(T), "c_id_lower": float(T) / 2 if ok else 0.0, "cells": len(cert["cells"]),
            "worst": worst}


def _disjoint(cells):
    """No two cells overlap in their interiors (sort by rho, sweep)."""
    boxes = sorted(((Fraction(c["rho"][0]), Fraction(c["rho"][1]), Fraction(c["theta"][0]), Fraction(c["theta"][1]))
                    for c in cells))
    for i, (a0, a1, b0, b1) in enumerate(boxes):
        for c0, c1, d0, d1 in boxes[i + 1:]:
            if c0 >= a1:
                break
            if c0 < a1 and a0 < c1 and d0 < b1 and b0 < d1:
                return False
    return True
