"""The softmax reduction's identity steps (theory.prover.softmax_every_length) as Coq lemmas.

The reduction of ||J h||_1 <= kappa ||h||_inf for every sequence length T has five steps; the file proves
the two that are identities of real functions:

- ``softmax_off_diagonal`` / ``softmax_diagonal`` (step 1, J = diag(a) - a a^T entrywise): the derivative
  of a_i = e^{u_i} / (e^{u_i} + e^{u_j} + R) in u_j is -a_i a_j and that of e^{u_i} / (e^{u_i} + R) in u_i
  is a_i (1 - a_i), for every R > 0 (the other terms of the denominator): Coquelicot's ``auto_derive``,
  then ``field`` (restated: the standard softmax derivative, the entries the reduction differentiates);
- ``vertex_value`` (the end of step 4): the vertex value V the reduction derives over symbolic T, printed
  from its own tree, is kappa - gap on q in [0, 1], gap the tree of the statement the prover decides
  (step 5, kappa - 4 q (1 - q) >= 0, exported as jacobian_l1_norm_every_length's own file): ``sb_unabs``
  then ``nra``; ``vertex_bound``: 0 <= gap gives V <= kappa (lra).

The other steps are not in the file (:data:`NOT_EXPORTED`, each with its reason).
Provenance: derived (the vertex identity from the reduction's tree), standard (the softmax derivative).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from theory.prover.coq.export import CoqExport, Hypothesis
from theory.prover.coq.preamble import preamble
from theory.prover.coq.terms import Untranslatable, term
from theory.prover.language import to_tree

NOT_EXPORTED = (
    Hypothesis(
        "sum_over_every_length",
        "||J h||_1 = sum_{i=1}^T a_i |h_i - a.h| and its value at a vertex are sympy Sums over a symbolic "
        "length T; the exporter states no sum over a list of symbolic length in Coq yet",
    ),
    Hypothesis(
        "convex_maximum_at_a_vertex",
        "a nonnegative combination of |linear forms| is convex and a convex function is maximal over the "
        "cube at a vertex (standard, cited: Boyd & Vandenberghe 2004; Rockafellar 1970, Corollary "
        "32.3.2), not re-proved in Coq",
    ),
)
"""The reduction's steps the file does not state, with the reason (none is a premise of a lemma here)."""

JACOBIAN = """\
Lemma softmax_off_diagonal : forall u_i u_j r, 0 < r ->
  is_derive (fun t => exp u_i / (exp u_i + exp t + r)) u_j
    (- (exp u_i / (exp u_i + exp u_j + r)) * (exp u_j / (exp u_i + exp u_j + r))).
Proof.
  intros u_i u_j r H. pose proof (exp_pos u_i). pose proof (exp_pos u_j).
  auto_derive; [lra |]. field. lra.
Qed.
Lemma softmax_diagonal : forall u_i r, 0 < r ->
  is_derive (fun t => exp t / (exp t + r)) u_i
    ((exp u_i / (exp u_i + r)) * (1 - exp u_i / (exp u_i + r))).
Proof.
  intros u_i r H. pose proof (exp_pos u_i).
  auto_derive; [lra |]. field. lra.
Qed.
"""


REDUCED = "jacobian_l1_norm_every_length"
"""The registered inequality whose statement the reduction reduces the lemma to."""


def export_reduction(derived: sp.Expr | None, gap: sp.Expr, kappa: sp.Expr) -> CoqExport:
    """The reduction's Coq file: the Jacobian entries, derived = kappa - gap and 0 <= gap -> derived <=
    kappa on q in [0, 1] (expressions in q; ``derived`` None when the reduction's derivation failed:
    Untranslatable)."""
    if derived is None:
        raise Untranslatable("the reduction did not derive a vertex value")
    value, bound, rest = (_printed(side) for side in (derived, kappa, gap))
    text = (
        "(* Exported by specbound: the softmax reduction's identity steps (the Jacobian entries, the vertex\n"
        "   value for every length T). Not stated here: "
        + "; ".join(h.name for h in NOT_EXPORTED)
        + ". *)\n\n"
        + preamble()
        + "\n"
        + JACOBIAN
        + f"Lemma vertex_value : forall v_q, 0 <= v_q <= 1 -> {value} = {bound} - {rest}.\n"
        + "Proof. intros v_q H. sb_unabs; nra. Qed.\n"
        + f"Lemma vertex_bound : forall v_q, 0 <= v_q <= 1 -> 0 <= {rest} -> {value} <= {bound}.\n"
        + "Proof. intros v_q H G. rewrite (vertex_value v_q H). lra. Qed.\n\n"
        + "Definition steps := (softmax_off_diagonal, softmax_diagonal, vertex_bound).\n"
        + "Print Assumptions steps.\n"
    )
    return CoqExport(text, 0)


def _printed(expr: sp.Expr) -> str:
    """The Coq term of an expression in q (no general powers)."""
    tree: Any = to_tree(expr)
    return term(tree, lambda base: False)
