"""The last step of every certificate writer: digest the document and hand it out only if the checker accepts it."""

from __future__ import annotations

from ..check import check_document, digest


def sealed(doc, *, error=ValueError, what="the written certificate"):
    """``doc`` with its ``digest`` (:func:`arete_proofs.check.digest`), once :func:`arete_proofs.check.check_document`
    has checked it; ``error`` naming the checker's reason otherwise (a writer's bug: the search claimed more than it
    recorded).  The digest is the SHA-256 of the canonical JSON, so :math:`\\mathrm{digest}(d) = d[\\text{digest}]`
    holds for every document this returns.

    >>> sealed({"format": "arete-certificate/0", "kind": "lattice_gauss"})
    Traceback (most recent call last):
    ...
    ValueError: internal: the checker refused the written certificate: unknown format: arete-certificate/0 (this checker reads arete-certificate/1)
    """
    doc["digest"] = digest(doc)
    r = check_document(doc)
    if r["verdict"] != "checked":
        raise error(f"internal: the checker refused {what}: {r['reason']}")
    return doc
