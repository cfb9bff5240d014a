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


#: one valid parameter set per noise family (small lattice sizes: the exact engines at m <= 3); the CLI-against-
#: library tests start from it, so a family added to ``noise.FAMILIES`` without a case here fails their coverage test
FAMILY_CASES = {
    "laplace": {"lam": "0.7"},
    "staircase": {"eps": "2"},
    "arete": {"alpha": "0.5", "theta": "0.8", "lam": "0.3"},
    "arete_gauss": {"alpha": "0.5", "theta": "0.8", "lam": "0.3", "sigma": "0.2"},
    "dlap": {"a": "1"},
    "gdl": {"beta": "0.5", "a": "1"},
    "msdlap": {"a": "0.5", "m": "5"},
    "lattice_laplace": {"a": "2", "m": "2", "b": "0.3", "h": "0.5"},
    "lattice_gauss": {"a": "2", "m": "2", "sigma": "0.3", "h": "0.5"},
    "lattice_gauss_top": {"a": "2", "a_top": "1.5", "m": "2", "sigma": "0.3", "h": "0.5"},
    "transformed_gdl": {"beta": "0.5", "a": "1", "b": "0.25", "h": "1"},
    "discrete_staircase": {"eps": "2", "Delta": "1"},
    "lattice_skellam": {"a": "2", "m": "2", "mu": "0.5", "h": "1"},
}
