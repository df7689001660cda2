"""The per-run context shared by all claims: load each model once, compute each report once.

Claims ask the context for what they need (weights, proxy reports, the scaling study, the gap table,
the theory's regime table); the first request computes it, later ones reuse it. Nothing here computes a
formula: every value comes from :mod:`numerics` or :mod:`theory`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from numerics.bounds.proxies import ProxyReport
    from numerics.loading.weights import TransformerWeights
    from numerics.spectra.matrices import NamedMatrix
    from numerics.spectra.spectrum import Spectrum
    from paper_checks.plot_data import ContributionCurve, SpectrumCurve

T = TypeVar("T")


@dataclass
class RunContext:
    """Lazily computed, cached inputs of the claims of one ``specbound check`` run.

    ``quick`` selects the small synthetic grid (``check``) rather than the larger one (``scaling``);
    ``figure_dir`` is where figures go when a report is requested (None: no figures);
    ``user_checkpoints`` are extra checkpoint folders for the scaling study; ``certify`` asks the claims
    that can to decide their facts with certified intervals too (numerics.certify, slower).
    """

    quick: bool = True
    certify: bool = False
    figure_dir: Path | None = None
    user_checkpoints: tuple[str, ...] = ()
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    def memo(self, key: Any, compute: Callable[[], T]) -> T:
        """The value cached under ``key``, computing it with ``compute()`` the first time."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def input_hashes(self) -> dict[str, str]:
        """The content hash (paper_checks.run_metadata.weights_sha256) of every checkpoint loaded so far,
        each computed once per run."""
        loaded = [key[1] for key in self._cache if key[0] == "weights"]
        return {
            source: self.memo(("sha256", source), functools.partial(self._sha256, source))
            for source in loaded
        }

    def _sha256(self, source: str) -> str:
        """The content hash of checkpoint ``source``'s weights."""
        from paper_checks.run_metadata import weights_sha256

        return weights_sha256(self.weights(source))

    def weights(self, source: str) -> TransformerWeights:
        """The weights of checkpoint ``source`` (alias or path), loaded once (numerics.loading)."""
        from numerics.loading import load_weights

        return self.memo(("weights", source), lambda: load_weights(source))

    def spectra(self, source: str) -> tuple[tuple[NamedMatrix, Spectrum], ...]:
        """Every matrix of ``source`` with its spectrum (numerics.spectra.model.matrix_spectra), computed
        once."""
        from numerics.spectra.model import matrix_spectra

        return self.memo(("spectra", source), lambda: matrix_spectra(self.weights(source), label=source))

    def report(self, source: str, depth: int | None = None) -> ProxyReport:
        """B_ours, B_Edelman and every per-matrix quantity of ``source`` (numerics.bounds.proxies.proxies),
        once.

        With ``depth``, the report of its first ``depth`` layers (``TransformerWeights.truncated``, labelled
        as such), computed from the spectra already in hand (the matrices of a layer do not depend on the
        others, so this is exactly the report of the truncated weights).
        """
        from numerics.bounds.proxies import proxies

        weights = self.weights(source)
        if depth is None or depth == weights.num_layers:
            return self.memo(("report", source), lambda: proxies(self.spectra(source), source=weights.source))
        label = weights.truncated(depth).source
        subset = tuple(item for item in self.spectra(source) if item[0].layer < depth)
        return self.memo(("report", source, depth), lambda: proxies(subset, source=label))

    def certified_summary(self, source: str) -> dict[str, Any]:
        """The interval-decided facts about ``source`` (numerics.certify.report.model_summary), once."""
        from numerics.certify.certified import certify_proxies
        from numerics.certify.report import model_summary
        from numerics.spectra.model import SpectraOptions

        return self.memo(
            ("certified", source),
            lambda: model_summary(
                certify_proxies(self.weights(source), SpectraOptions(certify_progress=False))
            ),
        )

    def spectrum_curves(self, source: str, layers: int) -> list[SpectrumCurve]:
        """The singular values of every matrix in the first ``layers`` layers of ``source`` (its report)."""
        from paper_checks.plot_data import SpectrumCurve

        return [
            SpectrumCurve(matrix.kind, matrix.layer, matrix.head, spec.singular_values)
            for matrix, spec in self.spectra(source)
            if matrix.layer < layers
        ]

    def contribution_curves(self, source: str) -> list[ContributionCurve]:
        """Each matrix's C_p on the grid P_m of ``source`` (numerics.bounds.posthoc.contribution_profile,
        float64 for the figure), computed once."""
        from numerics.bounds.posthoc import contribution_profile
        from paper_checks.plot_data import ContributionCurve
        from theory.proxy import grid

        def compute() -> list[ContributionCurve]:
            report = self.report(source)
            ps = grid(report.m)
            return [
                ContributionCurve(
                    row.matrix.kind,
                    row.matrix.layer,
                    row.matrix.head,
                    tuple(float(q) for q in ps),
                    tuple(contribution_profile(row.spectrum, ps, row.scale, report.hidden_size).tolist()),
                    float(row.p_opt),
                )
                for row in report.matrices
            ]

        return self.memo(("contribution_curves", source), compute)
