r"""The frontier table: the least :math:`E|Z|` of each family at :math:`\varepsilon`, against the Staircase.

For each :math:`\varepsilon` (:math:`\Delta = 1`) one row holds, as :math:`E|Z|` and as the ratio to the
**Staircase** at its :math:`E|Z|`-optimal :math:`\gamma` (Lemma 27; by Geng & Viswanath 2016, Theorem 4,
the least :math:`E|Z|` of *every* :math:`\varepsilon`-DP additive noise):

* **Laplace** :math:`\lambda = \Delta/\varepsilon` (Lemma 26);
* **Arete** and **Gamma + Gaussian** at certified :math:`\varepsilon^* \le \varepsilon`, read from
  ``docs/data/beyond.json`` (:mod:`arete_proofs.walkthrough.beyond`; not recomputed here);
* **Theorem 21** of the follow-up paper (``lattice_laplace`` with
  :func:`arete_proofs.distributions.lattice.theorem21_parameters`), its certified tight epsilon
  (:func:`arete_proofs.privacy.tight_lattice.tight_epsilon_theorem21`: exact lattice-point reduction);
* **lattice + Gaussian** optimised by :mod:`arete_proofs.privacy.optimize_lattice` (a float64 search),
  then **certified** by :func:`certify_rows` (``--certify``: a certificate of the tight epsilon over every shift
  and of :math:`E|Z|` and :math:`\mathrm{Var}`, written by :func:`arete_proofs.certified.gauss_certificate.write_lattice_gauss`
  on the lattice :math:`h = \Delta/m`, that ``arete check`` re-checks independently) where :math:`m` is small
  enough; rows above that are float64 estimates, starred in the table;
* **lattice + Gaussian, top rate** (``lattice_top``): the same with the top scale's own rate,
  :math:`Z = h(\sum_{i<m} i X_i + m Y) + \mathcal N(0, \sigma^2)`, :math:`Y \sim` DLap(:math:`a_{top}`),
  :math:`a_{top} \le a` (``LatticeGaussProblem(top=True)``; certified the same way, with ``a_top``).

:func:`compute` runs the rows (``--workers`` processes or ``--dask ADDRESS``, as ``arete certify-region``; minutes per
eps), :func:`certify_rows` their certificates (the same options, one certificate per task), and both record how each entry
was made (command, digits, seconds); ``arete check docs/data`` re-checks the shipped certificates; the docs read the shipped JSON (:func:`load`) and the page's
table is :func:`table_markdown` of it (a test checks the page equals it; :func:`update_page`
rewrites it).

>>> row = {"staircase": {"mean_abs": "0.02"}, "laplace": {"mean_abs": "0.125"}}
>>> ratio(row, "laplace")                               # 0.125 / 0.02
6.25
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from mpmath import mp

__all__ = ["DATA", "VARIANCE", "FORMAT", "PARTS", "LATTICE", "compute_part", "lattice_problem", "compute", "certify_rows", "same_params", "load", "ratio",
           "table_markdown", "update_page", "plot_ratios", "FLOOR_EPS"]

#: the shipped results (``docs/data/frontier.json`` of the source tree)
DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "frontier.json"
BEYOND = DATA.parent / "beyond.json"
#: the same table for the variance (``--objective variance``)
VARIANCE = DATA.parent / "frontier-variance.json"
FORMAT = "arete-frontier/1"
#: the certificates' format (:data:`arete_proofs.check.FORMAT`)
CERT_FORMAT = "arete-certificate/1"
#: the entries of a row, in table order
PARTS = ("laplace", "arete", "arete_gauss", "theorem21", "lattice_gauss", "lattice_top")
#: the lattice + Gaussian entries (certified by :func:`certify_rows`); ``lattice_top`` has the free top rate
LATTICE = ("lattice_gauss", "lattice_top")
_LABELS = {"laplace": "Laplace", "arete": "Arete", "arete_gauss": "Gamma + Gaussian",
           "theorem21": "Theorem 21 (lattice + Laplace)", "lattice_gauss": "lattice + Gaussian",
           "lattice_top": "lattice + Gaussian, top rate"}


def _log(msg):
    print(f"[frontier] {msg}", file=sys.stderr, flush=True)


def _s(x, digits=15):
    if isinstance(x, float):
        return repr(x)
    with mp.workdps(digits + 5):
        return mp.nstr(mp.mpf(x), digits)


def _staircase(eps):
    from ..distributions import staircase

    with mp.workdps(30):
        g = staircase.gamma_mean_abs(eps, digits=20)
        gv = staircase.gamma_var(eps, digits=20)
        return {"mean_abs": _s(staircase.mean_abs(g, 1, eps, digits=20)), "gamma": _s(g),
                "variance": _s(staircase.var(gv, 1, eps, digits=20)), "gamma_var": _s(gv),
                "how": "distributions.staircase.mean_abs at gamma_mean_abs, var at gamma_var (Lemma 27)"}


def _from_beyond(eps, key):
    doc = json.loads(BEYOND.read_text())
    for r in doc["rows"]:
        if float(r["eps"]) == float(eps) and key in r:
            e = dict(r[key])
            e["how"] = "read from docs/data/beyond.json (arete_proofs.walkthrough.beyond; see its commands)"
            e["digits"] = doc.get("digits")
            return e
    return None


def compute_part(eps, part, *, digits=6, objective="mean_abs", m_max=None, margin=None):
    r"""One entry (a JSON-ready dict) of the row at ``eps``: the family's least :math:`E|Z|` (or
    :math:`\operatorname{Var} Z`, ``objective="variance"``) at tight :math:`\varepsilon^* \le \varepsilon`;
    ``digits`` of the tight epsilons computed here.  ``m_max`` caps the lattice families' :math:`m` (their
    certificate's window grows like :math:`m^2` lattice points for one rate): the entry is then the least
    over :math:`m \le` ``m_max``, an upper bound on the family's least, and says so in ``how``.  ``margin``: the lattice
    search's target :math:`\varepsilon(1 - \text{margin})` (default :data:`arete_proofs.privacy.optimize_lattice.MARGIN`,
    :math:`2\cdot 10^{-7}`); a wider one (e.g. :math:`10^{-5}`) lets the certificate's cover stop far sooner at large
    :math:`m`, for about :math:`\text{margin}\,\varepsilon/2` relative in :math:`E|Z|`.  Arete and Gamma + Gaussian are read from
    ``beyond.json``, whose rows are :math:`E|Z|`-optimal: for the variance their ``variance`` is an
    upper bound on the family's least variance (said in ``how``).

    >>> compute_part(8, "laplace")["mean_abs"]
    '0.125'
    """
    t0 = time.perf_counter()
    if objective not in ("mean_abs", "variance"):
        raise ValueError(f"objective must be 'mean_abs' or 'variance', got {objective!r}")
    if part == "laplace":
        return {"mean_abs": _s(mp.mpf(1) / mp.mpf(eps)), "variance": _s(2 / mp.mpf(eps) ** 2),
                "how": "Delta/eps, 2 Delta^2/eps^2 (Lemma 26)"}
    if part in ("arete", "arete_gauss"):
        e = _from_beyond(eps, "arete" if part == "arete" else "gauss")
        if e is not None and objective == "variance":
            e["how"] += "; the E|Z|-optimal parameters: an upper bound on the least variance"
        return e
    if part == "theorem21":
        from ..distributions.lattice import lattice_laplace, theorem21_parameters
        from ..privacy.tight_lattice import tight_epsilon_theorem21

        a, m, b, h = theorem21_parameters(int(eps) if float(eps).is_integer() else eps)
        r = tight_epsilon_theorem21(int(eps) if float(eps).is_integer() else eps, digits=digits)
        z = lattice_laplace(a, m, b, h, digits=12)
        return {"a": a, "m": m, "b": b, "h": h, "mean_abs": _s(z.mean_abs()), "variance": _s(z.var()),
                "epsilon": _s(r.epsilon, digits), "epsilon_upper": _s(r.upper_bound, digits + 3),
                "certified": bool(r.certified), "digits": digits,
                "how": "privacy.tight_lattice.tight_epsilon_theorem21 (exact lattice-point reduction)",
                "seconds": round(time.perf_counter() - t0, 1)}
    if part in LATTICE:
        from ..privacy import optimize_lattice, optimizer

        problem, capped = lattice_problem(eps, part, digits=digits, objective=objective, m_max=m_max, margin=margin)
        point = optimizer.search(problem)
        p = point.params
        at = p.get("a_top")
        # the float64 search's estimate is not a proof: certify_rows (--certify) proves eps* <= eps afterwards
        return {"a": repr(p["a"]), **({"a_top": repr(at)} if at is not None else {}), "m": p["m"],
                "sigma": repr(p["sigma"]), "h": repr(p["h"]),
                "mean_abs": repr(optimize_lattice.mean_abs(p["a"], p["m"], p["sigma"], p["h"], at)),
                "variance": repr(optimize_lattice.variance(p["a"], p["m"], p["sigma"], p["h"], at)),
                "epsilon": None, "estimate": repr(point.epsilon), "certified": False,
                "scan": [[m, a, v] for m, a, v in problem.scan], "evaluations": point.evaluations,
                "how": "privacy.optimize_lattice float64 search (E|Z|, Var float64); certified afterwards by "
                       "certified.gauss_certificate (--certify) where m is small enough"
                       + (f"; m capped at {int(m_max)} (--m-max, so that the certificate is affordable): the least "
                          f"over m <= {int(m_max)}, an upper bound on the family's least" if capped else ""),
                **({"m_max": int(m_max)} if capped else {}),
                **({"margin": repr(float(margin))} if margin is not None else {}),
                "seconds": round(time.perf_counter() - t0, 1)}
    raise ValueError(f"part must be one of {PARTS}, got {part!r}")


def lattice_problem(eps, part, *, digits=6, objective="mean_abs", m_max=None, margin=None):
    r"""The search problem of a lattice part at ``eps`` (:class:`arete_proofs.privacy.optimize_lattice.LatticeGaussProblem`)
    and whether ``m_max`` capped its lattice sizes (each size above it replaced by ``m_max``): at :math:`h = 1/m` the
    one-rate comb's certificate window grows like :math:`n_0 \approx 2.65\,m^2` lattice points.

    >>> p, capped = lattice_problem(13, "lattice_gauss", m_max=250)
    >>> p.m_choices, capped
    ((250,), True)
    """
    from ..privacy import optimize_lattice

    if part not in LATTICE:
        raise ValueError(f"part must be one of {LATTICE}, got {part!r}")
    # small m: the estimator is cheap, and a finer grid sees the tail's small wiggles (at eps = 2 the grid of
    # 8 points per step missed one of 2e-4 that the certificate found)
    grid = 32 if float(eps) < 4.5 else 8
    kw = dict(confirm_digits=digits, objective=objective, grid=grid, top=part == "lattice_top",
              **({} if margin is None else {"margin": float(margin)}))
    problem = optimize_lattice.LatticeGaussProblem(float(eps), **kw)
    capped = m_max is not None and max(problem.m_choices) > int(m_max)
    if capped:
        problem = optimize_lattice.LatticeGaussProblem(
            float(eps), m_choices=tuple(sorted({min(c, int(m_max)) for c in problem.m_choices})), **kw)
    return problem, capped


def _task(args):
    eps, part, digits, objective, m_max, margin = args
    t0 = time.perf_counter()
    try:
        e = compute_part(eps, part, digits=digits, objective=objective, m_max=m_max, margin=margin)
    except Exception as err:  # recorded in the file, not fatal for the other rows
        return eps, part, None, f"{type(err).__name__}: {err}"
    _log(f"eps={eps} {part}: {time.perf_counter() - t0:.1f} s")
    return eps, part, e, None


def _map(fn, tasks, workers=1, dask=None):
    """[fn(t) for t in tasks], run in ``workers`` processes or on the Dask scheduler at ``dask`` (an address or a
    ``Client``), as ``arete certify-region`` runs its cells (:mod:`arete_proofs.certified.region_map`); any order."""
    from ..certified.region_map import _run

    out = []
    if dask or workers > 1:
        _run([(t,) for t in tasks], fn, workers, dask, out.append)
    else:
        out = [fn(t) for t in tasks]
    return out


def compute(eps_values, *, digits=6, workers=1, out=None, parts=PARTS, objective="mean_abs", m_max=None,
            margin=None, dask=None):
    r"""The rows at ``eps_values`` (every part in ``parts``; ``workers`` processes, or the Dask scheduler at ``dask``),
    merged into ``out`` when it exists; ``m_max``, ``margin``: :func:`compute_part`'s cap on the lattice size and the
    search's target margin.

    The document records the command line, ``digits`` and each entry's ``how`` and ``seconds``; each
    row's ratios are :math:`E|Z|/E|Z_{SC}|` against the Staircase (Lemma 27).
    """
    t0 = time.perf_counter()
    tasks = [(float(e), p, digits, objective, m_max, margin) for e in eps_values for p in parts]
    # the slow parts first, so that two workers overlap them
    tasks.sort(key=lambda t: (t[1] not in LATTICE + ("theorem21",), -t[0]))
    if workers > 1 and not dask:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(_task, tasks, chunksize=1)
    else:
        results = _map(_task, tasks, workers, dask)
    doc = json.loads(Path(out).read_text()) if out is not None and Path(out).exists() else {
        "format": FORMAT, "Delta": "1", "objective": objective, "rows": [], "commands": [], "failed": {}}
    if doc.get("objective", "mean_abs") != objective:
        raise ValueError(f"{out}: holds objective {doc.get('objective')!r}, not {objective!r}")
    rows = {float(r["eps"]): r for r in doc["rows"]}
    for eps, part, e, err in results:
        row = rows.setdefault(eps, {"eps": repr(eps)})
        row["staircase"] = _staircase(eps)
        if e is not None:
            old = row.get(part)
            if e.get("m_max") and old and not old.get("certified") and int(old["m"]) > e["m_max"]:
                # a capped search over an uncapped, uncertified optimum: keep that estimate beside it
                e["uncapped"] = old.get("uncapped") or dict(
                    {k: old[k] for k in ("a", "a_top", "m", "sigma", "h", "mean_abs", "variance", "estimate", "seconds")
                     if k in old}, how="the uncapped float64 search's optimum (not certified: its certificate is too costly)")
            row[part] = e
            doc["failed"].pop(f"{eps:g} {part}", None)
        else:
            doc["failed"][f"{eps:g} {part}"] = err
    doc["rows"] = [rows[k] for k in sorted(rows)]
    doc["commands"].append(" ".join(["python -m arete_proofs.walkthrough.frontier"] + sys.argv[1:])
                           if sys.argv and sys.argv[0].endswith("frontier.py") else
                           f"compute({list(eps_values)}, digits={digits}, workers={workers}, objective={objective!r})")
    doc["generated"] = datetime.date.today().isoformat()
    doc["seconds"] = round(time.perf_counter() - t0, 1)
    if out is not None:
        Path(out).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def same_params(certified, entry):
    r"""Whether a certificate's ``params`` (exact rationals) are the entry's :math:`(a, m, \sigma, h)` and
    top rate :math:`a_{top}` (decimal strings; an absent ``a_top`` is :math:`a`).

    >>> same_params({"a": "1/2", "m": 3, "sigma": "1/10", "h": "1/3"}, {"a": "0.5", "m": 3, "sigma": "0.1", "h": "1/3"})
    True
    >>> same_params({"a": "1/2", "m": 3, "sigma": "1/10", "h": "1/3"}, {"a": "0.5", "a_top": "0.4", "m": 3, "sigma": "0.1", "h": "1/3"})
    False
    """
    from fractions import Fraction

    top = [Fraction(str(d.get("a_top", d["a"]))) for d in (certified, entry)]
    return top[0] == top[1] and all(Fraction(str(certified[k])) == Fraction(str(entry[k]))
                                    for k in ("a", "m", "sigma", "h"))


def _certify_entry(job):
    """(eps, part, entry) -> the same with the entry certified on the lattice h = 1/m (Delta/h an integer):
    :func:`arete_proofs.certified.gauss_certificate.write_lattice_gauss`, with sigma raised until the certificate's
    upper end is at most eps (more smoothing is post-processing); one task of :func:`certify_rows`."""
    from fractions import Fraction

    from ..certified.gauss_certificate import lattice_h, write_lattice_gauss
    from ..privacy import optimize_lattice

    eps, part, g, tol = job
    t0 = time.perf_counter()
    m = int(g["m"])
    g["h"] = lattice_h(m)
    for attempt in range(4):
        a, h, at = float(g["a"]), float(Fraction(g["h"])), (float(g["a_top"]) if "a_top" in g else None)
        g.update(mean_abs=repr(optimize_lattice.mean_abs(a, m, float(g["sigma"]), h, at)),
                 variance=repr(optimize_lattice.variance(a, m, float(g["sigma"]), h, at)))
        _log(f"eps={eps:g}: certifying {part} m={m} sigma={g['sigma']} (tol {tol})")
        try:
            doc = write_lattice_gauss(g["a"], m, g["sigma"], g["h"], 1, a_top=g.get("a_top"), epsilon=repr(eps),
                                      tol=tol, progress=lambda s, e=eps: _log(f"eps={e:g}:   {s}"))
            break
        except ValueError as exc:
            if "stays above" not in str(exc) or attempt == 3:
                raise
            _log(f"eps={eps:g}: {exc}; sigma raised")
            # the float64 search's estimate missed part of the loss: more smoothing only lowers it
            sigma = float(g["sigma"]) * (1 + 2.0 ** attempt * 1e-6)
            g.update(sigma=repr(sigma), epsilon=None, estimate=repr(optimize_lattice.estimate_epsilon(a, m, sigma, a_top=at)),
                     how=g["how"] + f"; sigma raised (attempt {attempt + 1}) until the certificate was below eps")
    g["certificate"] = doc
    g["certificate_seconds"] = round(time.perf_counter() - t0, 1)
    g["certified"] = True
    _log(f"eps={eps:g}: {part} certified [{doc['claim']['lower']}, {doc['claim']['upper']}] in {g['certificate_seconds']} s")
    return eps, part, g


def certify_rows(path, *, max_m=100, tol="1e-6", eps_values=None, workers=1, dask=None):
    r"""Certify the lattice + Gaussian entries of the file at ``path`` with :math:`m \le` ``max_m`` (in place), one entry
    per task: ``workers`` processes or the Dask scheduler at ``dask`` (the certificates are independent).

    Each gets ``h`` :math:`= 1/m` exactly, ``certificate`` (a document of :mod:`arete_proofs.check`: the enclosure
    of :math:`\varepsilon^*` over every shift, with upper end :math:`\le \varepsilon`, and of :math:`E|Z|` and
    :math:`\mathrm{Var}\,Z`; ``arete check`` re-checks it), ``certificate_seconds`` and ``certified``.  Returns the
    number certified; an entry already carrying a certificate of this format for its parameters is kept.
    """
    doc = load(path)
    n, jobs = 0, []
    for r, part in ((r, part) for r in doc["rows"] for part in LATTICE):
        g = r.get(part)
        if not g or int(g["m"]) > max_m or (eps_values and float(r["eps"]) not in map(float, eps_values)):
            continue
        c = g.get("certificate")
        if c and g.get("certified") and c.get("format") == CERT_FORMAT and same_params(c["params"], g):
            n += 1                                 # already certified for these parameters
            continue
        old = (c or {}).get("choices", {}).get("tol")      # a certificate of the earlier format: its width kept
        jobs.append((float(r["eps"]), part, g, old or tol))
    rows = {float(r["eps"]): r for r in doc["rows"]}
    for eps, part, g in _map(_certify_entry, jobs, workers, dask):
        rows[eps][part] = g
        n += g["certified"]
    doc.setdefault("commands", []).append(
        f"python -m arete_proofs.walkthrough.frontier --certify --max-m {max_m} --out {Path(path).name}"
        + (f" --eps {' '.join(map(str, eps_values))}" if eps_values else "")
        + (f" --tol {tol}" if str(tol) != "1e-6" else "") + f"  ({n} certified)")
    Path(path).write_text(json.dumps(doc, indent=1) + "\n")
    return n


def load(path=None):
    r"""The shipped results file (:data:`DATA`) or ``path``: rows of :math:`E|Z|` against the Staircase (Lemma 27).

    >>> load()["format"]
    'arete-frontier/1'
    """
    doc = json.loads(Path(path or DATA).read_text())
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path or DATA}: not an {FORMAT} file")
    return doc


def ratio(row, part, key="mean_abs"):
    """:math:`E|Z|` (``key="variance"``: the variance) of ``part`` over the Staircase's (``None`` when the row lacks the part).

    >>> all(ratio(r, "laplace") > ratio(r, "lattice_gauss") > 1 for r in load()["rows"] if "lattice_gauss" in r)
    True
    """
    e = row.get(part)
    if not e:
        return None
    return float(e[key]) / float(row["staircase"][key])


def _f(x, n=4):
    return f"{float(x):.{n}g}"


def table_markdown(doc=None):
    r"""The page's table (MyST markdown): :math:`E|Z|` (or Var, by the file's ``objective``) / Staircase per
    family, then the lattice rows' parameters.

    >>> doc = load()
    >>> len(table_markdown(doc).splitlines()) == len(doc["rows"]) + 2
    True
    """
    doc = load() if doc is None else doc
    key = doc.get("objective", "mean_abs")
    what = "E\\|Z\\|" if key == "mean_abs" else "Var"
    head = ["ε", f"Staircase (SC) {what}"] + [f"{_LABELS[p]} / SC" for p in PARTS] + \
        ["Theorem 21: a, m; tight ε", "lattice + Gaussian: a, m, σ; tight ε",
         "top rate: a, a_top, m, σ; tight ε"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in doc["rows"]:
        cells = [f"{float(r['eps']):g}", _f(r["staircase"][key], 5)]
        for p in PARTS:
            q = ratio(r, p, key) if r.get(p) and key in r[p] else None
            proved = _proved_ratio(r, p, key) if q is not None and p in LATTICE else None
            if proved:      # a proved interval; † still marks the least over m <= m_max only
                cells.append(proved + ("†" if r[p].get("m_max") else ""))
                continue
            star = "*" if p in LATTICE and q is not None and not r[p].get("certified") else ""
            star += "†" if p in LATTICE and q is not None and r[p].get("m_max") else ""   # the least over m <= m_max
            u = r[p].get("uncapped") if p in LATTICE and q is not None else None
            if u and key in u:   # the uncapped float64 optimum beside it (not certified)
                star += f" ({float(u[key]) / float(r['staircase'][key]):.3f}*)"
            cells.append("—" if q is None else f"{q:.3f}{star}")
        t = r.get("theorem21")
        cells.append("—" if not t else f"{float(t['a']):g}, {t['m']}; {_f(t['epsilon'], 8)}")
        for part in LATTICE:
            cells.append(_lattice_cell(r.get(part)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _proved_ratio(row, part, key):
    r"""The ratio to the Staircase as a proved interval ``[lo, hi]`` (4 decimals, rounded outward) from the entry's
    certified enclosure of ``key`` (:math:`E|Z|` or Var) and the Staircase's closed form (Lemma 27, 30 digits at the
    row's :math:`\gamma`); ``None`` when the entry has no such certificate."""
    import math
    from fractions import Fraction

    c = row[part].get("certificate") or {}
    obj = (c.get("objectives") or {}).get(key)
    if c.get("format") != CERT_FORMAT or not obj:
        return None
    from ..distributions import staircase

    e = Fraction(row["eps"])
    g = row["staircase"]["gamma" if key == "mean_abs" else "gamma_var"]
    f = staircase.mean_abs if key == "mean_abs" else staircase.var
    sc = Fraction(str(f(g, 1, str(e), digits=30)))
    lo, hi = Fraction(obj[0]) / sc * Fraction(10 ** 30 - 1, 10 ** 30), Fraction(obj[1]) / sc * Fraction(10 ** 30 + 1, 10 ** 30)
    return f"[{math.floor(lo * 10 ** 4) / 10 ** 4:.4f}, {math.ceil(hi * 10 ** 4) / 10 ** 4:.4f}]"


def _lattice_cell(g):
    """A lattice entry's parameters and tight epsilon (certified enclosure, exact engine or float64 estimate)."""
    if not g:
        return "—"
    c = g.get("certificate")
    if c and c.get("format") == CERT_FORMAT:
        tight = f"[{_f(c['claim']['lower'], 10)}, {_f(c['claim']['upper'], 10)}] certified"
    elif c:
        tight = f"[{_f(c['lower'], 10)}, {_f(c['upper'], 10)}] certified"
    elif g.get("epsilon"):
        tight = f"{_f(g['epsilon'], 8)} (exact engine, not certified)"
    else:
        tight = f"estimate {_f(g['estimate'], 8)}"
    top = f"{_f(g['a_top'], 6)}, " if "a_top" in g else ""
    m = f"{g['m']} (m capped)" if g.get("m_max") else f"{g['m']}"    # the least over m <= m_max only
    return f"{_f(g['a'], 6)}, {top}{m}, {_f(g['sigma'], 4)}; {tight}"


#: The epsilons at which :func:`plot_ratios` (``floors=True``) draws the certified floors of ID noise.
FLOOR_EPS = (8, 10, 12, 14, 16, 18, 20)


def _floors(key):
    """[(label, [(eps, ratio), ...])]: the certified floors of ID noise, Theorems C (E|Z|, any ID noise) and F (E|Z|,
    symmetric ID noise), or E (Var, symmetric ID noise)."""
    if key == "mean_abs":
        from ..privacy.id_bounds import id_lower_bound
        from ..privacy.id_mean_abs import mean_abs_bound

        return [("ID floor (Theorem C)", [(e, float(id_lower_bound(e, digits=8)["ratio"])) for e in FLOOR_EPS]),
                ("symmetric ID floor (Theorem F)", [(e, mean_abs_bound(e)["ratio"]) for e in FLOOR_EPS])]
    from ..privacy.id_variance import variance_bound

    return [("symmetric ID floor (Theorem E)", [(e, variance_bound(e)["ratio"]) for e in FLOOR_EPS])]


def plot_ratios(docs=None, *, pyplot=False, floors=False):
    r"""The ratio plot of docs/results/comparison.md: each family's least :math:`E|Z|` (left) and Var (right) over the
    Staircase's (Lemma 27, the floor of every :math:`\varepsilon`-DP noise) against :math:`\varepsilon`,
    from the shipped files (``docs``: a list of loaded files; default :data:`DATA` and :data:`VARIANCE`).
    Hollow markers: rows whose tight epsilon is not certified (float64 estimates); squares: rows searched over
    :math:`m \le` ``m_max`` only (``--m-max``, so that they could be certified), each with its uncapped float64
    optimum (``uncapped``) as a hollow marker.  ``floors``: also the certified floors of infinitely divisible noise
    (black: :func:`arete_proofs.privacy.id_bounds.id_lower_bound`, every ID noise, dotted, and
    :func:`arete_proofs.privacy.id_mean_abs.mean_abs_bound`, every symmetric ID noise, dashed, on the E|Z| panel;
    :func:`arete_proofs.privacy.id_variance.variance_bound`, every symmetric ID noise, dashed, on the Var panel), at
    :data:`FLOOR_EPS` (about 10 s).  Returns the figure.

    >>> fig = plot_ratios()
    >>> len(fig.axes)
    2
    """
    if pyplot:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(10, 4))
    else:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(10, 4))
    if docs is None:
        docs = [load(DATA)] + ([load(VARIANCE)] if VARIANCE.exists() else [])
    axes = fig.subplots(1, 2)
    for ax, doc in zip(axes, docs):
        key = doc.get("objective", "mean_abs")
        for i, part in enumerate(PARTS):
            pts = [(float(r["eps"]), ratio(r, part, key), bool(r[part].get("certified", True)),
                    bool(r[part].get("m_max"))) for r in doc["rows"] if r.get(part) and key in r[part]]
            if not pts:
                continue
            ax.semilogy([p[0] for p in pts], [p[1] for p in pts], f"C{i}-", lw=1, label=_LABELS[part])
            for x, y, ok, capped in pts:   # a square: the least over m <= m_max only (an upper bound)
                ax.semilogy([x], [y], f"C{i}{'s' if capped else 'o'}", ms=4, mfc=None if ok else "none")
            unc = [(float(r["eps"]), float(r[part]["uncapped"][key]) / float(r["staircase"][key]))
                   for r in doc["rows"] if r.get(part) and key in r[part].get("uncapped", {})]
            for x, y in unc:   # the uncapped float64 optimum: hollow (not certified)
                ax.semilogy([x], [y], f"C{i}o", ms=4, mfc="none")
        if floors:   # no ID noise (symmetric, for Theorems E and F) can lie below these lines
            styles = ("k:", "k--") if key == "mean_abs" else ("k--",)     # Theorem C dotted; F and E dashed
            for (label, pts), style in zip(_floors(key), styles):
                ax.semilogy([p[0] for p in pts], [p[1] for p in pts], style, lw=1, label=label)
            ax.legend(fontsize=7)
        ax.axhline(1.0, color="k", lw=0.8)
        ax.set_xlabel("eps (Delta = 1)")
        ax.set_ylabel(("E|Z|" if key == "mean_abs" else "Var Z") + " / Staircase")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def update_page(page, doc=None, *, marker="frontier-table"):
    r"""Replace the block between ``<!-- frontier-table -->`` markers (``marker``) of ``page`` by
    :func:`table_markdown` (the ratios to the Staircase, Lemma 27).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = path.write_text("<!-- frontier-table -->\nold\n<!-- /frontier-table -->\n")
    >>> update_page(path)
    >>> table_markdown() in path.read_text()
    True
    """
    import re

    text = Path(page).read_text()
    new, n = re.subn(rf"(<!-- {marker} -->\n)(?:.*?\n)?(<!-- /{marker} -->)",
                     lambda m: m.group(1) + table_markdown(doc) + "\n" + m.group(2), text, flags=re.S)
    if n != 1:
        raise ValueError(f"{page}: expected one <!-- {marker} --> block, found {n}")
    Path(page).write_text(new)


def main(argv=None):
    """``python -m arete_proofs.walkthrough.frontier --eps 4 8 12 --workers 2 --out docs/data/frontier.json``."""
    ap = argparse.ArgumentParser(prog="python -m arete_proofs.walkthrough.frontier", description=__doc__.split("\n")[0])
    ap.add_argument("--eps", type=float, nargs="+")
    ap.add_argument("--workers", type=int, default=1, help="processes (the searches, or with --certify the certificates)")
    ap.add_argument("--dask", metavar="ADDRESS", default=None,
                    help="run the searches (or the certificates) on the Dask scheduler at ADDRESS "
                    "(extra 'dask'; as arete certify-region --dask)")
    ap.add_argument("--digits", type=int, default=6)
    ap.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    ap.add_argument("--objective", choices=("mean_abs", "variance"), default="mean_abs")
    ap.add_argument("--out", default=None, help="the JSON file to write (merged when it exists)")
    ap.add_argument("--page", default=None, help="also rewrite this page's frontier table")
    ap.add_argument("--certify", action="store_true",
                    help="only certify the lattice + Gaussian entries of --out (m <= --max-m) and rewrite it")
    ap.add_argument("--max-m", type=int, default=None,
                    help="certify entries with m up to this (default: optimize_lattice.CERTIFY_M_MAX)")
    ap.add_argument("--m-max", type=int, default=None,
                    help="search the lattice families over m up to this only (a certifiable entry; it says so)")
    ap.add_argument("--margin", type=float, default=None,
                    help="the lattice search's target eps (1 - MARGIN) (default 2e-7; wider: a cheaper certificate)")
    ap.add_argument("--tol", default="1e-6",
                    help="with --certify: the enclosure's width (at most about the row's margin times eps / 4)")
    a = ap.parse_args(argv)
    if a.workers < 1:
        ap.error("--workers must be >= 1")
    if a.dask:
        try:
            import dask.distributed  # noqa: F401
        except ImportError:
            ap.error("--dask needs the optional extra: pip install 'arete-proofs[dask]'")
    if a.max_m is not None and a.max_m < 1:
        ap.error(f"--max-m must be >= 1, got {a.max_m}")
    if a.m_max is not None and a.m_max < 2:
        ap.error("--m-max must be >= 2")
    if a.margin is not None and not 0 < a.margin < 1e-2:
        ap.error(f"--margin must be in (0, 0.01), got {a.margin}")
    try:
        if not 0 < float(a.tol) < 1:
            raise ValueError
    except ValueError:
        ap.error(f"--tol must be a number in (0, 1), got {a.tol}")
    if a.certify:
        if not a.out:
            ap.error("--certify needs --out FILE")
        from ..privacy.optimize_lattice import CERTIFY_M_MAX

        certify_rows(a.out, max_m=CERTIFY_M_MAX if a.max_m is None else a.max_m, eps_values=a.eps, tol=a.tol,
                     workers=a.workers, dask=a.dask)
        doc = load(a.out)
        if a.page:
            update_page(a.page, doc, marker="frontier-table" if doc["objective"] == "mean_abs" else
                        "frontier-variance-table")
        print(table_markdown(doc))
        return 0
    if not a.eps:
        ap.error("--eps is required (or --certify)")
    doc = compute(a.eps, digits=a.digits, workers=a.workers, out=a.out, parts=tuple(a.parts), objective=a.objective,
                  m_max=a.m_max, margin=a.margin, dask=a.dask)
    if a.page:
        update_page(a.page, doc, marker="frontier-table" if a.objective == "mean_abs" else "frontier-variance-table")
    print(table_markdown(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
