"""``arete certify-region``: a certified map of where Lemma 3's parameters are eps-DP (extra ``certified``).

Runs :func:`arete_proofs.certified.region_map.certify_region` on a box of
(eps, sensitivity) and writes the certificate; ``--check`` re-proves a certificate
with :func:`arete_proofs.certified.region_map.check_certificate`, or, for a file of ``arete_region``
certificates (:mod:`arete_proofs.certified.region_certificate`, the shipped maps), with the independent
checker (:func:`arete_proofs.certified.region_certificate.check_file`).  Shared options
and the registry: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json
import sys

from ._common import UsageError, check_writable, command, need_flint


def _region_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--eps", nargs=2, metavar=("E0", "E1"), help="the box's eps interval")
    parser.add_argument("--sensitivity", nargs=2, metavar=("D0", "D1"), help="the box's sensitivity interval")
    parser.add_argument("--min-width", metavar="W", default="1/64",
                        help="narrowest strip in eps (default 1/64)")
    parser.add_argument("--max-gap", metavar="G", default="0.1",
                        help="cut a strip while its undecided part is wider than G in ln(sensitivity) (default 0.1)")
    parser.add_argument("--out", metavar="CERT.json", help="write the certificate to this file")
    parser.add_argument("--check", metavar="CERT.json", help="re-prove every cell of a certificate file")
    parser.add_argument("--workers", metavar="N", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS",
                        help="run the cells on the Dask scheduler at ADDRESS (extra 'dask')")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


#: Largest cell count and largest |endpoint| of a certificate read by ``--check`` (a real map has
#: a few thousand cells with eps, Delta far below this).
MAX_CELLS = 1_000_000
MAX_ENDPOINT = 10 ** 12


def _interval(value, where):
    """An interval ``[a, b]`` of a certificate: two rational strings, 0 < a <= b <= MAX_ENDPOINT."""
    from fractions import Fraction

    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{where} must be a list of two numbers, got {value!r:.60}")
    out = []
    for x in value:
        if not isinstance(x, (str, int)) or isinstance(x, bool):
            raise ValueError(f"{where} has {x!r:.40}, not a rational number as a string")
        try:
            q = Fraction(x)
        except (ValueError, ZeroDivisionError, OverflowError):
            raise ValueError(f"{where} has {x!r:.40}, not a rational number") from None
        if not 0 < q <= MAX_ENDPOINT:
            raise ValueError(f"{where} has {x!r:.40}, outside (0, {MAX_ENDPOINT:.0e}]")
        out.append(q)
    if out[0] > out[1]:
        raise ValueError(f"{where} is {value!r:.60}: its lower end exceeds its upper end")
    return out


def validate_certificate(doc) -> dict:
    """Check the structure of a region certificate (as loaded from JSON) before any proof is re-run.

    Raises :class:`ValueError` (one line: where and what) for anything :func:`check_certificate
    <arete_proofs.certified.region_map.check_certificate>` cannot read: not an object, another
    format, a box or a cell without its intervals, an endpoint that is not a positive rational
    (``"1/0"``, ``"1e400"``), a status that is not one of the three, a proof or witness that is not an
    object.  Returns ``doc``.

    >>> validate_certificate([1, 2])
    Traceback (most recent call last):
      ...
    ValueError: the top level is a list, not an object
    """
    from ..certified.region_certificate import FILE_FORMAT
    from ..certified.region_map import FORMAT

    if not isinstance(doc, dict):
        raise ValueError(f"the top level is {'a list' if isinstance(doc, list) else type(doc).__name__}, not an object")
    if doc.get("format") == FILE_FORMAT:    # a file of arete_region certificates: arete_proofs.check reads them
        certs = doc.get("certificates")
        if not isinstance(doc.get("box"), dict) or not isinstance(certs, list) or not certs or \
                not all(isinstance(c, dict) and isinstance(c.get("cells"), list) for c in certs):
            raise ValueError("a region-map file needs its box and a non-empty list of certificates with cells")
        for key in ("eps", "sensitivity"):
            _interval(doc["box"].get(key), f"box.{key}")
        return doc
    if doc.get("format") != FORMAT:
        raise ValueError(f"not a region certificate (format {doc.get('format')!r:.40}, expected {FORMAT!r})")
    box = doc.get("box")
    if not isinstance(box, dict):
        raise ValueError("'box' is missing or not an object")
    for key in ("eps", "sensitivity"):
        _interval(box.get(key), f"box.{key}")
    cells = doc.get("cells")
    if not isinstance(cells, list) or not cells:
        raise ValueError("'cells' is missing, empty or not a list")
    if len(cells) > MAX_CELLS:
        raise ValueError(f"{len(cells)} cells: at most {MAX_CELLS}")
    for i, c in enumerate(cells):
        if not isinstance(c, dict):
            raise ValueError(f"cell {i} is not an object")
        for key in ("eps", "sensitivity"):
            _interval(c.get(key), f"cell {i}: {key}")
        status = c.get("status")
        if status not in ("private", "not private", "undecided"):
            raise ValueError(f"cell {i}: status {status!r:.40} is not 'private', 'not private' or 'undecided'")
        if status == "private" and not isinstance(c.get("proof"), dict):
            raise ValueError(f"cell {i}: a private cell needs its proof (an object), got {c.get('proof')!r:.40}")
        if status == "not private":
            w = c.get("witness")
            if not isinstance(w, dict) or isinstance(w.get("t"), bool) or not isinstance(w.get("t"), (int, float, str)):
                raise ValueError(f"cell {i}: a not-private cell needs its witness point (an object with t)")
    return doc


def _load_certificate(path) -> dict:
    """Read and validate ``--check``'s file: a one-line :class:`UsageError` for any defect."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh, parse_constant=lambda c: c)   # NaN/Infinity stay strings: refused below
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise UsageError(f"--check: cannot read {path}: {exc}") from None
    try:
        return validate_certificate(doc)
    except ValueError as exc:
        raise UsageError(f"--check {path}: {exc}") from None


def _print_summary(summary, seconds, extra=""):
    f, n = summary["fraction"], summary["counts"]
    print(f"cells            {summary['cells']} ({n['private']} private, {n['not private']} not private, "
          f"{n['undecided']} undecided)")
    print(f"area (eps x ln Delta): private {100 * f['private']:.3f}%, not private {100 * f['not private']:.3f}%, "
          f"undecided {100 * f['undecided']:.3f}%")
    print(f"time             {seconds:.1f} s{extra}")


@command(
    "certify-region",
    help="prove where Lemma 3's parameters are eps-DP over a box of (eps, sensitivity) (extra 'certified')",
    description="""\
Covers the box [E0, E1] x [D0, D1] of (eps, sensitivity Delta) by cells and proves, for
each cell, that Lemma 3's parameters (alpha = lam = e^(-eps/4), theta = 4 Delta/eps) are
eps-DP for every (eps, Delta) in it (private), or are not eps-DP for any (not private).
The box is cut into strips in eps; in each strip the private cell is at the bottom (small
Delta) and the not-private cell at the top, and the part between them is cut into narrower
strips while it is wider than --max-gap in ln Delta and the strips are wider than
--min-width; then it is reported undecided (so at most about max-gap / ln(D1/D0) of the
area is undecided).  Prints the area fractions, writes the certificate with --out.
Exit status 0 when every cell is private, 1 otherwise, 2 on bad input.
With --check, re-proves every cell of a certificate file from its boxes alone and
checks that the cells tile the box (exit 0 only when all of it holds).  Examples:

    arete certify-region --eps 0.5 20 --sensitivity 1 100 --max-gap 0.2 --workers 2 --out map.json
    arete certify-region --check map.json
""",
    options=(_region_arguments,),
)
def certify_region_command(args: argparse.Namespace) -> int:
    """``arete certify-region``: certify a box, or check a certificate."""
    need_flint("arete certify-region")
    from ..certified.region_certificate import FILE_FORMAT, check_file
    from ..certified.region_map import certify_region, check_certificate

    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.check:
        if args.eps or args.sensitivity or args.out:
            raise UsageError("--check takes only a certificate file (and --workers, --dask, --json)")
        doc = _load_certificate(args.check)
        try:
            if doc.get("format") == FILE_FORMAT:
                rep = check_file(doc, workers=args.workers, progress=not args.quiet)
            else:
                rep = check_certificate(doc, workers=args.workers, dask=args.dask, progress=not args.quiet)
        except (KeyError, TypeError, ArithmeticError) as exc:
            raise UsageError(f"--check: cannot read {args.check}: {exc}") from None
        if args.json:
            print(json.dumps({"ok": rep.ok, "cells": rep.cells, "failed": rep.failed, "tiling": rep.tiling,
                              "code_matches": rep.code_matches, "summary": rep.summary,
                              "seconds": round(rep.seconds, 2)}, indent=2))
        else:
            _print_summary(rep.summary, rep.seconds)
            print(f"tiling           {rep.tiling}")
            print(f"code hash        {'same as the prover' if rep.code_matches else 'differs from the prover (re-proved anyway)'}")
            if rep.failed:
                print(f"FAILED           {len(rep.failed)} cell(s) not re-proved: {rep.failed[:10]}")
            print("certificate holds" if rep.ok else "certificate does NOT hold")
        return 0 if rep.ok else 1
    if not args.eps or not args.sensitivity:
        raise UsageError("the following arguments are required: --eps, --sensitivity (or --check)")
    check_writable(args.out, "--out")
    doc = certify_region(args.eps, args.sensitivity, min_width=args.min_width, max_gap=args.max_gap,
                         workers=args.workers, dask=args.dask, progress=not args.quiet)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=0)
            fh.write("\n")
    s = doc["summary"]
    if args.json:
        print(json.dumps({k: doc[k] for k in ("box", "min_width", "max_gap", "version", "code_sha256", "seconds", "summary")},
                         indent=2))
    else:
        _print_summary(s, doc["seconds"], f" with {args.workers} worker(s)" + (f" on Dask at {args.dask}" if args.dask else ""))
        if args.out:
            print(f"certificate      {args.out}", file=sys.stdout)
    return 0 if s["counts"]["private"] == s["cells"] else 1
