r"""Check the certificates of the floors of infinitely divisible (ID) :math:`\varepsilon`-DP noise
(:math:`\Delta = 1`, :math:`q = e^{-\varepsilon}`; the proofs are in the docstrings of
``arete_proofs.privacy.id_bounds``, ``id_variance`` and ``id_mean_abs``; here is what each kind re-derives, in ``arb``
at 128 bits from the exact ``params.eps`` and the recorded choices).  Every floor kind's claim ``ratio`` is checked as
``ratio`` :math:`\times` the Staircase's (least over all DP noise, Lemma 27) :math:`\le` ``bound``.

``staircase_not_id`` (Theorem A).  With the ball :math:`\gamma^* = 1/(1 + e^{\varepsilon/2})` (the exact
:math:`E|Z|`-optimal :math:`\gamma` lies in it), :math:`w = m\pi/\gamma^*` for the recorded odd :math:`m`, the full
closed form
:math:`\varphi(w) = \frac{2a}{w}[\sin w\gamma + \operatorname{Im}\frac{e^{iw\gamma}q(e^{iw}-1)}{1-qe^{iw}}]`,
:math:`a = \frac{1-q}{2(\gamma + q(1-\gamma))}`, must be :math:`\le` ``claim.phi_upper`` :math:`< 0` (an ID
characteristic function has no zero, so it is positive); ``claim.w`` must enclose :math:`w`.

``id_floor_general`` (Theorem C).  :math:`E|Z| \ge \inf_{y > 0} G(y)`, :math:`G = (1/2 + D(y) + \frac q2(y-1)_+^2)/y`,
:math:`D(y) \ge D_k(qy)` nonincreasing in :math:`y`.  The recorded breakpoints :math:`y_0 < \dots < y_n` cover
:math:`[y_0, y_n]`; on cell :math:`i`, :math:`G \ge (1/2 + d_i)/y_{i+1} + \frac q2(y_i - 1)_+^2/y_i`
(:math:`(y-1)_+^2/y` does not decrease) once the condition of Theorem C fails at :math:`D = d_i`,
:math:`P = qy_{i+1}`, :math:`k_i` (the left side minus the right side grows with :math:`D`, so then
:math:`D_{k_i} > d_i`; :math:`d_i = 0` needs nothing); :math:`G \ge 1/(2y_0)` below :math:`y_0` and
:math:`G \ge \frac q2 (y_n-1)^2/y_n` above :math:`y_n > 1`.  Every piece must be :math:`\ge` ``claim.bound``.

``id_floor_variance`` (Theorem E; symmetric ID).  :math:`V =` ``claim.bound``, :math:`0 < \rho < 1`, :math:`k, u > 0`,
:math:`r = \rho/k`, :math:`\Lambda = V/r^2`: :math:`L(V) = 3(AB^2/4)^{1/3} - T > V`, :math:`A = e^{-3\Lambda}/(2\pi)`,
:math:`B = \frac23 q(1-\rho^3)`, :math:`T = 2Ve^{-uk}(\cosh u + \Lambda\sinh^2u)e^{\Lambda(\cosh u - 1)}`.  The
Staircase's least variance is at most its variance at the recorded :math:`\gamma \in [0, 1]`,
:math:`\frac{q(1+q)}{p^2} + \frac qp\frac{q + p\gamma^2}{c} + \frac{q + p\gamma^3}{3c}`, :math:`p = 1-q`,
:math:`c = q + p\gamma`.  ``id_floor_variance_range``: cells :math:`[\varepsilon_a, \varepsilon_b]` from
``params.eps`` on, contiguous, the last open (``null``); :math:`L(V) > V` at :math:`\varepsilon_a` gives
:math:`\mathrm{Var} \ge \beta q^{2/3}`, :math:`\beta = V e^{2\varepsilon_a/3}`, at every :math:`\varepsilon \ge
\varepsilon_a` (the parameters fixed, :math:`L(\beta q^{2/3})/q^{2/3} - \beta` grows as :math:`q` falls); over
:math:`q^{2/3}` the Staircase at :math:`\gamma = (q/2)^{1/3}` is the rational function of :math:`s = q^{1/3}`
(:math:`p = 1 - s^3`, :math:`g = 2^{-1/3}`) :math:`\frac{s(1+s^3)}{p^2} + \frac{s^2}p\frac{s + pg^2}{s^2 + pg} +
\frac{1 + p/2}{3(s^2 + pg)}`, evaluated on ``pieces`` balls covering :math:`s \in [e^{-\varepsilon_b/3},
e^{-\varepsilon_a/3}]`.

``id_floor_mean_abs`` (Theorem F; symmetric ID).  :math:`V =` ``claim.bound``, :math:`r = k_rV`, :math:`\rho = kr`,
:math:`k_r^2 > 3`, :math:`0 < \rho < 1`, :math:`u > 0`; the recorded :math:`W` must have :math:`m_r(W) =
\frac2\pi(\sqrt{\pi W}/2\,\mathrm{erf}\,x - (1 - e^{-x^2})r/\sqrt6) \ge V`, :math:`x = \sqrt{6W}/(2r)` (Lemma F2);
:math:`T = 2e^{-uk}e^{W(\cosh u - 1)/r^2}\min(\sqrt S, S/\rho)`, :math:`S = W\cosh u + (W\sinh u/r)^2` (F3),
:math:`\beta = q(1-\rho^2)`.  The breakpoints :math:`0 = \lambda_0 < \dots < \lambda_n \ge -\ln(1 - \sqrt3/k_r)`
(beyond, :math:`rh(\lambda) \ge V`) cover the big jumps' rate; on each cell, with :math:`h \ge h_- = \max((1 -
e^{-\lambda_0})/\sqrt3, \min_{\lambda_0, \lambda_1}\lambda e^{-\lambda})`, :math:`\gamma = rh_-`,
:math:`a = e^{-2\lambda_1}/\pi`: either :math:`\gamma \ge V` or :math:`\inf_M a/M + \max(\beta M - T, \gamma) \ge
\max(2\sqrt{a\beta} - T,\ a/M_c + \gamma\ [M_c = (\gamma + T)/\beta \ge \sqrt{a/\beta}]) > V`.  By Corollary F4 the
ratio holds for every larger :math:`\varepsilon` too.

``id_floor_limits`` (Corollaries D, E3, F4 and Lemma F1's numbers).  :math:`d` with Theorem C's condition failing at
:math:`P = q = 0` gives :math:`D^* > d`, so :math:`c_{ID} \ge 1/4 + d/2` and the :math:`E|Z|` ratio of ID noise tends
to at least :math:`\sqrt{1 + 2d}`; symmetric ID noise: :math:`2/\sqrt\pi` (:math:`E|Z|`) and :math:`(6/\pi)^{1/3}`
(Var); Lemma F1 at :math:`(R, \lambda)`: :math:`R < 2\pi`, :math:`(1 - \cos R)/R^2 > 1/(2\pi^2)`,
:math:`1 + \lambda R\sqrt{\pi/8} - e^\lambda > 0` and :math:`\frac\pi2\frac R{\sqrt3}(1 - e^{-\lambda}) > \sqrt{2\pi}`.

>>> with prec(128):      # Corollary D: the least root of pi D = (sin w / w - w D)^9, w = pi/3, is in (0.0372, 0.0373)
...     [cond_fails(ball(d), ball(0), ball(0), 3) for d in ("0.0372", "0.0373")]
[True, False]
"""

from __future__ import annotations

from fractions import Fraction

from flint import acb, arb

from ._arb import ball, prec, rational
from ._iv import of_arb
from ._refused import Refused


def num(d, key, lo=None, hi=None, where="found"):
    """``d[key]`` as an exact rational in the open interval (lo, hi), else ValueError naming it."""
    x = rational(d[key], f"{where}.{key}")
    if (lo is not None and not x > lo) or (hi is not None and not x < hi):
        raise ValueError(f"{where}.{key} = {d[key]} must be in ({lo}, {hi})")
    return x


def phi_odd(e, m):
    """(phi, w): the Staircase's characteristic function at w = m pi / gamma* (Theorem A), balls."""
    q, g = (-e).exp(), 1 / (1 + (e / 2).exp())
    w = m * arb.pi() / g
    ew = (acb(0, 1) * w).exp()
    z = (acb(0, 1) * w * g).exp() * q * (ew - 1) / (1 - q * ew)
    return (1 - q) / (g + q * (1 - g)) / w * ((w * g).sin() + z.imag), w


def cond_fails(d, P, q, k):
    """Theorem C's condition fails at D = d (so D_k(P, q) > d): lhs < rhs, certainly."""
    c, w = 1 - P, arb.pi() / k
    base = c * w.sin() / w - w / c * d - P.min(2 * q * k / arb.pi())
    return bool(c > 0 and base > 0 and arb.pi() / c * d + P.min(2 * q / arb.pi()) < base ** (k * k))


def general_pieces(y, d, ks, q):
    """Lower bounds of G on (0, y0), (y_n, inf) and each cell (Theorem C); Refused when a d_i is not certified."""
    if not (len(d) == len(ks) == len(y) - 1 and y[0] > 0 and y[-1] > 1 and all(a < b for a, b in zip(y, y[1:]))):
        raise ValueError("cells: y must increase from above 0 to above 1, with one d and one k per cell")
    out = [1 / (2 * ball(y[0])), q / 2 * (ball(y[-1]) - 1) ** 2 / ball(y[-1])]
    for i, (y1, y2, di, k) in enumerate(zip(y, y[1:], d, ks)):
        if di < 0 or (di > 0 and not (type(k) is int and k >= 2 and cond_fails(ball(di), q * ball(y2), q, k))):
            raise Refused(f"cell {i} [{y1}, {y2}]: D_{k}(q y) > d = {di} is not certified (the condition holds)")
        out.append(ball(Fraction(1, 2) + di) / ball(y2) + q / 2 * ball(max(y1 - 1, 0)) ** 2 / ball(y1))
    return out


def variance_L(V, q, f):
    """L(V) of Theorem E (balls) with the recorded rho in (0, 1), k > 0, u > 0 of ``f``."""
    rho, k, u = (ball(num(f, x, 0, 1 if x == "rho" else None)) for x in ("rho", "k", "u"))
    lam = V * (k / rho) ** 2
    A, B = (-3 * lam).exp() / (2 * arb.pi()), 2 * q * (1 - rho ** 3) / 3
    T = 2 * V * (-u * k).exp() * (u.cosh() + lam * u.sinh() ** 2) * (lam * (u.cosh() - 1)).exp()
    return 3 * (A * B * B / 4) ** (arb(1) / 3) - T


def scaled_staircase(s):
    """The Staircase's variance at gamma = (q/2)^(1/3) over q^(2/3), as a function of s = q^(1/3) (a ball)."""
    g, p = arb(2) ** (-arb(1) / 3), 1 - s ** 3
    t = s * s + p * g
    return s * (1 + s ** 3) / p ** 2 + s * s / p * (s + p * g * g) / t + (1 + p / 2) / (3 * t)


def mean_abs_cell(l0, l1, V, r, beta, T):
    """Theorem F's lower bound on the lambda cell [l0, l1], or None when r h >= V excludes the cell."""
    h = ((1 - (-l0).exp()) / arb(3).sqrt()).max((l0 * (-l0).exp()).min(l1 * (-l1).exp()))
    g, a = r * h, (-2 * l1).exp() / arb.pi()
    if g >= V:
        return None
    low, Mc = 2 * (a * beta).sqrt() - T, (g + T) / beta
    return low.max(a / Mc + g) if Mc >= (a / beta).sqrt() else low


def mean_abs_setup(f, V, q):
    """(r, beta, T, lambda_max) of Theorem F from the recorded kr, k, u, W at V; ValueError/Refused on bad choices."""
    kr, k, u, W = (num(f, x, 0) for x in ("kr", "k", "u", "W"))
    if not (kr * kr > 3 and k * kr * V < 1):
        raise ValueError(f"found: need kr^2 > 3 and rho = k kr V < 1, got kr = {kr}, rho = {float(k * kr * V)}")
    Vb, Wb, rb, ub, rho = ball(V), ball(W), ball(kr * V), ball(u), ball(k * kr * V)
    x = (6 * Wb).sqrt() / (2 * rb)
    if not 2 / arb.pi() * ((arb.pi() * Wb).sqrt() / 2 * x.erf() - (1 - (-x * x).exp()) * rb / arb(6).sqrt()) >= Vb:
        raise Refused(f"found.W = {f['W']}: m_r(W) >= V (Lemma F2) does not hold")
    S = Wb * ub.cosh() + (Wb * ub.sinh() / rb) ** 2
    T = 2 * (-ub * ball(k)).exp() * (Wb / rb ** 2 * (ub.cosh() - 1)).exp() * S.sqrt().min(S / rho)
    return rb, q * (1 - rho ** 2), T, -(1 - arb(3).sqrt() / ball(kr)).log()


def _floor(doc, kind, q, V):
    """(pieces that must each be >= claim.bound = V, the Staircase's ball) of a floor kind."""
    f = doc.get("found", {})
    if kind == "id_floor_general":
        y, d = ([rational(v, f"cells.{n}") for v in doc["cells"][n]] for n in "yd")
        return general_pieces(y, d, doc["cells"]["k"], q), q.sqrt() / (1 - q)
    if kind == "id_floor_variance":
        g, p = rational(f["gamma"], "found.gamma"), 1 - q
        if not (0 <= g <= 1 and variance_L(ball(V), q, f) > ball(V)):
            raise Refused(f"L(V) > V (Theorem E) fails at V = claim.bound, or found.gamma = {g} is not in [0, 1]")
        g, c = ball(g), q + p * ball(g)
        return [], q * (1 + q) / p ** 2 + q / p * (q + p * g * g) / c + (q + p * g ** 3) / (3 * c)
    r, beta, T, lmax = mean_abs_setup(f, V, q)
    ls = [rational(v, "cells") for v in doc["cells"]]
    if not (ls[0] == 0 and all(a < b for a, b in zip(ls, ls[1:])) and ball(ls[-1]) >= lmax):
        raise Refused(f"the lambda cells must increase from 0 to at least {float(lmax.upper())!r}")
    for i, (l0, l1) in enumerate(zip(ls, ls[1:])):
        low = mean_abs_cell(ball(l0), ball(l1), ball(V), r, beta, T)
        if low is not None and not low > ball(V):
            raise Refused(f"lambda cell {i} from {doc['cells'][i]}: the lower bound {low.str(8)} is not above V")
    return [], q.sqrt() / (1 - q)


def variance_range(doc, e):
    """The least ratio over the cells (id_floor_variance_range), a ball."""
    cells, n, worst = doc["cells"], doc["pieces"], None
    if not (type(n) is int and 1 <= n <= 4096 and cells and rational(cells[0][0], "cells") == e
            and cells[-1][1] is None):
        raise ValueError("cells must start at params.eps and end open (null); pieces an integer in [1, 4096]")
    for i, (a, b, *rest) in enumerate(cells):
        a, b = rational(a, "cells"), None if b is None else rational(b, "cells")
        if i + 1 < len(cells) and not (b is not None and b > a and b == rational(cells[i + 1][0], "cells")):
            raise Refused(f"cell {i}: the cells are not contiguous at eps = {b}")
        f = dict(zip(("rho", "k", "u", "V"), rest))
        V = ball(num(f, "V", 0))
        if not variance_L(V, (-ball(a)).exp(), f) > V:
            raise Refused(f"cell {i}: L(V) > V (Theorem E) does not hold at eps = {a}")
        s0, s1 = (ball(0) if b is None else (-ball(b) / 3).exp()), (-ball(a) / 3).exp()
        xs = [s0 + (s1 - s0) * j / n for j in range(n + 1)]
        for x, y in zip(xs, xs[1:]):
            r = V * (2 * ball(a) / 3).exp() / scaled_staircase(x.union(y))
            worst = r if worst is None else worst.min(r)
    return worst


def _limits(f, c):
    d, k, R, lam = num(f, "d", 0), f["k"], ball(num(f, "R", 0)), ball(num(f, "split", 0))
    if not (type(k) is int and k >= 2 and cond_fails(ball(d), ball(0), ball(0), k)):
        raise Refused(f"found.d = {f['d']}: the condition of Corollary D holds there (D* > d not certified)")
    pi = arb.pi()
    for name, ok in {"R < 2 pi": R < 2 * pi, "K(R) > 1/(2 pi^2)": (1 - R.cos()) / R ** 2 > 1 / (2 * pi * pi),
                     "few": 1 + lam * R * (pi / 8).sqrt() - lam.exp() > 0,
                     "many": pi / 2 * R / arb(3).sqrt() * (1 - (-lam).exp()) > (2 * pi).sqrt()}.items():
        if not ok:
            raise Refused(f"Lemma F1's step '{name}' fails at R = {f['R']}, split = {f['split']}")
    values = {"c_id": 1 / arb(4) + ball(d) / 2, "mean_abs_general": (1 + 2 * ball(d)).sqrt(),
              "mean_abs_symmetric": 2 / pi.sqrt(), "variance_symmetric": (6 / pi) ** (arb(1) / 3)}
    for name, v in values.items():
        if not ball(num(c, name, 0, where="claim")) <= v:
            raise Refused(f"claim.{name} = {c[name]} is above the re-derived {float(v.lower())!r}")
    return None, None, {k: of_arb(v) for k, v in values.items()}


def check(doc, progress=None):
    """Re-derive the certificate; returns ``(lower, upper, objectives)`` (floats) or raises ``Refused``."""
    kind, c = doc["kind"], doc["claim"]
    try:
        with prec(128):
            if kind == "id_floor_limits":
                return _limits(doc["found"], c)
            e = num(doc["params"], "eps", 0, 800, where="params")
            if rational(doc["Delta"], "Delta") != 1 or rational(c.get("epsilon"), "claim.epsilon") != e:
                raise ValueError("Delta must be 1 and claim.epsilon must be params.eps")
            if kind == "staircase_not_id":
                m = doc["found"]["m"]
                if not (type(m) is int and m >= 1 and m % 2):
                    raise ValueError(f"found.m must be an odd integer >= 1, got {m!r}")
                (phi, w), pu, (wl, wh) = phi_odd(ball(e), m), num(c, "phi_upper", None, 0, "claim"), c["w"]
                if not (phi <= ball(pu) and ball(rational(wl, "claim.w")) <= w <= ball(rational(wh, "claim.w"))):
                    raise Refused(f"phi(w) = {phi.str(5)} at w = {w.str(8)}: not <= claim.phi_upper or not in claim.w")
                return (*of_arb(phi), None)
            if kind == "id_floor_variance_range":
                worst = variance_range(doc, e)
                if not worst >= ball(num(c, "ratio", 0, where="claim")):
                    raise Refused(f"claim.ratio is above the cells' least ratio {worst.str(6)}")
                return of_arb(worst)[0], None, {"ratio": of_arb(worst)}
            V = num(c, "bound", 0, where="claim")
            pieces, sc = _floor(doc, kind, (-ball(e)).exp(), V)
            for i, p in enumerate(pieces):
                if not p >= ball(V):
                    raise Refused(f"piece {i} (y < y0, y > y_n, then cell {i - 2}) is below claim.bound: {p.str(6)}")
            if not ball(num(c, "ratio", 0, where="claim")) * sc <= ball(V):
                raise Refused(f"claim.ratio is above claim.bound over the Staircase's, {(ball(V) / sc).str(6)}")
            low = min((of_arb(p)[0] for p in pieces), default=of_arb(ball(V))[0])
            return low, None, {"ratio": of_arb(ball(Fraction(low)) / sc)}
    except (KeyError, TypeError, IndexError) as ex:
        raise Refused(f"malformed certificate: missing or wrong field {ex!r}") from None
    except ValueError as ex:
        raise Refused(str(ex)) from None
