"""The kernel's ``bernstein`` decision (:mod:`theory.prover.kernel.bernstein`) as a Coq proof.

On the box, each variable x_i with a range [lo_i, hi_i] is read through t_i = (x_i - lo_i) / (hi_i - lo_i)
(in [0, 1] by ``sb_bernstein_unit``). With the kernel's Bernstein coefficients b_I of the gap (computed
here by the kernel's own routine, in exact rationals) and their least m (0 for a claim >= 0):

- ``E``: subject = m + sum_I (b_I - m) C_I prod_i t_i^I_i (1 - t_i)^(n_i - I_i), C_I the product of the
  binomials C(n_i, I_i), terms of coefficient 0 left out (``sb_identity``: a polynomial identity in the
  x_i, true because the basis sums to 1; the box's point ranges substituted first);
- the sum is >= 0 term by term (``sb_bernstein_step``: each coefficient >= 0 by lra, each basis product
  >= 0 by ``sb_bernstein_basis`` per variable);
- >= 0: the sum is the subject; > 0: ``sb_bernstein_min`` with m > 0.

A coefficient below 0 (< m) or an identity that does not hold is refused by coqc, and the box is then a
named hypothesis. Provenance: derived (Bernstein's range enclosure, each step proved by Coq).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from theory.prover.coq.steps import Writer
from theory.prover.coq.terms import Untranslatable, points, rational, variable
from theory.prover.kernel import bernstein as kernel_bernstein
from theory.prover.kernel.verify import Box

BASIS = "repeat first [ apply sb_bernstein_basis; apply sb_bernstein_unit; lra | apply Rmult_le_pos ]"
"""0 <= a product of per-variable basis factors t^i (1 - t)^n, t = (x - lo) / (hi - lo)."""


def _indices(degrees: list[int]) -> list[tuple[int, ...]]:
    """The Bernstein indices in the kernel's order (the first variable's index outermost)."""
    indices: list[tuple[int, ...]] = [()]
    for n in degrees:
        indices = [(*index, i) for index in indices for i in range(n + 1)]
    return indices


def expansion(
    p: dict[tuple[int, ...], Fraction], box: Box, names: list[str], strict: bool
) -> tuple[Fraction, str]:
    """(m, the Coq sum sum_I (b_I - m) C_I basis_I(t) + 0) for p's Bernstein coefficients b_I on the box,
    m their least value when ``strict`` and that is > 0, else 0."""
    ranges = [(Fraction(box[name][0]), Fraction(box[name][1])) for name in names]
    found = kernel_bernstein.coefficients(p, ranges)
    if found is None:
        raise Untranslatable("a Bernstein decision with too many coefficients has no Coq proof")
    degrees = [max((e[axis] for e in p), default=0) for axis in range(len(names))]
    least = max(min(found), Fraction(0)) if strict else Fraction(0)
    units = [
        f"(({variable(name)} - {rational(lo)}) / ({rational(hi)} - {rational(lo)}))"
        for name, (lo, hi) in zip(names, ranges, strict=True)
    ]
    terms = []
    for index, b in zip(_indices(degrees), found, strict=True):
        weight = (b - least) * math.prod(math.comb(n, i) for n, i in zip(degrees, index, strict=True))
        if weight == 0:
            continue
        factors = [
            f"({t} ^ {i} * (1 - {t}) ^ {n - i})" for t, i, n in zip(units, index, degrees, strict=True)
        ]
        basis = factors[0] if len(factors) == 1 else "(" + " * ".join(factors) + ")"
        terms.append(f"{rational(weight)} * {basis}")
    return least, "(" + " + (".join([*terms, "0"]) + ")" * (len(terms) + 1)


def bernstein(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``bernstein`` step (see the module)."""
    names = [v for v, (lo, hi) in box.items() if lo != hi]
    if any(math.isinf(end) for v in names for end in box[v]):
        raise Untranslatable("a Bernstein decision on an unbounded box has no Coq proof")
    tree = writer.tree if form is None else form
    p = kernel_bernstein.polynomial(tree, box, names)
    if p is None:
        raise Untranslatable("a Bernstein decision on a gap that is not a polynomial has no Coq proof")
    least, total = expansion(p, box, names, strict)
    if strict and least <= 0:
        raise Untranslatable("a strict Bernstein decision needs every coefficient > 0")
    subject = writer.subject(form)
    right = f"{rational(least)} + {total}" if strict else total
    nonnegative = f"repeat (apply sb_bernstein_step; [ lra | {BASIS} | idtac ]); lra"
    identity = f"assert (E : {subject} = {right}) by (try unfold gap; {points(box)}sb_identity);\n  "
    if strict:
        rule = f"apply (sb_bernstein_min {rational(least)} ({subject}) {total})"
        return identity + f"{rule};\n  [ lra | exact E | {nonnegative} ]"
    return identity + f"rewrite E; {nonnegative}"
