"""Whole models are held by the run that uses them, never by the process: the run context memoises a
checkpoint's weights and its content hash; once the context is gone, nothing keeps the model alive."""

from __future__ import annotations

import gc
import weakref

from paper_checks import run_metadata
from paper_checks.context import RunContext
from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder


def test_the_run_context_owns_the_weights_and_their_hash_and_nothing_outlives_it(tmp_path, monkeypatch):
    folder = str(write_folder(tmp_path / "m", tiny_bert_tensors(), bert_config()))
    calls = []
    real = run_metadata.weights_sha256
    monkeypatch.setattr(run_metadata, "weights_sha256", lambda weights: calls.append(1) or real(weights))
    context = RunContext()
    weights = context.weights(folder)
    assert context.weights(folder) is weights  # loaded once per run
    first = context.input_hashes()
    assert context.input_hashes() == first == {folder: real(weights)} and len(calls) == 1  # hashed once
    gone = weakref.ref(weights)
    del weights, context
    monkeypatch.undo()
    gc.collect()
    assert gone() is None  # neither the loader nor run_metadata kept the model


def test_a_new_run_reads_the_checkpoint_again(tmp_path):
    folder = str(write_folder(tmp_path / "m", tiny_bert_tensors(seed=0), bert_config()))
    first = RunContext().weights(folder)
    write_folder(tmp_path / "m", tiny_bert_tensors(seed=1), None)
    second = RunContext().weights(folder)
    assert run_metadata.weights_sha256(first) != run_metadata.weights_sha256(second)
