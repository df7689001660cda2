"""The kernel's premised cases (theory/prover/kernel/premises.py): a Min, Max or Piecewise value decided
under its case's condition by a shift, a multiplier or an implied premise. Accepted certificates are of
statements mpmath at 50 digits finds true on a grid; tampered multipliers, shifts and implied premises,
and the same decisions on planted false statements, are rejected. The premises and the shift are checked
against exact rational evaluation written here (sharing nothing with the kernel's trees)."""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction
from typing import Any

import mpmath
import pytest

pytest.importorskip("flint", reason="the kernel needs python-flint (the certify extra)")

from tests.helpers.premise_cases import exact
from theory.errors import SpecboundError
from theory.prover import check_certificate, prove
from theory.prover.kernel import Malformed, premises
from theory.prover.kernel.verify import Box, Variable

X, Y = ["var", "x"], ["var", "y"]


def _minus(tree: Any) -> Any:
    return ["mul", ["num", "-1"], tree]


def _domain(hi: str) -> list[dict[str, Any]]:
    return [
        {"name": name, "lower": "0", "upper": hi, "lower_open": False, "upper_open": False, "integer": False}
        for name in ("x", "y")
    ]


def _certificate(text: str, gap: Any, hi: str, decision: Any) -> dict[str, Any]:
    return {
        "format": "specbound-certificate/2",
        "inequality": text,
        "gap": gap,
        "strict": False,
        "domain": _domain(hi),
        "boxes": [{"box": {"x": ["0", hi], "y": ["0", hi]}, "decision": decision}],
    }


def _min_square(margin: str = "") -> Any:
    """x y - Min(x, y)^2 (minus 1/1000 when ``margin``), as the language types it."""
    gap = ["add", ["mul", X, Y], _minus(["pow", ["min", X, Y], ["num", "2"]])]
    return gap if not margin else ["add", ["mul", X, Y], _minus(["num", margin]), gap[2]]


SHIFTS = {"method": "cases", "branches": [
    {"method": "shift", "premise": 0, "variable": "y", "then": {"method": "enclosure"}},
    {"method": "shift", "premise": 0, "variable": "x", "then": {"method": "enclosure"}},
]}  # fmt: skip
MULTIPLIERS = {"method": "cases", "branches": [
    {"method": "multiplier", "premise": 0, "multiplier": X, "sign": {"method": "enclosure"},
     "then": {"method": "enclosure"}},
    {"method": "multiplier", "premise": 0, "multiplier": Y, "sign": {"method": "enclosure"},
     "then": {"method": "enclosure"}},
]}  # fmt: skip
SQUARES_GAP = ["add", ["mul", X, Y], _minus(["min", ["pow", X, ["num", "2"]], ["pow", Y, ["num", "2"]]])]


def _implied(form: Any, other: Any) -> dict[str, Any]:
    return {
        "method": "imply",
        "premise": 0,
        "form": form,
        "strict": False,
        "proof": {"method": "shift", "premise": 0, "variable": other, "then": {"method": "enclosure"}},
        "then": {"method": "shift", "premise": 0, "variable": "y" if other == "x" else "x",
                 "then": {"method": "enclosure"}},
    }  # fmt: skip


IMPLIED = {"method": "cases", "branches": [
    _implied(_minus(["add", X, _minus(Y)]), "x"), _implied(["add", X, _minus(Y)], "y"),
]}  # fmt: skip
PIECEWISE_GAP = [
    "add",
    ["piecewise", [["mul", ["num", "1"], ["pow", ["add", X, _minus(Y)], ["num", "-1"]]], ["lt", Y, X]],
     [["num", "0"], ["true"]]],
    _minus(["num", "0"]),
]  # fmt: skip
PIECEWISE = {"method": "cases", "branches": [
    {"method": "shift", "premise": 0, "variable": "x", "then": {"method": "enclosure"}},
    {"method": "enclosure"},
]}  # fmt: skip

ACCEPTED = [
    ("Min(x, y)^2 <= x*y", _min_square(), "1", SHIFTS, lambda x, y: x * y - min(x, y) ** 2),
    ("Min(x, y)^2 <= x*y", _min_square(), "1", MULTIPLIERS, lambda x, y: x * y - min(x, y) ** 2),
    ("Min(x^2, y^2) <= x*y", SQUARES_GAP, "2", IMPLIED, lambda x, y: x * y - min(x**2, y**2)),
    (
        "Piecewise((1/(x - y), x > y), (0, True)) >= 0",
        PIECEWISE_GAP,
        "1",
        PIECEWISE,
        lambda x, y: 1 / (x - y) if x > y else mpmath.mpf(0),
    ),
]


def _true_on_grid(gap: Any, hi: int) -> bool:
    """mpmath at 50 digits: the hand-written gap >= 0 on a 41 x 41 grid of the box [0, hi]^2 (the diagonal
    included)."""
    with mpmath.workdps(50):
        points = [mpmath.mpf(hi) * k / 40 for k in range(41)]
        return all(gap(x, y) >= 0 for x, y in itertools.product(points, points))


@pytest.mark.parametrize(
    "text, gap, hi, decision, oracle", ACCEPTED, ids=[f"{a[0]}-{i}" for i, a in enumerate(ACCEPTED)]
)
def test_a_true_case_decided_under_its_premise_is_accepted(text, gap, hi, decision, oracle) -> None:
    assert _true_on_grid(oracle, int(hi))
    verdict = check_certificate(_certificate(text, gap, hi, decision))
    assert verdict.accepted, verdict.reason


def _tampered(decision: dict[str, Any], branch: int, **changes: Any) -> dict[str, Any]:
    changed = copy.deepcopy(decision)
    changed["branches"][branch].update(changes)
    return changed


REJECTED = [
    ("the multiplier doubled", _min_square(), "1",
     _tampered(MULTIPLIERS, 0, multiplier=["mul", ["num", "2"], X])),
    ("the multiplier negative", _min_square(), "1", _tampered(MULTIPLIERS, 1, multiplier=_minus(Y))),
    ("a shift in the other variable", _min_square(), "1", _tampered(SHIFTS, 0, variable="x")),
    ("the implied premise reversed", SQUARES_GAP, "2", {"method": "cases", "branches": [
        _implied(["add", X, _minus(Y)], "x"), IMPLIED["branches"][1]]}),
    ("the implied premise strict", SQUARES_GAP, "2", _tampered(IMPLIED, 0, strict=True)),
    ("a case with no premise used", SQUARES_GAP, "2", _tampered(IMPLIED, 1, method="enclosure")),
]  # fmt: skip


@pytest.mark.parametrize("what, gap, hi, decision", REJECTED, ids=[r[0] for r in REJECTED])
def test_a_tampered_premised_decision_is_rejected(what: str, gap: Any, hi: str, decision: Any) -> None:
    text = "Min(x^2, y^2) <= x*y" if gap is SQUARES_GAP else "Min(x, y)^2 <= x*y"
    assert not check_certificate(_certificate(text, gap, hi, decision)).accepted, what


def test_a_premise_the_case_lacks_is_malformed() -> None:
    data = _certificate("Min(x, y)^2 <= x*y", _min_square(), "1", _tampered(SHIFTS, 1, premise=1))
    with pytest.raises(Malformed, match="premises"):
        check_certificate(data)


def test_the_decisions_of_a_true_statement_fail_on_a_planted_false_one() -> None:
    """x y - 1/1000 - Min(x, y)^2 is -1/1000 on the diagonal (mpmath); the same shifts and multipliers are
    rejected."""
    assert not _true_on_grid(lambda x, y: x * y - mpmath.mpf(1) / 1000 - min(x, y) ** 2, 1)
    for decision in (SHIFTS, MULTIPLIERS):
        data = _certificate("Min(x, y)^2 <= x*y - 1/1000", _min_square("1/1000"), "1", decision)
        assert not check_certificate(data).accepted


def test_the_premises_hold_where_the_value_is_taken() -> None:
    """At 300 random rational points, the argument a Min (Max) takes satisfies its branch's premises."""
    rng = random.Random(48)
    for op in ("min", "max"):
        node = [op, ["pow", X, ["num", "2"]], ["add", Y, ["num", "-1/3"]], ["mul", X, Y]]
        for _ in range(150):
            point = {"x": Fraction(rng.randint(-40, 40), 7), "y": Fraction(rng.randint(-40, 40), 5)}
            taken = exact(node, point)
            index = next(j for j, arg in enumerate(node[1:]) if exact(arg, point) == taken)
            for c, strict in premises.of_branch(node, index):
                assert exact(c, point) > 0 if strict else exact(c, point) >= 0


def test_a_shifted_point_lies_in_the_shifted_box_with_the_sameexact() -> None:
    """For the premise 2 x - 3 y + 1 > 0 on [-1, 2] x [0, 3], every point where it holds maps (x = (t + 3 y -
    1)/2, t = its value) into the kernel's shifted box, and the shifted tree there equals the tree at the
    point (exact rationals)."""
    c = ["add", ["mul", ["num", "2"], X], ["mul", ["num", "-3"], Y], ["num", "1"]]
    tree = ["add", ["pow", X, ["num", "3"]], ["mul", ["num", "-5"], X, Y]]
    box: Box = {"x": (Fraction(-1), Fraction(2)), "y": (Fraction(0), Fraction(3))}
    domain = {name: Variable(name, lo, hi, False, False, False) for name, (lo, hi) in box.items()}
    moved = premises.shifted(tree, box, domain, [(c, True)], 0, "x")
    assert isinstance(moved, tuple)
    shifted, new_box, new_domain, _ = moved
    (t,) = set(new_box) - set(box)
    rng = random.Random(1)
    inside = 0
    for _ in range(400):
        point = {"x": Fraction(rng.randint(-30, 60), 30), "y": Fraction(rng.randint(0, 90), 30)}
        value = exact(c, point)
        if value <= 0:
            continue
        inside += 1
        lo, hi = new_box[t]
        assert lo <= value <= hi and (value != lo or not new_domain[t].lower_open)
        assert exact(shifted, {"y": point["y"], t: value}) == exact(tree, point)
    assert inside > 50


def test_a_branch_undefined_on_its_closed_region_is_refused() -> None:
    """1/(x - y) taken where x >= y is undefined on the diagonal: refused, never decided; where x > y it is
    defined and the statement is proved."""
    with pytest.raises(SpecboundError, match="undefined at"):
        prove("Piecewise((1/(x - y), x >= y), (0, True)) >= 0", "x: [0, 1], y: [0, 1]", 2.0, 200, False)
    result = prove("Piecewise((1/(x - y), x > y), (0, True)) >= 0", "x: real, y: real", 2.0, 200, False)
    assert result.status == "proved"
