"""ModelSpectra, SpectraOptions and the one composition of the proxies over two arithmetics."""

from __future__ import annotations

import mpmath
import pytest

from numerics.bounds.proxies import proxies
from numerics.certify.certified import certify_proxies
from numerics.spectra.model import GIVEN_BACKEND, ModelSpectra, SpectraOptions, matrix_spectra, model_spectra
from tests.helpers.diagonal_models import diagonal_model
from theory.errors import InvalidArgument


def test_model_spectra_reads_layers_width_heads_and_backend_from_the_weights():
    weights = diagonal_model(3, 1.5, 0.5, 2.0, 0.25, 1.0, 0.75)
    spectra = model_spectra(weights)
    assert (spectra.num_layers, spectra.hidden_size, spectra.num_heads) == (
        weights.num_layers,
        weights.hidden_size,
        weights.num_heads,
    )
    assert spectra.source == weights.source and spectra.backend.startswith("numpy")
    assert len(spectra.matrices) == weights.num_layers * (2 * weights.num_heads + 2)


def test_precomputed_spectra_give_the_same_digits_as_the_weights():
    weights = diagonal_model(2, 1.5, 0.5, 2.0, 0.25, 1.0, 0.75)
    direct = proxies(weights, SpectraOptions(dps=40))
    given = model_spectra(matrix_spectra(weights), source=weights.source)
    assert given.backend == GIVEN_BACKEND
    again = proxies(given, SpectraOptions(dps=40))
    assert mpmath.nstr(again.ours, 40) == mpmath.nstr(direct.ours, 40)
    assert mpmath.nstr(again.edelman, 40) == mpmath.nstr(direct.edelman, 40)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"dps": 3}, "dps=3"),
        ({"m": 0}, "grid m=0"),
        ({"fast_svd": True, "device": "cpu"}, "fast_svd"),
    ],
)
def test_options_are_checked_before_any_spectrum(settings, message):
    with pytest.raises(InvalidArgument, match=message):
        SpectraOptions(**settings)


def test_options_travel_in_the_one_record_only():
    weights = diagonal_model(1, 1, 1, 1, 1, 1, 1)
    with pytest.raises(TypeError, match="dps"):
        proxies(weights, dps=30)
    with pytest.raises(TypeError, match="show_progress"):
        certify_proxies(weights, show_progress=False)  # type: ignore[call-arg]


def test_the_certified_proxies_take_the_grid_and_path_from_the_options_record():
    weights = diagonal_model(1, 1.5, 0.5, 2.0, 0.25, 1.0, 0.75)
    options = SpectraOptions(m=3, certify_progress=False, certify_path="arb")
    balls = certify_proxies(weights, options)
    assert balls.m == proxies(weights, options).m == 3
    assert {row.spectrum.path for row in balls.matrices} == {"arb"}
    with pytest.raises(InvalidArgument, match="path='guess'"):
        certify_proxies(weights, SpectraOptions(certify_progress=False, certify_path="guess"))


def test_no_matrices_is_refused():
    with pytest.raises(InvalidArgument, match="no matrices"):
        ModelSpectra.of((), source="empty", backend=GIVEN_BACKEND)


def test_the_one_composition_in_arb_contains_the_mpmath_composition():
    weights = diagonal_model(2, 1.5, 0.5, 2.0, 0.25, 1.0, 0.75)
    points = proxies(weights, SpectraOptions(dps=50))
    balls = certify_proxies(weights, SpectraOptions(certify_progress=False))
    assert type(points) is type(balls)  # one generic result type
    from flint import arb

    from numerics.certify.balls import flint_context

    with flint_context():  # decimals parsed at the certificates' precision
        for point, ball in zip(points.matrices, balls.matrices, strict=True):
            for name in ("alpha", "gamma", "scale", "contribution", "edelman_term"):
                # the mpmath value at 50 digits, to 45 digits: well inside a 128-bit ball's radius
                assert getattr(ball, name).contains(arb(mpmath.nstr(getattr(point, name), 45))), name
        assert balls.ours.contains(arb(mpmath.nstr(points.ours, 45)))
        assert balls.edelman.contains(arb(mpmath.nstr(points.edelman, 45)))
    assert points.ours_below_edelman == balls.ours_below_edelman
