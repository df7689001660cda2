"""report.md, claims.json and the figures, from fixed inputs (no checkpoint needed)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from paper_checks import figures, plot_data, report
from paper_checks.context import RunContext
from paper_checks.registry import ClaimResult, Verdict
from paper_checks.scaling import ScalingPoint, fit_all, fit_exponent

RESULTS = [
    ClaimResult("1", "first", Verdict.VERIFIED, "derived (sympy)", "C_0 = sqrt(N S)", {"x": 1.5}),
    ClaimResult("10", "spectra", Verdict.REFUTED, "exact, measured", "rank 33 > d_h", {}),
    ClaimResult(
        "11", "growth", Verdict.OPEN, "none: the check crashed", "crashed: boom", {}, error="E: boom"
    ),
]


@pytest.fixture
def png_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the PNG of each figure: every copy draws the whole figure again (about 0.4 CPU s each); the
    PDF and SVG copies are checked by test_figures_vector.py."""
    monkeypatch.setattr(figures, "FIGURE_SUFFIXES", (".png",))


def is_png(path: Path) -> bool:
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000


def test_markdown_has_the_summary_table_each_claim_and_its_figures():
    text = report.render_markdown(RESULTS, {"10": [("decay.png", "Singular values against index")]})
    assert "| 10 | spectra | **refuted** | exact, measured |" in text
    assert "## Claim 11: growth" in text and "The check crashed: `E: boom`" in text
    assert "![decay.png](decay.png)" in text and "*Singular values against index*" in text
    assert "not that the paper's own theorem was checked" in text
    frobenius = ClaimResult("2", "C_2 = (s ||W||_F)^(1/2)", Verdict.VERIFIED, "d", "e")
    norm = report.render_markdown([frobenius], {})
    assert "| 2 | C_2 = (s \\|\\|W\\|\\|_F)^(1/2) | **verified** | d |" in norm


def test_write_report_writes_claims_json_with_figure_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(report, "_figures", lambda context, directory: {"10": [("decay.png", "caption")]})
    updated = report.write_report(RESULTS, RunContext(), tmp_path / "out")
    data = json.loads((tmp_path / "out" / "claims.json").read_text())
    assert [c["id"] for c in data["claims"]] == ["1", "10", "11"]
    assert data["claims"][1]["figures"] == [str(tmp_path / "out" / "decay.png")]
    assert updated[1].figures == (str(tmp_path / "out" / "decay.png"),) and updated[0].figures == ()
    assert (tmp_path / "out" / "report.md").read_text().startswith("# specbound check")


def test_singular_value_figure_is_a_png_and_its_caption_names_d_h(tmp_path: Path, png_only: None):
    curves = [
        plot_data.SpectrumCurve(kind, layer, head, np.linspace(3.0, 0.5, 4 if kind in ("QK", "Vt") else 16))
        for kind, head in (("QK", 0), ("QK", 1), ("Vt", 0), ("M_in", -1), ("M_out", -1))
        for layer in (0, 1)
    ]
    caption = figures.singular_value_decay(curves, 4, "toy", tmp_path / "s.png")
    assert is_png(tmp_path / "s.png") and "d_h = 4" in caption and "layers 0-1" in caption


def test_contribution_figure_is_normalised_at_p_0(tmp_path: Path, png_only: None):
    curves = [
        plot_data.ContributionCurve(k, 0, -1, (0.0, 0.5, 1.0), (2.0, 3.0, 8.0), 0.0)
        for k in figures.KIND_ORDER
    ]
    caption = figures.contribution_profiles(curves, "toy", tmp_path / "c.png")
    assert is_png(tmp_path / "c.png") and "divided by its value C_0" in caption


def test_scaling_figure_states_both_proxies_and_the_normalisation(tmp_path: Path, png_only: None):
    points = [
        ScalingPoint(f"m{d}-{w}", "synthetic", "grid", d, w, math.log(d * w), 3 * math.log(d * w))
        for d in (1, 2)
        for w in (8, 16)
    ]
    caption = figures.proxy_scaling(points, "N", tmp_path / "w.png")
    assert is_png(tmp_path / "w.png")
    assert "B_ours" in caption and "B_Edelman" in caption and "smallest model" in caption
    assert "2 of them" in caption


def test_fixed_effects_fit_recovers_exponents_and_reports_uncertainty():
    rng = np.random.default_rng(1)
    points = [
        ScalingPoint(f"{g}{d}", "truncated", g, d, 64, 1.0 * math.log(d) + c, 1.5 * math.log(d) + c + noise)
        for g, c in (("a", 0.0), ("b", 5.0))
        for d, noise in zip((1, 2, 4, 8), rng.normal(scale=0.01, size=4), strict=True)
    ]
    ours = fit_exponent(points, "ours", "L")
    edelman = fit_exponent(points, "edelman", "L")
    assert ours is not None and edelman is not None
    assert ours.value == pytest.approx(1.0, abs=1e-9) and ours.groups == 2
    assert edelman.value == pytest.approx(1.5, abs=0.05) and 0 < edelman.stderr < 0.05
    assert fit_exponent(points, "ours", "N") is None  # one width only: no width exponent
    assert {(e.proxy, e.axis) for e in fit_all(points).exponents} == {("ours", "L"), ("edelman", "L")}


def test_two_point_fit_has_no_error_estimate_and_says_so():
    points = [ScalingPoint(f"m{d}", "real", "r", d, 8, math.log(d), 2 * math.log(d)) for d in (3, 6)]
    fit = fit_exponent(points, "edelman", "L")
    assert fit is not None and fit.stderr is None and "no error estimate" in str(fit)


def test_user_checkpoint_path_that_does_not_exist_is_named(tmp_path: Path):
    from paper_checks.scaling import user_points
    from theory.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="does not exist"):
        user_points([str(tmp_path / "bert_uncased_L-2_H-128_A-2")])


def test_a_figure_that_was_not_drawn_gets_its_caption_and_no_image_link():
    results = [ClaimResult("10", "spectra", Verdict.VERIFIED, "exact", "ok")]
    captions = {
        "10": [
            ("a.png", "drawn: singular values"),
            ("b.png", f"{report.NOT_DRAWN}MissingDependency: needs the package 'torch'"),
        ]
    }
    text = report.render_markdown(results, captions)
    assert "![a.png](a.png)" in text and "b.png" not in text  # no link to a file that does not exist
    assert "*figure not drawn: MissingDependency: needs the package 'torch'*" in text
