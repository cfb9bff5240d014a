r"""Beyond the paper: a Gaussian part in place of Arete's Laplace part, the docs' data.

For each :math:`\varepsilon` (:math:`\Delta = 1`) one row compares the least :math:`E|Z|` at
certified tight :math:`\varepsilon^* \le \varepsilon` of

* **Arete** :math:`X_1 - X_2 + \mathrm{Laplace}(\lambda)` (the paper's noise; parameters from
  :data:`arete_proofs.walkthrough.figures.STORED_OPTIMA` where stored, else
  ``optimize_gauss.optimize(family="arete")``), with its tight epsilon recomputed;
* **Gamma + Gaussian** :math:`X_1 - X_2 + N(0,\sigma^2)` (``optimize_gauss.optimize(family="gauss")``,
  certified by ``tight_gauss.tight_epsilon``);
* **Laplace** (:math:`E|X| = \Delta/\varepsilon`, Lemma 26) and the **Staircase** at its
  :math:`E|X|`-optimal :math:`\gamma` (Lemma 27).  By Geng & Viswanath (IEEE Trans. Inf. Theory
  62(2), 2016, Theorem 4) the Staircase is optimal for the cost :math:`|x|` among *all*
  :math:`\varepsilon`-DP additive noise in one dimension, so its :math:`E|X|` is a lower bound
  for every row.

Optimising takes minutes per :math:`\varepsilon`, so :func:`compute` runs once
(``python -m arete_proofs.walkthrough.beyond --eps 4 6 8 --workers 2 --out docs/data/beyond.json``,
progress on stderr) and the docs read the shipped JSON (:func:`load`), render its table
(:func:`table_markdown`) and plots (:func:`plot_errors`, :func:`plot_loss_curve`) and re-check one
row's tight epsilon at low precision (:func:`recheck`).  :func:`check` audits a file's internal
consistency (recomputed :math:`E|Z|`, :math:`\varepsilon^* \le \varepsilon`, the gains).

>>> row = {"arete": {"mean_abs": "0.05"}, "gauss": {"mean_abs": "0.04"}, "laplace": {"mean_abs": "0.125"}}
>>> abs(gain_percent(row) - 20) < 1e-12     # 1 - 0.04/0.05 = 20 %
True
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
import time
from pathlib import Path

from mpmath import mp

__all__ = ["DATA", "START", "PARTS", "compute_row", "compute_part", "compute", "load", "best", "gain_percent", "check", "recheck",
           "table_markdown", "update_page", "plot_errors", "loss_curve", "plot_loss_curve", "main"]

#: where the shipped results live (``docs/data/beyond.json`` of the source tree)
DATA = Path(__file__).resolve().parents[2] / "docs" / "data" / "beyond.json"

#: earlier exploration optima (alpha, theta) of the Gamma + Gaussian family, starts for the search
START = {6.0: (0.05182, 0.71685), 8.0: (0.014727, 0.85419)}

FORMAT = "arete-beyond/1"


def _log(msg):
    print(f"[beyond] {msg}", file=sys.stderr, flush=True)


def _s(x, digits=15):
    if isinstance(x, float):
        return repr(x)
    with mp.workdps(digits + 5):
        return mp.nstr(mp.mpf(x), digits)


def _start(eps, arete_params):
    """Start of the Gaussian-family search: the exploration's values, else scaled from Arete's optimum."""
    if eps in START:
        return START[eps]
    if eps < 4:  # near Laplace: alpha at the 0.95 cap, theta just above Delta/eps (docs/explanation/gamma-gaussian.md)
        return (0.94, 1.03 / eps)
    if arete_params is not None:
        a, th = float(arete_params[0]), float(arete_params[1])
        return (0.7 * a, min(1.1 * th, 0.999))
    return None


def compute_row(eps, *, digits=12, workers=1):
    r"""One row (a JSON-ready dict) at ``eps``, :math:`\Delta = 1`: least :math:`E|Z|` per family at
    certified :math:`\varepsilon^* \le \varepsilon`; minutes per call (progress on stderr).

    Below eps = 4 the Gamma + Gaussian search is capped at alpha < 0.95 and starts near Laplace
    (:func:`best` compares with it).  What a row guarantees, on a shipped one:

    >>> row = load()["rows"][-1]
    >>> all(float(row[f]["epsilon"]) <= float(row[f]["epsilon_upper"]) <= float(row["eps"]) for f in ("arete", "gauss"))
    True
    """
    from ..privacy import errors, optimize_gauss, tight_gauss
    from .figures import STORED_OPTIMA

    eps = float(eps)
    row = {"eps": _s(eps)}
    t0 = time.perf_counter()
    stored = STORED_OPTIMA.get(eps)
    if stored is not None:
        a, th, lam = stored
        _log(f"eps {eps:g}: Arete from STORED_OPTIMA, tight epsilon at {digits} digits")
        r = tight_gauss.tight_epsilon(a, th, lam, 0, 1, digits=digits, workers=workers)
        e = errors.arete_errors(a, th, lam, digits=digits)
        up = r.upper_bound if r.upper_bound is not None else r.epsilon
        row["arete"] = {"alpha": a, "theta": th, "lam": lam, "sigma": "0", "mean_abs": _s(e.mean_abs),
                        "variance": _s(e.variance), "epsilon": _s(r.epsilon), "epsilon_upper": _s(up),
                        "source": "STORED_OPTIMA", "seconds": round(time.perf_counter() - t0, 1)}
    else:
        _log(f"eps {eps:g}: optimizing Arete")
        o = optimize_gauss.optimize(eps, 1, family="arete", digits=digits, workers=workers)
        stored = (o.alpha, o.theta, o.lam)
        row["arete"] = {"alpha": _s(o.alpha), "theta": _s(o.theta), "lam": _s(o.lam), "sigma": "0",
                        "mean_abs": _s(o.mean_abs), "variance": _s(o.variance), "epsilon": _s(o.epsilon),
                        "epsilon_upper": _s(o.epsilon_upper), "source": "optimize",
                        "seconds": round(time.perf_counter() - t0, 1)}
    _log(f"eps {eps:g}: Arete E|Z| = {float(row['arete']['mean_abs']):.6g} "
         f"({time.perf_counter() - t0:.0f} s); optimizing Gamma + Gaussian")
    t1 = time.perf_counter()
    o = optimize_gauss.optimize(eps, 1, family="gauss", digits=digits, workers=workers,
                                start=_start(eps, stored), **_low_eps_options(eps))
    row["gauss"] = _entry(o, t1)
    lap = errors.laplace_errors(eps, 1, digits=15)
    sc = errors.staircase_errors(eps, 1, digits=15)
    row["laplace"] = {"mean_abs": _s(lap.mean_abs)}
    row["staircase"] = {"mean_abs": _s(sc.mean_abs), "gamma": _s(sc.parameters["gamma_mean_abs"])}
    row["gain_percent"] = round(gain_percent(row), 3)
    row["gauss_over_staircase"] = round(best(row, "gauss") / float(row["staircase"]["mean_abs"]), 4)
    _log(f"eps {eps:g}: Gauss E|Z| = {float(row['gauss']['mean_abs']):.6g}, gain {row['gain_percent']:.2f} %, "
         f"tight eps <= {float(row['gauss']['epsilon_upper']):.13g} ({time.perf_counter() - t1:.0f} s)")
    return row


def _low_eps_options(eps):
    """Below eps = 4 the optimum sits at the alpha -> 1 edge: cap alpha at 0.95 (a cheap certificate)."""
    return {"alpha_max": 0.95} if eps < 4 else {}


def _entry(o, t1):
    """The JSON dict of one Gamma + Gaussian (or both) optimum ``o`` (its certificate included)."""
    return {"alpha": _s(o.alpha), "theta": _s(o.theta), "lam": _s(o.lam), "sigma": _s(o.sigma),
            "mean_abs": _s(o.mean_abs), "variance": _s(o.variance), "epsilon": _s(o.epsilon),
            "epsilon_upper": _s(o.epsilon_upper), "t_star": _s(o.t_star), "source": "optimize",
            "seconds": round(time.perf_counter() - t1, 1)}


def compute_part(eps, part, row, *, digits=12, workers=1):
    r"""Add ``part`` to the row dict ``row`` at ``eps`` (in place; returns it): ``"both"`` (the
    :math:`E|Z|` optimum with :math:`\lambda` and :math:`\sigma` free) or ``"variance"`` (the
    :math:`\operatorname{Var} Z` optima of Arete and Gamma + Gaussian, certified, beside Laplace's
    :math:`2\Delta^2/\varepsilon^2` and the Staircase's least variance).  Minutes per call.

    >>> rows = [r for r in load()["rows"] if "variance" in r]
    >>> all(float(r["variance"]["staircase"]["variance"]) <= float(r["variance"][f]["variance"])
    ...     and float(r["variance"][f]["epsilon_upper"]) <= float(r["eps"]) for r in rows for f in ("arete", "gauss"))
    True
    """
    from ..privacy import errors, optimize_gauss

    eps = float(eps)
    t1 = time.perf_counter()
    if part == "both":
        g = row.get("gauss")
        start = (float(g["alpha"]), float(g["theta"])) if g else _start(eps, None)
        _log(f"eps {eps:g}: optimizing Gamma + Laplace + Gaussian (both)")
        o = optimize_gauss.optimize(eps, 1, family="both", digits=digits, workers=workers, start=start,
                                    **_low_eps_options(eps))
        row["both"] = _entry(o, t1)
        _log(f"eps {eps:g}: both E|Z| = {float(o.mean_abs):.6g}, lam = {o.lam:.4g} ({time.perf_counter() - t1:.0f} s)")
        return row
    if part != "variance":
        raise ValueError(f"part must be 'both' or 'variance', got {part!r}")
    _log(f"eps {eps:g}: optimizing Arete for Var Z")
    a = optimize_gauss.optimize(eps, 1, family="arete", objective="variance", digits=digits, workers=workers)
    ent = {"arete": {"alpha": _s(a.alpha), "theta": _s(a.theta), "lam": _s(a.lam), "sigma": "0",
                     "mean_abs": _s(a.mean_abs), "variance": _s(a.variance), "epsilon": _s(a.epsilon),
                     "epsilon_upper": _s(a.epsilon_upper), "source": "optimize",
                     "seconds": round(time.perf_counter() - t1, 1)}}
    _log(f"eps {eps:g}: Arete Var Z = {float(a.variance):.6g}; optimizing Gamma + Gaussian for Var Z")
    t2 = time.perf_counter()
    o = optimize_gauss.optimize(eps, 1, family="gauss", objective="variance", digits=digits, workers=workers,
                                start=_start(eps, (a.alpha, a.theta, a.lam)), **_low_eps_options(eps))
    ent["gauss"] = _entry(o, t2)
    lap = errors.laplace_errors(eps, 1, digits=15)
    sc = errors.staircase_errors(eps, 1, digits=15)
    ent["laplace"] = {"variance": _s(lap.variance)}
    ent["staircase"] = {"variance": _s(sc.variance), "gamma": _s(sc.parameters["gamma_var"])}
    row["variance"] = ent
    _log(f"eps {eps:g}: Gauss Var Z = {float(o.variance):.6g} against Laplace {float(lap.variance):.6g} "
         f"({time.perf_counter() - t1:.0f} s)")
    return row


#: the parts of a row that ``--parts`` can compute (the row itself, both parts free, the variance)
PARTS = ("mean_abs", "both", "variance")


def compute(eps_values, *, digits=12, workers=1, out=None, merge=None, parts=("mean_abs",)):
    r"""All rows (each :math:`E|Z|` optimum with certified :math:`\varepsilon^* \le \varepsilon`); with ``out``
    the file is (re)written after every row, so a long run keeps its progress.

    ``merge``: an earlier results dict whose rows are kept (rows at the same ``eps`` are replaced
    when ``parts`` has ``"mean_abs"``, else extended); the rows are sorted by ``eps`` and each
    run's command is listed in ``commands``.  ``parts``: ``"mean_abs"`` (the row of
    :func:`compute_row`), ``"both"`` and ``"variance"`` (:func:`compute_part`; a row missing at
    that ``eps`` is computed first).

    >>> compute([8], parts=("median",))
    Traceback (most recent call last):
    ...
    ValueError: parts must be among ('mean_abs', 'both', 'variance'), got ['median']
    """
    bad = [p for p in parts if p not in PARTS]
    if bad:
        raise ValueError(f"parts must be among {PARTS}, got {bad}")
    command = ("python -m arete_proofs.walkthrough.beyond --eps "
               + " ".join(f"{float(e):g}" for e in eps_values) + f" --workers {workers}"
               + ("" if tuple(parts) == ("mean_abs",) else " --parts " + " ".join(parts)))
    doc = {"format": FORMAT, "Delta": "1", "objective": "mean_abs", "digits": digits,
           "generated": datetime.date.today().isoformat(), "commands": [], "rows": []}
    if merge is not None:
        doc["commands"] = list(merge.get("commands", [merge["command"]] if "command" in merge else []))
        doc["rows"] = list(merge["rows"])
        if merge.get("failed"):
            doc["failed"] = dict(merge["failed"])
    doc["commands"].append(command)

    def save(row):
        doc["rows"] = sorted([r for r in doc["rows"] if float(r["eps"]) != float(row["eps"])] + [row],
                             key=lambda r: float(r["eps"]))
        if out is not None:
            Path(out).write_text(json.dumps(doc, indent=1) + "\n")

    for e in eps_values:
        t0 = time.perf_counter()
        row = next((r for r in doc["rows"] if float(r["eps"]) == float(e)), None)
        for part in parts if row is not None else ("mean_abs",) + tuple(p for p in parts if p != "mean_abs"):
            try:
                if part == "mean_abs":
                    row = compute_row(e, digits=digits, workers=workers)
                    row["seconds"] = round(time.perf_counter() - t0, 1)
                else:
                    compute_part(e, part, row, digits=digits, workers=workers)
            except (ArithmeticError, ValueError) as err:  # PrecisionError is an ArithmeticError
                _log(f"eps {float(e):g} {part}: FAILED ({type(err).__name__}: {err}); left out")
                doc.setdefault("failed", {})[f"{float(e):g} {part}"] = f"{type(err).__name__}: {err}"
                if out is not None:  # the failure is part of the record
                    Path(out).write_text(json.dumps(doc, indent=1) + "\n")
                if row is None:
                    break
                continue
            if doc.get("failed", {}).pop(f"{float(e):g} {part}", None) is not None and not doc["failed"]:
                del doc["failed"]
            save(row)
    return doc


def load(path=None):
    r"""The results file as a dict (default: the shipped :data:`DATA`), rows sorted by :math:`\varepsilon`.

    >>> doc = load()
    >>> doc["format"] == FORMAT and [float(r["eps"]) for r in doc["rows"]] == sorted(float(r["eps"]) for r in doc["rows"])
    True
    """
    with open(path or DATA) as fh:
        return json.load(fh)


def best(row, family, objective="mean_abs"):
    r"""The family's least error at the row's :math:`\varepsilon`: the smaller of the optimum found
    (``row[family]``, or ``row["variance"][family]``) and Laplace's.

    Laplace is in the closure of both families (Arete: :math:`\alpha \to 0`; Gamma + Gaussian:
    :math:`\alpha \to 1`, :math:`\sigma \to 0`, where :math:`X_1 - X_2` is Laplace(:math:`\theta`)),
    and for :math:`\alpha \ge 1` the noise is log-concave with :math:`\varepsilon^* =
    \Delta/\max(\theta,\lambda)`, so there the least :math:`E|Z|` is Laplace's :math:`\Delta/\varepsilon`.

    >>> row = {"gauss": {"mean_abs": "0.35"}, "laplace": {"mean_abs": "0.3333"}}
    >>> best(row, "gauss") == 0.3333 <= float(row["gauss"]["mean_abs"])
    True
    """
    if objective == "variance":
        v = row["variance"]
        return min(float(v[family]["variance"]), float(v["laplace"]["variance"]))
    return min(float(row[family]["mean_abs"]), float(row["laplace"]["mean_abs"]))


def gain_percent(row):
    r""":math:`100\,(1 - E|Z|_{\text{gauss}} / E|Z|_{\text{Arete}})`, each the family's best (:func:`best`).

    >>> row = {"arete": {"mean_abs": "0.05"}, "gauss": {"mean_abs": "0.04"}, "laplace": {"mean_abs": "0.125"}}
    >>> abs(gain_percent(row) - 100 * (1 - 0.04 / 0.05)) < 1e-12    # both below Laplace: the plain ratio
    True
    >>> row = {"arete": {"mean_abs": "0.34"}, "gauss": {"mean_abs": "0.35"}, "laplace": {"mean_abs": "0.3"}}
    >>> gain_percent(row) == 0          # both families reach only Laplace's error
    True
    """
    return 100 * (1 - best(row, "gauss") / best(row, "arete"))


def check(doc, *, digits=6, rows=None):
    r"""Internal consistency of a results file; raises ``ValueError`` naming the row and field.

    For every row: both tight epsilons' upper bounds :math:`\le \varepsilon`; ``gain_percent`` and
    ``gauss_over_staircase`` agree with the stored errors; Laplace is :math:`1/\varepsilon`.  For the
    rows with index in ``rows`` (default: all) :math:`E|Z|` is recomputed from the stored
    parameters twice: with ``arete_gauss.mean_abs`` at ``digits`` (for Arete rows this is the
    closed form of ``arete.mean_abs`` that wrote the file; for Gamma + Gaussian rows the
    mpmath tanh-sinh integral that wrote it, at lower precision) and with
    ``optimize_gauss.mean_abs_float``, :math:`\frac2\pi\int_0^\infty (1-\varphi_Z(u))u^{-2}du` by
    scipy's QUADPACK (a different formula from Arete's closed form, a different integrator from
    the engine's).  Optional parts: ``both`` is checked like the two families; ``variance`` entries
    have a certified epsilon at most the row's, their variance equal to 2 alpha theta^2 + 2 lam^2 +
    sigma^2 and at least the Staircase's (the least of any eps-DP noise, Geng & Viswanath), and
    Laplace's variance is 2/eps^2.

    >>> doc = load()
    >>> check(doc, rows=set())                      # the cheap checks of every row
    True
    >>> doc["rows"][-1]["gain_percent"] += 1         # a tampered gain is caught
    >>> try:
    ...     check(doc, rows=set())
    ... except ValueError as e:
    ...     print(str(e).split(":")[1].split()[0])
    gain_percent
    """
    from ..distributions import arete_gauss
    from ..privacy import optimize_gauss

    if doc.get("format") != FORMAT:
        raise ValueError(f"format must be {FORMAT!r}, got {doc.get('format')!r}")
    tol = 10.0 ** (1 - digits)
    for i, row in enumerate(doc["rows"]):
        eps = float(row["eps"])
        where = f"row eps = {eps:g}"
        for fam, p in _entries(row):
            if not float(p["epsilon_upper"]) <= eps:
                raise ValueError(f"{where}: {fam} epsilon_upper {p['epsilon_upper']} > eps")
            if not float(p["epsilon"]) <= float(p["epsilon_upper"]):
                raise ValueError(f"{where}: {fam} epsilon above its upper bound")
            if fam.startswith("variance"):
                v = 2 * float(p["alpha"]) * float(p["theta"]) ** 2 + 2 * float(p["lam"]) ** 2 + float(p["sigma"]) ** 2
                if abs(v / float(p["variance"]) - 1) > 1e-9:
                    raise ValueError(f"{where}: {fam} variance {p['variance']} but the parameters give {v:.10g} "
                                     "(2 alpha theta^2 + 2 lam^2 + sigma^2)")
            elif rows is None or i in rows:
                m = arete_gauss.mean_abs(p["alpha"], p["theta"], p["lam"], p["sigma"], digits=digits)
                q = optimize_gauss.mean_abs_float(p["alpha"], p["theta"], p["lam"], p["sigma"])
                for how, v, tl in (("arete_gauss.mean_abs", float(m), tol),
                                   ("the float64 Fourier integral", q, max(tol, 1e-8))):
                    if abs(v / float(p["mean_abs"]) - 1) > tl:
                        raise ValueError(f"{where}: {fam} mean_abs {p['mean_abs']} but the parameters give "
                                         f"{v:.10g} ({how})")
        if abs(gain_percent(row) - row["gain_percent"]) > 1e-2:
            raise ValueError(f"{where}: gain_percent {row['gain_percent']} but the errors give "
                             f"{gain_percent(row):.3f}")
        ratio = best(row, "gauss") / float(row["staircase"]["mean_abs"])
        if abs(ratio - row["gauss_over_staircase"]) > 1e-3:
            raise ValueError(f"{where}: gauss_over_staircase {row['gauss_over_staircase']} but the errors "
                             f"give {ratio:.4f}")
        if abs(float(row["laplace"]["mean_abs"]) * eps - 1) > 1e-12:
            raise ValueError(f"{where}: Laplace mean_abs is not Delta/eps")
        if "variance" in row:
            v = row["variance"]
            if abs(float(v["laplace"]["variance"]) * eps * eps / 2 - 1) > 1e-12:
                raise ValueError(f"{where}: Laplace variance is not 2 Delta^2/eps^2")
            for fam in ("arete", "gauss"):
                if float(v[fam]["variance"]) < float(v["staircase"]["variance"]) * (1 - 1e-12):
                    raise ValueError(f"{where}: {fam} variance below the Staircase's, the least of any eps-DP noise")
    return True


def _entries(row):
    """``(name, parameters dict)`` of every certified optimum in a row (mean_abs, both, variance)."""
    out = [(fam, row[fam]) for fam in ("arete", "gauss", "both") if fam in row]
    if "variance" in row:
        out += [("variance " + fam, row["variance"][fam]) for fam in ("arete", "gauss", "both") if fam in row["variance"]]
    return out


def recheck(doc=None, eps=8, *, digits=6):
    r"""Tight :math:`\varepsilon^*` of the Gamma + Gaussian row at ``eps`` recomputed at ``digits``; raises
    ``ValueError`` when it exceeds ``eps`` or disagrees with the file (a stale file).  Returns it.

    A few seconds per call (the docs build runs it at ``eps = 8``); an ``eps`` without a row:

    >>> recheck(load(), 8.5)
    Traceback (most recent call last):
    ...
    ValueError: eps = 8.5 is not in the results file
    """
    from ..privacy import tight_gauss

    doc = load() if doc is None else doc
    row = next((r for r in doc["rows"] if float(r["eps"]) == float(eps)), None)
    if row is None:
        raise ValueError(f"eps = {eps!r} is not in the results file")
    p = row["gauss"]
    r = tight_gauss.tight_epsilon(p["alpha"], p["theta"], p["lam"], p["sigma"], 1, digits=digits)
    if not r.lower_bound <= float(eps):
        raise ValueError(f"eps = {eps:g}: the stored Gamma + Gaussian parameters have tight epsilon "
                         f"{mp.nstr(r.epsilon, digits)} > {eps:g}")
    if abs(float(r.epsilon) / float(p["epsilon"]) - 1) > 10.0 ** (1 - digits):
        raise ValueError(f"eps = {eps:g}: tight epsilon {mp.nstr(r.epsilon, digits)} but the file says "
                         f"{p['epsilon']}")
    return r


def _f(x, n=4):
    return f"{float(x):.{n}g}"


def _gauss_cell(r, objective="mean_abs"):
    if objective == "variance":
        g, lap = float(r["variance"]["gauss"]["variance"]), float(r["variance"]["laplace"]["variance"])
    else:
        g, lap = float(r["gauss"]["mean_abs"]), float(r["laplace"]["mean_abs"])
    return _f(g, 5) if g <= lap else f"{_f(lap, 5)} (Laplace limit; α < 1: {_f(g, 5)})"


def table_markdown(doc=None, kind="mean_abs"):
    r"""The docs' table (MyST markdown) of a results file: ``kind`` ``"mean_abs"`` (:math:`E|Z|`, one line per
    row), ``"both"`` or ``"variance"`` (the rows that have that part; empty text when none has it).

    >>> doc = load()
    >>> len(table_markdown(doc).splitlines()) == len(doc["rows"]) + 2      # header, rule, one line a row
    True
    >>> n = sum("variance" in r for r in doc["rows"])
    >>> len(table_markdown(doc, "variance").splitlines()) == (n + 2 if n else 0)
    True
    """
    doc = load() if doc is None else doc
    if kind == "both":
        lines = ["| ε | Gamma + Gaussian E\\|Z\\| | both free E\\|Z\\| | both α, θ, λ, σ; tight ε ≤ |",
                 "|---|---|---|---|"]
        for r in doc["rows"]:
            if "both" in r:
                b = r["both"]
                lines.append(f"| {float(r['eps']):g} | {_f(r['gauss']['mean_abs'], 5)} | {_f(b['mean_abs'], 5)} | "
                             f"{_f(b['alpha'])}, {_f(b['theta'])}, {_f(b['lam'])}, {_f(b['sigma'])}; "
                             f"{_f(b['epsilon_upper'], 12)} |")
        return "\n".join(lines) if len(lines) > 2 else ""
    if kind == "variance":
        lines = ["| ε | Arete Var Z | Gamma + Gaussian Var Z | Laplace 2/ε² | Staircase (lower bound) "
                 "| Gauss / Staircase | Arete α, θ, λ; tight ε ≤ | Gauss α, θ, σ; tight ε ≤ |",
                 "|---|---|---|---|---|---|---|---|"]
        for r in doc["rows"]:
            if "variance" not in r:
                continue
            v = r["variance"]
            a, g = v["arete"], v["gauss"]
            lines.append(
                f"| {float(r['eps']):g} | {_f(a['variance'], 5)} | {_gauss_cell(r, 'variance')} | "
                f"{_f(v['laplace']['variance'], 5)} | {_f(v['staircase']['variance'], 5)} | "
                f"{best(r, 'gauss', 'variance') / float(v['staircase']['variance']):.2f} | "
                f"{_f(a['alpha'])}, {_f(a['theta'])}, {_f(a['lam'])}; {_f(a['epsilon_upper'], 12)} | "
                f"{_f(g['alpha'])}, {_f(g['theta'])}, {_f(g['sigma'])}; {_f(g['epsilon_upper'], 12)} |")
        return "\n".join(lines) if len(lines) > 2 else ""
    if kind != "mean_abs":
        raise ValueError(f"kind must be 'mean_abs', 'both' or 'variance', got {kind!r}")
    lines = ["| ε | Arete E\\|Z\\| | Gamma + Gaussian E\\|Z\\| | gain | Laplace | Staircase (lower bound) "
             "| Gauss / Staircase | Arete α, θ, λ; tight ε ≤ | Gauss α, θ, σ; tight ε ≤ |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        a, g = r["arete"], r["gauss"]
        lines.append(
            f"| {float(r['eps']):g} | {_f(a['mean_abs'], 5)} | {_gauss_cell(r)} | "
            f"{r['gain_percent']:.1f}% | {_f(r['laplace']['mean_abs'], 5)} | {_f(r['staircase']['mean_abs'], 5)} | "
            f"{r['gauss_over_staircase']:.2f} | {_f(a['alpha'])}, {_f(a['theta'])}, {_f(a['lam'])}; "
            f"{_f(a['epsilon_upper'], 12)} | {_f(g['alpha'])}, {_f(g['theta'])}, {_f(g['sigma'])}; "
            f"{_f(g['epsilon_upper'], 12)} |")
    return "\n".join(lines)


_BLOCKS = {"mean_abs": "beyond-table", "both": "beyond-both-table", "variance": "beyond-variance-table"}


def update_page(page, doc=None):
    r"""Replace the tables (:func:`table_markdown`: :math:`E|Z|` and :math:`\operatorname{Var} Z`) between ``<!-- beyond-table -->`` markers of the markdown file ``page``
    (and the ``beyond-both-table`` / ``beyond-variance-table`` blocks where the page has them).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = path.write_text("<!-- beyond-table -->\nold\n<!-- /beyond-table -->\n")
    >>> update_page(path)
    >>> table_markdown() in path.read_text()
    True
    """
    import re

    text = Path(page).read_text()
    for kind, name in _BLOCKS.items():
        table = table_markdown(doc, kind)
        new, n = re.subn(rf"(<!-- {name} -->\n)(?:.*?\n)?(<!-- /{name} -->)",
                         lambda m: m.group(1) + table + ("\n" if table else "") + m.group(2), text, flags=re.S)
        if n != 1 and kind == "mean_abs":
            raise ValueError(f"{page}: expected one <!-- beyond-table --> block, found {n}")
        text = new
    Path(page).write_text(text)


def _figure(pyplot, **kw):
    if pyplot:
        import matplotlib.pyplot as plt

        return plt.figure(**kw)
    from matplotlib.figure import Figure

    return Figure(**kw)


def plot_errors(doc=None, *, pyplot=False):
    r"""Left: :math:`E|Z|` against eps (log scale) of Laplace, Arete, Gamma + Gaussian (each family's
    :func:`best`: below eps = 4 that is Laplace) and the Staircase (the
    lower bound); right: Arete's and Gamma + Gaussian's E|Z| divided by the Staircase's (the gap).

    >>> fig = plot_errors()
    >>> ax = fig.axes[1]
    >>> all(y >= 1 for line in ax.get_lines()[:2] for y in line.get_ydata())   # never below the lower bound
    True
    """
    doc = load() if doc is None else doc
    rows = sorted(doc["rows"], key=lambda r: float(r["eps"]))
    eps = [float(r["eps"]) for r in rows]
    fig = _figure(pyplot, figsize=(9.6, 4.0))
    ax, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    for key, label, style in (("laplace", "Laplace", "C7s--"), ("arete", "Arete (optimised)", "C0o-"),
                              ("gauss", "Gamma + Gaussian (optimised)", "C3^-"),
                              ("staircase", "Staircase = lower bound (any ε-DP noise)", "k.:")):
        ax.plot(eps, [best(r, key) if key in ("arete", "gauss") else float(r[key]["mean_abs"]) for r in rows],
                style, label=label)
    ax.set_yscale("log")
    ax.set_xlabel("ε  (Δ = 1)")
    ax.set_ylabel("E|Z|")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    sc = [float(r["staircase"]["mean_abs"]) for r in rows]
    for key, label, style in (("arete", "Arete / Staircase", "C0o-"), ("gauss", "Gamma + Gaussian / Staircase", "C3^-")):
        ax2.plot(eps, [best(r, key) / s for r, s in zip(rows, sc)], style, label=label)
    ax2.axhline(1, color="k", ls=":", label="lower bound (Staircase)")
    ax2.set_ylim(0, None)
    ax2.set_xlabel("ε  (Δ = 1)")
    ax2.set_ylabel("E|Z| / least E|X| of any ε-DP noise")
    ax2.grid(True, alpha=0.3)
    ax2.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def loss_curve(doc=None, eps=8, *, n=400):
    r"""``(t, L(t), t_star, epsilon)``: the float64 loss :math:`L(t) = \ln f(t)/f(t+1)` of the
    Gamma + Gaussian row at ``eps`` (``fast_gauss.logpdf``) on :math:`[0, 4 t^*]`, and the certified
    maximiser and tight epsilon stored in the file.

    >>> t, L, ts, e = loss_curve(eps=8, n=50)
    >>> bool(L.max() <= e + 1e-7 and 0 < ts < t[-1])          # the float64 loss stays below the certified max
    True
    """
    import numpy as np

    from ..distributions import fast_gauss

    doc = load() if doc is None else doc
    row = next(r for r in doc["rows"] if float(r["eps"]) == float(eps))
    p = row["gauss"]
    a, th, la, sg = (float(p[k]) for k in ("alpha", "theta", "lam", "sigma"))
    ts = float(p["t_star"])
    t = np.linspace(0, 4 * ts, n)
    L = fast_gauss.logpdf(t, a, th, la, sg) - fast_gauss.logpdf(t + 1, a, th, la, sg)
    return t, L, ts, float(p["epsilon"])


def plot_loss_curve(doc=None, eps=8, *, pyplot=False):
    r"""Left: the loss curve :math:`\ln f(t)/f(t+1)` of :func:`loss_curve` with the certified maximum marked; right: with
    Arete's optimum at the same eps (float64, ``fast.logpdf``), whose loss is maximal at t = 0.

    >>> len(plot_loss_curve(eps=8).axes)
    2
    """
    from ..distributions import fast

    doc = load() if doc is None else doc
    t, L, ts, e = loss_curve(doc, eps)
    p = next(r for r in doc["rows"] if float(r["eps"]) == float(eps))["arete"]
    a, th, la = (float(p[k]) for k in ("alpha", "theta", "lam"))
    La = fast.logpdf(t, a, th, la) - fast.logpdf(t + 1, a, th, la)
    fig = _figure(pyplot, figsize=(8.8, 3.6))
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    for ax in (ax1, ax2):
        ax.plot(t, L, "C3-", label="Gamma + Gaussian")
        ax.plot([ts], [e], "ko", label=f"certified t* = {ts:.3g}, ε* = {e:.10g}")
        ax.axhline(float(eps), color="0.5", lw=0.8, ls="--")
        ax.set_xlabel("t")
    ax2.plot(t, La, "C0--", label="Arete (maximal at t = 0)")
    ax1.set_ylabel("ln f(t)/f(t+1)")
    ax1.ticklabel_format(axis="y", useOffset=False)
    ax1.set_title("Gamma + Gaussian, ε = %g" % float(eps), fontsize=9)
    ax2.set_title("with Arete's optimum at the same ε", fontsize=9)
    ax1.legend(fontsize=7, loc="lower center")
    ax2.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def main(argv=None):
    r"""Command line (:math:`\varepsilon > 0` values): ``python -m arete_proofs.walkthrough.beyond --eps 4 6 8 --workers 2 --out FILE``
    (``--parts both variance`` for the optional parts, ``--merge`` to extend a file).

    >>> try:
    ...     main(["--eps", "-1"])
    ... except SystemExit as e:
    ...     e.code                       # eps must be positive (argparse's usage error)
    2
    """
    p = argparse.ArgumentParser(prog="python -m arete_proofs.walkthrough.beyond", description=__doc__.split("\n")[0])
    p.add_argument("--eps", type=float, nargs="+", default=None)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--digits", type=int, default=12)
    p.add_argument("--out", default=None)
    p.add_argument("--merge", action="store_true", help="keep the other rows of an existing --out file")
    p.add_argument("--parts", nargs="+", choices=PARTS, default=["mean_abs"],
                   help="what to compute at each eps: mean_abs (the row), both (lam and sigma free), variance")
    p.add_argument("--check", default=None, metavar="FILE", help="audit a results file instead")
    p.add_argument("--page", default=None, metavar="MD", help="rewrite the table block of this docs page")
    args = p.parse_args(argv)
    if args.check:
        check(load(args.check))
        print(table_markdown(load(args.check)))
        if args.page:
            update_page(args.page, load(args.check))
        return 0
    if not args.eps:
        p.error("give --eps (or --check FILE)")
    if any(not (math.isfinite(e) and e > 0) for e in args.eps):
        p.error("eps must be positive")
    merge = load(args.out) if args.merge and args.out and Path(args.out).exists() else None
    doc = compute(args.eps, digits=args.digits, workers=args.workers, out=args.out, merge=merge, parts=args.parts)
    if args.page:
        update_page(args.page, doc)
    print(table_markdown(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
