"""Issue 40's kernel findings as regressions, and the tail rule and the interval power against mpmath
(50 digits): what the kernel accepts must hold at the points mpmath evaluates."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from paper_checks.cli import main
from tests.helpers import fraction_strategies
from tests.helpers.mp_reference import evaluate
from theory.prover import check_certificate, prove
from theory.prover.definedness import UndefinedStatement
from theory.prover.kernel import Malformed, balls, trees, verify

FALSE_ON_THE_LINE = [
    ("x >= -16", "x: real"),
    ("exp(x) >= 1e-8", "x: real"),
    ("atan(x) >= -1.55", "x: real"),
    ("x^3 + x > -5000", "x: real"),
    ("Phi(x/4) >= 1e-6", "x: real"),
    ("tanh(x/8) >= -0.99", "x: real"),
    ("exp(x)/(1 + exp(x)) >= 1e-10", "x: real"),
    ("N >= -16", "N: integer"),
    ("N^3 >= -4096", "N: integer"),
    ("exp(N) >= 1e-7", "N: integer"),
    ("x + y >= -20", "x: real, y: [0, 1]"),
    pytest.param("atan(x) + atan(y) >= -3.05", "x: real, y: real", marks=pytest.mark.slow),  # 12 s at load 13
]


@pytest.mark.parametrize(("statement", "domain"), FALSE_ON_THE_LINE)
def test_a_false_bound_towards_minus_infinity_is_refuted_with_a_witness(statement, domain):
    result = prove(statement, domain, budget_seconds=10)
    assert result.status == "refuted"
    point = result.parts[0].witness.point
    with mpmath.workdps(50):
        sides = statement.replace("^", "**").replace("Phi(x/4)", "(1 + erf(x/(4*sqrt(2))))/2")
        left, right = sides.split(">=") if ">=" in sides else sides.split(">")
        names = {n: mpmath.mpf(v.numerator) / v.denominator for n, v in point.items()}
        names.update(exp=mpmath.exp, atan=mpmath.atan, tanh=mpmath.tanh, erf=mpmath.erf, sqrt=mpmath.sqrt)
        assert eval(left, {}, names) < eval(right, {}, names)  # the test's own text, never input


def _certificate(gap: list, lower: str, upper: str, decision: dict, integer: bool = False) -> dict:
    record = {"name": "x", "lower": lower, "upper": upper, "integer": integer}
    record.update(lower_open=lower == "-oo", upper_open=upper == "oo")
    return {
        "format": verify.FORMAT,
        "gap": gap,
        "strict": False,
        "domain": [record],
        "boxes": [{"box": {"x": [lower, upper]}, "decision": decision}],
    }


X = ["var", "x"]
HAND_WRITTEN = [  # gap >= 0 false on the line, each "increasing with a tail" as the old kernel took it
    X,
    ["add", ["pow", X, ["num", "3"]], ["num", "-1"]],
    ["add", ["exp", X], ["num", "-2"]],
]


@pytest.mark.parametrize("gap", HAND_WRITTEN)
@pytest.mark.parametrize("tail", ["0", "16", "65536"])
def test_a_hand_written_tail_on_the_wrong_side_is_rejected(gap, tail):
    decision = {"method": "monotone", "variable": "x", "direction": "increasing", "tail": tail}
    decision["then"] = {"method": "enclosure"}
    assert not check_certificate(_certificate(gap, "-oo", "oo", decision)).accepted


def test_a_piecewise_value_in_the_variable_is_differentiated_not_taken_as_constant():
    gap = ["piecewise", [["mul", ["num", "-1"], X], ["true"]]]  # -x, false on (0, 1]
    decision = {"method": "monotone", "variable": "x", "direction": "increasing"}
    decision.update(slope={"method": "enclosure"}, then={"method": "enclosure"})
    assert not check_certificate(_certificate(gap, "0", "1", decision)).accepted


UNDECIDABLE = "atan(2) + atan(1/2) < pi/2"  # false (the sum is pi/2), no ball decides it


def test_a_power_with_an_interval_exponent_is_not_proved_from_its_lower_end():
    statement = f"x**Piecewise((1/2, {UNDECIDABLE}), (3, True)) >= 1/2"  # false: (3/4)^3 < 1/2
    assert prove(statement, "x: [3/4, 1]", budget_seconds=1, max_boxes=50).status != "proved"
    condition = [
        "lt",
        ["add", ["atan", ["num", "2"]], ["atan", ["num", "1/2"]]],
        ["mul", ["num", "1/2"], ["const", "pi"]],
    ]
    exponent = ["piecewise", [["num", "1/2"], condition], [["num", "3"], ["true"]]]
    gap = ["add", ["pow", X, exponent], ["num", "-1/2"]]
    assert not check_certificate(_certificate(gap, "3/4", "1", {"method": "enclosure"})).accepted


def test_min_with_a_constant_sympy_cannot_order_is_decided_not_a_crash(capsys):
    assert main(["prove", "Min(x, atan(2) + atan(1/2) - pi/2) <= 1", "--domain", "x: [0, 1]", "--quiet"]) == 0


@pytest.mark.parametrize("text", ["1e999999999", "1 / 3", "1_000", "1e301", "0x10"])
def test_a_certificate_number_beyond_the_reader_is_malformed(text):
    with pytest.raises(Malformed):
        trees.number(text)


# --- the tail rule against mpmath ----------------------------------------------------------------------

SLOPES = st.sampled_from([["var", "x"], ["atan", X], ["tanh", X], ["exp", X], ["pow", X, ["num", "3"]]])


@settings(max_examples=60, deadline=None)
@given(
    SLOPES,
    st.sampled_from([1, -1]),
    fraction_strategies.fractions(-40, 40, max_denominator=4),
    st.sampled_from(["-oo", "-3"]),
    st.sampled_from(["oo", "5"]),
    st.integers(-64, 64),
    st.booleans(),
)
def test_an_accepted_tail_step_holds_at_points_far_out_on_both_sides(f, sign, shift, lo, hi, start, integer):
    # gap = sign * f(x) + shift, monotone in x; the kernel accepts "monotone with a tail" only when the gap
    # is >= 0 on the whole box, which mpmath checks at the box's points out to +-10^6
    if lo != "-oo" and hi != "oo":
        return
    gap = ["add", ["mul", ["num", str(sign)], f], ["num", str(shift)]]
    direction = "increasing" if sign > 0 else "decreasing"
    decision = {"method": "monotone", "variable": "x", "direction": direction, "tail": str(start)}
    decision["then"] = {"method": "enclosure"}
    try:
        verdict = check_certificate(_certificate(gap, lo, hi, decision, integer))
    except Malformed:
        return
    if not verdict.accepted:
        return
    low = -(10**6) if lo == "-oo" else int(lo)
    high = 10**6 if hi == "oo" else int(hi)
    with mpmath.workdps(50):
        for x in (low, low // 2, start, 0, high // 2, high):
            if low <= x <= high:
                value = evaluate(gap, {"x": mpmath.mpf(x)})
                assert value >= 0, (gap, lo, hi, start, x, value)


# --- the power of a set of exponents against mpmath --------------------------------------------------

QUARTERS = st.integers(0, 16).map(lambda n: Fraction(n, 4))
EXPONENTS = st.integers(-12, 12).map(lambda n: Fraction(n, 4))


@settings(max_examples=150, deadline=None)
@given(QUARTERS, QUARTERS, EXPONENTS, EXPONENTS, st.floats(0, 1), st.floats(0, 1))
def test_a_power_contains_every_base_to_every_exponent_of_their_sets(a, b, c, d, s, t):
    (a, b), (c, d) = sorted((a, b)), sorted((c, d))
    base = balls.Set(trees.ball(a), trees.ball(b))
    exponent = balls.hull(balls.point(trees.ball(c)), balls.point(trees.ball(d)))
    with verify.precision(64):
        try:
            image = trees._constant_power(base, exponent)
        except balls.Undefined:
            return
    v = a + (b - a) * Fraction(s).limit_denominator(32)
    e = c + (d - c) * Fraction(t).limit_denominator(32)
    with mpmath.workdps(50):
        for u, w in ((v, e), (a, c), (a, d), (b, c), (b, d)):
            if u == 0 and w <= 0:
                continue
            value = mpmath.power(
                mpmath.mpf(u.numerator) / u.denominator, mpmath.mpf(w.numerator) / w.denominator
            )
            lo = mpmath.mpf(image.lo.lower().mid().str(40, radius=False))
            hi = (
                mpmath.inf
                if isinstance(image.hi, float)
                else mpmath.mpf(image.hi.upper().mid().str(40, radius=False))
            )
            assert lo - mpmath.mpf(10) ** -30 <= value <= hi + mpmath.mpf(10) ** -30, (
                a,
                b,
                c,
                d,
                u,
                w,
                image,
            )


# --- a log of a set unbounded below (found by the enclosure property tests) ----------------------------

UNDEFINED_BELOW_ZERO = [  # each holds wherever it is defined; log(x) is undefined for x <= 0
    ("Max(log(x), 0) >= 0", "x: real"),
    ("atan(log(x)) >= -2", "x: real"),
    ("exp(log(x)) >= 0", "x: (-oo, -1]"),
    ("Max(x^y, 0) >= 0", "x: real, y: real"),
]


@pytest.mark.parametrize(("statement", "domain"), UNDEFINED_BELOW_ZERO)
def test_a_log_of_a_variable_unbounded_below_is_undefined_not_proved(statement, domain):
    # the kernel enclosed log on (-oo, b] as (-oo, oo) instead of declining, so the definedness check
    # passed and Max(log(x), 0) >= 0 was proved over the reals
    with pytest.raises(UndefinedStatement, match="undefined at"):
        prove(statement, domain, budget_seconds=2)


@pytest.mark.parametrize("upper", ["-1", "0", "1", "oo"])
def test_the_kernel_declines_a_log_of_a_set_reaching_minus_infinity(upper):
    top = math.inf if upper == "oo" else trees.ball(Fraction(upper))
    with pytest.raises(balls.Undefined):
        trees.enclose(["log", X], {"x": balls.Set(-math.inf, top, True, upper == "oo")})
    gap = ["max", ["log", X], ["num", "0"]]
    assert not check_certificate(_certificate(gap, "-oo", upper, {"method": "enclosure"})).accepted


TYPED_NOT_SIMPLIFIED = [  # issue 40's item 3: sympy makes each side defined; the text is not at x = 0
    "x/x >= 1",
    "log(x) - log(x) >= 0",
    "exp(log(x)) >= x",
    "sqrt(x)^2 >= x",
    "x^(1/2)*x^(-1/2) >= 1",
]


@pytest.mark.parametrize("statement", TYPED_NOT_SIMPLIFIED)
def test_a_statement_defined_only_after_simplification_is_refused_with_exit_2(statement, capsys):
    assert main(["prove", statement, "--domain", "x: [-1, 1]"]) == 2
    assert "undefined at x = " in capsys.readouterr().err
