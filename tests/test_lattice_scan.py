"""The float64 guide of the Laplace lattice candidates (privacy._lattice_scan) against the full exact scan.

Reference: the same driver with the guide switched off (every candidate and cell in mpmath, the scan
before issue 23's speed-up); a guide that drops candidates it may not drop is caught.
"""

import pytest
from mpmath import mp

from arete_proofs.privacy import _lattice_scan
from arete_proofs.privacy import tight_lattice as tl

CASES = [("3", 5, "0.05", "0.2", "0.5"),      # attained inside the window
         ("4", 6, "0.1", "0.25", "1.3"),      # Delta not a multiple of h: the partial cells
         ("5", 8, "0.0625", "0.125", 1)]      # Theorem 21 at eps = 6: the tail limit


def _run(case, monkeypatch, guide_min):
    monkeypatch.setattr(tl, "_GUIDE_MIN", guide_min)
    return tl.tight_epsilon_lattice_laplace(*case, digits=20)


@pytest.mark.parametrize("case", CASES)
def test_guided_scan_equals_exact_scan(case, monkeypatch):
    fast = _run(case, monkeypatch, 64)
    exact = _run(case, monkeypatch, 10 ** 9)
    assert fast.epsilon == exact.epsilon and fast.window_max == exact.window_max
    assert fast.upper_bound == exact.upper_bound and fast.attained == exact.attained
    if fast.attained:
        assert fast.witness == exact.witness


def test_a_guide_without_margin_is_caught(monkeypatch):
    real = _lattice_scan.guide

    def broken(law, Delta, ks, js, F, frac):  # keeps only the second-best t = hk candidates: too tight a cut
        k_keep, cells, _ = real(law, Delta, ks, js, F, frac)
        return k_keep[1:], cells, []

    case = CASES[0]
    exact = _run(case, monkeypatch, 10 ** 9)
    monkeypatch.setattr(_lattice_scan, "guide", broken)
    bad = _run(case, monkeypatch, 64)
    assert bad.window_max < exact.window_max - mp.mpf(10) ** -15


def test_float_log_of_tiny_mpf_and_bad_input():
    with mp.workdps(40):
        x = mp.mpf(3) * mp.mpf(2) ** -100000
        assert abs(_lattice_scan._fln(x) - float(mp.log(x))) < 1e-9
    with pytest.raises(ValueError, match="x"):
        _lattice_scan._fln(mp.mpf(-1))
