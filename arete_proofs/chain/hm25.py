r"""Harrison and Manurangsi (FORC 2025), the GDL statements, checked against the exact tight epsilon.

The paper's full text was not at hand: its statements were reconstructed from its abstract
(arXiv:2504.05202), the first author's writing about it and a third party's reading, so each
is a claim checked here on a grid built from its hypotheses, with a verdict and
counterexamples.  The exact tight epsilon is :func:`arete_proofs.privacy.tight_gdl.tight_epsilon`
(its docstring proves the reduction of every shift :math:`|s| \le \Delta` to :math:`s = \Delta`,
:math:`k \ge 0`, and the tail limit :math:`a\Delta`); each check also runs an independent brute
force over **every** shift and a window of :math:`k` (:func:`~arete_proofs.privacy.tight_gdl.brute_force`).
Statement ids start with ``hm25-``.

* ``hm25-gdl-sum`` -- :math:`\mathrm{GDL}(\beta_1, a) * \mathrm{GDL}(\beta_2, a) = \mathrm{GDL}(\beta_1+\beta_2, a)`.
* ``hm25-theorem-13`` -- for :math:`0 < \beta < 1` the worst-case loss is
  :math:`L = a\Delta + \ln[{}_2F_1(\beta,\beta;1;e^{-2a})/{}_2F_1(\beta,\beta+\Delta;1+\Delta;e^{-2a})
  \cdot\Gamma(\Delta+1)\Gamma(\beta)/\Gamma(\beta+\Delta)]`, and :math:`a\Delta` for :math:`\beta \ge 1`;
  the mechanism is :math:`\varepsilon`-DP **iff** :math:`\varepsilon \ge L` (the printed "eps <= L" is
  the wrong way round: at :math:`\varepsilon < L` the loss at :math:`k = 0` exceeds :math:`\varepsilon`).
* ``hm25-corollary-14`` -- :math:`L \le a\Delta + \ln(\Delta/\beta)` for :math:`\beta < 1`
  (beyond its hypothesis: holds for :math:`1 \le \beta \le \Delta`, fails for :math:`\beta > \Delta`).
* ``hm25-theorem-15`` -- :math:`\beta = \Delta e^{2-\varepsilon}`, :math:`a = 2/\Delta` is
  :math:`\varepsilon`-DP for :math:`\varepsilon > 2 + \ln\Delta` (then :math:`\beta < 1` and Corollary 14
  gives exactly :math:`\varepsilon`), with :math:`\operatorname{Var} \le (e^2/2)\Delta^3 e^{-\varepsilon}`
  (from :math:`\cosh x - 1 \ge x^2/2`).

The same statements are records of the proof-chain registry (:data:`arete_proofs.chain.registry.HM25_IDS`,
built from :mod:`arete_proofs.chain.hm25_records`), so ``arete verify --statement hm25-theorem-13`` checks
them like the 2022 paper's lemmas; :func:`registry_table` summarises that check.  The functions below
are the earlier, self-contained checks (their grids are decimal strings; the docs' tables come from them).

>>> r = check_theorem_13(grid=[("0.5", "0.7", 3)], digits=12)
>>> r.verdict, r.counterexamples[0]["L"]            # the literal "eps <= L" reading is refuted at eps = L/2
('holds', '3.2104')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mpmath import mp

from ..privacy import accounting_discrete, tight_gdl

__all__ = ["Record", "check_gdl_sum", "check_theorem_13", "check_corollary_14", "check_theorem_15", "check_all",
           "table", "eps_table", "registry_table", "EPS_ROWS", "GRID_13", "GRID_BEYOND", "GRID_15"]

#: Theorem 13's and Corollary 14's grid of (beta, a, Delta), all with beta < 1 (their hypothesis).
GRID_13 = list(dict.fromkeys([("0.5", "0.7", 3)] + [(b, a, D) for b in ("0.05", "0.3", "0.5", "0.9", "0.99")
                                                    for a in ("0.05", "0.7", "2") for D in (1, 2, 3, 10)]))
#: The grid beyond that hypothesis, all with beta >= 1 (Theorem 13's second case).
GRID_BEYOND = list(dict.fromkeys([("10", "1", 5), ("2", "1", 1)] + [(b, a, D) for b in ("1", "1.5", "2", "5", "10")
                                                                  for a in ("0.1", "1") for D in (1, 2, 5, 20)]))
#: Theorem 15's grid of (Delta, eps); points with eps <= 2 + ln Delta are refused by the check.
GRID_15 = list(dict.fromkeys([(1000, "9.008"), (10, "5")] + [(D, e) for D in (1, 2, 10, 100, 1000)
                                                           for e in ("2.5", "5", "9.008", "12", "20")]))


@dataclass
class Record:
    """A checked statement of the 2025 paper (e.g. Theorem 13): ``id``, ``statement``, ``verdict``
    (``holds``/``fails``), ``points`` checked, ``counterexamples`` (dicts of decimal strings), ``notes``.

    >>> check_corollary_14(grid=[("10", "1", 5)]).counterexamples[0]["exact"]   # beyond beta < 1: 5 > 5 + ln(1/2)
    '5.0'
    """

    id: str
    statement: str
    verdict: str
    points: int
    counterexamples: list = field(default_factory=list)
    notes: str = ""


def _s(x, n=6):
    return mp.nstr(x, n)


def check_gdl_sum(grid=(("0.3", "0.4", "1"), ("0.5", "0.5", "0.3"), ("1", "2", "0.7"), ("0.25", "1.75", "2")),
                  *, K=30, digits=20):
    r"""``hm25-gdl-sum``: :math:`\sum_j p_{\beta_1}(j)\,p_{\beta_2}(k-j) = p_{\beta_1+\beta_2}(k)` for :math:`|k| \le 5`.

    The convolution is summed over :math:`|j| \le J` with :math:`J` where both tails are below
    :math:`10^{-digits-5}` (each pmf at most its survival function), so the comparison is to ``digits``.

    >>> check_gdl_sum(grid=[("0.5", "0.5", "1")], digits=12).verdict
    'holds'
    """
    from ..distributions import gdl

    bad, n = [], 0
    for b1, b2, a in grid:
        with mp.workdps(digits + 15):
            J = 8
            while gdl.sf(J, b1, a, digits=6) + gdl.sf(J, b2, a, digits=6) > mp.mpf(10) ** (-digits - 8):
                J *= 2
            p1 = {j: gdl.pmf(j, b1, a, digits=digits + 10) for j in range(0, J + 6)}
            p2 = {j: gdl.pmf(j, b2, a, digits=digits + 10) for j in range(0, J + 6)}
            bs = mp.mpf(b1) + mp.mpf(b2)
            for k in range(-5, 6):
                conv = sum(p1[abs(j)] * p2[abs(k - j)] for j in range(-J, J + 1))
                direct = gdl.pmf(k, bs, a, digits=digits + 5)
                n += 1
                if abs(conv - direct) > direct * mp.mpf(10) ** (-digits):
                    bad.append({"beta1": b1, "beta2": b2, "a": a, "k": k, "conv": _s(conv, 12), "pmf": _s(direct, 12)})
    return Record("hm25-gdl-sum", "GDL(b1, a) * GDL(b2, a) = GDL(b1 + b2, a)", "fails" if bad else "holds", n, bad,
                  f"pmf convolution against the closed form at k = -5..5, to {digits} digits")


def check_theorem_13(grid=None, *, digits=15, brute=True, formula=None):
    r"""``hm25-theorem-13`` on ``grid`` (default :data:`GRID_13` and :data:`GRID_BEYOND`).

    For :math:`\beta < 1`: Theorem 13's value equals the exact tight epsilon and the brute force over
    every shift; at :math:`\varepsilon = L(1 - 10^{-6})` the loss at :math:`k=0` exceeds
    :math:`\varepsilon` (not DP), at :math:`\varepsilon = L` :math:`\delta = 0` (DP): "eps-DP iff eps >= L".
    For :math:`\beta \ge 1`: the value :math:`a\Delta` equals the exact tight epsilon (for
    :math:`\beta > 1` also checked against the loss far out, corrected by its asymptotics
    :math:`(\beta-1)\ln((k+\Delta)/k)`, at :math:`k = 10^6`), and the
    first case's formula (for contrast) is recorded where it understates.  ``formula``: a
    replacement of the closed form (to show that a wrong value is caught).  The counterexamples
    list the literal reading's failure ("eps <= L implies eps-DP": false at eps = L/2, where
    :math:`\delta > 0`) and the formula's understatement for :math:`\beta > 1`.

    >>> r = check_theorem_13(grid=[("0.5", "0.7", 3)], digits=12, formula=lambda b, a, D, d: tight_gdl.theorem13_value(b, a, D, digits=d) - mp.mpf("1e-3"))
    >>> r.verdict                                             # a value 1e-3 too small is caught
    'fails'
    """
    grid = list(GRID_13 + GRID_BEYOND) if grid is None else list(grid)
    formula = formula or (lambda b, a, D, d: tight_gdl.theorem13_value(b, a, D, digits=d))
    tol = mp.mpf(10) ** (-digits + 2)
    bad, notes, n = [], [], 0
    literal = None
    for b, a, D in grid:
        with mp.workdps(digits + 10):
            t = tight_gdl.tight_epsilon(b, a, D, digits=digits).epsilon
            claimed = formula(b, a, D, digits) if mp.mpf(b) < 1 else mp.mpf(a) * D
            n += 1
            if abs(claimed - t) > tol * max(1, abs(t)):
                bad.append({"beta": b, "a": a, "Delta": D, "claimed": _s(claimed, 10), "exact": _s(t, 10)})
                continue
            if brute and D <= 20:
                K = 3 * D + 10
                m, k, s = tight_gdl.brute_force(b, a, D, K, digits=digits)
                if m > t * (1 + tol):
                    bad.append({"beta": b, "a": a, "Delta": D, "brute_force": _s(m, 10), "exact": _s(t, 10), "k": k, "s": s})
            if mp.mpf(b) < 1:
                below = t * (1 - mp.mpf("1e-6"))
                if not tight_gdl.loss(0, D, b, a, digits=digits) > below:
                    bad.append({"beta": b, "a": a, "Delta": D, "direction": "loss at k = 0 not above eps = L(1 - 1e-6)"})
                if literal is None:
                    law = accounting_discrete.GDLLaw(b, a)
                    dl = accounting_discrete.hockey_stick(law, D, t / 2, digits=8)
                    literal = {"reading": "eps <= L implies eps-DP", "beta": b, "a": a, "Delta": D, "L": _s(t, 6),
                               "eps": _s(t / 2, 6), "delta(eps)": _s(dl, 6)}
            elif mp.mpf(b) > 1:
                # the tail limit, independently of the case split: L(k) + (beta-1) ln((k+D)/k) -> a D, O(1/k^2)
                kf = 10 ** 6
                lim = tight_gdl.loss(kf, D, b, a, digits=digits) + (mp.mpf(b) - 1) * mp.log(mp.mpf(kf + D) / kf)
                if abs(lim - t) > mp.mpf("1e-6") * max(1, t):
                    bad.append({"beta": b, "a": a, "Delta": D, "tail": _s(lim, 10), "exact": _s(t, 10)})
                f = tight_gdl.theorem13_value(b, a, D, digits=digits)
                notes.append((b, a, D, f, t))
    cex = ([literal] if literal else []) + [
        {"reading": "first-case formula for beta > 1", "beta": b, "a": a, "Delta": D, "formula": _s(f, 4), "exact": _s(t, 4)}
        for b, a, D, f, t in notes[:3]]
    return Record("hm25-theorem-13", "beta < 1: eps* = a Delta + ln[2F1(b,b;1;q^2)/2F1(b,b+D;1+D;q^2) G(D+1)G(b)/G(b+D)]; "
                  "beta >= 1: eps* = a Delta; eps-DP iff eps >= L", "fails" if bad else "holds", n,
                  bad if bad else cex,
                  "value exact and tight (attained at k = 0, s = Delta for beta < 1; tail limit for beta > 1); "
                  "the literal 'eps <= L' is false; the first-case formula understates for beta > 1")


def check_corollary_14(grid=None, *, digits=15, bound=None):
    r"""``hm25-corollary-14``: :math:`\varepsilon^* \le a\Delta + \ln(\Delta/\beta)` on ``grid`` (default: both grids).

    Under the hypothesis :math:`\beta < 1` a failure is a counterexample to the corollary; beyond it
    (:math:`\beta \ge 1`) the verdict is reported per region.  ``bound``: a replacement bound.

    >>> check_corollary_14(grid=[("0.5", "0.7", 3)], bound=lambda b, a, D: a * D).verdict   # a Delta alone is not a bound
    'fails'
    """
    grid = list(GRID_13 + GRID_BEYOND) if grid is None else list(grid)
    bound = bound or (lambda b, a, D: a * D + mp.log(D / b))
    bad, beyond, n = [], {"1 <= beta <= Delta": [0, 0], "beta > Delta": [0, 0]}, 0
    first_beyond = None
    for b, a, D in grid:
        with mp.workdps(digits + 10):
            t = tight_gdl.tight_epsilon(b, a, D, digits=digits).epsilon
            B = bound(mp.mpf(b), mp.mpf(a), D)
            ok = t <= B * (1 + mp.mpf(10) ** (-digits + 2))
            if mp.mpf(b) < 1:
                n += 1
                if not ok:
                    bad.append({"beta": b, "a": a, "Delta": D, "bound": _s(B, 8), "exact": _s(t, 8)})
            else:
                key = "1 <= beta <= Delta" if mp.mpf(b) <= D else "beta > Delta"
                beyond[key][0] += 1
                beyond[key][1] += 0 if ok else 1
                if not ok and first_beyond is None:
                    first_beyond = {"beyond hypothesis": key, "beta": b, "a": a, "Delta": D, "bound": _s(B, 4),
                                    "exact": _s(t, 4)}
    note = "; ".join(f"{k}: {v[0] - v[1]}/{v[0]} hold" for k, v in beyond.items() if v[0])
    return Record("hm25-corollary-14", "beta < 1: eps* <= a Delta + ln(Delta/beta)", "fails" if bad else "holds", n,
                  bad if bad else ([first_beyond] if first_beyond else []), "beyond beta < 1: " + note)


def check_theorem_15(grid=None, *, digits=15):
    r"""``hm25-theorem-15``: :math:`\beta = \Delta e^{2-\varepsilon}`, :math:`a = 2/\Delta` give :math:`\varepsilon^* \le \varepsilon` and :math:`\operatorname{Var} \le (e^2/2)\Delta^3 e^{-\varepsilon}` for :math:`\varepsilon > 2+\ln\Delta`.

    Each grid point asserts the hypothesis (points that violate it are refused, not checked).

    >>> r = check_theorem_15(grid=[(1000, "9.008")])
    >>> r.verdict, r.notes.split(" (")[0]
    ('holds', 'Delta=1000, eps=9.008: eps* = 2.22971')
    """
    grid = list(GRID_15) if grid is None else list(grid)
    bad, notes, n = [], [], 0
    for D, e in grid:
        with mp.workdps(digits + 10):
            E = mp.mpf(e)
            if not E > 2 + mp.log(D):
                continue
            b = D * mp.exp(2 - E)
            a = mp.mpf(2) / D
            t = tight_gdl.tight_epsilon(b, a, D, digits=digits).epsilon
            var = b / (mp.cosh(a) - 1)
            cap = mp.e ** 2 / 2 * mp.mpf(D) ** 3 * mp.exp(-E)
            n += 1
            if not (t <= E and var <= cap):
                bad.append({"Delta": D, "eps": e, "eps*": _s(t, 8), "var": _s(var, 6), "cap": _s(cap, 6)})
            if (D, e) in ((1000, "9.008"), (10, "5"), (1, "20")) and len(notes) < 3:
                notes.append(f"Delta={D}, eps={e}: eps* = {_s(t, 6)}")
    return Record("hm25-theorem-15", "eps > 2 + ln Delta, beta = Delta e^(2-eps), a = 2/Delta: eps-DP, "
                  "Var <= (e^2/2) Delta^3 e^-eps", "fails" if bad else "holds", n, bad,
                  "; ".join(notes) + " (Corollary 14's bound is loose for large Delta, nearly tight at Delta = 1)")


def check_all(*, digits=15):
    """All four records on the default grids (GDL sum, Theorem 13, Corollary 14, Theorem 15; about 10 s)."""
    return [check_gdl_sum(digits=min(digits, 20)), check_theorem_13(digits=digits),
            check_corollary_14(digits=digits), check_theorem_15(digits=digits)]


def table(records=None):
    """A markdown table of the records (Theorems 13, 15, Corollary 14; ``docs/explanation/hm25.md`` shows it).

    >>> print(table([check_theorem_15(grid=[(1000, "9.008")])]).splitlines()[2])
    | `hm25-theorem-15` | holds | 1 | Delta=1000, eps=9.008: eps* = 2.22971 (Corollary 14's bound is loose for large Delta, nearly tight at Delta = 1) |
    """
    records = check_all() if records is None else records
    rows = ["| statement | verdict | points | example |", "|---|---|---|---|"]
    for r in records:
        ex = r.counterexamples[0] if r.counterexamples else {}
        text = ", ".join(f"{k}={v}" for k, v in ex.items()) if ex else r.notes.split(";")[0]
        rows.append(f"| `{r.id}` | {r.verdict} | {r.points} | {text} |")
    return "\n".join(rows)


#: The parameter sets of the epsilon table of ``docs/explanation/hm25.md``.
EPS_ROWS = (("0.5", "0.7", 3), ("0.1", "1", 1), ("0.9", "0.1", 10), ("1", "1", 5), ("2", "1", 1), ("10", "1", 5))


def eps_table(rows=EPS_ROWS, *, digits=10):
    r"""Markdown: exact :math:`\varepsilon^*`, where it is attained, Theorem 13's closed form and Corollary 14's bound.

    >>> print(eps_table([("2", "1", 1)]).splitlines()[2])      # beta > 1: the closed form understates
    | 2 | 1 | 1 | 1.0 | no (tail limit a Delta) | 0.4337808305 | 0.3068528194 |
    """
    out = ["| beta | a | Delta | exact eps* | attained | Theorem 13 closed form | a Delta + ln(Delta/beta) |",
           "|---|---|---|---|---|---|---|"]
    for b, a, D in rows:
        r = tight_gdl.tight_epsilon(b, a, D, digits=digits + 2)
        f = tight_gdl.theorem13_value(b, a, D, digits=digits + 2)
        with mp.workdps(digits + 10):
            c = mp.mpf(a) * D + mp.log(mp.mpf(D) / mp.mpf(b))
        where = "k = 0" if r.attained else "no (tail limit a Delta)"
        out.append(f"| {b} | {a} | {D} | {_s(r.epsilon, digits)} | {where} | {_s(f, digits)} | {_s(c, digits)} |")
    return "\n".join(out)


def registry_table(level="quick", *, digits=20):
    r"""Markdown: the registry's check of the 2025 paper's records (:func:`arete_proofs.chain.verify.verify` over
    :data:`~arete_proofs.chain.registry.HM25_IDS`, Theorems 13 and 15, Corollary 14), one row per record with its paper.

    >>> print(registry_table("quick").splitlines()[4])
    | `hm25-corollary-14` | Corollary 14 (HM25) | Harrison & Manurangsi (FORC 2025), reconstructed | 16 | 0 | 0 | 0.000394 | bound: Delta=1, a_GDL=2, beta=9/10 |
    """
    from . import verify as V
    from .registry import HM25_IDS, REGISTRY

    rep = V.verify(list(HM25_IDS), level=level, digits=digits, progress=False)
    rows = ["| record | statement | paper | points | violations | tight | min slack | where |",
            "|---|---|---|---|---|---|---|---|"]
    for s in rep.statements:
        where = ", ".join(f"{k}={v}" for k, v in s.argmin.items() if k not in ("bound", "lhs", "rhs", "digits"))
        where = f"{s.argmin['bound']}: {where}" if s.argmin else "(equalities only)"
        slack = "inf" if s.min_slack == float("inf") else f"{s.min_slack:.3g}"
        rows.append(f"| `{s.id}` | {s.number} | {REGISTRY[s.id].paper} | {s.points} | {s.violations} | {s.tight} "
                    f"| {slack} | {where} |")
    return "\n".join(rows)


if __name__ == "__main__":  # pragma: no cover
    print(table())
    print()
    print(eps_table())
