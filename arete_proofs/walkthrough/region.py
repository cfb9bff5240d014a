r"""The certified map of Lemma 3's privacy region, for the docs: a figure and a table from a certificate.

Reads a certificate written by ``arete certify-region`` (:mod:`arete_proofs.certified.region_map`,
format ``arete-region-certificate/1``), or a file of ``arete_region`` certificates made from one
(:mod:`arete_proofs.certified.region_certificate`, format ``arete-region-map/2``: the ones the docs use, shipped
in ``docs/data/``) and draws the
cells in the :math:`(\ln\Delta, \varepsilon)` plane with the paper's line
:math:`\varepsilon = 20 + 4\ln\Delta` (Lemma 3), or lists, for given :math:`\Delta`, the
:math:`\varepsilon` intervals proved private and proved not private.  Nothing here proves anything:
``arete check`` (or ``arete certify-region --check``) re-proves the file.

>>> doc = {"cells": [{"eps": ["1", "2"], "sensitivity": ["1", "10"], "status": "private"},
...                  {"eps": ["2", "3"], "sensitivity": ["1", "10"], "status": "private"},
...                  {"eps": ["3", "4"], "sensitivity": ["1", "10"], "status": "not private"}]}
>>> intervals(doc, 5)["private"], intervals(doc, 5)["not private"]   # adjacent cells are merged
([(1.0, 3.0)], [(3.0, 4.0)])
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

__all__ = ["DATA", "load", "load_table", "intervals", "table", "plot_region_map", "TABLE_DELTAS"]

#: where the shipped certificates live (``docs/data`` of the source tree)
DATA = Path(__file__).resolve().parents[2] / "docs" / "data"
#: the sensitivities of the docs' table
TABLE_DELTAS = (0.5, 1, 10, 100, 1e3, 1e4)
COLOURS = {"private": "#4c9a5b", "not private": "#c0504d", "undecided": "#f0b400"}


def load(path=None):
    r"""A certificate as a dict (default: the shipped map ``docs/data/region-map.json``) of where Lemma 3's
    parameters are :math:`\varepsilon`-DP.

    Read only: nothing is re-proved here (``arete certify-region --check`` does that).  Lemma 3
    claims privacy for :math:`\varepsilon\ge20+4\ln\Delta`, so no cell proved *not* private may
    reach that line: every such cell has :math:`e_1\le20+4\ln d_0`.

    >>> doc = load()
    >>> doc["format"], abs(sum(doc["summary"]["fraction"].values()) - 1) < 1e-5   # area fractions sum to 1
    ('arete-region-map/2', True)
    >>> all(float(Fraction(c["eps"][1])) <= 20 + 4 * math.log(float(Fraction(c["sensitivity"][0])))
    ...     for c in doc["cells"] if c["status"] == "not private")                # consistent with Lemma 3
    True
    """
    with open(path or DATA / "region-map.json", encoding="utf-8") as fh:
        doc = json.load(fh)
    if "certificates" in doc:       # a file of arete_region certificates: their cells, in one list
        doc["cells"] = [c for cert in doc["certificates"] for c in cert["cells"]]
    return doc


def load_table(deltas=TABLE_DELTAS, data=None):
    r"""The cells of the shipped one-:math:`\Delta` certificates ``region-delta-<D>.json``, as one dict.

    Each file certifies :math:`\varepsilon\in[1/2,60]` at one sensitivity; :func:`table` lists them.
    Lemma 3 claims :math:`\varepsilon`-DP for :math:`\varepsilon\ge20+4\ln\Delta`; the certificates
    prove it on a larger set.

    >>> doc = load_table((1, 100))
    >>> intervals(doc, 1)["private"]                # at Delta = 1 all of [1/2, 60], beyond Lemma 3's [20, 60]
    [(0.5, 60.0)]
    >>> lo, hi = intervals(doc, 100)["private"][-1]  # at Delta = 100 below Lemma 3's 20 + 4 ln 100 = 38.4
    >>> lo < 20 + 4 * math.log(100) <= hi
    True
    """
    cells = []
    for D in deltas:
        cells += load(Path(data or DATA) / f"region-delta-{D:g}.json")["cells"]
    return {"cells": cells}


def intervals(doc, Delta):
    r"""For one :math:`\Delta`, the :math:`\varepsilon` intervals of cells whose sensitivity range contains
    it, by status, adjacent intervals merged: ``{"private": [(lo, hi), ...], "not private": [...],
    "undecided": [...]}`` (floats).

    >>> doc = {"cells": [{"eps": ["0", "1"], "sensitivity": ["1", "2"], "status": "undecided"}]}
    >>> intervals(doc, 3)["undecided"], intervals(doc, 2)["undecided"]   # 3 is outside every cell
    ([], [(0.0, 1.0)])
    """
    D = Fraction(Delta)
    out = {"private": [], "not private": [], "undecided": []}
    for c in doc["cells"]:
        d0, d1 = (Fraction(x) for x in c["sensitivity"])
        if d0 <= D <= d1:
            out[c["status"]].append(tuple(Fraction(x) for x in c["eps"]))
    merged = {}
    for s, ivs in out.items():
        ivs.sort()
        m = []
        for lo, hi in ivs:
            if m and lo <= m[-1][1]:
                m[-1] = (m[-1][0], max(m[-1][1], hi))
            else:
                m.append((lo, hi))
        merged[s] = [(float(lo), float(hi)) for lo, hi in m]
    return merged


def _fmt(ivs):
    return ", ".join(f"[{lo:g}, {hi:g}]" for lo, hi in ivs) or "-"


def table(doc, deltas=TABLE_DELTAS):
    r"""Markdown table: for each :math:`\Delta`, the :math:`\varepsilon` intervals proved private, proved
    not private and undecided.

    >>> doc = {"cells": [{"eps": ["1", "2"], "sensitivity": ["1", "1"], "status": "private"}]}
    >>> table(doc, (1,)).splitlines()[2]
    '| 1 | [1, 2] | - | - |'
    """
    rows = ["| Δ | proved private (ε) | proved not private (ε) | undecided (ε) |", "| --- | --- | --- | --- |"]
    for D in deltas:
        iv = intervals(doc, D)
        rows.append(f"| {D:g} | {_fmt(iv['private'])} | {_fmt(iv['not private'])} | {_fmt(iv['undecided'])} |")
    return "\n".join(rows)


def plot_region_map(doc=None, ax=None):
    r"""Draw the cells of a region certificate in the :math:`(\ln\Delta, \varepsilon)` plane with the
    paper's line :math:`\varepsilon = 20 + 4\ln\Delta`; returns the axes.

    >>> import pytest; matplotlib = pytest.importorskip("matplotlib")   # an optional dependency
    >>> matplotlib.use("Agg")
    >>> doc = {"box": {"eps": ["1", "2"], "sensitivity": ["1", "10"]},
    ...        "cells": [{"eps": ["1", "2"], "sensitivity": ["1", "10"], "status": "private"}]}
    >>> len(plot_region_map(doc).patches)          # one rectangle per cell
    1
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    doc = load() if doc is None else doc
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 5))
    # edges in the face colour (no seams between thousands of thin strips); the undecided slivers
    # last, so that they stay visible however thin they are
    for c in sorted(doc["cells"], key=lambda c: c["status"] == "undecided"):
        e0, e1 = (float(Fraction(x)) for x in c["eps"])
        d0, d1 = (float(Fraction(x)) for x in c["sensitivity"])
        colour = COLOURS[c["status"]]
        ax.add_patch(Rectangle((math.log(d0), e0), math.log(d1 / d0), e1 - e0, facecolor=colour,
                               edgecolor=colour, linewidth=0.4))
    e0, e1 = (float(Fraction(x)) for x in doc["box"]["eps"])
    l0, l1 = (math.log(float(Fraction(x))) for x in doc["box"]["sensitivity"])
    ax.plot([l0, l1], [20 + 4 * l0, 20 + 4 * l1], color="black", linewidth=1.5,
            label=r"paper: $\varepsilon = 20 + 4\ln\Delta$")
    ax.set_xlim(l0, l1)
    ax.set_ylim(e0, e1)
    ax.set_xlabel(r"$\ln\Delta$")
    ax.set_ylabel(r"$\varepsilon$")
    handles = [Patch(color=COLOURS[s], label=s) for s in COLOURS]
    ax.legend(handles=handles + ax.get_lines(), loc="upper left", fontsize=8)
    ax.set_title("Lemma 3's parameters: certified privacy region")
    return ax
