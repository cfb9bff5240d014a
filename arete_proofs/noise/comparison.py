r"""Rows of the comparison of the noise families at their papers' parameters (``arete compare --families``, the docs' tables).

One entry per family, target :math:`\varepsilon` and sensitivity :math:`\Delta`, JSON-ready: the
parameters, :math:`E|Z|`, :math:`\operatorname{Var} Z`, the tight epsilon of those parameters and
whether it is ``certified`` (closed form or exact reduction), and ``how`` it was computed:

* ``dlap``: DLap(:math:`a = \varepsilon/\Delta`), :math:`\varepsilon^* = a\Delta` exactly;
* ``gdl``: Theorem 15's :math:`\beta = \Delta e^{2-\varepsilon}`, :math:`a = 2/\Delta` where its hypothesis
  :math:`\varepsilon > 2 + \ln\Delta` holds (:mod:`arete_proofs.privacy.tight_gdl`);
* ``msdlap``: Theorem 16's :math:`a = \varepsilon`, :math:`m = \Delta` (:mod:`arete_proofs.privacy.tight_discrete`,
  :math:`E|Z|` by :func:`arete_proofs.privacy.optimize_discrete.msdlap_mean_abs`; only the variance for
  :math:`m >` :data:`MSDLAP_M_MAX`);
* ``gdl_opt``, ``msdlap_opt`` (and ``*_opt_var``): the least :math:`E|Z|` (variance) at exact tight epsilon
  :math:`\le \varepsilon` (:mod:`arete_proofs.privacy.optimize_discrete`);
* ``discrete_staircase`` at its optimal :math:`r` (:mod:`arete_proofs.noise.discrete_staircase`);
* ``lattice_laplace``: Theorem 21 (:func:`arete_proofs.privacy.tight_lattice.tight_epsilon_theorem21`, certified;
  only the variance for :math:`m >` :data:`THEOREM21_M_MAX`);
* ``lattice_gauss``: optimised (:mod:`arete_proofs.privacy.optimize_lattice`; **not certified**; minutes).

>>> e = discrete_part(5, 10, "dlap")
>>> e["a"], e["epsilon"], e["certified"]                # DLap(eps/Delta): eps* = a Delta
('0.5', '5.0', True)
"""

from __future__ import annotations

import time

from mpmath import mp

__all__ = ["THEOREM21_M_MAX", "MSDLAP_M_MAX", "FAMILY_ROWS", "DISCRETE_PARTS", "discrete_part", "family_entry"]

#: Theorem 21's tight epsilon is computed for m <= this (eps <= 16; m = 245 takes about a minute of CPU)
THEOREM21_M_MAX = 250
#: MSDLap's E|Z| and tight epsilon are computed for m = Delta <= this (every Delta of the discrete table)
MSDLAP_M_MAX = 1000
#: the integer entries of :func:`discrete_part` (``*_opt``: optimised for E|Z|, ``*_opt_var``: for the variance)
DISCRETE_PARTS = ("dlap", "gdl", "gdl_opt", "gdl_opt_var", "msdlap", "msdlap_opt", "msdlap_opt_var", "dstaircase",
                  "dstaircase_var")


def _s(x, digits=15):
    if isinstance(x, float):
        return repr(x)
    with mp.workdps(digits + 5):
        return mp.nstr(mp.mpf(x), digits)


def discrete_part(eps, Delta, part, *, digits=8):
    r"""One entry at ``eps`` and integer ``Delta``: ``part`` of :data:`DISCRETE_PARTS` (module docstring;
    Theorem 15, Theorem 16; the discrete staircase at its :math:`E|Z|`- or variance-optimal :math:`r`).

    >>> e = discrete_part(5, 10, "dstaircase")
    >>> float(e["mean_abs"]) < float(discrete_part(5, 10, "dlap")["mean_abs"]), e["epsilon"]
    (True, '5.0')
    """
    from ..noise import make

    t0 = time.perf_counter()
    D = int(Delta)
    with mp.workdps(30):
        E = mp.mpf(eps)
        if part == "dlap":
            z = make("dlap", a=_s(E / D, 25))
            r = z.tight_epsilon(Delta=D, digits=digits)
            out = {"a": z.a, "how": "closed forms (DLap), eps* = a Delta"}
        elif part == "gdl":
            if not E > 2 + mp.log(D):
                return {"skipped": f"Theorem 15's hypothesis eps > 2 + ln Delta = {float(2 + mp.log(D)):.4g} fails"}
            z = make("gdl", beta=_s(D * mp.exp(2 - E), 25), a=_s(mp.mpf(2) / D, 25))
            r = z.tight_epsilon(Delta=D, digits=digits)
            out = {"beta": z.beta, "a": z.a, "how": "distributions.gdl (2F1 closed form) + privacy.tight_gdl (exact)"}
        elif part == "msdlap":
            z = make("msdlap", a=eps, m=D)
            out = {"a": str(eps), "m": D, "variance": _s(z.var(digits=12))}
            if D > MSDLAP_M_MAX:
                out.update(mean_abs=None, epsilon=None, certified=False,
                           how=f"variance closed form only (Theorem 16: S2(m)/(cosh a - 1)); m = {D} > "
                               f"{MSDLAP_M_MAX}: E|Z| and eps* not run; "
                               "Theorem 16 proves eps* <= a)")
                out["seconds"] = round(time.perf_counter() - t0, 2)
                return out
            from ..privacy.optimize_discrete import msdlap_mean_abs

            r = z.tight_epsilon(Delta=D, digits=digits)
            out.update(mean_abs=_s(msdlap_mean_abs(eps, D, digits=12)), epsilon=_s(r.epsilon, digits), certified=True,
                       digits=digits, seconds=round(time.perf_counter() - t0, 2),
                       how="privacy.optimize_discrete.msdlap_mean_abs (characteristic function, aliasing bound) + "
                           "privacy.tight_discrete (exact)")
            return out
        elif part in ("gdl_opt", "gdl_opt_var", "msdlap_opt", "msdlap_opt_var"):
            from ..privacy import optimize_discrete as od

            fn = od.optimize_gdl if part.startswith("gdl") else od.optimize_msdlap
            o = fn(eps, D, objective="variance" if part.endswith("_var") else "mean_abs", digits=digits)
            o.pop("objective")
            out = {k: (int(v) if k == "m" else v if isinstance(v, (str, dict)) else _s(v, digits if k == "epsilon" else 15))
                   for k, v in o.items()}
            out["tried"] = {str(k): repr(v) for k, v in o.get("tried", {}).items()} or None
            if out["tried"] is None:
                out.pop("tried")
            out.update(certified=True, digits=digits, seconds=round(time.perf_counter() - t0, 2))
            return out
        elif part in ("dstaircase", "dstaircase_var"):
            from ..noise.discrete_staircase import DiscreteStaircaseNoise

            z = DiscreteStaircaseNoise.optimal(eps, D, objective="mean_abs" if part == "dstaircase" else "variance")
            r = z.tight_epsilon(Delta=D, digits=digits)
            out = {"r": z.r, "how": "distributions.discrete_staircase (closed forms, exact step-count tight eps)"}
        else:
            raise ValueError(f"part must be one of {DISCRETE_PARTS}, got {part!r}")
        out.update(mean_abs=_s(z.mean_abs(digits=12)), variance=_s(z.var(digits=12)),
                   epsilon=_s(r.epsilon, digits), certified=True, digits=digits)
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


#: The families ``arete compare --families`` can add, each at its paper's parameters (lattice_gauss optimised).
FAMILY_ROWS = ("lattice_laplace", "lattice_gauss", "gdl", "msdlap", "dlap", "discrete_staircase")
_FAMILY_PART = {"gdl": "gdl", "msdlap": "msdlap", "dlap": "dlap", "discrete_staircase": "dstaircase"}


def family_entry(name, eps, Delta=1, *, objective="mean_abs", digits=8, theorem21_m_max=None):
    r"""One ``arete compare --families`` row: family ``name`` of :data:`FAMILY_ROWS` at target ``eps``, sensitivity ``Delta``.

    ``lattice_laplace``: Theorem 21's parameters (certified tight epsilon where
    :math:`m \le` ``theorem21_m_max``, default :data:`THEOREM21_M_MAX`: about a minute of CPU at :math:`m = 290`,
    three at :math:`m = 404`); ``lattice_gauss``: the optimiser of
    :mod:`arete_proofs.privacy.optimize_lattice` (tight epsilon **not certified**; minutes); the
    integer families (Theorem 15, Theorem 16, DLap, the discrete staircase at its ``objective``-optimal
    :math:`r`) need an integer ``Delta`` and are ``{"skipped": why}`` otherwise.  A dict with
    ``noise``, the parameters, ``mean_abs``, ``variance``, ``epsilon``, ``certified``, ``how``.

    >>> e = family_entry("discrete_staircase", 5, 10)
    >>> e["noise"], e["r"], e["epsilon"], e["certified"]
    ('discrete_staircase', 1, '5.0', True)
    """
    t0 = time.perf_counter()
    if name not in FAMILY_ROWS:
        raise ValueError(f"name must be one of {', '.join(FAMILY_ROWS)}, got {name!r}")
    with mp.workdps(40):
        D = mp.mpf(Delta)
        E = mp.mpf(eps)
    head = {"noise": name, "eps": str(eps)}
    if name in _FAMILY_PART:
        if D != int(D) or D < 1:
            return {**head, "skipped": f"an integer noise needs an integer sensitivity (S = {Delta})"}
        part = _FAMILY_PART[name]
        if part == "dstaircase" and objective == "variance":
            part = "dstaircase_var"
        return {**head, **discrete_part(eps, int(D), part, digits=digits)}
    if name == "lattice_laplace":
        from ..distributions.lattice import theorem21_parameters
        from ..privacy.tight_lattice import tight_epsilon_theorem21

        e_arg = int(E) if E == int(E) else eps
        d_arg = int(D) if D == int(D) else Delta
        if E < 2:
            return {**head, "skipped": "Theorem 21 needs eps >= 2"}
        a, m, b, h = theorem21_parameters(e_arg, d_arg)
        with mp.workdps(30):
            A, B, H = mp.mpf(a), mp.mpf(b), mp.mpf(h)
            var = H ** 2 * mp.mpf(m * (m + 1) * (2 * m + 1)) / 6 / (mp.cosh(A) - 1) + 2 * B ** 2
        out = {**head, "a": a, "m": m, "b": b, "h": h, "variance": _s(var)}
        m_max = THEOREM21_M_MAX if theorem21_m_max is None else int(theorem21_m_max)
        if m > m_max:
            out.update(mean_abs=None, epsilon=None, certified=False,
                       how=f"variance closed form only: m = {m} > {m_max} (the tight-epsilon engine "
                           "takes many minutes; not run)")
        else:
            from ..privacy.optimize_discrete import theorem21_mean_abs

            r = tight_epsilon_theorem21(e_arg, d_arg, digits=digits)
            out.update(mean_abs=_s(theorem21_mean_abs(a, m, b, h, digits=12)), epsilon=_s(r.epsilon, digits),
                       certified=bool(r.certified),
                       how="Theorem 21 + privacy.tight_lattice.tight_epsilon_theorem21 (exact lattice-point reduction); "
                           "E|Z| by privacy.optimize_discrete.theorem21_mean_abs")
        out["seconds"] = round(time.perf_counter() - t0, 2)
        return out
    from ..noise import FAMILIES
    from ..privacy import optimizer

    o = optimizer.optimize(FAMILIES["lattice_gauss"].search_problem(float(eps), objective=objective), float(D),
                           digits=digits)
    return {**head, **{k: repr(v) if isinstance(v, float) else v for k, v in o.params.items()},
            "mean_abs": _s(o.mean_abs), "variance": _s(o.variance), "epsilon": _s(o.epsilon, digits),
            "certified": False, "how": "privacy.optimize_lattice (exact engine, numerical window: not certified)",
            "seconds": round(time.perf_counter() - t0, 2)}
