"""Memory of the streamed spectra: a gated M_in is never concatenated, a narrow matrix is upcast once, and a
layer is read at its stored width; the block path gives the concatenation's spectrum.

The memory guards use tracemalloc (numpy reports its array allocations to it; LAPACK's internal working
copy is not traced) on small shapes, against budgets computed from the shapes: the old path (concatenate
gate and up, then a scaled copy of that) exceeds them.
"""

from __future__ import annotations

import json
import tracemalloc

import numpy as np
import pytest

from numerics.bounds.proxies import proxies
from numerics.loading import load_weights
from numerics.loading.checkpoint import open_checkpoint
from numerics.spectra.matrices import NamedMatrix, layer_matrices
from numerics.spectra.model import SpectraOptions
from numerics.spectra.spectrum import spectrum
from tests.helpers.llama_checkpoint_files import write_llama
from theory.errors import InvalidArgument
from theory.proxy import MatrixKind

UNIT_ROUNDOFF = 2.0**-53


def traced_peak(function, *args, **kwargs) -> int:
    """Peak bytes numpy (and Python) allocated while ``function`` ran."""
    tracemalloc.start()
    try:
        function(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_gated_m_in_spectrum_never_holds_the_concatenation():
    rows, cols = 512, 64  # gate and up: F x N, F >> N (as in LLaMA: 11008 x 4096)
    rng = np.random.default_rng(0)
    gate, up = (rng.standard_normal((rows, cols), dtype=np.float32) for _ in range(2))
    matrix = NamedMatrix(0, -1, MatrixKind.M_IN, gate.T, second_block=up.T)
    block = rows * cols * 8  # one block in float64
    factors = 2 * cols * cols * 8  # the two triangular factors, then their stack
    budget = 2 * block + 2 * factors + 64 * 1024  # a block, numpy's QR copy of it, factors, small arrays
    concatenation_and_its_scaled_copy = 2 * (2 * block)  # what the old path allocated
    assert budget < concatenation_and_its_scaled_copy  # the guard can fail
    assert traced_peak(spectrum, matrix) <= budget


def test_narrow_dense_matrix_is_upcast_once_and_scaled_in_place():
    matrix = np.random.default_rng(1).standard_normal((256, 1024), dtype=np.float32)
    upcast = matrix.size * 8
    budget = upcast + upcast // 8 + 64 * 1024  # the float64 copy, the finiteness mask, small arrays
    assert budget < 2 * upcast  # a second float64 copy (an out-of-place scaling) fails the guard
    assert traced_peak(spectrum, matrix) <= budget


def planted(rows: int, cols: int, values: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    left = np.linalg.qr(rng.standard_normal((rows, values.size)))[0]
    right = np.linalg.qr(rng.standard_normal((cols, values.size)))[0]
    return (left * values) @ right.T


def test_block_spectrum_is_the_concatenations_within_the_svd_backward_error():
    n, f = 24, 40
    whole = planted(n, 2 * f, np.geomspace(3.0, 1e-7, n), seed=2)  # small values: the hard case
    gate_t, up_t = whole[:, :f], whole[:, f:]
    blocks = spectrum(NamedMatrix(0, -1, MatrixKind.M_IN, gate_t, second_block=up_t))
    dense = spectrum(NamedMatrix(0, -1, MatrixKind.M_IN, whole))
    # both are exact for a perturbation of norm <= max(rows, cols) u sigma_1 (backward stable), so by
    # Weyl's inequality they differ by at most twice that
    tolerance = 2 * max(whole.shape) * UNIT_ROUNDOFF * dense.spectral_norm
    assert blocks.shape == dense.shape == (n, 2 * f) and blocks.rank == dense.rank == n
    assert np.max(np.abs(blocks.singular_values - dense.singular_values)) <= tolerance
    assert blocks.singular_values[-1] == pytest.approx(1e-7, rel=1e-6)  # relative accuracy kept
    assert blocks.norm_21 == pytest.approx(dense.norm_21, rel=1e-13)
    assert blocks.norm_11 == pytest.approx(dense.norm_11, rel=1e-13)


def test_block_spectrum_names_a_non_finite_block():
    gate_t = np.ones((4, 6))
    up_t = np.ones((4, 6))
    up_t[1, 2] = np.nan
    with pytest.raises(InvalidArgument, match=r"L0\.M_in has 1 NaN or infinite"):
        spectrum(NamedMatrix(0, -1, MatrixKind.M_IN, gate_t, second_block=up_t))


def test_stored_layer_keeps_the_checkpoint_width_and_bounds_match_the_float64_path(tmp_path):
    folder = write_llama(tmp_path / "llama16", np.float16)
    checkpoint = open_checkpoint(str(folder))
    stored, upcast = checkpoint.stored_layer(1), checkpoint.layer(1)
    assert stored.w_gate is not None and upcast.w_gate is not None
    assert stored.w_gate.dtype == np.float16 and upcast.w_gate.dtype == np.float64
    assert np.array_equal(stored.w_gate.astype(np.float64), upcast.w_gate)  # exact upcast
    m_in = next(m for m in layer_matrices(1, stored, 4, 4) if m.kind is MatrixKind.M_IN)
    assert m_in.second_block is not None and np.shares_memory(m_in.second_block, stored.w_in)
    streamed = proxies(checkpoint, SpectraOptions(jobs=1))
    whole = proxies(load_weights(str(folder)))  # float64 layers in memory: scaled copies, not in place
    assert (streamed.ours, streamed.edelman) == (whole.ours, whole.edelman)
    assert [r.spectrum.singular_values.tolist() for r in streamed.matrices] == [
        r.spectrum.singular_values.tolist() for r in whole.matrices
    ]


def test_bound_json_reads_every_layer_once_for_spectra_coverage_and_hash(tmp_path, monkeypatch, capsys):
    import contextlib
    import io

    from numerics.loading.stream import Checkpoint
    from paper_checks.cli import main

    folder = write_llama(tmp_path / "m", np.float16, layers=3)
    reads: list[int] = []
    original = Checkpoint._validated

    def counting(self, index, *, stored):
        reads.append(index)
        return original(self, index, stored=stored)

    monkeypatch.setattr(Checkpoint, "_validated", counting)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["bound", str(folder), "--json", "--jobs", "1"]) == 0
    assert sorted(reads) == [0, 1, 2]  # once each (the old path read them three times)
    document = json.loads(out.getvalue())
    monkeypatch.setattr(Checkpoint, "_validated", original)
    from paper_checks.run_metadata import weights_sha256

    assert list(document["run"]["inputs"].values()) == [weights_sha256(load_weights(folder))]
    separate = {r.block: r.value for r in open_checkpoint(folder).coverage()}
    figures = [(r["value"], separate[r["block"]]) for r in document["coverage"] if r["value"] is not None]
    assert len(figures) == 2  # SwiGLU and rotary: the reused singular values give the separate pass's
    assert all(value == pytest.approx(expected, rel=1e-12) for value, expected in figures)


def test_a_layers_spectra_come_one_at_a_time_so_each_deferred_copy_is_freed(tmp_path, monkeypatch):
    from numerics.spectra import spectrum as module

    checkpoint = open_checkpoint(write_llama(tmp_path / "m", np.float16))
    matrices = layer_matrices(0, checkpoint.stored_layer(0), checkpoint.num_heads, checkpoint.kv_heads)
    computed: list[str] = []
    original = module.spectrum
    monkeypatch.setattr(
        module, "spectrum", lambda m, *a, **k: computed.append(m.label) or original(m, *a, **k)
    )
    spectra = module.layer_spectra(matrices)
    first = next(spectra)  # each holds its (1,1) norm's float64 copy until the caller drops it
    assert computed == [matrices[0].label] and first.shape == matrices[0].shape
    assert len(list(spectra)) == len(matrices) - 1


@pytest.mark.parametrize("show_progress", [False, True], ids=["quiet", "progress"])
def test_certify_reads_a_layer_only_once_the_previous_one_is_gone(tmp_path, monkeypatch, show_progress):
    # an iterator of layers (enumerate's reused result tuple, a progress loop's variable) held layer i - 1
    # while layer i was read: two layers resident at every read, 1.43x plain's peak RSS on BERT-base
    pytest.importorskip("flint", reason="certify needs python-flint (certify extra)")
    from numerics.certify.certified import certify_matrices

    checkpoint = open_checkpoint(write_llama(tmp_path / "m", np.float32, layers=3))
    per_layer = len(list(layer_matrices(0, checkpoint.layer(0), checkpoint.num_heads, checkpoint.kv_heads)))
    alive_at_read = _reads_with_the_layers_alive(monkeypatch)
    certified = certify_matrices(checkpoint, show_progress=show_progress)
    assert alive_at_read == {0: [], 1: [], 2: []}
    assert [c.matrix.layer for c in certified] == [i for i in range(3) for _ in range(per_layer)]


def _reads_with_the_layers_alive(monkeypatch) -> dict[int, list[int]]:
    """Patch Checkpoint._validated to record, at each layer read, which earlier layers are still alive."""
    import weakref

    from numerics.loading.stream import Checkpoint

    read: list[tuple[int, weakref.ref]] = []
    alive_at_read: dict[int, list[int]] = {}
    original = Checkpoint._validated

    def tracking(self, index, *, stored):
        alive_at_read[index] = [i for i, ref in read if ref() is not None]
        layer = original(self, index, stored=stored)
        read.append((index, weakref.ref(layer.wq)))
        return layer

    monkeypatch.setattr(Checkpoint, "_validated", tracking)
    return alive_at_read


def test_coverage_and_the_weight_hash_read_a_layer_only_once_the_previous_one_is_gone(tmp_path, monkeypatch):
    # a generator or comprehension over the layers keeps layer i - 1 bound while layer i is read
    from paper_checks.run_metadata import weights_sha256

    checkpoint = open_checkpoint(write_llama(tmp_path / "m", np.float16, layers=3))
    alive_at_read = _reads_with_the_layers_alive(monkeypatch)
    records = checkpoint.coverage()
    assert alive_at_read == {0: [], 1: [], 2: []} and any(r.value is not None for r in records)
    alive_at_read.clear()
    assert len(weights_sha256(checkpoint)) == 64
    assert alive_at_read == {0: [], 1: [], 2: []}


def test_a_streamed_layer_drops_each_spectrum_before_the_next_is_computed(tmp_path, monkeypatch):
    # the deferred (1,1) norm of a narrow dense matrix holds its float64 copy: a loop variable or zip's
    # reused result tuple kept it alive during the next matrix's SVD (M_in's copy during M_out's)
    import weakref

    from numerics.spectra import spectrum as module
    from numerics.spectra.model import StreamOptions, layer_pass

    checkpoint = open_checkpoint(write_llama(tmp_path / "m", np.float16))
    made: list[weakref.ref] = []
    alive_at_start: list[int] = []
    original = module.spectrum

    def tracking(matrix, *args, **kwargs):
        alive_at_start.append(sum(ref() is not None for ref in made))
        result = original(matrix, *args, **kwargs)
        made.append(weakref.ref(result))
        return result

    monkeypatch.setattr(module, "spectrum", tracking)
    passed = layer_pass(StreamOptions(checkpoint, fast_svd=False, entrywise_norms=True), 0)
    assert len(alive_at_start) == len(passed.spectra) > 2
    assert alive_at_start == [0] * len(alive_at_start)


def test_largest_row_norm_upcasts_a_block_of_rows_at_a_time_with_the_whole_matrix_digits(monkeypatch):
    from numerics.bounds import reach

    rng = np.random.default_rng(3)
    with np.errstate(under="ignore"):  # float16 rounds a few tiny draws to subnormals
        matrix = (rng.standard_normal((512, 96)) * np.linspace(0.5, 3.0, 512)[:, None]).astype(np.float16)
    whole = matrix.astype(np.float64)
    scale = float(np.max(np.abs(whole)))
    unit = whole / scale  # the whole-matrix computation, as a reference for the digits
    expected = scale * float(np.sqrt(np.max(np.sum(unit * unit, axis=1))))
    assert expected == pytest.approx(float(np.max(np.linalg.norm(whole, axis=1))), rel=1e-14)
    monkeypatch.setattr(reach, "ROW_BLOCK_ENTRIES", 40 * 96)  # 13 blocks, the last one short
    assert reach.largest_row_norm(matrix) == expected
    upcast = whole.nbytes
    budget = upcast // 4  # the old path held the upcast, |W|, W / scale and its square: 4 upcasts
    assert traced_peak(reach.largest_row_norm, matrix) <= budget
    assert reach.largest_row_norm(np.zeros((3, 4), dtype=np.float16)) == 0.0
