r"""Simulation of the distributed Arete sum against Laplace and Staircase (Appendix A, Figure 2).

* :func:`simulate` -- runs :func:`~arete_proofs.mechanisms.distributed_sum`'s
  protocol many times and compares the empirical :math:`E|N|` and :math:`\operatorname{Var} N`
  with the exact values (:func:`~arete_proofs.mechanisms.sum_noise`) and with the
  Laplace (distributed and central) and Staircase mechanisms at the same :math:`\varepsilon`;
* :func:`figure_2_data` -- the empirical CDFs of the paper's Figure 2.

>>> a = simulate(4, 4, 20, 2000, seed=2, tight=False)["arete"]      # k = 1: the noise is Arete (Lemma 10)
>>> a["k"], abs(a["empirical_mean_abs"] - a["exact_mean_abs"]) < 5 * a["empirical_mean_abs_se"]
(1.0, True)
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..distributions import arete_gauss as _ag
from . import sampling as _s
from .noise import AreteMechanism, LaplaceMechanism, StaircaseMechanism
from .shares import _draw_shares, _laplace_sum_noise, sum_noise

__all__ = [
    "simulate",
    "figure_2_data",
]


def _empirical(err):
    """Mean |error|, its standard error, sample variance and the standard error of that."""
    N = err.size
    a = np.abs(err)
    ma = float(a.mean())
    v = float(err.var(ddof=1)) if N > 1 else float("nan")
    if N > 1:
        se_ma = float(a.std(ddof=1) / math.sqrt(N))
        c = err - err.mean()
        m4 = float(np.mean(c**4))
        se_v = float(math.sqrt(max(m4 - v * v, 0.0) / N))
    else:
        se_ma = se_v = float("nan")
    return {"empirical_mean_abs": ma, "empirical_mean_abs_se": se_ma,
            "empirical_var": v, "empirical_var_se": se_v}


def _protocol_errors(g, comps, n_min, parties, rounds, Delta, share_sd=0.0):
    r"""Errors ``released - true sum`` of ``rounds`` runs with ``parties`` contributors (values uniform on [0, Delta]).

    ``share_sd > 0`` adds :math:`\mathcal N(0, \text{share\_sd}^2)` to every share, drawn after
    the Gamma parts (``0`` draws exactly what it drew before).
    """
    err = np.empty(rounds)
    cols = min(parties, _s._CHUNK)
    step = max(1, _s._CHUNK // cols)
    for r0 in range(0, rounds, step):
        r1 = min(rounds, r0 + step)
        released = np.zeros(r1 - r0)
        truth = np.zeros(r1 - r0)
        for c0 in range(0, parties, cols):
            shape = (r1 - r0, min(cols, parties - c0))
            x = g.random(shape) * Delta
            truth += x.sum(axis=1)
            share = _draw_shares(g, comps, n_min, shape)
            if share_sd > 0:
                share += g.normal(0.0, share_sd, shape)
            released += (x + share).sum(axis=1)
        err[r0:r1] = released - truth
    return err


def simulate(parties, min_parties, eps, rounds, seed=None, Delta=1, *, params="paper",
             alpha=None, theta=None, lam=None, tight=True, sigma=0.0):
    r"""Simulate :func:`~arete_proofs.mechanisms.distributed_sum` ``rounds`` times; compare with exact errors,
    Laplace and Staircase.

    ``parties`` contribute in every round, each with a share sized for
    ``min_parties`` (so :math:`k = \text{parties}/\text{min\_parties}`,
    :func:`~arete_proofs.mechanisms.sum_noise`);
    party values are uniform on :math:`[0, \Delta]`.  ``params='paper'`` uses Lemma 3's
    :math:`(\alpha,\theta,\lambda)` for ``eps``, ``Delta``; ``params='given'`` takes
    ``alpha``, ``theta``, ``lam``.  ``tight=True`` also reports the tight
    :math:`\varepsilon^*` of the designed Arete noise (about a second; ``None`` if
    :mod:`arete_proofs.privacy.tight` is unavailable).

    ``sigma > 0`` (beyond the paper, issue 17) adds :math:`\mathcal N(0, \sigma^2/\text{min\_parties})`
    to every Arete share, so the designed noise is :math:`X_1 - X_2 + Y + N`,
    :math:`N \sim \mathcal N(0,\sigma^2)` (``lam = 0`` allowed with ``params='given'``,
    any ``alpha > 0``); the sum of the shares of ``parties`` contributors is
    :math:`\Gamma\Gamma(k\alpha,\theta) + \Gamma\Gamma(k,\lambda) + \mathcal N(0, k\sigma^2)`,
    with :math:`\operatorname{Var} = k(2\alpha\theta^2 + 2\lambda^2 + \sigma^2)` and an exact
    :math:`E|N|` (:func:`arete_proofs.distributions.arete_gauss.mean_abs`) when ``k = 1``
    or ``lam = 0`` (``None`` otherwise); the tight :math:`\varepsilon^*` is
    :func:`arete_proofs.privacy.tight_gauss.tight_epsilon`.  ``sigma = 0`` (default)
    gives exactly the draws and numbers of the paper's protocol.

    Returns a JSON-serialisable dict: ``params`` (the parameters used and Lemma 3's
    flag), ``arete`` (the distributed Arete sum: exact :math:`E|N|` and
    :math:`\operatorname{Var} N` for the actual number of parties, the designed
    values for ``min_parties``, empirical values with standard errors),
    ``laplace_distributed`` (the same protocol with Laplace shares),
    ``laplace`` and ``staircase`` (central mechanisms at the same :math:`\varepsilon`,
    :math:`\gamma` optimal for :math:`E|X|`), each with ``exact_mean_abs``,
    ``exact_var`` and ``empirical_*``.

    >>> r = simulate(10, 5, 20, 4000, seed=1, tight=False)
    >>> r["arete"]["k"], r["params"]["lemma3_applies"]
    (2.0, True)
    >>> # Var N = k Var Z exactly; the empirical variance within 5 standard errors of it
    >>> a = r["arete"]
    >>> a["exact_var"] == 2 * a["designed_var"], abs(a["empirical_var"] - a["exact_var"]) < 5 * a["empirical_var_se"]
    (True, True)
    >>> # a Gaussian part: Var N = k (2 alpha theta^2 + 2 lam^2 + sigma^2), here k = 1
    >>> g = simulate(4, 4, 8, 2000, seed=2, params="given", alpha=0.014727, theta=0.85419, lam=0,
    ...              sigma=0.027054, tight=False)["arete"]
    >>> g["exact_var"] == 2 * 0.014727 * 0.85419**2 + 0.027054**2, abs(g["empirical_var"] - g["exact_var"]) < 5 * g["empirical_var_se"]
    (True, True)
    """
    P = _s._count(parties, "parties")
    Q = _s._count(min_parties, "min_parties")
    if Q > P:
        raise ValueError(f"min_parties must be <= parties, got min_parties={min_parties!r} > parties={parties!r}")
    R = _s._count(rounds, "rounds")
    e = _s._positive(eps, "eps")
    D = _s._positive(Delta, "Delta")
    if seed is not None and not isinstance(seed, np.random.Generator):
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    sg = _s._sigma(sigma)
    if params == "paper":
        for x, name in zip((alpha, theta, lam), ("alpha", "theta", "lam")):
            if x is not None:
                raise ValueError(f"{name} is only used with params='given'")
    elif params == "given":
        for x, name in zip((alpha, theta, lam), ("alpha", "theta", "lam")):
            if x is None:
                raise ValueError(f"{name} must be given with params='given'")
    else:
        raise ValueError(f"params must be 'paper' or 'given', got {params!r}")
    if sg > 0:
        return _simulate_gauss(P, Q, R, e, D, seed, params, alpha, theta, lam, tight, sg)
    mech = AreteMechanism(e, D) if params == "paper" else AreteMechanism(e, D, alpha=alpha, theta=theta, lam=lam)
    g = _s.generator(seed)

    noise = sum_noise(P, Q, mech.alpha, mech.theta, mech.lam)
    comps = [(mech.alpha, mech.theta), (1.0, mech.lam)]
    err = _protocol_errors(g, comps, Q, P, R, D)
    are = {"k": noise.k, "sum_distribution": noise.description,
           "exact_mean_abs": noise.mean_abs(), "exact_var": noise.var(),
           "designed_mean_abs": mech.expected_abs_error, "designed_var": mech.variance}
    are.update(_empirical(err))

    baselines = _baselines(g, P, Q, R, e, D)
    tight_eps = mech.epsilon if tight else None
    return {
        "parties": P, "min_parties": Q, "eps": e, "Delta": D, "rounds": R,
        "seed": seed if not isinstance(seed, np.random.Generator) else None,
        "params": {"source": mech.params_source, "alpha": mech.alpha, "theta": mech.theta, "lam": mech.lam,
                   "lemma3_applies": mech.lemma3_applies, "tight_epsilon": tight_eps,
                   "tight_epsilon_note": mech.epsilon_note if tight else "not computed (tight=False)"},
        "arete": are,
        **baselines,
    }


def _baselines(g, P, Q, R, e, D):
    """The comparison rows of :func:`simulate`: Laplace shares in the same protocol, central Laplace and Staircase."""
    lap = LaplaceMechanism(e, D)
    lnoise = _laplace_sum_noise(P, Q, lap.lam)
    lerr = _protocol_errors(g, [(1.0, lap.lam)], Q, P, R, D)
    lap_dist = {"k": lnoise.k, "sum_distribution": lnoise.description,
                "exact_mean_abs": lnoise.mean_abs(), "exact_var": lnoise.var()}
    lap_dist.update(_empirical(lerr))
    lap_c = {"lam": lap.lam, "exact_mean_abs": lap.expected_abs_error, "exact_var": lap.variance}
    lap_c.update(_empirical(lap.noise(R, g)))
    sc = StaircaseMechanism(e, D)
    sc_c = {"gamma": sc.gamma, "exact_mean_abs": sc.expected_abs_error, "exact_var": sc.variance}
    sc_c.update(_empirical(sc.noise(R, g)))
    return {"laplace_distributed": lap_dist, "laplace": lap_c, "staircase": sc_c}


def _simulate_gauss(P, Q, R, e, D, seed, params, alpha, theta, lam, tight, sg):
    """:func:`simulate` with a Gaussian part ``sg > 0`` in the designed noise (issue 17); ``params`` checked."""
    if params == "paper":
        mech = AreteMechanism(e, D)
        a, th, lm, source, lemma3 = mech.alpha, mech.theta, mech.lam, mech.params_source, mech.lemma3_applies
    else:  # "given": lam = 0 is allowed with a Gaussian part
        a, th, lm = _s._positive(alpha, "alpha"), _s._positive(theta, "theta"), _s._nonnegative(lam, "lam")
        source, lemma3 = "given", False
    g = _s.generator(seed)
    k = P / Q
    comps = [(a, th)] + ([(1.0, lm)] if lm > 0 else [])
    err = _protocol_errors(g, comps, Q, P, R, D, share_sd=sg / math.sqrt(Q))
    designed_var = 2 * a * th * th + 2 * lm * lm + sg * sg
    designed_mean_abs = float(_ag.mean_abs(a, th, lm, sg, digits=15))
    if P == Q:
        exact_mean_abs = designed_mean_abs
    elif lm == 0:  # GammaGamma(k alpha, theta) + N(0, k sigma^2)
        exact_mean_abs = float(_ag.mean_abs(k * a, th, 0, math.sqrt(k) * sg, digits=15))
    else:
        exact_mean_abs = None  # GammaGamma(k, lam) is not Laplace for k != 1: no closed form here
    desc = (f"GammaGamma({k:g} alpha, theta)" + (f" + GammaGamma({k:g}, lam)" if lm > 0 else "")
            + f" + N(0, {k:g} sigma^2)")
    are = {"k": k, "sum_distribution": desc, "exact_mean_abs": exact_mean_abs, "exact_var": k * designed_var,
           "designed_mean_abs": designed_mean_abs, "designed_var": designed_var}
    are.update(_empirical(err))

    baselines = _baselines(g, P, Q, R, e, D)
    if tight:
        from ..privacy import tight_gauss

        tight_eps, note = float(tight_gauss.tight_epsilon(a, th, lm, sg, D, digits=8).epsilon), None
    else:
        tight_eps, note = None, "not computed (tight=False)"
    return {
        "parties": P, "min_parties": Q, "eps": e, "Delta": D, "rounds": R,
        "seed": seed if not isinstance(seed, np.random.Generator) else None,
        "params": {"source": source, "alpha": a, "theta": th, "lam": lm, "sigma": sg,
                   "lemma3_applies": lemma3, "tight_epsilon": tight_eps, "tight_epsilon_note": note},
        "arete": are,
        **baselines,
    }


def figure_2_data(eps_values=(5, 10, 15), size=10_000, seed=0, Delta=1):
    r"""Empirical CDFs of the paper's Figure 2: Arete (Lemma 3's parameters), Laplace(:math:`\Delta/\varepsilon`), Staircase.

    For every ``eps``: ``{name: {"x": sorted draws, "cdf": (1..size)/size, "params": {...}}}``
    for ``name`` in ``arete``, ``laplace``, ``staircase`` (:math:`\gamma` optimal for
    :math:`E|X|`).  As the paper notes, :math:`\varepsilon < 20` is outside Lemma 3's
    range (illustration only).

    >>> d = figure_2_data((5, 10), size=1000, seed=1)
    >>> sorted(d), sorted(d[10])
    ([5, 10], ['arete', 'laplace', 'staircase'])
    >>> c = d[10]["arete"]
    >>> # symmetric noise (Lemma 2): the empirical CDF at 0 is 1/2 within 5 binomial standard errors
    >>> bool(np.all(np.diff(c["x"]) >= 0) and abs(np.searchsorted(c["x"], 0) / 1000 - 0.5) < 5 * 0.5 / np.sqrt(1000))
    True
    """
    n = _s._count(size, "size")
    g = _s.generator(seed)
    ecdf = np.arange(1, n + 1) / n
    out = {}
    for eps in eps_values:
        e = _s._positive(eps, "eps_values")
        ar, la, sc = AreteMechanism(e, Delta), LaplaceMechanism(e, Delta), StaircaseMechanism(e, Delta)
        out[eps] = {
            "arete": {"x": np.sort(ar.noise(n, g)), "cdf": ecdf,
                      "params": {"alpha": ar.alpha, "theta": ar.theta, "lam": ar.lam,
                                 "lemma3_applies": ar.lemma3_applies}},
            "laplace": {"x": np.sort(la.noise(n, g)), "cdf": ecdf, "params": {"lam": la.lam}},
            "staircase": {"x": np.sort(sc.noise(n, g)), "cdf": ecdf,
                          "params": {"gamma": sc.gamma, "Delta": sc.Delta, "eps": sc.epsilon}},
        }
    return out
