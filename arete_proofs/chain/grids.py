r"""Grids of points for the statements of :mod:`arete_proofs.chain.registry`.

Each builder returns, for a level ``quick`` (the test suite), ``default``
(``arete verify``) or ``fine``, a list of points: dicts from the paper's symbols
to **exact** sympy numbers.  Points are built from the statement's hypotheses
(for example ``lam`` is a fraction ``q`` of the largest value the hypotheses
allow, with ``q = 1`` on the boundary), so that every point satisfies them;
:mod:`arete_proofs.chain.verify` asserts this before checking a point and treats a
violation as an error in the grid, never as a pass.

The grids span alpha from the paper's :math:`e^{-15}` to 1 (and beyond where a
statement allows it), several orders of magnitude of theta, lambda, Delta,
D_Gamma and D_u, and t from :math:`-\Delta/2` through tiny values near 0 to the
far tail.  Points that share their distribution parameters are consecutive, so
the engine evaluates them in one batch.

>>> pts = lemma_16("quick")
>>> from arete_proofs.chain.registry import REGISTRY
>>> all(not REGISTRY["lemma-16"].hypotheses_at(p) for p in pts)
True
"""

from __future__ import annotations

import sympy as sp

from .symbols import D_Gamma, D_u, Delta, a, alpha, eps, gamma_sc, h, kappa, lam, n, t, theta

__all__ = [
    "LEVELS", "lemma_2", "lemma_3", "corollary_5", "lemma_14", "lemma_15", "lemma_16", "claim_1",
    "lemma_17", "lemma_18", "note_2", "lemma_19", "lemma_26", "lemma_27", "lemma_28",
    "hm25_gdl_sum", "hm25_theorem_13", "hm25_corollary_14", "hm25_theorem_15",
]

LEVELS = ("quick", "default", "fine")

R = sp.Rational
E = sp.E
LN2 = sp.log(2)


def _level(level, quick, default, fine):
    if level not in LEVELS:
        raise ValueError(f"grid level must be one of {', '.join(LEVELS)}, got {level!r}")
    # exact sympy numbers only: a Python ``1 / 10`` would silently become a float
    return [sp.sympify(v) for v in {"quick": quick, "default": default, "fine": fine}[level]]


def _alphas_le1(level):
    """alpha in (0, 1], down to the paper's e^-15 (Lemma 3 at eps = 60)."""
    quick = [sp.exp(-15), R(1, 10), R(9, 10)]
    default = [sp.exp(-15), sp.exp(-5), R(1, 100), R(1, 10), R(1, 2), R(9, 10), 1]
    fine = default + [R(1, 10**4), R(1, 4), R(3, 4), R(99, 100)]
    return _level(level, quick, default, fine)


def _deltas(level, quick=(1,), default=(2 / E, 1, 10), fine=(R(1, 10), 2 / E, 1, 10, 100)):
    return list(_level(level, quick, default, fine))


def _unique(values):
    out = []
    for v in values:
        v = sp.nsimplify(v) if isinstance(v, float) else sp.sympify(v)
        if all(abs(sp.N(v - w, 60)) > sp.Float("1e-50") * (1 + abs(sp.N(v, 20))) for w in out):
            out.append(v)
    return out


def _product(blocks, local):
    """Points: for each parameter block (dict), every local dict (from ``local(block)``)."""
    points = []
    for block in blocks:
        for loc in local(block):
            p = dict(block)
            p.update(loc)
            points.append(p)
    return points


def _tail_ts(level, Dl, th, lo):
    """t values from ``lo`` upwards: tiny, moderate and far-tail points."""
    quick = [lo, Dl / 2, 3 * Dl, 30 * th]
    default = [lo, lo + R(1, 10**12), Dl / 10, Dl / 2, Dl, 3 * Dl, 10 * Dl, 30 * th]
    fine = default + [lo + R(1, 10**8), Dl / 100, 2 * Dl, 100 * th]
    return _unique(v for v in _level(level, quick, default, fine) if v >= lo)


def _near_zero_ts(level, Dl):
    """t values in (-Delta/2, Delta): the region where the maximiser of the ratio sits."""
    quick = [-Dl / 2 + Dl / 1000, 0, R(1, 10**8), Dl / 10]
    default = [-Dl / 2 + Dl / 1000, -Dl / 4, -Dl / 100, 0, R(1, 10**12), R(1, 10**8),
               R(1, 10**4) * Dl, Dl / 100, Dl / 10]
    fine = default + [-Dl / 2 + Dl / 10**6, R(1, 10**15), R(1, 10**6) * Dl, Dl / 3]
    return _level(level, quick, default, fine)


# ---------------------------------------------------------------------------
# Section 1: Lemmas 2 and 3
# ---------------------------------------------------------------------------

def lemma_2(level):
    """Monotone decrease: alpha > 0 (also > 1), t >= 0, steps h from 1e-6 theta to 2 theta."""
    alphas = _level(level, [sp.exp(-15), R(1, 2), R(5, 2)],
                    [sp.exp(-15), sp.exp(-5), R(1, 100), R(1, 2), R(9, 10), 1, R(5, 2), 10],
                    [sp.exp(-15), sp.exp(-5), R(1, 100), R(1, 10), R(1, 2), R(9, 10), 1,
                     R(3, 2), R(5, 2), 10])
    shapes = _level(level, [(1, R(1, 10)), (R(1, 5), sp.exp(-5))],
                    [(1, R(1, 10)), (R(1, 5), sp.exp(-5)), (1, 10)],
                    [(1, R(1, 10)), (R(1, 5), sp.exp(-5)), (1, 10), (100, R(1, 1000)), (1, 1)])
    blocks = [{alpha: al, theta: th, lam: la} for al in alphas for th, la in shapes]

    def local(b):
        th = b[theta]
        ts = _level(level, [0, R(1, 10**6) * th, th, 10 * th],
                    [0, R(1, 10**10) * th, R(1, 10**6) * th, R(1, 1000) * th, th / 10, th, 10 * th, 40 * th],
                    [0, R(1, 10**14) * th, R(1, 10**10) * th, R(1, 10**6) * th, R(1, 1000) * th,
                     th / 10, th / 2, th, 3 * th, 10 * th, 40 * th])
        hs = _level(level, [R(1, 10**3) * th, 2 * th], [R(1, 10**6) * th, th / 10, 2 * th],
                    [R(1, 10**9) * th, R(1, 10**6) * th, th / 10, th, 2 * th])
        return [{t: tt, h: hh} for tt in ts for hh in hs]

    return _product(blocks, local)


#: Delta of the fine grid of Lemma 3 and Corollary 5: their hypothesis is Delta >= 2/e.
_PAPER_FINE_DELTAS = (2 / E, 1, 10, 100)


def _paper_eps(level, Dl, values):
    """eps values >= the threshold 20 + 4 ln Delta of Lemmas 3 and 19 (threshold included)."""
    lo = 20 + 4 * sp.log(Dl)
    return _unique([lo] + [e for e in values if e >= lo])


def lemma_3(level):
    """Paper parameters (eps, Delta), shifts ``|a| <= Delta``, t over the whole line."""
    Dls = _deltas(level, fine=_PAPER_FINE_DELTAS)
    eps_values = _level(level, [40], [24, 40, 60], [22, 24, 30, 40, 50, 60])
    blocks = [{Delta: Dl, eps: e} for Dl in Dls for e in _paper_eps(level, Dl, eps_values)]

    def local(b):
        Dl, e = b[Delta], b[eps]
        th = 4 * Dl / e
        # both signs of the shift at every level: with a = +Delta only the lower bound is vacuous
        shifts = _level(level, [Dl, -Dl], [Dl, -Dl, Dl / 2], [Dl, -Dl, Dl / 2, Dl / 10, -Dl / 3])
        ts = _near_zero_ts(level, Dl) + _tail_ts(level, Dl, th, Dl)
        ts += _level(level, [-Dl], [-2 * Dl, -Dl, -Dl / 2 - Dl / 1000], [-2 * Dl, -10 * Dl, -Dl, -Dl / 2 - Dl / 1000])
        return [{t: tt, a: aa} for aa in shifts for tt in _unique(ts)]

    return _product(blocks, local)


def corollary_5(level):
    """The paper's parameters at (Delta, eps) from the threshold 20 + 4 ln Delta to 60."""
    Dls = _deltas(level, fine=_PAPER_FINE_DELTAS)
    eps_values = _level(level, [40], [24, 40, 60], [22, 24, 30, 40, 50, 60])
    return [{Delta: Dl, eps: e} for Dl in Dls for e in _paper_eps(level, Dl, eps_values)]


# ---------------------------------------------------------------------------
# Section 4.1 and 4.2
# ---------------------------------------------------------------------------

def lemma_14(level):
    """alpha in (0, 1], D_Gamma from 1e-3 theta to 10 theta, t of both signs (not 0)."""
    thetas = _level(level, [1], [1, R(1, 100), 100], [1, R(1, 100), 100, R(1, 10**4)])
    blocks = []
    for al in _alphas_le1(level):
        for th in thetas:
            # D_Gamma well below alpha theta too: there c_DGam is small and the lower bound needs it
            dgs = _level(level, [al * th, al * th / 100], [al * th, al * th / 100, th / 1000, th, 10 * th],
                         [al * th, al * th / 100, al * th / 10**6, th / 1000, th / 10, th, 10 * th])
            blocks += [{alpha: al, theta: th, D_Gamma: dg} for dg in _unique(dgs)]

    def local(b):
        th = b[theta]
        ts = _level(level, [R(1, 10**8) * th, th, -10 * th],
                    [R(1, 10**8) * th, -R(1, 10**8) * th, R(1, 1000) * th, th / 10, th, -th, 10 * th, 100 * th],
                    [R(1, 10**12) * th, R(1, 10**8) * th, -R(1, 10**8) * th, R(1, 1000) * th, th / 10,
                     th, -th, 3 * th, 10 * th, 100 * th, 500 * th])
        return [{t: tt} for tt in ts]

    return _product(blocks, local)


def _lam_fractions(level):
    """lam = q * (largest lam the hypotheses allow); q = 1 is the boundary."""
    return _level(level, [1, R(1, 100)], [1, R(1, 100)], [1, R(1, 2), R(1, 10), R(1, 10**4), R(1, 10**8)])


def lemma_15(level):
    """lam up to Delta/ln 2 (the boundary included), t >= -Delta/2."""
    blocks = []
    for Dl in _deltas(level, default=(R(1, 10), 1, 10)):
        for al in _alphas_le1(level):
            for th in _level(level, [Dl], [Dl / 4, 10 * Dl], [Dl / 100, Dl / 4, Dl, 10 * Dl]):
                for dg in _unique(_level(level, [al * th], [al * th], [al * th, th / 100, th])):
                    for q in _lam_fractions(level):
                        blocks.append({Delta: Dl, alpha: al, theta: th, D_Gamma: dg, lam: q * Dl / LN2})

    def local(b):
        Dl, th = b[Delta], b[theta]
        ts = _level(level, [-Dl / 2, 0, 3 * Dl], [-Dl / 2, -Dl / 4, 0, Dl / 10, Dl, 5 * Dl, 30 * th],
                    [-Dl / 2, -Dl / 4, 0, R(1, 10**8), Dl / 10, Dl, 5 * Dl, 30 * th, 100 * th])
        return [{t: tt} for tt in _unique(ts)]

    return _product(blocks, local)


def _chain_blocks(level, gap_denominator):
    """Parameter blocks for Lemmas 16, 17 and Claim 1.

    ``gap_denominator(block)`` is the D in the hypothesis 1/lam - 1/theta >= 1/D;
    lam is q times min(Delta/ln 2, 1/(1/theta + 1/D)).
    """
    blocks = []
    for Dl in _deltas(level):
        for al in _alphas_le1(level):
            shapes = _level(level, [(Dl, al * Dl, al * Dl)],
                            [(Dl, al * Dl, al * Dl), (10 * Dl, al * 10 * Dl, Dl)],
                            [(Dl, al * Dl, al * Dl), (Dl / 10, Dl / 10, Dl / 10), (10 * Dl, al * 10 * Dl, Dl),
                             (Dl / 100, Dl / 1000, Dl / 4), (Dl, Dl, R(1, 10**6) * Dl)])
            for th, dg, du in shapes:
                b = {Delta: Dl, alpha: al, theta: th, D_Gamma: dg, D_u: du}
                D = gap_denominator(b)
                lam_max = sp.Min(Dl / LN2, 1 / (1 / th + 1 / D))
                for q in _lam_fractions(level):
                    blocks.append({**b, lam: q * lam_max})
    return blocks


def _far_ts(level, b, strict):
    """t with ``|t| >= D_u`` and t > -Delta/2 (t >= -Delta/2 when not ``strict``)."""
    Dl, du, th = b[Delta], b[D_u], b[theta]
    ts = [v for v in _tail_ts(level, Dl, th, du)]
    if du < Dl / 2:
        lo = -Dl / 2 if not strict else -Dl / 2 + (Dl / 2 - du) / 1000
        ts += [-du, lo] + _level(level, [], [(lo - du) / 2], [(lo - du) / 2, -du - R(1, 10**9) * Dl])
    return _unique(ts)


def lemma_16(level):
    """``|t| >= D_u`` on both sides of 0, lam up to its hypothesis boundary."""
    blocks = _chain_blocks(level, lambda b: b[D_u] + b[Delta] + b[D_Gamma])
    return _product(blocks, lambda b: [{t: tt} for tt in _far_ts(level, b, strict=True)])


def claim_1(level):
    """As Lemma 16, with t = -Delta/2 allowed (``|t| <= |t + Delta|``)."""
    blocks = _chain_blocks(level, lambda b: b[D_Gamma] + b[Delta] + b[D_u])
    return _product(blocks, lambda b: [{t: tt} for tt in _far_ts(level, b, strict=False)])


def lemma_17(level):
    """``|t| <= D_u``, t > -Delta/2: 0, tiny t, D_u itself and negative t."""
    blocks = _chain_blocks(level, lambda b: b[Delta] + b[D_Gamma])

    def local(b):
        Dl, du = b[Delta], b[D_u]
        neg = -sp.Min(du, Dl / 2 * (1 - R(1, 1000)))
        ts = _level(level, [0, du / 2, du, neg], [0, R(1, 10**12) * du, R(1, 10**6) * du, du / 10, du / 2, du, neg / 2, neg],
                    [0, R(1, 10**15) * du, R(1, 10**12) * du, R(1, 10**6) * du, du / 10, du / 2, du, neg / 10, neg / 2, neg])
        return [{t: tt} for tt in _unique(ts)]

    return _product(blocks, local)


def lemma_18(level):
    """theta <= D_Gamma + Delta (with equality), lam <= min(theta/2, Delta/ln 2), every t > -Delta/2."""
    blocks = []
    for Dl in _deltas(level):
        for al in _alphas_le1(level):
            shapes = _level(level, [(Dl / 2, al * Dl / 2)],
                            [(Dl / 2, al * Dl / 2), (2 * Dl, Dl)],
                            [(Dl / 2, al * Dl / 2), (Dl / 10, Dl / 10), (2 * Dl, Dl), (Dl, al * Dl),
                             (Dl / 1000, al * Dl / 1000), (Dl / (1 - al / 2) if al < 1 else Dl, al * Dl)])
            for th, dg in shapes:
                lam_max = sp.Min(th / 2, Dl / LN2)
                for q in _lam_fractions(level):
                    blocks.append({Delta: Dl, alpha: al, theta: th, D_Gamma: dg, lam: q * lam_max})

    def local(b):
        Dl, th = b[Delta], b[theta]
        ts = _near_zero_ts(level, Dl) + [b[alpha] * th] + _tail_ts(level, Dl, th, Dl)
        return [{t: tt} for tt in _unique(ts)]

    return _product(blocks, local)


def note_2(level):
    """alpha in (0, 1] (down to 1e-12), n from 1e-3 to 1e6 (the paper says any n > 0)."""
    alphas = _level(level, [R(1, 10**6), R(1, 2), 1],
                    [R(1, 10**12), sp.exp(-15), R(1, 1000), R(1, 10), R(1, 2), R(9, 10), R(999, 1000), 1],
                    [R(1, 10**12), sp.exp(-15), R(1, 10**4), R(1, 1000), R(1, 100), R(1, 10), R(1, 4),
                     R(1, 2), R(3, 4), R(9, 10), R(999, 1000), 1])
    ns = _level(level, [1, 10], [R(1, 1000), R(1, 10), 1, 2, 10, 10**6],
                [R(1, 10**6), R(1, 1000), R(1, 10), R(1, 2), 1, 2, 3, 10, 100, 10**6])
    return [{alpha: al, n: nn} for al in alphas for nn in ns]


def lemma_19(level):
    """The paper's parameters at eps from the threshold 20 + 4 ln Delta to 60, t over the line."""
    Dls = _deltas(level, default=(2 / E, 1, 10), fine=(2 / E, 1, 10, 100))
    eps_values = _level(level, [40], [24, 30, 40, 60], [22, 24, 27, 30, 35, 40, 50, 60])
    blocks = [{Delta: Dl, eps: e} for Dl in Dls for e in _paper_eps(level, Dl, eps_values)]

    def local(b):
        Dl, e = b[Delta], b[eps]
        ts = _near_zero_ts(level, Dl) + _tail_ts(level, Dl, 4 * Dl / e, Dl)
        # t near -Delta: the lower bound f_A(t)/f_A(t + Delta) >= e^-eps binds there
        ts += _level(level, [-3 * Dl, -Dl], [-3 * Dl, -Dl / 2, -Dl, -Dl - Dl / 1000, -Dl + Dl / 1000],
                     [-3 * Dl, -Dl, -Dl / 2, -Dl - Dl / 10**6, -Dl + Dl / 10**6, -Dl - Dl / 1000, -Dl + Dl / 1000])
        return [{t: tt} for tt in _unique(ts)]

    return _product(blocks, local)


# ---------------------------------------------------------------------------
# Appendix B and C
# ---------------------------------------------------------------------------

def lemma_26(level):
    """Laplace with lam = Delta/eps: shifts ``|a| <= Delta``, t on both sides (equality for t >= 0, a = Delta)."""
    epss = _level(level, [1], [R(1, 10), 1, 10, 60], [R(1, 100), R(1, 10), 1, 5, 10, 30, 60])
    blocks = [{eps: e, Delta: Dl} for e in epss for Dl in _deltas(level, quick=(1,), default=(R(1, 10), 1, 10))]

    def local(b):
        Dl = b[Delta]
        shifts = _level(level, [Dl, -Dl], [Dl, -Dl, Dl / 3], [Dl, -Dl, Dl / 3, -Dl / 7])
        ts = _level(level, [-2 * Dl, 0, Dl], [-2 * Dl, -Dl / 2, 0, Dl / 3, 5 * Dl],
                    [-7 * Dl, -2 * Dl, -Dl / 2, -Dl / 5, 0, Dl / 3, 5 * Dl, 50 * Dl])
        return [{t: tt, a: aa} for aa in shifts for tt in ts]

    return _product(blocks, local)


def lemma_27(level):
    """Staircase: gamma in [0, 1] (0, the E|X|-optimal gamma, 1/2, 1), t on the steps and next to each jump;
    eps from 1/100 to 80 (fine: 200) for the errors at the optimal gamma."""
    epss = _level(level, [2], [R(1, 10), 1, 5, 20], [R(1, 10), 1, 3, 5, 10, 20, 40])
    blocks = []
    for e in epss:
        for Dl in _deltas(level, quick=(1,), default=(1, 10), fine=(R(1, 10), 1, 10)):
            gammas = _level(level, [R(1, 2)], [0, 1 / (1 + sp.exp(e / 2)), R(1, 2), 1],
                            [0, 1 / (1 + sp.exp(e / 2)), R(1, 4), R(1, 2), R(3, 4), 1])
            blocks += [{eps: e, Delta: Dl, gamma_sc: g} for g in _unique(gammas)]

    def local(b):
        Dl, g = b[Delta], b[gamma_sc]
        shifts = _level(level, [Dl, -Dl], [Dl, -Dl, g * Dl, Dl / 2],
                        [Dl, -Dl, g * Dl, Dl / 2, (1 - g) * Dl, -Dl / 3])
        # f_SC jumps at |t| = (k + gamma) Delta: a point exactly on a jump is ill-posed in
        # floating point (t and t + a may round to different sides), so the grid takes
        # points a relative 1e-12 below and above each jump instead
        off = R(1, 10**12) * Dl
        jumps = _level(level, [g * Dl], [g * Dl, Dl, Dl + g * Dl, -g * Dl],
                       [g * Dl, Dl, Dl + g * Dl, -g * Dl, -Dl, 3 * Dl + g * Dl])
        ts = _level(level, [0, -Dl / 2], [0, g * Dl / 2, -Dl / 2, 3 * Dl + Dl / 2],
                    [0, g * Dl / 2, (1 + g) * Dl / 2, -Dl / 2, 7 * Dl + Dl / 3])
        ts += [j + s for j in jumps for s in (-off, off)]
        return [{t: tt, a: aa} for aa in _unique(shifts) if aa != 0 for tt in _unique(ts)]

    # the errors at the optimal gamma depend on eps and Delta only: eps from the small-eps
    # end through the upper bounds' range start eps = 1 to 80 (where the lower bounds are attained)
    moments = _level(level, [R(1, 10), 1, 80], [R(1, 100), R(1, 2), 1, 2, 3, 5, 10, 40, 80],
                     [R(1, 1000), R(1, 100), R(1, 2), 1, R(3, 2), 2, 3, 5, 8, 10, 15, 30, 40, 60, 80, 200])
    extra = [{eps: e, Delta: Dl, gamma_sc: R(1, 2), t: 0, a: Dl}
             for e in moments if e not in epss
             for Dl in _deltas(level, quick=(1,), default=(1, 10), fine=(R(1, 10), 1, 10))]
    return _product(blocks, local) + extra


def lemma_28(level):
    """0 < alpha < 1, lam from its hypothesis boundary, t >= kappa >= 0 (equality at t = kappa)."""
    alphas = [al for al in _alphas_le1(level) if al < 1]
    blocks = []
    for Dl in _deltas(level):
        for al in alphas:
            for th, dg in _level(level, [(Dl, al * Dl)], [(Dl, al * Dl), (10 * Dl, Dl / 100)],
                                 [(Dl, al * Dl), (Dl / 10, Dl), (10 * Dl, Dl / 100), (Dl / 1000, Dl / 1000)]):
                for k in _level(level, [0, Dl], [0, Dl, 10 * Dl], [0, Dl / 1000, Dl / 10, Dl, 10 * Dl]):
                    lam_max = 1 / (1 / th + 1 / (k + Dl + dg))
                    for q in _lam_fractions(level):
                        blocks.append({Delta: Dl, alpha: al, theta: th, D_Gamma: dg, kappa: k, lam: q * lam_max})

    def local(b):
        k, Dl, th = b[kappa], b[Delta], b[theta]
        # no t = kappa: both sides are the same expression there (an identity, not a check)
        ts = _level(level, [k + Dl / 10, k + Dl],
                    [k + R(1, 10**9) * Dl, k + Dl / 10, k + Dl, k + 10 * Dl, k + 100 * th],
                    [k + R(1, 10**12) * Dl, k + R(1, 10**6) * Dl, k + Dl / 10, k + Dl, k + 10 * Dl, k + 100 * th])
        return [{t: tt} for tt in ts]

    return _product(blocks, local)


# ---------------------------------------------------------------------------
# Harrison & Manurangsi (FORC 2025): the GDL records (ids hm25-...)
# ---------------------------------------------------------------------------

def _hm25_symbols():
    from . import gdl_symbols as G

    return G.beta, G.beta_2, G.a_GDL, G.k


def hm25_gdl_sum(level):
    """GDL's pmf and closure under summation: (beta, beta_2, a) with beta from 1/4 to 2 (beta = 1 is DLap), k in -5..5."""
    beta, beta_2, a_g, k = _hm25_symbols()
    triples = _level(level, [(R(1, 2), R(1, 2), 1), (1, 2, R(7, 10))],
                     [(R(3, 10), R(2, 5), 1), (R(1, 2), R(1, 2), R(3, 10)), (1, 2, R(7, 10)), (R(1, 4), R(7, 4), 2)],
                     [(R(3, 10), R(2, 5), 1), (R(1, 2), R(1, 2), R(3, 10)), (1, 2, R(7, 10)), (R(1, 4), R(7, 4), 2),
                      (R(1, 20), R(1, 20), R(1, 2)), (1, 1, R(1, 10)), (3, R(1, 3), 1)])
    blocks = [{beta: b1, beta_2: b2, a_g: aa} for b1, b2, aa in triples]

    def local(b):
        return [{k: kk} for kk in _level(level, [0, 1, -3], list(range(-5, 6)), list(range(-8, 9)))]

    return _product(blocks, local)


def _hm25_betas(level, below_one):
    if below_one:
        return _level(level, [R(1, 2), R(9, 10)], [R(1, 20), R(3, 10), R(1, 2), R(9, 10), R(99, 100)],
                      [R(1, 100), R(1, 20), R(3, 10), R(1, 2), R(9, 10), R(99, 100), R(999, 1000)])
    return _level(level, [1, 2], [1, R(3, 2), 2, 5, 10], [1, R(101, 100), R(3, 2), 2, 5, 10, 30])


def hm25_theorem_13(level):
    """Theorem 13: beta on both sides of 1 (its two cases), a from 1/20 to 2, integer Delta from 1 to 10 (fine: 20)."""
    beta, _, a_g, _ = _hm25_symbols()
    betas = _hm25_betas(level, True) + _hm25_betas(level, False)
    As = _level(level, [R(7, 10), 2], [R(1, 20), R(7, 10), 2], [R(1, 100), R(1, 20), R(7, 10), 2, 5])
    Ds = _level(level, [1, 3], [1, 2, 3, 10], [1, 2, 3, 5, 10, 20])
    return [{beta: b, a_g: aa, Delta: D} for b in betas for aa in As for D in Ds]


def hm25_corollary_14(level):
    """Corollary 14: beta < 1 (its hypothesis), a from 1/20 to 2, integer Delta up to 100 (fine: 1000)."""
    beta, _, a_g, _ = _hm25_symbols()
    As = _level(level, [R(7, 10), 2], [R(1, 20), R(7, 10), 2], [R(1, 100), R(1, 20), R(7, 10), 2, 5])
    Ds = _level(level, [1, 3], [1, 2, 3, 10, 100], [1, 2, 3, 5, 10, 100, 1000])
    return [{beta: b, a_g: aa, Delta: D} for b in _hm25_betas(level, True) for aa in As for D in Ds]


def hm25_theorem_15(level):
    """Theorem 15: integer Delta from 1 to 1000, eps above 2 + ln Delta (down to 1e-3 above it) up to 40."""
    Ds = _level(level, [1, 10], [1, 2, 10, 100, 1000], [1, 2, 3, 10, 100, 1000, 10**4])
    pts = []
    for D in Ds:
        lo = 2 + sp.log(D)
        es = _level(level, [lo + R(1, 1000), 20], [lo + R(1, 1000), lo + R(1, 2), 12, 20, 40],
                    [lo + R(1, 10**6), lo + R(1, 1000), lo + R(1, 2), lo + 1, 12, 20, 40, 80])
        pts += [{Delta: D, eps: e} for e in _unique(es) if e > lo]
    return pts
