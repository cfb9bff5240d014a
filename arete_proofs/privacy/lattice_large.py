r"""Float64 lattice + Gaussian loss for large :math:`m` (the frontier's large lattices).

The optimal lattice size grows like :math:`m \approx 0.6\,e^{\varepsilon/2}` (about 34 at
:math:`\varepsilon = 8`, 250 at 12, 13 000 at 20), beyond the FFT table of
:mod:`arete_proofs.privacy.optimize_lattice` (whose absolute rounding swamps the small tilted values
at :math:`m \gtrsim 100`).  Here every step is a sum of **positive** terms, so each value keeps its
relative precision whatever its size.

**The pmf.**  With :math:`q = e^{-a}`, DLap(a) has the generating function
:math:`(1-q)^2/((1 - qz)(1 - q/z))`, so :math:`M = \sum_{i=1}^m i X_i` has

.. math::

   P(z) = (1 - q)^{2m} A(z) A(1/z),\qquad A(z) = \prod_{i=1}^m \frac{1}{1 - q z^i} = \sum_{j \ge 0} \alpha_j z^j,
   \qquad p_k = (1 - q)^{2m} \sum_{j \ge 0} \alpha_j\, \alpha_{j + |k|}.

:math:`\alpha` is the weighted partition count (:func:`partition_series`: for each :math:`i`,
:math:`\alpha_k \mathrel{+}= q\,\alpha_{k-i}` in increasing :math:`k`, done in blocks of :math:`i`), and
:math:`p_k` a correlation of positive sequences (:func:`window_pmf`).

**The tail profile.**  With :math:`\lambda = a/m`, :math:`A(z) = B(z)/(1 - q z^m)`,
:math:`B = \prod_{i<m} (1 - q z^i)^{-1}` analytic for :math:`|z| < q^{-1/(m-1)}`, so
:math:`\alpha_n e^{\lambda n} \to \beta_{n \bmod m} = \sum_{l \equiv n\ (m)} b_l e^{\lambda l}` (the
fold of the tilted :math:`B`), whose discrete Fourier transform is
:math:`\hat\beta(\omega) = \prod_{i<m} (1 - q e^{\lambda i}\omega^i)^{-1}` at the :math:`m`-th roots of
unity (:func:`tail_profile`, products in logs).  Then

.. math::

   C_{k \bmod m} = \lim_{k\to\infty} p_k e^{\lambda k} = (1 - q)^{2m} \sum_{j \ge 0} \alpha_j e^{-\lambda j}\, \beta_{(j + k) \bmod m}.

**The loss** (:func:`estimate`): the window maximum of :math:`\ln f(t) - \min_{|v - t| \le \Delta}\ln f(v)`
over :math:`0 \le t \le S\Delta` (``span`` :math:`S`) from the pmf, and the tail limit over one period of
:math:`f_\infty` from the profile (the machinery of :mod:`arete_proofs.privacy.optimize_lattice`, in ``privacy/_lattice_loss.py``).
Between :math:`S\Delta` and the limit nothing is evaluated: an **estimate**, as the optimiser's is;
tested against :func:`arete_proofs.privacy.optimize_lattice.estimate` where both run.

**The top rate.**  Every function takes ``a_top`` (default :math:`a`): the weight-:math:`m` component is
:math:`m\,\mathrm{DLap}(a_{top})`, :math:`a_{top} \le a` (:mod:`arete_proofs.privacy.optimize_lattice`'s
generalised family).  The factor :math:`(1 - q_{top} z^m)^{-1}` of :math:`A` takes
:math:`q_{top} = e^{-a_{top}}`, the normalisation is :math:`(1-q)^{2(m-1)}(1-q_{top})^2`, and the tail
rate is :math:`\lambda = a_{top}/m` (the fold :math:`B` keeps :math:`q`).

>>> p = window_pmf(2.0, 1, 3)                 # DLap(2): tanh(1) e^{-2|k|}
>>> bool(abs(p[3 + 2] - math.tanh(1.0) * math.exp(-4)) < 1e-15)
True
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ._lattice_loss import _kernel_radius, _logF, _max_loss

__all__ = ["partition_series", "window_pmf", "tail_profile", "estimate", "mean_abs"]


def partition_series(a, m, N, a_top=None):
    r""":math:`\alpha_0..\alpha_N` of :math:`A(z) = \prod_{i=1}^m (1 - e^{-a} z^i)^{-1}` (module docstring).

    Each factor is the positive recursion :math:`\alpha_k \mathrel{+}= q\,\alpha_{k-i}` in increasing
    :math:`k`: a linear filter for small :math:`i`, blocks of :math:`i` independent slices for large.

    >>> s = partition_series(math.log(2), 2, 4)     # 1/((1 - z/2)(1 - z^2/2)): 1, 1/2, 3/4, 3/8, 7/16
    >>> [float(x) for x in s]
    [1.0, 0.5, 0.75, 0.375, 0.4375]
    """
    from scipy import signal

    q0 = math.exp(-float(a))
    qt = q0 if a_top is None else math.exp(-float(a_top))
    al = np.zeros(N + 1)
    al[0] = 1.0
    for i in range(1, int(m) + 1):
        q = qt if i == int(m) else q0
        if i <= _FILTER_MAX:
            den = np.zeros(i + 1)
            den[0], den[i] = 1.0, -q
            al = signal.lfilter([1.0], den, al)
            continue
        for s in range(i, N + 1, i):
            e = min(s + i, N + 1)
            al[s:e] += q * al[s - i:e - i]
    return al


#: factors 1/(1 - q z^i) with i up to this are applied as a linear filter (O(N i)), larger ones by blocks (O(N/i) slices)
_FILTER_MAX = 48

#: terms of the tail profile's log-product with q e^{lambda i} below this go through the geometric series
_SERIES_RATIO = 0.5


def _tail_length(a, m, a_top=None):
    # the correlation's terms alpha_j alpha_{j+k} fall like e^{-2 lambda j} (alpha_n e^{lambda n} tends to a
    # bounded profile): j up to 20/lambda + 2m leaves a relative e^{-40}
    lam = float(a if a_top is None else a_top) / int(m)
    return int(math.ceil(20.0 / lam)) + 2 * int(m)


@functools.lru_cache(maxsize=8)
def _window_pmf(a, m, K, a_top=None):
    return window_pmf(a, m, K, a_top=a_top)


@functools.lru_cache(maxsize=8)
def _tail_profile(a, m, a_top=None):
    return tail_profile(a, m, a_top)


def _top(a, a_top):
    """``a_top`` as a float, or ``None`` when it is ``a`` (the MSDLap comb); a ValueError outside (0, a]."""
    if a_top is None:
        return None
    a_top = float(a_top)
    if not 0 < a_top <= float(a):
        raise ValueError(f"a_top must be in (0, a], got a_top={a_top} with a={a}")
    return None if a_top == float(a) else a_top


def window_pmf(a, m, K, *, alpha=None, a_top=None):
    r""":math:`p_{-K}..p_K` of MSDLap(a, m) (float64, each value to a relative :math:`\sim 10^{-15}`).

    >>> p = window_pmf(1.5, 3, 100)              # the mass beyond |k| = 100 is about e^{-50}
    >>> bool(abs(p.sum() - 1) < 1e-13) and bool(p[100 + 2] == p[100 - 2])
    True
    """
    a, m, K = float(a), int(m), int(K)
    a_top = _top(a, a_top)
    J = _tail_length(a, m, a_top)
    al = partition_series(a, m, J + K, a_top) if alpha is None else alpha
    n = al.size - K
    # p_k = (1 - q)^{2(m-1)} (1 - q_top)^2 sum_j alpha_j alpha_{j+k}, k = 0..K: a correlation of positive sequences
    pos = np.correlate(al[:], al[:n], mode="valid")[:K + 1] if n > 0 else np.zeros(K + 1)
    if a_top is None:   # the plain comb as before, to the last bit
        pos = pos * math.exp(2 * m * math.log1p(-math.exp(-a)))
    else:
        pos = pos * math.exp(2 * (m - 1) * math.log1p(-math.exp(-a)) + 2 * math.log1p(-math.exp(-a_top)))
    return np.concatenate([pos[:0:-1], pos])


def _log_B_hat(a, m, chunk=64, lam=None):
    """log prod_{i<m} 1/(1 - q e^{lam i} w_l^i) at w_l = e^{-2 pi i l/m}, l = 0..m-1 (module docstring)."""
    lam = a / m if lam is None else lam
    l = np.arange(m, dtype=np.int64)
    two_pi = 2 * math.pi / m
    # i < i1: q e^{lam i} <= 1/2; -log(1 - z) = sum_n z^n/n, and each order is a geometric series in i
    i1 = min(m - 1, int(math.floor((a + math.log(_SERIES_RATIO)) / lam)))
    out = np.zeros(m, dtype=complex)
    if i1 >= 1:
        for n in range(1, 60):
            if n * (lam * i1 - a) < -40:
                break
            x = np.exp(n * lam - 1j * two_pi * ((n * l) % m))          # e^{n lam} w_l^n, |x| > 1
            lo = np.exp(n * (lam * 1 - a) - 1j * two_pi * ((n * l) % m))
            hi = np.exp(n * (lam * (i1 + 1) - a) - 1j * two_pi * ((n * (i1 + 1) * l) % m))
            out += (lo - hi) / (1 - x) / n                                 # q^n sum_{i=1}^{i1} x^i
    for i0 in range(i1 + 1, m, chunk):                                     # the rest directly
        i = np.arange(i0, min(i0 + chunk, m), dtype=np.int64)
        z = np.exp((lam * i - a)[:, None] - 1j * two_pi * ((np.outer(i, l)) % m))
        out -= np.log1p(-z).sum(axis=0)
    return out


def tail_profile(a, m, a_top=None):
    r""":math:`C_0..C_{m-1}` up to one common factor: :math:`p_k e^{\lambda k} \to c\,C_{k \bmod m}` (:math:`\lambda = a/m`).

    Normalised to :math:`\max_r C_r = 1` (the tail-limit loss is a ratio; the true constants can
    exceed the float range at large :math:`m/a`).

    >>> C = tail_profile(2.0, 1)                  # DLap(2): p_k e^{2k} = tanh(1), normalised to 1
    >>> [float(c) for c in C]
    [1.0]
    """
    a, m = float(a), int(m)
    a_top = _top(a, a_top)
    lam = (a if a_top is None else a_top) / m
    logB = _log_B_hat(a, m, lam=lam)
    beta = np.real(np.fft.ifft(np.exp(logB - logB.real.max())))    # beta_r (fold of the tilted B), scaled
    # C_r = (1-q)^{2m} sum_j alpha_j e^{-lam j} beta_{(j + r) mod m}
    J = int(math.ceil(45.0 / lam)) + m
    al = partition_series(a, m, J, a_top) * np.exp(-lam * np.arange(J + 1))
    fold = np.bincount(np.arange(J + 1) % m, weights=al, minlength=m)   # sum over j = s mod m
    # C_r = sum_s fold_s beta_{(s + r) mod m}: a cyclic correlation
    C = np.real(np.fft.ifft(np.conj(np.fft.fft(fold)) * np.fft.fft(beta)))
    return C / C.max()


def estimate(a, m, sigma, Delta=1.0, *, span=3.0, grid=8, refine=6, a_top=None):
    r"""Float64 estimate of :math:`\varepsilon^*` for large :math:`m`: dict ``epsilon``, ``window``, ``tail``, pairs, ``T``.

    >>> r = estimate(3.0, 4, 0.06)
    >>> r["epsilon"] >= r["tail"] > 0
    True
    """
    a, m, sigma, Delta = float(a), int(m), float(sigma), float(Delta)
    if not (a > 0 and m >= 1 and sigma > 0 and Delta > 0 and span > 0):
        raise ValueError(f"need a > 0, m >= 1, sigma > 0, Delta > 0, span > 0; got a={a}, m={m}, sigma={sigma}, "
                         f"Delta={Delta}, span={span}")
    a_top = _top(a, a_top)
    h, lam = Delta / m, (a if a_top is None else a_top) / m
    R = _kernel_radius(sigma, h)
    K = int(math.ceil((span + 1) * m)) + 2 * max(R, _kernel_radius(2 * h, h)) + 2   # one table for sigma <= 2h
    p = _window_pmf(a, m, K, a_top)
    k = np.arange(-K, K + 1)
    qt = p * np.exp(lam * k)                      # tilted: bounded, no underflow in the sums
    lam_h = lam / h
    dx = h / grid
    T = span * Delta
    W, wp = _max_loss(lambda t: _logF(t, qt, K, h, sigma, lam_h) - lam_h * t, 0.0, T, Delta, dx, refine)
    C = _tail_profile(a, m, a_top)
    L, lp = _max_loss(lambda t: _logF(t, None, 0, h, sigma, lam_h, profile=C) - lam_h * t, 0.0, Delta,
                      Delta, dx, refine)
    return {"epsilon": max(W, L), "window": W, "tail": L, "window_pair": wp, "tail_pair": lp, "T": T}


def mean_abs(a, m, sigma, h, *, span=None, a_top=None):
    r""":math:`E|Z| = \sum_k p_k E|hk + N(0, \sigma^2)|` from :func:`window_pmf` (mass beyond ``span`` :math:`\cdot m` dropped:
    about :math:`e^{-a\,\mathrm{span}}`; default ``span`` :math:`= \max(8, 40/a)`).

    >>> from arete_proofs.privacy import optimize_lattice
    >>> abs(mean_abs(3.0, 2, 0.2, 0.5) - optimize_lattice.mean_abs(3.0, 2, 0.2, 0.5)) < 1e-14
    True
    """
    from scipy import special

    m = int(m)
    a_top = _top(a, a_top)
    span = max(8.0, 40.0 / float(a if a_top is None else a_top)) if span is None else float(span)
    K = int(math.ceil(span * m)) + 2
    p = window_pmf(a, m, K, a_top=a_top)[K:]
    x = h * np.arange(K + 1)
    e = x * special.erf(x / (sigma * math.sqrt(2))) + 2 * sigma * np.exp(-0.5 * (x / sigma) ** 2) / math.sqrt(2 * math.pi)
    w = np.where(np.arange(K + 1) == 0, 1.0, 2.0)
    return float(np.sum(w * p * e))
