"""Mixtral and Qwen2-MoE: every expert read, the mixture's feed-forward rebuilt from the extracted matrices,
the mixture bound of theory.mixture in the composition, detection, refusals, certify, inspect and sweep.

The tiny models (``family_models``: 2 layers, 4 experts, top-2, N = 32; Qwen2-MoE's layer 1 dense) are
built from configs, never downloaded. The feed-forward check takes the router's top-k experts and gate
weights from transformers (its softmax runs in float32) and rebuilds sum_e g_e E_e(x) (+ the shared
expert's sigmoid-gated term) from the experts read from the saved folder, in float64: 1e-13 relative.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from numerics.bounds.proxies import proxies
from numerics.formulas.evaluate import evaluate
from numerics.loading import load_weights
from numerics.loading.weights import SHARED_EXPERT
from numerics.spectra.matrices import extract_matrices
from tests.helpers.family_models import build, run_cli, with_config
from tests.helpers.family_rebuild import block_output, capture_mixture, rebuilt_mixture, relative
from theory.errors import CheckpointError, InvalidArgument
from theory.kinds import MatrixKind
from theory.mixture import MIXTURE_FEED_FORWARD_NORM, MIXTURE_LIPSCHITZ, convex_combination_bound

TOLERANCE = 1e-13
"""Relative, as the attention extraction test: float64 passes of 24-40-wide blocks."""
L_PHI = 1.13


@pytest.mark.parametrize(("name", "layers"), [("mixtral", (0, 1)), ("qwen2_moe", (0,))])
def test_the_experts_read_rebuild_the_mixture_feed_forward(tiny_models, name, layers):
    tiny = tiny_models(name)
    weights = load_weights(tiny.folder)
    for index in layers:
        layer = weights.layers[index]
        assert len(layer.experts) == 4
        x, out, (logits, gates, chosen) = capture_mixture(tiny, index, seed=3 + index)
        assert relative(x @ layer.router.T, logits) < TOLERANCE  # the router read is the model's
        assert relative(rebuilt_mixture(layer, x, gates, chosen), out) < TOLERANCE, (name, index)
        # our own float64 routing picks the same experts; weights agree to transformers' float32 softmax
        probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        top = np.argsort(-probabilities, axis=1)[:, :2]
        assert np.array_equal(np.sort(top, axis=1), np.sort(chosen, axis=1))


def test_a_swapped_expert_is_caught(tiny_models):
    """The check has teeth: expert 0 read as expert 1 breaks the rebuilt output."""
    tiny = tiny_models("mixtral")
    layer = load_weights(tiny.folder).layers[0]
    x, out, (_, gates, chosen) = capture_mixture(tiny, 0, seed=3)
    swapped = np.where(chosen == 0, 1, np.where(chosen == 1, 0, chosen))
    assert relative(rebuilt_mixture(layer, x, gates, swapped), out) > 1e-3


def test_a_dense_qwen2_moe_layer_is_read_as_dense(tiny_models):
    tiny = tiny_models("qwen2_moe")
    weights = load_weights(tiny.folder)
    dense = weights.layers[1]
    assert not dense.experts and dense.router is None and dense.w_in.shape == (40, 32)
    mlp = tiny.model.layers[1].mlp
    assert np.array_equal(dense.w_gate, mlp.gate_proj.weight.detach().numpy())
    assert [m.label for m in extract_matrices(weights) if m.layer == 1 and m.head < 0] == [
        "L1.M_in",
        "L1.M_out",
    ]
    assert weights.layers[0].shared_expert.w_in.shape == (28, 32)


@pytest.mark.parametrize("name", ["mixtral", "qwen2_moe"])
def test_in_memory_stacked_experts_and_a_sharded_save_equal_the_saved_folder(tiny_models, tmp_path, name):
    """transformers 5 stacks the experts in memory (mlp.experts.gate_up_proj) and saves them one tensor
    per projection; both layouts, and a sharded save, give the same arrays bit for bit."""
    tiny = tiny_models(name)
    assert any(k.endswith("experts.gate_up_proj") for k in tiny.model.state_dict())
    saved = load_weights(tiny.folder)
    sharded = build(name, tmp_path / "sharded", max_shard_size="20KB").folder
    assert len(list(sharded.glob("model-*.safetensors"))) > 1
    for other in (load_weights(tiny.model), load_weights(sharded)):
        assert other.family == saved.family == name
        for la, lb in zip(other.layers, saved.layers, strict=True):
            pairs = list(zip(la.items(), lb.items(), strict=True))
            assert all(na == nb and np.array_equal(a, b) for (na, a), (nb, b) in pairs)


def norm(matrix: np.ndarray) -> float:
    return float(np.linalg.norm(matrix, 2))


def reference_factors(layer, heads: int, kv_heads: int) -> tuple[float, float, dict[int, float]]:
    """(A_l, P_l, C_V per head) from numpy: A = sum_h C_V (1 + 4 C_QK), P = the mixture's product."""
    dh, group = layer.wq.shape[0] // heads, heads // kv_heads
    c_v = {}
    head_sum = 0.0
    for h in range(heads):
        g = h // group
        qk = layer.wq[h * dh : (h + 1) * dh].T @ layer.wk[g * dh : (g + 1) * dh]
        c_v[h] = norm(layer.wv[g * dh : (g + 1) * dh].T @ layer.wo[:, h * dh : (h + 1) * dh].T)
        head_sum += c_v[h] * (1 + 4 * norm(qk))

    def product(block) -> float:
        return norm(np.vstack((block.w_gate, block.w_in))) * norm(block.w_out)

    if not layer.experts:
        return head_sum, product(layer), c_v
    shared = product(layer.shared_expert) if layer.shared_expert is not None else 0.0
    mixture = evaluate(MIXTURE_FEED_FORWARD_NORM, P_experts=max(map(product, layer.experts)), P_shared=shared)
    return head_sum, float(mixture), c_v


@pytest.mark.parametrize("name", ["mixtral", "qwen2_moe"])
def test_the_composition_uses_the_mixture_bound_and_covers_every_expert(tiny_models, name):
    weights = load_weights(tiny_models(name).folder)
    report = proxies(weights)
    factors = [reference_factors(layer, 4, 2) for layer in weights.layers]
    # alpha_0 = lambda_1 = L_phi A_1 P_1 (Mixtral's layer 1 is a mixture; Qwen2-MoE's is dense)
    assert float(report.alphas[0]) == pytest.approx(L_PHI * factors[1][0] * factors[1][1], rel=1e-12)
    experts = {"mixtral": 4, "qwen2_moe": 5}[name]
    assert sum(row.matrix.layer == 0 and row.matrix.head < 0 for row in report.matrices) == 2 * experts
    for row in report.matrices:
        matrix, layer = row.matrix, weights.layers[row.matrix.layer]
        _, p, c_v = factors[matrix.layer]
        if matrix.kind is MatrixKind.QK:  # gamma = 2 C_V C_in C_out, the mixture's product for C_in C_out
            assert float(row.gamma) == pytest.approx(2 * c_v[matrix.head] * p, rel=1e-12)
        elif matrix.kind is MatrixKind.M_IN and matrix.expert is not None:  # gamma = the expert's own C_out
            own = layer.shared_expert if matrix.expert == SHARED_EXPERT else layer.experts[matrix.expert]
            assert float(row.gamma) == pytest.approx(norm(own.w_out), rel=1e-12)
    assert float(report.leading) == pytest.approx(sum(float(r.contribution) for r in report.matrices))


def test_a_dense_model_keeps_its_composition(tiny_models):
    """The dense path is untouched: lambda_1 of LLaMA is L_phi A_1 C2(M_in) C2(M_out)."""
    weights = load_weights(tiny_models("llama").folder)
    a, p, _ = reference_factors(weights.layers[1], 4, 2)
    assert float(proxies(weights).alphas[0]) == pytest.approx(L_PHI * a * p, rel=1e-12)


def test_bound_json_names_each_expert_and_the_records_say_how_the_mixture_is_treated(
    tiny_models, capsys, tmp_path
):
    status, out, err = run_cli(
        capsys, "bound", tiny_models("qwen2_moe").folder, "--json", "--csv", tmp_path / "rows.csv"
    )
    assert status == 0, err
    report = json.loads(out)
    header, first = (tmp_path / "rows.csv").read_text().splitlines()[:2]
    assert header.startswith("layer,head,expert,kind,") and first.startswith("0,0,,QK,")
    experts = [row.get("expert") for row in report["matrices"] if row["layer"] == 0 and row["head"] < 0]
    assert experts == [0, 0, 1, 1, 2, 2, 3, 3, SHARED_EXPERT, SHARED_EXPERT]
    assert all("expert" not in row for row in report["matrices"] if row["layer"] == 1)
    records = {r["block"]: r for r in report["coverage"]}
    assert records["router"]["status"] == "outside"
    mixture = records["mixture of experts"]
    assert mixture["status"] == "assumption" and "not renormalised (sum <= 1)" in mixture["statement"]
    assert "shared expert" in mixture["statement"] and mixture["provenance"].startswith("reconstructed")
    assert (
        "mixtures in layers [0] of 2 (decoder_sparse_step, mlp_only_layers), the rest dense"
        in (mixture["statement"])
    )


def test_inspect_shows_every_input_matrix_of_each_expert(tiny_models, capsys):
    tiny = tiny_models("mixtral")
    status, out, err = run_cli(capsys, "inspect", tiny.folder, "--json")
    assert status == 0, err
    row = json.loads(out)["layers"][0]
    layer = load_weights(tiny.folder).layers[0]
    assert [e["expert"] for e in row["experts"]] == [0, 1, 2, 3] and "w_in" not in row
    for entry, block in zip(row["experts"], layer.experts, strict=True):
        assert entry["w_gate"] == pytest.approx(norm(block.w_gate), rel=1e-12)
        assert entry["m_in"] == pytest.approx(norm(np.vstack((block.w_gate, block.w_in))), rel=1e-12)
    assert row["router"] == pytest.approx(norm(layer.router), rel=1e-12)
    status, text, _ = run_cli(capsys, "inspect", tiny_models("qwen2_moe").folder)
    assert status == 0 and "0 E3" in text and "0 Eshared" in text and "router sigma_1" in text


def test_the_parquet_rows_of_a_mixture_keep_the_expert_column(tiny_models, tmp_path, capsys):
    """Regression: a shared expert labelled "shared" among integer indices broke pyarrow (a traceback)."""
    pd = pytest.importorskip("pandas", reason="--parquet needs pandas")
    pytest.importorskip("pyarrow", reason="--parquet needs pyarrow")
    path = tmp_path / "rows.parquet"
    status, _, err = run_cli(capsys, "bound", tiny_models("qwen2_moe").folder, "--parquet", path)
    assert status == 0, err
    experts = pd.read_parquet(path)["expert"]
    assert experts.isna().sum() == 2 * 8 + 2 and set(experts.dropna()) == {0, 1, 2, 3, SHARED_EXPERT}


def test_a_sweep_over_three_mixtral_checkpoints_works(tmp_path, capsys):
    for step in (100, 200, 300):
        build("mixtral", tmp_path / "series" / f"step{step}")
    out = tmp_path / "table.csv"
    status, text, err = run_cli(
        capsys, "sweep", tmp_path / "series", "--out", out, "--cache", tmp_path / "cache", "--jobs", "1"
    )
    assert status == 0, err
    rows = out.read_text().splitlines()
    assert len(rows) == 4 and "3 checkpoints" in text
    assert [line.split(",")[1] for line in rows[1:]] == ["100", "200", "300"]


def without_type(tiny) -> dict:
    return {k: v for k, v in tiny.model.config.to_dict().items() if k != "model_type"}


@pytest.mark.parametrize("name", ["mixtral", "qwen2_moe"])
def test_without_a_model_type_a_tensor_only_the_family_has_decides(tiny_models, tmp_path, name):
    """Saved tensors without model_type: Mixtral's block_sparse_moe router, Qwen2-MoE's shared-expert
    gate (a LLaMA fit through Qwen2-MoE's dense layer 1 does not win)."""
    from safetensors.numpy import load_file

    tiny = tiny_models(name)
    state = load_file(tiny.folder / "model.safetensors")
    assert load_weights(state, config=without_type(tiny)).family == name


def test_stacked_experts_with_a_shared_expert_are_qwen2_moe_the_one_family_reading_them_all(tiny_models):
    """Mixtral's names fit the stacked experts too, but Mixtral reads neither the shared expert nor the
    dense layer 1."""
    tiny = tiny_models("qwen2_moe")
    assert load_weights(tiny.model.state_dict(), config=without_type(tiny)).family == "qwen2_moe"
    with pytest.raises(CheckpointError, match=r"Mixtral layer layers\.1 has no experts"):
        load_weights(tiny.model.state_dict(), config=without_type(tiny), family="mixtral")
    chosen = load_weights(tiny.model.state_dict(), config=without_type(tiny), family="qwen2_moe")
    assert chosen.family == "qwen2_moe" and len(chosen.layers[0].experts) == 4


def test_a_mixture_read_as_another_family_is_refused_in_one_line(tiny_models, capsys):
    status, _, err = run_cli(capsys, "bound", tiny_models("mixtral").folder, "--family", "llama")
    assert status == 2 and err.count("\n") == 1 and "mixtral" in err


def test_layers_that_contradict_the_config_are_refused_in_one_line(tiny_models, tmp_path, capsys):
    """mlp_only_layers says layer 0 is dense, but layer 0 has experts: never read one way silently."""
    tiny = tiny_models("qwen2_moe")
    folder = with_config(tiny, tmp_path / "contradiction", mlp_only_layers=[0, 1])
    status, _, err = run_cli(capsys, "bound", folder)
    assert status == 2 and err.count("\n") == 1
    assert "mixture-of-experts layers [0] differ from those its config makes sparse []" in err


def test_a_config_with_another_expert_count_is_refused_in_one_line(tiny_models, tmp_path, capsys):
    folder = with_config(tiny_models("mixtral"), tmp_path / "eight", num_local_experts=8)
    status, _, err = run_cli(capsys, "bound", folder)
    assert status == 2 and err.count("\n") == 1
    assert "layer 0 has 4 experts but its config.json says num_local_experts=8" in err


def damaged(tiny, folder, suffix: str, change) -> None:
    """``folder`` with the tiny model's tensors, the one named ``...suffix`` changed (``change`` returns
    its new value, or None to drop it), and its config.json."""
    from safetensors.numpy import load_file, save_file

    folder.mkdir()
    state = load_file(tiny.folder / "model.safetensors")
    (name,) = (k for k in state if k.endswith(suffix))
    value = change(state.pop(name))
    save_file(state if value is None else {**state, name: value}, folder / "model.safetensors")
    (folder / "config.json").write_text((tiny.folder / "config.json").read_text())


@pytest.mark.parametrize(
    ("suffix", "change", "named"),
    [
        ("layers.1.block_sparse_moe.experts.2.w3.weight", lambda a: None, "experts.2.w3.weight"),
        ("layers.1.block_sparse_moe.experts.3.w2.weight", lambda a: a * np.nan, "layer 1 expert.3.w_out"),
        ("layers.0.block_sparse_moe.gate.weight", lambda a: a * np.inf, "layer 0 router"),
    ],
)
def test_a_missing_or_non_finite_expert_or_router_is_named_in_one_line(
    tiny_models, tmp_path, capsys, suffix, change, named
):
    folder = tmp_path / "damaged"
    damaged(tiny_models("mixtral"), folder, suffix, change)
    status, _, err = run_cli(capsys, "bound", folder)
    assert status == 2 and err.count("\n") == 1 and named in err, err


def test_the_assembled_bound_refuses_a_mixture(tiny_models):
    from numerics.bounds.assembled import assembled_bound

    with pytest.raises(InvalidArgument, match="mixture-of-experts model has only the proxies"):
        assembled_bound(load_weights(tiny_models("mixtral").folder), n=1000, delta=0.05, margin=0.5, T=8)


def test_the_convex_combination_step_is_derived_and_holds_on_sampled_mixtures():
    """theory.mixture's step, and Lip(sum_e g_e E_e) <= max_e Lip(E_e) checked on sampled pairs (fixed
    gates summing to <= 1, each expert's Lipschitz constant on the unit ball from theory.gated)."""
    from numerics.bounds.reach import swiglu_lipschitz
    from numerics.loading.weights import FeedForward

    assert convex_combination_bound(3)[0]
    rng = np.random.default_rng(7)
    experts = [
        FeedForward(
            w_in=rng.standard_normal((6, 4)),
            w_out=rng.standard_normal((4, 6)),
            w_gate=rng.standard_normal((6, 4)),
        )
        for _ in range(3)
    ]
    bound = float(
        evaluate(MIXTURE_LIPSCHITZ, Lip_max=max(swiglu_lipschitz(e) for e in experts), Lip_shared=0)
    )
    worst = 0.0
    for _ in range(300):
        gates = rng.dirichlet(np.ones(3)) * rng.uniform(0.5, 1.0)
        x, y = (v / max(1.0, np.linalg.norm(v)) for v in rng.standard_normal((2, 1, 4)))
        fx, fy = (sum(g * block_output(e, z) for g, e in zip(gates, experts, strict=True)) for z in (x, y))
        worst = max(worst, float(np.linalg.norm(fx - fy) / np.linalg.norm(x - y)))
    assert 0 < worst <= bound
