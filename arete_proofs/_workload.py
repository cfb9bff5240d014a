r"""Work estimates taken before a long computation starts: refuse what is beyond the machine, announce what is long.

An engine whose work is set by a count it knows before the costly part (the lattice points of a window, the
terms of a kernel sum) calls :func:`check_work` with that count, the count's limit and the time one unit takes.

* Above the limit it raises :class:`TooMuchWork`, a ``ValueError`` that says the count, the limit and what the
  count grows with (the parameters or ratios a user can change); ``arete`` prints it in one line and adds the
  options given (exit status 2).
* A count whose estimated time is over :data:`LONG_SECONDS` is announced on the ``arete_proofs`` logger (level
  ``INFO``) with the estimate; ``arete`` shows these lines on stderr unless ``--quiet``, and a library user sees them
  after ``logging.basicConfig(level=logging.INFO)``.

Each limit is the count whose estimated time is at the edge of what one step of a command should take on a machine
of 2 cores and 24 GiB (minutes for one table or one density value, which a command repeats; an hour for a whole scan);
each limit's docstring says its unit's measured cost, and each refusal says how long its limit takes.

>>> check_work("the window", 10**3, MAX_WINDOW_POINTS, "lattice points", seconds_each=4e-5, grows_with="1/a")
>>> try:
...     check_work("the window", 10**9, MAX_WINDOW_POINTS, "lattice points", seconds_each=4e-5, grows_with="1/a")
... except TooMuchWork as exc:
...     print(exc)
the window needs 1e+09 lattice points, beyond what this machine can compute (at most 1e+07, about 7 min); it grows with 1/a
"""

from __future__ import annotations

import logging
import math

__all__ = ["LOG", "LONG_SECONDS", "MAX_WINDOW_POINTS", "MAX_KERNEL_TERMS", "TooMuchWork", "check_work",
           "duration"]

#: The logger on which long computations announce their estimate (level ``INFO``).
LOG = logging.getLogger("arete_proofs")

#: A computation estimated to take longer than this (seconds) is announced with its estimate.
LONG_SECONDS = 10.0

#: Most points of a lattice window held in one exact table: each is an mpf at the working precision (about
#: 100 bytes) and costs about 4e-5 s to fill and scan (``lattice_laplace``'s tight epsilon, 4.4e5 points in 21 s);
#: 10^7 points is about 1 GB and 7 minutes.
MAX_WINDOW_POINTS = 10**7

#: Most lattice terms one smoothed-lattice density value sums (the Gaussian kernel's width over the lattice
#: step, sigma/h, times the digits' tail): beyond it a single point would take minutes.
MAX_KERNEL_TERMS = 10**6


def duration(seconds: float) -> str:
    """A rounded duration: ``'40 s'``, ``'7 min'``, ``'3.2 h'``.

    >>> duration(40.2), duration(420), duration(11520)
    ('40 s', '7 min', '3.2 h')
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.2g} h"


class TooMuchWork(ValueError):
    """A computation whose size, known before it starts, is beyond the machine (:func:`check_work`)."""


def check_work(what: str, amount, limit, unit: str, *, seconds_each: float, grows_with: str) -> None:
    """Refuse ``amount`` units of work above ``limit`` (:class:`TooMuchWork`); announce it on :data:`LOG` when its
    estimate ``amount * seconds_each`` is over :data:`LONG_SECONDS` (module docstring)."""
    amount = float(amount)
    if not math.isfinite(amount) or amount > limit:
        raise TooMuchWork(f"{what} needs {amount:.3g} {unit}, beyond what this machine can compute "
                          f"(at most {float(limit):.3g}, about {duration(limit * seconds_each)}); "
                          f"it grows with {grows_with}")
    estimate = amount * seconds_each
    if estimate > LONG_SECONDS:
        LOG.info("%s: %.3g %s, about %s", what, amount, unit, duration(estimate))
