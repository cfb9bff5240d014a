"""Sphinx configuration for arete_proofs (Markdown pages via MyST, API pages via autodoc)."""

from __future__ import annotations

import sys
from pathlib import Path

# Document the package of this checkout even when it is not installed.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# Local extensions: generated pages (statements, API, noise families), the CLI reference, computed tables.
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

import arete_proofs  # noqa: E402

project = "arete_proofs"
author = "arete_proofs developers"
copyright = "2026, arete_proofs developers"
version = release = arete_proofs.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    # MathJax is bundled into the build: the pages render without network access
    "sphinx-mathjax-offline",
    "sphinx_proof",
    "myst_parser",
    # figures computed by the library at build time (.. plot:: directive)
    "matplotlib.sphinxext.plot_directive",
    "arete_docs",
    "arete_cli_ref",
    # tables of committed `arete verify --json` reports (docs/data/verify-default.json)
    "arete_verify_table",
    # every table, number and example output of the hand-written pages, made by the build
    "arete_site",
    # the API reference, one page per module (docs/generated/api/)
    "arete_api_pages",
    # one reference page per noise family, from noise.FAMILIES (docs/generated/families/)
    "arete_family_pages",
    # the changelog in pages of readable length, from CHANGELOG.md (docs/generated/changelog/)
    "arete_changelog_pages",
    # the certificate checker's modules and size (docs/howto/check-a-proof.md)
    "arete_check_facts",
    # the computed values and tables of explanation/price-of-id.md
    "arete_price_of_id",
]

# plot directive: PNG + hi-res, no source links (the code is the library's)
plot_formats = [("png", 110)]
plot_html_show_source_link = False
plot_html_show_formats = False
plot_include_source = False

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3

# Every cross-reference must resolve; the build runs with -W -n.
nitpicky = True
nitpick_ignore = [
    # mpmath's number type, as written in docstrings and annotations
    ("py:class", "mpf"),
    ("py:class", "mpc"),
    # the standard library has no inventory either (offline build, no intersphinx)
    ("py:class", "collections.abc.Callable"),
]

# Third-party objects have no Sphinx inventory here (the build runs offline,
# so no intersphinx): references to them render as plain code.
nitpick_ignore_regex = [
    (r"py:.*", r"(mpmath|numpy|np|scipy|sympy|gmpy2)(\..*)?"),
]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}

html_theme = "furo"
html_title = f"arete_proofs {release}"
