"""``--device cpu|cuda``: torch's float64 QR and SVD agree with numpy's within the SVD backward error, the
output names the backend, CUDA missing is a one-line exit 2, and without --device torch is not imported.

Tolerance (standard: LAPACK Users' Guide, 3rd ed., section 4.9; Weyl's inequality): each backend's
singular values are exact for the matrix plus a perturbation of norm <= p u ||A||_2, p = max(rows, cols)
(our choice of LAPACK's "modest" constant), u = 2^-53; so two backends differ by at most
2 p u ||A||_2 per singular value, where ||A||_2 is sigma_1 for a dense matrix and ||A_left|| ||A_right||
for a product kept as factors (its QR and core SVD act on the factors). A bound then moves by at most
(first order) its exponent-weighted sum of the relative changes of the values it is built from; we bound that
by (number of matrices) x 2 x max_i (2 p u ||A|| / sigma_i): every matrix enters each bound through sums of
sigma_i^q with q <= 2.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from numerics.loading.checkpoint import open_checkpoint
from numerics.spectra.backend import NUMPY_LINALG
from numerics.spectra.matrices import layer_matrices
from numerics.spectra.spectrum import linalg_for, spectrum
from paper_checks.cli import main
from tests.helpers.llama_checkpoint_files import write_llama
from tests.helpers.paths import ROOT
from theory.errors import InvalidArgument, MissingDependency

torch = pytest.importorskip("torch", reason="--device needs torch (the models extra)")

UNIT_ROUNDOFF = 2.0**-53
"""u, float64's unit roundoff."""


@pytest.fixture(scope="module")
def llama_folder(tmp_path_factory):
    return write_llama(tmp_path_factory.mktemp("device") / "llama", np.float32)


def backward_error(matrix, values: np.ndarray) -> float:
    """2 p u ||A||: how far two backward-stable backends' singular values of ``matrix`` may lie apart."""
    if matrix.right is not None:
        scale = np.linalg.norm(matrix.left, 2) * np.linalg.norm(matrix.right, 2)
    else:
        scale = float(values[0])
    return 2 * max(matrix.shape) * UNIT_ROUNDOFF * scale


def test_torch_cpu_singular_values_agree_with_numpy_within_the_backward_error(llama_folder):
    checkpoint = open_checkpoint(str(llama_folder))
    torch_cpu = linalg_for("cpu")
    assert torch_cpu.name.startswith(f"torch {torch.__version__} on cpu")
    largest_relative = 0.0
    for index in range(checkpoint.num_layers):
        layer = checkpoint.stored_layer(index)
        for matrix in layer_matrices(index, layer, checkpoint.num_heads, checkpoint.kv_heads):
            ours = spectrum(matrix, linalg=NUMPY_LINALG)
            theirs = spectrum(matrix, linalg=torch_cpu)
            assert theirs.rank == ours.rank
            difference = np.abs(theirs.singular_values - ours.singular_values)
            assert np.max(difference) <= backward_error(matrix, ours.singular_values)
            largest_relative = max(largest_relative, float(np.max(difference / ours.singular_values)))
    assert largest_relative < 1e-9  # far inside the tolerance on these well-conditioned matrices


def run_json(argv: list[str], capsys) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_bound_device_cpu_names_torch_and_agrees_with_numpy(llama_folder, capsys):
    base = ["bound", str(llama_folder), "--jobs", "1", "--json"]
    numpy_run = run_json(base, capsys)
    torch_run = run_json([*base, "--device", "cpu"], capsys)
    assert numpy_run["spectra_backend"].startswith("numpy")
    backend = torch_run["spectra_backend"]
    assert backend.startswith("torch") and "on cpu, float64" in backend
    assert torch_run["signature"].startswith("svd:f64-torch-cpu+")
    assert numpy_run["signature"].startswith("svd:f64-lapack+")
    checkpoint = open_checkpoint(str(llama_folder))
    worst = 0.0  # max over matrices of 2 p u ||A|| / sigma_min
    for index in range(checkpoint.num_layers):
        layer = checkpoint.stored_layer(index)
        for matrix in layer_matrices(index, layer, checkpoint.num_heads, checkpoint.kv_heads):
            values = spectrum(matrix).singular_values
            worst = max(worst, backward_error(matrix, values) / float(values[-1]))
    tolerance = len(numpy_run["matrices"]) * 2 * worst
    for key in ("ours", "edelman"):
        assert torch_run["proxies"][key] == pytest.approx(numpy_run["proxies"][key], rel=tolerance, abs=0)
    for ours, theirs in zip(numpy_run["matrices"], torch_run["matrices"], strict=True):
        assert (theirs["rank"], theirs["p_opt"]) == (ours["rank"], ours["p_opt"])


def test_device_cuda_without_cuda_is_one_line_and_exit_2(llama_folder, monkeypatch, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert main(["bound", str(llama_folder), "--jobs", "1", "--device", "cuda"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and not captured.out
    assert "CUDA is not available" in lines[0] and "--device cpu" in lines[0]


def test_device_with_fast_svd_is_refused(llama_folder, capsys):
    assert main(["bound", str(llama_folder), "--device", "cpu", "--fast-svd"]) == 2
    assert "without --device" in capsys.readouterr().err


def test_without_device_torch_is_not_imported(llama_folder):
    code = (
        "import sys; from paper_checks.cli import main; "
        f"status = main(['bound', {str(llama_folder)!r}, '--jobs', '1']); "
        "print(status, 'torch' in sys.modules)"
    )
    root = ROOT
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert result.stdout.strip().splitlines()[-1] == "0 False"


def test_unknown_device_and_missing_torch_are_named(monkeypatch):
    with pytest.raises(InvalidArgument, match="device 'tpu' is not one of cpu, cuda"):
        linalg_for("tpu")
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(MissingDependency, match=r"--device .*needs the package 'torch'"):
        linalg_for("cpu")


def test_torch_batches_a_layers_products_into_three_calls_within_the_same_bound(llama_folder, monkeypatch):
    from numerics.spectra import torch_backend
    from numerics.spectra.spectrum import layer_spectra

    calls: list[int] = []
    for name in ("singular_values", "triangular_factor"):
        original = getattr(torch_backend, name)

        def counted(matrix, device, original=original):
            calls.append(matrix.ndim)
            return original(matrix, device)

        monkeypatch.setattr(torch_backend, name, counted)
    import dataclasses

    # built after the patch (its functions are the counted ones), batching as on CUDA (no GPU needed)
    torch_cpu = dataclasses.replace(linalg_for("cpu"), batches=True)
    checkpoint = open_checkpoint(str(llama_folder))
    matrices = layer_matrices(0, checkpoint.stored_layer(0), checkpoint.num_heads, checkpoint.kv_heads)
    batched = list(layer_spectra(matrices, linalg=torch_cpu))
    products = sum(m.right is not None for m in matrices)
    assert calls.count(3) == 3 and products > 3  # every left factor, every right factor, every core
    assert calls.count(2) < 3 * products  # the dense matrices only, not three calls per product
    for matrix, theirs in zip(matrices, batched, strict=True):
        ours = spectrum(matrix, linalg=NUMPY_LINALG)
        assert theirs.rank == ours.rank
        difference = np.abs(theirs.singular_values - ours.singular_values)
        assert np.max(difference) <= backward_error(matrix, ours.singular_values)
        assert theirs.norm_21 == pytest.approx(ours.norm_21, rel=1e-12)
