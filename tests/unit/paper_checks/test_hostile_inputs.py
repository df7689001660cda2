"""Regression tests of issue 14 (hostile inputs): one or more per numbered defect, each built in tmp_path.

Every test here failed on the code before the fix (a non-finite number printed, a hang, a traceback, a
clobbered file, a wrong message). Runs that could hang or eat memory on the old code go through
:func:`hostile_files.run_cli` (a subprocess under a timeout and a memory cap); the rest call ``main``.
Permission errors cannot be produced for root (the CI user here), so they are simulated by making the
OS call raise the error it would raise for another user.
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import shutil

import numpy as np
import pytest

from numerics.loading import load_weights
from paper_checks.cli import main
from tests.helpers.bert_checkpoint_files import bert_config, projection, tiny_bert_tensors, write_folder
from tests.helpers.hostile_files import (
    assert_error_line,
    assert_one_line_error,
    call,
    deadline,
    onnx_bert,
    run_cli,
    strict_json,
)
from tests.helpers.paths import ROOT
from theory.errors import CheckpointError, UnsupportedCheckpoint

pytest.importorskip("safetensors", reason="writing the checkpoints needs safetensors (models extra)")


def checkpoint(folder, *, scale=None, layers=1, hidden=8, ffn=16, **overrides):
    """A float64 tiny BERT folder; ``scale`` maps module name fragment -> factor; overrides set tensors."""
    tensors = {
        k: v.astype(np.float64) for k, v in tiny_bert_tensors(layers=layers, hidden=hidden, ffn=ffn).items()
    }
    for fragment, factor in (scale or {}).items():
        for name in tensors:
            if fragment in name and name.endswith(".weight"):
                tensors[name] = tensors[name] * factor
    tensors.update(overrides)
    return write_folder(folder, tensors, bert_config(layers, hidden, 2, ffn))


# ---------------------------------------------------------------- 1. non-finite numbers


def test_1_a_norm_beyond_float64_is_refused_by_name_never_printed_as_infinity(tmp_path, capsys):
    # W_out = 1e306 * (+-1), 8 x 64: every singular value and the (2,1) norm fit float64, the (1,1) norm
    # (512e306) does not; the old code printed "norm_11": Infinity and exit 0, and wrote inf in the CSV.
    rng = np.random.default_rng(1)
    w_out = 1e306 * rng.choice([-1.0, 1.0], size=(8, 64))
    folder = checkpoint(tmp_path / "big", ffn=64, **{"encoder.layer.0.output.dense.weight": w_out})
    status, out, err = call(capsys, "bound", folder, "--json", "--csv", tmp_path / "rows.csv")
    assert "Infinity" not in out and "NaN" not in out
    assert_error_line(status, err, "bound", str(folder), "L0.M_out", "(1,1) norm", "float64")
    assert not (tmp_path / "rows.csv").exists()


def test_1_json_of_extreme_but_representable_weights_holds_only_finite_numbers(tmp_path, capsys):
    folder = checkpoint(tmp_path / "large", scale={"intermediate.dense": 1e300})
    status, out, err = call(capsys, "bound", folder, "--json")
    assert status == 0, err
    report = strict_json(out)
    m_in = next(r for r in report["matrices"] if r["kind"] == "M_in")
    assert 1e300 < m_in["norm_11"] < 1e303


# ---------------------------------------------------------------- 2. weights scaled by 1e154 and beyond


def test_2_huge_weights_are_refused_by_name_without_lapack_noise(tmp_path, capfd):
    folder = checkpoint(tmp_path / "e154", scale={"encoder": 1e154})
    assert main(["bound", str(folder), "--json"]) == 2
    out, err = capfd.readouterr()  # file-descriptor level: LAPACK's DLASCL message bypasses sys.stdout
    assert out == "" and "DLASCL" not in err
    assert "numerically zero" not in err
    assert "L0.H0.QK" in err and str(folder) in err and "exceeds float64's range" in err


def test_2_singular_values_scale_exactly_with_a_power_of_two(tmp_path):
    from numerics.spectra.matrices import extract_matrices
    from numerics.spectra.spectrum import spectrum

    base = load_weights(checkpoint(tmp_path / "one"))
    big = load_weights(checkpoint(tmp_path / "big", scale={"attention": 2.0**500}))
    for small_matrix, big_matrix in zip(extract_matrices(base)[:2], extract_matrices(big)[:2], strict=True):
        expected = spectrum(small_matrix).singular_values * 2.0**1000
        np.testing.assert_array_equal(spectrum(big_matrix).singular_values, expected)


# ---------------------------------------------------------------- 3. hangs


def test_3_an_onnx_identity_cycle_does_not_hang(tmp_path, capsys):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    path = onnx_bert(tmp_path / "cycle.onnx", tiny_bert_tensors(), identity_cycle=True)
    with deadline(30, "the Identity cycle"):
        status, _, err = call(capsys, "inspect", path, "--num-heads", 2)
    assert_error_line(status, err, "inspect", "wq")  # the cycled weight is not a constant: layer 0 lacks wq


def test_3_a_grid_beyond_the_maximum_is_refused_before_any_allocation(tmp_path):
    # In a subprocess under a memory cap: the old code allocated a grid of 2e9 points.
    result = run_cli("bound", checkpoint(tmp_path / "tiny"), "--grid-m", 1_000_000_000, timeout=60)
    assert_one_line_error(result, "bound", "m=1000000000 is outside [1, 10000]")


def test_3_precision_beyond_the_maximum_is_refused(tmp_path, capsys):
    with deadline(30, "--dps 100000"):
        status, _, err = call(capsys, "bound", checkpoint(tmp_path / "tiny"), "--dps", 100_000)
    assert_error_line(status, err, "bound", "dps=100000 is outside [15, 2000]")


def test_3_help_states_the_bounds(capsys):
    with pytest.raises(SystemExit):
        main(["bound", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "15 to 2000" in text and "M from 1 to 10000" in text


def test_3_a_fifo_named_like_a_checkpoint_is_refused_not_opened(tmp_path):
    fifo = tmp_path / "model.safetensors"
    os.mkfifo(fifo)
    result = run_cli("inspect", fifo, "--num-heads", 2, timeout=60)
    assert_one_line_error(result, "inspect", str(fifo), "FIFO")


# ---------------------------------------------------------------- 4. ONNX external data


def test_4_external_data_outside_the_model_folder_is_refused_whatever_onnx_does(tmp_path, monkeypatch):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    import onnx.external_data_helper as helper

    tensors = tiny_bert_tensors()
    secret = tmp_path / "outside" / "secret.bin"
    secret.parent.mkdir()
    secret.write_bytes(tensors["encoder.layer.0.attention.self.query.weight"].T.copy().tobytes())
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "weights.bin").symlink_to(secret)
    path = onnx_bert(folder / "model.onnx", tensors, external="weights.bin")

    # Simulate onnx < 1.21, which followed the symlink: open the location with no check at all.
    def naive_open(base_dir, location, tensor_name, *rest):
        return os.open(os.path.join(base_dir, location), os.O_RDONLY)

    monkeypatch.setattr(helper, "_open_external_data_fd", naive_open)
    with pytest.raises(CheckpointError, match=r"weights\.bin.*outside the folder"):
        load_weights(path, num_heads=2)


def test_4_external_data_inside_the_folder_is_read(tmp_path):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    tensors = tiny_bert_tensors()
    query = tensors["encoder.layer.0.attention.self.query.weight"]
    (tmp_path / "weights.bin").write_bytes(query.T.copy().tobytes())
    weights = load_weights(onnx_bert(tmp_path / "m.onnx", tensors, external="weights.bin"), num_heads=2)
    np.testing.assert_array_equal(weights.layers[0].wq, query.astype(np.float64))


def test_4_the_onnx_minimum_refuses_symlinked_external_data():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"onnx>=1.21"' in text  # onnx 1.21.0 fixed CVE-2026-27489 (external data through a symlink)


# ---------------------------------------------------------------- 5. ONNX int8 weights


def test_5_onnx_int8_weights_are_refused_like_safetensors_int8(tmp_path):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    tensors = {k: (v * 50) for k, v in tiny_bert_tensors().items()}
    path = onnx_bert(tmp_path / "int8.onnx", tensors, weight_dtype=np.int8)
    with pytest.raises(UnsupportedCheckpoint, match=r"dtype int8; only float checkpoints are supported"):
        load_weights(path, num_heads=2)


# ---------------------------------------------------------------- 6. tracebacks -> one line


def nested_config(folder):
    checkpoint(folder)
    (folder / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    return folder, "config.json"


def huge_integer_config(folder):
    checkpoint(folder)
    (folder / "config.json").write_text('{"hidden_size": 1' + "0" * 5000 + "}")
    return folder, "config.json"


def long_name(folder):
    folder.mkdir()
    return folder / ("a" * 300 + ".safetensors"), "file name too long"


def torch_bin(folder, make_tensor):
    torch = pytest.importorskip("torch", reason="writing a .bin needs torch (models extra)")
    folder.mkdir()
    state = {k: torch.from_numpy(v.copy()) for k, v in tiny_bert_tensors().items()}
    state["encoder.layer.0.attention.self.query.weight"] = make_tensor(torch)
    (folder / "config.json").write_text(json.dumps(bert_config()))
    torch.save(state, folder / "pytorch_model.bin")
    return folder


def sparse_bin(folder):
    return torch_bin(folder, lambda torch: torch.eye(8).to_sparse()), "sparse"


def meta_bin(folder):
    return torch_bin(folder, lambda torch: torch.empty(8, 8, device="meta")), "meta tensor"


def string_onnx(folder):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    folder.mkdir()
    return onnx_bert(folder / "s.onnx", tiny_bert_tensors(), weight_dtype=object), "dtype object"


@pytest.mark.parametrize(
    "make", [nested_config, huge_integer_config, long_name, sparse_bin, meta_bin, string_onnx]
)
def test_6_bad_files_give_one_line_not_a_traceback(tmp_path, capsys, make):
    path, needle = make(tmp_path / "ckpt")
    status, out, err = call(capsys, "inspect", path, "--num-heads", 2)
    assert_error_line(status, err, "inspect", needle)
    assert out == ""


def test_6_an_unknown_home_directory_is_one_line(capsys):
    status, _, err = call(capsys, "inspect", "~no_such_user_zz/x.safetensors")
    assert_error_line(status, err, "inspect", "~no_such_user_zz")


def deny_under(monkeypatch, folder):
    """Make every stat of a path strictly inside ``folder`` fail as for a folder without search permission."""
    original = pathlib.Path.stat

    def stat(self, *args, **kwargs):
        if str(self).startswith(f"{folder}{os.sep}"):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "stat", stat)


def test_6_an_unreadable_checkpoint_folder_is_one_line(tmp_path, capsys, monkeypatch):
    folder = checkpoint(tmp_path / "locked")
    deny_under(monkeypatch, folder)
    status, _, err = call(capsys, "inspect", folder)
    assert_error_line(status, err, "inspect", str(folder), "permission denied")


def test_6_a_report_path_that_is_a_file_fails_before_the_work(tmp_path, capsys):
    target = tmp_path / "report"
    target.write_text("not a folder")
    status, out, err = call(capsys, "check", "--only", "1", "--report", target)
    assert_error_line(status, err, "check", "is a file")
    assert out == ""  # refused before any claim ran


def test_6_a_gap_report_path_that_is_a_file_fails_before_training(tmp_path, capsys):
    pytest.importorskip("torch", reason="gap trains with torch (models extra)")
    target = tmp_path / "gap"
    target.write_text("not a folder")
    status, out, err = call(capsys, "gap", "--report", target)
    assert_error_line(status, err, "gap", "is a file")
    assert out == ""


def test_6_a_figures_path_that_is_a_file_fails_before_the_work(tmp_path, capsys):
    target = tmp_path / "figures"
    target.write_text("not a folder")
    status, out, err = call(
        capsys, "scaling", "--grid", "none", "--no-real", checkpoint(tmp_path / "c"), "--figures", target
    )
    assert_error_line(status, err, "scaling", "is a file")
    assert out == ""


def test_6_a_claim_file_with_a_syntax_error_is_reported_as_that_claim_crashing(tmp_path, capsys):
    (tmp_path / "c99_broken.py").write_text("def check(:\n")
    status, out, err = call(capsys, "check", "--claims-dir", tmp_path, "--only", "1,99")
    assert status not in (0, 2) and "Traceback" not in err
    assert "claim 99 crashed" in err and "SyntaxError" in err and "c99_broken.py" in err
    assert out.splitlines()[1].startswith("1 ")  # claim 1 still ran


def test_6_stdout_on_a_full_disk_is_one_line(tmp_path):
    folder = checkpoint(tmp_path / "c")
    with open("/dev/full", "w") as full:
        result = run_cli("inspect", folder, "--json", stdout=full)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr == "specbound inspect: error: no space left on device\n"


# ---------------------------------------------------------------- 7. files


def test_7_csv_never_replaces_the_checkpoint_config(tmp_path, capsys):
    folder = checkpoint(tmp_path / "c")
    config = (folder / "config.json").read_text()
    for extra in ([], ["--force"]):
        status, _, err = call(capsys, "bound", folder, "--csv", folder / "config.json", *extra)
        assert status == 2 and "--csv" in err
    assert (folder / "config.json").read_text() == config


def test_7_csv_refuses_an_existing_file_unless_forced_and_replaces_it_atomically(tmp_path, capsys):
    folder = checkpoint(tmp_path / "c")
    target, other_name = tmp_path / "rows.csv", tmp_path / "old-rows.csv"
    target.write_text("old\n")
    os.link(target, other_name)  # a second name of the old file: an in-place rewrite would show through it
    status, _, err = call(capsys, "bound", folder, "--csv", target)
    assert_error_line(status, err, "bound", "already exists", "--force")
    status, _, err = call(capsys, "bound", folder, "--csv", target, "--force")
    assert status == 0, err
    assert target.read_text().startswith("layer,head,kind") and other_name.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "old-rows.csv", "rows.csv"]  # no temp left


def test_7_csv_never_replaces_a_symbolic_link_or_a_folder(tmp_path, capsys):
    folder = checkpoint(tmp_path / "c")
    (tmp_path / "link.csv").symlink_to(tmp_path / "elsewhere.csv")
    for target in (tmp_path / "link.csv", tmp_path):
        status, _, err = call(capsys, "bound", folder, "--csv", target, "--force")
        assert_error_line(status, err, "bound", "symbolic link")
    assert (tmp_path / "link.csv").is_symlink()


def test_7_an_empty_csv_name_is_an_error(tmp_path, capsys):
    status, _, err = call(capsys, "bound", checkpoint(tmp_path / "c"), "--csv", "")
    assert_error_line(status, err, "bound", "--csv needs a file name")


def test_7_report_refuses_to_replace_an_existing_report_before_the_work(tmp_path, capsys):
    (tmp_path / "report.md").write_text("my notes")
    status, out, err = call(capsys, "check", "--only", "1", "--report", tmp_path)
    assert_error_line(status, err, "check", "report.md", "--force")
    assert out == "" and (tmp_path / "report.md").read_text() == "my notes"


def test_7_verdicts_are_printed_even_when_the_report_cannot_be_written(tmp_path, capsys, monkeypatch):
    import paper_checks.report as report

    def disk_full(context, directory):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(report, "_figures", disk_full)
    status, out, err = call(capsys, "check", "--quiet", "--only", "1", "--report", tmp_path / "out")
    assert_error_line(status, err, "check", "no space left on device")
    assert out.splitlines()[1].startswith("1 ") and "verified" in out.splitlines()[1]


def test_7_ctrl_c_while_writing_the_report_leaves_no_partial_report(tmp_path, capsys, monkeypatch):
    import paper_checks.report as report

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "_figures", lambda context, directory: {})
    monkeypatch.setattr(report, "render_markdown", interrupted)
    status, _, err = call(capsys, "check", "--only", "1", "--report", tmp_path / "out")
    assert status == 130 and "Traceback" not in err
    assert list((tmp_path / "out").iterdir()) == []


# ---------------------------------------------------------------- 8. --claims-dir

USER_CLAIM = """
from paper_checks.registry import Claim, ClaimResult, Verdict
CLAIM = Claim("{id}", "user claim {id}", lambda context: {body})
"""


def user_claim(folder, name, claim_id, body):
    (folder / name).write_text(USER_CLAIM.format(id=claim_id, body=body))


def test_8_only_imports_the_selected_claim_files(tmp_path, capsys):
    marker = tmp_path / "imported"
    (tmp_path / "c98_side_effect.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    user_claim(tmp_path, "c99_ok.py", "99", 'ClaimResult("99", "t", Verdict.VERIFIED, "derived", "ok")')
    status, out, _ = call(capsys, "check", "--claims-dir", tmp_path, "--only", "99")
    assert status == 0 and "99" in out
    assert not marker.exists()


def test_8_a_claim_calling_sys_exit_is_reported_and_the_others_still_run(tmp_path, capsys):
    user_claim(tmp_path, "c97_exit.py", "97", "__import__('sys').exit(3)")
    user_claim(tmp_path, "c99_ok.py", "99", 'ClaimResult("99", "t", Verdict.VERIFIED, "derived", "ok")')
    status, out, err = call(capsys, "check", "--claims-dir", tmp_path, "--only", "97,99")
    assert status not in (0, 2, 3) or "crashed" in err
    assert "claim 97 crashed: called sys.exit(3)" in err
    assert any(line.startswith("99 ") and "verified" in line for line in out.splitlines())


# ---------------------------------------------------------------- 9. scaling


def test_9_the_same_checkpoint_given_twice_or_copied_counts_once(tmp_path, capsys):
    from paper_checks.scaling import user_points

    folder = checkpoint(tmp_path / "a")
    shutil.copytree(folder, tmp_path / "copy")
    warnings = []
    points = user_points([str(folder), str(folder) + "/", str(tmp_path / "copy")], warn=warnings.append)
    assert len(points) == 1
    assert len(warnings) == 2 and "same weights" in warnings[1]


def test_9_a_non_checkpoint_subfolder_is_skipped_with_a_warning_naming_it(tmp_path, capsys):
    checkpoint(tmp_path / "models" / "a")
    (tmp_path / "models" / ".git" / "objects").mkdir(parents=True)
    status, out, err = call(
        capsys, "scaling", "--quiet", "--grid", "none", "--no-real", "--json", tmp_path / "models"
    )
    assert status == 0, err
    assert [p["label"] for p in strict_json(out)["points"]] == [str(tmp_path / "models" / "a")]
    assert err.count("\n") == 1 and "warning: skipping" in err and ".git" in err


def test_9_an_unreadable_subfolder_is_skipped_with_a_warning(tmp_path, capsys, monkeypatch):
    checkpoint(tmp_path / "models" / "a")
    locked = checkpoint(tmp_path / "models" / "b", scale={"encoder": 2.0})
    deny_under(monkeypatch, locked)
    status, out, err = call(capsys, "scaling", "--grid", "none", "--no-real", "--json", tmp_path / "models")
    assert status == 0, err
    assert len(strict_json(out)["points"]) == 1
    assert "skipping" in err and str(locked) in err and "permission denied" in err


# ---------------------------------------------------------------- 10. messages


def test_10_permission_denied_is_not_reported_as_missing(tmp_path, capsys, monkeypatch):
    folder = checkpoint(tmp_path / "c")
    weights_file = str(folder / "model.safetensors")
    original = os.open

    def refuse(path, *args, **kwargs):
        if os.fspath(path) == weights_file:
            raise PermissionError(errno.EACCES, "Permission denied", weights_file)
        return original(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    status, _, err = call(capsys, "inspect", folder)
    assert_error_line(status, err, "inspect", weights_file, "permission denied")
    assert "No such file" not in err


def test_10_the_onnx_missing_heads_hint_does_not_suggest_a_config_it_ignores(tmp_path):
    pytest.importorskip("onnx", reason="ONNX loading needs the onnx package (specbound[models])")
    (tmp_path / "config.json").write_text(json.dumps(bert_config()))
    with pytest.raises(CheckpointError, match="cannot be inferred") as error:
        load_weights(onnx_bert(tmp_path / "m.onnx", tiny_bert_tensors()))
    assert "config.json" not in str(error.value) and "num_heads=" in str(error.value)


def test_10_a_pruned_bert_is_bounded_with_its_zero_heads_at_rank_0(tmp_path, capsys):
    """Head 0's query block and head 1's value block zeroed (2 heads of width 4): QK_0 = 0 and Vt_1 = 0,
    reported at rank 0 with contribution 0, the other matrices at full rank, B_ours finite."""
    tensors = tiny_bert_tensors(layers=1)
    projection(tensors, 0, "wq")[0:4, :] = 0.0
    projection(tensors, 0, "wv")[4:8, :] = 0.0
    folder = write_folder(tmp_path / "pruned", tensors, bert_config(layers=1))
    status, out, _ = call(capsys, "bound", folder, "--json")
    report = strict_json(out)
    ranks = {(r["head"], r["kind"]): (r["rank"], r["contribution"]) for r in report["matrices"]}
    assert status == 0 and np.isfinite(report["proxies"]["ours"])
    assert ranks[(0, "QK")] == (0, 0.0) and ranks[(1, "Vt")] == (0, 0.0)
    assert ranks[(1, "QK")][0] == 4 and ranks[(0, "Vt")][0] == 4
    from numerics.bounds.assembled import assembled_bound
    from numerics.certify.assembled import certify_assembled

    weights = load_weights(folder)  # the assembled bound peels the zero matrices at shell j = 0 (norm <= 1)
    exact = assembled_bound(weights, n=1000, delta=0.05, margin=0.5, T=8)
    certified = certify_assembled(weights, n=1000, delta=0.05, margin=0.5, T=8)
    shells = {(r.matrix.head, r.matrix.kind.value): r.spectral_shell for r in exact.matrices[:4]}
    assert shells[(0, "QK")] == 0 and shells[(1, "Vt")] == 0
    assert np.isfinite(float(exact.gap)) and certified.gap.contains(exact.gap)


class Payload:
    """An arbitrary object: a weights-only unpickler refuses it."""


def test_10_a_refused_pickle_is_one_line_without_terminal_codes(tmp_path, capsys):
    torch = pytest.importorskip("torch", reason="writing a .bin needs torch (models extra)")
    path = tmp_path / "pytorch_model.bin"
    torch.save({"x": Payload()}, path)
    status, _, err = call(capsys, "inspect", path, "--num-heads", 2)
    assert_error_line(status, err, "inspect", str(path), "weights-only load refuses")
    assert "\x1b" not in err and "Unsupported global" in err


def test_10_inspect_columns_stay_apart_for_large_norms(tmp_path, capsys):
    folder = checkpoint(tmp_path / "c", scale={"encoder": 1e6})
    status, out, _ = call(capsys, "inspect", folder)
    assert status == 0
    row = next(line for line in out.splitlines() if line.strip().startswith("0 "))
    cells = row.split()
    assert len(cells) == 9  # layer, six norms, max_h QK_h and its (head)
    assert float(cells[1]) == pytest.approx(
        1e6 * np.linalg.norm(projection(tiny_bert_tensors(), 0, "wq").astype(np.float64), 2), rel=1e-4
    )
