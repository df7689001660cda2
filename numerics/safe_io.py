"""Checkpoint files without surprises: every file a checkpoint names stays inside its folder.

A checkpoint path may name anything: a FIFO (opening it blocks until a writer comes, and a blocked
``open`` ignores Ctrl-C), a device such as ``/dev/zero`` (endless), a directory, a symlink loop, a file
the OS refuses to open, or (through a symlink or a parent-folder step) a file outside the checkpoint's
folder. The helpers here turn each case into one :class:`~theory.errors.CheckpointError` naming the path and
the problem, before any reader (safetensors, torch, onnx) touches it: :func:`inside` for every file a
checkpoint names (shards, external data, its config), :func:`read_json` for every JSON file specbound did
not write itself (shard indexes, cache entries, an earlier run's output). Every output (reports, tables,
figures, caches) goes through :func:`atomic_path`: a reader never sees a half-written file. The general
readers and writers live in :mod:`theory.prover.safe_files` (the prover's commands use them too) and are
re-exported here.
"""

from __future__ import annotations

from pathlib import Path

from theory.errors import CheckpointError
from theory.prover.safe_files import (
    MAX_JSON_BYTES,
    atomic_path,
    os_problem,
    read_json,
    regular_file,
    writable_folder,
    write_text_atomically,
)

__all__ = [
    "MAX_JSON_BYTES",
    "atomic_path",
    "checkpoint_root",
    "inside",
    "os_problem",
    "read_json",
    "regular_file",
    "writable_folder",
    "write_text_atomically",
]


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
