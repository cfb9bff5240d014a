r"""Noise families behind one interface: :data:`FAMILIES` and :func:`make`.

One module per family, each a :class:`Noise` subclass holding (or importing) its exact
engine, float64 path, privacy argument, certificate, samplers and shares; the tools of
the library (tight and certified epsilon, accounting, the optimiser, simulation, the CLI
and the docs tables) take a noise object and use only the interface of
:mod:`arete_proofs.noise._base`.  A new family is one new module plus one line in
``_MODULES``.

======================  ==========================================  =====  ==========  =======
name                    law                                         ID     sym. unim.  integer
======================  ==========================================  =====  ==========  =======
``laplace``             Laplace(lam)                                yes    yes         no
``staircase``           SC(gamma, Delta) at level eps               no     yes         no
``arete``               X1 - X2 + Laplace(lam)                      yes    yes         no
``arete_gauss``         X1 - X2 + Laplace(lam) + N(0, sigma^2)      yes    yes         no
``dlap``                DLap(a) = GDL(1, a) on the integers         yes    yes         yes
``gdl``                 NB(beta, 1-e^-a) - NB(beta, 1-e^-a)         yes    yes         yes
``msdlap``              sum_i i DLap(a), i = 1..m                   yes    no          yes
``lattice_laplace``     h MSDLap(a, m) + Laplace(b)                 yes    no          no
``lattice_gauss``       h MSDLap(a, m) + N(0, sigma^2)              yes    no          no
``lattice_gauss_top``   lattice_gauss, top scale at rate a_top      yes    no          no
``transformed_gdl``     h GDL(beta, a) + Laplace(b)                 yes    no          no
``discrete_staircase``  DSC(r, Delta) at level eps (integers)       no     yes         yes
``lattice_skellam``     h MSDLap(a, m) + Skellam(mu) (integers)     yes    no          yes
======================  ==========================================  =====  ==========  =======

Importing this package loads the family classes only; each method imports its engine
when first called, so ``import arete_proofs.noise`` stays light (no scipy, sympy, flint).

>>> from arete_proofs import noise
>>> sorted(noise.FAMILIES)
['arete', 'arete_gauss', 'discrete_staircase', 'dlap', 'gdl', 'laplace', 'lattice_gauss', 'lattice_gauss_top', 'lattice_laplace', 'lattice_skellam', 'msdlap', 'staircase', 'transformed_gdl']
>>> z = noise.make("arete", alpha="0.5", theta="1", lam="0.5")
>>> z.tight_epsilon(Delta=1, digits=6).epsilon <= 1 / 0.5     # at most Delta/lam (Lipschitz bound)
True
>>> noise.make("arete", alpha="0.5", theta="1")
Traceback (most recent call last):
...
ValueError: arete: parameter lam is required (Laplace scale lambda > 0)
"""

from __future__ import annotations

from importlib import import_module

from ._base import CAPABILITIES, SYMMETRIC_UNIMODAL, NotSupported, Noise, Parameter, TightResult, TooCostly
from ._shares import Shares

__all__ = ["FAMILIES", "make", "family", "Noise", "Parameter", "TightResult", "Shares", "NotSupported", "TooCostly",
           "CAPABILITIES", "SYMMETRIC_UNIMODAL"]

#: ``(name, module, class)`` of every family: the one place a family is registered.
_MODULES = (
    ("laplace", "arete_proofs.noise.laplace", "LaplaceNoise"),
    ("staircase", "arete_proofs.noise.staircase", "StaircaseNoise"),
    ("arete", "arete_proofs.noise.arete", "AreteNoise"),
    ("arete_gauss", "arete_proofs.noise.arete_gauss", "AreteGaussNoise"),
    ("dlap", "arete_proofs.noise.dlap", "DLapNoise"),
    ("gdl", "arete_proofs.noise.gdl", "GDLNoise"),
    ("msdlap", "arete_proofs.noise.msdlap", "MsdlapNoise"),
    ("lattice_laplace", "arete_proofs.noise.lattice_laplace", "LatticeLaplaceNoise"),
    ("lattice_gauss", "arete_proofs.noise.lattice_gauss", "LatticeGaussNoise"),
    ("lattice_gauss_top", "arete_proofs.noise.lattice_gauss_top", "LatticeGaussTopNoise"),
    ("transformed_gdl", "arete_proofs.noise.transformed_gdl", "TransformedGDLNoise"),
    ("discrete_staircase", "arete_proofs.noise.discrete_staircase", "DiscreteStaircaseNoise"),
    ("lattice_skellam", "arete_proofs.noise.lattice_skellam", "LatticeSkellamNoise"),
)


def _load():
    out = {}
    for name, module, cls in _MODULES:
        klass = getattr(import_module(module), cls)
        assert klass.name == name, (name, klass.name)
        out[name] = klass
    return out


#: ``{name: family class}``, in registration order.
FAMILIES: dict[str, type[Noise]] = _load()


def family(name: str) -> type[Noise]:
    """The family class called ``name`` (``ValueError`` listing the families for an unknown name)."""
    try:
        return FAMILIES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown noise {name!r}; the families are {', '.join(FAMILIES)}") from None


def make(name: str, **params) -> Noise:
    """A noise of family ``name`` with the given parameters (exact decimal strings or numbers).

    A bad or missing parameter raises ``ValueError`` naming it.
    """
    return family(name)(**params)
