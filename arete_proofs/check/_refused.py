"""The refusal of a certificate (the one exception the kinds raise), and the claim check the comb kinds share."""

from fractions import Fraction

from ._arb import rational


class Refused(Exception):
    """A certificate is refused: the message says which recorded item failed."""


def check_objectives(doc, derived):
    """Refuse unless every claimed ``doc["objectives"][name]`` interval ``[a, b]`` contains the re-derived
    ``(lo, hi)`` of ``derived = (mean_abs, variance)``: :math:`a \\le lo` and :math:`hi \\le b`."""
    for name, (lo, hi) in zip(("mean_abs", "variance"), derived):
        cl = doc.get("objectives", {}).get(name)
        if cl is not None:
            a, b = (rational(x, f"objectives.{name}") for x in cl)
            if not (a <= Fraction(lo) and Fraction(hi) <= b):
                raise Refused(f"objectives.{name} [{float(a)!r}, {float(b)!r}] does not contain the re-derived "
                              f"[{lo!r}, {hi!r}]")
