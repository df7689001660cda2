"""One kernel certificate for lower <= upper on a half-line [L0, oo): the tail of a crossover.

The decision is built, in one box [L0, oo), from the kernel's own methods (:mod:`theory.prover.kernel`):

- ``squares``: upper - lower with both sides >= 0 holds when upper^2 - lower^2 >= 0 (so a square root or
  a half power of a log becomes a polynomial in L and ln L);
- ``rewrite`` to the exact normal form (exponents of one base added, like terms collected);
- ``monotone`` increasing in L, its ``slope`` (the kernel's own symbolic derivative) decided the same way
  on the half-line, then the face L = L0 by enclosure: g' >= 0 on [L0, oo) and g(L0) >= 0 give g >= 0;
- ``scale`` by L^q > 0 when the normal form has negative fractional powers of L (q the largest of
  their magnitudes), so that a slope such as 6 c - k L^(-4/3) (a ln L + b) becomes
  6 c L^(4/3) - k (a ln L + b), whose slope is enclosed on the half-line;
- ``enclosure`` where the ball enclosure on the whole half-line is already >= 0.

A gap with ceilings, or with logarithms and fractional powers of sums in L, is first brought to such a
form by the kernel's change of variables (:mod:`theory.derive.tail_substitution`); the certificate is
assembled in :mod:`theory.derive.half_line`.

e.g. L^(3/2) - 100 sqrt(L ln L) >= 0 on [234, oo): squares give L^3 - 10^4 L ln L, whose slope
3 L^2 - 10^4 (ln L + 1) has the slope 6 L - 10^4 / L, enclosed >= 0 on [234, oo); each face at 234 is
enclosed. The search below only proposes the decision: the kernel re-checks the whole certificate (and
``prove --check`` can again). A claim over the reals [L0, oo) covers the integers L >= L0 too.
Provenance: derived (decided by the code; every step kernel-checked).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from theory.prover.domain import Domain, VariableDomain

MAX_SLOPES = 12
"""How many derivatives deep the decision may go (one monotone step each)."""


def half_line(name: str, start: Fraction) -> Domain:
    """[start, oo) over the reals."""
    return Domain((VariableDomain(name, start, float("inf"), False, True, False),))


def _accepted(decision: dict[str, Any], tree: Any, box: Any, domain: Any) -> bool:
    from theory.prover.kernel import Malformed
    from theory.prover.kernel.verify import decide

    try:
        return decide(decision, tree, box, domain, False) is None
    except (Malformed, ArithmeticError, ValueError, TypeError):
        return False


class _Seen:
    """What the search has computed on one box: the normal forms and the ball enclosures' signs of the
    trees it met, by their JSON text (a slope's tree is met as a tree and again as its normal form's
    tree, and one form's enclosure is needed by both)."""

    def __init__(self, box: Any, domain: Any) -> None:
        self.box, self.domain = box, domain
        self.forms: dict[str, Any] = {}
        self.signs: dict[str, bool | None] = {}

    def form(self, tree: Any) -> Any:
        """The tree of the exact normal form of ``tree`` (no point substituted), or None when too large."""
        from theory.prover.kernel.exact import as_tree, normal_form

        key = json.dumps(tree, separators=(",", ":"))
        if key not in self.forms:
            form = normal_form(tree, {})
            self.forms[key] = None if form is None else as_tree(form)
        return self.forms[key]

    def enclosed(self, tree: Any) -> bool | None:
        """The ball enclosure of the tree on the box is >= 0 at one of the kernel's precisions (False:
        at none; None: undefined somewhere on the box)."""
        from theory.prover.kernel.verify import at_least_zero, environment

        key = json.dumps(tree, separators=(",", ":"))
        if key not in self.signs:
            self.signs[key] = at_least_zero(tree, environment(self.box, self.domain), False)
        return self.signs[key]

    def may_enclose(self, tree: Any) -> bool:
        """False only when the kernel's ``enclosure`` step is sure to fail on the box: the box fixes no
        variable (so the kernel's normal form is this one's) and neither the tree nor its normal form is
        enclosed >= 0 at the kernel's precisions, the two enclosures that step tries. A cheap pre-check:
        the step itself is still decided by the kernel."""
        from theory.prover.kernel.verify import fixed_points

        if fixed_points(self.box) or self.enclosed(tree) is not False:
            return True
        form = self.form(tree)
        return form is not None and self.enclosed(form) is not False

    def encloses(self, tree: Any) -> bool:
        """The kernel accepts the ``enclosure`` step for the tree on the box (asked only when the
        pre-check does not rule it out)."""
        return self.may_enclose(tree) and _accepted(_enclosure(), tree, self.box, self.domain)


def _enclosure() -> dict[str, Any]:
    return {"method": "enclosure"}


def squares_first(gap: Any, name: str, box: Any, domain: Any) -> dict[str, Any] | None:
    """The decision of gap >= 0 on the box (``name`` its one unbounded variable; the others, if any, with
    bounded ranges) for gap = upper - lower: by squares when both sides are >= 0, else directly."""
    seen = _Seen(box, domain)
    direct = _decision(gap, name, seen, MAX_SLOPES)
    if direct is not None and (direct["method"] == "enclosure" or _accepted(direct, gap, box, domain)):
        return direct
    if not (gap[0] == "add" and len(gap) == 3 and gap[2][:2] == ["mul", ["num", "-1"]]):
        return None
    upper, lower = gap[1], gap[2][2]
    squares = ["add", ["mul", upper, upper], ["mul", ["num", "-1"], lower, lower]]
    then = _decision(squares, name, seen, MAX_SLOPES)
    if then is None:
        return None
    decision = {"method": "squares", "left": upper, "right": lower, "then": then}
    return decision if _accepted(decision, gap, box, domain) else None


def _decision(tree: Any, name: str, seen: _Seen, slopes: int, normal: bool = False) -> dict[str, Any] | None:
    """enclosure; else the rewrite to the exact normal form (``normal``: the tree is one already), decided
    the same way; else monotone increasing with a decided slope and the face L = L0 enclosed. Only the
    enclosures are asked of the kernel here: the caller has it check the whole decision once (each
    wrapper's check would re-check everything inside it, once per level)."""
    from theory.prover.kernel.derivative import derivative
    from theory.prover.kernel.trees import Discontinuous

    if seen.encloses(tree):
        return _enclosure()
    if not normal:
        form = seen.form(tree)
        if form is None:
            return None
        inner = _decision(form, name, seen, slopes, normal=True)
        return None if inner is None else {"method": "rewrite", "form": form, "then": inner}
    if slopes == 0:
        return None
    negative = [e for e in power_exponents(tree, name) if e < 0]
    if any(e.denominator != 1 for e in negative):
        return _scaled(tree, name, -min(negative), seen, slopes)
    try:
        slope_tree = derivative(tree, name)
    except Discontinuous:
        return None
    slope = _decision(slope_tree, name, seen, slopes - 1)
    if slope is None:
        return None
    return {
        "method": "monotone",
        "variable": name,
        "direction": "increasing",
        "slope": slope,
        "then": _enclosure(),
    }


def _scaled(tree: Any, name: str, power: Fraction, seen: _Seen, slopes: int) -> dict[str, Any] | None:
    """The tree (a normal form with a negative fractional power of L, the largest magnitude ``power``)
    times L^power, decided by :func:`_decision`: a ``scale`` step (L^power > 0 on the half-line keeps the
    sign). Without it the slopes keep L^(-4/3) ln L, which no enclosure bounds on [L0, oo)."""
    from theory.prover.kernel.exact import as_tree, normal_form_times

    by = ["pow", ["var", name], ["num", str(power)]]
    scaled = normal_form_times(tree, by, {})
    if scaled is None:
        return None
    inner = _decision(as_tree(scaled), name, seen, slopes - 1, normal=True)
    return None if inner is None else {"method": "scale", "by": by, "form": as_tree(scaled), "then": inner}


def power_exponents(form: Any, name: str) -> list[Fraction]:
    """The exponents of the variable in the monomials of a normal form's tree (``as_tree``: a sum of
    products whose factors are powers ["pow", atom, ["num", e]])."""
    terms = form[1:] if form[0] == "add" else [form]
    return [
        Fraction(factor[2][1])
        for term in terms
        for factor in (term[1:] if term[0] == "mul" else [term])
        if factor[0] == "pow" and factor[1] == ["var", name]
    ]
