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
for a square-free p), each by ``nra`` or Interval as above, and ``Rmult_lt_0_compat``.

On a range reaching infinity, where Interval reads nothing and nra may find no certificate (the strict
cubic x^3 - 3 x + 201/100 on [-2, oo)), a sign q >= 0 (> 0) is also proved by cutting the range at tail
starts X (``Rle_or_lt``): on [X, oo) the Taylor expansion q(x) = sum_k b_k (x - X)^k, b_k = q^(k)(X) / k!,
is an identity ``field`` proves, and with every b_k >= 0 (b_0 > 0 when strict) its Horner form
b_0 + t (b_1 + t (...)) at t = x - X >= 0 is >= 0 by ``Rplus_le_le_0_compat`` and ``Rmult_le_pos`` (each
b_k's sign by ``lra``, or Interval for a number with sqrt(d)); (-oo, X] alike with t = X - x and the
coefficients (-1)^k b_k; the bounded middle as above. Such an X exists whenever the leading coefficient
is positive (towards +oo): at X beyond every complex root of q (Cauchy's bound 1 + max |q_k / q_n|) no
derivative of q has a real root (Gauss-Lucas), so every q^(k)(X) > 0. The search for X tries small
integers first, so the middle stays short.

The coefficients may lie in one real quadratic field Q(sqrt d) (the kernel's decision on
x^6 - x^2 + 2 sqrt(3)/9): each is printed a + b * sqrt d, the identity's sqrt d * sqrt d = d is stated
as for any root (``sqrt_sqrt``), and nra is given 0 <= sqrt d (``sqrt_pos``). Provenance: derived (Yun's
decomposition in exact arithmetic; Taylor's formula for polynomials; Cauchy's root bound and the
Gauss-Lucas theorem only to find X, which the exact coefficients' signs then certify; the Coq tactics
prove each step).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from theory.prover.coq.steps import Writer
from theory.prover.coq.terms import rational, term, variable
from theory.prover.kernel import polynomial as kernel_polynomial
from theory.prover.kernel.quadratic import Quadratic
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import Box

BISECTION_DEPTH = 12


def number(a: Fraction | Quadratic) -> Any:
    """The tree of a rational, or of a + b sqrt(d) (sqrt(d) written d^(1/2), which prints ``sqrt d``)."""
    if isinstance(a, Quadratic) and a.b != 0:
        root = ["pow", ["num", str(a.d)], ["num", "1/2"]]
        return ["add", ["num", str(a.a)], ["mul", ["num", str(a.b)], root]]
    return ["num", str(a.a if isinstance(a, Quadratic) else a)]


def as_tree(coefficients: list[Any], name: str) -> Any:
    """The tree sum_k a_k name^k of a coefficient list (the zero polynomial as 0)."""
    terms = [
        ["mul", number(a), ["pow", ["var", name], ["num", str(k)]]] if k else number(a)
        for k, a in enumerate(coefficients)
        if a != 0
    ]
    return ["add", *terms] if terms else ["num", "0"]


def decomposition(p: list[Any]) -> tuple[list[Any], list[Any]]:
    """(O, E) as coefficient lists, with p = c * O * E^2 by Yun's decomposition (p of degree >= 1, c its
    leading coefficient)."""
    parts = kernel_polynomial.square_free_parts(p)
    odd = kernel_polynomial.product([f for index, f in enumerate(parts, start=1) if index % 2 == 1])
    even = kernel_polynomial.product([f for index, f in enumerate(parts, start=1) for _ in range(index // 2)])
    return odd, even


def factored(p: list[Any], name: str) -> tuple[Any, Any]:
    """(c * O, E) as trees (see :func:`decomposition`)."""
    odd, even = decomposition(p)
    return ["mul", number(p[-1]), as_tree(odd, name)], as_tree(even, name)


def quartic_squares(q: list[Fraction], x: str) -> str:
    """Hints for nra where q = a4 x^4 + ... is a quartic with a4 > 0 (else none): q / a4 =
    (x^2 + a3/2 x + s)^2 + r2 (x + r1 / (2 r2))^2 + (r0 - r1^2 / (4 r2)) with r2 = a2 - a3^2/4 - 2 s,
    r1 = a1 - a3 s, r0 = a0 - s^2 for a rational s where r2 > 0 and 4 r2 r0 - r1^2 > 0 (such s exist for
    q > 0 on the line: near the best real s, located in floating point and checked here exactly), so
    q > 0 is linear in the two squares ``pow2_ge_0`` states. nra finds no such certificate of a quartic
    over the whole line on its own."""
    if len(q) != 5 or q[4] <= 0 or any(isinstance(c, Quadratic) for c in q):
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


def shifted(q: list[Any], at: Fraction, sign: int) -> list[Any]:
    """The coefficients in t of q(at + sign * t) (Taylor's formula at ``at``, t mirrored for sign -1)."""
    return [
        sum((math.comb(j, k) * q[j] * at ** (j - k) for j in range(k, len(q))), Fraction(0)) * sign**k
        for k in range(len(q))
    ]


def tail_start(q: list[Any], sign: int, strict: bool, inside: Fraction | None) -> Fraction | None:
    """An X where every coefficient of q(X + sign t) is >= 0, the constant > 0 when strict: the range's
    finite end ``inside`` (the whole range one tail) when it fits, else 0 or sign 2^k, the first that
    fits beyond it; the last 2^k exceeds Cauchy's bound, so one fits whenever q keeps its sign towards
    that end (see the module). None when none does."""
    real = [float(c.a) + float(c.b) * math.sqrt(c.d) if isinstance(c, Quadratic) else float(c) for c in q]
    bound = 1 + max(abs(c / real[-1]) for c in real[:-1])
    powers = [Fraction(sign * 2**k) for k in range(math.ceil(math.log2(bound + 1)) + 1)]
    for start in ([] if inside is None else [inside]) + [Fraction(0)] + powers:
        if inside is not None and sign * (start - inside) < 0:
            continue
        b = shifted(q, start, sign)
        if all(c >= 0 for c in b) and (b[0] > 0 or not strict):
            return start
    return None


def horner_sign(b: list[Any], t: str, strict: bool) -> tuple[str, str]:
    """(H, tactic): H = b_0 + t (b_1 + t (...)) printed, and the tactic proving 0 <= H (0 < H when
    strict) from 0 <= t in context, coefficient by coefficient (``lra``, or Interval for sqrt d)."""
    text, script = term(number(b[-1]), lambda _: True), CONSTANT
    for k in range(len(b) - 2, -1, -1):
        text = f"({term(number(b[k]), lambda _: True)} + {t} * {text})"
        first = "apply Rplus_lt_le_0_compat" if strict and k == 0 else "apply Rplus_le_le_0_compat"
        script = f"{first}; [ {CONSTANT} | apply Rmult_le_pos; [ lra | {script} ] ]"
    return text, script


CONSTANT = "first [ lra | interval ]"
"""The sign of one number of the proof: rational (``lra``) or with sqrt d (Interval)."""


def tails(q: list[Any], x: str, lo: Any, hi: Any, strict: bool, middle: str) -> str:
    """A tactic proving 0 <= q (> 0) on (lo, hi) reaching infinity: cut at tail starts, each tail by its
    Taylor expansion's Horner form, the bounded middle by ``middle`` (see the module); "" when no tail
    start fits."""
    lower, upper = (None if isinstance(end, float) else Fraction(end) for end in (lo, hi))
    right = tail_start(q, 1, strict, lower) if upper is None else None
    left = tail_start(q, -1, strict, upper) if lower is None else None
    if (upper is None and right is None) or (lower is None and left is None):
        return ""
    if left is not None and right is not None and left > right:
        left = right

    def tail(start: Fraction, sign: int) -> str:
        t = f"({x} - {rational(start)})" if sign > 0 else f"({rational(start)} - {x})"
        text, script = horner_sign(shifted(q, start, sign), t, strict)
        return (
            f"assert (T : 0 <= {t}) by lra; "
            f"match goal with |- _ ?g => replace g with {text} by field end; {script}"
        )

    script = middle
    if left is not None:
        script = f"destruct (Rle_or_lt {rational(left)} {x}); [ {script} | {tail(left, -1)} ]"
    if right is not None:
        script = f"destruct (Rle_or_lt {x} {rational(right)}); [ {script} | {tail(right, 1)} ]"
    return script


def polynomial(writer: Writer, name: str, decision: dict[str, Any], box: Box, strict: bool, form: Any) -> str:
    """The ``polynomial`` step (see the module)."""
    v = decision.get("variable")
    tree = writer.tree if form is None else form
    p = (
        kernel_polynomial.coefficients(tree, box, v, quadratic=True)
        if isinstance(v, str) and v in box
        else None
    )
    if p is None or not isinstance(v, str):
        raise Malformed("a polynomial decision needs a gap polynomial in its variable")
    if len(p) <= 1:
        return f"{writer.identity(form, as_tree(p, v), box)};\n  rewrite E; lra"
    signed, square = factored(p, v)
    rewritten = ["mul", signed, ["mul", square, square]]
    lo, hi = box[v]
    bounded = not (isinstance(lo, float) or isinstance(hi, float))
    x = variable(v)
    roots = sorted({c.d for c in p if isinstance(c, Quadratic)})
    nra = "nra" if not roots else f"({''.join(f'pose proof (sqrt_pos {d}); ' for d in roots)}nra)"
    odd, even = decomposition(p)
    bisect = (
        f" | interval with (i_prec 64, i_bisect {x}, i_depth {BISECTION_DEPTH})"
        f" | interval with (i_prec 64, i_bisect {x}, i_taylor {x}, i_depth {BISECTION_DEPTH})"
    )
    signs = []
    for q, strictly in (([p[-1] * a for a in odd], strict), (kernel_polynomial.product([even, even]), True)):
        squares = quartic_squares(q, x)
        found = nra + (f" | {squares}" if squares else "")
        if bounded:
            found += bisect
        else:
            cut = tails(q, x, lo, hi, strictly, f"first [ {nra}{bisect} ]") if len(q) > 1 else ""
            found += f" | {cut}" if cut else ""
        signs.append(f"first [ {found} ]")
    if strict:
        return (
            f"{writer.identity(form, rewritten, box)};\n  rewrite E; apply Rmult_lt_0_compat;\n  "
            f"[ {signs[0]} | {signs[1]} ]"
        )
    return f"{writer.identity(form, rewritten, box)};\n  rewrite E; apply sb_even_power;\n  {signs[0]}"
