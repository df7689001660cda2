"""The head of every exported Coq file: imports, the closing tactics and the proved lemmas the exporter's
proofs apply. A file carries the items (``Lemma``, ``Ltac``, ``Definition``) its own text names and every
item those name in turn, in the preamble's order (:func:`preamble_for`): standalone, and no longer than it
needs (coqc compiles each item's proof in every file that carries it).

``sb_close`` closes a real inequality on a box whose variables' bounds are hypotheses: ``lra``, then
Interval's ``interval`` at the kernel's two ball precisions (64 and 256 bits), then the exact values
ln 1 = 0, exp 0 = 1 (a face where the gap is exactly 0) followed by ``lra`` / ``nra``.

``sb_identity`` proves an identity of the gap and a rewritten form, or of two derivatives (``field``,
its denominators nonzero by ``sb_side``; else ``ring`` or ``lra``, or ``ring`` after 0 + a, a * 1, ...
are simplified inside the functions' arguments, where ``ring`` sees atoms). ``sb_side`` closes a domain
condition of ``auto_derive`` (an inequality, or e <> 0 from e > 0 or e < 0, or Rpower a b <> 0: an exp);
``sb_powers`` rewrites exp((a + b) c) as exp(a c) exp(b c) and exp(-ln x) as / x (the kernel's derivative
of a^p has a^(p - 1), Coquelicot's a^p / a). ``sb_atoms`` makes two sqrt, ln or exp atoms whose
arguments are equal by ``ring`` one (``ring`` and ``lra`` compare atoms syntactically). ``sb_unabs``
splits each Rabs of the goal by the sign of its argument.
``sb_signs`` replaces ``sign e`` (the derivative of Abs) by 1 or -1 where sb_close shows e's sign.

``sb_increasing`` / ``sb_decreasing`` are the mean value theorem (Coquelicot's ``MVT_gen``) in the form a
monotone box needs: a derivative of f on [a, b] with a sign bounds f by its value at a (or b); the
``_strict`` forms take a strictly signed derivative and a point away from that end. They are proved in the
file, so nothing is assumed. Provenance: standard (mean value theorem; Coquelicot, Boldo, Lelay and
Melquiond 2015; Interval, Melquiond 2008).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from theory.prover.coq import node_rules

PRECISIONS = (64, 256)
"""Bits of Interval's floating-point evaluation: the kernel's two ball precisions."""

_MVT = """\
Lemma sb_{name} : forall (f df : R -> R) (a b : R),
  (forall t, a <= t <= b -> is_derive f t (df t)) ->
  (forall t, a <= t <= b -> {sign}) ->
  forall x, {range} -> {conclusion}.
Proof.
  intros f df a b Hd Hs x Hx.
  destruct (Req_dec x {end_}) as [E|E]; [{at_end} |].
  destruct (MVT_gen f {end_} x df) as [c [Hc Heq]].
  - intros t Ht. apply Hd. {unfold_minmax} lra.
  - intros t Ht. apply continuity_pt_filterlim. apply (ex_derive_continuous f).
    eexists. apply Hd. {unfold_minmax} lra.
  - {fold_c} assert (Hc' : {sign_c}) by (apply Hs; lra). {finish}
Qed.
"""


POWERS = """\
Definition sb_rpow (a b : R) : R := if Rlt_dec 0 a then Rpower a b else 0.
Lemma sb_rpow_pos : forall a b, 0 < a -> sb_rpow a b = Rpower a b.
Proof. intros a b H. unfold sb_rpow. destruct (Rlt_dec 0 a); [reflexivity | lra]. Qed.
Lemma sb_rpow_zero : forall b, sb_rpow 0 b = 0.
Proof. intros b. unfold sb_rpow. destruct (Rlt_dec 0 0); [lra | reflexivity]. Qed.
Lemma sb_rpow_nonneg : forall a b, 0 <= sb_rpow a b.
Proof.
  intros a b. unfold sb_rpow. destruct (Rlt_dec 0 a); [unfold Rpower; apply Rlt_le, exp_pos | lra].
Qed.
Lemma sb_rpow_le : forall a c b, 0 <= b -> 0 <= a <= c -> sb_rpow a b <= sb_rpow c b.
Proof.
  intros a c b Hb [Ha Hc]. destruct (Req_dec a 0) as [E|E].
  - subst. rewrite sb_rpow_zero. apply sb_rpow_nonneg.
  - rewrite !sb_rpow_pos by lra. apply Rle_Rpower_l; lra.
Qed.
Ltac sb_rpow_cases :=
  unfold sb_rpow; repeat match goal with |- context [Rlt_dec 0 ?a] =>
    let P := fresh "P" in destruct (Rlt_dec 0 a) as [P|P];
    [ try (exfalso; lra) | try (exfalso; apply P; sb_close) ] end.
Ltac sb_positive :=
  first [ lra | apply Rmult_lt_0_compat; sb_positive | apply Rinv_0_lt_compat; sb_positive
        | apply pow_lt; sb_positive | apply Rplus_lt_0_compat; sb_positive | apply sqrt_lt_R0; sb_positive
        | unfold Rpower; apply exp_pos | apply exp_pos ].
Ltac sb_at_zero :=
  unfold Rpower;
  repeat progress rewrite ?Rmult_0_l, ?Rmult_0_r, ?Rplus_0_l, ?Rplus_0_r, ?Rmult_1_l, ?Rmult_1_r,
    ?ln_1, ?exp_0;
  sb_close.
"""
"""a^b for a base that may reach 0: Coq's ``Rpower a b`` = exp(b ln a) is 1 at a = 0 (Coq's ln 0 = 0),
the language's a^b is 0 there for b > 0; ``sb_rpow`` is Rpower for a > 0 and 0 otherwise, the
language's a^b wherever the kernel defines it (a > 0, or a = 0 and b > 0), with its value at 0, its
sign and its monotonicity in the base for b >= 0 proved (standard). ``sb_rpow_cases`` unfolds it and
splits each ``sb_rpow a b`` of the goal by the sign of a (Rpower a b for 0 < a, else 0), closing the
cases the box excludes (lra, ``sb_close``); ``sb_positive`` shows t > 0 for a product, inverse, power,
sum or square root of positive terms, or an Rpower or exp, node by node (``lra`` from the premises first
at every node, else the node's rule: Rmult_lt_0_compat, Rinv_0_lt_compat, pow_lt, Rplus_lt_0_compat,
sqrt_lt_R0, exp_pos; every rule the exporter's positivity steps use); ``sb_at_zero`` closes a face where
a base is 0 or 1 (0 * t = 0, ln 1 = 0, exp 0 = 1 written out, then ``sb_close``)."""
EXPONENTS = """\
Ltac sb_equal := first [ ring | field; repeat split; sb_side ].
Ltac sb_rpowers :=
  repeat match goal with |- context [Rpower ?a ?b] => match goal with |- context [Rpower ?c ?d] =>
    assert_fails (constr_eq a c; constr_eq b d);
    replace (Rpower a b) with (Rpower c d) by (f_equal; sb_equal) end end.
Lemma sb_swap : forall x a y, x * a * y = x * y * a.
Proof. intros. ring. Qed.
Ltac sb_exp_merge :=
  repeat match goal with
  | |- context [exp ?a * exp ?b] => rewrite <- (exp_plus a b)
  | |- context [?x * exp ?a * exp ?b] => rewrite (Rmult_assoc x (exp a) (exp b)), <- (exp_plus a b)
  | |- context [?x * exp ?a * ?y] =>
      lazymatch y with exp _ => fail | _ => rewrite (sb_swap x (exp a) y) end
  | |- context [exp ?a * ?y] =>
      lazymatch y with exp _ => fail | _ => rewrite (Rmult_comm (exp a) y) end
  end.
Ltac sb_exp_atoms :=
  repeat match goal with |- context [exp ?a] => match goal with |- context [exp ?b] =>
    assert_fails (constr_eq a b); replace (exp a) with (exp b) by (f_equal; sb_equal) end end.
Ltac sb_exp_zero :=
  repeat match goal with |- context [exp ?a] =>
    replace (exp a) with 1 by (replace a with 0 by sb_equal; symmetry; apply exp_0) end.
Ltac sb_exp_ln :=
  repeat match goal with |- context [exp ?u] => match u with context [ln ?a] =>
    first [ replace (exp u) with a by (replace u with (ln a) by sb_equal; symmetry; apply exp_ln; sb_side)
          | replace (exp u) with (/ a)
              by (replace u with (- ln a) by sb_equal; rewrite exp_Ropp, exp_ln by sb_side; reflexivity) ]
  end end.
Ltac sb_exponents :=
  unfold Rpower; repeat rewrite ln_exp;
  repeat (rewrite ln_mult by sb_side); repeat (rewrite ln_Rinv by sb_side);
  sb_exp_merge; sb_exp_zero; sb_exp_ln; sb_exp_atoms; sb_equal.
"""
"""The laws of exponents for ``sb_identity_laws`` (``sb_identity``, then these), which a box's identity
uses: ``field`` and ``ring`` take each Rpower and exp as an atom;
``sb_rpowers`` makes two Rpower a b, Rpower c d one atom where a = c and b = d by ``sb_equal`` (ring, or
field with its denominators nonzero); ``sb_exponents`` writes Rpower a b = exp(b ln a) (its definition),
ln (exp u) = u, ln (x y) = ln x + ln y and ln (/ x) = - ln x for x, y > 0 (``sb_side``), merges the exp
factors of each product into one (exp a exp b = exp (a + b), the other factors moved to its left,
``sb_swap``), so that a^x a^y = a^(x + y), (a b)^x = a^x b^x and (a^x)^y = a^(x y) become equal exp
atoms, writes exp a = 1 where a = 0 and exp a = x or / x where a = ln x or -ln x for x > 0 (so
2^(-1/2) 2^(-1/2) = 1/2), and makes exp a, exp b one atom where a = b by ``sb_equal``. Standard
(exp_plus, exp_0, exp_ln, ln_exp, ln_mult, ln_Rinv)."""
ROUNDINGS = """\
Lemma sb_floor_le : forall x y, x <= y -> IZR (Raux.Zfloor x) <= IZR (Raux.Zfloor y).
Proof. intros x y H. apply IZR_le, Raux.Zfloor_le, H. Qed.
Lemma sb_ceil_le : forall x y, x <= y -> IZR (Raux.Zceil x) <= IZR (Raux.Zceil y).
Proof. intros x y H. apply IZR_le, Raux.Zceil_le, H. Qed.
Lemma sb_ceil_above : forall (n : Z) x, IZR n < x -> IZR n + 1 <= IZR (Raux.Zceil x).
Proof.
  intros n x H. pose proof (Raux.Zceil_ub x) as U.
  assert (L : (n < Raux.Zceil x)%Z) by (apply lt_IZR; lra).
  rewrite <- plus_IZR. apply IZR_le. lia.
Qed.
"""
"""floor and ceiling are non-strictly increasing, and ceiling(x) >= n + 1 for x > n an integer (Flocq's
Zfloor_le, Zceil_le, Zceil_ub; standard)."""
MONOTONE_FUNCTIONS = """\
Lemma sb_exp_le : forall x y, x <= y -> exp x <= exp y.
Proof.
  intros x y H. destruct (Req_dec x y) as [E|E]; [subst; lra | apply Rlt_le, exp_increasing; lra].
Qed.
Lemma sb_ln_le : forall x y, 0 < x -> x <= y -> ln x <= ln y.
Proof.
  intros x y H H'. destruct (Req_dec x y) as [E|E]; [subst; lra | apply Rlt_le, ln_increasing; lra].
Qed.
Lemma sb_atan_le : forall x y, x <= y -> atan x <= atan y.
Proof.
  intros x y H. destruct (Req_dec x y) as [E|E]; [subst; lra | apply Rlt_le, atan_increasing; lra].
Qed.
Lemma sb_exp_neg_ln : forall x, 0 < x -> exp (-1 * ln x) = / x.
Proof.
  intros x H. replace (-1 * ln x) with (- ln x) by ring. rewrite exp_Ropp, exp_ln; [reflexivity | lra].
Qed.
Lemma sb_squares : forall a b, 0 <= a -> 0 <= b -> 0 <= a * a + (-1) * b * b -> 0 <= a + (-1) * b.
Proof. intros a b Ha Hb H. nra. Qed.
Lemma sb_squares_strict : forall a b, 0 <= a -> 0 <= b -> 0 < a * a + (-1) * b * b -> 0 < a + (-1) * b.
Proof. intros a b Ha Hb H. nra. Qed.
Lemma sb_pow_lt : forall x y n, 0 <= x -> x < y -> (0 < n)%nat -> x ^ n < y ^ n.
Proof.
  intros x y n Hx Hy Hn. induction n as [|n IH]; [lia |].
  destruct n as [|n]; [simpl; lra |].
  change (x * x ^ S n < y * y ^ S n).
  assert (x ^ S n < y ^ S n) by (apply IH; lia).
  assert (0 <= x ^ S n) by (apply pow_le; lra).
  nra.
Qed.
"""
SIGNS = """\
Lemma sb_ln_pos : forall x, 1 < x -> 0 < ln x.
Proof. intros x H. rewrite <- ln_1. apply ln_increasing; lra. Qed.
Lemma sb_ln_nonneg : forall x, 1 <= x -> 0 <= ln x.
Proof. intros x H. rewrite <- ln_1. apply sb_ln_le; lra. Qed.
Ltac sb_sign :=
  first [ lra
  | lazymatch goal with
    | |- ?x <> 0 => apply Rgt_not_eq; change (0 < x); sb_sign
    | |- 0 < _ * _ => apply Rmult_lt_0_compat; sb_sign
    | |- 0 <= _ * _ => apply Rmult_le_pos; sb_sign
    | |- 0 < _ + _ =>
        first [ apply Rplus_lt_le_0_compat; sb_sign | apply Rplus_le_lt_0_compat; sb_sign ]
    | |- 0 <= _ + _ => apply Rplus_le_le_0_compat; sb_sign
    | |- 0 < / _ => apply Rinv_0_lt_compat; sb_sign
    | |- 0 <= / _ => apply Rlt_le, Rinv_0_lt_compat; sb_sign
    | |- 0 < sqrt _ => apply sqrt_lt_R0; sb_sign
    | |- 0 <= sqrt _ => apply sqrt_pos
    | |- 0 < _ ^ _ => apply pow_lt; sb_sign
    | |- 0 <= _ ^ _ => apply pow_le; sb_sign
    | |- 0 < exp _ => apply exp_pos
    | |- 0 <= exp _ => apply Rlt_le, exp_pos
    | |- 0 < Rpower _ _ => unfold Rpower; apply exp_pos
    | |- 0 <= Rpower _ _ => apply Rlt_le; unfold Rpower; apply exp_pos
    | |- 0 < ln _ => apply sb_ln_pos; sb_close
    | |- 0 <= ln _ => apply sb_ln_nonneg; sb_close
    end
  | interval with (i_prec 64) ].
Ltac sb_sign_side := first [ sb_sign | sb_side ].
Ltac sb_identity_signs :=
  solve [ rewrite ?Rmult_1_l, ?Rmult_1_r, ?pow_O; field; repeat split; sb_sign_side ].
"""
"""A domain condition of ``auto_derive`` (0 < e, 0 <= e or e <> 0 from 0 < e) by the signs of e's parts,
where Interval cannot enclose e because a variable's range is not bounded by numbers: a product or sum of
positive (nonnegative) parts is positive (nonnegative; a sum is positive when one part is and the rest
are nonnegative), so are / a for a > 0, sqrt a (a > 0; sqrt a >= 0 always), a^n (a > 0; a >= 0), exp
and Rpower (an exp); ln a > 0 for a > 1 and ln a >= 0 for a >= 1 (ln is increasing, ln 1 = 0). The
leaves are ``lra`` on the hypotheses (t's segment, the box's bounds) or Interval where they are bounded.
Each rule is a lemma of the standard library's (``Rmult_lt_0_compat``, ``Rplus_lt_le_0_compat``,
``sqrt_lt_R0``, ``pow_lt``, ``exp_pos``, ...) or proved here, so a condition that does not hold (a
factor that can be 0 or negative) is refused. ``sb_sign_side`` tries these rules, then ``sb_side``;
``sb_identity_signs`` proves auto_derive's derivative equal to the kernel's on such a range: 1 * a, a * 1
and a^0 written as a and 1 (so ln (1 * t) and ln t are one atom), then ``field``, its denominators
nonzero by ``sb_sign_side``. Provenance: standard."""
TERMWISE_DERIVE = """\
Lemma sb_derive_eq : forall (f : R -> R) (x d l : R), is_derive f x d -> d = l -> is_derive f x l.
Proof. intros f x d l H E. rewrite <- E. exact H. Qed.
Lemma sb_derive_plus : forall (f g : R -> R) (x df dg : R),
  is_derive f x df -> is_derive g x dg -> is_derive (fun v => f v + g v) x (df + dg).
Proof. intros f g x df dg Hf Hg. now apply (is_derive_plus f g). Qed.
Ltac sb_derive_terms :=
  lazymatch goal with
  | |- is_derive (fun v => _ + _) _ _ =>
      refine (sb_derive_plus _ _ _ _ _ _ _); [ sb_derive_terms | sb_derive_terms ]
  | |- _ => auto_derive; [ | reflexivity ]
  end.
Ltac sb_derive := eapply sb_derive_eq; [ sb_derive_terms | ].
"""
"""``sb_derive`` does what ``auto_derive`` does (a goal is_derive f t l becomes f's domain conditions and
the identity D = l, D Coquelicot's symbolic derivative of f) term by term: f = f1 + f2 has the derivative
df1 + df2 (Coquelicot's ``is_derive_plus``), so the sum is split down to its terms, ``auto_derive`` finds
each term's derivative and domain conditions, ``reflexivity`` records its derivative in an existential
variable, and the remaining goal is df1 + ... + dfn = l (``sb_derive_eq``: the derivative is unique up to
that equality, rewritten). ``auto_derive`` reifies and ``simpl``-s the whole function at once, a cost
that grows faster than the sum's length: on the l2 example's 26-term monotone steps it ran over 75 coqc
CPU s where the term-by-term split takes 1.2 (0.1-0.5 per term). Provenance: standard (the sum rule)."""
OPEN_MVT = """\
Lemma sb_increasing_open : forall (f df : R -> R) (a b : R),
  (forall t, a <= t <= b -> is_derive f t (df t)) ->
  (forall t, a < t < b -> 0 <= df t) ->
  forall x, a <= x <= b -> f a <= f x.
Proof.
  intros f df a b Hd Hs x Hx. destruct (Req_dec x a) as [E|E]; [subst; lra |].
  destruct (MVT_cor2 f df a x) as [c [Heq Hc]];
    [lra | intros c Hc; apply is_derive_Reals, Hd; lra |].
  assert (0 <= df c) by (apply Hs; lra). nra.
Qed.
Lemma sb_decreasing_open : forall (f df : R -> R) (a b : R),
  (forall t, a <= t <= b -> is_derive f t (df t)) ->
  (forall t, a < t < b -> 0 <= (-1) * df t) ->
  forall x, a <= x <= b -> f b <= f x.
Proof.
  intros f df a b Hd Hs x Hx. destruct (Req_dec x b) as [E|E]; [subst; lra |].
  destruct (MVT_cor2 f df x b) as [c [Heq Hc]];
    [lra | intros c Hc; apply is_derive_Reals, Hd; lra |].
  assert (0 <= (-1) * df c) by (apply Hs; lra). nra.
Qed.
"""
"""The mean value theorem with an interior point (Coquelicot's ``MVT_cor2``): a derivative of f on [a, b]
with a sign on (a, b) bounds f by its value at a (or b); instantiated with b (or a) the point itself, so
the box's far end may be open or infinite (standard)."""
"""exp, ln and atan are increasing (the non-strict forms the node-by-node enclosure uses), and so is x^n on
x >= 0 for n >= 1, strictly; A^2 >= B^2 with A, B >= 0 gives A >= B (the kernel's squares step; standard)."""
RULES = """\
Lemma sb_step_increasing : forall (f df : R -> R) (a x : R),
  (forall t, a <= t <= x -> is_derive f t (df t)) -> (forall t, a < t < x -> 0 <= df t) ->
  a <= x -> 0 <= f a -> 0 <= f x.
Proof.
  intros f df a x Hd Hs Hx Hf. pose proof (sb_increasing_open f df a x Hd Hs x ltac:(lra)). lra.
Qed.
Lemma sb_step_increasing_lt : forall (f df : R -> R) (a x : R),
  (forall t, a <= t <= x -> is_derive f t (df t)) -> (forall t, a < t < x -> 0 <= df t) ->
  a <= x -> 0 < f a -> 0 < f x.
Proof.
  intros f df a x Hd Hs Hx Hf. pose proof (sb_increasing_open f df a x Hd Hs x ltac:(lra)). lra.
Qed.
Lemma sb_step_decreasing : forall (f df : R -> R) (b x : R),
  (forall t, x <= t <= b -> is_derive f t (df t)) -> (forall t, x < t < b -> 0 <= (-1) * df t) ->
  x <= b -> 0 <= f b -> 0 <= f x.
Proof.
  intros f df b x Hd Hs Hx Hf. pose proof (sb_decreasing_open f df x b Hd Hs x ltac:(lra)). lra.
Qed.
Lemma sb_step_decreasing_lt : forall (f df : R -> R) (b x : R),
  (forall t, x <= t <= b -> is_derive f t (df t)) -> (forall t, x < t < b -> 0 <= (-1) * df t) ->
  x <= b -> 0 < f b -> 0 < f x.
Proof.
  intros f df b x Hd Hs Hx Hf. pose proof (sb_decreasing_open f df x b Hd Hs x ltac:(lra)). lra.
Qed.
Lemma sb_step_increasing_strictly : forall (f df : R -> R) (a x : R),
  (forall t, a <= t <= x -> is_derive f t (df t)) -> (forall t, a < t < x -> 0 < df t) ->
  a < x -> 0 <= f a -> 0 < f x.
Proof.
  intros f df a x Hd Hs Hx Hf.
  destruct (MVT_cor2 f df a x) as [c [Heq Hc]];
    [lra | intros c Hc; apply is_derive_Reals, Hd; lra |].
  assert (0 < df c) by (apply Hs; lra). nra.
Qed.
Lemma sb_step_decreasing_strictly : forall (f df : R -> R) (b x : R),
  (forall t, x <= t <= b -> is_derive f t (df t)) -> (forall t, x < t < b -> 0 < (-1) * df t) ->
  x < b -> 0 <= f b -> 0 < f x.
Proof.
  intros f df b x Hd Hs Hx Hf.
  destruct (MVT_cor2 f df x b) as [c [Heq Hc]];
    [lra | intros c Hc; apply is_derive_Reals, Hd; lra |].
  assert (0 < (-1) * df c) by (apply Hs; lra). nra.
Qed.
Lemma sb_tail_increasing : forall (f df : R -> R) (X x : R),
  (forall t, X <= t <= x -> is_derive f t (df t)) -> (forall t, X < t < x -> 0 <= df t) ->
  (forall t, t <= X -> 0 <= f t) -> 0 <= f x.
Proof.
  intros f df X x Hd Hs Ht. destruct (Rle_lt_dec x X) as [C|C]; [apply Ht, C |].
  apply (sb_step_increasing f df X x Hd Hs); [lra | apply Ht; lra].
Qed.
Lemma sb_tail_increasing_lt : forall (f df : R -> R) (X x : R),
  (forall t, X <= t <= x -> is_derive f t (df t)) -> (forall t, X < t < x -> 0 <= df t) ->
  (forall t, t <= X -> 0 < f t) -> 0 < f x.
Proof.
  intros f df X x Hd Hs Ht. destruct (Rle_lt_dec x X) as [C|C]; [apply Ht, C |].
  apply (sb_step_increasing_lt f df X x Hd Hs); [lra | apply Ht; lra].
Qed.
Lemma sb_tail_decreasing : forall (f df : R -> R) (X x : R),
  (forall t, x <= t <= X -> is_derive f t (df t)) -> (forall t, x < t < X -> 0 <= (-1) * df t) ->
  (forall t, X <= t -> 0 <= f t) -> 0 <= f x.
Proof.
  intros f df X x Hd Hs Ht. destruct (Rle_lt_dec X x) as [C|C]; [apply Ht, C |].
  apply (sb_step_decreasing f df X x Hd Hs); [lra | apply Ht; lra].
Qed.
Lemma sb_tail_decreasing_lt : forall (f df : R -> R) (X x : R),
  (forall t, x <= t <= X -> is_derive f t (df t)) -> (forall t, x < t < X -> 0 <= (-1) * df t) ->
  (forall t, X <= t -> 0 < f t) -> 0 < f x.
Proof.
  intros f df X x Hd Hs Ht. destruct (Rle_lt_dec X x) as [C|C]; [apply Ht, C |].
  apply (sb_step_decreasing_lt f df X x Hd Hs); [lra | apply Ht; lra].
Qed.
Lemma sb_rewrite : forall g f, g = f -> 0 <= f -> 0 <= g.
Proof. intros g f E H. rewrite E. exact H. Qed.
Lemma sb_rewrite_lt : forall g f, g = f -> 0 < f -> 0 < g.
Proof. intros g f E H. rewrite E. exact H. Qed.
Lemma sb_add : forall a b, 0 <= a -> 0 <= b -> 0 <= a + b.
Proof. intros a b Ha Hb. lra. Qed.
Lemma sb_add_lt : forall a b, 0 < a -> 0 < b -> 0 < a + b.
Proof. intros a b Ha Hb. lra. Qed.
Lemma sb_cut : forall (P : Prop) (v c : R), (v <= c -> P) -> (c < v -> P) -> P.
Proof. intros P v c L R. destruct (Rle_lt_dec v c) as [C|C]; [apply L | apply R]; exact C. Qed.
Lemma sb_cut_integer : forall (P : Prop) (v : R) (n : Z), (exists k : Z, v = IZR k) ->
  (v <= IZR n - 1 -> P) -> (IZR n <= v -> P) -> P.
Proof.
  intros P v n [k E] L R. destruct (Rle_lt_dec v (IZR n - 1)) as [C|C]; [apply L, C | apply R].
  subst v. rewrite <- minus_IZR in C. apply lt_IZR in C. apply IZR_le. lia.
Qed.
"""
"""The kernel's rules as lemmas the exporter applies, each proved here from the mean value theorem
(:data:`OPEN_MVT`) and the order of the reals (standard):

- ``sb_step_increasing`` / ``sb_step_decreasing``: a monotone step with a finite face a (b): f has
  derivative df on the segment between the face and x, df >= 0 (-df >= 0) inside it, and 0 <= f at the
  face give 0 <= f x; ``_lt`` forms: 0 < f at the face gives 0 < f x;
- ``sb_step_increasing_strictly`` / ``sb_step_decreasing_strictly``: the face at an open end of the domain
  (a < x) with a strictly signed derivative inside: 0 <= f at the face gives 0 < f x (the kernel's face
  at an open end need only be >= 0 when the slope is strict);
- ``sb_tail_increasing``: an increasing f whose face is at -oo, with 0 <= f t on the tail t <= X, is
  >= 0 everywhere: x <= X is in the tail, any other x is above f X >= 0 by the mean value theorem on
  [X, x]; ``sb_tail_decreasing`` is its mirror, the face at +oo and the tail X <= t. A tail on the other
  side (t >= X for an increasing f) proves nothing about x < X, and coqc refuses such a lemma;
- ``sb_rewrite`` (``_lt``): a form f equal to the gap g (an identity proved first) decides it, the rewrite,
  unsigned and sum steps' conclusion; ``sb_add`` (``_lt``): a sum of parts each >= 0 (> 0) is >= 0 (> 0),
  applied part by part along the left fold of the sum step;
- ``sb_cut`` / ``sb_cut_integer``: the cover's guillotine cut c of v, each side one region (for an
  integer v, the regions v <= c - 1 and c <= v: there is no integer between them)."""
STEP_LEMMAS = """\
Lemma sb_scale : forall g m f, 0 < m -> g * m = f -> 0 <= f -> 0 <= g.
Proof. intros g m f Hm E Hf. subst f. nra. Qed.
Lemma sb_scale_strict : forall g m f, 0 < m -> g * m = f -> 0 < f -> 0 < g.
Proof. intros g m f Hm E Hf. subst f. nra. Qed.
Lemma sb_abs_neg : forall u, 0 <= (-1) * u -> Rabs u = (-1) * u.
Proof. intros u H. rewrite Rabs_left1 by lra. ring. Qed.
Lemma sb_rpower_pow : forall x n, 0 < x -> Rpower x (IZR (Zpos n)) = x ^ Pos.to_nat n.
Proof. intros x n H. rewrite <- Rpower_pow by exact H. f_equal. now rewrite INR_IZR_INZ, positive_nat_Z. Qed.
Ltac sb_rpower :=
  repeat match goal with |- context [Rpower ?x (IZR (Zpos ?n))] =>
    let m := eval vm_compute in (Pos.to_nat n) in
    replace (Rpower x (IZR (Zpos n))) with (x ^ m) by (symmetry; exact (sb_rpower_pow x n ltac:(sb_side)))
  end.
Lemma sb_ln_rpower : forall b e, ln (Rpower b e) = e * ln b.
Proof. intros b e. unfold Rpower. apply ln_exp. Qed.
Lemma sb_log : forall a b la lb, 0 < a -> 0 < b -> ln a = la -> ln b = lb ->
  0 <= la + (-1) * lb -> 0 <= a + (-1) * b.
Proof.
  intros a b la lb Ha Hb Ea Eb H. destruct (Rle_lt_dec b a) as [C|C]; [lra |].
  pose proof (ln_increasing a b Ha C). lra.
Qed.
Lemma sb_log_strict : forall a b la lb, 0 < a -> 0 < b -> ln a = la -> ln b = lb ->
  0 < la + (-1) * lb -> 0 < a + (-1) * b.
Proof.
  intros a b la lb Ha Hb Ea Eb H. destruct (Rle_lt_dec a b) as [C|C]; [| lra].
  pose proof (sb_ln_le a b Ha C). lra.
Qed.
"""
"""The kernel's scale step (g m = f with m > 0: g has f's sign), |u| = -u for u <= 0 (the unsigned
step's rewrite; |u| = u for u >= 0 is the standard library's Rabs_pos_eq), ln (Rpower b e) = e ln b (by
definition of Rpower), Rpower x n = x^n for x > 0 and a positive integer n (``sb_rpower`` rewrites them
where a face fixed the exponent) and the log step (ln is strictly increasing on (0, oo): ln a >= ln b
gives a >= b). Standard."""


ROOTS = """\
Ltac sb_identity_roots F :=
  first [ solve [ F; repeat split; sb_side ]
        | solve [ sb_atoms_by ltac:(F; repeat split; sb_side); F; repeat split; sb_side ] ].
Ltac sb_opaque_inverses :=
  repeat match goal with |- ?l = ?r =>
    match l with context [Rinv ?x] =>
      match r with context [Rinv x] => let i := fresh "i" in set (i := Rinv x) end end end.
Ltac sb_variable_power x :=
  idtac; lazymatch x with sqrt ?v => is_var v | ?v ^ _ => is_var v | _ => is_var x end.
Ltac sb_opaque_compound_inverses :=
  repeat match goal with |- ?l = ?r =>
    match l with context [Rinv ?x] =>
      match r with context [Rinv x] =>
        assert_fails (sb_variable_power x); let i := fresh "i" in set (i := Rinv x) end end end.
"""
"""An identity that holds by the square roots' defining relation sqrt a * sqrt a = a (a >= 0;
``sqrt_sqrt``, standard), which ``field`` and ``ring`` do not know (they take sqrt a as an atom): ``F`` is
``field [R0 .. Rn]`` with R_i : sqrt a_i * sqrt a_i = a_i proved in the context, which rewrites each
monomial sqrt(a_i)^2 of the normal forms to a_i, so (1 / sqrt pi)^2 pi = 1 holds under ``field``; tried on
the whole identity (its denominators nonzero by ``sb_side``), else after ``sb_atoms_by F`` has made two
sqrt, ln or exp atoms one where their arguments are equal by the same rule (exp (-(x sqrt 2 / 2)^2) and
exp (-x^2 / 2)). Nothing is assumed: a false relation (sqrt a * sqrt a = a for a < 0, where Coq's sqrt a
is 0) fails at its own proof. ``sb_opaque_inverses`` names each inverse / x found on both sides of an
identity (``set``: a local definition, so the goal is unchanged), which ``field`` then takes as an atom
rather than a denominator: only the inverses that cancel are left for it to clear and show nonzero.
``sb_opaque_compound_inverses`` names them all but those of a variable, its square root or its power:
a named / sqrt v hides that it is v^(-1/2), so that / v * sqrt v = / sqrt v (the kernel's exponents
added) is not a rational identity of the named atoms; left unnamed, ``field`` clears them (v > 0 on the
box) with sqrt v * sqrt v = v among its rules."""

NONNEGATIVE = "first [ lra | nra | sb_close ]"
"""The tactic of 0 <= a under a square root whose square is stated (a variable's bound, a sum of squares)."""


def sqrt_relation(name: str, root: str) -> str:
    """assert (name : sqrt a * sqrt a = a) for the Coq term a (``sqrt_sqrt``, a >= 0 by
    :data:`NONNEGATIVE`)."""
    return f"assert ({name} : sqrt {root} * sqrt {root} = {root}) by (apply sqrt_sqrt; {NONNEGATIVE})"


ERF_DEFINITION = "Definition sb_erf (x : R) : R := 2 / sqrt PI * RInt (fun t => exp (-(t*t))) 0 x.\n"
"""erf x = 2/sqrt(pi) int_0^x exp(-t^2) dt, the standard definition (Abramowitz and Stegun 7.1.1)."""
ERF = (
    ERF_DEFINITION
    + """\
Lemma sb_gauss_continuous : forall t, continuous (fun t => exp (-(t*t))) t.
Proof. intros t. apply (ex_derive_continuous (fun t => exp (-(t*t)))). auto_derive. exact I. Qed.
Lemma sb_gauss_integrable : forall a b, ex_RInt (fun t => exp (-(t*t))) a b.
Proof.
  intros a b. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
  apply sb_gauss_continuous.
Qed.
Lemma sb_gauss_derive : forall x, is_derive (fun y => RInt (fun t => exp (-(t*t))) 0 y) x (exp (-(x*x))).
Proof.
  intros x. apply (is_derive_RInt (fun t => exp (-(t*t))) _ 0).
  - apply filter_forall. intros y.
    apply (RInt_correct (V := R_CompleteNormedModule)), sb_gauss_integrable.
  - apply sb_gauss_continuous.
Qed.
Lemma sb_erf_derive : forall x, is_derive sb_erf x (2 / sqrt PI * exp (-(x*x))).
Proof.
  intros x. unfold sb_erf. apply (is_derive_scal (fun y => RInt (fun t => exp (-(t*t))) 0 y)).
  apply sb_gauss_derive.
Qed.
Lemma sb_erf_ex_derive : forall x, ex_derive sb_erf x.
Proof. intros x. eexists. apply sb_erf_derive. Qed.
Lemma sb_erf_Derive : forall x, Derive sb_erf x = 2 / sqrt PI * exp (-(x*x)).
Proof. intros x. apply is_derive_unique, sb_erf_derive. Qed.
Lemma sb_erf_lt : forall x y, x < y -> sb_erf x < sb_erf y.
Proof.
  intros x y H.
  destruct (MVT_cor2 sb_erf (fun t => 2 / sqrt PI * exp (-(t*t))) x y) as [c [E Hc]];
    [exact H | intros c Hc; apply is_derive_Reals, sb_erf_derive |].
  assert (0 < 2 / sqrt PI * exp (-(c*c))).
  { apply Rmult_lt_0_compat; [| apply exp_pos].
    apply Rdiv_lt_0_compat; [lra | apply sqrt_lt_R0, PI_RGT_0]. }
  nra.
Qed.
Lemma sb_erf_le : forall x y, x <= y -> sb_erf x <= sb_erf y.
Proof.
  intros x y H. destruct (Req_dec x y) as [E|E]; [subst; lra | apply Rlt_le, sb_erf_lt; lra].
Qed.
Lemma sb_erf_0 : sb_erf 0 = 0.
Proof. unfold sb_erf. rewrite RInt_point. unfold zero; simpl. ring. Qed.
Definition sb_gauss_h (u s : R) : R := exp (-(u*u) * (1 + s*s)) / (1 + s*s).
Lemma sb_gauss_h_pos : forall s, 0 < 1 + s*s.
Proof. intros s. nra. Qed.
Lemma sb_gauss_h_Derive : forall u s,
  Derive (fun z => sb_gauss_h z s) u = -2 * u * exp (-(u*u) * (1 + s*s)).
Proof.
  intros u s. apply is_derive_unique. unfold sb_gauss_h. pose proof (sb_gauss_h_pos s).
  auto_derive; [lra | field; lra].
Qed.
Lemma sb_gauss_h_integrable : forall u a b, ex_RInt (fun s => sb_gauss_h u s) a b.
Proof.
  intros u a b. apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
  apply (ex_derive_continuous (fun s => sb_gauss_h u s)). unfold sb_gauss_h. auto_derive.
  pose proof (sb_gauss_h_pos z). lra.
Qed.
Lemma sb_tail_derive : forall x,
  is_derive (fun y => RInt (fun s => sb_gauss_h y s) 0 1) x
    (RInt (fun s => -2 * x * exp (-(x*x) * (1 + s*s))) 0 1).
Proof.
  intros x.
  rewrite <- (RInt_ext (fun s => Derive (fun z => sb_gauss_h z s) x))
    by (intros s _; apply sb_gauss_h_Derive).
  apply is_derive_RInt_param.
  - apply filter_forall. intros y t _. unfold sb_gauss_h. auto_derive.
    pose proof (sb_gauss_h_pos t). lra.
  - intros t _. apply continuity_2d_pt_ext with (fun u v => -2 * u * exp (-(u*u) * (1 + v*v))).
    + intros u v. symmetry. apply sb_gauss_h_Derive.
    + apply continuity_2d_pt_mult.
      * apply continuity_2d_pt_mult; [apply continuity_2d_pt_const | apply continuity_2d_pt_id1].
      * apply continuity_1d_2d_pt_comp; [apply derivable_continuous_pt, derivable_pt_exp |].
        apply continuity_2d_pt_mult.
        -- apply continuity_2d_pt_opp, continuity_2d_pt_mult; apply continuity_2d_pt_id1.
        -- apply continuity_2d_pt_plus; [apply continuity_2d_pt_const |].
           apply continuity_2d_pt_mult; apply continuity_2d_pt_id2.
  - apply filter_forall. intros y. apply sb_gauss_h_integrable.
Qed.
Lemma sb_gauss_scaled : forall x,
  RInt (fun t => exp (-(t*t))) 0 x = x * RInt (fun s => exp (-((x*s)*(x*s)))) 0 1.
Proof.
  intros x.
  replace (RInt (fun t => exp (-(t*t))) 0 x) with (RInt (fun t => exp (-(t*t))) (x * 0 + 0) (x * 1 + 0))
    by (f_equal; ring).
  rewrite <- RInt_comp_lin by apply sb_gauss_integrable.
  rewrite <- (RInt_scal (fun s => exp (-((x*s)*(x*s))))).
  - apply RInt_ext. intros s _. unfold scal; simpl; unfold mult; simpl. f_equal. f_equal. f_equal; ring.
  - apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
    apply (ex_derive_continuous (fun s => exp (-((x*s)*(x*s))))). auto_derive. exact I.
Qed.
Lemma sb_tail_scaled : forall x,
  RInt (fun s => -2 * x * exp (-(x*x) * (1 + s*s))) 0 1
  = -2 * x * exp (-(x*x)) * RInt (fun s => exp (-((x*s)*(x*s)))) 0 1.
Proof.
  intros x. rewrite <- (RInt_scal (fun s => exp (-((x*s)*(x*s))))).
  - apply RInt_ext. intros s _. unfold scal; simpl; unfold mult; simpl.
    replace (-(x*x) * (1 + s*s)) with (-(x*x) + -((x*s)*(x*s))) by ring. rewrite exp_plus. ring.
  - apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
    apply (ex_derive_continuous (fun s => exp (-((x*s)*(x*s))))). auto_derive. exact I.
Qed.
Lemma sb_gauss_square : forall x,
  (RInt (fun t => exp (-(t*t))) 0 x) ^ 2 + RInt (fun s => sb_gauss_h x s) 0 1 = PI / 4.
Proof.
  assert (D : forall y, is_derive
    (fun y => (RInt (fun t => exp (-(t*t))) 0 y) ^ 2 + RInt (fun s => sb_gauss_h y s) 0 1) y 0).
  { intros y.
    assert (E : 2 * RInt (fun t => exp (-(t*t))) 0 y * exp (-(y*y))
      + RInt (fun s => -2 * y * exp (-(y*y) * (1 + s*s))) 0 1 = 0)
      by (rewrite sb_tail_scaled, sb_gauss_scaled; ring).
    enough (H : is_derive
      (fun y => (RInt (fun t => exp (-(t*t))) 0 y) ^ 2 + RInt (fun s => sb_gauss_h y s) 0 1) y
      (2 * RInt (fun t => exp (-(t*t))) 0 y * exp (-(y*y))
      + RInt (fun s => -2 * y * exp (-(y*y) * (1 + s*s))) 0 1)) by (rewrite E in H; exact H).
    apply (is_derive_plus (fun y => (RInt (fun t => exp (-(t*t))) 0 y) ^ 2)
      (fun y => RInt (fun s => sb_gauss_h y s) 0 1)); [| apply sb_tail_derive].
    replace (2 * RInt (fun t => exp (-(t*t))) 0 y * exp (-(y*y))) with
      (INR 2 * exp (-(y*y)) * (RInt (fun t => exp (-(t*t))) 0 y) ^ (pred 2)) by (simpl; ring).
    apply (is_derive_pow (fun y => RInt (fun t => exp (-(t*t))) 0 y) 2 y), sb_gauss_derive. }
  assert (Z : (RInt (fun t => exp (-(t*t))) 0 0) ^ 2 + RInt (fun s => sb_gauss_h 0 s) 0 1 = PI / 4).
  { rewrite RInt_point. unfold zero; simpl. rewrite <- atan_1.
    assert (A : is_RInt (fun s => sb_gauss_h 0 s) 0 1 (minus (atan 1) (atan 0))).
    { apply (is_RInt_derive atan).
      - intros s _. apply is_derive_Reals. unfold sb_gauss_h.
        rewrite Rmult_0_l, Ropp_0, Rmult_0_l, exp_0.
        replace (1 / (1 + s * s)) with (/ (1 + s ^ 2))
          by (simpl; field; pose proof (sb_gauss_h_pos s); lra).
        apply derivable_pt_lim_atan.
      - intros s _. apply (ex_derive_continuous (fun s => sb_gauss_h 0 s)).
        unfold sb_gauss_h. auto_derive.
        pose proof (sb_gauss_h_pos s). lra. }
    apply (is_RInt_unique (V := R_CompleteNormedModule)) in A. rewrite A. unfold minus, plus, opp; simpl.
    rewrite atan_0. ring. }
  intros x. rewrite <- Z.
  destruct (Rtotal_order x 0) as [H|[H|H]].
  - destruct (MVT_cor2
      (fun y => (RInt (fun t => exp (-(t*t))) 0 y) ^ 2 + RInt (fun s => sb_gauss_h y s) 0 1)
      (fun _ => 0) x 0) as [c [E _]];
      [exact H | intros c _; apply is_derive_Reals, D | lra].
  - subst. reflexivity.
  - destruct (MVT_cor2
      (fun y => (RInt (fun t => exp (-(t*t))) 0 y) ^ 2 + RInt (fun s => sb_gauss_h y s) 0 1)
      (fun _ => 0) 0 x) as [c [E _]];
      [exact H | intros c _; apply is_derive_Reals, D | lra].
Qed.
Lemma sb_gauss_below : forall x, (RInt (fun t => exp (-(t*t))) 0 x) ^ 2 < PI / 4.
Proof.
  intros x. rewrite <- (sb_gauss_square x).
  assert (0 < RInt (fun s => sb_gauss_h x s) 0 1); [| lra].
  apply RInt_gt_0; [lra | |].
  { intros s _; unfold sb_gauss_h; apply Rdiv_lt_0_compat; [apply exp_pos | apply sb_gauss_h_pos]. }
  intros s _. apply (ex_derive_continuous (fun s => sb_gauss_h x s)). unfold sb_gauss_h. auto_derive.
  pose proof (sb_gauss_h_pos s). lra.
Qed.
Lemma sb_erf_bounds : forall x, -1 < sb_erf x < 1.
Proof.
  intros x. pose proof (sb_gauss_below x) as G. unfold sb_erf.
  set (J := RInt (fun t => exp (-(t*t))) 0 x) in *.
  assert (P : 0 < sqrt PI) by (apply sqrt_lt_R0, PI_RGT_0).
  assert (S : sqrt PI * sqrt PI = PI) by (apply sqrt_sqrt; left; apply PI_RGT_0).
  assert (A : Rabs (2 * J) < sqrt PI).
  { rewrite <- sqrt_Rsqr_abs. apply sqrt_lt_1_alt. unfold Rsqr. simpl in G.
    split; [nra | lra]. }
  apply Rabs_def2 in A.
  replace (2 / sqrt PI * J) with (2 * J * / sqrt PI) by (field; lra).
  pose proof (Rinv_0_lt_compat _ P) as Q.
  assert (U : sqrt PI * / sqrt PI = 1) by (field; lra).
  destruct A as [A1 A2]. split; nra.
Qed.
Ltac sb_erf_bounded :=
  repeat match goal with |- context [sb_erf ?u] =>
    lazymatch goal with
    | _ : -1 < sb_erf u < 1 |- _ => fail
    | _ => pose proof (sb_erf_bounds u)
    end end.
"""
)
"""erf as its standard definition, erf x = 2/sqrt(pi) int_0^x exp(-t^2) dt (Coquelicot's Riemann integral
``RInt``; Abramowitz and Stegun 7.1.1), and what the exporter uses of it, all proved in the file:

- the integrand is continuous, so integrable on every segment, and erf' = 2/sqrt(pi) exp(-x^2) (the
  fundamental theorem, ``is_derive_RInt``): erf is strictly increasing (the mean value theorem,
  ``MVT_cor2``), ``sb_erf_lt`` / ``sb_erf_le``, and erf 0 = 0;
- |erf x| < 1 (``sb_erf_bounds``) from the Gaussian integral by differentiation under the integral sign
  (standard): with G(x) = int_0^x exp(-t^2) dt and H(x) = int_0^1 exp(-x^2 (1 + s^2)) / (1 + s^2) ds,
  (G^2 + H)' = 2 G(x) exp(-x^2) - 2 x exp(-x^2) int_0^1 exp(-x^2 s^2) ds = 0 (``is_derive_RInt_param``;
  G(x) = x int_0^1 exp(-x^2 s^2) ds by the change of variable t = x s, ``RInt_comp_lin``), so
  G(x)^2 + H(x) = H(0) = atan 1 = pi/4, and H(x) > 0 gives G(x)^2 < pi/4.

Values at constants are Interval's ``integral`` after ``unfold sb_erf``; ``sb_erf_bounded`` states
-1 < sb_erf u < 1 for each sb_erf u of the goal (for Interval, which reads them as bounded atoms)."""


LAWS = """\
Lemma sb_ln_sqrt : forall x, 0 < x -> ln (sqrt x) = ln x / 2.
Proof.
  intros x H. rewrite <- (sqrt_sqrt x) at 2 by lra. rewrite ln_mult by (apply sqrt_lt_R0; lra). field.
Qed.
Ltac sb_nonzero := repeat split; first [ apply Rgt_not_eq; sb_positive | apply Rlt_not_eq; lra ].
Ltac sb_ln_expand :=
  repeat first [ rewrite ln_mult by sb_positive | rewrite ln_Rinv by sb_positive
               | rewrite ln_div by sb_positive | rewrite ln_pow by sb_positive | rewrite sb_ln_rpower
               | rewrite sb_ln_sqrt by sb_positive | rewrite ln_exp | rewrite ln_1 ]; cbn [INR].
Definition sb_factored (x y : R) : Prop := x = y.
Ltac sb_factor :=
  repeat match goal with C : sb_factored (ln ?n) ?v |- context [ln ?n] => rewrite (C : ln n = v) end.
Ltac sb_power_atom :=
  apply ln_inv; [ sb_positive | sb_positive | sb_ln_expand; sb_factor; field; sb_nonzero ].
"""
"""The laws of exponents as :mod:`theory.prover.coq.exponents` prints them: ``sb_power_atom`` proves
B^E = prod_j X_j^k_j for positive sides by their ln (``ln_inv``: ln is injective on (0, oo)), expanded by
``sb_ln_expand`` (ln (x y) = ln x + ln y, ln (/ x) = - ln x, ln (x / y) = ln x - ln y, ln (x^n) =
n ln x for x, y > 0, ln (Rpower b e) = e ln b, ln (exp u) = u, ln 1 = 0) and the context's facts
``sb_factored (ln n) (sum v_q(n) ln q)`` of composite integers (``sb_factor`` rewrites by them; the
definition is plain equality, named so that no other fact of the context is taken for one), then
``field``; ``sb_positive`` (the one positivity tactic, :data:`POWERS`) shows 0 < t node by node
(lra first at every node, then products, inverses, powers, square roots, sums, exp and Rpower of
positive terms), ``sb_nonzero`` closes field's conditions by it and ln (sqrt x) = ln x / 2 is proved
(``sb_ln_sqrt``; standard)."""


def _lemma(name: str, increasing: bool, strict: bool) -> str:
    end_ = "a" if increasing else "b"
    left = "Rmin_left" if increasing else "Rmin_right"
    right = "Rmax_right" if increasing else "Rmax_left"
    unfold = f"rewrite {left} in Ht by lra. rewrite {right} in Ht by lra."
    fold_c = f"rewrite {left} in Hc by lra. rewrite {right} in Hc by lra."
    relation = "<" if strict else "<="
    sign = f"0 {relation} df t" if increasing else f"df t {relation} 0"
    sign_c = f"0 {relation} df c" if increasing else f"df c {relation} 0"
    low, high = ("a < x <= b", "a <= x < b") if strict else ("a <= x <= b", "a <= x <= b")
    product = "Rmult_lt_0_compat" if strict else "Rmult_le_pos"
    if increasing:
        conclusion, at_end = f"f a {relation} f x", "subst; lra" if not strict else "lra"
        finish = f"assert (0 {relation} df c * (x - a)) by (apply {product}; lra). lra."
    else:
        conclusion, at_end = f"f b {relation} f x", "subst; lra" if not strict else "lra"
        finish = (
            "replace (df c * (x - b)) with ((- df c) * (b - x)) in Heq by ring. "
            f"assert (0 {relation} (- df c) * (b - x)) by (apply {product}; lra). lra."
        )
    return _MVT.format(
        name=name,
        sign=sign,
        range=low if increasing else high,
        conclusion=conclusion,
        end_=end_,
        at_end=at_end,
        unfold_minmax=unfold,
        fold_c=fold_c,
        sign_c=sign_c,
        finish=finish,
    )


PREMISES = """\
Lemma sb_max_which_le : forall a b,
  ((a + b + Rabs (a - b)) / 2 = a /\\ 0 <= a - b) \\/ ((a + b + Rabs (a - b)) / 2 = b /\\ 0 <= b - a).
Proof. intros a b. unfold Rabs. destruct (Rcase_abs (a - b)); [right | left]; split; lra. Qed.
Lemma sb_min_which_le : forall a b,
  ((a + b - Rabs (a - b)) / 2 = a /\\ 0 <= b - a) \\/ ((a + b - Rabs (a - b)) / 2 = b /\\ 0 <= a - b).
Proof. intros a b. unfold Rabs. destruct (Rcase_abs (a - b)); [left | right]; split; lra. Qed.
Lemma sb_multiplier : forall g s c, 0 <= s -> 0 <= c -> 0 <= g - s * c -> 0 <= g.
Proof. intros g s c S C G. pose proof (Rmult_le_pos s c S C). lra. Qed.
Lemma sb_multiplier_lt : forall g s c, 0 <= s -> 0 <= c -> 0 < g - s * c -> 0 < g.
Proof. intros g s c S C G. pose proof (Rmult_le_pos s c S C). lra. Qed.
Lemma sb_shift : forall g h, h = g -> 0 <= h -> 0 <= g.
Proof. intros g h E H. rewrite <- E. exact H. Qed.
Lemma sb_shift_lt : forall g h, h = g -> 0 < h -> 0 < g.
Proof. intros g h E H. rewrite <- E. exact H. Qed.
Lemma sb_imply : forall c C, (0 < - C -> 0 < - c) -> 0 <= c -> 0 <= C.
Proof.
  intros c C I P. destruct (Rlt_or_le C 0) as [N|N]; [| exact N].
  assert (0 < - c) by (apply I; lra). lra. Qed.
Lemma sb_imply_lt : forall c C, (0 <= - C -> 0 <= - c) -> 0 < c -> 0 < C.
Proof.
  intros c C I P. destruct (Rle_or_lt C 0) as [N|N]; [| exact N].
  assert (0 <= - c) by (apply I; lra). lra. Qed.
Lemma sb_imply_le_lt : forall c C, (0 <= - C -> 0 < - c) -> 0 <= c -> 0 < C.
Proof.
  intros c C I P. destruct (Rle_or_lt C 0) as [N|N]; [| exact N].
  assert (0 < - c) by (apply I; lra). lra. Qed.
Lemma sb_imply_lt_le : forall c C, (0 < - C -> 0 <= - c) -> 0 < c -> 0 <= C.
Proof.
  intros c C I P. destruct (Rlt_or_le C 0) as [N|N]; [| exact N].
  assert (0 <= - c) by (apply I; lra). lra. Qed.
"""
"""A case decided under its premises (:mod:`theory.prover.kernel.premises`), included only in a file that
uses them: the printed Max (Min) of two arguments is one of them, and that one is the larger (smaller)
(``sb_max_which_le``, ``sb_min_which_le``); the S-procedure, g >= g - s c where s >= 0 and c >= 0
(``sb_multiplier``, ``_lt``); a shifted claim at t = c(x) equal to the case's claim at x (``sb_shift``,
``_lt``); and an implied premise by the contrapositive (``sb_imply``: C < 0 forces c < 0, so c >= 0 gives
C >= 0; ``_lt``, ``_le_lt``, ``_lt_le`` for the strict variants)."""


CASES = """\
Lemma sb_cases : forall (P Q : Prop) (g : R), P \\/ Q -> (P -> 0 <= g) -> (Q -> 0 <= g) -> 0 <= g.
Proof. intros P Q g [H|H] HP HQ; auto. Qed.
Lemma sb_max_cases : forall (g : R -> R) a b, 0 <= g a -> 0 <= g b -> 0 <= g (Rmax a b).
Proof. intros g a b Ha Hb. unfold Rmax. destruct (Rle_dec a b); assumption. Qed.
Lemma sb_min_cases : forall (g : R -> R) a b, 0 <= g a -> 0 <= g b -> 0 <= g (Rmin a b).
Proof. intros g a b Ha Hb. unfold Rmin. destruct (Rle_dec a b); assumption. Qed.
Lemma sb_max_bound : forall r c a b, 0 < c -> 0 <= r + c * a -> 0 <= r + c * Rmax a b.
Proof. intros r c a b Hc H. assert (a <= Rmax a b) by apply Rmax_l. nra. Qed.
Lemma sb_min_bound : forall r c a b, c < 0 -> 0 <= r + c * a -> 0 <= r + c * Rmin a b.
Proof. intros r c a b Hc H. assert (Rmin a b <= a) by apply Rmin_l. nra. Qed.
Lemma sb_floor_fraction : forall (h : R -> R) u, (forall t, 0 <= t < 1 -> 0 <= h t) ->
  0 <= h (u - IZR (Raux.Zfloor u)).
Proof. intros h u H. apply H. pose proof (Raux.Zfloor_lb u). pose proof (Raux.Zfloor_ub u). lra. Qed.
Lemma sb_ceil_fraction : forall (h : R -> R) u, (forall t, 0 <= t < 1 -> 0 <= h t) ->
  0 <= h (IZR (Raux.Zceil u) - u).
Proof. intros h u H. apply H. pose proof (Raux.Zceil_ub u). pose proof (Raux.Zceil_lb u). lra. Qed.
Lemma sb_floor_fraction_lt : forall (h : R -> R) u, (forall t, 0 <= t < 1 -> 0 < h t) ->
  0 < h (u - IZR (Raux.Zfloor u)).
Proof. intros h u H. apply H. pose proof (Raux.Zfloor_lb u). pose proof (Raux.Zfloor_ub u). lra. Qed.
Lemma sb_ceil_fraction_lt : forall (h : R -> R) u, (forall t, 0 <= t < 1 -> 0 < h t) ->
  0 < h (IZR (Raux.Zceil u) - u).
Proof. intros h u H. apply H. pose proof (Raux.Zceil_ub u). pose proof (Raux.Zceil_lb u). lra. Qed.
Lemma sb_floor_between : forall u (n : Z), IZR n <= u < IZR n + 1 -> IZR (Raux.Zfloor u) = IZR n.
Proof. intros u n H. rewrite (Raux.Zfloor_imp n u); [reflexivity |]. rewrite plus_IZR. exact H. Qed.
Lemma sb_ceil_between : forall u (n : Z), IZR n - 1 < u <= IZR n -> IZR (Raux.Zceil u) = IZR n.
Proof. intros u n H. rewrite (Raux.Zceil_imp n u); [reflexivity |]. rewrite minus_IZR. exact H. Qed.
Lemma sb_max_which : forall a b, (a + b + Rabs (a - b)) / 2 = a \\/ (a + b + Rabs (a - b)) / 2 = b.
Proof. intros a b. unfold Rabs. destruct (Rcase_abs (a - b)); [right | left]; lra. Qed.
Lemma sb_min_which : forall a b, (a + b - Rabs (a - b)) / 2 = a \\/ (a + b - Rabs (a - b)) / 2 = b.
Proof. intros a b. unfold Rabs. destruct (Rcase_abs (a - b)); [left | right]; lra. Qed.
Lemma sb_max_above : forall a b, a <= (a + b + Rabs (a - b)) / 2 /\\ b <= (a + b + Rabs (a - b)) / 2.
Proof. intros a b. unfold Rabs. destruct (Rcase_abs (a - b)); lra. Qed.
Lemma sb_min_below : forall a b, (a + b - Rabs (a - b)) / 2 <= a /\\ (a + b - Rabs (a - b)) / 2 <= b.
Proof. intros a b. unfold Rabs. destruct (Rcase_abs (a - b)); lra. Qed.
Lemma sb_integral : forall k : Z, -1 < IZR k -> 0 <= IZR k.
Proof. intros k H. apply IZR_le. assert (-1 < k)%Z by (apply lt_IZR; exact H). lia. Qed.
Definition sb_int (x : R) : Prop := exists k : Z, x = IZR k.
Lemma sb_int_IZR : forall k, sb_int (IZR k).
Proof. intros k. exists k. reflexivity. Qed.
Lemma sb_int_plus : forall a b, sb_int a -> sb_int b -> sb_int (a + b).
Proof. intros a b [i A] [j B]. exists (i + j)%Z. rewrite A, B, plus_IZR. reflexivity. Qed.
Lemma sb_int_mult : forall a b, sb_int a -> sb_int b -> sb_int (a * b).
Proof. intros a b [i A] [j B]. exists (i * j)%Z. rewrite A, B, mult_IZR. reflexivity. Qed.
Lemma sb_int_opp : forall a, sb_int a -> sb_int (- a).
Proof. intros a [i A]. exists (- i)%Z. rewrite A, opp_IZR. reflexivity. Qed.
Lemma sb_int_pow : forall a n, sb_int a -> sb_int (a ^ n).
Proof.
  intros a n [i A]. exists (i ^ Z.of_nat n)%Z. rewrite A, pow_IZR. reflexivity.
Qed.
Lemma sb_int_abs : forall a, sb_int a -> sb_int (Rabs a).
Proof. intros a [i A]. exists (Z.abs i). rewrite A, abs_IZR. reflexivity. Qed.
Lemma sb_int_max : forall a b, sb_int a -> sb_int b -> sb_int ((a + b + Rabs (a - b)) / 2).
Proof. intros a b A B. destruct (sb_max_which a b) as [E|E]; rewrite E; assumption. Qed.
Lemma sb_int_min : forall a b, sb_int a -> sb_int b -> sb_int ((a + b - Rabs (a - b)) / 2).
Proof. intros a b A B. destruct (sb_min_which a b) as [E|E]; rewrite E; assumption. Qed.
Lemma sb_integral_le : forall g, sb_int g -> 0 < g + 1 -> 0 <= g.
Proof. intros g [k K] H. rewrite K in *. apply sb_integral. lra. Qed.
Ltac sb_integer :=
  repeat first [ apply sb_int_IZR | apply sb_int_plus | apply sb_int_mult | apply sb_int_opp
               | apply sb_int_pow | apply sb_int_abs | apply sb_int_max | apply sb_int_min ].
Lemma sb_no_root_sign : forall (f : R -> R) a b, continuity f ->
  (forall x, a <= x <= b -> f x <> 0) -> 0 < f a -> forall x, a <= x <= b -> 0 < f x.
Proof.
  intros f a b Hc Hz Ha x Hx.
  destruct (Rlt_le_dec 0 (f x)) as [H|H]; [exact H |].
  destruct (Req_dec (f x) 0) as [E|E]; [exfalso; exact (Hz x Hx E) |].
  assert (Hax : a < x) by (destruct (Req_dec a x) as [E'|E']; [subst; lra | lra]).
  destruct (IVT (opp_fct f) a x (continuity_opp f Hc) Hax) as [z [Hz1 Hz2]];
    unfold opp_fct in *; [lra | lra |].
  exfalso. apply (Hz z); lra.
Qed.
Lemma sb_even_power : forall (c o e : R), 0 <= c * o -> 0 <= c * o * (e * e).
Proof. intros c o e H. apply Rmult_le_pos; [exact H | apply Rle_0_sqr]. Qed.
Lemma sb_periodic_nat : forall (g : R -> R) P, (forall y, g (y + P) = g y) ->
  forall (k : nat) y, g (y + INR k * P) = g y.
Proof.
  intros g P H k. induction k as [|k IH]; intros y.
  - simpl. rewrite Rmult_0_l, Rplus_0_r. reflexivity.
  - rewrite S_INR. replace (y + (INR k + 1) * P) with ((y + INR k * P) + P) by ring. rewrite H. apply IH.
Qed.
Lemma sb_periodic_point : forall (g : R -> R) P, 0 < P -> (forall y, g (y + P) = g y) ->
  forall x, exists y, 0 <= y <= P /\\ g x = g y.
Proof.
  intros g P HP H x.
  pose proof (Raux.Zfloor_lb (x / P)) as L. pose proof (Raux.Zfloor_ub (x / P)) as U.
  set (n := Raux.Zfloor (x / P)) in *.
  assert (E : x = (x / P) * P) by (field; lra).
  assert (B : 0 <= x - IZR n * P <= P) by nra.
  exists (x - IZR n * P). split; [exact B |].
  destruct (Z_le_gt_dec 0 n) as [Hn | Hn].
  - replace x with ((x - IZR n * P) + INR (Z.to_nat n) * P) at 1
      by (rewrite INR_IZR_INZ, Z2Nat.id by exact Hn; ring).
    apply sb_periodic_nat, H.
  - rewrite <- (sb_periodic_nat g P H (Z.to_nat (- n)) x).
    replace (x + INR (Z.to_nat (- n)) * P) with (x - IZR n * P)
      by (rewrite INR_IZR_INZ, Z2Nat.id by lia; rewrite opp_IZR; ring).
    reflexivity.
Qed.
Lemma sb_periodic : forall (g : R -> R) P, 0 < P -> (forall y, g (y + P) = g y) ->
  (forall y, 0 <= y <= P -> 0 <= g y) -> forall x, 0 <= g x.
Proof.
  intros g P HP H Hy x. destruct (sb_periodic_point g P HP H x) as [y [B E]]. rewrite E. apply Hy, B.
Qed.
Lemma sb_periodic_lt : forall (g : R -> R) P, 0 < P -> (forall y, g (y + P) = g y) ->
  (forall y, 0 <= y <= P -> 0 < g y) -> forall x, 0 < g x.
Proof.
  intros g P HP H Hy x. destruct (sb_periodic_point g P HP H x) as [y [B E]]. rewrite E. apply Hy, B.
Qed.
Lemma sb_floor_shifted : forall u w (k : Z), u = w + IZR k ->
  IZR (Raux.Zfloor u) = IZR (Raux.Zfloor w) + IZR k.
Proof.
  intros u w k E. rewrite <- plus_IZR. f_equal. apply Raux.Zfloor_imp. rewrite !plus_IZR.
  pose proof (Raux.Zfloor_lb w). pose proof (Raux.Zfloor_ub w). lra.
Qed.
Lemma sb_ceil_shifted : forall u w (k : Z), u = w + IZR k ->
  IZR (Raux.Zceil u) = IZR (Raux.Zceil w) + IZR k.
Proof.
  intros u w k E. rewrite <- plus_IZR. f_equal. apply Raux.Zceil_imp. rewrite minus_IZR, !plus_IZR.
  pose proof (Raux.Zceil_lb w). pose proof (Raux.Zceil_ub w). lra.
Qed.
Lemma sb_bernstein_basis : forall t i n, 0 <= t <= 1 -> 0 <= t ^ i * (1 - t) ^ n.
Proof. intros t i n H. apply Rmult_le_pos; apply pow_le; lra. Qed.
Lemma sb_bernstein_unit : forall lo hi x, lo < hi -> lo <= x <= hi -> 0 <= (x - lo) / (hi - lo) <= 1.
Proof.
  intros lo hi x H Hx. assert (P : 0 < / (hi - lo)) by (apply Rinv_0_lt_compat; lra).
  unfold Rdiv. split.
  - apply Rmult_le_pos; lra.
  - apply (Rmult_le_reg_r (hi - lo)); [lra |]. rewrite Rmult_assoc, Rinv_l; lra.
Qed.
Lemma sb_bernstein_step : forall b w s, 0 <= b -> 0 <= w -> 0 <= s -> 0 <= b * w + s.
Proof. intros b w s Hb Hw Hs. pose proof (Rmult_le_pos b w Hb Hw). lra. Qed.
Lemma sb_bernstein_min : forall m q r, 0 < m -> q = m + r -> 0 <= r -> 0 < q.
Proof. intros m q r Hm Hq Hr. lra. Qed.
"""
"""The case splits' lemmas (docs/prover.md): a point takes one of a Piecewise's branches, a Max or Min
one of its arguments (``sb_cases``, ``sb_max_cases``, ``sb_min_cases``), which also bound them
(``sb_max_bound``, ``sb_min_bound``); on the exporter's printed Max and Min, (a + b +- |a - b|) / 2, the
same facts: it is a or b (``sb_max_which``, ``sb_min_which``) and bounds both (``sb_max_above``,
``sb_min_below``); floor and ceiling by their fractions in [0, 1) (``sb_floor_fraction``,
``sb_ceil_fraction``, ``_lt`` for a strict claim) and by their constant value between integer crossings
(``sb_floor_between``, ``sb_ceil_between``: n <= u < n + 1 gives floor(u) = n, n - 1 < u <= n gives
ceiling(u) = n); an integer > -1 is >= 0 (``sb_integral``;
``sb_integral_le`` for a gap shown integral by ``sb_integer``: ``sb_int`` x, x = IZR k for some k : Z,
is closed under +, *, -, ^ n, |.|, the printed Max and Min, and holds of the numerals and of floor and
ceiling, which are IZR of Flocq's Zfloor and Zceil); a continuous function without a root on [a, b]
keeps its sign there (``sb_no_root_sign``, the intermediate value theorem) and an even power keeps a
sign (``sb_even_power``): the exact polynomial decision's sign argument; the Bernstein decision's: a
basis polynomial t^i (1 - t)^n is >= 0 on [0, 1] (``sb_bernstein_basis``), (x - lo)/(hi - lo) maps
[lo, hi] into [0, 1] (``sb_bernstein_unit``), a sum of products of terms >= 0 is >= 0
(``sb_bernstein_step``), and q = m + r with m > 0, r >= 0 is > 0 (``sb_bernstein_min``: the strict claim,
r = sum (b_I - m) B_I by the basis summing to 1); a function of period P > 0 that is >= 0 on [0, P] is
>= 0 everywhere (``sb_periodic``, through ``sb_periodic_nat`` and x - floor(x / P) P in [0, P))."""


def preamble(erf: bool = False, premises: bool = False, nodes: bool = False) -> str:
    """The whole preamble (an exported file carries the part :func:`preamble_for` selects): the imports,
    ``sb_close`` and the proved monotonicity lemmas; with ``erf``, :data:`ERF` too (first:
    ``sb_atoms`` then also unifies sb_erf atoms; only where a term has erf, its proofs cost coqc time); with
    ``premises``, :data:`PREMISES` after the case splits' lemmas; with ``nodes``, the node-by-node
    enclosure's shared lemmas (:data:`theory.prover.coq.node_rules.LEMMAS`)."""
    intervals = " | ".join(f"interval with (i_prec {bits})" for bits in PRECISIONS)
    lemmas = "\n".join(
        _lemma(name, increasing, strict)
        for name, increasing, strict in (
            ("increasing", True, False),
            ("decreasing", False, False),
            ("increasing_strict", True, True),
            ("decreasing_strict", False, True),
        )
    )
    return (
        "From Coq Require Import Reals Lra Lia.\n"
        "From Coquelicot Require Import Coquelicot.\n"
        "From Interval Require Import Tactic.\n"
        "From Flocq Require Raux.\n"
        "Open Scope R_scope.\n\n"
        + (f"{ERF}\n" if erf else "")
        + f"Ltac sb_close := first [ lra | {intervals}\n"
        "  | (rewrite ?Rplus_0_l, ?Rplus_0_r, ?Rmult_0_l, ?Rmult_0_r, ?Rmult_1_l, ?Rmult_1_r,\n"
        "       ?ln_1, ?exp_0;\n"
        "     first [ lra | nra ]) ].\n"
        "Ltac sb_side := first [ sb_close | apply Rgt_not_eq; sb_close | apply Rlt_not_eq; sb_close\n"
        "  | apply Rgt_not_eq; unfold Rpower; apply exp_pos ].\n"
        "Ltac sb_unabs :=\n"
        "  repeat match goal with |- context [Rabs ?x] =>\n"
        "    let H := fresh in destruct (Rcase_abs x) as [H|H];\n"
        "    [ rewrite (Rabs_left x H) | rewrite (Rabs_right x H) ] end.\n"
        "Ltac sb_atoms_by E :=\n"
        "  repeat match goal with\n"
        + "".join(
            f"  | |- context [{f} ?a] => match goal with |- context [{f} ?b] =>\n"
            f"      assert_fails (constr_eq a b); replace ({f} a) with ({f} b) by (f_equal; E) end\n"
            for f in ("sqrt", "ln", "exp", *(["sb_erf"] if erf else []))
        )
        + "  end.\n"
        "Ltac sb_atoms := sb_atoms_by ltac:(ring).\n"
        f"{EXPONENTS}"
        "Ltac sb_identity :=\n"
        "  first [ solve [ field; repeat split; sb_side ] | solve [ ring ] | solve [ lra ]\n"
        "  | solve [ rewrite ?Rplus_0_l, ?Rplus_0_r, ?Rmult_0_l, ?Rmult_0_r, ?Rmult_1_l, ?Rmult_1_r;\n"
        "            ring ]\n"
        "  | solve [ sb_unabs; lra ]\n"
        "  | solve [ sb_atoms; first [ ring | lra | field; repeat split; sb_side ] ] ].\n"
        "Ltac sb_identity_laws :=\n"
        "  first [ sb_identity | solve [ sb_rpowers; sb_atoms; sb_equal ] | solve [ sb_exponents ] ].\n"
        f"{ROOTS}"
        "Ltac sb_signs :=\n"
        "  repeat first [ rewrite sign_eq_1 by sb_close | rewrite sign_eq_m1 by sb_close ].\n\n"
        f"{POWERS}"
        f"{ROUNDINGS}"
        f"{CASES}" + (PREMISES if premises else "") + f"{MONOTONE_FUNCTIONS}{SIGNS}{TERMWISE_DERIVE}"
        "Ltac sb_powers :=\n"
        "  repeat rewrite ?Rmult_plus_distr_r, ?exp_plus; repeat rewrite sb_exp_neg_ln by sb_side.\n\n"
        f"{OPEN_MVT}{RULES}\n"
        f"{STEP_LEMMAS}"
        f"{LAWS}\n"
        f"{lemmas}" + (node_rules.LEMMAS if nodes else "")
    )


_ITEM = re.compile(r"^(?:Lemma|Ltac|Definition) ([A-Za-z_][A-Za-z0-9_']*)", re.MULTILINE)
"""A preamble item's first line at column 0: its kind and name."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
"""A Coq identifier (a qualified name is read as its parts)."""
_ERF_NAME = "sb_erf"
"""The name whose use in a file's text puts :data:`ERF` in its preamble (and the sb_erf branch of
``sb_atoms_by``)."""


@dataclass(frozen=True)
class Item:
    """One sentence of the preamble, with its proof: a ``Lemma``, ``Ltac`` or ``Definition``, its name, its
    text and the other items it names (its dependencies)."""

    name: str
    text: str
    uses: frozenset[str]


def items(erf: bool = False) -> tuple[str, list[Item]]:
    """The head (imports and scope) of :func:`preamble` with ``erf`` and ``premises``, and its items in
    order, each with the items its text names: Coq resolves a name only where it is written (no hint
    database, coercion or notation of the preamble's), so these are every item it can depend on."""
    text = preamble(erf=erf, premises=True)
    found = list(_ITEM.finditer(text))
    names = [match.group(1) for match in found]
    ends = [match.start() for match in found[1:]] + [len(text)]
    parts = []
    for match, end in zip(found, ends, strict=True):
        body = text[match.start() : end]
        named = frozenset(_NAME.findall(body)) & set(names)
        parts.append(Item(match.group(1), body, named - {match.group(1)}))
    return text[: found[0].start()], parts


def closure(names: set[str], parts: list[Item]) -> set[str]:
    """``names`` with every item they use, directly or through others (their dependency closure)."""
    uses = {part.name: part.uses for part in parts}
    wanted: set[str] = set()
    todo = [name for name in names if name in uses]
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.add(name)
            todo += uses[name] - wanted
    return wanted


def preamble_for(text: str) -> str:
    """The head of the preamble and the items ``text`` (the rest of a file) names, with their dependency
    closure, in the preamble's order: a file carries only what it uses and stays standalone (no library
    of the project's to load). :data:`ERF` is the source where ``text`` names ``sb_erf``; the node-by-node
    enclosure's lemmas (:data:`theory.prover.coq.node_rules.LEMMAS`, which use no item) close it where
    ``text`` names one of them."""
    used = set(_NAME.findall(text))
    head, parts = items(erf=_ERF_NAME in used)
    wanted = closure(used, parts)
    nodes = node_rules.LEMMAS if node_rules.used(text) else ""
    return head + "".join(part.text for part in parts if part.name in wanted) + nodes
