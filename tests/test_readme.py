"""Every code block of README.md is run here, and what it shows is what it prints.

The blocks are read from the README itself, in order; each kind has one check, and a block no
check knows fails the test (a new block must come with its check):

* ``console`` blocks: every ``$ .venv/bin/arete ...`` line is run in-process (``arete_proofs.cli``)
  and the lines shown under it must appear in its output (standard output, then standard error),
  in order; a line ``...`` stands for any number of lines.  The proof-chain run on the default grid
  takes minutes, so that one is marked ``slow``.
* ``python`` blocks are executed; the ``text`` block right after one ("prints") is its output.
* ``sh`` blocks are the install command and the CI test command: the install command must be the
  start of the test command, and the test command must be what ``.ci/run`` extracts after the
  ``ci: the test command`` marker (the awk line of ``.ci/run``, run here), word for word the command
  CI runs.  Installing into a fresh virtualenv is what CI itself does with them.

The README also stays short: at most 150 lines, and the main job within its first 40 lines.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CI_COMMAND = ("python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && "
              ".venv/bin/python -m pytest -n 2 -m \"not slow\"")
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _blocks(text=None):
    """``(line number, info, body)`` of every fenced block of the README."""
    text = README.read_text(encoding="utf-8") if text is None else text
    return [(text[:m.start()].count("\n") + 1, m.group(1), m.group(2)) for m in _FENCE.finditer(text)]


def _run_arete(command: str) -> str:
    """Standard output then standard error of one ``arete`` command line, run in-process."""
    from arete_proofs.cli import main

    argv = shlex.split(command)
    assert argv[0] in (".venv/bin/arete", "arete"), command
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv[1:])
    assert code == 0, f"{command} exited with {code}: {err.getvalue()[-500:]}"
    return out.getvalue() + err.getvalue()


def shown_in(shown: list[str], output: str) -> bool:
    """Whether the ``shown`` lines appear in ``output`` in order, ``...`` standing for any lines.

    >>> shown_in(["a", "...", "c"], "a\\nb\\nc\\n"), shown_in(["a", "c"], "a\\nb\\nc\\n")
    (True, False)
    """
    lines = [ln.rstrip() for ln in output.splitlines()]
    i = 0
    gap = False
    for want in shown:
        if want.strip() == "...":
            gap = True
            continue
        if gap:
            while i < len(lines) and lines[i] != want.rstrip():
                i += 1
        if i >= len(lines) or lines[i] != want.rstrip():
            return False
        i += 1
        gap = False
    return True


def _console(body: str):
    """``(command, shown lines)`` of each ``$`` line of a console block."""
    out = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def _cases():
    cases = []
    blocks = _blocks()
    for k, (line, info, body) in enumerate(blocks):
        marks = ()
        if info == "console":
            slow = any("verify" in cmd and "--grid quick" not in cmd for cmd, _ in _console(body))
            marks = (pytest.mark.slow,) if slow else ()
        cases.append(pytest.param(k, id=f"line-{line}-{info or 'plain'}", marks=marks))
    return cases


@pytest.mark.parametrize("index", _cases())
def test_readme_block(index):
    check_block(_blocks(), index)


def check_block(blocks, index):
    """Run block ``index`` of ``blocks`` and compare it with what the README shows."""
    line, info, body = blocks[index]
    if info == "console":
        for command, shown in _console(body):
            output = _run_arete(command)
            assert shown_in(shown, output), f"README line {line}: `{command}` printed\n{output}"
    elif info == "python":
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(body, f"README.md:{line}", "exec"), {"__name__": "__readme__"})
        follows = blocks[index + 1] if index + 1 < len(blocks) else None
        assert follows and follows[1] == "text", f"README line {line}: a Python block is followed by its output"
        assert out.getvalue() == follows[2], f"README line {line} printed\n{out.getvalue()}"
    elif info == "text":
        assert index > 0 and blocks[index - 1][1] == "python", f"README line {line}: a text block shows a Python output"
    elif info == "sh":
        command = body.strip()
        if "pytest" in command:
            assert command == CI_COMMAND
            assert "<!-- ci: the test command" in README.read_text().split(body)[0].splitlines()[-2]
        else:
            assert CI_COMMAND.startswith(command + " && "), f"README line {line}: not the install command"
    else:
        pytest.fail(f"README line {line}: a ```{info} block with no check in tests/test_readme.py")


def test_ci_extracts_the_readme_test_command():
    """``.ci/run`` reads the test command with this awk line; run it on the README."""
    if shutil.which("awk") is None:
        pytest.skip("awk is not installed")
    script = (ROOT / ".ci" / "run").read_text()
    m = re.search(r"TEST_CMD=\$\(awk '(.*?)' README\.md\)", script)
    assert m, ".ci/run no longer reads the README's test command with awk"
    got = subprocess.run(["awk", m.group(1), str(README)], capture_output=True, text=True, check=True).stdout
    assert got.strip() == CI_COMMAND


def test_readme_is_short_and_starts_with_the_main_job():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines (at most 150)"
    first = next(i for i, ln in enumerate(lines) if "arete verify" in ln)
    assert first < 40, f"the main job starts at line {first + 1}"


def test_broken_blocks_are_caught():
    """A block with no check, a wrong output, a Python block whose output differs: each fails."""
    with pytest.raises(pytest.fail.Exception, match="no check"):
        check_block(_blocks("text\n```toml\nx = 1\n```\n"), 0)
    wrong = "```console\n$ arete density --paper-eps 20 0\n0  70.8748903745138\n```\n"
    with pytest.raises(AssertionError, match="printed"):
        check_block(_blocks(wrong), 0)
    right = wrong.replace("70.8748903745138", "70.8748903745137")
    check_block(_blocks(right), 0)
    with pytest.raises(AssertionError, match="printed"):
        check_block(_blocks("```python\nprint(1 + 1)\n```\n\n```text\n3\n```\n"), 0)
    with pytest.raises(AssertionError, match="install"):
        check_block(_blocks("```sh\npip install something-else\n```\n"), 0)
