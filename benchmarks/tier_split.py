"""Which long tests can leave the fast tier without the fast tier losing a line or a branch.

Reads a coverage.py data file recorded with one context per test (``pytest --cov=arete_proofs
--cov-branch --cov-context=test``) and the per-test times of a JUnit XML report, and proposes, greedily
from the longest test down, the tests whose every executed arc (line-to-line step, so every line and
every branch direction) some other remaining fast test also executes. Those may move to the slow
tier (``tests/slow_tier.txt``) with the fast tier's line and branch coverage unchanged. Doctests stay
in the fast tier (they are the documentation's examples).

    pytest -n 2 -m "not slow" --cov=arete_proofs --cov-branch --cov-context=test --junitxml=j.xml
    python benchmarks/tier_split.py .coverage j.xml --min-seconds 1 > proposal.txt

The proposal is a starting point: a test whose property (not only its lines) is checked nowhere
else in the fast tier is kept there, or replaced by a cheaper check of the same property.
"""

from __future__ import annotations

import argparse
import collections
import sqlite3
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def test_arcs(db):
    """{test node id: set of (file, from, to)} from a coverage.py SQLite data file with test contexts."""
    con = sqlite3.connect(db)
    ctx = dict(con.execute("select id, context from context"))
    out = collections.defaultdict(set)
    for file_id, context_id, a, b in con.execute("select file_id, context_id, fromno, tono from arc"):
        name = ctx[context_id].rsplit("|", 1)[0]
        if name:
            out[name].add((file_id, a, b))
    return out


def junit_times(path):
    """{node id: seconds}; the JUnit class name ``tests.test_x.TestY`` becomes ``tests/test_x.py::TestY``."""
    out = {}
    for tc in ET.parse(path).iter("testcase"):
        parts = tc.get("classname").split(".")
        name = tc.get("name")
        if parts[0] == "tests":
            out["::".join([f"tests/{parts[1]}.py", *parts[2:], name])] = float(tc.get("time"))
        else:                                   # a doctest, by its name (propose() leaves doctests in place)
            out[name] = float(tc.get("time"))
    return out


def propose(arcs, times, min_seconds, keep=()):
    count = collections.Counter(a for s in arcs.values() for a in s)
    moved = []
    for node, sec in sorted(times.items(), key=lambda kv: -kv[1]):
        if sec < min_seconds:
            break
        if not node.startswith("tests/") or node.split("::", 1)[0] in keep:
            continue
        mine = arcs.get(node)
        if mine is None:                        # no coverage recorded under that id: leave it where it is
            continue
        if all(count[a] >= 2 for a in mine):
            for a in mine:
                count[a] -= 1
            moved.append((node, sec))
    return moved


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("coverage_db")
    p.add_argument("junit_xml")
    p.add_argument("--min-seconds", type=float, default=1.0)
    p.add_argument("--keep", nargs="*", default=[], metavar="FILE",
                   help="test files that stay in the fast tier whole (e.g. tests/test_cli_vs_library.py)")
    a = p.parse_args(argv)
    for f in (a.coverage_db, a.junit_xml):
        if not Path(f).is_file():
            p.error(f"{f}: no such file")
    arcs, times = test_arcs(a.coverage_db), junit_times(a.junit_xml)
    moved = propose(arcs, times, a.min_seconds, set(a.keep))
    total = sum(times.values())
    saved = sum(s for _, s in moved)
    for node, sec in moved:
        print(f"{node}  # {sec:.1f} s")
    print(f"# {len(moved)} tests, {saved:.0f} s of {total:.0f} s of test time", file=sys.stderr)


if __name__ == "__main__":
    main()
