"""Candidate changes of variables for the kernel's ``substitute`` step (:mod:`.kernel.substitution`).

- a ratio u = x / y of two positive variables: the gap with x := u y, in exact normal form with the
  positive variables given, is a monomial M free of u times a rest H free of y (a gap homogeneous in
  (x, y)); H is then decided over u in (0, oo) and the other variables of H, one variable fewer. A gap
  that is 0 along the diagonal x = y (ln y - ln x - 1 + x/y) becomes one that is 0 at the point u = 1;
  the guillotine cover separates a point, not a diagonal;
- t = ceiling(Z) - Z for a ceiling of the gap: H is the gap with ceiling(Z) replaced by Z + t, decided with
  t in [0, 1) (z + 1 - ceiling(z) becomes 1 - t, which no cover of a half-line in z decides).

The search proposes and decides H with a nested search (no further substitution); the kernel re-checks
the identity, the ranges and the nested cover itself. Provenance: derived (the decision procedure).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from theory.prover import rewrites
from theory.prover.certificate import Decision, domain_of
from theory.prover.domain import Domain, format_bound
from theory.prover.kernel import exact, trees
from theory.prover.kernel import verify as kernel
from theory.prover.kernel.substitution import positive_names, substitute
from theory.prover.language import from_tree
from theory.prover.result import InequalityResult
from theory.prover.statement import Inequality

Variables = dict[str, kernel.Variable]
Candidate = tuple[Any, Any, dict[str, Any], list[dict[str, Any]]]
"""(multiplier, form over the new domain, map from the new variables to trees, the new domain's records)."""


def _record(name: str, box: kernel.Box, domain: Variables) -> dict[str, Any]:
    """The domain record of a variable restricted to its range on the box."""
    lo, hi = box[name]
    variable = domain[name]
    return {
        "name": name,
        "lower": format_bound(lo),
        "upper": format_bound(hi),
        "lower_open": variable.open_at(lo, True),
        "upper_open": variable.open_at(hi, False),
        "integer": variable.integer,
    }


def _fresh(stem: str, taken: set[str]) -> str:
    name, index = stem, 0
    while name in taken:
        index += 1
        name = f"{stem}{index}"
    return name


def _ceiling(tree: Any) -> Any | None:
    """The first ceiling subtree of the tree (depth first), or None."""
    if tree[0] == "ceiling":
        return tree
    for arg in tree[1:]:
        if isinstance(arg, list):
            found = _ceiling(arg)
            if found is not None:
                return found
    return None


def _replace(tree: Any, old: Any, new: Any) -> Any:
    if tree == old:
        return new
    return [tree[0], *(_replace(arg, old, new) if isinstance(arg, list) else arg for arg in tree[1:])]


def ceiling_candidate(tree: Any, box: kernel.Box, domain: Variables) -> Candidate | None:
    """t = ceiling(Z) - Z for the gap's first ceiling (see the module docstring)."""
    part = _ceiling(tree)
    if part is None:
        return None
    t = _fresh("t", set(box))
    form = _replace(tree, part, ["add", part[1], ["var", t]])
    mapping: dict[str, Any] = {name: ["var", name] for name in box}
    mapping[t] = ["add", part, ["mul", ["num", "-1"], part[1]]]
    records = [_record(name, box, domain) for name in box]
    records.append(
        {"name": t, "lower": "0", "upper": "1", "lower_open": False, "upper_open": True, "integer": False}
    )
    return ["num", "1"], form, mapping, records


def ratio_candidates(tree: Any, box: kernel.Box, domain: Variables) -> Iterator[Candidate]:
    """u = x / y for positive ranged variables x, y where the gap is M(y, ...) * H(u, ...)."""
    positive = positive_names(kernel.environment(box, domain))
    ranged = [name for name in box if box[name][0] != box[name][1] and name in positive]
    u = _fresh("u", set(box))
    for x in ranged:
        for y in ranged:
            if x == y:
                continue
            scaled = substitute(tree, {x: ["mul", ["var", u], ["var", y]]})
            form = exact.normal_form(scaled, {}, positive | {u})
            if not form:
                continue
            split = rewrites.common_monomial(form)
            multiplier, rest = split if split is not None else (["num", "1"], form)
            rest_tree = exact.as_tree(rest)
            if (
                trees.mentions(rest_tree, y)
                or trees.mentions(multiplier, u)
                or not trees.mentions(rest_tree, u)
            ):
                continue
            others = [name for name in box if name not in (x, y) and trees.mentions(rest_tree, name)]
            records = [_record(name, box, domain) for name in others]
            records.insert(
                0,
                {
                    "name": u,
                    "lower": "0",
                    "upper": "oo",
                    "lower_open": True,
                    "upper_open": True,
                    "integer": False,
                },
            )
            mapping = {u: ["mul", ["var", x], ["pow", ["var", y], ["num", "-1"]]]}
            mapping.update({name: ["var", name] for name in others})
            yield multiplier, rest_tree, mapping, records


def candidates(tree: Any, box: kernel.Box, domain: Variables) -> Iterator[Candidate]:
    """Every candidate change of variables for the gap on the box (ceiling first, then ratios)."""
    found = ceiling_candidate(tree, box, domain)
    if found is not None:
        yield found
    yield from ratio_candidates(tree, box, domain)


def find(
    tree: Any,
    strict: bool,
    box: kernel.Box,
    domain: Variables,
    deadline: float,
    search: Callable[[Inequality, Domain, float], InequalityResult],
    canonical: bool = True,
) -> Decision | None:
    """A ``substitute`` decision the kernel accepts on the box, each candidate's form decided by ``search``
    (the search without substitutions) within half the time left, or None. With ``canonical`` (a gap read
    by sympy) the form is searched as sympy writes it; else (a typed gap tree) as built here, without
    sympy."""
    for multiplier, form, mapping, records in candidates(tree, box, domain):
        left = deadline - time.process_time()
        if left <= 0:
            return None
        target = domain_of(records)
        text = "the gap after a change of variables"
        if canonical:
            inequality = Inequality(text, from_tree(form, target.symbols()), strict)
        else:
            inequality = Inequality(text, None, strict, tree=form)
        result = search(inequality, target, left / 2)
        certificate = result.certificate
        if certificate is None:
            continue
        nested = certificate.to_json()
        decision = {
            "method": "substitute",
            "multiplier": multiplier,
            "form": nested["gap"],
            "map": mapping,
            "domain": records,
            "boxes": nested["boxes"],
        }
        if kernel.decide(decision, tree, box, domain, strict) is None:
            return decision
    return None
