"""TEMPORARY STUB -- the real module is being written; signatures are final.

pdf(t, alpha, theta, *, digits=None), logpdf, cdf, sf; mean_abs(alpha, theta), var(alpha, theta)
"""
from mpmath import mp
from ._validation import GUARD_DIGITS, positive, real, resolve_digits


def pdf(t, alpha, theta, *, digits=None):
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        t = abs(real(t, "t")); alpha = positive(alpha, "alpha"); theta = positive(theta, "theta")
        if t == 0:
            return mp.inf if alpha <= 0.5 else mp.gamma(alpha - 0.5) / (2 * mp.sqrt(mp.pi) * mp.gamma(alpha) * theta)
        nu = alpha - mp.mpf(1) / 2
        return t**nu * mp.besselk(nu, t / theta) / (mp.sqrt(mp.pi) * mp.gamma(alpha) * theta ** (alpha + mp.mpf(1) / 2) * 2**nu)
