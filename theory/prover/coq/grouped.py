"""An identity T_1 + ... + T_n = S_1 + ... + S_m whose right side is the kernel's exact normal form (each S_j
one monomial: a rational times powers of atoms and prime radicals), proved term by term of the left side.

The kernel's normal form of each T_i (:func:`theory.prover.kernel.exact.normal_form`) is a sum of
monomials, each that of one S_j up to a rational factor: T_i = sum_k r_k S_(j_k) =: C_i. The identity
is proved as T_1 + ... + T_n = C_1 + ... + C_n, by the congruence of + (``f_equal2 Rplus``) on the
equations T_i = C_i, each small and closed on its own (below), then C_1 + ... + C_n = S_1 + ... + S_m
by ``field`` over the S_j as variables (a lemma of linear combinations with rational coefficients,
instantiated at the S_j: the r_k of each S_j add to 1; a monomial of no S_j, which cancels among the
T_i, is printed as its normal-form tree and its r_k add to 0). ``field`` on the whole identity clears
every term's denominators at once and multiplies them out (over 290 coqc CPU s on the 16 KB identity of
the second derivative of docs/examples/l2_below_edelman_minilm_l6); there it also fails, "not a valid
field equation" being ``field``'s verdict that the two sides differ as rational functions of their
atoms: 2^(1/3) 2^(5/6) and 2 2^(1/6), sqrt (1 ln (1 L)) and sqrt (ln L), or sqrt L sqrt L and L are
different atoms or monomials to it.

Stated once, before the terms: for every integer base b > 1 with a power b^(p/q), q > 2 (printed
Rpower b (p/q)), X_b = Rpower b (1/Q) with Q the least common denominator of b's exponents, the
rewrites P_k : b^e = X_b^(e Q) of its other powers, sqrt b among them (each by ``sb_power_atom``: both
sides are positive with the same ln), and W_b : X_b^Q = b (Rpower_pow, Rpower_mult, Rpower_1); and for
each other square root, R_a : sqrt a * sqrt a = a (``sqrt_sqrt``). Each T_i = C_i is then closed by
rewriting x^0 = 1, 1 x = x, x 1 = x (the kernel's trees carry them: ``pow_O``, ``Rmult_1_l``,
``Rmult_1_r``) and the P_k (in the R_a too, so that the rules and the goal share their atoms), naming
the inverses on both sides (``sb_opaque_inverses``) and ``field`` with the W_b and R_a as its rewriting
rules, its denominators nonzero by ``sb_nonzero``. The kernel's normal form factors composite integers:
n^e = prod_p p^(v_p(n) e) (those exponents count among p's), stated once as n^e = prod_p X_p^(v_p(n) e Q)
(``sb_power_atom``, from ``sb_factored (ln n) (sum_p v_p(n) ln p)``) and rewritten with the P_k, and
ln n = sum_p v_p(n) ln p (``sb_factor``), after which sqrt, ln and exp atoms whose arguments are equal by
``ring`` (a sum under a square root, its terms in another order) are made one (``sb_atoms``, emitted only
where two atoms' arguments have one normal form but different terms). ``field [rules]`` keeps the
fractions of a rule's right side as atoms while it clears the goal's, so a root relation R_a whose
argument a = sum_k c_k m_k has rational c_k (least common denominator d > 1, no fraction in the m_k, no
division by sqrt a) would never turn (sqrt a)^6 into a^3: it is stated over u = d sqrt a instead,
U : u u = d^2 a (sqrt_sqrt; d^2 a printed with integer coefficients), and each sqrt b with b's normal
form a's as Q : sqrt b = u / d (``field`` after b = a by the powers' rewrites), rewritten in each term
before the atoms are compared; u is then opaque (``clearbody``). Where a
side has a negative power of a variable v, a term whose ``field`` fails with every inverse named is tried
with the inverses of v, sqrt v and v^k left to ``field`` (``sb_opaque_compound_inverses``): named, / sqrt v
hides that / v sqrt v = / sqrt v, the kernel's exponents -1 + 1/2 = -1/2. Nothing is assumed: each rule
is proved, and a wrong ratio or monomial fails its ``field``.

Provenance: derived (the kernel's exact normal form; ring and field identities; laws of exponents for
positive bases; unique factorization; sqrt_sqrt). The cleared relation: Coq 8.16's ``field [H]`` does not
clear H's fractions (measured: from r r = 1/2 x it fails on r^4 = 1/4 x^2, and on r^2 = 3/7 x + 5 y from
r r = 3/7 x + 5 y, which ``ring [H]`` proves; from 2 (r r) = x it proves 4 r^4 = x^2).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Protocol

import sympy as sp

from theory.prover.coq.exponents import factored_logs
from theory.prover.coq.preamble import sqrt_relation
from theory.prover.coq.terms import points, rational
from theory.prover.kernel import exact
from theory.prover.kernel.verify import Box, fixed_points

CLEAN = "?pow_O, ?Rmult_1_l, ?Rmult_1_r, ?Rmult_1_l"
"""The rewrites x^0 = 1, then 1 x = x and x 1 = x (and 1 x again, for the 1 x 1 they leave)."""


class Printer(Protocol):
    """The Coq term of a tree (the exporter's writer)."""

    def subject(self, form: Any) -> str: ...


def grouped(writer: Printer, subject: Any, target: Any, box: Box) -> str | None:
    """The tactic of ``subject`` = ``target`` (see the module), or None where the target is not a sum of
    distinct monomials of the kernel's normal form, a term's normal form is 0 or too large, or the terms'
    normal forms do not add up to the target's (as polynomials: the kernel may have needed a common
    denominator)."""
    terms = subject[1:] if subject[0] == "add" else [subject]
    targets = target[1:] if target[0] == "add" else [target]
    fixed = fixed_points(box)
    keys: dict[Any, tuple[int, Fraction]] = {}
    for j, part in enumerate(targets):
        form = exact.normal_form(part, fixed)
        if form is None or len(form) != 1:
            return None
        ((key, coefficient),) = form.items()
        if key in keys:
            return None
        keys[key] = (j, coefficient)
    combinations: list[list[tuple[Fraction, Any]]] = []
    total: dict[Any, Fraction] = {}
    for part in terms:
        form = exact.normal_form(part, fixed)
        if not form:  # too large, or 0: no combination to state
            return None
        for key, coefficient in form.items():
            total[key] = total.get(key, Fraction(0)) + coefficient
        combination = []
        for key, coefficient in sorted(form.items(), key=lambda item: repr(item[0])):
            if key in keys:
                j, own = keys[key]
                combination.append((coefficient / own, targets[j]))
            else:  # a monomial that cancels among the terms: its normal-form tree
                combination.append((coefficient, exact.as_tree({key: Fraction(1)})[1]))
        combinations.append(combination)
    if {key: c for key, c in total.items() if c != 0} != {key: c for key, (_, c) in keys.items()}:
        return None  # the terms' normal forms do not add up to the target's monomials
    sides = [*terms, *(s for c in combinations for _, s in c)]
    preface, rules = _rules(writer, sides, fixed)
    proof = f"{points(box)}{rules}"
    middle = " + ".join(f"({writer.subject(_combined(c))})" for c in combinations)
    congruence = proof
    for _ in terms[1:]:  # the left fold (x_1 + x_2) + x_3 .. as Coq parses both sums
        congruence = f"apply (f_equal2 Rplus); [ {congruence} | {proof} ]"
    linear = _linear(writer, combinations, targets)
    return f"{preface}transitivity ({middle});\n    [ {congruence}\n    | {linear} ]"


def _combined(combination: list[tuple[Fraction, Any]]) -> Any:
    """sum_k r_k S_k as a tree (a factor 1 left out)."""
    parts = [s if r == 1 else ["mul", ["num", str(r)], s] for r, s in combination]
    return parts[0] if len(parts) == 1 else ["add", *parts]


def _linear(writer: Printer, combinations: list[list[tuple[Fraction, Any]]], targets: list[Any]) -> str:
    """C_1 + ... + C_n = S_1 + ... + S_m by ``field`` over the S_j (and the cancelling monomials) as
    variables, the lemma then applied to them."""
    atoms: list[Any] = list(targets)
    for combination in combinations:
        atoms += [s for _, s in combination if s not in atoms]
    names = {repr(s): f"s{k}" for k, s in enumerate(atoms)}

    def shown(combination: list[tuple[Fraction, Any]]) -> str:
        return " + ".join(
            names[repr(s)] if r == 1 else f"({rational(r)} * {names[repr(s)]})" for r, s in combination
        )

    left = " + ".join(f"({shown(c)})" for c in combinations)
    right = " + ".join(names[repr(s)] for s in targets)
    variables = " ".join(names.values())
    arguments = " ".join(f"({writer.subject(s)})" for s in atoms)
    return f"exact ((fun {variables} : R => (ltac:(field) : {left} = {right})) {arguments})"


def _rules(writer: Printer, sides: list[Any], fixed: Any) -> tuple[str, str]:
    """The facts stated once for every term (the relations R_a, cleaned; W_b, the powers' rewrites P_k,
    the composite integers' C_n) and the tactic closing one term's equation with them (see the module)."""
    powers, composites = _radicals(sides)
    logs = _composite_logs(sides)
    facts = [factored_logs({n for n, _ in composites} | logs)] if composites or logs else []
    rewrites: list[str] = []
    rules: list[str] = []
    atoms = {
        base: (f"(Rpower {base} (1 / {q}))", q)
        for base, exponents in powers.items()
        if (q := math.lcm(*(e.denominator for e in exponents))) > 2
    }

    def rewrite(shown: str, value: str) -> None:
        facts.append(f"assert (P{len(rewrites)} : {shown} = {value}) by sb_power_atom; ")
        rewrites.append(f"P{len(rewrites)}")

    for index, base in enumerate(sorted(powers)):
        if base not in atoms:
            continue
        atom, q = atoms[base]
        for e in sorted(powers[base], key=lambda e: -abs(e)):
            if e != Fraction(1, q):
                rewrite(
                    writer.subject(["pow", ["num", str(base)], ["num", str(e)]]),
                    _over(writer, atoms, base, e),
                )
        rules.append(f"W{index}")
        facts.append(
            f"assert (W{index} : {atom} ^ {q} = {base}) by (rewrite <- Rpower_pow by (unfold Rpower; "
            f"apply exp_pos); rewrite Rpower_mult; replace (1 / {q} * INR {q}) with 1 by (cbn [INR]; "
            "field); apply Rpower_1; lra); "
        )
    roots: list[Any] = []
    for (n, e), factors in sorted(composites.items()):  # n^e = prod p^(a e), over the X_p
        parts = [_over(writer, atoms, p, f) for p, f in factors]
        roots += [["pow", ["num", str(p)], ["num", str(f)]] for p, f in factors if p not in atoms]
        rewrite(writer.subject(["pow", ["num", str(n)], ["num", str(e)]]), f"({' * '.join(parts)})")
    factored = [_factored(side, logs) for side in [*sides, *roots]]
    written = {*atoms, *(n for n, _ in composites)}
    shown_roots = {writer.subject(r): r for side in factored for r in _roots(side, written)}
    inverted = {writer.subject(r) for side in factored for r in _inverted_roots(side)}
    normal = f"rewrite {', '.join([CLEAN, *(f'?{name}' for name in rewrites)])}"
    classes: dict[Any, list[tuple[str, tuple[int, Any]]]] = {}  # cleared roots, by their normal form
    for count, (root, tree) in enumerate(sorted(shown_roots.items())):
        cleared = None if root in inverted else _cleared(tree)
        if cleared is not None:
            classes.setdefault(_key(tree, fixed), []).append((root, cleared))
            continue
        facts.append(f"{sqrt_relation(f'R{count}', root)}; {normal} in R{count}; ")
        rules.append(f"R{count}")
    scaled: list[str] = []
    laws = [rule for rule in rules if rule.startswith("W")]
    powers_field = f"field [{' '.join(laws)}]" if laws else "field"
    for count, members in enumerate(classes.values()):
        root, (d, integral) = members[0]  # u = d sqrt a, u u = d^2 a (see the module)
        name = f"u{count}"
        facts.append(
            f"{sqrt_relation(f'S{count}', root)}; pose ({name} := {d} * sqrt {root}); "
            f"assert (U{count} : {name} * {name} = {writer.subject(integral)}) by (unfold {name}; "
            f"transitivity ({d} * {d} * (sqrt {root} * sqrt {root})); [ ring | rewrite S{count}; field ]); "
        )
        for k, (member, _) in enumerate(members):
            same = f"replace (sqrt {member}) with (sqrt {root}) by (f_equal; {normal}; {powers_field}); "
            same = same if k else ""
            facts.append(
                f"assert (Q{count}_{k} : sqrt {member} = {name} / {d}) by (unfold {name}; {same}field); "
            )
            scaled.append(f"?Q{count}_{k}")
        facts.append(
            f"clearbody {name}; clear S{count}; {normal} in U{count}; "
            + "".join(f"{normal} in Q{count}_{k}; " for k in range(len(members)))
        )
        rules.append(f"U{count}")
    if composites or logs:  # ln n as its primes' sum
        normal += f"; sb_factor; rewrite {CLEAN}"
    if scaled:  # each cleared root as its u / d, before the atoms are compared
        normal += f"; rewrite {', '.join(scaled)}"
    others = set(shown_roots) - {member for members in classes.values() for member, _ in members}
    if (composites or logs) and _unmatched_atoms(writer, factored, others, fixed):
        normal += "; sb_atoms"  # atoms with arguments equal by ring made one
    field = f"field [{' '.join(rules)}]; sb_nonzero"
    closing = f"{normal}; sb_opaque_inverses; {field}"
    if any(_variable_inverse(side) for side in sides):
        named = f"solve [ sb_opaque_inverses; {field} ]"
        closing = f"{normal}; first [ {named} | sb_opaque_compound_inverses; {field} ]"
    return "".join(facts) + "\n    ", closing


def _over(writer: Printer, atoms: dict[int, tuple[str, int]], base: int, e: Fraction) -> str:
    """base^e over X_base = base^(1/Q) where stated (X^(e Q), or its inverse), else as printed."""
    if base not in atoms or e.denominator == 1:
        return writer.subject(["pow", ["num", str(base)], ["num", str(e)]])
    atom, q = atoms[base]
    k = e * q
    return f"({atom} ^ {abs(k)})" if k > 0 else f"(/ ({atom} ^ {abs(k)}))"


def _radicals(trees: list[Any]) -> tuple[dict[int, set[Fraction]], dict[tuple[int, Fraction], list[Any]]]:
    """The exponents of each prime b met as b^e with e not an integer, and each composite n met as n^e
    with its factors (p, v_p(n) e) (whose exponents count as met)."""
    found: dict[int, set[Fraction]] = {}
    composites: dict[tuple[int, Fraction], list[Any]] = {}

    def walk(tree: Any) -> None:
        if not isinstance(tree, list) or not tree:
            return
        if tree[0] == "pow" and tree[1][0] == "num" and tree[2][0] == "num":
            value, e = Fraction(tree[1][1]), Fraction(tree[2][1])
            if value.denominator == 1 and value > 1 and e.denominator != 1:
                factors = sorted(sp.factorint(int(value)).items())
                if len(factors) > 1 or factors[0][1] > 1:
                    composites[(int(value), e)] = [(p, a * e) for p, a in factors]
                for p, a in factors:
                    if (a * e).denominator != 1:
                        found.setdefault(p, set()).add(a * e)
        for argument in tree[1:]:
            walk(argument)

    for tree in trees:
        walk(tree)
    return found, composites


def _composite_logs(trees: list[Any]) -> set[int]:
    """The composite integers n met as ln n."""
    found: set[int] = set()

    def walk(tree: Any) -> None:
        if not isinstance(tree, list) or not tree:
            return
        if tree[0] == "log" and tree[1][0] == "num":
            value = Fraction(tree[1][1])
            if value.denominator == 1 and value > 1 and not sp.isprime(int(value)):
                found.add(int(value))
        for argument in tree[1:]:
            walk(argument)

    for tree in trees:
        walk(tree)
    return found


def _factored(tree: Any, logs: set[int]) -> Any:
    """``tree`` with each ln n of ``logs`` written as sum_p v_p(n) ln p (as ``sb_factor`` rewrites it)."""
    if not isinstance(tree, list) or not tree:
        return tree
    if tree[0] == "log" and tree[1][0] == "num" and Fraction(tree[1][1]) in logs:
        primes = sorted(sp.factorint(int(Fraction(tree[1][1]))).items())
        return ["add", *(["mul", ["num", str(k)], ["log", ["num", str(p)]]] for p, k in primes)]
    return [tree[0], *(_factored(argument, logs) for argument in tree[1:])]


def _variable_inverse(tree: Any) -> bool:
    """Whether ``tree`` has a negative power of a variable (/ v, / sqrt v: see the module)."""
    if not isinstance(tree, list) or not tree:
        return False
    if tree[0] == "pow" and tree[1][0] == "var" and tree[2][0] == "num" and Fraction(tree[2][1]) < 0:
        return True
    return any(_variable_inverse(argument) for argument in tree[1:])


def _cleared(root: Any) -> tuple[int, Any] | None:
    """For a root's argument a = sum_k c_k m_k with rational c_k and no fraction or inverse that ``field``
    would see in the m_k: the least common denominator d of the c_k and d^2 a as sum_k (d^2 c_k) m_k, its
    coefficients integers; None where d = 1 or a is not of that shape."""
    terms = root[1:] if root[0] == "add" else [root]
    split: list[tuple[Fraction, list[Any]]] = []
    for part in terms:
        if part[0] == "num":
            split.append((Fraction(part[1]), []))
        elif part[0] == "mul" and part[1][0] == "num":
            split.append((Fraction(part[1][1]), part[2:]))
        else:
            split.append((Fraction(1), [part]))
    if any(_visible_fraction(f) for _, factors in split for f in factors):
        return None
    d = math.lcm(*(c.denominator for c, _ in split))
    if d == 1:
        return None
    scaled = [
        ["mul", ["num", str(c * d * d)], *factors] if factors else ["num", str(c * d * d)]
        for c, factors in split
    ]
    return d, scaled[0] if len(scaled) == 1 else ["add", *scaled]


def _key(tree: Any, fixed: Any) -> Any:
    """The kernel's normal form of ``tree`` as a dictionary key (its repr where there is none)."""
    form = exact.normal_form(tree, fixed)
    return frozenset(form.items()) if form else repr(tree)


def _unmatched_atoms(writer: Printer, trees: list[Any], roots: set[str], fixed: Any) -> bool:
    """Whether two sqrt, ln or exp atoms of ``trees`` (the square roots among ``roots`` only) have
    arguments with one normal form but different Coq terms once 1 x and x^1 are dropped (which
    ``sb_atoms`` must then make one)."""
    found: dict[Any, set[str]] = {}

    def walk(tree: Any) -> None:
        if not isinstance(tree, list) or not tree:
            return
        if tree[0] in ("log", "exp") or (_root(tree) and writer.subject(tree[1]) in roots):
            argument = tree[1]
            found.setdefault((tree[0], _key(argument, fixed)), set()).add(repr(_plain(argument)))
        for part in tree[1:]:
            walk(part)

    for tree in trees:
        walk(tree)
    return any(len(shown) > 1 for shown in found.values())


def _root(tree: Any) -> bool:
    """Whether ``tree`` is a power of a square root (exponent k/2)."""
    return tree[0] == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]).denominator == 2


def _plain(tree: Any) -> Any:
    """``tree`` without factors 1, powers 1 and sums or products of one term (what ``CLEAN`` and the
    printer's parentheses leave alike)."""
    if not isinstance(tree, list) or not tree or tree[0] == "num":
        return tree
    parts = [_plain(part) for part in tree[1:]]
    if tree[0] == "mul":
        parts = [part for part in parts if part != ["num", "1"]] or [["num", "1"]]
    if tree[0] in ("add", "mul") and len(parts) == 1:
        return parts[0]
    if tree[0] == "pow" and parts[1] == ["num", "1"]:
        return parts[0]
    return [tree[0], *parts]


def _visible_fraction(tree: Any) -> bool:
    """Whether ``field`` sees a division in ``tree``: a non-integer number or a negative integer power
    outside the atoms (roots, radicals, ln, exp), which a rule's right side may not have."""
    if tree[0] == "num":
        return Fraction(tree[1]).denominator != 1
    if tree[0] in ("add", "mul"):
        return any(_visible_fraction(argument) for argument in tree[1:])
    if tree[0] == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]).denominator == 1:
        return Fraction(tree[2][1]) < 0 or _visible_fraction(tree[1])
    return False


def _inverted_roots(tree: Any) -> list[Any]:
    """The arguments of the square roots that ``tree`` divides by (exponent -k/2)."""
    if not isinstance(tree, list) or not tree:
        return []
    found = [root for argument in tree[1:] for root in _inverted_roots(argument)]
    if tree[0] == "pow" and tree[2][0] == "num":
        e = Fraction(tree[2][1])
        if e.denominator == 2 and e < 0:
            found.append(tree[1])
    return found


def _roots(tree: Any, written: set[int]) -> list[Any]:
    """The arguments of the square roots of a tree (exponent k/2) other than the integer bases whose
    powers are written over the X_p."""
    if not isinstance(tree, list) or not tree:
        return []
    found = [root for argument in tree[1:] for root in _roots(argument, written)]
    if tree[0] == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]).denominator == 2:
        base = tree[1]
        value = Fraction(base[1]) if base[0] == "num" else Fraction(0)
        if not (value.denominator == 1 and int(value) in written):
            found.append(base)
    return found
