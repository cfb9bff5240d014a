r"""Simulation of the distributed Arete sum against Laplace and Staircase (Appendix A, Figure 2).

* :func:`simulate` -- runs :func:`~arete_proofs.mechanisms.distributed_sum`'s
  protocol many times and compares the empirical :math:`E|N|` and :math:`\operatorname{Var} N`
  with the exact values (:func:`~arete_proofs.mechanisms.sum_noise`) and with the
  Laplace (distributed and central) and Staircase mechanisms at the same :math:`\varepsilon`;
* :func:`figure_2_data` -- the empirical CDFs of the paper's Figure 2.

>>> from arete_proofs.noise import FAMILIES
>>> z = FAMILIES["arete"].paper(20, 1)                             # Lemma 3's parameters at eps = 20
>>> a = simulate(4, 4, 20, 2000, seed=2, noise=z, tight=False)["arete"]   # k = 1: the noise is Arete (Lemma 10)
>>> a["k"], abs(a["empirical_mean_abs"] - a["exact_mean_abs"]) < 5 * a["empirical_mean_abs_se"]
(1.0, True)
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._validation import PrecisionError
from ..distributions.params import lemma3_applies as _lemma3_applies
from . import sampling as _s
from .noise import AreteMechanism, LaplaceMechanism, StaircaseMechanism
from .shares import _draw_shares, _laplace_sum_noise

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


def _protocol_errors(g, draw, parties, rounds, Delta):
    r"""Errors ``released - true sum`` of ``rounds`` runs with ``parties`` contributors (values uniform on [0, Delta]).

    ``draw(g, shape)``: independent shares (:attr:`arete_proofs.noise.Shares.draw`).
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
            share = draw(g, shape)
            released += (x + share).sum(axis=1)
        err[r0:r1] = released - truth
    return err


#: The families whose result row keeps the paper's key ``"arete"`` (and its parameter keys).
_ARETE_KEYS = ("arete", "arete_gauss")


def simulate(parties, min_parties, eps, rounds, seed=None, Delta=1, *, noise, tight=True, dropout=()):
    r"""Simulate :func:`~arete_proofs.mechanisms.distributed_sum`'s protocol with the shares of ``noise``
    ``rounds`` times; compare with its exact errors, Laplace and Staircase.

    ``noise``: an infinitely divisible noise of :mod:`arete_proofs.noise` (its
    :meth:`~arete_proofs.noise.Noise.shares`); ``parties`` contribute in every round, each with a
    share sized for ``min_parties`` (so :math:`k = \text{parties}/\text{min\_parties}` designed
    noises, :func:`~arete_proofs.mechanisms.sum_noise`); party values are uniform on
    :math:`[0, \Delta]`.  ``eps`` sets the Laplace and Staircase rows (central mechanisms at that
    :math:`\varepsilon`); ``tight=True`` also reports the tight :math:`\varepsilon^*` of ``noise``
    at ``Delta`` (8 digits; ``None`` with the reason when it cannot be certified).  A noise with a
    ``sum_privacy`` method (``lattice_gauss``) reports that instead: the certified enclosure's upper end
    (``tight_epsilon_certified`` True, ``tight_epsilon_lower``) or, for large :math:`m`, the float64
    estimate (``tight_epsilon_certified`` False).  ``dropout``: fractions :math:`f` of ``parties`` that
    drop out; ``result["dropout"]`` then lists the privacy of the sum of the
    :math:`c = \text{parties} - \lfloor f\,\text{parties}\rfloor` remaining shares (``dropout_privacy``;
    ``lattice_gauss`` only).

    Returns a JSON-serialisable dict: ``params`` (the noise's parameters; for a noise made by
    ``arete.paper`` -- Lemma 3's parameters -- the source ``"paper"`` and whether Lemma 3 applies),
    the distributed sum under the key ``"arete"`` for the Arete families and ``"noise"`` for the
    others (exact :math:`E|N|` -- ``None`` where no exact value is available -- and
    :math:`\operatorname{Var} N` for the actual number of parties, the designed values for
    ``min_parties``, empirical values with standard errors), ``laplace_distributed`` (the same
    protocol with Laplace shares), ``laplace`` and ``staircase`` (central mechanisms at ``eps``,
    :math:`\gamma` optimal for :math:`E|X|`), each with ``exact_mean_abs``, ``exact_var`` and
    ``empirical_*``.

    >>> from arete_proofs.noise import FAMILIES
    >>> z = FAMILIES["arete"].paper(20, 1, digits=40)                     # Lemma 3's parameters
    >>> r = simulate(10, 5, 20, 4000, seed=1, noise=z, tight=False)
    >>> r["arete"]["k"], r["params"]["lemma3_applies"]
    (2.0, True)
    >>> # Var N = k Var Z exactly; the empirical variance within 5 standard errors of it
    >>> a = r["arete"]
    >>> a["exact_var"] == 2 * a["designed_var"], abs(a["empirical_var"] - a["exact_var"]) < 5 * a["empirical_var_se"]
    (True, True)
    >>> # a Gaussian part: Var N = k (2 alpha theta^2 + 2 lam^2 + sigma^2), here k = 1
    >>> g = FAMILIES["arete_gauss"](alpha=0.014727, theta=0.85419, lam=0, sigma=0.027054)
    >>> g = simulate(4, 4, 8, 2000, seed=2, noise=g, tight=False)["arete"]
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
    if noise is None or not hasattr(noise, "shares"):
        raise ValueError(f"noise must be a noise of arete_proofs.noise (e.g. noise.make('arete', ...)), got {noise!r}")
    shares = noise.shares(Q)  # NotSupported (a ValueError) for a noise that is not infinitely divisible
    g = _s.generator(seed)
    law = shares.sum_law(P)
    err = _protocol_errors(g, shares.draw, P, R, D)
    paper = "paper_eps" in noise.source
    optimized = "optimized_eps" in noise.source
    row = {"k": law.k, "sum_distribution": law.description, "exact_mean_abs": law.mean_abs(),
           "exact_var": law.var(), "designed_mean_abs": float(noise.mean_abs(digits=20)),
           "designed_var": float(noise.var(digits=20))}
    row.update(_empirical(err))

    baselines = _baselines(g, P, Q, R, e, D)
    fractions = list(dropout or ())
    if fractions and not hasattr(noise, "dropout_privacy"):
        raise ValueError(f"dropout: the privacy of a sum with dropouts is available for lattice_gauss only, "
                         f"not {noise.name}")
    extra = {}
    if tight and hasattr(noise, "sum_privacy"):
        sp = noise.sum_privacy(D)
        tight_eps, note = float(sp["epsilon"]), sp["method"]
        extra = {"tight_epsilon_lower": sp["lower"], "tight_epsilon_certified": sp["certified"]}
    elif tight:
        try:
            tight_eps, note = float(noise.tight_epsilon(D, digits=8).epsilon), None
        except (PrecisionError, ArithmeticError) as exc:
            tight_eps, note = None, f"tight epsilon not certified: {exc}"
    else:
        tight_eps, note = None, "not computed (tight=False)"
    drops = noise.dropout_privacy(D, P, Q, fractions) if fractions else None
    params = {"source": "paper" if paper else ("optimized" if optimized else "given")}
    if noise.name not in _ARETE_KEYS:
        params["noise"] = noise.name
    params.update(zip((p.name for p in noise.parameters), noise.float_params()))
    params.update(lemma3_applies=_lemma3_applies(e, D) if paper else (None if noise.name == "arete" else False),
                  tight_epsilon=tight_eps, tight_epsilon_note=note, **extra)
    out = {
        "parties": P, "min_parties": Q, "eps": e, "Delta": D, "rounds": R,
        "seed": seed if not isinstance(seed, np.random.Generator) else None,
        "params": params,
        "arete" if noise.name in _ARETE_KEYS else "noise": row,
        **baselines,
    }
    if drops is not None:
        out["dropout"] = drops
    return out


def _baselines(g, P, Q, R, e, D):
    """The comparison rows of :func:`simulate`: Laplace shares in the same protocol, central Laplace and Staircase."""
    lap = LaplaceMechanism(e, D)
    lnoise = _laplace_sum_noise(P, Q, lap.lam)
    lerr = _protocol_errors(g, lambda gg, shape: _draw_shares(gg, [(1.0, lap.lam)], Q, shape), P, R, D)
    lap_dist = {"k": lnoise.k, "sum_distribution": lnoise.description,
                "exact_mean_abs": lnoise.mean_abs(), "exact_var": lnoise.var()}
    lap_dist.update(_empirical(lerr))
    lap_c = {"lam": lap.lam, "exact_mean_abs": lap.expected_abs_error, "exact_var": lap.variance}
    lap_c.update(_empirical(lap.noise(R, g)))
    sc = StaircaseMechanism(e, D)
    sc_c = {"gamma": sc.gamma, "exact_mean_abs": sc.expected_abs_error, "exact_var": sc.variance}
    sc_c.update(_empirical(sc.noise(R, g)))
    return {"laplace_distributed": lap_dist, "laplace": lap_c, "staircase": sc_c}


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
