r"""Noise-adding mechanisms (Definition 4, Lemmas 26 and 27) and distributed summation (Lemma 10, Appendix A).

* :class:`AreteMechanism` -- releases :math:`q(x) + Z`, :math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)`
  (Definition 4), with Lemma 3's parameters :math:`\alpha = \lambda = e^{-\varepsilon/4}`,
  :math:`\theta = 4\Delta/\varepsilon` or given ones;
* :class:`LaplaceMechanism` -- :math:`\mathrm{Laplace}(\Delta/\varepsilon)` (Lemma 26);
* :class:`StaircaseMechanism` -- :math:`SC(\gamma,\Delta)` (Lemma 27), :math:`\gamma`
  optimal for :math:`E|X|` (default), for the variance, or given;
* :func:`distributed_sum` -- each party adds a Lemma 10 share to its value, the
  (securely aggregated) sum is released; :func:`sum_noise` describes the exact
  law of the noise in that sum; :func:`simulate` measures it;
* :func:`figure_2_data` -- the empirical CDFs of the paper's Figure 2.

``expected_abs_error`` and ``variance`` are exact (closed forms evaluated with
mpmath, returned as floats); ``epsilon`` is the tight privacy parameter: for
Arete :func:`arete_proofs.privacy.tight.tight_epsilon` (``None`` when that module is
not available or cannot certify the value), for Laplace and Staircase the
designed :math:`\varepsilon` (which is tight for both: Lemma 26's density ratio
is exactly :math:`e^{\varepsilon}` for every :math:`t \ge 0`, and the staircase
jumps by :math:`e^{\varepsilon}` at :math:`\gamma\Delta`).

**Vectors.**  ``release`` on an array adds independent noise to every coordinate
(the paper's remark for :math:`\ell_\infty` sensitivity :math:`\Delta`, Section 2).  Each
coordinate is then :math:`\varepsilon`-DP; a neighbouring input that changes all
:math:`d` coordinates by up to :math:`\Delta` is covered, by composition, at
:math:`d\varepsilon`, not :math:`\varepsilon`.

**Caveat: floating point.**  These mechanisms draw continuous noise with float64
arithmetic and add it to a float64 value.  Mironov (2012, "On significance of
the least significant bits for differential privacy", CCS) showed that such
implementations of the Laplace mechanism are *not* differentially private: the
set of floats a textbook sampler can output depends on the secret value (the low
bits of ``q(x) + noise`` reveal ``q(x)``), and the same attack applies to the
Gamma and staircase samplers here.  They are for simulation, plots and tests.
A production system would instead

* discretize: release noise on a fixed grid, e.g. Mironov's *snapping mechanism*
  (clamp, add noise from an exact uniform-precision sampler, round to a power-of-two
  grid, clamp again, with a slightly larger :math:`\varepsilon`);
* or work with integers throughout: scale and round the values to an integer grid
  and add integer-valued noise sampled exactly with integer arithmetic, e.g.
  discrete Laplace (geometric) noise, which is infinitely divisible as a difference
  of negative-binomial shares (Goryczka and Xiong 2017), or a discretized Arete
  (differences of Poisson/negative-binomial style integer shares) sampled by exact
  rejection samplers such as Canonne, Kamath and Steinke's (2020) for the discrete
  Laplace and Gaussian;
* and, in the distributed setting, aggregate the integer shares with secure
  aggregation over a finite group :math:`\mathbb{Z}_m` (Bonawitz et al. 2017;
  Kairouz, Liu and Steinke 2021), with :math:`m` large enough that the sum does not wrap.

>>> import numpy as np
>>> m = AreteMechanism(20, 1)                      # Lemma 3's parameters at eps = 20, Delta = 1
>>> m.lemma3_applies, m.params_source
(True, 'paper')
>>> # Lemma 3: E|Z| <= 2 alpha theta + lam and Var Z = 2 alpha theta^2 + 2 lam^2
>>> m.expected_abs_error <= 2 * m.alpha * m.theta + m.lam
True
>>> bool(np.isclose(m.variance, 2 * m.alpha * m.theta**2 + 2 * m.lam**2, rtol=1e-14))
True
>>> m.release(np.zeros((2, 3)), rng=1).shape       # independent noise per coordinate
(2, 3)
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
from mpmath import mp

from ..distributions import arete as _arete
from . import sampling as _s
from ..distributions import staircase as _sc
from .._validation import PrecisionError, positive
from ..distributions.params import lemma3_applies as _lemma3_applies
from ..distributions.params import paper_parameters

__all__ = [
    "AreteMechanism",
    "LaplaceMechanism",
    "StaircaseMechanism",
    "SumNoise",
    "sum_noise",
    "cf_mean_abs",
    "distributed_sum",
    "simulate",
    "figure_2_data",
]

_DIGITS = 20  # working digits of the exact moments (returned as float64)


def _mp_positive(value, name, digits=_DIGITS + 20):
    with mp.workdps(digits):
        return positive(value, name)


def _value_array(value):
    if isinstance(value, bool):
        raise ValueError(f"value must be real, got {value!r}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"value must be a real number or array, got {value!r}") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError("value must be finite")
    return arr


class _Mechanism:
    """Common part: ``release`` adds ``noise(shape)`` to a scalar or an array."""

    Delta: float

    def noise(self, size=None, rng=None):  # pragma: no cover - abstract
        raise NotImplementedError

    def release(self, value, rng=None):
        """``value + noise``: a float for a scalar, an array of the same shape (independent noise per entry) otherwise."""
        arr = _value_array(value)
        if arr.ndim == 0:
            return float(arr) + self.noise(None, rng)
        return arr + self.noise(arr.shape, rng)


class AreteMechanism(_Mechanism):
    r"""The Arete mechanism (Definition 4): release :math:`q(x) + Z`, :math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)`.

    ``AreteMechanism(eps, Delta)`` uses Lemma 3's parameters
    :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`
    (``params_source == 'paper'``; ``lemma3_applies`` tells whether the lemma's
    hypotheses :math:`\Delta \ge 2/e`, :math:`\varepsilon \ge 20 + 4\ln\Delta` hold, i.e.
    whether the paper *proves* :math:`\varepsilon`-DP); ``AreteMechanism(Delta=..., alpha=...,
    theta=..., lam=...)`` uses given parameters (``eps`` then only records a target).

    ``epsilon`` is the tight :math:`\varepsilon^* = \sup_t \ln f_A(t)/f_A(t+\Delta)` from
    :func:`arete_proofs.privacy.tight.tight_epsilon` (``tight_digits`` significant digits),
    ``None`` if unavailable.

    >>> m = AreteMechanism(10, 1)                 # Lemma 3's formulas outside the lemma's range
    >>> m.lemma3_applies, m.epsilon < 10          # still private: tight epsilon 6.3927 (privacy.tight_epsilon)
    (False, True)
    >>> g = AreteMechanism(alpha=0.1, theta=1, lam=2)
    >>> g.epsilon == 0.5                          # lam >= theta: tight epsilon = Delta/lam exactly
    True
    """

    def __init__(self, eps=None, Delta=1, *, alpha=None, theta=None, lam=None, tight_digits=8):
        self.Delta = float(_mp_positive(Delta, "Delta"))
        given = [x is not None for x in (alpha, theta, lam)]
        if any(given):
            for x, name in zip((alpha, theta, lam), ("alpha", "theta", "lam")):
                if x is None:
                    raise ValueError(f"{name} must be given together with the other Arete parameters")
            self._exact = tuple(_mp_positive(x, n) for x, n in zip((alpha, theta, lam), ("alpha", "theta", "lam")))
            self.params_source = "given"
            self.lemma3_applies = None
            self.target_eps = None if eps is None else float(_mp_positive(eps, "eps"))
        else:
            if eps is None:
                raise ValueError("eps must be given (or alpha, theta and lam)")
            e = _mp_positive(eps, "eps")
            self._exact = paper_parameters(e, _mp_positive(Delta, "Delta"), digits=_DIGITS + 20)
            self.params_source = "paper"
            self.lemma3_applies = _lemma3_applies(eps, Delta)
            self.target_eps = float(e)
        self.alpha, self.theta, self.lam = (float(x) for x in self._exact)
        if isinstance(tight_digits, bool) or not isinstance(tight_digits, numbers.Integral) or tight_digits < 1:
            raise ValueError(f"tight_digits must be a positive integer, got {tight_digits!r}")
        self.tight_digits = int(tight_digits)
        self._tight = None
        self._tight_done = False
        self.epsilon_note = None

    def __repr__(self):
        return f"AreteMechanism(alpha={self.alpha!r}, theta={self.theta!r}, lam={self.lam!r}, Delta={self.Delta!r})"

    def noise(self, size=None, rng=None):
        """Arete draws (:func:`arete_proofs.mechanisms.sampling.arete`)."""
        return _s.arete(self.alpha, self.theta, self.lam, size, rng)

    @property
    def expected_abs_error(self) -> float:
        r"""Exact :math:`E|Z|` (:func:`arete_proofs.distributions.arete.mean_abs`, closed form)."""
        return float(_arete.mean_abs(*self._exact, digits=_DIGITS))

    @property
    def variance(self) -> float:
        r""":math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2` (Lemma 3)."""
        return float(_arete.var(*self._exact, digits=_DIGITS))

    def tight_epsilon(self):
        """The :class:`arete_proofs.privacy.tight.TightEpsilon` result, or ``None`` (reason in ``epsilon_note``)."""
        if not self._tight_done:
            self._tight_done = True
            try:
                from ..privacy import tight as privacy
            except ImportError as exc:  # privacy.py not installed: degrade gracefully
                self.epsilon_note = f"arete_proofs.privacy.tight unavailable: {exc}"
                return None
            try:
                self._tight = privacy.tight_epsilon(*self._exact, self.Delta, digits=self.tight_digits)
            except (PrecisionError, ArithmeticError) as exc:
                self.epsilon_note = f"tight epsilon not certified: {exc}"
        return self._tight

    @property
    def epsilon(self):
        r"""Tight :math:`\varepsilon^*` as a float (``None`` if it cannot be computed)."""
        r = self.tight_epsilon()
        return None if r is None else float(r.epsilon)


class LaplaceMechanism(_Mechanism):
    r"""The Laplace mechanism (Lemma 26): :math:`q(x) + \mathrm{Laplace}(\Delta/\varepsilon)`.

    :math:`E|X| = \lambda`, :math:`\operatorname{Var} X = 2\lambda^2`, :math:`\lambda = \Delta/\varepsilon`.

    >>> m = LaplaceMechanism(4, 2)
    >>> m.lam, m.expected_abs_error, m.variance, m.epsilon
    (0.5, 0.5, 0.5, 4.0)
    """

    def __init__(self, eps, Delta=1):
        e = _mp_positive(eps, "eps")
        D = _mp_positive(Delta, "Delta")
        self.epsilon = self.target_eps = float(e)
        self.Delta = float(D)
        with mp.workdps(_DIGITS + 20):
            self._lam = D / e
        self.lam = float(self._lam)

    def __repr__(self):
        return f"LaplaceMechanism(eps={self.epsilon!r}, Delta={self.Delta!r})"

    def noise(self, size=None, rng=None):
        """Laplace draws (:func:`arete_proofs.mechanisms.sampling.laplace`)."""
        return _s.laplace(self.lam, size, rng)

    @property
    def expected_abs_error(self) -> float:
        r""":math:`E|X| = \Delta/\varepsilon`."""
        return self.lam

    @property
    def variance(self) -> float:
        r""":math:`2(\Delta/\varepsilon)^2`."""
        with mp.workdps(_DIGITS + 20):
            return float(2 * self._lam**2)


class StaircaseMechanism(_Mechanism):
    r"""The Staircase mechanism (Lemma 27): :math:`q(x) + X`, :math:`X \sim SC(\gamma, \Delta)` at level :math:`\varepsilon`.

    ``gamma``: ``'mean_abs'`` (default, :math:`\gamma^* = 1/(1+e^{\varepsilon/2})`,
    :func:`arete_proofs.distributions.staircase.gamma_mean_abs`), ``'variance'``
    (:func:`arete_proofs.distributions.staircase.gamma_var`) or a number in :math:`[0, 1]`.

    >>> m, v = StaircaseMechanism(10), StaircaseMechanism(10, gamma="variance")
    >>> # each gamma is optimal for its own criterion (Lemma 27's remark: they differ)
    >>> m.expected_abs_error < v.expected_abs_error and v.variance < m.variance
    True
    """

    def __init__(self, eps, Delta=1, *, gamma="mean_abs"):
        e = _mp_positive(eps, "eps")
        D = _mp_positive(Delta, "Delta")
        self.epsilon = self.target_eps = float(e)
        self.Delta = float(D)
        if isinstance(gamma, str):
            if gamma == "mean_abs":
                g = _sc.gamma_mean_abs(e, digits=_DIGITS)
            elif gamma == "variance":
                g = _sc.gamma_var(e, digits=_DIGITS)
            else:
                raise ValueError(f"gamma must be 'mean_abs', 'variance' or a number in [0, 1], got {gamma!r}")
            self.gamma_choice = gamma
        else:
            g = float(_s._unit(gamma, "gamma"))
            self.gamma_choice = "given"
        self._args = (g, D, e)
        self.gamma = float(g)

    def __repr__(self):
        return f"StaircaseMechanism(eps={self.epsilon!r}, Delta={self.Delta!r}, gamma={self.gamma!r})"

    def noise(self, size=None, rng=None):
        """Staircase draws (:func:`arete_proofs.mechanisms.sampling.staircase`)."""
        return _s.staircase(self.gamma, self.Delta, self.epsilon, size, rng)

    @property
    def expected_abs_error(self) -> float:
        """Exact :math:`E|X|` (:func:`arete_proofs.distributions.staircase.mean_abs`)."""
        return float(_sc.mean_abs(*self._args, digits=_DIGITS))

    @property
    def variance(self) -> float:
        """Exact :math:`\\operatorname{Var} X` (:func:`arete_proofs.distributions.staircase.var`)."""
        return float(_sc.var(*self._args, digits=_DIGITS))


# ---------------------------------------------------------------------------
# the noise of a distributed sum
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# simulation
# ---------------------------------------------------------------------------


def _empirical(err):
    """Mean |error|, its standard error, sample variance and the standard error of that."""
    N = err.size
    a = np.abs(err)
    ma = float(a.mean())
    v = float(err.var(ddof=1)) if N > 1 else float("nan")
    if N > 1:
        se_ma = float(a.std(ddof=1) / math.sqrt(N))
        c = err - err.mean()
        m4 = float(np.mean(c**4))
        se_v = float(math.sqrt(max(m4 - v * v, 0.0) / N))
    else:
        se_ma = se_v = float("nan")
    return {"empirical_mean_abs": ma, "empirical_mean_abs_se": se_ma,
            "empirical_var": v, "empirical_var_se": se_v}


def _protocol_errors(g, comps, n_min, parties, rounds, Delta):
    """Errors ``released - true sum`` of ``rounds`` runs with ``parties`` contributors (values uniform on [0, Delta])."""
    err = np.empty(rounds)
    cols = min(parties, _s._CHUNK)
    step = max(1, _s._CHUNK // cols)
    for r0 in range(0, rounds, step):
        r1 = min(rounds, r0 + step)
        released = np.zeros(r1 - r0)
        truth = np.zeros(r1 - r0)
        for c0 in range(0, parties, cols):
            shape = (r1 - r0, min(cols, parties - c0))
            x = g.random(shape) * Delta
            truth += x.sum(axis=1)
            released += (x + _draw_shares(g, comps, n_min, shape)).sum(axis=1)
        err[r0:r1] = released - truth
    return err


def simulate(parties, min_parties, eps, rounds, seed=None, Delta=1, *, params="paper",
             alpha=None, theta=None, lam=None, tight=True):
    r"""Simulate :func:`distributed_sum` ``rounds`` times; compare with exact errors and with Laplace and Staircase.

    ``parties`` contribute in every round, each with a share sized for
    ``min_parties`` (so :math:`k = \text{parties}/\text{min\_parties}`, :func:`sum_noise`);
    party values are uniform on :math:`[0, \Delta]`.  ``params='paper'`` uses Lemma 3's
    :math:`(\alpha,\theta,\lambda)` for ``eps``, ``Delta``; ``params='given'`` takes
    ``alpha``, ``theta``, ``lam``.  ``tight=True`` also reports the tight
    :math:`\varepsilon^*` of the designed Arete noise (about a second; ``None`` if
    :mod:`arete_proofs.privacy.tight` is unavailable).

    Returns a JSON-serialisable dict: ``params`` (the parameters used and Lemma 3's
    flag), ``arete`` (the distributed Arete sum: exact :math:`E|N|` and
    :math:`\operatorname{Var} N` for the actual number of parties, the designed
    values for ``min_parties``, empirical values with standard errors),
    ``laplace_distributed`` (the same protocol with Laplace shares),
    ``laplace`` and ``staircase`` (central mechanisms at the same :math:`\varepsilon`,
    :math:`\gamma` optimal for :math:`E|X|`), each with ``exact_mean_abs``,
    ``exact_var`` and ``empirical_*``.

    >>> r = simulate(10, 5, 20, 4000, seed=1, tight=False)
    >>> r["arete"]["k"], r["params"]["lemma3_applies"]
    (2.0, True)
    >>> # Var N = k Var Z exactly; the empirical variance within 5 standard errors of it
    >>> a = r["arete"]
    >>> a["exact_var"] == 2 * a["designed_var"], abs(a["empirical_var"] - a["exact_var"]) < 5 * a["empirical_var_se"]
    (True, True)
    """
    P = _s._count(parties, "parties")
    Q = _s._count(min_parties, "min_parties")
    if Q > P:
        raise ValueError(f"min_parties must be <= parties, got min_parties={min_parties!r} > parties={parties!r}")
    R = _s._count(rounds, "rounds")
    e = _s._positive(eps, "eps")
    D = _s._positive(Delta, "Delta")
    if seed is not None and not isinstance(seed, np.random.Generator):
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    if params == "paper":
        for x, name in zip((alpha, theta, lam), ("alpha", "theta", "lam")):
            if x is not None:
                raise ValueError(f"{name} is only used with params='given'")
        mech = AreteMechanism(e, D)
    elif params == "given":
        for x, name in zip((alpha, theta, lam), ("alpha", "theta", "lam")):
            if x is None:
                raise ValueError(f"{name} must be given with params='given'")
        mech = AreteMechanism(e, D, alpha=alpha, theta=theta, lam=lam)
    else:
        raise ValueError(f"params must be 'paper' or 'given', got {params!r}")
    g = _s.generator(seed)

    noise = sum_noise(P, Q, mech.alpha, mech.theta, mech.lam)
    comps = [(mech.alpha, mech.theta), (1.0, mech.lam)]
    err = _protocol_errors(g, comps, Q, P, R, D)
    are = {"k": noise.k, "sum_distribution": noise.description,
           "exact_mean_abs": noise.mean_abs(), "exact_var": noise.var(),
           "designed_mean_abs": mech.expected_abs_error, "designed_var": mech.variance}
    are.update(_empirical(err))

    lap = LaplaceMechanism(e, D)
    lnoise = _laplace_sum_noise(P, Q, lap.lam)
    lerr = _protocol_errors(g, [(1.0, lap.lam)], Q, P, R, D)
    lap_dist = {"k": lnoise.k, "sum_distribution": lnoise.description,
                "exact_mean_abs": lnoise.mean_abs(), "exact_var": lnoise.var()}
    lap_dist.update(_empirical(lerr))

    lap_c = {"lam": lap.lam, "exact_mean_abs": lap.expected_abs_error, "exact_var": lap.variance}
    lap_c.update(_empirical(lap.noise(R, g)))
    sc = StaircaseMechanism(e, D)
    sc_c = {"gamma": sc.gamma, "exact_mean_abs": sc.expected_abs_error, "exact_var": sc.variance}
    sc_c.update(_empirical(sc.noise(R, g)))

    tight_eps = mech.epsilon if tight else None
    return {
        "parties": P, "min_parties": Q, "eps": e, "Delta": D, "rounds": R,
        "seed": seed if not isinstance(seed, np.random.Generator) else None,
        "params": {"source": mech.params_source, "alpha": mech.alpha, "theta": mech.theta, "lam": mech.lam,
                   "lemma3_applies": mech.lemma3_applies, "tight_epsilon": tight_eps,
                   "tight_epsilon_note": mech.epsilon_note if tight else "not computed (tight=False)"},
        "arete": are,
        "laplace_distributed": lap_dist,
        "laplace": lap_c,
        "staircase": sc_c,
    }


def figure_2_data(eps_values=(5, 10, 15), size=10_000, seed=0, Delta=1):
    r"""Empirical CDFs of the paper's Figure 2: Arete (Lemma 3's parameters), Laplace(:math:`\Delta/\varepsilon`), Staircase.

    For every ``eps``: ``{name: {"x": sorted draws, "cdf": (1..size)/size, "params": {...}}}``
    for ``name`` in ``arete``, ``laplace``, ``staircase`` (:math:`\gamma` optimal for
    :math:`E|X|`).  As the paper notes, :math:`\varepsilon < 20` is outside Lemma 3's
    range (illustration only).

    >>> d = figure_2_data((5, 10), size=1000, seed=1)
    >>> sorted(d), sorted(d[10])
    ([5, 10], ['arete', 'laplace', 'staircase'])
    >>> c = d[10]["arete"]
    >>> # symmetric noise (Lemma 2): the empirical CDF at 0 is 1/2 within 5 binomial standard errors
    >>> bool(np.all(np.diff(c["x"]) >= 0) and abs(np.searchsorted(c["x"], 0) / 1000 - 0.5) < 5 * 0.5 / np.sqrt(1000))
    True
    """
    n = _s._count(size, "size")
    g = _s.generator(seed)
    ecdf = np.arange(1, n + 1) / n
    out = {}
    for eps in eps_values:
        e = _s._positive(eps, "eps_values")
        ar, la, sc = AreteMechanism(e, Delta), LaplaceMechanism(e, Delta), StaircaseMechanism(e, Delta)
        out[eps] = {
            "arete": {"x": np.sort(ar.noise(n, g)), "cdf": ecdf,
                      "params": {"alpha": ar.alpha, "theta": ar.theta, "lam": ar.lam,
                                 "lemma3_applies": ar.lemma3_applies}},
            "laplace": {"x": np.sort(la.noise(n, g)), "cdf": ecdf, "params": {"lam": la.lam}},
            "staircase": {"x": np.sort(sc.noise(n, g)), "cdf": ecdf,
                          "params": {"gamma": sc.gamma, "Delta": sc.Delta, "eps": sc.epsilon}},
        }
    return out
