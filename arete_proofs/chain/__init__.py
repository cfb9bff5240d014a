"""The proof chain as data, and its checks.

* :mod:`~arete_proofs.chain.symbols` -- the paper's symbols and densities as sympy objects,
  evaluated by the distributions layer
* :mod:`~arete_proofs.chain.registry` -- one record per statement: hypotheses, bounds,
  the statements its proof uses, grids
* :mod:`~arete_proofs.chain.grids` -- the grids of each statement, built from its hypotheses
* :mod:`~arete_proofs.chain.verify` -- the numeric check of every bound on its grid
  (``arete verify``)
* :mod:`~arete_proofs.chain.symbolic` -- sympy proofs of the algebraic steps
* :mod:`~arete_proofs.chain.observations` -- the paper's literal statements checked
* :mod:`~arete_proofs.chain.proof_integrals` -- Claim 1's integrals and Var Z from the
  characteristic function

This layer uses :mod:`arete_proofs.distributions` and :mod:`arete_proofs.privacy`
(Corollary 5 is checked through the tight epsilon).  Nothing is imported here:
``import arete_proofs.chain.registry`` does not pay for sympy's proofs.
"""
