"""specbound growth agrees with `specbound theory --regimes` on every cell of the project's tables (each
cell's bound, as text, read back by the safe language and classified by the command), and --versus finds
the crossover depth with a proof above it and a witness just below it."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
from fractions import Fraction

import pytest
import sympy as sp

from paper_checks.cli import main
from theory import regimes
from theory.prover.language import parse_expression


@pytest.fixture(autouse=True, scope="module")
def _sympy_cache_left_empty():
    """sympy caches expressions by equality, and Symbol("N", positive=True) equals the --domain language's
    Symbol("N", real=True, positive=True): a cached sqrt(N) built here with the table's symbols would be
    handed to later tests that compare printed forms (srepr), so the module leaves the cache empty."""
    yield
    from sympy.core.cache import clear_cache

    clear_cache()


def _run(argv: list[str]) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main([*argv, "--json"])
    return status, json.loads(out.getvalue())


def _generic_branch(expr: sp.Expr) -> sp.Expr:
    """A geometric sum's Piecewise((L, Eq(exp(k rho), 1)), (closed form, True)) at rho > 0: exp(k rho) = 1
    only at rho = 0, so the closed form applies (asserted, not assumed)."""

    def branch(piecewise: sp.Piecewise) -> sp.Expr:
        for _, condition in piecewise.args[:-1]:
            assert isinstance(condition, sp.Eq) and condition.rhs == 1, condition
            (argument,) = condition.lhs.args
            assert isinstance(condition.lhs, sp.exp) and sp.simplify(argument / regimes.rho).is_nonzero
        assert piecewise.args[-1][1] is sp.true
        return piecewise.args[-1][0]

    return expr.replace(lambda e: isinstance(e, sp.Piecewise), branch)


def _read(text: str) -> sp.Expr:
    """A component the command printed, read back by the safe language (rho, p as the table has them)."""
    return parse_expression(text, {"rho": regimes.rho, "p": regimes.p})


def _same(found: str, expected: sp.Expr) -> bool:
    """The command's component (text) equals the table's (sympy)."""
    return sp.simplify(_read(found) - expected) == 0


@functools.cache  # the 32 cells ask some questions again (Edelman's width: 8 cells a regime); read only
def _class_of(text: str, variable: str, *assume: str) -> dict:
    argv = ["growth", text, "--in", variable]
    for entry in assume:
        argv += ["--assume", entry]
    status, document = _run(argv)
    assert status == 0, document
    return document["expressions"][0]


@functools.cache
def _depth_class(bound: str, assumption: str, p_value: int) -> dict:
    expr = _generic_branch(regimes.depth_bound(bound, assumption, sp.Integer(p_value)))
    return _class_of(sp.sstr(expr), "L", "rho: (0, oo)")


CELLS = [(r, b, a) for r in regimes.REGIMES for b in regimes.BOUNDS for a in regimes.ASSUMPTIONS]
"""Every cell's names, known before anything is derived (collecting the module derives nothing)."""


def test_the_cells_are_the_table_s_rows():
    assert [(row.regime, row.bound, row.assumption) for row in regimes.depth_table()] == CELLS


@pytest.mark.parametrize("cell", CELLS, ids="-".join)
def test_growth_agrees_with_every_cell_of_the_regimes_table(cell):
    row = regimes.row(*cell)
    fixed = _depth_class(row.bound, row.assumption, int(row.p))
    for part in ("rate", "power", "log_power"):
        assert _same(fixed[part], getattr(row.depth_growth, part)), (part, fixed, row.depth_growth)
    # post hoc: p = 0 is always available, so the post hoc class is the slower of (fixed p, p = 0)
    at_zero = _depth_class(row.bound, row.assumption, 0)
    slower = min(
        (fixed, at_zero),
        key=lambda c: tuple(float(_read(c[k]).subs(regimes.rho, 1)) for k in ("rate", "power", "log_power")),
    )
    for part in ("rate", "power", "log_power"):
        assert _same(slower[part], getattr(row.posthoc_depth_growth, part)), (part, slower)
    # width at L = 6, bounded alpha: the exponent of N at the regime's p, and Edelman's
    width = regimes.width_bound(row.regime, row.bound, row.p)
    assert _same(_class_of(sp.sstr(width), "N")["power"], row.width_exponent)
    edelman = regimes.width_bound(row.regime, "edelman_proxy", sp.Integer(0))
    assert _same(_class_of(sp.sstr(edelman), "N")["power"], row.edelman_width_exponent)


WIDTH_SMOKE = {("ours_l1", "power_law"), ("ours_l2", "frobenius")}
"""The fast tier's two width cells: both aggregations, one and two sub-ranges of p (0.4-0.8 CPU s each); the
other six cells (4.3 CPU s, 2.4 s of it ours_l2 / power_law) are the slow tier's."""


@pytest.mark.parametrize(
    ("bound", "regime"),
    [
        pytest.param(b, r, marks=() if (b, r) in WIDTH_SMOKE else pytest.mark.slow, id=f"{b}-{r}")
        for r in regimes.REGIMES
        for b in regimes.AGGREGATIONS
    ],
)
def test_growth_gives_the_post_hoc_width_exponent_as_the_infimum_over_p(bound, regime):
    """The post hoc width exponent: the exponent of N as a function of p (the command, p assumed in each
    sub-range of the regime) minimised over the range, and the p = 0 exponent: the smallest is the cell."""
    row = regimes.row(regime, bound, "bounded_alpha")
    candidates = [
        sp.sympify(_class_of(sp.sstr(regimes.width_bound(regime, bound, sp.Integer(0))), "N")["power"])
    ]
    p = sp.Symbol("p", positive=True)
    for low, high in ((0, sp.Rational(1, 2)), (sp.Rational(1, 2), 2)) if regime == "power_law" else ((0, 2),):
        branch = 0 if low >= sp.Rational(1, 2) else 1
        expr = regimes.width_bound(regime, bound, regimes.p).replace(
            lambda e: isinstance(e, sp.Piecewise), lambda e, b=branch: e.args[b][0]
        )
        power = _read(_class_of(sp.sstr(expr), "N", f"p: ({low}, {high})")["power"])
        candidates.append(sp.minimum(power, p, sp.Interval(low, high)))
    assert sp.simplify(sp.Min(*candidates) - row.posthoc_width_exponent) == 0


def test_versus_finds_the_crossover_depth_proved_above_and_refuted_below():
    pytest.importorskip("flint", reason="the prover needs python-flint")
    status, document = _run(
        [
            "growth",
            "100*sqrt(L)*log(L)^(1/2)",
            "--versus",
            "L^(3/2)",
            "--in",
            "L",
            "--integer",
            "--budget",
            "4",
        ]
    )
    assert status == 0 and document["faster"] == "L^(3/2)"
    crossing = document["crossover"]
    assert crossing["crossover"] == "234" and crossing["status"] in ("proved", "derived")
    assert crossing["refuted_below_at"]["point"] == {"L": "233"}
    # independently: 100 sqrt(L ln L) > L^(3/2) at 233 and < at 234 (floats far from the tie)
    assert 100 * math.sqrt(233 * math.log(233)) > 233**1.5
    assert 100 * math.sqrt(234 * math.log(234)) < 234**1.5


def test_versus_with_no_crossover_and_a_bad_expression():
    pytest.importorskip("flint", reason="the prover needs python-flint")
    status, document = _run(
        ["growth", "sqrt(L)*log(L)^(1/2)", "--versus", "L^(3/2)", "--in", "L", "--budget", "4"]
    )
    assert status == 0 and document["crossover"]["crossover"] is None
    assert document["crossover"]["status"] in ("proved", "derived")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["growth", "L^q", "--in", "L"]) == 2
    assert len(err.getvalue().strip().splitlines()) == 1 and "q" in err.getvalue()


def test_the_variable_and_bounded_parameters_carry_the_domain_languages_assumptions():
    """Regression: the command made Symbol("N", positive=True), which sympy's cache confuses with the
    --domain language's Symbol("N", real=True, positive=True) (equal, printed differently)."""
    from theory.growth import read_question

    question = read_question("alpha * N", "N", ("alpha: bounded",))
    assert sp.srepr(question.variable) == "Symbol('N', real=True, positive=True)"
    (alpha,) = question.expr.free_symbols - {question.variable}
    assert sp.srepr(alpha) == "Symbol('alpha', real=True, positive=True)"


def _text(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(argv)
    return status, out.getvalue()


def test_a_crossover_beyond_two_to_the_64_is_found_and_proved():
    """(ln L)^3 <= L^(1/4) from L = e^u0 on, u0 the larger root of u^3 = e^(u/4) (mpmath, 30 digits)."""
    pytest.importorskip("flint", reason="the prover needs python-flint")
    import mpmath

    with mpmath.workdps(30):
        u0 = mpmath.findroot(lambda u: 3 * mpmath.log(u) - u / 4, 46)
    status, document = _run(["growth", "log(L)^3", "--versus", "L^(1/4)", "--in", "L", "--budget", "4"])
    crossing = document["crossover"]
    assert status == 0 and crossing["outcome"] == "crossover"
    assert abs(crossing["crossover_approx"] / float(mpmath.exp(u0)) - 1) < 1e-6


@pytest.mark.parametrize(
    ("lower", "upper", "flags", "bad"),
    [
        ("3*L + 5", "2*L", [], lambda L: 3 * L + 5 > 2 * L),
        ("ceiling(L/10)*10", "L + 5", ["--integer"], lambda L: -(-L // 10) * 10 > L + 5),
    ],
)
def test_no_for_every_sentence_when_no_crossover_exists(lower, upper, flags, bad):
    """Both claims fail arbitrarily far out (3L + 5 > 2L everywhere; the ceiling at every L = 10k + 1):
    the outcome is refuted at a point where the claim fails (checked in exact integers), never "for every"."""
    pytest.importorskip("flint", reason="the prover needs python-flint")
    argv = ["growth", lower, "--versus", upper, "--in", "L", *flags, "--budget", "2"]
    status, text = _text(argv)
    assert status == 3 and "for every" not in text and "no crossover found" in text
    status, document = _run(argv)
    crossing = document["crossover"]
    assert crossing["outcome"] == "refuted" and crossing["crossover"] is None
    point = Fraction(crossing["witness"]["point"]["L"])
    assert point.denominator == 1 and bad(point.numerator)


@pytest.mark.parametrize(
    ("text", "power", "log_power"),
    [
        ("(L+1)^2 - L^2", 1, 0),  # 2L + 1 by hand
        ("sqrt(L^2 + L) - L", 0, 0),  # L / (sqrt(L^2 + L) + L) -> 1/2
        ("sqrt(L + 1) - sqrt(L)", sp.Rational(-1, 2), 0),  # 1 / (sqrt(L + 1) + sqrt(L)) ~ L^(-1/2) / 2
        ("floor(log(L))*L", 1, 1),  # ln L - 1 < floor(ln L) <= ln L
    ],
)
def test_cancelling_sums_and_floors_get_their_class(text, power, log_power):
    from theory.growth import read_question

    cls = read_question(text, "L").growth()
    assert (cls.rate, cls.power, cls.log_power) == (0, power, log_power)


@pytest.mark.parametrize("text", ["L - sqrt(L^2 + 1)", "-L", "L^2 - (L + 1)^2"])
def test_eventually_negative_expressions_have_no_class(text):
    """-1 / (L + sqrt(L^2 + 1)), -L and -2L - 1 are negative for every L >= 1 (by hand)."""
    from theory.growth import GrowthUndecided, read_question

    with pytest.raises(GrowthUndecided):
        read_question(text, "L").growth()


@pytest.mark.parametrize(
    ("text", "rate", "power"),
    [
        ("2^ceiling(log(L)/log(2))", 0, 1),  # L <= 2^ceiling(log2 L) < 2 L
        ("(1/2)^ceiling(L)", -sp.log(2), 0),  # 2^-L / 2 < 2^-ceiling(L) <= 2^-L
        ("4^(3*floor(L/2))", sp.log(8), 0),  # 8^L / 64 < 4^(3 floor(L/2)) <= 8^L
    ],
)
def test_a_power_of_a_rounded_exponent_has_the_class_of_the_unrounded_one(text, rate, power):
    from theory.growth import read_question

    cls = read_question(text, "L").growth()
    assert sp.simplify(cls.rate - rate) == 0 and (cls.power, cls.log_power) == (power, 0)
