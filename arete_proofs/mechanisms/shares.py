r"""Distributed summation with infinitely divisible noise shares (Lemma 10, Appendix A).

* :func:`distributed_sum` -- each party adds a Lemma 10 share to its value, the
  (securely aggregated) sum is released; ``NaN`` marks a dropout, fewer than
  ``n_min`` contributors is refused;
* :func:`sum_noise` (:class:`SumNoise`) -- the exact law of the noise in that sum:
  with :math:`m` contributors and shares sized for :math:`n_{\min}`, the
  :math:`k`-th convolution power of :math:`\mathrm{Arete}(\alpha,\theta,\lambda)`,
  :math:`k = m/n_{\min}`;
* :func:`cf_mean_abs` -- :math:`E|N|` of a sum of Gamma differences from its
  characteristic function, :math:`E|N| = \frac2\pi\int_0^\infty (1-\varphi(u))\,u^{-2}du`.

>>> noise = sum_noise(20, 10, 0.5, 2.0, 0.25)     # twice the designed number of parties: k = 2
>>> noise.k, noise.var() == 2 * (2 * 0.5 * 2.0**2 + 2 * 0.25**2)   # Var N = k Var Z (Lemma 3)
(2.0, True)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from mpmath import mp

from . import sampling as _s
from .._validation import PrecisionError, positive
from ..distributions.params import lemma3_applies as _lemma3_applies
from ..distributions.params import paper_parameters
from .noise import _DIGITS, _mp_positive

__all__ = [
    "SumNoise",
    "sum_noise",
    "cf_mean_abs",
    "distributed_sum",
]


def cf_mean_abs(components, *, digits=12):
    r""":math:`E|N|` for :math:`N = \sum_i (G_i - G_i')`, :math:`G_i, G_i' \sim \Gamma(a_i, s_i)` independent.

    ``components``: pairs ``(a_i, s_i)``; Arete is ``[(alpha, theta), (1, lam)]``.
    From :math:`|x| = \frac2\pi\int_0^\infty (1-\cos ux)\,u^{-2}du` and Tonelli,

    .. math::

        E|N| = \frac{2}{\pi}\int_0^\infty \frac{1 - \varphi(u)}{u^2}\,du, \qquad
        \varphi(u) = \prod_i (1 + s_i^2u^2)^{-a_i}

    (:math:`\varphi` is real and in :math:`(0, 1]`: each :math:`G - G'` has
    characteristic function :math:`(1+s^2u^2)^{-a}`).  Evaluated with mpmath's
    tanh-sinh rule split at :math:`1/s_i, 10/s_i, 100/s_i` at two working precisions;
    they must agree to ``digits`` significant digits, else :class:`~arete_proofs.PrecisionError`.

    >>> from mpmath import mp
    >>> from arete_proofs import arete
    >>> # Arete: agrees with the closed form of arete.mean_abs (an independent formula)
    >>> a, th, lam = "0.08", "0.4", "0.08"
    >>> abs(cf_mean_abs([(a, th), (1, lam)]) / arete.mean_abs(a, th, lam, digits=15) - 1) < 1e-12
    True
    >>> # the sum of two Laplace(lam) has density (1 + |s|/lam) e^(-|s|/lam)/(4 lam): E|S| = 3 lam/2
    >>> abs(cf_mean_abs([(2, "0.5")]) - 0.75) < 1e-12
    True
    """
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or not 1 <= digits <= 40:
        raise ValueError(f"digits must be an integer between 1 and 40, got {digits!r}")
    comps = list(components)
    if not comps:
        raise ValueError("components must not be empty")

    def run(wd):
        with mp.workdps(wd):
            cs = [(positive(a, "shape"), positive(s, "scale")) for a, s in comps]

            def f(u):
                if u == 0:
                    return sum(a * s * s for a, s in cs)
                lp = -sum(a * mp.log1p((s * u) ** 2) for a, s in cs)
                return -mp.expm1(lp) / (u * u)

            pts = {mp.zero}
            for _a, s in cs:
                pts.update({1 / s, 10 / s, 100 / s})
            return 2 * mp.quad(f, sorted(pts) + [mp.inf]) / mp.pi

    v1 = run(digits + 12)
    v2 = run(digits + 22)
    with mp.workdps(digits + 22):
        if abs(v1 - v2) > mp.mpf(10) ** (-digits - 1) * abs(v2):
            raise PrecisionError("characteristic-function integral for E|N| did not converge")
    return float(v2)


@dataclass(frozen=True)
class SumNoise:
    r"""Law of the noise in a distributed sum: :math:`N = \sum_i (G_i - G_i')`, :math:`G_i, G_i' \sim \Gamma(a_i, s_i)`.

    ``components``: the pairs :math:`(a_i, s_i)`; ``k`` = contributors / ``n_min``.
    For Arete shares sized for ``n_min`` and :math:`m` contributors the components are
    :math:`(k\alpha, \theta)` and :math:`(k, \lambda)` (see :func:`sum_noise`).

    >>> # one share per party for exactly n_min parties: the noise is Arete(alpha, theta, lam)
    >>> noise = sum_noise(10, 10, 0.5, 2.0, 0.25)
    >>> noise.k, noise.var() == 2 * 0.5 * 2.0**2 + 2 * 0.25**2     # Var Z = 2 alpha theta^2 + 2 lam^2
    (1.0, True)
    """

    components: tuple
    k: float
    contributors: int
    n_min: int
    description: str

    def mean_abs(self, digits=12) -> float:
        """Exact :math:`E|N|` (:func:`cf_mean_abs`)."""
        return cf_mean_abs(self.components, digits=digits)

    def var(self) -> float:
        r""":math:`\operatorname{Var} N = \sum_i 2a_is_i^2`."""
        return float(sum(2.0 * a * s * s for a, s in self.components))

    def sample(self, size=None, rng=None):
        """Direct draws of :math:`N` (one Gamma pair per component, not via shares)."""
        g = _s.generator(rng)
        sz = _s._size(size)
        shape = (1,) if sz is None else sz
        out = np.zeros(shape)
        for a, s in self.components:
            out += _s._gg(g, a, s, shape)
        return _s._finish(out, sz)


def sum_noise(contributors, n_min, alpha, theta, lam) -> SumNoise:
    r"""Exact law of the noise when ``contributors`` parties each add an Arete share sized for ``n_min``.

    Each party adds :math:`A_i - B_i + C_i - D_i` with :math:`A_i, B_i \sim \Gamma(\alpha/n_{\min}, \theta)`,
    :math:`C_i, D_i \sim \Gamma(1/n_{\min}, \lambda)` (Lemma 10 for :math:`n = n_{\min}`).
    Gamma shapes add (Lemma 8's argument), so with :math:`m` contributors and
    :math:`k = m/n_{\min}`

    .. math::

        N = \Gamma(k\alpha,\theta) - \Gamma(k\alpha,\theta) + \Gamma(k,\lambda) - \Gamma(k,\lambda),
        \qquad \varphi_N(u) = \big[(1+\theta^2u^2)^{-\alpha}(1+\lambda^2u^2)^{-1}\big]^k = \varphi_A(u)^k,

    the :math:`k`-th convolution power of :math:`\mathrm{Arete}(\alpha,\theta,\lambda)`: both
    shape parameters (:math:`\alpha`, and the Laplace part's implicit shape 1) are
    scaled by :math:`k`.  It is :math:`\mathrm{Arete}(\alpha,\theta,\lambda)` exactly for
    :math:`m = n_{\min}`; for :math:`k \ne 1` the second part is a Gamma-Gamma (variance-gamma)
    law of shape :math:`k`, not a Laplace law, so :math:`N` is *not* an Arete variable.
    For :math:`k \ge 1`, :math:`N \overset{d}{=} Z + W` with :math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)`
    and independent :math:`W = \Gamma{-}\Gamma((k-1)\alpha,\theta) + \Gamma{-}\Gamma(k-1,\lambda)`
    (:math:`W = 0` for :math:`k = 1`).  Hence

    * privacy: the released sum is a post-processing (adding data-independent
      :math:`W`) of the Arete mechanism's output, so it is at least as private as the
      designed mechanism (paper, Appendix A, Note);
    * :math:`\operatorname{Var} N = k(2\alpha\theta^2 + 2\lambda^2)`;
    * :math:`E|N| \ge E|Z|` (Jensen, :math:`E W = 0`) and, by Anderson's inequality
      (:math:`f_A` is symmetric and unimodal, Lemma 2; :math:`W` symmetric),
      :math:`P(|N| > t) \ge P(|Z| > t)` for every :math:`t`: more participants only add noise.

    :math:`m < n_{\min}` (too many dropouts) would give *less* than the designed noise;
    :func:`distributed_sum` refuses it.

    >>> noise = sum_noise(100, 80, 0.08, 0.4, 0.08)
    >>> noise.k, noise.components
    (1.25, ((0.1, 0.4), (1.25, 0.08)))
    >>> from arete_proofs import arete
    >>> noise.mean_abs() > float(arete.mean_abs(0.08, 0.4, 0.08))       # at least the designed error
    True
    """
    m = _s._count(contributors, "contributors")
    n = _s._count(n_min, "n_min")
    a = _s._positive(alpha, "alpha")
    th = _s._positive(theta, "theta")
    lam = _s._positive(lam, "lam")
    k = m / n
    desc = (f"Gamma-Gamma({k:g}*alpha, theta) + Gamma-Gamma({k:g}, lam) = Arete^(*{k:g})"
            f"(alpha={a:g}, theta={th:g}, lam={lam:g})")
    return SumNoise(((k * a, th), (k, lam)), k, m, n, desc)


def _laplace_sum_noise(contributors, n_min, lam) -> SumNoise:
    """Laplace shares Gamma(1/n_min, lam) - Gamma(1/n_min, lam): the sum is Gamma-Gamma(k, lam)."""
    k = contributors / n_min
    return SumNoise(((k, lam),), k, contributors, n_min,
                    f"Gamma-Gamma({k:g}, lam) = Laplace^(*{k:g})(lam={lam:g})")


def _arete_params(eps, Delta, params):
    """``(alpha, theta, lam)`` floats from ``params`` (None: Lemma 3) and the lemma flag."""
    if params is None:
        e = _mp_positive(eps, "eps")
        D = _mp_positive(Delta, "Delta")
        a, th, lam = paper_parameters(e, D, digits=_DIGITS + 20)
        return (float(a), float(th), float(lam)), _lemma3_applies(e, D)
    if isinstance(params, dict):
        try:
            params = (params["alpha"], params["theta"], params["lam"])
        except KeyError as exc:
            raise ValueError(f"params must have keys alpha, theta, lam; missing {exc}") from None
    try:
        a, th, lam = params
    except (TypeError, ValueError):
        raise ValueError(f"params must be None, (alpha, theta, lam) or a dict, got {params!r}") from None
    return (_s._positive(a, "alpha"), _s._positive(th, "theta"), _s._positive(lam, "lam")), None


def _share_components(mechanism, eps, Delta, params):
    """Per-sum components for k = 1 and metadata: ``[(shape, scale), ...]`` of the designed noise."""
    if mechanism == "arete":
        (a, th, lam), applies = _arete_params(eps, Delta, params)
        return [(a, th), (1.0, lam)], {"alpha": a, "theta": th, "lam": lam, "lemma3_applies": applies}
    if mechanism == "laplace":
        if params is not None:
            raise ValueError("params must be None for mechanism='laplace' (lam = Delta/eps)")
        lam = _s._positive(Delta, "Delta") / _s._positive(eps, "eps")
        return [(1.0, lam)], {"lam": lam}
    if mechanism == "staircase":
        raise ValueError("mechanism: the staircase distribution is not infinitely divisible; "
                         "it cannot be split into shares (use 'arete' or 'laplace')")
    raise ValueError(f"mechanism must be 'arete' or 'laplace', got {mechanism!r}")


def _draw_shares(g, comps, n_min, shape):
    """Shares for ``n_min``: sum over components of Gamma(a/n_min, s) - Gamma(a/n_min, s)."""
    out = np.zeros(shape)
    for a, s in comps:
        out += _s._gg(g, a / n_min, s, shape)
    return out


def distributed_sum(values, Delta, eps, n_min, rng=None, *, mechanism="arete", params=None):
    r"""Release :math:`\sum_i (x_i + \eta_i)` where every contributing party adds a noise share :math:`\eta_i` sized for ``n_min``.

    ``values``: one entry per party, in :math:`[0, \Delta]`; ``NaN`` marks a party that
    dropped out (it sends neither value nor share).  With :math:`m \ge n_{\min}`
    contributors the noise in the released sum is :func:`sum_noise`'s
    :math:`N = \mathrm{Arete}(\alpha,\theta,\lambda)^{*k}`, :math:`k = m/n_{\min}`, at least the
    designed noise; :math:`m < n_{\min}` raises :class:`ValueError` (the noise would be
    below the designed level).  ``mechanism='arete'`` (shares of Lemma 10,
    parameters ``params`` = ``(alpha, theta, lam)`` or ``None`` for Lemma 3's at
    ``eps``, ``Delta``) or ``'laplace'`` (shares :math:`\Gamma(1/n_{\min},\Delta/\varepsilon) -
    \Gamma(1/n_{\min},\Delta/\varepsilon)`, Goryczka and Xiong 2017).  The Staircase
    distribution is not infinitely divisible and is refused.

    In this simulation the sum is formed in the clear; the shares are only safe
    inside secure aggregation (an individual share with a tiny shape is often 0,
    module :mod:`arete_proofs.mechanisms.sampling`).

    >>> import numpy as np
    >>> x = np.full(100, 0.5); x[:15] = np.nan                    # 15 of 100 parties drop out
    >>> out = distributed_sum(x, 1, 10, 80, rng=1)
    >>> noise = sum_noise(85, 80, *(float(v) for v in paper_parameters(10, 1)))
    >>> bool(abs(out - 42.5) < 40 * noise.mean_abs())              # Markov: P(|N| > 40 E|N|) < 1/40
    True
    """
    D = _s._positive(Delta, "Delta")
    _s._positive(eps, "eps")
    n = _s._count(n_min, "n_min")
    try:
        x = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"values must be a 1-D array of reals, got {values!r}") from None
    if x.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {x.shape}")
    present = ~np.isnan(x)
    xs = x[present]
    if np.any(~np.isfinite(xs)) or np.any(xs < 0) or np.any(xs > D):
        raise ValueError(f"values must lie in [0, Delta] = [0, {D:g}] (NaN marks a dropout)")
    m = int(xs.size)
    if m < n:
        raise ValueError(f"n_min: only {m} parties contributed, fewer than n_min = {n}; "
                         "the sum would carry less than the designed noise")
    comps, _meta = _share_components(mechanism, eps, D, params)
    g = _s.generator(rng)
    reports = xs + _draw_shares(g, comps, n, (m,))  # what each party sends to the aggregator
    return float(reports.sum())
