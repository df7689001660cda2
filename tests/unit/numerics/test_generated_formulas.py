"""numerics.formulas.generated is what its generator writes from theory.proxy today.

The bound path evaluates stored lambdify source instead of importing sympy; these tests make the store
unable to drift from theory. With the sympy that wrote the store (``generated.SYMPY_VERSION``) the text
must equal a fresh generation, every stored function must read the very mpmath/numpy objects lambdify
binds and give lambdify's numbers bit for bit. ``sympy>=1.12`` is allowed and another release may print
the same expression in another order (another rounding, other bytecode): with it the store must still
compute theory's formulas, to 1e-30 at 40 digits (a reordering of a few operations costs a few units of
the 40th digit; a stale formula differs in the first ones) and to 1e-12 in the float64 log forms (numpy
rounds each of a few operations to 2^-53).
"""

from __future__ import annotations

import importlib
import math
import pickle

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics.formulas import codegen as formula_codegen
from numerics.formulas import generated as generated
from numerics.formulas.evaluate import CompiledFormula, compiled, evaluate, log_form
from theory import proxy
from theory.formula import Formula

SAME_SYMPY = sp.__version__ == generated.SYMPY_VERSION
"""Whether the installed sympy wrote the store (then text, bytecode and numbers must match exactly)."""

MPMATH_RELATIVE = 1e-30
FLOAT_RELATIVE = 1e-12


def _stored() -> list[CompiledFormula]:
    out = []
    for name in formula_codegen.BOUND_FORMULAS:
        value = getattr(generated, name)
        out.extend(value.values() if isinstance(value, dict) else [value])
    return out


def _theory_formula(key: str) -> Formula:
    """The theory formula a store key names, looked up now (not the store's cached one)."""
    module, name, *item = key.split(":")
    found = getattr(importlib.import_module(module), name)
    return next(value for k, value in found.items() if str(k) == item[0]) if item else found


def _numeric_drift(seeds: tuple[int, ...] = (0, 1, 2)) -> list[str]:
    """The stored formulas whose numbers depart from theory's formula of the same key today, at random
    points of (0.1, 5) (every argument of the bound formulas is positive there)."""
    drift = []
    for item in _stored():
        theory_formula = _theory_formula(item.key)
        for seed in seeds:
            rng = np.random.default_rng(seed)
            values = {name: float(rng.uniform(0.1, 5.0)) for name in item.arg_names}
            stored, fresh = evaluate(item, dps=40, **values), evaluate(theory_formula, dps=40, **values)
            if not mpmath.almosteq(stored, fresh, rel_eps=MPMATH_RELATIVE, abs_eps=0):
                drift.append(f"{item.key} at {values}: {stored} != {fresh}")
    return drift


def test_the_generated_module_is_what_the_generator_writes_today():
    assert not _numeric_drift(), (
        "numerics/formulas/generated.py is stale: run python -m numerics.formulas.codegen"
    )
    if SAME_SYMPY:
        text = formula_codegen.TARGET.read_text(encoding="utf-8")
        assert text == formula_codegen.generated_text(), (
            "numerics/formulas/generated.py is stale: run python -m numerics.formulas.codegen"
        )


def test_every_stored_formula_is_the_theory_formula_it_names():
    stored = _stored()
    assert len(stored) == 18  # 10 single formulas, GAMMA and EDELMAN_TERM for 4 kinds each
    for item in stored:
        theory_formula = item.formula
        assert item.name == theory_formula.name
        assert item.arg_names == tuple(str(a) for a in theory_formula.args)
        assert item.expr == theory_formula.expr
    assert generated.GAMMA[proxy.MatrixKind.QK].formula is proxy.GAMMA[proxy.MatrixKind.QK]
    assert generated.L_PHI_VALUE == proxy.L_PHI_VALUE


def test_stored_functions_read_the_objects_lambdify_binds():
    for item in _stored():
        reference = formula_codegen.lambdified(item.formula)
        function = item.mpmath_function
        if SAME_SYMPY:
            assert function.__code__.co_code == reference.__code__.co_code
            assert function.__code__.co_consts == reference.__code__.co_consts
        for name in function.__code__.co_names:
            assert function.__globals__[name] is reference.__globals__[name], (item.key, name)
        log_reference = formula_codegen.log_lambdified(item.formula)
        if log_reference is None:
            assert item.log_function is None
            continue
        assert item.log_function is not None
        for name in item.log_function.__code__.co_names:
            assert item.log_function.__globals__[name] is log_reference.__globals__[name], (item.key, name)


@pytest.mark.parametrize("seed", [0, 1])
def test_stored_and_lambdified_functions_agree(seed):
    rng = np.random.default_rng(seed)
    for item in _stored():
        values = {name: float(rng.uniform(0.1, 5.0)) for name in item.arg_names}
        stored = evaluate(item, dps=40, **values)
        fresh = evaluate(item.formula, dps=40, **values)
        assert mpmath.isfinite(stored), item.key
        if SAME_SYMPY:
            assert stored == fresh, item.key
        else:
            assert mpmath.almosteq(stored, fresh, rel_eps=MPMATH_RELATIVE, abs_eps=0), item.key
        if item.log_function is not None:
            arguments = [v if n == "p" else math.log(v) for n, v in values.items()]
            got, want = item.log_function(*arguments), log_form(item.formula)(*arguments)
            assert got == (want if SAME_SYMPY else pytest.approx(want, rel=FLOAT_RELATIVE)), item.key


def test_a_compiled_formula_gives_theory_objects_to_callers_that_need_sympy():
    summand = generated.SUMMAND
    assert compiled(summand, "numpy") is compiled(proxy.SUMMAND, "numpy")
    assert summand.args == proxy.SUMMAND.args and isinstance(summand.expr, sp.Expr)


def test_a_stale_store_is_detected(monkeypatch):
    # a planted change of theory's formula must make the generated text differ
    changed = proxy.SUMMAND.__class__(
        proxy.SUMMAND.name, proxy.SUMMAND.expr * 2, proxy.SUMMAND.args, proxy.SUMMAND.tag, "planted"
    )
    monkeypatch.setattr(proxy, "SUMMAND", changed)
    assert formula_codegen.generated_text() != formula_codegen.TARGET.read_text(encoding="utf-8")
    drift = _numeric_drift(seeds=(0,))  # the check that holds whichever sympy is installed
    assert len(drift) == 1 and drift[0].startswith("theory.proxy:SUMMAND at")


def test_another_sympy_is_held_to_theory_s_numbers_not_to_the_text(monkeypatch):
    monkeypatch.setattr(generated, "SYMPY_VERSION", "0.0-another")
    module = importlib.import_module(__name__)
    monkeypatch.setattr(module, "SAME_SYMPY", False)
    test_the_generated_module_is_what_the_generator_writes_today()
    test_stored_and_lambdified_functions_agree(0)


def test_a_used_compiled_formula_pickles_and_evaluates_alike_in_the_copy():
    summand = generated.SUMMAND
    value = evaluate(summand, dps=30, p=0.5, S=3.0, s=2.0, N=7)  # executes and caches the function
    copy = pickle.loads(pickle.dumps(summand))
    assert copy.key == summand.key and copy.source == summand.source
    assert evaluate(copy, dps=30, p=0.5, S=3.0, s=2.0, N=7) == value
