r"""Lemma 3 with rates: the rate-optimal parameter rules, their constants and grids.

The paper's Lemma 3 spends a quarter of the budget on :math:`e^{(D_\Gamma+\Delta)/\theta}`
(:math:`\theta = 4\Delta/\varepsilon`).  With :math:`\theta = \Delta` and :math:`D_\Gamma = \alpha\theta`,
Lemma 18's bound (the paper's (8), registry ``RHS_8``) is

.. math::

    \frac{f_A(t)}{f_A(t+\Delta)} \le \frac{16\, e^{1+2\alpha}(1+2\alpha)\,\Delta}{\alpha\lambda},

so :math:`\alpha\lambda = C\Delta e^{-\varepsilon}` gives :math:`\varepsilon`-DP as soon as
:math:`16 e^{1+2\alpha}(1+2\alpha) \le C`.  Here :math:`C = 48` (the infimum over
:math:`\varepsilon_0` is :math:`16e = 43.49`), and the product is split to minimise

* :math:`E|Z| \le 2\alpha\theta + \lambda`: :math:`\alpha = 2\sqrt6 e^{-\varepsilon/2}`,
  :math:`\lambda = 4\sqrt6\Delta e^{-\varepsilon/2}`, :math:`E|Z| \le K_1\Delta e^{-\varepsilon/2}`,
  :math:`K_1 = 8\sqrt6 = 19.596`, for :math:`\varepsilon \ge \varepsilon_0 = 11`;
* :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2`: :math:`\alpha = 8\cdot3^{2/3}e^{-2\varepsilon/3}`,
  :math:`\lambda = 2\cdot 3^{1/3}\Delta e^{-\varepsilon/3}`, :math:`\operatorname{Var} Z \le K_2\Delta^2 e^{-2\varepsilon/3}`,
  :math:`K_2 = 24\cdot3^{2/3} = 49.92`, for :math:`\varepsilon \ge \varepsilon_0 = 10`.

The records (``lemma-3-mean-abs``, ``lemma-3-variance``) are built in
:mod:`arete_proofs.chain.registry` from :data:`RULES`; the algebra is proved in
``chain.symbolic.rates``.  :func:`arete_proofs.distributions.params.paper_parameters`
computes the same parameters in mpmath (``rule="mean_abs"`` / ``"variance"``).

>>> import sympy as sp
>>> r = RULES["mean_abs"]
>>> sp.simplify(r.substitutions[alpha] * r.substitutions[lam] - C_RATE * Delta * sp.exp(-eps))
0
>>> sp.simplify(RULES["variance"].bound - (2 * alpha * theta**2 + 2 * lam**2).subs(RULES["variance"].substitutions))
0
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from . import grids
from .symbols import Delta, a, alpha, eps, lam, t, theta

__all__ = ["RateRule", "RULES", "C_RATE", "CHAIN_FACTOR", "ALPHA_CAP", "K_MEAN", "K_VAR",
           "K_MEAN_INF", "K_VAR_INF", "grid", "rate_table", "table_markdown", "TABLE_EPS", "plot_rates"]

R = sp.Rational

#: The constant of both rules, alpha lambda = C_RATE Delta e^{-eps}.
C_RATE = sp.Integer(48)
#: Lemma 18's bound at theta = Delta, D_Gamma = alpha theta, c_DGam = 1/2, c_L = 1/4, times alpha lam/Delta.
CHAIN_FACTOR = 16 * sp.exp(1 + 2 * alpha) * (1 + 2 * alpha)
#: CHAIN_FACTOR <= C_RATE for alpha <= ALPHA_CAP (e^{43/41} (43/41) 16 = 47.89 <= 48).
ALPHA_CAP = R(1, 41)
K_MEAN = 8 * sp.sqrt(6)
K_VAR = 24 * 3 ** R(2, 3)
#: What the chain allows as eps_0 -> oo (C -> 16 e), 8 sqrt(2e) and 3 2^{1/3} (16 e)^{2/3}.
K_MEAN_INF = 8 * sp.sqrt(2 * sp.E)
K_VAR_INF = 3 * 2 ** R(1, 3) * (16 * sp.E) ** R(2, 3)


@dataclass(frozen=True)
class RateRule:
    r"""One rule of Lemma 3 with rates: its name, :math:`\varepsilon_0`, the parameters over
    :math:`(\varepsilon, \Delta)`, the error bound it proves and the Staircase's lower bound (Lemma 27).

    >>> r = RULES["variance"]
    >>> (r.eps_0, r.substitutions[theta], r.lower / r.bound == 2 ** sp.Rational(-2, 3) / K_VAR)
    (10, Delta, True)
    """

    name: str
    eps_0: sp.Integer
    substitutions: dict
    #: the bound on the error (E|Z| or Var Z) in closed form
    bound: sp.Expr
    #: the Staircase lower bound of the same error (Lemma 27, every eps > 0)
    lower: sp.Expr
    rate: str


#: The two rules, ``mean_abs`` and ``variance``, by name.
RULES = {
    "mean_abs": RateRule(
        "mean_abs", sp.Integer(11),
        {alpha: 2 * sp.sqrt(6) * sp.exp(-eps / 2), theta: Delta, lam: 4 * sp.sqrt(6) * Delta * sp.exp(-eps / 2)},
        K_MEAN * Delta * sp.exp(-eps / 2), Delta * sp.exp(-eps / 2), "e^{-eps/2}"),
    "variance": RateRule(
        "variance", sp.Integer(10),
        {alpha: 8 * 3 ** R(2, 3) * sp.exp(-2 * eps / 3), theta: Delta,
         lam: 2 * 3 ** R(1, 3) * Delta * sp.exp(-eps / 3)},
        K_VAR * Delta**2 * sp.exp(-2 * eps / 3), 2 ** R(-2, 3) * Delta**2 * sp.exp(-2 * eps / 3), "e^{-2eps/3}"),
}


def grid(rule: str):
    r"""The grid builder of the rule's record (Lemma 3 with rates): :math:`\Delta` from 1/100 to 100,
    :math:`\varepsilon \ge \varepsilon_0` (threshold included), t over the line, shifts :math:`|a| \le \Delta`.

    >>> pts = grid("mean_abs")("quick")
    >>> min(p[eps] for p in pts) == RULES["mean_abs"].eps_0 and all(abs(p[a]) <= p[Delta] for p in pts)
    True
    """
    e0 = RULES[rule].eps_0

    def build(level):
        Dls = grids._level(level, [1], [R(1, 100), 1, 10], [R(1, 100), R(1, 10), 1, 10, 100])
        epss = grids._level(level, [e0], [e0, 14, 20, 40], [e0, 12, 14, 17, 20, 30, 40, 60])
        blocks = [{Delta: Dl, eps: e} for Dl in Dls for e in epss]

        def local(b):
            Dl = b[Delta]
            shifts = grids._level(level, [Dl, -Dl], [Dl, -Dl, Dl / 2], [Dl, -Dl, Dl / 2, Dl / 10, -Dl / 3])
            ts = grids._near_zero_ts(level, Dl) + grids._tail_ts(level, Dl, Dl, Dl)
            ts += grids._level(level, [-Dl], [-2 * Dl, -Dl, -Dl / 2 - Dl / 1000],
                               [-2 * Dl, -10 * Dl, -Dl, -Dl / 2 - Dl / 1000])
            return [{t: tt, a: aa} for aa in shifts for tt in grids._unique(ts)]

        return grids._product(blocks, local)

    return build


#: The eps of the docs' table (docs/explanation/rates.md).
TABLE_EPS = (11, 12, 16, 20, 24, 30, 40)


def rate_table(eps_values=TABLE_EPS, *, digits=6):
    r"""Rows of E|Z| and Var Z against eps at :math:`\Delta = 1` (docs page *rates*, Lemma 3 with rates).

    Each row: ``eps``; Lemma 3's parameters: the bound :math:`2\alpha\theta + \lambda` and
    :math:`\operatorname{Var} Z = 2\alpha\theta^2 + 2\lambda^2`; the rule ``mean_abs``: exact
    :math:`E|Z|` (:func:`arete_proofs.distributions.arete.mean_abs`) and :math:`K_1 e^{-\varepsilon/2}`;
    the rule ``variance``: :math:`\operatorname{Var} Z = K_2 e^{-2\varepsilon/3}`; the Staircase at its
    optimal :math:`\gamma` (Lemma 27, :mod:`arete_proofs.distributions.staircase`).  Values are mpmath numbers
    rounded to ``digits`` significant digits by the caller.

    >>> row = rate_table([20])[0]
    >>> bool(row["sc_mean"] <= row["rate_mean"] <= row["rate_mean_bound"] < row["paper_mean_bound"])
    True
    """
    from mpmath import mp

    from ..distributions import arete, staircase
    from ..distributions.params import paper_parameters

    rows = []
    with mp.workdps(digits + 15):
        for e in eps_values:
            sub = {eps: sp.Integer(e), Delta: 1}
            al, th, la = paper_parameters(e, 1, digits=digits + 10)
            a1, t1, l1 = paper_parameters(e, 1, rule="mean_abs", digits=digits + 10)
            a2, t2, l2 = paper_parameters(e, 1, rule="variance", digits=digits + 10)
            rows.append({
                "eps": e,
                "paper_mean_bound": 2 * al * th + la,
                "paper_var": 2 * al * th**2 + 2 * la**2,
                "rate_mean": arete.mean_abs(a1, t1, l1, digits=digits + 5),
                "rate_mean_bound": mp.mpf(str(sp.N(RULES["mean_abs"].bound.subs(sub), digits + 10))),
                "rate_var": 2 * a2 * t2**2 + 2 * l2**2,
                "sc_mean": staircase.mean_abs(staircase.gamma_mean_abs(e, digits=digits + 10), 1, e,
                                              digits=digits + 5),
                "sc_var": staircase.var(staircase.gamma_var(e, digits=digits + 10), 1, e, digits=digits + 5),
            })
    return rows


def table_markdown(eps_values=TABLE_EPS, *, digits=4) -> str:
    r"""The table of :func:`rate_table` as the MyST markdown of docs/explanation/rates.md (Lemma 3 with rates).

    >>> table_markdown([20]).splitlines()[2].startswith("| 20 |")
    True
    """
    from mpmath import mp

    head = ("| eps | Lemma 3: 2 alpha theta + lam | mean_abs: E\\|Z\\| | 8 sqrt(6) e^{-eps/2} | Staircase E\\|X\\| "
            "| Lemma 3: Var Z | variance: Var Z = 24 3^{2/3} e^{-2eps/3} | Staircase Var X |")
    lines = [head, "|" + "---|" * 8]
    for r in rate_table(eps_values, digits=digits + 2):
        vals = [r[k] for k in ("paper_mean_bound", "rate_mean", "rate_mean_bound", "sc_mean", "paper_var",
                               "rate_var", "sc_var")]
        lines.append(f"| {r['eps']} | " + " | ".join(mp.nstr(v, digits) for v in vals) + " |")
    return "\n".join(lines)


def plot_rates(optimised=None, eps_values=tuple(range(11, 41)), *, pyplot=False):
    r"""The figure of docs/explanation/rates.md (Lemma 3 with rates): :math:`E|Z|` and :math:`\operatorname{Var} Z`
    against :math:`\varepsilon` (log scale) at :math:`\Delta = 1` for Lemma 3's parameters (its bounds
    :math:`2\alpha\theta+\lambda` and the exact variance), the rules ``mean_abs`` and ``variance``
    (exact values and the proved :math:`K_1 e^{-\varepsilon/2}`, :math:`K_2 e^{-2\varepsilon/3}`), the
    optimiser's rows (``optimised``: ``[(eps, mean_abs, variance)]``, e.g. from the committed
    ``docs/data/beyond.json``) and the Staircase, the floor of every :math:`\varepsilon`-DP noise.
    Returns the matplotlib figure (``pyplot=True``: through ``matplotlib.pyplot``, for the docs'
    plot directive).

    >>> rows = rate_table([12, 20])
    >>> all(r["sc_mean"] < r["rate_mean"] < r["paper_mean_bound"] for r in rows)   # the order the plot shows
    True
    """
    import matplotlib

    if pyplot:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(10, 4))
    else:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(10, 4))
    rows = rate_table(eps_values, digits=6)
    xs = [r["eps"] for r in rows]
    ax1, ax2 = fig.subplots(1, 2)
    ax1.semilogy(xs, [float(r["paper_mean_bound"]) for r in rows], "C3--", label="Lemma 3: 2 alpha theta + lam")
    ax1.semilogy(xs, [float(r["rate_mean_bound"]) for r in rows], "C0:", label="mean_abs: K_1 e^{-eps/2} (proved)")
    ax1.semilogy(xs, [float(r["rate_mean"]) for r in rows], "C0-", label="mean_abs: exact E|Z|")
    ax2.semilogy(xs, [float(r["paper_var"]) for r in rows], "C3--", label="Lemma 3: Var Z")
    ax2.semilogy(xs, [float(r["rate_var"]) for r in rows], "C0-", label="variance: Var Z = K_2 e^{-2eps/3}")
    if optimised:
        pts = [p for p in optimised if xs[0] <= p[0] <= xs[-1]]
        ax1.semilogy([p[0] for p in pts], [p[1] for p in pts], "C2o", ms=4, label="optimiser (min E|Z|)")
        ax2.semilogy([p[0] for p in pts], [p[2] for p in pts], "C2o", ms=4, label="optimiser's rows (their Var)")
    ax1.semilogy(xs, [float(r["sc_mean"]) for r in rows], "k-", lw=0.8, label="Staircase (floor)")
    ax2.semilogy(xs, [float(r["sc_var"]) for r in rows], "k-", lw=0.8, label="Staircase (floor)")
    for ax, name in ((ax1, "E|Z|"), (ax2, "Var Z")):
        ax.set_xlabel("eps (Delta = 1)")
        ax.set_ylabel(name)
        ax.legend(fontsize=7)
    del matplotlib
    return fig
