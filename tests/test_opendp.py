"""arete_proofs.opendp: an OpenDP Measurement of an integer noise, composed in OpenDP pipelines.

Skips when the extra ``opendp`` is missing (it is not in ``[test]``: the wheel unpacks to about 265 MB).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import stats

dp = pytest.importorskip("opendp.prelude", reason="the extra 'opendp' is not installed (pip install opendp)")
pytest.importorskip("flint", reason="the exact samplers need python-flint (extra 'exact')")

from arete_proofs.noise import make  # noqa: E402
from arete_proofs.opendp import make_noise_measurement, privacy_map  # noqa: E402

dp.enable_features("contrib", "honest-but-curious")

NOISES = [("dlap", {"a": "0.5"}), ("gdl", {"beta": "0.5", "a": "0.7"}), ("msdlap", {"a": "1.2", "m": 3}),
          ("discrete_staircase", {"eps": "1", "Delta": 3, "r": 2}),
          ("lattice_skellam", {"a": "1.2", "m": 2, "mu": "0.7", "h": 3})]


@pytest.mark.parametrize("name,params", NOISES, ids=[n for n, _ in NOISES])
def test_privacy_map_is_the_tight_epsilon_rounded_up(name, params):
    z = make(name, **params)
    m = make_noise_measurement(z)
    for d in (1, 2, 3):
        eps = z.tight_epsilon(d, digits=15)
        assert eps.upper_bound <= m.map(d) <= float(eps.upper_bound) * (1 + 1e-13)
        # OpenDP's check agrees, and can fail: just below the tight epsilon is refused
        assert m.check(d, m.map(d)) and not m.check(d, float(eps.epsilon) * (1 - 1e-9))
    assert m.map(0) == 0.0


def test_sum_then_noise_composes_in_an_opendp_pipeline():
    z = make("gdl", beta="0.5", a="0.7")
    total = dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(0, 4), T=int)), dp.symmetric_distance())
    release = total >> make_noise_measurement(z, rng=random.Random(1))
    # changing one record moves the sum by at most 4: the map is eps*(4)
    assert release.map(1) == privacy_map(z)(4)
    assert math.isclose(release.map(1), float(z.tight_epsilon(4, digits=15).epsilon), rel_tol=1e-12)
    out = release([1, 2, 3, 4])
    assert isinstance(out, int)
    # two releases composed: OpenDP adds the losses
    both = dp.c.make_composition([release, release])
    assert both.map(1) == pytest.approx(2 * release.map(1), rel=1e-15)
    assert len(both([0, 4, 4])) == 2
    # the query's outputs carry the noise's law: x + GDL(0.5, 0.7) around x = 10 (G-test, with power)
    x = np.array([release([1, 2, 3, 4]) for _ in range(20_000)]) - 10
    assert _g_test(x, z, 0) > 1e-6
    assert _g_test(x, z, 1) < 1e-6                                 # the law shifted by one is rejected


def _g_test(x, z, shift, K=8):
    """G-test p-value of the draws ``x`` against the law of ``Z + shift`` (bins -K..K, tails pooled)."""
    ks = np.arange(-K, K + 1)
    p = np.array([float(z.pmf(int(k - shift), digits=12)) for k in ks])
    left, right = float(z.cdf(-K - 1 - shift, digits=12)), float(z.sf(K - shift, digits=12))
    expected = np.concatenate([[left], p, [right]]) * x.size
    obs = np.bincount(np.clip(x, -K - 1, K + 1) + K + 1, minlength=2 * K + 3).astype(float)
    nz = obs > 0
    return float(stats.chi2.sf(2 * np.sum(obs[nz] * np.log(obs[nz] / expected[nz])), 2 * K + 2))


def test_continuous_noise_and_bad_d_in_are_refused():
    with pytest.raises(ValueError, match="integer family with an exact sampler"):
        make_noise_measurement(make("laplace", lam=1))
    with pytest.raises(ValueError, match="d_in must be an integer"):
        privacy_map(make("dlap", a=1))(-1)
