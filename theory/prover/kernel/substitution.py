"""The change of variables: gap(x) = M(x) * H(phi(x)), H >= 0 decided over a set U containing phi's range.

A decision ``{"method": "substitute", "multiplier": M, "form": H, "map": {u: PHI_u}, "domain": U,
"boxes": [{box, decision}, ...]}`` on a box B of the domain holds when

1. the gap is defined on B, and M's enclosure on B is >= 0 (> 0 when the claim is strict);
2. every PHI_u's values on B lie in U's set of u: by the enclosure of PHI_u in balls, or, for PHI_u
   written ceiling(Z) - Z, by the rule ceiling(z) - z in [0, 1) for every real z (Z defined on B); an
   integer u of U needs PHI_u an integer variable of the domain;
3. the exact normal form of gap - M * H[u := PHI_u] is 0 (:mod:`theory.prover.kernel.exact`, with the
   variables whose range on B lies in (0, oo) given as positive: logs and powers of positive monomials
   expand, e.g. log(a/b) = log a - log b, (a/b)^(-2/p) = a^(-2/p) b^(2/p));
4. the boxes cover U (a guillotine partition, as a certificate's) and each box's decision proves H >= 0
   (> 0) on it.

Then at every x of B, phi(x) lies in U, so H(phi(x)) >= 0 (> 0), and gap(x) = M(x) H(phi(x)) >= 0 (> 0):
the identity holds at x because gap, M and H(phi(x)) are all defined there (the gap and M by their
enclosures on B, H by the decisions over U, which enclose it). Both pieces of Theorem 4.1's chain that
vanish on the diagonal a = b take this step with u = a / b (ln b - ln a - 1 + a/b = u - 1 - ln u, and
f(a) - f(b) - f'(b)(a - b) = b^(-2/p) (u^(-2/p) - 1 + (2/p)(u - 1)) for f(k) = k^(-2/p)), and the
ceiling facts with t = ceiling(z) - z (z + 1 - ceiling(z) = 1 - t). Provenance: derived (substitution;
the ring identities and exponent laws of the normal form; ceiling(z) - z in [0, 1)).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from theory.prover.kernel import exact, trees, verify
from theory.prover.kernel.balls import Set, Undefined, infinite
from theory.prover.kernel.nodes import rebuilt
from theory.prover.kernel.trees import Malformed, ball


def substitute(tree: Any, mapping: dict[str, Any]) -> Any:
    """The tree with every variable of ``mapping`` replaced by its tree (simultaneously)."""
    if tree[0] == "var":
        return mapping.get(tree[1], tree)
    return rebuilt(tree, lambda arg: substitute(arg, mapping))


def fractional_part_argument(tree: Any) -> Any | None:
    """Z when the tree is written ceiling(Z) - Z, i.e. ["add", ["ceiling", Z], ["mul", ["num", "-1"], Z]]."""
    if (
        isinstance(tree, list)
        and len(tree) == 3
        and tree[0] == "add"
        and isinstance(tree[1], list)
        and tree[1][0] == "ceiling"
        and tree[2] == ["mul", ["num", "-1"], tree[1][1]]
    ):
        return tree[1][1]
    return None


def _within(values: Set, target: verify.Variable) -> bool:
    """Every member of ``values`` lies in target's set (rigorously)."""

    def inside(end: Any, end_open: bool, bound: verify.Bound, bound_open: bool, lower: bool) -> bool:
        if infinite(bound):
            return True
        if infinite(end):
            return False
        edge = ball(Fraction(bound))
        if bool(end > edge) if lower else bool(end < edge):
            return True
        return bool(end == edge) and (end_open or not bound_open)

    return inside(values.lo, values.lo_open, target.lower, target.lower_open, True) and inside(
        values.hi, values.hi_open, target.upper, target.upper_open, False
    )


def _range(tree: Any, env: dict[str, Set]) -> Set:
    """A set containing the tree's values on the box ``env`` (ceiling(Z) - Z by its rule)."""
    argument = fractional_part_argument(tree)
    if argument is not None:
        trees.enclose(argument, env)  # Z must be defined on the box
        return Set(ball(Fraction(0)), ball(Fraction(1)), False, True)
    return trees.enclose(tree, env)


def range_failure(
    name: str, value: Any, target: verify.Variable, box: verify.Box, domain: dict[str, verify.Variable]
) -> str | None:
    """Why the values of ``value`` on the box are not shown inside ``target``'s set (None when they are):
    by their enclosure at the kernel's highest precision (ceiling(Z) - Z by its rule); an integer target
    needs an integer variable of the domain."""
    if target.integer and not (value[0] == "var" and domain[value[1]].integer):
        return f"{name} is an integer variable but its value is not one"
    try:
        with verify.precision(verify.PRECISIONS[-1]):
            values = _range(value, verify.environment(box, domain))
    except Undefined:
        return f"the value of {name} is not defined on the whole of {verify.show(box)}"
    if not _within(values, target):
        return f"the values of {name} on {verify.show(box)} are not shown inside its domain"
    return None


def positive_names(env: dict[str, Set]) -> frozenset[str]:
    """The variables whose range on the box lies in (0, oo)."""
    return frozenset(
        name
        for name, values in env.items()
        if not infinite(values.lo) and (bool(values.lo > 0) or (values.lo_open and values.lo.is_zero()))
    )


def vanishes_on(difference: Any, box: verify.Box, domain: dict[str, verify.Variable]) -> bool:
    """The exact normal form of ``difference`` is 0 with the box's point ranges substituted and the
    variables whose range on the box lies in (0, oo) given as positive (:func:`exact.vanishes`)."""
    return exact.vanishes(
        difference, verify.fixed_points(box), positive_names(verify.environment(box, domain))
    )


def decide(
    decision: dict[str, Any],
    tree: Any,
    box: verify.Box,
    domain: dict[str, verify.Variable],
    strict: bool,
    depth: int,
) -> str | None:
    """None when the change of variables of the module docstring proves the claim on the box, else why not."""
    target = verify.read_domain(decision.get("domain"))
    form, multiplier, mapping = decision.get("form"), decision.get("multiplier"), decision.get("map")
    trees.validate(form, set(target))
    trees.validate(multiplier, set(box))
    if not isinstance(mapping, dict) or set(mapping) != set(target):
        raise Malformed(f"a substitution's map must give every variable of its domain: {sorted(target)}")
    for value in mapping.values():
        trees.validate(value, set(box))
    if not verify.defined(tree, box, domain):
        return verify.undefined(box)
    if verify.decide({"method": "enclosure"}, multiplier, box, domain, strict) is not None:
        return f"the multiplier is not shown {'> 0' if strict else '>= 0'} on {verify.show(box)}"
    for name, value in mapping.items():
        failure = range_failure(name, value, target[name], box, domain)
        if failure is not None:
            return failure
    difference = ["add", tree, ["mul", ["num", "-1"], multiplier, substitute(form, mapping)]]
    if not vanishes_on(difference, box, domain):
        return (
            f"the gap is not multiplier * form(map) on {verify.show(box)} (their exact normal forms differ)"
        )
    records = decision.get("boxes")
    if not isinstance(records, list) or not records:
        raise Malformed("a substitution needs a non-empty list of boxes over its domain")
    entries = verify.read_entries(records, target)
    gap = verify.covers([inner for inner, _ in entries], target)
    if gap is not None:
        return f"the substitution's boxes do not cover its domain: {gap}"
    for inner, step in entries:
        reason = verify.decide(step, form, inner, target, strict, depth + 1)
        if reason is not None:
            return f"after the substitution, box {verify.show(inner)}: {reason}"
    return None


verify.STEPS["substitute"] = decide
