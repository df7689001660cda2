"""Mutation run: does the suite notice realistic mistakes? (on demand; not in `make test` or `make bench`)

Copies the repository to a temporary folder, then for each mutant of MUTANTS, one at a time: applies its
textual replacement (which must match exactly once), runs ``python -m pytest -x -q`` on the mutant's fast
test files in the copy, and, when those pass and the mutant names claims, ``python -m paper_checks.cli
check --json --only IDS`` in the copy, compared with the pinned verdicts and figures of
tests/slow/test_check_cli.py (what its slow pin test would say). Restores the file and goes on. Prints
one row per mutant: killed (by which test, or by the pins) or SURVIVED.

    python benchmarks/mutation.py                 # every mutant (about 13 minutes on 2 busy cores)
    python benchmarks/mutation.py --only gelu-1.2,alpha-off-by-one
    python benchmarks/mutation.py --list
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 900


@dataclass(frozen=True)
class Mutant:
    """One realistic mistake: replace ``old`` by ``new`` in ``path``; ``tests`` are the fast test files
    (or doctest modules) that should notice it; ``claims`` the claim ids whose check output is compared
    with the pins when the tests do not."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]
    claims: tuple[str, ...] = ()


NUMERIC = "tests/unit/test_claims_numeric.py"
PROXIES = "tests/unit/test_proxies.py"
SYMBOLIC = "tests/unit/test_claims_symbolic.py"
LEMMAS = "tests/unit/test_theory_lemma.py"
ASSEMBLED = "tests/unit/test_theory_assembled.py"
HELPERS = "tests/unit/test_decision_helpers.py"
REGISTRY = "tests/unit/test_theory_registry.py"
FLOAT_BOUNDS = "tests/unit/test_certify_float_bounds.py"
ENCLOSURE = "tests/unit/test_certify_enclosure.py"
THIN = "tests/unit/test_certify_thin.py"
KERNEL = "tests/unit/test_prover_kernel.py"
KERNEL_STEPS = "tests/unit/test_prover_kernel_steps.py"
SUBSTITUTION = "tests/unit/test_prover_chain_substitution.py"

MUTANTS: tuple[Mutant, ...] = (
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
        ("tests/unit/test_spectrum.py",),
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
        ("tests/unit/test_check_exit_status.py",),
    ),
    Mutant(
        "ci-skips-stay-skips",
        "tests/conftest.py",
        "return in_ci(environ) and any(",
        "return False and any(",
        ("tests/unit/test_ci_skips.py",),
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
        "return nu / (1 - nu)",
        "return nu / 2",
        (FLOAT_BOUNDS,),
    ),
    Mutant(
        "certify-svd-residual-dropped",
        "numerics/certify/fast.py",
        "residual = (main + (1 + other).sqrt() * rounding).upper()",
        "residual = ((1 + other).sqrt() * rounding).upper()",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-diagonal-rounding-dropped",
        "numerics/certify/fast.py",
        "residual = (main + (1 + other).sqrt() * rounding).upper()",
        "residual = main.upper()",
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
        "bound = unit * norm_upper(first) + rest_bound",
        "bound = unit * norm_upper(first)",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-qr-residual-dropped",
        "numerics/certify/fast.py",
        "residual = (e_a * norm_upper(b_scaled) + (norm_upper(a_scaled) + e_a) * e_b).upper()",
        "residual = arb(0)",
        (FLOAT_BOUNDS, THIN),
    ),
    Mutant(
        "certify-orthogonality-defect-dropped",
        "numerics/certify/fast.py",
        "f_u, fu_estimate = orthogonality_bound(u)",
        "f_u, fu_estimate = arb(0), 0.0",
        (FLOAT_BOUNDS, ENCLOSURE, THIN),
    ),
    Mutant(
        "certify-outward-one-ulp-inward",
        "numerics/certify/balls.py",
        "    return lo, hi\n",
        "    return lo, math.nextafter(hi, -math.inf)\n",
        ("tests/unit/test_certify_outward.py",),
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
        ("tests/unit/test_prover_enclosure_rules.py", "tests/unit/test_prover_kernel_rules.py"),
    ),
    Mutant(
        "prover-integer-cut-without-its-step",
        "theory/prover/kernel/verify.py",
        "step = 1 if domain[name].integer else 0",
        "step = 0",
        (KERNEL, "tests/unit/test_prover_true_suite.py"),
    ),
    Mutant(
        "prover-chain-factor-of-unknown-sign-accepted",
        "theory/prover/kernel/chain.py",
        'if verify.decide({"method": "enclosure"}, piece.factor, whole, domain, False) is not None:',
        "if False:",
        ("tests/unit/test_prover_chain.py",),
    ),
    Mutant(
        "prover-chain-compound-denominators-cleared-without-check",
        "theory/prover/kernel/exact.py",
        "return form == {} or _canonical(_over_common_denominator(form, numerator=True), positive) == {}",
        "return True",
        ("tests/unit/test_prover_chain.py",),
    ),
    Mutant(
        "prover-chain-open-lower-end-ignored",
        "theory/prover/chain.py",
        "inner.lower == outer.lower and (inner.lower_open or not outer.lower_open)",
        "inner.lower == outer.lower",
        ("tests/unit/test_prover_chain.py", KERNEL),
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


GUARDED = "tests/unit/test_guarded_mistakes.py"
EXACT_RANK = "tests/unit/test_assembled_exact_rank.py"

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
        "g_k, cells = gamma(k), rest.size",
        "g_k, cells = gamma(k - 1), rest.size",
        (GUARDED,),
    ),
    Mutant(
        "certify-square-sum-underflow-dropped",
        "numerics/certify/float_bounds.py",
        "high = ((arb(computed) + n * arb(ETA)) / (1 - g)).upper()",
        "high = (arb(computed) / (1 - g)).upper()",
        (GUARDED,),
    ),
    Mutant(
        "certify-sqrt-sum-lower-rounded-up",
        "numerics/certify/float_bounds.py",
        "lower = ((arb(float(sums[0])) - arb(float(errors[0]))) / ((1 + u) * (1 + u).sqrt())).lower()",
        "lower = ((arb(float(sums[0])) - arb(float(errors[0]))) / ((1 - u) * (1 - u).sqrt())).lower()",
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

MUTANTS = MUTANTS + SMALL_MISTAKES

GENERATED_FROM = ("theory/proxy.py",)
"""The sources of numerics/formulas/generated.py: after a mutant of one (and after restoring it) the copy
runs ``python -m numerics.formulas.codegen``, so the tests see the mutated formulas, as they would after a
developer regenerated them."""


def copy_repository(destination: Path) -> Path:
    """A copy of the working tree without VCS data and caches."""
    target = destination / "repo"
    shutil.copytree(
        ROOT,
        target,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "__pycache__",
            ".mypy_cache",
            ".ruff_cache",
            ".pytest_cache",
            "*.egg-info",
            ".hypothesis",
        ),
    )
    return target


def environment(copy: Path) -> dict[str, str]:
    """The copy first on the import path (an editable install elsewhere must not be imported)."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONPATH")}
    env.update(PYTHONPATH=str(copy), HYPOTHESIS_PROFILE="dev", OMP_NUM_THREADS="1")
    return env


def run_tests(copy: Path, tests: tuple[str, ...]) -> tuple[bool, str]:
    """(killed, by which test) for ``pytest -x -q`` on ``tests`` in ``copy``."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        *tests,
    ]
    done = subprocess.run(
        command, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    if done.returncode == 0:
        return False, ""
    failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, flags=re.M)
    return True, failed.group(1) if failed else f"pytest exit {done.returncode}"


def pinned_differences(copy: Path) -> object:
    """tests/slow/test_check_cli.py's pin_differences, loaded from the copy."""
    spec = importlib.util.spec_from_file_location("pins", copy / "tests/slow/test_check_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.pin_differences


def run_check(copy: Path, claims: tuple[str, ...]) -> tuple[bool, str]:
    """(killed, why) for ``check --json --only claims`` in ``copy`` against the pins."""
    command = [sys.executable, "-m", "paper_checks.cli", "check", "--json", "--only", ",".join(claims)]
    done = subprocess.run(
        command, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    if done.returncode not in (0, 1):
        return True, f"check exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    differences = pinned_differences(copy)(json.loads(done.stdout)["claims"], set(claims))  # type: ignore[operator]
    return (True, "pins: " + "; ".join(differences)[:160]) if differences else (False, "")


def regenerate(copy: Path) -> tuple[bool, str]:
    """(failed, why) for ``python -m numerics.formulas.codegen`` in ``copy``."""
    command = [sys.executable, "-m", "numerics.formulas.codegen"]
    done = subprocess.run(
        command, cwd=copy, env=environment(copy), capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    return done.returncode != 0, f"codegen exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"


def run_mutant(copy: Path, mutant: Mutant) -> tuple[str, str, float]:
    """Apply (regenerating the generated formulas after a mutant of their source), test, restore."""
    path = copy / mutant.path
    original = path.read_text()
    count = original.count(mutant.old)
    if count != 1:
        return "BAD MUTANT", f"pattern matches {count} times in {mutant.path}", 0.0
    start = time.perf_counter()
    path.write_text(original.replace(mutant.old, mutant.new))
    generated = mutant.path in GENERATED_FROM
    try:
        killed, by = regenerate(copy) if generated else (False, "")
        if not killed:
            killed, by = run_tests(copy, mutant.tests)
        if not killed and mutant.claims:
            killed, by = run_check(copy, mutant.claims)
    finally:
        path.write_text(original)
        if generated and regenerate(copy)[0]:
            raise RuntimeError(f"codegen fails on the restored {mutant.path}: the copy is broken")
    return ("killed" if killed else "SURVIVED"), by, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated mutant names")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args(argv)
    mutants = MUTANTS
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m.name for m in MUTANTS}
        if unknown:
            parser.error(f"unknown mutants {sorted(unknown)}")
        mutants = tuple(m for m in MUTANTS if m.name in wanted)
    if args.list:
        for m in mutants:
            print(f"{m.name:40} {m.path}")
        return 0
    with tempfile.TemporaryDirectory(prefix="specbound-mutation-") as tmp:
        copy = copy_repository(Path(tmp))
        baseline_tests = tuple(sorted({t for m in mutants for t in m.tests}))
        broken, by = run_tests(copy, baseline_tests)
        if broken:
            print(f"baseline fails before any mutation ({by}): fix the suite first", file=sys.stderr)
            return 2
        print(f"{len(mutants)} mutants; baseline green on {len(baseline_tests)} test files", flush=True)
        print(f"{'mutant':40} {'status':9} {'seconds':>7}  by")
        survivors = 0
        for mutant in mutants:
            status, by, seconds = run_mutant(copy, mutant)
            survivors += status != "killed"
            print(f"{mutant.name:40} {status:9} {seconds:7.0f}  {by}", flush=True)
        print(f"\n{len(mutants) - survivors}/{len(mutants)} killed, {survivors} survived or bad")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
