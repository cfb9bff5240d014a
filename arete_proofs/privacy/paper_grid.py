r"""The paper's own discretised densities and privacy loss (Figures 3 and 4, Section 5), reproduced.

The paper's Figure 4 parameter sets were found, and their privacy loss measured, with
the authors' script ``alt-code.py`` (``github.com/rasmus-pagh/alt22-code``, the only
commit ``3793f95``, 2 March 2022; :data:`PAPER_CODE`).  Its caption says "the density
functions were approximated by rounding the constituent Gamma and Laplace distribution
values to a multiple of 0.001 and computing the discrete convolution".  What the code
does, line by line (the line numbers are those of ``alt-code.py``), with step :math:`h`
(``stepsize``, line 13, 0.001) and half-width :math:`W` (``width``, line 14, 8):

1. grid (lines 32, 75): ``eval_range = np.arange(-width, width + stepsize/2, stepsize)``,
   the :math:`n = 2W/h + 1` points :math:`x_i \approx -W + ih`
   (:func:`grid_points`; the same ``numpy.arange`` call);
2. Gamma masses (lines 19-23, 33): :math:`g_i = f_\Gamma(x_i)\,h` with
   :math:`f_\Gamma(x) = \beta^\alpha x^{\alpha-1} e^{-\beta x}/\Gamma(\alpha)`,
   :math:`\beta = 1/\theta`, and :math:`g_i = 0` for :math:`x_i < 10^{-10}`, so also
   at the centre point :math:`x \approx 0` (:func:`gamma_masses`);
3. the atom at 0 (line 34): ``gamma_val[len(gamma_val)//2] = 1 - sum(gamma_val)``;
   the built-in ``sum`` adds the (numpy float64) values one after the other, which is
   what ``numpy.cumsum`` does here; as :math:`f_\Gamma` decreases
   (:math:`\alpha \le 1`), :math:`h f_\Gamma(jh)` exceeds the Gamma mass of
   :math:`[jh, (j+1)h)`, so the atom is :math:`P(X < h)` minus that excess;
4. Laplace masses (lines 25-26, 35): :math:`l_i = \tfrac{1}{2\lambda} e^{-|x_i|/\lambda}\,h`,
   **not** normalised: :math:`\sum_i l_i = \tfrac{h}{2\lambda}\coth\tfrac{h}{2\lambda}
   \approx 1 + h^2/(12\lambda^2)` (:func:`laplace_masses`);
5. the two convolutions (lines 36-37): ``signal.convolve(gamma_val, np.flip(gamma_val))``
   (the Gamma-Gamma masses, :math:`X_1 - X_2`) and then with the Laplace masses;
   ``scipy.signal.convolve`` with its default ``method="auto"``, which picks the FFT for
   these sizes (the choice is recorded in ``PaperGrid.conv_method``);
6. the central :math:`n` values (line 38) are the Arete masses :math:`a_i` on the grid
   (:func:`arete_masses`);
7. the privacy loss (lines 77-79): with :math:`k` = ``int(1/stepsize)``,
   :math:`\varepsilon_h = \ln \max_i a_{i+k}/a_i` over the whole grid (``np.log`` of the
   built-in ``max`` of the ratio array; :math:`\Delta = 1` is hard-wired as the shift
   :math:`k`); the maximum sits at :math:`x_i = -1`, i.e. :math:`\ln a(0)/a(1)`;
8. ``observed_error`` (line 80): :math:`\sum_i |x_i| a_i`, the grid's :math:`E|Z|`;
   ``density_at_zero`` (line 87) is the mass :math:`a(0)`, so the grid density at 0
   is :math:`a(0)/h`.

:func:`paper_grid` does exactly this, vectorised (the same numpy/scipy calls in the same
order of floating-point operations; ``tests/test_paper_grid.py`` compares it with a
line-by-line transcription of the script), with the step as a parameter.  It is float64
throughout, as the script is.  :func:`bias_table` puts the grid values next to the exact
ones: the tight :math:`\varepsilon^*` of :func:`arete_proofs.privacy.tight.tight_epsilon`
and :math:`f_A(0)` of :func:`arete_proofs.distributions.arete.pdf`.

Findings (Figure 4 sets, :math:`\Delta = 1`; ``tests/test_paper_grid.py``): at
:math:`h = 0.001` the grid gives :math:`\varepsilon_h = 5.99993, 6.99994, 7.99945` against
the exact :math:`5.99966, 6.99950, 7.99901`: the grid *overstates* the privacy loss by
:math:`2.7\cdot10^{-4}`, :math:`4.4\cdot10^{-4}`, :math:`4.4\cdot10^{-4}` (it is
conservative there) and :math:`f_A(0)` by :math:`3.5\cdot10^{-4}`, :math:`5.2\cdot10^{-4}`,
:math:`5.8\cdot10^{-4}` relative.  For :math:`h \le 0.002` the bias shrinks roughly like
:math:`h` (local order, halving :math:`h` from 0.001 to 0.00025: 1.4-1.5 for the
:math:`\varepsilon = 6` set, 1.04-1.08 for 7, 0.87-0.97 for 8); from 0.004 to 0.002 it
*grows* for the 8 set.  At :math:`h = 0.002` the sets for 6 and 7 give
:math:`\varepsilon_h = 6.00032` and :math:`7.00035`, above their targets.  The grid is
not conservative for every step: for the 6 set the bias changes sign near
:math:`h = 3\cdot10^{-5}` (:math:`-5\cdot10^{-7}` at :math:`h = 1/64000`).  The
convolution method does not matter (``method="direct"`` moves :math:`\varepsilon_h` by
:math:`10^{-14}`).

Where the :math:`\varepsilon` bias comes from: :math:`\varepsilon_h - \ln f_A(0)/f_A(1)
= \ln(1 + e_0) - \ln(1 + e_1)` with :math:`e_t` the relative error of the grid density
:math:`a(t)/h`, and the error sits at the centre, where the Gamma density is singular and
the script's atom lives: at :math:`h = 0.001`, :math:`e_0 = 3.5, 5.2, 5.8\cdot10^{-4}` but
:math:`e_1 = 0.85, 0.85, 1.5\cdot10^{-4}` (sets 6, 7, 8); the Laplace normalisation error
(item 4) is common to both and cancels.  (:math:`\ln f_A(0)/f_A(1)` is the exact
:math:`\varepsilon^*` up to :math:`2\cdot10^{-8}` for the 6 set and :math:`10^{-15}` for
the others: the maximiser :math:`t^*` is tiny.)

>>> g = paper_grid(*FIGURE_4[6])
>>> # item 4: the unnormalised Laplace masses sum to (h/2lam) coth(h/2lam) > 1
>>> import math; u = g.step / (2 * float(FIGURE_4[6][2]))
>>> abs(g.laplace_mass - u / math.tanh(u)) < 1e-12 and g.laplace_mass > 1
True
>>> # item 7: the maximal ratio is a(0)/a(1); the grid epsilon lies above the exact 5.99966...
>>> g.argmax_t == -1.0 and 5.99966 < g.epsilon < 6
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import signal

from ..distributions.params import FIGURE_4

__all__ = [
    "PAPER_CODE",
    "PAPER_STEP",
    "PAPER_WIDTH",
    "DEFAULT_STEPS",
    "PaperGrid",
    "GridBias",
    "grid_points",
    "gamma_masses",
    "laplace_masses",
    "arete_masses",
    "paper_grid",
    "bias_table",
    "bias_order",
]

#: Where the reproduced computation comes from.
PAPER_CODE = "github.com/rasmus-pagh/alt22-code, alt-code.py, commit 3793f95855b2e2dc780447ff2c848f5b5e8e36da"
#: ``stepsize`` of ``alt-code.py`` (line 13).
PAPER_STEP = 0.001
#: ``width`` of ``alt-code.py`` (line 14): the grid covers ``[-width, width]``.
PAPER_WIDTH = 8
#: Steps tabulated by :func:`bias_table` by default.
DEFAULT_STEPS = (0.004, 0.002, 0.001, 0.0005, 0.00025)

_POW = np.frompyfunc(math.pow, 2, 1)

#: Largest grid accepted (points); 0.00025 on the paper's width is 64 001 points.
_MAX_POINTS = 2_000_001


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _positive_float(value, name):
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a positive real number, got {value!r}")
    try:
        x = float(value)  # a decimal string is parsed to the nearest double, as the script's literals are
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive real number, got {value!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"{name} must be a positive real number, got {value!r}")
    return x


def _multiple(total, step, what):
    q = total / step
    if abs(q - round(q)) > 1e-6 * max(1.0, q):
        raise ValueError(f"step must divide {what} = {total!r} (the script assumes an integer ratio), got {step!r}")
    return round(q)


def _check_grid(step, width, Delta=None):
    step = _positive_float(step, "step")
    width = _positive_float(width, "width")
    n = 2 * _multiple(width, step, "width") + 1
    if Delta is None:
        Delta = step
    Delta = _positive_float(Delta, "Delta")
    _multiple(Delta, step, "Delta")
    if Delta >= width:
        raise ValueError(f"Delta must be smaller than width, got Delta={Delta!r}, width={width!r}")
    if n > _MAX_POINTS:
        raise ValueError(f"step={step!r} is too small: {n} grid points (at most {_MAX_POINTS})")
    return step, width, Delta


# ---------------------------------------------------------------------------
# the script's steps
# ---------------------------------------------------------------------------


def grid_points(step=PAPER_STEP, width=PAPER_WIDTH):
    r"""The script's grid :math:`x_i \approx -W + ih`, :math:`i = 0..2W/h` (``alt-code.py`` lines 32, 75; Figure 4).

    ``numpy.arange(-width, width + step/2, step)``, the script's call: the points are
    ``-width + i*delta`` with ``delta`` numpy's rounded step, so the centre point is
    only approximately 0 (it is below the script's Gamma cut-off :math:`10^{-10}`).

    >>> x = grid_points(0.25, 1)
    >>> bool(len(x) == 2 * 1 / 0.25 + 1 and x[0] == -1 and x[-1] == 1)
    True
    """
    step, width, _ = _check_grid(step, width)
    return np.arange(-width, width + step / 2, step)


def gamma_masses(x, alpha, theta, step):
    r"""The script's Gamma masses with the atom at 0 (``alt-code.py`` lines 19-23, 33-34; Definition 22).

    :math:`g_i = h\,\beta^\alpha x_i^{\alpha-1} e^{-\beta x_i}/\Gamma(\alpha)`,
    :math:`\beta = 1/\theta`, set to 0 for :math:`x_i < 10^{-10}`; then the centre entry
    (index ``len(x)//2``) becomes :math:`1 - \sum_i g_i`, the sum taken left to right as
    the built-in ``sum`` does.  The masses sum to 1 up to rounding.

    >>> x = grid_points(0.01, 8)
    >>> g = gamma_masses(x, 0.5, 1.0, 0.01)
    >>> bool(abs(g.sum() - 1) < 1e-12 and g[len(x) // 2] == g.max() and (g[: len(x) // 2] == 0).all())
    True
    """
    alpha = _positive_float(alpha, "alpha")
    theta = _positive_float(theta, "theta")
    step = _positive_float(step, "step")
    x = np.asarray(x, dtype=np.float64)
    beta = 1 / theta
    out = np.zeros_like(x)
    pos = ~(x < 1e-10)
    xp = x[pos]
    # line 23, the same operations in the same order: (beta**alpha) * (x**(alpha-1)) * exp(-beta x) / Gamma(alpha).
    # x**(alpha-1) of a float64 scalar is the C library's pow (as math.pow); numpy's vectorised power
    # can differ from it in the last bit, so the power is taken elementwise with math.pow
    xpow = _POW(xp, alpha - 1).astype(np.float64)
    out[pos] = (beta ** alpha) * xpow * np.exp(-beta * xp) / math.gamma(alpha) * step
    # line 34: sum() of a list whose first items are the int 0 and then numpy float64s adds left to right
    out[len(out) // 2] = 1 - np.cumsum(out)[-1]
    return out


def laplace_masses(x, lam, step):
    r"""The script's Laplace masses :math:`l_i = h\,\tfrac{1}{2\lambda}e^{-|x_i|/\lambda}` (Definition 23).

    ``alt-code.py`` lines 25-26 and 35.

    Not normalised: on the full grid they sum to about
    :math:`\tfrac{h}{2\lambda}\coth\tfrac{h}{2\lambda} = 1 + h^2/(12\lambda^2) + O(h^4)`.

    >>> import math
    >>> x = grid_points(0.01, 8)
    >>> u = 0.01 / (2 * 0.1)
    >>> bool(abs(laplace_masses(x, 0.1, 0.01).sum() - u / math.tanh(u)) < 1e-12)
    True
    """
    lam = _positive_float(lam, "lam")
    step = _positive_float(step, "step")
    x = np.asarray(x, dtype=np.float64)
    gamma = 1 / lam
    # line 26 then line 35: (gamma * exp(-gamma |x|) / 2) * stepsize
    return gamma * np.exp(-gamma * np.abs(x)) / 2 * step


def _arete(alpha, theta, lam, step, width):
    x = np.arange(-width, width + step / 2, step)  # line 32
    g = gamma_masses(x, alpha, theta, step)  # lines 33-34
    lap = laplace_masses(x, lam, step)  # line 35
    method = signal.choose_conv_method(g, g[::-1], mode="full")
    gg = signal.convolve(g, np.flip(g))  # line 36
    a = signal.convolve(gg, lap)  # line 37
    n = len(x)
    a = a[len(a) // 2 - n // 2: len(a) // 2 + (n + 1) // 2]  # line 38
    return x, g, lap, a, method


def arete_masses(alpha, theta, lam, step=PAPER_STEP, width=PAPER_WIDTH):
    r"""The script's Arete masses :math:`a_i` on :func:`grid_points` (Definition 9).

    ``compute_arete``, ``alt-code.py`` lines 31-39.

    :math:`a = (g * \mathrm{flip}(g)) * l` with ``scipy.signal.convolve`` (default
    ``method="auto"``), cut to the central :math:`n` entries.  :math:`a_i/h` is the grid's
    :math:`f_A(x_i)`; :math:`\sum_i a_i` is the Laplace grid mass up to the far tails.

    >>> import math
    >>> a = arete_masses(0.5, "0.5", 0.1, step=0.01)
    >>> u = 0.01 / 0.2
    >>> bool(abs(a.sum() - u / math.tanh(u)) < 1e-6 and a[len(a) // 2] == a.max())
    True
    """
    step, width, _ = _check_grid(step, width)
    return _arete(alpha, theta, lam, step, width)[3]


# ---------------------------------------------------------------------------
# the privacy loss on the grid
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PaperGrid:
    r"""Result of :func:`paper_grid`: the script's numbers for one parameter set (Figure 4, Section 5).

    ``epsilon``: :math:`\varepsilon_h = \ln\max_i a_{i+k}/a_i` (``alt-code.py`` line 79);
    ``argmax_t``: the grid point :math:`x_i` of the maximal ratio :math:`a(x_i+\Delta)/a(x_i)`
    (rounded to the step; :math:`-\Delta` means the ratio :math:`a(0)/a(\Delta)`);
    ``f0``: the grid density at 0, :math:`a(0)/h` (line 87 gives the mass :math:`a(0)`,
    ``mass0``); ``mean_abs``: :math:`\sum_i |x_i| a_i` (line 80); ``gamma_atom``: the
    Gamma atom at 0 (line 34); ``laplace_mass``: :math:`\sum_i l_i`; ``total_mass``:
    :math:`\sum_i a_i`; ``conv_method``: what ``scipy.signal.convolve``'s ``"auto"``
    chose; ``points``: :math:`n`.

    >>> g = paper_grid(*FIGURE_4[8], step=0.004)
    >>> g.f0 * g.step == g.mass0 and g.conv_method == "fft"
    True
    """

    alpha: float
    theta: float
    lam: float
    step: float
    width: float
    Delta: float
    epsilon: float
    argmax_t: float
    f0: float
    mass0: float
    mean_abs: float
    gamma_atom: float
    laplace_mass: float
    total_mass: float
    conv_method: str
    points: int


def paper_grid(alpha, theta, lam, step=PAPER_STEP, *, width=PAPER_WIDTH, Delta=1):
    r"""The paper script's grid privacy loss and :math:`f_A(0)` (Figures 3-4, Section 5).

    ``estimate_epsilon``, ``alt-code.py`` lines 74-81, and ``density_at_zero``, line 87.

    .. math::

        \varepsilon_h = \ln \max_i \frac{a_{i+k}}{a_i}, \qquad k = \lfloor \Delta/h \rfloor,

    with the Arete masses :math:`a` of :func:`arete_masses`.  The script has
    :math:`\Delta = 1` (``int(1/stepsize)``); ``Delta`` and ``width`` must be multiples
    of ``step``.  float64, as the script; about 0.01 s at the paper's step and 0.04 s at
    :math:`h = 0.00025` on the Figure-4 sets.  Raises ValueError if a grid mass in the
    ratio is not positive (the ratio would be meaningless).

    >>> g1, g2 = paper_grid(*FIGURE_4[7]), paper_grid(*FIGURE_4[7], step=0.002)
    >>> # the exact tight epsilon is 6.99950...; the coarser grid is further above it (and above 7)
    >>> 6.9995 < g1.epsilon < 7 < g2.epsilon
    True
    """
    step, width, Delta = _check_grid(step, width, Delta)
    x, g, lap, a, method = _arete(alpha, theta, lam, step, width)
    k = int(Delta / step)  # line 77: int(1/stepsize)
    if not (a > 0).all():
        bad = int((a <= 0).sum())
        raise ValueError(f"{bad} grid masses are not positive for alpha={alpha!r}, theta={theta!r}, lam={lam!r} "
                         f"(step={step!r}, width={width!r}): the grid ratio is undefined")
    ratios = a[k:] / a[:-k]  # line 78
    i = int(np.argmax(ratios))
    eps = float(np.log(ratios[i]))  # line 79: np.log(max(ratios))
    mid = len(a) // 2
    mean_abs = float(np.cumsum(np.abs(x) * a)[-1])  # line 80, summed left to right as sum() does
    return PaperGrid(alpha=float(alpha), theta=float(theta), lam=float(lam), step=step, width=width,
                     Delta=Delta, epsilon=eps, argmax_t=round(float(x[i]) / step) * step,
                     f0=float(a[mid] / step), mass0=float(a[mid]), mean_abs=mean_abs,
                     gamma_atom=float(g[mid]), laplace_mass=float(lap.sum()), total_mass=float(a.sum()),
                     conv_method=str(method), points=len(x))


# ---------------------------------------------------------------------------
# against the exact values
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GridBias:
    r"""One row of :func:`bias_table`: the grid against the exact values (Figure 4, Corollary 5).

    ``bias = grid_epsilon - exact_epsilon`` (``sign`` ``"+"`` when the grid overstates the
    privacy loss); ``f0_rel_error = f0_grid/f0_exact - 1`` with
    :math:`f_0 = f_A(0)`.  ``exact_epsilon`` and ``f0_exact`` are floats of the exact values
    (``digits`` significant digits).

    >>> r = bias_table(steps=(0.004,), sets=(8,), digits=6)[0]
    >>> r.bias == r.grid_epsilon - r.exact_epsilon > 0 and r.sign == "+" and r.f0_rel_error > 0
    True
    """

    target: object
    alpha: str
    theta: str
    lam: str
    step: float
    grid_epsilon: float
    exact_epsilon: float
    bias: float
    sign: str
    f0_grid: float
    f0_exact: float
    f0_rel_error: float
    exceeds_target: bool


def bias_table(steps=DEFAULT_STEPS, sets=None, *, digits=8, width=PAPER_WIDTH):
    r"""Grid :math:`\varepsilon_h` and :math:`f_A(0)` of the script against the exact values (Figure 4, Section 4.2).

    For every Figure-4 set in ``sets`` (targets 6, 7, 8 of
    :data:`arete_proofs.distributions.params.FIGURE_4`, default all; a mapping
    ``label -> (alpha, theta, lam)`` is also accepted) and every step in ``steps``:
    :func:`paper_grid`, the exact tight :math:`\varepsilon^*` of
    :func:`arete_proofs.privacy.tight.tight_epsilon` (:math:`\Delta = 1`, ``digits``) and
    the exact :math:`f_A(0)` of :func:`arete_proofs.distributions.arete.pdf` (``digits``).
    Rows are ordered by set, then by step as given.  The exact values cost about 1-2 s
    per set at 8 digits; the grids 0.01-0.04 s each.

    .. math::

        \text{bias}(h) = \varepsilon_h - \varepsilon^*, \qquad
        \text{rel. error of } f_A(0) = \frac{a(0)/h}{f_A(0)} - 1 .

    >>> rows = bias_table(steps=(0.004, 0.002), sets=(6,), digits=6)
    >>> # the bias is positive and shrinks with the step; at 0.002 the eps = 6 set exceeds 6
    >>> rows[0].bias > rows[1].bias > 0 and rows[1].exceeds_target
    True
    """
    from mpmath import mp

    from ..distributions import arete
    from .tight import tight_epsilon

    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 30:
        raise ValueError(f"digits must be an integer between 1 and 30, got {digits!r}")
    steps = [_check_grid(h, width, 1)[0] for h in steps]
    if not steps:
        raise ValueError("steps must not be empty")
    if sets is None:
        sets = sorted(FIGURE_4)
    if isinstance(sets, dict):
        named = {k: tuple(str(v) for v in p) for k, p in sets.items()}
    else:
        named = {}
        for s in sets:
            if s not in FIGURE_4:
                raise ValueError(f"sets must name Figure-4 targets {sorted(FIGURE_4)} (or be a dict), got {s!r}")
            named[s] = FIGURE_4[s]
    rows = []
    for target, (a_s, th_s, lam_s) in named.items():
        exact = float(tight_epsilon(a_s, th_s, lam_s, 1, digits=digits).epsilon)
        with mp.workdps(digits + 10):
            f0 = float(arete.pdf(0, a_s, th_s, lam_s, digits=digits))
        for h in steps:
            g = paper_grid(a_s, th_s, lam_s, h, width=width)
            bias = g.epsilon - exact
            try:
                over = g.epsilon > float(target)
            except (TypeError, ValueError):
                over = False
            rows.append(GridBias(target=target, alpha=a_s, theta=th_s, lam=lam_s, step=h,
                                 grid_epsilon=g.epsilon, exact_epsilon=exact, bias=bias,
                                 sign="+" if bias > 0 else ("-" if bias < 0 else "0"),
                                 f0_grid=g.f0, f0_exact=f0, f0_rel_error=g.f0 / f0 - 1, exceeds_target=over))
    return rows


def bias_order(rows):
    r"""Fitted order :math:`p` of :math:`|\text{bias}(h)| \approx C h^p` per set (least squares in log-log).

    ``rows`` from :func:`bias_table` (at least two steps per set); returns
    ``{target: p}``.  A first-order error has :math:`p = 1`.

    >>> rows = [GridBias(6, "", "", "", h, 0.0, 0.0, 3 * h * h, "+", 0.0, 1.0, 0.0, False) for h in (0.1, 0.01)]
    >>> abs(bias_order(rows)[6] - 2) < 1e-12
    True
    """
    by = {}
    for r in rows:
        by.setdefault(r.target, []).append((r.step, r.bias))
    out = {}
    for target, pts in by.items():
        pts = [(h, b) for h, b in pts if b != 0]
        if len(pts) < 2:
            raise ValueError(f"rows must hold at least two steps with nonzero bias for set {target!r}")
        lx = np.log([h for h, _ in pts])
        ly = np.log([abs(b) for _, b in pts])
        out[target] = float(np.polyfit(lx, ly, 1)[0])
    return out
