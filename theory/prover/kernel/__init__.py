"""The prover's kernel: re-checks a certificate from its JSON alone; "proved" means it accepted one.

``check_certificate(data)`` returns a :class:`~theory.prover.kernel.verify.Verdict` (accepted, or the
first failing box or step) and raises :class:`Malformed` for data outside the format. The certificate's
meaning is its ``gap`` tree, ``strict`` flag and ``domain``: gap >= 0 (> 0 when strict) at every point of
the domain. The kernel shares no code with the search (it imports neither sympy nor the search's rules,
evaluator, intervals or checker; a test asserts it) and accepts only what it re-derives:

- the cover: the boxes form a guillotine partition of the domain's closure (integer ranges as integers);
- enclosures of the gap tree in arb balls on each box (domain ends not in the set left open);
- monotonicity from a forward-mode slope enclosure (no symbolic derivative), with the face's strictness
  decided per face (:mod:`theory.prover.kernel.verify`);
- tails at infinity: a gap monotone towards an infinite face is decided on the tail from a finite X to
  that end ((-oo, X] when increasing, [X, oo) when decreasing), enclosed with the functions' limits at
  infinity;
- monotonicity whose slope sign is a nested decision on the kernel's own symbolic derivative
  (:mod:`theory.prover.kernel.derivative`), so a derivative 0 on a face is decided in turn;
- rewrites: a form equal to the gap in the kernel's own exact normal form (:mod:`theory.prover.kernel.
  exact`), optionally times a multiplier enclosed away from 0, and gap = A - B with A, B >= 0 decided
  on A^2 - B^2; the gap must be defined on the box;
- |u| written u or -u where the enclosure of u on the box has that sign (:mod:`theory.prover.kernel.
  signs`);
- gap * m = form for a multiplier m enclosed > 0 (the form decided instead); gap = A - B with A, B > 0
  decided on log A - log B, the kernel expanding the logarithms of products and powers of factors it
  encloses > 0 (:mod:`theory.prover.kernel.logs`); gap = a sum of forms, each decided;
- a face at an open end of the domain only where the gap is continuous up to it (defined there, no
  floor, ceiling or Piecewise in that variable).
- changes of variables gap = M * H(phi) (:mod:`theory.prover.kernel.substitution`): M >= 0 and phi's
  range in balls, the identity by the normal form, H decided by a nested cover of a set containing the
  range;
- case splits (:mod:`theory.prover.kernel.cases`): each value of a Piecewise, Max or Min decided on the
  region of the box where it may be taken (bounds of one variable read from the conditions), or under
  its case's premises (:mod:`theory.prover.kernel.premises`: an affine premise made the range of a fresh
  variable, a multiplier S >= 0 with G - S c decided, a premise replaced by one it implies); a Max (Min)
  at a linear position with a positive (negative) coefficient bounded by one argument; floor(u) = u - t
  and ceiling(u) = u + t with a fresh t in [0, 1); an integer-valued gap decided > -1;
- jumps (:mod:`theory.prover.kernel.jumps`): the first floor or ceiling of an argument affine in one
  variable replaced by its constant value at each integer crossing and on each open interval between;
  a gap periodic in a variable over the whole line (the identity gap(v + P) = gap(v) by the normal
  form, floor(u + k) = floor(u) + k) decided on one period (:mod:`theory.prover.kernel.periodic`);
- univariate polynomials (:mod:`theory.prover.kernel.polynomial`): the sign of a gap whose normal form
  is a polynomial in one variable, by Yun's square-free decomposition and Sturm's root count in exact
  rationals; on a bounded box, the sign of a polynomial in several variables by its Bernstein
  coefficients in exact rationals (:mod:`theory.prover.kernel.bernstein`);
- chain certificates (:mod:`theory.prover.kernel.chain`): pieces' certificates, ranges and factors' signs
  in balls, the identity by the normal form.

It accepts no limit, no exact-zero claim and no identity it does not compute itself.

Reading order (about 2200 lines in all; each module's docstring states its rule and provenance):

1. :mod:`.balls` (sets of reals with arb-ball ends and open flags: + * 1/x, monotone images, hull, abs,
   max, min) and :mod:`.trees` (the tree format, its validation, enclosures and forward-mode slopes):
   what an enclosure on a box means;
2. :mod:`.verify`: reading a certificate (domain, boxes, decisions), the guillotine cover check and every
   decision method (enclosure, monotone with faces and tails, rewrite, squares, scale, log, sum,
   unsigned); :func:`.verify.check` is the entry point;
3. the helpers its steps call: :mod:`.exact` (the exact normal form: rational coefficients, atoms,
   prime radicals, power products of positive bases), :mod:`.derivative` (the kernel's own symbolic
   derivative, for a slope decided by a nested decision), :mod:`.signs` (abs of a signed argument
   removed) and :mod:`.logs` (the expanded logarithm of a positive tree);
4. :mod:`.cases` (case splits, fractions of floor and ceiling, integer-valued gaps) with
   :mod:`.premises` (a case decided under its condition), :mod:`.jumps`
   (floor and ceiling constant between integer crossings), :mod:`.polynomial` (exact univariate
   signs) and :mod:`.bernstein` (multivariate signs on a bounded box), each registered into
   ``verify.STEPS``;
5. :mod:`.substitution` (the change of variables step, registered into ``verify.STEPS``) and
   :mod:`.chain` (chain certificates: pieces, ranges, factors' signs, the identity).

The code trusted is this package and what it imports: python-flint, Python's standard library
(``fractions``, ``json``, ``math``, ``re``, ``functools``, ``contextlib``, ``dataclasses``) and
:mod:`theory.errors` (the optional-import guard and the error classes); nothing of the search, sympy or
mpmath (tests/unit/theory/prover/test_prover_kernel.py asserts the imports).

The mathematics it trusts: python-flint's arb ball arithmetic (rigorous enclosures of + - * /, exp, log, erf,
erfc, atan, tanh, powers, floor, ceiling, pi, e: Johansson 2017, IEEE Trans. Comput.) and Python's exact
``fractions.Fraction``; the monotonicity of exp, log, erf, erfc, atan, tanh, powers, floor and ceiling and
their limits at infinity; the mean value theorem for functions continuous on a closed box and piecewise smooth
inside (every function of the language is piecewise real-analytic in each variable; Abs, Max and Min get
Clarke's generalized gradient, the hull of their pieces' slopes, and floor, ceiling and Piecewise are never
differentiated across a possible jump); the continuity of the language's functions where they are defined,
except floor, ceiling and Piecewise; the rules of differentiation of the language's smooth functions; the
definition of |u|, of Piecewise, Max and Min (and the premises each value's case gives); an affine
change of one variable; the S-procedure (S >= 0 and c >= 0 give S c >= 0); the contrapositive; the laws
of logarithms for positive arguments (log c over
the primes of a positive rational c); the ring identities, the laws of exponents for nonnegative bases (for
positive bases with real exponents) and max(a, b) = (a + b + |a - b|) / 2 behind the normal form; Yun's
square-free decomposition and Sturm's theorem (the real roots of a polynomial in an interval); the Bernstein
basis (nonnegative on [0, 1]^k, summing to 1); ceiling(z) - z
and z - floor(z) in [0, 1), ceiling(z) >= n + 1 for z > n, an integer, and an integer > -1 is >= 0.
"""

from __future__ import annotations

from theory.prover.kernel import bernstein, cases, jumps, periodic, polynomial, substitution  # their methods
from theory.prover.kernel.trees import Malformed
from theory.prover.kernel.verify import FORMAT, Verdict, check

__all__ = [
    "FORMAT",
    "Malformed",
    "Verdict",
    "bernstein",
    "cases",
    "check_certificate",
    "jumps",
    "periodic",
    "polynomial",
    "substitution",
]


def check_certificate(data: object) -> Verdict:
    """Re-check a certificate (see the module docstring); Malformed when it is not one."""
    return check(data)
