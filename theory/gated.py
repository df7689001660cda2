"""The SwiGLU feed-forward f(x) = W_down (silu(W_gate x) * W_up x) on a ball: its Lipschitz constant.

silu(u) = u sigmoid(u). f is not globally Lipschitz (a product of two linear maps grows quadratically), so
the constant needs a bound on its inputs: ||x||_2 <= b. With g = W_gate x, u = W_up x, the Jacobian is

    J(x) = W_down ( diag(silu'(g) * u) W_gate + diag(silu(g)) W_up ),

and on the ball |u_i| <= r_up b, |silu(g_i)| <= |g_i| <= r_gate b (since 0 < sigmoid < 1), r_W the largest
row 2-norm of W, so ||J(x)||_2 <= C_down b (s r_up C_gate + r_gate C_up) with s = sup |silu'| and C the
spectral norms. The ball is convex, so by the mean value inequality this bounds the Lipschitz constant
(:data:`SWIGLU_LIPSCHITZ`; reconstructed: this toolkit's derivation, typed in, property-tested on
sampled pairs). s is located here: sympy differentiates silu, solves silu'' = 0 numerically (nsolve at both
stationary points, which are symmetric: silu'(-u) = 1 - silu'(u)), and takes the larger |silu'|.

GeGLU, W_down (gelu(W_gate x) * W_up x) with exact or tanh-approximated GELU (Gemma), has the same bound
with s = sup |gelu'| (resp. sup |gelu_tanh'|): the one step that used silu, |silu(g)| <= |g|, holds for
them too, since gelu(g) = g Phi(g) and gelu_tanh(g) = g (1 + tanh(.)) / 2 with both factors in (0, 1)
(:func:`activation_prime_sup` gives s per activation).
"""

from __future__ import annotations

import functools

import sympy as sp

from theory.formula import Formula
from theory.provenance import Provenance, Tagged

u = sp.Symbol("u", real=True)
SILU = u / (1 + sp.exp(-u))
SILU_PRIME = sp.diff(SILU, u)


PRIME_SUP_DIGITS = 12
"""Decimals of the sup |act'| constants, rounded up: far above nsolve's error (about 10^-dps)."""


def _rounded_up(value: sp.Expr, dps: int) -> sp.Rational:
    """``value`` (a number, or a closed-form constant such as sup GELU' = 1/2 + erf(1)/2 + e^-1/sqrt(pi),
    evaluated to ``dps`` + 5 digits first) rounded UP (outward) to PRIME_SUP_DIGITS decimals: a constant
    above the located supremum."""
    step = sp.Integer(10) ** PRIME_SUP_DIGITS
    return sp.Rational(sp.ceiling(sp.Float(sp.N(value, dps + 5), dps) * step), step)


def silu_prime_sup(dps: int = 30) -> sp.Rational:
    """sup_u |silu'(u)| = 1.09984...: the larger |silu'| at the roots of silu'' near u = +-2.4, rounded UP
    (outward) to PRIME_SUP_DIGITS decimals, so the constant the SwiGLU bound uses is above the supremum.

    silu' tends to 1 at +infinity and 0 at -infinity, so its extremes are at stationary points.

    >>> silu_prime_sup()
    1099839320129/1000000000000
    """
    second = sp.diff(SILU, u, 2)
    values = [abs(SILU_PRIME.subs(u, sp.nsolve(second, u, start, prec=dps))) for start in (2.4, -2.4)]
    return _rounded_up(max(values), dps)


C_down, C_gate, C_up, r_gate, r_up, b, s_prime = sp.symbols(
    "C_down C_gate C_up r_gate r_up b s_prime", positive=True
)
SWIGLU_LIPSCHITZ = Formula(
    name="swiglu_lipschitz",
    expr=C_down * b * (s_prime * r_up * C_gate + r_gate * C_up),
    args=(C_down, C_gate, C_up, r_gate, r_up, b, s_prime),
    tag=Tagged(Provenance.RECONSTRUCTED, "theory.gated: mean-value bound on the Jacobian (module docstring)"),
    description="Lipschitz constant of x -> W_down (silu(W_gate x) * W_up x) on ||x||_2 <= b",
)


GELU_TANH = u / 2 * (1 + sp.tanh(sp.sqrt(2 / sp.pi) * (u + sp.Rational(44715, 1000000) * u**3)))
"""The tanh approximation of GELU (GPT-2's ``gelu_new``)."""


def gelu_tanh_prime_sup(dps: int = 30) -> sp.Rational:
    """|gelu_tanh'| at the stationary points of gelu_tanh' near u = +-1.42 (sympy nsolve), the larger one,
    rounded UP to PRIME_SUP_DIGITS decimals as :func:`silu_prime_sup` is.

    gelu_tanh' tends to 1 at +infinity and 0 at -infinity; this locates the extremes numerically (1.12899
    at u = 1.4185) but does not certify that no other stationary point exceeds it.
    """
    second = sp.diff(GELU_TANH, u, 2)
    first = sp.diff(GELU_TANH, u)
    values = [abs(first.subs(u, sp.nsolve(second, u, start, prec=dps)).evalf(dps)) for start in (1.4, -1.4)]
    return _rounded_up(max(values), dps)


@functools.cache
def activation_prime_sup(kind: str) -> sp.Rational:
    """sup |act'| of an activation: ``silu``, ``tanh`` (tanh-GELU), ``gelu`` (exact, 1.12890) or ``relu`` (1).

    Each also satisfies |act(u)| <= |u|, so it can stand for silu in :data:`SWIGLU_LIPSCHITZ`.
    """
    if kind == "relu":
        return sp.Integer(1)
    if kind == "gelu":
        from theory.lipschitz import gelu_derivative_extrema

        return _rounded_up(gelu_derivative_extrema()[0], 30)
    return {"silu": silu_prime_sup, "tanh": gelu_tanh_prime_sup}[kind]()
