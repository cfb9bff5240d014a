r"""Privacy-loss curves and tables built on the tight epsilon (Figure 3, Lemmas 3 and 26).

* :func:`laplace_loss` -- the privacy loss :math:`|d|/\lambda` of Laplace noise (Lemma 26);
* :func:`loss_curve` -- the Arete privacy-loss curve :math:`d \mapsto l(d) = \sup_t \ln f_A(t)/f_A(t+d)`
  (:func:`arete_proofs.privacy.tight.privacy_loss`);
* :func:`loss_curves` -- Figure 3: the worst-case privacy loss of Staircase
  (:math:`\varepsilon\lceil d/\Delta\rceil`), Laplace (:math:`\varepsilon d/\Delta`) and Arete noise,
  each calibrated to :math:`\varepsilon`;
* :func:`paper_table` -- the tight epsilon of Lemma 3's parameters
  :math:`\alpha = \lambda = e^{-\varepsilon/4}`, :math:`\theta = 4\Delta/\varepsilon`, against the
  nominal :math:`\varepsilon`;
* :func:`smallest_private_eps` (:class:`SmallestPrivateEps`) -- the smallest nominal
  :math:`\varepsilon` from which on Lemma 3's parameters are :math:`\varepsilon`-DP, a certified
  root of :math:`\varepsilon^*(\text{params}(\varepsilon, \Delta)) - \varepsilon`.

Every Arete value is a certified :func:`arete_proofs.privacy.tight.tight_epsilon`; only
the scan of :func:`smallest_private_eps` uses float64 estimates (to find where to look).

>>> from mpmath import mp
>>> # Lemma 26: the Laplace mechanism's loss grows linearly in d; Arete's is bounded by its Lipschitz bound d/lam
>>> a, th, lam = FIGURE_4[6]
>>> (d, l), = loss_curve([2], a, th, lam, digits=4)
>>> mp.almosteq(laplace_loss(d, lam), d / mp.mpf(lam)) and l < laplace_loss(d, lam)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from mpmath import mp

from ..distributions import staircase
from .._validation import GUARD_DIGITS, PrecisionError, parse_precision, positive, real
from ..distributions.params import FIGURE_4  # noqa: F401 (the doctests use it)
from ..distributions.params import lemma3_applies, paper_parameters
from ._bounds import _Problem
from ._search import _runs
from .tight import _digits, privacy_loss, tight_epsilon

__all__ = [
    "SmallestPrivateEps",
    "laplace_loss",
    "loss_curve",
    "loss_curves",
    "paper_table",
    "smallest_private_eps",
]


@dataclass(frozen=True)
class SmallestPrivateEps:
    """Result of :func:`smallest_private_eps`.

    ``epsilon``: the smallest nominal eps in ``search_range`` such that the paper's parameters
    (Lemma 3's, for the sensitivity ``Delta``) are eps-DP at every scanned eps above it (``crossing`` True: a certified crossing, the
    parameters are DP at ``epsilon`` = ``bracket[1]`` and not at ``bracket[0]``;
    ``crossing`` False: no violation was found in the whole range, ``epsilon`` is its lower
    end).  ``violations``: eps intervals of the float64 scan where the parameters are *not*
    DP (may be non-empty below ``epsilon``: the DP set need not be an interval).
    ``max_ratio``: the largest scanned ``tight/eps``.
    """

    Delta: object
    epsilon: object
    crossing: bool
    bracket: tuple
    tight_at_epsilon: object
    search_range: tuple
    max_ratio: float
    violations: tuple
    scan: tuple
    digits: int


def laplace_loss(d, lam):
    r"""Privacy loss of Laplace(lam) noise at distance ``d``: exactly :math:`|d|/\lambda` (Lemma 26).

    >>> laplace_loss(3, "0.5")
    mpf('6.0')
    """
    with mp.workdps(parse_precision(20)):
        d = real(d, "d")
        lam = positive(lam, "lam")
    with mp.workdps(mp.dps + GUARD_DIGITS):
        return abs(d) / lam


def loss_curve(ds, alpha, theta, lam, *, digits=8):
    r"""The Arete privacy-loss curve :math:`[(d, l(d))]` (Figure 3, right panel).

    >>> a, th, lam = FIGURE_4[6]
    >>> [mp.nstr(v, 6) for _, v in loss_curve([0, "0.5", 1], a, th, lam, digits=6)]
    ['0.0', '4.53731', '5.99966']
    """
    digits = _digits(digits)
    out = []
    for d in ds:
        out.append((d, privacy_loss(d, alpha, theta, lam, digits=digits)))
    return out


def loss_curves(eps, Delta=1, *, k=3, points=31, params=None, digits=8):
    r"""Figure 3: worst-case privacy loss of Staircase, Laplace and Arete noise on :math:`d \in [0, k\Delta]`.

    Each mechanism is calibrated to ``eps`` for sensitivity ``Delta``: Laplace with
    :math:`\lambda = \Delta/\varepsilon` (loss :math:`\varepsilon d/\Delta`), Staircase
    (loss :math:`\varepsilon\lceil d/\Delta\rceil`, :func:`arete_proofs.distributions.staircase.privacy_loss`, any
    :math:`\gamma`; :math:`\gamma^*` of :func:`arete_proofs.distributions.staircase.gamma_mean_abs` is used) and Arete
    with ``params`` (default: the paper's Lemma 3 parameters for ``eps``; Figure 3 uses
    ``FIGURE_4[6]`` with eps = 6).  Returns a dict of lists ``d``, ``staircase``,
    ``laplace``, ``arete`` and the ``params`` used.

    >>> c = loss_curves(6, k=2, points=3, params=FIGURE_4[6], digits=3)
    >>> [mp.nstr(x, 3) for x in c["staircase"]], [mp.nstr(x, 3) for x in c["laplace"]]
    (['0.0', '6.0', '12.0'], ['0.0', '6.0', '12.0'])
    """
    digits = _digits(digits)
    with mp.workdps(parse_precision(digits + 20)):
        eps = positive(eps, "eps")
        Delta = positive(Delta, "Delta")
        if isinstance(k, bool) or not isinstance(k, (int, float)) or not k > 0:
            raise ValueError(f"k must be a positive number, got {k!r}")
        if isinstance(points, bool) or not isinstance(points, int) or points < 2:
            raise ValueError(f"points must be an integer >= 2, got {points!r}")
        ds = [Delta * mp.mpf(k) * i / (points - 1) for i in range(points)]
    if params is None:
        params = paper_parameters(eps, Delta, digits=digits + 20)
    alpha, theta, lam = params
    g = staircase.gamma_mean_abs(eps, digits=digits + 5)
    with mp.workdps(digits + GUARD_DIGITS):
        lap = [+(eps * d / Delta) for d in ds]
    sc = [staircase.privacy_loss(d, g, Delta, eps, digits=digits) for d in ds]
    ar = [v for _, v in loss_curve(ds, alpha, theta, lam, digits=digits)]
    return {"d": ds, "staircase": sc, "laplace": lap, "arete": ar, "params": tuple(params)}


def paper_table(eps_values, Deltas, *, digits=8):
    r"""Tight epsilon of the paper's parameters (Lemma 3: :math:`\alpha=\lambda=e^{-\varepsilon/4}`, :math:`\theta=4\Delta/\varepsilon`).

    One row (dict) per ``(eps, Delta)``: the parameters, ``tight``
    (:func:`~arete_proofs.privacy.tight.tight_epsilon`),
    ``ratio = tight/eps``, ``private`` (``tight <= eps``), ``lemma3`` (whether Lemma 3's
    hypotheses hold), ``tail_limit`` (:math:`\Delta/\theta = \varepsilon/4`) and
    ``lipschitz`` (:math:`\Delta/\lambda = \Delta e^{\varepsilon/4}`).

    >>> row = paper_table([20], [1], digits=4)[0]
    >>> row["private"], row["lemma3"], row["tail_limit"] < row["tight"] < row["eps"]
    (True, True, True)
    """
    digits = _digits(digits)
    rows = []
    for eps in eps_values:
        for Delta in Deltas:
            alpha, theta, lam = paper_parameters(eps, Delta, digits=digits + 20)
            r = tight_epsilon(alpha, theta, lam, Delta, digits=digits)
            with mp.workdps(parse_precision(digits)):
                e = positive(eps, "eps")
                D = positive(Delta, "Delta")
            with mp.workdps(digits + GUARD_DIGITS):
                rows.append({
                    "eps": +e, "Delta": +D, "alpha": alpha, "theta": theta, "lam": lam,
                    "tight": r.epsilon, "ratio": r.epsilon / e, "private": bool(r.upper_bound <= e),
                    "lemma3": lemma3_applies(e, D), "tail_limit": r.tail_limit,
                    "lipschitz": D / lam, "t_star": r.t_star, "result": r,
                })
    return rows


def _float_tight(eps, Delta):
    """float64 estimate of tight epsilon of the paper's parameters (scan only; not certified)."""
    a = math.exp(-eps / 4)
    th = 4 * Delta / eps
    P = _Problem(mp.mpf(a), mp.mpf(th), mp.mpf(a), mp.mpf(Delta), 6)
    grid = np.unique(np.concatenate([[0.0], th * np.geomspace(1e-300, 1e-2, 200), th * np.linspace(1e-2, 20, 1500)]))
    l, m, _, _ = P.fvals(grid)
    L = l - m
    i = int(np.argmax(L))
    # local zoom around the best grid point
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    best = L[i]
    for _ in range(3):
        z = np.linspace(lo, hi, 41)
        l, m, _, _ = P.fvals(z)
        Lz = l - m
        j = int(np.argmax(Lz))
        best = max(best, Lz[j])
        lo, hi = z[max(j - 1, 0)], z[min(j + 1, 40)]
    return float(best)


def smallest_private_eps(Delta, *, digits=6, eps_min="0.1", eps_max=None, scan_points=60):
    r"""Smallest nominal eps at which the paper's parameters are in fact eps-DP.

    :math:`g(\varepsilon) = \varepsilon^*(\text{params}(\varepsilon, \Delta)) - \varepsilon`
    (:func:`~arete_proofs.privacy.tight.tight_epsilon` of Lemma 3's parameters minus the
    nominal eps).  Bracket:
    ``[eps_min, eps_max]`` with ``eps_max`` defaulting to Lemma 3's threshold
    :math:`20 + 4\ln\Delta` (for :math:`\Delta \ge 2/e`; else 20), where :math:`g \le 0`
    is checked (certified).  A float64 scan on ``scan_points`` geometric eps values finds
    the largest scanned eps with :math:`g > 0`; if there is one, the crossing between it
    and the next scanned eps is located by a bracketing root finder (bisection with
    Illinois steps; both ends' signs certified with
    :func:`~arete_proofs.privacy.tight.tight_epsilon` at ``digits + 3`` digits) to relative
    width :math:`10^{-\text{digits}}`.  Without such a point
    ``crossing`` is False: the parameters are DP at every scanned eps of the range
    (the scan is numerical; a violation narrower than the scan spacing could be missed),
    and the worst scanned point is certified.  Returns :class:`SmallestPrivateEps`.

    Findings (default range, 6 digits): for :math:`\Delta \in \{2/e, 1, 10\}` there is no
    crossing at all: the parameters are eps-DP for every scanned eps in
    :math:`[0.1, 20 + 4\ln\Delta]` (largest ``tight/eps``: 0.693, 0.713, 0.847), so the
    lemma's threshold is an artefact of the proof (as :math:`\varepsilon \to 0`,
    ``tight/eps`` tends to about 1/4).  For :math:`\Delta = 100` the parameters fail
    eps-DP on a band of eps (about 5.1 to 13.8) and the crossing is
    :math:`\varepsilon = 13.8213` (Lemma 3's threshold: 38.42): the DP set is not an
    interval, which is why ``epsilon`` is defined from above.

    >>> r = smallest_private_eps(1, digits=3, eps_min=4, scan_points=4)
    >>> r.crossing, r.epsilon == 4, r.max_ratio < 0.75
    (False, True, True)
    """
    digits = _digits(digits)
    with mp.workdps(parse_precision(digits + 20)):
        Delta = positive(Delta, "Delta")
        eps_min = positive(eps_min, "eps_min")
        if eps_max is None:
            eps_max = 20 + 4 * mp.log(Delta) if Delta >= 2 / mp.e else mp.mpf(20)
        eps_max = positive(eps_max, "eps_max")
        if not eps_min < eps_max:
            raise ValueError("eps_min must be smaller than eps_max")
        if isinstance(scan_points, bool) or not isinstance(scan_points, int) or scan_points < 3:
            raise ValueError(f"scan_points must be an integer >= 3, got {scan_points!r}")
    dg = digits + 3

    def g_cert(e):
        alpha, theta, lam = paper_parameters(e, Delta, digits=dg + 20)
        r = tight_epsilon(alpha, theta, lam, Delta, digits=dg)
        return r

    top = g_cert(eps_max)
    if not top.upper_bound <= eps_max:
        raise PrecisionError(f"the paper's parameters are not eps-DP at the bracket's upper end eps_max = "
                             f"{mp.nstr(eps_max, 8)}; widen the bracket")
    Df = float(Delta)
    grid = list(np.geomspace(float(eps_min), float(eps_max), scan_points))
    scan = [(float(e), _float_tight(float(e), Df)) for e in grid]
    viol = [i for i, (e, L) in enumerate(scan) if L > e]
    intervals = []
    for i, j in _runs([L > e for e, L in scan]):
        lo = scan[i - 1][0] if i > 0 else scan[i][0]
        hi = scan[j + 1][0] if j + 1 < len(scan) else scan[j][0]
        intervals.append((lo, hi))
    max_ratio = max(L / e for e, L in scan)
    if not viol:
        worst = max(scan, key=lambda x: x[1] / x[0])
        rw = top if worst is scan[-1] else g_cert(mp.mpf(worst[0]))
        if not rw.upper_bound <= mp.mpf(worst[0]):
            raise PrecisionError("certified check contradicts the float64 scan at its worst point")
        r0 = g_cert(eps_min)
        if not r0.upper_bound <= eps_min:
            raise PrecisionError("certified check contradicts the float64 scan at eps_min")
        with mp.workdps(digits + GUARD_DIGITS):
            return SmallestPrivateEps(Delta=Delta, epsilon=+eps_min, crossing=False, bracket=(), tight_at_epsilon=r0.epsilon,
                                      search_range=(+eps_min, +eps_max), max_ratio=max_ratio, violations=(),
                                      scan=tuple(scan), digits=digits)
    i = max(viol)
    with mp.workdps(dg + 20):
        lo = mp.mpf(scan[i][0])
        hi = mp.mpf(scan[i + 1][0]) if i + 1 < len(scan) else eps_max
        rlo, rhi = g_cert(lo), g_cert(hi)
        glo, ghi = rlo.epsilon - lo, rhi.epsilon - hi
        if not (rlo.lower_bound > lo and rhi.upper_bound <= hi):
            raise PrecisionError("the certified values do not confirm the sign change of the float64 scan")
        side = 0
        while hi - lo > mp.mpf(10) ** -digits * hi / 2:
            # Illinois step (regula falsi with halving), falling back to bisection
            x = hi - ghi * (hi - lo) / (ghi - glo)
            if not lo < x < hi or (x - lo) < (hi - lo) / 64 or (hi - x) < (hi - lo) / 64:
                x = (lo + hi) / 2
            rx = g_cert(x)
            gx = rx.epsilon - x
            if rx.upper_bound <= x:  # DP at x: crossing below
                hi, ghi, rhi = x, gx, rx
                if side == -1:
                    glo /= 2
                side = -1
            elif rx.lower_bound > x:
                lo, glo, rlo = x, gx, rx
                if side == 1:
                    ghi /= 2
                side = 1
            else:
                raise PrecisionError("tight epsilon equals eps within its certified accuracy; increase digits")
    with mp.workdps(digits + GUARD_DIGITS):
        return SmallestPrivateEps(Delta=Delta, epsilon=+hi, crossing=True, bracket=(+lo, +hi), tight_at_epsilon=rhi.epsilon,
                                  search_range=(+eps_min, +eps_max), max_ratio=max_ratio, violations=tuple(intervals),
                                  scan=tuple(scan), digits=digits)
