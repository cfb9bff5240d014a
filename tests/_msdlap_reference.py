"""Independent references for the MSDLap (and DLap comb) tests: direct convolutions of the DLap pmfs.

MSDLap(a, m) = sum_{i=1}^m i X_i, X_i iid DLap(a), p(k) = tanh(a/2) e^{-a|k|}.  Nothing here is
imported from arete_proofs: each X_i is truncated and the scaled laws are convolved term by term
(float: numpy.convolve; mpmath: sums over the truncated supports).
"""

import numpy as np
from mpmath import mp


def convolution_mean_abs(a, m, K):
    """E|Z| of MSDLap(a, m) by a float convolution of the DLap(a) pmfs truncated to |x| <= K."""
    k = np.arange(-K, K + 1)
    p1 = np.tanh(a / 2) * np.exp(-a * np.abs(k))
    p = np.array([1.0])
    for i in range(1, m + 1):
        q = np.zeros(i * (2 * K) + 1)
        q[::i] = p1
        p = np.convolve(p, q)
    n = (len(p) - 1) // 2
    return float((np.abs(np.arange(-n, n + 1)) * p).sum())


def convolution_pmf(weights, rates, ks, digits):
    """{k: P(Z = k)} of the comb Z = sum_c w_c DLap(a_c) in mpmath (MSDLap(a, m): weights 1..m, rates a),
    each DLap truncated to |x| <= T where the mass it leaves out, 2 e^{-a(T+1)}/(1 + e^{-a}), is below
    10^-(digits + 10) (so the *absolute* error of every value is below len(weights) 10^-(digits + 10):
    raise ``digits`` to compare small tail values relatively)."""
    with mp.workdps(digits + 15):
        p = {0: mp.one}
        for wc, a in zip(weights, rates):
            a = mp.mpf(a)
            T = int(mp.ceil((digits + 12) * mp.log(10) / a)) + 1
            f = [mp.tanh(a / 2) * mp.exp(-a * abs(x)) for x in range(-T, T + 1)]
            q = {}
            for y, py in p.items():
                for x, fx in zip(range(-T, T + 1), f):
                    z = y + wc * x
                    q[z] = q.get(z, mp.zero) + py * fx
            p = q
        return {k: p.get(k, mp.zero) for k in ks}
