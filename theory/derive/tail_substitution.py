"""Changes of variables that bring a half-line claim gap(L) >= 0 on [L0, oo) to a form the tail's methods
(:func:`theory.derive.tail.squares_first`) decide, each a ``substitute`` step the kernel re-checks
(:mod:`theory.prover.kernel.substitution`: the identity gap = form(map) in exact normal form, and every
mapped value's range on the box inside the new variable's set).

1. **Ceilings**: every ceiling(Z) of the gap becomes Z + t with t = ceiling(Z) - Z in [0, 1) (the kernel's
   rule for that value). The form is then continuous in L, so it has a derivative.
2. **Sums in L under a logarithm or a fractional power**: such a sum X, of largest L-exponent d, becomes
   L^d r with r = X L^(-d) (the sum written term by term, every power of L in it <= 0), whose range on
   [L0, oo) is a bounded interval [r_lo, r_hi], enclosed in balls and widened to rationals. E.g. the l2
   bound's ln((k L + t + 2)(3/2 (k L + t) + 3/2)) becomes ln(L^2 r) with r in [3 k^2 / 2, ...].
3. **Expansion**: the same form with ln(L^d r) written d ln L + ln r and (L^d r)^q as L^(d q) r^q (an
   identity map: the kernel's normal form with L and every r shown > 0 on the box).

The last form is a polynomial in powers of L, ln L and bounded parameters (t, r), so its derivatives in L
are enclosed on the half-line. It is decided as a sum: with upper - lower its gap and T_1 ... T_n the
terms of lower that depend on L (the others together as one), (1/n) upper - T_i >= 0 for each i, by
:func:`theory.derive.tail.squares_first` (the kernel's ``sum`` step). The decision holds for every value
of the parameters in their ranges, hence at the values the map gives. Provenance: derived (decided by the
code; every step kernel-checked).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from theory.derive.instance import difference_tree
from theory.prover.kernel.trees import dyadic, mentions

ONE = ["num", "1"]
MAX_LEVELS = 3
"""How many times steps 2 and 3 may repeat."""


def _nodes(tree: Any) -> Iterator[Any]:
    if isinstance(tree, list):
        yield tree
        for argument in tree[1:]:
            yield from _nodes(argument)


def _replaced(tree: Any, table: list[tuple[Any, Any]]) -> Any:
    """The tree with every subtree equal to an ``old`` of the table replaced by its ``new``."""
    if not isinstance(tree, list):
        return tree
    for old, new in table:
        if tree == old:
            return new
    return [tree[0], *(_replaced(argument, table) for argument in tree[1:])]


def _variable(name: str, lower: str, upper: str, upper_open: bool) -> dict[str, Any]:
    return {
        "name": name,
        "lower": lower,
        "upper": upper,
        "lower_open": False,
        "upper_open": upper_open,
        "integer": False,
    }


def _fresh(prefix: str, taken: set[str]) -> Iterator[str]:
    index = 0
    while True:
        if f"{prefix}{index}" not in taken:
            yield f"{prefix}{index}"
        index += 1


def _ceilings(gap: Any, names: Iterator[str]) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """(the form, the map of the new variables, their domain records): step 1."""
    found: list[Any] = []
    for node in _nodes(gap):
        if node[0] == "ceiling" and node not in found:
            found.append(node)
    fresh = [next(names) for _ in found]
    form = _replaced(gap, [(c, ["add", c[1], ["var", t]]) for c, t in zip(found, fresh, strict=True)])
    mapping = {t: difference_tree(c, c[1]) for c, t in zip(found, fresh, strict=True)}
    return form, mapping, [_variable(t, "0", "1", True) for t in fresh]


def _scaled_sum(tree: Any, name: str, env: Any) -> tuple[Fraction, Any, Any] | None:
    """(d, X L^(-d) as a tree, its enclosure on the box) for a sum X of several monomials in which L
    enters only as a power and not every monomial has the largest exponent d; None otherwise."""
    from theory.derive.tail import power_exponents
    from theory.prover.kernel.balls import Undefined
    from theory.prover.kernel.exact import as_tree, normal_form
    from theory.prover.kernel.trees import enclose

    form = normal_form(tree, {})
    if form is None or len(form) < 2:
        return None
    terms = as_tree(form)[1:]
    exponents = []
    for term in terms:
        own = power_exponents(["add", term], name)
        bare = [f for f in term[1:] if not (f[0] == "pow" and f[1] == ["var", name])]
        if any(mentions(factor, name) for factor in bare):
            return None
        exponents.append(own[0] if own else Fraction(0))
    largest = max(exponents)
    if all(e == largest for e in exponents):
        return None
    ratio = as_tree(normal_form(["mul", tree, ["pow", ["var", name], ["num", str(-largest)]]], {}) or {})
    try:
        return largest, ratio, enclose(ratio, env)
    except Undefined:
        return None


def _rational_ends(values: Any) -> tuple[Fraction, Fraction] | None:
    """Rationals lo <= every value <= hi of a bounded ball set with lo > 0, else None."""
    from theory.prover.kernel.balls import infinite

    if infinite(values.lo) or infinite(values.hi) or not bool(values.lo > 0):
        return None
    return dyadic(values.lo, True), dyadic(values.hi, False)


def _ratios(
    form: Any, name: str, env: Any, names: Iterator[str]
) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """(the form, the map of the new variables, their domain records): step 2."""
    table: list[tuple[Any, Any]] = []
    mapping: dict[str, Any] = {}
    records: list[dict[str, Any]] = []
    for node in _nodes(form):
        fractional = node[0] == "pow" and node[2][0] == "num" and Fraction(node[2][1]).denominator != 1
        argument = node[1] if node[0] == "log" or fractional else None
        if argument is None or not mentions(argument, name) or any(old == argument for old, _ in table):
            continue
        scaled = _scaled_sum(argument, name, env)
        ends = None if scaled is None else _rational_ends(scaled[2])
        if scaled is None or ends is None:
            continue
        r = next(names)
        power = ["pow", ["var", name], ["num", str(scaled[0])]]
        table.append((argument, ["mul", power, ["var", r]]))
        mapping[r] = scaled[1]
        records.append(_variable(r, str(ends[0]), str(ends[1]), False))
    return _replaced(form, table), mapping, records


def _substitute(
    form: Any, mapping: dict[str, Any], domain: list[dict[str, Any]], then: Any
) -> dict[str, Any]:
    box = {v["name"]: [v["lower"], v["upper"]] for v in domain}
    return {
        "method": "substitute",
        "multiplier": ONE,
        "form": form,
        "map": mapping,
        "domain": domain,
        "boxes": [{"box": box, "decision": then}],
    }


def _upper_lower(form: Any) -> tuple[Any, Any] | None:
    """(upper, lower) of a form written upper - lower (``difference_tree``), else None."""
    if form[0] == "add" and len(form) == 3 and form[2][:2] == ["mul", ["num", "-1"]]:
        return form[1], form[2][2]
    return None


def _by_terms(form: Any, name: str, box: Any, domain: Any) -> dict[str, Any] | None:
    """The sum decision of the module docstring for form = upper - lower; None when a part is not decided."""
    from theory.derive.tail import squares_first
    from theory.prover.kernel.exact import as_tree, normal_form

    sides = _upper_lower(form)
    if sides is None:
        return None
    upper, lower = sides
    terms = as_tree(normal_form(lower, {}) or {})[1:]
    moving = [t for t in terms if mentions(t, name)]
    fixed = [t for t in terms if not mentions(t, name)]
    groups = moving + ([["add", *fixed]] if fixed else [])
    if not groups:
        return None
    share = ["mul", ["num", f"1/{len(groups)}"], upper]
    parts = []
    for group in groups:
        part = difference_tree(share, group)
        decision = squares_first(part, name, box, domain)
        if decision is None:
            return None
        parts.append({"form": part, "then": decision})
    return {"method": "sum", "parts": parts}


def substituted_decision(gap: Any, name: str, start: Fraction) -> dict[str, Any] | None:
    """A decision of gap >= 0 on the box [start, oo) of the half-line (``name`` its variable) by the
    changes of variables of the module docstring (steps 2 and 3 repeated while a sum in L is left, e.g.
    a sum of powers of (4 L + 1) under a square root once (4 L + 1) is L r) and the sum of parts; None
    when nothing changes or a part is not decided. The caller has the kernel re-check it."""
    from theory.prover.kernel.exact import as_tree, normal_form
    from theory.prover.kernel.verify import environment, read_box, read_domain

    def box_of(domain: list[dict[str, Any]]) -> tuple[Any, Any]:
        kernel_domain = read_domain(domain)
        return read_box({v["name"]: [v["lower"], v["upper"]] for v in domain}, kernel_domain), kernel_domain

    if start <= 0:
        return None  # L^d r needs L > 0
    form, ceilings, domain = _ceilings(gap, _fresh("t", {name}))
    domain = [_variable(name, str(start), "oo", True), *domain]
    levels: list[tuple[Any, dict[str, Any], list[dict[str, Any]]]] = []
    if ceilings:
        levels.append((form, {name: ["var", name], **ceilings}, domain))
    ratio_names = _fresh("r", {name})
    for _ in range(MAX_LEVELS):
        box, kernel_domain = box_of(domain)
        ratioed, ratios, bounded = _ratios(form, name, environment(box, kernel_domain), ratio_names)
        if not ratios:
            break
        kept = {v["name"]: ["var", v["name"]] for v in domain}
        domain = [*domain, *bounded]
        levels.append((ratioed, {**kept, **ratios}, domain))
        sides = _upper_lower(ratioed)
        if sides is None:
            return None
        positive = frozenset([name, *(v["name"] for v in domain if Fraction(v["lower"]) > 0)])
        expanded_lower = normal_form(sides[1], {}, positive)
        if expanded_lower is None:
            return None
        form = difference_tree(sides[0], as_tree(expanded_lower))
        levels.append((form, {v["name"]: ["var", v["name"]] for v in domain}, domain))
    if not levels:
        return None
    box, kernel_domain = box_of(domain)
    decision = _by_terms(form, name, box, kernel_domain)
    for level_form, mapping, level_domain in reversed(levels):
        if decision is None:
            return None
        decision = _substitute(level_form, mapping, level_domain, decision)
    return decision
