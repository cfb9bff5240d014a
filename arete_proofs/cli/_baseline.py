"""Reading ``arete verify --baseline FILE`` safely: the report's structure checked before it is compared.

:func:`load_baseline` is what ``arete verify`` calls instead of
:func:`arete_proofs.chain.verify.load_report` for ``--baseline``: every defect of the file (not
JSON, a list at the top, a statement without an id, a slack that is not a number, ...) is one
:class:`~arete_proofs.cli._common.UsageError` line (exit status 2), never a ``KeyError`` from
:func:`~arete_proofs.chain.verify.compare_baseline`.  :func:`check_tolerance` refuses a NaN or
negative ``--tolerance`` (NaN turned the comparison off: every ``new < old - nan`` is false).
"""

from __future__ import annotations

import json
import math

from ._common import UsageError

__all__ = ["validate_baseline", "load_baseline", "check_tolerance"]

#: Largest number of statements (and of bounds per statement) of a baseline report.
MAX_ENTRIES = 100_000


def _slack(value, where):
    """A minimum slack: a JSON number or one of the strings ``inf``, ``-inf`` (not NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{where}: min_slack must be a number, got {value!r:.40}")
    try:
        x = float(value)
    except (ValueError, OverflowError):
        raise ValueError(f"{where}: min_slack must be a number, got {value!r:.40}") from None
    if math.isnan(x):
        raise ValueError(f"{where}: min_slack is NaN")
    return x


def validate_baseline(doc) -> dict:
    """Check that ``doc`` (a loaded JSON value) is a report of ``arete verify --json``; return it.

    Needed by :func:`arete_proofs.chain.verify.compare_baseline`: an object with ``grid`` and a
    list ``statements`` of objects, each with a string ``id``, an integer ``points`` >= 0, a numeric
    ``min_slack`` and, optionally, a list ``bounds`` of objects with a string ``name`` and a numeric
    ``min_slack``.  A defect is a one-line :class:`ValueError` saying where.

    >>> validate_baseline({"grid": "quick", "statements": [{"id": "lemma-2", "points": 3, "min_slack": 0.5}]})["grid"]
    'quick'
    >>> validate_baseline([{"id": "lemma-2"}])
    Traceback (most recent call last):
      ...
    ValueError: the top level is a list, not an object (a report of 'arete verify --json')
    >>> validate_baseline({"grid": "quick", "statements": [{"points": 3, "min_slack": 0.5}]})
    Traceback (most recent call last):
      ...
    ValueError: statement 0: 'id' is missing or not a string
    """
    if not isinstance(doc, dict):
        kind = "a list" if isinstance(doc, list) else type(doc).__name__
        raise ValueError(f"the top level is {kind}, not an object (a report of 'arete verify --json')")
    if "grid" not in doc or not isinstance(doc["grid"], (str, dict, list)):
        raise ValueError("'grid' is missing (a report of 'arete verify --json' names its grid)")
    statements = doc.get("statements")
    if not isinstance(statements, list):
        raise ValueError("'statements' is missing or not a list")
    if len(statements) > MAX_ENTRIES:
        raise ValueError(f"{len(statements)} statements: at most {MAX_ENTRIES}")
    for i, s in enumerate(statements):
        if not isinstance(s, dict):
            raise ValueError(f"statement {i} is not an object")
        if not isinstance(s.get("id"), str):
            raise ValueError(f"statement {i}: 'id' is missing or not a string")
        where = f"statement {s['id']!r:.40}"
        points = s.get("points")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise ValueError(f"{where}: points must be an integer >= 0, got {points!r:.40}")
        _slack(s.get("min_slack"), where)
        bounds = s.get("bounds", [])
        if not isinstance(bounds, list) or len(bounds) > MAX_ENTRIES:
            raise ValueError(f"{where}: 'bounds' must be a list")
        for j, b in enumerate(bounds):
            if not isinstance(b, dict) or not isinstance(b.get("name"), str):
                raise ValueError(f"{where}: bound {j} is not an object with a string 'name'")
            _slack(b.get("min_slack"), f"{where} [{b['name']:.40}]")
        for key in ("violations",):
            v = s.get(key, 0)
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"{where}: {key} must be an integer, got {v!r:.40}")
        if not isinstance(s.get("grid_errors", []), list):
            raise ValueError(f"{where}: 'grid_errors' must be a list")
    return doc


def load_baseline(path, option: str = "--baseline") -> dict:
    """Read and validate a baseline report; any defect is a one-line :class:`UsageError` naming ``option``."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh, parse_constant=lambda c: c)   # NaN/Infinity: strings, judged by _slack
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise UsageError(f"{option}: cannot read {path}: {' '.join(str(exc).split())}") from None
    try:
        return validate_baseline(doc)
    except ValueError as exc:
        raise UsageError(f"{option} {path}: {exc}") from None


def check_tolerance(value, option: str = "--tolerance") -> float:
    """``value`` as a finite float >= 0, else a one-line :class:`UsageError` (NaN would turn the check off).

    >>> check_tolerance("1e-6")
    1e-06
    >>> check_tolerance("nan")
    Traceback (most recent call last):
      ...
    arete_proofs.cli._common.UsageError: --tolerance must be a finite number >= 0, got 'nan'
    """
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"{option} must be a finite number >= 0, got {value!r}") from None
    if not (math.isfinite(x) and x >= 0):
        raise UsageError(f"{option} must be a finite number >= 0, got {value!r}")
    return x
