r"""Certified (ball-arithmetic) checks of closed-form statements of the paper.

Uses python-flint's ``arb`` (imported lazily, so the package imports without it).
A statement ``margin >= 0`` on a box is *certified* when the box is bisected into
sub-boxes on each of which the arb enclosure of the margin has a positive lower
end.  Every sub-box is evaluated with all coordinates as balls containing the
whole sub-box, so the enclosure bounds the margin at every point of it.

Statements (paper: Pagh & Stausholm, ALT 2022):

* :func:`note2_certificate` -- Note 2, :math:`\Gamma(\alpha)\le 1/\alpha` on (0, 1].
* :func:`lemma28_certificate` -- Lemma 28 (derivative sign of :math:`\ln g`).
* :func:`lemma19_certificate` -- the final inequality of the proof of Lemma 19
  (Appendix C.4), :math:`48 e^{2\alpha}\Delta e^{3\varepsilon/4}\le e^{\varepsilon}`.
* :func:`lemma19_algebra_certificate` -- the algebra of Appendix C.4 from Lemma 18 to
  :math:`e^\varepsilon` (steps (8)-(10) and the hypotheses (9)) at the paper's parameters, on the
  whole domain :math:`\varepsilon\ge20+4\ln\Delta`, :math:`\Delta\ge2/e`.
* :func:`lemma14_upper_certificate`, :func:`lemma14_lower_certificate` -- Lemma 14
  for :math:`\theta = 1`: compact boxes plus the checked pieces of the analytic argument
  for every :math:`t` (:math:`K_\nu\le K_{1/2}`; :math:`f_\Gamma` non-increasing).
* ``*_false_certificate`` -- deliberately false variants that must be refuted.
* :func:`corollary5_certificate` -- Corollary 5's privacy claim (tight epsilon at most
  :math:`\varepsilon`) at points :math:`(\varepsilon,\Delta)`, through
  :func:`arete_proofs.certified.epsilon.certify_epsilon`.

Submodules, one per statement group (the box prover is in ``certified.balls``):

* ``statements.note2`` -- Note 2 and its false variant
* ``statements.lemma19`` -- Lemma 19: the final inequality and the algebra (7)-(10)
* ``statements.lemma28`` -- Lemma 28
* ``statements.lemma14`` -- Lemma 14, upper and lower bound
* ``statements.corollary5`` -- Corollary 5 at points
* ``statements._common`` -- helpers: float bounds of balls, constant-ball certificates

>>> c = lemma19_certificate()
>>> c.holds, len(c.boxes) > 0
(True, True)
"""

from __future__ import annotations

from ..balls import Certificate, certify_box
from .corollary5 import corollary5_certificate, corollary5_false_certificate
from .lemma14 import (
    lemma14_lower_certificate,
    lemma14_lower_false_certificate,
    lemma14_upper_certificate,
    lemma14_upper_false_certificate,
)
from .lemma19 import (
    lemma19_algebra_certificate,
    lemma19_algebra_false_certificate,
    lemma19_certificate,
    lemma19_false_certificate,
)
from .lemma28 import lemma28_certificate
from .note2 import note2_certificate, note2_false_certificate

__all__ = [
    "Certificate",
    "certify_box",
    "note2_certificate",
    "note2_false_certificate",
    "lemma28_certificate",
    "lemma19_certificate",
    "lemma19_false_certificate",
    "lemma19_algebra_certificate",
    "lemma19_algebra_false_certificate",
    "lemma14_upper_certificate",
    "lemma14_upper_false_certificate",
    "lemma14_lower_certificate",
    "lemma14_lower_false_certificate",
    "corollary5_certificate",
    "corollary5_false_certificate",
]

