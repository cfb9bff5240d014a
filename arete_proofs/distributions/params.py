r"""The paper's parameter choice (Lemma 3 / Lemma 19).

For privacy parameter :math:`\varepsilon` and sensitivity :math:`\Delta`, Lemma 3 takes

.. math::

    \alpha = e^{-\varepsilon/4}, \qquad \theta = \frac{4\Delta}{\varepsilon},
    \qquad \lambda = e^{-\varepsilon/4},

and proves :math:`\varepsilon`-DP for :math:`\Delta \ge 2/e` and
:math:`\varepsilon \ge 20 + 4\ln\Delta`.  :func:`paper_parameters` only computes
the parameters; whether the lemma's hypotheses hold is reported by
:func:`lemma3_applies`.
"""

from __future__ import annotations

from mpmath import mp

from .._validation import GUARD_DIGITS, parse_precision, positive, resolve_digits

__all__ = ["paper_parameters", "lemma3_applies", "FIGURE_4"]

#: The parameters of the paper's Figure 4 (from its published code, Delta = 1), found
#: empirically to give eps = 6, 7, 8: target eps -> (alpha, theta, lam) as decimal strings.
FIGURE_4 = {
    6: ("0.07559007048913552", "0.6295929433519876", "0.05453349704921005"),
    7: ("0.03438865645893487", "0.7753538691868341", "0.03916449536622209"),
    8: ("0.01922231819807612", "0.8312962061581013", "0.02547890283133737"),
}


def paper_parameters(eps, Delta=1, *, digits=None):
    r"""Return ``(alpha, theta, lam)`` of Lemma 3 for ``eps`` and ``Delta``.

    >>> from mpmath import mp
    >>> alpha, theta, lam = paper_parameters(20, 1)
    >>> alpha == lam and mp.almosteq(alpha, mp.exp(-5)) and mp.almosteq(theta, mp.mpf(1) / 5)
    True
    """
    d = resolve_digits(digits)
    with mp.workdps(parse_precision(d)):
        eps = positive(eps, "eps")
        Delta = positive(Delta, "Delta")
        alpha = mp.exp(-eps / 4)
        theta = 4 * Delta / eps
    return alpha, theta, alpha


def lemma3_applies(eps, Delta=1) -> bool:
    r"""True when Lemma 3's hypotheses :math:`\Delta \ge 2/e`, :math:`\varepsilon \ge 20 + 4\ln\Delta` hold.

    >>> lemma3_applies(20, 1), lemma3_applies(19, 1), lemma3_applies(30, "0.5")
    (True, False, False)
    """
    with mp.workdps(GUARD_DIGITS + 30):
        eps = positive(eps, "eps")
        Delta = positive(Delta, "Delta")
        return bool(Delta >= 2 / mp.e and eps >= 20 + 4 * mp.log(Delta))
