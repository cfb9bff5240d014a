r"""Composition at equal error: :math:`\varepsilon(\delta)` after :math:`k` releases of Arete, Laplace, Gaussian and Staircase noise.

The question a user acts on: *with the same expected error* :math:`E|X|` per release, how
much privacy does each noise spend over :math:`k` releases?  :func:`compare` takes Arete
parameters (typically :func:`arete_proofs.privacy.optimize.optimize`'s, Section 6 of the
paper), computes their :math:`m = E|Z|` (:func:`arete_proofs.privacy.errors.arete_errors`)
and scales the other three mechanisms to the same :math:`m` (sensitivity :math:`\Delta`):

* **Laplace** :math:`b = m` (:math:`E|X| = b`; Lemma 26: pure :math:`\Delta/b`-DP);
* **Gaussian** :math:`\sigma = m\sqrt{\pi/2}` (:math:`E|X| = \sigma\sqrt{2/\pi}`);
* **Staircase** (Lemma 27) with :math:`\gamma = \gamma^*(\varepsilon_0) = 1/(1+e^{\varepsilon_0/2})`,
  the :math:`\gamma` optimal for :math:`E|X|` at its own :math:`\varepsilon_0`, and
  :math:`\varepsilon_0` solved from :math:`E|X| = \Delta\big(\gamma^* + 1/(e^{\varepsilon_0}-1)\big) = m`
  (:func:`staircase_for_mean_abs`).

Each mechanism's privacy-loss distribution (PLD) is a pessimistic ``dp_accounting``
``PrivacyLossDistribution`` on the grid :math:`h\mathbb Z`, :math:`h` = ``relative_interval``
:math:`\cdot\,\Delta/m` (a fixed fraction of Laplace's :math:`\varepsilon` at that error, so the
relative discretisation error is the same for every target): Arete
:func:`arete_proofs.privacy.pld.noise_pld`, Laplace and Gaussian ``from_laplace_mechanism`` and
``from_gaussian_mechanism`` (``pessimistic_estimate=True``), Staircase :func:`staircase_pld`
(exact: its privacy loss takes only the values :math:`\pm\varepsilon_0, 0`).  Each is
self-composed :math:`k` times and :math:`\varepsilon_k(\delta)` is read with
``get_epsilon_for_delta``.

**Accuracy.**  Every loss value is rounded up by less than :math:`h` (one bin), so the
composed loss exceeds the exact one by less than :math:`kh` and
:math:`\varepsilon_k - kh \le \varepsilon_k^{\mathrm{exact}} \le \varepsilon_k`
(for :math:`\varepsilon' = \varepsilon + kh`, :math:`E(1 - e^{\varepsilon' - L'})_+ \le
E(1-e^{\varepsilon - L})_+` when :math:`L' \le L + kh`); ``dp_accounting``'s tail truncations
(:math:`10^{-15}` per composition, :math:`e^{-50}` for the Gaussian) only add to the
pessimism.  The pair :math:`(f, f(\cdot+\Delta))` dominates every shift :math:`|s| \le \Delta`
for all four noises (symmetric, unimodal densities: the argument of
:mod:`arete_proofs.privacy.accounting`), and dominating pairs compose, so
:math:`\varepsilon_k` bounds every sequence of :math:`k` adaptive releases.

**The Gaussian.**  The *analytic Gaussian mechanism* (Balle & Wang 2018) calibrates
:math:`\sigma` to a target :math:`(\varepsilon, \delta)` with the exact formula

.. math::

    \delta(\varepsilon) = \Phi\Big(\frac{1}{2s} - \varepsilon s\Big)
        - e^{\varepsilon}\,\Phi\Big(-\frac{1}{2s} - \varepsilon s\Big),
    \qquad s = \sigma/\Delta ;

here the error fixes :math:`\sigma` and :math:`\varepsilon` is read off, and the
:math:`k`-fold composition of Gaussians is the Gaussian with :math:`s = \sigma/(\Delta\sqrt k)`,
so :func:`gaussian_epsilon` gives the exact value.  The PLD's value is its pessimistic
discretisation (within :math:`kh` above it, ``tests/test_composition.py``).

>>> # at the error of Laplace(1/4) (pure eps = 4) the Staircase is pure eps0-DP with eps0 < 4
>>> s = staircase_for_mean_abs(0.25)
>>> abs(s.mean_abs - 0.25) < 1e-12 and 2.8 < s.eps0 < 4
True
>>> # the Gaussian's exact epsilon grows with k (composition = sigma / sqrt(k))
>>> e1, e10 = gaussian_epsilon(2.0, 1, 1e-6, 1, digits=10), gaussian_epsilon(2.0, 1, 1e-6, 10, digits=10)
>>> 0 < e1 < e10 < 10 * e1
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mpmath import mp

from .._validation import GUARD_DIGITS, positive, resolve_digits
from . import pld

__all__ = [
    "MECHANISMS",
    "K_VALUES",
    "DELTA",
    "RELATIVE_INTERVAL",
    "StaircaseCalibration",
    "MechanismRow",
    "Comparison",
    "staircase_for_mean_abs",
    "staircase_loss_pmf",
    "staircase_pld",
    "gaussian_delta",
    "gaussian_epsilon",
    "pld_epsilon",
    "compare",
]

#: The mechanisms of :func:`compare`, in table order.
MECHANISMS = ("arete", "laplace", "gaussian", "staircase")
#: The numbers of compositions of the docs' table.
K_VALUES = (1, 10, 100, 1000)
#: The delta of the docs' table.
DELTA = 1e-6
#: Default grid of the PLDs, as a fraction of Laplace's epsilon Delta/m at the common error m.
RELATIVE_INTERVAL = 1e-3


def _need():
    try:
        from dp_accounting.pld import privacy_loss_distribution
    except ImportError:
        raise ImportError("arete_proofs.privacy.composition needs dp_accounting: "
                          "pip install 'arete-proofs[accounting]'") from None
    return privacy_loss_distribution


def _pos_float(x, name):
    with mp.workdps(30):
        return float(positive(x, name))


def _delta_arg(delta):
    d = float(delta) if not isinstance(delta, str) else float(mp.mpf(delta))
    if not (0 < d < 1):
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    return d


def _k_values(k_values):
    ks = tuple(k_values)
    if not ks:
        raise ValueError("k_values must not be empty")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k_values: every number of compositions must be an integer >= 1, got {k!r}")
    return ks


# --------------------------------------------------------------------------- Staircase


@dataclass(frozen=True)
class StaircaseCalibration:
    r"""The Staircase (Lemma 27) with :math:`E|X|` = ``mean_abs``: pure :math:`\varepsilon_0`-DP, :math:`\gamma = 1/(1+e^{\varepsilon_0/2})`.

    >>> c = staircase_for_mean_abs(0.5)
    >>> abs(c.gamma - 1 / (1 + math.exp(c.eps0 / 2))) < 1e-15 and c.eps0 < 1 / 0.5   # beats Laplace(0.5)
    True
    """

    eps0: float
    gamma: float
    sensitivity: float
    mean_abs: float


def _sc_mean_abs(eps0):
    """E|X| / Delta of the Staircase at its E|X|-optimal gamma: gamma* + 1/(e^eps0 - 1) (float)."""
    return 1 / (1 + math.exp(eps0 / 2)) + 1 / math.expm1(eps0)


def staircase_for_mean_abs(mean_abs, sensitivity=1):
    r"""The Staircase with :math:`E|X|` = ``mean_abs``, :math:`\gamma` optimal for :math:`E|X|` at its :math:`\varepsilon_0`.

    With :math:`\gamma^* = 1/(1+e^{\varepsilon_0/2})` (Geng & Viswanath; paper, Lemma 27)
    :math:`E|X| = \Delta(\gamma^* + 1/(e^{\varepsilon_0} - 1))`, strictly decreasing in
    :math:`\varepsilon_0` from :math:`\infty` to 0; :math:`\varepsilon_0` is its root (float64
    bisection on :math:`\ln\varepsilon_0`, to a relative :math:`10^{-15}`).

    >>> from arete_proofs.distributions import staircase
    >>> c = staircase_for_mean_abs(0.1, 2)
    >>> float(abs(staircase.mean_abs(c.gamma, 2, c.eps0, digits=20) - 0.1)) < 1e-13   # the general E|X| formula
    True
    """
    m = _pos_float(mean_abs, "mean_abs")
    D = _pos_float(sensitivity, "sensitivity")
    target = m / D
    lo, hi = 1e-12, 1.0
    while _sc_mean_abs(hi) > target:
        hi *= 2
        if hi > 700:
            raise ValueError(f"mean_abs too small for a float64 Staircase: {mean_abs!r}")
    if _sc_mean_abs(lo) < target:
        raise ValueError(f"mean_abs too large: {mean_abs!r}")
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if _sc_mean_abs(mid) > target:
            lo = mid
        else:
            hi = mid
        if hi / lo - 1 < 1e-15:
            break
    e0 = hi
    return StaircaseCalibration(e0, 1 / (1 + math.exp(e0 / 2)), D, D * _sc_mean_abs(e0))


def staircase_loss_pmf(eps0, gamma):
    r"""The law of the Staircase's privacy loss :math:`L = \ln f(Z) - \ln f(Z+\Delta)`: ``{+eps0: p+, 0: p0, -eps0: p-}``.

    With :math:`r = e^{-\varepsilon_0}`, :math:`q = 1-r`, :math:`c = \gamma + r(1-\gamma)`,
    :math:`a\Delta = q/(2c)` and :math:`g = \min(\gamma, 1-\gamma)`: :math:`L = \varepsilon_0`
    on :math:`Z \ge 0` and on the first :math:`g\Delta` of :math:`[-\Delta, 0)`,
    :math:`L = -\varepsilon_0` on :math:`Z < -\Delta` and on the last :math:`g\Delta`, 0 between:

    .. math::

        p_+ = \tfrac12 + g\,a\Delta, \quad p_- = \tfrac r2 + g\,r\,a\Delta, \quad
        p_0 = |1 - 2\gamma|\,a\Delta \cdot (r \text{ if } \gamma \le \tfrac12 \text{ else } 1).

    Independent of :math:`\Delta` (scale invariance).

    >>> p = staircase_loss_pmf(3.0, 0.2)
    >>> import math
    >>> abs(sum(p.values()) - 1) < 1e-15 and abs(sum(v * math.exp(-L) for L, v in p.items()) - 1) < 1e-14
    True
    """
    e0 = _pos_float(eps0, "eps0")
    g = float(gamma)
    if not (0 <= g <= 1):
        raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
    r = math.exp(-e0)
    q = -math.expm1(-e0)
    c = g + r * (1 - g)
    aD = q / (2 * c)
    m1 = min(g, 1 - g)
    return {e0: 0.5 + m1 * aD, 0.0: abs(1 - 2 * g) * aD * (r if g <= 0.5 else 1.0), -e0: r / 2 + m1 * r * aD}


def staircase_pld(eps0, gamma, *, value_discretization_interval=1e-3):
    r"""A pessimistic ``dp_accounting`` PLD of the Staircase: :func:`staircase_loss_pmf`, each loss rounded up to :math:`h\mathbb Z`.

    The only error is the rounding of :math:`\pm\varepsilon_0` (less than one bin); the
    :math:`E(1-e^{\varepsilon-L})_+` it reports is at least the exact :math:`\delta(\varepsilon)`
    (Definition 25).  Needs the extra ``accounting``.

    >>> p = staircase_pld(3.0, 0.2, value_discretization_interval=1e-2)
    >>> exact = staircase_loss_pmf(3.0, 0.2)[3.0] * (1 - math.exp(1.0 - 3.0))   # delta(1): only L = eps0 counts
    >>> bool(exact <= p.get_delta_for_epsilon(1.0) <= exact * 1.01)
    True
    """
    lib = _need()
    h = _pos_float(value_discretization_interval, "value_discretization_interval")
    pmf = {}
    for L, v in staircase_loss_pmf(eps0, gamma).items():
        if v > 0:
            k = math.ceil(L / h)
            pmf[k] = pmf.get(k, 0.0) + v
    return lib.PrivacyLossDistribution.create_from_rounded_probability(pmf, 0.0, h, pessimistic_estimate=True)


# --------------------------------------------------------------------------- Gaussian


def gaussian_delta(sigma, sensitivity, eps, k=1, *, digits=15):
    r"""Exact :math:`\delta(\varepsilon)` of :math:`k` Gaussian releases (Balle & Wang 2018, Theorem 8).

    .. math::

        \delta = \Phi\Big(\frac{1}{2s} - \varepsilon s\Big) - e^{\varepsilon}\,\Phi\Big(-\frac{1}{2s} - \varepsilon s\Big),
        \qquad s = \frac{\sigma}{\Delta\sqrt k}

    (the :math:`k`-fold composition of :math:`N(0,\sigma^2)` noise is a Gaussian shift of
    :math:`\sqrt k\,\Delta/\sigma` standard deviations).  ``mpf`` at ``digits`` (plus guard digits).

    >>> from mpmath import mp
    >>> # eps = 0: delta is the total variation 2 Phi(1/(2s)) - 1
    >>> mp.almosteq(gaussian_delta(2, 1, 0, digits=20), 2 * mp.ncdf(mp.mpf(1) / 4) - 1)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(d + GUARD_DIGITS):
        sig, D = positive(sigma, "sigma"), positive(sensitivity, "sensitivity")
        e = mp.mpf(eps)
        if not (e >= 0):
            raise ValueError(f"eps must be >= 0, got {eps!r}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be an integer >= 1, got {k!r}")
        s = sig / (D * mp.sqrt(k))
        a, b = 1 / (2 * s) - e * s, -1 / (2 * s) - e * s
        return mp.ncdf(a) - mp.exp(e + mp.log(mp.ncdf(b)))


def gaussian_epsilon(sigma, sensitivity, delta, k=1, *, digits=15):
    r"""Exact :math:`\varepsilon(\delta)` of :math:`k` Gaussian releases: the root of :func:`gaussian_delta` (0 if :math:`\delta(0) \le \delta`).

    :math:`\delta(\varepsilon)` decreases strictly; bracketed root (mpmath ``anderson``) at ``digits``.

    >>> from mpmath import mp
    >>> e = gaussian_epsilon(1.5, 1, 1e-6, 4, digits=20)
    >>> mp.almosteq(gaussian_delta(1.5, 1, e, 4, digits=20), mp.mpf("1e-6"), 1e-15)
    True
    """
    d = resolve_digits(digits)
    dl = _delta_arg(delta)
    with mp.workdps(d + GUARD_DIGITS):
        target = mp.mpf(dl)

        def f(e):
            return gaussian_delta(sigma, sensitivity, e, k, digits=d + GUARD_DIGITS) - target

        if f(0) <= 0:
            return mp.zero
        mu = mp.sqrt(k) * positive(sensitivity, "sensitivity") / positive(sigma, "sigma")
        hi = mu * mu / 2 + mu * mp.sqrt(2 * mp.log(1 / target)) + 1
        while f(hi) > 0:
            hi *= 2
        lo = mp.zero
        for _ in range(60):  # bisection to a good bracket, then a fast solver
            mid = (lo + hi) / 2
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
            if hi - lo < mp.mpf(10) ** (-4) * (1 + hi):
                break
        return mp.findroot(f, (lo, hi), solver="anderson")


# --------------------------------------------------------------------------- the comparison


@dataclass(frozen=True)
class MechanismRow:
    r"""One mechanism at the common error: its parameters and :math:`\varepsilon_k(\delta)` per ``k``.

    ``epsilon[i]`` is the PLD's (pessimistic) value after ``k[i]`` releases; the exact value is
    in ``[epsilon[i] - k[i] * h, epsilon[i]]`` (module docstring).

    >>> r = MechanismRow("laplace", (("b", 0.5),), 0.5, (1, 10), (2.0, 20.0), 1e-3)
    >>> r.slack() == (1e-3, 1e-2)        # the bracket widens by h per release
    True
    """

    mechanism: str
    parameters: tuple
    mean_abs: float
    k: tuple
    epsilon: tuple
    h: float

    def slack(self):
        """The width ``k * h`` of each value's bracket."""
        return tuple(k * self.h for k in self.k)


@dataclass(frozen=True)
class Comparison:
    r"""The four mechanisms at one error :math:`E|X|` = ``mean_abs`` (:func:`compare`), grid ``h``, at ``delta``.

    >>> c = Comparison(("1", "1", "1"), 1.0, 0.5, 1e-6, 1e-3,
    ...                (MechanismRow("laplace", (("b", 0.5),), 0.5, (1,), (2.0,), 1e-3),))
    >>> c.row("laplace").epsilon[0] == c.as_dict()["rows"][0]["epsilon"][0]
    True
    """

    arete: tuple
    sensitivity: float
    mean_abs: float
    delta: float
    h: float
    rows: tuple = field(default_factory=tuple)

    def row(self, mechanism):
        """The :class:`MechanismRow` of ``mechanism`` (one of :data:`MECHANISMS`)."""
        for r in self.rows:
            if r.mechanism == mechanism:
                return r
        raise KeyError(mechanism)

    def as_dict(self):
        """A JSON-serialisable dict (floats, lists)."""
        return {"arete": [str(x) for x in self.arete], "sensitivity": self.sensitivity, "mean_abs": self.mean_abs,
                "delta": self.delta, "h": self.h,
                "rows": [{"mechanism": r.mechanism, "parameters": [[n, v] for n, v in r.parameters],
                          "mean_abs": r.mean_abs, "k": list(r.k), "epsilon": list(r.epsilon), "h": r.h}
                         for r in self.rows]}


def pld_epsilon(p, delta, *, rtol=1e-12):
    r"""The smallest :math:`\varepsilon \ge 0` with ``p.get_delta_for_epsilon(eps) <= delta`` (bisection, relative ``rtol``).

    ``dp_accounting``'s own ``get_epsilon_for_delta`` weighs each loss :math:`L` by
    :math:`e^{-L}`, which underflows for :math:`L > 745`: at the large epsilons of many
    low-privacy releases it is off by about 1 (measured: 899.42 for a Gaussian whose exact
    value is 898.44).  ``get_delta_for_epsilon`` uses :math:`e^{\varepsilon - L}` and stays
    accurate, and it decreases in :math:`\varepsilon`, so it is inverted here; the upper end
    of the final bracket is returned (pessimistic: :math:`\delta_{\mathrm{PLD}} \le \delta` there).

    >>> p = staircase_pld(3.0, 0.2, value_discretization_interval=1e-3)
    >>> e = pld_epsilon(p, 1e-3)
    >>> bool(p.get_delta_for_epsilon(e) <= 1e-3 < p.get_delta_for_epsilon(e * (1 - 1e-9)))
    True
    """
    dl = _delta_arg(delta)

    def d(e):
        return float(p.get_delta_for_epsilon(e))

    if d(0.0) <= dl:
        return 0.0
    hi = max(1.0, float(p.get_epsilon_for_delta(dl)))
    while d(hi) > dl:
        hi *= 2
        if hi > 1e12:
            raise ArithmeticError("pld_epsilon: delta not reached below eps = 1e12")
    lo = 0.0
    while hi - lo > rtol * hi:
        mid = (lo + hi) / 2
        if d(mid) > dl:
            lo = mid
        else:
            hi = mid
    return hi


def _read(p, ks, delta):
    return tuple(pld_epsilon(pld.compose(p, k), delta) for k in ks)


def compare(noise, sensitivity=1, *, delta=DELTA, k_values=K_VALUES,
            relative_interval=RELATIVE_INTERVAL, mechanisms=MECHANISMS, digits=10, progress=None):
    r""":math:`\varepsilon_k(\delta)` of ``noise`` and of Laplace, Gaussian, Staircase at the same :math:`E|X|`.

    ``noise``: a family of :mod:`arete_proofs.noise` with ``account`` (its PLD is
    :func:`arete_proofs.privacy.pld.noise_pld`); in ``mechanisms`` the name ``"arete"`` stands for
    it (its row is labelled with the family's name).  :math:`m = E|Z|` of ``noise`` (exact, at
    ``digits``); Laplace :math:`b = m`, Gaussian :math:`\sigma = m\sqrt{\pi/2}`, Staircase
    :func:`staircase_for_mean_abs`; PLDs on :math:`h = ` ``relative_interval`` :math:`\cdot\Delta/m`,
    self-composed ``k`` times (:func:`arete_proofs.privacy.pld.compose`), read at ``delta``
    (module docstring; values are upper bounds within :math:`kh` of the exact ones).
    ``progress``: a callable given one line per mechanism.  Time: 1-5 s for Arete's PLD
    (longer for tiny :math:`\alpha`), well under 1 s for the others, at the default grid.
    Needs the extra ``accounting``.

    >>> from arete_proofs.noise import make
    >>> z = make("arete", alpha="0.453695876890753", theta="0.3669877833421575", lam="0.07872133254179152")
    >>> c = compare(z, k_values=(1, 10), mechanisms=("laplace", "staircase"))          # Arete optimised at eps = 4
    >>> lap, sc = c.row("laplace"), c.row("staircase")
    >>> abs(lap.mean_abs - c.mean_abs) < 1e-12 and abs(sc.mean_abs - c.mean_abs) < 1e-12   # equal errors
    True
    >>> bool(sc.epsilon[0] < lap.epsilon[0] < lap.epsilon[1] <= 10 * lap.epsilon[0] + 10 * c.h)  # monotone in k
    True
    """
    lib = _need()
    D = _pos_float(sensitivity, "sensitivity")
    dl = _delta_arg(delta)
    ks = _k_values(k_values)
    rel = _pos_float(relative_interval, "relative_interval")
    for name in mechanisms:
        if name not in MECHANISMS:
            raise ValueError(f"mechanisms: unknown mechanism {name!r}; choose from {MECHANISMS}")
    m = float(noise.mean_abs(digits=digits))
    h = rel * D / m
    say = progress or (lambda line: None)
    rows = []
    for name in mechanisms:
        if name == "arete":
            p = pld.noise_pld(noise, D, value_discretization_interval=h, digits=8)
            params, mm = tuple((k, str(v)) for k, v in noise.params.items()), m
            name = noise.name
        elif name == "laplace":
            p = lib.from_laplace_mechanism(m, D, pessimistic_estimate=True, value_discretization_interval=h,
                                          use_connect_dots=False)
            params, mm = (("b", m),), m
        elif name == "gaussian":
            sigma = m * math.sqrt(math.pi / 2)
            p = lib.from_gaussian_mechanism(sigma, D, pessimistic_estimate=True, value_discretization_interval=h,
                                          use_connect_dots=False)
            params, mm = (("sigma", sigma),), sigma * math.sqrt(2 / math.pi)
        else:
            sc = staircase_for_mean_abs(m, D)
            p = staircase_pld(sc.eps0, sc.gamma, value_discretization_interval=h)
            params, mm = (("eps0", sc.eps0), ("gamma", sc.gamma)), sc.mean_abs
        eps = _read(p, ks, dl)
        say(f"composition: {name:9s} E|X| = {mm:.6g}  eps_k = " + ", ".join(f"{e:.6g}" for e in eps))
        rows.append(MechanismRow(name, params, mm, ks, eps, h))
    return Comparison(tuple(noise.params.values()), D, m, dl, h, tuple(rows))
