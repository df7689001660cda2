"""How a run was obtained: the ``run`` block every JSON output and report.md carries.

The block names the specbound version, the git commit of the checkout the package runs from ("unknown"
for an installed copy), the UTC date, a sha256 content hash of every checkpoint the run read, and the
command's options, so that a result can be reproduced and two runs compared (``check --compare``).

The content hash of a checkpoint is the sha256 of its float64 projection matrices as the loader returns
them (L, N, heads, then per layer Wq, Wk, Wv, Wo, Win, Wout, each with its shape): it identifies the
weights the numbers were computed from, whatever the file format (a .bin and a .safetensors of the same
weights hash alike). Nothing is cached in the process: the run context memoises a run's hashes
(:meth:`paper_checks.context.RunContext.input_hashes`), a command hashes its one checkpoint once.
"""

from __future__ import annotations

import argparse
import datetime
import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numerics.loading.stream import Checkpoint
    from numerics.loading.weights import TransformerWeights

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
"""The folder holding theory/, numerics/ and paper_checks/: a git checkout when run from a clone."""


def version() -> str:
    """The installed specbound version ('unknown' when the source tree is not installed)."""
    from theory.version import installed_version

    return installed_version()


@functools.cache
def git_commit() -> str:
    """The commit the package's checkout is at, with '-dirty' when tracked files changed; 'unknown' when
    the package is not a git checkout or git is not available."""
    if not (PACKAGE_ROOT / ".git").exists():
        return "unknown"
    import subprocess  # here: the run block needs it, a table or --version does not (5 ms of start-up)

    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=PACKAGE_ROOT, capture_output=True, text=True, timeout=10
        )
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=PACKAGE_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if head.returncode != 0:
        return "unknown"
    return head.stdout.strip() + ("-dirty" if status.returncode == 0 and status.stdout.strip() else "")


def weights_sha256(
    weights: TransformerWeights | Checkpoint, layer_digests: Sequence[bytes] | None = None
) -> str:
    """sha256 of the loaded weights (:func:`numerics.loading.digest.weights_digest`).

    A lazily opened :class:`Checkpoint` is hashed layer by layer (one layer in memory at a time) and gets
    the same digest as the same weights loaded whole; ``layer_digests`` are the layers' digests already
    taken from the read that computed the spectra (:func:`numerics.bounds.proxies.proxies`), so the
    checkpoint is not read again."""
    from numerics.loading.digest import layer_digest, weights_digest
    from numerics.loading.weights import each_layer

    if layer_digests is None:
        # a checkpoint's layers at their stored width, each matrix upcast alone (memory: one float64 matrix)
        layers = weights.stored_layers() if callable(weights.layers) else weights.layers
        layer_digests = list(each_layer(layers, layer_digest))  # one layer held at a time
    return weights_digest(weights.num_layers, weights.hidden_size, weights.num_heads, layer_digests)


def options(args: argparse.Namespace) -> dict[str, Any]:
    """The command and its options as plain JSON values (the dispatch function left out)."""
    return {
        key: value
        for key, value in sorted(vars(args).items())
        if isinstance(value, str | int | float | bool | list | tuple) or value is None
    }


def run_block(args: argparse.Namespace, inputs: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``run`` block: version, git commit, UTC date, ``inputs`` (checkpoint -> sha256), options."""
    return {
        "specbound_version": version(),
        "git_commit": git_commit(),
        "date_utc": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "inputs": dict(sorted((inputs or {}).items())),
        "options": options(args),
    }


def markdown(block: Mapping[str, Any]) -> str:
    """The run block as the few lines report.md opens with."""
    inputs = ", ".join(f"`{name}` sha256 `{digest[:16]}…`" for name, digest in block["inputs"].items())
    chosen = " ".join(f"{k}={v}" for k, v in block["options"].items() if v not in (None, False, [], ""))
    return (
        f"specbound {block['specbound_version']}, commit `{block['git_commit']}`, "
        f"{block['date_utc']}; inputs: {inputs or 'none'}; options: `{chosen}`"
    )
