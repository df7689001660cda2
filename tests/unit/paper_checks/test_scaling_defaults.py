"""``specbound scaling DIR``: a named folder is studied alone unless --real or --grid asks for more (the
full grid trains 16 models; the user asked about their checkpoints)."""

from __future__ import annotations

import json

import pytest

from paper_checks.cli import main
from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

pytest.importorskip("safetensors", reason="writing the tiny checkpoints needs safetensors (models extra)")


def _models(tmp_path):
    for layers in (1, 2):
        write_folder(
            tmp_path / "models" / f"L{layers}", tiny_bert_tensors(layers=layers), bert_config(layers)
        )
    return tmp_path / "models"


def test_a_named_folder_is_studied_alone_by_default(tmp_path, capsys):
    assert main(["scaling", "--quiet", "--json", str(_models(tmp_path))]) == 0
    points = json.loads(capsys.readouterr().out)["points"]
    assert [p["origin"] for p in points] == ["user", "user"]


def test_the_text_output_says_what_was_studied(tmp_path, capsys):
    assert main(["scaling", "--quiet", str(_models(tmp_path))]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "studied: 1 named path(s); embedded checkpoints: no; synthetic grid: none"


def test_the_help_says_what_the_defaults_train(capsys):
    with pytest.raises(SystemExit):
        main(["scaling", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "16 models" in text and "default: none when a DIR is named, else full" in text
