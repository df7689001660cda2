"""The node-by-node enclosure's Coq script (``theory.prover.coq.unbounded``) without coqc: each leaf
stated once however often it occurs, and the kernel's 64-bit balls where they show the sign, its 256-bit
ones where only those do (the printed ends, and Interval's precision on the constant goals, follow)."""

from __future__ import annotations

import re

import mpmath
import pytest

pytest.importorskip("flint", reason="the exporter reads certificates with the kernel (python-flint)")

from tests.helpers.coq_runs import exported_on_half_line


def _denominator_bits(text: str) -> int:
    """The largest power of two among the printed ends' denominators, in bits."""
    denominators = [int(d) for d in re.findall(r"/ (\d+)\)", text)]
    return max(d.bit_length() - 1 for d in denominators if d & (d - 1) == 0)


def test_a_leaf_occurring_many_times_is_stated_once():
    """x + x + x + x + 2 + 2 > 0 on [0, oo): the fact of x (0 <= x) once, those of 2 (2 <= 2 below and
    above) once, where facts per occurrence would be 4 and 4."""
    x, two = ["var", "x"], ["num", "2"]
    text = exported_on_half_line(["add", x, x, x, x, two, two])
    assert len(re.findall(r"assert \(N\d+ : \(0 / 1\) <= v_x\)", text)) == 1
    assert len(re.findall(r"assert \(N\d+ : (\(2 / 1\) <= 2|2 <= \(2 / 1\))\)", text)) == 2


def test_the_64_bit_balls_print_short_ends_where_they_show_the_sign():
    """log(2 + x) - log(2) / 2 > 0 on [0, oo) (margin log(2) / 2 ~ 0.35): ends of at most ~64 bits, and
    Interval at 128 bits on the constant goals."""
    gap = [
        "add",
        ["log", ["add", ["num", "2"], ["var", "x"]]],
        ["mul", ["num", "-1/2"], ["log", ["num", "2"]]],
    ]
    text = exported_on_half_line(gap)
    assert "interval with (i_prec 128)" in text
    assert "i_prec 320" not in text
    assert _denominator_bits(text) <= 70


def test_a_margin_below_the_64_bit_balls_falls_back_to_256_bits():
    """log(2 + x) - log(2) + 10^-30 > 0 on [0, oo): its minimum 10^-30 (at x = 0, mpmath at 120 digits)
    lies below the 64-bit balls' width near log 2 (about 2^-63), so only the 256-bit enclosure shows the
    sign: ends of more than 200 bits, Interval at 320 bits."""
    with mpmath.workdps(120):
        minimum = mpmath.log(2 + mpmath.mpf(0)) - mpmath.log(2) + mpmath.mpf(10) ** -30
        assert 0 < minimum < mpmath.mpf(2) ** -64
    gap = [
        "add",
        ["log", ["add", ["num", "2"], ["var", "x"]]],
        ["mul", ["num", "-1"], ["log", ["num", "2"]]],
        ["num", "1/1000000000000000000000000000000"],
    ]
    text = exported_on_half_line(gap)
    assert "interval with (i_prec 320)" in text
    assert "i_prec 128" not in text
    assert _denominator_bits(text) > 200
