"""The package's architecture, checked from the source: layers, no import cycles, module size.

The import graph is built from the AST of every module of ``arete_proofs``:
module-level imports, imports inside functions and ``importlib.import_module``
calls with a literal name all count.  ``from pkg import sub`` is an edge to the
submodule ``pkg.sub`` when that is a module, else to ``pkg``.

The layer order is declared once, in :data:`LAYERS` (lowest first).  A module
may import its own subpackage and any lower layer, never a higher one and never
another subpackage of its own layer.  The same checker runs on synthetic
packages with a planted cycle and a planted upward import, to show that it can fail.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

PACKAGE = "arete_proofs"
ROOT = Path(__file__).resolve().parents[1]

#: Layers of ``arete_proofs``, lowest first: the first component below the package
#: root names the layer of a module (``arete_proofs.chain.registry`` is in ``chain``).
#: ``arete_proofs`` itself (its ``__init__``, which re-exports) and ``__main__`` are on top.
LAYERS = (
    ("_validation", "_version", "_workload", "check"),  # core: precision, argument checks, the version; the certificate checker
    ("distributions", "reference"),  # exact densities; the independent methods that test them
    ("privacy",),  # tight epsilon, loss curves, errors, optimizer
    ("mechanisms", "chain"),  # samplers and mechanisms; the proof chain and its checks
    ("certified", "stats"),  # ball arithmetic; scipy.stats objects
    ("noise",),  # the noise families behind one interface (each family imports its engine and tools)
    ("walkthrough", "cli", "opendp"),  # the docs' computations; the command line; OpenDP measurements of the noises
    ("", "__main__"),  # the package root
)

MAX_LINES = 800


# ---------------------------------------------------------------------------
# the checker (also run on synthetic packages below)
# ---------------------------------------------------------------------------

def _modules(root: Path, package: str) -> dict[str, Path]:
    """``{dotted module name: path}`` of every ``.py`` file under ``root/package``."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules.get(name, Path()).name == "__init__.py"


def _resolve(importer: str, level: int, module: str | None, modules) -> str:
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not _is_package(importer, modules):
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Edges ``importer -> imported`` between modules of ``package`` (all imports, any depth)."""
    modules = _modules(root, package)
    graph: dict[str, set[str]] = {m: set() for m in modules}

    def add(src, target):
        # the longest prefix of ``target`` that is a module of the package
        parts = target.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        if parts and ".".join(parts) != src:
            graph[src].add(".".join(parts))

    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        lazy = _lazy_targets(tree, name, modules, package)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == package:
                        add(name, alias.name)
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, node.level, node.module, modules)
                if base.split(".")[0] != package:
                    continue
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    add(name, sub if sub in modules else base)
            elif isinstance(node, ast.Call):
                fn = node.func
                fname = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                if fname in ("import_module", "__import__"):
                    arg = node.args[0] if node.args else None
                    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                        if not lazy:
                            raise AssertionError(f"{name}: dynamic {fname}() with a computed name cannot be "
                                                 f"checked (declare the targets in a module-level {LAZY_TABLES})")
                        for target in lazy:
                            add(name, target)
                        continue
                    if arg.value.split(".")[0] == package:
                        add(name, arg.value)
    return graph


#: Module-level tables that declare the targets of a computed ``import_module`` (PEP 562 lazy
#: loading, a family registry): every string in them that names a module of the package --
#: absolutely, or relative to the importing package -- is an edge.
LAZY_TABLES = ("_LAZY", "_MODULES", "_NAMES")


def _lazy_targets(tree, name, modules, package) -> list[str]:
    base = name if _is_package(name, modules) else name.rpartition(".")[0]
    out = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(isinstance(t, ast.Name) and t.id in LAZY_TABLES for t in targets) or node.value is None:
                continue
            for c in ast.walk(node.value):
                if isinstance(c, ast.Constant) and isinstance(c.value, str):
                    for cand in (c.value, f"{base}.{c.value}"):
                        if cand.split(".")[0] == package and cand in modules:
                            out.append(cand)
    return sorted(set(out))


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of modules (first == last), or ``None``."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    stack: list[str] = []

    def visit(u):
        colour[u] = GREY
        stack.append(u)
        for v in sorted(graph[u]):
            if colour[v] == GREY:
                return stack[stack.index(v):] + [v]
            if colour[v] == WHITE:
                found = visit(v)
                if found:
                    return found
        stack.pop()
        colour[u] = BLACK
        return None

    for u in sorted(graph):
        if colour[u] == WHITE:
            found = visit(u)
            if found:
                return found
    return None


def layer_violations(graph: dict[str, set[str]], package: str, layers) -> list[str]:
    """Imports that go up, or sideways into another subpackage of the same layer."""
    rank = {name: i for i, group in enumerate(layers) for name in group}

    def top(module):
        parts = module.split(".")
        return parts[1] if len(parts) > 1 else ""

    bad = []
    for src, targets in sorted(graph.items()):
        s = top(src)
        if s not in rank:
            bad.append(f"{src}: layer {s!r} is not declared")
            continue
        for dst in sorted(targets):
            d = top(dst)
            if d not in rank:
                bad.append(f"{dst}: layer {d!r} is not declared")
            elif d != s and rank[d] >= rank[s]:
                how = "up" if rank[d] > rank[s] else "sideways"
                bad.append(f"{src} imports {dst} ({how}: {s or 'root'} -> {d or 'root'})")
    return bad


# ---------------------------------------------------------------------------
# the package
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def package_graph():
    """The package's import graph, built once per worker that runs these tests (not at collection)."""
    return import_graph(ROOT, PACKAGE)


def test_every_layer_is_a_subpackage_or_core_module(package_graph):
    tops = {m.split(".")[1] if "." in m else "" for m in package_graph}
    declared = {name for group in LAYERS for name in group}
    assert tops == declared, f"undeclared: {tops - declared}; declared but missing: {declared - tops}"


def test_no_import_cycle(package_graph):
    assert find_cycle(package_graph) is None, " -> ".join(find_cycle(package_graph))


def test_imports_point_down_the_layers(package_graph):
    assert layer_violations(package_graph, PACKAGE, LAYERS) == []


#: what the certificate checker may import beside the standard library (the runner may hand work to Dask)
CHECK_THIRD_PARTY = {"numpy": None, "flint": None, "dask": {"arete_proofs.check._files"}}
#: the checker's size: lines of code, docstrings, comments and blank lines not counted
CHECK_MAX_CODE_LINES = 1500


def _code_lines(path: Path) -> int:
    """The docs' count (``docs/_ext/arete_check_facts.py``): lines that hold code."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("arete_check_facts", ROOT / "docs" / "_ext" / "arete_check_facts.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.code_lines(path)


def test_the_checker_imports_nothing_from_the_search(package_graph):
    """arete_proofs.check imports nothing from the rest of the package (it is the lowest layer and imports no
    sibling) and, beside the standard library, only numpy and python-flint."""
    import sys

    for src, targets in package_graph.items():
        if src.startswith(f"{PACKAGE}.check"):
            assert all(t.startswith(f"{PACKAGE}.check") for t in targets), (src, targets)
    for path in sorted((ROOT / PACKAGE / "check").rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text())):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
            for m in mods:
                top = m.split(".")[0]
                if top in sys.stdlib_module_names or top == PACKAGE:
                    continue
                allowed = CHECK_THIRD_PARTY.get(top, ())
                assert top in CHECK_THIRD_PARTY and (allowed is None or name in allowed), f"{name} imports {m}"


def test_the_checker_is_small():
    n = sum(_code_lines(p) for p in (ROOT / PACKAGE / "check").rglob("*.py"))
    assert n <= CHECK_MAX_CODE_LINES, f"the checker has {n} lines of code"


def test_code_lines_leave_out_docstrings_and_comments(tmp_path):
    p = tmp_path / "m.py"
    p.write_text('"""doc\nstring"""\n\n# note\nx = 1\n\n\ndef f():\n    """one"""\n    return x  # why\n')
    assert _code_lines(p) == 3


def test_reference_methods_share_no_code_with_the_engine(package_graph):
    """The independent methods import nothing from the distributions they test."""
    for src, targets in package_graph.items():
        if src.startswith(f"{PACKAGE}.reference"):
            assert not [t for t in targets if t.startswith(f"{PACKAGE}.distributions")], src


@pytest.mark.parametrize("folder", [PACKAGE, "docs/_ext"])
def test_no_module_above_max_lines(folder):
    long = {str(p.relative_to(ROOT)): n for p in sorted((ROOT / folder).rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split by concern: {long}"


# ---------------------------------------------------------------------------
# the checker can fail: synthetic packages
# ---------------------------------------------------------------------------

def _write(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return tmp_path


SYNTH_LAYERS = (("low",), ("high",), ("",))


def test_checker_finds_a_cycle_through_a_function_level_import(tmp_path):
    root = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/low/__init__.py": "",
        "pkg/low/a.py": "from . import b\n",
        "pkg/low/b.py": "def f():\n    from .a import g\n    return g\n",
    })
    graph = import_graph(root, "pkg")
    assert graph["pkg.low.b"] == {"pkg.low.a"}
    assert find_cycle(graph) == ["pkg.low.a", "pkg.low.b", "pkg.low.a"]


def test_checker_finds_an_upward_import_inside_a_function(tmp_path):
    root = _write(tmp_path, {
        "pkg/__init__.py": "from .high import top\n",
        "pkg/low/__init__.py": "",
        "pkg/low/density.py": "def pdf(certified=False):\n    if certified:\n        from ..high.balls import ball\n",
        "pkg/high/__init__.py": "",
        "pkg/high/balls.py": "from ..low import density\n",
        "pkg/high/top.py": "import importlib\nm = importlib.import_module('pkg.low.density')\n",
    })
    graph = import_graph(root, "pkg")
    assert graph["pkg.high.top"] == {"pkg.low.density"}
    cycle = find_cycle(graph)
    assert cycle[0] == cycle[-1] and set(cycle) == {"pkg.high.balls", "pkg.low.density"}
    assert layer_violations(graph, "pkg", SYNTH_LAYERS) == [
        "pkg.low.density imports pkg.high.balls (up: low -> high)"]


def test_checker_finds_a_sideways_import_and_an_undeclared_layer(tmp_path):
    root = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/low/__init__.py": "",
        "pkg/low/a.py": "from ..beside import b\n",
        "pkg/beside/__init__.py": "",
        "pkg/beside/b.py": "",
    })
    graph = import_graph(root, "pkg")
    assert layer_violations(graph, "pkg", (("low", "beside"), ("",))) == [
        "pkg.low.a imports pkg.beside.b (sideways: low -> beside)"]
    assert layer_violations(graph, "pkg", SYNTH_LAYERS)[0] == "pkg.beside: layer 'beside' is not declared"


def test_checker_refuses_a_computed_dynamic_import(tmp_path):
    root = _write(tmp_path, {"pkg/__init__.py": "import importlib\nm = importlib.import_module('pkg.' + 'x')\n"})
    with pytest.raises(AssertionError, match="dynamic import_module"):
        import_graph(root, "pkg")
