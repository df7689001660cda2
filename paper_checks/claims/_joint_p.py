"""The joint minimum of the assembled bound over p in P_m^K, where the matrices' choices are coupled.

GAP_TERM (theory.assembled, reconstructed Theorem 3.1) depends on the chosen p-vector through
Sigma = sum_i MATRIX_TERM_i(p_i) and through the peeling cost P = sum_i (PEEL_COST(spectral shell_i)
+ PEEL_COST(Schatten shell_i(p_i))): a matrix's p moves its Schatten power sum S_p and with it the dyadic
shell index it is peeled on. GAP_TERM increases in Sigma and in P, so it is not a sum of per-matrix
terms: the per-matrix minima of MATRIX_TERM (what :func:`numerics.bounds.assembled.assembled_bound` takes)
minimise Sigma, not necessarily GAP_TERM. Both are valid choices (the bound holds for every p-vector at
once, by the union bound over P_m^K and the peeling: claim 5b); which is smaller is what claim 5c measures,
and :func:`counterexample` shows that the per-matrix minima are not jointly optimal in general.

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
    from paper_checks.context import RunContext


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
    from theory.errors import InvalidArgument
    from theory.proxy import grid

    dps = bound.dps
    if dps is None:
        raise InvalidArgument("options_of needs an mpmath bound (dps set), not a certified one")
    by_label = {matrix.label: spec for matrix, spec in spectra}
    points = [Fraction(int(q.p), int(q.q)) for q in grid(bound.m)]
    table = []
    with mpmath.workdps(dps):
        for row in bound.matrices:
            matrix = row.matrix
            spec = spectrum(matrix.dense()) if isinstance(matrix, ReadOut) else by_label[matrix.label]
            spectral_peel = evaluate(theorem.PEEL_COST, dps=dps, j=row.spectral_shell)
            table.append(
                [
                    Option(q, term, spectral_peel + evaluate(theorem.PEEL_COST, dps=dps, j=j))
                    for q, j, term in grid_terms(spec, row.scale, row.dimension, points, dps)
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


@dataclass(frozen=True)
class PlantedMatrix:
    """A matrix given by its spectrum's closed form: ``rank`` equal singular values ``sigma``, scale s and
    N = ``dimension`` (for the planted counterexample: no weights needed)."""

    rank: int
    sigma: mpmath.mpf
    scale: mpmath.mpf
    dimension: int


COUNTEREXAMPLE_SETTING = {"n": 1000, "delta": 0.05, "gamma_m": 1, "m": 4, "T": 16, "Q": 1, "L": 1}
"""The setting of :func:`counterexample` (K = 2 and N_max = 16 follow from its two matrices)."""
COUNTEREXAMPLE = (
    PlantedMatrix(4, mpmath.mpf(2) ** -88, mpmath.mpf(10) ** 15, 16),
    PlantedMatrix(16, mpmath.mpf(1), mpmath.mpf(1), 16),
)
"""Rank 4 with sigma = 2^-88 at s = 1e15 (its term falls below 3N + 0.01 for every p >= 1/2 while its
Schatten shell, hence its peeling cost, keeps growing with p), beside the 16 x 16 identity at s = 1."""


def planted_options(
    matrices: Sequence[PlantedMatrix], m: int, depth: int, dps: int = 30
) -> list[list[Option]]:
    """The option table of planted matrices: S_p = rank sigma^p (the exact rank at p = 0) through
    numerics.bounds.assembled's shells and MATRIX_TERM, peeling cost PEEL_COST at the spectral shell of
    sigma (SPECTRAL_SHELL_INDEX at L = ``depth``) plus PEEL_COST at the Schatten shell."""
    from numerics.bounds.assembled import shell_terms
    from numerics.formulas.evaluate import evaluate
    from theory import assembled as theorem
    from theory.proxy import grid

    points = [Fraction(int(q.p), int(q.q)) for q in grid(m)]
    table = []
    with mpmath.workdps(dps):
        for planted in matrices:
            sums = [planted.rank * planted.sigma ** (mpmath.mpf(q.numerator) / q.denominator) for q in points]
            spectral = int(evaluate(theorem.SPECTRAL_SHELL_INDEX, dps=dps, C=planted.sigma, L=depth))
            spectral_peel = evaluate(theorem.PEEL_COST, dps=dps, j=spectral)
            table.append(
                [
                    Option(q, term, spectral_peel + evaluate(theorem.PEEL_COST, dps=dps, j=j))
                    for q, j, term in shell_terms(sums, planted.scale, planted.dimension, points, dps)
                ]
            )
    return table


def counterexample() -> JointMinimum:
    """The joint minimum of GAP_TERM on :data:`COUNTEREXAMPLE` in :data:`COUNTEREXAMPLE_SETTING`: the
    per-matrix minima of MATRIX_TERM do not minimise GAP_TERM there (the joint optimum takes p = 1/2 for
    the first matrix, a smaller Schatten shell, instead of its term's minimiser p = 2)."""
    from numerics.formulas.evaluate import evaluate
    from theory import assembled as theorem

    setting = dict(COUNTEREXAMPLE_SETTING)
    depth, m = int(setting.pop("L")), int(setting["m"])
    fixed = {**setting, "K": len(COUNTEREXAMPLE), "N_max": max(p.dimension for p in COUNTEREXAMPLE)}

    def gap(sigma: mpmath.mpf, peel: mpmath.mpf) -> mpmath.mpf:
        return evaluate(theorem.GAP_TERM, dps=30, Sigma=sigma, P=peel, **fixed)

    return joint_minimum(planted_options(COUNTEREXAMPLE, m, depth), gap)


@dataclass(frozen=True)
class ModelOptions:
    """One trained model of the run: its assembled bound and its option table (:func:`options_of`)."""

    label: str
    bound: AssembledBound
    options: list[list[Option]]
    exact_ranks: tuple[int, ...]
    """#{sigma_i > 0} of each matrix of ``bound`` (counted from its stored spectrum; the read-out's is 1)."""


def model_options(context: RunContext) -> list[ModelOptions]:
    """Every trained model of the run (claim 12's grid) with its option table, computed once per run."""

    def compute() -> list[ModelOptions]:
        import numpy as np

        from numerics.bounds.assembled import ReadOut
        from numerics.spectra.model import matrix_spectra
        from paper_checks.claims.c12_bound_dominates_gap import trained_table_and_bounds

        table, models, bounds = trained_table_and_bounds(context)
        rows = []
        for row, model, bound in zip(table.rows, models, bounds, strict=True):
            spectra = matrix_spectra(model.weights)
            by_label = {matrix.label: spec for matrix, spec in spectra}
            ranks = tuple(
                1
                if isinstance(r.matrix, ReadOut)
                else int(np.count_nonzero(by_label[r.matrix.label].singular_values > 0))
                for r in bound.matrices
            )
            rows.append(ModelOptions(row.label, bound, options_of(bound, spectra), ranks))
        return rows

    return context.memo("joint_p_model_options", compute)
