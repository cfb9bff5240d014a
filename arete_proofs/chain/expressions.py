r"""User expressions as sympy objects, by a whitelist over Python's syntax tree: parsed, never evaluated.

A variant file (:mod:`arete_proofs.chain.variants`) is text from someone else, and sympy's
``parse_expr``/``sympify`` run it through ``eval`` (``"__import__('os').system(...)"`` runs a
shell command).  :func:`parse_expression` instead reads the text with
``ast.parse(text, mode="eval")`` and builds the sympy expression itself, node by node, from
a fixed grammar:

* decimal number literals, made **exact**: ``0.5`` is :math:`1/2`, ``1e-3`` is :math:`1/1000`
  (sympy's parser gives ``Float`` objects);
* the names of :data:`NAMES`: the registry's symbols (:data:`SYMBOLS`), the constants ``E`` and
  ``pi``, and the functions of :data:`FUNCTIONS` (the paper's densities and constants of
  :mod:`arete_proofs.chain.symbols`, those sympy prints in the registry's bounds -- ``exp``,
  ``log``, ``gamma``, ``Abs``, ``Min`` -- and a few elementary ones), called with positional
  arguments only;
* ``+ - * / **``, unary ``-`` and ``+``;
* one comparison ``<= < >= > == !=`` (or ``Eq(a, b)``, ``Ne(a, b)``, as sympy prints them) at
  the top, for a hypothesis.

Everything else -- attribute access, subscripts, strings, lambdas, comprehensions, keyword or
starred arguments, calls of anything but a whitelisted name, other names (``eval``,
``__import__``, ``Symbol``, ``sympify``, ``S``, ...) -- is refused with a one-line
:class:`ExpressionError` naming ``where`` and the construct.

Sizes are capped so that neither the parse nor a later evaluation can be made to run for
ever: the text (:data:`MAX_LENGTH` characters), the syntax tree (:data:`MAX_NODES` nodes,
:data:`MAX_DEPTH` levels, a chain ``a + b + c`` counting as one), a literal
(:data:`MAX_DIGITS` digits, decimal exponent up to :data:`MAX_EXPONENT`), a numeric exponent
(:data:`MAX_POWER`; ``9**9**9`` and ``10**100000`` are refused before sympy computes them),
every exact number (:data:`MAX_BITS` bits, checked before a power is formed) and a numeric
argument of ``gamma`` (:data:`MAX_GAMMA`, since ``gamma(n)`` is :math:`(n-1)!`).  ``log``
inside an exponent is refused: sympy rewrites :math:`e^{k\ln x}` and :math:`2^{k\ln 3/\ln 2}`
to the integer power :math:`x^k`, :math:`3^k`.  A hypothesis (``exact=True``) is decided in
exact arithmetic at every grid point
(:meth:`~arete_proofs.chain.registry.Statement.hypotheses_at`), where sympy evaluates a power
of two rationals eagerly; there exponents must be numbers, ``exp``'s argument linear in the
names, ``gamma``'s argument a name or a number, the nested exponents' product at most
:data:`MAX_DEGREE`, and the engine-backed functions (``f_A``, ...) are left out.

``str()`` of every registry bound and hypothesis parses back to itself (products and sums
are built in one step, as the registry's were, so ``2*(x + y)*z`` keeps its factor
``x + y``):

>>> from arete_proofs.chain.registry import REGISTRY
>>> b = REGISTRY["lemma-19"].bounds[3]        # eq-8: Lemma 18's bound at D_Gamma = alpha theta
>>> parse_expression(str(b.lhs)) == b.lhs and parse_expression(str(b.rhs)) == b.rhs
True
>>> parse_expression("0.5*exp(-eps/2) <= 1e-3", kind="relation")
exp(-eps/2)/2 <= 1/1000
>>> try:
...     parse_expression("__import__('os').system('true')", "rhs")
... except ExpressionError as exc:
...     print(str(exc).split(" (only")[0])
rhs: attribute access "__import__('os').system" at column 1 is not allowed
>>> try:
...     parse_expression("9**9**9", "rhs")
... except ExpressionError as exc:
...     print(exc)
rhs: power '9**9**9' at column 1: the exponent 387420489 is larger than 1000 in absolute value
"""

from __future__ import annotations

import ast
import re

import sympy as sp

from . import gdl_symbols as G
from . import hm25_symbols as H
from . import symbols as S

__all__ = ["ExpressionError", "SYMBOLS", "FUNCTIONS", "CONSTANTS", "NAMES", "parse_expression",
           "MAX_LENGTH", "MAX_NODES", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT", "MAX_POWER", "MAX_BITS",
           "MAX_GAMMA", "MAX_DEGREE"]

#: Longest accepted text (characters); the longest ``str()`` of a registry bound has 787.
MAX_LENGTH = 2000
#: Most nodes of the syntax tree (the longest registry bound has 663).
MAX_NODES = 1500
#: Deepest nesting of the syntax tree, a chain ``a + b - c`` or ``a*b/c`` counting as one level.
MAX_DEPTH = 40
#: Most digits of a number literal.
MAX_DIGITS = 50
#: Largest decimal exponent of a number literal (``1e-300`` is accepted, ``1e-301`` is not).
MAX_EXPONENT = 300
#: Largest numeric exponent of a power, in absolute value.
MAX_POWER = 1000
#: Largest exact number (bits of numerator and denominator); sympy's roots of larger integers take seconds.
MAX_BITS = 2048
#: Largest numeric argument of ``gamma`` in absolute value (``gamma(n)`` is computed as (n-1)!).
MAX_GAMMA = 1000
#: Largest product of nested numeric exponents in a hypothesis (``(x + 1)**1000`` has 2001).
MAX_DEGREE = 10000

#: The registry's symbols, by the names ``str()`` prints (the 2025 paper's: ``beta``, ``beta_2``, ``a_GDL``
#: (its a), ``k``, ``m`` (scales), ``r_18`` (Theorem 18's r)).
SYMBOLS = {s.name: s for s in (S.alpha, S.theta, S.lam, S.Delta, S.D_Gamma, S.D_u, S.eps, S.kappa, S.t, S.a,
                               S.h, S.n, S.gamma_sc, S.c_L, G.beta, G.beta_2, G.a_GDL, G.k, H.m, H.r_18)}

#: The paper's engine-backed densities and constants (unevaluated sympy functions).
_PAPER = {f.__name__: f for f in (S.f_Gamma, S.f_L, S.f_GG, S.f_A, S.f_SC, S.c_DGam, S.c_Du, S.near_mass,
                                  S.shifted_conv, S.mean_abs_A, S.var_A_cf, S.tight_eps_A)}
#: The 2025 paper's (Harrison & Manurangsi): GDL (gdl_symbols) and MSDLap, Theorems 18, 21 (hm25_symbols).
_PAPER.update({n: f for n, f in {**G.NAMES, **H.NAMES}.items() if isinstance(f, type)})
#: ... and the non-elementary functions of its expressions, grouped with them (refused in a hypothesis): Theorem
#: 21's m = ceiling(exp(eps/3)) and Gauss's 2F1 as sympy prints it, hyper((a, b), (c,), z) (tuples only there).
_PAPER.update({"ceiling": sp.ceiling, "hyper": sp.hyper})

#: The functions an expression may call (the paper's, those ``str()`` prints in the registry's
#: bounds -- exp, log, gamma, Abs, Min -- and a few elementary ones, each evaluable by mpmath).
FUNCTIONS = {
    **_PAPER,
    "exp": sp.exp, "log": sp.log, "ln": sp.log, "sqrt": sp.sqrt, "gamma": sp.gamma,
    "Abs": sp.Abs, "Min": sp.Min, "Max": sp.Max, "besselk": sp.besselk,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "asinh": sp.asinh, "acosh": sp.acosh,
    "atanh": sp.atanh, "erf": sp.erf, "erfc": sp.erfc,
    "floor": sp.floor,            # the 2025 paper's integer hypotheses Eq(Delta, floor(Delta))
}

#: Named constants.
CONSTANTS = {"E": sp.E, "pi": sp.pi}

#: Every name an expression may use.
NAMES = {**SYMBOLS, **CONSTANTS, **FUNCTIONS}

#: Relations, as operators (``a <= b``) or as sympy prints some of them (``Ne(t, 0)``).
_COMPARE = {ast.LtE: sp.Le, ast.Lt: sp.Lt, ast.GtE: sp.Ge, ast.Gt: sp.Gt, ast.Eq: sp.Eq, ast.NotEq: sp.Ne}
_RELATION_CALLS = {"Eq": sp.Eq, "Ne": sp.Ne}

_ALLOWED = "only numbers, names, + - * / **, calls of the allowed functions and one comparison"

_OPERATORS = {ast.Mod: "%", ast.FloorDiv: "//", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
              ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.Not: "not", ast.Invert: "~",
              ast.And: "and", ast.Or: "or", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}

_KINDS = {ast.Attribute: "attribute access", ast.Subscript: "subscript", ast.Lambda: "lambda",
          ast.ListComp: "comprehension", ast.SetComp: "comprehension", ast.DictComp: "comprehension",
          ast.GeneratorExp: "comprehension", ast.JoinedStr: "f-string", ast.FormattedValue: "f-string",
          ast.NamedExpr: "assignment expression (:=)", ast.IfExp: "conditional expression (if/else)",
          ast.List: "list", ast.Tuple: "tuple", ast.Set: "set", ast.Dict: "dict", ast.Starred: "starred argument",
          ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield", ast.Slice: "slice"}

# a decimal literal as Python writes it (underscores removed): digits, point, exponent
_DECIMAL = re.compile(r"(?P<int>\d*)(?:\.(?P<frac>\d*))?(?:[eE](?P<exp>[+-]?\d+))?")


class ExpressionError(ValueError):
    r"""A text that is not an allowed expression; the one-line message names ``where`` and the construct.

    A ``ValueError``, so the command line reports it as ``arete: error: ...`` (exit 2).  Lemma 19's
    :math:`e^{-\varepsilon}` reached through an attribute is refused before anything runs:

    >>> try:
    ...     parse_expression("E.__class__(-eps)", "lhs")
    ... except ExpressionError as exc:
    ...     isinstance(exc, ValueError), str(exc).startswith("lhs: attribute access 'E.__class__'")
    (True, True)
    """


def _short(text, n=40) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _bits(expr) -> int:
    """The size in bits of the largest numerator or denominator in ``expr``."""
    if isinstance(expr, sp.Rational):
        return max(int(expr.p).bit_length(), int(expr.q).bit_length())
    return max((_bits(r) for r in expr.atoms(sp.Rational)), default=0)


def _degree(expr) -> int:
    """An upper bound on how many times a grid value's size an exact evaluation of ``expr`` can reach."""
    if not expr.args:
        return 1
    if isinstance(expr, sp.Pow) and expr.exp.is_Rational:
        return _degree(expr.base) * max(1, abs(int(expr.exp.p))) + 1
    return sum(_degree(x) for x in expr.args)


def _family(node):
    """The chain an operator node belongs to: sums (``+ -``), products (``* /`` and a negation), or None."""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return "add"
        if isinstance(node.op, (ast.Mult, ast.Div)):
            return "mul"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and not isinstance(node.operand, ast.Constant):
        return "mul"                                         # -x is (-1)*x, flattened like parse_expr's
    return None


class _Parser:
    """One parse: the source (newlines as spaces), where to say the error is, and the hypothesis rules."""

    def __init__(self, src, where, exact):
        self.src, self.where, self.exact = src, where, exact

    # -- errors ------------------------------------------------------------------------------

    def error(self, message):
        return ExpressionError(" ".join(f"{self.where}: {message}".split()))

    def construct(self, node, kind=None):
        """``kind 'text' at column n`` for ``node``."""
        kind = kind or _KINDS.get(type(node)) or type(node).__name__
        seg = ast.get_source_segment(self.src, node) if hasattr(node, "col_offset") else None
        if seg is None:
            return kind
        return f"{kind} {_quote(_short(seg))} at column {self.column(node)}"

    def column(self, node) -> int:
        """The 1-based character column of ``node`` (``col_offset`` counts UTF-8 bytes)."""
        return len(self.src.encode("utf-8")[: node.col_offset].decode("utf-8", "replace")) + 1

    def refuse(self, node, kind=None):
        return self.error(f"{self.construct(node, kind)} is not allowed ({_ALLOWED})")

    # -- shape of the tree ---------------------------------------------------------------------

    def check_tree(self, tree):
        """Node count and depth, iteratively (a chain of ``+``/``-`` or ``*``/``/`` is one level)."""
        nodes, deepest = 0, 0
        stack = [(tree.body, 1, None)]
        while stack:
            node, depth, parent_family = stack.pop()
            nodes += 1
            if nodes > MAX_NODES:
                raise self.error(f"more than {MAX_NODES} syntax nodes")
            fam = _family(node)
            if fam is not None and fam == parent_family:
                depth -= 1                                   # a + b + c: one level
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise self.error(f"nested more than {MAX_DEPTH} levels deep")
            for child in ast.iter_child_nodes(node):
                if not isinstance(child, (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)):
                    stack.append((child, depth + 1, fam))

    # -- the tree to sympy ---------------------------------------------------------------------

    def top(self, node, kind):
        """The whole expression: one relation at the top, or an expression."""
        relation = None
        if isinstance(node, ast.Compare):
            if len(node.ops) > 1:
                raise self.error(f"{self.construct(node, 'chained comparison')}: give one relation "
                                 "(a list of hypotheses for several)")
            op = type(node.ops[0])
            if op not in _COMPARE:
                raise self.refuse(node, f"operator {_OPERATORS.get(op, op.__name__)!r}")
            relation, sides = _COMPARE[op], (node.left, node.comparators[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _RELATION_CALLS:
            self.plain_call(node, 2)
            relation, sides = _RELATION_CALLS[node.func.id], tuple(node.args)
        if relation is None:
            out = self.expr(node)                            # its refusals first: they name the construct
            if kind == "relation":
                raise self.error(f"{_quote(_short(self.src))} is not a relation (expected e.g. 'alpha <= 1')")
            return out
        if kind == "expression":
            raise self.error(f"{self.construct(node, 'comparison')}: expected an expression, not a relation")
        lhs, rhs = (self.expr(x) for x in sides)
        return self.sympy(node, relation, lhs, rhs)

    def expr(self, node):
        if isinstance(node, ast.Constant):
            return self.number(node)
        if isinstance(node, ast.Name):
            name = node.id
            if name in SYMBOLS or name in CONSTANTS:
                return NAMES[name]
            if name in FUNCTIONS or name in _RELATION_CALLS:
                raise self.error(f"{self.construct(node, 'function')} is not called (write {name}(...))")
            raise self.unknown(node, name)
        fam = _family(node)
        if fam is not None:
            items = [x if isinstance(x, sp.Basic) else self.inverse(*x) if isinstance(x, tuple) else self.expr(x)
                     for x in self.chain(node, fam)]
            return self.sympy(node, sp.Add if fam == "add" else sp.Mul, *items)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return self.power(node, self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.BinOp):
            op = _OPERATORS.get(type(node.op), type(node.op).__name__)
            hint = " (write ** for a power)" if op == "^" else ""
            raise self.error(f"{self.construct(node, f'operator {op!r}')} is not allowed{hint} ({_ALLOWED})")
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.UAdd):
                return self.expr(node.operand)
            if isinstance(node.op, ast.USub):                 # of a literal (else a product)
                return -self.number(node.operand)
            raise self.refuse(node, f"operator {_OPERATORS.get(type(node.op), '?')!r}")
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Compare):
            raise self.refuse(node, "comparison inside an expression")
        if isinstance(node, ast.BoolOp):
            raise self.refuse(node, f"operator {_OPERATORS[type(node.op)]!r}")
        raise self.refuse(node)

    def chain(self, node, fam):
        """The operands of a chain ``a + b - c`` (or ``a*b/c``), flat, as parse_expr(evaluate=False) sees them.

        A subtracted term is ``("neg", node)``, a divisor ``("inv", node)``, a negation ``-x`` in a
        product the factors ``-1`` and ``x``; a parenthesised chain of the same kind is flattened
        too, so the sum or product is formed in one step (``2*(x + y)*z`` keeps ``x + y``, as
        sympy's ``parse_expr(..., evaluate=False)`` then one evaluation did).  Iterative:
        ``x + x + ... + x`` and ``- - ... - x`` are as long as the text.
        """
        out, todo = [], [node]
        while todo:
            cur = todo.pop()
            if isinstance(cur, tuple) or _family(cur) != fam:
                out.append(cur)
                continue
            if isinstance(cur, ast.UnaryOp):
                out.append(sp.S.NegativeOne)
                todo.append(cur.operand)
            elif isinstance(cur.op, (ast.Sub, ast.Div)):
                tag = "neg" if isinstance(cur.op, ast.Sub) else "inv"
                todo += [(tag, cur.right), cur.left]
            else:
                todo += [cur.right, cur.left]
        return out

    def inverse(self, tag, node):
        """``-x`` as the product ``(-1)*x`` (flat, ``x``'s own factors beside the -1), or ``x**(-1)``."""
        if tag == "neg":
            factors = self.chain(node, "mul") if _family(node) == "mul" else [node]
            items = [x if isinstance(x, sp.Basic) else self.inverse(*x) if isinstance(x, tuple) else self.expr(x)
                     for x in factors]
            return self.sympy(node, sp.Mul, sp.S.NegativeOne, *items)
        return self.power(node, self.expr(node), sp.S.NegativeOne)

    def number(self, node):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            kind = {str: "string", bytes: "bytes", bool: "True/False", complex: "imaginary number"}.get(
                type(value), "constant")
            raise self.refuse(node, kind)
        text = (ast.get_source_segment(self.src, node) or "").replace("_", "")
        m = _DECIMAL.fullmatch(text)
        if not m or not (m["int"] or m["frac"]):
            raise self.error(f"{self.construct(node, 'number')}: only decimal numbers are allowed")
        digits = (m["int"] + (m["frac"] or "")).lstrip("0")
        if len(digits) > MAX_DIGITS:
            raise self.error(f"{self.construct(node, 'number')} has more than {MAX_DIGITS} digits")
        exp10 = int(m["exp"] or 0)
        if abs(exp10) > MAX_EXPONENT:
            raise self.error(f"{self.construct(node, 'number')}: the exponent {exp10} is beyond +-{MAX_EXPONENT}")
        k = exp10 - len(m["frac"] or "")
        mantissa = int(digits or "0")
        # exact: 0.5 is 1/2, 1e-3 is 1/1000 (no binary float in between)
        return sp.Rational(mantissa * 10**k) if k >= 0 else sp.Rational(mantissa, 10**-k)

    def unknown(self, node, name):
        funcs, shown = sorted(FUNCTIONS, key=str.lower), []
        for f in funcs:                                      # one line of at most ~450 characters
            if sum(len(x) + 2 for x in shown) + len(f) > 200:
                shown.append(f"... ({len(funcs) - len(shown)} more: arete_proofs.chain.expressions.FUNCTIONS)")
                break
            shown.append(f)
        return self.error(f"unknown name {name!r} at column {self.column(node)}; names: "
                          f"{', '.join(sorted({**SYMBOLS, **CONSTANTS}, key=str.lower))}; functions: "
                          f"{', '.join(shown)}")

    def plain_call(self, node, nargs=None):
        for kw in node.keywords:
            raise self.refuse(kw, "keyword argument")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.refuse(arg)
        if nargs is not None and len(node.args) != nargs:
            raise self.error(f"{self.construct(node, 'call')}: {node.func.id} takes {nargs} arguments")

    def call(self, node):
        if not isinstance(node.func, ast.Name):
            kind = _KINDS.get(type(node.func)) or "call of a non-name"
            raise self.refuse(node.func, kind)
        name = node.func.id
        if name in _RELATION_CALLS:
            raise self.refuse(node, "comparison inside an expression")
        if name in SYMBOLS or name in CONSTANTS:
            raise self.error(f"{self.construct(node, 'call')}: {name!r} is not a function")
        if name not in FUNCTIONS:
            raise self.unknown(node.func, name)
        self.plain_call(node)
        func = FUNCTIONS[name]
        if func is sp.hyper:
            return self.hyper(node)
        args = [self.expr(x) for x in node.args]
        if func is sp.exp and args:
            self.exponent(node, args[0], "exp's argument")
        if func is sp.gamma and len(args) == 1:
            (x,) = args
            if x.is_Number and abs(x) > MAX_GAMMA:
                raise self.error(f"{self.construct(node, 'call')}: gamma's argument is beyond +-{MAX_GAMMA}")
            if self.exact and not (x.is_Symbol or not x.free_symbols):
                raise self.error(f"{self.construct(node, 'call')}: in a hypothesis gamma's argument must be "
                                 "a name or a number (hypotheses are decided exactly at each grid point)")
        if self.exact and name in _PAPER:
            raise self.error(f"{self.construct(node, 'call')}: a hypothesis cannot use the engine-backed "
                             f"function {name} (hypotheses are decided exactly at each grid point)")
        return self.sympy(node, func, *args)

    def hyper(self, node):
        """``hyper((a1, ..), (b1, ..), z)``: two tuples of at most 3 expressions each, then one expression."""
        if self.exact:
            raise self.error(f"{self.construct(node, 'call')}: a hypothesis cannot use hyper")
        args = node.args
        if len(args) != 3 or not all(isinstance(x, ast.Tuple) and len(x.elts) <= 3 for x in args[:2]):
            raise self.error(f"{self.construct(node, 'call')}: hyper takes (a1, ...), (b1, ...), z "
                             "with at most 3 parameters in each tuple")
        ap, bq = ([self.expr(e) for e in x.elts] for x in args[:2])
        return self.sympy(node, sp.hyper, ap, bq, self.expr(args[2]))

    def exponent(self, node, e, what):
        """Refuse an exponent sympy could turn into a huge integer power."""
        if e.has(sp.log):
            raise self.error(f"{self.construct(node, 'power')}: log in {what} (sympy would turn "
                             "e**(k*log(x)) into the integer power x**k; write the power itself)")
        if self.exact and what == "exp's argument":
            for term in sp.Add.make_args(e):
                c, rest = term.as_coeff_Mul()
                if term.free_symbols and not (rest.is_Symbol and c.is_Rational and abs(c) <= MAX_POWER):
                    raise self.error(f"{self.construct(node, 'call')}: in a hypothesis exp's argument must be "
                                     f"linear in the names with coefficients up to {MAX_POWER} "
                                     "(hypotheses are decided exactly at each grid point)")

    def power(self, node, b, e):
        self.exponent(node, e, "an exponent")
        if e.is_Number and abs(e) > MAX_POWER:
            raise self.error(f"{self.construct(node, 'power')}: the exponent {_short(e)} is larger than "
                             f"{MAX_POWER} in absolute value")
        if e.is_Rational and not b.free_symbols and _bits(b) * max(1, abs(int(e.p))) > MAX_BITS:
            # checked before sympy forms the number: (2**1000)**1000 would have 10**6 bits
            raise self.error(f"{self.construct(node, 'power')}: the number would have more than {MAX_BITS} bits")
        if self.exact and e.free_symbols:
            raise self.error(f"{self.construct(node, 'power')}: in a hypothesis an exponent must be a number "
                             "(hypotheses are decided exactly at each grid point)")
        return self.sympy(node, sp.Pow, b, e)

    def sympy(self, node, func, *args):
        """``func(*args)`` (sympy evaluates it), with the size checks; sympy's own refusals as one line."""
        try:
            out = func(*args)
        except Exception as exc:  # noqa: BLE001 - any sympy failure on user input is a malformed expression
            raise self.error(f"{self.construct(node, 'expression')}: {type(exc).__name__}: {exc}") from None
        if _bits(out) > MAX_BITS:
            raise self.error(f"{self.construct(node, 'expression')}: a number with more than {MAX_BITS} bits")
        if isinstance(out, sp.Pow) and out.exp.is_Number and abs(out.exp) > MAX_POWER:
            raise self.error(f"{self.construct(node, 'power')}: the exponent {_short(out.exp)} is larger than "
                             f"{MAX_POWER} in absolute value")
        return out

    def final(self, expr):
        """Checks of the whole result: finite, real, exponents and (hypotheses) degree within the caps."""
        if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise self.error(f"{_quote(_short(self.src))} is undefined or infinite ({_short(expr)}; "
                             "a division by zero?)")
        if expr.has(sp.I):
            raise self.error(f"{_quote(_short(self.src))} is not real ({_short(expr)})")
        for p in expr.atoms(sp.Pow):
            if p.exp.is_Number and abs(p.exp) > MAX_POWER:
                raise self.error(f"{_quote(_short(str(p)))}: the exponent {_short(p.exp)} is larger than "
                                 f"{MAX_POWER} in absolute value")
        if self.exact and _degree(expr) > MAX_DEGREE:
            raise self.error(f"{_quote(_short(self.src))}: nested powers of degree {_degree(expr)} > {MAX_DEGREE} "
                             "(hypotheses are decided exactly at each grid point)")
        return expr


def _quote(text) -> str:
    return repr(text) if "'" not in text else '"' + text.replace('"', '\\"') + '"'


def parse_expression(text, where: str = "expression", *, kind: str = "any", exact: bool = False):
    r"""The sympy expression (or relation) of ``text`` over :data:`NAMES`; :class:`ExpressionError` if not allowed.

    ``kind`` is ``"expression"`` (no comparison), ``"relation"`` (exactly one comparison at the
    top, as a hypothesis) or ``"any"``.  ``exact=True`` adds the rules for a hypothesis (module
    docstring).  ``where`` starts every error message.  Lemma 16's hypothesis
    :math:`1/\lambda - 1/\theta \ge 1/(D_u + \Delta + D_\Gamma)` and Lemma 27's
    :math:`2^{-2/3}\Delta^2 e^{-2\varepsilon/3}` parse back from their ``str()``; a literal is exact:

    >>> from arete_proofs.chain.registry import REGISTRY
    >>> h = REGISTRY["lemma-16"].hypotheses[7]
    >>> str(h), parse_expression(str(h), kind="relation", exact=True) == h
    ('-1/theta + 1/lam >= 1/(D_Gamma + D_u + Delta)', True)
    >>> b = REGISTRY["lemma-27"].bounds[3]
    >>> str(b.lhs), parse_expression(str(b.lhs), kind="expression") == b.lhs
    ('2**(1/3)*Delta**2*exp(-2*eps/3)/2', True)
    >>> parse_expression("1.0001*exp(eps)") == sp.Rational(10001, 10000) * sp.exp(S.eps)
    True
    >>> try:
    ...     parse_expression("theta**t >= 1", "hypotheses", kind="relation", exact=True)
    ... except ExpressionError as exc:
    ...     print(str(exc)[:86])
    hypotheses: power 'theta**t' at column 1: in a hypothesis an exponent must be a number
    """
    if kind not in ("any", "expression", "relation"):
        raise ValueError(f"kind must be 'any', 'expression' or 'relation', got {kind!r}")
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError(f"{where}: expected a non-empty string, got {_short(repr(text))}")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"{where}: {len(text)} characters, more than {MAX_LENGTH}")
    # one line (a TOML multi-line string may hold several): columns stay the text's
    src = re.sub(r"[\r\n\t\f\v]", " ", text)
    p = _Parser(src.strip(), where, exact)
    try:
        tree = ast.parse(p.src, mode="eval")
    except SyntaxError as exc:
        at = f" (column {exc.offset})" if exc.offset else ""
        raise p.error(f"cannot parse {_quote(_short(text))}: {exc.msg}{at}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise p.error(f"cannot parse {_quote(_short(text))}: {type(exc).__name__}: {exc}") from None
    p.check_tree(tree)
    return p.final(p.top(tree.body, kind))
