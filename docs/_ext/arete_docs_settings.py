"""Settings shared by the modules of the ``arete_docs`` Sphinx extension.

The grid level and number formats of the generated pages, the statements that
get a plot, Lemma 3's table and the paths of the checkout. Plain constants: no
Sphinx, no :mod:`arete_proofs` import.
"""

from __future__ import annotations

from pathlib import Path

#: Grid level and digits of every number on the generated pages.
LEVEL = "quick"
DIGITS = 20
#: Digits of the plot data and of the tight-epsilon table.
PLOT_DIGITS = 15
TABLE_DIGITS = 8
PLOT_POINTS = 40
#: Statements that get a plot of both sides of a bound over t.
PLOTTED = ("lemma-14", "lemma-15", "lemma-16", "claim-1", "lemma-17", "lemma-18", "lemma-19", "lemma-28")
#: Lemma 3's table: eps x Delta ("2/e" is exact).
TABLE_EPS = (20, 30, 40, 60)
TABLE_DELTAS = ("2/e", "1", "10")

#: docs/_ext (this extension), docs/, the checkout and the package whose source keys the cache.
EXT = Path(__file__).resolve().parent
DOCS = EXT.parent
ROOT = DOCS.parent
PACKAGE = ROOT / "arete_proofs"
