r"""Exact samplers of the integer noises and their shares: fair bits in, integers out, no float on a random value.

The float64 samplers (:mod:`arete_proofs.mechanisms.sampling`, numpy's ``negative_binomial``) draw the
right law only up to rounding, and the rounding leaks (Mironov 2012).  The samplers here draw the
integer families -- ``dlap``, ``gdl``, ``msdlap``, ``discrete_staircase``, ``lattice_skellam`` -- and
their :math:`n`-party shares *exactly*: every output has exactly the law of the noise with the
parameters as given (decimal strings are the rationals they denote; :math:`e^{-a}` is never
rounded), and the only operations on random data are integer ones.

**Method: exact inversion on certified CDF enclosures** (:mod:`.inversion`), applied to the
one-sided laws the families are made of (:mod:`.laws`: negative binomial with a real shape,
Poisson, the staircase's magnitude) and combined by the families' own structure
(:mod:`.families`: differences, scale sums, a fair sign).  Why this and not the geometric and
Bernoulli(:math:`e^{-x}`) loops of Canonne, Kamath and Steinke (2020), or OpenDP's rejection sampler
of the negative binomial with a rational shape:

* *speed*: a table of 64-bit integer CDF bounds, built once per law, decides a draw with one
  64-bit word and one integer ``searchsorted`` (vectorised by numpy); the rejection loops run per
  draw in Python, and OpenDP's negative binomial accepts a proposal from :math:`\mathrm{NB}(\lceil r\rceil)`
  with probability :math:`(1 - e^{-a})^{\lceil r\rceil - r}`, poor for the tiny shapes :math:`\beta/n` of shares
  at small :math:`a`;
* *generality*: any law whose pmf arb can enclose is handled the same way -- the real shapes
  :math:`\beta/n`, Poisson means :math:`\mu/n` and the staircase's steps need no new rejection argument;
* *exactness*: the decisions are comparisons of the uniform's dyadic interval with certified
  enclosures; an undecided draw (a word at a table boundary, probability about :math:`2^{-57}`, or a
  tail beyond the table, :math:`\le 2^{-40}`) reads more bits lazily and refines the enclosure.

**Bits.**  ``rng`` is any object with ``getrandbits(k)`` (``secrets.SystemRandom`` by default; a
seeded ``random.Random`` or an int seed for tests), checked on every call (:mod:`.bits`).

**No float on random values**: the draws are ``uint64`` words compared with ``uint64`` tables and
combined in ``int64``; ``tests/test_exact_sampling.py`` runs every sampler with numpy's float
generators and ``random.random`` patched to raise.

>>> import random
>>> from arete_proofs.mechanisms import exact
>>> x = exact.gdl("0.5", "0.7", 5, random.Random(0))
>>> x.dtype.name, x.shape
('int64', (5,))
"""

from .bits import BitSource, bit_source
from .families import discrete_staircase, gdl, gdl_shares, lattice_skellam_shares, msdlap_shares, sampler
from .inversion import InversionSampler
from .laws import NegativeBinomial, Poisson, StaircaseMagnitude, exact_rational

__all__ = [
    "BitSource",
    "bit_source",
    "InversionSampler",
    "NegativeBinomial",
    "Poisson",
    "StaircaseMagnitude",
    "exact_rational",
    "sampler",
    "gdl",
    "gdl_shares",
    "msdlap_shares",
    "lattice_skellam_shares",
    "discrete_staircase",
]
