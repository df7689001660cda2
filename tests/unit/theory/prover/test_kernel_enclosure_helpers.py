"""The kernel's enclosure helpers that every step calls: verify.at_least_zero (True at the first of its
precisions that shows tree >= 0, > 0 when strict; None where the tree is undefined on the sets; else False)
and verify.defined_on (every tree's enclosure exists on the sets); signs and definedness checked against
mpmath at 60 digits, never against the kernel's own verdict."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.certificates import domain_variable
from tests.helpers.mp_reference import evaluate
from theory.prover.kernel import trees, verify

X = ["var", "x"]
ROOT_TWO = ["pow", ["num", "2"], ["num", "1/2"]]
BELOW_ROOT_TWO = Fraction(math.isqrt(2 * 10**60), 10**30)
"""sqrt(2) rounded down at 30 digits: sqrt(2) exceeds it by less than 10^-30, below a 64-bit ball's width."""


def _env(lower: str, upper: str, lower_open: bool = False) -> dict:
    domain = verify.read_domain([domain_variable("x", lower, upper, lower_open=lower_open)])
    box = {"x": (Fraction(lower), Fraction(upper))}
    return verify.environment(box, domain)


def _minus(a: list, b: list) -> list:
    return ["add", a, ["mul", ["num", "-1"], b]]


def _sign_at_60_digits(tree: list) -> int:
    with mpmath.workdps(60):
        value = evaluate(tree, {})
        return 1 if value > 0 else -1 if value < 0 else 0


def test_a_margin_below_64_bits_is_shown_at_the_second_precision():
    close = _minus(ROOT_TWO, ["num", str(BELOW_ROOT_TWO)])
    assert _sign_at_60_digits(close) == 1
    with mpmath.workdps(60):
        assert evaluate(close, {}) < mpmath.mpf(10) ** -30
    env = _env("0", "1")
    with verify.precision(verify.PRECISIONS[0]):
        assert not trees.enclose(close, env).at_least_zero(False)  # the first precision does not decide
    assert verify.at_least_zero(close, env, False) is True
    assert verify.at_least_zero(close, env, True) is True
    negative = ["mul", ["num", "-1"], close]
    assert _sign_at_60_digits(negative) == -1
    assert verify.at_least_zero(negative, env, False) is False


def test_an_undefined_tree_is_none_and_a_zero_lower_end_decides_by_strictness():
    assert isinstance(evaluate(["log", X], {"x": mpmath.mpf(-1) / 2}), mpmath.mpc)  # no real log there
    assert verify.at_least_zero(["log", X], _env("-1", "1"), False) is None
    assert verify.at_least_zero(["log", X], _env("1", "2"), False) is True
    assert verify.at_least_zero(X, _env("0", "1"), False) is True
    assert verify.at_least_zero(X, _env("0", "1"), True) is False  # x = 0 is in the set
    assert verify.at_least_zero(X, _env("0", "1", lower_open=True), True) is True  # 0 is not


def test_several_trees_are_defined_on_the_sets_only_when_each_is():
    root = ["pow", X, ["num", "1/2"]]
    with pytest.raises(ValueError):
        evaluate(root, {"x": mpmath.mpf(-1) / 2})  # no real square root there
    assert isinstance(evaluate(["log", X], {"x": mpmath.mpf(-1) / 2}), mpmath.mpc)
    whole, right = _env("-1", "1"), _env("0", "1")
    assert verify.defined_on([X, ["exp", X]], whole)
    assert verify.defined_on([X, root], right)
    assert not verify.defined_on([X, root, ["exp", X]], whole)
    assert not verify.defined_on(iter([["exp", X], ["log", X]]), whole)
    assert verify.defined_on([], whole)
    domain = verify.read_domain([domain_variable("x", "-1", "1")])
    assert not verify.defined(root, {"x": (Fraction(-1), Fraction(1))}, domain)
    assert verify.defined(root, {"x": (Fraction(0), Fraction(1))}, domain)


@pytest.mark.parametrize("tree", [["log", X], _minus(ROOT_TWO, ["num", str(BELOW_ROOT_TWO)]), X])
def test_the_working_precision_is_restored(tree):
    before = verify.ctx.prec
    verify.at_least_zero(tree, _env("-1", "1"), True)
    assert verify.ctx.prec == before
    verify.defined_on([tree], _env("-1", "1"))
    assert verify.ctx.prec == before
