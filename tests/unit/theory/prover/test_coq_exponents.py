"""The laws of exponents along the log-linear normal form (theory.prover.coq.exponents), checked by coqc.

``sb_power_atom`` proves B^E = prod X^k for positive sides by their ln; it must refuse the planted wrong
laws a^x a^y = a^(x y) and (a + b)^e = a^e + b^e, which arb refutes at a point. The guided proof of an
identity with symbolic powers and logarithms of sums is accepted where the kernel's exact normal form
(the independent reference) says the two sides agree; printed with a wrong law (every symbolic exponent
doubled in the atoms' products) or for a false identity, coqc refuses it."""

from __future__ import annotations

import pytest

pytest.importorskip("flint", reason="the prover needs python-flint (the certify extra)")

from flint import arb

from tests.helpers.coq_marks import NEEDS_COQC
from tests.helpers.coq_runs import LAWS, PLANTED_LAW, identities_checked
from theory.prover.coq import exponents
from theory.prover.coq.coqc import check_file
from theory.prover.coq.preamble import preamble
from theory.prover.coq.terms import term
from theory.prover.kernel import exact
from theory.prover.kernel.verify import precision

pytestmark = [
    pytest.mark.coq,
    pytest.mark.slow,
    NEEDS_COQC,
]

ATOM = "sb_power_atom"
PLANTED_SUM = "Rpower (v_x + 3) v_y = Rpower (v_x + 1) v_y + Rpower 2 v_y"
"""(a + b)^e = a^e + b^e: false at y = 0 (1 against 2)."""


def test_sb_power_atom_proves_the_laws_by_their_logarithms_and_refuses_two_planted_wrong_ones(tmp_path):
    with precision(256):
        half, x = arb(1) / 2, arb(1)
        assert abs(arb(2) ** half * arb(2) ** half - arb(2) ** (half * half)) > arb("0.1")
        assert abs((x + 3) ** 0 - (x + 1) ** 0 - arb(2) ** 0) > arb("0.5")
    laws = [LAWS[k] for k in ("sum", "product", "nested")]
    verdict = identities_checked(laws, tmp_path, ATOM)
    assert verdict.status == "accepted", verdict.reason  # type: ignore[attr-defined]
    for planted in (PLANTED_LAW, PLANTED_SUM):
        assert identities_checked([planted], tmp_path, ATOM).status == "rejected"  # type: ignore[attr-defined]


A, B, P = ["var", "a"], ["var", "b"], ["var", "p"]
MINUS_TWO_OVER_P = ["mul", ["num", "-2"], ["pow", P, ["num", "-1"]]]
QUOTIENT = ["mul", A, ["pow", B, ["num", "-1"]]]
CONVEXITY = (
    [
        "mul",
        ["pow", QUOTIENT, MINUS_TWO_OVER_P],
        ["pow", ["mul", ["num", "9"], B], ["mul", ["num", "2"], ["pow", P, ["num", "-1"]]]],
    ],
    [
        "mul",
        ["pow", ["num", "3"], ["mul", ["num", "4"], ["pow", P, ["num", "-1"]]]],
        ["pow", A, MINUS_TWO_OVER_P],
        ["pow", B, ["mul", ["num", "4"], ["pow", P, ["num", "-1"]]]],
    ],
)
"""(a/b)^(-2/p) (9 b)^(2/p) = 3^(4/p) a^(-2/p) b^(4/p): quotients, products and primes under symbolic
powers (the convexity piece's identity has the first two)."""
LOGARITHM = (
    [
        "add",
        ["log", ["add", ["mul", A, ["pow", B, ["num", "1/2"]]], ["pow", A, ["num", "2"]]]],
        ["mul", ["num", "-1"], ["log", ["mul", ["num", "12"], A]]],
    ],
    [
        "add",
        ["log", ["add", ["pow", B, ["num", "1/2"]], A]],
        ["mul", ["num", "-2"], ["log", ["num", "2"]]],
        ["mul", ["num", "-1"], ["log", ["num", "3"]]],
    ],
)
"""ln(a sqrt b + a^2) - ln(12 a) = ln(sqrt b + a) - 2 ln 2 - ln 3: a logarithm of a sum is ln of its
content plus ln of its primitive, ln 12 over its primes."""


def _identity(sides: tuple, tmp_path) -> object:
    script = exponents.guided(list(sides), lambda base: True, None)
    assert script is not None
    left, right = (term(side, lambda base: True) for side in sides)
    text = preamble() + (
        f"\nLemma law : forall v_a v_b v_p, 0 < v_a -> 0 < v_b -> 0 < v_p -> {left} = {right}.\n"
        f"Proof.\n  intros v_a v_b v_p H0 H1 H2;\n  {script}.\nQed.\n"
    )
    path = tmp_path / "Law.v"
    path.write_text(text, encoding="utf-8")
    return check_file(path)


def _vanishes(sides: tuple) -> bool:
    difference = ["add", sides[0], ["mul", ["num", "-1"], sides[1]]]
    return exact.vanishes(difference, {}, frozenset({"a", "b", "p"}))


@pytest.mark.parametrize("sides", [CONVEXITY, LOGARITHM], ids=["powers", "logarithms"])
def test_the_guided_proof_of_a_true_identity_is_accepted(sides, tmp_path):
    assert _vanishes(sides)
    verdict = _identity(sides, tmp_path)
    assert verdict.status == "accepted", verdict.reason  # type: ignore[attr-defined]


def test_a_false_identity_or_a_wrong_law_in_the_guided_proof_is_refused(tmp_path, monkeypatch):
    false = (CONVEXITY[0], ["mul", ["num", "2"], CONVEXITY[1]])
    assert not _vanishes(false)
    assert _identity(false, tmp_path).status == "rejected"  # type: ignore[attr-defined]
    original = exponents.basis

    def doubled(values: list) -> tuple:
        spanned, integers = original(values)
        return spanned, {v: [c[0], *(2 * k for k in c[1:])] for v, c in integers.items()}

    monkeypatch.setattr(exponents, "basis", doubled)
    assert _identity(CONVEXITY, tmp_path).status == "rejected"  # type: ignore[attr-defined]
