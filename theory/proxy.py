"""The BERT-adapted proxies of docs: proxies, exactly as the authors' experiment computes them.

Provenance ``exact``: each expression below is the formula of the authors' code
(``manasakai/spectrum-adaptive-transformers``, ``bounds.py``), typed once here and nowhere else.
numerics evaluates these very expressions on weights; theory's lemmas compare them with what the
reconstructed derivation yields.

Symbols (all positive unless stated):

- ``p`` in [0, 2], the Schatten index; ``S`` the Schatten power sum sum_i sigma_i^p (the rank at p = 0);
- ``s`` the scale gamma * alpha * L; ``N`` the hidden dimension; ``L`` the depth;
- ``C_QK, C_V, C_in, C_out`` spectral norms of QK_h, Vt_h, M_in, M_out in one layer;
- ``n21`` the (2,1) norm of the matrix in question; ``L_phi`` the activation's Lipschitz bound (1.13).
"""

from __future__ import annotations

import sympy as sp

from theory.formula import Formula
from theory.grid import grid_fractions
from theory.kinds import MatrixKind as MatrixKind
from theory.mixture import MIXTURE_FEED_FORWARD_NORM as MIXTURE_FEED_FORWARD_NORM
from theory.mixture import MIXTURE_LIPSCHITZ as MIXTURE_LIPSCHITZ
from theory.provenance import AUTHORS_CODE, Provenance, Tagged

_EXACT = Tagged(Provenance.EXACT, AUTHORS_CODE)

p = sp.Symbol("p", nonnegative=True)
S = sp.Symbol("S", positive=True)
s = sp.Symbol("s", positive=True)
N = sp.Symbol("N", positive=True)
L = sp.Symbol("L", positive=True)
C_QK, C_V, C_in, C_out = sp.symbols("C_QK C_V C_in C_out", positive=True)
n21 = sp.Symbol("n21", nonnegative=True)
L_phi = sp.Symbol("L_phi", positive=True)
gamma, alpha = sp.symbols("gamma alpha", positive=True)
head_sum = sp.Symbol("A", positive=True)
leading, xi_total = sp.symbols("Sigma Xi", nonnegative=True)

L_PHI_VALUE = sp.Rational(113, 100)
"""L_phi = 1.13, the authors' upper bound on sup |GELU'| (exact; theory checks that it dominates)."""

SUMMAND = Formula(
    "summand",
    S ** (1 / (p + 2)) * s ** (p / (p + 2)) * N ** ((p + 1) / (p + 2)),
    (p, S, s, N),
    _EXACT,
    "C_p(W; s, N) = S_p(W)^{1/(p+2)} s^{p/(p+2)} N^{(p+1)/(p+2)}, with S_0 := rank W",
)

HEAD_LIPSCHITZ = Formula(
    "head_lipschitz",
    C_V * (1 + 4 * C_QK),
    (C_V, C_QK),
    _EXACT,
    "per-head factor C2(Vt_h) (1 + 4 C2(QK_h)) of the depth factor",
)

LAYER_LIPSCHITZ = Formula(
    "layer_lipschitz",
    L_phi * C_in * C_out * head_sum,
    (L_phi, C_in, C_out, head_sum),
    _EXACT,
    "per-layer factor L_phi C2(M_in) C2(M_out) A, A = sum over heads of the head factor; "
    "alpha_l is the product of this factor over the layers k > l (alpha_{L-1} = 1)",
)

GAMMA = {
    MatrixKind.QK: Formula(
        "gamma_QK",
        2 * C_V * C_out * C_in,
        (C_V, C_out, C_in),
        _EXACT,
        "gamma(QK_h) = 2 C2(Vt_h) C2(M_out) C2(M_in)",
    ),
    MatrixKind.VT: Formula(
        "gamma_Vt", C_out * C_in, (C_out, C_in), _EXACT, "gamma(Vt_h) = C2(M_out) C2(M_in)"
    ),
    MatrixKind.M_IN: Formula("gamma_M_in", C_out, (C_out,), _EXACT, "gamma(M_in) = C2(M_out)"),
    MatrixKind.M_OUT: Formula("gamma_M_out", sp.Integer(1), (), _EXACT, "gamma(M_out) = 1"),
}
"""The sensitivity gamma of each matrix kind (docs: proxies)."""

SCALE = Formula("scale", gamma * alpha * L, (gamma, alpha, L), _EXACT, "s = gamma alpha_l L")

EDELMAN_TERM = {
    MatrixKind.QK: Formula(
        "xi_QK",
        (C_out * C_in * C_V * n21) ** sp.Rational(2, 3),
        (C_out, C_in, C_V, n21),
        _EXACT,
        "(C2(M_out) C2(M_in) C2(Vt_h) ||QK_h||_{2,1})^{2/3}",
    ),
    MatrixKind.VT: Formula(
        "xi_Vt",
        (C_out * C_in * n21) ** sp.Rational(2, 3),
        (C_out, C_in, n21),
        _EXACT,
        "(C2(M_out) C2(M_in) ||Vt_h||_{2,1})^{2/3}",
    ),
    MatrixKind.M_IN: Formula(
        "xi_M_in",
        (C_out * n21) ** sp.Rational(2, 3),
        (C_out, n21),
        _EXACT,
        "(C2(M_out) ||M_in||_{2,1})^{2/3}",
    ),
    MatrixKind.M_OUT: Formula("xi_M_out", n21 ** sp.Rational(2, 3), (n21,), _EXACT, "||M_out||_{2,1}^{2/3}"),
}
"""The per-matrix terms of xi_l in the Edelman-derived proxy; xi_l is their sum over one layer."""

EDELMAN_LAYER_WEIGHT = Formula(
    "edelman_layer_weight", alpha ** sp.Rational(2, 3), (alpha,), _EXACT, "alpha_l^{2/3}, the weight of xi_l"
)

EDELMAN_PROXY = Formula(
    "B_edelman",
    (1 + xi_total) ** sp.Rational(3, 2),
    (xi_total,),
    _EXACT,
    "B_Edelman = (1 + Xi)^{3/2}, Xi = sum_l alpha_l^{2/3} xi_l",
)

OURS_PROXY = Formula(
    "B_ours",
    leading + sp.sqrt(L),
    (leading, L),
    _EXACT,
    "B_ours = Sigma + sqrt(L), Sigma = sum over all matrices of min_{p in P_m} C_p",
)

GRID_M = Formula(
    "grid_m",
    sp.ceiling(L + sp.log(N)),
    (L, N),
    _EXACT,
    "m = ceil(L + ln N); the grid is P_m = {0, 1/m, ..., 2}",
)


def grid(m: int) -> tuple[sp.Rational, ...]:
    """The post hoc grid P_m of :func:`theory.grid.grid_fractions` as sympy Rationals (2m + 1 points; exact).

    >>> [str(x) for x in grid(2)]
    ['0', '1/2', '1', '3/2', '2']
    """
    return tuple(sp.Rational(q.numerator, q.denominator) for q in grid_fractions(m))
