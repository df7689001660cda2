"""An independent evaluation of the prover's expression trees in mpmath: the reference the kernel's
containment, normal-form and derivative properties are checked against (it shares no code with the
kernel). A point where the tree is undefined raises ValueError (a fractional power of a negative number)
or ZeroDivisionError (0 to a negative power, a log of 0)."""

from __future__ import annotations

from fractions import Fraction

import mpmath

FUNCTIONS = {
    "exp": mpmath.exp,
    "log": mpmath.log,
    "erf": mpmath.erf,
    "erfc": mpmath.erfc,
    "atan": mpmath.atan,
    "tanh": mpmath.tanh,
    "abs": abs,
    "floor": mpmath.floor,
    "ceiling": mpmath.ceil,
}


def evaluate(tree: list, values: dict[str, object]) -> mpmath.mpf:
    """``tree`` at the point ``values`` (variable name to mpf), in mpmath's working precision."""
    op, args = tree[0], tree[1:]
    if op == "num":
        value = Fraction(args[0])
        return mpmath.mpf(value.numerator) / value.denominator
    if op == "var":
        return values[args[0]]
    if op == "const":
        return mpmath.pi if args[0] == "pi" else mpmath.e
    if op == "true":
        return True
    if op == "piecewise":
        return next(evaluate(value, values) for value, condition in args if evaluate(condition, values))
    parts = [evaluate(a, values) for a in args]
    if op in ("lt", "le"):
        return parts[0] < parts[1] if op == "lt" else parts[0] <= parts[1]
    if op == "add":
        return mpmath.fsum(parts)
    if op == "mul":
        return mpmath.fprod(parts)
    if op == "pow":
        if parts[0] < 0 and parts[1] != int(parts[1]):
            raise ValueError("a fractional power of a negative number")
        if parts[0] == 0 and parts[1] < 0:
            raise ZeroDivisionError
        return parts[0] ** parts[1]
    if op in FUNCTIONS:
        return FUNCTIONS[op](parts[0])
    if op in ("max", "min"):
        return max(parts) if op == "max" else min(parts)
    raise AssertionError(op)


def form_agrees(tree: list, form: list, point: dict[str, Fraction], digits: int = 50) -> bool:
    """The rewritten ``form`` equals ``tree`` at the rational ``point`` to 30 digits (both evaluated at
    ``digits``, and again at 4 ``digits`` when they differ: a form may cancel terms far larger than the
    value, min(1/3, e^(e^4)) = 1/6 + e^(e^4)/2 - |1/3 - e^(e^4)|/2), or the tree is undefined, complex or
    beyond 10^12 there (nothing to compare)."""
    values = {name: mpmath.mpf(v.numerator) / v.denominator for name, v in point.items()}
    for precision in (digits, 4 * digits):
        with mpmath.workdps(precision):
            try:
                value = evaluate(tree, values)
            except (ValueError, ZeroDivisionError, OverflowError, TypeError):  # TypeError: a complex value
                return True
            if not isinstance(value, mpmath.mpf) or not mpmath.isfinite(value) or abs(value) > 10**12:
                return True
            if abs(evaluate(form, values) - value) <= mpmath.mpf(10) ** -30 * (1 + abs(value)):
                return True
    return False
