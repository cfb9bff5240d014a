r"""A non-symmetric ID noise that beats every symmetric one: the certified law of
:mod:`~arete_proofs.privacy.id_general` as the centre of the noise of :mod:`~arete_proofs.privacy.id_upper`.

**The noise.**  Let :math:`X = G + dN` be a law of Proposition G1 (:math:`G \sim N(0,1)`, :math:`N` compound Poisson on
:math:`\{1, 2, \dots\}` with rates :math:`\nu_j`; :data:`~arete_proofs.privacy.id_general.BEST_LAW`), :math:`m` a centre
(its median, in float64) and :math:`W = X - m`.  For :math:`\sigma > 0` put :math:`S = \sigma W` and

.. math::

    Z = S + \sum_{i=1}^{N'} Y_i,\qquad N' \sim \mathrm{Poisson}(\lambda),\ Y_i \sim g,

:math:`g` the staircase jump law of :mod:`~arete_proofs.privacy.id_upper` (height :math:`c`, flat on :math:`[-b, b]`,
:math:`b = 1 + B\sigma`, step :math:`e^{-a}`).  :math:`Z` is ID (a Gaussian plus two compound Poisson laws and a
shift) and not symmetric.  :math:`\Delta = 1`, :math:`q = e^{-\varepsilon}`.

**Theorem V1 (privacy).**  Let :math:`0 < a < \varepsilon`, :math:`K = (e^\varepsilon - e^a)\lambda c` and suppose

.. math::

    f_S(t) \le K\max_{j \ge 0} e^{-aj}P(|t - S| \le b - 1 + j)\qquad\text{for every } t.   \tag{V}

Then :math:`f_Z(t) \le e^\varepsilon f_Z(t+s)` for all :math:`t` and :math:`|s| \le 1`.  *Proof.*  Theorem U1's steps 1
and 2 with :math:`f_S` for :math:`\varphi_\sigma`: the jump part :math:`h` has ratio :math:`e^a`, and it suffices that
:math:`f_S(t) \le K(f_S * g)(t+s)/c`; and :math:`(f_S * g)(x) = Eg(x - S) \ge c e^{-aj}P(|x - S| \le b + j)`, while
:math:`|t + s - S| \le |t - S| + 1`.  :math:`\square`

**Lemma V2 (checking (V)).**  Let :math:`\hat M \ge \sup f_W`, :math:`E|S| \le \frac14`, :math:`0 < \kappa \le 1` and
:math:`K \ge \hat M/(\sigma\kappa)`.  In :math:`u = t/\sigma`, with :math:`F = f_W`,
:math:`L_0(u) = P(|u - W| \le B)` and positions :math:`\mu_n = nd - m \ge -m`, (V) holds if

1. on :math:`[u_{lo}, u_{hi}]`: :math:`\kappa F(u) \le \hat M\max(L_0(u), e^{-a}/2)` (branch and bound over cells:
   :math:`F \le \sum_{n \le n_{max}} p_n\varphi(\operatorname{dist}(\mu_n, \text{cell})) + \tau\varphi(0)`, :math:`\tau` the
   pmf's tail mass, and :math:`L_0 \ge \sum_{n \le n_{max}} p_n(\Phi(u_1 - \mu_n + B) - \Phi(u_2 - \mu_n - B))`);
2. :math:`|t| \le \frac12` outside it: there :math:`P(|t - S| \le b) \ge P(|S| \le \frac12) \ge \frac12` (Markov), so
   :math:`\kappa F(u) \le \hat M e^{-a}/2` suffices; left of :math:`u_{lo} = -m - U_L`, :math:`F(u) \le \varphi(u + m) \le
   \varphi(U_L)`; right of :math:`u_{hi} = (n_1 - 1)d - m + D`, :math:`F(u) \le \varphi(D) + P(N \ge n_1)\varphi(0)` with
   Chernoff's :math:`P(N \ge n) \le \exp(-\theta n + \sum_j\nu_j(e^{\theta j} - 1))` (any :math:`\theta > 0`; the
   code tries :math:`2^i/\max j`, :math:`i \le 3`);
3. :math:`|t| \ge \frac12`: take :math:`j = \lceil|t|\rceil + 1`, so :math:`P(|t - S| \le b - 1 + j) \ge P(|S| \le 1) \ge
   \frac12`, and it suffices that :math:`\kappa\sigma f_S(t)/\hat M \le e^{-a(|t| + 2)}/2`; on the right
   :math:`\sigma f_S(t) = F(u) \le \varphi(u/2) + \exp(-\theta(u/2 + m)/d + \sum_j\nu_j(e^{\theta j} - 1))\varphi(0)`, on
   the left :math:`F(u) \le \varphi(|u| - |m|)`; each term times :math:`e^{a\sigma|u|}` decreases for
   :math:`|u| \ge 1/(2\sigma)` (:math:`a\sigma \le \theta/(4d)` and :math:`1/(2\sigma) \ge |m| + 4a\sigma`), so checking
   :math:`|u| = 1/(2\sigma)` is enough.

**Theorem V3 (errors).**  :math:`E|Z| \le e^{-\lambda}\sigma E|W| + \lambda E|Y| + (1 - e^{-\lambda})c\sigma^2 EW^2`, with
:math:`EW^2 = 1 + d^2\sum_j j^2\nu_j + (d\sum_j j\nu_j - m)^2`.  *Proof.*  As Theorem U2: given :math:`N' = n \ge 1`,
:math:`S_n` is symmetric with density at most :math:`c`, so :math:`E|S + S_n| = E\max(|S|, |S_n|) \le nE|Y| +
cES^2`.  :math:`\square`  The error is measured about the centre 0 of :math:`Z` (the median of :math:`S`), so
:math:`E|Z - \operatorname{med}Z| \le E|Z|`.

Theorem F proves every *symmetric* ID :math:`\varepsilon`-DP noise has :math:`E|Z|` at least
:func:`~arete_proofs.privacy.id_mean_abs.mean_abs_bound` times the Staircase's; :func:`certify_row` proves a ratio below
that at large :math:`\varepsilon` (:func:`beats_symmetric`): there the best ID noise is not symmetric.  The certified
rows approach :math:`2\sqrt{c}`, :math:`c = E|W|\sup f_W`, below :math:`2/\sqrt\pi` (the balance of the Gaussian case,
:mod:`~arete_proofs.privacy.id_upper_rules`); a rule valid for every :math:`\varepsilon` is not proved here.

>>> w = centre()                    # the centre's constant E|W| sup f_W, below the Gaussian's 1/pi
>>> 2 * math.sqrt(w["mean_abs"] * w["M_hat"]) < 2 / math.sqrt(math.pi)
True
"""

from __future__ import annotations

import math
from fractions import Fraction

from .id_bounds import _flint
from .id_general import BEST_LAW, _nus, certify_law, law_pmf, mixture_upper
from .id_upper import _ncdf, jump_moments, staircase_mean_abs
from .id_variance import _arb, _positive

__all__ = ["centre", "condition_v", "certify_row", "beats_symmetric"]

_PREC = 128


def centre(nus=None, d=None):
    r"""The centre law :math:`W = X - m` of Theorem V1: ``{"nus", "d", "m", "M_hat", "mean_abs", "second", "p", "tau"}``
    (exact ``m``; ``M_hat`` and ``mean_abs`` upper bounds from :func:`~arete_proofs.privacy.id_general.certify_law`;
    ``second`` the ball :math:`EW^2`; ``p`` the pmf balls of :math:`N` and ``tau`` their tail mass).

    >>> w = centre()
    >>> 0.3133 < w["mean_abs"] * w["M_hat"] < 0.3135
    True
    """
    if nus is None:
        nus, d = BEST_LAW["nus"], BEST_LAW["d"]
    nus = _nus(nus)
    dd = _positive(d, "d")
    law = certify_law(nus, dd)
    m = Fraction(law["m"])
    lam = float(sum(nus.values()))
    n_max = int(lam * max(nus) + 12 * math.sqrt(lam * max(nus) ** 2 + 1) + 40)
    p = law_pmf(nus, n_max)
    keep = max(n for n, x in enumerate(p) if float(x.upper()) > 1e-30) + 1     # the rest goes into the tail mass
    p = p[:keep]
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        da, ma = _arb(dd), _arb(m)
        mean_n = sum((j * _arb(v) for j, v in nus.items()), flint.arb(0))
        var_n = sum((j * j * _arb(v) for j, v in nus.items()), flint.arb(0))
        second = 1 + da * da * var_n + (da * mean_n - ma) ** 2
        tau = 1 - sum(p, flint.arb(0))
    return {"nus": nus, "d": dd, "m": m, "M_hat": law["sup_upper"], "mean_abs": law["mean_abs_upper"],
            "second": second, "p": p, "tau": tau}


def _phi(x):
    flint = _flint()
    return (-x * x / 2).exp() / (2 * flint.arb.pi()).sqrt()


def condition_v(w, sigma, a, B, kappa, *, max_cells=200000):
    r"""Lemma V2 at exact ``sigma``, ``a``, ``B``, ``kappa`` for the centre ``w`` (from :func:`centre`): True when every
    step is proved in ``arb`` (then (V) holds for every rate with :math:`K \ge \hat M/(\sigma\kappa)`).

    >>> w = centre()
    >>> condition_v(w, Fraction(1, 10 ** 5), 10, 40, Fraction(99, 100))
    True
    >>> condition_v(w, Fraction(1, 10 ** 5), 10, 2, Fraction(99, 100))        # a flat part too short for the centre
    False
    """
    s, aa, BB, k = (_positive(x, n) for x, n in ((sigma, "sigma"), (a, "a"), (B, "B"), (kappa, "kappa")))
    if k > 1:
        raise ValueError(f"kappa must be at most 1, got {kappa!r}")
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        sa, a_, Ba, ka = _arb(s), _arb(aa), _arb(BB), _arb(k)
        da, ma, Mh = _arb(w["d"]), _arb(w["m"]), _arb(Fraction(w["M_hat"]))
        p, tau = w["p"], w["tau"]
        mu = [n * da - ma for n in range(len(p))]
        ea2 = (-a_).exp() / 2
        def chernoff(th):     # P(N >= n) <= exp(-th n + chern(th)) for every th > 0
            return sum((_arb(v) * ((th * j).exp() - 1) for j, v in w["nus"].items()), flint.arb(0))
        phi0 = _phi(flint.arb(0))
        if not (sa * _arb(Fraction(w["mean_abs"]))).upper() <= 0.25:
            return False
        # step 2: the ends of the branch and bound
        level = Mh * ea2 / ka
        UL = Fraction(1)
        while not _phi(_arb(UL)).upper() <= level.lower():
            UL += 1
            if UL > 100:
                return False
        D = UL
        best = None
        for th in (flint.arb(1) / max(w["nus"]) * 2 ** i for i in range(4)):     # the theta with the least n1
            chern = chernoff(th)
            n1 = 1
            while not (_phi(_arb(D)) + (-th * n1 + chern).exp() * phi0).upper() <= level.lower():
                n1 += 1
                if n1 > 20 * len(p):
                    break
            else:
                if best is None or n1 < best[0]:
                    best = (n1, th, chern)
        if best is None:
            return False
        n1, th, chern = best
        u_lo = -w["m"] - UL
        u_hi = (n1 - 1) * w["d"] - w["m"] + D
        # step 3 at |u| = 1/(2 sigma), and its monotonicity conditions
        u3 = 1 / (2 * sa)
        rhs3 = Mh / ka * (-a_ * (sa * u3 + 2)).exp() / 2
        right = _phi(u3 / 2) + (-th * (u3 / 2 + ma) / da + chern).exp() * phi0
        left = _phi(u3 - ma.abs_upper())
        mono = bool((a_ * sa).upper() <= (th / (4 * da)).lower() and u3.lower() >= (ma.abs_upper() + 4 * a_ * sa).upper())
        if not (mono and right.upper() <= rhs3.lower() and left.upper() <= rhs3.lower()
                and (u_hi * s) < Fraction(1, 2) and (-u_lo * s) < Fraction(1, 2)):
            return False
        # step 1: branch and bound over [u_lo, u_hi]
        cut = float(BB) + 14
        muf = [float(x.mid()) for x in mu]
        far = _phi(flint.arb(cut - 1))
        stack, cells = [(Fraction(u_lo), Fraction(u_hi))], 0
        while stack:
            u1, u2 = stack.pop()
            cells += 1
            if cells > max_cells:
                return False
            a1, a2 = _arb(u1), _arb(u2)
            near = [i for i, m_ in enumerate(muf) if float(u1) - cut <= m_ <= float(u2) + cut]
            # F: the near components (second order on a flat top), the far ones at most phi(cut - 1) in all
            F = mixture_upper([p[i] for i in near], [mu[i] for i in near], tau, a1, a2) + far
            L0 = flint.arb(0)
            for i in near:      # each component's P(|u - mu - G| <= B) >= max(0, ...); the far ones >= 0
                L0 += p[i] * (_ncdf(a1 - mu[i] + Ba) - _ncdf(a2 - mu[i] - Ba)).max(flint.arb(0))
            if (ka * F).upper() <= (Mh * L0.max(ea2)).lower():
                continue
            if u2 - u1 < Fraction(1, 10 ** 6):
                return False
            mid = (u1 + u2) / 2
            stack += [(u1, mid), (mid, u2)]
        return True


def _kappa_float(w, B, a):
    """min over u of M_hat max(L0, e^-a/2)/F in float64 (the kappa to certify)."""
    import numpy as np
    from scipy.special import ndtr

    pf = np.array([float(x.mid()) for x in w["p"]])
    mu = np.arange(len(pf)) * float(w["d"]) - float(w["m"])
    u = np.linspace(-float(w["m"]) - 12, mu[min(len(mu) - 1, 40)] + 12, 2001)
    def ratio(u):
        u = np.atleast_1d(u)
        F = (pf[None, :] * np.exp(-(u[:, None] - mu[None, :]) ** 2 / 2)).sum(1) / math.sqrt(2 * math.pi)
        L0 = (pf[None, :] * (ndtr(u[:, None] - mu[None, :] + B) - ndtr(u[:, None] - mu[None, :] - B))).sum(1)
        return float(w["M_hat"]) * np.maximum(L0, math.exp(-a) / 2) / F

    from scipy.optimize import minimize_scalar

    r = ratio(u)
    best = float(r.min())
    for i in np.argsort(r)[:3]:          # refine the smallest grid values (the minimum may sit between grid points)
        lo, hi = u[max(i - 1, 0)], u[min(i + 1, len(u) - 1)]
        res = minimize_scalar(lambda x: float(ratio(x)[0]), bounds=(lo, hi), method="bounded", options=dict(xatol=1e-10))
        best = min(best, float(res.fun))
    return min(1.0, best)


def _value_float(eps, sigma, a, B, w):
    if not (0 < a < eps and sigma > 0 and B > 0):
        return math.inf
    kap = _kappa_float(w, B, a)
    r = math.exp(-a)
    b = 1 + B * sigma
    c = 1 / (2 * (b + r / (1 - r)))
    lam = float(w["M_hat"]) / (sigma * kap * c * (math.exp(eps) - math.exp(a)))
    m1 = c * (b * b + (2 * b - 1) * r / (1 - r) + 2 * r / (1 - r) ** 2)
    sec = float(w["second"].mid())
    return math.exp(-lam) * sigma * float(w["mean_abs"]) + lam * m1 + (1 - math.exp(-lam)) * c * sigma ** 2 * sec


def certify_row(eps, *, w=None):
    r"""Theorems V1-V3 at :math:`\varepsilon` with parameters from a float64 search: ``{"eps", "holds", "ratio"
    (E|Z| bound over the Staircase's, rounded up), "value", "params"}``.

    >>> row = certify_row(20)
    >>> row["holds"] and row["ratio"] < 1.121 < 2 / math.sqrt(math.pi)
    True
    """
    from scipy.optimize import minimize

    e = _positive(eps, "eps")
    w = centre() if w is None else w
    q = math.exp(-float(e))
    s0 = math.sqrt(q * float(w["M_hat"]) / float(w["mean_abs"]))

    def unpack(x):
        return math.exp(x[0]), float(e) / (1 + math.exp(-x[1])), math.exp(x[2])

    res = minimize(lambda x: _value_float(float(e), *unpack(x), w) / math.sqrt(q), [math.log(s0), 0.2, math.log(12)],
                   method="Nelder-Mead", options=dict(xatol=1e-7, fatol=1e-10, maxiter=800))
    sigma, a, B = (Fraction(f"{v:.7g}") for v in unpack(res.x))
    kap = Fraction(f"{_kappa_float(w, float(B), float(a)) * (1 - 1e-6):.9g}")
    holds = condition_v(w, sigma, a, B, kap)
    flint = _flint()
    with flint.ctx.extraprec(_PREC):
        sa, a_, ea = _arb(sigma), _arb(a), _arb(e)
        b = 1 + _arb(B) * sa
        c, m1, _ = jump_moments(a_, b)
        need = _arb(Fraction(w["M_hat"])) / (sa * _arb(kap) * c * (ea.exp() - a_.exp()))
        lam = Fraction(f"{float(need.upper()):.12g}")
        while not _arb(lam) >= need.upper():
            lam = Fraction(f"{float(lam) * (1 + 1e-11):.12g}")
        la = _arb(lam)
        el = (-la).exp()
        val = el * sa * _arb(Fraction(w["mean_abs"])) + la * m1 + (1 - el) * c * sa * sa * w["second"]
        ratio = val / staircase_mean_abs(e)
    return {"eps": float(e), "holds": bool(holds and a < e), "value": math.nextafter(float(val.upper()), 1.0),
            "ratio": math.nextafter(float(ratio.upper()), math.inf),
            "params": {"sigma": str(sigma), "a": str(a), "B": str(B), "lam": str(lam), "kappa": str(kap)}}


def beats_symmetric(eps):
    r"""``(row, floor)``: the certified non-symmetric row at :math:`\varepsilon` and Theorem F's floor for symmetric ID
    noise there; ``row["ratio"] < floor["ratio"]`` proves that no symmetric ID :math:`\varepsilon`-DP noise reaches it.

    >>> row, floor = beats_symmetric(25)
    >>> row["holds"] and row["ratio"] < floor["ratio"]
    True
    """
    from .id_mean_abs import mean_abs_bound

    return certify_row(eps), mean_abs_bound(eps)
