"""The composition of the proxies is stated once, in theory (theory.proxy_steps, theory.proxy_composition),
and numerics runs that statement: expanded by sympy alone for a random 2-layer, 2-head model, it gives the
mpmath composition's numbers and lies in the arb composition's balls; a changed statement does not."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import mpmath
import pytest
import sympy as sp

from numerics.bounds.proxies import proxies
from numerics.certify.balls import flint_context
from numerics.certify.certified import certify_proxies
from numerics.spectra.model import SpectraOptions
from tests.helpers.certified_reference import random_model
from theory import proxy
from theory.proxy_composition import STATEMENTS, ToyModel, expand, table_problems
from theory.proxy_steps import PROXY_COMPOSITION, Reduce, steps_for

DIGITS = 60
"""sympy's working digits: far beyond the 50 of the mpmath composition."""


@pytest.fixture(scope="module")
def compositions():
    weights = random_model(2, 8, 2, 16, seed=11)
    points = proxies(weights, SpectraOptions(dps=50))
    balls = certify_proxies(weights, SpectraOptions(certify_progress=False))
    return points, balls


def toy_of(points) -> ToyModel:
    """The measured inputs the mpmath composition read (float singular values, exactly), as sympy numbers."""
    exact = {}
    for row in points.matrices:
        exact[row.matrix.layer, row.matrix.head, row.matrix.kind] = sp.Float(
            row.spectrum.spectral_norm, DIGITS
        )
    return ToyModel(
        num_layers=points.num_layers,
        num_heads=points.num_heads,
        matrices=tuple((r.matrix.layer, r.matrix.head, r.matrix.kind) for r in points.matrices),
        norms=exact,
        norm_21=tuple(sp.Float(r.spectrum.norm_21, DIGITS) for r in points.matrices),
        singular_values=tuple(
            tuple(sp.Float(v, DIGITS) for v in r.spectrum.singular_values.tolist()) for r in points.matrices
        ),
        rank=tuple(r.spectrum.rank for r in points.matrices),
        hidden_size=points.hidden_size,
        m=points.m,
    )


def reported(points) -> dict[str, object]:
    """The composition's quantities as the report carries them, named as in the table."""
    rows = points.matrices
    return {
        "alpha": list(points.alphas),
        "gamma": [r.gamma for r in rows],
        "s": [r.scale for r in rows],
        "c": [r.contribution for r in rows],
        "xi_term": [r.edelman_term for r in rows],
        "xi": list(points.xis),
        "Sigma": points.leading,
        "B_ours": points.ours,
        "B_Edelman": points.edelman,
    }


def flat(values: dict[str, object]) -> dict[str, object]:
    out = {}
    for name, value in values.items():
        for index, item in enumerate(value if isinstance(value, list) else [value]):
            out[f"{name}[{index}]"] = item
    return out


def test_the_table_binds_every_argument_of_theorys_formulas():
    assert table_problems() == []
    broken = dataclasses.replace(PROXY_COMPOSITION[1], inputs=PROXY_COMPOSITION[1].inputs[1:])
    assert table_problems((PROXY_COMPOSITION[0], broken)) == [
        "lambda: argument L_phi of LAYER_LIPSCHITZ is not bound"
    ]
    assert "reads c, defined nowhere before" in table_problems(PROXY_COMPOSITION[6:7])[0]


def test_the_statements_are_indexed_sums_and_products_of_theorys_formulas():
    layer, head, later = sp.symbols("l h k", integer=True, nonnegative=True)
    depth, heads = sp.symbols("L H", integer=True, positive=True)
    c_v, c_qk = sp.IndexedBase("C2_Vt")[layer, head], sp.IndexedBase("C2_QK")[layer, head]
    factor = proxy.HEAD_LIPSCHITZ.expr.subs({proxy.C_V: c_v, proxy.C_QK: c_qk})
    assert STATEMENTS[0] == sp.Eq(sp.IndexedBase("A")[layer], sp.Sum(factor, (head, 0, heads - 1)))
    product = sp.Product(sp.IndexedBase("lambda")[later], (later, layer + 1, depth - 1))
    assert STATEMENTS[2] == sp.Eq(sp.IndexedBase("alpha")[layer], product)
    assert [step.target for step in steps_for("B_ours")][-3:] == ["c", "Sigma", "B_ours"]


def test_sympys_expansion_of_the_statement_is_the_mpmath_composition(compositions):
    points, _ = compositions
    expected = flat(expand(toy_of(points)))
    got = flat(reported(points))
    assert set(got) <= set(expected) and len(got) == 2 + 4 * 12 + 2 + 3
    with mpmath.workdps(DIGITS):
        for name, value in got.items():
            reference = mpmath.mpf(str(sp.N(expected[name], DIGITS)))
            assert mpmath.almosteq(value, reference, rel_eps=mpmath.mpf(10) ** -45), name


def test_sympys_expansion_of_the_statement_lies_in_the_arb_composition(compositions):
    points, balls = compositions
    expected = flat(expand(toy_of(points)))
    from flint import arb

    with flint_context():
        for name, ball in flat(reported(balls)).items():
            value = arb(str(sp.N(expected[name], 40)))
            # the float64 spectrum and the certified enclosure agree to ~1e-13 relative
            assert abs(ball.mid() - value) <= 1e-9 * abs(value) + ball.rad(), name


@pytest.mark.slow  # two sympy expansions: 11 s wall at load 10
def test_a_changed_statement_disagrees_with_the_composition(compositions):
    points, _ = compositions
    toy = toy_of(points)
    by_target = {step.target: step for step in PROXY_COMPOSITION}
    edelman = dataclasses.replace(by_target["Xi"], factors=("xi",))  # drops the layer weight alpha_l^{2/3}
    alpha_as_a_sum = dataclasses.replace(by_target["alpha"], reduce=Reduce.SUM)  # sum_{k > l} lambda_k
    for wrong in (edelman, alpha_as_a_sum):
        steps = tuple(wrong if step.target == wrong.target else step for step in PROXY_COMPOSITION)
        changed = flat(expand(toy, steps))
        assert float(changed["B_Edelman[0]"]) != pytest.approx(float(points.edelman), rel=1e-6)


def test_the_composition_runs_without_sympy():
    probe = (
        "import sys; from numerics.bounds.composition import compose_proxies; "
        "from theory.proxy_steps import PROXY_COMPOSITION; print('sympy' in sys.modules)"
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False"
