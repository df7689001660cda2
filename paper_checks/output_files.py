"""Writing the toolkit's output files safely: atomically, never over an input, never half-written.

Every file specbound writes (``bound --csv``, ``check --report``, ``scaling --figures``) goes through
:func:`atomic_path`: the content is written to a temporary file in the target's own folder and renamed
over the target only when complete (``os.replace``, atomic on POSIX), so a reader, a concurrent writer
or a Ctrl-C never leaves a spliced or truncated file. Targets are checked before the work
(:func:`check_target`): the folder must exist and be writable, an existing file is replaced only with
``--force``, and an input of the run is never replaced. JSON is rendered by :func:`json_text`, which
refuses non-finite numbers (JSON has none; Python would print ``Infinity``).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from numerics.safe_io import atomic_path, os_problem, write_text_atomically

__all__ = ["atomic_path", "check_target", "json_text", "prepare_folder", "write_text_atomically"]
from theory.errors import InvalidArgument


def json_text(payload: Any, what: str = "the output", indent: int = 2) -> str:
    """``payload`` as indented JSON; InvalidArgument if it holds NaN or an infinity (never printed)."""
    try:
        return json.dumps(payload, indent=indent, allow_nan=False)
    except ValueError as error:
        raise InvalidArgument(f"{what} holds a non-finite number ({error}); nothing was written") from None


def check_target(
    option: str, target: str | os.PathLike[str], *, force: bool = False, inputs: Iterable[Path] = ()
) -> Path:
    """The path ``option`` (e.g. ``--csv``) names, checked before any work: not empty, its folder exists
    and is writable, it is none of ``inputs``, and it does not exist unless ``force`` (and then is a
    plain file: a folder, a symbolic link such as /dev/stdout, a device or a FIFO is never replaced).
    """
    text = os.fspath(target)
    if not text:
        raise InvalidArgument(f"{option} needs a file name, got an empty string")
    path = Path(text)
    try:
        exists = os.path.lexists(path)
        regular = exists and stat.S_ISREG(path.lstat().st_mode)
    except OSError as error:
        raise InvalidArgument(f"{option} {text!r} cannot be used: {os_problem(error)}") from None
    if exists and not regular:  # a rename would replace the link or the device node itself
        raise InvalidArgument(
            f"{option} {text!r} is a folder, a symbolic link or a special file; give the path of a plain file"
        )
    if any(_same_file(path, Path(source)) for source in inputs):
        raise InvalidArgument(f"{option} {text!r} is an input of this run; specbound never writes over one")
    if exists and not force:
        raise InvalidArgument(f"{option} {text!r} already exists; pass --force to replace it")
    check_writable_folder(option, path.absolute().parent)  # the folder atomic_path writes into
    return path


def _same_file(path: Path, other: Path) -> bool:
    """True when both name the same file (through symlinks and hard links too); False if either is absent."""
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def check_writable_folder(option: str, folder: Path) -> None:
    """InvalidArgument unless ``folder`` is an existing folder this process may create files in."""
    if not folder.is_dir():
        raise InvalidArgument(f"{option} cannot be written: the folder {folder} does not exist")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise InvalidArgument(f"{option} cannot be written in {folder}: {os_problem(error)}") from None


def prepare_folder(option: str, folder: str | os.PathLike[str], names: Iterable[str], force: bool) -> Path:
    """The output folder of ``option`` (created if missing), checked before any work: writable, and
    holding none of the files ``names`` unless ``force``."""
    path, shown = Path(folder), f"{option} {os.fspath(folder)!r}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise InvalidArgument(f"{shown} is a file, not a folder") from None
    except OSError as error:
        raise InvalidArgument(f"{shown} cannot be created: {os_problem(error)}") from None
    check_writable_folder(option, path)
    existing = sorted(name for name in names if (path / name).exists())
    if existing and not force:
        raise InvalidArgument(f"{shown} already holds {', '.join(existing)}; pass --force to replace them")
    return path
