r"""The paper's figures, recomputed by the library (Figures 1-4, an error comparison, the Gamma-Gamma singularity).

Every ``figure_*`` function returns a ``matplotlib.figure.Figure``; the
numbers behind it come from a matching ``*_data`` function, computed with this
package (no digitised curves):

* :func:`figure_1` -- Figure 1: Arete densities (:func:`arete_proofs.distributions.fast.pdf`) next to
  Laplace and Staircase densities;
* :func:`figure_2` -- Figure 2: empirical CDFs of Arete (Lemma 3's parameters), Laplace and
  Staircase noise from the samplers (:func:`arete_proofs.mechanisms.figure_2_data`);
* :func:`figure_3` -- Figure 3: worst-case privacy loss :math:`l(d)` of Arete (the Figure-4
  :math:`\varepsilon = 6` parameters), Laplace and Staircase (:func:`arete_proofs.privacy.curves.loss_curves`);
* :func:`figure_4` -- Figure 4: densities of the three Figure-4 parameter sets with their exact
  tight :math:`\varepsilon` (:func:`arete_proofs.privacy.tight.tight_epsilon`);
* :func:`error_comparison` -- :math:`E|X|` against :math:`\varepsilon` for Laplace, Staircase,
  optimised Arete and Lemma 3's parameters;
* :func:`gamma_gamma_singularity` -- :math:`f_{\Gamma-\Gamma}` near 0 for :math:`\alpha < 1/2`
  against the Bessel-K closed form (Note 1) and a naive quadrature.
* :func:`paper_grid` -- the paper script's grid epsilon of the Figure-4 sets minus the exact
  tight :math:`\varepsilon`, against the grid step, with its table
  (``arete_proofs.privacy.paper_grid.bias_table``).

matplotlib is imported only inside the plotting functions; it is an optional
(``docs``) dependency.  Figures are built with the object-oriented API
(``matplotlib.figure.Figure``, no pyplot state); pass ``pyplot=True`` to
create them through ``matplotlib.pyplot`` instead, as Sphinx's ``plot``
directive (which collects pyplot figures) needs.

**Cache.**  The slow data (privacy-loss curves, tight epsilons, optimiser runs)
are cached as small JSON files keyed by a hash of the function name, its inputs,
the package version and the package's source files (a change of the code that computed
a number invalidates it), in ``$ARETE_CACHE_DIR`` or ``~/.cache/arete_proofs``.
``cache=False`` disables it, ``cache="/some/dir"`` picks a directory.  The cache
is best effort: an unwritable directory or a corrupt file only means the data
are recomputed.

>>> import pytest; _ = pytest.importorskip("matplotlib")   # an optional dependency
>>> fig = figure_2(eps_values=(5, 10), size=500)
>>> len(fig.axes)
2
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

__all__ = [
    "cache_dir",
    "figure_1",
    "figure_1_data",
    "figure_2",
    "figure_3",
    "figure_3_data",
    "figure_4",
    "figure_4_data",
    "error_comparison",
    "error_comparison_data",
    "gamma_gamma_singularity",
    "gamma_gamma_singularity_data",
    "paper_grid",
    "paper_grid_data",
    "STORED_OPTIMA",
]

#: Arete parameters minimising :math:`E|Z|` subject to tight :math:`\varepsilon`-DP at
#: :math:`\Delta = 1`, from one run of ``errors.comparison_table([4, 6, 8, 10, 14, 20], seed=0)``
#: (:func:`arete_proofs.privacy.optimize.optimize`, about 10 s per value).  :func:`error_comparison`
#: uses them with ``source="stored"`` and recomputes their exact :math:`E|Z|` and tight
#: :math:`\varepsilon` (so a stale entry shows as a tight epsilon above the target).
STORED_OPTIMA = {
    4.0: ("0.453695876890753", "0.3669877833421575", "0.07872133254179152"),
    6.0: ("0.0785749820885848", "0.6042896658809367", "0.055437272980435756"),
    8.0: ("0.01974591155116855", "0.8048804711432234", "0.025703131778624672"),
    10.0: ("0.006231663428116724", "0.90824557228815", "0.0103781660568114"),
    14.0: ("0.0007676299450322359", "0.9817963803621446", "0.001485454213008275"),
    20.0: ("3.748149336272265e-05", "0.9986177097418769", "7.479242053803514e-05"),
}

_FIG4_COLORS = ("C0", "C1", "C2", "C3", "C4")


# --------------------------------------------------------------------------- cache


def cache_dir(cache=True):
    """The cache directory for ``cache`` (``True``: ``$ARETE_CACHE_DIR`` or ``~/.cache/arete_proofs``), or None.

    >>> cache_dir(False) is None
    True
    >>> str(cache_dir("/tmp/x"))
    '/tmp/x'
    """
    if cache is False or cache is None:
        return None
    if cache is True:
        env = os.environ.get("ARETE_CACHE_DIR")
        return Path(env) if env else Path.home() / ".cache" / "arete_proofs"
    return Path(cache)


@functools.lru_cache(maxsize=None)
def _code_hash():
    """SHA-256 (first 16 hex digits) of every ``.py`` file of the package, by relative path."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _key(name, inputs):
    from .._version import __version__

    blob = json.dumps({"name": name, "version": __version__, "code": _code_hash(), "inputs": inputs},
                      sort_keys=True, default=str)
    return f"{name}-{hashlib.sha256(blob.encode()).hexdigest()[:20]}.json"


def _cached(name, inputs, compute, cache):
    """``compute()`` (a JSON-serialisable dict), read from / written to the cache when enabled."""
    d = cache_dir(cache)
    path = None if d is None else d / _key(name, inputs)
    if path is not None:
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
            if isinstance(data, dict) and data.get("inputs") == json.loads(json.dumps(inputs, default=str)):
                return data["data"]
        except (OSError, ValueError, KeyError):
            pass
    data = compute()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"inputs": inputs, "data": data}, fh, default=str)
            os.replace(tmp, path)  # atomic: concurrent builds never read half a file
        except OSError:
            pass
    return data


# --------------------------------------------------------------------------- helpers


def _new_figure(figsize, pyplot):
    if pyplot:
        import matplotlib.pyplot as plt

        return plt.figure(figsize=figsize, layout="constrained")
    from matplotlib.figure import Figure

    return Figure(figsize=figsize, layout="constrained")


def _floats(seq):
    return [float(x) for x in seq]


def _fig4_sets():
    from ..distributions.params import FIGURE_4

    return {str(k): tuple(v) for k, v in FIGURE_4.items()}


# --------------------------------------------------------------------------- Figure 1


def figure_1_data(eps=6, t_max=3.0, points=1201, param_sets=None, Delta=1):
    r"""Data of :func:`figure_1`: densities on ``points`` equispaced :math:`t \in [-t_{max}, t_{max}]`.

    ``param_sets`` maps a label to Arete ``(alpha, theta, lam)`` (default: the Figure-4
    sets for :math:`\varepsilon = 6, 8` and Lemma 3's parameters for :math:`\varepsilon = 20`);
    Laplace has :math:`\lambda = \Delta/\varepsilon` and Staircase the :math:`\gamma` optimal
    for :math:`E|X|` (:func:`arete_proofs.distributions.staircase.gamma_mean_abs`), both at ``eps``.
    Returns ``{"t", "laplace", "staircase", "arete": {label: values}, "params": ...}`` (floats).
    """
    from ..distributions import fast, staircase
    from ..distributions.params import FIGURE_4, paper_parameters

    if param_sets is None:
        a20 = paper_parameters(20, Delta)
        param_sets = {
            r"Figure 4, $\varepsilon=6$": FIGURE_4[6],
            r"Figure 4, $\varepsilon=8$": FIGURE_4[8],
            r"Lemma 3, $\varepsilon=20$": tuple(str(x) for x in a20),
        }
    t = np.linspace(-t_max, t_max, points)
    lam = float(Delta) / float(eps)
    g = staircase.gamma_mean_abs(eps, digits=12)
    # the Staircase density is constant between the points +-(k + gamma) Delta and +-k Delta:
    # evaluate it once per piece (at the midpoint) and draw it as a step curve
    D, gf = float(Delta), float(g)
    br = sorted({0.0, t_max, -t_max} | {s * (k + f) * D for k in range(int(t_max / D) + 1) for f in (0.0, gf)
                                          for s in (1, -1) if (k + f) * D < t_max})
    mids = [(u + v) / 2 for u, v in zip(br[:-1], br[1:])]
    vals = [float(staircase.pdf(repr(m), g, Delta, eps, digits=8)) for m in mids]
    sc = {"edges": br, "values": vals}
    ar = {k: fast.pdf(t, *v).tolist() for k, v in param_sets.items()}
    return {"t": t.tolist(), "laplace": (np.exp(-np.abs(t) / lam) / (2 * lam)).tolist(), "staircase": sc,
            "arete": ar, "params": {"eps": eps, "Delta": Delta, "lam": lam, "gamma": float(g),
                                    "arete": {k: [str(x) for x in v] for k, v in param_sets.items()}}}


def figure_1(eps=6, t_max=3.0, points=1201, param_sets=None, *, pyplot=False):
    r"""Figure 1: Arete densities next to Laplace and Staircase (both calibrated to ``eps``).

    Left: linear scale, as in the paper; right: the same on a log scale, where the
    exponential tails of Laplace and the :math:`\theta`-tails of Arete separate.
    """
    d = figure_1_data(eps, t_max, points, param_sets)
    fig = _new_figure((9, 3.6), pyplot)
    axes = fig.subplots(1, 2)
    t = np.asarray(d["t"])
    for ax in axes:
        ax.plot(t, d["laplace"], color="0.5", lw=1.2, label=rf"Laplace($1/{eps}$)")
        sc = d["staircase"]
        ax.stairs(sc["values"], sc["edges"], color="k", lw=1, ls="--", label=rf"Staircase, $\varepsilon={eps}$")
        for i, (k, v) in enumerate(d["arete"].items()):
            ax.plot(t, v, color=_FIG4_COLORS[i % 5], lw=1.4, label=f"Arete: {k}")
        ax.set_xlabel("$t$")
    axes[0].set_ylim(0, 1.15 * max(max(d["staircase"]["values"]), max(d["laplace"])) + 0.5)
    axes[0].set_ylabel("density")
    axes[0].set_title("densities (linear)")
    axes[1].set_yscale("log")
    axes[1].set_ylim(1e-8, None)
    axes[1].set_title("densities (log scale)")
    axes[1].legend(fontsize=7, loc="lower center")
    return fig


# --------------------------------------------------------------------------- Figure 2


def figure_2(eps_values=(5, 10, 15), size=10_000, seed=0, *, pyplot=False):
    r"""Figure 2: empirical CDFs of Arete (Lemma 3's parameters), Laplace and Staircase noise.

    ``size`` draws per distribution and ``eps`` from the samplers
    (:func:`arete_proofs.mechanisms.figure_2_data`, :math:`\Delta = 1`); one panel per
    ``eps``.  As the paper notes, these :math:`\varepsilon < 20` are outside Lemma 3's
    range: the plot only illustrates the shape.
    """
    from ..mechanisms import figure_2_data

    data = figure_2_data(tuple(eps_values), size=size, seed=seed)
    fig = _new_figure((3.2 * len(data), 3.2), pyplot)
    axes = np.atleast_1d(fig.subplots(1, len(data), sharey=True))
    for ax, (eps, d) in zip(axes, data.items()):
        for name, color in (("laplace", "0.5"), ("staircase", "k"), ("arete", "C0")):
            ax.plot(d[name]["x"], d[name]["cdf"], color=color, lw=1.2, label=name.capitalize())
        xs = np.concatenate([d[n]["x"] for n in ("laplace", "arete")])
        lo, hi = np.quantile(xs, [0.01, 0.99])
        ax.set_xlim(lo, hi)
        ax.set_title(rf"$\varepsilon = {eps}$")
        ax.set_xlabel("noise value")
    axes[0].set_ylabel("empirical CDF")
    axes[0].legend(fontsize=8, loc="upper left")
    return fig


# --------------------------------------------------------------------------- Figure 3


def figure_3_data(eps=6, k=3, points=25, params=None, digits=6, cache=True):
    r"""Data of :func:`figure_3` (:func:`arete_proofs.privacy.curves.loss_curves`, cached): floats.

    ``params`` defaults to ``FIGURE_4[6]`` (the paper's Figure 3 uses the
    :math:`\varepsilon = 6` parameters of Figure 4).  Each Arete point is a certified
    supremum at ``digits`` digits, about 1.3 s each.
    """
    from ..distributions.params import FIGURE_4
    from ..privacy.curves import loss_curves

    if params is None:
        params = FIGURE_4[6]
    params = tuple(str(x) for x in params)

    def compute():
        c = loss_curves(eps, k=k, points=points, params=params, digits=digits)
        return {n: _floats(c[n]) for n in ("d", "staircase", "laplace", "arete")} | {"params": list(params)}

    return _cached("figure_3", {"eps": eps, "k": k, "points": points, "params": params, "digits": digits},
                   compute, cache)


def figure_3(eps=6, k=3, points=25, params=None, digits=6, cache=True, *, pyplot=False):
    r"""Figure 3: worst-case privacy loss :math:`l(d) = \sup_t \ln f(t)/f(t+d)` for :math:`d \in [0, k\Delta]`.

    Staircase (a step curve :math:`\varepsilon\lceil d/\Delta\rceil`), Laplace
    (:math:`\varepsilon d/\Delta`) and Arete with the Figure-4 :math:`\varepsilon = 6`
    parameters (a tight supremum over every :math:`t` per point,
    :func:`arete_proofs.privacy.tight.privacy_loss`); :math:`\Delta = 1`.  With ``points``
    :math:`= 8k+1` the grid contains every multiple of :math:`\Delta`, so the steps are drawn exactly.
    """
    d = figure_3_data(eps, k, points, params, digits, cache)
    fig = _new_figure((5.5, 3.8), pyplot)
    ax = fig.subplots()
    x = np.asarray(d["d"])
    ax.step(x, d["staircase"], where="pre", color="k", lw=1.2, label="Staircase")
    ax.plot(x, d["laplace"], color="0.5", lw=1.2, label="Laplace")
    ax.plot(x, d["arete"], "o-", color="C0", ms=3, lw=1.4, label=r"Arete (Figure 4, $\varepsilon=6$)")
    ax.axvline(1, color="0.8", lw=0.8, zorder=0)
    ax.set_xlabel(r"$d = |q(x) - q(y)|$  (units of $\Delta$)")
    ax.set_ylabel(r"worst-case privacy loss $l(d)$")
    ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- Figure 4


def figure_4_data(t_max=0.6, points=1201, digits=8, cache=True):
    r"""Data of :func:`figure_4`: densities (:func:`arete_proofs.distributions.fast.pdf`) and tight epsilons (cached)."""
    from ..distributions import fast
    from ..privacy.tight import tight_epsilon

    sets = _fig4_sets()

    def compute():
        return {k: float(tight_epsilon(*v, digits=digits).epsilon) for k, v in sets.items()}

    tight = _cached("figure_4_tight", {"sets": sets, "digits": digits}, compute, cache)
    t = np.linspace(-t_max, t_max, points)
    return {"t": t.tolist(), "sets": {k: list(v) for k, v in sets.items()}, "tight": tight,
            "pdf": {k: fast.pdf(t, *v).tolist() for k, v in sets.items()}}


def figure_4(t_max=0.6, points=1201, digits=8, cache=True, *, pyplot=False):
    r"""Figure 4: densities of the paper's three empirical parameter sets (``params.FIGURE_4``).

    The legend gives each set's exact tight :math:`\varepsilon`
    (:func:`arete_proofs.privacy.tight.tight_epsilon`, ``digits`` digits, :math:`\Delta = 1`):
    the paper found them on a 0.001 grid and labels them 6, 7, 8.
    """
    d = figure_4_data(t_max, points, digits, cache)
    fig = _new_figure((5.5, 3.8), pyplot)
    ax = fig.subplots()
    t = np.asarray(d["t"])
    for i, (k, v) in enumerate(d["pdf"].items()):
        a, th, lam = (float(x) for x in d["sets"][k])
        ax.plot(t, v, color=_FIG4_COLORS[i], lw=1.4,
                label=rf"$\varepsilon^*={d['tight'][k]:.6f}$ ($\alpha$={a:.3g}, $\theta$={th:.3g}, $\lambda$={lam:.3g})")
    ax.set_xlabel("$t$")
    ax.set_ylabel("density $f_A(t)$")
    ax.legend(fontsize=7, title="Figure 4 parameters (target 6, 7, 8)", title_fontsize=7)
    return fig


# --------------------------------------------------------------------------- error comparison


def error_comparison_data(eps_values=(4, 6, 8, 10, 14, 20), source="stored", digits=8, cache=True):
    r"""Data of :func:`error_comparison` (cached): :math:`E|X|` per mechanism and :math:`\varepsilon`.

    ``source="stored"``: optimised Arete parameters from :data:`STORED_OPTIMA`, with
    their exact :math:`E|Z|` (:func:`arete_proofs.privacy.errors.arete_errors`) and tight
    :math:`\varepsilon` recomputed (a few seconds); values of ``eps_values`` not stored
    are skipped for Arete.  ``source="run"``: run the optimiser
    (:func:`arete_proofs.privacy.errors.comparison_table`, about 10 s per value).  Laplace,
    Staircase and Lemma 3's parameters (:func:`arete_proofs.privacy.errors.paper_errors`,
    flagged where Lemma 3 does not apply) are exact in both cases.
    """
    from ..privacy import errors
    from ..privacy.tight import tight_epsilon

    if source not in ("stored", "run"):
        raise ValueError(f"source must be 'stored' or 'run', got {source!r}")
    eps_values = [float(e) for e in eps_values]

    def compute():
        rows = []
        table = {}
        if source == "run":
            for r in errors.comparison_table(eps_values, optimized=True, digits=digits):
                o = r.arete
                table[float(r.eps)] = {"alpha": o.alpha, "theta": o.theta, "lam": o.lam,
                                       "mean_abs": float(o.mean_abs), "tight": float(o.epsilon)}
        else:
            for e in eps_values:
                p = STORED_OPTIMA.get(e)
                if p is not None:
                    a, th, lam = p
                    table[e] = {"alpha": a, "theta": th, "lam": lam,
                                "mean_abs": float(errors.arete_errors(a, th, lam, digits=digits).mean_abs),
                                "tight": float(tight_epsilon(a, th, lam, digits=digits).epsilon)}
        for e in eps_values:
            pe = errors.paper_errors(e, digits=digits)
            rows.append({"eps": e,
                         "laplace": float(errors.laplace_errors(e, digits=digits).mean_abs),
                         "staircase": float(errors.staircase_errors(e, digits=digits).mean_abs),
                         "paper": float(pe.mean_abs), "lemma3_applies": bool(pe.lemma3_applies),
                         "arete": table.get(e)})
        return {"rows": rows, "source": source}

    return _cached("error_comparison", {"eps": eps_values, "source": source, "digits": digits,
                                        "stored": sorted((k, list(v)) for k, v in STORED_OPTIMA.items())},
                   compute, cache)


def error_comparison(eps_values=(4, 6, 8, 10, 14, 20), source="stored", digits=8, cache=True, *, pyplot=False):
    r""":math:`E|X|` against :math:`\varepsilon` (:math:`\Delta = 1`, log scale) for the four noises.

    Laplace :math:`1/\varepsilon`, Staircase with optimal :math:`\gamma` (Lemma 27),
    Arete with optimised parameters (exact tight :math:`\varepsilon^* \le \varepsilon`) and
    Arete with Lemma 3's parameters (hollow markers where :math:`\varepsilon < 20`, outside
    the lemma: there they are over-private).  See :func:`error_comparison_data`.
    """
    d = error_comparison_data(eps_values, source, digits, cache)
    rows = d["rows"]
    fig = _new_figure((5.5, 3.8), pyplot)
    ax = fig.subplots()
    e = np.array([r["eps"] for r in rows])
    ax.semilogy(e, [r["laplace"] for r in rows], "s-", color="0.5", ms=4, label="Laplace")
    ax.semilogy(e, [r["staircase"] for r in rows], "^-", color="k", ms=4, label="Staircase")
    opt = [(r["eps"], r["arete"]["mean_abs"]) for r in rows if r["arete"]]
    if opt:
        ax.semilogy(*zip(*opt), "o-", color="C0", ms=4, label="Arete, optimised")
    ax.semilogy(e, [r["paper"] for r in rows], ":", color="C3", lw=1)
    ok = [r for r in rows if r["lemma3_applies"]]
    no = [r for r in rows if not r["lemma3_applies"]]
    if ok:
        ax.semilogy([r["eps"] for r in ok], [r["paper"] for r in ok], "D", color="C3", ms=4,
                    label="Arete, Lemma 3")
    if no:
        ax.semilogy([r["eps"] for r in no], [r["paper"] for r in no], "D", mfc="none", color="C3", ms=4,
                    label=r"Lemma 3 params, $\varepsilon<20$")
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$E|X|$ ($\Delta = 1$)")
    ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- Gamma-Gamma singularity


def gamma_gamma_singularity_data(alphas=("0.1", "0.3"), theta="1", exps=(-12, 0), points=25, cache=True):
    r"""Data of :func:`gamma_gamma_singularity` (cached).

    For :math:`t = 10^{e}` on ``points`` log-spaced exponents: the library's
    :func:`arete_proofs.distributions.gamma_gamma.pdf` (15 digits), the float64 branch-cut path
    :func:`arete_proofs.distributions.fast.gg_pdf`, the Bessel-K closed form of
    Note 1 evaluated independently with ``mpmath.besselk`` at 40 digits, the
    small-:math:`t` asymptote :math:`|t|^{2\alpha-1}/(2\cos(\pi\alpha)\Gamma(2\alpha)\theta^{2\alpha})`,
    and a naive ``mpmath.quad`` of Definition 7's integral at 15 digits.
    """
    from mpmath import mp

    from ..distributions import fast, gamma_gamma

    alphas = [str(a) for a in alphas]
    ts = [float(x) for x in np.logspace(exps[0], exps[1], points)]

    def compute():
        out = {"t": ts, "alpha": {}}
        for a_s in alphas:
            lib, bk, asym, naive = [], [], [], []
            flt = fast.gg_pdf(np.asarray(ts), float(a_s), float(theta)).tolist()
            for t in ts:
                lib.append(float(gamma_gamma.pdf(repr(t), a_s, theta, digits=15)))
                with mp.workdps(40):
                    a, th, x = mp.mpf(a_s), mp.mpf(theta), mp.mpf(repr(t))
                    nu = a - mp.mpf(1) / 2
                    bk.append(float(x ** nu * mp.besselk(nu, x / th)
                                    / (mp.sqrt(mp.pi) * mp.gamma(a) * th ** (a + mp.mpf(1) / 2) * 2 ** nu)))
                    asym.append(float(x ** (2 * a - 1) / (2 * mp.cospi(a) * mp.gamma(2 * a) * th ** (2 * a))))
                with mp.workdps(15):
                    a, th, x = mp.mpf(a_s), mp.mpf(theta), mp.mpf(repr(t))
                    c = 1 / (mp.gamma(a) ** 2 * th ** (2 * a))
                    naive.append(float(mp.quad(lambda y: c * ((x + y) * y) ** (a - 1) * mp.exp(-(x + 2 * y) / th),
                                               [0, mp.inf])))
            out["alpha"][a_s] = {"library": lib, "fast": flt, "besselk": bk, "asymptote": asym,
                                 "naive_quad": naive}
        return out

    return _cached("gg_singularity", {"alphas": alphas, "theta": str(theta), "exps": list(exps),
                                      "points": points}, compute, cache)


def gamma_gamma_singularity(alphas=("0.1", "0.3"), theta="1", exps=(-12, 0), points=25, cache=True, *,
                            pyplot=False):
    r"""The :math:`|t|^{2\alpha-1}` singularity of :math:`f_{\Gamma-\Gamma}` at 0 for :math:`\alpha < 1/2` (Note 1, Lemma 14).

    Left: :math:`f_{\Gamma-\Gamma}(t)` on log-log axes (library, Bessel-K closed form,
    asymptote).  Right: relative error against the closed form of the float64
    branch-cut path (:func:`arete_proofs.distributions.fast.gg_pdf`) and of a
    naive ``mpmath.quad`` of Definition 7, which loses the mass near the singularity
    (see :doc:`/explanation/densities`).
    """
    d = gamma_gamma_singularity_data(alphas, theta, exps, points, cache)
    fig = _new_figure((9, 3.6), pyplot)
    ax, ax2 = fig.subplots(1, 2)
    t = np.asarray(d["t"])
    for i, (a, v) in enumerate(d["alpha"].items()):
        c = f"C{i}"
        ax.loglog(t, v["besselk"], color=c, lw=3, alpha=0.35, label=rf"Bessel-K closed form, $\alpha={a}$")
        ax.loglog(t, v["library"], ".", color=c, ms=5, label=r"gamma_gamma.pdf")
        ax.loglog(t, v["asymptote"], "--", color=c, lw=0.8, label=r"$|t|^{2\alpha-1}$ asymptote")
        ref = np.asarray(v["besselk"])
        tiny = 1e-17
        ax2.loglog(t, np.maximum(np.abs(np.asarray(v["fast"]) / ref - 1), tiny), ".-", color=c, ms=4,
                   label=rf"fast.gg_pdf (branch cut), $\alpha={a}$")
        ax2.loglog(t, np.maximum(np.abs(np.asarray(v["naive_quad"]) / ref - 1), tiny), "x--", color=c, ms=4,
                   label=rf"naive mp.quad, $\alpha={a}$")
    ax.set_xlabel("$t$")
    ax.set_ylabel(r"$f_{\Gamma-\Gamma}(t)$, $\theta=" + str(theta) + "$")
    ax.legend(fontsize=6)
    ax2.set_xlabel("$t$")
    ax2.set_ylabel("relative error vs closed form")
    ax2.set_ylim(1e-17, 10)
    ax2.legend(fontsize=6)
    return fig



# --------------------------------------------------------------------------- the paper's 0.001 grid


def paper_grid_data(steps=(0.004, 0.002, 0.001, 0.0005, 0.00025), digits=8, cache=True):
    r"""Data of :func:`paper_grid` (cached): the script's grid epsilon against the exact one per step.

    ``arete_proofs.privacy.paper_grid.bias_table(steps, digits=digits)`` for the three
    Figure-4 sets (the paper script's discretisation, exact tight :math:`\varepsilon^*`
    and exact :math:`f_A(0)` at ``digits`` digits; about 3 s): ``{"rows": [...], "order":
    {target: fitted order of the bias on the steps <= 0.002}}``, rows as dicts of floats.
    """
    from ..privacy import paper_grid as pg

    steps = [float(h) for h in steps]

    def compute():
        rows = pg.bias_table(steps, digits=digits)
        fine = [r for r in rows if r.step <= 0.002]
        try:
            order = {str(k): v for k, v in pg.bias_order(fine).items()}
        except ValueError:  # fewer than two steps <= 0.002
            order = {}
        keys = ("target", "step", "grid_epsilon", "exact_epsilon", "bias", "sign", "f0_grid", "f0_exact",
                "f0_rel_error", "exceeds_target")
        return {"rows": [{k: getattr(r, k) for k in keys} for r in rows], "order": order}

    return _cached("paper_grid", {"steps": steps, "digits": digits}, compute, cache)


def paper_grid(steps=(0.004, 0.002, 0.001, 0.0005, 0.00025), digits=8, cache=True, *, pyplot=False):
    r"""The paper's grid privacy loss minus the exact one, against the grid step (Figures 3-4, Section 5).

    Left: :math:`\varepsilon_h - \varepsilon^*` on log-log axes for the three Figure-4 sets
    (:math:`\varepsilon_h` from the paper script's discretised densities, reproduced by
    ``arete_proofs.privacy.paper_grid.paper_grid``; hollow markers where the bias is
    negative), with a slope-1 guide.  Right: the table (grid and exact :math:`\varepsilon`,
    bias, relative error of the grid :math:`f_A(0)`; grid values above their target in red).
    See :func:`paper_grid_data`.
    """
    d = paper_grid_data(steps, digits, cache)
    fig = _new_figure((11, 4.6), pyplot)
    ax, axt = fig.subplots(1, 2, width_ratios=(1, 1.35))
    by = {}
    for r in d["rows"]:
        by.setdefault(r["target"], []).append(r)
    for i, (target, rows) in enumerate(by.items()):
        c = _FIG4_COLORS[i % 5]
        h = np.array([r["step"] for r in rows])
        b = np.array([r["bias"] for r in rows])
        order = d["order"].get(str(target))
        label = rf"target {target}" + (f" (order {order:.2f})" if order is not None else "")
        ax.loglog(h, np.abs(b), "-", color=c, lw=1.2, label=label)
        ax.loglog(h[b > 0], b[b > 0], "o", color=c, ms=5)
        ax.loglog(h[b <= 0], np.abs(b[b <= 0]), "o", mfc="none", color=c, ms=5)
    hs = np.array(sorted({r["step"] for r in d["rows"]}))
    if len(hs) > 1:
        ref = max(abs(r["bias"]) for r in d["rows"] if r["step"] == hs[-1])
        ax.loglog(hs, ref * hs / hs[-1], ":", color="0.5", lw=1, label="slope 1")
    ax.axvline(0.001, color="0.85", lw=0.8, zorder=0)
    from matplotlib.ticker import NullLocator

    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticks(hs, labels=[f"{h:g}" for h in hs], fontsize=8)
    ax.set_xlabel("grid step $h$")
    ax.set_ylabel(r"$\varepsilon_h - \varepsilon^*$ (grid minus exact)")
    ax.set_title("paper's grid epsilon: bias", fontsize=10)
    ax.legend(fontsize=7)
    cols = ["target", "step", "grid eps", "exact eps*", "bias", "f(0) rel. err."]
    cells, colours = [], []
    for r in d["rows"]:
        cells.append([str(r["target"]), f"{r['step']:g}", f"{r['grid_epsilon']:.6f}", f"{r['exact_epsilon']:.6f}",
                      f"{r['bias']:+.2e}", f"{r['f0_rel_error']:+.2e}"])
        colours.append(["w", "w", "#f6c9c4" if r["exceeds_target"] else "w", "w", "w", "w"])
    axt.axis("off")
    tab = axt.table(cellText=cells, colLabels=cols, cellColours=colours, loc="center", cellLoc="right")
    tab.auto_set_font_size(False)
    tab.set_fontsize(7)
    tab.scale(1, 1.15)
    axt.set_title(r"Figure-4 sets, $\Delta = 1$ (red: grid eps above the target)", fontsize=9)
    return fig
