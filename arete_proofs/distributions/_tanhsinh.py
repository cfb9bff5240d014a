r"""Tanh-sinh quadrature with exact endpoint offsets, for batches of integrands.

mpmath's :func:`mpmath.quad` stores tanh-sinh abscissas as points of
:math:`[-1, 1]`, so no node comes closer to an endpoint than about
:math:`2^{-\mathrm{prec}}` of the interval length.  An integrable endpoint
singularity :math:`x^{-\beta}` then loses the mass
:math:`\int_0^{2^{-p}} x^{-\beta}\,dx`, which for :math:`\beta` close to 1 is
most of the integral (this is why a naive convolution gets :math:`f_A(0)`
wrong for small :math:`\alpha`).

Here each node is described by its *distance* to the nearer endpoint,
:math:`y_k = e_k/(1+e_k)` with :math:`e_k = e^{-\pi\sinh(t_k)}`, computed
without cancellation, so nodes reach distances like :math:`10^{-10^6}` and the
integrand can evaluate :math:`\delta^{-\beta}` from the exact offset
:math:`\delta`.  With :math:`x = \tanh(\tfrac{\pi}{2}\sinh t)` the rule is

.. math::

    \int_a^b f \approx h\,(b-a) \sum_k \omega_k \,[f(a + (b-a)y_k) + f(b - (b-a)y_k)],
    \qquad \omega_k = \pi\cosh(t_k)\,\frac{e_k}{(1+e_k)^2},

with the :math:`t_k = 0` node counted once.  Level :math:`m` uses step
:math:`h_m = 2^{-m}` and adds the odd multiples of :math:`h_m` to the nodes of
level :math:`m-1`, so :math:`S_m = S_{m-1}/2 + h_m\sum_{\text{new}}`.

The rule converges double-exponentially for integrands analytic inside the
interval; the error of level :math:`m` is estimated from the differences of
successive levels (see :func:`level_error`).
"""

from __future__ import annotations

import math
from functools import lru_cache

from mpmath import mp

__all__ = ["standard_nodes", "t_max", "level_error", "integrate"]


def t_max(prec: int, beta: float = 0.0) -> float:
    r"""Largest :math:`t` needed at ``prec`` bits for endpoint behaviour :math:`y^{-\beta}`.

    The terms decay like :math:`e^{-(1-\beta)\pi\sinh t}`; we stop when that is
    below :math:`2^{-\mathrm{prec}-40}`.

    >>> 3 < t_max(100) < 5
    True
    """
    if not beta < 1:
        raise ValueError("endpoint singularity exponent beta must be < 1")
    need = (prec + 40) * math.log(2) / ((1 - beta) * math.pi)
    return math.asinh(need) + 0.1


@lru_cache(maxsize=512)
def standard_nodes(level: int, prec: int, tmax: float):
    r"""Nodes ``(y, omega)`` that are new at ``level`` (see the module docstring).

    ``y`` is the distance to the nearer endpoint as a fraction of the interval
    length (``y = 1/2`` is the midpoint, returned only at level 1).  Cached.

    >>> from mpmath import mp
    >>> # at 53 bits the nodes still come far closer to an endpoint than 2**-53
    >>> nodes = standard_nodes(3, 53, t_max(53, beta=0.9))
    >>> min(y for y, w in nodes) < mp.mpf(10) ** -100
    True
    """
    out = []
    with mp.workprec(prec + 30):
        h = mp.ldexp(1, -level)
        k = 0 if level == 1 else 1
        step = 1 if level == 1 else 2
        pi = mp.pi
        while True:
            t = k * h
            if t > tmax:
                break
            e = mp.exp(-pi * mp.sinh(t))
            y = e / (1 + e)
            w = pi * mp.cosh(t) * e / (1 + e) ** 2
            out.append((y, w))
            k += step
    return tuple(out)


def level_error(history, scale):
    r"""Error estimate for the last entry of ``history`` (successive level sums).

    The estimate is the last correction :math:`|S_m - S_{m-1}|`, i.e. the error
    of the *previous* level.  Tanh-sinh roughly squares its error per level in
    the asymptotic regime, so this overestimates the error of :math:`S_m` by a
    wide margin there.  Faster extrapolations (:math:`r_1^2/r_0`, as in
    mpmath's ``estimate_error``) were tried and rejected: for integrands with
    a feature at a scale the nodes have not resolved yet (such as
    :math:`e^{-c/y}` with tiny :math:`c`, the mapped tail at :math:`t = 10^{-8}`)
    convergence stalls for a level and the extrapolation claimed
    :math:`10^{-35}` where the error was :math:`2\cdot10^{-28}`.  When the
    corrections grow, the estimate is :math:`10\,r_1`.  With one level only,
    ``scale`` (the integral of the absolute integrand) is returned.

    >>> level_error([1.0, 1.1, 1.101, 1.101001], 1.0) < 1e-5
    True
    >>> level_error([1.0, 1.5], 1.0)
    0.5
    """
    if len(history) < 2:
        return abs(scale) + abs(history[-1])
    r1 = abs(history[-1] - history[-2])
    if len(history) >= 3 and r1 > abs(history[-2] - history[-3]):
        return 10 * r1
    return r1


def level_error_extrapolated(history, scale):
    r"""Error of the *last* level of ``history``: :math:`r_1^2/r_2` (:math:`r_1, r_2` the last two differences)
    while the differences shrink, else :func:`level_error`.

    Tanh-sinh converges double-exponentially, so the error of level :math:`m` is about the square of that of
    level :math:`m-1` (about :math:`r_1`) over a constant; :math:`r_1 \cdot (r_1/r_2)` assumes only that the next
    difference shrinks by the ratio of the last two (a linear extrapolation, which over-estimates a
    double-exponential error), and is used only when :math:`r_1 < r_2/4`.

    >>> level_error_extrapolated([1.0, 1.1, 1.101, 1.101001], 1.0) < 1e-8
    True
    >>> level_error_extrapolated([1.0, 1.5], 1.0)      # two levels: as level_error
    0.5
    """
    if len(history) >= 3:
        r1, r2 = abs(history[-1] - history[-2]), abs(history[-2] - history[-3])
        if r1 < r2 / 4:
            return r1 * (r1 / r2)
    return level_error(history, scale)


def integrate(f, pieces, tol, prec, max_level=12, beta=0.0, extrapolate=False):
    r"""Integrate a scalar function over pieces with a *relative* tolerance.

    ``pieces`` is a list of finite intervals ``(a, b)`` or half-lines
    ``(a, inf, L)`` / ``(-inf, b, L)``; a half-line is mapped to ``y`` in
    ``(0, 1]`` by ``x = a + L (1 - y)/y`` (``L`` sets where the bulk lies).
    ``f(x, da, db)`` gets the node ``x`` and its exact offsets ``da = x - a``,
    ``db = b - x`` (``inf`` on a half-line).  Returns ``(value, error_estimate,
    abs_integral)``; the loop stops when the summed error estimate is below
    ``tol * |value|`` and raises :class:`arete_proofs.PrecisionError` when
    ``max_level`` is reached first.  Rounding errors are the caller's business
    (``abs_integral / |value|`` measures the cancellation).

    >>> from mpmath import mp
    >>> with mp.workdps(40):
    ...     # an endpoint singularity that plain tanh-sinh truncates: int_0^1 x^(-0.99) dx = 100
    ...     v, e, _ = integrate(lambda x, da, db: da ** mp.mpf("-0.99"), [(0, 1)], mp.mpf(10)**-35, mp.prec, beta=0.99)
    ...     abs(v - 100) < 1e-30
    True
    >>> with mp.workdps(30):
    ...     v, e, _ = integrate(lambda x, da, db: mp.exp(-x), [(0, mp.inf, 1)], mp.mpf(10)**-25, mp.prec)
    ...     abs(v - 1) < 1e-25
    True
    """
    from .._validation import PrecisionError, check_deadline, deadline

    stop = deadline()
    tmax = t_max(prec, beta)
    states = []
    for piece in pieces:
        a, b = mp.mpf(piece[0]), mp.mpf(piece[1])
        if mp.isinf(a) or mp.isinf(b):
            Ls = mp.mpf(piece[2])
            if mp.isinf(b):
                g = (lambda a, Ls: lambda y, dy0, dy1: f(a + Ls * (1 - y) / y, Ls * (1 - y) / y, mp.inf) * Ls / (y * y))(a, Ls)
            else:
                g = (lambda b, Ls: lambda y, dy0, dy1: f(b - Ls * (1 - y) / y, mp.inf, Ls * (1 - y) / y) * Ls / (y * y))(b, Ls)
            a, b = mp.zero, mp.one
        else:
            g = f
        states.append({"f": g, "a": a, "b": b, "L": b - a, "hist": [], "abs": mp.zero, "done": False, "err": mp.inf})
    total = errsum = mp.zero
    for level in range(1, max_level + 1):
        nodes = standard_nodes(level, prec, tmax)
        h = mp.ldexp(1, -level)
        for st in states:
            if st["done"]:
                continue
            check_deadline(stop, f"tanh-sinh quadrature at {prec} bits (level {level})")
            a, b, L, fn = st["a"], st["b"], st["L"], st["f"]
            s = mp.zero
            sa = mp.zero
            for y, w in nodes:
                d = L * y
                v = fn(a + d, d, L - d)
                va = abs(v)
                if y * 2 != 1:  # mirrored node near b (the midpoint is used once)
                    u = fn(b - d, L - d, d)
                    v += u
                    va += abs(u)
                s += w * v
                sa += w * va
            prev = st["hist"][-1] if st["hist"] else mp.zero
            st["hist"].append(prev / 2 + h * L * s)
            st["abs"] = st["abs"] / 2 + h * L * sa
        total = mp.fsum(st["hist"][-1] for st in states)
        budget = tol * abs(total)
        n = len(states)
        all_done = level > 1
        errsum = mp.zero
        for st in states:
            if not st["done"] and level > 1:
                st["err"] = (level_error_extrapolated if extrapolate else level_error)(st["hist"], st["abs"])
                st["done"] = st["err"] <= budget / n
            all_done = all_done and st["done"]
            errsum += st["err"]
        if all_done and errsum <= budget:
            return total, errsum, mp.fsum(st["abs"] for st in states)
    raise PrecisionError(
        f"tanh-sinh quadrature did not reach relative tolerance {mp.nstr(tol, 3)} "
        f"within {max_level} levels (estimated error {mp.nstr(errsum, 3)} of {mp.nstr(total, 5)})"
    )
