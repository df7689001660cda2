"""DeepSeek's multi-head latent attention: the QK_h and Vt_h specbound reads (products through the latents)
rebuild transformers' logits and attention output.

For tiny DeepSeek-V3 (low-rank query) and V2 (plain q_proj) models in float64: the layer's input x (at
kv_a_proj_with_mqa), transformers' query and key heads (as the attention function receives them), its
logits, probabilities and the out-projection's output. With the latents' RMS factors computed here from
the model's own parameters, rms_q(x) = rms(x A_q^T) (1 without a low-rank query) and rms_c(x) = rms(x C^T)
(eps included), and the rotary term taken from transformers' rotary query and key columns (the decoupled
rope key, an assumption of the coverage), the logits must be scale * (x QK_h x'^T / (rms_q rms_c') +
q_rot k_rot^T) and the output sum_h P_h diag(1 / rms_c) x Vt_h.
"""

from __future__ import annotations

import numpy as np
import pytest

from numerics.loading import load_weights, open_checkpoint
from numerics.spectra.matrices import extract_matrices
from tests.helpers.family_models import RECORDED, forward_with
from theory.proxy import MatrixKind

TOLERANCE = 1e-13


def rms(values: np.ndarray, eps: float) -> np.ndarray:
    return np.sqrt(np.mean(values**2, axis=-1) + eps)


def capture(tiny, layer: int, seed: int):
    modules = dict(tiny.model.named_modules())
    seen: dict = {}
    attention = f"layers.{layer}.self_attn"
    handles = [
        modules[f"{attention}.kv_a_proj_with_mqa"].register_forward_pre_hook(
            lambda module, args: seen.setdefault("x", args[0])
        ),
        modules[f"{attention}.o_proj"].register_forward_hook(
            lambda module, args, out: seen.setdefault("out", out)
        ),
    ]
    forward_with(tiny, seed, handles)
    return seen["x"].numpy(), RECORDED[layer], seen["out"].numpy()


@pytest.mark.parametrize("name", ["deepseek_v3", "deepseek_v2"])
def test_latent_products_rebuild_the_logits_and_the_output(tiny_models, name):
    tiny = tiny_models(name)
    config = tiny.model.config
    weights = load_weights(tiny.folder)
    nope, rank = config.qk_nope_head_dim, config.kv_lora_rank
    assert weights.head_dim == nope == config.v_head_dim
    for layer in (0, 1):
        x, recorded, out = capture(tiny, layer, seed=3 + layer)
        attention = tiny.model.layers[layer].self_attn
        latent = attention.kv_a_proj_with_mqa.weight.detach().numpy()[:rank]
        rms_c = rms(x @ latent.T, attention.kv_a_layernorm.eps)
        if config.q_lora_rank is None:
            rms_q = np.ones_like(rms_c)
        else:
            rms_q = rms(x @ attention.q_a_proj.weight.detach().numpy().T, attention.q_a_layernorm.eps)
        matrices = [m for m in extract_matrices(weights) if m.layer == layer]
        qk = {m.head: m for m in matrices if m.kind is MatrixKind.QK}
        vt = {m.head: m for m in matrices if m.kind is MatrixKind.VT}
        output = np.zeros_like(out)
        for b in range(x.shape[0]):
            for h in range(config.num_attention_heads):
                rotary = recorded["query"][b, h, :, nope:] @ recorded["key"][b, h, :, nope:].T
                form = (x[b] @ qk[h].left) @ (x[b] @ qk[h].right).T / np.outer(rms_q[b], rms_c[b])
                logits = attention.scaling * (form + rotary)
                reference = recorded["logits"][b, h]
                assert np.max(np.abs(logits - reference)) < TOLERANCE * np.max(np.abs(reference))
                output[b] += recorded["probabilities"][b, h] @ (x[b] / rms_c[b][:, None]) @ vt[h].dense()
        assert np.max(np.abs(output - out)) < TOLERANCE * np.max(np.abs(out))


def test_a_latent_product_without_the_norm_gain_is_caught(tiny_models):
    """The check has teeth: leaving the kv latent's RMSNorm gain out of QK_h breaks the logits."""
    tiny = tiny_models("deepseek_v3")
    x = capture(tiny, 0, seed=3)[0]
    attention = tiny.model.layers[0].self_attn
    config = tiny.model.config
    nope, rank = config.qk_nope_head_dim, config.kv_lora_rank
    kv_b = attention.kv_b_proj.weight.detach().numpy().reshape(config.num_attention_heads, 2 * nope, rank)
    latent = attention.kv_a_proj_with_mqa.weight.detach().numpy()[:rank]
    qk = next(m for m in extract_matrices(load_weights(tiny.folder)) if m.kind is MatrixKind.QK)
    wrong = (x[0] @ qk.left) @ (x[0] @ latent.T @ kv_b[0, :nope].T).T
    right = (x[0] @ qk.left) @ (x[0] @ qk.right).T
    assert np.max(np.abs(wrong - right)) > 1e-3 * np.max(np.abs(right))


@pytest.mark.parametrize("name", ["deepseek_v3", "deepseek_v2"])
def test_memory_sharded_and_bare_reads_equal_the_folder_and_the_coverage_names_the_latent(
    tiny_models, tmp_path, name
):
    from tests.helpers.family_models import build

    tiny = tiny_models(name)
    saved = load_weights(tiny.folder)
    sharded = build(name, tmp_path / "sharded", max_shard_size="20KB").folder
    assert len(list(sharded.glob("model-*.safetensors"))) > 1
    bare = tmp_path / "bare.safetensors"
    bare.write_bytes((tiny.folder / "model.safetensors").read_bytes())
    for other in (load_weights(tiny.model), load_weights(sharded), load_weights(bare, num_heads=4)):
        assert other.family == "deepseek"
        for la, lb in zip(other.layers, saved.layers, strict=True):
            for (na, a), (nb, b) in zip(la.items(), lb.items(), strict=True):
                assert na == nb and np.array_equal(a, b), (name, na)
    records = {r.block: r for r in open_checkpoint(tiny.folder).coverage()}
    assert records["attention"].status == "outside" and "through the query and key/value latents" in (
        records["attention"].statement
    )
    assert (
        records["positions"].status == "assumption"
        and "decoupled rotary key" in records["positions"].statement
    )
    assert "routed_scaling_factor = 1.5" in records["mixture of experts"].statement
