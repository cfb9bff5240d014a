"""``arete noises``: the noise families, their parameters (and flags), and what each supports.

Generated from :data:`arete_proofs.noise.FAMILIES` and each family's declared metadata, so a new
family appears here with no edit.  Shared options and the registry: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

import argparse
import json

from ._common import command


def _noises_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", metavar="NAME", nargs="*", help="only these families (default: all)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def _describe(fam) -> dict:
    return {
        "name": fam.name,
        "law": fam.title,
        "reference": fam.reference,
        "parameters": [{"name": p.name, "flag": p.cli_flag, "domain": p.domain_text, "meaning": p.doc,
                        "required": p.default is None} for p in fam.parameters],
        "infinitely_divisible": fam.infinitely_divisible,
        "symmetric_unimodal": fam.symmetric_unimodal,
        "integer_valued": fam.integer_valued,
        "supports": sorted(fam.supports),
        "sampler": fam.sampler_note(),
        "deploy_with": fam.deploy_with,
    }


@command(
    "noises",
    help="list the noise families (--noise NAME), their parameters and what each supports",
    description="""\
Lists every noise family of the library: its law, its parameters with their command-line
flags and domains, whether it is infinitely divisible (has n-party shares), symmetric
unimodal (its tight epsilon needs only the shift +Delta) and integer-valued, and the tools
it supports (exact, float, tight_epsilon, certify, account, optimize, sample, exact_sample,
shares, scipy, certified_density), and whether its sampler may serve a release: the integer
families sample exactly from fair bits; the continuous families' samplers are float64, for
experiments only, and the line names the integer family to deploy instead.  Every command
that takes a noise takes --noise NAME and these flags.
Examples:

    arete noises
    arete noises arete_gauss --json
""",
    options=(_noises_arguments,),
)
def noises_command(args: argparse.Namespace) -> int:
    """``arete noises``: the families and their capabilities."""
    from ..noise import CAPABILITIES, FAMILIES, family

    fams = [family(n) for n in args.names] if args.names else list(FAMILIES.values())
    docs = [_describe(f) for f in fams]
    if args.json:
        print(json.dumps({"families": docs, "capabilities": CAPABILITIES}, indent=2))
        return 0
    for i, d in enumerate(docs):
        if i:
            print()
        print(f"{d['name']}: {d['law']}")
        print(f"  {d['reference']}")
        for p in d["parameters"]:
            req = "" if p["required"] else " (optional)"
            print(f"  {p['flag']:<18} {p['meaning']}{req}")
        flags = [k for k in ("infinitely_divisible", "symmetric_unimodal", "integer_valued") if d[k]]
        print(f"  is: {', '.join(k.replace('_', ' ') for k in flags) or '-'}")
        print(f"  supports: {', '.join(d['supports'])}")
        print(f"  sampler: {d['sampler']}")
    return 0
