"""The half-line tail search's pre-check (theory.derive.tail): before asking the kernel for an
``enclosure`` step, the search encloses the tree and its normal form itself, and skips the kernel only
where that step is sure to fail. Checked against the kernel's own verdict on the same box (a pre-check
that ruled out a step the kernel accepts would lose certificates), and against mpmath: where the tree is
negative at a point of the box, no enclosure may be called >= 0."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

pytest.importorskip("flint", reason="the prover needs python-flint")

from theory.derive.tail import _accepted, _Seen, half_line
from theory.prover.certificate import domain_data
from theory.prover.kernel.verify import read_box, read_domain
from theory.prover.statement import parse_statement

START = Fraction(1)
CASES = [
    # (gap text "lhs <= rhs", a point of [1, oo) where mpmath finds the gap < 0, or None)
    ("2*L - L <= L", None),  # the tree's enclosure is (-oo, oo); its normal form 0 is enclosed >= 0
    ("(L + 1)^2 - 2*L <= L^2 + 1", None),  # the same through an expanded square
    ("0 <= log(L)", None),
    ("1 <= L", None),
    ("L <= 1", 2),
    ("log(L) <= 1", 10),
    ("L*log(L) <= L^2", None),  # true, but no enclosure shows it on [1, oo)
    ("sqrt(L) <= log(L)", 2),
]


def _box(text: str):
    domain = domain_data(half_line("L", START))
    kernel_domain = read_domain(domain)
    box = read_box({"L": [str(START), "oo"]}, kernel_domain)
    (inequality,) = parse_statement(text, half_line("L", START)).inequalities
    return inequality.gap_tree(), box, kernel_domain


def _mp_gap(text: str, at: float) -> mpmath.mpf:
    lhs, rhs = text.split("<=")
    names = {"L": mpmath.mpf(at), "log": mpmath.log, "sqrt": mpmath.sqrt}
    with mpmath.workdps(50):
        return eval(rhs.replace("^", "**"), {}, names) - eval(lhs.replace("^", "**"), {}, names)


@pytest.mark.parametrize(("text", "negative_at"), CASES)
def test_the_pre_check_rules_out_only_enclosures_the_kernel_refuses(text, negative_at):
    tree, box, domain = _box(text)
    seen = _Seen(box, domain)
    kernel = _accepted({"method": "enclosure"}, tree, box, domain)
    if kernel:
        assert seen.may_enclose(tree)
    assert seen.encloses(tree) == kernel
    if negative_at is not None:
        assert _mp_gap(text, negative_at) < 0
        assert not seen.may_enclose(tree) and not kernel


def test_a_tree_enclosed_only_through_its_normal_form_is_not_ruled_out():
    tree, box, domain = _box("(L + 1)^2 - 2*L <= L^2 + 1")
    seen = _Seen(box, domain)
    assert seen.enclosed(tree) is False  # the ball of L^2 + 1 - ((L + 1)^2 - 2 L) is unbounded ...
    assert seen.enclosed(seen.form(tree)) is True  # ... its normal form is the number 0
    assert seen.may_enclose(tree)
