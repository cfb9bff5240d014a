r"""Write the region maps of Lemma 3 as ``arete_region`` certificates, and check such a file.

:func:`arete_proofs.certified.region_map.certify_region` decides cells of :math:`(\varepsilon, \Delta)` (private by a
cover bound or the Lipschitz bound at the lower corner, not private by a witness at the upper corner; the argument
is in :mod:`arete_proofs.certified.region`).  :func:`to_file` turns its cells into certificates for the independent
checker (``arete_proofs.check.arete_region``): each decided cell records the corner's exact parameters (the
search's corners, outward-rounded dyadic numbers), the cover's points (thinned: a point is left out while the cell
that replaces two is still bounded below the level, with a margin of :math:`10^{-9}` relative, so the check costs
fewer density evaluations) or the witness, and its claim (``bound`` or ``lower``, moved outward by a relative
:math:`10^{-12}` from the checker's value).  The cells are grouped into certificates of whole strips, each of at most
about :data:`BUDGET` density evaluations, and every certificate is checked before the file is written.  A cell the
checker cannot confirm on the recorded cover gets its cover refined with the checker's own bound.

The file (format :data:`FILE_FORMAT`) keeps the map's box, options, summary and the commands that made it, with the
certificates under ``certificates``; :func:`cells_of` lists all cells; :func:`check_file` checks every certificate
and that their boxes tile the file's box.

``python -m arete_proofs.certified.region_certificate FILE... --workers 2`` rewrites files written in the earlier
format (``arete-region-certificate/1``) in place, from their recorded covers and witnesses.

>>> from .region_map import certify_region
>>> doc = to_file(certify_region(("8", "17/2"), ("1", "1"), min_width="1", progress=False))
>>> [c["kind"] for c in doc["certificates"]], check_file(doc).ok
(['arete_region'], True)
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction

from ..check import FORMAT, check_document, digest
from ..check import arete as C
from .arete_certificate import SLACK, decimal_out, thin
from .region import corners
from .region_map import CheckReport, _measure, code_hash, summarise

__all__ = ["FILE_FORMAT", "BUDGET", "cells_of", "exact_decimal", "to_file", "check_file"]

#: the format of a region-map file (a list of ``arete_region`` certificates and the map's summary)
FILE_FORMAT = "arete-region-map/2"
#: density evaluations per certificate (a few seconds to a minute of checking)
BUDGET = 1500
_MARGIN = Fraction(1, 10 ** 9)


def cells_of(doc):
    """Every cell of a region-map file, in either format."""
    if doc.get("format") == FILE_FORMAT:
        return [c for cert in doc["certificates"] for c in cert["cells"]]
    return doc["cells"]


def exact_decimal(q):
    """The finite decimal expansion of a rational whose denominator divides a power of ten (what the recorded points
    are: decimal floats and their midpoints), so that ``float()`` reads it too.

    >>> exact_decimal(Fraction(3, 8)), exact_decimal(Fraction("1e-300")), exact_decimal(Fraction("0.1") / 2 ** 60)
    ('0.375', '1e-300', '8.67361737988403547205962240695953369140625E-20')
    """
    from decimal import Decimal, localcontext

    q = Fraction(q)
    if Fraction(repr(float(q))) == q:
        return repr(float(q))
    with localcontext() as ctx:
        ctx.prec = 100 + len(str(q.denominator))
        out = str((Decimal(q.numerator) / Decimal(q.denominator)).normalize())
    if Fraction(out) != q:
        raise ValueError(f"{q} has no finite decimal expansion")
    return out


def _private(cell, e0, P, prec):
    """The cell's proof and the checker's bound, the cover thinned below the level e0 (1 - 1e-9)."""
    proof = cell["proof"]
    if proof["method"] == "lipschitz":
        return {"method": "lipschitz"}, 1 / P[2]
    T = Fraction(repr(float(proof["T"])))
    pts, U = thin(C.Arete(*P, bits=prec), T, [Fraction(repr(float(p))) for p in proof["points"][:-1]],
                  e0 - abs(e0) * _MARGIN)
    return {"method": "cover", "T": exact_decimal(T), "points": [exact_decimal(p) for p in pts]}, U


def convert(cell, prec=64):
    """A decided cell of :mod:`arete_proofs.certified.region` as a cell of an ``arete_region`` certificate (or
    undecided when the checker cannot confirm it)."""
    out = {k: cell[k] for k in ("eps", "sensitivity", "status")}
    if cell["status"] == "undecided":
        return out
    (e0, e1), (d0, d1) = ([Fraction(x) for x in cell[k]] for k in ("eps", "sensitivity"))
    b = corners(e0, e1, d0, d1)
    side = 0 if cell["status"] == "private" else 1
    P = tuple(b[k][side] for k in ("alpha", "theta", "lam"))
    out["params"] = {k: str(v) for k, v in zip(("alpha", "theta", "lam"), P)}
    if side == 0:
        out["proof"], U = _private(cell, e0, P, prec)
        out["bound"] = decimal_out(U + abs(U) * SLACK, True)
        ok = Fraction(out["bound"]) <= e0
    else:
        t = Fraction(repr(float(cell["witness"]["t"])))
        L = C.witness(C.Arete(*P, bits=prec), 1, t)
        out["witness"] = {"t": exact_decimal(t), "lower": decimal_out(L - abs(L) * SLACK, False)}
        ok = Fraction(out["witness"]["lower"]) > e1
    return out if ok else {k: cell[k] for k in ("eps", "sensitivity")} | {"status": "undecided"}


def _cost(cell):
    return 2 * len(cell.get("proof", {}).get("points", [])) + (2 if cell["status"] == "not private" else 0)


def _certificate(cells, sensitivity, prec):
    e = [min(Fraction(c["eps"][0]) for c in cells), max(Fraction(c["eps"][1]) for c in cells)]
    counts = {s: sum(c["status"] == s for c in cells) for s in ("private", "not private", "undecided")}
    doc = {"format": FORMAT, "kind": "arete_region", "box": {"eps": [str(x) for x in e], "sensitivity": sensitivity},
           "prec": prec, "claim": counts, "cells": cells}
    doc["digest"] = digest(doc)
    return doc


def _map(fn, items, workers):
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(fn, items, chunksize=4))
    return [fn(x) for x in items]


def to_file(doc, *, workers=1, prec=64, commands=(), progress=False):
    """The region-map file (format :data:`FILE_FORMAT`) of a map written by
    :func:`~arete_proofs.certified.region_map.certify_region` (or read from a file of its earlier format)."""
    t0 = time.perf_counter()
    cells = sorted(_map(convert, doc["cells"], workers), key=lambda c: (Fraction(c["eps"][0]), Fraction(c["sensitivity"][0])))
    groups, cur, cost, edge = [], [], 0, None
    for c in cells:           # a new certificate only where no cell straddles the eps boundary
        e0 = Fraction(c["eps"][0])
        if cur and cost > BUDGET and e0 >= edge:
            groups.append(cur)
            cur, cost = [], 0
        cur.append(c)
        cost += _cost(c)
        edge = max(edge or e0, Fraction(c["eps"][1]))
    groups.append(cur)
    certs = [_certificate(g, doc["box"]["sensitivity"], prec) for g in groups]
    for cert, r in zip(certs, _map(check_document, certs, workers)):
        if r["verdict"] != "checked":
            raise ArithmeticError(f"the checker refused a region certificate: {r['reason']}")
        if progress:
            print(f"region certificate {cert['box']['eps']}: checked in {r['seconds']} s", file=sys.stderr)
    keep = ("box", "min_width", "max_gap", "argument", "version", "code_sha256", "workers", "seconds")
    out = {"format": FILE_FORMAT} | {k: doc[k] for k in keep if k in doc}
    out["summary"] = summarise(cells, _measure(doc["box"]["eps"], doc["box"]["sensitivity"]))
    out["commands"] = list(commands)
    out["certificates_seconds"] = round(time.perf_counter() - t0, 1)
    out["certificates"] = certs
    return out


def check_file(doc, *, workers=1, progress=False):
    """Check every certificate of a region-map file and that their boxes tile the file's box: a
    :class:`~arete_proofs.certified.region_map.CheckReport` (``failed``: the indices of the refused certificates;
    ``code_matches``: the search's code is this one, which the check does not need)."""
    t0 = time.perf_counter()
    certs = doc["certificates"]
    res = _map(check_document, certs, workers)
    if progress:
        for cert, r in zip(certs, res):
            print(f"check {cert['box']['eps']}: {r['verdict']} in {r['seconds']} s {r['reason']}", file=sys.stderr)
    edge, tiling = Fraction(doc["box"]["eps"][0]), "ok"
    for cert in sorted(certs, key=lambda c: Fraction(c["box"]["eps"][0])):
        if Fraction(cert["box"]["eps"][0]) != edge or cert["box"]["sensitivity"] != doc["box"]["sensitivity"]:
            tiling = f"the certificates' boxes do not tile the box at eps = {edge}"
        edge = Fraction(cert["box"]["eps"][1])
    if edge != Fraction(doc["box"]["eps"][1]):
        tiling = f"the certificates' boxes end at eps = {edge}"
    failed = [i for i, r in enumerate(res) if r["verdict"] != "checked"]
    cells = cells_of(doc)
    return CheckReport(ok=not failed and tiling == "ok", cells=len(cells), failed=failed, tiling=tiling,
                       code_matches=doc.get("code_sha256") == code_hash(),
                       summary=summarise(cells, _measure(doc["box"]["eps"], doc["box"]["sensitivity"])),
                       seconds=time.perf_counter() - t0)


if __name__ == "__main__":  # pragma: no cover - the command that rewrote docs/data/region-*.json
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args()
    for path in a.paths:
        old = json.loads(open(path, encoding="utf-8").read())
        box = old["box"]
        search = (f"arete certify-region --eps {' '.join(box['eps'])} --sensitivity {' '.join(box['sensitivity'])}"
                  + (f" --min-width {old['min_width']}" if old.get("min_width") not in (None, "1/64") else "")
                  + f" --workers 2 --out {path}")
        new = to_file(old, workers=a.workers, progress=True,
                      commands=[search, f"python -m arete_proofs.certified.region_certificate {path} --workers {a.workers}"])
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(new, fh, indent=0)
            fh.write("\n")
        print(f"{path}: {len(new['certificates'])} certificates, {new['certificates_seconds']} s", file=sys.stderr)
