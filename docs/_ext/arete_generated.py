"""The pages the build generates under ``docs/generated/``: written only when their text changed (so Sphinx does not
re-read them), and a page no longer generated removed (so no stale page stays in the site)."""

from __future__ import annotations

from pathlib import Path


def sync(out: Path, wanted: dict[str, str]) -> None:
    """Make ``out/*.md`` exactly the pages ``wanted`` (``{file name: Markdown}``)."""
    out.mkdir(parents=True, exist_ok=True)
    for name, text in wanted.items():
        path = out / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    for old in out.glob("*.md"):
        if old.name not in wanted:
            old.unlink()
