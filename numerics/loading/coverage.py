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
from dataclasses import asdict, dataclass
from typing import Any

from theory.errors import InvalidArgument

STATUSES = ("exact", "assumption", "outside")
PROVENANCES = ("exact", "standard", "reconstructed", "derived")


@dataclass(frozen=True)
class Coverage:
    """How one block of a family relates to the analysed network class."""

    block: str
    status: str
    statement: str
    provenance: str
    value: float | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise InvalidArgument(f"coverage status {self.status!r} is not one of {', '.join(STATUSES)}")
        if self.provenance.split(":")[0] not in PROVENANCES:
            raise InvalidArgument(
                f"coverage provenance {self.provenance!r} must start with one of {', '.join(PROVENANCES)}"
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


def gelu_tanh_coverage() -> Coverage:
    """GPT-2's tanh-GELU feed-forward: L_phi = 1.13 assumed; value: sup |gelu_tanh'| located by sympy."""
    from theory.gated import gelu_tanh_prime_sup

    return Coverage(
        "feed-forward",
        "assumption",
        "W_out gelu_tanh(W_in x) (the tanh approximation of GELU): L_phi = 1.13 is certified for exact GELU "
        "only and assumed here; value: sup |gelu_tanh'| at its stationary points (sympy nsolve, uncertified)",
        "reconstructed: our mapping of the block; theory.gated.gelu_tanh_prime_sup",
        float(gelu_tanh_prime_sup()),
    )


def coverage_lines(records: tuple[Coverage, ...]) -> list[str]:
    """The records as text lines for the CLI, one per block."""
    if not records:
        return []
    width = max(len(record.block) for record in records)
    lines = ["theory coverage (exact / assumption / outside the analysed class):"]
    for record in records:
        value = "" if record.value is None else f" [value {record.value:.6g}]"
        head = f"  {record.block.ljust(width)}  {record.status:<10}"
        lines.append(f"{head}  {record.statement}{value} ({record.provenance})")
    return lines


BIASES = Coverage(
    "biases",
    "outside",
    "the projection biases are dropped: the analysed class has bias-free linear maps",
    "exact: the authors' extract.py keeps weights only",
)
LAYER_NORM_POST = Coverage(
    "normalisation",
    "outside",
    "post-LN LayerNorm after each residual sum; the theory drops normalisation (its Lipschitz constant, "
    "1/(smallest token standard deviation) times the gain, is not bounded by the weights)",
    "exact: the authors' extract.py ignores LayerNorm",
)
LAYER_NORM_PRE = Coverage(
    "normalisation",
    "outside",
    "pre-LN LayerNorm before each sub-block (and a final one); the theory drops normalisation",
    "exact: the authors' extract.py ignores LayerNorm",
)
RMS_NORM_PRE = Coverage(
    "normalisation",
    "outside",
    "pre-norm RMSNorm (x / rms(x) * g, no centring) before each sub-block; the theory drops normalisation",
    "exact: the authors' extract.py ignores normalisation",
)
ATTENTION_EXACT = Coverage(
    "attention",
    "exact",
    "multi-head softmax(x Wq_h^T Wk_h x'^T / sqrt(d_h)) x Wv_h^T Wo_h^T, QK_h and Vt_h per head",
    "exact: the authors' extract.py",
)
GELU = Coverage(
    "feed-forward",
    "exact",
    "W_out gelu(W_in x): M_in = W_in^T, M_out = W_out^T, L_phi = 1.13",
    "exact: the authors' extract.py and bounds.py",
)
SOFTMAX_UNMASKED = Coverage(
    "masking",
    "exact",
    "bidirectional softmax over all tokens: 2-Lipschitz from the max norm to the l1 norm",
    "standard: Edelman, Goel, Kakade & Zhang 2022, Cor. A.7",
)
SOFTMAX_CAUSAL = Coverage(
    "masking",
    "exact",
    "causal mask: token t's softmax runs over the prefix 1..t only; it is the unmasked softmax of the "
    "prefix's logits, and max_{s<=t} |u_s - v_s| <= max_s |u_s - v_s|, so the same constant 2 (max norm "
    "to l1) holds and the attention Lipschitz bound is unchanged",
    "standard: Edelman, Goel, Kakade & Zhang 2022, Cor. A.7, applied to the prefix",
)
ABSOLUTE_POSITIONS = Coverage(
    "positions",
    "exact",
    "learned absolute position embeddings are added to the input once; no block depends on position",
    "reconstructed: our reading of the family's forward pass",
)
