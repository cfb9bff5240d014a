r"""The discrete frontier: lattice + Skellam against the discrete staircase at integer :math:`\Delta`.

For each integer :math:`\Delta` and :math:`\varepsilon` one row holds:

* the **discrete staircase** (Geng, Kairouz, Oh and Viswanath 2015) at its :math:`E|Z|`-optimal and its
  variance-optimal :math:`r` (:meth:`arete_proofs.noise.discrete_staircase.DiscreteStaircaseNoise.optimal`,
  closed forms) -- the floor of every :math:`\varepsilon`-DP integer noise;
* **MSDLap** optimised (:func:`arete_proofs.privacy.optimize_discrete.optimize_msdlap`, exact tight epsilon);
* **lattice + Skellam** :math:`h\,\mathrm{MSDLap}(a, m) + \mathrm{Sk}(\mu)` optimised for :math:`E|Z|`
  (:func:`arete_proofs.privacy.optimize_skellam.optimize`, a float64 search) and then **certified**
  (:func:`arete_proofs.certified.skellam_certificate.write_lattice_skellam`: a certificate of the tight epsilon over
  every shift :math:`|s| \le \Delta` that ``arete check`` re-derives, :math:`\mu` raised until its upper end is at
  most :math:`\varepsilon`);

and the ratios to the discrete staircase.  The file records how each entry was made and its command;
the page's table is :func:`table_markdown` of it (a test checks the page equals it).  ``--recertify`` rewrites
the certificates of the rows already in the file (:func:`recertify`), keeping every searched parameter.

>>> row = {"dstaircase": {"mean_abs": "2"}, "lattice_skellam": {"mean_abs": "2.5"}}
>>> ratio(row, "lattice_skellam")                               # 2.5 / 2
1.25
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

__all__ = ["DATA", "FORMAT", "compute_row", "load", "main", "ratio", "recertify", "table_markdown", "update_page"]

#: the shipped results (``docs/data/frontier-discrete.json`` of the source tree)
DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "frontier-discrete.json"
FORMAT = "arete-frontier-discrete/1"
_BEGIN, _END = "<!-- frontier-discrete-table -->", "<!-- /frontier-discrete-table -->"


def _log(msg):
    print(f"[frontier-discrete] {msg}", file=sys.stderr, flush=True)


def _s(x):
    return repr(x) if isinstance(x, float) else str(x)


def compute_row(Delta, eps, *, digits=8, msdlap=True, progress=_log, objective="mean_abs", row=None):
    r"""One row (a dict) at integer ``Delta`` and ``eps``: the entries of the module docstring with their ``how`` and ``seconds``.

    (At :math:`\Delta = 1` the discrete staircase is the geometric mechanism DLap(:math:`\varepsilon`); seconds to a
    minute per row, so no doctest: ``tests/test_lattice_skellam_frontier.py`` checks the shipped rows.)
    """
    from ..noise import FAMILIES

    say = progress or (lambda s: None)
    if objective == "variance":        # the variance-optimal lattice + Skellam, added to an existing row
        row = dict(row or compute_row(Delta, eps, digits=digits, msdlap=msdlap, progress=progress))
        row["lattice_skellam_var"] = _skellam(Delta, eps, digits, "variance", say, row)
        return row
    row = {"Delta": int(Delta), "eps": _s(float(eps))}
    for key, obj in (("dstaircase", "mean_abs"), ("dstaircase_var", "variance")):
        t0 = time.perf_counter()
        z = FAMILIES["discrete_staircase"].optimal(eps, Delta, objective=obj)
        row[key] = {"r": int(z.r), "mean_abs": _s(float(z.mean_abs(digits=15))), "variance": _s(float(z.var(digits=15))),
                    "how": f"noise.discrete_staircase.optimal(objective={obj!r}) (closed forms)",
                    "seconds": round(time.perf_counter() - t0, 2)}
    if msdlap:
        from ..privacy.optimize_discrete import optimize_msdlap

        t0 = time.perf_counter()
        o = optimize_msdlap(eps, Delta)
        row["msdlap"] = {"a": str(o["a"]), "m": int(o["m"]), "mean_abs": _s(float(o["mean_abs"])),
                         "variance": _s(float(o["variance"])), "epsilon": _s(float(o["epsilon"])), "how": o["how"],
                         "seconds": round(time.perf_counter() - t0, 2)}
    row["lattice_skellam"] = _skellam(Delta, eps, digits, "mean_abs", say, row)
    return row


def _skellam(Delta, eps, digits, objective, say, row):
    from ..certified import skellam_certificate
    from ..privacy import optimize_skellam

    key = "dstaircase" if objective == "mean_abs" else "dstaircase_var"
    say(f"Delta={Delta} eps={eps}: staircase {objective} {row[key][objective]}; searching lattice + Skellam")
    o = optimize_skellam.optimize(eps, Delta, objective=objective, certify=skellam_certificate.certify, digits=digits)
    ls = {k: o[k] for k in ("a", "m", "h", "mu", "mean_abs", "variance", "estimate", "scan", "search_seconds",
                            "certified", "lower", "upper", "mu_raised", "certify_seconds", "seconds")}
    ls["params"] = o["params"]
    ls["certificate"] = o["certificate"]
    if ls["certified"]:                 # the certificate of the row's eps (the search's claims its own upper end)
        _certificate(ls, Delta, row["eps"], say)
    ls["objective"] = objective
    ls["how"] = (f"privacy.optimize_skellam.optimize (objective {objective}): m from a small set, h = round(Delta/m) "
                 "(and ceil when h m < Delta), "
                 "a on a grid + golden section, mu the least with the float64 estimate at eps (1 - 2e-7); then "
                 "certified.skellam_certificate.write_lattice_skellam, mu raised until the upper end <= eps")
    say(f"  lattice + Skellam m={o['m']} h={o['h']} a={o['a']:.6g} mu={o['mu']:.6g}: {objective} {o[objective]:.6g} "
        f"({o[objective] / float(row[key][objective]):.4f} x), certified [{o['lower']}, {o['upper']}] "
        f"in {o['seconds']} s")
    return ls


def _certificate(ls, Delta, eps, say):
    """Write the entry's certificate (claim.epsilon = the row's ``eps``) and its interval ``lower``, ``upper``."""
    from ..certified.skellam_certificate import write_lattice_skellam

    p = ls["params"]
    doc = write_lattice_skellam(p["a"], p["m"], p["mu"], p["h"], Delta, epsilon=eps)
    ls.update(certificate=doc, lower=doc["claim"]["lower"], upper=doc["claim"]["upper"], certified=True)
    say(f"  Delta={Delta} eps={eps} m={p['m']} h={p['h']}: certificate [{ls['lower']}, {ls['upper']}] "
        f"in {doc['search_seconds']} s")


def recertify(row, progress=_log):
    r"""Rewrite the row's lattice + Skellam certificates (both objectives) of :math:`\varepsilon^* \le \varepsilon` for
    their recorded parameters in the checkable format (:mod:`arete_proofs.certified.skellam_certificate`); every
    other field is kept.

    >>> from arete_proofs.check import check_document
    >>> row = recertify(next(r for r in load()["rows"] if (r["Delta"], r["eps"]) == (10, "2.0")), progress=None)
    >>> check_document(row["lattice_skellam"]["certificate"])["verdict"], float(row["lattice_skellam"]["upper"]) <= 2
    ('checked', True)
    """
    say = progress or (lambda s: None)
    for key in ("lattice_skellam", "lattice_skellam_var"):
        if key in row:
            _certificate(row[key], row["Delta"], row["eps"], say)
    return row


def ratio(row, key, objective="mean_abs"):
    r""":math:`E|Z|/E|Z_{DSC}|` (or :math:`\operatorname{Var}` against the variance-optimal discrete staircase), 6 decimals.

    >>> ratio({"dstaircase_var": {"variance": "4"}, "x": {"variance": "5"}}, "x", "variance")
    1.25
    """
    base = row["dstaircase" if objective == "mean_abs" else "dstaircase_var"][objective]
    return round(float(row[key][objective]) / float(base), 6)


def load(path=DATA):
    r"""The shipped JSON (a dict with ``rows``), every row certified :math:`\varepsilon^* \le \varepsilon`.

    >>> d = load()
    >>> d["format"], all(r["lattice_skellam"]["certified"] for r in d["rows"])
    ('arete-frontier-discrete/1', True)
    """
    return json.loads(Path(path).read_text())


def table_markdown(data):
    r"""The page's table: for each row :math:`\Delta`, :math:`\varepsilon`, the staircase's :math:`E|Z|` and the ratios.

    >>> row = {"Delta": 1, "eps": "2.0", "dstaircase": {"r": 1, "mean_abs": "0.2757", "variance": "0.362"},
    ...        "dstaircase_var": {"r": 1, "mean_abs": "0.2757", "variance": "0.362"},
    ...        "lattice_skellam": {"a": 1.9996, "m": 1, "h": 1, "mu": 1e-06, "mean_abs": 0.2758, "variance": 0.3622,
    ...                            "certified": True, "lower": "1.9996", "upper": "1.9996"}}
    >>> print(table_markdown({"rows": [row]}).splitlines()[2])
    | 1 | 2 | 0.2757 | — | 1.000 | 1.001 | — | 1, 1, 1.9996, 1e-06; [1.9996, 1.9996] certified |
    """
    head = ("| Δ | ε | discrete staircase E\\|Z\\| | MSDLap opt. / DSC | lattice + Skellam / DSC (E\\|Z\\|) | "
            "its Var / DSC Var | Var-opt. lattice + Skellam Var / DSC Var | lattice + Skellam: m, h, a, μ; certified ε* |")
    lines = [head, "|---|---|---|---|---|---|---|---|"]
    for r in sorted(data["rows"], key=lambda r: (r["Delta"], float(r["eps"]))):
        ls = r["lattice_skellam"]
        ms = f"{ratio(r, 'msdlap'):.3f}" if "msdlap" in r else "—"
        cert = f"[{ls['lower']}, {ls['upper']}] " + ("certified" if ls["certified"] else "NOT below eps")
        lines.append(f"| {r['Delta']} | {float(r['eps']):g} | {float(r['dstaircase']['mean_abs']):.5g} | {ms} | "
                     f"{ratio(r, 'lattice_skellam'):.3f} | {ratio(r, 'lattice_skellam', 'variance'):.3f} | "
                     f"{_var_opt(r)} | "
                     f"{ls['m']}, {ls['h']}, {float(ls['a']):.6g}, {float(ls['mu']):.4g}; {cert} |")
    return "\n".join(lines)


def _var_opt(r):
    v = r.get("lattice_skellam_var")
    return "—" if v is None else f"{ratio(r, 'lattice_skellam_var', 'variance'):.3f} (m = {v['m']}, h = {v['h']})"


def update_page(page, data):
    r"""Rewrite the table (ratios to the discrete staircase, :math:`E|Z|/E|Z_{DSC}|`) between the page's markers.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = p.write_text("a\n<!-- frontier-discrete-table -->\nold\n<!-- /frontier-discrete-table -->\nb\n")
    >>> update_page(p, load()); "old" in p.read_text(), p.read_text().count("| 1000 |") > 0
    (False, True)
    """
    p = Path(page)
    text = p.read_text()
    i, j = text.index(_BEGIN) + len(_BEGIN), text.index(_END)
    p.write_text(text[:i] + "\n" + table_markdown(data) + "\n" + text[j:])


def main(argv=None):
    r"""``python -m arete_proofs.walkthrough.frontier_discrete --Delta 1 10 --eps 2 4 --out FILE [--page PAGE]`` (rows of :math:`(\Delta, \varepsilon)` merge into the file)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--Delta", type=int, nargs="+", default=None, help="default 1 10 100 1000 (--recertify: all)")
    ap.add_argument("--eps", type=float, nargs="+", default=None, help="default 2 4 6 8 10 (--recertify: all)")
    ap.add_argument("--digits", type=int, default=8)
    ap.add_argument("--no-msdlap", action="store_true", help="skip the MSDLap optimiser")
    ap.add_argument("--objective", choices=("mean_abs", "variance"), default="mean_abs",
                    help="variance: add the variance-optimal lattice + Skellam to the rows already in the file")
    ap.add_argument("--out", default=str(DATA))
    ap.add_argument("--page", default=None, help="a page whose table to rewrite")
    ap.add_argument("--recertify", action="store_true",
                    help="rewrite the lattice + Skellam certificates of the rows in the file (checkable format), "
                         "keeping every searched parameter")
    args = ap.parse_args(argv)
    out = Path(args.out)
    data = load(out) if out.exists() else {"format": FORMAT, "rows": [], "commands": []}
    t0 = time.perf_counter()
    if args.recertify:
        for row in data["rows"]:
            if (args.Delta is None or row["Delta"] in args.Delta) and (args.eps is None or float(row["eps"]) in args.eps):
                recertify(row)
                out.write_text(json.dumps(data, indent=1) + "\n")
    for D in ([] if args.recertify else args.Delta or [1, 10, 100, 1000]):
        for e in args.eps or [2, 4, 6, 8, 10]:
            old = next((r for r in data["rows"] if (r["Delta"], float(r["eps"])) == (D, float(e))), None)
            row = compute_row(D, e, digits=args.digits, msdlap=not args.no_msdlap, objective=args.objective, row=old)
            row["generated"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
            data["rows"] = [r for r in data["rows"] if (r["Delta"], float(r["eps"])) != (D, float(e))] + [row]
            out.write_text(json.dumps(data, indent=1) + "\n")
    cmd = "python -m arete_proofs.walkthrough.frontier_discrete " + " ".join(argv if argv is not None else sys.argv[1:])
    data["commands"] = [c for c in data.get("commands", []) if c != cmd] + [cmd]
    if not args.recertify:           # the rows' recorded seconds (a rewritten certificate records its own)
        data["seconds"] = round(data.get("seconds", 0) + time.perf_counter() - t0, 1)
    out.write_text(json.dumps(data, indent=1) + "\n")
    if args.page:
        update_page(args.page, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
