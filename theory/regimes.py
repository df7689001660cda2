"""Step 11: the Section 5 regimes, and the growth exponent of every bound in depth L and width N.

Assumptions (stated, then computed): every layer has kappa = 4 matrices (QK, Vt, M_in, M_out; one head),
all N x N with the same spectrum in every layer; sensitivity gamma = 1; the depth factor is either
bounded (alpha_l = 1) or geometric (alpha_l = ell^{L-1-l}, computed with ell = 2; the exponential rate is
reported per log ell). For the Edelman forms the (2,1) norms are delocalised: ||W||_{2,1} = sqrt(N) ||W||_F.
Regimes (per matrix): rank (p = 0, rank r = 64 fixed), Frobenius (p = 2, ||W||_F = 1 fixed), flat
spectrum (sigma_i = 1 for all N singular values; post hoc p = 0 since sigma s >= 1), power law
(sigma_i = i^{-2}, p = 1 > 1/beta so S_1 <= zeta(2) for every N; bounded by S = 2).
Bounds: ours with l1 aggregation (the proxy: sum_i C_i + sqrt L), ours with l2 aggregation (the assembled
bound's shape: sqrt(sum_i C_i^2) + sqrt L), the Edelman-derived proxy (1 + sum_l alpha_l^{2/3} xi_l)^{3/2},
and the Edelman et al. 2022 bound (sum_l alpha_l^{2/3} kappa_l^{2/3})^{3/2} (logs dropped).
Each exponent is a sympy limit: lim log B / log L (N fixed) and lim log B / log N (L fixed); when the first
is infinite the growth is exponential and lim log B / L, divided by log ell, is reported.
Provenance: derived (under the stated assumptions; the paper's own Section 5 statements were not read).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

import sympy as sp

from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged
from theory.proxy import EDELMAN_PROXY, SUMMAND

L = sp.Symbol("L", positive=True)
N = sp.Symbol("N", positive=True)
l_index = sp.Symbol("l", integer=True, nonnegative=True)
KAPPA = 4
RANK = 64
ELL = 2
"""Per-layer Lipschitz factor of the geometric assumption (alpha_l = ELL^{L-1-l})."""

REGIMES = ("rank", "frobenius", "flat", "power_law")
BOUNDS = ("ours_l1", "ours_l2", "edelman_proxy", "edelman_bound")
ASSUMPTIONS = ("bounded_alpha", "geometric_alpha")


@dataclass(frozen=True)
class RegimeRow:
    """One (regime, bound, assumption) cell: growth exponents in L and N, with the expressions used."""

    regime: str
    bound: str
    assumption: str
    depth: str
    depth_exponent: sp.Expr | None
    depth_rate_per_log_ell: sp.Expr | None
    width_exponent: sp.Expr
    expression_in_L: str
    expression_in_N: str

    def to_json(self) -> dict[str, Any]:
        """The row as plain JSON values (exponents as strings and floats)."""
        return {
            "regime": self.regime,
            "bound": self.bound,
            "assumption": self.assumption,
            "depth": self.depth,
            "depth_exponent": None if self.depth_exponent is None else str(self.depth_exponent),
            "depth_rate_per_log_ell": None
            if self.depth_rate_per_log_ell is None
            else str(self.depth_rate_per_log_ell),
            "width_exponent": str(self.width_exponent),
            "expression_in_L": self.expression_in_L,
            "expression_in_N": self.expression_in_N,
        }


def _summand(p_value: int, schatten: sp.Expr, scale: sp.Expr, width: sp.Expr) -> sp.Expr:
    return SUMMAND.expr.subs(dict(zip(SUMMAND.args, (p_value, schatten, scale, width), strict=True)))


def _regime_spectrum(regime: str, width: sp.Expr) -> tuple[int, sp.Expr, sp.Expr]:
    """(p, S_p, ||W||_{2,1}) of one matrix in the regime, at width N (||W||_{2,1} = sqrt(N) ||W||_F)."""
    if regime == "rank":
        return 0, sp.Integer(RANK), sp.sqrt(width) * sp.sqrt(RANK)
    if regime == "frobenius":
        return 2, sp.Integer(1), sp.sqrt(width)
    if regime == "flat":
        return 0, width, width
    if regime == "power_law":
        return 1, sp.Integer(2), sp.sqrt(width) * sp.sqrt(sp.zeta(4))
    raise ValueError(f"regime {regime!r} is not one of {REGIMES}")


def _alpha(assumption: str, depth: sp.Expr) -> sp.Expr:
    return sp.Integer(1) if assumption == "bounded_alpha" else sp.Integer(ELL) ** (depth - 1 - l_index)


def bound_expression(regime: str, bound: str, assumption: str, depth: sp.Expr, width: sp.Expr) -> sp.Expr:
    """The bound as a closed-form expression of depth and width under the module's assumptions."""
    p_value, schatten, norm21 = _regime_spectrum(regime, width)
    alpha = _alpha(assumption, depth)
    if bound in ("ours_l1", "ours_l2"):
        per_matrix = _summand(p_value, schatten, alpha * depth, width)
        if bound == "ours_l1":
            leading = sp.summation(KAPPA * per_matrix, (l_index, 0, depth - 1))
        else:
            leading = sp.sqrt(sp.summation(KAPPA * per_matrix**2, (l_index, 0, depth - 1)))
        return leading + sp.sqrt(depth)
    xi = KAPPA * norm21 ** sp.Rational(2, 3)
    inner = sp.summation(alpha ** sp.Rational(2, 3) * xi, (l_index, 0, depth - 1))
    if bound == "edelman_proxy":
        return EDELMAN_PROXY.expr.subs(EDELMAN_PROXY.args[0], inner)
    if bound == "edelman_bound":
        return inner ** sp.Rational(3, 2)
    raise ValueError(f"bound {bound!r} is not one of {BOUNDS}")


def _growth_in_depth(expr: sp.Expr) -> tuple[str, sp.Expr | None, sp.Expr | None]:
    log_expr = sp.expand_log(sp.log(expr), force=True)
    rate = sp.limit(log_expr / L, L, sp.oo)
    if rate.is_positive:
        return "exponential", None, sp.simplify(rate / sp.log(ELL))
    exponent = sp.limit(log_expr / sp.log(L), L, sp.oo)
    return "polynomial", sp.nsimplify(exponent), None


@functools.cache
def depth_table() -> tuple[RegimeRow, ...]:
    """Every (regime, bound, assumption) with its growth exponents, computed by sympy limits."""
    rows = []
    fixed_depth = sp.Integer(6)
    fixed_width = sp.Integer(256)
    for regime in REGIMES:
        for bound in BOUNDS:
            for assumption in ASSUMPTIONS:
                in_depth = bound_expression(regime, bound, assumption, L, fixed_width)
                in_width = bound_expression(regime, bound, assumption, fixed_depth, N)
                kind, exponent, rate = _growth_in_depth(in_depth)
                log_width = sp.expand_log(sp.log(in_width), force=True)
                width_exponent = sp.nsimplify(sp.limit(log_width / sp.log(N), N, sp.oo))
                rows.append(
                    RegimeRow(
                        regime,
                        bound,
                        assumption,
                        kind,
                        exponent,
                        rate,
                        width_exponent,
                        str(in_depth),
                        str(in_width),
                    )
                )
    return tuple(rows)


def row(regime: str, bound: str, assumption: str) -> RegimeRow:
    """The table row of one (regime, bound, assumption)."""
    for candidate in depth_table():
        if (candidate.regime, candidate.bound, candidate.assumption) == (regime, bound, assumption):
            return candidate
    raise KeyError(f"no row ({regime}, {bound}, {assumption})")


def _depth_text(entry: RegimeRow) -> str:
    if entry.depth == "exponential":
        return f"exp({entry.depth_rate_per_log_ell} L log ell)"
    return f"L^{entry.depth_exponent}"


def to_markdown(rows: tuple[RegimeRow, ...] | None = None) -> str:
    """The table as GitHub markdown: regime, bound, assumption, growth in L, growth in N."""
    lines = ["| regime | bound | alpha | growth in L | growth in N |", "|---|---|---|---|---|"]
    for entry in rows or depth_table():
        lines.append(
            f"| {entry.regime} | {entry.bound} | {entry.assumption} "
            f"| {_depth_text(entry)} | N^{entry.width_exponent} |"
        )
    return "\n".join(lines)


def to_json(rows: tuple[RegimeRow, ...] | None = None) -> str:
    """The table as a JSON document {"assumptions": ..., "rows": [...], "settlement": ...}."""
    document = {
        "assumptions": __doc__.split("Assumptions")[1].split("Provenance")[0].strip() if __doc__ else "",
        "rows": [entry.to_json() for entry in rows or depth_table()],
        "settlement": settlement(),
    }
    return json.dumps(document, indent=2)


def settlement() -> dict[str, list[str]]:
    """Which cells give sqrt(L), L^{3/2} and exponential depth growth, read off the computed table."""
    found: dict[str, list[str]] = {"sqrt_L": [], "L_3_2": [], "exponential": [], "linear": []}
    for entry in depth_table():
        label = f"{entry.bound} / {entry.regime} / {entry.assumption}"
        if entry.depth == "exponential":
            found["exponential"].append(f"{label}: rate {entry.depth_rate_per_log_ell} log ell")
        elif entry.depth_exponent == sp.Rational(1, 2):
            found["sqrt_L"].append(label)
        elif entry.depth_exponent == sp.Rational(3, 2):
            found["L_3_2"].append(label)
        elif entry.depth_exponent == 1:
            found["linear"].append(label)
    return found


def _check_sqrt_l() -> tuple[bool, object]:
    cells = [row(r, "ours_l2", a) for r in ("rank", "flat") for a in ASSUMPTIONS]
    ok = all(c.depth == "polynomial" and c.depth_exponent == sp.Rational(1, 2) for c in cells)
    return ok, "; ".join(
        f"{c.regime}/{c.assumption}: {_depth_text(c)} from {c.expression_in_L}" for c in cells
    )


def _check_edelman_l32() -> tuple[bool, object]:
    cells = [row(r, b, "bounded_alpha") for r in REGIMES for b in ("edelman_proxy", "edelman_bound")]
    ok = all(c.depth_exponent == sp.Rational(3, 2) for c in cells)
    return ok, "; ".join(f"{c.regime}/{c.bound}: {_depth_text(c)}" for c in cells)


def _check_exponential() -> tuple[bool, object]:
    edelman = [row(r, "edelman_proxy", "geometric_alpha") for r in REGIMES]
    frobenius = row("frobenius", "ours_l1", "geometric_alpha")
    ok = all(c.depth == "exponential" and c.depth_rate_per_log_ell == 1 for c in edelman)
    ok = ok and frobenius.depth == "exponential" and frobenius.depth_rate_per_log_ell == sp.Rational(1, 2)
    rank = row("rank", "ours_l1", "geometric_alpha")
    ok = ok and rank.depth == "polynomial" and rank.depth_exponent == 1
    return ok, (
        f"Edelman (geometric alpha): {[_depth_text(c) for c in edelman]}; "
        f"ours p=2: {_depth_text(frobenius)}; "
        f"ours p=0 (any alpha): {_depth_text(rank)}"
    )


def _check_posthoc_capped_by_rank() -> tuple[bool, object]:
    # 0 is in every grid and C_0 = sqrt(N rank) does not involve the scale s = gamma alpha L, so the post hoc
    # minimum never exceeds the p = 0 cell: at most L (l1) or sqrt(L) (l2) in depth, whatever alpha does.
    at_zero = SUMMAND.expr.subs(SUMMAND.args[0], 0)
    scale_free = SUMMAND.args[2] not in at_zero.free_symbols
    cell = row("rank", "ours_l2", "geometric_alpha")
    ok = scale_free and cell.depth_exponent == sp.Rational(1, 2)
    return ok, f"C_0 = {at_zero}; rank/ours_l2/geometric: {_depth_text(cell)}"


@functools.cache
def lemma() -> Lemma:
    """Step 11: the regimes table and its settlement of sqrt(L), L^{3/2} and exponential depth growth."""
    return Lemma(
        step=11,
        name="section5_regimes",
        title="Section 5 regimes: growth in depth and width of each bound",
        statement=(
            sp.Eq(
                sp.Symbol("e_L"), sp.Limit(sp.log(sp.Function("B")(L)) / sp.log(L), L, sp.oo), evaluate=False
            ),
            sp.Eq(
                sp.Symbol("e_N"), sp.Limit(sp.log(sp.Function("B")(N)) / sp.log(N), N, sp.oo), evaluate=False
            ),
        ),
        assumptions=(
            "kappa = 4 N x N matrices per layer, identical spectra across layers, gamma = 1",
            "bounded alpha (= 1) or geometric alpha_l = 2^{L-1-l}; delocalised (2,1) norms for Edelman",
        ),
        tag=Tagged(
            Provenance.DERIVED, "this toolkit; regimes reconstructed from Sakai & Imaizumi 2026, Sec. 5"
        ),
        checks=(
            Check(
                "sqrt_L_is_l2_at_p0",
                "ours with l2 aggregation and p = 0 grows as sqrt(L), any alpha",
                _check_sqrt_l,
            ),
            Check(
                "posthoc_capped_by_p0",
                "the post hoc minimum is at most the scale-free p = 0 value",
                _check_posthoc_capped_by_rank,
            ),
            Check(
                "edelman_L_3_2",
                "Edelman (proxy and bound) grow as L^{3/2} with bounded alpha",
                _check_edelman_l32,
            ),
            Check(
                "exponential_sources",
                "geometric alpha: Edelman exp(L log ell), ours p>0 exp, ours p=0 not",
                _check_exponential,
            ),
        ),
        notes="The l1 aggregation (the proxy) gives L at p = 0 and L^{3/2} at p = 2 with bounded alpha; "
        "the additive post hoc term is sqrt(L) in both aggregations.",
    )
