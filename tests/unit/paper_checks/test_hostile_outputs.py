"""Hostile targets and inputs of the prover's commands (issue 44, items 1, 2, 5 and 7): every file
``prove --coq``, ``theory --coq``, ``derive --certificate`` and ``growth --certificate`` write is checked
before the work (never an input, never an existing file without ``--force``, never through a symbolic link
or into a FIFO) and written atomically; every file ``derive`` and ``prove --check`` read is a regular file
whose size is checked before it is read. Each case calls ``main`` in-process (nothing here can block: the
readers open non-blocking) and asserts the file system afterwards, not only the exit status.
"""

from __future__ import annotations

import os
import signal

import pytest

from tests.helpers.hostile_files import assert_error_line, call

pytest.importorskip("flint", reason="the prover needs python-flint")

DERIVATION = '[variables]\nx = "[0, 1]"\n[[steps]]\nexpr = "x"\n[[steps]]\nrelation = "<="\nexpr = "x + 1"\n'
PROVE = ["prove", "x <= x + 1", "--domain", "x: [0, 1]"]


def files(folder):
    """{name: text} of the regular files in ``folder``; a link as '-> target'."""
    found = {}
    for path in sorted(folder.iterdir()):
        found[path.name] = f"-> {os.readlink(path)}" if path.is_symlink() else path.read_text()
    return found


@pytest.fixture
def derivation(tmp_path):
    path = tmp_path / "in.toml"
    path.write_text(DERIVATION)
    return path


# ---------------------------------------------------------------- 1. outputs


def test_1_prove_coq_never_replaces_a_users_file_nor_its_numbered_siblings(tmp_path, capsys):
    (tmp_path / "mine.v").write_text("mine")
    status, _, err = call(capsys, *PROVE, "--coq", tmp_path / "mine.v", "--no-coq-check")
    assert_error_line(status, err, "prove", "already exists", "--force")
    (tmp_path / "two_2.v").write_text("mine")
    two = ["prove", "x <= 1 and x >= 0", "--domain", "x: [0, 1]", "--coq", tmp_path / "two.v"]
    status, _, err = call(capsys, *two, "--no-coq-check")
    assert_error_line(status, err, "prove", "two_2.v", "already exists")
    assert files(tmp_path) == {"mine.v": "mine", "two_2.v": "mine"}
    assert call(capsys, *two, "--no-coq-check", "--force")[0] == 0
    assert "Theorem" in (tmp_path / "two_2.v").read_text() and (tmp_path / "two_1.v").is_file()


@pytest.mark.parametrize("kind", ["link", "dangling link", "fifo", "folder"])
def test_1_prove_coq_never_writes_through_a_link_or_into_a_special_file(tmp_path, capsys, kind):
    target, outside = tmp_path / "out" / "proof.v", tmp_path / "outside.v"
    target.parent.mkdir()
    outside.write_text("outside")
    make = {
        "link": lambda: target.symlink_to(outside),
        "dangling link": lambda: target.symlink_to(tmp_path / "absent.v"),
        "fifo": lambda: os.mkfifo(target),
        "folder": lambda: target.mkdir(),
    }
    make[kind]()
    for force in ([], ["--force"]):
        status, _, err = call(capsys, *PROVE, "--coq", target, "--no-coq-check", *force)
        assert_error_line(status, err, "prove", "a symbolic link or a special file")
    assert outside.read_text() == "outside" and not (tmp_path / "absent.v").exists()
    assert sorted(p.name for p in target.parent.iterdir()) == ["proof.v"]


def test_1_derive_certificate_never_replaces_its_input_or_a_referenced_file(tmp_path, derivation, capsys):
    for force in ([], ["--force"]):
        status, _, err = call(capsys, "derive", derivation, "--certificate", derivation, *force)
        assert_error_line(status, err, "derive", "is an input of this run")
    earlier = tmp_path / "earlier.toml"
    earlier.write_text(DERIVATION)
    later = tmp_path / "later.toml"
    later.write_text(DERIVATION.replace('expr = "x + 1"', 'expr = "x + 1"\nuses = ["file:earlier.toml"]'))
    status, _, err = call(capsys, "derive", later, "--certificate", earlier, "--force")
    assert_error_line(status, err, "derive", "is an input of this run")
    assert derivation.read_text() == DERIVATION and earlier.read_text() == DERIVATION


def test_1_derive_and_growth_certificates_need_force_to_replace(tmp_path, derivation, capsys):
    target = tmp_path / "c.json"
    target.write_text("mine")
    status, _, err = call(capsys, "derive", derivation, "--certificate", target)
    assert_error_line(status, err, "derive", "already exists", "--force")
    status, _, err = call(capsys, "growth", "L", "--versus", "L^2", "--in", "L", "--certificate", target)
    assert_error_line(status, err, "growth", "already exists", "--force")
    assert target.read_text() == "mine"
    assert call(capsys, "derive", derivation, "--certificate", target, "--force")[0] == 0
    assert target.read_text().startswith("{") and files(tmp_path).keys() == {"c.json", "in.toml"}


@pytest.mark.slow  # 3 s: the lemma inequalities are built to know the file names
def test_1_theory_coq_checks_its_folder_before_any_work(tmp_path, capsys, monkeypatch):
    from theory.paper_proofs.inequalities import all_lemma_inequalities

    def no_work():
        raise AssertionError("the lemmas were checked before the output folder")

    monkeypatch.setattr("theory.registry.run_all_checks", no_work)
    name = all_lemma_inequalities()[0].name
    (tmp_path / f"{name}_2.v").write_text("mine")
    status, _, err = call(capsys, "theory", "--coq", tmp_path, "--no-coq-check")
    assert_error_line(status, err, "theory", f"{name}_2.v", "already exists")
    (tmp_path / f"{name}_2.v").unlink()
    (tmp_path / f"{name}.v").symlink_to(tmp_path / "elsewhere.v")
    status, _, err = call(capsys, "theory", "--coq", tmp_path, "--no-coq-check", "--force")
    assert_error_line(status, err, "theory", "symbolic link")
    assert not (tmp_path / "elsewhere.v").exists()


def test_1_an_exclusive_write_never_replaces_a_file_that_appears_meanwhile(tmp_path):
    from theory.errors import InvalidArgument
    from theory.prover.safe_files import atomic_path

    target = tmp_path / "late.v"
    with (
        pytest.raises(InvalidArgument, match="already exists"),
        atomic_path(target, exclusive=True) as temporary,
    ):
        temporary.write_text("ours")
        target.write_text("theirs")
    assert files(tmp_path) == {"late.v": "theirs"}


# ---------------------------------------------------------------- 2 and 5. inputs


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "folder", "sparse"])
@pytest.mark.parametrize("command", ["derive", "prove --check", "file: reference"])
def test_2_5_special_or_huge_inputs_are_one_line(tmp_path, capsys, kind, command):
    hostile = tmp_path / "hostile.toml"
    if kind == "fifo":
        os.mkfifo(hostile)
    elif kind == "folder":
        hostile.mkdir()
    elif kind == "sparse":
        with open(hostile, "wb") as handle:
            handle.truncate(2 << 30)  # 2 GiB of holes: nothing on disk, everything if read
    else:
        hostile = "/dev/zero"
    if command == "derive":
        argv = ["derive", hostile]
    elif command == "prove --check":
        argv = ["prove", "--check", hostile]
    else:
        if kind == "/dev/zero":  # a link inside the folder to a device outside it
            (tmp_path / "hostile.toml").symlink_to(hostile)
        referring = tmp_path / "refers.toml"
        referring.write_text(
            DERIVATION.replace('expr = "x + 1"', 'expr = "x + 1"\nuses = ["file:hostile.toml"]')
        )
        argv = ["derive", referring]
    status, _, err = call(capsys, *argv)
    why = {"fifo": "FIFO", "/dev/zero": "character device", "folder": "directory", "sparse": "over"}
    if command == "file: reference" and kind == "/dev/zero":
        why[kind] = "outside the folder"
    assert_error_line(status, err, argv[0], why[kind])


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"format": ' + "1" * 4400 + "}", "more than 4300 digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("\xff\xfe", "not UTF-8"),
    ],
)
def test_5_a_hostile_json_certificate_is_one_line(tmp_path, capsys, text, needle):
    path = tmp_path / "c.json"
    path.write_bytes(text.encode("latin-1"))
    status, _, err = call(capsys, "prove", "--check", path)
    assert_error_line(status, err, "prove", needle)


# ---------------------------------------------------------------- 7. an interrupted write


def test_7_an_interrupted_coq_export_removes_the_files_it_wrote(tmp_path, capsys, monkeypatch):
    """Ctrl-C between the Coq files of two conjuncts: the first one written is removed (no partial set);
    a user's file replaced under --force stays replaced (it was written whole)."""
    import theory.prover.coq.files as coq_files

    original, written = coq_files._write, []

    def interrupted_at_the_second(path, *args, **kwargs):
        if written:
            raise KeyboardInterrupt
        written.append(path)
        return original(path, *args, **kwargs)

    monkeypatch.setattr(coq_files, "_write", interrupted_at_the_second)
    two = [
        "prove",
        "x <= 1 and x >= 0",
        "--domain",
        "x: [0, 1]",
        "--coq",
        tmp_path / "two.v",
        "--no-coq-check",
    ]
    status, _, err = call(capsys, *two)
    assert status == 130 and err == "specbound prove: error: interrupted\n"
    assert written == [tmp_path / "two_1.v"] and list(tmp_path.iterdir()) == []


def test_7_an_interrupt_at_once_after_the_temporary_is_made_leaves_nothing(tmp_path, monkeypatch):
    """SIGTERM delivered the moment the temporary file is created, with another thread alive (a
    process-directed signal may land on it, as with BLAS threads in a full test run), still leaves no
    temporary: its name was recorded before the file existed."""
    import threading

    from paper_checks.output_files import Terminated, sigterm_as_interrupt
    from theory.prover.safe_files import write_text_atomically

    create = os.open

    def interrupted(path, flags, *args, **kwargs):
        descriptor = create(path, flags, *args, **kwargs)
        if flags & os.O_CREAT:
            os.kill(os.getpid(), signal.SIGTERM)
        return descriptor

    release = threading.Event()
    bystander = threading.Thread(target=release.wait, daemon=True)
    bystander.start()
    monkeypatch.setattr(os, "open", interrupted)
    try:
        with pytest.raises(Terminated), sigterm_as_interrupt():
            write_text_atomically(tmp_path / "out.json", "{}")
    finally:
        monkeypatch.undo()
        release.set()
    assert list(tmp_path.iterdir()) == []
