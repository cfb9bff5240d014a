"""The texts of the generated proof pages (our words, after the paper's proofs).

:data:`KIND` (the ``prf:`` directive per statement), :data:`OUTLINES` (a short
proof outline per registry id) and :data:`CHAIN_OVERVIEW` (the introduction of
``proof-chain.md``). Text only: the pages are assembled in :mod:`arete_docs_pages`.
"""

from __future__ import annotations

#: Directive kind per id (default: lemma).
KIND = {"corollary-5": "corollary", "note-2": "remark"}

#: A short proof outline per statement, faithful to the paper's proof.
OUTLINES = {
    "lemma-2": (
        "The Arete distribution is the sum of two Gamma variables (one negated) and a Laplace "
        "variable, all infinitely divisible, so the sum is infinitely divisible with a continuous "
        "density (Section 3.2). The density is a convolution of symmetric functions, hence "
        "symmetric around 0 (Lemmas 11-12, Corollary 13). Convolving symmetric unimodal densities "
        "keeps them unimodal, which gives that $f_A$ decreases for $t > 0$."
    ),
    "lemma-3": (
        "The privacy bullet is Lemma 19 (the ratio for a shift of exactly $\\Delta$) combined with "
        "the monotonicity of $f_A$ (Lemma 2): for $|a| \\le \\Delta$ the point $t + a$ is never "
        "farther from 0 than $t + \\Delta$ once $f_A(t) \\ge f_A(t+a)$, so the ratio for $a$ is at "
        "most the ratio for $\\Delta$ (Section 4.2). The error bullet uses the triangle inequality, "
        "$E|Z| \\le 2E[X_1] + E|Y| = 2\\alpha\\theta + \\lambda$, and the variance adds over the "
        "independent parts: $2\\alpha\\theta^2 + 2\\lambda^2$ (Section 4.3)."
    ),
    "corollary-5": (
        "The error is Lemma 3's bound on $E|Z|$ with the paper's parameters, "
        "$8\\Delta e^{-\\varepsilon/4}/\\varepsilon + e^{-\\varepsilon/4}$. For privacy, the "
        "probability of any output set under neighbouring inputs is compared pointwise through "
        "the densities: the shift between the two outputs is at most $\\Delta$, and Lemma 3 bounds "
        "the density ratio for every shift $|a| \\le \\Delta$ by $e^{\\varepsilon}$ (Section 3)."
    ),
    "lemma-14": (
        "Write $f_{\\Gamma-\\Gamma}(t) = \\int_0^\\infty f_\\Gamma(|t| + x) f_\\Gamma(x)\\,dx$ "
        "(Definition 7). For the upper bound, $f_\\Gamma(|t| + x) \\le f_\\Gamma(|t|)$ and the "
        "remaining integral is 1. For the lower bound, cut the integral at $D_\\Gamma$ and use "
        "$f_\\Gamma(|t| + x) \\ge f_\\Gamma(|t| + D_\\Gamma)$ on $[0, D_\\Gamma]$; what remains is "
        "$c_{D_\\Gamma}$. Both steps need $f_\\Gamma$ decreasing, i.e. $\\alpha \\le 1$."
    ),
    "lemma-15": (
        "Insert Lemma 14's lower bound into $f_A = f_{\\Gamma-\\Gamma} * f_L$ and keep only "
        "$x \\in (0, 2(t+\\Delta))$, where $|t + \\Delta - x| \\le t + \\Delta$, so the Gamma "
        "factor is at least $f_\\Gamma(t + \\Delta + D_\\Gamma)$. Because $t + \\Delta \\ge "
        "\\Delta/2$, the Laplace mass left is at least $\\int_0^\\Delta f_L = \\tfrac12 P(\\mathrm{Exp}"
        "(\\lambda) \\le \\Delta) \\ge 1/4$ when the exponential median $\\lambda\\ln 2$ is at most "
        "$\\Delta$; this is $c_L$."
    ),
    "lemma-16": (
        "Bound the numerator with Lemma 14's upper bound and the denominator with its lower bound, "
        "then split the numerator's convolution at distance $D_u$ from $t$ (Appendix C.1). On the "
        "two outer parts $|t - x| \\ge D_u$, so the Gamma factor changes by at most "
        "$e^{(\\Delta + D_\\Gamma)/\\theta}(1 + (\\Delta + D_\\Gamma)/D_u)$ when the argument is "
        "shifted by $\\Delta + D_\\Gamma$, which is compared term by term with the denominator. The "
        "near part $|t - x| < D_u$ is Claim 1."
    ),
    "claim-1": (
        "On the near interval the Laplace density is at most $f_L(|t| - D_u)$, which leaves the "
        "Gamma mass $c_{D_u}$ (eq. (6)); the denominator is at least "
        "$f_\\Gamma(D_\\Gamma + |t + \\Delta|) c_L$ by the argument of Lemma 15. Filling in the "
        "densities and using $|t + \\Delta| \\le |t| + \\Delta$ leaves a factor "
        "$g(|t|) = (D_\\Gamma + \\Delta + |t|)^{1-\\alpha} e^{-|t|(1/\\lambda - 1/\\theta)}$, which "
        "Lemma 28 with $\\kappa = D_u$ bounds by $g(D_u)$."
    ),
    "lemma-17": (
        "For $|t| \\le D_u$, bound $f_A(t)$ from above by Lemma 14 and split the convolution into "
        "$x \\notin (0, 2|t|)$, where the Laplace factor is at most $f_L(t)$, and $x \\in (0, 2|t|)$, "
        "where the integral is computed after dropping $e^{x(1/\\lambda - 1/\\theta)}$ terms "
        "(Appendix C.2). Dividing by Lemma 15's lower bound and using $|t + \\Delta| \\le |t| + "
        "\\Delta$, $|t| \\le D_u$ and Lemma 28 with $\\kappa = 0$ gives the bound."
    ),
    "lemma-18": (
        "The gap hypothesis of Lemmas 16 and 17 follows from $\\lambda \\le \\theta/2$ and "
        "$\\theta \\le D_\\Gamma + \\Delta$, so both apply and the ratio is at most the larger of "
        "their bounds (Appendix C.3). Using $\\theta \\le D_\\Gamma + \\Delta$ once more, choosing "
        "$D_u = \\alpha\\theta$ (the Gamma mean), $c_L = 1/4$, $1 \\le c_{D_u} \\le 2$ and finally "
        "$\\Gamma(\\alpha) \\le 1/\\alpha$ merges the two maxima into the single bound."
    ),
    "note-2": (
        "Euler's product writes $\\Gamma(\\alpha) = \\frac{1}{\\alpha}\\prod_{n \\ge 1} "
        "(1 + 1/n)^\\alpha / (1 + \\alpha/n)$. For $0 < \\alpha \\le 1$ each factor is at most 1 "
        "by Bernoulli's inequality $(1 + 1/n)^\\alpha \\le 1 + \\alpha/n$, so the product is at most "
        "1."
    ),
    "lemma-19": (
        "Take $D_\\Gamma = \\alpha\\theta$, the Gamma mean, which is at least the median (Chen and "
        "Rubin 1986), so $c_{D_\\Gamma} \\ge 1/2$; Lemma 18 then gives eq. (8) (Appendix C.4). "
        "The assumptions (9) ($\\theta \\le \\Delta/(1 - \\alpha)$, $\\lambda \\le \\min(\\theta/2, "
        "\\Delta/\\ln 2)$, $\\alpha \\le 1/2$, $\\Gamma(\\alpha) \\le 1/\\alpha$) give "
        "$2\\alpha\\theta + \\Delta \\le 3\\Delta$ and the bound $48\\Delta e^{\\Delta/\\theta}"
        "e^{2\\alpha}/(\\alpha\\lambda)$. With $\\alpha = \\lambda = e^{-\\varepsilon/4}$, "
        "$\\theta = 4\\Delta/\\varepsilon$ this is at most $e^{\\varepsilon}$ when "
        "$\\varepsilon \\ge 20 + 4\\ln\\Delta$ (eq. (10)); the lower bound and $t < -\\Delta/2$ "
        "follow by symmetry."
    ),
    "lemma-26": (
        "The Laplace density ratio is $e^{(|t + a| - |t|)/\\lambda} \\le e^{|a|/\\lambda}$ by the "
        "triangle inequality, which is at most $e^{\\varepsilon}$ for $|a| \\le \\Delta$ and "
        "$\\lambda = \\Delta/\\varepsilon$ (a standard result the paper cites, Dwork et al. 2006)."
    ),
    "lemma-27": (
        "Within every interval of length $\\Delta$ the Staircase density takes two values whose "
        "ratio is $e^{\\varepsilon}$, and it drops by $e^{-\\varepsilon}$ per period, so two points "
        "at distance at most $\\Delta$ have density ratio at most $e^{\\varepsilon}$; $a(\\gamma)$ "
        "makes the geometric series of the steps integrate to 1 (Geng and Viswanath 2016, cited "
        "by the paper)."
    ),
    "lemma-28": (
        "The logarithm of $g$ is concave with derivative "
        "$(1 - \\alpha)/(D_\\Gamma + \\Delta + t) - (1/\\lambda - 1/\\theta)$, which vanishes at "
        "$t^* = (1 - \\alpha)/(1/\\lambda - 1/\\theta) - (D_\\Gamma + \\Delta)$, so $g$ decreases "
        "for $t \\ge t^*$ (Appendix C). The gap hypothesis says "
        "$\\kappa \\ge 1/(1/\\lambda - 1/\\theta) - (\\Delta + D_\\Gamma) \\ge t^*$, hence "
        "$g(t) \\le g(\\kappa)$ for all $t \\ge \\kappa$."
    ),
}

CHAIN_OVERVIEW = """\
The paper's main result, Lemma 3, is a bound on the privacy loss
$f_A(t)/f_A(t+a)$ of Arete noise with the parameters
$\\alpha = \\lambda = e^{-\\varepsilon/4}$, $\\theta = 4\\Delta/\\varepsilon$.
Section 4 and Appendix C prove it in layers:

* Lemma 14 sandwiches the Gamma-Gamma density between shifted Gamma
  densities; since no closed form of $f_{\\Gamma-\\Gamma}$ is used, every later
  step works with these two bounds.
* Lemma 15 turns the lower bound into a lower bound on $f_A(t+\\Delta)$: the
  Laplace part contributes at least a quarter of its mass ($c_L = 1/4$).
* Lemmas 16 and 17 bound the ratio $f_A(t)/f_A(t+\\Delta)$ far from 0
  ($|t| \\ge D_u$, with Claim 1 for the near part of the convolution) and near 0
  ($|t| \\le D_u$); both rely on the monotonicity fact of Lemma 28.
* Lemma 18 merges the two with $D_u = \\alpha\\theta$, using Note 2
  ($\\Gamma(\\alpha) \\le 1/\\alpha$) as a hypothesis.
* Lemma 19 chooses $D_\\Gamma = \\alpha\\theta$ and the paper's parameters and
  shows the bound is at most $e^{\\varepsilon}$ once
  $\\varepsilon \\ge 20 + 4\\ln\\Delta$; Lemma 3 follows with the monotonicity of
  $f_A$ (Lemma 2), and Corollary 5 is the resulting mechanism.

Lemmas 26 and 27 (Laplace and Staircase mechanisms) are the baselines the
paper compares with. The hand-written overview of how each link is checked is
{doc}`/explanation/verification`.
"""
