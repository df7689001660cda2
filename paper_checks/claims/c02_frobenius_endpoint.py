"""Claim 2: C_p at p = 2 equals N^{3/4} (s ||W||_F)^{1/2}.

At p = 2, S_2 = sum sigma_i^2 = ||W||_F^2, so C_2 = (||W||_F^2)^{1/4} s^{1/2} N^{3/4}. Checked by sympy
on the exact summand of the authors' code (theory.proxy.SUMMAND); provenance derived.
"""

from __future__ import annotations

import sympy as sp

from paper_checks.claims._symbolic import is_identity
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.formula import Formula
from theory.proxy import SUMMAND, N, S, p, s

ID = "2"
TITLE = "C_p at p = 2 equals N^(3/4) (s ||W||_F)^(1/2)"


def check(summand: Formula = SUMMAND) -> ClaimResult:
    """Decide claim 2 for ``summand`` (a formula in p, S, s, N)."""
    frobenius = sp.Symbol("F", positive=True)
    at_two = sp.simplify(summand.expr.subs(p, 2).subs(S, frobenius**2))
    target = N ** sp.Rational(3, 4) * sp.sqrt(s * frobenius)
    holds, difference = is_identity(at_two, target)
    return ClaimResult(
        ID,
        TITLE,
        Verdict.VERIFIED if holds else Verdict.REFUTED,
        f"derived (sympy) on the {summand.tag.provenance.value} summand '{summand.name}'",
        f"C_2 with S_2 = F^2 simplifies to {at_two}; C_2 - N^(3/4) (s F)^(1/2) = {difference}",
        {"C_2": str(at_two), "target": str(target), "difference": difference},
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
