"""The joint minimum of the assembled bound over p in P_m^K, where the matrices' choices are coupled.

GAP_TERM (theory.assembled, reconstructed Theorem 3.1) depends on the chosen p-vector through
Sigma = sum_i MATRIX_TERM_i(p_i) and through the peeling cost P = sum_i (PEEL_COST(spectral shell_i)
+ PEEL_COST(Schatten shell_i(p_i))): a matrix's p moves its Schatten power sum S_p and with it the dyadic
shell index it is peeled on. GAP_TERM increases in Sigma and in P, so it is not a sum of per-matrix
terms: the per-matrix minima of MATRIX_TERM (what :func:`numerics.bounds.assembled.assembled_bound` takes)
minimise Sigma, not necessarily GAP_TERM. Both are valid choices (the bound holds for every p-vector at
once, by the union bound over P_m^K and the peeling); which is smaller is what claim 5b measures.

The joint minimum is exact: a p-vector minimising an increasing function of (Sigma, P) has a Pareto-optimal
(Sigma, P); the Pareto front of the sums is built one matrix at a time (a pair dominated before adding a
matrix stays dominated after), then GAP_TERM is evaluated on the front only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import mpmath

if TYPE_CHECKING:
    from numerics.bounds.assembled import AssembledBound
    from numerics.spectra.matrices import NamedMatrix
    from numerics.spectra.spectrum import Spectrum


@dataclass(frozen=True)
class Option:
    """One matrix at one grid point: its MATRIX_TERM and its peeling cost (spectral + Schatten shells)."""

    p: Fraction
    term: mpmath.mpf
    peel: mpmath.mpf


def options_of(bound: AssembledBound, spectra: Sequence[tuple[NamedMatrix, Spectrum]]) -> list[list[Option]]:
    """Every matrix of ``bound`` at every p of its grid: MATRIX_TERM(p, Shat(p), s_i, N_i) and its peeling
    cost, from the same theory.assembled formulas and shells numerics.bounds.assembled evaluates."""
    from numerics.bounds.assembled import ReadOut, grid_terms
    from numerics.formulas.evaluate import evaluate
    from numerics.spectra.spectrum import spectrum
    from theory import assembled as theorem
    from theory.proxy import grid

    by_label = {matrix.label: spec for matrix, spec in spectra}
    points = [Fraction(int(q.p), int(q.q)) for q in grid(bound.m)]
    table = []
    with mpmath.workdps(bound.dps):
        for row in bound.matrices:
            matrix = row.matrix
            spec = spectrum(matrix.dense()) if isinstance(matrix, ReadOut) else by_label[matrix.label]
            spectral_peel = evaluate(theorem.PEEL_COST, dps=bound.dps, j=row.spectral_shell)
            table.append(
                [
                    Option(q, term, spectral_peel + evaluate(theorem.PEEL_COST, dps=bound.dps, j=j))
                    for q, j, term in grid_terms(spec, row.scale, row.dimension, points, bound.dps)
                ]
            )
    return table


@dataclass(frozen=True)
class JointMinimum:
    """GAP_TERM at the per-matrix minima of MATRIX_TERM and at the joint minimum over P_m^K."""

    separate_gap: mpmath.mpf
    joint_gap: mpmath.mpf
    separate_choice: tuple[Fraction, ...]
    joint_choice: tuple[Fraction, ...]
    front_size: int

    @property
    def relative_excess(self) -> mpmath.mpf:
        """(separate - joint) / joint: what taking the per-matrix minima costs, >= 0."""
        return (self.separate_gap - self.joint_gap) / self.joint_gap

    @property
    def matrices_that_differ(self) -> int:
        """How many matrices the joint optimum gives another p than their own minimum."""
        return sum(a != b for a, b in zip(self.separate_choice, self.joint_choice, strict=True))


def joint_minimum(
    options: Sequence[Sequence[Option]], gap: Callable[[mpmath.mpf, mpmath.mpf], mpmath.mpf]
) -> JointMinimum:
    """The exact minimum of ``gap(Sigma, P)`` (increasing in both) over one option per matrix, and
    ``gap`` at the per-matrix minima of the term (the first minimiser, as numerics.bounds.assembled picks)."""
    separate = [min(row, key=lambda o: o.term) for row in options]
    front: list[tuple[mpmath.mpf, mpmath.mpf, tuple[Fraction, ...]]] = [(mpmath.mpf(0), mpmath.mpf(0), ())]
    for row in options:
        merged = sorted(
            ((s + o.term, c + o.peel, (*choice, o.p)) for s, c, choice in front for o in row),
            key=lambda item: (item[0], item[1]),
        )
        front = []
        for item in merged:
            if not front or item[1] < front[-1][1]:
                front.append(item)
    values = [(gap(s, c), choice) for s, c, choice in front]
    joint_gap, joint_choice = min(values, key=lambda v: v[0])
    separate_gap = gap(mpmath.fsum(o.term for o in separate), mpmath.fsum(o.peel for o in separate))
    return JointMinimum(separate_gap, joint_gap, tuple(o.p for o in separate), joint_choice, len(front))


def gap_of(bound: AssembledBound) -> Callable[[mpmath.mpf, mpmath.mpf], mpmath.mpf]:
    """GAP_TERM of ``bound`` (numerics.synthetic.gap.gap_term_at) with Sigma and P replaced, the rest kept."""
    from numerics.synthetic.gap import gap_term_at

    def gap(sigma: mpmath.mpf, peel: mpmath.mpf) -> mpmath.mpf:
        return mpmath.mpf(
            gap_term_at(dataclasses.replace(bound, sigma=sigma, peel_cost=peel), float(bound.delta))
        )

    return gap
