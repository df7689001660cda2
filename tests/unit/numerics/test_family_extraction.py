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
from family_models import (
    DECODERS,
    FAMILY_NAMES,
    LAYER_TYPED_ROTARY,
    QK_NORMS,
    RECORDED,
    ROTARY,
    TinyModel,
    build,
    forward_with,
    softmax,
    torch,
)

from numerics.loading import load_weights
from numerics.loading.families import detect
from numerics.spectra.matrices import extract_matrices
from theory.proxy import MatrixKind

TOLERANCE = 1e-13
"""Relative: float64 forward passes of 16-48-wide layers agree to a few hundred ulps."""


def forward_capture(tiny: TinyModel, layer: int, seed: int):
    """X at the layer's query projection, its recorded logits and probabilities, the out-projection output."""
    found = detect(tiny.model.config.to_dict(), tiny.model.state_dict())
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
    forward_with(tiny, seed, handles)
    return seen["x"].numpy(), RECORDED[layer], seen["out"].numpy()


def rope(vectors: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """x cos + rotate_half(x) sin on the first cos.shape[-1] dimensions (vectors T x d, cos T x r)."""
    r = cos.shape[-1]
    head, tail = vectors[:, :r], vectors[:, r:]
    half = np.concatenate((-head[:, r // 2 :], head[:, : r // 2]), axis=1)
    return np.concatenate((head * cos + half * sin, tail), axis=1)


def qk_norm(tiny: TinyModel, layer: int, part: str, vectors: np.ndarray) -> np.ndarray:
    """The RMSNorm of queries (``q_norm``) or keys (``k_norm``) over the last axis (a head's d_h entries, or
    OLMo 2's whole projection), gains from the model (Gemma 3's 1 + w)."""
    norm = getattr(tiny.model.layers[layer].self_attn, part)
    gain = QK_NORMS[tiny.name] + norm.weight.detach().numpy()
    return gain * vectors / np.sqrt(np.mean(vectors**2, axis=-1, keepdims=True) + norm.eps)


def llama4_positions(tiny: TinyModel, layer: int, u: np.ndarray, v: np.ndarray):
    """Llama 4's queries and keys of one head: on rotary layers rotated as complex pairs by the model's
    table, then normalised without gain; on NoPE layers the queries scaled by the temperature of their
    position, 1 + attn_scale log(1 + floor((t + 1) / floor_scale)), in float32 as transformers takes it."""
    config = tiny.model.config
    if config.no_rope_layers[layer]:
        table = tiny.rotary[0][0].numpy()  # (T, d_h / 2) complex, positions 0..T-1

        def rotate(x):
            pairs = (x[:, 0::2] + 1j * x[:, 1::2]) * table
            return np.stack((pairs.real, pairs.imag), axis=-1).reshape(x.shape)

        eps = config.rms_norm_eps
        u, v = rotate(u), rotate(v)
        return (
            u / np.sqrt(np.mean(u**2, -1, keepdims=True) + eps),
            v / np.sqrt(np.mean(v**2, -1, keepdims=True) + eps),
        )
    positions = torch.arange(u.shape[0]).float()  # transformers takes the temperature in float32
    scales = (
        torch.log1p(torch.floor((positions + 1.0) / config.floor_scale)) * config.attn_scale + 1.0
    ).numpy()
    return u * scales[:, None].astype(np.float64), v


def mask(tiny: TinyModel, layer: int, count: int) -> np.ndarray:
    """Which keys each query attends: all (encoders), the prefix (decoders), the last window (sliding)."""
    config = tiny.model.config
    if tiny.name == "modernbert":  # bidirectional; local layers: within sliding_window either side
        offsets = np.abs(np.arange(count)[:, None] - np.arange(count)[None, :])
        local = config.layer_types[layer] == "sliding_attention"
        return offsets <= config.sliding_window if local else np.ones((count, count), dtype=bool)
    if tiny.name not in DECODERS:
        return np.ones((count, count), dtype=bool)
    allowed = np.tril(np.ones((count, count), dtype=bool))
    if tiny.name == "llama4" and config.layer_types[layer] == "chunked_attention":
        chunks = np.arange(count) // config.attention_chunk_size
        allowed &= chunks[:, None] == chunks[None, :]
    if tiny.name in ("gemma2", "gemma3", "gpt_oss") and config.layer_types[layer] == "sliding_attention":
        offsets = np.arange(count)[:, None] - np.arange(count)[None, :]
        allowed &= offsets < config.sliding_window
    return allowed


def rebuilt(tiny: TinyModel, layer: int, x: np.ndarray) -> dict[str, np.ndarray]:
    """Logits and probabilities (batch, H, T, T) and the attention output (batch, T, N) from the matrices."""
    weights = load_weights(tiny.folder)
    matrices = [m for m in extract_matrices(weights) if m.layer == layer]
    qk = {m.head: m for m in matrices if m.kind is MatrixKind.QK}
    vt = {m.head: m for m in matrices if m.kind is MatrixKind.VT}
    config, count = tiny.model.config, x.shape[1]
    scale = getattr(config, "query_pre_attn_scalar", None) or weights.head_dim
    cap = getattr(config, "attn_logit_softcapping", None)
    allowed = mask(tiny, layer, count)
    logits = np.zeros((x.shape[0], weights.num_heads, count, count))
    probabilities = np.zeros_like(logits)
    output = np.zeros(x.shape)
    group = weights.num_heads // weights.kv_heads
    typed = tiny.name in LAYER_TYPED_ROTARY
    table = tiny.rotary_types.index(config.layer_types[layer]) if typed else 0
    for b in range(x.shape[0]):
        if tiny.name == "olmo2":  # the norm runs over every head's entries of the whole projection
            queries = qk_norm(tiny, layer, "q_norm", np.hstack([x[b] @ qk[h].left for h in qk]))
            keys = np.hstack([x[b] @ qk[g * group].right for g in range(weights.kv_heads)])
            keys = qk_norm(tiny, layer, "k_norm", keys)
        for h in range(weights.num_heads):
            u, v = x[b] @ qk[h].left, x[b] @ qk[h].right
            if tiny.name == "olmo2":
                dh, g = weights.head_dim, h // group
                u, v = queries[:, h * dh : (h + 1) * dh], keys[:, g * dh : (g + 1) * dh]
            elif tiny.name in QK_NORMS:
                u, v = qk_norm(tiny, layer, "q_norm", u), qk_norm(tiny, layer, "k_norm", v)
            if tiny.name == "llama4":
                u, v = llama4_positions(tiny, layer, u, v)
            elif tiny.name in ROTARY:
                cos, sin = (t[0].numpy() for t in tiny.rotary[table])  # positions 0..T-1 for each input
                if tiny.name == "gpt_oss":  # its tables hold each frequency once (halves rotated as pairs)
                    cos, sin = np.hstack((cos, cos)), np.hstack((sin, sin))
                u, v = rope(u, cos, sin), rope(v, cos, sin)
            z = u @ v.T / np.sqrt(scale)
            logits[b, h] = z if cap is None else cap * np.tanh(z / cap)
            masked = np.where(allowed, logits[b, h], -np.inf)
            if tiny.name == "gpt_oss":  # the head's sink logit joins the softmax and is dropped
                sink = float(tiny.model.layers[layer].self_attn.sinks.detach()[h])
                masked = np.hstack((masked, np.full((count, 1), sink)))
                probabilities[b, h] = softmax(masked)[:, :-1]
            else:
                probabilities[b, h] = softmax(masked)
            output[b] += probabilities[b, h] @ x[b] @ vt[h].dense()
    return {"logits": logits, "probabilities": probabilities, "output": output}


def relative_errors(tiny: TinyModel, layer: int, seed: int) -> dict[str, float]:
    """max |rebuilt - transformers| / max |transformers| for logits, probabilities and the output."""
    x, recorded, out = forward_capture(tiny, layer, seed)
    ours = rebuilt(tiny, layer, x)
    reference = {**recorded, "output": out}
    return {
        key: float(np.max(np.abs(ours[key] - reference[key])) / np.max(np.abs(reference[key])))
        for key in ours
    }


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
