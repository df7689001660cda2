"""The symbolic derivative of a tree, computed by the kernel itself (never read from a certificate).

``derivative(tree, name)`` is the tree of d tree / d name by the sum, product and chain rules and the
derivatives of the language's smooth functions: (b^e)' = e b^(e-1) b' for e free of ``name``, else
b^e (e' log b + e b' b^(-1)); exp' = exp, log' u = u' u^(-1), erf' u = 2 pi^(-1/2) exp(-u^2) u',
erfc' = -erf', atan' u = u' (1 + u^2)^(-1), tanh' u = u' (1 - tanh(u)^2). Wherever the derivative tree is
defined (the kernel encloses it without :class:`~theory.prover.kernel.balls.Undefined`: every base of a
fractional or negative power and of log is then > 0, or >= 0 where the power's exponent is >= 1), the
tree is differentiable in ``name`` with that derivative. Abs, Max, Min, floor, ceiling and Piecewise
depending on ``name`` have no derivative here (:class:`~theory.prover.kernel.trees.Discontinuous`).
Provenance: derived (the rules of differentiation).
"""

from __future__ import annotations

from typing import Any

from theory.prover.kernel.trees import Discontinuous, mentions

ZERO, ONE, MINUS_ONE = ["num", "0"], ["num", "1"], ["num", "-1"]


def derivative(tree: Any, name: str) -> Any:
    """The tree of d tree / d name (see the module docstring)."""
    if not mentions(tree, name):
        return ZERO
    op, args = tree[0], tree[1:]
    if op == "var":
        return ONE
    if op == "add":
        return ["add", *(derivative(arg, name) for arg in args)]
    if op == "mul":
        return [
            "add",
            *(["mul", *args[:i], derivative(args[i], name), *args[i + 1 :]] for i in range(len(args))),
        ]
    if op == "pow":
        base, exponent = args
        if not mentions(exponent, name):
            return ["mul", exponent, ["pow", base, ["add", exponent, MINUS_ONE]], derivative(base, name)]
        return [
            "mul",
            tree,
            [
                "add",
                ["mul", derivative(exponent, name), ["log", base]],
                ["mul", exponent, derivative(base, name), ["pow", base, MINUS_ONE]],
            ],
        ]
    if len(args) != 1:
        raise Discontinuous(f"{op} of an expression in {name} has no derivative in the kernel")
    (inner,) = args
    outer = _outer(op, inner, tree)
    return ["mul", outer, derivative(inner, name)]


def _outer(op: str, inner: Any, tree: Any) -> Any:
    """f'(u) for f = op (``tree`` is f(u))."""
    if op == "exp":
        return tree
    if op == "log":
        return ["pow", inner, MINUS_ONE]
    if op in ("erf", "erfc"):
        density = ["exp", ["mul", MINUS_ONE, ["pow", inner, ["num", "2"]]]]
        return [
            "mul",
            ["num", "2" if op == "erf" else "-2"],
            ["pow", ["const", "pi"], ["num", "-1/2"]],
            density,
        ]
    if op == "atan":
        return ["pow", ["add", ONE, ["pow", inner, ["num", "2"]]], MINUS_ONE]
    if op == "tanh":
        return ["add", ONE, ["mul", MINUS_ONE, ["pow", tree, ["num", "2"]]]]
    raise Discontinuous(f"{op} of an expression in the variable has no derivative in the kernel")
