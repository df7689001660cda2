"""The search's ``squares`` step on the typed tree, which writes a/sqrt(C) as a * (C^(1/2))^(-1): the
power is read as C^(-1/2) behind a ``rewrite`` step the kernel checks, so bounds approached only at
infinity are proved on the typed tree itself (the certificate names it), within a small budget.

References: mpmath at 50 digits (3u/sqrt(1 + u^2) < 3 on a grid up to u = 10^12, approaching 3, and
above 2.999 at the near miss's witness) and the hand-written typed tree of 1/sqrt(1 + u^2).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

import mpmath

from theory.prover import check_certificate
from theory.prover.domain import parse_domain
from theory.prover.kernel import exact
from theory.prover.rewrites import inverted_roots
from theory.prover.search import search
from theory.prover.statement import parse_statement

BUDGET = 2.0
TRUE = [
    ("3*u/sqrt(1+u^2) <= 3", "u: real", lambda u: 3 - 3 * u / mpmath.sqrt(1 + u**2)),
    ("2*u/sqrt(4+u^2) <= 2", "u: real", lambda u: 2 - 2 * u / mpmath.sqrt(4 + u**2)),
    ("u/sqrt(1+u^2) < 1", "u: real", lambda u: 1 - u / mpmath.sqrt(1 + u**2)),
    (
        "3*(2*(x-1))/sqrt(1+(2*(x-1))^2) <= 3",
        "x: real",
        lambda x: 3 - 6 * (x - 1) / mpmath.sqrt(1 + (2 * (x - 1)) ** 2),
    ),
]
C = ["add", ["num", "1"], ["pow", ["var", "u"], ["num", "2"]]]


def _typed(text: str, domain: str):
    statement = parse_statement(text, parse_domain(domain), symbolic=False)
    (inequality,) = statement.inequalities
    assert inequality.as_typed
    return inequality, statement.domain


def test_the_inverted_square_root_is_read_as_a_negative_half_power():
    tree = ["mul", ["var", "u"], ["pow", ["pow", C, ["num", "1/2"]], ["num", "-1"]]]
    flat, multiplier = inverted_roots(tree)
    assert flat == ["mul", ["var", "u"], ["pow", C, ["num", "-1/2"]]]
    assert multiplier == ["pow", ["pow", C, ["num", "1/2"]], ["num", "1"]]
    # (tree - flat) * sqrt(C) vanishes exactly, as the kernel's rewrite step requires
    difference = ["add", tree, ["mul", ["num", "-1"], flat]]
    assert exact.normal_form_times(difference, multiplier, {}) == {}
    assert inverted_roots(["pow", C, ["num", "-1/2"]]) is None  # already a negative half power
    assert inverted_roots(["pow", ["pow", C, ["num", "2"]], ["num", "-1"]]) is None  # no root


@pytest.mark.parametrize(("text", "domain", "gap"), TRUE)
def test_bounds_reached_only_at_infinity_are_proved_on_the_typed_tree(text, domain, gap):
    with mpmath.workdps(50):  # the reference: the gap stays > 0 while it approaches 0
        values = [gap(mpmath.mpf(sign) * mpmath.mpf(10) ** k) for k in range(-3, 13) for sign in (1, -1)]
        assert min(values) > 0 and min(values) < mpmath.mpf(10) ** -20
    inequality, parsed = _typed(text, domain)
    result = search(inequality, parsed, BUDGET, 20000, solver=None)
    assert result.status == "proved", result.reason
    certificate = result.certificate.to_json()
    assert certificate["gap"] == inequality.typed  # the typed tree, not sympy's reading
    assert check_certificate(certificate).accepted


def test_the_near_miss_is_refuted_at_a_point_mpmath_confirms():
    inequality, parsed = _typed("3*u/sqrt(1+u^2) <= 2.999", "u: real")
    result = search(inequality, parsed, 5 * BUDGET, 20000, solver=None)  # undecided in 2 CPU s at load 13
    assert result.status == "refuted"
    point = Fraction(result.witness.to_json()["point"]["u"])
    with mpmath.workdps(50):
        u = mpmath.mpf(point.numerator) / point.denominator
        assert 3 * u / mpmath.sqrt(1 + u**2) > mpmath.mpf("2.999")
