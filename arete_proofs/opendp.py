r"""An OpenDP Measurement that adds an integer noise of this library, with the family's exact tight epsilon as its privacy map.

OpenDP (https://opendp.org) composes measurements and transformations whose privacy maps it trusts.
:func:`make_noise_measurement` wraps an integer noise of :mod:`arete_proofs.noise` (``dlap``, ``gdl``,
``msdlap``, ``discrete_staircase``, ``lattice_skellam``) with OpenDP's user-measurement constructor
(``opendp.measurements.make_user_measurement``):

* **function**: :math:`x \mapsto x + Z`, :math:`Z` drawn *exactly* from fair bits
  (:mod:`arete_proofs.mechanisms.exact`; ``rng``: an object with ``getrandbits``,
  ``secrets.SystemRandom`` by default);
* **privacy map**: :math:`d_{in} \mapsto \varepsilon^*(d_{in})`, the family's exact tight epsilon at integer
  sensitivity :math:`\Delta = d_{in}` (``noise.tight_epsilon``; the supremum over every shift
  :math:`|s| \le \Delta`), its certified upper end made 10^-(digits-1) larger and rounded *up* to a float,
  so the map never understates the loss; :math:`d_{in} = 0` maps to 0.

The result composes like any OpenDP measurement: after ``make_sum`` (``sum >> measurement``), in
``make_composition``, with ``check(d_in, d_out)``.  OpenDP asks the caller to vouch for a user-defined
map: the constructor needs ``dp.enable_features("contrib", "honest-but-curious")`` (this module does not
switch features on for you).  Extra ``opendp`` (``pip install 'arete-proofs[opendp]'``).

>>> import pytest; dp = pytest.importorskip("opendp.prelude")
>>> dp.enable_features("contrib", "honest-but-curious")
>>> from arete_proofs.noise import make
>>> m = make_noise_measurement(make("dlap", a="0.5"))
>>> m.map(2) >= 1.0, isinstance(m(10), int)                # DLap(a): eps* = a Delta
(True, True)
"""

from __future__ import annotations

import math
import numbers

__all__ = ["make_noise_measurement", "privacy_map"]


def _opendp():
    try:
        import opendp.prelude as dp
    except ImportError:
        raise ImportError("arete_proofs.opendp needs OpenDP: pip install 'arete-proofs[opendp]'") from None
    return dp


def privacy_map(noise, *, digits=15):
    r"""The map :math:`d_{in} \mapsto` an upper bound of :math:`\varepsilon^*(d_{in})` as a float (module docstring).

    >>> from arete_proofs.noise import make
    >>> f = privacy_map(make("dlap", a="0.5"))
    >>> f(0), f(2) >= 1.0, f(2) - 1.0 < 1e-12
    (0.0, True, True)
    """
    from mpmath import mp

    cache = {}

    def epsilon(d_in):
        if isinstance(d_in, bool) or not isinstance(d_in, numbers.Integral) or d_in < 0:
            raise ValueError(f"d_in must be an integer sensitivity >= 0, got {d_in!r}")
        d = int(d_in)
        if d == 0:
            return 0.0
        if d not in cache:
            r = noise.tight_epsilon(d, digits=digits)
            with mp.workdps(digits + 10):
                up = mp.mpf(r.upper_bound) * (1 + mp.mpf(10) ** (-(digits - 1)))
                f = float(up)
                if mp.mpf(f) < up:
                    f = math.nextafter(f, math.inf)
            cache[d] = f
        return cache[d]

    return epsilon


def make_noise_measurement(noise, *, T="i32", input_domain=None, input_metric=None, rng=None, digits=15):
    r"""An OpenDP Measurement :math:`x \mapsto x + Z` (module docstring) for an integer ``noise``.

    ``T``: OpenDP's integer type of :math:`x` (the default domain ``atom_domain(T=T)`` with
    ``absolute_distance(T=T)``, what ``make_sum`` of integers produces); ``input_domain`` / ``input_metric``:
    others of OpenDP, over integers; ``rng``: the bit source (default: a fresh ``secrets.SystemRandom``
    per release); ``digits``: of the tight epsilon.

    >>> import pytest; dp = pytest.importorskip("opendp.prelude")
    >>> dp.enable_features("contrib", "honest-but-curious")
    >>> from arete_proofs.noise import make
    >>> m = make_noise_measurement(make("gdl", beta=2, a="0.5"))
    >>> m.map(3) >= 1.5                                    # beta > 1: eps* = a Delta, the tail limit
    True
    """
    dp = _opendp()
    if not getattr(noise, "integer_valued", False) or "exact_sample" not in getattr(noise, "supports", ()):
        raise ValueError(f"noise must be an integer family with an exact sampler (dlap, gdl, msdlap, "
                         f"discrete_staircase, lattice_skellam), got {noise!r}")
    from .mechanisms.exact import bit_source

    src = None if rng is None else bit_source(rng)

    def function(x):
        return int(x) + int(noise.sample(rng=src))

    domain = dp.atom_domain(T=T) if input_domain is None else input_domain
    metric = dp.absolute_distance(T=T) if input_metric is None else input_metric
    try:
        return dp.m.make_user_measurement(domain, metric, dp.max_divergence(), function=function,
                                          privacy_map=privacy_map(noise, digits=digits), TO=T)
    except Exception as exc:
        text = " ".join(str(exc).split())
        if "honest-but-curious" in text or "contrib" in text:
            raise ValueError("OpenDP's user measurements need dp.enable_features('contrib', 'honest-but-curious') "
                             "(the caller vouches for the privacy map)") from None
        raise
