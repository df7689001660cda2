"""Step 10: the baselines the paper compares against.

- Edelman-derived proxy (exact, theory.proxy.EDELMAN_PROXY): (1 + sum_l alpha_l^{2/3} xi_l)^{3/2}.
- Edelman, Goel, Kakade & Zhang 2022, multi-layer bound (Thm A.17 as restated by Hu et al. 2024, Lemma F.6;
  reconstructed): log N_inf(eps) <~ log(nT)/eps^2 (sum_l alpha_l^{2/3} kappa_l^{2/3})^3, hence a gap
  ~ sqrt(log(nT)/n) (sum_l alpha_l^{2/3} kappa_l^{2/3})^{3/2} log n. Its (sum x^{2/3})^3 shape is the
  optimal allocation of Maurey entropies (theory.composition, q = 2).
- Bartlett, Foster & Telgarsky 2017 spectral complexity (standard, read in full):
  R_A = (prod_i rho_i ||A_i||_sigma) (sum_i ||A_i^T||_{2,1}^{2/3} / ||A_i||_sigma^{2/3})^{3/2}.
- Trauger & Tewari 2024 (flagged: the theorem was not read; a documented shape only): T-free, (1,1)-norm
  Maurey covers composed like Edelman's, gap ~ sqrt(log N / n) (sum_l c^{2(l-1)/3} M_11^{2/3})^{3/2} log n.
"""

from __future__ import annotations

import functools

import sympy as sp

from theory import _sympy_tools as tools
from theory.composition import eps, optimal_allocation_value, q
from theory.formula import Formula
from theory.lemma import Check, Lemma
from theory.provenance import AUTHORS_CODE, Provenance, Tagged
from theory.proxy import EDELMAN_PROXY

L = sp.Symbol("L", positive=True)
n, T, N = sp.symbols("n T N", positive=True)
x = sp.Symbol("x", positive=True)
alpha_l, kappa_l = sp.symbols("alpha_l kappa_l", positive=True)
l_index = sp.Symbol("l", integer=True, nonnegative=True)

EDELMAN_SOURCE = (
    "Edelman, Goel, Kakade & Zhang 2022 (ICML), Thm A.17, as restated by Hu et al. 2024 Lemma F.6"
)
BFT_SOURCE = "Bartlett, Foster & Telgarsky 2017 (NeurIPS), eq. (1.2) and Thm 1.1"
TT_SOURCE = "Trauger & Tewari 2024 (AISTATS), schematic only: the theorem statement was not read"

_BFT = Tagged(Provenance.STANDARD, BFT_SOURCE)
_c2, _n21 = sp.Symbol("C2", positive=True), sp.Symbol("n21", positive=True)
_spectral_product, _ratio_sum = sp.Symbol("P_sigma", positive=True), sp.Symbol("S_21", positive=True)

BFT_TERM = Formula(
    "bft_term",
    (_n21 / _c2) ** sp.Rational(2, 3),
    (_n21, _c2),
    _BFT,
    "(||W||_{2,1} / ||W||_2)^{2/3}, one matrix's share of the spectral complexity (reference matrix 0)",
)
"""One summand of the Bartlett-Foster-Telgarsky spectral complexity; ||W||_{2,1} is ||A^T||_{2,1} of
BFT17 in the row-vector orientation (W = A^T: the sum of the column 2-norms of W)."""

BFT_SPECTRAL_COMPLEXITY = Formula(
    "bft_spectral_complexity",
    _spectral_product * _ratio_sum ** sp.Rational(3, 2),
    (_spectral_product, _ratio_sum),
    _BFT,
    "R_A = P_sigma S_21^{3/2}: P_sigma = prod_i rho_i ||A_i||_2, S_21 = sum_i BFT_TERM_i",
)
"""The spectral complexity R_A of BFT17 eq. (1.2) from its two aggregates (every rho_i = 1 when used as a
generalization measure, as Jiang et al. 2020 do)."""


def edelman_bound_complexity(layer_terms: sp.Expr) -> sp.Expr:
    """(sum_l alpha_l^{2/3} kappa_l^{2/3})^{3/2} from the inner sum (the gap multiplies it by logs)."""
    return layer_terms ** sp.Rational(3, 2)


def edelman_gap_shape() -> sp.Expr:
    """theory.comparison.EDELMAN_GAP with R = (sum_l alpha_l^{2/3} kappa_l^{2/3})^{3/2} over L layers:
    R/gamma_m sqrt(log(nT)/n) log(n) + sqrt(log(1/delta)/n), constants 1."""
    from theory.comparison import EDELMAN_GAP

    inner = sp.Sum(alpha_l ** sp.Rational(2, 3) * kappa_l ** sp.Rational(2, 3), (l_index, 0, L - 1))
    return EDELMAN_GAP.subs(R=edelman_bound_complexity(inner), n=n, T=T)


def trauger_tewari_gap_shape() -> sp.Expr:
    """sqrt(log N / n) log(n) (sum_l (c^{l} M11)^{2/3})^{3/2}: no T anywhere (flagged shape)."""
    c, m11 = sp.symbols("c M_11", positive=True)
    inner = sp.Sum((c**l_index * m11) ** sp.Rational(2, 3), (l_index, 0, L - 1))
    return sp.sqrt(sp.log(N) / n) * sp.log(n) * inner ** sp.Rational(3, 2)


def _check_edelman_l32() -> tuple[bool, object]:
    proxy = EDELMAN_PROXY.expr.subs(EDELMAN_PROXY.args[0], L * x)
    return tools.limit_equals(proxy / L ** sp.Rational(3, 2), L, sp.oo, x ** sp.Rational(3, 2), direction="-")


def _check_edelman_is_optimal_split() -> tuple[bool, object]:
    # three layers, Maurey entropies kappa_i^2 eps_i^{-2}, sensitivities alpha_i: optimal split = Edelman.
    alphas = sp.symbols("a1:4", positive=True)
    kappas = sp.symbols("k1:4", positive=True)
    optimal = optimal_allocation_value(tuple(zip([k**2 for k in kappas], alphas, strict=True))).subs(q, 2)
    edelman = sum((a * k) ** sp.Rational(2, 3) for a, k in zip(alphas, kappas, strict=True)) ** 3 / eps**2
    return tools.equal(
        sp.simplify(sp.powsimp(optimal, force=True)), sp.simplify(sp.powsimp(edelman, force=True))
    )


def _check_bft_equal_layers() -> tuple[bool, object]:
    rho, s, b = sp.symbols("rho s b", positive=True)
    spectral_complexity = (rho * s) ** L * (L * (b / s) ** sp.Rational(2, 3)) ** sp.Rational(3, 2)
    return tools.equal(
        sp.powsimp(sp.expand_power_base(spectral_complexity, force=True), force=True),
        (rho * s) ** L * L ** sp.Rational(3, 2) * b / s,
    )


def _check_bft_formulas_compose() -> tuple[bool, object]:
    # three matrices: P_sigma * (sum of BFT_TERM)^{3/2} equals the lemma's R_A with rho_i = 1.
    sig, b21 = sp.symbols("s1:4", positive=True), sp.symbols("b1:4", positive=True)
    terms = sum(BFT_TERM.subs(n21=b, C2=c) for b, c in zip(b21, sig, strict=True))
    composed = BFT_SPECTRAL_COMPLEXITY.subs(P_sigma=sp.Mul(*sig), S_21=terms)
    stated = sp.Mul(*sig) * sum(
        (b / c) ** sp.Rational(2, 3) for b, c in zip(b21, sig, strict=True)
    ) ** sp.Rational(3, 2)
    return tools.equal(composed, stated)


def _check_tt_token_free() -> tuple[bool, object]:
    shape = trauger_tewari_gap_shape()
    return T not in shape.free_symbols, f"free symbols {sorted(map(str, shape.free_symbols))}"


@functools.cache
def edelman_token_growth() -> tuple[sp.Expr, sp.Expr]:
    """(ratio, coefficient): lim_{T -> oo} gap / sqrt(log T) of Edelman's shape (sympy) and that limit over
    log n; the gap grows like sqrt(log T) when the coefficient is positive and the limit finite (the sign
    is decided by the prover: theory.paper_proofs.inequalities, token_growth_coefficient_positive)."""
    ratio = sp.limit(edelman_gap_shape().doit() / sp.sqrt(sp.log(T)), T, sp.oo)
    return ratio, sp.simplify(ratio / sp.log(n))  # log n > 0 for the sample sizes of interest (n >= 2)


def _check_edelman_tokens_log() -> tuple[bool, object]:
    ratio, per_log_n = edelman_token_growth()
    return bool(per_log_n.is_positive) and not ratio.has(sp.oo, sp.zoo), f"gap / sqrt(log T) -> {ratio}"


@functools.cache
def edelman_proxy_lemma() -> Lemma:
    """Step 10a: the Edelman-derived proxy (exact)."""
    return Lemma(
        step=10,
        name="edelman_derived_proxy",
        title="Edelman-derived BERT proxy",
        statement=(sp.Eq(sp.Symbol("B_Edelman"), EDELMAN_PROXY.expr, evaluate=False),),
        assumptions=(
            "Xi = sum_l alpha_l^{2/3} xi_l with xi_l the (2,1)-norm terms of theory.proxy.EDELMAN_TERM",
        ),
        tag=Tagged(Provenance.EXACT, AUTHORS_CODE),
        checks=(
            Check("bounded_alpha_gives_L_3_2", "(1 + L x)^{3/2} / L^{3/2} -> x^{3/2}", _check_edelman_l32),
        ),
    )


@functools.cache
def edelman_bound_lemma() -> Lemma:
    """Step 10b: the Edelman et al. 2022 multi-layer bound (reconstructed shape)."""
    return Lemma(
        step=10,
        name="edelman_2022_bound",
        title="Edelman et al. 2022 multi-layer bound (shape)",
        statement=(sp.Le(sp.Symbol("gap"), edelman_gap_shape(), evaluate=False),),
        assumptions=(
            "alpha_l = prod over the other layers of L_sigma C2(C) C2(V) (1 + 4 C2(QK)); constants dropped",
        ),
        tag=Tagged(Provenance.RECONSTRUCTED, EDELMAN_SOURCE),
        checks=(
            Check(
                "optimal_split_shape",
                "(sum (alpha kappa)^{2/3})^3 is the optimal Maurey split",
                _check_edelman_is_optimal_split,
            ),
            Check("tokens_as_log", "the gap grows like sqrt(log T)", _check_edelman_tokens_log),
        ),
    )


@functools.cache
def bft_lemma() -> Lemma:
    """Step 10c: the Bartlett-Foster-Telgarsky spectral complexity (standard)."""
    rho_i, a_i, i = sp.Symbol("rho_i", positive=True), sp.Symbol("A_i"), sp.Symbol("i", integer=True)
    sigma_norm, norm21 = sp.Function("sigma"), sp.Function("norm21")
    complexity = sp.Product(rho_i * sigma_norm(a_i), (i, 1, L)) * sp.Sum(
        norm21(a_i) ** sp.Rational(2, 3) / sigma_norm(a_i) ** sp.Rational(2, 3), (i, 1, L)
    ) ** sp.Rational(3, 2)
    return Lemma(
        step=10,
        name="bft_2017_spectral_complexity",
        title="Bartlett-Foster-Telgarsky 2017 spectral complexity",
        statement=(sp.Eq(sp.Symbol("R_A"), complexity, evaluate=False),),
        assumptions=("feed-forward networks, rho_i-Lipschitz activations, reference matrices 0",),
        tag=Tagged(Provenance.STANDARD, BFT_SOURCE),
        checks=(
            Check("equal_layers", "R_A = (rho s)^L L^{3/2} b / s for equal layers", _check_bft_equal_layers),
            Check(
                "formulas_compose",
                "BFT_SPECTRAL_COMPLEXITY of the BFT_TERMs is R_A (rho_i = 1, three matrices)",
                _check_bft_formulas_compose,
            ),
        ),
    )


@functools.cache
def trauger_tewari_lemma() -> Lemma:
    """Step 10d: Trauger & Tewari 2024, a flagged shape (the statement was not read)."""
    return Lemma(
        step=10,
        name="trauger_tewari_2024_shape",
        title="Trauger & Tewari 2024 (FLAGGED: documented shape, not the theorem)",
        statement=(sp.Le(sp.Symbol("gap"), trauger_tewari_gap_shape(), evaluate=False),),
        assumptions=(
            "(1,1)-norm radius M_11 per layer, layer Lipschitz factor c; schematic, constants unknown",
        ),
        tag=Tagged(Provenance.RECONSTRUCTED, TT_SOURCE),
        checks=(Check("token_length_free", "no T in the shape", _check_tt_token_free),),
        notes="Flagged: only the abstract was read; the exponents follow the Edelman-style composition.",
    )
