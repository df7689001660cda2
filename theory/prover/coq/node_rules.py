"""Shared Coq lemmas for the facts of sums and products in a node-by-node enclosure, each closed by one
exact rational check that Coq computes (``vm_compute``) instead of a search by ``lra`` or ``nra``.

A fact of the enclosure (:mod:`theory.prover.coq.unbounded`) says ``L <= t`` or ``t <= U`` (``<`` at an
open end) with L, U rationals printed ``(p / q)``: Coq reads that as ``IZR p / IZR (Zpos q)``, which is
Coq's ``Q2R (p # q)`` by definition, so a lemma can take p and q from the fact by unification and check a
rational inequality between them in ``Q`` (``Qle_bool``), then carry it to R (``Qle_Rle``, ``Qlt_Rlt``,
``Q2R_plus``, ``Q2R_mult``). ``sb_rel s x y`` is ``x < y`` when ``s`` is true, else ``x <= y``.

- ``sb_node_add_lo``: from ``La <=(<) a`` and ``Lb <=(<) b``, ``L <=(<) a + b`` where ``L <= La + Lb``
  (``L < La + Lb`` for a strict claim from two non-strict premises); ``_hi`` above.
- ``sb_node_mul_lo``: from a in [la, ua] and b in [lb, ub], ``L <=(<) a b`` where L is at most (below)
  each of the four corner products: a bilinear function on a rectangle takes its least value at a corner
  (``sb_node_corner_lo``, by cases on the signs of b, la, ua and ``nra``); ``_hi`` above.
- ``sb_node_pp_lo``: from ``0 <= la <=(<) a`` and ``0 <= lb <=(<) b``, ``L <=(<) a b`` where L is at most
  (below) la lb, or at most la lb with a strict premise whose other factor is > 0 (``sb_node_quadrant``:
  a b = (a - la) b + la (b - lb) + la lb); ``_nn_lo``, ``_pn_hi``, ``_np_hi`` the other sign quadrants
  (a, b or both negated), which need no far end: the products where an argument's set reaches infinity.
- ``sb_node_num``: two rationals, ``sb_node_num_z`` / ``sb_node_z_num`` an integer literal against one.

A check that fails (a wrong printed end) leaves ``false = true``: coqc refuses the fact. Provenance:
standard (interval arithmetic: the sum of two intervals, the product's extreme values at the corners).
"""

from __future__ import annotations

from fractions import Fraction

PREFIX = "sb_node_"
"""The names of these lemmas begin so; a file uses them where its text names one (:func:`used`)."""

LEMMAS = """\
From Coq Require QArith Qreals.
Definition sb_node_q (p : Z) (q : positive) : QArith_base.Q := QArith_base.Qmake p q.
Definition sb_rel (s : bool) (x y : R) : Prop := if s then x < y else x <= y.
Definition sb_node_check (s : bool) (x y : QArith_base.Q) : bool :=
  if s then negb (QArith_base.Qle_bool y x) else QArith_base.Qle_bool x y.
Lemma sb_node_check_R : forall s x y, sb_node_check s x y = true -> sb_rel s (Q2R x) (Q2R y).
Proof.
  intros [|] x y E; simpl in *.
  - apply Qreals.Qlt_Rlt, QOrderedType.QOrder.not_ge_lt. intro H.
    apply QArith_base.Qle_bool_iff in H. rewrite H in E. discriminate.
  - apply Qreals.Qle_Rle, QArith_base.Qle_bool_iff, E.
Qed.
Lemma sb_node_q_R : forall p q, IZR p / IZR (Zpos q) = Q2R (sb_node_q p q).
Proof. reflexivity. Qed.
Lemma sb_rel_le : forall s x y, sb_rel s x y -> x <= y.
Proof. intros [|] x y H; simpl in H; lra. Qed.
Lemma sb_node_num : forall s p q p' q', sb_node_check s (sb_node_q p q) (sb_node_q p' q') = true ->
  sb_rel s (IZR p / IZR (Zpos q)) (IZR p' / IZR (Zpos q')).
Proof. intros s p q p' q' C. apply sb_node_check_R in C. exact C. Qed.
Lemma sb_node_num_z : forall s p q z, sb_node_check s (sb_node_q p q) (sb_node_q z 1) = true ->
  sb_rel s (IZR p / IZR (Zpos q)) (IZR z).
Proof.
  intros s p q z C. apply sb_node_check_R in C. unfold Q2R in C. simpl in C.
  rewrite Rinv_1, Rmult_1_r in C. exact C.
Qed.
Lemma sb_node_z_num : forall s p q z, sb_node_check s (sb_node_q z 1) (sb_node_q p q) = true ->
  sb_rel s (IZR z) (IZR p / IZR (Zpos q)).
Proof.
  intros s p q z C. apply sb_node_check_R in C. unfold Q2R in C. simpl in C.
  rewrite Rinv_1, Rmult_1_r in C. exact C.
Qed.
Lemma sb_node_add_lo : forall (s s1 s2 : bool) (a b : R) (p1 p2 p : Z) (q1 q2 q : positive),
  sb_rel s1 (IZR p1 / IZR (Zpos q1)) a -> sb_rel s2 (IZR p2 / IZR (Zpos q2)) b ->
  sb_node_check (s && negb s1 && negb s2) (sb_node_q p q)
    (QArith_base.Qplus (sb_node_q p1 q1) (sb_node_q p2 q2)) = true ->
  sb_rel s (IZR p / IZR (Zpos q)) (a + b).
Proof.
  intros s s1 s2 a b p1 p2 p q1 q2 q A B C. apply sb_node_check_R in C.
  rewrite Qreals.Q2R_plus, <- !sb_node_q_R in C. destruct s, s1, s2; simpl in *; lra.
Qed.
Lemma sb_node_add_hi : forall (s s1 s2 : bool) (a b : R) (p1 p2 p : Z) (q1 q2 q : positive),
  sb_rel s1 a (IZR p1 / IZR (Zpos q1)) -> sb_rel s2 b (IZR p2 / IZR (Zpos q2)) ->
  sb_node_check (s && negb s1 && negb s2)
    (QArith_base.Qplus (sb_node_q p1 q1) (sb_node_q p2 q2)) (sb_node_q p q) = true ->
  sb_rel s (a + b) (IZR p / IZR (Zpos q)).
Proof.
  intros s s1 s2 a b p1 p2 p q1 q2 q A B C. apply sb_node_check_R in C.
  rewrite Qreals.Q2R_plus, <- !sb_node_q_R in C. destruct s, s1, s2; simpl in *; lra.
Qed.
Lemma sb_node_corner_lo : forall s l a b la ua lb ub, la <= a <= ua -> lb <= b <= ub ->
  sb_rel s l (la * lb) -> sb_rel s l (la * ub) -> sb_rel s l (ua * lb) -> sb_rel s l (ua * ub) ->
  sb_rel s l (a * b).
Proof.
  intros s l a b la ua lb ub A B C1 C2 C3 C4.
  assert (K : la * lb <= a * b \\/ la * ub <= a * b \\/ ua * lb <= a * b \\/ ua * ub <= a * b).
  { destruct (Rle_lt_dec 0 b), (Rle_lt_dec 0 la), (Rle_lt_dec 0 ua); nra. }
  destruct s; simpl in *; lra.
Qed.
Lemma sb_node_corner_hi : forall s u a b la ua lb ub, la <= a <= ua -> lb <= b <= ub ->
  sb_rel s (la * lb) u -> sb_rel s (la * ub) u -> sb_rel s (ua * lb) u -> sb_rel s (ua * ub) u ->
  sb_rel s (a * b) u.
Proof.
  intros s u a b la ua lb ub A B C1 C2 C3 C4.
  assert (K : a * b <= la * lb \\/ a * b <= la * ub \\/ a * b <= ua * lb \\/ a * b <= ua * ub).
  { destruct (Rle_lt_dec 0 b), (Rle_lt_dec 0 la), (Rle_lt_dec 0 ua); nra. }
  destruct s; simpl in *; lra.
Qed.
Definition sb_node_corners (s : bool) (l la ua lb ub : QArith_base.Q) : bool :=
  sb_node_check s l (QArith_base.Qmult la lb) && sb_node_check s l (QArith_base.Qmult la ub)
  && sb_node_check s l (QArith_base.Qmult ua lb) && sb_node_check s l (QArith_base.Qmult ua ub).
Definition sb_node_corners_hi (s : bool) (u la ua lb ub : QArith_base.Q) : bool :=
  sb_node_check s (QArith_base.Qmult la lb) u && sb_node_check s (QArith_base.Qmult la ub) u
  && sb_node_check s (QArith_base.Qmult ua lb) u && sb_node_check s (QArith_base.Qmult ua ub) u.
Ltac sb_node_corners C :=
  apply andb_prop in C as [C C4]; apply andb_prop in C as [C C3]; apply andb_prop in C as [C1 C2];
  apply sb_node_check_R in C1, C2, C3, C4; rewrite Qreals.Q2R_mult, <- !sb_node_q_R in C1, C2, C3, C4.
Lemma sb_node_mul_lo : forall (s s1 s2 s3 s4 : bool) (a b : R) (p1 p2 p3 p4 p : Z)
  (q1 q2 q3 q4 q : positive),
  sb_rel s1 (IZR p1 / IZR (Zpos q1)) a -> sb_rel s2 a (IZR p2 / IZR (Zpos q2)) ->
  sb_rel s3 (IZR p3 / IZR (Zpos q3)) b -> sb_rel s4 b (IZR p4 / IZR (Zpos q4)) ->
  sb_node_corners s (sb_node_q p q) (sb_node_q p1 q1) (sb_node_q p2 q2) (sb_node_q p3 q3)
    (sb_node_q p4 q4) = true ->
  sb_rel s (IZR p / IZR (Zpos q)) (a * b).
Proof.
  intros s s1 s2 s3 s4 a b p1 p2 p3 p4 p q1 q2 q3 q4 q A1 A2 B1 B2 C.
  unfold sb_node_corners in C. sb_node_corners C.
  apply sb_rel_le in A1, A2, B1, B2.
  exact (sb_node_corner_lo s _ a b _ _ _ _ (conj A1 A2) (conj B1 B2) C1 C2 C3 C4).
Qed.
Lemma sb_node_mul_hi : forall (s s1 s2 s3 s4 : bool) (a b : R) (p1 p2 p3 p4 p : Z)
  (q1 q2 q3 q4 q : positive),
  sb_rel s1 (IZR p1 / IZR (Zpos q1)) a -> sb_rel s2 a (IZR p2 / IZR (Zpos q2)) ->
  sb_rel s3 (IZR p3 / IZR (Zpos q3)) b -> sb_rel s4 b (IZR p4 / IZR (Zpos q4)) ->
  sb_node_corners_hi s (sb_node_q p q) (sb_node_q p1 q1) (sb_node_q p2 q2) (sb_node_q p3 q3)
    (sb_node_q p4 q4) = true ->
  sb_rel s (a * b) (IZR p / IZR (Zpos q)).
Proof.
  intros s s1 s2 s3 s4 a b p1 p2 p3 p4 p q1 q2 q3 q4 q A1 A2 B1 B2 C.
  unfold sb_node_corners_hi in C. sb_node_corners C.
  apply sb_rel_le in A1, A2, B1, B2.
  exact (sb_node_corner_hi s _ a b _ _ _ _ (conj A1 A2) (conj B1 B2) C1 C2 C3 C4).
Qed.
Definition sb_node_quad (s s1 s3 : bool) (l lx ly : QArith_base.Q) : bool :=
  QArith_base.Qle_bool (sb_node_q 0 1) lx && QArith_base.Qle_bool (sb_node_q 0 1) ly &&
  (sb_node_check s l (QArith_base.Qmult lx ly) ||
   (QArith_base.Qle_bool l (QArith_base.Qmult lx ly)
    && (s1 && (s3 || sb_node_check true (sb_node_q 0 1) ly) || s3 && sb_node_check true (sb_node_q 0 1) lx))).
Lemma sb_node_quadrant : forall s s1 s3 l lx ly x y, sb_node_quad s s1 s3 l lx ly = true ->
  sb_rel s1 (Q2R lx) x -> sb_rel s3 (Q2R ly) y -> sb_rel s (Q2R l) (x * y).
Proof.
  intros s s1 s3 l lx ly x y C A B. unfold sb_node_quad in C.
  apply andb_prop in C as [C D]. apply andb_prop in C as [C0 C1].
  apply (sb_node_check_R false) in C0, C1. cbn [sb_rel] in C0, C1. rewrite <- sb_node_q_R in C0, C1.
  assert (I : x * y = (x - Q2R lx) * y + Q2R lx * (y - Q2R ly) + Q2R lx * Q2R ly) by ring.
  pose proof (sb_rel_le _ _ _ A) as A'. pose proof (sb_rel_le _ _ _ B) as B'.
  assert (P1 : 0 <= (x - Q2R lx) * y) by (apply Rmult_le_pos; lra).
  assert (P2 : 0 <= Q2R lx * (y - Q2R ly)) by (apply Rmult_le_pos; lra).
  apply Bool.orb_prop in D as [D|D].
  - apply sb_node_check_R in D. rewrite Qreals.Q2R_mult in D. destruct s; cbn [sb_rel] in *; lra.
  - apply andb_prop in D as [D E]. apply (sb_node_check_R false) in D. cbn [sb_rel] in D.
    rewrite Qreals.Q2R_mult in D. destruct s; cbn [sb_rel]; [| lra].
    apply Bool.orb_prop in E as [E|E]; apply andb_prop in E as [E F].
    + destruct s1; [| discriminate]. cbn [sb_rel] in A.
      assert (Y : 0 < y).
      { apply Bool.orb_prop in F as [F|F].
        - destruct s3; [cbn [sb_rel] in B; lra | discriminate].
        - apply sb_node_check_R in F. cbn [sb_rel] in F. rewrite <- sb_node_q_R in F. lra. }
      assert (0 < (x - Q2R lx) * y) by (apply Rmult_lt_0_compat; lra). lra.
    + destruct s3; [| discriminate]. cbn [sb_rel] in B. apply sb_node_check_R in F.
      cbn [sb_rel] in F. rewrite <- sb_node_q_R in F.
      assert (0 < Q2R lx * (y - Q2R ly)) by (apply Rmult_lt_0_compat; lra). lra.
Qed.
Lemma sb_node_pp_lo : forall (s s1 s3 : bool) (a b : R) (p1 p3 p : Z) (q1 q3 q : positive),
  sb_rel s1 (IZR p1 / IZR (Zpos q1)) a -> sb_rel s3 (IZR p3 / IZR (Zpos q3)) b ->
  sb_node_quad s s1 s3 (sb_node_q p q) (sb_node_q p1 q1) (sb_node_q p3 q3) = true ->
  sb_rel s (IZR p / IZR (Zpos q)) (a * b).
Proof. intros s s1 s3 a b p1 p3 p q1 q3 q A B C. exact (sb_node_quadrant _ _ _ _ _ _ a b C A B). Qed.
Lemma sb_node_nn_lo : forall (s s1 s3 : bool) (a b : R) (p1 p3 p : Z) (q1 q3 q : positive),
  sb_rel s1 a (IZR p1 / IZR (Zpos q1)) -> sb_rel s3 b (IZR p3 / IZR (Zpos q3)) ->
  sb_node_quad s s1 s3 (sb_node_q p q) (QArith_base.Qopp (sb_node_q p1 q1))
    (QArith_base.Qopp (sb_node_q p3 q3)) = true ->
  sb_rel s (IZR p / IZR (Zpos q)) (a * b).
Proof.
  intros s s1 s3 a b p1 p3 p q1 q3 q A B C. replace (a * b) with ((- a) * (- b)) by ring.
  apply (sb_node_quadrant _ _ _ _ _ _ _ _ C); rewrite Qreals.Q2R_opp, <- sb_node_q_R;
  [destruct s1 | destruct s3]; simpl in *; lra.
Qed.
Lemma sb_node_pn_hi : forall (s s1 s3 : bool) (a b : R) (p1 p3 p : Z) (q1 q3 q : positive),
  sb_rel s1 (IZR p1 / IZR (Zpos q1)) a -> sb_rel s3 b (IZR p3 / IZR (Zpos q3)) ->
  sb_node_quad s s1 s3 (QArith_base.Qopp (sb_node_q p q)) (sb_node_q p1 q1)
    (QArith_base.Qopp (sb_node_q p3 q3)) = true ->
  sb_rel s (a * b) (IZR p / IZR (Zpos q)).
Proof.
  intros s s1 s3 a b p1 p3 p q1 q3 q A B C.
  assert (B' : sb_rel s3 (Q2R (QArith_base.Qopp (sb_node_q p3 q3))) (- b))
    by (rewrite Qreals.Q2R_opp, <- sb_node_q_R; destruct s3; simpl in *; lra).
  assert (K := sb_node_quadrant _ _ _ _ _ _ a (- b) C A B').
  rewrite Qreals.Q2R_opp, <- sb_node_q_R in K. destruct s; simpl in *; lra.
Qed.
Lemma sb_node_np_hi : forall (s s1 s3 : bool) (a b : R) (p1 p3 p : Z) (q1 q3 q : positive),
  sb_rel s1 a (IZR p1 / IZR (Zpos q1)) -> sb_rel s3 (IZR p3 / IZR (Zpos q3)) b ->
  sb_node_quad s s1 s3 (QArith_base.Qopp (sb_node_q p q)) (QArith_base.Qopp (sb_node_q p1 q1))
    (sb_node_q p3 q3) = true ->
  sb_rel s (a * b) (IZR p / IZR (Zpos q)).
Proof.
  intros s s1 s3 a b p1 p3 p q1 q3 q A B C.
  assert (A' : sb_rel s1 (Q2R (QArith_base.Qopp (sb_node_q p1 q1))) (- a))
    by (rewrite Qreals.Q2R_opp, <- sb_node_q_R; destruct s1; simpl in *; lra).
  assert (K := sb_node_quadrant _ _ _ _ _ _ (- a) b C A' B).
  rewrite Qreals.Q2R_opp, <- sb_node_q_R in K. destruct s; simpl in *; lra.
Qed.
"""
"""The lemmas (in the preamble of a file that uses them: :func:`used`)."""


def used(text: str) -> bool:
    """Whether ``text`` (a file's lemmas) names one of these lemmas."""
    return PREFIX in text


def quotient(value: Fraction) -> str:
    """A rational as a Coq real ``(p / q)`` with q >= 1 even for an integer (``(3 / 1)``): the form the
    lemmas read p and q from."""
    return f"({value.numerator} / {value.denominator})"


def holds(strict: bool, low: Fraction, high: Fraction) -> bool:
    """low < high (``strict``) or low <= high: the check a lemma leaves to ``vm_compute``."""
    return low < high if strict else low <= high


def flag(value: bool) -> str:
    return "true" if value else "false"


CHECKED = "vm_compute; reflexivity"
"""The tactic of a lemma's rational check (``sb_node_check ... = true``)."""


def addition(lower: bool, strict: bool, opened: tuple[bool, bool], facts: tuple[str, str]) -> str:
    """The proof of ``L <= a + b`` (``lower``) or ``a + b <= U`` from one fact of each argument (``opened``:
    whether each is strict)."""
    name = "sb_node_add_lo" if lower else "sb_node_add_hi"
    flags = " ".join(flag(f) for f in (strict, *opened))
    return f"refine ({name} {flags}{' _' * 8} {facts[0]} {facts[1]} _); {CHECKED}"


def addition_holds(
    lower: bool, strict: bool, opened: tuple[bool, bool], bound: Fraction, ends: tuple[Fraction, Fraction]
) -> bool:
    """Whether :func:`addition`'s check holds (a strict claim from a strict argument needs only <=)."""
    tight = strict and not any(opened)
    total = ends[0] + ends[1]
    return holds(tight, bound, total) if lower else holds(tight, total, bound)


def product(lower: bool, strict: bool, opened: tuple[bool, bool, bool, bool], facts: tuple[str, ...]) -> str:
    """The proof of ``L <= a * b`` (``lower``) or ``a * b <= U`` from both facts of each argument (a's
    lower and upper, then b's; ``opened``: whether each is strict)."""
    name = "sb_node_mul_lo" if lower else "sb_node_mul_hi"
    flags = " ".join(flag(f) for f in (strict, *opened))
    return f"refine ({name} {flags}{' _' * 12} {' '.join(facts)} _); {CHECKED}"


def product_holds(
    lower: bool, strict: bool, bound: Fraction, a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]
) -> bool:
    """Whether :func:`product`'s check holds: the bound below (above) each corner product."""
    corners = [x * y for x in a for y in b]
    return all(holds(strict, bound, c) if lower else holds(strict, c, bound) for c in corners)


def quadrant_holds(
    strict: bool, opened: tuple[bool, bool], bound: Fraction, x: Fraction, y: Fraction
) -> bool:
    """Whether ``sb_node_quad``'s check holds: bound <= x y (strict: below it, or at it with a strict
    premise whose other factor is > 0), x, y >= 0 (the arguments' ends, negated where the quadrant is)."""
    if x < 0 or y < 0:
        return False
    if holds(strict, bound, x * y):
        return True
    return bound <= x * y and ((opened[0] and (opened[1] or y > 0)) or (opened[1] and x > 0))


QUADRANTS = (
    ("sb_node_pp_lo", "lo", "lo", True),
    ("sb_node_nn_lo", "hi", "hi", True),
    ("sb_node_pn_hi", "lo", "hi", False),
    ("sb_node_np_hi", "hi", "lo", False),
)
"""Each quadrant lemma: the sides of a's and b's facts it reads and whether it gives a lower end."""


def quadrant(name: str, strict: bool, opened: tuple[bool, bool], facts: tuple[str, str]) -> str:
    """The proof of a product's fact by the quadrant lemma ``name``."""
    flags = " ".join(flag(f) for f in (strict, *opened))
    return f"refine ({name} {flags}{' _' * 8} {facts[0]} {facts[1]} _); {CHECKED}"
