"""The documentation's sources stay readable by construction (the built site: tests/test_docs_render.py).

* No lab notebook where a user reads: README.md, the pages under ``docs/``, the package's
  docstrings, comments and messages carry no issue numbers, no dates and no reference to notes
  outside the repository.  History goes to CHANGELOG.md; ``docs/benchmarks.md`` has one date line.
* The landing page has at most 40 links, and no hand-written page is over 5,000 words.
* Every number a page quotes through ``{num}`` resolves against the shipped data (an unknown row
  or column would fail the docs build; here it fails without one), every ``{arete-table}`` names a
  known table, and those tables are the library's own ``table_markdown`` of the shipped files.
* Every noise family has an example for its generated reference page.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXT = DOCS / "_ext"

#: What a reader must not meet: issue numbers, dates, the reconstruction notes' file name.
NOTEBOOK = (
    re.compile(r"\bissues? \d", re.I),
    re.compile(r"\bissue's\b", re.I),
    re.compile(r"\b20\d\d-\d\d-\d\d\b"),
    re.compile(r"\b2026-"),
    re.compile(r"harrison-manurangsi-notes"),
)


def _pages():
    """The hand-written pages: every ``.md`` under docs/ except the generated and built ones."""
    return sorted(p for p in DOCS.rglob("*.md") if not {"generated", "_build"} & set(p.relative_to(DOCS).parts))


def _user_files():
    files = [ROOT / "README.md", *_pages()]
    files += sorted(p for p in (ROOT / "arete_proofs").rglob("*.py") if "__pycache__" not in p.parts)
    files += sorted(EXT.glob("*.py"))
    return files


def notebook_lines(path: Path) -> list[str]:
    """``path:line: text`` of every line that reads like a lab notebook."""
    out = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if any(p.search(line) for p in NOTEBOOK):
            name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            out.append(f"{name}:{i}: {line.strip()[:120]}")
    return out


def test_no_lab_notebook_where_a_user_reads():
    found = [hit for f in _user_files() for hit in notebook_lines(f)]
    bench = DOCS / "benchmarks.md"
    dated = [hit for hit in found if hit.startswith(str(bench.relative_to(ROOT)))]
    assert len(dated) <= 1, f"docs/benchmarks.md has one date line, not {len(dated)}:\n" + "\n".join(dated)
    rest = [hit for hit in found if hit not in dated]
    assert not rest, "history, issue numbers or outside notes where a user reads:\n" + "\n".join(rest)


def test_the_notebook_check_can_fail(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("fine\nsee issue 24\nmeasured on 2026-12-02\nfrom harrison-manurangsi-notes.md\n")
    assert len(notebook_lines(page)) == 3


def _links(text: str) -> int:
    roles = re.findall(r"\{(?:doc|ref|prf:ref)\}`", text)
    md = re.findall(r"\]\((?!#)[^)]+\)", text)
    toctree = 0
    for block in re.findall(r"```\{toctree\}\n(.*?)```", text, re.S):
        if ":hidden:" not in block:
            toctree += sum(1 for ln in block.splitlines() if ln.strip() and not ln.startswith(":"))
    return len(roles) + len(md) + toctree


def test_landing_page_has_at_most_40_links():
    n = _links((DOCS / "index.md").read_text(encoding="utf-8"))
    assert 0 < n <= 40, f"docs/index.md has {n} links"
    assert _links("{doc}`a` [b](c.md) [d](#e)\n```{toctree}\nx\ny\n```\n") == 4


def test_no_hand_written_page_is_over_5000_words():
    long = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").split()) for p in _pages()}
    assert all(n <= 5000 for n in long.values()), {k: n for k, n in long.items() if n > 5000}


@pytest.fixture(scope="module")
def site():
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(EXT))
    import arete_site

    return arete_site


def _source(path: Path) -> str:
    """A page without its code spans of two or more backticks (where the syntax is shown, not used)."""
    return re.sub(r"(?<=[^\n])(`{2,})([^\n]+?)\1", "", path.read_text(encoding="utf-8"))


def _num_refs(site, fast: bool):
    """``(page, spec)`` of every ``{num}``: the fast ones read data files, the others compute."""
    refs = []
    for page in _pages():
        for spec in re.findall(r"\{num\}`([^`]+)`", _source(page)):
            name = spec.split(":")[0]
            slow = (spec.startswith("@") and not spec.startswith("@const:")) or \
                (name in site.TABLES and site.TABLES[name][2])
            if slow != fast:
                refs.append((page, spec))
    return refs


def test_every_quoted_number_resolves(site):
    refs = _num_refs(site, fast=True)
    assert refs, "no page quotes a number through {num}"
    bad = []
    for page, spec in refs:
        try:
            site.value(spec)
        except Exception as exc:  # noqa: BLE001 - any failure is a broken reference
            bad.append(f"{page.relative_to(ROOT)}: {spec}: {exc}")
    assert not bad, "\n".join(bad)
    with pytest.raises(KeyError):
        site.value("frontier-mean-abs:8:no such column")
    with pytest.raises(KeyError):
        site.value("frontier-mean-abs:99:Laplace / SC")


@pytest.mark.slow
def test_every_proved_value_resolves(site):
    for page, spec in _num_refs(site, fast=False):
        assert site.value(spec), (page, spec)


def test_every_table_directive_names_a_table(site):
    names = set()
    for page in _pages():
        names |= set(re.findall(r"```\{arete-table\} (\S+)", _source(page)))
    assert names and names <= set(site.TABLES), names - set(site.TABLES)


def test_the_tables_are_the_library_tables_of_the_shipped_files(site):
    from arete_proofs.walkthrough import beyond, comparison, frontier, frontier_discrete

    s = site.Site()
    assert s.table("frontier-mean-abs") == frontier.table_markdown(frontier.load())
    assert s.table("frontier-variance") == frontier.table_markdown(frontier.load(frontier.VARIANCE))
    assert s.table("gamma-gauss-mean-abs") == beyond.table_markdown(beyond.load())
    assert s.table("lattice-skellam") == frontier_discrete.table_markdown(frontier_discrete.load())
    assert s.table("comparison-discrete-mean-abs") == comparison.table_markdown(comparison.load(), "discrete", "mean_abs")
    header, rows = site.parse_table(s.table("frontier-mean-abs"))
    assert site.render_table(header, rows).splitlines()[2:] == s.table("frontier-mean-abs").splitlines()[2:]


def test_every_family_has_a_reference_example():
    sys.path.insert(0, str(EXT))
    import arete_family_pages

    from arete_proofs.noise import FAMILIES

    assert set(FAMILIES) <= set(arete_family_pages.EXAMPLES)
