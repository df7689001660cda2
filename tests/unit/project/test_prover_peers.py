"""benchmarks/prover_peers.py's translation of generated statements to SMT-LIB, checked without any solver:
against hand-written SMT-LIB, and by evaluating the translation exactly (a small evaluator here) at points
where the generator's mpmath oracle decides the claim and its definedness."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction

import mpmath
import pytest

from tests.helpers.paths import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
try:
    import prover_peers
finally:
    sys.path.remove(str(ROOT / "benchmarks"))

from tests.helpers.soundness_cases import TRUE, Case, Variable, generate
from tests.helpers.soundness_terms import (
    UndefinedHere,
    add,
    ceiling,
    constant,
    div,
    exp,
    floor,
    number,
    sqrt,
    sub,
    var,
)


def _case(left, relation, right, variables) -> Case:
    return Case("t", left, relation, right, variables, TRUE)


def test_a_quotient_and_a_square_root_carry_their_definedness_and_an_auxiliary():
    x = var("x")
    case = _case(sqrt(x), "<=", div(number(3), sub(x, number(2))), (Variable("x", Fraction(0), None),))
    smt = prover_peers.translate(case)
    assert smt.declarations == ["(declare-fun x () Real)", "(declare-fun aux1 () Real)"]
    assert smt.assumptions == [
        "(>= x 0.0)",
        "(=> (>= x 0.0) (and (>= aux1 0.0) (= (* aux1 aux1) x)))",
    ]
    assert smt.defined == "(and (>= x 0.0) (not (= (- x 2.0) 0.0)))"
    assert smt.claim == "(<= aux1 (/ 3.0 (- x 2.0)))"
    assert smt.refute_query().endswith("(assert (not (<= aux1 (/ 3.0 (- x 2.0)))))")


def test_transcendental_functions_and_constants_are_not_expressible():
    line = (Variable("x", None, None),)
    with pytest.raises(prover_peers.NotExpressible):
        prover_peers.translate(_case(exp(var("x")), ">=", number(0), line))
    with pytest.raises(prover_peers.NotExpressible):
        prover_peers.translate(_case(var("x"), ">=", constant("pi/2", lambda: mpmath.pi / 2), line))


def _parse(text: str) -> object:
    tokens = text.replace("(", " ( ").replace(")", " ) ").split()

    def read(i: int) -> tuple[object, int]:
        if tokens[i] != "(":
            return tokens[i], i + 1
        items, i = [], i + 1
        while tokens[i] != ")":
            item, i = read(i)
            items.append(item)
        return items, i + 1

    return read(0)[0]


def _evaluate(e: object, point: dict[str, Fraction]) -> object:
    """Exact value of an SMT-LIB term or formula (branches of ite, => and and evaluated lazily)."""
    if isinstance(e, str):
        if e in ("true", "false"):
            return e == "true"
        return point[e] if e in point else Fraction(e)
    head, *args = e
    value = lambda a: _evaluate(a, point)  # noqa: E731
    if head == "ite":
        return value(args[1]) if value(args[0]) else value(args[2])
    if head == "=>":
        return not value(args[0]) or value(args[1])
    if head == "and":
        return all(value(a) for a in args)
    if head == "or":
        return any(value(a) for a in args)
    if head == "not":
        return not value(args[0])
    a = [value(x) for x in args]
    operations = {
        "+": lambda: sum(a),
        "-": lambda: -a[0] if len(a) == 1 else a[0] - a[1],
        "*": lambda: math.prod(a),
        "/": lambda: a[0] / a[1],
        "to_real": lambda: a[0],
        "to_int": lambda: Fraction(a[0].__floor__()),
        "<": lambda: a[0] < a[1],
        "<=": lambda: a[0] <= a[1],
        ">": lambda: a[0] > a[1],
        ">=": lambda: a[0] >= a[1],
        "=": lambda: a[0] == a[1],
    }
    return operations[head]()


def _agrees(case: Case, smt: prover_peers.Smt, point: dict[str, Fraction]) -> bool:
    """The translation's definedness and claim at ``point`` are the oracle's; False where the oracle's gap
    is too close to 0 to tell the claim's truth."""
    try:
        gap = case.gap(point)
    except UndefinedHere:
        assert _evaluate(_parse(smt.defined), point) is False, (case.statement, point)
        return False
    assert _evaluate(_parse(smt.defined), point) is True, (case.statement, point)
    if abs(gap) < mpmath.mpf(10) ** -40:
        return False
    assert _evaluate(_parse(smt.claim), point) is (gap > 0), (case.statement, point, gap)
    return True


def test_the_translation_agrees_with_the_oracle_on_generated_statements():
    rng = random.Random(7)
    checked = 0
    for case in generate(160, 48):
        try:
            smt = prover_peers.translate(case)
        except prover_peers.NotExpressible:
            continue
        if len(smt.declarations) != len(case.variables):  # an auxiliary (a root) has no closed value here
            continue
        samples = [v.samples(rng) for v in case.variables]
        for _ in range(6):
            point = {v.name: rng.choice(s) for v, s in zip(case.variables, samples, strict=True)}
            checked += _agrees(case, smt, point)
    assert checked >= 100


def test_floor_and_ceiling_agree_with_the_oracle():
    x, y = var("x"), var("y")
    plane = (Variable("x", None, None), Variable("y", None, None))
    case = _case(ceiling(add(x, y)), "<", add(ceiling(x), ceiling(y), floor(sub(x, y))), plane)
    smt = prover_peers.translate(case)
    values = [Fraction(n, 4) for n in range(-9, 10)]
    assert sum(_agrees(case, smt, {"x": a, "y": b}) for a in values for b in values[::3]) > 100
