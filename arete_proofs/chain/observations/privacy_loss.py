r"""Where the privacy loss ``sup_t ln f_A(t)/f_A(t + a)`` sits: Section 4.2 and Figures 3/4.

* ``section-4.2-reduction`` (Section 4.2, used in the proof of Lemma 3): the
  bound for all ``|a| <= Delta`` follows from ``a = Delta`` (holds; the
  substitution ``t' := |t| - a`` should be ``t' = -t - a``);
* ``figure-grid`` (Figures 3 and 4, Section 5): the maximum of the loss on the
  paper's 0.001 grid against a refined maximisation near ``t = 0`` (holds).
"""

from __future__ import annotations

import sympy as sp
from mpmath import mp

from ...distributions.params import FIGURE_4
from ..symbols import Delta, PAPER_PARAMETERS, a, alpha, eps, f_A, lam, t, theta
from ._common import R, Observation, _fA_values, _s, evaluate

__all__ = ["check_section_4_2_reduction", "check_figure_grid", "FIGURE_4_PARAMETERS"]


# ---------------------------------------------------------------------------
# 7. Section 4.2: reduction to a = Delta
# ---------------------------------------------------------------------------

def _paper_params(Dl, e):
    return [PAPER_PARAMETERS[k].subs({Delta: Dl, eps: e}) for k in (alpha, theta, lam)]


def check_section_4_2_reduction(digits: int = 20, *, level: str = "default") -> Observation:
    r"""Section 4.2: the bound for all :math:`|a| \le \Delta` follows from :math:`a = \Delta`.

    Checks, with the paper's parameters at :math:`\varepsilon \in \{20, 24\}`,
    :math:`\Delta \in \{1, 10\}`, on a symmetric ``t`` grid (tiny ``t`` included):
    :math:`\sup_t f_A(t)/f_A(t+a) \le \sup_t f_A(t)/f_A(t+\Delta)` for
    :math:`a \in \{\pm\Delta, \pm\Delta/2, \pm\Delta/10\}`, and pointwise
    :math:`f_A(t + a) \ge f_A(t + \Delta)` for :math:`0 < a \le \Delta`,
    :math:`t \ge -a/2`.  Then examines the substitution :math:`t' := |t| - a` for
    the case :math:`f(t) < f(t + a)`: the right one is :math:`t' = -t - a`.
    """
    cases = [(1, 20), (1, 24), (10, 20), (10, 24)] if level != "quick" else [(1, 20)]
    sup_ok = point_ok = True
    rows = {}
    n_pointwise = 0
    for Dl, e in cases:
        Dl, e = sp.sympify(Dl), sp.sympify(e)
        params = _paper_params(Dl, e)
        shifts = [Dl, -Dl, Dl / 2, -Dl / 2, Dl / 10, -Dl / 10]
        base = [0, R(1, 10**12), R(1, 10**6), Dl / 100, Dl / 20, Dl / 4, Dl / 2, 3 * Dl / 4, Dl, 2 * Dl,
                5 * Dl]
        if level == "quick":
            shifts, base = [Dl, -Dl, Dl / 2], [0, R(1, 10**6), Dl / 4, Dl / 2]
        ts = sorted({*base, *[-v for v in base]}, key=float)
        pts = [{t: tt, a: aa, **dict(zip((alpha, theta, lam), params))} for aa in shifts for tt in ts]
        vals = evaluate([t, a, alpha, theta, lam], [f_A(t, alpha, theta, lam), f_A(t + a, alpha, theta, lam),
                                                    f_A(t + Delta, alpha, theta, lam).subs(Delta, Dl)],
                        pts, digits)
        with mp.workdps(digits + 10):
            tol = 1 + mp.mpf(10) ** (-digits + 2)
            sup = {}
            for p, (f0, fa, fD) in zip(pts, vals):
                key = p[a]
                sup[key] = max(sup.get(key, mp.zero), f0 / fa)
                if p[a] > 0 and p[t] >= -p[a] / 2:
                    n_pointwise += 1
                    point_ok &= fa * tol >= fD
            case_ok = all(sup[aa] <= sup[Dl] * tol for aa in shifts)
            sup_ok &= case_ok
        rows[f"Delta={Dl}, eps={e}"] = {
            "max_ln_ratio_by_shift": {sp.sstr(k): _s(mp.log(v), 12) for k, v in sup.items()},
            "sup_le_sup_at_Delta": bool(case_ok),
        }
    # the substitution slip: t = 1, a = -3/2 (Delta = 10, eps = 20)
    Dl, e = sp.Integer(10), sp.Integer(20)
    params = _paper_params(Dl, e)
    tt, aa = sp.Integer(1), R(-3, 2)
    t_paper, t_right = abs(tt) - aa, -tt - aa
    need = [tt, tt + aa, t_paper, t_paper + aa, t_right, t_right + aa]
    pts = [{t: v, **dict(zip((alpha, theta, lam), params))} for v in need]
    fv = [row[0] for row in evaluate([t, alpha, theta, lam], [f_A(t, alpha, theta, lam)], pts, digits)]
    with mp.workdps(digits + 10):
        f_t, f_ta, f_p, f_pa, f_r, f_ra = fv
        slip = {
            "point": {"t": "1", "a": "-3/2", "Delta": "10", "eps": "20"},
            "f(t) < f(t+a)": bool(f_t < f_ta),
            "wanted f(t+a)/f(t)": _s(f_ta / f_t, 12),
            "paper t' = |t| - a": sp.sstr(t_paper),
            "paper f(t')/f(t'+a)": _s(f_p / f_pa, 12),
            "paper f(t') >= f(t'+a)": bool(f_p >= f_pa),
            "right t' = -t - a": sp.sstr(t_right),
            "right f(t')/f(t'+a)": _s(f_r / f_ra, 12),
        }
        slip_shown = (f_t < f_ta and f_p < f_pa and f_r >= f_ra
                      and mp.almosteq(f_r / f_ra, f_ta / f_t, mp.mpf(10) ** (-digits + 2)))
    evidence = {
        "cases": rows,
        "pointwise_f(t+a)>=f(t+Delta)_checked": n_pointwise,
        "pointwise_holds": bool(point_ok),
        "substitution_slip": slip,
        "slip_confirmed": bool(slip_shown),
    }
    ok = sup_ok and point_ok
    slip_paper, slip_wanted = slip["paper f(t')/f(t'+a)"], slip["wanted f(t+a)/f(t)"]
    return Observation(
        id="section-4.2-reduction",
        statement="Section 4.2 (before eq. (3)); used in the proof of Lemma 3 (Section 4.3)",
        literal="suppose w.l.o.g. f(t) >= f(t+a) (if this is not the case, substitute t' := |t| - a, such "
                "that f(t') >= f(t'+a)) ... f(t+a) >= f(t+Delta)",
        verdict="holds" if ok else "fails",
        holds_literal=ok,
        detail=(
            "The reduction is correct: for f(t) >= f(t+a) one has |t| <= |t+a|, so t >= -a/2 when a > 0, and "
            "|t + Delta| >= |t + a| gives f(t+a) >= f(t+Delta); negative a reduce to positive by symmetry "
            "(f(t)/f(t+a) = f(-t)/f(-t-a)).  Numerically sup_t f_A(t)/f_A(t+a) <= sup_t f_A(t)/f_A(t+Delta) "
            "for a in {+-Delta, +-Delta/2, +-Delta/10} and f_A(t+a) >= f_A(t+Delta) at "
            f"{n_pointwise} grid points with 0 < a <= Delta, t >= -a/2 (paper parameters, eps 20 and 24, "
            "Delta 1 and 10).  The substitution for the other case is slightly off: if f(t) < f(t+a) the "
            "quantity to bound is f(t+a)/f(t), which is f(t')/f(t'+a) for the reflection t' = -t - a "
            "(f(t') = f(t+a), f(t'+a) = f(-t) = f(t)).  t' = |t| - a coincides with it only for t <= 0; "
            "for t > 0 (then a < 0) it gives f(t + |a|)/f(t) < 1, and f(t') >= f(t'+a) fails: at t = 1, "
            "a = -3/2 the paper's t' = 5/2 gives f(5/2)/f(1) "
            f"= {slip_paper} while the needed ratio is f(1/2)/f(1) = "
            f"{slip_wanted}, which t' = -t - a = 1/2 reproduces.  The conclusion holds."),
        evidence=evidence,
    )


# ---------------------------------------------------------------------------
# 8. Figures 3 and 4: the 0.001 grid
# ---------------------------------------------------------------------------

#: The parameters of Figure 4 (:data:`arete_proofs.distributions.params.FIGURE_4`).
FIGURE_4_PARAMETERS = FIGURE_4


def _log_ratios(ts, params, digits, shift=1):
    """ln f_A(t) - ln f_A(t + shift) for every t (one batched engine call)."""
    with mp.workdps(digits + 10):
        ts = [mp.mpf(x) for x in ts]
        pts = ts + [x + shift for x in ts]
    v = _fA_values(pts, params, digits)
    n = len(ts)
    with mp.workdps(digits + 10):
        return [mp.log(v[i]) - mp.log(v[n + i]) for i in range(n)]


def _refine(params, digits, rounds=4):
    """Maximise ln f_A(t)/f_A(t+1) near t = 0: t = 0 and 10^-k (k = 3..12), extended to smaller t
    while the values still increase there, then bracketing rounds in log t around the best t > 0."""
    ks = list(range(3, 13))
    with mp.workdps(digits + 10):
        powers = [mp.mpf(10) ** -k for k in ks]
    vals = _log_ratios([mp.zero] + powers, params, digits)
    g0, pvals = vals[0], vals[1:]
    # the maximiser can sit far below 1e-12 (about (2 lam)^(1/(2 alpha))): follow the increase
    while pvals[-1] > pvals[-2] and ks[-1] < 60:
        more_k = list(range(ks[-1] + 4, ks[-1] + 16, 4))
        with mp.workdps(digits + 10):
            more = [mp.mpf(10) ** -k for k in more_k]
        ks += more_k
        powers += more
        pvals += _log_ratios(more, params, digits)
    evaluated = [(mp.zero, g0)] + list(zip(powers, pvals))
    j = max(range(len(powers)), key=lambda i: pvals[i])
    with mp.workdps(digits + 10):
        lo, hi = mp.log10(powers[j]) - 1, min(mp.log10(powers[j]) + 1, mp.log10(mp.mpf("0.5")))
    for _ in range(rounds):
        with mp.workdps(digits + 10):
            us = [lo + (hi - lo) * i / 8 for i in range(9)]
            ts = [mp.mpf(10) ** u for u in us]
        vs = _log_ratios(ts, params, digits)
        evaluated += list(zip(ts, vs))
        i = max(range(9), key=lambda m: vs[m])
        lo, hi = us[max(i - 1, 0)], us[min(i + 1, 8)]
    tbest, vbest = max(evaluated, key=lambda r: r[1])
    table = {f"1e-{k}": _s(v, 16) for k, v in zip(ks, pvals) if k <= 12}
    return tbest, vbest, table, len(evaluated), g0


def check_figure_grid(digits: int = 20, *, grid_digits: int = 15, sets=None,
                      half_width: int = 500) -> Observation:
    r"""Figures 3/4: the privacy loss on the paper's 0.001 grid versus a refined maximisation.

    For each Figure-4 parameter set (``FIGURE_4_PARAMETERS``, :math:`\Delta = 1`)
    computes :math:`\max_t \ln f_A(t)/f_A(t+1)` over the grid ``t = k/1000``,
    ``|k| <= half_width`` (all of :math:`[-0.5, 0.5]` by default, ``grid_digits``
    digits, one batched engine call), then a refined maximum near :math:`t = 0`
    (:math:`t = 10^{-k}`, :math:`k = 3..12`, extended downwards while still
    increasing, and four bracketing rounds in :math:`\log t`, at ``digits``).
    Verdict ``differs`` if a refined maximum exceeds the grid maximum by more
    than :math:`10^{-6}`.
    """
    sets = sorted(FIGURE_4_PARAMETERS) if sets is None else sets
    rows, worst = {}, mp.zero
    for e in sets:
        params = FIGURE_4_PARAMETERS[e]
        with mp.workdps(grid_digits + 10):
            ks = list(range(-half_width, half_width + 1))
            # the grid, exactly k/1000; |t| and |t + 1| share one engine call
            absval = sorted({abs(mp.mpf(k) / 1000) for k in ks} | {mp.mpf(k + 1000) / 1000 for k in ks})
        fv = dict(zip(absval, _fA_values(absval, params, grid_digits)))
        with mp.workdps(grid_digits + 10):
            lr = [(mp.log(fv[abs(mp.mpf(k) / 1000)]) - mp.log(fv[mp.mpf(k + 1000) / 1000]), k) for k in ks]
            gmax, kmax = max(lr)
        tref, vref, powers, nref, g0 = _refine(params, digits)
        with mp.workdps(digits + 10):
            diff = vref - gmax
            worst = max(worst, diff)
        rows[f"eps={e}"] = {
            "alpha, theta, lam": list(params),
            "grid_max_ln_ratio": _s(gmax, grid_digits),
            "grid_argmax_t": f"{kmax}/1000",
            "ln_ratio_at_t=0": _s(g0, digits),
            "refined_max_ln_ratio": _s(vref, digits),
            "refined_argmax_t": _s(tref, 6),
            "refined_minus_grid": _s(diff, 6),
            "at_t=10^-k": powers,
            "refinement_points": nref,
        }
    differs = worst > mp.mpf("1e-6")
    return Observation(
        id="figure-grid",
        statement="Figures 3 and 4 (Section 5 and Figure 3's caption)",
        literal="densities approximated by rounding the Gamma and Laplace values to a multiple of 0.001 "
                "and computing the discrete convolution; parameters empirically give eps = 6, 7, 8",
        verdict="differs" if differs else "holds",
        holds_literal=not differs,
        detail=(
            "With exact densities, the maximum of ln f_A(t)/f_A(t+1) over the 0.001 grid of [-0.5, 0.5] "
            f"(attained at t = {', '.join(r['grid_argmax_t'] for r in rows.values())}) and the maximum of a "
            "refined search near 0 (t = 10^-k and bracketing in log t) differ by at most "
            f"{_s(worst, 3)} for the parameter sets {', '.join(rows)}: the maximiser sits at tiny positive t "
            f"(refined argmax {', '.join(r['refined_argmax_t'] for r in rows.values())}; it scales like "
            "(2 lam)^{1/(2 alpha)}, far below 1e-12 for eps = 7, 8, where the excess over t = 0 is below "
            "the working precision), and the curve is so flat there that the grid value at t = 0 is within "
            "1e-6 of the supremum.  The grid maxima "
            f"{', '.join(r['grid_max_ln_ratio'][:7] for r in rows.values())} lie just below the targets: "
            "sampling the exact density on the 0.001 grid does not miss the worst case; the paper's discrete "
            "convolution itself is not re-run here."
            if not differs else
            f"A refined maximum exceeds the grid maximum by {_s(worst, 3)} (> 1e-6)."),
        evidence=rows,
    )
