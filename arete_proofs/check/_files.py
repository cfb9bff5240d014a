"""Find the certificates in files and folders, check each against its enclosing entry, run them in parallel.

A certificate is any JSON object with a ``format`` of the form ``arete-certificate/N``, anywhere in a JSON file; its
id is the file name and the JSON pointer to it.  An object that names a certificate kind but carries no such format (a
certificate written before the format existed) is refused: it is re-checked only once regenerated.  Beside the
certificate's own checks, two follow from where it sits: every parameter that the enclosing entry states too must be
the same rational number, and the nearest enclosing object with an ``eps`` must have the certificate's
``claim.epsilon``.
"""

from __future__ import annotations

import json
import os
import time
from fractions import Fraction

from . import FORMAT, KINDS, check_document

PREFIX = "arete-certificate/"
#: the largest file the checker reads (a certificate is at most 2 MB; a data file holds many)
MAX_BYTES = 64 << 20


class FileError(Exception):
    """An unreadable or malformed file (the command exits 2)."""


def _walk(x, path, parents, out):
    if isinstance(x, dict):
        fmt = x.get("format")
        if isinstance(fmt, str) and fmt.startswith(PREFIX):
            out.append((path or "/", x, parents))
            return
        if "format" not in x and x.get("kind") in KINDS and ("argument" in x or "choices" in x):
            out.append((path or "/", {"kind": x["kind"], "format": None}, parents))
            return
        for k, v in x.items():
            _walk(v, f"{path}/{k}", parents + [x], out)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            _walk(v, f"{path}/{i}", parents + [x], out)


def certificates(path):
    """``[(id, document, enclosing objects)]`` of the file at ``path``; ``FileError`` when it cannot be read."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            raise FileError(f"{path}: larger than {MAX_BYTES >> 20} MB")
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as e:
        raise FileError(f"{path}: cannot be read ({e.strerror or e})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise FileError(f"{path}: not a JSON file ({e})") from None
    out = []
    _walk(doc, "", [], out)
    name = os.path.basename(path)
    return [(f"{name}#{p}", d, parents) for p, d, parents in out]


def files(paths):
    """The JSON files named by ``paths`` (a folder: its ``*.json`` files, sorted) and the other files seen there."""
    found, other = [], []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in sorted(os.walk(p)):
                for n in sorted(names):
                    (found if n.endswith(".json") else other).append(os.path.join(root, n))
        elif os.path.exists(p):
            found.append(p)
        else:
            raise FileError(f"{p}: no such file or folder")
    return found, other


def _same(a, b):
    try:
        return Fraction(str(a)) == Fraction(str(b))
    except (ValueError, ZeroDivisionError):
        return False


def context_reason(doc, parents):
    """Why the certificate does not fit where it sits (``""`` when it does; module docstring)."""
    if not parents or doc.get("format") != FORMAT:
        return ""
    entry = parents[-1]
    for k, v in (doc.get("params") or {}).items():
        if k in entry and not _same(entry[k], v):
            return f"the entry's {k} = {entry[k]!r} is not the certificate's {v!r}"
    for p in reversed(parents):
        if isinstance(p, dict) and "eps" in p:
            e = (doc.get("claim") or {}).get("epsilon")
            if not _same(p["eps"], e):
                return f"the row's eps = {p['eps']!r} is not the certificate's claim.epsilon = {e!r}"
            break
    return ""


def _one(job):
    file, cid, doc, reason = job
    if reason:
        r = {"kind": doc.get("kind"), "verdict": "refused", "lower": None, "upper": None, "seconds": 0.0,
             "reason": reason}
    elif doc.get("format") is None:
        r = {"kind": doc.get("kind"), "verdict": "refused", "lower": None, "upper": None, "seconds": 0.0,
             "reason": "a certificate without a format (written before arete-certificate/1): regenerate it"}
    else:
        r = check_document(doc)
    r.update(file=file, id=cid)
    r.pop("objectives", None)
    return r


def jobs(paths):
    """(jobs, skipped files): one job per certificate found under ``paths``."""
    found, other = files(paths)
    out, skipped = [], list(other)
    for f in found:
        certs = certificates(f)
        if not certs:
            skipped.append(f)
        for cid, doc, parents in certs:
            out.append((f, cid, doc, context_reason(doc, parents)))
    return out, skipped


def run(job_list, *, workers=1, dask=None, on_result=None):
    """Check every job (``workers`` processes, or the Dask scheduler at ``dask``), the longest-looking first."""
    order = sorted(job_list, key=lambda j: -len(json.dumps(j[2].get("cover", {}))) - 1000 * int(
        (j[2].get("cover") or {}).get("n0", 0)))
    results = []

    def done(r):
        results.append(r)
        if on_result:
            on_result(r)

    if dask:
        from dask.distributed import Client, as_completed

        client = Client(dask)
        try:
            for _, r in as_completed([client.submit(_one, j, pure=False) for j in order], with_results=True):
                done(r)
        finally:
            client.close()
    elif workers > 1 and len(order) > 1:
        from concurrent.futures import ProcessPoolExecutor, as_completed as ac

        with ProcessPoolExecutor(workers) as pool:
            for f in ac([pool.submit(_one, j) for j in order]):
                done(f.result())
    else:
        for j in order:
            done(_one(j))
    key = {(j[0], j[1]): i for i, j in enumerate(job_list)}
    return sorted(results, key=lambda r: key[(r["file"], r["id"])])


def summary(results, skipped, seconds):
    n = len(results)
    bad = sum(r["verdict"] != "checked" for r in results)
    slow = max(results, key=lambda r: r["seconds"], default=None)
    return {"certificates": n, "checked": n - bad, "refused": bad, "skipped_files": len(skipped),
            "seconds": round(seconds, 1), "slowest": None if slow is None else {"id": slow["id"], "seconds": slow["seconds"]}}


def main(argv=None, prog="arete check"):
    """The command line (``arete check`` and ``python -m arete_proofs.check``); returns the exit status."""
    import argparse
    import sys

    class Parser(argparse.ArgumentParser):
        def error(self, message):          # one line, exit 2 (the project's convention)
            print(f"{prog}: error: {message}", file=sys.stderr)
            raise SystemExit(2)

    ap = Parser(prog=prog, description="Re-check every certificate in the given files and folders.")
    add_arguments(ap)
    a = ap.parse_args(argv)
    return execute(a.paths, workers=a.workers, dask=a.dask, as_json=a.json, quiet=a.quiet, prog=prog)


def add_arguments(ap):
    """The options of ``arete check`` (shared with ``python -m arete_proofs.check``)."""
    ap.add_argument("paths", nargs="+", metavar="PATH", help="a certificate file, a data file, or a folder")
    ap.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (default 1)")
    ap.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS (extra 'dask')")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")


def execute(paths, *, workers=1, dask=None, as_json=False, quiet=False, prog="arete check"):
    import sys

    t0 = time.perf_counter()
    if workers < 1:
        print(f"{prog}: error: --workers must be at least 1, got {workers}", file=sys.stderr)
        return 2
    try:
        js, skipped = jobs(paths)
    except FileError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    n = len(js)

    def line(r):
        if not quiet:
            print(f"{prog}: {r['verdict']} {r['id']} ({r['seconds']} s)", file=sys.stderr, flush=True)
        if not as_json:
            enc = "" if r["lower"] is None else f" [{r['lower']!r}, {r['upper']!r}]"
            why = f": {r['reason']}" if r["reason"] else ""
            print(f"{r['verdict'].upper():8} {r['id']} {r['kind']}{enc} {r['seconds']} s{why}", flush=True)

    results = run(js, workers=workers, dask=dask, on_result=line)
    s = summary(results, skipped, time.perf_counter() - t0)
    if as_json:
        print(json.dumps({"certificates": [{k: r[k] for k in ("file", "id", "kind", "verdict", "lower", "upper",
                                                               "seconds", "reason")} for r in results],
                          "skipped": skipped, "summary": s}, indent=1))
    else:
        for f in skipped:
            print(f"skipped  {f} (no certificate)")
        print(f"{s['checked']} of {n} certificates checked, {s['refused']} refused, {len(skipped)} files skipped, "
              f"{s['seconds']} s")
    return 1 if s["refused"] else 0
