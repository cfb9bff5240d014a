"""The computations behind the generated pages, run in the extension's process pool.

Every ``job_*`` function returns JSON-able data (the cache of :mod:`arete_docs`
stores it as is): the grid check of one statement (:func:`job_verify`), the
symbolic checks, one observation on the paper's text, Lemma 3's tight-epsilon
table, the plot data of one bound, the ball-arithmetic certificates of one
statement and the certified epsilon of Figure 4's parameters. They are top-level
functions of this module, so the pool pickles them by name (``arete_docs_jobs`` is
importable in the workers: they are forked from the Sphinx process, which put
``docs/_ext`` on ``sys.path``). :mod:`arete_proofs` is imported inside the jobs.
"""

from __future__ import annotations

import math
import time

from arete_docs_boxes import box_groups, box_json
from arete_docs_settings import DIGITS, LEVEL, PLOT_DIGITS, PLOT_POINTS, TABLE_DELTAS, TABLE_DIGITS, TABLE_EPS

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def timed(fn, *args):
    """``(fn(*args), wall seconds)``: how the pool runs every job."""
    t0 = time.monotonic()
    res = fn(*args)
    return res, round(time.monotonic() - t0, 2)


def jsonable(x):
    """``x`` with mpmath numbers as 12-digit strings and non-finite floats as ``"inf"``/``"nan"``."""
    from mpmath import mp

    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, (bool, int, str)) or x is None:
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    try:
        return mp.nstr(x, 12)
    except Exception:
        return str(x)


def documented(module, name) -> bool:
    """Whether autodoc's ``automodule :members:`` of ``module`` (the API pages of docs/_ext/arete_api_pages.py) documents ``name``."""
    obj = getattr(module, name, None)
    if obj is None or name.startswith("_"):
        return False
    names = getattr(module, "__all__", None)
    if names is not None:
        return name in names
    return getattr(obj, "__module__", None) == module.__name__


# ---------------------------------------------------------------------------
# jobs (one call each in the pool; JSON-able results)
# ---------------------------------------------------------------------------

def job_verify(sid):
    from arete_proofs.chain import verify

    rep = verify.verify([sid], level=LEVEL, digits=DIGITS, workers=1, progress=False)
    return rep.to_json()["statements"][0]


def job_symbolic():
    from arete_proofs.chain import symbolic

    return [
        {"id": r.id, "statement": r.statement, "title": r.title, "holds": bool(r.holds), "detail": r.detail}
        for r in symbolic.run()
    ]


def job_observations(oid):
    from arete_proofs.chain import observations

    return [
        {
            "id": o.id, "statement": o.statement, "literal": o.literal, "verdict": o.verdict,
            "holds_literal": o.holds_literal, "detail": o.detail, "evidence": jsonable(o.evidence),
        }
        for o in observations.run([oid], digits=DIGITS)
    ]


def job_table():
    from mpmath import mp

    from arete_proofs.privacy.curves import paper_table

    with mp.workdps(60):
        deltas = [2 / mp.e if d == "2/e" else mp.mpf(d) for d in TABLE_DELTAS]
    rows = paper_table(list(TABLE_EPS), deltas, digits=TABLE_DIGITS)
    out = []
    for r, (e, d) in zip(rows, [(e, d) for e in TABLE_EPS for d in TABLE_DELTAS]):
        out.append({
            "eps": e, "Delta": d, "Delta_value": float(r["Delta"]),
            "alpha": mp.nstr(r["alpha"], 6), "theta": mp.nstr(r["theta"], 6), "lam": mp.nstr(r["lam"], 6),
            "tight": float(r["tight"]), "tight_str": mp.nstr(r["tight"], TABLE_DIGITS),
            "ratio": float(r["ratio"]), "private": bool(r["private"]), "lemma3": bool(r["lemma3"]),
            "tail_limit": float(r["tail_limit"]), "t_star": mp.nstr(r["t_star"], 6),
        })
    return out


def _plot_bound(st, vres):
    from arete_proofs.chain.symbols import t

    name = (vres.get("argmin") or {}).get("bound")
    cands = [b for b in st.bounds if b.name == name] + list(st.bounds)
    for b in cands:
        if t in (b.lhs.free_symbols | b.rhs.free_symbols):
            return b
    return None


def job_plot(sid, vres):
    """Both sides of one bound over ~40 values of t at the bound's smallest-slack parameters."""
    import sympy as sp
    from mpmath import mp

    from arete_proofs.chain import symbols
    from arete_proofs.chain.registry import REGISTRY
    from arete_proofs.chain.symbols import t

    st = REGISTRY[sid]
    b = _plot_bound(st, vres)
    if b is None:
        return None
    argmin = next((x.get("argmin") or {} for x in vres.get("bounds", []) if x["name"] == b.name), {})
    by_name = {s.name: s for s in st.free_symbols() | set(st.substitutions)}
    params = {}
    for k, v in argmin.items():
        if k in ("bound", "lhs", "rhs", "digits", "t") or k not in by_name:
            continue
        params[by_name[k]] = sp.sympify(v)
    subs = dict(st.substitutions)
    hyps = [h.subs(subs).subs(params) for h in st.hypotheses] + [w.subs(params) for w in b.where]
    # hypotheses on symbols this bound does not involve do not restrict the plot
    hyps = [h for h in hyps if h is not sp.true and h.free_symbols <= {t}]
    if any(h is sp.false for h in hyps):
        return None

    def ok(tv):
        for h in hyps:
            v = h.subs(t, tv)
            if v is sp.true:
                continue
            if v is sp.false:
                return False
            try:
                if not bool(v):
                    return False
            except TypeError:
                return False
        return True

    vals = {k.name: float(sp.N(v)) for k, v in params.items()}
    t0 = float(sp.N(sp.sympify(argmin.get("t", 0))))
    scale = max([abs(t0)] + [abs(vals[k]) for k in ("Delta", "D_u", "D_Gamma", "kappa") if k in vals] + [1e-3])
    cands = set()
    n = 161
    for i in range(n):
        cands.add(-scale + 4 * scale * i / (n - 1))
    for k in ("D_u", "kappa"):
        if k in vals:
            for i in range(41):
                cands.add(-2 * vals[k] + 4 * vals[k] * i / 40)
    cands.add(t0)
    valid = sorted(c for c in cands if ok(sp.Float(c, 30)))
    if len(valid) < 2:
        return None
    if len(valid) > PLOT_POINTS:
        idx = sorted({round(i * (len(valid) - 1) / (PLOT_POINTS - 1)) for i in range(PLOT_POINTS)})
        ts = [valid[i] for i in idx]
        if t0 in valid and t0 not in ts:
            ts = sorted(ts + [t0])
    else:
        ts = valid
    lhs = symbols.numeric([t], b.lhs.subs(subs).subs(params))
    rhs = symbols.numeric([t], b.rhs.subs(subs).subs(params))
    rows = []
    with symbols.working_digits(PLOT_DIGITS):
        for tv in ts:
            try:
                lv, rv = float(lhs(mp.mpf(tv))), float(rhs(mp.mpf(tv)))
            except Exception:
                continue
            rows.append([tv, lv, rv])
    return {
        "bound": b.name, "text": b.text, "params": {k.name: str(v) for k, v in params.items()},
        "t_argmin": t0, "rows": rows,
    }


def job_certificates(sid):
    """Run the registry's certificates of ``sid``: one JSON-able record per function.

    A record has ``name``, and either ``missing`` (python-flint is not importable),
    ``error`` (the call raised) or the certificate: ``statement``, ``inequality``,
    ``holds``, ``n_boxes``, ``groups`` (per set of coordinates, :func:`box_groups`:
    ``hull`` with exact endpoints, ``n_boxes``, ``coverage``), ``min_margin``,
    ``seconds`` (the certificate's own),
    ``wall_seconds`` (the whole call), ``argument`` and ``bad_box``.
    """
    import importlib

    from arete_proofs.chain.registry import REGISTRY

    names = REGISTRY[sid].certificates
    certified = importlib.import_module("arete_proofs.certified.statements")  # imports flint lazily
    try:
        importlib.import_module("flint")
    except ImportError as exc:
        return [{"name": n, "documented": documented(certified, n), "missing": f"{type(exc).__name__}: {exc}"}
                for n in names]
    out = []
    for n in names:
        rec = {"name": n, "documented": documented(certified, n)}
        t0 = time.monotonic()
        try:
            c = getattr(certified, n)()
        except Exception as exc:  # shown on the page (and logged as a warning)
            rec["error"] = f"{type(exc).__name__}: {exc}"
            out.append(rec)
            continue
        margin = c.min_margin()
        groups = [{"hull": box_json(h), "n_boxes": k, "coverage": cov} for h, k, cov in box_groups(c.boxes)]
        rec.update({
            "statement": c.statement, "inequality": c.inequality, "holds": c.holds,
            "n_boxes": len(c.boxes), "groups": groups,
            "min_margin": None if margin is None else jsonable(float(margin)),
            "seconds": round(float(c.seconds), 3), "wall_seconds": round(time.monotonic() - t0, 3),
            "argument": c.argument or "", "bad_box": box_json(c.undecided_or_refuted_box),
        })
        out.append(rec)
    return out


def job_certified_epsilon():
    """certify_epsilon for Figure 4's parameter sets (None without python-flint)."""
    try:
        import flint  # noqa: F401
    except ImportError:
        return None
    from arete_proofs.certified.epsilon import certify_epsilon
    from arete_proofs.distributions.params import FIGURE_4

    out = []
    for k in sorted(FIGURE_4):
        d = certify_epsilon(*FIGURE_4[k], 1).to_dict()
        out.append({"eps": k, **{x: d[x] for x in ("upper", "lower", "numeric", "gap", "t_star",
                                                    "cells", "evaluations", "seconds", "T")}})
    return out
