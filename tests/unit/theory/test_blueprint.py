"""theory.blueprint and theorem_3_1.v: the graph's counts and references, docs/blueprint.md's picture, and
fidelity: every node proved in theorem_3_1.v, and each cited premise it assumes, states in Coq the
inequality its sympy statement states (both sides compared at random points, the Coq side read by
tests/helpers/coq_reader.py and evaluated with mpmath, the sympy side evaluated by sympy at 35 digits), and
planted changes are caught."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import mpmath as mp
import pytest
import sympy as sp

from tests.helpers import coq_reader
from tests.helpers.paths import ROOT
from theory import assembled, blueprint, margin_union
from theory.paper_proofs.theorem_3_1 import PREMISES, theorem_text

POINTS = 8
TOLERANCE = mp.mpf(10) ** -20
pytestmark = pytest.mark.mp_digits(40)


def _node(name: str) -> blueprint.Node:
    (node,) = [n for n in blueprint.nodes() if n.id == name]
    return node


def _value(expr: sp.Basic, values: dict[Any, Any]) -> mp.mpf:
    done = sp.sympify(expr).subs(values).doit().subs(values)
    return mp.mpf(str(sp.N(done, 35)))


def test_counts_and_references() -> None:
    counts = blueprint.counts()
    assert counts["unchecked"] == 0 and counts["kernel-checked"] >= 10 and 1 <= counts["cited"] <= 6
    for node in blueprint.nodes():
        assert node.status in blueprint.STATUSES and node.reference
        if node.status == blueprint.CITED:
            assert re.search(r"(19|20)\d\d", node.reference) and re.search(
                r"(Theorem|Lemma) \S", node.reference
            )
        else:
            assert node.coq is not None and node.coq["file"].endswith(".v")
        assert set(node.depends_on) <= {n.id for n in blueprint.nodes()}


def test_every_file_lemma_exists_and_every_premise_is_a_cited_node() -> None:
    text = theorem_text()
    for node in blueprint.nodes():
        if node.coq is not None and node.coq["file"] == blueprint.THEOREM_FILE:
            named = node.coq.get("lemma") or node.coq["hypothesis"]
            assert re.search(rf"(Lemma|Theorem|Corollary|Hypothesis) {named}\b", text), named
    hypotheses = re.findall(r"^Hypothesis (\w+)", text, re.M)
    assert tuple(hypotheses) == PREMISES
    cited = {n.coq["hypothesis"]: n for n in blueprint.nodes() if n.coq and "hypothesis" in n.coq}
    assert set(cited) == set(hypotheses)  # one Hypothesis per cited node, nothing else assumed
    assert all(node.status == blueprint.CITED for node in cited.values())
    assert {n.id for n in blueprint.nodes() if n.status == blueprint.CITED} == {n.id for n in cited.values()}
    assert not re.search(r"\b(Admitted|admit|Axiom|Parameter|Conjecture)\b", text)


def test_docs_picture_is_the_generated_one() -> None:
    docs = (ROOT / "docs" / "blueprint.md").read_text(encoding="utf-8")
    assert blueprint.markdown_graph() in docs


def test_json_is_serialisable() -> None:
    document = json.loads(json.dumps(blueprint.to_json()))
    assert len(document["nodes"]) == len(blueprint.nodes())
    assert {"id", "statement", "provenance", "status", "reference", "coq", "depends_on"} <= set(
        document["nodes"][0]
    )


# Fidelity: one sampler per node of theorem_3_1.v: (Coq environment, sympy substitution) at a random point.
Sample = tuple[dict[str, Any], dict[Any, Any]]


def _ramp(rng: random.Random) -> Sample:
    margin_value = rng.uniform(0.05, 1)
    s_value, t_value = rng.uniform(-0.5, 1.5), rng.uniform(-0.5, 1.5)
    coq = {"margin": mp.mpf(margin_value), "s": mp.mpf(s_value), "t": mp.mpf(t_value)}
    coq.update(coq_reader.definitions(theorem_text()))
    sym_s, sym_t = sp.symbols("s t", real=True)
    return coq, {
        assembled.margin: sp.Float(margin_value, 30),
        sym_s: sp.Float(s_value, 30),
        sym_t: sp.Float(t_value, 30),
    }


def _eps(rng: random.Random) -> Sample:
    k = rng.randint(1, 7)
    cs = [rng.uniform(0.1, 5) for _ in range(k)]
    margin_value, u_value = rng.uniform(0.05, 1), rng.uniform(0.01, 1)
    coq = {"K": k, "c": lambda index: mp.mpf(cs[index]), "r": mp.mpf(margin_value) * mp.mpf(u_value)}
    sym = {
        assembled.K: k,
        assembled.margin: sp.Float(margin_value, 30),
        blueprint.u_unit: sp.Float(u_value, 30),
    }
    sym.update({blueprint.c[index]: sp.Float(value, 30) for index, value in enumerate(cs)})
    return coq, sym


def _telescoping(rng: random.Random) -> Sample:
    k = rng.randint(1, 6)
    cs = [rng.uniform(0.1, 5) for _ in range(k)]
    ds = [rng.uniform(0, 2) for _ in range(k)]
    f_theta, f_other = rng.uniform(-3, 3), rng.uniform(-3, 3)
    coq = {
        "K": k,
        "c": lambda index: mp.mpf(cs[index]),
        "th": lambda index: ("th", index),
        "th'": lambda index: ("th'", index),
        "x": None,
        "f": lambda network, _x: mp.mpf(f_theta if network("probe")[0] == "th" else f_other),
        "dm": lambda index, _a, _b: mp.mpf(ds[index]),
    }
    sym = {assembled.K: k, blueprint.f_value: sp.Float(f_theta, 30), blueprint.f_cover: sp.Float(f_other, 30)}
    sym.update({blueprint.c[index]: sp.Float(value, 30) for index, value in enumerate(cs)})
    sym.update({blueprint.dist[index]: sp.Float(value, 30) for index, value in enumerate(ds)})
    return coq, sym


def _composition(rng: random.Random) -> Sample:
    k = rng.randint(1, 5)
    sizes = [rng.randint(1, 9) for _ in range(k)]
    coq = {"k": k, "C": lambda index: [None] * sizes[index]}
    sym = {assembled.K: k, **{blueprint.size[index]: sizes[index] for index in range(k)}}
    return coq, sym


def _power(rng: random.Random) -> Sample:
    u_value, q_value = rng.uniform(0.01, 1), rng.uniform(0, 1)
    return {"u": mp.mpf(u_value), "q": mp.mpf(q_value)}, {
        blueprint.u_unit: sp.Float(u_value, 30),
        blueprint.q: sp.Float(q_value, 30),
    }


def _integral(rng: random.Random) -> Sample:
    a_value = rng.uniform(0.01, 1)
    return {"a": mp.mpf(a_value)}, {blueprint.a: sp.Float(a_value, 30)}


def _peeling(rng: random.Random) -> Sample:
    j_value = rng.randint(0, 12)
    return {"J": j_value}, {blueprint.J: j_value}


def _grid(rng: random.Random) -> Sample:
    m_value, k_value = rng.randint(1, 20), rng.randint(1, 40)
    return {"m": m_value, "K": k_value}, {assembled.m: m_value, assembled.K: k_value}


def _confidence(rng: random.Random) -> Sample:
    d, g, w = rng.uniform(0.001, 0.5), rng.uniform(1, 1e6), rng.uniform(1e-6, 1)
    coq = {"delta": mp.mpf(d), "G": mp.mpf(g), "W": mp.mpf(w)}
    return coq, {assembled.delta: sp.Float(d, 30), blueprint.G: sp.Float(g, 30), blueprint.W: sp.Float(w, 30)}


def _theorem(rng: random.Random) -> Sample:
    """GAP_TERM's symbols at random; the Coq side gets sum_i B_i = Lambda Sigma (B_i = Lambda MATRIX_TERM_i)
    and the peeling weights' product W = exp(-P)."""
    k, m_value = rng.randint(1, 30), rng.randint(1, 12)
    sym = {
        assembled.n: rng.randint(2, 10**6),
        assembled.T: rng.randint(1, 512),
        assembled.delta: sp.Float(rng.uniform(0.001, 0.5), 30),
        assembled.margin: sp.Float(rng.uniform(0.05, 1), 30),
        assembled.m: m_value,
        assembled.K: k,
        assembled.N_max: rng.randint(1, 4096),
        assembled.Q: sp.Float(rng.uniform(0.1, 100), 30),
        assembled.P_peel: sp.Float(rng.uniform(0, 200), 30),
        assembled.Sigma: sp.Float(rng.uniform(0, 1e6), 30),
        sp.Symbol("P_err", nonnegative=True): sp.Float(rng.uniform(0, 1), 30),
        sp.Symbol("Rhat_ramp", nonnegative=True): sp.Float(rng.uniform(0, 1), 30),
    }
    lam = _value(assembled.LOG_FACTOR.expr, sym)
    total = lam * mp.mpf(str(sym[assembled.Sigma]))
    coq = {
        "Risk": mp.mpf(str(sym[sp.Symbol("P_err", nonnegative=True)])),
        "EmpRamp": mp.mpf(str(sym[sp.Symbol("Rhat_ramp", nonnegative=True)])),
        "n": mp.mpf(sym[assembled.n]),
        "delta0": mp.mpf(str(sym[assembled.delta])),
        "K": k,
        "m": m_value,
        "W": mp.exp(-mp.mpf(str(sym[assembled.P_peel]))),
        "B": lambda _index: total / k,
    }
    return coq, sym


def _margin(rng: random.Random) -> Sample:
    values = [
        rng.uniform(0, 1),
        rng.uniform(0, 1),
        rng.uniform(0, 1),
        rng.uniform(1e-4, 0.5),
        rng.randint(1, 10**6),
    ]
    risk, empirical, rad, d, n_value = values
    coq = {"Risk": risk, "EmpRamp": empirical, "Rad": rad, "delta": d, "n": n_value}
    node = _node("margin_bound").statement
    (risk_symbol,) = node.lhs.free_symbols
    rademacher = sp.Symbol("R_S", nonnegative=True)
    empirical_symbol = sp.Symbol("Rhat_ramp", nonnegative=True)
    sym = {
        risk_symbol: risk,
        empirical_symbol: empirical,
        rademacher: rad,
        assembled.delta: d,
        assembled.n: n_value,
    }
    return {k: mp.mpf(v) for k, v in coq.items()}, {k: sp.Float(v, 30) for k, v in sym.items()}


def _dudley(rng: random.Random) -> Sample:
    """Dudley's conclusion with the majorant h(u) = b0 + b1 u^(-1/2): the node's I_a is its integral."""
    b0, b1, a_value, rad, n_value = (
        rng.uniform(0, 2),
        rng.uniform(0, 5),
        rng.uniform(0.01, 1),
        rng.uniform(0, 1),
        rng.randint(1, 10**6),
    )
    integral = mp.mpf(b0) * (1 - mp.mpf(a_value)) + mp.mpf(b1) * (2 - 2 * mp.sqrt(mp.mpf(a_value)))
    coq = {
        "Rad": mp.mpf(rad),
        "a": mp.mpf(a_value),
        "n": mp.mpf(n_value),
        "h": lambda u: b0 + b1 / mp.sqrt(u),
    }
    sym = {sp.Symbol("R_S", nonnegative=True): rad, blueprint.a: a_value, assembled.n: n_value}
    exact = {k: sp.Float(v, 30) for k, v in sym.items()}
    exact[sp.Symbol("I_a", nonnegative=True)] = sp.Float(mp.nstr(integral, 38), 38)
    return coq, exact


def _covers(rng: random.Random) -> Sample:
    """Cited cover sizes and the head/tail split: a cover of some size, the two cited bounds' arguments."""
    size = rng.randint(1, 10**6)
    values = {
        "d1": rng.randint(1, 4096),
        "d2": rng.randint(1, 4096),
        "k": rng.randint(1, 64),
        "M": rng.randint(1, 10**5),
        "R0": rng.uniform(0.1, 50),
        "aw": rng.uniform(0.1, 50),
        "bx": rng.uniform(0.1, 10),
        "e": rng.uniform(0.01, 2),
        "e1": rng.uniform(0.01, 2),
        "e2": rng.uniform(0.01, 2),
    }
    coq = {name: mp.mpf(value) for name, value in values.items()} | {"L": [None] * size}
    symbols = {
        "d1": blueprint.d1,
        "d2": blueprint.d2,
        "k": blueprint.rank,
        "M": blueprint.points,
        "R0": blueprint.radius,
        "aw": blueprint.a_w,
        "bx": blueprint.b_x,
        "e": blueprint.eps,
        "e1": blueprint.eps_head,
        "e2": blueprint.eps_tail,
    }
    sym: dict[Any, Any] = {symbols[name]: sp.Float(value, 30) for name, value in values.items()}
    sym[blueprint.log_head] = sym[blueprint.log_matrix] = sp.log(size)
    sym[blueprint.log2_tail] = sp.log(size, 2)
    return coq, sym


def _margin_union(rng: random.Random) -> Sample:
    """The assembled bound's sample at a dyadic margin 2^-k: Lambda (hence B_i) recomputed at 2^-k, the
    shell index k on both sides."""
    coq, sym = _theorem(rng)
    shell = rng.randint(0, 20)
    sym[margin_union.k] = shell
    sym[assembled.margin] = sp.Rational(1, 2**shell)
    total = _value(assembled.LOG_FACTOR.expr, sym) * mp.mpf(str(sym[assembled.Sigma]))
    coq.update({"k": shell, "B": lambda _index: total / coq["K"]})
    return coq, sym


FIDELITY: dict[str, tuple[str, Callable[[random.Random], Sample]]] = {
    "candes_plan": ("candes_plan", _covers),
    "zhang_maurey": ("zhang", _covers),
    "head_tail_split": ("head_tail_cover", _covers),
    "margin_bound": ("margin_bound", _margin),
    "dudley": ("dudley", _dudley),
    "ramp_lipschitz": ("ramp_lipschitz", _ramp),
    "telescoping": ("telescoping", _telescoping),
    "eps_allocation": ("eps_allocation", _eps),
    "cover_composition": ("ln_nprod", _composition),
    "entropy_exponent": ("entropy_power_bound", _power),
    "dudley_integral": ("dudley_integral_closed_form", _integral),
    "peeling_weights": ("peeling_weights_partial_sum", _peeling),
    "grid_count": ("grid_count", _grid),
    "union_bound": ("confidence_split", _confidence),
    "theorem_3_1": ("theorem_3_1_posthoc", _theorem),
    "margin_union": ("theorem_3_1_margin_union", _margin_union),
}
RELATION = {sp.LessThan: "<=", sp.StrictLessThan: "<", sp.Equality: "="}


def _mismatch(
    text: str, node: blueprint.Node, lemma: str, sampler: Callable[[random.Random], Sample]
) -> str | None:
    """Why the Coq lemma and the node's sympy statement differ at some random point (None: they agree)."""
    relation, left, right = coq_reader.conclusion(text, lemma)
    statement = node.statement
    if RELATION[type(statement)] != relation:
        return f"relation {relation} vs {type(statement).__name__}"
    rng = random.Random(f"{node.id}-fidelity")
    for _ in range(POINTS):
        coq, sym = sampler(rng)
        for name, coq_side, sym_side in (("left", left, statement.lhs), ("right", right, statement.rhs)):
            got, expected = mp.mpf(coq_side(coq)), _value(sym_side, sym)
            if abs(got - expected) > TOLERANCE * max(1, abs(expected)):
                return f"{name} side: Coq {mp.nstr(got, 15)} vs sympy {mp.nstr(expected, 15)}"
    return None


@pytest.mark.parametrize("node_id", sorted(FIDELITY))
def test_coq_statement_is_the_registry_statement(node_id: str) -> None:
    lemma, sampler = FIDELITY[node_id]
    node = _node(node_id)
    assert node.coq is not None and node.coq["file"] == blueprint.THEOREM_FILE
    assert lemma in (node.coq.get("lemma"), node.coq.get("hypothesis"))
    assert _mismatch(theorem_text(), node, lemma, sampler) is None


def test_proper_cover_radius_is_the_factor_of_the_registry() -> None:
    conclusion = coq_reader.statement(theorem_text(), "proper_cover").split("->")[-1]
    radius = re.search(r"d a x <= ([^)]*)\)", conclusion).group(1)  # type: ignore[union-attr]
    r_value = mp.mpf("0.37")
    (value,) = [coq_reader._Parser(radius).sum()({"r": r_value})]
    assert value == assembled.PROPER_COVER_FACTOR * r_value


PLANTED = [
    (
        "theorem_3_1",
        "theorem_3_1_posthoc",
        "48 * sqrt (rsum B K)",
        "47 * sqrt (rsum B K)",
    ),  # constant tightened
    ("theorem_3_1", "theorem_3_1_posthoc", "+ ln (/ W)) / (2 * n)", ") / (2 * n)"),
    ("union_bound", "confidence_split", "ln (2 / delta) + ln G", "ln (1 / delta) + ln G"),
    (
        "peeling_weights",
        "peeling_weights_partial_sum",
        "1 - 4 / (3 * (INR J + 2))",
        "1 - 4 / (3 * (INR J + 3))",
    ),
    ("dudley_integral", "dudley_integral_closed_form", "= 2 - 2 * sqrt a", "= 2 - sqrt a"),
    ("eps_allocation", "eps_allocation", "(r / (INR K * c i))", "(r / (c i))"),
    ("margin_bound", "margin_bound", "2 * Rad + 3 * sqrt", "Rad + 3 * sqrt"),
    ("dudley", "dudley", "Rad <= 4 * a + 12", "Rad <= 4 * a + 6"),
    ("candes_plan", "candes_plan", "ln (9 * R0 / e)", "ln (3 * R0 / e)"),
    ("zhang_maurey", "zhang", "(Raux.Zceil (36 *", "(Raux.Zceil (9 *"),
    (
        "margin_union",
        "theorem_3_1_margin_union",
        "+ ln (3 / 2 * ((INR k + 1) * (INR k + 2)))) / (2 * n)",
        "+ ln (3 / 4 * ((INR k + 1) * (INR k + 2)))) / (2 * n)",
    ),  # the union's cost understated
    (
        "head_tail_split",
        "head_tail_cover",
        "IZR (Raux.Zceil (4 * aw * bx / e2 + 2)) * INR M + 1)",
        "INR M + 1)",
    ),
]


@pytest.mark.parametrize(("node_id", "lemma", "old", "new"), PLANTED)
def test_planted_change_in_coq_is_caught(node_id: str, lemma: str, old: str, new: str) -> None:
    text = theorem_text()
    assert old in text
    assert _mismatch(text.replace(old, new), _node(node_id), lemma, FIDELITY[node_id][1]) is not None


def test_planted_change_in_registry_is_caught() -> None:
    """A registry whose confidence term forgets the factor 3, and peeling weights summing to more."""
    node = _node("theorem_3_1")
    risk, empirical = node.statement.lhs, node.statement.rhs
    weakened = replace(node, statement=sp.Le(risk, empirical - assembled.CONFIDENCE_TERM.expr / 3))
    assert _mismatch(theorem_text(), weakened, "theorem_3_1_posthoc", _theorem) is not None
    peeling = _node("peeling_weights")
    heavier = replace(peeling, statement=sp.Eq(peeling.statement.lhs * 2, peeling.statement.rhs))
    assert _mismatch(theorem_text(), heavier, "peeling_weights_partial_sum", _peeling) is not None


# theory.margin_union's deterministic parts against the lemmas of theorem_3_1.v that prove them.
MARGIN_WEIGHTS = "2 / 3 * (1 - / (INR K + 2))"


def _weights_mismatch(text: str) -> str | None:
    """margin_weights_partial_sum against theory.margin_union's weights: at each K the Coq sum and its
    closed form equal sympy's finite sum of the union's weight exp(-PEEL_COST(k)), and the closed form
    tends to the union's total (sum over every k >= 0, 2/3)."""
    relation, left, right = coq_reader.conclusion(text, "margin_weights_partial_sum")
    union, _, _ = margin_union.lemma().statement
    weight, (index, _, _) = union.lhs.function, union.lhs.limits[0]
    for shells in range(12):
        expected = _value(sp.summation(weight, (index, 0, shells)), {})
        for side_name, side in (("sum", left), ("closed form", right)):
            got = side({"K": shells})
            if abs(got - expected) > TOLERANCE:
                return f"{side_name} at K = {shells}: Coq {mp.nstr(got, 15)} vs sympy {mp.nstr(expected, 15)}"
    far = right({"K": mp.mpf(10) ** 30})
    if relation != "=" or abs(far - _value(union.rhs, {})) > mp.mpf(10) ** -25:
        return f"{relation}; the closed form tends to {mp.nstr(far, 15)}, the union's total is {union.rhs}"
    return None


def test_margin_union_weights_are_the_registry_weights() -> None:
    assert _weights_mismatch(theorem_text()) is None
    planted = theorem_text().replace(MARGIN_WEIGHTS, "2 / 3 * (1 - / (INR K + 3))")
    assert _weights_mismatch(planted) is not None


def test_ramp_margin_monotone_is_the_registry_difference() -> None:
    """ramp g t - ramp g' t (Coq, g' = g + d) is theory.margin_union's ramp difference -t d/(g (g + d)) on
    (0, g), both 0 beyond g', and the Coq relation is <= (the difference is <= 0)."""
    relation, left, right = coq_reader.conclusion(theorem_text(), "ramp_margin_monotone")
    _, difference, _ = margin_union.lemma().statement
    assert relation == "<="
    ramp = coq_reader.definitions(theorem_text())["ramp"]
    rng = random.Random("ramp-margin-monotone")
    for _ in range(POINTS):
        g, d = mp.mpf(rng.uniform(0.01, 1)), mp.mpf(rng.uniform(0, 1))
        environment = {"g": g, "g'": g + d, "ramp": ramp}
        for t, expected in (
            (g * mp.mpf(rng.uniform(0.01, 0.99)), None),
            (g + d + mp.mpf(rng.uniform(0.01, 1)), mp.mpf(0)),
        ):
            got = left({**environment, "t": t}) - right({**environment, "t": t})
            if expected is None:
                values = {margin_union.u: t, margin_union.smaller: g, margin_union.excess: d}
                expected = _value(
                    difference.rhs, {key: sp.Float(mp.nstr(v, 35), 35) for key, v in values.items()}
                )
            assert abs(got - expected) <= TOLERANCE and got <= 0


def test_dyadic_margin_bracket_is_the_registry_shell() -> None:
    """dyadic_margin_bracket's 2^-ceil(log2(1/g)) is theory.margin_union's MARGIN_SHELL at
    MARGIN_SHELL_INDEX, bracketed by g/2 < . <= g at random margins in (0, 1]."""
    (low, half, shell_low), (high, shell_high, gamma) = coq_reader.conjuncts(
        theorem_text(), "dyadic_margin_bracket"
    )
    assert (low, high) == ("<", "<=")
    shell = margin_union.MARGIN_SHELL.expr.subs(assembled.j, margin_union.MARGIN_SHELL_INDEX.expr)
    rng = random.Random("dyadic-margin-bracket")
    for _ in range(POINTS):
        g = rng.uniform(1e-6, 1)
        expected = _value(shell, {assembled.margin: sp.Float(g, 30)})
        environment = {"g": mp.mpf(g)}
        assert half(environment) == mp.mpf(g) / 2 and gamma(environment) == mp.mpf(g)
        for side in (shell_low, shell_high):
            assert abs(side(environment) - expected) <= TOLERANCE * expected


def test_cli_blueprint_json_and_text(capsys) -> None:
    from paper_checks.cli import main

    assert main(["theory", "--blueprint", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["counts"] == blueprint.counts() and document["counts"]["unchecked"] == 0
    assert main(["theory", "--blueprint"]) == 0
    text = capsys.readouterr().out
    assert all(f"] {node.id}  (" in text for node in blueprint.nodes())
    assert max(map(len, text.splitlines())) <= 100


def test_cli_coq_refuses_to_replace_theorem_file_without_force(tmp_path, capsys) -> None:
    from paper_checks.cli import main

    (tmp_path / blueprint.THEOREM_FILE).write_text("mine", encoding="utf-8")
    assert main(["theory", "--no-prove", "--coq", str(tmp_path), "--no-coq-check", "--quiet"]) == 2
    error = capsys.readouterr().err
    assert blueprint.THEOREM_FILE in error and "already exists" in error and len(error.splitlines()) == 1
    assert (tmp_path / blueprint.THEOREM_FILE).read_text(encoding="utf-8") == "mine"


def test_cli_blueprint_with_coq_is_refused(tmp_path, capsys) -> None:
    from paper_checks.cli import main

    assert main(["theory", "--blueprint", "--coq", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert "--blueprint" in captured.err and len(captured.err.splitlines()) == 1 and not captured.out
    assert not list(tmp_path.iterdir())


def test_coq_counts_leave_the_theorem_file_to_its_own_line() -> None:
    """Under --no-prove --coq only theorem_3_1.v is written: the registry's counts are all 0."""
    from paper_checks.commands.theory import _coq_counts

    theorem = {"coq": "accepted", "file": "DIR/theorem_3_1.v"}
    registry = {"coq": "accepted", "file": "DIR/grid.v"}
    assert _coq_counts({"theorem_3_1": [theorem]}) == {
        "statements": 0,
        "files": 0,
        **dict.fromkeys(_statuses(), 0),
    }
    counts = _coq_counts({"theorem_3_1": [theorem], "grid": [registry]})
    assert (counts["statements"], counts["files"], counts["accepted"]) == (1, 1, 1)


def _statuses() -> tuple[str, ...]:
    from theory.prover.coq.report import STATUSES

    return tuple(STATUSES)
