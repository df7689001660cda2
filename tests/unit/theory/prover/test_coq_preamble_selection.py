"""An exported Coq file carries only the preamble items it uses and their dependency closure
(``theory.prover.coq.preamble.preamble_for``), without coqc: the items are the whole preamble cut at each
sentence, their dependencies are what a reading of their Coq text finds (written here by hand), and an
exported file defines every preamble name it uses. coqc compiling each item with exactly its closure is
tests/slow/test_coq_preamble_closure.py."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.certificates import INTEGER_CUT, box_certificate, domain_variable
from theory.prover.coq.export import export_certificate
from theory.prover.coq.preamble import closure, items, preamble, preamble_for

_DEFINED = re.compile(r"^(?:Lemma|Ltac|Definition) (\w+)", re.MULTILINE)


@pytest.mark.parametrize("erf", [False, True])
def test_the_items_are_the_whole_preamble_cut_at_each_sentence_each_name_once(erf):
    head, parts = items(erf=erf)
    assert head + "".join(part.text for part in parts) == preamble(erf=erf, premises=True)
    names = [part.name for part in parts]
    assert len(names) == len(set(names))
    assert ("sb_erf_bounds" in names) is erf and "sb_multiplier" in names and "sb_close" in names


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # read off the Coq text: sb_tail_increasing applies sb_step_increasing, which uses sb_increasing_open
        ("sb_tail_increasing", {"sb_step_increasing", "sb_increasing_open"}),
        # sb_power_atom: ln_inv, then sb_positive, sb_ln_expand (sb_ln_rpower, sb_ln_sqrt), sb_factor
        # (sb_factored), field and sb_nonzero (sb_positive)
        (
            "sb_power_atom",
            {
                "sb_positive",
                "sb_ln_expand",
                "sb_ln_rpower",
                "sb_ln_sqrt",
                "sb_factor",
                "sb_factored",
                "sb_nonzero",
            },
        ),
        # sb_identity: field and sb_side (sb_close), sb_unabs, sb_atoms (sb_atoms_by)
        ("sb_identity", {"sb_side", "sb_close", "sb_unabs", "sb_atoms", "sb_atoms_by"}),
        ("sb_int_max", {"sb_int", "sb_max_which"}),
        ("sb_periodic_lt", {"sb_periodic_point", "sb_periodic_nat"}),
        ("sb_squares", set()),
    ],
)
def test_an_items_closure_is_what_its_coq_text_uses(name, expected):
    _, parts = items()
    assert closure({name}, parts) == {name} | expected


def test_erfs_closure_is_the_gaussian_integrals_chain():
    _, parts = items(erf=True)
    assert closure({"sb_erf_bounded"}, parts) == {
        "sb_erf_bounded",
        "sb_erf_bounds",
        "sb_erf",
        "sb_gauss_below",
        "sb_gauss_square",
        "sb_gauss_h",
        "sb_gauss_h_pos",
        "sb_gauss_h_Derive",
        "sb_gauss_h_integrable",
        "sb_gauss_derive",
        "sb_gauss_continuous",
        "sb_gauss_integrable",
        "sb_gauss_scaled",
        "sb_tail_derive",
        "sb_tail_scaled",
    }


def test_a_file_carries_the_head_and_exactly_the_closure_of_what_it_names_in_the_preambles_order():
    head, _ = items()
    assert preamble_for("Lemma mine : 0 <= 1. Proof. lra. Qed.") == head
    text = preamble_for("apply sb_tail_increasing. sb_signs.")
    assert text.startswith(head)
    assert _DEFINED.findall(text) == [
        "sb_close",
        "sb_signs",
        "sb_increasing_open",
        "sb_step_increasing",
        "sb_tail_increasing",
    ]


def test_the_erf_items_come_only_with_a_use_of_erf():
    assert "sb_erf" not in preamble_for("sb_identity")
    text = preamble_for("(sb_erf v_x) sb_identity")
    assert "Definition sb_erf " in text and "context [sb_erf ?a]" in text  # sb_atoms_by's erf branch
    assert "sb_gauss" not in text  # erf's lemmas only where the file uses them


@pytest.mark.parametrize(
    "certificate",
    [
        INTEGER_CUT,
        box_certificate(
            ["add", ["var", "x"], ["mul", ["num", "-1"], ["log", ["add", ["num", "1"], ["var", "x"]]]]],
            [domain_variable("x", "0", "1")],
            [
                {
                    "box": {"x": ["0", "1"]},
                    "decision": {"method": "monotone", "variable": "x", "direction": "increasing"},
                }
            ],
        ),
        box_certificate(
            ["add", ["erf", ["var", "x"]], ["num", "1"]],
            [domain_variable("x", "0", "1")],
            [{"box": {"x": ["0", "1"]}, "decision": {"method": "enclosure"}}],
        ),
    ],
    ids=["integer-cut", "monotone", "erf"],
)
def test_an_exported_file_defines_every_preamble_name_it_uses_and_no_other(certificate):
    text = export_certificate(certificate).text
    _, parts = items(erf=True)
    names = {part.name for part in parts}
    defined = set(_DEFINED.findall(text)) & names
    assert set(re.findall(r"\bsb_\w+", text)) & names == defined  # every one it names is defined
    assert len(defined) < len(names) / 2  # a fraction of the preamble, not all of it
    assert defined == closure(defined, parts)  # closed under the items' own uses
