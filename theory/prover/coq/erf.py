"""erf in a Coq proof: its values at constants, and each erf(u) of a term as an atom Interval can read.

The file's erf is the preamble's ``sb_erf`` (:data:`theory.prover.coq.preamble.ERF`, the standard
definition 2/sqrt(pi) int_0^x exp(-t^2) dt). Interval has no erf, but it bounds an integral whose ends
are constants (its ``integral`` tactic) and reads a subterm it does not know as a variable bounded by the
hypotheses of the context. So on a closed bounded box, for each erf(u) of a term (innermost first):
Interval proves l <= u <= h, with l and h the kernel's enclosure of u rounded outward to the grid
2^-ERF_BITS (one step more, for Interval's own rounding, unless exact on the grid); erf is increasing
(``sb_erf_le``), so sb_erf l <= sb_erf u <= sb_erf h; and ``integral`` bounds sb_erf l from below and
sb_erf h from above by the kernel's erf at l and h, rounded outward on the same grid (``integral`` does
not reach the kernel's 256 bits). The hypothesis L <= sb_erf u <= U is what Interval then uses for the
atom. Provenance: derived (interval arithmetic with a monotone function, as the kernel's enclosure of erf).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from theory.prover.coq.terms import ERF, rational, term
from theory.prover.kernel import trees
from theory.prover.kernel.verify import PRECISIONS, precision

if TYPE_CHECKING:
    from flint import arb

ERF_BITS = 40
"""erf's bounds (and its arguments' on a closed box) are multiples of 2^-40: Interval's ``integral`` at 64
bits reaches about 2^-50."""
ERF_CONSTANT = f"(first [ rewrite {ERF}_0; lra | unfold {ERF}; integral with (i_prec 64) ])"
"""The tactic of a constant goal L <= sb_erf c or sb_erf c <= U: erf 0 = 0, else the integral at constant
bounds (Interval's ``integral`` does not read an integral from 0 to 0)."""


def outward(value: arb, lower: bool) -> Fraction:
    """The end of an arb ball rounded outward to the grid 2^-ERF_BITS, one step further out; an exact ball
    on the grid is kept (erf 0 = 0: a sign the kernel shows from an end at 0 must not be lost)."""
    grid = Fraction(1, 2**ERF_BITS)
    steps = trees.dyadic(value, lower) / grid
    if value.is_exact() and steps.denominator == 1:
        return grid * steps
    return grid * (math.floor(steps) - 1 if lower else math.ceil(steps) + 1)


def erf_bounds(point: Fraction, lower: bool) -> Fraction:
    """A bound of erf(point) on the grid (below it when ``lower``), which ``ERF_CONSTANT`` proves."""
    return outward(trees.ball(point).erf(), lower)


def atoms(tree: Any, env: trees.Env, positive: Any) -> str:
    """The script asserting L <= sb_erf u <= U for each erf(u) of ``tree`` (innermost first) on the closed
    bounded box ``env``, each proved as the module says; empty when the tree has no erf."""
    steps: list[str] = []
    seen: set[str] = set()
    for argument in _arguments(tree):
        coq = term(argument, positive)
        if coq in seen:
            continue
        seen.add(coq)
        with precision(PRECISIONS[-1]):
            values = trees.enclose(argument, env)
        low, high = outward(values.lo, True), outward(values.hi, False)
        bottom, top = erf_bounds(low, True), erf_bounds(high, False)
        below, above = rational(low), rational(high)
        steps.append(
            f"assert (EF{len(steps) + 1} : {rational(bottom)} <= ({ERF} {coq}) <= {rational(top)}) by ("
            f"assert (A : {below} <= {coq} <= {above}) by interval with (i_prec 64); "
            f"pose proof ({ERF}_le {below} ({coq}) ltac:(lra)); "
            f"pose proof ({ERF}_le ({coq}) {above} ltac:(lra)); "
            f"assert (K : {rational(bottom)} <= {ERF} {below}) by {ERF_CONSTANT}; "
            f"assert (K' : {ERF} {above} <= {rational(top)}) by {ERF_CONSTANT}; lra);\n  "
        )
    return "".join(steps)


def _arguments(tree: Any) -> list[Any]:
    """The arguments u of the erf(u) nodes of a tree, innermost first."""
    if not isinstance(tree, list) or not tree or tree[0] in ("num", "var", "const"):
        return []
    found = [u for arg in tree[1:] for u in _arguments(arg)]
    return [*found, tree[1]] if tree[0] == "erf" else found
