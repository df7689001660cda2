"""The theory's reach as data: per block of a model family, does the analysed class cover it?

A :class:`Coverage` record says, for one block (attention, feed-forward, normalisation, positions,
masking, ...), whether the family's block is the analysed one (``exact``), is covered only under a
stated assumption (``assumption``), or is outside the class (``outside``), with the statement and its
provenance tag (``exact``/``standard``/``reconstructed``/``derived``, as everywhere in specbound).
``value`` carries a number the statement computes from the weights (for example the Lipschitz constant
of a SwiGLU block on a ball), or None.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import asdict
from enum import StrEnum
from typing import Any

from theory.errors import InvalidArgument
from theory.provenance import Provenance
from theory.records import record


class CoverageStatus(StrEnum):
    """How a family's block relates to the analysed network class: it is the class's own block, it is
    covered under a stated assumption, or it lies outside the class. Serialised as its value."""

    EXACT = "exact"
    ASSUMPTION = "assumption"
    OUTSIDE = "outside"


@record
class Coverage:
    """How one block of a family relates to the analysed network class."""

    block: str
    status: CoverageStatus
    """A :class:`CoverageStatus`; its text (as read back from JSON) is accepted and converted."""
    statement: str
    provenance: str
    value: float | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "status", CoverageStatus(self.status))  # frozen: set once, here
        except ValueError:
            raise InvalidArgument(
                f"coverage status {self.status!r} is not one of {', '.join(CoverageStatus)}"
            ) from None
        if self.provenance.split(":")[0] not in set(Provenance):
            raise InvalidArgument(
                f"coverage provenance {self.provenance!r} must start with one of {', '.join(Provenance)}"
            )

    def as_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (keys block, status, statement, provenance, value)."""
        return asdict(self)


def coverage_value(name: str, value: object, where: str) -> float:
    """A measure of the coverage records (computed in mpmath, or float64) as the float64 a record holds;
    InvalidArgument naming the measure, its value and ``where`` when it lies beyond float64's range (a
    record never holds inf: the CLI would print it and JSON has none)."""
    import mpmath

    number = mpmath.mpf(value)
    if mpmath.isfinite(number) and abs(number) <= sys.float_info.max:
        return float(number)
    raise InvalidArgument(
        f"{where}: the coverage value {name} = {mpmath.nstr(number, 6)} lies beyond float64's range "
        f"(at most {sys.float_info.max:.3g}); weights this large are refused"
    )


COVERAGE_WIDTH = 100
"""Columns of a coverage line; a longer record continues on lines indented to its statement's column."""


def coverage_lines(records: tuple[Coverage, ...]) -> list[str]:
    """The records as text lines for the CLI, one block each, wrapped at COVERAGE_WIDTH under the
    statement's column (words are never broken)."""
    import textwrap

    if not records:
        return []
    width = max(len(entry.block) for entry in records)
    lines = ["theory coverage (exact / assumption / outside the analysed class):"]
    for entry in records:
        value = "" if entry.value is None else f" [value {entry.value:.6g}]"
        head = f"  {entry.block.ljust(width)}  {entry.status:<10}  "
        text = f"{entry.statement}{value} ({entry.provenance})"
        lines += textwrap.wrap(
            text,
            COVERAGE_WIDTH,
            initial_indent=head,
            subsequent_indent=" " * len(head),
            break_long_words=False,
            break_on_hyphens=False,
        )
    return lines


TANH_GELU = ("gelu_new", "gelu_pytorch_tanh", "gelu_fast", "gelu_python_tanh")
"""transformers' names of the tanh approximation of GELU."""
EXACT_GELU = ("gelu", "gelu_python")
SILU = ("silu", "swish")


def activation_kind(activation: str) -> str:
    """``gelu``, ``tanh`` (tanh-GELU), ``silu`` or ``relu`` for the transformers names of those, else the
    name itself."""
    for kind, names in (("gelu", EXACT_GELU), ("tanh", TANH_GELU), ("silu", SILU), ("relu", ("relu",))):
        if activation in names:
            return kind
    return activation


def activation_of(config: Mapping[str, Any], key: str, default: str) -> str:
    """The activation a config names under ``key`` (``hidden_act``, ``activation_function``, ...)."""
    value = config.get(key)
    return value if isinstance(value, str) else default


def feed_forward(activation: str, *, gated: bool, value: float | None = None) -> Coverage:
    """The feed-forward record for an activation (a transformers name) and a gated or plain block.

    Plain: exact GELU is the analysed block (L_phi = 1.13); tanh-GELU, ReLU and SiLU are Lipschitz with
    their own constants but not the analysed GELU (assumption, the constant as value); any other is outside.
    Gated (W_down (act(W_gate x) * W_up x)): outside, with its Lipschitz constant on the unit ball as value.
    """
    if gated:
        return _gated(activation, value)
    if activation in EXACT_GELU:
        return Coverage(
            "feed-forward",
            CoverageStatus.EXACT,
            "W_out gelu(W_in x): M_in = W_in^T, M_out = W_out^T, L_phi = 1.13",
            "exact: the authors' extract.py and bounds.py",
        )
    constants = {
        "tanh": ("the tanh approximation of GELU, sup |gelu_tanh'| at its stationary points (sympy nsolve)",),
        "relu": ("ReLU, 1-Lipschitz with relu(0) = 0",),
        "silu": ("SiLU, sup |silu'| at its stationary points (sympy nsolve)",),
    }
    kind = activation_kind(activation)
    if kind not in constants:
        return Coverage(
            "feed-forward",
            CoverageStatus.OUTSIDE,
            f"W_out act(W_in x) with activation {activation!r}: no Lipschitz constant is known to specbound",
            "reconstructed: our reading of the config's activation",
        )
    from theory.gated import activation_prime_sup

    return Coverage(
        "feed-forward",
        CoverageStatus.ASSUMPTION,
        f"W_out act(W_in x) with act = {activation} ({constants[kind][0]}): M_in = W_in^T, M_out = W_out^T; "
        "the analysed class is the GELU network with L_phi = 1.13, and its bound is assumed to hold for this "
        "activation with L_phi = 1.13 (value: sup |act'|, which is <= 1.13)",
        "reconstructed: our mapping of the block; theory.gated.activation_prime_sup",
        float(activation_prime_sup(kind)),
    )


def _gated(activation: str, value: float | None) -> Coverage:
    kind = activation_kind(activation)
    if kind not in ("silu", "tanh", "gelu"):
        return Coverage(
            "feed-forward",
            CoverageStatus.OUTSIDE,
            f"gated W_down (act(W_gate x) * W_up x) with activation {activation!r}: no Lipschitz constant "
            "is known to specbound",
            "reconstructed: our reading of the config's activation",
        )
    from theory.gated import activation_prime_sup

    name = {"silu": "SwiGLU", "tanh": "GeGLU (tanh-GELU gate)", "gelu": "GeGLU (exact GELU gate)"}[kind]
    sup = float(activation_prime_sup(kind))
    return Coverage(
        "feed-forward",
        CoverageStatus.OUTSIDE,
        f"{name} W_down (act(W_gate x) * W_up x), act = {activation}, is not globally Lipschitz; "
        "M_in = [W_gate; W_up]^T, M_out = W_down^T; under the assumption ||x||_2 <= b its Lipschitz constant "
        f"is <= ||W_down|| b ({sup:.5g} r(W_up) ||W_gate|| + r(W_gate) ||W_up||), r = largest row norm, "
        f"{sup:.5g} = sup |act'|; value: max over layers at b = 1 (it scales linearly in b)",
        "reconstructed: theory.gated (mean-value bound; sup |act'| located by sympy nsolve)",
        value,
    )


def biases(attention: bool, mlp: bool) -> Coverage:
    """The biases record from whether the attention and the feed-forward projections carry biases."""
    if not (attention or mlp):
        return Coverage(
            "biases",
            CoverageStatus.EXACT,
            "no projection biases: the linear maps are bias-free, as in the analysed class",
            "reconstructed: our reading of the config's bias fields",
        )
    where = " and ".join(
        part for part, present in (("attention", attention), ("feed-forward", mlp)) if present
    )
    return Coverage(
        "biases",
        CoverageStatus.OUTSIDE,
        f"the {where} projection biases are dropped: the analysed class has bias-free linear maps",
        "exact: the authors' extract.py keeps weights only",
    )


NORMS = {
    "layer": "LayerNorm ((x - mean) / std * g + b)",
    "rms": "RMSNorm (x / rms(x) * g, no centring)",
    "rms1p": "RMSNorm with gain 1 + w (x / rms(x) * (1 + w), no centring)",
}
PLACEMENTS = {
    "post": "after each residual sum (post-LN)",
    "pre": "before each sub-block, and a final one (pre-norm)",
    "sandwich": "before and after each sub-block, inside the residual (pre- and post-norm), and a final one",
    "post_sublayer": "on each sub-block's output, inside the residual (x + norm(f(x))), and a final one",
}


def normalisation(kind: str, placement: str) -> Coverage:
    """The normalisation record: which norm (:data:`NORMS`) where (:data:`PLACEMENTS`); always outside."""
    return Coverage(
        "normalisation",
        CoverageStatus.OUTSIDE,
        f"{NORMS[kind]} {PLACEMENTS[placement]}; the theory drops normalisation (its Lipschitz constant, "
        "the gain over the smallest token scale, is not bounded by the weights)",
        "exact: the authors' extract.py ignores normalisation",
    )


_SOFTMAX = (
    "softmax is 1-Lipschitz from the max norm to the l1 norm (the sharp Jacobian bound, which the "
    "project's bound uses; the authors' constant 2 is kept by their exact proxy, 1 + 4 C2(QK))"
)


def masking(causal: bool, window: int | None = None) -> Coverage:
    """The masking record: bidirectional (over all tokens, or within ``window`` positions either side on
    local layers), causal, or causal within a sliding window of ``window`` tokens."""
    if not causal:
        local = (
            ""
            if window is None
            else f" (on the local layers, the tokens within {window} positions either side: the unmasked "
            "softmax of a subset of the logits, whose max-norm distance is at most the whole vector's, so "
            "the same constant holds)"
        )
        return Coverage(
            "masking",
            CoverageStatus.EXACT,
            f"bidirectional softmax over all tokens{local}: {_SOFTMAX}",
            "derived: theory.lipschitz (softmax lemma)",
        )
    span = (
        "the prefix 1..t"
        if window is None
        else f"the prefix 1..t (its last {window} tokens on the layers with a sliding window)"
    )
    return Coverage(
        "masking",
        CoverageStatus.EXACT,
        f"causal mask: token t's softmax runs over {span} only; it is the unmasked softmax of those "
        "logits, and max_{s in S} |u_s - v_s| <= max_s |u_s - v_s|, so the same constant holds and the "
        f"attention Lipschitz bound is unchanged; {_SOFTMAX}",
        "derived: theory.lipschitz (softmax lemma), applied to the attended tokens",
    )


ATTENTION_EXACT = Coverage(
    "attention",
    CoverageStatus.EXACT,
    "multi-head softmax(x Wq_h^T Wk_h x'^T / sqrt(d_h)) x Wv_h^T Wo_h^T, QK_h and Vt_h per head",
    "exact: the authors' extract.py",
)
ATTENTION_GROUPED = Coverage(
    "attention",
    CoverageStatus.EXACT,
    "multi-head softmax attention; grouped-query: head h shares key/value head h // (H/K), so QK_h = "
    "Wq_h^T Wk_g and Vt_h = Wv_g^T Wo_h^T with g = h // (H/K) (weights shared within a group)",
    "reconstructed: our mapping, tested against the transformers forward pass",
)
ABSOLUTE_POSITIONS = Coverage(
    "positions",
    CoverageStatus.EXACT,
    "learned absolute position embeddings are added to the input once; no block depends on position",
    "reconstructed: our reading of the family's forward pass",
)


def at_offset_zero(attention: Coverage) -> Coverage:
    """An attention record under rotary positions: an assumption (at best), since the bilinear form of head
    h at relative offset t is Wq_h^T R_t Wk_g and QK_h = Wq_h^T Wk_g is that form at t = 0 only (the
    positions record bounds every t). Records already outside the class are kept."""
    if attention.status is CoverageStatus.OUTSIDE:
        return attention
    return Coverage(
        attention.block,
        CoverageStatus.ASSUMPTION,
        f"{attention.statement}; with rotary positions head h's logit at offset t is x Wq_h^T R_t Wk_g x'^T, "
        "so QK_h = Wq_h^T Wk_g is the analysed form at offset 0 only (the positions record covers every t)",
        attention.provenance,
    )


def rotary(value: float | None, fraction: float = 1.0) -> Coverage:
    """Rotary positions on a ``fraction`` of each head's dimensions, with the position-free Horn bound."""
    dims = (
        "every head dimension"
        if fraction == 1.0
        else f"the first {fraction:g} d_h dimensions of each head (the rest pass unrotated: R_t = "
        "diag(rotation, I), still orthogonal)"
    )
    return Coverage(
        "positions",
        CoverageStatus.ASSUMPTION,
        f"rotary embeddings on {dims}: head h's bilinear form is Wq_h^T R_t Wk_h at relative offset t; the "
        "bound is evaluated at t = 0; for every t, sum_i sigma_i^p <= sum_i (sigma_i(Wq_h) sigma_i(Wk_h))^p "
        "(p > 0), sigma_1 <= sigma_1(Wq_h) sigma_1(Wk_h) and rank <= d_h; value: max over layers and heads "
        "of that position-free sigma_1 bound",
        "standard: Horn 1950; Horn & Johnson, Topics in Matrix Analysis, Thm 3.3.4 and 3.3.14",
        value,
    )
