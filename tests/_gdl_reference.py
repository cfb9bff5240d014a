"""Independent reference for the GDL tests: the negative-binomial convolution, summed term by term.

No code is shared with arete_proofs.distributions.gdl: NB(beta, 1 - q) by its ratio recurrence
nb(0) = (1-q)^beta, nb(n+1) = nb(n) q (n + beta)/(n + 1); p(k) = sum_j nb(|k| + j) nb(j),
summed until the terms fall below 10^-(digits + 15) of the sum (they decrease geometrically).
"""

from mpmath import mp


def nb_table(beta, a, n_max, digits):
    with mp.workdps(digits + 20):
        beta, a = mp.mpf(beta), mp.mpf(a)
        q = mp.exp(-a)
        out = [(1 - q) ** beta]
        for n in range(n_max):
            out.append(out[-1] * q * (n + beta) / (n + 1))
        return out


def gdl_pmf_conv(ks, beta, a, digits):
    """{k: p(k)} for the integers ks by the NB convolution."""
    with mp.workdps(digits + 20):
        q = float(mp.exp(-mp.mpf(a)))
        # terms decay like q^(2j) j^(2 beta - 2): enough j for 10^-(digits+15)
        J = int((digits + 15) * 2.303 / (-2 * mp.log(q))) + 50 + int(10 * float(beta))
        K = max(abs(k) for k in ks)
        nb = nb_table(beta, a, K + J + 1, digits)
        out = {}
        for k in ks:
            n = abs(k)
            out[k] = mp.fsum(nb[n + j] * nb[j] for j in range(J))
        return out
