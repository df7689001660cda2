"""``bound --certify``'s one read of a gated, mixture-of-experts model (a tiny Mixtral built by
transformers): the streamed certificates are those of the whole model in memory, and only the ungated
dense matrices take the certificate's points as their float spectra."""

from __future__ import annotations

import pytest

from theory.proxy import MatrixKind

pytestmark = [pytest.mark.slow, pytest.mark.torch]


def test_a_certified_read_of_gated_and_expert_layers_gives_the_in_memory_balls(tmp_path):
    """Gated M_in (two column blocks: certified after the spectra, its spectrum by its blocks' QR) and
    experts' matrices (Mixtral) stream through the same read; the balls are those of the whole model in
    memory, and only the ungated dense matrices (M_out) take the certificate's points."""
    from numerics.certify.certified import certified_spectra, certify_proxies
    from numerics.loading import load_weights, open_checkpoint
    from numerics.spectra.model import SpectraOptions
    from tests.helpers.family_models import build

    folder = build("mixtral", tmp_path).folder
    options = SpectraOptions(jobs=1, certify_progress=False)
    spectra = certified_spectra(open_checkpoint(folder), options)
    streamed = certify_proxies(spectra, options)
    whole = certify_proxies(load_weights(folder), options)
    for a, b in zip(streamed.matrices, whole.matrices, strict=True):
        assert a.spectrum.path == b.spectrum.path, a.matrix.label
        for x, y in zip(a.spectrum.enclosure.balls, b.spectrum.enclosure.balls, strict=True):
            assert (x.mid(), x.rad()) == (y.mid(), y.rad()), a.matrix.label
    paths = {(matrix.kind, spec.svd_path) for matrix, spec in spectra.matrices if not matrix.kind.per_head}
    assert paths == {(MatrixKind.M_IN, "svd"), (MatrixKind.M_OUT, "certificate")}
