"""One documentation style for the public API.

Every public function and class (the ``__all__`` of the modules below) has a
docstring that

* ties it to the paper: names a statement (Lemma, Definition, Figure, ...) or
  states its formula (``:math:`` / ``.. math::``), and
* contains a doctest (``>>>``) -- run by ``--doctest-modules`` (pyproject addopts),
  showing an identity or a bound rather than a bare value.

Module-level data in ``__all__`` (dicts, numbers, tuples) cannot carry a
docstring of its own and is documented in its module's docstring; only
functions and classes are checked here.  Exceptions are listed, with the
reason, in :data:`ALLOWED`.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

MODULES = [
    "distributions.gamma",
    "distributions.laplace",
    "distributions.gamma_gamma",
    "distributions.arete",
    "distributions.params",
    "distributions.staircase",
    "distributions._limits",
    "distributions.arete_gauss",
    "distributions.fast_gauss",
    "chain.proof_integrals",
    "chain.rates",
    "chain.symbolic.rates",
    "chain.search",
    "chain.variants",
    "chain.mutants",
    "chain.observations.orders",
    "privacy.tight",
    "privacy.curves",
    "privacy.errors",
    "privacy.optimize",
    "privacy.paper_grid",
    "privacy.accounting",
    "privacy.pld",
    "privacy.composition",
    "privacy.tight_gauss",
    "privacy.optimize_gauss",
    "privacy.id_bounds",
    "mechanisms.sampling",
    "mechanisms.noise",
    "mechanisms.shares",
    "mechanisms.simulation",
    "certified.balls",
    "certified.statements",
    "certified.density",
    "certified.epsilon",
    "certified.gauss",
    "certified.region",
    "certified.region_map",
    "certified.rates_region",
    "certified.combs",
    "certified.combs_lattice",
    "certified.comb_balls",
    "certified.combs_gauss",
    "certified.intervals",
    "walkthrough.region",
    "walkthrough.composition",
    "walkthrough.beyond",
    "stats._arete",
    "stats._arete_gauss",
    "stats._gamma_gamma",
    "stats._staircase",
    "stats._common",
    "noise._base",
    "noise._shares",
    "noise.laplace",
    "noise.staircase",
    "noise.arete",
    "noise.arete_gauss",
    "distributions.comb",
    "distributions.comb_table",
    "distributions.lattice",
    "privacy.tight_discrete",
    "privacy.tight_lattice",
    "privacy._lattice_scan",
    "noise.msdlap",
    "noise.lattice_laplace",
    "noise.lattice_gauss",
    "noise.lattice_gauss_top",
    "distributions.transformed_gdl",
    "noise.transformed_gdl",
    "privacy.optimizer",
    "chain.expressions",
    "distributions.gdl",
    "distributions.dlap",
    "privacy.tight_gdl",
    "privacy.accounting_discrete",
    "noise.gdl",
    "noise.dlap",
    "stats._gdl",
    "stats._comb",
    "stats._lattice",
    "privacy.accounting_lattice",
    "chain.hm25",
    "chain.gdl_symbols",
    "chain.hm25_records",
    "chain.observations.hm25",
    "chain.symbolic.hm25",
    "chain.hm25_symbols",
    "chain.hm25_grids",
    "chain.observations.hm25_msdlap",
    "chain.symbolic.hm25_variance",
    "mechanisms.modular",
    "privacy.optimize_lattice",
    "privacy.optimize_discrete",
    "privacy.lattice_large",
    "privacy.lattice_dropout",
    "walkthrough.frontier",
    "distributions.discrete_staircase",
    "noise.discrete_staircase",
    "walkthrough.comparison",
    "noise.comparison",
    "distributions.lattice_skellam",
    "privacy.tight_skellam",
    "privacy.optimize_skellam",
    "certified.combs_skellam",
    "noise.lattice_skellam",
    "walkthrough.frontier_discrete",
    "mechanisms.exact.bits",
    "mechanisms.exact.inversion",
    "mechanisms.exact.laws",
    "mechanisms.exact.families",
    "mechanisms.aggregate",
    "opendp",
]

#: a reference to the paper or a formula
STATEMENT = re.compile(
    r"\b(Lemma|Definition|Corollary|Theorem|Proposition|Section|Figure|Note|Claim|Appendix|Eq)"
    r"|:math:`|\.\. math::"
)
DOCTEST = re.compile(r"^\s*>>> ", re.MULTILINE)

#: "module.name" -> {check: reason}; check is "statement" or "doctest".
ALLOWED: dict[str, dict[str, str]] = {
    "certified.density.exact_parameter": {"statement": "converts input to an exact Fraction; no mathematics"},
    # Plumbing without mathematical content: there is no statement to cite.
    "mechanisms.sampling.generator": {"statement": "turns a seed into a numpy Generator; no mathematics"},
    "mechanisms.sampling.save_samples": {"statement": "writes a .npy file; no mathematics"},
    "certified.region_map.code_hash": {"statement": "a SHA-256 of source files; no mathematics"},
    # Every instance needs the optimizer (5-30 s of float64 search plus exact
    # confirmations), too slow for a doctest; tests/test_optimize.py covers them.
    "privacy.optimize.optimize": {"doctest": "runs the full search + exact confirmation (5-30 s)"},
    "privacy.optimize.Optimum": {"doctest": "only produced by optimize() (5-30 s)"},
    "privacy.optimize.compare_figure_4": {"doctest": "runs optimize() (5-30 s)"},
    "privacy.optimize.Figure4Comparison": {"doctest": "only produced by compare_figure_4() (5-30 s)"},
    # The Gaussian-part optimiser: its float64 search alone takes about 30 s (tests/test_optimize_gauss.py).
    "privacy.optimize_gauss.search": {"doctest": "Nelder-Mead over sigma bisections (about 30 s)"},
    "privacy.optimize_gauss.optimize": {"doctest": "runs search() + certified confirmation (30 s to minutes)"},
    "privacy.optimize_gauss.GaussOptimum": {"doctest": "only produced by optimize() (30 s to minutes)"},
    # Only produced by a certified scan of tight_epsilon over a range of eps;
    # the doctest of smallest_private_eps (about 4 s) already shows one.
    "privacy.curves.SmallestPrivateEps": {"doctest": "needs a certified eps scan (seconds); see smallest_private_eps"},
    # issue 24: the lattice + Gaussian optimiser and the frontier runs take minutes (tests/test_optimize_lattice.py)
    "privacy.optimize_lattice.optimize": {"doctest": "float64 search + exact confirmation (minutes at m = 28)"},
    "walkthrough.frontier.compute": {"doctest": "runs every family's optimiser (minutes per eps)"},
    "walkthrough.frontier.certify_rows": {"doctest": "certifies every lattice row of a file (seconds to minutes each)"},
    "walkthrough.frontier_discrete.compute_row": {"doctest": "optimiser + certificate (seconds to a minute per row)"},
    "walkthrough.frontier_discrete.main": {"doctest": "runs compute_row over a grid (minutes)"},
    "walkthrough.comparison.compute": {"doctest": "runs both tables (about 15 minutes); tests/test_comparison.py"},
    "chain.hm25.check_all": {"doctest": "all four default grids (about 10 s); each check_* has its own doctest"},
    # plumbing of the exact samplers and of `arete aggregate`: bit sources, argument parsing, caches
    "mechanisms.exact.bits.BitSource": {"statement": "a checked getrandbits source; no mathematics"},
    "mechanisms.exact.bits.bit_source": {"statement": "wraps an rng as a BitSource; no mathematics"},
    "mechanisms.exact.families.sampler": {"statement": "a cache of samplers; no mathematics"},
    "mechanisms.exact.families.shape_of": {"statement": "normalises a size argument; no mathematics"},
    "mechanisms.exact.inversion.require_flint": {"statement": "imports python-flint; no mathematics"},
    "mechanisms.exact.laws.exact_rational": {"statement": "parses a number exactly; no mathematics"},
    "mechanisms.aggregate.parse_modulus": {"statement": "parses 2**K; no mathematics"},
}

CHECKS = {
    "statement": (STATEMENT, "names no paper statement (Lemma/Definition/Figure/Section/...) and has no :math: formula"),
    "doctest": (DOCTEST, "has no doctest (>>>)"),
}


def _public_api():
    for module_name in MODULES:
        module = importlib.import_module(f"arete_proofs.{module_name}")
        names = getattr(module, "__all__", None)
        assert names is not None, f"arete_proofs.{module_name} has no __all__"
        for name in names:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{module_name}.{name}", obj


API = dict(_public_api())


def test_api_found():
    assert len(API) > 50, sorted(API)


def test_allow_list_is_current():
    """Every allow-list entry names a public object that still needs it."""
    for key, waived in ALLOWED.items():
        assert key in API, f"ALLOWED lists {key}, which is not public API (remove it)"
        doc = API[key].__doc__ or ""
        for check in waived:
            pattern, _ = CHECKS[check]
            assert not pattern.search(doc), f"{key} now passes the {check!r} check: remove it from ALLOWED"


@pytest.mark.parametrize("key", sorted(API))
def test_docstring_style(key):
    obj = API[key]
    # the object's own docstring (not one inherited from a base class)
    doc = obj.__doc__
    assert doc and doc.strip(), f"{key} has no docstring"
    if inspect.isclass(obj):
        assert "__doc__" in vars(obj), f"{key} only inherits its docstring"
        # @dataclass fills in "Name(field: type, ...)" when the class has no docstring
        assert not doc.startswith(f"{obj.__name__}("), f"{key} has only the generated dataclass docstring"
    waived = ALLOWED.get(key, {})
    problems = [
        message
        for check, (pattern, message) in CHECKS.items()
        if check not in waived and not pattern.search(doc)
    ]
    assert not problems, f"{key}: " + "; ".join(problems)
