"""The Gram fast path: taken only where its bound decides every S_p and the rank, and then within it."""

from __future__ import annotations

import json

import numpy as np
import pytest

import numerics.spectra.gram as gram
from numerics.spectra.blas import single_threaded_blas
from numerics.spectra.gram import GRAM_RTOL, UNIT_ROUNDOFF, gram_values
from numerics.spectra.spectrum import RANK_TOLERANCE, spectrum


@pytest.fixture(autouse=True)
def _one_blas_thread():
    with single_threaded_blas():  # as every command runs: OpenBLAS threads spin on a busy machine
        yield


def planted(values: np.ndarray, rows: int, cols: int, seed: int = 0) -> np.ndarray:
    """A rows x cols matrix with singular values ``values`` (random orthonormal factors)."""
    rng = np.random.default_rng(seed)
    left, _ = np.linalg.qr(rng.standard_normal((rows, len(values))))
    right, _ = np.linalg.qr(rng.standard_normal((cols, len(values))))
    return (left * values) @ right.T


def _values(matrix: np.ndarray):
    return gram_values(matrix, RANK_TOLERANCE, min(matrix.shape))


@pytest.mark.parametrize("shape", [(96, 256), (256, 96)])
def test_well_conditioned_matrix_takes_the_gram_path_and_agrees_with_the_svd_within_the_bound(shape):
    matrix = planted(np.linspace(3.0, 1.0, 96), *shape)
    found = _values(matrix)
    assert found is not None
    svd = np.linalg.svd(matrix, compute_uv=False)
    slack = 96 * UNIT_ROUNDOFF * svd[0]  # the SVD's own backward error
    assert np.all(found.lower - slack <= svd) and np.all(svd <= found.upper + slack)
    assert np.all(np.abs(found.singular_values - svd) <= found.upper - found.lower + slack)
    assert np.max(found.upper / found.lower) ** 2 - 1 <= GRAM_RTOL
    assert spectrum(matrix, fast_svd=True).svd_path == "gram"
    assert spectrum(matrix).svd_path == "svd"


@pytest.mark.parametrize(
    "values",
    [
        np.concatenate([np.linspace(3.0, 1.0, 90), np.zeros(6)]),  # rank-deficient
        np.geomspace(1.0, 1e-7, 96),  # ill-conditioned: small sigma_i^2 below the Gram error
        np.geomspace(1.0, 1e-3, 96),  # sigma decided but S_p only to ~1e-6 relative, above GRAM_RTOL
    ],
    ids=["rank-deficient", "ill-conditioned", "too-imprecise"],
)
def test_matrices_whose_small_values_the_bound_cannot_decide_fall_back_to_the_svd(values):
    matrix = planted(values, 96, 256)
    assert _values(matrix) is None
    assert spectrum(matrix, fast_svd=True).svd_path == "svd"


def test_without_its_error_bound_the_gram_path_would_report_wrong_small_values(monkeypatch):
    """The bound is what protects: told the Gram error is negligible, the path takes a matrix whose
    smallest singular values it gets wrong by far more than the claimed intervals."""
    matrix = planted(np.geomspace(1.0, 1e-7, 96), 96, 256)
    monkeypatch.setattr(gram, "gram_eigenvalue_bound", lambda dense, g: 1e-300)
    found = _values(matrix)
    assert found is not None
    svd = np.linalg.svd(matrix, compute_uv=False)
    outside = (svd < found.lower) | (svd > found.upper)
    assert outside.any()
    assert abs(found.singular_values[-1] / svd[-1] - 1) > 1000 * GRAM_RTOL


def test_shapes_whose_gram_error_exceeds_the_tolerance_skip_the_gram_matrix_altogether(monkeypatch):
    from numerics.spectra.gram import gram_can_decide

    assert gram_can_decide(768, 3072) and not gram_can_decide(4096, 22016)
    monkeypatch.setattr(gram, "GRAM_RTOL", 1e-14)  # now 2 gamma_k n > rtol for a 96 x 256 matrix
    monkeypatch.setattr(np.linalg, "eigvalsh", None)  # forming or solving the Gram matrix would fail
    assert _values(planted(np.linspace(3.0, 1.0, 96), 96, 256)) is None


def test_small_matrices_keep_the_svd():
    assert _values(planted(np.linspace(2.0, 1.0, 8), 8, 32)) is None


def test_bound_fast_svd_reports_the_path_of_every_matrix(tmp_path, capsys):
    pytest.importorskip("safetensors", reason="writing the checkpoint needs safetensors (models extra)")
    from paper_checks.cli import main
    from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

    tensors = tiny_bert_tensors(layers=1, hidden=64, ffn=256)
    folder = write_folder(tmp_path / "m", tensors, bert_config(1, 64, 2, 256))
    assert main(["bound", str(folder), "--json", "--jobs", "1", "--fast-svd"]) == 0
    fast = json.loads(capsys.readouterr().out)
    assert main(["bound", str(folder), "--json", "--jobs", "1"]) == 0
    exact = json.loads(capsys.readouterr().out)
    paths = {(row["kind"], row["svd_path"]) for row in fast["matrices"]}
    assert paths == {("QK", "svd"), ("Vt", "svd"), ("M_in", "gram"), ("M_out", "gram")}
    assert {row["svd_path"] for row in exact["matrices"]} == {"svd"}
    assert "gram-where-decided" in fast["signature"] and "gram" not in exact["signature"]
    assert fast["proxies"]["ours"] == pytest.approx(exact["proxies"]["ours"], rel=GRAM_RTOL)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["minilm-l6", "minilm-l3"])
def test_minilm_gram_values_stay_within_the_guaranteed_precision_of_the_svd(model):
    from numerics.bounds.proxies import proxies
    from numerics.loading import open_checkpoint
    from numerics.spectra.model import SpectraOptions

    checkpoint = open_checkpoint(model)
    fast, exact = proxies(checkpoint, SpectraOptions(fast_svd=True)), proxies(checkpoint)
    taken = [(f.spectrum, e.spectrum) for f, e in zip(fast.matrices, exact.matrices, strict=True)]
    gram_taken = [(f, e) for f, e in taken if f.svd_path == "gram"]
    assert gram_taken, "no matrix took the Gram path"
    for f, e in gram_taken:
        relative = np.abs(f.singular_values / e.singular_values - 1)
        assert np.max(relative) <= GRAM_RTOL and f.rank == e.rank
    assert abs(fast.ours / exact.ours - 1) <= GRAM_RTOL
