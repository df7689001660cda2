"""Name the projection weights of a BERT exported to ONNX, and read its number of heads from the graph.

A PyTorch export keeps the names of biases, LayerNorms and embeddings but stores each ``nn.Linear``
weight as an anonymous initializer (``onnx::MatMul_470``) in the transposed layout [in, out], consumed by
a ``MatMul`` whose output goes to an ``Add`` with the layer's named bias. So the weight of the module
``P`` is the initializer of the ``MatMul`` feeding the ``Add`` that adds ``P.bias``, transposed back to
``nn.Linear`` layout [out, in]. The number of heads comes from the ``Reshape`` that splits a projection's
output into (heads, head size): its target shape ends in two constants (H, d_h) with H d_h = width.
Proven right by tests/slow/test_onnx_mapping.py, which rebuilds the BERT from these tensors and compares
its hidden states with the ONNX graph run by onnx's reference evaluator.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from theory.errors import CheckpointError, MissingDependency, UnsupportedCheckpoint


def read_onnx_projections(path: Path) -> tuple[dict[str, np.ndarray], tuple[int, ...]]:
    """The named projection weights of an ONNX export (float64, [out, in]) and the head counts its graph has.

    Keys are the bias names with ``.bias`` replaced by ``.weight``, e.g.
    ``model.0.auto_model.encoder.layer.0.attention.self.query.weight``. Raises UnsupportedCheckpoint when
    no ``MatMul`` with a constant weight is followed by a named bias ``Add``. The head counts are those of
    :func:`_head_counts`: one value for a normal export, none when the graph hides them.
    """
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        raise MissingDependency(
            f"reading {path} needs the optional dependency 'onnx'; "
            "install it with pip install 'specbound[models]'"
        ) from None
    try:
        model = onnx.load(str(path))
    except Exception as error:  # protobuf DecodeError, onnx ValidationError or OSError on damaged files
        raise CheckpointError(
            f"{path} is not a readable ONNX model (truncated or corrupt?): {type(error).__name__}: {error}"
        ) from None
    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)

    weights: dict[str, np.ndarray] = {}
    widths: dict[str, int] = {}  # output of each identified bias Add -> the projection's output width
    for node in graph.node:
        if node.op_type != "MatMul" or node.input[1] not in initializers:
            continue
        for add in consumers.get(node.output[0], []):
            if add.op_type != "Add":
                continue
            biases = [name for name in add.input if name in initializers and name.endswith(".bias")]
            if len(biases) == 1:
                matrix = np.asarray(numpy_helper.to_array(initializers[node.input[1]]), dtype=np.float64)
                weights[biases[0][: -len(".bias")] + ".weight"] = matrix.T
                widths[add.output[0]] = int(matrix.shape[-1])
    if not weights:
        matmuls = sum(node.op_type == "MatMul" for node in graph.node)
        raise UnsupportedCheckpoint(
            f"{path}: cannot identify the projection weights: none of its {matmuls} MatMul nodes with a "
            "constant weight feeds an Add of a named '.bias' initializer (as PyTorch exports nn.Linear)"
        )
    return weights, _head_counts(graph, widths, consumers, initializers)


def _head_counts(graph, widths: dict[str, int], consumers: dict, initializers: dict) -> tuple[int, ...]:
    """Every H found in a ``Reshape`` that splits a projection output of width H d_h into (..., H, d_h)."""
    from onnx import numpy_helper

    producers = {out: node for node in graph.node for out in node.output}

    def constant(name: str) -> list[int] | None:
        if name in initializers:
            return [int(v) for v in numpy_helper.to_array(initializers[name]).ravel()]
        node = producers.get(name)
        if (
            node is not None
            and node.op_type == "Constant"
            and node.attribute
            and node.attribute[0].name == "value"
        ):
            return [int(v) for v in numpy_helper.to_array(node.attribute[0].t).ravel()]
        return None

    def trailing_constants(name: str) -> list[int]:
        whole = constant(name)
        if whole is not None:
            return whole
        node = producers.get(name)
        tail: list[int] = []
        if node is not None and node.op_type == "Concat":
            for part in reversed(node.input):
                values = constant(part)
                if values is None:
                    break
                tail = values + tail
        return tail

    heads: set[int] = set()
    for output, width in widths.items():
        for reshape in consumers.get(output, []):
            if reshape.op_type != "Reshape" or len(reshape.input) < 2:
                continue
            tail = trailing_constants(reshape.input[1])
            if len(tail) >= 2 and tail[-2] >= 1 and tail[-1] > 0 and tail[-2] * tail[-1] == width:
                heads.add(tail[-2])
    return tuple(sorted(heads))
