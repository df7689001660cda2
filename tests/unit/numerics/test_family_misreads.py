"""Inputs once read silently wrong: refused in one line naming the unread tensors, or read in full with
coverage that the tensors (not a config default) support. Tiny models built with transformers' classes."""

from __future__ import annotations

import json

import mpmath
import numpy as np
import pytest

from numerics.loading import load_weights, open_checkpoint
from numerics.loading.config_values import config_problem
from tests.helpers.family_models import run_cli, torch, transformers
from theory.errors import CheckpointError, InvalidArgument, UnsupportedCheckpoint

SMALL = {"hidden_size": 16, "num_attention_heads": 2, "intermediate_size": 24, "vocab_size": 32}


def tiny(cls_name: str, config_name: str, **fields):
    """A random model of ``transformers.<cls_name>`` with a small ``<config_name>``."""
    torch.manual_seed(0)
    config = getattr(transformers, config_name)(**fields)
    return getattr(transformers, cls_name)(config).eval()


def bare(model, folder, drop=()):
    """The model saved by transformers, its config.json removed and the tensors ``drop`` left out."""
    from safetensors.numpy import load_file, save_file

    model.save_pretrained(folder)
    (folder / "config.json").unlink()
    path = folder / "model.safetensors"
    if drop:
        save_file({k: v for k, v in load_file(path).items() if k not in drop}, str(path))
    return path


def records(checkpoint):
    return {entry.block: entry for entry in checkpoint.coverage()}


def refused(capsys, path, *argv):
    status, _, err = run_cli(capsys, "inspect", path, *argv)
    assert status == 2 and err.count("\n") == 1, err
    return err


# 1. a BERT decoder with cross-attention
def test_a_bert_decoder_with_cross_attention_is_refused_naming_it():
    model = tiny(
        "BertLMHeadModel",
        "BertConfig",
        num_hidden_layers=2,
        is_decoder=True,
        add_cross_attention=True,
        **SMALL,
    )
    with pytest.raises(UnsupportedCheckpoint, match=r"20 of its tensors are not read .*crossattention"):
        open_checkpoint(model)


def test_a_bert_decoder_without_cross_attention_is_read_with_causal_masking():
    model = tiny("BertLMHeadModel", "BertConfig", num_hidden_layers=1, is_decoder=True, **SMALL)
    assert records(open_checkpoint(model))["masking"].statement.startswith("causal mask")


# 2. encoder-decoder weights without a config
def test_bare_bart_weights_are_not_read_as_an_opt_decoder(tmp_path, capsys):
    model = tiny(
        "BartModel", "BartConfig", encoder_layers=2, decoder_layers=3, d_model=16, encoder_attention_heads=2,
        decoder_attention_heads=2, encoder_ffn_dim=24, decoder_ffn_dim=24, vocab_size=32,
        max_position_embeddings=16,
    )  # fmt: skip
    weights = load_weights(bare(model, tmp_path / "bart"), num_heads=2)
    assert (weights.family, weights.num_layers) == ("bart", 5)
    assert [layer.cross is not None for layer in weights.layers] == [False, False, True, True, True]


# 3. a bare file whose last layer lacks its first projection
def test_a_last_layer_without_its_query_is_reported_not_cut_off(tmp_path):
    model = tiny("LlamaModel", "LlamaConfig", num_hidden_layers=3, **SMALL)
    path = bare(model, tmp_path / "cut", drop=("layers.2.self_attn.q_proj.weight",))
    with pytest.raises(CheckpointError, match=r"layer 2 lacks its wq weight"):
        open_checkpoint(path, num_heads=2, family="llama")


def test_a_hybrid_with_a_linear_attention_layer_is_not_read_as_mixtral(tmp_path, capsys):
    model = tiny(
        "MiniMaxModel", "MiniMaxConfig", num_hidden_layers=2, num_key_value_heads=2, num_local_experts=2,
        num_experts_per_tok=1, layer_types=["full_attention", "linear_attention"], **SMALL,
    )  # fmt: skip
    err = refused(capsys, bare(model, tmp_path / "minimax"), "--num-heads", "2")
    assert "layer 1 lacks its wq" in err


# 4. coverage from config defaults, contradicted by the tensors
@pytest.mark.parametrize(
    ("cls_name", "config_name", "fields", "unread"),
    [
        ("EsmModel", "EsmConfig", {"position_embedding_type": "rotary", "pad_token_id": 1}, "emb_layer_norm"),
        ("BeitModel", "BeitConfig", {"image_size": 8, "patch_size": 4}, "lambda"),
        ("RoFormerModel", "RoFormerConfig", {"embedding_size": 16}, "embed_positions"),
    ],
)  # fmt: skip
def test_encoders_with_other_positions_or_layer_scales_are_refused(
    tmp_path, capsys, cls_name, config_name, fields, unread
):
    model = tiny(cls_name, config_name, num_hidden_layers=1, **SMALL, **fields)
    err = refused(capsys, bare(model, tmp_path / "m"), "--num-heads", "2")
    assert unread in err


def test_a_bare_gemma2_file_takes_the_default_soft_cap(tmp_path):
    model = tiny(
        "Gemma2Model", "Gemma2Config", num_hidden_layers=1, head_dim=8, num_key_value_heads=1, **SMALL
    )
    attention = records(open_checkpoint(bare(model, tmp_path / "g"), num_heads=2))["attention"]
    assert attention.status == "assumption" and "50.0 tanh" in attention.statement


def test_qwen2_biases_read_as_llama_are_named_as_dropped(tmp_path):
    model = tiny("Qwen2Model", "Qwen2Config", num_hidden_layers=1, num_key_value_heads=1, **SMALL)
    biases = records(open_checkpoint(bare(model, tmp_path / "q"), num_heads=2, family="llama"))["biases"]
    assert biases.status == "outside" and "attention projection biases are dropped" in biases.statement


def test_phimoe_is_not_read_as_mixtral(tmp_path, capsys):
    model = tiny(
        "PhimoeModel", "PhimoeConfig", num_hidden_layers=1, num_key_value_heads=1, num_local_experts=2,
        num_experts_per_tok=2, **SMALL,
    )  # fmt: skip
    assert "--family" not in refused(capsys, bare(model, tmp_path / "p"), "--num-heads", "2")


# 5. the ambiguity advice only names families that read every tensor
def test_stablelm_q_k_layernorm_gets_no_family_advice(tmp_path, capsys):
    model = tiny(
        "StableLmModel",
        "StableLmConfig",
        num_hidden_layers=1,
        num_key_value_heads=1,
        qk_layernorm=True,
        **SMALL,
    )
    err = refused(capsys, bare(model, tmp_path / "m"), "--num-heads", "2")
    assert "--family" not in err and "not read" in err


@pytest.mark.parametrize(
    ("cls_name", "config_name", "fields", "family"),
    [
        ("Gemma3TextModel", "Gemma3TextConfig", {"head_dim": 8}, "gemma3"),
        ("Olmo2Model", "Olmo2Config", {}, "olmo2"),
    ],
)
def test_gemma3_and_olmo2_files_are_their_own_families_not_qwen3(
    tmp_path, cls_name, config_name, fields, family
):
    model = tiny(cls_name, config_name, num_hidden_layers=1, num_key_value_heads=1, **SMALL, **fields)
    assert open_checkpoint(bare(model, tmp_path / "m"), num_heads=2).family.key == family


def test_a_per_head_q_k_norm_with_olmo2_names_is_not_read_as_olmo2(tmp_path, capsys):
    """EXAONE 4 has OLMo 2's tensor names but per-head q/k norms (d_h gains)."""
    model = tiny("Exaone4Model", "Exaone4Config", num_hidden_layers=1, num_key_value_heads=1, **SMALL)
    err = refused(capsys, bare(model, tmp_path / "m"), "--num-heads", "2")
    assert "per-head q/k norm" in err


# 6. a gated block with exact GELU
def test_a_gated_gelu_block_is_bounded(tmp_path, capsys):
    from theory.gated import activation_prime_sup

    with mpmath.workdps(30):
        exact = mpmath.mpf(1) / 2 + mpmath.erf(1) / 2 + mpmath.exp(-1) / mpmath.sqrt(mpmath.pi)
        constant = activation_prime_sup("gelu")
        assert 0 <= mpmath.mpf(constant.p) / constant.q - exact < mpmath.mpf(10) ** -12
    model = tiny("LlamaModel", "LlamaConfig", num_hidden_layers=1, hidden_act="gelu", **SMALL)
    model.save_pretrained(tmp_path / "llama_gelu")
    status, out, err = run_cli(capsys, "bound", tmp_path / "llama_gelu", "--json")
    assert status == 0, err
    assert np.isfinite(json.loads(out)["proxies"]["ours"])


# 7. coverage texts
def test_coverage_texts_follow_the_config():
    from numerics.loading.families import by_name

    qwen2_moe = {e.block: e for e in by_name("qwen2_moe").coverage({"qkv_bias": False}, {})}
    assert qwen2_moe["biases"].status == "exact"
    gemma2 = {e.block: e for e in by_name("gemma2").coverage({"use_bidirectional_attention": True}, {})}
    assert gemma2["masking"].statement.startswith("bidirectional")
    gpt2 = {e.block: e for e in by_name("gpt2").coverage({"scale_attn_by_inverse_layer_idx": True}, {})}
    assert gpt2["attention"].status == "assumption" and "1 / (l + 1)" in gpt2["attention"].statement
    llama = {e.block: e for e in by_name("llama").coverage({}, {})}
    assert llama["attention"].status == "assumption" and "offset 0 only" in llama["attention"].statement


# new families: bfloat16 files read exactly (the stored values, widened)
LLAMA4 = {
    "num_local_experts": 2,
    "num_experts_per_tok": 1,
    "head_dim": 8,
    "intermediate_size_mlp": 40,
    "moe_layers": [0],
    "pad_token_id": 0,
    "bos_token_id": 0,
    "eos_token_id": 1,
}
"""A Llama 4 text model whose layer 0 is a mixture (2 experts, a shared expert) and layer 1 dense."""


@pytest.mark.parametrize(
    ("cls_name", "config_name", "fields"),
    [
        ("Qwen3MoeModel", "Qwen3MoeConfig", {"num_experts": 2, "num_experts_per_tok": 1, "head_dim": 8}),
        ("Olmo2Model", "Olmo2Config", {}),
        ("Gemma3TextModel", "Gemma3TextConfig", {"head_dim": 8}),
        ("GptOssModel", "GptOssConfig", {"num_local_experts": 2, "num_experts_per_tok": 1, "head_dim": 8}),
        ("ModernBertModel", "ModernBertConfig", {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}),
        ("Llama4TextModel", "Llama4TextConfig", LLAMA4),
    ],
)
def test_bfloat16_files_of_the_new_families_are_read_exactly(tmp_path, cls_name, config_name, fields):
    experts = (
        {"experts_implementation": "eager"} if any(k in cls_name for k in ("Moe", "Oss", "Llama4")) else {}
    )
    modern = "ModernBert" in cls_name
    kv = {} if modern else {"num_key_value_heads": 1}
    model = tiny(cls_name, config_name, num_hidden_layers=1, **kv, **SMALL, **fields, **experts)
    model = model.to(torch.bfloat16)
    model.save_pretrained(tmp_path / "bf16")
    layer = load_weights(tmp_path / "bf16").layers[0]
    stored = model.layers[0].attn.Wqkv.weight[:16] if modern else model.layers[0].self_attn.q_proj.weight
    assert layer.wq.dtype == np.float64 and np.array_equal(
        layer.wq, stored.detach().to(torch.float64).numpy()
    )


def test_a_bare_llama4_file_is_read_as_its_module_holds_it(tmp_path):
    """Without config.json: the same arrays as the folder with it, and against the module's own tensors:
    expert e's gate and up are the two halves of gate_up_proj[e] (N x 2F), its down down_proj[e] (F x N),
    transposed to nn.Linear layout; the dense layer 1's feed_forward.gate/up/down_proj."""
    model = tiny(
        "Llama4TextModel", "Llama4TextConfig", num_hidden_layers=2, num_key_value_heads=1,
        no_rope_layers=[1, 0], experts_implementation="eager", **SMALL, **LLAMA4,
    )  # fmt: skip
    model.save_pretrained(tmp_path / "folder")
    folder = load_weights(tmp_path / "folder")
    weights = load_weights(bare(model, tmp_path / "bare"), num_heads=2)
    assert weights.family == "llama4" and weights.num_layers == 2 and weights.kv_heads == 1
    for la, lb in zip(weights.layers, folder.layers, strict=True):
        assert [n for n, _ in la.items()] == [n for n, _ in lb.items()]
        assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(la.items(), lb.items(), strict=True))
    moe = model.layers[0].feed_forward
    f = moe.experts.down_proj.shape[1]
    for e, expert in enumerate(weights.layers[0].experts):
        gate_up = moe.experts.gate_up_proj[e].detach().double().numpy()
        assert np.array_equal(expert.w_gate, gate_up[:, :f].T) and np.array_equal(
            expert.w_in, gate_up[:, f:].T
        )
        assert np.array_equal(expert.w_out, moe.experts.down_proj[e].detach().double().numpy().T)
    shared = weights.layers[0].shared_expert
    assert np.array_equal(shared.w_gate, moe.shared_expert.gate_proj.weight.detach().double().numpy())
    dense = model.layers[1].feed_forward
    assert np.array_equal(weights.layers[1].w_in, dense.up_proj.weight.detach().double().numpy())
    assert np.array_equal(weights.layers[1].w_gate, dense.gate_proj.weight.detach().double().numpy())


# 8. usability
def test_a_bare_qwen2_moe_file_with_a_dense_layer_after_a_sparse_one_is_read(tmp_path):
    model = tiny(
        "Qwen2MoeModel", "Qwen2MoeConfig", num_hidden_layers=2, num_key_value_heads=1, num_experts=2,
        num_experts_per_tok=1, moe_intermediate_size=8, shared_expert_intermediate_size=12,
        mlp_only_layers=[1], experts_implementation="eager", **SMALL,
    )  # fmt: skip
    weights = load_weights(bare(model, tmp_path / "moe"), num_heads=2)
    assert len(weights.layers[0].experts) == 2 and not weights.layers[1].experts
    assert weights.layers[1].w_in.shape == (24, 16)


# issue 44 item 8: config values out of their domain, and a shard index that disagrees with its shards
@pytest.mark.parametrize(
    "change",
    [
        {"num_experts_per_tok": 0},
        {"num_experts_per_tok": -1},
        {"num_experts_per_tok": "2"},
        {"num_experts_per_tok": 5, "num_local_experts": 4},
        {"partial_rotary_factor": 2},
        {"partial_rotary_factor": -1},
        {"partial_rotary_factor": float("nan")},
        {"query_pre_attn_scalar": 0},
        {"mlp_only_layers": "abc"},
    ],
)
def test_config_values_out_of_their_domain_are_named(change):
    key = next(iter(change))
    assert key in (config_problem(change) or "")


def test_config_values_in_their_domain_pass():
    assert config_problem({"num_experts_per_tok": 2, "num_experts": 4, "partial_rotary_factor": 0.5}) is None


def test_a_bad_config_value_exits_2_in_one_line(tmp_path, capsys):
    model = tiny("LlamaModel", "LlamaConfig", num_hidden_layers=1, **SMALL)
    model.save_pretrained(tmp_path / "m")
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    (tmp_path / "m" / "config.json").write_text(json.dumps({**config, "partial_rotary_factor": 2}))
    assert "partial_rotary_factor=2" in refused(capsys, tmp_path / "m")


def test_nan_in_a_q_norm_gain_is_refused():
    model = tiny("Qwen3Model", "Qwen3Config", num_hidden_layers=1, num_key_value_heads=1, head_dim=8, **SMALL)
    with torch.no_grad():
        model.layers[0].self_attn.q_norm.weight[0] = float("nan")
    with pytest.raises(InvalidArgument, match=r"q_norm\.weight has NaN"):
        open_checkpoint(model)


@pytest.mark.parametrize("fault", ["omits", "invents"])
def test_a_shard_index_that_disagrees_with_its_shards_is_refused(tmp_path, capsys, fault):
    from safetensors.numpy import load_file, save_file

    model = tiny("LlamaModel", "LlamaConfig", num_hidden_layers=1, **SMALL)
    model.save_pretrained(tmp_path / "m")
    state = load_file(tmp_path / "m" / "model.safetensors")
    (tmp_path / "m" / "model.safetensors").unlink()
    names = sorted(state)
    weight_map = {}
    for part, chosen in enumerate((names[::2], names[1::2])):
        save_file({k: state[k] for k in chosen}, str(tmp_path / "m" / f"part{part}.safetensors"))
        weight_map.update(dict.fromkeys(chosen, f"part{part}.safetensors"))
    name = names[0]
    if fault == "omits":
        del weight_map[name]
    else:
        weight_map["layers.0.invented.weight"] = weight_map[name]
    index_path = tmp_path / "m" / "model.safetensors.index.json"
    index_path.write_text(json.dumps({"weight_map": weight_map}))
    err = refused(capsys, index_path)
    assert "weight_map" in err and ("invented" in err if fault == "invents" else name in err)
