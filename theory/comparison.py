"""Every published bound as a generalization gap on one footing (``specbound compare``).

The footing: with probability >= 1 - delta over n i.i.d. samples of T tokens (rows of norm <= 1), the
gap P(y f(x) <= 0) - (empirical risk at margin gamma_m) of every network of the bound's class is at most
the formula below. Every constant and logarithm is written out; where the cited paper states its theorem
up to unnamed absolute constants, they are set to 1 and the formula says "constants 1". Each formula is
a function of one complexity of the weights (computed by numerics) and of n, delta, gamma_m, T.

- ``BFT_GAP``: Bartlett, Foster & Telgarsky 2017, Lemma A.8 (norms fixed a priori; Thm 1.1 is the post
  hoc version, at a log-log cost): 8/n^{3/2} + 72 ||X||_2 ln(2W) ln(n) R_A / (gamma_m n)
  + 3 sqrt(ln(1/delta)/(2n)), ||X||_2 = sqrt(sum_i ||x_i||^2) <= sqrt(n T) for n inputs of T unit rows,
  W the largest layer width. Standard for feed-forward networks; applied here to the chain of value
  maps and feed-forward matrices of each layer (reconstructed reading: softmax attention, LayerNorm,
  residuals and biases are outside BFT17's class).
- ``EDELMAN_GAP``: Edelman, Goel, Kakade & Zhang 2022, Thm A.17 (as restated by Hu et al. 2024, Lemma
  F.6): complexity / gamma_m * sqrt(ln(nT)/n) ln(n) + sqrt(ln(1/delta)/n), constants 1 (the theorem is
  stated up to absolute constants). Reconstructed.
- ``TRAUGER_TEWARI_GAP``: Trauger & Tewari 2024 (AISTATS), Thm 4.1 shape (flagged: the statement was not
  read): complexity / gamma_m * sqrt(ln(N)/n) ln(n) + sqrt(ln(1/delta)/n), constants 1, no T.
- ``PARAMETER_COUNT_GAP``: finite class of networks whose P weights are b-bit numbers (the
  discretisation trick, Shalev-Shwartz & Ben-David 2014 Remark 4.1), uniform convergence for a finite
  class (ibid. Corollary 4.6, Hoeffding and a union bound): sqrt((b P ln 2 + ln(2/delta)) / (2n)), for
  the 0-1 loss (no margin). Standard; it covers every architecture whose weights are counted.

The assembled bound's GAP_TERM (theory.assembled) is on this footing already (its statement has this
form); the authors' proxies B_ours and B_Edelman (theory.proxy) are complexities without n or delta and
are shown beside the gaps, not converted.
"""

from __future__ import annotations

import sympy as sp

from theory.formula import Formula
from theory.provenance import Provenance, Tagged

n = sp.Symbol("n", positive=True)
T = sp.Symbol("T", positive=True)
delta = sp.Symbol("delta", positive=True)
margin = sp.Symbol("gamma_m", positive=True)
complexity = sp.Symbol("R", positive=True)
"""The bound's complexity of the weights (R_A for BFT17, the (sum ...)^{3/2} of the Maurey bounds)."""
width = sp.Symbol("W", positive=True)
hidden = sp.Symbol("N", positive=True)
parameters = sp.Symbol("P", positive=True)
bits = sp.Symbol("b", positive=True)

BFT_SOURCE = "Bartlett, Foster & Telgarsky 2017 (NeurIPS), Lemma A.8 (Thm 1.1 with constants)"
EDELMAN_SOURCE = (
    "Edelman, Goel, Kakade & Zhang 2022 (ICML), Thm A.17, as restated by Hu et al. 2024 Lemma F.6"
)
TT_SOURCE = "Trauger & Tewari 2024 (AISTATS), Thm 4.1 (flagged: shape only, the statement was not read)"
COUNT_SOURCE = "Shalev-Shwartz & Ben-David 2014, Corollary 4.6 with the discretisation trick (Remark 4.1)"

BITS_PER_WEIGHT = 32
"""b of PARAMETER_COUNT_GAP: float32 weights."""

CONFIDENCE_CONSTANTS_1 = sp.sqrt(sp.log(1 / delta) / n)
"""sqrt(ln(1/delta)/n): the confidence term of a bound stated up to absolute constants, constants 1."""

BFT_GAP = Formula(
    "bft_gap",
    8 / n ** sp.Rational(3, 2)
    + 72 * sp.sqrt(n * T) * sp.log(2 * width) * sp.log(n) * complexity / (margin * n)
    + 3 * sp.sqrt(sp.log(1 / delta) / (2 * n)),
    (complexity, n, T, width, margin, delta),
    Tagged(Provenance.STANDARD, BFT_SOURCE),
    "8/n^{3/2} + 72 sqrt(nT) ln(2W) ln(n) R_A/(gamma_m n) + 3 sqrt(ln(1/delta)/(2n)); ||X||_2 <= sqrt(nT)",
)


def _maurey_gap(log_argument: sp.Expr) -> sp.Expr:
    """R/gamma_m sqrt(ln(A)/n) ln(n) + sqrt(ln(1/delta)/n): the shape both Maurey-type norm bounds share,
    constants 1, with A the argument of their covering logarithm."""
    return complexity / margin * sp.sqrt(sp.log(log_argument) / n) * sp.log(n) + CONFIDENCE_CONSTANTS_1


EDELMAN_GAP = Formula(
    "edelman_gap",
    _maurey_gap(n * T),
    (complexity, n, T, margin, delta),
    Tagged(Provenance.RECONSTRUCTED, EDELMAN_SOURCE),
    "R/gamma_m sqrt(ln(nT)/n) ln(n) + sqrt(ln(1/delta)/n), constants 1; "
    "R = (sum_l alpha_l^{2/3} kappa_l^{2/3})^{3/2}",
)

TRAUGER_TEWARI_GAP = Formula(
    "trauger_tewari_gap",
    _maurey_gap(hidden),
    (complexity, n, hidden, margin, delta),
    Tagged(Provenance.RECONSTRUCTED, TT_SOURCE),
    "R/gamma_m sqrt(ln(N)/n) ln(n) + sqrt(ln(1/delta)/n), constants 1, no T; "
    "R = (sum over matrices of (alpha gamma ||W||_{1,1})^{2/3})^{3/2}",
)

PARAMETER_COUNT_GAP = Formula(
    "parameter_count_gap",
    sp.sqrt((bits * parameters * sp.log(2) + sp.log(2 / delta)) / (2 * n)),
    (parameters, bits, n, delta),
    Tagged(Provenance.STANDARD, COUNT_SOURCE),
    "sqrt((b P ln 2 + ln(2/delta))/(2n)): P weights of b bits each, 0-1 loss",
)

GAP_FORMULAS = (BFT_GAP, EDELMAN_GAP, TRAUGER_TEWARI_GAP, PARAMETER_COUNT_GAP)
"""The published bounds' gaps on the footing (the assembled GAP_TERM lives in theory.assembled)."""

_aggregate = sp.Symbol("X", positive=True)
_alpha, _gamma, _m11 = sp.symbols("alpha gamma M11", positive=True)

MAUREY_COMPLEXITY = Formula(
    "maurey_complexity",
    _aggregate ** sp.Rational(3, 2),
    (_aggregate,),
    Tagged(Provenance.RECONSTRUCTED, EDELMAN_SOURCE),
    "R = X^{3/2}, X = sum of the matrices' (sensitivity x norm)^{2/3}: the optimal split of Maurey covers",
)
"""The complexity of EDELMAN_GAP and TRAUGER_TEWARI_GAP from its inner sum (theory.baselines checks that
(sum (alpha kappa)^{2/3})^3 / eps^2 is the optimal allocation of Maurey entropies)."""

TRAUGER_TEWARI_TERM = Formula(
    "trauger_tewari_term",
    (_alpha * _gamma * _m11) ** sp.Rational(2, 3),
    (_alpha, _gamma, _m11),
    Tagged(Provenance.RECONSTRUCTED, TT_SOURCE),
    "(alpha gamma ||W||_{1,1})^{2/3}: one matrix's share, with the proxies' sensitivities alpha and gamma",
)

PAC_BAYES_SOURCE = (
    "Seeger 2002 / Maurer 2004 (kl form of McAllester's PAC-Bayes theorem); Langford & Caruana 2001 (Monte "
    "Carlo); Dziugaite & Roy 2017 (Gaussian posterior around trained weights, union over prior variances)"
)
_sq_distance, _sigma, _grid = sp.symbols("D sigma G", positive=True)

GAUSSIAN_KL = Formula(
    "gaussian_kl",
    _sq_distance / (2 * _sigma**2),
    (_sq_distance, _sigma),
    Tagged(Provenance.STANDARD, PAC_BAYES_SOURCE),
    "KL(N(w, sigma^2 I) || N(w0, sigma^2 I)) = ||w - w0||^2 / (2 sigma^2), D = ||w - w0||^2",
)

PAC_BAYES_BUDGET = Formula(
    "pac_bayes_budget",
    (complexity + sp.log(2 * sp.sqrt(n) / delta) + sp.log(_grid)) / n,
    (complexity, n, delta, _grid),
    Tagged(Provenance.STANDARD, PAC_BAYES_SOURCE),
    "kl(e_S(Q) || e(Q)) <= (KL + ln(2 sqrt(n)/delta) + ln G)/n: R = KL, G prior variances in the union",
)
"""The right-hand side of the kl-form PAC-Bayes bound, a union bound over G prior variances chosen before
the data; the risk bound is the largest e with kl(e_S || e) <= this (inverted numerically)."""
