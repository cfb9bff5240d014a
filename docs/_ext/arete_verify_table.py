"""``verify-report``: the table of an ``arete verify --json`` report, generated at build time.

Tables in the docs that quote a verification run are read from a committed report,
never typed (a typed table went stale: it said 9492 checks when a run gave 10489).
The reports are checked against a fresh run by the tests:

* ``tests/data/verify_quick_baseline.json`` (quick grid) by ``tests/test_verify.py`` in
  every test run;
* ``docs/data/verify-default.json`` (default grid, with ``--symbolic --observations``) by
  ``tests/test_verify_docs_report.py`` (its full re-run is marked ``slow``), regenerated with
  ``arete verify --symbolic --observations --json docs/data/verify-default.json``.

Usage in a MyST page (the path is relative to the repository root)::

    ```{verify-report} docs/data/verify-default.json
    ```

The directive emits one summary paragraph (grid, digits, counts, wall time of the run that
wrote the file) and a table with the columns of ``arete verify``'s own table.  Reading a JSON
file costs nothing, so the docs build does not get slower.  :func:`summary` and :func:`rows`
are pure functions (no Sphinx), tested in ``tests/test_verify_docs_report.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HEADER = ("id", "statement", "kinds", "checks", "violations", "tight", "min slack", "where (bound: point)")


def load(path) -> dict:
    """The report at ``path`` (relative to the repository root, or absolute)."""
    p = Path(path)
    if not p.is_absolute():
        p = ROOT / p
    return json.loads(p.read_text(encoding="utf-8"))


def _slack(x) -> str:
    if isinstance(x, str):
        return x
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    return f"{x:.4g}"


def rows(report: dict) -> list[tuple[str, ...]]:
    """One row per statement of ``report``: the columns of :data:`HEADER`."""
    from arete_proofs.chain.registry import REGISTRY
    from arete_proofs.cli.verify import _where

    out = []
    for s in report["statements"]:
        kinds = REGISTRY[s["id"]].check_kinds if s["id"] in REGISTRY else "N"
        out.append((s["id"], s["number"], kinds, str(s["points"]), str(s["violations"]), str(s["tight"]),
                    _slack(s["min_slack"]), _where(s.get("argmin") or {})))
    return out


def summary(report: dict) -> str:
    """One sentence: what was run, the counts, and the time of the run that wrote the report."""
    st = report["statements"]
    checks = sum(s["points"] for s in st)
    violations = sum(s["violations"] for s in st)
    errors = sum(len(s.get("grid_errors", [])) for s in st)
    tight = sum(s["tight"] for s in st)
    parts = [f"{checks} grid checks of {len(st)} statements on the {report['grid']} grid at "
             f"{report['digits']} digits: {violations} violations, {errors} grid errors, {tight} tight"]
    sym = report.get("symbolic") or []
    if sym:
        parts.append(f"{sum(1 for r in sym if r['holds'])} of {len(sym)} symbolic proofs hold")
    cert = report.get("certified") or []
    if cert:
        parts.append(f"{sum(1 for c in cert if c['holds'] is True)} of {len(cert)} certificates hold")
    obs = report.get("observations") or []
    if obs:
        fails = sum(1 for o in obs if o["verdict"] == "fails")
        parts.append(f"{len(obs)} observations on the paper's literal wording ({fails} 'fails'; "
                     "not counted)")
    return ("; ".join(parts) + f". The grid took {report['wall_seconds']:.0f} s with "
            f"{report['workers']} worker(s) on the machine that wrote the report.")


def setup(app):
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    class VerifyReportDirective(SphinxDirective):
        """``verify-report PATH``: summary and table of a committed ``arete verify --json`` report."""

        required_arguments = 1
        has_content = False

        def run(self):
            path = self.arguments[0]
            self.env.note_dependency(str(ROOT / path))
            self.env.note_dependency(__file__)
            report = load(path)
            body = [HEADER, *rows(report)]
            table = nodes.table()
            group = nodes.tgroup(cols=len(HEADER))
            table += group
            for _ in HEADER:
                group += nodes.colspec(colwidth=1)
            head, tbody = nodes.thead(), nodes.tbody()
            group += head
            group += tbody
            for i, row in enumerate(body):
                r = nodes.row()
                for j, cell in enumerate(row):
                    entry = nodes.entry()
                    text = nodes.literal(cell, cell) if (j == 0 and i) else nodes.Text(cell)
                    entry += nodes.paragraph("", "", text)
                    r += entry
                (head if i == 0 else tbody).append(r)
            para = nodes.paragraph("", "", nodes.Text(summary(report) + " Source: "),
                                   nodes.literal(path, path), nodes.Text("."))
            return [para, table]

    app.add_directive("verify-report", VerifyReportDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
