"""Enclosures of a data tree (the format of :mod:`theory.prover.language`) and of its derivative.

``enclose(tree, env)`` is a set containing the tree's values on the box ``env`` (name -> Set).
``slope(tree, env, closed, name)`` is a set containing d tree / d name at every point of ``env`` where the
derivative exists, by forward-mode differentiation in ball arithmetic (no symbolic derivative): each node
carries (value, tangent), tangent None meaning exactly 0. Abs, Max and Min get the hull of their pieces'
tangents where the piece is not determined (Clarke's generalized gradient, so a mean value inequality
still holds); floor, ceiling and a Piecewise whose branch is not fixed on the *closed* box ``closed``
raise :class:`Discontinuous` when they depend on ``name``. Provenance: derived (interval extensions and
the chain rule).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from theory.errors import InvalidArgument
from theory.prover.kernel import balls
from theory.prover.kernel.balls import Set, Undefined, flint
from theory.prover.kernel.nodes import children

if TYPE_CHECKING:
    from flint import arb, fmpq
else:
    arb, fmpq = flint().arb, flint().fmpq

Env = Mapping[str, Set]
Dual = tuple[Set, Set | None]


class Malformed(InvalidArgument):
    """The data is not in the certificate format (a tree, a domain, a box or a decision)."""


class Discontinuous(ArithmeticError):
    """A jump of the tree may lie on the box in the variable differentiated."""


MAX_NUMBER_TEXT = 2000
"""Characters of a number's text in a certificate."""
MAX_DECIMAL_EXPONENT = 300
"""Largest |e| of a decimal number d.ddd e<e> a certificate may write (10^e is computed exactly)."""
_NUMBER = re.compile(r"[+-]?(?:\d+/\d+|(?:\d+\.?\d*|\.\d+)(?:[eE](?P<exponent>[+-]?\d{1,4}))?)")


def number(text: Any) -> Fraction:
    """The exact rational of a "p/q" string (or an integer, or a decimal with an exponent of at most
    MAX_DECIMAL_EXPONENT), at most MAX_NUMBER_TEXT characters; anything else (spaces, underscores,
    "1e999999999", whose value Fraction would compute digit by digit) is :class:`Malformed`."""
    if not isinstance(text, str) or len(text) > MAX_NUMBER_TEXT:
        raise Malformed(f"{str(text)[:40]!r} is not a rational 'p/q' (at most {MAX_NUMBER_TEXT} characters)")
    return _rational(text)


@functools.lru_cache(maxsize=4096)
def _rational(text: str) -> Fraction:
    """Fraction(text) of a text :func:`number` accepts, remembered (a Fraction is immutable; the trees
    repeat their numbers)."""
    form = _NUMBER.fullmatch(text)
    exponent = form and form.group("exponent")
    if form is None or (exponent is not None and abs(int(exponent)) > MAX_DECIMAL_EXPONENT):
        raise Malformed(
            f"{text[:40]!r} is not a rational 'p/q' "
            f"(nor a decimal with an exponent of at most {MAX_DECIMAL_EXPONENT})"
        )
    try:
        return Fraction(text)
    except ZeroDivisionError:
        raise Malformed(f"{text[:40]!r} is not a rational 'p/q': its denominator is 0") from None


def ball(value: Fraction) -> arb:
    """The arb ball of an exact rational."""
    return arb(fmpq(value.numerator, value.denominator))


def ranged(lo: Fraction | float, hi: Fraction | float, lo_open: bool, hi_open: bool) -> Set:
    """The set of a variable over a range with exact rational (or infinite) ends: their balls (one ball for
    a point range, the attained point), the rationals kept as the set's exact ends (:func:`affine`)."""
    low = lo if balls.infinite(lo) else ball(Fraction(lo))
    high = low if hi == lo else (hi if balls.infinite(hi) else ball(Fraction(hi)))
    return Set(
        low,
        high,
        lo_open,
        hi_open,
        None if balls.infinite(lo) else Fraction(lo),
        None if balls.infinite(hi) else Fraction(hi),
    )


Linear = dict[str | None, Fraction]
"""c + sum a_v v as {None: c, v: a_v}."""


def affine(tree: Any) -> Linear | None:
    """The tree as c + sum a_v v with rational c, a_v when it is built of numbers and variables by sums and
    by products whose factors are numbers but one; else None."""
    op = tree[0]
    if op == "num":
        return {None: number(tree[1])}
    if op == "var":
        return {tree[1]: Fraction(1)}
    if op not in ("add", "mul") or len(tree) < 2:
        return None
    forms = [affine(arg) for arg in tree[1:]]
    result: Linear = {}
    if op == "add":
        for form in forms:
            if form is None:
                return None
            for key, coefficient in form.items():
                result[key] = result.get(key, Fraction(0)) + coefficient
        return result
    factor, rest = Fraction(1), []
    for form in forms:
        if form is None:
            return None
        if set(form) <= {None}:
            factor *= form.get(None, Fraction(0))
        else:
            rest.append(form)
    if len(rest) > 1:
        return None
    scaled = rest[0] if rest else {None: Fraction(1)}
    return {key: factor * coefficient for key, coefficient in scaled.items()}


def exact_range(form: Linear, env: Env) -> tuple[Fraction | float, Fraction | float, bool, bool] | None:
    """(lo, hi, lo_open, hi_open) of c + sum a_v v over the box in exact rationals (a product of ranges,
    so each end is the sum of the terms' ends, attained when each of them is), or None when a variable
    with a nonzero coefficient has a finite end whose rational is not known."""
    lo: Fraction | float = form.get(None, Fraction(0))
    hi: Fraction | float = lo
    lo_open = hi_open = False
    for name, coefficient in form.items():
        if name is None or coefficient == 0:
            continue
        if name not in env:
            return None
        values = env[name]
        ends = [(values.lo, values.lo_exact, values.lo_open), (values.hi, values.hi_exact, values.hi_open)]
        if coefficient < 0:
            ends.reverse()
        terms = []
        for end, rational, is_open in ends:
            if balls.infinite(end):
                terms.append((end * (1 if coefficient > 0 else -1), True))
            elif rational is None:
                return None
            else:
                terms.append((coefficient * rational, is_open))
        lo, hi = lo + terms[0][0], hi + terms[1][0]
        lo_open, hi_open = lo_open or terms[0][1], hi_open or terms[1][1]
    return lo, hi, lo_open, hi_open


def straddles(end: Any) -> bool:
    """A finite ball end that contains 0 without being the exact 0 (its sign is unknown)."""
    return not balls.infinite(end) and not end.is_zero() and bool(end.contains(0))


def sharpened(value: Set, tree: Any, env: Env) -> Set:
    """``value``, a set of ``tree`` on the box, with each end whose ball straddles 0 replaced by the exact
    end of the tree's range when the tree is affine (:func:`affine`) and that range is known (the exact 0
    at a root such as x - 1/3 on (1/3, 1/2], which no ball of 1/3 separates from 0); else ``value``.
    Sound: the exact range contains every value, and its end, open where the range leaves it open, is
    attained exactly when that says."""
    if not (straddles(value.lo) or straddles(value.hi)):
        return value
    form = affine(tree)
    found = None if form is None else exact_range(form, env)
    if found is None:
        return value
    lo, hi, lo_open, hi_open = found

    def end(rational: Fraction | float) -> Any:
        return rational if balls.infinite(rational) else ball(Fraction(rational))

    low, low_open = (end(lo), lo_open) if straddles(value.lo) else (value.lo, value.lo_open)
    high, high_open = (end(hi), hi_open) if straddles(value.hi) else (value.hi, value.hi_open)
    return Set(low, high, low_open, high_open)


def dyadic(end: arb, lower: bool) -> Fraction:
    """The exact dyadic rational at the outer end of an arb ball (its lower end for a lower bound)."""
    mantissa, exponent = (end.lower() if lower else end.upper()).mid().man_exp()
    return Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def _exp(a: Set) -> Set:
    return balls.monotone(a, lambda x: x.exp(), (arb(0), math.inf))


def _log(a: Set) -> Set:
    """{log v} for a set > 0 (its lower end finite: a set reaching -oo reaches below 0)."""
    if balls.infinite(a.lo) or not (bool(a.lo > 0) or (a.lo_open and a.lo.is_zero())):
        raise Undefined("log of a set reaching 0 or below")
    return balls.monotone(a, _log_end, (-math.inf, math.inf))


def _log_end(x: arb) -> Any:
    """log of an end (an exact 0 end, open, maps to -inf)."""
    return -math.inf if x.is_zero() else x.log()


def _constant_power(a: Set, c: Set) -> Set:
    """{v^t : v in a, t in c} for a set c of exponents free of the box's variables, v >= 0
    (0^t = 0 for t > 0).

    For t > 0, v^t is increasing in v, and for each v monotone in t (increasing where v >= 1,
    decreasing where v <= 1), so v^t lies between v^lo and v^hi for t in [lo, hi] (c's ends, each an
    arb ball standing for every exponent in it): the hull of a's images under the two ends, one image when
    c is one ball. For t < 0, v^t = 1 / v^(-t). When c's sign is not known, exp(t log v) (v > 0)."""
    if not a.at_least_zero(False):
        raise Undefined("a fractional power of a set reaching below 0")
    if balls.infinite(c.lo) or balls.infinite(c.hi):
        raise Undefined("a power whose exponent is unbounded")
    if c.at_least_zero(True):
        images = [_power_image(a, t) for t in ((c.lo,) if _is_point(c) else (c.lo, c.hi))]
        return images[0] if len(images) == 1 else balls.hull(images[0], images[1])
    if c.at_most_zero(True):
        opposite = balls.point(-c.lo) if _is_point(c) else balls.negate(c)
        return balls.reciprocal(_constant_power(a, opposite))
    return _exp(balls.multiply(c, _log(a)))


def _power_image(a: Set, t: arb) -> Set:
    """{v^s : v in a, s in the ball t} for a >= 0 and t > 0: increasing in v, 0^s = 0."""
    return balls.monotone(a, lambda x: arb(0) if x.is_zero() else x**t, (arb(0), math.inf))


FUNCTIONS: dict[str, Callable[[Set], Set]] = {
    "exp": _exp,
    "log": _log,
    "erf": lambda a: balls.monotone(a, lambda x: x.erf(), (arb(-1), arb(1))),
    "erfc": lambda a: balls.monotone(a, lambda x: x.erfc(), (arb(2), arb(0)), increasing=False),
    "atan": lambda a: balls.monotone(a, lambda x: x.atan(), (-arb.pi() / 2, arb.pi() / 2)),
    "tanh": lambda a: balls.monotone(a, lambda x: x.tanh(), (arb(-1), arb(1))),
    "abs": balls.absolute,
    "floor": lambda a: balls.monotone(a, lambda x: x.floor(), (-math.inf, math.inf), strictly=False),
    "ceiling": lambda a: _ceiling(a),
}


def _ceiling(a: Set) -> Set:
    """ceiling of a set: non-strictly increasing, and >= n + 1 above an integer n that is an open lower end
    (ceiling(z) >= 1 for every z > 0)."""
    image = balls.monotone(a, lambda x: x.ceil(), (-math.inf, math.inf), strictly=False)
    if not balls.infinite(a.lo) and a.lo_open and a.lo.is_exact() and a.lo.is_integer():
        return Set(a.lo + 1, image.hi, False, image.hi_open)
    return image


def _is_constant(tree: Any) -> bool:
    """No variable occurs in the tree (in a Piecewise's values or conditions either)."""
    if tree[0] == "var":
        return False
    return all(_is_constant(arg) for arg in children(tree))


def _exact_integer(exponent: Set) -> int | None:
    """The exponent's value when its set is one exact integer (a literal, or a variable fixed on a face)."""
    lo, hi = exponent.lo, exponent.hi
    if balls.infinite(lo) or balls.infinite(hi) or not (lo.is_exact() and hi.is_exact() and lo == hi):
        return None
    return int(lo.floor().unique_fmpz()) if lo.is_integer() else None


def _power(base: Set, tree_exponent: Any, exponent: Set) -> Set:
    n = _exact_integer(exponent)
    if n is not None and abs(n) <= 10**6:
        return balls.power_integer(base, n)
    if _is_constant(tree_exponent) or _is_point(exponent):
        return _constant_power(base, exponent)
    attained_zero = not balls.infinite(base.lo) and base.lo.is_zero() and not base.lo_open
    if _reaching_zero(base) and exponent.at_least_zero(False) and not exponent.at_least_zero(True):
        return _unit_power(base, exponent)
    if attained_zero and exponent.at_least_zero(True):  # 0^b = 0 for b > 0; elsewhere exp(b log a)
        if not balls.infinite(base.hi) and base.hi.is_zero():
            return balls.ZERO
        rest = Set(base.lo, base.hi, True, base.hi_open)
        return balls.hull(balls.ZERO, _exp(balls.multiply(exponent, _log(rest))))
    return _exp(balls.multiply(exponent, _log(base)))


def _reaching_zero(base: Set) -> bool:
    """The base's lower end is 0 (attained or not) and its upper end finite."""
    return not (balls.infinite(base.lo) or balls.infinite(base.hi)) and base.lo.is_zero()


def _unit_power(base: Set, exponent: Set) -> Set:
    """{v^t : v in base, t in exponent} for base in [0, A] and exponent in [0, B] reaching 0, under the
    language's convention v^0 = 1 (0^0 included) and 0^t = 0 for t > 0: inside [0, max(1, A^B)]. For
    v in (0, 1], v^t lies in [v^B, 1]; for v >= 1, in [1, v^B], and v^B <= A^B."""
    if balls.infinite(exponent.hi):
        raise Undefined("a power whose exponent is unbounded")
    top, most = base.hi, exponent.hi
    if bool(top <= 1):
        upper = arb(1)
    else:
        power = top**most
        upper = power if bool(top >= 1) else arb(1).union(power)
    return Set(arb(0), upper, False, False)


def _is_point(value: Set) -> bool:
    """The set is one ball (one unknown point of it): its ends are the same ball, or equal exact ones."""
    if balls.infinite(value.lo) or balls.infinite(value.hi):
        return False
    return value.lo is value.hi or (
        value.lo.is_exact() and value.hi.is_exact() and bool(value.lo == value.hi)
    )


def _condition(tree: Any, env: Env, depth: int) -> bool | None:
    """True / False when the condition holds / fails on the whole box, None when undetermined."""
    op = tree[0]
    if op == "true":
        return True
    if op in ("lt", "le"):
        difference = balls.add(
            enclose(tree[1], env, depth + 1), balls.negate(enclose(tree[2], env, depth + 1))
        )
        difference = sharpened(difference, ["add", tree[1], ["mul", ["num", "-1"], tree[2]]], env)
        if difference.at_most_zero(op == "lt"):
            return True
        return False if difference.at_least_zero(op == "le") else None
    if op in ("and", "or"):
        values = [_condition(arg, env, depth + 1) for arg in tree[1:]]
        decided = op == "or"  # the value that decides the connective
        if decided in values:
            return decided
        return None if None in values else not decided
    raise Malformed(f"unknown condition {op!r}")


def _branches(tree: Any, env: Env, depth: int) -> list[Any]:
    """The values of a Piecewise that may apply somewhere on the box."""
    candidates = []
    for pair in tree[1:]:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise Malformed("a Piecewise piece is not [value, condition]")
        holds = _condition(pair[1], env, depth)
        if holds is not False:
            candidates.append(pair[0])
        if holds is True:
            return candidates
    raise Undefined("a Piecewise without a branch for part of the box")


def _check(tree: Any, depth: int) -> str:
    if depth > 400:
        raise Malformed("the tree is too deep")
    if not (isinstance(tree, list) and tree and isinstance(tree[0], str)):
        raise Malformed(f"{str(tree)[:40]!r} is not a tree [op, args...]")
    return tree[0]


ARITY = {"num": 1, "var": 1, "const": 1, "pow": 2, "true": 0, "lt": 2, "le": 2, **{f: 1 for f in FUNCTIONS}}


def validate(tree: Any, names: set[str], depth: int = 0) -> None:
    """Malformed unless ``tree`` is a tree of the format over the variables ``names``."""
    op = _check(tree, depth)
    args = tree[1:]
    variadic = op in ("add", "mul", "max", "min", "piecewise", "and", "or")
    if not (len(args) == ARITY[op] if op in ARITY else variadic and args):
        raise Malformed(f"unknown tree node {op!r} with {len(args)} argument(s)")
    if op == "num":
        number(args[0])
    elif op == "var" and not (isinstance(args[0], str) and args[0] in names):
        raise Malformed(f"variable {str(args[0])[:40]!r} is not in the domain")
    elif op == "const" and args not in (["pi"], ["e"]):
        raise Malformed(f"unknown constant {str(args[0])[:40]!r}")
    elif op == "piecewise":
        for pair in args:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise Malformed("a Piecewise piece is not [value, condition]")
            validate(pair[0], names, depth + 1)
            validate(pair[1], names, depth + 1)
    elif op not in ("var", "const"):
        for arg in args:
            validate(arg, names, depth + 1)


def combine(tree: Any, values: list[Set]) -> Set:
    """The set of an add, mul, max, min, pow or function node from its arguments' sets."""
    op = tree[0]
    if op == "pow":
        return _power(values[0], tree[2], values[1])
    if op in FUNCTIONS:
        return FUNCTIONS[op](values[0])
    operation = {"add": balls.add, "mul": balls.multiply, "max": balls.maximum, "min": balls.minimum}[op]
    result = values[0]
    for value in values[1:]:
        result = operation(result, value)
    return result


def enclose(tree: Any, env: Env, depth: int = 0) -> Set:
    """A set containing every value of ``tree`` on the box ``env``."""
    op = _check(tree, depth)
    args = tree[1:]
    if op == "num":
        return balls.point(ball(number(args[0])))
    if op == "var":
        if args[0] not in env:
            raise Malformed(f"variable {args[0]!r} is not in the domain")
        return env[args[0]]
    if op == "const" and args in (["pi"], ["e"]):
        return balls.point(arb.pi() if args[0] == "pi" else arb(1).exp())
    if (op in ("add", "mul", "max", "min") and args) or (op == "pow" and len(args) == 2):
        value = combine(tree, [enclose(arg, env, depth + 1) for arg in args])
        return sharpened(value, tree, env) if op in ("add", "mul") else value
    if op in FUNCTIONS and len(args) == 1:
        return combine(tree, [enclose(args[0], env, depth + 1)])
    if op == "piecewise" and args:
        values = [enclose(value, env, depth + 1) for value in _branches(tree, env, depth)]
        result = values[0]
        for value in values[1:]:
            result = balls.hull(result, value)
        return result
    raise Malformed(f"unknown tree node {op!r} with {len(args)} argument(s)")


def _scale(factor: Set, tangent: Set | None) -> Set | None:
    return None if tangent is None else balls.multiply(factor, tangent)


def _sum(tangents: list[Set | None]) -> Set | None:
    present = [t for t in tangents if t is not None]
    if not present:
        return None
    result = present[0]
    for tangent in present[1:]:
        result = balls.add(result, tangent)
    return result


def _either(a: Set | None, b: Set | None) -> Set | None:
    """The hull of two tangents (None is 0)."""
    if a is None and b is None:
        return None
    return balls.hull(a or balls.ZERO, b or balls.ZERO)


def _derivative_factor(op: str, inner: Set, value: Set) -> Set:
    """d f(u) / du for a smooth unary f, on the set of u (``value`` is f(u))."""
    if op == "exp":
        return value
    if op == "log":
        return balls.reciprocal(inner)
    if op in ("erf", "erfc"):
        density = balls.multiply(
            balls.point(2 / arb.pi().sqrt()), _exp(balls.negate(balls.power_integer(inner, 2)))
        )
        return density if op == "erf" else balls.negate(density)
    if op == "atan":
        return balls.reciprocal(balls.add(balls.point(arb(1)), balls.power_integer(inner, 2)))
    if op == "tanh":
        return balls.add(balls.point(arb(1)), balls.negate(balls.power_integer(value, 2)))
    raise Malformed(op)


def slope(tree: Any, env: Env, closed: Env, name: str) -> Set:
    """A set containing d tree / d name on ``env`` (see the module docstring)."""
    _, tangent = _dual(tree, env, closed, name, 0)
    return balls.ZERO if tangent is None else tangent


def _dual(tree: Any, env: Env, closed: Env, name: str, depth: int) -> Dual:
    op = _check(tree, depth)
    args = tree[1:]
    if op == "var":
        return enclose(tree, env), (balls.point(arb(1)) if args[0] == name else None)
    if op in ("num", "const"):
        return enclose(tree, env), None
    if op == "piecewise":
        return _dual_piecewise(tree, env, closed, name, depth)
    duals = [_dual(arg, env, closed, name, depth + 1) for arg in args if isinstance(arg, list)]
    if not (
        (op in ("add", "mul", "max", "min") and args) or (op == "pow" and len(args) == 2) or op in FUNCTIONS
    ):
        raise Malformed(f"unknown tree node {op!r} with {len(args)} argument(s)")
    value = combine(tree, [v for v, _ in duals])
    if op in ("add", "mul"):
        value = sharpened(value, tree, env)
    if all(t is None for _, t in duals):
        return value, None
    if op == "add":
        return value, _sum([t for _, t in duals])
    if op == "mul":
        terms = []
        for index, (_, tangent) in enumerate(duals):
            others = [v for j, (v, _) in enumerate(duals) if j != index]
            for other in others:
                tangent = _scale(other, tangent)
            terms.append(tangent)
        return value, _sum(terms)
    if op == "pow":
        return value, _dual_power(args[1], duals, value)
    if op in ("max", "min"):
        (best, tangent), *rest = duals
        for other, other_tangent in rest:
            ends = [best.lo, best.hi, other.lo, other.hi]
            first_wins = second_wins = False
            if not any(balls.infinite(e) for e in ends):
                first_wins = bool(best.lo >= other.hi) if op == "max" else bool(best.hi <= other.lo)
                second_wins = bool(other.lo >= best.hi) if op == "max" else bool(other.hi <= best.lo)
            if second_wins:
                tangent = other_tangent
            elif not first_wins:
                tangent = _either(tangent, other_tangent)
            best = balls.maximum(best, other) if op == "max" else balls.minimum(best, other)
        return value, tangent
    ((inner, tangent),) = duals
    if op == "abs":
        if inner.at_least_zero(False):
            return value, tangent
        if inner.at_most_zero(False):
            return value, _scale(balls.point(arb(-1)), tangent)
        return value, _scale(Set(arb(-1), arb(1)), tangent)
    if op in ("floor", "ceiling"):
        raise Discontinuous(f"{op} of an expression in {name}")
    return value, _scale(_derivative_factor(op, inner, value), tangent)


def _dual_power(exponent_tree: Any, duals: list[Dual], value: Set) -> Set | None:
    (base, base_tangent), (exponent, exponent_tangent) = duals
    n = _exact_integer(exponent)
    if n is not None and abs(n) <= 10**6:
        return _scale(balls.multiply(balls.point(arb(n)), balls.power_integer(base, n - 1)), base_tangent)
    if exponent_tangent is None and (_is_constant(exponent_tree) or _is_point(exponent)):
        lowered = _constant_power(base, balls.add(exponent, balls.point(arb(-1))))
        return _scale(balls.multiply(exponent, lowered), base_tangent)
    # a^b = exp(b log a): d = a^b (b' log a + b a' / a)
    inner = _sum(
        [
            _scale(_log(base), exponent_tangent),
            _scale(balls.multiply(exponent, balls.reciprocal(base)), base_tangent),
        ]
    )
    return _scale(value, inner)


def _dual_piecewise(tree: Any, env: Env, closed: Env, name: str, depth: int) -> Dual:
    """A Piecewise whose branch is fixed on the closed box, or whose conditions are free of ``name``."""
    candidates = _branches(tree, closed, depth)
    if len(candidates) > 1 and any(mentions(pair[1], name) for pair in tree[1:]):
        raise Discontinuous(f"a Piecewise whose branch in {name} is not fixed on the box")
    duals = [_dual(value, env, closed, name, depth + 1) for value in candidates]
    tangent = duals[0][1]
    for _, other in duals[1:]:
        tangent = _either(tangent, other)
    return enclose(tree, env), tangent


def continuous(tree: Any, names: list[str]) -> bool:
    """No floor, ceiling or Piecewise of the tree depends on one of ``names`` (the tree is then continuous
    in them wherever it is defined)."""
    if tree[0] in ("floor", "ceiling", "piecewise"):
        return not any(mentions(tree, name) for name in names)
    return all(continuous(arg, names) for arg in children(tree))


def mentions(tree: Any, name: str) -> bool:
    """The tree depends on the variable ``name`` (it names it)."""
    if tree[0] == "var":
        return bool(tree[1] == name)
    return any(mentions(arg, name) for arg in children(tree))
