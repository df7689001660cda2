"""The softmax reduction for every sequence length T as one Coq file, proved by coqc with no hypothesis.

The lemma (theory.paper_proofs.softmax_every_length): for a = softmax(u) in the simplex of R^T and every h,
||J h||_1 <= kappa ||h||_inf with J = diag(a) - a a^T. The file states it for every length n (a Coq
``nat``) and proves it (standard, re-proved in Coq); its parts, in order:

- :data:`SUMS`: ``sb_sum n f`` = sum_{i < n} f i, by recursion on n (``sb_sum_f_R0``: it is the standard
  library's ``sum_f_R0 f (n - 1)``), with linearity, monotonicity and the removal of one term;
- :data:`JACOBIAN`: ``sb_jacobian a i j`` = [i = j] a_i - a_i a_j (J = diag(a) - a a^T), so
  (J h)_i = a_i (h_i - a.h) (``jacobian_apply``) and, a_i >= 0, ||J h||_1 = sum_i a_i |h_i - a.h|
  (``sum_over_every_length``); the entries ``softmax_off_diagonal`` / ``softmax_diagonal`` (the derivative
  of e^{u_i} / (e^{u_i} + e^t + r) in t and of e^t / (e^t + r), r >= 0 the other terms: ``auto_derive``,
  ``field``) give ``softmax_jacobian``: J's entry (i, j) at a = softmax(u) (``sb_softmax``, a probability
  vector by ``softmax_simplex``) is the derivative of softmax_i in u_j, for every n and i, j < n;
- :data:`MEAN`: with m = a.h and P the mass of the i with h_i > m, sum_i a_i (h_i - m) = 0 splits the l1
  sum into two equal halves S, one at most P (c - m), the other at most (1 - P) (c + m) for |h_i| <= c;
  the smaller of the two is at most its value at the crossing m = c (2 P - 1), so the sum 2 S is at most
  4 P (1 - P) c (``at_most_a_vertex_value``: 4 q (1 - q) at q = P is the value at a vertex of the cube,
  which replaces the convexity argument of the reduction's steps 2 and 3); ``sb_norm_inf n h`` =
  max_i |h_i| (0 for n = 0);
- printed from the trees: ``vertex_value`` (the vertex value V the reduction derives over symbolic T is
  kappa - gap on q in [0, 1], gap the registered statement's tree: ``sb_unabs`` then ``nra``),
  ``vertex_bound`` (0 <= gap gives V <= kappa), ``vertex_inequality`` (0 <= gap on [0, 1], by ``nra`` from
  (2 q - 1)^2 >= 0; the prover's certificate of it is jacobian_l1_norm_every_length's own file) and
  ``vertex_at_the_mass`` (4 q (1 - q) = V);
- ``every_length``: for every n, every probability vector a and every h, ||J h||_1 <= kappa ||h||_inf; and
  ``softmax_every_length``: the same with J's entries the derivatives (Coquelicot's ``Derive``) of
  softmax(u), for every n >= 1 and u.

Nothing is left unproved (:data:`NOT_EXPORTED` is empty); a smaller kappa makes ``vertex_inequality`` false
and coqc refuses the file.
Provenance: standard, re-proved in Coq (the softmax derivative, the bound for every T); derived (the
vertex value from the reduction's tree).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sympy as sp

from theory.prover.coq.export import CoqExport, Hypothesis
from theory.prover.coq.files import Export
from theory.prover.coq.preamble import preamble_for
from theory.prover.coq.terms import Untranslatable, term
from theory.prover.language import to_tree
from theory.prover.lemma_inequalities import LemmaInequality

NOT_EXPORTED: tuple[Hypothesis, ...] = ()
"""The reduction's steps the file does not state, with the reason: none (the record's "not_exported")."""

SUMS = r"""
Fixpoint sb_sum (n : nat) (f : nat -> R) : R :=
  match n with O => 0 | S k => sb_sum k f + f k end.
Lemma sb_sum_f_R0 : forall n f, sb_sum (S n) f = sum_f_R0 f n.
Proof. induction n as [|n IH]; intros f; simpl in *; [lra | rewrite <- IH; simpl; lra]. Qed.
Lemma sb_sum_ext : forall n f g, (forall i, (i < n)%nat -> f i = g i) -> sb_sum n f = sb_sum n g.
Proof.
  induction n as [|n IH]; intros f g E; simpl; [reflexivity |].
  rewrite (IH f g) by (intros; apply E; lia). rewrite (E n) by lia. reflexivity.
Qed.
Lemma sb_sum_le : forall n f g, (forall i, (i < n)%nat -> f i <= g i) -> sb_sum n f <= sb_sum n g.
Proof.
  induction n as [|n IH]; intros f g E; simpl; [lra |].
  pose proof (IH f g (fun i H => E i ltac:(lia))). pose proof (E n ltac:(lia)). lra.
Qed.
Lemma sb_sum_plus : forall n f g, sb_sum n (fun i => f i + g i) = sb_sum n f + sb_sum n g.
Proof. induction n as [|n IH]; intros f g; simpl; [lra | rewrite IH; lra]. Qed.
Lemma sb_sum_scale : forall n c f, sb_sum n (fun i => c * f i) = c * sb_sum n f.
Proof. induction n as [|n IH]; intros c f; simpl; [lra | rewrite IH; lra]. Qed.
Lemma sb_sum_zero : forall n, sb_sum n (fun _ => 0) = 0.
Proof. induction n as [|n IH]; simpl; lra. Qed.
Lemma sb_sum_point : forall n c i, (i < n)%nat ->
  sb_sum n (fun j => if Nat.eq_dec i j then c else 0) = c.
Proof.
  induction n as [|n IH]; intros c i H; simpl; [lia |].
  destruct (Nat.eq_dec i n) as [E|E].
  - subst. rewrite (sb_sum_ext n _ (fun _ => 0)), sb_sum_zero; [lra |].
    intros j Hj. destruct (Nat.eq_dec n j); [lia | reflexivity].
  - rewrite IH by lia. lra.
Qed.
Lemma sb_sum_nonneg : forall n f, (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= sb_sum n f.
Proof.
  induction n as [|n IH]; intros f P; simpl; [lra |].
  pose proof (IH f (fun i H => P i ltac:(lia))). pose proof (P n ltac:(lia)). lra.
Qed.
Definition sb_drop (f : nat -> R) (i k : nat) : R := if Nat.eq_dec k i then 0 else f k.
Lemma sb_sum_drop : forall n f i, (i < n)%nat -> sb_sum n f = f i + sb_sum n (sb_drop f i).
Proof.
  induction n as [|n IH]; intros f i H; simpl; [lia |]. unfold sb_drop at 2.
  destruct (Nat.eq_dec n i) as [E|E].
  - subst i. rewrite (sb_sum_ext n (sb_drop f n) f); [lra |].
    intros k Hk. unfold sb_drop. destruct (Nat.eq_dec k n); [lia | reflexivity].
  - rewrite (IH f i) by lia. lra.
Qed.
Lemma sb_sum_one : forall n f i, (i < n)%nat -> (forall k, 0 <= f k) -> f i <= sb_sum n f.
Proof.
  intros n f i H P. rewrite (sb_sum_drop n f i H).
  enough (0 <= sb_sum n (sb_drop f i)) by lra.
  apply sb_sum_nonneg. intros k _. unfold sb_drop. destruct (Nat.eq_dec k i); [lra | apply P].
Qed.
Lemma sb_sum_two : forall n f i j, (i < n)%nat -> (j < n)%nat -> i <> j -> (forall k, 0 <= f k) ->
  f i + f j <= sb_sum n f.
Proof.
  intros n f i j Hi Hj E P. rewrite (sb_sum_drop n f i Hi).
  enough (f j <= sb_sum n (sb_drop f i)) by lra.
  replace (f j) with (sb_drop f i j) by (unfold sb_drop; destruct (Nat.eq_dec j i); [lia | reflexivity]).
  apply sb_sum_one; [exact Hj |]. intros k. unfold sb_drop. destruct (Nat.eq_dec k i); [lra | apply P].
Qed.
Lemma sb_sum_pos : forall n f, (0 < n)%nat -> (forall i, 0 < f i) -> 0 < sb_sum n f.
Proof.
  induction n as [|n IH]; intros f H P; simpl; [lia |].
  destruct n as [|n]; simpl; [pose proof (P 0%nat); lra |].
  pose proof (IH f ltac:(lia) P). pose proof (P (S n)). simpl in *. lra.
Qed.
"""
"""sum_{i < n} f i for every n and the facts about it the file uses (standard, proved by induction on n)."""

JACOBIAN = r"""
Definition sb_jacobian (a : nat -> R) (i j : nat) : R := (if Nat.eq_dec i j then a i else 0) - a i * a j.
Lemma jacobian_apply : forall n a h i, (i < n)%nat ->
  sb_sum n (fun j => sb_jacobian a i j * h j) = a i * (h i - sb_sum n (fun j => a j * h j)).
Proof.
  intros n a h i H. unfold sb_jacobian.
  rewrite (sb_sum_ext n _ (fun j => (if Nat.eq_dec i j then a i * h i else 0) + (- a i) * (a j * h j))).
  - rewrite sb_sum_plus, sb_sum_scale, sb_sum_point by exact H. ring.
  - intros j Hj. destruct (Nat.eq_dec i j); [subst |]; ring.
Qed.
Lemma sum_over_every_length : forall n (a h : nat -> R), (forall i, (i < n)%nat -> 0 <= a i) ->
  sb_sum n (fun i => Rabs (sb_sum n (fun j => sb_jacobian a i j * h j)))
  = sb_sum n (fun i => a i * Rabs (h i - sb_sum n (fun j => a j * h j))).
Proof.
  intros n a h Ha. apply sb_sum_ext. intros i H.
  rewrite jacobian_apply, Rabs_mult, (Rabs_pos_eq (a i)) by auto. reflexivity.
Qed.
Lemma softmax_off_diagonal : forall u_i u_j r, 0 <= r ->
  is_derive (fun t => exp u_i / (exp u_i + exp t + r)) u_j
    (- (exp u_i / (exp u_i + exp u_j + r)) * (exp u_j / (exp u_i + exp u_j + r))).
Proof.
  intros u_i u_j r H. pose proof (exp_pos u_i). pose proof (exp_pos u_j).
  auto_derive; [lra |]. field. lra.
Qed.
Lemma softmax_diagonal : forall u_i r, 0 <= r ->
  is_derive (fun t => exp t / (exp t + r)) u_i
    ((exp u_i / (exp u_i + r)) * (1 - exp u_i / (exp u_i + r))).
Proof.
  intros u_i r H. pose proof (exp_pos u_i).
  auto_derive; [lra |]. field. lra.
Qed.
Definition sb_softmax (n : nat) (u : nat -> R) (i : nat) : R := exp (u i) / sb_sum n (fun k => exp (u k)).
Lemma softmax_simplex : forall n u, (0 < n)%nat ->
  (forall i, 0 <= sb_softmax n u i) /\ sb_sum n (sb_softmax n u) = 1.
Proof.
  intros n u H. pose proof (sb_sum_pos n (fun k => exp (u k)) H (fun k => exp_pos (u k))) as Z.
  split.
  - intros i. unfold sb_softmax. pose proof (exp_pos (u i)).
    apply Rlt_le, Rdiv_lt_0_compat; assumption.
  - unfold sb_softmax, Rdiv. rewrite (sb_sum_ext n _ (fun k => / sb_sum n (fun k => exp (u k)) * exp (u k)))
      by (intros; ring).
    rewrite sb_sum_scale. field. lra.
Qed.
Definition sb_set (u : nat -> R) (j : nat) (t : R) (k : nat) : R := if Nat.eq_dec k j then t else u k.
Lemma sb_sum_set : forall n u j t, (j < n)%nat ->
  sb_sum n (fun k => exp (sb_set u j t k)) = exp t + (sb_sum n (fun k => exp (u k)) - exp (u j)).
Proof.
  intros n u j t H. rewrite (sb_sum_drop n _ j H), (sb_sum_drop n (fun k => exp (u k)) j H).
  rewrite (sb_sum_ext n (sb_drop (fun k => exp (sb_set u j t k)) j) (sb_drop (fun k => exp (u k)) j)).
  - unfold sb_set. destruct (Nat.eq_dec j j); [ring | lia].
  - intros k Hk. unfold sb_drop, sb_set. destruct (Nat.eq_dec k j); reflexivity.
Qed.
Lemma sb_is_derive_eq : forall (f : R -> R) (x l l' : R), is_derive f x l -> l = l' -> is_derive f x l'.
Proof. intros f x l l' D E. subst. exact D. Qed.
Lemma softmax_jacobian : forall n u i j, (i < n)%nat -> (j < n)%nat ->
  is_derive (fun t => sb_softmax n (sb_set u j t) i) (u j) (sb_jacobian (sb_softmax n u) i j).
Proof.
  intros n u i j Hi Hj. set (Z := sb_sum n (fun k => exp (u k))).
  assert (Z0 : 0 < Z) by (apply sb_sum_pos; [lia | intros; apply exp_pos]).
  unfold sb_jacobian, sb_softmax. fold Z.
  destruct (Nat.eq_dec i j) as [E|E].
  - subst j. set (r := Z - exp (u i)).
    assert (R : 0 <= r).
    { unfold r, Z. pose proof (sb_sum_one n (fun k => exp (u k)) i Hi (fun k => Rlt_le _ _ (exp_pos (u k)))).
      lra. }
    apply (is_derive_ext (fun t => exp t / (exp t + r))).
    + intros t. rewrite sb_sum_set by exact Hi. unfold sb_set.
      destruct (Nat.eq_dec i i); [reflexivity | lia].
    + apply (sb_is_derive_eq _ _ _ _ (softmax_diagonal (u i) r R)).
      replace (exp (u i) + r) with Z by (unfold r; ring). field. lra.
  - set (r := Z - exp (u i) - exp (u j)).
    assert (R : 0 <= r).
    { unfold r, Z.
      pose proof (sb_sum_two n (fun k => exp (u k)) i j Hi Hj E (fun k => Rlt_le _ _ (exp_pos (u k)))).
      lra. }
    apply (is_derive_ext (fun t => exp (u i) / (exp (u i) + exp t + r))).
    + intros t. rewrite sb_sum_set by exact Hj. unfold sb_set.
      destruct (Nat.eq_dec i j); [lia |]. unfold r, Z. f_equal. lra.
    + apply (sb_is_derive_eq _ _ _ _ (softmax_off_diagonal (u i) (u j) r R)).
      replace (exp (u i) + exp (u j) + r) with Z by (unfold r; ring). field. lra.
Qed.
Lemma softmax_derive : forall n u i j, (i < n)%nat -> (j < n)%nat ->
  Derive (fun t => sb_softmax n (sb_set u j t) i) (u j) = sb_jacobian (sb_softmax n u) i j.
Proof. intros n u i j Hi Hj. apply is_derive_unique, softmax_jacobian; assumption. Qed.
"""
"""J = diag(a) - a a^T, ||J h||_1 = sum_i a_i |h_i - a.h|, and J as softmax's derivative (standard)."""

MEAN = r"""
Lemma sb_mass_above : forall n (a : nat -> R) m (h : nat -> R),
  (forall i, (i < n)%nat -> 0 <= a i) -> sb_sum n a = 1 ->
  0 <= sb_sum n (fun i => if Rlt_dec m (h i) then a i else 0) <= 1.
Proof.
  intros n a m h Ha Hs. rewrite <- Hs. split.
  - apply sb_sum_nonneg. intros i H. destruct (Rlt_dec m (h i)); [exact (Ha i H) | lra].
  - apply sb_sum_le. intros i H. pose proof (Ha i H). destruct (Rlt_dec m (h i)); lra.
Qed.
Lemma at_most_a_vertex_value : forall n (a h : nat -> R) c,
  (forall i, (i < n)%nat -> 0 <= a i) -> sb_sum n a = 1 -> (forall i, (i < n)%nat -> Rabs (h i) <= c) ->
  exists q, 0 <= q <= 1 /\
    sb_sum n (fun i => a i * Rabs (h i - sb_sum n (fun j => a j * h j))) <= 4 * q * (1 - q) * c.
Proof.
  intros n a h c Ha Hs Hh. set (m := sb_sum n (fun j => a j * h j)).
  set (P := sb_sum n (fun i => if Rlt_dec m (h i) then a i else 0)).
  set (up i := if Rlt_dec m (h i) then a i * (h i - m) else 0).
  set (down i := if Rlt_dec m (h i) then 0 else a i * (m - h i)).
  exists P. pose proof (sb_mass_above n a m h Ha Hs) as HP. fold P in HP. split; [exact HP |].
  assert (Split : sb_sum n (fun i => a i * Rabs (h i - m)) = sb_sum n up + sb_sum n down).
  { rewrite <- sb_sum_plus. apply sb_sum_ext. intros i H. unfold up, down.
    destruct (Rlt_dec m (h i)).
    - rewrite Rabs_right by lra. lra.
    - rewrite Rabs_left1 by lra. lra. }
  assert (Balance : sb_sum n up - sb_sum n down = 0).
  { assert (E : sb_sum n up + (-1) * sb_sum n down = m + (- m) * sb_sum n a).
    { unfold m at 1. rewrite <- !sb_sum_scale, <- !sb_sum_plus. apply sb_sum_ext. intros i H.
      unfold up, down. destruct (Rlt_dec m (h i)); ring. }
    rewrite Hs in E. lra. }
  assert (Up : sb_sum n up <= P * (c - m)).
  { unfold P. rewrite Rmult_comm, <- sb_sum_scale. apply sb_sum_le. intros i H.
    unfold up. pose proof (Ha i H). pose proof (Rabs_le_between (h i) c) as [B _].
    pose proof (B (Hh i H)). destruct (Rlt_dec m (h i)); nra. }
  assert (Down : sb_sum n down <= (1 - P) * (c + m)).
  { assert (B : 1 - P = sb_sum n (fun i => if Rlt_dec m (h i) then 0 else a i)).
    { assert (E : sb_sum n a + (-1) * P = sb_sum n (fun i => if Rlt_dec m (h i) then 0 else a i)).
      { unfold P. rewrite <- sb_sum_scale, <- sb_sum_plus. apply sb_sum_ext. intros i H.
        destruct (Rlt_dec m (h i)); ring. }
      lra. }
    rewrite B, Rmult_comm, <- sb_sum_scale. apply sb_sum_le. intros i H.
    unfold down. pose proof (Ha i H). pose proof (Rabs_le_between (h i) c) as [B' _].
    pose proof (B' (Hh i H)). destruct (Rlt_dec m (h i)); nra. }
  fold m. rewrite Split. destruct (Rle_lt_dec (c * (2 * P - 1)) m) as [M|M].
  - assert (0 <= P * (m - c * (2 * P - 1))) by (apply Rmult_le_pos; lra). nra.
  - assert (0 <= (1 - P) * (c * (2 * P - 1) - m)) by (apply Rmult_le_pos; lra). nra.
Qed.
Fixpoint sb_norm_inf (n : nat) (h : nat -> R) : R :=
  match n with O => 0 | S k => Rmax (sb_norm_inf k h) (Rabs (h k)) end.
Lemma sb_norm_inf_nonneg : forall n h, 0 <= sb_norm_inf n h.
Proof.
  induction n as [|n IH]; intros h; simpl; [lra |].
  pose proof (IH h). pose proof (Rmax_l (sb_norm_inf n h) (Rabs (h n))). lra.
Qed.
Lemma sb_norm_inf_ge : forall n h i, (i < n)%nat -> Rabs (h i) <= sb_norm_inf n h.
Proof.
  induction n as [|n IH]; intros h i H; simpl; [lia |].
  destruct (Nat.eq_dec i n) as [E|E].
  - subst. apply Rmax_r.
  - pose proof (IH h i ltac:(lia)). pose proof (Rmax_l (sb_norm_inf n h) (Rabs (h n))). lra.
Qed.
"""
"""||J h||_1 <= 4 P (1 - P) ||h||_inf, P the mass above the mean a.h, for every n (standard)."""

EVERY_LENGTH = r"""
Theorem every_length : forall n (a h : nat -> R), (forall i, (i < n)%nat -> 0 <= a i) -> sb_sum n a = 1 ->
  sb_sum n (fun i => Rabs (sb_sum n (fun j => sb_jacobian a i j * h j))) <= KAPPA * sb_norm_inf n h.
Proof.
  intros n a h Ha Hs. rewrite (sum_over_every_length n a h Ha).
  destruct (at_most_a_vertex_value n a h (sb_norm_inf n h) Ha Hs (sb_norm_inf_ge n h)) as [q [Hq L]].
  pose proof (vertex_bound q Hq (vertex_inequality q Hq)) as V. rewrite <- (vertex_at_the_mass q Hq) in V.
  pose proof (sb_norm_inf_nonneg n h). nra.
Qed.
Theorem softmax_every_length : forall n (u h : nat -> R), (0 < n)%nat ->
  sb_sum n (fun i => Rabs (sb_sum n (fun j => Derive (fun t => sb_softmax n (sb_set u j t) i) (u j) * h j)))
  <= KAPPA * sb_norm_inf n h.
Proof.
  intros n u h H. destruct (softmax_simplex n u H) as [P S].
  rewrite (sb_sum_ext n _ (fun i => Rabs (sb_sum n (fun j => sb_jacobian (sb_softmax n u) i j * h j)))).
  - apply every_length; auto.
  - intros i Hi. f_equal. apply sb_sum_ext. intros j Hj. rewrite softmax_derive; auto.
Qed.
"""
"""The conclusion for every length, KAPPA the registry's constant: the vertex lemmas close it."""

REDUCED = "jacobian_l1_norm_every_length"
"""The registered inequality whose statement the reduction reduces the lemma to."""


def export_reduction(derived: sp.Expr | None, gap: sp.Expr, kappa: sp.Expr) -> CoqExport:
    """The reduction's Coq file (see the module): ||J h||_1 <= kappa ||h||_inf for every length, through
    derived = kappa - gap and 0 <= gap on q in [0, 1] (expressions in q; ``derived`` None when the
    reduction's derivation failed: Untranslatable)."""
    if derived is None:
        raise Untranslatable("the reduction did not derive a vertex value")
    value, bound, rest = (_printed(side) for side in (derived, kappa, gap))
    body = (
        SUMS
        + JACOBIAN
        + MEAN
        + f"Lemma vertex_value : forall v_q, 0 <= v_q <= 1 -> {value} = {bound} - {rest}.\n"
        + "Proof. intros v_q H. sb_unabs; nra. Qed.\n"
        + f"Lemma vertex_bound : forall v_q, 0 <= v_q <= 1 -> 0 <= {rest} -> {value} <= {bound}.\n"
        + "Proof. intros v_q H G. rewrite (vertex_value v_q H). lra. Qed.\n"
        + f"Lemma vertex_inequality : forall v_q, 0 <= v_q <= 1 -> 0 <= {rest}.\n"
        + "Proof. intros v_q H. pose proof (pow2_ge_0 (2 * v_q - 1)). nra. Qed.\n"
        + f"Lemma vertex_at_the_mass : forall v_q, 0 <= v_q <= 1 -> 4 * v_q * (1 - v_q) = {value}.\n"
        + "Proof. intros v_q H. sb_unabs; nra. Qed.\n"
        + EVERY_LENGTH.replace("KAPPA", f"({bound})")
        + "\nDefinition steps := (softmax_jacobian, every_length, softmax_every_length).\n"
        + "Print Assumptions steps.\n"
    )
    text = (
        "(* Exported by specbound: the softmax reduction for every length T, ||J h||_1 <= kappa ||h||_inf\n"
        "   for every n, J = diag(a) - a a^T the Jacobian of a = softmax(u). *)\n\n"
        + preamble_for(body)
        + body
    )
    return CoqExport(text, 0)


def _printed(expr: sp.Expr) -> str:
    """The Coq term of an expression in q (no general powers)."""
    tree: Any = to_tree(expr)
    return term(tree, lambda base: False)


def reduction_export(entry: LemmaInequality, path: Path) -> Export:
    """The reduction's file (see the module: ||J h||_1 <= kappa ||h||_inf for every n, through the registered
    inequality ``entry`` it reduces to) for :func:`theory.prover.coq.files.export_files`; its record names
    the steps not exported ("not_exported", with reasons: none)."""
    from theory.lipschitz import softmax_constant
    from theory.paper_proofs.softmax_every_length import vertex_value_every_length

    (inequality,) = entry.statement.inequalities
    return Export(
        path,
        lambda _: export_reduction(vertex_value_every_length(), inequality.gap, softmax_constant()),
        extra={"not_exported": [h.to_json() for h in NOT_EXPORTED]},
    )
