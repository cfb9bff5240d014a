r"""The float64 loss machinery shared by the lattice + Gaussian estimators.

:math:`\ln F` of a tilted comb mixture on a grid and the windowed maximisation of
:math:`\ln f(t) - \min_{|v - t| \le \Delta} \ln f(v)` with Brent refinement
(:mod:`arete_proofs.privacy.optimize_lattice` for the formulas;
:mod:`arete_proofs.privacy.lattice_large` for large :math:`m`).

>>> _kernel_radius(0.1, 0.5)       # 12 sigma / h, rounded up, plus two
5
"""

from __future__ import annotations

import math

import numpy as np


def _kernel_radius(sigma, h):
    return int(math.ceil(12 * sigma / h)) + 2


def _logF(t, q, k0, h, sigma, lam_h, *, profile=None):
    """ln F(t) (the tilted density; module docstring) at the points ``t`` (or of the limit law with ``profile``)."""
    t = np.asarray(t, dtype=float)
    R = _kernel_radius(sigma, h)
    kc = np.rint(t / h).astype(np.int64)
    off = np.arange(-R, R + 1)
    k = kc[:, None] + off[None, :]
    u = t[:, None] - h * k
    w = np.exp(-0.5 * (u / sigma) ** 2 + lam_h * u)
    if profile is None:
        qk = q[np.clip(k + k0, 0, q.size - 1)]
    else:
        qk = profile[np.mod(k, profile.size)]
    return np.log(np.sum(qk * w, axis=1))


def _max_loss(lf_fn, t0, t1, Delta, dx, refine=6):
    """max over t in [t0, t1], |v - t| <= Delta of lf(t) - lf(v): grid, sliding minimum, Brent refinement."""
    from scipy import ndimage, optimize as so

    M = int(round(Delta / dx))
    dx = Delta / M
    n0 = int(math.floor((t0 - Delta) / dx)) - 1
    n1 = int(math.ceil((t1 + Delta) / dx)) + 1
    xs = dx * np.arange(n0, n1 + 1)
    lf = lf_fn(xs)
    mn = ndimage.minimum_filter1d(lf, size=2 * M + 1, mode="nearest")
    inside = np.nonzero((xs >= t0 - 1e-12) & (xs <= t1 + 1e-12))[0]
    loss = lf[inside] - mn[inside]
    order = inside[np.argsort(loss)[::-1]]
    best, pair, seen = -math.inf, None, 0
    f1 = lambda x: float(lf_fn(np.array([x]))[0])  # noqa: E731
    done = []
    for i in order:
        if seen >= refine:
            break
        if any(abs(i - d) <= 2 for d in done):  # skip neighbours of an already refined point
            continue
        done.append(i)
        seen += 1
        window = lf[i - M:i + M + 1]
        j = i - M + int(np.argmin(window))
        cands = []
        if abs(j - i) < M:  # interior: t a local max, v a local min
            rt = so.minimize_scalar(lambda x: -f1(x), bounds=(xs[i] - dx, xs[i] + dx), method="bounded",
                                    options={"xatol": 1e-12 * max(1.0, abs(xs[i]))})
            rv = so.minimize_scalar(f1, bounds=(xs[j] - dx, xs[j] + dx), method="bounded",
                                    options={"xatol": 1e-12 * max(1.0, abs(xs[j]))})
            cands.append((-rt.fun - rv.fun, (rt.x, rv.x)))
        for sg in (1, -1):  # end pairs |t - v| = Delta near this t
            r = so.minimize_scalar(lambda x, s=sg: f1(x + s * Delta) - f1(x), bounds=(xs[i] - dx, xs[i] + dx),
                                   method="bounded", options={"xatol": 1e-12 * max(1.0, abs(xs[i]))})
            cands.append((-r.fun, (r.x, r.x + sg * Delta)))
        if abs(j - i) >= M - 1:  # the grid minimum at (or next to) the window's end: the trough may lie just
            sg = 1 if j > i else -1   # inside it, with t free too -- maximise lf(t) - min over the last 2 dx

            def inner(t, sg=sg):
                e = t + sg * Delta
                r = so.minimize_scalar(f1, bounds=tuple(sorted((e - sg * 2 * dx, e))), method="bounded",
                                       options={"xatol": 1e-12 * max(1.0, abs(e))})
                return r.fun, r.x

            ro = so.minimize_scalar(lambda x: inner(x)[0] - f1(x), bounds=(xs[i] - dx, xs[i] + dx), method="bounded",
                                    options={"xatol": 1e-11 * max(1.0, abs(xs[i]))})
            cands.append((-ro.fun, (ro.x, inner(ro.x)[1])))
        cands.append((float(loss[np.searchsorted(inside, i)]), (xs[i], xs[j])))
        v, p = max(cands, key=lambda c: c[0])
        if v > best:
            best, pair = float(v), (float(p[0]), float(p[1]))
    return best, pair
