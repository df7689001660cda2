"""The kernel's exact normal form and its certificate steps beyond enclosure and monotonicity: identities
it re-derives itself, checked against an independent evaluation (mpmath) and against tampering."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers import fraction_strategies
from tests.helpers.certificates import box_certificate, domain_variable
from tests.helpers.mp_reference import evaluate, form_agrees
from theory.prover import check_certificate, prove
from theory.prover.kernel import Malformed, balls, exact, trees, verify

X, Y, S, P = ["var", "x"], ["var", "y"], ["var", "s"], ["var", "p"]


def _minus(a: list, b: list) -> list:
    return ["add", a, ["mul", ["num", "-1"], b]]


@pytest.mark.parametrize(
    ("tree", "fixed"),
    [
        (_minus(["pow", ["add", ["var", "d"], S], P], ["pow", S, P]), {"d": Fraction(0)}),
        (_minus(["pow", ["pow", X, ["num", "1/2"]], ["num", "2"]], X), {}),
        (_minus(["mul", ["pow", X, ["num", "1/2"]], ["pow", X, ["num", "1/2"]]], X), {}),
        (
            _minus(
                ["pow", ["pow", ["add", ["mul", X, X], Y], ["num", "1/2"]], ["num", "2"]],
                ["add", ["mul", X, X], Y],
            ),
            {},
        ),
        (_minus(["pow", S, ["add", ["var", "e"], P]], ["pow", S, P]), {"e": Fraction(0)}),
        (_minus(["mul", ["num", "2"], ["max", X, Y]], ["add", X, Y, ["abs", _minus(X, Y)]]), {}),
        (_minus(["mul", ["num", "2"], ["min", X, Y]], _minus(["add", X, Y], ["abs", _minus(X, Y)])), {}),
    ],
)
def test_the_normal_form_cancels_what_holds_wherever_the_tree_is_defined(tree, fixed):
    assert exact.normal_form(tree, fixed) == {}


def test_a_power_of_a_square_is_not_the_base():
    # (x^2)^(1/2) is |x|, not x: the normal form must not cancel it against x
    assert exact.normal_form(_minus(["pow", ["pow", X, ["num", "2"]], ["num", "1/2"]], X), {}) != {}
    square_root = ["pow", ["pow", X, ["num", "2"]], ["num", "1/2"]]
    assert exact.normal_form(_minus(square_root, ["pow", X, ["num", "1/2"]]), {}) != {}
    # x^(1/2) x^(1/2) = x only where x >= 0; for x < 0 the tree is undefined, and the kernel encloses it first
    assert exact.normal_form(_minus(["pow", ["mul", X, X], ["num", "1/2"]], ["abs", X]), {}) != {}


LEAVES = st.sampled_from([X, Y, ["num", "1/3"], ["num", "-2"], ["num", "4"]])
EXPONENTS = st.sampled_from([["num", e] for e in ("2", "3", "-1", "1/2", "-1/2", "3/2", "1/3")])
TREES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["add", "mul", "max", "min"]), inner, inner).map(list),
        st.tuples(st.sampled_from(["abs", "exp"]), inner).map(list),
        st.tuples(st.just("pow"), inner, EXPONENTS).map(list),
    ),
    max_leaves=6,
)
POINTS = fraction_strategies.fractions(-3, 3, max_denominator=8)


@settings(max_examples=200, deadline=None)
@given(TREES, POINTS, POINTS)
def test_the_normal_form_equals_the_tree_wherever_the_tree_is_defined(tree, x, y):
    form = exact.normal_form(tree, {})
    if form is not None:
        assert form_agrees(tree, exact.as_tree(form), {"x": x, "y": y}), (tree, x, y)


def test_a_limit_at_infinity_is_not_attained():
    # exp of (-oo, oo) is (0, oo): 0 is a limit, so exp(x y) > 0 holds strictly (it was closed at 0)
    domain = verify.read_domain(
        [
            {
                "name": "x",
                "lower": "-oo",
                "upper": "oo",
                "lower_open": True,
                "upper_open": True,
                "integer": False,
            },
            {
                "name": "y",
                "lower": "1/2",
                "upper": "1",
                "lower_open": False,
                "upper_open": False,
                "integer": False,
            },
        ]
    )
    box = {"x": (-float("inf"), float("inf")), "y": (Fraction(1, 2), Fraction(1))}
    value = trees.enclose(["exp", ["mul", X, Y]], verify.environment(box, domain))
    assert value.lo_open and value.at_least_zero(True)
    straddle = balls.multiply(balls.Set(balls.arb(-1), float("inf"), False, True), balls.point(balls.arb(2)))
    assert straddle.hi_open


@pytest.mark.parametrize(
    ("statement", "domain"),
    [
        ("sigma^p <= (sigma + d)^p", "sigma: (0, oo), d: [0, oo), p: (0, 2]"),
        ("s^(p + e) <= s^p", "s: [0, 1], p: (0, 2], e: [0, 2]"),
        ("d1 + d2 + 1 <= 3*Max(d1, d2)", "d1: integer >= 1, d2: integer >= 1"),
        ("a1 + a2 + a3 <= (sqrt(a1) + sqrt(a2) + sqrt(a3))^2", "a1: [0, oo), a2: [0, oo), a3: [0, oo)"),
        ("2*B*(A^2*p^2/(4*B^2))^((p + 1)/(p + 2))*(p + 2)/p^2 > 0", "A: (0, oo), B: (0, oo), p: (0, 2]"),
    ],
)
def test_statements_that_touch_0_on_a_face_through_an_identity_are_proved(statement, domain):
    result = prove(statement, domain, budget_seconds=5)
    assert result.status == "proved"


# --- the rewrite and derivative steps, against tampering ---------------------------------------------


def _certificate(statement: str, domain: str) -> dict:
    result = prove(statement, domain, budget_seconds=10)
    assert result.status == "proved"
    (part,) = result.parts
    return part.certificate.to_json()


def _find(decision: dict, method: str, key: str | None = None) -> dict:
    """The first decision of the method (with the key) nested in ``decision``."""
    if decision.get("method") == method and (key is None or key in decision):
        return decision
    for child in ("then", "slope"):
        if isinstance(decision.get(child), dict):
            found = _find(decision[child], method, key)
            if found:
                return found
    return {}


def test_a_sum_of_squares_rewrite_is_accepted_and_a_changed_form_rejected():
    certificate = _certificate("2*x - x^2 <= 1", "x: real")
    (record,) = certificate["boxes"]
    assert record["decision"]["method"] == "rewrite"
    assert check_certificate(certificate).accepted
    record["decision"]["form"] = ["pow", ["add", X, ["num", "-1/2"]], ["num", "2"]]  # >= 0, not the gap
    verdict = check_certificate(certificate)
    assert not verdict.accepted and "normal forms differ" in verdict.reason


def _one_box(gap: list, decision: dict, lower: str = "-1", upper: str = "1") -> dict:
    box = {"box": {"x": [lower, upper]}, "decision": decision}
    certificate = box_certificate(gap, [domain_variable("x", lower, upper)], [box])
    return {**certificate, "format": verify.FORMAT, "inequality": "by hand"}


def test_a_rewrite_of_a_gap_undefined_somewhere_is_rejected():
    # x * x^(-1) - 1 is 0 wherever it is defined, but it is undefined at x = 0
    gap = ["add", ["mul", X, ["pow", X, ["num", "-1"]]], ["num", "-1"]]
    decision = {"method": "rewrite", "form": ["num", "0"], "then": {"method": "enclosure"}}
    verdict = verify.check(_one_box(gap, decision))
    assert not verdict.accepted and "not defined" in verdict.reason
    assert verify.check(_one_box(gap, decision, "1/2", "1")).accepted


def test_a_multiplier_that_may_vanish_is_rejected():
    # (x - x) / anything is 0, but a multiplier x that vanishes at 0 proves nothing about a gap of -1
    gap = ["num", "-1"]
    decision = {"method": "rewrite", "form": ["num", "0"], "multiplier": X, "then": {"method": "enclosure"}}
    verdict = verify.check(_one_box(gap, decision))
    assert not verdict.accepted and "multiplier" in verdict.reason


def test_a_malformed_form_is_malformed():
    decision = {"method": "rewrite", "form": ["var", "z"], "then": {"method": "enclosure"}}
    with pytest.raises(Malformed):
        verify.check(_one_box(X, decision))


def test_a_slope_step_is_accepted_and_its_direction_or_variable_tampered_is_rejected():
    certificate = _certificate("x - x^3/6 <= atan(x) + x^3", "x: [0, 1]")
    assert check_certificate(certificate).accepted
    step = _find(certificate["boxes"][0]["decision"], "monotone", "slope")
    assert step, "the proof uses the kernel's derivative"
    step["direction"] = "decreasing" if step["direction"] == "increasing" else "increasing"
    verdict = check_certificate(certificate)
    assert not verdict.accepted


@pytest.fixture
def increasing_by_slope() -> dict:
    """Monotone increasing in x, the sign of the kernel's derivative and the face both by enclosure."""
    return {
        "method": "monotone",
        "variable": "x",
        "direction": "increasing",
        "slope": {"method": "enclosure"},
        "then": {"method": "enclosure"},
    }


def test_no_slope_step_through_an_abs(increasing_by_slope):
    verdict = verify.check(_one_box(["add", ["abs", X], ["num", "1"]], increasing_by_slope))
    assert not verdict.accepted and "no derivative" in verdict.reason


def test_a_slope_decided_on_a_derivative_that_is_negative_somewhere_is_rejected(increasing_by_slope):
    # x^2 on [-1, 1]: its derivative 2x is not >= 0 on the box, so it is not increasing there
    verdict = verify.check(_one_box(["add", ["pow", X, ["num", "2"]], ["num", "-1/4"]], increasing_by_slope))
    assert not verdict.accepted and "derivative" in verdict.reason


SMOOTH = st.recursive(
    st.sampled_from([X, Y, ["num", "1/3"], ["num", "-2"]]),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["add", "mul"]), inner, inner).map(list),
        st.tuples(st.sampled_from(["exp", "atan", "tanh", "erf", "erfc"]), inner).map(list),
        st.tuples(st.just("pow"), inner, st.sampled_from([["num", "2"], ["num", "3"], ["num", "-1"]])).map(
            list
        ),
        st.tuples(
            st.just("log"),
            st.tuples(st.just("add"), st.just(["num", "3"]), st.tuples(st.just("tanh"), inner).map(list)).map(
                list
            ),
        ).map(list),
        st.tuples(
            st.just("pow"),
            st.tuples(st.just("add"), st.just(["num", "2"]), st.tuples(st.just("atan"), inner).map(list)).map(
                list
            ),
            inner,
        ).map(list),
    ),
    max_leaves=5,
)


@settings(max_examples=150, deadline=None)
@given(SMOOTH, POINTS, POINTS)
def test_the_kernels_derivative_is_the_derivative(tree, x, y):
    from theory.prover.kernel import derivative

    slope = derivative.derivative(tree, "x")
    with mpmath.workdps(40):
        values = {"x": mpmath.mpf(x.numerator) / x.denominator, "y": mpmath.mpf(y.numerator) / y.denominator}
        try:
            reference = mpmath.diff(lambda t: evaluate(tree, {**values, "x": t}), values["x"])
            value = evaluate(slope, values)
        except (ZeroDivisionError, ValueError):
            return
        if abs(reference) > 10**8:
            return
        assert abs(value - reference) <= mpmath.mpf(10) ** -15 * (1 + abs(reference)), (tree, x, y)


def test_f_at_least_f_is_not_certified_where_f_is_undefined():
    # sympy cancels Abs(y)^t - Abs(y)^t to 0, though Abs(y)^t is undefined at y = 0 for t = -1: the gap
    # tree keeps both sides, so the text is refused at that point and no certificate of 0 >= 0 is bound to it
    from theory.prover.definedness import UndefinedStatement

    statement, domain = "Abs(y)^t >= Abs(y)^t", "y: [-1, 1], t: [-1, 1]"
    with pytest.raises(UndefinedStatement, match="y = 0"):
        prove(statement, domain, budget_seconds=2)
    zero = prove("0 >= 0", "y: [-1, 1], t: [-1, 1]").parts[0].certificate.to_json()
    assert check_certificate({**zero, "inequality": statement}).accepted is False
    assert prove("x^2 + y >= y", "x: real, y: [0, 1]", budget_seconds=5).status == "proved"


def test_a_squares_step_needs_both_sides_nonnegative_and_the_gap_their_difference():
    certificate = _certificate("c1 + c2 <= sqrt(2)*sqrt(c1^2 + c2^2)", "c1: [0, oo), c2: [0, oo)")
    step = _find(certificate["boxes"][0]["decision"], "squares")
    assert step and check_certificate(certificate).accepted
    # x - 1 >= 0 is false at x = 0, but (-x)^2 - 1^2 would "decide" it if a negative side were let in
    decision = {
        "method": "squares",
        "left": ["mul", ["num", "-1"], X],
        "right": ["num", "1"],
        "then": step["then"],
    }
    verdict = verify.check(_one_box(["add", ["mul", ["num", "-1"], X], ["num", "-1"]], decision))
    assert not verdict.accepted and "not shown >= 0" in verdict.reason
    step["left"] = ["mul", ["num", "2"], step["left"]]
    verdict = check_certificate(certificate)
    assert not verdict.accepted and "left - right" in verdict.reason


def test_a_face_at_an_open_end_is_the_gaps_limit_there_or_rejected():
    # Piecewise((5, x <= 0), (0, True)) - 1 is -1 on all of (0, 1], but its value on the face x = 0 (a point
    # not in the domain) is 4: a monotone step to that face proves nothing unless the gap is continuous there
    jump = ["piecewise", [["num", "5"], ["le", X, ["num", "0"]]], [["num", "0"], ["true"]]]
    monotone = {
        "method": "monotone",
        "variable": "x",
        "direction": "increasing",
        "then": {"method": "enclosure"},
    }
    certificate = _one_box(["add", jump, ["num", "-1"]], monotone, "0", "1")
    certificate["domain"][0]["lower_open"] = True
    verdict = verify.check(certificate)
    assert not verdict.accepted and "continuous up to the open end x = 0" in verdict.reason
    # a gap continuous up to the open end reaches its face: x^2 on (0, 1]
    assert verify.check({**certificate, "gap": ["pow", X, ["num", "2"]]}).accepted


def test_an_unsigned_step_removes_abs_only_where_its_argument_has_a_sign():
    # x - |x| >= 0 holds on [0, 1] (|x| = x there) and is false at x = -1: on [-1, 1] no sign of x is
    # known, so the step has nothing to remove and is rejected
    gap = _minus(X, ["abs", X])
    decision = {"method": "unsigned", "then": {"method": "enclosure"}}
    assert verify.check(_one_box(gap, decision, "0", "1")).accepted
    verdict = verify.check(_one_box(gap, decision))
    assert not verdict.accepted and "known sign" in verdict.reason
    # -x - |x| on [-1, 0]: |x| = -x, the form is 0; on [-1, 0] with |x| taken as x it would be -2x >= 0
    assert verify.check(_one_box(_minus(["mul", ["num", "-1"], X], ["abs", X]), decision, "-1", "0")).accepted
    assert not verify.check(_one_box(_minus(X, ["abs", X]), decision, "-1", "0")).accepted
    domain = verify.read_domain(_one_box(X, decision)["domain"])
    nested = verify.unsigned_form(["abs", ["abs", X]], {"x": (Fraction(-1), Fraction(1))}, domain)
    assert nested == ["abs", X]  # the inner |x| has no sign on [-1, 1]; the outer one's argument is >= 0


def test_gelu_is_below_the_identity_through_the_unsigned_step():
    certificate = _certificate("Abs(x*Phi(x)) <= Abs(x)", "x: real")
    assert check_certificate(certificate).accepted
    assert all(_find(box["decision"], "unsigned") for box in certificate["boxes"])
    # the same certificate for |x Phi(x)| <= |x| - 1/100 (false at x = 0) is rejected
    gap = ["add", certificate["gap"], ["num", "-1/100"]]
    assert not verify.check({**certificate, "gap": gap}).accepted


def test_a_multipliers_integer_power_of_a_compound_is_kept_until_it_cancels():
    # (x + 1)^(-2) (x + 1)^2 = 1, and x (x + 1)^(-1) (x + 1)^2 = x^2 + x: with the square expanded first
    # (x^2 + 2x + 1 an atom of its own) nothing would cancel
    base = ["add", X, ["num", "1"]]
    tree = ["add", ["pow", base, ["num", "-2"]], ["mul", X, ["pow", base, ["num", "-1"]]]]
    square = ["pow", base, ["num", "2"]]
    expected = exact.normal_form(["add", ["num", "1"], ["mul", X, X], X], {})
    assert exact.normal_form_times(tree, square, {}) == expected
    with_x = exact.normal_form(["mul", X, exact.as_tree(expected)], {})
    assert exact.normal_form_times(tree, ["mul", square, X], {}) == with_x


def _scale_box(gap: list, multiplier: list, form: list, lower: str = "0", upper: str = "1") -> dict:
    decision = {"method": "scale", "by": multiplier, "form": form, "then": {"method": "enclosure"}}
    return _one_box(gap, decision, lower, upper)


def test_a_scale_step_needs_a_positive_multiplier_and_the_scaled_gap():
    # (x + 1)^(-1) - 1/2 >= 0 on [0, 1] times (x + 1) > 0 is 1 - (x + 1)/2 = (1 - x)/2 >= 0
    gap = ["add", ["pow", ["add", X, ["num", "1"]], ["num", "-1"]], ["num", "-1/2"]]
    form = ["add", ["num", "1/2"], ["mul", ["num", "-1/2"], X]]
    assert verify.check(_scale_box(gap, ["add", X, ["num", "1"]], form)).accepted
    # x - 1/2 (false at 0) times -(x + 1) < 0 would be (1/2 - x)(x + 1), still false somewhere, but a form
    # of the wrong sign must be refused before any decision: the multiplier is not > 0
    verdict = verify.check(_scale_box(["add", X, ["num", "-1/2"]], ["mul", ["num", "-1"], X], ["num", "1"]))
    assert not verdict.accepted and "not shown > 0" in verdict.reason
    changed = ["add", ["num", "1/2"], ["mul", ["num", "-1/4"], X]]
    verdict = verify.check(_scale_box(gap, ["add", X, ["num", "1"]], changed))
    assert not verdict.accepted and "exact normal forms differ" in verdict.reason


def test_a_log_step_needs_positive_sides_and_factors():
    # 2^x (x + 1) - 1 >= 0 on [0, 1]: log(2^x (x + 1)) - log 1 = x log 2 + log(x + 1)
    product = ["mul", ["pow", ["num", "2"], X], ["add", X, ["num", "1"]]]
    gap = ["add", product, ["num", "-1"]]
    decision = {"method": "log", "left": product, "right": ["num", "1"], "then": {"method": "enclosure"}}
    assert verify.check(_one_box(gap, decision, "0", "1")).accepted
    # (-x)(-x) - 1/4 on [-1, -1/4] (false at -1/4): log(ab) = log a + log b needs a, b > 0, and the kernel
    # expands -x = (-1) x into factors too, so the -1 stops it
    negatives = ["mul", ["mul", ["num", "-1"], X], ["mul", ["num", "-1"], X]]
    decision = {"method": "log", "left": negatives, "right": ["num", "1/4"], "then": {"method": "enclosure"}}
    verdict = verify.check(_one_box(["add", negatives, ["num", "-1/4"]], decision, "-1", "-1/4"))
    assert not verdict.accepted and "not shown > 0" in verdict.reason
    decision = {"method": "log", "left": product, "right": ["num", "2"], "then": {"method": "enclosure"}}
    verdict = verify.check(_one_box(gap, decision, "0", "1"))
    assert not verdict.accepted and "left - right" in verdict.reason


def test_a_sum_step_needs_every_part_decided_and_the_parts_to_add_up():
    # x + (1 - x) >= 0 on [0, 1] by its two parts; a part -x (so the other is 1 + ... ) is not >= 0
    gap = ["num", "1"]
    parts = [
        {"form": X, "then": {"method": "enclosure"}},
        {"form": _minus(["num", "1"], X), "then": {"method": "enclosure"}},
    ]
    assert verify.check(_one_box(gap, {"method": "sum", "parts": parts}, "0", "1")).accepted
    negative = [
        {"form": ["mul", ["num", "-1"], X], "then": {"method": "enclosure"}},
        {"form": ["add", ["num", "1"], X], "then": {"method": "enclosure"}},
    ]
    verdict = verify.check(_one_box(gap, {"method": "sum", "parts": negative}, "0", "1"))
    assert not verdict.accepted and "enclosure" in verdict.reason
    verdict = verify.check(_one_box(["num", "-1"], {"method": "sum", "parts": parts}, "0", "1"))
    assert not verdict.accepted and "sum of its parts" in verdict.reason
    with pytest.raises(Malformed):
        verify.check(_one_box(gap, {"method": "sum", "parts": []}, "0", "1"))


def test_c_p_is_between_1_and_2_through_the_log_sum_and_scale_steps():
    from theory.paper_proofs import inequalities as registry
    from theory.prover import lemma_inequalities as lemmas

    (entry,) = [e for e in registry.all_lemma_inequalities() if e.name == "c_p_in_1_2"]
    verdict = lemmas.decide(entry)
    assert verdict.status == "proved" and verdict.certificates_checked
    lower, upper = (part.certificate.to_json() for part in verdict.result.parts)
    assert any(_find(box["decision"], "log") for box in lower["boxes"])
    assert any(_find(box["decision"], "monotone", "slope") for box in upper["boxes"])
    # the same cover for c_p >= 1.01 (false as p -> 0) and c_p <= 1.99 (false at p = 2) is rejected
    for certificate, shift in ((lower, "-1/100"), (upper, "-1/100")):
        assert not verify.check({**certificate, "gap": ["add", certificate["gap"], ["num", shift]]}).accepted
