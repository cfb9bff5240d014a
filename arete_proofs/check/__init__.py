r"""The certificate checker: re-derive every shipped bound from its certificate, sharing no code with the search.

A certificate (a JSON object with ``"format": "arete-certificate/1"``) records what was costly to find -- a cover's
zones, a tail's parameters, witness pairs -- and its claims; :func:`check_document` recomputes every bound from the
exact parameters with outward-rounded arithmetic (python-flint balls, and float64 intervals that move every result
one ulp outward, :mod:`._iv`) and refuses the document when a claim does not follow, naming the item.  This package
imports only the standard library, numpy and python-flint (``tests/test_layers.py`` enforces it); one module per kind
of certificate.

>>> import json
>>> check_document({"format": "arete-certificate/0", "kind": "lattice_gauss"})["reason"]
'unknown format: arete-certificate/0 (this checker reads arete-certificate/1)'
"""

from __future__ import annotations

import hashlib
import json
import time

from ._refused import Refused

__all__ = ["FORMAT", "KINDS", "Refused", "check_document", "digest"]

#: the certificate format this checker reads
FORMAT = "arete-certificate/1"

#: ``kind -> module`` of the certificate kinds (each module has ``check(doc, progress)``)
_MODULES = {"lattice_gauss": "lattice_gauss", "lattice_skellam": "lattice_skellam",
            **dict.fromkeys(("staircase_not_id", "id_floor_general", "id_floor_variance", "id_floor_variance_range",
                             "id_floor_mean_abs", "id_floor_limits"), "floors"),
            "arete": "arete", "arete_region": "arete_region", "arete_rates": "arete_region"}
KINDS = tuple(_MODULES)


def digest(doc):
    """SHA-256 of the document without its ``digest`` field (canonical JSON): any later edit changes it."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def check_document(doc, progress=None):
    """Check one certificate: ``{"kind", "verdict", "lower", "upper", "seconds", "reason", "objectives"}``;
    ``verdict`` is ``"checked"`` or ``"refused"`` (``reason`` says which item failed)."""
    from importlib import import_module

    t0 = time.perf_counter()
    out = {"kind": doc.get("kind") if isinstance(doc, dict) else None, "verdict": "refused", "lower": None,
           "upper": None, "seconds": 0.0, "reason": "", "objectives": None}
    try:
        if not isinstance(doc, dict):
            raise Refused("a certificate is a JSON object")
        if doc.get("format") != FORMAT:
            raise Refused(f"unknown format: {doc.get('format')} (this checker reads {FORMAT})")
        if doc.get("digest") != digest(doc):
            raise Refused("the digest does not match: the document was edited after it was written")
        if doc.get("kind") not in KINDS:
            raise Refused(f"unknown certificate kind {doc.get('kind')!r}")
        mod = import_module(f"{__name__}.{_MODULES[doc['kind']]}")
        lower, upper, obj = mod.check(doc, progress)
        out.update(verdict="checked", lower=lower, upper=upper, objectives=obj)
    except Refused as e:
        out["reason"] = str(e)
    except (KeyError, TypeError, ValueError) as e:
        out["reason"] = f"malformed certificate: {type(e).__name__}: {e}"
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out
