"""A polynomial gap as the product of its irreducible factors over the rationals, each factor of odd
multiplicity of degree 2 written as a sum of squares where an exact LDL^T of its Gram matrix in (1, x_1,
..., x_n) allows (:func:`squares`): a candidate form for the kernel's ``rewrite`` step.

A polynomial that touches 0 along a curve, such as x^4 + y^4 - x^3 y - x y^3 = (x - y)^2 (x^2 + x y + y^2)
over the reals or x^3 + y^3 - x^2 y - x y^2 = (x + y) (x - y)^2 on [0, 1]^2, has no box around the curve
where its expanded enclosure or its Bernstein coefficients show a sign; its factors' enclosures do:
(x - y)^2 >= 0, (x + y/2)^2 + 3/4 y^2 >= 0, x + y >= 0 on [0, 1]^2. A polynomial that does not factor
but whose constant term c is > 0 is written P + c, P = the rest factored (a margin above such a valley).
The factorization is sympy's (``factor_list`` over the rationals, loaded only here); the kernel checks
the identity in its own exact normal form, so the search proposes and nothing of sympy is trusted.
Provenance: standard (unique factorization in Q[x1, ..., xn]; completing squares).
"""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from typing import Any

from theory.prover import ldl


def factored(tree: Any) -> Any | None:
    """The form c * f_1^m_1 * ... of the polynomial tree (a sum), each f_i of odd m_i a sum of squares
    when it has one; None when that changes nothing (one factor, no sum of squares) or sympy fails."""
    if tree[0] != "add":
        return None
    return _factored(json.dumps(tree))


@functools.lru_cache(maxsize=256)
def _factored(text: str) -> Any | None:
    import sympy as sp

    from theory.prover.language import MalformedExpression, from_tree, to_tree

    tree = json.loads(text)
    names = sorted(set(_variables(tree)))
    symbols = {name: sp.Symbol(name, real=True) for name in names}
    if not names:
        return None
    try:
        polynomial = sp.Poly(from_tree(tree, symbols), *symbols.values())
    except (MalformedExpression, sp.PolynomialError):
        return None
    if not (polynomial.domain.is_ZZ or polynomial.domain.is_QQ):
        return None
    whole = _product(polynomial, names, sp, to_tree)
    margin = polynomial.coeff_monomial(1)
    if whole is not None or margin <= 0:
        return whole
    rest = _product(polynomial - margin, names, sp, to_tree)  # a margin c > 0 kept apart: P + c
    return None if rest is None else ["add", rest, to_tree(sp.Rational(margin))]


def _product(polynomial: Any, names: list[str], sp: Any, to_tree: Any) -> Any | None:
    """The factored form of a sympy Poly (see :func:`factored`), or None when it changes nothing."""
    constant, factors = polynomial.factor_list()
    parts: list[Any] = [] if constant == 1 else [to_tree(sp.Rational(constant))]
    changed = len(factors) > 1 or any(m > 1 for _, m in factors)
    for factor, multiplicity in factors:
        written = to_tree(factor.as_expr())
        if multiplicity % 2 == 1:
            terms = factor.as_dict()
            quadratic = {key: Fraction(int(c.p), int(c.q)) for key, c in terms.items()}
            completed = squares(quadratic, names) if max(map(sum, terms)) == 2 else None
            if completed is not None:
                written, changed = completed, True
        parts.append(written if multiplicity == 1 else ["pow", written, ["num", str(multiplicity)]])
    if not changed:
        return None
    return parts[0] if len(parts) == 1 else ["mul", *parts]


def squares(coefficients: dict[tuple[int, ...], Fraction], names: list[str]) -> Any | None:
    """A polynomial of degree 2 ({exponents: coefficient}) as sum_k d_k (sum_j l_kj z_j)^2 with d_k > 0,
    z = (1, x_1, ..., x_n), by exact LDL^T of its Gram matrix Q (z^T Q z = the polynomial); None when Q
    is not positive semidefinite (a negative pivot, or a zero pivot with a nonzero column)."""

    def index(exponents: tuple[int, ...]) -> list[int]:
        return [i + 1 for i, e in enumerate(exponents) for _ in range(e)]

    places = ((index(exponents) + [0] * (2 - sum(exponents)), c) for exponents, c in coefficients.items())
    found = ldl.ldl(ldl.gram(len(names) + 1, ((i, j, c) for (i, j), c in places)))
    if found is None:
        return None
    z = [["num", "1"], *(["var", name] for name in names)]
    terms: list[Any] = []
    for k, pivot, row in found:
        linear = ["add", *(["mul", ["num", str(row[j])], z[j]] for j in range(k, len(z)) if row[j])]
        terms.append(["mul", ["num", str(pivot)], ["pow", linear, ["num", "2"]]])
    return ["add", *terms] if len(terms) > 1 else (terms[0] if terms else None)


def _variables(tree: Any) -> list[str]:
    if tree[0] == "var":
        return [tree[1]]
    return [name for arg in tree[1:] if isinstance(arg, list) for name in _variables(arg)]
