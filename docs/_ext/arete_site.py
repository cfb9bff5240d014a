r"""Sphinx extension: every table, number and example output of the hand-written pages, made by the build.

A page never types a computed figure.  It asks for it:

* ``{arete-table} NAME`` renders a table of :data:`TABLES` (the library's own ``table_markdown``
  functions over the shipped files ``docs/data/*.json``, or a computation), optionally only some
  of its columns (``:columns: 1-8`` or header words) and rows (``:rows: 2 4 8``), and with
  ``:download: STEM`` writes the whole table as ``generated/data/STEM.csv`` and links it with the
  JSON file it comes from (so wide parameter columns become a download, not page width);
  ``:hide:`` shows only the links (with ``:caption:`` before them);
* the role ``{num}`` inserts one value: ``{num}`NAME:ROW:COLUMN``` is a cell of a table
  (``ROW`` the first cell, ``a..b`` for the range "x to y" over those rows, ``r1,r2`` to match
  the first two cells), ``{num}`FILE.json:rows[eps=8].lattice_top.m|.4g``` a field of a data
  file, ``{num}`@NAME``` a value of :data:`VALUES` (a derived number such as a percentage),
  ``{num}`@const:MODULE.NAME``` a constant of the package (a limit, a default);
* ``{arete-pycon}`` runs Python at build time and shows it as an interactive session with its
  real output; ``{arete-run}`` runs an ``arete`` command line in-process and shows its output.

An unknown name, row or column is a build warning (an error under ``sphinx-build -W``), so a
page cannot quote a number its data no longer has.  Slow results (the certified floors of
infinitely divisible noise, the 2025 paper's tables, examples) are cached in
``docs/_build/.arete-cache/site-KEY.json``, keyed by a hash of the package, the data files and
this file.
"""

from __future__ import annotations

import ast
import contextlib
import csv
import hashlib
import io
import json
import math
import re
import shlex
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

EXT = Path(__file__).resolve().parent
DOCS = EXT.parent
ROOT = DOCS.parent
DATA = DOCS / "data"
GENERATED_DATA = DOCS / "generated" / "data"
CACHE_DIR = DOCS / "_build" / ".arete-cache"

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------
# the tables
# ---------------------------------------------------------------------------


def _frontier(kind):
    from arete_proofs.walkthrough import frontier

    return frontier.table_markdown(frontier.load(frontier.VARIANCE if kind == "variance" else None))


def _beyond(kind):
    from arete_proofs.walkthrough import beyond

    return beyond.table_markdown(beyond.load(), kind)


def _comparison(which, quantity):
    from arete_proofs.walkthrough import comparison

    return comparison.table_markdown(comparison.load(), which, quantity)


def _discrete():
    from arete_proofs.walkthrough import frontier_discrete

    return frontier_discrete.table_markdown(frontier_discrete.load())


def _rates():
    from arete_proofs.chain import rates

    return rates.table_markdown()


def _id_gap():
    from arete_proofs.privacy import id_bounds

    return id_bounds.gap_markdown(id_bounds.gap_table(digits=12))


def _id_variance():
    from arete_proofs.privacy import id_variance

    return id_variance.variance_gap_markdown(id_variance.variance_gap_table())


def _id_mean_abs():
    from arete_proofs.privacy import id_mean_abs

    return id_mean_abs.mean_abs_gap_markdown(id_mean_abs.mean_abs_gap_table())


def _region():
    from arete_proofs.walkthrough import region

    return region.table(region.load_table())


def _rates_region():
    from fractions import Fraction

    rows = []
    for rule in ("mean_abs", "variance"):
        doc = json.loads((DATA / f"rates-region-{rule}.json").read_text())
        for c in doc["cells"]:        # an arete_rates certificate: each cell's proof and its bound
            e1, e2 = (float(Fraction(c[k])) for k in ("e1", "e2"))
            proof = c.get("proof", c)
            how = "cover" if proof["method"] == "cover" else "$\\Delta/\\lambda$ (Lipschitz, $\\lambda \\ge \\theta$)"
            up = float(Fraction(str(c.get("bound", c.get("upper")))))
            rows.append([f"`{rule}`", f"[{e1:g}, {e2:g}]", f"$\\le {math.ceil(up * 1e4) / 1e4}$", how])
    return render_table(["rule", "cell $[e_1, e_2]$", "certified $\\varepsilon^*$ at $e_2$", "how"], rows)


def _test_profile(which):
    """The longest test files (``files``) or tests (``top``) of the fast tier, from ``test-profile.json``
    (written by ``benchmarks/test_profile.py`` from a JUnit report)."""
    doc = json.loads((DATA / "test-profile.json").read_text())
    fast = doc["fast"]
    if which == "files":
        rows = [[f"`{f}`", str(n), f"{s:.0f}", f"{100 * s / fast['test_seconds']:.0f} %"] for f, n, s in fast["files"]]
        return render_table(["file", "tests", "seconds", "share of the tier's test time"], rows)
    return render_table(["test", "seconds"], [[f"`{t}`", f"{s:.0f}"] for t, s in fast["top"]])


def _statements():
    from arete_proofs.chain.registry import ALL_IDS, REGISTRY, STATEMENT_IDS

    rows = []
    for sid in ALL_IDS:
        st = REGISTRY[sid]
        ident = f"{{doc}}`{sid} </generated/statements/{sid}>`" if sid in STATEMENT_IDS else f"`{sid}`"
        rows.append([ident, st.number, st.title.replace("|", "\\|"), st.paper,
                     ", ".join(f"`{u}`" for u in st.uses), st.check_kinds])
    return render_table(["id", "statement", "title", "paper", "uses", "kinds"], rows)


def _composition():
    from arete_proofs.walkthrough import composition

    data = composition.composition_data()
    ks = data["targets"][0]["rows"][0]["k"]
    header = ["target ε", "noise", "E\\|X\\|"] + [f"ε after k = {k}" for k in ks]
    rows = [[r[0], r[2], r[1], *r[3:]] for r in composition.composition_table(data)]
    return render_table(header, rows)


def _hm25(which):
    from arete_proofs.chain import hm25

    return hm25.table() if which == "verdicts" else hm25.eps_table()


#: ``name: (function, data file or None, slow)``: every table a page may show.
TABLES = {
    "frontier-mean-abs": (lambda: _frontier("mean_abs"), "frontier.json", False),
    "frontier-variance": (lambda: _frontier("variance"), "frontier-variance.json", False),
    "gamma-gauss-mean-abs": (lambda: _beyond("mean_abs"), "beyond.json", False),
    "gamma-gauss-variance": (lambda: _beyond("variance"), "beyond.json", False),
    "lattice-skellam": (_discrete, "frontier-discrete.json", False),
    "rates": (_rates, None, False),
    "statements": (_statements, None, False),
    "test-profile-files": (lambda: _test_profile("files"), "test-profile.json", False),
    "test-profile-tests": (lambda: _test_profile("top"), "test-profile.json", False),
    "rates-region": (_rates_region, "rates-region-mean_abs.json", False),
    "region-by-sensitivity": (_region, "region-map.json", False),
    "id-gap": (_id_gap, None, True),
    "id-variance": (_id_variance, None, True),
    "id-mean-abs": (_id_mean_abs, None, True),
    "composition": (_composition, None, True),
    "hm25-verdicts": (lambda: _hm25("verdicts"), None, True),
    "hm25-gdl-epsilon": (lambda: _hm25("eps"), None, True),
}
for _w in ("continuous", "discrete"):
    for _q in ("mean_abs", "variance", "epsilon"):
        TABLES[f"comparison-{_w}-{_q.replace('_', '-')}"] = (
            (lambda w=_w, q=_q: _comparison(w, q)), "comparison.json", False)

# ---------------------------------------------------------------------------
# parsing and rendering Markdown tables
# ---------------------------------------------------------------------------

_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def parse_table(text: str) -> tuple[list[str], list[list[str]]]:
    """``(header, rows)`` of the first Markdown table in ``text`` (escaped ``\\|`` kept in the cells).

    >>> parse_table("| a | b \\\\| c |\\n|---|---|\\n| 1 | 2 |")
    (['a', 'b \\\\| c'], [['1', '2']])
    """
    lines = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("|")]
    if len(lines) < 2:
        raise ValueError("no Markdown table")

    def cells(line):
        return [c.strip() for c in _CELL_SPLIT.split(line.strip().strip("|"))]

    header = cells(lines[0])
    rows = [cells(ln) for ln in lines[2:]]
    return header, rows


def render_table(header, rows) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def _plain(cell: str) -> str:
    """A cell as plain text: Markdown escapes and emphasis removed."""
    return cell.replace("\\|", "|").replace("**", "").strip()


def _column(header, spec: str) -> int:
    """The index of the column ``spec`` names: a 1-based number, or words found in one header only."""
    spec = spec.strip()
    if spec.isdigit():
        i = int(spec) - 1
        if not 0 <= i < len(header):
            raise KeyError(f"no column {spec} (the table has {len(header)})")
        return i
    norm = [_plain(h).lower() for h in header]
    exact = [i for i, h in enumerate(norm) if h == spec.lower()]
    ending = [i for i, h in enumerate(norm) if h.endswith(spec.lower())]
    hits = exact or (ending if len(ending) == 1 else [i for i, h in enumerate(norm) if spec.lower() in h])
    if len(hits) != 1:
        raise KeyError(f"column {spec!r} matches {len(hits)} headers of {[_plain(h) for h in header]}")
    return hits[0]


def _columns(header, spec: str) -> list[int]:
    out = []
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)-(\d+)", part)
        if m:
            out += list(range(int(m.group(1)) - 1, int(m.group(2))))
        elif part:
            out.append(_column(header, part))
    return out


def _same(cell: str, key: str) -> bool:
    a, b = _plain(cell), key.strip()
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def _rows(rows, key: str) -> list[list[str]]:
    """The rows whose first cells are ``key`` (``r1,r2`` for the first two cells)."""
    keys = key.split(",")
    return [r for r in rows if all(_same(r[i], k) for i, k in enumerate(keys))]


_NUM = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _number(cell: str) -> float:
    """The number a cell starts with; of a proved interval ``[lo, hi]``, its lower end."""
    m = _NUM.match(_plain(cell).lstrip("["))
    if not m:
        raise ValueError(f"cell {cell!r} does not start with a number")
    return float(m.group(0))


def _ends(cell: str):
    """((value, text) of the lower end, of the upper end): a number's both ends are itself."""
    parts = _plain(cell).strip().lstrip("[").split(",") if _plain(cell).strip().startswith("[") else [_plain(cell)]
    out = [(_number(p), _NUM.match(p).group(0).strip()) for p in (parts[0], parts[-1].rstrip("]"))]
    return out[0], out[1]


# ---------------------------------------------------------------------------
# the computed data of one build (with the disk cache for the slow parts)
# ---------------------------------------------------------------------------


def _key() -> str:
    h = hashlib.sha256(b"arete_site 1")
    files = sorted(p for p in (ROOT / "arete_proofs").rglob("*.py") if "__pycache__" not in p.parts)
    files += sorted(DATA.glob("*.json")) + [Path(__file__).resolve()]
    for p in files:
        data = p.read_bytes()
        h.update(f"\0{p.relative_to(ROOT).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:16]


class Site:
    """Tables, values and example outputs of one build, computed once and cached on disk."""

    def __init__(self):
        self.key = _key()
        self.path = CACHE_DIR / f"site-{self.key}.json"
        self.cache = {"tables": {}, "pycon": {}, "run": {}}
        if self.path.exists():
            try:
                self.cache.update(json.loads(self.path.read_text()))
            except (OSError, ValueError):
                pass
        self.dirty = False
        self._tables = {}

    def table(self, name: str) -> str:
        if name not in TABLES:
            raise KeyError(f"unknown table {name!r}; the tables are {', '.join(sorted(TABLES))}")
        fn, _, slow = TABLES[name]
        if slow:
            if name not in self.cache["tables"]:
                self.cache["tables"][name] = fn()
                self.dirty = True
            return self.cache["tables"][name]
        if name not in self._tables:
            self._tables[name] = fn()
        return self._tables[name]

    def parsed(self, name: str):
        return parse_table(self.table(name))

    def cell(self, name: str, row: str, column: str) -> str:
        header, rows = self.parsed(name)
        j = _column(header, column)
        if ".." in row:          # "a..b" (or "key,a..b"): the range "x to y" of the column over those rows
            keys = row.split(",")

            def match(r):
                for i, k in enumerate(keys):
                    if ".." in k:
                        lo, hi = (float(x) for x in k.split(".."))
                        if not lo <= _number(r[i]) <= hi:
                            return False
                    elif not _same(r[i], k):
                        return False
                return True

            ends = [_ends(r[j]) for r in rows if match(r)]          # a proved interval: its lower and upper end
            if not ends:
                raise KeyError(f"no rows of {name} in {row}")
            lo, hi = min(e[0] for e in ends)[1], max(e[1] for e in ends)[1]
            return lo if lo == hi else f"{lo} to {hi}"
        sel = _rows(rows, row)
        if len(sel) != 1:
            raise KeyError(f"row {row!r} of {name}: {len(sel)} matches")
        return _plain(sel[0][j])

    def save(self):
        if self.dirty:
            CACHE_DIR.mkdir(parents=True, exist_ok=True)
            for old in CACHE_DIR.glob("site-*.json"):
                if old != self.path:
                    old.unlink()
            self.path.write_text(json.dumps(self.cache, indent=1, sort_keys=True))
            self.dirty = False


_SITE: Site | None = None


def site() -> Site:
    global _SITE
    if _SITE is None:
        _SITE = Site()
    return _SITE


# ---------------------------------------------------------------------------
# values from data files and derived values
# ---------------------------------------------------------------------------

_STEP = re.compile(r"([A-Za-z_][\w-]*)|\[(\w+)=([^\]]+)\]|\[(\d+)\]")


def json_value(spec: str):
    """``FILE.json:path``: ``rows[eps=8].lattice_top.m`` walks keys, ``[k=v]`` selects a list item."""
    fname, _, path = spec.partition(":")
    obj = json.loads((DATA / fname).read_text())
    for part in path.split("."):
        if "[" not in part:              # a plain key (it may contain spaces: "not private")
            obj = obj[part]
            continue
        for m in _STEP.finditer(part):
            if m.group(1):
                obj = obj[m.group(1)]
            elif m.group(4):
                obj = obj[int(m.group(4))]
            else:
                k, v = m.group(2), m.group(3)
                hits = [x for x in obj if _same(str(x.get(k)), v)]
                if len(hits) != 1:
                    raise KeyError(f"{fname}: {len(hits)} items with {k} = {v}")
                obj = hits[0]
    return obj


def _fmt(value, fmt: str | None) -> str:
    if fmt is None:
        return str(value)
    if fmt == "int":
        return str(int(round(float(value))))
    if fmt.endswith("%"):          # ".1%": a fraction as a percentage with a thin space
        return f"{float(value) * 100:.{int(fmt[1:-1] or 0)}f} %"
    return format(float(value), fmt).replace("e-0", "e-").replace("e+0", "e+")


def _pct_above(row_value: str, floor_value: str, digits=1) -> str:
    return f"{(_number(row_value) / _number(floor_value) - 1) * 100:.{digits}f} %"


def _top_rate_over_floor(kind: str, eps: str) -> str:
    """How far the certified top-rate lattice row is above the certified floor at ``eps`` (a percentage)."""
    s = site()
    if kind == "variance":
        row = json_value(f"frontier-variance.json:rows[eps={eps}].lattice_top.variance")
        sc = json_value(f"frontier-variance.json:rows[eps={eps}].staircase.variance")
        floor = s.cell("id-variance", eps, "ID bound / Staircase")
    else:
        row = json_value(f"frontier.json:rows[eps={eps}].lattice_top.mean_abs")
        sc = json_value(f"frontier.json:rows[eps={eps}].staircase.mean_abs")
        floor = s.cell("id-mean-abs", eps, "ID bound / Staircase")
    return f"{(float(row) / float(sc) / _number(floor) - 1) * 100:.2g} %"


def _floor4(x) -> str:
    return f"{math.floor(float(x) * 1e4) / 1e4:.4f}"


def _id(name):
    def value():
        from mpmath import mp

        from arete_proofs.privacy import id_bounds as ib

        with mp.workdps(20):
            return _floor4(getattr(ib, name)(digits=15)) if name != "uniform_defect" else \
                _floor4(ib.uniform_defect(3, digits=15))
    return value


def _mean_abs_from(eps):
    def value():
        from arete_proofs.privacy import id_mean_abs as fm

        return _floor4(fm.mean_abs_gap_from(eps)[0])
    return value


def _variance_interval(lo, hi, step):
    def value():
        from arete_proofs.privacy import id_variance as iv

        # every eps >= lo: the cells of [lo, hi], then one certificate for every eps >= hi
        return _floor4(min(iv.variance_gap_interval(lo, hi, step=step)[0], iv.variance_gap_interval(hi)[0]))
    return value


def _theorem21_unused():
    rows = json.loads((DATA / "frontier.json").read_text())["rows"]
    unused = [float(r["eps"]) - float(r["theorem21"]["epsilon"]) for r in rows if r.get("theorem21")]
    return f"{min(unused):.2f} to {max(unused):.2f}"


#: ``@name`` values: numbers derived from the tables or proved at build time.
VALUES = {
    "theorem21-unused": _theorem21_unused,
    "id-asymptotic-ratio": _id("asymptotic_ratio_lower"),
    "id-c-lower": _id("c_id_lower"),
    "id-uniform-defect": _id("uniform_defect"),
    "mean-abs-floor-from-14": _mean_abs_from(14),
    "mean-abs-floor-from-13.7": _mean_abs_from("13.7"),
    "variance-floor-from-20": lambda: _floor4(__import__("arete_proofs.privacy.id_variance", fromlist=["x"])
                                              .variance_gap_interval(20)[0]),
    "variance-floor-from-14": _variance_interval(14, 20, "0.25"),
    "top-rate-variance-over-floor-14": lambda: _top_rate_over_floor("variance", "14"),
    "top-rate-variance-over-floor-20": lambda: _top_rate_over_floor("variance", "20"),
    "top-rate-mean-abs-over-floor-12": lambda: _top_rate_over_floor("mean_abs", "12"),
    "top-rate-mean-abs-over-floor-14": lambda: _top_rate_over_floor("mean_abs", "14"),
}


def value(spec: str) -> str:
    """The text of one ``{num}`` reference (see the module docstring)."""
    # an optional format after the last "|" (".4g", ".2%", "int"); a "|" in a column name stays
    m = re.fullmatch(r"(.*)\|(\.\d*[a-zA-Z%]|int|g)", spec)
    spec, fmt = (m.group(1), m.group(2)) if m else (spec, None)
    s = site()
    if spec.startswith("@const:"):         # a constant of the package: @const:arete_proofs._validation.MAX_DIGITS
        import importlib

        module, _, attr = spec[len("@const:"):].rpartition(".")
        return _fmt(getattr(importlib.import_module(module), attr), fmt or "g")
    if spec.startswith("@"):
        name = spec[1:]
        if name not in VALUES:
            raise KeyError(f"unknown value {name!r}")
        cache = s.cache.setdefault("values", {})
        if name not in cache:
            cache[name] = VALUES[name]()
            s.dirty = True
        return _fmt(cache[name], fmt) if fmt else cache[name]
    if ".json:" in spec:
        return _fmt(json_value(spec), fmt)
    name, row, column = spec.split(":", 2)
    text = s.cell(name, row, column)
    return _fmt(_number(text), fmt) if fmt else text


# ---------------------------------------------------------------------------
# Sphinx: the role and the directives
# ---------------------------------------------------------------------------


class NumRole(SphinxRole):
    def run(self):
        if ".json:" in self.text:          # the page is re-read when its data file changes
            self.env.note_dependency(str(DATA / self.text.split(":", 1)[0]))
        try:
            text = value(self.text)
        except (KeyError, ValueError, IndexError, OSError, TypeError) as exc:
            msg = f"{{num}}`{self.text}`: {exc}"
            log.warning(msg, location=self.get_location())
            return [nodes.problematic(self.rawtext, self.rawtext)], []
        return [nodes.Text(text)], []


class TableDirective(SphinxDirective):
    """``{arete-table} NAME`` with ``:columns:``, ``:rows:`` and ``:download:``."""

    required_arguments = 1
    option_spec = {"columns": directives.unchanged, "rows": directives.unchanged,
                   "download": directives.unchanged, "caption": directives.unchanged,
                   "hide": directives.flag}

    def run(self):
        name = self.arguments[0]
        if name in TABLES and TABLES[name][1]:      # the page is re-read when the table's data file changes
            self.env.note_dependency(str(DATA / TABLES[name][1]))
        try:
            header, rows = site().parsed(name)
            if "rows" in self.options:
                keys = self.options["rows"].split()
                rows = [r for k in keys for r in _rows(rows, k)]
            cols = _columns(header, self.options["columns"]) if "columns" in self.options else \
                list(range(len(header)))
        except (KeyError, ValueError) as exc:
            log.warning(f"arete-table {name}: {exc}", location=self.get_location())
            return []
        full_header, full_rows = site().parsed(name)
        lines = []
        if "caption" in self.options and "hide" not in self.options:
            lines += [self.options["caption"], ""]
        if "hide" not in self.options:          # :hide: only the download links
            lines += render_table([header[j] for j in cols], [[r[j] for j in cols] for r in rows]).splitlines()
        stem = self.options.get("download")
        if stem:
            GENERATED_DATA.mkdir(parents=True, exist_ok=True)
            path = GENERATED_DATA / f"{stem}.csv"
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow([_plain(h) for h in full_header])
            writer.writerows([[_plain(c) for c in r] for r in full_rows])
            if not path.exists() or path.read_text() != buf.getvalue():
                path.write_text(buf.getvalue())
            links = [f"{{download}}`CSV </generated/data/{stem}.csv>` (every column)"]
            source = TABLES[name][1]
            if source:
                links.append(f"{{download}}`JSON </data/{source}>` (every field, with how each entry was made)")
            caption = self.options.get("caption") if "hide" in self.options else None
            lines += ["", (f"{caption}: " if caption else "Download: ") + ", ".join(links) + "."]
        container = nodes.container(classes=["arete-table"])
        self.state.nested_parse(StringList(lines, source=self.get_source_info()[0]), self.content_offset, container)
        return [container]


def _pycon(code: str, before=()) -> str:
    """Run ``code`` statement by statement and return it as a ``>>>`` session with its output.

    ``before``: the page's earlier examples, run first (silently) in the same namespace, so an
    example may use the names an earlier one defined, as in one interactive session per page."""
    namespace: dict = {"__name__": "__arete_docs__"}
    for earlier in before:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(earlier, "<docs>", "exec"), namespace)
    tree = ast.parse(code)
    lines = code.splitlines()
    out = []
    for node in tree.body:
        src = "\n".join(lines[node.lineno - 1:node.end_lineno])
        first, *rest = src.splitlines()
        out.append(">>> " + first)
        out += ["... " + r for r in rest]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            if isinstance(node, ast.Expr):
                result = eval(compile(ast.Expression(node.value), "<docs>", "eval"), namespace)
                if result is not None:
                    print(repr(result))
            else:
                exec(compile(ast.Module([node], []), "<docs>", "exec"), namespace)
        text = buf.getvalue().rstrip("\n")
        if text:
            out += text.splitlines()
    return "\n".join(out)


def _run(command: str, expect: int = 0, stderr: bool = False) -> str:
    """Run an ``arete ...`` command line in this process, from the repository root; its standard
    output (not the progress lines on standard error).  Another exit status than ``expect`` raises."""
    import os

    from arete_proofs.cli import main

    argv = shlex.split(command)
    if not argv or argv[0] != "arete":
        raise ValueError(f"not an arete command line: {command!r}")
    buf, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
            try:
                code = main(argv[1:])
            except SystemExit as exc:          # --version and --help exit through argparse
                code = exc.code
    finally:
        os.chdir(cwd)
    if (code or 0) != expect:
        raise RuntimeError(f"{command!r} exited with {code}, not {expect}: {err.getvalue().strip()[-500:]}")
    return (buf.getvalue() + (err.getvalue() if stderr else "")).rstrip("\n")


class PyconDirective(SphinxDirective):
    """``{arete-pycon}``: the code run at build time, shown with its real output.

    The examples of one page form one session: each runs after the page's earlier ones."""

    has_content = True

    def run(self):
        code = "\n".join(self.content)
        s = site()
        before = self.env.temp_data.setdefault("arete_pycon", [])
        key = "\n#--\n".join(before + [code])
        try:
            if key not in s.cache["pycon"]:
                s.cache["pycon"][key] = _pycon(code, before)
                s.dirty = True
            text = s.cache["pycon"][key]
            before.append(code)
        except Exception as exc:  # noqa: BLE001 - any failure of an example is a build error
            log.warning(f"arete-pycon: the example failed: {type(exc).__name__}: {exc}", location=self.get_location())
            text = code
        block = nodes.literal_block(text, text, language="pycon")
        self.set_source_info(block)
        return [block]


class RunDirective(SphinxDirective):
    """``{arete-run}``: each content line an ``arete`` command, shown with its real output.

    ``:lines: N`` keeps the first N lines of each output (then ``...``); ``:exit: N`` is the exit
    status the commands must have (default 0); ``:stderr:`` shows standard error too (an error
    message).  ``{{SPEC}}`` in a command is replaced by the value
    ``SPEC`` names (the syntax of the ``{num}`` role), so parameters come from the data files."""

    has_content = True
    option_spec = {"lines": directives.positive_int, "exit": directives.nonnegative_int,
                   "stderr": directives.flag}

    def run(self):
        s = site()
        shown = []
        for command in (ln.strip() for ln in self.content if ln.strip()):
            try:
                # {{SPEC}}: a value of the data files or tables, as for the {num} role
                command = re.sub(r"\{\{(.+?)\}\}", lambda m: value(m.group(1).strip()), command)
                key = f"{command}\0{self.options.get('exit', 0)}\0{'stderr' in self.options}"
                if key not in s.cache["run"]:
                    s.cache["run"][key] = _run(command, self.options.get("exit", 0), "stderr" in self.options)
                    s.dirty = True
                out = s.cache["run"][key].splitlines()
            except Exception as exc:  # noqa: BLE001
                log.warning(f"arete-run {command!r}: {type(exc).__name__}: {exc}", location=self.get_location())
                out = []
            keep = self.options.get("lines")
            if keep and len(out) > keep:
                out = out[:keep] + ["..."]
            shown += ["$ " + command] + out
        text = "\n".join(shown)
        block = nodes.literal_block(text, text, language="console")
        self.set_source_info(block)
        return [block]


def _save(app, exc):
    if _SITE is not None:
        _SITE.save()


def setup(app):
    app.add_role("num", NumRole())
    app.add_directive("arete-table", TableDirective)
    app.add_directive("arete-pycon", PyconDirective)
    app.add_directive("arete-run", RunDirective)
    app.connect("build-finished", _save)
    return {"parallel_read_safe": False, "parallel_write_safe": True, "version": "1"}
