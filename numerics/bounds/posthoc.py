"""The post hoc Schatten index of one matrix: minimise its summand over the grid P_m and over [0, 2].

The summand C_p = S_p^{1/(p+2)} s^{p/(p+2)} N^{(p+1)/(p+2)} (``theory.proxy.SUMMAND``, exact, authors'
``bounds.py``) is minimised per matrix over P_m = {0, 1/m, ..., 2} (the post hoc choice of the bound,
exact) and, for comparison, over the whole interval [0, 2] (derived: how much the grid loses).
At p = 0 the Schatten sum jumps to the rank (S_0 = rank, while S_p -> #{sigma_i > 0} as p -> 0+), so
the continuous minimum compares an interior minimisation on (0, 2] with the p = 0 endpoint.

Speed without losing exactness: the search runs on log C_p in float64, derived symbolically from the
formula (:func:`numerics.formulas.evaluate.log_form`; no overflow whatever the scale), and every reported
value is the formula evaluated in mpmath at ``dps`` digits. Grid points within a relative 1e-9 of the float64
minimum are all re-decided in mpmath, so float rounding cannot change the chosen p.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from numerics.bounds.schatten import MpmathSpectra, log_schatten_power_sums, schatten_power_sum
from numerics.formulas.evaluate import (
    DEFAULT_DPS,
    CompiledFormula,
    argument_names,
    check_dps,
    evaluate,
    log_form,
    to_mpf,
)
from numerics.formulas.generated import SUMMAND
from numerics.spectra.spectrum import Spectrum
from theory.errors import InvalidArgument
from theory.grid import grid_fractions
from theory.records import record

if TYPE_CHECKING:
    from theory.formula import Formula

TIE_TOLERANCE = 1e-9
"""Grid points whose float64 log-value is within this (relative) of the minimum are re-decided in mpmath."""

SCAN_POINTS = 128
"""Points of the float64 scan of (0, 2] bracketing the continuous minimiser for golden-section search."""

_GOLDEN = (np.sqrt(5.0) - 1.0) / 2.0


@record
class PChoice:
    """The post hoc p of one matrix on the grid P_m and on the interval [0, 2], with the values there.

    ``value_continuous <= value_grid`` always (the grid points are candidates of the continuous search).
    ``continuous`` is (p_continuous, value_continuous), None when the search over [0, 2] was skipped
    (``choose_p(..., continuous=False)``); then reading them raises InvalidArgument.
    """

    p_grid: Fraction
    value_grid: mpmath.mpf
    continuous: tuple[float, mpmath.mpf] | None
    m: int
    dps: int

    @property
    def p_continuous(self) -> float:
        """The minimiser over [0, 2]."""
        return self._continuous()[0]

    @property
    def value_continuous(self) -> mpmath.mpf:
        """The minimum over [0, 2]."""
        return self._continuous()[1]

    def _continuous(self) -> tuple[float, mpmath.mpf]:
        if self.continuous is None:
            raise InvalidArgument("the minimum over [0, 2] was not computed (choose_p with continuous=False)")
        return self.continuous

    @property
    def gap(self) -> mpmath.mpf:
        """value_grid - value_continuous >= 0: what restricting p to the grid costs."""
        return self.value_grid - self.value_continuous

    @property
    def relative_gap(self) -> mpmath.mpf:
        """value_grid / value_continuous - 1."""
        return self.value_grid / self.value_continuous - 1


def _fixed_values(
    formula: Formula | CompiledFormula, scale: object, n: object, extra: dict[str, object]
) -> dict[str, object]:
    """The formula's arguments other than p and S: s = scale, N = n and the pass-through ``extra``."""
    names = argument_names(formula)
    if "p" not in names or "S" not in names:
        raise InvalidArgument(
            f"formula {formula.name!r} takes {list(names)}; choose_p needs a formula of p and S"
        )
    available = {"s": scale, "N": n, **extra}
    unknown = sorted(set(extra) - set(names))
    if unknown:
        raise InvalidArgument(f"formula {formula.name!r} takes {list(names)}; {unknown} are not among them")
    return {name: available[name] for name in names if name not in ("p", "S") and name in available}


def contribution(
    spec: Spectrum,
    p: object,
    scale: object,
    n: object,
    *,
    formula: Formula | CompiledFormula = SUMMAND,
    dps: int = DEFAULT_DPS,
    **extra: object,
) -> mpmath.mpf:
    """``formula`` (default the summand C_p) at Schatten index ``p`` in [0, 2], in mpmath at ``dps`` digits.

    >>> from numerics.spectra.spectrum import spectrum
    >>> float(contribution(spectrum(np.eye(3)), 0, 10.0, 12))
    6.0
    """
    fixed = _fixed_values(formula, scale, n, extra)
    return evaluate(formula, dps=dps, p=p, S=schatten_power_sum(MpmathSpectra(dps), spec, p), **fixed)


def contribution_profile(
    spec: Spectrum,
    ps: Sequence[object],
    scale: object,
    n: object,
    *,
    formula: Formula | CompiledFormula = SUMMAND,
    dps: int = DEFAULT_DPS,
    **extra: object,
) -> np.ndarray:
    """``formula`` (default C_p) at every p of ``ps`` in float64, for plotting: the exponential of its
    float64 log form (the search's, a log-sum-exp: relative error ~1e-15 at any scale), or
    :func:`contribution` in mpmath at ``dps`` digits, rounded, where there is none (the zero matrix, a
    formula without a log form) or it does not give a finite positive value.

    >>> from numerics.spectra.spectrum import spectrum
    >>> contribution_profile(spectrum(np.diag([4.0, 1.0])), [0, 2], 10.0, 12).round(9).tolist()
    [4.898979486, 41.399792546]
    """
    fixed = _fixed_values(formula, scale, n, extra)
    objectives = _log_objectives(spec, formula, fixed, dps)
    if objectives is not None:
        with np.errstate(over="ignore"):
            values = np.exp(objectives[0](np.array([float(q) for q in ps])))  # type: ignore[arg-type]
        if (np.isfinite(values) & (values > 0)).all():
            return values
    return np.array([float(contribution(spec, q, scale, n, formula=formula, dps=dps, **extra)) for q in ps])


def _log_objectives(spec: Spectrum, formula: Formula | CompiledFormula, fixed: dict[str, object], dps: int):
    """log of the formula as float64 functions of p (vectorised, scalar); None without a log form."""
    function = log_form(formula)
    if function is None:
        return None
    logs: dict[str, float] = {}
    with mpmath.workdps(dps):
        for name, value in fixed.items():
            exact = to_mpf(value, name)
            if exact <= 0:
                return None
            logs[name] = float(mpmath.log(exact))
    names = argument_names(formula)
    if not spec.spectral_norm > 0:
        return None  # the zero matrix: every S_p = 0, no logarithm
    log_sigma = np.log(spec.singular_values[spec.singular_values > 0])
    top = float(log_sigma[0])
    shifted = log_sigma - top
    # the arguments in formula order, p and S filled in per call (no dict per call: golden-section
    # search calls ``scalar`` about 30 times per matrix)
    template: list[Any] = [logs.get(name) for name in names]
    at_p, at_s = names.index("p"), names.index("S")

    def arguments(p: Any, log_sum: Any) -> list[Any]:
        filled = template.copy()
        filled[at_p], filled[at_s] = p, log_sum
        return filled

    def vector(ps: np.ndarray) -> np.ndarray:
        return np.broadcast_to(function(*arguments(ps, log_schatten_power_sums(spec, ps))), ps.shape)

    def scalar(p: float) -> float:
        # exponents clipped at -700 so exp never underflows (a relative change below 1e-300)
        log_sum = p * top + math.log(float(np.exp(np.maximum(p * shifted, -700.0)).sum()))
        return float(function(*arguments(p, log_sum)))

    return vector, scalar


def _golden_section(objective, low: float, high: float, tolerance: float = 1e-7) -> float:
    """A minimiser of a unimodal-on-[low, high] function by golden-section search (standard)."""
    a, b = low, high
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = objective(c), objective(d)
    while b - a > tolerance:
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = objective(c)
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = objective(d)
    return (a + b) / 2


def choose_p(
    spec: Spectrum,
    scale: object,
    n: object,
    *,
    m: int,
    formula: Formula | CompiledFormula = SUMMAND,
    dps: int = DEFAULT_DPS,
    continuous: bool = True,
    **extra: object,
) -> PChoice:
    """The post hoc p of one matrix: argmin of ``formula`` over P_m and over [0, 2], values in mpmath.

    ``scale`` is s = gamma alpha L and ``n`` the hidden dimension N; ``extra`` are further arguments of
    ``formula`` (e.g. of the assembled bound's matrix term), passed through by symbol name.
    Ties on the grid go to the smallest p. The continuous search scans (0, 2] in float64, refines the
    best bracket by golden-section search, and keeps the best of that point, the grid minimiser and the
    p = 0 endpoint (a grid point), so value_continuous <= value_grid. ``continuous=False`` skips it (the
    grid choice is the same; a caller showing only the grid choice saves most of the time here). The zero
    matrix (rank 0, a pruned head) has S_p = 0 for every p: its choice is the grid's.

    >>> from numerics.spectra.spectrum import spectrum
    >>> choice = choose_p(spectrum(np.eye(3)), 10.0, 12, m=4)
    >>> choice.p_grid, float(choice.value_grid)
    (Fraction(0, 1), 6.0)
    """
    check_dps(dps)
    points = list(grid_fractions(m))
    fixed = _fixed_values(formula, scale, n, extra)

    def exact(p: object) -> mpmath.mpf:
        return evaluate(formula, dps=dps, p=p, S=schatten_power_sum(MpmathSpectra(dps), spec, p), **fixed)

    objectives = _log_objectives(spec, formula, fixed, dps)
    candidates = points
    if objectives is not None:
        logs = objectives[0](np.array([float(q) for q in points]))
        if np.isfinite(logs).all():
            cutoff = logs.min() + TIE_TOLERANCE * max(1.0, abs(float(logs.min())))
            candidates = [q for q, value in zip(points, logs, strict=True) if value <= cutoff]
        else:
            objectives = None
    values = [exact(q) for q in candidates]
    best = min(range(len(values)), key=lambda i: (values[i], candidates[i]))
    p_grid, value_grid = candidates[best], values[best]
    if not continuous:
        return PChoice(p_grid, value_grid, None, m, dps)
    if not spec.spectral_norm > 0:  # the zero matrix (a pruned head): S_p = 0 for every p, nothing to scan
        return PChoice(p_grid, value_grid, (float(p_grid), value_grid), m, dps)

    if objectives is not None:
        vector, scalar = objectives
        scan = np.linspace(0.0, 2.0, SCAN_POINTS + 1)[1:]
        scanned = vector(scan)
        grid_log = scalar(float(p_grid)) if p_grid > 0 else float(logs[0])
    else:
        scan = np.linspace(0.0, 2.0, 33)[1:]
        scalar = exact
        scanned = np.array([exact(float(p)) for p in scan], dtype=object)
        grid_log = None
    i = int(np.argmin(scanned))
    low = float(scan[i - 1]) if i > 0 else 0.0
    high = float(scan[i + 1]) if i + 1 < len(scan) else 2.0
    p_interior = _golden_section(scalar, low, high)
    p_continuous, value_continuous = float(p_grid), value_grid
    # the interior point replaces the grid minimiser only if it is lower beyond float64 noise (mpmath decides)
    promising = grid_log is None or scalar(p_interior) < grid_log - TIE_TOLERANCE * max(1.0, abs(grid_log))
    if promising:
        value_interior = exact(p_interior)
        if value_interior < value_grid:
            p_continuous, value_continuous = float(p_interior), value_interior
    return PChoice(p_grid, value_grid, (p_continuous, value_continuous), m, dps)


class MpmathSpectralArithmetic(MpmathSpectra):
    """The mpmath arithmetic with the post hoc choice of :func:`choose_p` on the grid P_m (the
    :class:`numerics.bounds.composition.SpectralArithmetic` of :func:`numerics.bounds.proxies.proxies`).

    ``continuous=False`` skips each matrix's minimisation over [0, 2] (reported only).
    """

    def __init__(self, dps: int = DEFAULT_DPS, *, m: int, continuous: bool = True) -> None:
        super().__init__(dps)
        self.m = m
        self.continuous = continuous

    def post_hoc(self, spectrum: Spectrum, scale: mpmath.mpf, hidden_size: int) -> tuple[PChoice, mpmath.mpf]:
        """(:func:`choose_p` of the matrix, its value min_{p in P_m} C_p)."""
        choice = choose_p(spectrum, scale, hidden_size, m=self.m, dps=self.dps, continuous=self.continuous)
        return choice, choice.value_grid
