"""The kernel's exact univariate ``polynomial`` step (:mod:`theory.prover.kernel.polynomial`) as a Coq proof.

The kernel's certificate of p >= 0 on v's range is Yun's decomposition p = c * O * E^2 (O the product of
the odd-multiplicity parts, E = f_2 f_3 f_4^2 ..., the parts f_i to the power floor(i / 2)) with c O > 0
on the range by Sturm's root count, which Coq does not have. The exporter proves instead:

- the identity gap = c * O * (E * E) (``sb_identity`` on the printed polynomials, computed here in exact
  rationals from the kernel's own decomposition);
- ``sb_even_power``: 0 <= c * O gives 0 <= c * O * (E * E);
- 0 <= c * O by ``nra`` with the box's bounds in context (a quadratic without real root, such as the odd
  part x^2 + x/2 + 3/16 of x^4 - x^3 + 27/256), else by Interval bisecting a bounded range. Where both
  fail, coqc's verdict leaves the box a named hypothesis, never a weaker claim (Interval bisecting, then
  with Taylor models: a strict margin of 1/1000 above a minimum is lost to the dependency problem of a
  plain interval evaluation at depth 12).

A strict claim: 0 < c * O and 0 < E * E (E has no root on the range, the kernel's Sturm count; E = 1
for a square-free p), each by ``nra`` or Interval as above, and ``Rmult_lt_0_compat``. Provenance:
derived (Yun's decomposition in rationals; the Coq tactics prove each step).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from theory.prover.coq.steps import Writer
from theory.prover.coq.terms import Untranslatable, rational, variable
from theory.prover.kernel import polynomial as kernel_polynomial
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box

BISECTION_DEPTH = 12


def as_tree(coefficients: list[Fraction], name: str) -> Any:
    """The tree sum_k a_k name^k of a coefficient list (the zero polynomial as 0)."""
    terms = [
        ["mul", ["num", str(a)], ["pow", ["var", name], ["num", str(k)]]] if k else ["num", str(a)]
        for k, a in enumerate(coefficients)
        if a
    ]
    return ["add", *terms] if terms else ["num", "0"]


def decomposition(p: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """(O, E) as coefficient lists, with p = c * O * E^2 by Yun's decomposition (p of degree >= 1, c its
    leading coefficient)."""
    parts = kernel_polynomial.square_free_parts(p)
    odd = kernel_polynomial.product([f for index, f in enumerate(parts, start=1) if index % 2 == 1])
    even = kernel_polynomial.product([f for index, f in enumerate(parts, start=1) for _ in range(index // 2)])
    return odd, even


def factored(p: list[Fraction], name: str) -> tuple[Any, Any]:
    """(c * O, E) as trees (see :func:`decomposition`)."""
    odd, even = decomposition(p)
    return ["mul", ["num", str(p[-1])], as_tree(odd, name)], as_tree(even, name)


def quartic_squares(q: list[Fraction], x: str) -> str:
    """Hints for nra where q = a4 x^4 + ... is a quartic with a4 > 0 (else none): q / a4 =
    (x^2 + a3/2 x + s)^2 + r2 (x + r1 / (2 r2))^2 + (r0 - r1^2 / (4 r2)) with r2 = a2 - a3^2/4 - 2 s,
    r1 = a1 - a3 s, r0 = a0 - s^2 for a rational s where r2 > 0 and 4 r2 r0 - r1^2 > 0 (such s exist for
    q > 0 on the line: near the best real s, located in floating point and checked here exactly), so
    q > 0 is linear in the two squares ``pow2_ge_0`` states. nra finds no such certificate of a quartic
    over the whole line on its own."""
    if len(q) != 5 or q[4] <= 0:
        return ""
    a0, a1, a2, a3 = (c / q[4] for c in q[:4])
    top = a2 - a3 * a3 / 4

    def margin(s: Fraction) -> Fraction:
        return 4 * (top - 2 * s) * (a0 - s * s) - (a1 - a3 * s) ** 2

    # d/ds margin = 24 s^2 - 8 top s + 2 a1 a3 - 2 a3^2 s - 8 a0: its real roots below top / 2
    a, b, c = 24.0, float(-8 * top - 2 * a3 * a3), float(2 * a1 * a3 - 8 * a0)
    discriminant = b * b - 4 * a * c
    roots = [(-b + sign * math.sqrt(discriminant)) / (2 * a) for sign in (1, -1)] if discriminant >= 0 else []
    candidates = [Fraction(r).limit_denominator(10**6) for r in roots] + [top / 2 - 1, top / 4]
    fitting = [s for s in candidates if 2 * s < top and margin(s) > 0]
    if not fitting:
        return ""
    s = fitting[0]
    r2, r1 = top - 2 * s, a1 - a3 * s
    return (
        f"pose proof (pow2_ge_0 ({x} ^ 2 + {rational(a3 / 2)} * {x} + {rational(s)})); "
        f"pose proof (pow2_ge_0 ({x} + {rational(r1 / (2 * r2))})); nra"
    )


def polynomial(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``polynomial`` step (see the module)."""
    v = decision.get("variable")
    tree = writer.tree if form is None else form
    p = kernel_polynomial.coefficients(tree, box, v) if isinstance(v, str) and v in box else None
    if p is None and isinstance(v, str) and kernel_polynomial.coefficients(tree, box, v, quadratic=True):
        raise Untranslatable("a polynomial step with coefficients in Q(sqrt d) has no Coq proof yet")
    if p is None or not isinstance(v, str):
        raise Malformed("a polynomial decision needs a gap polynomial in its variable")
    if len(p) <= 1:
        return f"{writer.identity(form, as_tree(p, v), box)};\n  rewrite E; lra"
    signed, even = factored(p, v)
    rewritten = ["mul", signed, ["mul", even, even]]
    lo, hi = box[v]
    bounded = not (isinstance(lo, float) or isinstance(hi, float))
    x = variable(v)
    squares = quartic_squares([p[-1] * a for a in decomposition(p)[0]], x)
    interval = (f" | {squares}" if squares else "") + (
        f" | interval with (i_prec 64, i_bisect {x}, i_depth {BISECTION_DEPTH})"
        f" | interval with (i_prec 64, i_bisect {x}, i_taylor {x}, i_depth {BISECTION_DEPTH})"
        if bounded
        else ""
    )
    if strict:
        return (
            f"{writer.identity(form, rewritten, box)};\n  rewrite E; apply Rmult_lt_0_compat;\n  "
            f"[ first [ nra{interval} ] | first [ nra{interval} ] ]"
        )
    return (
        f"{writer.identity(form, rewritten, box)};\n  rewrite E; apply sb_even_power;\n  "
        f"first [ nra{interval} ]"
    )
