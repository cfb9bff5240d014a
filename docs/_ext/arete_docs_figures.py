"""The matplotlib figures of the generated pages (PNG / SVG bytes, reproducible).

The dependency graph of the statements (from ``Statement.uses``), both sides of a
bound over :math:`t` (the data of :func:`arete_docs_jobs.job_plot`) and the tight
epsilon of Lemma 3's table against the nominal one. The Agg backend, no dates or
software names in the files: a rebuild writes the same bytes.
"""

from __future__ import annotations

import io
import math

from arete_docs_settings import TABLE_DELTAS, TABLE_EPS


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    return buf.getvalue()


def _svg(fig) -> bytes:
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "arete-docs"
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


def _depths():
    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    depth = {}

    def d(sid):
        if sid not in depth:
            uses = [u for u in REGISTRY[sid].uses if u in REGISTRY]
            depth[sid] = 0 if not uses else 1 + max(d(u) for u in uses)
        return depth[sid]

    for sid in STATEMENT_IDS:
        d(sid)
    return depth


def graph_figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS

    depth = _depths()
    layers = {}
    for sid in STATEMENT_IDS:
        layers.setdefault(depth[sid], []).append(sid)
    width = max(len(v) for v in layers.values())
    # order each layer by the mean position of the statements it uses (fewer crossings)
    rank = {sid: i for i, sid in enumerate(layers[0])}
    for lev in sorted(layers)[1:]:
        def bary(sid):
            us = [rank[u] for u in REGISTRY[sid].uses if u in rank]
            return sum(us) / len(us) if us else 0.0
        layers[lev].sort(key=bary)
        for i, sid in enumerate(layers[lev]):
            rank[sid] = i - (len(layers[lev]) - 1) / 2 + (len(layers[0]) - 1) / 2
    pos = {}
    for lev, ids in layers.items():
        for i, sid in enumerate(ids):
            pos[sid] = (i - (len(ids) - 1) / 2, lev)
    fig, ax = plt.subplots(figsize=(max(7, 1.5 * width), 0.85 * (len(layers) + 1)))
    for sid in STATEMENT_IDS:
        for u in REGISTRY[sid].uses:
            if u in pos:
                ax.annotate(
                    "", xy=pos[sid], xytext=pos[u],
                    arrowprops=dict(arrowstyle="-|>", color="0.35", lw=1.1,
                                    shrinkA=16, shrinkB=16, connectionstyle="arc3,rad=0.08"),
                )
    for sid, (x, y) in pos.items():
        st = REGISTRY[sid]
        color = "#fde2c5" if sid in ("lemma-3", "corollary-5") else (
            "#e3ecf7" if st.uses or any(sid in REGISTRY[o].uses for o in REGISTRY) else "#eeeeee")
        ax.text(x, y, st.number, ha="center", va="center", fontsize=10,
                bbox=dict(boxstyle="round,pad=0.45", fc=color, ec="0.3"))
    ax.set_ylim(-0.6, max(layers) + 0.6)
    ax.set_xlim(-width / 2 - 0.2, width / 2 + 0.2)
    ax.set_yticks(sorted(layers))
    ax.set_yticklabels([f"depth {k}" for k in sorted(layers)])
    ax.set_xticks([])
    for s in ("top", "right", "bottom"):
        ax.spines[s].set_visible(False)
    ax.set_title("Proof chain: an arrow A → B means the proof of B uses A")
    fig.tight_layout()
    out = _png(fig), _svg(fig)
    plt.close(fig)
    return out


def plot_figure(sid, plot):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from arete_proofs.chain.registry import REGISTRY

    rows = [r for r in plot["rows"] if r[1] > 0 and r[2] > 0 and math.isfinite(r[1]) and math.isfinite(r[2])]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    ts = [r[0] for r in rows]
    ax.plot(ts, [r[1] for r in rows], "o-", ms=3, label="left-hand side")
    ax.plot(ts, [r[2] for r in rows], "s--", ms=3, label="right-hand side")
    ax.set_yscale("log")
    ax.set_xlabel("t")
    ax.set_title(f"{REGISTRY[sid].number}, bound '{plot['bound']}'", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    out = _png(fig)
    plt.close(fig)
    return out


def main_figure(table):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4))
    for d, mk in zip(TABLE_DELTAS, "osd"):
        rows = [r for r in table if r["Delta"] == d]
        ax.plot([r["eps"] for r in rows], [r["tight"] for r in rows], mk + "-",
                label=f"Δ = {d}")
    lo, hi = min(TABLE_EPS), max(TABLE_EPS)
    ax.plot([lo, hi], [lo, hi], "k:", label="tight = nominal")
    ax.set_xlabel("nominal ε (Lemma 3's parameters)")
    ax.set_ylabel("tight ε* of the noise")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    out = _png(fig)
    plt.close(fig)
    return out
