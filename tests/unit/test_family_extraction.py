"""Every family's extracted QK_h and Vt_h rebuild the transformers forward pass of a layer (1e-5).

For each tiny random model (``family_models``): the input X of a layer's attention (captured at the
query projection, so after the family's normalisation), the attention probabilities (eager attention,
``output_attentions``) and the output of the attention's out-projection (biases zeroed). From the matrices
``extract_matrices`` gives for the checkpoint saved on disk:
softmax(X QK_h X^T / sqrt(d_h) [+ causal mask]) must equal the probabilities of head h, and
sum_h P_h X Vt_h the out-projection's output. Rotary models: logit (m, n) is x_m A R_{n-m} B^T x_n^T with
QK_h = A B^T and R_t the rotary rotation of relative offset t (``numerics.bounds.reach.rotary_rotation``), so
the offset-0 matrix QK_h and the rotation together rebuild every position.
"""

from __future__ import annotations

import numpy as np
import pytest
from family_models import FAMILY_NAMES, ROTARY, TinyModel, softmax, torch

from numerics.bounds.reach import rotary_rotation
from numerics.loading import load_weights
from numerics.loading.families import detect
from numerics.spectra.matrices import extract_matrices
from theory.proxy import MatrixKind

DECODERS = {"gpt2", *ROTARY}
TOLERANCE = 1e-5


def forward_capture(tiny: TinyModel, layer: int, seed: int):
    """X at the layer's query projection, the layer's attention probabilities, the out-projection output."""
    found = detect(None, tiny.model.state_dict())
    assert found is not None
    _, scheme, prefix = found
    names = {role: name.removesuffix(".weight") for role, name in scheme.names(prefix, layer).items()}
    modules = dict(tiny.model.named_modules())
    seen = {}
    query = modules[next(iter(names.values()))]
    handles = [
        query.register_forward_pre_hook(lambda module, args: seen.setdefault("x", args[0])),
        modules[names["wo"]].register_forward_hook(lambda module, args, out: seen.setdefault("out", out)),
    ]
    try:
        with torch.no_grad():
            result = tiny.model(**tiny.inputs(seed), output_attentions=True)
    finally:
        for handle in handles:
            handle.remove()
    return seen["x"].numpy(), result.attentions[layer].numpy(), seen["out"].numpy()


def rebuilt(tiny: TinyModel, layer: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Attention probabilities (batch, H, T, T) and the attention output (batch, T, N) from the matrices."""
    weights = load_weights(tiny.folder)
    matrices = [m for m in extract_matrices(weights) if m.layer == layer]
    qk = {m.head: m for m in matrices if m.kind is MatrixKind.QK}
    vt = {m.head: m for m in matrices if m.kind is MatrixKind.VT}
    dh, count = weights.head_dim, x.shape[1]
    causal = (
        np.tril(np.ones((count, count), dtype=bool))
        if tiny.name in DECODERS
        else np.ones((count, count), bool)
    )
    theta = (
        (tiny.model.config.rope_parameters or {}).get("rope_theta", 10000.0) if tiny.name in ROTARY else 0.0
    )
    probabilities = np.zeros((x.shape[0], weights.num_heads, count, count))
    output = np.zeros(x.shape)
    for b in range(x.shape[0]):
        for h in range(weights.num_heads):
            left, right = x[b] @ qk[h].left, x[b] @ qk[h].right
            if tiny.name in ROTARY:
                logits = np.array(
                    [
                        [left[m] @ rotary_rotation(n - m, dh, theta) @ right[n] for n in range(count)]
                        for m in range(count)
                    ]
                )
            else:
                logits = left @ right.T
            logits = np.where(causal, logits / np.sqrt(dh), -np.inf)
            probabilities[b, h] = softmax(logits)
            output[b] += probabilities[b, h] @ x[b] @ vt[h].dense()
    return probabilities, output


def max_errors(tiny: TinyModel, layer: int, seed: int) -> tuple[float, float]:
    """max |P_rebuilt - P_torch| and max |out_rebuilt - out_torch| for one batch of inputs."""
    x, attentions, out = forward_capture(tiny, layer, seed)
    probabilities, output = rebuilt(tiny, layer, x)
    return float(np.max(np.abs(probabilities - attentions))), float(np.max(np.abs(output - out)))


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_extracted_matrices_rebuild_attention_and_value_path(tiny_models, name):
    tiny = tiny_models(name)
    for seed in (1, 2):
        logit_error, value_error = max_errors(tiny, layer=1, seed=seed)
        assert logit_error < TOLERANCE and value_error < TOLERANCE, (name, logit_error, value_error)


def test_a_wrong_head_slicing_is_caught(tiny_models):
    """The comparison can fail: swapping two heads' key factors breaks the rebuilt probabilities."""
    tiny = tiny_models("bert")
    x, attentions, _ = forward_capture(tiny, 1, 1)
    weights = load_weights(tiny.folder)
    qk = [m for m in extract_matrices(weights) if m.layer == 1 and m.kind is MatrixKind.QK]
    wrong = x[0] @ qk[0].left @ qk[1].right.T @ x[0].T / np.sqrt(weights.head_dim)
    assert np.max(np.abs(softmax(wrong) - attentions[0, 0])) > 1e-3


@pytest.mark.parametrize(("name", "group"), [("llama", 2), ("mistral", 4)])
def test_grouped_query_heads_share_the_key_and_value_head_of_their_group(tiny_models, name, group):
    """H = 4 query heads; K = 2 (llama) or 1 (mistral) key/value heads: head h reads head h // (H/K)."""
    weights = load_weights(tiny_models(name).folder)
    assert weights.kv_heads == 4 // group
    qk = [m for m in extract_matrices(weights) if m.layer == 0 and m.kind is MatrixKind.QK]
    vt = [m for m in extract_matrices(weights) if m.layer == 0 and m.kind is MatrixKind.VT]
    for h in range(4):
        g = h // group
        dh = weights.head_dim
        assert np.array_equal(qk[h].right, weights.layers[0].wk[g * dh : (g + 1) * dh].T)
        assert np.array_equal(vt[h].left, weights.layers[0].wv[g * dh : (g + 1) * dh].T)


def test_swiglu_enters_as_stacked_gate_and_up_then_down(tiny_models):
    weights = load_weights(tiny_models("llama").folder)
    layer = weights.layers[0]
    m_in, m_out = (m for m in extract_matrices(weights) if m.layer == 0 and m.head == -1)
    assert np.array_equal(m_in.dense(), np.vstack((layer.w_gate, layer.w_in)).T)
    assert np.array_equal(m_out.left, layer.w_out.T) and m_in.shape == (32, 96)
    # kept as its two column blocks (views of the layer), never concatenated
    assert np.shares_memory(m_in.left, layer.w_gate) and np.shares_memory(m_in.second_block, layer.w_in)
