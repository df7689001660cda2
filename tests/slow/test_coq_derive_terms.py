"""``sb_derive`` (theory/prover/coq/preamble.py): ``auto_derive`` term by term, the derivative route of a
monotone step over a range with an infinite end (t >= 1). A small case of the l2 example's shape (a sum
of a constant times sqrt of a sum of t's multiples of Rpower constants, ln (1 * t), t^2 with ln
constants, / t and a constant) with the kernel's form of its derivative (sqrt's derivative as
1/2 / sqrt, t^0, ln t for ln (1 * t)) is accepted by coqc; a planted variant whose derivative is off in
one coefficient is refused. The oracle is mpmath's numerical derivative of the function at high
precision, never the prover's verdict. Two coqc runs of 2-3 CPU s each: slow."""

from __future__ import annotations

import mpmath
import pytest

from tests.helpers.coq_marks import NEEDS_COQC
from theory.prover.coq.coqc import check_file
from theory.prover.coq.preamble import preamble_for

pytestmark = [pytest.mark.coq, pytest.mark.slow, NEEDS_COQC]

INNER = "(676 / 25) * v * (Rpower 2 (1 / 3)) + (52 / 25) * v * (Rpower 5 (2 / 3))"
"""The sum under the square root (v the function's variable)."""
FUNCTION = (
    f"fun v => (169 / 6250) * (sqrt ((1 * ln 2) + (1 * ln 5))) * (sqrt ({INNER})) * (ln 2)"
    " + (-27 / 500) * (ln (1 * v)) + (14366997273361481424 / 9765625) * (ln 2) * ((ln 5) ^ 2) * (v ^ 2)"
    " + (-27 / 2000) * (/ v) + (-27 / 500)"
)


def derivative(scale: str) -> str:
    """The kernel's form of FUNCTION's derivative, its last term's coefficient ``scale``."""
    slope = INNER.replace("* v *", "* (v ^ 0) *")
    return (
        f"fun v => (169 / 6250) * (sqrt ((ln 2) + (ln 5))) * ((1 / 2) * (/ (sqrt ({INNER}))) * ({slope}))"
        " * (ln 2) + (-27 / 500) * (((ln v) ^ 0) * ((/ v) * (v ^ 0)))"
        " + (14366997273361481424 / 9765625) * (ln 2) * ((ln 5) ^ 2) * (2 * v)"
        f" + ({scale}) * ((-1) * (/ (v ^ 2)))"
    )


def _function(t):
    inner = 676 * t * mpmath.cbrt(2) / 25 + 52 * t * mpmath.cbrt(5) ** 2 / 25
    ln2, ln5 = mpmath.log(2), mpmath.log(5)
    return (
        mpmath.mpf(169) / 6250 * mpmath.sqrt(ln2 + ln5) * mpmath.sqrt(inner) * ln2
        - mpmath.mpf(27) / 500 * mpmath.log(t)
        + mpmath.mpf(14366997273361481424) / 9765625 * ln2 * ln5**2 * t**2
        - mpmath.mpf(27) / 2000 / t
        - mpmath.mpf(27) / 500
    )


def _claimed(t, scale):
    inner = 676 * t * mpmath.cbrt(2) / 25 + 52 * t * mpmath.cbrt(5) ** 2 / 25
    slope = 676 * mpmath.cbrt(2) / 25 + 52 * mpmath.cbrt(5) ** 2 / 25
    ln2, ln5 = mpmath.log(2), mpmath.log(5)
    return (
        mpmath.mpf(169) / 6250 * mpmath.sqrt(ln2 + ln5) * slope / (2 * mpmath.sqrt(inner)) * ln2
        - mpmath.mpf(27) / 500 / t
        + mpmath.mpf(14366997273361481424) / 9765625 * ln2 * ln5**2 * 2 * t
        - scale / t**2
    )


def _file(tmp_path, scale: str):
    text = (
        f"Lemma derive_terms : forall t : R, 1 <= t -> is_derive ({FUNCTION}) t (({derivative(scale)}) t).\n"
        "Proof.\n  intros t Ht; try unfold Rpower; sb_derive;\n"
        "  lazymatch goal with\n"
        "  | |- _ = _ => sb_identity_signs\n"
        "  | |- _ => repeat split; sb_sign_side end.\nQed.\n"
    )
    path = tmp_path / "DeriveTerms.v"
    path.write_text(preamble_for(text) + text, encoding="utf-8")
    return path


def test_the_kernel_shaped_derivative_of_a_sum_is_accepted(tmp_path):
    with mpmath.workdps(60):  # the oracle: the claimed derivative is the function's at points of t >= 1
        true = mpmath.mpf(-27) / 2000
        for t in (1, mpmath.mpf(7) / 2, 10**6):
            assert abs(mpmath.diff(_function, t) - _claimed(t, true)) < mpmath.mpf(10) ** -30
    assert check_file(_file(tmp_path, "-27 / 2000")).status == "accepted"


def test_a_derivative_off_in_one_coefficient_is_refused(tmp_path):
    with mpmath.workdps(60):  # the oracle: the planted derivative differs from the function's at t = 2
        assert abs(mpmath.diff(_function, 2) - _claimed(2, mpmath.mpf(-27) / 1000)) > mpmath.mpf(10) ** -4
    assert check_file(_file(tmp_path, "-27 / 1000")).status == "rejected"
