"""The complexity measures of one trained synthetic transformer, each from its spectra computed once.

Every measure is a number per model whose ranking is compared with the ranking of measured gaps
(:mod:`numerics.ranking.statistics`). Matrices are those of the bound (``numerics.spectra.matrices``: per
layer QK_h and Vt_h of every head, M_in, M_out); the read-out w enters only the assembled bound.

=========================  ==================================================================================
``B_ours``                 the l1 post hoc proxy (``numerics.bounds.proxies``; exact: authors' code)
``assembled_l2``           GAP_TERM of the assembled bound with the trained read-out
(``numerics.bounds.assembled``;
                           reconstructed Theorem 3.1)
``B_Edelman``              the Edelman-derived proxy (``numerics.bounds.proxies``; exact: authors' code)
``bft_spectral``           Bartlett, Foster & Telgarsky 2017 spectral complexity, rho_i = 1
                           (``theory.baselines.BFT_SPECTRAL_COMPLEXITY``; standard)
``spectral_product``       prod_i ||W_i||_2 (Jiang et al. 2020, eq. (39) "prod-of-spec"; standard)
``frobenius_sum``          sum_i ||W_i||_F (Jiang et al. 2020, "sum-of-fro"; standard)
``parameters``             the trained parameter count (Jiang et al. 2020, "params"; standard)
``mean_p_opt``             the mean post hoc p over the matrices (``numerics.bounds.proxies``; exact)
=========================  ==================================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath

from numerics.bounds.assembled import assembled_bound
from numerics.bounds.proxies import ProxyReport, proxies
from numerics.formulas.evaluate import DEFAULT_DPS, evaluate
from numerics.spectra.matrices import NamedMatrix
from numerics.spectra.model import matrix_spectra
from numerics.spectra.spectrum import Spectrum
from numerics.synthetic.model import readout_weight
from numerics.synthetic.train import TrainedModel
from theory.baselines import BFT_SPECTRAL_COMPLEXITY, BFT_TERM
from theory.errors import InvalidArgument

MEASURES: dict[str, str] = {
    "B_ours": "l1 post hoc proxy B_ours (exact: authors' code)",
    "assembled_l2": "assembled bound GAP_TERM, trained read-out (reconstructed Thm 3.1)",
    "B_Edelman": "Edelman-derived proxy (exact: authors' code)",
    "bft_spectral": "Bartlett-Foster-Telgarsky 2017 spectral complexity (standard)",
    "spectral_product": "product of spectral norms (standard: Jiang et al. 2020)",
    "frobenius_sum": "sum of Frobenius norms (standard: Jiang et al. 2020)",
    "parameters": "parameter count (standard: Jiang et al. 2020)",
    "mean_p_opt": "mean post hoc p over the matrices (exact: authors' code)",
}
"""Every measure's key and a one-line description with its provenance, in table order."""


def spectral_complexity(
    spectra: Sequence[tuple[NamedMatrix, Spectrum]], *, dps: int = DEFAULT_DPS
) -> mpmath.mpf:
    """BFT_SPECTRAL_COMPLEXITY(prod_i ||W_i||_2, sum_i BFT_TERM(||W_i||_{2,1}, ||W_i||_2)), in mpmath."""
    with mpmath.workdps(dps):
        product = mpmath.fprod(mpmath.mpf(spec.spectral_norm) for _, spec in spectra)
        terms = mpmath.fsum(
            evaluate(BFT_TERM, dps=dps, n21=spec.norm_21, C2=spec.spectral_norm) for _, spec in spectra
        )
        return evaluate(BFT_SPECTRAL_COMPLEXITY, dps=dps, P_sigma=product, S_21=terms)


def _finite(name: str, value: object) -> float:
    number = float(value)  # type: ignore[arg-type]
    if not mpmath.isfinite(number):
        raise InvalidArgument(f"measure {name} is {number} (beyond float64); use a smaller model")
    return number


def model_measures(trained: TrainedModel, *, margin: float, delta: float) -> dict[str, float]:
    """Every measure of :data:`MEASURES` on ``trained``; the spectra are computed once and shared."""
    spectra = matrix_spectra(trained.weights, label="measures")
    if any(spec.spectral_norm <= 0 for _, spec in spectra):
        raise InvalidArgument(
            f"{trained.weights.source} has a zero matrix: its spectral ratios are undefined"
        )
    report = proxies(spectra, source=trained.weights.source)
    bound = assembled_bound(
        report,
        n=len(trained.train_sample),
        delta=delta,
        margin=margin,
        T=trained.task.seq_len,
        readout_weight=readout_weight(trained.model),
    )
    with mpmath.workprec(53):  # double precision, whatever the caller's mpmath context
        values = _measure_values(trained, spectra, report, bound.gap)
    return {name: _finite(name, values[name]) for name in MEASURES}


def _measure_values(
    trained: TrainedModel, spectra: Sequence[tuple[NamedMatrix, Spectrum]], report: ProxyReport, gap: object
) -> dict[str, object]:
    return {
        "B_ours": report.ours,
        "assembled_l2": gap,
        "B_Edelman": report.edelman,
        "bft_spectral": spectral_complexity(spectra),
        "spectral_product": mpmath.fprod(mpmath.mpf(spec.spectral_norm) for _, spec in spectra),
        "frobenius_sum": mpmath.fsum(spec.frobenius_norm for _, spec in spectra),
        "parameters": sum(int(p.numel()) for p in trained.model.parameters()),
        "mean_p_opt": mpmath.fsum(float(row.p_opt) for row in report.matrices) / len(report.matrices),
    }
