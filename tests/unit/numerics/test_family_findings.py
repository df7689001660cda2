"""The five misreadings of the first family round, each pinned: an explicit head_dim, detection without a
model_type, GPT-2 cross-attention, coverage from the config's fields, and inspect's gated input norms."""

from __future__ import annotations

import json

import numpy as np
import pytest

from numerics.loading import load_weights, open_checkpoint
from numerics.spectra.matrices import extract_matrices
from tests.helpers.family_models import FAMILY_NAMES, build, run_cli, transformers, with_config
from theory.errors import UnsupportedCheckpoint
from theory.proxy import MatrixKind


def bare_file(tiny, folder):
    """The tiny model's weights alone, with no config.json beside them."""
    folder.mkdir()
    path = folder / "model.safetensors"
    path.write_bytes((tiny.folder / "model.safetensors").read_bytes())
    return path


# 1. an explicit head_dim != N / H
@pytest.mark.parametrize(("name", "head_dim"), [("llama_head_dim", 16), ("mistral_head_dim", 12)])
def test_an_explicit_head_dim_sizes_the_heads_and_the_bound_runs(tiny_models, capsys, name, head_dim):
    weights = load_weights(tiny_models(name).folder)
    assert weights.head_dim == head_dim and weights.layers[0].wq.shape == (4 * head_dim, 32)
    assert weights.layers[0].wo.shape == (32, 4 * head_dim)
    qk = [m for m in extract_matrices(weights) if m.kind is MatrixKind.QK]
    assert {m.left.shape for m in qk} == {(32, head_dim)} and len(qk) == 8
    status, out, err = run_cli(capsys, "inspect", tiny_models(name).folder, "--json")
    assert status == 0, err
    assert json.loads(out)["head_dim"] == head_dim
    from numerics.batch.sweep import SweepSettings, sweep_row

    counted = sum(array.size for layer in weights.layers for _, array in layer.items())
    assert sweep_row(SweepSettings(), str(tiny_models(name).folder))["parameters"] == counted


def test_a_declared_head_dim_the_weights_contradict_is_one_line(tiny_models, tmp_path, capsys):
    tiny = tiny_models("llama_head_dim")
    folder = with_config(tiny, tmp_path / "lying", head_dim=8)
    status, _, err = run_cli(capsys, "bound", folder)
    assert status == 2 and err.count("\n") == 1
    assert "query projection has 64 rows" in err and "head_dim=8" in err


# 2. detection never guesses
def test_qwen3_and_gemma2_without_model_type_are_told_by_their_marker_tensors(tiny_models):
    for name in ("qwen3", "gemma2"):
        model = tiny_models(name).model
        config = {k: v for k, v in model.config.to_dict().items() if k != "model_type"}
        assert open_checkpoint(model.state_dict(), config=config).family.key == name


def test_names_that_several_families_share_are_refused_with_the_choice(tiny_models, tmp_path, capsys):
    path = bare_file(tiny_models("llama"), tmp_path / "bare")
    status, _, err = run_cli(capsys, "bound", path, "--num-heads", "4")
    assert status == 2 and err.count("\n") == 1
    assert "fit the families llama, gemma" in err and "--family NAME" in err
    for family, gate in (("llama", "SwiGLU"), ("gemma", "GeGLU")):
        status, out, err = run_cli(capsys, "bound", path, "--num-heads", "4", "--family", family, "--json")
        assert status == 0, err
        records = {r["block"]: r for r in json.loads(out)["coverage"]}
        assert records["feed-forward"]["statement"].startswith(gate)


def test_a_chosen_family_must_have_its_marker_tensors(tiny_models, tmp_path, capsys):
    path = bare_file(tiny_models("llama"), tmp_path / "bare")
    status, _, err = run_cli(capsys, "bound", path, "--num-heads", "4", "--family", "qwen3")
    assert status == 2 and err.count("\n") == 1 and "lack self_attn.q_norm.weight" in err


def test_a_family_choice_that_contradicts_the_config_is_refused(tiny_models, capsys):
    status, _, err = run_cli(capsys, "bound", tiny_models("llama").folder, "--family", "gemma")
    assert status == 2 and "model_type='llama' (family llama), not --family gemma" in err
    status, _, err = run_cli(capsys, "inspect", tiny_models("llama").folder, "--family", "xlnet")
    assert status == 2 and "--family 'xlnet' is not a family specbound reads" in err


@pytest.mark.parametrize("config_class", ["T5Config", "BartConfig"])
def test_encoder_decoders_are_bounded_over_both_stacks(tmp_path, capsys, config_class):
    """Once refused (model_type t5 and bart were unknown); now read as L = 1 + 1 layers
    (tests/unit/numerics/test_family_encoder_decoder.py checks what is read)."""
    config = getattr(transformers, config_class)(
        vocab_size=40, d_model=16, d_ff=24, num_layers=1, num_heads=2, d_kv=8,
        encoder_layers=1, decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2,
        encoder_ffn_dim=24, decoder_ffn_dim=24,
    )  # fmt: skip
    transformers.AutoModel.from_config(config).save_pretrained(tmp_path)
    status, out, err = run_cli(capsys, "bound", tmp_path)
    assert status == 0, err
    assert "B_ours" in out and "encoder-decoder  outside" in out


# 3. GPT-2 cross-attention is refused, never dropped
def test_gpt2_with_cross_attention_is_refused_in_one_line(tmp_path, capsys):
    config = transformers.GPT2Config(n_embd=16, n_layer=1, n_head=2, vocab_size=40, add_cross_attention=True)
    model = transformers.AutoModel.from_config(config)
    assert any(".crossattention." in name for name in model.state_dict())
    model.save_pretrained(tmp_path)
    status, _, err = run_cli(capsys, "bound", tmp_path)
    assert status == 2 and err.count("\n") == 1 and "cross-attention" in err
    with pytest.raises(UnsupportedCheckpoint, match="cross-attention"):
        load_weights(model.state_dict())  # no config: the tensors alone say it


# 4. coverage from the config's fields
def records_of(tiny_models, name: str, **fields) -> dict:
    """The coverage of ``name``'s tiny model read as a state dict with its config, ``fields`` changed."""
    model = tiny_models(name).model
    config = {**model.config.to_dict(), **fields}
    return {r.block: r for r in open_checkpoint(model.state_dict(), config=config).coverage()}


def test_the_activation_the_config_names_is_the_one_described(tiny_models):
    relu = records_of(tiny_models, "bert", hidden_act="relu")["feed-forward"]
    assert "relu" in relu.statement and "gelu" not in relu.statement and relu.value == 1.0
    tanh_bert = records_of(tiny_models, "bert", hidden_act="gelu_new")["feed-forward"]
    tanh_gpt2 = records_of(tiny_models, "gpt2")["feed-forward"]
    assert tanh_bert == tanh_gpt2 and tanh_bert.status == "assumption"
    assert records_of(tiny_models, "gpt2", activation_function="gelu")["feed-forward"].status == "exact"
    assert records_of(tiny_models, "opt")["feed-forward"].statement == relu.statement


def test_bias_and_norm_fields_are_read(tiny_models):
    assert records_of(tiny_models, "llama")["biases"].status == "exact"
    assert records_of(tiny_models, "llama", attention_bias=True)["biases"].status == "outside"
    assert records_of(tiny_models, "llama", model_type="qwen2")["biases"].status == "outside"
    post = records_of(tiny_models, "opt_post_ln")["normalisation"]
    assert "post-LN" in post.statement
    assert "pre-norm" in records_of(tiny_models, "opt")["normalisation"].statement


def test_one_text_per_case_has_one_status_in_every_family(tiny_models):
    status_of: dict[tuple[str, str], str] = {}
    for name in FAMILY_NAMES:
        for record in open_checkpoint(tiny_models(name).model).coverage():
            key = (record.block, record.statement)
            assert status_of.setdefault(key, record.status) == record.status, key


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_softmax_is_described_with_the_sharp_constant(tiny_models, name):
    text = records_of(tiny_models, name)["masking"].statement
    assert "1-Lipschitz from the max norm to the l1 norm" in text and "2-Lipschitz" not in text


# 5. inspect shows every input matrix of a gated block and the bound's input norm
def test_inspect_shows_gate_and_up_and_the_stacked_input_norm(tiny_models, capsys):
    folder = tiny_models("llama").folder
    status, out, err = run_cli(capsys, "inspect", folder, "--json")
    assert status == 0, err
    weights = load_weights(folder)
    for row, layer in zip(json.loads(out)["layers"], weights.layers, strict=True):
        stacked = np.linalg.norm(np.vstack((layer.w_gate, layer.w_in)), ord=2)
        assert row["m_in"] == pytest.approx(stacked, rel=1e-12)
        assert row["w_gate"] == pytest.approx(np.linalg.norm(layer.w_gate, ord=2), rel=1e-12)
        assert row["m_in"] > max(row["w_gate"], row["w_in"])
    status, out, _ = run_cli(capsys, "inspect", folder)
    header = next(line for line in out.splitlines() if line.lstrip().startswith("layer"))
    assert header.split()[1:9] == ["Wq", "Wk", "Wv", "Wo", "Wgate", "Wup", "M_in=[Wgate;Wup]", "Wdown"]


def test_a_sweep_over_three_checkpoints_of_one_family_works(tmp_path, capsys):
    """Pythia's training series is what a researcher sweeps: three GPT-NeoX checkpoints, one table."""
    for step in (1000, 2000, 3000):
        build("gpt_neox", tmp_path / "pythia" / f"step{step}")
    out = tmp_path / "table.csv"
    status, text, err = run_cli(
        capsys, "sweep", tmp_path / "pythia", "--out", out, "--cache", tmp_path / "cache", "--jobs", "1",
        "--family", "gpt_neox",
    )  # fmt: skip
    assert status == 0, err
    rows = out.read_text().splitlines()
    assert len(rows) == 4 and "3 checkpoints" in text
    steps = [line.split(",")[1] for line in rows[1:]]
    assert steps == ["1000", "2000", "3000"]


def test_the_certified_rank_claim_reads_the_head_size_from_the_factors(tiny_models):
    """Qwen3's d_h = 12 > N / H = 8: every QK_h has rank 12 <= d_h, which N / H would call a violation."""
    from numerics.certify.certified import certify_proxies
    from numerics.certify.report import model_summary
    from numerics.spectra.model import SpectraOptions

    weights = load_weights(tiny_models("qwen3").folder)
    assert weights.head_dim == 12 > weights.hidden_size // weights.num_heads
    summary = model_summary(certify_proxies(weights, SpectraOptions(certify_progress=False)))
    assert summary["attention_rank_at_most_head_dim"] == "yes"


def test_a_fused_projection_without_the_head_counts_is_refused_in_one_line(tiny_models, tmp_path, capsys):
    """Phi-3's qkv_proj is split by H and K: --num-heads gives H only."""
    path = bare_file(tiny_models("phi3"), tmp_path / "bare")
    status, _, err = run_cli(capsys, "bound", path, "--num-heads", "4")
    assert status == 2 and err.count("\n") == 1
    assert str(path) in err and "needs a config.json with num_attention_heads" in err


def test_a_bare_gpt_neox_file_is_split_by_the_heads_given_on_the_command_line(tiny_models, tmp_path, capsys):
    """GPT-NeoX's per-head interleaved query_key_value needs H alone: --num-heads settles it, and the
    split is the folder's (whose config says H) to the last bit."""
    tiny = tiny_models("gpt_neox")
    path = bare_file(tiny, tmp_path / "bare")
    assert run_cli(capsys, "bound", path)[0] == 2  # no H anywhere
    bare, folder = load_weights(path, num_heads=4), load_weights(tiny.folder)
    for ours, theirs in zip(bare.layers, folder.layers, strict=True):
        assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(ours.items(), theirs.items(), strict=True))
