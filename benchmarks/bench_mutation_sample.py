"""Mutation sample of the fast tier: how many small code mutants the fast tests of their module kill.

A mutant is one operator or constant changed in one line of ``arete_proofs/distributions/``,
``arete_proofs/privacy/tight*.py`` or ``arete_proofs/certified/`` (``+``/``-``, ``*``/``/``,
``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``and``/``or``, an integer constant plus one, ``True``/``False``).
The list is drawn once from a fixed seed among the lines the fast tier executes and kept in
``benchmarks/mutants_sample.json``; each entry records the file, the line's text and the change, so
the same list is re-run against a later version of the tests (``--tests-from`` another checkout).

Each mutant runs against "the tests of its module": the module's doctests and its own test files
``tests/test_<stem>*.py`` (when there are none, the test files that import it), fast tier only (``-m "not slow"``), stopping at the first failure. Killed: a
test fails or errors, or the run exceeds ``--timeout`` seconds. Survived: every test passes.

    python benchmarks/bench_mutation_sample.py --draw 60          # (re)draw the list (needs no tests run)
    python benchmarks/bench_mutation_sample.py                    # run the list, print the kill rate
    python benchmarks/bench_mutation_sample.py --json out.json    # and write per-mutant verdicts

The source tree is copied to a scratch directory per run, so the checkout is never edited.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "benchmarks" / "mutants_sample.json"
TARGETS = ("arete_proofs/distributions/*.py", "arete_proofs/privacy/tight*.py", "arete_proofs/certified/*.py")
SWAPS = {ast.Add: "-", ast.Sub: "+", ast.Mult: "/", ast.Div: "*", ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=",
         ast.GtE: ">", ast.Eq: "!=", ast.NotEq: "==", ast.And: "or", ast.Or: "and"}
TOKENS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
          ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.And: "and", ast.Or: "or"}


def _docstring_lines(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.update(range(first.lineno, first.end_lineno + 1))
    return out


def _pattern(token):
    if token[0].isalnum():                      # a number, True/False, and/or: a whole word
        return rf"(?<![\w.]){re.escape(token)}(?![\w.])"
    return rf"(?<= ){re.escape(token)}(?= )"     # a binary operator written with spaces around it


def _sites(code, token):
    return list(re.finditer(_pattern(token), code))


def candidates(path: Path):
    """Every (line number, old token, new token) of one file that a one-token swap can mutate."""
    src = path.read_text()
    lines = src.splitlines()
    tree = ast.parse(src)
    skip = _docstring_lines(tree)
    out = []

    def add(lineno, old, new):
        if lineno in skip:
            return
        text = lines[lineno - 1]
        code = text.split("#", 1)[0]
        if len(_sites(code, old)) == 1:
            out.append({"file": str(path.relative_to(ROOT)), "line": text.strip(), "old": old, "new": new})

    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and type(node.op) in SWAPS:
            add(node.lineno, TOKENS[type(node.op)], SWAPS[type(node.op)])
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPS:
            add(node.lineno, TOKENS[type(node.ops[0])], SWAPS[type(node.ops[0])])
        elif isinstance(node, ast.BoolOp) and type(node.op) in SWAPS:
            add(node.lineno, TOKENS[type(node.op)], SWAPS[type(node.op)])
        elif isinstance(node, ast.Constant) and type(node.value) is int and 1 <= node.value <= 99:
            add(node.lineno, str(node.value), str(node.value + 1))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            add(node.lineno, str(node.value), str(not node.value))
    # one candidate per (line, old token): a line's text must identify the mutant
    seen, uniq = set(), []
    for c in out:
        key = (c["file"], c["line"], c["old"])
        if key not in seen and sum(1 for ln in lines if ln.strip() == c["line"]) == 1:
            seen.add(key)
            uniq.append(c)
    return uniq


def draw(n, seed, covered=None):
    pool = []
    for pattern in TARGETS:
        for p in sorted(ROOT.glob(pattern)):
            pool += [c for c in candidates(p) if covered is None or (c["file"], c["line"]) in covered]
    rng = random.Random(seed)
    return sorted(rng.sample(pool, n), key=lambda c: (c["file"], c["line"]))


def covered_lines(coverage_json):
    """(file, stripped line text) pairs a coverage.py JSON report marks as executed."""
    data = json.loads(Path(coverage_json).read_text())
    out = set()
    for name, f in data["files"].items():
        rel = name[name.index("arete_proofs/"):]
        lines = (ROOT / rel).read_text().splitlines()
        out.update((rel, lines[i - 1].strip()) for i in f["executed_lines"] if i <= len(lines))
    return out


def tests_of(module_file: str, tests_dir: Path):
    """The tests of a module: ``tests/test_<stem>*.py`` (the module's own test files); when there are none,
    the test files that import the module (any import form)."""
    dotted = module_file[:-3].replace("/", ".")
    parent, _, stem = dotted.rpartition(".")
    own = sorted(tests_dir.glob(f"test_{stem}*.py"))
    if own:
        return own
    hits = []
    for t in sorted(tests_dir.glob("test_*.py")):
        tree = ast.parse(t.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == dotted or (node.module == parent and any(a.name == stem for a in node.names)):
                    hits.append(t)
                    break
            elif isinstance(node, ast.Import) and any(a.name == dotted for a in node.names):
                hits.append(t)
                break
    return hits


def apply(src_root: Path, m):
    path = src_root / m["file"]
    lines = path.read_text().splitlines(keepends=True)
    idx = [i for i, ln in enumerate(lines) if ln.strip() == m["line"]]
    if len(idx) != 1:
        raise SystemExit(f"stale mutant (line not found once): {m['file']}: {m['line']}")
    i = idx[0]
    code, sep, comment = lines[i].partition("#")
    (site,) = _sites(code, m["old"])
    code = code[:site.start()] + m["new"] + code[site.end():]
    lines[i] = code + sep + comment
    path.write_text("".join(lines))


def run_one(m, tests_root: Path, timeout, workers):
    with tempfile.TemporaryDirectory(prefix="arete-mutant-") as tmp:
        tmp = Path(tmp)
        shutil.copytree(ROOT / "arete_proofs", tmp / "arete_proofs", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(tests_root / "tests", tmp / "tests", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")
        for extra in ("README.md", "docs"):
            if (ROOT / extra).exists():
                os.symlink(ROOT / extra, tmp / extra)
        apply(tmp, m)
        tests = [str(p.relative_to(tmp)) for p in tests_of(m["file"], tmp / "tests")]
        cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not slow",
               *(["-n", str(workers)] if workers > 1 else []), m["file"], *tests]
        env = dict(os.environ, PYTHONPATH=str(tmp), PYTHONDONTWRITEBYTECODE="1")
        t0 = time.monotonic()
        try:
            r = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout)
            verdict = "survived" if r.returncode == 0 else ("killed" if r.returncode in (1, 2) else f"exit {r.returncode}")
        except subprocess.TimeoutExpired:
            verdict = "killed (timeout)"
        return {**m, "tests": tests, "verdict": verdict, "seconds": round(time.monotonic() - t0, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--draw", type=int, metavar="N", help="draw N mutants (seed --seed) and write the list")
    p.add_argument("--seed", type=int, default=46)
    p.add_argument("--coverage-json", help="draw only among lines this coverage.py JSON report marks executed")
    p.add_argument("--tests-from", default=str(ROOT), help="checkout whose tests/ run against the mutants")
    p.add_argument("--timeout", type=float, default=600.0)
    p.add_argument("--workers", type=int, default=2, help="pytest-xdist workers per mutant (default 2)")
    p.add_argument("--only", nargs="*", type=int, help="run these indices of the list only")
    p.add_argument("--json", help="write the per-mutant verdicts here")
    a = p.parse_args(argv)
    if a.draw:
        covered = covered_lines(a.coverage_json) if a.coverage_json else None
        LIST.write_text(json.dumps({"seed": a.seed, "mutants": draw(a.draw, a.seed, covered)}, indent=1) + "\n")
        print(f"wrote {a.draw} mutants to {LIST.relative_to(ROOT)}")
        return 0
    mutants = json.loads(LIST.read_text())["mutants"]
    if a.only and not all(0 <= i < len(mutants) for i in a.only):
        p.error(f"--only: indices are 0 to {len(mutants) - 1}")
    picked = [(i, m) for i, m in enumerate(mutants) if a.only is None or i in a.only]
    results = []
    t0 = time.monotonic()
    for k, (i, m) in enumerate(picked, 1):
        r = run_one(m, Path(a.tests_from), a.timeout, a.workers)
        results.append(r)
        print(f"[{k}/{len(picked)}] #{i} {r['verdict']:<17} {r['seconds']:6.1f}s  {m['file']}: "
              f"{m['old']} -> {m['new']} in {m['line'][:60]}", flush=True)
    killed = sum(r["verdict"].startswith("killed") for r in results)
    print(f"killed {killed} of {len(results)} ({100 * killed / max(len(results), 1):.0f} %), "
          f"{time.monotonic() - t0:.0f} s")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
