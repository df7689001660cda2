"""The prover's kernel: re-checks a certificate from its JSON alone; "proved" means it accepted one.

``check_certificate(data)`` returns a :class:`~theory.prover.kernel.check.Verdict` (accepted, or the
first failing box or step) and raises :class:`Malformed` for data outside the format. The certificate's
meaning is its ``gap`` tree, ``strict`` flag and ``domain``: gap >= 0 (> 0 when strict) at every point of
the domain. The kernel shares no code with the search (it imports neither sympy nor the search's rules,
evaluator, intervals or checker; a test asserts it) and accepts only what it re-derives:

- the cover: the boxes form a guillotine partition of the domain's closure (integer ranges as integers);
- enclosures of the gap tree in arb balls on each box (domain ends not in the set left open);
- monotonicity from a forward-mode slope enclosure (no symbolic derivative), with the face's strictness
  decided per face (:mod:`theory.prover.kernel.verify`);
- tails at infinity as boxes [X, oo) enclosed with the functions' limits at infinity.

It accepts no limit, no exact-zero claim and no algebraic identity it cannot evaluate in balls.

What it trusts: python-flint's arb ball arithmetic (rigorous enclosures of + - * /, exp, log, erf, erfc,
atan, tanh, powers, floor, ceiling, pi, e: Johansson 2017, IEEE Trans. Comput.) and Python's exact
``fractions.Fraction``; the monotonicity of exp, log, erf, erfc, atan, tanh, powers, floor and ceiling and
their limits at infinity; the mean value theorem for functions continuous on a closed box and piecewise
smooth inside (every function of the language is piecewise real-analytic in each variable; Abs, Max and
Min get Clarke's generalized gradient, the hull of their pieces' slopes, and floor, ceiling and Piecewise
are never differentiated across a possible jump).
"""

from __future__ import annotations

from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import FORMAT, Verdict, check

__all__ = ["FORMAT", "Malformed", "Verdict", "check_certificate"]


def check_certificate(data: object) -> Verdict:
    """Re-check a certificate (see the module docstring); Malformed when it is not one."""
    return check(data)
