"""Each self-check evaluates the object it guards: a planted error in that object makes it fail."""

from __future__ import annotations

import sympy as sp

from theory import composition, dudley, posthoc, schatten
from theory.formula import Formula
from theory.lemma import Lemma

ORIGINAL = schatten.lemma()


def _with_statement(part_index: int, replacement: sp.Basic) -> Lemma:
    parts = list(ORIGINAL.statement)
    parts[part_index] = replacement
    old = ORIGINAL
    return Lemma(old.step, old.name, old.title, tuple(parts), old.assumptions, old.tag)


def test_schatten_checks_read_the_stated_parts(monkeypatch):
    assert schatten._check_tail()[0] and schatten._check_monotone()[0] and schatten._check_p_triangle()[0]
    k, p, s_p, sigma_k = schatten.k, schatten.p, schatten.S_p, schatten.sigma_k
    wrong_tail = sp.Le(sigma_k, (s_p / k) ** p, evaluate=False)  # exponent p instead of 1/p
    monkeypatch.setattr(schatten, "lemma", lambda: _with_statement(0, wrong_tail))
    assert schatten._check_tail()[0] is False
    big_s, w = schatten.SCHATTEN, schatten.W
    wrong_order = sp.Le(big_s(w, p) ** (1 / p), big_s(w, schatten.q) ** (1 / schatten.q), evaluate=False)
    monkeypatch.setattr(schatten, "lemma", lambda: _with_statement(1, wrong_order))
    assert schatten._check_monotone()[0] is False


def test_depth_recursion_rejects_an_off_by_one_alpha():
    assert composition._check_depth_recursion()[0] is True
    assert composition._control_depth_recursion()[0] is False


def test_ramp_check_differentiates_the_ramp_loss_itself(monkeypatch):
    u, margin = dudley.RAMP_LOSS.args
    # same values at u <= 0, u = margin/3 and u >= margin, but slope -2/margin inside
    steep = sp.Piecewise((1, u <= 0), (1 - u / margin - (u - margin / 3) / margin, u < margin), (0, True))
    assert dudley._check_ramp()[0] is True
    monkeypatch.setattr(dudley, "RAMP_LOSS", Formula("ramp", steep, (u, margin), dudley.RAMP_LOSS.tag, ""))
    assert dudley._check_ramp()[0] is False


def test_additive_term_check_keeps_the_peeling_cost():
    depth = sp.Symbol("L", positive=True)
    term = posthoc._additive_term(depth)
    assert term.has(sp.ceiling(4 * depth))  # the spectral shell index enters through PEEL_COST
    assert posthoc._check_additive_term_growth()[0] is True
    assert posthoc._control_additive_term_growth()[0] is False
