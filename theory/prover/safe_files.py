"""Files the user names, read and written without surprises: one module every reader and writer uses.

A path may name anything: a FIFO (opening it blocks until a writer comes, and a blocked ``open`` ignores
Ctrl-C), a device such as ``/dev/zero`` (endless), a directory, a symlink loop, a sparse file of
gigabytes, or a file the OS refuses to open. Reading (:func:`read_bytes`, :func:`read_json`) opens the
path non-blocking, checks on the open descriptor that it is a regular file and that its size is within
the caller's limit, and only then reads (at most limit + 1 bytes): anything else is one
:class:`~theory.errors.SpecboundError` line naming the file. Writing (:func:`atomic_path`,
:func:`write_text_atomically`) goes through a temporary file in the target's folder, renamed onto the
target when complete (``os.replace``; with ``exclusive``, a hard link that fails if the target appeared
meanwhile), so a reader never sees a half-written file, a symbolic link at the target is replaced rather
than followed, and an interrupted write (an error, Ctrl-C, SIGTERM raised as an interrupt) leaves no
temporary file behind. Which targets may be written at all (never an input, never an existing file
without ``--force``) is checked before the work by ``paper_checks.output_files.check_target``.
Provenance: not applicable (file handling).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

from theory.errors import CheckpointError, InvalidArgument, SpecboundError

MAX_JSON_BYTES = 64 << 20
"""Largest JSON file read (a shard index, a cache entry, a certificate, an earlier run's output): 64 MiB."""

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
    except (OSError, ValueError) as problem:  # ValueError: a NUL in the name
        why = os_problem(problem) if isinstance(problem, OSError) else "the name holds a NUL character"
        raise error(f"{shown} cannot be read: {why}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
            raise error(f"{shown} is {kind}; specbound reads only regular files")
        yield descriptor
    finally:
        os.close(descriptor)


def read_bytes(
    path: Path, limit: int, shown: str = "", error: type[SpecboundError] = InvalidArgument, what: str = "file"
) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes: the size is checked on the open
    descriptor before anything is read, and at most ``limit + 1`` bytes are read (a file growing
    meanwhile is refused too). ``error`` (one line naming the file as ``shown``, a ``what``) otherwise."""
    shown = shown or str(path)
    with _opened_regular(path, shown, error) as descriptor:
        try:
            size = os.fstat(descriptor).st_size
            if size <= limit:
                with os.fdopen(os.dup(descriptor), "rb") as handle:
                    data = handle.read(limit + 1)
        except OSError as problem:
            raise error(f"{shown} cannot be read: {os_problem(problem)}") from None
    if size > limit or len(data) > limit:
        raise error(f"{shown} holds over {limit} bytes ({size} on disk), more than a {what} may have")
    return data


def read_json(
    path: Path, shown: str = "", error: type[SpecboundError] = CheckpointError, limit: int = MAX_JSON_BYTES
) -> object:
    """The JSON value in ``path``, a regular file of at most ``limit`` bytes of UTF-8; ``error`` (one line
    naming the file as ``shown``) for anything else: a FIFO or device, a larger file, bytes that are not
    UTF-8, text that is not JSON, nesting deeper than Python's recursion limit, an integer of more digits
    than Python's int-str limit (4300). The caller checks the value's types."""
    shown = shown or str(path)
    data = read_bytes(path, limit, shown, error, "JSON input")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as problem:
        raise error(f"{shown} is not UTF-8 text ({problem.reason} at byte {problem.start})") from None
    except RecursionError:
        raise error(f"{shown} is not readable JSON: nested too deeply") from None
    except ValueError as problem:  # malformed JSON; an integer over the int-str digit limit
        digits = "integer string conversion" in str(problem)
        why = f"an integer of more than {sys.get_int_max_str_digits()} digits" if digits else problem
        raise error(f"{shown} is not readable JSON: {why}") from None


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


_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@contextlib.contextmanager
def atomic_path(target: Path, exclusive: bool = False) -> Iterator[Path]:
    """A temporary path beside ``target`` (same suffix) to write to; moved onto ``target`` when the block
    ends normally, deleted when it raises (including KeyboardInterrupt). With ``exclusive``, an existing
    ``target`` (even one created while the block ran) is never replaced: InvalidArgument instead.

    The temporary's name is recorded before the file is created (exclusively, under the usual umask), so an
    interrupt at any point, whichever thread the signal lands on, leaves no temporary behind."""
    import secrets

    temporary: Path | None = None
    try:
        while temporary is None:
            candidate = target.parent / f".{target.name}.{secrets.token_hex(8)}{target.suffix}"
            temporary = candidate
            try:
                os.close(os.open(candidate, _CREATE_FLAGS, 0o666))
            except FileExistsError:  # another file has this random name: not ours to delete
                temporary = None
        yield temporary
        if exclusive:
            try:
                os.link(temporary, target)
            except FileExistsError:
                raise InvalidArgument(f"{target} already exists; pass --force to replace it") from None
        else:
            os.replace(temporary, target)
    finally:
        if temporary is not None:
            temporary.unlink(missing_ok=True)


def write_text_atomically(target: Path, text: str, exclusive: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``target`` through :func:`atomic_path`."""
    with atomic_path(target, exclusive) as temporary:
        temporary.write_text(text, encoding="utf-8")
