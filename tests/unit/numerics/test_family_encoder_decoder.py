"""T5 (plain and gated), BART, mBART and Whisper, read against the torch modules' own weights.

The reference walks each tiny random model's module tree (``model.encoder.layers[i].self_attn.q_proj``,
``model.decoder.block[j].layer[1].EncDecAttention``, ...), not specbound's tensor names: every matrix read
from the saved folder (float64), in memory, from shards, from a bfloat16 save and from the bare
``model.safetensors`` without its config must equal the module's weight (the bfloat16 one's values
upcast), the encoder's layers first, then the decoder's with their cross-attention; QK_h and Vt_h of the
extracted matrices must equal the products of the module weights' head blocks (1e-13), and each layer's
feed-forward computed from the read matrices must equal the module's own forward (the role mapping: T5
v1.1's gate is Wi_0, its up projection Wi_1). Hostile config values end in one line, exit 2.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers.hostile_files import assert_error_line, call

torch = pytest.importorskip("torch", reason="building the tiny models needs torch")
transformers = pytest.importorskip("transformers", reason="the tiny models need transformers")

from numerics.loading import load_weights, open_checkpoint  # noqa: E402
from numerics.spectra.matrices import extract_matrices  # noqa: E402
from theory.kinds import MatrixKind  # noqa: E402

TOLERANCE = 1e-13
SEQ = {"d_model": 32, "encoder_layers": 2, "decoder_layers": 3, "encoder_attention_heads": 4}
SEQ |= {"decoder_attention_heads": 4, "encoder_ffn_dim": 40, "decoder_ffn_dim": 40, "vocab_size": 40}
IDS = {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2, "decoder_start_token_id": 1}


def _config(name: str):
    t = transformers
    t5 = {"d_model": 32, "d_kv": 6, "num_heads": 4, "d_ff": 40, "num_layers": 2, "num_decoder_layers": 3}
    return {
        "t5": t.T5Config(**t5, vocab_size=40),
        "t5_gated": t.T5Config(**t5, vocab_size=40, feed_forward_proj="gated-gelu"),
        "bart": t.BartConfig(**SEQ, **IDS, max_position_embeddings=16),
        "mbart": t.MBartConfig(**SEQ, **IDS, max_position_embeddings=16),
        "whisper": t.WhisperConfig(
            **SEQ, **IDS, num_mel_bins=8, max_source_positions=16, max_target_positions=16
        ),
    }[name]


NAMES = ("t5", "t5_gated", "bart", "mbart", "whisper")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """name -> (model, folder) built once per module."""
    built = {}

    def get(name):
        if name not in built:
            torch.manual_seed(0)
            model = transformers.AutoModel.from_config(_config(name)).double().eval()
            with torch.no_grad():  # the analysed class has no biases; the feed-forward test compares without
                for module in model.modules():
                    if isinstance(module, torch.nn.Linear) and module.bias is not None:
                        module.bias.zero_()
            folder = tmp_path_factory.mktemp(name)
            model.save_pretrained(folder)
            built[name] = (model, folder)
        return built[name]

    return get


def _attention(module) -> tuple:
    """(Wq, Wk, Wv, Wo) of a T5Attention or a BART-style attention module."""
    parts = ("q", "k", "v", "o") if hasattr(module, "o") else ("q_proj", "k_proj", "v_proj", "out_proj")
    return tuple(getattr(module, part).weight for part in parts)


def reference_layers(model) -> list[dict]:
    """Per layer, encoder then decoder: role -> module weight, from the module tree."""
    layers = []
    for stack in (model.encoder, model.decoder):
        for layer in getattr(stack, "block", None) or stack.layers:
            if hasattr(layer, "layer"):  # T5: layer[0] self-attention, [1] cross (decoder), [-1] FFN
                attention, cross = (
                    layer.layer[0].SelfAttention,
                    getattr(layer.layer[1], "EncDecAttention", None),
                )
                ffn = layer.layer[-1].DenseReluDense
                dense = (
                    {"w_gate": ffn.wi_0.weight, "w_in": ffn.wi_1.weight}
                    if hasattr(ffn, "wi_0")
                    else {"w_in": ffn.wi.weight}
                )
                dense["w_out"] = ffn.wo.weight
            else:
                attention, cross = layer.self_attn, getattr(layer, "encoder_attn", None)
                dense = {"w_in": layer.fc1.weight, "w_out": layer.fc2.weight}
            roles = dict(zip(("wq", "wk", "wv", "wo"), _attention(attention), strict=True)) | dense
            if cross is not None:
                roles |= {
                    f"cross.{r}": w for r, w in zip(("wq", "wk", "wv", "wo"), _attention(cross), strict=True)
                }
            layers.append({role: w.detach().double().numpy() for role, w in roles.items()})
    return layers


def assert_read_exactly(weights, reference: list[dict]) -> float:
    """Every read matrix equals the reference's, the same roles in every layer; the largest |difference|."""
    assert weights.num_layers == len(reference)
    worst = 0.0
    for layer, expected in zip(weights.layers, reference, strict=True):
        read = dict(layer.items())
        assert set(read) == set(expected)
        for role, array in read.items():
            assert array.shape == expected[role].shape, role
            worst = max(worst, float(np.max(np.abs(array - expected[role]))))
    assert worst <= TOLERANCE
    return worst


@pytest.mark.parametrize("name", NAMES)
def test_every_matrix_equals_the_modules_weight_and_the_products_their_heads(models, name):
    model, folder = models(name)
    reference = reference_layers(model)
    weights = load_weights(folder)
    assert weights.family == name.removesuffix("_gated")
    assert [layer.cross is not None for layer in weights.layers] == [False] * 2 + [True] * 3
    assert_read_exactly(weights, reference)
    assert_read_exactly(load_weights(model), reference)
    d_h = 6 if name.startswith("t5") else 8
    worst = 0.0
    for matrix in extract_matrices(weights):
        expected = reference[matrix.layer]
        if matrix.kind in (MatrixKind.QK, MatrixKind.VT):
            h = slice(matrix.head * d_h, (matrix.head + 1) * d_h)
            product = (
                expected["wq"][h].T @ expected["wk"][h]
                if matrix.kind is MatrixKind.QK
                else expected["wv"][h].T @ expected["wo"][:, h].T
            )
            worst = max(worst, float(np.max(np.abs(matrix.dense() - product))))
    assert worst <= TOLERANCE
    kinds = {matrix.kind for matrix in extract_matrices(weights)}
    assert len(extract_matrices(weights)) == 5 * (2 * 4 + 2)  # the cross-attention is not a bound matrix
    assert kinds == set(MatrixKind)


@pytest.mark.parametrize("name", ["t5", "t5_gated", "bart"])
def test_the_feed_forward_from_the_read_matrices_is_the_modules_forward(models, name):
    """Wout act(Win x), or T5 v1.1's Wo (gelu_tanh(Wi_0 x) * Wi_1 x) (biases zeroed): the roles are mapped
    as the forward pass uses them (a swapped gate and up projection differs by O(1))."""
    model, folder = models(name)
    weights = load_weights(folder)
    x = torch.randn(3, 32, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    act = transformers.activations.ACT2FN[{"t5": "relu", "t5_gated": "gelu_new", "bart": "gelu"}[name]]
    blocks = [
        *(getattr(model.encoder, "block", None) or model.encoder.layers),
        *(getattr(model.decoder, "block", None) or model.decoder.layers),
    ]
    for layer, block in zip(weights.layers, blocks, strict=True):
        with torch.no_grad():
            if name.startswith("t5"):
                expected = block.layer[-1].DenseReluDense(x).numpy()
            else:
                expected = block.fc2(block.activation_fn(block.fc1(x))).numpy()
            hidden = act(x @ torch.tensor(layer.w_in.T))
            if layer.w_gate is not None:
                hidden = act(x @ torch.tensor(layer.w_gate.T)) * (x @ torch.tensor(layer.w_in.T))
        ours = hidden.numpy() @ layer.w_out.T
        assert np.max(np.abs(ours - expected)) <= TOLERANCE
        if layer.w_gate is not None:  # the swap the test must catch
            with torch.no_grad():
                swapped = (act(x @ torch.tensor(layer.w_in.T)) * (x @ torch.tensor(layer.w_gate.T))).numpy()
            assert np.max(np.abs(swapped @ layer.w_out.T - expected)) > 1e-3


@pytest.mark.parametrize("name", ["t5_gated", "whisper"])
def test_sharded_and_bfloat16_saves_read_the_modules_weights(models, tmp_path, name):
    """Shards give the float64 weights bit for bit; a bfloat16 save gives the module's bfloat16 values
    upcast exactly."""
    model, _ = models(name)
    model.save_pretrained(tmp_path / "sharded", max_shard_size="20KB")
    assert len(list((tmp_path / "sharded").glob("model-*.safetensors"))) > 1
    assert assert_read_exactly(load_weights(tmp_path / "sharded"), reference_layers(model)) == 0.0
    half = transformers.AutoModel.from_config(_config(name))
    half.load_state_dict(model.state_dict())
    half = half.to(torch.bfloat16)
    half.save_pretrained(tmp_path / "bf16")
    assert assert_read_exactly(load_weights(tmp_path / "bf16"), reference_layers(half)) == 0.0


@pytest.mark.parametrize("name", ["bart", "mbart", "whisper"])
def test_a_bare_file_is_read_as_its_own_family(models, tmp_path, name):
    """Without config.json (and with --num-heads): the tensors outside the stacks tell BART (no final
    encoder norm), mBART and Whisper (convolutions) apart."""
    model, folder = models(name)
    bare = tmp_path / "model.safetensors"
    bare.write_bytes((folder / "model.safetensors").read_bytes())
    weights = load_weights(bare, num_heads=4)
    assert weights.family == name
    assert_read_exactly(weights, reference_layers(model))


def test_a_bare_t5_file_needs_what_only_its_config_says(models, tmp_path, capsys):
    """A gated T5 file's activation, and a plain one's head size d_kv (H d_kv = 24, not N = 32)."""
    for name, needles in (("t5_gated", ("gated (wi_0, wi_1)", "feed_forward_proj")), ("t5", ("d_kv",))):
        _, folder = models(name)
        bare = tmp_path / "model.safetensors"
        bare.write_bytes((folder / "model.safetensors").read_bytes())
        status, _, err = call(capsys, "inspect", bare, "--num-heads", "4")
        assert_error_line(status, err, "inspect", *needles)


def test_a_bart_file_named_mbart_is_refused(models, tmp_path, capsys):
    """mBART is pre-LN with a final encoder norm; a BART file read as mBART would misdescribe its norms."""
    _, folder = models("bart")
    bare = tmp_path / "model.safetensors"
    bare.write_bytes((folder / "model.safetensors").read_bytes())
    status, _, err = call(capsys, "inspect", bare, "--num-heads", "4", "--family", "mbart")
    assert_error_line(status, err, "inspect", "encoder.layer_norm", "--family bart")


@pytest.mark.parametrize(
    ("name", "field", "value", "needle"),
    [
        ("bart", "decoder_ffn_dim", 48, "decoder_ffn_dim=48"),
        ("bart", "encoder_layers", "2", "encoder_layers='2'"),
        ("whisper", "decoder_attention_heads", 2, "decoder_attention_heads=2"),
        ("mbart", "decoder_layers", -1, "decoder_layers=-1"),
        ("t5", "num_decoder_layers", True, "num_decoder_layers=True"),
        ("t5", "num_decoder_layers", 4, "num_decoder_layers=4 but the file has 3 layers under decoder.block"),
        ("bart", "encoder_layers", 3, "encoder_layers=3 but the file has 2 layers under encoder.layers"),
        ("t5", "feed_forward_proj", "gated-gelu-x", "feed_forward_proj='gated-gelu-x'"),
        ("t5", "feed_forward_proj", 7, "feed_forward_proj=7"),
        ("t5", "feed_forward_proj", "gated-silu", "plain (wi)"),
        ("t5", "d_kv", 0, "d_kv=0"),
    ],
)
def test_hostile_config_values_end_in_one_line(models, tmp_path, capsys, name, field, value, needle):
    _, folder = models(name)
    target = tmp_path / name
    target.mkdir()
    (target / "model.safetensors").write_bytes((folder / "model.safetensors").read_bytes())
    config = json.loads((folder / "config.json").read_text())
    (target / "config.json").write_text(json.dumps({**config, field: value}))
    status, _, err = call(capsys, "inspect", target)
    assert_error_line(status, err, "inspect", needle)


@pytest.mark.parametrize("name", ["t5_gated", "whisper"])
def test_inspect_names_what_the_bound_covers(models, capsys, name):
    """Exit 0; the coverage says the cross-attention is outside, and T5's scale and bias, Whisper's
    convolutions."""
    _, folder = models(name)
    status, out, err = call(capsys, "inspect", folder)
    assert status == 0, err
    text = " ".join(out.split())
    assert "encoder-decoder outside" in text and "cross-attention" in text
    assert ("no 1/sqrt(d_h) scale" in text and "GeGLU" in text) if name == "t5_gated" else "Conv1d" in text
    coverage = {record.block: record for record in open_checkpoint(folder).coverage()}
    if name == "t5_gated":
        assert coverage["feed-forward"].value is not None and np.isfinite(coverage["feed-forward"].value)


def _attend(queries, keys, wq, wk, wv, wo, heads, scale, bias=None):
    """sum_h softmax(queries Wq_h^T Wk_h keys^T scale + bias_h) keys Wv_h^T (Wo^T)_h from read matrices."""
    d_h = wq.shape[0] // heads
    out = np.zeros((queries.shape[0], wo.shape[0]))
    for h in range(heads):
        hs = slice(h * d_h, (h + 1) * d_h)
        logits = (queries @ wq[hs].T) @ (keys @ wk[hs].T).T * scale
        if bias is not None:
            logits = logits + bias[h]
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        weights /= weights.sum(axis=1, keepdims=True)
        out += weights @ keys @ (wv[hs].T @ wo[:, hs].T)
    return out


@pytest.mark.parametrize("name", ["t5", "bart", "whisper"])
def test_self_and_cross_attention_from_the_read_matrices_are_the_modules_forward(models, name):
    """Encoder layer 0's self-attention and decoder layer 0's cross-attention (over an encoder output),
    called as transformers' own modules (biases zeroed), equal the heads' sum rebuilt from the read Wq, Wk,
    Wv, Wo (the cross-attention's from ``LayerWeights.cross``): logits scaled by d_h^(-1/2), or by 1 with
    T5's relative bias (the module's compute_bias) added, as the coverage says."""
    model, folder = models(name)
    weights = load_weights(folder)
    generator = torch.Generator().manual_seed(2)
    x = torch.randn(1, 5, 32, generator=generator, dtype=torch.float64)
    memory = torch.randn(1, 7, 32, generator=generator, dtype=torch.float64)
    encoder, cross = weights.layers[0], weights.layers[2].cross
    assert cross is not None
    with torch.no_grad():
        if name == "t5":
            module = model.encoder.block[0].layer[0].SelfAttention
            self_out = module(x)[0][0].numpy()
            bias = module.compute_bias(5, 5)[0].numpy()
            cross_out = (
                model.decoder.block[0].layer[1].EncDecAttention(x, key_value_states=memory)[0][0].numpy()
            )
            scale = 1.0
        else:
            self_out = model.encoder.layers[0].self_attn(hidden_states=x)[0][0].numpy()
            cross_out = (
                model.decoder.layers[0].encoder_attn(hidden_states=x, key_value_states=memory)[0][0].numpy()
            )
            bias, scale = None, 8**-0.5
    x, memory = x[0].numpy(), memory[0].numpy()
    ours = _attend(x, x, encoder.wq, encoder.wk, encoder.wv, encoder.wo, 4, scale, bias)
    assert np.max(np.abs(ours - self_out)) <= TOLERANCE
    ours = _attend(x, memory, cross.wq, cross.wk, cross.wv, cross.wo, 4, scale)
    assert np.max(np.abs(ours - cross_out)) <= TOLERANCE
    swapped = _attend(x, memory, encoder.wq, encoder.wk, encoder.wv, encoder.wo, 4, scale)
    assert np.max(np.abs(swapped - cross_out)) > 1e-3  # the self-attention's matrices would not do


@pytest.mark.parametrize(
    ("name", "cls", "layers"),
    [
        ("t5_gated", "T5EncoderModel", 2),
        ("t5", "T5ForConditionalGeneration", 5),
        ("bart", "BartForSequenceClassification", 5),
        ("whisper", "WhisperForConditionalGeneration", 5),
        ("whisper", "WhisperForAudioClassification", 2),
    ],
)
def test_task_models_and_an_encoder_alone_are_read(name, cls, layers):
    """Read-out heads (lm_head, classification_head, proj_out, projector) are outside the class; a file with
    the encoder's stack alone is that encoder (L = L_enc, no cross-attention)."""
    model = getattr(transformers, cls)(_config(name))
    weights = load_weights(model)
    assert weights.num_layers == layers
    assert sum(layer.cross is not None for layer in weights.layers) == layers - 2
