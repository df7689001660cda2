"""Every family through the CLI and the library: bound/inspect JSON with coverage, in-memory models,
state dicts, sharded checkpoints, and the one-line refusal of everything else."""

from __future__ import annotations

import json

import numpy as np
import pytest

from numerics.bounds.proxies import proxies
from numerics.loading import load_weights, open_checkpoint
from numerics.spectra.model import SpectraOptions
from paper_checks.cli import main
from tests.helpers.family_models import FAMILY_NAMES, FEED_FORWARD_BLOCKS, build, torch
from tests.helpers.paths import ROOT
from theory.errors import UnsupportedCheckpoint

EXPECTED_STATUS = {
    "bert": {"attention": "exact", "normalisation": "outside", "masking": "exact"},
    "gpt2": {"feed-forward": "assumption", "normalisation": "outside", "masking": "exact"},
    "llama": {"positions": "assumption", "feed-forward": "outside", "normalisation": "outside"},
}


def run(capsys, *argv):
    status = main([*map(str, argv)])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def same_weights(a, b) -> bool:
    return all(
        np.array_equal(x, y)
        for la, lb in zip(a.layers, b.layers, strict=True)
        for (_, x), (_, y) in zip(la.items(), lb.items(), strict=True)
    )


@pytest.mark.parametrize("name", FAMILY_NAMES)
def test_bound_and_inspect_run_and_report_coverage(tiny_models, capsys, name):
    folder = tiny_models(name).folder
    bound = run(capsys, "bound", folder, "--json")
    inspect = run(capsys, "inspect", folder, "--json")
    assert (bound["L"], bound["N"], bound["heads"]) == (2, 32, 4)
    blocks_per_layer = FEED_FORWARD_BLOCKS.get(name, (1, 1))
    assert len(bound["matrices"]) == sum(2 * 4 + 2 * blocks for blocks in blocks_per_layer)
    # bound's figures reuse the spectra's SVDs (of triangular factors), inspect takes its own: the same
    # records, the values equal to rounding (two backward-stable SVDs of one matrix)
    values = [
        (record.pop("value"), other.pop("value"))
        for record, other in zip(*(r["coverage"] for r in (bound, inspect)), strict=True)
    ]
    assert bound["coverage"] == inspect["coverage"]
    assert all(a == b or a == pytest.approx(b, rel=1e-12) for a, b in values)
    blocks = {record["block"]: record["status"] for record in bound["coverage"]}
    assert {"attention", "feed-forward", "masking", "normalisation", "positions", "biases"} <= set(blocks)
    for block, status in EXPECTED_STATUS.get(name, {}).items():
        assert blocks[block] == status
    assert np.isfinite(bound["proxies"]["ours"]) and bound["proxies"]["ours"] > 0


def test_llama_coverage_carries_the_swiglu_constant_and_the_rotary_bound(tiny_models):
    weights = load_weights(tiny_models("llama").folder)
    records = {r.block: r for r in open_checkpoint(tiny_models("llama").folder).coverage()}
    from numerics.bounds.reach import horn_singular_values, swiglu_lipschitz

    assert records["feed-forward"].value == pytest.approx(
        max(float(swiglu_lipschitz(la)) for la in weights.layers)
    )
    dh, group = weights.head_dim, 2
    horn = max(
        horn_singular_values(
            la.wq[h * dh : (h + 1) * dh].T, la.wk[(h // group) * dh : (h // group + 1) * dh]
        )[0]
        for la in weights.layers
        for h in range(4)
    )
    assert records["positions"].value == pytest.approx(horn)


@pytest.mark.parametrize("name", ["vit", "llama", "gpt2"])
def test_an_in_memory_module_and_its_state_dict_give_the_saved_weights(tiny_models, name):
    tiny = tiny_models(name)
    saved = load_weights(tiny.folder)
    assert same_weights(load_weights(tiny.model), saved)
    from_state = load_weights(tiny.model.state_dict(), config=tiny.model.config.to_dict())
    assert same_weights(from_state, saved) and from_state.family == saved.family


def test_proxies_of_a_module_equal_proxies_of_its_folder(tiny_models):
    tiny = tiny_models("distilbert")
    assert (
        proxies(tiny.model, SpectraOptions(m=3)).ours
        == proxies(tiny.folder, SpectraOptions(m=3)).ours
        == proxies(load_weights(tiny.folder), SpectraOptions(m=3)).ours
    )


def test_a_sharded_checkpoint_gives_the_numbers_of_the_unsharded_one(tiny_models, tmp_path, capsys):
    whole = tiny_models("llama").folder
    sharded = build("llama", tmp_path / "sharded", max_shard_size="20KB").folder
    assert (sharded / "model.safetensors.index.json").is_file()
    assert len(list(sharded.glob("model-*.safetensors"))) > 1
    # --jobs 1: the default choice records the load average, which differs between two runs on a busy machine
    a, b = (run(capsys, "bound", folder, "--json", "--jobs", "1") for folder in (whole, sharded))
    runs = [payload.pop("run") for payload in (a, b)]  # date and paths differ; the weights' hash must not
    assert list(runs[0]["inputs"].values()) == list(runs[1]["inputs"].values())
    for payload in (a, b):
        del payload["model"], payload["source"]
    assert a == b


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (42, r"cannot read a int: give an alias, a path"),
        (
            {"blocks.0.w": np.ones((2, 2))},
            r"state dict is not a supported transformer: none of its 1 tensors",
        ),
    ],
)
def test_everything_else_is_refused_in_one_line(source, message):
    with pytest.raises(UnsupportedCheckpoint, match=message) as error:
        load_weights(source)
    assert "\n" not in str(error.value)


def test_a_module_of_another_architecture_is_refused():
    with pytest.raises(UnsupportedCheckpoint, match=r"in-memory Sequential is not a supported transformer"):
        load_weights(torch.nn.Sequential(torch.nn.Linear(2, 2)))


def test_readme_in_memory_snippet_runs_and_prints_the_coverage(capsys):

    readme = (ROOT / "docs" / "usage.md").read_text()
    import re

    snippet = next(
        b for b in re.findall(r"```python\n(.*?)```", readme, flags=re.S) if "open_checkpoint(model)" in b
    )
    torch.manual_seed(0)
    exec(compile(snippet, "README.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines][:3] == [
        ["attention", "assumption"],
        ["positions", "assumption"],
        ["feed-forward", "outside"],
    ]


def test_streamed_spectra_equal_the_in_memory_ones_and_release_the_values(tiny_models):
    from numerics.spectra.model import matrix_spectra, streamed_spectra
    from numerics.spectra.spectrum import spectrum
    from theory.errors import InvalidArgument

    folder = tiny_models("llama").folder
    streamed = streamed_spectra(open_checkpoint(folder))
    eager = matrix_spectra(load_weights(folder))
    assert [m.label for m, _ in streamed] == [m.label for m, _ in eager]
    for (ms, a), (me, b) in zip(streamed, eager, strict=True):
        assert ms.shape == me.shape
        assert np.array_equal(a.singular_values, b.singular_values) and a.norm_11 == b.norm_11
    with pytest.raises(InvalidArgument, match="NaN"):
        spectrum(streamed[0][0])


def test_a_sharded_pytorch_bin_checkpoint_gives_the_saved_weights(tiny_models, tmp_path):
    tiny = tiny_models("gpt2")
    state = tiny.model.state_dict()
    names = sorted(state)
    halves = {"pytorch_model-00001-of-00002.bin": names[::2], "pytorch_model-00002-of-00002.bin": names[1::2]}
    for shard, keys in halves.items():
        torch.save({key: state[key].clone() for key in keys}, tmp_path / shard)
    weight_map = {key: shard for shard, keys in halves.items() for key in keys}
    (tmp_path / "pytorch_model.bin.index.json").write_text(json.dumps({"weight_map": weight_map}))
    (tmp_path / "config.json").write_text((tiny.folder / "config.json").read_text())
    assert same_weights(load_weights(tmp_path), load_weights(tiny.folder))


def test_weights_read_from_a_module_are_a_copy_not_a_view_of_its_parameters(tiny_models):
    tiny = tiny_models("bert")
    weights = load_weights(tiny.model)
    before = weights.layers[0].wq.copy()
    parameter = tiny.model.encoder.layer[0].attention.self.query.weight
    saved = parameter.detach().clone()
    with torch.no_grad():
        parameter.add_(1.0)
    try:
        assert np.array_equal(weights.layers[0].wq, before)
    finally:
        with torch.no_grad():
            parameter.copy_(saved)
