"""Sphinx extension: the changelog in the docs, split into pages from ``CHANGELOG.md`` at build time.

``CHANGELOG.md`` at the repository root is the one place the project's history lives (one line
per change, newest first, under ``## version`` and ``### date`` headings). On ``builder-inited``
this writes ``docs/generated/changelog/index.md`` and pages ``part-N.md`` holding consecutive
dates, each under :data:`WORDS` words (a day longer than that is split across pages), so that no
page of the site is too long to read; ``docs/project/changelog.md`` links the index.
"""

from __future__ import annotations

import re
from pathlib import Path

from arete_generated import sync

EXT = Path(__file__).resolve().parent
ROOT = EXT.parent.parent
OUT = EXT.parent / "generated" / "changelog"

#: Most words on one changelog page.
WORDS = 3500


def _entries(text: str):
    """``(version, date, line)`` of every change line, newest first."""
    version = date = None
    for line in text.splitlines():
        if line.startswith("## "):
            version = line[3:].strip()
        elif line.startswith("### "):
            date = line[4:].strip()
        elif line.startswith("- ") and version and date:
            yield version, date, line


def pages(text: str) -> dict[str, str]:
    chunks, cur, words = [], [], 0
    for entry in _entries(text):
        n = len(entry[2].split())
        if cur and words + n > WORDS:
            chunks.append(cur)
            cur, words = [], 0
        cur.append(entry)
        words += n
    if cur:
        chunks.append(cur)
    out = {}
    index = ["# Changes by date", "",
             "The history of the project, one line per change, newest first, from `CHANGELOG.md` at "
             "the repository root (the commit id in brackets; `git show ID` has the full message).", "",
             "| page | from | to | changes |", "|---|---|---|---|"]
    for i, chunk in enumerate(chunks, 1):
        first, last = chunk[-1][1], chunk[0][1]
        L = [f"# Changes {first} to {last}" if first != last else f"# Changes of {first}", ""]
        version = date = None
        for v, d, line in chunk:
            if v != version:
                L += ["", f"## {v}", ""]
                version, date = v, None
            if d != date:
                L += ["", f"### {d}", ""]
                date = d
            L.append(line)
        out[f"part-{i}.md"] = re.sub(r"\n{3,}", "\n\n", "\n".join(L)) + "\n"
        index.append(f"| [part {i}](part-{i}.md) | {first} | {last} | {len(chunk)} |")
    index += ["", "```{toctree}", ":hidden:", ""] + [f"part-{i}" for i in range(1, len(chunks) + 1)] + ["```", ""]
    out["index.md"] = "\n".join(index)
    return out


def generate(app) -> None:
    sync(OUT, pages((ROOT / "CHANGELOG.md").read_text(encoding="utf-8")))


def setup(app):
    app.connect("builder-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
