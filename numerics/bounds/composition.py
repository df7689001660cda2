"""The proxies B_ours and B_Edelman composed once, over any :class:`SpectralArithmetic` (docs: proxies).

Provenance: exact (the authors' ``bounds.py``: ``ours_posthoc_proxy``, ``edelman_multihead_proxy``). The
composition itself is theory's table :data:`theory.proxy_steps.PROXY_COMPOSITION` (A_l = sum_h
HEAD_LIPSCHITZ, lambda_l = LAYER_LIPSCHITZ, alpha_l = prod_{k > l} lambda_k, s_i = SCALE, c_i = min_{p in
P_m} SUMMAND, B_ours = OURS_PROXY(sum_i c_i, L), xi_l, B_Edelman = EDELMAN_PROXY(sum_l
EDELMAN_LAYER_WEIGHT(alpha_l) xi_l)), stated as sympy equations over indexed sums in
:mod:`theory.proxy_composition`. :func:`run_composition` runs that table without sympy: each step's
formula is the :mod:`numerics.formulas.generated` formula of that name, evaluated in the arithmetic given
(mpmath points in :func:`numerics.bounds.proxies.proxies`, arb balls in
:func:`numerics.certify.certified.certify_proxies`); the minimum over P_m is the arithmetic's
:meth:`SpectralArithmetic.post_hoc`.

In a mixture-of-experts layer C2(M_in^l) C2(M_out^l) is theory.mixture's max over experts
(:func:`layer_norms`), and an expert's own M_in, M_out read that expert's norms. Only the indices a
reduction runs over are interpreted here; which formula is reduced how is theory's.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import mpmath

from numerics.formulas import generated
from numerics.formulas.arithmetic import Arithmetic
from numerics.formulas.evaluate import CompiledFormula, argument_names
from numerics.formulas.generated import HEAD_LIPSCHITZ, L_PHI_VALUE
from numerics.loading.coverage import Coverage
from numerics.loading.weights import SHARED_EXPERT
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.model import ModelSpectra
from theory.errors import InvalidArgument, require
from theory.kinds import MatrixKind
from theory.proxy_steps import (
    PROXY_COMPOSITION,
    SPECTRAL_NORMS,
    Over,
    Reduce,
    Scope,
    Step,
    scope_of,
    steps_for,
)
from theory.records import record

if TYPE_CHECKING:
    from theory.formula import Formula

Number = TypeVar("Number", bound=Any)
"""A number of the arithmetic: mpmath.mpf or flint.arb."""
Spectral = TypeVar("Spectral", bound=Any)
"""What the arithmetic knows of one matrix's spectrum: a :class:`~numerics.spectra.spectrum.Spectrum`
(mpmath) or a :class:`~numerics.certify.certified.CertifiedMatrix` (arb enclosures)."""
Choice = TypeVar("Choice")
"""The post hoc choice over P_m: a :class:`~numerics.bounds.posthoc.PChoice` (mpmath) or a
:class:`~numerics.certify.certified.BallChoice` (arb)."""


SpectralIn = TypeVar("SpectralIn", contravariant=True)
ChoiceOut = TypeVar("ChoiceOut", covariant=True)


class SpectralArithmetic(Arithmetic[Number], Protocol[Number, SpectralIn, ChoiceOut]):
    """An :class:`~numerics.formulas.arithmetic.Arithmetic` that also minimises a summand over P_m."""

    def post_hoc(self, spectrum: SpectralIn, scale: Number, hidden_size: int) -> tuple[ChoiceOut, Number]:
        """(the choice over P_m, min_{p in P_m} SUMMAND(p, S_p, scale, N)) for one matrix's spectrum."""
        ...


@record(eq=False, kw_only=True)
class MatrixProxy(Generic[Number, Spectral, Choice]):
    """One matrix's share of the proxies, in the arithmetic that composed them: its spectrum, alpha_l,
    gamma, s, the post hoc choice over P_m with its value c = min_{p in P_m} C_p (``contribution``), and
    its Edelman term."""

    matrix: NamedMatrix
    spectrum: Spectral
    alpha: Number
    gamma: Number
    scale: Number
    choice: Choice
    contribution: Number
    edelman_term: Number

    @property
    def p_opt(self) -> Fraction:
        """The minimiser of the summand over the grid P_m (smallest p on ties) of a point arithmetic."""
        return self.choice.p_grid  # type: ignore[attr-defined]

    def row(self) -> dict[str, Any]:
        """This matrix as one table row (the columns of :data:`ROW_COLUMNS`, and ``expert`` for an expert's
        M_in / M_out: its index, -1 for a shared expert; mpmath composition, a stored spectrum); derived
        quantities stay mpf."""
        spec: Any = self.spectrum
        choice: Any = self.choice
        rows, cols = spec.shape
        expert = self.matrix.expert
        return {
            "layer": self.matrix.layer,
            "head": self.matrix.head,
            **({} if expert is None else {"expert": expert}),
            "kind": self.matrix.kind.value,
            "rows": rows,
            "cols": cols,
            "rank": spec.rank,
            "spectral_norm": spec.spectral_norm,
            "frobenius_norm": spec.frobenius_norm,
            "norm_21": spec.norm_21,
            "alpha": self.alpha,
            "gamma": self.gamma,
            "p_opt": float(self.p_opt),
            "contribution": self.contribution,
            "p_continuous": choice.p_continuous,
            "contribution_continuous": choice.value_continuous,
            "scale": self.scale,
            "nuclear_norm": spec.nuclear_norm,
            "norm_11": spec.norm_11,
            "stable_rank": spec.stable_rank,
            "svd_path": spec.svd_path,
        }


ROW_COLUMNS = (
    "layer",
    "head",
    "kind",
    "rows",
    "cols",
    "rank",
    "spectral_norm",
    "frobenius_norm",
    "norm_21",
    "alpha",
    "gamma",
    "p_opt",
    "contribution",
    "p_continuous",
    "contribution_continuous",
    "scale",
    "nuclear_norm",
    "norm_11",
    "stable_rank",
    "svd_path",
)
"""Columns of a per-matrix row (head is -1 for the layer-wide M_in and M_out)."""


def row_columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """:data:`ROW_COLUMNS`, with ``expert`` after ``head`` when a row is an expert's (a mixture model)."""
    columns = list(ROW_COLUMNS)
    if any("expert" in row for row in rows):
        columns.insert(columns.index("head") + 1, "expert")
    return columns


@record(eq=False, kw_only=True)
class ProxyReport(Generic[Number, Spectral, Choice]):
    """B_ours and B_Edelman of one model in one arithmetic, every per-matrix and per-layer quantity, and how
    they were obtained (:func:`compose_proxies`).

    From :func:`numerics.bounds.proxies.proxies` the values are mpmath numbers at ``dps`` digits; from
    :func:`numerics.certify.certified.certify_proxies` arb balls (``dps`` None). ``ours_float`` and
    ``edelman_float`` are float views (inf when a value exceeds float64, e.g. B_Edelman of a very deep
    model; print the number then).
    """

    source: str
    num_layers: int
    hidden_size: int
    num_heads: int
    m: int
    matrices: tuple[MatrixProxy[Number, Spectral, Choice], ...]
    alphas: tuple[Number, ...]
    xis: tuple[Number, ...]
    leading: Number
    ours: Number
    edelman: Number
    decide: Callable[[Number, Number], bool | None]
    """The arithmetic's decision a < b (:meth:`~numerics.formulas.arithmetic.Arithmetic.less`)."""
    signature: str = ""
    dps: int | None = None
    coverage: tuple[Coverage, ...] | None = None
    """The family's coverage records, when ``SpectraOptions(coverage=True)`` took them from the same read."""
    layer_digests: tuple[bytes, ...] | None = None
    """Each layer's content digest, when ``SpectraOptions(digest=True)`` took it from the same read."""

    @property
    def ours_below_edelman(self) -> bool | None:
        """B_ours < B_Edelman decided in the arithmetic (None: balls that overlap)."""
        return self.decide(self.ours, self.edelman)

    @property
    def ours_float(self) -> float:
        """B_ours as a float."""
        return float(self.ours)

    @property
    def edelman_float(self) -> float:
        """B_Edelman as a float (inf beyond float64's range)."""
        return float(self.edelman)

    def p_opt_profile(self) -> dict[str, dict[str, int]]:
        """Matrix kind -> {chosen p (a fraction of the grid P_m, as text): how many matrices of that kind
        chose it}; empty for an arithmetic without a point choice (balls)."""
        profile: dict[str, dict[str, int]] = {}
        for row in self.matrices:
            p = getattr(row.choice, "p_grid", None)
            if p is not None:
                counts = profile.setdefault(row.matrix.kind.value, {})
                counts[str(p)] = counts.get(str(p), 0) + 1
        return profile

    def summary(self) -> dict[str, Any]:
        """The report in a few keys: model, L, N, H, the grid m, both proxies (floats; inf beyond float64's
        range), whether B_ours < B_Edelman was decided, the number of matrices and the p_opt profile
        (:meth:`p_opt_profile`). :meth:`to_frame` has every matrix."""
        return {
            "model": self.source,
            "L": self.num_layers,
            "N": self.hidden_size,
            "H": self.num_heads,
            "m": self.m,
            "B_ours": self.ours_float,
            "B_Edelman": self.edelman_float,
            "ours_below_edelman": self.ours_below_edelman,
            "matrices": len(self.matrices),
            "p_opt": self.p_opt_profile(),
        }

    def __repr__(self) -> str:
        """One short line (the :meth:`summary`), not the per-matrix detail: a notebook cell stays readable."""
        profile = "; ".join(
            f"{kind} " + ", ".join(f"p={p} x{n}" for p, n in counts.items())
            for kind, counts in self.p_opt_profile().items()
        )
        return (
            f"ProxyReport(model={self.source!r}, L={self.num_layers}, N={self.hidden_size}, "
            f"H={self.num_heads}, m={self.m}, B_ours={_short(self.ours)}, B_Edelman={_short(self.edelman)}, "
            f"matrices={len(self.matrices)}, p_opt: {profile or 'n/a'})"
        )

    def to_frame(self) -> Any:
        """One pandas DataFrame row per matrix (columns :data:`ROW_COLUMNS`, floats), for a notebook.

        Needs pandas (``specbound[analysis]``). A value beyond float64's range (alpha or a contribution
        of a very deep model) becomes inf here; the exact mpmath value stays on :attr:`matrices`.
        """
        pd = require("pandas", purpose="to_frame")

        rows = [
            {k: float(v) if isinstance(v, mpmath.mpf) else v for k, v in row.row().items()}
            for row in self.matrices
        ]
        return pd.DataFrame(rows, columns=row_columns(rows))


def _short(value: Any) -> str:
    """A proxy value in at most a few dozen characters: 10 significant digits of an mpf, else its str."""
    text = mpmath.nstr(value, 10) if isinstance(value, mpmath.mpf) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


Quantities = dict[str, Any]
"""The values of a run of the table: a model-wide quantity by name, a per-layer one as a list by layer, a
per-matrix one as a list by matrix (in the order of the spectra)."""


@record(kw_only=True)
class _Model:
    """What the table reads of a model: the spectral norms by (layer, head, kind) (head -1 for M_in and
    M_out), the matrices with their spectra, L, N, and the formulas to use instead of theory's by name."""

    norms: Mapping[tuple[int, int, MatrixKind], object]
    spectra: Sequence[tuple[NamedMatrix, Any]]
    num_layers: int
    hidden_size: int
    formulas: Mapping[str, Formula | CompiledFormula]
    expert_norms: Mapping[tuple[int, int, MatrixKind], object] = field(default_factory=dict)

    @functools.cached_property
    def heads(self) -> list[int]:
        return sorted({head for (_, head, _) in self.norms if head >= 0})


def _read(
    name: str, values: Quantities, model: _Model, layer: int, head: int | None, row: int | None
) -> object:
    """Quantity ``name`` at a body's index (:data:`theory.proxy_steps.MEASURED` or an earlier target)."""
    if name in SPECTRAL_NORMS:
        kind = SPECTRAL_NORMS[name]
        expert = None if row is None or kind.per_head else model.spectra[row][0].expert
        if expert is not None:
            return model.expert_norms[layer, expert, kind]
        return model.norms[layer, head if kind.per_head else -1, kind]  # type: ignore[index]
    if name == "n21":
        return model.spectra[row][1].norm_21  # type: ignore[index]
    if name in ("L", "N", "L_phi"):
        return {"L": model.num_layers, "N": model.hidden_size, "L_phi": L_PHI_VALUE}[name]
    scope = scope_of(name)
    if scope is Scope.MODEL:
        return values[name]
    return values[name][layer if scope is Scope.LAYER else row]


def _body(
    arithmetic: Arithmetic[Number],
    step: Step,
    values: Quantities,
    model: _Model,
    layer: int,
    head: int | None = None,
    row: int | None = None,
) -> Number:
    """The step's body at one index: its formula at the bound quantities, or the product of its factors."""
    if step.formula is None:
        factors: list[Any] = [_read(name, values, model, layer, head, row) for name in step.factors]
        product: Number = functools.reduce(operator.mul, factors)
        return product
    formula = model.formulas.get(step.formula) or getattr(generated, step.formula)
    if isinstance(formula, dict):
        formula = formula[model.spectra[row][0].kind]  # type: ignore[index]
    names = argument_names(formula)
    bound = {a: _read(q, values, model, layer, head, row) for a, q in step.inputs if a in names}
    return arithmetic.evaluate(formula, **bound)


Index = tuple[int, int | None, int | None]
"""Where a body reads its quantities: (layer, head or None, matrix row or None)."""


def _indices(over: Over, model: _Model, layer: int) -> Iterator[Index]:
    """The body's indices a reduction over ``over`` runs through, for a step at ``layer`` (a product over
    the later layers runs from k = L - 1 down, as alpha_l = alpha_{l+1} lambda_{l+1})."""
    if over is Over.HEADS:
        yield from ((layer, head, None) for head in model.heads)
    elif over is Over.LATER_LAYERS:
        yield from ((later, None, None) for later in reversed(range(layer + 1, model.num_layers)))
    elif over is Over.LAYERS:
        yield from ((each, None, None) for each in range(model.num_layers))
    else:
        for row, (matrix, _) in enumerate(model.spectra):
            if over is Over.MATRICES or matrix.layer == layer:
                yield matrix.layer, matrix.head, row


def _value(
    arithmetic: Arithmetic[Number], step: Step, values: Quantities, model: _Model, at: Index
) -> Number:
    """The step's value at index ``at``: its body there, or its sum or product (from one) over its index."""
    if step.over is None:
        return _body(arithmetic, step, values, model, *at)
    terms = (_body(arithmetic, step, values, model, *where) for where in _indices(step.over, model, at[0]))
    if step.reduce is Reduce.SUM:
        return arithmetic.total(terms)
    if step.reduce is Reduce.PRODUCT:
        return functools.reduce(operator.mul, terms, arithmetic.one)
    raise InvalidArgument(f"{step.target}: a {step.reduce} over {step.over} is not a reduction of the table")


def _post_hoc(
    arithmetic: SpectralArithmetic[Number, Any, Any], values: Quantities, model: _Model, source: str
) -> list[tuple[Any, Number]]:
    """min_{p in P_m} SUMMAND of every matrix: the arithmetic's post hoc choice
    (:meth:`SpectralArithmetic.post_hoc`, which evaluates SUMMAND), (choice, value) per matrix."""
    results = []
    for row, (matrix, spec) in enumerate(model.spectra):
        scale: Any = _read("s", values, model, matrix.layer, matrix.head, row)
        try:
            results.append(arithmetic.post_hoc(spec, scale, model.hidden_size))
        except InvalidArgument as error:
            raise InvalidArgument(f"{matrix.label} of {source}: {error}") from None
    return results


def run_composition(
    arithmetic: SpectralArithmetic[Number, Any, Any],
    steps: Sequence[Step],
    model: _Model,
    source: str = "the model",
) -> tuple[Quantities, list[Any]]:
    """Every quantity of ``steps`` (a part of :data:`theory.proxy_steps.PROXY_COMPOSITION`, in its order)
    in ``arithmetic``, and the post hoc choice of each matrix (empty when no step minimises over P_m)."""
    values: Quantities = {}
    choices: list[Any] = []
    with arithmetic.context():
        for step in steps:
            if step.over is Over.GRID:
                found = _post_hoc(arithmetic, values, model, source)
                choices = [choice for choice, _ in found]
                values[step.target] = [value for _, value in found]
            elif step.scope is Scope.MODEL:
                values[step.target] = _value(arithmetic, step, values, model, (0, None, None))
            elif step.scope is Scope.LAYER:
                at = ((layer, None, None) for layer in range(model.num_layers))
                values[step.target] = [_value(arithmetic, step, values, model, where) for where in at]
            else:
                rows = ((m.layer, m.head, row) for row, (m, _) in enumerate(model.spectra))
                values[step.target] = [_value(arithmetic, step, values, model, where) for where in rows]
    return values, choices


def depth_factors(
    arithmetic: Arithmetic[Number],
    norms: Mapping[tuple[int, int, MatrixKind], object],
    num_layers: int,
    head_factor: Formula | CompiledFormula = HEAD_LIPSCHITZ,
) -> tuple[Number, ...]:
    """alpha_l = prod_{k > l} lambda_k for every layer l, alpha_{L-1} = 1, lambda_l = LAYER_LIPSCHITZ(L_phi,
    C2(M_in^l), C2(M_out^l), A_l), A_l = sum_h head_factor(C2(Vt_h^l), C2(QK_h^l)) (exact; the steps of
    :data:`theory.proxy_steps.PROXY_COMPOSITION` alpha depends on). ``head_factor`` is the exact
    HEAD_LIPSCHITZ of the proxies unless given (the assembled bound passes
    ``theory.assembled.HEAD_LIPSCHITZ``); ``norms`` maps (layer, head, kind) to C2 (head -1 for M_in, M_out).

    In mpmath the products overflow float64 on deep models, not here.
    """
    model = _Model(
        norms=norms,
        spectra=(),
        num_layers=num_layers,
        hidden_size=0,
        formulas={"HEAD_LIPSCHITZ": head_factor},
    )
    values, _ = run_composition(arithmetic, steps_for("alpha"), model)  # type: ignore[arg-type]
    return tuple(values["alpha"])


def layer_norms(
    arithmetic: Arithmetic[Number], spectra: Sequence[tuple[NamedMatrix, Spectral]]
) -> tuple[dict[tuple[int, int, MatrixKind], Any], dict[tuple[int, int, MatrixKind], Any]]:
    """C2 of every matrix keyed (layer, head, kind), and of every expert's M_in, M_out keyed (layer,
    expert, kind).

    A mixture layer's (layer, -1, M_in) is theory.mixture's MIXTURE_FEED_FORWARD_NORM,
    max_e C2(M_in^e) C2(M_out^e) + C2(M_in^s) C2(M_out^s) (the shared term absent without a shared
    expert), with (layer, -1, M_out) = 1, so that every formula reading C_in C_out of the layer (its
    LAYER_LIPSCHITZ, the attention matrices' GAMMA and EDELMAN_TERM) reads the mixture's product; a dense
    layer's entries are its matrices' norms as they are. Call inside ``arithmetic.context()``.
    """
    norms: dict[tuple[int, int, MatrixKind], Any] = {}
    experts: dict[tuple[int, int, MatrixKind], Any] = {}
    for matrix, spec in spectra:
        if matrix.expert is None:
            norms[matrix.layer, matrix.head, matrix.kind] = spec.spectral_norm
        else:
            experts[matrix.layer, matrix.expert, matrix.kind] = spec.spectral_norm

    def product(layer: int, expert: int) -> Number:
        c_in, c_out = (
            arithmetic.number(experts[layer, expert, kind], f"C2 of L{layer} expert {expert} {kind.value}")
            for kind in (MatrixKind.M_IN, MatrixKind.M_OUT)
        )
        return c_in * c_out

    for layer in sorted({layer for layer, _, _ in experts}):
        indices = sorted({expert for key_layer, expert, _ in experts if key_layer == layer})
        routed = arithmetic.maximum(product(layer, e) for e in indices if e != SHARED_EXPERT)
        shared = product(layer, SHARED_EXPERT) if SHARED_EXPERT in indices else arithmetic.zero
        norms[layer, -1, MatrixKind.M_IN] = arithmetic.evaluate(
            generated.MIXTURE_FEED_FORWARD_NORM, P_experts=routed, P_shared=shared
        )
        norms[layer, -1, MatrixKind.M_OUT] = arithmetic.one
    return norms, experts


def compose_proxies(
    arithmetic: SpectralArithmetic[Number, Spectral, Choice],
    spectra: ModelSpectra[Spectral],
    *,
    m: int,
    signature: str = "",
    dps: int | None = None,
) -> ProxyReport[Number, Spectral, Choice]:
    """B_ours and B_Edelman of the model ``spectra`` in ``arithmetic``: the table
    :data:`theory.proxy_steps.PROXY_COMPOSITION` run by :func:`run_composition` over its matrices, with
    every per-matrix and per-layer quantity, on the grid P_m. The :class:`ProxyReport` carries the model's
    source, L, N, H, coverage and layer digests from the record, and ``signature`` (how the numbers were
    obtained) and ``dps`` (mpmath's digits; None for balls). Errors of the post hoc choice name the matrix
    they concern."""
    matrices = spectra.matrices
    with arithmetic.context():
        norms, expert_norms = layer_norms(arithmetic, matrices)
    model = _Model(
        norms=norms,
        spectra=matrices,
        num_layers=spectra.num_layers,
        hidden_size=spectra.hidden_size,
        formulas={},
        expert_norms=expert_norms,
    )
    values, choices = run_composition(arithmetic, PROXY_COMPOSITION, model, spectra.source)
    alphas = tuple(values["alpha"])
    rows = tuple(
        MatrixProxy(
            matrix=matrix,
            spectrum=spec,
            alpha=alphas[matrix.layer],
            gamma=values["gamma"][row],
            scale=values["s"][row],
            choice=choices[row],
            contribution=values["c"][row],
            edelman_term=values["xi_term"][row],
        )
        for row, (matrix, spec) in enumerate(matrices)
    )
    return ProxyReport(
        source=spectra.source,
        num_layers=spectra.num_layers,
        hidden_size=spectra.hidden_size,
        num_heads=spectra.num_heads,
        m=m,
        matrices=rows,
        alphas=alphas,
        xis=tuple(values["xi"]),
        leading=values["Sigma"],
        ours=values["B_ours"],
        edelman=values["B_Edelman"],
        decide=arithmetic.less,
        signature=signature,
        dps=dps,
        coverage=spectra.coverage,
        layer_digests=spectra.layer_digests,
    )
