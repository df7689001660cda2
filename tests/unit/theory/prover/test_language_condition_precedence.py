"""A Piecewise condition reads ``&`` tighter than ``|``, as Python and sympy do.

The reference is Python's own ``and``/``or`` written in the test, evaluated at the 8 sign patterns of
three comparisons; the parsed condition is evaluated by sympy (the symbolic back end) and its typed tree's
shape (what the kernel reads) is checked to join the same way.
"""

import itertools

import pytest
import sympy as sp

from theory.prover.language import parse_typed_expression

X, Y, Z = sp.symbols("x y z")
SYMBOLS = {"x": X, "y": Y, "z": Z}

CASES = [
    ("x < 0 & y < 0 | z < 0", lambda a, b, c: (a and b) or c, "or"),
    ("x < 0 | y < 0 & z < 0", lambda a, b, c: a or (b and c), "or"),
    ("x < 0 & y < 0 & z < 0 | x < 0", lambda a, b, c: (a and b and c) or a, "or"),
    ("x < 0 | y < 0 | z < 0 & x < 0", lambda a, b, c: a or b or (c and a), "or"),
    ("x < 0 & y < 0 & z < 0", lambda a, b, c: a and b and c, "and"),
]


@pytest.mark.parametrize(("condition", "reference", "top"), CASES)
def test_and_binds_tighter_than_or(condition, reference, top):
    parsed = parse_typed_expression(f"Piecewise((1, {condition}), (0, True))", SYMBOLS)
    assert parsed.typed[0] == "piecewise"
    assert parsed.typed[1][1][0] == top
    for signs in itertools.product((-1, 1), repeat=3):
        point = dict(zip((X, Y, Z), signs, strict=True))
        expected = 1 if reference(*(sign < 0 for sign in signs)) else 0
        assert parsed.expr.subs(point) == expected, (condition, signs)
