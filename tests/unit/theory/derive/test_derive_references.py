"""derive's decisions on statements whose truth is known by hand: a half-line certificate is returned only
after the kernel re-checked the whole of it (a decision made for other sides than the gap's is not), and
the steps' composition and cuts (each kills a mutant of benchmarks/mutants.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.helpers.paths import ROOT

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.derive.check import compose, cut, step_gap_tree
from theory.derive.half_line import half_line_certificate
from theory.derive.tail import half_line
from theory.prover.domain import parse_domain
from theory.prover.statement import parse_statement

X = ["var", "x"]


def _gap(text: str) -> list:
    (inequality,) = parse_statement(text, half_line("x", Fraction(1))).inequalities
    return inequality.gap_tree()


def test_a_half_line_certificate_for_other_sides_than_the_gap_is_not_returned():
    # x - 2 >= 0 is false at x = 1 on [1, oo); the sides (0, x) give x >= 0, true there, which the search
    # decides; only the kernel's re-check of the rewrite from x - 2 to x refuses it
    sides = (["num", "0"], X)
    assert half_line_certificate("x - 2 >= 0", _gap("x - 2 >= 0"), False, "x", Fraction(1), sides) is None
    assert half_line_certificate("x >= 0", _gap("x >= 0"), False, "x", Fraction(1), sides) is not None


def test_a_chain_is_strict_only_when_a_step_is():
    assert compose(["<=", "=", "<="]) == "<="
    assert compose(["<=", "<"]) == "<"
    assert compose(["=", "="]) == "="


def test_a_bound_cuts_the_side_it_names():
    domain = parse_domain("x: [0, 10]")
    at_least = cut(domain, "x", ">=", Fraction(3))["x"]
    assert (at_least.lower, at_least.upper) == (3, 10)
    below = cut(domain, "x", "<", Fraction(3))["x"]
    assert (below.lower, below.upper, below.upper_open) == (0, 3, True)


def test_strict_assumptions_leave_a_non_strict_step_non_strict():
    # x <= y under a > 0: Max(y - x, -a) >= 0 suffices (it is > 0 wherever a > 0 fails); with a >= 0, > 0
    lhs, rhs, a = X, ["var", "y"], ["var", "a"]
    assert step_gap_tree(lhs, rhs, "<=", [(a, True)])[1] is False
    assert step_gap_tree(lhs, rhs, "<=", [(a, False)])[1] is True


def test_a_chain_with_a_refuted_step_is_refuted_and_an_undecided_one_exits_3():
    from types import SimpleNamespace

    from theory.derive.decide import DerivationResult

    steps = [SimpleNamespace(status="undecided"), SimpleNamespace(status="refuted")]
    assert DerivationResult.status.fget(SimpleNamespace(steps=steps)) == "refuted"
    assert DerivationResult.exit_status.fget(SimpleNamespace(status="undecided")) == 3


def test_a_fact_applies_only_where_its_domain_contains_the_steps():
    from theory.derive.check import covers

    assert not covers(parse_domain("x: [0, 1]"), parse_domain("x: [0, 2]"))
    assert covers(parse_domain("x: [0, 2]"), parse_domain("x: [0, 1]"))


def test_the_crossover_sign_at_a_zero_of_the_difference_is_0():
    from theory.derive.crossover import _sign

    assert _sign(X, "x", Fraction(0), parse_domain("x: [0, oo)")) == 0
    assert _sign(X, "x", Fraction(-1), parse_domain("x: [-1, oo)")) == -1


FALSE_FILE = """title = "x <= x/2 on [0, 1], false at x = 1"
[variables]
x = "[0, 1]"
[[steps]]
expr = "x"
[[steps]]
name = "halved"
relation = "<="
expr = "x/2"
"""

USES_IT = """title = "x <= x + 1 on [0, 1], using the false file"
[variables]
x = "[0, 1]"
[[steps]]
expr = "x"
[[steps]]
name = "by the false file"
relation = "<="
expr = "x + 1"
uses = ["file:false.toml"]
"""


def test_a_step_proved_under_a_refuted_derivation_is_undecided(tmp_path):
    # x <= x/2 fails at x = 1 (hand), so what is proved with it as an assumption is not proved
    from theory.derive import derive

    (tmp_path / "false.toml").write_text(FALSE_FILE, encoding="utf-8")
    (tmp_path / "uses.toml").write_text(USES_IT, encoding="utf-8")
    (step,) = derive(tmp_path / "uses.toml", 5).steps
    assert step.status == "undecided" and "which is not proved" in step.reason


def test_a_derivation_over_a_smaller_domain_does_not_apply(tmp_path):
    # x <= x + 1 proved over [0, 1] says nothing on (1, 2]
    from theory.derive import derive

    small = USES_IT.replace('uses = ["file:false.toml"]\n', "")
    (tmp_path / "small.toml").write_text(small, encoding="utf-8")
    wider = USES_IT.replace('"[0, 1]"', '"[0, 2]"').replace("file:false.toml", "file:small.toml")
    (tmp_path / "wider.toml").write_text(wider, encoding="utf-8")
    (step,) = derive(tmp_path / "wider.toml", 5).steps
    assert step.status == "undecided" and "does not apply" in step.reason


def test_a_step_made_strict_without_a_strict_certificate_is_rejected():
    # docs/examples/log_below_quadratic.toml's last step x^2 + 2x <= 3x on [0, 1] is not strict at x = 1
    # (hand: 3 = 3); a step and conclusion edited to < keep their non-strict certificate
    import copy

    from theory.derive import derive
    from theory.derive.check import check_derivation

    example = ROOT / "docs" / "examples" / "log_below_quadratic.toml"
    certificate = derive(example, 5).certificate()
    assert certificate is not None and check_derivation(certificate).accepted
    stricter = copy.deepcopy(certificate)
    stricter["steps"][3]["relation"] = "<"
    stricter["conclusion"]["relation"] = "<"
    assert not check_derivation(stricter).accepted


BY_ASSUMPTION = """title = "x <= 1 by the assumption x <= 1"
[variables]
x = "[0, 2]"
[assumptions]
at_most_one = "x <= 1"
[[steps]]
expr = "x"
[[steps]]
name = "by the assumption"
relation = "<="
expr = "1"
by = "at_most_one"
"""


def test_a_strict_step_by_a_non_strict_fact_is_rejected(tmp_path):
    # x < 1 does not follow from x <= 1 (x = 1): the step and conclusion edited to < are rejected
    import copy

    from theory.derive import derive
    from theory.derive.check import check_derivation

    (tmp_path / "given.toml").write_text(BY_ASSUMPTION, encoding="utf-8")
    certificate = derive(tmp_path / "given.toml", 10).certificate()
    assert certificate is not None and check_derivation(certificate).accepted
    stricter = copy.deepcopy(certificate)
    stricter["steps"][0]["relation"] = "<"
    stricter["conclusion"]["relation"] = "<"
    assert not check_derivation(stricter).accepted
