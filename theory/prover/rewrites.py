"""Candidate rewrites of a gap for the kernel's ``rewrite`` step: forms equal to the gap in exact normal
form (:mod:`theory.prover.kernel.exact`) whose enclosures show a sign the gap's own enclosure hides.

- :func:`common_factor`: the monomial common to every term factored out, g = m * (g / m) (a positive
  atom such as exp(-x^2/2) then no longer multiplies terms of both signs);
- :func:`together`: over a common denominator, g = n * C^(-1) with n the normal form of g * C, for C
  the base of a compound atom with exponent -1 (the kernel checks (g - form) * C = 0 with C != 0);
- :func:`cleared`: the gap times m = B^k / c > 0, for B^(-k) the lowest power of a compound atom B
  and c the monomial common to every term, expanded (for the kernel's ``scale`` step): a derivative
  A P (2 (p + 2)^(-2) log 2 - (p + 2)^(-1) log p + p (p + 2)^(-2) log p) becomes 2 log 2 - 2 log p,
  whose enclosure has no p log p left to lose its sign to;
- :func:`constant_sides`: a gap T - c or c - T with c a positive number, as the sides (T, c) or (c, T)
  (for the kernel's ``log`` step, which decides log T - log c with the logarithm of a product expanded);
- :func:`root_sides`: g = A - B with A the terms under a fractional power of positive coefficient, or
  with B those of negative coefficient, or A every term of positive coefficient (a margin) (for the
  kernel's ``squares`` step, which decides A^2 - B^2 when A, B >= 0);
- :func:`inverted_roots`: a power (B^q)^(-n), q not an integer and n natural, written B^(-q n) (the
  typed tree's 1/sqrt(C), (C^(1/2))^(-1), as C^(-1/2), which the exact normal form keeps apart: the
  compound atom (C^(1/2)) to the power -1), with the multiplier (B^q)^n under which the kernel's
  ``rewrite`` step checks the identity (((C^(1/2))^(-1) - C^(-1/2)) C^(1/2) = 1 - 1 = 0), so that
  :func:`root_sides` sees the square root;
- :func:`horner`: a sum of powers of one variable in Horner's form (on a box reaching infinity the
  search writes the sides of ``squares`` and the multiplier of ``scale`` so), whose enclosure there
  keeps a sign the expanded sum's loses (and which loses u * u >= 0 on a range around 0);
- :func:`sum_of_squares`: a quadratic form in half-monomials h (the monomials whose squares are terms
  with positive coefficients) written as sum_i d_i (h_i + sum_j l_ij h_j)^2 by exact LDL^T
  decomposition of its Gram matrix, when every d_i >= 0 (x + y - 2 sqrt(x) sqrt(y) = (sqrt(x) -
  sqrt(y))^2); a term that pairs with no other and is >= 0 by its exponents (even, or not integers) is
  kept as it is (c sqrt(x + y), not c ((x + y)^(1/4))^2, a root Coq's Interval does not evaluate at 0).

The search proposes; the kernel re-derives the identity itself. Provenance: derived (algebra).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

from theory.prover import ldl
from theory.prover.kernel import exact
from theory.prover.kernel.nodes import rebuilt

Polynomial = exact.Polynomial
MAX_SQUARED = 6
Exponents = dict[str, Fraction]


def _monomial_tree(exponents: Exponents) -> Any:
    return exact.as_tree({(tuple(sorted(exponents.items())), ()): Fraction(1)})


def common_monomial(form: Polynomial) -> tuple[Any, Polynomial] | None:
    """(m, form / m) for the largest monomial m (as a tree) dividing every term (None when m is 1)."""
    terms = list(form.items())
    if not terms:
        return None
    common = dict(terms[0][0][0])
    for (atoms, _), _ in terms[1:]:
        present = dict(atoms)
        common = {a: min(e, present[a]) for a, e in common.items() if a in present}
    common = {a: e for a, e in common.items() if e}
    if not common:
        return None
    rest: Polynomial = {}
    for (atoms, radicals), coefficient in terms:
        left = tuple(sorted((a, e - common.get(a, Fraction(0))) for a, e in atoms))
        rest[(tuple((a, e) for a, e in left if e), radicals)] = coefficient
    return _monomial_tree(common), rest


def common_factor(form: Polynomial) -> Any | None:
    """m * (form / m) for the largest monomial m dividing every term (None when m is 1)."""
    split = common_monomial(form) if len(form) >= 2 else None
    if split is None:
        return None
    return ["mul", split[0], exact.as_tree(split[1])]


def sum_of_squares(form: Polynomial) -> Any | None:
    """The form as sum_i d_i L_i^2 with d_i >= 0 (see the module docstring), or None."""
    if any(radicals for (_, radicals) in form):
        return None
    halves = [{a: e / 2 for a, e in atoms} for (atoms, _), c in form.items() if c > 0]
    size = len(halves)
    if not 2 <= size <= 8:
        return None
    places = [(_pair(dict(atoms), halves), coefficient) for (atoms, _), coefficient in form.items()]
    if any(pair is None for pair, _ in places):
        return None
    found = ldl.ldl(ldl.gram(size, ((*pair, c) for pair, c in places if pair is not None)))
    if found is None:
        return None
    squares: list[Any] = []
    for i, pivot, row in found:
        whole = _times(halves[i], halves[i])
        paired = any(row[i + 1 :]) or any(other[i] for k, _, other in found if k < i)
        if not paired and _signless(whole):
            squares.append(["mul", ["num", str(pivot)], _monomial_tree(whole)])
            continue
        linear = ["add", _monomial_tree(halves[i])]
        others = range(i + 1, size)
        linear += [["mul", ["num", str(row[j])], _monomial_tree(halves[j])] for j in others if row[j]]
        squares.append(["mul", ["num", str(pivot)], ["pow", linear, ["num", "2"]]])
    return ["add", *squares] if squares else None


def _signless(exponents: Exponents) -> bool:
    """Every exponent is even or not an integer: the monomial is >= 0 wherever it is defined, and its
    enclosure shows it (a power with a fractional exponent has a base >= 0 and a value >= 0)."""
    return all(e.denominator != 1 or e.numerator % 2 == 0 for e in exponents.values())


def _pair(atoms: Exponents, halves: list[Exponents]) -> tuple[int, int] | None:
    """(i, j) with halves[i] * halves[j] the monomial ``atoms`` (i = j preferred)."""
    for i, h in enumerate(halves):
        if _times(h, h) == atoms:
            return i, i
    for i, h in enumerate(halves):
        for j in range(i + 1, len(halves)):
            if _times(h, halves[j]) == atoms:
                return i, j
    return None


def _times(a: Exponents, b: Exponents) -> Exponents:
    result = dict(a)
    for atom, e in b.items():
        result[atom] = result.get(atom, Fraction(0)) + e
    return {atom: e for atom, e in result.items() if e}


def together(tree: Any, form: Polynomial, fixed: dict[str, Fraction]) -> tuple[Any, Any] | None:
    """(n * C^(-1), C) for the first compound atom C^(-1) of the form (see the module docstring)."""
    for (atoms, _), _ in form.items():
        for atom, exponent in atoms:
            base = json.loads(atom)
            if exponent == -1 and base[0] == exact.COMPOUND:
                numerator = exact.normal_form_times(tree, base, fixed)
                if numerator is None:
                    return None
                return ["mul", exact.as_tree(numerator), ["pow", base, ["num", "-1"]]], base
    return None


def _univariate(tree: Any) -> tuple[str, dict[int, Fraction]] | None:
    """(x, {k: c}) when the tree is a sum of terms c * x^k (k natural, one variable x), else None."""
    if tree[0] != "add":
        return None
    name: str | None = None
    coefficients: dict[int, Fraction] = {}
    for term in tree[1:]:
        factors = term[1:] if term[0] == "mul" else [term]
        coefficient, degree = Fraction(1), 0
        for factor in factors:
            if factor[0] == "num":
                coefficient *= Fraction(factor[1])
            elif factor[0] == "pow" and factor[1][0] == "var" and factor[2][0] == "num":
                exponent = Fraction(factor[2][1])
                if exponent.denominator != 1 or exponent < 0 or name not in (None, factor[1][1]):
                    return None
                name, degree = factor[1][1], degree + int(exponent)
            elif factor[0] == "var" and name in (None, factor[1]):
                name, degree = factor[1], degree + 1
            else:
                return None
        coefficients[degree] = coefficients.get(degree, Fraction(0)) + coefficient
    return None if name is None else (name, coefficients)


def horner(tree: Any) -> Any:
    """The tree with every sum of powers of one variable written in Horner's form, 4 x^2 - 8 x + 5 as
    5 + x (-8 + x 4): the same polynomial (the kernel's normal form sees no difference), but its ball
    enclosure on [16, oo) is [901, oo], where the expanded sum's is (-oo, oo)."""
    found = _univariate(tree)
    if found is None or max(found[1]) < 2:
        return rebuilt(tree, horner)
    name, coefficients = found
    result: Any = ["num", str(coefficients.get(max(coefficients), 0))]
    for degree in range(max(coefficients) - 1, -1, -1):
        result = ["add", ["num", str(coefficients.get(degree, Fraction(0)))], ["mul", ["var", name], result]]
    return result


def inverted_roots(tree: Any) -> tuple[Any, Any] | None:
    """(tree', m): the tree with every (B^q)^(-n) (q a rational that is not an integer, n a natural
    number) written B^(-q n), the base B kept as it is written (so 1 + (2 (x - 1))^2 keeps an enclosure
    >= 1 on a box reaching infinity, where its expansion's is unbounded), and m the product of the
    (B^q)^k, k the largest such n for each B^q; None when the tree has no such power.
    (B^q)^(-n) = B^(-q n) wherever the left side is defined (B^q != 0 there, so B > 0)."""
    largest: dict[str, int] = {}

    def flat(node: Any) -> Any:
        if node[0] == "pow" and node[1][0] == "pow" and node[2][0] == "num" and node[1][2][0] == "num":
            inner, outer = Fraction(node[1][2][1]), Fraction(node[2][1])
            if inner.denominator != 1 and outer.denominator == 1 and outer < 0:
                key = json.dumps(node[1])
                largest[key] = max(largest.get(key, 0), int(-outer))
                return ["pow", flat(node[1][1]), ["num", str(inner * outer)]]
        return rebuilt(node, flat)

    flattened = flat(tree)
    if not largest:
        return None
    factors = [["pow", json.loads(key), ["num", str(k)]] for key, k in largest.items()]
    return flattened, factors[0] if len(factors) == 1 else ["mul", *factors]


def _rooted(monomial: Any) -> bool:
    """The monomial has an atom under a fractional power."""
    return any(e.denominator != 1 for _, e in monomial[0])


ALGEBRAIC = frozenset({"add", "mul", "pow", "num", "var"})


def _algebraic(form: Polynomial) -> bool:
    """Every atom of the form is built from variables and numbers by sums, products and powers."""
    return all(set(re.findall(r'\["(\w+)"', atom)) <= ALGEBRAIC for (atoms, _) in form for atom, _ in atoms)


def root_sides(form: Polynomial, unbounded: bool = False) -> list[tuple[Any, Any]]:
    """Candidates (A, B) with form = A - B: A the terms with a positive coefficient and a fractional
    exponent, B the negated others. On a box reaching infinity (``unbounded``), also B the negated terms
    with a fractional exponent and A the others (3 - 3 u (1 + u^2)^(-1/2), whose square difference
    9 (1 + u^2)^(-1) keeps its sign up to u = oo), each side written with its common monomial factored
    out (6 (x - 1) C^(-1/2), not 6 x C^(-1/2) - 6 C^(-1/2), so its enclosure shows a sign there). Last,
    when it differs and both sides hold a root, A every term of positive coefficient and B the negated
    others: a margin c > 0 then
    stays with the roots it props up (sqrt(2 (x + y)) + c - sqrt(x) - sqrt(y), where sqrt(x) + sqrt(y) - c
    is not >= 0, squares to (sqrt(x) - sqrt(y))^2 + 2 c sqrt(2 (x + y)) + c^2). On an algebraic form
    (atoms of variables and numbers only) both splits are also tried on a bounded box where a root
    stands on one side alone: 1/2 - x sqrt(1 - x^2) as A = 1/2, B = x sqrt(1 - x^2) (where B >= 0, the
    box x in [0, 1]: A^2 - B^2 = (x^2 - 1/2)^2 touches 0 at the irrational 1/sqrt(2)), and
    x sqrt(1 - x^2) + 1/2 as A = 1/2, B = -x sqrt(1 - x^2). None when a side is empty, or for more than
    MAX_SQUARED terms: the square of a long form is expanded term by term."""
    if len(form) > MAX_SQUARED:
        return []
    lefts = [{monomial: c for monomial, c in form.items() if c > 0 and _rooted(monomial)}]
    positive = {monomial: c for monomial, c in form.items() if c > 0}
    negative = [monomial for monomial in form if monomial not in positive]
    below, algebraic = any(map(_rooted, negative)), _algebraic(form)
    if unbounded or (algebraic and not below):
        lefts.append({monomial: c for monomial, c in form.items() if not _rooted(monomial)})
    if below and (algebraic or any(map(_rooted, positive))):
        lefts.append(positive)

    def side(part: Polynomial) -> Any:
        return (common_factor(part) or exact.as_tree(part)) if unbounded else exact.as_tree(part)

    found: list[tuple[Any, Any]] = []
    for index, left in enumerate(lefts):
        right = {monomial: -c for monomial, c in form.items() if monomial not in left}
        if left and right and left not in lefts[:index]:
            found.append((side(left), side(right)))
    return found


def cleared(form: Polynomial) -> tuple[Any, Any] | None:
    """(f, m) with f the normal form of form * m (see the module docstring), or None when there is no
    compound atom with a negative exponent and no common monomial."""
    compound: dict[str, Fraction] = {}
    for (atoms, _), _ in form.items():
        for atom, exponent in atoms:
            if exponent < 0 and exponent.denominator == 1 and json.loads(atom)[0] == exact.COMPOUND:
                compound[atom] = min(compound.get(atom, Fraction(0)), exponent)
    terms = list(form)
    common = dict(terms[0][0]) if terms else {}
    for atoms, _ in terms[1:]:
        present = dict(atoms)
        common = {a: min(e, present[a]) for a, e in common.items() if a in present}
    factors = [["pow", json.loads(a), ["num", str(-e)]] for a, e in common.items() if e and a not in compound]
    if compound:
        atom, lowest = min(compound.items(), key=lambda item: item[1])
        factors.append(["pow", json.loads(atom), ["num", str(-lowest)]])
    if not factors:
        return None
    multiplier = ["mul", *factors]
    scaled = exact.normal_form_times(exact.as_tree(form), multiplier, {})
    return None if scaled is None else (exact.as_tree(scaled), multiplier)


def constant_sides(tree: Any) -> tuple[Any, Any] | None:
    """(T, c) for the tree T + (-c), (c, T) for c + (-1) T, c > 0 a number; else None."""
    if not (tree[0] == "add" and len(tree) == 3):
        return None
    numbers = [child for child in tree[1:] if child[0] == "num"]
    if len(numbers) != 1:
        return None
    (number,) = numbers
    other = tree[2] if tree[1] is number else tree[1]
    value = Fraction(number[1])
    if value < 0:
        return other, ["num", str(-value)]
    if value > 0 and other[0] == "mul" and other[1] == ["num", "-1"]:
        rest = other[2:]
        return ["num", str(value)], rest[0] if len(rest) == 1 else ["mul", *rest]
    return None
