"""The ``--report DIR`` output: report.md, claims.json and the PNG figures a reader of Section 6 expects.

Figures (drawn by :mod:`paper_checks.figures` from numbers the run context already holds):

- ``singular_values_minilm-l6.png``: singular-value decay of QK_h, Vt_h, M_in, M_out, every layer;
- ``contributions_minilm-l6.png``: each matrix's C_p / C_0 against p with the chosen p marked;
- ``proxies_vs_depth.png`` and ``proxies_vs_width.png``: B_ours and B_Edelman against L and N,
  normalised at the smallest model of each series, log axes.

Figures are attached to the claims they support (10 for the first two, 8 and 11 for the scaling ones).
Every file is written atomically (a temporary file in DIR renamed into place); a run interrupted or
failing while writing removes the files it had created, so DIR never holds a half-written report.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from paper_checks import run_metadata
from paper_checks.context import RunContext
from paper_checks.output_files import complete_or_removed, figure_files, json_text, write_text_atomically
from paper_checks.registry import ClaimResult

FIGURE_MODEL = "minilm-l6"
"""The model of the single-model figures (the paper uses BERT-Base; this is the embedded default)."""

FIGURE_NAMES = (
    f"singular_values_{FIGURE_MODEL}.png",
    f"contributions_{FIGURE_MODEL}.png",
    "proxies_vs_depth.png",
    "proxies_vs_width.png",
)
"""The report's figures (each also written as PDF and SVG)."""

REPORT_FILES = ("report.md", "claims.json", *figure_files(FIGURE_NAMES))
"""Every file of a report: checked before the run (replaced only with ``--force``), kept all or none."""

NOT_DRAWN = "figure not drawn: "
"""How the caption of a figure that could not be drawn begins (report.md then links no image)."""

PREAMBLE = """\
Every verdict states what was checked and under which reading. Provenance tags (docs/mathematics.md):
`exact` = a formula of the authors' experiment code or a claim of the abstract; `standard` = a published
lemma; `reconstructed` = our reading of a statement of the paper we could not read; `derived` = proved
or computed by this toolkit. "verified (derived, under reconstructed Theorem 4.1)" means the claim
holds for our reconstruction, not that the paper's own theorem was checked.
"""


def _figures(context: RunContext, directory: Path) -> dict[str, list[tuple[str, str]]]:
    """Draw every figure; returns claim id -> [(file name, caption)]. A figure that fails is skipped
    with its error as caption (the report still gets written)."""
    from paper_checks import figures
    from paper_checks.scaling import study_for_context

    spectra, contributions, depth, width = FIGURE_NAMES
    jobs: list[tuple[tuple[str, ...], str, Callable[[Path], str]]] = [
        (
            ("10",),
            spectra,
            lambda path: figures.singular_value_decay(
                context.spectrum_curves(FIGURE_MODEL, context.weights(FIGURE_MODEL).num_layers),
                context.weights(FIGURE_MODEL).head_dim,
                FIGURE_MODEL,
                path,
            ),
        ),
        (
            ("10",),
            contributions,
            lambda path: figures.contribution_profiles(
                context.contribution_curves(FIGURE_MODEL), FIGURE_MODEL, path
            ),
        ),
        (
            ("8c", "11"),
            depth,
            lambda path: figures.proxy_scaling(study_for_context(context).points, "L", path),
        ),
        (
            ("11",),
            width,
            lambda path: figures.proxy_scaling(study_for_context(context).points, "N", path),
        ),
    ]
    attached: dict[str, list[tuple[str, str]]] = {}
    for claim_ids, name, draw in jobs:
        try:
            caption = draw(directory / name)
        except Exception as error:  # a figure must not cost the reader the whole report
            caption = f"{NOT_DRAWN}{type(error).__name__}: {error}"
        for claim_id in claim_ids:
            attached.setdefault(claim_id, []).append((name, caption))
    return attached


def _cell(text: str) -> str:
    """Text safe inside a markdown table cell (a bare | would end the cell, as in ||W||_F)."""
    return text.replace("|", "\\|")


def render_markdown(
    results: Sequence[ClaimResult],
    captions: dict[str, list[tuple[str, str]]],
    run_info: Mapping[str, Any] | None = None,
) -> str:
    """report.md: how the run was made, a summary table, then one section per claim with its evidence,
    details and figures."""
    lines = ["# specbound check: claim-by-claim verdicts", ""]
    if run_info is not None:
        lines += [f"Run: {run_metadata.markdown(run_info)}", ""]
    lines += [PREAMBLE]
    lines += ["| id | claim | verdict | provenance |", "|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r.id} | {_cell(r.title)} | **{r.verdict.value}** | {_cell(r.provenance)} |")
    for r in results:
        lines += ["", f"## Claim {r.id}: {r.title}", ""]
        lines += [f"**Verdict: {r.verdict.value}** ({r.provenance})", ""]
        lines += [f"Evidence: {r.evidence}", ""]
        if r.error:
            lines += [f"The check crashed: `{r.error}`", ""]
        for name, caption in captions.get(r.id, []):
            link = [] if caption.startswith(NOT_DRAWN) else [f"![{name}]({name})", ""]  # no broken link
            lines += [*link, f"*{caption}*", ""]
        if r.details:
            body = json.dumps(r.to_json()["details"], indent=1)
            lines += ["<details><summary>details</summary>", "", "```json", body, "```", "", "</details>"]
    return "\n".join(lines) + "\n"


def write_report(
    results: Sequence[ClaimResult],
    context: RunContext,
    directory: Path,
    run_info: Mapping[str, Any] | None = None,
) -> list[ClaimResult]:
    """Write report.md, claims.json and the figures into ``directory``; returns the results with their
    figure paths attached. ``run_info`` (paper_checks.run_metadata.run_block) heads both files."""
    directory.mkdir(parents=True, exist_ok=True)
    with complete_or_removed(directory, REPORT_FILES):  # Ctrl-C, SIGTERM or a full disk: no partial report
        captions = _figures(context, directory)
        updated = [
            dataclasses.replace(
                r, figures=(*r.figures, *(str(directory / n) for n, _ in captions.get(r.id, [])))
            )
            for r in results
        ]
        document: dict[str, Any] = {"claims": [r.to_json() for r in updated]}
        if run_info is not None:
            document["run"] = dict(run_info)
        write_text_atomically(directory / "claims.json", json_text(document, "claims.json"))
        write_text_atomically(directory / "report.md", render_markdown(updated, captions, run_info))
    return updated
