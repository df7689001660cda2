"""Chain proofs (theory.prover.chain, re-checked by theory.prover.kernel.chain): Theorem 4.1's statement
decided over its whole domain, the chain certificate re-checked by the kernel from its JSON (no sympy),
tampering rejected, planted false variants refuted or left open."""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from theory import interpolation as thm
from theory.prover import chain as ch
from theory.prover.domain import parse_domain
from theory.prover.language import to_tree
from theory.prover.lemma_inequalities import LEMMA_BUDGET_SECONDS
from theory.prover.statement import Inequality, parse_statement

# --- a small chain: (1 + a)(a - min(a, b)) + (a + b)(ceil(b) - b) >= 0 over a, b > 0 -----------------------


def _gap(text: str, domain: str) -> tuple[Inequality, object]:
    parsed = parse_domain(domain)
    return parse_statement(f"{text} >= 0", parsed).inequalities[0], parsed


def _small_chain() -> ch.Chain:
    domain = parse_domain("a: (0, oo), b: (0, oo)")
    a, b = (domain.symbols()[n] for n in ("a", "b"))
    gap = (1 + a) * (a - sp.Min(a, b)) + (a + b) * (sp.ceiling(b) - b)
    below, below_domain = _gap("x - Min(x, y)", "x: (0, oo), y: (0, oo)")
    up, up_domain = _gap("ceiling(z) - z", "z: (0, oo)")
    pieces = (
        ch.Piece("min_below_first", 1 + a, below, below_domain, {"x": a, "y": b}),
        ch.Piece("ceiling_above", a + b, up, up_domain, {"z": b}),
    )
    return ch.Chain(Inequality("small", gap, False), domain, pieces)


@pytest.fixture(scope="module")
def small_certificate() -> dict:
    result = ch.prove_chain(_small_chain())
    assert result.status == "proved", result.reason
    certificate = result.certificate()
    assert certificate is not None
    return certificate


def test_small_chain_is_proved_and_its_certificate_rechecks(small_certificate):
    report = ch.check_chain(small_certificate)
    assert report.accepted, report.reason


def test_a_box_removed_from_a_piece_certificate_is_rejected(small_certificate):
    tampered = copy.deepcopy(small_certificate)
    tampered["pieces"][0]["certificate"]["boxes"].pop()
    report = ch.check_chain(tampered)
    assert not report.accepted and "min_below_first" in report.reason


def test_a_changed_factor_breaks_the_identity(small_certificate):
    tampered = copy.deepcopy(small_certificate)
    a = parse_domain("a: (0, oo)").symbols()["a"]
    tampered["pieces"][0]["factor"] = to_tree(1 + a + sp.Rational(1, 10**6))
    report = ch.check_chain(tampered)
    assert not report.accepted and "identity" in report.reason


def test_a_factor_of_unknown_sign_is_rejected(small_certificate):
    tampered = copy.deepcopy(small_certificate)
    symbols = parse_domain("a: (0, oo), b: (0, oo)").symbols()
    tampered["pieces"][0]["factor"] = to_tree(symbols["a"] - symbols["b"])
    report = ch.check_chain(tampered)
    assert not report.accepted and "factor is not shown >= 0" in report.reason


@pytest.mark.parametrize("shift", [sp.Rational(1, 10**6), -sp.Rational(1, 10**6)])
def test_a_moved_constant_in_a_piece_is_rejected(small_certificate, shift):
    # up: the piece still holds but no longer sums to the statement; down: the piece is false, its
    # certificate no longer checks.
    tampered = copy.deepcopy(small_certificate)
    x, y = (parse_domain("x: (0, oo), y: (0, oo)").symbols()[n] for n in ("x", "y"))
    tampered["pieces"][0]["certificate"]["gap"] = to_tree(x - sp.Min(x, y) + shift)
    assert not ch.check_chain(tampered).accepted


def test_a_false_ceiling_piece_is_not_accepted(small_certificate):
    # z + 2/3 - ceiling(z) >= 0 is false (z = 1/2): its forged certificate (the true boxes) is rejected
    tampered = copy.deepcopy(small_certificate)
    z = parse_domain("z: (0, oo)").symbols()["z"]
    tampered["pieces"][1]["certificate"]["gap"] = to_tree(z + sp.Rational(2, 3) - sp.ceiling(z))
    report = ch.check_chain(tampered)
    assert not report.accepted and "ceiling_above" in report.reason


def test_the_ceiling_pieces_take_the_change_of_variables_and_their_near_misses_are_refuted():
    from theory.prover import prove

    for fact in ("ceiling(z) >= z", "ceiling(z) <= z + 1"):
        result = prove(fact, "z: (0, oo)", budget_seconds=10)
        assert result.status == "proved"
        (box,) = result.parts[0].certificate.to_json()["boxes"]
        assert box["decision"]["method"] == "substitute"
    for near_miss in ("ceiling(z) >= z + 1/1000000", "ceiling(z) <= z + 999999/1000000"):
        assert prove(near_miss, "z: (0, oo)", budget_seconds=10).status == "refuted"


def test_a_v1_chain_certificate_is_malformed(small_certificate):
    old = {**small_certificate, "format": "specbound-chain-certificate/1"}
    with pytest.raises(ch.InvalidChain):
        ch.check_chain(old)


def test_a_substitution_outside_the_piece_domain_is_rejected():
    chain = _small_chain()
    a = chain.domain.symbols()["a"]
    moved = dataclasses.replace(chain.pieces[0], substitution={"x": a - 1, "y": a})
    failure = ch.structural_failure(dataclasses.replace(chain, pieces=(moved, chain.pieces[1])))
    assert failure is not None and "min_below_first" in failure and "values of x" in failure


# --- Theorem 4.1 ------------------------------------------------------------------------------------------


def test_head_log_piece_is_the_registered_log_factor_statement_and_an_exact_reduction():
    from theory.paper_proofs.inequalities import all_lemma_inequalities

    (entry,) = [e for e in all_lemma_inequalities() if e.name == "log_factor_dominates"]
    (piece,) = [p for p in thm.theorem_chain().pieces if p.name == "head_log_below_lambda"]
    # the same tree (what the kernel reads); srepr would also print symbol assumptions, and sympy's cache may
    # hand back an equal sqrt(N) built with Symbol("N", positive=True) by an earlier test
    from theory.prover.language import to_tree

    assert to_tree(entry.statement.inequalities[0].gap) == to_tree(piece.sub.gap)
    (head_log,) = thm.head_entropy().atoms(sp.log)
    y = sp.Symbol("y", positive=True)
    back = thm.head_log_reduced().subs(y, thm.eps / (thm.C * thm.s))
    assert ch.identically_zero(back - (thm.LOG_FACTOR - head_log))


def _mutated(rhs_of: object) -> ch.Chain:
    chain = thm.theorem_chain()
    symbols = chain.domain.symbols()
    lhs = thm._rebound(thm.statement().lhs, symbols)
    rhs = rhs_of(symbols)  # type: ignore[operator]
    return dataclasses.replace(chain, inequality=Inequality("planted", rhs - lhs, False))


def _old_statement(x: dict) -> sp.Expr:
    """The statement before the fix (no logs, no rounding), typed here as the planted false variant."""
    p, n, big_s, s, eps = x["p"], x["N"], x["S"], x["s"], x["epsilon"]
    c_p = (p + 2) / 2 * (2 / p) ** (p / (p + 2))
    return c_p * n ** (2 * (p + 1) / (p + 2)) * big_s ** (2 / (p + 2)) * (s / eps) ** (2 * p / (p + 2))


def _two_n_statement(x: dict) -> sp.Expr:
    """3N replaced by 2N: false where the tail is negligible and k* < 1 rounds up to 1."""
    return thm._rebound(thm.LOG_FACTOR, x) * (thm._rebound(thm.balanced_term(), x) + 2 * x["N"])


@pytest.mark.parametrize("rhs_of", [_old_statement, _two_n_statement], ids=["old_statement", "3N_to_2N"])
def test_planted_false_variants_are_refuted_with_a_witness_rechecked_in_mpmath(rhs_of):
    chain = _mutated(rhs_of)
    witness = ch.find_probe_witness(chain)
    assert witness is not None
    gap = chain.inequality.gap
    names = sorted(witness.point)
    symbols = chain.domain.symbols()
    f = sp.lambdify([symbols[n] for n in names], gap, "mpmath")
    with mpmath.workdps(40):
        value = f(*(mpmath.mpf(witness.point[n].numerator) / witness.point[n].denominator for n in names))
    assert value < 0


@pytest.mark.slow
def test_theorem_4_1_is_proved_and_its_diagonal_pieces_take_the_kernels_change_of_variables():
    # ln(b/a) >= 1 - a/b and the tangent bound of the convex k^(-2/p) touch 0 along the diagonal a = b, which
    # no guillotine cover separates; with u = a / b each is one box whose substitution the kernel re-checks.
    result = ch.prove_chain(thm.theorem_chain(), budget_seconds=LEMMA_BUDGET_SECONDS)
    assert result.status == "proved", result.reason
    assert result.probe_seconds == 0  # no probe runs for a proved chain
    certificate = result.certificate()
    assert certificate is not None and ch.check_chain(certificate).accepted
    for record in certificate["pieces"]:
        if record["name"] in ("tail_log_tangent", "rounding_tail_convexity"):
            (box,) = record["certificate"]["boxes"]
            assert box["decision"]["method"] == "substitute"
    # tampered: a factor scaled by 1 + 10^-6, the rounded k replaced by k* in the convexity piece, a piece
    # dropped, and a factor made negative: the kernel rejects each (identity, identity, identity, sign)
    pieces = {record["name"]: index for index, record in enumerate(certificate["pieces"])}
    scaled = copy.deepcopy(certificate)
    factor = scaled["pieces"][pieces["tail_log_tangent"]]["factor"]
    scaled["pieces"][pieces["tail_log_tangent"]]["factor"] = ["mul", ["num", "1000001/1000000"], factor]
    unrounded = copy.deepcopy(certificate)
    convexity = unrounded["pieces"][pieces["rounding_tail_convexity"]]["substitution"]
    convexity["b"] = convexity["a"]
    dropped = copy.deepcopy(certificate)
    dropped["pieces"].pop(pieces["rounding_tail_step"])
    negative = copy.deepcopy(certificate)
    record = negative["pieces"][pieces["rounding_head"]]
    record["factor"] = ["mul", ["num", "-1"], record["factor"]]
    for tampered, word in (
        (scaled, "identity"),
        (unrounded, "identity"),
        (dropped, "identity"),
        (negative, "factor"),
    ):
        report = ch.check_chain(tampered)
        assert not report.accepted and word in report.reason


@pytest.mark.slow
def test_k_p_moved_down_by_one_millionth_is_not_proved():
    # True on the whole grid (the statement has slack there), so no witness; the chain's identity fails.
    def lowered(x: dict) -> sp.Expr:
        lam, balanced = thm._rebound(thm.LOG_FACTOR, x), thm._rebound(thm.balanced_term(), x)
        return lam * (balanced * (1 - sp.Rational(1, 10**6)) + 3 * x["N"])

    result = ch.prove_chain(_mutated(lowered))
    assert result.status == "undecided" and "identity" in result.reason


def test_min_facts_are_proved_through_the_derivative_of_min_and_a_near_miss_is_refuted():
    # d Min(a, b) / da = Heaviside(b - a, 1/2): the evaluator encloses it by [0, 1], the monotone rule applies
    from theory.prover import prove

    assert prove("Min(a, b) <= a", "a: (0, oo), b: (0, oo)", budget_seconds=10).status == "proved"
    near_miss = prove("Min(a, b) <= a * (1 - 1/1000000)", "a: (0, oo), b: (0, oo)", budget_seconds=10)
    assert near_miss.status == "refuted"
    point = near_miss.parts[0].witness.point
    assert min(point["a"], point["b"]) > point["a"] * (1 - Fraction(1, 10**6))


def test_prove_check_accepts_the_saved_chain_certificate_and_rejects_a_tampered_one(
    small_certificate, tmp_path, capsys
):
    import json

    from paper_checks.cli import main

    saved = tmp_path / "chain.json"
    saved.write_text(json.dumps(small_certificate), encoding="utf-8")
    assert main(["prove", "--check", str(saved)]) == 0
    out = capsys.readouterr().out  # the statement read from the checked gap, its domain; the name a label
    assert out.startswith("accepted: ") and ">= 0  over  a: (0, oo), b: (0, oo)" in out and '"small"' in out
    saved.write_text(json.dumps({**small_certificate, "inequality": "1 >= 2"}), encoding="utf-8")
    assert main(["prove", "--check", str(saved)]) == 1
    assert "accepted" not in capsys.readouterr().out
    tampered = copy.deepcopy(small_certificate)
    tampered["pieces"][0]["factor"] = ["num", "2"]  # the identity no longer holds
    saved.write_text(json.dumps(tampered), encoding="utf-8")
    assert main(["prove", "--check", str(saved)]) == 1
    assert "identity" in capsys.readouterr().out
    tampered["pieces"][0]["factor"] = ["call", "os.system"]
    saved.write_text(json.dumps(tampered), encoding="utf-8")
    assert main(["prove", "--check", str(saved)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_chain_check_is_the_kernels_and_its_format_constant_is_the_kernels():
    from theory.prover.kernel import chain as kernel_chain

    assert ch.CHAIN_FORMAT == kernel_chain.FORMAT
