r"""Machinery shared by the ``scipy.stats`` distributions of :mod:`arete_proofs.stats` (float64).

* :func:`per_parameter_set` -- call a float64 function that takes *scalar*
  parameters (:mod:`arete_proofs.distributions.fast`) on broadcast arrays of
  parameters, once per distinct parameter set.
* :func:`isf_symmetric` -- the inverse survival function of a distribution
  symmetric about 0, by a bracketing root-finder on :math:`\ln \bar F(x)`:
  :math:`\bar F(-x) = 1 - \bar F(x)` reduces every ``p`` to
  :math:`\bar F(x) = \min(p, 1-p)` with :math:`x > 0` (``1 - p`` is exact in
  float64 for ``p >= 1/2``), which is solved in :math:`u = \ln x` by Chandrupatla's
  method (inverse quadratic interpolation safeguarded by bisection; every
  iterate keeps a sign change, so the noise of the float64 ``sf`` cannot make
  it diverge).  The brackets come from one evaluation of :math:`\ln\bar F` on a
  grid in ``u`` (spacing 1/4) and, for roots outside the grid, from steps of
  doubling length.
* :func:`as_generator` -- ``random_state`` as scipy hands it to ``_rvs`` (a
  ``RandomState`` or a ``Generator``) turned into a numpy ``Generator`` for
  :mod:`arete_proofs.mechanisms.sampling`.
* :func:`rvs_per_parameter_set` -- a sampler with scalar parameters on
  broadcast arrays of parameters.
* :func:`entropy_by_quadrature` -- :math:`h = -2\int_0^\infty f\ln f\,dx` of a
  symmetric density by Gauss-Legendre panels, one vectorised ``logpdf`` call.
* :func:`moments_from_cumulants` -- raw moments from cumulants.

>>> import numpy as np
>>> # Laplace(1): sf(x) = exp(-x)/2 for x >= 0, so isf(p) = -ln(2p) for p <= 1/2 and ppf = -isf
>>> p = np.array([1e-300, 1e-5, 0.25, 0.5, 0.75])
>>> x = isf_symmetric(lambda x: np.log(0.5) - x, p, 1e-30, 800.0)
>>> bool(np.allclose(x[:3], -np.log(2 * p[:3]), rtol=1e-14) and x[3] == 0 and x[4] == -x[2])
True
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "as_generator",
    "entropy_by_quadrature",
    "isf_symmetric",
    "moments_from_cumulants",
    "per_parameter_set",
    "rvs_per_parameter_set",
]

_EPS = np.finfo(float).eps
_LN_TINY = math.log(5e-324)  # ln of the smallest positive float64 (subnormal)
_LN_HUGE = math.log(np.finfo(float).max)
_FINE_GRID = 256  # from this many roots on, the bracketing grid has spacing 1/16 instead of 1/4


def per_parameter_set(func, x, *params, valid=None):
    r"""``func(x, *scalars)`` on the broadcast of ``x`` and ``params``, once per distinct parameter set.

    Used for the densities :math:`f_A(t; \alpha, \theta, \lambda)` (Definition 9) and
    :math:`f_{\Gamma-\Gamma}(t; \alpha, \theta)` (Definition 7) and their distribution functions.

    :mod:`arete_proofs.distributions.fast` builds its quadrature nodes per
    parameter set and takes scalar parameters; scipy hands ``_pdf`` etc. arrays
    (of size 1 when the parameters are scalars).  The result has the broadcast shape.
    A parameter set that is not finite and positive (or for which ``valid(params)`` is
    false, when given) gives ``nan`` (scipy hands invalid size-1 parameters to some private
    methods and discards the result).

    >>> import numpy as np
    >>> # x * a with scalar a: one call; with an array of a: one call per distinct a
    >>> per_parameter_set(lambda x, a: x * a, np.array([1.0, 2.0]), np.array([3.0, 3.0])).tolist()
    [3.0, 6.0]
    """
    valid = _valid if valid is None else valid
    x = np.asarray(x, dtype=float)
    params = [np.asarray(p, dtype=float) for p in params]
    if all(p.size == 1 for p in params):
        scal = [float(p.reshape(-1)[0]) for p in params]
        shape = np.broadcast_shapes(x.shape, *(p.shape for p in params))
        if not valid(scal):
            return np.full(shape, np.nan)
        return np.broadcast_to(np.asarray(func(x, *scal), dtype=float), shape).copy()
    arrays = np.broadcast_arrays(x, *params)
    xs = arrays[0].reshape(-1)
    table = np.stack([a.reshape(-1) for a in arrays[1:]], axis=1)
    out = np.empty(xs.shape)
    if xs.size:
        rows, inverse = np.unique(table, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        for k, row in enumerate(rows):
            sel = inverse == k
            out[sel] = func(xs[sel], *(float(v) for v in row)) if valid(row) else np.nan
    return out.reshape(arrays[0].shape)


def _valid(params):
    return all(math.isfinite(v) and v > 0 for v in params)


# ---------------------------------------------------------------------------
# the quantile function
# ---------------------------------------------------------------------------


def _chandrupatla(fun, a, b, fa, fb, ftol, maxiter=200):
    """Roots of ``fun`` on brackets ``[a, b]`` (``fa``, ``fb`` of opposite sign or zero), vectorised.

    ``fun(u, idx)`` evaluates the function of the problems ``idx`` at ``u``.
    Chandrupatla (1997): inverse quadratic interpolation when the last three
    points make it safe, bisection otherwise; stops when the bracket is below
    ``4 eps (1 + |u|)`` or the best function value is within ``ftol`` of 0
    (the rounding level of the function: further steps could not tell).
    """
    n = a.size
    x1, x2, f1, f2 = a.copy(), b.copy(), fa.copy(), fb.copy()
    x3, f3 = x2.copy(), f2.copy()
    res = np.where(np.abs(f1) <= np.abs(f2), x1, x2)
    active = (f1 != 0) & (f2 != 0)
    res[f1 == 0] = x1[f1 == 0]
    res[(f2 == 0) & (f1 != 0)] = x2[(f2 == 0) & (f1 != 0)]
    # first step: secant, kept away from the ends
    with np.errstate(all="ignore"):
        t = np.clip(np.nan_to_num(f1 / (f1 - f2), nan=0.5), 0.05, 0.95)
    idx = np.flatnonzero(active)
    for _ in range(maxiter):
        if idx.size == 0:
            break
        xt = x1[idx] + t[idx] * (x2[idx] - x1[idx])
        ft = np.clip(fun(xt, idx), -1e300, 1e300)
        same = np.sign(ft) == np.sign(f1[idx])
        i_s, i_o = idx[same], idx[~same]
        x3[i_s], f3[i_s] = x1[i_s], f1[i_s]
        x3[i_o], f3[i_o] = x2[i_o], f2[i_o]
        x2[i_o], f2[i_o] = x1[i_o], f1[i_o]
        x1[idx], f1[idx] = xt, ft
        a1, a2 = x1[idx], x2[idx]
        g1, g2, g3 = f1[idx], f2[idx], f3[idx]
        use1 = np.abs(g1) < np.abs(g2)
        xm = np.where(use1, a1, a2)
        fm = np.where(use1, g1, g2)
        res[idx] = xm
        tol = 4 * _EPS * (1 + np.abs(xm))
        with np.errstate(all="ignore"):
            tlim = tol / np.abs(a2 - a1)
            done = (tlim > 0.5) | (np.abs(fm) <= ftol[idx]) | ~np.isfinite(tlim)
            xi = (a1 - a2) / (x3[idx] - a2)
            phi = (g1 - g2) / (g3 - g2)
            iqi = (phi**2 < xi) & ((1 - phi) ** 2 < 1 - xi)
            tq = (g1 / (g2 - g1) * g3 / (g2 - g3)
                  + (x3[idx] - a1) / (a2 - a1) * g1 / (g3 - g1) * g2 / (g3 - g2))
        tn = np.where(iqi & np.isfinite(tq), tq, 0.5)
        tn = np.clip(tn, np.minimum(tlim, 0.5), np.maximum(1 - tlim, 0.5))
        t[idx] = tn
        idx = idx[~done]
    return res.reshape(n)


def _positive_roots(log_sf, target, x_lo, x_hi):
    r"""``x > 0`` with ``ln sf(x) = target`` for ``target < ln(1/2)`` (``sf`` decreasing from 1/2 at 0).

    ``log_sf(x)`` is vectorised.  The bracket comes from a grid in ``u = ln x``
    from ``ln x_lo`` to ``ln x_hi``; roots below the smallest float64 give 0.
    """
    m = target.size
    h = 0.25 if m < _FINE_GRID else 1.0 / 16  # a finer grid (more brackets) pays off for many points
    U = np.arange(math.log(x_lo), math.log(x_hi) + h, h)
    with np.errstate(divide="ignore"):
        G = np.asarray(log_sf(np.exp(U)), dtype=float)
    Gmin = np.minimum.accumulate(G)  # non-increasing: brackets stay valid even if sf is noisy
    j = np.searchsorted(-Gmin, -target, side="left")  # first j with Gmin[j] <= target
    a = np.empty(m)
    b = np.empty(m)
    fa = np.empty(m)
    fb = np.empty(m)
    inner = (j > 0) & (j < U.size)
    ji = j[inner]
    a[inner], b[inner] = U[ji - 1], U[ji]
    fa[inner], fb[inner] = G[ji - 1] - target[inner], G[ji] - target[inner]
    out = np.zeros(m)
    ok = inner.copy()

    def expand(sel, start, f_start, direction):
        """Step from ``start`` in ``direction`` (lengths 8, 16, ...) until the sign changes."""
        u0 = np.full(sel.size, start)
        f0 = f_start[sel]
        step = 8.0
        live = np.ones(sel.size, dtype=bool)
        while live.any():
            u1 = np.clip(u0[live] + direction * step, _LN_TINY, _LN_HUGE)
            with np.errstate(divide="ignore"):
                f1 = np.asarray(log_sf(np.exp(u1)), dtype=float) - target[sel[live]]
            found = (f1 <= 0) if direction > 0 else (f1 > 0)
            li = np.flatnonzero(live)
            hit = li[found]
            lo_u, hi_u = (u0[hit], u1[found]) if direction > 0 else (u1[found], u0[hit])
            lo_f, hi_f = (f0[hit], f1[found]) if direction > 0 else (f1[found], f0[hit])
            a[sel[hit]], b[sel[hit]], fa[sel[hit]], fb[sel[hit]] = lo_u, hi_u, lo_f, hi_f
            ok[sel[hit]] = True
            miss = li[~found]
            u0[miss], f0[miss] = u1[~found], f1[~found]
            at_end = (u1[~found] <= _LN_TINY) | (u1[~found] >= _LN_HUGE)
            live[miss[at_end]] = False  # root beyond the float range: 0 (below) or the largest float
            if direction > 0:
                out[sel[miss[at_end]]] = np.inf
            live[hit] = False
            step *= 2.0

    below = np.flatnonzero(j == 0)
    if below.size:
        expand(below, U[0], G[0] - target, -1.0)
    above = np.flatnonzero(j == U.size)
    if above.size:
        expand(above, U[-1], G[-1] - target, +1.0)
    sel = np.flatnonzero(ok)
    if sel.size:

        def fun(u, idx):
            with np.errstate(divide="ignore"):
                return np.asarray(log_sf(np.exp(u)), dtype=float) - target[sel[idx]]

        # ln sf carries rounding errors of a few eps * max(1, |ln sf|): a residual below that is a root
        ftol = 2 * _EPS * np.maximum(1.0, np.abs(target[sel]))
        roots = _chandrupatla(fun, a[sel], b[sel], fa[sel], fb[sel], ftol)
        out[sel] = np.exp(roots)
    return out


def isf_symmetric(log_sf, p, x_lo, x_hi):
    r"""Inverse survival function of a distribution symmetric about 0: :math:`\bar F(x) = p`.

    ``log_sf(x)`` is :math:`\ln P(X > x)` for ``x > 0`` (vectorised, ``-inf``
    where it underflows), ``p`` an array in ``(0, 1)``.  By symmetry
    :math:`\bar F^{-1}(p) = -\bar F^{-1}(1-p)` and the quantile function is
    ``ppf(q) = -isf(q)``.  ``[x_lo, x_hi]`` is the range of the bracketing
    grid (roots outside it are bracketed by doubling steps in ``ln x``).
    Accuracy: the root of the float64 ``log_sf`` to about ``4 eps (1 + |ln x|)``
    relative.

    >>> import numpy as np
    >>> # logistic distribution: sf(x) = 1/(1 + e^x), so isf(p) = ln(1/p - 1) (symmetric about 0)
    >>> p = np.array([1e-12, 0.1, 0.6])
    >>> x = isf_symmetric(lambda x: -np.logaddexp(0, x), p, 1e-30, 800.0)
    >>> bool(np.allclose(x, np.log(1 / p - 1), rtol=1e-13))
    True
    """
    p = np.asarray(p, dtype=float)
    flat = p.reshape(-1)
    out = np.zeros(flat.shape)
    tail = np.where(flat <= 0.5, flat, 1.0 - flat)  # exact for p >= 1/2 (Sterbenz)
    sign = np.where(flat <= 0.5, 1.0, -1.0)
    solve = tail < 0.5
    if solve.any():
        out[solve] = sign[solve] * _positive_roots(log_sf, np.log(tail[solve]), x_lo, x_hi)
    return out.reshape(p.shape)


# ---------------------------------------------------------------------------
# random variates
# ---------------------------------------------------------------------------


def as_generator(random_state):
    r"""A numpy ``Generator`` for ``random_state`` as scipy passes it to ``_rvs``.

    A ``Generator`` is used as is.  A ``RandomState`` (scipy's default is
    numpy's global one, an ``int`` seed becomes ``RandomState(seed)``) seeds a
    new ``Generator`` with 128 bits drawn from it, so it advances and
    ``np.random.seed(k)`` / ``random_state=k`` stay reproducible.  This is
    plumbing for the samplers of Definitions 1, 7 and Lemma 27.

    >>> import numpy as np
    >>> g1, g2 = as_generator(np.random.RandomState(5)), as_generator(np.random.RandomState(5))
    >>> g1.random() == g2.random()
    True
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        seed = random_state.randint(0, 2**32, size=4, dtype=np.uint64)
        return np.random.default_rng([int(s) for s in seed])
    return np.random.default_rng(random_state)


def rvs_per_parameter_set(sampler, params, size, random_state):
    r"""Draws of ``sampler(*scalars, count, rng)`` for broadcast parameter arrays, shape ``size``.

    Used for the samplers of Definitions 1 and 7 and Lemma 27.

    scipy calls ``_rvs(*params, size=size, random_state=...)`` with parameters
    that broadcast to ``size``; the samplers of :mod:`arete_proofs.mechanisms.sampling`
    take scalar parameters.  One sampler call per distinct parameter set.

    >>> import numpy as np
    >>> def uniform(a, n, rng):
    ...     return a * rng.random(n)         # U(0, a): a test sampler
    >>> x = rvs_per_parameter_set(uniform, [np.array([1.0, 100.0])], (1000, 2), np.random.default_rng(1))
    >>> x.shape, bool(x[:, 0].max() <= 1 < x[:, 1].max())
    ((1000, 2), True)
    """
    rng = as_generator(random_state)
    size = () if size is None else (tuple(int(s) for s in size) if np.ndim(size) else (int(size),))
    params = [np.asarray(p, dtype=float) for p in params]
    n = int(np.prod(size, dtype=np.int64))
    if all(p.size == 1 for p in params):  # one parameter set: one call, no grouping
        out = np.asarray(sampler(*(float(p.reshape(-1)[0]) for p in params), n, rng), dtype=float).reshape(size)
        return out[()] if size == () else out
    arrays = [np.broadcast_to(p, size) for p in params]
    out = np.empty(n)
    if n:
        table = np.stack([a.reshape(-1) for a in arrays], axis=1)
        rows, inverse = np.unique(table, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        if rows.shape[0] == 1:
            out[:] = sampler(*(float(v) for v in rows[0]), n, rng)
        else:
            for k, row in enumerate(rows):
                sel = np.flatnonzero(inverse == k)
                out[sel] = sampler(*(float(v) for v in row), sel.size, rng)
    out = out.reshape(size)
    return out[()] if size == () else out


# ---------------------------------------------------------------------------
# entropy and moments
# ---------------------------------------------------------------------------

_GL_X, _GL_W = np.polynomial.legendre.leggauss(20)


def entropy_by_quadrature(logpdf, small, big, x_max, head=0.0):
    r"""Differential entropy :math:`h = -\int f\ln f = -2\int_0^\infty f(x)\ln f(x)\,dx` of a symmetric density.

    20-point Gauss-Legendre on panels whose edges are the union of a geometric
    sequence (ratio 2, from :math:`10^{-30}` ``small`` to ``x_max``), the
    multiples of ``small`` up to ``40 small`` and the multiples of ``big`` up to
    ``x_max``: panels of relative width at most 1 near 0 (power-law behaviour,
    e.g. :math:`|x|^{2\alpha-1}` of Gamma-Gamma), of width ``small`` where the
    fast exponential :math:`e^{-x/\mathrm{small}}` matters and of width ``big``
    in the tail.  ``head`` is the contribution of :math:`[0, 10^{-30}\,\mathrm{small}]`
    (per half line) supplied by the caller; beyond ``x_max`` the density is
    assumed negligible.  One vectorised ``logpdf`` call (a few thousand points).

    >>> import numpy as np
    >>> # Laplace(1): h = 1 + ln 2
    >>> h = entropy_by_quadrature(lambda x: -x - np.log(2), 1.0, 1.0, 80.0)
    >>> bool(abs(h - (1 + np.log(2))) < 1e-13)
    True
    """
    x0 = 1e-30 * small
    geo = x0 * 2.0 ** np.arange(0, math.ceil(math.log2(x_max / x0)) + 1)
    edges = np.concatenate([geo, small * np.arange(1, 41), big * np.arange(1, math.ceil(x_max / big) + 1)])
    edges = np.unique(np.concatenate([[x0], edges[(edges > x0) & (edges < x_max)], [x_max]]))
    lo, hi = edges[:-1], edges[1:]
    half = (hi - lo) / 2
    x = ((lo + hi) / 2)[:, None] + half[:, None] * _GL_X[None, :]
    lf = np.asarray(logpdf(x.reshape(-1)), dtype=float).reshape(x.shape)
    with np.errstate(invalid="ignore"):
        integrand = np.where(np.isfinite(lf), np.exp(lf) * lf, 0.0)
    return float(-2.0 * (np.sum(half[:, None] * _GL_W[None, :] * integrand) + head))


def moments_from_cumulants(n, cumulant):
    r"""Raw moment :math:`\mu'_n = \sum_{k=1}^{n}\binom{n-1}{k-1}\kappa_k\,\mu'_{n-k}`, :math:`\mu'_0 = 1`.

    ``cumulant(k)`` returns :math:`\kappa_k` (a number or an array).

    >>> # N(0, 1): kappa_2 = 1, all others 0, so E X^4 = 3 and E X^6 = 15
    >>> [float(moments_from_cumulants(n, lambda k: 1.0 if k == 2 else 0.0)) for n in (4, 6)]
    [3.0, 15.0]
    """
    n = int(n)
    mom = [1.0]
    kap = [None] + [cumulant(k) for k in range(1, n + 1)]
    with np.errstate(invalid="ignore"):  # nan parameters (scipy discards the result) stay quiet
        for m in range(1, n + 1):
            mom.append(sum(math.comb(m - 1, k - 1) * kap[k] * mom[m - k] for k in range(1, m + 1)))
    return np.asarray(mom[n], dtype=float)
