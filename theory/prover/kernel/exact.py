"""An exact normal form of a tree: a polynomial with rational coefficients in atoms and prime radicals.

``normal_form(tree, fixed)`` rewrites the tree, with the variables of ``fixed`` replaced by their exact
rational values, by the identities of a commutative ring: sums and products are expanded, integer powers
multiplied out, and a power r^q of positive rationals written as a rational times prime radicals
p^f (0 < f < 1), which multiply by adding exponents. Every other subtree is an *atom*, compared as data.
Terms that cancel then vanish exactly: t^2 - t^2 is 0 and 4 * 4^(-1/4) * 2^(-1/2) is 2, which no ball
enclosure shows. The result is a tree again (``as_tree``), equal to the input wherever the input is
defined (the caller encloses the input too, so nothing undefined is ever accepted through it). None when
the form would exceed MAX_TERMS terms. Provenance: derived (ring identities; unique factorization).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

MAX_TERMS = 400
MAX_EXPONENT = 64
MAX_FACTOR = 10**6
"""Largest prime factor trial division looks for in a radical's base (larger bases stay atoms)."""

Monomial = tuple[tuple[tuple[str, int], ...], tuple[tuple[int, Fraction], ...]]
"""(atoms with their exponents, primes with their radical exponents in (0, 1))."""
Polynomial = dict[Monomial, Fraction]
ONE: Monomial = ((), ())


class _TooLarge(Exception):
    pass


def _constant(value: Fraction) -> Polynomial:
    return {ONE: value} if value else {}


def _add(a: Polynomial, b: Polynomial) -> Polynomial:
    result = dict(a)
    for monomial, coefficient in b.items():
        total = result.get(monomial, Fraction(0)) + coefficient
        if total:
            result[monomial] = total
        else:
            result.pop(monomial, None)
    if len(result) > MAX_TERMS:
        raise _TooLarge
    return result


def _times_monomials(m: Monomial, n: Monomial) -> tuple[Fraction, Monomial]:
    atoms = dict(m[0])
    for atom, exponent in n[0]:
        atoms[atom] = atoms.get(atom, 0) + exponent
    radicals = dict(m[1])
    for prime, fraction in n[1]:
        radicals[prime] = radicals.get(prime, Fraction(0)) + fraction
    coefficient = Fraction(1)
    for prime in list(radicals):
        whole = radicals[prime].numerator // radicals[prime].denominator
        coefficient *= Fraction(prime) ** whole
        radicals[prime] -= whole
        if not radicals[prime]:
            del radicals[prime]
    key = (tuple(sorted((a, e) for a, e in atoms.items() if e)), tuple(sorted(radicals.items())))
    return coefficient, key


def _multiply(a: Polynomial, b: Polynomial) -> Polynomial:
    result: Polynomial = {}
    for m, c in a.items():
        for n, d in b.items():
            factor, key = _times_monomials(m, n)
            result = _add(result, {key: c * d * factor})
    return result


def _power(a: Polynomial, n: int) -> Polynomial:
    result = _constant(Fraction(1))
    for _ in range(n):
        result = _multiply(result, a)
    return result


def _factor(value: int) -> dict[int, int] | None:
    """The prime factorization of 1 <= value, or None when a factor exceeds MAX_FACTOR."""
    factors: dict[int, int] = {}
    prime = 2
    while value > 1 and prime <= MAX_FACTOR:
        while value % prime == 0:
            factors[prime] = factors.get(prime, 0) + 1
            value //= prime
        prime += 1 if prime == 2 else 2
    return factors if value == 1 else None


def _radical(base: Fraction, exponent: Fraction) -> Polynomial | None:
    """base^exponent for rationals base > 0 as a rational times prime radicals."""
    top, bottom = _factor(base.numerator), _factor(base.denominator)
    if top is None or bottom is None:
        return None
    result = _constant(Fraction(1))
    for prime, count in [*top.items(), *((p, -c) for p, c in bottom.items())]:
        factor, key = _times_monomials(ONE, ((), ((prime, count * exponent),)))
        result = _multiply(result, {key: factor})
    return result


def normal_form(tree: Any, fixed: dict[str, Fraction]) -> Polynomial | None:
    """The polynomial of the tree (see the module docstring), or None when it is too large."""
    try:
        return _normal(tree, fixed)
    except _TooLarge:
        return None


def _atom(tree: Any, fixed: dict[str, Fraction]) -> Polynomial:
    substituted = _substitute(tree, fixed)
    key = json.dumps(substituted, separators=(",", ":"))
    return {(((key, 1),), ()): Fraction(1)}


def _substitute(tree: Any, fixed: dict[str, Fraction]) -> Any:
    if tree[0] == "var" and tree[1] in fixed:
        return ["num", str(fixed[tree[1]])]
    return [tree[0], *(_substitute(a, fixed) if isinstance(a, list) else a for a in tree[1:])]


def _normal(tree: Any, fixed: dict[str, Fraction]) -> Polynomial:
    op, args = tree[0], tree[1:]
    if op == "num":
        return _constant(Fraction(args[0]))
    if op == "var" and args[0] in fixed:
        return _constant(fixed[args[0]])
    if op in ("add", "mul"):
        parts = [_normal(arg, fixed) for arg in args]
        result = parts[0]
        for part in parts[1:]:
            result = _add(result, part) if op == "add" else _multiply(result, part)
        return result
    if op == "pow":
        exponent = normal_form(args[1], fixed)
        if exponent is not None and all(m == ONE for m in exponent):
            power = exponent.get(ONE, Fraction(0))
            base = _normal(args[0], fixed)
            if power.denominator == 1 and 0 <= power <= MAX_EXPONENT:
                return _power(base, int(power))
            if set(base) <= {ONE} and base.get(ONE, Fraction(0)) > 0 and abs(power.numerator) <= MAX_EXPONENT:
                radical = _radical(base[ONE], power)
                if radical is not None:
                    return radical
    return _atom(tree, fixed)


def as_tree(form: Polynomial) -> list[Any]:
    """The tree of a normal form."""
    terms: list[Any] = []
    for (atoms, radicals), coefficient in sorted(form.items(), key=lambda item: repr(item[0])):
        factors: list[Any] = [["num", str(coefficient)]]
        for atom, exponent in atoms:
            factors.append(["pow", json.loads(atom), ["num", str(exponent)]])
        for prime, fraction in radicals:
            factors.append(["pow", ["num", str(prime)], ["num", str(fraction)]])
        terms.append(["mul", *factors])
    return ["add", *terms] if terms else ["num", "0"]
