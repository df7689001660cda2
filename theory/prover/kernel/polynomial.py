"""Exact decision of a univariate polynomial's sign on an interval, in rational arithmetic.

A decision ``{"method": "polynomial", "variable": v}`` on a box B holds when the gap is defined on B, its
exact normal form (:mod:`theory.prover.kernel.exact`, B's point ranges substituted) is a polynomial p in v
alone with rational coefficients, and p >= 0 (> 0 when strict) on v's range I = (lo, hi) of B:

1. Yun's square-free decomposition p = c * f_1 * f_2^2 * ... * f_m^m (f_i monic, square-free, pairwise
   coprime), by exact gcds of p and its derivative;
2. the odd part O = product of the f_i of odd i; a root of p has odd multiplicity exactly when it is a
   root of O, and p changes sign exactly there. Sturm's theorem on the square-free O counts its distinct
   roots in the open interval (lo, hi): V(lo+) - V(hi-), the sign variations of O's Sturm sequence just
   right of lo and just left of hi (each member's sign there is that of its first nonzero derivative,
   alternated by the order on the left; at an infinite end, that of the leading term);
3. no root of O in (lo, hi): c * O has one sign there, that of its exact value at an inner rational
   point, and p = (c O) * (f_2 f_4 ...)^2 ... has that sign or is 0; p >= 0 on (lo, hi) when it is
   positive, and on the closure of I by continuity. Strict: also no root of p = no root of the square-free
   part (f_1 ... f_m, again by Sturm) in (lo, hi), and p > 0 at each finite end I contains (exactly).

The coefficients may also lie in one real quadratic field Q(sqrt d) (d square-free, every radical of the
normal form sqrt(d)): the steps above use only exact field operations and the order of the reals, which
:mod:`theory.prover.kernel.quadratic` decides exactly, and Sturm's theorem holds for real coefficients.
So x^6 - x^2 + 2 sqrt(3)/9 = (x^2 - 1/sqrt 3)^2 (x^2 + 2/sqrt 3), touching 0 at the irrational
x = 3^(-1/4), is decided: its odd part x^2 + 2/sqrt(3) has no real root.

So the touching minimum x^4 - x^3 + 27/256 = (x - 3/4)^2 (x^2 + x/2 + 3/16) over the reals is decided:
O = x^2 + x/2 + 3/16 has no real root and is positive at 0. Provenance: standard (Yun 1976, square-free
decomposition; Sturm 1829, the number of real roots; the intermediate value theorem for the sign).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from theory.prover.kernel import exact, verify
from theory.prover.kernel.balls import infinite
from theory.prover.kernel.quadratic import Quadratic
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box, Variable, defined, show, undefined

Poly = list[Any]
"""Coefficients by degree (Fractions, or numbers of one field Q(sqrt d)), no trailing zero; [] is the zero
polynomial."""
MAX_DEGREE = 64


def trim(p: Poly) -> Poly:
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return p


def derivative(p: Poly) -> Poly:
    return trim([k * p[k] for k in range(1, len(p))])


def _sub(a: Poly, b: Poly) -> Poly:
    size = max(len(a), len(b))
    zero = Fraction(0)
    return trim([(a[k] if k < len(a) else zero) - (b[k] if k < len(b) else zero) for k in range(size)])


def _divmod(a: Poly, b: Poly) -> tuple[Poly, Poly]:
    """Quotient and remainder of a by a nonzero b."""
    remainder = list(a)
    quotient = [Fraction(0)] * max(len(a) - len(b) + 1, 0)
    while len(remainder) >= len(b) and remainder:
        shift = len(remainder) - len(b)
        factor = remainder[-1] / b[-1]
        quotient[shift] = factor
        for k, coefficient in enumerate(b):
            remainder[shift + k] -= factor * coefficient
        remainder = trim(remainder)
    return trim(quotient), remainder


def monic(p: Poly) -> Poly:
    return [c / p[-1] for c in p] if p else p


def gcd(a: Poly, b: Poly) -> Poly:
    while b:
        a, b = b, _divmod(a, b)[1]
    return monic(a)


def _quotient(a: Poly, b: Poly) -> Poly:
    quotient, remainder = _divmod(a, b)
    if remainder:
        raise ArithmeticError("an exact division left a remainder")
    return quotient


def value(p: Poly, x: Fraction) -> Fraction:
    result = Fraction(0)
    for coefficient in reversed(p):
        result = result * x + coefficient
    return result


def square_free_parts(p: Poly) -> list[Poly]:
    """[f_1, f_2, ...] of Yun's decomposition p = lead(p) * f_1 * f_2^2 * ... (p of degree >= 1)."""
    common = gcd(p, derivative(p))
    b = _quotient(p, common)
    c = _quotient(derivative(p), common)
    d = _sub(c, derivative(b))
    parts = []
    while len(b) > 1:
        a = gcd(b, d)
        parts.append(a)
        b = _quotient(b, a)
        c = _quotient(d, a)
        d = _sub(c, derivative(b))
    return parts


def product(polys: list[Poly]) -> Poly:
    result: Poly = [Fraction(1)]
    for p in polys:
        out = [Fraction(0)] * (len(result) + len(p) - 1)
        for i, a in enumerate(result):
            for j, b in enumerate(p):
                out[i + j] += a * b
        result = trim(out)
    return result


def _sign(value: Fraction) -> int:
    return (value > 0) - (value < 0)


def side_sign(p: Poly, x: verify.Bound, right: bool) -> int:
    """The sign of the nonzero p just right (``right``) or just left of x; at x = -oo or +oo, its sign
    towards that end."""
    if infinite(x):
        degree = len(p) - 1
        return _sign(p[-1]) * (1 if x > 0 or degree % 2 == 0 else -1)
    order, q = 0, p
    while True:
        s = _sign(value(q, Fraction(x)))
        if s:
            return s if right or order % 2 == 0 else -s
        q, order = derivative(q), order + 1


def sturm_roots(p: Poly, lo: verify.Bound, hi: verify.Bound) -> int:
    """The number of distinct roots in the open interval (lo, hi) of a square-free p (degree >= 0)."""
    if len(p) <= 1:
        return 0
    sequence = [p, derivative(p)]
    while True:
        remainder = _divmod(sequence[-2], sequence[-1])[1]
        if not remainder:
            break
        sequence.append([-c for c in remainder])

    def variations(x: verify.Bound, right: bool) -> int:
        signs = [side_sign(q, x, right) for q in sequence]
        return sum(1 for k in range(len(signs) - 1) if signs[k] != signs[k + 1])

    return variations(lo, True) - variations(hi, False)


def inner_point(lo: verify.Bound, hi: verify.Bound) -> Fraction:
    """A rational strictly between lo < hi (either may be infinite)."""
    if infinite(lo) and infinite(hi):
        return Fraction(0)
    if infinite(lo):
        return Fraction(hi) - 1
    if infinite(hi):
        return Fraction(lo) + 1
    return (Fraction(lo) + Fraction(hi)) / 2


def nonnegative(p: Poly, lo: verify.Bound, hi: verify.Bound, strict: bool, closed: tuple[bool, bool]) -> bool:
    """p >= 0 (> 0 when strict) on the interval from lo < hi, its finite ends included where ``closed``
    says (see the module docstring)."""
    if len(p) <= 1:
        constant = p[0] if p else Fraction(0)
        return constant > 0 if strict else constant >= 0
    parts = square_free_parts(p)
    odd = product([f for index, f in enumerate(parts, start=1) if index % 2 == 1])
    if sturm_roots(odd, lo, hi) != 0:
        return False
    if p[-1] * value(odd, inner_point(lo, hi)) <= 0:
        return False
    if not strict:
        return True
    if sturm_roots(product(parts), lo, hi) != 0:
        return False
    ends = [(lo, closed[0]), (hi, closed[1])]
    return all(infinite(end) or not shut or value(p, Fraction(end)) > 0 for end, shut in ends)


def square_root(radicals: tuple[tuple[int, Fraction], ...]) -> int | None:
    """d when the prime radicals are sqrt(d) (every exponent 1/2: d the product of their primes,
    square-free), else None."""
    if not radicals or any(fraction != Fraction(1, 2) for _, fraction in radicals):
        return None
    return math.prod(prime for prime, _ in radicals)


def coefficients(tree: Any, box: Box, name: str, quadratic: bool = False) -> Poly | None:
    """The gap's exact normal form on the box as a polynomial in ``name`` alone with rational coefficients,
    or None; with ``quadratic``, coefficients in one field Q(sqrt d) are accepted too (every radical of
    the form sqrt(d) for the same d, :class:`~theory.prover.kernel.quadratic.Quadratic`)."""
    form = exact.normal_form(tree, verify.fixed_points(box))
    if form is None:
        return None
    atom = json.dumps(["var", name], separators=(",", ":"))
    p: dict[int, Any] = {}
    field: int | None = None
    for (atoms, radicals), coefficient in form.items():
        if any(key != atom for key, _ in atoms):
            return None
        term: Any = coefficient
        if radicals:
            d = square_root(radicals) if quadratic else None
            if d is None or field not in (None, d):
                return None
            field, term = d, Quadratic(0, coefficient, d)
        degree = sum((exponent for _, exponent in atoms), Fraction(0))
        if degree.denominator != 1 or not 0 <= degree <= MAX_DEGREE:
            return None
        p[int(degree)] = p.get(int(degree), Fraction(0)) + term
    return trim([p.get(k, Fraction(0)) for k in range(max(p, default=-1) + 1)])


def _polynomial(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """See the module docstring."""
    name = decision.get("variable")
    if name not in box:
        raise Malformed("a polynomial decision needs a variable of the box")
    if not defined(tree, box, domain):
        return undefined(box)
    p = coefficients(tree, box, name, quadratic=True)
    if p is None:
        return f"the gap is not a polynomial in {name} alone on {show(box)}"
    lo, hi = box[name]
    variable = domain[name]
    if lo == hi:
        holds = value(p, Fraction(lo)) > 0 if strict else value(p, Fraction(lo)) >= 0
    else:
        closed = (not variable.open_at(lo, True), not variable.open_at(hi, False))
        holds = nonnegative(p, lo, hi, strict, closed)
    return None if holds else f"the polynomial in {name} is not {'> 0' if strict else '>= 0'} on {show(box)}"


verify.STEPS["polynomial"] = _polynomial
