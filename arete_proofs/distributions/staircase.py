r"""The Staircase distribution :math:`SC(\gamma, \Delta)` (paper, Lemma 27; Geng & Viswanath 2016).

Privacy level ``eps`` > 0, sensitivity ``Delta`` > 0, step parameter
``gamma`` in :math:`[0, 1]`; write :math:`r = e^{-\varepsilon}`,
:math:`q = 1 - r` and :math:`c(\gamma) = \gamma + r(1-\gamma) = r + q\gamma`.

.. math::

    f_{SC}(t) = \begin{cases}
        a(\gamma), & t \in [0, \gamma\Delta) \\
        e^{-\varepsilon} a(\gamma), & t \in [\gamma\Delta, \Delta) \\
        e^{-k\varepsilon} f_{SC}(t - k\Delta), & t \in [k\Delta, (k+1)\Delta),\ k \in \mathbb{N} \\
        f_{SC}(-t), & t < 0
    \end{cases}
    \qquad
    a(\gamma) = \frac{1 - e^{-\varepsilon}}{2\Delta(\gamma + e^{-\varepsilon}(1-\gamma))}.

Equivalently :math:`f_{SC}(t) = a(\gamma)\, e^{-\varepsilon N(|t|)}` with
:math:`N(u) = \lfloor u/\Delta + 1 - \gamma \rfloor` for :math:`u \ge 0`: the
density only jumps at :math:`|t| = (k+\gamma)\Delta`, :math:`k = 0, 1, \dots`,
and takes the lower value there (right-continuous for :math:`t > 0`, by symmetry
left-continuous for :math:`t < 0`).  For :math:`\gamma = 0` the first step is
empty (:math:`f_{SC}(0) = e^{-\varepsilon}a(0)`); :math:`\gamma = 0` and
:math:`\gamma = 1` give the same density
:math:`\frac{1-e^{-\varepsilon}}{2\Delta} e^{-\varepsilon\lfloor |t|/\Delta \rfloor}`.

Lemma 27: adding :math:`X \sim SC(\gamma, \Delta)` to a query of sensitivity
:math:`\Delta` is :math:`\varepsilon`-differentially private, because
:math:`f_{SC}(t) \le e^{\varepsilon} f_{SC}(t + s)` for all :math:`t` and
:math:`|s| \le \Delta`; with the optimal :math:`\gamma` it has
:math:`E|X| = \Theta(\Delta e^{-\varepsilon/2})` (:func:`gamma_mean_abs`) and
:math:`\operatorname{Var} X = \Theta(\Delta^2 e^{-2\varepsilon/3})`
(:func:`gamma_var`).

Step points: a ``t`` whose :math:`|t|/\Delta - \gamma` lies within the
parameter parsing precision of an integer is treated as lying exactly on that
jump, so ``pdf("0.42", "0.2", "0.1", eps)`` (:math:`t = (4 + \gamma)\Delta`) gets
the paper's value (the lower step) although ``0.42/0.1 - 0.2`` is not exactly 4
in binary.

All functions work at ``digits`` significant decimal digits (default: the
current ``mpmath.mp.dps``) and return an ``mpf`` carrying guard digits.

>>> from mpmath import mp
>>> g, D, e = "0.3", 2, 5
>>> # epsilon-DP (Lemma 27): a shift by Delta changes the density by at most e^eps, with equality
>>> mp.almosteq(pdf(0, g, D, e) / pdf(D, g, D, e), mp.exp(e))
True
>>> # normalisation: one period carries 2 * int_0^Delta f = 1 - e^-eps, the periods decay like e^-k eps
>>> mp.almosteq(2 * mp.quad(lambda t: pdf(t, g, D, e), [0, 0.6, D]) / (1 - mp.exp(-e)), 1)
True
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, exponent_digits, parse_precision, positive, real, resolve_digits

__all__ = [
    "pdf",
    "logpdf",
    "cdf",
    "sf",
    "mean_abs",
    "var",
    "gamma_mean_abs",
    "gamma_var",
    "privacy_loss",
]


def _unit(value, name: str):
    """Convert to ``mpf`` and require ``0 <= value <= 1`` (NaN rejected)."""
    x = real(value, name)
    if not 0 <= x <= 1:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return x


def _params(gamma, Delta, eps, digits):
    """Parse ``gamma, Delta, eps``; return them, ``d`` and the parse precision ``P``."""
    d = resolve_digits(digits)
    P = parse_precision(d)
    with mp.workdps(P):
        gamma = _unit(gamma, "gamma")
        Delta = positive(Delta, "Delta")
        eps = positive(eps, "eps")
    return gamma, Delta, eps, d, P


def _constants(gamma, eps):
    """``r = e^-eps``, ``q = 1 - r`` (no cancellation for small eps) and ``c = r + q gamma``."""
    r = mp.exp(-eps)
    q = -mp.expm1(-eps)
    return r, q, r + q * gamma


def _snap(x, P):
    """``x`` rounded to the nearest integer when within the parsing precision of it.

    The inputs are only known to ``P`` digits, so ``|x|/Delta - gamma`` carries an
    absolute error of a few units of ``10**-P * (1 + |x|)``.
    """
    n = mp.nint(x)
    if abs(x - n) <= mp.mpf(10) ** (2 - P) * (1 + abs(x)):
        return n
    return x


def _extra_digits(scale):
    """:func:`exponent_digits` of one scale; an integer, so 15 digits suffice for the log."""
    with mp.workdps(15):
        return exponent_digits(scale)


def _point(t, gamma, Delta, eps, digits, log=False):
    """Parse a point and the parameters; return them with the extra working digits.

    ``log=True`` adds digits for the absolute accuracy of ``ln(2 Delta)``.
    """
    gamma, Delta, eps, d, P = _params(gamma, Delta, eps, digits)
    with mp.workdps(P):
        t = real(t, "t")
        u = mp.zero if mp.isinf(t) else abs(t) / Delta
        scale = max(u, eps, u * eps, abs(mp.log(Delta)) if log else 0)
    return t, gamma, Delta, eps, d, P, _extra_digits(scale)


def _steps(t, gamma, Delta, P, extra):
    r"""Number of jumps :math:`N(|t|) = \lfloor |t|/\Delta + 1 - \gamma \rfloor` between 0 and ``t``."""
    with mp.workdps(P + extra):
        w = _snap(abs(t) / Delta - gamma, P)
        return mp.floor(w) + 1


def logpdf(t, gamma, Delta, eps, *, digits=None):
    r"""Log-density :math:`\ln f_{SC}(t) = \ln a(\gamma) - \varepsilon N(|t|)`, :math:`N(u) = \lfloor u/\Delta + 1 - \gamma\rfloor`.

    Here :math:`\ln a(\gamma) = \ln(1 - e^{-\varepsilon}) - \ln(2\Delta) - \ln(\gamma + e^{-\varepsilon}(1-\gamma))`;
    ``-inf`` at :math:`t = \pm\infty`.

    >>> from mpmath import mp
    >>> # one period further out costs exactly eps (the e^{-k eps} recursion of Lemma 27)
    >>> mp.almosteq(logpdf("0.1", "0.5", 1, 3) - logpdf("7.1", "0.5", 1, 3), 7 * 3)
    True
    """
    t, gamma, Delta, eps, d, P, extra = _point(t, gamma, Delta, eps, digits, log=True)
    if mp.isinf(t):
        return mp.ninf
    n = _steps(t, gamma, Delta, P, extra)
    with mp.workdps(d + GUARD_DIGITS + extra):
        r, q, c = _constants(gamma, eps)
        return mp.log(q) - mp.log(2 * Delta) - mp.log(c) - eps * n


def pdf(t, gamma, Delta, eps, *, digits=None):
    r"""Density :math:`f_{SC}(t) = a(\gamma)\, e^{-\varepsilon N(|t|)}` (Lemma 27).

    :math:`a(\gamma) = (1 - e^{-\varepsilon}) / (2\Delta(\gamma + e^{-\varepsilon}(1-\gamma)))`,
    :math:`N(u) = \lfloor u/\Delta + 1 - \gamma \rfloor`; 0 at :math:`t = \pm\infty`.

    >>> from mpmath import mp
    >>> # the jump at t = gamma*Delta is a factor e^eps; the density is symmetric
    >>> mp.almosteq(pdf("0.29", "0.3", 1, 2) / pdf("0.3", "0.3", 1, 2), mp.exp(2))
    True
    >>> pdf("-0.3", "0.3", 1, 2) == pdf("0.3", "0.3", 1, 2)
    True
    """
    t, gamma, Delta, eps, d, P, extra = _point(t, gamma, Delta, eps, digits)
    if mp.isinf(t):
        return mp.zero
    n = _steps(t, gamma, Delta, P, extra)
    with mp.workdps(d + GUARD_DIGITS + extra):
        r, q, c = _constants(gamma, eps)
        return q / (2 * Delta * c) * mp.exp(-eps * n)


def _sf_abs(t, gamma, Delta, eps, wd):
    r""":math:`P(X > |t|)` for finite :math:`t`.

    With :math:`t/\Delta = k + s`, :math:`k = \lfloor t/\Delta \rfloor`, the periods
    :math:`j > k` carry :math:`\sum_{j>k} r^j \Delta c\, a = r^{k+1}/2` and the rest of
    period :math:`k` is a sum of two rectangles, which gives

    * :math:`s < \gamma`: :math:`r^k (r + q(\gamma - s)) / (2c)`,
    * :math:`s \ge \gamma`: :math:`r^{k+1} (c + q(1 - s)) / (2c)`,

    both sums of non-negative terms (no cancellation in the tail).
    """
    with mp.workdps(wd):
        x = abs(t) / Delta
        k = mp.floor(x)
        s = x - k
        r, q, c = _constants(gamma, eps)
        if s < gamma:
            return mp.exp(-eps * k) * (r + q * (gamma - s)) / (2 * c)
        return mp.exp(-eps * (k + 1)) * (c + q * (1 - s)) / (2 * c)


def sf(t, gamma, Delta, eps, *, digits=None):
    r"""Survival function :math:`P(X > t)`, computed without cancellation for :math:`t > 0`.

    With :math:`r = e^{-\varepsilon}`, :math:`q = 1-r`, :math:`c = r + q\gamma`,
    :math:`t/\Delta = k + s` (:math:`k \in \mathbb{N}`, :math:`0 \le s < 1`) and
    :math:`t \ge 0`:

    .. math::

        P(X > t) = \begin{cases}
            r^k\,(r + q(\gamma - s)) / (2c), & s < \gamma, \\
            r^{k+1}\,(c + q(1 - s)) / (2c), & s \ge \gamma,
        \end{cases}

    and :math:`P(X > t) = 1 - P(X > -t)` for :math:`t < 0`.  In particular
    :math:`P(X > k\Delta) = e^{-k\varepsilon}/2`.

    >>> from mpmath import mp
    >>> # P(X > t + Delta) = e^-eps P(X > t) for t >= 0, also far beyond the float range
    >>> mp.almosteq(sf(1000.5, "0.2", 1, 3), mp.exp(-3) * sf(999.5, "0.2", 1, 3))
    True
    >>> mp.almosteq(sf(40, "0.2", 4, 3), mp.exp(-30) / 2)
    True
    """
    t, gamma, Delta, eps, d, P, extra = _point(t, gamma, Delta, eps, digits)
    wd = d + GUARD_DIGITS + extra
    if mp.isinf(t):
        return mp.zero if t > 0 else mp.one
    v = _sf_abs(t, gamma, Delta, eps, wd)
    if t >= 0:
        return v
    with mp.workdps(wd):
        return 1 - v


def cdf(t, gamma, Delta, eps, *, digits=None):
    r"""CDF :math:`P(X \le t)`; :math:`P(X \le t) = P(X > -t)` by symmetry (see :func:`sf`).

    >>> from mpmath import mp
    >>> mp.almosteq(cdf(-3, "0.4", 2, 1), sf(3, "0.4", 2, 1))
    True
    >>> # the central step [-gamma Delta, gamma Delta] carries mass 2 gamma Delta a(gamma)
    >>> mp.almosteq(cdf("0.8", "0.4", 2, 1) - cdf("-0.8", "0.4", 2, 1), 2 * mp.mpf("0.8") * pdf(0, "0.4", 2, 1))
    True
    """
    t, gamma, Delta, eps, d, P, extra = _point(t, gamma, Delta, eps, digits)
    wd = d + GUARD_DIGITS + extra
    if mp.isinf(t):
        return mp.one if t > 0 else mp.zero
    v = _sf_abs(t, gamma, Delta, eps, wd)
    if t < 0:
        return v
    with mp.workdps(wd):
        return 1 - v


def mean_abs(gamma, Delta, eps, *, digits=None):
    r"""Expected magnitude :math:`E|X| = \Delta\left(\frac{r + q\gamma^2}{2c} + \frac{r}{q}\right)`.

    Notation :math:`r = e^{-\varepsilon}`, :math:`q = 1 - r`,
    :math:`c = r + q\gamma = \gamma + e^{-\varepsilon}(1-\gamma)`, so
    :math:`a(\gamma) = q/(2\Delta c)`.

    Derivation: period :math:`k` of the positive half contributes
    :math:`a r^k \Delta^2((k+\gamma)^2 - k^2)/2 + a r^{k+1}\Delta^2((k+1)^2 - (k+\gamma)^2)/2
    = \tfrac{a\Delta^2}{2} r^k \big[(\gamma^2 + r(1-\gamma^2)) + 2k c\big]`
    to :math:`\int_0^\infty t f`.  With :math:`\sum_k r^k = 1/q` and
    :math:`\sum_k k r^k = r/q^2`,

    .. math::

        E|X| = 2\int_0^\infty t f_{SC}(t)\,dt
             = a\Delta^2\left(\frac{r + q\gamma^2}{q} + \frac{2rc}{q^2}\right)
             = \Delta\left(\frac{r + q\gamma^2}{2c} + \frac{r}{q}\right).

    :math:`\partial_\gamma E|X| = \Delta (c^2 - r)/(2c^2)`, so the minimiser is
    :math:`c = \sqrt r` (see :func:`gamma_mean_abs`).

    >>> from mpmath import mp
    >>> # gamma = 1 is a mixture of uniforms on [k Delta, (k+1) Delta): E|X| = Delta (1/2 + r/q)
    >>> mp.almosteq(mean_abs(1, 3, 2), 3 * (mp.mpf(1) / 2 + 1 / mp.expm1(2)))
    True
    """
    gamma, Delta, eps, d, P = _params(gamma, Delta, eps, digits)
    extra = _extra_digits(eps)
    with mp.workdps(d + GUARD_DIGITS + extra):
        r, q, c = _constants(gamma, eps)
        return Delta * ((r + q * gamma**2) / (2 * c) + r / q)


def var(gamma, Delta, eps, *, digits=None):
    r"""Variance :math:`\operatorname{Var} X = E X^2 = \Delta^2\left(\frac{r(1+r)}{q^2} + \frac{r}{q}\,\frac{r + q\gamma^2}{c} + \frac{r + q\gamma^3}{3c}\right)`.

    Notation as in :func:`mean_abs` (:math:`r = e^{-\varepsilon}`, :math:`q = 1-r`,
    :math:`c = r + q\gamma`); the mean is 0 by symmetry.

    Derivation: period :math:`k` of the positive half contributes
    :math:`\tfrac{a\Delta^3}{3}\big[r^k((k+\gamma)^3 - k^3) + r^{k+1}((k+1)^3 - (k+\gamma)^3)\big]
    = \tfrac{a\Delta^3}{3} r^k\big[3k^2 c + 3k(r + q\gamma^2) + (r + q\gamma^3)\big]`.
    With :math:`\sum_k r^k = 1/q`, :math:`\sum_k k r^k = r/q^2` and
    :math:`\sum_k k^2 r^k = r(1+r)/q^3`,

    .. math::

        E X^2 = \frac{2a\Delta^3}{3}\left(\frac{3c\,r(1+r)}{q^3} + \frac{3r(r+q\gamma^2)}{q^2}
                + \frac{r + q\gamma^3}{q}\right),

    and :math:`2a\Delta = q/c` gives the formula above.
    :math:`\partial_\gamma \operatorname{Var} X = \Delta^2 (2c^3 - r(1+r)) / (3qc^2)`
    (see :func:`gamma_var`).

    >>> from mpmath import mp
    >>> # gamma = 1: uniform mixture, E X^2 = Delta^2 (r(1+r)/q^2 + r/q + 1/3)
    >>> r = mp.exp(-2); q = 1 - r
    >>> mp.almosteq(var(1, 3, 2), 9 * (r * (1 + r) / q**2 + r / q + mp.mpf(1) / 3))
    True
    """
    gamma, Delta, eps, d, P = _params(gamma, Delta, eps, digits)
    extra = _extra_digits(eps)
    with mp.workdps(d + GUARD_DIGITS + extra):
        r, q, c = _constants(gamma, eps)
        return Delta**2 * (r * (1 + r) / q**2 + r / q * (r + q * gamma**2) / c + (r + q * gamma**3) / (3 * c))


def _eps(eps, digits):
    d = resolve_digits(digits)
    P = parse_precision(d)
    with mp.workdps(P):
        eps = positive(eps, "eps")
    return eps, d + GUARD_DIGITS + _extra_digits(eps)


def gamma_mean_abs(eps, *, digits=None):
    r"""The :math:`\gamma` minimising :math:`E|X|`: :math:`\gamma^* = 1/(1 + e^{\varepsilon/2})` (Geng & Viswanath).

    Independent of :math:`\Delta`.  :math:`\partial_\gamma E|X| = \Delta(c^2 - r)/(2c^2)`
    with :math:`c = r + q\gamma` increasing in :math:`\gamma`, so the unique
    minimiser has :math:`c = \sqrt r`, i.e.
    :math:`\gamma^* = (\sqrt r - r)/(1 - r) = \sqrt r/(1 + \sqrt r)`.  There
    :math:`E|X| = \Delta(\gamma^* + r/q) = \Theta(\Delta e^{-\varepsilon/2})`.

    >>> from mpmath import mp
    >>> g = gamma_mean_abs(6)
    >>> mean_abs(g, 1, 6) < min(mean_abs(g - mp.mpf("1e-4"), 1, 6), mean_abs(g + mp.mpf("1e-4"), 1, 6))
    True
    >>> mp.almosteq(mean_abs(g, 1, 6), g + 1 / mp.expm1(6))
    True
    """
    eps, wd = _eps(eps, digits)
    with mp.workdps(wd):
        return 1 / (1 + mp.exp(eps / 2))


def gamma_var(eps, *, digits=None):
    r"""The :math:`\gamma` minimising :math:`\operatorname{Var} X`: :math:`\gamma^* = \frac{r(1+2r)}{2(c_*^2 + c_* r + r^2)}`, :math:`c_* = \sqrt[3]{r(1+r)/2}`.

    Derivation (:math:`r = e^{-\varepsilon}`, :math:`q = 1-r`, :math:`c = r + q\gamma`):
    by :func:`var`, :math:`\operatorname{Var} X = \Delta^2(\mathrm{const} + P(\gamma)/(3qc))`
    with :math:`P = 3r(r + q\gamma^2) + q(r + q\gamma^3)`, and
    :math:`P'c - qP = 2c^3 - r(1+r)` (a cubic in :math:`\gamma`; multiply out with
    :math:`q\gamma = c - r`).  Since :math:`c` increases in :math:`\gamma`, the
    derivative changes sign once, from negative to positive, at
    :math:`c_*^3 = r(1+r)/2 \in (r^3, 1)`, so
    :math:`\gamma^* = (c_* - r)/q \in (0, 1)` is the unique minimiser on
    :math:`[0, 1]`.  This is Geng & Viswanath's
    :math:`-\frac{b}{1-b} + \frac{(b - 2b^2 + 2b^4 - b^5)^{1/3}}{2^{1/3}(1-b)^2}` with
    :math:`b = r`.  It is evaluated as
    :math:`(c_*^3 - r^3)/(q(c_*^2 + c_* r + r^2))` with
    :math:`c_*^3 - r^3 = rq(1+2r)/2`, which has no cancellation as
    :math:`\varepsilon \to 0` (:math:`\gamma^* \to 1/2`).  For large
    :math:`\varepsilon`, :math:`\gamma^* \approx (r/2)^{1/3}` and
    :math:`\operatorname{Var} X \approx \Delta^2 (r/2)^{2/3} = \Theta(\Delta^2 e^{-2\varepsilon/3})`.

    >>> from mpmath import mp
    >>> g = gamma_var(6)
    >>> var(g, 1, 6) < min(var(g - mp.mpf("1e-4"), 1, 6), var(g + mp.mpf("1e-4"), 1, 6))
    True
    >>> # stationary point of the variance; not the E|X| minimiser (Lemma 27's remark)
    >>> abs(mp.diff(lambda x: var(x, 1, 6), g)) < mp.mpf("1e-12") and g > gamma_mean_abs(6)
    True
    """
    eps, wd = _eps(eps, digits)
    with mp.workdps(wd):
        r = mp.exp(-eps)
        cs = mp.cbrt(r * (1 + r) / 2)
        return r * (1 + 2 * r) / (2 * (cs**2 + cs * r + r**2))


def privacy_loss(d, gamma, Delta, eps, *, digits=None):
    r"""Worst-case privacy loss :math:`\sup_t \ln(f_{SC}(t)/f_{SC}(t+d)) = \varepsilon\lceil |d|/\Delta\rceil`.

    The quantity plotted in the paper's Figure 3 (left) for outputs of queries
    at distance :math:`d`.  Derivation: :math:`\ln f_{SC}(t) = \ln a - \varepsilon N(|t|)`
    with :math:`N(u) = \lfloor u/\Delta + 1 - \gamma \rfloor` non-decreasing, so for
    :math:`d \ge 0` the supremum of :math:`N(|t+d|) - N(|t|)` is reached with
    :math:`t \ge 0` (:math:`|t + d| \le |t| + d`), where it is
    :math:`\sup_{x \ge 1-\gamma}\lfloor x + d/\Delta\rfloor - \lfloor x\rfloor = \lceil d/\Delta\rceil`
    (take :math:`x` just below an integer).  The supremum is attained on a set
    of positive measure, so it is also the essential supremum; it does not
    depend on :math:`\gamma`, and :math:`d < 0` reduces to :math:`|d|` by symmetry.
    Hence the loss is :math:`\varepsilon` on :math:`(0, \Delta]` and doubles
    as soon as :math:`|d| > \Delta`.  A ratio :math:`|d|/\Delta` within the
    parsing precision of an integer counts as that integer.

    >>> from mpmath import mp
    >>> privacy_loss(1, "0.3", 1, 6) == 6 and privacy_loss("1.0001", "0.3", 1, 6) == 12
    True
    >>> # attained: t just below the jump at gamma*Delta, t + d just past it
    >>> mp.almosteq(mp.log(pdf("0.29", "0.3", 1, 6) / pdf("0.31", "0.3", 1, 6)), privacy_loss("0.02", "0.3", 1, 6))
    True
    """
    gamma, Delta, eps, dd, P = _params(gamma, Delta, eps, digits)
    with mp.workdps(P):
        d = real(d, "d")
        if mp.isinf(d):
            return mp.inf
        x = abs(d) / Delta
        extra = _extra_digits(max(x, eps, x * eps))
    with mp.workdps(P + extra):
        m = mp.ceil(_snap(abs(d) / Delta, P))
    with mp.workdps(dd + GUARD_DIGITS + extra):
        return eps * m
