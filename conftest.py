"""pytest configuration shared by the test suite and the doctests.

Modules whose doctests need an optional extra are not collected when the extra
is missing (their tests in ``tests/`` skip with a reason instead), so the README's
test command works with ``pip install -e '.[test]'`` alone.
"""

import importlib.util

collect_ignore = []
if importlib.util.find_spec("flint") is None:  # extra 'certified'
    collect_ignore += ["arete_proofs/certified", "arete_proofs/check"]
if importlib.util.find_spec("matplotlib") is None:  # extra 'docs'
    collect_ignore.append("arete_proofs/walkthrough")
if importlib.util.find_spec("dp_accounting") is None:  # extra 'accounting'
    collect_ignore += ["arete_proofs/privacy/pld.py", "arete_proofs/privacy/composition.py"]
