"""The Markdown page writers: the data of :mod:`arete_docs_jobs` (as read back from
the JSON cache) to the text of ``docs/generated/*.md``.

:func:`proof_chain_page` (overview, graph, summary table, toctree),
:func:`statement_page` (one per registry id: the statement as a ``prf:``
directive, status box, proof outline, numeric / symbolic / certified checks,
observations, plot), :func:`errata_page` and :func:`main_result_page`. Numbers are
formatted here; statements, symbols and links are read from :mod:`arete_proofs`.
"""

from __future__ import annotations

import json
import math

from arete_docs_boxes import box_text
from arete_docs_outlines import CHAIN_OVERVIEW, KIND, OUTLINES
from arete_docs_settings import DIGITS, LEVEL, PLOT_DIGITS, PLOTTED, TABLE_DIGITS

# ---------------------------------------------------------------------------
# text helpers
# ---------------------------------------------------------------------------

def _esc(text: str) -> str:
    """Plain text (the registry's ASCII math) as inert Markdown."""
    out = []
    for ch in str(text):
        if ch in "\\`*_[]<>${}#|":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _cell(text: str) -> str:
    """Plain text for a table cell."""
    return _esc(text).replace("\n", " ")


def _code(text: str) -> str:
    text = str(text).replace("`", "'").replace("\n", " ")
    return "`" + text.replace("|", "\\|") + "`"


def _num(x, fmt=".3g") -> str:
    if isinstance(x, str):
        return {"inf": "∞", "-inf": "-∞", "nan": "nan"}.get(x, x)
    if x is None:
        return ""
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else ("-∞" if x < 0 else "nan")
    return format(x, fmt)


def _point_text(argmin: dict) -> str:
    keys = [k for k in argmin if k not in ("bound", "lhs", "rhs", "digits")]
    return ", ".join(f"{k}={argmin[k]}" for k in keys)


def _provenance(extra: str = "") -> str:
    return (
        f"Numbers on this page: `arete_proofs.chain.verify.verify(level={LEVEL!r}, digits={DIGITS})` "
        f"(the **{LEVEL}** grid, first evaluation at {DIGITS} significant digits, tight points "
        f"re-evaluated up to 80){extra}. Generated at build time by `docs/_ext/arete_docs.py`."
    )


def _statement_id(text: str):
    """The registry id an observation's ``statement`` text ("Claim 1 (Appendix C.1)") refers to."""
    import re

    from arete_proofs.chain.registry import REGISTRY

    m = re.match(r"\s*(Lemma|Corollary|Claim|Note)\s+(\d+)", text)
    if m:
        sid = f"{m.group(1).lower()}-{m.group(2)}"
        if sid in REGISTRY:
            return sid
    return None


# ---------------------------------------------------------------------------
# page writers
# ---------------------------------------------------------------------------

_KIND_WORDS = {"N": "numeric", "S": "symbolic", "C": "certified"}


def _kind_of_check(st):
    """The registry's ``check_kinds`` (N+S+C) in words."""
    return " + ".join(_KIND_WORDS[k] for k in st.check_kinds.split("+") if k) or "none"


_VERDICT = {True: "certified", False: "refuted", None: "undecided"}


def _secs(x) -> str:
    return "< 0.01 s" if x < 0.005 else f"{x:.2f} s"


def _cert_verdict(rec) -> str:
    """``certified`` / ``refuted`` / ``undecided`` / ``not run`` / ``error`` of one certificate record."""
    if "missing" in rec:
        return "not run"
    if "error" in rec:
        return "error"
    return _VERDICT[rec["holds"]]


def _status_box(sid, data) -> list:
    """The admonition under the statement: which kinds of check it has, with their outcome."""
    from arete_proofs.chain.registry import REGISTRY

    st = REGISTRY[sid]
    kinds = [k for k in st.check_kinds.split("+") if k]
    v = data["verify"].get(sid, {})
    sym = [r for r in data.get("symbolic", []) if r["statement"] == sid]
    certs = data.get("certificates", {}).get(sid, [])
    bad = False
    items = []
    if "N" in kinds:
        if v.get("points"):
            bad |= bool(v.get("violations") or v.get("grid_errors"))
            items.append(f"**Numeric grid**: {v['points']} checks on the {LEVEL} grid, "
                         f"{v['violations']} violations ({{ref}}`details <{sid}-numeric>`).")
        else:
            items.append("**Numeric grid**: no grid points.")
    else:
        items.append("**Numeric grid**: none.")
    if st.bounds:
        sdata, rows, stale = _search_data()
        found = [rows[(sid, b.name)]["search"] for b in st.bounds if (sid, b.name) in rows]
        if sid in stale:
            bad = True
            items.append(f"**Search**: the stored search is stale ({{ref}}`details <{sid}-search>`).")
        elif found:
            refuted = sum(1 for r in found if r.get("status") == "violated")
            bad |= bool(refuted)
            worst = min((r["slack"] for r in found if isinstance(r.get("slack"), (int, float))), default=None)
            items.append(f"**Search** over the hypothesis region: {len(found)} bound"
                         f"{'s' if len(found) != 1 else ''}, {refuted} counterexamples, smallest slack "
                         f"{_num(worst)} ({{ref}}`details <{sid}-search>`).")
    if "S" in kinds:
        n_ok = sum(1 for r in sym if r["holds"])
        bad |= n_ok < len(sym)
        items.append(f"**Symbolic**: {n_ok} of {len(sym)} checks hold ({{ref}}`details <{sid}-symbolic>`)."
                     if sym else "**Symbolic**: listed in the registry, no result.")
    else:
        items.append("**Symbolic**: none.")
    if "C" in kinds:
        verdicts = [_cert_verdict(r) for r in certs]
        if any(vd == "not run" for vd in verdicts):
            text = "not run (python-flint, the optional extra, is not installed)"
        else:
            bad |= any(vd != "certified" for vd in verdicts)
            counts = {vd: verdicts.count(vd) for vd in dict.fromkeys(verdicts)}
            text = ", ".join(f"{n} {vd}" for vd, n in counts.items())
        items.append(f"**Certified** (ball arithmetic): {len(st.certificates)} certificate"
                     f"{'s' if len(st.certificates) != 1 else ''}, {text} "
                     f"({{ref}}`details <{sid}-certified>`).")
    else:
        items.append("**Certified**: none.")
    words = " + ".join(_KIND_WORDS[k] for k in kinds) or "none"
    cls = "warning" if bad else ("tip" if "C" in kinds else "note")
    return [f"```{{admonition}} Checked: {words}", f":class: {cls}", ""] + [f"- {i}" for i in items] + ["```", ""]


def _certificates_section(sid, data) -> list:
    """The section "Certified in ball arithmetic" of a statement with certificates."""
    from arete_proofs.chain.registry import REGISTRY

    names = REGISTRY[sid].certificates
    if not names:
        return []
    recs = {r["name"]: r for r in data.get("certificates", {}).get(sid, [])}
    L = [f"({sid}-certified)=", "## Certified in ball arithmetic", "",
         "Each certificate below is a function of {mod}`arete_proofs.certified.statements` listed in the "
         "registry's `certificates` for this statement, run with its default arguments at build "
         "time (python-flint's `arb` balls). It bisects a bounded parameter box until, on every "
         "sub-box, the ball enclosure of the inequality's margin is positive; the *margin* below "
         "is the smallest such lower bound. What lies outside the box (the unbounded ranges) is "
         "covered by the *argument*, which is analytic unless it says what the code checks.", ""]
    for n in names:
        rec = recs.get(n, {"name": n, "error": "no result (not computed)"})
        link = (f"{{py:func}}`~arete_proofs.certified.statements.{n}`" if rec.get("documented")
                else _code(f"arete_proofs.certified.statements.{n}"))
        L += [f"### {_code(n)}", ""]
        if "missing" in rec:
            L += ["```{warning}",
                  "Not run: python-flint (the optional extra `certified`, "
                  "`pip install 'arete-proofs[certified]'`) is not installed in the environment "
                  f"that built these pages ({_esc(rec['missing'])}). Install it and rebuild to see "
                  "this certificate.", "```", "", f"Function: {link}.", ""]
            continue
        if "error" in rec:
            L += ["```{error}", f"The certificate could not be computed: {_code(rec['error'])}.", "```", "",
                  f"Function: {link}.", ""]
            continue
        verdict = _VERDICT[rec["holds"]]
        groups = rec.get("groups") or []
        L += ["| | |", "|---|---|",
              f"| statement | {_cell(rec['statement'])} |",
              f"| inequality | {_code(rec['inequality'])} |",
              f"| verdict | **{verdict}** |",
              f"| certified sub-boxes | {rec['n_boxes']}"
              + (f", over {len(groups)} sets of coordinates |" if len(groups) > 1 else " |"),
              f"| smallest certified margin | {_num(rec['min_margin'])} |",
              f"| time | {_secs(rec['wall_seconds'])} (bisection {_secs(rec['seconds'])}) |",
              f"| function | {link} |", ""]
        L += ["**Parameter box covered** (per set of coordinates, the hull of the certified "
              "sub-boxes; endpoints exact, or marked ≈ where rounded):", ""]
        if not groups:
            L += ["- (no certified sub-box)"]
        for g in groups:
            cover = {
                "covers": ", which fill it (their exact volumes add up to the hull's)",
                "gaps": ", **which leave gaps**: only part of it is certified",
                "overlaps": " (their volumes add up to more than the hull's: several bisections, "
                            "e.g. one per inequality; coverage not checked)",
            }.get(g["coverage"], "")
            L.append(f"- {_code(box_text(g['hull']))}: {g['n_boxes']} sub-box"
                     f"{'es' if g['n_boxes'] != 1 else ''}{cover}")
        L.append("")
        if rec.get("bad_box"):
            what = "refuted: the margin is certainly negative" if rec["holds"] is False else "not decided"
            L += [f"First sub-box {what} on: {_code(box_text(rec['bad_box']))}.", ""]
        arg = rec.get("argument") or "(none given: the certificate covers only the box above)"
        L += ["**Argument beyond the box:**", "", "> " + _esc(arg).replace("\n", " "), ""]
    return L


def _ref(sid):
    from arete_proofs.chain.registry import REGISTRY

    return f"{{prf:ref}}`{REGISTRY[sid].number} <{sid}>`"


def proof_chain_page(data) -> str:
    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    L = ["# The proof chain, statement by statement", "", CHAIN_OVERVIEW, "",
         _provenance(), "", "## Dependency graph", "",
         "Drawn from the `uses` field of every registry record; a statement sits one layer above "
         "the deepest statement its proof uses.", "",
         "```{image} proof-chain-graph.png", ":alt: Dependency graph of the paper's statements",
         ":width: 100%", "```", "",
         "The same graph as {download}`SVG <proof-chain-graph.svg>`.", "",
         "## Summary of the checks", "",
         "| id | paper | points | violations | tight | min slack | check | certificates |",
         "|---|---|---:|---:|---:|---:|---|---|"]
    for sid in STATEMENT_IDS:
        st = REGISTRY[sid]
        v = data["verify"].get(sid, {})
        recs = data.get("certificates", {}).get(sid, [])
        verdicts = [_cert_verdict(r) for r in recs]
        certs = ", ".join(f"{verdicts.count(x)} {x}" for x in dict.fromkeys(verdicts)) if recs else ""
        L.append(f"| {_ref(sid)} | {st.number} | {v.get('points', 0)} | {v.get('violations', 0)} | "
                 f"{v.get('tight', 0)} | {_num(v.get('min_slack'))} | {_kind_of_check(st)} | {certs} |")
    L += ["", "The slack of a bound at a point is $\\ln(\\mathrm{rhs}/\\mathrm{lhs})$; the table "
          "shows the smallest over all bounds and points of the statement. A *tight* point is one "
          "where both sides agree to 80 digits (equality is allowed).", "",
          "See also {doc}`main-result` and {doc}`errata`.", "",
          "```{toctree}", ":maxdepth: 1", ":caption: Statements", ""]
    L += [f"statements/{sid}" for sid in STATEMENT_IDS]
    L += ["```", ""]
    return "\n".join(L)


def statement_page(sid, data) -> str:
    from arete_proofs.chain import symbols
    from arete_proofs.chain.registry import REGISTRY

    st = REGISTRY[sid]
    kind = KIND.get(sid, "lemma")
    v = data["verify"].get(sid, {})
    L = [f"# {st.number}: {_esc(st.title)}", "",
         f"Paper section {st.section}. {_provenance()}", "",
         f"````{{prf:{kind}}} {st.number}: {_esc(st.title)}", f":label: {sid}", ":nonumber:", "",
         _esc(st.statement), ""]
    if st.substitutions:
        L += ["**Parameters** (substituted before the check): "
              + ", ".join(f"${symbols.latex(k)} = {symbols.latex(val)}$" for k, val in st.substitutions.items()),
              ""]
    if st.hypotheses:
        L += ["**Hypotheses:** " + ", ".join(f"${symbols.latex(h)}$" for h in st.hypotheses) + ".", ""]
    L += ["**Claimed bounds:**", ""]
    for b in st.bounds:
        rel = "\\le" if b.relation == "<=" else "="
        where = ""
        if b.where:
            where = " (only where " + ", ".join(f"${symbols.latex(w)}$" for w in b.where) + ")"
        L += [f"- `{b.name}`{where}:", "",
              "  $$", f"  {symbols.latex(b.lhs)} {rel} {symbols.latex(b.rhs)}", "  $$", ""]
    L += ["````", ""]
    L += _status_box(sid, data)
    if st.uses:
        L += ["**Uses:** " + ", ".join(_ref(u) for u in st.uses) + ".", ""]
    users = [o for o in REGISTRY if sid in REGISTRY[o].uses]
    if users:
        L += ["**Used by:** " + ", ".join(_ref(u) for u in users) + ".", ""]
    if st.notes:
        L += ["```{note}", _esc(st.notes), "```", ""]
    L += ["## Proof outline", "", OUTLINES.get(sid, "(No outline written yet.)"), ""]
    L += [f"({sid}-numeric)=", "## Numeric check", ""]
    if v.get("points"):
        L += [f"{v['points']} checks (point x bound) on the {LEVEL} grid at {DIGITS} digits: "
              f"**{v['violations']} violations**, {v['tight']} tight.", "",
              "| bound | claim | points | violations | tight | min slack | smallest slack at |",
              "|---|---|---:|---:|---:|---:|---|"]
        for b in v.get("bounds", []):
            text = next((x.text for x in st.bounds if x.name == b["name"]), "")
            L.append(f"| `{b['name']}` | {_cell(text)} | {b['points']} | {b['violations']} | {b['tight']} | "
                     f"{_num(b['min_slack'])} | {_code(_point_text(b.get('argmin') or {}))} |")
        L.append("")
        if v.get("grid_errors"):
            L += [f"Grid errors: {len(v['grid_errors'])}.", ""]
    else:
        L += ["No numeric check (no grid points).", ""]
    L += search_section(sid)
    sym = [r for r in data.get("symbolic", []) if r["statement"] == sid]
    if sym:
        L += [f"({sid}-symbolic)=", "## Symbolic checks", "", "| check | what | holds |", "|---|---|---|"]
        for r in sym:
            L.append(f"| `{r['id']}` | {_cell(r['title'])} | {'yes' if r['holds'] else '**no**'} |")
        L.append("")
        for r in sym:
            L += [f"Steps of `{r['id']}`:", "", "```text", r["detail"].replace("```", "'''"), "```", ""]
    L += _certificates_section(sid, data)
    obs = [o for o in data.get("observations", []) if _statement_id(o["statement"]) == sid]
    if obs:
        L += ["## Observations on the literal text", ""]
        for o in obs:
            L.append(f"- [{_esc(o['id'])}](../errata.md#{_anchor(o['id'])}): {_esc(o['verdict'])}")
        L.append("")
    plot = data["plots"].get(sid)
    if sid in PLOTTED and plot and plot.get("rows"):
        params = ", ".join(f"{k}={val}" for k, val in plot["params"].items())
        L += ["## Both sides over $t$", "",
              f"Bound `{plot['bound']}` ({_esc(plot['text'])}) at the parameters of the grid point "
              f"with the smallest slack ({_code(params)}), over {len(plot['rows'])} values of $t$ "
              f"that satisfy the hypotheses, evaluated at {PLOT_DIGITS} digits.", "",
              f"```{{image}} ../plots/{sid}.png", f":alt: {st.number}: both sides of the bound over t",
              "```", ""]
    return "\n".join(L)


def _short(value) -> str:
    """A stored number (exact decimal string) with 4 significant digits when it is long."""
    text = str(value)
    if len(text) <= 8:
        return text
    try:
        return format(float(text), ".4g")
    except ValueError:
        return text


def _short_point(point: dict) -> str:
    skip = ("bound", "lhs", "rhs", "digits")
    return ", ".join(f"{k}={_short(v)}" for k, v in point.items() if k not in skip)


def _search_data():
    """The shipped search results (``docs/data/search.json``), the bounds' rows and the stale statements."""
    import arete_docs_search as search

    try:
        key = search.DATA.stat().st_mtime_ns
    except OSError:
        key = None
    if _SEARCH_CACHE.get("key", -1) != key:
        data = search.load()
        _SEARCH_CACHE.update(key=key, value=(data, search.by_bound(data), search.stale(data)))
    return _SEARCH_CACHE["value"]


_SEARCH_CACHE: dict = {}


def search_section(sid, search_data=None) -> list:
    """The section "Counterexample search": per bound the searched worst point beside the grid's.

    Read from ``docs/data/search.json`` (:mod:`arete_docs_search`); a statement whose bounds or
    hypotheses changed since the file was written gets a warning on the page and in the build log
    (an error under ``sphinx-build -W``).
    """
    from arete_proofs.chain.registry import REGISTRY

    data, rows, stale = search_data or _search_data()
    st = REGISTRY[sid]
    if not st.bounds:
        return []
    L = [f"({sid}-search)=", "## Counterexample search", ""]
    if sid in stale:
        msg = (f"the stored search of {sid} is stale ({stale[sid]}): regenerate docs/data/search.json "
               "with `python docs/_ext/arete_docs_search.py`")
        try:
            from sphinx.util import logging

            logging.getLogger(__name__).warning(f"[arete_docs] {msg}")
        except ImportError:  # pragma: no cover - outside a Sphinx build
            pass
        L += ["```{warning}", _esc(msg[0].upper() + msg[1:]) + ".", "```", ""]
        if sid not in data.get("fingerprints", {}):
            return L
    L += ["`arete verify --search` ({mod}`arete_proofs.chain.search`) maximises "
          r"$\ln(\mathrm{lhs}/\mathrm{rhs})$ of each bound over the statement's whole hypothesis region "
          "(differential evolution on the float64 path from the grid's worst points, then Nelder-Mead), "
          "and confirms the worst candidates with the exact engine. Below, per bound, the **searched "
          "worst point** and its exact slack beside the **grid's worst point** on the "
          f"{data.get('grid', 'default')} grid (with the regime points). Stored in `docs/data/search.json`, "
          f"written {data.get('written', '?')} by `{data.get('command', '?')}` "
          f"(`python docs/_ext/arete_docs_search.py`; the whole registry took "
          f"{data.get('wall_seconds', 0):.0f} s on 2 workers); the build checks that the statement's bounds "
          "and hypotheses have not changed since.", "",
          "| bound | searched worst point | slack | verdict | evaluations | time | grid's worst point | "
          "grid slack |", "|---|---|---:|---|---:|---:|---|---:|"]
    for b in st.bounds:
        row = rows.get((sid, b.name))
        if row is None:
            L.append(f"| `{b.name}` | (not searched) | | | | | | |")
            continue
        r, g = row["search"], row["grid"]
        L.append(f"| `{b.name}` | {_code(_short_point(r.get('point') or {})) if r.get('point') else '(no point)'} | "
                 f"{_num(r.get('slack'), '.4g')} | {r.get('status', '')} | {r.get('evaluations', 0)} | "
                 f"{_secs(r.get('seconds', 0))} | {_code(_short_point(g.get('argmin') or {}))} | "
                 f"{_num(g.get('min_slack'), '.4g')} |")
    L += ["", "A *verdict* `holds` means no point of negative slack was found; `tight` that the worst point "
          "is attained to 80 digits (equality is allowed); `violated` would be a confirmed counterexample. "
          "Where the grid's slack is the smaller one, the grid point (often on a regime point or a "
          "boundary) is tighter than anything the search reached from it.", ""]
    return L


def _anchor(oid: str) -> str:
    return "obs-" + "".join(c if c.isalnum() else "-" for c in oid.lower())


def _evidence_table(ev: dict) -> list:
    L = ["| item | value |", "|---|---|"]
    for k, val in ev.items():
        if isinstance(val, (dict, list)):
            s = json.dumps(val, sort_keys=False)
            if len(s) > 400:
                s = s[:400] + " ..."
        else:
            s = str(val)
        L.append(f"| {_cell(k)} | {_code(s)} |")
    return L


def errata_page(data) -> str:
    from arete_proofs.chain.registry import REGISTRY

    L = ["# Errata and observations on the paper's text", "",
         "Each section is one check of `arete_proofs.chain.observations` "
         f"(`observations.run(digits={DIGITS})`): the paper's literal wording, the verdict, what the "
         "check found and its evidence. The statement pages check what the proofs use; these checks "
         "test the literal text. Generated at build time by `docs/_ext/arete_docs.py`.", ""]
    for o in data.get("observations", []):
        L += [f"({_anchor(o['id'])})=", f"## {_esc(o['id'])}", ""]
        osid = _statement_id(o["statement"])
        sref = _esc(o["statement"])
        if osid:
            sref = _ref(osid) + ("" if o["statement"] == REGISTRY[osid].number else f" ({sref})")
        lit = {True: "true", False: "false", None: "no claim of its own"}[o["holds_literal"]]
        L += [f"- **Statement:** {sref}", f"- **Verdict:** {_esc(o['verdict'])}",
              f"- **Literal claim holds:** {lit}", "",
              "**Literal text:**", "", "> " + _esc(o["literal"]).replace("\n", " "), "",
              "**Finding:** " + _esc(o["detail"]).replace("\n", " "), ""]
        if o.get("evidence"):
            L += ["**Evidence:**", ""] + _evidence_table(o["evidence"]) + [""]
    return "\n".join(L)


def main_result_page(data) -> str:
    L = ["# Main result: Lemma 3 and Corollary 5", "",
         f"Lemma 3 ({_ref('lemma-3')}) says that Arete noise with "
         "$\\alpha = \\lambda = e^{-\\varepsilon/4}$, $\\theta = 4\\Delta/\\varepsilon$ satisfies "
         "$e^{-\\varepsilon} \\le f_A(t)/f_A(t+a) \\le e^{\\varepsilon}$ for $|a| \\le \\Delta$ when "
         "$\\Delta \\ge 2/e$ and $\\varepsilon \\ge 20 + 4\\ln\\Delta$; Corollary 5 "
         f"({_ref('corollary-5')}) is the resulting mechanism with error "
         "$O(\\Delta e^{-\\varepsilon/4})$. Their statement pages show the grid checks; this page "
         "shows how much privacy the paper's parameters actually give.", "",
         "The *tight* $\\varepsilon^*$ is $\\sup_t \\ln f_A(t)/f_A(t+\\Delta)$, computed by "
         "`arete_proofs.privacy.curves.paper_table` (a certified search over every $t$, "
         f"{TABLE_DIGITS} digits). Generated at build time by `docs/_ext/arete_docs.py`.", "",
         "| nominal ε | Δ | α = λ | θ | tight ε* | ε*/ε | ε/4 (tail limit) | private | Lemma 3 applies |",
         "|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in data.get("table", []):
        L.append(f"| {r['eps']} | {r['Delta']} | {r['alpha']} | {r['theta']} | {r['tight_str']} | "
                 f"{r['ratio']:.4f} | {r['tail_limit']:g} | {'yes' if r['private'] else 'no'} | "
                 f"{'yes' if r['lemma3'] else 'no'} |")
    L += ["", "```{image} plots/main-result.png",
          ":alt: Tight epsilon against the nominal epsilon for the paper's parameters", "```", "",
          "The tight value stays well below the nominal $\\varepsilon$: the proof's constants are "
          "not optimised (Section 4), so Lemma 3 is safe but loose.", ""]
    L += ["(certified-epsilon-figure-4)=", "## Certified bounds for Figure 4's parameters", "",
          "`arete certify` ({mod}`arete_proofs.certified.epsilon`) *proves* an upper bound on the tight "
          "epsilon in ball arithmetic (python-flint): rigorous enclosures of $f_A$ on a cover of $[0, T]$, "
          "a certified tail bound for $t \\ge T$, symmetry for $t < 0$. The numeric tight epsilon "
          "({func}`arete_proofs.privacy.tight.tight_epsilon`) is shown for comparison; it is not part of the "
          "proof. Computed at build time ($\\Delta = 1$, `tol = 1e-4`).", ""]
    rows = data.get("certified_epsilon")
    if not rows:
        L += ["```{warning}", "python-flint (extra `certified`) was not installed when these pages were "
              "built, so this table is missing: `pip install -e '.[certified]'`.", "```", ""]
    else:
        L += ["| target ε | certified bound | certified lower bound | numeric tight ε* | gap | t at lower bound "
              "| cells | density evaluations | time (s) |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            L.append(f"| {r['eps']} | {r['upper']:.10f} | {r['lower']:.10f} | {r['numeric']:.10f} | "
                     f"{r['gap']:.2e} | {r['t_star']:.3g} | {r['cells']} | {r['evaluations']} | "
                     f"{r['seconds']:.1f} |")
        L += ["", "Every row proves that the parameters of the paper's Figure 4 are $\\varepsilon$-DP for "
              "their target $\\varepsilon$ (certified bound below the target).", ""]
    return "\n".join(L)
