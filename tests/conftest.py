"""Shared test configuration.

The engine's wall-clock budget (:data:`arete_proofs._validation.TIME_BUDGET`, 60 s per
quadrature call) turns a legitimately slow evaluation into ``PrecisionError`` when the
machine is loaded (seen: a 26-digit partial-fraction test at alpha = 3.7 under a load of 6).
A test's verdict must not depend on the machine's load, so the budget is off in the tests;
``tests/test_fuzz.py`` sets its own short budget where refusing in time is the point.
"""

from __future__ import annotations

import pytest

from arete_proofs import _validation


@pytest.fixture(autouse=True)
def _no_wall_clock_budget(monkeypatch):
    monkeypatch.setattr(_validation, "TIME_BUDGET", None)
