"""An exact normal form of a tree: a polynomial with rational coefficients in atoms and prime radicals.

``normal_form(tree, fixed)`` rewrites the tree, with the variables of ``fixed`` replaced by their exact
rational values, by identities that hold wherever the tree is defined:

- the commutative ring: sums and products are expanded, integer powers 0..MAX_EXPONENT multiplied out;
- a power r^q of positive rationals is a rational times prime radicals p^f (0 < f < 1), which multiply
  by adding exponents (unique factorization);
- a power B^q with a constant rational q is the atom B with exponent q when B is one atom, else the
  *compound atom* (B) with exponent q; exponents of one atom add, B^a B^b = B^(a+b) (valid wherever both
  are defined: a fractional power is defined only for B >= 0, a negative one only for B != 0), and a
  compound atom whose exponent becomes an integer n >= 1 is expanded again as B^n;
- max(a, b) = (a + b + |a - b|) / 2 and min(a, b) = (a + b - |a - b|) / 2;
- only for the variables ``positive`` (the caller proves them > 0 on its box), and subtrees positive by
  syntax (:func:`positive_tree`: positive numbers and constants, those variables, exp, sums, products,
  powers, max and min of positive trees, ceiling of a positive tree): a power P^E of a positive monomial P
  is distributed over its factors, (c a^e)^E = c^E a^(e E), for a rational E and for a symbolic one, whose
  constant part splits off (a^(E + r) = a^E a^r) and whose rest is written k E1 with E1 of leading
  coefficient 1, the atom a^E1 with exponent k (so a^(-2/p) a^(2/p) = 1 and b^(-2/p - 1) = b^(-1)
  b^(-2/p)); a rational c > 0 under a symbolic power is split into primes; log of a positive monomial is
  log c + sum e log a (log c over the primes of c, log exp(t) = t);
- the log of a positive rational c is written over its primes, log c = sum n_p log p (log 4 = 2 log 2,
  log 1 = 0), for every caller.

Every other subtree is an *atom*, compared as data after its arguments are put in normal form (so
(0 + s)^p and s^p are the same atom). Terms that cancel then vanish exactly: t^2 - t^2 is 0,
(sqrt(a))^2 - a is 0 and 4 * 4^(-1/4) * 2^(-1/2) is 2, which no ball enclosure shows. The result is a
tree again (``as_tree``), equal to the input wherever the input is defined (the caller encloses the
input too, so nothing undefined is ever accepted through it). None when the form would exceed MAX_TERMS
terms. Provenance: derived (ring identities; laws of exponents for nonnegative bases, and for
positive bases with real exponents; log of a product of positive numbers; unique factorization).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from theory.prover.kernel.nodes import rebuilt

MAX_TERMS = 400
MAX_EXPONENT = 64
MAX_FACTOR = 10**6
MAX_LOGGED = 2**64
"""Largest numerator or denominator of a rational whose log is written over its primes."""
"""Largest prime factor trial division looks for in a radical's base (larger bases stay atoms)."""

Monomial = tuple[tuple[tuple[str, Fraction], ...], tuple[tuple[int, Fraction], ...]]
"""(atoms with their exponents, primes with their radical exponents in (0, 1))."""
Polynomial = dict[Monomial, Fraction]
ONE: Monomial = ((), ())
COMPOUND = "add"
"""The op of a compound atom's tree (an atom of any other kind is never a sum)."""
CANONICAL_ARGUMENTS = frozenset(
    ("exp", "log", "erf", "erfc", "atan", "tanh", "abs", "floor", "ceiling", "pow")
)
"""Atoms whose arguments are trees, compared in normal form."""


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


def _times_monomials(m: Monomial, n: Monomial) -> Polynomial:
    """m * n: exponents of one atom or prime added, whole powers of primes into the coefficient, and a
    compound atom with a positive integer exponent expanded."""
    atoms: dict[str, Fraction] = dict(m[0])
    for atom, exponent in n[0]:
        atoms[atom] = atoms.get(atom, Fraction(0)) + exponent
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
    expanded = [
        (atom, int(e))
        for atom, e in atoms.items()
        if e.denominator == 1 and 1 <= e <= MAX_EXPONENT and json.loads(atom)[0] == COMPOUND
    ]
    key = (
        tuple(sorted((a, Fraction(e)) for a, e in atoms.items() if e and a not in dict(expanded))),
        tuple(sorted(radicals.items())),
    )
    result: Polynomial = {key: coefficient}
    for atom, count in expanded:
        result = _multiply(result, _power(_normal(json.loads(atom), {}, frozenset()), count))
    return result


def _multiply(a: Polynomial, b: Polynomial) -> Polynomial:
    result: Polynomial = {}
    for m, c in a.items():
        for n, d in b.items():
            product = _times_monomials(m, n)
            result = _add(result, {key: c * d * value for key, value in product.items()})
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
        result = _multiply(result, _times_monomials(ONE, ((), ((prime, count * exponent),))))
    return result


def normal_form(
    tree: Any, fixed: dict[str, Fraction], positive: frozenset[str] = frozenset()
) -> Polynomial | None:
    """The polynomial of the tree (see the module docstring; ``positive`` the variables the caller proves
    > 0), or None when it is too large."""
    try:
        return _canonical(_normal(tree, fixed, positive), positive)
    except _TooLarge:
        return None


def vanishes(tree: Any, fixed: dict[str, Fraction], positive: frozenset[str] = frozenset()) -> bool:
    """The tree is 0 wherever it is defined: its normal form is 0, or the numerator of that form over a
    common denominator of compound atoms is (the denominators are nonzero wherever they are defined)."""
    form = normal_form(tree, fixed, positive)
    if form is None:
        return False
    try:
        return form == {} or _canonical(_over_common_denominator(form, numerator=True), positive) == {}
    except _TooLarge:
        return False


def normal_form_times(tree: Any, multiplier: Any, fixed: dict[str, Fraction]) -> Polynomial | None:
    """The normal form of tree * multiplier with the multiplier's compound factors kept as atoms until
    every product is formed: a factor B whose normal form is a compound becomes the atom (B)^1, and a
    factor B^n (n a positive integer, B compound) the atom (B)^n, so (B)^(-2) (B)^2 = 1 cancels first and
    what is left of (B)^n is then expanded; or None when it is too large."""
    try:
        result = _normal(tree, fixed, frozenset())
        for factor in multiplier[1:] if multiplier[0] == "mul" else [multiplier]:
            result = _multiply(result, _kept(factor, fixed))
        return result
    except _TooLarge:
        return None


def _kept(factor: Any, fixed: dict[str, Fraction]) -> Polynomial:
    """One factor of a multiplier: (B)^n as an atom for a compound B, else its normal form."""
    base, count = factor, Fraction(1)
    if factor[0] == "pow" and factor[2][0] == "num" and Fraction(factor[2][1]) in range(1, MAX_EXPONENT + 1):
        base, count = factor[1], Fraction(factor[2][1])
    form = _normal(base, fixed, frozenset())
    if set(form) <= {ONE} or _single_atom(form) is not None:
        return _normal(factor, fixed, frozenset())
    return {(((_key(as_tree(form)), count),), ()): Fraction(1)}


def _single_atom(base: Polynomial) -> str | None:
    """The atom when the polynomial is exactly one atom (coefficient 1, exponent 1), else None."""
    if len(base) != 1:
        return None
    ((monomial, coefficient),) = base.items()
    if coefficient == 1 and not monomial[1] and len(monomial[0]) == 1 and monomial[0][0][1] == 1:
        return monomial[0][0][0]
    return None


def _key(tree: Any) -> str:
    return json.dumps(tree, separators=(",", ":"))


def _atom(
    tree: Any, fixed: dict[str, Fraction], positive: frozenset[str], exponent: Fraction = Fraction(1)
) -> Polynomial:
    if tree[0] in CANONICAL_ARGUMENTS:
        tree = [tree[0], *(as_tree(_canonical(_normal(arg, fixed, positive), positive)) for arg in tree[1:])]
    else:
        tree = _substitute(tree, fixed)
    return {(((_key(tree), exponent),), ()): Fraction(1)}


def _substitute(tree: Any, fixed: dict[str, Fraction]) -> Any:
    if tree[0] == "var" and tree[1] in fixed:
        return ["num", str(fixed[tree[1]])]
    return rebuilt(tree, lambda arg: _substitute(arg, fixed))


def _rational_power(
    base: Polynomial, power: Fraction, tree: Any, fixed: dict[str, Fraction], positive: frozenset[str]
) -> Polynomial:
    """base^power for a constant rational power (see the module docstring)."""
    if power.denominator == 1 and 0 <= power <= MAX_EXPONENT:
        return _power(base, int(power))
    constant = set(base) <= {ONE}
    if constant and base.get(ONE, Fraction(0)) > 0 and abs(power.numerator) <= MAX_EXPONENT:
        radical = _radical(base[ONE], power)
        if radical is not None:
            return radical
    if constant:
        return _atom(tree, fixed, positive)
    if _positive_monomial(base, positive):
        return _monomial_power(base, _constant(power), positive)
    atom = _single_atom(base)
    return {(((_key(as_tree(base)) if atom is None else atom, power),), ()): Fraction(1)}


def _normal(tree: Any, fixed: dict[str, Fraction], positive: frozenset[str]) -> Polynomial:
    op, args = tree[0], tree[1:]
    if op == "num":
        return _constant(Fraction(args[0]))
    if op == "var" and args[0] in fixed:
        return _constant(fixed[args[0]])
    if op in ("add", "mul"):
        parts = [_normal(arg, fixed, positive) for arg in args]
        result = parts[0]
        for part in parts[1:]:
            result = _add(result, part) if op == "add" else _multiply(result, part)
        return result
    if op in ("max", "min") and args:
        sign = Fraction(1 if op == "max" else -1)
        result = _normal(args[0], fixed, positive)
        for arg in args[1:]:
            other = _normal(arg, fixed, positive)
            difference = as_tree(_add(result, {m: -c for m, c in other.items()}))
            spread = _atom(["abs", difference], {}, positive)
            result = {
                m: c / 2
                for m, c in _add(_add(result, other), {m: sign * c for m, c in spread.items()}).items()
            }
        return result
    if op == "pow":
        exponent = normal_form(args[1], fixed, positive)
        if exponent is not None and set(exponent) <= {ONE}:
            base = _normal(args[0], fixed, positive)
            return _rational_power(base, exponent.get(ONE, Fraction(0)), tree, fixed, positive)
        if exponent is not None and positive:
            base = _normal(args[0], fixed, positive)
            if _positive_monomial(base, positive):
                return _monomial_power(base, exponent, positive)
    if op == "log":
        constant = _log_rational(_normal(args[0], fixed, positive), positive)
        if constant is not None:
            return constant
    if op == "log" and positive:
        argument = _canonical(_normal(args[0], fixed, positive), positive)
        if _positive_monomial(argument, positive):
            return _log_monomial(argument, positive)
        content = _content(argument, positive)
        if content is not None:
            return _add(_log_monomial(content, positive), _log_primitive(argument, content))
    return _atom(tree, fixed, positive)


def _log_rational(argument: Polynomial, positive: frozenset[str]) -> Polynomial | None:
    """log c for a positive rational c, written over its primes: sum n_p log p (log 1 = 0), or None for
    any other argument (or a prime beyond MAX_FACTOR)."""
    if set(argument) != {ONE} or argument[ONE] <= 0:
        return None
    value = argument[ONE]
    if max(value.numerator, value.denominator) >= MAX_LOGGED:
        return None
    result: Polynomial = {}
    for part, sign in ((value.numerator, 1), (value.denominator, -1)):
        primes = _factor(part)
        if primes is None:
            return None
        for prime, power in primes.items():
            logarithm = _atom(["log", ["num", str(prime)]], {}, positive)
            result = _add(result, {m: c * sign * power for m, c in logarithm.items()})
    return result


def positive_tree(tree: Any, positive: frozenset[str]) -> bool:
    """The tree is > 0 wherever it is defined, by syntax, given the variables ``positive`` > 0."""
    op, args = tree[0], tree[1:]
    if op == "num":
        return Fraction(args[0]) > 0
    if op == "var":
        return args[0] in positive
    if op in ("const", "exp"):
        return True
    if op in ("add", "mul", "min"):
        return all(positive_tree(arg, positive) for arg in args)
    if op == "max":
        return any(positive_tree(arg, positive) for arg in args)
    if op in ("pow", "ceiling"):  # a positive base to any power; ceiling(z) >= z > 0
        return positive_tree(args[0], positive)
    return False


def _positive_monomial(form: Polynomial, positive: frozenset[str]) -> bool:
    """The form is one term c * atoms * prime radicals with c > 0 and every atom positive by syntax."""
    if not positive or len(form) != 1:
        return False
    ((atoms, _), coefficient), *_ = form.items()
    return coefficient > 0 and all(positive_tree(json.loads(atom), positive) for atom, _ in atoms)


def _bases(form: Polynomial, positive: frozenset[str]) -> list[tuple[Polynomial, Polynomial]]:
    """A positive monomial as (base, exponent) pairs with rational or symbolic exponents (normal forms):
    its coefficient over primes, its radicals, and its atoms, an atom a^E1 with exponent k as a to k E1."""
    ((atoms, radicals), coefficient), *_ = form.items()
    pairs: list[tuple[Polynomial, Polynomial]] = []
    for value, sign in ((coefficient.numerator, 1), (coefficient.denominator, -1)):
        primes = _factor(value)
        if primes is None:
            pairs.append((_constant(Fraction(value)), _constant(Fraction(sign))))
            continue
        pairs += [(_constant(Fraction(p)), _constant(Fraction(sign * n))) for p, n in primes.items()]
    pairs += [(_constant(Fraction(p)), _constant(f)) for p, f in radicals]
    for atom, exponent in atoms:
        tree = json.loads(atom)
        if tree[0] == "pow" and not set(_normal(tree[2], {}, positive)) <= {ONE}:
            inner = _normal(tree[2], {}, positive)
            pairs.append(
                (_as_base(_normal(tree[1], {}, positive)), {m: c * exponent for m, c in inner.items()})
            )
        else:
            pairs.append(({((((atom, Fraction(1)),), ())): Fraction(1)}, _constant(exponent)))
    return pairs


def _as_base(form: Polynomial) -> Polynomial:
    """A power's base as one factor: a rational or one atom as it is, anything else as its compound atom."""
    if set(form) <= {ONE} or _single_atom(form) is not None:
        return form
    return {(((_key(as_tree(form)), Fraction(1)),), ()): Fraction(1)}


def _monomial_power(form: Polynomial, exponent: Polynomial, positive: frozenset[str]) -> Polynomial:
    """P^E for a positive monomial P, base by base: b^(r + k E1) = b^r (b^E1)^k with r the constant part
    of the exponent and E1 its rest over its leading coefficient k (see the module docstring)."""
    result = _constant(Fraction(1))
    for base, inner in _bases(form, positive):
        total = _multiply(inner, exponent)
        rational = total.pop(ONE, Fraction(0))
        if rational:
            result = _multiply(result, _base_power(base, rational))
        if total:
            lead = sorted(total.items(), key=lambda item: repr(item[0]))[0][1]
            unit = as_tree({m: c / lead for m, c in total.items()})
            atom = _key(["pow", as_tree(base), unit])
            result = _multiply(result, {(((atom, lead),), ()): Fraction(1)})
    return result


def _content(form: Polynomial, positive: frozenset[str]) -> Polynomial | None:
    """For a sum of positive terms (positive coefficients, atoms positive by syntax): the monomial m = c
    * prod a^(min exponent of a over the terms), c the coefficient of the first term of form / (m / c),
    so that form = m * P with P's first coefficient 1 (None for anything else, or when m is 1)."""
    if not positive or len(form) < 2 or any(c <= 0 for c in form.values()):
        return None
    atoms = {atom for (monomial, _) in form for atom, _ in monomial}
    if not all(positive_tree(json.loads(atom), positive) for atom in atoms):
        return None
    lowest = {a: min(dict(monomial).get(a, Fraction(0)) for (monomial, _) in form) for a in atoms}
    divisor: Polynomial = {(tuple(sorted((a, -e) for a, e in lowest.items() if e)), ()): Fraction(1)}
    scaled = _multiply(form, divisor)
    first = sorted(scaled.items(), key=lambda item: repr(item[0]))[0][1]
    content: Polynomial = {(tuple(sorted((a, e) for a, e in lowest.items() if e)), ()): first}
    return None if content == _constant(Fraction(1)) else content


def _log_primitive(form: Polynomial, content: Polynomial) -> Polynomial:
    """The atom log(form / content) (form / content a sum of positive terms)."""
    ((atoms, _), coefficient), *_ = content.items()
    inverse: Polynomial = {(tuple((a, -e) for a, e in atoms), ()): 1 / coefficient}
    return _atom(["log", as_tree(_multiply(form, inverse))], {}, frozenset())


def _canonical(form: Polynomial, positive: frozenset[str]) -> Polynomial:
    """With ``positive``: every term with a symbolic power written base by base, the exponents of one base
    (and the coefficient's powers of a prime that has a symbolic one) added and put over a common
    denominator of compound atoms, then a constant exponent as usual and a symbolic one as (b^E1)^k with
    E1 of leading coefficient 1 (one form per value, so equal power products cancel)."""
    if not positive or not any(_symbolic(atom) for (atoms, _) in form for atom, _ in atoms):
        return form
    result: Polynomial = {}
    for monomial, coefficient in form.items():
        sign = 1 if coefficient > 0 else -1
        canonical = _canonical_monomial(monomial, sign * coefficient, positive)
        result = _add(result, {m: sign * c for m, c in canonical.items()})
    return result


def _symbolic(atom: str) -> bool:
    """The atom is a power b^E1 with a non-constant exponent."""
    tree = json.loads(atom)
    return bool(tree[0] == "pow" and not set(_normal(tree[2], {}, frozenset())) <= {ONE})


def _canonical_monomial(monomial: Monomial, coefficient: Fraction, positive: frozenset[str]) -> Polynomial:
    """coefficient * monomial (coefficient > 0) base by base (see :func:`_canonical`). Only the atoms
    positive by syntax are split into bases: b^E = (b^E1)^k holds for b > 0, but where b < 0 and E is an
    integer, b^E1 may be undefined (log(x)^(-2y) at log x < 0, y = 1/2 is 1/log(x), while (log(x)^y)^(-2)
    is not), so any other atom is kept as it is."""
    kept = tuple((atom, e) for atom, e in monomial[0] if not positive_tree(json.loads(atom), positive))
    split = (tuple(item for item in monomial[0] if item not in kept), monomial[1])
    if not any(_symbolic(atom) for atom, _ in split[0]):
        return {monomial: coefficient}
    exponents: dict[str, tuple[Polynomial, Polynomial]] = {}
    for base, exponent in _bases({split: coefficient}, positive):
        key = _key(as_tree(base))
        previous = exponents.get(key, (base, {}))[1]
        exponents[key] = (base, _add(previous, exponent))
    result = _constant(Fraction(1))
    for base, exponent in exponents.values():
        total = _over_common_denominator(exponent)
        if set(total) <= {ONE}:
            result = _multiply(result, _base_power(base, total.get(ONE, Fraction(0))))
            continue
        lead = sorted(total.items(), key=lambda item: repr(item[0]))[0][1]
        unit = as_tree({m: c / lead for m, c in total.items()})
        result = _multiply(result, {(((_key(["pow", as_tree(base), unit]), lead),), ()): Fraction(1)})
    return _multiply(result, {(kept, ()): Fraction(1)}) if kept else result


def _over_common_denominator(form: Polynomial, numerator: bool = False) -> Polynomial:
    """The form as N * prod B^(-k): compound atoms B with negative exponents multiplied out of the terms
    (N expanded), so that 1 + p (p + 2)^-1 and 2 (p + 1) (p + 2)^-1 have one form; N alone when
    ``numerator``."""
    lowest: dict[str, Fraction] = {}
    for atoms, _ in form:
        for atom, exponent in atoms:
            if exponent < 0 and exponent.denominator == 1 and json.loads(atom)[0] == COMPOUND:
                lowest[atom] = min(lowest.get(atom, Fraction(0)), exponent)
    if not lowest:
        return form
    cleared = _multiply(form, {(tuple(sorted((a, -e) for a, e in lowest.items())), ()): Fraction(1)})
    return cleared if numerator else _multiply(cleared, {(tuple(sorted(lowest.items())), ()): Fraction(1)})


def _base_power(base: Polynomial, power: Fraction) -> Polynomial:
    """b^power for one base of :func:`_bases`: a rational > 0 (over primes) or one atom."""
    if set(base) <= {ONE}:
        value = base[ONE]
        if power.denominator == 1 and 0 <= power <= MAX_EXPONENT:
            return _constant(value ** int(power))
        radical = _radical(value, power) if abs(power.numerator) <= MAX_EXPONENT else None
        if radical is not None:
            return radical
        return {(((_key(["pow", as_tree(base), ["num", "1"]]), power),), ()): Fraction(1)}
    (((atom, _),), _), *_ = base
    return {(((atom, power),), ()): Fraction(1)}


def _log_monomial(form: Polynomial, positive: frozenset[str]) -> Polynomial:
    """log P = sum over P's bases b^E of E log b for a positive monomial P (log exp(t) = t; log 1 = 0)."""
    result: Polynomial = {}
    for base, exponent in _bases(form, positive):
        if base == _constant(Fraction(1)):
            continue
        tree = as_tree(base)
        ((atoms, _), _), *_ = base.items()
        if len(atoms) == 1 and json.loads(atoms[0][0])[0] == "exp":
            logarithm = _normal(json.loads(atoms[0][0])[1], {}, positive)
        else:
            logarithm = _atom(["log", tree], {}, positive)
        result = _add(result, _multiply(exponent, logarithm))
    return result


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
