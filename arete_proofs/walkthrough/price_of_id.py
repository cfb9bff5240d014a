r"""The computations of the docs page *The price of infinite divisibility* (``docs/explanation/price-of-id.md``).

Every number of that page is read from :func:`compute`'s result: the certified rows of the Gaussian + staircase-jump
noise (:mod:`~arete_proofs.privacy.id_upper`), the rules' bounds (:mod:`~arete_proofs.privacy.id_upper_rules`), the
floors of Theorems C, E and F, the frontier's certified lattice rows (``docs/data/frontier*.json``), the certified
bounds on :math:`c_{ID}^*` (:mod:`~arete_proofs.privacy.id_general`, the lower one re-proved from
``docs/data/c-id-lower.json``) and the sympy checks.  The Sphinx extension ``docs/_ext/arete_price_of_id.py`` caches
the result and renders it.  Run as a script it prints the JSON (about 3 to 5 minutes on two cores)::

    python -m arete_proofs.walkthrough.price_of_id [--out FILE]
"""

from __future__ import annotations

import json
import math
import sys
import time

__all__ = ["EPS", "compute", "gap_rows", "KEYS", "main"]

#: the epsilons of the restated table (Delta = 1)
EPS = tuple(range(2, 21))

#: the keys of ``compute()["values"]`` (the page's ``{piv}`` roles must use these)
KEYS = ("cid_upper", "cid_upper_law", "cid_lower", "cid_lower_target", "cid_lower_cells", "cid_lower_seconds",
        "cid_old_lower", "cid_symmetric", "asym_limit", "sym_limit", "var_limit", "var_constant_min",
        "var_constant_gauss", "u3_mean_eps0", "u3_var_eps0", "u3_mean_rbar0", "u3_var_rbar0", "u3_mean_rbar20",
        "u3_var_rbar20", "u3_mean_rbar30", "u3_var_rbar30", "worst_gap_mean_10", "worst_gap_var_10",
        "gap_mean_20", "gap_var_20", "first_eps_gap_mean_102", "first_eps_gap_var_102", "symbolic_count",
        "u_row_mean_20", "u_row_var_20", "floor_mean_20", "floor_var_20", "search_j1", "search_j2",
        "asym_first_eps", "asym_20", "asym_eps_min", "cid_upper_jumps")

#: the epsilons of the non-symmetric rows (below 8 Lemma V2's checks fail for the searched parameters)
ASYM_EPS = tuple(range(8, 21)) + (25, 30)


def _row_job(args):
    from ..privacy.id_upper import certify_row

    eps, objective = args
    return certify_row(eps, objective)


def _floor_job(eps):
    from ..privacy.id_bounds import id_lower_bound
    from ..privacy.id_mean_abs import mean_abs_bound
    from ..privacy.id_variance import variance_bound

    f = mean_abs_bound(eps)
    e = variance_bound(eps)
    c = id_lower_bound(eps, digits=12)
    return {"eps": eps, "F": f["ratio"], "E": e["ratio"], "C": float(c["ratio"])}


def _asym_job(eps):
    from ..privacy.id_asymmetric import certify_row
    from ..privacy.id_mean_abs import mean_abs_bound

    return certify_row(eps), mean_abs_bound(eps)["ratio"]


def _rules_job(objective):
    from ..privacy.id_upper_rules import bound_table

    return bound_table(objective)


def _misc_job(name):
    from ..privacy import id_general as g

    if name == "symbolic":
        from ..privacy.id_upper_rules import symbolic_checks

        return [[n, bool(ok)] for n, ok in symbolic_checks()]
    if name == "law":
        return g.certify_law()
    if name == "lower":
        return g.check_lower_bound(g.LOWER_CERTIFICATE)
    if name == "search":
        return {str(J): g.search_law(J, starts=1)[0] for J in (1, 2)}
    if name == "variance":
        # Var sup f^2 over one-sided Gaussian + lattice-jump laws (float64 grid of the jump rate and step)
        best = math.inf
        for lam in (0.05, 0.2, 0.5, 1.0, 2.0, 5.0):
            for d in (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0):
                best = min(best, g.variance_constant({1: lam}, d))
        for nus, d in ((g.BEST_LAW["nus"], g.BEST_LAW["d"]), ({1: 0.9, 2: 0.55}, 1.9)):
            best = min(best, g.variance_constant(nus, float(d)))
        return best
    raise ValueError(name)


def _frontier_best(objective):
    """{eps: (ratio, m)} of the certified lattice rows (the better of lattice_gauss and lattice_top)."""
    from .frontier import DATA, VARIANCE, load

    doc = load(DATA if objective == "mean_abs" else VARIANCE)
    key = "mean_abs" if objective == "mean_abs" else "variance"
    out = {}
    for r in doc["rows"]:
        sc = float(r["staircase"][key])
        best = None
        for part in ("lattice_gauss", "lattice_top"):
            e = r.get(part)
            if e and e.get("certified") is True and e.get(key) is not None:
                v = float(e[key]) / sc
                if best is None or v < best[0]:
                    best = (v, part)
        if best:
            out[int(float(r["eps"]))] = best
    return out


def gap_rows(rows, floors, frontier, objective, asym=None):
    r"""The restated table's rows: per :math:`\varepsilon`, the best certified symmetric ID construction (the
    Gaussian + staircase-jump row or a frontier lattice row), the best floor for symmetric ID noise (Theorem F or C for
    :math:`E|Z|`, E for the variance), the floor for every ID noise (Theorem C; none for the variance) and the gap
    (construction over symmetric floor); for :math:`E|Z|` also the certified non-symmetric row (``asym``) and the gap of
    the best construction to Theorem C's floor for every ID noise.

    >>> r = gap_rows({20: {"ratio": 1.13}}, {20: {"F": 1.12, "C": 1.03, "E": 1.2}}, {}, "mean_abs", {20: 1.121})
    >>> r[0]["gap"] == 1.13 / 1.12 and r[0]["source"] == "staircase jumps" and r[0]["gap_general"] == 1.121 / 1.03
    True
    """
    out = []
    for e in sorted(rows):
        u = rows[e]["ratio"]
        best, src = u, "staircase jumps"
        if e in frontier and frontier[e][0] < best:
            best, src = frontier[e][0], frontier[e][1].replace("lattice_top", "lattice top rate").replace("_", " ")
        fl = floors[e]
        if objective == "mean_abs":
            sym = max(fl["F"], fl["C"])
            gen = fl["C"]
        else:
            sym, gen = fl["E"], None
        a = (asym or {}).get(e)
        out.append({"eps": e, "construction": best, "source": src, "staircase_jumps": u, "floor_symmetric": sym,
                    "floor_general": gen, "gap": best / sym if sym > 0 else math.inf, "nonsymmetric": a,
                    "gap_general": (min(best, a) if a else best) / gen if gen and gen > 1 else None})
    return out


def _fmt(x, d=4):
    return f"{x:.{d}f}"


def compute(*, workers=2, progress=None):
    r"""All data of the page: ``{"values": {key: str}, "tables": {name: {"header", "rows"}}, "seconds"}``.

    The Theorems U1-U3, V and Propositions G1, G2 of :mod:`~arete_proofs.privacy.id_upper`,
    :mod:`~arete_proofs.privacy.id_upper_rules`, :mod:`~arete_proofs.privacy.id_asymmetric` and
    :mod:`~arete_proofs.privacy.id_general` at :data:`EPS`, with the floors of Theorems C, E and F: 3 to 6 minutes on two
    cores, so the example only checks the page's keys against :data:`KEYS`.

    >>> "cid_lower" in KEYS and "gap_mean_20" in KEYS and len(EPS) == 19
    True
    """
    from concurrent.futures import ProcessPoolExecutor

    from ..privacy.id_bounds import c_id_lower
    from ..privacy.id_general import BEST_LAW
    from ..privacy.id_upper_rules import EPS_0, rule_bound

    t0 = time.monotonic()
    jobs = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for name in ("lower", "symbolic", "law", "search", "variance"):
            jobs[("misc", name)] = pool.submit(_misc_job, name)
        for o in ("mean_abs", "variance"):
            jobs[("rules", o)] = pool.submit(_rules_job, o)
            for e in EPS:
                jobs[("row", o, e)] = pool.submit(_row_job, (e, o))
        for e in EPS:
            jobs[("floor", e)] = pool.submit(_floor_job, e)
        for e in ASYM_EPS:
            jobs[("asym", e)] = pool.submit(_asym_job, e)
        res = {}
        for k, f in jobs.items():
            res[k] = f.result()
            if progress:
                progress(f"{k} done, {time.monotonic() - t0:.0f} s")
    floors = {e: res[("floor", e)] for e in EPS}
    tables, values = {}, {}
    gaps = {}
    for o in ("mean_abs", "variance"):
        rows = {e: res[("row", o, e)] for e in EPS}
        asym = {e: res[("asym", e)][0]["ratio"] for e in ASYM_EPS if e in EPS and res[("asym", e)][0]["holds"]}
        gaps[o] = gap_rows(rows, floors, _frontier_best(o), o, asym if o == "mean_abs" else None)
        tables[f"rows_{o}"] = {
            "header": ["ε", "σ", "a", "B", "λ", "bound" if o == "mean_abs" else "Var", "ratio to the Staircase"],
            "rows": [[f"{e:g}", f"{float(_q(r['params']['sigma'])):.4g}", f"{float(_q(r['params']['a'])):.4g}",
                      f"{float(_q(r['params']['B'])):.4g}", f"{float(_q(r['params']['lam'])):.4g}",
                      f"{r['value']:.5g}", _fmt(math.ceil(r["ratio"] * 1e4) / 1e4)]
                     for e, r in sorted(rows.items())]}
        tables[f"rules_{o}"] = {"header": ["ε", "rule's ratio (certified at ε)", "R̄(ε): bound for every ε' ≥ ε"],
                                "rows": [[f"{r['eps']:g}", _fmt(math.ceil(r["ratio"] * 1e5) / 1e5, 5),
                                          _fmt(math.ceil(r["bound"] * 1e5) / 1e5, 5)] for r in res[("rules", o)]]}
        if o == "mean_abs":
            head = ["ε", "best certified symmetric construction", "which", "symmetric floor (F or C)",
                    "gap (symmetric)", "certified non-symmetric construction", "floor for every ID noise (C)",
                    "gap (every ID noise)"]
            body = [[f"{g['eps']:g}", _fmt(g["construction"]), g["source"], _fmt(max(g["floor_symmetric"], 0)),
                     "—" if g["floor_symmetric"] <= 1 else _fmt(g["gap"]),
                     "—" if g["nonsymmetric"] is None else _fmt(math.ceil(g["nonsymmetric"] * 1e4) / 1e4),
                     _fmt(g["floor_general"]), "—" if g["gap_general"] is None else _fmt(g["gap_general"])]
                    for g in gaps[o]]
        else:
            head = ["ε", "best certified symmetric construction", "which", "symmetric floor (E)", "gap (symmetric)"]
            body = [[f"{g['eps']:g}", _fmt(g["construction"]), g["source"], _fmt(max(g["floor_symmetric"], 0)),
                     "—" if g["floor_symmetric"] <= 1 else _fmt(g["gap"])] for g in gaps[o]]
        tables[f"gap_{o}"] = {"header": head, "rows": body}
        ten = [g["gap"] for g in gaps[o] if g["eps"] >= 10]
        key = "mean" if o == "mean_abs" else "var"
        values[f"worst_gap_{key}_10"] = _fmt(max(ten))
        values[f"gap_{key}_20"] = _fmt(next(g["gap"] for g in gaps[o] if g["eps"] == 20))
        ok = [g["eps"] for g in gaps[o] if g["gap"] <= 1.02]
        first = next((e for e in sorted(ok) if all(g["gap"] <= 1.02 for g in gaps[o] if g["eps"] >= e)), None)
        values[f"first_eps_gap_{key}_102"] = "none" if first is None else str(first)
        values[f"u_row_{key}_20"] = _fmt(rows[20]["ratio"])
        values[f"floor_{key}_20"] = _fmt(floors[20]["F" if o == "mean_abs" else "E"])
        values[f"u3_{key}_eps0"] = str(EPS_0[o])
        for e, name in ((EPS_0[o], "rbar0"), (20, "rbar20"), (30, "rbar30")):
            values[f"u3_{key}_{name}"] = _fmt(math.ceil(rule_bound(o, e) * 1e5) / 1e5, 5)
    arows = [(e, *res[("asym", e)]) for e in ASYM_EPS]
    tables["asym"] = {"header": ["ε", "σ", "a", "B", "λ", "E|Z| bound / Staircase", "Theorem F: every symmetric ID noise ≥",
                                 "below every symmetric ID noise"],
                      "rows": [[f"{e:g}", f"{float(_q(r['params']['sigma'])):.4g}", f"{float(_q(r['params']['a'])):.4g}",
                                f"{float(_q(r['params']['B'])):.4g}", f"{float(_q(r['params']['lam'])):.4g}",
                                _fmt(math.ceil(r["ratio"] * 1e4) / 1e4) if r["holds"] else "not proved", _fmt(f),
                                "yes" if r["holds"] and r["ratio"] < f else "no"] for e, r, f in arows]}
    beats = [e for e, r, f in arows if r["holds"] and r["ratio"] < f]
    first = next((e for e in sorted(beats) if all(x in beats for x in ASYM_EPS if x >= e)), None)
    values["asym_first_eps"] = "none" if first is None else str(first)
    values["asym_20"] = _fmt(math.ceil(res[("asym", 20)][0]["ratio"] * 1e4) / 1e4)
    values["asym_eps_min"] = str(min(ASYM_EPS))
    sym = res[("misc", "symbolic")]
    tables["symbolic"] = {"header": ["sympy check", "holds"], "rows": [[n, "yes" if ok else "NO"] for n, ok in sym]}
    values["symbolic_count"] = f"{sum(ok for _, ok in sym)} of {len(sym)}"
    law, low = res[("misc", "law")], res[("misc", "lower")]
    values["cid_upper"] = _fmt(math.ceil(law["c_upper"] * 1e5) / 1e5, 5)
    values["cid_upper_law"] = ", ".join(f"ν_{j} = {v}" for j, v in BEST_LAW["nus"].items()) + f", d = {BEST_LAW['d']}"
    values["cid_upper_jumps"] = str(len(BEST_LAW["nus"]))
    values["cid_lower"] = _fmt(math.floor(low["c_id_lower"] * 1e5) / 1e5, 5) if low["holds"] else "not proved"
    values["cid_lower_target"] = f"{low['target']:g}"
    values["cid_lower_cells"] = str(low["cells"])
    values["cid_lower_seconds"] = _cert_seconds()
    values["cid_old_lower"] = _fmt(math.floor(float(c_id_lower(digits=15)) * 1e4) / 1e4)
    values["cid_symmetric"] = _fmt(1 / math.pi, 5)
    values["asym_limit"] = _fmt(math.ceil(2 * math.sqrt(law["c_upper"]) * 1e4) / 1e4)
    values["sym_limit"] = _fmt(2 / math.sqrt(math.pi), 5)
    values["var_limit"] = _fmt((6 / math.pi) ** (1 / 3), 5)
    values["var_constant_min"] = f"{res[('misc', 'variance')]:.5f}"
    values["var_constant_gauss"] = f"{1 / (2 * math.pi):.5f}"
    srch = res[("misc", "search")]
    values["search_j1"], values["search_j2"] = f"{srch['1']:.5f}", f"{srch['2']:.5f}"
    missing = set(KEYS) - set(values)
    if missing:
        raise AssertionError(f"values not computed: {sorted(missing)}")
    return {"values": values, "tables": tables, "seconds": round(time.monotonic() - t0, 1)}


def _q(s):
    from fractions import Fraction

    return Fraction(s)


def _cert_seconds():
    from ..privacy.id_general import LOWER_CERTIFICATE, _certificate_path

    try:
        return f"{json.loads(_certificate_path(LOWER_CERTIFICATE).read_text())['seconds']:.0f}"
    except (OSError, ValueError, KeyError):
        return "?"


def main(argv=None):
    """``python -m arete_proofs.walkthrough.price_of_id [--out FILE]``: compute and print (or write) the page's data
    (:func:`compute`: Theorems U1-U3, V, Propositions G1 and G2 of the page).

    >>> main(["--workers", "0"])
    Traceback (most recent call last):
      ...
    SystemExit: 2
    """
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", help="write the JSON here instead of stdout")
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args(argv)
    if a.workers < 1:
        p.error("--workers must be at least 1")
    data = compute(workers=a.workers, progress=lambda s: print(s, file=sys.stderr))
    text = json.dumps(data, indent=1, ensure_ascii=False)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
