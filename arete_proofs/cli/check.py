"""``arete check PATH...``: re-check every certificate in files and folders with the independent checker.

The work is :mod:`arete_proofs.check` (which shares no code with the searches that wrote the certificates); this
module only registers the command.  Shared options and the registry: :mod:`arete_proofs.cli._common`.
"""

from __future__ import annotations

from ._common import command, need_flint


def _arguments(parser):
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a certificate file, a data file, or a folder")
    parser.add_argument("--workers", type=int, default=1, metavar="N", help="worker processes (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS (extra 'dask')")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document {certificates: [...], skipped: [...], summary: {...}}")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


@command(
    "check",
    help="re-check every certificate in files and folders (the independent checker; extra 'certified')",
    description="""\
Re-derive every bound of every certificate found in the given files and folders
(a folder: its JSON files; other files are listed as skipped), with the checker of
arete_proofs.check, which shares no code with the searches that wrote them.
One line per certificate (verdict, id, kind, enclosure, seconds), a summary line;
exit 1 if any is refused (the line says which recorded item failed), exit 2 for an
unreadable or malformed file.""",
    options=(_arguments,),
)
def run(args) -> int:
    from ._common import UsageError

    import os

    # said here, in the arete CLI's own one-line form
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    for path in args.paths:
        if path == "" or not os.path.exists(path):
            raise UsageError(f"PATH {path!r}: no such file or folder")
    need_flint("arete check")
    if args.dask:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise UsageError("--dask needs the extra 'dask': pip install 'arete-proofs[dask]'") from None
    from ..check._files import execute

    return execute(args.paths, workers=args.workers, dask=args.dask, as_json=args.json, quiet=args.quiet)
