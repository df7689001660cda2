"""Every family's extracted QK_h and Vt_h rebuild transformers' forward pass of each layer (1e-13 relative).

For each tiny random model (``family_models``, float64 attention recorded per layer): the input X of a
layer's attention (captured at the query projection, so after the family's normalisation), the logits and
probabilities of every head, and the output of the attention's out-projection (biases zeroed). From the
matrices ``extract_matrices`` gives for the checkpoint saved on disk, with u = X A_h and v = X B_h for
QK_h = A_h B_h^T: Qwen3 normalises u and v per head (q_norm / k_norm gains read from the model), rotary
models rotate them by the model's own cos/sin tables (rotate_half convention, on the first r dimensions of
a partial rotary), the logits are u v^T times the family's scale (1/sqrt(d_h), or Gemma 2's
query_pre_attn_scalar^(-1/2)), soft-capped for Gemma 2, and must equal transformers'; softmax over the
causal (or sliding-window) mask must equal its probabilities, and sum_h P_h X Vt_h the out-projection's
output. Rotary logits come out as u_m^T R(m)^T R(n) v_n = u_m^T R(n - m) v_n: the offset-0 matrix QK_h and
the relative rotation rebuild every position.
"""

from __future__ import annotations

import numpy as np
import pytest

from numerics.loading import load_weights
from numerics.spectra.matrices import extract_matrices
from tests.helpers.family_models import (
    FAMILY_NAMES,
    build,
    softmax,
)
from tests.helpers.family_rebuild import TOLERANCE, forward_capture, relative_errors
from theory.proxy import MatrixKind


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_extracted_matrices_rebuild_attention_and_value_path(tiny_models, name):
    tiny = tiny_models(name)
    for layer in (0, 1):
        errors = relative_errors(tiny, layer, seed=1 + layer)
        assert max(errors.values()) < TOLERANCE, (name, layer, errors)


@pytest.mark.parametrize("name", ["qwen3", "gemma2", "phi3", "gpt_neox"])
def test_the_rebuilt_attention_is_not_trivially_uniform(tiny_models, name):
    """The check has teeth: the probabilities are far from uniform."""
    _, recorded, _ = forward_capture(tiny_models(name), 1, 1)
    causal_rows = recorded["probabilities"][:, :, -1, :]
    assert np.max(causal_rows) > 2 / causal_rows.shape[-1]


def test_a_wrong_head_slicing_is_caught(tiny_models):
    """The comparison can fail: swapping two heads' key factors breaks the rebuilt probabilities."""
    tiny = tiny_models("bert")
    x, recorded, _ = forward_capture(tiny, 1, 1)
    weights = load_weights(tiny.folder)
    qk = [m for m in extract_matrices(weights) if m.layer == 1 and m.kind is MatrixKind.QK]
    wrong = x[0] @ qk[0].left @ qk[1].right.T @ x[0].T / np.sqrt(weights.head_dim)
    assert np.max(np.abs(softmax(wrong) - recorded["probabilities"][0, 0])) > 1e-3


@pytest.mark.parametrize("name", ["phi3", "gpt_neox"])
def test_a_wrong_split_of_a_fused_projection_is_caught(tiny_models, name):
    """Reading a fused QKV in the other layout (thirds for NeoX, interleaved for Phi-3) breaks the logits."""
    tiny = tiny_models(name)
    x, recorded, _ = forward_capture(tiny, 0, 1)
    module = "self_attn.qkv_proj" if name == "phi3" else "attention.query_key_value"
    fused = tiny.model.state_dict()[f"layers.0.{module}.weight"].numpy()
    dh = load_weights(tiny.folder).head_dim
    if name == "gpt_neox":
        wq, wk = fused[:dh], fused[4 * dh : 5 * dh]  # thirds, not per-head interleaved
    else:
        wq, wk = fused[0:dh], fused[dh : 2 * dh]  # head 0 and 1 of Wq as if interleaved
    logits = (x[0] @ wq.T) @ (x[0] @ wk.T).T / np.sqrt(dh)
    assert np.max(np.abs(logits - recorded["logits"][0, 0])) > 1e-3


@pytest.mark.parametrize(
    "name",
    [
        *("qwen3", "gemma", "gemma2", "phi3", "gpt_neox", "opt", "llama_head_dim"),
        *("qwen3_moe", "olmo2", "gemma3", "modernbert", "gpt_oss", "llama4"),
    ],
)
def test_in_memory_and_sharded_reads_equal_the_saved_folder(tiny_models, tmp_path, name):
    """The rebuilt forward pass uses the folder's matrices; a module in memory and a sharded save give the
    same arrays bit for bit (so the same agreement)."""
    tiny = tiny_models(name)
    saved = load_weights(tiny.folder)
    sharded = build(name, tmp_path / "sharded", max_shard_size="20KB").folder
    assert len(list(sharded.glob("model-*.safetensors"))) > 1
    for other in (load_weights(tiny.model), load_weights(sharded)):
        assert other.family == saved.family and other.head_dim == saved.head_dim
        for la, lb in zip(other.layers, saved.layers, strict=True):
            for (na, a), (nb, b) in zip(la.items(), lb.items(), strict=True):
                assert na == nb and np.array_equal(a, b), (name, na)


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
