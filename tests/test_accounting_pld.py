"""The dp_accounting PLD of Arete noise (arete_proofs.privacy.pld): pessimistic against the exact
hockey stick, the Laplace limit against dp_accounting's own Laplace PLD, and K = 2 against an
independent self-convolution of the privacy-loss distribution (Gauss-Legendre quadrature in t)."""

import json

import numpy as np
import pytest

dp_accounting = pytest.importorskip("dp_accounting")

from arete_proofs.cli import main  # noqa: E402
from arete_proofs.distributions import fast  # noqa: E402
from arete_proofs.noise import make  # noqa: E402
from arete_proofs.privacy import accounting as acc, pld  # noqa: E402
from arete_proofs.privacy.tight import FIGURE_4  # noqa: E402

F6 = FIGURE_4[6]


def N(alpha, theta, lam):
    """The Arete noise of a parameter tuple (the accounting takes noise objects)."""
    return make("arete", alpha=alpha, theta=theta, lam=lam)
H = 1e-3
EPS = [0.25, 1, 2, 3, 4, 5, 5.5, 5.9]


@pytest.fixture(scope="module")
def pld6():
    return pld.noise_pld(N(*F6), 1, value_discretization_interval=H)


@pytest.fixture(scope="module")
def exact6():
    return {e: float(acc.hockey_stick(N(*F6), 1, e, digits=8)) for e in EPS + [e - 2 * H - 1e-8 for e in EPS]}


def _check(delta_pld, exact):
    # never below the exact delta; never above the exact delta at eps - 2h (the loss is rounded up
    # by at most one bin plus the bin's own width): the stated tolerance
    for e in EPS:
        assert delta_pld(e) >= exact[e] * (1 - 1e-12), e
        assert delta_pld(e) <= exact[e - 2 * H - 1e-8] * (1 + 1e-9) + 1e-15, e


@pytest.mark.slow  # the exact delta at 10 points: about 70 s
def test_pld_is_pessimistic_and_tight(pld6, exact6):
    _check(pld6.get_delta_for_epsilon, exact6)
    # a broken variant (the loss rounded down one bin instead of up) is caught
    pmf, h = pld.loss_pmf(N(*F6), 1, value_discretization_interval=H)
    down = dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution.create_from_rounded_probability(
        {k - 2: v for k, v in pmf.items()}, 0.0, h)
    with pytest.raises(AssertionError):
        _check(down.get_delta_for_epsilon, exact6)


def test_laplace_limit_matches_dp_accounting():
    lam = 0.5
    mine = pld.noise_pld(N("1e-9", 1, lam), 1, value_discretization_interval=H)
    ref = dp_accounting.pld.privacy_loss_distribution.from_laplace_mechanism(
        lam, sensitivity=1, value_discretization_interval=H)
    for e in (0.0, 0.5, 1.0, 1.5, 1.9):
        a, b = mine.get_delta_for_epsilon(e), ref.get_delta_for_epsilon(e)
        exact = 1 - np.exp((e - 1 / lam) / 2)  # Laplace: delta(eps) = 1 - e^{(eps - Delta/lam)/2}
        assert a >= exact - 1e-9 and abs(a - b) < 5e-3, e
    # a wrong scale is caught
    wrong = pld.noise_pld(N("1e-9", 1, 0.55), 1, value_discretization_interval=H)
    assert abs(wrong.get_delta_for_epsilon(1.0) - ref.get_delta_for_epsilon(1.0)) > 5e-3


def _independent_two_fold(params, s, eps_list, n=1000):
    """delta_2(eps) = E (1 - e^{eps - L1 - L2})_+ with L ~ law of L(Z): Gauss-Legendre atoms in t."""
    fa = tuple(float(x) for x in params)
    x, w = np.polynomial.legendre.leggauss(40)
    edges = np.concatenate([-np.geomspace(40, 1e-12, n // 2), [0.0], np.geomspace(1e-12, 40, n // 2)])
    lo, hi = edges[:-1], edges[1:]
    t = ((hi - lo)[:, None] * (x[None, :] + 1) / 2 + lo[:, None]).ravel()
    wt = ((hi - lo)[:, None] * w[None, :] / 2).ravel() * fast.pdf(t, *fa)
    L = fast.logpdf(t, *fa) - fast.logpdf(t + s, *fa)
    # the law of L on a uniform grid of step 1e-4 (round to nearest), squared by FFT convolution
    from scipy.signal import fftconvolve

    step = 1e-4
    k = np.round(L / step).astype(np.int64)
    k0 = k.min()
    p1 = np.bincount(k - k0, weights=wt)
    p2 = np.maximum(fftconvolve(p1, p1), 0.0)
    l2 = (np.arange(p2.size) + 2 * k0) * step
    out = [float(np.sum(p2 * np.maximum(0, 1 - np.exp(e - l2)))) for e in eps_list]
    return out


def test_two_fold_against_independent_convolution(pld6):
    eps = [1.0, 4.0, 8.0, 11.0]
    ref = _independent_two_fold(F6, 1.0, eps)
    two = pld.compose(pld6, 2)
    for e, r in zip(eps, ref):
        d = two.get_delta_for_epsilon(e)
        assert d >= r * (1 - 1e-4) and d <= r * 1.05 + 1e-9, (e, d, r)


def test_compose_bad_k(pld6):
    for k in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="K"):
            pld.compose(pld6, k)


def test_cli_account_pld(capsys):
    argv = ["account", "--alpha", F6[0], "--theta", F6[1], "--lam", F6[2], "--epsilon", "5",
            "--compose", "2", "--discretization", "1e-3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("delta <= ") and "upper bound" in out and "discretization 0.001" in out
    assert main(argv + ["--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "pld" and doc["compose"] == 2 and doc["discretization"] == 1e-3
    assert float(doc["delta"]) >= pld.compose(pld.noise_pld(N(*F6), 1, value_discretization_interval=1e-3),
                                                2).get_delta_for_epsilon(5.0)
