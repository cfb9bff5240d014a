"""The library's privacy tools check the sensitivity Delta as the command line checks --sensitivity: a value that is
not a number in the families' range is refused at once, naming Delta (noise._base.check_sensitivity)."""

from __future__ import annotations

import pytest

from arete_proofs.noise import FAMILIES, make
from arete_proofs.noise._base import SENSITIVITY_BOUNDS

from _cli import FAMILY_CASES  # tests/_cli.py

BAD = ["1e300", "1e-300", "0", "-1", "nan", "inf", "abc"]


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("method", ["tight_epsilon", "certify"])
def test_every_family_refuses_a_sensitivity_outside_the_range(family, method):
    noise = make(family, **FAMILY_CASES[family])
    if method not in noise.supports:
        pytest.skip(f"{family} has no {method}")
    for Delta in BAD:
        with pytest.raises(ValueError, match=r"^Delta must"):
            getattr(noise, method)(Delta)


def test_a_sensitivity_inside_the_range_is_computed():
    # the check passes what it should: Laplace(lam) has eps* = Delta/lam at both ends of the range
    lo, hi = SENSITIVITY_BOUNDS
    z = make("laplace", lam=1)
    assert float(z.tight_epsilon(lo).epsilon) == float(lo)
    assert float(z.tight_epsilon(Delta=hi).epsilon) == float(hi)
