(* Theorem 3.1 (reconstructed, specbound's assembled bound): the chain of theory/assembled.py proved in Coq
   over an abstract setting, from the four cited results, each a named Hypothesis with its reference
   beside it and nothing else assumed. The Section Theorem_3_1 has margin_bound and dudley; after it
   closes, theorem_3_1 and theorem_3_1_posthoc are universally quantified over them.
   The per-matrix covers (Theorem 4.1 as restated) enter as a premise of the theorem (any per-matrix
   covers with entropy B_i u^{-q_i}, q_i <= 1); the Section Head_tail proves their head/tail split from
   the other two cited results, candes_plan and zhang, its Hypotheses; the balancing algebra of
   Theorem 4.1 (k the ceiling of k_star, K_p, c_p <= 2) is checked by the prover and coqc in the registry's files.
   Each lemma marked "node" is a node of `specbound theory --blueprint`. *)

Require Import Reals Coquelicot.Coquelicot Lra Lia List.
Require Classical_Prop.
Require Flocq.Core.Raux.
Open Scope R_scope.

Fixpoint rsum (g : nat -> R) (k : nat) : R :=
  match k with O => 0 | S k' => rsum g k' + g k' end.

Lemma rsum_le (g h : nat -> R) (k : nat) :
  (forall i, (i < k)%nat -> g i <= h i) -> rsum g k <= rsum h k.
Proof.
  induction k as [|k IH]; intros H; simpl; [lra|].
  apply Rplus_le_compat; [apply IH; intros; apply H; lia | apply H; lia].
Qed.

Lemma rsum_nonneg (g : nat -> R) (k : nat) : (forall i, (i < k)%nat -> 0 <= g i) -> 0 <= rsum g k.
Proof.
  induction k as [|k IH]; intros H; simpl; [lra|].
  assert (0 <= g k) by (apply H; lia). assert (0 <= rsum g k) by (apply IH; intros; apply H; lia). lra.
Qed.

Lemma rsum_const (x : R) (k : nat) : rsum (fun _ => x) k = INR k * x.
Proof. induction k as [|k IH]; simpl rsum; [simpl; ring|]. rewrite IH, S_INR. ring. Qed.

Lemma rsum_scal (x : R) (g : nat -> R) (k : nat) : rsum (fun i => x * g i) k = x * rsum g k.
Proof. induction k as [|k IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma rsum_cancel (c : nat -> R) (r D : R) (k : nat) :
  D <> 0 -> (forall i, 0 < c i) -> rsum (fun i => c i * (r / (D * c i))) k = rsum (fun _ => r / D) k.
Proof.
  intros HD Hc. induction k as [|k IH]; simpl; [reflexivity|].
  rewrite IH. f_equal. specialize (Hc k). field. split; lra.
Qed.

(* node eps_allocation: the equal split eps_i = margin u / (K c_i) spends the radius margin u exactly *)
Lemma eps_allocation (K : nat) (c : nat -> R) (r : R) :
  (0 < K)%nat -> (forall i, 0 < c i) -> rsum (fun i => c i * (r / (INR K * c i))) K = r.
Proof.
  intros HK Hc.
  assert (HKr : 0 < INR K) by (apply lt_0_INR; lia).
  transitivity (rsum (fun _ => r / INR K) K).
  - apply rsum_cancel; [lra | exact Hc].
  - rewrite rsum_const. field. lra.
Qed.

(* node peeling_weights: sum_{|j| <= J} 2 / (3 (|j|+1) (|j|+2)) by the telescoping partial sum *)
Lemma peeling_telescope (J : nat) :
  sum_f_R0 (fun k => / ((INR k + 1) * (INR k + 2))) J = 1 - / (INR J + 2).
Proof.
  induction J as [|J IH].
  - simpl. field.
  - rewrite tech5, IH, S_INR.
    assert (0 <= INR J) by apply pos_INR.
    field. lra.
Qed.

Lemma peeling_weights_partial_sum (J : nat) :
  2 / 3 * (2 * sum_f_R0 (fun k => / ((INR k + 1) * (INR k + 2))) J - / 2) = 1 - 4 / (3 * (INR J + 2)).
Proof.
  rewrite peeling_telescope. assert (0 <= INR J) by apply pos_INR. field. lra.
Qed.

Lemma peeling_weights_sum_to_1 :
  is_lim_seq (fun J => 2 / 3 * (2 * sum_f_R0 (fun k => / ((INR k + 1) * (INR k + 2))) J - / 2)) 1.
Proof.
  apply (is_lim_seq_ext (fun J => 1 - 4 / 3 * / (INR J + 2))).
  - intro J. rewrite peeling_weights_partial_sum. assert (0 <= INR J) by apply pos_INR. field. lra.
  - assert (H : is_lim_seq (fun J => / (INR J + 2)) 0).
    { replace (Finite 0) with (Rbar_inv p_infty) by reflexivity.
      apply is_lim_seq_inv; [|discriminate].
      apply (is_lim_seq_le_p_loc (fun J => INR J)).
      - exists O. intros J _. lra.
      - apply is_lim_seq_INR. }
    apply is_lim_seq_scal_l with (a := 4/3) in H.
    apply (is_lim_seq_minus _ _ 1 (Rbar_mult (4/3) 0) 1 (is_lim_seq_const 1) H).
    simpl. unfold is_Rbar_minus, is_Rbar_plus. simpl. f_equal. f_equal. ring.
Qed.

(* node entropy_exponent: u^{-q} <= u^{-1} on (0, 1] for 0 <= q <= 1 *)
Lemma entropy_power_bound (u q : R) : 0 < u -> u <= 1 -> 0 <= q -> q <= 1 -> Rpower u (- q) <= / u.
Proof.
  intros Hu Hu1 Hq Hq1.
  rewrite <- (Rpower_1 u) at 2 by lra. rewrite <- Rpower_Ropp.
  assert (ln u <= 0) by (rewrite <- ln_1; apply ln_le; lra).
  assert (Hexp : - q * ln u <= - (1) * ln u) by nra.
  unfold Rpower.
  destruct Hexp as [Hlt|Heq]; [left; apply exp_increasing; exact Hlt | right; rewrite Heq; reflexivity].
Qed.

Lemma entropy_exponent_le_1 (p : R) : 0 <= p -> p <= 2 -> 2 * p / (p + 2) <= 1.
Proof. intros Hp Hp2. apply Rmult_le_reg_r with (p + 2); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. Qed.

(* node confidence_split: ln(2/delta') for delta' = delta W / G is ln(2/delta) + ln G + ln(1/W) *)
Lemma confidence_split (delta G W : R) :
  0 < delta -> 0 < G -> 0 < W -> ln (2 / (delta * W / G)) = ln (2 / delta) + ln G + ln (/ W).
Proof.
  intros Hd HG HW.
  replace (2 / (delta * W / G)) with (2 / delta * G * / W) by (field; lra).
  rewrite !ln_mult; try apply Rmult_lt_0_compat; try apply Rinv_0_lt_compat; try lra.
  apply Rdiv_lt_0_compat; lra.
Qed.

(* node grid_count: |P_m^K| = (2m + 1)^K, so ln |P_m^K| = K ln(2m + 1) *)
Lemma grid_count (m K : nat) : ln ((2 * INR m + 1) ^ K) = INR K * ln (2 * INR m + 1).
Proof. apply ln_pow. assert (0 <= INR m) by apply pos_INR. lra. Qed.

(* node ramp_lipschitz: the ramp loss is (1/margin)-Lipschitz *)
Definition ramp (margin t : R) : R :=
  if Rle_dec t 0 then 1 else if Rlt_dec t margin then 1 - t / margin else 0.

Lemma ramp_lipschitz (margin s t : R) : 0 < margin -> Rabs (ramp margin s - ramp margin t) <= Rabs (s - t) / margin.
Proof.
  intros Hm. unfold ramp.
  assert (Hi : 0 < / margin) by (apply Rinv_0_lt_compat; lra).
  assert (Hmi : margin * / margin = 1) by (field; lra).
  assert (Ha : s - t <= Rabs (s - t)) by apply Rle_abs.
  assert (Hb : - (s - t) <= Rabs (s - t)) by (rewrite <- Rabs_Ropp; apply Rle_abs).
  unfold Rdiv.
  destruct (Rle_dec s 0); destruct (Rle_dec t 0);
  try destruct (Rlt_dec s margin); try destruct (Rlt_dec t margin);
  apply Rabs_le; split; nra.
Qed.

(* node margin_union (its weights): the margin shells' weights 2 / (3 (k+1) (k+2)) over k = 0..K sum to
   2/3 (1 - 1/(K+2)), at most 2/3 <= 1, so the union over the dyadic margins spends at most delta *)
Lemma margin_weights_partial_sum (K : nat) :
  sum_f_R0 (fun k => 2 / (3 * ((INR k + 1) * (INR k + 2)))) K = 2 / 3 * (1 - / (INR K + 2)).
Proof.
  induction K as [|K IH]; [simpl; field|].
  rewrite tech5, IH, S_INR. assert (0 <= INR K) by apply pos_INR. field. lra.
Qed.

Lemma margin_weights_total (K : nat) : sum_f_R0 (fun k => 2 / (3 * ((INR k + 1) * (INR k + 2)))) K <= 2 / 3.
Proof.
  rewrite margin_weights_partial_sum.
  assert (0 < / (INR K + 2)) by (apply Rinv_0_lt_compat; pose proof (pos_INR K); lra). lra.
Qed.

(* node margin_union (the ramp): the ramp loss at a smaller margin is at most the ramp at a larger one *)
Lemma ramp_margin_monotone (g g' t : R) : 0 < g -> g <= g' -> ramp g t <= ramp g' t.
Proof.
  intros Hg Hgg. unfold ramp.
  destruct (Rle_dec t 0); [lra|].
  destruct (Rlt_dec t g); destruct (Rlt_dec t g'); try lra.
  - assert (t / g' <= t / g); [|lra].
    unfold Rdiv. apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; lra.
  - assert (t / g' < 1); [|lra].
    apply Rmult_lt_reg_r with g'; [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. lra.
Qed.

(* node margin_union (the shell): for a margin g in (0, 1] and k = ceil(log2(1/g)), g/2 < 2^-k <= g *)
Lemma dyadic_margin_bracket (g : R) : 0 < g -> g <= 1 ->
  g / 2 < Rpower 2 (- IZR (Raux.Zceil (ln (/ g) / ln 2))) /\
  Rpower 2 (- IZR (Raux.Zceil (ln (/ g) / ln 2))) <= g.
Proof.
  intros Hg Hg1.
  assert (Hln2 : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  set (x := ln (/ g) / ln 2).
  assert (Hub := Raux.Zceil_ub x). assert (Hlb := Raux.Zceil_lb x).
  set (z := IZR (Raux.Zceil x)) in *.
  assert (Hx : x * ln 2 = - ln g) by (unfold x; rewrite ln_Rinv by lra; field; lra).
  assert (Eg : g = exp (- (x * ln 2))) by (rewrite Hx, Ropp_involutive, exp_ln; lra).
  assert (Eh : g / 2 = exp (- ((x + 1) * ln 2))).
  { replace (- ((x + 1) * ln 2)) with (- (x * ln 2) + - ln 2) by ring.
    rewrite exp_plus, <- Eg, exp_Ropp, exp_ln by lra. field. }
  assert (Ez : Rpower 2 (- z) = exp ((- z) * ln 2)) by reflexivity.
  rewrite Ez. split.
  - assert (0 < (x + 1 - z) * ln 2) by (apply Rmult_lt_0_compat; lra).
    assert (exp (- ((x + 1) * ln 2)) < exp ((- z) * ln 2)) by (apply exp_increasing; lra). lra.
  - rewrite Eg.
    assert (0 <= (z - x) * ln 2) by (apply Rmult_le_pos; lra).
    assert (Hle : (- z) * ln 2 <= - (x * ln 2)) by lra.
    destruct Hle as [Hlt|Heq]; [left; apply exp_increasing; exact Hlt | right; rewrite Heq; reflexivity].
Qed.

(* node proper_cover_factor: an external cover at radius r gives a cover inside the set, no larger, at
   radius 2 r (stated under a double negation: the conclusion is used to prove a real inequality, which is
   stable under double negation, so no excluded middle is assumed) *)
Lemma proper_cover {X : Type} (d : X -> X -> R) (A : X -> Prop) (r : R) (L : list X) :
  (forall x y, d x y = d y x) -> (forall x y z, d x z <= d x y + d y z) ->
  (forall a, A a -> exists l, In l L /\ d a l <= r) ->
  ~ ~ (exists L', (forall x, In x L' -> A x) /\ (length L' <= length L)%nat /\
        forall a, A a -> exists x, In x L' /\ d a x <= 2 * r).
Proof.
  intros Hsym Htri. revert A. induction L as [|l L IH]; intros A Hcov.
  - intros Hn. apply Hn. exists nil. simpl. split; [tauto|]. split; [lia|].
    intros a Ha. destruct (Hcov a Ha) as [l [[] _]].
  - intros Hn.
    apply (IH (fun a => A a /\ r < d a l)).
    { intros a [Ha Hfar]. destruct (Hcov a Ha) as [l' [[<-|Hin] Hd]]; [lra|]. eauto. }
    intros [L1 [Hin1 [Hlen1 Hcov1]]].
    assert (Hem : ~ ~ ((exists a0, A a0 /\ d a0 l <= r) \/ ~ (exists a0, A a0 /\ d a0 l <= r))) by tauto.
    apply Hem. intros [[a0 [Ha0 Hd0]] | Hnone]; apply Hn.
    + exists (a0 :: L1). split; [intros x [<-|Hx]; [exact Ha0 | apply Hin1, Hx]|].
      split; [simpl; lia|].
      intros a Ha. destruct (Rle_lt_dec (d a l) r) as [Hnear|Hfar].
      * exists a0. split; [left; reflexivity|].
        pose proof (Htri a l a0). rewrite (Hsym l a0) in H. lra.
      * destruct (Hcov1 a (conj Ha Hfar)) as [x [Hx Hdx]]. exists x. split; [right; exact Hx | exact Hdx].
    + exists L1. split; [intros x Hx; apply (Hin1 x Hx)|]. split; [simpl; lia|].
      intros a Ha. destruct (Rle_lt_dec (d a l) r) as [Hnear|Hfar].
      * exfalso. apply Hnone. eauto.
      * apply Hcov1. auto.
Qed.

Lemma dudley_integral_is_RInt (a : R) :
  0 < a -> a <= 1 -> is_RInt (fun u => / sqrt u) a 1 (2 - 2 * sqrt a).
Proof.
  intros Ha Ha1.
  replace (2 - 2 * sqrt a) with (2 * sqrt 1 - 2 * sqrt a) by (rewrite sqrt_1; ring).
  apply (is_RInt_derive (fun u => 2 * sqrt u) (fun u => / sqrt u)).
  - intros x Hx. rewrite Rmin_left in Hx by lra. rewrite Rmax_right in Hx by lra.
    assert (Hx0 : 0 < x) by lra.
    apply is_derive_Reals.
    replace (/ sqrt x) with (2 * / (2 * sqrt x)).
    + apply derivable_pt_lim_scal. apply derivable_pt_lim_sqrt. exact Hx0.
    + field. apply Rgt_not_eq. apply sqrt_lt_R0. exact Hx0.
  - intros x Hx. rewrite Rmin_left in Hx by lra. rewrite Rmax_right in Hx by lra.
    assert (Hx0 : 0 < x) by lra.
    apply continuous_comp.
    + apply continuity_pt_filterlim. apply continuity_pt_sqrt. lra.
    + apply continuity_pt_filterlim. apply continuity_pt_inv.
      apply continuity_pt_id. apply Rgt_not_eq, sqrt_lt_R0. exact Hx0.
Qed.

(* node dudley_integral: int_a^1 u^{-1/2} du = 2 - 2 sqrt a (Coquelicot's RInt) *)
Lemma dudley_integral_closed_form (a : R) :
  0 < a -> a <= 1 -> RInt (fun u => / sqrt u) a 1 = 2 - 2 * sqrt a.
Proof. intros. apply is_RInt_unique, dudley_integral_is_RInt; assumption. Qed.

Lemma nn_choice {Y : Type} (P : nat -> Y -> Prop) (y0 : Y) (k : nat) :
  (forall i, (i < k)%nat -> ~ ~ exists y, P i y) -> ~ ~ exists F : nat -> Y, forall i, (i < k)%nat -> P i (F i).
Proof.
  induction k as [|k IH]; intros H Hn.
  - apply Hn. exists (fun _ => y0). intros i Hi. lia.
  - apply IH. { intros i Hi. apply H. lia. }
    intros [F HF]. apply (H k). { lia. }
    intros [y Hy]. apply Hn.
    exists (fun i => if Nat.eqb i k then y else F i). intros i Hi.
    destruct (Nat.eqb_spec i k) as [->|Hne]; [exact Hy | apply HF; lia].
Qed.

Lemma flat_map_length_const {X Y : Type} (h : X -> list Y) (m : nat) (l : list X) :
  (forall x, length (h x) = m) -> length (flat_map h l) = (length l * m)%nat.
Proof. intros Hh. induction l as [|x l IH]; simpl; [reflexivity|]. rewrite app_length, IH, Hh. lia. Qed.

Lemma sqrt_plus_le (x y : R) : 0 <= x -> 0 <= y -> sqrt (x + y) <= sqrt x + sqrt y.
Proof.
  intros Hx Hy. apply Rsqr_incr_0_var; [|apply Rplus_le_le_0_compat; apply sqrt_pos].
  rewrite Rsqr_sqrt by lra. unfold Rsqr.
  assert (0 <= sqrt x * sqrt y) by (apply Rmult_le_pos; apply sqrt_pos).
  replace ((sqrt x + sqrt y) * (sqrt x + sqrt y)) with (sqrt x * sqrt x + sqrt y * sqrt y + 2 * (sqrt x * sqrt y)) by ring.
  rewrite !sqrt_sqrt by lra. lra.
Qed.

Section Head_tail.

(* The per-matrix setting of Theorem 4.1: a matrix class A whose every element is a head (rank <= k,
   in the set Head) plus a tail (in the set Tail), and the metric dm of the matrix (sup over its input
   tokens of the distance of its outputs), subadditive over such sums. *)
Variables (Mat : Type) (madd : Mat -> Mat -> Mat) (dm : Mat -> Mat -> R).
Variables (A Head Tail : Mat -> Prop).
Variables (d1 d2 k M : nat) (R0 aw bx : R).

(* cited: Candes & Plan 2011, IEEE Trans. Inf. Theory 57(4), Lemma 3.1: the rank-k matrices of
   Frobenius norm <= R0 in R^{d1 x d2} have an eps-cover of size <= (9 R0 / eps)^{(d1 + d2 + 1) k}
   (here in the metric dm, which the Frobenius norm bounds through the inputs' norm, theory.covering) *)
Hypothesis candes_plan : forall e, 0 < e -> exists L,
  (forall h, Head h -> exists l, In l L /\ dm h l <= e) /\
  ln (INR (length L)) <= (INR d1 + INR d2 + 1) * INR k * ln (9 * R0 / e).

(* cited: Zhang 2002, JMLR 2: 527-550, Theorem 4 (Maurey): log2 N_inf(eps) <=
   ceil(36 a^2 b^2 / eps^2) log2(2 ceil(4 a b / eps + 2) M + 1), applied to the tail through the matrix
   reduction of theory.covering (aw its radius, bx its input bound, M its number of points) *)
Hypothesis zhang : forall e, 0 < e -> exists L,
  (forall r, Tail r -> exists l, In l L /\ dm r l <= e) /\
  ln (INR (length L)) / ln 2 <= IZR (Raux.Zceil (36 * (aw * bx / e) ^ 2)) *
    (ln (2 * IZR (Raux.Zceil (4 * aw * bx / e + 2)) * INR M + 1) / ln 2).

(* node head_tail_split: covers of the heads at e1 and of the tails at e2 give a cover of the class at
   e1 + e2, of log-size at most the sum of the two cited bounds *)
Lemma head_tail_cover (e1 e2 : R) :
  0 < e1 -> 0 < e2 ->
  (forall W, A W -> exists h r, Head h /\ Tail r /\ W = madd h r) ->
  (forall h r h' r', dm (madd h r) (madd h' r') <= dm h h' + dm r r') ->
  (exists h, Head h) -> (exists r, Tail r) ->
  exists L, (forall W, A W -> exists l, In l L /\ dm W l <= e1 + e2) /\
  ln (INR (length L)) <= (INR d1 + INR d2 + 1) * INR k * ln (9 * R0 / e1) +
    IZR (Raux.Zceil (36 * (aw * bx / e2) ^ 2)) * ln (2 * IZR (Raux.Zceil (4 * aw * bx / e2 + 2)) * INR M + 1).
Proof.
  intros He1 He2 Hsplit Hsub [h0 Hh0] [r0 Hr0].
  destruct (candes_plan e1 He1) as [LH [HcovH HlnH]].
  destruct (zhang e2 He2) as [LT [HcovT HlnT]].
  exists (flat_map (fun h => map (fun r => madd h r) LT) LH). split.
  - intros W HW. destruct (Hsplit W HW) as [h [r [Hh [Hr ->]]]].
    destruct (HcovH h Hh) as [lh [Hlh Hdh]]. destruct (HcovT r Hr) as [lt [Hlt Hdt]].
    exists (madd lh lt). split.
    + apply in_flat_map. exists lh. split; [exact Hlh|]. apply in_map_iff. exists lt. split; [reflexivity | exact Hlt].
    + eapply Rle_trans; [apply Hsub|]. lra.
  - rewrite (flat_map_length_const _ (length LT)) by (intros; apply map_length).
    assert (HnH : (1 <= length LH)%nat).
    { destruct (HcovH h0 Hh0) as [l [Hl _]]. destruct LH; [destruct Hl | simpl; lia]. }
    assert (HnT : (1 <= length LT)%nat).
    { destruct (HcovT r0 Hr0) as [l [Hl _]]. destruct LT; [destruct Hl | simpl; lia]. }
    assert (Hln2 : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
    rewrite mult_INR, ln_mult by (apply lt_0_INR; lia).
    apply Rplus_le_compat; [exact HlnH|].
    apply Rmult_le_reg_r with (/ ln 2); [apply Rinv_0_lt_compat; exact Hln2|].
    rewrite Rmult_assoc. exact HlnT.
Qed.

End Head_tail.

Section Theorem_3_1.

(* The setting: a class of networks indexed by K matrices (theta i for i < K, matrix i in the set A i,
   with the metric dm i: the sup over its input tokens of the distance of its outputs), the network
   output f theta x on a sample x, labels, the sample list, the Lipschitz constants c i = gamma_i alpha_i,
   the margin, the sample size n, the confidence delta, and the three quantities the cited bounds speak of:
   the 0-1 risk, the empirical ramp risk and the empirical Rademacher complexity of the ramp-loss class. *)
Variables (Mat Sample : Type) (K : nat) (A : nat -> Mat -> Prop) (dm : nat -> Mat -> Mat -> R).
Variables (f : (nat -> Mat) -> Sample -> R) (label : Sample -> R) (sample : list Sample) (c : nat -> R).
Variables (margin n delta Risk EmpRamp Rad : R).

Definition in_class (th : nat -> Mat) : Prop := forall i, (i < K)%nat -> A i (th i).
Definition loss (th : nat -> Mat) (x : Sample) : R := ramp margin (label x * f th x).
(* L is a cover of the ramp-loss class with 0 added, at radius u in the sup-over-samples metric, by
   elements of that class (a proper cover) *)
Definition covers_losses (u : R) (L : list (Sample -> R)) : Prop :=
  (forall th, in_class th -> exists g, In g L /\ forall x, In x sample -> Rabs (loss th x - g x) <= u) /\
  (exists g, In g L /\ forall x, In x sample -> Rabs (g x) <= u) /\
  (forall g, In g L -> (forall x, In x sample -> g x = 0) \/
     exists th, in_class th /\ forall x, In x sample -> g x = loss th x).

(* cited: Mohri, Rostamizadeh & Talwalkar 2018, Foundations of Machine Learning (2nd ed.), Theorem 3.3,
   applied to the [0, 1]-valued class ramp o F, with 1[y f(x) <= 0] <= ramp(y f(x)): on an event of
   probability >= 1 - delta over the n samples, for every network of the class,
   P(y f(x) <= 0) <= (1/n) sum_i ramp(y_i f(x_i)) + 2 R_S(ramp o F) + 3 sqrt(ln(2/delta) / (2n)). *)
Hypothesis margin_bound : Risk <= EmpRamp + 2 * Rad + 3 * sqrt (ln (2 / delta) / (2 * n)).

(* cited: Dudley's entropy integral, Bartlett, Foster & Telgarsky 2017, Lemma A.5, in the sup-over-samples
   metric (radius u there is radius sqrt(n) u in their l2 metric on R^n): for a class of [0, 1]-valued
   functions containing 0, R_S <= 4 a + (12 / sqrt n) int_a^1 sqrt(ln N(u)) du for every a in (0, 1].
   Stated for any continuous majorant h of sqrt(ln N(u)) witnessed by a finite proper cover (elements in
   the class with 0 added; the integral is monotone in the entropy). *)
Hypothesis dudley : forall (a : R) (h : R -> R),
  0 < a -> a <= 1 ->
  (forall u, a <= u <= 1 -> continuous h u) ->
  (forall u, a <= u <= 1 -> exists L, covers_losses u L /\ sqrt (ln (INR (length L))) <= h u) ->
  Rad <= 4 * a + 12 / sqrt n * RInt h a 1.

Fixpoint product (C : nat -> list Mat) (base : nat -> Mat) (k : nat) : list (nat -> Mat) :=
  match k with
  | O => base :: nil
  | S k' => flat_map (fun g => map (fun x => fun i => if Nat.eqb i k' then x else g i) (C k'))
                     (product C base k')
  end.

Fixpoint nprod (C : nat -> list Mat) (k : nat) : nat :=
  match k with O => 1%nat | S k' => (nprod C k' * length (C k'))%nat end.

Lemma product_length C base k : length (product C base k) = nprod C k.
Proof.
  induction k as [|k IH]; simpl; [reflexivity|].
  rewrite (flat_map_length_const _ (length (C k))); [rewrite IH; reflexivity|].
  intros g. apply map_length.
Qed.

Lemma ln_nprod C k : (forall i, (i < k)%nat -> (1 <= length (C i))%nat) ->
  ln (INR (nprod C k)) = rsum (fun i => ln (INR (length (C i)))) k.
Proof.
  induction k as [|k IH]; intros H; simpl; [apply ln_1|].
  assert (Hp : (1 <= nprod C k)%nat).
  { clear IH. induction k as [|k IHk]; simpl; [lia|].
    assert (1 <= length (C k))%nat by (apply H; lia).
    assert (1 <= nprod C k)%nat by (apply IHk; intros; apply H; lia). nia. }
  assert (1 <= length (C k))%nat by (apply H; lia).
  rewrite mult_INR, ln_mult, IH; [reflexivity | intros; apply H; lia | |];
  apply lt_0_INR; lia.
Qed.

Lemma product_members C base k g : In g (product C base k) -> forall i, (i < k)%nat -> In (g i) (C i).
Proof.
  revert g. induction k as [|k IH]; intros g Hg i Hi; [lia|].
  simpl in Hg. apply in_flat_map in Hg. destruct Hg as [g0 [Hg0 Hin]].
  apply in_map_iff in Hin. destruct Hin as [x [<- Hx]].
  destruct (Nat.eqb_spec i k) as [->|Hne]; [exact Hx | apply IH; [exact Hg0 | lia]].
Qed.

(* node cover_composition: per-matrix covers compose into a cover of the class (product of the lists) *)
Lemma product_covers C base k th (e : nat -> R) :
  (forall i, (i < k)%nat -> exists x, In x (C i) /\ dm i (th i) x <= e i) ->
  exists g, In g (product C base k) /\ forall i, (i < k)%nat -> In (g i) (C i) /\ dm i (th i) (g i) <= e i.
Proof.
  induction k as [|k IH]; intros H.
  - exists base. split; [left; reflexivity | intros; lia].
  - destruct IH as [g [Hg Hgi]]; [intros; apply H; lia|].
    destruct (H k) as [x [Hx Hdx]]; [lia|].
    exists (fun i => if Nat.eqb i k then x else g i). split.
    + simpl. apply in_flat_map. exists g. split; [exact Hg|]. apply in_map_iff. exists x. split; [reflexivity | exact Hx].
    + intros i Hi. destruct (Nat.eqb_spec i k) as [->|Hne]; [auto | apply Hgi; lia].
Qed.

Section Lipschitz.
Hypothesis (only_K : forall th th' x, (forall i, (i < K)%nat -> th i = th' i) -> f th x = f th' x).
Hypothesis (lipschitz_each : forall th th' i x, in_class th -> in_class th' -> (i < K)%nat ->
  (forall j, j <> i -> th j = th' j) -> Rabs (f th x - f th' x) <= c i * dm i (th i) (th' i)).

(* node telescoping: Lipschitz in each matrix gives |f th - f th'| <= sum_i c_i dm_i *)
Lemma telescoping th th' x : in_class th -> in_class th' ->
  Rabs (f th x - f th' x) <= rsum (fun i => c i * dm i (th i) (th' i)) K.
Proof.
  intros Hth Hth'.
  set (hy := fun k => fun j => if Nat.ltb j k then th' j else th j).
  assert (Hin : forall k, in_class (hy k)).
  { intros k i Hi. unfold hy. destruct (Nat.ltb i k); [apply Hth' | apply Hth]; exact Hi. }
  assert (Hk : forall k, (k <= K)%nat -> Rabs (f th x - f (hy k) x) <= rsum (fun i => c i * dm i (th i) (th' i)) k).
  { induction k as [|k IH]; intros HkK.
    - simpl. unfold hy. simpl. unfold Rminus. rewrite Rplus_opp_r, Rabs_R0. lra.
    - simpl rsum.
      replace (f th x - f (hy (S k)) x) with ((f th x - f (hy k) x) + (f (hy k) x - f (hy (S k)) x)) by ring.
      eapply Rle_trans; [apply Rabs_triang|]. apply Rplus_le_compat; [apply IH; lia|].
      assert (Hl := lipschitz_each (hy k) (hy (S k)) k x (Hin k) (Hin (S k)) ltac:(lia)).
      assert (E1 : hy k k = th k) by (unfold hy; rewrite Nat.ltb_irrefl; reflexivity).
      assert (E2 : hy (S k) k = th' k) by (unfold hy; replace (Nat.ltb k (S k)) with true; [reflexivity|]; symmetry; apply Nat.ltb_lt; lia).
      rewrite <- E1, <- E2. apply Hl. intros j Hj. unfold hy.
      destruct (Nat.ltb_spec j k); destruct (Nat.ltb_spec j (S k)); try reflexivity; lia. }
  replace (f th' x) with (f (hy K) x).
  - apply Hk. lia.
  - apply only_K. intros i Hi. unfold hy. replace (Nat.ltb i K) with true; [reflexivity|].
    symmetry. apply Nat.ltb_lt. exact Hi.
Qed.
End Lipschitz.

Lemma rsum_mult_r (g : nat -> R) (x : R) (k : nat) : rsum (fun i => g i * x) k = rsum g k * x.
Proof. induction k as [|k IH]; simpl; [ring|]. rewrite IH. ring. Qed.

(* node theorem_3_1: the assembled bound at confidence delta, from the two cited premises above *)
Theorem theorem_3_1 (B q : nat -> R) (base : nat -> Mat) (C : R -> nat -> list Mat) :
  (0 < K)%nat -> 1 <= n -> 0 < margin -> (forall i, 0 < c i) ->
  (forall i x y, dm i x y = dm i y x) -> (forall i x y z, dm i x z <= dm i x y + dm i y z) ->
  (forall x, In x sample -> Rabs (label x) = 1) ->
  (forall th th' x, (forall i, (i < K)%nat -> th i = th' i) -> f th x = f th' x) ->
  (forall th th' i x, in_class th -> in_class th' -> (i < K)%nat ->
     (forall j, j <> i -> th j = th' j) -> Rabs (f th x - f th' x) <= c i * dm i (th i) (th' i)) ->
  in_class base ->
  (forall i, 0 <= B i) -> (forall i, 0 <= q i <= 1) ->
  (forall u i, 0 < u -> u <= 1 -> (i < K)%nat ->
     (forall a, A i a -> exists l, In l (C u i) /\ dm i a l <= margin * u / (2 * (INR K * c i))) /\
     ln (INR (length (C u i))) <= B i * Rpower u (- q i)) ->
  Risk <= EmpRamp + (8 + 24 * sqrt (ln 2) + 48 * sqrt (rsum B K)) / sqrt n
          + 3 * sqrt (ln (2 / delta) / (2 * n)).
Proof.
  intros HK Hn Hm Hc Hsym Htri Hlab Honly Hlip Hbase HB Hq Hcov.
  set (Sg := rsum B K).
  assert (HSg : 0 <= Sg) by (apply rsum_nonneg; intros; apply HB).
  set (h := fun u => sqrt (ln 2) + sqrt Sg * / sqrt u).
  assert (Hsn : 1 <= sqrt n) by (rewrite <- sqrt_1; apply sqrt_le_1_alt; lra).
  set (a := / sqrt n).
  assert (Ha : 0 < a) by (apply Rinv_0_lt_compat; lra).
  assert (Ha1 : a <= 1) by (unfold a; rewrite <- Rinv_1; apply Rinv_le_contravar; lra).
  assert (HKr : 0 < INR K) by (apply lt_0_INR; lia).
  assert (Hln2 : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (Hrad : Rad <= 4 * a + 12 / sqrt n * RInt h a 1).
  { apply dudley; [exact Ha | exact Ha1 | |].
    - intros u Hu. unfold h.
      apply (continuous_plus (fun _ => sqrt (ln 2)) (fun u => sqrt Sg * / sqrt u)).
      + apply continuous_const.
      + apply (continuous_mult (fun _ => sqrt Sg) (fun u => / sqrt u)); [apply continuous_const|].
        apply continuous_comp.
        * apply continuity_pt_filterlim. apply continuity_pt_sqrt. lra.
        * apply continuity_pt_filterlim. apply continuity_pt_inv.
          apply continuity_pt_id. apply Rgt_not_eq, sqrt_lt_R0. lra.
    - intros u [Hau Hu1]. apply Classical_Prop.NNPP. intros Hnot.
      assert (Hu : 0 < u) by lra.
      set (r := fun i => margin * u / (2 * (INR K * c i))).
      apply (nn_choice (fun i Cp => (forall x, In x Cp -> A i x) /\ (length Cp <= length (C u i))%nat /\
                         forall a, A i a -> exists x, In x Cp /\ dm i a x <= 2 * r i) nil K).
      { intros i Hi. apply proper_cover; [apply Hsym | apply Htri |].
        apply (Hcov u i Hu Hu1 Hi). }
      intros [F HF]. apply Hnot.
      assert (HFne : forall i, (i < K)%nat -> (1 <= length (F i))%nat).
      { intros i Hi. destruct (proj2 (proj2 (HF i Hi)) (base i) (Hbase i Hi)) as [x [Hx _]].
        destruct (F i); [destruct Hx | simpl; lia]. }
      exists ((fun _ => 0) :: map loss (product F base K)). split.
      + split.
        * intros th Hth.
          destruct (product_covers F base K th (fun i => 2 * r i)) as [g [Hg Hgi]].
          { intros i Hi. apply (proj2 (proj2 (HF i Hi))). apply Hth, Hi. }
          exists (loss g). split; [right; apply in_map; exact Hg|].
          assert (Hgc : in_class g) by (intros i Hi; apply (proj1 (HF i Hi)), Hgi, Hi).
          intros x Hx.
          assert (Ht := telescoping Honly Hlip th g x Hth Hgc).
          assert (Hs : rsum (fun i => c i * dm i (th i) (g i)) K <= margin * u).
          { rewrite <- (eps_allocation K c (margin * u) HK Hc). apply rsum_le. intros i Hi.
            apply Rmult_le_compat_l; [apply Rlt_le, Hc|]. destruct (Hgi i Hi) as [_ Hd].
            unfold r in Hd. replace (margin * u / (INR K * c i)) with (2 * (margin * u / (2 * (INR K * c i)))).
            - exact Hd.
            - specialize (Hc i). field. split; lra. }
          unfold loss. eapply Rle_trans; [apply ramp_lipschitz; lra|].
          replace (label x * f th x - label x * f g x) with (label x * (f th x - f g x)) by ring.
          rewrite Rabs_mult, (Hlab x Hx), Rmult_1_l.
          apply Rmult_le_reg_r with margin; [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l, Rmult_1_r by lra. lra.
        * split.
          -- exists (fun _ => 0). split; [left; reflexivity|]. intros. rewrite Rabs_R0. lra.
          -- intros g [<-|Hg]; [left; reflexivity|]. right.
             apply in_map_iff in Hg. destruct Hg as [th [<- Hth]]. exists th. split; [|reflexivity].
             intros i Hi. apply (proj1 (HF i Hi)). exact (product_members F base K th Hth i Hi).
      + simpl length. rewrite map_length, product_length, S_INR.
        assert (HN : (1 <= nprod F K)%nat).
        { clear -HFne. induction K as [|k IH]; simpl; [lia|].
          assert (1 <= length (F k))%nat by (apply HFne; lia).
          assert (1 <= nprod F k)%nat by (apply IH; intros; apply HFne; lia). nia. }
        assert (HNr : 1 <= INR (nprod F K)) by (change 1 with (INR 1); apply le_INR; exact HN).
        assert (Hlog : ln (INR (nprod F K) + 1) <= ln 2 + Sg * / u).
        { apply Rle_trans with (ln 2 + ln (INR (nprod F K))).
          - rewrite <- ln_mult by lra. apply ln_le; lra.
          - apply Rplus_le_compat_l. rewrite ln_nprod by exact HFne.
            unfold Sg. rewrite <- rsum_mult_r. apply rsum_le. intros i Hi.
            destruct (Hcov u i Hu Hu1 Hi) as [_ HlnC].
            apply Rle_trans with (ln (INR (length (C u i)))).
            + assert (1 <= length (F i))%nat by (apply HFne; exact Hi).
              assert (length (F i) <= length (C u i))%nat by apply (HF i Hi).
              apply ln_le; [apply lt_0_INR; lia | apply le_INR; lia].
            + eapply Rle_trans; [exact HlnC|]. apply Rmult_le_compat_l; [apply HB|].
              apply entropy_power_bound; try lra; apply Hq. }
        unfold h. eapply Rle_trans; [apply sqrt_le_1_alt; exact Hlog|].
        eapply Rle_trans; [apply sqrt_plus_le; [lra | apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra]]|].
        rewrite sqrt_mult_alt by lra. rewrite sqrt_inv. lra. }
  assert (Hint : RInt h a 1 = sqrt (ln 2) * (1 - a) + sqrt Sg * (2 - 2 * sqrt a)).
  { apply is_RInt_unique. unfold h.
    assert (H1 : is_RInt (fun _ => sqrt (ln 2)) a 1 (sqrt (ln 2) * (1 - a))).
    { replace (sqrt (ln 2) * (1 - a)) with (scal (1 - a) (sqrt (ln 2))).
      - exact (@is_RInt_const R_NormedModule a 1 (sqrt (ln 2))).
      - unfold scal; simpl; unfold mult; simpl; ring. }
    assert (H2 : is_RInt (fun u => sqrt Sg * / sqrt u) a 1 (sqrt Sg * (2 - 2 * sqrt a))).
    { apply (is_RInt_scal (fun u => / sqrt u) a 1 (sqrt Sg) (2 - 2 * sqrt a)).
      apply dudley_integral_is_RInt; assumption. }
    exact (is_RInt_plus _ _ _ _ _ _ H1 H2). }
  assert (Hsa : 0 <= sqrt a) by apply sqrt_pos.
  assert (Hsl : 0 <= sqrt (ln 2)) by apply sqrt_pos.
  assert (HsS : 0 <= sqrt Sg) by apply sqrt_pos.
  assert (Hrad2 : Rad <= (4 + 12 * sqrt (ln 2) + 24 * sqrt Sg) / sqrt n).
  { eapply Rle_trans; [exact Hrad|]. rewrite Hint.
    assert (Hsa1 : sqrt Sg * (2 - 2 * sqrt a) <= 2 * sqrt Sg) by nra.
    assert (Hla : sqrt (ln 2) * (1 - a) <= sqrt (ln 2)) by nra.
    unfold Rdiv. change (/ sqrt n) with a. nra. }
  fold Sg. unfold Rdiv in *. nra.
Qed.

(* node union_bound: at the confidence delta = delta0 W / |P_m^K| of one point of the grid and of the
   peeling shells (W the product of its peeling weights), the confidence term of GAP_TERM *)
Corollary theorem_3_1_posthoc (B q : nat -> R) (base : nat -> Mat) (C : R -> nat -> list Mat)
  (delta0 W : R) (m : nat) :
  (0 < K)%nat -> 1 <= n -> 0 < margin -> (forall i, 0 < c i) ->
  (forall i x y, dm i x y = dm i y x) -> (forall i x y z, dm i x z <= dm i x y + dm i y z) ->
  (forall x, In x sample -> Rabs (label x) = 1) ->
  (forall th th' x, (forall i, (i < K)%nat -> th i = th' i) -> f th x = f th' x) ->
  (forall th th' i x, in_class th -> in_class th' -> (i < K)%nat ->
     (forall j, j <> i -> th j = th' j) -> Rabs (f th x - f th' x) <= c i * dm i (th i) (th' i)) ->
  in_class base ->
  (forall i, 0 <= B i) -> (forall i, 0 <= q i <= 1) ->
  (forall u i, 0 < u -> u <= 1 -> (i < K)%nat ->
     (forall a, A i a -> exists l, In l (C u i) /\ dm i a l <= margin * u / (2 * (INR K * c i))) /\
     ln (INR (length (C u i))) <= B i * Rpower u (- q i)) ->
  0 < delta0 -> 0 < W -> delta = delta0 * W / (2 * INR m + 1) ^ K ->
  Risk <= EmpRamp + (8 + 24 * sqrt (ln 2) + 48 * sqrt (rsum B K)) / sqrt n
          + 3 * sqrt ((ln (2 / delta0) + INR K * ln (2 * INR m + 1) + ln (/ W)) / (2 * n)).
Proof.
  intros HK Hn Hm Hc Hsym Htri Hlab Honly Hlip Hbase HB Hq Hcov Hd0 HW Hdelta.
  rewrite <- grid_count, <- confidence_split, <- Hdelta; try assumption.
  - eapply theorem_3_1; eassumption.
  - apply pow_lt. assert (0 <= INR m) by apply pos_INR. lra.
Qed.

(* node margin_union: the bound at the dyadic margin 2^-k with the union's weight 2 / (3 (k+1) (k+2)) in
   the confidence: P + ln(3/2 (k+1) (k+2)) in place of P. With k = ceil(log2(1/g)) for a margin g measured
   after training (dyadic_margin_bracket) the empirical ramp risk at 2^-k is at most the one at g
   (ramp_margin_monotone, pointwise), and the weights over k spend at most 2/3 of delta0
   (margin_weights_total). *)
Corollary theorem_3_1_margin_union (B q : nat -> R) (base : nat -> Mat) (C : R -> nat -> list Mat)
  (delta0 W : R) (m k : nat) :
  (0 < K)%nat -> 1 <= n -> 0 < margin -> (forall i, 0 < c i) ->
  (forall i x y, dm i x y = dm i y x) -> (forall i x y z, dm i x z <= dm i x y + dm i y z) ->
  (forall x, In x sample -> Rabs (label x) = 1) ->
  (forall th th' x, (forall i, (i < K)%nat -> th i = th' i) -> f th x = f th' x) ->
  (forall th th' i x, in_class th -> in_class th' -> (i < K)%nat ->
     (forall j, j <> i -> th j = th' j) -> Rabs (f th x - f th' x) <= c i * dm i (th i) (th' i)) ->
  in_class base ->
  (forall i, 0 <= B i) -> (forall i, 0 <= q i <= 1) ->
  (forall u i, 0 < u -> u <= 1 -> (i < K)%nat ->
     (forall a, A i a -> exists l, In l (C u i) /\ dm i a l <= margin * u / (2 * (INR K * c i))) /\
     ln (INR (length (C u i))) <= B i * Rpower u (- q i)) ->
  margin = Rpower 2 (- INR k) ->
  0 < delta0 -> 0 < W ->
  delta = delta0 * (W * (2 / (3 * ((INR k + 1) * (INR k + 2))))) / (2 * INR m + 1) ^ K ->
  Risk <= EmpRamp + (8 + 24 * sqrt (ln 2) + 48 * sqrt (rsum B K)) / sqrt n
          + 3 * sqrt ((ln (2 / delta0) + INR K * ln (2 * INR m + 1) + ln (/ W)
                       + ln (3 / 2 * ((INR k + 1) * (INR k + 2)))) / (2 * n)).
Proof.
  intros HK Hn Hm Hc Hsym Htri Hlab Honly Hlip Hbase HB Hq Hcov _ Hd0 HW Hdelta.
  assert (Hk : 0 < (INR k + 1) * (INR k + 2)) by (pose proof (pos_INR k); nra).
  assert (Hw : 0 < 2 / (3 * ((INR k + 1) * (INR k + 2)))) by (apply Rdiv_lt_0_compat; lra).
  assert (E : ln (/ (W * (2 / (3 * ((INR k + 1) * (INR k + 2))))))
              = ln (/ W) + ln (3 / 2 * ((INR k + 1) * (INR k + 2)))).
  assert (HWi : 0 < / W) by (apply Rinv_0_lt_compat; exact HW).
  { rewrite <- ln_mult by lra. f_equal. pose proof (pos_INR k). field. repeat split; lra. }
  rewrite (Rplus_assoc (ln (2 / delta0) + INR K * ln (2 * INR m + 1))), <- E.
  apply (theorem_3_1_posthoc B q base C delta0 _ m); try assumption.
  apply Rmult_lt_0_compat; assumption.
Qed.

End Theorem_3_1.

(* Every node's lemma at once: Print Assumptions lists what any of them rests on. *)
Definition blueprint_nodes :=
  (eps_allocation, peeling_weights_partial_sum, peeling_weights_sum_to_1, entropy_power_bound,
   entropy_exponent_le_1, confidence_split, grid_count, ramp_lipschitz, @proper_cover,
   dudley_integral_closed_form, product_covers, ln_nprod, telescoping, head_tail_cover,
   theorem_3_1_posthoc, margin_weights_partial_sum, margin_weights_total, ramp_margin_monotone,
   dyadic_margin_bracket, theorem_3_1_margin_union).
Print Assumptions blueprint_nodes.
