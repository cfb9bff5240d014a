"""The tanh-sinh rule's stopping estimates (arete_proofs.distributions._tanhsinh): with either estimate the value is
within the requested relative tolerance of the exact integral, and an estimate that stops too early is caught.

Reference values are closed forms: int_0^1 x^(-0.9) dx = 10, int_0^oo e^(-x) dx = 1, int_0^1 4/(1+x^2) dx = pi,
int_0^1 log(x) dx = -1, int_0^1 sqrt(1 - x^2) dx = pi/4.
"""

from __future__ import annotations

import pytest
from mpmath import mp

from arete_proofs.distributions import _tanhsinh
from arete_proofs.distributions._tanhsinh import integrate

CASES = [
    (lambda x, da, db: da ** mp.mpf("-0.9"), [(0, 1)], 0.9, lambda: mp.mpf(10)),
    (lambda x, da, db: mp.exp(-x), [(0, mp.inf, 1)], 0.0, lambda: mp.one),
    (lambda x, da, db: 4 / (1 + x * x), [(0, 1)], 0.0, lambda: +mp.pi),
    (lambda x, da, db: mp.log(da), [(0, 1)], 0.5, lambda: -mp.one),
    (lambda x, da, db: mp.sqrt(db * (2 - db)), [(0, 1)], 0.0, lambda: mp.pi / 4),
]


@pytest.mark.parametrize("extrapolate", [False, True])
@pytest.mark.parametrize("digits", [8, 15, 30])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_value_is_within_the_tolerance(case, digits, extrapolate):
    f, pieces, beta, exact = CASES[case]
    with mp.workdps(digits + 15):
        tol = mp.mpf(10) ** -digits
        v, err, _ = integrate(f, pieces, tol, mp.prec, beta=beta, extrapolate=extrapolate)
        assert abs(v - exact()) <= tol * abs(exact()) and err <= tol * abs(v)


def test_the_extrapolated_estimate_saves_levels():
    # the point of it: half the nodes for the same tolerance (counted calls; e^-x on a half-line at 15 digits)
    calls = {False: 0, True: 0}
    for extrapolate in (False, True):
        def f(x, da, db, e=extrapolate):
            calls[e] += 1
            return mp.exp(-x)

        with mp.workdps(30):
            integrate(f, [(0, mp.inf, 1)], mp.mpf(10) ** -15, mp.prec, extrapolate=extrapolate)
    assert 2 * calls[True] < calls[False] + 10


def test_an_estimate_that_stops_too_early_is_caught(monkeypatch):
    # the broken variant: an estimate that trusts two levels (0 once they exist) stops before the value is accurate
    monkeypatch.setattr(_tanhsinh, "level_error_extrapolated", lambda h, s: mp.zero)
    misses = 0
    for f, pieces, beta, exact in CASES:
        with mp.workdps(45):
            tol = mp.mpf(10) ** -30
            v, _, _ = integrate(f, pieces, tol, mp.prec, beta=beta, extrapolate=True)
            misses += abs(v - exact()) > tol * abs(exact())
    assert misses == len(CASES)
