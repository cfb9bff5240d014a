"""The docs' computations: figures and tables of the Sphinx walkthrough.

* :mod:`~arete_proofs.walkthrough.figures` -- Figures 1-4 of the paper, the error
  comparison and the Gamma-Gamma singularity, recomputed by the library (cached)

A top layer, beside :mod:`arete_proofs.cli`: it may use every layer below.
"""
