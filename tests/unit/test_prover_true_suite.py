"""Classical true inequalities are proved over their whole domains, and every certificate re-checks."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.prover import PROVED, check_certificate, prove

C_P = "(p+2)*4^(-1/(p+2))*p^(-p/(p+2))"

TRUE_SUITE = [
    ("bernoulli", "(1+x)^r >= 1 + r*x", "x: [-1, oo), r: [1, 10]"),
    ("bernoulli_integer_r", "(1+x)^r >= 1 + r*x", "x: (-1, oo), r: integer in [1, 50]"),
    ("am_gm_2", "sqrt(x*y) <= (x+y)/2", "x: [0, oo), y: [0, oo)"),
    ("am_gm_2_squared", "x*y <= ((x+y)/2)^2", "x: real, y: real"),
    ("am_gm_3", "(x*y*z)^(1/3) <= (x+y+z)/3", "x: [0, oo), y: [0, oo), z: [0, oo)"),
    ("log_1_plus_x", "log(1+x) <= x", "x: (-1, oo)"),
    ("exp_tangent", "exp(x) >= 1 + x", "x: real"),
    ("young", "a*b <= a^p/p + b^(p/(p-1))/(p/(p-1))", "a: [0, oo), b: [0, oo), p: [1.1, 10]"),
    ("c_p_bounds", f"1 <= {C_P} and {C_P} <= 2", "p: (0, 2]"),
    ("gelu_derivative", "diff(x*Phi(x), x) <= 1.13 and diff(x*Phi(x), x) >= -1.13", "x: real"),
    ("gelu_below_identity", "Abs(x*Phi(x)) <= Abs(x)", "x: real"),
    ("singular_boundary_xlogx", "x*log(x) >= -exp(-1)", "x: (0, 1]"),
    ("singular_boundary_log", "log(x) <= x - 1", "x: (0, oo)"),
    # the jumps of floor and ceiling at the integers are split points of [-4, 4] (dyadic bisection)
    ("max_min_floor", "Max(x, 1) - Min(x, 1) >= 0 and ceiling(x) - floor(x) <= 1", "x: [-4, 4]"),
    ("integers", "2^N >= N + 1", "N: integer >= 0"),
]


@pytest.mark.parametrize(("name", "statement", "domain"), TRUE_SUITE, ids=[t[0] for t in TRUE_SUITE])
def test_true_statement_is_proved_with_a_certificate_the_checker_accepts(name, statement, domain):
    result = prove(statement, domain, budget_seconds=30)
    assert result.status == PROVED, result.to_json(with_certificate=False)
    for part in result.parts:
        assert part.certificate is not None
        report = check_certificate(part.certificate.to_json())
        assert report.accepted, report.reason


def test_a_statement_undefined_inside_its_domain_is_never_proved():
    # 1/x^2 >= 1 holds wherever it is defined on [-1, 1], but x = 0 is a point of the domain
    result = prove("1/x^2 >= 1", "x: [-1, 1]", budget_seconds=1, max_boxes=300)
    assert result.status == "undecided"
    # -1/x >= 0 is false on (0, 1]: the singular point 0 must not let a derivative rule skip it
    assert prove("-1/x >= 0", "x: [-1, 1]", budget_seconds=5).status == "refuted"


def test_a_singular_point_on_a_closed_end_is_not_treated_as_a_limit():
    # x log x is undefined at x = 0, which [0, 1] contains: undecided, while (0, 1] is proved above
    result = prove("x*log(x) >= -exp(-1)", "x: [0, 1]", budget_seconds=1, max_boxes=200)
    assert result.status == "undecided"
    assert result.parts[0].remaining, "the undecided boxes are reported"
