"""Definedness of a statement as typed: is its text defined at every point of its domain?

The prover decides the expression sympy made of the text, which may have cancelled what the text leaves
undefined (``x/x`` is 1, ``log(x) - log(x)`` is 0, ``exp(log(x))`` is x, ``sqrt(x)^2`` is x). The text's
meaning is its *typed tree* (:class:`theory.prover.language.Parsed`), and a statement is decided only when
that tree is defined on the whole domain: no division by 0 (a^-n with a = 0), no log of a number <= 0, no
non-integer power of a number < 0 (nor a power <= 0 of 0), no Piecewise without a branch, a condition
defined wherever it is asked.

:func:`require_defined` decides it by branch and bound: the kernel's enclosure of the typed tree on a box
(:func:`theory.prover.kernel.trees.enclose`, which raises ``Undefined`` unless every operation is defined on
the whole box) proves the box defined; a box it cannot is cut at a Piecewise condition's boundary inside it
(:func:`theory.prover.kernel.cases.boundaries`: on each side the condition is decided exactly, so a branch
undefined where it is not taken, 1/(x - 1/3) for 1/3 < x, is not enclosed there), else at a simple rational
inside it (so the points where a denominator vanishes, usually simple, are met exactly), into two open halves
and the cut face; a point is decided by exact evaluation (sympy numbers, each sign decided exactly or from 60
digits when the number is not within 10^-50 of 0). Proved defined: nothing happens; a point where the text is
undefined: :class:`UndefinedStatement` naming it; neither within :data:`MAX_BOXES` boxes: the statement is
refused as undecided (an :class:`UndefinedStatement` too, saying so), never decided. Provenance: derived
(interval arithmetic; exact arithmetic at points).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from theory.errors import InvalidArgument

if TYPE_CHECKING:
    import sympy as sp

    from theory.prover.domain import Domain
    from theory.prover.statement import Statement

MAX_BOXES = 300
"""Boxes enclosed before the definedness of one inequality is declared undecided."""

Interval = tuple[Any, Any, bool, bool]
"""(lo, hi, lo_open, hi_open): Fraction ends or -math.inf / math.inf."""


class UndefinedStatement(InvalidArgument):
    """The statement's text is undefined at a point of its domain, or its definedness is undecided."""


class _Undefined(ArithmeticError):
    """The typed tree is undefined at the point (the reason is the message)."""


class _Unknown(ArithmeticError):
    """A sign at the point could not be decided."""


def require_defined(statement: Statement) -> None:
    """Nothing when every inequality of ``statement`` that was parsed from text is defined, as typed, on the
    whole domain; else :class:`UndefinedStatement` with the point, or saying definedness is undecided."""
    for inequality in statement.inequalities:
        if inequality.sides is None and inequality.tree is None:
            continue  # built from sympy by the program (the lemma registry), not read from text
        where = f"in {inequality.text.strip()[:80]!r}"
        if inequality.typed is None:
            raise UndefinedStatement(
                f"{where}: the text has a part with no typed tree (a derivative sympy leaves unevaluated), "
                "so its definedness cannot be decided; write the derivative out"
            )
        check_defined(inequality.typed, statement.domain, where)


def check_defined(tree: Any, domain: Domain, where: str) -> None:
    """Nothing when the typed tree ``tree`` is defined at every point of ``domain``; else
    :class:`UndefinedStatement` naming a point where it is undefined, or saying it is undecided."""
    from theory.errors import require

    require("flint", purpose="deciding a statement's definedness (interval arithmetic)")
    from theory.prover.kernel import cases

    integer = {variable.name: variable.integer for variable in domain.variables}
    stack: list[dict[str, Interval]] = [
        {v.name: (v.lower, v.upper, v.lower_open, v.upper_open) for v in domain.variables}
    ]
    boundaries = cases.boundaries(tree)
    enclosed = 0
    while stack:
        box = stack.pop()
        if _enclosed(tree, box) or _premised(tree, box, integer):
            continue
        enclosed += 1
        wide = [name for name, (lo, hi, _, _) in box.items() if lo != hi]
        if not wide:
            point = {name: lo for name, (lo, _, _, _) in box.items()}
            try:
                _value(tree, {name: _number(value) for name, value in point.items()})
            except _Undefined as reason:
                shown = ", ".join(f"{name} = {value}" for name, value in point.items())
                raise UndefinedStatement(
                    f"{where}: the text as typed is undefined at {shown} ({reason}); the prover decides "
                    "only statements defined on their whole domain: exclude the point from the domain or "
                    "write the expression defined there"
                ) from None
            except _Unknown:
                pass
            else:
                continue
        if enclosed > MAX_BOXES or not wide:
            shown = ", ".join(f"{name} in {_describe(interval)}" for name, interval in box.items())
            raise UndefinedStatement(
                f"{where}: cannot decide that the text as typed is defined on the whole domain (near "
                f"{shown}); the statement is not decided: write it so that every division, log and "
                "fractional power is visibly defined, or narrow the domain"
            )
        name = max(wide, key=lambda n: _width(box[n]))
        stack.extend(reversed(_cut(box, name, integer[name], boundaries.get(name, []))))


def _enclosed(tree: Any, box: dict[str, Interval]) -> bool:
    """The kernel's enclosure of ``tree`` exists on ``box`` (every operation defined there)."""
    from theory.prover.kernel.balls import Undefined
    from theory.prover.kernel.trees import enclose, ranged

    env = {name: ranged(*interval) for name, interval in box.items()}
    try:
        enclose(tree, env)
    except (Undefined, ArithmeticError, ValueError):
        return False
    return True


def _premised(tree: Any, box: dict[str, Interval], integer: dict[str, bool], level: int = 0) -> bool:
    """The tree is defined on the box by cases on its first Piecewise: its conditions are defined there,
    some branch applies at every point, and each branch's value, put in the tree, is defined on its region
    (:func:`theory.prover.kernel.cases.regions`), or on the set of a shift of one of its case's affine
    premises (:func:`theory.prover.kernel.premises.shifted`: 1/(x - y) where x > y is 1/t on t > 0), a set
    containing every point of the region where the premise holds."""
    from theory.prover.kernel import cases, premises, verify

    node = cases.first(tree, ("piecewise",))
    if node is None or level > 1:
        return False
    kernel_box = {name: (lo, hi) for name, (lo, hi, _, _) in box.items()}
    domain = {
        name: verify.Variable(name, lo, hi, lo_open, hi_open, integer[name])
        for name, (lo, hi, lo_open, hi_open) in box.items()
    }
    places = cases.regions(node, kernel_box, domain)
    if places[-1] is not None or not cases.conditions_defined(node, kernel_box, domain):
        return False
    for index, ((value, _), place) in enumerate(zip(node[1:], places, strict=False)):
        if place is None:
            continue
        case = cases.replaced(tree, node, value)
        given = premises.of_branch(node, index)
        if verify.defined(case, *place) or any(
            _shifted_defined(case, place, given, k, integer, level) for k in range(len(given))
        ):
            continue
        return False
    return True


def _shifted_defined(
    tree: Any, place: tuple[Any, Any], given: list[Any], index: int, integer: dict[str, bool], level: int
) -> bool:
    """The tree is defined on the set of a shift of premise ``index`` in one of its variables."""
    from theory.prover.kernel import premises, trees, verify

    form = trees.affine(given[index][0]) or {}
    for name in form:
        if name is None or name not in place[0] or place[1][name].integer:
            continue
        moved = premises.shifted(tree, place[0], place[1], given, index, name)
        if moved is None:
            return True
        if isinstance(moved, str):
            continue
        shifted_box = {
            key: (lo, hi, moved[2][key].open_at(lo, True), moved[2][key].open_at(hi, False))
            for key, (lo, hi) in moved[1].items()
        }
        flags = {key: moved[2][key].integer for key in moved[1]}
        if verify.defined(*moved[:3]) or _premised(moved[0], shifted_box, flags, level + 1):
            return True
    return False


def _width(interval: Interval) -> float:
    lo, hi, _, _ = interval
    return math.inf if math.isinf(lo) or math.isinf(hi) else float(hi - lo)


def _describe(interval: Interval) -> str:
    lo, hi, lo_open, hi_open = interval
    show = lambda v: ("-oo" if v < 0 else "oo") if isinstance(v, float) else f"{float(v):.6g}"  # noqa: E731
    return f"{'(' if lo_open else '['}{show(lo)}, {show(hi)}{')' if hi_open else ']'}"


def _cut(
    box: dict[str, Interval], name: str, integer: bool, boundaries: list[Fraction]
) -> list[dict[str, Interval]]:
    """``box`` cut in ``name``, the point face first: a closed finite end split off (the face at it, the
    rest open there), else at a Piecewise condition's boundary inside (``boundaries``, for a real
    variable) or a simple point c inside (the face at c, below c, above c; for an integer variable, c and
    the integers below and above)."""
    lo, hi, lo_open, hi_open = box[name]
    step = 1 if integer else 0
    inside = [q for q in boundaries if not integer and lo < q < hi]
    if not lo_open and not isinstance(lo, float):
        parts = [(lo, lo, False, False), (lo + step, hi, not integer, hi_open)]
    elif not hi_open and not isinstance(hi, float):
        parts = [(hi, hi, False, False), (lo, hi - step, lo_open, not integer)]
    else:
        c = inside[0] if inside else _cut_point(lo, hi)
        if integer:
            c = Fraction(math.floor(c))
        parts = [
            (c, c, False, False),
            (lo, c - step, lo_open, not integer),
            (c + step, hi, not integer, hi_open),
        ]
    kept = [p for p in parts if isinstance(p[0], float) or isinstance(p[1], float) or p[0] <= p[1]]
    return [{**box, name: part} for part in kept if part[0] != part[1] or not (part[2] or part[3])]


def _cut_point(lo: Any, hi: Any) -> Fraction:
    """A point inside (lo, hi): 0 on the whole line, a step of max(1, |end|) beyond the finite end of a
    half-line, else the rational of smallest denominator in the middle half."""
    if isinstance(lo, float) and isinstance(hi, float):
        return Fraction(0)
    if isinstance(lo, float):
        return hi - max(Fraction(1), abs(hi))
    if isinstance(hi, float):
        return lo + max(Fraction(1), abs(lo))
    left, right = lo + (hi - lo) / 4, hi - (hi - lo) / 4
    for denominator in range(1, 65):
        numerator = math.ceil(left * denominator)
        if Fraction(numerator, denominator) <= right:
            return Fraction(numerator, denominator)
    return (lo + hi) / 2


def _number(value: Fraction) -> sp.Expr:
    import sympy as sp

    return sp.Rational(value.numerator, value.denominator)


def _sign(value: sp.Expr) -> int:
    """-1, 0 or 1: exactly when sympy knows, else from 60 digits when |value| > 10^-50; else _Unknown."""
    import sympy as sp

    try:
        if value.is_zero:
            return 0
        if value.is_positive:
            return 1
        if value.is_negative:
            return -1
        approximate = sp.N(value, 60)
        if approximate.is_real and abs(approximate) > sp.Rational(1, 10**50):
            return 1 if approximate > 0 else -1
    except (TypeError, ValueError, ArithmeticError):
        pass
    raise _Unknown(str(value))


def _value(tree: Any, point: dict[str, sp.Expr]) -> sp.Expr:
    """The exact value of the typed tree at ``point``; _Undefined (with the reason) where an operation is
    undefined there, _Unknown where a sign cannot be decided."""
    import sympy as sp

    op, args = tree[0], tree[1:]
    if op == "num":
        return _number(Fraction(args[0]))
    if op == "var":
        return point[args[0]]
    if op == "const":
        return sp.pi if args[0] == "pi" else sp.E
    if op == "piecewise":
        for value, condition in args:
            if _holds(condition, point):
                return _value(value, point)
        raise _Undefined("no branch of a Piecewise applies")
    values = [_value(arg, point) for arg in args]
    if op == "add":
        return sp.Add(*values)
    if op == "mul":
        return sp.Mul(*values)
    if op in ("max", "min"):
        best = values[0]
        for other in values[1:]:
            better = _sign(other - best) > 0 if op == "max" else _sign(other - best) < 0
            best = other if better else best
        return best
    if op == "pow":
        base, exponent = values
        if exponent.is_integer:
            if exponent.is_negative and _sign(base) == 0:
                raise _Undefined(f"a division by 0: ({base})^({exponent})")
            return sp.Pow(base, exponent)
        sign = _sign(base)
        if sign < 0:
            raise _Undefined(f"a non-integer power of a negative number: ({base})^({exponent})")
        if sign == 0:
            if _sign(exponent) <= 0:
                raise _Undefined(f"a power <= 0 of 0: 0^({exponent})")
            return sp.Integer(0)
        return sp.Pow(base, exponent)
    (argument,) = values
    if op == "log":
        if _sign(argument) <= 0:
            raise _Undefined(f"the log of {argument}, not > 0")
        return sp.log(argument)
    functions = {
        "exp": sp.exp,
        "erf": sp.erf,
        "erfc": sp.erfc,
        "atan": sp.atan,
        "tanh": sp.tanh,
        "abs": sp.Abs,
        "floor": sp.floor,
        "ceiling": sp.ceiling,
    }
    if op not in functions:
        raise _Unknown(op)
    return functions[op](argument)


def _holds(condition: Any, point: dict[str, sp.Expr]) -> bool:
    """A Piecewise condition at the point (its sides must be defined there)."""
    op, args = condition[0], condition[1:]
    if op == "true":
        return True
    if op in ("and", "or"):
        values = [_holds(arg, point) for arg in args]
        return all(values) if op == "and" else any(values)
    difference = _sign(_value(args[1], point) - _value(args[0], point))
    return difference > 0 or (difference == 0 and op == "le")
