"""Step 7: Dudley's entropy integral in closed form, and the margin bound.

Dudley (Bartlett, Foster & Telgarsky 2017, Lemma A.5, normalised to the sup-over-samples metric): for a
[0, 1]-valued class F containing 0,
    R_S(F) <= inf_{a > 0} ( 4 a + (12/sqrt n) int_a^1 sqrt(log N_inf(F, u)) du ).
With log N(u) = E u^{-2p/(p+2)} the integrand is sqrt(E) u^{-p/(p+2)} and
int_0^1 u^{-p/(p+2)} du = (p + 2)/2, finite for every p in [0, 2] (from 1 at p = 0 to 2 at p = 2).

Margin bound (Mohri, Rostamizadeh & Talwalkar 2018, Thm 3.3 with Talagrand's contraction; BFT17
Lemma 3.1): with probability >= 1 - delta, P(y f(x) <= 0) <= (1/n) sum_i ramp(y_i f(x_i)) +
2 R_S(ramp o F) + 3 sqrt(ln(2/delta) / (2n)); the ramp is 1 on u <= 0, 0 on u >= margin, linear between,
so it dominates the 0-1 loss and is (1/margin)-Lipschitz: N_inf(ramp o F, u) <= N_inf(F, margin u).
Provenance: standard (cited); the closed forms are derived.
"""

from __future__ import annotations

import functools

import sympy as sp

from theory import _sympy_tools as tools
from theory.assembled import RAMP_LOSS, margin
from theory.lemma import Check, Lemma
from theory.provenance import Provenance, Tagged

p = sp.Symbol("p", nonnegative=True)
u = sp.Symbol("u", positive=True)
a = sp.Symbol("a", positive=True)
n = sp.Symbol("n", positive=True)
E = sp.Symbol("E", positive=True)
DUDLEY_SOURCE = "Bartlett, Foster & Telgarsky 2017 (NeurIPS), Lemma A.5; Dudley 1967"
MARGIN_SOURCE = "Mohri, Rostamizadeh & Talwalkar 2018, Thm 3.3; Bartlett, Foster & Telgarsky 2017, Lemma 3.1"


INTEGRAND = u ** (-p / (p + 2))
"""sqrt(log N(u)) / sqrt(E) for an entropy E u^{-2p/(p+2)}: the integrand of Dudley's integral."""


def integrand_exponent() -> sp.Expr:
    """q = p/(p+2), the integrand being u^{-q} (read off INTEGRAND by sympy); integrable at 0 iff q < 1."""
    return -tools.exponent_of(INTEGRAND, u)


@functools.cache
def dudley_integral() -> sp.Expr:
    """int_0^1 u^{-p/(p+2)} du in closed form (valid for every p >= 0, finite)."""
    return sp.simplify(sp.integrate(INTEGRAND, (u, 0, 1), conds="none"))


def _check_closed_form() -> tuple[bool, object]:
    value = dudley_integral()
    return tools.all_of(
        [
            ("value (p+2)/2", tools.equal(value, (p + 2) / 2)),
            ("p = 0 gives 1", tools.equal(value.subs(p, 0), sp.Integer(1))),
            ("p = 2 gives 2", tools.equal(value.subs(p, 2), sp.Integer(2))),
        ]
    )


def _check_integrable_exponent() -> tuple[bool, object]:
    # the integrand exponent p/(p+2) stays below 1 on [0, 2] (it is 1/2 at p = 2), so the integral converges.
    exponent = integrand_exponent()
    on_open = tools.sign_on_open_range(1 - exponent, p, positive=True)
    at_two = tools.equal(exponent.subs(p, 2), sp.Rational(1, 2))
    return tools.all_of([("1 - p/(p+2) > 0 on (0,2)", on_open), ("p = 2: 1/2 < 1", at_two)])


def _check_truncated() -> tuple[bool, object]:
    truncated = sp.integrate(u ** (-p / (p + 2)), (u, a, 1), conds="none")
    expected = (p + 2) / 2 * (1 - a ** (2 / (p + 2)))
    return tools.equal(sp.simplify(truncated), expected)


def _check_assembled_integral() -> tuple[bool, object]:
    # the assembled bound's Dudley step: (12/sqrt n) int_0^1 sqrt(E) u^{-1/2} du = 24 sqrt(E)/sqrt(n).
    value = 12 / sp.sqrt(n) * sp.integrate(sp.sqrt(E) * u ** sp.Rational(-1, 2), (u, 0, 1))
    return tools.equal(value, 24 * sp.sqrt(E) / sp.sqrt(n))


def _check_ramp() -> tuple[bool, object]:
    ramp = RAMP_LOSS.expr
    v = RAMP_LOSS.args[0]
    below = ramp.subs(v, -sp.Symbol("w", positive=True))
    inside = ramp.subs(v, margin / 3)
    above = ramp.subs(v, margin + sp.Symbol("w", positive=True))
    slope = sp.diff(ramp, v).subs(v, margin / 3)  # the derivative of RAMP_LOSS inside (0, margin)
    return tools.all_of(
        [
            ("ramp = 1 for u <= 0", (below == 1, below)),
            ("ramp in [0,1] inside", (inside == sp.Rational(2, 3), inside)),
            ("ramp = 0 beyond margin", (above == 0, above)),
            ("slope -1/margin", tools.equal(slope, -1 / margin)),
        ]
    )


def _control_ramp() -> tuple[bool, object]:
    # planted false: the ramp's slope inside (0, margin) is -2/margin
    ramp, v = RAMP_LOSS.expr, RAMP_LOSS.args[0]
    return tools.equal(sp.diff(ramp, v).subs(v, margin / 3), -2 / margin)


@functools.cache
def dudley_lemma() -> Lemma:
    """Step 7a: Dudley's entropy integral, closed form for entropy ~ eps^{-2p/(p+2)}."""
    entropy = sp.Function("logN")
    return Lemma(
        step=7,
        name="dudley_entropy_integral",
        title="Dudley's entropy integral in closed form",
        statement=(
            sp.Le(
                sp.Symbol("R_S(F)"),
                4 * a + 12 / sp.sqrt(n) * sp.Integral(sp.sqrt(entropy(u)), (u, a, 1)),
                evaluate=False,
            ),
            sp.Eq(sp.Integral(u ** (-p / (p + 2)), (u, 0, 1)), dudley_integral(), evaluate=False),
        ),
        assumptions=(
            "F takes values in [0, 1] and contains 0 (else add it: +ln 2 in the entropy)",
            "p in [0, 2]",
        ),
        tag=Tagged(Provenance.STANDARD, DUDLEY_SOURCE),
        checks=(
            Check("closed_form", "int_0^1 u^{-p/(p+2)} du = (p+2)/2", _check_closed_form),
            Check("finite_on_0_2", "the exponent p/(p+2) < 1 on [0, 2]", _check_integrable_exponent),
            Check("truncated_form", "int_a^1 = (p+2)/2 (1 - a^{2/(p+2)})", _check_truncated),
            Check(
                "assembled_integral",
                "(12/sqrt n) int sqrt(E) u^{-1/2} = 24 sqrt(E/n)",
                _check_assembled_integral,
            ),
        ),
    )


@functools.cache
def margin_lemma() -> Lemma:
    """Step 7b: the ramp-loss margin bound."""
    delta = sp.Symbol("delta", positive=True)
    return Lemma(
        step=7,
        name="margin_bound",
        title="Margin bound with the ramp loss",
        statement=(
            sp.Le(
                sp.Symbol("P(y f(x) <= 0)"),
                sp.Symbol("Rhat_ramp")
                + 2 * sp.Symbol("R_S(ramp o F)")
                + 3 * sp.sqrt(sp.log(2 / delta) / (2 * n)),
                evaluate=False,
            ),
            sp.Le(sp.Symbol("N_inf(ramp o F, u)"), sp.Symbol("N_inf(F, gamma_m u)"), evaluate=False),
        ),
        assumptions=(
            "labels y in {-1, +1}; margin gamma_m > 0 fixed before seeing the sample",
            "n i.i.d. samples",
        ),
        tag=Tagged(Provenance.STANDARD, MARGIN_SOURCE),
        checks=(
            Check(
                "ramp_properties",
                "RAMP_LOSS dominates the 0-1 loss and is (1/margin)-Lipschitz",
                _check_ramp,
                _control_ramp,
            ),
        ),
        notes="ln(2/delta) (Mohri's empirical-Rademacher form) rather than BFT's ln(1/delta): conservative.",
    )
