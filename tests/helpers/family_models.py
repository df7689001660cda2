"""Tiny random-initialised transformers of every supported family, saved as Hugging Face folders.

Float64, projection biases set to zero (the theory's class has none; ``coverage`` says so), torch
single-threaded. Attention runs through :func:`float64_attention`, registered with transformers as the
``specbound_float64`` implementation: the eager computation (q k^T scaled, soft-capped where the family
caps, masked, softmax, times v) in float64 throughout (transformers' own eager kernels take the softmax in
float32, which would hide any disagreement below 1e-7), recording each layer's logits and probabilities.
Qwen3's per-head q/k RMSNorm, which transformers also computes in float32, is swapped for the same norm in
float64 (:class:`Float64RMSNorm`, same parameter name; OLMo 2's, Gemma 3's and DeepSeek's latent norms too),
and ModernBERT's float32 rotation for the same formula in float64 (:func:`float64_rotary`). Norm gains are
drawn at random so that they matter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

torch = __import__("pytest").importorskip("torch", reason="building the tiny models needs torch")
transformers = __import__("pytest").importorskip("transformers", reason="the tiny models need transformers")

ATTENTION = "specbound_float64"
RECORDED: list[dict[str, np.ndarray]] = []
"""Per attention call of the last forward pass, in layer order: logits (B, H, T, T) and probabilities."""


def float64_attention(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kwargs):
    """Eager attention in float64 (module docstring); key/value heads repeated for grouped-query heads."""
    group = query.shape[1] // key.shape[1]
    key, value = key.repeat_interleave(group, dim=1), value.repeat_interleave(group, dim=1)
    scale = query.shape[-1] ** -0.5 if scaling is None else scaling
    logits = query @ key.transpose(-1, -2) * scale
    cap = kwargs.get("softcap")
    if cap is not None:
        logits = cap * torch.tanh(logits / cap)
    masked = logits
    if attention_mask is not None:
        mask = attention_mask[..., : key.shape[-2]]
        masked = (
            logits.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else logits + mask.double()
        )
    sinks = kwargs.get("s_aux")  # GPT-OSS: a sink logit per head joins the softmax, then is dropped
    if sinks is None:
        probabilities = torch.softmax(masked, dim=-1)
    else:
        column = sinks.reshape(1, -1, 1, 1).expand(*masked.shape[:-1], 1).to(masked.dtype)
        probabilities = torch.softmax(torch.cat([masked, column], dim=-1), dim=-1)[..., :-1]
    RECORDED.append(
        {
            "logits": logits.detach().numpy(),
            "probabilities": probabilities.detach().numpy(),
            "query": query.detach().numpy(),
            "key": key.detach().numpy(),
        }
    )
    return (probabilities @ value).transpose(1, 2).contiguous(), probabilities


transformers.AttentionInterface.register(ATTENTION, float64_attention)
transformers.masking_utils.ALL_MASK_ATTENTION_FUNCTIONS.register(
    ATTENTION, transformers.masking_utils.ALL_MASK_ATTENTION_FUNCTIONS["eager"]
)


def float64_rotary(q, k, cos, sin, unsqueeze_dim=1):
    """transformers' apply_rotary_pos_emb (q cos + rotate_half(q) sin) in the inputs' precision: ModernBERT's
    own takes it in float32."""
    cos, sin = cos.unsqueeze(unsqueeze_dim), sin.unsqueeze(unsqueeze_dim)

    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


transformers.models.modernbert.modeling_modernbert.apply_rotary_pos_emb = float64_rotary


def float64_complex_rotary(xq, xk, freqs_cis):
    """Llama 4's rotation of adjacent pairs as complex numbers, in complex128 (its own takes float32)."""

    def rotate(x):
        pairs = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2).contiguous())
        return torch.view_as_real(pairs * freqs_cis[:, :, None, :].to(torch.complex128)).flatten(3)

    return rotate(xq), rotate(xk)


transformers.models.llama4.modeling_llama4.apply_rotary_emb = float64_complex_rotary


class Float64WeightlessRMSNorm(torch.nn.Module):
    """x / sqrt(mean(x^2) + eps) over the last axis in the input's precision, no gain (Llama 4's q/k norm)."""

    def __init__(self, eps: float):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class Float64RMSNorm(torch.nn.Module):
    """x / sqrt(mean(x^2) + eps) * (offset + weight) over the last axis, in the input's precision (float64
    here); offset 1 is Gemma 3's gain 1 + w."""

    def __init__(self, weight: torch.Tensor, eps: float, offset: float = 0.0):
        super().__init__()
        self.weight = torch.nn.Parameter(weight.detach().clone())
        self.eps = eps
        self.offset = offset

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (self.offset + self.weight) * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))


def _decoder(**extra: Any) -> dict[str, Any]:
    return {
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "intermediate_size": 40,
        "vocab_size": 40,
        "initializer_range": 0.3,
        **extra,
    }


def _configs() -> dict[str, Any]:
    t = transformers
    return {
        "bert": t.BertConfig(
            hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=48, vocab_size=40
        ),
        "distilbert": t.DistilBertConfig(dim=32, n_layers=2, n_heads=4, hidden_dim=48, vocab_size=40),
        "gpt2": t.GPT2Config(
            n_embd=32, n_layer=2, n_head=4, vocab_size=40, n_positions=16, bos_token_id=0, eos_token_id=0
        ),
        "vit": t.ViTConfig(
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=48,
            image_size=8,
            patch_size=4,
        ),
        "llama": t.LlamaConfig(**_decoder(intermediate_size=48, initializer_range=0.02)),
        "mistral": t.MistralConfig(**_decoder(num_key_value_heads=1, initializer_range=0.02)),
        "qwen2": t.Qwen2Config(**_decoder(initializer_range=0.02)),
        "llama_head_dim": t.LlamaConfig(**_decoder(head_dim=16)),
        "mistral_head_dim": t.MistralConfig(**_decoder(num_key_value_heads=1, head_dim=12)),
        "qwen3": t.Qwen3Config(**_decoder(head_dim=12)),
        "gemma": t.GemmaConfig(**_decoder(head_dim=16, bos_token_id=0, eos_token_id=1, pad_token_id=0)),
        "gemma2": t.Gemma2Config(
            **_decoder(
                head_dim=16,
                query_pre_attn_scalar=10,
                attn_logit_softcapping=2.0,
                sliding_window=3,
                bos_token_id=0,
                eos_token_id=1,
                pad_token_id=0,
            )
        ),
        "phi3": t.Phi3Config(**_decoder(pad_token_id=0, bos_token_id=0, eos_token_id=1)),
        "gpt_neox": t.GPTNeoXConfig(
            **{k: v for k, v in _decoder().items() if k != "num_key_value_heads"},
            bos_token_id=0,
            eos_token_id=1,
        ),
        "opt": t.OPTConfig(**_opt()),
        "mixtral": t.MixtralConfig(
            **_decoder(intermediate_size=24, num_local_experts=4, num_experts_per_tok=2)
        ),
        "qwen2_moe": t.Qwen2MoeConfig(
            **_decoder(
                moe_intermediate_size=24,
                shared_expert_intermediate_size=28,
                num_experts=4,
                num_experts_per_tok=2,
                mlp_only_layers=[1],
            )
        ),
        "qwen3_moe": t.Qwen3MoeConfig(
            **_decoder(
                head_dim=12,
                moe_intermediate_size=24,
                num_experts=4,
                num_experts_per_tok=2,
                mlp_only_layers=[1],
            )
        ),
        "olmo2": t.Olmo2Config(**_decoder(pad_token_id=0, bos_token_id=0, eos_token_id=1)),
        "gemma3": t.Gemma3TextConfig(
            **_decoder(
                head_dim=16,
                query_pre_attn_scalar=10,
                sliding_window=3,
                layer_types=["sliding_attention", "full_attention"],
                bos_token_id=0,
                eos_token_id=1,
                pad_token_id=0,
            )
        ),
        "deepseek_v3": t.DeepseekV3Config(
            **_mla(q_lora_rank=12, first_k_dense_replace=1, n_group=1, topk_group=1)
        ),
        "deepseek_v2": t.DeepseekV2Config(**_mla(q_lora_rank=None, first_k_dense_replace=1)),
        "modernbert": t.ModernBertConfig(
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=40,
            vocab_size=40,
            layer_types=["sliding_attention", "full_attention"],
            local_attention=4,
            pad_token_id=0,
            bos_token_id=1,
            eos_token_id=2,
            cls_token_id=1,
            sep_token_id=2,
        ),
        "gpt_oss": t.GptOssConfig(
            **_decoder(
                head_dim=8,
                intermediate_size=24,
                num_local_experts=4,
                num_experts_per_tok=2,
                sliding_window=3,
                layer_types=["sliding_attention", "full_attention"],
            )
        ),
        "llama4": t.Llama4TextConfig(
            **_decoder(
                head_dim=8,
                intermediate_size=24,
                intermediate_size_mlp=40,
                num_local_experts=4,
                num_experts_per_tok=2,
                moe_layers=[0],
                no_rope_layers=[1, 0],
                attention_chunk_size=3,
                floor_scale=2,
                attn_scale=0.5,
                pad_token_id=0,
                bos_token_id=0,
                eos_token_id=1,
            )
        ),
        "opt_post_ln": t.OPTConfig(**_opt(do_layer_norm_before=False, word_embed_proj_dim=16)),
    }


def _mla(**extra: Any) -> dict[str, Any]:
    """A DeepSeek model: latent attention (d_nope = d_v = 8, d_rope = 4, latent 10), 4 routed experts, top-2,
    one shared expert, layer 0 dense."""
    return _decoder(
        num_key_value_heads=4,
        kv_lora_rank=10,
        qk_nope_head_dim=8,
        qk_rope_head_dim=4,
        v_head_dim=8,
        n_routed_experts=4,
        num_experts_per_tok=2,
        n_shared_experts=1,
        moe_intermediate_size=24,
        routed_scaling_factor=1.5,
        **extra,
    )


def _opt(**extra: Any) -> dict[str, Any]:
    """OPT's sizes; ``do_layer_norm_before=False`` with a narrower embedding is the 350m model's shape."""
    return {
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "ffn_dim": 40,
        "vocab_size": 40,
        "word_embed_proj_dim": 32,
        "max_position_embeddings": 16,
        "init_std": 0.3,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        **extra,
    }


FAMILY_NAMES = (
    "bert",
    "distilbert",
    "gpt2",
    "vit",
    "llama",
    "mistral",
    "qwen2",
    "llama_head_dim",
    "mistral_head_dim",
    "qwen3",
    "gemma",
    "gemma2",
    "phi3",
    "gpt_neox",
    "opt",
    "opt_post_ln",
    "mixtral",
    "qwen2_moe",
    "qwen3_moe",
    "olmo2",
    "gemma3",
    "modernbert",
    "gpt_oss",
    "llama4",
)
MIXTURES = {"mixtral", "qwen2_moe", "qwen3_moe", "gpt_oss", "llama4"}
"""Mixture-of-experts decoders (4 experts, top-2; Qwen2-MoE's layer 1 dense through mlp_only_layers)."""
FEED_FORWARD_BLOCKS = {
    "mixtral": (4, 4),
    "qwen2_moe": (5, 1),
    "qwen3_moe": (4, 1),
    "gpt_oss": (4, 4),
    "llama4": (5, 1),
}
"""Feed-forward blocks (each an M_in, M_out pair) of layers 0 and 1 where not one: the experts, and
Qwen2-MoE's shared expert."""
ROTARY = {*FAMILY_NAMES[FAMILY_NAMES.index("llama") : FAMILY_NAMES.index("gpt_neox") + 1], *MIXTURES}
ROTARY |= {"olmo2", "gemma3", "modernbert"}
LAYER_TYPED_ROTARY = {"gemma3", "modernbert"}
"""Families whose rotary tables differ by layer type (local and global layers)."""
LATENT = {"deepseek_v3", "deepseek_v2"}
"""Multi-head latent attention (built on demand, checked by test_family_latent.py, not in FAMILY_NAMES)."""
QK_NORMS = {"qwen3": 0.0, "qwen3_moe": 0.0, "olmo2": 0.0, "gemma3": 1.0}
"""Families with a q/k RMSNorm, and the offset of its gain (Gemma 3's 1 + w)."""
DECODERS = {"gpt2", "opt", "opt_post_ln", *ROTARY}


@dataclass
class TinyModel:
    """A model in memory, its saved folder, and how to feed it."""

    name: str
    model: Any
    folder: Path
    rotary: list[Any] = field(default_factory=list)
    """(cos, sin) of the last forward pass, from the model's rotary embedding."""
    rotary_types: list[Any] = field(default_factory=list)
    """The layer type each entry of :attr:`rotary` was computed for (Gemma 3's local/global tables)."""

    def inputs(self, seed: int) -> dict[str, Any]:
        """A batch of two random inputs (token ids, or images for ViT)."""
        generator = torch.Generator().manual_seed(seed)
        if self.name == "vit":
            return {"pixel_values": torch.randn(2, 3, 8, 8, generator=generator, dtype=torch.float64)}
        return {"input_ids": torch.randint(3, 40, (2, 7), generator=generator)}


def build(name: str, folder: Path, sizes: dict[str, Any] | None = None, **save: Any) -> TinyModel:
    """Build, zero the projection biases, draw the norm gains, and save ``name``'s model to ``folder``;
    ``sizes`` replaces config fields (a larger model of the same family)."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    config = _configs()[name]
    if sizes:
        fields = {k: v for k, v in config.to_dict().items() if k != "layer_types"}  # one per layer: redrawn
        config = type(config)(**{**fields, **sizes})
    experts = (
        {"experts_implementation": "eager"} if name in MIXTURES | LATENT else {}
    )  # grouped_mm: no float64
    model = transformers.AutoModel.from_config(config, attn_implementation=ATTENTION, **experts)
    model = model.double().eval()
    with torch.no_grad():
        for module_name, module in model.named_modules():
            bias = getattr(module, "bias", None)
            weight = getattr(module, "weight", None)
            is_projection = (
                weight is not None and weight.ndim == 2 and "Embedding" not in type(module).__name__
            )
            if is_projection and isinstance(bias, torch.Tensor):
                bias.zero_()
            if "norm" in module_name.lower() and isinstance(weight, torch.Tensor) and weight.ndim == 1:
                weight.uniform_(0.5, 1.5)
        if name in LATENT:  # the latents' RMSNorms, which transformers computes in float32
            for layer in model.layers:
                for part in ("q_a_layernorm", "kv_a_layernorm"):
                    norm = getattr(layer.self_attn, part, None)
                    if norm is not None:
                        setattr(layer.self_attn, part, Float64RMSNorm(norm.weight, norm.variance_epsilon))
        if name == "llama4":  # its weightless q/k norm, which transformers computes in float32
            for layer in model.layers:
                if hasattr(layer.self_attn, "qk_norm"):
                    layer.self_attn.qk_norm = Float64WeightlessRMSNorm(
                        layer.self_attn.qk_norm.variance_epsilon
                    )
        if name in QK_NORMS:
            for layer in model.layers:
                for part in ("q_norm", "k_norm"):
                    norm = getattr(layer.self_attn, part)
                    eps = getattr(norm, "variance_epsilon", getattr(norm, "eps", None))
                    setattr(layer.self_attn, part, Float64RMSNorm(norm.weight, eps, QK_NORMS[name]))
    model.save_pretrained(folder, **save)
    tiny = TinyModel(name, model, folder)
    rotary = getattr(model, "rotary_emb", None)
    if rotary is not None:

        def record(module: Any, args: tuple, kwargs: dict, out: Any) -> None:
            tiny.rotary.append(out)
            tiny.rotary_types.append(args[2] if len(args) > 2 else kwargs.get("layer_type"))

        rotary.register_forward_hook(record, with_kwargs=True)
    return tiny


def forward_with(tiny: TinyModel, seed: int, handles: list[Any]) -> None:
    """One forward pass of ``tiny`` on :meth:`TinyModel.inputs` (``seed``), attention and rotary recorded
    afresh; the hooks ``handles`` are removed afterwards."""
    RECORDED.clear()
    tiny.rotary.clear()
    tiny.rotary_types.clear()
    try:
        with torch.no_grad():
            tiny.model(**tiny.inputs(seed))
    finally:
        for handle in handles:
            handle.remove()


def with_config(tiny: TinyModel, folder: Path, **changes: Any) -> Path:
    """``folder`` holding the tiny model's weights and its config.json with ``changes`` applied."""
    folder.mkdir()
    (folder / "model.safetensors").write_bytes((tiny.folder / "model.safetensors").read_bytes())
    config = json.loads((tiny.folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, **changes}))
    return folder


def run_cli(capsys: Any, *argv: object) -> tuple[int, str, str]:
    """``specbound argv`` in process: (exit status, stdout, stderr), what building models printed dropped."""
    from paper_checks.cli import main

    capsys.readouterr()
    status = main([*map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)
