"""Claim 1: C_p at p = 0 equals sqrt(N rank W), does not depend on s, and is right-continuous at 0.

With S_0 := rank W (the authors' convention), C_0 = S^{1/2} N^{1/2}; the scale s = gamma alpha L enters
only through s^{p/(p+2)}, which is 1 at p = 0. Right-continuity: with S_p = sum_{i<=r} sigma_i^p for r
positive singular values, lim_{p->0+} C_p = sqrt(N r) = C_0. Checked by sympy on the exact summand of
the authors' code (theory.proxy.SUMMAND); provenance derived.
"""

from __future__ import annotations

import sympy as sp

from paper_checks.claims._symbolic import is_identity
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.formula import Formula
from theory.proxy import SUMMAND, N, S, p, s

ID = "1"
TITLE = "C_p at p = 0 equals sqrt(N rank W), does not depend on s, and is right-continuous at 0"


def check(summand: Formula = SUMMAND, witness_rank: int = 3) -> ClaimResult:
    """Decide claim 1 for ``summand`` (a formula in p, S, s, N); ``witness_rank`` positive singular values
    are used for the right-limit."""
    at_zero = summand.expr.subs(p, 0)
    equals_rank_term, difference = is_identity(at_zero, sp.sqrt(N * S))
    s_derivative = sp.simplify(sp.diff(at_zero, s))
    sigmas = sp.symbols(f"sigma1:{witness_rank + 1}", positive=True)
    right_limit = sp.limit(summand.expr.subs(S, sum(x**p for x in sigmas)), p, 0, "+")
    continuous, limit_gap = is_identity(right_limit, at_zero.subs(S, witness_rank))
    holds = equals_rank_term and s_derivative == 0 and continuous
    details = {
        "C_0": str(at_zero),
        "C_0 - sqrt(N S_0)": difference,
        "dC_0/ds": str(s_derivative),
        f"lim p->0+ C_p with S_p = sum of {witness_rank} sigma_i^p": str(right_limit),
        "limit - C_0(rank)": limit_gap,
    }
    evidence = (
        f"C_0 = {at_zero}, dC_0/ds = {s_derivative}, lim_(p->0+) C_p = {right_limit} "
        f"(rank {witness_rank} witness)"
    )
    return ClaimResult(
        ID,
        TITLE,
        Verdict.VERIFIED if holds else Verdict.REFUTED,
        f"derived (sympy) on the {summand.tag.provenance.value} summand '{summand.name}'",
        evidence,
        details,
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
