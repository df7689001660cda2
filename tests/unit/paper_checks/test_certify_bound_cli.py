"""``specbound bound --certify`` on a tiny checkpoint: intervals next to every value, interval verdicts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from paper_checks.cli import main
from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

pytest.importorskip("safetensors", reason="writing the tiny checkpoint needs safetensors (models extra)")

FLOAT_ROUNDING = 1e-12
"""Relative slack for the plain pipeline's float64/mpmath values (balls may be narrower than that)."""

INTERVAL_KEYS = (
    "spectral_norm",
    "frobenius_norm",
    "norm_21",
    "alpha",
    "gamma",
    "scale",
    "contribution",
)


def inside(value: float, interval: dict[str, float]) -> bool:
    slack = FLOAT_ROUNDING * abs(value)
    return interval["lo"] - slack <= value <= interval["hi"] + slack and interval["lo"] <= interval["hi"]


@pytest.fixture
def tiny_model(tmp_path):
    return write_folder(
        tmp_path / "tiny", tiny_bert_tensors(layers=2, hidden=8, ffn=16), bert_config(2, 8, 2, 16)
    )


def test_json_has_an_interval_next_to_each_value(tiny_model, capsys):
    assert main(["bound", str(tiny_model), "--json", "--certify"]) == 0
    payload = json.loads(capsys.readouterr().out)
    for row in payload["matrices"]:
        for key in INTERVAL_KEYS:
            assert inside(row[key], row[f"{key}_interval"]), (
                row["kind"],
                key,
                row[key],
                row[f"{key}_interval"],
            )
        assert row["rank_interval"]["lo"] <= row["rank"] <= row["rank_interval"]["hi"]
        assert row["p_opt"] in row["p_opt_candidates"]
        assert row["certificate_path"] in ("float-apriori", "float-gram", "float-bounds", "arb")
    proxies = payload["proxies"]
    assert inside(proxies["ours"], proxies["ours_interval"])
    assert inside(proxies["edelman"], proxies["edelman_interval"])
    ours, edelman = proxies["ours_interval"], proxies["edelman_interval"]
    expected = "yes" if ours["hi"] < edelman["lo"] else "no" if ours["lo"] >= edelman["hi"] else "undecided"
    assert payload["verdicts"]["ours_below_edelman"] == expected
    certification = payload["certification"]
    assert certification["float_p_opt_outside_candidates"] == 0
    assert certification["matrices"] == len(payload["matrices"]) == 12
    paths = certification["certificate_paths"]
    assert sum(paths.values()) == 12
    for path, count in paths.items():
        assert count == sum(row["certificate_path"] == path for row in payload["matrices"])


def test_table_shows_the_certified_intervals_and_verdict(tiny_model, capsys):
    assert main(["bound", str(tiny_model), "--certify"]) == 0
    out = capsys.readouterr().out
    assert "B_ours     in [" in out and "B_Edelman  in [" in out
    assert "B_ours < B_Edelman: " in out and "(decided by the intervals)" in out
    assert all(
        f"by the {path} path" in out for path in ("float-apriori", "float-gram", "float-bounds", "arb")
    )
    assert "inf" not in out and "nan" not in out


def test_without_the_flag_nothing_is_certified(tiny_model, capsys):
    assert main(["bound", str(tiny_model), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert "certification" not in payload and "ours_interval" not in payload["proxies"]


def test_certify_streams_the_checkpoint_and_gives_the_in_memory_balls(tiny_model, monkeypatch):
    from numerics.certify.certified import certify_proxies
    from numerics.loading import load_weights, open_checkpoint
    from numerics.loading.stream import Checkpoint
    from numerics.spectra.model import SpectraOptions

    whole = certify_proxies(load_weights(tiny_model), SpectraOptions(certify_progress=False))
    asked: list[str] = []
    monkeypatch.setattr(Checkpoint, "weights", lambda self: asked.append("whole model") or None)
    streamed = certify_proxies(open_checkpoint(tiny_model), SpectraOptions(certify_progress=False))
    assert asked == []  # never the whole model in memory
    assert (streamed.ours.mid(), streamed.ours.rad()) == (whole.ours.mid(), whole.ours.rad())
    assert (streamed.edelman.mid(), streamed.edelman.rad()) == (whole.edelman.mid(), whole.edelman.rad())
    for a, b in zip(streamed.matrices, whole.matrices, strict=True):
        assert a.spectrum.path == b.spectrum.path and a.spectrum.matrix.label == b.spectrum.matrix.label
        assert a.spectrum.matrix.shape == b.spectrum.matrix.shape
        assert not np.isfinite(a.spectrum.matrix.left).any()  # the streamed layer's values were released


def test_bound_certify_json_says_each_matrix_certificate_path(tiny_model, capsys):
    assert main(["bound", str(tiny_model), "--certify", "--json", "--jobs", "1", "--quiet"]) == 0
    document = json.loads(capsys.readouterr().out)
    paths = [row["certificate_path"] for row in document["matrices"]]
    assert len(paths) == len(document["matrices"]) and set(paths) <= {
        "float-apriori",
        "float-gram",
        "float-bounds",
        "arb",
    }


def test_certify_reads_each_layer_once(tiny_model, capsys, monkeypatch):
    """The spectra and the certificates come from one read of each layer (counted at the reader)."""
    from numerics.loading.stream import Checkpoint

    reads: list[int] = []
    stored, full = Checkpoint.stored_layer, Checkpoint.layer

    def counted(reader):
        def read(self, index):
            reads.append(index)
            return reader(self, index)

        return read

    monkeypatch.setattr(Checkpoint, "stored_layer", counted(stored))
    monkeypatch.setattr(Checkpoint, "layer", counted(full))
    assert main(["bound", str(tiny_model), "--certify", "--jobs", "1"]) == 0
    assert "B_ours     in [" in capsys.readouterr().out
    assert sorted(reads) == [0, 1]


def test_certify_with_workers_gives_the_serial_intervals(tiny_model, capsys):
    """--jobs 2 certifies in worker processes; their balls, sent back, give the JSON of --jobs 1."""
    outputs = []
    for jobs in ("1", "2"):
        assert main(["bound", str(tiny_model), "--json", "--certify", "--jobs", jobs]) == 0
        payload = json.loads(capsys.readouterr().out)
        outputs.append((payload["matrices"], payload["proxies"], payload["verdicts"]))
    assert outputs[0] == outputs[1]
