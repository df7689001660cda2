"""A Piecewise whose conditions send sympy's Piecewise.eval into endless recursion (found by the premised
cases' adversarial generator, tests/helpers/premise_cases.py, seed 48): ``prove`` refuses it with the
library's one-line error (a SpecboundError naming the Piecewise), never a RecursionError."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory.errors import SpecboundError
from theory.prover import prove

RECURSING = (
    "Piecewise((0, x/2 - 2*y + 3/4 < 2*x - 1/2),"
    " (x/2 - 2*y + 3/4 - (2*x - 1/2), x/2 - y + 3/4 <= x - y/2 - 1/2),"
    " ((x/2 - 2*y + 3/4 - (2*x - 1/2))*(x/2 - y + 3/4 - (x - y/2 - 1/2)), True)) >= 0"
)


def test_a_piecewise_sympy_cannot_build_is_refused_in_one_line() -> None:
    with pytest.raises(SpecboundError, match="sympy cannot build this Piecewise") as error:
        prove(RECURSING, "x: [-1, 1], y: [1/2, 5/2]", 0.1, 200, False)
    assert "\n" not in str(error.value)
