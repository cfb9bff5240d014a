"""Where the test suite's time goes: per-file and per-test totals of each tier, from JUnit XML reports.

Run each tier with ``--junitxml`` and give the reports to this script; it writes
``docs/data/test-profile.json``, which the development page renders (the table ``test-profile`` and
the figures it quotes), so no timing on that page is typed by hand.

    python -m pytest -n 2 -m "not slow" --junitxml=fast.xml
    python -m pytest -n 2 -m slow --junitxml=slow.xml
    python benchmarks/test_profile.py fast.xml slow.xml --conditions "a fresh clone, idle machine"

``--ci-seconds`` records the wall time of a whole ``bash .ci/run`` in a clean clone, when measured.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import platform
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "data" / "test-profile.json"


def _file_of(tc):
    cls = tc.get("classname")
    if cls.startswith("tests."):
        return "tests/" + cls.split(".")[1] + ".py"
    parts = cls.split(".")                                          # arete_proofs.privacy.x -> the subpackage
    return "doctests of " + ".".join(parts[:2] if len(parts) > 2 else parts[:1])


def tier(path):
    """{tests, wall_seconds, test_seconds, files: [[file, tests, seconds]], top: [[test, seconds]]} of a report."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    wall = max(float(s.get("time", 0)) for s in suites)
    cases = list(root.iter("testcase"))
    per = collections.defaultdict(lambda: [0, 0.0])
    top = []
    for tc in cases:
        t = float(tc.get("time"))
        f = _file_of(tc)
        per[f][0] += 1
        per[f][1] += t
        top.append((t, f"{f}::{tc.get('name')}" if f.startswith("tests/") else tc.get("name")))
    top.sort(reverse=True)
    files = sorted(([f, n, round(s, 1)] for f, (n, s) in per.items()), key=lambda r: -r[2])
    return {"tests": len(cases), "wall_seconds": round(wall), "wall_minutes": round(wall / 60, 1),
            "test_seconds": round(sum(t for t, _ in top)),
            "files": files[:15], "top": [[name, round(t, 1)] for t, name in top[:10]]}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("fast_xml")
    p.add_argument("slow_xml", nargs="?")
    p.add_argument("--ci-seconds", type=float)
    p.add_argument("--conditions", default="", help="how the runs were made (a fresh clone, other load, ...)")
    p.add_argument("--out", default=str(OUT))
    a = p.parse_args(argv)
    for f in (a.fast_xml, a.slow_xml):
        if f is not None and not Path(f).is_file():
            p.error(f"{f}: no such file")
    doc = {"date": datetime.date.today().isoformat(),
           "machine": f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}, Python {platform.python_version()}",
           "conditions": a.conditions, "fast": tier(a.fast_xml)}
    if a.slow_xml:
        doc["slow"] = tier(a.slow_xml)
    if a.ci_seconds:
        doc["ci_wall_seconds"] = round(a.ci_seconds)
    Path(a.out).write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {a.out}: fast {doc['fast']['tests']} tests, {doc['fast']['wall_seconds']} s wall")


if __name__ == "__main__":
    main()
