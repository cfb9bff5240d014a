r"""``lattice_gauss``: :math:`Z = h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)` (beyond both papers).

Theorem 21's construction with the Laplace smoothing replaced by a Gaussian of width about
:math:`0.42h`, which makes the comb nearly flat and lets :math:`a` approach :math:`\varepsilon`.  Not
unimodal: every real shift :math:`|s| \le \Delta` (:mod:`arete_proofs.privacy.tight_lattice`;
the window is a numerical maximisation, the tail limit is exact).  Infinitely divisible: each
of :math:`n` parties adds :math:`h\sum_i i\,(\mathrm{NB}(1/n, p) - \mathrm{NB}(1/n, p)) + \mathcal N(0, \sigma^2/n)`.

>>> from arete_proofs.noise import make
>>> from mpmath import mp
>>> z = make("lattice_gauss", a="2", m=2, sigma="0.2", h="0.5")
>>> mp.almosteq(z.var(digits=20), mp.mpf("0.25") * 5 / (mp.cosh(2) - 1) + mp.mpf("0.04"), 1e-13)  # h^2 Var M + sigma^2
True
"""

from __future__ import annotations

from ._base import NotSupported, Parameter, RATE_BOUNDS, SCALE_BOUNDS, SIZE_BOUNDS
from .lattice_laplace import LatticeNoise

__all__ = ["SUM_PRIVACY_CERTIFY_M", "LatticeGaussNoise"]

#: :meth:`LatticeGaussNoise.sum_privacy` (what ``arete simulate`` prints) certifies (``certify``, about 4 s at m = 34,
#: 18 s at m = 60, 36 s at m = 80) up to this lattice size; above it, the float64 estimate, labelled "estimate, not
#: certified".  A speed cut for an interactive command, below the optimiser's
#: :data:`arete_proofs.privacy.optimize_lattice.CERTIFY_M_MAX` (130) on purpose
SUM_PRIVACY_CERTIFY_M = 60

_CERTIFIED = {}   # (noise, Delta, tol) -> the certificate sum_privacy used (simulate asks twice)


class LatticeGaussNoise(LatticeNoise):
    r""":math:`h\,\mathrm{MSDLap}(a, m) + \mathcal N(0, \sigma^2)`.

    >>> LatticeGaussNoise(a=3, m=2, sigma="0.2", h="0.5").infinitely_divisible
    True
    """

    name = "lattice_gauss"
    title = "lattice + Gaussian: h sum_{i=1}^m i DLap(a) + N(0, sigma^2)"
    reference = "beyond both papers: Theorem 21's lattice with Gaussian smoothing"
    parameters = (
        Parameter("a", "positive", "DLap rate a > 0 of the lattice part", bounds=RATE_BOUNDS),
        Parameter("m", "integer", "number of scales m >= 1", bounds=SIZE_BOUNDS),
        Parameter("sigma", "positive", "Gaussian smoothing's standard deviation sigma > 0", bounds=SCALE_BOUNDS),
        Parameter("h", "positive", "lattice step h > 0 (Delta/m in the frontier)", bounds=SCALE_BOUNDS),
    )
    kernel = "gauss"
    scale_name = "sigma"
    supports = LatticeNoise.supports | {"certify", "optimize"}

    def certify(self, Delta=1, *, tol="1e-6", target=None, workers=1, numeric=True, max_seconds=1200,
                progress=False, max_cells=400_000):
        r"""Proved enclosure of :math:`\varepsilon^*` by a second-order cover (:func:`arete_proofs.certified.combs_gauss.certify_lattice_gauss`).

        Width about ``tol`` (not digits: the cover's refinement sets it); ``progress``: status
        lines on stderr; ``workers``, ``max_seconds``: accepted for the interface.  The result's
        ``to_json()`` is re-checked by :func:`arete_proofs.certified.combs_gauss.check`.

        >>> r = LatticeGaussNoise(a=2, m=1, sigma="0.3", h=1).certify(Delta=1, tol="1e-6", numeric=False)
        >>> r.lower <= r.upper <= 2 + 1 / (2 * 0.09)     # a Delta + Delta^2/(2 sigma^2): composition bound
        True
        """
        self.check_size("certify")
        import sys

        from ..certified.combs_gauss import certify_lattice_gauss

        p = self._params
        say = (lambda s: print(s, file=sys.stderr, flush=True)) if progress else None
        r = certify_lattice_gauss(p["a"], int(self.value("m")), p["sigma"], p["h"], Delta, tol=tol,
                                  max_cells=max_cells, progress=say, a_top=p.get("a_top"))
        if numeric:   # the exact engine (numerical window): minutes at m ~ 30, --no-numeric skips it
            if say:
                say(f"certified in {r.seconds:.1f} s; now the numeric engine's tight epsilon (10 digits)")
            r.numeric = float(self.tight_epsilon(Delta, digits=10).epsilon)
        r.target = None if target is None else float(target)
        return r

    def sum_privacy(self, Delta=1, *, ratio=1, tol="1e-7"):
        r"""The privacy of a distributed sum carrying ``ratio`` designed noises (:math:`r` = contributors / parties the shares are sized for).

        The sum's noise is :math:`h\sum_i i(\mathrm{NB}(r) - \mathrm{NB}(r)) + \mathcal N(0, r\sigma^2)`
        (:mod:`arete_proofs.privacy.lattice_dropout`).  A dict: ``epsilon`` (the guarantee), ``lower``,
        ``certified``, ``method``.  :math:`r = 1` and :math:`m \le` :data:`SUM_PRIVACY_CERTIFY_M`: the certified
        enclosure's upper end (:meth:`certify`, width about ``tol``); larger :math:`m` or :math:`r \ne 1`:
        the float64 estimate (**not certified**; for :math:`r > 1` the designed noise's guarantee also holds,
        post-processing).

        >>> z = LatticeGaussNoise(a=3, m=2, sigma="0.2", h="0.5")
        >>> d, e = z.sum_privacy(1), z.sum_privacy(1, ratio=0.5)
        >>> d["certified"], d["lower"] <= d["epsilon"] < d["lower"] + 1e-6, e["certified"], e["epsilon"] > d["epsilon"]
        (True, True, False, True)
        """
        from ..privacy import lattice_dropout, optimize_lattice

        a, m, s, h = self._floats()
        r = float(ratio)
        if not r > 0:
            raise ValueError(f"ratio must be positive, got {ratio!r}")
        if r == 1 and m <= SUM_PRIVACY_CERTIFY_M:
            key = (repr(self), str(Delta), str(tol))
            c = _CERTIFIED.get(key)
            if c is None:
                c = _CERTIFIED[key] = self.certify(Delta, tol=tol, numeric=False)
            return {"epsilon": c.upper, "lower": c.lower, "certified": True, "ratio": 1.0,
                    "method": f"certified enclosure [{c.lower!r}, {c.upper!r}] (certified.combs_gauss, {c.seconds:.1f} s)"}
        if r == 1:
            e = optimize_lattice.estimate_epsilon(a, m, s, float(Delta), h, a_top=self._top())
            why = f"m = {m} > {SUM_PRIVACY_CERTIFY_M}"
        elif self._top() is not None:
            raise NotSupported(f"{self.name}: the privacy of a sum with dropouts (NB({r:g}) weights) is only "
                               f"available for lattice_gauss")
        else:
            e = lattice_dropout.estimate_epsilon(a, m, s, float(Delta), h, ratio=r)
            why = f"NB({r:g}) weights"
        return {"epsilon": e, "lower": None, "certified": False, "ratio": r,
                "method": f"float64 estimate, not certified ({why})"}

    def dropout_privacy(self, Delta, parties, min_parties, fractions):
        r"""``sum_privacy`` of the sum when each fraction :math:`f` of ``parties`` drops out (shares sized for ``min_parties``).

        Contributors :math:`c = \text{parties} - \lfloor f\,\text{parties}\rfloor`
        (:func:`arete_proofs.privacy.lattice_dropout.contributors_after_dropout`), :math:`r = c/\text{min\_parties}`;
        one dict per fraction (``fraction``, ``contributors``, ``ratio``, ``below_design`` and
        :meth:`sum_privacy`'s keys).

        >>> z = LatticeGaussNoise(a=3, m=2, sigma="0.2", h="0.5")
        >>> [(d["contributors"], d["ratio"]) for d in z.dropout_privacy(1, 10, 8, [0.1, 0.3])]
        [(9, 1.125), (7, 0.875)]
        """
        from ..privacy.lattice_dropout import contributors_after_dropout

        out = []
        for f in fractions:
            c = contributors_after_dropout(parties, f)
            d = {"fraction": float(f), "contributors": c, "ratio": c / min_parties, "below_design": c < min_parties}
            d.update(self.sum_privacy(Delta, ratio=c / min_parties))
            out.append(d)
        return out

    @classmethod
    def search_problem(cls, eps, *, objective="mean_abs", **options):
        r"""The optimiser's problem (:class:`arete_proofs.privacy.optimize_lattice.LatticeGaussProblem`):
        :math:`a`, :math:`\sigma` (and :math:`m` from a small set) at :math:`h = \Delta/m`; the confirmation
        is the exact tight epsilon, whose window is a numerical maximisation (**not certified**)."""
        from ..privacy.optimize_lattice import LatticeGaussProblem

        problem = LatticeGaussProblem(eps, objective=objective, **options)
        problem.noise_class = cls
        return problem
