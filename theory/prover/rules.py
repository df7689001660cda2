"""The three rules that decide ``gap >= 0`` (or ``> 0``) on a box, as checkable primitives.

Both the search (which chooses a rule per box) and the checker (which re-verifies the choice from the
certificate alone) are built on these functions; each is a statement of real analysis with its proof:

- enclosure: if an interval enclosure of the gap (of the expression as stated, or of sympy's factored
  form, an identity) has lower end >= 0 (> 0), the claim holds on the box;
- monotone: if the interval enclosure of d gap / d v has a sign on the box, the minimum over the box is
  on one face (v = lo for an increasing gap, v = hi for a decreasing one); the face is the gap with that
  value substituted (sympy ``subs``). At an infinite end the face is decided in one of two ways, recorded
  in the certificate's step record: (a) in arb balls, on a tail [X', oo) (X' in TAIL_STARTS): the gap,
  monotone towards the end, is >= its values on the tail, so an enclosure of the gap on the tail that is
  >= 0 decides the whole box (no limit needed); (b) else by the limit at infinity, which sympy computes
  (Gruntz's algorithm): provenance "sympy limit (Gruntz), not re-derived"; the checker re-runs it and
  requires the claimed value's ball to meet the gap's arb-ball enclosure on every tail (each contains the
  limit), which rejects a moved value wherever the enclosures are finite.
  A strict claim at an *open* end of the domain needs only the non-strict claim on the face when the
  derivative is strictly signed (the infimum is then not attained). The gap must be continuous in v,
  so expressions with floor/ceiling of v never use this rule;
- critical point (convexity): if d gap / d v vanishes at v = c(other variables) (sympy simplifies
  d gap/dv at c to 0) and d^2 gap / d v^2 >= 0 on the box with v's range widened to contain c, then
  gap >= gap|_{v = c} on the box (the tangent at c lies below a convex function), so the claim reduces to
  the reduced gap h = gap|_{v = c} on the remaining variables. This decides statements that touch 0
  (exp(x) >= 1 + x at 0, x log x >= -1/e at 1/e, AM-GM on the diagonal, Young on a^p = b^q), which no
  enclosure can. The curvature sign is an arb-ball enclosure (rigorous). The exact zero of the slope at c
  and the simplified reduced gap are sympy's (simplify; not re-derived in balls: an exact zero is beyond
  ball arithmetic); the checker rejects a point where the slope's ball enclosure excludes 0 before it
  asks sympy (CRITICAL_PROVENANCE, recorded in the certificate).

Provenance: derived (mean value theorem, convexity; standard interval-analysis arguments), with the sympy
steps named above.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

import sympy as sp

from theory.prover.box import Box
from theory.prover.domain import Bound, Domain, format_bound
from theory.prover.evaluate import (
    DEFAULT_PRECISION,
    POINT_PRECISION,
    UnsupportedExpression,
    compile_expression,
    evaluate,
    span,
)
from theory.prover.intervals import Interval, Undefined, add, hull, neg
from theory.prover.time_limit import time_limited
from theory.prover.unbounded import limit_at_infinity


def _split_absolute_values(expr: sp.Expr) -> sp.Expr:
    """|a b| -> |a| |b| everywhere (an identity over the reals), then sympy's factor."""
    split = expr.replace(
        lambda e: isinstance(e, sp.Abs) and isinstance(e.args[0], sp.Mul),
        lambda e: sp.Mul(*(sp.Abs(factor) for factor in e.args[0].args)),
    )
    return sp.factor(split)


def _max_min_as_absolute_values(expr: sp.Expr) -> sp.Expr:
    """Max(a, b) -> (a + b + |a - b|) / 2 and Min(a, b) -> (a + b - |a - b|) / 2 everywhere (identities over
    the reals; more arguments fold pairwise), then sympy's expand: d1 + d2 + 1 <= 3 Max(d1, d2) becomes
    3|d1 - d2| / 2 + (d1 + d2) / 2 - 1 >= 0, which one enclosure decides where Max's enclosure cannot."""

    def fold(e: sp.Expr) -> sp.Expr:
        sign = 1 if isinstance(e, sp.Max) else -1
        first, *rest = e.args
        for other in rest:
            first = (first + other + sign * sp.Abs(first - other)) / 2
        return first

    return sp.expand(expr.replace(lambda e: isinstance(e, (sp.Max, sp.Min)), fold))


FORMS: dict[str, Callable[[sp.Expr], sp.Expr]] = {
    "as_stated": lambda e: e,
    "factored": sp.factor,
    "expanded": sp.expand,
    "absolute_values_split": _split_absolute_values,
    "max_min_as_absolute_values": _max_min_as_absolute_values,
}
"""Equivalent forms of an expression the rules may enclose (each an identity over the reals): narrower
enclosures where the stated form suffers from the dependency problem (x^2 - 2xy + y^2 vs (x - y)^2)."""
REDUCIBLE_FORMS = tuple(FORMS)
FACE_FORMS = ("as_stated",)


def environment(box: Box, interior: bool = False) -> dict[str, Interval]:
    """{name: [lo, hi]} of the box; with ``interior`` every end is marked not attained (the open box).

    Derivatives are enclosed on the open box: a gap that is defined (hence continuous: floor and ceiling
    are excluded from the derivative rules) on the closed box and has d gap / dv >= 0 on the open box is
    nondecreasing in v on the closed box, so one-sided singular limits of the derivative at the box's
    ends (1 / sqrt(x) at x = 0) do not prevent a decision.
    """
    return {
        name: span(lo, hi, interior or (name, "lo") in box.opens, interior or (name, "hi") in box.opens)
        for name, lo, hi in box.ranges
    }


def enclosure(expr: sp.Expr, box: Box, interior: bool = False) -> Interval | None:
    """The enclosure of expr on the box (point precision on a single point); None where undefined."""
    precision = POINT_PRECISION if box.is_point() else DEFAULT_PRECISION
    try:
        return evaluate(expr, environment(box, interior), precision)
    except (Undefined, ZeroDivisionError, UnsupportedExpression):
        return None


def holds_by_enclosure(expr: sp.Expr, box: Box, strict: bool) -> bool:
    """The enclosure of expr on the box is >= 0 (> 0 when strict)."""
    value = enclosure(expr, box)
    return value is not None and value.lower_at_least(0, strict=strict)


@functools.lru_cache(maxsize=2048)
def form(expr: sp.Expr, name: str) -> sp.Expr:
    """The form ``name`` of FORMS applied to expr (cached)."""
    return FORMS[name](expr)


def symbol_named(expr: sp.Expr, name: str) -> sp.Symbol | None:
    """The free symbol of expr called name (None when expr does not depend on it)."""
    for symbol in expr.free_symbols:
        if isinstance(symbol, sp.Symbol) and symbol.name == name:
            return symbol
    return None


_NOT_DIFFERENTIABLE = (sp.Derivative, sp.Subs, sp.DiracDelta)


@functools.lru_cache(maxsize=4096)
def derivative(expr: sp.Expr, name: str, order: int = 1) -> sp.Expr | None:
    """d^order expr / d name^order, or None when the rules may not use it (jumps, unevaluated parts)."""
    symbol = symbol_named(expr, name)
    if symbol is None:
        return sp.Integer(0)
    if any(part.has(symbol) for part in expr.atoms(sp.floor, sp.ceiling)):
        return None
    result = sp.diff(expr, symbol, order)
    if result.has(*_NOT_DIFFERENTIABLE):
        return None
    return result


def derivative_sign(
    expr: sp.Expr, name: str, box: Box, forms: tuple[str, ...] = FACE_FORMS
) -> tuple[int, bool] | None:
    """(+1 or -1, strictly) when d expr / d name has that sign on the whole box (the enclosure of one of
    ``forms`` of the derivative shows it), else None."""
    slope = derivative(expr, name)
    if slope is None or enclosure(expr, box) is None:  # the gap itself must be defined on the whole box
        return None
    for name_of_form in forms:
        value = enclosure(form(slope, name_of_form), box, interior=True)
        if value is None:
            continue
        if value.lower_at_least(0):
            return 1, value.lower_at_least(0, strict=True)
        if value.upper_at_most(0):
            return -1, value.upper_at_most(0, strict=True)
    return None


SYMBOLIC_FACE_BITS = 24
"""A face at a rational whose numerator and denominator fit in this many bits is substituted exactly
(sympy then cancels (s^p)^(1/p) = s, 4 * 4^(-1/4) * 2^(-1/2) = 2); a face deep in a bisection is kept as a
point range instead (sympy's simplification of powers of huge rationals is slow)."""


def symbolic_value(value: Bound) -> bool:
    """value is small enough to be substituted exactly (see SYMBOLIC_FACE_BITS)."""
    if math.isinf(value):
        return False
    fraction = Fraction(value)
    return max(abs(fraction.numerator), fraction.denominator).bit_length() <= SYMBOLIC_FACE_BITS


def face_expression(expr: sp.Expr, name: str, value: Bound) -> sp.Expr | None:
    """expr at a finite name = value (exact substitution)."""
    symbol = symbol_named(expr, name)
    if symbol is None:
        return expr
    exact = Fraction(value)
    return expr.subs(symbol, sp.Rational(exact.numerator, exact.denominator))


def face_is_open(domain: Domain, name: str, value: Bound, at_lower: bool) -> bool:
    """The face name = value is an open end of the domain (not a point of the statement's set)."""
    variable = domain[name]
    if at_lower:
        return variable.lower_open and value == variable.lower
    return variable.upper_open and value == variable.upper


class Face(NamedTuple):
    """What the monotone rule leaves to decide: ``expr`` >= 0 (> 0 when ``strict``) on ``box``, and the keys
    ``record`` adds to the certificate's decision (how a face at an infinite end was obtained)."""

    expr: sp.Expr
    box: Box
    strict: bool
    record: dict[str, str]


TAIL_STARTS = (Fraction(2**4), Fraction(2**16), Fraction(2**64))
"""Where the tail [X', oo) of a face at +oo may start (mirrored for -oo): see :func:`tail_face`."""
TAIL_PROVENANCE = (
    "arb balls: the gap, monotone towards the infinite end, is >= its values on the tail, which one "
    "enclosure decides"
)
LIMIT_PROVENANCE = (
    "sympy limit (Gruntz), not re-derived; the checker re-runs it and re-encloses the value: it must lie in "
    "the arb-ball enclosure of the gap on every tail"
)


def tail_box(box: Box, name: str, start: Fraction, sign: int) -> Box:
    """The box with name's range cut to the tail [start, oo) (sign > 0) or (-oo, start] (sign < 0)."""
    ranges = tuple(
        ((n, start, b) if sign > 0 else (n, a, start)) if n == name else (n, a, b) for n, a, b in box.ranges
    )
    return Box(ranges, frozenset(e for e in box.opens if e != (name, "lo" if sign > 0 else "hi")))


def tail_starts(box: Box, name: str, sign: int) -> tuple[Fraction, ...]:
    """The candidate tail starts inside name's range towards the infinite end (sign: +1 for +oo)."""
    lo, hi = box.bounds(name)
    finite = lo if sign > 0 else hi
    if math.isinf(finite):
        return tuple(sign * start for start in TAIL_STARTS)
    far = sign * Fraction(finite)
    starts = [start for start in TAIL_STARTS if start > far] or [2 * abs(far) + 1]
    return tuple(sign * start for start in starts)


def tail_face(
    expr: sp.Expr, name: str, box: Box, start: Fraction, sign: int, face_strict: bool
) -> Face | None:
    """The face at an infinite end, decided in balls: expr monotone towards the end (d expr / d name of the
    right sign on the box) is >= its values on the tail [start, oo), so ``expr`` >= 0 there suffices (the
    face claim: strict unless the monotonicity is strict). None unless start lies in name's range."""
    lo, hi = box.bounds(name)
    inside = lo <= start < hi if sign > 0 else lo < start <= hi
    if not inside:
        return None
    record = {"tail": format_bound(start), "provenance": TAIL_PROVENANCE}
    return Face(expr, tail_box(box, name, start, sign), face_strict, record)


def limit_encloses(expr: sp.Expr, name: str, box: Box, sign: int, value: sp.Expr) -> bool:
    """The ball of ``value`` (a constant or an expression in the other variables) meets the enclosure of
    expr on the box and on every tail of TAIL_STARTS inside it (each closed enclosure contains the limit at
    the infinite end); a tail where expr is not enclosed (undefined) is passed over."""
    target = enclosure(value, box.without(name))
    if target is None:
        return False
    for start in (None, *tail_starts(box, name, sign)):
        region = box if start is None else tail_box(box, name, start, sign)
        values = enclosure(expr, region)
        if values is not None and _disjoint(values, target):
            return False
    return True


def _disjoint(a: Interval, b: Interval) -> bool:
    """The closures of a and b are disjoint (decided rigorously)."""
    difference = add(Interval(a.lo, a.hi), neg(Interval(b.lo, b.hi)))
    return difference.lower_at_least(0, strict=True) or difference.upper_at_most(0, strict=True)


def limit_face(expr: sp.Expr, name: str, box: Box, sign: int, face_strict: bool) -> Face | None:
    """The face at an infinite end by sympy's limit (a real constant or an expression in the other
    variables), re-enclosed in balls (:func:`limit_encloses`); None when sympy finds no limit."""
    symbol = symbol_named(expr, name)
    value = expr if symbol is None else limit_at_infinity(expr, symbol, sign)
    if value is None or not limit_encloses(expr, name, box, sign, value):
        return None
    record = {"limit": sp.srepr(value), "provenance": LIMIT_PROVENANCE}
    return Face(value, box.without(name), face_strict, record)


def monotone_face(
    expr: sp.Expr, name: str, box: Box, domain: Domain, strict: bool, sign: int, strictly: bool
) -> Face | None:
    """The face left to decide for a derivative of that sign. At a finite end the face box lacks ``name``
    when its value was substituted, else fixes it to a point. At an infinite end: the first tail of
    :func:`tail_starts` on which the enclosure of expr decides the face claim, else the limit."""
    lo, hi = box.bounds(name)
    at_lower = sign > 0
    value = lo if at_lower else hi
    open_end = math.isinf(value) or face_is_open(domain, name, value, at_lower)
    face_strict = strict and not (open_end and strictly)
    if math.isinf(value):
        towards = 1 if value > 0 else -1
        for start in tail_starts(box, name, towards):
            face = tail_face(expr, name, box, start, towards, face_strict)
            if face is not None and holds_by_enclosure(expr, face.box, face_strict):
                return face
        return limit_face(expr, name, box, towards, face_strict)
    if symbolic_value(value):
        face = face_expression(expr, name, value)
        return None if face is None else Face(face, box.without(name), face_strict, {})
    return Face(expr, box.fixed(name, value), face_strict, {})


SOLVE_SIZE_LIMIT = 60
"""Largest derivative (sympy count_ops) the convexity rule hands to sympy's solve."""
SOLVE_SECONDS = 5.0
"""Time the search gives sympy's solve for the critical points of one expression in one variable."""


@functools.lru_cache(maxsize=512)
def critical_points(expr: sp.Expr, name: str) -> tuple[sp.Expr, ...]:
    """The zeros c of d expr / d name that sympy finds in closed form, free of name, checked to be zeros."""
    symbol = symbol_named(expr, name)
    slope = derivative(expr, name)
    if symbol is None or slope is None or slope == 0:
        return ()
    if slope.has(sp.sign, sp.Heaviside) or sp.count_ops(slope) > SOLVE_SIZE_LIMIT:
        return ()  # piecewise or large derivatives: sympy's solve can take minutes and rarely succeeds

    def solve() -> tuple[sp.Expr, ...]:
        try:
            solutions = sp.solve(slope, symbol)
        except (NotImplementedError, ValueError, TypeError, RecursionError):
            return ()
        return tuple(c for c in solutions if isinstance(c, sp.Expr) and is_critical(expr, name, c))

    return time_limited(SOLVE_SECONDS, solve) or ()


CRITICAL_PROVENANCE = (
    "stationary point: sympy simplify of d gap/dv at it to 0, not re-derived (the checker rejects it "
    "where the slope's arb-ball enclosure excludes 0); curvature: arb-ball enclosure of d^2 gap/dv^2 >= 0 "
    "on the widened box; reduced gap: sympy simplify of the substitution (an identity)"
)


def slope_nonzero_in_balls(expr: sp.Expr, name: str, point: sp.Expr, box: Box) -> bool:
    """The arb-ball enclosure of d expr / d name at name = point, over the other variables' box, excludes 0:
    point is then rigorously not a critical point (False where the enclosure does not decide, e.g. where it
    is undefined on part of the box: sympy's exact check decides then)."""
    symbol = symbol_named(expr, name)
    slope = derivative(expr, name)
    if symbol is None or slope is None or point.has(symbol):
        return False
    value = enclosure(slope.subs(symbol, point), box.without(name))
    return value is not None and _disjoint(value, span(Fraction(0), Fraction(0)))


@functools.lru_cache(maxsize=512)
def is_critical(expr: sp.Expr, name: str, point: sp.Expr) -> bool:
    """d expr / d name vanishes identically at name = point (sympy simplifies it to 0)."""
    symbol = symbol_named(expr, name)
    slope = derivative(expr, name)
    if symbol is None or slope is None or point.has(symbol) or point.is_real is False:
        return False
    return sp.simplify(slope.subs(symbol, point)) == 0


@functools.lru_cache(maxsize=512)
def reduced_at(expr: sp.Expr, name: str, point: sp.Expr) -> sp.Expr:
    """h = expr at name = point, simplified (the lower bound the convexity rule leaves to prove)."""
    symbol = symbol_named(expr, name)
    assert symbol is not None
    return sp.simplify(expr.subs(symbol, point))


def convex_towards(expr: sp.Expr, name: str, point: sp.Expr, box: Box, domain: Domain) -> bool:
    """d^2 expr / d name^2 >= 0 (one of its FORMS shows it) on the open box with name's range widened to
    contain point(other variables), and expr defined on the closed widened box. The point must lie in
    the closure of name's domain: sympy's simplifications (is_critical, reduced_at) use the assumptions
    the domain implies, which need not hold outside it."""
    curvature = derivative(expr, name, 2)
    if curvature is None:
        return False
    others = box.without(name)
    variable = domain[name]
    try:
        where = evaluate(point, environment(others), DEFAULT_PRECISION)
        if not (_at_least(where, variable.lower) and _at_most(where, variable.upper)):
            return False
        closed = environment(box)
        closed[name] = hull(closed[name], where)
        evaluate(expr, closed, DEFAULT_PRECISION)  # raises Undefined unless the gap is defined (continuous)
        inside = environment(box, interior=True)
        inside[name] = hull(inside[name], Interval(where.lo, where.hi, True, True))
    except (Undefined, ZeroDivisionError, UnsupportedExpression):
        return False
    for name_of_form in REDUCIBLE_FORMS:
        try:
            if evaluate(form(curvature, name_of_form), inside, DEFAULT_PRECISION).lower_at_least(0):
                return True
        except (Undefined, ZeroDivisionError, UnsupportedExpression):
            continue
    return False


def _at_least(value: Interval, bound: Bound) -> bool:
    if math.isinf(bound):
        return bound < 0
    return add_constant(value, -Fraction(bound)).lower_at_least(0)


def _at_most(value: Interval, bound: Bound) -> bool:
    if math.isinf(bound):
        return bound > 0
    return add_constant(value, -Fraction(bound)).upper_at_most(0)


def add_constant(value: Interval, constant: Fraction) -> Interval:
    """value + constant."""
    return add(value, span(constant, constant))


def clear_caches() -> None:
    """Forget every cached derivative, form, critical point and compiled evaluator (the checker starts
    from scratch, never from what a search computed)."""
    for cached in (form, derivative, critical_points, is_critical, reduced_at, compile_expression):
        cached.cache_clear()


def witness_value(expr: sp.Expr, values: dict[str, Fraction]) -> Interval | None:
    """The enclosure of expr at one point (point precision)."""
    return enclosure(expr, Box(tuple((name, v, v) for name, v in values.items())))
