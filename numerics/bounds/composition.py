"""The proxies B_ours and B_Edelman composed once, over any :class:`SpectralArithmetic` (docs: proxies).

Provenance: exact (the authors' ``bounds.py``: ``ours_posthoc_proxy``, ``edelman_multihead_proxy``); every
number is a formula of :mod:`theory.proxy` evaluated in the arithmetic given (mpmath points in
:func:`numerics.bounds.proxies.proxies`, arb balls in :func:`numerics.certify.certified.certify_proxies`).
For a model of L layers, heads h and matrices i (layer l_i, kind k_i):

- A_l = sum_h HEAD_LIPSCHITZ(C2(Vt_h^l), C2(QK_h^l)), lambda_l = LAYER_LIPSCHITZ(L_phi, C2(M_in^l),
  C2(M_out^l), A_l), and alpha_l = prod_{k > l} lambda_k (alpha_{L-1} = 1); in a mixture-of-experts
  layer C2(M_in^l) C2(M_out^l) is theory.mixture's max over experts (:func:`layer_norms`) and an expert's
  own M_in, M_out read that expert's norms;
- gamma_i = GAMMA[k_i], s_i = SCALE(gamma_i, alpha_{l_i}, L), and the post hoc contribution
  c_i = min_{p in P_m} SUMMAND(p, S_p(W_i), s_i, N) (the arithmetic's :meth:`SpectralArithmetic.post_hoc`);
- B_ours = OURS_PROXY(sum_i c_i, L);
- xi_l = sum_{i: l_i = l} EDELMAN_TERM[k_i], B_Edelman = EDELMAN_PROXY(sum_l EDELMAN_LAYER_WEIGHT(alpha_l)
  xi_l).

Only these indexed sums and products are written here; the summands are theory's formulas.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import mpmath

from numerics.formulas.arithmetic import Arithmetic
from numerics.formulas.evaluate import CompiledFormula, argument_names
from numerics.formulas.generated import (
    EDELMAN_LAYER_WEIGHT,
    EDELMAN_PROXY,
    EDELMAN_TERM,
    GAMMA,
    HEAD_LIPSCHITZ,
    L_PHI_VALUE,
    LAYER_LIPSCHITZ,
    OURS_PROXY,
    SCALE,
)
from numerics.loading.coverage import Coverage
from numerics.loading.weights import SHARED_EXPERT
from numerics.spectra.matrices import NamedMatrix
from theory.errors import InvalidArgument, require
from theory.kinds import MatrixKind

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


@dataclass(frozen=True, eq=False, kw_only=True)
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


@dataclass(frozen=True, eq=False, kw_only=True)
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


def layer_factors(
    arithmetic: Arithmetic[Number],
    norms: Mapping[tuple[int, int, MatrixKind], object],
    num_layers: int,
    head_factor: Formula | CompiledFormula = HEAD_LIPSCHITZ,
) -> list[Number]:
    """lambda_l = LAYER_LIPSCHITZ(L_phi, C2(M_in^l), C2(M_out^l), A_l) of every layer (exact, docs: proxies).

    A_l = sum_h head_factor(C2(Vt_h^l), C2(QK_h^l)), ``head_factor`` the exact HEAD_LIPSCHITZ of the
    proxies unless given (the assembled bound passes ``theory.assembled.HEAD_LIPSCHITZ``); ``norms`` maps
    (layer, head, kind) to C2 (head -1 for M_in, M_out).
    """
    heads = sorted({head for (_, head, _) in norms if head >= 0})
    factors = []
    for layer in range(num_layers):
        head_sum = sum(
            (
                arithmetic.evaluate(
                    head_factor, C_V=norms[layer, h, MatrixKind.VT], C_QK=norms[layer, h, MatrixKind.QK]
                )
                for h in heads
            ),
            arithmetic.zero,
        )
        factors.append(
            arithmetic.evaluate(
                LAYER_LIPSCHITZ,
                L_phi=L_PHI_VALUE,
                C_in=norms[layer, -1, MatrixKind.M_IN],
                C_out=norms[layer, -1, MatrixKind.M_OUT],
                A=head_sum,
            )
        )
    return factors


def depth_factors(
    arithmetic: Arithmetic[Number],
    norms: Mapping[tuple[int, int, MatrixKind], object],
    num_layers: int,
    head_factor: Formula | CompiledFormula = HEAD_LIPSCHITZ,
) -> tuple[Number, ...]:
    """alpha_l = prod_{k > l} lambda_k for every layer l, alpha_{L-1} = 1 (exact; :func:`layer_factors`).

    In mpmath the products overflow float64 on deep models, not here.
    """
    with arithmetic.context():
        factors = layer_factors(arithmetic, norms, num_layers, head_factor)
        alphas = [arithmetic.one] * num_layers
        for layer in range(num_layers - 2, -1, -1):
            alphas[layer] = alphas[layer + 1] * factors[layer + 1]
        return tuple(alphas)


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
        norms[layer, -1, MatrixKind.M_IN] = routed + shared
        norms[layer, -1, MatrixKind.M_OUT] = arithmetic.one
    return norms, experts


def _by_name(formula: CompiledFormula, available: Mapping[str, object]) -> dict[str, object]:
    """The formula's arguments taken by name from ``available`` (extra keys ignored)."""
    return {name: available[name] for name in argument_names(formula)}


def compose_proxies(
    arithmetic: SpectralArithmetic[Number, Spectral, Choice],
    spectra: Sequence[tuple[NamedMatrix, Spectral]],
    *,
    num_layers: int,
    hidden_size: int,
    num_heads: int,
    m: int,
    source: str,
    **metadata: Any,
) -> ProxyReport[Number, Spectral, Choice]:
    """B_ours and B_Edelman of the matrices ``spectra`` in ``arithmetic`` (module docstring), with every
    per-matrix and per-layer quantity; ``metadata`` (signature, dps, coverage, layer_digests) is passed to
    the :class:`ProxyReport`. Errors of the post hoc choice name the matrix they concern."""
    with arithmetic.context():
        norms, expert_norms = layer_norms(arithmetic, spectra)
    alphas = depth_factors(arithmetic, norms, num_layers)
    rows = []
    with arithmetic.context():
        for matrix, spec in spectra:
            layer = matrix.layer
            block = norms if matrix.expert is None else expert_norms
            index = -1 if matrix.expert is None else matrix.expert
            available: dict[str, object] = {
                "C_in": block[layer, index, MatrixKind.M_IN],
                "C_out": block[layer, index, MatrixKind.M_OUT],
                "n21": spec.norm_21,
            }
            if matrix.kind.per_head:
                available["C_V"] = norms[layer, matrix.head, MatrixKind.VT]
            gamma = arithmetic.evaluate(GAMMA[matrix.kind], **_by_name(GAMMA[matrix.kind], available))
            scale = arithmetic.evaluate(SCALE, gamma=gamma, alpha=alphas[layer], L=num_layers)
            try:
                choice, value = arithmetic.post_hoc(spec, scale, hidden_size)
            except InvalidArgument as error:
                raise InvalidArgument(f"{matrix.label} of {source}: {error}") from None
            term = EDELMAN_TERM[matrix.kind]
            edelman_term = arithmetic.evaluate(term, **_by_name(term, available))
            rows.append(
                MatrixProxy(
                    matrix=matrix,
                    spectrum=spec,
                    alpha=alphas[layer],
                    gamma=gamma,
                    scale=scale,
                    choice=choice,
                    contribution=value,
                    edelman_term=edelman_term,
                )
            )
        leading = arithmetic.total(row.contribution for row in rows)
        ours = arithmetic.evaluate(OURS_PROXY, Sigma=leading, L=num_layers)
        xis = tuple(
            arithmetic.total(row.edelman_term for row in rows if row.matrix.layer == layer)
            for layer in range(num_layers)
        )
        xi_total = arithmetic.total(
            arithmetic.evaluate(EDELMAN_LAYER_WEIGHT, alpha=alphas[layer]) * xis[layer]
            for layer in range(num_layers)
        )
        edelman = arithmetic.evaluate(EDELMAN_PROXY, Xi=xi_total)
    return ProxyReport(
        source=source,
        num_layers=num_layers,
        hidden_size=hidden_size,
        num_heads=num_heads,
        m=m,
        matrices=tuple(rows),
        alphas=alphas,
        xis=xis,
        leading=leading,
        ours=ours,
        edelman=edelman,
        decide=arithmetic.less,
        **metadata,
    )
