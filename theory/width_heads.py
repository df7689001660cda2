"""Width in the paper's scaling: fixed head dimension d_h = 64, so H = N / 64 heads (theory.regimes' width
table holds H = 1).

Every per-head quantity is fixed as N grows: each QK_h and Vt_h has d_h singular values equal to 1
(spectral norm 1, S_p = d_h, ||W||_F = sqrt(d_h), (2,1) norm delocalised sqrt(N) ||W||_F); the
feed-forward matrices are flat and full rank (sigma_i = 1, rank N, ||W||_F = sqrt(N), (2,1) norm
sqrt(cols) ||W||_F: 2N for the N x 4N M_in, N for M_out). The depth factors are computed from these
norms with the authors' formulas (theory.proxy: LAYER_LIPSCHITZ, HEAD_LIPSCHITZ, EDELMAN_TERM), so the
layer factor 1.13 * 5 H grows like N. Then

- B_ours at p = 0 (in every grid, so the post hoc B_ours is at most this): L (2 H sqrt(N d_h) + 2 N) +
  sqrt(L) = L (N^{3/2} / 4 + 2 N) + sqrt(L), growing like N^{3/2} at every depth;
- B_Edelman = (1 + sum_l alpha_l^{2/3} xi_l)^{3/2} with alpha_0 ~ N^{L-1} and xi_l ~ N^{4/3}: like N^{L+1}.

The growth exponents are derived by theory.growth; the local exponents log2(B(2N)/B(N)) are numbers at a
stated N. Provenance: derived (under the stated assumptions on the spectra).
"""

from __future__ import annotations

import functools
import math

import sympy as sp

from theory.growth import growth
from theory.kinds import MatrixKind
from theory.proxy import (
    EDELMAN_LAYER_WEIGHT,
    EDELMAN_PROXY,
    EDELMAN_TERM,
    HEAD_LIPSCHITZ,
    L_PHI_VALUE,
    LAYER_LIPSCHITZ,
    OURS_PROXY,
    SUMMAND,
)

N = sp.Symbol("N", positive=True)
HEAD_DIM = 64
DEPTHS = (1, 2, 4, 6, 12)
LOCAL_WIDTHS = (4096, 8192)
"""The pair of widths at which the local exponent log2(B(8192) / B(4096)) is reported."""


def _heads() -> sp.Expr:
    return N / HEAD_DIM


def ours(depth: int) -> sp.Expr:
    """B_ours at p = 0 on the fixed-d_h model of the module docstring (an upper bound of the post hoc one)."""
    attention = SUMMAND.subs(p=0, S=HEAD_DIM, s=1, N=N)
    feed_forward = SUMMAND.subs(p=0, S=N, s=1, N=N)
    leading = depth * (2 * _heads() * attention + 2 * feed_forward)
    return OURS_PROXY.subs(Sigma=leading, L=depth)


def edelman(depth: int) -> sp.Expr:
    """B_Edelman on the fixed-d_h model, alpha from the model's norms (all spectral norms 1)."""
    head = HEAD_LIPSCHITZ.subs(C_V=1, C_QK=1)
    layer = LAYER_LIPSCHITZ.subs(L_phi=L_PHI_VALUE, C_in=1, C_out=1, A=_heads() * head)
    attention_21 = sp.sqrt(N) * sp.sqrt(HEAD_DIM)
    xi = _heads() * (
        EDELMAN_TERM[MatrixKind.QK].subs(C_out=1, C_in=1, C_V=1, n21=attention_21)
        + EDELMAN_TERM[MatrixKind.VT].subs(C_out=1, C_in=1, n21=attention_21)
    )
    xi += EDELMAN_TERM[MatrixKind.M_IN].subs(C_out=1, n21=2 * N) + EDELMAN_TERM[MatrixKind.M_OUT].subs(n21=N)
    total = sp.Add(*(EDELMAN_LAYER_WEIGHT.subs(alpha=layer ** (depth - 1 - k)) * xi for k in range(depth)))
    return EDELMAN_PROXY.subs(Xi=total)


def local_exponent(expr: sp.Expr, low: int = LOCAL_WIDTHS[0], high: int = LOCAL_WIDTHS[1]) -> float:
    """log(B(high) / B(low)) / log(high / low), at 30 digits."""
    ratio = (expr.subs(N, high) / expr.subs(N, low)).evalf(30)
    return float(sp.log(ratio).evalf(30)) / math.log(high / low)


@functools.cache
def table() -> tuple[dict[str, object], ...]:
    """Per depth: the growth exponents in N (theory.growth) and the local exponents at LOCAL_WIDTHS."""
    rows = []
    for depth in DEPTHS:
        ours_expr, edelman_expr = ours(depth), edelman(depth)
        rows.append(
            {
                "L": depth,
                "ours_exponent": str(growth(ours_expr, N).power),
                "edelman_exponent": str(growth(edelman_expr, N).power),
                "ours_local": round(local_exponent(ours_expr), 3),
                "edelman_local": round(local_exponent(edelman_expr), 3),
            }
        )
    return tuple(rows)


def to_markdown() -> str:
    """The fixed-d_h width table as GitHub markdown."""
    low, high = LOCAL_WIDTHS
    lines = [
        f"Width at fixed d_h = {HEAD_DIM} (H = N/{HEAD_DIM}, per-head quantities fixed; B_ours at p = 0):",
        "",
        f"| L | ours: N exponent | ours: local {low}-{high} | B_Edelman: N exponent "
        f"| B_Edelman: local {low}-{high} |",
        "|---|---|---|---|---|",
    ]
    for row in table():
        lines.append(
            f"| {row['L']} | {row['ours_exponent']} | {row['ours_local']:.3f} | {row['edelman_exponent']} "
            f"| {row['edelman_local']:.3f} |"
        )
    return "\n".join(lines)
