"""Re-check a certificate from its JSON: the boxes cover the domain, and each box's decision holds.

Reading (anything else is :class:`Malformed`): the domain as variables with exact rational or infinite
ends, open flags and integer flags; the gap as a data tree; ``strict`` a JSON boolean; boxes as
{name: [lo, hi]} with a decision each. Decisions:

- ``{"method": "enclosure"}``: the enclosure of the gap on the box is >= 0 (> 0 when strict);
- ``{"method": "monotone", "variable": v, "direction": "increasing" | "decreasing", "then": decision}``:
  the forward-mode slope in v on the box with v's ends opened (the other variables' ranges as they are)
  has that sign, and the gap is defined on the closed box. By the mean value theorem the gap is then
  >= its value on the face v = lo (increasing) or v = hi (decreasing), which ``then`` decides. The face
  claim keeps the box's strictness, except at an open end of the domain (a point not in the set) with a
  strictly signed slope: there the face need only be >= 0 (the gap is strictly above it inside). At an
  infinite end the decision names ``"tail": X`` and ``then`` decides the gap on the tail towards that
  end: (-oo, X] when increasing (the face is at lo = -oo), [X, oo) when decreasing (at hi = oo); every
  other point of the box lies beyond X, where the gap is >= its value at X. A face at a finite end the
  domain leaves open is the gap's limit there only when the gap is defined on the box with that end
  closed and has no floor, ceiling or Piecewise in v (it is then continuous up to the end); otherwise
  the step is rejected.
- ``{"method": "scale", "by": m, "form": f, "then": decision}``: m is enclosed > 0 on the box, the gap
  is defined there and gap * m = f in exact normal form; ``then`` decides f (which has the gap's sign).
- ``{"method": "log", "left": A, "right": B, "then": decision}``: gap = A - B in exact normal form, A and B
  enclosed > 0 on the box; ``then`` decides log A - log B, each expanded by the kernel (:mod:`logs`).
- ``{"method": "sum", "parts": [{"form": T, "then": decision}, ...]}``: gap = the sum of the forms in
  exact normal form; each decision decides its form (with the claim's strictness).
- ``{"method": "unsigned", "then": decision}``: every |u| of the gap whose argument's enclosure on the box
  is >= 0 (<= 0) is written u (-u), which equals the gap on the box, and ``then`` decides that form.

Provenance: derived (interval analysis; mean value theorem for functions continuous on the closed box
and piecewise smooth inside).
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from theory.prover.kernel import derivative, exact, logs, signs, trees
from theory.prover.kernel.balls import Set, Undefined, flint, infinite
from theory.prover.kernel.trees import Discontinuous, Malformed, number

ctx = flint().ctx
"""python-flint's context (its working precision), through the kernel's guard."""


FORMAT = "specbound-certificate/2"
PRECISIONS = (64, 256)
"""Bits of the balls: a decision that fails at the first is retried at the second."""
MAX_NESTING = 64

Bound = Fraction | float
Box = dict[str, tuple[Bound, Bound]]


@dataclass(frozen=True)
class Variable:
    """One variable's set: [lower, upper] with open ends, over the reals or the integers."""

    name: str
    lower: Bound
    upper: Bound
    lower_open: bool
    upper_open: bool
    integer: bool

    def open_at(self, value: Bound, lower: bool) -> bool:
        """value is an end of the set that the set does not contain."""
        if infinite(value):
            return True
        if lower:
            return self.lower_open and value == self.lower
        return self.upper_open and value == self.upper


def _bound(text: Any) -> Bound:
    if text in ("oo", "-oo"):
        return math.inf if text == "oo" else -math.inf
    return number(text)


def _flag(record: dict[str, Any], key: str) -> bool:
    value = record.get(key)
    if not isinstance(value, bool):
        raise Malformed(f"{key} of a domain variable must be true or false, not {value!r}")
    return value


def read_domain(data: Any) -> dict[str, Variable]:
    """name -> Variable; integer ends must be integers (closed), infinite ends are open."""
    if not (isinstance(data, list) and data):
        raise Malformed("the domain must be a non-empty list of variables")
    domain: dict[str, Variable] = {}
    for record in data:
        if (
            not isinstance(record, dict)
            or not isinstance(record.get("name"), str)
            or record["name"] in domain
        ):
            raise Malformed("a domain variable needs a name of its own")
        lower, upper = _bound(record.get("lower")), _bound(record.get("upper"))
        variable = Variable(
            record["name"],
            lower,
            upper,
            _flag(record, "lower_open"),
            _flag(record, "upper_open"),
            _flag(record, "integer"),
        )
        for end, is_open in ((lower, variable.lower_open), (upper, variable.upper_open)):
            if infinite(end) != is_open and (variable.integer or infinite(end)):
                raise Malformed(f"domain of {variable.name}: an end is open exactly when it is infinite")
            if variable.integer and not infinite(end) and Fraction(end).denominator != 1:
                raise Malformed(f"domain of {variable.name}: an integer variable's ends must be integers")
        if lower > upper or (lower == upper and (variable.lower_open or variable.upper_open)):
            raise Malformed(f"domain of {variable.name} is empty")
        domain[variable.name] = variable
    return domain


def read_box(data: Any, domain: dict[str, Variable]) -> Box:
    """{name: (lo, hi)} inside the domain's closure (integer ends integers)."""
    if not isinstance(data, dict) or set(data) != set(domain):
        raise Malformed(f"a box must give every variable of the domain: {sorted(domain)}")
    box: Box = {}
    for name, variable in domain.items():
        pair = data[name]
        if not (isinstance(pair, list) and len(pair) == 2):
            raise Malformed(f"the range of {name} in a box is not [lo, hi]")
        lo, hi = _bound(pair[0]), _bound(pair[1])
        if not (variable.lower <= lo <= hi <= variable.upper) or (infinite(lo) and lo == hi):
            raise Malformed(f"the range [{pair[0]}, {pair[1]}] of {name} leaves its domain")
        if variable.integer and any(not infinite(e) and Fraction(e).denominator != 1 for e in (lo, hi)):
            raise Malformed(f"the range of the integer variable {name} has a non-integer end")
        box[name] = (lo, hi)
    return box


def read_entries(records: list[Any], domain: dict[str, Variable]) -> list[tuple[Box, Any]]:
    """A certificate's (or a substitution's) box entries {box, decision} as (box, decision) pairs."""
    entries = []
    for record in records:
        if not isinstance(record, dict):
            raise Malformed("a box entry must be {box, decision}")
        entries.append((read_box(record.get("box"), domain), record.get("decision")))
    return entries


def show(box: Box) -> str:
    """The box as text, e.g. "x in [0, 1/2], y in [1, oo)"."""

    def end(value: Bound) -> str:
        return ("oo" if value > 0 else "-oo") if infinite(value) else str(value)

    return ", ".join(f"{name} in [{end(lo)}, {end(hi)}]" for name, (lo, hi) in box.items())


def environment(box: Box, domain: dict[str, Variable], opened: str | None = None) -> dict[str, Set]:
    """name -> Set of the box; ends not in the domain are open, and both ends of ``opened``. A point range
    (a face, also at an open end of the domain: the closure's point) is the attained point."""
    env = {}
    for name, (lo, hi) in box.items():
        variable = domain[name]
        ranged = lo != hi
        env[name] = trees.ranged(
            lo,
            hi,
            ranged and (name == opened or variable.open_at(lo, True)),
            ranged and (name == opened or variable.open_at(hi, False)),
        )
    return env


@contextlib.contextmanager
def precision(bits: int) -> Iterator[None]:
    """arb's working precision set to ``bits`` inside the block, restored after it."""
    saved = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = saved


def fixed_points(box: Box) -> dict[str, Fraction]:
    """The variables a box fixes (a point range) with their values: what a normal form substitutes."""
    return {name: Fraction(lo) for name, (lo, hi) in box.items() if lo == hi}


def simplified(tree: Any, box: Box) -> Any:
    """The exact normal form of the tree with the box's point ranges substituted (:mod:`exact`), or the
    tree itself when there is none within its size limits."""
    fixed = fixed_points(box)
    key = json.dumps(tree, separators=(",", ":"))
    return _simplified(key, tuple(sorted(fixed.items()))) or tree


@functools.lru_cache(maxsize=4096)
def _simplified(key: str, fixed: tuple[tuple[str, Fraction], ...]) -> Any:
    form = exact.normal_form(json.loads(key), dict(fixed))
    return None if form is None else exact.as_tree(form)


def clear_cache() -> None:
    """Forget the normal forms computed so far (a re-check then starts from the certificate alone)."""
    _simplified.cache_clear()


def at_least_zero(tree: Any, env: dict[str, Set], strict: bool) -> bool | None:
    """Whether the ball enclosure of the tree on the sets ``env`` shows tree >= 0 (> 0 when strict).

    The enclosure is taken at each of PRECISIONS in turn (64 bits, then 256 bits only when 64 bits did
    not decide): True at the first that shows the sign; None when an enclosure raises Undefined (the tree
    is not shown defined on the sets; no further precision is tried); False when no precision shows the
    sign (no refutation: the balls may only be too wide)."""
    try:
        for bits in PRECISIONS:
            with precision(bits):
                if trees.enclose(tree, env).at_least_zero(strict):
                    return True
    except Undefined:
        return None
    return False


def _holds(tree: Any, box: Box, domain: dict[str, Variable], strict: bool) -> bool:
    """The enclosure of the gap (defined on the box), or of its exact normal form, is >= 0 (> 0 when
    strict), at one of PRECISIONS (:func:`at_least_zero`)."""
    env = environment(box, domain)
    shown = at_least_zero(tree, env, strict)
    if shown is not False:
        return shown is True  # None: not defined on the box
    form = simplified(tree, box)
    return form is not tree and at_least_zero(form, env, strict) is True


def decide(
    decision: Any, tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int = 0
) -> str | None:
    """None when ``decision`` proves gap >= 0 (> 0 when strict) on the box, else why it does not."""
    if depth > MAX_NESTING or not isinstance(decision, dict):
        raise Malformed("a decision must be an object (nested at most 64 deep)")
    method = decision.get("method")
    if method == "enclosure":
        if _holds(tree, box, domain, strict):
            return None
        return f"the enclosure of the gap on {show(box)} is not {'> 0' if strict else '>= 0'}"
    if method in STEPS:
        return STEPS[method](decision, tree, box, domain, strict, depth)
    if method != "monotone":
        return f"unknown method {method!r}"
    name, direction = decision.get("variable"), decision.get("direction")
    if name not in box or direction not in ("increasing", "decreasing"):
        raise Malformed("a monotone decision needs a variable of the box and a direction")
    lo, hi = box[name]
    if lo == hi:
        return f"{name} is a single point on {show(box)}: nothing to be monotone in"
    if "slope" in decision:
        found = derived_direction(decision["slope"], direction, tree, box, domain, name, depth)
    else:
        found = monotone_direction(tree, box, domain, name)
    if isinstance(found, str):
        return found
    if found[0] != direction:
        return f"the slope in {name} on {show(box)} is not shown {direction}"
    increasing, strictly = direction == "increasing", found[1]
    end = lo if increasing else hi
    variable = domain[name]
    if infinite(end):
        return _tail(decision, tree, box, domain, increasing, strict and not strictly, depth)
    if variable.open_at(end, increasing):
        reason = reaches(tree, box, domain, name, increasing)
        if reason is not None:
            return reason
    face = {**box, name: (end, end)}
    face_strict = strict and not (strictly and variable.open_at(end, increasing))
    return decide(decision.get("then"), tree, face, domain, face_strict, depth + 1)


def reaches(tree: Any, box: Box, domain: dict[str, Variable], name: str, lower: bool) -> str | None:
    """None when the gap's value on the face at an open end of ``name``'s domain (a point not in the set)
    is its limit from inside the box: the gap is defined on the box with that end closed and has no floor,
    ceiling or Piecewise in ``name``, so it is continuous there; else why not."""
    variable = domain[name]
    closed = Variable(
        name,
        variable.lower,
        variable.upper,
        variable.lower_open and not lower,
        variable.upper_open and lower,
        variable.integer,
    )
    if not trees.continuous(tree, [name]) or not defined(tree, box, {**domain, name: closed}):
        end = box[name][0 if lower else 1]
        return f"the gap on {show(box)} is not shown continuous up to the open end {name} = {end}"
    return None


def monotone_direction(tree: Any, box: Box, domain: dict[str, Variable], name: str) -> tuple[str, bool] | str:
    """("increasing" | "decreasing", strictly) of the gap in ``name`` on the box, or why none is shown.

    The gap must be defined on the closed box. Its slope is enclosed on the box with ``name``'s ends
    opened; when the gap has no floor, ceiling or Piecewise in a variable with a range, every range is
    opened for the sign (the gap is then continuous on the closed box, so a non-strict monotonicity on the
    interior extends to the boundary), while strictness is only taken from the slope with ``name``'s ends
    opened alone (a limit of strictly monotone functions need not be strict)."""
    ranged = [n for n, (lo, hi) in box.items() if lo != hi]
    closed = environment(box, domain)
    reason = f"no slope in {name} on {show(box)}"
    if not defined_on([tree], closed):  # the gap is defined on the closed box
        return undefined(box)
    try:
        with precision(PRECISIONS[0]):
            own: Set | None = trees.slope(tree, environment(box, domain, opened=name), closed, name)
    except (Undefined, Discontinuous) as error:
        own, reason = None, f"{reason}: {error}"
        if isinstance(error, Discontinuous):
            return reason
    inner = own
    tree = simplified(tree, box)  # the same function on the box (it is defined there): its slope too
    if trees.continuous(tree, ranged):
        interior = {n: environment(box, domain, opened=n)[n] for n in box}
        try:
            with precision(PRECISIONS[0]):
                inner = trees.slope(tree, interior, closed, name)
        except (Undefined, Discontinuous):
            pass
    if inner is None:
        return reason
    for direction, signed in (("increasing", inner.at_least_zero), ("decreasing", inner.at_most_zero)):
        if signed(False):
            increasing = direction == "increasing"
            return direction, own is not None and (
                own.at_least_zero(True) if increasing else own.at_most_zero(True)
            )
    return f"the slope in {name} on {show(box)} has no sign"


def undefined(box: Box) -> str:
    """The reason given when the gap is not shown defined on the box."""
    return f"the gap is not defined on the whole of {show(box)}"


def defined_on(forms: Iterable[Any], env: dict[str, Set]) -> bool:
    """Every tree of ``forms`` is defined on the sets ``env``: its enclosure at PRECISIONS[0] raises no
    Undefined (the trees enclosed in turn, up to the first that raises it)."""
    try:
        with precision(PRECISIONS[0]):
            for tree in forms:
                trees.enclose(tree, env)
    except Undefined:
        return False
    return True


def defined(tree: Any, box: Box, domain: dict[str, Variable]) -> bool:
    """The tree is defined on the whole box (:func:`defined_on` the box's sets, their balls at
    PRECISIONS[0])."""
    with precision(PRECISIONS[0]):
        return defined_on([tree], environment(box, domain))


def _rewrite(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """The gap is defined on the box and the exact normal form of gap - form is 0, or of (gap - form) * m
    for a ``multiplier`` m shown > 0 or < 0 on the box (so form = gap wherever form is defined on the
    box); then ``then`` decides form >= 0 (> 0), which encloses form, so form is defined there too."""
    form = decision.get("form")
    if not defined(tree, box, domain):
        return undefined(box)
    fixed = fixed_points(box)
    trees.validate(form, set(box))
    difference: Any = ["add", tree, ["mul", ["num", "-1"], form]]
    if "multiplier" in decision:
        multiplier = decision["multiplier"]
        trees.validate(multiplier, set(box))
        if not (
            _holds(multiplier, box, domain, True)
            or _holds(["mul", ["num", "-1"], multiplier], box, domain, True)
        ):
            return f"the multiplier is not shown nonzero on {show(box)}"
        remainder = exact.normal_form_times(difference, multiplier, fixed)
    else:
        remainder = exact.normal_form(difference, fixed)
    if remainder != {}:
        return f"the rewritten form is not the gap on {show(box)} (their exact normal forms differ)"
    return decide(decision.get("then"), form, box, domain, strict, depth + 1)


def _scale(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """gap * m = form (exact normal forms, the compound factors of m kept as atoms until the products are
    formed: :func:`exact.normal_form_times`) for a multiplier m (``by``) enclosed > 0 on the box, where the
    gap is defined; then ``then`` decides form >= 0 (> 0), which has the gap's sign there."""
    multiplier, form = decision.get("by"), decision.get("form")
    trees.validate(multiplier, set(box))
    trees.validate(form, set(box))
    if not defined(tree, box, domain):
        return undefined(box)
    if not _holds(multiplier, box, domain, True):
        return f"the multiplier is not shown > 0 on {show(box)}"
    fixed = fixed_points(box)
    scaled = exact.normal_form_times(tree, multiplier, fixed)
    if scaled is None or scaled != exact.normal_form(form, fixed):
        return f"the gap times the multiplier is not the form on {show(box)} (exact normal forms differ)"
    return decide(decision.get("then"), form, box, domain, strict, depth + 1)


def _sides(tree: Any, parts: list[Any], box: Box, domain: dict[str, Variable], what: str) -> str | None:
    """None when the gap is defined on the box and its exact normal form is that of the sum of ``parts``
    (else why not: the gap is not ``what``)."""
    for part in parts:
        trees.validate(part, set(box))
    if not defined(tree, box, domain):
        return undefined(box)
    difference = ["add", tree, *(["mul", ["num", "-1"], part] for part in parts)]
    if exact.normal_form(difference, fixed_points(box)) != {}:
        return f"the gap is not {what} on {show(box)} (their exact normal forms differ)"
    return None


def _log(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """gap = A - B (exact normal forms) with A > 0 and B > 0 on the box; then ``then`` decides
    log A - log B >= 0 (> 0), both logarithms expanded by the kernel (:mod:`logs`, every factor and base
    shown > 0 by its enclosure on the box): log is strictly increasing, so A >= B (A > B)."""
    left, right = decision.get("left"), decision.get("right")
    reason = _sides(tree, [left, ["mul", ["num", "-1"], right]], box, domain, "left - right")
    if reason is not None:
        return reason

    def positive(factor: Any) -> bool:
        return _holds(factor, box, domain, True)

    logs_of = [logs.expanded(side, positive) for side in (left, right)]
    if logs_of[0] is None or logs_of[1] is None:
        return f"a side or one of its factors is not shown > 0 on {show(box)}"
    difference = ["add", logs_of[0], ["mul", ["num", "-1"], logs_of[1]]]
    return decide(decision.get("then"), difference, box, domain, strict, depth + 1)


def _sum(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """gap = T_1 + ... + T_n (exact normal forms) on the box, where the gap is defined, and each
    ``{"form": T_i, "then": D_i}`` of ``parts`` has D_i deciding T_i >= 0 (> 0 when strict)."""
    parts = decision.get("parts")
    if not (isinstance(parts, list) and parts and all(isinstance(part, dict) for part in parts)):
        raise Malformed("a sum decision needs a non-empty list of parts {form, then}")
    reason = _sides(tree, [part.get("form") for part in parts], box, domain, "the sum of its parts")
    for part in parts:
        if reason is not None:
            return reason
        reason = decide(part.get("then"), part["form"], box, domain, strict, depth + 1)
    return reason


def _squares(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """gap = A - B (exact normal forms) with A >= 0 and B >= 0 enclosed on the box; then ``then`` decides
    A^2 - B^2 >= 0 (> 0), which gives A >= B (A > B): (A - B)(A + B) >= 0, and A + B = 0 only at
    A = B = 0."""
    left, right = decision.get("left"), decision.get("right")
    reason = _sides(tree, [left, ["mul", ["num", "-1"], right]], box, domain, "left - right")
    if reason is not None:
        return reason
    if not (_holds(left, box, domain, False) and _holds(right, box, domain, False)):
        return f"the two sides are not shown >= 0 on {show(box)}"
    squares = ["add", ["mul", left, left], ["mul", ["num", "-1"], right, right]]
    return decide(decision.get("then"), squares, box, domain, strict, depth + 1)


def abs_sign(argument: Any, box: Box, domain: dict[str, Variable]) -> int | None:
    """1 when the enclosure of u = ``argument`` on the box is >= 0, -1 when that of -u is, else None:
    the sign by which |u| is u or -u on the box."""
    if _holds(argument, box, domain, False):
        return 1
    return -1 if _holds(["mul", ["num", "-1"], argument], box, domain, False) else None


def unsigned_form(tree: Any, box: Box, domain: dict[str, Variable]) -> Any:
    """The tree with |u| written u (or -u) wherever :func:`abs_sign` gives u's sign on the box
    (:mod:`signs`): equal to the tree on the box."""
    return signs.resolved(tree, lambda argument: abs_sign(argument, box, domain))


def _unsigned(
    decision: dict[str, Any], tree: Any, box: Box, domain: dict[str, Variable], strict: bool, depth: int
) -> str | None:
    """``then`` decides the gap with every abs of a signed argument removed (:func:`unsigned_form`)."""
    form = unsigned_form(tree, box, domain)
    if form == tree:
        return f"no abs of the gap has an argument of known sign on {show(box)}"
    return decide(decision.get("then"), form, box, domain, strict, depth + 1)


Step = Callable[[dict[str, Any], Any, Box, dict[str, Variable], bool, int], str | None]


def derived_direction(
    slope: Any, direction: str, tree: Any, box: Box, domain: dict[str, Variable], name: str, depth: int
) -> tuple[str, bool] | str:
    """(direction, False) when ``slope`` decides the kernel's own derivative in ``name`` (negated for
    "decreasing") >= 0 on the box with ``name``'s ends opened, the gap being defined on the closed box and
    continuous in ``name``; else why not. By the mean value theorem the gap is then monotone in ``name``
    on the closed box (not shown strictly)."""
    variable = domain[name]
    if variable.integer:
        return f"{name} is an integer variable: no derivative in it"
    if not defined(tree, box, domain):
        return undefined(box)
    if not trees.continuous(tree, [name]):
        return f"the gap may jump in {name} on {show(box)}"
    try:
        slope_tree = derivative.derivative(tree, name)
    except Discontinuous as error:
        return f"no derivative in {name}: {error}"
    if direction == "decreasing":
        slope_tree = ["mul", ["num", "-1"], slope_tree]
    lo, hi = box[name]
    interior = {**domain, name: Variable(name, lo, hi, True, True, False)}
    reason = decide(slope, slope_tree, box, interior, False, depth + 1)
    if reason is not None:
        return f"the derivative in {name} on {show(box)} is not shown {direction}: {reason}"
    return direction, False


def _tail(
    decision: dict[str, Any],
    tree: Any,
    box: Box,
    domain: dict[str, Variable],
    increasing: bool,
    strict: bool,
    depth: int,
) -> str | None:
    """The monotone step at an infinite face: the gap is monotone in v on the box towards the infinite end
    (increasing: the face is v = lo = -oo; decreasing: v = hi = +oo), and ``then`` decides the gap on the
    tail, the part of the box from a finite X (``"tail"``, an integer for an integer v) to that end:
    (-oo, X] when increasing, [X, oo) when decreasing. Every other point of the box lies beyond X on the
    monotone path, so the gap there is >= its value at X, a point of the tail. ``strict`` is the claim's
    strictness unless the slope is strictly signed (the caller passes it off then): every point of an
    infinite tail has a point of the tail further out (also an integer one), below which the gap is
    strictly smaller, so gap >= 0 on the tail gives gap > 0 on the whole box."""
    name = decision["variable"]
    lo, hi = box[name]
    if "tail" not in decision:
        return f"the face of {name} on {show(box)} is at infinity and no tail is named"
    start = number(decision["tail"])
    if domain[name].integer and start.denominator != 1:
        return f"the tail start {start} of the integer variable {name} is not an integer"
    if not lo <= start <= hi:
        return f"the tail start {start} lies outside the range of {name} on {show(box)}"
    tail = {**box, name: (lo, start) if increasing else (start, hi)}
    return decide(decision.get("then"), tree, tail, domain, strict, depth + 1)


STEPS: dict[str, Step] = {
    "rewrite": _rewrite,
    "squares": _squares,
    "unsigned": _unsigned,
    "scale": _scale,
    "log": _log,
    "sum": _sum,
}
"""The decisions on a form of the gap, by method (enclosure and monotone are decided in :func:`decide`;
theory.prover.kernel.substitution adds "substitute")."""


def covers(boxes: list[Box], domain: dict[str, Variable]) -> str | None:
    """None when the boxes cover the domain's closure as a guillotine partition (every region is one box,
    or a cut c of some variable separates its boxes: hi <= c <= lo, for integers hi <= c - 1 < c <= lo)."""
    whole: Box = {name: (v.lower, v.upper) for name, v in domain.items()}
    stack = [(boxes, whole)]
    while stack:
        members, region = stack.pop()
        if len(members) == 1:
            if members[0] != region:
                return f"the box {show(members[0])} differs from the region {show(region)} left to cover"
            continue
        split = guillotine_cut(members, region, domain)
        if split is None:
            return f"the boxes over {show(region)} overlap or leave a gap (no cut separates them)"
        stack.extend(split)
    return None


def guillotine_cut(
    members: list[Box], region: Box, domain: dict[str, Variable]
) -> list[tuple[list[Box], Box]] | None:
    """[(boxes left of c, region with v <= c), (boxes right of c, region with v >= c)] for the first
    variable v and cut c that separate ``members`` inside ``region`` (for an integer variable the left
    region ends at c - 1), or None when no cut separates them."""
    for name, (region_lo, region_hi) in region.items():
        step = 1 if domain[name].integer else 0
        ordered = sorted(members, key=lambda b: b[name][0])
        reach: Bound = -math.inf
        for index in range(len(ordered) - 1):
            reach = max(reach, ordered[index][name][1])
            cut = ordered[index + 1][name][0]
            if reach <= cut - step and region_lo < cut <= region_hi:
                left = {**region, name: (region_lo, cut - step)}
                right = {**region, name: (cut, region_hi)}
                return [(ordered[: index + 1], left), (ordered[index + 1 :], right)]
    return None


@dataclass(frozen=True)
class Verdict:
    """accepted, or the first failure (the box or step named); ``boxes`` the boxes read."""

    accepted: bool
    reason: str
    boxes: int


def check(data: Any) -> Verdict:
    """Re-check a certificate (see the module docstring); Malformed when it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Malformed(f"not a prover certificate: format must be {FORMAT!r}")
    clear_cache()  # nothing computed before this check (by a search in this process) is reused
    domain = read_domain(data.get("domain"))
    tree = data.get("gap")
    trees.validate(tree, set(domain))
    strict = data.get("strict")
    if not isinstance(strict, bool):
        raise Malformed(f"strict must be true or false, not {strict!r}")
    records = data.get("boxes")
    if not isinstance(records, list):
        raise Malformed("a certificate needs a list of boxes")
    if not records:
        return Verdict(False, "cover rejected: no box covers the domain", 0)
    entries = read_entries(records, domain)
    gap = covers([box for box, _ in entries], domain)
    if gap is not None:
        return Verdict(False, f"cover rejected: {gap}", len(entries))
    for box, decision in entries:
        reason = decide(decision, tree, box, domain, strict)
        if reason is not None:
            return Verdict(False, f"box {show(box)}: {reason}", len(entries))
    return Verdict(True, "every box decided and the boxes cover the domain", len(entries))
