"""The fixed head of every exported Coq file: imports, the closing tactic and the two monotonicity lemmas.

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
splits each Rabs of the goal by the sign of its argument. ``sb_integer I C`` turns c - 1 < v into
c <= v for an integer v (I: exists k, v = IZR k).
``sb_signs`` replaces ``sign e`` (the derivative of Abs) by 1 or -1 where sb_close shows e's sign.

``sb_increasing`` / ``sb_decreasing`` are the mean value theorem (Coquelicot's ``MVT_gen``) in the form a
monotone box needs: a derivative of f on [a, b] with a sign bounds f by its value at a (or b); the
``_strict`` forms take a strictly signed derivative and a point away from that end. They are proved in the
file, so nothing is assumed. Provenance: standard (mean value theorem; Coquelicot, Boldo, Lelay and
Melquiond 2015; Interval, Melquiond 2008).
"""

from __future__ import annotations

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
  repeat first [ apply Rmult_lt_0_compat | apply Rinv_0_lt_compat | apply pow_lt | apply Rplus_lt_0_compat
               | unfold Rpower; apply exp_pos | apply exp_pos ]; lra.
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
cases the box excludes (lra, ``sb_close``); ``sb_positive`` shows a product of Rpower, exp, inverses
and powers of positive terms > 0 factor by factor (exp_pos, lra at the leaves); ``sb_at_zero`` closes a
face where a base is 0 or 1 (0 * t = 0, ln 1 = 0, exp 0 = 1 written out, then ``sb_close``)."""
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
"""exp and ln are increasing (the non-strict forms the node-by-node enclosure uses), and so is x^n on
x >= 0 for n >= 1, strictly; A^2 >= B^2 with A, B >= 0 gives A >= B (the kernel's squares step; standard)."""
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


def preamble() -> str:
    """The imports, ``sb_close`` and the proved monotonicity lemmas."""
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
        f"Ltac sb_close := first [ lra | {intervals}\n"
        "  | (rewrite ?Rplus_0_l, ?Rplus_0_r, ?Rmult_0_l, ?Rmult_0_r, ?Rmult_1_l, ?Rmult_1_r,\n"
        "       ?ln_1, ?exp_0;\n"
        "     first [ lra | nra ]) ].\n"
        "Ltac sb_side := first [ sb_close | apply Rgt_not_eq; sb_close | apply Rlt_not_eq; sb_close\n"
        "  | apply Rgt_not_eq; unfold Rpower; apply exp_pos ].\n"
        "Ltac sb_unabs :=\n"
        "  repeat match goal with |- context [Rabs ?x] =>\n"
        "    let H := fresh in destruct (Rcase_abs x) as [H|H];\n"
        "    [ rewrite (Rabs_left x H) | rewrite (Rabs_right x H) ] end.\n"
        "Ltac sb_atoms :=\n"
        "  repeat match goal with\n"
        + "".join(
            f"  | |- context [{f} ?a] => match goal with |- context [{f} ?b] =>\n"
            f"      assert_fails (constr_eq a b); replace ({f} a) with ({f} b) by (f_equal; ring) end\n"
            for f in ("sqrt", "ln", "exp")
        )
        + "  end.\n"
        f"{EXPONENTS}"
        "Ltac sb_identity :=\n"
        "  first [ solve [ field; repeat split; sb_side ] | solve [ ring ] | solve [ lra ]\n"
        "  | solve [ rewrite ?Rplus_0_l, ?Rplus_0_r, ?Rmult_0_l, ?Rmult_0_r, ?Rmult_1_l, ?Rmult_1_r;\n"
        "            ring ]\n"
        "  | solve [ sb_unabs; lra ]\n"
        "  | solve [ sb_atoms; first [ ring | lra | field; repeat split; sb_side ] ] ].\n"
        "Ltac sb_identity_laws :=\n"
        "  first [ sb_identity | solve [ sb_rpowers; sb_atoms; sb_equal ] | solve [ sb_exponents ] ].\n"
        "Ltac sb_integer I C :=\n"
        "  let J := fresh in pose proof I as [k J]; rewrite J in C |- *;\n"
        "  apply lt_IZR in C; apply IZR_le; lia.\n"
        "Ltac sb_signs :=\n"
        "  repeat first [ rewrite sign_eq_1 by sb_close | rewrite sign_eq_m1 by sb_close ].\n\n"
        f"{POWERS}"
        f"{ROUNDINGS}"
        f"{MONOTONE_FUNCTIONS}"
        "Ltac sb_powers :=\n"
        "  repeat rewrite ?Rmult_plus_distr_r, ?exp_plus; repeat rewrite sb_exp_neg_ln by sb_side.\n\n"
        f"{OPEN_MVT}\n"
        f"{STEP_LEMMAS}\n"
        f"{lemmas}"
    )
