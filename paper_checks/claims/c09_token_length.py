"""Claim 9: the token length T enters the bound only through log T.

Checked on theory's assembled bound (reconstructed Theorem 3.1, :data:`theory.assembled.GAP_TERM`):
(a) structurally, every occurrence of T sits inside a logarithm (the expression with each log(...)
containing T replaced by a fresh symbol has no T left); (b) asymptotically, the bound grows no faster
than log T: lim_{T -> oo} bound / log(T) is finite (sympy). Refuted when (a) fails or the limit is
infinite; open when sympy returns the limit unevaluated (undecided). Provenance: derived, under the
reconstructed Theorem 3.1 (T enters through the Maurey covering's log(nT) factor, Zhang 2002 Thm 4).
"""

from __future__ import annotations

import sympy as sp

from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.formula import Formula

ID = "9"
TITLE = "Token length T enters only through log T (as sqrt(log T) in the assembled bound)"


def logs_removed(expr: sp.Expr, token: sp.Symbol) -> sp.Expr:
    """``expr`` with every log(...) that contains ``token`` replaced by a fresh symbol."""
    replaced = expr
    for index, log_term in enumerate(sorted(expr.atoms(sp.log), key=str)):
        if token in log_term.free_symbols:
            replaced = replaced.subs(log_term, sp.Symbol(f"ell_{index}", positive=True))
    return replaced


def check(bound: Formula | None = None, token_name: str = "T") -> ClaimResult:
    """Decide claim 9 for ``bound`` (default: the assembled bound's GAP_TERM) in the symbol ``token_name``."""
    if bound is None:
        from theory.assembled import GAP_TERM

        bound = GAP_TERM
    token = next((a for a in bound.args if str(a) == token_name), None)
    if token is None:
        return ClaimResult(
            ID,
            TITLE,
            Verdict.VERIFIED,
            f"derived, on {bound.name} ({bound.tag.provenance.value})",
            f"{bound.name} does not depend on {token_name} at all",
            {"expression": str(bound.expr)},
        )
    outside_logs = logs_removed(bound.expr, token)
    structural = token not in outside_logs.free_symbols
    others = {a: sp.Integer(2) for a in bound.args if a != token}
    concrete = bound.expr.subs(others)
    growth = sp.limit(concrete / sp.log(token), token, sp.oo)
    root = sp.limit(concrete / sp.sqrt(sp.log(token)), token, sp.oo)
    decided = growth.is_finite is not None and not growth.has(sp.Limit)
    where = "only inside logarithms" if structural else "outside a logarithm"
    if not structural or (decided and not growth.is_finite):
        verdict = Verdict.REFUTED
    elif not decided:
        verdict = Verdict.OPEN
        where += " (sympy could not decide the limit: open)"
    else:
        verdict = Verdict.VERIFIED
    return ClaimResult(
        ID,
        TITLE,
        verdict,
        f"derived (sympy), on {bound.name} ({bound.tag.provenance.value}: assembled Theorem 3.1)",
        f"{token_name} occurs {where}; with the other arguments set to 2, lim_(T->oo) bound/log T = {growth} "
        f"and lim_(T->oo) bound/sqrt(log T) = {root}",
        {
            "expression": str(bound.expr),
            "expression_with_T_logs_removed": str(outside_logs),
            "limit_bound_over_log_T": str(growth),
            "limit_bound_over_sqrt_log_T": str(root),
        },
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
