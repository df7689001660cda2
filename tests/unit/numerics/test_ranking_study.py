"""The ranking study on tiny models: design, measures against numpy, cache, and the command."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from numerics.ranking import study
from numerics.ranking.measures import MEASURES, model_measures, spectral_complexity
from numerics.ranking.study import HYPERPARAMETERS, PROFILES, Profile, StudyPoint, measure_point
from numerics.spectra.matrices import extract_matrices
from numerics.spectra.model import matrix_spectra

pytest.importorskip("torch", reason="the ranking study trains models: torch (specbound[models]) is missing")

TINY = StudyPoint(depth=1, width=4, heads=1, n_train=16, epochs=5, n_test=200)
TINY_PROFILE = Profile("tiny", TINY, {"depth": (2,)}, (0, 1), "4 tiny models")


@pytest.fixture(scope="module")
def tiny_trained():
    return TINY.train()


def test_profiles_change_one_hyperparameter_at_a_time() -> None:
    for profile in PROFILES.values():
        points = profile.points()
        for point in points:
            base = replace(profile.base, seed=point.seed)
            changed = [name for name in HYPERPARAMETERS if getattr(point, name) != getattr(base, name)]
            assert len(changed) <= 1, (profile.name, point)
        assert len(set(points)) == len(points)
    assert len(PROFILES["default"].points()) >= 200
    covered = {name for name, values in PROFILES["quick"].alternatives.items() if values}
    assert covered == set(HYPERPARAMETERS)


def test_measures_agree_with_numpy(tiny_trained) -> None:
    values = model_measures(tiny_trained, margin=0.25, delta=0.05)
    assert list(values) == list(MEASURES)
    dense = [m.dense() for m in extract_matrices(tiny_trained.weights)]
    spectral = [np.linalg.norm(w, 2) for w in dense]
    assert values["spectral_product"] == pytest.approx(np.prod(spectral), rel=1e-9)
    assert values["frobenius_sum"] == pytest.approx(sum(np.linalg.norm(w) for w in dense), rel=1e-9)
    # row-vector orientation: ||W||_{2,1} = sum of the column 2-norms of W (= ||A^T||_{2,1}, A = W^T)
    ratios = sum(
        (np.linalg.norm(w, axis=0).sum() / s) ** (2 / 3) for w, s in zip(dense, spectral, strict=True)
    )
    assert values["bft_spectral"] == pytest.approx(np.prod(spectral) * ratios**1.5, rel=1e-9)
    # one layer at N = 4, F = 16: Wq, Wk, Wv, Wo (4 x 4 each), W_in, W_out (16 x 4 each), read-out w (4)
    assert values["parameters"] == 4 * 16 + 2 * 64 + 4
    assert 0 <= values["mean_p_opt"] <= 2


def test_spectral_complexity_of_identities_is_count_to_the_three_halves() -> None:
    # k identity matrices of size d: spectral norms 1, ||I||_{2,1} = d, so R = (k d^{2/3})^{3/2} = k^{3/2} d
    from numerics.spectra.spectrum import spectrum

    eye = np.eye(3)
    spectra = [(None, spectrum(eye)) for _ in range(4)]
    assert float(spectral_complexity(spectra)) == pytest.approx(4**1.5 * 3, rel=1e-12)


def test_cache_returns_the_record_without_training(tmp_path, monkeypatch) -> None:
    version = study.code_version()
    first = measure_point(TINY, tmp_path, version)
    assert (tmp_path / f"{TINY.key(version)}.npz").exists()

    def refuse(self):
        raise AssertionError("trained again despite the cache")

    monkeypatch.setattr(StudyPoint, "train", refuse)
    assert measure_point(TINY, tmp_path, version) == first
    assert TINY.key(version) != TINY.key(version + "x")  # a code change invalidates the cache
    assert first.gap == pytest.approx(first.test_error - first.train_error)


@pytest.mark.slow  # 16 s wall at load 10
def test_correlate_command_prints_json_on_stdout_only(tmp_path, monkeypatch, capsys) -> None:
    from paper_checks.cli import main

    monkeypatch.setitem(PROFILES, "tiny", TINY_PROFILE)
    argv = ["correlate", "--profile", "tiny", "--jobs", "1", "--cache", str(tmp_path / "c"), "--json"]
    assert main([*argv, "--resamples", "50", "--report", str(tmp_path / "r")]) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert payload["models"] == 4 and len(payload["records"]) == 4
    assert [m["measure"] for m in payload["measures"]] == list(MEASURES)
    assert "to train" in captured.err
    figures = sorted(p.name for p in (tmp_path / "r").glob("*.png"))
    assert figures == sorted(f"correlate_{m}.png" for m in MEASURES)
    assert main([*argv, "--resamples", "5"]) == 2
    assert "--resamples=5 must be at least 10" in capsys.readouterr().err


def test_measures_do_not_depend_on_the_callers_mpmath_precision(tiny_trained) -> None:
    import mpmath

    default = model_measures(tiny_trained, margin=0.25, delta=0.05)
    for digits in (8, 50):  # a caller working at 8 or 50 digits gets the same doubles, bit for bit
        with mpmath.workdps(digits):
            assert model_measures(tiny_trained, margin=0.25, delta=0.05) == default, digits


def test_spectra_are_computed_once_per_model(tiny_trained, monkeypatch) -> None:
    import numerics.ranking.measures as measures

    calls = []
    monkeypatch.setattr(measures, "matrix_spectra", lambda w, **k: calls.append(1) or matrix_spectra(w, **k))
    model_measures(tiny_trained, margin=0.25, delta=0.05)
    assert len(calls) == 1


@pytest.mark.slow
def test_a_dask_cluster_trains_the_same_records_as_local_processes(tmp_path) -> None:
    distributed = pytest.importorskip("distributed", reason="needs dask[distributed] (sweep extra)")
    points = TINY_PROFILE.points()
    local = study.run_study(points, jobs=1, cache=tmp_path / "local")
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as cluster:
        remote = study.run_study(points, cache=tmp_path / "remote", scheduler=cluster.scheduler_address)
    keep = ("key", "gap", "measures")  # the timings differ; the trained models and their numbers must not
    assert [{k: r.as_dict()[k] for k in keep} for r in remote] == [
        {k: r.as_dict()[k] for k in keep} for r in local
    ]
    assert len(list((tmp_path / "remote").glob("*.json"))) == len(points)  # the workers wrote the cache
