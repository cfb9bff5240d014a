"""Exploration (issue 24): do simple generalisations of lattice + Gaussian noise lower E|Z| at eps = 8?

Not a test and not part of the package: a float64 experiment that docs/explanation/lattice-gaussian.md mentions.
Family: Z = g * (sum of integer components) + N(0, sigma^2), Delta = 1, g the finest lattice step.
Each variant adds free parameters to the base MSDLap(a, m) comb (components i * q * DLap(a),
i = 1..m, on the lattice g = 1/(m q)); for each parameter point sigma is the least with the loss
<= eps (bisection), and Nelder-Mead minimises E|Z| over the rest:

* ``base``: MSDLap(a, m) (q = 1): the optimiser's family;
* ``rate1``: the weight-1 component gets its own rate a_1 (a flatter or sharper centre);
* ``rate12``: the weight-1 and weight-2 components get their own rates;
* ``skellam``: a finer lattice (q = 2) and a Skellam(mu) component of weight 1 (a discrete
  Gaussian-like smoothing below the comb's step);
* ``fine-dlap``: the same with a DLap(b) component of weight 1.

The loss is the window maximum of ln f(t) - min_{|v-t|<=1} ln f(v) over |t| <= 3 on a grid of
min(g, sigma)/20 (no tail limit: an estimate; the package's estimators are
arete_proofs.privacy.optimize_lattice and lattice_large).  Usage::

    python benchmarks/explore_lattice_variants.py [--eps 8] [--m 34] [--variants base rate1 ...]

Measured 2026-12-02 (eps 8, m 34; Staircase E|Z| 0.0183218): base 0.0218389 (1.192), rate1
0.0218289 (a_1 -> 24.9: the centre's +-1 points are switched off; 0.05% better), rate12 0.0218259,
skellam 0.0218867 (mu -> 0.01: switched off), fine-dlap 0.0218390 (b -> 20: switched off).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy import ndimage, signal, special
from scipy import optimize as so
from scipy.stats import norm


def comb_pmf(comps, K):
    """pmf on -K..K of sum of components (kind, weight, parameter): 'dlap' (rate a) or 'skellam' (mu)."""
    d = np.zeros(2 * K + 1)
    d[K] = 1.0
    for kind, w, par in comps:
        X = K // w + 1
        x = np.arange(-X, X + 1)
        ker = np.zeros(2 * w * X + 1)
        if kind == "dlap":
            ker[w * (x + X)] = math.tanh(par / 2) * np.exp(-par * np.abs(x))
        else:
            ker[w * (x + X)] = np.exp(-2 * par) * special.iv(np.abs(x), 2 * par)
        ker /= ker.sum()
        d = np.maximum(signal.fftconvolve(d, ker)[w * X: w * X + 2 * K + 1], 0)
    return d


def loss(comps, g, sigma, span=3.0):
    K = int((span + 2) / g) + 5
    p = comb_pmf(comps, K)
    dx = min(g, sigma) / 20
    M = int(round(1 / dx))
    dx = 1 / M
    t = np.arange(-int((span + 1) / dx), int((span + 1) / dx) + 1) * dx
    R = int(12 * sigma / g) + 2
    kk = np.rint(t / g).astype(int)[:, None] + np.arange(-R, R + 1)[None, :]
    f = np.sum(p[np.clip(kk + K, 0, 2 * K)] * np.exp(-0.5 * ((t[:, None] - g * kk) / sigma) ** 2), axis=1)
    lf = np.log(f)
    mn = ndimage.minimum_filter1d(lf, 2 * M + 1, mode="nearest")
    return float(np.max((lf - mn)[np.abs(t) <= span]))


def mean_abs(comps, g, sigma):
    K = int(8 / g) + 20
    p = comb_pmf(comps, K)
    x = g * np.arange(-K, K + 1)
    return float(np.sum(p * (x * (1 - 2 * norm.cdf(-x / sigma)) + 2 * sigma * norm.pdf(x / sigma))))


def least_sigma(comps, g, eps):
    lo, hi = 0.02 * g, 20 * g
    if loss(comps, g, hi) > eps:
        return None
    for _ in range(30):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if loss(comps, g, mid) > eps else (lo, mid)
    return hi


def variant(name, eps, m):
    """(components builder, lattice step, start point) of a variant."""
    q = 2 if name in ("skellam", "fine-dlap") else 1
    g = 1.0 / (m * q)

    def build(x):
        rates = [x[0]] * m
        if name == "rate1":
            rates[0] = x[1]
        if name == "rate12":
            rates[0], rates[1] = x[1], x[2]
        c = [("dlap", (i + 1) * q, rates[i]) for i in range(m)]
        if name == "skellam":
            c.append(("skellam", 1, x[1]))
        if name == "fine-dlap":
            c.append(("dlap", 1, x[1]))
        return c

    start = {"base": [eps - 0.03], "rate1": [eps - 0.03, eps], "rate12": [eps - 0.03, eps, eps],
             "skellam": [eps - 0.03, 0.3], "fine-dlap": [eps - 0.03, 1.5]}[name]
    return build, g, start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--eps", type=float, default=8.0)
    ap.add_argument("--m", type=int, default=34)
    ap.add_argument("--variants", nargs="+", default=["base", "rate1", "rate12", "skellam", "fine-dlap"])
    a = ap.parse_args(argv)
    from arete_proofs.distributions import staircase

    sc = float(staircase.mean_abs(staircase.gamma_mean_abs(a.eps), 1, a.eps))
    for name in a.variants:
        build, g, x0 = variant(name, a.eps, a.m)
        t0 = time.perf_counter()

        def obj(x, build=build, g=g):
            if min(x) <= 0.01:
                return 1e9
            c = build(x)
            s = least_sigma(c, g, a.eps * (1 - 1e-4))
            return 1e9 if s is None else mean_abs(c, g, s)

        r = so.minimize(obj, x0, method="Nelder-Mead", options={"xatol": 1e-3, "fatol": 1e-8, "maxfev": 150})
        print(f"{name:10s} x={np.round(r.x, 4).tolist()} E|Z|={r.fun:.7g} ratio={r.fun / sc:.4f} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
