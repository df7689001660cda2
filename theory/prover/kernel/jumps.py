"""Floor and ceiling split at the points where their argument crosses an integer.

A decision ``{"method": "jump", "variable": v, "pieces": [D_0, ..., D_2n]}`` on a box B with v's range
[lo, hi] finite (lo < hi, v a real variable) holds when the gap is defined on B and:

- N, the first floor or ceiling node of the gap in pre-order, has an argument u whose exact normal form
  on B (B's point ranges substituted) is a*v + b with rationals a != 0, b: u depends on v alone there;
- the breakpoints lo = s_0 < s_1 < ... < s_n = hi are lo, hi and every v in (lo, hi) where u is an
  integer ((k - b)/a for the integers k strictly between u(lo) and u(hi); at most MAX_JUMPS);
- the pieces alternate points and open intervals: D_2i decides the gap on the face v = s_i (null when
  s_i is an open end of the domain), D_2i+1 on B with v in the open interval (s_i, s_i+1), each with N
  replaced by the number it equals there: at a point, floor(u(s_i)) (ceiling(u(s_i))); on an open
  interval, floor (ceiling) of u at its midpoint.

Why sound: u is affine and strictly monotone in v, so on (s_i, s_i+1) its values lie strictly between
u(s_i) and u(s_i+1), with no integer among them (every integer u takes inside (lo, hi) is at a
breakpoint); floor and ceiling are constant on an open interval free of integers. Every point of B has
v at a breakpoint or in one open interval, where the gap equals the replaced one, decided >= 0 (> 0).
``floor(x/2) + floor((x + 1)/2) <= x`` over [0, 2]: floor(x/2) is 0 at 0, on (0, 2), 1 at 2; then
floor((x + 1)/2) splits (0, 2) at 1; each piece is a line enclosed >= 0, touching 0 at x = 0, 1, 2.
Provenance: derived (the definition of floor and ceiling).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from theory.prover.kernel import cases, polynomial, verify
from theory.prover.kernel.balls import infinite
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box, Variable, decide, defined, show, undefined

ROUNDINGS = ("floor", "ceiling")
MAX_JUMPS = 64


def breakpoints(slope: Fraction, offset: Fraction, lo: Fraction, hi: Fraction) -> list[Fraction] | None:
    """lo, the v in (lo, hi) where slope * v + offset is an integer, and hi, ascending; None for more than
    MAX_JUMPS inner points."""
    ends = sorted((slope * lo + offset, slope * hi + offset))
    first, last = math.floor(ends[0]) + 1, math.ceil(ends[1]) - 1
    if last - first + 1 > MAX_JUMPS:
        return None
    inner = sorted((Fraction(k) - offset) / slope for k in range(first, last + 1))
    return [lo, *inner, hi]


def rounded(op: str, value: Fraction) -> int:
    return math.floor(value) if op == "floor" else math.ceil(value)


def pieces(
    tree: Any, box: Box, domain: dict[str, Variable], name: str
) -> list[tuple[Any, Box, dict[str, Variable]] | None] | str:
    """For each piece in order (point, open interval, point, ...): the gap with the first floor or ceiling
    replaced by its value there, the piece's box and domain (None: a point outside the domain); else why
    the split does not apply."""
    node = cases.first(tree, ROUNDINGS)
    if node is None:
        return f"the gap has no floor or ceiling on {show(box)}"
    variable = domain[name]
    lo, hi = box[name]
    if variable.integer or lo == hi or infinite(lo) or infinite(hi):
        return f"a jump split needs a finite range of a real variable, not {name} on {show(box)}"
    affine = polynomial.coefficients(node[1], box, name)
    if affine is None or len(affine) != 2:
        return f"the argument of the first {node[0]} is not a*{name} + b with a != 0 on {show(box)}"
    offset, slope = affine
    points = breakpoints(slope, offset, Fraction(lo), Fraction(hi))
    if points is None:
        return f"the argument of the first {node[0]} crosses more than {MAX_JUMPS} integers on {show(box)}"
    found: list[tuple[Any, Box, dict[str, Variable]] | None] = []
    for index, point in enumerate(points):
        if variable.open_at(point, index == 0) and index in (0, len(points) - 1):
            found.append(None)
        else:
            value = rounded(node[0], slope * point + offset)
            found.append(
                (cases.replaced(tree, node, ["num", str(value)]), {**box, name: (point, point)}, domain)
            )
        if index + 1 < len(points):
            middle = (point + points[index + 1]) / 2
            value = rounded(node[0], slope * middle + offset)
            inside = Variable(name, point, points[index + 1], True, True, False)
            found.append(
                (
                    cases.replaced(tree, node, ["num", str(value)]),
                    {**box, name: (point, points[index + 1])},
                    {**domain, name: inside},
                )
            )
    return found


def _jump(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring: the first floor or ceiling constant on each piece between its jumps."""
    name = decision.get("variable")
    if name not in box:
        raise Malformed("a jump decision needs a variable of the box")
    found = pieces(tree, box, domain, name)
    if isinstance(found, str):
        return found
    decisions = decision.get("pieces")
    if not (isinstance(decisions, list) and len(decisions) == len(found)):
        raise Malformed(
            f"a jump decision here needs {len(found)} pieces (null for a point outside the domain)"
        )
    if not defined(tree, box, domain):
        return undefined(box)
    for piece, then in zip(found, decisions, strict=True):
        if piece is None:
            continue
        if then is None:
            return f"a piece {show(piece[1])} has no decision"
        reason = decide(then, piece[0], piece[1], piece[2], strict, depth + 1)
        if reason is not None:
            return f"piece {show(piece[1])}: {reason}"
    return None


verify.STEPS["jump"] = _jump
