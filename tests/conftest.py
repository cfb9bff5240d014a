"""Shared test configuration.

The engine's wall-clock budget (:data:`arete_proofs._validation.TIME_BUDGET`, 60 s per
quadrature call) turns a legitimately slow evaluation into ``PrecisionError`` when the
machine is loaded (seen: a 26-digit partial-fraction test at alpha = 3.7 under a load of 6).
A test's verdict must not depend on the machine's load, so the budget is off in the tests;
``tests/test_fuzz.py`` sets its own short budget where refusing in time is the point.

The tiers: a test marked ``slow`` in its file, or listed in ``tests/slow_tier.txt``, belongs to
the slow tier (``pytest -m slow``; CI runs it right after the fast tier, ``pytest -m "not slow"``).
The list holds long tests whose every line and branch of ``arete_proofs/`` the fast tier also
executes (``benchmarks/tier_split.py`` proposes them from per-test coverage); an entry that no
longer names a test of its file is an error, so the list cannot rot silently.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arete_proofs import _validation

SLOW_TIER = Path(__file__).with_name("slow_tier.txt")


def slow_tier_entries(path=SLOW_TIER):
    """The node ids listed in ``slow_tier.txt`` (one per line; ``#`` starts a comment)."""
    if not path.exists():
        return set()
    return {ln.split("#", 1)[0].strip() for ln in path.read_text().splitlines()} - {""}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    listed = slow_tier_entries()
    if not listed:
        return
    ids = {item.nodeid for item in items}
    # files collected whole (not narrowed to some of their tests on the command line)
    root = Path(config.rootpath)
    narrowed = {Path(a.split("::", 1)[0]).resolve() for a in config.args if "::" in a}
    whole = {i.split("::", 1)[0] for i in ids} - {str(p.relative_to(root)) for p in narrowed if p.is_relative_to(root)}
    stale = sorted(e for e in listed if e.split("::", 1)[0] in whole and e not in ids)
    if stale and not (config.option.keyword or config.option.deselect or config.getoption("lf", False)):
        raise pytest.UsageError(f"tests/slow_tier.txt names no test: {stale[0]} (renamed or removed?)"
                                + (f" and {len(stale) - 1} more" if len(stale) > 1 else ""))
    for item in items:
        if item.nodeid in listed:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_wall_clock_budget(monkeypatch):
    monkeypatch.setattr(_validation, "TIME_BUDGET", None)
