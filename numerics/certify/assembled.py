"""The assembled bound (reconstructed Theorem 3.1) as a certified ball.

The one composition :func:`numerics.bounds.assembled.compose_assembled` (``theory.assembled``, provenance
``reconstructed``) in arb (:class:`ArbAssembledArithmetic`), with every number a ball:

- spectral norms and Schatten sums come from the certified enclosures (:mod:`numerics.certify.certified`);
- a shell index j is an integer chosen so that the shell (2^{j/(4L)} for spectral norms, 2^j for Schatten
  sums) is *certainly* >= every point of the ball: the smallest such j above the index formula's value.
  The peeling union bound of the theorem holds for every shell containing the network, so any such j
  gives a valid bound; it coincides with the float pipeline's j unless the value is within the ball's
  width of a shell boundary (then ``j`` may be one larger, and the bound slightly looser but still valid);
- the post hoc p of each matrix: the theorem holds for every choice in P_m (union bound over P_m^K), so
  the certified bound uses p* = the grid point whose MATRIX_TERM ball has the smallest upper end, and
  reports every grid point whose ball may attain the minimum (``candidates``);
- S_0 is the certified exact rank interval (its upper end decides the shell), as the float path's exact
  rank, not the authors' tolerance rank;
- the read-out w (:class:`numerics.bounds.assembled.ReadOut`, the K-th matrix) has one singular value, ||w||:
  a ball of sqrt(sum w_i^2) from the float64 entries (:class:`CertifiedReadOut`); its rank is 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from typing import TYPE_CHECKING

from numerics.bounds.assembled import AssembledBound, AssembledSetting, ReadOut, compose_assembled
from numerics.bounds.schatten import schatten_power_sum
from numerics.certify.balls import arb_type, flint_context
from numerics.certify.certified import CERTIFIED_BACKEND, ArbSpectra, CertifiedMatrix, certify_matrices
from numerics.certify.interval_eval import interval_evaluate, to_ball
from numerics.loading.weights import TransformerWeights
from numerics.spectra.model import ModelSpectra
from theory.errors import InvalidArgument
from theory.formula import Formula

if TYPE_CHECKING:
    from flint import arb


@dataclass(frozen=True, eq=False)
class CertifiedReadOut:
    """The read-out w and a ball containing its one singular value ||w|| (rank 1: w != 0 by construction)."""

    matrix: ReadOut
    spectral_norm: arb


def certify_readout(out: ReadOut) -> CertifiedReadOut:
    """A ball containing ||w|| = sqrt(sum_i w_i^2), every float64 entry converted exactly."""
    arb = arb_type()

    with flint_context():
        total = arb(0)
        for entry in out.vector.tolist():
            total += arb(entry) ** 2
        return CertifiedReadOut(out, total.sqrt())


def certified_schatten(c: CertifiedMatrix | CertifiedReadOut, p: Fraction) -> arb:
    """A ball containing S_p of the matrix: :func:`numerics.bounds.schatten.schatten_power_sum` with, at
    p = 0, the certified exact rank (every possibly nonzero sigma_i counts: the p = 0 term 3 N rank must
    cover the matrix, so the authors' tolerance rank would be too small); for the read-out ||w||^p (p > 0)
    and 1 (p = 0)."""
    arb = arb_type()

    if isinstance(c, CertifiedMatrix):
        return schatten_power_sum(ArbSpectra(), c, p, exact=True)
    with flint_context():
        if not c.spectral_norm > 0:
            raise InvalidArgument("the read-out's norm ball contains 0; pass a nonzero read-out")
        return arb(1) if p == 0 else c.spectral_norm ** to_ball(p, "p")


def certified_shell(index: Formula, shell: Formula, value: arb, **extra: object) -> tuple[int, arb]:
    """(j, ball of shell(j)) with shell(j) certainly >= every point of ``value``, j the smallest such
    integer from the index formula's value at the ball's upper end upwards; j = 0 when the ball is 0 (a
    pruned head: every shell contains it, and j = 0 peels cheapest)."""
    with flint_context():
        if not value.upper() > 0:
            return 0, interval_evaluate(shell, j=0, **extra)
        guess = interval_evaluate(index, **{str(index.args[0]): value.upper()}, **extra)
        j = math.floor(float(guess.lower().mid()))
        while not (rounded := interval_evaluate(shell, j=j, **extra)) >= value:
            j += 1
        return j, rounded


class ArbAssembledArithmetic(ArbSpectra):
    """The arb :class:`numerics.bounds.assembled.AssembledArithmetic` of :func:`certify_assembled`: certified
    shells (:func:`certified_shell`), Schatten sums of the enclosures (:func:`certified_schatten`), and
    p* = the grid point whose term ball has the smallest upper end, with every point that may attain the
    minimum."""

    def readout_spectrum(self, out: ReadOut) -> CertifiedReadOut:
        """:func:`certify_readout`."""
        return certify_readout(out)

    def shell(self, index: Formula, shell: Formula, value: arb, **extra: object) -> tuple[int, arb]:
        """:func:`certified_shell`."""
        return certified_shell(index, shell, value, **extra)

    def schatten_sums(
        self, spectrum: CertifiedMatrix | CertifiedReadOut, points: Sequence[Fraction]
    ) -> list[arb]:
        """:func:`certified_schatten` at every grid point."""
        return [certified_schatten(spectrum, q) for q in points]

    def least(
        self, options: Sequence[tuple[Fraction, int, arb]]
    ) -> tuple[tuple[Fraction, int, arb], tuple[Fraction, ...]]:
        """(the option of the smallest upper end, smallest p on ties), and the points whose ball reaches
        below the minimum's upper end."""
        minimum = reduce(lambda x, y: x.min(y), (t for _, _, t in options))
        candidates = tuple(q for q, _, t in options if t.lower() <= minimum.upper())
        return min(options, key=lambda o: (o[2].upper(), o[0])), candidates


CertifiedAssembledBound = AssembledBound["arb", "CertifiedMatrix | CertifiedReadOut"]
"""GAP_TERM of reconstructed Theorem 3.1 as a ball (:func:`certify_assembled`)."""


def certify_assembled(
    weights: TransformerWeights | Sequence[CertifiedMatrix],
    *,
    n: int,
    delta: float,
    margin: float,
    T: int,
    m: int | None = None,
    readout_weight: object = None,
) -> CertifiedAssembledBound:
    """A ball containing GAP_TERM of reconstructed Theorem 3.1 for these weights (certified shells and p).

    ``weights`` may also be its matrices already certified (``certified.certify_matrices``);
    ``readout_weight`` as in :func:`numerics.bounds.assembled.assembled_bound` (None: the class's worst case).
    """
    setting = AssembledSetting.of(n=n, delta=delta, margin=margin, T=T, m=m, readout_weight=readout_weight)
    if isinstance(weights, TransformerWeights):
        layers, source = certify_matrices(weights), weights.source
    else:
        layers, source = list(weights), "certified matrices"
    spectra = ModelSpectra.of([(c.matrix, c) for c in layers], source=source, backend=CERTIFIED_BACKEND)
    return compose_assembled(ArbAssembledArithmetic(), spectra, setting)
