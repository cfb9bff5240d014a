r"""Sphinx extension: the proof walkthrough pages, generated from the statement registry.

On ``builder-inited`` this extension writes, under ``docs/generated/``,

* ``proof-chain.md``: an overview of Section 4 / Appendix C, the dependency
  graph of the statements (from ``Statement.uses``, drawn with matplotlib), a
  summary table of the numeric checks and a toctree of the statement pages;
* ``statements/<id>.md``: one page per registry id (the statement as a
  ``prf:`` directive with its hypotheses and bounds rendered by
  :func:`arete_proofs.chain.symbols.latex`, a proof outline, the verification table
  of each bound, the symbolic checks and, for the ratio / density statements, a
  plot of both sides of a bound over :math:`t`), preceded by a status box naming
  the kinds of check the statement has (``Statement.check_kinds``) and, for a
  statement with ``certificates``, a section with the result of each
  ball-arithmetic certificate of :mod:`arete_proofs.certified.statements` (verdict, the
  parameter box, sub-boxes, smallest margin, time and the analytic argument for
  the unbounded ranges);
* ``errata.md``: the observations on the paper's literal text;
* ``main-result.md``: Lemma 3 / Corollary 5 and the tight epsilon of the
  paper's parameters.

Everything on these pages is read from :mod:`arete_proofs` (registry, verify,
symbolic, certified, observations, privacy), so the docs cannot disagree with
the checks. The computations are cached as JSON in ``docs/_build/.arete-cache/``,
keyed by a hash of the package's source files, :data:`CACHE_VERSION` and the
installed python-flint version (or its absence); files are
only rewritten when their content changes, so a rebuild without code changes
re-reads nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

#: Bump when the shape of the cached data changes.
CACHE_VERSION = "2"
#: Grid level and digits of every number on the generated pages.
LEVEL = "quick"
DIGITS = 20
#: Digits of the plot data and of the tight-epsilon table.
PLOT_DIGITS = 15
TABLE_DIGITS = 8
PLOT_POINTS = 40
#: Statements that get a plot of both sides of a bound over t.
PLOTTED = ("lemma-14", "lemma-15", "lemma-16", "claim-1", "lemma-17", "lemma-18", "lemma-19", "lemma-28")
#: Lemma 3's table: eps x Delta ("2/e" is exact).
TABLE_EPS = (20, 30, 40, 60)
TABLE_DELTAS = ("2/e", "1", "10")

_HERE = Path(__file__).resolve().parent
DOCS = _HERE.parent
ROOT = DOCS.parent
PACKAGE = ROOT / "arete_proofs"

# ---------------------------------------------------------------------------
# the texts written for these pages (our words, after the paper's proofs)
# ---------------------------------------------------------------------------

#: Directive kind per id (default: lemma).
KIND = {"corollary-5": "corollary", "note-2": "remark"}

#: A short proof outline per statement, faithful to the paper's proof.
OUTLINES = {
    "lemma-2": (
        "The Arete distribution is the sum of two Gamma variables (one negated) and a Laplace "
        "variable, all infinitely divisible, so the sum is infinitely divisible with a continuous "
        "density (Section 3.2). The density is a convolution of symmetric functions, hence "
        "symmetric around 0 (Lemmas 11-12, Corollary 13). Convolving symmetric unimodal densities "
        "keeps them unimodal, which gives that $f_A$ decreases for $t > 0$."
    ),
    "lemma-3": (
        "The privacy bullet is Lemma 19 (the ratio for a shift of exactly $\\Delta$) combined with "
        "the monotonicity of $f_A$ (Lemma 2): for $|a| \\le \\Delta$ the point $t + a$ is never "
        "farther from 0 than $t + \\Delta$ once $f_A(t) \\ge f_A(t+a)$, so the ratio for $a$ is at "
        "most the ratio for $\\Delta$ (Section 4.2). The error bullet uses the triangle inequality, "
        "$E|Z| \\le 2E[X_1] + E|Y| = 2\\alpha\\theta + \\lambda$, and the variance adds over the "
        "independent parts: $2\\alpha\\theta^2 + 2\\lambda^2$ (Section 4.3)."
    ),
    "corollary-5": (
        "The error is Lemma 3's bound on $E|Z|$ with the paper's parameters, "
        "$8\\Delta e^{-\\varepsilon/4}/\\varepsilon + e^{-\\varepsilon/4}$. For privacy, the "
        "probability of any output set under neighbouring inputs is compared pointwise through "
        "the densities: the shift between the two outputs is at most $\\Delta$, and Lemma 3 bounds "
        "the density ratio for every shift $|a| \\le \\Delta$ by $e^{\\varepsilon}$ (Section 3)."
    ),
    "lemma-14": (
        "Write $f_{\\Gamma-\\Gamma}(t) = \\int_0^\\infty f_\\Gamma(|t| + x) f_\\Gamma(x)\\,dx$ "
        "(Definition 7). For the upper bound, $f_\\Gamma(|t| + x) \\le f_\\Gamma(|t|)$ and the "
        "remaining integral is 1. For the lower bound, cut the integral at $D_\\Gamma$ and use "
        "$f_\\Gamma(|t| + x) \\ge f_\\Gamma(|t| + D_\\Gamma)$ on $[0, D_\\Gamma]$; what remains is "
        "$c_{D_\\Gamma}$. Both steps need $f_\\Gamma$ decreasing, i.e. $\\alpha \\le 1$."
    ),
    "lemma-15": (
        "Insert Lemma 14's lower bound into $f_A = f_{\\Gamma-\\Gamma} * f_L$ and keep only "
        "$x \\in (0, 2(t+\\Delta))$, where $|t + \\Delta - x| \\le t + \\Delta$, so the Gamma "
        "factor is at least $f_\\Gamma(t + \\Delta + D_\\Gamma)$. Because $t + \\Delta \\ge "
        "\\Delta/2$, the Laplace mass left is at least $\\int_0^\\Delta f_L = \\tfrac12 P(\\mathrm{Exp}"
        "(\\lambda) \\le \\Delta) \\ge 1/4$ when the exponential median $\\lambda\\ln 2$ is at most "
        "$\\Delta$; this is $c_L$."
    ),
    "lemma-16": (
        "Bound the numerator with Lemma 14's upper bound and the denominator with its lower bound, "
        "then split the numerator's convolution at distance $D_u$ from $t$ (Appendix C.1). On the "
        "two outer parts $|t - x| \\ge D_u$, so the Gamma factor changes by at most "
        "$e^{(\\Delta + D_\\Gamma)/\\theta}(1 + (\\Delta + D_\\Gamma)/D_u)$ when the argument is "
        "shifted by $\\Delta + D_\\Gamma$, which is compared term by term with the denominator. The "
        "near part $|t - x| < D_u$ is Claim 1."
    ),
    "claim-1": (
        "On the near interval the Laplace density is at most $f_L(|t| - D_u)$, which leaves the "
        "Gamma mass $c_{D_u}$ (eq. (6)); the denominator is at least "
        "$f_\\Gamma(D_\\Gamma + |t + \\Delta|) c_L$ by the argument of Lemma 15. Filling in the "
        "densities and using $|t + \\Delta| \\le |t| + \\Delta$ leaves a factor "
        "$g(|t|) = (D_\\Gamma + \\Delta + |t|)^{1-\\alpha} e^{-|t|(1/\\lambda - 1/\\theta)}$, which "
        "Lemma 28 with $\\kappa = D_u$ bounds by $g(D_u)$."
    ),
    "lemma-17": (
        "For $|t| \\le D_u$, bound $f_A(t)$ from above by Lemma 14 and split the convolution into "
        "$x \\notin (0, 2|t|)$, where the Laplace factor is at most $f_L(t)$, and $x \\in (0, 2|t|)$, "
        "where the integral is computed after dropping $e^{x(1/\\lambda - 1/\\theta)}$ terms "
        "(Appendix C.2). Dividing by Lemma 15's lower bound and using $|t + \\Delta| \\le |t| + "
        "\\Delta$, $|t| \\le D_u$ and Lemma 28 with $\\kappa = 0$ gives the bound."
    ),
    "lemma-18": (
        "The gap hypothesis of Lemmas 16 and 17 follows from $\\lambda \\le \\theta/2$ and "
        "$\\theta \\le D_\\Gamma + \\Delta$, so both apply and the ratio is at most the larger of "
        "their bounds (Appendix C.3). Using $\\theta \\le D_\\Gamma + \\Delta$ once more, choosing "
        "$D_u = \\alpha\\theta$ (the Gamma mean), $c_L = 1/4$, $1 \\le c_{D_u} \\le 2$ and finally "
        "$\\Gamma(\\alpha) \\le 1/\\alpha$ merges the two maxima into the single bound."
    ),
    "note-2": (
        "Euler's product writes $\\Gamma(\\alpha) = \\frac{1}{\\alpha}\\prod_{n \\ge 1} "
        "(1 + 1/n)^\\alpha / (1 + \\alpha/n)$. For $0 < \\alpha \\le 1$ each factor is at most 1 "
        "by Bernoulli's inequality $(1 + 1/n)^\\alpha \\le 1 + \\alpha/n$, so the product is at most "
        "1."
    ),
    "lemma-19": (
        "Take $D_\\Gamma = \\alpha\\theta$, the Gamma mean, which is at least the median (Chen and "
        "Rubin 1986), so $c_{D_\\Gamma} \\ge 1/2$; Lemma 18 then gives eq. (8) (Appendix C.4). "
        "The assumptions (9) ($\\theta \\le \\Delta/(1 - \\alpha)$, $\\lambda \\le \\min(\\theta/2, "
        "\\Delta/\\ln 2)$, $\\alpha \\le 1/2$, $\\Gamma(\\alpha) \\le 1/\\alpha$) give "
        "$2\\alpha\\theta + \\Delta \\le 3\\Delta$ and the bound $48\\Delta e^{\\Delta/\\theta}"
        "e^{2\\alpha}/(\\alpha\\lambda)$. With $\\alpha = \\lambda = e^{-\\varepsilon/4}$, "
        "$\\theta = 4\\Delta/\\varepsilon$ this is at most $e^{\\varepsilon}$ when "
        "$\\varepsilon \\ge 20 + 4\\ln\\Delta$ (eq. (10)); the lower bound and $t < -\\Delta/2$ "
        "follow by symmetry."
    ),
    "lemma-26": (
        "The Laplace density ratio is $e^{(|t + a| - |t|)/\\lambda} \\le e^{|a|/\\lambda}$ by the "
        "triangle inequality, which is at most $e^{\\varepsilon}$ for $|a| \\le \\Delta$ and "
        "$\\lambda = \\Delta/\\varepsilon$ (a standard result the paper cites, Dwork et al. 2006)."
    ),
    "lemma-27": (
        "Within every interval of length $\\Delta$ the Staircase density takes two values whose "
        "ratio is $e^{\\varepsilon}$, and it drops by $e^{-\\varepsilon}$ per period, so two points "
        "at distance at most $\\Delta$ have density ratio at most $e^{\\varepsilon}$; $a(\\gamma)$ "
        "makes the geometric series of the steps integrate to 1 (Geng and Viswanath 2016, cited "
        "by the paper)."
    ),
    "lemma-28": (
        "The logarithm of $g$ is concave with derivative "
        "$(1 - \\alpha)/(D_\\Gamma + \\Delta + t) - (1/\\lambda - 1/\\theta)$, which vanishes at "
        "$t^* = (1 - \\alpha)/(1/\\lambda - 1/\\theta) - (D_\\Gamma + \\Delta)$, so $g$ decreases "
        "for $t \\ge t^*$ (Appendix C). The gap hypothesis says "
        "$\\kappa \\ge 1/(1/\\lambda - 1/\\theta) - (\\Delta + D_\\Gamma) \\ge t^*$, hence "
        "$g(t) \\le g(\\kappa)$ for all $t \\ge \\kappa$."
    ),
}

CHAIN_OVERVIEW = """\
The paper's main result, Lemma 3, is a bound on the privacy loss
$f_A(t)/f_A(t+a)$ of Arete noise with the parameters
$\\alpha = \\lambda = e^{-\\varepsilon/4}$, $\\theta = 4\\Delta/\\varepsilon$.
Section 4 and Appendix C prove it in layers:

* Lemma 14 sandwiches the Gamma-Gamma density between shifted Gamma
  densities; since no closed form of $f_{\\Gamma-\\Gamma}$ is used, every later
  step works with these two bounds.
* Lemma 15 turns the lower bound into a lower bound on $f_A(t+\\Delta)$: the
  Laplace part contributes at least a quarter of its mass ($c_L = 1/4$).
* Lemmas 16 and 17 bound the ratio $f_A(t)/f_A(t+\\Delta)$ far from 0
  ($|t| \\ge D_u$, with Claim 1 for the near part of the convolution) and near 0
  ($|t| \\le D_u$); both rely on the monotonicity fact of Lemma 28.
* Lemma 18 merges the two with $D_u = \\alpha\\theta$, using Note 2
  ($\\Gamma(\\alpha) \\le 1/\\alpha$) as a hypothesis.
* Lemma 19 chooses $D_\\Gamma = \\alpha\\theta$ and the paper's parameters and
  shows the bound is at most $e^{\\varepsilon}$ once
  $\\varepsilon \\ge 20 + 4\\ln\\Delta$; Lemma 3 follows with the monotonicity of
  $f_A$ (Lemma 2), and Corollary 5 is the resulting mechanism.

Lemmas 26 and 27 (Laplace and Staircase mechanisms) are the baselines the
paper compares with. The hand-written overview of how each link is checked is
{doc}`/verification`.
"""


# ---------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------

def _flint_version() -> str:
    """The installed python-flint version, or ``"missing"`` (part of the cache key)."""
    from importlib import metadata

    try:
        return metadata.version("python-flint")
    except metadata.PackageNotFoundError:
        return "missing"


def _source_hash() -> str:
    h = hashlib.sha256(CACHE_VERSION.encode())
    h.update(f"python-flint {_flint_version()}".encode())
    for p in sorted(PACKAGE.rglob("*.py")):
        h.update(str(p.relative_to(PACKAGE)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _write(path: Path, data, binary=False) -> bool:
    """Write ``data`` to ``path`` only when it differs (keeps Sphinx from re-reading)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not binary:
        data = data.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def _esc(text: str) -> str:
    """Plain text (the registry's ASCII math) as inert Markdown."""
    out = []
    for ch in str(text):
        if ch in "\\`*_[]<>${}#|":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _cell(text: str) -> str:
    """Plain text for a table cell."""
    return _esc(text).replace("\n", " ")


def _code(text: str) -> str:
    text = str(text).replace("`", "'").replace("\n", " ")
    return "`" + text.replace("|", "\\|") + "`"


def _num(x, fmt=".3g") -> str:
    if isinstance(x, str):
        return {"inf": "∞", "-inf": "-∞", "nan": "nan"}.get(x, x)
    if x is None:
        return ""
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else ("-∞" if x < 0 else "nan")
    return format(x, fmt)


def _point_text(argmin: dict) -> str:
    keys = [k for k in argmin if k not in ("bound", "lhs", "rhs", "digits")]
    return ", ".join(f"{k}={argmin[k]}" for k in keys)


def _provenance(extra: str = "") -> str:
    return (
        f"Numbers on this page: `arete_proofs.chain.verify.verify(level={LEVEL!r}, digits={DIGITS})` "
        f"(the **{LEVEL}** grid, first evaluation at {DIGITS} significant digits, tight points "
        f"re-evaluated up to 80){extra}. Generated at build time by `docs/_ext/arete_docs.py`."
    )


# ---------------------------------------------------------------------------
# computations (run in worker processes; results are JSON-able)
# ---------------------------------------------------------------------------

def _job_verify(sid):
    from arete_proofs.chain import verify

    rep = verify.verify([sid], level=LEVEL, digits=DIGITS, workers=1, progress=False)
    return rep.to_json()["statements"][0]


def _job_symbolic():
    from arete_proofs.chain import symbolic

    return [
        {"id": r.id, "statement": r.statement, "title": r.title, "holds": bool(r.holds), "detail": r.detail}
        for r in symbolic.run()
    ]


def _jsonable(x):
    from mpmath import mp

    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (bool, int, str)) or x is None:
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    try:
        return mp.nstr(x, 12)
    except Exception:
        return str(x)


def _job_observations(oid):
    from arete_proofs.chain import observations

    return [
        {
            "id": o.id, "statement": o.statement, "literal": o.literal, "verdict": o.verdict,
            "holds_literal": o.holds_literal, "detail": o.detail, "evidence": _jsonable(o.evidence),
        }
        for o in observations.run([oid], digits=DIGITS)
    ]


def _job_table():
    from mpmath import mp

    from arete_proofs.privacy import tight as privacy

    with mp.workdps(60):
        deltas = [2 / mp.e if d == "2/e" else mp.mpf(d) for d in TABLE_DELTAS]
    rows = privacy.paper_table(list(TABLE_EPS), deltas, digits=TABLE_DIGITS)
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


def _job_plot(sid, vres):
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


def _fraction_text(q, sig=12) -> str:
    """An exact rational as text: a terminating decimal when it is short, else ``p/q``
    (also short), else ``≈`` and ``sig`` significant digits.

    >>> from fractions import Fraction
    >>> _fraction_text(Fraction(7357, 10000)), _fraction_text(Fraction(1, 3)), _fraction_text(Fraction(180))
    ('0.7357', '1/3', '180')
    """
    from decimal import Decimal, localcontext
    from fractions import Fraction

    q = Fraction(q)
    if q.denominator == 1:
        return str(q.numerator)
    d, k2, k5 = q.denominator, 0, 0
    while d % 2 == 0:
        d, k2 = d // 2, k2 + 1
    while d % 5 == 0:
        d, k5 = d // 5, k5 + 1
    if d == 1:  # terminating decimal, exact with max(k2, k5) fractional digits
        with localcontext() as ctx:
            ctx.prec = 200
            text = format(Decimal(q.numerator) / Decimal(q.denominator), "f")
        if len(text.lstrip("-0.").replace(".", "")) <= sig:
            return text
    text = f"{q.numerator}/{q.denominator}"
    if len(text) <= 15:
        return text
    return "≈ " + format(float(q), f".{sig}g")


def _box_hull(boxes):
    """Per coordinate, the smallest interval containing every sub-box: ``{name: (lo, hi)}``.

    ``boxes`` are the ``(box, margin)`` pairs of a :class:`arete_proofs.certified.statements.Certificate`
    (``box`` maps a name to exact ``(lo, hi)``). Names missing from some sub-boxes are
    still included.
    """
    hull = {}
    for box, _ in boxes:
        for k, (lo, hi) in box.items():
            if k in hull:
                hull[k] = (min(hull[k][0], lo), max(hull[k][1], hi))
            else:
                hull[k] = (lo, hi)
    return hull


def _hull_coverage(boxes, hull):
    """How the sub-boxes fill their hull, compared by (exact) volume.

    ``"covers"`` when the volumes add up to the hull's (the leaves of a bisection do not
    overlap, and closed boxes filling a closed box up to measure zero fill all of it),
    ``"gaps"`` when they add up to less (part of the hull is not certified),
    ``"overlaps"`` when more, ``None`` when not comparable (no sub-box, sub-boxes
    over different coordinates, or a hull of volume zero). Coordinates on which the
    hull is a single point are left out of the volumes.
    """
    from fractions import Fraction

    if not boxes or any(set(box) != set(hull) for box, _ in boxes):
        return None
    axes = [k for k, (lo, hi) in hull.items() if hi > lo]
    if not axes:
        return None

    def vol(box):
        v = Fraction(1)
        for k in axes:
            v *= Fraction(box[k][1]) - Fraction(box[k][0])
        return v

    total, whole = sum(vol(box) for box, _ in boxes), vol(hull)
    return "covers" if total == whole else ("gaps" if total < whole else "overlaps")


def _box_groups(boxes):
    """The sub-boxes grouped by their set of coordinates, largest group first.

    A certificate combining several checks (a main box and one-point side checks, or
    boxes over different variables) lists sub-boxes over different coordinates; one hull
    over all of them would mix unrelated ranges. Returns ``[(hull, n_boxes, coverage)]``
    per group (:func:`_box_hull`, :func:`_hull_coverage`), in order of first appearance
    among groups of equal size.
    """
    groups = {}
    for item in boxes:
        groups.setdefault(tuple(item[0]), []).append(item)
    out = []
    for items in sorted(groups.values(), key=len, reverse=True):
        hull = _box_hull(items)
        out.append((hull, len(items), _hull_coverage(items, hull)))
    return out


def _box_json(box):
    """A box ``{name: (Fraction, Fraction)}`` as JSON: exact ``"p/q"`` strings."""
    if box is None:
        return None
    return {str(k): [str(lo), str(hi)] for k, (lo, hi) in box.items()}


def _box_text(box) -> str:
    """A box of :func:`_box_json` as ``name ∈ [lo, hi], ...`` (see :func:`_fraction_text`)."""
    from fractions import Fraction

    parts = []
    for k, (lo, hi) in box.items():
        lo, hi = Fraction(lo), Fraction(hi)
        if lo == hi:
            parts.append(f"{k} = {_fraction_text(lo)}")
        else:
            parts.append(f"{k} ∈ [{_fraction_text(lo)}, {_fraction_text(hi)}]")
    return ", ".join(parts)


def _documented(module, name) -> bool:
    """Whether autodoc's ``automodule :members:`` of ``module`` (docs/api.md) documents ``name``."""
    obj = getattr(module, name, None)
    if obj is None or name.startswith("_"):
        return False
    names = getattr(module, "__all__", None)
    if names is not None:
        return name in names
    return getattr(obj, "__module__", None) == module.__name__


def _job_certificates(sid):
    """Run the registry's certificates of ``sid``: one JSON-able record per function.

    A record has ``name``, and either ``missing`` (python-flint is not importable),
    ``error`` (the call raised) or the certificate: ``statement``, ``inequality``,
    ``holds``, ``n_boxes``, ``groups`` (per set of coordinates, :func:`_box_groups`:
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
        return [{"name": n, "documented": _documented(certified, n), "missing": f"{type(exc).__name__}: {exc}"}
                for n in names]
    out = []
    for n in names:
        rec = {"name": n, "documented": _documented(certified, n)}
        t0 = time.monotonic()
        try:
            c = getattr(certified, n)()
        except Exception as exc:  # shown on the page (and logged as a warning)
            rec["error"] = f"{type(exc).__name__}: {exc}"
            out.append(rec)
            continue
        margin = c.min_margin()
        groups = [{"hull": _box_json(h), "n_boxes": k, "coverage": cov} for h, k, cov in _box_groups(c.boxes)]
        rec.update({
            "statement": c.statement, "inequality": c.inequality, "holds": c.holds,
            "n_boxes": len(c.boxes), "groups": groups,
            "min_margin": None if margin is None else _jsonable(float(margin)),
            "seconds": round(float(c.seconds), 3), "wall_seconds": round(time.monotonic() - t0, 3),
            "argument": c.argument or "", "bad_box": _box_json(c.undecided_or_refuted_box),
        })
        out.append(rec)
    return out


def _timed(fn, *args):
    t0 = time.monotonic()
    res = fn(*args)
    return res, round(time.monotonic() - t0, 2)


def _statement_id(text: str):
    """The registry id an observation's ``statement`` text ("Claim 1 (Appendix C.1)") refers to."""
    import re

    from arete_proofs.chain.registry import REGISTRY

    m = re.match(r"\s*(Lemma|Corollary|Claim|Note)\s+(\d+)", text)
    if m:
        sid = f"{m.group(1).lower()}-{m.group(2)}"
        if sid in REGISTRY:
            return sid
    return None


def _job_certified_epsilon():
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


def _compute(app) -> dict:
    """All data of the generated pages, from the cache or computed (pool of 2 processes)."""
    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    cache_dir = DOCS / "_build" / ".arete-cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    key = _source_hash()
    path = cache_dir / f"pages-{key}.json"
    if path.exists():
        try:
            data = json.loads(path.read_text())
            data["from_cache"] = True
            return data
        except (OSError, ValueError):
            pass
    start = time.monotonic()
    data = {"key": key, "verify": {}, "plots": {}, "certificates": {}, "job_seconds": {}}
    obs_by_id = {}
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as pool:
        from arete_proofs.chain.observations import OBSERVATION_IDS

        futs = {pool.submit(_timed, _job_observations, oid): ("observation", oid) for oid in OBSERVATION_IDS}
        # expensive statements first
        order = sorted(STATEMENT_IDS, key=lambda s: s not in ("lemma-18", "corollary-5", "lemma-2",
                                                             "lemma-16", "lemma-17"))
        for sid in order:
            futs[pool.submit(_timed, _job_verify, sid)] = ("verify", sid)
        for sid in STATEMENT_IDS:
            if REGISTRY[sid].certificates:
                futs[pool.submit(_timed, _job_certificates, sid)] = ("certificates", sid)
        futs[pool.submit(_timed, _job_table)] = ("table", None)
        futs[pool.submit(_timed, _job_certified_epsilon)] = ("certified_epsilon", None)
        futs[pool.submit(_timed, _job_symbolic)] = ("symbolic", None)
        pending = set(futs)
        while pending:
            done = next(as_completed(pending))
            pending.discard(done)
            what, sid = futs[done]
            res, secs = done.result()
            data["job_seconds"][f"{what}:{sid}" if sid else what] = secs
            if what == "verify":
                data["verify"][sid] = res
                if sid in PLOTTED:
                    f = pool.submit(_timed, _job_plot, sid, res)
                    futs[f] = ("plot", sid)
                    pending.add(f)
            elif what == "plot":
                data["plots"][sid] = res
            elif what == "certificates":
                data["certificates"][sid] = res
            elif what == "observation":
                obs_by_id[sid] = res
            else:
                data[what] = res
    data["observations"] = [o for oid in OBSERVATION_IDS for o in obs_by_id[oid]]
    data["seconds"] = round(time.monotonic() - start, 1)
    for old in cache_dir.glob("pages-*.json"):
        old.unlink()
    text = json.dumps(data, indent=1, sort_keys=True)
    path.write_text(text)
    # the pages are rendered from the JSON form either way, so a cached rebuild writes the same bytes
    data = json.loads(text)
    data["from_cache"] = False
    return data


# ---------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------

def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    return buf.getvalue()


def _svg(fig) -> bytes:
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "arete-docs"
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


def _depths():
    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    depth = {}

    def d(sid):
        if sid not in depth:
            uses = [u for u in REGISTRY[sid].uses if u in REGISTRY]
            depth[sid] = 0 if not uses else 1 + max(d(u) for u in uses)
        return depth[sid]

    for sid in STATEMENT_IDS:
        d(sid)
    return depth


def _graph_figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    depth = _depths()
    layers = {}
    for sid in STATEMENT_IDS:
        layers.setdefault(depth[sid], []).append(sid)
    width = max(len(v) for v in layers.values())
    # order each layer by the mean position of the statements it uses (fewer crossings)
    rank = {sid: i for i, sid in enumerate(layers[0])}
    for lev in sorted(layers)[1:]:
        def bary(sid):
            us = [rank[u] for u in REGISTRY[sid].uses if u in rank]
            return sum(us) / len(us) if us else 0.0
        layers[lev].sort(key=bary)
        for i, sid in enumerate(layers[lev]):
            rank[sid] = i - (len(layers[lev]) - 1) / 2 + (len(layers[0]) - 1) / 2
    pos = {}
    for lev, ids in layers.items():
        for i, sid in enumerate(ids):
            pos[sid] = (i - (len(ids) - 1) / 2, lev)
    fig, ax = plt.subplots(figsize=(max(7, 1.5 * width), 0.85 * (len(layers) + 1)))
    for sid in STATEMENT_IDS:
        for u in REGISTRY[sid].uses:
            if u in pos:
                ax.annotate(
                    "", xy=pos[sid], xytext=pos[u],
                    arrowprops=dict(arrowstyle="-|>", color="0.35", lw=1.1,
                                    shrinkA=16, shrinkB=16, connectionstyle="arc3,rad=0.08"),
                )
    for sid, (x, y) in pos.items():
        st = REGISTRY[sid]
        color = "#fde2c5" if sid in ("lemma-3", "corollary-5") else (
            "#e3ecf7" if st.uses or any(sid in REGISTRY[o].uses for o in REGISTRY) else "#eeeeee")
        ax.text(x, y, st.number, ha="center", va="center", fontsize=10,
                bbox=dict(boxstyle="round,pad=0.45", fc=color, ec="0.3"))
    ax.set_ylim(-0.6, max(layers) + 0.6)
    ax.set_xlim(-width / 2 - 0.2, width / 2 + 0.2)
    ax.set_yticks(sorted(layers))
    ax.set_yticklabels([f"depth {k}" for k in sorted(layers)])
    ax.set_xticks([])
    for s in ("top", "right", "bottom"):
        ax.spines[s].set_visible(False)
    ax.set_title("Proof chain: an arrow A → B means the proof of B uses A")
    fig.tight_layout()
    out = _png(fig), _svg(fig)
    plt.close(fig)
    return out


def _plot_figure(sid, plot):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from arete_proofs.chain.registry import REGISTRY

    rows = [r for r in plot["rows"] if r[1] > 0 and r[2] > 0 and math.isfinite(r[1]) and math.isfinite(r[2])]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    ts = [r[0] for r in rows]
    ax.plot(ts, [r[1] for r in rows], "o-", ms=3, label="left-hand side")
    ax.plot(ts, [r[2] for r in rows], "s--", ms=3, label="right-hand side")
    ax.set_yscale("log")
    ax.set_xlabel("t")
    ax.set_title(f"{REGISTRY[sid].number}, bound '{plot['bound']}'", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    out = _png(fig)
    plt.close(fig)
    return out


def _main_figure(table):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4))
    for d, mk in zip(TABLE_DELTAS, "osd"):
        rows = [r for r in table if r["Delta"] == d]
        ax.plot([r["eps"] for r in rows], [r["tight"] for r in rows], mk + "-",
                label=f"Δ = {d}")
    lo, hi = min(TABLE_EPS), max(TABLE_EPS)
    ax.plot([lo, hi], [lo, hi], "k:", label="tight = nominal")
    ax.set_xlabel("nominal ε (Lemma 3's parameters)")
    ax.set_ylabel("tight ε* of the noise")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    out = _png(fig)
    plt.close(fig)
    return out


# ---------------------------------------------------------------------------
# pages
# ---------------------------------------------------------------------------

_KIND_WORDS = {"N": "numeric", "S": "symbolic", "C": "certified"}


def _kind_of_check(st):
    """The registry's ``check_kinds`` (N+S+C) in words."""
    return " + ".join(_KIND_WORDS[k] for k in st.check_kinds.split("+") if k) or "none"


_VERDICT = {True: "certified", False: "refuted", None: "undecided"}


def _secs(x) -> str:
    return "< 0.01 s" if x < 0.005 else f"{x:.2f} s"


def _cert_verdict(rec) -> str:
    """``certified`` / ``refuted`` / ``undecided`` / ``not run`` / ``error`` of one certificate record."""
    if "missing" in rec:
        return "not run"
    if "error" in rec:
        return "error"
    return _VERDICT[rec["holds"]]


def _status_box(sid, data) -> list:
    """The admonition under the statement: which kinds of check it has, with their outcome."""
    from arete_proofs.chain.registry import REGISTRY

    st = REGISTRY[sid]
    kinds = [k for k in st.check_kinds.split("+") if k]
    v = data["verify"].get(sid, {})
    sym = [r for r in data.get("symbolic", []) if r["statement"] == sid]
    certs = data.get("certificates", {}).get(sid, [])
    bad = False
    items = []
    if "N" in kinds:
        if v.get("points"):
            bad |= bool(v.get("violations") or v.get("grid_errors"))
            items.append(f"**Numeric grid**: {v['points']} checks on the {LEVEL} grid, "
                         f"{v['violations']} violations ({{ref}}`details <{sid}-numeric>`).")
        else:
            items.append("**Numeric grid**: no grid points.")
    else:
        items.append("**Numeric grid**: none.")
    if "S" in kinds:
        n_ok = sum(1 for r in sym if r["holds"])
        bad |= n_ok < len(sym)
        items.append(f"**Symbolic**: {n_ok} of {len(sym)} checks hold ({{ref}}`details <{sid}-symbolic>`)."
                     if sym else "**Symbolic**: listed in the registry, no result.")
    else:
        items.append("**Symbolic**: none.")
    if "C" in kinds:
        verdicts = [_cert_verdict(r) for r in certs]
        if any(vd == "not run" for vd in verdicts):
            text = "not run (python-flint, the optional extra, is not installed)"
        else:
            bad |= any(vd != "certified" for vd in verdicts)
            counts = {vd: verdicts.count(vd) for vd in dict.fromkeys(verdicts)}
            text = ", ".join(f"{n} {vd}" for vd, n in counts.items())
        items.append(f"**Certified** (ball arithmetic): {len(st.certificates)} certificate"
                     f"{'s' if len(st.certificates) != 1 else ''}, {text} "
                     f"({{ref}}`details <{sid}-certified>`).")
    else:
        items.append("**Certified**: none.")
    words = " + ".join(_KIND_WORDS[k] for k in kinds) or "none"
    cls = "warning" if bad else ("tip" if "C" in kinds else "note")
    return [f"```{{admonition}} Checked: {words}", f":class: {cls}", ""] + [f"- {i}" for i in items] + ["```", ""]


def _certificates_section(sid, data) -> list:
    """The section "Certified in ball arithmetic" of a statement with certificates."""
    from arete_proofs.chain.registry import REGISTRY

    names = REGISTRY[sid].certificates
    if not names:
        return []
    recs = {r["name"]: r for r in data.get("certificates", {}).get(sid, [])}
    L = [f"({sid}-certified)=", "## Certified in ball arithmetic", "",
         "Each certificate below is a function of {mod}`arete_proofs.certified.statements` listed in the "
         "registry's `certificates` for this statement, run with its default arguments at build "
         "time (python-flint's `arb` balls). It bisects a bounded parameter box until, on every "
         "sub-box, the ball enclosure of the inequality's margin is positive; the *margin* below "
         "is the smallest such lower bound. What lies outside the box (the unbounded ranges) is "
         "covered by the *argument*, which is analytic unless it says what the code checks.", ""]
    for n in names:
        rec = recs.get(n, {"name": n, "error": "no result (not computed)"})
        link = (f"{{py:func}}`~arete_proofs.certified.statements.{n}`" if rec.get("documented")
                else _code(f"arete_proofs.certified.statements.{n}"))
        L += [f"### {_code(n)}", ""]
        if "missing" in rec:
            L += ["```{warning}",
                  "Not run: python-flint (the optional extra `certified`, "
                  "`pip install 'arete-proofs[certified]'`) is not installed in the environment "
                  f"that built these pages ({_esc(rec['missing'])}). Install it and rebuild to see "
                  "this certificate.", "```", "", f"Function: {link}.", ""]
            continue
        if "error" in rec:
            L += ["```{error}", f"The certificate could not be computed: {_code(rec['error'])}.", "```", "",
                  f"Function: {link}.", ""]
            continue
        verdict = _VERDICT[rec["holds"]]
        groups = rec.get("groups") or []
        L += ["| | |", "|---|---|",
              f"| statement | {_cell(rec['statement'])} |",
              f"| inequality | {_code(rec['inequality'])} |",
              f"| verdict | **{verdict}** |",
              f"| certified sub-boxes | {rec['n_boxes']}"
              + (f", over {len(groups)} sets of coordinates |" if len(groups) > 1 else " |"),
              f"| smallest certified margin | {_num(rec['min_margin'])} |",
              f"| time | {_secs(rec['wall_seconds'])} (bisection {_secs(rec['seconds'])}) |",
              f"| function | {link} |", ""]
        L += ["**Parameter box covered** (per set of coordinates, the hull of the certified "
              "sub-boxes; endpoints exact, or marked ≈ where rounded):", ""]
        if not groups:
            L += ["- (no certified sub-box)"]
        for g in groups:
            cover = {
                "covers": ", which fill it (their exact volumes add up to the hull's)",
                "gaps": ", **which leave gaps**: only part of it is certified",
                "overlaps": " (their volumes add up to more than the hull's: several bisections, "
                            "e.g. one per inequality; coverage not checked)",
            }.get(g["coverage"], "")
            L.append(f"- {_code(_box_text(g['hull']))}: {g['n_boxes']} sub-box"
                     f"{'es' if g['n_boxes'] != 1 else ''}{cover}")
        L.append("")
        if rec.get("bad_box"):
            what = "refuted: the margin is certainly negative" if rec["holds"] is False else "not decided"
            L += [f"First sub-box {what} on: {_code(_box_text(rec['bad_box']))}.", ""]
        arg = rec.get("argument") or "(none given: the certificate covers only the box above)"
        L += ["**Argument beyond the box:**", "", "> " + _esc(arg).replace("\n", " "), ""]
    return L


def _ref(sid):
    from arete_proofs.chain.registry import REGISTRY

    return f"{{prf:ref}}`{REGISTRY[sid].number} <{sid}>`"


def _proof_chain_page(data) -> str:
    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    L = ["# The proof chain, statement by statement", "", CHAIN_OVERVIEW, "",
         _provenance(), "", "## Dependency graph", "",
         "Drawn from the `uses` field of every registry record; a statement sits one layer above "
         "the deepest statement its proof uses.", "",
         "```{image} proof-chain-graph.png", ":alt: Dependency graph of the paper's statements",
         ":width: 100%", "```", "",
         "The same graph as {download}`SVG <proof-chain-graph.svg>`.", "",
         "## Summary of the checks", "",
         "| id | paper | points | violations | tight | min slack | check | certificates |",
         "|---|---|---:|---:|---:|---:|---|---|"]
    for sid in STATEMENT_IDS:
        st = REGISTRY[sid]
        v = data["verify"].get(sid, {})
        recs = data.get("certificates", {}).get(sid, [])
        verdicts = [_cert_verdict(r) for r in recs]
        certs = ", ".join(f"{verdicts.count(x)} {x}" for x in dict.fromkeys(verdicts)) if recs else ""
        L.append(f"| {_ref(sid)} | {st.number} | {v.get('points', 0)} | {v.get('violations', 0)} | "
                 f"{v.get('tight', 0)} | {_num(v.get('min_slack'))} | {_kind_of_check(st)} | {certs} |")
    L += ["", "The slack of a bound at a point is $\\ln(\\mathrm{rhs}/\\mathrm{lhs})$; the table "
          "shows the smallest over all bounds and points of the statement. A *tight* point is one "
          "where both sides agree to 80 digits (equality is allowed).", "",
          "See also {doc}`main-result` and {doc}`errata`.", "",
          "```{toctree}", ":maxdepth: 1", ":caption: Statements", ""]
    L += [f"statements/{sid}" for sid in STATEMENT_IDS]
    L += ["```", ""]
    return "\n".join(L)


def _statement_page(sid, data) -> str:
    from arete_proofs.chain import symbols
    from arete_proofs.chain.registry import REGISTRY

    st = REGISTRY[sid]
    kind = KIND.get(sid, "lemma")
    v = data["verify"].get(sid, {})
    L = [f"# {st.number}: {_esc(st.title)}", "",
         f"Paper section {st.section}. {_provenance()}", "",
         f"````{{prf:{kind}}} {st.number}: {_esc(st.title)}", f":label: {sid}", ":nonumber:", "",
         _esc(st.statement), ""]
    if st.substitutions:
        L += ["**Parameters** (substituted before the check): "
              + ", ".join(f"${symbols.latex(k)} = {symbols.latex(val)}$" for k, val in st.substitutions.items()),
              ""]
    if st.hypotheses:
        L += ["**Hypotheses:** " + ", ".join(f"${symbols.latex(h)}$" for h in st.hypotheses) + ".", ""]
    L += ["**Claimed bounds:**", ""]
    for b in st.bounds:
        rel = "\\le" if b.relation == "<=" else "="
        where = ""
        if b.where:
            where = " (only where " + ", ".join(f"${symbols.latex(w)}$" for w in b.where) + ")"
        L += [f"- `{b.name}`{where}:", "",
              f"  $$", f"  {symbols.latex(b.lhs)} {rel} {symbols.latex(b.rhs)}", "  $$", ""]
    L += ["````", ""]
    L += _status_box(sid, data)
    if st.uses:
        L += ["**Uses:** " + ", ".join(_ref(u) for u in st.uses) + ".", ""]
    users = [o for o in REGISTRY if sid in REGISTRY[o].uses]
    if users:
        L += ["**Used by:** " + ", ".join(_ref(u) for u in users) + ".", ""]
    if st.notes:
        L += ["```{note}", _esc(st.notes), "```", ""]
    L += ["## Proof outline", "", OUTLINES.get(sid, "(No outline written yet.)"), ""]
    L += [f"({sid}-numeric)=", "## Numeric check", ""]
    if v.get("points"):
        L += [f"{v['points']} checks (point x bound) on the {LEVEL} grid at {DIGITS} digits: "
              f"**{v['violations']} violations**, {v['tight']} tight.", "",
              "| bound | claim | points | violations | tight | min slack | smallest slack at |",
              "|---|---|---:|---:|---:|---:|---|"]
        for b in v.get("bounds", []):
            text = next((x.text for x in st.bounds if x.name == b["name"]), "")
            L.append(f"| `{b['name']}` | {_cell(text)} | {b['points']} | {b['violations']} | {b['tight']} | "
                     f"{_num(b['min_slack'])} | {_code(_point_text(b.get('argmin') or {}))} |")
        L.append("")
        if v.get("grid_errors"):
            L += [f"Grid errors: {len(v['grid_errors'])}.", ""]
    else:
        L += ["No numeric check (no grid points).", ""]
    sym = [r for r in data.get("symbolic", []) if r["statement"] == sid]
    if sym:
        L += [f"({sid}-symbolic)=", "## Symbolic checks", "", "| check | what | holds |", "|---|---|---|"]
        for r in sym:
            L.append(f"| `{r['id']}` | {_cell(r['title'])} | {'yes' if r['holds'] else '**no**'} |")
        L.append("")
        for r in sym:
            L += [f"Steps of `{r['id']}`:", "", "```text", r["detail"].replace("```", "'''"), "```", ""]
    L += _certificates_section(sid, data)
    obs = [o for o in data.get("observations", []) if _statement_id(o["statement"]) == sid]
    if obs:
        L += ["## Observations on the literal text", ""]
        for o in obs:
            L.append(f"- [{_esc(o['id'])}](../errata.md#{_anchor(o['id'])}): {_esc(o['verdict'])}")
        L.append("")
    plot = data["plots"].get(sid)
    if sid in PLOTTED and plot and plot.get("rows"):
        params = ", ".join(f"{k}={val}" for k, val in plot["params"].items())
        L += ["## Both sides over $t$", "",
              f"Bound `{plot['bound']}` ({_esc(plot['text'])}) at the parameters of the grid point "
              f"with the smallest slack ({_code(params)}), over {len(plot['rows'])} values of $t$ "
              f"that satisfy the hypotheses, evaluated at {PLOT_DIGITS} digits.", "",
              f"```{{image}} ../plots/{sid}.png", f":alt: {st.number}: both sides of the bound over t",
              "```", ""]
    return "\n".join(L)


def _anchor(oid: str) -> str:
    return "obs-" + "".join(c if c.isalnum() else "-" for c in oid.lower())


def _evidence_table(ev: dict) -> list:
    L = ["| item | value |", "|---|---|"]
    for k, val in ev.items():
        if isinstance(val, (dict, list)):
            s = json.dumps(val, sort_keys=False)
            if len(s) > 400:
                s = s[:400] + " ..."
        else:
            s = str(val)
        L.append(f"| {_cell(k)} | {_code(s)} |")
    return L


def _errata_page(data) -> str:
    from arete_proofs.chain.registry import REGISTRY

    L = ["# Errata and observations on the paper's text", "",
         "Each section is one check of `arete_proofs.chain.observations` "
         f"(`observations.run(digits={DIGITS})`): the paper's literal wording, the verdict, what the "
         "check found and its evidence. The statement pages check what the proofs use; these checks "
         "test the literal text. Generated at build time by `docs/_ext/arete_docs.py`.", ""]
    for o in data.get("observations", []):
        L += [f"({_anchor(o['id'])})=", f"## {_esc(o['id'])}", ""]
        osid = _statement_id(o["statement"])
        sref = _esc(o["statement"])
        if osid:
            sref = _ref(osid) + ("" if o["statement"] == REGISTRY[osid].number else f" ({sref})")
        lit = {True: "true", False: "false", None: "no claim of its own"}[o["holds_literal"]]
        L += [f"- **Statement:** {sref}", f"- **Verdict:** {_esc(o['verdict'])}",
              f"- **Literal claim holds:** {lit}", "",
              "**Literal text:**", "", "> " + _esc(o["literal"]).replace("\n", " "), "",
              "**Finding:** " + _esc(o["detail"]).replace("\n", " "), ""]
        if o.get("evidence"):
            L += ["**Evidence:**", ""] + _evidence_table(o["evidence"]) + [""]
    return "\n".join(L)


def _main_result_page(data) -> str:
    L = ["# Main result: Lemma 3 and Corollary 5", "",
         f"Lemma 3 ({_ref('lemma-3')}) says that Arete noise with "
         "$\\alpha = \\lambda = e^{-\\varepsilon/4}$, $\\theta = 4\\Delta/\\varepsilon$ satisfies "
         "$e^{-\\varepsilon} \\le f_A(t)/f_A(t+a) \\le e^{\\varepsilon}$ for $|a| \\le \\Delta$ when "
         "$\\Delta \\ge 2/e$ and $\\varepsilon \\ge 20 + 4\\ln\\Delta$; Corollary 5 "
         f"({_ref('corollary-5')}) is the resulting mechanism with error "
         "$O(\\Delta e^{-\\varepsilon/4})$. Their statement pages show the grid checks; this page "
         "shows how much privacy the paper's parameters actually give.", "",
         "The *tight* $\\varepsilon^*$ is $\\sup_t \\ln f_A(t)/f_A(t+\\Delta)$, computed by "
         "`arete_proofs.privacy.tight.paper_table` (a certified search over every $t$, "
         f"{TABLE_DIGITS} digits). Generated at build time by `docs/_ext/arete_docs.py`.", "",
         "| nominal ε | Δ | α = λ | θ | tight ε* | ε*/ε | ε/4 (tail limit) | private | Lemma 3 applies |",
         "|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in data.get("table", []):
        L.append(f"| {r['eps']} | {r['Delta']} | {r['alpha']} | {r['theta']} | {r['tight_str']} | "
                 f"{r['ratio']:.4f} | {r['tail_limit']:g} | {'yes' if r['private'] else 'no'} | "
                 f"{'yes' if r['lemma3'] else 'no'} |")
    L += ["", "```{image} plots/main-result.png",
          ":alt: Tight epsilon against the nominal epsilon for the paper's parameters", "```", "",
          "The tight value stays well below the nominal $\\varepsilon$: the proof's constants are "
          "not optimised (Section 4), so Lemma 3 is safe but loose.", ""]
    L += ["(certified-epsilon-figure-4)=", "## Certified bounds for Figure 4's parameters", "",
          "`arete certify` ({mod}`arete_proofs.certified.epsilon`) *proves* an upper bound on the tight "
          "epsilon in ball arithmetic (python-flint): rigorous enclosures of $f_A$ on a cover of $[0, T]$, "
          "a certified tail bound for $t \\ge T$, symmetry for $t < 0$. The numeric tight epsilon "
          "({func}`arete_proofs.privacy.tight.tight_epsilon`) is shown for comparison; it is not part of the "
          "proof. Computed at build time ($\\Delta = 1$, `tol = 1e-4`).", ""]
    rows = data.get("certified_epsilon")
    if not rows:
        L += ["```{warning}", "python-flint (extra `certified`) was not installed when these pages were "
              "built, so this table is missing: `pip install -e '.[certified]'`.", "```", ""]
    else:
        L += ["| target ε | certified bound | certified lower bound | numeric tight ε* | gap | t at lower bound "
              "| cells | density evaluations | time (s) |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            L.append(f"| {r['eps']} | {r['upper']:.10f} | {r['lower']:.10f} | {r['numeric']:.10f} | "
                     f"{r['gap']:.2e} | {r['t_star']:.3g} | {r['cells']} | {r['evaluations']} | "
                     f"{r['seconds']:.1f} |")
        L += ["", "Every row proves that the parameters of the paper's Figure 4 are $\\varepsilon$-DP for "
              "their target $\\varepsilon$ (certified bound below the target).", ""]
    return "\n".join(L)


# ---------------------------------------------------------------------------
# Sphinx hooks
# ---------------------------------------------------------------------------

def generate(app) -> None:
    from sphinx.util import logging

    from arete_proofs.chain.registry import STATEMENT_IDS

    log = logging.getLogger(__name__)
    t0 = time.monotonic()
    data = _compute(app)
    out = DOCS / "generated"
    written = 0
    png, svg = _graph_figure()
    written += _write(out / "proof-chain-graph.png", png, binary=True)
    written += _write(out / "proof-chain-graph.svg", svg, binary=True)
    written += _write(out / "proof-chain.md", _proof_chain_page(data))
    for sid in STATEMENT_IDS:
        written += _write(out / "statements" / f"{sid}.md", _statement_page(sid, data))
        plot = data["plots"].get(sid)
        if sid in PLOTTED and plot and plot.get("rows"):
            written += _write(out / "plots" / f"{sid}.png", _plot_figure(sid, plot), binary=True)
    written += _write(out / "errata.md", _errata_page(data))
    if data.get("table"):
        written += _write(out / "plots" / "main-result.png", _main_figure(data["table"]), binary=True)
    written += _write(out / "main-result.md", _main_result_page(data))
    for sid, recs in data.get("certificates", {}).items():
        for rec in recs:
            if "error" in rec:
                log.warning(f"[arete_docs] certificate {rec['name']} of {sid} failed: {rec['error']}")
    log.info(
        f"[arete_docs] {'cached' if data.get('from_cache') else 'computed'} data (key {data['key']}), "
        f"{written} generated files updated, {time.monotonic() - t0:.1f} s"
    )


def setup(app):
    app.connect("builder-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": CACHE_VERSION}
