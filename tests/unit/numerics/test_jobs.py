"""``bound --jobs N``: layers spread over worker processes give the serial run's numbers bit for bit."""

from __future__ import annotations

import json

import pytest

from numerics.batch.workers import check_jobs, ordered_map
from paper_checks.cli import main
from tests.helpers.bert_checkpoint_files import bert_config, tiny_bert_tensors, write_folder
from theory.errors import InvalidArgument

pytest.importorskip("safetensors", reason="writing the tiny checkpoint needs safetensors (models extra)")


def _bound_json(capsys, model: str, jobs: int) -> str:
    assert main(["bound", model, "--json", "--jobs", str(jobs)]) == 0
    return capsys.readouterr().out


def test_two_jobs_print_the_serial_json_exactly(tmp_path, capsys):
    tensors = tiny_bert_tensors(seed=3, layers=3, hidden=8, ffn=16)
    folder = write_folder(tmp_path / "m", tensors, bert_config(3, 8, 2, 16))
    serial = json.loads(_bound_json(capsys, str(folder), 1))
    parallel = json.loads(_bound_json(capsys, str(folder), 2))
    runs = [document.pop("run") for document in (serial, parallel)]  # the options differ by --jobs alone
    assert runs[0]["inputs"] == runs[1]["inputs"] and runs[1]["options"]["jobs"] == 2
    assert [document.pop("jobs")["workers"] for document in (serial, parallel)] == [1, 2]
    assert json.dumps(parallel) == json.dumps(serial)  # every number to the last digit
    assert len(serial["matrices"]) == 3 * (2 * 2 + 2)


def _index_after_sleep(context: float, item: int) -> int:
    import time

    time.sleep(context * (3 - item))  # the first item finishes last
    return item


def test_results_come_back_in_input_order_whatever_the_completion_order():
    assert list(ordered_map(_index_after_sleep, 0.05, [0, 1, 2, 3], jobs=2)) == [0, 1, 2, 3]


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_jobs_must_be_a_positive_integer(jobs):
    with pytest.raises(InvalidArgument, match="positive integer"):
        check_jobs(jobs)


def test_bound_refuses_zero_jobs_with_a_one_line_error(tmp_path, capsys):
    folder = write_folder(tmp_path / "m", tiny_bert_tensors(), bert_config())
    assert main(["bound", str(folder), "--jobs", "0"]) == 2
    assert "jobs=0 must be a positive integer" in capsys.readouterr().err


RECORDED_RELATIVE = 1e-10
"""How far the recorded MiniLM proxies may move on another CPU or BLAS. They come from LAPACK SVDs of
float64 matrices (N <= 1536), backward stable: another kernel moves each singular value by a few
N eps sigma_1. Measured across four OpenBLAS kernels (OPENBLAS_CORETYPE SkylakeX, Haswell, Sandybridge,
Prescott), and between the wide and the tall orientation of the feed-forward SVD: B_ours identical,
B_Edelman (a product of about a hundred spectral norms) within 7e-16. The
p = 0 terms are exact ranks and each p > 0 term is continuous in the singular values, so 1e-10 leaves
five orders of magnitude for other LAPACKs and stays far below what a code change moves (a constant of a
formula moves the proxies by 1e-3 or more). Within one machine --jobs 2 must give the serial digits."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "ours", "edelman"),
    [
        ("minilm-l6", 20573.029732297557, 6.8536790526189565e28),
        ("minilm-l3", 10243.205090577369, 16092501030898.354),
    ],
)
def test_minilm_proxies_with_two_jobs_keep_every_digit(capsys, model, ours, edelman):
    serial = json.loads(_bound_json(capsys, model, 1))["proxies"]
    parallel = json.loads(_bound_json(capsys, model, 2))["proxies"]
    assert (repr(parallel["ours"]), repr(parallel["edelman"])) == (
        repr(serial["ours"]),
        repr(serial["edelman"]),
    )
    assert parallel["ours"] == pytest.approx(ours, rel=RECORDED_RELATIVE)
    assert parallel["edelman"] == pytest.approx(edelman, rel=RECORDED_RELATIVE)


def test_skipping_the_entrywise_norms_keeps_the_proxies_and_says_so_when_one_is_asked(tmp_path):
    from numerics.bounds.proxies import proxies
    from numerics.loading import open_checkpoint
    from numerics.spectra.model import SpectraOptions

    folder = write_folder(tmp_path / "m", tiny_bert_tensors(), bert_config())
    lean, full = (
        proxies(open_checkpoint(folder), SpectraOptions(entrywise_norms=False)),
        proxies(open_checkpoint(folder)),
    )
    assert (lean.ours, lean.edelman) == (full.ours, full.edelman)
    with pytest.raises(InvalidArgument, match=r"\(1,1\) norm of L0.H0.QK was not computed"):
        _ = lean.matrices[0].spectrum.norm_11


@pytest.mark.parametrize(("load", "workers"), [(0.0, 2), (0.4, 2), (0.7, 1), (1.3, 1), (7.9, 1)])
def test_the_default_is_one_worker_per_core_the_load_leaves_free(monkeypatch, load, workers):
    from numerics.batch import workers as module

    monkeypatch.setattr(module.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(module.os, "getloadavg", lambda: (load, load, load))
    chosen, why = module.free_cores()
    assert chosen == workers and "2 usable" in why and f"{load:.2f}" in why


def test_bound_json_says_how_many_workers_ran_and_why(tmp_path, capsys, monkeypatch):
    from numerics.batch import workers as module

    folder = write_folder(tmp_path / "m", tiny_bert_tensors(), bert_config())
    assert json.loads(_bound_json(capsys, str(folder), 1))["jobs"] == {
        "workers": 1,
        "chosen": "given by --jobs",
    }
    monkeypatch.setattr(module.os, "getloadavg", lambda: (99.0, 99.0, 99.0))  # no core free: one worker
    assert main(["bound", str(folder), "--json"]) == 0
    jobs = json.loads(capsys.readouterr().out)["jobs"]
    assert jobs["workers"] == 1 and "one per free core" in jobs["chosen"] and "99.00" in jobs["chosen"]
