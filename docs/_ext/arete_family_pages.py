r"""Sphinx extension: one reference page per noise family, generated from ``noise.FAMILIES`` at build time.

On ``builder-inited`` it writes ``docs/generated/families/index.md`` (a table of every family) and
``docs/generated/families/<name>.md`` for each entry of :data:`arete_proofs.noise.FAMILIES`: the
law and its formula (the family module's own docstring), the source, the parameters with their
domains and command-line flags (the family's declared :class:`~arete_proofs.noise.Parameter`\ s),
what the law is (infinitely divisible, symmetric unimodal, integer-valued), what it supports
(with :data:`~arete_proofs.noise.CAPABILITIES`), and an example that the build runs
(``{arete-pycon}`` and ``{arete-run}`` of :mod:`arete_site`, so its output is real).  A family
without an entry in :data:`EXAMPLES` is a build error: a new family gets its page by adding one
line here, the same way it gets into the library by one line in ``noise._MODULES``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from arete_generated import sync

EXT = Path(__file__).resolve().parent
OUT = EXT.parent / "generated" / "families"

#: ``name: (parameters, sensitivity)`` of each family's example (exact decimal strings).
EXAMPLES = {
    "laplace": ({"lam": "0.25"}, 1),
    "staircase": ({"eps": "4"}, 1),
    "arete": ({"alpha": "0.0756", "theta": "0.63", "lam": "0.0545"}, 1),
    "arete_gauss": ({"alpha": "0.014727", "theta": "0.85419", "lam": "0", "sigma": "0.027054"}, 1),
    "dlap": ({"a": "2"}, 1),
    "gdl": ({"beta": "0.5", "a": "0.7"}, 3),
    "msdlap": ({"a": "2", "m": "3"}, 3),
    "lattice_laplace": ({"a": "5", "m": "8", "b": "0.0625", "h": "0.125"}, 1),
    "lattice_gauss": ({"a": "3", "m": "2", "sigma": "0.2", "h": "0.5"}, 1),
    "lattice_gauss_top": ({"a": "3.2", "a_top": "2.9", "m": "3", "sigma": "0.15", "h": "0.3333333333333333"}, 1),
    "transformed_gdl": ({"beta": "2", "a": "0.5", "b": "0.125", "h": "0.25"}, 1),
    "discrete_staircase": ({"eps": "2", "Delta": "4"}, 4),
    "lattice_skellam": ({"a": "2", "m": "2", "mu": "0.3", "h": "2"}, 4),
}

_YES = {True: "yes", False: "no"}


def _esc(text: str) -> str:
    return text.replace("|", "\\|")


def _docstring(module) -> list[str]:
    """The family module's docstring up to its first example: its formula and its argument."""
    doc = (module.__doc__ or "").strip()
    paragraphs = doc.split("\n\n")
    keep = []
    for p in paragraphs:
        if p.lstrip().startswith(">>>"):
            break
        keep.append(p)
        if len(keep) >= 4 and not p.rstrip().endswith("::"):
            break
    return keep


def family_page(fam) -> str:
    from arete_proofs.noise import CAPABILITIES

    params, Delta = EXAMPLES[fam.name]
    module = importlib.import_module(fam.__module__)
    cls = f"{fam.__module__}.{fam.__name__}"
    L = [f"# `{fam.name}`", "", f"*{_esc(fam.title)}*", "",
         "```{eval-rst}", f".. currentmodule:: {fam.__module__}", "", "\n\n".join(_docstring(module)), "```", "",
         f"**Source:** {fam.reference}.", "",
         "## Parameters", "",
         "| parameter | command-line flag | domain | meaning |", "|---|---|---|---|"]
    for p in fam.parameters:
        req = "" if p.default is None else " (optional)"
        L.append(f"| `{p.name}` | `{p.cli_flag}` | {p.domain_text} | {_esc(p.doc)}{req} |")
    L += ["", "## What it is", "",
          "| property | | what follows |", "|---|---|---|",
          f"| infinitely divisible | {_YES[fam.infinitely_divisible]} | "
          + ("$n$ parties can each add a share (`shares(n)`), and only the sum carries the full noise |"
             if fam.infinitely_divisible else "no shares: it cannot be split among parties |"),
          f"| symmetric unimodal | {_YES[fam.symmetric_unimodal]} | "
          + ("the single shift $+\\Delta$ is the worst, so the tight epsilon looks at one shift |"
             if fam.symmetric_unimodal else "a comb: the tight epsilon takes every shift $\\lvert s\\rvert \\le \\Delta$ |"),
          f"| integer-valued | {_YES[fam.integer_valued]} | "
          + ("`pdf` is the pmf on the integers; the sensitivity is an integer |"
             if fam.integer_valued else "a density on the real line |"),
          "", "## What it supports", "",
          "| tool | supported | what it gives |", "|---|---|---|"]
    for cap, what in CAPABILITIES.items():
        L.append(f"| `{cap}` | {_YES[cap in fam.supports]} | {_esc(what)} |")
    args = ", ".join(f'{k}="{v}"' for k, v in params.items())
    point = "1" if fam.integer_valued else '"1"'
    code = ["from arete_proofs import noise", f'z = noise.make("{fam.name}", {args})',
            f"z.pdf({point}, digits=15)", "z.mean_abs(digits=15), z.var(digits=15)"]
    if "tight_epsilon" in fam.supports:
        code += [f"r = z.tight_epsilon(Delta={Delta}, digits=12)", "r.epsilon, r.witness"]
    L += ["", "## Example", "",
          "Computed when this page was built (exact engine, `digits=` correct significant digits; "
          "a witness `+inf` means the supremum is a tail limit, approached but not attained):", "",
          "```{arete-pycon}", *code, "```", ""]
    flags = " ".join(f"{p.cli_flag} {params[p.name]}" for p in fam.parameters if p.name in params)
    if "tight_epsilon" in fam.supports:
        L += ["The same tight epsilon on the command line:", "",
              "```{arete-run}", f"arete epsilon --noise {fam.name} {flags} --sensitivity {Delta}", "```", ""]
    L += ["## API", "",
          f"{{class}}`{cls}` in {{mod}}`{fam.__module__}`; built by "
          f"{{func}}`arete_proofs.noise.make` as `noise.make(\"{fam.name}\", ...)`.", ""]
    return "\n".join(L)


def index_page(families) -> str:
    L = ["# Noise families", "",
         "Every noise of the library is one family behind one interface "
         "({mod}`arete_proofs.noise`): `noise.make(name, **parameters)` builds it from exact decimal "
         "strings, and every tool (tight and certified epsilon, accounting, the optimisers, shares, the "
         "scipy objects, the command line's `--noise NAME`) takes it. This table and the pages below are "
         "generated from `noise.FAMILIES` when the documentation is built.", "",
         "| family | law | infinitely divisible | symmetric unimodal | integer |", "|---|---|---|---|---|"]
    for fam in families:
        L.append(f"| [`{fam.name}`]({fam.name}.md) | {_esc(fam.title)} | {_YES[fam.infinitely_divisible]} | "
                 f"{_YES[fam.symmetric_unimodal]} | {_YES[fam.integer_valued]} |")
    L += ["", "```{toctree}", ":hidden:", ""] + [f.name for f in families] + ["```", ""]
    return "\n".join(L)


def pages() -> dict[str, str]:
    from arete_proofs.noise import FAMILIES

    missing = sorted(set(FAMILIES) - set(EXAMPLES))
    if missing:
        raise ValueError(f"noise families without an example in docs/_ext/arete_family_pages.py: {missing}")
    out = {"index.md": index_page(list(FAMILIES.values()))}
    for name, fam in FAMILIES.items():
        out[f"{name}.md"] = family_page(fam)
    return out


def generate(app) -> None:
    sync(OUT, pages())


def setup(app):
    app.connect("builder-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
