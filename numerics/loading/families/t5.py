"""T5 (and T5 v1.1's gated feed-forward): an encoder-decoder with a relative position bias and unscaled
logits (:mod:`.seq2seq`).

Keys ``<prefix>encoder.block.{i}.layer.0.SelfAttention.q`` / ``k`` / ``v`` / ``o`` (``nn.Linear``, no
biases; H heads of ``d_kv``, so H d_kv may differ from N = ``d_model``), the feed-forward
``layer.1.DenseReluDense.wi`` (Win) and ``wo`` (Wout); a decoder block ``decoder.block.{j}.`` has the
self-attention as ``layer.0``, the cross-attention ``layer.1.EncDecAttention.q`` ... ``o`` and the
feed-forward as ``layer.2``. ``feed_forward_proj`` ``"gated-ACT"`` (T5 v1.1, Flan-T5) makes the
feed-forward Wo (act(Wi_0 x) * Wi_1 x), specbound's gated block with W_gate = Wi_0 and W_up = Wi_1
(``"gated-gelu"`` means the tanh GELU, ``gelu_new``); plain ``"ACT"`` (ReLU by default) is Wo act(Wi x).
The logits are x Wq_h^T Wk_h x'^T, with no 1/sqrt(d_h), plus a learned bias b_h(bucket(j - i)) per head
and bucketed relative offset, computed by block 0 of each stack (``relative_attention_bias``) and shared
by all its blocks (the cross-attention has none). RMSNorm without centring (``layer_norm``, gains only)
before each sub-block and a final one per stack. Config keys ``d_model``, ``num_layers`` +
``num_decoder_layers`` (the latter defaulting to the former), ``num_heads``, ``d_kv``, ``d_ff``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numerics.loading import coverage as c
from numerics.loading.families.base import Family, Scheme, size_reader
from numerics.loading.families.seq2seq import (
    ENCODER_DECODER,
    MASKING,
    cross_modules,
    seq2seq_layer,
    stack_problem,
)
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError

PROJECTIONS = {"wq": "q", "wk": "k", "wv": "v", "wo": "o"}
SELF = {role: f"layer.0.SelfAttention.{name}" for role, name in PROJECTIONS.items()}
SCHEME = Scheme(
    "encoder.block",
    SELF,
    decoder=Scheme("decoder.block", {**SELF, **cross_modules("layer.1.EncDecAttention", PROJECTIONS)}),
)
GATED = "DenseReluDense.wi_0.weight"

ATTENTION = c.Coverage(
    "attention",
    c.CoverageStatus.ASSUMPTION,
    "multi-head softmax(x Wq_h^T Wk_h x'^T + b_h) x Wv_h^T Wo_h^T, QK_h and Vt_h per head, with no "
    "1/sqrt(d_h) scale: the logit matrix is sqrt(d_h) times the analysed form's at the same QK_h, which "
    "the bound's matrices do not carry (the bias b_h: the positions record)",
    "reconstructed: our reading of T5's attention, tested against transformers",
)
POSITIONS = c.Coverage(
    "positions",
    c.CoverageStatus.ASSUMPTION,
    "a learned bias b_h(bucket(j - i)) per head and bucketed relative offset is added to every "
    "self-attention logit (one table per stack, from its block 0; num_buckets x H numbers); it does not "
    "depend on the input, so it cancels from the logit differences the softmax lemma bounds and the "
    "Lipschitz constants are unchanged, but the table's parameters are not in the bound",
    "reconstructed: our reading of T5's relative attention bias",
)


def activation(config: Mapping[str, Any]) -> tuple[str, bool]:
    """(the transformers activation name, gated) of ``feed_forward_proj``, as T5Config parses it."""
    projection = config.get("feed_forward_proj", "relu")
    parts = projection.split("-")
    if projection == "gated-gelu":
        return "gelu_new", True
    return parts[-1], parts[0] == "gated"


def t5_problem(config: Mapping[str, Any], names: tuple[str, ...]) -> str | None:
    """A ``feed_forward_proj`` T5Config would refuse, one the tensors contradict, or bad stack sizes."""
    projection = config.get("feed_forward_proj", "relu")
    parts = projection.split("-") if isinstance(projection, str) else []
    if not parts or not all(parts) or len(parts) > 2 or (len(parts) == 2 and parts[0] != "gated"):
        return (
            f"config feed_forward_proj={projection!r} must be 'ACT' or 'gated-ACT' with ACT an activation "
            "name ('relu', 'gated-gelu', ...)"
        )
    gated_file = any(name.endswith(GATED) for name in names)
    if gated_file != (parts[0] == "gated"):
        said = (
            f"its config says feed_forward_proj={projection!r}"
            if "feed_forward_proj" in config
            else "no config.json says its activation (feed_forward_proj 'gated-gelu', 'gated-silu', ...)"
        )
        return (
            f"its feed-forward is {'gated (wi_0, wi_1)' if gated_file else 'plain (wi)'} and {said}; "
            "give its own config.json"
        )
    return stack_problem(
        config, names, (("num_layers", "encoder.block"), ("num_decoder_layers", "decoder.block")), ()
    )


def t5_roles(base: str, present: frozenset[str]) -> dict[str, str]:
    """The feed-forward's tensors of a block: sub-layer 2 in a decoder block (after the cross-attention),
    else 1; Wi_0 / Wi_1 when gated."""
    sub = "layer.2" if f"{base}layer.1.EncDecAttention.q.weight" in present else "layer.1"
    ffn = f"{base}{sub}.DenseReluDense."
    roles = (
        {"w_gate": f"{ffn}wi_0.weight", "w_in": f"{ffn}wi_1.weight"}
        if f"{ffn}wi_0.weight" in present
        else {"w_in": f"{ffn}wi.weight"}
    )
    roles["w_out"] = f"{ffn}wo.weight"
    missing = [name for name in roles.values() if name not in present]
    if missing:
        raise CheckpointError(f"block {base.rstrip('.')} lacks its feed-forward tensor {missing[0]}")
    return roles


def t5_measures(
    layer: LayerWeights, num_heads: int, kv_heads: int, config: Mapping, *, norms: Mapping | None = None
) -> dict[str, float]:
    """A gated block's Lipschitz constant on the unit ball
    (:func:`numerics.bounds.reach.swiglu_lipschitz`)."""
    kind = c.activation_kind(activation(config)[0])
    if layer.w_gate is None or kind not in ("silu", "tanh", "gelu"):
        return {}
    from numerics.bounds import reach  # here: reach's formulas import sympy, needed only when measuring

    return {"gated_lipschitz_unit_ball": reach.swiglu_lipschitz(layer, gate=kind, norms=norms)}


def t5_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """Unscaled logits with a relative position bias, RMSNorm before each sub-block, plain or gated FFN."""
    act, gated = activation(config)
    return (
        ENCODER_DECODER,
        ATTENTION,
        c.feed_forward(act, gated=gated, value=measures.get("gated_lipschitz_unit_ball")),
        MASKING,
        c.normalisation("rms", "pre"),
        c.biases(False, False),
        POSITIONS,
    )


FAMILY = Family(
    key="t5",
    title="T5 (encoder-decoder, relative position bias, unscaled logits, ReLU or gated feed-forward)",
    model_types=("t5",),
    schemes=(SCHEME,),
    sizes=size_reader(
        {
            "hidden_size": "d_model",
            "num_heads": "num_heads",
            "ffn_size": "d_ff",
            "head_dim": "d_kv",
        }
    ),
    coverage=t5_coverage,
    assemble=seq2seq_layer,
    measures=t5_measures,
    refusal=t5_problem,
    layer_roles=t5_roles,
    layer_extras=(
        r"layer\.[012]\.layer_norm\.weight",
        r"layer\.0\.SelfAttention\.relative_attention_bias\.weight",
    ),
    outer=(r"shared\.weight", r"(?:encoder|decoder)\.(?:embed_tokens|final_layer_norm)\.weight"),
)
