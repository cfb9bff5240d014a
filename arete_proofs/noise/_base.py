r"""The noise interface: a family is a class, a noise is a frozen, validated parameter set.

A *family* (:class:`Noise` subclass) declares its parameters (:class:`Parameter`: name,
domain, meaning, command-line flag), what it is (``infinitely_divisible``,
``symmetric_unimodal``, ``integer_valued``) and what it supports (``supports``); a
*noise* is an instance, built from exact decimal strings or numbers and checked once
(a bad value is a ``ValueError`` naming the parameter).  Every tool of the library --
tight and certified epsilon, the hockey-stick delta and PLDs, the optimiser, the
samplers and shares, the scipy objects, the CLI and the docs tables -- takes a noise
object and asks it for what it needs, in the spirit of dp_accounting's
``PrivacyLossMechanism`` (``privacy_loss``, ``noise_cdf``, ...): a new family plugs in
by implementing this interface, with no change to the tools.

**Exact engine** (``digits=`` significant digits, or mpmath's ``mp.dps`` when ``None``;
results are ``mpf`` with guard digits, as in :mod:`arete_proofs.distributions`):
:meth:`Noise.pdf`, :meth:`~Noise.logpdf`, :meth:`~Noise.cdf`, :meth:`~Noise.sf`
(an integer-valued family has :meth:`~Noise.pmf` and :meth:`~Noise.logpmf`, and ``pdf`` is
its pmf on the integers), :meth:`~Noise.mean_abs`, :meth:`~Noise.var`.

**Float64 path** (numpy arrays in and out, for searches and plots):
:meth:`~Noise.logpdf_float`, :meth:`~Noise.pdf_float`, :meth:`~Noise.sf_float`,
:meth:`~Noise.cdf_float`.

**Privacy**: :meth:`~Noise.tight_epsilon` returns a :class:`TightResult` (``epsilon``, its
certified bracket, the ``witness`` -- the maximiser, or ``inf`` when the supremum is the
tail limit and not attained -- and the ``reduction``: the family's proof of which shifts
:math:`|s| \le \Delta` must be examined; :data:`SYMMETRIC_UNIMODAL` for a symmetric
unimodal law, where the single shift :math:`+\Delta` is the worst).  A law that is not
symmetric unimodal (lattice laws are combs) must take every shift.
:meth:`~Noise.certify` proves an upper bound in ball arithmetic where the family supports it.

**Distributed use**: :meth:`~Noise.sample`, :meth:`~Noise.shares` (the :math:`n`-party
decomposition that makes an infinitely divisible noise usable under dropouts),
:meth:`~Noise.scipy` (a frozen ``scipy.stats`` object).  An integer family (``exact_sample`` in
``supports``) samples itself and its shares *exactly* from fair bits
(:mod:`arete_proofs.mechanisms.exact`; ``rng`` any object with ``getrandbits(k)``,
``secrets.SystemRandom`` by default); its float64 sampler stays available as
:meth:`~Noise.sample_float`.  A continuous family's sampler is float64, for experiments only
(Mironov 2012): ``deploy_with`` names the integer family that serves the same purpose in a release.

Capabilities a family may list in ``supports``: :data:`CAPABILITIES`.  Calling a method
the family does not support raises :class:`NotSupported` (a ``ValueError``: the CLI reports
it in one line with exit status 2).

>>> from arete_proofs.noise import make
>>> z = make("laplace", lam="0.5")
>>> z, z.lam, z.symmetric_unimodal
(laplace(lam='0.5'), '0.5', True)
>>> # the Laplace mechanism: eps* = Delta / lam exactly (Lemma 26)
>>> z.tight_epsilon(Delta=1, digits=10).epsilon
mpf('2.0')
"""

from __future__ import annotations

import math
import numbers
import sys
import functools
from dataclasses import dataclass, field
from decimal import Context, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, ClassVar

from mpmath import mp

from .._validation import exact_point, floor_point, in_closed_range, parse_precision, positive  # noqa: F401  (floor_point: the families import it from here)

__all__ = [
    "CAPABILITIES",
    "SYMMETRIC_UNIMODAL",
    "NotSupported",
    "TooCostly",
    "SIZE_OPERATIONS",
    "Parameter",
    "TightResult",
    "Noise",
    "each",
]

#: What a family may support (the keys of ``Noise.supports``), with the method or tool each needs.
CAPABILITIES = {
    "exact": "pdf/logpdf/cdf/sf (or pmf) at any digits, mean_abs, var",
    "float": "float64 logpdf/pdf/cdf/sf on numpy arrays",
    "tight_epsilon": "tight epsilon with a certified bracket and its witness",
    "certify": "a ball-arithmetic proof of an upper bound on the tight epsilon (python-flint)",
    "account": "exact hockey-stick delta(eps) and a dp_accounting PLD",
    "optimize": "parameters of least E|Z| or Var Z at a target epsilon",
    "sample": "draws: exact from fair bits for the integer families, float64 (experiments only) otherwise",
    "exact_sample": "exact draws from fair bits (rng with getrandbits; no float on a random value): deployable",
    "shares": "n-party shares (infinitely divisible)",
    "scipy": "a frozen scipy.stats distribution",
    "certified_density": "arb balls that contain the density",
}

#: The shift reduction of a symmetric unimodal law (arete_proofs.privacy.tight, items 1-2).
SYMMETRIC_UNIMODAL = (
    "symmetric unimodal: the supremum over shifts |s| <= Delta is the one at s = +Delta, "
    "and only t >= 0 matters (Section 4.2; arete_proofs.privacy.tight, items 1-2)")


class NotSupported(ValueError):
    """A tool was asked of a family that does not provide it (one line, naming the family).

    The Staircase (Lemma 27) is not infinitely divisible, so it has no shares:

    >>> from arete_proofs.noise import make
    >>> try:
    ...     make("staircase", eps=3).shares(10)
    ... except NotSupported as exc:
    ...     print(exc)
    noise 'staircase' is not infinitely divisible: it cannot be split into shares
    """


class TooCostly(ValueError):
    r"""A computation whose size parameter is beyond the family's cost model (:meth:`Noise.check_size`): for the
    lattice families the pole constants cost about :math:`c\,m^3` (Theorem 16's comb has :math:`m` scales).

    One line naming the parameter and its largest allowed value; :meth:`cli_message` says the same with the
    command-line flag (``arete`` prints that one, exit status 2).

    >>> from arete_proofs.noise import make
    >>> try:
    ...     make("msdlap", a=1, m=10**9).tight_epsilon(Delta=1)
    ... except TooCostly as exc:
    ...     print(exc.cli_message())
    --m 1000000000 is beyond what this machine can compute for the tight epsilon (at most --m 2000; the pole constants cost about 1.1e-6 s * m^3/4)
    """

    def __init__(self, parameter, value, what, limit, model):
        self.parameter, self.value, self.what, self.limit, self.model = parameter, value, what, limit, model
        super().__init__(f"{parameter.name} = {value} is beyond what this machine can compute for {what} "
                         f"(at most {parameter.name} = {limit}; {model})")

    def cli_message(self) -> str:
        """The refusal with the command-line flag (``--m 1000000000 is beyond ...``)."""
        flag = self.parameter.cli_flag
        return (f"{flag} {self.value} is beyond what this machine can compute for {self.what} "
                f"(at most {flag} {self.limit}; {self.model})")


#: What :meth:`Noise.check_size` calls each kind of computation in a message.
SIZE_OPERATIONS = {
    "exact": "exact point values (pdf, pmf, cdf, sf)",
    "tight_epsilon": "the tight epsilon",
    "certify": "a certificate",
    "sample": "draws and shares",
}


#: The ranges the families accept (:attr:`Parameter.bounds`): a length scale (lambda, theta, sigma, b, h, the
#: Staircase's Delta), a DLap/NB rate a, a lattice size m (the cost model, :meth:`Noise.check_size`, refuses
#: what this machine cannot compute well below its top), a privacy level eps.
SCALE_BOUNDS = ("1e-12", "1e12")
RATE_BOUNDS = ("1e-6", "1e3")
SIZE_BOUNDS = ("1", "1000000000")
EPS_BOUNDS = ("1e-6", "1e3")

#: Domains of a parameter, with the test and how it reads in a message.
_DOMAINS = {
    "positive": (lambda x: x > 0, "positive and finite"),
    "nonnegative": (lambda x: x >= 0, "finite and >= 0"),
    "unit": (lambda x: 0 <= x <= 1, "in [0, 1]"),
    "integer": (lambda x: x >= 1 and x == int(x), "an integer >= 1"),
    "real": (lambda x: True, "finite"),
}


@dataclass(frozen=True)
class Parameter:
    r"""One declared parameter of a family.

    ``name``: the paper's name (a Python identifier); ``domain``: a key of the domains
    (``positive``, ``nonnegative``, ``unit``, ``integer``, ``real``); ``doc``: one line;
    ``flag``: the command-line flag (default ``--name``); ``default``: ``None`` (required),
    a value, or a callable of the other (already checked) parameters; ``bounds``: ``(lo, hi)``,
    decimal strings, the closed range the family accepts: a value outside it is refused, naming the
    parameter and the range, before any computation starts (out there the engines fail or run
    without end); inside it an engine may still refuse a combination of values, in one line.  Arete's
    :math:`\lambda` (Definition 9):

    >>> p = Parameter("lam", "positive", "Laplace scale lambda > 0")
    >>> p.cli_flag, p.domain_text
    ('--lam', 'positive and finite')
    >>> Parameter("a", "positive", "DLap decay a > 0", bounds=("1e-6", "1e3")).domain_text
    'in [1e-6, 1e3]'
    """

    name: str
    domain: str
    doc: str
    flag: str | None = None
    default: Any = None
    bounds: tuple[str, str] | None = None

    def __post_init__(self):
        if self.domain not in _DOMAINS:
            raise ValueError(f"unknown parameter domain {self.domain!r}")
        if self.bounds is not None:
            lo, hi = (mp.mpf(b) for b in self.bounds)
            if not (_DOMAINS[self.domain][0](lo) and lo <= hi):
                raise ValueError(f"bounds {self.bounds!r} of {self.name} are not a range inside its domain")

    @property
    def cli_flag(self) -> str:
        """The command-line flag of the parameter (``--lam``)."""
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def domain_text(self) -> str:
        """The domain in words (``positive and finite``; with bounds, ``in [lo, hi]``)."""
        if self.bounds is not None:
            text = f"in [{self.bounds[0]}, {self.bounds[1]}]"
            return ("an integer " + text) if self.domain == "integer" else text
        return _DOMAINS[self.domain][1]


def _raw(value, name):
    """A parameter value as handed to the engines: a stripped decimal string or an exact number."""
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{name} must be a number or a decimal string, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise ValueError(f"{name} must be a number, got an empty string")
        return text
    if isinstance(value, (numbers.Real, mp.mpf)):
        return value
    raise ValueError(f"{name} must be a number or a decimal string, got {value!r}")


def _check_value(p: Parameter, raw):
    """``raw`` as an mpf at a parsing precision, checked against ``p``'s domain (ValueError naming ``p``)."""
    with mp.workdps(parse_precision(30)):
        try:
            if isinstance(raw, Fraction):
                x = mp.mpf(raw.numerator) / raw.denominator
            else:
                x = mp.mpf(raw)
        except (TypeError, ValueError):
            raise ValueError(f"{p.name} must be a real number, got {raw!r}") from None
        if mp.isnan(x) or mp.isinf(x):
            raise ValueError(f"{p.name} must be {p.domain_text}, got {raw!r}")
        ok, text = _DOMAINS[p.domain]
        if not ok(x):
            raise ValueError(f"{p.name} must be {text}, got {raw!r}")
        if p.bounds is not None and not in_closed_range(x, *p.bounds):
            raise ValueError(f"{p.name} must be {p.domain_text} (the range this family accepts), got {raw!r}")
    return x


@dataclass(frozen=True)
class TightResult:
    r"""The tight epsilon of a noise for sensitivity ``Delta``: :math:`\sup_{|s|\le\Delta}\sup_t \ln f(t)/f(t+s)`.

    ``epsilon`` (``digits`` significant digits plus guard digits), certified by
    ``lower_bound <= epsilon <= upper_bound``; ``witness``: where the supremum is attained --
    the point ``t`` (for a symmetric unimodal law at the shift ``+Delta``), a pair
    ``(t, s)`` for a law that needs every shift, or ``inf`` when it is the tail limit
    ``tail_limit`` and not attained (``attained`` False); ``reduction``: the family's proof of
    the shifts it examined; ``method``: how the value was found; ``details``: the family
    engine's own result (e.g. :class:`arete_proofs.privacy.tight.TightEpsilon`, with its cover).

    >>> from arete_proofs.noise import make
    >>> r = make("arete", alpha="0.3", theta=1, lam=2).tight_epsilon(Delta=1)
    >>> # lam >= theta: eps* = Delta / max(theta, lam), the tail limit, not attained (Section 4.2)
    >>> r.epsilon == r.tail_limit == r.upper_bound, r.attained, r.t_star
    (True, False, mpf('+inf'))
    """

    epsilon: Any
    lower_bound: Any
    upper_bound: Any
    witness: Any
    attained: bool
    tail_limit: Any
    Delta: Any
    digits: int
    reduction: str
    method: str
    details: Any = field(default=None, repr=False)

    @property
    def t_star(self):
        """The maximiser ``t`` (``inf`` when not attained); for a ``(t, s)`` witness, its ``t``."""
        w = self.witness
        return w[0] if isinstance(w, tuple) else w


#: The sensitivities ``Delta`` the families' privacy tools accept (:func:`check_sensitivity`): a length scale, in
#: the range of the families' scales (the engines are scale-covariant, but their float64 searches place cells at the
#: noise's own scales).  The command line's ``--sensitivity`` has the same range.
SENSITIVITY_BOUNDS = SCALE_BOUNDS

#: The methods whose first argument is the sensitivity ``Delta``; every family's own is wrapped so that it checks
#: ``Delta`` first (:meth:`Noise.__init_subclass__`).
_SENSITIVITY_METHODS = ("tight_epsilon", "certify")


def check_sensitivity(Delta) -> None:
    """Refuse (``ValueError`` naming ``Delta``) a sensitivity that is not a number in :data:`SENSITIVITY_BOUNDS`.

    >>> check_sensitivity(1)
    >>> check_sensitivity("1e300")
    Traceback (most recent call last):
    ...
    ValueError: Delta must be in [1e-12, 1e12] (the sensitivities the families accept), got '1e300'
    """
    with mp.workdps(30):
        value = positive(Delta, "Delta")
    if not in_closed_range(value, *SENSITIVITY_BOUNDS):
        lo, hi = SENSITIVITY_BOUNDS
        raise ValueError(f"Delta must be in [{lo}, {hi}] (the sensitivities the families accept), got {str(Delta)!r}")


def _checks_sensitivity(method):
    """``method(self, Delta=1, ...)`` with :func:`check_sensitivity` first."""
    @functools.wraps(method)
    def checked(self, Delta=1, *args, **kwargs):
        check_sensitivity(Delta)
        return method(self, Delta, *args, **kwargs)

    checked.checks_sensitivity = True
    return checked


class Noise:
    r"""Base class of the noise families (module docstring: the interface).

    Subclasses set the class attributes below and implement the methods their
    ``supports`` lists; the base class validates and stores the parameters, gives
    ``repr``/equality/hashing, :meth:`describe` and the float parameters.  Equality is on the
    exact values: Arete(alpha, theta, lam) of Definition 9 given as ``"0.5"`` or ``0.5`` is one noise.

    >>> from arete_proofs.noise import make
    >>> make("arete", alpha="0.5", theta=1, lam="0.25") == make("arete", alpha=0.5, theta="1", lam=0.25)
    True
    >>> make("arete", alpha="0.1", theta=2, lam="0.3") == make("arete", alpha="0.1", theta=2, lam="0.3")
    True
    >>> make("arete", alpha="-1", theta=2, lam="0.3")
    Traceback (most recent call last):
    ...
    ValueError: alpha must be positive and finite, got '-1'
    """

    #: registry name (``noise.make(name, ...)``, ``--noise name``)
    name: ClassVar[str] = ""
    #: the law, in one line
    title: ClassVar[str] = ""
    #: where it comes from (paper and statement)
    reference: ClassVar[str] = ""
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    infinitely_divisible: ClassVar[bool] = False
    symmetric_unimodal: ClassVar[bool] = False
    integer_valued: ClassVar[bool] = False
    supports: ClassVar[frozenset[str]] = frozenset()
    #: for a continuous family, the integer family to deploy instead (its samplers are exact)
    deploy_with: ClassVar[str | None] = None

    #: the parameter that sets the size of the computations (``"m"``, the number of scales of a lattice), or None
    size_parameter: ClassVar[str | None] = None
    #: ``{operation: (largest size, cost model in words)}`` for the operations of :data:`~arete_proofs.noise._base.SIZE_OPERATIONS`
    #: (:meth:`~arete_proofs.noise._base.Noise.check_size`); an operation not listed has no size limit
    size_limits: ClassVar[dict] = {}

    __slots__ = ("_params", "_values", "source")

    def __init_subclass__(cls, **kwargs):
        """A family's ``tight_epsilon`` and ``certify`` check their sensitivity first (:func:`check_sensitivity`)."""
        super().__init_subclass__(**kwargs)
        for name in _SENSITIVITY_METHODS:
            method = cls.__dict__.get(name)
            if callable(method) and not getattr(method, "checks_sensitivity", False):
                setattr(cls, name, _checks_sensitivity(method))

    def __init__(self, *, source: dict | None = None, **params):
        names = [p.name for p in self.parameters]
        unknown = [k for k in params if k not in names]
        if unknown:
            raise ValueError(f"{self.name}: unknown parameter {unknown[0]!r} "
                             f"(its parameters are {', '.join(names)})")
        raw, values = {}, {}
        for p in self.parameters:
            if params.get(p.name) is None:
                if p.default is None:
                    raise ValueError(f"{self.name}: parameter {p.name} is required ({p.doc})")
                v = p.default(values) if callable(p.default) else p.default
            else:
                v = params[p.name]
            raw[p.name] = _raw(v, p.name)
            values[p.name] = _check_value(p, raw[p.name])
        object.__setattr__(self, "_params", raw)
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "source", dict(source or {}))
        self._check(values)

    def _check(self, values) -> None:
        """Cross-parameter conditions (``values``: mpf at 30 digits); raise ``ValueError``."""

    def check_size(self, operation: str) -> None:
        r"""Refuse (:class:`TooCostly`, a ``ValueError`` naming the parameter) an ``operation`` of
        :data:`~arete_proofs.noise._base.SIZE_OPERATIONS` whose size parameter is above the family's ``size_limits``.

        The limits come from each family's cost model (its ``size_limits`` docstring): the largest size
        whose estimated run time is within the stated budget, so that a size no machine can hold
        (``m = 10**9``) is refused at once instead of running without end.

        >>> from arete_proofs.noise import make
        >>> make("msdlap", a=1, m=3).check_size("exact")      # small: nothing to refuse
        >>> make("msdlap", a=1, m=10**6).check_size("exact")
        Traceback (most recent call last):
        ...
        arete_proofs.noise._base.TooCostly: m = 1000000 is beyond what this machine can compute for exact point values (pdf, pmf, cdf, sf) (at most m = 100; about 4 s * (m/30)^5 at 15 digits: the pole constants cost m^3 products at m log10(m) working digits)
        """
        name = self.size_parameter
        limit = self.size_limits.get(operation)
        if name is None or limit is None:
            return
        top, model = limit
        value = self._values[name]
        if value > top:
            p = next(q for q in self.parameters if q.name == name)
            raw = self._params[name]
            shown = raw if isinstance(raw, str) else _text(raw)
            raise TooCostly(p, shown, SIZE_OPERATIONS[operation], top, model)

    # -- the parameter set -------------------------------------------------------------
    def __getattr__(self, name):
        try:
            return object.__getattribute__(self, "_params")[name]
        except (KeyError, AttributeError):
            raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}") from None

    def __setattr__(self, name, value):
        raise AttributeError(f"{self.name} noise is frozen: make a new one with noise.make(...)")

    @property
    def params(self) -> dict:
        """The parameters as given (decimal strings or exact numbers), in declaration order."""
        return dict(self._params)

    def value(self, name):
        """The parameter ``name`` as an mpf parsed at 30 digits (for checks; engines parse the given value)."""
        return self._values[name]

    def float_params(self) -> tuple:
        """The parameters as float64, in declaration order (``ValueError`` naming one that float64 cannot hold)."""
        out = []
        for p in self.parameters:
            x = self._values[p.name]
            f = float(x)
            if not math.isfinite(f):
                raise ValueError(f"{p.name} = {mp.nstr(x, 8)} overflows float64 (the float64 path needs "
                                 f"|{p.name}| <= {sys.float_info.max:.3e})")
            if f == 0 and x != 0:
                raise ValueError(f"{p.name} = {mp.nstr(x, 8)} underflows float64 (the float64 path needs "
                                 f"|{p.name}| >= 4.9e-324)")
            out.append(f)
        return tuple(out)

    def __repr__(self):
        return f"{self.name}(" + ", ".join(f"{k}={v!r}" for k, v in self._params.items()) + ")"

    def _exact(self):
        return tuple(_exact(v) for v in self._params.values())

    def __eq__(self, other):
        """Same family and exactly the same parameter values ("0.5", 0.5 and 1/2 are equal)."""
        return type(other) is type(self) and other._exact() == self._exact()

    def __hash__(self):
        return hash((self.name, self._exact()))

    def __reduce__(self):  # picklable (process pools), parameters exactly as given
        return (_rebuild, (type(self), self._params, self.source))

    def describe(self) -> dict:
        """``{"noise": name, parameter: text, ...}`` (the values as given; JSON-ready)."""
        return {"noise": self.name, **{k: v if isinstance(v, str) else _text(v) for k, v in self._params.items()}}

    def scaled(self, c):
        r"""The law of :math:`cZ` (a noise of the same family), where the family is closed under scaling."""
        raise NotSupported(f"noise {self.name!r} does not support scaling")

    def with_params(self, **changes):
        """A noise of the same family with some parameters replaced."""
        return type(self)(**{**self._params, **changes})

    def _unsupported(self, what):
        return NotSupported(f"noise {self.name!r} does not support {what} "
                            f"(it supports: {', '.join(sorted(self.supports)) or 'nothing'}; see 'arete noises')")

    # -- exact engine --------------------------------------------------------------------
    def pdf(self, t, *, digits=None):
        """Density :math:`f(t)` (a list of points gives a list)."""
        raise self._unsupported("pdf")

    def logpdf(self, t, *, digits=None):
        r""":math:`\ln f(t)`."""
        raise self._unsupported("logpdf")

    def cdf(self, t, *, digits=None):
        r""":math:`P(Z \le t)`."""
        raise self._unsupported("cdf")

    def sf(self, t, *, digits=None):
        r""":math:`P(Z > t)`."""
        raise self._unsupported("sf")

    def pmf(self, k, *, digits=None):
        r""":math:`P(Z = k)` (integer-valued families)."""
        raise self._unsupported("pmf (it is not integer-valued)")

    def logpmf(self, k, *, digits=None):
        r""":math:`\ln P(Z = k)` (integer-valued families)."""
        raise self._unsupported("logpmf (it is not integer-valued)")

    def mean_abs(self, *, digits=None):
        r""":math:`E|Z|`."""
        raise self._unsupported("mean_abs")

    def var(self, *, digits=None):
        r""":math:`\operatorname{Var} Z`."""
        raise self._unsupported("var")

    # -- float64 path ----------------------------------------------------------------------
    def logpdf_float(self, t):
        """float64 :math:`\\ln f` on a numpy array."""
        raise self._unsupported("the float64 path")

    def pdf_float(self, t):
        """float64 density on a numpy array."""
        import numpy as np

        return np.exp(self.logpdf_float(t))

    def sf_float(self, t):
        """float64 survival function on a numpy array."""
        raise self._unsupported("the float64 path")

    def cdf_float(self, t):
        """float64 CDF on a numpy array (``1 - sf``; symmetric families override for the left tail)."""
        import numpy as np

        return 1.0 - self.sf_float(np.asarray(t, dtype=float))

    def mean_abs_float(self) -> float:
        """:math:`E|Z|` as a float64 (for searches)."""
        return float(self.mean_abs(digits=17))

    def var_float(self) -> float:
        r""":math:`\operatorname{Var} Z` as a float64 (for searches)."""
        return float(self.var(digits=17))

    # -- privacy -------------------------------------------------------------------------
    def tight_epsilon(self, Delta=1, *, digits=12):
        r"""The tight :math:`\varepsilon^*` for sensitivity ``Delta`` (:class:`~arete_proofs.noise._base.TightResult`)."""
        raise self._unsupported("tight_epsilon")

    def certify(self, Delta=1, *, target=None, tol="1e-4", workers=1, numeric=True, max_seconds=1200,
                progress=False):
        """A ball-arithmetic proof of an upper bound on the tight epsilon (an ``EpsilonCertificate``)."""
        raise self._unsupported("certify")

    def certified_pdf(self, t, *, digits=12):
        """An arb ball that contains the density at ``t``."""
        raise self._unsupported("certified densities")

    def accounting_hints(self):
        """:class:`arete_proofs.privacy.accounting.AccountingHints` (symmetric unimodal families with ``account``)."""
        raise self._unsupported("accounting (hockey-stick delta and PLDs)")

    def at_precision(self, digits):
        """The same noise with its parameters parsed for a ``digits``-digit privacy computation (default: itself)."""
        return self

    # -- sampling, shares, scipy -------------------------------------------------------
    def sample(self, size=None, rng=None):
        """Draws of the noise: exact from fair bits for an integer family (``rng``: an object with
        ``getrandbits(k)`` or an int seed, ``secrets.SystemRandom`` by default), float64 draws for
        experiments otherwise (not a production sampler, Mironov 2012; ``rng``: a numpy Generator or seed)."""
        raise self._unsupported("sample")

    def sample_float(self, size=None, rng=None):
        """float64 draws from numpy's generators (``rng``: a Generator, an int seed or ``None``): for experiments only.

        For a continuous family this is :meth:`sample`; an integer family keeps its float64 sampler here.
        """
        if self.integer_valued:
            raise self._unsupported("float64 sampling")
        return self.sample(size, rng)

    @classmethod
    def sampler_note(cls) -> str:
        """One line: whether the sampler may serve a release, and what to deploy instead when not.

        >>> from arete_proofs.noise import make
        >>> make("laplace", lam=1).sampler_note()
        'float64 sampler, for experiments only (Mironov 2012); to deploy, use the integer family dlap (exact sampler)'
        """
        if "exact_sample" in cls.supports:
            return "exact sampler (fair bits, integer arithmetic): deployable"
        if "sample" not in cls.supports:
            return "no sampler"
        alt = f"; to deploy, use the integer family {cls.deploy_with} (exact sampler)" if cls.deploy_with else ""
        return "float64 sampler, for experiments only (Mironov 2012)" + alt

    def shares(self, n):
        """The :math:`n`-party decomposition (:class:`arete_proofs.noise.Shares`)."""
        if not self.infinitely_divisible:
            raise NotSupported(f"noise {self.name!r} is not infinitely divisible: it cannot be split into shares")
        raise self._unsupported("shares")

    def scipy(self):
        """A frozen ``scipy.stats`` distribution (float64)."""
        raise self._unsupported("a scipy.stats object")

    # -- optimisation ------------------------------------------------------------------
    @classmethod
    def search_problem(cls, eps, *, objective="mean_abs", **options):
        """The family's problem for :mod:`arete_proofs.privacy.optimizer` (the generic optimiser)."""
        raise NotSupported(f"noise {cls.name!r} does not support optimize")


def _text(v) -> str:
    if isinstance(v, mp.mpf):
        return mp.nstr(v, 30)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, numbers.Integral):
        return str(int(v))
    return str(v)


def _exact(v):
    """The exact rational value of a parameter as given (a decimal string, int, float, Fraction or mpf)."""
    if isinstance(v, str):
        try:
            return Fraction(Decimal(v))
        except (InvalidOperation, ValueError):
            with mp.workdps(60):
                v = mp.mpf(v)
    if isinstance(v, mp.mpf):
        man, exp = v.man_exp
        x = Fraction(int(man)) * Fraction(2) ** int(exp)
        return -x if v < 0 else x
    return Fraction(v)


def _positive_scale(c) -> bool:
    try:
        return _exact(c) > 0
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return False


def scale_value(v, c):
    """``c * v`` exactly where both are decimal (a decimal string back), else at 60 digits (an mpf).

    >>> scale_value("0.3", 3), scale_value(2, "0.5")
    ('0.9', '1.0')
    """
    try:
        dv = Decimal(v) if isinstance(v, (str, int)) else None
        dc = Decimal(c) if isinstance(c, (str, int)) else None
    except InvalidOperation:
        dv = dc = None
    if dv is not None and dc is not None:
        return str(Context(prec=2000).multiply(dv, dc))
    with mp.workdps(60):
        return mp.mpf(c) * mp.mpf(v)


def integer_point(x, name="k"):
    r"""The integer :math:`k` a point ``x`` (int, float, string, Fraction, mpf) stands for, or ``None`` when it is
    not an integer (an integer-valued law has mass 0 there); ``ValueError`` naming ``name`` when it is no finite
    real number.  Exact (:func:`exact_point`): ``"1e20"`` is :math:`10^{20}`.

    >>> integer_point("3"), integer_point(3.0), integer_point("1/2"), integer_point(-2), integer_point("1e20") == 10**20
    (3, 3, None, -2, True)
    """
    try:
        v = exact_point(x, name)
    except ValueError:
        v = None
    if not isinstance(v, Fraction):
        raise ValueError(f"{name} must be a finite real number, got {x!r}")
    return int(v) if v.denominator == 1 else None


def on_integers(fn, x, off=0):
    """``fn(x)`` at a point ``x`` that names an integer, ``off`` (mass 0: ``mp.zero``, or ``-mp.inf`` for a log)
    at any other finite point: the pmf of an integer-valued law, 0 off the integers.  ``ValueError`` naming
    ``k`` for a point that is no finite real number (:func:`integer_point`).

    >>> on_integers(lambda x: 1, "2"), on_integers(lambda x: 1, "1/2")
    (1, 0)
    """
    return off if integer_point(x) is None else fn(x)


def each(fn, t):
    """``fn`` at every point of a list or tuple (a list back), or at the single point ``t``.

    >>> from arete_proofs.distributions import laplace
    >>> each(lambda x: laplace.pdf(x, 1, digits=5), [0, 1])[0] == laplace.pdf(0, 1, digits=5)  # Definition 23
    True
    """
    if isinstance(t, (list, tuple)):
        return [fn(x) for x in t]
    return fn(t)


def _rebuild(cls, params, source):
    return cls(source=source, **params)

