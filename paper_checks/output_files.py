"""Writing the output files: checked before the work, atomically, never over an input, never half-written.

One rule for every file a command writes (``bound --csv``/``--parquet``, ``sweep --out``/``--figures``,
``scaling --figures``, ``check --report``, ``correlate --report``): every target is checked before the
work starts (:func:`check_target`, :func:`prepare_folder`): its folder exists and is writable, it is no
input of the run (:func:`checkpoint_inputs`: weights, shards, configs, an alias's installed file,
whatever the options), an existing file is replaced only with ``--force`` and only if it is a plain file,
and a figure is checked in each format it is written in (:func:`figure_files`). The content is written to
a temporary file in the target's folder and renamed over the target when complete (:func:`atomic_path`),
and the files of a report are kept together or not at all (:func:`complete_or_removed`): an error, Ctrl-C
or SIGTERM (which ``specbound`` turns into the same exception path) leaves neither a temporary file nor a
partial set. JSON is rendered by :func:`json_text`, which refuses non-finite numbers (JSON has none;
Python would print ``Infinity``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from numerics.safe_io import atomic_path, os_problem, writable_folder, write_text_atomically
from theory.errors import InvalidArgument, SpecboundError

__all__ = [
    "FIGURE_SUFFIXES",
    "Terminated",
    "atomic_path",
    "check_family",
    "check_target",
    "checkpoint_inputs",
    "complete_or_removed",
    "figure_files",
    "json_text",
    "prepare_folder",
    "sigterm_as_interrupt",
    "write_text_atomically",
]

FIGURE_SUFFIXES = (".png", ".pdf", ".svg")
"""Every figure is written in these formats: PNG for reading, PDF and SVG (vector) for a paper."""


def figure_files(names: Iterable[str]) -> tuple[str, ...]:
    """The file names figures ``names`` (e.g. ``proxies.png``) are written under, in every format.

    >>> figure_files(["proxies.png"])
    ('proxies.png', 'proxies.pdf', 'proxies.svg')
    """
    return tuple(str(Path(name).with_suffix(suffix)) for name in names for suffix in FIGURE_SUFFIXES)


def checkpoint_inputs(models: Iterable[str], *, folders: bool = True) -> tuple[Path, ...]:
    """Every file a run on ``models`` reads: :func:`~numerics.loading.checkpoint.checkpoint_files` of each
    (weights, every shard of an index, the config, an alias's installed file), every file beside an
    ``.onnx`` export (its external data), and (with ``folders``) for a folder of checkpoints those of each
    one directly inside it. A model that is no readable checkpoint adds nothing: the loader reports on it."""
    from numerics.loading.checkpoint import checkpoint_files

    found: list[Path] = []
    for model in models:
        try:
            files = checkpoint_files(model)
        except SpecboundError:
            with contextlib.suppress(OSError):
                if folders and Path(model).expanduser().is_dir():
                    children = [str(child) for child in Path(model).expanduser().iterdir()]
                    found += checkpoint_inputs(children, folders=False)
            continue
        found += files
        for onnx in (path for path in files if path.suffix == ".onnx"):
            with contextlib.suppress(OSError):
                found += [child for child in onnx.parent.iterdir() if not child.is_dir()]
    return tuple(found)


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
    writable_folder(option, path.absolute().parent)  # the folder atomic_path writes into
    return path


def check_family(
    option: str,
    target: str | os.PathLike[str],
    pattern: str,
    *,
    force: bool = False,
    inputs: Iterable[Path] = (),
) -> Path:
    """:func:`check_target` of ``target`` and of every existing file beside it whose name fully matches the
    regular expression ``pattern`` (the other files a run may write under that name, e.g. ``FILE_2.v``
    for the second conjunct of ``prove --coq FILE.v``); the target's path."""
    import re

    path = check_target(option, target, force=force, inputs=inputs)
    inputs, folder = tuple(inputs), path.absolute().parent
    for sibling in sorted(folder.iterdir()) if folder.is_dir() else ():
        if re.fullmatch(pattern, sibling.name):
            check_target(option, sibling, force=force, inputs=inputs)
    return path


def _same_file(path: Path, other: Path) -> bool:
    """True when both name the same file (through symlinks and hard links too); False if either is absent."""
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


def prepare_folder(
    option: str,
    folder: str | os.PathLike[str],
    names: Iterable[str],
    force: bool,
    inputs: Iterable[Path] = (),
) -> Path:
    """The output folder of ``option`` (created if missing), checked before any work: writable, and each
    of the files ``names`` it will hold checked as :func:`check_target` checks one (never an input, a
    folder, a link or a special file; an existing file only with ``force``)."""
    path, shown = Path(folder), f"{option} {os.fspath(folder)!r}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise InvalidArgument(f"{shown} is a file, not a folder") from None
    except OSError as error:
        raise InvalidArgument(f"{shown} cannot be created: {os_problem(error)}") from None
    writable_folder(option, path)
    inputs = tuple(inputs)
    existing = []
    for name in names:
        check_target(option, path / name, force=True, inputs=inputs)
        if os.path.lexists(path / name):
            existing.append(name)
    if existing and not force:
        raise InvalidArgument(f"{shown} already holds {', '.join(existing)}; pass --force to replace them")
    return path


@contextlib.contextmanager
def complete_or_removed(folder: Path, names: Iterable[str]) -> Iterator[None]:
    """The files ``names`` a block writes into ``folder``: all kept when it ends normally; when it raises
    (an error, Ctrl-C, SIGTERM), each of them that did not exist before the block is removed, so an
    interrupted report leaves no partial set behind (a file replaced under ``--force`` is already gone)."""
    new = [folder / name for name in names if not os.path.lexists(folder / name)]
    try:
        yield
    except BaseException:
        for path in new:
            path.unlink(missing_ok=True)
        raise


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the signal arrives: a KeyboardInterrupt, so that every clean-up that Ctrl-C
    runs (temporary files, partial reports) runs for it too."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (in the main thread; elsewhere no handler
    can be installed and the block runs as it is); the previous handler is restored afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
