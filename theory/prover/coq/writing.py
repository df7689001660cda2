"""Write a Coq file the way every exported file is written (no python-flint needed: the report side)."""

from __future__ import annotations

from pathlib import Path

from theory.errors import InvalidArgument
from theory.prover.safe_files import os_problem, write_text_atomically


def write_coq_file(path: Path, text: str, replace: bool) -> None:
    """Write ``text`` to ``path`` atomically (:func:`theory.prover.safe_files.write_text_atomically`: never
    half-written, a symbolic link replaced rather than followed); an existing file only with ``replace``."""
    try:
        write_text_atomically(path, text, exclusive=not replace)
    except OSError as error:
        raise InvalidArgument(f"cannot write the Coq file {path}: {os_problem(error)}") from None
