r"""The certified map of where Lemma 3's parameters are :math:`\varepsilon`-DP, and its certificate file.

:func:`certify_region` covers a box :math:`[\varepsilon_0,\varepsilon_1]\times[\Delta_0,\Delta_1]` by
strips in :math:`\varepsilon`.  At a fixed :math:`\varepsilon` the tight epsilon is non-decreasing
in :math:`\Delta`, so the private part of a strip lies below the part proved not private;
:func:`arete_proofs.certified.region.decide_strip` proves a private cell at the bottom of the strip
and a not-private cell at its top, and the sensitivity interval left between them (its width in
:math:`\ln\Delta` about proportional to the strip's width) is cut into narrower strips until it is
at most ``max_gap`` wide in :math:`\ln\Delta` or the strips reach ``min_width``; what is left is
reported *undecided*.  So at most about ``max_gap`` per unit of :math:`\varepsilon` is undecided.
The strips are independent: they run in this process, on local worker processes, or on a Dask
cluster.  The result is a JSON certificate (:data:`FORMAT`): every cell with its box, parameter
balls, the proved bound and its cover (private) or the witness point (not private), the precision,
the package version and a hash of the code.

:func:`check_certificate` re-proves every cell from its box alone
(:func:`arete_proofs.certified.region.check_cell`) and checks that the cells tile the box
exactly (rational endpoints: inside the box, no two overlapping, areas summing to the box's area).
The file's summary and bounds are not trusted.

>>> r = certify_region(("8", "17/2"), ("1", "1"), min_width="1", progress=False)
>>> r["summary"]["cells"], r["summary"]["fraction"]["private"]   # E(8.5, 1) = 5.09 <= 8: one cell
(1, 1.0)
>>> check_certificate(r, progress=False).ok
True
"""

from __future__ import annotations

import functools
import hashlib
import math
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .._version import __version__
from .density import exact_parameter
from .region import PREC, check_cell, decide_strip

__all__ = ["FORMAT", "certify_region", "check_certificate", "CheckReport", "code_hash", "summarise"]

#: The certificate format this module writes and checks (the JSON key ``format``).
FORMAT = "arete-region-certificate/1"
STATUSES = ("private", "not private", "undecided")
_CODE = ("region.py", "epsilon.py", "density.py", "balls.py")  # the code that proves cells
ARGUMENT = (
    "Scaling law: the tight epsilon at (eps, Delta) is eps*(e^(-eps/4), 4/eps, e^(-eps/4)/Delta) at "
    "sensitivity 1. Monotonicity: eps* is non-increasing in alpha, theta and lam (the larger parameter "
    "set is the smaller one plus independent noise: Gamma shape additivity, Gamma and Laplace Levy "
    "measures increasing in the scale; post-processing), so on a cell eps*(lower corner) >= E >= "
    "eps*(upper corner). Private: a certified cover bound (arete_proofs.certified.epsilon items 1-4) or "
    "the Lipschitz bound 1/lam at the lower corner is <= eps0. Not private: a certified "
    "ln f_A(t)/f_A(t+1) > eps1 at the upper corner.")


def code_hash():
    """SHA-256 of the source files that prove the cells (region, epsilon, density, balls).

    >>> len(code_hash()) == 64
    True
    """
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in _CODE:
        h.update(name.encode() + b"\0" + (here / name).read_bytes())
    return h.hexdigest()


def _q(x, name):
    return exact_parameter(x, name)


def _box(eps, sensitivity, min_width):
    if len(eps) != 2 or len(sensitivity) != 2:
        raise ValueError("eps and sensitivity must each be a pair (lower, upper)")
    e0, e1 = (_q(x, "eps") for x in eps)
    d0, d1 = (_q(x, "sensitivity") for x in sensitivity)
    if not e0 <= e1:
        raise ValueError(f"eps: lower end {eps[0]} is above upper end {eps[1]}")
    if not d0 <= d1:
        raise ValueError(f"sensitivity: lower end {sensitivity[0]} is above upper end {sensitivity[1]}")
    W = _q(min_width, "min_width")
    return e0, e1, d0, d1, W


def _children(e0, e1, p, q, W, G):
    """The strips that continue an open strip [e0, e1] x [p, q], or None when it is final.

    The open part's width in ln Delta shrinks about in proportion to the strip's width in eps
    (module docstring), so a strip whose open part is wider than ``G`` (or, for strips wider than
    1/4, larger than ``G/4`` in area) is cut into k = ceil(1.5 gap / G) pieces (2 to 16, none
    narrower than ``W``); on a box of one Delta an open strip is halved while its halves are at
    least ``W`` wide.  Either way the undecided area is at most ``G`` per unit of eps."""
    w = e1 - e0
    if p == q:
        k = 2
    else:
        gap = math.log(float(q) / float(p))
        need = max(gap / float(G), 4 * gap * float(w) / float(G))   # > 1: too wide in ln Delta, or in area
        if need <= 1:
            return None
        k = min(16, max(2, math.ceil(1.5 * need)))
    while k > 1 and w / k < W:
        k -= 1
    if k < 2:
        return None
    return [(e0 + i * w / k, e0 + (i + 1) * w / k, p, q) for i in range(k)]


def _measure(eps, sensitivity):
    """Area in the (eps, ln Delta) plane (float; summaries only); a side of zero width counts as 1,
    so a box at one Delta is measured by its eps length."""
    e0, e1 = (float(Fraction(x)) for x in eps)
    d0, d1 = (float(Fraction(x)) for x in sensitivity)
    return ((e1 - e0) if e1 > e0 else 1.0) * (math.log(d1 / d0) if d1 > d0 else 1.0)


def _area(c):
    return _measure(c["eps"], c["sensitivity"])


def summarise(cells, box_area):
    r"""Counts and area fractions of the cells by status, area measured in the :math:`(\varepsilon,\ln\Delta)` plane.

    A cell :math:`[e_0,e_1]\times[d_0,d_1]` has area :math:`(e_1-e_0)\ln(d_1/d_0)` (a side of zero
    width counts as 1); ``fraction`` is the status's total area over ``box_area`` (rounded to 6
    places).  Floats, for display only: :func:`check_certificate` checks the tiling exactly.

    >>> cells = [{"eps": ["1", "2"], "sensitivity": ["1", "10"], "status": "private"},
    ...          {"eps": ["2", "4"], "sensitivity": ["1", "10"], "status": "not private"}]
    >>> s = summarise(cells, _measure(("1", "4"), ("1", "10")))
    >>> s["counts"]["private"] + s["counts"]["not private"] == s["cells"] == 2
    True
    >>> abs(sum(s["fraction"].values()) - 1) < 1e-6 and s["fraction"]["not private"] == 0.666667   # they tile the box
    True
    """
    areas = {s: 0.0 for s in STATUSES}
    counts = {s: 0 for s in STATUSES}
    for c in cells:
        areas[c["status"]] += _area(c)
        counts[c["status"]] += 1
    return {"cells": len(cells), "counts": counts, "area": areas,
            "fraction": {s: round(a / box_area, 6) for s, a in areas.items()}}


class _Progress:
    def __init__(self, enabled, box_area, what):
        self.enabled, self.box_area, self.what = enabled, box_area, what
        self.tty = enabled and sys.stderr.isatty()
        self.start = self.last = time.monotonic()
        self.done, self.decided = 0, 0.0

    def update(self, cell):
        self.done += 1
        if cell["status"] in ("private", "not private"):
            self.decided += _area(cell)
        if not self.enabled:
            return
        now = time.monotonic()
        frac = self.decided / self.box_area
        msg = f"{self.what}: {self.done} cells, {100 * frac:.2f}% of the area decided, {now - self.start:.0f} s"
        if self.tty:
            print("\r" + msg.ljust(90), end="", file=sys.stderr, flush=True)
        elif now - self.last > 10:
            self.last = now
            print(msg, file=sys.stderr, flush=True)

    def close(self):
        if self.tty:
            print(file=sys.stderr, flush=True)


def _run(cells, fn, workers, dask, on_result):
    """Run fn(*cell) for each cell; on_result(cell, result) may return new cells to run."""
    if dask:
        from dask.distributed import Client, as_completed

        client = dask if hasattr(dask, "submit") else Client(dask)
        try:
            ac = as_completed([client.submit(fn, *c, pure=False) for c in cells], with_results=True)
            for _, res in ac:
                for c in on_result(res) or ():
                    ac.add(client.submit(fn, *c, pure=False))
        finally:
            if client is not dask:
                client.close()
    elif workers <= 1:
        todo = list(cells)
        while todo:
            c = todo.pop()
            todo += on_result(fn(*c)) or []
    else:
        with ProcessPoolExecutor(workers) as pool:
            pending = {pool.submit(fn, *c) for c in cells}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    for c in on_result(f.result()) or ():
                        pending.add(pool.submit(fn, *c))


def certify_region(eps, sensitivity, *, min_width="1/64", max_gap="0.1", workers=1, dask=None, progress=True,
                   max_seconds=60):
    r"""Certify where Lemma 3's parameters are :math:`\varepsilon`-DP on the box ``eps`` x ``sensitivity``.

    ``eps`` and ``sensitivity`` are pairs of exact numbers (decimal strings, ints, Fractions);
    strips in :math:`\varepsilon` are decided by :func:`arete_proofs.certified.region.decide_strip`
    and an open part wider than ``max_gap`` in :math:`\ln\Delta` is cut into narrower strips, none
    narrower than ``min_width`` in :math:`\varepsilon`; then it is reported undecided.  So the
    undecided area is at most ``max_gap`` times the box's :math:`\varepsilon`-width, plus what the
    strips stopped by ``min_width`` leave.  ``workers`` local processes or ``dask`` (a scheduler
    address or a ``distributed.Client``); ``max_seconds`` per proof attempt.  Returns the
    certificate as a JSON-ready dict.

    >>> r = certify_region(("20", "21"), ("10000", "10000"), min_width="1", progress=False)
    >>> r["cells"][0]["status"]    # E(20, 1e4) = 23.3 > 21
    'not private'
    """
    e0, e1, d0, d1, W = _box(eps, sensitivity, min_width)
    G = _q(max_gap, "max_gap")
    if not e0 < e1:
        raise ValueError(f"eps: lower end {eps[0]} must be below the upper end {eps[1]}")
    if not (W > 0 and G > 0):
        raise ValueError("min_width and max_gap must be positive")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    t0 = time.perf_counter()
    box_area = _measure((e0, e1), (d0, d1))
    prog = _Progress(progress, box_area, "certify-region")
    done = []

    def on_result(res):
        for c in res["cells"]:
            done.append(c)
            prog.update(c)
        if res["open"] is None:
            return None
        c0, c1 = (Fraction(x) for x in res["eps"])
        p, q = (Fraction(x) for x in res["open"])
        kids = _children(c0, c1, p, q, W, G)
        if kids:
            return [tuple(str(x) for x in k) for k in kids]
        c = {"eps": res["eps"], "sensitivity": res["open"], "status": "undecided"}
        done.append(c)
        prog.update(c)
        return None

    _run([tuple(str(x) for x in (e0, e1, d0, d1))], functools.partial(_decide, max_seconds=max_seconds),
         workers, dask, on_result)
    prog.close()
    done.sort(key=lambda c: (Fraction(c["eps"][0]), Fraction(c["sensitivity"][0])))
    seconds = time.perf_counter() - t0
    return {"format": FORMAT, "box": {"eps": [str(e0), str(e1)], "sensitivity": [str(d0), str(d1)]},
            "min_width": str(W), "max_gap": str(G), "prec": PREC, "version": __version__,
            "code_sha256": code_hash(), "argument": ARGUMENT, "workers": "dask" if dask else workers,
            "seconds": round(seconds, 2), "summary": summarise(done, box_area), "cells": done}


def _decide(e0, e1, d0, d1, max_seconds=60):
    return dict(decide_strip(e0, e1, d0, d1, max_seconds=max_seconds), eps=[e0, e1])


def _check_one(cell):
    return check_cell(cell)


@dataclass
class CheckReport:
    """Result of :func:`check_certificate`: ``ok`` when every claim about Lemma 3's parameters is
    re-proved and the cells tile the box.

    ``failed``: indices of the cells whose claim was not re-proved; ``tiling``: ``"ok"`` or why the
    cells do not tile the box; ``code_matches``: the file's ``code_sha256`` is :func:`code_hash`;
    ``summary``: :func:`summarise` of the file's cells.

    >>> cell = {"eps": ["1", "2"], "sensitivity": ["1", "1"], "status": "undecided"}   # claims nothing
    >>> doc = {"format": FORMAT, "box": {"eps": ["1", "3"], "sensitivity": ["1", "1"]}, "cells": [cell, cell]}
    >>> rep = check_certificate(doc, progress=False)     # every cell passes, but they overlap
    >>> rep.failed, rep.tiling, rep.ok == (not rep.failed and rep.tiling == "ok")
    ([], 'cells 0 and 1 overlap', True)
    >>> rep.ok
    False
    """

    ok: bool
    cells: int
    failed: list = field(default_factory=list)
    tiling: str = "ok"
    code_matches: bool = False
    summary: dict = field(default_factory=dict)
    seconds: float = 0.0


def _tiling(doc):
    """'ok' or the reason the cells do not tile the box exactly (a side of zero width is a 1-D box)."""
    e0, e1 = (Fraction(x) for x in doc["box"]["eps"])
    d0, d1 = (Fraction(x) for x in doc["box"]["sensitivity"])
    flat_e, flat_d = e0 == e1, d0 == d1
    rects = []
    for i, c in enumerate(doc["cells"]):
        a, b = (Fraction(x) for x in c["eps"])
        p, q = (Fraction(x) for x in c["sensitivity"])
        if not (e0 <= a <= b <= e1 and d0 <= p <= q <= d1):
            return f"cell {i} lies outside the box"
        rects.append((a, b, p, q, i))

    def size(a, b, p, q):
        return (1 if flat_e else b - a) * (1 if flat_d else q - p)

    if sum(size(*r[:4]) for r in rects) != size(e0, e1, d0, d1):
        return "the cells' areas do not add up to the box's area"
    rects.sort()
    for k, (a, b, p, q, i) in enumerate(rects):
        for a2, b2, p2, q2, j in rects[k + 1:]:
            if not flat_e and a2 >= b:
                break
            if (flat_e or a2 < b) and (flat_d or (p2 < q and p < q2)):
                return f"cells {i} and {j} overlap"
    return "ok"


def check_certificate(doc, *, workers=1, dask=None, progress=True):
    r"""Re-prove every cell of a certificate (a dict or a path to the JSON file) about Lemma 3's parameters.

    Each cell is re-proved from its box alone by :func:`arete_proofs.certified.region.check_cell`
    (private: :math:`\varepsilon^*(\text{lower corner})\le e_0`; not private: a witness
    :math:`\ln f_A(t)-\ln f_A(t+1)>e_1` at the upper corner), and the cells must tile the box
    exactly (rational endpoints).  ``workers`` local processes or ``dask`` share the cells.
    Returns a :class:`CheckReport`; the file's summary and bounds are not trusted.

    >>> r = certify_region(("8", "17/2"), ("1", "1"), min_width="1", progress=False)
    >>> r["cells"][0]["eps"] = ["9", "19/2"]; r["cells"][0]["sensitivity"] = ["100", "100"]
    >>> check_certificate(r, progress=False).ok    # edited to claim more than is true
    False
    """
    import json

    t0 = time.perf_counter()
    if not isinstance(doc, dict):
        with open(doc, encoding="utf-8") as fh:
            doc = json.load(fh)
    if doc.get("format") != FORMAT:
        raise ValueError(f"not a region certificate (format {doc.get('format')!r}, expected {FORMAT!r})")
    cells = doc["cells"]
    tiling = _tiling(doc)
    box_area = _measure(doc["box"]["eps"], doc["box"]["sensitivity"])
    prog = _Progress(progress, box_area, "check")
    results = [None] * len(cells)
    if dask or workers > 1:
        if dask:
            from dask.distributed import Client

            client = dask if hasattr(dask, "submit") else Client(dask)
            try:
                futs = client.map(_check_one, cells, pure=False)
                for i, f in enumerate(futs):
                    results[i] = f.result()
                    prog.update(cells[i])
            finally:
                if client is not dask:
                    client.close()
        else:
            with ProcessPoolExecutor(workers) as pool:
                for i, ok in enumerate(pool.map(_check_one, cells, chunksize=1)):
                    results[i] = ok
                    prog.update(cells[i])
    else:
        for i, c in enumerate(cells):
            results[i] = _check_one(c)
            prog.update(c)
    prog.close()
    failed = [i for i, ok in enumerate(results) if not ok]
    return CheckReport(ok=not failed and tiling == "ok", cells=len(cells), failed=failed, tiling=tiling,
                       code_matches=doc.get("code_sha256") == code_hash(),
                       summary=summarise(cells, box_area), seconds=time.perf_counter() - t0)
