r"""The central noise-adding mechanisms: Arete (Definition 4), Laplace (Lemma 26), Staircase (Lemma 27).

* :class:`AreteMechanism` -- releases :math:`q(x) + Z`, :math:`Z \sim \mathrm{Arete}(\alpha,\theta,\lambda)`
  (Definition 4), with Lemma 3's parameters :math:`\alpha = \lambda = e^{-\varepsilon/4}`,
  :math:`\theta = 4\Delta/\varepsilon` or given ones;
* :class:`LaplaceMechanism` -- :math:`\mathrm{Laplace}(\Delta/\varepsilon)` (Lemma 26);
* :class:`StaircaseMechanism` -- :math:`SC(\gamma,\Delta)` (Lemma 27), :math:`\gamma`
  optimal for :math:`E|X|` (default), for the variance, or given.

``expected_abs_error`` and ``variance`` are exact (closed forms evaluated with
mpmath, returned as floats); ``epsilon`` is the tight privacy parameter: for
Arete :func:`arete_proofs.privacy.tight.tight_epsilon` (``None`` when that module is
not available or cannot certify the value), for Laplace and Staircase the
designed :math:`\varepsilon` (which is tight for both: Lemma 26's density ratio
is exactly :math:`e^{\varepsilon}` for every :math:`t \ge 0`, and the staircase
jumps by :math:`e^{\varepsilon}` at :math:`\gamma\Delta`).  ``release`` adds independent
noise to every coordinate of an array (see :mod:`arete_proofs.mechanisms` on vectors
and on floating point).

>>> m = LaplaceMechanism(20, 1)
>>> a = AreteMechanism(20, 1)                      # Lemma 3's parameters at the same eps
>>> a.expected_abs_error < m.expected_abs_error    # Corollary 5: E|Z| <= 2 Delta e^(-eps/4) < Delta/eps
True
"""

from __future__ import annotations

import numbers

import numpy as np
from mpmath import mp

from ..distributions import arete as _arete
from . import sampling as _s
from ..distributions import staircase as _sc
from .._validation import PrecisionError, positive
from ..distributions.params import lemma3_applies as _lemma3_applies
from ..distributions.params import paper_parameters

__all__ = [
    "NoiseMechanism",
    "AreteMechanism",
    "LaplaceMechanism",
    "StaircaseMechanism",
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


class NoiseMechanism(_Mechanism):
    r"""The additive mechanism of any noise object: release :math:`q(x) + Z` for queries of sensitivity ``Delta``.

    ``noise``: a noise of :mod:`arete_proofs.noise` (any family); ``epsilon`` is its tight
    :math:`\varepsilon^*` at ``Delta`` (``noise.tight_epsilon``, ``tight_digits`` digits), the
    privacy of the mechanism (Definition 25; Definition 4 for Arete noise);
    ``expected_abs_error`` and ``variance`` are the noise's exact :math:`E|Z|` and
    :math:`\operatorname{Var} Z` as floats.

    >>> from arete_proofs.noise import make
    >>> m = NoiseMechanism(make("laplace", lam="0.25"), Delta=1)
    >>> m.epsilon, m.expected_abs_error, m.variance          # Lemma 26: eps = Delta/lam
    (4.0, 0.25, 0.125)
    >>> m.release([1.0, 2.0], rng=1).shape
    (2,)
    """

    def __init__(self, noise, Delta=1, *, tight_digits=8):
        if not hasattr(noise, "tight_epsilon") or not hasattr(noise, "sample"):
            raise ValueError(f"noise must be a noise of arete_proofs.noise, got {noise!r}")
        self.noise_object = noise
        self._Delta = Delta
        self.Delta = float(_mp_positive(Delta, "Delta"))
        if isinstance(tight_digits, bool) or not isinstance(tight_digits, numbers.Integral) or tight_digits < 1:
            raise ValueError(f"tight_digits must be a positive integer, got {tight_digits!r}")
        self.tight_digits = int(tight_digits)
        self._tight = None

    def __repr__(self):
        return f"NoiseMechanism({self.noise_object!r}, Delta={self.Delta!r})"

    def noise(self, size=None, rng=None):
        """Draws of the noise (its family's sampler: exact from fair bits for an integer family, float64 otherwise)."""
        return self.noise_object.sample(size, rng)

    @property
    def expected_abs_error(self) -> float:
        """Exact :math:`E|Z|` (the noise's ``mean_abs``)."""
        return float(self.noise_object.mean_abs(digits=_DIGITS))

    @property
    def variance(self) -> float:
        r"""Exact :math:`\operatorname{Var} Z` (the noise's ``var``)."""
        return float(self.noise_object.var(digits=_DIGITS))

    def tight_epsilon(self):
        """The noise's :class:`~arete_proofs.noise.TightResult` at ``Delta`` (computed once)."""
        if self._tight is None:
            self._tight = self.noise_object.tight_epsilon(self._Delta, digits=self.tight_digits)
        return self._tight

    @property
    def epsilon(self) -> float:
        r"""Tight :math:`\varepsilon^*` as a float."""
        return float(self.tight_epsilon().epsilon)


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
                from ..privacy.tight import tight_epsilon
            except ImportError as exc:  # the privacy layer is not installed: degrade gracefully
                self.epsilon_note = f"arete_proofs.privacy.tight unavailable: {exc}"
                return None
            try:
                self._tight = tight_epsilon(*self._exact, self.Delta, digits=self.tight_digits)
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
