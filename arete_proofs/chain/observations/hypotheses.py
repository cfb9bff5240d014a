r"""Hypotheses stated differently from what the proofs use: Lemmas 18 and 15, Claim 1.

* ``lemma-18-theta`` (Lemma 18): the statement assumes ``theta <= D_Gamma + 1``,
  the proof (Appendix C.3) and Lemma 19 use ``theta <= D_Gamma + Delta``
  (harmless: the literal lemma is true, by another argument);
* ``claim-1-t-plus-1`` (Claim 1, proof of Lemma 16, Appendix C.1): the
  denominator is written with ``t + 1`` instead of ``t + Delta`` (the literal
  claim fails for ``Delta < 1``);
* ``lemma-15-strict`` (Lemma 15): the proof writes ``lam < Delta/ln 2``, the
  statement ``lam <= Delta/ln 2`` (harmless: equality gives exactly 1/4).

Each literal variant is built from the registry's expressions and hypotheses.
"""

from __future__ import annotations

import math

import sympy as sp
from mpmath import mp

from ..registry import GAP, RATIO, REGISTRY, RHS_18, RHS_CLAIM_1
from ..symbols import (
    D_Gamma, D_u, Delta, alpha, eps, explicit, f_L, lam, numeric, shifted_conv, t, theta, working_digits,
)
from ._common import LN2, R, Observation, _point_str, _replace_hypothesis, _s, _violations_all, evaluate

__all__ = ["check_lemma_18_theta", "check_claim_1_t_plus_1", "check_lemma_15_strict", "lemma_19_excluded"]


# ---------------------------------------------------------------------------
# 2. Lemma 18: theta <= D_Gamma + 1
# ---------------------------------------------------------------------------

#: Lemma 17's gap hypothesis, which Lemma 18's proof derives from theta <= D_Gamma + Delta.
_GAP_17 = GAP >= 1 / (Delta + D_Gamma)


def _lemma_18_points(level="default"):
    """Points where the literal and the proof's hypothesis differ: D_Gamma + Delta < theta <= D_Gamma + 1."""
    deltas = [R(1, 20), R(1, 10), R(3, 10)]
    alphas = [sp.exp(-15), R(1, 100), R(1, 2), sp.Integer(1)]
    dgs = [R(1, 1000), R(1, 10)]
    if level == "quick":
        deltas, alphas, dgs = [R(1, 10)], [sp.exp(-15), R(1, 2)], [R(1, 1000)]
    blocks = []
    for Dl in deltas:
        for al in alphas:
            for dg in dgs:
                th = dg + 1                         # the literal hypothesis' largest theta
                lam_max = sp.Min(th / 2, Dl / LN2)
                for q in (1, R(1, 100)):
                    blocks.append({Delta: Dl, alpha: al, D_Gamma: dg, theta: th, lam: q * lam_max})
                if level != "quick":              # theta in the middle of the gap region
                    th2 = dg + (1 + Dl) / 2
                    blocks.append({Delta: Dl, alpha: al, D_Gamma: dg, theta: th2,
                                   lam: sp.Min(th2 / 2, Dl / LN2)})
    points = []
    for b in blocks:
        Dl, th = b[Delta], b[theta]
        ts = [-Dl / 2 + Dl / 10**6, -Dl / 4, 0, R(1, 10**12), R(1, 10**8), R(1, 10**4),
              Dl / 10, Dl / 2, Dl, th, 3 * th, 10 * th]
        if level == "quick":
            ts = [-Dl / 4, 0, R(1, 10**8), Dl]
        points += [{**b, t: tt} for tt in ts]
    return points


def _lemma_18_scan():
    """A wider float64 scan (:mod:`arete_proofs.distributions.fast`) of the literal-only region of Lemma 18.

    The parameters are exact (so the tightest point can be re-checked exactly);
    Lemma 18's bound is the registry's ``RHS_18`` compiled for scipy, the ratio
    ``fast.logpdf(t) - fast.logpdf(t + Delta)`` on 160 values of ``t`` in
    ``(-Delta/2, 10 theta]`` (log-spaced down to 1e-14 on both sides of 0).
    Returns the smallest ln(bound/ratio) with its exact point, and the number of
    parameter sets.
    """
    import numpy as np

    from ...distributions import fast

    log_rhs = sp.lambdify([alpha, theta, lam, Delta, D_Gamma], sp.log(explicit(RHS_18)),
                          modules=["scipy", "numpy"])
    best, n = None, 0
    for Dl in (R(1, 20), R(1, 10), R(3, 10)):
        for al in (sp.exp(-15), R(1, 1000), R(1, 10), sp.Integer(1)):
            for dg in (R(1, 1000), R(1, 20), sp.Integer(1)):
                for frac in (R(1, 20), sp.Integer(1)):  # theta just above D_Gamma + Delta, and D_Gamma + 1
                    th = dg + Dl + frac * (1 - Dl)
                    for q in (sp.Integer(1), R(1, 100)):
                        la = q * sp.Min(th / 2, Dl / LN2)
                        fDl, fal, fth, fla, fdg = (float(sp.N(v, 20)) for v in (Dl, al, th, la, dg))
                        ts = np.concatenate([[-fDl / 2 + fDl * 1e-6, 0.0],
                                             np.logspace(-14, math.log10(10 * fth), 120),
                                             -np.logspace(-14, math.log10(fDl / 2 * 0.999), 38)])
                        r = fast.logpdf(ts, fal, fth, fla) - fast.logpdf(ts + fDl, fal, fth, fla)
                        i = int(np.argmax(r))
                        m = float(log_rhs(fal, fth, fla, fDl, fdg) - r[i])
                        n += 1
                        if best is None or m < best[0]:
                            best = (m, {Delta: Dl, alpha: al, D_Gamma: dg, theta: th, lam: la,
                                        t: sp.Rational(float(ts[i]))})
    return best, n


def lemma_19_excluded(Dl, e) -> list:
    r"""Lemma 18's **literal** hypotheses that fail where Lemma 19 applies it, at :math:`\Delta` = ``Dl``, :math:`\varepsilon` = ``e``.

    The point is derived from the registry: Lemma 19's substitutions (:math:`\alpha = \lambda =
    e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`) composed with its instantiation of
    Lemma 18 (:math:`D_\Gamma = \alpha\theta`), at ``t = 0``.  The literal
    :math:`\theta \le D_\Gamma + 1` reads :math:`4\Delta(1 - e^{-\varepsilon/4})/\varepsilon \le 1`,
    which fails for :math:`\Delta` above about 7 at the threshold :math:`\varepsilon = 20 + 4\ln\Delta`.

    >>> import sympy as sp
    >>> lemma_19_excluded(10, 20 + 4 * sp.log(10)) == [theta <= D_Gamma + 1]
    True
    >>> lemma_19_excluded(5, 20 + 4 * sp.log(5))
    []
    """
    s18, s19 = REGISTRY["lemma-18"], REGISTRY["lemma-19"]
    literal_hyps = _replace_hypothesis(s18.hypotheses, theta <= D_Gamma + Delta, theta <= D_Gamma + 1)
    sub = dict(s19.substitutions)
    for sym, expr in s19.instantiates["lemma-18"].items():
        sub[sym] = sp.sympify(expr).subs(sub)
    base = {Delta: sp.sympify(Dl), eps: sp.sympify(e)}
    point = {sym: sp.sympify(v).subs(base) for sym, v in sub.items()}
    point.update({Delta: base[Delta], t: sp.Integer(0)})
    return _violations_all(s18, literal_hyps, [point])[0]


def _lemma_19_crossover(digits):
    """The Delta above which the literal Lemma 18 excludes Lemma 19's parameters at eps = 20 + 4 ln Delta,
    and, for Delta = 10 and 1000, the eps below which it excludes them (4 Delta (1 - e^{-eps/4}) = eps)."""
    with mp.workdps(digits + 10):
        def at_threshold(x):
            e = 20 + 4 * mp.log(x)
            return 4 * x * (1 - mp.exp(-e / 4)) / e - 1

        d_star = mp.findroot(at_threshold, 7)
        eps_c = {Dl: mp.findroot(lambda e: 4 * Dl * (1 - mp.exp(-e / 4)) - e, 4 * Dl) for Dl in (10, 1000)}
    return d_star, eps_c


def check_lemma_18_theta(digits: int = 20, *, level: str = "default") -> Observation:
    r"""Lemma 18 with its literal hypothesis :math:`\theta \le D_\Gamma + 1` (the proof uses :math:`+\Delta`).

    Tested where the two differ: :math:`\Delta < 1` and
    :math:`D_\Gamma + \Delta < \theta \le D_\Gamma + 1`, all other hypotheses of Lemma 18
    holding (checked exactly for every point), :math:`\lambda` at its limit
    :math:`\min(\theta/2, \Delta/\ln 2)` and 100 times smaller, ``t`` from just above
    :math:`-\Delta/2` through :math:`10^{-12}` to :math:`10\theta`.

    Besides the numbers, the literal statement is in fact true, by an argument the
    evidence spells out: where :math:`1/\lambda - 1/\theta \ge 1/(D_\Gamma + \Delta)`
    Lemmas 16 and 17 apply and their bounds at :math:`D_u = \alpha\theta` are below
    Lemma 18's by weighted AM-GM (no :math:`\theta \le D_\Gamma + \Delta` needed); where
    it fails, :math:`f_A(t)/f_A(t+\Delta) \le e^{\Delta/\lambda} < e^{1 + \Delta/\theta}
    < 8\ln 2\, e^{\Delta/\theta} \le` Lemma 18's bound.
    """
    s18 = REGISTRY["lemma-18"]
    literal_hyps = _replace_hypothesis(s18.hypotheses, theta <= D_Gamma + Delta, theta <= D_Gamma + 1)
    if _GAP_17 not in REGISTRY["lemma-17"].hypotheses:
        raise LookupError("Lemma 17's gap hypothesis changed in the registry")
    points = _lemma_18_points(level)
    for p, bad, proof_bad in zip(points, _violations_all(s18, literal_hyps, points),
                                 _violations_all(s18, s18.hypotheses, points)):
        if bad:
            raise AssertionError(f"grid point violates Lemma 18's literal hypotheses {bad}: {p}")
        if proof_bad != [theta <= D_Gamma + Delta]:
            raise AssertionError(f"grid point is not in the literal-only region: {p}")
    args = [t, Delta, alpha, D_Gamma, theta, lam]
    bound = s18.bounds[0]
    assert bound.lhs == RATIO and bound.rhs == RHS_18
    vals = evaluate(args, [bound.lhs, bound.rhs, sp.exp(Delta / lam), GAP, 1 / (Delta + D_Gamma)],
                    points, digits)
    worst = worst_gap_fail = None
    n_gap_fail = n_fail = 0
    laplace_ok = True
    with mp.workdps(digits + 10):
        for p, (ratio, rhs, e_dl, gap, need) in zip(points, vals):
            margin = rhs / ratio
            gap_fails = gap < need
            n_gap_fail += gap_fails
            n_fail += margin < 1
            laplace_ok &= ratio <= e_dl * (1 + mp.mpf(10) ** (-digits + 2))
            row = (margin, p, ratio, rhs, gap, need)
            if worst is None or margin < worst[0]:
                worst = row
            if gap_fails and (worst_gap_fail is None or margin < worst_gap_fail[0]):
                worst_gap_fail = row

    def show(row):
        margin, p, ratio, rhs, gap, need = row
        return {"point": _point_str(p), "ratio": _s(ratio, digits), "rhs_18": _s(rhs, digits),
                "rhs/ratio": _s(margin, 8), "gap_1/lam-1/theta": _s(gap, 10),
                "needed_1/(D_Gamma+Delta)": _s(need, 10)}

    # the second step of the proof that uses theta <= D_Gamma + Delta:
    # theta^alpha (D_u + D_Gamma + Delta)^(1 - alpha) < D_u + D_Gamma + Delta at D_u = alpha theta
    step = {Delta: R(1, 10), alpha: R(1, 2), D_Gamma: R(1, 1000), theta: R(1001, 1000)}
    Du = alpha * theta
    step_lhs = (theta**alpha * (Du + D_Gamma + Delta) ** (1 - alpha)).subs(step)
    step_rhs = (Du + D_Gamma + Delta).subs(step)
    gap_example = {k: v for k, v in worst_gap_fail[1].items() if k != t} if worst_gap_fail else {}
    scan = None
    if level != "quick":
        (m, pt), n_sets = _lemma_18_scan()
        bad = _violations_all(s18, literal_hyps, [pt])[0]
        if bad:
            raise AssertionError(f"scan point violates Lemma 18's literal hypotheses {bad}: {pt}")
        (ratio, rhs), = evaluate(args, [bound.lhs, bound.rhs], [pt], digits)
        with mp.workdps(digits + 10):
            scan = {"parameter_sets": n_sets, "t_per_set": 160,
                    "min_ln(rhs/ratio)_float64": f"{m:.6f}",
                    "point": _point_str(pt),
                    "engine_ratio": _s(ratio, digits), "engine_rhs_18": _s(rhs, digits),
                    "engine_rhs/ratio": _s(rhs / ratio, 8)}
            n_fail += rhs < ratio
    # the other direction (Delta > 1): the literal hypothesis is stronger and excludes Lemma 19's parameters
    d_star, eps_c = _lemma_19_crossover(digits)
    e10 = 20 + 4 * sp.log(10)
    excluded = {f"Delta={Dl}, eps={_s(e, 6)}": [str(h) for h in lemma_19_excluded(Dl, e)]
                for Dl, e in ((10, e10), (5, 20 + 4 * sp.log(5)), (10, 40), (1000, 80))}
    th10 = (4 * Delta / eps).subs({Delta: 10, eps: e10})
    dg10 = (sp.exp(-eps / 4) * 4 * Delta / eps).subs({Delta: 10, eps: e10})
    excludes_19 = {
        "claim": "at Lemma 19's parameters (alpha = lam = e^{-eps/4}, theta = 4 Delta/eps, D_Gamma = alpha theta) "
                 "the literal theta <= D_Gamma + 1 reads 4 Delta (1 - e^{-eps/4})/eps <= 1",
        "failing_literal_hypotheses": excluded,
        "Delta=10, eps=20+4ln10": {"eps": _s(e10, 6), "theta": _s(th10, 6), "D_Gamma + 1": _s(dg10 + 1, 8),
                                   "proof_hypothesis_theta <= D_Gamma + Delta": bool(th10 <= dg10 + 10)},
        "Delta_above_which_excluded_at_eps=20+4lnDelta": _s(d_star, 8),
        "Delta=10: excluded for eps below": _s(eps_c[10], 8),
        "Delta=1000: excluded for eps below": _s(eps_c[1000], 8),
    }
    if not lemma_19_excluded(10, e10) or lemma_19_excluded(5, 20 + 4 * sp.log(5)):
        raise AssertionError("Lemma 18's literal hypothesis and Lemma 19's parameters changed in the registry")
    evidence = {
        "literal_hypotheses": [str(h) for h in literal_hyps],
        "points": len(points),
        "excludes_lemma_19_parameters": excludes_19,
        "points_failing": n_fail,
        "points_where_lemma_17_gap_fails": n_gap_fail,
        "min_rhs_over_ratio": show(worst),
        "min_rhs_over_ratio_where_gap_fails": show(worst_gap_fail) if worst_gap_fail else None,
        "ratio_le_exp(Delta/lam)_everywhere": bool(laplace_ok),
        "float64_scan": scan,
        "proof_step_1": ("1/lam - 1/theta >= 1/(D_Gamma + Delta) (Lemma 17's hypothesis, which the proof "
                         "derives from lam <= theta/2 and theta <= D_Gamma + Delta) fails at "
                         f"{n_gap_fail} of {len(points)} points, e.g. {_point_str(gap_example)}"),
        "proof_step_2": {
            "claim": "theta^alpha (D_u + D_Gamma + Delta)^(1-alpha) < D_u + D_Gamma + Delta, D_u = alpha theta",
            "point": _point_str(step), "lhs": _s(step_lhs, 12), "rhs": _s(step_rhs, 12),
            "holds": bool(step_lhs < step_rhs),
        },
        "why_it_still_holds": (
            "Write D = D_Gamma + Delta, D_u = alpha theta, U = (alpha theta + D)/(alpha c_L lam), so that "
            "Lemma 18's bound is (e^{D/theta}/c_DGam) 2 e^alpha U.  (i) If 1/lam - 1/theta >= 1/D, Lemmas 16 "
            "and 17 apply.  Lemma 17's bound is (e^{D/theta}/c_DGam) (U + Gamma(alpha) theta^alpha "
            "D^{1-alpha}/(c_L lam)) <= (e^{D/theta}/c_DGam) 2U, since Gamma(alpha) <= 1/alpha and "
            "theta^alpha D^{1-alpha} <= alpha theta + (1 - alpha) D (weighted AM-GM).  In Lemma 16's bound "
            "the first term 1 + D/(alpha theta) = U c_L lam/theta <= U/8 (lam <= theta/2) and the second is "
            "<= (c_Du/2) e^alpha (theta/(alpha theta + D))^alpha U < e^{1/e} e^alpha U (c_Du < 2, "
            "(theta/(alpha theta + D))^alpha < alpha^-alpha <= e^{1/e}); 1/8 + 1.445 e^alpha < 2 e^alpha.  "
            "Neither step needs theta <= D_Gamma + Delta.  (ii) Otherwise 1/lam < 1/theta + 1/D, so "
            "Delta/lam < Delta/theta + 1 and the ratio, which never exceeds e^{Delta/lam} (f_L(x) <= "
            "e^{Delta/lam} f_L(x + Delta) inside the convolution), is < e e^{Delta/theta} < 8 ln(2) "
            "e^{Delta/theta} <= 8 (Delta/lam) e^{Delta/theta} <= Lemma 18's bound (Delta/lam >= ln 2, "
            "e^{D_Gamma/theta} e^alpha >= 1, alpha theta + D >= Delta, alpha <= 1, c_DGam <= 1)."),
    }
    fails = n_fail > 0
    return Observation(
        id="lemma-18-theta",
        statement="Lemma 18",
        literal="Assume 0 < alpha <= 1, theta <= D_Gamma + 1, lam <= min(theta/2, Delta/ln 2), "
                "Gamma(alpha) <= 1/alpha: f_A(t)/f_A(t+Delta) <= 2 e^{(D_Gamma+Delta)/theta} e^alpha "
                "(alpha theta + D_Gamma + Delta)/(alpha c_DGam c_L lam) for t > -Delta/2",
        verdict="fails" if fails else "harmless",
        holds_literal=not fails,
        detail=(
            "The proof (C.3) and Lemma 19 use theta <= D_Gamma + Delta; the statement says D_Gamma + 1. "
            "The two differ for Delta < 1 and D_Gamma + Delta < theta <= D_Gamma + 1.  There the proof breaks: "
            "with lam = theta/2, 1/lam - 1/theta = 1/theta < 1/(D_Gamma + Delta), so Lemma 17's hypothesis "
            "fails and Lemma 17 (and possibly 16) cannot be applied; the later simplification theta^alpha "
            "(D_u + D_Gamma + Delta)^(1-alpha) < D_u + D_Gamma + Delta fails too.  Numerically the literal "
            f"bound nevertheless holds at all {len(points)} tested points "
            f"({n_gap_fail} of them with the gap hypothesis failing) and in a float64 scan of "
            f"{scan['parameter_sets'] if scan else 0} further parameter sets; the bound exceeds the ratio by "
            f"at least a factor {_s(worst[0], 4)} (the tightest points have tiny alpha and D_Gamma, theta "
            "= D_Gamma + 1 and small lam; there the bound is about 16 times the ratio).  It is in fact true, "
            "by the two-case argument in the evidence.  So the wording "
            "is a harmless discrepancy: the stated lemma is correct but its proof only covers "
            "theta <= D_Gamma + Delta, which is all Lemma 19 needs.  In the other direction (Delta > 1) "
            "the literal hypothesis is the stronger one, and read literally Lemma 18 excludes Lemma 19's own "
            "parameters: there theta <= D_Gamma + 1 means 4 Delta (1 - e^{-eps/4})/eps <= 1, which fails at "
            f"the threshold eps = 20 + 4 ln Delta once Delta > {_s(d_star, 4)} (Delta = 10, eps = "
            f"{_s(e10, 4)}: theta = {_s(th10, 4)} > D_Gamma + 1 = {_s(dg10 + 1, 4)}; for Delta = 10 every "
            f"eps < {_s(eps_c[10], 4)} is excluded, for Delta = 1000 every eps < {_s(eps_c[1000], 5)}).  "
            "So Lemma 19 needs the proof's theta <= D_Gamma + Delta, which the registry checks."
            if not fails else
            f"The literal bound fails at {n_fail} points; see the evidence."),
        evidence=evidence,
    )


# ---------------------------------------------------------------------------
# 3. Claim 1: t + 1 in the denominator
# ---------------------------------------------------------------------------

def _literal_claim_1_lhs():
    """The registry's Claim 1 left side with shifted_conv(t + 1, ...) for shifted_conv(t + Delta, ...)."""
    lhs = REGISTRY["claim-1"].bounds[0].lhs
    literal = lhs.replace(
        lambda e: isinstance(e, shifted_conv),
        lambda e: e.func(e.args[0].subs(Delta, 1), *e.args[1:]),
    )
    if literal == lhs or not literal.has(shifted_conv(t + 1, D_Gamma, alpha, theta, lam)):
        raise LookupError("Claim 1's denominator is no longer shifted_conv(t + Delta, ...)")
    return literal


def _claim_1_points(level="default"):
    deltas = [R(1, 20), R(1, 10), R(3, 10), sp.Integer(10)]
    alphas = [sp.exp(-15), R(1, 100), R(1, 2), sp.Integer(1)]
    if level == "quick":
        deltas, alphas = [R(1, 10), sp.Integer(10)], [R(1, 100), R(1, 2)]
    points = []
    for Dl in deltas:
        for al in alphas:
            # (theta, D_Gamma, D_u): the registry grid's shape, and a small theta
            shapes = [(Dl, al * Dl, al * Dl), (R(1, 20), R(1, 100), R(1, 100))]
            for th, dg, du in shapes:
                lam_max = sp.Min(Dl / LN2, 1 / (1 / th + 1 / (dg + Dl + du)))
                for q in (1, R(1, 100)):
                    b = {Delta: Dl, alpha: al, theta: th, D_Gamma: dg, D_u: du, lam: q * lam_max}
                    ts = [du, 2 * du, Dl, 3 * Dl, 10 * th]
                    if du < Dl / 2:
                        ts += [-du, -Dl / 2]
                    points += [{**b, t: tt} for tt in sorted(set(ts), key=lambda v: float(v))]
    return points


def check_claim_1_t_plus_1(digits: int = 20, *, level: str = "default") -> Observation:
    r"""Claim 1 (proof of Lemma 16, C.1) with its literal denominator :math:`f_\Gamma(D_\Gamma + |t + 1 - x|)`.

    The claim's argument (Lemma 15 applied to the denominator) is for
    :math:`t + \Delta`.  For :math:`\Delta \ge 1` the literal denominator is
    larger (:math:`|t + 1| \le |t + \Delta|` for :math:`t \ge -\Delta/2` and the
    shifted convolution decreases in :math:`|s|`), so the literal claim is weaker
    and holds; for :math:`\Delta < 1` it is smaller by up to about
    :math:`e^{(1-\Delta)/\theta}` and the literal claim fails.
    """
    s = REGISTRY["claim-1"]
    bound = s.bounds[0]
    assert bound.rhs == RHS_CLAIM_1
    literal = _literal_claim_1_lhs()
    points = _claim_1_points(level)
    for p, bad in zip(points, _violations_all(s, s.hypotheses, points)):
        if bad:
            raise AssertionError(f"grid point violates Claim 1's hypotheses {bad}: {p}")
    args = [t, Delta, alpha, theta, lam, D_Gamma, D_u]
    vals = evaluate(args, [literal, bound.lhs, bound.rhs], points, digits)
    fails, holds_small, holds_large, worst_proof = [], 0, 0, None
    with mp.workdps(digits + 10):
        for p, (lit, proof, rhs) in zip(points, vals):
            if lit > rhs:
                fails.append((rhs / lit, p, lit, proof, rhs))
            elif p[Delta] < 1:
                holds_small += 1
            else:
                holds_large += 1
            m = rhs / proof
            if worst_proof is None or m < worst_proof[0]:
                worst_proof = (m, p)
    fails.sort(key=lambda r: r[0])
    n_small = sum(1 for p in points if p[Delta] < 1)
    n_large = len(points) - n_small

    def show(row):
        m, p, lit, proof, rhs = row
        return {"point": _point_str(p), "literal_lhs (t + 1)": _s(lit, digits),
                "proof_lhs (t + Delta)": _s(proof, digits), "rhs_claim_1": _s(rhs, digits),
                "literal_lhs/rhs": _s(1 / m, 8)}

    # a simple counterexample (rational parameters): Delta = 1/10, alpha = 1/2, theta = 1/20, t = D_u
    simple = next((r for r in fails if r[1][Delta] == R(1, 10) and r[1][alpha] == R(1, 2)
                   and r[1][theta] == R(1, 20) and r[1][t] == r[1][D_u]), fails[-1] if fails else None)
    evidence = {
        "literal_lhs": str(literal),
        "points": len(points),
        "fails_with_Delta_lt_1": f"{len(fails)} of {n_small}",
        "holds_with_Delta_gt_1": f"{holds_large} of {n_large}",
        "proof_version_min_rhs/lhs": _s(worst_proof[0], 8),
        "counterexample": show(simple) if simple else None,
        "largest_violation": show(fails[0]) if fails else None,
    }
    ok = not fails
    return Observation(
        id="claim-1-t-plus-1",
        statement="Claim 1 (Appendix C.1)",
        literal="int_{t-D_u}^{t+D_u} f_Gamma(|t-x|) f_L(x) dx / int f_Gamma(D_Gamma + |t + 1 - x|) f_L(x) dx "
                "<= c_Du Gamma(alpha) theta^alpha e^{(D_Gamma+D_u+Delta)/theta} (D_Gamma+Delta+D_u)^{1-alpha}"
                " / (2 lam c_L)",
        verdict="holds" if ok else "fails",
        holds_literal=ok,
        detail=(
            "The claim's denominator is written with t + 1; its proof (Lemma 15 in the denominator, "
            "|t + Delta| <= |t| + Delta) and Lemma 16, which uses it, have t + Delta.  Taken literally the "
            f"claim is false for Delta < 1: it fails at {len(fails)} of the {n_small} tested points with "
            "Delta < 1 (the denominator shrinks by about e^{(1 - Delta)/theta}, so the violations are "
            "largest for small theta), while the t + Delta version holds at every tested point (smallest "
            f"rhs/lhs {_s(worst_proof[0], 4)}).  For Delta >= 1 the literal denominator is larger "
            "(|t + 1| <= |t + Delta| for t >= -Delta/2, and the shifted convolution decreases in |s|), "
            f"so the literal claim is weaker and holds ({holds_large} of {n_large} points).  The proof "
            "chain is unaffected: Lemma 16 needs, and the proof gives, the t + Delta version, which is "
            "what the registry checks.  In effect a typo, but a literal reading is false."
            if not ok else "The literal claim held at every tested point."),
        evidence=evidence,
    )


# ---------------------------------------------------------------------------
# 4. Lemma 15: lam < Delta/ln 2 in the proof
# ---------------------------------------------------------------------------

def check_lemma_15_strict(digits: int = 20, *, level: str = "default") -> Observation:
    r"""Lemma 15 at the boundary :math:`\lambda = \Delta/\ln 2` (the proof writes :math:`<`).

    At :math:`\lambda = \Delta/\ln 2`, :math:`\int_0^\Delta f_L = \tfrac12(1 - e^{-\ln 2}) = 1/4`
    exactly, so :math:`c_L = 1/4` is still a valid lower bound (with equality);
    the strict inequality in the proof is not needed.
    """
    # exact: the Laplace mass of [0, Delta] at lam = Delta/ln 2
    x, D = sp.symbols("x D", positive=True)
    density = explicit(f_L(x, lam)).subs(lam, D / LN2)
    mass = sp.simplify(sp.integrate(density, (x, 0, D)))
    exact = mass == R(1, 4)
    # high precision: the same mass by quadrature at Delta = 1, 10
    hp = digits + 30
    fL = numeric([x, lam], f_L(x, lam))
    quad, quad_ok = {}, True
    with working_digits(hp):
        for Dl in (1, 10):
            q = mp.quad(lambda u: fL(u, mp.mpf(Dl) / mp.log(2)), [0, Dl])
            err = abs(q - mp.mpf(1) / 4)
            quad[f"Delta={Dl}"] = {"mass": mp.nstr(q, hp, strip_zeros=False),
                                   "|mass - 1/4|": _s(err, 3), "tolerance": f"1e-{hp - 5}"}
            quad_ok &= bool(err < mp.mpf(10) ** (-hp + 5))
    # Lemma 15's inequality (registry) at lam = Delta/ln 2
    s = REGISTRY["lemma-15"]
    bound = s.bounds[0]
    points = []
    deltas = [R(1, 10), 1, 10] if level != "quick" else [1]
    for Dl in deltas:
        for al in ([R(1, 100), R(1, 2), 1] if level != "quick" else [R(1, 2)]):
            th = Dl / 4
            b = {Delta: Dl, alpha: al, theta: th, D_Gamma: al * th, lam: Dl / LN2}
            points += [{**b, t: tt} for tt in (-Dl / 2, 0, Dl)]
    for p in points:
        bad = s.hypotheses_at(p)
        if bad:
            raise AssertionError(f"point violates Lemma 15's hypotheses {bad}: {p}")
    vals = evaluate([t, Delta, alpha, theta, D_Gamma, lam], [bound.lhs, bound.rhs], points, digits)
    with mp.workdps(digits + 10):
        margins = [rhs / lhs for lhs, rhs in vals]
        i = min(range(len(points)), key=lambda k: margins[k])
    holds = all(m >= 1 for m in margins)
    evidence = {
        "laplace_mass_exact": f"int_0^D f_L(x) dx at lam = D/ln 2 = {mass}",
        "laplace_mass_quadrature": quad,
        "lemma_15_points": len(points),
        "lemma_15_min_rhs/lhs": _s(margins[i], 10),
        "tightest_point": _point_str(points[i]),
        "tightest_sides": {"lhs": _s(vals[i][0], digits), "rhs f_A(t + Delta)": _s(vals[i][1], digits)},
    }
    ok = exact and quad_ok and holds
    return Observation(
        id="lemma-15-strict",
        statement="Lemma 15",
        literal="proof: int_0^Delta f_L(x) dx >= 1/4 for lam < Delta/ln(2) (statement: lam <= Delta/ln 2)",
        verdict="harmless" if ok else "fails",
        holds_literal=ok,
        detail=("The statement assumes lam <= Delta/ln 2, the proof's last inequality is written for "
                "lam < Delta/ln 2.  At the boundary the Laplace mass of [0, Delta] is (1 - e^{-ln 2})/2 = 1/4 "
                "exactly (sympy; quadrature to "
                f"{hp} digits), so 'int >= 1/4' holds with equality and c_L = 1/4 stays valid; the proof's "
                "own justification (the median of Exp(lam) is lam ln 2 <= Delta) already covers equality.  "
                f"Lemma 15's inequality holds at all {len(points)} tested points with lam = Delta/ln 2 "
                f"(smallest f_A(t + Delta)/lower bound {_s(margins[i], 6)}).  Harmless."),
        evidence=evidence,
    )
