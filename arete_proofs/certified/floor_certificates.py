r"""Write the certificates of the floors of infinitely divisible (ID) noise: the search that
:mod:`arete_proofs.check.floors` re-checks (``docs/data/floors.json``).

The privacy layer proves each floor at run time (:mod:`arete_proofs.privacy.id_bounds`, Theorems A and C;
:mod:`~arete_proofs.privacy.id_variance`, Theorem E; :mod:`~arete_proofs.privacy.id_mean_abs`, Theorem F).  This
module keeps what those searches found and writes it down, so that the checker only verifies:

* Theorem A: the odd multiple :math:`m` with :math:`\varphi(m\pi/\gamma^*) < 0`
  (:func:`~arete_proofs.privacy.id_bounds.certify_staircase_not_id`);
* Theorem C: a cover of :math:`y = 2\operatorname{ess\,sup} f` by cells, each with a certified lower bound
  :math:`d` of the defect :math:`D(y)` and the :math:`k` that gives it.  The cells are grown greedily from the left,
  as wide as the claimed bound allows (the claim is the float minimum of :math:`G` less ``rtol``), so the file holds
  fewer cells than :func:`~arete_proofs.privacy.id_bounds.id_lower_bound`'s heap;
* Theorem E: :math:`(\rho, k, u)` and :math:`V` of :func:`~arete_proofs.privacy.id_variance.variance_bound` and a
  :math:`\gamma` for the Staircase's variance; for the range claim, one such choice per cell of
  :func:`~arete_proofs.privacy.id_variance.variance_gap_interval`'s grid;
* Theorem F: :math:`(k_r, k, u)` and :math:`V` of :func:`~arete_proofs.privacy.id_mean_abs.mean_abs_bound`, the
  small jumps' variance bound :math:`W` and the leaves of the branch and bound over :math:`\lambda`;
* the limits: the certified root :math:`d` of Corollary D (:func:`~arete_proofs.privacy.id_bounds.uniform_defect`)
  and Lemma F1's splits.

Every cell is decided with the checker's own functions, and each document is run through
:func:`arete_proofs.check.check_document` before it is returned.  Claims are decimals rounded toward the safe side.

>>> from arete_proofs.check import check_document
>>> doc = write_not_id(2)                      # Theorem A at eps = 2: phi < 0 at w = 5 pi / gamma*
>>> doc["found"]["m"], float(doc["claim"]["phi_upper"]) < 0, check_document(doc)["verdict"]
(5, True, 'checked')
"""

from __future__ import annotations

import json
import math
import sys
import time
from decimal import Decimal
from fractions import Fraction

from ..check import FORMAT
from ..check import floors as _fl
from ..check._arb import ball, prec
from ._seal import sealed

__all__ = ["write_not_id", "write_general", "write_variance", "write_variance_range", "write_mean_abs",
           "write_limits", "build", "COMMAND", "NOT_ID_EPS", "MEAN_ABS_EPS"]

#: the command that regenerates docs/data/floors.json (recorded in the file)
COMMAND = "python -m arete_proofs.certified.floor_certificates --out docs/data/floors.json"
#: Theorem A's certificates (the values the docs quote)
NOT_ID_EPS = (1, 2, 4)
#: The epsilons of Theorem F's rows, the docs table and the range the docs quote ("at least 1.1001 for every eps >= 13.7")
MEAN_ABS_EPS = (8, 10, 12, 13, "13.7", "13.8", 14, 15, 16, 18, 20, 25, 30, 40)
_PREC = 128


def _txt(q):
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _dec(x, up, digits=8):
    """A decimal string >= x (``up``) or <= x with ``digits`` significant digits (``x`` a Fraction or float)."""
    x = Fraction(x)
    if x == 0:
        return "0"
    e = math.floor(math.log10(abs(x))) - digits + 1
    n = x / Fraction(10) ** e
    n = math.ceil(n) if up else math.floor(n)
    return str(Decimal(n).scaleb(e))


def _frac(arf):
    man, exp = arf.man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _new(kind, eps):
    doc = {"format": FORMAT, "kind": kind, "params": {}, "Delta": "1", "claim": {}}
    if eps is not None:
        doc["params"]["eps"] = _txt(Fraction(str(eps)))
        doc["claim"]["epsilon"] = doc["params"]["eps"]
    return doc


def _finish(doc, t0):
    doc["search_seconds"] = round(time.perf_counter() - t0, 1)
    return sealed(doc, what=f"the written {doc['kind']} certificate")


def write_not_id(eps):
    r"""Theorem A at :math:`\varepsilon`: :math:`\varphi_{SC}(m\pi/\gamma^*) < 0` for the :math:`E|Z|`-optimal
    :math:`\gamma^*` (kind ``staircase_not_id``)."""
    from ..privacy.id_bounds import certify_staircase_not_id

    t0 = time.perf_counter()
    doc = _new("staircase_not_id", eps)
    m = int(certify_staircase_not_id(str(eps), digits=30)["m"])
    with prec(_PREC):
        phi, w = _fl.phi_odd(ball(Fraction(doc["params"]["eps"])), m)
        doc["found"] = {"m": m}
        doc["claim"].update(phi_upper=_dec(_frac(phi.upper()), True, 6),
                            w=[_dec(_frac(w.lower()), False, 10), _dec(_frac(w.upper()), True, 10)])
    return _finish(doc, t0)


def _claims(doc, bound, sc):
    """claim.bound (rounded down) and claim.ratio = bound / Staircase (rounded down)."""
    B = Fraction(_dec(bound, False))
    doc["claim"]["bound"] = _dec(B, False)
    doc["claim"]["ratio"] = _dec(_frac((ball(B) / sc).lower()), False, 6)


def write_general(eps, *, rtol=5e-5, ks=(2, 3, 4, 5)):
    r"""Theorem C at :math:`\varepsilon` (kind ``id_floor_general``): the cover of :math:`y` that proves
    :math:`E|Z| \ge` ``claim.bound`` for every ID :math:`\varepsilon`-DP noise (:math:`\Delta = 1`)."""
    from scipy.optimize import minimize_scalar

    from ..privacy.id_bounds import _root_float

    t0 = time.perf_counter()
    doc = _new("id_floor_general", eps)
    e = Fraction(doc["params"]["eps"])
    qf = math.exp(-float(e))

    def G(y):
        D = max(_root_float(qf * y, qf, k) for k in ks)
        return (0.5 + D + 0.5 * qf * max(y - 1, 0.0) ** 2) / y

    lo, hi = 0.25 / math.sqrt(qf), 8 / math.sqrt(qf) + 1
    grid = [lo * (hi / lo) ** (i / 2000) for i in range(2001)]
    i = min(range(len(grid)), key=lambda j: G(grid[j]))
    r = minimize_scalar(G, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, 2000)]), method="bounded",
                        options={"xatol": 1e-10 * grid[i]})
    B = Fraction(_dec(min(r.fun, G(grid[i])) * (1 - rtol), False))
    with prec(_PREC):
        q = (-ball(e)).exp()

        def d_at(y2):
            best = (Fraction(0), 0)
            for k in ks:
                root = _root_float(qf * float(y2), qf, k)
                for shrink in (1e-7, 1e-5, 1e-3):
                    d = Fraction(_dec(root * (1 - shrink), False, 7)) if root > 0 else Fraction(0)
                    if d <= best[0]:
                        break
                    if _fl.cond_fails(ball(d), q * ball(y2), q, k):
                        best = (d, k)
                        break
            return best

        y = Fraction(_dec(1 / (2 * B), False))
        b2 = float(2 * qf + 2 * B)
        yend = Fraction(_dec((b2 + math.sqrt(b2 * b2 - 4 * qf * qf)) / (2 * qf) * (1 + 1e-6), True))
        ys, ds, kk, w = [y], [], [], y / 1000
        while y < yend:
            y2 = min(Fraction(_dec(y + w, True, 10)), yend)
            d, k = d_at(y2)
            if _fl.general_pieces([y, y2], [d], [k], q)[2] >= ball(B):
                ys.append(y2)
                ds.append(d)
                kk.append(k)
                y, w = y2, w * 2
            elif w < y * Fraction(1, 10 ** 9):
                raise ValueError(f"eps = {eps}: no cell at y = {float(y)} reaches the bound {float(B)}")
            else:
                w /= 2
        doc["cells"] = {"y": [_txt_dec(v) for v in ys], "d": [_txt_dec(v) for v in ds], "k": kk}
        _claims(doc, B, q.sqrt() / (1 - q))
    return _finish(doc, t0)


def _txt_dec(q):
    """A short decimal string of a Fraction that has one (the writer's breakpoints), else p/q."""
    s = str(Decimal(q.numerator) / Decimal(q.denominator))
    return s if Fraction(s) == q else _txt(q)


def _variance_choice(eps):
    """(V rounded down, rho, k, u) of Theorem E at ``eps`` (library search; V re-decided by the checker)."""
    from ..privacy.id_variance import variance_bound

    row = variance_bound(str(eps))
    if row["params"] is None:
        raise ValueError(f"eps = {eps}: Theorem E gives no positive bound here")
    return [_dec(row["bound"], False)] + [row["params"][x] for x in ("rho", "k", "u")]   # V, rho, k, u


def write_variance(eps):
    r"""Theorem E at :math:`\varepsilon` (kind ``id_floor_variance``): :math:`\mathrm{Var}\,Z \ge` ``claim.bound`` for
    every symmetric ID :math:`\varepsilon`-DP noise."""
    from ..distributions.staircase import gamma_var

    t0 = time.perf_counter()
    doc = _new("id_floor_variance", eps)
    V, rho, k, u = _variance_choice(eps)
    g = _dec(float(gamma_var(float(Fraction(doc["params"]["eps"])), digits=20)), False, 12)
    doc["found"] = {"rho": rho, "k": k, "u": u, "gamma": g}
    with prec(_PREC):
        q, gb = (-ball(Fraction(doc["params"]["eps"]))).exp(), ball(Fraction(g))
        p = 1 - q
        c = q + p * gb
        _claims(doc, Fraction(V), q * (1 + q) / p ** 2 + q / p * (q + p * gb * gb) / c + (q + p * gb ** 3) / (3 * c))
    return _finish(doc, t0)


def write_variance_range(eps_from=14, switch=20, step="1/4", *, pieces=64, progress=None):
    r"""Theorem E for every :math:`\varepsilon \ge` ``eps_from`` (kind ``id_floor_variance_range``): cells of width
    ``step`` up to ``switch``, then one open cell (the grid of ``arete floor --from``)."""
    t0 = time.perf_counter()
    say = progress or (lambda s: None)
    doc = _new("id_floor_variance_range", eps_from)
    a, step, switch = Fraction(doc["params"]["eps"]), Fraction(step), Fraction(str(switch))
    grid = [a]
    while grid[-1] < switch:
        grid.append(min(grid[-1] + step, switch))
    cells = []
    for x, y in zip(grid, grid[1:] + [None]):
        say(f"variance range: cell from eps {float(x)}")
        V, rho, k, u = _variance_choice(_txt(x))
        cells.append([_txt(x), None if y is None else _txt(y), rho, k, u, V])
    doc["cells"], doc["pieces"] = cells, int(pieces)
    doc["claim"]["ratio"] = "0"
    with prec(_PREC):
        worst = _fl.variance_range(doc, a)
        doc["claim"]["ratio"] = _dec(_frac(worst.lower()), False, 6)
    return _finish(doc, t0)


def write_mean_abs(eps):
    r"""Theorem F at :math:`\varepsilon` (kind ``id_floor_mean_abs``): :math:`E|Z| \ge` ``claim.bound`` for every
    symmetric ID :math:`\varepsilon`-DP noise; the ratio holds for every larger :math:`\varepsilon` (Corollary F4)."""
    from ..privacy.id_mean_abs import mean_abs_bound, small_jump_variance_upper

    t0 = time.perf_counter()
    doc = _new("id_floor_mean_abs", eps)
    e = Fraction(doc["params"]["eps"])
    row = mean_abs_bound(doc["params"]["eps"])
    if row["params"] is None:
        raise ValueError(f"eps = {eps}: Theorem F gives no positive bound here")
    kr, k, u = (Fraction(row["params"][x]) for x in ("kr", "k", "u"))
    V = Fraction(_dec(row["bound"], False))
    W = Fraction(_dec(small_jump_variance_upper(V, kr * V), True, 12))
    doc["found"] = {"kr": _txt_dec(kr), "k": _txt_dec(k), "u": _txt_dec(u), "W": _txt_dec(W)}
    with prec(_PREC):
        q = (-ball(e)).exp()
        r, beta, T, lmax = _fl.mean_abs_setup(doc["found"], V, q)
        Vb = ball(V)
        stack, leaves = [(Fraction(0), Fraction(_dec(_frac(lmax.upper()), True)))], []
        while stack:
            l0, l1 = stack.pop()
            low = _fl.mean_abs_cell(ball(l0), ball(l1), Vb, r, beta, T)
            if low is None or low > Vb:
                leaves.append((l0, l1))
                continue
            if l1 - l0 < Fraction(1, 10 ** 12):
                raise ValueError(f"eps = {eps}: the lambda cell [{float(l0)}, {float(l1)}] cannot be proved")
            mid = Fraction(_dec((l0 + l1) / 2, False, 6))
            mid = mid if l0 < mid < l1 else (l0 + l1) / 2
            stack += [(mid, l1), (l0, mid)]
        leaves.sort()
        doc["cells"] = [_txt_dec(x) for x in [leaves[0][0]] + [b for _, b in leaves]]
        _claims(doc, V, q.sqrt() / (1 - q))
    return _finish(doc, t0)


def write_limits():
    r"""The limits as :math:`\varepsilon \to \infty` and Lemma F1's numbers (kind ``id_floor_limits``)."""
    from flint import arb

    from ..privacy.id_bounds import uniform_defect
    from ..privacy.id_mean_abs import F1_R, F1_SPLIT

    t0 = time.perf_counter()
    doc = _new("id_floor_limits", None)
    d = Fraction(_dec(float(uniform_defect(3, digits=15)), False, 8))
    doc["found"] = {"k": 3, "d": _txt_dec(d), "R": _txt(F1_R), "split": _txt(F1_SPLIT)}
    with prec(_PREC):
        pi, db = arb.pi(), ball(d)
        for name, v, digits in (("c_id", 1 / arb(4) + db / 2, 4), ("mean_abs_general", (1 + 2 * db).sqrt(), 5),
                                ("mean_abs_symmetric", 2 / pi.sqrt(), 6),
                                ("variance_symmetric", (6 / pi) ** (arb(1) / 3), 6)):
            doc["claim"][name] = _dec(_frac(v.lower()), False, digits)
    return _finish(doc, t0)


def build(out=None, *, progress=None):
    """The document of docs/data/floors.json (written to ``out`` when given)."""
    from ..privacy.id_bounds import GAP_EPS
    from ..privacy.id_variance import VARIANCE_GAP_EPS

    t0 = time.perf_counter()
    say = progress or (lambda s: None)

    def rows(label, eps_list, write, **extra):
        out_rows = []
        for e in eps_list:
            say(f"{label} eps {e}")
            out_rows.append({"eps": str(e), **extra, "certificate": write(e)})
        return out_rows

    doc = {"format": "arete-floors/1", "Delta": "1", "command": COMMAND,
           "about": "certified floors of infinitely divisible eps-DP noise against the Staircase (sensitivity 1; "
                    "the ratios hold for every sensitivity): docs/explanation/id-lower-bounds.md; re-check with "
                    "python -m arete_proofs.check docs/data/floors.json",
           "staircase_not_id": rows("Theorem A", NOT_ID_EPS, write_not_id, theorem="A"),
           "mean_abs": rows("Theorem C", GAP_EPS, write_general, theorem="C", noise="every ID noise",
                            holds="also for every larger eps (Corollary C')"),
           "mean_abs_symmetric": rows("Theorem F", MEAN_ABS_EPS, write_mean_abs, theorem="F",
                                      noise="every symmetric ID noise",
                                      holds="the ratio also for every larger eps (Corollary F4)"),
           "variance_symmetric": rows("Theorem E", VARIANCE_GAP_EPS, write_variance, theorem="E",
                                      noise="every symmetric ID noise")}
    doc["variance_symmetric_from"] = {"eps": "14", "theorem": "E", "noise": "every symmetric ID noise",
                                      "holds": "for every eps >= 14",
                                      "certificate": write_variance_range(14, progress=say)}
    say("limits")
    doc["limits"] = {"theorem": "Corollaries D, E3, F4; Lemma F1", "certificate": write_limits()}
    doc["seconds"] = round(time.perf_counter() - t0, 1)
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
    return doc


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(prog="python -m arete_proofs.certified.floor_certificates",
                                 description="Write docs/data/floors.json: the certificates of the floors of ID noise.")
    ap.add_argument("--out", required=True, metavar="PATH", help="the JSON file to write")
    a = ap.parse_args(argv)
    doc = build(a.out, progress=lambda s: print(s, file=sys.stderr, flush=True))
    print(f"wrote {a.out} ({doc['seconds']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
