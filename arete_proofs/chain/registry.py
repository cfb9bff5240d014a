r"""The paper's proof chain as data: one record per statement.

Each :class:`Statement` holds the paper's number, a one-line statement, its
hypotheses as sympy relationals, the inequalities it claims (:class:`Bound`,
``lhs <= rhs`` or ``lhs == rhs`` as sympy expressions over
:mod:`arete_proofs.chain.symbols`), the statements its proof uses (``uses``) and its
grids (:mod:`arete_proofs.chain.grids`).  The numeric checks
(:mod:`arete_proofs.chain.verify`), the symbolic checks (:mod:`arete_proofs.chain.symbolic`),
the command line and the docs all read these records; no bound is written twice:
Lemma 18's record, for example, takes the right-hand sides of Lemmas 16 and 17
from their records to check the step between them.

Where the paper's literal text differs from what its proof uses, the record
follows the proof and says so in ``notes``; :mod:`arete_proofs.chain.observations`
checks the literal text separately.

Every record names its source in ``paper`` (:data:`PAPERS`): the 2022 paper (Pagh &
Stausholm, ALT 2022, with the rate records, Lemma 3 with the optimal rates, proved through it) or, beside it, the 2025
paper (Harrison & Manurangsi, FORC 2025, reconstructed from secondary sources; ids ``hm25-...``,
records in :mod:`arete_proofs.chain.hm25_records`).  :data:`STATEMENT_IDS` is the first paper's
chain (what ``arete verify`` checks by default), :data:`HM25_IDS` the second paper's,
:data:`ALL_IDS` both; :func:`get` and ``arete verify --statement`` take any of them.

>>> sorted(REGISTRY) == sorted(ALL_IDS) == sorted(STATEMENT_IDS + HM25_IDS)
True
>>> {REGISTRY[i].paper for i in HM25_IDS}
{'Harrison & Manurangsi (FORC 2025), reconstructed'}
>>> # Lemma 19's parameters satisfy Lemma 18's hypothesis lam <= theta/2 at eps = 20
>>> import sympy as sp
>>> s = REGISTRY["lemma-19"]
>>> bool((lam <= theta / 2).subs(s.substitutions).subs({eps: 20, Delta: 1}))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import sympy as sp

from . import grids, hm25_records, rates
from .symbols import (
    D_Gamma, D_u, Delta, PAPER_PARAMETERS, a, alpha, c_DGam, c_Du, c_L, eps, f_A,
    f_GG, f_Gamma, f_L, f_SC, gamma_sc, h, kappa, lam, mean_abs_A, n, near_mass,
    shifted_conv, t, theta, tight_eps_A, var_A_cf,
)

__all__ = ["Bound", "Statement", "REGISTRY", "STATEMENT_IDS", "HM25_IDS", "ALL_IDS", "PAPERS", "PAPER_2022",
           "by_paper", "get", "g_lemma28", "fingerprint", "regime_points"]


@dataclass(frozen=True)
class Bound:
    """One claimed relation ``lhs <= rhs`` (or ``lhs == rhs``) of a statement.

    ``where`` restricts the part to a sub-region of the statement's grid (for
    example ``t != 0`` where the right-hand side is infinite); points outside it
    are skipped for this part, not counted as passes.
    """

    name: str
    lhs: sp.Expr
    rhs: sp.Expr
    relation: str = "<="
    where: tuple = ()
    text: str = ""

    def __post_init__(self):
        if self.relation not in ("<=", "=="):
            raise ValueError(f"relation must be '<=' or '==', got {self.relation!r}")

    @property
    def relational(self):
        """The claim as a sympy relational (for display)."""
        if self.relation == "<=":
            return sp.Le(self.lhs, self.rhs, evaluate=False)
        return sp.Eq(self.lhs, self.rhs, evaluate=False)


@dataclass(frozen=True)
class Statement:
    """A numbered statement of the paper with its hypotheses, bounds and grids."""

    id: str
    number: str
    section: str
    title: str
    statement: str
    hypotheses: tuple
    bounds: tuple
    uses: tuple = ()
    substitutions: dict = field(default_factory=dict)
    grid: Callable | None = None
    symbolic: tuple = ()
    notes: str = ""
    #: Functions of :mod:`arete_proofs.certified.statements` that prove (part of) the statement on boxes.
    certificates: tuple = ()
    #: The proof's instantiation of each used statement, ``{used id: {symbol: expression}}`` (e.g.
    #: Lemma 19 takes Lemma 18 at D_Gamma = alpha theta).  With ``substitutions`` this gives the
    #: regime points of the used statements (:func:`regime_points`).
    instantiates: dict = field(default_factory=dict)
    #: For a variant (:mod:`arete_proofs.chain.variants`): the id of the registry statement it starts from.
    base: str = ""
    #: The source of the statement (a key of :data:`PAPERS`), so reports and docs can group by paper.
    paper: str = "Pagh & Stausholm (ALT 2022)"

    @property
    def check_kinds(self) -> str:
        """The kinds of check of the statement, ``N`` (numeric grid), ``S`` (symbolic) and ``C`` (certified), joined by ``+``."""
        kinds = ["N"] if self.bounds else []
        if self.symbolic:
            kinds.append("S")
        if self.certificates:
            kinds.append("C")
        return "+".join(kinds)

    def points(self, level: str = "default") -> list[dict]:
        """The grid points of ``level`` (``quick``, ``default`` or ``fine``), then the regime points."""
        if self.grid is None:
            return []
        points = self.grid(level) + regime_points(self.base or self.id, level)
        if self.base and self.hypotheses != REGISTRY[self.base].hypotheses:
            # a variant with its own hypotheses: the base's points outside them are not its region
            points = [p for p in points if not self.hypotheses_at(p)]
        return points

    def hypotheses_at(self, point: dict) -> list:
        """The hypotheses that do **not** hold at ``point`` (empty when all hold)."""
        failed = []
        for hyp in self.hypotheses:
            value = hyp.subs(self.substitutions).subs(point)
            if value is not sp.true:
                if value is not sp.false:
                    value = _decide(value)
                if not value:
                    failed.append(hyp)
        return failed

    def free_symbols(self) -> set:
        syms = set()
        for b in self.bounds:
            syms |= (b.lhs.free_symbols | b.rhs.free_symbols)
        for hyp in self.hypotheses:
            syms |= hyp.free_symbols
        return syms


def _decide(rel) -> bool:
    """Decide a numeric relational sympy left unevaluated (e.g. equal transcendental sides)."""
    diff = sp.simplify(rel.lhs - rel.rhs)
    if diff == 0:
        return isinstance(rel, (sp.Le, sp.Ge, sp.Eq))
    value = sp.N(diff, 60)
    if isinstance(rel, (sp.Le, sp.Lt)):
        return bool(value < 0) or (isinstance(rel, sp.Le) and value == 0)
    if isinstance(rel, (sp.Ge, sp.Gt)):
        return bool(value > 0) or (isinstance(rel, sp.Ge) and value == 0)
    if isinstance(rel, sp.Ne):
        return value != 0
    raise TypeError(f"cannot decide hypothesis {rel}")


# ---------------------------------------------------------------------------
# building blocks in the paper's notation
# ---------------------------------------------------------------------------

def fG(x):
    return f_Gamma(x, alpha, theta)


def fA(x):
    return f_A(x, alpha, theta, lam)


cD = c_DGam(D_Gamma, alpha, theta)
cDu = c_Du(D_u, alpha, theta)
RATIO = fA(t) / fA(t + Delta)
POSITIVE = (alpha > 0, theta > 0, lam > 0)
GAP = 1 / lam - 1 / theta


def g_lemma28(x):
    r"""Lemma 28's :math:`g(x) = (D_\Gamma + \Delta + x)^{1-\alpha} / e^{x(1/\lambda - 1/\theta)}`."""
    return (D_Gamma + Delta + x) ** (1 - alpha) / sp.exp(x * GAP)


RHS_16 = sp.exp((D_Gamma + Delta) / theta) / cD * (
    (1 + (Delta + D_Gamma) / D_u)
    + cDu * sp.gamma(alpha) * theta**alpha / (2 * lam * c_L)
    * sp.exp(D_u / theta) * (D_Gamma + Delta + D_u) ** (1 - alpha)
)
RHS_CLAIM_1 = (
    cDu * sp.gamma(alpha) * theta**alpha / (2 * lam * c_L)
    * sp.exp((D_Gamma + D_u + Delta) / theta) * (D_Gamma + Delta + D_u) ** (1 - alpha)
)
RHS_17 = sp.exp((D_Gamma + Delta) / theta) / (c_L * cD * lam) * (
    (D_u + D_Gamma + Delta) / alpha
    + sp.gamma(alpha) * theta**alpha * (D_Gamma + Delta) ** (1 - alpha)
)
RHS_18 = (
    2 * sp.exp((D_Gamma + Delta) / theta) * sp.exp(alpha) * (alpha * theta + D_Gamma + Delta)
    / (alpha * cD * c_L * lam)
)
#: Lemma 19, eq. (8): Lemma 18's bound with D_Gamma = alpha theta, c_DGam >= 1/2, c_L = 1/4.
RHS_8 = 2 * (2 * alpha * theta + Delta) / (sp.Rational(1, 2) * sp.Rational(1, 4)) * (
    sp.exp(Delta / theta) * sp.exp(2 * alpha) / (alpha * lam)
)
#: Lemma 19, after (9): alpha theta <= Delta gives 2 alpha theta + Delta <= 3 Delta.
RHS_9 = 48 * Delta * sp.exp(Delta / theta) * sp.exp(2 * alpha) / (alpha * lam)

LN2 = sp.log(2)

# Lemma 27: the Staircase mechanism's errors at the optimal gamma, in the closed forms of
# arete_proofs.distributions.staircase (mean_abs, var, gamma_mean_abs, gamma_var), written out
# over eps and Delta: r = e^{-eps}, q = 1 - r, c = r + q gamma.
_R_SC = sp.exp(-eps)
_Q_SC = 1 - sp.exp(-eps)
#: The gamma minimising E|X|: 1/(1 + e^{eps/2}).
GAMMA_MEAN_SC = 1 / (1 + sp.exp(eps / 2))
_C1_SC = _R_SC + _Q_SC * GAMMA_MEAN_SC
#: E|X| = Delta ((r + q gamma^2)/(2c) + r/q) at gamma = GAMMA_MEAN_SC.
MEAN_ABS_SC = Delta * ((_R_SC + _Q_SC * GAMMA_MEAN_SC**2) / (2 * _C1_SC) + _R_SC / _Q_SC)
_CS_SC = (_R_SC * (1 + _R_SC) / 2) ** sp.Rational(1, 3)
#: The gamma minimising Var X: r (1 + 2r) / (2 (c_*^2 + c_* r + r^2)), c_* = (r(1 + r)/2)^{1/3}.
GAMMA_VAR_SC = _R_SC * (1 + 2 * _R_SC) / (2 * (_CS_SC**2 + _CS_SC * _R_SC + _R_SC**2))
_C2_SC = _R_SC + _Q_SC * GAMMA_VAR_SC
#: Var X = Delta^2 (r(1+r)/q^2 + (r/q)(r + q gamma^2)/c + (r + q gamma^3)/(3c)) at gamma = GAMMA_VAR_SC.
VAR_SC = Delta**2 * (_R_SC * (1 + _R_SC) / _Q_SC**2
                     + _R_SC / _Q_SC * (_R_SC + _Q_SC * GAMMA_VAR_SC**2) / _C2_SC
                     + (_R_SC + _Q_SC * GAMMA_VAR_SC**3) / (3 * _C2_SC))
#: Lemma 27's explicit constants (derivation in the record's notes): for every eps > 0,
#: Delta e^{-eps/2} <= E|X| and 2^{-2/3} Delta^2 e^{-2eps/3} <= Var X; for eps >= EPS_SC,
#: E|X| <= (8/5) Delta e^{-eps/2} and Var X <= (15/4) Delta^2 e^{-2eps/3}.
EPS_SC = sp.Integer(1)
MEAN_SC_LOWER, MEAN_SC_UPPER = sp.Integer(1), sp.Rational(8, 5)
VAR_SC_LOWER, VAR_SC_UPPER = 2 ** sp.Rational(-2, 3), sp.Rational(15, 4)



def _rate_statement(rule: str) -> Statement:
    """The record of Lemma 3 with rates for ``rule`` (``mean_abs`` or ``variance``, :mod:`arete_proofs.chain.rates`)."""
    r = rates.RULES[rule]
    sid = "lemma-3-" + rule.replace("_", "-")
    if rule == "mean_abs":
        what, err, k_text = "E|Z|", mean_abs_A(alpha, theta, lam), "E|Z| <= 8 sqrt(6) Delta e^{-eps/2}"
        params = "alpha = 2 sqrt(6) e^{-eps/2}, lam = 4 sqrt(6) Delta e^{-eps/2}"
        moment = Bound("mean-abs-moment", err, 2 * alpha * theta + lam, text="E|Z| <= 2 alpha theta + lam (Lemma 3)")
        low_text = "Delta e^{-eps/2} <= E|Z| (no eps-DP noise beats the Staircase, Lemma 27)"
    else:
        what, err, k_text = "Var Z", var_A_cf(alpha, theta, lam), "Var Z <= 24 3^{2/3} Delta^2 e^{-2eps/3}"
        params = "alpha = 8 3^{2/3} e^{-2eps/3}, lam = 2 3^{1/3} Delta e^{-eps/3}"
        moment = Bound("variance-moment", err, 2 * alpha * theta**2 + 2 * lam**2, relation="==",
                       text="Var Z = 2 alpha theta^2 + 2 lam^2 (Lemma 3)")
        low_text = "2^{-2/3} Delta^2 e^{-2eps/3} <= Var Z (no eps-DP noise beats the Staircase, Lemma 27)"
    return Statement(
        id=sid, number=f"Lemma 3 with rates ({what})", section="none (not in the paper; proved here)",
        title=f"Rate-optimal parameters: eps-DP with {what} = Theta({'Delta' if rule == 'mean_abs' else 'Delta^2'} {r.rate})",
        statement=f"For every Delta > 0 and eps >= {r.eps_0}: theta = Delta, {params} (alpha lam = 48 Delta e^-eps) "
                  f"give e^-eps <= f_A(t)/f_A(t + a) <= e^eps for |a| <= Delta and {k_text}; "
                  f"the Staircase gives the matching lower bound.  Not in the paper: proved through its "
                  f"Lemmas 14-18 at the new parameters.",
        hypotheses=(eps >= r.eps_0, Delta > 0, sp.Abs(a) <= Delta),
        substitutions=dict(r.substitutions),
        bounds=(
            Bound("privacy", fA(t) / fA(t + a), sp.exp(eps), text="f_A(t)/f_A(t+a) <= e^eps"),
            Bound("privacy-lower", sp.exp(-eps), fA(t) / fA(t + a), text="e^-eps <= f_A(t)/f_A(t+a)"),
            Bound("tight-epsilon", tight_eps_A(alpha, theta, lam, Delta), eps,
                  text="tight epsilon = sup_t ln f_A(t)/f_A(t + Delta) <= eps"),
            Bound("error", err, r.bound, text=k_text),
            moment,
            Bound("error-lower", r.lower, err, text=low_text),
            Bound("median", sp.Rational(1, 2), c_DGam(alpha * theta, alpha, theta),
                  text="c_DGam >= 1/2 at D_Gamma = alpha theta (mean >= median, Chen & Rubin 1986)"),
            Bound("eq-8", RHS_18.subs(D_Gamma, alpha * theta), RHS_8,
                  text="(8): Lemma 18's bound at D_Gamma = alpha theta <= 16 (2 alpha theta + Delta) "
                       "e^{Delta/theta} e^{2 alpha}/(alpha lam)"),
            Bound("chain", RHS_8, sp.exp(eps),
                  text="(8) at theta = Delta: 16 e^{1+2 alpha}(1 + 2 alpha) Delta/(alpha lam) <= e^eps"),
            Bound("chain-factor", rates.CHAIN_FACTOR, rates.C_RATE,
                  text="16 e^{1+2 alpha}(1 + 2 alpha) <= 48 (alpha <= 1/41)"),
            Bound("hyp-theta", theta, alpha * theta + Delta, text="Lemma 18: theta <= D_Gamma + Delta"),
            Bound("hyp-lam", lam, sp.Min(theta / 2, Delta / LN2), text="Lemma 18: lam <= min(theta/2, Delta/ln 2)"),
            Bound("hyp-alpha", alpha, rates.ALPHA_CAP, text="alpha <= 1/41 (so alpha <= 1 for Lemma 18)"),
            Bound("hyp-gamma", sp.gamma(alpha), 1 / alpha, text="Lemma 18: Gamma(alpha) <= 1/alpha (Note 2)"),
        ),
        uses=("lemma-18", "note-2", "lemma-2", "lemma-27"),
        instantiates={"lemma-18": {D_Gamma: alpha * theta}},
        symbolic=(f"{sid}/algebra",),
        notes="Not a statement of the paper: Lemma 3 with the optimal rates, proved here.  The proof is Lemma 19's with theta = Delta: "
              "Lemma 18 at D_Gamma = alpha theta, c_DGam >= 1/2, c_L = 1/4 gives (8), which at theta = Delta is "
              "16 e^{1+2 alpha}(1+2 alpha) Delta/(alpha lam); alpha lam = 48 Delta e^-eps and alpha <= 1/41 "
              "(eps >= eps_0) make it <= e^eps; Lemma 2 extends the shift Delta to |a| <= Delta.  The lower bound "
              "is Geng & Viswanath's optimality of the Staircase (a premise) with Lemma 27's constants.  "
              "The hypotheses hold for every Delta > 0 (scale-free: lam/Delta and theta/Delta depend on eps only).",
        grid=rates.grid(rule),
    )


_STATEMENTS = [
    Statement(
        id="lemma-2", number="Lemma 2", section="1",
        title="Arete density: symmetric and decreasing",
        statement="For alpha, theta, lam > 0, Arete is infinitely divisible and f_A is "
                  "continuous, symmetric around 0 and decreasing for t > 0.",
        hypotheses=POSITIVE + (t >= 0, h > 0),
        bounds=(Bound("decreasing", fA(t + h), fA(t), text="f_A(t + h) <= f_A(t) for t >= 0, h > 0"),),
        symbolic=("lemma-2/symmetry",),
        notes="Symmetry is checked symbolically (the characteristic function is real and even); "
              "the engine evaluates at |t|, so a numeric symmetry check would be a tautology. "
              "Infinite divisibility is a sampling check (share sums).",
        grid=grids.lemma_2,
    ),
    Statement(
        id="lemma-3", number="Lemma 3", section="1",
        title="Main lemma: eps-DP ratio bound and error of the paper's parameters",
        statement="For Delta >= 2/e and eps >= 20 + 4 ln Delta, alpha = lam = e^{-eps/4}, "
                  "theta = 4 Delta/eps give e^{-eps} <= f_A(t)/f_A(t + a) <= e^eps for |a| <= Delta, "
                  "E|Z| <= 2 alpha theta + lam and Var Z = 2 alpha theta^2 + 2 lam^2.",
        hypotheses=(Delta >= 2 / sp.E, eps >= 20 + 4 * sp.log(Delta), sp.Abs(a) <= Delta),
        substitutions=PAPER_PARAMETERS,
        bounds=(
            Bound("privacy", fA(t) / fA(t + a), sp.exp(eps), text="f_A(t)/f_A(t+a) <= e^eps"),
            Bound("privacy-lower", sp.exp(-eps), fA(t) / fA(t + a), text="e^-eps <= f_A(t)/f_A(t+a)"),
            Bound("mean-abs", mean_abs_A(alpha, theta, lam), 2 * alpha * theta + lam,
                  text="E|Z| <= 2 alpha theta + lam"),
            Bound("variance", var_A_cf(alpha, theta, lam), 2 * alpha * theta**2 + 2 * lam**2,
                  relation="==", text="Var Z = 2 alpha theta^2 + 2 lam^2"),
            Bound("variance-order", var_A_cf(alpha, theta, lam), Delta**2 * sp.exp(-eps / 4) / 4,
                  text="Var Z = O(Delta^2 e^{-eps/4}) with the constant 1/4: "
                       "32/eps^2 + 2 e^{-eps/4}/Delta^2 <= 1/4 for Delta >= 2/e, eps >= 20 + 4 ln Delta"),
        ),
        uses=("lemma-19", "lemma-2"),
        symbolic=("lemma-3/moments",),
        notes="The statement names the parameters 'alpha, beta, lambda' once; beta is theta "
              "(see the observations).",
        grid=grids.lemma_3,
    ),
    Statement(
        id="corollary-5", number="Corollary 5", section="1",
        title="The Arete mechanism with Lemma 3's parameters is eps-DP with error O(Delta e^{-eps/4})",
        statement="The Arete mechanism q(x) + Z with the parameters of Lemma 3 is eps-DP and has "
                  "expected error O(Delta e^{-eps/4}).",
        hypotheses=(Delta >= 2 / sp.E, eps >= 20 + 4 * sp.log(Delta)),
        substitutions=PAPER_PARAMETERS,
        bounds=(
            Bound("tight-epsilon", tight_eps_A(alpha, theta, lam, Delta), eps,
                  text="tight epsilon = sup_t ln f_A(t)/f_A(t + Delta) <= eps"),
            Bound("error", mean_abs_A(alpha, theta, lam), 2 * Delta * sp.exp(-eps / 4),
                  text="E|Z| <= 2 Delta e^{-eps/4} (the O-constant of the proof: 8/eps + e/2 < 2)"),
        ),
        uses=("lemma-3", "lemma-2"),
        certificates=("corollary5_certificate",),
        notes="Checked through the tight epsilon of the noise (privacy.tight_epsilon): the "
              "supremum over every t of the privacy loss, not only at grid points.  The proof's "
              "|x - x'| <= 1 means |q(x) - q(x')| <= Delta (an observation).",
        grid=grids.corollary_5,
    ),
    Statement(
        id="lemma-14", number="Lemma 14", section="4.1",
        title="Bounds on the Gamma-Gamma density",
        statement="f_Gamma(|t| + D_Gamma) c_DGam <= f_GG(t) <= f_Gamma(|t|) for any t and D_Gamma > 0.",
        hypotheses=POSITIVE[:2] + (alpha <= 1, D_Gamma > 0),
        bounds=(
            Bound("lower", fG(sp.Abs(t) + D_Gamma) * cD, f_GG(t, alpha, theta),
                  text="f_Gamma(|t| + D_Gamma) c_DGam <= f_GG(t)"),
            Bound("upper", f_GG(t, alpha, theta), fG(sp.Abs(t)), where=(sp.Ne(t, 0),),
                  text="f_GG(t) <= f_Gamma(|t|)"),
        ),
        notes="The paper states it for every alpha; both bounds use that f_Gamma is decreasing, "
              "i.e. alpha <= 1, which is all the proof chain needs.  For alpha > 1 the upper "
              "bound fails near t = 0 (see the observations).",
        certificates=("lemma14_upper_certificate", "lemma14_lower_certificate"),
        grid=grids.lemma_14,
    ),
    Statement(
        id="lemma-15", number="Lemma 15", section="4.2",
        title="Lower bound on f_A(t + Delta)",
        statement="If lam <= Delta/ln 2 and t >= -Delta/2 then f_A(t + Delta) >= "
                  "f_Gamma(|t + Delta| + D_Gamma) c_DGam c_L with c_L = 1/4.",
        hypotheses=POSITIVE + (alpha <= 1, Delta > 0, D_Gamma > 0, lam <= Delta / LN2, t >= -Delta / 2),
        bounds=(Bound("lower", fG(sp.Abs(t + Delta) + D_Gamma) * cD * c_L, fA(t + Delta),
                      text="f_Gamma(|t + Delta| + D_Gamma) c_DGam c_L <= f_A(t + Delta)"),),
        uses=("lemma-14",),
        notes="The paper states no alpha <= 1; the record adds it: the proof uses Lemma 14 and that "
              "f_Gamma is decreasing, which needs alpha <= 1 (all the chain needs).",
        grid=grids.lemma_15,
    ),
    Statement(
        id="lemma-16", number="Lemma 16", section="4.2",
        title="Ratio bound far from 0 (|t| >= D_u)",
        statement="For 0 < alpha <= 1, 1/lam - 1/theta >= 1/(D_u + Delta + D_Gamma), lam <= Delta/ln 2, "
                  "t > -Delta/2 and |t| >= D_u: f_A(t)/f_A(t + Delta) <= the stated bound.",
        hypotheses=POSITIVE + (alpha <= 1, Delta > 0, D_Gamma > 0, D_u > 0,
                               GAP >= 1 / (D_u + Delta + D_Gamma), lam <= Delta / LN2,
                               t > -Delta / 2, sp.Abs(t) >= D_u),
        bounds=(Bound("ratio", RATIO, RHS_16, text="f_A(t)/f_A(t + Delta) <= (Lemma 16 bound)"),),
        uses=("lemma-14", "claim-1"),
        grid=grids.lemma_16,
    ),
    Statement(
        id="claim-1", number="Claim 1", section="C.1",
        title="The near part of Lemma 16's numerator",
        statement="For |t| >= D_u, |t| <= |t + Delta|, lam <= Delta/ln 2 and "
                  "1/lam - 1/theta >= 1/(D_Gamma + Delta + D_u): int_{t-D_u}^{t+D_u} f_Gamma(|t-x|) f_L(x) dx / "
                  "int f_Gamma(D_Gamma + |t + Delta - x|) f_L(x) dx <= the stated bound.",
        hypotheses=POSITIVE + (alpha <= 1, Delta > 0, D_Gamma > 0, D_u > 0, sp.Abs(t) >= D_u,
                               sp.Abs(t) <= sp.Abs(t + Delta), lam <= Delta / LN2,
                               GAP >= 1 / (D_Gamma + Delta + D_u)),
        bounds=(Bound("near-part",
                      near_mass(t, D_u, alpha, theta, lam) / shifted_conv(t + Delta, D_Gamma, alpha, theta, lam),
                      RHS_CLAIM_1, text="near part / shifted convolution <= (Claim 1 bound)"),),
        uses=("lemma-15", "lemma-28"),
        notes="The paper's denominator reads f_Gamma(D_Gamma + |t + 1 - x|); its argument uses t + Delta, "
              "which is what is checked here (the literal form is an observation).",
        grid=grids.claim_1,
    ),
    Statement(
        id="lemma-17", number="Lemma 17", section="4.2",
        title="Ratio bound near 0 (|t| <= D_u)",
        statement="For 0 < alpha <= 1, 1/lam - 1/theta >= 1/(Delta + D_Gamma), lam <= Delta/ln 2, "
                  "t > -Delta/2 and |t| <= D_u: f_A(t)/f_A(t + Delta) <= the stated bound.",
        hypotheses=POSITIVE + (alpha <= 1, Delta > 0, D_Gamma > 0, D_u > 0,
                               GAP >= 1 / (Delta + D_Gamma), lam <= Delta / LN2,
                               t > -Delta / 2, sp.Abs(t) <= D_u),
        bounds=(Bound("ratio", RATIO, RHS_17, text="f_A(t)/f_A(t + Delta) <= (Lemma 17 bound)"),),
        uses=("lemma-14", "lemma-15", "lemma-28"),
        grid=grids.lemma_17,
    ),
    Statement(
        id="lemma-18", number="Lemma 18", section="4.2",
        title="Ratio bound for every t > -Delta/2",
        statement="For 0 < alpha <= 1, theta <= D_Gamma + Delta, lam <= min(theta/2, Delta/ln 2) and "
                  "Gamma(alpha) <= 1/alpha: f_A(t)/f_A(t + Delta) <= 2 e^{(D_Gamma+Delta)/theta} e^alpha "
                  "(alpha theta + D_Gamma + Delta) / (alpha c_DGam c_L lam).",
        hypotheses=POSITIVE + (alpha <= 1, Delta > 0, D_Gamma > 0, theta <= D_Gamma + Delta,
                               lam <= theta / 2, lam <= Delta / LN2, sp.gamma(alpha) <= 1 / alpha,
                               t > -Delta / 2),
        bounds=(
            Bound("ratio", RATIO, RHS_18, text="f_A(t)/f_A(t + Delta) <= (Lemma 18 bound)"),
            Bound("from-16", RHS_16.subs(D_u, alpha * theta), RHS_18,
                  text="Lemma 16's bound at D_u = alpha theta <= Lemma 18's bound"),
            Bound("from-17", RHS_17.subs(D_u, alpha * theta), RHS_18,
                  text="Lemma 17's bound at D_u = alpha theta <= Lemma 18's bound"),
        ),
        uses=("lemma-16", "lemma-17"),
        instantiates={"lemma-16": {D_u: alpha * theta}, "lemma-17": {D_u: alpha * theta}},
        symbolic=("lemma-18/step",),
        notes="The paper's statement reads theta <= D_Gamma + 1; its proof (C.3) and Lemma 19 use "
              "theta <= D_Gamma + Delta, which is checked here (the literal form is an observation).",
        grid=grids.lemma_18,
    ),
    Statement(
        id="note-2", number="Note 2", section="4.2",
        title="Gamma(alpha) <= 1/alpha on (0, 1]",
        statement="Gamma(alpha) <= 1/alpha for 0 < alpha <= 1, from Euler's product and "
                  "(1 + 1/n)^alpha <= 1 + alpha/n.",
        hypotheses=(alpha > 0, alpha <= 1, n > 0),
        bounds=(
            Bound("gamma", sp.gamma(alpha), 1 / alpha, text="Gamma(alpha) <= 1/alpha"),
            Bound("bernoulli", (1 + 1 / n) ** alpha, 1 + alpha / n, text="(1 + 1/n)^alpha <= 1 + alpha/n"),
        ),
        symbolic=("note-2/bernoulli", "note-2/gamma"),
        certificates=("note2_certificate",),
        grid=grids.note_2,
    ),
    Statement(
        id="lemma-19", number="Lemma 19", section="4.2",
        title="The paper's parameters give eps-DP",
        statement="For eps >= 20 + 4 ln Delta and Delta >= 2/e, alpha = lam = e^{-eps/4} and "
                  "theta = 4 Delta/eps give e^{-eps} <= f_A(t)/f_A(t + Delta) <= e^eps for every t.",
        hypotheses=(Delta >= 2 / sp.E, eps >= 20 + 4 * sp.log(Delta)),
        substitutions=PAPER_PARAMETERS,
        bounds=(
            Bound("upper", RATIO, sp.exp(eps), text="f_A(t)/f_A(t + Delta) <= e^eps"),
            Bound("lower", sp.exp(-eps), RATIO, text="e^-eps <= f_A(t)/f_A(t + Delta)"),
            Bound("median", sp.Rational(1, 2), c_DGam(alpha * theta, alpha, theta),
                  text="c_DGam >= 1/2 at D_Gamma = alpha theta (mean >= median, Chen & Rubin 1986)"),
            Bound("eq-8", RHS_18.subs(D_Gamma, alpha * theta), RHS_8,
                  text="(8): Lemma 18's bound at D_Gamma = alpha theta <= 16 (2 alpha theta + Delta) "
                       "e^{Delta/theta} e^{2 alpha} / (alpha lam)"),
            Bound("eq-9", RHS_8, RHS_9, text="2 alpha theta + Delta <= 3 Delta under (9)"),
            Bound("eq-10", RHS_9, sp.exp(eps), text="48 Delta e^{Delta/theta} e^{2 alpha}/(alpha lam) <= e^eps"),
            Bound("hyp-theta", theta, Delta / (1 - alpha), text="(9): theta <= Delta/(1 - alpha)"),
            Bound("hyp-lam", lam, sp.Min(theta / 2, Delta / LN2), text="(9): lam <= min(theta/2, Delta/ln 2)"),
            Bound("hyp-alpha", alpha, sp.Rational(1, 2), text="(9): alpha <= 1/2"),
            Bound("hyp-gamma", sp.gamma(alpha), 1 / alpha, text="(9): Gamma(alpha) <= 1/alpha"),
        ),
        uses=("lemma-18", "note-2"),
        instantiates={"lemma-18": {D_Gamma: alpha * theta}},
        symbolic=("lemma-19/algebra", "lemma-19/threshold", "lemma-19/assumptions"),
        certificates=("lemma19_certificate", "lemma19_algebra_certificate"),
        grid=grids.lemma_19,
    ),
    Statement(
        id="lemma-26", number="Lemma 26", section="B.2",
        title="The Laplace mechanism",
        statement="Laplace noise with lam = Delta/eps is eps-DP: f_L(t)/f_L(t + a) <= e^eps for |a| <= Delta.",
        hypotheses=(eps > 0, Delta > 0, sp.Abs(a) <= Delta),
        substitutions={lam: Delta / eps},
        bounds=(Bound("privacy", f_L(t, lam) / f_L(t + a, lam), sp.exp(eps),
                      text="f_L(t)/f_L(t + a) <= e^eps"),),
        grid=grids.lemma_26,
    ),
    Statement(
        id="lemma-27", number="Lemma 27", section="B.2",
        title="The Staircase mechanism",
        statement="The Staircase density with gamma in [0, 1] is eps-DP: f_SC(t)/f_SC(t + a) <= e^eps "
                  "for |a| <= Delta; a(gamma) normalises it.  At the optimal gamma, E|X| = Theta(Delta e^{-eps/2}) "
                  "and Var X = Theta(Delta^2 e^{-2eps/3}): here with the constants 1 and 8/5, 2^{-2/3} and 15/4 "
                  "(the lower bounds for every eps > 0, the upper ones for eps >= 1).",
        hypotheses=(eps > 0, Delta > 0, gamma_sc >= 0, gamma_sc <= 1, sp.Abs(a) <= Delta),
        bounds=(
            Bound("privacy", f_SC(t, gamma_sc, Delta, eps) / f_SC(t + a, gamma_sc, Delta, eps),
                  sp.exp(eps), text="f_SC(t)/f_SC(t + a) <= e^eps"),
            Bound("mean-abs-lower", MEAN_SC_LOWER * Delta * sp.exp(-eps / 2), MEAN_ABS_SC,
                  text="Delta e^{-eps/2} <= E|X| at gamma = 1/(1 + e^{eps/2}) (every eps > 0; "
                       "attained as eps -> oo)"),
            Bound("mean-abs-upper", MEAN_ABS_SC, MEAN_SC_UPPER * Delta * sp.exp(-eps / 2), where=(eps >= EPS_SC,),
                  text="E|X| <= (8/5) Delta e^{-eps/2} at gamma = 1/(1 + e^{eps/2}) for eps >= 1"),
            Bound("var-lower", VAR_SC_LOWER * Delta**2 * sp.exp(-2 * eps / 3), VAR_SC,
                  text="2^{-2/3} Delta^2 e^{-2eps/3} <= Var X at the variance-optimal gamma (every eps > 0; "
                       "attained as eps -> oo)"),
            Bound("var-upper", VAR_SC, VAR_SC_UPPER * Delta**2 * sp.exp(-2 * eps / 3), where=(eps >= EPS_SC,),
                  text="Var X <= (15/4) Delta^2 e^{-2eps/3} at the variance-optimal gamma for eps >= 1"),
        ),
        symbolic=("lemma-27/normalisation",),
        notes="E|X| = Theta(Delta e^{-eps/2}) and Var X = Theta(Delta^2 e^{-2eps/3}) with explicit "
              "constants.  With r = e^{-eps}, s = e^{-eps/2}: at gamma = s/(1 + s), E|X| = "
              "Delta (gamma + r/(1 - r)) = Delta s/(1 - r), so E|X|/(Delta e^{-eps/2}) = 1/(1 - e^{-eps}) "
              "decreases from 1/(1 - e^{-1}) = 1.5820 at eps = 1 to 1.  At the variance-optimal gamma "
              "the stationarity condition gives Var X = Delta^2 (r + c_*^2)/(1 - r)^2 with "
              "c_*^3 = r(1 + r)/2, so Var X/(Delta^2 e^{-2eps/3}) = (e^{-eps/3} + ((1 + r)/2)^{2/3})/(1 - r)^2 "
              "decreases from 3.7360 at eps = 1 to 2^{-2/3} = 0.62996.  The grid and the search "
              "evaluate the general formulas at the optimal gamma, not these simplifications.",
        grid=grids.lemma_27,
    ),
    Statement(
        id="lemma-28", number="Lemma 28", section="C",
        title="Monotonicity of g(t) = (D_Gamma + Delta + t)^{1-alpha} e^{-t(1/lam - 1/theta)}",
        statement="For 0 < alpha < 1 and 1/lam - 1/theta >= 1/(kappa + Delta + D_Gamma): "
                  "g(t) <= g(kappa) for all t >= kappa >= 0.",
        hypotheses=POSITIVE + (alpha < 1, Delta > 0, D_Gamma > 0, kappa >= 0, t >= kappa,
                               GAP >= 1 / (kappa + Delta + D_Gamma)),
        bounds=(Bound("monotone", g_lemma28(t), g_lemma28(kappa), text="g(t) <= g(kappa)"),),
        symbolic=("lemma-28/maximiser",),
        certificates=("lemma28_certificate",),
        grid=grids.lemma_28,
    ),
    _rate_statement("mean_abs"),
    _rate_statement("variance"),
]

#: The statement ids, in the paper's order of the proof chain (the first paper's; ``arete verify``'s default set).
STATEMENT_IDS = tuple(s.id for s in _STATEMENTS)

#: The 2025 paper's records (Harrison & Manurangsi, FORC 2025, reconstructed), built from the data of
#: :mod:`arete_proofs.chain.hm25_records`.
_HM25 = [Statement(**{**r, "bounds": tuple(Bound(**b) for b in r["bounds"])}) for r in hm25_records.RECORDS]
#: The 2025 paper's record ids (``hm25-...``), in its order.
HM25_IDS = tuple(s.id for s in _HM25)

#: Every record id, the first paper's chain and then the second paper's.
ALL_IDS = STATEMENT_IDS + HM25_IDS

#: The first paper (the default of ``Statement.paper``).
PAPER_2022 = Statement.__dataclass_fields__["paper"].default

#: paper -> its record ids, in order.
PAPERS = {PAPER_2022: STATEMENT_IDS, hm25_records.PAPER: HM25_IDS}

#: id -> :class:`Statement` (both papers).
REGISTRY = {s.id: s for s in _STATEMENTS + _HM25}


def by_paper(ids=None) -> dict:
    """``{paper: [ids]}`` for ``ids`` (all records by default), papers in the order of :data:`PAPERS`.

    >>> by_paper(["lemma-19", "hm25-theorem-13"])
    {'Pagh & Stausholm (ALT 2022)': ['lemma-19'], 'Harrison & Manurangsi (FORC 2025), reconstructed': ['hm25-theorem-13']}
    """
    ids = ALL_IDS if ids is None else [get(i).id if isinstance(i, str) else i.id for i in ids]
    out = {p: [] for p in PAPERS}
    for i in ids:
        out[REGISTRY[i].paper].append(i)
    return {p: v for p, v in out.items() if v}


def _paths(src, dst, seen=()):
    """The chains of ``uses`` from ``src`` down to ``dst``."""
    if src == dst:
        return [[dst]]
    out = []
    for u in REGISTRY[src].uses:
        if u not in seen:
            out += [[src] + p for p in _paths(u, dst, seen + (src,))]
    return out


_REGIME_CACHE: dict = {}


def regime_points(statement_id: str, level: str = "default") -> list[dict]:
    r"""The points where the proof chain **uses** ``statement_id``, derived from the registry.

    For every statement with ``substitutions`` (Lemma 3, Corollary 5, Lemma 19: the
    paper's :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`;
    Lemma 3 with rates: :math:`\theta = \Delta`, :math:`\alpha\lambda = 48\Delta e^{-\varepsilon}`)
    whose proof reaches ``statement_id`` through ``uses``, the substitutions are
    composed with the ``instantiates`` of each step (Lemma 19 takes Lemma 18 at
    :math:`D_\Gamma = \alpha\theta`, Lemma 18 takes Lemmas 16 and 17 at
    :math:`D_u = \alpha\theta`) and evaluated at :math:`\Delta` from 2/e to 1000 and
    :math:`\varepsilon` from the root's threshold (:math:`20 + 4\ln\Delta`, or the rule's
    :math:`\varepsilon_0`) to 80; t takes values
    near 0 (down to 1e-12), near :math:`\pm D_u`, near :math:`-\Delta/2`, near
    :math:`-\Delta` and far out.  Only points that satisfy the statement's hypotheses are kept.

    >>> pts = regime_points("lemma-16", "quick")
    >>> all(not REGISTRY["lemma-16"].hypotheses_at(p) for p in pts) and any(p[alpha] == p[lam] for p in pts)
    True
    >>> any(p[theta] == p[Delta] and p[alpha] * p[lam] == 48 * p[Delta] * sp.exp(-11) for p in pts)   # mean_abs at eps_0
    True
    """
    key = (statement_id, level)
    if key in _REGIME_CACHE:
        return [dict(p) for p in _REGIME_CACHE[key]]
    grids._level(level, [], [], [])            # the level's own error message
    st = REGISTRY[statement_id]
    subs = []
    for root in STATEMENT_IDS:
        R = REGISTRY[root]
        if root == statement_id or not R.substitutions:
            continue
        for path in _paths(root, statement_id):
            sub = dict(R.substitutions)
            for u, v in zip(path, path[1:]):
                for sym, expr in REGISTRY[u].instantiates.get(v, {}).items():
                    sub[sym] = sp.sympify(expr).subs(sub)
            if all(sub != other for other, _ in subs):
                subs.append((sub, _eps_threshold(R)))
    E = sp.E
    deltas = {"quick": [1], "default": [2 / E, 10, 1000], "fine": [2 / E, 1, 10, 100, 1000]}[level]
    out, seen = [], set()
    for sub, threshold in subs:
        for Dl in deltas:
            lo = threshold.subs(Delta, Dl)
            epss = {"quick": [lo], "default": [lo, 80], "fine": [lo, (lo + 80) / 2, 80]}[level]
            for e in epss:
                base = {Delta: Dl, eps: e}
                p0 = {s_: sp.sympify(x).subs(base) for s_, x in sub.items()}
                p0.update(base)
                al, th = p0.get(alpha, sp.exp(-e / 4)), p0.get(theta, 4 * Dl / e)
                p0.setdefault(D_Gamma, al * th)
                p0.setdefault(D_u, al * th)
                du = p0[D_u]
                ts = [sp.Rational(1, 10**12), du / 2, du, du + du / 1000, -du, -du - du / 1000,
                      -Dl / 2 + Dl / 1000, -Dl / 2 + Dl / 10**6, -Dl, Dl, 10 * Dl, 30 * th]
                if level == "quick":
                    ts = [sp.Rational(1, 10**12), du, -du, -Dl / 2 + Dl / 1000, Dl]
                for tt in ts:
                    for k in ([0, du] if kappa in st.free_symbols() else [None]):
                        p = dict(p0)
                        p[t] = tt
                        if k is not None:
                            p[kappa] = k
                            p[t] = k + abs(tt)
                        p.setdefault(a, Dl)
                        p.setdefault(h, th / 10)
                        p.setdefault(n, 1)
                        keep = {s_: v for s_, v in p.items() if s_ in st.free_symbols()}
                        pk = tuple(sorted((s_.name, str(v)) for s_, v in keep.items()))
                        if pk in seen or (st.grid and set(keep) != _needed(st)):
                            continue
                        seen.add(pk)
                        if not st.hypotheses_at(keep):
                            out.append(keep)
    _REGIME_CACHE[key] = out
    return [dict(p) for p in out]


def _eps_threshold(st):
    """The root's lower bound on eps as an expression in Delta (Lemma 3: 20 + 4 ln Delta; the rate rules: eps_0)."""
    for hyp in st.hypotheses:
        if isinstance(hyp, sp.GreaterThan) and hyp.lhs == eps:
            return sp.sympify(hyp.rhs)
    return 20 + 4 * sp.log(Delta)


def _needed(st):
    return {s_ for s_ in st.free_symbols() if s_ not in st.substitutions and s_ != c_L} | set(
        s_ for s_ in st.substitutions)


def fingerprint(statement) -> str:
    """A hash of what a check of ``statement`` (id or record) claims: its hypotheses, substitutions and bounds.

    16 hex digits of SHA-256 over the ``srepr`` of each hypothesis, substitution and bound
    (name, relation, both sides, ``where``); stable across processes.  Data computed from the
    registry and stored (the docs' search results, ``docs/data/search.json``) records it, so a
    change of a bound or hypothesis shows the data as stale.

    >>> fingerprint("lemma-18") == fingerprint(REGISTRY["lemma-18"]) != fingerprint("lemma-17")
    True
    """
    import hashlib

    st = REGISTRY[statement] if isinstance(statement, str) else statement
    parts = [st.id, "hypotheses"] + [sp.srepr(hh) for hh in st.hypotheses]
    parts += ["substitutions"] + [f"{sp.srepr(k)}={sp.srepr(sp.sympify(v))}"
                                  for k, v in sorted(st.substitutions.items(), key=lambda kv: kv[0].name)]
    for b in st.bounds:
        parts += ["bound", b.name, b.relation, sp.srepr(b.lhs), sp.srepr(b.rhs)] + [sp.srepr(w) for w in b.where]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def get(statement_id: str) -> Statement:
    """The record of ``statement_id``; a clear error for an unknown id."""
    try:
        return REGISTRY[statement_id]
    except KeyError:
        raise ValueError(
            f"unknown statement {statement_id!r}; known: {', '.join(ALL_IDS)}"
        ) from None
