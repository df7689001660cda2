"""The assembled bound (reconstructed Theorem 3.1) as a certified ball, mirroring numerics.bounds.assembled.

Same inputs and formulas as :func:`numerics.bounds.assembled.assembled_bound` (``theory.assembled``,
provenance ``reconstructed``), with every number a ball:

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

from numerics.bounds.assembled import (
    LABEL,
    ReadOut,
    check_inputs,
    gap_arguments,
    layer_norms,
    matrix_key,
    readout,
    sensitivity_and_scale,
)
from numerics.bounds.composition import depth_factors
from numerics.certify.balls import flint_context
from numerics.certify.certified import (
    CertifiedMatrix,
    certify_matrices,
    grid_size,
    schatten_power_sum,
)
from numerics.certify.interval_eval import ArbArithmetic, exact_integer, interval_evaluate, to_ball
from numerics.loading.weights import TransformerWeights
from theory import assembled as theorem
from theory.errors import InvalidArgument
from theory.formula import Formula
from theory.proxy import grid

if TYPE_CHECKING:
    from flint import arb


@dataclass(frozen=True, eq=False)
class CertifiedReadOut:
    """The read-out w and a ball containing its one singular value ||w|| (rank 1: w != 0 by construction)."""

    matrix: ReadOut
    spectral_norm: arb


def certify_readout(out: ReadOut) -> CertifiedReadOut:
    """A ball containing ||w|| = sqrt(sum_i w_i^2), every float64 entry converted exactly."""
    from flint import arb

    with flint_context():
        total = arb(0)
        for entry in out.vector.tolist():
            total += arb(entry) ** 2
        return CertifiedReadOut(out, total.sqrt())


def certified_schatten(c: CertifiedMatrix | CertifiedReadOut, p: Fraction) -> arb:
    """A ball containing S_p of the matrix: certified.schatten_power_sum with, at p = 0, the certified
    exact rank (every possibly nonzero sigma_i counts: the p = 0 term 3 N rank must cover the matrix, so
    the authors' tolerance rank would be too small); for the read-out ||w||^p (p > 0) and 1 (p = 0)."""
    from flint import arb

    if isinstance(c, CertifiedMatrix):
        return schatten_power_sum(c, p, exact=True)
    with flint_context():
        if not c.spectral_norm > 0:
            raise InvalidArgument("the read-out's norm ball contains 0; pass a nonzero read-out")
        return arb(1) if p == 0 else c.spectral_norm ** to_ball(p, "p")


@dataclass(frozen=True, eq=False)
class CertifiedAssembledMatrix:
    """One matrix's share of the certified assembled bound."""

    certified: CertifiedMatrix | CertifiedReadOut
    spectral_shell: int
    rounded_norm: arb
    input_bound: arb
    gamma: arb
    alpha: arb
    scale: arb
    dimension: int
    p: Fraction
    candidates: tuple[Fraction, ...]
    schatten_shell: int
    term: arb


@dataclass(frozen=True, eq=False)
class CertifiedAssembledBound:
    """GAP_TERM of reconstructed Theorem 3.1 as a ball, with every quantity it was computed from."""

    label: str
    matrices: tuple[CertifiedAssembledMatrix, ...]
    sigma: arb
    sensitivity: arb
    peel_cost: arb
    gap: arb
    m: int
    matrix_count: int
    max_dimension: int

    def bound(self, empirical_ramp_risk: object) -> arb:
        """A ball containing empirical ramp risk + GAP_TERM (the theorem's bound on the 0-1 test error)."""
        from numerics.certify.interval_eval import to_ball

        with flint_context():
            risk = to_ball(empirical_ramp_risk, "empirical_ramp_risk")
            if not (risk >= 0 and risk <= 1):
                raise InvalidArgument(f"empirical_ramp_risk={empirical_ramp_risk!r} is outside [0, 1]")
            return risk + self.gap


def certified_shell(index: Formula, shell: Formula, value: arb, **extra: object) -> tuple[int, arb]:
    """(j, ball of shell(j)) with shell(j) certainly >= every point of ``value``, j the smallest such
    integer from the index formula's value at the ball's upper end upwards."""
    with flint_context():
        guess = interval_evaluate(index, **{str(index.args[0]): value.upper()}, **extra)
        j = math.floor(float(guess.lower().mid()))
        while not (rounded := interval_evaluate(shell, j=j, **extra)) >= value:
            j += 1
        return j, rounded


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
    check_inputs(n, delta, margin, T)
    layers = certify_matrices(weights) if isinstance(weights, TransformerWeights) else list(weights)
    num_layers = 1 + max(c.matrix.layer for c in layers)
    num_heads = len({c.matrix.head for c in layers if c.matrix.head >= 0})
    hidden_size = layers[0].matrix.shape[0]
    m = m if m is not None else grid_size(num_layers, hidden_size)
    points = [Fraction(int(q.p), int(q.q)) for q in grid(m)]
    certified: list[CertifiedMatrix | CertifiedReadOut] = [
        *layers,
        certify_readout(readout(readout_weight, hidden_size)),
    ]
    with flint_context():
        count = exact_integer(interval_evaluate(theorem.MATRIX_COUNT, L=num_layers, H=num_heads), "K")
        shells = {
            matrix_key(c.matrix): certified_shell(
                theorem.SPECTRAL_SHELL_INDEX, theorem.SPECTRAL_SHELL, c.spectral_norm, L=num_layers
            )
            for c in certified
        }
        rounded = layer_norms({key: ball for key, (_, ball) in shells.items()})
        alphas = depth_factors(ArbArithmetic(), rounded, num_layers, theorem.HEAD_LIPSCHITZ)
        rows = []
        for c in certified:
            gamma, b, alpha, scale = sensitivity_and_scale(
                c.matrix, rounded, alphas, count, margin, interval_evaluate
            )
            dimension = max(c.matrix.shape)
            options = []
            for q in points:
                j, schatten = certified_shell(
                    theorem.SCHATTEN_SHELL_INDEX, theorem.SCHATTEN_SHELL, certified_schatten(c, q)
                )
                term = interval_evaluate(theorem.MATRIX_TERM, p=q, S=schatten, s=scale, N=dimension)
                options.append((q, j, term))
            minimum = reduce(lambda x, y: x.min(y), (t for _, _, t in options))
            candidates = tuple(q for q, _, t in options if t.lower() <= minimum.upper())
            q, j, term = min(options, key=lambda o: (o[2].upper(), o[0]))
            spectral_shell, norm = shells[matrix_key(c.matrix)]
            rows.append(
                CertifiedAssembledMatrix(
                    c, spectral_shell, norm, b, gamma, alpha, scale, dimension, q, candidates, j, term
                )
            )
        sigma = sum((r.term for r in rows[1:]), rows[0].term)
        peel = sum(
            (
                interval_evaluate(theorem.PEEL_COST, j=r.spectral_shell)
                + interval_evaluate(theorem.PEEL_COST, j=r.schatten_shell)
                for r in rows[1:]
            ),
            interval_evaluate(theorem.PEEL_COST, j=rows[0].spectral_shell)
            + interval_evaluate(theorem.PEEL_COST, j=rows[0].schatten_shell),
        )
        sensitivity = reduce(
            lambda x, y: x.max(y),
            (
                interval_evaluate(
                    theorem.SENSITIVITY, C=r.rounded_norm, b=r.input_bound, gamma=r.gamma, alpha=r.alpha
                )
                for r in rows
            ),
        )
        max_dimension = max(r.dimension for r in rows)
        gap = interval_evaluate(
            theorem.GAP_TERM,
            **gap_arguments(sigma, n, delta, margin, m, count, T, max_dimension, sensitivity, peel),
        )
    return CertifiedAssembledBound(LABEL, tuple(rows), sigma, sensitivity, peel, gap, m, count, max_dimension)
