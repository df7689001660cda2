"""The kernel's rules one at a time against hand-computed facts and mpmath at 50 digits: each set operation's
ends and open flags, each function's enclosure and slope, each step of a certificate on a true and a false
statement whose truth is computed by hand, the cover, the normal form's positivity by syntax and the
substitution's range check (each kills mutants of benchmarks/mutants.py that the broader tests missed)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.mp_reference import evaluate, form_agrees

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from flint import arb

from theory.prover.kernel import balls, exact, logs, trees, verify
from theory.prover.kernel.balls import Set, Undefined
from theory.prover.kernel.substitution import _range, _within, range_failure
from theory.prover.kernel.trees import Discontinuous

X, Y = ["var", "x"], ["var", "y"]
HALF = ["num", "1/2"]


def num(text: str) -> list:
    return ["num", text]


def neg(tree: list) -> list:
    return ["mul", num("-1"), tree]


def closed(lo: float, hi: float) -> Set:
    return Set(arb(lo), arb(hi))


def contains(result: Set, low: object, high: object) -> bool:
    """The set's ends reach the values low and high (mpmath numbers at 50 digits, or exact ones): some point
    of the lower end's ball is <= low, and some point of the upper end's is >= high."""
    with mpmath.workdps(50):
        low_ball, high_ball = arb(str(low)), arb(str(high))
        lo_ok = result.lo < 0 if balls.infinite(result.lo) else not bool(result.lo > low_ball)
        hi_ok = result.hi > 0 if balls.infinite(result.hi) else not bool(result.hi < high_ball)
    return lo_ok and hi_ok


# --- the set operations ---------------------------------------------------------------------------------


def test_strictness_needs_a_positive_or_open_zero_lower_end():
    assert not closed(0, 1).at_least_zero(True) and closed(0, 1).at_least_zero(False)
    assert Set(arb(0), arb(1), True, False).at_least_zero(True)


def test_negation_swaps_the_open_flags_with_the_ends():
    assert balls.negate(Set(arb(0), arb(1), True, False)) == Set(arb(-1), arb(0), False, True)


def test_sum_difference_and_products_reach_the_hand_computed_corners():
    assert contains(balls.add(closed(1, 2), closed(3, 5)), 4, 7)
    opposite = balls.multiply(closed(-2, -1), closed(1, 3))  # [-6, -1]
    assert contains(opposite, -6, -1) and bool(opposite.hi <= -1)
    straddle = balls.multiply(closed(-1, 2), closed(-3, 1))  # corners 3, -1, -6, 2: [-6, 3]
    assert contains(straddle, -6, 3)


def test_a_reciprocal_of_a_set_attaining_zero_is_undefined():
    with pytest.raises(Undefined):
        balls.reciprocal(closed(0, 1))


def test_abs_even_powers_max_and_min_of_hand_computed_sets():
    assert contains(balls.absolute(closed(-3, 1)), 0, 3)
    assert contains(balls.power_integer(closed(-3, 1), 2), 0, 9)
    assert contains(balls.maximum(closed(0, 1), closed(2, 5)), 2, 5)
    low = balls.minimum(closed(0, 1), closed(2, 5))  # min(u, v) = u here: [0, 1]
    assert contains(low, 0, 1) and bool(low.hi <= 1)


# --- enclosures of the functions --------------------------------------------------------------------------


def enclose(tree: list, **ranges: Set) -> Set:
    return trees.enclose(tree, ranges)


def test_log_is_undefined_on_a_set_attaining_zero_or_unbounded_below():
    for values in (closed(0, 1), Set(-float("inf"), arb(-1), True, False)):
        with pytest.raises(Undefined):
            enclose(["log", X], x=values)


def test_exp_of_log_over_negative_numbers_is_not_proved():
    # exp(log(x)) >= 0 over x <= -1: log x is undefined at every point (the kernel took (-oo, -1] for
    # log's domain when its lower end was -oo)
    certificate = _certificate(["exp", ["log", X]], "-oo", "-1", {"method": "enclosure"})
    assert not verify.check(certificate).accepted


def test_a_power_of_a_base_attaining_zero_reaches_zero():
    # x^y on [0, 1] x [1, 2] is 0 at x = 0: not > 0
    assert not enclose(["pow", X, Y], x=closed(0, 1), y=closed(1, 2)).at_least_zero(True)


def test_decreasing_and_bounded_functions_reach_their_values_and_limits():
    with mpmath.workdps(50):
        erfc = enclose(["erfc", X], x=closed(0, 1))
        assert contains(erfc, mpmath.erfc(1), 1)
        below = Set(-float("inf"), arb(0), True, False)
        assert contains(enclose(["atan", X], x=below), -mpmath.pi / 2 + mpmath.mpf(10) ** -40, 0)
        assert contains(enclose(["tanh", X], x=below), mpmath.mpf(-1) + mpmath.mpf(10) ** -40, 0)


def test_floor_and_ceiling_of_hand_computed_sets():
    # floor(x) = 0 at x = 1/2 in (0, 1]: not > 0; ceiling(0) = 0 on [0, 1]
    assert not enclose(["floor", X], x=Set(arb(0), arb(1), True, False)).at_least_zero(True)
    assert contains(enclose(["ceiling", X], x=closed(0, 1)), 0, 1)


def test_piecewise_conditions_and_undetermined_branches():
    signed = ["piecewise", [num("1"), ["lt", X, num("0")]], [num("-1"), ["true"]]]
    at_zero = enclose(signed, x=closed(0, 0))  # 0 < 0 is false: the value is -1
    assert bool(at_zero.hi <= -1)
    either = ["piecewise", [num("1"), ["lt", X, HALF]], [num("-1"), ["true"]]]
    assert contains(enclose(either, x=closed(0, 1)), -1, 1)


# --- slopes -----------------------------------------------------------------------------------------------


def slope(tree: list, lo: float, hi: float) -> Set:
    env = {"x": Set(arb(lo), arb(hi), True, True)}
    return trees.slope(tree, env, {"x": closed(lo, hi)}, "x")


def test_slopes_of_hand_differentiated_functions():
    assert contains(slope(["max", X, HALF], 0, 1), 0, 1)  # 0 below 1/2, 1 above
    assert contains(slope(["abs", X], -1, 1), -1, 1)
    log_slope = slope(["log", X], 1, 2)  # 1/x on [1, 2]
    assert contains(log_slope, Fraction(1, 2), 1) and bool(log_slope.hi <= arb("1.01"))
    assert slope(["erfc", X], 0, 1).at_most_zero(True)
    with mpmath.workdps(50):
        low, high = 1 - mpmath.tanh(3) ** 2, 1 - mpmath.tanh(2) ** 2
    tanh_slope = slope(["tanh", X], 2, 3)  # 1 - tanh(x)^2 in [0.0099, 0.0707]
    assert tanh_slope.at_least_zero(True) and contains(tanh_slope, low, high)
    cube = slope(["pow", X, num("3")], 2, 2)  # 3 x^2 = 12
    assert contains(cube, 12, 12) and bool(cube.hi <= 13)


def test_a_piecewise_jumping_in_the_variable_has_no_slope_and_is_not_continuous():
    jump = ["piecewise", [X, ["lt", X, HALF]], [num("2"), ["true"]]]
    assert not trees.continuous(jump, ["x"])
    with pytest.raises(Discontinuous):
        slope(jump, 0, 1)


# --- certificates: each step on a statement whose truth is known by hand ---------------------------------


def _certificate(
    gap: list, lower: str, upper: str, decision: dict, strict: bool = False, **flags: bool
) -> dict:
    record = domain_variable("x", lower, upper, flags.get("lower_open", lower == "-oo"), upper == "oo")
    return box_certificate(gap, [record], [{"box": {"x": [lower, upper]}, "decision": decision}], strict)


def accepted(gap: list, lower: str, upper: str, decision: dict, strict: bool = False, **flags: bool) -> bool:
    return verify.check(_certificate(gap, lower, upper, decision, strict, **flags)).accepted


ENCLOSURE = {"method": "enclosure"}


def monotone(direction: str, then: dict = ENCLOSURE, **extra: object) -> dict:
    return {"method": "monotone", "variable": "x", "direction": direction, "then": then, **extra}


def test_x_positive_on_a_closed_interval_from_zero_is_not_proved_strictly():
    assert not accepted(X, "0", "1", ENCLOSURE, strict=True)  # x = 0 is in the set
    assert accepted(X, "0", "1", ENCLOSURE, strict=True, lower_open=True)


def test_a_monotone_step_names_the_true_direction_and_its_face():
    false_gap = ["add", X, neg(HALF)]  # x - 1/2 >= 0 is false at x = 0
    assert not accepted(false_gap, "0", "1", monotone("decreasing"))
    assert not accepted(false_gap, "0", "1", monotone("increasing"))
    assert accepted(X, "0", "1", monotone("increasing"))  # x >= 0: increasing, face x = 0
    assert accepted(X, "0", "1", monotone("increasing", slope=ENCLOSURE))


def test_a_strict_claim_with_a_flat_slope_is_not_proved_on_a_tail_or_at_an_open_face():
    zero = ["mul", num("0"), X]  # 0 > 0 is false everywhere
    assert not accepted(zero, "-oo", "0", monotone("increasing", tail="-1"), strict=True)
    assert not accepted(zero, "0", "1", monotone("increasing"), strict=True, lower_open=True)


def test_boxes_with_a_gap_between_them_do_not_cover():
    certificate = _certificate(X, "0", "1", ENCLOSURE)
    certificate["boxes"] = [
        {"box": {"x": ["0", "1/2"]}, "decision": ENCLOSURE},
        {"box": {"x": ["3/4", "1"]}, "decision": ENCLOSURE},
    ]
    assert not verify.check(certificate).accepted


def test_squares_compare_the_squares_of_both_sides():
    # 2 - x >= 0 is false at x = 3; its squares 4 - x^2 are < 0 there
    squares = {"method": "squares", "left": num("2"), "right": X, "then": ENCLOSURE}
    assert not accepted(["add", num("2"), neg(X)], "0", "3", squares)


def test_a_rewrite_multiplier_that_vanishes_proves_nothing():
    rewrite = {"method": "rewrite", "form": num("1"), "multiplier": num("0"), "then": ENCLOSURE}
    assert not accepted(["add", X, neg(HALF)], "0", "1", rewrite)


def test_abs_of_an_argument_of_unknown_sign_is_kept():
    # -|x| - x >= 0 is false at x = 1/2; writing |x| as -x would make it x - x = 0
    gap = ["add", neg(["abs", X]), neg(X)]
    then = {"method": "rewrite", "form": num("0"), "then": ENCLOSURE}
    assert not accepted(gap, "-1", "1", {"method": "unsigned", "then": then})


def test_the_log_of_a_power_is_the_exponent_times_the_log():
    expanded = logs.expanded(["pow", X, num("2")], lambda tree: True)
    with mpmath.workdps(50):
        assert abs(evaluate(expanded, {"x": mpmath.mpf(3)}) - 2 * mpmath.log(3)) < mpmath.mpf(10) ** -45


# --- the normal form --------------------------------------------------------------------------------------


def test_positivity_by_syntax_of_min_floor_and_zero():
    positive = frozenset({"x"})
    assert not exact.positive_tree(["min", X, num("-1")], positive)  # min(x, -1) <= -1
    assert not exact.positive_tree(["floor", X], positive)  # floor(1/2) = 0
    assert not exact.positive_tree(num("0"), positive)
    assert exact.positive_tree(["max", X, num("-1")], positive)


def test_max_and_min_normal_forms_equal_the_tree():
    for op in ("max", "min"):
        tree = [op, X, num("1")]
        form = exact.as_tree(exact.normal_form(tree, {}))
        assert all(form_agrees(tree, form, {"x": Fraction(v)}) for v in (0, 2, -3))


# --- the substitution's range -----------------------------------------------------------------------------


def test_a_value_touching_an_open_end_is_not_inside():
    target = verify.Variable("u", Fraction(0), Fraction(1), True, False, False)
    assert not _within(closed(0, 1), target)
    assert _within(Set(arb(0), arb(1), True, False), target)


def test_the_fractional_part_attains_zero():
    values = _range(["add", ["ceiling", X], neg(X)], {"x": closed(0, 1)})
    assert not values.lo_open and values.hi_open


def test_an_integer_target_needs_an_integer_variable():
    domain = verify.read_domain([domain_variable("x", "0", "3")])
    target = verify.Variable("n", Fraction(0), Fraction(3), False, False, True)
    assert range_failure("n", X, target, {"x": (Fraction(0), Fraction(3))}, domain) is not None


def test_a_strict_claim_by_substitution_needs_a_positive_multiplier():
    # x > 0 is false at x = 0 in [0, 1]; x = M * H(u) with M = x >= 0 (0 at x = 0), H = 1, u := x
    target = domain_variable("u", "0", "1")
    decision = {
        "method": "substitute",
        "multiplier": X,
        "form": num("1"),
        "map": {"u": X},
        "domain": [target],
        "boxes": [{"box": {"u": ["0", "1"]}, "decision": ENCLOSURE}],
    }
    assert not accepted(X, "0", "1", decision, strict=True)
    assert accepted(X, "0", "1", decision, strict=False)


def test_a_chain_on_a_gap_undefined_at_a_point_is_rejected():
    # x * x^(-1) is undefined at x = 0 in [0, 1], though its normal form is 1 = 1 * (y at y = 1)
    from theory.prover.kernel import chain

    piece = box_certificate(
        Y, [domain_variable("y", "0", "1")], [{"box": {"y": ["0", "1"]}, "decision": ENCLOSURE}]
    )
    certificate = {
        "format": chain.FORMAT,
        "inequality": "x * x^(-1) >= 0",
        "gap": ["mul", X, ["pow", X, num("-1")]],
        "domain": [domain_variable("x", "0", "1")],
        "pieces": [
            {"name": "one", "factor": num("1"), "substitution": {"y": num("1")}, "certificate": piece}
        ],
    }
    assert not chain.check(certificate).accepted
    certificate["domain"][0]["lower"] = "1/2"
    assert chain.check(certificate).accepted
