"""The counterexample search shown on the statement pages: ``docs/data/search.json``.

A search of the whole registry (``arete verify --search``, :mod:`arete_proofs.chain.search`)
takes minutes, too slow for every docs build, so its result is shipped as a data
file and the pages read it.  Regenerate it after changing a bound or hypothesis::

    python docs/_ext/arete_docs_search.py            # = arete verify --search --workers 2 --json ...

which runs ``arete verify --search --workers 2 --seed 0 --search-budget 1500`` on the
default grid and writes, next to the per-bound search results and the grid's
report, the registry's :func:`~arete_proofs.chain.registry.fingerprint` of every
statement.  :func:`stale` compares them with the registry at build and test time:
a statement whose bounds, hypotheses or substitutions changed since the file was
written, or a bound without a search result, is stale; the pages then say so and
the build logs a warning (an error under ``sphinx-build -W``), and
``tests/test_docs_search.py`` fails.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "search.json"
#: The command the data file records (and :func:`main` runs).
ARGS = ["verify", "--search", "--workers", "2", "--seed", "0", "--search-budget", "1500", "--no-progress"]


def load(path=DATA) -> dict:
    """The data file as a dict (empty when it is missing)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def stale(data: dict) -> dict:
    """``{statement id: reason}`` for every statement whose stored search is out of date."""
    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS, fingerprint

    out = {}
    stored = data.get("fingerprints", {})
    have = {(r["statement"], r["bound"]) for r in data.get("search", [])}
    for sid in STATEMENT_IDS:
        if sid not in stored:
            out[sid] = "not in the data file"
        elif stored[sid] != fingerprint(sid):
            out[sid] = f"bounds or hypotheses changed (file {stored[sid]}, registry {fingerprint(sid)})"
        else:
            missing = [b.name for b in REGISTRY[sid].bounds if (sid, b.name) not in have]
            if missing:
                out[sid] = f"no search result for {', '.join(missing)}"
    return out


def by_bound(data: dict) -> dict:
    """``{(statement, bound): {"search": result, "grid": the grid's bound report}}``."""
    grid = {(s["id"], b["name"]): b for s in data.get("statements", []) for b in s.get("bounds", [])}
    return {(r["statement"], r["bound"]): {"search": r, "grid": grid.get((r["statement"], r["bound"]), {})}
            for r in data.get("search", [])}


def main(argv=None) -> int:
    """Run the search of the whole registry and write :data:`DATA` (``--out`` to write elsewhere)."""
    import argparse

    from arete_proofs.chain.registry import STATEMENT_IDS, fingerprint
    from arete_proofs.cli import main as arete

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(DATA))
    p.add_argument("--statement", action="append", help="only these statements (for a test run)")
    args = p.parse_args(argv)
    cmd = ARGS + [x for sid in (args.statement or []) for x in ("--statement", sid)]
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        status = arete(cmd + ["--json", str(report)])
        doc = json.loads(report.read_text())
    ids = args.statement or list(STATEMENT_IDS)
    keep = ("id", "points", "violations", "tight", "min_slack", "argmin")
    out = {
        "command": "arete " + " ".join(ARGS) + " --json FILE",
        "written": time.strftime("%Y-%m-%d"),
        "wall_seconds": round(time.monotonic() - start, 1),
        "grid": doc.get("grid", "default"),
        "exit_status": status,
        "fingerprints": {sid: fingerprint(sid) for sid in ids},
        "statements": [{"id": s["id"], "bounds": [{k: b.get(k) for k in keep if k != "id"} | {"name": b["name"]}
                                                  for b in s.get("bounds", [])]}
                       for s in doc["statements"]],
        "search": doc.get("search", []),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(out['search'])} bounds searched in {out['wall_seconds']} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
