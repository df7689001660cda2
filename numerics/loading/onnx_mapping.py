"""Name the projection weights of a BERT exported to ONNX, and read its number of heads from the graph.

A PyTorch export keeps the names of biases, LayerNorms and embeddings but stores each ``nn.Linear``
weight as an anonymous initializer (``onnx::MatMul_470``) in the transposed layout [in, out], consumed by
a ``MatMul`` whose output goes to an ``Add`` with the layer's named bias. So the weight of the module
``P`` is the initializer of the ``MatMul`` feeding the ``Add`` that adds ``P.bias``, transposed back to
``nn.Linear`` layout [out, in]. A constant may reach its consumer through ``Identity`` nodes (the exporter
inserts them when it merges equal initializers, e.g. the zero biases of a freshly initialised model) or
come from a ``Constant`` node. The number of heads comes from the ``Reshape`` that splits a projection's
output into (heads, head size): its target shape ends in two constants (H, d_h) with H d_h = width.
Proven right by tests/slow/test_onnx_mapping.py, which rebuilds the BERT from these tensors and compares
its hidden states with the ONNX graph run by onnx's reference evaluator.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from numerics.safe_io import inside
from theory.errors import CheckpointError, UnsupportedCheckpoint, require


def read_onnx_projections(path: Path) -> tuple[dict[str, np.ndarray], tuple[int, ...]]:
    """The named projection weights of an ONNX export (float64, [out, in]) and the head counts its graph has.

    Keys are the bias names with ``.bias`` replaced by ``.weight``, e.g.
    ``model.0.auto_model.encoder.layer.0.attention.self.query.weight``. Raises UnsupportedCheckpoint when
    no ``MatMul`` with a constant weight is followed by a named bias ``Add``. The head counts are those of
    :func:`_head_counts`: one value for a normal export, none when the graph hides them.
    """
    onnx = require("onnx", purpose=f"reading {path}")
    try:
        model = onnx.load(str(path), load_external_data=False)
    except Exception as error:  # protobuf DecodeError, onnx ValidationError or OSError on damaged files
        raise CheckpointError(
            f"{path} is not a readable ONNX model (truncated or corrupt?): {type(error).__name__}: {error}"
        ) from None
    _load_external_data(onnx, model, path)
    graph = _Graph(model.graph, path)

    weights: dict[str, np.ndarray] = {}
    widths: dict[str, int] = {}  # output of each identified bias Add -> the projection's output width
    matmuls = [node for node in graph.nodes if node.op_type == "MatMul"]
    for node in matmuls:
        weight = graph.constant(node.input[1])
        if weight is None:
            continue
        if weight.dtype.kind != "f" and weight.dtype.name != "bfloat16":
            raise UnsupportedCheckpoint(
                f"{path}: the weight {node.input[1]} of MatMul {node.name or node.output[0]} has dtype "
                f"{weight.dtype}; only float checkpoints are supported "
                "(quantisation noise distorts the small singular values the bound depends on)"
            )
        for add in graph.consumers.get(node.output[0], []):
            if add.op_type != "Add":
                continue
            biases = [
                name for name in add.input if name.endswith(".bias") and graph.constant(name) is not None
            ]
            if len(biases) == 1:
                matrix = np.asarray(weight, dtype=np.float64)
                weights[biases[0][: -len(".bias")] + ".weight"] = matrix.T
                widths[add.output[0]] = int(matrix.shape[-1])
    if not weights:
        raise UnsupportedCheckpoint(
            f"{path}: cannot identify the projection weights: none of its {len(matmuls)} MatMul nodes with a "
            "constant weight feeds an Add of a named '.bias' constant (as PyTorch exports nn.Linear)"
        )
    return weights, _head_counts(graph, widths)


def _load_external_data(onnx, model, path: Path) -> None:
    """Read the tensors a model stores in separate files, each of which must lie inside the model's folder.

    Checked here whatever the onnx version (onnx < 1.21 followed a symlinked external-data file anywhere):
    every location, symlinks resolved, must be a regular file under ``path.parent``.
    """
    helper = require("onnx.external_data_helper", purpose=f"reading {path}")
    ExternalDataInfo, uses_external_data = helper.ExternalDataInfo, helper.uses_external_data
    _get_all_tensors = helper._get_all_tensors

    try:
        external = [tensor for tensor in _get_all_tensors(model) if uses_external_data(tensor)]
        for tensor in external:
            inside(
                path.parent,
                ExternalDataInfo(tensor).location,
                f"{path}: tensor {tensor.name}'s external data",
            )
        if external:
            onnx.load_external_data_for_model(model, str(path.parent))
    except CheckpointError:
        raise
    except Exception as error:  # a location onnx refuses, data shorter than declared, an unreadable file
        raise CheckpointError(
            f"{path}: its external data cannot be read: {type(error).__name__}: {error}"
        ) from None


class _Graph:
    """An ONNX graph indexed for walking: who produces and who consumes each value, and its constants."""

    def __init__(self, graph, path: Path) -> None:
        self.path = path
        self.nodes = list(graph.node)
        self.initializers = {tensor.name: tensor for tensor in graph.initializer}
        self.producers = {out: node for node in self.nodes for out in node.output}
        self.consumers: dict[str, list] = {}
        for node in self.nodes:
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)

    def constant(self, name: str) -> np.ndarray | None:
        """The value of ``name`` if constant: an initializer or a Constant node, through Identity nodes."""
        visited: set[str] = set()
        while name not in self.initializers:
            node = self.producers.get(name)
            if node is None or name in visited:  # not produced here, or a cycle of Identity nodes
                return None
            visited.add(name)
            if node.op_type == "Identity":
                name = node.input[0]
            elif node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
                return self._decoded(name, node.attribute[0].t)
            else:
                return None
        return self._decoded(name, self.initializers[name])

    def _decoded(self, name: str, tensor) -> np.ndarray:
        """A TensorProto as a numpy array; CheckpointError when its bytes do not match its shape or type."""
        numpy_helper = require("onnx.numpy_helper", purpose="reading an ONNX model")

        try:
            return numpy_helper.to_array(tensor)
        except Exception as error:  # onnx raises ValueError/TypeError/KeyError on inconsistent tensors
            raise CheckpointError(
                f"{self.path}: constant {name} cannot be decoded: {type(error).__name__}: {error}"
            ) from None

    def trailing_constants(self, name: str) -> list[int]:
        """The constant entries ending a shape: all of it if constant, else the constant tail of a Concat."""
        whole = self.constant(name)
        if whole is not None:
            return [int(v) for v in whole.ravel()]
        node = self.producers.get(name)
        tail: list[int] = []
        if node is not None and node.op_type == "Concat":
            for part in reversed(node.input):
                values = self.constant(part)
                if values is None:
                    break
                tail = [int(v) for v in values.ravel()] + tail
        return tail


def _head_counts(graph: _Graph, widths: dict[str, int]) -> tuple[int, ...]:
    """Every H found in a ``Reshape`` that splits a projection output of width H d_h into (..., H, d_h).

    The target shape must end in two constants: (H, d_h), or (-1, d_h) which leaves H = width / d_h to ONNX.
    """
    heads: set[int] = set()
    for output, width in widths.items():
        for reshape in graph.consumers.get(output, []):
            if reshape.op_type != "Reshape" or len(reshape.input) < 2:
                continue
            tail = graph.trailing_constants(reshape.input[1])
            if len(tail) < 2 or tail[-1] < 1 or width % tail[-1]:
                continue
            count = width // tail[-1]
            if tail[-2] in (
                count,
                -1,
            ):  # -1: Reshape infers H from the width (transformers >= 4.48 does this)
                heads.add(count)
    return tuple(sorted(heads))
