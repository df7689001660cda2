"""The prover's reference suites: classical true inequalities and planted near-misses.

``TRUE_SUITE`` holds classical inequalities (Bernoulli, AM-GM in two and three variables, log(1 + x) <= x,
the tangent bound of exp, Young's inequality for products, the c_p bounds, sup GELU' < 1.13, statements
with a singular point on an open end of the domain, Max/Min/floor/ceiling). ``NEAR_MISSES`` plants false
variants: a constant moved by 1e-6 relative, an exponent moved by 1/100, a domain widened past the true
one. Each entry is (name, statement, domain) in the syntax of ``specbound prove``. The test suite and
``benchmarks/prove_speed.py`` run both. Provenance: standard (textbook inequalities; Hardy, Littlewood &
Polya, *Inequalities*, 1952) for the true suite; the near-misses are planted.
"""

from __future__ import annotations

C_P = "(p+2)*4^(-1/(p+2))*p^(-p/(p+2))"

TRUE_SUITE: list[tuple[str, str, str]] = [
    ("bernoulli", "(1+x)^r >= 1 + r*x", "x: [-1, oo), r: [1, 10]"),
    ("bernoulli_integer_r", "(1+x)^r >= 1 + r*x", "x: (-1, oo), r: integer in [1, 50]"),
    ("am_gm_2", "sqrt(x*y) <= (x+y)/2", "x: [0, oo), y: [0, oo)"),
    ("am_gm_2_squared", "x*y <= ((x+y)/2)^2", "x: real, y: real"),
    ("am_gm_3", "(x*y*z)^(1/3) <= (x+y+z)/3", "x: [0, oo), y: [0, oo), z: [0, oo)"),
    ("log_1_plus_x", "log(1+x) <= x", "x: (-1, oo)"),
    ("exp_tangent", "exp(x) >= 1 + x", "x: real"),
    ("young", "a*b <= a^p/p + b^(p/(p-1))/(p/(p-1))", "a: [0, oo), b: [0, oo), p: [1.1, 10]"),
    ("c_p_bounds", f"1 <= {C_P} and {C_P} <= 2", "p: (0, 2]"),
    ("gelu_derivative", "diff(x*Phi(x), x) <= 1.13 and diff(x*Phi(x), x) >= -1.13", "x: real"),
    ("gelu_below_identity", "Abs(x*Phi(x)) <= Abs(x)", "x: real"),
    ("singular_boundary_xlogx", "x*log(x) >= -exp(-1)", "x: (0, 1]"),
    ("singular_boundary_log", "log(x) <= x - 1", "x: (0, oo)"),
    # the jumps of floor and ceiling at the integers are split points of [-4, 4] (dyadic bisection)
    ("max_min_floor", "Max(x, 1) - Min(x, 1) >= 0 and ceiling(x) - floor(x) <= 1", "x: [-4, 4]"),
    ("integers", "2^N >= N + 1", "N: integer >= 0"),
]

SUP_GELU = "(1/2 + erf(1)/2 + exp(-1)/sqrt(pi))"

NEAR_MISSES: list[tuple[str, str, str]] = [
    # a constant moved by 1e-6 relative
    ("gelu_sup_constant", f"diff(x*Phi(x), x) <= {SUP_GELU}*(1 - 1/1000000)", "x: real"),
    ("exp_tangent_constant", "exp(x) >= 1 + 1/1000000 + x", "x: real"),
    ("c_p_lower_constant", f"{C_P} >= 1 + 1/1000000", "p: (0, 2]"),
    ("xlogx_constant", "x*log(x) >= -exp(-1)*(1 - 1/1000000)", "x: (0, 1]"),
    ("am_gm_constant", "sqrt(x*y) <= (x+y)/2*(1 - 1/1000000)", "x: [0, oo), y: [0, oo)"),
    # an exponent moved by 1/100
    ("bernoulli_exponent", "(1+x)^(r - 1/100) >= 1 + r*x", "x: (-1, oo), r: [1, 10]"),
    ("c_p_exponent", "(p+2)*4^(-101/100/(p+2))*p^(-p/(p+2)) >= 1", "p: (0, 2]"),
    ("log_exponent", "log(1+x) <= x^(101/100)", "x: [0, oo)"),
    ("young_exponent", "a*b <= a^p/p + b^(p/(p-1) + 1/100)/(p/(p-1))", "a: [0, oo), b: [0, oo), p: [1.1, 9]"),
    # a domain widened past the true one
    ("bernoulli_domain", "(1+x)^r >= 1 + r*x", "x: (-1, oo), r: [0.9, 10]"),
    ("schatten_monotone_domain", "s^(p+e) <= s^p", "s: [0, 1.01], p: (0, 2], e: [0, 2]"),
    ("p_triangle_domain", "1 <= x^p + (1-x)^p", "x: [0, 1], p: (0, 1.01]"),
    ("gelu_below_x_domain", "x*Phi(x) <= x", "x: real"),
]
