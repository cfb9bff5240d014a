r"""The comparison of every noise (every family at its papers' parameters and optimised): :math:`E|Z|` and :math:`\operatorname{Var} Z`, each with its tight epsilon.

**Continuous table** (:math:`\Delta = 1`, :math:`\varepsilon = 2, 3, \dots, 20`), one entry per noise:

* **Laplace** :math:`\lambda = \Delta/\varepsilon` (Lemma 26): :math:`E|Z| = \lambda`, :math:`\operatorname{Var} Z = 2\lambda^2`,
  :math:`\varepsilon^* = \varepsilon` (closed form);
* **Staircase** at its :math:`E|Z|`-optimal and at its variance-optimal :math:`\gamma` (Lemma 27): the
  floor of every :math:`\varepsilon`-DP additive noise (Geng and Viswanath 2016, Theorem 4);
* **Arete, paper**: Lemma 3's :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`,
  its exact tight epsilon (:mod:`arete_proofs.privacy.tight`; below the target where Lemma 3 does not
  apply: budget left unused);
* **Arete, optimised** (:mod:`arete_proofs.privacy.optimize`) for :math:`E|Z|` and **Arete + Gaussian**
  (:mod:`arete_proofs.privacy.optimize_gauss`), read from ``docs/data/beyond.json``
  (:mod:`arete_proofs.walkthrough.beyond`, not recomputed); the variance optimum of Arete from
  beyond.json where it has one, else computed here by :func:`arete_proofs.privacy.optimize.optimize`;
* **Theorem 21** (``lattice_laplace`` at :func:`arete_proofs.distributions.lattice.theorem21_parameters`)
  with its certified tight epsilon (:func:`arete_proofs.privacy.tight_lattice.tight_epsilon_theorem21`)
  and :math:`E|Z|` (:func:`arete_proofs.privacy.optimize_discrete.theorem21_mean_abs`) where
  :math:`m = \lceil e^{\varepsilon/3}\rceil \le` ``THEOREM21_M_MAX_DOCS`` (all of :math:`\varepsilon \le 20`;
  17 s of CPU at :math:`m = 245`, minutes at :math:`m = 786`), beyond that read from ``frontier.json``
  where it has the row, else its variance only (closed form :math:`h^2 S_2(m)/(\cosh a - 1) + 2b^2`);
* **lattice + Gaussian** optimised, read from ``docs/data/frontier.json`` (:mod:`arete_proofs.walkthrough.frontier`)
  for :math:`E|Z|` and from ``docs/data/frontier-variance.json`` for the variance (``lattice_gauss_var``: the
  variance-optimal parameters, a smaller :math:`m \approx 0.9\,e^{\varepsilon/3}`): its tight epsilon is the
  certified cover's upper end where the row is certified (:math:`m \le 130`), else the float64 estimate
  (**not certified**, starred); ``lattice_top`` and ``lattice_top_var`` the same for ``lattice_gauss_top``
  (the top scale at its own rate), from the same files.

**Discrete table** (integer :math:`\Delta \in \{1, 10, 100, 1000\}`, :math:`\varepsilon \in \{2, 5, 10, 15, 20\}`):
**DLap** :math:`(a = \varepsilon/\Delta)`, **GDL** at Theorem 15's :math:`\beta = \Delta e^{2-\varepsilon}`,
:math:`a = 2/\Delta` (only where its hypothesis :math:`\varepsilon > 2 + \ln\Delta` holds), **MSDLap** at
Theorem 16's :math:`a = \varepsilon`, :math:`m = \Delta` (:math:`E|Z|` by
:func:`arete_proofs.privacy.optimize_discrete.msdlap_mean_abs`), and **optimised** GDL and MSDLap (least
:math:`E|Z|` and least variance at exact tight epsilon :math:`\le \varepsilon`,
:mod:`arete_proofs.privacy.optimize_discrete`), against the
**discrete staircase** (:mod:`arete_proofs.distributions.discrete_staircase`) at its :math:`E|Z|`- and
variance-optimal :math:`r`.  Every discrete tight epsilon is exact (closed forms, integer step counts or
the comb's window plus exact tail limit).

``certified`` in an entry: ``True`` where the tight epsilon is a closed form or a ball-arithmetic /
exact-reduction certificate, ``False`` where it is a numerical computation (lattice + Gaussian rows without a
cover certificate).  The Arete entries' numerical tight epsilon (:func:`arete_proofs.privacy.tight.tight_epsilon`)
is proved afterwards by :func:`arete_proofs.certified.epsilon.certify_epsilon` (``_certify_arete``, the
bracket in ``certificate``).

:func:`compute` runs the rows (``--workers`` processes) and records how each entry was made (``how``,
``digits``, ``seconds``) and the command; the docs read the shipped JSON (:func:`load`) and the page's
tables are :func:`table_markdown` of it (a test checks the page equals it; :func:`update_page`).

>>> e = continuous_part(8, "laplace")
>>> e["mean_abs"], e["variance"], e["epsilon"], e["certified"]
('0.125', '0.03125', '8.0', True)
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from mpmath import mp

from ..noise.comparison import DISCRETE_PARTS, discrete_part, family_entry

__all__ = ["DATA", "FORMAT", "CONTINUOUS", "DISCRETE", "EPS", "DISCRETE_EPS", "DISCRETE_DELTAS",
           "continuous_part", "compute", "load",
           "table_markdown", "update_page"]

#: the shipped results (``docs/data/comparison.json`` of the source tree)
DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "comparison.json"
BEYOND = DATA.parent / "beyond.json"
FRONTIER = DATA.parent / "frontier.json"
FRONTIER_VAR = DATA.parent / "frontier-variance.json"
FORMAT = "arete-comparison/1"
#: the continuous table's eps and entries (table order)
EPS = tuple(range(2, 21))
CONTINUOUS = ("laplace", "staircase", "staircase_var", "arete_paper", "arete", "arete_var", "arete_gauss",
              "theorem21", "lattice_gauss", "lattice_gauss_var", "lattice_top", "lattice_top_var")
#: the discrete table's eps, sensitivities and entries
DISCRETE_EPS = (2, 5, 10, 15, 20)
DISCRETE_DELTAS = (1, 10, 100, 1000)
DISCRETE = DISCRETE_PARTS

_LABELS = {"laplace": "Laplace", "staircase": "Staircase (E|Z|-opt.)", "staircase_var": "Staircase (Var-opt.)",
           "arete_paper": "Arete, paper (Lemma 3)", "arete": "Arete, optimised for E|Z|",
           "arete_var": "Arete, optimised for Var", "arete_gauss": "Arete + Gaussian (E|Z|-opt.)",
           "theorem21": "Theorem 21 (lattice + Laplace)", "lattice_gauss": "lattice + Gaussian (E|Z|-opt.)",
           "lattice_gauss_var": "lattice + Gaussian (Var-opt.)",
           "lattice_top": "lattice + Gaussian, top rate (E|Z|-opt.)", "lattice_top_var": "top rate (Var-opt.)",
           "dlap": "DLap(eps/Delta)", "gdl": "GDL (Theorem 15)", "msdlap": "MSDLap (Theorem 16)",
           "gdl_opt": "GDL opt. E|Z|", "gdl_opt_var": "GDL opt. Var", "msdlap_opt": "MSDLap opt. E|Z|",
           "msdlap_opt_var": "MSDLap opt. Var",
           "dstaircase": "discrete staircase (E|Z|-opt. r)", "dstaircase_var": "discrete staircase (Var-opt. r)"}


def _log(msg):
    print(f"[comparison] {msg}", file=sys.stderr, flush=True)


def _s(x, digits=15):
    if isinstance(x, float):
        return repr(x)
    with mp.workdps(digits + 5):
        return mp.nstr(mp.mpf(x), digits)


def _json_row(doc_path, eps, key):
    if not Path(doc_path).exists():
        return None
    doc = json.loads(Path(doc_path).read_text())
    for r in doc["rows"]:
        if float(r["eps"]) == float(eps):
            return r.get(key) if key else r
    return None


def _read(path, eps, *keys, certified):
    r = _json_row(path, eps, None)
    for k in keys:
        r = None if r is None else r.get(k)
    if r is None:
        return None
    e = {k: v for k, v in r.items() if k != "scan"}
    e["certified"] = certified if e.get("certified") is None else bool(e["certified"])
    e["how"] = f"read from docs/data/{Path(path).name} ({e.get('how') or e.get('source') or 'its commands'})"
    return e


def continuous_part(eps, part, *, digits=8):
    r"""One entry (a JSON-ready dict) of the continuous row at ``eps`` (:math:`\Delta = 1`; module docstring).

    >>> e = continuous_part(4, "staircase")
    >>> float(e["mean_abs"]) < float(continuous_part(4, "laplace")["mean_abs"])     # Lemma 27 below Lemma 26
    True
    """
    t0 = time.perf_counter()
    e_int = int(eps) if float(eps).is_integer() else eps
    with mp.workdps(30):
        E = mp.mpf(eps)
        if part == "laplace":
            out = {"lam": _s(1 / E), "mean_abs": _s(1 / E), "variance": _s(2 / E ** 2), "epsilon": _s(E),
                   "certified": True, "how": "closed form (Lemma 26)"}
        elif part in ("staircase", "staircase_var"):
            from ..distributions import staircase

            g = (staircase.gamma_mean_abs if part == "staircase" else staircase.gamma_var)(eps, digits=20)
            out = {"gamma": _s(g), "mean_abs": _s(staircase.mean_abs(g, 1, eps, digits=20)),
                   "variance": _s(staircase.var(g, 1, eps, digits=20)), "epsilon": _s(E), "certified": True,
                   "how": "closed form (Lemma 27) at gamma_mean_abs / gamma_var"}
        elif part == "arete_paper":
            from ..noise import FAMILIES

            z = FAMILIES["arete"].paper(eps, 1, digits=30)
            r = z.tight_epsilon(Delta=1, digits=digits)
            out = {"alpha": _s(z.alpha), "theta": _s(z.theta), "lam": _s(z.lam),
                   "mean_abs": _s(z.mean_abs(digits=12)), "variance": _s(z.var(digits=12)),
                   "epsilon": _s(r.epsilon, digits), "epsilon_upper": _s(r.upper_bound, digits + 3),
                   "certified": False, "digits": digits,
                   "how": "noise arete .paper (Lemma 3) + privacy.tight.tight_epsilon (bracketed, not ball arithmetic)"}
        elif part == "arete":
            out = _read(BEYOND, eps, "arete", certified=False)
        elif part == "arete_gauss":
            out = _read(BEYOND, eps, "gauss", certified=True)
        elif part == "arete_var":
            out = _read(BEYOND, eps, "variance", "arete", certified=False)
            if out is None:
                from ..privacy import optimize

                o = optimize.optimize(float(eps), 1, objective="variance", digits=digits)
                out = {"alpha": repr(o.alpha), "theta": repr(o.theta), "lam": repr(o.lam),
                       "mean_abs": _s(o.mean_abs), "variance": _s(o.variance), "epsilon": _s(o.epsilon, digits),
                       "certified": False, "digits": digits,
                       "how": "privacy.optimize.optimize(objective='variance') (exact tight_epsilon confirmation)"}
        elif part == "theorem21":
            out = family_entry("lattice_laplace", e_int, 1, digits=digits, theorem21_m_max=THEOREM21_M_MAX_DOCS)
            out.pop("noise"), out.pop("eps")
            if out.get("epsilon") is None:
                out = _read(FRONTIER, eps, "theorem21", certified=True) or out
        elif part in ("lattice_gauss", "lattice_gauss_var", "lattice_top", "lattice_top_var"):
            key = "lattice_top" if part.startswith("lattice_top") else "lattice_gauss"
            src = FRONTIER_VAR if part.endswith("_var") else FRONTIER
            out = _read(src, eps, key, certified=False)
            if out is not None:   # certified rows: the certificate's claim and enclosures; the others: the estimate (*)
                c = out.pop("certificate", None)
                out["certified"] = bool(out.get("certified")) and c is not None and "claim" in c
                out["epsilon"] = c["claim"]["upper"] if out["certified"] else out.get("estimate")
                if out["certified"]:    # the certificate stays in its frontier file (arete check re-checks it there)
                    i = next(i for i, r in enumerate(json.loads(Path(src).read_text())["rows"])
                             if float(r["eps"]) == float(eps))
                    out["certificate_ref"] = f"{Path(src).name}#/rows/{i}/{key}/certificate"
                    out["certified_objectives"] = c["objectives"]
        else:
            raise ValueError(f"part must be one of {CONTINUOUS}, got {part!r}")
    if out is not None and part in ("arete", "arete_paper", "arete_var"):
        _certify_arete(out, target=None if part == "arete_paper" else eps, eps=str(eps))   # the paper's: well below eps
    if out is not None and "seconds" not in out:
        out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


#: the docs table's Theorem 21 rows are computed up to this m (eps = 20 has m = 786; the window grows like m^2)
THEOREM21_M_MAX_DOCS = 800

#: the bracket width of the Arete certificates (:func:`arete_proofs.certified.epsilon.certify_epsilon`)
ARETE_TOL = "1e-9"


def _certify_arete(out, tol=ARETE_TOL, target=None, eps=None):
    r"""Prove the entry's tight epsilon in ball arithmetic at the entry's parameters as written: ``certificate``
    gets an ``arete`` certificate (:func:`arete_proofs.certified.arete_certificate.certificate`: the cover found by
    :func:`arete_proofs.certified.epsilon.certify_epsilon` and the bracket ``claim`` ``[lower, upper]`` of
    :math:`\sup_t \ln f_A(t)/f_A(t+\Delta)`, re-checked by ``arete_proofs.check``; ``claim.epsilon`` is ``eps``,
    the row's), ``certified`` becomes ``True`` when the numerical value lies in the bracket (to ``tol``).  The cover
    is refined until the bracket is ``tol`` wide or its upper end is at most ``target`` (the row's epsilon: the optima
    sit a few 1e-9 below it, so a 1e-6 bracket would not show they are private).  Without python-flint (the extra
    ``certified``) the entry stays uncertified.  1 to 80 s per entry (measured on the shipped rows)."""
    try:
        import flint  # noqa: F401
    except ImportError:
        return
    from ..certified.arete_certificate import certificate

    c = certificate(out["alpha"], out["theta"], out["lam"], 1, epsilon=eps, tol=tol, target=target, max_seconds=600)
    out["certificate"] = c
    lo, up = c["claim"]["lower"], c["claim"]["upper"]
    e = float(out["epsilon"])
    slack = float(tol) + 6e-8 * abs(e)        # the stored value is rounded to 8 digits
    out["certified"] = bool(float(lo) - slack <= e <= float(up) + slack)
    out["epsilon_upper"] = up
    out["how"] += f"; proved in [{lo}, {up}] by certified.epsilon.certify_epsilon (certificate checked by arete_proofs.check)"


def _task(task):
    kind, eps, Delta, part, digits = task
    t0 = time.perf_counter()
    try:
        e = continuous_part(eps, part, digits=digits) if kind == "c" else discrete_part(eps, Delta, part,
                                                                                       digits=digits)
    except Exception as err:  # recorded in the file, not fatal for the other rows
        _log(f"{kind} eps={eps} Delta={Delta} {part}: FAILED {type(err).__name__}: {err}")
        return task, None, f"{type(err).__name__}: {err}"
    _log(f"{'continuous' if kind == 'c' else 'discrete'} eps={eps:g} Delta={Delta} {part}: "
         f"{time.perf_counter() - t0:.1f} s")
    return task, e, None


def compute(eps_values=EPS, *, discrete_eps=DISCRETE_EPS, deltas=DISCRETE_DELTAS, digits=8, workers=1,
            out=None, parts=CONTINUOUS + DISCRETE, merge=False):
    r"""Both tables (``workers`` processes; progress on stderr), written to ``out`` when given.

    The document records the command, ``digits``, each entry's ``how`` and ``seconds`` and the total
    time; entries follow the module docstring (Lemma 26, Lemma 27, Lemma 3, Theorems 15, 16, 21).
    ``merge``: keep the entries of an existing ``out`` and replace only the ``parts`` computed here
    (the command is appended to the file's ``merges``).
    """
    t0 = time.perf_counter()
    tasks = [("c", float(e), 1, p, digits) for e in eps_values for p in parts if p in CONTINUOUS]
    tasks += [("d", float(e), int(D), p, digits) for D in deltas for e in discrete_eps for p in parts
              if p in DISCRETE]
    slow = ("arete_var", "theorem21", "msdlap_opt", "msdlap_opt_var", "gdl_opt", "gdl_opt_var", "msdlap", "gdl")
    tasks.sort(key=lambda t: (t[3] not in slow, -t[2], -t[1]))
    _log(f"{len(tasks)} entries, {workers} worker(s)")
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = list(pool.imap_unordered(_task, tasks, chunksize=1))
    else:
        results = [_task(t) for t in tasks]
    doc = {"format": FORMAT, "digits": digits, "continuous": {"Delta": "1", "rows": []},
           "discrete": {"rows": []}, "failed": {}}
    crows, drows = {}, {}
    for (kind, eps, D, part, _), e, err in results:
        if kind == "c":
            row = crows.setdefault(eps, {"eps": _s(eps)})
        else:
            row = drows.setdefault((D, eps), {"Delta": D, "eps": _s(eps)})
        if e is not None:
            row[part] = e
        elif err is not None:   # None without an error: the source file has no such entry (left out)
            doc["failed"][f"{kind} {eps:g} {D} {part}"] = err
    doc["continuous"]["rows"] = [crows[k] for k in sorted(crows)]
    doc["discrete"]["rows"] = [drows[k] for k in sorted(drows)]
    command = (" ".join(["python -m arete_proofs.walkthrough.comparison"] + sys.argv[1:])
               if sys.argv and sys.argv[0].endswith("comparison.py") else
               f"compute({list(eps_values)}, digits={digits}, workers={workers}, parts={list(parts)})")
    if merge and out is not None and Path(out).exists():
        doc = _merged(load(out), doc, command, round(time.perf_counter() - t0, 1))
    else:
        doc["command"] = command
        doc["generated"] = datetime.date.today().isoformat()
        doc["seconds"] = round(time.perf_counter() - t0, 1)
    if out is not None:
        Path(out).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def _merged(old, new, command, seconds):
    """``old`` with the entries of ``new`` put in (rows matched by eps, and Delta for the discrete table)."""
    for which, key in (("continuous", lambda r: float(r["eps"])), ("discrete", lambda r: (r["Delta"], float(r["eps"])))):
        rows = {key(r): r for r in old[which]["rows"]}
        for r in new[which]["rows"]:
            rows.setdefault(key(r), {k: v for k, v in r.items() if k in ("eps", "Delta")}).update(r)
        old[which]["rows"] = [rows[k] for k in sorted(rows)]
    old.setdefault("failed", {}).update(new["failed"])
    old.setdefault("merges", []).append({"command": command, "generated": datetime.date.today().isoformat(),
                                         "seconds": seconds})
    return old


def load(path=None):
    r"""The shipped results (:data:`DATA`) or ``path``: the tables of :math:`E|Z|` and :math:`\operatorname{Var} Z`.

    >>> load()["format"]
    'arete-comparison/1'
    """
    doc = json.loads(Path(path or DATA).read_text())
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path or DATA}: not an {FORMAT} file")
    return doc


def _f(x, n=4):
    return "—" if x is None else f"{float(x):.{n}g}"


def _cell(e, key):
    """The entry's value (4 digits), or its certified enclosure rounded outward to 5 digits ``[lo, hi]`` when the
    entry carries one (``certified_objectives``: the lattice entries' certificates, re-checked by ``arete check``)."""
    if not e or e.get("skipped"):
        return "—"
    enc = (e.get("certified_objectives") or {}).get(key)
    if enc:
        return "[" + ", ".join(_outward(x, up) for x, up in zip(enc, (False, True))) + "]"
    return _f(e.get(key))


def _outward(x, up, digits=5):
    """The decimal ``x`` rounded to ``digits`` significant digits, down (``up=False``) or up."""
    import math
    from fractions import Fraction

    q = Fraction(str(x))
    if q == 0:
        return "0"
    e = math.floor(math.log10(abs(q))) - digits + 1
    n = (math.ceil if up else math.floor)(q / Fraction(10) ** e)
    return f"{float(n * Fraction(10) ** e):.{digits}g}"


def _eps_cell(e):
    if not e or e.get("skipped") or e.get("epsilon") is None:
        return "—"
    return _f(e["epsilon"], 10) + ("" if e.get("certified") else "*")


def table_markdown(doc=None, which="continuous", quantity="mean_abs"):
    r"""A table of the page (MyST markdown): ``which`` is ``continuous`` or ``discrete``; ``quantity``
    ``mean_abs``, ``variance`` or ``epsilon`` (the tight epsilons; ``*``: not certified).  Lemma 27's
    Staircase (continuous) or the discrete staircase is the floor of each row.

    >>> doc = load()
    >>> len(table_markdown(doc).splitlines()) == len(doc["continuous"]["rows"]) + 2
    True
    """
    doc = load() if doc is None else doc
    parts = CONTINUOUS if which == "continuous" else DISCRETE
    head = (["ε"] if which == "continuous" else ["Δ", "ε"]) + [_LABELS[p].replace("|", "\\|") for p in parts]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in doc[which]["rows"]:
        cells = [f"{float(r['eps']):g}"] if which == "continuous" else [str(r["Delta"]), f"{float(r['eps']):g}"]
        for p in parts:
            cells.append(_eps_cell(r.get(p)) if quantity == "epsilon" else _cell(r.get(p), quantity))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


_BLOCKS = [(w, q) for w in ("continuous", "discrete") for q in ("mean_abs", "variance", "epsilon")]


def update_page(page, doc=None):
    r"""Replace every ``<!-- comparison-WHICH-QUANTITY -->`` block of ``page`` by :func:`table_markdown`
    (the tables of :math:`E|Z|`, :math:`\operatorname{Var} Z` and the tight epsilons).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = path.write_text("<!-- comparison-continuous-mean_abs -->\nold\n<!-- /comparison-continuous-mean_abs -->\n")
    >>> update_page(path)
    >>> table_markdown() in path.read_text()
    True
    """
    import re

    text = Path(page).read_text()
    for w, q in _BLOCKS:
        tag = f"comparison-{w}-{q}"
        text = re.sub(rf"(<!-- {tag} -->\n)(?:.*?\n)?(<!-- /{tag} -->)",
                      lambda m, w=w, q=q: m.group(1) + table_markdown(doc, w, q) + "\n" + m.group(2), text,
                      flags=re.S)
    Path(page).write_text(text)


def main(argv=None):
    """``python -m arete_proofs.walkthrough.comparison --workers 2 --out docs/data/comparison.json``."""
    ap = argparse.ArgumentParser(prog="python -m arete_proofs.walkthrough.comparison",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--eps", type=float, nargs="+", default=list(EPS))
    ap.add_argument("--discrete-eps", type=float, nargs="+", default=list(DISCRETE_EPS))
    ap.add_argument("--deltas", type=int, nargs="+", default=list(DISCRETE_DELTAS))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--digits", type=int, default=8)
    ap.add_argument("--parts", nargs="+", choices=CONTINUOUS + DISCRETE, default=list(CONTINUOUS + DISCRETE))
    ap.add_argument("--out", default=None, help="the JSON file to write")
    ap.add_argument("--page", default=None, help="also rewrite this page's tables")
    ap.add_argument("--merge", action="store_true", help="keep --out's other entries; replace only --parts")
    a = ap.parse_args(argv)
    if a.workers < 1:
        ap.error("--workers must be >= 1")
    doc = compute(a.eps, discrete_eps=a.discrete_eps, deltas=a.deltas, digits=a.digits, workers=a.workers,
                  out=a.out, parts=tuple(a.parts), merge=a.merge)
    if a.page:
        update_page(a.page, doc)
    for w, q in _BLOCKS:
        print(f"\n{w} {q}\n" + table_markdown(doc, w, q))
    return 0


if __name__ == "__main__":
    sys.exit(main())
