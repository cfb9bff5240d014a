"""Command-line interface: ``arete SUBCOMMAND ...`` (also ``python -m arete_proofs``).

One module per subcommand, or per pair of subcommands that share options:

* ``._common`` -- the parser class, ``UsageError``, the shared
  option helpers (``add_digits_option``, ``add_output_options``, ``add_sensitivity_option``),
  ``format_value`` and the command registry (the ``@command`` decorator); it imports no
  subcommand module and knows no noise family;
* ``._noise`` -- ``--noise NAME`` and every family's parameter flags, generated from
  :data:`arete_proofs.noise.FAMILIES` (``add_noise_options``), read back into a noise object
  (``resolve_noise``); the paper's ``--alpha/--theta/--lam``, ``--paper-eps`` and ``--sigma``;
* ``.density`` -- ``arete density`` (density, CDF, certified balls);
* ``.verify`` -- ``arete verify`` (the proof chain over parameter grids);
* ``.epsilon`` -- ``arete epsilon`` (the tight epsilon, E|Z| and Var Z);
* ``.certify`` -- ``arete certify`` (a certified bound on the tight epsilon);
* ``.optimize`` -- ``arete optimize`` and ``arete compare`` (optimized
  parameters, the error table);
* ``.simulate`` -- ``arete simulate`` and ``arete sample`` (the n-party sum,
  draws to a .npy file);
* ``.noises`` -- ``arete noises`` (the families, their flags and what each supports);
* ``.parser`` -- ``build_parser``, which imports the subcommand modules
  (importing registers them), and ``main``, the ``arete`` entry point.

Numbers given on the command line are handed to the library as the original
decimal strings, never through ``float``.  Usage errors and the library's
``ValueError`` / ``PrecisionError`` are reported as one
line ``arete: error: ...`` on stderr with exit status 2.
"""

from ._common import format_value
from ._noise import add_noise_options, resolve_noise
from .parser import build_parser, main


def add_parameter_options(parser, *, renamed_delta: bool = True) -> None:
    """The API of version 0.2.0: the paper's ``--alpha/--theta/--lam`` or ``--paper-eps [--sensitivity]``
    (now :func:`add_noise_options`, which adds every family's flags beside them)."""
    add_noise_options(parser, renamed_delta=renamed_delta)


def resolve_parameters(args, digits: int, *, sensitivity_for_explicit: bool = False):
    """The API of version 0.2.0: the paper's parameters of ``args`` (``alpha, theta, lam``, ``report``);
    :func:`resolve_noise` gives the noise object of any family."""
    from ._noise import _resolve_parameters

    return _resolve_parameters(args, digits, sensitivity_for_explicit)


__all__ = ["main", "build_parser", "format_value", "add_noise_options", "resolve_noise",
           "add_parameter_options", "resolve_parameters"]
