"""Every enclosure rule of the kernel (theory/prover/kernel/trees.py, balls.py) against mpmath at 50 digits
on boxes unbounded at one or both ends: for each node (+, *, a quotient, integer, rational and symbolic
powers, exp, log, sqrt, atan, tanh, erf, erfc, Phi, floor, ceiling, Abs, Max, Min, Piecewise), the set the
kernel encloses must contain the node's value at every sampled point of the box (an open end of the set
never attained when it is an exact number), and a box on which the kernel encloses a node must hold no
point where the node is undefined. The forward-mode slope of every node but floor and ceiling (what a
monotone step, and so a tail towards either infinity, rests on) must contain mpmath's numerical derivative.

Points are dyadic rationals (exact in mpmath), out to 2^90 towards an infinite end and 2^-60 from a
finite one, so the limits at infinity (atan -> -pi/2, erf -> -1, exp -> 0) are approached to far below
the width of arb's balls.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from tests.helpers.mp_reference import evaluate
from theory.prover.kernel import balls, trees

X, Y = ["var", "x"], ["var", "y"]
SQRT_HALF = ["pow", ["num", "2"], ["num", "-1/2"]]
NODES = {
    "add": ["add", X, Y],
    "mul": ["mul", X, Y],
    "quotient": ["mul", X, ["pow", Y, ["num", "-1"]]],
    "square": ["pow", X, ["num", "2"]],
    "cube": ["pow", X, ["num", "3"]],
    "inverse square": ["pow", X, ["num", "-2"]],
    "sqrt": ["pow", X, ["num", "1/2"]],
    "power 7/3": ["pow", X, ["num", "7/3"]],
    "power -3/2": ["pow", X, ["num", "-3/2"]],
    "power pi": ["pow", X, ["const", "pi"]],
    "symbolic power": ["pow", X, Y],
    "exp": ["exp", X],
    "log": ["log", X],
    "atan": ["atan", X],
    "tanh": ["tanh", X],
    "erf": ["erf", X],
    "erfc": ["erfc", X],
    "Phi": ["mul", ["num", "1/2"], ["add", ["num", "1"], ["erf", ["mul", X, SQRT_HALF]]]],
    "floor": ["floor", X],
    "ceiling": ["ceiling", X],
    "abs": ["abs", X],
    "max": ["max", X, Y],
    "min": ["min", X, Y],
    "piecewise": ["piecewise", [["exp", X], ["lt", X, Y]], [["mul", ["num", "-1"], X], ["true"]]],
    "atan of a product": ["atan", ["mul", X, Y]],
    "exp of a sum": ["exp", ["add", X, ["mul", ["num", "-1"], Y]]],
}
ENDS = [Fraction(n, 4) for n in range(-12, 13)] + [Fraction(-64), Fraction(1, 1024), Fraction(100)]


@st.composite
def sets(draw: st.DrawFn) -> tuple[Fraction | None, Fraction | None, bool, bool]:
    """(lo or None for -oo, hi or None for oo, lo open, hi open): unbounded at one or both ends half the
    time, a point now and then (integer ends on a face: floor's jumps)."""
    lo, hi = sorted((draw(st.sampled_from(ENDS)), draw(st.sampled_from(ENDS))))
    kind = draw(st.sampled_from(["line", "up", "down", "finite"]))
    low = None if kind in ("line", "down") else lo
    high = None if kind in ("line", "up") else hi
    lo_open = low is not None and (low != high) and draw(st.booleans())
    hi_open = high is not None and (low != high) and draw(st.booleans())
    return low, high, lo_open, hi_open


def _kernel_set(spec: tuple) -> balls.Set:
    lo, hi, lo_open, hi_open = spec
    return balls.Set(
        -math.inf if lo is None else trees.ball(lo),
        math.inf if hi is None else trees.ball(hi),
        lo is None or lo_open,
        hi is None or hi_open,
    )


def _points(spec: tuple, draw: st.DrawFn) -> list[Fraction]:
    """Dyadic points of the set: its closed ends, points 2^-k inside a finite end, 2^k out towards an
    infinite one, and points between."""
    lo, hi, lo_open, hi_open = spec
    points = [v for v, opened in ((lo, lo_open), (hi, hi_open)) if v is not None and not opened]
    for _ in range(4):
        k = draw(st.sampled_from([0, 1, 3, 10, 30, 60, 90]))
        if lo is None:
            points.append((hi if hi is not None else Fraction(0)) - 2**k)
        else:
            points.append(lo + Fraction(1, 2**k) * (1 if hi is None else min(1, hi - lo)))
        if hi is None:
            points.append((lo if lo is not None else Fraction(0)) + 2**k)
        else:
            points.append(hi - Fraction(1, 2**k) * (1 if lo is None else min(1, hi - lo)))
    inside = draw(st.integers(1, 63))
    if lo is not None and hi is not None:
        points.append(lo + (hi - lo) * Fraction(inside, 64))
    return [p for p in points if _member(spec, p)]


def _member(spec: tuple, p: Fraction) -> bool:
    lo, hi, lo_open, hi_open = spec
    above = lo is None or p > lo or (p == lo and not lo_open)
    below = hi is None or p < hi or (p == hi and not hi_open)
    return above and below


def _end(value: object, lower: bool) -> mpmath.mpf:
    if isinstance(value, float):
        return mpmath.mpf(value)
    ball = value.lower() if lower else value.upper()  # type: ignore[attr-defined]
    return mpmath.mpf(ball.mid().str(60, radius=False))


def _exact(value: object) -> bool:
    return not isinstance(value, float) and value.is_exact()  # type: ignore[attr-defined]


def _contains(image: balls.Set, v: mpmath.mpf, moderate: bool) -> bool:
    """v in the set, with an exact open end never attained (checked at a moderate point only: tanh(-1024)
    is -1 to far more than 50 digits, though tanh never attains -1)."""
    lo, hi = _end(image.lo, True), _end(image.hi, False)
    slack = mpmath.mpf(10) ** -45 * (1 + abs(v))  # the ends' decimal text, rounded at 60 digits
    if not (lo - slack <= v <= hi + slack):
        return False
    if moderate and image.lo_open and _exact(image.lo) and v == lo:
        return False
    return not (moderate and image.hi_open and _exact(image.hi) and v == hi)


def _value(tree: list, point: dict[str, Fraction]) -> mpmath.mpf | None:
    """The node at the point by mpmath at 50 digits; None where it is undefined (or not real)."""
    with mpmath.workdps(50):
        values = {name: mpmath.mpf(v.numerator) / v.denominator for name, v in point.items()}
        try:
            value = evaluate(tree, values)
        except (ValueError, ZeroDivisionError):
            return None
        if not isinstance(value, mpmath.mpf) or mpmath.isnan(value) or mpmath.isinf(value):
            return None
        if tree[0] == "log" and values["x"] <= 0:
            return None
        return value


@pytest.mark.parametrize("name", list(NODES))
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_the_enclosure_of_every_node_holds_its_values_on_unbounded_boxes(name, data):
    tree = NODES[name]
    x, y = data.draw(sets()), data.draw(sets())
    if name == "symbolic power" and x[0] is not None and x[0] >= 2 and y[1] is None:
        return  # x^y for huge y is beyond mpmath's exponent range; the rule is exercised on smaller boxes
    env = {"x": _kernel_set(x), "y": _kernel_set(y)}
    try:
        image = trees.enclose(tree, env)
    except balls.Undefined:
        return  # the kernel declines: nothing claimed
    xs, ys = _points(x, data.draw), _points(y, data.draw)
    for px in xs:
        for py in ys[:3]:
            point = {"x": px, "y": py}
            value = _value(tree, point)
            assert value is not None, f"{name}: enclosed on a box holding the undefined point {point}"
            moderate = all(abs(p) <= 8 for p in point.values())
            assert _contains(image, value, moderate), (name, x, y, point, value, image)


SMOOTH_IN_X = [n for n in NODES if n not in ("floor", "ceiling")]
"""Nodes the forward-mode slope differentiates (floor and ceiling in x are Discontinuous by design)."""


def _kink(name: str, point: dict[str, Fraction]) -> bool:
    """The point is within 2^-20 of where the node is not differentiable in x (Abs at 0, Max and Min and the
    Piecewise on the diagonal, a power at 0)."""
    near = Fraction(1, 2**20)
    return abs(point["x"]) < near or abs(point["x"] - point["y"]) < near


def _derivative(tree: list, point: dict[str, Fraction]) -> mpmath.mpf | None:
    """d tree / dx at the point by mpmath's numerical differentiation at 50 digits (None where the tree is
    undefined next to the point)."""
    with mpmath.workdps(50):
        y = mpmath.mpf(point["y"].numerator) / point["y"].denominator
        x = mpmath.mpf(point["x"].numerator) / point["x"].denominator
        try:
            value = mpmath.diff(lambda t: evaluate(tree, {"x": t, "y": y}), x)
        except (ValueError, ZeroDivisionError):
            return None
        return value if isinstance(value, mpmath.mpf) and mpmath.isfinite(value) else None


@pytest.mark.parametrize("name", SMOOTH_IN_X)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_slope_of_every_node_holds_its_derivative_on_unbounded_boxes(name, data):
    # the slope is what a monotone step (and so a tail towards either infinity) rests on
    tree = NODES[name]
    x, y = data.draw(sets()), data.draw(sets())
    env = {"x": _kernel_set(x), "y": _kernel_set(y)}
    closed = env  # the conditions of the Piecewise are decided on the same box
    try:
        image = trees.slope(tree, env, closed, "x")
    except (balls.Undefined, trees.Discontinuous):
        return
    xs = [p for p in _points(x, data.draw) if abs(p) <= 64]
    ys = [p for p in _points(y, data.draw) if abs(p) <= 64]
    for px in xs:
        for py in ys[:3]:
            point = {"x": px, "y": py}
            if _kink(name, point):
                continue
            derivative = _derivative(tree, point)
            if derivative is None:
                continue  # undefined next to the point: a closed end of log's or sqrt's domain
            assert _contains(image, derivative, False), (name, x, y, point, derivative, image)
