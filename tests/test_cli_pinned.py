"""Today's command lines print what they printed before the noise interface (issue 22).

``tests/data/cli_pinned.json`` holds the standard output (timings masked), the exit status,
the one-line error of a refused input and the SHA-256 of every file written, for command
lines of every subcommand that takes a noise, recorded by running ``arete_proofs.cli.main``
at commit 1c783eb (version 0.2.0).  Each case is run again here and must match byte for
byte; a deliberately changed output is caught (last test).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
from pathlib import Path

import pytest

from arete_proofs.cli import main

DATA = json.loads((Path(__file__).parent / "data" / "cli_pinned.json").read_text())
TIMING = re.compile(r'("seconds": [0-9.e+-]+|time +[0-9.]+ s)')


def _run(argv, tmp):
    argv = [a.replace("{tmp}", str(tmp)) for a in argv]
    if any(a.startswith("--certified") or a == "certify" for a in argv):
        pytest.importorskip("flint", reason="certified output needs the extra 'certified' (python-flint)")
    if "--compose" in argv:
        pytest.importorskip("dp_accounting", reason="--compose needs the extra 'accounting' (dp-accounting)")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    files = {a.replace(str(tmp), "{tmp}"): hashlib.sha256(open(a, "rb").read()).hexdigest()
             for a in argv if a.endswith(".npy") and os.path.exists(a)}
    return {"argv": [a.replace(str(tmp), "{tmp}") for a in argv], "exit": code,
            "stdout": TIMING.sub("<time>", out.getvalue()).replace(str(tmp), "{tmp}"),
            "stderr": err.getvalue() if code else "", "files": files}


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: " ".join(c["argv"])[:80])
def test_command_line_prints_the_same(case, tmp_path):
    assert _run(case["argv"], tmp_path) == case


def test_a_changed_output_is_caught(tmp_path):
    case = dict(DATA["cases"][0])
    case["stdout"] = case["stdout"].replace("0.", "0,", 1)   # one character changed
    assert _run(case["argv"], tmp_path) != case
