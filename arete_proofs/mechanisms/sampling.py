r"""Vectorized float64 samplers on :class:`numpy.random.Generator` (Definitions 1, 4, 9; Lemmas 8, 10, 26, 27).

Every sampler takes ``size`` (``None`` for one draw returned as a float, an
int, or a shape tuple) and ``rng``: a :class:`numpy.random.Generator`, an int
seed or ``None`` (fresh OS entropy).  Outputs are float64.  Bad parameters raise
:class:`ValueError` naming the parameter.

* :func:`gamma_variates` -- :math:`\Gamma(a, \theta)` (Definition 22), with a
  log-space path for tiny shapes (below);
* :func:`gamma_gamma` -- :math:`X_1 - X_2`, :math:`X_i \sim \Gamma(\alpha,\theta)` (Definition 7);
* :func:`laplace` -- :math:`\mathrm{Laplace}(\lambda) = E_1 - E_2`, :math:`E_i \sim \mathrm{Exp}(\lambda)` (Definition 23);
* :func:`arete` -- :math:`Z = X_1 - X_2 + Y` (Definitions 1 and 9; ``sigma=`` adds
  :math:`N(0,\sigma^2)`, beyond the paper);
* :func:`staircase` -- :math:`SC(\gamma, \Delta)` at privacy level ``eps`` (Lemma 27),
  Geng and Viswanath's exact sampler;
* :func:`shares` -- the n-party shares of Lemma 10,
  :math:`\Gamma(\alpha/n,\theta) - \Gamma(\alpha/n,\theta) + \Gamma(1/n,\lambda) - \Gamma(1/n,\lambda)`,
  whose sum over the n parties is :math:`\mathrm{Arete}(\alpha,\theta,\lambda)`;
* :func:`sample`, :func:`save_samples` -- what ``arete sample`` writes.

**Tiny shapes.**  For :math:`X \sim \Gamma(a, 1)` with small :math:`a`,
:math:`X \overset{d}{=} Y U^{1/a}` with :math:`Y \sim \Gamma(1 + a, 1)` and
:math:`U` uniform, independent; so :math:`\ln X = \ln Y + \ln(U)/a` and

.. math::

    P(X \le x) = \frac{x^a}{\Gamma(1+a)}\,(1 + O(x)) \qquad (x \to 0).

With :math:`a = 10^{-7}`, :math:`P(X < 10^{-300}) = e^{-690.8 a}/\Gamma(1+a) \approx 1 - 6.9\cdot10^{-5}`:
almost every draw is below every float64 number (smallest subnormal :math:`4.9\cdot10^{-324}`),
and the correctly rounded float64 value of such a draw *is* 0.  So both numpy's
own gamma sampler and the log-space path below return exactly 0 for most draws;
that is the right answer, not a failure.  For the *sum* of the shares it changes
nothing visible: the :math:`n` shares that round to 0 carry together less than
:math:`n \cdot 4.9\cdot10^{-324}`, far below the float64 resolution of a sum
that contains the Laplace part (shape :math:`n \cdot 1/n = 1`, magnitude
:math:`\sim\lambda`), so the float64 sum of the shares is an
:math:`\mathrm{Arete}(\alpha,\theta,\lambda)` draw up to the rounding of the
additions (``tests/test_sampling.py`` checks it by Kolmogorov-Smirnov tests at
:math:`\alpha/n = 10^{-7}`).  The rare large shares carry all the Gamma-Gamma
mass: :math:`P(X > x) \approx a E_1(x)` for :math:`x \gg 0`.

What tiny shapes *do* mean: an individual share with shape :math:`1/n` is not
private on its own (for :math:`n = 10^6` almost every share is below
:math:`10^{-300}`, so ``x_i + share_i`` reveals ``x_i``); only the sum is
:math:`\varepsilon`-DP, and the shares must be hidden by secure aggregation
(paper, Appendix A).

numpy's gamma sampler for shape :math:`a < 1` draws the upper part of the
distribution as :math:`(1 - a + aY)^{1/a}` from a uniform with resolution
:math:`2^{-53}`; the relative error of a large draw is about :math:`2^{-53}/a`
(:math:`10^{-9}` at :math:`a = 10^{-7}`, :math:`10^{-4}` at :math:`a = 10^{-12}`, where the
large draws take only a few thousand distinct values).  Below
:data:`SHAPE_LOG_SPACE` :func:`gamma_variates` therefore uses
:math:`X = \theta\exp(\ln Y - E/a)` with :math:`E = -\ln U \sim \mathrm{Exp}(1)`, which is
exact in distribution and accurate to a few ulps wherever the result is a
normal float (``Y`` is drawn only where :math:`\ln\theta - E/a` leaves a chance of a
non-zero result, about :math:`10^{-4}` of the draws at :math:`a = 10^{-7}`, which makes
this path faster than numpy's there); :func:`log_gamma_variates` returns :math:`\ln X` itself, without
underflow.

>>> import numpy as np
>>> from arete_proofs import arete as engine
>>> a, th, lam = np.exp(-2.5), 0.4, np.exp(-2.5)            # Lemma 3 at eps = 10, Delta = 1
>>> z = arete(a, th, lam, 200_000, 1)
>>> exact = float(engine.mean_abs(a, th, lam, digits=15))
>>> se = float(np.sqrt((engine.var(a, th, lam, digits=15) - exact**2) / z.size))  # CLT standard error
>>> bool(abs(np.abs(z).mean() - exact) < 5 * se)           # Monte Carlo E|Z| within 5 standard errors
True
>>> s = shares(a, th, lam, 10, 4, 2)                        # Lemma 10: one row per draw, one column per party
>>> s.shape, shares(a, th, lam, 10, 4, 2, summed=True).shape
((4, 10), (4,))
"""

from __future__ import annotations

import math
import numbers
from pathlib import Path

import mpmath
import numpy as np

__all__ = [
    "SHAPE_LOG_SPACE",
    "generator",
    "gamma_variates",
    "log_gamma_variates",
    "gamma_gamma",
    "laplace",
    "arete",
    "staircase",
    "shares",
    "sample",
    "save_samples",
]

#: Below this shape :func:`gamma_variates` samples :math:`\ln X = \ln Y - E/a` (module docstring).
SHAPE_LOG_SPACE = 1e-6

#: ln X below which a log-space draw is 0 whatever Y is: ln(2^-1075) - 60 (see ``_gamma``).
_LOG_NEVER = -745.2 - 60.0

#: Elements generated at once by the summed paths (bounds the memory of :func:`shares`).
_CHUNK = 1 << 20


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def generator(rng=None) -> np.random.Generator:
    """``rng`` as a :class:`numpy.random.Generator`: a Generator is used as is, an int or ``None`` seeds a new one.

    >>> generator(7).random() == generator(7).random()
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, bool) or not isinstance(rng, numbers.Integral) or rng < 0:
        raise ValueError(f"rng must be a numpy Generator, a non-negative int seed or None, got {rng!r}")
    return np.random.default_rng(int(rng))


def _real(value, name):
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a scalar, got shape {arr.shape}")
    x = float(arr)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if x == 0 and _nonzero(value):
        # e.g. the paper's alpha = e^(-eps/4) at eps = 1e6: exact elsewhere, 0 in float64
        raise ValueError(f"{name} = {value} underflows float64 (these float64 samplers need "
                         f"|{name}| >= {np.finfo(float).smallest_subnormal:.1e})")
    return x


def _nonzero(value):
    """Whether ``value`` (a float, an mpmath number, a Fraction, a decimal string) is not 0."""
    if isinstance(value, numbers.Rational):
        return value != 0
    try:
        return mpmath.mpf(value) != 0
    except (TypeError, ValueError):
        return False


def _positive(value, name):
    x = _real(value, name)
    if x <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")
    return x


def _nonnegative(value, name):
    x = _real(value, name)
    if x < 0:
        raise ValueError(f"{name} must be non-negative, got {value!r}")
    return x


def _sigma(value):
    """``sigma`` of the Gaussian part: finite and >= 0 (0: none)."""
    return _nonnegative(value, "sigma")


def _unit(value, name):
    x = _real(value, name)
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return x


def _count(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _size(size):
    """Normalise ``size``: ``None`` (one draw), an int or a tuple of ints, all >= 0."""
    if size is None:
        return None
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        size = (size,)
    try:
        shape = tuple(size)
    except TypeError:
        raise ValueError(f"size must be None, an int or a tuple of ints, got {size!r}") from None
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, numbers.Integral) or s < 0:
            raise ValueError(f"size must contain non-negative integers, got {size!r}")
    return tuple(int(s) for s in shape)


def _finish(x, size):
    return float(x[0]) if size is None else x


# ---------------------------------------------------------------------------
# building blocks (no validation; ``shape`` a tuple)
# ---------------------------------------------------------------------------


def _gamma(rng, a, scale, shape):
    """Gamma(a, scale) draws of ``shape``; log-space for ``a < SHAPE_LOG_SPACE``."""
    if a >= SHAPE_LOG_SPACE:
        return rng.gamma(a, scale, shape)
    # ln X = ln(scale) + ln Y - E/a.  Where ln(scale) - E/a < _LOG_NEVER the result
    # underflows to 0 for every Y numpy can produce (ln Y < 60, i.e. Y < 1e26,
    # while P(Y > 100) < e^-95), so Y is only drawn where it can matter: with
    # a = 1e-7 for about 8e-5 of the draws.  Y is independent of E, so this is exact.
    t = rng.standard_exponential(shape)
    t *= -1.0 / a
    if scale != 1.0:
        t += math.log(scale)
    live = t > _LOG_NEVER
    k = int(np.count_nonzero(live))
    if k:
        t[live] += np.log(rng.standard_gamma(1.0 + a, k))
    t[~live] = -np.inf
    return np.exp(t, out=t)


def _log_gamma(rng, a, scale, shape):
    r""":math:`\ln X = \ln\theta + \ln Y - E/a`, :math:`Y \sim \Gamma(1+a)`, :math:`E \sim \mathrm{Exp}(1)`."""
    t = rng.standard_exponential(shape)
    t *= -1.0 / a
    y = rng.standard_gamma(1.0 + a, shape)
    np.log(y, out=y)
    t += y
    if scale != 1.0:
        t += math.log(scale)
    return t


def _exp_diff(rng, lam, shape):
    """Laplace(lam) as the difference of two Exp(lam) = Gamma(1, lam) draws (Lemma 10 with n = 1)."""
    out = rng.exponential(lam, shape)
    out -= rng.exponential(lam, shape)
    return out


def _gg(rng, a, theta, shape):
    out = _gamma(rng, a, theta, shape)
    out -= _gamma(rng, a, theta, shape)
    return out


# ---------------------------------------------------------------------------
# public samplers
# ---------------------------------------------------------------------------


def gamma_variates(shape, scale, size=None, rng=None):
    r""":math:`\Gamma(a, \theta)` draws (density :math:`x^{a-1}e^{-x/\theta}/(\Gamma(a)\theta^a)`, Definition 22).

    numpy's sampler for ``shape >= SHAPE_LOG_SPACE``, else
    :math:`\theta\exp(\ln Y - E/a)` (module docstring).  Draws below the
    smallest subnormal are returned as 0, their correctly rounded value.

    >>> import numpy as np
    >>> x = gamma_variates(1e-7, 1.0, 100_000, 3)
    >>> # P(X > 0 in float64) = P(X > 2^-1075) ~ 1 - (2^-1075)^a / Gamma(1+a) = 7.45e-5: ~7.5 expected
    >>> int((x > 0).sum()) < 30 and float(x.max()) < 40
    True
    """
    a = _positive(shape, "shape")
    th = _positive(scale, "scale")
    sz = _size(size)
    g = generator(rng)
    return _finish(_gamma(g, a, th, (1,) if sz is None else sz), sz)


def log_gamma_variates(shape, scale, size=None, rng=None):
    r""":math:`\ln X` for :math:`X \sim \Gamma(a, \theta)`, sampled as :math:`\ln\theta + \ln Y + \ln(U)/a` (no underflow).

    :math:`Y \sim \Gamma(1+a, 1)` and :math:`U` uniform are independent, and
    :math:`YU^{1/a} \sim \Gamma(a, 1)` (the Beta-Gamma algebra:
    :math:`U^{1/a} \sim \mathrm{Beta}(a, 1)`).  Useful to look at tiny shapes,
    where :func:`gamma_variates` is mostly 0.

    >>> import numpy as np
    >>> a = 1e-7
    >>> t = log_gamma_variates(a, 1.0, 200_000, 4)
    >>> # ln X ~ -Exp(1)/a to first order: the sample mean of -a ln X is close to E[E] = 1 (sd 1/sqrt(n))
    >>> bool(abs(-a * t.mean() - 1) < 5 / np.sqrt(t.size))
    True
    """
    a = _positive(shape, "shape")
    th = _positive(scale, "scale")
    sz = _size(size)
    g = generator(rng)
    return _finish(_log_gamma(g, a, th, (1,) if sz is None else sz), sz)


def gamma_gamma(alpha, theta, size=None, rng=None):
    r""":math:`X_1 - X_2`, :math:`X_i \sim \Gamma(\alpha,\theta)` independent (Definition 7).

    >>> import numpy as np
    >>> x = gamma_gamma(0.3, 2.0, 400_000, 5)
    >>> # Var(X1 - X2) = 2 alpha theta^2 = 2.4; 5 standard errors of the sample variance
    >>> # (mu4 = kappa4 + 3 Var^2 with kappa4 = 12 alpha theta^4)
    >>> bool(abs(x.var() - 2.4) < 5 * np.sqrt((12 * 0.3 * 16 + 2 * 2.4**2) / x.size))
    True
    """
    a = _positive(alpha, "alpha")
    th = _positive(theta, "theta")
    sz = _size(size)
    g = generator(rng)
    return _finish(_gg(g, a, th, (1,) if sz is None else sz), sz)


def laplace(lam, size=None, rng=None):
    r""":math:`\mathrm{Laplace}(\lambda)` as :math:`E_1 - E_2`, :math:`E_i \sim \mathrm{Exp}(\lambda)` (Definition 23).

    >>> import numpy as np
    >>> y = laplace(0.5, 400_000, 6)
    >>> # E|Y| = lam, Var|Y| = lam^2: within 5 standard errors
    >>> bool(abs(np.abs(y).mean() - 0.5) < 5 * 0.5 / np.sqrt(y.size))
    True
    """
    lam = _positive(lam, "lam")
    sz = _size(size)
    g = generator(rng)
    return _finish(_exp_diff(g, lam, (1,) if sz is None else sz), sz)


def arete(alpha, theta, lam, size=None, rng=None, *, sigma=0.0):
    r""":math:`Z = X_1 - X_2 + Y \sim \mathrm{Arete}(\alpha,\theta,\lambda)` (Definitions 1 and 9).

    :math:`X_i \sim \Gamma(\alpha,\theta)`, :math:`Y = E_1 - E_2`,
    :math:`E_i \sim \mathrm{Exp}(\lambda)`, all independent.  ``sigma > 0`` (beyond the
    paper) adds :math:`N \sim \mathcal N(0, \sigma^2)`, drawn after the other parts
    (``sigma = 0`` draws exactly what it drew before), and allows ``lam = 0`` (no Laplace part).

    >>> import numpy as np
    >>> z = arete(0.05, 1.0, 0.1, 400_000, 7)
    >>> # Var Z = 2 alpha theta^2 + 2 lam^2 = 0.12 (Lemma 3); fourth cumulant 12 alpha theta^4 + 12 lam^4
    >>> se = np.sqrt((12 * 0.05 + 12e-4 + 2 * 0.12**2) / z.size)
    >>> bool(abs(z.var() - 0.12) < 5 * se)
    True
    >>> # with a Gaussian part: Var Z = 2 alpha theta^2 + 2 lam^2 + sigma^2 = 0.12 + 1
    >>> z = arete(0.05, 1.0, 0.1, 400_000, 7, sigma=1.0)
    >>> bool(abs(z.var() - 1.12) < 5 * np.sqrt((12 * 0.05 + 12e-4 + 2 * 1.12**2) / z.size))
    True
    """
    a = _positive(alpha, "alpha")
    th = _positive(theta, "theta")
    sg = _sigma(sigma)
    lam = _positive(lam, "lam") if sg == 0 else _nonnegative(lam, "lam")
    sz = _size(size)
    g = generator(rng)
    shape = (1,) if sz is None else sz
    out = _gg(g, a, th, shape)
    if lam > 0:
        out += g.exponential(lam, shape)
        out -= g.exponential(lam, shape)
    if sg > 0:
        out += g.normal(0.0, sg, shape)
    return _finish(out, sz)


def staircase(gamma, Delta, eps, size=None, rng=None):
    r""":math:`SC(\gamma, \Delta)` at privacy level :math:`\varepsilon` (Lemma 27), exact sampler of Geng and Viswanath.

    With :math:`b = e^{-\varepsilon}` and independent

    * :math:`S = \pm 1` with probability 1/2 each,
    * :math:`G` geometric, :math:`P(G = k) = (1-b)b^k`, :math:`k = 0, 1, \dots`
      (drawn as :math:`\lfloor E/\varepsilon\rfloor`, :math:`E \sim \mathrm{Exp}(1)`:
      :math:`P(\lfloor E/\varepsilon\rfloor \ge k) = e^{-k\varepsilon}`),
    * :math:`B` Bernoulli, :math:`P(B = 0) = \gamma/(\gamma + (1-\gamma)b)`,
    * :math:`U` uniform on :math:`[0, 1)`,

    :math:`X = S\Delta\big((1-B)(G + \gamma U) + B(G + \gamma + (1-\gamma)U)\big)`.
    Derivation: period :math:`k` carries mass :math:`\propto b^k(\gamma + b(1-\gamma))`
    (geometric :math:`G`); inside it the step :math:`[k, k+\gamma)\Delta` has density
    :math:`a(\gamma)b^k` and the step :math:`[k+\gamma, k+1)\Delta` density
    :math:`a(\gamma)b^{k+1}`, so the first is chosen with probability
    :math:`\gamma/(\gamma + b(1-\gamma))` and the position is uniform in the step.

    >>> import numpy as np
    >>> from arete_proofs import staircase as sc
    >>> g = float(sc.gamma_mean_abs(4))
    >>> x = staircase(g, 1.0, 4.0, 400_000, 8)
    >>> # P(|X| < gamma Delta) = 2 gamma Delta a(gamma) = gamma (1-b)/(gamma + b (1-gamma)), binomial sd
    >>> b = np.exp(-4.0); p = g * (1 - b) / (g + b * (1 - g))
    >>> bool(abs((np.abs(x) < g).mean() - p) < 5 * np.sqrt(p * (1 - p) / x.size))
    True
    """
    gm = _unit(gamma, "gamma")
    D = _positive(Delta, "Delta")
    e = _positive(eps, "eps")
    sz = _size(size)
    g = generator(rng)
    shape = (1,) if sz is None else sz
    b = math.exp(-e)
    # gamma = 0 with b underflowing to 0 (eps > 745) would be 0/0; the first step is empty then
    p_first = 0.0 if gm == 0 else gm / (gm + (1.0 - gm) * b)
    geo = g.standard_exponential(shape)
    geo /= e
    np.floor(geo, out=geo)
    second = g.random(shape) >= p_first  # B = 1: the lower step [k + gamma, k + 1)
    u = g.random(shape)
    x = np.where(second, gm + (1.0 - gm) * u, gm * u)
    x += geo
    x *= D
    sign = g.integers(0, 2, shape, dtype=np.int8)
    np.negative(x, out=x, where=sign.astype(bool))
    return _finish(x, sz)


def shares(alpha, theta, lam, n, size=None, rng=None, *, summed=False, parties=None, sigma=0.0):
    r"""n-party noise shares of Lemma 10, :math:`\Gamma(\alpha/n,\theta) - \Gamma(\alpha/n,\theta) + \Gamma(1/n,\lambda) - \Gamma(1/n,\lambda)`.

    Lemma 10 (with the additivity of Gamma shapes, Lemma 8): the sum of :math:`n`
    independent shares is :math:`\Gamma(\alpha,\theta) - \Gamma(\alpha,\theta) +
    \Gamma(1,\lambda) - \Gamma(1,\lambda) \sim \mathrm{Arete}(\alpha,\theta,\lambda)`.

    Returns shape ``(size, parties)`` (``(parties,)`` for ``size=None``), or with
    ``summed=True`` the row sums, shape ``(size,)`` (a float for ``size=None``).
    ``parties`` (default ``n``) is the number of shares drawn per row, each sized
    for ``n``: with ``parties = m`` the sum is
    :math:`\Gamma{-}\Gamma(m\alpha/n,\theta) + \Gamma{-}\Gamma(m/n,\lambda)`, which is
    Arete only for :math:`m = n` (see :func:`arete_proofs.mechanisms.sum_noise`).
    The summed path generates at most ``2**20`` shares at a time.  For tiny
    shapes :math:`\alpha/n` most shares are exactly 0; see the module docstring.
    ``sigma > 0`` (beyond the paper) adds :math:`\mathcal N(0, \sigma^2/n)` to each
    share (the n of them sum to :math:`\mathcal N(0,\sigma^2)`) and allows ``lam = 0``.

    >>> import numpy as np
    >>> s = shares(0.2, 1.0, 0.1, 1000, 5, 9)
    >>> s.shape
    (5, 1000)
    >>> # Lemma 10 in moments: Var(sum of n shares) = n (2 (alpha/n) theta^2 + 2 lam^2/n) = Var Arete
    >>> z = shares(0.2, 1.0, 0.1, 20, 100_000, 10, summed=True)
    >>> bool(abs(z.var() - 0.42) < 5 * np.sqrt((12 * 0.2 + 12e-4 + 2 * 0.42**2) / z.size))
    True
    """
    a = _positive(alpha, "alpha")
    th = _positive(theta, "theta")
    sg = _sigma(sigma)
    lam = _positive(lam, "lam") if sg == 0 else _nonnegative(lam, "lam")
    n = _count(n, "n")
    m = n if parties is None else _count(parties, "parties")
    sz = _size(size)
    if sz is not None and len(sz) != 1:
        raise ValueError(f"size must be None or an int (number of rows), got {size!r}")
    g = generator(rng)
    rows = 1 if sz is None else sz[0]
    a_share, l_share = a / n, 1.0 / n

    def block(r, c):
        out = _gg(g, a_share, th, (r, c))
        if lam > 0:
            out += _gamma(g, l_share, lam, (r, c))
            out -= _gamma(g, l_share, lam, (r, c))
        if sg > 0:
            out += g.normal(0.0, sg / math.sqrt(n), (r, c))
        return out

    if not summed:
        out = block(rows, m)
        return out[0] if sz is None else out
    acc = np.zeros(rows)
    cols = min(m, _CHUNK)
    step = max(1, _CHUNK // cols)
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        for c0 in range(0, m, cols):
            acc[r0:r1] += block(r1 - r0, min(cols, m - c0)).sum(axis=1)
    return float(acc[0]) if sz is None else acc


def sample(alpha, theta, lam, size, seed=None, parties=None, *, sigma=0.0):
    r"""``size`` float64 draws of :math:`\mathrm{Arete}(\alpha,\theta,\lambda)`; with ``parties`` each is the sum of that many shares (Lemma 10).

    ``seed``: int, Generator or ``None``.  Same seed, same array.  ``sigma``: the Gaussian
    part of :func:`arete` / :func:`shares` (0: none).

    >>> import numpy as np
    >>> z = sample(0.1, 1.0, 0.1, 1000, seed=1)
    >>> z.dtype, z.shape, bool(np.array_equal(z, sample(0.1, 1.0, 0.1, 1000, seed=1)))
    (dtype('float64'), (1000,), True)
    """
    n = _count(size, "size", minimum=0)
    if parties is None:
        return arete(alpha, theta, lam, n, seed, sigma=sigma)
    return shares(alpha, theta, lam, parties, n, seed, summed=True, sigma=sigma)


def save_samples(path, array):
    """Write ``array`` as float64 to ``path`` in numpy's ``.npy`` format (suffix added if missing); return the path.

    >>> import tempfile, os
    >>> import numpy as np
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = save_samples(os.path.join(d, "z"), np.arange(3.0))
    ...     p.name, bool(np.array_equal(np.load(p), np.arange(3.0)))
    ('z.npy', True)
    """
    p = Path(path)
    if p.suffix != ".npy":
        p = p.with_name(p.name + ".npy")
    arr = np.asarray(array, dtype=np.float64)
    np.save(p, arr, allow_pickle=False)
    return p
