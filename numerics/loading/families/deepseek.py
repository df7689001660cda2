"""DeepSeek-V2 and V3: multi-head latent attention (MLA) and a mixture of experts with shared experts.

Attention keys ``<prefix>layers.{i}.self_attn.``: the query ``q_proj`` (H (d_nope + d_rope) x N), or
low-rank ``q_a_proj`` (r_q x N), ``q_a_layernorm`` (r_q gains), ``q_b_proj`` (H (d_nope + d_rope) x r_q);
``kv_a_proj_with_mqa`` ((r_kv + d_rope) x N: the latent's r_kv rows, then the d_rope rows of the one rotary
key all heads share), ``kv_a_layernorm`` (r_kv gains), ``kv_b_proj`` (H (d_nope + d_v) x r_kv: per head
d_nope key rows then d_v value rows), ``o_proj`` (N x H d_v). Per head h (rows of head h: q_h, kb_h, vb_h)
and with the RMSNorm n(z) = z / rms(z) * g of each latent,

    logit = [ (Q_h n_q(A_q x))^T (KB_h n_kv(C x')) + (QR_h n_q(A_q x))^T R_t (KR x') ] * scale,
    value = VB_h n_kv(C x'),

(A_q = q_a_proj, C = the latent rows of kv_a_proj_with_mqa, KR its rotary rows; Q_h, QR_h the nope and rope
rows of head h of q_b_proj). With D = diag(g) folded in, the nope logit is x^T QK_h x' / (rms(A_q x)
rms(C x')) with QK_h = (Q_h D_q A_q)^T (KB_h D_kv C): the product through the latents, rank <= d_nope; the
value path is Vt_h = (VB_h D_kv C)^T Wo_h^T divided by rms(C x') per key token. Those are the matrices read
(wq, wk, wv of the layer are the stacked Q_h D_q A_q, KB_h D_kv C, VB_h D_kv C), with d_h = d_nope = d_v
(a checkpoint with d_nope != d_v is refused: the bound's matrices share one head size). The token factors
1/rms put the attention outside the analysed form; the rotary term, the decoupled rope key, is an
assumption (not in QK_h). Without ``q_lora_rank`` (DeepSeek-V2-Lite) Q_h D_q A_q is q_proj's nope rows.

Feed-forward: the first ``first_k_dense_replace`` layers are dense SwiGLU (``mlp.gate_proj`` ...,
``intermediate_size``); the others hold routed experts ``mlp.experts.{e}.gate_proj`` / ``up_proj`` /
``down_proj`` (``moe_intermediate_size``; stacked in a transformers 5 module in memory), the router
``mlp.gate.weight`` (V3 also ``mlp.gate.e_score_correction_bias``, which only chooses experts) and the shared
experts ``mlp.shared_experts.*`` added to every token with weight 1. The top-k gates (softmax in V2, sigmoid
and group-limited choice in V3, renormalised with ``norm_topk_prob``) are multiplied by
``routed_scaling_factor``: they sum to at most that factor, which the mixture's Lipschitz value carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from numerics.loading import coverage as c
from numerics.loading.families.base import DECODER_OUTER, Family, Scheme, Sizes, size_reader
from numerics.loading.families.mixtral import ROUTER, expert_roles, mixture_layer, mixture_measures
from numerics.loading.families.qwen2_moe import MODULES
from numerics.loading.weights import LayerWeights
from theory.errors import CheckpointError

MLA_ATTENTION = c.Coverage(
    "attention",
    c.CoverageStatus.OUTSIDE,
    "multi-head latent attention: head h's logit is [x^T QK_h x' / (rms(A_q x) rms(C x')) + rotary term] * "
    "scale with QK_h = (Q_h D_q A_q)^T (KB_h D_kv C), the product through the query and key/value latents "
    "(A_q = q_a_proj, C = kv_a_proj_with_mqa's latent rows, D = diag of the latent RMSNorm gains), and its "
    "value path Vt_h = (VB_h D_kv C)^T Wo_h^T divided by rms(C x') per key token: QK_h and Vt_h are read as "
    "those products (rank <= d_h); the token-dependent factors 1/rms are not in the analysed form",
    "reconstructed: our reading of DeepSeek's MLA forward pass, tested against transformers",
)
DECOUPLED_ROPE = c.Coverage(
    "positions",
    c.CoverageStatus.ASSUMPTION,
    "decoupled rotary key: each logit adds (QR_h n_q(A_q x))^T R_t (KR x') (a d_rope-dimensional rotary "
    "query per head, one rotary key shared by all heads, from kv_a_proj_with_mqa's last d_rope rows); that "
    "term is not in QK_h and its matrices are not matrices of the bound: the bound is assumed to carry over",
    "reconstructed: our reading of DeepSeek's MLA forward pass",
)


def deepseek_roles(base: str, present: frozenset[str]) -> dict[str, str]:
    """The query (plain or low-rank), the latent norms, and the feed-forward (dense, or routed experts,
    router and shared experts) of the layer named ``base``."""
    attention = f"{base}self_attn."
    if f"{attention}q_proj.weight" in present:
        roles = {"q": f"{attention}q_proj.weight"}
    else:
        roles = {
            "q_a": f"{attention}q_a_proj.weight",
            "gain.q_a": f"{attention}q_a_layernorm.weight",
            "q_b": f"{attention}q_b_proj.weight",
        }
    roles["gain.kv_a"] = f"{attention}kv_a_layernorm.weight"
    dense = {role: f"{base}mlp.{module}.weight" for role, module in MODULES.items()}
    if set(dense.values()) <= present:
        roles.update(dense)
    else:
        experts = expert_roles(base, present, "mlp.", MODULES)
        if not experts:
            raise CheckpointError(
                f"its DeepSeek layer {base.rstrip('.')} has neither a dense feed-forward (mlp.gate_proj) nor "
                "experts (mlp.experts.*)"
            )
        roles.update(experts)
        shared = {
            f"shared_expert.{role}": f"{base}mlp.shared_experts.{module}.weight"
            for role, module in MODULES.items()
        }
        if any(name in present for name in shared.values()):
            roles.update(shared)
    missing = [name for name in roles.values() if name not in present]
    if missing:
        raise CheckpointError(f"its DeepSeek layer {base.rstrip('.')} lacks {', '.join(missing[:3])}")
    return roles


def mla_layer(tensors: Mapping[str, np.ndarray], sizes: Sizes) -> LayerWeights:
    """The products through the latents (module docstring), stacked per head as wq, wk, wv."""
    heads = sizes.num_heads
    if heads is None:
        raise CheckpointError(
            "splitting MLA's projections into heads needs num_attention_heads (--num-heads)"
        )
    kv_a, kv_b, gain_kv = tensors["kv_a"], tensors["kv_b"], tensors["gain.kv_a"]
    rank = kv_b.shape[1]
    rope = kv_a.shape[0] - rank
    if "q" in tensors:
        query_rows, query_in = tensors["q"], None
    else:
        query_rows, query_in = tensors["q_b"], tensors["gain.q_a"][:, None] * tensors["q_a"]
    if query_rows.shape[0] % heads or kv_b.shape[0] % heads or rope < 0 or gain_kv.shape[0] != rank:
        raise CheckpointError(
            f"MLA projections q {query_rows.shape}, kv_a_proj_with_mqa {kv_a.shape}, kv_b_proj {kv_b.shape} "
            f"do not split into H={heads} heads around a latent of {rank}"
        )
    nope = query_rows.shape[0] // heads - rope
    value = kv_b.shape[0] // heads - nope
    if nope < 1 or nope != value:
        raise CheckpointError(
            f"MLA's key head size qk_nope_head_dim={nope} differs from v_head_dim={value}: QK_h and Vt_h "
            "would have different head sizes, which specbound's matrices share"
        )
    if not (np.isfinite(gain_kv).all() and (query_in is None or np.isfinite(query_in).all())):
        raise CheckpointError(
            "an MLA latent norm's gains have NaN or infinite entries; the checkpoint is damaged"
        )
    latent = gain_kv[:, None] * kv_a[:rank]  # D_kv C
    per_head_q = query_rows.reshape(heads, nope + rope, -1)[:, :nope].reshape(heads * nope, -1)
    per_head_kv = kv_b.reshape(heads, 2 * nope, rank)
    wq = per_head_q if query_in is None else per_head_q @ query_in
    wk = per_head_kv[:, :nope].reshape(heads * nope, rank) @ latent
    wv = per_head_kv[:, nope:].reshape(heads * nope, rank) @ latent
    return mixture_layer({**tensors, "wq": wq, "wk": wk, "wv": wv}, sizes)


def deepseek_measures(
    layer: LayerWeights, num_heads: int, kv_heads: int, config: Mapping, *, norms: Mapping | None = None
) -> dict[str, float]:
    """The gated Lipschitz constant on the unit ball, the routed experts' scaled by
    ``routed_scaling_factor`` (no rotary measure: the rotary term is decoupled from QK_h)."""
    scale = config.get("routed_scaling_factor", 1.0)
    out = mixture_measures(layer, num_heads, kv_heads, config, norms=norms, routed_scale=float(scale))
    out.pop("rotary_qk_spectral_bound", None)
    return out


def deepseek_coverage(config: Mapping[str, Any], measures: Mapping[str, float]) -> tuple[c.Coverage, ...]:
    """MLA outside the class, the decoupled rope key as an assumption, SwiGLU experts with shared experts."""
    biased = bool(config.get("attention_bias"))
    dense = config.get("first_k_dense_replace", 0)
    scale = config.get("routed_scaling_factor", 1.0)
    top_k = config.get("num_experts_per_tok", "k")
    shared = config.get("n_shared_experts", "the")
    mixture = c.Coverage(
        "mixture of experts",
        c.CoverageStatus.ASSUMPTION,
        f"{config.get('n_routed_experts', 'the read')} routed experts, top-{top_k}, gates multiplied by "
        f"routed_scaling_factor = {scale} (they sum to at most that), plus {shared} shared experts on "
        f"every token with weight 1; the first {dense} layers dense (first_k_dense_replace): "
        "with the router held fixed the proxies take the layer's C2(M_in) C2(M_out) as the max over routed "
        "experts plus the shared experts' (as for gates summing to 1: with a scale above 1 the routed part's "
        "constant is that scale times larger, which the feed-forward value includes and the proxies do not), "
        "and the complexity sum covers every expert's M_in and M_out",
        "reconstructed: theory.mixture, with DeepSeek's gate scale",
    )
    return (
        MLA_ATTENTION,
        DECOUPLED_ROPE,
        c.feed_forward("silu", gated=True, value=measures.get("gated_lipschitz_unit_ball")),
        c.masking(causal=True),
        c.normalisation("rms", "pre"),
        c.biases(biased, False),
        mixture,
        ROUTER,
    )


FAMILY = Family(
    key="deepseek",
    title="DeepSeek-V2 / V3 (multi-head latent attention, mixture of SwiGLU experts with shared experts)",
    model_types=("deepseek_v2", "deepseek_v3"),
    schemes=(
        Scheme(
            "layers",
            {"kv_a": "self_attn.kv_a_proj_with_mqa", "kv_b": "self_attn.kv_b_proj", "wo": "self_attn.o_proj"},
        ),
    ),
    sizes=size_reader(
        {
            "num_layers": "num_hidden_layers",
            "hidden_size": "hidden_size",
            "num_heads": "num_attention_heads",
            "ffn_size": "intermediate_size",
            "head_dim": "v_head_dim",
        }
    ),
    coverage=deepseek_coverage,
    assemble=mla_layer,
    measures=deepseek_measures,
    layer_roles=deepseek_roles,
    needs_heads=True,
    layer_extras=(
        r"input_layernorm\.weight",
        r"post_attention_layernorm\.weight",
        r"mlp\.gate\.e_score_correction_bias",
    ),
    outer=DECODER_OUTER,
)
