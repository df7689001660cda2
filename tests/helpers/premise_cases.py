"""Adversarial statements for the kernel's premised cases (theory/prover/kernel/premises.py) with an
oracle of their own: small Min/Max/Piecewise templates in 1-3 variables whose case conditions are affine
(or, in one family, polynomial) comparisons, strict and not, joined by ``&``/``|``, each built true and
as a near miss (a tie, a boundary point or a band of width eps where it fails).

Truth is decided here, never by the prover: each expression is a small tree of this module, rendered to
the prover's text and evaluated at points, the conditions in exact rationals (a branch is chosen exactly,
ties included) and the values with mpmath at 50 digits (within 10^-40 of 0 is 0); division by 0 in the
value taken is undefined.
The points are a grid of each variable's domain (dyadic, ends included; an unbounded variable on
[-4, 4]) plus the analytic touching points: for every pair of affine forms a template compares, every
grid point of the other variables completed in each variable so that p - q is 0, +-eps/2 or +-eps/4
(exact rationals, kept when inside the domain). A statement is FALSE when a point fails (that point is
its witness), UNDEFINED when the value taken is undefined at a point, else TRUE (on these points; only
FALSE and UNDEFINED are definitive, and only they are needed to call a "proved" wrong).
Provenance: not applicable (test data).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

DIGITS = 50
TOLERANCE = mpmath.mpf(10) ** (10 - DIGITS)
"""A value within this of 0 is 0: a tie at a non-dyadic point (x = y = -1/6) is exact in the conditions but
its values agree only to the precision."""
TRUE, FALSE, UNDEFINED = "true", "false", "undefined"
Node = tuple[Any, ...]
"""("num", q) | ("var", name) | ("add", a, b, ...) | ("mul", a, b, ...) | ("pow", a, n) | ("div", a, b) |
("max" | "min", a, b, ...) | ("pw", ((value, condition), ...)); conditions ("lt" | "le", a, b) (a < b,
a <= b), ("and" | "or", comparison, condition), ("true",)."""


class UndefinedHere(ArithmeticError):
    """The expression is undefined at the point (a division by 0)."""


def num(q: Any) -> Node:
    return ("num", Fraction(q))


def var(name: str) -> Node:
    return ("var", name)


def add(*parts: Node) -> Node:
    return ("add", *parts)


def sub(a: Node, b: Node) -> Node:
    return ("add", a, ("mul", num(-1), b))


def mul(*parts: Node) -> Node:
    return ("mul", *parts)


def _text_number(q: Fraction) -> str:
    return f"({q.numerator}/{q.denominator})" if q.denominator != 1 else f"({q.numerator})"


def text(node: Node) -> str:
    """The prover's text of an expression or a condition (conditions right-nested, as the language reads
    ``a & b | c``: a & (b | c))."""
    op = node[0]
    if op == "num":
        return _text_number(node[1])
    if op == "var":
        return node[1]
    if op == "add":
        return "(" + " + ".join(text(a) for a in node[1:]) + ")"
    if op == "mul":
        return "(" + "*".join(text(a) for a in node[1:]) + ")"
    if op == "pow":
        return f"({text(node[1])})^{node[2]}"
    if op == "div":
        return f"({text(node[1])})/({text(node[2])})"
    if op in ("max", "min"):
        return ("Max(" if op == "max" else "Min(") + ", ".join(text(a) for a in node[1:]) + ")"
    if op == "pw":
        return "Piecewise(" + ", ".join(f"({text(v)}, {text(c)})" for v, c in node[1]) + ")"
    if op in ("lt", "le"):
        return f"{text(node[1])} {'<' if op == 'lt' else '<='} {text(node[2])}"
    if op in ("and", "or"):
        return f"{text(node[1])} {'&' if op == 'and' else '|'} {text(node[2])}"
    if op == "true":
        return "True"
    raise AssertionError(op)


def exact(node: Any, point: dict[str, Fraction]) -> Fraction:
    """The exact rational value of a division-free expression of numbers, variables, sums, products,
    integer powers, Min and Max: the generator's nodes (numbers as Fractions, exponents as ints) and the
    kernel's data trees (numbers as "p/q" text, exponents as number trees)."""
    op = node[0]
    if op == "num":
        return Fraction(node[1])
    if op == "var":
        return point[node[1]]
    if op == "pow":
        exponent = node[2] if isinstance(node[2], int) else exact(node[2], point)
        return exact(node[1], point) ** int(exponent)
    values = [exact(a, point) for a in node[1:]]
    if op == "add":
        return sum(values, Fraction(0))
    if op == "mul":
        product = Fraction(1)
        for value in values:
            product *= value
        return product
    if op in ("min", "max"):
        return min(values) if op == "min" else max(values)
    raise AssertionError(f"{op} in a condition")


def holds(condition: Node, point: dict[str, Fraction]) -> bool:
    """The condition at the point, exactly."""
    op = condition[0]
    if op == "true":
        return True
    if op in ("lt", "le"):
        a, b = exact(condition[1], point), exact(condition[2], point)
        return a < b if op == "lt" else a <= b
    parts = [holds(c, point) for c in condition[1:]]
    return all(parts) if op == "and" else any(parts)


def value(node: Node, point: dict[str, Fraction]) -> Any:
    """The expression at the point with mpmath (call inside ``mpmath.workdps(DIGITS)``); UndefinedHere."""
    op = node[0]
    if op == "num":
        return mpmath.mpf(node[1].numerator) / node[1].denominator
    if op == "var":
        q = point[node[1]]
        return mpmath.mpf(q.numerator) / q.denominator
    if op == "pw":
        for branch, condition in node[1]:
            if holds(condition, point):
                return value(branch, point)
        raise UndefinedHere("no branch")
    if op == "pow":
        return value(node[1], point) ** node[2]
    values = [value(a, point) for a in node[1:]]
    if op == "add":
        return mpmath.fsum(values)
    if op == "mul":
        return mpmath.fprod(values)
    if op == "div":
        if values[1] == 0:
            raise UndefinedHere("division by 0")
        return values[0] / values[1]
    if op == "max":
        return max(values)
    if op == "min":
        return min(values)
    raise AssertionError(op)


@dataclass
class Var:
    """A real variable on [lo, hi] (None: unbounded that side)."""

    name: str
    lo: Fraction | None
    hi: Fraction | None

    def domain(self) -> str:
        if self.lo is None and self.hi is None:
            return f"{self.name}: real"
        return f"{self.name}: [{self.lo}, {self.hi}]"

    def grid(self, steps: int) -> list[Fraction]:
        lo = Fraction(-4) if self.lo is None else self.lo
        hi = Fraction(4) if self.hi is None else self.hi
        return sorted({lo + (hi - lo) * k / steps for k in range(steps + 1)})

    def inside(self, q: Fraction) -> bool:
        return (self.lo is None or q >= self.lo) and (self.hi is None or q <= self.hi)


@dataclass
class Case:
    """A generated statement lhs rel rhs with its template (family), the pairs of affine forms whose ties
    and bands are sampled, and its oracle truth and witness (set by :func:`judge_truth`)."""

    family: str
    variables: list[Var]
    lhs: Node
    relation: str
    rhs: Node
    ties: list[tuple[Node, Node]]
    eps: Fraction
    truth: str = ""
    witness: dict[str, Fraction] | None = None
    points: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def statement(self) -> str:
        return f"{text(self.lhs)} {self.relation} {text(self.rhs)}"

    @property
    def domain(self) -> str:
        return ", ".join(v.domain() for v in self.variables)

    def gap(self, point: dict[str, Fraction]) -> Any:
        """lhs - rhs for >= and >, rhs - lhs for <= and <, with mpmath (UndefinedHere)."""
        with mpmath.workdps(DIGITS):
            left, right = value(self.lhs, point), value(self.rhs, point)
            return left - right if self.relation in (">=", ">") else right - left

    def fails_at(self, point: dict[str, Fraction]) -> bool:
        """The point is in the domain and the claim fails there (undefined counts as failing)."""
        if set(point) != {v.name for v in self.variables}:
            return False
        if not all(v.inside(point[v.name]) for v in self.variables):
            return False
        try:
            gap = self.gap(point)
        except UndefinedHere:
            return True
        return self.failing(gap)

    def failing(self, gap: Any) -> bool:
        """The claim fails at a point with this gap (within :data:`TOLERANCE` of 0 counts as 0)."""
        return gap < -TOLERANCE if self.relation in (">=", "<=") else gap < TOLERANCE


def _affine_parts(node: Node) -> dict[str | None, Fraction] | None:
    """{variable: coefficient, None: constant} of an affine node, else None."""
    op = node[0]
    if op == "num":
        return {None: node[1]}
    if op == "var":
        return {node[1]: Fraction(1)}
    if op == "add":
        total: dict[str | None, Fraction] = {}
        for part in node[1:]:
            found = _affine_parts(part)
            if found is None:
                return None
            for key, k in found.items():
                total[key] = total.get(key, Fraction(0)) + k
        return total
    if op == "mul":
        numbers = [a for a in node[1:] if a[0] == "num"]
        others = [a for a in node[1:] if a[0] != "num"]
        if len(others) > 1:
            return None
        factor = Fraction(1)
        for a in numbers:
            factor *= a[1]
        if not others:
            return {None: factor}
        found = _affine_parts(others[0])
        return None if found is None else {key: factor * k for key, k in found.items()}
    return None


def sample_points(case: Case, steps: int) -> list[dict[str, Fraction]]:
    """The grid and the touching points of the case (see the module docstring)."""
    names = [v.name for v in case.variables]
    grids = {v.name: v.grid(steps) for v in case.variables}
    points = [dict(zip(names, values, strict=True)) for values in itertools.product(*grids.values())]
    offsets = [Fraction(0), case.eps / 2, -case.eps / 2, case.eps / 4, -case.eps / 4]
    for p, q in case.ties:
        form = _affine_parts(sub(p, q))
        if form is None:
            continue
        for name in names:
            k = form.get(name, Fraction(0))
            if k == 0:
                continue
            others = [n for n in names if n != name]
            for values in itertools.product(*(grids[n] for n in others)):
                base = dict(zip(others, values, strict=True))
                rest = form.get(None, Fraction(0)) + sum(form.get(n, Fraction(0)) * base[n] for n in others)
                for d in offsets:
                    solved = (d - rest) / k
                    if next(v for v in case.variables if v.name == name).inside(solved):
                        points.append({**base, name: solved})
    return points


def judge_truth(case: Case, steps: int) -> Case:
    """Set the case's truth and witness from its points (see the module docstring)."""
    points = sample_points(case, steps)
    case.points = len(points)
    truth, witness = TRUE, None
    for point in points:
        try:
            gap = case.gap(point)
        except UndefinedHere:
            case.truth, case.witness = UNDEFINED, point
            return case
        if truth == TRUE and case.failing(gap):
            truth, witness = FALSE, point
    case.truth, case.witness = truth, witness
    return case


COEFFICIENTS = [Fraction(k, 2) for k in (-4, -2, -1, 1, 2, 4)]
CONSTANTS = [Fraction(k, 4) for k in range(-4, 5)]
EPSILONS = [Fraction(1, 8), Fraction(1, 64), Fraction(1, 1024)]


def _affine(rng: random.Random, names: list[str]) -> Node:
    chosen = rng.sample(names, rng.randint(1, len(names)))
    terms: list[Node] = [mul(num(rng.choice(COEFFICIENTS)), var(n)) for n in sorted(chosen)]
    constant = rng.choice(CONSTANTS)
    return add(*terms, num(constant)) if constant or len(terms) > 1 else terms[0]


def _compare(rng: random.Random, p: Node, q: Node) -> Node:
    """p > q (or p >= q) written as the language allows, in one of its two spellings."""
    strict = rng.random() < 0.5
    return ("lt" if strict else "le", q, p)


def _tight(rng: random.Random, eps: Fraction) -> Fraction:
    return rng.choice([Fraction(0), eps])


Template = Callable[[random.Random, list[Var], Fraction], tuple[Node, str, Node, list[tuple[Node, Node]]]]


def _lowest(form: dict[str | None, Fraction], variables: list[Var]) -> Fraction | None:
    """The least value of an affine form on the box (None when a variable it has is unbounded)."""
    total = form.get(None, Fraction(0))
    for v in variables:
        k = form.get(v.name, Fraction(0))
        end = v.lo if k > 0 else v.hi
        if k and end is None:
            return None
        if k and end is not None:
            total += k * end
    return total


def _nonnegative(rng: random.Random, variables: list[Var]) -> Node:
    """An affine form >= 0 on the box, 0 at a corner or 1/4 above (any affine form when unbounded)."""
    p = _affine(rng, [v.name for v in variables])
    low = _lowest(_affine_parts(p) or {}, variables)
    return p if low is None else add(p, num(rng.choice([Fraction(0), Fraction(1, 4)]) - low))


def _min_square(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    p, q = _nonnegative(rng, variables), _nonnegative(rng, variables)
    op = rng.choice(["min", "max"])
    k = _tight(rng, eps)
    if op == "min":  # Min(p, q)^2 <= p q where both are >= 0
        return ("pow", ("min", p, q), 2), "<=", sub(mul(p, q), num(k)), [(p, q)]
    return ("pow", ("max", p, q), 2), ">=", add(mul(p, q), num(k)), [(p, q)]


def _midpoint(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    p, q = _affine(rng, names), _affine(rng, names)
    k = _tight(rng, eps)
    half = mul(num(Fraction(1, 2)), add(p, q))
    if rng.random() < 0.5:
        return ("max", p, q), rng.choice([">=", ">"]), add(half, num(k)), [(p, q)]
    return ("min", p, q), rng.choice(["<=", "<"]), sub(half, num(k)), [(p, q)]


def _strict_tie(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """Piecewise((p - q, p > q), (q - p - k, True)) >= 0 and its >= and > variants."""
    p, q = _affine(rng, names), _affine(rng, names)
    k = _tight(rng, eps)
    claim = rng.choice([">=", ">"])
    other = sub(sub(q, p), num(k)) if claim == ">=" else num(1)
    return ("pw", ((sub(p, q), _compare(rng, p, q)), (other, ("true",)))), claim, num(0), [(p, q)]


def _division(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """Piecewise((1/(p - q), p > q), (0, True)) >= 0: defined when strict, undefined at a tie when not."""
    p, q = _affine(rng, names), _affine(rng, names)
    k = _tight(rng, eps)
    pw = ("pw", ((("div", num(1), sub(p, q)), _compare(rng, p, q)), (num(0), ("true",))))
    return pw, ">=", num(k), [(p, q)]


def _joined(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """A three-branch Piecewise with ``&`` and ``|`` conditions whose values are >= 0 where they are
    taken: (q1 - p1)(q2 - p2) under p1 < q1 & p2 < q2, (q3 - p3)^2 under an ``or``, and the sum of the
    failed ``or``'s two differences last; less k."""
    p1, q1, p2, q2, p3, q3, p4, q4 = (_affine(rng, names) for _ in range(8))
    k = _tight(rng, eps)
    first = ("and", _compare(rng, q1, p1), _compare(rng, q2, p2))
    second = ("or", _compare(rng, q3, p3), _compare(rng, q4, p4))
    values = (
        (sub(mul(sub(q1, p1), sub(q2, p2)), num(k)), first),
        (sub(("pow", sub(q3, p3), 2), num(k)), second),
        (sub(add(sub(p3, q3), sub(p4, q4)), num(k)), ("true",)),
    )
    return ("pw", values), ">=", num(0), [(p1, q1), (p2, q2), (p3, q3), (p4, q4)]


def _earlier(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """Piecewise((0, p <= q), (p - q, r <= s), ((p - q)(r - s) - k, True)) >= 0: the last value is >= 0
    only by both earlier conditions failing."""
    p, q, r, s = (_affine(rng, names) for _ in range(4))
    k = _tight(rng, eps)
    values = (
        (num(0), _compare(rng, q, p)),
        (sub(p, q), _compare(rng, s, r)),
        (sub(mul(sub(p, q), sub(r, s)), num(k)), ("true",)),
    )
    return ("pw", values), ">=", num(0), [(p, q), (r, s)]


def _nested(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """Max(Min(p, q), Min(p, r)) against Min(p, Max(q, r)) (equal), or a Piecewise Max inside a Max."""
    p, q, r = (_affine(rng, names) for _ in range(3))
    k = _tight(rng, eps)
    if rng.random() < 0.5:
        left = ("max", ("min", p, q), ("min", p, r))
        right = ("min", p, ("max", q, r))
        if rng.random() < 0.5:
            return left, ">=", add(right, num(k)), [(p, q), (p, r), (q, r)]
        return left, "<=", sub(right, num(k)), [(p, q), (p, r), (q, r)]
    inner = ("pw", ((p, _compare(rng, p, q)), (q, ("true",))))
    return ("max", inner, q, rng.choice([q, r])), ">=", add(p, num(k)), [(p, q), (p, r), (q, r)]


def _polynomial_condition(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """Piecewise((x y - x^2, x^2 <= y^2), (0, True)) >= -k: x (y - x) >= 0 where y^2 >= x^2 only when x, y
    >= 0 (the domain decides)."""
    x, y = var(names[0]), var(names[-1])
    k = _tight(rng, eps)
    condition = (rng.choice(["le", "lt"]), ("pow", x, 2), ("pow", y, 2))
    pw = ("pw", ((sub(mul(x, y), ("pow", x, 2)), condition), (num(0), ("true",))))
    return pw, ">=", num(k), [(x, y), (x, mul(num(-1), y))]


def _empty_premise(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """Piecewise((-1, p > c), (1, True)) >= 0 with c the largest value of p on the box: its premise holds
    nowhere when strict, at a corner when not (c is set by :func:`generate` from the box)."""
    p = _affine(rng, names)
    condition = (rng.choice(["lt", "le"]), ("top",), p)
    return ("pw", ((num(-1), condition), (num(1), ("true",)))), ">=", num(0), [(p, ("top",))]


def _equal_arguments(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """Max(p, p, q) >= p + k and Min(p, p) < p + k: equal arguments, a tie everywhere."""
    p, q = _affine(rng, names), _affine(rng, names)
    k = _tight(rng, eps)
    if rng.random() < 0.5:
        return ("max", p, p, q), ">=", add(p, num(k)), [(p, q)]
    return ("min", p, p), "<", add(p, num(k)), [(p, q)]


def _random_piecewise(rng: random.Random, variables: list[Var], eps: Fraction) -> Any:
    names = [v.name for v in variables]
    """A random two- or three-branch Piecewise of affine values and conditions against a random affine
    side: its truth is the oracle's alone."""
    count = rng.randint(2, 3)
    pairs = [(_affine(rng, names), _affine(rng, names)) for _ in range(count - 1)]
    branches = [(_affine(rng, names), _compare(rng, p, q)) for p, q in pairs] + [
        (_affine(rng, names), ("true",))
    ]
    return ("pw", tuple(branches)), rng.choice([">=", ">", "<=", "<"]), _affine(rng, names), pairs


FAMILIES: dict[str, Template] = {
    "min-square": _min_square,
    "midpoint": _midpoint,
    "strict-tie": _strict_tie,
    "division": _division,
    "and-or": _joined,
    "earlier-negations": _earlier,
    "nested": _nested,
    "polynomial-condition": _polynomial_condition,
    "empty-premise": _empty_premise,
    "equal-arguments": _equal_arguments,
    "random-piecewise": _random_piecewise,
}


def _top(node: Any, top: Node) -> Any:
    if isinstance(node, tuple) and node == ("top",):
        return top
    if isinstance(node, tuple):
        return tuple(_top(a, top) for a in node)
    return node


def _box(rng: random.Random, names: list[str], unbounded: bool) -> list[Var]:
    found = []
    for name in names:
        if unbounded and rng.random() < 0.5:
            found.append(Var(name, None, None))
        else:
            lo = rng.choice([Fraction(-1), Fraction(0), Fraction(0), Fraction(1, 2)])
            found.append(Var(name, lo, lo + rng.choice([1, 2])))
    return found


def generate(count: int, seed: int, steps: int = 16, max_variables: int = 3) -> list[Case]:
    """``count`` cases, the families in turn, each judged by the oracle."""
    rng = random.Random(seed)
    cases = []
    families = list(FAMILIES.items())
    for index in range(count):
        family, template = families[index % len(families)]
        n = 2 if family == "polynomial-condition" else rng.randint(1, max_variables)
        names = ["x", "y", "z"][:n]
        variables = _box(
            rng, names, unbounded=rng.random() < 0.15 and family not in ("empty-premise", "min-square")
        )
        eps = rng.choice(EPSILONS)
        lhs, relation, rhs, ties = template(rng, variables, eps)
        if family == "empty-premise":
            p = ties[0][0]
            form = _affine_parts(p) or {}
            top = _lowest({key: -k for key, k in form.items()}, variables)
            assert top is not None  # the family's box is bounded
            top = -top
            lhs, ties = _top(lhs, num(top)), [(p, num(top))]
        case = Case(family, variables, lhs, relation, rhs, ties, eps)
        cases.append(judge_truth(case, steps))
    return cases


def premised(data: Any) -> bool:
    """A certificate's JSON holds a shift, multiplier or imply decision somewhere."""
    if isinstance(data, dict):
        methods = ("shift", "multiplier", "imply")
        return data.get("method") in methods or any(premised(v) for v in data.values())
    return isinstance(data, list) and any(premised(item) for item in data)


def result_of(case: Case, budget: float, max_boxes: int = 200) -> tuple[str, str]:
    """(verdict, why it is wrong or "") of ``prove`` on the case: a "proved" of a FALSE or UNDEFINED case,
    a refutation whose witness the oracle does not confirm, or a crash is wrong. A proof whose certificate
    uses a premised decision is recorded in ``case.extra["certificates"]``."""
    from theory.errors import SpecboundError
    from theory.prover import prove

    try:
        result = prove(case.statement, case.domain, budget, max_boxes, False)
    except SpecboundError as error:
        if "undefined at" in str(error) and case.truth != UNDEFINED:
            return "refused", f"refused as undefined, but no point of the oracle's is: {error}"
        return "refused", ""
    except Exception as error:  # a crash is not a verdict
        return "crashed", f"{type(error).__name__}: {error}"
    verdict = str(result.status)
    certificates = [p.certificate.to_json() for p in result.parts if p.certificate is not None]
    case.extra["certificates"] = [c for c in certificates if premised(c)]
    if verdict == "proved" and case.truth != TRUE:
        return verdict, f"proved, but the oracle finds it {case.truth} at {case.witness}"
    if verdict == "refuted":
        witness = next(part.witness for part in result.parts if part.witness is not None)
        point = {name: Fraction(q) for name, q in witness.point.items()}
        if not case.fails_at(point):
            return verdict, f"refuted at {point}, where the oracle finds the claim holds"
    return verdict, ""


def from_tree(tree: Any) -> Node:
    """This module's node of a prover data tree (numbers, variables, sums, products, integer powers, Max,
    Min, Piecewise and its conditions), read here, not by the prover's code."""
    op = tree[0]
    if op == "num":
        return num(Fraction(tree[1]))
    if op == "var":
        return var(tree[1])
    if op == "pow":
        exponent = Fraction(tree[2][1]) if tree[2][0] == "num" else None
        if exponent is None or exponent.denominator != 1:
            raise ValueError(f"a power outside the oracle: {tree}")
        base = from_tree(tree[1])
        power = ("pow", base, abs(int(exponent)))
        return power if exponent >= 0 else ("div", num(1), power)
    if op in ("add", "mul", "max", "min", "le", "lt", "and", "or"):
        return (op, *(from_tree(a) for a in tree[1:]))
    if op == "true":
        return ("true",)
    if op == "piecewise":
        return ("pw", tuple((from_tree(v), from_tree(c)) for v, c in tree[1:]))
    raise ValueError(f"{op} outside the oracle")


def compared(node: Node) -> list[tuple[Node, Node]]:
    """Every pair a node compares: the sides of each condition and each two arguments of a Max or Min."""
    op = node[0]
    found: list[tuple[Node, Node]] = []
    if op in ("le", "lt"):
        found.append((node[1], node[2]))
    if op in ("max", "min"):
        found += list(itertools.combinations(node[1:], 2))
    if op == "pw":
        for v, c in node[1]:
            found += compared(v) + compared(c)
        return found
    for a in node[1:]:
        if isinstance(a, tuple):
            found += compared(a)
    return found


def certificate_case(data: dict[str, Any], eps: Fraction = Fraction(1, 64)) -> Case:
    """The claim a certificate's JSON makes (gap >= 0, > 0 when strict, on its domain) as a case the oracle
    judges (domain ends only closed: an open end is sampled too, so a point there may be reported false
    though outside; none of the certificates here has an open end)."""
    gap = from_tree(data["gap"])
    variables = [
        Var(
            record["name"],
            None if record["lower"] in ("-oo", "-inf") else Fraction(record["lower"]),
            None if record["upper"] in ("oo", "inf") else Fraction(record["upper"]),
        )
        for record in data["domain"]
    ]
    relation = ">" if data["strict"] else ">="
    return Case("certificate", variables, gap, relation, num(0), compared(gap), eps)


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths (keys and indices) of every premised decision in the JSON."""
    found = []
    if isinstance(data, dict):
        if data.get("method") in ("shift", "multiplier", "imply"):
            found.append(path)
        for key, item in data.items():
            found += _paths(item, (*path, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            found += _paths(item, (*path, index))
    return found


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _flipped(tree: Any) -> list[Any]:
    """The tree with one condition's strictness flipped (each condition in turn)."""
    if not isinstance(tree, list) or not tree:
        return []
    found = []
    if tree[0] in ("le", "lt"):
        found.append(["lt" if tree[0] == "le" else "le", *tree[1:]])
    start = 1 if isinstance(tree[0], str) else 0  # a Piecewise's [value, condition] pairs have no op
    for index, child in enumerate(tree[start:], start=start):
        for changed in _flipped(child):
            found.append([*tree[:index], changed, *tree[index + 1 :]])
    return found


def _dropped(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """For the first Piecewise of the gap with three branches or more, each earlier branch removed from it
    and from every cases decision with that many branches (so a later branch loses that negation)."""
    import copy

    def first(tree: Any) -> Any:
        if isinstance(tree, list) and tree and tree[0] == "piecewise" and len(tree) >= 4:
            return tree
        for child in tree if isinstance(tree, list) else []:
            if isinstance(child, list):
                found = first(child)
                if found is not None:
                    return found
        return None

    def without(tree: Any, node: Any, k: int) -> Any:
        if tree == node:
            return [*node[: k + 1], *node[k + 2 :]]
        if isinstance(tree, list):
            return [without(child, node, k) for child in tree]
        return tree

    def pruned(decision: Any, size: int, k: int) -> Any:
        if isinstance(decision, dict):
            copied = {key: pruned(item, size, k) for key, item in decision.items()}
            if copied.get("method") == "cases" and len(copied.get("branches", [])) == size:
                copied["branches"] = [b for j, b in enumerate(copied["branches"]) if j != k]
            return copied
        if isinstance(decision, list):
            return [pruned(item, size, k) for item in decision]
        return decision

    node = first(data["gap"])
    if node is None:
        return []
    found = []
    for k in range(len(node) - 2):
        copied = copy.deepcopy(data)
        copied["gap"] = without(data["gap"], node, k)
        copied["boxes"] = pruned(data["boxes"], len(node) - 1, k)
        found.append((f"the Piecewise's branch {k} dropped", copied))
    return found


def tamperings(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(what, certificate) for each tampering of a certificate with premised decisions: a shift's variable or
    premise changed, a multiplier negated, doubled or moved by 1, an implied premise's strictness flipped or
    its form negated, a premised decision replaced by a plain enclosure, a condition's strictness flipped in
    the gap, an earlier Piecewise branch dropped (:func:`_dropped`), and the gap lowered by 1/1024 (each on
    a copy)."""
    import copy

    names = [record["name"] for record in data["domain"]]
    found: list[tuple[str, dict[str, Any]]] = []

    def changed(what: str, path: tuple[Any, ...], **fields: Any) -> None:
        copied = copy.deepcopy(data)
        _at(copied, path).update(fields)
        found.append((what, copied))

    for path in _paths(data):
        decision = _at(data, path)
        method = decision["method"]
        for index in range(4):
            if index != decision["premise"]:
                changed(f"{method}: premise {index}", path, premise=index)
        if method == "shift":
            for name in [*names, "t1"]:
                if name != decision["variable"]:
                    changed(f"shift: variable {name}", path, variable=name)
        if method == "multiplier":
            s = decision["multiplier"]
            changed("multiplier negated", path, multiplier=["mul", ["num", "-1"], s])
            changed("multiplier doubled", path, multiplier=["mul", ["num", "2"], s])
            changed("multiplier plus 1", path, multiplier=["add", s, ["num", "1"]])
        if method == "imply":
            changed("imply: strictness flipped", path, strict=not decision["strict"])
            changed("imply: form negated", path, form=["mul", ["num", "-1"], decision["form"]])
            changed("imply: form plus 1/8", path, form=["add", decision["form"], ["num", "1/8"]])
        copied = copy.deepcopy(data)
        parent, key = _at(copied, path[:-1]), path[-1]
        parent[key] = {"method": "enclosure"}
        found.append((f"{method} replaced by an enclosure", copied))
    for flipped in _flipped(data["gap"]):
        copied = copy.deepcopy(data)
        copied["gap"] = flipped
        found.append(("a condition's strictness flipped", copied))
    found += _dropped(data)
    lowered = copy.deepcopy(data)
    lowered["gap"] = ["add", data["gap"], ["num", "-1/1024"]]
    found.append(("the gap lowered by 1/1024", lowered))
    return found


def tamper_outcome(data: dict[str, Any], steps: int = 12) -> str:
    """The outcome "rejected" (refused or malformed), "accepted-true" (accepted, and the oracle finds the
    claim the tampered certificate makes true on its points) or "UNSOUND" (accepted, and the oracle finds
    it false or undefined)."""
    from theory.prover.kernel import Malformed
    from theory.prover.kernel import check_certificate as kernel_check

    try:
        verdict = kernel_check(data)
    except Malformed:
        return "rejected"
    if not verdict.accepted:
        return "rejected"
    case = judge_truth(certificate_case(data), steps)
    return "accepted-true" if case.truth == TRUE else "UNSOUND"
