"""The composition of the BERT proxies as sympy equations over indexed quantities (Sum, Product).

Provenance ``exact`` (the authors' ``bounds.py``), as the summands: each :class:`~theory.proxy_steps.Step`
of :data:`theory.proxy_steps.PROXY_COMPOSITION` is stated here with theory's formulas of
:mod:`theory.proxy` substituted, for a model of L layers, H heads per layer and I matrices; matrix i has
layer ``layer[i]``, head ``head[i]`` and kind code ``kind[i]`` (the position of its kind in
:class:`~theory.kinds.MatrixKind`). For example A[l] = Sum(C2_Vt[l, h] (1 + 4 C2_QK[l, h]),
(h, 0, H - 1)) and alpha[l] = Product(lambda[k], (k, l + 1, L - 1)). The minimum over the grid is the
unevaluated ``min_over_P_m(Lambda(p, body), m)``, P_m = {0, 1/m, ..., 2}.

:func:`expand` evaluates the equations for a concrete model with sympy alone (``doit`` of the sums and
products): the reference the numerical composition (:mod:`numerics.bounds.composition`, which runs the
same table without sympy) is tested against. :func:`table_problems` checks the table against theory's
formulas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from theory import proxy
from theory.formula import Formula
from theory.kinds import MatrixKind
from theory.proxy_steps import (
    MEASURED,
    PROXY_COMPOSITION,
    SPECTRAL_NORMS,
    Over,
    Reduce,
    Scope,
    Step,
    scope_of,
)

l_, h_, k_, i_ = sp.symbols("l h k i", integer=True, nonnegative=True)
"""The indices l, h, k, i: a layer, a head, a later layer (of a product), a matrix."""
L, H, I_, m = sp.symbols("L H I m", integer=True, positive=True)
"""Depth L, heads per layer H, number of matrices I, grid size m."""
layer_of, head_of, kind_of = sp.IndexedBase("layer"), sp.IndexedBase("head"), sp.IndexedBase("kind")
min_over_grid = sp.Function("min_over_P_m")
"""min_over_P_m(Lambda(p, f), m) = min over p in P_m of f(p) (unevaluated; :func:`expand` evaluates it)."""

KIND_CODES = {kind: index for index, kind in enumerate(MatrixKind)}
"""The code ``kind[i]`` of each matrix kind."""

_SIZES = {"N": sp.Symbol("N", positive=True), "L": L, "L_phi": sp.Symbol("L_phi", positive=True)}


def formula_of(step: Step) -> Formula | dict[MatrixKind, Formula] | None:
    """The theory.proxy formula (or dict by kind) the step applies, None for a product of quantities."""
    return None if step.formula is None else getattr(proxy, step.formula)


def quantity(name: str, *, layer: sp.Expr, head: sp.Expr | None, matrix: sp.Expr | None) -> sp.Expr:
    """The sympy object of quantity ``name`` read at a body's index (its layer, head and matrix)."""
    if name in _SIZES:
        return _SIZES[name]
    if name == "p":
        return proxy.p
    if name in SPECTRAL_NORMS:
        return sp.IndexedBase(name)[(layer, head) if SPECTRAL_NORMS[name].per_head else (layer,)]
    if name == "S":
        return sp.IndexedBase("S")[matrix, proxy.p]
    if name == "n21":
        return sp.IndexedBase("n21")[matrix]
    scope = scope_of(name)
    if scope is Scope.MODEL:
        return sp.Symbol(name)
    return sp.IndexedBase(name)[layer if scope is Scope.LAYER else matrix]


def _index(step: Step) -> tuple[sp.Expr, sp.Expr | None, sp.Expr | None]:
    """(layer, head, matrix) at which the body of ``step`` reads its quantities."""
    if step.over is Over.HEADS:
        return l_, h_, None
    if step.over is Over.LATER_LAYERS:
        return k_, None, None
    if step.over is Over.LAYERS:
        return l_, None, None
    if step.scope is Scope.MATRIX or step.over in (Over.MATRICES, Over.LAYER_MATRICES):
        return layer_of[i_], head_of[i_], i_
    return l_, None, None


def body(step: Step) -> sp.Expr:
    """The step's body: its formula with every argument bound (a Piecewise over kinds for a dict of
    formulas), or the product of its factors."""
    layer, head, matrix = _index(step)

    def read(name: str) -> sp.Expr:
        return quantity(name, layer=layer, head=head, matrix=matrix)

    found = formula_of(step)
    if found is None:
        return sp.Mul(*(read(name) for name in step.factors))

    def bound(formula: Formula) -> sp.Expr:
        names = {str(arg): arg for arg in formula.args}
        return formula.expr.xreplace({names[a]: read(q) for a, q in step.inputs if a in names})

    if isinstance(found, Formula):
        return bound(found)
    pieces = [(bound(f), sp.Eq(kind_of[i_], KIND_CODES[kind])) for kind, f in found.items()]
    return sp.Piecewise(*pieces)


def statement(step: Step) -> sp.Eq:
    """target = reduce_over body, as a sympy equation (module docstring)."""
    lhs = quantity(step.target, layer=l_, head=None, matrix=i_)
    term = body(step)
    if step.reduce is Reduce.APPLY:
        return sp.Eq(lhs, term, evaluate=False)
    if step.reduce is Reduce.MIN:
        return sp.Eq(lhs, min_over_grid(sp.Lambda(proxy.p, term), m), evaluate=False)
    reduction, identity = (sp.Sum, 0) if step.reduce is Reduce.SUM else (sp.Product, 1)
    if step.over is Over.LAYER_MATRICES:  # the matrices of layer l only
        term = sp.Piecewise((term, sp.Eq(layer_of[i_], l_)), (identity, True))
    ranges = {
        Over.HEADS: (h_, 0, H - 1),
        Over.LATER_LAYERS: (k_, l_ + 1, L - 1),
        Over.MATRICES: (i_, 0, I_ - 1),
        Over.LAYER_MATRICES: (i_, 0, I_ - 1),
        Over.LAYERS: (l_, 0, L - 1),
    }
    return sp.Eq(lhs, reduction(term, ranges[step.over]), evaluate=False)  # type: ignore[index]


STATEMENTS = tuple(statement(step) for step in PROXY_COMPOSITION)
"""The composition, one equation per step of :data:`theory.proxy_steps.PROXY_COMPOSITION`."""


def table_problems(steps: Sequence[Step] = PROXY_COMPOSITION) -> list[str]:
    """What is wrong with the table, one line each (empty: every formula exists in theory.proxy, every
    argument of it is bound, every input names an argument, and every quantity read is measured or
    defined by an earlier step)."""
    problems, defined = [], set(MEASURED)
    for step in steps:
        found = formula_of(step)
        formulas = [] if found is None else [found] if isinstance(found, Formula) else list(found.values())
        names = {str(arg) for formula in formulas for arg in formula.args}
        bound = {argument for argument, _ in step.inputs}
        problems += [f"{step.target}: argument {a} of {step.formula} is not bound" for a in names - bound]
        problems += [f"{step.target}: {step.formula} has no argument {a}" for a in bound - names]
        problems += [
            f"{step.target}: reads {q}, defined nowhere before" for q in step.reads if q not in defined
        ]
        if (step.reduce is Reduce.APPLY) != (step.over is None) or (found is None) == (not step.factors):
            problems.append(f"{step.target}: a reduction needs an index, a body a formula or factors")
        if (step.reduce is Reduce.MIN) != (step.over is Over.GRID):
            problems.append(f"{step.target}: the minimum is over P_m, and only the minimum")
        defined.add(step.target)
    return problems


@dataclass(frozen=True, kw_only=True)
class ToyModel:
    """A concrete model for :func:`expand`: L layers of H heads, its matrices (layer, head, kind; head -1
    for M_in and M_out), the spectral norms by (layer, head, kind), each matrix's (2,1) norm and singular
    values, the hidden size N and the grid size m."""

    num_layers: int
    num_heads: int
    matrices: tuple[tuple[int, int, MatrixKind], ...]
    norms: Mapping[tuple[int, int, MatrixKind], sp.Expr]
    norm_21: tuple[sp.Expr, ...]
    singular_values: tuple[tuple[sp.Expr, ...], ...]
    rank: tuple[int, ...]
    hidden_size: int
    m: int


def _known(model: ToyModel) -> dict[sp.Basic, sp.Expr]:
    known: dict[sp.Basic, sp.Expr] = {L: sp.Integer(model.num_layers), H: sp.Integer(model.num_heads)}
    known |= {I_: sp.Integer(len(model.matrices)), m: sp.Integer(model.m)}
    known |= {_SIZES["N"]: sp.Integer(model.hidden_size), _SIZES["L_phi"]: proxy.L_PHI_VALUE}
    for index, (layer, head, kind) in enumerate(model.matrices):
        known |= {layer_of[index]: layer, head_of[index]: head, kind_of[index]: KIND_CODES[kind]}
        known[sp.IndexedBase("n21")[index]] = model.norm_21[index]
    for (layer, head, kind), value in model.norms.items():
        name = next(n for n, measured in SPECTRAL_NORMS.items() if measured is kind)
        known[sp.IndexedBase(name)[(layer, head) if kind.per_head else (layer,)]] = value
    return known


def _settle(expr: sp.Expr, known: Mapping[sp.Basic, sp.Expr], model: ToyModel) -> sp.Expr:
    """``expr`` with every known quantity substituted, sums and products done, grid minima taken."""

    def grid_min(function: sp.Lambda, size: sp.Expr) -> sp.Expr:
        return sp.Min(*(_settle(function(q), known, model) for q in proxy.grid(int(size))))

    for _ in range(8):  # indices inside indices (C2_M_in[layer[i]]) settle one level per pass
        settled = expr.xreplace(dict(known)).doit()
        settled = settled.replace(_schatten_pattern, lambda *a: _schatten(model, *a))
        settled = settled.replace(min_over_grid, grid_min)
        if settled == expr:
            return settled
        expr = settled
    return expr


_S_BASE = sp.IndexedBase("S")


def _schatten_pattern(expr: sp.Basic) -> bool:
    return isinstance(expr, sp.Indexed) and expr.base == _S_BASE and all(a.is_number for a in expr.indices)


def _schatten(model: ToyModel, expr: sp.Indexed) -> sp.Expr:
    """S_p(W_i) = sum_{sigma > 0} sigma^p, S_0 = rank (docs: notation)."""
    index, p = expr.indices
    if p == 0:
        return sp.Integer(model.rank[int(index)])
    return sp.Add(*(sigma**p for sigma in model.singular_values[int(index)] if sigma > 0))


def expand(model: ToyModel, steps: Sequence[Step] = PROXY_COMPOSITION) -> dict[str, object]:
    """Every quantity of the composition of ``model``, by sympy alone: model-wide ones as numbers,
    per-layer ones as lists by layer, per-matrix ones as lists by matrix."""
    known = _known(model)
    values: dict[str, object] = {}
    for step in steps:
        equation = statement(step)
        free = range(model.num_layers) if step.scope is Scope.LAYER else range(len(model.matrices))
        if step.scope is Scope.MODEL:
            values[step.target] = known[equation.lhs] = _settle(equation.rhs, known, model)
            continue
        index = l_ if step.scope is Scope.LAYER else i_
        row = []
        for position in free:
            value = _settle(equation.rhs.xreplace({index: position}), known, model)
            known[equation.lhs.xreplace({index: position})] = value
            row.append(value)
        values[step.target] = row
    return values
