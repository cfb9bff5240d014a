"""Light start-up (issue 22): ``import arete_proofs`` and ``arete density`` load no heavy package.

Checked in a fresh interpreter (``sys.modules`` after the import or the command), so that
nothing the test runner imported can hide an import.  The timing itself is measured in
``benchmarks/bench_startup.py``, not asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("scipy", "sympy", "dp_accounting", "flint", "matplotlib", "dask")


def _loaded(code: str) -> list[str]:
    probe = code + f"\nimport sys, json\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_import_loads_no_heavy_package():
    assert _loaded("import arete_proofs, arete_proofs.noise") == []


def test_density_command_loads_no_heavy_package():
    code = ("from arete_proofs.cli import main\n"
            "main(['density', '--alpha', '0.5', '--theta', '1', '--lam', '0.5', '0.3'])")
    assert _loaded(code) == []


def test_the_probe_can_fail():
    # a command that needs scipy shows up: the probe sees what is imported
    assert "scipy" in _loaded("import arete_proofs; arete_proofs.fast")
