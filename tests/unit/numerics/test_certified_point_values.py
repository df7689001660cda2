"""A dense matrix's float spectrum taken from its certificate (``bound --certify``): the points given in
place of the SVD's values against mpmath's SVD at 50 digits (each within its ball and within GRAM_RTOL),
refused where the balls do not decide S_p or the rank, and ``spectrum`` taking them only when given."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from flint import arb

from numerics.certify.certified import LayerCertificates, certify_matrix, point_values
from numerics.spectra.gram import GRAM_RTOL
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.spectrum import spectrum
from theory.proxy import MatrixKind


def dense(values: np.ndarray) -> NamedMatrix:
    return NamedMatrix(0, -1, MatrixKind.M_IN, values)


def mpmath_singular_values(values: np.ndarray) -> list[mpmath.mpf]:
    with mpmath.workdps(50):
        exact = mpmath.svd_r(mpmath.matrix(values.tolist()), compute_uv=False)
        return sorted((exact[i] for i in range(len(exact))), reverse=True)


def test_points_lie_within_their_balls_and_gram_rtol_of_mpmath():
    rng = np.random.default_rng(45)
    values = rng.standard_normal((40, 12)).astype(np.float32).astype(np.float64)
    certified = certify_matrix(dense(values))
    points = point_values(certified)
    assert points is not None
    reference = mpmath_singular_values(values)
    with mpmath.workdps(50):
        for point, ball, exact in zip(points, certified.enclosure.balls, reference, strict=True):
            assert ball.contains(arb(mpmath.nstr(exact, 40)))  # the enclosure holds the exact value
            error = abs(mpmath.mpf(float(point)) - exact)
            assert error <= mpmath.mpf(float(2 * ball.rad()))  # the point is inside the same ball
            assert error <= GRAM_RTOL * exact


def test_no_points_where_a_singular_value_may_be_zero():
    rng = np.random.default_rng(7)
    low_rank = rng.standard_normal((30, 3)) @ rng.standard_normal((3, 10))  # sigma_4..10 = 0
    assert point_values(certify_matrix(dense(low_rank))) is None


def test_no_points_where_the_balls_are_wider_than_gram_rtol(monkeypatch):
    rng = np.random.default_rng(3)
    values = rng.standard_normal((20, 8))
    certified = certify_matrix(dense(values))
    assert point_values(certified) is not None
    monkeypatch.setattr("numerics.certify.certified.GRAM_RTOL", 1e-18)  # below the balls' width
    assert point_values(certified) is None


def test_spectrum_takes_the_given_points_and_otherwise_its_svd():
    rng = np.random.default_rng(11)
    values = rng.standard_normal((24, 6)).astype(np.float32)  # stored narrower: upcast in spectrum
    layer = LayerCertificates("auto", 0)
    given = spectrum(dense(values), given_values=layer.dense_values)
    plain = spectrum(dense(values))
    assert (given.svd_path, plain.svd_path) == ("certificate", "svd")
    ((place, certified),) = layer.dense.items()
    assert place == dense(values).place() and not np.isfinite(certified.matrix.left).any()  # kept released
    np.testing.assert_array_equal(given.singular_values, point_values(certified))
    np.testing.assert_allclose(given.singular_values, plain.singular_values, rtol=GRAM_RTOL)
    assert (given.rank, given.norm_21) == (plain.rank, plain.norm_21)
    unused = spectrum(dense(values), given_values=lambda matrix: None)
    assert unused.svd_path == "svd"
    np.testing.assert_array_equal(unused.singular_values, plain.singular_values)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_given_values_see_the_unscaled_matrix_at_its_stored_width(dtype):
    values = (np.arange(12.0).reshape(4, 3) * 1e3).astype(dtype)
    seen: list[np.ndarray] = []

    def look(matrix: NamedMatrix) -> None:
        seen.append(matrix.left.copy())

    scaled = spectrum(dense(values), given_values=look)
    # before the float64 upcast (not held beside the caller's work) and before the in-place scaling
    assert seen[0].dtype == dtype
    np.testing.assert_array_equal(seen[0], values)
    assert scaled.spectral_norm == spectrum(values.astype(np.float64)).spectral_norm


def test_a_certified_read_gives_the_dense_spectra_and_names_them_in_the_signature(tmp_path):
    pytest.importorskip("safetensors", reason="writing the tiny checkpoint needs safetensors (models extra)")
    from numerics.bounds.proxies import proxies
    from numerics.certify.certified import certified_spectra, certify_proxies
    from numerics.loading import open_checkpoint
    from numerics.spectra.model import SpectraOptions
    from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder

    folder = write_folder(
        tmp_path / "tiny", tiny_bert_tensors(layers=2, hidden=8, ffn=16), bert_config(2, 8, 2, 16)
    )
    options = SpectraOptions(jobs=1, certify_progress=False)
    spectra = certified_spectra(open_checkpoint(folder), options)
    paths = {(matrix.kind, spec.svd_path) for matrix, spec in spectra.matrices}
    assert paths == {
        (MatrixKind.QK, "svd"),
        (MatrixKind.VT, "svd"),
        (MatrixKind.M_IN, "certificate"),
        (MatrixKind.M_OUT, "certificate"),
    }
    assert "+certificate-where-decided(rtol=1e-08)" in proxies(spectra, options).signature
    assert "certificate" not in proxies(open_checkpoint(folder), options).signature
    certified = certify_proxies(spectra, options)
    for (_, spec), row in zip(spectra.matrices, certified.matrices, strict=True):
        if spec.svd_path == "certificate":  # the float report's values are the record's own balls' points
            balls = row.spectrum.enclosure.balls
            assert all(b.contains(arb(float(v))) for v, b in zip(spec.singular_values, balls, strict=True))
