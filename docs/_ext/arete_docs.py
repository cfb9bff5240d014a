r"""Sphinx extension: the proof walkthrough pages, generated from the statement registry.

On ``builder-inited`` this extension writes, under ``docs/generated/``,

* ``proof-chain.md``: an overview of Section 4 / Appendix C, the dependency
  graph of the statements (from ``Statement.uses``, drawn with matplotlib), a
  summary table of the numeric checks and a toctree of the statement pages;
* ``statements/<id>.md``: one page per registry id (the statement as a
  ``prf:`` directive with its hypotheses and bounds rendered by
  :func:`arete_proofs.chain.symbols.latex`, a proof outline, the verification table
  of each bound, the symbolic checks and, for the ratio / density statements, a
  plot of both sides of a bound over :math:`t`), preceded by a status box naming
  the kinds of check the statement has (``Statement.check_kinds``) and, for a
  statement with ``certificates``, a section with the result of each
  ball-arithmetic certificate of :mod:`arete_proofs.certified.statements` (verdict, the
  parameter box, sub-boxes, smallest margin, time and the analytic argument for
  the unbounded ranges);
* ``errata.md``: the observations on the paper's literal text;
* ``main-result.md``: Lemma 3 / Corollary 5 and the tight epsilon of the
  paper's parameters.

Everything on these pages is read from :mod:`arete_proofs` (registry, verify,
symbolic, certified, observations, privacy), so the docs cannot disagree with
the checks. The computations are cached as JSON in ``docs/_build/.arete-cache/``,
keyed by a hash of the package's source files (every ``.py`` under
``arete_proofs/``, subpackages included), the extension's own modules
(``docs/_ext/arete_docs*.py``), :data:`CACHE_VERSION` and the
installed python-flint version (or its absence); files are
only rewritten when their content changes, so a rebuild without code changes
re-reads nothing.

This module is the extension (``setup``, ``generate``, the cache and the process
pool); the rest lives in plain helper modules next to it:

* :mod:`arete_docs_settings`: grid level, digits, plotted statements, paths;
* :mod:`arete_docs_outlines`: the proof outlines and the chain overview text;
* :mod:`arete_docs_jobs`: the computations run in the pool (JSON-able results);
* :mod:`arete_docs_boxes`: certificate sub-boxes as exact JSON and as text;
* :mod:`arete_docs_figures`: the matplotlib figures;
* :mod:`arete_docs_pages`: the Markdown page writers;
* :mod:`arete_docs_search`: reads the shipped counterexample-search results
  (``docs/data/search.json``) and checks them against the registry's fingerprints; run
  as a script (``python docs/_ext/arete_docs_search.py``, about 7 minutes on 2 cores) it
  regenerates them after a change of a bound or hypothesis.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from arete_docs_figures import graph_figure, main_figure, plot_figure
from arete_docs_jobs import (
    job_certificates,
    job_certified_epsilon,
    job_observations,
    job_plot,
    job_symbolic,
    job_table,
    job_verify,
    timed,
)
from arete_docs_pages import errata_page, main_result_page, proof_chain_page, statement_page
from arete_docs_settings import DOCS, EXT, PACKAGE, PLOTTED, ROOT

#: Bump when the shape of the cached data changes.
CACHE_VERSION = "2"

# ---------------------------------------------------------------------------
# the cache
# ---------------------------------------------------------------------------

def _flint_version() -> str:
    """The installed python-flint version, or ``"missing"`` (part of the cache key)."""
    from importlib import metadata

    try:
        return metadata.version("python-flint")
    except metadata.PackageNotFoundError:
        return "missing"


def _source_files() -> list[Path]:
    """The files whose content keys the cache: every ``.py`` under ``arete_proofs/``
    (recursively: the layer subpackages and their subpackages) and this extension's
    modules (``docs/_ext/arete_docs*.py``: the jobs, the pages and their settings)."""
    package = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    return package + sorted(EXT.glob("arete_docs*.py"))


def _source_hash() -> str:
    h = hashlib.sha256(CACHE_VERSION.encode())
    h.update(f"python-flint {_flint_version()}".encode())
    for p in _source_files():
        data = p.read_bytes()
        # the path relative to the checkout, then the length: no two file sets hash alike
        h.update(f"\0{p.relative_to(ROOT).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()[:16]


def _write(path: Path, data, binary=False) -> bool:
    """Write ``data`` to ``path`` only when it differs (keeps Sphinx from re-reading)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not binary:
        data = data.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


# ---------------------------------------------------------------------------
# the computations (process pool, see arete_docs_jobs)
# ---------------------------------------------------------------------------

def _compute(app) -> dict:
    """All data of the generated pages, from the cache or computed (pool of 2 processes)."""
    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    cache_dir = DOCS / "_build" / ".arete-cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    key = _source_hash()
    path = cache_dir / f"pages-{key}.json"
    if path.exists():
        try:
            data = json.loads(path.read_text())
            data["from_cache"] = True
            return data
        except (OSError, ValueError):
            pass
    start = time.monotonic()
    data = {"key": key, "verify": {}, "plots": {}, "certificates": {}, "job_seconds": {}}
    obs_by_id = {}
    # fork: the workers inherit sys.path (docs/_ext) and the imported modules, and the
    # pool pickles the job functions by name (arete_docs_jobs.job_*)
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as pool:
        from arete_proofs.chain.observations import OBSERVATION_IDS

        futs = {pool.submit(timed, job_observations, oid): ("observation", oid) for oid in OBSERVATION_IDS}
        # expensive statements first
        order = sorted(STATEMENT_IDS, key=lambda s: s not in ("lemma-18", "corollary-5", "lemma-2",
                                                             "lemma-16", "lemma-17"))
        for sid in order:
            futs[pool.submit(timed, job_verify, sid)] = ("verify", sid)
        for sid in STATEMENT_IDS:
            if REGISTRY[sid].certificates:
                futs[pool.submit(timed, job_certificates, sid)] = ("certificates", sid)
        futs[pool.submit(timed, job_table)] = ("table", None)
        futs[pool.submit(timed, job_certified_epsilon)] = ("certified_epsilon", None)
        futs[pool.submit(timed, job_symbolic)] = ("symbolic", None)
        pending = set(futs)
        while pending:
            done = next(as_completed(pending))
            pending.discard(done)
            what, sid = futs[done]
            res, secs = done.result()
            data["job_seconds"][f"{what}:{sid}" if sid else what] = secs
            if what == "verify":
                data["verify"][sid] = res
                if sid in PLOTTED:
                    f = pool.submit(timed, job_plot, sid, res)
                    futs[f] = ("plot", sid)
                    pending.add(f)
            elif what == "plot":
                data["plots"][sid] = res
            elif what == "certificates":
                data["certificates"][sid] = res
            elif what == "observation":
                obs_by_id[sid] = res
            else:
                data[what] = res
    data["observations"] = [o for oid in OBSERVATION_IDS for o in obs_by_id[oid]]
    data["seconds"] = round(time.monotonic() - start, 1)
    for old in cache_dir.glob("pages-*.json"):
        old.unlink()
    text = json.dumps(data, indent=1, sort_keys=True)
    path.write_text(text)
    # the pages are rendered from the JSON form either way, so a cached rebuild writes the same bytes
    data = json.loads(text)
    data["from_cache"] = False
    return data


# ---------------------------------------------------------------------------
# Sphinx hooks
# ---------------------------------------------------------------------------

def generate(app) -> None:
    from sphinx.util import logging

    from arete_proofs.chain.registry import STATEMENT_IDS

    log = logging.getLogger(__name__)
    t0 = time.monotonic()
    data = _compute(app)
    out = DOCS / "generated"
    written = 0
    png, svg = graph_figure()
    written += _write(out / "proof-chain-graph.png", png, binary=True)
    written += _write(out / "proof-chain-graph.svg", svg, binary=True)
    written += _write(out / "proof-chain.md", proof_chain_page(data))
    for sid in STATEMENT_IDS:
        written += _write(out / "statements" / f"{sid}.md", statement_page(sid, data))
        plot = data["plots"].get(sid)
        if sid in PLOTTED and plot and plot.get("rows"):
            written += _write(out / "plots" / f"{sid}.png", plot_figure(sid, plot), binary=True)
    written += _write(out / "errata.md", errata_page(data))
    if data.get("table"):
        written += _write(out / "plots" / "main-result.png", main_figure(data["table"]), binary=True)
    written += _write(out / "main-result.md", main_result_page(data))
    for sid, recs in data.get("certificates", {}).items():
        for rec in recs:
            if "error" in rec:
                log.warning(f"[arete_docs] certificate {rec['name']} of {sid} failed: {rec['error']}")
    log.info(
        f"[arete_docs] {'cached' if data.get('from_cache') else 'computed'} data (key {data['key']}), "
        f"{written} generated files updated, {time.monotonic() - t0:.1f} s"
    )


def setup(app):
    app.connect("builder-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": CACHE_VERSION}
