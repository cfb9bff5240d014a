r"""Secure aggregation modulo q with GDL / DLap shares: wrap-around, dropouts, exact privacy of the survivors' sum.

Secure aggregation adds integers in :math:`\mathbb Z_q`.  Each of :math:`n` parties holds an
integer :math:`x_i` and sends :math:`y_i = (x_i + Z_i) \bmod q` with a share
:math:`Z_i \sim \mathrm{GDL}(\beta/n, a)` (Harrison & Manurangsi, FORC 2025: negative binomial
shapes add, so :math:`\sum_i Z_i \sim \mathrm{GDL}(\beta, a)`; :math:`\beta = 1` is
:math:`\mathrm{DLap}(a)`, then each share is :math:`\mathrm{GDL}(1/n, a)`).  The server learns

.. math::

    R = \Big(\sum_{i \in S} y_i\Big) \bmod q = \Big(\sum_{i\in S} x_i + \sum_{i\in S} Z_i\Big) \bmod q,

for the set :math:`S` of parties that did not drop out (modular addition is a homomorphism).
If :math:`k` parties drop out, the remaining noise is :math:`\mathrm{GDL}((n-k)\beta/n, a)`:

* **privacy** (:func:`surviving_privacy`): :math:`R` is a function of :math:`\sum x_i + N`,
  :math:`N \sim \mathrm{GDL}((n-k)\beta/n, a)`, so it is :math:`\varepsilon^*`-DP with the
  exact tight :math:`\varepsilon^*` of that law at sensitivity :math:`\Delta`
  (:func:`arete_proofs.privacy.tight_gdl.tight_epsilon`; post-processing).  The reduction modulo
  :math:`q` can only lower the loss: :func:`modular_tight_epsilon` computes the exact loss of the
  wrapped law :math:`p_q(r) = \sum_j p(r + jq)` over every residue and every shift
  :math:`1 \le |s| \le \Delta` (finitely many), which is at most :math:`\varepsilon^*`;
* **error** (:func:`wrap_probability`, :func:`surviving_privacy`): the server decodes :math:`R`
  as the integer congruent to it in a window :math:`[w, w + q)`; if the true sum is :math:`T`,
  decoding is wrong by a multiple of :math:`q` (*wrap-around*) with probability
  :math:`P(N < w - T) + P(N \ge w + q - T)`, and otherwise the error is :math:`N`
  (:math:`\operatorname{Var} N = (n-k)\beta/(n(\cosh a - 1))`).

:func:`modular_sum` simulates the protocol (numpy integers; NB shares by Gamma-Poisson).

>>> r = surviving_privacy(10, 2, 1, "0.5", Delta=1)     # DLap(0.5) split in 10, 2 drop out: GDL(0.8, 0.5)
>>> r.beta, r.tight.attained, bool(r.epsilon > 0.5)     # beta < 1: more than a Delta = 0.5, attained at k = 0
(mpf('0.8'), True, True)
>>> out = modular_sum([3, 1, 4, 1, 5], q=64, beta=1, a=1, rng=0)
>>> int(out.released) == int((out.values.sum() + out.shares.sum()) % 64)   # sum of residues = residue of the sum
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from mpmath import mp

from . import sampling as _s
from .._validation import GUARD_DIGITS, parse_precision, positive, resolve_digits

__all__ = ["ModularRelease", "SurvivingSum", "share_variates", "modular_sum", "surviving_privacy", "MAX_EXACT_Q",
           "wrap_probability", "modular_tight_epsilon", "decode"]


def _modulus(q):
    if isinstance(q, bool) or not isinstance(q, (int, np.integer)) or q < 2:
        raise ValueError(f"q must be an integer >= 2 (the modulus), got {q!r}")
    return int(q)


def _parties(n, k):
    n = _s._count(n, "n")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < n:
        raise ValueError(f"dropped must be an integer with 0 <= dropped < n = {n}, got {k!r}")
    return n, int(k)


def _ba(beta, a, d):
    with mp.workdps(parse_precision(d)):
        return positive(beta, "beta"), positive(a, "a")


def share_variates(n, beta, a, size=None, rng=None):
    r"""One party's share :math:`\mathrm{GDL}(\beta/n, a) = N_1 - N_2`, :math:`N_i \sim \mathrm{NB}(\beta/n, 1 - e^{-a})` (int64).

    :math:`\mathrm{NB}(r, p)` by Gamma-Poisson: :math:`\Lambda \sim \Gamma(r, (1-p)/p)`, :math:`N \sim \mathrm{Poisson}(\Lambda)`.

    >>> z = share_variates(4, 2.0, 1.0, (200_000, 4), rng=1).sum(axis=1)     # 4 shares: GDL(2, 1)
    >>> bool(abs(z.var() / (2.0 / (math.cosh(1.0) - 1)) - 1) < 0.02)           # Var = beta/(cosh a - 1)
    True
    """
    n = _s._count(n, "n")
    b, a_ = (float(x) for x in _ba(beta, a, 15))
    g = _s.generator(rng)
    scale = math.exp(-a_) / -math.expm1(-a_)          # (1 - p)/p with p = 1 - e^{-a}
    n1 = g.poisson(g.gamma(b / n, scale, size))
    n2 = g.poisson(g.gamma(b / n, scale, size))
    return (np.asarray(n1, dtype=np.int64) - np.asarray(n2, dtype=np.int64)) if size is not None else int(n1 - n2)


def decode(released, q, window=0):
    r"""The integer :math:`\equiv` ``released`` :math:`\pmod q` in :math:`[w, w + q)`, :math:`w` = ``window``.

    >>> int(decode(62, 64, -32)), int(decode(5, 64, -32))
    (-2, 5)
    """
    q = _modulus(q)
    return (np.asarray(released, dtype=np.int64) - window) % q + window


@dataclass(frozen=True)
class ModularRelease:
    """One run of :func:`modular_sum`: ``values`` and ``shares`` of the surviving parties (last axis), the
    ``released`` residue :math:`R \\in [0, q)`, the ``decoded`` integer, the ``true_sum``, the surviving
    ``noise`` :math:`N`, and ``wrapped`` (decoded != true sum + noise).

    >>> out = modular_sum([[2, 2, 2]] * 500, q=8, beta=1, a="0.3", rng=2)     # DLap(0.3): sd 3.3 against q = 8
    >>> bool(out.wrapped.any()), bool(((out.decoded - out.true_sum - out.noise) % 8 == 0).all())
    (True, True)
    """

    values: Any
    shares: Any
    released: Any
    decoded: Any
    true_sum: Any
    noise: Any
    wrapped: Any
    q: int
    window: int


def modular_sum(values, q, beta, a, *, dropped=0, window=None, rng=None) -> ModularRelease:
    r"""Secure aggregation modulo ``q``: each party adds a :math:`\mathrm{GDL}(\beta/n, a)` share, ``dropped`` parties drop out.

    ``values``: integers, shape ``(n,)`` or ``(rounds, n)``; the last ``dropped`` parties of each round
    drop out (their value and share are missing; which ones drop does not matter, the shares are iid).
    ``window``: the decoding window's start :math:`w` (default :math:`-\lfloor q/2 \rfloor` plus half the
    largest possible sum, i.e. centred on the range of the survivors' sum for nonnegative values).

    >>> out = modular_sum([[1, 0, 1, 1]] * 1000, q=16, beta=2, a="0.5", dropped=1, rng=3)
    >>> bool(((out.released - out.values.sum(-1) - out.shares.sum(-1)) % 16 == 0).all())
    True
    """
    x = np.asarray(values)
    if x.ndim not in (1, 2) or x.shape[-1] < 1 or not np.issubdtype(x.dtype, np.integer):
        raise ValueError(f"values must be integers of shape (n,) or (rounds, n), got shape {x.shape} "
                         f"and dtype {x.dtype}")
    q = _modulus(q)
    n, k = _parties(x.shape[-1], dropped)
    alive = x[..., : n - k].astype(np.int64)
    z = share_variates(n, beta, a, alive.shape, rng)
    sent = (alive + z) % q                               # what each surviving party sends
    released = sent.sum(axis=-1) % q                     # the aggregator's sum in Z_q
    true_sum = alive.sum(axis=-1)
    noise = z.sum(axis=-1)
    if window is None:
        hi = int(max(0, alive.max(initial=0))) * (n - k)
        window = hi // 2 - q // 2
    dec = decode(released, q, int(window))
    return ModularRelease(alive, z, released, dec, true_sum, noise, dec != true_sum + noise, q, int(window))


def wrap_probability(beta, a, q, true_sum=0, window=None, *, digits=15):
    r"""Exact :math:`P(T + N \notin [w, w+q)) = P(N \le w - T - 1) + P(N \ge w + q - T)`, :math:`N \sim \mathrm{GDL}(\beta, a)`.

    ``window`` defaults to :math:`-\lfloor q/2 \rfloor` (a window centred on 0).

    >>> from mpmath import mp
    >>> p = wrap_probability(1, 1, 11, digits=20)            # DLap(1), |N| >= 6: 2 e^{-6}/(1 + e^{-1})
    >>> mp.almosteq(p, 2 * mp.exp(-6) / (1 + mp.exp(-1)))
    True
    """
    from ..distributions import gdl

    d = resolve_digits(digits)
    q = _modulus(q)
    w = -(q // 2) if window is None else int(window)
    T = int(true_sum)
    with mp.workdps(d + GUARD_DIGITS):
        return gdl.cdf(w - T - 1, beta, a, digits=d + 2) + gdl.sf(w + q - T - 1, beta, a, digits=d + 2)


@dataclass(frozen=True)
class SurvivingSum:
    r"""The noise of the survivors' sum: ``parties``, ``dropped``, its law :math:`\mathrm{GDL}(\beta, a)` (``beta``
    :math:`= (n-k)\beta_{\mathrm{design}}/n`), ``tight`` (:class:`~arete_proofs.privacy.tight_gdl.TightGDL`),
    ``epsilon``, ``var``, ``mean_abs`` and, for a modulus ``q``, ``wrap_probability`` (worst over the
    true sums of ``sum_range``) and ``modular_epsilon`` (exact, of the wrapped law; ``None`` unless requested).

    >>> r = surviving_privacy(4, 1, 1, 1, Delta=1, q=32, sum_range=(0, 3), modular=True)
    >>> bool(r.modular_epsilon <= r.epsilon), bool(r.wrap_probability < 1e-5)     # post-processing; rare wraps
    (True, True)
    """

    parties: int
    dropped: int
    beta: Any
    a: Any
    Delta: int
    tight: Any
    epsilon: Any
    var: Any
    mean_abs: Any
    q: int | None = None
    wrap_probability: Any = None
    modular_epsilon: Any = None


def surviving_privacy(n, dropped, beta, a, *, Delta=1, q=None, sum_range=(0, 0), window=None, modular=False,
                      digits=12) -> SurvivingSum:
    r"""Privacy and error of the sum when ``dropped`` of ``n`` parties drop out: noise :math:`\mathrm{GDL}((n-k)\beta/n, a)`.

    ``epsilon`` is the exact tight :math:`\varepsilon^*` of that law at integer sensitivity ``Delta``
    (:func:`arete_proofs.privacy.tight_gdl.tight_epsilon`); the released residue is a post-processing, so
    this is an upper bound of its privacy loss (``modular=True`` also computes the wrapped law's exact loss,
    :func:`modular_tight_epsilon`).  With ``q``: ``wrap_probability`` is the largest
    :func:`wrap_probability` over the true sums :math:`T \in` ``sum_range`` (the extremes, by unimodality).

    >>> from arete_proofs.privacy import tight_gdl
    >>> r = surviving_privacy(8, 3, "0.5", 1, Delta=2)
    >>> r.epsilon == tight_gdl.tight_epsilon(mp.mpf("0.5") * 5 / 8, 1, 2).epsilon
    True
    """
    from ..distributions import gdl
    from ..privacy import tight_gdl

    n, k = _parties(n, dropped)
    d = resolve_digits(digits)
    b0, a_ = _ba(beta, a, d)
    with mp.workdps(d + GUARD_DIGITS):
        b = b0 * (n - k) / n
        tight = tight_gdl.tight_epsilon(b, a_, Delta, digits=d)
        out = dict(parties=n, dropped=k, beta=b, a=a_, Delta=tight.Delta, tight=tight, epsilon=tight.epsilon,
                   var=gdl.var(b, a_, digits=d), mean_abs=gdl.mean_abs(b, a_, digits=d))
        if q is not None:
            q = _modulus(q)
            lo, hi = (int(v) for v in sum_range)
            out.update(q=q, wrap_probability=max(wrap_probability(b, a_, q, T, window, digits=d) for T in {lo, hi}))
            if modular:
                out["modular_epsilon"] = modular_tight_epsilon(b, a_, q, tight.Delta, digits=d)
    return SurvivingSum(**out)


#: Largest modulus :func:`modular_tight_epsilon` accepts (it evaluates the wrapped pmf at every residue).
MAX_EXACT_Q = 20_000


def modular_tight_epsilon(beta, a, q, Delta=1, *, digits=12):
    r"""Exact :math:`\max_{r \in \mathbb Z_q,\ 1 \le |s| \le \Delta} \ln p_q(r) - \ln p_q(r + s)`, :math:`p_q(r) = \sum_{j} p(r + jq)`.

    The released residue's loss: finitely many residues and shifts, so a maximum, not a supremum.
    The wrapped pmf sums :math:`p` over :math:`|x| \le K` with :math:`P(|N| > K) \le 10^{-(\text{digits}+10)}`
    (the exact survival function), so each :math:`p_q(r)` has ``digits`` correct digits.  Symmetric in
    :math:`r \mapsto -r`; at most the unwrapped :math:`\varepsilon^*` (post-processing), and equal to
    it in the limit :math:`q \to \infty` only where that is attained (:math:`\beta \le 1`).

    >>> from arete_proofs.privacy import tight_gdl
    >>> e = modular_tight_epsilon("0.5", "0.7", 64, 3, digits=15)
    >>> bool(e <= tight_gdl.tight_epsilon("0.5", "0.7", 3).epsilon)
    True
    """
    from ..distributions import gdl

    d = resolve_digits(digits)
    q = _modulus(q)
    if q > MAX_EXACT_Q:
        raise ValueError(f"q must be at most {MAX_EXACT_Q} for the exact modular epsilon, got {q}")
    D = int(Delta)
    if isinstance(Delta, bool) or D != Delta or D < 1:
        raise ValueError(f"Delta must be an integer >= 1, got {Delta!r}")
    b, a_ = _ba(beta, a, d)
    wd = d + GUARD_DIGITS
    with mp.workdps(wd):
        K = q
        while 2 * gdl.sf(K, b, a_, digits=8) > mp.mpf(10) ** (-d - 10) * gdl.pmf(q // 2, b, a_, digits=8):
            K *= 2
        p = gdl.pmf_range(K, b, a_, digits=wd)
        wrapped = [mp.zero] * q
        for x in range(-K, K + 1):
            wrapped[x % q] += p[abs(x)]
        lw = [mp.log(v) for v in wrapped]
        best = mp.ninf
        for s in range(1, min(D, q - 1) + 1):
            for r in range(q):
                best = max(best, lw[r] - lw[(r + s) % q], lw[(r + s) % q] - lw[r])
        return best
