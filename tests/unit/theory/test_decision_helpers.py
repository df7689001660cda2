"""Every decision helper is checked with planted false statements, and a helper that lies makes the
self-check run fail (the two mutants of the review: `equal` answering "equal" for every pair, `all_of`
meaning "any")."""

from __future__ import annotations

import pytest
import sympy as sp

from paper_checks.claims import _symbolic
from theory import _sympy_tools as tools
from theory import regimes, schatten
from theory.registry import helper_control_results

x = sp.Symbol("x", positive=True)
p = sp.Symbol("p", nonnegative=True)
NEAR = x + sp.Mul(*(x - k for k in range(1, 10))) / 10**9  # agrees with x at x = 1, ..., 9


def test_equal_rejects_a_near_identity_and_accepts_identities():
    assert tools.equal(x, NEAR)[0] is False
    assert tools.equal(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1))[0] is True
    assert tools.equal(sp.sin(x), x - x**3 / 6)[0] is False  # agrees to third order at 0
    assert tools.equal((2 * x) ** p, 2**p * x**p)[0] is True


def test_sign_helpers_reject_a_sign_change_inside_the_range():
    assert tools.is_positive(x - 1)[0] is False
    assert tools.is_nonnegative(x - sp.Rational(1, 1000))[0] is False
    assert tools.sign_on_open_range(p - 1, p, positive=True)[0] is False
    assert tools.sign_on_open_range(p * (p - 2), p, positive=False)[0] is True
    assert tools.is_positive(x + 1)[0] is True


def test_all_of_fails_with_one_failing_part_among_many():
    parts = [(f"{k}", (True, "")) for k in range(9)] + [("bad", (False, "counterexample"))]
    assert tools.all_of(parts)[0] is False
    assert tools.all_of(parts[:9])[0] is True


def test_limit_equals_rejects_a_close_value():
    assert tools.limit_equals((1 + x) ** (1 / x), x, 0, sp.Float(2.718281))[0] is False
    assert tools.limit_equals((1 + x) ** (1 / x), x, 0, sp.E)[0] is True


def test_claim_helpers_reject_planted_false_statements():
    assert _symbolic.is_identity(x, NEAR)[0] is False
    assert _symbolic.is_identity(sp.sin(x) ** 2, 1 - sp.cos(x) ** 2)[0] is True
    assert _symbolic.elasticity(x**3 * sp.exp(x), x) != 3
    assert _symbolic.sign_on_interval(p - 1, p, 0, 2) is None
    assert _symbolic.sign_on_interval(-1 / (p + 2) ** 2, p, 0, 2) == -1
    assert _symbolic.sign_on_interval((p - 1) ** 2, p, 0, 2) is None  # zero inside: not strictly positive


def test_every_helper_control_passes_with_honest_helpers():
    results = helper_control_results()
    assert len(results) >= 8 and all(r.verdict for r in results), [r for r in results if not r.verdict]


def _lying_equal(lhs, rhs):
    return True, "lie"


def _any_of(decisions):
    parts = list(decisions)
    return any(ok for _, (ok, _) in parts), "any"


def _regimes_checks(*names: str) -> dict:
    """The regimes lemma's checks called ``names``, taken before a mutant is planted (its laws are cached
    honestly); a test runs only the checks it names, not the lemma's other self-checks."""
    checks = {check.name: check for check in regimes.lemma().checks}
    return {name: checks[name] for name in names}


def _failing(checks: dict) -> list[str]:
    """The names of ``checks`` whose result (the check and its negative control) fails now."""
    return [name for name, check in checks.items() if not check.result().verdict]


@pytest.mark.slow  # the regimes' self-checks under the mutant: 20 s wall at load 10
def test_mutant_equal_always_true_fails_the_self_checks(monkeypatch):
    checks = _regimes_checks("laws_agree_with_sympy_limits", "log_factor_linear_in_L")
    monkeypatch.setattr(tools, "equal", _lying_equal)
    assert any(not r.verdict for r in helper_control_results.__wrapped__())
    assert _failing(checks) == ["laws_agree_with_sympy_limits", "log_factor_linear_in_L"]
    assert any(not r.verdict for r in schatten.lemma.__wrapped__().results)


@pytest.mark.slow  # 9 s wall at load 10; the sign-helper mutant stays in the fast tier
def test_mutant_all_of_means_any_fails_the_self_checks(monkeypatch):
    checks = _regimes_checks("posthoc_capped_by_p0")
    monkeypatch.setattr(tools, "all_of", _any_of)
    assert any(not r.verdict for r in helper_control_results.__wrapped__())
    assert _failing(checks) == ["posthoc_capped_by_p0"]


def test_mutant_sign_helpers_always_true_fail_the_self_checks(monkeypatch):
    checks = _regimes_checks("width_not_smaller_than_edelman")
    monkeypatch.setattr(tools, "is_positive", lambda e: (True, "lie"))
    monkeypatch.setattr(tools, "is_nonnegative", lambda e: (True, "lie"))
    assert any(not r.verdict for r in helper_control_results.__wrapped__())
    assert _failing(checks) == ["width_not_smaller_than_edelman"]
