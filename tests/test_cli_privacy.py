"""``arete epsilon`` (and, when present, ``arete optimize`` / ``arete compare``)."""

from __future__ import annotations

import json

import pytest
from mpmath import mp

from arete_proofs.privacy import tight as privacy
from arete_proofs.cli import main
from _cli import run  # tests/_cli.py
from arete_proofs.distributions import fast
from arete_proofs.distributions.params import FIGURE_4


def test_epsilon_lines_match_library(capsys):
    a, th, lam = FIGURE_4[8]
    code, out, err = run(capsys, "epsilon", "--alpha", a, "--theta", th, "--lam", lam, "--digits", "8")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("epsilon ") and lines[1].startswith("t_star ")
    ref = privacy.tight_epsilon(a, th, lam, 1, digits=8).epsilon
    assert lines[0].split()[1] == mp.nstr(ref, 8, strip_zeros=False)


def test_epsilon_json_paper_eps_and_sensitivity(capsys):
    code, out, err = run(capsys, "epsilon", "--paper-eps", "20", "--sensitivity", "2", "--digits", "6", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["paper_eps"] == "20" and doc["sensitivity"] == "2"
    # epsilon is rounded to 6 digits, the bounds carry 3 more
    assert abs(float(doc["lower_bound"]) - float(doc["epsilon"])) <= 1e-5 * float(doc["epsilon"])
    assert float(doc["epsilon"]) < 20          # the paper's parameters are eps-DP (Lemma 3)


@pytest.mark.parametrize("argv, message", [
    (["--alpha", "1", "--theta", "1", "--lam", "1", "--sensitivity", "0"], "--sensitivity"),
    (["--alpha", "-1", "--theta", "1", "--lam", "1"], "alpha"),
    (["--alpha", "1", "--theta", "1"], "--lam"),
])
def test_epsilon_bad_input(capsys, argv, message):
    code, _, err = run(capsys, "epsilon", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_epsilon_prints_errors_of_the_parameters(capsys):
    a, th, lam = FIGURE_4[6]
    argv = ["epsilon", "--alpha", a, "--theta", th, "--lam", lam, "--digits", "10"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    lines = dict(line.split() for line in out.splitlines())
    assert list(lines) == ["epsilon", "t_star", "mean_abs", "variance"]
    # exactly --digits significant digits
    for key in ("mean_abs", "variance"):
        assert len(lines[key].replace("0.", "", 1).lstrip("0").replace(".", "")) == 10, lines[key]
    # E|Z| against the float64 implementation (independent of the mpmath closed form),
    # Var Z = 2 alpha theta^2 + 2 lam^2 (Lemma 3) evaluated here
    assert abs(float(lines["mean_abs"]) / fast.mean_abs(float(a), float(th), float(lam)) - 1) < 1e-9
    with mp.workdps(40):
        var = 2 * mp.mpf(a) * mp.mpf(th) ** 2 + 2 * mp.mpf(lam) ** 2
    assert lines["variance"] == mp.nstr(var, 10, strip_zeros=False) == "0.06587368861"
    # --json has the same strings
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert {k: doc[k] for k in lines} == lines


def test_optimize_lines_and_json(capsys):
    code, out, err = run(capsys, "optimize", "--paper-eps", "8", "--json")
    assert code == 0, err
    doc = json.loads(out)
    for key in ("alpha", "theta", "lam", "epsilon", "mean_abs", "variance"):
        assert key in doc
    assert float(doc["epsilon"]) <= 8
    # better than Laplace (Delta/eps) at the same epsilon, worse than the paper's parameters' privacy
    assert float(doc["mean_abs"]) < 1 / 8
    assert doc["paper_lemma3_applies"] == "false"


def test_compare_table(capsys):
    code, out, err = run(capsys, "compare", "--epsilon", "20")
    assert code == 0, err
    labels = [line.split()[1] for line in out.splitlines()[1:]]
    assert labels == ["arete-optimized", "laplace", "staircase", "arete-paper"]


def _fake_optimize(eps, Delta=1, *, objective="mean_abs", digits=12, seed=None):
    """Stand-in for the 5-30 s optimizer (tested in tests/test_optimize.py): Laplace(Delta/eps) plus
    Gamma-Gamma noise is eps-DP (Lemma 26 and post-processing), so epsilon = eps is a valid bound."""
    from arete_proofs.distributions import arete
    from arete_proofs.privacy.optimize import Optimum

    e = mp.mpf(eps)
    a, th, lam = 0.01, 0.5 * float(Delta), float(mp.mpf(Delta) / e)
    return Optimum(a, th, lam, e, arete.mean_abs(a, th, lam, digits=digits), arete.var(a, th, lam, digits=digits),
                   objective, 0, 0.0, float(e), float(Delta), 1)


#: text column -> JSON field of an entry
_TEXT_TO_JSON = {"E|Z|": "mean_abs", "Var Z": "variance", "eps*": "epsilon_exact"}


def _text_lines(out):
    """The text table as (eps, noise, {column: value}) with the parameters column split into its k=v."""
    import re

    header, *rows = [ln for ln in out.splitlines() if not ln.startswith("note: ")]   # notes follow the table
    assert re.split(r"\s{2,}", header.strip()) == ["eps", "noise", "E|Z|", "Var Z", "parameters"]
    lines = []
    for row in rows:
        eps, noise, m, v, params = re.split(r"\s{2,}", row.strip())
        cols = {"E|Z|": m, "Var Z": v, **dict(kv.split("=") for kv in params.split())}
        lines.append((eps, noise, {_TEXT_TO_JSON.get(k, k): x for k, x in cols.items()}))
    return lines


def _json_lines(doc):
    lines = []
    for row in doc["rows"]:
        for entry in row["entries"]:
            noise = entry["noise"] + (f" ({doc['objective']})" if entry["noise"] == "arete-optimized" else "")
            cols = {k: entry[k] for k in ("mean_abs", "variance", "epsilon_exact") if k in entry}
            lines.append((row["eps"], noise, {**cols, **entry["parameters"]}))
    return lines


def _assert_same_table(text_lines, json_lines):
    """Every line of the text table is in the JSON with the same columns and the same values
    (the text has 6 significant digits, eps* 8; the JSON 12 or the optimizer's exact floats)."""
    assert [(t[1]) for t in text_lines] == [j[1] for j in json_lines]
    for (teps, noise, tcols), (jeps, _, jcols) in zip(text_lines, json_lines):
        assert set(tcols) == set(jcols), (noise, set(tcols) ^ set(jcols))
        assert abs(mp.mpf(teps) / mp.mpf(jeps) - 1) < 1e-5
        for k, x in tcols.items():
            assert abs(mp.mpf(x) / mp.mpf(jcols[k]) - 1) < 1e-5, (noise, k, x, jcols[k])


def test_compare_json_has_every_field_of_the_text_table(capsys, monkeypatch):
    from arete_proofs.privacy import optimize

    monkeypatch.setattr(optimize, "optimize", _fake_optimize)
    argv = ["compare", "--epsilon", "20", "--figure-4", "--objective", "variance"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    text = _text_lines(out)
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["figure_4"] is True and doc["objective"] == "variance"
    lines = _json_lines(doc)
    _assert_same_table(text, lines)
    # what the table holds: Laplace / Staircase (both gammas) / optimized at every eps, the paper's
    # parameters at 20 (Lemma 3), and each Figure-4 set at its exact eps*
    assert [t[1] for t in text[:4]] == ["arete-optimized (variance)", "laplace", "staircase", "arete-paper"]
    assert {"gamma_mean_abs", "gamma_var"} <= set(text[2][2])
    figure = [t for t in text if t[1] == "arete-figure-4"]
    assert len(figure) == 3 and len(text) == 4 + 3 * 4
    for (eps, _, cols), nominal in zip(figure, sorted(FIGURE_4)):
        ref = privacy.tight_epsilon(*FIGURE_4[nominal], 1, digits=8).epsilon
        assert cols["epsilon_exact"] == mp.nstr(ref, 8, strip_zeros=False)
        assert eps == mp.nstr(ref, 6)
        assert [mp.almosteq(mp.mpf(cols[k]), mp.mpf(v), 1e-5) for k, v in zip(("alpha", "theta", "lam"),
                                                                                FIGURE_4[nominal])] == [True] * 3
    # the check fails when the JSON drops a field or changes a value
    for broken in ("gamma_var", "variance"):
        bad = json.loads(json.dumps(doc))
        entry = bad["rows"][0]["entries"][2]
        entry["parameters"].pop(broken, None) if broken == "gamma_var" else entry.update(variance="1")
        with pytest.raises(AssertionError):
            _assert_same_table(text, _json_lines(bad))


@pytest.mark.parametrize("argv, message", [
    (["optimize", "--epsilon", "0"], "eps"), (["optimize", "--epsilon", "8", "--sensitivity", "-1"], "--sensitivity"),
    (["compare", "--epsilon", "-2"], "eps"), (["optimize"], "--epsilon"),
    (["compare"], "--figure-4"), (["compare", "--figure-4", "--sensitivity", "2"], "Delta"),
    (["compare", "--epsilon", "8", "--paper-eps", "8"], "--paper-eps"),
])
def test_optimize_compare_bad_input(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("arete: error:") and message in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- arete certify / density --certified

FIG6 = ["--alpha", "0.07559007048913552", "--theta", "0.6295929433519876", "--lam", "0.05453349704921005"]


def test_certify_target_met_and_not_met(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    from arete_proofs.cli import main

    assert main(["certify", *FIG6, "--target", "6", "--no-numeric", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "certified bound" in out and "target           6.0: met" in out
    # a target below the tight epsilon 5.99966478... cannot be certified: exit 1
    assert main(["certify", *FIG6, "--target", "5.9996", "--no-numeric", "--quiet", "--max-seconds", "30"]) == 1
    assert "NOT met" in capsys.readouterr().out


def test_certify_text_prints_bounds_outward_and_numeric_with_its_digits(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    from arete_proofs.cli import certify

    assert main(["certify", "--paper-eps", "20", "--quiet"]) == 0
    text = capsys.readouterr().out
    code, out, err = run(capsys, "certify", "--paper-eps", "20", "--quiet", "--json")
    assert code == 0, err
    doc = json.loads(out)
    lines = {line[:16].strip(): line[16:].split() for line in text.splitlines()}
    upper, lower, numeric = lines["certified bound"][2], lines["certified lower"][2], lines["numeric tight"][2]
    # the certified floats, printed with 15 digits rounded outward, still bound them (compared exactly)
    from decimal import Decimal
    from fractions import Fraction

    assert Fraction(Decimal(upper)) >= Fraction(doc["upper"]) and Fraction(Decimal(lower)) <= Fraction(doc["lower"])
    assert len(upper.replace(".", "")) == len(lower.replace(".", "")) == certify.BOUND_DIGITS
    # the engine's value has the 10 digits it was computed to (tight_epsilon(..., digits=10)), not a repr
    assert numeric == mp.nstr(mp.mpf(doc["numeric"]), 10) and len(numeric.replace(".", "")) == 10
    assert doc["numeric_digits"] == certify.NUMERIC_DIGITS == 10


def test_certify_json(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    import json

    from arete_proofs.cli import main

    assert main(["certify", "--paper-eps", "20", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "cover" and doc["lower"] <= doc["numeric"] <= doc["upper"] < 20
    assert doc["meets_target"] is None and doc["gap"] < 1e-3


def test_density_certified(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    from arete_proofs.cli import main

    assert main(["density", "--alpha", "0.5", "--theta", "2", "--lam", "0.5", "--certified", "--digits", "12",
                 "0", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("+/-" in line for line in lines)
    assert lines[1].split()[1] == "[0.17499448472967"  # the engine's 0.174994484729674...
    # --json: the ball's endpoints rounded outward (round to nearest printed both as ...674)
    assert main(["density", "--alpha", "0.5", "--theta", "2", "--lam", "0.5", "--certified", "--digits", "12",
                 "--json", "1"]) == 0
    point = json.loads(capsys.readouterr().out)["points"][0]
    assert point["lower"] == "0.174994484729674" and point["upper"] == "0.174994484729675"
    # --certified is for the density only; alpha >= 1 is refused with the parameter named
    assert main(["density", "--alpha", "0.5", "--theta", "2", "--lam", "0.5", "--certified", "--cdf", "1"]) == 2
    assert main(["density", "--alpha", "1.5", "--theta", "2", "--lam", "0.5", "--certified", "1"]) == 2
    assert "alpha" in capsys.readouterr().err


def test_certify_paper_eps_uses_exact_parameters(capsys):
    pytest.importorskip("flint", reason="optional extra 'certified' (python-flint) not installed")
    import json

    from arete_proofs.cli import main

    assert main(["certify", "--paper-eps", "30", "--sensitivity", "10", "--target", "30", "--json", "--quiet",
                 "--no-numeric"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "+/-" in doc["exact_parameters"]["alpha"] and doc["exact_parameters"]["theta"] == "4/3"
    assert doc["meets_target"] is True
