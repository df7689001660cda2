"""Arb balls cross process boundaries enclosing what was sent (numerics.certify.certified's arb pickling)."""

from __future__ import annotations

import copyreg
import pickle

import pytest

flint = pytest.importorskip("flint")

from numerics.certify.certified import _reduce_arb  # noqa: E402


@pytest.mark.parametrize(
    "ball",
    [
        lambda: flint.arb(2).sqrt() * flint.arb("1e-300"),
        lambda: flint.arb(1) / 3,
        lambda: flint.arb(0),
        lambda: flint.arb(5),
        lambda: flint.arb(2).sqrt() * 2**500,
    ],
)
def test_pickled_ball_keeps_its_midpoint_and_encloses_the_original(ball):
    copyreg.pickle(flint.arb, _reduce_arb)  # what certified_layer registers (idempotent)
    with flint.ctx.workprec(128):
        original = ball()
    back = pickle.loads(pickle.dumps(original))
    assert back.mid().man_exp() == original.mid().man_exp()  # midpoint exact
    assert back.contains(original)
    # the radius is at most one unit of its 30th bit wider (flint's magnitude type rounds up)
    assert back.rad() <= original.rad() * (1 + flint.arb(2) ** -28)
