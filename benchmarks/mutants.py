"""The mutation table of benchmarks/mutation.py: realistic one-line mistakes in the code that decides
"proved", a printed number or a verdict, each with the fast test files that should notice it.

A mutant replaces ``old`` by ``new`` in ``path`` (``old`` must stand there exactly once). Its test files are
its own ``tests``, else those COVERING lists for its module (the longest matching path prefix), so a run
stays within the tests of the code it touches. AREAS groups the mutants for the kill rates (kernel:
theory/prover/kernel; derive; certify; coq: the Coq exporter; verdicts: the claims' conditions and the
numbers they read).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    """One realistic mistake: replace ``old`` by ``new`` in ``path``; ``tests`` are the fast test files
    (or doctest modules) that should notice it; ``claims`` the claim ids whose check output is compared
    with the pins when the tests do not."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    area: str = ""

    @property
    def where(self) -> str:
        """The area the mutant is counted in: ``area``, else the first of AREAS whose prefix its path has."""
        return self.area or next((a for prefix, a in AREAS if self.path.startswith(prefix)), "other")

    @property
    def test_files(self) -> tuple[str, ...]:
        """``tests``, else the fast test files of COVERING for the mutant's module (its longest prefix)."""
        if self.tests:
            return self.tests
        prefixes = [prefix for prefix in COVERING if self.path.startswith(prefix)]
        if not prefixes:
            raise LookupError(f"{self.name}: no test files cover {self.path}; name them in COVERING")
        return COVERING[max(prefixes, key=len)]


NUMERIC = "tests/unit/paper_checks/test_claims_numeric.py"
PROXIES = "tests/unit/numerics/test_proxies.py"
SYMBOLIC = "tests/unit/paper_checks/test_claims_symbolic.py"
LEMMAS = "tests/unit/theory/test_theory_lemma.py"
ASSEMBLED = "tests/unit/theory/test_theory_assembled.py"
HELPERS = "tests/unit/theory/test_decision_helpers.py"
REGISTRY = "tests/unit/theory/test_theory_registry.py"
FLOAT_BOUNDS = "tests/unit/numerics/test_certify_float_bounds.py"
APRIORI = "tests/unit/numerics/test_certify_apriori.py"
ENCLOSURE = "tests/unit/numerics/test_certify_enclosure.py"
THIN = "tests/unit/numerics/test_certify_thin.py"
KERNEL = "tests/unit/theory/prover/test_prover_kernel.py"
KERNEL_STEPS = "tests/unit/theory/prover/test_prover_kernel_steps.py"
SUBSTITUTION = "tests/unit/theory/prover/test_prover_chain_substitution.py"

EARLIER: tuple[Mutant, ...] = (
    Mutant(
        "claim12-weight-term-removed",
        "theory/assembled.py",
        "48 * sp.sqrt(lam * Sigma)",
        "0 * sp.sqrt(lam * Sigma)",
        (NUMERIC,),
        ("12a", "12b"),
    ),
    Mutant(
        "claim11-error-bar-threshold-0",
        "paper_checks/claims/c11_proxy_growth.py",
        "    z: float = 2.0,\n    shares: Sequence[CeilingShare] = (),",
        "    z: float = 0.0,\n    shares: Sequence[CeilingShare] = (),",
        (NUMERIC,),
        ("11",),
    ),
    Mutant(
        "gelu-constant-1.2",
        "theory/proxy.py",
        "L_PHI_VALUE = sp.Rational(113, 100)",
        "L_PHI_VALUE = sp.Rational(120, 100)",
        (NUMERIC,),
        ("7",),
    ),
    Mutant(
        "alpha-layer-off-by-one",
        "numerics/bounds/composition.py",
        "for later in reversed(range(layer + 1, model.num_layers))",
        "for later in reversed(range(layer, model.num_layers))",
        (PROXIES,),
        ("10", "11"),
    ),
    Mutant(
        "sympy-equal-always-true",
        "theory/_sympy_tools.py",
        '    return False, f"difference {witness}; ratio {ratio}"',
        '    return True, f"difference {witness}; ratio {ratio}"',
        (LEMMAS, SYMBOLIC, HELPERS, REGISTRY),
        ("1", "2", "3", "4a", "4b", "4c"),
    ),
    Mutant(
        "all-of-as-any",
        "theory/_sympy_tools.py",
        "verdict = all(decision[0] for _, decision in parts)",
        "verdict = any(decision[0] for _, decision in parts)",
        (LEMMAS, SYMBOLIC, HELPERS, REGISTRY),
        ("1", "2", "3", "4a", "4b", "4c"),
    ),
    Mutant(
        "gamma-qk-factor-2-dropped",
        "theory/proxy.py",
        '        "gamma_QK",\n        2 * C_V * C_out * C_in,',
        '        "gamma_QK",\n        C_V * C_out * C_in,',
        (PROXIES,),
        ("10",),
    ),
    Mutant(
        "head-lipschitz-4-to-2",
        "theory/proxy.py",
        "C_V * (1 + 4 * C_QK),",
        "C_V * (1 + 2 * C_QK),",
        (PROXIES,),
        ("11",),
    ),
    Mutant(
        "summand-width-exponent",
        "theory/proxy.py",
        "N ** ((p + 1) / (p + 2))",
        "N ** (p / (p + 2))",
        (PROXIES,),
        ("1", "10"),
    ),
    Mutant(
        "grid-m-plus-one",
        "theory/proxy.py",
        "sp.ceiling(L + sp.log(N)),",
        "sp.ceiling(L + sp.log(N)) + 1,",
        (PROXIES,),
        ("6",),
    ),
    Mutant(
        "rank-tolerance-1e-6",
        "numerics/spectra/spectrum.py",
        "RANK_TOLERANCE = 1e-10",
        "RANK_TOLERANCE = 1e-6",
        ("tests/unit/numerics/test_spectrum.py",),
        ("10",),
    ),
    Mutant(
        "peel-cost-weight-3",
        "theory/assembled.py",
        "sp.log(sp.Rational(3, 2) * (sp.Abs(j) + 1) * (sp.Abs(j) + 2)),",
        "sp.log(sp.Rational(3, 1) * (sp.Abs(j) + 1) * (sp.Abs(j) + 2)),",
        (PROXIES,),
        ("5b", "5c", "12a"),
    ),
    Mutant(
        "matrix-term-rounding-3N-dropped",
        "theory/assembled.py",
        "(balanced + rounding, True)",
        "(balanced, True)",
        (PROXIES, ASSEMBLED),
        ("5b", "5c", "12a"),
    ),
    Mutant(
        "spectral-shells-2-per-octave",
        "theory/assembled.py",
        "SPECTRAL_SHELLS_PER_OCTAVE_PER_LAYER = 4",
        "SPECTRAL_SHELLS_PER_OCTAVE_PER_LAYER = 2",
        (PROXIES, ASSEMBLED),
        ("12a",),
    ),
    Mutant(
        "hoeffding-width-10x-narrower",
        "numerics/synthetic/gap.py",
        "return sqrt(log(2 * estimates / delta) / (2 * m))",
        "return sqrt(log(2 * estimates / delta) / (200 * m))",
        ("numerics/synthetic/gap.py", NUMERIC),
        ("12a",),
    ),
    Mutant(
        "rounding-factor-exponent-1-over-4m",
        "theory/posthoc.py",
        "** (1 / (2 * m)),",
        "** (1 / (4 * m)),",
        (NUMERIC,),
        ("6",),
    ),
    Mutant(
        "claim6-synthetic-spectra-dropped",
        "paper_checks/claims/c06_grid_rounding.py",
        "check([*cases_from_reports(context), *synthetic_cases()])",
        "check([*cases_from_reports(context)])",
        (NUMERIC,),
        ("6",),
    ),
    Mutant(
        "claim7-stated-bound-ignored",
        "paper_checks/claims/c07_lipschitz.py",
        "as_stated = bool(constant <= STATED_GELU_BOUND)",
        "as_stated = True",
        (NUMERIC,),
        ("7",),
    ),
    Mutant(
        "claim5c-pareto-pruning-reversed",
        "paper_checks/claims/_joint_p.py",
        "if not front or item[1] < front[-1][1]:",
        "if not front or item[1] > front[-1][1]:",
        (NUMERIC,),
        ("5c",),
    ),
    Mutant(
        "claim5c-tolerance-huge",
        "paper_checks/claims/c05c_joint_p_assembled.py",
        "TOLERANCE = 1e-12",
        "TOLERANCE = 1e30",
        (NUMERIC,),
        ("5c",),
    ),
    Mutant(
        "claim10-tail-floor-0.9",
        "paper_checks/claims/c10_real_spectra.py",
        "tail_share_floor: float = 0.5,",
        "tail_share_floor: float = 0.9,",
        (NUMERIC,),
        ("10",),
    ),
    Mutant(
        "claim10-rank-at-most-dh-strict",
        "paper_checks/claims/c10_real_spectra.py",
        "if r.spectrum.rank > head_dim]",
        "if r.spectrum.rank >= head_dim]",
        (NUMERIC,),
        ("10",),
    ),
    Mutant(
        "claim12a-vacuity-ceiling-ignored",
        "paper_checks/claims/c12_bound_dominates_gap.py",
        "ceilings = [1 + r.gap.half_width for r in rows]",
        "ceilings = [float('inf') for r in rows]",
        (NUMERIC,),
        ("12a",),
    ),
    Mutant(
        "claim12b-kendall-p-value-strict",
        "paper_checks/claims/_bound_vs_gap.py",
        "if pairs - 2 * i >= score)",
        "if pairs - 2 * i > score)",
        (NUMERIC,),
        ("12b",),
    ),
    Mutant(
        "claim12b-level-1",
        "paper_checks/claims/c12b_weight_term_orders_gaps.py",
        "LEVEL = 0.05",
        "LEVEL = 1.0",
        (NUMERIC,),
        ("12b",),
    ),
    Mutant(
        "claim12a-nonvacuous-n-off-by-one",
        "paper_checks/claims/_bound_vs_gap.py",
        "            return None\n    while high - low > 1:",
        "            return None\n    while high - low > 2:",
        (NUMERIC,),
        ("12a",),
    ),
    Mutant(
        "claim9-structural-test-skipped",
        "paper_checks/claims/c09_token_length.py",
        "structural = token not in outside_logs.free_symbols",
        "structural = True",
        (SYMBOLIC, NUMERIC),
        ("9",),
    ),
    Mutant(
        "check-exit-status-ignores-refuted",
        "paper_checks/commands/check.py",
        "        return EXIT_REFUTED\n",
        "        return EXIT_ALL_HELD\n",
        ("tests/unit/paper_checks/test_check_exit_status.py",),
    ),
    Mutant(
        "ci-skips-stay-skips",
        "tests/conftest.py",
        "return in_ci(environ) and any(",
        "return False and any(",
        ("tests/unit/project/test_ci_skips.py",),
    ),
    Mutant(
        "edelman-outer-exponent-1",
        "theory/proxy.py",
        "(1 + xi_total) ** sp.Rational(3, 2),",
        "(1 + xi_total) ** sp.Rational(1, 1),",
        (PROXIES,),
        ("11",),
    ),
    Mutant(
        "certify-gamma-halved",
        "numerics/certify/float_bounds.py",
        "return up(nu / (1 - nu))",
        "return up(nu / 2)",
        (FLOAT_BOUNDS,),
    ),
    Mutant(
        "certify-svd-residual-dropped",
        "numerics/certify/fast.py",
        "residual = sum_up(main, product_up(sqrt_up(up(1 + other)), rounding))",
        "residual = sum_up(0.0, product_up(sqrt_up(up(1 + other)), rounding))",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-diagonal-rounding-dropped",
        "numerics/certify/fast.py",
        "residual = sum_up(main, product_up(sqrt_up(up(1 + other)), rounding))",
        "residual = main",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-two-product-error-dropped",
        "numerics/certify/fast.py",
        "correction = (error, right) if diagonal_left else (left, error)",
        "correction = (0 * error, right) if diagonal_left else (left, 0 * error)",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-split-rest-bound-dropped",
        "numerics/certify/float_bounds.py",
        "terms = [product_up(UNIT_ROUNDOFF, first_norm), rest_bound]",
        "terms = [product_up(UNIT_ROUNDOFF, first_norm)]",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-apriori-product-gamma-dropped",
        "numerics/certify/apriori.py",
        "product_up(gamma(roundings), norm_upper(left), norm_upper(right))",
        "product_up(0.0, gamma(roundings), norm_upper(left), norm_upper(right))",
        (APRIORI,),
    ),
    Mutant(
        "certify-apriori-gram-bound-dropped",
        "numerics/certify/apriori.py",
        "return gram, sum_up(product_up(gamma(roundings), squares, squares), product_up(roundings * ETA, k))",
        "return gram, sum_up(0.0, product_up(roundings * ETA, k))",
        (APRIORI,),
    ),
    Mutant(
        "certify-qr-residual-dropped",
        "numerics/certify/fast.py",
        "product_up(e_a, norm_upper(b_scaled)), product_up(sum_up(norm_upper(a_scaled), e_a), e_b)",
        "0.0, 0.0",
        (FLOAT_BOUNDS, THIN),
    ),
    Mutant(
        "certify-orthogonality-defect-dropped",
        "numerics/certify/fast.py",
        "f_u, fu_estimate = bounds.orthogonality(u)",
        "f_u, fu_estimate = arb(0), 0.0",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-outward-one-ulp-inward",
        "numerics/certify/balls.py",
        "    return lo, hi\n",
        "    return lo, math.nextafter(hi, -math.inf)\n",
        ("tests/unit/numerics/test_certify_outward.py",),
    ),
    # the prover kernel's primitives (issue 27, item 8: the realistic mistakes, in the kernel's code)
    Mutant(
        "prover-reciprocal-open-flags-not-swapped",
        "theory/prover/kernel/balls.py",
        "    return Set(lo, hi, a.hi_open, a.lo_open)\n",
        "    return Set(lo, hi, a.lo_open, a.hi_open)\n",
        (KERNEL,),
    ),
    Mutant(
        "prover-hull-open-when-either-is",
        "theory/prover/kernel/balls.py",
        "    return Set(lo, hi, infinite(lo), infinite(hi))\n\n\ndef absolute",
        "    return Set(lo, hi, a.lo_open or b.lo_open, a.hi_open or b.hi_open)\n\n\ndef absolute",
        (KERNEL,),
    ),
    Mutant(
        "prover-maximum-open-at-a-tied-top",
        "theory/prover/kernel/balls.py",
        "(b.hi_open or _above(a.hi, b.hi, True))",
        "(b.hi_open or _above(a.hi, b.hi, False))",
        (KERNEL,),
    ),
    Mutant(
        "prover-product-of-a-zero-open-at-its-top",
        "theory/prover/kernel/balls.py",
        "(x.hi_open or y.hi_open) and not only_zero,",
        "(x.hi_open or y.hi_open),",
        (KERNEL,),
    ),
    Mutant(
        "prover-face-strictness-dropped-without-strict-slope",
        "theory/prover/kernel/verify.py",
        "face_strict = strict and not (strictly and variable.open_at(end, increasing))",
        "face_strict = strict and not variable.open_at(end, increasing)",
        (KERNEL,),
    ),
    Mutant(
        "prover-every-variable-opened-for-strictness",
        "theory/prover/kernel/verify.py",
        "own: Set | None = trees.slope(tree, environment(box, domain, opened=name), closed, name)",
        "own: Set | None = trees.slope(\n"
        "                tree, {n: environment(box, domain, opened=n)[n] for n in box}, closed, name\n"
        "            )",
        (KERNEL,),
    ),
    Mutant(
        "prover-tail-at-minus-infinity-replayed-at-plus-infinity",
        "theory/prover/kernel/verify.py",
        "tail = {**box, name: (lo, start) if increasing else (start, hi)}",
        "tail = {**box, name: (start, hi)}",
        (KERNEL,),
    ),
    Mutant(
        "prover-log-of-a-set-reaching-minus-infinity-enclosed",
        "theory/prover/kernel/trees.py",
        "if balls.infinite(a.lo) or not (bool(a.lo > 0) or (a.lo_open and a.lo.is_zero())):",
        "if not (balls.infinite(a.lo) or bool(a.lo > 0) or (a.lo_open and a.lo.is_zero())):",
        (
            "tests/unit/theory/prover/test_prover_enclosure_rules.py",
            "tests/unit/theory/prover/test_prover_kernel_rules.py",
        ),
    ),
    Mutant(
        "prover-integer-cut-without-its-step",
        "theory/prover/kernel/verify.py",
        "step = 1 if domain[name].integer else 0",
        "step = 0",
        (KERNEL, "tests/unit/theory/prover/test_prover_true_suite.py"),
    ),
    Mutant(
        "prover-chain-factor-of-unknown-sign-accepted",
        "theory/prover/kernel/chain.py",
        'if verify.decide({"method": "enclosure"}, piece.factor, whole, domain, False) is not None:',
        "if False:",
        ("tests/unit/theory/prover/test_prover_chain.py",),
    ),
    Mutant(
        "prover-chain-compound-denominators-cleared-without-check",
        "theory/prover/kernel/exact.py",
        "return form == {} or _canonical(_over_common_denominator(form, numerator=True), positive) == {}",
        "return True",
        ("tests/unit/theory/prover/test_prover_chain.py",),
    ),
    Mutant(
        "prover-chain-open-lower-end-ignored",
        "theory/prover/chain.py",
        "inner.lower == outer.lower and (inner.lower_open or not outer.lower_open)",
        "inner.lower == outer.lower",
        ("tests/unit/theory/prover/test_prover_chain.py", KERNEL),
    ),
    Mutant(
        "prover-normal-form-root-of-a-power-merged",
        "theory/prover/kernel/exact.py",
        "monomial[0][0][1] == 1:",
        "monomial[0][0][1] != 0:",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-normal-form-min-as-max",
        "theory/prover/kernel/exact.py",
        'sign = Fraction(1 if op == "max" else -1)',
        "sign = Fraction(1)",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-rewrite-of-a-gap-undefined-somewhere",
        "theory/prover/kernel/verify.py",
        '    form = decision.get("form")\n    if not defined(tree, box, domain):\n'
        "        return undefined(box)",
        '    form = decision.get("form")\n    if not defined(tree, box, domain):\n        pass  # undefined',
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-rewrite-multiplier-sign-unchecked",
        "theory/prover/kernel/verify.py",
        "        if not (\n            _holds(multiplier, box, domain, True)",
        "        if False and not (\n            _holds(multiplier, box, domain, True)",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-squares-sides-sign-unchecked",
        "theory/prover/kernel/verify.py",
        "    if not (_holds(left, box, domain, False) and _holds(right, box, domain, False)):",
        "    if False:",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-derivative-product-rule-first-factor-only",
        "theory/prover/kernel/derivative.py",
        "*args[i + 1 :]] for i in range(len(args))",
        "*args[i + 1 :]] for i in range(1)",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-slope-step-through-abs",
        "theory/prover/kernel/derivative.py",
        "    if len(args) != 1:\n",
        '    if op == "abs":\n        return derivative(args[0], name)\n    if len(args) != 1:\n',
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-face-at-an-open-end-without-continuity",
        "theory/prover/kernel/verify.py",
        "    if variable.open_at(end, increasing):\n        reason = reaches(",
        "    if False:\n        reason = reaches(",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-unsigned-sign-unchecked",
        "theory/prover/kernel/verify.py",
        "    if _holds(argument, box, domain, False):\n        return 1",
        "    if True:\n        return 1",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-scale-multiplier-sign-unchecked",
        "theory/prover/kernel/verify.py",
        "    if not _holds(multiplier, box, domain, True):\n",
        "    if False:\n",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-log-of-a-factor-not-shown-positive",
        "theory/prover/kernel/logs.py",
        "    if not positive(tree):\n        return None",
        "    if False:\n        return None",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-sum-part-left-undecided",
        "theory/prover/kernel/verify.py",
        '        reason = decide(part.get("then"), part["form"], box, domain, strict, depth + 1)',
        "        reason = None",
        (KERNEL_STEPS,),
    ),
    Mutant(
        "prover-substitution-range-unchecked",
        "theory/prover/kernel/substitution.py",
        "    if not _within(values, target):",
        "    if False:",
        (SUBSTITUTION,),
    ),
    Mutant(
        "prover-substitution-closed-zero-taken-positive",
        "theory/prover/kernel/substitution.py",
        "(values.lo_open and values.lo.is_zero())",
        "values.lo.is_zero()",
        (SUBSTITUTION,),
    ),
)


GUARDED = "tests/unit/numerics/test_guarded_mistakes.py"
EXACT_RANK = "tests/unit/numerics/test_assembled_exact_rank.py"

KERNEL_RULES = "tests/unit/theory/prover/test_prover_kernel_rules.py"
KERNEL_REFERENCE = "tests/unit/theory/prover/test_prover_kernel_references.py"
KERNEL_FILES = (KERNEL_REFERENCE, KERNEL, KERNEL_STEPS, KERNEL_RULES, SUBSTITUTION)
CERTIFY_FILES = (
    "tests/unit/numerics/test_certify_references.py",
    ENCLOSURE,
    FLOAT_BOUNDS,
    THIN,
    "tests/unit/numerics/test_certify_rank.py",
    "tests/unit/numerics/test_certify_assembled.py",
    "tests/unit/numerics/test_certify_interval_eval.py",
)
DERIVE_FILES = (
    "tests/unit/theory/derive/test_derive_references.py",
    "tests/unit/theory/derive/test_derive.py",
    "tests/unit/theory/derive/test_derive_errors.py",
)
COQ_FILES = (
    "tests/unit/theory/prover/test_coq_report.py",
    "tests/unit/theory/prover/test_coq_export.py",
    "tests/unit/paper_checks/test_coq_cli.py",
)
VERDICT_FILES = ("tests/unit/paper_checks/test_verdict_conditions.py", NUMERIC)

COVERING: dict[str, tuple[str, ...]] = {
    "theory/prover/kernel/": KERNEL_FILES,
    "theory/prover/kernel/chain.py": (*KERNEL_FILES, "tests/unit/theory/prover/test_prover_chain.py"),
    "theory/derive/": DERIVE_FILES,
    "theory/prover/coq/": COQ_FILES,
    "numerics/certify/": CERTIFY_FILES,
    "paper_checks/claims/": VERDICT_FILES,
    "paper_checks/claims/c01": ("tests/unit/paper_checks/test_verdict_conditions.py", SYMBOLIC),
    "paper_checks/claims/c03": ("tests/unit/paper_checks/test_verdict_conditions.py", SYMBOLIC),
    "paper_checks/claims/c07": (*VERDICT_FILES, SYMBOLIC),
    "paper_checks/claims/c08": (
        "tests/unit/paper_checks/test_verdict_conditions.py",
        "tests/unit/paper_checks/test_claim8_depth.py",
    ),
    "paper_checks/claims/c09": (*VERDICT_FILES, SYMBOLIC),
    "paper_checks/claims/c10b": (
        "tests/unit/paper_checks/test_verdict_conditions.py",
        "tests/unit/paper_checks/test_adaptivity.py",
    ),
    "paper_checks/claims/c16": (
        "tests/unit/paper_checks/test_verdict_conditions.py",
        "tests/unit/paper_checks/test_claim_ranking.py",
    ),
    "numerics/bounds/posthoc.py": (
        "tests/unit/paper_checks/test_verdict_conditions.py",
        "tests/unit/numerics/test_posthoc.py",
    ),
    "numerics/bounds/assembled.py": ("tests/unit/paper_checks/test_verdict_conditions.py", EXACT_RANK),
    "numerics/bounds/schatten.py": ("tests/unit/paper_checks/test_verdict_conditions.py", EXACT_RANK),
    "numerics/synthetic/gap.py": (
        "tests/unit/paper_checks/test_verdict_conditions.py",
        "tests/unit/numerics/test_synthetic.py",
    ),
}
"""Module path prefix -> the fast test files that cover it (a mutant without ``tests`` runs these)."""

AREAS = (
    ("theory/prover/kernel/", "kernel"),
    ("theory/derive/", "derive"),
    ("theory/prover/coq/", "coq"),
    ("numerics/certify/", "certify"),
    ("paper_checks/claims/", "verdicts"),
    ("theory/prover/", "prover"),
)
"""Path prefix -> area (first match), for the per-area kill rates."""


SMALL_MISTAKES: tuple[Mutant, ...] = (
    Mutant(
        "assembled-p0-tolerance-rank",
        "numerics/bounds/assembled.py",
        "schatten_power_sum(self, spectrum, q, exact=True)",
        "schatten_power_sum(self, spectrum, q)",
        (EXACT_RANK,),
        ("5b", "12a"),
    ),
    Mutant(
        "certified-assembled-p0-tolerance-rank",
        "numerics/certify/assembled.py",
        "return schatten_power_sum(ArbSpectra(), c, p, exact=True)",
        "return schatten_power_sum(ArbSpectra(), c, p)",
        (EXACT_RANK,),
    ),
    Mutant(
        "rotary-kv-group-h-mod-k",
        "numerics/loading/families/llama.py",
        "(h // group) * dh : (h // group + 1) * dh",
        "(h % kv_heads) * dh : (h % kv_heads + 1) * dh",
        (GUARDED,),
    ),
    Mutant(
        "swiglu-reach-column-norm",
        "numerics/bounds/reach.py",
        "np.sum(unit * unit, axis=1)",
        "np.sum(unit * unit, axis=0)",
        (GUARDED,),
    ),
    Mutant(
        "kv-heads-divisibility-unchecked",
        "numerics/loading/weights.py",
        "if k < 1 or h % k:",
        "if k < 1:",
        (GUARDED,),
    ),
    Mutant(
        "certify-remainder-gamma-k-minus-1",
        "numerics/certify/float_bounds.py",
        "            gamma(k),\n",
        "            gamma(k - 1),\n",
        (GUARDED,),
    ),
    Mutant(
        "certify-square-sum-underflow-dropped",
        "numerics/certify/float_bounds.py",
        "high = up(up(computed + n * ETA) / down(1 - g))",
        "high = up(up(computed) / down(1 - g))",
        (GUARDED,),
    ),
    Mutant(
        "certify-sqrt-sum-lower-rounded-up",
        "numerics/certify/float_bounds.py",
        "lower = down(down(float(sums[0]) - float(errors[0])) / grown)",
        "lower = down(down(float(sums[0]) - float(errors[0])) / shrunk)",
        (GUARDED,),
    ),
    Mutant(
        "kendall-touching-intervals-distinguishable",
        "numerics/ranking/statistics.py",
        "kept = np.abs(g[i] - g[j]) > h[i] + h[j]",
        "kept = np.abs(g[i] - g[j]) >= h[i] + h[j]",
        (GUARDED,),
        ("16",),
    ),
    Mutant(
        "bootstrap-level-90",
        "numerics/ranking/statistics.py",
        "DEFAULT_LEVEL = 0.95",
        "DEFAULT_LEVEL = 0.90",
        (GUARDED,),
        ("16",),
    ),
)
"""The small mistakes of issue 29 (item 8) and its exact-rank fix, each with the test that sees it."""

K = "theory/prover/kernel/"
KERNEL_ROUND3: tuple[Mutant, ...] = (
    # balls.py: the set operations
    Mutant(
        "kernel-strict-sign-taken-from-a-closed-zero",
        K + "balls.py",
        "return bool(self.lo > 0) or (self.lo_open and bool(self.lo >= 0))",
        "return bool(self.lo >= 0)",
    ),
    Mutant(
        "kernel-negate-keeps-the-open-flags-in-place",
        K + "balls.py",
        "return Set(-a.hi, -a.lo, a.hi_open, a.lo_open)",
        "return Set(-a.hi, -a.lo, a.lo_open, a.hi_open)",
    ),
    Mutant(
        "kernel-sum-lower-end-from-an-upper-end",
        K + "balls.py",
        "_finite(a.lo + b.lo, -math.inf)",
        "_finite(a.lo + b.hi, -math.inf)",
    ),
    Mutant(
        "kernel-product-of-opposite-signs-not-negated",
        K + "balls.py",
        "return negate(product) if flip_a != flip_b else product",
        "return product",
    ),
    Mutant(
        "kernel-product-straddling-zero-half-the-corners",
        K + "balls.py",
        "lo = _extreme([_finite(p, -math.inf) for p in products], False)",
        "lo = _extreme([_finite(p, -math.inf) for p in products[:2]], False)",
    ),
    Mutant(
        "kernel-reciprocal-of-a-set-reaching-a-closed-zero",
        K + "balls.py",
        "if not (a.at_least_zero(True) and (zero_end or bool(a.lo > 0))):",
        "if not a.at_least_zero(False):",
    ),
    Mutant(
        "kernel-monotone-decreasing-ends-not-swapped",
        K + "balls.py",
        "low_end, high_end = (a.lo, a.hi) if increasing else (a.hi, a.lo)",
        "low_end, high_end = (a.lo, a.hi)",
    ),
    Mutant(
        "kernel-floor-image-keeps-an-open-end",
        K + "balls.py",
        "low_open = (low_open or infinite(low_end)) and strictly",
        "low_open = low_open or infinite(low_end)",
    ),
    Mutant(
        "kernel-abs-of-a-straddling-set-upper-end-only",
        K + "balls.py",
        "return Set(arb(0), _extreme([negate(a).hi, a.hi], True), False, False)",
        "return Set(arb(0), a.hi, False, False)",
    ),
    Mutant(
        "kernel-even-power-without-abs",
        K + "balls.py",
        "return monotone(absolute(a), lambda x: x**n, (math.inf, math.inf))",
        "return monotone(a, lambda x: x**n, (-math.inf, math.inf))",
    ),
    Mutant(
        "kernel-max-upper-end-the-smaller",
        K + "balls.py",
        "lo, hi = _extreme([a.lo, b.lo], True), _extreme([a.hi, b.hi], True)",
        "lo, hi = _extreme([a.lo, b.lo], True), _extreme([a.hi, b.hi], False)",
    ),
    Mutant(
        "kernel-min-as-max",
        K + "balls.py",
        "return negate(maximum(negate(a), negate(b)))",
        "return maximum(a, b)",
    ),
    # trees.py: the enclosure of each operation
    Mutant(
        "kernel-log-of-a-closed-zero",
        K + "trees.py",
        "if balls.infinite(a.lo) or not (bool(a.lo > 0) or (a.lo_open and a.lo.is_zero())):",
        "if balls.infinite(a.lo) or not bool(a.lo >= 0):",
    ),
    Mutant(
        "kernel-power-of-a-base-reaching-zero-taken-positive",
        K + "trees.py",
        "return balls.hull(balls.ZERO, _exp(balls.multiply(exponent, _log(rest))))",
        "return _exp(balls.multiply(exponent, _log(rest)))",
    ),
    Mutant(
        "kernel-constant-exponent-interval-lower-end-only",
        K + "trees.py",
        "images = [_power_image(a, t) for t in ((c.lo,) if _is_point(c) else (c.lo, c.hi))]",
        "images = [_power_image(a, t) for t in (c.lo,)]",
    ),
    Mutant(
        "kernel-piecewise-exponent-taken-constant",
        K + "trees.py",
        "    return all(_is_constant(arg) for arg in children(tree))",
        '    return tree[0] == "piecewise" or all(_is_constant(arg) for arg in children(tree))',
    ),
    Mutant(
        "kernel-ceiling-above-a-closed-integer-end",
        K + "trees.py",
        "if not balls.infinite(a.lo) and a.lo_open and a.lo.is_exact() and a.lo.is_integer():",
        "if not balls.infinite(a.lo) and a.lo.is_exact() and a.lo.is_integer():",
    ),
    Mutant(
        "kernel-erfc-taken-increasing",
        K + "trees.py",
        "(arb(2), arb(0)), increasing=False)",
        "(arb(2), arb(0)), increasing=True)",
    ),
    Mutant(
        "kernel-atan-limit-at-minus-infinity-pi-over-4",
        K + "trees.py",
        "lambda x: x.atan(), (-arb.pi() / 2, arb.pi() / 2)",
        "lambda x: x.atan(), (-arb.pi() / 4, arb.pi() / 2)",
    ),
    Mutant(
        "kernel-tanh-limit-at-minus-infinity-0",
        K + "trees.py",
        "lambda x: x.tanh(), (arb(-1), arb(1))",
        "lambda x: x.tanh(), (arb(0), arb(1))",
    ),
    Mutant(
        "kernel-strict-condition-decided-as-non-strict",
        K + "trees.py",
        'if difference.at_most_zero(op == "lt"):',
        "if difference.at_most_zero(False):",
    ),
    Mutant(
        "kernel-undetermined-branch-dropped",
        K + "trees.py",
        "        if holds is not False:\n            candidates.append(pair[0])",
        "        if holds is True:\n            candidates.append(pair[0])",
    ),
    Mutant(
        "kernel-max-slope-winner-by-overlap",
        K + "trees.py",
        'first_wins = bool(best.lo >= other.hi) if op == "max" else bool(best.hi <= other.lo)',
        'first_wins = bool(best.hi >= other.lo) if op == "max" else bool(best.hi <= other.lo)',
    ),
    Mutant(
        "kernel-abs-slope-of-a-straddling-argument-unsigned",
        K + "trees.py",
        "return value, _scale(Set(arb(-1), arb(1)), tangent)",
        "return value, tangent",
    ),
    Mutant(
        "kernel-log-slope-factor-u-for-1-over-u",
        K + "trees.py",
        "        return balls.reciprocal(inner)\n    if op in",
        "        return inner\n    if op in",
    ),
    Mutant(
        "kernel-erfc-slope-sign-of-erf",
        K + "trees.py",
        'return density if op == "erf" else balls.negate(density)',
        "return density",
    ),
    Mutant(
        "kernel-tanh-slope-from-the-argument",
        K + "trees.py",
        "balls.negate(balls.power_integer(value, 2)))",
        "balls.negate(balls.power_integer(inner, 2)))",
    ),
    Mutant(
        "kernel-integer-power-slope-exponent-not-lowered",
        K + "trees.py",
        "balls.power_integer(base, n - 1)), base_tangent)",
        "balls.power_integer(base, n)), base_tangent)",
    ),
    Mutant(
        "kernel-piecewise-taken-continuous",
        K + "trees.py",
        'if tree[0] in ("floor", "ceiling", "piecewise"):',
        'if tree[0] in ("floor", "ceiling"):',
    ),
    Mutant(
        "kernel-piecewise-slope-with-two-live-branches",
        K + "trees.py",
        "if len(candidates) > 1 and any(mentions(pair[1], name) for pair in tree[1:]):",
        "if len(candidates) > 2 and any(mentions(pair[1], name) for pair in tree[1:]):",
    ),
    # verify.py: the steps
    Mutant(
        "kernel-every-end-opened",
        K + "verify.py",
        "ranged and (name == opened or variable.open_at(lo, True)),",
        "ranged,",
    ),
    Mutant(
        "kernel-enclosure-strictness-dropped",
        K + "verify.py",
        "                if trees.enclose(tree, env).at_least_zero(strict):",
        "                if trees.enclose(tree, env).at_least_zero(False):",
    ),
    Mutant(
        "kernel-monotone-direction-named-not-compared",
        K + "verify.py",
        "    if found[0] != direction:\n",
        "    if not found[0]:\n",
    ),
    Mutant(
        "kernel-monotone-face-at-the-wrong-end",
        K + "verify.py",
        "end = lo if increasing else hi",
        "end = hi if increasing else lo",
    ),
    Mutant(
        "kernel-strict-tail-checked-non-strictly",
        K + "verify.py",
        "return _tail(decision, tree, box, domain, increasing, strict and not strictly, depth)",
        "return _tail(decision, tree, box, domain, increasing, False, depth)",
    ),
    Mutant(
        "kernel-strict-slope-from-a-non-strict-sign",
        K + "verify.py",
        "own.at_least_zero(True) if increasing else own.at_most_zero(True)",
        "own.at_least_zero(False) if increasing else own.at_most_zero(False)",
    ),
    Mutant(
        "kernel-slope-signs-swapped",
        K + "verify.py",
        '(("increasing", inner.at_least_zero), ("decreasing", inner.at_most_zero))',
        '(("increasing", inner.at_most_zero), ("decreasing", inner.at_least_zero))',
    ),
    Mutant(
        "kernel-open-face-of-a-jump-taken-as-a-limit",
        K + "verify.py",
        "if not trees.continuous(tree, [name]) or not defined(tree, box, {**domain, name: closed}):",
        "if not defined(tree, box, {**domain, name: closed}):",
    ),
    Mutant(
        "kernel-derived-slope-negated-for-increasing",
        K + "verify.py",
        '    if direction == "decreasing":\n        slope_tree = ["mul", ["num", "-1"], slope_tree]',
        '    if direction == "increasing":\n        slope_tree = ["mul", ["num", "-1"], slope_tree]',
    ),
    Mutant(
        "kernel-cover-box-shorter-than-its-region",
        K + "verify.py",
        "            if members[0] != region:",
        "            if any(members[0][n][0] != region[n][0] for n in region):",
    ),
    Mutant(
        "kernel-cover-unchecked",
        K + "verify.py",
        "    gap = covers([box for box, _ in entries], domain)\n",
        "    gap = None\n",
    ),
    Mutant(
        "kernel-squares-of-b-not-squared",
        K + "verify.py",
        'squares = ["add", ["mul", left, left], ["mul", ["num", "-1"], right, right]]',
        'squares = ["add", ["mul", left, left], ["mul", ["num", "-1"], right]]',
    ),
    Mutant(
        "kernel-rewrite-multiplier-may-vanish",
        K + "verify.py",
        'or _holds(["mul", ["num", "-1"], multiplier], box, domain, True)',
        'or _holds(["mul", ["num", "-1"], multiplier], box, domain, False)',
    ),
    Mutant(
        "kernel-abs-of-an-unsigned-argument-negated",
        K + "verify.py",
        'return -1 if _holds(["mul", ["num", "-1"], argument], box, domain, False) else None',
        "return -1",
    ),
    Mutant(
        "kernel-log-step-log-of-a-power-times-its-base",
        K + "logs.py",
        'return None if inner is None else ["mul", tree[2], inner]',
        'return None if inner is None else ["mul", tree[1], inner]',
    ),
    # exact.py: the normal form
    Mutant(
        "kernel-min-positive-when-one-argument-is",
        K + "exact.py",
        'if op in ("add", "mul", "min"):\n        return all(positive_tree(arg, positive) for arg in args)\n'
        '    if op == "max":',
        'if op in ("add", "mul"):\n        return all(positive_tree(arg, positive) for arg in args)\n'
        '    if op in ("max", "min"):',
    ),
    Mutant(
        "kernel-floor-positive-by-syntax",
        K + "exact.py",
        'if op in ("pow", "ceiling"):  #',
        'if op in ("pow", "ceiling", "floor"):  #',
    ),
    Mutant(
        "kernel-zero-taken-positive-by-syntax",
        K + "exact.py",
        "return Fraction(args[0]) > 0",
        "return Fraction(args[0]) >= 0",
    ),
    Mutant(
        "kernel-negative-monomial-distributed",
        K + "exact.py",
        "return coefficient > 0 and all(positive_tree(",
        "return coefficient != 0 and all(positive_tree(",
    ),
    Mutant("kernel-max-normal-form-not-halved", K + "exact.py", "m: c / 2", "m: c"),
    Mutant(
        "kernel-base-of-unknown-sign-split",
        K + "exact.py",
        "kept = tuple((atom, e) for atom, e in monomial[0] if not positive_tree(json.loads(atom), positive))",
        "kept: tuple[tuple[str, Fraction], ...] = ()",
    ),
    # substitution.py and chain.py
    Mutant(
        "kernel-substituted-value-touching-an-open-end",
        K + "substitution.py",
        "return bool(end == edge) and (end_open or not bound_open)",
        "return bool(end == edge)",
    ),
    Mutant(
        "kernel-fractional-part-taken-positive",
        K + "substitution.py",
        "return Set(ball(Fraction(0)), ball(Fraction(1)), False, True)",
        "return Set(ball(Fraction(0)), ball(Fraction(1)), True, True)",
    ),
    Mutant(
        "kernel-integer-target-takes-any-variable",
        K + "substitution.py",
        'if target.integer and not (value[0] == "var" and domain[value[1]].integer):',
        'if target.integer and not value[0] == "var":',
    ),
    Mutant(
        "kernel-substitution-multiplier-strictness-dropped",
        K + "substitution.py",
        'verify.decide({"method": "enclosure"}, multiplier, box, domain, strict)',
        'verify.decide({"method": "enclosure"}, multiplier, box, domain, False)',
    ),
    Mutant(
        "kernel-substitution-cover-unchecked",
        K + "substitution.py",
        "    gap = verify.covers([inner for inner, _ in entries], target)\n",
        "    gap = None\n",
    ),
    Mutant(
        "kernel-closed-zero-end-taken-positive",
        K + "substitution.py",
        "(bool(values.lo > 0) or (values.lo_open and values.lo.is_zero()))",
        "bool(values.lo >= 0)",
    ),
    Mutant(
        "kernel-chain-gap-definedness-unchecked",
        K + "chain.py",
        "    if not verify.defined(gap, whole, domain):\n",
        "    if False:\n",
    ),
    Mutant(
        "kernel-chain-piece-rejection-ignored",
        K + "chain.py",
        "        if not verdict.accepted:\n",
        "        if verdict is None:\n",
    ),
)

D = "theory/derive/"
DERIVE_ROUND3: tuple[Mutant, ...] = (
    Mutant(
        "derive-half-line-final-kernel-check-skipped",
        D + "half_line.py",
        "return certificate if check_certificate(certificate).accepted else None",
        "return certificate",
    ),
    Mutant(
        "derive-undecided-outranks-refuted",
        D + "decide.py",
        "for word in (REFUTED, UNDECIDED, DERIVED):",
        "for word in (UNDECIDED, REFUTED, DERIVED):",
    ),
    Mutant(
        "derive-undecided-exits-0",
        D + "decide.py",
        "{PROVED: 0, DERIVED: 0, REFUTED: 1, UNDECIDED: 3}",
        "{PROVED: 0, DERIVED: 0, REFUTED: 1, UNDECIDED: 0}",
    ),
    Mutant(
        "derive-proved-under-an-unproved-fact",
        D + "decide.py",
        "    elif status == PROVED and unproved:",
        "    elif False and unproved:",
    ),
    Mutant(
        "derive-fact-domain-not-compared",
        D + "decide.py",
        'if found.unproved == "" and "certificate" in found.record and not _applies(found, domain):',
        'if found.unproved == "" and "certificate" in found.record and False:',
    ),
    Mutant(
        "derive-strict-assumptions-make-the-step-strict",
        D + "check.py",
        "strict = strict or not all(s for _, s in assumptions)",
        "strict = strict and not all(s for _, s in assumptions)",
    ),
    Mutant(
        "derive-chain-of-non-strict-steps-composed-strict",
        D + "check.py",
        'return direction if any(r in ("<", ">") for r in inequalities) else direction + "="',
        'return direction if any(r in ("<", ">", "<=", ">=") for r in inequalities) else direction + "="',
    ),
    Mutant(
        "derive-lower-bound-cut-as-an-upper-one",
        D + "check.py",
        '    if relation.startswith(">"):\n        tighter',
        '    if relation.startswith("<"):\n        tighter',
    ),
    Mutant(
        "derive-covers-by-names-only",
        D + "check.py",
        "name in inner.names and range_holds(sp.Symbol(name), outer[name], inner) for name in outer.names",
        "name in inner.names for name in outer.names",
    ),
    Mutant(
        "derive-certificate-strictness-not-compared",
        D + "check.py",
        'if certificate["gap"] != stated.gap_tree() or certificate["strict"] != strict:',
        'if certificate["gap"] != stated.gap_tree():',
    ),
    Mutant(
        "derive-certificate-domain-not-compared",
        D + "check.py",
        '    if certificate["domain"] != domain_data(domain):\n',
        "    if False:\n",
    ),
    Mutant(
        "derive-strict-step-by-a-non-strict-fact",
        D + "check.py",
        "    if strict and not strict_fact:\n",
        "    if False:\n",
    ),
    Mutant(
        "derive-crossover-sign-from-a-closed-zero",
        D + "crossover.py",
        "    if ball.at_most_zero(True):\n        return -1",
        "    if ball.at_most_zero(False):\n        return -1",
    ),
)

C = "numerics/certify/"
CERTIFY_ROUND3: tuple[Mutant, ...] = (
    Mutant(
        "certify-shell-checked-at-its-midpoint",
        C + "assembled.py",
        "while not (rounded := interval_evaluate(shell, j=j, **extra)) >= value:",
        "while not (rounded := interval_evaluate(shell, j=j, **extra)) >= value.mid():",
    ),
    Mutant(
        "certify-ball-touching-zero-taken-as-pruned",
        C + "assembled.py",
        "        if not value.upper() > 0:\n",
        "        if not value.lower() > 0:\n",
    ),
    Mutant(
        "certify-post-hoc-ties-to-the-largest-p",
        C + "assembled.py",
        "return min(options, key=lambda o: (o[2].upper(), o[0])), candidates",
        "return min(options, key=lambda o: (o[2].upper(), -o[0])), candidates",
    ),
    Mutant(
        "certify-post-hoc-candidates-by-upper-ends",
        C + "assembled.py",
        "candidates = tuple(q for q, _, t in options if t.lower() <= minimum.upper())",
        "candidates = tuple(q for q, _, t in options if t.upper() <= minimum.upper())",
    ),
    Mutant(
        "certify-readout-p0-term-0",
        C + "assembled.py",
        'return arb(1) if p == 0 else c.spectral_norm ** to_ball(p, "p")',
        'return arb(0) if p == 0 else c.spectral_norm ** to_ball(p, "p")',
    ),
    Mutant(
        "certify-exact-rank-drops-tiny-singular-values",
        C + "rank.py",
        "int(np.count_nonzero(enclosure.upper > 0))",
        "int(np.count_nonzero(enclosure.upper > 1e-12))",
    ),
    Mutant(
        "certify-numerical-rank-upper-count-certain-only",
        C + "rank.py",
        "int(np.count_nonzero(enclosure.upper > low))",
        "int(np.count_nonzero(enclosure.upper > high))",
    ),
    Mutant(
        "certify-lower-end-without-the-residual",
        C + "enclosure.py",
        "low = down_array(down_array(np.asarray(lower, dtype=np.float64) * shrink) - residual)",
        "low = down_array(np.asarray(lower, dtype=np.float64) * shrink)",
    ),
    Mutant(
        "certify-upper-end-shrunk-not-grown",
        C + "enclosure.py",
        "product_up_array(np.asarray(upper, dtype=np.float64), grow)",
        "product_up_array(np.asarray(upper, dtype=np.float64), shrink)",
    ),
    Mutant(
        "certify-zero-factor-stepped",
        C + "directed.py",
        "return 0.0 if _has_zero(factors) else _stepped_product(factors, up)",
        "return _stepped_product(factors, up)",
        tests=("tests/unit/numerics/test_certify_zero_rules.py",),
    ),
    Mutant(
        "certify-right-factor-defect-from-the-left",
        C + "enclosure.py",
        "f_u, f_v = orthogonality_defect(left), orthogonality_defect(right.transpose())",
        "f_u, f_v = orthogonality_defect(left), orthogonality_defect(left)",
    ),
    Mutant(
        "certify-svd-residual-halved",
        C + "enclosure.py",
        "residual = frobenius_norm(target - approx)",
        "residual = frobenius_norm(target - approx) / 2",
    ),
    Mutant(
        "certify-less-decided-at-midpoints",
        C + "interval_eval.py",
        "        if a < b:\n            return True",
        "        if a.mid() < b.mid():\n            return True",
    ),
)

Q = "theory/prover/coq/"
COQ_ROUND3: tuple[Mutant, ...] = (
    Mutant(
        "coq-rejection-leaves-exit-0",
        Q + "report.py",
        "return NOT_ACCEPTED if status == 0 and coq_verdict(records) in NOT_ACCEPTED_STATUSES else status",
        "return status",
    ),
    Mutant(
        "coq-hypotheses-count-as-accepted",
        Q + "report.py",
        'NOT_ACCEPTED_STATUSES = ("rejected", "timeout", "hypotheses", "untranslated")',
        'NOT_ACCEPTED_STATUSES = ("rejected", "timeout", "untranslated")',
    ),
    Mutant(
        "coq-untrusted-axioms-ignored",
        Q + "coqc.py",
        "untrusted = [a for a in axioms if not a.startswith(TRUSTED_AXIOMS)]",
        "untrusted: list[str] = []",
    ),
    Mutant(
        "coq-hypotheses-reported-accepted",
        Q + "coqc.py",
        'return CoqCheck("hypotheses" if hypotheses else "accepted", seconds, axioms, hypotheses)',
        'return CoqCheck("accepted", seconds, axioms, hypotheses)',
    ),
    Mutant(
        "coq-axiom-list-reads-indented-lines",
        Q + "coqc.py",
        "if line and not line[0].isspace():",
        "if line and line[0].isspace():",
    ),
    Mutant(
        "coq-rule-lemma-direction-swapped",
        Q + "export.py",
        "return f\"sb_{kind}_{'increasing' if increasing else 'decreasing'}",
        "return f\"sb_{kind}_{'decreasing' if increasing else 'increasing'}",
    ),
    Mutant("coq-rule-lemma-strictness-dropped", Q + "export.py", "{'_lt' if strict else ''}", "{''}"),
    Mutant(
        "coq-strict-claim-stated-non-strict",
        Q + "export.py",
        "return f\"0 {'<' if strict else '<='} {self.subject(form)}\"",
        'return f"0 <= {self.subject(form)}"',
    ),
    Mutant(
        "coq-open-lower-end-stated-closed",
        Q + "export.py",
        'relation = "<" if not point and variable_.open_at(lo, True) else "<="',
        'relation = "<="',
    ),
    Mutant(
        "coq-theorem-states-the-non-strict-claim",
        Q + "export.py",
        "{premises}{self.claim(strict)}",
        "{premises}{self.claim(False)}",
    ),
)

VERDICTS_ROUND3: tuple[Mutant, ...] = (
    Mutant(
        "claim16-verified-when-intervals-overlap",
        "paper_checks/claims/c16_predictive_ranking.py",
        "    elif a.low > b.high:",
        "    elif a.high > b.low:",
    ),
    Mutant(
        "claim16-refuted-when-intervals-touch",
        "paper_checks/claims/c16_predictive_ranking.py",
        "    elif a.high < b.low:",
        "    elif a.high <= b.low:",
    ),
    Mutant(
        "claim12a-judged-against-the-smaller-limit",
        "numerics/synthetic/gap.py",
        "return self.ours >= max(self.gap.margin_gap_upper, self.gap.ramp_gap_upper)",
        "return self.ours >= min(self.gap.margin_gap_upper, self.gap.ramp_gap_upper)",
        area="verdicts",
    ),
    Mutant(
        "claim12a-testable-without-the-ceiling",
        "paper_checks/claims/c12_bound_dominates_gap.py",
        "if r.ours < ceiling]",
        "if r.ours > 0]",
    ),
    Mutant(
        "exact-rank-drops-tiny-singular-values",
        "numerics/bounds/schatten.py",
        "return int(np.count_nonzero(spec.singular_values > 0))",
        "return int(np.count_nonzero(spec.singular_values > 1e-12))",
        area="verdicts",
    ),
    Mutant(
        "posthoc-ties-to-the-largest-p",
        "numerics/bounds/posthoc.py",
        "best = min(range(len(values)), key=lambda i: (values[i], candidates[i]))",
        "best = min(range(len(values)), key=lambda i: (values[i], -candidates[i]))",
        area="verdicts",
    ),
    Mutant(
        "assembled-ties-to-the-largest-p",
        "numerics/bounds/assembled.py",
        "best = min(options, key=lambda option: option[2])",
        "best = min(options[::-1], key=lambda option: option[2])",
        area="verdicts",
    ),
    Mutant(
        "claim1-derivative-condition-dropped",
        "paper_checks/claims/c01_rank_endpoint.py",
        "holds = equals_rank_term and s_derivative == 0 and continuous",
        "holds = equals_rank_term and continuous",
    ),
    Mutant(
        "claim3-failures-ignored",
        "paper_checks/claims/c03_exponent_monotonicity.py",
        "Verdict.REFUTED if failures else Verdict.VERIFIED,",
        "Verdict.VERIFIED,",
    ),
    Mutant(
        "claim5-numeric-or-symbolic",
        "paper_checks/claims/c05_separability.py",
        "if numeric_holds and symbolic is Verdict.VERIFIED else",
        "if numeric_holds or symbolic is Verdict.VERIFIED else",
    ),
    Mutant(
        "claim5b-grid-audit-ignored",
        "paper_checks/claims/c05b_posthoc_choice_valid.py",
        "if not (weights_ok and union_ok and grids_ok) or failing:",
        "if not (weights_ok and union_ok) or failing:",
    ),
    Mutant(
        "claim5c-by-construction-called-verified",
        "paper_checks/claims/c05c_joint_p_assembled.py",
        "verdict = Verdict.VERIFIED if planted_flips else Verdict.BY_CONSTRUCTION",
        "verdict = Verdict.VERIFIED",
    ),
    Mutant(
        "claim6-violations-ignored",
        "paper_checks/claims/c06_grid_rounding.py",
        "verdict = Verdict.REFUTED if violations else verdict_of(records)",
        "verdict = verdict_of(records)",
    ),
    Mutant(
        "claim7-softmax-condition-dropped",
        "paper_checks/claims/c07_lipschitz.py",
        "verdict = symbolic if sound and as_stated and softmax_holds else Verdict.REFUTED",
        "verdict = symbolic if sound and as_stated else Verdict.REFUTED",
    ),
    Mutant(
        "claim8a-log-power-unchecked",
        "paper_checks/claims/c08a_l2_sqrt_depth.py",
        "holds = posthoc.rate == 0 and posthoc.power == half and posthoc.log_power == half",
        "holds = posthoc.rate == 0 and posthoc.power == half",
    ),
    Mutant(
        "claim8c-by-construction-called-verified",
        "paper_checks/claims/c08c_l1_proxy_real.py",
        "verdict = Verdict.BY_CONSTRUCTION if reach is not None and reach <= tolerance else Verdict.VERIFIED",
        "verdict = Verdict.VERIFIED",
    ),
    Mutant(
        "claim8d-exponent-tolerance-10x",
        "paper_checks/claims/c08d_edelman_depth.py",
        "if abs(exponent - predicted_exponent) > tolerance:",
        "if abs(exponent - predicted_exponent) > 10 * tolerance:",
    ),
    Mutant(
        "claim9-finite-growth-unchecked",
        "paper_checks/claims/c09_token_length.py",
        "if not structural or (decided and not growth.is_finite):",
        "if not structural:",
    ),
    Mutant(
        "claim10-undecided-called-verified",
        "paper_checks/claims/c10_real_spectra.py",
        "verdict = Verdict.REFUTED if failures else Verdict.OPEN if undecided else Verdict.VERIFIED",
        "verdict = Verdict.REFUTED if failures else Verdict.VERIFIED",
    ),
    Mutant(
        "claim10b-ties-count-as-adaptive",
        "paper_checks/claims/c10b_adaptivity_exercised.py",
        "ours < ours_zero and sigma < sigma_zero",
        "ours <= ours_zero and sigma <= sigma_zero",
    ),
    Mutant(
        "claim12b-concordance-test-reversed",
        "paper_checks/claims/c12b_weight_term_orders_gaps.py",
        "elif order.p_concordant <= level:",
        "elif order.p_concordant >= level:",
    ),
)

MUTANTS: tuple[Mutant, ...] = (
    *EARLIER,
    *SMALL_MISTAKES,
    *KERNEL_ROUND3,
    *DERIVE_ROUND3,
    *CERTIFY_ROUND3,
    *COQ_ROUND3,
    *VERDICTS_ROUND3,
)
"""Every mutant, in the order a run takes them."""
