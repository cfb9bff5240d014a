"""Ball arithmetic (python-flint ``arb``): proofs by the computer.

* :mod:`~arete_proofs.certified.balls` -- rationals to balls, the box prover
  :func:`~arete_proofs.certified.balls.certify_box`, :math:`f_A(0)` as a ball
* :mod:`~arete_proofs.certified.density` -- balls that contain :math:`f_A(t)`
  (:func:`~arete_proofs.certified.density.pdf`, :func:`~arete_proofs.certified.density.logpdf`)
* :mod:`~arete_proofs.certified.epsilon` -- a proved upper bound on the tight epsilon
  (:func:`~arete_proofs.certified.epsilon.certify_epsilon`, ``arete certify``)
* :mod:`~arete_proofs.certified.gauss` -- with a Gaussian part: balls of :math:`f_Z`,
  :math:`Z = X_1 - X_2 + Y + N`, and a proved bound on its tight epsilon
  (:func:`~arete_proofs.certified.gauss.certify_epsilon_gauss`, ``arete certify --sigma``)
* ``arete_proofs.certified.region`` and ``arete_proofs.certified.region_map`` -- where
  Lemma 3's parameters are eps-DP, cell by cell, with a re-checkable certificate
  (``certify_region``, ``arete certify-region``)
* :mod:`~arete_proofs.certified.statements` -- certificates of the paper's statements
  (``arete verify --certified``)

The top layer below the CLI: it uses the distributions, the privacy layer (for
the numeric comparison) and the proof chain (the statements' records).
python-flint (extra ``certified``) is imported inside the functions, so this
package imports without it.
"""

from . import balls, density, epsilon, gauss, region, region_map, statements
from .balls import Certificate, certify_box, pdf_at_zero_ball
from .density import CertifiedDensity, gg_pdf_ball, logpdf, logpdf_ball, pdf, pdf_ball
from .epsilon import EpsilonCertificate, certify_epsilon, tail_bound
from .gauss import GaussEpsilonCertificate, certify_epsilon_gauss
from .region import check_cell, decide_cell
from .region_map import certify_region, check_certificate

__all__ = [
    "balls", "density", "epsilon", "gauss", "region", "region_map", "statements",
    "Certificate", "certify_box", "pdf_at_zero_ball",
    "CertifiedDensity", "pdf", "logpdf", "pdf_ball", "logpdf_ball", "gg_pdf_ball",
    "EpsilonCertificate", "certify_epsilon", "tail_bound",
    "GaussEpsilonCertificate", "certify_epsilon_gauss",
    "decide_cell", "check_cell", "certify_region", "check_certificate",
]
