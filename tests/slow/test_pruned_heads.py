"""A pruned BERT (transformers' from_config, tiny) is bounded: head 0's query block and head 1's value
block zeroed in layer 0 give QK_0 = Wq_0^T Wk_0 = 0 and Vt_1 = Wv_1^T Wo_1^T = 0 (rank 0, contribution 0),
and the exact and certified proxies are finite with exit status 0."""

from __future__ import annotations

import contextlib
import io
import json
import math

import pytest

from paper_checks.cli import main

pytestmark = [pytest.mark.slow, pytest.mark.torch]


@pytest.fixture(scope="module")
def pruned(tmp_path_factory):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    torch.manual_seed(0)
    config = transformers.BertConfig(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=48, vocab_size=40
    )
    model = transformers.BertModel(config)
    attention = model.encoder.layer[0].attention.self
    with torch.no_grad():
        attention.query.weight[0:8, :] = 0.0  # head 0 (d_h = 8)
        attention.value.weight[8:16, :] = 0.0  # head 1
    folder = tmp_path_factory.mktemp("pruned")
    model.save_pretrained(folder)
    return folder


def _bound(*argv: str) -> tuple[int, dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["bound", *argv, "--json"])
    return status, json.loads(out.getvalue())


def test_a_pruned_bert_is_bounded_with_its_zero_heads_at_rank_0(pruned):
    status, report = _bound(str(pruned))
    assert status == 0 and math.isfinite(report["proxies"]["ours"]) and report["proxies"]["ours"] > 0
    rows = {(r["layer"], r["head"], r["kind"]): r for r in report["matrices"]}
    for key in ((0, 0, "QK"), (0, 1, "Vt")):
        assert rows[key]["rank"] == 0 and rows[key]["contribution"] == 0.0
    assert rows[(0, 1, "QK")]["rank"] == 8 and rows[(0, 0, "Vt")]["rank"] == 8
    assert rows[(1, 0, "QK")]["rank"] == 8


def test_the_certified_proxies_of_a_pruned_bert_enclose_the_exact_ones(pruned):
    """arb's root of an exact 0 is nan: a zero matrix's S_p enclosure must stay [0, 0]."""
    _, exact = _bound(str(pruned))
    status, report = _bound(str(pruned), "--certify")
    ours = report["proxies"]["ours_interval"]
    assert status == 0 and ours["lo"] <= exact["proxies"]["ours"] <= ours["hi"]
    assert ours["hi"] - ours["lo"] < 1e-9 * ours["hi"]
