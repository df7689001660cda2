"""Every inequality of the lemma chain in the prover's form: a statement over a domain, per lemma name.

Each entry is built from the sympy expressions the lemma modules already hold wherever they exist (c_p and
the Theorem 4.1 exponents from :func:`theory.interpolation.derive_balance`, GELU from
:mod:`theory.lipschitz`, the tail bound from the Schatten lemma's statement, ...); an entry typed here is
a *scalar form* of a lemma's inequality (the reduction is stated in ``reduction``), never a new claim.
The statements inherit their lemma's provenance; the verdict the prover returns is ``derived`` (decided by
interval branch and bound, with a certificate the kernel re-checks:
:func:`theory.prover.lemma_inequalities.decide`). Identities stay with the lemmas' sympy self-checks;
only inequalities are here.

Building the registry imports sympy and the lemma modules, not python-flint; proving needs flint.
"""

from __future__ import annotations

import functools

import sympy as sp

from theory.prover.domain import parse_domain
from theory.prover.lemma_inequalities import LemmaInequality, ReductionStep, cited, inequality, rebind
from theory.prover.statement import Inequality, Statement


def _schatten() -> list[LemmaInequality]:
    from theory._sympy_tools import equal
    from theory.schatten import lemma

    tail = lemma().statement[0]
    names = {str(symbol): symbol for symbol in tail.free_symbols}
    k, p_k, sigma_k, s_p = names["k"], names["p"], names["sigma_k"], names["S_p"]
    x, p, e, s, d = sp.symbols("x p e s d")
    at_equality = tail.rhs.subs(s_p, k * sigma_k**p_k)
    tail_steps = (
        cited(
            "S_p = sum_i sigma_i^p >= sum_{i <= k} sigma_i^p >= k sigma_k^p: the proved core, summed over "
            "the k largest (sorted) values sigma_i = sigma_k + d_i, d_i >= 0, the other terms >= 0",
            "termwise sum; Bhatia 1997, Matrix Analysis, IV.2",
        ),
        ReductionStep(
            "k sigma_k^p <= S_p gives the lemma's sigma_k <= (S_p / k)^{1/p}: at S_p = k sigma_k^p its two "
            "sides are equal, and its right side increases in S_p",
            "sympy (identity at equality; derivative in S_p positive)",
            lambda: bool(equal(at_equality, tail.lhs)[0] and sp.diff(tail.rhs, s_p).subs(s_p, 1).is_positive),
        ),
    )
    triangle_steps = (
        cited(
            "the matrix statement S_p(A + B) <= S_p(A) + S_p(B) for 0 < p <= 1 does not follow from the "
            "scalar core (singular values of A + B are not sums of those of A and B): it needs the "
            "concavity of x^p applied to singular values",
            "Rotfel'd 1969; McCarthy 1967; Bhatia 1997, Matrix Analysis, IV.2",
        ),
        cited(
            "the scalar core for a, b >= 0 with a + b > 0 is this statement at x = a / (a + b), both sides "
            "divided by (a + b)^p (homogeneity)",
            "homogeneity of x^p",
        ),
    )
    monotone_steps = (
        cited(
            "||sigma||_q <= ||sigma||_p for q >= p: normalised to ||sigma||_p = 1 every sigma_i <= 1, so "
            "sum sigma_i^q <= sum sigma_i^p = 1 termwise from this scalar statement",
            "Bhatia 1997, Matrix Analysis, IV.2 (monotonicity of l_p norms)",
        ),
    )
    return [
        inequality(
            "schatten_facts",
            "tail_bound",
            [(sigma_k**p, "<=", (sigma_k + d) ** p)],
            "sigma_k: (0, oo), d: [0, oo), p: (0, 2]",
            "Markov on the sorted singular values: each of the k largest sigma_i = sigma_k + d_i (d_i >= 0) "
            "has sigma_i^p >= sigma_k^p; summed, k sigma_k^p <= S_p, hence sigma_k <= (S_p / k)^{1/p}",
            covers="the termwise step of the tail bound; the sum over the k values is cited, the last step "
            "checked by sympy",
            steps=tail_steps,
        ),
        inequality(
            "schatten_facts",
            "monotone_in_p_scalar_core",
            [(s ** (p + e), "<=", s**p)],
            "s: [0, 1], p: (0, 2], e: [0, 2]",
            "||sigma||_q <= ||sigma||_p for q = p + e: normalised to ||sigma||_p = 1 every sigma_i = s <= 1",
            covers="the scalar step; the normalisation and the termwise sum are cited",
            steps=monotone_steps,
        ),
        inequality(
            "schatten_facts",
            "p_triangle_scalar_core",
            [(1, "<=", x**p + (1 - x) ** p)],
            "x: [0, 1], p: (0, 1]",
            "the scalar core (a + b)^p <= a^p + b^p of S_p(A + B) <= S_p(A) + S_p(B), 0 < p <= 1, "
            "normalised by homogeneity to a + b = 1 (a = x, b = 1 - x)",
            covers="the scalar inequality only; the matrix p-triangle inequality of the lemma is cited",
            steps=triangle_steps,
        ),
    ]


def _squares_below_count(names: str, interval: str) -> tuple[list[tuple[sp.Expr, str, sp.Expr]], str]:
    """sum_j v_j^2 <= d (d the number of v_j) with every v_j in ``interval``: the parts and the domain."""
    values = sp.symbols(names)
    domain = ", ".join(f"{value}: {interval}" for value in values)
    return [(sum(value**2 for value in values), "<=", len(values))], domain


def _covering() -> list[LemmaInequality]:
    d1, d2, c1, c2, c3 = sp.symbols("d1 d2 c1 c2 c3")
    return [
        inequality(
            "rank_k_parametric_covering",
            "head_dimension",
            [(d1 + d2 + 1, "<=", 3 * sp.Max(d1, d2))],
            "d1: integer >= 1, d2: integer >= 1",
            "the parameter count (d1 + d2 + 1) k is at most 3 N k with N = max(d1, d2), "
            "for both orders of d1, d2 (no symmetry reduction)",
            covers="every d1, d2 >= 1 (the counting step of the head entropy); the covering number "
            "log N(eps) <= (d1 + d2 + 1) k log(9 rho / eps) itself is cited (Candes & Plan 2011, Lemma 3.1)",
        ),
        inequality(
            "maurey_covering",
            "norm_21_below_sqrt_d2_frobenius",
            [(c1 + c2 + c3, "<=", sp.sqrt(3) * sp.sqrt(c1**2 + c2**2 + c3**2))],
            "c1: [0, oo), c2: [0, oo), c3: [0, oo)",
            "||R||_{2,1} <= sqrt(d2) ||R||_F for d2 = 3: c_j the column norms (Cauchy-Schwarz)",
            covers="d2 = 3 columns; every d2 is Cauchy-Schwarz, cited",
            steps=(cited("sum_j c_j <= sqrt(d2) (sum_j c_j^2)^{1/2} for every d2", "Cauchy-Schwarz"),),
        ),
        inequality(
            "rank_k_parametric_covering",
            "frobenius_radius",
            *_squares_below_count("r1:4", "[0, 1]"),
            "||W||_F^2 = sum_i sigma_i^2 <= k C^2 for rank k = 3 with every sigma_i <= C: "
            "r_i = sigma_i / C in [0, 1] (homogeneity, C > 0)",
            covers="rank k = 3; every k by the same termwise sum, cited",
        ),
        inequality(
            "maurey_covering",
            "vector_norm_reduction",
            *_squares_below_count("v1:4", "[-1, 1]"),
            "||v||_2^2 <= d2 ||v||_inf^2 for d2 = 3, normalised by homogeneity to ||v||_inf = 1",
            covers="d2 = 3; every d2 termwise, cited, as is Zhang's vector covering lemma it feeds",
            steps=(
                cited("||v||_2^2 <= d2 ||v||_inf^2 termwise for every d2", "termwise sum"),
                cited("the covering of the linear class on M d2 points", "Zhang 2002, Theorem 4"),
            ),
        ),
        _tail_prefactor(),
    ]


def _tail_prefactor() -> LemmaInequality:
    """The Maurey tail prefactor <= 144 N^2 sigma^2 (b/eps)^2 (theory.covering.tail_prefactor) for d2 = N - e,
    min(d1, d2) = N - f, 0 <= e, f <= N: with e = N x, f = N y the ratio prefactor / bound, computed by sympy,
    depends on x and y only, and is decided <= 1 on the unit square."""
    from theory import covering

    sigma = sp.Symbol("sigma", positive=True)
    x, y = sp.symbols("x y", nonnegative=True)
    prefactor, bound = covering.tail_prefactor(sigma, covering.N * x, covering.N * y)
    ratio = sp.factor(sp.simplify(prefactor / bound))
    scale_free = {covering.N, sigma, covering.b, covering.eps}
    steps = (
        ReductionStep(
            "prefactor / bound with e = N x, f = N y (x, y in [0, 1]) is free of N, sigma, b and eps",
            "sympy (simplify of the ratio of theory.covering.tail_prefactor's two sides)",
            lambda: not (ratio.free_symbols & scale_free),
        ),
        ReductionStep(
            "the bound 144 N^2 sigma^2 (b/eps)^2 is positive, so ratio <= 1 iff prefactor <= bound",
            "sympy (sign from the symbols' positivity)",
            lambda: bool(bound.is_positive),
        ),
    )
    return inequality(
        "maurey_covering",
        "tail_prefactor_below_144",
        [(ratio, "<=", 1)],
        "x: [0, 1], y: [0, 1]",
        "the tail's Maurey prefactor at eps/2 with d2 = N - e, min(d1, d2) = N - f is <= 144 N^2 sigma^2 "
        "(b/eps)^2: divided by the bound, with e = N x, f = N y",
        steps=steps,
    )


def _interpolation() -> list[LemmaInequality]:
    from theory.interpolation import N as width
    from theory.interpolation import S as schatten
    from theory.interpolation import (
        balanced_term,
        c_p_log_slope,
        derive_balance,
        eps,
        tail_slope,
        theorem_exponents,
    )
    from theory.interpolation import s as scale

    balance = derive_balance()
    exponents = theorem_exponents()
    (p_symbol,) = [symbol for symbol in balance.c_p.free_symbols if symbol.name == "p"]
    return [
        inequality(
            "interpolation_covering",
            "c_p_in_1_2",
            [(1, "<=", balance.c_p), (balance.c_p, "<=", 2)],
            "p: (0, 2]",
            "c_p as sympy derived it by balancing A k + B k^{-2/p}",
        ),
        inequality(
            "interpolation_covering",
            "exponent_monotonicity",
            [
                (sp.diff(exponents[width], p_symbol), ">", 0),
                (sp.diff(exponents[schatten], p_symbol), "<", 0),
                (sp.diff(exponents[scale], p_symbol), ">", 0),
            ],
            "p: (0, 2]",
            "the derived exponents of N and s increase and that of S decreases in p",
        ),
        inequality(
            "interpolation_covering",
            "entropy_exponent_below_2",
            [(-exponents[eps], "<", 2)],
            "p: (0, 2]",
            "log N(eps) ~ eps^{-q} with q < 2, so the Dudley integral converges",
        ),
        inequality(
            "interpolation_covering",
            "k_star_is_a_minimum",
            [(balance.second_derivative_at_k_star, ">", 0)],
            "A: (0, oo), B: (0, oo), p: (0, 2]",
            "f''(k*) > 0 for f(k) = A k + B k^{-2/p}",
        ),
        inequality(
            "interpolation_covering",
            "balanced_term_positive",
            [(balanced_term(), ">", 0)],
            _domain_text_of(balanced_term()),
            "the balanced term K_p N^(2(p+1)/(p+2)) S^(2/(p+2)) (s/eps)^(2p/(p+2)) as sympy derived it is "
            "positive over Theorem 4.1's domain",
        ),
        inequality(
            "interpolation_covering",
            "c_p_increasing",
            [(c_p_log_slope(), ">", 0)],
            "p: (0, 2)",
            "d/dp log c_p > 0 on (0, 2) for the derived c_p (at p = 2 the slope is 0)",
        ),
        inequality(
            "interpolation_covering",
            "ceiling_tail_decreasing",
            [(tail_slope(), "<", 0)],
            "B: (0, oo), k: (0, oo), p: (0, 2]",
            "the tail term B k^{-2/p} decreases in k, so g(ceil k*) <= g(k*) + A (ceil k* - k*) <= "
            "g(k*) + 3N",
        ),
        _sharp_tail(),
        _theorem_4_1(),
    ]


def _domain_text_of(expr: sp.Expr) -> str:
    """Theorem 4.1's domain (theory.interpolation.DOMAIN) restricted to the free symbols of ``expr``."""
    from theory.interpolation import domain_text

    names = {symbol.name for symbol in expr.free_symbols}
    return ", ".join(v.to_json() for v in parse_domain(domain_text()).variables if v.name in names)


def _sharp_tail(top: str = "2") -> LemmaInequality:
    """sigma_i^2 <= sigma_{k+1}^{2-p} sigma_i^p for 0 < sigma_i <= sigma_{k+1} (theory.interpolation.
    sharp_tail_sides), as t^2 <= t^p on t = sigma_i / sigma_{k+1} in (0, 1]; p in (0, ``top``] (the lemma's
    "needs p <= 2": over p up to 3 the prover refutes it)."""
    from theory._sympy_tools import equal
    from theory.interpolation import sharp_tail_sides

    sigma, t = sp.symbols("sigma t", positive=True)
    sides = sharp_tail_sides(sigma, t * sigma)
    reduced = [sp.powsimp(sp.expand_power_base(side / sigma**2, force=True), force=True) for side in sides]
    step = ReductionStep(
        "sigma_i = t sigma_{k+1}, t in (0, 1]; both sides divided by sigma_{k+1}^2 > 0 are free of "
        "sigma_{k+1}",
        "sympy (identity: each reduced side times sigma_{k+1}^2 is the side)",
        lambda: all(
            sigma not in r.free_symbols and equal(r * sigma**2, side)[0]
            for r, side in zip(reduced, sides, strict=True)
        ),
    )
    return inequality(
        "interpolation_covering",
        "sharp_tail_termwise",
        [(reduced[0], "<=", reduced[1])],
        f"t: (0, 1], p: (0, {top}]",
        "the sharper tail's termwise bound sigma_i^2 <= sigma_{k+1}^(2-p) sigma_i^p, sigma_i = t sigma_{k+1}",
        steps=(step,),
    )


def _theorem_4_1() -> LemmaInequality:
    from theory import interpolation

    domain = parse_domain(interpolation.domain_text())
    relation = interpolation.statement()
    gap = rebind(relation.rhs - relation.lhs, domain)
    text = "composed covering lemmas at k = ceil(k*) <= Lambda (K_p N^.. S^.. (s/eps)^.. + 3N)"
    return LemmaInequality(
        "interpolation_covering",
        "theorem_4_1_statement",
        Statement(text, (Inequality(text, gap, False),), domain),
        "the restated Theorem 4.1 (reconstructed: our reading of the paper) over its whole domain, decided "
        "as a chain: 8 pieces (head log, tail log, both arguments of the tail's min, the ceiling step) each "
        "proved on its own domain, summed with nonnegative factors to the statement (the identity by the "
        "kernel's exact normal form)",
        chain=interpolation.theorem_chain,
    )


def _lipschitz() -> list[LemmaInequality]:
    from theory.lipschitz import GELU, x
    from theory.proxy import L_PHI_VALUE

    slope = sp.diff(GELU, x)
    return [
        inequality(
            "gelu_lipschitz",
            "gelu_derivative_within_l_phi",
            [(slope, "<=", L_PHI_VALUE), (-L_PHI_VALUE, "<=", slope)],
            "x: real",
            "|GELU'(x)| <= L_phi = 1.13 on the whole real line",
        ),
        inequality(
            "gelu_lipschitz",
            "gelu_below_identity",
            [(sp.Abs(GELU), "<=", sp.Abs(x))],
            "x: real",
            "|GELU(x)| <= |x| on the whole real line",
        ),
    ]


def _softmax_every_length_steps(vertex_value: sp.Expr) -> tuple[ReductionStep, ...]:
    """The reduction of ||J h||_1 <= kappa ||h||_inf for every T to ``vertex_value`` <= kappa on q in [0, 1]
    (:mod:`theory.paper_proofs.softmax_every_length`)."""
    from theory.paper_proofs import softmax_every_length as every

    return (
        ReductionStep(
            "J = diag(a) - a a^T entrywise for every T, so ||J h||_1 = sum_{i=1}^T a_i |h_i - a.h|",
            "sympy (generic entries i = j and i != j, the other terms of the denominator one symbol)",
            every.jacobian_entries_hold,
        ),
        ReductionStep(
            "sum_{i=1}^T a_i |h_i - a.h| is a nonnegative combination of |linear forms in h|, hence "
            "convex and positively homogeneous in h",
            "sympy, structural check of the Sum over symbolic T; convexity of such sums is standard "
            "(Boyd & Vandenberghe 2004, Convex Optimization, Sec. 3.2.1-3.2.2)",
            lambda: every.is_nonnegative_combination_of_absolute_linear_forms(
                every.jacobian_l1_every_length(), every.VALUES
            ),
        ),
        ReductionStep(
            "normalised to ||h||_inf <= 1, the maximum of a convex function over the cube is at a vertex",
            "standard (Rockafellar 1970, Convex Analysis, Corollary 32.3.2), cited",
        ),
        ReductionStep(
            f"at a vertex with softmax mass q on h_i = +1 the value is {sp.sstr(vertex_value)} for every T",
            "sympy identity over symbolic T (the two cases of each summand, the sums over the two "
            "index classes)",
            lambda: every.vertex_value_matches(vertex_value),
        ),
    )


def _softmax() -> list[LemmaInequality]:
    from theory.lipschitz import softmax_constant

    kappa = softmax_constant()
    s, h1, h2, q = sp.symbols("s h1 h2 q")
    weights, values = (s, 1 - s), (h1, h2)
    mean = sum(a * h for a, h in zip(weights, values, strict=True))
    jacobian_l1 = sum(a * sp.Abs(h - mean) for a, h in zip(weights, values, strict=True))
    vertex_value = 4 * q * (1 - q)
    return [
        inequality(
            "softmax_lipschitz",
            "jacobian_l1_norm",
            [(jacobian_l1, "<=", kappa)],
            "s: [0, 1], h1: [-1, 1], h2: [-1, 1]",
            "||J h||_1 = sum_i a_i |h_i - a.h| <= kappa ||h||_inf (kappa derived) for T = 2, "
            "a = (s, 1 - s) on the simplex, normalised to ||h||_inf <= 1",
            covers="T = 2 only (direct statement, a cross-check of the reduction for every T)",
        ),
        _softmax_every_length(vertex_value, kappa),
    ]


def _softmax_every_length(vertex_value: sp.Expr, kappa: sp.Expr) -> LemmaInequality:
    """||J h||_1 <= kappa ||h||_inf for every T, as ``vertex_value`` <= kappa on q in [0, 1] with the
    reduction's steps (a planted wrong vertex value or bound is rejected or refuted)."""
    return inequality(
        "softmax_lipschitz",
        "jacobian_l1_norm_every_length",
        [(vertex_value, "<=", kappa)],
        "q: [0, 1]",
        "||J h||_1 <= kappa ||h||_inf for every T: convex in h, so maximal at a vertex of the cube, where "
        "it is the vertex value in the softmax mass q on +1",
        covers="every T >= 2 (reduction to one variable, steps checked by sympy over symbolic T or cited)",
        steps=_softmax_every_length_steps(vertex_value),
    )


def _at_most(sides: tuple[sp.Expr, sp.Expr]) -> list[tuple[sp.Expr, str, sp.Expr]]:
    """The part lhs <= rhs of a lemma's (lhs, rhs) pair."""
    return [(sides[0], "<=", sides[1])]


def _ramp_between_indicators(ramp: sp.Piecewise | None = None) -> LemmaInequality:
    """1[u <= 0] <= ramp_margin(u) <= 1[u <= margin] for every real u (theory.assembled.RAMP_LOSS or a planted
    ``ramp``), split where the indicators jump: on u <= 0 and on u >= margin the ramp equals the indicators'
    common value (sympy, for every u: u = -w and u = margin + w with w >= 0); inside, u = margin t with t in
    (0, 1), the ramp's second piece (condition u < margin, checked structurally) is 1 - t there (sympy
    identity), and the prover decides 1[u <= 0] = 0 <= 1 - t <= 1 = 1[u <= margin]."""
    from theory.assembled import RAMP_LOSS

    u, margin = RAMP_LOSS.args
    ramp = RAMP_LOSS.expr if ramp is None else ramp
    w = sp.Symbol("w", nonnegative=True)
    t = sp.Symbol("t", positive=True)
    (_, first_condition), (inside_value, inside_condition) = ramp.args[:2]
    inside = sp.expand(inside_value.subs(u, margin * t))
    steps = (
        ReductionStep(
            "on u <= 0 (u = -w, w >= 0) the ramp is 1 = 1[u <= 0] = 1[u <= margin]",
            "sympy (the Piecewise evaluated for every w >= 0)",
            lambda: ramp.subs(u, -w) == 1,
        ),
        ReductionStep(
            "on u >= margin (u = margin + w, w >= 0) the ramp is 0 = 1[u <= 0], below 1[u <= margin]",
            "sympy (the Piecewise evaluated for every w >= 0)",
            lambda: ramp.subs(u, margin + w) == 0,
        ),
        ReductionStep(
            "inside (0, margin) the first piece's condition u <= 0 fails and the second's is u < margin, so "
            "the ramp is its second piece, at u = margin t free of margin",
            "sympy (structural: the Piecewise's conditions; the piece at u = margin t)",
            lambda: (
                first_condition.canonical == sp.Le(u, 0).canonical
                and inside_condition.canonical == sp.Lt(u, margin).canonical
                and margin not in inside.free_symbols
            ),
        ),
    )
    return inequality(
        "margin_bound",
        "ramp_between_indicators",
        [(0, "<=", inside), (inside, "<=", 1)],
        "t: (0, 1)",
        "1[u <= 0] <= ramp(u) <= 1[u <= margin]; inside (0, margin), u = margin t, the indicators are 0, 1",
        covers="every real u (the outer pieces by sympy, the inside by the prover)",
        steps=steps,
    )


def _composition_and_tails() -> list[LemmaInequality]:
    from theory.composition import l2_below_l1_sides, optimal_below_equal_sides
    from theory.dudley import integrand_exponent
    from theory.posthoc import width_factor_log

    x, y, big_n, v = sp.symbols("x y N v", positive=True)
    return [
        inequality(
            "depth_factors_and_allocation",
            "optimal_split_below_equal_split",
            _at_most(optimal_below_equal_sides(x, y)),
            "x: [0, oo), y: [0, oo)",
            "q = 1, two terms: the optimal allocation's entropy is at most the equal split's",
            covers="q = 1 and two matrices; every q and K is Hoelder's inequality, cited",
            steps=(
                cited("(sum_i (A_i c_i^q)^{1/(q+1)})^{q+1} <= K^q sum_i A_i c_i^q", "Hoelder's inequality"),
            ),
        ),
        inequality(
            "depth_factors_and_allocation",
            "l2_aggregation_below_l1",
            _at_most(l2_below_l1_sides(sp.symbols("a1:4"))),
            "a1: [0, oo), a2: [0, oo), a3: [0, oo)",
            "sqrt(sum C_i^2) <= sum C_i squared, with a_i = C_i^2, three terms",
            covers="three terms; every K by subadditivity of the square root, cited",
            steps=(cited("sqrt(sum_i a_i) <= sum_i sqrt(a_i) for every K", "subadditivity of sqrt"),),
        ),
        inequality(
            "dudley_entropy_integral",
            "integrand_exponent_below_1",
            [(integrand_exponent(), "<", 1)],
            "p: [0, 2]",
            "u^{-p/(p+2)} is integrable at 0 for every p in [0, 2]",
        ),
        inequality(
            "grid_rounding_cost",
            "grid_rounding_factor",
            [(width_factor_log(big_n, sp.log(big_n) + v), "<", sp.Rational(1, 4))],
            "N: (1, oo), v: (0, oo)",
            "N^{1/(4m)} < e^{1/4} for a grid with m = ln N + v > ln N, in log form",
        ),
        _rounding_derivative_brackets(),
        _log_factor_dominates(),
        _lambda_positive(),
        _edelman_token_growth(),
    ]


def _lambda_positive() -> LemmaInequality:
    """Lambda > 0 (theory.assembled.LOG_FACTOR over its symbols' declared domains): with the sympy identity
    d GAP / d Sigma = 24 sqrt(Lambda) / sqrt(n Sigma) (the lemma's self-check), GAP increases in Sigma."""
    from theory.assembled import LOG_FACTOR

    return inequality(
        "assembled_bound",
        "lambda_positive",
        [(LOG_FACTOR.expr, ">", 0)],
        _domain_from_assumptions(LOG_FACTOR.expr),
        "d GAP / d Sigma = 24 sqrt(Lambda) / sqrt(n Sigma) (identity, sympy) is positive iff Lambda > 0",
    )


def _edelman_token_growth() -> LemmaInequality:
    """The coefficient of sqrt(log T) log n in Edelman's gap (theory.baselines.edelman_token_growth) > 0."""
    from theory.baselines import edelman_token_growth

    _, coefficient = edelman_token_growth()
    return inequality(
        "edelman_2022_bound",
        "token_growth_coefficient_positive",
        [(coefficient, ">", 0)],
        _domain_from_assumptions(coefficient),
        "lim_{T -> oo} gap / (sqrt(log T) log n), computed by sympy, is positive: the gap grows like "
        "sqrt(log T)",
    )


def _domain_from_assumptions(expr: sp.Expr) -> str:
    """The prover's domain read off the declared assumptions of the free symbols of ``expr`` (a positive
    integer: integer >= 1; positive: (0, oo); nonnegative: [0, oo); otherwise real)."""
    parts = []
    for symbol in sorted(expr.free_symbols, key=lambda item: item.name):
        if symbol.is_integer and symbol.is_positive:
            parts.append(f"{symbol.name}: integer >= 1")
        elif symbol.is_positive:
            parts.append(f"{symbol.name}: (0, oo)")
        elif symbol.is_nonnegative:
            parts.append(f"{symbol.name}: [0, oo)")
        else:
            parts.append(f"{symbol.name}: real")
    return ", ".join(parts)


def _rounding_derivative_brackets() -> LemmaInequality:
    """Both brackets of F'(p)'s decomposition (theory.posthoc.rounding_derivative_brackets) are <= 0 for
    three tau's with tau_1 the largest: tau_i = tau_1 r_i, r_i in (0, 1], the brackets free of tau_1."""
    from theory._sympy_tools import equal
    from theory.posthoc import p, rounding_derivative_brackets

    tau_1 = sp.Symbol("tau1", positive=True)
    ratios = sp.symbols("r2 r3", positive=True)
    scaled = rounding_derivative_brackets((tau_1, *(tau_1 * r for r in ratios)))
    reduced = [sp.simplify(sp.expand_log(bracket, force=True)) for bracket in scaled]
    at_unit = rounding_derivative_brackets((sp.Integer(1), *ratios))
    step = ReductionStep(
        "tau_i = tau_1 r_i (tau_1 the largest, r_i in (0, 1]): each bracket is free of tau_1 (sympy "
        "expand_log), and equals the bracket at tau = (1, r2, r3)",
        "sympy (identity)",
        lambda: all(
            tau_1 not in r.free_symbols and equal(r, bracket)[0]
            for r, bracket in zip(reduced, at_unit, strict=True)
        ),
    )
    return inequality(
        "grid_rounding_cost",
        "rounding_derivative_brackets",
        [(reduced[0], "<=", 0), (reduced[1], "<=", 0)],
        f"r2: (0, 1], r3: (0, 1], {p.name}: [0, 2]",
        "F'(p) <= 2 log(tau_1)/(p+2)^2: the weighted mean of log tau is at most log tau_1, and "
        "sum tau^p >= tau_1^p, for three tau's",
        covers="three tau's; any number of them by the same weighted-mean argument, cited",
        steps=(step,),
    )


def _log_factor_dominates() -> LemmaInequality:
    from theory.interpolation import HEAD_LOG_DOMAIN, head_log_reduced

    return inequality(
        "assembled_bound",
        "log_factor_dominates",
        [(head_log_reduced(), ">=", 0)],
        HEAD_LOG_DOMAIN,
        "Lambda - ln(18 C sqrt(N) s / eps) >= 0 for theory.interpolation's LOG_FACTOR and the log of "
        "head_entropy(), with eps / (C s) = y (an exact reduction; Theorem 4.1's chain re-checks it as an "
        "identity); the assembled Lambda is this one at eps = 1/sqrt(n), M = nT (lambda_is_theorem_4_1_"
        "log_factor)",
    )


@functools.cache
def all_lemma_inequalities() -> tuple[LemmaInequality, ...]:
    """Every inequality of the chain, grouped by lemma in chain order."""
    return tuple(
        [
            *_schatten(),
            *_covering(),
            *_interpolation(),
            *_lipschitz(),
            *_softmax(),
            _ramp_between_indicators(),
            *_composition_and_tails(),
        ]
    )


def inequalities_of(lemma_name: str) -> tuple[LemmaInequality, ...]:
    """The inequalities stated for the lemma called ``lemma_name`` (empty when it has none)."""
    return tuple(entry for entry in all_lemma_inequalities() if entry.lemma == lemma_name)
