"""A step as an instance of a proved fact h(y) >= 0 over D_h: what makes it valid over the step's domain D.

The step's gap g (rhs - lhs for <, <=; lhs - rhs for >, >=) is an instance of the fact under a substitution
sigma (y_j := e_j(x)) with a factor f when

1. identity: the kernel's exact normal form (:mod:`theory.prover.kernel.exact`) of g - f h(sigma(x)) is 0,
   or of (g - f h(sigma(x))) m for a multiplier m > 0 on D (a compound m is kept whole until it cancels);
   sympy's normal form (:func:`theory.prover.chain.identically_zero`) instead makes the step derived only;
2. definedness: g is defined on the whole of D (the kernel's enclosure raises nothing there);
3. obligations, each proved over D by a kernel-checked certificate: f >= 0 (> 0 for a strict step; none
   when f's normal form is a positive number), m > 0, and sigma(D) in D_h: for every y_j whose e_j is not
   a variable of D whose set lies in y_j's, e_j - low_j >= 0 and high_j - e_j >= 0 at its finite ends
   (> 0 at an open end); an integer y_j takes only such a variable. An obligation the prover leaves open
   may instead hold by sympy's assumptions (the symbols carry their sets; :func:`sign_by_sympy`): the
   step is then derived, not proved.

Then, at every point of D, g = f h(sigma(x)) with h(sigma(x)) >= 0 and f >= 0, so g >= 0 (> 0 when the
fact and f are strict). Provenance: derived (the decomposition is checked, each obligation by the kernel).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from theory.prover.domain import Domain

EXACT, SYMPY = "exact", "sympy"


def substitute(tree: Any, values: dict[str, Any]) -> Any:
    """The tree with every ["var", name] of ``values`` replaced by its tree."""
    if tree[0] == "var":
        return values.get(tree[1], tree)
    return [tree[0], *(substitute(a, values) if isinstance(a, list) else a for a in tree[1:])]


def _number(value: Fraction) -> list[str]:
    return ["num", str(value)]


def negated(tree: Any) -> list[Any]:
    """-tree."""
    return ["mul", ["num", "-1"], tree]


def difference_tree(lhs: Any, rhs: Any) -> list[Any]:
    """lhs - rhs."""
    return ["add", lhs, negated(rhs)]


def obligations(
    factor: Any,
    multiplier: Any | None,
    substitution: dict[str, Any],
    fact_domain: Domain,
    step_domain: Domain,
    strict: bool,
) -> list[tuple[str, Any, bool]] | str:
    """(what, tree, strict) for every inequality tree >= 0 (> 0) to be proved over the step's domain
    (module docstring, item 3), or why the fact cannot apply (a variable not given, an integer one given
    an expression)."""
    import sympy as sp

    from theory.prover.chain import range_holds
    from theory.prover.kernel.exact import ONE, normal_form

    if set(substitution) != set(fact_domain.names):
        return f"the substitution must give exactly the fact's variables {', '.join(fact_domain.names)}"
    needed: list[tuple[str, Any, bool]] = []
    constant = normal_form(factor, {})
    if not (constant is not None and set(constant) == {ONE} and constant[ONE] > 0):
        needed.append(("factor", factor, strict))
    if multiplier is not None:
        needed.append(("multiplier", multiplier, True))
    for variable in fact_domain.variables:
        value = substitution[variable.name]
        inside = value[0] == "var" and value[1] in step_domain.names
        if inside and range_holds(sp.Symbol(value[1]), variable, step_domain):
            continue
        if variable.integer:
            return f"the integer variable {variable.name} takes only a variable whose set lies in its own"
        if isinstance(variable.lower, Fraction):
            needed.append(
                (
                    f"{variable.name} above its lower end",
                    difference_tree(value, _number(variable.lower)),
                    variable.lower_open,
                )
            )
        if isinstance(variable.upper, Fraction):
            needed.append(
                (
                    f"{variable.name} below its upper end",
                    difference_tree(_number(variable.upper), value),
                    variable.upper_open,
                )
            )
    return needed


def identity(
    gap: Any, factor: Any, fact_gap: Any, substitution: dict[str, Any], multiplier: Any | None, domain: Domain
) -> str | None:
    """EXACT when the kernel's exact normal form of gap - factor * fact_gap(substitution) (times the
    multiplier) is 0, SYMPY when only sympy's normal form reaches 0, None otherwise."""
    from theory.prover.chain import identically_zero
    from theory.prover.kernel.exact import normal_form, normal_form_times
    from theory.prover.language import from_tree

    difference = difference_tree(gap, ["mul", factor, substitute(fact_gap, substitution)])
    form = (
        normal_form(difference, {}) if multiplier is None else normal_form_times(difference, multiplier, {})
    )
    if form == {}:
        return EXACT
    product = difference if multiplier is None else ["mul", difference, multiplier]
    return SYMPY if identically_zero(from_tree(product, domain.symbols(), "the step")) else None


def defined_on(tree: Any, domain: Domain) -> bool:
    """The tree is defined on the whole domain (the kernel's enclosure over the domain's box)."""
    from theory.prover.certificate import domain_data
    from theory.prover.kernel.verify import defined, read_domain

    kernel_domain = read_domain(domain_data(domain))
    box = {name: (variable.lower, variable.upper) for name, variable in kernel_domain.items()}
    return defined(tree, box, kernel_domain)


def sign_by_sympy(tree: Any, strict: bool, domain: Domain) -> bool:
    """sympy's assumptions show tree > 0 (strict) or >= 0 from the signs the domain's symbols carry."""
    from theory.prover.language import from_tree

    expr = from_tree(tree, domain.symbols(), "an obligation")
    return (expr.is_positive if strict else expr.is_nonnegative) is True
