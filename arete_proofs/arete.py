"""TEMPORARY STUB -- the real engine is being written; signatures are final.

pdf(t, alpha, theta, lam, *, digits=None) -> mpf, or list of mpf when t is a sequence
logpdf, cdf, sf: same signature
mean_abs(alpha, theta, lam, *, digits=None), var(alpha, theta, lam, *, digits=None)
"""
from mpmath import mp
from ._validation import GUARD_DIGITS, parse_precision, positive, real, resolve_digits
from . import gamma_gamma, laplace


def _map(fn):
    def wrapper(t, alpha, theta, lam, *, digits=None):
        if isinstance(t, (list, tuple)) or hasattr(t, "__array__") and getattr(t, "ndim", 0) > 0:
            return [fn(x, alpha, theta, lam, digits=digits) for x in t]
        return fn(t, alpha, theta, lam, digits=digits)
    wrapper.__name__ = fn.__name__
    return wrapper


@_map
def pdf(t, alpha, theta, lam, *, digits=None):
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        t = real(t, "t"); alpha = positive(alpha, "alpha"); theta = positive(theta, "theta"); lam = positive(lam, "lam")
        f = lambda x: gamma_gamma.pdf(x, alpha, theta) * mp.exp(-abs(t - x) / lam) / (2 * lam)
        return mp.quad(f, [-mp.inf, 0, t, mp.inf] if t != 0 else [-mp.inf, 0, mp.inf])


@_map
def logpdf(t, alpha, theta, lam, *, digits=None):
    return mp.log(pdf(t, alpha, theta, lam, digits=digits))


@_map
def sf(t, alpha, theta, lam, *, digits=None):
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        t = real(t, "t")
        return mp.quad(lambda x: pdf(x, alpha, theta, lam), [t, mp.inf])


@_map
def cdf(t, alpha, theta, lam, *, digits=None):
    return 1 - sf(t, alpha, theta, lam, digits=digits)


def mean_abs(alpha, theta, lam, *, digits=None):
    raise NotImplementedError


def var(alpha, theta, lam, *, digits=None):
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        return 2 * positive(alpha, "alpha") * positive(theta, "theta") ** 2 + 2 * positive(lam, "lam") ** 2
