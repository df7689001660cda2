"""Files without surprises: inputs only regular files inside their folder, outputs written atomically.

A checkpoint path may name anything: a FIFO (opening it blocks until a writer comes, and a blocked
``open`` ignores Ctrl-C), a device such as ``/dev/zero`` (endless), a directory, a symlink loop, a file
the OS refuses to open, or (through a symlink or a parent-folder step) a file outside the checkpoint's
folder. The helpers here turn each case into one :class:`~theory.errors.CheckpointError` naming the path and
the problem, before any reader (safetensors, torch, onnx) touches it: :func:`inside` for every file a
checkpoint names (shards, external data, its config), :func:`read_json` for every JSON file specbound did
not write itself (shard indexes, cache entries, an earlier run's output). Every output (reports, tables,
figures, caches) goes through :func:`atomic_path`: a reader never sees a half-written file.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from theory.errors import CheckpointError, InvalidArgument, SpecboundError

MAX_JSON_BYTES = 64 << 20
"""Largest JSON file read (a shard index, a cache entry, an earlier run's output): 64 MiB."""

_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def os_problem(error: OSError) -> str:
    """A short, accurate description of an OSError ("permission denied", "file name too long", ...)."""
    if isinstance(error, PermissionError):
        return "permission denied"
    if error.errno == errno.ELOOP:
        return "a symbolic link loop"
    return (error.strerror or type(error).__name__).lower()


def regular_file(path: Path, shown: str = "", error: type[SpecboundError] = CheckpointError) -> Path:
    """``path`` if it is a regular file (symlinks followed) that can be opened for reading.

    The file is opened non-blocking (a FIFO does not block then) and its type checked on the open
    descriptor, so what is checked is what would be read. Raises ``error`` otherwise, naming the file as
    ``shown`` (default: the path).
    """
    with _opened_regular(path, shown or str(path), error):
        return path


@contextlib.contextmanager
def _opened_regular(path: Path, shown: str, error: type[SpecboundError]) -> Iterator[int]:
    """A descriptor of ``path`` opened non-blocking and checked to be a regular file; closed afterwards."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise error(f"{shown} does not exist") from None
    except OSError as problem:
        raise error(f"{shown} cannot be read: {os_problem(problem)}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
            raise error(f"{shown} is {kind}; specbound reads only regular files")
        yield descriptor
    finally:
        os.close(descriptor)


def read_json(
    path: Path, shown: str = "", error: type[SpecboundError] = CheckpointError, limit: int = MAX_JSON_BYTES
) -> object:
    """The JSON value in ``path``, a regular file of at most ``limit`` bytes of UTF-8; ``error`` (one line
    naming the file as ``shown``) for anything else: a FIFO or device, a larger file, bytes that are not
    UTF-8, text that is not JSON, nesting deeper than Python's recursion limit, an integer of more digits
    than Python's int-str limit (4300). The caller checks the value's types."""
    shown = shown or str(path)
    with _opened_regular(path, shown, error) as descriptor:
        try:
            size = os.fstat(descriptor).st_size
            if size > limit:
                raise error(f"{shown} holds {size} bytes, over the {limit >> 20} MiB a JSON input may have")
            with os.fdopen(os.dup(descriptor), "rb") as handle:
                data = handle.read(limit + 1)
        except OSError as problem:
            raise error(f"{shown} cannot be read: {os_problem(problem)}") from None
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as problem:
        raise error(f"{shown} is not UTF-8 text ({problem.reason} at byte {problem.start})") from None
    except RecursionError:
        raise error(f"{shown} is not readable JSON: nested too deeply") from None
    except ValueError as problem:  # malformed JSON; an integer over the int-str digit limit
        raise error(f"{shown} is not readable JSON: {problem}") from None


def checkpoint_root(folder: Path) -> Path:
    """The folder a checkpoint's files must resolve inside: ``folder`` itself, or, for a snapshot of a
    Hugging Face hub cache (``models--ORG--NAME/snapshots/REVISION``, whose files are links into the
    repository's ``blobs/``), that ``models--ORG--NAME`` folder. ``folder`` is resolved already."""
    snapshots = folder.parent
    if snapshots.name == "snapshots" and snapshots.parent.name.startswith("models--"):
        return snapshots.parent
    return folder


def inside(folder: Path, relative: str, what: str) -> Path:
    """``folder / relative`` with symlinks resolved, if it stays inside ``folder`` (or the hub-cache
    repository folder of :func:`checkpoint_root`); else CheckpointError.

    ``what`` names the file that points there (e.g. "model.onnx's external data"), for the message.
    """
    try:
        folder = folder.resolve()
        root = checkpoint_root(folder)
        target = (folder / relative).resolve()
    except (
        OSError,
        RuntimeError,
        ValueError,
    ) as error:  # a link loop is a RuntimeError (3.11); NUL: ValueError
        raise CheckpointError(f"{what} points to {relative!r}, which cannot be resolved: {error}") from None
    if not target.is_relative_to(root):
        raise CheckpointError(
            f"{what} points to {relative!r}, which resolves to {target}, outside the folder {root}; "
            "specbound reads only files inside the checkpoint's folder"
        )
    return regular_file(target)


def writable_folder(option: str, folder: Path) -> None:
    """InvalidArgument unless ``folder`` is an existing folder this process may create files in (tried:
    permissions, a read-only mount, quotas); ``option`` names what the folder is for."""
    if not folder.is_dir():
        raise InvalidArgument(f"{option} cannot be written: the folder {folder} does not exist")
    try:
        import tempfile  # here, not at the top: 5 ms of every start-up (shutil, random)

        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise InvalidArgument(f"{option} cannot be written in {folder}: {os_problem(error)}") from None


@contextlib.contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """A temporary path beside ``target`` (same suffix) to write to; renamed onto ``target`` when the
    block ends normally, deleted when it raises (including KeyboardInterrupt)."""
    import tempfile

    descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=target.suffix)
    os.close(descriptor)
    temporary = Path(name)
    umask = os.umask(0)
    os.umask(umask)
    temporary.chmod(0o666 & ~umask)  # mkstemp makes it private; the output gets the usual permissions
    try:
        yield temporary
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def write_text_atomically(target: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``target`` through :func:`atomic_path`."""
    with atomic_path(target) as temporary:
        temporary.write_text(text, encoding="utf-8")
