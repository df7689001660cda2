"""An identity with symbolic powers and logarithms as a Coq proof guided by its log-linear normal form.

For a positive base B = c * prod_i b_i^(f_i) (c a positive rational, b_i variables or other atoms,
f_i exponents), B^E = prod_i b_i^(E f_i) * prod_q q^(E v_q(c)) over the primes q of c: the laws of
exponents for positive bases, (x y)^E = x^E y^E, (x^f)^E = x^(f E), c^E = prod_q q^(v_q(c) E) (unique
factorization). Every symbolic power of the two sides is so a product of powers of the same bases. Per
base b, the exponents met (rational functions of the variables; the constant 1 first, so that b itself
is one of them) span a Q-vector space; its basis w_1 = 1, w_2, ... is scaled so that every exponent is
an integer combination, e = sum_j k_j w_j, and b^e = prod_j X_j^(k_j) with the atoms X_1 = b,
X_j = Rpower b w_j. A logarithm of a sum T of positive terms is ln m + ln P with T = m P, m the monomial
of the terms' lowest exponents and P's first term (sympy's order) of coefficient 1, so that sums
proportional to each other have one ln P (the kernel's content and primitive); ln m is a sum of
c_i ln b_i. The proof printed for Coq:

- ``assert (Cn : sb_factored (ln n) (sum_q v_q(n) ln q))`` (an equality) for the composite integers
  met (n as a product of prime powers, by ``ring``);
- ``assert (Lk : ln T = sum_i c_i ln b_i + ln P)`` per logarithm, outermost first, through ln (m P)
  (T = m P by ``field``, a square root r of a base b taken as an atom with b = r r), then rewritten;
- ``assert (P_k : 0 < o)`` for every base that is neither a number nor a variable (by the caller's
  proof), then ``set`` it (outermost first), so that the rewrites below leave it one atom;
- ``replace (Rpower B E) with (prod_j X_j^k_j)`` per power, outermost first, each by ``sb_power_atom``:
  both sides are positive and have the same ln (``ln_inv``), ln expanded by ln (x y) = ln x + ln y,
  ln (/ x) = - ln x, ln (x^n) = n ln x, ln (Rpower b e) = e ln b and the facts Cn, then ``field``;
- the identity, now of rational functions in the atoms X and the ln atoms: ``field`` (or
  ``sb_identity``).

Nothing is searched: the rewrites are those of the normal form, and each is checked by coqc (a wrong law
printed into the same route, a^x a^y = a^(x y) or (a + b)^e = a^e + b^e, fails its ``field``).
Provenance: standard (laws of exponents for positive bases, ln_mult, ln_Rinv, ln_pow, ln_inv, sqrt_sqrt;
unique factorization).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp

from theory.prover.coq.terms import Untranslatable, term, variable
from theory.prover.kernel.substitution import substitute as substituted

Logs = dict[str, tuple[Any, sp.Expr]]
"""ln of a positive product: base key -> (the base's tree, its coefficient)."""


def symbolic(tree: Any) -> list[Any]:
    """The power nodes of ``tree`` whose exponent is not a number, outermost first (each once)."""
    found: list[Any] = []
    if not isinstance(tree, list) or not tree:
        return found
    if tree[0] == "pow" and tree[2][0] != "num":
        found.append(tree)
    for argument in tree[1:]:
        found += [node for node in symbolic(argument) if node not in found]
    return found


def exponent(tree: Any) -> sp.Expr:
    """An exponent tree as a rational function of its variables (sympy), or :class:`Untranslatable`."""
    head = tree[0]
    if head == "num":
        return sp.Rational(str(Fraction(tree[1])))
    if head == "var":
        return sp.Symbol(tree[1])
    if head == "add":
        return sp.Add(*(exponent(a) for a in tree[1:]))
    if head == "mul":
        return sp.Mul(*(exponent(a) for a in tree[1:]))
    if head == "pow" and tree[2][0] == "num" and Fraction(tree[2][1]).denominator == 1:
        return exponent(tree[1]) ** int(Fraction(tree[2][1]))
    raise Untranslatable(f"the exponent {tree[0]!r} is not a rational function of the variables")


def as_tree(expr: sp.Expr) -> Any:
    """A rational function (sympy) as a data tree (the inverse of :func:`exponent`)."""
    if expr.is_Rational:
        return ["num", str(expr)]
    if expr.is_Symbol:
        return ["var", expr.name]
    if expr.is_Add or expr.is_Mul:
        return ["add" if expr.is_Add else "mul", *(as_tree(a) for a in expr.args)]
    if expr.is_Pow and expr.exp.is_Integer:
        return ["pow", as_tree(expr.base), ["num", str(expr.exp)]]
    raise Untranslatable(f"the exponent {expr} has no tree")


def logs(tree: Any) -> Logs:
    """ln of a positive product tree as a sum of coefficients times ln of its bases (see the module):
    numbers over their primes, powers scaled by their exponents, a sum of one term as that term, any other
    node one base."""
    head = tree[0]
    if head == "num":
        value = Fraction(tree[1])
        if value <= 0:
            raise Untranslatable("a power of a base with a factor <= 0")
        factors = {
            **sp.factorint(value.numerator),
            **{p: -n for p, n in sp.factorint(value.denominator).items()},
        }
        return {_key(["num", str(p)]): (["num", str(p)], sp.Integer(n)) for p, n in factors.items()}
    if head == "add" and len(tree) == 2:
        return logs(tree[1])
    if head == "mul":
        total: Logs = {}
        for argument in tree[1:]:
            for key, (base, coefficient) in logs(argument).items():
                total[key] = (base, total.get(key, (base, sp.Integer(0)))[1] + coefficient)
        return total
    if head == "pow":
        scale = exponent(tree[2])
        return {key: (base, c * scale) for key, (base, c) in logs(tree[1]).items()}
    return {_key(tree): (tree, sp.Integer(1))}


def _key(tree: Any) -> str:
    return json.dumps(tree, separators=(",", ":"))


def _vector(expr: sp.Expr, denominator: sp.Expr, names: list[sp.Symbol]) -> dict[Any, sp.Rational]:
    """The coefficients of expr * denominator, a polynomial in ``names``."""
    numerator = sp.cancel(sp.together(expr * denominator))
    if not names:
        return {(): sp.Rational(numerator)}
    return dict(sp.Poly(numerator, *names).as_dict())


def basis(exponents: list[sp.Expr]) -> tuple[list[sp.Expr], dict[sp.Expr, list[int]]]:
    """A basis w_1 = 1, w_2, ... of the Q-span of 1 and ``exponents`` with every exponent an integer
    combination of it, and those integer coordinates; :class:`Untranslatable` when 1 itself would have
    to be divided (a root of the base)."""
    values = [sp.Integer(1), *exponents]
    names = sorted(set().union(*(e.free_symbols for e in values)), key=lambda s: s.name)
    denominator = sp.lcm([sp.fraction(sp.together(e))[1] for e in values])
    vectors = [_vector(e, denominator, names) for e in values]
    monomials = sorted(set().union(*vectors), key=str)
    rows = [[v.get(m, 0) for m in monomials] for v in vectors]
    chosen: list[int] = []
    for index in range(len(rows)):
        if sp.Matrix([rows[i] for i in [*chosen, index]]).rank() > len(chosen):
            chosen.append(index)
    columns = sp.Matrix([rows[i] for i in chosen]).T
    coordinates = {}
    for value, row in zip(values, rows, strict=True):
        solution, _ = columns.gauss_jordan_solve(sp.Matrix(row))
        coordinates[value] = list(solution)
    scales = [sp.ilcm(*(sp.fraction(c[j])[1] for c in coordinates.values())) for j in range(len(chosen))]
    if scales[0] != 1:
        raise Untranslatable("an exponent's constant part is a root of its base")
    spanned = [values[i] / s for i, s in zip(chosen, scales, strict=True)]
    integers = {v: [int(c[j] * scales[j]) for j in range(len(chosen))] for v, c in coordinates.items()}
    return spanned, integers


class _Atoms:
    """The atoms X_j of every base (see the module) and the power products they print."""

    def __init__(self, powers: list[Any]) -> None:
        self.forms = [logs(node) for node in powers]
        self.bases: dict[str, Any] = {}
        met: dict[str, list[sp.Expr]] = {}
        for form in self.forms:
            for key, (base, coefficient) in form.items():
                self.bases[key] = base
                met.setdefault(key, [])
                if sp.cancel(coefficient) not in met[key]:
                    met[key].append(sp.cancel(coefficient))
        self.spans = {key: basis(exponents) for key, exponents in met.items()}

    def product(self, form: Logs, printed: Callable[[str], str]) -> str:
        """prod_b prod_j X_bj^k_bj for one power (``printed(key)`` the Coq term of base b)."""
        factors = []
        for key, (_, coefficient) in sorted(form.items()):
            spanned, integers = self.spans[key]
            for w, k in zip(spanned, integers[sp.cancel(coefficient)], strict=True):
                if k == 0:
                    continue
                atom = printed(key) if w == 1 else f"(Rpower {printed(key)} {term(as_tree(w), _never)})"
                power = atom if abs(k) == 1 else f"({atom} ^ {abs(k)})"
                factors.append(power if k > 0 else f"(/ {power})")
        return "(" + " * ".join(factors) + ")" if factors else "1"


def _never(_: Any) -> bool:
    return False


def composite_logs(bases: list[Any]) -> str:
    """``assert (Cn : sb_factored (ln n) (sum_q v_q(n) ln q))`` for every composite integer n of the
    number bases' and the power bases' numbers (the tactic text, each proved by ln of a product of prime
    powers)."""
    integers: set[int] = set()
    for tree in bases:
        for node in _numbers(tree):
            value = Fraction(node[1])
            integers |= {abs(value.numerator), value.denominator}
    return factored_logs(integers)


def factored_logs(integers: set[int]) -> str:
    """``assert (Cn : sb_factored (ln n) (sum_q v_q(n) ln q))`` for each composite n of ``integers``
    (unique factorization; ln of a product of prime powers by ``sb_ln_expand``)."""
    facts = []
    for n in sorted(i for i in integers if i > 1 and not sp.isprime(i)):
        primes = sorted(sp.factorint(n).items())
        product = " * ".join(f"({p} ^ {k})" for p, k in primes)
        sums = " + ".join(f"{k} * ln {p}" for p, k in primes)
        facts.append(
            f"assert (C{n} : sb_factored (ln {n}) ({sums})) by (unfold sb_factored; "
            f"replace {n} with ({product}) by ring; sb_ln_expand; ring);\n  "
        )
    return "".join(facts)


def _numbers(tree: Any) -> list[Any]:
    if not isinstance(tree, list) or not tree:
        return []
    if tree[0] == "num":
        return [tree]
    return [n for argument in tree[1:] for n in _numbers(argument)]


class _Symbols:
    """Trees as sympy expressions: numbers, variables, sums, products and rational powers as themselves,
    any other node one symbol (the same node, the same symbol)."""

    def __init__(self) -> None:
        self.trees: dict[sp.Symbol, Any] = {}
        self.symbols: dict[str, sp.Symbol] = {}

    def expr(self, tree: Any) -> sp.Expr:
        head = tree[0]
        if head == "num":
            return sp.Rational(str(Fraction(tree[1])))
        if head in ("add", "mul"):
            parts = [self.expr(a) for a in tree[1:]]
            return sp.Add(*parts) if head == "add" else sp.Mul(*parts)
        if head == "pow" and tree[2][0] == "num":
            return self.expr(tree[1]) ** sp.Rational(str(Fraction(tree[2][1])))
        key = _key(tree)
        if key not in self.symbols:
            symbol = sp.Symbol(f"a{len(self.symbols)}")
            self.symbols[key], self.trees[symbol] = symbol, tree
        return self.symbols[key]

    def tree(self, expr: sp.Expr) -> Any:
        """The tree of an expression of :meth:`expr` (terms and factors in sympy's canonical order)."""
        if expr.is_Rational:
            return ["num", str(expr)]
        if expr.is_Symbol:
            return self.trees[expr]
        if expr.is_Add or expr.is_Mul:
            ordered = sorted(expr.args, key=sp.default_sort_key)
            return ["add" if expr.is_Add else "mul", *(self.tree(a) for a in ordered)]
        if expr.is_Pow and expr.exp.is_Rational:
            return ["pow", self.tree(expr.base), ["num", str(expr.exp)]]
        raise Untranslatable(f"{expr} has no tree")


def content(expr: sp.Expr) -> tuple[sp.Expr, sp.Expr | None]:
    """expr = m * P with m a monomial and P (None for a monomial) a sum of positive terms whose atoms'
    lowest exponents are 0 and whose first term (sympy's order) has coefficient 1: the one primitive of
    every sum proportional to it (so ln of two such sums is the same ln P plus ln of monomials)."""
    expanded = sp.expand(expr)
    terms = sp.Add.make_args(expanded)
    if len(terms) == 1:
        return expanded, None
    powers = [t.as_powers_dict() for t in terms]
    atoms = {a for d in powers for a in d if not a.is_Number}
    lowest = sp.Mul(*(a ** min(d.get(a, 0) for d in powers) for a in atoms))
    primitive = sp.expand(expanded / lowest)
    first = sorted(sp.Add.make_args(primitive), key=sp.default_sort_key)[0].as_coeff_Mul()[0]
    primitive = sp.expand(primitive / first)
    if any(t.as_coeff_Mul()[0] <= 0 for t in sp.Add.make_args(primitive)):
        raise Untranslatable("a logarithm of a sum with a negative term")
    return lowest * first, primitive


def _roots(exprs: list[sp.Expr]) -> list[sp.Expr]:
    """The bases met with a half-integer exponent (printed through sqrt)."""
    found = []
    for expr in exprs:
        for power in sp.preorder_traversal(expr):
            if power.is_Pow and power.exp.is_Rational and power.exp.q == 2 and power.base not in found:
                found.append(power.base)
            elif power.is_Pow and power.exp.is_Rational and power.exp.q > 2:
                raise Untranslatable("a root of degree above 2 in a logarithm's argument")
    return found


def log_rewrites(sides: list[Any], positive: Callable[[Any], bool]) -> tuple[str, list[Any]]:
    """``assert (Lk : ln T = sum_i c_i ln b_i + ln P)`` and ``rewrite Lk`` for every ln node T of the
    sides (outermost first; T = m P by :func:`content`) other than a ln that stays one atom; with the
    trees whose numbers the facts ln n = ... must cover."""
    symbols = _Symbols()
    printed: dict[str, Any] = {}
    for side in sides:
        printed.update((term(n, positive), n) for n in _logs_of(side) if term(n, positive) not in printed)
    nodes = [printed[text] for text in sorted(printed, key=lambda text: -len(text))]
    forms = [content(symbols.expr(node[1])) for node in nodes]
    primitives = [primitive for _, primitive in forms]
    script, numbers = "", []
    for index, (node, (monomial, primitive)) in enumerate(zip(nodes, forms, strict=True), start=1):
        expanded = list(logs(symbols.tree(monomial)).values())
        single = primitive is None and len(expanded) == 1 and expanded[0][1] == 1
        if single and term(expanded[0][0], positive) == term(node[1], positive).strip("()"):
            continue  # ln b of one base b, printed as it is
        if monomial == 1 and primitives.count(primitive) == 1:
            continue  # ln T stays one atom: no other logarithm has T's primitive
        script += _log_rewrite(f"L{index}", node, monomial, primitive, symbols, positive)
        numbers.append(symbols.tree(monomial))
    return script, numbers


def _log_rewrite(
    name: str,
    node: Any,
    monomial: sp.Expr,
    primitive: sp.Expr | None,
    symbols: _Symbols,
    positive: Callable[[Any], bool],
) -> str:
    """ln T = sum_i c_i ln b_i (+ ln P) by ln (m P) = ln m + ln P after T = m P (``field``, a square root
    r of a base b a new atom with b = r r), then its rewrite."""
    sums = [
        f"{term(as_tree(c), _never)} * ln {term(b, positive)}"
        for b, c in logs(symbols.tree(monomial)).values()
    ]
    product = term(symbols.tree(monomial), positive)
    if primitive is not None:
        printed = term(symbols.tree(primitive), positive)
        sums.append(f"ln {printed}")
        product = f"({product} * {printed})"
    roots = "".join(
        f"assert (0 < sqrt {b}) by (apply sqrt_lt_R0; sb_positive); set (v__r{j} := sqrt {b}) in *; "
        f"replace {b} with (v__r{j} * v__r{j}) by (unfold v__r{j}; rewrite sqrt_sqrt; "
        "[reflexivity | apply Rlt_le; sb_positive]); "
        for j, b in enumerate(
            (term(symbols.tree(r), positive) for r in _roots([symbols.expr(node[1]), monomial])), start=1
        )
    )
    return (
        f"assert ({name} : {term(node, positive)} = {' + '.join(sums) or '0'})\n"
        f"    by (transitivity (ln {product});\n"
        f"    [ f_equal; {roots}field; sb_nonzero | sb_ln_expand; "
        "sb_factor; field ]);\n"
        f"  try rewrite {name};\n  "
    )


def _logs_of(tree: Any) -> list[Any]:
    if not isinstance(tree, list) or not tree or tree[0] == "num":
        return []
    found = [tree] if tree[0] == "log" else []
    return found + [n for a in tree[1:] for n in _logs_of(a)]


def guided(
    sides: list[Any],
    positive: Callable[[Any], bool],
    signed: Callable[[Any], str] | None,
    closing: str = "first [ solve [ field; sb_nonzero ] | sb_identity ]",
) -> str | None:
    """The tactic (after the identity's goal is stated, its definitions unfolded) proving the identity of
    ``sides`` through its log-linear normal form (see the module), or None when no side has a symbolic
    power or a logarithm to rewrite (``sb_identity`` suffices). ``signed(tree)`` proves 0 < tree for a
    base that is not a number or a variable (``sb_positive`` when None). :class:`Untranslatable` when a power
    or a logarithm is outside the route."""
    powers: list[Any] = []
    for side in sides:
        powers += [node for node in symbolic(side) if node not in powers]
    if not all(positive(node[1]) for node in powers):
        raise Untranslatable("a symbolic power of a base that may reach 0 (sb_rpow)")
    rewrites, numbers = log_rewrites(sides, positive)
    if not powers and not rewrites:
        return None
    atoms = _atoms(powers)
    facts = composite_logs(list(atoms.bases.values()) + [node[1] for node in powers] + numbers)
    return facts + rewrites + _power_rewrites(sides, atoms, powers, positive, signed) + closing


def _power_rewrites(
    sides: list[Any],
    atoms: _Atoms,
    powers: list[Any],
    positive: Callable[[Any], bool],
    signed: Callable[[Any], str] | None,
) -> str:
    """The ``set`` of every base that is not a number or a variable (its positivity first) and the
    ``replace`` of every symbolic power by its atoms' product (see the module), outermost first."""
    opaque = sorted(
        (key for key, base in atoms.bases.items() if base[0] not in ("num", "var")),
        key=lambda key: -len(term(atoms.bases[key], positive)),
    )
    names = {key: f"_o{index}" for index, key in enumerate(opaque, start=1)}
    back = {name: atoms.bases[key] for key, name in names.items()}

    def shown(tree: Any) -> str:
        """The Coq term of a tree with the set bases by their names (``v__o<k>``)."""
        return term(_named(tree, names), lambda base: positive(substituted(base, back)))

    script = ""
    for key in opaque:
        text, name = term(atoms.bases[key], positive), variable(names[key])
        proof = signed(atoms.bases[key]) if signed is not None else "sb_positive"
        script += f"assert (P{name} : 0 < {text}) by ({proof});\n  set ({name} := {text}) in *;\n  "
    ordered = sorted(zip(powers, atoms.forms, strict=True), key=lambda pair: -len(term(pair[0], positive)))
    seen = [node for side in sides for node in symbolic(_named(side, names))]
    for node, form in ordered:
        if _named(node, names) not in seen:
            continue  # only inside a set base
        before, after = shown(node), atoms.product(form, lambda key: shown(atoms.bases[key]))
        if before != after.removeprefix("(").removesuffix(")"):
            script += f"replace {before} with {after} by sb_power_atom;\n  "
    return script


def _named(tree: Any, names: dict[str, str]) -> Any:
    """The tree with every subtree of ``names`` (by key) replaced by the variable of its name."""
    if _key(tree) in names:
        return ["var", names[_key(tree)]]
    return [tree[0], *(_named(a, names) if isinstance(a, list) else a for a in tree[1:])]


def _atoms(powers: list[Any]) -> _Atoms:
    """The atoms of the powers' bases, or :class:`Untranslatable` when sympy finds no integer basis."""
    try:
        return _Atoms(powers)
    except (ValueError, TypeError, sp.PolynomialError) as error:
        raise Untranslatable(f"the exponents have no integer basis: {error}") from None
