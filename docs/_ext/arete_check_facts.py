"""``{arete-check-facts}``: the certificate checker's modules, their lines of code and its certificate kinds,
counted from the source at build time (``tests/test_layers.py`` uses :func:`code_lines` for the size limit).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "arete_proofs" / "check"


def code_lines(path: Path) -> int:
    """Lines that hold code: not blank, not a comment, not inside a docstring."""
    text = Path(path).read_text()
    doc = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                doc.update(range(first.lineno, first.end_lineno + 1))
    return sum(1 for i, line in enumerate(text.splitlines(), 1)
               if line.strip() and not line.strip().startswith("#") and i not in doc)


def facts():
    """``(rows, total)``: (module, lines of code, first docstring line) for each module of the checker."""
    rows = []
    for p in sorted(CHECK.glob("*.py")):
        tree = ast.parse(p.read_text())
        first = (ast.get_docstring(tree) or "").strip().split("\n")[0]
        rows.append((f"arete_proofs/check/{p.name}", code_lines(p), first))
    return rows, sum(r[1] for r in rows)


def setup(app):
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    class CheckFacts(SphinxDirective):
        has_content = False

        def run(self):
            for p in CHECK.glob("*.py"):
                self.env.note_dependency(str(p))
            rows, total = facts()
            from arete_proofs.check import KINDS

            para = nodes.paragraph("", "", nodes.Text(
                f"The checker is {total} lines of code in {len(rows)} modules (docstrings, comments and blank "
                f"lines not counted), and reads {len(KINDS)} kinds of certificate: {', '.join(KINDS)}."))
            table = nodes.table()
            group = nodes.tgroup(cols=3)
            table += group
            for w in (3, 1, 6):
                group += nodes.colspec(colwidth=w)
            head, body = nodes.thead(), nodes.tbody()
            group += head
            group += body
            for i, row in enumerate([("module", "lines of code", "what it holds")] + rows):
                r = nodes.row()
                for j, cell in enumerate(row):
                    e = nodes.entry()
                    text = nodes.literal(str(cell), str(cell)) if (i and j == 0) else nodes.Text(str(cell))
                    e += nodes.paragraph("", "", text)
                    r += e
                (head if i == 0 else body).append(r)
            return [para, table]

    app.add_directive("arete-check-facts", CheckFacts)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
