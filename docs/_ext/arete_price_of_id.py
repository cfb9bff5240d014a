"""Sphinx extension: the computed numbers and tables of ``docs/explanation/price-of-id.md``.

On ``builder-inited`` it runs :func:`arete_proofs.walkthrough.price_of_id.compute` (3 to 5 minutes on two cores) or
reads its cached JSON (``docs/_build/.arete-cache/price-of-id-<key>.json``, keyed by a hash of the package's
``privacy/id_*.py``, the walkthrough module, the shipped certificate ``docs/data/c-id-lower.json``, the frontier files
and this file).  The page uses

* the role ``{piv}`KEY``` for one value (the keys are :data:`arete_proofs.walkthrough.price_of_id.KEYS`; an unknown
  key is a build error);
* the directive ``{pitable} NAME`` for a table (``rows_mean_abs``, ``rows_variance``, ``rules_mean_abs``,
  ``rules_variance``, ``gap_mean_abs``, ``gap_variance``, ``asym``, ``symbolic``).

So no number on the page is typed by hand.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

EXT = Path(__file__).resolve().parent
DOCS = EXT.parent
ROOT = DOCS.parent
PACKAGE = ROOT / "arete_proofs"

_DATA: dict = {}


def _sources() -> list[Path]:
    pkg = sorted((PACKAGE / "privacy").glob("id_*.py")) + [PACKAGE / "walkthrough" / "price_of_id.py",
                                                           PACKAGE / "walkthrough" / "frontier.py"]
    data = [DOCS / "data" / n for n in ("c-id-lower.json", "frontier.json", "frontier-variance.json")]
    return pkg + [p for p in data if p.exists()] + [Path(__file__)]


def cache_key() -> str:
    h = hashlib.sha256(b"price-of-id/1")
    for p in _sources():
        b = p.read_bytes()
        h.update(f"\0{p.relative_to(ROOT).as_posix()}\0{len(b)}\0".encode())
        h.update(b)
    return h.hexdigest()[:16]


def load(log=None) -> dict:
    """The page's data, from the cache or computed (and cached)."""
    if _DATA:
        return _DATA
    cache = DOCS / "_build" / ".arete-cache"
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"price-of-id-{cache_key()}.json"
    if path.exists():
        try:
            _DATA.update(json.loads(path.read_text(encoding="utf-8")))
            return _DATA
        except (OSError, ValueError):
            pass
    from arete_proofs.walkthrough.price_of_id import compute

    data = compute(progress=(log.info if log else None))
    for old in cache.glob("price-of-id-*.json"):
        old.unlink()
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    _DATA.update(data)
    return _DATA


def setup(app):
    from docutils import nodes
    from sphinx.util import logging
    from sphinx.util.docutils import SphinxDirective

    log = logging.getLogger(__name__)

    def _inited(app_):
        load(log)

    def piv_role(name, rawtext, text, lineno, inliner, options=None, content=None):
        values = load(log)["values"]
        key = text.strip()
        if key not in values:
            msg = inliner.reporter.error(f"piv: unknown key {key!r}", line=lineno)
            return [inliner.problematic(rawtext, rawtext, msg)], [msg]
        return [nodes.Text(values[key])], []

    class PiTable(SphinxDirective):
        """``pitable NAME``: a table of the page's data."""

        required_arguments = 1
        has_content = False

        def run(self):
            tables = load(log)["tables"]
            name = self.arguments[0]
            if name not in tables:
                raise self.error(f"pitable: unknown table {name!r}")
            t = tables[name]
            body = [t["header"], *t["rows"]]
            table = nodes.table()
            group = nodes.tgroup(cols=len(t["header"]))
            table += group
            for _ in t["header"]:
                group += nodes.colspec(colwidth=1)
            head, tbody = nodes.thead(), nodes.tbody()
            group += head
            group += tbody
            for i, row in enumerate(body):
                r = nodes.row()
                for cell in row:
                    entry = nodes.entry()
                    entry += nodes.paragraph("", "", nodes.Text(str(cell)))
                    r += entry
                (head if i == 0 else tbody).append(r)
            return [table]

    app.connect("builder-inited", _inited)
    app.add_role("piv", piv_role)
    app.add_directive("pitable", PiTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
