r"""The composition comparison of the privacy page: :math:`\varepsilon(\delta = 10^{-6})` after :math:`k` releases at equal error.

For each target (Arete optimised for :math:`E|Z|` at a pure :math:`\varepsilon`, :math:`\Delta = 1`;
parameters :data:`arete_proofs.walkthrough.figures.STORED_OPTIMA`, from one optimiser run
recorded there), :func:`arete_proofs.privacy.composition.compare` scales Laplace, Gaussian
and Staircase noise to the same :math:`E|X|` and reads :math:`\varepsilon_k(10^{-6})` from
pessimistic ``dp_accounting`` privacy-loss distributions composed :math:`k = 1, 10, 100,
1000` times.  :func:`composition_figure` plots them and prints the table beside the plot
(the docs draw it with the ``plot`` directive at build time: about 25 s at the default grid
:math:`h = 10^{-3}\Delta/E|X|`; cached like :mod:`arete_proofs.walkthrough.figures`).

>>> from arete_proofs.walkthrough.figures import STORED_OPTIMA
>>> set(TARGETS) <= set(STORED_OPTIMA)        # the targets are stored optimiser results
True
"""

from __future__ import annotations

import numpy as np

from ..noise import make
from ..privacy import composition as comp
from . import figures

__all__ = ["TARGETS", "LABELS", "composition_data", "composition_table", "composition_figure"]

#: The pure epsilons whose optimised Arete parameters set the three target errors.
TARGETS = (4.0, 6.0, 10.0)
#: Display names of the mechanisms.
LABELS = {"arete": "Arete (optimised)", "laplace": "Laplace", "gaussian": "Gaussian", "staircase": "Staircase"}
_COLORS = {"arete": "C0", "laplace": "0.5", "gaussian": "C2", "staircase": "k"}


def composition_data(targets=TARGETS, k_values=comp.K_VALUES, delta=comp.DELTA,
                     relative_interval=comp.RELATIVE_INTERVAL, cache=True, progress=None):
    r"""``{"targets": [Comparison.as_dict() ...]}``: :func:`arete_proofs.privacy.composition.compare` per target (cached).

    ``targets``: keys of :data:`arete_proofs.walkthrough.figures.STORED_OPTIMA` (pure
    :math:`\varepsilon` at :math:`\Delta = 1`).  Needs the extra ``accounting``.  The docs use the
    default grid (about 25 s); a coarse grid is fast:

    >>> d = composition_data((6.0,), k_values=(1, 2), relative_interval=0.05, cache=False)["targets"][0]
    >>> all(abs(r["mean_abs"] - d["mean_abs"]) < 1e-12 for r in d["rows"])   # the same E|X| for all
    True
    >>> arete = d["rows"][0]     # eps-DP at eps = 6: the PLD upper bound is within h of at most 6
    >>> arete["mechanism"], arete["epsilon"][0] <= 6 + d["h"], arete["epsilon"][1] <= 2 * arete["epsilon"][0] + 2 * d["h"]
    ('arete', True, True)
    """
    targets = [float(t) for t in targets]
    for t in targets:
        if t not in figures.STORED_OPTIMA:
            raise ValueError(f"targets: {t!r} has no stored optimum; choose from {sorted(figures.STORED_OPTIMA)}")
    ks = [int(k) for k in k_values]

    def compute():
        out = []
        for t in targets:
            a, th, lam = figures.STORED_OPTIMA[t]
            c = comp.compare(make("arete", alpha=a, theta=th, lam=lam), delta=delta, k_values=tuple(ks),
                             relative_interval=relative_interval, progress=progress)
            d = c.as_dict()
            d["target"] = t
            out.append(d)
        return {"targets": out}

    return figures._cached("composition", {"targets": targets, "k": ks, "delta": delta, "rel": relative_interval,
                                           "stored": [figures.STORED_OPTIMA[t] for t in targets]},
                           compute, cache)


def composition_table(data):
    r"""Rows ``[target eps, E|X|, mechanism,`` :math:`\varepsilon_k(\delta)` ``...]`` as strings, from :func:`composition_data`.

    >>> d = {"targets": [{"target": 6.0, "mean_abs": 0.1243, "rows": [
    ...     {"mechanism": "laplace", "k": [1, 10], "epsilon": [8.04, 80.39]}]}]}
    >>> composition_table(d)
    [['6', '0.1243', 'Laplace', '8.04', '80.39']]
    """
    rows = []
    for t in data["targets"]:
        for r in t["rows"]:
            rows.append([f"{t['target']:g}", f"{t['mean_abs']:.4g}", LABELS[r["mechanism"]]]
                        + [f"{e:.4g}" for e in r["epsilon"]])
    return rows


def composition_figure(targets=TARGETS, cache=True, *, pyplot=False):
    r""":math:`\varepsilon_k(10^{-6})` against :math:`k` (log-log), one panel per target error, and the table.

    Top: one panel per target :math:`E|X|` with the four mechanisms; bottom: the numbers
    (PLD upper bounds, within :math:`kh` of the exact values).  See :func:`composition_data`.

    >>> import pytest; _ = pytest.importorskip("matplotlib")   # an optional dependency
    >>> fig = composition_figure((6.0,), cache=False)          # one target: about 2 s
    >>> len(fig.axes) == 1 + 1                                 # one panel per target, and the table
    True
    >>> all(np.all(np.diff(line.get_ydata()) > 0) for line in fig.axes[0].lines)   # eps_k grows with k
    True
    """
    d = composition_data(targets, cache=cache)
    fig = figures._new_figure((11, 7.2), pyplot)
    n = len(d["targets"])
    gs = fig.add_gridspec(2, n, height_ratios=(1, 1.05))
    for i, t in enumerate(d["targets"]):
        ax = fig.add_subplot(gs[0, i])
        for r in t["rows"]:
            ax.loglog(r["k"], r["epsilon"], "o-", ms=3.5, color=_COLORS[r["mechanism"]], label=LABELS[r["mechanism"]])
        ks = np.array(t["rows"][0]["k"], dtype=float)
        ax.set_xticks(ks, labels=[f"{k:g}" for k in ks])
        ax.set_xlabel("releases $k$")
        if i == 0:
            ax.set_ylabel(r"$\varepsilon_k(\delta = 10^{-6})$")
            ax.legend(fontsize=7)
        ax.set_title(rf"$E|X| = {t['mean_abs']:.4g}$ (Arete optimal at $\varepsilon = {t['target']:g}$)", fontsize=9)
        ax.grid(True, which="major", color="0.9", lw=0.6)
    axt = fig.add_subplot(gs[1, :])
    axt.axis("off")
    ks = d["targets"][0]["rows"][0]["k"]
    cols = [r"target $\varepsilon$", "E|X|", "noise"] + [f"k = {k}" for k in ks]
    cells = composition_table(d)
    shade = ["#eef3fb" if LABELS["arete"] == c[2] else "w" for c in cells]
    tab = axt.table(cellText=cells, colLabels=cols, cellColours=[[s] * len(cols) for s in shade],
                    loc="center", cellLoc="right")
    tab.auto_set_font_size(False)
    tab.set_fontsize(8)
    tab.scale(1, 1.2)
    h = ", ".join(f"{t['h']:.3g}" for t in d["targets"])
    axt.set_title(r"$\varepsilon_k$ at $\delta = 10^{-6}$, $\Delta = 1$: pessimistic PLDs on grids $h$ = " + h
                  + r" (exact value within $kh$ below)", fontsize=9)
    return fig
