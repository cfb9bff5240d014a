r"""Privacy of the distributed lattice + Gaussian sum when parties drop out.

Shares sized for :math:`M` parties: each party adds
:math:`h\sum_{i=1}^m i\,(\mathrm{NB}(1/M, q) - \mathrm{NB}(1/M, q)) + \mathcal N(0, \sigma^2/M)`,
:math:`q = e^{-a}` (:math:`P(\mathrm{NB}(r, q) = j) = \binom{j + r - 1}{j}(1-q)^r q^j`).  Negative-binomial
shapes add, so with :math:`c` contributors, :math:`r = c/M`, the released noise is

.. math::

   Z_r = h\sum_{i=1}^m i\,(Y_i - Y_i') + \mathcal N(0, r\sigma^2),\qquad Y_i, Y_i' \sim \mathrm{NB}(r, q)

(:math:`Y - Y'` is the GDL(r, a) law of :mod:`arete_proofs.distributions.gdl`; :math:`r = 1` is
``lattice_gauss(a, m, sigma, h)``, whose :math:`Y - Y'` is DLap(a)).  :math:`r < 1` (more dropouts than
the shares allow for) is less noise, :math:`r > 1` more: :math:`Z_{r'} = Z_r + W` with independent
:math:`W` for :math:`r' > r`, so :math:`\varepsilon^*(r)` is non-increasing in :math:`r` (post-processing).

**The pmf.**  :math:`\mathrm{NB}(r, q)` has generating function :math:`((1-q)/(1-qz))^r`, so
:math:`M_r = \sum_i i(Y_i - Y_i')` has :math:`P(z) = (1-q)^{2mr} A_r(z) A_r(1/z)`,
:math:`A_r(z) = \prod_{i=1}^m (1 - qz^i)^{-r} = \sum_n \alpha_n z^n` and
:math:`p_k = (1-q)^{2mr}\sum_{j \ge 0} \alpha_j\alpha_{j+|k|}`.  With :math:`\lambda = a/m`, the tilted
:math:`\tilde\alpha_n = \alpha_n e^{\lambda n}` is the convolution of the factors' tilted coefficients
:math:`\binom{j + r - 1}{j} e^{-aj(1 - i/m)}` at :math:`n = ij` -- all positive, at most polynomial in
:math:`n`, so an FFT convolution truncated at :math:`N` keeps each value's relative precision (checked:
:data:`MAX_TABLE_ERROR`) -- and :math:`\tilde p_k = p_k e^{\lambda k} = (1-q)^{2mr}\sum_j \tilde\alpha_j e^{-2\lambda j}
\tilde\alpha_{j+k}` (:func:`tilted_table`).

**The tail.**  :math:`A_r = B^r(1 - qz^m)^{-r}`, :math:`B = \prod_{i<m}(1 - qz^i)^{-1}` analytic beyond
:math:`|z| = e^\lambda`: a branch point of order :math:`r` at every :math:`z_\omega = \omega e^\lambda`,
:math:`\omega^m = 1`, where :math:`1 - qz^m \approx m(1 - z/z_\omega)`.  Hence
:math:`\tilde\alpha_n = \binom{n + r - 1}{n}\big(\beta_{n \bmod m} + O(1/n)\big)`,
:math:`\beta_n = m^{-r}\sum_\omega B(\omega e^\lambda)^r\omega^{-n}` (:math:`B^r = e^{r\ln B}`, the principal
logarithm of each factor), and

.. math::

   \tilde p_k \Big/ \binom{k + r - 1}{k} \to C_{k \bmod m} = (1-q)^{2mr}\sum_{j \ge 0}\tilde\alpha_j e^{-2\lambda j}\,
   \beta_{(j + k) \bmod m}

(:func:`tail_profile`; :math:`r = 1` is :func:`arete_proofs.privacy.lattice_large.tail_profile`).  The binomial
factor's ratio over a window of :math:`\Delta/h` indices tends to 1, so the loss tends to that of the periodic
limit law :math:`f_\infty(t) = \sum_k C_{k \bmod m}e^{-\lambda k}\varphi_{\sigma\sqrt r}(t - hk)` -- for
:math:`r \ne 1` only like :math:`O(1/t)` (the :math:`O(1/n)` terms; measured at the :math:`\varepsilon = 8` optimum,
:math:`r = 0.875`: window maxima 8.09196 on :math:`[300, 1000]\Delta`, 8.09177 on :math:`[1000, 1170]\Delta`,
limit 8.09170), where :math:`r = 1` (simple poles) converges exponentially.

**The loss** (:func:`estimate`): the window maximum of :math:`\ln f(t) - \min_{|v - t| \le \Delta}\ln f(v)` over
:math:`0 \le t \le T` (:math:`T` = ``span`` :math:`\Delta`, default 1000 for :math:`r \ne 1`; for :math:`r = 1` where
:math:`\tilde p` has reached its profile to :math:`10^{-12}`) and the tail limit over one period of
:math:`f_\infty` (the grid, sliding minimum and Brent refinement of ``privacy/_lattice_loss.py``);
the estimate is the larger.  Beyond :math:`T` the loss is the limit plus :math:`O(1/t)`: a float64
**estimate, not certified**.  Tested: :math:`r = 1` against
:func:`arete_proofs.privacy.optimize_lattice.estimate_epsilon` and the certified enclosure; the pmf against a
direct mpmath convolution of NB pmfs; the loss at small :math:`m` against an mpmath evaluation.

>>> e = estimate_epsilon(3.0, 2, 0.2, 1.0, 0.5, ratio=1)            # r = 1: lattice_gauss(3, 2, 0.2, 0.5)
>>> from arete_proofs.privacy.optimize_lattice import estimate_epsilon as designed
>>> abs(e - designed(3.0, 2, 0.2, 1.0, 0.5)) < 1e-9
True
>>> estimate_epsilon(3.0, 2, 0.2, 1.0, 0.5, ratio=0.5) > e > estimate_epsilon(3.0, 2, 0.2, 1.0, 0.5, ratio=2)
True
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from ._lattice_loss import _kernel_radius, _logF, _max_loss

__all__ = [
    "MAX_INDEX",
    "MAX_TABLE_ERROR",
    "SPAN",
    "contributors_after_dropout",
    "dropout_epsilon",
    "estimate",
    "estimate_epsilon",
    "mean_abs",
    "tail_profile",
    "tilted_table",
    "variance",
]

#: default window :math:`T = \mathrm{SPAN}\,\Delta` for :math:`r \ne 1` (the loss approaches its limit like 1/t)
SPAN = 1000.0

#: the largest relative FFT rounding (about 1e-16 of the largest tilted value) accepted in :func:`tilted_table`
MAX_TABLE_ERROR = 1e-8

#: the longest table (lattice indices) :func:`tilted_table` builds
MAX_INDEX = 4_000_000


def _ratio(ratio):
    try:
        r = float(ratio)
    except (TypeError, ValueError):
        raise ValueError(f"ratio must be a positive number (contributors / parties the shares are sized for), "
                         f"got {ratio!r}") from None
    if not (r > 0 and math.isfinite(r)):
        raise ValueError(f"ratio must be a positive number (contributors / parties the shares are sized for), "
                         f"got {ratio!r}")
    return r


def _am(a, m):
    a = float(a)
    if not (a > 0 and math.isfinite(a)):
        raise ValueError(f"a must be a positive number, got {a!r}")
    if isinstance(m, bool) or int(m) != m or int(m) < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    return a, int(m)


def contributors_after_dropout(parties, fraction):
    r"""``parties`` :math:`- \lfloor f \cdot \text{parties}\rfloor`: who is left when a fraction :math:`f \in [0, 1)` drops out.

    ``fraction`` is read exactly (a decimal string, or a float by its shortest repr), so 30% of 100 is 30.

    >>> contributors_after_dropout(100, 0.3), contributors_after_dropout(100, "0.25"), contributors_after_dropout(7, 0.5)
    (70, 75, 4)
    """
    if isinstance(parties, bool) or not isinstance(parties, int) or parties < 1:
        raise ValueError(f"parties must be an integer >= 1, got {parties!r}")
    try:
        f = Fraction(repr(fraction) if isinstance(fraction, float) else str(fraction).strip())
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValueError(f"fraction must be a number in [0, 1), got {fraction!r}") from None
    if not 0 <= f < 1:
        raise ValueError(f"fraction must be in [0, 1), got {fraction!r}")
    return parties - math.floor(f * parties)


def _alpha_tilde(a, m, r, N):
    """:math:`\\tilde\\alpha_0..\\tilde\\alpha_N` of :math:`A_r` (module docstring): m positive FFT convolutions."""
    from scipy import signal, special

    out = np.zeros(N + 1)
    out[0] = 1.0
    for i in range(1, m + 1):
        J = N // i
        j = np.arange(J + 1)
        lc = special.gammaln(j + r) - special.gammaln(r) - special.gammaln(j + 1) - a * j * (1 - i / m)
        keep = lc > -740
        c = np.zeros(i * J + 1)
        c[i * j[keep]] = np.exp(lc[keep])
        out = signal.fftconvolve(out, c)[:N + 1] if J > 0 else out
    return out


def _correlation_length(a, m):
    # alpha~_j e^{-2 lam j} falls like j^{r-1} e^{-2 lam j}: j up to 25/lam + 2m leaves about e^{-50}
    return math.ceil(25.0 * m / a) + 2 * m


def _exp_length(a, m, tol=1e-12):
    """For r = 1: the index where the tilted pmf has reached its profile to ``tol`` (rate a/(m-1) - a/m)."""
    theta = a / (m - 1) - a / m if m > 1 else a
    return math.ceil(-math.log(tol) / theta) + 2 * m + 2


@functools.lru_cache(maxsize=16)
def _table(a, m, r, N, k0):
    lam = a / m
    Jn = _correlation_length(a, m)
    al = _alpha_tilde(a, m, r, N + Jn)
    spread = float(al.max() / al.min()) if al.min() > 0 else math.inf
    if not spread * 1e-16 < MAX_TABLE_ERROR:
        raise ValueError(f"m = {m}, a = {a}, ratio = {r}: the tilted series spans {spread:.3g}, too much for the "
                         f"float64 FFT table (rounding above {MAX_TABLE_ERROR:g} relative)")
    w = al[:Jn + 1] * np.exp(-2 * lam * np.arange(Jn + 1))
    pos = np.zeros(N + 1)
    for j in range(Jn + 1):
        pos += w[j] * al[j:j + N + 1]
    pos *= math.exp(2 * m * r * math.log1p(-math.exp(-a)))
    kk = np.arange(1, k0 + 1)
    left = (pos[kk] * np.exp(-2 * lam * kk))[::-1]          # p_{-k} = p_k: tilted by e^{-lam k}
    return np.concatenate([left, pos])


def tilted_table(a, m, ratio, N, k0=None):
    r"""``(q, k0)``: :math:`q[k_0 + k] = \tilde p_k = p_k e^{\lambda k}` of :math:`M_r` for :math:`k = -k_0 \dots N` (module docstring).

    ``k0`` defaults to :math:`3m`.  A ``ValueError`` when the FFT's absolute rounding would swamp the
    smallest values (:data:`MAX_TABLE_ERROR`).

    >>> q, k0 = tilted_table(2.0, 1, 1, 10)          # DLap(2): p_k e^{2k} = tanh(1) for k >= 0
    >>> bool(abs(q[k0 + 5] - math.tanh(1.0)) < 1e-14)
    True
    >>> q, k0 = tilted_table(2.0, 1, 0.5, 400)       # GDL(1/2, 2): the pmf sums to 1
    >>> p = q[k0:] * np.exp(-2.0 * np.arange(401))
    >>> bool(abs(p[0] + 2 * p[1:].sum() - 1) < 1e-12)
    True
    """
    a, m = _am(a, m)
    r = _ratio(ratio)
    N = int(N)
    k0 = 3 * m if k0 is None else int(k0)
    if not 0 <= N <= MAX_INDEX or k0 < 0 or k0 > N:
        raise ValueError(f"N must be an integer in [k0, {MAX_INDEX}], got {N!r} (k0 = {k0})")
    return _table(a, m, r, N, k0), k0


@functools.lru_cache(maxsize=32)
def tail_profile(a, m, ratio):
    r""":math:`C_0..C_{m-1}` of :math:`M_r` up to one common factor (normalised to :math:`\max C = 1`; module docstring).

    >>> from arete_proofs.privacy import lattice_large
    >>> bool(np.allclose(tail_profile(3.0, 5, 1.0), lattice_large.tail_profile(3.0, 5), rtol=1e-12))   # r = 1
    True
    """
    from .lattice_large import _log_B_hat

    a, m = _am(a, m)
    r = _ratio(ratio)
    lam = a / m
    logB = _log_B_hat(a, m)                 # ln B(omega_l e^lam), omega_l = e^{-2 pi i l/m}
    beta = np.real(np.fft.ifft(np.exp(r * (logB - logB.real.max()))))
    J = math.ceil(45.0 / lam) + m
    al = _alpha_tilde(a, m, r, J) * np.exp(-2 * lam * np.arange(J + 1))
    fold = np.bincount(np.arange(J + 1) % m, weights=al, minlength=m)
    C = np.real(np.fft.ifft(np.conj(np.fft.fft(fold)) * np.fft.fft(beta)))
    if not np.all(C > 0):
        raise ValueError(f"the tail profile is not positive at a = {a}, m = {m}, ratio = {r} (float64 rounding)")
    return C / C.max()


def _inputs(a, m, sigma, Delta, h, ratio):
    a, m = _am(a, m)
    sigma, Delta = float(sigma), float(Delta)
    if not (sigma > 0 and math.isfinite(sigma)):
        raise ValueError(f"sigma must be a positive number, got {sigma!r}")
    if not (Delta > 0 and math.isfinite(Delta)):
        raise ValueError(f"Delta must be a positive number, got {Delta!r}")
    h = Delta / m if h is None else float(h)
    if not (h > 0 and math.isfinite(h)):
        raise ValueError(f"h must be a positive number, got {h!r}")
    return a, m, sigma, Delta, h, _ratio(ratio)


def estimate(a, m, sigma, Delta=1.0, h=None, *, ratio=1.0, span=None, grid=8, refine=6):
    r"""Float64 estimate of :math:`\varepsilon^*` of :math:`Z_r` (module docstring): a dict with ``epsilon``
    (the larger of ``window`` and ``tail``), ``window_pair``, ``tail_pair``, ``T``, ``ratio`` and ``sigma_sum``
    (:math:`\sigma\sqrt r`).

    ``sigma`` is the *designed* noise's (the sum's Gaussian part has variance :math:`r\sigma^2`); ``h``
    defaults to :math:`\Delta/m`; ``span``: the window :math:`T/\Delta` (default :data:`SPAN`, or the
    exponential convergence length for :math:`r = 1`).

    >>> r = estimate(3.0, 2, 0.2, 1.0, 0.5, ratio=0.5, span=50)
    >>> r["epsilon"] >= r["tail"] > 3.0 and r["T"] >= 50
    True
    """
    a, m, sigma, Delta, h, r = _inputs(a, m, sigma, Delta, h, ratio)
    s = sigma * math.sqrt(r)
    lam = a / m
    lam_h = lam / h
    R = _kernel_radius(s, h)
    step = math.ceil(Delta / h)
    if span is None:
        T = h * _exp_length(a, m) if r == 1 else SPAN * Delta
    else:
        span = float(span)
        if not span > 0:
            raise ValueError(f"span must be positive, got {span!r}")
        T = span * Delta
    k0 = step + 2 * R + 4
    N = max(math.ceil(T / h) + step + R + 4, k0)
    if N > MAX_INDEX:
        raise ValueError(f"span: the window T = {T:g} needs {N} lattice points, more than {MAX_INDEX}")
    q, k0 = tilted_table(a, m, r, N, k0)
    dx = h / grid
    W, wp = _max_loss(lambda t: _logF(t, q, k0, h, s, lam_h) - lam_h * t, 0.0, T, Delta, dx, refine)
    C = tail_profile(a, m, r)
    L, lp = _max_loss(lambda t: _logF(t, None, 0, h, s, lam_h, profile=C) - lam_h * t, 0.0, m * h, Delta, dx,
                      refine)
    return {"epsilon": max(W, L), "window": W, "tail": L, "window_pair": wp, "tail_pair": lp, "T": T,
            "ratio": r, "sigma_sum": s}


def estimate_epsilon(a, m, sigma, Delta=1.0, h=None, *, ratio=1.0, span=None, grid=8):
    r"""The float64 estimate of :math:`\varepsilon^*` of :math:`Z_r` (:func:`estimate`'s ``epsilon``).

    >>> abs(estimate_epsilon(3.0, 2, 0.2, ratio=2) - 3.0) < 1e-9     # wide smoothing: the tail limit, a
    True
    """
    return estimate(a, m, sigma, Delta, h, ratio=ratio, span=span, grid=grid)["epsilon"]


def variance(a, m, sigma, h, ratio=1.0):
    r""":math:`\operatorname{Var} Z_r = r\,[h^2 S_2(m)/(\cosh a - 1) + \sigma^2]`, :math:`S_2(m) = m(m+1)(2m+1)/6`
    (:math:`\operatorname{Var}(Y - Y') = 2rq/(1-q)^2 = r/(\cosh a - 1)`).

    >>> abs(variance(2.0, 2, 0.2, 0.5, 3) - 3 * (0.25 * 5 / (math.cosh(2) - 1) + 0.04)) < 1e-15
    True
    """
    a, m = _am(a, m)
    r = _ratio(ratio)
    return r * (float(h) ** 2 * m * (m + 1) * (2 * m + 1) / 6 / (math.cosh(a) - 1) + float(sigma) ** 2)


def mean_abs(a, m, sigma, h, ratio=1.0):
    r""":math:`E|Z_r| = \sum_k p_k\,E|hk + \mathcal N(0, r\sigma^2)|` from :func:`tilted_table` (float64; the mass
    beyond the table, about :math:`e^{-60}`, is dropped).

    >>> from arete_proofs.privacy import optimize_lattice
    >>> abs(mean_abs(3.0, 2, 0.2, 0.5) - optimize_lattice.mean_abs(3.0, 2, 0.2, 0.5)) < 1e-13      # r = 1
    True
    """
    from scipy import special

    a, m, sigma, _D, h, r = _inputs(a, m, sigma, 1.0, h, ratio)
    s = sigma * math.sqrt(r)
    lam = a / m
    N = math.ceil((60.0 + 10 * abs(r - 1) * math.log(60.0 / lam + 2)) / lam) + 4 * m
    q, k0 = tilted_table(a, m, r, N, 0)
    k = np.arange(N + 1)
    p = q[k0:] * np.exp(-lam * k)
    x = h * k
    e = x * special.erf(x / (s * math.sqrt(2))) + 2 * s * np.exp(-0.5 * (x / s) ** 2) / math.sqrt(2 * math.pi)
    w = np.where(k == 0, 1.0, 2.0)
    return float(np.sum(w * p * e))


def dropout_epsilon(a, m, sigma, Delta=1.0, h=None, *, parties, min_parties, fraction, span=None):
    r"""The estimated :math:`\varepsilon^*` of the sum when a ``fraction`` of ``parties`` drops out, shares sized for ``min_parties``.

    :math:`c` = :func:`contributors_after_dropout`, :math:`r = c/\text{min\_parties}`; a dict with
    ``fraction``, ``contributors``, ``ratio``, ``epsilon`` (the float64 estimate of :func:`estimate`, **not
    certified**), ``window``, ``tail`` and ``below_design`` (:math:`r < 1`: fewer contributors than the
    shares are sized for, so less than the designed noise).

    >>> d = dropout_epsilon(3.0, 2, 0.2, 1.0, 0.5, parties=10, min_parties=8, fraction=0.3, span=50)
    >>> d["contributors"], d["ratio"], d["below_design"]
    (7, 0.875, True)
    """
    if isinstance(min_parties, bool) or not isinstance(min_parties, int) or min_parties < 1:
        raise ValueError(f"min_parties must be an integer >= 1, got {min_parties!r}")
    c = contributors_after_dropout(parties, fraction)
    r = c / min_parties
    e = estimate(a, m, sigma, Delta, h, ratio=r, span=span)
    return {"fraction": float(fraction), "contributors": c, "ratio": r, "epsilon": e["epsilon"],
            "window": e["window"], "tail": e["tail"], "below_design": r < 1, "certified": False}
