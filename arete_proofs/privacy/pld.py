r"""Noise of :mod:`arete_proofs.noise` in Google's ``dp_accounting``: a pessimistic privacy-loss distribution (PLD) and its composition.

Extra ``accounting`` (``pip install 'arete-proofs[accounting]'``, package ``dp-accounting``).
``dp_accounting``'s additive-noise PLDs assume a privacy loss monotone in the output;
Arete's is not (near 0, for small :math:`\alpha`), so the PLD is built here and handed to
``dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution.create_from_rounded_probability``.
It then composes (``compose``, ``self_compose``) with the library's Laplace, Gaussian and
discrete mechanisms at the same ``value_discretization_interval``.

**The loss distribution.**  With :math:`L(t) = \ln f_A(t) - \ln f_A(t+\Delta)` and
:math:`Z \sim f_A`, the PLD is the law of :math:`L(Z)` (REMOVE direction; ADD is the same by
symmetry, ``symmetric=True``), and :math:`\delta(\varepsilon) = E(1 - e^{\varepsilon - L(Z)})_+`.
:math:`L(-t-\Delta) = -L(t)` (symmetry of :math:`f_A`), so the line splits at
:math:`-\Delta/2` and only :math:`[-\Delta/2, \infty)` is scanned: an interval
:math:`(a, b)` there carries mass :math:`\bar F(a) - \bar F(b)` with loss :math:`L`, and its
mirror :math:`(-b-\Delta, -a-\Delta)` carries :math:`\bar F(a+\Delta) - \bar F(b+\Delta)` with loss
:math:`-L`.  :math:`[-\Delta/2, \infty)` is cut at the local extrema of :math:`L` (float64
scan, :func:`arete_proofs.privacy.accounting.loss_grid`; the maximiser :math:`t^*` of
:func:`~arete_proofs.privacy.tight.tight_epsilon` is one of them); on each monotone piece
the points where :math:`L` crosses the bin edges :math:`kh` are found by inverse
interpolation, and each interval between consecutive points gets the CDF mass between
them (float64 survival function of :mod:`arete_proofs.distributions.fast`, or
:mod:`~arete_proofs.distributions.fast_gauss` with a Gaussian part, not sampling
and not a density grid).

**With a Gaussian part** (``sigma=``, beyond the paper): the same construction on the loss of
:math:`X_1 - X_2 + Y + N(0,\sigma^2)` (:mod:`arete_proofs.privacy.accounting` with
``sigma``: :mod:`~arete_proofs.distributions.fast_gauss` survival function, the tight epsilon
of :func:`arete_proofs.privacy.tight_gauss.tight_epsilon`); the symmetry used for the mirror
holds (the density is symmetric unimodal), the maximiser :math:`t^*` is interior (the loss is
flat at 0), the float64 allowance is :math:`10^{-7}` instead of ``ETA``, and at a local minimum
of :math:`L` the cell's least loss is bounded by the monotone envelope
:math:`\ell(b) - \ell(a+\Delta)` instead of the Lipschitz slack (there is none for
:math:`\lambda = 0`).

**Pessimistic.**  Each interval's mass goes to the bin :math:`\lceil (\max L + \eta)/h \rceil`,
where :math:`\max L` is the larger endpoint value (the piece is monotone) or, on the
interval around a local maximum, the certified upper bound of the tight epsilon, and
:math:`\eta = 10^{-9}` covers the float64 error of :math:`L`; the mirrored mass goes to
:math:`\lceil(-\min L + \eta)/h\rceil`.  The mass beyond the scan's end :math:`T`
(:math:`< 10^{-40}`) goes to the top bin.  Rounding the loss up raises
:math:`E(1-e^{\varepsilon-L})_+` for every :math:`\varepsilon`, and composition preserves
the order, so every :math:`\delta` the PLD reports is at least the exact one
(``tests/test_accounting_pld.py`` checks it against
:func:`~arete_proofs.privacy.accounting.hockey_stick`).
"""

from __future__ import annotations

import math

import numpy as np

from . import accounting

__all__ = ["noise_pld", "loss_pmf", "compose", "ETA"]

#: Allowance for the float64 error of the privacy loss; every loss is rounded up from L + ETA.
ETA = 1e-9


def _need():
    """dp_accounting's ``privacy_loss_distribution`` module (imported here: an optional extra)."""
    try:
        from dp_accounting.pld import privacy_loss_distribution
    except ImportError:
        raise ImportError("arete_proofs.privacy.pld needs dp_accounting: "
                          "pip install 'arete-proofs[accounting]'") from None
    return privacy_loss_distribution


def _pieces(t, L, t_star):
    """Split the sorted grid at the local extrema of L: list of index ranges [i, j] (monotone)."""
    d = np.sign(np.diff(L))
    d[d == 0] = 1
    cuts = [0] + [i + 1 for i in range(len(d) - 1) if d[i] != d[i + 1]] + [len(t) - 1]
    return [(cuts[k], cuts[k + 1]) for k in range(len(cuts) - 1) if cuts[k + 1] > cuts[k]]


def loss_pmf(noise, sensitivity=1, *, value_discretization_interval=1e-3, digits=8):
    r"""The pessimistic rounded PMF of the privacy loss: ``({k: mass}, h)``, loss ``k*h`` rounded up.

    ``noise``: a symmetric unimodal family of :mod:`arete_proofs.noise` that supports ``account``.
    Masses sum to 1 (within float64 rounding); the expected :math:`e^{-L}` is at most 1
    (a PLD of a dominating pair).

    >>> from arete_proofs.noise import make
    >>> pmf, h = loss_pmf(make("arete", alpha="0.3", theta=1, lam="0.5"), 1, value_discretization_interval=1e-2)
    >>> abs(sum(pmf.values()) - 1) < 1e-12 and max(pmf) * h <= 2 + h   # |L| <= Delta/lam = 2
    True
    """
    h = float(value_discretization_interval)
    if not (h > 0 and math.isfinite(h)):
        raise ValueError(f"value_discretization_interval must be positive, got {value_discretization_interval!r}")
    loss = accounting._Loss(noise, sensitivity, digits)
    eta = max(ETA, loss.float_error)
    loss.build_grid(loss.end(10))
    s = loss.sf_
    t_grid, L_grid, T = loss.grid
    # [-s/2, 0]: L increasing (module docstring of accounting); then the scan grid on (0, T]
    neg = -s / 2 * (1 - np.geomspace(1, 1e-12, 400))[::-1]
    neg = np.concatenate([[-s / 2], neg[neg > -s / 2], [0.0]])
    t = np.concatenate([neg, t_grid])
    t = np.unique(t)
    L = loss.Lf(t)
    top = float(loss.tight.upper_bound)
    L = np.minimum(L, top)
    # densify: bin edges crossed by each grid cell, found by inverse interpolation + one secant polish
    new = []
    for i, j in _pieces(t, L, float(loss.tight.t_star)):
        tt, LL = t[i:j + 1], L[i:j + 1]
        inc = LL[-1] >= LL[0]
        lo, hi = min(LL[0], LL[-1]), max(LL[0], LL[-1])
        edges = np.arange(math.ceil(lo / h), math.floor(hi / h) + 1) * h - eta
        if edges.size == 0:
            continue
        xs, ys = (LL, tt) if inc else (LL[::-1], tt[::-1])
        guess = np.interp(edges, xs, ys)
        # one secant step against the true L (keeps the points inside the piece)
        Lg = loss.Lf(guess)
        idx = np.clip(np.searchsorted(xs, edges), 1, len(xs) - 1)
        slope = (xs[idx] - xs[idx - 1]) / np.where(ys[idx] != ys[idx - 1], ys[idx] - ys[idx - 1], 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            better = guess - (Lg - edges) / np.where(slope != 0, slope, np.inf)
        better = np.where(np.isfinite(better), np.clip(better, tt[0], tt[-1]), guess)
        new.append(better)
    if new:
        t = np.unique(np.concatenate([t, *new]))
    L = np.minimum(loss.Lf(t), top)
    # interval masses by the survival function (P side and mirrored Q side)
    S = loss.sf_f(t)
    Ss = loss.sf_f(t + s)
    p = np.maximum(S[:-1] - S[1:], 0.0)
    q = np.maximum(Ss[:-1] - Ss[1:], 0.0)
    upper = np.maximum(L[:-1], L[1:])
    lower = np.minimum(L[:-1], L[1:])
    # cells holding a local maximum of L (the grid maximiser inside): the certified sup
    peak = np.zeros(len(t) - 1, dtype=bool)
    for i in range(1, len(t) - 1):
        if L[i] >= L[i - 1] and L[i] >= L[i + 1]:
            peak[i - 1] = peak[i] = True
    upper = np.where(peak, top, upper)
    # the mirrored loss -L: its max over the cell is -min L; at a local min of L the sup of -L
    # is bounded by -(local min) - (Lipschitz slack h_cell / lam); with a Gaussian part by the
    # monotone envelope l(b) - l(a + s) (accounting._Loss.envelope; cells on [0, oo))
    trough = np.zeros(len(t) - 1, dtype=bool)
    for i in range(1, len(t) - 1):
        if L[i] <= L[i - 1] and L[i] <= L[i + 1]:
            trough[i - 1] = trough[i] = True
    if loss.gauss:
        env_lo, _ = loss.envelope(np.maximum(t[:-1], 0.0), np.maximum(t[1:], 0.0))
        lower = np.where(trough, np.minimum(lower, np.minimum(env_lo, L[:-1])), lower)
    else:
        width = np.diff(t)
        lower = np.where(trough, lower - width / loss.hints.lipschitz, lower)
    kp = np.ceil((upper + eta) / h).astype(np.int64)
    kq = np.ceil((-lower + eta) / h).astype(np.int64)
    pmf = {}
    for k, m in zip(np.concatenate([kp, kq]), np.concatenate([p, q])):
        if m > 0:
            pmf[int(k)] = pmf.get(int(k), 0.0) + float(m)
    # tails beyond T and the mirrored tail: to the top bin
    ktop = int(math.ceil((top + eta) / h))
    pmf[ktop] = pmf.get(ktop, 0.0) + float(S[-1]) + float(Ss[-1])
    # the mass of [-s/2, t0] if the grid does not start there (it does) and rounding: renormalise
    # only downward never (a deficit goes to the top bin, keeping the PLD pessimistic)
    total = sum(pmf.values())
    if total < 1:
        pmf[ktop] += 1 - total
    return pmf, h


def noise_pld(noise, sensitivity=1, *, value_discretization_interval=1e-3, digits=8):
    r"""A pessimistic ``dp_accounting`` ``PrivacyLossDistribution`` of one release of ``noise``.

    ``noise``: a symmetric unimodal family of :mod:`arete_proofs.noise` that supports
    ``account`` (``laplace``, ``arete``, ``arete_gauss``).  The law of the privacy loss
    :math:`L(Z) = \ln f(Z) - \ln f(Z+\Delta)`, :math:`Z \sim f`, each value rounded up to the grid :math:`h\mathbb{Z}`
    (module docstring).  Its ``get_delta_for_epsilon(eps)``, the
    :math:`\delta(\varepsilon) = E(1 - e^{\varepsilon - L(Z)})_+` of
    :math:`(\varepsilon, \delta)`-DP (Definition 25), is at least the exact
    :func:`~arete_proofs.privacy.accounting.hockey_stick` for every eps, and exceeds it by
    :math:`O(h)`; ``compose``/``self_compose`` give the composition with any PLD of the
    same ``value_discretization_interval`` (``h``).  With a Gaussian part: module docstring.
    Needs the extra ``accounting``.

    >>> from arete_proofs.noise import make
    >>> z = make("arete", alpha="0.5", theta=1, lam=1)
    >>> pld = noise_pld(z, 1, value_discretization_interval=1e-2)
    >>> from arete_proofs.privacy.accounting import hockey_stick
    >>> exact = hockey_stick(z, 1, 0.5, digits=4)
    >>> bool(exact <= pld.get_delta_for_epsilon(0.5) <= exact + 0.01)    # pessimistic, within O(h)
    True
    """
    if getattr(noise, "kernel", None) in ("laplace", "gauss"):  # lattice laws: every real shift, numerical curve
        from . import accounting_lattice

        return accounting_lattice.lattice_pld(noise, sensitivity,
                                              value_discretization_interval=value_discretization_interval)
    if getattr(noise, "integer_valued", False) and not getattr(noise, "symmetric_unimodal", False):  # msdlap
        from . import accounting_lattice

        return accounting_lattice.noise_pld(noise, sensitivity, value_discretization_interval=value_discretization_interval)
    if getattr(noise, "integer_valued", False):  # dlap, gdl: the loss law over the integers
        from . import accounting_discrete

        return accounting_discrete.noise_pld(noise, sensitivity, value_discretization_interval=value_discretization_interval,
                                             digits=max(int(digits), 20))
    lib = _need()
    pmf, h = loss_pmf(noise, sensitivity, value_discretization_interval=value_discretization_interval,
                      digits=digits)
    return lib.PrivacyLossDistribution.create_from_rounded_probability(pmf, 0.0, h, pessimistic_estimate=True)


def compose(pld, k: int):
    r"""The ``k``-fold composition of ``pld`` (``self_compose``; ``k = 1`` returns ``pld``).

    The privacy loss of ``k`` independent releases is the sum of their losses, so its PMF
    is the ``k``-fold convolution and :math:`\delta_k(\varepsilon) = E(1 - e^{\varepsilon -
    (L_1 + \dots + L_k)})_+` (Definition 25 for the composed mechanism); it grows with ``k``.

    >>> from arete_proofs.noise import make
    >>> p = noise_pld(make("arete", alpha="0.5", theta=1, lam=1), 1, value_discretization_interval=1e-2)
    >>> d = [compose(p, k).get_delta_for_epsilon(1.0) for k in (1, 2, 3)]
    >>> bool(d[0] < d[1] < d[2]), bool(abs(d[1] - p.compose(p).get_delta_for_epsilon(1.0)) < 1e-12)
    (True, True)
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"compose: the number of compositions K must be an integer >= 1, got {k!r}")
    return pld if k == 1 else pld.self_compose(k)
