"""Certificates cross process boundaries unchanged: a layer's certified values are floats, no arb balls
(what a ``--jobs`` worker sends back, numerics.certify.certified.LayerCertificates.finish)."""

from __future__ import annotations

import pickle

import numpy as np

from numerics.certify.certified import LayerCertificates
from numerics.spectra.matrices import NamedMatrix
from theory.proxy import MatrixKind


def test_a_layers_certified_values_pickle_to_the_same_floats():
    rng = np.random.default_rng(3)
    dense = NamedMatrix(0, -1, MatrixKind.M_IN, rng.standard_normal((12, 20)))
    product = NamedMatrix(0, 1, MatrixKind.QK, rng.standard_normal((9, 3)), rng.standard_normal((9, 3)))
    sent = LayerCertificates("auto", 0).finish([dense, product])
    back = pickle.loads(pickle.dumps(sent))
    for (enclosure, rank, exact, norm, path), (enclosure2, rank2, exact2, norm2, path2) in zip(
        sent, back, strict=True
    ):
        assert np.array_equal(enclosure.lower, enclosure2.lower)
        assert np.array_equal(enclosure.upper, enclosure2.upper)
        assert (rank, exact, norm, path) == (rank2, exact2, norm2, path2)
        assert isinstance(norm[0], float) and isinstance(norm[1], float)
