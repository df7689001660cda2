"""Claim 3: the exponents 1/(p+2), p/(p+2), (p+1)/(p+2) of S_p, s, N are monotone on [0, 2].

The exponent of each factor X in {S, s, N} is read off the exact summand as its elasticity
X d(log C_p)/dX (so a retyped exponent cannot disagree with the formula). The claim holds when each
elasticity is free of X (a pure power), has the sign of its derivative in p constant on (0, 2)
(decided by sympy after p = 2t/(1+t)), and takes the stated endpoint values: S: 1/2 -> 1/4 decreasing;
s: 0 -> 1/2 increasing; N: 1/2 -> 3/4 increasing. Provenance derived, on the exact summand.
"""

from __future__ import annotations

import sympy as sp

from paper_checks.claims._symbolic import elasticity, sign_on_interval
from paper_checks.registry import Claim, ClaimResult, Verdict
from theory.formula import Formula
from theory.proxy import SUMMAND, N, S, p, s

ID = "3"
TITLE = "Exponents 1/(p+2), p/(p+2), (p+1)/(p+2) are monotone on [0, 2] with the stated endpoint values"

STATED = {
    "S_p": (S, sp.Rational(1, 2), sp.Rational(1, 4), -1),
    "s": (s, sp.Integer(0), sp.Rational(1, 2), 1),
    "N": (N, sp.Rational(1, 2), sp.Rational(3, 4), 1),
}
"""The claim as stated in docs/claims.md: factor -> (symbol, value at p=0, value at p=2, direction)."""


def check(summand: Formula = SUMMAND) -> ClaimResult:
    """Decide claim 3 for ``summand`` (a formula in p, S, s, N)."""
    rows = {}
    failures = []
    for name, (symbol, at_zero, at_two, direction) in STATED.items():
        exponent = elasticity(summand.expr, symbol)
        sign = sign_on_interval(sp.diff(exponent, p), p, 0, 2)
        ends = (sp.simplify(exponent.subs(p, 0)), sp.simplify(exponent.subs(p, 2)))
        ok = symbol not in exponent.free_symbols and sign == direction and ends == (at_zero, at_two)
        rows[name] = {
            "exponent": str(exponent),
            "sign of d/dp on (0,2)": sign if sign is not None else "undecided",
            "p=0": str(ends[0]),
            "p=2": str(ends[1]),
            "matches": ok,
        }
        if not ok:
            failures.append(f"{name}: exponent {exponent}, ends {ends[0]} -> {ends[1]}, sign {sign}")
    summary = "; ".join(f"{k}: {v['exponent']} ({v['p=0']} -> {v['p=2']})" for k, v in rows.items())
    return ClaimResult(
        ID,
        TITLE,
        Verdict.REFUTED if failures else Verdict.VERIFIED,
        f"derived (sympy) on the {summand.tag.provenance.value} summand '{summand.name}'",
        ("mismatch: " + "; ".join(failures)) if failures else summary,
        {"exponents": rows},
    )


CLAIM = Claim(ID, TITLE, lambda context: check())
