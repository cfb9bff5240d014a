r"""Sphinx extension: the API reference, one page per module, grouped by subpackage (written at build time).

On ``builder-inited`` it writes ``docs/generated/api/<subpackage>.md`` (the subpackage's docstring
and a table of contents) and ``docs/generated/api/<module>.md`` (``automodule`` of one module) for
every entry of :data:`SECTIONS`; ``docs/reference/api.md`` links the subpackage pages.  One page
per module keeps every page short (the whole API on one page was 4 MB); the layer order of
:data:`SECTIONS` is the import order that ``tests/test_layers.py`` enforces.  Nothing here is
committed: ``docs/generated/`` is rebuilt by every build, and a module missing from the package
is a build error.
"""

from __future__ import annotations

from importlib import util
from pathlib import Path

from arete_generated import sync

EXT = Path(__file__).resolve().parent
OUT = EXT.parent / "generated" / "api"

#: ``(page, title, subpackage, intro, [(module, automodule options)])``, lowest layer first.
SECTIONS = [
    ("package", "The package root, errors and limits", "arete_proofs",
     "What `import arete_proofs` gives, the precision contract and the limits every function checks.",
     []),
    ("check", "The certificate checker", "arete_proofs.check",
     "The independent checker of the shipped certificates: what a reader must trust (it imports nothing "
     "from the rest of the package).",
     [("arete_proofs.check._iv", ()), ("arete_proofs.check._arb", ()), ("arete_proofs.check._comb", ()),
      ("arete_proofs.check._cover", ()), ("arete_proofs.check.lattice_gauss", ()),
      ("arete_proofs.check.lattice_skellam", ()), ("arete_proofs.check.arete", ()),
      ("arete_proofs.check.arete_region", ()), ("arete_proofs.check.floors", ())]),
    ("distributions", "Distributions", "arete_proofs.distributions",
     "Exact densities and distribution functions at any number of digits, and the float64 paths.",
     [("arete_proofs.distributions.gamma", ()), ("arete_proofs.distributions.laplace", ()),
      ("arete_proofs.distributions.gamma_gamma", ()), ("arete_proofs.distributions.arete", ()),
      ("arete_proofs.distributions.staircase", ()), ("arete_proofs.distributions.fast", ()),
      ("arete_proofs.distributions.params", ()), ("arete_proofs.distributions.arete_gauss", ()),
      ("arete_proofs.distributions.fast_gauss", ()), ("arete_proofs.distributions.gdl", ()),
      ("arete_proofs.distributions.dlap", ()), ("arete_proofs.distributions.comb", ()),
      ("arete_proofs.distributions.comb_table", ()), ("arete_proofs.distributions.comb_poles", ()),
      ("arete_proofs.distributions.lattice", ()), ("arete_proofs.distributions.transformed_gdl", ()),
      ("arete_proofs.distributions.discrete_staircase", ()),
      ("arete_proofs.distributions.lattice_skellam", ()),
      ("arete_proofs.distributions._cut", ()), ("arete_proofs.distributions._limits", ()),
      ("arete_proofs.distributions._direct", ()), ("arete_proofs.distributions._tanhsinh", ())]),
    ("reference-methods", "Independent reference methods", "arete_proofs.reference",
     "Slow methods that share no code with the engine; the tests compare the engine with them.",
     []),
    ("privacy", "Privacy", "arete_proofs.privacy",
     "Tight epsilon over every shift, accounting, errors, optimisers and the floors of infinitely "
     "divisible noise.",
     [("arete_proofs.privacy.tight", ()), ("arete_proofs.privacy.curves", ()),
      ("arete_proofs.privacy.errors", ()), ("arete_proofs.privacy.optimizer", ()),
      ("arete_proofs.privacy.optimize", ()), ("arete_proofs.privacy.accounting", ()),
      ("arete_proofs.privacy.pld", ()), ("arete_proofs.privacy.composition", ()),
      ("arete_proofs.privacy.tight_gauss", ()), ("arete_proofs.privacy.optimize_gauss", ()),
      ("arete_proofs.privacy.id_bounds", ()), ("arete_proofs.privacy.id_variance", ()),
      ("arete_proofs.privacy.id_mean_abs", ()), ("arete_proofs.privacy.id_general", ()),
      ("arete_proofs.privacy.id_asymmetric", ()), ("arete_proofs.privacy.id_upper", ()),
      ("arete_proofs.privacy.id_upper_rules", ()), ("arete_proofs.privacy.tight_gdl", ()),
      ("arete_proofs.privacy.accounting_discrete", ()), ("arete_proofs.privacy.accounting_lattice", ()),
      ("arete_proofs.privacy.tight_discrete", ()), ("arete_proofs.privacy.tight_lattice", ()),
      ("arete_proofs.privacy.optimize_lattice", ()), ("arete_proofs.privacy.lattice_large", ()),
      ("arete_proofs.privacy.lattice_dropout", ()), ("arete_proofs.privacy.optimize_discrete", ()),
      ("arete_proofs.privacy.tight_skellam", ()), ("arete_proofs.privacy.optimize_skellam", ()),
      ("arete_proofs.privacy.paper_grid", ())]),
    ("mechanisms", "Sampling and mechanisms", "arete_proofs.mechanisms",
     "Samplers (float64: for analysis, not production), n-party shares and the distributed sum.",
     [("arete_proofs.mechanisms.sampling", ()), ("arete_proofs.mechanisms.modular", ()),
      ("arete_proofs.mechanisms.exact", ()), ("arete_proofs.mechanisms.exact.bits", ()),
      ("arete_proofs.mechanisms.exact.inversion", ()), ("arete_proofs.mechanisms.exact.laws", ()),
      ("arete_proofs.mechanisms.exact.families", ()), ("arete_proofs.mechanisms.aggregate", ()),
      ("arete_proofs.opendp", ())]),
    ("chain", "The proof chain", "arete_proofs.chain",
     "The statements as data and their checks: grids, sympy proofs, observations, search and variants.",
     [("arete_proofs.chain.symbols", (":members: explicit, latex, numeric, working_digits",)),
      ("arete_proofs.chain.registry", (":members: Bound, Statement, STATEMENT_IDS, HM25_IDS, "
                                        "ALL_IDS, PAPERS, PAPER_2022, by_paper, get, g_lemma28",)),
      ("arete_proofs.chain.grids", ()), ("arete_proofs.chain.verify", ()),
      ("arete_proofs.chain.symbolic", ()), ("arete_proofs.chain.observations", ()),
      ("arete_proofs.chain.search", ()), ("arete_proofs.chain.variants", ()),
      ("arete_proofs.chain.expressions", ()), ("arete_proofs.chain.mutants", ()),
      ("arete_proofs.chain.rates", ()), ("arete_proofs.chain.symbolic.rates", ()),
      ("arete_proofs.chain.hm25", ()), ("arete_proofs.chain.hm25_records", (":members: PAPER, IDS, C21",)),
      ("arete_proofs.chain.gdl_symbols", (":members: L13, COR14, K_FAR",)),
      ("arete_proofs.chain.hm25_symbols", (":members: S2, M21, VAR21, T21_ARGS, MAX_SCALES, "
                                            "MAX_LATTICE_SCALES, MAX_WINDOW, MAX_DELTA_18",)),
      ("arete_proofs.chain.hm25_grids", ()), ("arete_proofs.chain.proof_integrals", ())]),
    ("certified", "Certified checks (ball arithmetic)", "arete_proofs.certified",
     "Proofs in python-flint's ball arithmetic (extra `certified`).",
     [("arete_proofs.certified.balls", ()), ("arete_proofs.certified.density", ()),
      ("arete_proofs.certified.epsilon", ()), ("arete_proofs.certified.gauss", ()),
      ("arete_proofs.certified.statements", ()), ("arete_proofs.certified.region", ()),
      ("arete_proofs.certified.region_map", ()), ("arete_proofs.certified.rates_region", ()),
      ("arete_proofs.certified.combs", ()), ("arete_proofs.certified.combs_lattice", ()),
      ("arete_proofs.certified.comb_balls", ()), ("arete_proofs.certified.combs_gauss", ()),
      ("arete_proofs.certified.gauss_cells", ()), ("arete_proofs.certified.intervals", ()),
      ("arete_proofs.certified.combs_skellam", ()), ("arete_proofs.certified.gauss_certificate", ()),
      ("arete_proofs.certified.skellam_certificate", ()), ("arete_proofs.certified.arete_certificate", ()),
      ("arete_proofs.certified.region_certificate", ()), ("arete_proofs.certified.floor_certificates", ())]),
    ("stats", "scipy.stats distributions", "arete_proofs.stats",
     "The distributions as `scipy.stats` objects (float64).",
     [("arete_proofs.stats._gdl", (":members: gdl_gen",)),
      ("arete_proofs.stats._comb", (":members: msdlap_gen, dlap_cumulant",)),
      ("arete_proofs.stats._lattice", (":members: lattice_laplace_gen, lattice_gauss_gen",))]),
    ("noise", "Noise families (one interface)", "arete_proofs.noise",
     "Every noise is an object of one of these classes, built by `noise.make`; every tool takes one. "
     "Each family also has a page of its own: {doc}`/generated/families/index`.",
     [("arete_proofs.noise._base", ()), ("arete_proofs.noise._shares", ())]
     + [(f"arete_proofs.noise.{m}", ()) for m in (
         "laplace", "staircase", "arete", "arete_gauss", "gdl", "dlap", "msdlap", "lattice_laplace",
         "lattice_gauss", "lattice_gauss_top", "transformed_gdl", "discrete_staircase", "lattice_skellam",
         "comparison")]),
    ("walkthrough", "Docs computations", "arete_proofs.walkthrough",
     "The figures and tables the documentation computes at build time, and the commands that write "
     "the shipped data files.",
     [("arete_proofs.walkthrough.figures", ()), ("arete_proofs.walkthrough.region", ()),
      ("arete_proofs.walkthrough.composition", ()), ("arete_proofs.walkthrough.beyond", ()),
      ("arete_proofs.walkthrough.frontier", ()), ("arete_proofs.walkthrough.comparison", ()),
      ("arete_proofs.walkthrough.frontier_discrete", ()), ("arete_proofs.walkthrough.price_of_id", ())]),
    ("cli", "Command line", "arete_proofs.cli",
     "The `arete` command; its complete help is on {doc}`/reference/cli`.", []),
]

#: Subpackages whose own page documents their members.
MEMBERS_ON_PAGE = {"arete_proofs.reference": (":members:",), "arete_proofs.mechanisms": (":members:",),
                   "arete_proofs.check": (":members: FORMAT, KINDS, Refused, check_document, digest",),
                   # the names users import from the package (their classes' home pages are the modules')
                   "arete_proofs.noise": (":members: make, family, FAMILIES, Noise, Shares, TightResult, Parameter, "
                                          "NotSupported",)}

#: Objects documented on a subpackage's page under the name users import them by.
EXTRA = {
    "arete_proofs": [
        ".. autoexception:: arete_proofs.PrecisionError", "",
        ".. autodata:: arete_proofs.MAX_DIGITS", "   :no-value:", "",
        ".. autodata:: arete_proofs._validation.TIME_BUDGET", ""],
    "arete_proofs.stats": [
        ".. autoclass:: arete_proofs.stats.arete_gen", "   :no-members:", "",
        ".. autoclass:: arete_proofs.stats.gamma_gamma_gen", "   :no-members:", "",
        ".. autoclass:: arete_proofs.stats.staircase_gen", "   :no-members:", ""],
}


#: Objects documented after a module's members, under their own options (a large value left out).
AFTER = {
    "arete_proofs.chain.registry": [".. autodata:: arete_proofs.chain.registry.REGISTRY", "   :no-value:"],
}


def _automodule(module: str, options) -> list[str]:
    return ["```{eval-rst}", f".. automodule:: {module}", *(f"   {o}" for o in options), "",
            *AFTER.get(module, []), "```", ""]


def pages() -> dict[str, str]:
    """``{relative path: Markdown}`` of every API page."""
    out = {}
    for page, title, package, intro, modules in SECTIONS:
        if util.find_spec(package) is None:
            raise ModuleNotFoundError(f"API page {page}: no module {package}")
        L = [f"# {title}", "", intro, ""]
        L += _automodule(package, MEMBERS_ON_PAGE.get(package, (":no-members:",)))
        if package in EXTRA:
            L += ["```{eval-rst}", *EXTRA[package], "```", ""]
        if package == "arete_proofs":
            L += ["The engine accepts `alpha <= 1000` "
                  "({data}`~arete_proofs.distributions._limits.MAX_ENGINE_ALPHA`) and the float64 path "
                  "{mod}`~arete_proofs.distributions.fast` `alpha <= 50` (its measured accuracy drops above); "
                  "beyond, they raise `ValueError` naming `alpha`.", ""]
        if modules:
            L += ["```{toctree}", ":maxdepth: 1", ""]
            L += [m for m, _ in modules]
            L += ["```", ""]
        out[f"{page}.md"] = "\n".join(L)
        for module, options in modules:
            if util.find_spec(module) is None:
                raise ModuleNotFoundError(f"API page {page}: no module {module}")
            body = [f"# `{module}`", ""] + _automodule(module, options or (":members:",))
            out[f"{module}.md"] = "\n".join(body)
    return out


def generate(app) -> None:
    sync(OUT, pages())


def _skip_large_values(app, what, name, obj, skip, options):
    """Leave the members of :data:`AFTER` to their own directives (the registry's value is the whole
    proof chain: shown as a value it would be most of the page)."""
    if what == "module" and name == "REGISTRY":
        from arete_proofs.chain.registry import REGISTRY

        if obj is REGISTRY:
            return True
    return None


def setup(app):
    app.connect("builder-inited", generate)
    app.connect("autodoc-skip-member", _skip_large_values)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
