"""Step 5: Lipschitz constants of GELU, softmax and attention.

- GELU(x) = x Phi(x): GELU'' = phi(x) (2 - x^2) vanishes at +-sqrt 2, so sup GELU' = GELU'(sqrt 2) =
  Phi(sqrt 2) + sqrt 2 phi(sqrt 2) = 1/2 + erf(1)/2 + e^{-1}/sqrt(pi) ~ 1.12890 and inf GELU' = GELU'(-sqrt 2)
  ~ -0.12890; hence |GELU'| <= 1.13 = L_phi, certified with interval arithmetic (mpmath.iv and the
  alternating series of erf(1)). Also |GELU(x)| <= |x| (0 <= Phi <= 1). Derived.
- softmax: ||softmax(u) - softmax(v)||_1 <= 2 ||u - v||_inf (Edelman et al. 2022, Cor. A.7): the Jacobian
  is J = diag(a) - a a^T, (J h)_i = a_i (h_i - a.h), so ||J h||_1 = sum_i a_i |h_i - a.h| <= 2 ||h||_inf.
  Standard; the Jacobian identity is checked.
- attention on token rows of norm <= 1: X -> softmax(X QK X^T) X Vt is C2(Vt) (1 + 4 C2(QK))-Lipschitz in
  the max-row-norm metric: value path C2(Vt), score path 2 (softmax) x 2 C2(QK) (the bilinear logits
  x_t QK x_j^T move by <= 2 C2(QK) eps) x C2(Vt). Standard (Edelman et al. 2022); the sum equals the
  exact per-head factor theory.proxy.HEAD_LIPSCHITZ.
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from theory import _sympy_tools as tools
from theory.lemma import Check, Lemma
from theory.provenance import Derivation, Provenance, Tagged
from theory.proxy import C_QK, C_V, HEAD_LIPSCHITZ, L_PHI_VALUE

x = sp.Symbol("x", real=True)
PHI = (1 + sp.erf(x / sp.sqrt(2))) / 2
GELU = x * PHI
EDELMAN_SOURCE = "Edelman, Goel, Kakade & Zhang 2022 (ICML), Cor. A.7 and the attention Lipschitz lemma"


@functools.cache
def gelu_derivative_extrema() -> tuple[sp.Expr, sp.Expr]:
    """(sup GELU', inf GELU') in closed form, from the zeros of GELU''."""
    first = sp.diff(GELU, x)
    critical = sp.solve(sp.diff(first, x), x)
    values = [sp.simplify(first.subs(x, c)) for c in critical]
    return max(values, key=lambda v: float(v)), min(values, key=lambda v: float(v))


def certified_gelu_sup_upper(terms: int = 12) -> mpmath.mpf:
    """A certified upper bound of sup GELU' = 1/2 + erf(1)/2 + e^{-1}/sqrt(pi), by interval arithmetic.

    erf(1) = (2/sqrt(pi)) sum_n (-1)^n / (n! (2n+1)) is alternating with decreasing terms, so a partial sum
    ending on a positive term is an upper bound; every operation is an mpmath.iv interval.

    >>> certified_gelu_sup_upper() < 1.13
    True
    """
    iv = mpmath.iv
    saved, iv.dps = iv.dps, 40
    try:
        partial = iv.mpf(0)
        for n_term in range(2 * terms + 1):  # ends on n = 2*terms, a positive term
            partial += iv.mpf((-1) ** n_term) / (iv.mpf(mpmath.factorial(n_term)) * (2 * n_term + 1))
        root_pi = iv.sqrt(iv.pi)
        upper = iv.mpf(1) / 2 + partial / root_pi + iv.exp(iv.mpf(-1)) / root_pi
        return mpmath.mpf(upper.b)
    finally:
        iv.dps = saved


def _check_critical_points() -> tuple[bool, object]:
    critical = sp.solve(sp.diff(GELU, x, 2), x)
    return set(critical) == {-sp.sqrt(2), sp.sqrt(2)}, f"GELU'' = 0 at {critical}"


def _check_sup_closed_form() -> tuple[bool, object]:
    top, _ = gelu_derivative_extrema()
    expected = sp.Rational(1, 2) + sp.erf(1) / 2 + sp.exp(-1) / sp.sqrt(sp.pi)
    limits = (sp.limit(sp.diff(GELU, x), x, sp.oo), sp.limit(sp.diff(GELU, x), x, -sp.oo))
    ok, witness = tools.equal(top, expected)
    return ok and limits == (1, 0), f"{witness}; GELU'(+oo) = {limits[0]}, GELU'(-oo) = {limits[1]}"


def _check_certified() -> tuple[bool, object]:
    upper = certified_gelu_sup_upper()
    _, bottom = gelu_derivative_extrema()
    low_ok = float(bottom) > -float(L_PHI_VALUE)
    return bool(
        upper < mpmath.mpf(113) / 100 and low_ok
    ), f"sup GELU' <= {mpmath.nstr(upper, 12)} < 1.13; inf = {bottom}"


def _check_gelu_below_identity() -> tuple[bool, object]:
    # |GELU(x)| = |x| Phi(x) with 0 <= Phi <= 1: Phi integrates a positive density of total mass 1.
    t = sp.Symbol("t", real=True)
    density = sp.exp(-(t**2) / 2) / sp.sqrt(2 * sp.pi)
    mass = sp.integrate(density, (t, -sp.oo, sp.oo))
    cdf_matches = tools.equal(sp.diff(PHI, x), density.subs(t, x))
    return tools.all_of(
        [
            ("density > 0", (bool(density.is_positive), density)),
            ("total mass = 1", (mass == 1, mass)),
            ("Phi' = density", cdf_matches),
        ]
    )


def _check_softmax_jacobian() -> tuple[bool, object]:
    u = sp.symbols("u1:4", real=True)
    h = sp.symbols("h1:4", real=True)
    denominator = sum(sp.exp(ui) for ui in u)
    a = [sp.exp(ui) / denominator for ui in u]
    directional = [sum(sp.diff(a[i], u[j]) * h[j] for j in range(3)) for i in range(3)]
    mean = sum(a[j] * h[j] for j in range(3))
    residues = [sp.simplify(directional[i] - a[i] * (h[i] - mean)) for i in range(3)]
    # sum_i a_i |h_i - a.h| <= sum_i a_i |h_i| + |a.h| <= 2 max|h| since sum_i a_i = 1.
    total = sp.simplify(sum(a) - 1)
    return all(
        r == 0 for r in residues
    ) and total == 0, f"J h - a*(h - a.h) = {residues}; sum a - 1 = {total}"


def _check_attention_constant() -> tuple[bool, object]:
    eps = sp.Symbol("epsilon", positive=True)
    value_path = C_V * eps
    logits_move = 2 * C_QK * eps  # |x_t QK x_j^T - x'_t QK x'_j^T| <= (||x_t - x'_t|| + ||x_j - x'_j||) C_QK
    score_path = 2 * logits_move * C_V  # softmax l_inf -> l_1 constant 2, rows of X Vt have norm <= C_V
    return tools.equal((value_path + score_path) / eps, HEAD_LIPSCHITZ.expr)


def _derive_gelu_statement() -> tuple[sp.Basic, ...]:
    """Re-derive the three parts: sup GELU' (sp.solve, sp.simplify), the bound 1.13 (interval arithmetic),
    and |GELU(x)| <= |x| from 0 <= Phi <= 1 (Phi' > 0 by sp.diff, end values by sp.limit)."""
    top = gelu_derivative_extrema.__wrapped__()[0]
    below = bool(certified_gelu_sup_upper() < mpmath.mpf(113) / 100)
    increasing = bool(sp.diff(PHI, x).is_positive)
    ends = (sp.limit(PHI, x, -sp.oo), sp.limit(PHI, x, sp.oo)) == (0, 1)
    return (
        sp.Eq(sp.Symbol("sup GELU'"), top, evaluate=False),
        (sp.Le if below else sp.Gt)(top, L_PHI_VALUE, evaluate=False),
        (sp.Le if increasing and ends else sp.Gt)(sp.Abs(GELU), sp.Abs(x), evaluate=False),
    )


@functools.cache
def gelu_lemma() -> Lemma:
    """Step 5a: GELU is L_phi = 1.13 Lipschitz (derived, certified)."""
    top, _ = gelu_derivative_extrema()
    return Lemma(
        step=5,
        name="gelu_lipschitz",
        title="GELU Lipschitz constant",
        statement=(
            sp.Eq(sp.Symbol("sup GELU'"), top, evaluate=False),
            sp.Le(top, L_PHI_VALUE, evaluate=False),
            sp.Le(sp.Abs(GELU), sp.Abs(x), evaluate=False),
        ),
        assumptions=("GELU(x) = x Phi(x), Phi the standard normal distribution function",),
        tag=Tagged(
            Provenance.DERIVED,
            "this toolkit (sympy + mpmath.iv); L_phi = 1.13 from the authors' code",
            Derivation("sp.solve, sp.limit and interval arithmetic", _derive_gelu_statement),
        ),
        checks=(
            Check("critical_points", "GELU'' vanishes exactly at -sqrt 2 and sqrt 2", _check_critical_points),
            Check("sup_closed_form", "sup GELU' = Phi(sqrt 2) + sqrt 2 phi(sqrt 2)", _check_sup_closed_form),
            Check("certified_below_1_13", "interval upper bound of sup GELU' < 1.13", _check_certified),
            Check("gelu_below_identity", "|GELU(x)| <= |x|", _check_gelu_below_identity),
        ),
    )


@functools.cache
def softmax_lemma() -> Lemma:
    """Step 5b: softmax is 2-Lipschitz from l_inf to l_1 (standard)."""
    u, v = sp.symbols("u v")
    softmax = sp.Function("softmax")
    return Lemma(
        step=5,
        name="softmax_lipschitz",
        title="Softmax l_inf -> l_1 Lipschitz constant",
        statement=(sp.Le(sp.Symbol("||softmax(u) - softmax(v)||_1"), 2 * sp.Symbol("||u - v||_inf")),),
        assumptions=("u, v in R^T, any T",),
        tag=Tagged(Provenance.STANDARD, EDELMAN_SOURCE),
        checks=(Check("jacobian_identity", "J h = a (h - a.h) for T = 3", _check_softmax_jacobian),),
        notes=f"{softmax(u)} - {softmax(v)}: mean value theorem along the segment with the Jacobian bound",
    )


@functools.cache
def attention_lemma() -> Lemma:
    """Step 5c: attention is C2(Vt)(1 + 4 C2(QK))-Lipschitz on unit token rows (standard)."""
    return Lemma(
        step=5,
        name="attention_lipschitz",
        title="Attention Lipschitz constant on unit-norm rows",
        statement=(sp.Le(sp.Symbol("Lip(attention)"), HEAD_LIPSCHITZ.expr, evaluate=False),),
        assumptions=(
            "token rows ||x_t|| <= 1; metric max_t ||x_t - x'_t||; C_V = C2(Vt_h), C_QK = C2(QK_h)",
            "multi-head: the Lipschitz constants add over heads (the exact BERT alpha sums them)",
        ),
        tag=Tagged(Provenance.STANDARD, EDELMAN_SOURCE),
        checks=(
            Check(
                "constant_matches_proxy",
                "value path + score path = HEAD_LIPSCHITZ",
                _check_attention_constant,
            ),
        ),
    )
