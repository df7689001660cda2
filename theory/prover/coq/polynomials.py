"""The kernel's exact univariate ``polynomial`` step (:mod:`theory.prover.kernel.polynomial`) as a Coq proof.

The kernel's certificate of p >= 0 on v's range is Yun's decomposition p = c * O * E^2 (O the product of
the odd-multiplicity parts, E = f_2 f_3 f_4^2 ..., the parts f_i to the power floor(i / 2)) with c O > 0
on the range by Sturm's root count, which Coq does not have. The exporter proves instead:

- the identity gap = c * O * (E * E) (``sb_identity`` on the printed polynomials, computed here in exact
  rationals from the kernel's own decomposition);
- ``sb_even_power``: 0 <= c * O gives 0 <= c * O * (E * E);
- 0 <= c * O by ``nra`` with the box's bounds in context (a quadratic without real root, such as the odd
  part x^2 + x/2 + 3/16 of x^4 - x^3 + 27/256), else by Interval bisecting a bounded range. Where both
  fail, coqc's verdict leaves the box a named hypothesis, never a weaker claim.

A strict claim (which needs E != 0 on the range) has no Coq proof here yet. Provenance: derived (Yun's
decomposition in rationals; the Coq tactics prove each step).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from theory.prover.coq.steps import Writer
from theory.prover.coq.terms import Untranslatable, variable
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


def factored(p: list[Fraction], name: str) -> tuple[Any, Any]:
    """(c * O, E) as trees, with p = c * O * E^2 by Yun's decomposition (p of degree >= 1)."""
    parts = kernel_polynomial.square_free_parts(p)
    odd = kernel_polynomial.product([f for index, f in enumerate(parts, start=1) if index % 2 == 1])
    even = kernel_polynomial.product([f for index, f in enumerate(parts, start=1) for _ in range(index // 2)])
    return ["mul", ["num", str(p[-1])], as_tree(odd, name)], as_tree(even, name)


def polynomial(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``polynomial`` step (see the module)."""
    if strict:
        raise Untranslatable("a strict polynomial step has no Coq proof yet (it needs E != 0 on the range)")
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
    interval = (
        f" | interval with (i_prec 64, i_bisect {variable(v)}, i_depth {BISECTION_DEPTH})" if bounded else ""
    )
    return (
        f"{writer.identity(form, rewritten, box)};\n  rewrite E; apply sb_even_power;\n  "
        f"first [ nra{interval} ]"
    )
