"""The kernel's change of variables (theory.prover.kernel.substitution) and its search side
(theory.prover.substitutions): the two pieces of Theorem 4.1's chain that vanish on the diagonal a = b and
the two ceiling facts are proved and kernel-checked; tampered substitutions are rejected; the normal form's
positive rules apply only to variables the box proves positive."""

from __future__ import annotations

import copy
import os
from fractions import Fraction

import hypothesis
import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import fraction_strategies
from tests.helpers.mp_reference import evaluate, form_agrees

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import prove_statement
from theory.prover.domain import parse_domain
from theory.prover.kernel import check_certificate, exact
from theory.prover.kernel.substitution import fractional_part_argument, positive_names, substitute
from theory.prover.kernel.verify import environment, read_domain
from theory.prover.statement import parse_statement

TAIL_LOG = ("log(b) - log(a) - 1 + a/b >= 0", "a: (0, oo), b: (0, oo)")
CONVEXITY = ("-1/b**(2/p) + 2*(a - b)/(b*b**(2/p)*p) + a**(-2/p) >= 0", "a: (0, oo), b: (0, oo), p: (0, 2]")
ROUND_UP = ("z + 1 - ceiling(z) >= 0", "z: (0, oo)")
ROUND_DOWN = ("ceiling(z) - z >= 0", "z: (0, oo)")


def _certificate(text: str, domain: str) -> dict:
    result = prove_statement(parse_statement(text, parse_domain(domain)), 10)
    assert result.status == "proved", result.parts[0].reason
    (part,) = result.parts
    assert part.certificate is not None
    return part.certificate.to_json()


@pytest.fixture(scope="module")
def certificates() -> dict[str, dict]:
    return {name: _certificate(*case) for name, case in [("tail_log", TAIL_LOG), ("convexity", CONVEXITY)]}


def _step(certificate: dict) -> dict:
    (record,) = certificate["boxes"]
    assert record["decision"]["method"] == "substitute"
    return record["decision"]


@pytest.mark.parametrize("case", [TAIL_LOG, CONVEXITY, ROUND_UP, ROUND_DOWN], ids=lambda c: c[0])
def test_diagonal_and_ceiling_pieces_are_proved_by_one_substitution(case):
    certificate = _certificate(*case)
    step = _step(certificate)
    assert check_certificate(certificate).accepted
    if "ceiling" in case[0]:
        assert any(fractional_part_argument(value) is not None for value in step["map"].values())
    else:
        assert step["map"]["u"] == ["mul", ["var", "a"], ["pow", ["var", "b"], ["num", "-1"]]]


def test_the_convexity_multiplier_is_b_to_the_minus_2_over_p(certificates):
    step = _step(certificates["convexity"])
    # M(a, b, p) = b^(-2/p): evaluated independently at a point with mpmath
    value = _evaluate(step["multiplier"], {"a": Fraction(3), "b": Fraction(5), "p": Fraction(1, 2)})
    assert abs(value - mpmath.mpf(1) / 625) < 1e-15  # the reference 1/625 in double precision


def _evaluate(tree, point):
    with mpmath.workdps(40):
        return evaluate(tree, {k: mpmath.mpf(v.numerator) / v.denominator for k, v in point.items()})


def _rejected(certificate: dict) -> str:
    verdict = check_certificate(certificate)
    assert not verdict.accepted
    return verdict.reason


def test_a_multiplier_of_the_wrong_sign_is_rejected(certificates):
    tampered = copy.deepcopy(certificates["convexity"])
    step = _step(tampered)
    step["multiplier"] = ["mul", ["num", "-1"], step["multiplier"]]
    step["form"] = ["mul", ["num", "-1"], step["form"]]  # the identity still holds
    assert "multiplier is not shown >= 0" in _rejected(tampered)


def test_a_range_understated_is_rejected(certificates):
    tampered = copy.deepcopy(certificates["tail_log"])
    step = _step(tampered)
    step["domain"][0]["lower"], step["domain"][0]["lower_open"] = "1", False  # u >= 1 only
    step["boxes"] = [{"box": {"u": ["1", "oo"]}, "decision": step["boxes"][-1]["decision"]}]
    assert "not shown inside its domain" in _rejected(tampered)


def test_a_broken_identity_is_rejected(certificates):
    tampered = copy.deepcopy(certificates["tail_log"])
    step = _step(tampered)
    step["map"]["u"] = ["mul", ["var", "b"], ["pow", ["var", "a"], ["num", "-1"]]]  # b / a
    assert "exact normal forms differ" in _rejected(tampered)


def test_a_nested_cover_of_a_smaller_set_is_rejected(certificates):
    tampered = copy.deepcopy(certificates["tail_log"])
    step = _step(tampered)
    kept = [r for r in step["boxes"] if r["box"]["u"][0] != "0"]
    assert kept and len(kept) < len(step["boxes"])
    step["boxes"] = kept
    assert "do not cover its domain" in _rejected(tampered)


def test_a_strict_flag_added_is_rejected(certificates):
    tampered = copy.deepcopy(certificates["tail_log"])
    tampered["strict"] = True  # false at a = b
    _rejected(tampered)


def test_a_ceiling_range_needs_the_exact_shape_ceiling_z_minus_z():
    certificate = _certificate(*ROUND_UP)
    step = _step(certificate)
    (name,) = [n for n, v in step["map"].items() if fractional_part_argument(v) is not None]
    step["map"][name] = ["add", ["ceiling", ["var", "z"]], ["mul", ["num", "-1/2"], ["var", "z"]]]
    assert "not shown inside its domain" in _rejected(certificate) or "normal forms differ" in _rejected(
        certificate
    )


def test_logs_and_powers_expand_only_over_positive_variables():
    log_ratio = ["log", ["mul", ["var", "a"], ["pow", ["var", "b"], ["num", "-1"]]]]
    difference = ["add", log_ratio, ["mul", ["num", "-1"], ["log", ["var", "a"]]], ["log", ["var", "b"]]]
    assert exact.normal_form(difference, {}, frozenset({"a", "b"})) == {}
    assert exact.normal_form(difference, {}, frozenset({"a"})) != {}
    assert exact.normal_form(difference, {}) != {}
    power = ["pow", ["mul", ["var", "a"], ["var", "b"]], ["var", "p"]]
    split = ["mul", ["pow", ["var", "a"], ["var", "p"]], ["pow", ["var", "b"], ["var", "p"]]]
    identity = ["add", power, ["mul", ["num", "-1"], split]]
    assert exact.normal_form(identity, {}, frozenset({"a", "b", "p"})) == {}
    assert exact.normal_form(identity, {}, frozenset({"a", "p"})) != {}  # b may be negative


def test_positive_names_come_from_the_box_and_its_open_ends():
    domain = read_domain(
        [
            {
                "name": "a",
                "lower": "0",
                "upper": "oo",
                "lower_open": True,
                "upper_open": True,
                "integer": False,
            },
            {
                "name": "b",
                "lower": "0",
                "upper": "1",
                "lower_open": False,
                "upper_open": False,
                "integer": False,
            },
            {
                "name": "c",
                "lower": "-1",
                "upper": "1",
                "lower_open": False,
                "upper_open": False,
                "integer": False,
            },
        ]
    )
    box = {
        "a": (Fraction(0), float("inf")),
        "b": (Fraction(0), Fraction(1)),
        "c": (Fraction(1, 2), Fraction(1)),
    }
    assert positive_names(environment(box, domain)) == frozenset({"a", "c"})


def test_substitute_replaces_simultaneously():
    tree = ["add", ["var", "x"], ["var", "y"]]
    assert substitute(tree, {"x": ["var", "y"], "y": ["var", "x"]}) == ["add", ["var", "y"], ["var", "x"]]


X, Y = ["var", "x"], ["var", "y"]
POSITIVE_TREES = st.recursive(
    st.sampled_from([X, Y, ["num", "1/3"], ["num", "-2"], ["num", "6"], ["num", "96"]]),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["add", "mul"]), inner, inner).map(list),
        st.tuples(st.sampled_from(["log", "exp"]), inner).map(list),
        st.tuples(
            st.just("pow"), inner, st.one_of(inner, st.sampled_from([["num", "-1"], ["num", "1/2"]]))
        ).map(list),
    ),
    max_leaves=6,
)
POSITIVE_POINTS = fraction_strategies.fractions(Fraction(1, 8), 3, max_denominator=8)


def _positive_form_agrees(tree: list, x: Fraction, y: Fraction) -> None:
    """Against the mpmath reference at the point x, y > 0 (the rules' premise; log x < 0 for x < 1, so a
    power of log x may be defined only where its exponent is an integer), at 300 digits: a rewritten power
    such as (x^(x^64))^(6^64) for x^((6 x)^64) needs them to show 1 - 2.5e-8."""
    form = exact.normal_form(tree, {}, frozenset({"x", "y"}))
    if form is not None:
        assert form_agrees(tree, exact.as_tree(form), {"x": x, "y": y}, digits=300), (tree, x, y)


@settings(max_examples=200, deadline=None)
@given(POSITIVE_TREES, POSITIVE_POINTS, POSITIVE_POINTS)
def test_the_positive_normal_form_equals_the_tree_wherever_it_is_defined(tree, x, y):
    _positive_form_agrees(tree, x, y)


def test_a_symbolic_power_of_a_base_of_unknown_sign_is_not_split():
    # log(x)^(-2y) at x = 1/8, y = 1/2 is 1/log(1/8) = -0.4809 (hand: log 8 = 2.0794); splitting it as
    # (log(x)^y)^(-2) would need the square root of log(1/8) < 0 (hypothesis seed 18 found it)
    tree = ["pow", ["log", X], ["mul", Y, ["num", "-2"]]]
    form = exact.as_tree(exact.normal_form(tree, {}, frozenset({"x", "y"})))
    with mpmath.workdps(50):
        value = evaluate(form, {"x": mpmath.mpf(1) / 8, "y": mpmath.mpf(1) / 2})
        assert abs(value + 1 / mpmath.log(8)) < mpmath.mpf(10) ** -45


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("HYPOTHESIS_PROFILE") != "thorough",
    reason="on demand (HYPOTHESIS_PROFILE=thorough): the mpmath reference can take minutes on an exp tower",
)
@pytest.mark.parametrize("seed", [1, 18, 42, 2026])
def test_the_positive_normal_form_at_fixed_seeds(seed):
    """The property above, 300 examples each at fixed seeds (one of them, 18, found the split power). On
    demand: the draws depend on the run (a full suite drew an exp tower at seed 2026 whose reference
    evaluation ran for minutes in mpmath's exp), so the default tiers keep the seed-18 case as the unit
    test above."""
    check = given(POSITIVE_TREES, POSITIVE_POINTS, POSITIVE_POINTS)(_positive_form_agrees)
    hypothesis.seed(seed)(settings(max_examples=300, deadline=None, database=None)(check))()


def test_a_symbolic_power_of_a_sum_raised_back_is_the_sum():
    # ((x + y)^(1/x))^x = x + y: the exponents multiply to 1 and the base is the whole sum (an early version
    # of the positive rules took the sum's first term, x, as the base)
    inner = ["pow", ["add", X, Y], ["pow", X, ["num", "-1"]]]
    tree = ["add", ["pow", inner, X], ["mul", ["num", "-1"], ["add", X, Y]]]
    assert exact.normal_form(tree, {}, frozenset({"x", "y"})) == {}
    assert form_agrees(
        ["pow", inner, X],
        exact.as_tree(exact.normal_form(["pow", inner, X], {}, frozenset("xy"))),
        {"x": Fraction(1, 8), "y": Fraction(1, 8)},
    )
