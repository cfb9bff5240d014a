"""The in-process CLI runner the CLI tests share (``run(capsys, *argv)``)."""

from __future__ import annotations


def run(capsys, *argv):
    """Run ``arete_proofs.cli.main(argv)`` in-process; return (exit status, stdout, stderr).

    Arguments are passed through ``str`` so tests may give numbers.
    """
    from arete_proofs.cli import main

    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err
