r"""Noise-adding mechanisms (Definition 4, Lemmas 26 and 27) and distributed summation (Lemma 10, Appendix A).

* ``noise`` -- the additive mechanism of any noise object, :class:`NoiseMechanism`, and the central mechanisms :class:`AreteMechanism`
  (Definition 4), :class:`LaplaceMechanism` (Lemma 26), :class:`StaircaseMechanism` (Lemma 27);
* ``shares`` -- :func:`distributed_sum` (Lemma 10 shares,
  dropouts), the law of its noise :func:`sum_noise` / :class:`SumNoise`, and :func:`cf_mean_abs`;
* ``simulation`` -- :func:`simulate` (the distributed sum
  against Laplace and Staircase) and :func:`figure_2_data` (the paper's Figure 2);
* :mod:`~arete_proofs.mechanisms.sampling` -- the vectorized float64 samplers behind them.

The names above are re-exported here.  ``expected_abs_error`` and ``variance`` of a
mechanism are exact; ``epsilon`` is the tight privacy parameter (for Arete
:func:`arete_proofs.privacy.tight.tight_epsilon`).

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

The library does the last two for its integer noises: :mod:`arete_proofs.mechanisms.exact` samples
them and their shares exactly from fair bits, and :mod:`arete_proofs.mechanisms.aggregate` (``arete
aggregate``) designs, guarantees and simulates the secure aggregation.

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

from . import noise, sampling, shares, simulation
from .noise import AreteMechanism, LaplaceMechanism, NoiseMechanism, StaircaseMechanism
from .shares import SumNoise, cf_mean_abs, distributed_sum, sum_noise
from .simulation import figure_2_data, simulate

__all__ = [
    "noise",
    "sampling",
    "shares",
    "simulation",
    "NoiseMechanism",
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

