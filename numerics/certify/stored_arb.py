"""A stored bound formula (:mod:`numerics.formulas.generated`) evaluated over arb balls, without sympy.

The stored source is the Python that sympy's lambdify (mpmath printer) wrote for theory's formula, so it
is the formula's expression tree with mpmath leaves. Here every numeric literal of that source is replaced
by the exact ball ``arb(n)`` (the printer writes integers as literals and rationals as
``mpf(p)/mpf(q)``), and the mpmath names it reads are bound to arb's: ``mpf`` keeps the exact ball of
its rewritten integer literal, ``sqrt``/``log``/``exp``/``ceil``/``floor`` are the ball's methods. Every
operation then acts on balls, and arb's operations are inclusion-isotone (Johansson 2017, provenance
``standard``): the result contains the formula's exact value at every point of the argument balls, as
the sympy-printed arb code of :mod:`numerics.certify.arb_printer` does for the same expression. A literal
that is not an integer, or a name outside the table, is refused (CertificationFailed): it could be a
rounded constant.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from typing import Any

from numerics.certify.balls import arb_type
from numerics.formulas.evaluate import CompiledFormula
from theory.errors import CertificationFailed


def _arb_names() -> dict[str, Any]:
    """The arb meaning of every mpmath name the stored sources may read."""
    arb = arb_type()

    def exact(value: object) -> Any:
        # the literal inside mpf(n) is already the ball arb(n); anything else (a decimal string) is refused
        if not isinstance(value, arb) or not value.is_exact():
            raise CertificationFailed(f"mpf({value!r}) in a stored formula is not an exact integer ball")
        return value

    return {
        "arb": arb,
        "mpf": exact,
        "sqrt": lambda x: x.sqrt(),
        "log": lambda x: x.log(),
        "exp": lambda x: x.exp(),
        "ceil": lambda x: x.ceil(),
        "floor": lambda x: x.floor(),
    }


class _ExactLiterals(ast.NodeTransformer):
    """Rewrites every integer literal ``n`` into ``arb(n)``; refuses any other numeric literal."""

    def __init__(self, name: str) -> None:
        self.name = name

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, bool) or not isinstance(node.value, int | float | complex):
            return node
        if not isinstance(node.value, int):
            raise CertificationFailed(
                f"stored formula {self.name!r} has the literal {node.value!r}, not an exact integer; "
                "regenerate it with python -m numerics.formulas.codegen"
            )
        call = ast.Call(ast.Name("arb", ast.Load()), [node], [])
        return ast.copy_location(call, node)


@functools.cache
def stored_arb_function(formula: CompiledFormula) -> Callable[..., Any]:
    """``formula.source`` as a function of arb balls over ``formula.arg_names`` (cached per formula)."""
    names = _arb_names()
    unknown = sorted(set(formula.globals_) - set(names))
    if unknown:
        raise CertificationFailed(
            f"stored formula {formula.name!r} reads {unknown}, which have no ball meaning here"
        )
    tree = ast.fix_missing_locations(_ExactLiterals(formula.name).visit(ast.parse(formula.source)))
    namespace: dict[str, Any] = dict(names)
    exec(compile(tree, f"<stored formula {formula.key}>", "exec"), namespace)  # numerics.formulas.codegen's
    return namespace["_lambdifygenerated"]
