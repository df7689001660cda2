"""The project's l2 bound and Edelman et al.'s gap as expressions of the depth L at one model's constants
(``specbound growth --edelman-at MODEL``): two gaps on one footing (theory.regimes: n = 1000, T = 16,
delta = 1/10, margin 1; Edelman's constants 1, theory.comparison.EDELMAN_GAP).

The model is read by the numerics layer (its spectra, :func:`numerics.spectra.model.model_spectra`);
each per-layer quantity of :func:`theory.regimes.depth_bound_at` is then the model's: the width N is its
hidden size, and every layer matrix is taken as large as the model's largest, in spectral norm, in S_p at
the given p and in Frobenius norm (each rounded up to 3 significant digits, so both bounds only grow),
with bounded alpha, as the regimes table's depth column assumes. Provenance: derived (the table's
expressions at measured constants).
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from theory.errors import InvalidArgument

SIGNIFICANT = 3


def rounded_up(value: float) -> Fraction:
    """The smallest number >= value with SIGNIFICANT significant decimal digits (value > 0 finite)."""
    exponent = math.floor(math.log10(value)) - (SIGNIFICANT - 1)
    unit = Fraction(10) ** exponent
    return math.ceil(Fraction(value) / unit) * unit


def _index(text: str) -> Fraction:
    from theory.prover.numbers import rational

    p = rational(text, "--p")
    if not 0 <= p <= 2:
        raise InvalidArgument(f"--p={text} is outside [0, 2], the range of Schatten indices of the bound")
    return p


def edelman_versus_l2(model: str, p_text: str) -> tuple[str, str, dict[str, str]]:
    """(the l2 bound's text, Edelman's gap's text, the constants used) at ``model``'s constants."""
    from numerics.bounds.schatten import MpmathSpectra, schatten_power_sum
    from numerics.spectra.model import model_spectra
    from theory.regimes import depth_bound_at

    p = _index(p_text)
    spectra = model_spectra(model)
    arithmetic = MpmathSpectra()
    spectral = max(s.spectral_norm for _, s in spectra.matrices)
    frobenius = max(s.frobenius_norm for _, s in spectra.matrices)
    schatten = max(float(schatten_power_sum(arithmetic, s, p, exact=True)) for _, s in spectra.matrices)
    constants = {
        "model": model,
        "layers": str(spectra.num_layers),
        "N": str(spectra.hidden_size),
        "p": str(p),
        "spectral_norm": str(rounded_up(spectral)),
        "schatten_p": str(rounded_up(schatten)),
        "frobenius_norm": str(rounded_up(frobenius)),
    }
    values = {
        "schatten": sp.Rational(constants["schatten_p"]),
        "width": sp.Integer(spectra.hidden_size),
        "spectral": sp.Rational(constants["spectral_norm"]),
        "frobenius": sp.Rational(constants["frobenius_norm"]),
    }
    rational_p = sp.Rational(p.numerator, p.denominator)
    ours = depth_bound_at("ours_l2", "bounded_alpha", rational_p, **values)
    edelman = depth_bound_at("edelman_bound", "bounded_alpha", rational_p, **values)
    return sp.sstr(ours), sp.sstr(edelman), constants
