r"""The paper's parameter choice (Lemma 3 / Lemma 19) and the rate-optimal choices.

For privacy parameter :math:`\varepsilon` and sensitivity :math:`\Delta`, Lemma 3 takes

.. math::

    \alpha = e^{-\varepsilon/4}, \qquad \theta = \frac{4\Delta}{\varepsilon},
    \qquad \lambda = e^{-\varepsilon/4},

and proves :math:`\varepsilon`-DP for :math:`\Delta \ge 2/e` and
:math:`\varepsilon \ge 20 + 4\ln\Delta`.  :func:`paper_parameters` only computes
the parameters; whether the lemma's hypotheses hold is reported by
:func:`lemma3_applies`.

The rules ``"mean_abs"`` and ``"variance"`` are the parameters of the theorem
"Lemma 3 with rates" (registry ids ``lemma-3-mean-abs`` and ``lemma-3-variance``,
docs page *rates*): :math:`\theta = \Delta` and :math:`\alpha\lambda = 48\,\Delta e^{-\varepsilon}`,
split to minimise :math:`E|Z|` or :math:`\operatorname{Var} Z`,

.. math::

    \text{mean\_abs:}\quad \alpha = 2\sqrt6\, e^{-\varepsilon/2},\ \lambda = 4\sqrt6\,\Delta e^{-\varepsilon/2},
    \qquad E|Z| \le 8\sqrt6\,\Delta e^{-\varepsilon/2} \quad (\varepsilon \ge 11),

    \text{variance:}\quad \alpha = 8\cdot 3^{2/3} e^{-2\varepsilon/3},\ \lambda = 2\cdot 3^{1/3}\Delta e^{-\varepsilon/3},
    \qquad \operatorname{Var} Z \le 24\cdot 3^{2/3}\Delta^2 e^{-2\varepsilon/3} \quad (\varepsilon \ge 10),

both :math:`\varepsilon`-DP for every :math:`\Delta > 0` through the paper's Lemmas 14-18.
Below :data:`RATE_EPS_0` the chain's constants do not reach and :func:`paper_parameters`
refuses the rule.
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, parse_precision, positive, resolve_digits

__all__ = ["paper_parameters", "lemma3_applies", "FIGURE_4", "RULES", "RATE_EPS_0"]

#: The parameters of the paper's Figure 4 (from its published code, Delta = 1), found
#: empirically to give eps = 6, 7, 8: target eps -> (alpha, theta, lam) as decimal strings.
FIGURE_4 = {
    6: ("0.07559007048913552", "0.6295929433519876", "0.05453349704921005"),
    7: ("0.03438865645893487", "0.7753538691868341", "0.03916449536622209"),
    8: ("0.01922231819807612", "0.8312962061581013", "0.02547890283133737"),
}

#: The rules of :func:`paper_parameters`.
RULES = ("lemma-3", "mean_abs", "variance")

#: The smallest eps at which each rate rule is proved eps-DP (the theorem's eps_0).
RATE_EPS_0 = {"mean_abs": 11, "variance": 10}


def paper_parameters(eps, Delta=1, *, rule="lemma-3", digits=None):
    r"""Return ``(alpha, theta, lam)`` for ``eps`` and ``Delta`` under ``rule``.

    ``rule="lemma-3"`` (the default): Lemma 3's :math:`\alpha = \lambda = e^{-\varepsilon/4}`,
    :math:`\theta = 4\Delta/\varepsilon` (no hypothesis is checked; see :func:`lemma3_applies`).
    ``rule="mean_abs"``: :math:`\theta = \Delta`, :math:`\alpha = 2\sqrt6 e^{-\varepsilon/2}`,
    :math:`\lambda = 4\sqrt6\Delta e^{-\varepsilon/2}` (needs :math:`\varepsilon \ge 11`);
    ``rule="variance"``: :math:`\theta = \Delta`, :math:`\alpha = 8\cdot3^{2/3}e^{-2\varepsilon/3}`,
    :math:`\lambda = 2\cdot3^{1/3}\Delta e^{-\varepsilon/3}` (needs :math:`\varepsilon \ge 10`).
    Both rate rules have :math:`\alpha\lambda = 48\Delta e^{-\varepsilon}` (Lemma 3 with rates).

    >>> from mpmath import mp
    >>> alpha, theta, lam = paper_parameters(20, 1)
    >>> alpha == lam and mp.almosteq(alpha, mp.exp(-5)) and mp.almosteq(theta, mp.mpf(1) / 5)
    True
    >>> al, th, la = paper_parameters(20, 3, rule="mean_abs", digits=30)
    >>> th == 3 and mp.almosteq(al * la, 48 * 3 * mp.exp(-20), 1e-28) and mp.almosteq(la, 2 * al * th)
    True
    >>> al, th, la = paper_parameters(20, 1, rule="variance", digits=30)
    >>> mp.almosteq(al * la, 48 * mp.exp(-20), 1e-28) and mp.almosteq(la**3, 24 * mp.exp(-20), 1e-28)
    True
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(repr(r) for r in RULES)}, got {rule!r}")
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        eps = positive(eps, "eps")
        Delta = positive(Delta, "Delta")
        if rule == "lemma-3":
            alpha = mp.exp(-eps / 4)
            theta = 4 * Delta / eps
            return alpha, theta, alpha
        eps_0 = RATE_EPS_0[rule]
        if eps < eps_0:
            raise ValueError(f"eps must be >= {eps_0} for rule {rule!r} (the theorem's eps_0), "
                             f"got {mp.nstr(eps, 15)}")
        theta = +Delta
        if rule == "mean_abs":
            s = mp.exp(-eps / 2)
            alpha = 2 * mp.sqrt(6) * s
            lam = 4 * mp.sqrt(6) * Delta * s
        else:
            alpha = 8 * mp.cbrt(9) * mp.exp(-2 * eps / 3)
            lam = 2 * mp.cbrt(3) * Delta * mp.exp(-eps / 3)
    return alpha, theta, lam


def lemma3_applies(eps, Delta=1) -> bool:
    r"""True when Lemma 3's hypotheses :math:`\Delta \ge 2/e`, :math:`\varepsilon \ge 20 + 4\ln\Delta` hold.

    >>> lemma3_applies(20, 1), lemma3_applies(19, 1), lemma3_applies(30, "0.5")
    (True, False, False)
    """
    with mp.workdps(GUARD_DIGITS + 30):
        eps = positive(eps, "eps")
        Delta = positive(Delta, "Delta")
        return bool(Delta >= 2 / mp.e and eps >= 20 + 4 * mp.log(Delta))
