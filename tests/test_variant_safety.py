"""Variant files are parsed, never evaluated (issue 25, item 2): arete_proofs.chain.expressions.

* every injection form (attribute access, builtins, sympy's own constructors, strings,
  lambdas, comprehensions, keyword and starred arguments, ...) is refused with a one-line
  error naming the variant, the key and the construct, and the marker file that a successful
  injection would create is not created -- sympy's ``parse_expr`` on the same text does
  create it, so the marker check can fail;
* denial-of-service forms (``9**9**9``, ``10**100000``, huge literals, deep nesting,
  ``exp(k*log(x))`` that sympy turns into an integer power, hypotheses that would be decided
  exactly on huge numbers) are refused, each within a second, in a child process that a
  hang cannot take down with the test run;
* ``str()`` of every bound, hypothesis, ``where`` condition and substitution of every
  registry statement parses back to the same expression (structurally), directly and
  through a variant file -- the loop is over the registry, so a new statement is covered;
* on generated expressions the parser agrees in value with sympy's ``parse_expr`` (an
  independent implementation of the same grammar, safe here: the text is the test's own);
* ``arete verify --variant evil.toml`` and every malformed file exit 2 with one line on
  stderr and no traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from mpmath import mp

from arete_proofs.chain import expressions as X
from arete_proofs.chain import variants as V
from arete_proofs.chain.expressions import ExpressionError, parse_expression
from arete_proofs.chain.registry import REGISTRY, STATEMENT_IDS
from arete_proofs.chain.symbols import numeric, t, theta, working_digits
from arete_proofs.cli.parser import main

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------
# injections: MARKER is replaced by a path in tmp_path that must never be created
# --------------------------------------------------------------------------

INJECTIONS = [
    ("__import__('os').system('touch MARKER')", "attribute access"),
    ("__import__('pathlib').Path('MARKER').touch()", "attribute access"),
    ("__import__('os')", "unknown name '__import__'"),
    ("open('MARKER', 'w')", "unknown name 'open'"),
    ("eval(\"open('MARKER', 'w')\")", "unknown name 'eval'"),
    ("exec(\"open('MARKER', 'w')\")", "unknown name 'exec'"),
    ("compile('1', 'MARKER', 'eval')", "unknown name 'compile'"),
    ("sympify(\"open('MARKER', 'w')\")", "unknown name 'sympify'"),
    ("parse_expr(\"open('MARKER', 'w')\")", "unknown name 'parse_expr'"),
    ("S(\"open('MARKER', 'w')\")", "unknown name 'S'"),
    ("Symbol('x')", "unknown name 'Symbol'"),
    ("Integer(2)", "unknown name 'Integer'"),
    ("Function('f')(alpha)", "call of a non-name"),
    ("__builtins__", "unknown name '__builtins__'"),
    ("__class__", "unknown name '__class__'"),
    ("globals()", "unknown name 'globals'"),
    ("getattr(alpha, '__class__')", "unknown name 'getattr'"),
    ("breakpoint()", "unknown name 'breakpoint'"),
    ("alpha.__class__.__mro__", "attribute access"),
    ("exp.__globals__", "attribute access"),
    ("().__class__.__base__.__subclasses__()", "attribute access"),
    ("exp(1).evalf()", "attribute access"),
    ("[c for c in ().__class__.__base__.__subclasses__()]", "comprehension"),
    ("(lambda: open('MARKER', 'w'))()", "lambda"),
    ("lambda: 1", "lambda"),
    ("f\"{open('MARKER', 'w')}\"", "f-string"),
    ("'MARKER'", "string"),
    ("b'MARKER'", "bytes"),
    ("exp(x=1)", "keyword argument"),
    ("exp(**{'x': 1})", "keyword argument"),
    ("exp(*[1])", "starred argument"),
    ("alpha[0]", "subscript"),
    ("(x := 1)", "assignment expression"),
    ("1 if open('MARKER', 'w') else 2", "conditional expression"),
    ("exp(1)(2)", "call of a non-name"),
    ("alpha(1)", "'alpha' is not a function"),
    ("exp + 1", "is not called"),
    ("[1, 2]", "list"),
    ("(1, 2)", "tuple"),
    ("{1}", "set"),
    ("{'a': 1}", "dict"),
    ("alpha and theta", "'and'"),
    ("not alpha", "'not'"),
    ("alpha % 2", "'%'"),
    ("alpha ^ 2", "write ** for a power"),
    ("True", "True/False"),
    ("None", "constant"),
    ("1j", "imaginary number"),
    ("0x1f", "only decimal numbers"),
    ("(alpha < 1) + 1", "comparison inside an expression"),
]


def _form(form, marker):
    return form.replace("MARKER", str(marker))


@pytest.mark.parametrize("form, construct", INJECTIONS)
def test_injection_is_refused(form, construct, tmp_path):
    marker = tmp_path / "pwned"
    with pytest.raises(ExpressionError) as info:
        parse_expression(_form(form, marker), "variant 'evil': key 'rhs'")
    msg = str(info.value)
    assert msg.startswith("variant 'evil': key 'rhs': ") and construct in msg, msg
    assert "\n" not in msg and len(msg) < 500
    assert not marker.exists()


@pytest.mark.parametrize("form, construct", INJECTIONS[:8] + INJECTIONS[18:24])
@pytest.mark.parametrize("key", ["lhs", "rhs", "hypotheses"])
def test_injection_in_a_variant_file_is_refused(form, construct, key, tmp_path):
    marker = tmp_path / "pwned"
    value = f"['''{_form(form, marker)}''']" if key == "hypotheses" else f"'''{_form(form, marker)}'''"
    text = f"[[variant]]\nname = 'evil'\nstatement = 'lemma-19'\nbound = 'lower'\n{key} = {value}\n"
    with pytest.raises(V.VariantError, match=f"^variant 'evil': key '{key}': ") as info:
        V.load_text(text)
    assert construct in str(info.value) and "\n" not in str(info.value)
    assert not marker.exists()


def test_the_marker_catches_an_evaluating_parser(tmp_path):
    """sympy's parse_expr (the parser before this fix) runs the injection: the marker check can fail."""
    from sympy.parsing.sympy_parser import parse_expr

    marker = tmp_path / "pwned"
    try:
        parse_expr(_form("__import__('pathlib').Path('MARKER').touch()", marker))
    except Exception:  # noqa: BLE001 - only the side effect matters
        pass
    assert marker.exists()


# --------------------------------------------------------------------------
# denial of service: refused, each within a second, in a child process
# --------------------------------------------------------------------------

#: (text, kind, exact, a word of the message)
DOS = [
    ("9**9**9", "any", False, "exponent"),
    ("10**100000", "any", False, "exponent"),
    ("2**1000000", "any", False, "exponent"),
    ("(2**1000)**1000", "any", False, "bits"),
    ("((2**100)**10)**10", "any", False, "bits"),
    ("10**(10**3)", "any", False, "bits"),
    ("1e999999999", "any", False, "exponent"),
    ("1" * 60, "any", False, "digits"),
    ("0." + "3" * 60, "any", False, "digits"),
    ("gamma(10**6)", "any", False, "gamma"),
    ("gamma(1000)", "any", False, "bits"),
    ("exp(10**8*log(3))", "any", False, "log in"),
    ("E**(10**8*log(3))", "any", False, "log in"),
    ("2**(10**8*log(3)/log(2))", "any", False, "log in"),
    ("t**(10**8*log(3)/log(t))", "any", False, "log in"),
    ("sqrt(" + "*".join(["(2**600)"] * 5) + ")", "any", False, "bits"),
    ("(t**1000)**1000", "any", False, "exponent"),
    ("t**600*t**600", "any", False, "exponent"),
    ("x" * 2001, "any", False, "characters"),
    ("-" * 1990 + "t", "any", False, "syntax nodes"),
    ("t" + "**t" * 600, "any", False, "levels"),
    ("exp(" * 60 + "t" + ")" * 60, "any", False, "levels"),
    ("+".join(["t"] * 900), "any", False, "syntax nodes"),
    ("(" * 300 + "t" + ")" * 300, "any", False, "cannot parse"),
    # hypotheses are decided exactly at every grid point (t = 1e-12 makes 1/t = 10**12)
    ("t**(1/t) > 0", "relation", True, "exponent must be a number"),
    ("2**(Delta*Delta*Delta) > 0", "relation", True, "exponent must be a number"),
    ("gamma(1/t) > 0", "relation", True, "gamma's argument"),
    ("exp(t*theta) > 1", "relation", True, "linear"),
    ("exp(10**4*eps) > 1", "relation", True, "linear"),
    ("((t + 1)**1000 - 1)**1000 > 1", "relation", True, "degree"),
    ("f_A(t, alpha, theta, lam) > 0", "relation", True, "engine-backed"),
]

_DOS_SCRIPT = textwrap.dedent("""
    import json, sys, time
    from arete_proofs.chain.expressions import ExpressionError, parse_expression
    parse_expression("exp(-eps/2)*f_A(t, alpha, theta, lam) <= 1", kind="relation")   # warm-up
    for text, kind, exact in json.loads(sys.stdin.read()):
        start = time.monotonic()
        try:
            parse_expression(text, "rhs", kind=kind, exact=exact)
            msg = None
        except ExpressionError as exc:
            msg = str(exc)
        print(json.dumps([msg, time.monotonic() - start]), flush=True)
""")


def test_denial_of_service_forms_are_refused_within_a_second():
    """A hang guard, not a speed claim: unguarded, several of these run for minutes or forever
    (sympy computes 3**(10**8) eagerly); the guards answer in milliseconds, 1 s is the bound."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cases = [[text, kind, exact] for text, kind, exact, _ in DOS]
    try:
        proc = subprocess.run([sys.executable, "-c", _DOS_SCRIPT], input=json.dumps(cases), capture_output=True,
                              text=True, timeout=120, cwd=ROOT, env=env)
    except subprocess.TimeoutExpired as exc:
        done = len((exc.stdout or b"").splitlines()) if exc.stdout else 0
        pytest.fail(f"the parse of {DOS[done][0][:60]!r} did not return")
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == len(DOS)
    for (text, _, _, word), (msg, seconds) in zip(DOS, rows):
        assert msg is not None, f"{text[:60]!r} was accepted"
        assert word in msg and "\n" not in msg and msg.startswith("rhs: "), (text[:60], msg)
        assert seconds < 1.0, (text[:60], seconds)


@pytest.mark.parametrize("text", ["gamma(alpha) <= 1/alpha", "lam <= exp(-eps/4)", "(t + 1)**1000 > 0",
                                  "Abs(t) <= Abs(Delta + t)", "lam <= Min(theta/2, Delta/log(2))"])
def test_hypotheses_within_the_exact_rules_are_accepted(text):
    assert isinstance(parse_expression(text, kind="relation", exact=True), sp.core.relational.Relational)


def test_a_hypothesis_undefined_at_grid_points_leaves_them_out():
    """gamma(t) > 0 compares zoo at t = -1: that point is outside the variant's region, not a crash."""
    v = V.load_text("[[variant]]\nname = 'g'\nstatement = 'lemma-14'\nbound = 'upper'\nhypotheses = "
                    "['alpha > 0', 'theta > 0', 'alpha <= 1', 'D_Gamma > 0', 'gamma(t) > 0']\n")[0]
    pts = v.statement.points("quick")
    assert pts and all(sp.gamma(p[t]) > 0 for p in pts)
    r = V.check(v, level="quick", search=False)
    assert r.verdict == "holds" and r.grid_points > 0


# --------------------------------------------------------------------------
# the registry round-trips (every statement, so a new one is covered)
# --------------------------------------------------------------------------

@pytest.mark.parametrize("sid", STATEMENT_IDS)
def test_every_registry_expression_round_trips(sid):
    s = REGISTRY[sid]
    for b in s.bounds:
        for side in (b.lhs, b.rhs):
            assert V.parse(str(side), kind="expression") == side, (sid, b.name, str(side))
        for w in b.where:
            assert V.parse(str(w), kind="relation") == w, (sid, b.name, str(w))
    for h in s.hypotheses:
        assert V.parse(str(h), kind="relation", exact=True) == h, (sid, str(h))
    for value in s.substitutions.values():
        assert V.parse(str(value)) == value, (sid, str(value))


@pytest.mark.parametrize("sid", STATEMENT_IDS)
def test_every_registry_bound_round_trips_through_a_variant_file(sid):
    s = REGISTRY[sid]
    hyps = ", ".join(f"'''{h}'''" for h in s.hypotheses)
    text = "".join(f"[[variant]]\nname = '{sid} {b.name}'\nstatement = '{sid}'\nbound = '{b.name}'\n"
                   f"lhs = '''{b.lhs}'''\nrhs = '''{b.rhs}'''\nhypotheses = [{hyps}]\n\n" for b in s.bounds)
    vs = V.load_text(text)
    for b, v in zip(s.bounds, vs):
        got = v.statement.bounds[0]
        assert (got.lhs, got.rhs, got.relation, got.where) == (b.lhs, b.rhs, b.relation, b.where), (sid, b.name)
        assert v.statement.hypotheses == s.hypotheses


def test_the_comparison_is_structural():
    """2*lam*(alpha + theta) keeps its sum (one evaluation, as the registry built it), so a parser that
    distributed would fail the round trip; a lone coefficient is distributed by sympy itself."""
    al, th, la = (X.SYMBOLS[k] for k in ("alpha", "theta", "lam"))
    assert V.parse("2*lam*(alpha + theta)") != 2 * la * al + 2 * la * th
    assert V.parse("2*lam*(alpha + theta)") == sp.Mul(2, la, al + th)
    assert V.parse("2*(alpha + theta)") == 2 * al + 2 * th


@pytest.mark.parametrize("text, value", [
    ("0.5", sp.Rational(1, 2)), ("1e-3", sp.Rational(1, 1000)), ("1.0001", sp.Rational(10001, 10000)),
    ("2.50e2", sp.Integer(250)), ("1_000", sp.Integer(1000)), ("-0.5", sp.Rational(-1, 2)), (".25", sp.Rational(1, 4)),
    ("5.", sp.Integer(5)), ("1e300", sp.Integer(10) ** 300), ("1E-300", sp.Rational(1, 10**300)),
    ("0.1", sp.Rational(1, 10)),       # not the binary float 0.1000000000000000055511151231257827...
])
def test_number_literals_are_exact(text, value):
    got = V.parse(text)
    assert got == value and got.is_Rational


def test_kind_of_the_text():
    with pytest.raises(V.VariantError, match="expected an expression, not a relation"):
        V.parse("exp(-eps) <= 1", "lhs", kind="expression")
    with pytest.raises(V.VariantError, match="'alpha \\+ 1' is not a relation"):
        V.parse("alpha + 1", "hypotheses", kind="relation")
    with pytest.raises(V.VariantError, match="chained comparison"):
        V.parse("0 < alpha <= 1", "hypotheses", kind="relation")
    assert V.parse("Ne(t, 0)", kind="relation") == sp.Ne(t, 0)


# --------------------------------------------------------------------------
# the allowed functions evaluate (mpmath directly is the reference)
# --------------------------------------------------------------------------

_MP = {"Abs": abs, "Min": min, "Max": max, "ln": mp.log}
_ELEMENTARY = sorted(set(X.FUNCTIONS) - set(X._PAPER))


@pytest.mark.parametrize("name", _ELEMENTARY)
def test_every_allowed_elementary_function_evaluates(name):
    two = name in ("Min", "Max", "besselk")
    arg = "theta" if name == "acosh" else "t"             # acosh needs >= 1, atanh |x| < 1
    expr = V.parse(f"{name}(t, theta)" if two else f"{name}({arg})")
    fn = numeric([t, theta], expr)
    ref = _MP.get(name) or getattr(mp, name)
    with working_digits(30):
        x, y = mp.mpf(1) / 3, mp.mpf(5) / 2
        want = ref(x, y) if two else ref(y if arg == "theta" else x)
        assert mp.almosteq(fn(x, y), want, rel_eps=mp.mpf(10) ** -25), name


# generated text over the grammar; sympy's parse_expr (with exact decimals) is the independent reference
_LEAVES = st.sampled_from(["alpha", "theta", "lam", "Delta", "eps", "t", "2", "3", "1/2", "0.25", "1.5e-2", "E", "pi"])


def _extend(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*", "/"]), children).map(lambda x: f"({x[0]} {x[1]} {x[2]})"),
        st.tuples(children, st.sampled_from(["2", "3", "-1", "(1/2)", "(-2/3)"])).map(lambda x: f"({x[0]})**{x[1]}"),
        st.tuples(st.sampled_from(["exp", "sqrt", "Abs", "gamma", "log", "tanh"]), children).map(
            lambda x: f"{x[0]}({x[1]})"),
        st.tuples(st.sampled_from(["Min", "Max"]), children, children).map(lambda x: f"{x[0]}({x[1]}, {x[2]})"),
        children.map(lambda c: f"-{c}"),
    )


_POINT = {X.SYMBOLS[k]: sp.Rational(*v) for k, v in
          {"alpha": (3, 7), "theta": (5, 3), "lam": (2, 9), "Delta": (11, 5), "eps": (13, 4), "t": (7, 10)}.items()}


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.recursive(_LEAVES, _extend, max_leaves=10))
def test_generated_expressions_agree_with_sympys_parser(text):
    from sympy.parsing.sympy_parser import parse_expr, rationalize, standard_transformations

    ref = parse_expr(text, local_dict=dict(X.NAMES), transformations=standard_transformations + (rationalize,))
    try:
        got = parse_expression(text)
    except ExpressionError as exc:
        # only the documented refusals: undefined, complex (also Min/Max of a complex value), or over a cap
        assert any(w in str(exc) for w in ("undefined or infinite", "not real", "not comparable", "larger than",
                                           "bits")), str(exc)
        return
    try:
        a, b = sp.N(got.subs(_POINT), 30), sp.N(ref.subs(_POINT), 30)
    except (ValueError, TypeError):                   # e.g. Min of a complex value at the point
        a = b = sp.nan
    assume(a.is_finite and b.is_finite)
    assert abs(a - b) <= sp.Float(10) ** -20 * (1 + abs(b)), (text, got, ref)


# --------------------------------------------------------------------------
# the command line: exit 2, one line on stderr, no traceback
# --------------------------------------------------------------------------

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_exit_2(code, out, err):
    assert code == 2, out + err
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arete: error:"), err


@pytest.mark.parametrize("key, form, construct", [
    ("lhs", "__import__('pathlib').Path('MARKER').touch()", "attribute access"),
    ("rhs", "open('MARKER', 'w')", "unknown name 'open'"),
    ("rhs", "9**9**9", "exponent"),
    ("hypotheses", "__import__('os').system('touch MARKER') > 0", "attribute access"),
])
def test_cli_refuses_an_evil_variant_file(capsys, tmp_path, key, form, construct):
    marker = tmp_path / "pwned"
    value = f"['''{_form(form, marker)}''']" if key == "hypotheses" else f"'''{_form(form, marker)}'''"
    f = tmp_path / "evil.toml"
    f.write_text(f"[[variant]]\nname = 'evil'\nstatement = 'lemma-19'\nbound = 'lower'\n{key} = {value}\n")
    code, out, err = run(capsys, "verify", "--variant", f, "--no-progress")
    _one_line_exit_2(code, out, err)
    assert f"variant 'evil': key '{key}'" in err and construct in err
    assert not marker.exists()


_VAR = "[[variant]]\nname = 'x'\nstatement = 'lemma-19'\nbound = 'lower'\n"


@pytest.mark.parametrize("text, message", [
    ("[[variant]\n", "not valid TOML"),
    ("x = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
    ("", "no [[variant]] table"),
    ("name = 1\n", "unknown top-level key"),
    ("[variant]\nname = 'x'\nstatement = 'lemma-19'\nbound = 'lower'\nlhs = 'exp(-eps/2)'\n", "write [[variant]]"),
    ("variant = 1\n", "key 'variant': expected [[variant]] tables, got an integer"),
    ("variant = [1, 2]\n", "variant 1: expected a table"),
    (_VAR + "lhs = 1\n", "key 'lhs': expected a non-empty string"),
    (_VAR + "lhs = ['exp(-eps)']\n", "key 'lhs': expected a non-empty string"),
    (_VAR + "lhs = 'exp(-eps) <= 1'\n", "key 'lhs': comparison"),
    (_VAR + "lsh = '1'\n", "unknown key(s) lsh"),
    ("[[variant]]\nname = 'x'\nbound = 'lower'\nlhs = '1'\n", "missing key 'statement'"),
    ("[[variant]]\nname = 'x'\nstatement = ['lemma-19']\nbound = 'lower'\nlhs = '1'\n",
     "key 'statement': expected a string, got an array"),
    ("[[variant]]\nname = 'x'\nstatement = 'lemma-19'\nbound = {a = 1}\nlhs = '1'\n",
     "key 'bound': expected a string, got a table"),
    ("[[variant]]\nname = 'x'\nstatement = 'lemma-99'\nbound = 'lower'\nlhs = '1'\n", "unknown statement"),
    ("[[variant]]\nname = {a = 1}\nstatement = 'lemma-19'\nbound = 'lower'\nlhs = '1'\n", "key 'name'"),
    (_VAR + "hypotheses = 'alpha > 0'\n", "key 'hypotheses': expected a list of strings"),
    (_VAR + "hypotheses = [1]\n", "key 'hypotheses': expected a non-empty string"),
    (_VAR + "hypotheses = ['alpha + 1']\n", "not a relation"),
    (_VAR + "hypotheses = ['1 < 2']\n", "always true"),
    (_VAR + "hypotheses = ['Delta > 0'] \n" + _VAR + "lhs = '1'\n", "used twice"),
])
def test_cli_malformed_variant_file_is_one_line_exit_2(capsys, tmp_path, text, message):
    f = tmp_path / "v.toml"
    f.write_text(text)
    with pytest.raises(V.VariantError) as info:
        V.load(f)
    assert message in str(info.value) and "\n" not in str(info.value)
    code, out, err = run(capsys, "verify", "--variant", f, "--no-progress")
    _one_line_exit_2(code, out, err)
    assert message in err


def test_cli_unreadable_variant_files(capsys, tmp_path, monkeypatch):
    f = tmp_path / "v.toml"
    f.write_bytes(b"\xff\xfe[[variant]]\n")
    code, out, err = run(capsys, "verify", "--variant", f, "--no-progress")
    _one_line_exit_2(code, out, err)
    assert "not UTF-8" in err
    monkeypatch.setattr(V, "MAX_FILE_CHARS", 100)
    f.write_text(_VAR + "lhs = 'exp(-eps/2)'\n" + "#" * 200 + "\n")
    code, out, err = run(capsys, "verify", "--variant", f, "--no-progress")
    _one_line_exit_2(code, out, err)
    assert "more than 100 characters" in err
    code, out, err = run(capsys, "verify", "--variant", tmp_path, "--no-progress")     # a directory
    _one_line_exit_2(code, out, err)
    assert "cannot read" in err
