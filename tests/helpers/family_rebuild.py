"""Transformers' forward pass rebuilt from the matrices specbound extracts, for the family tests.

Attention (:func:`relative_errors`): for a tiny random model (``tests.helpers.family_models``, float64
attention recorded per layer), the input X of a layer's attention (captured at the query projection, so after
the family's normalisation), the logits and probabilities of every head and the out-projection's output are
rebuilt from ``extract_matrices``: u = X A_h and v = X B_h for QK_h = A_h B_h^T, normalised per head
(Qwen3's q_norm / k_norm), rotated by the model's own cos/sin tables (rotate_half convention, on the first r
dimensions of a partial rotary), scaled (1/sqrt(d_h), or Gemma 2's query_pre_attn_scalar^(-1/2)), soft-capped
for Gemma 2, masked (causal or sliding window) and softmaxed; the output is sum_h P_h X Vt_h.

Mixtures (:func:`capture_mixture`, :func:`rebuilt_mixture`): the block's input and output and its router's
choice, and the feed-forward rebuilt as the gate-weighted sum of the chosen experts' SwiGLU blocks (plus the
sigmoid-gated shared expert)."""

from __future__ import annotations

import numpy as np

from numerics.loading import load_weights
from numerics.loading.families import detect
from numerics.spectra.matrices import extract_matrices
from tests.helpers.family_models import (
    DECODERS,
    LAYER_TYPED_ROTARY,
    QK_NORMS,
    RECORDED,
    ROTARY,
    TinyModel,
    forward_with,
    softmax,
    torch,
)
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


def silu(x: np.ndarray) -> np.ndarray:
    """x sigmoid(x)."""
    return x / (1 + np.exp(-x))


def block_output(block, x: np.ndarray) -> np.ndarray:
    """W_down (silu(W_gate x) * W_up x) for token rows x."""
    return (silu(x @ block.w_gate.T) * (x @ block.w_in.T)) @ block.w_out.T


def capture_mixture(tiny, layer: int, seed: int):
    """The mixture block's input and output and its router's (logits, top-k weights, top-k experts)."""
    block = tiny.model.layers[layer].mlp
    seen: dict = {}

    def keep(key: str):
        def hook(module, args, out) -> None:  # returns None: the module's output stays as it is
            seen.setdefault(key, (args[0], out))

        return hook

    handles = [block.register_forward_hook(keep("io")), block.gate.register_forward_hook(keep("router"))]
    forward_with(tiny, seed, handles)
    x, out = (t.reshape(-1, t.shape[-1]).numpy() for t in seen["io"])
    return x, out, tuple(t.numpy() for t in seen["router"][1])


def rebuilt_mixture(layer, x: np.ndarray, weights: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """The mixture's output for token rows x from the experts read: sum of gate * expert block, plus the
    shared expert weighted by its sigmoid gate."""
    out = np.zeros_like(x)
    for token in range(x.shape[0]):
        for expert, gate in zip(chosen[token], weights[token], strict=True):
            out[token] += float(gate) * block_output(layer.experts[expert], x[token : token + 1])[0]
    if layer.shared_expert is not None:
        sigmoid = 1 / (1 + np.exp(-(x @ layer.shared_expert_gate.T)))
        out += sigmoid * block_output(layer.shared_expert, x)
    return out


def relative(a: np.ndarray, b: np.ndarray) -> float:
    """max |a - b| / max |b|."""
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))
