"""Exact sign of a multivariate polynomial on a bounded box, by its Bernstein coefficients in rationals.

A decision ``{"method": "bernstein"}`` on a box B holds when the gap is defined on B, every variable of B
that is not a point has a finite range [lo_i, hi_i], the gap's exact normal form (:mod:`theory.prover.
kernel.exact`, B's point ranges substituted) is a polynomial p in those variables with rational
coefficients and natural exponents (degree n_i in x_i, at most MAX_DEGREE; at most MAX_COEFFICIENTS
Bernstein coefficients), and every Bernstein coefficient of p on B is >= 0 (> 0 when strict):

1. x_i = lo_i + (hi_i - lo_i) t_i maps [0, 1]^k onto B; q(t) = p(x(t)) = sum_J a_J t^J, expanded exactly;
2. q = sum_I b_I B_I(t) with B_I(t) = prod_i C(n_i, I_i) t_i^I_i (1 - t_i)^(n_i - I_i) and
   b_I = sum_{J <= I} prod_i C(I_i, J_i) / C(n_i, J_i) a_J (computed one variable at a time);
3. every B_I >= 0 on [0, 1]^k and sum_I B_I = prod_i (t_i + 1 - t_i)^n_i = 1, so q(t) is a convex
   combination of the b_I: q >= min b_I on [0, 1]^k, and p >= 0 (> 0) on B (its closure included).

The coefficients at the corners of the box are p's values there, so a polynomial positive on B but
touching 0 at a corner may be decided; the other coefficients only bound p, and the cover's subdivision
tightens them (they converge to p's values as the box shrinks). x^2 + y^2 - x y - x - y + 1 on [0, 1]^2
has the coefficients 1, 1/2, 1 / 1/2, -1/4, 0 / 1, 0, 0 (by x's then y's index): not decided, although
it is (x - 1)^2 + (y - 1)^2 - (x - 1)(y - 1) >= 0, 0 at the corner (1, 1), because its cross term is
negative at every scale there (the sum-of-squares rewrite decides it). x^3 + y^3 + 1/1000 - x^2 y - x y^2
on [0, 1]^2, 0.001 above its minimum along the diagonal, is decided on 52 boxes.
Provenance: standard
(Bernstein 1912; the range enclosure property, e.g. Garloff 1986, "Convergent bounds for the range of
multivariate polynomials").
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from theory.prover.kernel import exact, verify
from theory.prover.kernel.balls import infinite
from theory.prover.kernel.verify import Box, Variable, defined, show, undefined

MAX_DEGREE = 16
MAX_COEFFICIENTS = 4096

Exponents = tuple[int, ...]
Multivariate = dict[Exponents, Fraction]


def polynomial(tree: Any, box: Box, names: list[str]) -> Multivariate | None:
    """The gap's exact normal form on the box as {exponents in ``names``: coefficient}, or None when it is
    not a polynomial in them with natural exponents of at most MAX_DEGREE."""
    form = exact.normal_form(tree, verify.fixed_points(box))
    if form is None:
        return None
    atoms = {json.dumps(["var", name], separators=(",", ":")): index for index, name in enumerate(names)}
    found: Multivariate = {}
    for (factors, radicals), coefficient in form.items():
        if radicals:
            return None
        exponents = [0] * len(names)
        for atom, exponent in factors:
            if atom not in atoms or exponent.denominator != 1 or not 0 <= exponent <= MAX_DEGREE:
                return None
            exponents[atoms[atom]] += int(exponent)
        key = tuple(exponents)
        found[key] = found.get(key, Fraction(0)) + coefficient
    return found


def _shifted(p: Multivariate, axis: int, lo: Fraction, width: Fraction) -> Multivariate:
    """p with x_axis = lo + width * t_axis, expanded (binomial theorem)."""
    out: Multivariate = {}
    for exponents, coefficient in p.items():
        k = exponents[axis]
        for j in range(k + 1):
            term = coefficient * math.comb(k, j) * lo ** (k - j) * width**j
            if term:
                key = (*exponents[:axis], j, *exponents[axis + 1 :])
                out[key] = out.get(key, Fraction(0)) + term
    return out


def coefficients(p: Multivariate, ranges: list[tuple[Fraction, Fraction]]) -> list[Fraction] | None:
    """Every Bernstein coefficient of p on the box ``ranges`` (one per index I, degrees the largest
    exponent of each variable), or None for more than MAX_COEFFICIENTS."""
    degrees = [max((e[axis] for e in p), default=0) for axis in range(len(ranges))]
    if math.prod(n + 1 for n in degrees) > MAX_COEFFICIENTS:
        return None
    for axis, (lo, hi) in enumerate(ranges):
        p = _shifted(p, axis, lo, hi - lo)
    indices: list[Exponents] = [()]
    for n in degrees:
        indices = [(*index, i) for index in indices for i in range(n + 1)]
    grid = {index: p.get(index, Fraction(0)) for index in indices}
    for axis, n in enumerate(degrees):  # b_i = sum_{j <= i} C(i, j) / C(n, j) a_j along this axis
        grid = {
            index: sum(
                (
                    Fraction(math.comb(index[axis], j), math.comb(n, j))
                    * grid[(*index[:axis], j, *index[axis + 1 :])]
                    for j in range(index[axis] + 1)
                ),
                Fraction(0),
            )
            for index in grid
        }
    return list(grid.values())


def _bernstein(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring."""
    names = [name for name, (lo, hi) in box.items() if lo != hi]
    if any(infinite(box[name][0]) or infinite(box[name][1]) for name in names):
        return f"a Bernstein decision needs a bounded box, not {show(box)}"
    if not defined(tree, box, domain):
        return undefined(box)
    p = polynomial(tree, box, names)
    if p is None:
        return f"the gap is not a polynomial of degree <= {MAX_DEGREE} in {', '.join(names)} on {show(box)}"
    found = coefficients(p, [(Fraction(box[name][0]), Fraction(box[name][1])) for name in names])
    if found is None:
        return f"the gap has more than {MAX_COEFFICIENTS} Bernstein coefficients on {show(box)}"
    lowest = min(found)
    if lowest > 0 or (lowest == 0 and not strict):
        return None
    return f"a Bernstein coefficient of the gap on {show(box)} is {lowest}, not {'> 0' if strict else '>= 0'}"


verify.STEPS["bernstein"] = _bernstein
